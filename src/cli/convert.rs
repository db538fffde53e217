//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use reversi_engine::Rules;
use reversi_formats::capabilities::LossSummary;
use reversi_formats::diagnostic::Renderer;
use reversi_formats::{wthor, Format, ReadOptions, RecordWriter, WriteOptions};
use reversi_runs::pipeline::conversion::{
    Conversion, Event, Fingerprint, Outcome, OutputTemplate, Outputs, Stopped, Tally, TemplateError,
};
use reversi_runs::run::ReadBack;

use super::input::{self, InputOptions};
use super::output::{self, Output, SharedOutput};
use super::{exit, stderr_line, OutputFormat};

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
    /// Read as this format instead of detecting it.
    #[arg(long, value_parser = input::parse_format)]
    from: Option<Format>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    #[arg(long, value_parser = super::parse_rules)]
    rules: Option<Rules>,
    /// Where WTHOR's name files are, for reading and for writing: a directory holding
    /// `WTHOR.JOU` and `WTHOR.TRN` (created when missing), or the two files by any names,
    /// players first: `--names players.jou,tournaments.trn` (default: beside the input
    /// when reading, beside the output when writing).
    #[arg(long, value_name = "DIR|PLAYERS,TOURNAMENTS")]
    names: Option<PathBuf>,
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
    let names = args.names.as_deref().map(wthor::Names::parse).transpose();
    let names = names.map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let name_files = names.as_ref().and_then(wthor::Names::files).cloned();
    let template = template_of(&args.output)?;
    let mut guarded: Vec<PathBuf> = args.inputs.iter().map(PathBuf::from).collect();
    guarded.extend(args.edits.rename.iter().cloned());
    guarded.extend(output::name_files(&args.inputs, args.names.as_deref()));
    guarded.extend(
        name_files
            .iter()
            .flat_map(|f| [f.players.clone(), f.tournaments.clone()]),
    );
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let write_options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir: None,
        name_files,
        year: args.year,
        staging_dir: None,
        year_headers: None,
    };
    let names_dir = names
        .as_ref()
        .and_then(wthor::Names::dir)
        .map(PathBuf::from);
    let new_name_files = match (target, &write_options.name_files) {
        (Format::Wthor, None) => {
            new_name_files(names_dir.clone().or_else(|| output_dir(&args.output)))
        }
        _ => None,
    };
    let mut files = Files::new(target, write_options, names_dir, &guarded);
    let read_back = match &template {
        // A single output is opened before any input is read.
        None => reads_back(target, files.open_single(&args.output)?),
        Some(_) => reads_back(target, true),
    };
    let target_name = match &files.options.dialect {
        Some(d) if target == Format::Json => format!("{target}:{d}"),
        _ => target.to_string(),
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let read_options = ReadOptions {
        rules: args.rules,
        ..ReadOptions::default()
    };
    let edits = args.edits.edits()?;
    let dedupe = match args.dedupe {
        Some(copies) => Some(plan_copies(&args, &options, copies, jobs)?),
        None => None,
    };
    let mut conversion = Conversion::new()
        .jobs(jobs)
        .select(args.game.clone())
        .edit(edits)
        .target(target, &files.options, &read_options);
    if let Some(template) = template.clone() {
        conversion = conversion.split(template);
    }
    if target == Format::Wthor {
        if let Some(years) = survey_years(&args, &options, &conversion, skip_of(&dedupe)) {
            files.settle_years(years);
        }
    }
    // A run that could not read an input, or refused every game it read, leaves every
    // output as it was, and the name files a WTHOR writer would extend too.
    let mut report = Report::new(&args, target_name.clone(), read_back, template.is_some());
    if let Some((_, dropped)) = &dedupe {
        report.dropped = dropped.clone();
    }
    let skip = skip_of(&dedupe);
    let (tally, finished) =
        match convert_inputs(&args, &options, &conversion, skip, &mut files, &mut report) {
            Ok(tally) if report.failed(&tally) => (tally, Ok(None)),
            // A selector that takes nothing leaves the output as it was.
            Ok(tally) if tally.games == 0 && args.game.is_some() => {
                if let Some(selector) = &args.game {
                    stderr_line(format_args!(
                        "error: --game {selector}: no game of the inputs is selected"
                    ));
                }
                report.failed_input = true;
                (tally, Ok(None))
            }
            Ok(tally) => (tally, files.finish().map(Some)),
            Err(stopped) => (stopped.counts, Err(files.failed(stopped.error))),
        };
    let finished = match finished {
        Ok(finished) => finished,
        // A closed standard output ends the work quietly; the status says what was found.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(report.status(&tally)),
        Err(e) => return Err(e),
    };
    match finished {
        None => {
            for abandoned in files.abandoned() {
                report.abandoned(abandoned);
            }
        }
        Some(finished) => {
            // Every file is read back before any is put in place.
            let mut kept = Vec::new();
            for mut file in finished {
                let games = report.written_to(&file.name);
                if template.is_some() && games == 0 {
                    // Opened for games the writer then refused: not created.
                    continue;
                }
                file.output
                    .flush()
                    .map_err(|e| file.output.write_failed(e))?;
                let spool = report.take_spool(&file.name);
                if let (Some(path), Some(spool)) = (file.output.staged(), spool) {
                    let options = ReadOptions {
                        name: Arc::from(file.output.name()),
                        ..read_options.clone()
                    };
                    read_back_check(&conversion, target, path, &options, spool, &file.output)?;
                }
                kept.push((file, games));
            }
            for (file, games) in kept {
                let name = file.output.name();
                file.output.commit()?;
                report.wrote(name, games);
            }
        }
    }
    if let (Some(said), true, true) = (new_name_files, report.indexed, tally.written > 0) {
        if report.json.is_none() {
            stderr_line(format_args!("warning: {said}"));
        }
        report.warnings.push(said);
    }
    report.summary(&tally)?;
    Ok(report.status(&tally))
}

