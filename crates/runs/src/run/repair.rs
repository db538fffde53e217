//! The repair run: every game of the inputs repaired (the smallest set of edits that makes
//! it replay, [`repair_batch`] on all cores, a batch at a time so memory stays flat) and
//! written in input order to one output, staged, read back game by game and put in place
//! only when every input was read and a game was written. The front end sees each
//! [`RepairStep`] as it comes and gets a [`RepairRunReport`] at the end; a game's repair is
//! reported in the one shape every front end gives it
//! ([`RepairReport`](crate::repair::RepairReport)).
//!
//! ```
//! use reversi_runs::run::{self, RepairRunOptions, RepairStep};
//! let dir = tempfile::tempdir()?;
//! let input = dir.path().join("round-1.txt");
//! std::fs::write(&input, "f5c3d6d3c4\nf5d6c3d3c4\n")?;
//! let output = dir.path().join("round-1.rgn");
//! let mut statuses = Vec::new();
//! let report = run::repair(&[input], &RepairRunOptions::new(&output), |step| {
//!     if let RepairStep::Game { repair, .. } = step {
//!         statuses.push(repair.status.name());
//!     }
//!     Ok(())
//! })?;
//! assert_eq!(statuses, ["repaired", "valid"]);
//! assert_eq!((report.counts.repaired, report.counts.written), (1, 2));
//! assert_eq!(report.status(), run::Status::Clean);
//! assert!(std::fs::read_to_string(&output)?.contains("[Repair "));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Serialize;

use crate::event::{Register, Schedule};
use crate::formats::{Format, ParsedGame, PgnDialect, ReadOptions, RecordWriter, WriteError};
use crate::formats::{Games, WriteOptions};
use crate::pipeline::conversion::{Conversion, Fingerprint};
use crate::record::{GameSelector, Record, TagEdits};
use crate::repair::{repair_batch, Repair, RepairOptions, Status as RepairStatus};

use super::open::{open, InputOptions, InputSource, OpenError, Opened};
use super::output::Output;
use super::read_back::{ReadBack, ReadBackError};
use super::Status;

/// The games are read, repaired and written this many at a time: memory holds one batch,
/// whatever the size of the input.
const BATCH: usize = 256;

/// What a repair run repairs and writes, and how.
#[derive(Clone, Debug)]
pub struct RepairRunOptions {
    /// The format written (default: the first input's; RGN for move strings, which hold
    /// no tags).
    pub to: Option<Format>,
    /// Where: a file (staged, put in place at the end) or `-` for standard output.
    pub output: PathBuf,
    /// Write what the format can hold and drop the rest, instead of leaving a game out.
    pub lossy: bool,
    /// How the inputs are read.
    pub input: InputOptions,
    /// How far each game's search goes.
    pub search: RepairOptions,
    /// Write the board's result when only the claimed result is wrong.
    pub fix_result: bool,
    /// The event's pairings: a game whose result is the board's reversed while its pairing
    /// has the players the other way round was written from White's side, and is repaired
    /// by exchanging the names.
    pub pairings: Option<Schedule>,
    /// The register the pairings' names are read through.
    pub register: Option<Register>,
    /// The alternatives taken by hand, for an input of ambiguous games.
    pub picks: Vec<Pick>,
    /// Repairs only the games it takes; the others are written as read.
    pub select: Option<GameSelector>,
    /// Tags set and names mapped on every game repaired.
    pub edits: TagEdits,
    /// Worker threads (`None`: every core).
    pub jobs: Option<usize>,
}

impl RepairRunOptions {
    /// A run into `output`, with every other option at its default.
    pub fn new(output: impl Into<PathBuf>) -> RepairRunOptions {
        RepairRunOptions {
            to: None,
            output: output.into(),
            lossy: false,
            input: InputOptions::default(),
            search: RepairOptions::default(),
            fix_result: false,
            pairings: None,
            register: None,
            picks: Vec::new(),
            select: None,
            edits: TagEdits::default(),
            jobs: None,
        }
    }
}

