//! `reversi validate`: read, replay in parallel, report in input order.

use std::io::{self, Write};

use reversi_check::event::Finding;
use reversi_check::validate::Summary;
use reversi_formats::diagnostic::{Diagnostic, Renderer};
use reversi_formats::record::GameSelector;
use reversi_runs::run::{
    self, FileCounts, InputSource, Status, Step, ValidateOptions, ValidateReport,
};

use super::input::{self, InputOptions};
use super::{exit, stderr_line, OutputFormat};

/// Replay every game and report illegal moves, wrong flips, passes, positions and results.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Files to validate; `-` (the default) reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note).
    #[arg(default_value = "-")]
    files: Vec<std::path::PathBuf>,
    #[command(flatten)]
    reading: InputOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads (default: every core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Neither show nor count diagnostics with this code (repeatable), e.g. `--allow unfinished`
    /// for an opening book.
    #[arg(long, value_name = "CODE", value_parser = super::parse_code)]
    allow: Vec<String>,
    /// The event's pairings (a CSV of `round,board,black,white`): games missing from the
    /// inputs, games no pairing has, and games with the colours swapped are reported.
    /// Default: the pairings table found in the folders given (the first, by path).
    #[arg(long, value_name = "FILE")]
    pairings: Option<std::path::PathBuf>,
    /// The player register (CSV with a header: `name`, `aliases`, `logins`, `club`,
    /// `rating`, `number`, in any order and language; several aliases or logins separated
    /// by `|`): aliases and logins are the registered player, and a name it does not hold
    /// is reported with the nearest registered names. Default: the register found in the
    /// folders given (by content).
    #[arg(long, value_name = "FILE", conflicts_with = "no_event_checks")]
    players: Option<std::path::PathBuf>,
    /// Leave out the checks across games (the same game twice, a player twice in a round,
    /// a pairing repeated), which keep a few dozen bytes for every game read.
    #[arg(long, conflicts_with = "pairings")]
    no_event_checks: bool,
    /// Validate only these games: a number (`3`, the third game of each input) or tags
    /// (`Round=3,Board=2`, `Player=Tamaru`; names ignore case).
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<GameSelector>,
    /// No progress bar, no notes, no line per file; only the findings and the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

struct Printer {
    format: OutputFormat,
    out: io::BufWriter<io::StdoutLock<'static>>,
    /// Diagnostics written so far (the JSON document separates them with commas).
    written: usize,
    /// Findings across games written so far.
    findings: usize,
    /// Whether the JSON document lists each input's counts (`files`, when more than one).
    per_file: bool,
    renderer: Renderer,
    progress: Option<super::progress::Progress>,
    /// Human lines held while a bar is drawn on the terminal they go to (see
    /// [`Printer::human`]), and since when.
    held: Vec<u8>,
    held_since: std::time::Instant,
    /// Whether standard output is the terminal the bar is drawn on.
    shares_terminal: bool,
}

/// How long human lines are held while a bar is shown: the bar is cleared and drawn
/// again at most ten times a second, whatever the number of findings.
const HOLD: std::time::Duration = std::time::Duration::from_millis(100);

/// How much human output is held at most before it is written (a terminal takes it in a
/// few milliseconds).
const HELD_BYTES: usize = 1 << 20;

impl Printer {
    fn diagnostic(
        &mut self,
        d: &Diagnostic,
        source: &reversi_formats::diagnostic::Source,
    ) -> io::Result<()> {
        match self.format {
            OutputFormat::Human => {
                let text = self.renderer.render(d, source);
                self.human(&text)
            }
            OutputFormat::Json => {
                let value = json_line(&self.renderer.locate(d, source))?;
                let comma = if self.written == 0 { "" } else { "," };
                self.written += 1;
                write!(self.out, "{comma}{value}")
            }
            OutputFormat::Jsonl => {
                let value = json_line(&self.renderer.locate(d, source))?;
                writeln!(self.out, "{value}")
            }
        }
    }

    /// A finding across games: after the games' diagnostics (in JSON, in its own array).
    fn finding(&mut self, finding: &Finding) -> io::Result<()> {
        match self.format {
            OutputFormat::Human => self.human(&finding.to_string()),
            OutputFormat::Json => {
                let value = json_line(finding)?;
                // The findings across games have their own array, after the diagnostics.
                let comma = if self.findings == 0 {
                    "],\"findings\":["
                } else {
                    ","
                };
                self.findings += 1;
                write!(self.out, "{comma}{value}")
            }
            OutputFormat::Jsonl => writeln!(self.out, "{}", json_line(finding)?),
        }
    }
}

impl Printer {
    /// A line of the human report: straight to standard output, unless a bar is drawn on
    /// the terminal it goes to; then the lines are held and written with the bar cleared
    /// at most every [`HOLD`] (a run of many findings would redraw the bar for each).
    fn human(&mut self, text: &str) -> io::Result<()> {
        if !(self.shares_terminal && self.progress.is_some()) {
            return writeln!(self.out, "{text}");
        }
        if self.held.is_empty() {
            self.held_since = std::time::Instant::now();
        }
        writeln!(self.held, "{text}")?;
        self.tick()
    }

    /// Writes the lines held for [`HOLD`] or longer (or [`HELD_BYTES`] of them).
    fn tick(&mut self) -> io::Result<()> {
        if self.held.is_empty()
            || (self.held_since.elapsed() < HOLD && self.held.len() < HELD_BYTES)
        {
            return Ok(());
        }
        self.release()
    }

    /// Writes every line held, with the bar cleared, and flushes standard output.
    fn release(&mut self) -> io::Result<()> {
        let (out, held) = (&mut self.out, &self.held);
        let mut write = move || {
            out.write_all(held)?;
            out.flush()
        };
        if held.is_empty() || self.progress.is_none() {
            write()?;
        } else {
            super::progress::suspend(write)?;
        }
        self.held.clear();
        Ok(())
    }

    /// The counts of the input `name`, just ended: a line (human, unless `quiet`), an
    /// entry of `files` (JSON), or a `file` line (JSON Lines).
    fn file_ended(&mut self, name: &str, counts: &Summary, quiet: bool) -> io::Result<()> {
        match self.format {
            OutputFormat::Human if quiet => Ok(()),
            OutputFormat::Human => self.human(&format!("{name}: {}", counts.games_line())),
            OutputFormat::Json => {
                self.per_file = true;
                Ok(())
            }
            OutputFormat::Jsonl => {
                let counts = FileCounts {
                    file: name.to_owned(),
                    counts: counts.clone(),
                };
                writeln!(self.out, "{}", json_line(&counts)?)
            }
        }
    }
}

/// `value` as one line of JSON.
fn json_line(value: &impl serde::Serialize) -> io::Result<String> {
    serde_json::to_string(value).map_err(io::Error::other)
}

pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    // Folders stand for the record files below them; a register among them is read as one.
    let mut expanded = input::expand_event(&args.files, args.quiet)?;
    let checks = !args.no_event_checks;
    input::notes(expanded.unused_event_files(!checks, !checks), args.quiet);
    args.files = std::mem::take(&mut expanded.inputs);
    let register = match checks {
        true => input::register(&expanded, args.players.as_deref(), args.quiet)?,
        false => None,
    };
    let pairings = match checks {
        true => input::pairings(&expanded, args.pairings.as_deref(), args.quiet)?,
        false => None,
    };
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let human = args.format == OutputFormat::Human;
    let progress = super::progress::Progress::start(&args.files, args.quiet || !human, true);
    let mut printer = Printer {
        format: args.format,
        out: io::BufWriter::new(io::stdout().lock()),
        written: 0,
        findings: 0,
        per_file: false,
        renderer: Renderer::terminal(),
        progress,
        held: Vec::new(),
        held_since: std::time::Instant::now(),
        shares_terminal: std::io::IsTerminal::is_terminal(&io::stdout()),
    };
    let options = ValidateOptions {
        jobs: Some(jobs),
        allow: args.allow.clone(),
        event_checks: checks,
        select: args.game.clone(),
        pairings,
        register: register.map(std::sync::Arc::new),
    };
    let outcome = validate_files(&args, &options, &mut printer).and_then(|report| {
        // The bar is cleared before the summary, the lines held written.
        printer.release().map_err(Stopped::of(report.status()))?;
        if let Some(p) = printer.progress.take() {
            p.finish();
        }
        print_summary(&mut printer, &report).map(|()| report)
    });
    let _ = printer.release();
    if let Some(p) = printer.progress.take() {
        p.finish();
    }
    let status = match outcome {
        Ok(report) => {
            if let Some(selector) = &args.game {
                if report.summary.games == 0 && report.failed.is_empty() {
                    stderr_line(format_args!(
                        "error: --game {selector}: no game of the inputs is selected"
                    ));
                    return Ok(exit::USAGE);
                }
            }
            report.status()
        }
        // A closed standard output ends the work quietly; the status says what was found.
        Err(Stopped::Pipe(status)) => status,
        Err(Stopped::Io(e)) => {
            return Err(io::Error::new(
                e.kind(),
                format!("writing the report to standard output failed: {e}"),
            ))
        }
    };
    Ok(match status {
        Status::Failed => exit::USAGE,
        Status::Invalid => exit::INVALID,
        Status::Clean => exit::OK,
    })
}