/// The template `-o` gives (it holds a `{`), or `None` for one output.
fn template_of(output: &Path) -> io::Result<Option<OutputTemplate>> {
    let text = output.to_string_lossy();
    if !OutputTemplate::is_template(&text) {
        return Ok(None);
    }
    let template = text
        .parse()
        .map_err(|e: TemplateError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    Ok(Some(template))
}

/// The most files an output template may give in one run (each holds a few open files
/// until the end): a template that gives more is most likely not what was meant.
const MOST_FILES: usize = 512;

/// Where a conversion writes: one output, or one per file name the `-o` template gives a
/// game (each opened when its first game is written), each with its writer.
struct Files<'a> {
    target: Format,
    /// The options every writer shares (its names and staging folders are its own).
    options: WriteOptions,
    /// The names folder `--names` gives; else each output's own folder.
    names_dir: Option<PathBuf>,
    /// The inputs, which no output may replace.
    guarded: &'a [&'a Path],
    renderer: Option<reversi_formats::Renderer>,
    open: Vec<OpenFile>,
    by_name: std::collections::HashMap<String, usize>,
    /// The output the last game went to, which an error of the run names.
    current: Option<usize>,
    /// The folders the template's names made.
    created: Vec<PathBuf>,
}

impl Drop for Files<'_> {
    /// A run that put nothing in a folder it made (it failed, or refused that folder's
    /// games) leaves no empty folder behind.
    fn drop(&mut self) {
        self.open.clear();
        // Deepest first: a folder is empty only once the ones in it are gone.
        self.created
            .sort_by_key(|d| std::cmp::Reverse(d.components().count()));
        for dir in &self.created {
            let _ = std::fs::remove_dir(dir);
        }
    }
}

/// An output being written, with its writer.
struct OpenFile {
    /// What the template gave (`""` for a single output).
    name: String,
    output: SharedOutput,
    /// The writer's options.
    options: WriteOptions,
    writer: Box<dyn RecordWriter>,
}

/// An output whose writer finished: to be read back and committed.
struct Finished {
    name: String,
    output: Output,
}

