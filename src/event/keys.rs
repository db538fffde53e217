//! A game's moves as a key: a hash of its placements as written, and the least hash of
//! the placements under every symmetry of the board that keeps the start position, so that
//! a game and its mirror image (a phone entry read from the other side of the board) have
//! the same canonical key.

use crate::engine::{Rules, Setup, Square, SquareSet};

/// The moves of a game as keys: equal keys are the same placements (passes follow from
/// them), `canonical` also under the board's symmetries.
///
/// ```
/// use reversi_record::engine::{Move, Rules};
/// use reversi_record::event::{MoveKey, Symmetry};
/// let squares = |text: &str| -> Vec<Move> {
///     text.split(' ').map(|s| Move::Place(s.parse().unwrap())).collect()
/// };
/// let rules = Rules::default();
/// let game = MoveKey::of_moves(&rules, None, &squares("f5 d6 c3"));
/// // f5 d6 c3 reflected on the a1-h8 diagonal is e6 f4 c3.
/// let mirrored = MoveKey::of_moves(&rules, None, &squares("e6 f4 c3"));
/// assert_ne!(game.exact, mirrored.exact);
/// assert_eq!(game.canonical, mirrored.canonical);
/// assert_eq!(game.symmetry_to(&mirrored), Some(Symmetry::Diagonal));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveKey {
    /// The placements as written.
    pub exact: u64,
    /// The least of the placements' hashes under the symmetries that keep the start.
    pub canonical: u64,
    /// The symmetry that takes the placements as written to the canonical ones.
    pub to_canonical: Symmetry,
    /// How many placements (passes not counted).
    pub placements: u16,
}

/// One of the eight symmetries of a square board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Symmetry {
    /// Every square where it is.
    Identity,
    /// A quarter turn clockwise.
    Quarter,
    /// A half turn.
    Half,
    /// Three quarter turns clockwise.
    ThreeQuarters,
    /// Columns mirrored (a <-> h).
    Columns,
    /// Rows mirrored (1 <-> 8).
    Rows,
    /// Reflected on the a1-h8 diagonal.
    Diagonal,
    /// Reflected on the a8-h1 diagonal.
    AntiDiagonal,
}

impl Symmetry {
    /// All eight, the identity first.
    pub const ALL: [Symmetry; 8] = [
        Symmetry::Identity,
        Symmetry::Quarter,
        Symmetry::Half,
        Symmetry::ThreeQuarters,
        Symmetry::Columns,
        Symmetry::Rows,
        Symmetry::Diagonal,
        Symmetry::AntiDiagonal,
    ];

    /// Where `(col, row)` goes on a board of `side` squares a side; a square off that
    /// board stays where it is.
    #[inline]
    pub fn apply(self, side: u8, col: u8, row: u8) -> (u8, u8) {
        if col >= side || row >= side {
            return (col, row);
        }
        let last = side - 1;
        match self {
            Symmetry::Identity => (col, row),
            Symmetry::Quarter => (last - row, col),
            Symmetry::Half => (last - col, last - row),
            Symmetry::ThreeQuarters => (row, last - col),
            Symmetry::Columns => (last - col, row),
            Symmetry::Rows => (col, last - row),
            Symmetry::Diagonal => (row, col),
            Symmetry::AntiDiagonal => (last - row, last - col),
        }
    }

    /// The symmetry that undoes this one.
    pub fn inverse(self) -> Symmetry {
        match self {
            Symmetry::Quarter => Symmetry::ThreeQuarters,
            Symmetry::ThreeQuarters => Symmetry::Quarter,
            other => other,
        }
    }

    /// This symmetry, then `then`.
    pub fn then(self, then: Symmetry) -> Symmetry {
        let (c, r) = then.apply(8, self.apply(8, 1, 0).0, self.apply(8, 1, 0).1);
        let (c2, r2) = then.apply(8, self.apply(8, 0, 2).0, self.apply(8, 0, 2).1);
        Symmetry::ALL
            .into_iter()
            .find(|s| s.apply(8, 1, 0) == (c, r) && s.apply(8, 0, 2) == (c2, r2))
            .unwrap_or(Symmetry::Identity)
    }