/// Why the report stopped early.
enum Stopped {
    /// Standard output was closed; what was reported so far says.
    Pipe(Status),
    /// Writing standard output failed.
    Io(io::Error),
}

impl Stopped {
    /// What an error writing standard output stops, when what was reported says `status`.
    fn of(status: Status) -> impl Fn(io::Error) -> Stopped {
        move |e| match e.kind() {
            io::ErrorKind::BrokenPipe => Stopped::Pipe(status),
            _ => Stopped::Io(e),
        }
    }
}

/// Validates every file with the library's run, printing what it finds as it comes;
/// stops at the first error writing standard output.
fn validate_files(
    args: &Args,
    options: &ValidateOptions,
    printer: &mut Printer,
) -> Result<ValidateReport, Stopped> {
    let human = args.format == OutputFormat::Human;
    let input_options = args.reading.run();
    if args.format == OutputFormat::Json {
        write!(printer.out, "{{\"diagnostics\":[").map_err(Stopped::Io)?;
    }
    let counter = super::progress::Counter::of(printer.progress.as_ref());
    let inputs = args.files.iter().map(|path| {
        run::open(InputSource::path(path), &input_options).map(|input| counter.input(input))
    });
    // A line per input when there are several.
    let per_file = args.files.len() > 1;
    let outcome = run::validate(inputs, options, |step| {
        match step {
            Step::Input { note, .. } => {
                if human && !args.quiet {
                    printer.release()?;
                    stderr_line(format_args!("note: {note}"));
                }
            }
            Step::OpenFailed(e) => {
                printer.release()?;
                stderr_line(format_args!("error: {}", input::message(e)));
            }
            Step::Game(game, diagnostics) => {
                for d in diagnostics {
                    printer.diagnostic(d, &game.source)?;
                }
                super::progress::games(printer.progress.as_ref(), 1);
                printer.tick()?;
            }
            Step::Clean(games) => {
                super::progress::games(printer.progress.as_ref(), games as u64);
                printer.tick()?;
            }
            Step::ReadFailed { name, error } => {
                printer.release()?;
                stderr_line(format_args!("error: {name}: reading failed: {error}"));
            }
            Step::Ended { name, counts } if per_file => {
                printer.file_ended(name, counts, args.quiet)?
            }
            Step::Ended { .. } => {}
            Step::Finding(finding) => printer.finding(finding)?,
        }
        Ok(())
    });
    outcome.map_err(|stopped| Stopped::of(stopped.report.status())(stopped.error))
}

/// The summary line, or the summary object that ends the JSON forms.
fn print_summary(printer: &mut Printer, report: &ValidateReport) -> Result<(), Stopped> {
    write_summary(printer, report).map_err(Stopped::of(report.status()))
}

fn write_summary(printer: &mut Printer, report: &ValidateReport) -> io::Result<()> {
    let summary = &report.summary;
    let summary_json = json_line(summary)?;
    match printer.format {
        OutputFormat::Human if summary.codes.is_empty() => writeln!(printer.out, "{summary}")?,
        OutputFormat::Human => writeln!(printer.out, "by code: {}\n{summary}", summary.codes)?,
        OutputFormat::Json if printer.per_file => {
            let files = json_line(&report.files)?;
            writeln!(
                printer.out,
                "],\"files\":{files},\"summary\":{summary_json}}}"
            )?
        }
        OutputFormat::Json => writeln!(printer.out, "],\"summary\":{summary_json}}}")?,
        OutputFormat::Jsonl => writeln!(printer.out, "{{\"summary\":{summary_json}}}")?,
    }
    printer.out.flush()
}
