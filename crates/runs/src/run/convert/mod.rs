//! The convert run: the games of the inputs written in another format, to one output or to
//! one per name an output template gives (`WTH_{year}.wtb`). Every output is staged, read
//! back game by game and put in place at the end, all or none: a run that could not read
//! an input, selected nothing, or refused every game leaves every target as it was.
//!
//! ```
//! use reversi_formats::{diagnostic::Renderer, Format};
//! use reversi_runs::run::{self, ConvertOptions, ConvertStep};
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("games.txt");
//! std::fs::write(&input, "f5d6c3\nf5d6a1\n")?;
//! let output = dir.path().join("games.rgn");
//! let options = ConvertOptions::new(Format::Rgn, &output);
//! let (mut outcomes, mut renderer) = (Vec::new(), Renderer::plain());
//! let report = run::convert(&[input], &options, |step| {
//!     if let ConvertStep::Game { file, game, outcome } = step {
//!         let game = run::ConvertedGame::new(file, game, outcome, ("rgn", false), &mut renderer);
//!         outcomes.push(serde_json::to_value(&game)?["outcome"].clone());
//!     }
//!     Ok(())
//! })?;
//! assert_eq!(outcomes, ["written", "written"]);
//! assert_eq!((report.written, report.with_errors), (2, 1));
//! assert_eq!(report.status(), run::Status::Invalid);
//! assert!(std::fs::read_to_string(&output)?.contains("1. f5 d6 2. c3"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::archive::dedupe;
use crate::formats::{wthor, Format, ParsedGame, ReadOptions, WriteOptions};
use crate::pipeline::conversion::{
    Conversion, Event, Fingerprint, Outcome, OutputTemplate, Tally, TemplateError,
};
use crate::record::{GameSelector, TagEdits};

use super::open::{open, InputOptions, InputSource, OpenError, Opened};
use super::read_back::ReadBack;
use super::validate::{gather, Step, ValidateOptions};

mod files;
mod report;

pub use dedupe::Copies;
pub use report::{ConvertReport, ConvertedGame, GameOutcome, OutputWritten};

use files::{output_dir, Files};

/// What a convert run writes and how.
#[derive(Clone, Debug)]
pub struct ConvertOptions {
    /// The format written.
    pub target: Format,
    /// Its dialect (`lines` for JSON, `nopass` for move strings, `thor` for PGN, ...).
    pub dialect: Option<String>,
    /// Where: a file, `-` for standard output, or a template with fields
    /// (`WTH_{year}.wtb`, `{event}/round-{round}.rgn`, any tag as `{TagName}`).
    pub output: PathBuf,
    /// How the inputs are read; `names` also says where a WTHOR output's name files go.
    pub input: InputOptions,
    /// The year every game of a WTHOR output is filed under.
    pub year: Option<u16>,
    /// Write what the target can hold and list what was dropped, instead of refusing.
    pub lossy: bool,
    /// Converts only the games it takes.
    pub select: Option<GameSelector>,
    /// Tags set and names mapped on every game written.
    pub edits: TagEdits,
    /// Writes each game once: the copies it names are left out.
    pub dedupe: Option<Copies>,
    /// Worker threads (`None`: every core).
    pub jobs: Option<usize>,
    /// More files no output may replace (a names map read for `edits`).
    pub guarded: Vec<PathBuf>,
}

impl ConvertOptions {
    /// A run to `target` into `output`, with every other option at its default.
    pub fn new(target: Format, output: impl Into<PathBuf>) -> ConvertOptions {
        ConvertOptions {
            target,
            dialect: None,
            output: output.into(),
            input: InputOptions::default(),
            year: None,
            lossy: false,
            select: None,
            edits: TagEdits::default(),
            dedupe: None,
            jobs: None,
            guarded: Vec::new(),
        }
    }

    /// The target's name in reports: `json:lines` with its dialect, else the format's.
    pub fn target_name(&self) -> String {
        match &self.dialect {
            Some(d) if self.target == Format::Json => format!("{}:{d}", self.target),
            _ => self.target.to_string(),
        }
    }
}

/// A pass over the inputs, or the outputs at the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Pass {
    /// Finding the copies `dedupe` leaves out.
    Copies,
    /// Reading what the games say of their WTHOR year headers.
    Years,
    /// Converting.
    Games,
    /// The games are converted: the outputs are read back and put in place, or left as
    /// they were.
    Outputs,
}

