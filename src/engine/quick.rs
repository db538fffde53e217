//! The quick check: a replay on specialized bitboards that answers one question, "would
//! the full validator find nothing at all in this game?", without building a
//! [`Record`](crate::record::Record). It lives with the engine, below the formats that
//! gather moves for it and the validation pipeline that asks it, so data still flows one
//! way.
//!
//! Readers that can hand out a game's moves cheaply (WTHOR records, RGN/PGN text) ask it
//! first; a game it does not pass (an illegal move, a missing pass, an unfinished game, a
//! wrong result, or anything it does not handle) is read and validated in full, so the
//! diagnostics are exactly the full validator's. It is conservative by design: `false`
//! only means "look closer".
//!
//! Standard Othello, by far the most common game, is replayed on two `u64`s; other
//! two-player rules from a standard opening on `u128`s ([`Wide`]); the rest with the
//! engine's [`Position`], still without a record.
//!
//! A move is a square's code, `row * 16 + col` (a1 = 0, b1 = 1, a2 = 16), or [`PASS`].

use std::sync::OnceLock;

use super::{Color, Move, Opening, Outcome, Position, Rules, Setup, Square};

/// An explicit pass in a move list.
pub(crate) const PASS: u8 = 0xFF;

/// The code of the square in column `col` and row `row` (both 0-based, below 16).
#[inline]
pub(crate) const fn code(col: u8, row: u8) -> u8 {
    row << 4 | col
}

/// Most moves a game the quick check takes may have (passes included); longer lists go to
/// the full validator.
pub(crate) const MAX_MOVES: usize = 128;

/// The moves of one game, gathered by a reader without allocating.
#[derive(Clone)]
pub(crate) struct QuickMoves {
    moves: [u8; MAX_MOVES],
    len: usize,
    /// Whether an explicit pass was seen: the record then writes its passes, and a missing
    /// one is an error.
    explicit_passes: bool,
    /// The board of the last rules replayed on [`Wide`] bitboards, kept for the next game.
    wide: Option<(Rules, Option<Wide>)>,
}

impl Default for QuickMoves {
    fn default() -> QuickMoves {
        QuickMoves {
            moves: [0; MAX_MOVES],
            len: 0,
            explicit_passes: false,
            wide: None,
        }
    }
}

impl QuickMoves {
    /// Forgets the moves, keeping the buffer.
    pub(crate) fn clear(&mut self) {
        self.len = 0;
        self.explicit_passes = false;
    }

    /// Adds a square's [`code`] or [`PASS`]; `false` when the list is full.
    #[inline]
    pub(crate) fn push(&mut self, mv: u8) -> bool {
        if self.len == MAX_MOVES {
            return false;
        }
        self.explicit_passes |= mv == PASS;
        self.moves[self.len] = mv;
        self.len += 1;
        true
    }

    /// The moves so far.
    pub(crate) fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len]
    }

    /// Whether the full validator would report nothing for a game of `rules` from their
    /// usual start with these moves and `claim`, Black's and White's claimed scores
    /// (`None`: no result claimed). A game must end with no player able to move.
    pub(crate) fn is_clean(&mut self, rules: &Rules, claim: Option<(u8, u8)>) -> bool {
        if *rules == Rules::default() {
            return replay(self.as_slice(), self.explicit_passes, claim);
        }
        if self.wide.as_ref().map_or(true, |(r, _)| r != rules) {
            self.wide = Some((*rules, Wide::of(rules)));
        }
        match &self.wide {
            Some((_, Some(wide))) => wide.replay(self.as_slice(), self.explicit_passes, claim),
            _ => replay_engine(rules, self.as_slice(), self.explicit_passes, claim),
        }
    }
}

/// Black's discs at the start: e4 and d5.
const START_BLACK: u64 = 0x0000_0008_1000_0000;
/// White's discs at the start: d4 and e5.
const START_WHITE: u64 = 0x0000_0010_0800_0000;

/// The rules' usual start (as a record without a start position has it), if possible.
fn start(rules: &Rules) -> Option<Position> {
    let (discs, neutral) = rules.start_discs();
    let setup = Setup {
        discs,
        neutral,
        turn: Color::Black,
    };
    Position::from_setup(*rules, setup).ok()
}

