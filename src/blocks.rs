//! Inputs read into blocks of games and worked on by several threads, the results taken
//! in input order: the machinery under [`Validation`](crate::validate::Validation) and
//! [`Conversion`](crate::convert::Conversion).
//!
//! One thread reads the inputs and splits them into blocks (WTHOR records, RGN/PGN game
//! texts, move-string lines and GGF games not yet parsed, or games other readers read in
//! full), the workers read and work on each block, and the calling thread takes the
//! results in order. At most a couple of
//! blocks more than the workers (or the cores) are in flight, so memory stays flat however
//! long the inputs are.

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{channel, sync_channel, Receiver};
use std::sync::{Arc, Mutex};

use crate::engine::Rules;
use crate::formats::rgn::{GameSpan, Splitter};
use crate::formats::text::RunawayGuard;
use crate::formats::wthor::{self, Entry, FileContext};
use crate::formats::{capped, ggf, movestr, Format, ParsedGame, ReadOptions};

/// An opened input to validate or convert: its format (as [`Format::detect`] chose it), its bytes and
/// what its reader needs.
pub struct Input {
    /// The format to read it as.
    pub format: Format,
    /// The input, from its first byte.
    pub reader: Box<dyn BufRead + Send>,
    /// The name, path and default rules for its reader.
    pub options: ReadOptions,
}

impl Input {
    /// Opens the file at `path`, its format detected ([`Format::detect`]: content first,
    /// then the extension) and its path given to the reader (WTHOR finds its name files
    /// beside it).
    ///
    /// ```
    /// use reversi_record::formats::Format;
    /// use reversi_record::validate::Input;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/cli/mixed.rgn");
    /// let input = Input::open(path).unwrap();
    /// assert_eq!(input.format, Format::Rgn);
    /// assert!(Input::open("no/such/file.rgn").is_err());
    /// ```
    pub fn open(path: impl AsRef<std::path::Path>) -> io::Result<Input> {
        let path = path.as_ref();
        let name = path.to_string_lossy();
        let file = std::fs::File::open(path)?;
        let len = file.metadata().ok().map(|m| m.len());
        let detected =
            Format::detect(Box::new(file), &name, len, None).map_err(io::Error::other)?;
        Ok(Input {
            format: detected.format,
            reader: detected.input,
            options: ReadOptions {
                name: Arc::from(&*name),
                path: Some(path.to_path_buf()),
                ..ReadOptions::default()
            },
        })
    }
}

