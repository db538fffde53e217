//! The validation pipeline: whole inputs validated and reported in input order, reading,
//! replaying and reporting overlapped across threads.
//!
//! ```
//! use reversi_record::formats::{Format, ReadOptions};
//! use reversi_record::validate::{Event, Input, Validation};
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
//! building a [`Record`](crate::record::Record). Only a
//! game the quick check does not pass is read and validated in full, so its diagnostics
//! are exactly the full validator's; a game it passes has none, and is only counted
//! ([`Event::Clean`]). Other formats are read in full. With more than one job, one thread
//! reads and splits the inputs into blocks of games, the workers validate the blocks, and
//! the caller's thread reports them in order; at most two blocks more than the workers
//! (or the cores) are in flight, so memory stays flat however long the inputs are.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use super::{validate_game, Summary};
use crate::diagnostic::Diagnostic;
use crate::engine::quick::QuickMoves;
use crate::engine::Rules;
use crate::formats::rgn::{self, GameSpan, Splitter};
use crate::formats::text::RunawayGuard;
use crate::formats::wthor::{self, Entry, FileContext};
use crate::formats::{capped, Format, ParsedGame, ReadOptions};

/// An opened input to validate: its format (as [`Format::detect`] chose it), its bytes and
/// what its reader needs.
pub struct Input {
    /// The format to read it as.
    pub format: Format,
    /// The input, from its first byte.
    pub reader: Box<dyn BufRead + Send>,
    /// The name, path and default rules for its reader.
    pub options: ReadOptions,
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("format", &self.format)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// What [`Validation::run`] reports, in input order.
#[derive(Debug)]
pub enum Event<'e, T> {
    /// An input starts: the caller's tag given with it.
    Start(T),
    /// A game validated in full, with what [`validate_game`] found (possibly nothing).
    Game(&'e ParsedGame, &'e [Diagnostic]),
    /// This many more games passed the quick check: valid, with nothing to report.
    Clean(usize),
    /// Reading the current input failed; the games before the failure were reported.
    ReadFailed(io::Error),
}

/// A run that its sink stopped: the sink's error, and the counts of everything reported
/// before it (a game is counted before it is reported). Converts into the `io::Error`.
#[derive(Debug)]
pub struct Stopped {
    /// What the sink returned.
    pub error: io::Error,
    /// The counts so far.
    pub summary: Summary,
}