/// The replay of any rules with the engine, as the validator replays: a move that fails
/// is an error unless the mover must pass and the record leaves its passes out.
fn replay_engine(
    rules: &Rules,
    moves: &[u8],
    explicit_passes: bool,
    claim: Option<(u8, u8)>,
) -> bool {
    let Some(mut pos) = start(rules) else {
        return false;
    };
    for &code in moves {
        let mv = match code {
            PASS => Move::Pass,
            _ => match Square::new(code & 15, code >> 4) {
                Some(sq) => Move::Place(sq),
                None => return false,
            },
        };
        if pos.play(mv).is_err() {
            let may_pass = mv != Move::Pass && !explicit_passes && pos.must_pass();
            if !may_pass || pos.play(Move::Pass).is_err() || pos.play(mv).is_err() {
                return false;
            }
        }
    }
    let Some(outcome) = pos.outcome() else {
        return false;
    };
    match claim {
        None => true,
        Some((black, white)) => rules.players() == 2 && outcome.score[..2] == [black, white],
    }
}

/// Two-player rules from a standard opening without a disc supply, on any board up to
/// 10x10, as `u128` bitboards with bit `row * side + col`: squares off the board or
/// blocked are never occupied, so runs stop there on their own.
#[derive(Clone, Debug)]
pub(crate) struct Wide {
    rules: Rules,
    side: u8,
    rays: &'static [[u128; 8]; 100],
    playable: u128,
    /// Black's and White's discs at the start.
    start: [u128; 2],
}

impl Wide {
    /// The board of `rules`, if [`Wide`] can replay them.
    fn of(rules: &Rules) -> Option<Wide> {
        let side = rules.board().side();
        if rules.players() != 2
            || rules.opening() != Opening::Standard
            || rules.supply().is_some()
            || side > 10
        {
            return None;
        }
        let pos = start(rules)?;
        if pos.turn() != Color::Black || !pos.neutral().is_empty() {
            return None;
        }
        let bits = |set: crate::engine::SquareSet| {
            set.iter()
                .fold(0u128, |acc, sq| acc | 1 << (sq.row() * side + sq.col()))
        };
        Some(Wide {
            rules: *rules,
            side,
            rays: wide_rays(side),
            playable: bits(rules.playable()),
            start: [bits(pos.discs(Color::Black)), bits(pos.discs(Color::White))],
        })
    }

    /// The discs of `opp` a disc of `own` on bit `sq` flips.
    #[inline]
    fn flips(&self, own: u128, opp: u128, sq: usize) -> u128 {
        let rays = &self.rays[sq];
        let mut flipped = 0;
        for &ray in &rays[..4] {
            let stop = ray & !opp;
            let first = stop & stop.wrapping_neg();
            flipped |= ray & first.wrapping_sub(1) & u128::from(first & own != 0).wrapping_neg();
        }
        for &ray in &rays[4..] {
            let stop = ray & !opp;
            let first = (1u128 << 127).wrapping_shr(stop.leading_zeros()) & stop;
            flipped |= ray
                & !(first | first.wrapping_sub(1))
                & u128::from(first & own != 0).wrapping_neg();
        }
        flipped
    }

    /// The discs a disc of `own` on bit `sq` flips, when the move is legal: on an empty
    /// playable square, flipping something.
    #[inline]
    fn place(&self, own: u128, opp: u128, sq: usize) -> Option<u128> {
        if self.playable & !(own | opp) & (1u128 << sq) == 0 {
            return None;
        }
        Some(self.flips(own, opp, sq)).filter(|&f| f != 0)
    }

    /// Whether `own` has a move.
    fn can_move(&self, own: u128, opp: u128) -> bool {
        let mut empty = self.playable & !(own | opp);
        while empty != 0 {
            let sq = empty.trailing_zeros() as usize;
            if self.flips(own, opp, sq) != 0 {
                return true;
            }
            empty &= empty - 1;
        }
        false
    }