/// Alternative `n` (from 1, as the report numbers them) of game `game` of the one input
/// (`None`: the input's only game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pick {
    /// The game, numbered in the input.
    pub game: Option<usize>,
    /// The alternative.
    pub n: usize,
}

impl fmt::Display for Pick {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.game {
            Some(game) => write!(f, "--pick {game}:{}", self.n),
            None => write!(f, "--pick {}", self.n),
        }
    }
}

/// What a repair run does, in the order it does it.
#[derive(Debug)]
pub enum RepairStep<'a> {
    /// An input starts: its name and how it is read.
    Input {
        /// The input's name.
        name: &'a Arc<str>,
        /// How it is read ([`Opened::note`]).
        note: &'a str,
    },
    /// An input could not be opened (nothing is put in place).
    OpenFailed(&'a OpenError),
    /// Reading an input failed: its games after the last given are lost (nothing is put
    /// in place).
    ReadFailed {
        /// The input's name.
        name: &'a Arc<str>,
        /// What failed.
        error: &'a io::Error,
    },
    /// The writer opens with the first input: the format written, and the input's format
    /// when it was not taken because it holds no tags.
    Writing {
        /// The format written.
        format: Format,
        /// The first input's format, when the games are written in another.
        instead_of: Option<Format>,
    },
    /// A game repaired, and whether it was written (with a note when not as wished).
    Game {
        /// The input's name.
        file: &'a Arc<str>,
        /// The game as read.
        game: &'a ParsedGame,
        /// What repairing it found ([`RepairReport`](crate::repair::RepairReport) reports
        /// it).
        repair: &'a Repair,
        /// Whether it was written.
        written: bool,
        /// What the output could not hold of it, or why it was not written.
        note: Option<&'a str>,
    },
    /// A game the selection passes over, written as read (or not, when the format cannot
    /// hold it).
    PassedOver {
        /// The input's name.
        file: &'a Arc<str>,
        /// The game.
        game: &'a ParsedGame,
        /// Whether it was written.
        written: bool,
    },
    /// A game written from White's side: its names are exchanged, as the pairing says.
    NamesSwapped {
        /// The input's name.
        file: &'a Arc<str>,
        /// The game.
        game: &'a ParsedGame,
        /// The pairing, as the pairings file gives it.
        pairing: &'a str,
        /// Its line in the pairings file.
        line: usize,
    },
    /// A pick that cannot be taken (nothing is put in place).
    PickFailed(&'a str),
    /// An input is done: the counts of the run so far, and before it.
    Ended {
        /// The input's name.
        name: &'a Arc<str>,
        /// The counts before the input.
        before: &'a RepairCounts,
        /// The counts after it.
        after: &'a RepairCounts,
    },
    /// No game of the inputs is selected (nothing is put in place): the selector.
    NothingSelected(&'a str),
    /// What became of the output that was not put in place.
    Abandoned(&'a str),
}

/// What a repair run counted: plain data (the command line's JSON summary).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct RepairCounts {
    /// Inputs opened.
    pub files: usize,
    /// Games repaired (the selected ones).
    pub games: usize,
    /// Games that validate.
    pub valid: usize,
    /// Games repaired.
    pub repaired: usize,
    /// Games whose only fault is the claimed result (fixed only when asked).
    pub wrong_result: usize,
    /// Games with several best repairs.
    pub ambiguous: usize,
    /// Games without a repair within the limits.
    pub unrepairable: usize,
    /// Games written.
    pub written: usize,
    /// Games the selection passed over, written as read.
    pub passed_over: usize,
}

/// What a repair run did, in sum.
#[derive(Clone, Debug, Default, Serialize)]
pub struct RepairRunReport {
    /// The counts.
    #[serde(flatten)]
    pub counts: RepairCounts,
    /// The format written (empty when no input could be opened).
    pub format: String,
    /// An input could not be opened or read, a pick could not be taken, or nothing was
    /// selected: nothing is put in place.
    #[serde(skip)]
    pub failed: bool,
    /// What became of the output, when it was not put in place.
    #[serde(skip)]
    pub abandoned: Option<String>,
}

impl RepairRunReport {
    /// What the run's outcome says: [`Status::Failed`] when an input could not be read, a
    /// pick not taken or nothing selected; [`Status::Invalid`] when a game is neither valid
    /// nor repaired.
    pub fn status(&self) -> Status {
        let c = &self.counts;
        if self.failed {
            Status::Failed
        } else if c.wrong_result + c.ambiguous + c.unrepairable > 0 {
            Status::Invalid
        } else {
            Status::Clean
        }
    }
}

/// Why a repair run stopped before its end: the output could not be written or read
/// back, or the caller's `step` returned an error; the report so far (with what became of
/// the output).
#[derive(Debug)]
pub struct RepairStopped {
    /// What went wrong.
    pub error: io::Error,
    /// The report so far.
    pub report: Box<RepairRunReport>,
}

impl fmt::Display for RepairStopped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.error.fmt(f)
    }
}

