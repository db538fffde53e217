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

use std::collections::HashSet;
use std::io;

pub use crate::pipeline::blocks::Input;
use std::ops::Range;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Source};
use crate::engine::quick::{move_of, standard_end, QuickClaim, QuickMoves};
use crate::engine::{Move, Rules};
#[doc(hidden)]
pub use crate::formats::rgn::quick::Annotations;
use crate::formats::rgn::GameSpan;
use crate::formats::wthor::{Entry, FileContext, QuickRecord, YearHeaders};
use crate::formats::{
    capped, rgn, text, Format, ParsedGame, PlainGame, ReadOptions, RecordWriter, Rendered,
    Renderer, WriteError, WriteOptions,
};
use crate::pipeline::blocks::{self, Pending, Spent, TextBlock, Unit};
use crate::pipeline::view::GameReader;
use crate::record::{GameSelector, Record, Tag, TagEdits};
use crate::validate::{insert_inferred_passes, settle_result, validate_game, validate_record};

mod fingerprint;
mod split;

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

    /// Converts every game of every input through `writer`, each input given with the
    /// caller's tag (handed back in [`Event::Start`]) and `None` for an input that could
    /// not be opened, calling `sink` with each game and what became of it, in input order.
    /// Returns the counts. An output error, or an error from `sink`, stops the run: it
    /// comes back with the counts so far ([`Stopped`]). The caller finishes the writer.
    pub fn run<T, I, F>(
        &self,
        inputs: I,
        writer: &mut dyn RecordWriter,
        sink: F,
    ) -> Result<Tally, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        self.run_split(inputs, &mut Single(writer), sink)
    }

    /// Adds to `years` what the games of `input` this run writes state of their WTHOR
    /// files' headers ([`YearHeaders`]): the games it selects and does not leave out,
    /// their tags edited as it edits them, each read through the [`GameReader`] (its
    /// tags, never replayed). A run
    /// that merges inputs into WTHOR year files surveys every input first and hands the
    /// result to its writers ([`WriteOptions::year_headers`]), so the files do not depend
    /// on the order of the inputs.
    ///
    /// ```
    /// use reversi_formats::wthor::YearHeaders;
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::conversion::Conversion;
    /// use reversi_runs::pipeline::Input;
    /// let text = "[Date \"2004\"]\n[TheoreticalDepth \"24\"]\nf5 d6 *\n";
    /// let input = Input { format: Format::Rgn, reader: Box::new(text.as_bytes()), options: ReadOptions::default() };
    /// let mut years = YearHeaders::default();
    /// Conversion::new().survey_years(input, &mut years).unwrap();
    /// assert_eq!(years.depth(2004), Some(24));
    /// ```
    pub fn survey_years(&self, input: Input, years: &mut YearHeaders) -> io::Result<()> {
        let file_year = self.target.as_ref().and_then(|t| t.write.year);
        let mut reader = GameReader::new(input);
        let mut edited = Vec::new();
        while let Some(game) = reader.next_game() {
            let game = game?;
            let index = game.index();
            let taken = index > 0
                && self
                    .skip
                    .as_ref()
                    .map_or(true, |skip| !skip.contains(&index))
                && self
                    .select
                    .as_ref()
                    .map_or(true, |select| select.matches(index, game.tags()));
            if !taken {
                continue;
            }
            let board = game.rules().board();
            match &self.edits {
                None => years.add(file_year, board, tag_pairs(game.tags())),
                Some(edits) => {
                    edited.clear();
                    edited.extend_from_slice(game.tags());
                    edits.apply_to_tags(&mut edited);
                    years.add(file_year, board, tag_pairs(&edited));
                }
            }
        }
        Ok(())
    }

    /// Names each game's file with `template` for [`Conversion::run_split`].
    pub fn split(mut self, template: OutputTemplate) -> Conversion {
        self.split = Some(Arc::new(template));
        self
    }

    /// [`Conversion::run`] into several files: each game goes to the writer of the file
    /// the template of [`Conversion::split`] names for it ([`Written::file`]); without a
    /// template, all go to the file `""`. The caller finishes the writers.
    pub fn run_split<T, I, F>(
        &self,
        inputs: I,
        outputs: &mut dyn Outputs,
        mut sink: F,
    ) -> Result<Tally, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        let renderer = outputs.renderer();
        let mut tally = Tally::default();
        let mut report = |done: &mut Done<T>| -> io::Result<()> {
            if let Done::Games(games) = done {
                for prepared in games.iter_mut() {
                    let outcome = write(outputs, prepared)?;
                    tally.count(&prepared.game, &outcome);
                    sink(Event::Game(&prepared.game, &outcome))?;
                }
                return Ok(());
            }
            match std::mem::replace(done, Done::Reported) {
                Done::Start(tag, opened) => {
                    tally.files += usize::from(opened);
                    sink(Event::Start(tag))
                }
                Done::Failed(e) => sink(Event::ReadFailed(e)),
                Done::Games(_) | Done::Reported => Ok(()),
            }
        };
        let work = Work {
            renderer: renderer.as_ref(),
            target: self.target.as_deref(),
            split: self.split.as_deref(),
            select: self.select.as_deref(),
            skip: self.skip.as_deref(),
            edits: self.edits.as_deref(),
            fingerprint_only: false,
        };
        match blocks::run(
            self.jobs,
            blocks::CONVERSION_BLOCK,
            inputs,
            |unit, scratch: &mut Scratch| prepare(unit, work, scratch),
            &mut report,
        ) {
            Ok(()) => Ok(tally),
            Err(error) => Err(Stopped {
                error,
                counts: tally,
            }),
        }
    }

    /// Reads `output` (what a run wrote, in the target's format) back and compares it game
    /// by game with `written`, the [`Written::fingerprint`]s of the games written, in
    /// order: `Ok(None)` when every game reads back as it was written, else the first
    /// that does not. An error reading `output` or `written` is returned.
    ///
    /// ```
    /// use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome};
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// use reversi_runs::pipeline::Input;
    /// let input = |text: &'static [u8], format| Input { format, reader: Box::new(text), options: ReadOptions::default() };
    /// let (mut out, mut written) = (Vec::new(), Vec::new());
    /// {
    ///     let mut writer = Format::Rgn.writer(Box::new(&mut out), &WriteOptions::default());
    ///     Conversion::new().run([((), Some(input(b"f5d6c3\nf5f6\n", Format::MoveString)))].into_iter(), &mut *writer, |e| {
    ///         if let Event::Game(_, Outcome::Written(w)) = e { written.push(w.fingerprint) }
    ///         Ok(())
    ///     }).unwrap();
    ///     writer.finish().unwrap();
    /// }
    /// let back = |text: Vec<u8>| Input { format: Format::Rgn, reader: Box::new(std::io::Cursor::new(text)), options: ReadOptions::default() };
    /// let check = Conversion::new();
    /// assert_eq!(check.verify(back(out.clone()), written.iter().copied().map(Ok)).unwrap(), None);
    /// let changed = String::from_utf8(out).unwrap().replace("f6", "d6");
    /// let mismatch = check.verify(back(changed.into_bytes()), written.into_iter().map(Ok)).unwrap().unwrap();
    /// assert_eq!((mismatch.game, mismatch.what), (2, vec!["moves"]));
    /// ```
    pub fn verify(
        &self,
        output: Input,
        mut written: impl Iterator<Item = io::Result<Fingerprint>>,
    ) -> io::Result<Option<Mismatch>> {
        let work = Work {
            renderer: None,
            target: None,
            split: None,
            select: None,
            skip: None,
            edits: None,
            fingerprint_only: true,
        };
        let mut game = 0;
        let mut mismatch = None;
        let mut compare = |done: &mut Done<()>| -> io::Result<()> {
            match done {
                Done::Games(games) => {
                    for prepared in games.iter() {
                        game += 1;
                        let found = match prepared.step {
                            Step::Unreadable => Fingerprint::of_unreadable(),
                            _ => prepared.fingerprint,
                        };
                        let what = match written.next().transpose()? {
                            None => vec!["extra"],
                            Some(expected) => expected.differences(&found),
                        };
                        if !what.is_empty() {
                            mismatch = Some(Mismatch { game, what });
                            // Stops the reading: the first difference is enough.
                            return Err(io::Error::other("mismatch"));
                        }
                    }
                    Ok(())
                }
                Done::Failed(e) => Err(io::Error::new(e.kind(), e.to_string())),
                Done::Start(..) | Done::Reported => Ok(()),
            }
        };
        let run = blocks::run(
            self.jobs,
            blocks::CONVERSION_BLOCK,
            [((), Some(output))].into_iter(),
            |unit, scratch: &mut Scratch| prepare(unit, work, scratch),
            &mut compare,
        );
        if mismatch.is_some() {
            return Ok(mismatch);
        }
        run?;
        Ok(written.next().transpose()?.map(|_| Mismatch {
            game: game + 1,
            what: vec!["missing"],
        }))
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

/// A block prepared by a worker.
enum Done<T> {
    Start(T, bool),
    Games(Vec<Prepared>),
    Failed(io::Error),
    /// Reported: what the caller needed was taken out.
    Reported,
}

/// A game read, and what the worker made of it for the writer.
struct Prepared {
    game: ParsedGame,
    step: Step,
    derived_result: bool,
    fingerprint: Fingerprint,
    /// Its file, in a split conversion.
    file: Option<String>,
}

impl Prepared {
    /// Game `index` of an output read back, that the quick check passed: only its
    /// fingerprint counts, its text (`nothing`) is not kept.
    fn fingerprinted(index: usize, fingerprint: Fingerprint, nothing: &Arc<str>) -> Prepared {
        let source = Source {
            name: nothing.clone(),
            text: nothing.clone(),
            offset: 0,
            line: 0,
        };
        Prepared {
            game: ParsedGame {
                index,
                source,
                record: None,
                diagnostics: Vec::new(),
            },
            step: Step::Record,
            derived_result: false,
            fingerprint,
            file: None,
        }
    }
}

/// What a worker works with.
#[derive(Clone, Copy)]
struct Work<'w> {
    /// The writer's renderer, for a text target.
    renderer: Option<&'w Renderer>,
    /// The target, to read games with errors back.
    target: Option<&'w Target>,
    /// Names each game's file, in a split conversion.
    split: Option<&'w OutputTemplate>,
    /// Takes only these games.
    select: Option<&'w GameSelector>,
    /// Leaves out these games (numbers from 1).
    skip: Option<&'w HashSet<usize>>,
    /// Edits every game's tags (every game is then read in full).
    edits: Option<&'w TagEdits>,
    /// Games are only fingerprinted, never written (reading an output back).
    fingerprint_only: bool,
}

