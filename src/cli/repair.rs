//! `reversi repair`: find the game the players actually played, write every game out and
//! report what was changed.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use reversi_record::diagnostic::{Diagnostic, Report, Source};
use reversi_record::formats::{
    Format, ParsedGame, PgnDialect, ReadOptions, RecordWriter, WriteError, WriteOptions,
};
use reversi_record::repair::{repair_game, Repair, RepairOptions, Status};
use reversi_record::Rules;
use serde_json::json;

use super::input::{self, InputOptions};
use super::output::Output;
use super::{exit, OutputFormat};

/// Repair records: for a game that does not replay, find the smallest set of edits (swapped,
/// misread, doubled or left-out moves; misread, missing or doubled grid numbers) that makes
/// every move legal and the result as claimed. Every game is written out in input order;
/// the report lists each edit.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Output format, `FORMAT[:DIALECT]` (default: the first input's format).
    #[arg(long, value_parser = input::parse_format)]
    to: Option<Format>,
    /// Output file, replaced only when the run succeeds (never an input); `-` (the default)
    /// writes standard output, and the report then goes to standard error.
    #[arg(short, long, default_value = "-")]
    output: String,
    /// Write what the output format can hold and drop the rest (as `convert --lossy`), instead
    /// of leaving a game out.
    #[arg(long)]
    lossy: bool,
    /// Read as this format instead of detecting it.
    #[arg(long, value_parser = input::parse_format)]
    from: Option<Format>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    #[arg(long, value_parser = super::parse_rules)]
    rules: Option<Rules>,
    /// The most edits one repair may make.
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    max_edits: u8,
    /// Report format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads (default: every core).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No notes; only the findings and the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Default)]
struct Summary {
    files: usize,
    games: usize,
    valid: usize,
    repaired: usize,
    ambiguous: usize,
    unrepairable: usize,
    written: usize,
}

/// What a run has found so far: its exit status, the counts, and (for `--format json`)
/// each game's report.
struct Progress {
    status: u8,
    summary: Summary,
    games_json: Vec<serde_json::Value>,
}

/// Opens the output and the report, then repairs the games of each input in turn and
/// writes them with one writer (made with the first input, whose format is the default
/// target); the output is replaced only when every input could be read.
pub(crate) fn run(args: Args) -> io::Result<u8> {
    if args.format == OutputFormat::Jsonl {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--format for repair is human or json",
        ));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let guarded: Vec<PathBuf> = args.inputs.iter().map(PathBuf::from).collect();
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let mut output = Output::create(&args.output, &guarded)?;
    let output_name = output.name();
    let mut report: Box<dyn Write> = if args.output == "-" {
        Box::new(io::stderr().lock())
    } else {
        Box::new(io::BufWriter::new(io::stdout().lock()))
    };
    let mut progress = Progress {
        status: exit::OK,
        summary: Summary::default(),
        games_json: Vec::new(),
    };
    let handler = miette::GraphicalReportHandler::new();
    // The writer opens with the first input, whose format is the default target.
    let mut sink: Option<Sink<'_>> = None;
    let mut out = Some(output.writer());
    for path in &args.inputs {
        let Some((format, read, games)) = read_input(&args, path, &mut progress)? else {
            continue;
        };
        let repair_options = RepairOptions {
            max_edits: usize::from(args.max_edits),
        };
        let repairs: Vec<Repair> = pool.install(|| {
            games
                .par_iter()
                .map(|g| repair_game(g, format, &read, &repair_options))
                .collect()
        });
        let sink = match (&mut sink, out.take()) {
            (Some(s), _) => s,
            (None, Some(o)) => sink.insert(Sink::open(&args, format, o)),
            (None, None) => unreachable!("the output is taken only to open the sink"),
        };
        for (game, repair) in games.iter().zip(&repairs) {
            let (written, note) = sink.write(repair)?;
            let name = &read.name;
            progress.count(repair, written);
            match args.format {
                OutputFormat::Human => {
                    report_game(&mut report, &handler, name, game, repair, note)?;
                }
                _ => progress
                    .games_json
                    .push(game_json(name, game, repair, note.as_deref())),
            }
        }
    }
    // Finishing consumes the writer, which ends its borrow of the output.
    let finished = sink.map(|mut sink| (sink.format.to_string(), sink.writer.finish()));
    let target = match finished {
        Some((name, Ok(()))) => name,
        Some((_, Err(e))) => return Err(output.write_failed(e)),
        None => String::new(),
    };
    // A run that could not read an input leaves the output as it was.
    if progress.status == exit::USAGE {
        if let Some(abandoned) = output.abandoned() {
            writeln!(io::stderr(), "note: {abandoned}")?;
        }
    } else {
        output.commit()?;
    }
    progress.print(&mut report, args.format, &target, &output_name)?;
    report.flush()?;
    Ok(progress.status)
}

