//! Inputs read into blocks of games and worked on by several threads, the results taken
//! in input order: the machinery under [`Validation`](crate::pipeline::Validation) and
//! [`Conversion`](crate::pipeline::Conversion).
//!
//! Each worker in turn reads the next block of the inputs (WTHOR records, RGN/PGN game
//! texts, the games of the other formats split off but not yet read, or games their
//! readers read in full), one worker reading at a time, and works on the block it read;
//! the calling thread takes the results in order. At most a couple of blocks more than the
//! workers (or the cores) are in flight, so memory stays flat however long the inputs are.
//!
//! A block is bounded by its bytes as well as by its games: it closes at its game count or
//! before the game that would take it past [`BLOCK_BYTES`] of game text (RGN/PGN blocks:
//! after the game that crosses [`TEXT_BLOCK`]), whichever comes first; a game over the
//! budget is a block of its own. With games of up to [`MAX_GAME_BYTES`] and at most
//! `min(jobs, cores) + SPARE_BLOCKS` blocks handed out plus the one being read, what the
//! blocks hold stays a few megabytes whatever the games are like (1 MiB games are 16 to a
//! megabyte-sized block no more), and each worker adds the one game it works on, which
//! the readers keep to a small multiple of its bytes ([`MAX_MOVES`], [`MAX_TAGS`]).
//!
//! [`MAX_GAME_BYTES`]: crate::formats::text::MAX_GAME_BYTES
//! [`MAX_MOVES`]: crate::formats::text::MAX_MOVES
//! [`MAX_TAGS`]: crate::formats::text::MAX_TAGS

use std::collections::BTreeMap;
use std::io::{self, BufRead};
use std::sync::atomic::AtomicU64;
use std::sync::mpsc::{channel, sync_channel};
use std::sync::{Arc, Mutex};

use crate::engine::quick::{QuickClaim, QuickMoves};
use crate::engine::Rules;
use crate::formats::rgn::{GameSpan, Splitter};
use crate::formats::text::RunawayGuard;
use crate::formats::wthor::{self, Entry, FileContext};
use crate::formats::{
    capped, ggf, json, movestr, sgf, transcript, Format, ParsedGame, ReadOptions,
};
use crate::record::GameSelector;

mod reading;

pub(crate) use reading::*;

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
    /// use reversi_formats::Format;
    /// use reversi_runs::pipeline::Input;
    /// let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/cli/mixed.rgn");
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
/// Bytes of game text per block of the other formats: a block closes before the game that
/// would take it past this, so a block holds at most this or one game. Real games take
/// a few hundred bytes, so only games near the 1 MiB limit meet it: sixteen such games
/// once made a block of 16 MiB, and a few blocks in flight hundreds of megabytes.
pub(crate) const BLOCK_BYTES: usize = 1 << 20;
/// Blocks in flight beyond one per worker: enough to keep every worker busy while the
/// reporting catches up, few enough to keep memory flat when every game fails (each is
/// then read in full and holds its diagnostics until it is reported).
const SPARE_BLOCKS: usize = 2;

