//! The validate run: every game of the inputs replayed on all cores and reported in input
//! order, then the checks across games (the same game twice, a player twice in a round,
//! the pairings and the register), `allow` applied to both. The front end sees each
//! [`Step`] as it comes, to print it or keep it, and gets a [`ValidateReport`] at the end.
//!
//! ```
//! use reversi_runs::run::{self, InputOptions, InputSource, Step, ValidateOptions};
//! let games = InputSource::Bytes { name: "games.txt".into(), bytes: b"f5d6c3\nf5d6a1\n".to_vec() };
//! let mut codes = Vec::new();
//! let report = run::validate(
//!     [run::open(games, &InputOptions::default())],
//!     &ValidateOptions::default(),
//!     |step| {
//!         if let Step::Game(_, diagnostics) = step {
//!             codes.extend(diagnostics.iter().map(|d| d.code.name()));
//!         }
//!         Ok(())
//!     },
//! )?;
//! assert_eq!((report.summary.games, report.summary.invalid), (2, 1));
//! assert_eq!(codes, ["unfinished", "illegal-move"]);
//! assert_eq!(report.status(), run::Status::Invalid);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::io;
use std::sync::Arc;

use serde::Serialize;

use crate::diagnostic::Diagnostic;
use crate::event::{Event, Finding, Register, Schedule};
use crate::formats::ParsedGame;
use crate::pipeline::validation::{Event as Found, Validation};
use crate::record::GameSelector;
use crate::validate::Summary;

use super::open::{OpenError, Opened};

/// What a validate run checks and how.
#[derive(Clone, Debug)]
pub struct ValidateOptions {
    /// Worker threads (`None`: every core).
    pub jobs: Option<usize>,
    /// Codes neither reported nor counted (ignoring ASCII case), in games and across them.
    pub allow: Vec<String>,
    /// Whether the checks across games run (they keep a few dozen bytes a game).
    pub event_checks: bool,
    /// Validates only the games it takes.
    pub select: Option<GameSelector>,
    /// The event's pairings: games missing, unpaired or with the colours swapped are
    /// reported (with the checks across games).
    pub pairings: Option<Schedule>,
    /// The player register: names are read through it, and names it does not hold are
    /// reported (with the checks across games).
    pub register: Option<Arc<Register>>,
}

impl Default for ValidateOptions {
    fn default() -> ValidateOptions {
        ValidateOptions {
            jobs: None,
            allow: Vec::new(),
            event_checks: true,
            select: None,
            pairings: None,
            register: None,
        }
    }
}

/// What a validate run found, in the order it is found.
#[derive(Debug)]
pub enum Step<'a> {
    /// An input starts: its name and how it is read (the note of [`Opened::note`]).
    Input {
        /// The input's name.
        name: &'a Arc<str>,
        /// How it is read.
        note: &'a str,
    },
    /// An input could not be opened (the report's status becomes [`Status::Failed`]).
    OpenFailed(&'a OpenError),
    /// A game with something to report, and what (after `allow`).
    Game(&'a ParsedGame, &'a [Diagnostic]),
    /// This many more games were valid with nothing to report.
    Clean(usize),
    /// Reading the current input failed after the games reported (the status becomes
    /// [`Status::Failed`]).
    ReadFailed {
        /// The input's name.
        name: &'a Arc<str>,
        /// What failed.
        error: &'a io::Error,
    },
    /// The current input is done: its own counts.
    Ended {
        /// The input's name.
        name: &'a Arc<str>,
        /// Its counts.
        counts: &'a Summary,
    },
    /// A finding across games (after every game), not allowed.
    Finding(&'a Finding),
}

/// What a validate run found, in sum: plain data (serialisable).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ValidateReport {
    /// The counts of every game and finding.
    pub summary: Summary,
    /// Each input's own counts, in input order (inputs that could not be opened have
    /// none).
    pub files: Vec<FileCounts>,
    /// The inputs that could not be opened or read to their end, with why.
    pub failed: Vec<FailedInput>,
}

/// An input's name and its own counts; in JSON one object, the name first (`files`, one,
/// left out).
#[derive(Clone, Debug)]
pub struct FileCounts {
    /// The input's name.
    pub file: String,
    /// Its counts.
    pub counts: Summary,
}

impl Serialize for FileCounts {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let c = &self.counts;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("file", &self.file)?;
        map.serialize_entry("games", &c.games)?;
        map.serialize_entry("valid", &c.valid)?;
        map.serialize_entry("invalid", &c.invalid)?;
        map.serialize_entry("errors", &c.errors)?;
        map.serialize_entry("warnings", &c.warnings)?;
        if c.across_games != 0 {
            map.serialize_entry("across_games", &c.across_games)?;
        }
        if !c.codes.is_empty() {
            map.serialize_entry("codes", &c.codes)?;
        }
        map.end()
    }
}

/// An input that could not be opened or read to its end.
#[derive(Clone, Debug, Serialize)]
pub struct FailedInput {
    /// The input's name (`None` for name files that could not be used).
    pub file: Option<String>,
    /// The error's stable code (`io`, `unknown-format`, `bad-names`).
    pub code: &'static str,
    /// What failed, in words.
    pub message: String,
}

/// What a run's outcome says, for an exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// Every game valid (warnings allowed), every input read.
    Clean,
    /// Every input read, and something is wrong in a game or across games.
    Invalid,
    /// An input could not be opened or read to its end.
    Failed,
}

impl ValidateReport {
    /// What the run's outcome says: [`Status::Failed`] before [`Status::Invalid`].
    pub fn status(&self) -> Status {
        if !self.failed.is_empty() {
            Status::Failed
        } else if !self.summary.is_clean() {
            Status::Invalid
        } else {
            Status::Clean
        }
    }
}

