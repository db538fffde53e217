//! The validation pipeline: whole inputs validated and reported in input order, reading,
//! replaying and reporting overlapped across threads.
//!
//! ```
//! use reversi_formats::{Format, ReadOptions};
//! use reversi_runs::pipeline::validation::{Event, Input, Validation};
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
//! How it is fast: WTHOR records, RGN/PGN games, move strings, GGF games, SGF trees and
//! JSON game objects are first scanned by their format's quick scan and given to the quick
//! check (`engine::quick`): their moves replayed straight from the game's bytes on
//! specialized bitboards (`u64` for standard Othello, `u128` for other two-player rules),
//! without building a [`Record`](crate::record::Record). Only a game the scan gives up on
//! or the quick check does not pass is read and validated in full, so its diagnostics are
//! exactly the full validator's; a game it passes has none, and is only counted
//! ([`Event::Clean`]), as is a game validated in full that has nothing to report. The
//! reading only splits the inputs into games (a WTHOR file into records, a transcript into
//! grids), which the quick scans and the readers then read; only OBF is read in full as
//! it is split. With more than one job, each worker in turn reads the next block of games
//! (one at a time) and validates the block it read, and the caller's thread reports the
//! blocks in order; at most two blocks more than the workers (or the cores) are in flight,
//! so memory stays flat however long the inputs are.

use std::io;

use crate::diagnostic::Diagnostic;
use crate::engine::quick::{QuickClaim, QuickMoves, PASS};
use crate::engine::Rules;
use crate::event::{Claimed, Facts, FactsBlock, Field, Symmetries};
use crate::formats::rgn;
use crate::formats::wthor::{Entry, FileContext, QuickRecord, QUICK_CODES};
use crate::formats::{capped, ParsedGame};
pub use crate::pipeline::blocks::Input;
use crate::pipeline::blocks::{self, Pending, Spent, Unit};
use crate::record::GameSelector;
use crate::validate::{validate_game_to_end, Summary};