impl std::error::Error for RepairStopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// Repairs the games of `inputs` (paths, `-` for standard input) as `options` say, calling
/// `step` with everything done in order.
pub fn repair(
    inputs: &[PathBuf],
    options: &RepairRunOptions,
    step: impl FnMut(RepairStep<'_>) -> io::Result<()>,
) -> Result<RepairRunReport, RepairStopped> {
    repair_tapped(inputs, options, |input| input, step)
}

/// [`repair`], each input read through `tap` once opened ([`Opened::tap`]: a progress
/// counter, say).
pub fn repair_tapped(
    inputs: &[PathBuf],
    options: &RepairRunOptions,
    tap: impl Fn(Opened) -> Opened,
    mut step: impl FnMut(RepairStep<'_>) -> io::Result<()>,
) -> Result<RepairRunReport, RepairStopped> {
    let mut report = RepairRunReport::default();
    let stopped = |error, report: RepairRunReport| RepairStopped {
        error,
        report: Box::new(report),
    };
    let picks = match Picks::new(inputs, &options.picks) {
        Ok(picks) => picks,
        Err(e) => return Err(stopped(e, report)),
    };
    let jobs = options.jobs.unwrap_or(0);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(jobs).build();
    let pool = match pool {
        Ok(pool) => pool,
        Err(e) => return Err(stopped(io::Error::other(e.to_string()), report)),
    };
    let mut guarded: Vec<PathBuf> = inputs.to_vec();
    guarded.extend(crate::formats::wthor::name_files_beside(inputs, None));
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let mut output = match Output::create(&options.output, &guarded) {
        Ok(output) => output,
        Err(e) => return Err(stopped(e, report)),
    };
    let staged = output.staged().is_some();
    let mut run = Run {
        options,
        pool: &pool,
        picks,
        tap: &tap,
        staged,
    };
    // The writer borrows the output until it is finished.
    let worked = {
        let mut sink: Option<Sink<'_>> = None;
        let mut out = Some(output.writer());
        let worked = run.inputs(inputs, &mut sink, &mut out, &mut report, &mut step);
        match (worked, sink) {
            (Err(e), _) => Err(e),
            (Ok(()), None) => Ok(None),
            (Ok(()), Some(mut sink)) => match sink.writer.finish() {
                Ok(()) => {
                    report.format = sink.format.to_string();
                    Ok(sink.back.map(|back| (back, sink.conversion, sink.format)))
                }
                Err(e) => Err(Stop::Output(e)),
            },
        }
    };
    let read_back = match worked {
        Ok(read_back) => read_back,
        Err(stop) => {
            let error = match stop {
                // The error names the output and says what becomes of it.
                Stop::Output(e) if e.kind() != io::ErrorKind::BrokenPipe => output.write_failed(e),
                Stop::Output(e) | Stop::Step(e) => {
                    report.abandoned = output.abandoned();
                    e
                }
            };
            return Err(stopped(error, report));
        }
    };
    // A run that could not read an input, or wrote no game, leaves the output as it was.
    if report.failed || (report.counts.written == 0 && output.abandoned().is_some()) {
        report.abandoned = output.abandoned();
        if let Some(abandoned) = &report.abandoned {
            if let Err(e) = step(RepairStep::Abandoned(abandoned)) {
                return Err(stopped(e, report));
            }
        }
        return Ok(report);
    }
    // What was written is read back, game by game, before it is put in place.
    if let (Some((back, conversion, format)), Some(path)) =
        (read_back, output.staged().map(Path::to_path_buf))
    {
        let name = output.name();
        let options = ReadOptions {
            name: Arc::from(name.as_str()),
            rules: options.input.rules,
            ..ReadOptions::default()
        };
        let checked = output
            .flush()
            .map_err(ReadBackError::Unreadable)
            .and_then(|()| back.check(&conversion, format, &path, &options));
        if let Err(e) = checked {
            report.abandoned = output.abandoned();
            let kept = report
                .abandoned
                .as_ref()
                .map(|a| format!("; {a}"))
                .unwrap_or_default();
            return Err(stopped(
                io::Error::other(format!("{name}: {e}{kept}")),
                report,
            ));
        }
    }
    match output.commit() {
        Ok(()) => Ok(report),
        Err(e) => Err(stopped(e, report)),
    }
}

/// Why the work stopped before the end.
enum Stop {
    /// Writing the games failed (a closed pipe included).
    Output(io::Error),
    /// The caller's `step` returned an error.
    Step(io::Error),
}

type StepFn<'s> = dyn FnMut(RepairStep<'_>) -> io::Result<()> + 's;

/// A run's shared parts.
struct Run<'r, T> {
    options: &'r RepairRunOptions,
    pool: &'r rayon::ThreadPool,
    picks: Picks,
    tap: &'r T,
    /// Whether the output is a staged file (read back before it is put in place).
    staged: bool,
}

