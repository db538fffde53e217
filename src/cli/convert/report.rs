//! What a conversion reports on standard error as the library's run goes: per input, its
//! errors in full and the rest gathered by kind, then a summary; or the same as JSON events
//! (the library's [`ConvertedGame`] and [`ConvertReport`]).

use std::io;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use reversi_formats::capabilities::LossSummary;
use reversi_formats::diagnostic::Renderer;
use reversi_formats::ParsedGame;
use reversi_runs::pipeline::conversion::{Outcome, OutputTemplate};
use reversi_runs::run::{ConvertReport, ConvertStep, ConvertedGame, Pass};

use super::super::progress::{self, Counter, Progress};
use super::super::{input, stderr_line, OutputFormat};
use super::Args;

/// What a conversion reports on standard error as the run's steps come. Per input, errors
/// are shown in full; warnings, refusals, unreadable games, derived results and losses are
/// gathered by kind and listed once when the input ends, each with its count and first
/// games. `-q` keeps errors, refusals and the summary.
pub(super) struct Report {
    target_name: String,
    lossy: bool,
    quiet: bool,
    /// The report as JSON, instead of lines for people.
    json: Option<JsonReport>,
    /// The output is split by a template.
    split: bool,
    /// Renders a game's errors (human), or locates its diagnostics (JSON).
    renderer: Renderer,
    /// The input being converted.
    name: Arc<str>,
    /// The input's games gathered by kind.
    input: InputReport,
    /// The pass over the inputs under way.
    pass: Pass,
    /// The bar of the conversion pass, and the counter its inputs are read through.
    progress: Option<Progress>,
    pub(super) counter: Arc<Mutex<Counter>>,
    /// The inputs, for the bar's sizes.
    inputs: Vec<PathBuf>,
}

/// What one input's games gave, by kind.
#[derive(Default)]
struct InputReport {
    warnings: LossSummary,
    refused: LossSummary,
    unreadable: LossSummary,
    derived: LossSummary,
    dropped: LossSummary,
}

impl Report {
    pub(super) fn new(args: &Args, target_name: String) -> Report {
        let json = JsonReport::new(args.format);
        Report {
            target_name,
            lossy: args.lossy,
            quiet: args.quiet,
            renderer: match json {
                Some(_) => Renderer::plain(),
                None => Renderer::terminal(),
            },
            json,
            split: OutputTemplate::is_template(&args.output.to_string_lossy()),
            name: Arc::from("-"),
            input: InputReport::default(),
            pass: Pass::Games,
            progress: None,
            counter: Arc::new(Mutex::new(Counter::of(None))),
            inputs: args.inputs.clone(),
        }
    }

    fn human(&self) -> bool {
        self.json.is_none()
    }

    /// Reports one step of the run.
    pub(super) fn step(&mut self, step: ConvertStep<'_>) -> io::Result<()> {
        match step {
            ConvertStep::Pass(pass) => {
                self.end_pass();
                self.pass = pass;
                if pass == Pass::Games {
                    self.progress =
                        Progress::start(&self.inputs, self.quiet || !self.human(), true);
                    if let Ok(mut counter) = self.counter.lock() {
                        *counter = Counter::of(self.progress.as_ref());
                    }
                }
                Ok(())
            }
            // Finding the copies to leave out says only what it could not read.
            ConvertStep::OpenFailed(e) if self.pass == Pass::Copies => {
                stderr_line(format_args!("error: {}", input::message(e)));
                Ok(())
            }
            ConvertStep::ReadFailed { name, error } if self.pass == Pass::Copies => {
                stderr_line(format_args!("error: {name}: reading failed: {error}"));
                Ok(())
            }
            ConvertStep::Input { name, note } => self.input_started(Ok((name.clone(), note))),
            ConvertStep::OpenFailed(e) => self.input_started(Err(input::message(e))),
            ConvertStep::Game {
                file,
                game,
                outcome,
            } => {
                progress::games(self.progress.as_ref(), 1);
                self.game(file, game, outcome)
            }
            ConvertStep::ReadFailed { name, error } => self.read_failed(name, error),
            ConvertStep::LeftOut(line) => {
                if !self.quiet {
                    stderr_line(format_args!("note: left out: {line}"));
                }
                Ok(())
            }
            ConvertStep::Wrote { file, games } => {
                self.end_pass();
                if self.human() && !self.quiet && self.split {
                    let s = if games == 1 { "" } else { "s" };
                    stderr_line(format_args!("note: wrote {file} ({games} game{s})"));
                }
                Ok(())
            }
            ConvertStep::Abandoned(note) => {
                self.end_pass();
                if self.human() {
                    stderr_line(format_args!("note: {note}"));
                }
                Ok(())
            }
            ConvertStep::Warning(warning) => {
                self.end_pass();
                if self.human() {
                    stderr_line(format_args!("warning: {warning}"));
                }
                Ok(())
            }
            ConvertStep::Failed(why) => {
                self.end_pass();
                stderr_line(format_args!("error: --game {why}"));
                Ok(())
            }
        }
    }

