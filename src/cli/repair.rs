//! `reversi repair`: find the game the players actually played, write every game out and
//! report what was changed.

use std::fs::File;
use std::io::{self, Write};
use std::path::Path;

use rayon::prelude::*;
use reversi_record::diagnostic::{Diagnostic, Report, Source};
use reversi_record::formats::{
    Format, ParsedGame, PgnDialect, ReadOptions, WriteError, WriteOptions,
};
use reversi_record::repair::{repair_game, Repair, RepairOptions, Status};
use reversi_record::Rules;
use serde_json::json;

use super::input::{self, InputOptions};
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
    /// Output file, written atomically; `-` (the default) writes standard output, and the
    /// report then goes to standard error.
    #[arg(short, long, default_value = "-")]
    output: String,
    /// Write what the output format can hold and drop the rest (as `convert --lossy`), instead
    /// of leaving a game out.
    #[arg(long)]
    lossy: bool,
    /// Read as this format instead of detecting it.
    #[arg(long, value_parser = input::parse_format)]
    from: Option<Format>,
    /// Rules for records that do not state them (move strings, transcripts).
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
    let to_stdout = args.output == "-";
    let mut report: Box<dyn Write> = if to_stdout {
        Box::new(io::stderr().lock())
    } else {
        Box::new(io::BufWriter::new(io::stdout().lock()))
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: None,
    };
    let repair_options = RepairOptions {
        max_edits: usize::from(args.max_edits),
    };
    let handler = miette::GraphicalReportHandler::new();
    let mut status = exit::OK;
    let mut summary = Summary::default();
    let mut games_json = Vec::new();
    // The output opens with the first input, whose format is the default target.
    let mut output: Option<Output> = None;
    for path in &args.inputs {
        let input = match input::open(path, &options) {
            Ok(i) => i,
            Err(e) => {
                writeln!(io::stderr(), "error: {e}")?;
                status = exit::USAGE;
                continue;
            }
        };
        summary.files += 1;
        if !args.quiet && args.format == OutputFormat::Human {
            writeln!(io::stderr(), "note: {}", input.note())?;
        }
        let format = input.format;
        let name = input.name.clone();
        let read = ReadOptions {
            name: name.clone(),
            path: (path != "-").then(|| path.into()),
            rules: args.rules,
            names_dir: None,
        };
        let mut games: Vec<ParsedGame> = Vec::new();
        for item in input.games {
            match item {
                Ok(g) => games.push(g),
                Err(e) => {
                    writeln!(io::stderr(), "error: {name}: {e}")?;
                    status = exit::USAGE;
                    break;
                }
            }
        }
        let repairs: Vec<Repair> = pool.install(|| {
            games
                .par_iter()
                .map(|g| repair_game(g, format, &read, &repair_options))
                .collect()
        });
        let out = match &mut output {
            Some(o) => o,
            None => output.insert(Output::open(&args, format)?),
        };
        for (game, repair) in games.iter().zip(&repairs) {
            summary.games += 1;
            match repair.status {
                Status::Valid => summary.valid += 1,
                Status::Repaired => summary.repaired += 1,
                Status::Ambiguous => summary.ambiguous += 1,
                Status::Unrepairable => summary.unrepairable += 1,
            }
            if !matches!(repair.status, Status::Valid | Status::Repaired) {
                status = status.max(exit::INVALID);
            }
            let (written, note) = out.write(repair)?;
            if written {
                summary.written += 1;
            }
            match args.format {
                OutputFormat::Human => {
                    let mut shown: Vec<Diagnostic> =
                        repair.report(game.index).into_iter().collect();
                    if repair.status == Status::Unrepairable {
                        shown.extend(repair.diagnostics.iter().filter(|d| d.is_error()).cloned());
                    }
                    for d in &shown {
                        writeln!(report, "{}", render(&handler, d, &game.source))?;
                    }
                    if let Some(note) = &note {
                        writeln!(report, "warning: {name}: game {}: {note}", game.index)?;
                    }
                }
                _ => games_json.push(game_json(&name, game, repair, note.as_deref())),
            }
        }
    }
    let target = match output {
        Some(o) => {
            let name = o.format.to_string();
            o.finish_into(&args.output)?;
            name
        }
        None => String::new(),
    };
    let s = &summary;
    match args.format {
        OutputFormat::Human => {
            writeln!(
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
                if to_stdout { "standard output" } else { &args.output },
            )?;
        }
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
                "games": games_json,
            });
            writeln!(report, "{all}")?;
        }
    }
    report.flush()?;
    Ok(status)
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

/// Where the games go: standard output, or a temporary file beside the output that
/// replaces it at the end (so a failed run leaves the old file, and an input may be its
/// own output).
struct Output {
    format: Format,
    writer: Box<dyn reversi_record::formats::RecordWriter>,
    temp: Option<tempfile::NamedTempFile>,
}

impl Output {
    fn open(args: &Args, input_format: Format) -> io::Result<Output> {
        let format = args.to.unwrap_or(match input_format {
            Format::Pgn(PgnDialect::Rgn) => Format::Rgn,
            f => f,
        });
        let (dialect, format) = match format {
            Format::Pgn(d) if d != PgnDialect::Rgn => (Some(d.name().to_string()), format),
            f => (None, f),
        };
        let options = WriteOptions {
            lossy: args.lossy,
            dialect,
            names_dir: None,
        };
        let (sink, temp): (Box<dyn Write + Send>, _) = if args.output == "-" {
            (Box::new(io::BufWriter::new(io::stdout())), None)
        } else {
            let dir = Path::new(&args.output)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."));
            let temp = new_temp(dir, Path::new(&args.output))
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", args.output)))?;
            let file: File = temp.as_file().try_clone()?;
            (Box::new(io::BufWriter::new(file)), Some(temp))
        };
        Ok(Output {
            format,
            writer: format.writer(sink, &options),
            temp,
        })
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

    fn finish_into(self, path: &str) -> io::Result<()> {
        let Output {
            mut writer, temp, ..
        } = self;
        writer.finish()?;
        drop(writer);
        if let Some(temp) = temp {
            temp.persist(path)
                .map_err(|e| io::Error::new(e.error.kind(), format!("{path}: {}", e.error)))?;
        }
        Ok(())
    }
}

/// A temporary file in `dir` that gets the permissions of `output` when it exists, else
/// those of a newly created file (not the temporary file's private ones).
fn new_temp(dir: &Path, output: &Path) -> io::Result<tempfile::NamedTempFile> {
    let mut builder = tempfile::Builder::new();
    builder.prefix(".reversi-repair");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let temp = builder.tempfile_in(dir)?;
    if let Ok(meta) = std::fs::metadata(output) {
        temp.as_file().set_permissions(meta.permissions())?;
    }
    Ok(temp)
}
