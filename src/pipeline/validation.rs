//! The validation pipeline: whole inputs validated and reported in input order, reading,
//! replaying and reporting overlapped across threads.
//!
//! ```
//! use reversi_record::formats::{Format, ReadOptions};
//! use reversi_record::pipeline::validation::{Event, Input, Validation};
//! let input = Input {
//!     format: Format::MoveString,
//!     reader: Box::new(&b"f5d6c3\nf5d6a1\n"[..]),
//!     options: ReadOptions::default(),
//! };
//! let mut codes = Vec::new();
//! let summary = Validation::new()
//!     .jobs(2)
//!     .run([("games.txt", Some(input))].into_iter(), |event| {
//!         if let Event::Game(_, diagnostics) = event {
//!             codes.extend(diagnostics.iter().map(|d| d.code.name()));
//!         }
//!         Ok(())
//!     })
//!     .unwrap();
//! assert_eq!((summary.games, summary.invalid), (2, 1));
//! assert_eq!(codes, ["unfinished", "illegal-move"]);
//! ```
//!
//! How it is fast: WTHOR records and RGN/PGN games are first given to the quick check
//! (`engine::quick`): their moves replayed straight from the record's bytes on specialized
//! bitboards (`u64` for standard Othello, `u128` for other two-player rules), without
//! building a [`Record`](crate::record::Record). Only a game the quick check does not pass
//! is read and validated in full, so its diagnostics are exactly the full validator's; a
//! game it passes has none, and is only counted ([`Event::Clean`]), as is a game validated
//! in full that has nothing to report. Other formats are read in full (move strings by the
//! workers: the reading thread only splits the lines off). With more than one job, one
//! thread reads and splits the inputs into blocks of games, the workers validate the
//! blocks, and the caller's thread reports them in order; at most two blocks more than the
//! workers (or the cores) are in flight, so memory stays flat however long the inputs are.

use std::io;

use crate::diagnostic::Diagnostic;
use crate::engine::quick::QuickMoves;
use crate::engine::Rules;
use crate::formats::rgn;
use crate::formats::wthor::Entry;
use crate::formats::{capped, ParsedGame};
pub use crate::pipeline::blocks::Input;
use crate::pipeline::blocks::{self, Pending, Unit};
use crate::validate::{validate_game, Summary};

/// What [`Validation::run`] reports, in input order.
#[derive(Debug)]
pub enum Event<'e, T> {
    /// An input starts: the caller's tag given with it.
    Start(T),
    /// A game with something to report: what [`validate_game`] found in it (a game that
    /// could not be read has at least the reader's error).
    Game(&'e ParsedGame, &'e [Diagnostic]),
    /// This many more games were found valid with nothing to report, by the quick check
    /// or in full.
    Clean(usize),
    /// Reading the current input failed; the games before the failure were reported.
    ReadFailed(io::Error),
}

/// A run that its sink stopped: the sink's error, and the [`Summary`] of everything
/// reported before it (a game is counted before it is reported).
pub type Stopped = crate::pipeline::blocks::Stopped<Summary>;

/// A validation run's settings; [`Validation::run`] validates.
#[derive(Clone, Debug)]
pub struct Validation {
    jobs: usize,
    allow: Vec<String>,
}

impl Default for Validation {
    fn default() -> Validation {
        Validation::new()
    }
}

impl Validation {
    /// One job per core, nothing allowed.
    pub fn new() -> Validation {
        Validation {
            jobs: std::thread::available_parallelism().map_or(1, |n| n.get()),
            allow: Vec::new(),
        }
    }

    /// Validates with `jobs` worker threads; 1 does everything on the calling thread.
    pub fn jobs(mut self, jobs: usize) -> Validation {
        self.jobs = jobs.max(1);
        self
    }

    /// Neither reports nor counts diagnostics with these codes (compared ignoring ASCII
    /// case), as [`validate_game`] says.
    pub fn allow(mut self, codes: impl IntoIterator<Item = impl Into<String>>) -> Validation {
        self.allow = codes.into_iter().map(Into::into).collect();
        self
    }

