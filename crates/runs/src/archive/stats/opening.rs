//! Openings keyed by their first moves, normalised by the symmetries of the start.

use super::Stats;
use crate::engine::{Move, Rules, Square, SquareSet, MAX_SIDE};
use crate::event::Symmetry;
use crate::record::{start_setup, StartPosition};

/// An opening key's byte for a pass: after every square.
const PASS_KEY: u8 = u8::MAX;

/// The image of `sq` under symmetry `t` (of [`Symmetry::ALL`]) of a board of side `n`; a
/// square off the `n` x `n` grid (a record's mistake) stays where it is.
fn transform(sq: Square, t: u8, n: u8) -> Square {
    Symmetry::ALL[usize::from(t & 7)].apply_square(n, sq)
}

fn transform_set(set: SquareSet, t: u8, n: u8) -> SquareSet {
    Symmetry::ALL[usize::from(t & 7)].apply_set(n, set)
}

/// The symmetries (a bit each, identity included) that map the start position onto
/// itself.
fn symmetries_of(rules: Rules, start: Option<&StartPosition>) -> u8 {
    let setup = start_setup(rules, start);
    let n = rules.board().side();
    let mut mask = 1;
    for t in 1..8 {
        let same = |set: SquareSet| transform_set(set, t, n) == set;
        if same(rules.playable()) && setup.discs.iter().all(|&d| same(d)) && same(setup.neutral) {
            mask |= 1 << t;
        }
    }
    mask
}

/// A move's byte in an opening key: squares ordered right-most column first, then top row
/// first; a pass after them.
pub(super) fn encode(mv: Move, t: u8, n: u8) -> u8 {
    match mv {
        Move::Place(sq) => {
            let sq = transform(sq, t, n);
            (MAX_SIDE - 1 - sq.col()) * MAX_SIDE + sq.row()
        }
        Move::Pass => PASS_KEY,
    }
}

/// The move of a key's byte.
fn decode(byte: u8) -> Option<Move> {
    if byte == PASS_KEY {
        return Some(Move::Pass);
    }
    let col = (MAX_SIDE - 1).checked_sub(byte / MAX_SIDE)?;
    Square::new(col, byte % MAX_SIDE).map(Move::Place)
}

/// An opening key as text: `f5 d6 c3`, `pass` for a pass.
pub(super) fn opening_text(key: &[u8]) -> String {
    let mut out = String::with_capacity(key.len() * 3);
    for (i, &byte) in key.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match decode(byte) {
            Some(Move::Place(sq)) => out.push_str(sq.name()),
            Some(Move::Pass) => out.push_str("pass"),
            None => out.push('?'),
        }
    }
    out
}

impl Stats {
    /// Sets `self.key` to the game's opening, normalised by the start's symmetries.
    pub(super) fn key_opening<M>(&mut self, rules: Rules, start: Option<&StartPosition>, moves: M)
    where
        M: Iterator<Item = Move> + Clone,
    {
        let mask = match start {
            Some(start) => symmetries_of(rules, Some(start)),
            None => match self.symmetries.iter().find(|(r, _)| *r == rules) {
                Some(&(_, mask)) => mask,
                None => {
                    let mask = symmetries_of(rules, None);
                    self.symmetries.push((rules, mask));
                    mask
                }
            },
        };
        let n = rules.board().side();
        self.key.clear();
        for mv in moves.clone().take(self.opening_moves) {
            self.key.push(encode(mv, 0, n));
        }
        for t in 1..8 {
            if mask & (1 << t) == 0 {
                continue;
            }
            self.image.clear();
            for mv in moves.clone().take(self.opening_moves) {
                self.image.push(encode(mv, t, n));
            }
            if self.image < self.key {
                std::mem::swap(&mut self.image, &mut self.key);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::BoardShape;

    #[test]
    fn a_free_opening_has_eight_symmetries() {
        let rules: Rules = "free".parse().unwrap();
        assert_eq!(symmetries_of(rules, None), 0xff);
        assert_eq!(symmetries_of(Rules::default(), None).count_ones(), 4);
        let multi: Rules = "multi3".parse().unwrap();
        assert_eq!(symmetries_of(multi, None), 1);
    }

    #[test]
    fn the_eight_transforms_are_the_symmetries_of_the_square() {
        for t in 0..8u8 {
            let image: SquareSet = transform_set(BoardShape::Eight.cells(), t, 8);
            assert_eq!(image, BoardShape::Eight.cells());
        }
        let f5: Square = "f5".parse().unwrap();
        let images: std::collections::BTreeSet<Square> =
            (0..8).map(|t| transform(f5, t, 8)).collect();
        assert_eq!(images.len(), 8, "f5 has eight images");
        for byte in 0..100 {
            let mv = decode(byte).unwrap();
            assert_eq!(encode(mv, 0, 10), byte);
        }
    }
}