    /// [`replay`] on this board.
    fn replay(&self, moves: &[u8], explicit_passes: bool, claim: Option<(u8, u8)>) -> bool {
        let [mut own, mut opp] = self.start;
        let mut black_to_move = true;
        for &code in moves {
            if code == PASS {
                if self.can_move(own, opp) || !self.can_move(opp, own) {
                    return false;
                }
            } else {
                let (row, col) = (code >> 4, code & 15);
                if row >= self.side || col >= self.side {
                    return false;
                }
                let sq = usize::from(row * self.side + col);
                let flipped = match self.place(own, opp, sq) {
                    Some(flipped) => flipped,
                    None => {
                        if explicit_passes || self.can_move(own, opp) {
                            return false;
                        }
                        std::mem::swap(&mut own, &mut opp);
                        black_to_move = !black_to_move;
                        match self.place(own, opp, sq) {
                            Some(flipped) => flipped,
                            None => return false,
                        }
                    }
                };
                own |= 1u128 << sq | flipped;
                opp &= !flipped;
            }
            std::mem::swap(&mut own, &mut opp);
            black_to_move = !black_to_move;
        }
        if self.can_move(own, opp) || self.can_move(opp, own) {
            return false;
        }
        let Some((claimed_black, claimed_white)) = claim else {
            return true;
        };
        let (black, white) = if black_to_move {
            (own, opp)
        } else {
            (opp, own)
        };
        let (black, white) = (black.count_ones() as u8, white.count_ones() as u8);
        let empty = self.playable.count_ones() as u8 - black - white;
        let outcome = Outcome::new(&self.rules, [black, white, 0, 0], 0, empty);
        outcome.score[..2] == [claimed_black, claimed_white]
    }
}

/// The rays of a board of `side` squares a side, made once.
fn wide_rays(side: u8) -> &'static [[u128; 8]; 100] {
    static TABLES: [OnceLock<Box<[[u128; 8]; 100]>>; 11] = [const { OnceLock::new() }; 11];
    TABLES[usize::from(side.min(10))].get_or_init(|| {
        let mut table = Box::new([[0u128; 8]; 100]);
        let side = i8::try_from(side.min(10)).unwrap_or(10);
        for row in 0..side {
            for col in 0..side {
                for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                    let (mut r, mut c) = (row + dr, col + dc);
                    while (0..side).contains(&r) && (0..side).contains(&c) {
                        table[(row * side + col) as usize][d] |= 1u128 << (r * side + c);
                        r += dr;
                        c += dc;
                    }
                }
            }
        }
        table
    })
}

/// The `u64` replay of standard Othello behind [`QuickMoves::is_clean`], over the moves'
/// codes as they come (a reader may decode them on the way).
#[inline]
pub(crate) fn replay(
    moves: impl IntoIterator<Item = impl std::borrow::Borrow<u8>>,
    explicit_passes: bool,
    claim: Option<(u8, u8)>,
) -> bool {
    let (mut own, mut opp) = (START_BLACK, START_WHITE);
    let mut black_to_move = true;
    for code in moves {
        let code = *code.borrow();
        let (row, col) = (code >> 4, code & 15);
        let mv = row * 8 + col;
        if code == PASS {
            // A pass is legal only for a player without a move, in a game not yet over.
            if mobility(own, opp) != 0 || mobility(opp, own) == 0 {
                return false;
            }
        } else {
            if row >= 8 || col >= 8 {
                return false;
            }
            let m = 1u64 << mv;
            if (own | opp) & m != 0 {
                return false;
            }
            let mut flipped = flips(own, opp, mv);
            if flipped == 0 {
                // Illegal, unless the mover had to pass first and the record leaves its
                // passes out.
                if explicit_passes || mobility(own, opp) != 0 {
                    return false;
                }
                std::mem::swap(&mut own, &mut opp);
                black_to_move = !black_to_move;
                flipped = flips(own, opp, mv);
                if flipped == 0 {
                    return false;
                }
            }
            own |= m | flipped;
            opp &= !flipped;
        }
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
    }
    if own | opp != u64::MAX && (mobility(own, opp) != 0 || mobility(opp, own) != 0) {
        // Unfinished: the validator warns.
        return false;
    }
    let Some((claimed_black, claimed_white)) = claim else {
        return true;
    };
    let (black, white) = if black_to_move {
        (own.count_ones(), opp.count_ones())
    } else {
        (opp.count_ones(), own.count_ones())
    };
    let empty = 64 - black - white;
    let score = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empty,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empty / 2,
    };
    score == u32::from(claimed_black) && 64 - score == u32::from(claimed_white)
}

