//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::PathBuf;

use reversi_formats::Format;
use reversi_runs::run::{self, ConvertOptions, ConvertReport, Copies};

use super::input;
use super::output;
use super::{exit, OutputFormat};

mod report;

use report::Report;

/// Convert records to another format. What the target cannot hold is refused, naming the
/// game and what would be lost, unless `--lossy` is given.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Target format, `FORMAT[:DIALECT]`: `rgn`, `json`, `json:lines`, `wthor`, `ggf`, `pgn`, `pgn:thor`, `pgn:playok`, `pgn:edax`, `sgf`, `moves`, `moves:nopass` (passes left out), `transcript`, `obf`.
    #[arg(long, value_parser = input::parse_target)]
    to: (Format, Option<String>),
    /// Output file; `-` (the default) writes standard output. A name with fields writes a
    /// file for each value the games give: `WTH_{year}.wtb`, `{event}/round-{round}.rgn`,
    /// any tag as `{TagName}` (`unknown` when a game has none; folders are created).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    #[command(flatten)]
    input: input::InputOptions,
    /// The year every game of a WTHOR output is filed under (its header holds one year);
    /// without it, the games' own year, which must be the same in every game.
    #[arg(long, value_name = "YYYY")]
    year: Option<u16>,
    /// Convert what the target can hold and list what was dropped, instead of refusing.
    #[arg(long)]
    lossy: bool,
    /// Convert only these games: a number (`3`, the third game of each input) or tags
    /// (`Round=3`, `Player=Tamaru`; names ignore case).
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<reversi_formats::record::GameSelector>,
    #[command(flatten)]
    edits: TagEditArgs,
    /// Write each game once: of the copies of one game (`exact`: the same moves; with
    /// `symmetric`, also under the board's symmetries) the one with the most information is
    /// kept (players, result, event, round and date, a replay without errors; on a tie the
    /// first in the order of the inputs), and each copy left out is named with the reason.
    /// The inputs are read twice (not standard input).
    #[arg(long, value_enum, value_name = "COPIES", num_args = 0..=1, require_equals = true, default_missing_value = "exact")]
    dedupe: Option<Dedupe>,
    /// No notes on standard error; refusals and losses are still reported.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// How the report on standard error is written: `human` (errors in full, the rest
    /// gathered per file and kind), or `json`/`jsonl` with every game's outcome, findings
    /// and losses, and a summary (one document, or one object per line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads reading and rendering the games (default: one per core); the
    /// output is the same with any number.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

/// Which copies `--dedupe` leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Dedupe {
    /// The same moves as written.
    Exact,
    /// The same moves, or the same under one of the board's symmetries.
    Symmetric,
}

pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    // Folders stand for the record files below them.
    args.inputs = input::expand(&args.inputs, args.quiet)?;
    let (target, dialect) = args.to.clone();
    let options = ConvertOptions {
        target,
        dialect,
        output: args.output.clone(),
        input: args.input.run(),
        year: args.year,
        lossy: args.lossy,
        select: args.game.clone(),
        edits: args.edits.edits()?,
        dedupe: args.dedupe.map(|copies| match copies {
            Dedupe::Exact => Copies::Exact,
            Dedupe::Symmetric => Copies::Symmetric,
        }),
        jobs: Some(super::capped_jobs(args.jobs, args.quiet)),
        guarded: args.edits.rename.iter().cloned().collect(),
    };
    let mut report = Report::new(&args, options.target_name());
    let counter = report.counter.clone();
    let tap = move |input| match counter.lock() {
        Ok(counter) => counter.input(input),
        Err(_) => input,
    };
    let done = run::convert_tapped(&args.inputs, &options, tap, |step| report.step(step));
    report.end_pass();
    match done {
        Ok(summary) => {
            report.summary(&summary)?;
            Ok(status(&summary))
        }
        // A closed standard output ends the work quietly; the status says what was found.
        Err(stopped) if output::is_closed_pipe(&stopped.error) => Ok(status(&stopped.report)),
        Err(stopped) => Err(stopped.error),
    }
}

/// The exit status: an input could not be read (or nothing was selected); or a game had an
/// error or was not converted; or all is well.
fn status(report: &ConvertReport) -> u8 {
    match report.status() {
        run::Status::Failed => exit::USAGE,
        run::Status::Invalid => exit::INVALID,
        run::Status::Clean => exit::OK,
    }
}

/// Tag edits over whole files, for `convert` and `repair`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TagEditArgs {
    /// Set a tag on every game written, or on those `--game` selects (repeatable): `--set
    /// Round=4 --set "Event=Paris Open"`; an empty value removes the tag. `Rules`, `Start`, `Result` and `Termination`
    /// change what a game means and are refused.
    #[arg(long = "set", value_name = "TAG=VALUE")]
    set: Vec<reversi_formats::record::SetTag>,
    /// Map players' names: a CSV of `old,new` lines (or `;`), or a player register (its
    /// header tells it: every alias and login becomes the registered name). Names are
    /// compared ignoring case, accents, punctuation and spacing.
    #[arg(long, value_name = "FILE")]
    pub(crate) rename: Option<PathBuf>,
}

impl TagEditArgs {
    /// The edits asked for: a names map is a player register when it reads as one (by
    /// its header), `old,new` lines otherwise.
    pub(crate) fn edits(&self) -> io::Result<reversi_formats::record::TagEdits> {
        let mut edits = reversi_formats::record::TagEdits::default();
        for tag in &self.set {
            edits.set(tag.clone());
        }
        let Some(path) = &self.rename else {
            return Ok(edits);
        };
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| {
            io::Error::new(e.kind(), format!("{shown}: cannot read the names: {e}"))
        })?;
        let invalid =
            |e: String| io::Error::new(io::ErrorKind::InvalidInput, format!("{shown}: {e}"));
        if reversi_check::event::Register::looks_like(&bytes) {
            let register = reversi_check::event::Register::from_bytes(&bytes)
                .map_err(|e| invalid(e.to_string()))?;
            for (old, new) in register.renames() {
                edits.rename(old, new);
            }
        } else {
            let text = reversi_formats::text::decode_line_by_line(&bytes);
            edits
                .read_renames(&text)
                .map_err(|e| invalid(e.to_string()))?;
        }
        Ok(edits)
    }
}
