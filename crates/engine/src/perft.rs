//! Perft: counting the leaves of the game tree, the standard test of a move generator.

use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};

use super::bits::{BitIter, Bits};
use super::board_state::{flipping_moves, flips, BitPosition};

/// What a game that ends above perft's horizon counts: the two conventions in use, equal
/// to depth 9 of Othello and apart from depth 10 (24,571,056 vs 24,571,284).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Finished {
    /// A finished game is no leaf: it counts 0 (OEIS A124004, Edax).
    Ignored,
    /// A finished game is a leaf: it counts 1 (Aart Bik).
    Counted,
}

impl Finished {
    /// What a finished game adds to the count.
    const fn leaves(self) -> u64 {
        match self {
            Finished::Ignored => 0,
            Finished::Counted => 1,
        }
    }
}

/// Leaves of the game tree `depth` plies below `pos`. A pass is a ply; `finished` says what
/// a game that ends above the horizon counts.
///
/// Bulk-counts the last ply: the leaves below a position one ply from the horizon are its
/// legal moves. Two-player positions past any free opening and without a disc supply take
/// a fast path over the mover's and the opponent's discs alone.
pub fn perft<B: Bits>(pos: &BitPosition<B>, depth: u32, finished: Finished) -> u64 {
    if depth == 0 {
        return 1;
    }
    if pos.players() == 2 && pos.in_hand(pos.turn()).is_none() && !pos.in_free_opening() {
        let own = pos.discs(pos.turn());
        let opp = pos.occupied() & !own;
        return perft_two(own, opp, pos.playable(), depth, finished);
    }
    let moves = pos.legal_moves();
    if moves.is_zero() {
        if pos.must_pass() {
            let mut child = *pos;
            child.pass_unchecked();
            return perft(&child, depth - 1, finished);
        }
        return finished.leaves();
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    let mut leaves = 0;
    for index in BitIter(moves) {
        let mut child = *pos;
        child.play_unchecked(index, pos.flips_at(index));
        leaves += perft(&child, depth - 1, finished);
    }
    leaves
}

/// Two-player perft over the mover's discs `own` and the opponent's `opp` (`depth` >= 1).
fn perft_two<B: Bits>(own: B, opp: B, playable: B, depth: u32, finished: Finished) -> u64 {
    let empty = playable & !(own | opp);
    let moves = flipping_moves(own, opp, empty);
    if moves.is_zero() {
        if flipping_moves(opp, own, empty).is_zero() {
            return finished.leaves();
        }
        if depth == 1 {
            return 1;
        }
        return perft_two(opp, own, playable, depth - 1, finished);
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    let mut leaves = 0;
    for index in BitIter(moves) {
        let m = B::bit(index);
        let flipped = flips(own, opp, m);
        leaves += perft_two(
            opp & !flipped,
            own | flipped | m,
            playable,
            depth - 1,
            finished,
        );
    }
    leaves
}

/// Perft on `jobs` threads (0: one per core; at most 256), counting exactly what [`perft`]
/// counts.
///
/// The tree is split near the root: the positions after the first ply (and the second and
/// later ones while there are fewer than 16 subtrees per thread) are subtrees, which the
/// threads take one at a time from a shared index, so a thread that finishes a small
/// subtree takes the next. Games that end above the split are counted while splitting, by
/// the same rules as [`perft`]. The calling thread is one of the `jobs`; if a thread cannot
/// be started, the others do its share.
pub fn perft_jobs<B: Bits>(
    pos: &BitPosition<B>,
    depth: u32,
    finished: Finished,
    jobs: usize,
) -> u64 {
    let never = AtomicBool::new(false);
    perft_jobs_until(pos, depth, finished, jobs, &never).unwrap_or(0)
}

/// [`perft_jobs`], giving up (`None`) soon after `stop` is set: it is looked at before each
/// subtree [`STOP_DEPTH`] plies deep or more (a few milliseconds of search below it), so
/// that a caller can interrupt a deep search (Python's Ctrl-C).
pub(super) fn perft_jobs_until<B: Bits>(
    pos: &BitPosition<B>,
    depth: u32,
    finished: Finished,
    jobs: usize,
    stop: &AtomicBool,
) -> Option<u64> {
    let jobs = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        n => n,
    }
    .min(MAX_JOBS);
    if jobs == 1 || depth < MIN_SPLIT_DEPTH {
        return perft_until(pos, depth, finished, stop);
    }
    let mut split = Split {
        tasks: vec![*pos],
        leaves: 0,
    };
    let mut remaining = depth;
    // Split while the subtrees are too few to keep every thread busy to the end, keeping
    // at least two plies below the split so that a subtree is worth a thread's time.
    while split.tasks.len() < jobs * TASKS_PER_JOB && remaining > 2 {
        split = split.expand(finished);
        remaining -= 1;
    }
    let tasks = &split.tasks;
    let next = AtomicUsize::new(0);
    let total = AtomicU64::new(split.leaves);
    let work = || {
        let mut leaves = 0;
        while let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) {
            match perft_until(task, remaining, finished, stop) {
                Some(n) => leaves += n,
                None => return,
            }
        }
        total.fetch_add(leaves, Ordering::Relaxed);
    };
    std::thread::scope(|scope| {
        for _ in 1..jobs.min(tasks.len()) {
            // A thread that cannot start leaves its share to the others.
            let _ = std::thread::Builder::new().spawn_scoped(scope, work);
        }
        work();
    });
    (!stop.load(Ordering::Relaxed)).then(|| total.into_inner())
}

