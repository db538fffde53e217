//! The conversion pipeline: whole inputs read, their passes made explicit and their
//! records rendered for the target on several threads, then written in input order by one
//! writer.
//!
//! ```
//! use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome};
//! use reversi_formats::{Format, ReadOptions, WriteOptions};
//! use reversi_runs::pipeline::Input;
//! let input = Input {
//!     format: Format::MoveString,
//!     reader: Box::new(&b"f5d6c3\nf5zz\n"[..]),
//!     options: ReadOptions::default(),
//! };
//! let mut out = Vec::new();
//! let mut outcomes = Vec::new();
//! let tally = {
//!     let mut writer = Format::Rgn.writer(Box::new(&mut out), &WriteOptions::default());
//!     let tally = Conversion::new()
//!         .jobs(2)
//!         .run([("games.txt", Some(input))].into_iter(), &mut *writer, |event| {
//!             if let Event::Game(game, outcome) = event {
//!                 outcomes.push((game.index, matches!(outcome, Outcome::Written(_))));
//!             }
//!             Ok(())
//!         })
//!         .unwrap();
//!     writer.finish().unwrap();
//!     tally
//! };
//! assert_eq!((tally.games, tally.written, tally.unreadable), (2, 1, 1));
//! assert_eq!(outcomes, [(1, true), (2, false)]);
//! assert_eq!(String::from_utf8(out).unwrap(), "[Rules \"othello\"]\n\n1. f5 d6 2. c3\n");
//! ```
//!
//! How it is fast: the reading only splits the inputs into blocks of games (WTHOR records,
//! RGN/PGN game texts, the other formats' games); the workers read each game (into a
//! record, unless its quick scan takes it: then it is rendered from the scan), insert the
//! passes it leaves implicit ([`insert_inferred_passes`]) and, for a text target, render it
//! with the writer's [`Renderer`]; the calling thread writes
//! the texts (or, for WTHOR, the records) in input order and reports each game. Memory
//! stays flat: a few blocks are in flight at a time.
//!
//! [`insert_inferred_passes`]: crate::validate::insert_inferred_passes

use std::collections::HashSet;
use std::io;

pub use crate::pipeline::blocks::Input;
use std::sync::Arc;

#[doc(hidden)]
pub use crate::formats::rgn::quick::Annotations;
use crate::formats::{
    Format, ParsedGame, ReadOptions, RecordWriter, Renderer, WriteError, WriteOptions,
};
use crate::record::{GameSelector, TagEdits};

mod fingerprint;
mod plain;
mod prepare;

pub use prepare::Readied;
mod run;
mod split;
mod survey;
mod work;

pub use fingerprint::{Fingerprint, Mismatch};
pub use split::{OutputTemplate, TemplateError};
/// A conversion run's settings; [`Conversion::run`] converts.
#[derive(Clone, Debug)]
pub struct Conversion {
    jobs: usize,
    target: Option<Arc<Target>>,
    split: Option<Arc<OutputTemplate>>,
    select: Option<Arc<GameSelector>>,
    /// Game numbers left out (copies: `archive::dedupe`).
    skip: Option<Arc<HashSet<usize>>>,
    edits: Option<Arc<TagEdits>>,
}

/// Where a split conversion ([`Conversion::run_split`]) writes: one writer per file name,
/// all of one format, each opened when a game first needs it.
pub trait Outputs {
    /// The writers' renderer ([`RecordWriter::renderer`]), `None` for a format whose
    /// writer takes records.
    fn renderer(&self) -> Option<Renderer>;
    /// The writer of the file `name` (what the template gave for a game).
    fn writer(&mut self, name: &str) -> io::Result<&mut dyn RecordWriter>;
}

/// One writer for every game.
struct Single<'w>(&'w mut dyn RecordWriter);

impl Outputs for Single<'_> {
    fn renderer(&self) -> Option<Renderer> {
        self.0.renderer()
    }

    fn writer(&mut self, _name: &str) -> io::Result<&mut dyn RecordWriter> {
        Ok(&mut *self.0)
    }
}

/// The target of a conversion, for reading a game with errors back as it would be written.
#[derive(Debug)]
struct Target {
    format: Format,
    write: WriteOptions,
    read: ReadOptions,
}

impl Default for Conversion {
    fn default() -> Conversion {
        Conversion::new()
    }
}

/// What [`Conversion::run`] reports, in input order.
#[derive(Debug)]
pub enum Event<'e, T> {
    /// An input starts: the caller's tag given with it.
    Start(T),
    /// A game read, with everything found in it (the reader's diagnostics, then the
    /// replay's, as [`validate_game`] gives them), and what became of it. For a text
    /// target its `record` is `None` once rendered (freed by the worker that rendered it);
    /// for WTHOR it is the record written, passes made explicit and its result settled.
    ///
    /// [`validate_game`]: crate::validate::validate_game
    Game(&'e ParsedGame, &'e Outcome),
    /// Reading the current input failed; the games before the failure were reported.
    ReadFailed(io::Error),
}