/// The eight directions as `(row step, column step)`.
const DIRECTIONS: [(i8, i8); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// `RAYS[sq][d]`: the squares from `sq` (excluded) to the edge in direction `d`. The first
/// four directions go up the bit order, the last four down.
static RAYS: [[u64; 8]; 64] = rays();

const fn rays() -> [[u64; 8]; 64] {
    let mut table = [[0u64; 8]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut d = 0;
        while d < 8 {
            let (dr, dc) = DIRECTIONS[d];
            let (mut r, mut c) = ((sq / 8) as i8 + dr, (sq % 8) as i8 + dc);
            while r >= 0 && r < 8 && c >= 0 && c < 8 {
                table[sq][d] |= 1u64 << (r * 8 + c);
                r += dr;
                c += dc;
            }
            d += 1;
        }
        sq += 1;
    }
    table
}

/// The discs of `opp` that a disc of `own` on `sq` (`row * 8 + col`) flips: on each ray from `sq`, the run
/// of `opp` discs before the first square that is not one, if that square is `own`'s.
/// Branch-free, so that the loop over the rays unrolls.
#[inline]
pub(crate) fn flips(own: u64, opp: u64, sq: u8) -> u64 {
    let rays = &RAYS[usize::from(sq & 63)];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        // Up the bit order: the lowest such square.
        let stop = ray & !opp;
        let first = stop & stop.wrapping_neg();
        let taken = u64::from(first & own != 0).wrapping_neg();
        flipped |= ray & first.wrapping_sub(1) & taken;
    }
    for &ray in &rays[4..] {
        // Down the bit order: the highest (none when `stop` is 0: the shift by 64 wraps
        // to 0 and the mask clears it).
        let stop = ray & !opp;
        let first = (1u64 << 63).wrapping_shr(stop.leading_zeros()) & stop;
        let taken = u64::from(first & own != 0).wrapping_neg();
        flipped |= ray & !(first | first.wrapping_sub(1)) & taken;
    }
    flipped
}

