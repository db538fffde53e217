//! Perft: counting the leaves of the game tree, the standard test of a move generator.

use super::bits::{BitIter, Bits};
use super::board_state::BitPosition;

/// Leaves of the game tree `depth` plies below `pos`. A pass is a ply; a finished game above
/// the horizon counts 0 (OEIS A124004, Edax) or, with `count_finished`, 1 (Aart Bik).
///
/// Bulk-counts the last ply: the leaves below a position one ply from the horizon are its
/// legal moves.
pub fn perft<B: Bits>(pos: &BitPosition<B>, depth: u32, count_finished: bool) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = pos.legal_moves();
    if moves.is_zero() {
        if pos.must_pass() {
            let mut child = *pos;
            child.pass_unchecked();
            return perft(&child, depth - 1, count_finished);
        }
        return u64::from(count_finished);
    }
    if depth == 1 {
        return u64::from(moves.count());
    }
    let mut leaves = 0;
    for index in BitIter(moves) {
        let mut child = *pos;
        child.play_unchecked(index, pos.flips_at(index));
        leaves += perft(&child, depth - 1, count_finished);
    }
    leaves
}