impl std::fmt::Debug for Input {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Input")
            .field("format", &self.format)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// Games per block when validating: enough that handing a block over costs little per
/// game (checking a game takes about a microsecond), few enough that a block of games that
/// all fail (each read in full, with its diagnostics) stays small.
pub(crate) const VALIDATION_BLOCK: usize = 256;
/// Games per block when converting: a game takes several microseconds to read and render,
/// so handing over a smaller block costs little, and keeps its texts in cache until they
/// are written.
pub(crate) const CONVERSION_BLOCK: usize = 64;
/// Bytes per block of RGN/PGN games (a block ends after the game that crosses this).
const TEXT_BLOCK: usize = 128 * 1024;
/// Blocks in flight beyond one per worker: enough to keep every worker busy while the
/// reporting catches up, few enough to keep memory flat when every game fails (each is
/// then read in full and holds its diagnostics until it is reported).
const SPARE_BLOCKS: usize = 2;

/// Reads `inputs` into blocks and hands each to `work`, then its result to `report`, in
/// input order, until `report` fails. With one job everything runs on the calling thread;
/// otherwise one thread reads, `jobs` workers work (each with its own `S`, reused from
/// block to block) and the calling thread reports. A result goes back to the worker that
/// made it to be dropped there: memory is freed by the thread that allocated it, which the
/// system allocator does without taking another thread's lock.
pub(crate) fn run<T, I, S, D, W>(
    jobs: usize,
    block: usize,
    inputs: I,
    work: W,
    report: &mut dyn FnMut(&mut D) -> io::Result<()>,
) -> io::Result<()>
where
    T: Send,
    I: Iterator<Item = (T, Option<Input>)> + Send,
    S: Default,
    D: Send,
    W: Fn(Unit<T>, &mut S) -> D + Sync,
{
    if jobs <= 1 {
        let mut scratch = S::default();
        let mut outcome = Ok(());
        produce(inputs, block, |unit| {
            outcome = report(&mut work(unit, &mut scratch));
            outcome.is_ok()
        });
        return outcome;
    }
    {
        // More blocks than cores can work on at once only hold memory.
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let in_flight = jobs.min(cores) + SPARE_BLOCKS;
        let (unit_tx, unit_rx) = sync_channel::<(usize, Unit<T>)>(jobs);
        // Shared by the workers only: when the last one stops (the reporting failed), the
        // receiver goes, and the reading thread's next send fails instead of blocking.
        let unit_rx = Arc::new(Mutex::new(unit_rx));
        let (done_tx, done_rx) = channel::<Done<D>>();
        // A block may be read only with a token; reporting a block gives its token back.
        let (token_tx, token_rx) = sync_channel::<()>(in_flight);
        for _ in 0..in_flight {
            let _ = token_tx.send(());
        }
        std::thread::scope(|scope| {
            scope.spawn(move || {
                let mut seq = 0;
                produce(inputs, block, |unit| {
                    let sent = token_rx.recv().is_ok() && unit_tx.send((seq, unit)).is_ok();
                    seq += 1;
                    sent
                });
            });
            let mut returns = Vec::with_capacity(jobs);
            for worker in 0..jobs {
                let done_tx = done_tx.clone();
                let unit_rx = unit_rx.clone();
                let (return_tx, return_rx) = channel::<D>();
                returns.push(return_tx);
                let work = &work;
                scope.spawn(move || {
                    let mut scratch = S::default();
                    loop {
                        // Drop what was reported since the last block.
                        while return_rx.try_recv().is_ok() {}
                        let next = match unit_rx.lock() {
                            Ok(rx) => rx.recv(),
                            Err(_) => break,
                        };
                        let Ok((seq, unit)) = next else { break };
                        let result = work(unit, &mut scratch);
                        if done_tx
                            .send(Done {
                                seq,
                                worker,
                                result,
                            })
                            .is_err()
                        {
                            break;
                        }
                    }
                    // The rest, until the reporting is over (which waits for every
                    // worker's results to end: this one's end here).
                    drop(done_tx);
                    for returned in return_rx {
                        drop(returned);
                    }
                });
            }
            drop(unit_rx);
            drop(done_tx);
            report_in_order(done_rx, token_tx, &returns, report)
        })
    }
}

/// A block's result, from the worker that made it.
struct Done<D> {
    seq: usize,
    worker: usize,
    result: D,
}

/// Reports finished blocks in their order, giving a token back for each and the result to
/// its worker; dropping the tokens on an error stops the reading thread.
fn report_in_order<D>(
    done_rx: Receiver<Done<D>>,
    token_tx: std::sync::mpsc::SyncSender<()>,
    returns: &[std::sync::mpsc::Sender<D>],
    report: &mut dyn FnMut(&mut D) -> io::Result<()>,
) -> io::Result<()> {
    let mut waiting = BTreeMap::new();
    let mut next = 0;
    for done in done_rx {
        waiting.insert(done.seq, done);
        while let Some(mut done) = waiting.remove(&next) {
            report(&mut done.result)?;
            next += 1;
            let _ = token_tx.send(());
            if let Err(unsent) = returns[done.worker].send(done.result) {
                // The worker is gone: dropped here after all.
                drop(unsent);
            }
        }
    }
    Ok(())
}

/// A block of work, as the reading side hands it out.
pub(crate) enum Unit<T> {
    /// An input starts; whether it could be opened.
    Start(T, bool),
    /// Games of the other formats, read in full or to be read by the worker.
    Games(Vec<Pending>),
    /// WTHOR entries, most of them records for the quick check.
    Wthor(Arc<FileContext>, Vec<Entry>),
    /// RGN/PGN games: their bytes back to back, and where each is.
    Text(TextBlock),
    /// Reading failed.
    Failed(io::Error),
}

/// A game of a format other than WTHOR and RGN/PGN: read in full by the reading thread,
/// or split off by it to be read by a worker.
pub(crate) enum Pending {
    Read(Box<ParsedGame>),
    MoveString(movestr::PendingLine),
    Ggf(ggf::PendingGame),
}

impl Pending {
    /// The game, read if it was not yet.
    pub(crate) fn read(self) -> ParsedGame {
        match self {
            Pending::Read(game) => *game,
            Pending::MoveString(line) => capped(line.read()),
            Pending::Ggf(game) => capped(game.read()),
        }
    }
}

/// RGN/PGN games split from a file, not yet parsed.
pub(crate) struct TextBlock {
    pub(crate) name: Arc<str>,
    /// The rules of games without a `Rules` tag.
    pub(crate) rules: Rules,
    /// The index of the first game.
    pub(crate) first: usize,
    pub(crate) bytes: Vec<u8>,
    pub(crate) games: Vec<GameSpan>,
}

/// Reads every input into blocks, handing each to `emit` until it says stop.
fn produce<T>(
    inputs: impl Iterator<Item = (T, Option<Input>)>,
    block: usize,
    mut emit: impl FnMut(Unit<T>) -> bool,
) {
    for (tag, input) in inputs {
        if !emit(Unit::Start(tag, input.is_some())) {
            return;
        }
        let Some(input) = input else { continue };
        let go_on = match input.format {
            Format::Wthor => wthor_blocks(input, block, &mut emit),
            Format::Rgn | Format::Pgn(_) => text_blocks(input, block, &mut emit),
            Format::MoveString => {
                // Lines are split off here and read by the workers.
                let consumed = Arc::new(AtomicU64::new(0));
                let guarded = RunawayGuard::new(input.reader, consumed.clone());
                let mut lines = movestr::splitter(guarded, &input.options);
                let entries = std::iter::from_fn(|| {
                    let entry = lines.next_entry()?;
                    consumed.store(0, std::sync::atomic::Ordering::Relaxed);
                    Some(entry.map(|entry| match entry {
                        movestr::Entry::Game(game) => Pending::Read(game),
                        movestr::Entry::Line(line) => Pending::MoveString(line),
                    }))
                });
                game_blocks(entries, block, &mut emit)
            }
            Format::Ggf => {
                // Games are split off and decoded here, parsed by the workers.
                let consumed = Arc::new(AtomicU64::new(0));
                let guarded = Box::new(RunawayGuard::new(input.reader, consumed.clone()));
                let mut games = ggf::reader(guarded, &input.options);
                let pending = std::iter::from_fn(|| {
                    let game = games.next_pending()?;
                    consumed.store(0, std::sync::atomic::Ordering::Relaxed);
                    Some(game.map(Pending::Ggf))
                });
                game_blocks(pending, block, &mut emit)
            }
            format => {
                let games = format.read(input.reader, &input.options);
                game_blocks(
                    games.map(|game| game.map(|g| Pending::Read(Box::new(g)))),
                    block,
                    &mut emit,
                )
            }
        };
        if !go_on {
            return;
        }
    }
}

fn wthor_blocks<T>(input: Input, block: usize, emit: &mut impl FnMut(Unit<T>) -> bool) -> bool {
    let mut reader = wthor::Reader::quick(input.reader, &input.options);
    loop {
        let mut entries = Vec::with_capacity(block);
        let mut failed = None;
        while entries.len() < block {
            match reader.next_entry() {
                Some(Ok(entry)) => entries.push(entry),
                Some(Err(e)) => {
                    failed = Some(e);
                    break;
                }
                None => break,
            }
        }
        let full = entries.len() == block;
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

fn text_blocks<T>(input: Input, games: usize, emit: &mut impl FnMut(Unit<T>) -> bool) -> bool {
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
        while block.bytes.len() < TEXT_BLOCK && block.games.len() < games {
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
    mut games: impl Iterator<Item = io::Result<Pending>>,
    size: usize,
    emit: &mut impl FnMut(Unit<T>) -> bool,
) -> bool {
    loop {
        let mut block = Vec::with_capacity(size);
        let mut failed = None;
        for game in games.by_ref() {
            match game {
                Ok(game) => block.push(game),
                Err(e) => {
                    failed = Some(e);
                    break;
                }
            }
            if block.len() == size {
                break;
            }
        }
        let full = block.len() == size;
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
