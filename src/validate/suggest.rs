//! Single-change suggestions for an illegal move: a swap of two adjacent moves, or another
//! square, that makes the whole game legal.

use crate::engine::Move;
use crate::record::Record;

use super::replay;

/// A suggestion for the illegal move at index `bad` (0-based among written moves), if one
/// change makes every move of the record legal.
pub(super) fn single_change(record: &Record, bad: usize) -> Option<String> {
    let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
    for (a, b) in [(bad.checked_sub(1), Some(bad)), (Some(bad), Some(bad + 1))] {
        let (Some(a), Some(b)) = (a, b) else { continue };
        if b >= moves.len() || moves[a] == moves[b] {
            continue;
        }
        let mut swapped = moves.clone();
        swapped.swap(a, b);
        if replay(record, &swapped).is_some() {
            return Some(format!(
                "swapping moves {} ({}) and {} ({}) makes the game legal",
                a + 1,
                moves[a],
                b + 1,
                moves[b]
            ));
        }
    }
    let written = match moves[bad] {
        Move::Place(square) => square.to_string(),
        Move::Pass => "the pass".to_string(),
    };
    let mut before = replay(record, &moves[..bad])?;
    if before.must_pass() {
        before.play(Move::Pass).ok()?;
    }
    let fits: Vec<String> = before
        .legal_moves()
        .iter()
        // The square itself can fit after an inferred pass (a colour claim said otherwise):
        // that is no other square.
        .filter(|&sq| moves[bad] != Move::Place(sq))
        .filter(|&sq| {
            let mut fixed = moves.clone();
            fixed[bad] = Move::Place(sq);
            replay(record, &fixed).is_some()
        })
        .map(|sq| sq.to_string())
        .collect();
    match fits.as_slice() {
        [] => None,
        [one] => Some(format!("{one} instead of {written} makes the game legal")),
        many => Some(format!(
            "any of {} instead of {written} makes the game legal",
            many.join(", ")
        )),
    }
}
