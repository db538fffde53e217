//! The conversion pipeline: whole inputs read, their passes made explicit and their
//! records rendered for the target on several threads, then written in input order by one
//! writer.
//!
//! ```
//! use reversi_record::convert::{Conversion, Event, Outcome};
//! use reversi_record::formats::{Format, ReadOptions, WriteOptions};
//! use reversi_record::validate::Input;
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
//! How it is fast: the reading thread only splits the inputs into blocks of games (WTHOR
//! records, RGN/PGN game texts); the workers read each game into a record, insert the
//! passes it leaves implicit ([`with_explicit_passes`]) and, for a text target, render it
//! with the writer's [`Renderer`](crate::formats::Renderer); the calling thread writes
//! the texts (or, for WTHOR, the records) in input order and reports each game. Memory
//! stays flat: a few blocks are in flight at a time.

use std::io;

pub use crate::blocks::Input;
use std::ops::Range;
use std::sync::Arc;

use crate::blocks::{self, TextBlock, Unit};
use crate::diagnostic::Source;
use crate::engine::quick::{implicit_passes, move_of, QuickMoves};
use crate::engine::{Move, Rules};
use crate::formats::rgn::quick::Comments;
use crate::formats::rgn::GameSpan;
use crate::formats::wthor::{Entry, FileContext, QuickRecord};
use crate::formats::{
    capped, rgn, text, ParsedGame, PlainGame, RecordWriter, Rendered, Renderer, WriteError,
};
use crate::validate::make_passes_explicit;

/// A conversion run's settings; [`Conversion::run`] converts.
#[derive(Clone, Debug)]
pub struct Conversion {
    jobs: usize,
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
    /// A game read (with the reader's diagnostics), and what became of it. For a text
    /// target its `record` is `None` once rendered (freed by the worker that rendered it);
    /// for WTHOR it is the record written, passes made explicit.
    Game(&'e ParsedGame, &'e Outcome),
    /// Reading the current input failed; the games before the failure were reported.
    ReadFailed(io::Error),
}

/// What became of one game.
#[derive(Debug)]
pub enum Outcome {
    /// Written; what the target dropped of it (when writing lossily).
    Written(Vec<String>),
    /// Refused by the target, which says why ([`WriteError::refusal`]).
    Refused(WriteError),
    /// Not converted: it could not be read (its diagnostics say why).
    Unreadable,
    /// Not a game: an entry (index 0) that reports a problem of the input itself, such as
    /// a JSON envelope; its diagnostics say what.
    FileProblem,
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
    /// Games whose reader reported an error (written or not).
    pub with_errors: usize,
    /// Problems of an input itself, not of a game ([`Outcome::FileProblem`]).
    pub file_problems: usize,
}

/// A run stopped by the writer's output or by the sink: the error, and the counts of the
/// games reported before it. Converts into the `io::Error`.
#[derive(Debug)]
pub struct Stopped {
    /// What the output or the sink returned.
    pub error: io::Error,
    /// The counts so far.
    pub tally: Tally,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "conversion stopped after {} games: {}",
            self.tally.games, self.error
        )
    }
}

impl std::error::Error for Stopped {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl From<Stopped> for io::Error {
    fn from(stopped: Stopped) -> io::Error {
        stopped.error
    }
}

impl Conversion {
    /// One job per core.
    pub fn new() -> Conversion {
        Conversion {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
        }
    }

