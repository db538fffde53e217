//! What a conversion reports as it goes: per input, its errors in full and the rest
//! gathered by kind, then a summary; or the same as JSON events.

use super::*;

/// What a conversion reported on standard error, and what it saw. Per input, errors are
/// shown in full; warnings, refusals, unreadable games, derived results and losses are
/// gathered by kind and listed once when the input ends, each with its count and first
/// games. `-q` keeps errors, refusals and the summary.
pub(super) struct Report {
    pub(super) target_name: String,
    pub(super) lossy: bool,
    pub(super) quiet: bool,
    /// The report as JSON, instead of lines for people.
    pub(super) json: Option<JsonReport>,
    /// The outputs put in place, and their games.
    pub(super) wrote: Vec<(String, usize)>,
    /// What became of the outputs of a run that failed.
    pub(super) abandoned: Vec<String>,
    /// The output is split by a template.
    pub(super) split: bool,
    pub(super) renderer: Renderer,
    /// The input being converted.
    pub(super) name: Arc<str>,
    /// The input's games gathered by kind.
    pub(super) input: InputReport,
    /// An input could not be opened or read.
    pub(super) failed_input: bool,
    /// Whether the games written are read back.
    pub(super) read_back: bool,
    /// The output `-o` names (a template, or the one output).
    pub(super) output: PathBuf,
    /// Each output's games, by the name the template gave (`""` for a single output).
    pub(super) files: std::collections::HashMap<String, FileReport>,
    /// The copies `--dedupe` left out.
    pub(super) dropped: Vec<String>,
    /// Whether the target is WTHOR, and a game read has WTHOR name indexes (`WthorBlack`, ...).
    pub(super) wthor: bool,
    pub(super) indexed: bool,
    /// Warnings about the whole run (the JSON summary's `warnings`).
    pub(super) warnings: Vec<String>,
}

/// The games written to one output.
#[derive(Default)]
pub(super) struct FileReport {
    pub(super) written: usize,
    /// Where their fingerprints are kept for the read-back check.
    pub(super) spool: Option<ReadBack>,
}

/// What one input's games gave, by kind.
#[derive(Default)]
pub(super) struct InputReport {
    pub(super) warnings: LossSummary,
    pub(super) refused: LossSummary,
    pub(super) unreadable: LossSummary,
    pub(super) derived: LossSummary,
    pub(super) dropped: LossSummary,
}

impl Report {
    pub(super) fn new(args: &Args, target_name: String, read_back: bool, split: bool) -> Report {
        Report {
            target_name,
            lossy: args.lossy,
            quiet: args.quiet,
            json: JsonReport::new(args.format),
            wrote: Vec::new(),
            abandoned: Vec::new(),
            split,
            renderer: Renderer::terminal(),
            name: Arc::from("-"),
            input: InputReport::default(),
            failed_input: false,
            read_back,
            output: args.output.clone(),
            files: std::collections::HashMap::new(),
            dropped: Vec::new(),
            wthor: args.to.0 == Format::Wthor,
            indexed: false,
            warnings: Vec::new(),
        }
    }

    /// How many games were written to the output the template named `name`.
    pub(super) fn written_to(&self, name: &str) -> usize {
        self.files.get(name).map_or(0, |f| f.written)
    }

    /// The fingerprints of the games written to the output `name`, to read it back with.
    pub(super) fn take_spool(&mut self, name: &str) -> Option<ReadBack> {
        self.files.get_mut(name)?.spool.take()
    }

    /// Counts a game written to the output `name`, and spools its fingerprint.
    pub(super) fn written(&mut self, name: &str, fingerprint: Fingerprint) -> io::Result<()> {
        if !self.files.contains_key(name) {
            self.files.insert(name.to_owned(), FileReport::default());
        }
        let Some(file) = self.files.get_mut(name) else {
            return Ok(());
        };
        file.written += 1;
        if self.read_back {
            if file.spool.is_none() {
                let path = if name.is_empty() {
                    self.output.as_path()
                } else {
                    Path::new(name)
                };
                file.spool = Some(ReadBack::beside(path)?);
            }
            if let Some(spool) = &mut file.spool {
                spool.push(fingerprint)?;
            }
        }
        Ok(())
    }