impl<T: Fn(Opened) -> Opened> Run<'_, T> {
    /// Every input in turn, then what the picks and the selection did not find.
    fn inputs<'o>(
        &mut self,
        inputs: &[PathBuf],
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn io::Write + Send)>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        for path in inputs {
            self.input(path, sink, out, report, step)?;
        }
        for unused in self.picks.unused() {
            report.failed = true;
            step(RepairStep::PickFailed(&unused)).map_err(Stop::Step)?;
        }
        if let (Some(selector), 0) = (&self.options.select, report.counts.games) {
            report.failed = true;
            let selector = selector.to_string();
            step(RepairStep::NothingSelected(&selector)).map_err(Stop::Step)?;
        }
        Ok(())
    }

    /// Opens `path` and repairs its games a batch at a time, writing each batch (and
    /// reporting it) before reading the next.
    fn input<'o>(
        &mut self,
        path: &Path,
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn io::Write + Send)>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        let options = self.options;
        let input = match open(InputSource::path(path), &options.input) {
            Ok(input) => (self.tap)(input),
            Err(e) => {
                report.failed = true;
                return step(RepairStep::OpenFailed(&e)).map_err(Stop::Step);
            }
        };
        report.counts.files += 1;
        let before = report.counts;
        let name = input.name().clone();
        let note = input.note();
        step(RepairStep::Input {
            name: &name,
            note: &note,
        })
        .map_err(Stop::Step)?;
        let read = ReadOptions {
            name: name.clone(),
            path: (path != Path::new("-")).then(|| path.to_path_buf()),
            rules: options.input.rules,
            names_dir: None,
            name_files: None,
        };
        let format = input.format();
        let sink = match (sink.as_mut(), out.take()) {
            (Some(s), _) => s,
            (None, Some(o)) => {
                let opened = Sink::open(options, format, o, self.staged).map_err(Stop::Output)?;
                let instead_of = (opened.format != format).then_some(format);
                step(RepairStep::Writing {
                    format: opened.format,
                    instead_of,
                })
                .map_err(Stop::Step)?;
                sink.insert(opened)
            }
            (None, None) => {
                return Err(Stop::Output(io::Error::other(
                    "the output was taken without opening the writer",
                )))
            }
        };
        let mut games = input.games();
        let mut ended = false;
        while !ended {
            let (batch, end) = self.batch(&mut games, &name, report, step)?;
            ended = end;
            self.repair_batch(&batch, format, &read, sink, report, step)?;
        }
        step(RepairStep::Ended {
            name: &name,
            before: &before,
            after: &report.counts,
        })
        .map_err(Stop::Step)
    }

    /// The next games of the input, and whether it ended (a game that cannot be read ends
    /// it there, reported).
    fn batch(
        &self,
        games: &mut Games<'static>,
        name: &Arc<str>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(Vec<ParsedGame>, bool), Stop> {
        let mut batch: Vec<ParsedGame> = Vec::with_capacity(BATCH);
        while batch.len() < BATCH {
            match games.next() {
                Some(Ok(g)) => batch.push(g),
                Some(Err(error)) => {
                    report.failed = true;
                    step(RepairStep::ReadFailed {
                        name,
                        error: &error,
                    })
                    .map_err(Stop::Step)?;
                    return Ok((batch, true));
                }
                None => return Ok((batch, true)),
            }
        }
        Ok((batch, false))
    }

    /// Repairs the games of `batch` the selection takes (on all cores), and writes them
    /// all in order, each reported.
    fn repair_batch(
        &mut self,
        batch: &[ParsedGame],
        format: Format,
        read: &ReadOptions,
        sink: &mut Sink<'_>,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<(), Stop> {
        let options = self.options;
        let file = &read.name;
        // Only the games the selection takes are repaired (a few: they are copied out).
        let chosen: Vec<bool> = batch
            .iter()
            .map(|g| options.select.as_ref().map_or(true, |s| g.is_selected(s)))
            .collect();
        let repairs = if chosen.iter().all(|&c| c) {
            self.pool
                .install(|| repair_batch(batch, format, read, &options.search))
        } else {
            let selected: Vec<ParsedGame> = batch
                .iter()
                .zip(&chosen)
                .filter(|(_, &c)| c)
                .map(|(g, _)| g.clone())
                .collect();
            self.pool
                .install(|| repair_batch(&selected, format, read, &options.search))
        };
        let mut repairs = repairs.into_iter();
        for (game, &chosen) in batch.iter().zip(&chosen) {
            let Some(repair) = chosen.then(|| repairs.next()).flatten() else {
                let written = sink.write_as_read(game).map_err(Stop::Output)?;
                report.counts.passed_over += 1;
                report.counts.written += usize::from(written);
                step(RepairStep::PassedOver {
                    file,
                    game,
                    written,
                })
                .map_err(Stop::Step)?;
                continue;
            };
            let repair = self.settle(file, game, repair, report, step)?;
            let (written, note) = sink.write(&repair).map_err(Stop::Output)?;
            report.counts.count(&repair, written);
            step(RepairStep::Game {
                file,
                game,
                repair: &repair,
                written,
                note: note.as_deref(),
            })
            .map_err(Stop::Step)?;
        }
        Ok(())
    }

    /// The repair as the options take it: the alternative picked, the names exchanged of a
    /// game written from White's side, the result fixed when asked.
    fn settle(
        &mut self,
        file: &Arc<str>,
        game: &ParsedGame,
        repair: Repair,
        report: &mut RepairRunReport,
        step: &mut StepFn<'_>,
    ) -> Result<Repair, Stop> {
        let options = self.options;
        let (repair, error) = self.picks.apply(game.index, repair);
        if let Some(error) = error {
            report.failed = true;
            step(RepairStep::PickFailed(&format!("{file}: {error}"))).map_err(Stop::Step)?;
        }
        let repair = match (&options.pairings, &repair.record) {
            (Some(pairings), Some(record)) if repair.is_reversed_result() => {
                let (black, white) = (record.tag("Black"), record.tag("White"));
                let pairing = pairings.swapped(
                    record.tag("Round"),
                    black.unwrap_or_default(),
                    white.unwrap_or_default(),
                    options.register.as_ref(),
                );
                match pairing {
                    Some(p) if black.is_some() && white.is_some() => {
                        step(RepairStep::NamesSwapped {
                            file,
                            game,
                            pairing: &p.to_string(),
                            line: p.line,
                        })
                        .map_err(Stop::Step)?;
                        repair.swap_names()
                    }
                    _ => repair,
                }
            }
            _ => repair,
        };
        Ok(match options.fix_result {
            true => repair.fix_result(),
            false => repair,
        })
    }
}

