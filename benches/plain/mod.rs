//! The plain replay the `formats` benchmark's plain loops share, independent of the crate:
//! an ordinary 8x8 bitboard engine, a1 = bit 0, h8 = bit 63, flips from precomputed rays
//! without branches, mobility only when a move flips nothing (a pass) and at the end.
//!
//! A move is a square, `row * 8 + col` (0-63), or [`PASS`].

/// An explicit pass in a list of squares.
pub const PASS: u8 = 64;

/// The most moves a game may have here (passes included); a longer game is not plain.
pub const MAX_MOVES: usize = 128;

/// The eight directions as (row step, column step): four up the bit order, four down.
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

/// `RAYS[sq][d]`: the squares from `sq` (excluded) to the edge in direction `d`.
static RAYS: [[u64; 8]; 64] = {
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
};

/// Discs flipped by a disc of `own` on `sq`.
#[inline]
pub fn flips(own: u64, opp: u64, sq: usize) -> u64 {
    let rays = &RAYS[sq];
    let mut flipped = 0;
    for &ray in &rays[..4] {
        let stop = ray & !opp;
        let first = stop & stop.wrapping_neg();
        flipped |= ray & first.wrapping_sub(1) & u64::from(first & own != 0).wrapping_neg();
    }
    for &ray in &rays[4..] {
        let stop = ray & !opp;
        let first = (1u64 << 63).wrapping_shr(stop.leading_zeros()) & stop;
        flipped |=
            ray & !(first | first.wrapping_sub(1)) & u64::from(first & own != 0).wrapping_neg();
    }
    flipped
}

/// Squares where `own` may play.
#[inline]
pub fn moves(own: u64, opp: u64) -> u64 {
    let inner = opp & 0x7e7e_7e7e_7e7e_7e7e;
    let mut found = 0;
    for (shift, mask) in [(1u32, inner), (8, opp), (7, inner), (9, inner)] {
        let (mut up, mut down) = (mask & (own << shift), mask & (own >> shift));
        for _ in 0..5 {
            up |= mask & (up << shift);
            down |= mask & (down >> shift);
        }
        found |= (up << shift) | (down >> shift);
    }
    found & !(own | opp)
}

/// What a game claims as its result.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Claim {
    /// No result.
    Nothing,
    /// Black's and White's discs (winner gets the empties).
    Discs(u8, u8),
    /// Black's score minus White's (GGF `RE[+8.000]`, SGF `RE[W+8]`).
    Margin(i16),
}

/// The end of a replay: whether the claim is right. An unfinished game has nothing to
/// check it against: it is valid (the validator warns).
#[inline]
fn finished_with(own: u64, opp: u64, black_to_move: bool, claim: Claim) -> bool {
    if claim == Claim::Nothing
        || (own | opp != u64::MAX && (moves(own, opp) != 0 || moves(opp, own) != 0))
    {
        return true;
    }
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
    match claim {
        Claim::Nothing => true,
        Claim::Discs(b, w) => score == u32::from(b) && 64 - score == u32::from(w),
        Claim::Margin(m) => 2 * score as i16 - 64 == m,
    }
}

/// The start: Black's and White's discs.
const START: (u64, u64) = (0x0000_0008_1000_0000, 0x0000_0010_0800_0000);

/// Replays squares (0-63; [`PASS`] an explicit pass) from the start position. Passes are
/// inferred where the mover has no move, unless `explicit` (the record writes its passes:
/// then a missing one is an error). The claim must be right for a finished game.
#[inline]
pub fn replay(squares: impl Iterator<Item = u8>, explicit: bool, claim: Claim) -> bool {
    let (mut own, mut opp) = START;
    let mut black_to_move = true;
    for sq in squares {
        if sq >= PASS {
            if sq > PASS || moves(own, opp) != 0 || moves(opp, own) == 0 {
                return false;
            }
        } else {
            let m = 1u64 << sq;
            if (own | opp) & m != 0 {
                return false;
            }
            let mut f = flips(own, opp, usize::from(sq));
            if f == 0 {
                if explicit || moves(own, opp) != 0 {
                    return false;
                }
                std::mem::swap(&mut own, &mut opp);
                black_to_move = !black_to_move;
                f = flips(own, opp, usize::from(sq));
                if f == 0 {
                    return false;
                }
            }
            own |= m | f;
            opp &= !f;
        }
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
    }
    finished_with(own, opp, black_to_move, claim)
}

/// A game's squares, gathered by a scan without allocating.
pub struct Squares {
    squares: [u8; MAX_MOVES],
    len: usize,
    explicit: bool,
}

impl Squares {
    pub fn new() -> Squares {
        Squares {
            squares: [0; MAX_MOVES],
            len: 0,
            explicit: false,
        }
    }

    /// Adds a square or [`PASS`]; `false` when the list is full.
    #[inline]
    pub fn push(&mut self, sq: u8) -> bool {
        if self.len == MAX_MOVES {
            return false;
        }
        self.explicit |= sq == PASS;
        self.squares[self.len] = sq;
        self.len += 1;
        true
    }

    /// Replays the squares: passes are inferred unless one was written.
    #[inline]
    pub fn replay(&self, claim: Claim) -> bool {
        replay(
            self.squares[..self.len].iter().copied(),
            self.explicit,
            claim,
        )
    }

    /// Replays the squares with every pass written (the moves claim their colours).
    #[inline]
    pub fn replay_strict(&self, claim: Claim) -> bool {
        replay(self.squares[..self.len].iter().copied(), true, claim)
    }
}

/// The square of a column letter (either case) and a row digit, 8x8.
#[inline]
pub fn square(col: u8, row: u8) -> Option<u8> {
    let col = col | 0x20;
    if (b'a'..=b'h').contains(&col) && (b'1'..=b'8').contains(&row) {
        Some((row - b'1') * 8 + (col - b'a'))
    } else {
        None
    }
}

/// A whole decimal number of at most three digits.
#[inline]
pub fn number(digits: &[u8]) -> Option<u16> {
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    Some(
        digits
            .iter()
            .fold(0u16, |n, &d| n * 10 + u16::from(d - b'0')),
    )
}

/// `B-W` disc counts.
#[inline]
pub fn discs(text: &[u8]) -> Option<(u8, u8)> {
    let dash = text.iter().position(|&b| b == b'-')?;
    let black = u8::try_from(number(&text[..dash])?).ok()?;
    let white = u8::try_from(number(&text[dash + 1..])?).ok()?;
    Some((black, white))
}