    /// Ends the pass under way: its bar cleared, its last input's games listed.
    pub(super) fn end_pass(&mut self) {
        if let Some(progress) = self.progress.take() {
            progress.finish();
        }
        if let Ok(mut counter) = self.counter.lock() {
            *counter = Counter::of(None);
        }
        if self.pass == Pass::Games {
            self.end_input();
        }
    }

    /// Reports one game: its errors in full; the rest is gathered for the input's end.
    fn game(&mut self, file: &str, game: &ParsedGame, outcome: &Outcome) -> io::Result<()> {
        if let Some(json) = &mut self.json {
            let target = (self.target_name.as_str(), self.lossy);
            let report = ConvertedGame::new(file, game, outcome, target, &mut self.renderer);
            return json.event("game", &report);
        }
        for d in &game.diagnostics {
            if d.is_error() {
                stderr_line(self.renderer.render(d, &game.source));
            } else if game.index == 0 {
                // A problem of the input itself.
                stderr_line(self.renderer.render(d, &game.source));
            } else {
                let warning = format!("{}: {}", d.code.name(), d.message);
                self.input.warnings.add(game.index, &[warning]);
            }
        }
        let input = &mut self.input;
        match outcome {
            Outcome::Written(written) => {
                input.dropped.add(game.index, &written.losses);
                if written.derived_result {
                    let what = "result derived from the final board".to_owned();
                    input.derived.add(game.index, &[what]);
                }
            }
            Outcome::Refused(why) => {
                let why = why
                    .refusal(&self.target_name, self.lossy)
                    .unwrap_or_default();
                input.refused.add(game.index, &[why]);
            }
            // Its diagnostics, above, say what is wrong with the input.
            Outcome::FileProblem => {}
            Outcome::Unreadable => {
                let what = "could not be read; not converted".to_owned();
                input.unreadable.add(game.index, &[what]);
            }
        }
        Ok(())
    }

    /// An input opened (its name, and the note saying how it is read), or not.
    fn input_started(&mut self, opened: Result<(Arc<str>, &str), String>) -> io::Result<()> {
        self.end_input();
        match opened {
            Ok((name, note)) => {
                self.name = name;
                if let Some(json) = &mut self.json {
                    let value = serde_json::json!({ "file": &*self.name, "note": note });
                    return json.event("input", &value);
                }
                if !self.quiet {
                    stderr_line(format_args!("note: {note}"));
                }
            }
            Err(e) => {
                if let Some(json) = &mut self.json {
                    return json.event("input", &serde_json::json!({ "error": e }));
                }
                stderr_line(format_args!("error: {e}"));
            }
        }
        Ok(())
    }