impl std::fmt::Display for Stopped {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "validation stopped after {}: {}",
            self.summary, self.error
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

/// Games per block: enough that handing a block over costs little per game, few enough
/// that a block of games that all fail (each read in full, with its diagnostics) stays
/// small.
const BLOCK_GAMES: usize = 256;
/// Bytes per block of RGN/PGN games (a block ends after the game that crosses this).
const TEXT_BLOCK: usize = 128 * 1024;
/// Games per block of games read in full, by the other formats' readers.
const GAMES_BLOCK: usize = 256;
/// Blocks in flight beyond one per worker: enough to keep every worker busy while the
/// reporting catches up, few enough to keep memory flat when every game fails (each is
/// then read in full and holds its diagnostics until it is reported).
const SPARE_BLOCKS: usize = 2;

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
        let mut report = |done: Done<T>| -> io::Result<()> {
            match done {
                Done::Start(tag, opened) => {
                    if opened {
                        summary.add_file();
                    }
                    sink(Event::Start(tag))
                }
                Done::Games { games, clean } => {
                    for (game, diagnostics) in &games {
                        summary.add_game(game, diagnostics);
                        sink(Event::Game(game, diagnostics))?;
                    }
                    if clean > 0 {
                        summary.add_clean(clean);
                        sink(Event::Clean(clean))?;
                    }
                    Ok(())
                }
                Done::Failed(e) => sink(Event::ReadFailed(e)),
            }
        };
        let outcome = if self.jobs <= 1 {
            let mut moves = QuickMoves::default();
            let mut outcome = Ok(());
            produce(inputs, |unit| {
                outcome = report(process(unit, &self.allow, &mut moves));
                outcome.is_ok()
            });
            outcome
        } else {
            self.run_parallel(inputs, &mut report)
        };
        match outcome {
            Ok(()) => Ok(summary),
            Err(error) => Err(Stopped { error, summary }),
        }
    }

    /// One reading thread, `jobs` workers, and the reporting on the calling thread.
    fn run_parallel<T, I>(
        &self,
        inputs: I,
        report: &mut dyn FnMut(Done<T>) -> io::Result<()>,
    ) -> io::Result<()>
    where
        T: Send,
        I: Iterator<Item = (T, Option<Input>)> + Send,
    {
        // More blocks than cores can work on at once only hold memory.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let in_flight = self.jobs.min(cores) + SPARE_BLOCKS;
        let (unit_tx, unit_rx) = sync_channel::<(usize, Unit<T>)>(self.jobs);
        // Shared by the workers only: when the last one stops (the reporting failed), the
        // receiver goes, and the reading thread's next send fails instead of blocking.
        let unit_rx = Arc::new(Mutex::new(unit_rx));
        let (done_tx, done_rx) = channel::<(usize, Done<T>)>();
        // A block may be read only with a token; reporting a block gives its token back.
        let (token_tx, token_rx) = sync_channel::<()>(in_flight);
        for _ in 0..in_flight {
            let _ = token_tx.send(());
        }
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut seq = 0;
                produce(inputs, |unit| {
                    let sent = token_rx.recv().is_ok() && unit_tx.send((seq, unit)).is_ok();
                    seq += 1;
                    sent
                });
            });
            for _ in 0..self.jobs {
                let done_tx = done_tx.clone();
                let unit_rx = unit_rx.clone();
                let allow = &self.allow;
                scope.spawn(move || {
                    let mut moves = QuickMoves::default();
                    loop {
                        let next = match unit_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => return,
                        };
                        let Ok((seq, unit)) = next else { return };
                        if done_tx
                            .send((seq, process(unit, allow, &mut moves)))
                            .is_err()
                        {
                            return;
                        }
                    }
                });
            }
            drop(unit_rx);
            drop(done_tx);
            report_in_order(done_rx, token_tx, report)
        })
    }
}

/// Reports finished blocks in their order, giving a token back for each; dropping the
/// tokens on an error stops the reading thread.
fn report_in_order<T>(
    done_rx: Receiver<(usize, Done<T>)>,
    token_tx: std::sync::mpsc::SyncSender<()>,
    report: &mut dyn FnMut(Done<T>) -> io::Result<()>,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for (seq, done) in done_rx {
        waiting.insert(seq, done);
        while let Some(done) = waiting.remove(&next) {
            report(done)?;
            next += 1;
            let _ = token_tx.send(());
        }
    }
    Ok(())
}

/// A block of work, as the reading side hands it out.
enum Unit<T> {
    /// An input starts; whether it could be opened.
    Start(T, bool),
    /// Games read in full.
    Games(Vec<ParsedGame>),
    /// WTHOR entries, most of them records for the quick check.
    Wthor(Arc<FileContext>, Vec<Entry>),
    /// RGN/PGN games: their bytes back to back, and where each is.
    Text(TextBlock),
    /// Reading failed.
    Failed(io::Error),
}

/// RGN/PGN games split from a file, not yet parsed.
struct TextBlock {
    name: Arc<str>,
    /// The rules of games without a `Rules` tag.
    rules: Rules,
    /// The index of the first game.
    first: usize,
    bytes: Vec<u8>,
    games: Vec<GameSpan>,
}

/// A block validated: the games reported in full, and how many more were clean.
enum Done<T> {
    Start(T, bool),
    Games {
        games: Vec<(ParsedGame, Vec<Diagnostic>)>,
        clean: usize,
    },
    Failed(io::Error),
}

/// Reads every input into blocks, handing each to `emit` until it says stop.
fn produce<T>(
    inputs: impl Iterator<Item = (T, Option<Input>)>,
    mut emit: impl FnMut(Unit<T>) -> bool,
) {
    for (tag, input) in inputs {
        if !emit(Unit::Start(tag, input.is_some())) {
            return;
        }
        let Some(input) = input else { continue };
        let go_on = match input.format {
            Format::Wthor => wthor_blocks(input, &mut emit),
            Format::Rgn | Format::Pgn(_) => text_blocks(input, &mut emit),
            format => {
                let games = format.read(input.reader, &input.options);
                game_blocks(games, &mut emit)
            }
        };
        if !go_on {
            return;
        }
    }
}