/// Opens `path` and reads its games: its format, the options it was read with, and the
/// games; `None` (the status set) when it cannot be opened. A game that cannot be read
/// ends the file there, with the status set.
fn read_input(
    args: &Args,
    path: &str,
    progress: &mut Progress,
) -> io::Result<Option<(Format, ReadOptions, Vec<ParsedGame>)>> {
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: None,
    };
    let input = match input::open(path, &options) {
        Ok(i) => i,
        Err(e) => {
            writeln!(io::stderr(), "error: {e}")?;
            progress.status = exit::USAGE;
            return Ok(None);
        }
    };
    progress.summary.files += 1;
    if !args.quiet && args.format == OutputFormat::Human {
        writeln!(io::stderr(), "note: {}", input.note())?;
    }
    let read = ReadOptions {
        name: input.name.clone(),
        path: (path != "-").then(|| path.into()),
        rules: args.rules,
        names_dir: None,
        name_files: None,
    };
    let format = input.format;
    let mut games: Vec<ParsedGame> = Vec::new();
    for item in input.games() {
        match item {
            Ok(g) => games.push(g),
            Err(e) => {
                writeln!(io::stderr(), "error: {}: {e}", read.name)?;
                progress.status = exit::USAGE;
                break;
            }
        }
    }
    Ok(Some((format, read, games)))
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
        writeln!(report, "warning: {name}: game {}: {note}", game.index)?;
    }
    Ok(())
}

impl Progress {
    /// Counts one repaired game, and whether it was `written`; a game neither valid nor
    /// repaired makes the run's status invalid.
    fn count(&mut self, repair: &Repair, written: bool) {
        let s = &mut self.summary;
        s.games += 1;
        match repair.status {
            Status::Valid => s.valid += 1,
            Status::Repaired => s.repaired += 1,
            Status::Ambiguous => s.ambiguous += 1,
            Status::Unrepairable => s.unrepairable += 1,
        }
        if !matches!(repair.status, Status::Valid | Status::Repaired) {
            self.status = self.status.max(exit::INVALID);
        }
        if written {
            s.written += 1;
        }
    }

    /// The summary line (human) or the whole JSON report, games included, written as
    /// `target` to `output_name`.
    fn print(
        &self,
        report: &mut dyn Write,
        format: OutputFormat,
        target: &str,
        output_name: &str,
    ) -> io::Result<()> {
        let s = &self.summary;
        match format {
            OutputFormat::Human => writeln!(
                report,
                "{} {}, {} {}: {} valid, {} repaired, {} ambiguous, {} unrepairable; {} written to {} as {target}",
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
            ),
            _ => {
                let all = json!({
                    "summary": {
                        "files": s.files,
                        "games": s.games,
                        "valid": s.valid,
                        "repaired": s.repaired,
                        "ambiguous": s.ambiguous,
                        "unrepairable": s.unrepairable,
                        "written": s.written,
                        "format": target,
                    },
                    "games": self.games_json,
                });
                writeln!(report, "{all}")
            }
        }
    }
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

fn game_json(
    file: &str,
    game: &ParsedGame,
    repair: &Repair,
    note: Option<&str>,
) -> serde_json::Value {
    let diagnostics: Vec<serde_json::Value> = repair
        .diagnostics
        .iter()
        .filter(|_| repair.status != Status::Repaired)
        .map(|d| {
            json!({
                "code": d.code,
                "severity": d.severity.name(),
                "move": d.move_number,
                "message": d.message,
                "help": d.help,
            })
        })
        .collect();
    json!({
        "file": file,
        "game": game.index,
        "status": repair.status.name(),
        "edits": repair.edits,
        "alternatives": repair.alternatives,
        "diagnostics": diagnostics,
        "note": note,
    })
}

/// The writer of the chosen format over the output, made when the first input tells the
/// default format.
struct Sink<'a> {
    format: Format,
    writer: Box<dyn RecordWriter + 'a>,
}

impl<'a> Sink<'a> {
    fn open(args: &Args, input_format: Format, out: &'a mut (dyn Write + Send)) -> Sink<'a> {
        let format = args.to.unwrap_or(match input_format {
            Format::Pgn(PgnDialect::Rgn) => Format::Rgn,
            f => f,
        });
        let dialect = match format {
            Format::Pgn(d) if d != PgnDialect::Rgn => Some(d.name().to_string()),
            _ => None,
        };
        let options = WriteOptions {
            lossy: args.lossy,
            dialect,
            names_dir: None,
            ..WriteOptions::default()
        };
        Sink {
            format,
            writer: format.writer(Box::new(out), &options),
        }
    }

    /// Writes the game's record: with the repair stated (a tag and move comments, or the
    /// tag alone when the format has no comments). Whether it was written, and a note when
    /// not as wished.
    fn write(&mut self, repair: &Repair) -> io::Result<(bool, Option<String>)> {
        let (Some(commented), Some(annotated), Some(plain)) = (
            repair.commented(),
            repair.annotated(),
            repair.record.clone(),
        ) else {
            return Ok((
                false,
                Some("the game could not be read and is not written".into()),
            ));
        };
        let mut last = Vec::new();
        for (i, record) in [commented, annotated, plain].iter().enumerate() {
            match self.writer.write(record) {
                Ok(losses) => {
                    let note = if !losses.is_empty() {
                        Some(format!("dropped {}", losses.join("; ")))
                    } else if i == 2 && repair.status == Status::Repaired {
                        Some(format!(
                            "{} cannot hold a note of the repair; the edits are in this report only",
                            self.format
                        ))
                    } else {
                        None
                    };
                    return Ok((true, note));
                }
                Err(WriteError::CannotHold(what)) => last = what,
                // The rules or moves do not fit the format: no annotation changes that.
                Err(WriteError::ChangesMeaning(what)) => {
                    last = what;
                    break;
                }
                Err(WriteError::Io(e)) => return Err(e),
            }
        }
        Ok((
            false,
            Some(format!(
                "not written: {} cannot hold {}",
                self.format,
                last.join("; ")
            )),
        ))
    }
}
