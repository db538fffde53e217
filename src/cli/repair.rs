//! `reversi repair`: find the game the players actually played, write every game out and
//! report what was changed.

use std::io::{self, Write};
use std::path::PathBuf;

use reversi_check::repair::{Repair, RepairOptions, RepairReport, Status, WorkLimit};
use reversi_formats::diagnostic::{Diagnostic, Report, Source};
use reversi_formats::record::GameSelector;
use reversi_formats::{Format, ParsedGame};
use reversi_runs::run::{self, Pick, RepairCounts, RepairRunOptions, RepairRunReport, RepairStep};
use serde_json::json;

use super::input::{self, InputOptions};
use super::output;
use super::{exit, OutputFormat};

/// Repair records: for a game that does not replay, find the smallest set of edits (swapped,
/// misread, doubled or left-out moves; misread, missing or doubled grid numbers) that makes
/// every move legal and the result as claimed. A game whose moves are legal but whose
/// result is not the board's is reported (the result is wrong: reversed, a digit typo, ...)
/// and fixed only with `--fix-result`. Every game is written out in input order; the
/// report lists each edit.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note)..
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output format, `FORMAT[:DIALECT]` (default: the first input's format; RGN for move
    /// strings and CSV tables, which hold no tags, with a note).
    #[arg(long, value_parser = input::parse_format)]
    to: Option<Format>,
    /// Output file, replaced only when the run succeeds and writes a game (never an input
    /// or its WTHOR name files); `-` (the default) writes standard output, and the report
    /// then goes to standard error.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Write what the output format can hold and drop the rest (as `convert --lossy`), instead
    /// of leaving a game out.
    #[arg(long)]
    lossy: bool,
    #[command(flatten)]
    input: InputOptions,
    /// The most move edits one repair may make (a result edit comes on top).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    max_edits: u8,
    /// The work one game's search may do, in replays of a move list (a grid read again
    /// counts as 20); raise it for `--max-edits 3` or 4.
    #[arg(long, value_name = "REPLAYS", default_value_t = WorkLimit::default().replays, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    work_limit: usize,
    /// Write the board's result when the moves are legal but the claimed result is not the
    /// board's, with a `Repair` tag saying so; without it such a game is reported and
    /// written unchanged.
    #[arg(long)]
    fix_result: bool,
    /// The event's pairings (as `validate --pairings`): a game whose result is the board's
    /// reversed while its pairing has the players the other way round was written from
    /// White's side, and is repaired by exchanging the names (each player keeps the score
    /// the sheet gives them). Default: the pairings table found in the folders given.
    #[arg(long, value_name = "FILE")]
    pairings: Option<PathBuf>,
    /// The player register the pairings' names are read through (as `validate
    /// --players`). Default: the register found in the folders given.
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    /// Take alternative N of an ambiguous game, numbered as the report lists them:
    /// `GAME:N` for game GAME of the input (repeatable), or `N` when the input holds one
    /// game. Needs a single input file.
    #[arg(long, value_name = "[GAME:]N", value_parser = parse_pick)]
    pick: Vec<Pick>,
    /// Repair only these games: a number (`3`) or tags (`Round=3,Board=2`,
    /// `Player=Tamaru`); the other games are written as they were read (without the tag
    /// edits of `--set` and `--rename`), and not reported.
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<GameSelector>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads (default: every core; at most 4 per core, with a note).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Quiet: no notes, no report for each game; for each file at most a line for what the
    /// output could not hold (its first game, and how many more) and a line for the games
    /// left as written (ambiguous, unrepairable, a wrong result); the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    edits: super::convert::TagEditArgs,
}

/// `3:2` (game 3, alternative 2) or `2`; both numbers from 1.
fn parse_pick(text: &str) -> Result<Pick, String> {
    let number = |t: &str, what: &str| match t.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "expected {what} (a number from 1), but found `{t}` instead; write `GAME:N` or `N`"
        )),
    };
    match text.split_once(':') {
        Some((g, n)) => Ok(Pick {
            game: Some(number(g, "a game number")?),
            n: number(n, "an alternative number")?,
        }),
        None => Ok(Pick {
            game: None,
            n: number(text, "an alternative number")?,
        }),
    }
}