/// Why a run stopped before its end: the error the caller's `step` returned (standard
/// output closed, say), and the report so far.
#[derive(Debug)]
pub struct Stopped {
    /// What the caller returned.
    pub error: io::Error,
    /// The report so far.
    pub report: ValidateReport,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped after {}: {}", self.report.summary, self.error)
    }
}

impl std::error::Error for Stopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

/// An input as the run opened it.
enum Tag {
    Opened(Arc<str>, String),
    Failed(OpenError),
}

/// Validates `inputs` (opened in turn, as the iterator gives them) as `options` say,
/// calling `step` with everything found in input order; the checks across games run after
/// the last game. An error from `step` stops the run ([`Stopped`]).
pub fn validate<I>(
    inputs: I,
    options: &ValidateOptions,
    mut step: impl FnMut(Step<'_>) -> io::Result<()>,
) -> Result<ValidateReport, Stopped>
where
    I: IntoIterator<Item = Result<Opened, OpenError>>,
    I::IntoIter: Send,
{
    let (mut report, event) = read(inputs, options, options.event_checks, &mut step)?;
    let checks = options.event_checks
        && (event.games().len() > 1 || options.pairings.is_some() || options.register.is_some());
    if checks {
        let summary = &mut report.summary;
        let across = event.check_each(options.pairings.as_ref(), |finding| {
            if options
                .allow
                .iter()
                .any(|a| a.eq_ignore_ascii_case(finding.code.name()))
            {
                return Ok(());
            }
            summary.add_across_games(finding.code, finding.severity);
            step(Step::Finding(&finding))
        });
        if let Err(error) = across {
            return Err(Stopped { error, report });
        }
    }
    Ok(report)
}

/// Every game of `inputs` validated and reported to `step`, the facts of each gathered into
/// the event when `gather` says.
fn read<I>(
    inputs: I,
    options: &ValidateOptions,
    gather: bool,
    step: &mut impl FnMut(Step<'_>) -> io::Result<()>,
) -> Result<(ValidateReport, Event), Stopped>
where
    I: IntoIterator<Item = Result<Opened, OpenError>>,
    I::IntoIter: Send,
{
    let mut report = ValidateReport::default();
    let mut event = Event::default();
    if let Some(register) = &options.register {
        event.set_register(register.clone());
    }
    let inputs = inputs.into_iter().map(|opened| match opened {
        Ok(opened) => {
            let tag = Tag::Opened(opened.name().clone(), opened.note());
            (tag, Some(opened.into_input()))
        }
        Err(e) => (Tag::Failed(e), None),
    });
    let mut validation = Validation::new()
        .allow(options.allow.iter().cloned())
        .gather(gather)
        .select(options.select.clone());
    if let Some(jobs) = options.jobs {
        validation = validation.jobs(jobs);
    }
    let mut name: Arc<str> = Arc::from("-");
    let failed = &mut report.failed;
    let files = &mut report.files;
    let outcome = validation.run(inputs, |found| match found {
        Found::Start(Tag::Opened(input, note)) => {
            event.start_input(input.clone());
            name = input;
            step(Step::Input {
                name: &name,
                note: &note,
            })
        }
        Found::Start(Tag::Failed(e)) => {
            failed.push(FailedInput {
                file: e.name().map(str::to_owned),
                code: e.code(),
                message: e.to_string(),
            });
            step(Step::OpenFailed(&e))
        }
        Found::Facts(block) => {
            event.absorb(block);
            Ok(())
        }
        Found::Game(game, diagnostics) => step(Step::Game(game, diagnostics)),
        Found::Clean(games) => step(Step::Clean(games)),
        Found::ReadFailed(error) => {
            failed.push(FailedInput {
                file: Some(name.to_string()),
                code: "io",
                message: format!("{name}: reading failed: {error}"),
            });
            step(Step::ReadFailed {
                name: &name,
                error: &error,
            })
        }
        Found::Ended(counts) => {
            files.push(FileCounts {
                file: name.to_string(),
                counts: counts.clone(),
            });
            step(Step::Ended {
                name: &name,
                counts,
            })
        }
    });
    report.summary = match outcome {
        Ok(summary) => summary,
        Err(stopped) => {
            report.summary = stopped.counts;
            return Err(Stopped {
                error: stopped.error,
                report,
            });
        }
    };
    Ok((report, event))
}

/// The facts of every game of `inputs` gathered into one [`Event`] (for the standings, a
/// register's draft or the copies a conversion leaves out), with `step` told what is read as
/// [`validate`] tells it; no check across games runs.
///
/// ```
/// use reversi_runs::run::{self, InputOptions, InputSource, ValidateOptions};
/// let games = InputSource::Bytes { name: "r1.txt".into(), bytes: b"f5d6c3\nf5f6\n".to_vec() };
/// let (event, report) = run::gather(
///     [run::open(games, &InputOptions::default())],
///     &ValidateOptions::default(),
///     |_| Ok(()),
/// )?;
/// assert_eq!((event.games().len(), report.summary.games), (2, 2));
/// # Ok::<(), run::Stopped>(())
/// ```
pub fn gather<I>(
    inputs: I,
    options: &ValidateOptions,
    mut step: impl FnMut(Step<'_>) -> io::Result<()>,
) -> Result<(Event, ValidateReport), Stopped>
where
    I: IntoIterator<Item = Result<Opened, OpenError>>,
    I::IntoIter: Send,
{
    let (report, event) = read(inputs, options, true, &mut step)?;
    Ok((event, report))
}