/// What a convert run does, in the order it does it.
#[derive(Debug)]
pub enum ConvertStep<'a> {
    /// A pass begins (over the inputs, each opened again; or over the outputs).
    Pass(Pass),
    /// An input starts: its name and how it is read.
    Input {
        /// The input's name.
        name: &'a Arc<str>,
        /// How it is read ([`Opened::note`]).
        note: &'a str,
    },
    /// An input could not be opened (nothing is put in place).
    OpenFailed(&'a OpenError),
    /// A game read, and what became of it ([`ConvertedGame`] reports it).
    Game {
        /// The input's name.
        file: &'a Arc<str>,
        /// The game, with everything found in it.
        game: &'a ParsedGame,
        /// What became of it.
        outcome: &'a Outcome,
    },
    /// Reading an input failed after the games given (nothing is put in place).
    ReadFailed {
        /// The input's name.
        name: &'a Arc<str>,
        /// What failed.
        error: &'a io::Error,
    },
    /// A copy `dedupe` leaves out, and why.
    LeftOut(&'a str),
    /// An output put in place, with this many games.
    Wrote {
        /// Its name.
        file: &'a str,
        /// Its games.
        games: usize,
    },
    /// What became of an output that was not put in place.
    Abandoned(&'a str),
    /// A warning about the whole run.
    Warning(&'a str),
    /// Why the run failed without an input to blame (no game selected).
    Failed(&'a str),
}

/// Why a run stopped before its end: an output that could not be written or read back,
/// or the error the caller's `step` returned, with the report so far.
#[derive(Debug)]
pub struct ConvertStopped {
    /// What went wrong.
    pub error: io::Error,
    /// The report so far.
    pub report: Box<ConvertReport>,
}

impl fmt::Display for ConvertStopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for ConvertStopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Converts the inputs (paths, `-` for standard input; each opened with [`open`]) as
/// `options` say, calling `step` with everything done in order.
pub fn convert(
    inputs: &[PathBuf],
    options: &ConvertOptions,
    step: impl FnMut(ConvertStep<'_>) -> io::Result<()>,
) -> Result<ConvertReport, ConvertStopped> {
    convert_tapped(inputs, options, |input| input, step)
}

/// [`convert`], each input read through `tap` once opened ([`Opened::tap`]: a progress
/// counter, say).
pub fn convert_tapped(
    inputs: &[PathBuf],
    options: &ConvertOptions,
    tap: impl Fn(Opened) -> Opened + Sync,
    mut step: impl FnMut(ConvertStep<'_>) -> io::Result<()>,
) -> Result<ConvertReport, ConvertStopped> {
    let mut report = ConvertReport {
        target: options.target_name(),
        ..ConvertReport::default()
    };
    let run = Run {
        inputs,
        options,
        tap: &tap,
    };
    match run.run(&mut report, &mut step) {
        Ok(()) => Ok(report),
        Err(error) => Err(ConvertStopped {
            error,
            report: Box::new(report),
        }),
    }
}

/// The game numbers `dedupe` leaves out, by input name.
type Skip = HashMap<String, HashSet<usize>>;

/// A run's inputs and options.
struct Run<'r, T> {
    inputs: &'r [PathBuf],
    options: &'r ConvertOptions,
    tap: &'r T,
}

type StepFn<'s> = dyn FnMut(ConvertStep<'_>) -> io::Result<()> + 's;

impl<T: Fn(Opened) -> Opened + Sync> Run<'_, T> {
    fn open(&self, path: &Path) -> Result<Opened, OpenError> {
        open(InputSource::path(path), &self.options.input).map(self.tap)
    }

    fn run(&self, report: &mut ConvertReport, step: &mut StepFn<'_>) -> io::Result<()> {
        let options = self.options;
        let target = options.target;
        let names = options.input.names.as_deref().map(wthor::Names::parse);
        let names = names
            .transpose()
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
        let name_files = names.as_ref().and_then(wthor::Names::files).cloned();
        let template = template_of(&options.output)?;
        let mut guarded: Vec<PathBuf> = self.inputs.to_vec();
        guarded.extend(options.guarded.iter().cloned());
        guarded.extend(wthor::name_files_beside(
            self.inputs,
            options.input.names.as_deref(),
        ));
        guarded.extend(
            name_files
                .iter()
                .flat_map(|f| [f.players.clone(), f.tournaments.clone()]),
        );
        let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
        let write_options = WriteOptions {
            lossy: options.lossy,
            dialect: options.dialect.clone(),
            names_dir: None,
            name_files,
            year: options.year,
            staging_dir: None,
            year_headers: None,
        };
        let names_dir = names
            .as_ref()
            .and_then(wthor::Names::dir)
            .map(PathBuf::from);
        let new_name_files = match (target, &write_options.name_files) {
            (Format::Wthor, None) => {
                new_name_files(names_dir.clone().or_else(|| output_dir(&options.output)))
            }
            _ => None,
        };
        let mut files = Files::new(target, write_options, names_dir, &guarded);
        let staged = match &template {
            // A single output is opened before any input is read.
            None => files.open_single(&options.output)?,
            Some(_) => true,
        };
        // Standard output, a FIFO or a device is not staged, so not read back; nor is OBF,
        // which keeps each game's final position only.
        let read_back = staged && ReadBack::applies(target);
        let read_options = ReadOptions {
            rules: options.input.rules,
            ..ReadOptions::default()
        };
        let skip = match options.dedupe {
            Some(copies) => Some(self.plan_copies(copies, report, step)?),
            None => None,
        };
        let mut conversion = Conversion::new()
            .select(options.select.clone())
            .edit(options.edits.clone())
            .target(target, &files.options, &read_options);
        if let Some(jobs) = options.jobs {
            conversion = conversion.jobs(jobs);
        }
        if let Some(template) = template.clone() {
            conversion = conversion.split(template);
        }
        if target == Format::Wthor {
            if let Some(years) = self.survey_years(&conversion, skip.as_ref(), step)? {
                files.settle_years(years);
            }
        }
        let mut written = Written {
            files: HashMap::new(),
            read_back,
            output: options.output.clone(),
            wthor: target == Format::Wthor,
            indexed: false,
        };
        let tally = self.convert(
            &conversion,
            skip.as_ref(),
            &mut files,
            &mut written,
            report,
            step,
        );
        let tally = match tally {
            Ok(tally) => tally,
            Err(stopped) => {
                report.count(&stopped.counts);
                return Err(files.failed(stopped.error));
            }
        };
        report.count(&tally);
        step(ConvertStep::Pass(Pass::Outputs))?;
        if tally.games == 0 && options.select.is_some() && !report.failed() {
            if let Some(selector) = &options.select {
                let why = format!("{selector}: no game of the inputs is selected");
                step(ConvertStep::Failed(&why))?;
                report.failed = Some(why);
            }
        }
        if report.failed() {
            // A run that could not read an input, or refused every game it read, leaves every
            // output as it was, and the name files a WTHOR writer would extend too.
            for abandoned in files.abandoned() {
                step(ConvertStep::Abandoned(&abandoned))?;
                report.abandoned.push(abandoned);
            }
            return Ok(());
        }
        let finished = files.finish()?;
        // Every file is read back before any is put in place.
        let mut kept = Vec::new();
        for mut file in finished {
            let (games, spool) = match written.files.remove(&file.name) {
                Some(one) => (one.games, one.spool),
                None => (0, None),
            };
            if template.is_some() && games == 0 {
                // Opened for games the writer then refused: not created.
                continue;
            }
            file.output
                .flush()
                .map_err(|e| file.output.write_failed(e))?;
            if let (Some(path), Some(spool)) = (file.output.staged(), spool) {
                let options = ReadOptions {
                    name: Arc::from(file.output.name()),
                    ..read_options.clone()
                };
                spool
                    .check(&conversion, target, path, &options)
                    .map_err(|e| {
                        let kept = file
                            .output
                            .abandoned()
                            .map(|a| format!("; {a}"))
                            .unwrap_or_default();
                        io::Error::other(format!("{}: {e}{kept}", file.output.name()))
                    })?;
            }
            kept.push((file, games));
        }
        for (file, games) in kept {
            let name = file.output.name();
            file.output.commit()?;
            step(ConvertStep::Wrote { file: &name, games })?;
            report.outputs.push(OutputWritten { file: name, games });
        }
        if let (Some(said), true, true) = (new_name_files, written.indexed, tally.written > 0) {
            step(ConvertStep::Warning(&said))?;
            report.warnings.push(said);
        }
        Ok(())
    }

    /// Converts every game of every input with the library's pipeline, in input order. An
    /// output error stops the work.
    fn convert(
        &self,
        conversion: &Conversion,
        skip: Option<&Skip>,
        files: &mut Files<'_>,
        written: &mut Written,
        report: &mut ConvertReport,
        step: &mut StepFn<'_>,
    ) -> Result<Tally, crate::pipeline::conversion::Stopped> {
        let stopped = |error| crate::pipeline::conversion::Stopped {
            error,
            counts: Tally::default(),
        };
        step(ConvertStep::Pass(Pass::Games)).map_err(stopped)?;
        let open = |path: &PathBuf| match self.open(path) {
            Ok(input) => (
                Ok((input.name().clone(), input.note())),
                Some(input.into_input()),
            ),
            Err(e) => (Err(e), None),
        };
        let mut current: Arc<str> = Arc::from("-");
        let mut sink = |event: Event<'_, Result<(Arc<str>, String), OpenError>>| match event {
            Event::Start(Ok((name, note))) => {
                current = name;
                step(ConvertStep::Input {
                    name: &current,
                    note: &note,
                })
            }
            Event::Start(Err(e)) => {
                report.failed_input = true;
                step(ConvertStep::OpenFailed(&e))
            }
            Event::Game(game, outcome) => {
                if let Outcome::Written(one) = outcome {
                    written.game(game, one.file.as_deref(), one.fingerprint)?;
                }
                step(ConvertStep::Game {
                    file: &current,
                    game,
                    outcome,
                })
            }
            Event::ReadFailed(error) => {
                report.failed_input = true;
                step(ConvertStep::ReadFailed {
                    name: &current,
                    error: &error,
                })
            }
        };
        let Some(skip) = skip else {
            return conversion.run_split(self.inputs.iter().map(open), files, &mut sink);
        };
        // The copies to leave out are given input by input: one run each.
        let mut tally = Tally::default();
        for path in self.inputs {
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
                    return Err(s);
                }
            }
        }
        Ok(tally)
    }

    /// Reads every input once to find its copies ([`dedupe::plan`]): the games to leave out
    /// by input, each also a step saying why.
    fn plan_copies(
        &self,
        copies: Copies,
        report: &mut ConvertReport,
        step: &mut StepFn<'_>,
    ) -> io::Result<Skip> {
        if self.inputs.iter().any(|p| p.as_os_str() == "-") {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "--dedupe reads its inputs twice: standard input cannot be one",
            ));
        }
        step(ConvertStep::Pass(Pass::Copies))?;
        let opened = self.inputs.iter().map(|path| self.open(path));
        let options = ValidateOptions {
            jobs: self.options.jobs,
            ..ValidateOptions::default()
        };
        let (event, read) = gather(opened, &options, |found| match found {
            Step::OpenFailed(e) => step(ConvertStep::OpenFailed(e)),
            Step::ReadFailed { name, error } => step(ConvertStep::ReadFailed { name, error }),
            _ => Ok(()),
        })
        .map_err(|stopped| stopped.error)?;
        if !read.failed.is_empty() {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                "--dedupe: an input could not be read, so its copies are unknown",
            ));
        }
        let plan = dedupe::plan(&event, copies);
        let mut skip = Skip::new();
        for input in 0..event.games().iter().map(|g| g.input + 1).max().unwrap_or(0) {
            if let Some(games) = plan.dropped_from(input) {
                skip.insert(event.input_name(input).to_owned(), games.clone());
            }
        }
        for dropped in plan.dropped() {
            let line = dropped.to_string();
            step(ConvertStep::LeftOut(&line))?;
            report.copies_left_out.push(line);
        }
        Ok(skip)
    }

    /// What the games this run writes state of their WTHOR year files' headers, read from
    /// every input before the run ([`Conversion::survey_years`]): the files then do not
    /// depend on the order of the inputs. `None` with standard input, which cannot be read
    /// twice (the first game to state a setting decides it). An input that cannot be read
    /// adds what it could; the conversion reports it.
    fn survey_years(
        &self,
        conversion: &Conversion,
        skip: Option<&Skip>,
        step: &mut StepFn<'_>,
    ) -> io::Result<Option<wthor::YearHeaders>> {
        if self.inputs.iter().any(|p| p.as_os_str() == "-") {
            return Ok(None);
        }
        step(ConvertStep::Pass(Pass::Years))?;
        let mut years = wthor::YearHeaders::default();
        for path in self.inputs {
            let Ok(input) = open(InputSource::path(path), &self.options.input) else {
                continue;
            };
            let left_out = skip.and_then(|skip| skip.get(input.name().as_ref()).cloned());
            let _ = conversion
                .clone()
                .skip(left_out)
                .survey_years(input.into_input(), &mut years);
        }
        Ok(Some(years))
    }
}

