//! A game's moves as a key: a hash of its placements as written, and the least hash of
//! the placements under every symmetry of the board that keeps the start position, so that
//! a game and its mirror image (a phone entry read from the other side of the board) have
//! the same canonical key.

use crate::engine::{Rules, Setup, Square, SquareSet};

/// The moves of a game as keys: equal keys are the same placements (passes follow from
/// them), `canonical` also under the board's symmetries.
///
/// ```
/// use reversi_engine::{Move, Rules};
/// use reversi_check::event::{MoveKey, Symmetry};
/// let squares = |text: &str| -> Vec<Move> {
///     text.split(' ').map(|s| Move::Place(s.parse().unwrap())).collect()
/// };
/// let rules = Rules::default();
/// let game = MoveKey::of_moves(&rules, None, &squares("f5 d6 c3"));
/// // f5 d6 c3 reflected on the a1-h8 diagonal is e6 f4 c3.
/// let mirrored = MoveKey::of_moves(&rules, None, &squares("e6 f4 c3"));
/// assert_eq!(game.canonical, mirrored.canonical);
/// assert_ne!(game.to_canonical, mirrored.to_canonical);
/// assert_eq!(game.symmetry_to(&mirrored), Some(Symmetry::Diagonal));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MoveKey {
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

    /// Where `square` goes on a board of `side` squares a side (off that board: where it is).
    pub fn apply_square(self, side: u8, square: crate::engine::Square) -> crate::engine::Square {
        let (col, row) = self.apply(side, square.col(), square.row());
        crate::engine::Square::new(col, row).unwrap_or(square)
    }

    /// The image of `set` on a board of `side` squares a side.
    ///
    /// ```
    /// use reversi_check::event::Symmetry;
    /// use reversi_engine::{Square, SquareSet};
    /// let f5: Square = "f5".parse().unwrap();
    /// let image = Symmetry::Half.apply_set(8, SquareSet::single(f5));
    /// assert_eq!(image, SquareSet::single("c4".parse().unwrap()));
    /// ```
    pub fn apply_set(self, side: u8, set: crate::engine::SquareSet) -> crate::engine::SquareSet {
        set.iter().map(|sq| self.apply_square(side, sq)).collect()
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

/// The key maker of a worker: a game's key depends on that game alone (its rules, its
/// start, its placements); what is kept from game to game is only what the rules alone
/// decide (the usual start's symmetries and seed) and the square tables of the last rules
/// and symmetries, each looked up by everything it depends on.
#[derive(Clone, Debug, Default)]
#[doc(hidden)]
pub struct Symmetries {
    /// The rules of the last game from the usual start, with that start's symmetries and
    /// seed.
    usual: Option<(Rules, u8, u64)>,
    /// The tables of the last rules and symmetries keyed.
    maker: Option<(Rules, u8, KeyMaker)>,
}

impl Symmetries {
    /// The key of the placements `codes` (each `row << 4 | col`) of a game of `rules` from
    /// their usual start, or from `setup` when the game has its own.
    #[doc(hidden)]
    pub fn key(
        &mut self,
        rules: &Rules,
        setup: Option<&Setup>,
        codes: impl Iterator<Item = u8>,
    ) -> MoveKey {
        let (maker, start) = self.maker(rules, setup);
        maker.key(start, codes)
    }

    /// [`Symmetries::key`] of a game of `rules` from their usual start whose placements
    /// are `bytes`, each the code `code_of` gives it (a WTHOR record's move bytes).
    #[doc(hidden)]
    pub fn key_of_bytes(&mut self, rules: &Rules, bytes: &[u8], code_of: &[u8; 256]) -> MoveKey {
        let (maker, start) = self.maker(rules, None);
        maker.key_of_bytes(start, bytes, code_of)
    }

    /// The key maker of `rules` from their usual start or `setup`, and the start's seed.
    fn maker(&mut self, rules: &Rules, setup: Option<&Setup>) -> (&KeyMaker, u64) {
        let (mask, start) = match (setup, self.usual) {
            (Some(setup), _) => start_of(rules, setup),
            (None, Some((r, mask, start))) if r == *rules => (mask, start),
            (None, _) => {
                let (mask, start) = start_of(rules, &usual_setup(rules));
                self.usual = Some((*rules, mask, start));
                (mask, start)
            }
        };
        if !matches!(&self.maker, Some((r, m, _)) if r == rules && *m == mask) {
            self.maker = None;
        }
        let (_, _, maker) = self
            .maker
            .get_or_insert_with(|| (*rules, mask, KeyMaker::new(rules, mask)));
        (maker, start)
    }
}

/// The usual start of `rules` as a setup: its discs, Black to move.
fn usual_setup(rules: &Rules) -> Setup {
    let (discs, neutral) = rules.start_discs();
    Setup {
        discs,
        neutral,
        turn: crate::engine::Color::Black,
    }
}

/// The symmetries that keep `setup` (a bit set over [`Symmetry::ALL`]) and the seed of a
/// game's key from it: the rules and the start hashed together, so that games from
/// different starts are different games.
fn start_of(rules: &Rules, setup: &Setup) -> (u8, u64) {
    use std::hash::{Hash, Hasher as _};
    let mut h = std::hash::DefaultHasher::new();
    rules.hash(&mut h);
    setup.hash(&mut h);
    (
        keeping(rules, Some(setup)),
        mix(h.finish() ^ 0x9E37_79B9_7F4A_7C15),
    )
}

/// How the placements of games of one set of rules become their keys: the rules' seed,
/// and where each symmetry kept takes each square.
#[derive(Clone, Debug)]
pub(crate) struct KeyMaker {
    /// The symmetries kept, the identity first, and how many.
    symmetries: [Symmetry; 8],
    kept: usize,
    /// `squares[k][code]`: where the `k`-th symmetry kept takes the square `code`
    /// (`row << 4 | col`).
    squares: [[u8; 256]; 8],
}

impl KeyMaker {
    /// The key maker of `rules` under the symmetries in `mask` (a bit set over
    /// [`Symmetry::ALL`]; the identity is always kept).
    pub(crate) fn new(rules: &Rules, mask: u8) -> KeyMaker {
        let side = rules.board().side();
        let mut maker = KeyMaker {
            symmetries: [Symmetry::Identity; 8],
            kept: 0,
            squares: [[0; 256]; 8],
        };
        for (k, s) in Symmetry::ALL.into_iter().enumerate() {
            if k == 0 || mask & (1 << k) != 0 {
                for (code, to) in maker.squares[maker.kept].iter_mut().enumerate() {
                    let (c, r) = s.apply(side, code as u8 & 15, code as u8 >> 4);
                    *to = r << 4 | c;
                }
                maker.symmetries[maker.kept] = s;
                maker.kept += 1;
            }
        }
        maker
    }

    /// The key of the placements `codes` (each `row << 4 | col`) from the start whose seed
    /// is `start`. The canonical placements are the least, square by square, of the
    /// placements under each symmetry kept: a symmetry is dropped as soon as it takes a
    /// placement to a greater square than another does (most often at the first), so one
    /// sequence is hashed, eight squares a word through a strong mixer, with their number
    /// at the end. The symmetry to it is the first left, in the order of [`Symmetry::ALL`].
    pub(crate) fn key(&self, start: u64, codes: impl Iterator<Item = u8>) -> MoveKey {
        let mut hash = Words::new(start);
        // The symmetries still in the running, as a bit set over the ones kept.
        let mut left: u8 = u8::MAX >> (8 - self.kept);
        let mut codes = codes.into_iter();
        while left & (left - 1) != 0 {
            let Some(code) = codes.next() else { break };
            let least;
            (least, left) = self.least(left, code);
            hash.push(least);
        }
        // One symmetry left: the rest through its table.
        let first = left.trailing_zeros() as usize;
        let table = &self.squares[first];
        for code in codes {
            hash.push(table[usize::from(code)]);
        }
        self.finish(&hash, first)
    }

    /// [`KeyMaker::key`] of the placements `bytes`, each the code `code_of` gives it: the
    /// same key, the bytes after the first taken eight at a time.
    pub(crate) fn key_of_bytes(&self, start: u64, bytes: &[u8], code_of: &[u8; 256]) -> MoveKey {
        let mut hash = Words::new(start);
        let mut left: u8 = u8::MAX >> (8 - self.kept);
        let mut at = 0;
        while left & (left - 1) != 0 && at < bytes.len() {
            let least;
            (least, left) = self.least(left, code_of[usize::from(bytes[at])]);
            hash.push(least);
            at += 1;
        }
        let first = left.trailing_zeros() as usize;
        let table = &self.squares[first];
        hash.extend(&bytes[at..], |b| {
            table[usize::from(code_of[usize::from(b)])]
        });
        self.finish(&hash, first)
    }

    /// The least square the symmetries `left` take `code` to, and the symmetries that take
    /// it there.
    #[inline]
    fn least(&self, left: u8, code: u8) -> (u8, u8) {
        let (mut least, mut ties) = (u8::MAX, 0u8);
        let mut rest = left;
        while rest != 0 {
            let k = rest.trailing_zeros() as usize;
            rest &= rest - 1;
            let to = self.squares[k][usize::from(code)];
            if to < least {
                (least, ties) = (to, 1 << k);
            } else if to == least {
                ties |= 1 << k;
            }
        }
        (least, ties)
    }

    /// The key of what `hash` holds, canonical under the `first` symmetry kept.
    fn finish(&self, hash: &Words, first: usize) -> MoveKey {
        MoveKey {
            canonical: hash.finish(),
            to_canonical: self.symmetries[first],
            placements: hash.placements(),
        }
    }
}

/// Squares hashed eight a word through a strong mixer, their number at the end.
struct Words {
    state: u64,
    word: u64,
    /// The codes pushed.
    count: u32,
}

impl Words {
    fn new(start: u64) -> Words {
        Words {
            state: start,
            word: 0,
            count: 0,
        }
    }

    /// Pushes each of `bytes` as `map` gives it: one at a time to a word's start, then
    /// eight at a time.
    #[inline]
    fn extend(&mut self, bytes: &[u8], map: impl Fn(u8) -> u8) {
        let mut bytes = bytes;
        while self.count & 7 != 0 {
            let Some((&b, rest)) = bytes.split_first() else {
                return;
            };
            self.push(map(b));
            bytes = rest;
        }
        let mut words = bytes.chunks_exact(8);
        for word in &mut words {
            let mut codes = [0; 8];
            for (code, &b) in codes.iter_mut().zip(word) {
                *code = map(b);
            }
            self.state = mix(self.state ^ u64::from_le_bytes(codes));
            self.count += 8;
        }
        for &b in words.remainder() {
            self.push(map(b));
        }
    }

    #[inline]
    fn push(&mut self, code: u8) {
        self.word |= u64::from(code) << (8 * (self.count & 7));
        self.count += 1;
        if self.count & 7 == 0 {
            self.state = mix(self.state ^ self.word);
            self.word = 0;
        }
    }

    /// The placements hashed (at most `u16::MAX`).
    fn placements(&self) -> u16 {
        u16::try_from(self.count).unwrap_or(u16::MAX)
    }

    fn finish(&self) -> u64 {
        let end = u64::from(self.placements()) << 56 | u64::from(self.count & 7);
        mix(self.state ^ self.word ^ end)
    }
}

/// splitmix64's finaliser.
#[inline]
pub(super) fn mix(mut z: u64) -> u64 {
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
        Symmetries::default().key(rules, setup, placements(moves))
    }

    /// The symmetry that takes this game's placements to `other`'s, when both have the same
    /// canonical key. (The same placements take the same symmetry to their canonical form:
    /// the first of the least hashes, in the order of [`Symmetry::ALL`].)
    pub fn symmetry_to(&self, other: &MoveKey) -> Option<Symmetry> {
        if self.canonical != other.canonical || self.placements != other.placements {
            return None;
        }
        Some(self.to_canonical.then(other.to_canonical.inverse()))
    }
}