    /// How a message says it: "rotated a half turn", "reflected on the a1-h8 diagonal".
    pub fn describe(self) -> &'static str {
        match self {
            Symmetry::Identity => "as written",
            Symmetry::Quarter => "rotated a quarter turn",
            Symmetry::Half => "rotated a half turn",
            Symmetry::ThreeQuarters => "rotated three quarter turns",
            Symmetry::Columns => "with its columns mirrored",
            Symmetry::Rows => "with its rows mirrored",
            Symmetry::Diagonal => "reflected on the a1-h8 diagonal",
            Symmetry::AntiDiagonal => "reflected on the a8-h1 diagonal",
        }
    }

    fn bit(self) -> u8 {
        1 << (self as u8)
    }

    fn set(self, side: u8, set: SquareSet) -> Option<SquareSet> {
        set.iter()
            .map(|sq| {
                let (c, r) = self.apply(side, sq.col(), sq.row());
                Square::new(c, r)
            })
            .collect()
    }
}

/// The symmetries that keep a start position (the board's shape and blocked squares, every
/// colour's discs, the neutral discs) where it is, as a bit set over [`Symmetry::ALL`];
/// the identity always.
pub(crate) fn keeping(rules: &Rules, setup: Option<&Setup>) -> u8 {
    let side = rules.board().side();
    let (discs, neutral) = match setup {
        Some(setup) => (setup.discs, setup.neutral),
        None => rules.start_discs(),
    };
    let playable = rules.playable();
    let mut mask = Symmetry::Identity.bit();
    for s in &Symmetry::ALL[1..] {
        let keeps = |set: SquareSet| s.set(side, set) == Some(set);
        if keeps(playable) && keeps(neutral) && discs.iter().all(|&d| keeps(d)) {
            mask |= s.bit();
        }
    }
    mask
}

/// The symmetries of a start, remembered for the last rules (most games of a file share
/// them).
#[derive(Clone, Debug, Default)]
pub(crate) struct Symmetries {
    last: Option<(Rules, u8)>,
}

impl Symmetries {
    /// The symmetries keeping the start of `rules`, or `setup` when the game has its own.
    pub(crate) fn of(&mut self, rules: &Rules, setup: Option<&Setup>) -> u8 {
        if setup.is_some() {
            return keeping(rules, setup);
        }
        match self.last {
            Some((r, mask)) if r == *rules => mask,
            _ => {
                let mask = keeping(rules, None);
                self.last = Some((*rules, mask));
                mask
            }
        }
    }
}

/// A 64-bit hash of a byte sequence, fed eight bytes at a time through a strong mixer.
#[derive(Clone, Copy)]
struct Hasher {
    state: u64,
    word: u64,
    filled: u32,
}

impl Hasher {
    fn new(seed: u64) -> Hasher {
        Hasher {
            state: mix(seed ^ 0x9E37_79B9_7F4A_7C15),
            word: 0,
            filled: 0,
        }
    }

    #[inline]
    fn push(&mut self, byte: u8) {
        self.word |= u64::from(byte) << (8 * self.filled);
        self.filled += 1;
        if self.filled == 8 {
            self.state = mix(self.state ^ self.word);
            self.word = 0;
            self.filled = 0;
        }
    }

    fn finish(self, len: u16) -> u64 {
        mix(self.state ^ self.word ^ (u64::from(len) << 56 | u64::from(self.filled)))
    }
}

