//! Perft: counting the leaves of the game tree, the standard test of a move generator.

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