impl<'a> Files<'a> {
    fn new(
        target: Format,
        options: WriteOptions,
        names_dir: Option<PathBuf>,
        guarded: &'a [&'a Path],
    ) -> Files<'a> {
        Files {
            target,
            renderer: target.renderer(&options),
            options,
            names_dir,
            guarded,
            open: Vec::new(),
            by_name: std::collections::HashMap::new(),
            current: None,
            created: Vec::new(),
        }
    }

    /// Opens the one output `path` (`-`: standard output); returns whether it is staged
    /// (a file put in place at the end, which can be read back first).
    fn open_single(&mut self, path: &Path) -> io::Result<bool> {
        self.current = Some(self.open("", path)?);
        Ok(self.open[0].output.is_staged())
    }

    /// Opens the output at `path` for the games the template names `name`.
    fn open(&mut self, name: &str, path: &Path) -> io::Result<usize> {
        if self.target == Format::Wthor && wthor::is_name_file(path) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: a WTHOR game file cannot have the name of a WTHOR name file, which is written beside it",
                    path.display()
                ),
            ));
        }
        if self.open.len() == MOST_FILES {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: the output template gives more than {MOST_FILES} files; nothing was written (a template with fewer fields, such as `{{year}}` or `{{event}}`, gives fewer)",
                    path.display()
                ),
            ));
        }
        let dir = output_dir(path);
        if let Some(dir) = dir.as_deref().filter(|_| !name.is_empty()) {
            // The folders made here are removed again if they stay empty.
            let missing: Vec<PathBuf> = dir
                .ancestors()
                .take_while(|d| !d.as_os_str().is_empty() && !d.exists())
                .map(Path::to_path_buf)
                .collect();
            std::fs::create_dir_all(dir).map_err(|e| {
                io::Error::new(e.kind(), format!("cannot create {}: {e}", dir.display()))
            })?;
            self.created.extend(missing);
        }
        let output = Output::create(path, self.guarded)?;
        let options = WriteOptions {
            names_dir: self.names_dir.clone().or_else(|| dir.clone()),
            staging_dir: dir,
            ..self.options.clone()
        };
        if self.target == Format::Wthor {
            wthor::prepare_names(&options)?;
        }
        let output = SharedOutput::new(output);
        let writer = self.target.writer(Box::new(output.handle()), &options);
        self.open.push(OpenFile {
            name: name.to_owned(),
            output,
            options,
            writer,
        });
        self.by_name.insert(name.to_owned(), self.open.len() - 1);
        Ok(self.open.len() - 1)
    }

    /// Hands every writer the WTHOR year headers decided from all the games: a writer
    /// already open has written nothing yet and is made again with them.
    fn settle_years(&mut self, years: wthor::YearHeaders) {
        let years = Some(Arc::new(years));
        self.options.year_headers.clone_from(&years);
        for file in &mut self.open {
            file.options.year_headers.clone_from(&years);
            file.writer = self
                .target
                .writer(Box::new(file.output.handle()), &file.options);
        }
    }

    /// The error that stopped a run, naming the output the last game went to (a closed
    /// standard output stays a plain broken pipe).
    fn failed(&self, e: io::Error) -> io::Error {
        if output::is_closed_pipe(&e) {
            return e;
        }
        match self.current.and_then(|at| self.open.get(at)) {
            Some(file) => file.output.failed(e),
            None => e,
        }
    }

    /// Finishes every writer, in the order the outputs were opened. An error names the
    /// output; the outputs not yet finished are abandoned with the rest.
    fn finish(&mut self) -> io::Result<Vec<Finished>> {
        let mut finished = Vec::with_capacity(self.open.len());
        for OpenFile {
            name,
            output,
            mut writer,
            ..
        } in std::mem::take(&mut self.open)
        {
            let result = writer.finish();
            drop(writer);
            let output = output.into_output()?;
            match result {
                Ok(()) => finished.push(Finished { name, output }),
                Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Err(e),
                Err(e) => return Err(output.write_failed(e)),
            }
        }
        Ok(finished)
    }

    /// What becomes of each output, abandoned (notes for the ones that existed or were
    /// staged).
    fn abandoned(&mut self) -> Vec<String> {
        std::mem::take(&mut self.open)
            .into_iter()
            .filter_map(|file| {
                drop(file.writer);
                file.output.into_output().ok()?.abandoned()
            })
            .collect()
    }
}