/// Subtrees at least this deep look at the stop flag before they are searched; shallower
/// ones are searched by [`perft`] without a look (at most a few milliseconds each).
pub(super) const STOP_DEPTH: u32 = 7;

/// [`perft`], `None` once `stop` is set (looked at above [`STOP_DEPTH`]).
fn perft_until<B: Bits>(
    pos: &BitPosition<B>,
    depth: u32,
    finished: Finished,
    stop: &AtomicBool,
) -> Option<u64> {
    if depth < STOP_DEPTH {
        return Some(perft(pos, depth, finished));
    }
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    let mut leaves = 0;
    let over = !each_child(pos, |child| {
        if let Some(n) = perft_until(&child, depth - 1, finished, stop) {
            leaves += n;
        }
    });
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    Some(if over { finished.leaves() } else { leaves })
}

/// Hands `f` each position one ply below `pos` as perft plays a ply: after every legal
/// move, else after the forced pass; `false` (and nothing handed) when the game is over.
fn each_child<B: Bits>(pos: &BitPosition<B>, mut f: impl FnMut(BitPosition<B>)) -> bool {
    let moves = pos.legal_moves();
    if moves.is_zero() {
        if !pos.must_pass() {
            return false;
        }
        let mut child = *pos;
        child.pass_unchecked();
        f(child);
        return true;
    }
    for index in BitIter(moves) {
        let mut child = *pos;
        child.play_unchecked(index, pos.flips_at(index));
        f(child);
    }
    true
}

/// The most threads [`perft_jobs`] starts.
const MAX_JOBS: usize = 256;

/// Subtrees per thread that [`perft_jobs`] aims for, so that the last ones to finish are
/// small next to the whole search.
const TASKS_PER_JOB: usize = 16;

/// Below this depth [`perft_jobs`] searches on the calling thread: starting threads would
/// cost more than the search.
const MIN_SPLIT_DEPTH: u32 = 5;

/// The frontier of a split: the positions still to search, and the leaves already counted
/// above them (games that ended above the horizon).
struct Split<B: Bits> {
    tasks: Vec<BitPosition<B>>,
    leaves: u64,
}

impl<B: Bits> Split<B> {
    /// The frontier one ply deeper, played as [`perft`] plays a ply above the horizon:
    /// every legal move, else the forced pass, else a finished game counted now. The caller
    /// keeps the frontier above the horizon.
    fn expand(self, finished: Finished) -> Split<B> {
        let mut next = Split {
            tasks: Vec::with_capacity(self.tasks.len() * 8),
            leaves: self.leaves,
        };
        for pos in &self.tasks {
            if !each_child(pos, |child| next.tasks.push(child)) {
                next.leaves += finished.leaves();
            }
        }
        next
    }
}