impl RepairCounts {
    /// Counts one repaired game, and whether it was `written`.
    fn count(&mut self, repair: &Repair, written: bool) {
        self.games += 1;
        match repair.status {
            RepairStatus::Valid => self.valid += 1,
            RepairStatus::Repaired => self.repaired += 1,
            RepairStatus::WrongResult => self.wrong_result += 1,
            RepairStatus::Ambiguous => self.ambiguous += 1,
            RepairStatus::Unrepairable => self.unrepairable += 1,
        }
        if written {
            self.written += 1;
        }
    }
}

/// The picks of a run, by game, and which games the input held.
#[derive(Default)]
struct Picks {
    /// Alternative to take, by game number.
    by_game: BTreeMap<usize, Pick>,
    /// Whether a pick was given as `N` alone (game 1, the only one).
    bare: bool,
    /// The most games seen.
    games: usize,
}

impl Picks {
    /// The picks given, checked: one input file, each game once.
    fn new(inputs: &[PathBuf], given: &[Pick]) -> io::Result<Picks> {
        let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
        let mut picks = Picks::default();
        if given.is_empty() {
            return Ok(picks);
        }
        if inputs.len() != 1 {
            return Err(usage(format!(
                "--pick names a game by its number in the input, so it needs one input file, but {} were given",
                inputs.len()
            )));
        }
        for &p in given {
            picks.bare |= p.game.is_none();
            let game = p.game.unwrap_or(1);
            if let Some(before) = picks.by_game.insert(game, p) {
                return Err(usage(format!("{before} and {p} both pick for game {game}")));
            }
        }
        Ok(picks)
    }