impl Outputs for Files<'_> {
    fn renderer(&self) -> Option<reversi_formats::Renderer> {
        self.renderer.clone()
    }

    fn writer(&mut self, name: &str) -> io::Result<&mut dyn RecordWriter> {
        let at = match self.by_name.get(name) {
            Some(&at) => at,
            None => {
                // An output that cannot be opened names itself.
                self.current = None;
                self.open(name, Path::new(name))?
            }
        };
        self.current = Some(at);
        Ok(&mut *self.open[at].writer)
    }
}

/// Whether the games written are read back before their output is put in place: not
/// for standard output, a FIFO or a device (nothing is staged), nor for OBF, which keeps
/// each game's final position only.
fn reads_back(target: Format, staged: bool) -> bool {
    staged && ReadBack::applies(target)
}

/// Reads the staged output at `path` back and compares it game by game with what was
/// written ([`ReadBack::check`]); a difference is an error naming the game, and the target
/// is left alone.
fn read_back_check(
    conversion: &Conversion,
    target: Format,
    path: &Path,
    options: &ReadOptions,
    spool: ReadBack,
    output: &Output,
) -> io::Result<()> {
    spool.check(conversion, target, path, options).map_err(|e| {
        let kept = output
            .abandoned()
            .map(|a| format!("; {a}"))
            .unwrap_or_default();
        io::Error::other(format!("{}: {e}{kept}", output.name()))
    })
}

/// What a conversion reported on standard error, and what it saw. Per input, errors are
/// shown in full; warnings, refusals, unreadable games, derived results and losses are
/// gathered by kind and listed once when the input ends, each with its count and first
/// games. `-q` keeps errors, refusals and the summary.
struct Report {
    target_name: String,
    lossy: bool,
    quiet: bool,
    /// The report as JSON, instead of lines for people.
    json: Option<JsonReport>,
    /// The outputs put in place, and their games.
    wrote: Vec<(String, usize)>,
    /// What became of the outputs of a run that failed.
    abandoned: Vec<String>,
    /// The output is split by a template.
    split: bool,
    renderer: Renderer,
    /// The input being converted.
    name: Arc<str>,
    /// The input's games gathered by kind.
    input: InputReport,
    /// An input could not be opened or read.
    failed_input: bool,
    /// Whether the games written are read back.
    read_back: bool,
    /// The output `-o` names (a template, or the one output).
    output: PathBuf,
    /// Each output's games, by the name the template gave (`""` for a single output).
    files: std::collections::HashMap<String, FileReport>,
    /// The copies `--dedupe` left out.
    dropped: Vec<String>,
    /// Whether the target is WTHOR, and a game read has WTHOR name indexes (`WthorBlack`, ...).
    wthor: bool,
    indexed: bool,
    /// Warnings about the whole run (the JSON summary's `warnings`).
    warnings: Vec<String>,
}