    /// Converts with `jobs` worker threads; 1 does everything on the calling thread.
    pub fn jobs(mut self, jobs: usize) -> Conversion {
        self.jobs = jobs.max(1);
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
        mut sink: F,
    ) -> Result<Tally, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        let renderer = writer.renderer();
        let mut tally = Tally::default();
        let mut report = |done: &mut Done<T>| -> io::Result<()> {
            if let Done::Games(games) = done {
                for Prepared { game, step } in games.iter_mut() {
                    let outcome = write(writer, game, step)?;
                    tally.count(game, &outcome);
                    sink(Event::Game(game, &outcome))?;
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
        let renderer = renderer.as_ref();
        match blocks::run(
            self.jobs,
            blocks::CONVERSION_BLOCK,
            inputs,
            |unit, scratch: &mut Scratch| prepare(unit, renderer, scratch),
            &mut report,
        ) {
            Ok(()) => Ok(tally),
            Err(error) => Err(Stopped { error, tally }),
        }
    }
}

impl Tally {
    fn count(&mut self, game: &ParsedGame, outcome: &Outcome) {
        if let Outcome::FileProblem = outcome {
            self.file_problems += 1;
            return;
        }
        self.games += 1;
        if game.diagnostics.iter().any(|d| d.is_error()) {
            self.with_errors += 1;
        }
        match outcome {
            Outcome::Written(_) => self.written += 1,
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

/// Reads a block's games and readies each for the writer: passes made explicit, and the
/// text rendered when the writer has a `renderer`.
fn prepare<T>(unit: Unit<T>, renderer: Option<&Renderer>, scratch: &mut Scratch) -> Done<T> {
    let mut prepared = Vec::new();
    match unit {
        Unit::Start(tag, opened) => return Done::Start(tag, opened),
        Unit::Failed(e) => return Done::Failed(e),
        Unit::Games(games) => {
            prepared.extend(games.into_iter().map(|g| ready(g.read(), renderer)));
        }
        Unit::Wthor(context, entries) => {
            for entry in entries {
                let game = match entry {
                    Entry::Quick(q) => {
                        let plain = renderer.and_then(|r| scratch.render_wthor(r, &context, &q));
                        if let Some(plain) = plain {
                            prepared.push(plain);
                            continue;
                        }
                        context.read_quick(&q)
                    }
                    Entry::Game(game) => *game,
                };
                prepared.push(ready(game, renderer));
            }
        }
        Unit::Text(block) => {
            for (k, at) in block.games.iter().enumerate() {
                let bytes = &block.bytes[at.range.clone()];
                let plain = renderer.and_then(|r| scratch.render_plain(r, &block, k, at));
                prepared.push(plain.unwrap_or_else(|| {
                    let game = rgn::read_game(&block.name, block.first + k, block.rules, bytes, at);
                    ready(game, renderer)
                }));
            }
        }
    }
    Done::Games(prepared)
}

/// A game read, readied for the writer: its passes made explicit, and its text rendered
/// when there is a `renderer`.
fn ready(game: ParsedGame, renderer: Option<&Renderer>) -> Prepared {
    let mut game = capped(game);
    let step = match (&mut game.record, renderer) {
        (None, _) => Step::Unreadable,
        (Some(record), None) => {
            make_passes_explicit(record);
            Step::Record
        }
        (Some(record), Some(renderer)) => {
            make_passes_explicit(record);
            let rendered = renderer.render(record);
            // Freed here, by the thread that built it, rather than by the writer's.
            game.record = None;
            Step::Rendered(rendered)
        }
    };
    Prepared { game, step }
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
    /// The quick WTHOR record `q` rendered without its record, when the renderer can: its
    /// tags and moves as [`FileContext::view_quick`] gives them, its passes placed by the
    /// quick board. The game is reported as the reader gives it (its text-view line), with
    /// no record; `None`: read it.
    fn render_wthor(
        &mut self,
        renderer: &Renderer,
        context: &FileContext,
        q: &QuickRecord,
    ) -> Option<Prepared> {
        let Scratch {
            text, tags, moves, ..
        } = self;
        text.clear();
        tags.clear();
        moves.clear();
        let (rules, discs) = context.view_quick(
            q,
            |name, value| {
                let name_at = text.len()..text.len() + name.len();
                text.push_str(name);
                let value_at = text.len()..text.len() + value.len();
                text.push_str(value);
                tags.push((name_at, value_at));
            },
            |sq| moves.push(Move::Place(sq)),
        );
        self.place_passes(rules)?;
        let game = PlainGame {
            rules,
            text: &self.text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        let rendered = renderer.render_plain(&game)?;
        Some(Prepared {
            game: context.read_quick_unbuilt(q, &mut self.line)?,
            step: Step::Rendered(Ok(rendered)),
        })
    }

    /// Inserts the passes the moves leave out, as the quick board places them; `None` when
    /// it cannot tell.
    fn place_passes(&mut self, rules: Rules) -> Option<()> {
        self.passes.clear();
        implicit_passes(&rules, self.moves.iter().copied(), &mut self.passes)?;
        for &before in self.passes.iter().rev() {
            self.moves.insert(before, Move::Pass);
        }
        Some(())
    }

    /// Game `k` of `block` rendered without its record, when the renderer can and the game
    /// is plain: the quick scan takes it, without a comment (a record would keep it), in
    /// standard Othello, where the quick board says where its left-out passes go. The game
    /// is reported as read, with the text the reader would have given it; `None`: read it.
    fn render_plain(
        &mut self,
        renderer: &Renderer,
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
            Comments::GiveUp,
            |name, value| tags.push((name, value)),
        )?;
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        self.place_passes(rules)?;
        let game = PlainGame {
            rules,
            text,
            tags: &self.tags,
            moves: &self.moves,
            discs: claim.map(|(black, white)| [black, white]),
        };
        // The game as the reader gives it, its record taken out once rendered.
        let (source_text, problems) = text::decode(bytes.to_vec(), at.offset, at.line);
        if !problems.is_empty() {
            return None;
        }
        let rendered = renderer.render_plain(&game)?;
        let game = ParsedGame {
            index: block.first + k,
            source: Source {
                name: block.name.clone(),
                text: Arc::from(source_text),
                offset: at.offset,
                line: at.line,
            },
            record: None,
            diagnostics: Vec::new(),
        };
        Some(Prepared {
            game,
            step: Step::Rendered(Ok(rendered)),
        })
    }
}

/// Writes a prepared game; an output error is returned, a refusal is an outcome. The text
/// stays in `step`, to be freed by the worker that rendered it.
fn write(writer: &mut dyn RecordWriter, game: &ParsedGame, step: &mut Step) -> io::Result<Outcome> {
    let written = match step {
        Step::Unreadable if game.index == 0 => return Ok(Outcome::FileProblem),
        Step::Unreadable => return Ok(Outcome::Unreadable),
        Step::Rendered(Ok(rendered)) => writer.write_rendered(rendered),
        Step::Rendered(Err(_)) => match std::mem::replace(step, Step::Unreadable) {
            Step::Rendered(Err(why)) => Err(why),
            _ => return Ok(Outcome::Unreadable),
        },
        Step::Record => match &game.record {
            Some(record) => writer.write(record),
            None => return Ok(Outcome::Unreadable),
        },
    };
    match written {
        Ok(losses) => Ok(Outcome::Written(losses)),
        Err(WriteError::Io(e)) => Err(e),
        Err(why) => Ok(Outcome::Refused(why)),
    }
}