    /// Validates every input, each given with the caller's tag (handed back in
    /// [`Event::Start`]) and `None` for an input that could not be opened, calling `sink`
    /// with what was found, in input order, and returns the counts. An error from `sink`
    /// stops the run: it comes back with the counts so far ([`Stopped`]).
    pub fn run<T, I, F>(&self, inputs: I, mut sink: F) -> Result<Summary, Stopped>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
        F: FnMut(Event<'_, T>) -> io::Result<()>,
    {
        let mut summary = Summary::default();
        let mut report = |done: &mut Done<T>| -> io::Result<()> {
            if let Done::Games { games, clean } = done {
                for (game, diagnostics) in games.iter() {
                    summary.add_game(game, diagnostics);
                    sink(Event::Game(game, diagnostics))?;
                }
                if *clean > 0 {
                    summary.add_clean(*clean);
                    sink(Event::Clean(*clean))?;
                }
                return Ok(());
            }
            match std::mem::replace(done, Done::Reported) {
                Done::Start(tag, opened) => {
                    if opened {
                        summary.add_file();
                    }
                    sink(Event::Start(tag))
                }
                Done::Failed(e) => sink(Event::ReadFailed(e)),
                Done::Games { .. } | Done::Reported => Ok(()),
            }
        };
        let allow = &self.allow;
        let outcome = blocks::run(
            self.jobs,
            blocks::VALIDATION_BLOCK,
            inputs,
            |unit, moves: &mut QuickMoves| process(unit, allow, moves),
            &mut report,
        );
        match outcome {
            Ok(()) => Ok(summary),
            Err(error) => Err(Stopped {
                error,
                counts: summary,
            }),
        }
    }
}

/// A block validated: the games reported in full, and how many more were clean.
enum Done<T> {
    Start(T, bool),
    Games {
        games: Vec<(ParsedGame, Vec<Diagnostic>)>,
        clean: usize,
    },
    Failed(io::Error),
    /// Reported: what the caller needed was taken out.
    Reported,
}

/// Validates a block: the quick check first where it applies, the full validator for the
/// rest.
fn process<T>(unit: Unit<T>, allow: &[String], moves: &mut QuickMoves) -> Done<T> {
    let mut games = Vec::new();
    let mut clean = 0;
    let mut found_clean = 0;
    // A game with nothing to report is counted and freed at once: holding a block of
    // records to report nothing would only grow the heap (and, freed all together, make
    // the allocator give the memory back and take it again, block after block).
    let mut full = |game: ParsedGame| {
        let game = capped(game);
        let diagnostics = validate_game(&game, allow);
        if diagnostics.is_empty() && game.record.is_some() && game.index != 0 {
            found_clean += 1;
        } else {
            games.push((game, diagnostics));
        }
    };
    match unit {
        Unit::Start(tag, opened) => return Done::Start(tag, opened),
        Unit::Failed(e) => return Done::Failed(e),
        Unit::Games(block) => block.into_iter().map(Pending::read).for_each(full),
        Unit::Wthor(ctx, entries) => {
            for entry in entries {
                match entry {
                    Entry::Quick(q) if q.is_clean() => clean += 1,
                    Entry::Quick(q) => full(ctx.read_quick(&q)),
                    Entry::Game(game) => full(*game),
                }
            }
        }
        Unit::Text(block) => {
            for (k, at) in block.games.iter().enumerate() {
                let bytes = &block.bytes[at.range.clone()];
                if at.too_long.is_none() && quick_text(bytes, block.rules, moves) {
                    clean += 1;
                } else {
                    full(rgn::read_game(
                        &block.name,
                        block.first + k,
                        block.rules,
                        bytes,
                        at,
                    ));
                }
            }
        }
    }
    Done::Games {
        games,
        clean: clean + found_clean,
    }
}

/// Whether an RGN/PGN game's bytes pass the quick check: UTF-8 without NUL bytes (or the
/// reader would warn), plain enough to scan, and clean; `rules` are for a game without a
/// `Rules` tag.
fn quick_text(bytes: &[u8], rules: Rules, moves: &mut QuickMoves) -> bool {
    if rgn::quick::plain_text(bytes).is_none() {
        return false;
    }
    match rgn::quick::scan(bytes, rules, moves) {
        Some((rules, claim)) => moves.is_clean(&rules, claim),
        None => false,
    }
}