impl Work<'_> {
    /// Whether games may be readied without their records.
    fn plain(&self) -> bool {
        (self.renderer.is_some() || self.fingerprint_only) && self.edits.is_none()
    }

    /// Whether game `index` may be taken without reading its tags (no selector, or one by
    /// number that takes it); `None`: the tags decide.
    fn takes_index(&self, index: usize) -> Option<bool> {
        if self.skip.is_some_and(|s| s.contains(&index)) {
            return Some(false);
        }
        blocks::taken_by_number(self.select, index)
    }

    /// Whether `game`, read in full, is taken (an entry about the input itself always is).
    fn takes(&self, game: &ParsedGame) -> bool {
        !self.skip.is_some_and(|s| s.contains(&game.index))
            && blocks::taken_in_full(self.select, game)
    }
}

/// What the writer does with a plain game (its text rendered, or its record written),
/// and its file in a split conversion; `None` when the game needs its record read.
fn plain_step(
    game: &PlainGame<'_>,
    renderer: Option<&Renderer>,
    split: Option<&OutputTemplate>,
) -> Option<(Step, Option<String>)> {
    let step = match renderer {
        None => Step::Record,
        Some(renderer) => Step::Rendered(renderer.render_game(game)?),
    };
    Some((step, split.map(|t| t.file_name(|name| game.tag(name)))))
}