    /// The exit status: an input could not be read; or a game had an error or was not
    /// converted; or all is well.
    pub(super) fn status(&self, tally: &Tally) -> u8 {
        if self.failed_input {
            exit::USAGE
        } else if tally.with_errors + tally.file_problems + tally.refused + tally.unreadable > 0 {
            exit::INVALID
        } else {
            exit::OK
        }
    }

    /// Whether the run failed: an input could not be read, or every game read was refused.
    pub(super) fn failed(&self, tally: &Tally) -> bool {
        self.failed_input || (tally.written == 0 && tally.refused + tally.unreadable > 0)
    }

    /// Reports one game: its errors in full; the rest is gathered for the input's end.
    pub(super) fn game(
        &mut self,
        game: &reversi_formats::ParsedGame,
        outcome: &Outcome,
    ) -> io::Result<()> {
        // Only a WTHOR target renumbers names (`new_name_files`).
        self.indexed |= self.wthor
            && game.record.as_ref().is_some_and(|r| {
                r.tags.iter().any(|t| {
                    matches!(
                        t.name.as_str(),
                        "WthorBlack" | "WthorWhite" | "WthorTournament"
                    )
                })
            });
        if self.json.is_some() {
            return self.game_json(game, outcome);
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
                self.written(written.file.as_deref().unwrap_or(""), written.fingerprint)?;
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

    /// Reports one game as a JSON object: where it is, what became of it (and of its
    /// result), what was dropped and everything found in it.
    pub(super) fn game_json(
        &mut self,
        game: &reversi_formats::ParsedGame,
        outcome: &Outcome,
    ) -> io::Result<()> {
        let diagnostics: Vec<_> = game
            .diagnostics
            .iter()
            .map(|d| self.renderer.locate(d, &game.source))
            .collect();
        let mut value = serde_json::json!({
            "file": &*self.name,
            "index": game.index,
            "diagnostics": diagnostics,
        });
        // Known while the record is held: a game refused, or written as WTHOR.
        if let (Some(value), Some(identity)) = (value.as_object_mut(), game.identity()) {
            value.insert("identity".into(), serde_json::json!(identity));
        }
        let fields = match outcome {
            Outcome::Written(written) => {
                self.written(written.file.as_deref().unwrap_or(""), written.fingerprint)?;
                serde_json::json!({
                    "outcome": "written",
                    "output": written.file,
                    "result_derived": written.derived_result,
                    "dropped": written.losses,
                })
            }
            Outcome::Refused(why) => serde_json::json!({
                "outcome": "refused",
                "refusal": why.refusal(&self.target_name, self.lossy),
            }),
            Outcome::Unreadable => serde_json::json!({ "outcome": "unreadable" }),
            Outcome::FileProblem => serde_json::json!({ "outcome": "file-problem" }),
        };
        if let (Some(value), serde_json::Value::Object(fields)) = (value.as_object_mut(), fields) {
            value.extend(fields);
        }
        self.event("game", value)
    }

    /// Writes one event of the JSON report.
    pub(super) fn event(&mut self, kind: &str, value: serde_json::Value) -> io::Result<()> {
        match &mut self.json {
            Some(json) => json.event(kind, value),
            None => Ok(()),
        }
    }

    /// An input opened (its name, and the note saying how it is read), or not.
    pub(super) fn input_started(
        &mut self,
        opened: Result<(Arc<str>, String), io::Error>,
    ) -> io::Result<()> {
        self.end_input();
        match opened {
            Ok((name, note)) => {
                self.name = name;
                if self.json.is_some() {
                    let value = serde_json::json!({ "file": &*self.name, "note": note });
                    return self.event("input", value);
                }
                if !self.quiet {
                    stderr_line(format_args!("note: {note}"));
                }
            }
            Err(e) => {
                self.failed_input = true;
                if self.json.is_some() {
                    return self.event("input", serde_json::json!({ "error": e.to_string() }));
                }
                stderr_line(format_args!("error: {e}"));
            }
        }
        Ok(())
    }

    /// Reading the current input failed.
    pub(super) fn read_failed(&mut self, e: io::Error) -> io::Result<()> {
        self.failed_input = true;
        if self.json.is_some() {
            let value = serde_json::json!({ "file": &*self.name, "error": e.to_string() });
            return self.event("read_failed", value);
        }
        stderr_line(format_args!("error: {}: reading failed: {e}", self.name));
        Ok(())
    }

    /// What became of an output of a run that failed (in JSON, in the summary).
    pub(super) fn abandoned(&mut self, note: String) {
        if self.json.is_none() {
            stderr_line(format_args!("note: {note}"));
        }
        self.abandoned.push(note);
    }

    /// An output put in place with `games` games (noted for a split conversion's files).
    pub(super) fn wrote(&mut self, name: String, games: usize) {
        if self.json.is_none() && !self.quiet && self.split {
            let s = if games == 1 { "" } else { "s" };
            stderr_line(format_args!("note: wrote {name} ({games} game{s})"));
        }
        self.wrote.push((name, games));
    }

    /// The last line of the report: the counts, and for a split conversion the files.
    pub(super) fn summary(&mut self, tally: &Tally) -> io::Result<()> {
        let not_converted = tally.refused + tally.unreadable;
        if let Some(json) = &mut self.json {
            let outputs: Vec<_> = self
                .wrote
                .iter()
                .map(|(file, games)| serde_json::json!({ "file": file, "games": games }))
                .collect();
            let summary = serde_json::json!({
                "target": self.target_name,
                "files": tally.files,
                "games": tally.games,
                "written": tally.written,
                "written_with_errors": tally.written_with_errors,
                "with_errors": tally.with_errors,
                "refused": tally.refused,
                "unreadable": tally.unreadable,
                "not_converted": not_converted,
                "results_derived": tally.derived_results,
                "file_problems": tally.file_problems,
                "outputs": outputs,
                "abandoned": self.abandoned,
                "copies_left_out": self.dropped,
                "warnings": self.warnings,
            });
            return json.end(summary);
        }
        if self.quiet && not_converted + tally.written_with_errors == 0 {
            return Ok(());
        }
        let with_errors = match tally.written_with_errors {
            0 => String::new(),
            n => format!(", {n} of them with errors (written as read)"),
        };
        let copies = match self.dropped.len() {
            0 => String::new(),
            1 => " (1 copy left out)".to_owned(),
            n => format!(" ({n} copies left out)"),
        };
        let into = match (self.split, self.wrote.len()) {
            (true, 1) => " into 1 file".to_owned(),
            (true, n) => format!(" into {n} files"),
            (false, _) => String::new(),
        };
        stderr_line(format_args!(
            "converted {} {} to {}{into}{with_errors}{copies}; {not_converted} not converted",
            tally.written,
            if tally.written == 1 { "game" } else { "games" },
            self.target_name,
        ));
        Ok(())
    }

    /// Lists what the games of the input that ends gave, by kind.
    pub(super) fn end_input(&mut self) {
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
pub(super) struct JsonReport {
    pub(super) out: io::BufWriter<io::Stderr>,
    /// One document (else JSON Lines).
    pub(super) document: bool,
    pub(super) events: usize,
}

impl JsonReport {
    pub(super) fn new(format: OutputFormat) -> Option<JsonReport> {
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

    pub(super) fn event(&mut self, kind: &str, value: serde_json::Value) -> io::Result<()> {
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

    pub(super) fn end(&mut self, summary: serde_json::Value) -> io::Result<()> {
        use std::io::Write;
        match (self.document, self.events) {
            (false, _) => writeln!(self.out, "{}", serde_json::json!({ "summary": summary }))?,
            (true, 0) => writeln!(self.out, "{{\"events\":[],\"summary\":{summary}}}")?,
            (true, _) => writeln!(self.out, "],\"summary\":{summary}}}")?,
        }
        self.out.flush()
    }
}