/// Reads `inputs` into blocks and hands each to `work`, then its result to `report`, in
/// input order, until `report` fails. With one job everything runs on the calling thread;
/// otherwise the calling thread and `jobs - 1` more each take the next block (reading it
/// under a lock: one reads at a time) and work on it, and the calling thread reports the
/// results in order between its own blocks. Nothing is read far ahead: a block is read
/// only with a token, which reporting it gives back.
///
/// A thread works on the block it read itself, while its bytes are still in its core's
/// cache, and frees what it allocated: glibc's allocator takes a lock for every block of
/// memory another thread frees (a result goes back to the worker that made it to be
/// dropped there). No thread only reads or only reports: the first design here, a reading
/// thread feeding the workers and a reporting thread woken for every block, ran three or
/// four threads on two cores, at the cost of their caches and a switch for each block.
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
    W: Fn(Unit<T>, &mut S) -> (D, Spent) + Sync,
{
    let mut blocks = Numbered {
        blocks: Blocks {
            inputs,
            block,
            reading: None,
            queued: None,
        },
        next: 0,
    };
    if jobs <= 1 {
        let (mut scratch, mut recycler) = (S::default(), Recycler::default());
        while let Some((_, unit)) = blocks.next_unit(&mut recycler) {
            let (mut done, spent) = work(unit, &mut scratch);
            recycler.keep(spent);
            report(&mut done)?;
        }
        return Ok(());
    }
    // More blocks than cores can work on at once only hold memory.
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let in_flight = jobs.min(cores) + SPARE_BLOCKS;
    let jobs = jobs.min(in_flight);
    let (done_tx, done_rx) = channel::<Done<D>>();
    // A block may be read only with a token; reporting a block gives its token back. When
    // the reporting fails the tokens' sender goes, and a worker waiting for one stops.
    let (token_tx, token_rx) = sync_channel::<()>(in_flight);
    for _ in 0..in_flight {
        let _ = token_tx.send(());
    }
    let (blocks, tokens) = (Mutex::new(blocks), Mutex::new(token_rx));
    std::thread::scope(|scope| {
        let mut returns = Vec::with_capacity(jobs - 1);
        for worker in 0..jobs - 1 {
            let done_tx = done_tx.clone();
            let (return_tx, return_rx) = channel::<D>();
            returns.push(return_tx);
            let (work, blocks, tokens) = (&work, &blocks, &tokens);
            scope.spawn(move || {
                let (mut scratch, mut recycler) = (S::default(), Recycler::default());
                loop {
                    // Drop what was reported since the last block.
                    while return_rx.try_recv().is_ok() {}
                    // A token first, waited for outside the reading's lock.
                    let token = tokens.lock().ok().and_then(|rx| rx.recv().ok());
                    let next = token
                        .and_then(|()| blocks.lock().ok())
                        .and_then(|mut blocks| blocks.next_unit(&mut recycler));
                    let Some((seq, unit)) = next else { break };
                    let (result, spent) = work(unit, &mut scratch);
                    recycler.keep(spent);
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
                // The rest, until the reporting is over (which waits for every worker's
                // results to end: this one's end here).
                drop(done_tx);
                for returned in return_rx {
                    drop(returned);
                }
            });
        }
        drop(done_tx);
        let mut reporting = Reporting {
            waiting: BTreeMap::new(),
            next: 0,
            token_tx,
            returns,
            report,
        };
        let (mut scratch, mut recycler) = (S::default(), Recycler::default());
        let mut over = false;
        let outcome = loop {
            while let Ok(done) = done_rx.try_recv() {
                reporting.waiting.insert(done.seq, Finished::Worker(done));
            }
            if let Err(e) = reporting.report_ready() {
                break Err(e);
            }
            // A block of its own, when a token is free (without waiting for one: only
            // this thread gives them back).
            let token = (!over)
                .then(|| tokens.try_lock().ok()?.try_recv().ok())
                .flatten();
            if token.is_some() {
                match blocks
                    .lock()
                    .ok()
                    .and_then(|mut b| b.next_unit(&mut recycler))
                {
                    Some((seq, unit)) => {
                        let (result, spent) = work(unit, &mut scratch);
                        recycler.keep(spent);
                        reporting.waiting.insert(seq, Finished::Own(result));
                    }
                    None => over = true,
                }
                continue;
            }
            // Nothing to do but wait for a worker's block.
            match done_rx.recv() {
                Ok(done) => {
                    reporting.waiting.insert(done.seq, Finished::Worker(done));
                }
                // Every worker stopped: the inputs are over, unless this thread reads on.
                Err(_) if over => break reporting.report_ready(),
                Err(_) => {}
            }
        };
        // Stops the workers (they wait for tokens) and lets them go once the results they
        // made are back.
        drop(reporting);
        outcome
    })
}

/// The storage `kept`, or new storage when none is.
fn reuse<V>(kept: &mut Option<V>, new: impl FnOnce() -> V) -> V {
    kept.take().unwrap_or_else(new)
}

/// The blocks, each with its number in input order.
struct Numbered<T, I> {
    blocks: Blocks<T, I>,
    next: usize,
}

impl<T, I: Iterator<Item = (T, Option<Input>)>> Numbered<T, I> {
    fn next_unit(&mut self, recycler: &mut Recycler) -> Option<(usize, Unit<T>)> {
        let unit = self.blocks.next_unit(recycler)?;
        self.next += 1;
        Some((self.next - 1, unit))
    }
}

/// A block worked on, waiting for its turn to be reported.
enum Finished<D> {
    /// By the reporting thread itself.
    Own(D),
    /// By another worker, which gets it back to drop.
    Worker(Done<D>),
}

/// The reporting side of [`run`]: results in input order, tokens given back.
struct Reporting<'r, D> {
    waiting: BTreeMap<usize, Finished<D>>,
    next: usize,
    token_tx: std::sync::mpsc::SyncSender<()>,
    returns: Vec<std::sync::mpsc::Sender<D>>,
    report: &'r mut dyn FnMut(&mut D) -> io::Result<()>,
}

impl<D> Reporting<'_, D> {
    /// Reports the blocks that are next in order, giving a token back for each.
    fn report_ready(&mut self) -> io::Result<()> {
        while let Some(finished) = self.waiting.remove(&self.next) {
            match finished {
                Finished::Own(mut result) => (self.report)(&mut result)?,
                Finished::Worker(mut done) => {
                    (self.report)(&mut done.result)?;
                    if let Err(unsent) = self.returns[done.worker].send(done.result) {
                        // The worker is gone: dropped here after all.
                        drop(unsent);
                    }
                }
            }
            self.next += 1;
            let _ = self.token_tx.send(());
        }
        Ok(())
    }
}