/// What [`Validation::run`] reports, in input order.
#[derive(Debug)]
pub enum Event<'e, T> {
    /// An input starts: the caller's tag given with it.
    Start(T),
    /// A game with something to report: what [`validate_game`](crate::validate::validate_game) found in it (a game that
    /// could not be read has at least the reader's error).
    Game(&'e ParsedGame, &'e [Diagnostic]),
    /// This many more games were found valid with nothing to report, by the quick check
    /// or in full.
    Clean(usize),
    /// The facts of the games just reported (every game, clean ones included), when the
    /// run gathers them ([`Validation::gather`]): for [`Event::absorb`](crate::event::Event::absorb).
    Facts(&'e FactsBlock),
    /// Reading the current input failed; the games before the failure were reported.
    ReadFailed(io::Error),
    /// The current input is done: its own counts (one file), after everything reported
    /// of it. Only inputs that could be opened end.
    Ended(&'e Summary),
}

/// What [`Validation::collect`] gathered.
#[derive(Debug)]
pub struct Gathered {
    /// The counts of the validation.
    pub summary: Summary,
    /// Every game's facts.
    pub event: crate::event::Event,
    /// The inputs whose reading failed part way, and why (their games before are in).
    pub failed: Vec<(std::sync::Arc<str>, io::Error)>,
}

/// A run that its sink stopped: the sink's error, and the [`Summary`] of everything
/// reported before it (a game is counted before it is reported).
pub type Stopped = crate::pipeline::blocks::Stopped<Summary>;

/// A validation run's settings; [`Validation::run`] validates.
#[derive(Clone, Debug)]
pub struct Validation {
    jobs: usize,
    allow: Vec<String>,
    gather: bool,
    select: Option<GameSelector>,
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
            gather: false,
            select: None,
        }
    }

    /// Validates with `jobs` worker threads; 1 does everything on the calling thread.
    pub fn jobs(mut self, jobs: usize) -> Validation {
        self.jobs = jobs.max(1);
        self
    }

    /// Neither reports nor counts diagnostics with these codes (compared ignoring ASCII
    /// case), as [`validate_game`](crate::validate::validate_game) says.
    pub fn allow(mut self, codes: impl IntoIterator<Item = impl Into<String>>) -> Validation {
        self.allow = codes.into_iter().map(Into::into).collect();
        self
    }

    /// Also gathers every game's facts (who played it, where, its moves as a key, its
    /// results), reported as [`Event::Facts`] after the games they describe: what the
    /// checks across games and the standings work on ([`crate::event`]).
    ///
    /// ```
    /// use reversi_check::event::Event as Games;
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::validation::{Event, Input, Validation};
    /// let input = Input {
    ///     format: Format::MoveString,
    ///     reader: Box::new(&b"f5d6c3\nf5d6c3\n"[..]),
    ///     options: ReadOptions::default(),
    /// };
    /// let mut games = Games::default();
    /// Validation::new()
    ///     .gather(true)
    ///     .run([("games.txt", Some(input))].into_iter(), |event| {
    ///         match event {
    ///             Event::Start(name) => games.start_input(name),
    ///             Event::Facts(block) => games.absorb(block),
    ///             _ => {}
    ///         }
    ///         Ok(())
    ///     })
    ///     .unwrap();
    /// assert_eq!(games.games().len(), 2);
    /// assert_eq!(games.check(None)[0].code.name(), "duplicate-game");
    /// ```
    pub fn gather(mut self, gather: bool) -> Validation {
        self.gather = gather;
        self
    }

    /// Validates only the games `selector` takes ([`ParsedGame::is_selected`]); the others
    /// are neither reported, counted nor gathered. A selector by tags reads every game in
    /// full (the quick checks do not keep the tags).
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::validation::{Input, Validation};
    /// use reversi_formats::record::GameSelector;
    /// let text = "[Round \"1\"]\n\nf5 d6 *\n\n[Round \"2\"]\n\nf5 a1 *\n";
    /// let input = Input {
    ///     format: Format::Rgn,
    ///     reader: Box::new(text.as_bytes()),
    ///     options: ReadOptions::default(),
    /// };
    /// let round_2 = GameSelector::parse("Round=2").unwrap();
    /// let summary = Validation::new().select(Some(round_2)).run([("a.rgn", Some(input))].into_iter(), |_| Ok(())).unwrap();
    /// assert_eq!((summary.games, summary.invalid), (1, 1));
    /// ```
    pub fn select(mut self, selector: Option<GameSelector>) -> Validation {
        self.select = selector;
        self
    }

    /// Validates every input and gathers every game's facts into one
    /// [`Event`](crate::event::Event) (each input named by its tag), for the checks across
    /// games and the standings; diagnostics are only counted.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::validation::{Input, Validation};
    /// let input = Input {
    ///     format: Format::MoveString,
    ///     reader: Box::new(&b"f5d6c3\nf5f6\n"[..]),
    ///     options: ReadOptions::default(),
    /// };
    /// let gathered = Validation::new().collect([("a.txt", Some(input))].into_iter()).unwrap();
    /// assert_eq!((gathered.summary.games, gathered.event.games().len()), (2, 2));
    /// assert_eq!(gathered.event.input_name(0), "a.txt");
    /// ```
    pub fn collect<T, I>(&self, inputs: I) -> Result<Gathered, Stopped>
    where
        T: Send + Into<std::sync::Arc<str>>,
        I: Iterator<Item = (T, Option<Input>)> + Send,
    {
        let mut event = crate::event::Event::default();
        let mut failed = Vec::new();
        let mut name: std::sync::Arc<str> = "-".into();
        let summary = self.clone().gather(true).run(inputs, |found| {
            match found {
                Event::Start(input) => {
                    name = input.into();
                    event.start_input(name.clone());
                }
                Event::Facts(block) => event.absorb(block),
                Event::ReadFailed(e) => failed.push((name.clone(), e)),
                Event::Game(..) | Event::Clean(_) | Event::Ended(_) => {}
            }
            Ok(())
        })?;
        Ok(Gathered {
            summary,
            event,
            failed,
        })
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
        // The counts of the input being reported, once it opened.
        let mut this_input: Option<Summary> = None;
        let mut report = |done: &mut Done<T>| -> io::Result<()> {
            if let Done::Games {
                games,
                clean,
                facts,
            } = done
            {
                for (game, diagnostics) in games.iter() {
                    summary.add_game(game, diagnostics);
                    if let Some(counts) = &mut this_input {
                        counts.add_game(game, diagnostics);
                    }
                    sink(Event::Game(game, diagnostics))?;
                }
                if *clean > 0 {
                    summary.add_clean(*clean);
                    if let Some(counts) = &mut this_input {
                        counts.add_clean(*clean);
                    }
                    sink(Event::Clean(*clean))?;
                }
                if let Some(facts) = facts {
                    sink(Event::Facts(facts))?;
                }
                return Ok(());
            }
            match std::mem::replace(done, Done::Reported) {
                Done::Start(tag, opened) => {
                    if let Some(ended) = this_input.take() {
                        sink(Event::Ended(&ended))?;
                    }
                    if opened {
                        summary.add_file();
                        let mut counts = Summary::default();
                        counts.add_file();
                        this_input = Some(counts);
                    }
                    sink(Event::Start(tag))
                }
                Done::Failed(e) => sink(Event::ReadFailed(e)),
                Done::Games { .. } | Done::Reported => Ok(()),
            }
        };
        let settings = Settings {
            allow: &self.allow,
            gather: self.gather,
            select: self.select.as_ref(),
        };
        let mut outcome = blocks::run(
            self.jobs,
            blocks::VALIDATION_BLOCK,
            inputs,
            |unit, scratch: &mut Scratch| process(unit, settings, scratch),
            &mut report,
        );
        if let (Ok(()), Some(ended)) = (&outcome, this_input.take()) {
            outcome = sink(Event::Ended(&ended));
        }
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
        facts: Option<Box<FactsBlock>>,
    },
    Failed(io::Error),
    /// Reported: what the caller needed was taken out.
    Reported,
}

