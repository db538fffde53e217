//! `reversi players`: a first player register from the records, for the director to
//! correct and keep beside them (`--players FILE`).

use std::io;
use std::path::PathBuf;

use reversi_check::event::Register;

use super::input::{self, InputOptions};
use super::{exit, output, stderr_line};

/// Write a first player register from the records: one line per player, the spellings
/// that look like one player (word order, initials, accents, a letter off) gathered as
/// aliases and logins of the fullest one. Check it, then keep it beside the records.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The event's sheets: files, or folders standing for the record files below them.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output file (never an input; `-`, the default, writes standard output).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    #[command(flatten)]
    reading: InputOptions,
    /// Worker threads (default: every core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No notes; only errors and the register.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let expanded = input::expand_event(&args.inputs, args.quiet)?;
    input::notes(expanded.unused_event_files(false, true), args.quiet);
    let options = args.reading.clone();
    let (event, failed_inputs) = input::gather(&expanded.inputs, &options, args.jobs, args.quiet)?;
    let names = event.player_names();
    if names.is_empty() {
        stderr_line("error: no game names a player: no register");
        return Ok(exit::INVALID);
    }
    let register = Register::draft(&names);
    if !args.quiet {
        stderr_line(format_args!(
            "note: {} players from {} spellings: check them before use",
            register.players().len(),
            names.len()
        ));
    }
    let mut protected = output::name_files(&expanded.inputs, args.reading.names.as_deref());
    protected.extend(expanded.inputs.iter().cloned());
    protected.extend(expanded.registers.iter().cloned());
    let protected: Vec<&std::path::Path> = protected.iter().map(PathBuf::as_path).collect();
    let written = output::write_whole(&args.output, &protected, register.to_csv().as_bytes());
    let status = if failed_inputs { exit::USAGE } else { exit::OK };
    output::finish_whole(&args.output, written, status)
}
