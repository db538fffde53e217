//! `reversi validate`: read, replay in parallel, report in input order.

use std::io::{self, Write};

use reversi_record::diagnostic::{Diagnostic, Renderer, Source};
use reversi_record::event::{Event, Finding, Schedule};
use reversi_record::formats::Format;
use reversi_record::pipeline::validation::{Event as Found, Validation};
use reversi_record::record::GameSelector;
use reversi_record::validate::Summary;
use reversi_record::Rules;

use super::input::{self, InputOptions};
use super::{exit, stderr_line, OutputFormat};

/// Replay every game and report illegal moves, wrong flips, passes, positions and results.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Files to validate; `-` (the default) reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note).
    #[arg(default_value = "-")]
    files: Vec<std::path::PathBuf>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    #[arg(long, value_parser = super::parse_rules)]
    rules: Option<Rules>,
    /// Read as this format (`FORMAT[:DIALECT]`) instead of detecting it.
    #[arg(long, value_parser = input::parse_format)]
    from: Option<Format>,
    /// Directory of the WTHOR name files (WTHOR.JOU, WTHOR.TRN); default: beside the game file.
    #[arg(long, value_name = "DIR")]
    names: Option<std::path::PathBuf>,
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
    /// The counts of each input, for the JSON document's `files` (when more than one).
    files: Vec<serde_json::Value>,
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
    fn diagnostic(&mut self, d: &Diagnostic, source: &Source) -> io::Result<()> {
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
        let mut value = serde_json::json!({ "file": name });
        if let (Some(value), serde_json::Value::Object(counts)) =
            (value.as_object_mut(), serde_json::to_value(counts)?)
        {
            value.extend(counts.into_iter().filter(|(k, _)| k != "files"));
        }
        match self.format {
            OutputFormat::Human if quiet => Ok(()),
            OutputFormat::Human => self.human(&format!("{name}: {}", counts.games_line())),
            OutputFormat::Json => {
                self.files.push(value);
                Ok(())
            }
            OutputFormat::Jsonl => writeln!(self.out, "{}", json_line(&value)?),
        }
    }
}

/// `value` as one line of JSON.
fn json_line(value: &impl serde::Serialize) -> io::Result<String> {
    serde_json::to_string(value).map_err(io::Error::other)
}

pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    // Folders stand for the record files below them; a register among them is read as one.
    let expanded = input::expand_event(&args.files, args.quiet)?;
    expanded.skip_event_files(args.no_event_checks, args.no_event_checks, args.quiet);
    args.files = expanded.inputs;
    let register = match args.no_event_checks {
        true => None,
        false => input::register(args.players.as_deref(), &expanded.registers, args.quiet)?,
    };
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let human = args.format == OutputFormat::Human;
    let progress = super::progress::Progress::start(&args.files, args.quiet || !human, true);
    let mut printer = Printer {
        format: args.format,
        out: io::BufWriter::new(io::stdout().lock()),
        written: 0,
        findings: 0,
        files: Vec::new(),
        renderer: Renderer::terminal(),
        progress,
        held: Vec::new(),
        held_since: std::time::Instant::now(),
        shares_terminal: std::io::IsTerminal::is_terminal(&io::stdout()),
    };
    let pairings = match args.no_event_checks {
        true => None,
        false => input::pairings(args.pairings.as_deref(), &expanded.pairings, args.quiet)?,
    };
    let mut failed_inputs = false;
    let mut event = Event::default();
    let has_register = register.is_some();
    if let Some(register) = register {
        event.set_register(std::sync::Arc::new(register));
    }
    let outcome = validate_files(&args, jobs, &mut printer, &mut failed_inputs, &mut event)
        .and_then(|mut summary| {
            if event.games().len() > 1 || pairings.is_some() || has_register {
                print_findings(
                    &mut printer,
                    &args.allow,
                    &event,
                    pairings.as_ref(),
                    &mut summary,
                )?;
            }
            Ok(summary)
        })
        .and_then(|summary| {
            // The bar is cleared before the summary, the lines held written.
            printer.release().map_err(Stopped::of(summary.is_clean()))?;
            if let Some(p) = printer.progress.take() {
                p.finish();
            }
            print_summary(&mut printer, &summary).map(|()| summary)
        });
    let _ = printer.release();
    if let Some(p) = printer.progress.take() {
        p.finish();
    }
    if let (Ok(summary), Some(selector)) = (&outcome, &args.game) {
        if summary.games == 0 && !failed_inputs {
            stderr_line(format_args!(
                "error: --game {selector}: no game of the inputs is selected"
            ));
            return Ok(exit::USAGE);
        }
    }
    let clean = match outcome {
        Ok(summary) => summary.is_clean(),
        // A closed standard output ends the work quietly; the status says what was found.
        Err(Stopped::Pipe(clean)) => clean,
        Err(Stopped::Io(e)) => {
            return Err(io::Error::new(
                e.kind(),
                format!("writing the report to standard output failed: {e}"),
            ))
        }
    };
    Ok(if failed_inputs {
        exit::USAGE
    } else if !clean {
        exit::INVALID
    } else {
        exit::OK
    })
}