/// Standard error for the report: a write that fails there loses the line, not the run.
struct Lenient<W: Write>(W);

impl<W: Write> Write for Lenient<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.0.write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// Repairs the games with the library's run ([`run::repair`]) and prints what it does: a
/// report for each game (human, or the JSON document of `--format json`) on standard output
/// when the games go to a file, else on standard error; the summary last. A closed standard
/// output ends the run quietly with its status.
pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    let edits = args.edits.edits()?;
    // Folders stand for the record files below them; the pairings and the register found
    // there tell a sheet written from White's side.
    let mut expanded = input::expand_event(&args.inputs, args.quiet)?;
    args.inputs = std::mem::take(&mut expanded.inputs);
    let pairings = input::pairings(&expanded, args.pairings.as_deref(), args.quiet)?;
    let register = match pairings {
        Some(_) => input::register(&expanded, args.players.as_deref(), args.quiet)?,
        None => {
            input::notes(expanded.unused_event_files(true, false), args.quiet);
            None
        }
    };
    if args.format == OutputFormat::Jsonl {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--format for repair is human or json",
        ));
    }
    let options = RepairRunOptions {
        to: args.to,
        output: args.output.clone(),
        lossy: args.lossy,
        input: args.input.run(),
        search: RepairOptions {
            max_edits: usize::from(args.max_edits),
            work_limit: WorkLimit {
                replays: args.work_limit,
            },
        },
        fix_result: args.fix_result,
        pairings,
        register,
        picks: args.pick.clone(),
        select: args.game.clone(),
        edits,
        jobs: Some(super::capped_jobs(args.jobs, args.quiet)),
    };
    let to_file = !output::is_stdout(args.output.as_os_str());
    let report: Box<dyn Write> = if to_file {
        Box::new(io::BufWriter::new(io::stdout().lock()))
    } else {
        Box::new(Lenient(io::stderr().lock()))
    };
    let mut printer = Printer {
        args: &args,
        report,
        handler: miette::GraphicalReportHandler::new(),
        json_games: 0,
        notes: (0, None),
        format: None,
    };
    if args.format == OutputFormat::Json {
        let started = write!(printer.report, "{{\"games\": [");
        if let Err(e) = started {
            return output::finish_stdout(Err(e), exit::OK);
        }
    }
    let done = run::repair(&args.inputs, &options, |step| {
        printer
            .step(step)
            .map_err(|e| match output::is_closed_pipe(&e) {
                true => e,
                false => output::stdout_failed(e),
            })
    });
    let summary = match done {
        Ok(summary) => summary,
        Err(stopped) => {
            if let Some(abandoned) = &stopped.report.abandoned {
                super::stderr_line(format_args!("note: {abandoned}"));
            }
            if output::is_closed_pipe(&stopped.error) {
                return Ok(status(&stopped.report));
            }
            return Err(stopped.error);
        }
    };
    let output_name = match to_file {
        true => args.output.display().to_string(),
        false => "standard output".to_owned(),
    };
    let printed = printer
        .summary(&summary, &output_name)
        .and_then(|()| printer.report.flush());
    output::finish_stdout(printed, status(&summary))
}

/// The exit status: an input could not be read, a pick not taken or nothing selected; or a
/// game is neither valid nor repaired; or all is well.
fn status(report: &RepairRunReport) -> u8 {
    match report.status() {
        run::Status::Failed => exit::USAGE,
        run::Status::Invalid => exit::INVALID,
        run::Status::Clean => exit::OK,
    }
}