/// What `work` is done with of a block: its storage, kept by the worker to read its next
/// block into ([`Recycler`]).
pub(crate) enum Spent {
    /// Nothing to hand back.
    Nothing,
    /// The games of a block, read or not.
    Games(Vec<Pending>),
    /// WTHOR entries.
    Wthor(Vec<Entry>),
    /// RGN/PGN games.
    Text(TextBlock),
}

/// A worker's store of blocks it is done with: the storage of the next blocks it reads,
/// kept emptied.
#[derive(Default)]
struct Recycler {
    games: Option<Vec<Pending>>,
    entries: Option<Vec<Entry>>,
    text: Option<(Vec<u8>, Vec<GameSpan>)>,
}

impl Recycler {
    /// Empties `spent` and keeps its storage for the next block of its kind.
    fn keep(&mut self, spent: Spent) {
        match spent {
            Spent::Nothing => {}
            Spent::Games(mut games) => {
                games.clear();
                self.games = Some(games);
            }
            Spent::Wthor(mut entries) => {
                entries.clear();
                self.entries = Some(entries);
            }
            Spent::Text(TextBlock {
                mut bytes,
                mut games,
                ..
            }) => {
                bytes.clear();
                games.clear();
                self.text = Some((bytes, games));
            }
        }
    }

    /// An empty list for a block of games.
    fn games(&mut self, capacity: usize) -> Vec<Pending> {
        reuse(&mut self.games, || Vec::with_capacity(capacity))
    }

    /// An empty list for a block of WTHOR entries.
    fn entries(&mut self, capacity: usize) -> Vec<Entry> {
        reuse(&mut self.entries, || Vec::with_capacity(capacity))
    }

    /// Empty storage for a block of RGN/PGN games: its bytes and spans.
    fn text(&mut self) -> (Vec<u8>, Vec<GameSpan>) {
        reuse(&mut self.text, || {
            (Vec::with_capacity(TEXT_BLOCK + TEXT_BLOCK / 4), Vec::new())
        })
    }
}

/// A run of a pipeline stopped by its output or its sink: the error, and the counts of
/// what was reported before it (a validation's summary, a conversion's tally). Converts
/// into the `io::Error`.
#[derive(Debug)]
pub struct Stopped<C> {
    /// What the output or the sink returned.
    pub error: io::Error,
    /// The counts so far.
    pub counts: C,
}

impl<C: std::fmt::Display> std::fmt::Display for Stopped<C> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "stopped after {}: {}", self.counts, self.error)
    }
}

impl<C: std::fmt::Debug + std::fmt::Display> std::error::Error for Stopped<C> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.error)
    }
}

impl<C> From<Stopped<C>> for io::Error {
    fn from(stopped: Stopped<C>) -> io::Error {
        stopped.error
    }
}

/// A block's result, from the worker that made it.
struct Done<D> {
    seq: usize,
    worker: usize,
    result: D,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diagnostic::Source;

    /// A game read in full whose text is `len` bytes.
    fn game(len: usize) -> io::Result<(Pending, usize)> {
        let game = ParsedGame {
            index: 1,
            source: Source::whole("x", "x".repeat(len)),
            record: None,
            diagnostics: Vec::new(),
        };
        Ok((Pending::Read(Box::new(game)), len))
    }

    /// The games of each block made of games of these sizes.
    fn blocks_of(sizes: &[usize], per_block: usize) -> Vec<Vec<usize>> {
        let mut blocks = Vec::new();
        let mut games = sizes.iter().map(|&n| game(n));
        let mut carried = None;
        loop {
            let (block, failed, ended) =
                next_game_block(&mut games, per_block, Vec::new(), &mut carried);
            assert!(failed.is_none());
            if !block.is_empty() {
                blocks.push(
                    block
                        .into_iter()
                        .map(|p| p.read().source.text.len())
                        .collect(),
                );
            }
            if ended {
                return blocks;
            }
        }
    }

    #[test]
    fn blocks_close_at_their_game_count_or_their_byte_budget() {
        const K: usize = 1024;
        // Small games: the count closes the blocks.
        assert_eq!(
            blocks_of(&[100; 5], 2),
            [vec![100, 100], vec![100, 100], vec![100]]
        );
        // Games near the 1 MiB limit: two of 400 KiB fit, a third would not.
        assert_eq!(
            blocks_of(&[400 * K; 5], 256),
            [vec![400 * K; 2], vec![400 * K; 2], vec![400 * K]]
        );
        // A game over the budget is a block of its own, and the games around it go on.
        assert_eq!(
            blocks_of(&[10, 2 * BLOCK_BYTES, 10, 10], 256),
            [vec![10], vec![2 * BLOCK_BYTES], vec![10, 10]]
        );
        assert!(blocks_of(&[], 256).is_empty());
    }
}