/// What became of one game.
#[derive(Debug)]
pub enum Outcome {
    /// Written ([`Written`] says how).
    Written(Written),
    /// Refused by the target, which says why ([`WriteError::refusal`]).
    Refused(WriteError),
    /// Not converted: it could not be read (its diagnostics say why).
    Unreadable,
    /// Not a game: an entry (index 0) that reports a problem of the input itself, such as
    /// a JSON envelope; its diagnostics say what.
    FileProblem,
}

/// How a game was written.
#[derive(Debug)]
pub struct Written {
    /// What the target dropped of it (when writing lossily).
    pub losses: Vec<String>,
    /// Whether its result was derived from the final board ([`settle_result`]): the
    /// record gave none, or only a margin or the winner.
    ///
    /// [`settle_result`]: crate::validate::settle_result
    pub derived_result: bool,
    /// What it must read back as ([`Conversion::verify`]).
    pub fingerprint: Fingerprint,
    /// The file it went to, in a split conversion ([`Conversion::run_split`]).
    pub file: Option<String>,
}

/// The counts of a conversion run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tally {
    /// Inputs opened.
    pub files: usize,
    /// Games read (converted or not).
    pub games: usize,
    /// Games written.
    pub written: usize,
    /// Games the target refused.
    pub refused: usize,
    /// Games that could not be read.
    pub unreadable: usize,
    /// Games with an error, the reader's or the replay's (written or not).
    pub with_errors: usize,
    /// Games written that have an error (written as read, with the same findings).
    pub written_with_errors: usize,
    /// Games written with a result derived from their final board.
    pub derived_results: usize,
    /// Problems of an input itself, not of a game ([`Outcome::FileProblem`]).
    pub file_problems: usize,
}

/// A run stopped by the writer's output or by the sink: the error, and the [`Tally`] of
/// the games reported before it.
pub type Stopped = crate::pipeline::blocks::Stopped<Tally>;

impl std::ops::AddAssign for Tally {
    /// The counts of two runs together (a run input by input).
    fn add_assign(&mut self, other: Tally) {
        self.files += other.files;
        self.games += other.games;
        self.written += other.written;
        self.refused += other.refused;
        self.unreadable += other.unreadable;
        self.with_errors += other.with_errors;
        self.written_with_errors += other.written_with_errors;
        self.derived_results += other.derived_results;
        self.file_problems += other.file_problems;
    }
}

impl std::fmt::Display for Tally {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.games {
            1 => f.write_str("1 game"),
            n => write!(f, "{n} games"),
        }
    }
}

impl Conversion {
    /// One job per core.
    pub fn new() -> Conversion {
        Conversion {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            target: None,
            split: None,
            select: None,
            skip: None,
            edits: None,
        }
    }

    /// Readies `record` (game `index` of its input, read with the findings `read`) as
    /// [`Conversion::run`] readies each game: replayed; without an error, the passes it
    /// leaves implicit written out and its result settled from the final board; with one,
    /// refused by the target when it would not read back from it with the same errors. The
    /// desk's export readies its records with it, so a file exported there is the file
    /// `reversi convert` writes.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// use reversi_runs::pipeline::conversion::Conversion;
    /// let game = Format::MoveString.read(Box::new(&b"c4c3c2e3f5c6e2b2b7c5a1c7c8\n"[..]), &ReadOptions::default()).next().unwrap()?;
    /// let mut record = game.record.unwrap();
    /// let conversion = Conversion::new().target(Format::Rgn, &WriteOptions::default(), &ReadOptions::default());
    /// let readied = conversion.ready(&mut record, 1, &game.diagnostics);
    /// assert!(readied.derived_result && readied.refused.is_none());
    /// assert!(record.result.is_some(), "a finished game's result is settled");
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn ready(
        &self,
        record: &mut crate::record::Record,
        index: usize,
        read: &[crate::diagnostic::Diagnostic],
    ) -> Readied {
        prepare::ready_record(record, index, read, self.target.as_deref())
    }

    /// What `record`, readied and with the findings `diagnostics`, must read back as once
    /// written to this conversion's target ([`Conversion::verify`]).
    pub fn fingerprint(
        &self,
        record: &crate::record::Record,
        diagnostics: &[crate::diagnostic::Diagnostic],
    ) -> Fingerprint {
        prepare::fingerprint_for(record, diagnostics, self.target.as_deref())
    }