/// Squares where `own` may play.
#[inline]
pub(crate) fn mobility(own: u64, opp: u64) -> u64 {
    let empty = !(own | opp);
    let mut moves = 0;
    // Runs that move sideways may not cross the a- or h-file, or they would wrap.
    let horizontal = opp & 0x7e7e_7e7e_7e7e_7e7e;
    for (shift, mask) in [
        (1u32, horizontal),
        (8, opp),
        (7, horizontal),
        (9, horizontal),
    ] {
        let mut up = mask & (own << shift);
        let mut down = mask & (own >> shift);
        for _ in 0..5 {
            up |= mask & (up << shift);
            down |= mask & (down >> shift);
        }
        moves |= (up << shift) | (down >> shift);
    }
    moves & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square_index(sq: Square) -> u8 {
        sq.row() * 8 + sq.col()
    }

    /// Walks random games with the engine, checking flips and mobility at every step.
    #[test]
    fn flips_and_mobility_agree_with_the_engine() {
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for _ in 0..300 {
            let mut pos = Position::new(Rules::default());
            let mut moves = QuickMoves::default();
            while !pos.is_over() {
                let (own, opp) = bitboards(&pos);
                let legal = pos.legal_moves();
                let mut expected = 0u64;
                for sq in legal.iter() {
                    expected |= 1 << square_index(sq);
                }
                assert_eq!(mobility(own, opp), expected, "{pos}");
                if legal.is_empty() {
                    pos.play(Move::Pass).unwrap();
                    continue;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                let sq = legal.iter().nth(seed as usize % legal.len()).unwrap();
                let flipped = pos.play_with_flips(Move::Place(sq)).unwrap();
                let mut expected = 0u64;
                for f in flipped.iter() {
                    expected |= 1 << square_index(f);
                }
                assert_eq!(flips(own, opp, square_index(sq)), expected);
                moves.push(code(sq.col(), sq.row()));
            }
            let outcome = pos.outcome().unwrap();
            let (black, white) = (outcome.score[0], outcome.score[1]);
            let rules = Rules::default();
            assert!(moves.is_clean(&rules, Some((black, white))));
            assert!(moves.is_clean(&rules, None));
            assert!(!moves.is_clean(&rules, Some((black ^ 1, white))));
            assert!(!moves.is_clean(&rules, Some((black, white ^ 1))));
            // The engine's replay agrees.
            assert!(replay_engine(
                &rules,
                moves.as_slice(),
                false,
                Some((black, white))
            ));
            assert!(
                !replay_engine(&rules, moves.as_slice(), false, Some((white, black)))
                    || black == white
            );
        }
    }

    /// The mover's and the opponent's discs.
    fn bitboards(pos: &Position) -> (u64, u64) {
        let bits = |c| {
            pos.discs(c)
                .iter()
                .fold(0u64, |acc, sq| acc | 1 << square_index(sq))
        };
        (bits(pos.turn()), bits(pos.turn().next(2)))
    }

    /// The `u128` replay agrees with the engine's on random games of many rules, and on
    /// copies with one move changed to any square (blocked and off-board ones included).
    #[test]
    fn the_wide_replay_agrees_with_the_engine() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize % n
        };
        let mut agreed_clean = 0;
        for name in [
            "othello:10x10",
            "othello:octagon",
            "othello:6x6",
            "othello:4x4",
            "anti",
            "anti:10x10,scoring=raw",
            "othello,blocked=c4+f6",
            "othello:10x10,blocked=e4+g7,handicap=white:2",
            "othello,scoring=raw",
        ] {
            let rules: Rules = name.parse().unwrap();
            let wide = Wide::of(&rules).unwrap();
            for k in 0..200 {
                let mut pos = Position::new(rules);
                let mut moves = Vec::new();
                let explicit = k % 2 == 0;
                while !pos.is_over() {
                    let legal: Vec<_> = pos.legal_moves().iter().collect();
                    if legal.is_empty() {
                        pos.play(Move::Pass).unwrap();
                        if explicit {
                            moves.push(PASS);
                        }
                        continue;
                    }
                    // Every square's legality, blocked and off-board ones included.
                    let side = rules.board().side();
                    let bits = |set: crate::engine::SquareSet| {
                        set.iter()
                            .fold(0u128, |acc, s| acc | 1 << (s.row() * side + s.col()))
                    };
                    let own = bits(pos.discs(pos.turn()));
                    let opp = bits(pos.discs(pos.turn().next(2)));
                    for (row, col) in (0..side).flat_map(|r| (0..side).map(move |c| (r, c))) {
                        let target = Square::new(col, row).unwrap();
                        let legal_here = pos.clone().play(Move::Place(target)).is_ok();
                        let index = usize::from(row * side + col);
                        assert_eq!(
                            wide.place(own, opp, index).is_some(),
                            legal_here,
                            "{name} {target}"
                        );
                    }
                    let sq = legal[next(legal.len())];
                    pos.play(Move::Place(sq)).unwrap();
                    moves.push(code(sq.col(), sq.row()));
                }
                let outcome = pos.outcome().unwrap();
                let mut claim = Some((outcome.score[0], outcome.score[1]));
                if k % 3 == 1 && !moves.is_empty() {
                    let at = next(moves.len());
                    moves[at] = code(next(11) as u8, next(11) as u8);
                }
                if k % 5 == 2 {
                    claim = Some((outcome.score[1], outcome.score[0]));
                }
                let engine = replay_engine(&rules, &moves, explicit, claim);
                assert_eq!(
                    wide.replay(&moves, explicit, claim),
                    engine,
                    "{name}: {moves:?}"
                );
                agreed_clean += usize::from(engine);
            }
        }
        assert!(agreed_clean > 500, "{agreed_clean}");
    }

    #[test]
    fn passes_follow_the_validator() {
        // An unfinished game is not clean; neither is an illegal move or a needless pass.
        let f5 = code(5, 4);
        assert!(!replay([f5], false, None));
        assert!(!replay([0], false, None));
        assert!(!replay([code(8, 4)], false, None));
        assert!(!replay([PASS], true, None));
    }
}