/// The placements of `moves` as square codes (`row << 4 | col`), for a key.
pub(crate) fn placements(moves: &[crate::engine::Move]) -> impl Iterator<Item = u8> + Clone + '_ {
    moves.iter().filter_map(|m| match m {
        crate::engine::Move::Place(sq) => Some(sq.row() << 4 | sq.col()),
        crate::engine::Move::Pass => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The key written plainly: every symmetry's sequence of squares (each mapped by
    /// [`Symmetry::apply`]), the least of them (the first on a tie), hashed a byte at a
    /// time. The oracle of the tables and of dropping symmetries on the way.
    fn key_byte_by_byte(rules: &Rules, mask: u8, start: u64, squares: &[(u8, u8)]) -> MoveKey {
        let side = rules.board().side();
        let (to_canonical, least) = Symmetry::ALL
            .iter()
            .enumerate()
            .filter(|(k, _)| *k == 0 || mask & (1 << k) != 0)
            .map(|(_, s)| {
                let sequence: Vec<u8> = squares
                    .iter()
                    .map(|&(col, row)| {
                        let (c, r) = s.apply(side, col, row);
                        r << 4 | c
                    })
                    .collect();
                (*s, sequence)
            })
            .reduce(|best, next| if next.1 < best.1 { next } else { best })
            .unwrap();
        let (mut state, mut word, mut filled) = (start, 0u64, 0u32);
        for &code in &least {
            word |= u64::from(code) << (8 * filled);
            filled += 1;
            if filled == 8 {
                (state, word, filled) = (mix(state ^ word), 0, 0);
            }
        }
        let placements = squares.len() as u16;
        MoveKey {
            canonical: mix(state ^ word ^ (u64::from(placements) << 56 | u64::from(filled))),
            to_canonical,
            placements,
        }
    }

    #[test]
    fn keys_from_tables_are_those_hashed_a_byte_at_a_time() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        // One for every rules, as a worker keeps one: it changes its maker with them.
        let mut symmetries = Symmetries::default();
        for rules in [
            "othello",
            "othello:10x10",
            "othello:octagon",
            "othello:6x6",
            "othello",
        ] {
            let rules: Rules = rules.parse().unwrap();
            let side = rules.board().side();
            for round in 0..300 {
                let mask = 1 | next() as u8;
                // Squares on the board, and now and then one off it (a record's bad move).
                let squares: Vec<(u8, u8)> = (0..round % 70)
                    .map(|_| {
                        let n = next();
                        let limit = if n % 17 == 0 { 16 } else { side };
                        ((n >> 8) as u8 % limit, (n >> 16) as u8 % limit)
                    })
                    .collect();
                let codes = squares.iter().map(|&(c, r)| r << 4 | c);
                let start = next();
                let key = KeyMaker::new(&rules, mask).key(start, codes.clone());
                assert_eq!(
                    key,
                    key_byte_by_byte(&rules, mask, start, &squares),
                    "{rules} {mask:#b}"
                );
                // Bytes mapped to codes, eight at a time, key as the codes do (the bytes
                // here are the codes themselves, reversed through the table).
                let bytes: Vec<u8> = codes.clone().map(|c| !c).collect();
                let mut code_of = [0u8; 256];
                for (b, code) in code_of.iter_mut().enumerate() {
                    *code = !(b as u8);
                }
                assert_eq!(
                    KeyMaker::new(&rules, mask).key_of_bytes(start, &bytes, &code_of),
                    key,
                    "{rules} {mask:#b}, {} placements",
                    bytes.len()
                );
                // The remembered maker keys a game as a fresh one does.
                let (kept, start) = start_of(&rules, &usual_setup(&rules));
                let plain = key_byte_by_byte(&rules, kept, start, &squares);
                assert_eq!(symmetries.key(&rules, None, codes), plain);
                assert_eq!(symmetries.key_of_bytes(&rules, &bytes, &code_of), plain);
            }
        }
    }

    #[test]
    fn a_game_is_keyed_from_its_own_start_whatever_came_before() {
        let rules = Rules::default();
        let codes = |text: &str| -> Vec<u8> {
            text.split(' ')
                .map(|s| {
                    s.parse::<Square>()
                        .map(|sq| sq.row() << 4 | sq.col())
                        .unwrap()
                })
                .collect()
        };
        let game = codes("f5 d6 c3 d3 c4");
        // f5 d6 c3 d3 c4 reflected on the a1-h8 diagonal.
        let reflected = codes("e6 f4 c3 c4 d3");
        let fresh = |setup: Option<&Setup>, codes: &[u8]| {
            Symmetries::default().key(&rules, setup, codes.iter().copied())
        };
        // A start of its own that keeps no symmetry but the identity.
        let mut lopsided = usual_setup(&rules);
        lopsided.discs[0].insert("b1".parse().unwrap());
        assert_eq!(keeping(&rules, Some(&lopsided)), Symmetry::Identity.bit());
        let mut worker = Symmetries::default();
        let before = worker.key(&rules, Some(&lopsided), game.iter().copied());
        // The same placements from another start are another game.
        assert_ne!(before, fresh(None, &game));
        assert_eq!(before, fresh(Some(&lopsided), &game));
        // The next games, from the usual start, are keyed as by a fresh worker: their
        // reflections are still found.
        let usual = worker.key(&rules, None, game.iter().copied());
        let mirror = worker.key(&rules, None, reflected.iter().copied());
        assert_eq!(usual, fresh(None, &game));
        assert_eq!(mirror, fresh(None, &reflected));
        assert_eq!(usual.canonical, mirror.canonical);
        // The usual start written out is the usual start.
        assert_eq!(fresh(Some(&usual_setup(&rules)), &game), usual);
    }

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