    /// Applies the pick for `game`, if any: the chosen alternative, or an error message.
    fn apply(&mut self, game: usize, repair: Repair) -> (Repair, Option<String>) {
        self.games = self.games.max(game);
        if self.bare && game == 2 {
            let p = self.by_game.get(&1).copied();
            let text = p.map_or_else(String::new, |p| p.to_string());
            return (
                repair,
                Some(format!(
                    "{text}: the input holds more than one game; write `--pick GAME:N`"
                )),
            );
        }
        let Some(&p) = self.by_game.get(&game) else {
            return (repair, None);
        };
        match repair.clone().pick(p.n) {
            Ok(picked) => (picked, None),
            Err(e) => (repair, Some(format!("{p}: game {game}: {e}"))),
        }
    }

    /// The picks for games the input did not hold.
    fn unused(&self) -> Vec<String> {
        self.by_game
            .iter()
            .filter(|(&g, _)| g > self.games)
            .map(|(_, p)| {
                format!(
                    "{p}: the input holds {} {}",
                    self.games,
                    if self.games == 1 { "game" } else { "games" }
                )
            })
            .collect()
    }
}

/// The writer of the chosen format over the output, made when the first input tells the
/// default format.
struct Sink<'a> {
    format: Format,
    writer: Box<dyn RecordWriter + 'a>,
    /// Applied to every game repaired.
    edits: TagEdits,
    /// What every game written must read back as, when the output is a staged file: the
    /// output is read back before it is put in place, as a conversion's is.
    back: Option<ReadBack>,
    /// Reads the output back (the target, its options, the rules of records without).
    conversion: Conversion,
    /// Whether losses are allowed, which a refusal's words name.
    lossy: bool,
}

