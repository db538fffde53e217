//! `reversi validate`: read, replay in parallel, report in input order.

use std::io::{self, IsTerminal, Write};

use rayon::prelude::*;
use reversi_record::diagnostic::{Diagnostic, Report, Severity, Source};
use reversi_record::formats::{Format, ParsedGame};
use reversi_record::validate::validate_record;
use reversi_record::Rules;
use serde_json::json;

use super::input::{self, InputOptions};
use super::{exit, OutputFormat};

/// Games validated per parallel batch: bounds memory while keeping every core busy.
const BATCH: usize = 1024;

/// Replay every game and report illegal moves, wrong flips, passes, positions and results.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Files to validate; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    files: Vec<String>,
    /// Rules for records that do not state them (move strings, transcripts).
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
    #[arg(long, value_name = "CODE")]
    allow: Vec<String>,
    /// No progress bar, no notes; only the findings and the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Default)]
struct Summary {
    files: usize,
    games: usize,
    valid: usize,
    invalid: usize,
    errors: usize,
    warnings: usize,
}

struct Printer {
    format: OutputFormat,
    out: io::BufWriter<io::StdoutLock<'static>>,
    collected: Vec<serde_json::Value>,
    handler: miette::GraphicalReportHandler,
    progress: Option<indicatif::ProgressBar>,
}

impl Printer {
    fn diagnostic(&mut self, d: &Diagnostic, source: &Source) -> io::Result<()> {
        match self.format {
            OutputFormat::Human => {
                let mut text = String::new();
                let report = Report {
                    diagnostic: d,
                    source,
                };
                if self.handler.render_report(&mut text, &report).is_err() {
                    text = format!("{}: {}\n", d.code, d.message);
                }
                let out = &mut self.out;
                match &self.progress {
                    Some(p) => p.suspend(|| writeln!(out, "{text}")),
                    None => writeln!(out, "{text}"),
                }
            }
            OutputFormat::Json => {
                self.collected.push(diagnostic_json(d, source));
                Ok(())
            }
            OutputFormat::Jsonl => writeln!(self.out, "{}", diagnostic_json(d, source)),
        }
    }
}

fn diagnostic_json(d: &Diagnostic, source: &Source) -> serde_json::Value {
    let (line, column) = match d.span {
        Some(span) => {
            let (l, c) = source.line_column(span.offset);
            (Some(l), Some(c))
        }
        None => (None, None),
    };
    json!({
        "code": d.code,
        "severity": d.severity.name(),
        "file": &*source.name,
        "game": d.game,
        "ply": d.ply,
        "move": d.move_number,
        "span": d.span.map(|s| json!({"offset": s.offset, "length": s.len})),
        "line": line,
        "column": column,
        "message": d.message,
        "help": d.help,
    })
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(args.jobs.unwrap_or(0))
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let human = args.format == OutputFormat::Human;
    let progress = (human && !args.quiet && io::stderr().is_terminal()).then(|| {
        let bar = indicatif::ProgressBar::new_spinner();
        bar.set_style(
            indicatif::ProgressStyle::with_template(
                "{spinner} {human_pos} games validated ({per_sec})",
            )
            .unwrap_or_else(|_| indicatif::ProgressStyle::default_spinner()),
        );
        bar
    });
    let mut printer = Printer {
        format: args.format,
        out: io::BufWriter::new(io::stdout().lock()),
        collected: Vec::new(),
        handler: miette::GraphicalReportHandler::new(),
        progress,
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let allowed = &args.allow;
    let mut summary = Summary::default();
    let mut failed_inputs = false;
    for path in &args.files {
        let input = match input::open(path, &options) {
            Ok(i) => i,
            Err(e) => {
                writeln!(io::stderr(), "error: {e}")?;
                failed_inputs = true;
                continue;
            }
        };
        summary.files += 1;
        if human && !args.quiet {
            printer.out.flush()?;
            writeln!(io::stderr(), "note: {}", input.note())?;
        }
        let name = input.name.clone();
        let mut games = input.games;
        loop {
            let mut batch: Vec<ParsedGame> = Vec::with_capacity(BATCH);
            let mut read_error = None;
            for item in games.by_ref() {
                match item {
                    Ok(g) => batch.push(g),
                    Err(e) => {
                        read_error = Some(e);
                        break;
                    }
                }
                if batch.len() == BATCH {
                    break;
                }
            }
            let done = batch.len() < BATCH;
            let reports: Vec<Vec<Diagnostic>> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|g| {
                        let mut all = g.diagnostics.clone();
                        if let Some(record) = &g.record {
                            all.extend(validate_record(record, g.index).diagnostics);
                        }
                        all.retain(|d| !allowed.iter().any(|a| a.eq_ignore_ascii_case(d.code)));
                        all
                    })
                    .collect()
            });
            for (game, diagnostics) in batch.iter().zip(&reports) {
                summary.games += 1;
                let errors = diagnostics.iter().filter(|d| d.is_error()).count();
                summary.errors += errors;
                summary.warnings += diagnostics
                    .iter()
                    .filter(|d| d.severity == Severity::Warning)
                    .count();
                if errors > 0 || game.record.is_none() {
                    summary.invalid += 1;
                } else {
                    summary.valid += 1;
                }
                for d in diagnostics {
                    printer.diagnostic(d, &game.source)?;
                }
            }
            if let Some(p) = &printer.progress {
                p.inc(batch.len() as u64);
            }
            if let Some(e) = read_error {
                writeln!(io::stderr(), "error: {name}: {e}")?;
                failed_inputs = true;
                break;
            }
            if done {
                break;
            }
        }
    }
    if let Some(p) = printer.progress.take() {
        p.finish_and_clear();
    }
    let summary_json = json!({
        "files": summary.files,
        "games": summary.games,
        "valid": summary.valid,
        "invalid": summary.invalid,
        "errors": summary.errors,
        "warnings": summary.warnings,
    });
    match args.format {
        OutputFormat::Human => {
            let s = &summary;
            writeln!(
                printer.out,
                "{} {}, {} {}: {} valid, {} invalid; {} {}, {} {}",
                s.files,
                plural(s.files, "file", "files"),
                s.games,
                plural(s.games, "game", "games"),
                s.valid,
                s.invalid,
                s.errors,
                plural(s.errors, "error", "errors"),
                s.warnings,
                plural(s.warnings, "warning", "warnings"),
            )?;
        }
        OutputFormat::Json => {
            let all = json!({"summary": summary_json, "diagnostics": printer.collected});
            writeln!(printer.out, "{all}")?;
        }
        OutputFormat::Jsonl => writeln!(printer.out, "{}", json!({ "summary": summary_json }))?,
    }
    printer.out.flush()?;
    Ok(if failed_inputs {
        exit::USAGE
    } else if summary.errors > 0 || summary.invalid > 0 {
        exit::INVALID
    } else {
        exit::OK
    })
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
