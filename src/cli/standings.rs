//! `reversi standings`: the standings and crosstable of each event of the games read
//! (the library's [`Event::standings`](reversi_check::event::Event::standings) run).

use std::io;
use std::path::PathBuf;

use reversi_check::event::StandingsRequest;

use super::input::{self, InputOptions};
use super::{exit, output, stderr_line};

/// The standings of an event: points (a win 1, a draw 1/2), then the Brightwell quotient,
/// then discs; with a crosstable by round and a summary per player. Results come from the
/// boards when the games are replayed to their end, from the records otherwise, every
/// disagreement named (spec/standings.md).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The event's sheets: files, or folders standing for the record files below them; `-`
    /// reads standard input.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// What to write: an aligned text table, JSON, CSV or a standalone HTML page.
    #[arg(long, value_enum, default_value_t = StandingsFormat::Text)]
    format: StandingsFormat,
    /// Output file, replaced only when the standings are made (never an input); `-` (the
    /// default) writes standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Only the event of this name, when the games hold several (the games of one `Event`
    /// tag and rules are one event, each ranked on its own); with one, the name it is shown
    /// under (default: the games' `Event` tag).
    #[arg(long)]
    event: Option<String>,
    /// A player who withdrew (repeatable): their opponents count them as a bye for the
    /// Brightwell quotient. Default: in each event, the players without a game in its last
    /// round.
    #[arg(long, value_name = "NAME")]
    withdrawn: Vec<String>,
    /// The director's pairings file (CSV: `round,board,black,white[,result]`, or columns
    /// named in any order and language): its byes, forfeits (`+:-`, `-:+`), withdrawals
    /// and games without a record yet go into the standings (`spec/standings.md`).
    /// Default: the pairings table found in the folders given (the first, by path).
    #[arg(long, value_name = "FILE")]
    pairings: Option<PathBuf>,
    /// The player register (CSV with a header: `name`, `aliases`, `logins`, `club`,
    /// `rating`, `number`): aliases and logins count for the registered player, shown
    /// under the registered name. Default: the register found in the folders given.
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    #[command(flatten)]
    input: InputOptions,
    /// Worker threads (default: every core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No notes; only errors and the standings.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StandingsFormat {
    Text,
    Json,
    Csv,
    Html,
}

pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    let mut expanded = input::expand_event(&args.inputs, args.quiet)?;
    args.inputs = std::mem::take(&mut expanded.inputs);
    let pairings = match input::pairings(&expanded, args.pairings.as_deref(), args.quiet) {
        Ok(schedule) => schedule,
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            return Ok(exit::USAGE);
        }
    };
    let register = match input::register(&expanded, args.players.as_deref(), args.quiet) {
        Ok(register) => register,
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            return Ok(exit::USAGE);
        }
    };
    let options = args.input.clone();
    let (mut event, failed_inputs) = input::gather(&args.inputs, &options, args.jobs, args.quiet)?;
    if let Some(register) = register {
        event.set_register(std::sync::Arc::new(register));
    }
    let request = StandingsRequest {
        event: args.event.clone(),
        withdrawn: (!args.withdrawn.is_empty()).then(|| args.withdrawn.clone()),
        pairings,
    };
    let report = match event.standings(&request) {
        Ok(report) => report,
        Err(unknown) => {
            stderr_line(format_args!("error: {unknown}"));
            return Ok(exit::USAGE);
        }
    };
    if !args.quiet {
        for note in &report.notes {
            stderr_line(format_args!("note: {note}"));
        }
    }
    if report.events.is_empty() {
        stderr_line("error: no game names its round and both players: no standings");
        return Ok(refused(failed_inputs));
    }
    for problem in report.problems() {
        stderr_line(format_args!("error: {problem}"));
    }
    let ranked = report
        .events
        .iter()
        .filter(|e| e.standings.is_some())
        .count();
    if ranked == 0 || !report.problems.is_empty() {
        stderr_line("error: no standings: fix the sheets (or `--withdrawn`) and run again");
        return Ok(refused(failed_inputs));
    }
    if ranked < report.events.len() {
        stderr_line(format_args!(
            "error: {} of {} events have no standings (above): the others are written",
            report.events.len() - ranked,
            report.events.len()
        ));
    }
    let text = match args.format {
        StandingsFormat::Text => report.to_text(),
        StandingsFormat::Json => report.to_json(),
        StandingsFormat::Csv => report.to_csv(),
        StandingsFormat::Html => report.to_html(),
    };
    let inputs: Vec<&std::path::Path> = args.inputs.iter().map(PathBuf::as_path).collect();
    let mut protected = output::name_files(&args.inputs, args.input.names.as_deref());
    protected.extend(inputs.iter().map(|p| p.to_path_buf()));
    protected.extend(args.pairings.iter().cloned());
    let protected: Vec<&std::path::Path> = protected.iter().map(PathBuf::as_path).collect();
    let written = output::write_whole(&args.output, &protected, text.as_bytes());
    let status = if failed_inputs {
        exit::USAGE
    } else if !report.is_complete() {
        exit::INVALID
    } else {
        exit::OK
    };
    output::finish_whole(&args.output, written, status)
}

/// The exit code of standings refused: an input that could not be read says more (2) than
/// the sheets' problems (1), as in `validate`.
fn refused(failed_inputs: bool) -> u8 {
    if failed_inputs {
        exit::USAGE
    } else {
        exit::INVALID
    }
}