/// The games written to one output.
#[derive(Default)]
struct FileReport {
    written: usize,
    /// Where their fingerprints are kept for the read-back check.
    spool: Option<ReadBack>,
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
    fn new(args: &Args, target_name: String, read_back: bool, split: bool) -> Report {
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
    fn written_to(&self, name: &str) -> usize {
        self.files.get(name).map_or(0, |f| f.written)
    }

    /// The fingerprints of the games written to the output `name`, to read it back with.
    fn take_spool(&mut self, name: &str) -> Option<ReadBack> {
        self.files.get_mut(name)?.spool.take()
    }

    /// Counts a game written to the output `name`, and spools its fingerprint.
    fn written(&mut self, name: &str, fingerprint: Fingerprint) -> io::Result<()> {
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
    fn status(&self, tally: &Tally) -> u8 {
        if self.failed_input {
            exit::USAGE
        } else if tally.with_errors + tally.file_problems + tally.refused + tally.unreadable > 0 {
            exit::INVALID
        } else {
            exit::OK
        }
    }

    /// Whether the run failed: an input could not be read, or every game read was refused.
    fn failed(&self, tally: &Tally) -> bool {
        self.failed_input || (tally.written == 0 && tally.refused + tally.unreadable > 0)
    }

    /// Reports one game: its errors in full; the rest is gathered for the input's end.
    fn game(&mut self, game: &reversi_formats::ParsedGame, outcome: &Outcome) -> io::Result<()> {
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
    fn game_json(
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
    fn event(&mut self, kind: &str, value: serde_json::Value) -> io::Result<()> {
        match &mut self.json {
            Some(json) => json.event(kind, value),
            None => Ok(()),
        }
    }

    /// An input opened (its name, and the note saying how it is read), or not.
    fn input_started(&mut self, opened: Result<(Arc<str>, String), io::Error>) -> io::Result<()> {
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
    fn read_failed(&mut self, e: io::Error) -> io::Result<()> {
        self.failed_input = true;
        if self.json.is_some() {
            let value = serde_json::json!({ "file": &*self.name, "error": e.to_string() });
            return self.event("read_failed", value);
        }
        stderr_line(format_args!("error: {}: reading failed: {e}", self.name));
        Ok(())
    }

    /// What became of an output of a run that failed (in JSON, in the summary).
    fn abandoned(&mut self, note: String) {
        if self.json.is_none() {
            stderr_line(format_args!("note: {note}"));
        }
        self.abandoned.push(note);
    }

    /// An output put in place with `games` games (noted for a split conversion's files).
    fn wrote(&mut self, name: String, games: usize) {
        if self.json.is_none() && !self.quiet && self.split {
            let s = if games == 1 { "" } else { "s" };
            stderr_line(format_args!("note: wrote {name} ({games} game{s})"));
        }
        self.wrote.push((name, games));
    }

    /// The last line of the report: the counts, and for a split conversion the files.
    fn summary(&mut self, tally: &Tally) -> io::Result<()> {
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

    fn event(&mut self, kind: &str, value: serde_json::Value) -> io::Result<()> {
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

    fn end(&mut self, summary: serde_json::Value) -> io::Result<()> {
        use std::io::Write;
        match (self.document, self.events) {
            (false, _) => writeln!(self.out, "{}", serde_json::json!({ "summary": summary }))?,
            (true, 0) => writeln!(self.out, "{{\"events\":[],\"summary\":{summary}}}")?,
            (true, _) => writeln!(self.out, "],\"summary\":{summary}}}")?,
        }
        self.out.flush()
    }
}

/// Converts every game of every input through `writer` with the library's pipeline,
/// reporting on standard error as it goes. An output error stops the work (returned).
fn convert_inputs(
    args: &Args,
    options: &InputOptions,
    conversion: &Conversion,
    skip: Option<&Skip>,
    files: &mut Files<'_>,
    report: &mut Report,
) -> Result<Tally, Stopped> {
    let human = report.json.is_none();
    let progress = super::progress::Progress::start(&args.inputs, args.quiet || !human, true);
    let counter = super::progress::Counter::of(progress.as_ref());
    let open = |path: &PathBuf| match input::open(path, options) {
        Ok(input) => (
            Ok((input.name().clone(), input.note())),
            Some(counter.input(input).into_input()),
        ),
        Err(e) => (Err(e), None),
    };
    let mut sink = |event: Event<'_, _>| match event {
        Event::Start(opened) => report.input_started(opened),
        Event::Game(game, outcome) => {
            super::progress::games(progress.as_ref(), 1);
            report.game(game, outcome)
        }
        Event::ReadFailed(e) => report.read_failed(e),
    };
    let run = match skip {
        None => conversion.run_split(args.inputs.iter().map(open), files, &mut sink),
        // The copies to leave out are given input by input: one run each.
        Some(skip) => {
            let mut tally = Tally::default();
            let mut stopped = None;
            for path in &args.inputs {
                let (opened, input) = open(path);
                let left_out = match &opened {
                    Ok((name, _)) => skip.get(name.as_ref()).cloned(),
                    Err(_) => None,
                };
                let one = conversion.clone().skip(left_out);
                match one.run_split(std::iter::once((opened, input)), files, &mut sink) {
                    Ok(t) => tally += t,
                    Err(mut s) => {
                        tally += s.counts;
                        s.counts = tally;
                        stopped = Some(s);
                        break;
                    }
                }
            }
            match stopped {
                Some(s) => Err(s),
                None => Ok(tally),
            }
        }
    };
    if let Some(p) = progress {
        p.finish();
    }
    report.end_input();
    run
}

/// The game numbers `--dedupe` leaves out, by input name.
type Skip = std::collections::HashMap<String, std::collections::HashSet<usize>>;

fn skip_of(dedupe: &Option<(Skip, Vec<String>)>) -> Option<&Skip> {
    dedupe.as_ref().map(|(skip, _)| skip)
}

/// What the games this run writes state of their WTHOR year files' headers, read from
/// every input before the run ([`Conversion::survey_years`]): the files then do not
/// depend on the order of the inputs. `None` with standard input, which cannot be read
/// twice (the first game to state a setting decides it). An input that cannot be read
/// adds what it could; the run reports it.
fn survey_years(
    args: &Args,
    options: &InputOptions,
    conversion: &Conversion,
    skip: Option<&Skip>,
) -> Option<wthor::YearHeaders> {
    if args.inputs.iter().any(|p| p.as_os_str() == "-") {
        return None;
    }
    let mut years = wthor::YearHeaders::default();
    for path in &args.inputs {
        let Ok(input) = input::open(path, options) else {
            continue;
        };
        let left_out = skip.and_then(|skip| skip.get(input.name().as_ref()).cloned());
        let _ = conversion
            .clone()
            .skip(left_out)
            .survey_years(input.into_input(), &mut years);
    }
    Some(years)
}

/// Reads every input once to find its copies (`archive::dedupe`): the games to leave out
/// by input, and a line for each saying why (each also a note, unless quiet).
fn plan_copies(
    args: &Args,
    options: &InputOptions,
    copies: Dedupe,
    jobs: usize,
) -> io::Result<(Skip, Vec<String>)> {
    use reversi_runs::archive::dedupe;
    if args.inputs.iter().any(|p| p.as_os_str() == "-") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--dedupe reads its inputs twice: standard input cannot be one",
        ));
    }
    let (event, failed) = input::gather(&args.inputs, options, Some(jobs), true)?;
    if failed {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "--dedupe: an input could not be read, so its copies are unknown",
        ));
    }
    let copies = match copies {
        Dedupe::Exact => dedupe::Copies::Exact,
        Dedupe::Symmetric => dedupe::Copies::Symmetric,
    };
    let plan = dedupe::plan(&event, copies);
    let mut skip = Skip::new();
    for input in 0..event.games().iter().map(|g| g.input + 1).max().unwrap_or(0) {
        if let Some(games) = plan.dropped_from(input) {
            skip.insert(event.input_name(input).to_owned(), games.clone());
        }
    }
    let lines: Vec<String> = plan.dropped().iter().map(ToString::to_string).collect();
    if !args.quiet {
        for line in &lines {
            stderr_line(format_args!("note: left out: {line}"));
        }
    }
    Ok((skip, lines))
}

/// What to say when the WTHOR name files the writer uses are not in `dir` yet: made there
/// from the games' names, they number the names from scratch, so games read from WTHOR
/// files (their `WthorBlack`, ... index tags) are written with other indexes. `None`
/// when both are there.
fn new_name_files(dir: Option<PathBuf>) -> Option<String> {
    let dir = dir.filter(|d| !d.to_string_lossy().contains('{'))?;
    let missing: Vec<&str> = [wthor::NameKind::Player, wthor::NameKind::Tournament]
        .into_iter()
        .map(wthor::NameKind::file_name)
        .filter(|name| !dir.join(name).exists())
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} had no {}: made there from the games' names, numbered from scratch, so the WthorBlack, WthorWhite and WthorTournament indexes the games were read with are not kept; put the name files there, or give them with --names, to keep them",
            dir.display(),
            missing.join(" and ")
        )
    })
}

/// The directory of the output file (WTHOR name files go beside it), `None` for stdout.
fn output_dir(output: &std::path::Path) -> Option<PathBuf> {
    if output == std::path::Path::new("-") {
        return None;
    }
    match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => Some(dir.to_path_buf()),
        _ => Some(PathBuf::from(".")),
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