/// splitmix64's finaliser.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl MoveKey {
    /// The key of these moves from the start of `rules` (or `setup`).
    pub fn of_moves(
        rules: &Rules,
        setup: Option<&Setup>,
        moves: &[crate::engine::Move],
    ) -> MoveKey {
        let squares = moves.iter().filter_map(|m| match m {
            crate::engine::Move::Place(sq) => Some((sq.col(), sq.row())),
            crate::engine::Move::Pass => None,
        });
        MoveKey::of_squares(rules, keeping(rules, setup), squares)
    }

    /// The key of placements given as `(col, row)`, under the symmetries in `mask` (a bit
    /// set over [`Symmetry::ALL`]).
    pub(crate) fn of_squares(
        rules: &Rules,
        mask: u8,
        squares: impl Iterator<Item = (u8, u8)> + Clone,
    ) -> MoveKey {
        let side = rules.board().side();
        let seed = rules_seed(rules);
        let mut hashers = [Hasher::new(seed); 8];
        let mut placements: u16 = 0;
        for (col, row) in squares {
            placements = placements.saturating_add(1);
            for (k, s) in Symmetry::ALL.iter().enumerate() {
                if mask & (1 << k) != 0 {
                    let (c, r) = s.apply(side, col, row);
                    hashers[k].push(r << 4 | c);
                }
            }
        }
        let exact = hashers[0].finish(placements);
        let (mut canonical, mut to_canonical) = (exact, Symmetry::Identity);
        for (k, s) in Symmetry::ALL.iter().enumerate().skip(1) {
            if mask & (1 << k) != 0 {
                let h = hashers[k].finish(placements);
                if h < canonical {
                    (canonical, to_canonical) = (h, *s);
                }
            }
        }
        MoveKey {
            exact,
            canonical,
            to_canonical,
            placements,
        }
    }

    /// The symmetry that takes this game's placements to `other`'s, when both have the same
    /// canonical key.
    pub fn symmetry_to(&self, other: &MoveKey) -> Option<Symmetry> {
        if self.canonical != other.canonical || self.placements != other.placements {
            return None;
        }
        if self.exact == other.exact {
            return Some(Symmetry::Identity);
        }
        Some(self.to_canonical.then(other.to_canonical.inverse()))
    }
}

/// What the rules add to a key: games under other rules are other games.
fn rules_seed(rules: &Rules) -> u64 {
    use std::hash::{Hash, Hasher as _};
    let mut h = std::hash::DefaultHasher::new();
    rules.hash(&mut h);
    h.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_standard_start_keeps_four_symmetries() {
        let mask = keeping(&Rules::default(), None);
        let kept: Vec<Symmetry> = Symmetry::ALL
            .into_iter()
            .filter(|s| mask & s.bit() != 0)
            .collect();
        assert_eq!(
            kept,
            [
                Symmetry::Identity,
                Symmetry::Half,
                Symmetry::Diagonal,
                Symmetry::AntiDiagonal
            ]
        );
    }

    #[test]
    fn composition_matches_applying_one_after_the_other() {
        for a in Symmetry::ALL {
            for b in Symmetry::ALL {
                let c = a.then(b);
                for (col, row) in [(0, 0), (1, 0), (2, 5), (7, 3)] {
                    let (x, y) = a.apply(8, col, row);
                    assert_eq!(c.apply(8, col, row), b.apply(8, x, y), "{a:?} then {b:?}");
                }
            }
            assert_eq!(a.then(a.inverse()), Symmetry::Identity);
            // Off the board (a record's bad move): left where it is, never a panic.
            assert_eq!(a.apply(8, 9, 0), (9, 0));
            assert_eq!(a.apply(0, 0, 0), (0, 0));
        }
    }

    #[test]
    fn the_symmetry_between_two_games_is_named() {
        let rules = Rules::default();
        let moves = |text: &str| -> Vec<crate::engine::Move> {
            text.split(' ')
                .map(|s| crate::engine::Move::Place(s.parse().unwrap()))
                .collect()
        };
        let game = MoveKey::of_moves(&rules, None, &moves("f5 f6 e6 f4"));
        for s in [Symmetry::Half, Symmetry::Diagonal, Symmetry::AntiDiagonal] {
            let turned: Vec<crate::engine::Move> = moves("f5 f6 e6 f4")
                .into_iter()
                .map(|m| match m {
                    crate::engine::Move::Place(sq) => {
                        let (c, r) = s.apply(8, sq.col(), sq.row());
                        crate::engine::Move::Place(Square::new(c, r).unwrap())
                    }
                    pass => pass,
                })
                .collect();
            let other = MoveKey::of_moves(&rules, None, &turned);
            assert_eq!(game.symmetry_to(&other), Some(s));
        }
        let different = MoveKey::of_moves(&rules, None, &moves("f5 f6 e6 d6"));
        assert_eq!(game.symmetry_to(&different), None);
    }
}
