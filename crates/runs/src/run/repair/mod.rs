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

mod batches;
mod picks;
mod sink;

use batches::{Run, Stop};
use picks::Picks;
use sink::Sink;

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