/// What is left for the writer to do with a game.
enum Step {
    /// Write this text (or report why the target refused it).
    Rendered(Result<Rendered, WriteError>),
    /// Write the game's record (its passes made explicit).
    Record,
    /// Nothing: the game could not be read.
    Unreadable,
}

/// Reads a block's games and readies each for the writer: replayed, passes made
/// explicit and result settled when it has no error, and the text rendered when the
/// writer has a renderer.
fn prepare<T>(unit: Unit<T>, work: Work<'_>, scratch: &mut Scratch) -> (Done<T>, Spent) {
    let mut prepared = Vec::new();
    // The games are looked at where they lie and their storage handed back for the next
    // block (`blocks::run`); a game read in full is read from a copy.
    let spent = match unit {
        Unit::Start(tag, opened) => return (Done::Start(tag, opened), Spent::Nothing),
        Unit::Failed(e) => return (Done::Failed(e), Spent::Nothing),
        Unit::Games(games) => {
            // Reading an output back, a game the quick check passes is only fingerprinted.
            let quick = work.fingerprint_only && work.select.is_none();
            let nothing: Arc<str> = Arc::from("");
            for pending in &games {
                let plain = quick
                    .then(|| Some((pending.unread_index()?, scratch.fingerprint(pending)?)))
                    .flatten();
                if let Some((index, fingerprint)) = plain {
                    prepared.push(Prepared::fingerprinted(index, fingerprint, &nothing));
                    continue;
                }
                let rendered = pending
                    .unread_index()
                    .filter(|&index| work.takes_index(index) == Some(true) && work.plain())
                    .and_then(|_| scratch.render_pending(work, pending));
                if let Some(rendered) = rendered {
                    prepared.push(rendered);
                    continue;
                }
                let game = pending.clone().read();
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Games(games)
        }
        Unit::Wthor(context, entries) => {
            for entry in &entries {
                let game = match entry {
                    Entry::Quick(q) if work.takes_index(q.index()) == Some(false) => continue,
                    Entry::Quick(q) => {
                        let quick = work.takes_index(q.index()).is_some();
                        let plain = (quick && work.plain())
                            .then(|| scratch.render_wthor(work, &context, q));
                        if let Some(plain) = plain.flatten() {
                            prepared.push(plain);
                            continue;
                        }
                        context.read_quick(q)
                    }
                    Entry::Game(game) => (**game).clone(),
                };
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Wthor(entries)
        }
        Unit::Text(block) => {
            // Reading an output back, as above.
            let fingerprint_only = work.fingerprint_only && work.select.is_none();
            let nothing: Arc<str> = Arc::from("");
            for (k, at) in block.games.iter().enumerate() {
                let fingerprint = fingerprint_only
                    .then(|| scratch.fingerprint_text(&block, at))
                    .flatten();
                if let Some(fingerprint) = fingerprint {
                    let index = block.first + k;
                    prepared.push(Prepared::fingerprinted(index, fingerprint, &nothing));
                    continue;
                }
                let bytes = &block.bytes[at.range.clone()];
                let quick = match work.takes_index(block.first + k) {
                    Some(false) => continue,
                    Some(true) => true,
                    None => false,
                };
                let plain = (quick && work.plain())
                    .then(|| scratch.render_plain(work, &block, k, at))
                    .flatten();
                if let Some(plain) = plain {
                    prepared.push(plain);
                    continue;
                }
                let game = rgn::read_game(&block.name, block.first + k, block.rules, bytes, at);
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Text(block)
        }
    };
    (Done::Games(prepared), spent)
}

/// A game read, readied for the writer. Everything found in it is added to its
/// diagnostics. A game without an error gets its passes made explicit and its result
/// settled ([`settle_result`]); a game with an error is written as read, when it reads
/// back with the same errors. Its text is rendered when there is a renderer.
fn ready(game: ParsedGame, work: Work<'_>) -> Prepared {
    // Cleaned and capped as every reader's game is, then replayed: the diagnostics are
    // those `validate` gives.
    let mut game = capped(game);
    if let (Some(edits), Some(record)) = (work.edits, game.record.as_mut()) {
        edits.apply(record);
    }
    let Some(record) = game.record.as_mut() else {
        return Prepared {
            game,
            step: Step::Unreadable,
            derived_result: false,
            fingerprint: Fingerprint::of_unreadable(),
            file: None,
        };
    };
    let report = validate_record(record, game.index);
    let has_errors = game
        .diagnostics
        .iter()
        .chain(&report.diagnostics)
        .any(Diagnostic::is_error);
    let mut derived_result = false;
    let mut refusal = None;
    if !has_errors {
        insert_inferred_passes(record, &report);
        derived_result = settle_result(record, report.outcome.as_ref());
    }
    game.diagnostics.extend(report.diagnostics);
    if has_errors {
        if let Some(target) = work.target {
            refusal = hidden_errors(record, &game.diagnostics, target);
        }
    }
    let fingerprint = Fingerprint::of_record(record, &game.diagnostics);
    let file = work.split.map(|t| t.file_name(|name| record.tag(name)));
    let step = match (refusal, work.renderer) {
        (Some(why), _) => Step::Rendered(Err(why)),
        (None, None) => Step::Record,
        (None, Some(renderer)) => {
            let rendered = game.record.as_ref().map(|r| renderer.render(r));
            // Freed here, by the thread that built it, rather than by the writer's.
            game.record = None;
            rendered.map_or(Step::Unreadable, Step::Rendered)
        }
    };
    Prepared {
        game,
        step,
        derived_result,
        fingerprint,
        file,
    }
}

/// Why a game with errors (`found` among its diagnostics) cannot be written to `target`:
/// written alone and read back, it has other errors, or other placements. `None`: it
/// reads back the same, or the target refuses it for another reason anyway.
fn hidden_errors(record: &Record, found: &[Diagnostic], target: &Target) -> Option<WriteError> {
    let codes = |diagnostics: &[Diagnostic]| -> Vec<String> {
        diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.name().to_owned())
            .collect()
    };
    let found = codes(found);
    let (bytes, _) = target
        .format
        .write_bytes(std::slice::from_ref(record), &target.write)
        .ok()?;
    let read = target.format.read_bytes(bytes, &target.read).ok();
    let written = match read.as_deref() {
        Some([again]) => {
            let same_moves = again.record.as_ref().is_some_and(|r| {
                let placed = |r: &Record| {
                    r.moves
                        .iter()
                        .filter(|m| m.mv != Move::Pass)
                        .map(|m| m.mv)
                        .collect::<Vec<_>>()
                };
                placed(r) == placed(record)
            });
            let written = codes(&validate_game(again, &[] as &[&str]));
            if same_moves && written == found {
                return None;
            }
            written
        }
        _ => vec!["a game that does not read back".to_owned()],
    };
    Some(WriteError::HidesErrors { found, written })
}

/// A worker's buffers for the games it renders without their records, reused from game to
/// game.
#[derive(Default)]
struct Scratch {
    quick: QuickMoves,
    /// The tags' names and values, when they are not in a game's text.
    text: String,
    /// A WTHOR game's text-view line, laid out.
    line: String,
    tags: Vec<(Range<usize>, Range<usize>)>,
    moves: Vec<Move>,
    passes: Vec<usize>,
}

impl Scratch {
    /// The fingerprint of a two-player game still to be read that the quick check passes:
    /// its result, once settled, is the final board's discs. `None`: read it.
    fn fingerprint(&mut self, pending: &Pending) -> Option<Fingerprint> {
        let scanned = pending.scan(&mut self.quick, |_, _| {})?;
        self.fingerprint_scanned(scanned)
    }

    /// [`Scratch::fingerprint`] for the RGN/PGN game at `at` in `block`: its comments,
    /// flip claims and colour prefixes, which a fingerprint does not keep, only checked.
    fn fingerprint_text(&mut self, block: &TextBlock, at: &GameSpan) -> Option<Fingerprint> {
        let bytes = block.bytes.get(at.range.clone())?;
        if at.too_long.is_some() {
            return None;
        }
        let scanned = rgn::quick::scan_plain(bytes, block.rules, &mut self.quick, |_, _| {})?;
        self.fingerprint_scanned(scanned)
    }

    /// The fingerprint of the game a quick scan gave (its moves in `self.quick`), when it
    /// is a two-player game the quick check passes.
    fn fingerprint_scanned(&mut self, (rules, claim): (Rules, QuickClaim)) -> Option<Fingerprint> {
        if rules.players() != 2 {
            return None;
        }
        let discs = self.quick.clean_claimed(&rules, claim)?;
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        Some(Fingerprint::of_plain(rules, &self.moves, discs))
    }

    /// The quick WTHOR record `q`, when the quick check passes it, readied without its
    /// record: rendered by [`Renderer::render_game`] (its tags and moves as
    /// [`FileContext::view_quick`] gives them, its passes placed by the quick board). The
    /// game is reported as the reader gives it (its text-view line), with no record;
    /// `None`: read it.
    fn render_wthor(
        &mut self,
        work: Work<'_>,
        context: &FileContext,
        q: &QuickRecord,
    ) -> Option<Prepared> {
        if !q.is_clean() {
            return None;
        }
        let Scratch {
            text, tags, moves, ..
        } = self;
        text.clear();
        tags.clear();
        moves.clear();
        let (rules, discs) = context.view_quick(
            q,
            crate::formats::wthor::Tags::All,
            |name, value| {
                let name_at = text.len()..text.len() + name.len();
                text.push_str(name);
                let value_at = text.len()..text.len() + value.len();
                text.push_str(value);
                tags.push((name_at, value_at));
            },
            |sq| moves.push(Move::Place(sq)),
        );
        if self.place_passes(rules)? != Some(discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text: &self.text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        let line = &mut self.line;
        ready_plain(&game, discs, work, false, || {
            context.read_quick_unbuilt(q, line)
        })
    }

    /// A game still to be read (a move string, a JSON object, a transcript grid) readied
    /// without its record, as [`Scratch::render_plain`] readies an RGN game: when its scan
    /// takes it with nothing its record would keep beyond its tags, moves and result
    /// ([`Pending::scan_kept`]), in standard Othello, over, with the board's result if it
    /// claims one. The game is reported as its reader gives it; `None`: read it.
    fn render_pending(&mut self, work: Work<'_>, pending: &Pending) -> Option<Prepared> {
        let Scratch {
            quick, text, tags, ..
        } = self;
        text.clear();
        tags.clear();
        let (rules, claim) = pending.scan_kept(quick, |name, value| {
            let name_at = text.len()..text.len() + name.len();
            text.push_str(name);
            let value_at = text.len()..text.len() + value.len();
            text.push_str(value);
            tags.push((name_at, value_at));
        })?;
        let claim = match claim {
            QuickClaim::Nothing => None,
            QuickClaim::Discs(black, white) => Some([black, white]),
            QuickClaim::Margin(..) => return None,
        };
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        let discs = self.place_passes(rules)??;
        if claim.is_some_and(|c| c != discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text: &self.text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        ready_plain(&game, discs, work, claim.is_none(), || pending.unread())
    }

    /// Inserts the passes the moves leave out, as the quick board places them, and says
    /// how the game ends: `Some(score)` when it is over; `None` when the quick board
    /// cannot tell.
    fn place_passes(&mut self, rules: Rules) -> Option<Option<[u8; 2]>> {
        self.passes.clear();
        let end = standard_end(&rules, &self.moves, &mut self.passes)?;
        for &before in self.passes.iter().rev() {
            self.moves.insert(before, Move::Pass);
        }
        Some(end)
    }

    /// Game `k` of `block` readied without its record, when the game is plain and has
    /// nothing to report: the quick scan takes it, without a comment (a record would keep
    /// it), in standard Othello, where the quick board says where its left-out passes go;
    /// it is over, and its result, when it claims one, is the board's (when it claims none,
    /// the board's is written, [`settle_result`]). Rendered by [`Renderer::render_game`].
    /// The game is reported as read, with the text the reader would have given it;
    /// `None`: read it.
    fn render_plain(
        &mut self,
        work: Work<'_>,
        block: &TextBlock,
        k: usize,
        at: &GameSpan,
    ) -> Option<Prepared> {
        let bytes = block.bytes.get(at.range.clone())?;
        if at.too_long.is_some() {
            return None;
        }
        let text = rgn::quick::plain_text(bytes)?;
        self.tags.clear();
        let tags = &mut self.tags;
        let (rules, claim) = rgn::quick::scan_with_tags(
            bytes,
            block.rules,
            &mut self.quick,
            Annotations::GiveUp,
            |name, value| tags.push((name, value)),
        )?;
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        let discs = self.place_passes(rules)??;
        let claim = claim.map(|(black, white)| [black, white]);
        if claim.is_some_and(|c| c != discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        // The game as the reader gives it, its record taken out once rendered.
        let read = || {
            let (source_text, problems) = text::decode(bytes.to_vec(), at.offset, at.line);
            problems.is_empty().then(|| ParsedGame {
                index: block.first + k,
                source: Source {
                    name: block.name.clone(),
                    text: Arc::from(source_text),
                    offset: at.offset,
                    line: at.line,
                },
                record: None,
                diagnostics: Vec::new(),
            })
        };
        ready_plain(&game, discs, work, claim.is_none(), read)
    }
}

/// A plain game readied for the writer: rendered (or, without a renderer, to be written
/// from its record), its file named, reported as `read` gives it (`None`: read it in
/// full); `discs` is its final board's.
fn ready_plain(
    game: &PlainGame<'_>,
    discs: [u8; 2],
    work: Work<'_>,
    derived_result: bool,
    read: impl FnOnce() -> Option<ParsedGame>,
) -> Option<Prepared> {
    let (step, file) = plain_step(game, work.renderer, work.split)?;
    Some(Prepared {
        game: read()?,
        step,
        derived_result,
        fingerprint: Fingerprint::of_plain(game.rules, game.moves, discs),
        file,
    })
}

/// Writes a prepared game; an output error is returned, a refusal is an outcome. The text
/// stays in `step`, to be freed by the worker that rendered it.
fn write(outputs: &mut dyn Outputs, prepared: &mut Prepared) -> io::Result<Outcome> {
    let Prepared {
        game,
        step,
        derived_result,
        fingerprint,
        file,
    } = prepared;
    let written = match step {
        Step::Unreadable if game.index == 0 => return Ok(Outcome::FileProblem),
        Step::Unreadable => return Ok(Outcome::Unreadable),
        Step::Rendered(Err(_)) => match std::mem::replace(step, Step::Unreadable) {
            Step::Rendered(Err(why)) => Err(why),
            _ => return Ok(Outcome::Unreadable),
        },
        // Only a game to write opens its file.
        Step::Rendered(Ok(rendered)) => outputs
            .writer(file.as_deref().unwrap_or(""))?
            .write_rendered(rendered),
        Step::Record => match &game.record {
            Some(record) => outputs.writer(file.as_deref().unwrap_or(""))?.write(record),
            None => return Ok(Outcome::Unreadable),
        },
    };
    match written {
        Ok(losses) => Ok(Outcome::Written(Written {
            // What a lossy target dropped of the result is not read back.
            fingerprint: if losses.is_empty() {
                *fingerprint
            } else {
                fingerprint.without_result()
            },
            losses,
            derived_result: *derived_result,
            file: file.take(),
        })),
        Err(WriteError::Io(e)) => Err(e),
        Err(why) => Ok(Outcome::Refused(why)),
    }
}

/// A game's tags as `(name, value)` pairs.
fn tag_pairs(tags: &[Tag]) -> impl Iterator<Item = (&str, &str)> {
    tags.iter().map(|t| (t.name.as_str(), t.value.as_str()))
}