/// Why the report stopped early.
enum Stopped {
    /// Standard output was closed; whether everything reported so far was clean.
    Pipe(bool),
    /// Writing standard output failed.
    Io(io::Error),
}

impl Stopped {
    /// What an error writing standard output stops, when what was reported was `clean`.
    fn of(clean: bool) -> impl Fn(io::Error) -> Stopped {
        move |e| match e.kind() {
            io::ErrorKind::BrokenPipe => Stopped::Pipe(clean),
            _ => Stopped::Io(e),
        }
    }
}

/// An input as the reading opened it, for the report.
enum Opened {
    /// Its name and the note saying how it is read.
    Input(std::sync::Arc<str>, String),
    /// Why it could not be opened.
    Failed(io::Error),
}

/// Prints the findings across games that `--allow` leaves, counting them.
fn print_findings(
    printer: &mut Printer,
    allow: &[String],
    event: &Event,
    pairings: Option<&Schedule>,
    summary: &mut Summary,
) -> Result<(), Stopped> {
    event.check_each(pairings, |finding| {
        if allow
            .iter()
            .any(|a| a.eq_ignore_ascii_case(finding.code.name()))
        {
            return Ok(());
        }
        summary.add_across_games(finding.code, finding.severity);
        printer.finding(&finding).map_err(Stopped::of(false))
    })
}

/// Validates every file with the library's pipeline, printing findings as they come and
/// gathering the games' facts into `event`; stops at the first error writing standard
/// output.
fn validate_files(
    args: &Args,
    jobs: usize,
    printer: &mut Printer,
    failed_inputs: &mut bool,
    event: &mut Event,
) -> Result<Summary, Stopped> {
    let human = args.format == OutputFormat::Human;
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    if args.format == OutputFormat::Json {
        write!(printer.out, "{{\"diagnostics\":[").map_err(Stopped::Io)?;
    }
    let counter = super::progress::Counter::of(printer.progress.as_ref());
    let inputs = args
        .files
        .iter()
        .map(|path| match input::open(path, &options) {
            Ok(input) => (
                Opened::Input(input.name.clone(), input.note()),
                Some(counter.input(input.into_validation())),
            ),
            Err(e) => (Opened::Failed(e), None),
        });
    let mut name = std::sync::Arc::from("-");
    // A line per input when there are several.
    let per_file = args.files.len() > 1;
    let outcome = Validation::new()
        .jobs(jobs)
        .allow(args.allow.iter().cloned())
        .gather(!args.no_event_checks)
        .select(args.game.clone())
        .run(inputs, |found| {
            match found {
                Found::Facts(block) => event.absorb(block),
                Found::Start(Opened::Input(input_name, note)) => {
                    event.start_input(input_name.clone());
                    name = input_name;
                    if human && !args.quiet {
                        printer.release()?;
                        stderr_line(format_args!("note: {note}"));
                    }
                }
                Found::Start(Opened::Failed(e)) => {
                    printer.release()?;
                    stderr_line(format_args!("error: {e}"));
                    *failed_inputs = true;
                }
                Found::Game(game, diagnostics) => {
                    for d in diagnostics {
                        printer.diagnostic(d, &game.source)?;
                    }
                    super::progress::games(printer.progress.as_ref(), 1);
                    printer.tick()?;
                }
                Found::Clean(games) => {
                    super::progress::games(printer.progress.as_ref(), games as u64);
                    printer.tick()?;
                }
                Found::ReadFailed(e) => {
                    printer.release()?;
                    stderr_line(format_args!("error: {name}: reading failed: {e}"));
                    *failed_inputs = true;
                }
                Found::Ended(counts) if per_file => {
                    printer.file_ended(&name, counts, args.quiet)?
                }
                Found::Ended(_) => {}
            }
            Ok(())
        });
    outcome.map_err(|stopped| match stopped.error.kind() {
        io::ErrorKind::BrokenPipe => Stopped::Pipe(stopped.counts.is_clean()),
        _ => Stopped::Io(stopped.error),
    })
}

/// The summary line, or the summary object that ends the JSON forms.
fn print_summary(printer: &mut Printer, summary: &Summary) -> Result<(), Stopped> {
    write_summary(printer, summary).map_err(Stopped::of(summary.is_clean()))
}

fn write_summary(printer: &mut Printer, summary: &Summary) -> io::Result<()> {
    let summary_json = json_line(summary)?;
    match printer.format {
        OutputFormat::Human if summary.codes.is_empty() => writeln!(printer.out, "{summary}")?,
        OutputFormat::Human => writeln!(printer.out, "by code: {}\n{summary}", summary.codes)?,
        OutputFormat::Json if !printer.files.is_empty() => {
            let files = json_line(&printer.files)?;
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