/// The games written to each output, and their fingerprints spooled to read it back with.
struct Written {
    files: HashMap<String, OneOutput>,
    read_back: bool,
    /// The output the options name (a template, or the one output).
    output: PathBuf,
    /// Whether the target is WTHOR, and a game read has WTHOR name indexes (`WthorBlack`, ...).
    wthor: bool,
    indexed: bool,
}

/// The games written to one output.
#[derive(Default)]
struct OneOutput {
    games: usize,
    spool: Option<ReadBack>,
}

impl Written {
    /// Counts `game`, written to the output the template named `name` (`None`: the one
    /// output), and spools its fingerprint.
    fn game(
        &mut self,
        game: &ParsedGame,
        name: Option<&str>,
        fingerprint: Fingerprint,
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
        let name = name.unwrap_or("");
        let file = match self.files.get_mut(name) {
            Some(file) => file,
            None => self.files.entry(name.to_owned()).or_default(),
        };
        file.games += 1;
        if self.read_back {
            if file.spool.is_none() {
                let path = match name {
                    "" => self.output.as_path(),
                    name => Path::new(name),
                };
                file.spool = Some(ReadBack::beside(path)?);
            }
            if let Some(spool) = &mut file.spool {
                spool.push(fingerprint)?;
            }
        }
        Ok(())
    }
}

/// The template `output` is (it holds a `{`), or `None` for one output.
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