impl<'a> Sink<'a> {
    fn open(
        options: &RepairRunOptions,
        input_format: Format,
        out: &'a mut (dyn io::Write + Send),
        staged: bool,
    ) -> io::Result<Sink<'a>> {
        let format = options.to.unwrap_or(match input_format {
            Format::Pgn(PgnDialect::Rgn) => Format::Rgn,
            // Move strings hold no tags: a CSV's players, round and result would be lost.
            Format::MoveString => Format::Rgn,
            f => f,
        });
        let dialect = match format {
            Format::Pgn(d) if d != PgnDialect::Rgn => Some(d.name().to_string()),
            _ => None,
        };
        let write = WriteOptions {
            lossy: options.lossy,
            dialect,
            names_dir: None,
            ..WriteOptions::default()
        };
        let read = ReadOptions {
            rules: options.input.rules,
            ..ReadOptions::default()
        };
        let back = match staged && ReadBack::applies(format) {
            true => Some(ReadBack::beside(&options.output)?),
            false => None,
        };
        Ok(Sink {
            format,
            conversion: Conversion::new().target(format, &write, &read),
            writer: format.writer(Box::new(out), &write),
            edits: options.edits.clone(),
            back,
            lossy: options.lossy,
        })
    }

    /// What `record` must read back as once written (readied as a conversion to the target
    /// readies a game: passes written out, result settled), or why the target refuses it:
    /// a game whose error it would hide (a wrong result in a format without results), as
    /// a conversion refuses it.
    fn check(&self, record: &Record) -> Result<Fingerprint, WriteError> {
        let mut readied = record.clone();
        let found = self.conversion.ready(&mut readied, 1, &[]);
        match found.refused {
            Some(why) => Err(why),
            None => Ok(self.conversion.fingerprint(&readied, &found.found)),
        }
    }

    /// Keeps `fingerprint`, of a game just written with `losses`, to read the output back
    /// with (its result left out when the target dropped part of it).
    fn spool(&mut self, fingerprint: Fingerprint, losses: &[String]) -> io::Result<()> {
        let Some(back) = &mut self.back else {
            return Ok(());
        };
        back.push(match losses.is_empty() {
            true => fingerprint,
            false => fingerprint.without_result(),
        })
    }

    /// Writes a game the selection passed over, as it was read; whether it was written (a
    /// game that could not be read, or that the format cannot hold, is not).
    fn write_as_read(&mut self, game: &ParsedGame) -> io::Result<bool> {
        let Some(record) = &game.record else {
            return Ok(false);
        };
        // The tag edits go to the games the selection takes, as the repair does.
        let Ok(fingerprint) = self.check(record) else {
            return Ok(false);
        };
        match self.writer.write(record) {
            Ok(losses) => self.spool(fingerprint, &losses).map(|()| true),
            Err(WriteError::Io(e)) => Err(e),
            Err(_) => Ok(false),
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
        let mut edited = plain.clone();
        self.edits.apply(&mut edited);
        // Tags and comments aside, the three are one game: checked once.
        let fingerprint = match self.check(&edited) {
            Ok(fingerprint) => fingerprint,
            Err(why) => {
                let format = self.format.to_string();
                let why = why
                    .refusal(&format, self.lossy)
                    .unwrap_or_else(|| why.to_string());
                return Ok((false, Some(format!("not written: {why}"))));
            }
        };
        for (i, mut record) in [commented, annotated, plain].into_iter().enumerate() {
            self.edits.apply(&mut record);
            match self.writer.write(&record) {
                Ok(losses) => {
                    self.spool(fingerprint, &losses)?;
                    let note = if !losses.is_empty() {
                        Some(format!("dropped {}", losses.join("; ")))
                    } else if i == 2 && repair.status == RepairStatus::Repaired {
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
                Err(
                    hidden @ (WriteError::HidesErrors { .. } | WriteError::NeedsSetting { .. }),
                ) => {
                    last = vec![hidden.to_string()];
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