/// What a worker keeps from block to block.
#[derive(Default)]
struct Scratch {
    moves: QuickMoves,
    symmetries: Symmetries,
}

/// What every block is validated with.
#[derive(Clone, Copy)]
struct Settings<'a> {
    allow: &'a [String],
    gather: bool,
    select: Option<&'a GameSelector>,
}

impl Settings<'_> {
    /// Whether game `index` may be taken without reading its tags: no selector, or one
    /// that takes it by number. `None`: the tags decide.
    fn takes_index(&self, index: usize) -> Option<bool> {
        blocks::taken_by_number(self.select, index)
    }

    /// For game `index`: `None` when the selector leaves it out, else whether the quick
    /// check may take it without its tags being read.
    fn quick_takes(&self, index: usize) -> Option<bool> {
        match self.takes_index(index) {
            Some(false) => None,
            Some(true) => Some(true),
            None => Some(false),
        }
    }

    /// Whether `game`, read in full, is validated.
    fn takes(&self, game: &ParsedGame) -> bool {
        blocks::taken_in_full(self.select, game)
    }
}

/// Validates a block: the quick check first where it applies, the full validator for the
/// rest; with `gather`, every game's facts too; only the games the selector takes.
fn process<T>(unit: Unit<T>, settings: Settings<'_>, scratch: &mut Scratch) -> (Done<T>, Spent) {
    let Settings { allow, gather, .. } = settings;
    let mut games = Vec::new();
    let mut clean = 0;
    let mut found_clean = 0;
    let mut facts = gather.then(FactsBlock::default);
    let Scratch { moves, symmetries } = scratch;
    // A game with nothing to report is counted and freed at once: holding a block of
    // records to report nothing would only grow the heap (and, freed all together, make
    // the allocator give the memory back and take it again, block after block).
    let mut full =
        |game: ParsedGame, facts: &mut Option<FactsBlock>, symmetries: &mut Symmetries| {
            if !settings.takes(&game) {
                return;
            }
            let game = capped(game);
            let (diagnostics, outcome) = validate_game_to_end(&game, allow);
            if let Some(facts) = facts {
                let valid = game.record.is_some() && !diagnostics.iter().any(|d| d.is_error());
                if game.index != 0 {
                    facts.push_parsed(&game, outcome.as_ref(), valid, symmetries);
                }
            }
            if diagnostics.is_empty() && game.record.is_some() && game.index != 0 {
                found_clean += 1;
            } else {
                games.push((game, diagnostics));
            }
        };
    // The games are looked at where they lie and their storage handed back for the next
    // block (`blocks::run`); a game read in full is read from a copy.
    let spent = match unit {
        Unit::Start(tag, opened) => return (Done::Start(tag, opened), Spent::Nothing),
        Unit::Failed(e) => return (Done::Failed(e), Spent::Nothing),
        Unit::Games(block) => {
            for pending in &block {
                // A game read already goes to the full validator as it is.
                if let Some(index) = pending.unread_index() {
                    let Some(quick) = settings.quick_takes(index) else {
                        continue;
                    };
                    let gather = Gather::of(index, &mut facts, symmetries);
                    if quick && quick_pending(pending, moves, gather) {
                        clean += 1;
                        continue;
                    }
                }
                full(pending.clone().read(), &mut facts, symmetries);
            }
            Spent::Games(block)
        }
        Unit::Wthor(ctx, entries) => {
            for entry in &entries {
                match entry {
                    Entry::Quick(q) if settings.takes_index(q.index()) == Some(false) => {}
                    Entry::Quick(q)
                        if q.is_clean() && settings.takes_index(q.index()).is_some() =>
                    {
                        clean += 1;
                        if let Some(facts) = &mut facts {
                            gather_quick_wthor(&ctx, q, facts, symmetries);
                        }
                    }
                    Entry::Quick(q) => full(ctx.read_quick(q), &mut facts, symmetries),
                    Entry::Game(game) => full((**game).clone(), &mut facts, symmetries),
                }
            }
            Spent::Wthor(entries)
        }
        Unit::Text(block) => {
            for (k, at) in block.games.iter().enumerate() {
                let bytes = &block.bytes[at.range.clone()];
                let index = block.first + k;
                let Some(quick) = settings.quick_takes(index) else {
                    continue;
                };
                let gather = Gather::of(index, &mut facts, symmetries);
                let passed =
                    quick && at.too_long.is_none() && quick_text(bytes, block.rules, moves, gather);
                if passed {
                    clean += 1;
                } else {
                    let game = rgn::read_game(&block.name, index, block.rules, bytes, at);
                    full(game, &mut facts, symmetries);
                }
            }
            Spent::Text(block)
        }
    };
    let done = Done::Games {
        games,
        clean: clean + found_clean,
        facts: facts.map(Box::new),
    };
    (done, spent)
}