    /// Reading the current input failed.
    fn read_failed(&mut self, name: &str, e: &io::Error) -> io::Result<()> {
        if let Some(json) = &mut self.json {
            let value = serde_json::json!({ "file": name, "error": e.to_string() });
            return json.event("read_failed", &value);
        }
        stderr_line(format_args!("error: {name}: reading failed: {e}"));
        Ok(())
    }

    /// The last line of the report: the counts, and for a split conversion the files.
    pub(super) fn summary(&mut self, report: &ConvertReport) -> io::Result<()> {
        if let Some(json) = &mut self.json {
            return json.end(report);
        }
        let not_converted = report.not_converted;
        if self.quiet && not_converted + report.written_with_errors == 0 {
            return Ok(());
        }
        let with_errors = match report.written_with_errors {
            0 => String::new(),
            n => format!(", {n} of them with errors (written as read)"),
        };
        let copies = match report.copies_left_out.len() {
            0 => String::new(),
            1 => " (1 copy left out)".to_owned(),
            n => format!(" ({n} copies left out)"),
        };
        let into = match (self.split, report.outputs.len()) {
            (true, 1) => " into 1 file".to_owned(),
            (true, n) => format!(" into {n} files"),
            (false, _) => String::new(),
        };
        stderr_line(format_args!(
            "converted {} {} to {}{into}{with_errors}{copies}; {not_converted} not converted",
            report.written,
            if report.written == 1 { "game" } else { "games" },
            self.target_name,
        ));
        Ok(())
    }

    /// Lists what the games of the input that ends gave, by kind.
    fn end_input(&mut self) {
        if self.json.is_some() {
            return;
        }
        let input = std::mem::take(&mut self.input);
        let name = &self.name;
        for line in input.refused.lines() {
            stderr_line(format_args!("error: {name}: {line}"));
        }
        for line in input.unreadable.lines() {
            stderr_line(format_args!("error: {name}: {line}"));
        }
        if self.quiet {
            return;
        }
        for line in input.warnings.lines() {
            stderr_line(format_args!("warning: {name}: {line}"));
        }
        for line in input.dropped.lines() {
            stderr_line(format_args!("warning: {name}: dropped {line}"));
        }
        for line in input.derived.lines() {
            stderr_line(format_args!("note: {name}: {line}"));
        }
    }
}

/// The report as JSON on standard error, written as the games come: one document
/// `{"events": [{"input": ...}, {"game": ...}, ...], "summary": {...}}`, or JSON Lines, an
/// event per line and the summary last.
struct JsonReport {
    out: io::BufWriter<io::Stderr>,
    /// One document (else JSON Lines).
    document: bool,
    events: usize,
}

impl JsonReport {
    fn new(format: OutputFormat) -> Option<JsonReport> {
        let document = match format {
            OutputFormat::Human => return None,
            OutputFormat::Json => true,
            OutputFormat::Jsonl => false,
        };
        Some(JsonReport {
            out: io::BufWriter::new(io::stderr()),
            document,
            events: 0,
        })
    }

    fn event(&mut self, kind: &str, value: &impl serde::Serialize) -> io::Result<()> {
        use std::io::Write;
        let event = serde_json::json!({ kind: value });
        if !self.document {
            writeln!(self.out, "{event}")?;
        } else if self.events == 0 {
            write!(self.out, "{{\"events\":[{event}")?;
        } else {
            write!(self.out, ",{event}")?;
        }
        self.events += 1;
        Ok(())
    }

    fn end(&mut self, summary: &impl serde::Serialize) -> io::Result<()> {
        use std::io::Write;
        let summary = serde_json::to_value(summary)?;
        match (self.document, self.events) {
            (false, _) => writeln!(self.out, "{}", serde_json::json!({ "summary": summary }))?,
            (true, 0) => writeln!(self.out, "{{\"events\":[],\"summary\":{summary}}}")?,
            (true, _) => writeln!(self.out, "],\"summary\":{summary}}}")?,
        }
        self.out.flush()
    }
}