fn wthor_blocks<T>(input: Input, emit: &mut impl FnMut(Unit<T>) -> bool) -> bool {
    let mut reader = wthor::Reader::quick(input.reader, &input.options);
    loop {
        let mut entries = Vec::with_capacity(BLOCK_GAMES);
        let mut failed = None;
        while entries.len() < BLOCK_GAMES {
            match reader.next_entry() {
                Some(Ok(entry)) => entries.push(entry),
                Some(Err(e)) => {
                    failed = Some(e);
                    break;
                }
                None => break,
            }
        }
        let full = entries.len() == BLOCK_GAMES;
        if !entries.is_empty() && !emit(Unit::Wthor(reader.context().clone(), entries)) {
            return false;
        }
        if let Some(e) = failed {
            return emit(Unit::Failed(e));
        }
        if !full {
            return true;
        }
    }
}

fn text_blocks<T>(input: Input, emit: &mut impl FnMut(Unit<T>) -> bool) -> bool {
    let consumed = Arc::new(AtomicU64::new(0));
    let guarded = RunawayGuard::new(input.reader, consumed.clone());
    let mut splitter = Splitter::new(guarded);
    let name = match &*input.options.name {
        "" => Arc::from("-"),
        _ => input.options.name.clone(),
    };
    let rules = input.options.rules.unwrap_or_default();
    let mut first = 1;
    loop {
        let mut block = TextBlock {
            name: name.clone(),
            rules,
            first,
            bytes: Vec::with_capacity(TEXT_BLOCK + TEXT_BLOCK / 4),
            games: Vec::new(),
        };
        let mut failed = None;
        let mut ended = false;
        while block.bytes.len() < TEXT_BLOCK && block.games.len() < BLOCK_GAMES {
            match splitter.next_game(&mut block.bytes) {
                Ok(Some(game)) => {
                    consumed.store(0, std::sync::atomic::Ordering::Relaxed);
                    block.games.push(game);
                }
                Ok(None) => {
                    ended = true;
                    break;
                }
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
        }
        first += block.games.len();
        if !block.games.is_empty() && !emit(Unit::Text(block)) {
            return false;
        }
        if let Some(e) = failed {
            return emit(Unit::Failed(e));
        }
        if ended {
            return true;
        }
    }
}

fn game_blocks<T>(
    mut games: crate::formats::Games<'_>,
    emit: &mut impl FnMut(Unit<T>) -> bool,
) -> bool {
    loop {
        let mut block = Vec::with_capacity(GAMES_BLOCK);
        let mut failed = None;
        for game in games.by_ref() {
            match game {
                Ok(game) => block.push(game),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
            if block.len() == GAMES_BLOCK {
                break;
            }
        }
        let full = block.len() == GAMES_BLOCK;
        if !block.is_empty() && !emit(Unit::Games(block)) {
            return false;
        }
        if let Some(e) = failed {
            return emit(Unit::Failed(e));
        }
        if !full {
            return true;
        }
    }
}

/// Validates a block: the quick check first where it applies, the full validator for the
/// rest.
fn process<T>(unit: Unit<T>, allow: &[String], moves: &mut QuickMoves) -> Done<T> {
    let mut games = Vec::new();
    let mut clean = 0;
    let mut full = |game: ParsedGame| {
        let game = capped(game);
        let diagnostics = validate_game(&game, allow);
        games.push((game, diagnostics));
    };
    match unit {
        Unit::Start(tag, opened) => return Done::Start(tag, opened),
        Unit::Failed(e) => return Done::Failed(e),
        Unit::Games(block) => block.into_iter().for_each(full),
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
    Done::Games { games, clean }
}

/// Whether an RGN/PGN game's bytes pass the quick check: UTF-8 without NUL bytes (or the
/// reader would warn), plain enough to scan, and clean; `rules` are for a game without a
/// `Rules` tag.
fn quick_text(bytes: &[u8], rules: Rules, moves: &mut QuickMoves) -> bool {
    if bytes.contains(&0) || std::str::from_utf8(bytes).is_err() {
        return false;
    }
    match rgn::quick::scan(bytes, rules, moves) {
        Some((rules, claim)) => moves.is_clean(&rules, claim),
        None => false,
    }
}