/// Prints the steps of a run: notes and errors on standard error, each game's report where
/// the report goes.
struct Printer<'a> {
    args: &'a Args,
    report: Box<dyn Write + 'a>,
    handler: miette::GraphicalReportHandler,
    /// How many games' reports the JSON document holds.
    json_games: usize,
    /// Quiet: the writer's notes of the current file (their number, the first one).
    notes: (usize, Option<String>),
    /// The format written, once the writer opened.
    format: Option<Format>,
}

impl Printer<'_> {
    fn step(&mut self, step: RepairStep<'_>) -> io::Result<()> {
        let args = self.args;
        let human = args.format == OutputFormat::Human;
        match step {
            RepairStep::Input { note, .. } => {
                self.notes = (0, None);
                if !args.quiet && human {
                    super::stderr_line(format_args!("note: {note}"));
                }
            }
            RepairStep::OpenFailed(e) => {
                super::stderr_line(format_args!("error: {}", input::message(e)))
            }
            RepairStep::ReadFailed { name, error } => {
                super::stderr_line(format_args!("error: {name}: {error}"))
            }
            RepairStep::Writing { format, instead_of } => {
                self.format = Some(format);
                if let (None, Some(input), false) = (args.to, instead_of, args.quiet) {
                    super::stderr_line(format_args!(
                        "note: writing {format}: {input} hold no tags (players, round, result), so the repaired games are written as RGN (--to chooses another format)"
                    ));
                }
            }
            RepairStep::PassedOver {
                file,
                game,
                written: false,
            } => {
                let format = self.format.map(|f| f.to_string()).unwrap_or_default();
                super::stderr_line(format_args!(
                    "warning: {file}: game {}: not written: {format} cannot hold it as it was read",
                    game.index
                ));
            }
            RepairStep::PassedOver { .. } => {}
            RepairStep::NamesSwapped {
                file,
                game,
                pairing,
                line,
            } => {
                if !args.quiet {
                    super::stderr_line(format_args!(
                        "note: {file}: game {}: the pairing {pairing} (line {line} of the pairings) has the players the other way round: the names are swapped, not the score",
                        game.index
                    ));
                }
            }
            RepairStep::PickFailed(error) => super::stderr_line(format_args!("error: {error}")),
            RepairStep::NothingSelected(selector) => super::stderr_line(format_args!(
                "error: --game {selector}: no game of the inputs is selected"
            )),
            RepairStep::Abandoned(abandoned) => {
                super::stderr_line(format_args!("note: {abandoned}"))
            }
            RepairStep::Game {
                file,
                game,
                repair,
                note,
                ..
            } => return self.game(file, game, repair, note),
            RepairStep::Ended {
                name,
                before,
                after,
            } => return self.ended(name, before, after),
        }
        Ok(())
    }

    /// Reports one game: in full, in JSON, or (quiet) its note kept for the file's line.
    fn game(
        &mut self,
        name: &str,
        game: &ParsedGame,
        repair: &Repair,
        note: Option<&str>,
    ) -> io::Result<()> {
        match self.args.format {
            // Quiet: a line for the file's notes and one for its games left as written,
            // at most (`ended`).
            OutputFormat::Human if self.args.quiet => {
                if let Some(note) = note {
                    self.notes.0 += 1;
                    self.notes.1.get_or_insert_with(|| {
                        format!("warning: {name}: game {}: {note}", game.index)
                    });
                }
                Ok(())
            }
            OutputFormat::Human => {
                let note = note.map(str::to_owned);
                report_game(&mut self.report, &self.handler, name, game, repair, note)
            }
            _ => {
                let comma = if self.json_games == 0 { "" } else { "," };
                self.json_games += 1;
                let value = game_json(game, repair, note);
                write!(self.report, "{comma}{value}")
            }
        }
    }

    /// Quiet: the lines for the file that ends (the output's notes, the games left as
    /// written).
    fn ended(&mut self, name: &str, before: &RepairCounts, s: &RepairCounts) -> io::Result<()> {
        if !(self.args.quiet && self.args.format == OutputFormat::Human) {
            return Ok(());
        }
        if let (count, Some(first)) = &self.notes {
            let more = match count - 1 {
                0 => String::new(),
                n => format!(" (and {n} more games with a note)"),
            };
            writeln!(self.report, "{first}{more}")?;
        }
        let open = [
            (s.ambiguous - before.ambiguous, "ambiguous"),
            (s.unrepairable - before.unrepairable, "unrepairable"),
            (s.wrong_result - before.wrong_result, "with a wrong result"),
        ];
        let listed: Vec<String> = open
            .iter()
            .filter(|(n, _)| *n > 0)
            .map(|(n, what)| format!("{n} {what}"))
            .collect();
        if !listed.is_empty() {
            let games = s.games - before.games;
            writeln!(
                self.report,
                "{name}: {} of {games} games left as written: {} (without -q, each with its reasons)",
                open.iter().map(|(n, _)| n).sum::<usize>(),
                listed.join(", ")
            )?;
        }
        Ok(())
    }

    /// The summary line (human), or the end of the JSON report (its summary), written to
    /// `output_name`.
    fn summary(&mut self, report: &RepairRunReport, output_name: &str) -> io::Result<()> {
        let s = &report.counts;
        // Named only when there is one, so the line stays as it was for other runs.
        let wrong = match s.wrong_result {
            0 => String::new(),
            n => format!(", {n} with a wrong result"),
        };
        let passed_over = match s.passed_over {
            0 => String::new(),
            1 => " (and 1 game --game passes over, written as read)".to_owned(),
            n => format!(" (and {n} games --game passes over, written as read)"),
        };
        match self.args.format {
            OutputFormat::Human => writeln!(
                self.report,
                "{} {}, {} {}{passed_over}: {} valid, {} repaired, {} ambiguous, {} unrepairable{wrong}; {} written to {} as {}",
                s.files,
                if s.files == 1 { "file" } else { "files" },
                s.games,
                if s.games == 1 { "game" } else { "games" },
                s.valid,
                s.repaired,
                s.ambiguous,
                s.unrepairable,
                s.written,
                output_name,
                report.format,
            ),
            // The games' reports were written as they came.
            _ => writeln!(self.report, "], \"summary\": {}}}", json!(report)),
        }
    }
}