/// The facts of a quick WTHOR record the quick check passed: its names as indexes into
/// the file's name tables, looked up once for all the games that name them.
fn gather_quick_wthor(
    ctx: &FileContext,
    q: &QuickRecord,
    facts: &mut FactsBlock,
    symmetries: &mut Symmetries,
) {
    let id = ctx.quick_identity(q);
    if let Some(year) = id.year {
        facts.field_tag(Field::Date, year);
    }
    let fields = [Field::Event, Field::Black, Field::White];
    for (field, name) in fields.into_iter().zip(id.names) {
        if let Some((table, index)) = name {
            facts.table_name(field, table, index);
        }
    }
    facts.count_tags(ctx.tags_beyond_identity());
    let key = symmetries.key_of_bytes(&id.rules, q.move_bytes(), &QUICK_CODES);
    facts.finish(Facts::clean(
        q.index(),
        id.rules,
        key,
        Claimed::Discs(id.discs),
        id.discs,
    ));
}

/// Where a game's facts go when the run gathers them.
struct Gather<'a> {
    index: usize,
    symmetries: &'a mut Symmetries,
    facts: &'a mut FactsBlock,
}

impl<'a> Gather<'a> {
    /// Where game `index`'s facts go, when the run gathers them (`facts`).
    fn of(
        index: usize,
        facts: &'a mut Option<FactsBlock>,
        symmetries: &'a mut Symmetries,
    ) -> Option<Gather<'a>> {
        let facts = facts.as_mut()?;
        Some(Gather {
            index,
            symmetries,
            facts,
        })
    }
}

/// Whether an RGN/PGN game's bytes pass the quick check: UTF-8 without NUL bytes (or the
/// reader would warn), plain enough to scan, and clean; `rules` are for a game without a
/// `Rules` tag. A game that passes has its facts gathered into `gather`.
fn quick_text(
    bytes: &[u8],
    rules: Rules,
    moves: &mut QuickMoves,
    mut gather: Option<Gather<'_>>,
) -> bool {
    let scanned = rgn::quick::scan_plain(bytes, rules, moves, |name, value| {
        if let Some(g) = &mut gather {
            g.facts.tag(name, value);
        }
    });
    quick_pass(scanned, moves, gather)
}

/// Whether a game still to be read (a move string, a GGF game) passes the quick check;
/// one that passes has its facts gathered into `gather`.
fn quick_pending(
    pending: &Pending,
    moves: &mut QuickMoves,
    mut gather: Option<Gather<'_>>,
) -> bool {
    let scanned = pending.scan(moves, |name, value| {
        if let Some(g) = &mut gather {
            g.facts.tag(name, value);
        }
    });
    quick_pass(scanned, moves, gather)
}

/// Whether a game a quick scan took (its rules and claim, its moves in `moves`; `None`
/// when it gave up) is clean; a clean one has its facts, whose tags the scan gave,
/// finished in `gather`, and any other has them forgotten.
fn quick_pass(
    scanned: Option<(Rules, QuickClaim)>,
    moves: &mut QuickMoves,
    gather: Option<Gather<'_>>,
) -> bool {
    let clean = scanned.and_then(|(rules, claim)| {
        let score = moves.clean_claimed(&rules, claim)?;
        Some((rules, claim, score))
    });
    let Some(g) = gather else {
        return clean.is_some();
    };
    let Some((rules, claim, score)) = clean else {
        g.facts.forget();
        return false;
    };
    // Square codes are the key's (`row << 4 | col`); passes are no placement.
    let squares = moves.as_slice().iter().copied().filter(|&c| c != PASS);
    let key = g.symmetries.key(&rules, None, squares);
    let claimed = match claim {
        QuickClaim::Nothing => Claimed::Nothing,
        QuickClaim::Discs(black, white) => Claimed::Discs([black, white]),
        QuickClaim::Margin(_, claimed) => Claimed::Margin(claimed as f32),
    };
    g.facts
        .finish(Facts::clean(g.index, rules, key, claimed, score));
    true
}