    /// Says what the writer writes (`format`, with `write` options) and how its output is
    /// read (`read`: the rules for games that do not state them), so that a game with
    /// errors is written only when it reads back with the same errors, and is refused
    /// ([`WriteError::HidesErrors`]) when the format cannot hold what makes it wrong (the
    /// colours of a GGF game in WTHOR, a refused pass, a wrong result in move strings).
    /// Without it, a game with errors is written as read, unchecked.
    pub fn target(
        mut self,
        format: Format,
        write: &WriteOptions,
        read: &ReadOptions,
    ) -> Conversion {
        let mut write = write.clone();
        // Only what the format makes of the moves and the result counts; names and
        // other losses do not.
        write.lossy = true;
        self.target = Some(Arc::new(Target {
            format,
            write,
            read: read.clone(),
        }));
        self
    }

    /// Converts with `jobs` worker threads; 1 does everything on the calling thread.
    pub fn jobs(mut self, jobs: usize) -> Conversion {
        self.jobs = jobs.max(1);
        self
    }

    /// Converts only the games `selector` takes ([`ParsedGame::is_selected`]); the others
    /// are neither written, reported nor counted. A selector by tags reads every game in
    /// full.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// use reversi_runs::pipeline::conversion::{Conversion, Input};
    /// use reversi_formats::record::GameSelector;
    /// let text = "[Round \"1\"]\n\nf5 d6 *\n\n[Round \"2\"]\n\nf5 f6 *\n";
    /// let input = Input { format: Format::Rgn, reader: Box::new(text.as_bytes()), options: ReadOptions::default() };
    /// let mut out = Vec::new();
    /// let mut writer = Format::Rgn.writer(Box::new(&mut out), &WriteOptions::default());
    /// let round_2 = GameSelector::parse("Round=2").unwrap();
    /// let tally = Conversion::new()
    ///     .select(Some(round_2))
    ///     .run([("a.rgn", Some(input))].into_iter(), &mut *writer, |_| Ok(()))
    ///     .unwrap();
    /// writer.finish().unwrap();
    /// drop(writer);
    /// let text = String::from_utf8(out).unwrap();
    /// assert_eq!(tally.games, 1);
    /// assert!(text.contains("[Round \"2\"]") && !text.contains("[Round \"1\"]"), "{text}");
    /// ```
    pub fn select(mut self, selector: Option<GameSelector>) -> Conversion {
        self.select = selector.map(Arc::new);
        self
    }

    /// Leaves out the games with these numbers (from 1) of each input, as a selector does
    /// (neither written, reported nor counted): the copies an archive drops
    /// ([`crate::archive::dedupe::Plan::dropped_from`]), given input by input.
    ///
    /// ```
    /// use std::collections::HashSet;
    /// use reversi_runs::pipeline::conversion::{Conversion, Event};
    /// use reversi_runs::pipeline::Input;
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// let input = Input { format: Format::MoveString, reader: Box::new(&b"f5d6\nf5f6\nf5f4\n"[..]), options: ReadOptions::default() };
    /// let mut out = Vec::new();
    /// let mut writer = Format::MoveString.writer(Box::new(&mut out), &WriteOptions::default());
    /// let tally = Conversion::new()
    ///     .skip(Some(HashSet::from([2])))
    ///     .run([((), Some(input))].into_iter(), &mut *writer, |_| Ok(()))
    ///     .unwrap();
    /// writer.finish().unwrap();
    /// drop(writer);
    /// assert_eq!((tally.games, tally.written), (2, 2));
    /// assert_eq!(String::from_utf8(out).unwrap(), "f5d6\nf5f4\n");
    /// ```
    pub fn skip(mut self, games: Option<HashSet<usize>>) -> Conversion {
        self.skip = games.map(Arc::new);
        self
    }

    /// Edits every game's tags before it is written ([`TagEdits`]: a tag set, players'
    /// names mapped): each game is then read in full. The moves and the result are never
    /// edited; a selector takes games by their tags as read.
    pub fn edit(mut self, edits: TagEdits) -> Conversion {
        self.edits = (!edits.is_empty()).then(|| Arc::new(edits));
        self
    }

    /// Names each game's file with `template` for [`Conversion::run_split`].
    pub fn split(mut self, template: OutputTemplate) -> Conversion {
        self.split = Some(Arc::new(template));
        self
    }
}

impl Tally {
    fn count(&mut self, game: &ParsedGame, outcome: &Outcome) {
        if let Outcome::FileProblem = outcome {
            self.file_problems += 1;
            return;
        }
        self.games += 1;
        let with_errors = game.diagnostics.iter().any(|d| d.is_error());
        self.with_errors += usize::from(with_errors);
        match outcome {
            Outcome::Written(written) => {
                self.written += 1;
                self.written_with_errors += usize::from(with_errors);
                self.derived_results += usize::from(written.derived_result);
            }
            Outcome::Refused(_) => self.refused += 1,
            Outcome::Unreadable => self.unreadable += 1,
            Outcome::FileProblem => {}
        }
    }
}