/// Prints the report of one game of the file `name`: its repair (or, when unrepairable,
/// its errors) and the writer's note.
fn report_game(
    report: &mut dyn Write,
    handler: &miette::GraphicalReportHandler,
    name: &str,
    game: &ParsedGame,
    repair: &Repair,
    note: Option<String>,
) -> io::Result<()> {
    let mut shown: Vec<Diagnostic> = repair.report(game.index).into_iter().collect();
    if repair.status == Status::Unrepairable {
        shown.extend(repair.diagnostics.iter().filter(|d| d.is_error()).cloned());
    }
    for d in &shown {
        writeln!(report, "{}", render(handler, d, &game.source))?;
    }
    if let Some(note) = &note {
        let who = game
            .identity()
            .map(|i| format!(" ({i})"))
            .unwrap_or_default();
        writeln!(report, "warning: {name}: game {}{who}: {note}", game.index)?;
    }
    Ok(())
}

fn render(handler: &miette::GraphicalReportHandler, d: &Diagnostic, source: &Source) -> String {
    let mut text = String::new();
    let report = Report {
        diagnostic: d,
        source,
    };
    if handler.render_report(&mut text, &report).is_err() {
        text = format!("{}: {}\n", d.code, d.message);
    }
    text
}

/// A game's report in JSON: the library's [`RepairReport`], and the writer's note.
fn game_json(game: &ParsedGame, repair: &Repair, note: Option<&str>) -> serde_json::Value {
    let mut value = json!(RepairReport::new(game, repair));
    if let Some(fields) = value.as_object_mut() {
        fields.insert("note".into(), json!(note));
    }
    value
}
