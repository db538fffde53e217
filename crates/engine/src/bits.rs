//! Bitboards: one bit per square, in two layouts.
//!
//! * `u64`: boards up to 8x8, 8 bits per row; shifts that cross a row edge are masked.
//! * `u128`: boards up to 10x10, 11 bits per row; the 11th column is never a square, so a
//!   run that walks off a row edge lands on it and stops, with no masks needed.
//!
//! Smaller boards and the octagon live in the same layouts: squares outside the board are
//! simply never playable, so they break runs exactly like the edge.

use std::fmt::Debug;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

use super::square::{Square, SquareSet, MAX_SIDE};

/// A bitboard layout. Implemented by `u64` (up to 8x8) and `u128` (up to 10x10).
pub trait Bits:
    Copy
    + Eq
    + Default
    + Debug
    + Send
    + Sync
    + 'static
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
    + BitAndAssign
    + BitOrAssign
    + BitXorAssign
{
    /// No squares.
    const ZERO: Self;
    /// Bits per row.
    const STRIDE: u32;
    /// Largest board side the layout holds.
    const SIDE: u8;
    /// Squares whose east neighbour is inside the layout (sources of eastward shifts).
    const EAST_SOURCES: Self;
    /// Squares whose west neighbour is inside the layout (sources of westward shifts).
    const WEST_SOURCES: Self;

    /// The bit at `index`.
    fn bit(index: u32) -> Self;
    /// Shift towards higher indexes.
    fn shl(self, n: u32) -> Self;
    /// Shift towards lower indexes.
    fn shr(self, n: u32) -> Self;
    /// Number of set bits.
    fn count(self) -> u32;
    /// Index of the lowest set bit (`self` must not be zero).
    fn lowest(self) -> u32;
    /// Whether no bit is set.
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }

    /// The bit index of `sq` in this layout, if the layout holds it (a table look-up: it
    /// runs once per move replayed).
    #[inline]
    fn index_of(sq: Square) -> Option<u32> {
        let index = layout_indexes(Self::STRIDE)[sq.index() as usize];
        (index != NO_INDEX).then_some(index as u32)
    }

    /// The square at bit `index`.
    fn square_at(index: u32) -> Option<Square> {
        let (row, col) = (index / Self::STRIDE, index % Self::STRIDE);
        if col >= Self::SIDE as u32 {
            return None;
        }
        Square::new(col as u8, row as u8)
    }

    /// Converts to the layout-independent [`SquareSet`].
    fn to_set(self) -> SquareSet;

    /// The squares of row `row` (0-based) as bits, bit `col`.
    fn row(self, row: u32) -> u16;

    /// Converts from a [`SquareSet`], dropping squares the layout cannot hold.
    fn from_set(set: SquareSet) -> Self {
        let mut bits = Self::ZERO;
        for sq in set {
            if let Some(i) = Self::index_of(sq) {
                bits |= Self::bit(i);
            }
        }
        bits
    }

    /// Neighbour in direction `dir` (0..8: E, W, S, N, SE, SW, NE, NW) of every set bit.
    #[inline(always)]
    fn shift(self, dir: usize) -> Self {
        let s = Self::STRIDE;
        match dir {
            0 => (self & Self::EAST_SOURCES).shl(1),
            1 => (self & Self::WEST_SOURCES).shr(1),
            2 => self.shl(s),
            3 => self.shr(s),
            4 => (self & Self::EAST_SOURCES).shl(s + 1),
            5 => (self & Self::WEST_SOURCES).shl(s - 1),
            6 => (self & Self::EAST_SOURCES).shr(s - 1),
            _ => (self & Self::WEST_SOURCES).shr(s + 1),
        }
    }

    /// Every set bit moved `n` steps in direction `dir`, with no edge masks: callers keep runs
    /// inside [`Bits::run_mask`] so that nothing wraps around a row.
    #[inline(always)]
    fn step(self, dir: usize, n: u32) -> Self {
        let s = Self::STRIDE;
        match dir {
            0 => self.shl(n),
            1 => self.shr(n),
            2 => self.shl(s * n),
            3 => self.shr(s * n),
            4 => self.shl((s + 1) * n),
            5 => self.shl((s - 1) * n),
            6 => self.shr((s - 1) * n),
            _ => self.shr((s + 1) * n),
        }
    }

    /// Squares a run in direction `dir` may pass through: runs with a sideways component
    /// never include the layout's edge columns, so unmasked [`Bits::step`]s cannot wrap.
    #[inline(always)]
    fn run_mask(dir: usize) -> Self {
        if dir == 2 || dir == 3 {
            !Self::ZERO
        } else {
            Self::EAST_SOURCES & Self::WEST_SOURCES
        }
    }

    /// Every square adjacent (edge or corner) to a set bit.
    #[inline]
    fn neighbours(self) -> Self {
        let mut n = Self::ZERO;
        for dir in 0..8 {
            n |= self.shift(dir);
        }
        n
    }
}

/// Marks a square a layout does not hold in [`layout_indexes`].
const NO_INDEX: u8 = u8::MAX;

/// Bit index in each layout of every square of the 10x10 grid, by [`Square::index`].
const fn index_table(stride: u8, side: u8) -> [u8; 100] {
    let mut table = [NO_INDEX; 100];
    let mut i = 0;
    while i < 100 {
        let (row, col) = (i as u8 / MAX_SIDE, i as u8 % MAX_SIDE);
        if row < side && col < side {
            table[i] = row * stride + col;
        }
        i += 1;
    }
    table
}

const INDEXES_8: [u8; 100] = index_table(8, 8);
const INDEXES_11: [u8; 100] = index_table(11, 10);

#[inline(always)]
fn layout_indexes(stride: u32) -> &'static [u8; 100] {
    if stride == 8 {
        &INDEXES_8
    } else {
        &INDEXES_11
    }
}

const NOT_FILE_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_FILE_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

impl Bits for u64 {
    const ZERO: u64 = 0;
    const STRIDE: u32 = 8;
    const SIDE: u8 = 8;
    const EAST_SOURCES: u64 = NOT_FILE_H;
    const WEST_SOURCES: u64 = NOT_FILE_A;

    #[inline(always)]
    fn bit(index: u32) -> u64 {
        1 << index
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u64 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u64 {
        self >> n
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn row(self, row: u32) -> u16 {
        ((self >> (8 * row)) & 0xff) as u16
    }
    fn from_set(set: SquareSet) -> u64 {
        let mut bits = 0u64;
        for row in 0..8 {
            bits |= (((set.0 >> (MAX_SIDE as u32 * row)) & 0xff) as u64) << (8 * row);
        }
        bits
    }
    #[inline]
    fn to_set(self) -> SquareSet {
        // Rows move from 8 to 10 bits apart: four rows at a time, each half in a u64,
        // with rows 2-3 moved up 4 bits and then odd rows 2 more.
        #[inline(always)]
        fn spread_four_rows(x: u64) -> u64 {
            let x = (x & 0xffff) | ((x & 0xffff_0000) << 4);
            (x & !0x0000_000f_f000_ff00) | ((x & 0x0000_000f_f000_ff00) << 2)
        }
        debug_assert_eq!(MAX_SIDE, 10);
        let low = spread_four_rows(self & 0xffff_ffff);
        let high = spread_four_rows(self >> 32);
        SquareSet(u128::from(low) | (u128::from(high) << 40))
    }
}

impl Bits for u128 {
    const ZERO: u128 = 0;
    const STRIDE: u32 = 11;
    const SIDE: u8 = 10;
    const EAST_SOURCES: u128 = u128::MAX;
    const WEST_SOURCES: u128 = u128::MAX;

    #[inline(always)]
    fn bit(index: u32) -> u128 {
        1 << index
    }
    #[inline(always)]
    fn shl(self, n: u32) -> u128 {
        self << n
    }
    #[inline(always)]
    fn shr(self, n: u32) -> u128 {
        self >> n
    }
    #[inline(always)]
    fn count(self) -> u32 {
        self.count_ones()
    }
    #[inline(always)]
    fn lowest(self) -> u32 {
        self.trailing_zeros()
    }
    #[inline(always)]
    fn row(self, row: u32) -> u16 {
        ((self >> (11 * row)) & 0x3ff) as u16
    }
    fn from_set(set: SquareSet) -> u128 {
        let mut bits = 0u128;
        for row in 0..10 {
            bits |= ((set.0 >> (MAX_SIDE as u32 * row)) & 0x3ff) << (11 * row);
        }
        bits
    }
    fn to_set(self) -> SquareSet {
        let mut set = 0u128;
        for row in 0..10 {
            set |= ((self >> (11 * row)) & 0x3ff) << (MAX_SIDE as u32 * row);
        }
        SquareSet(set)
    }
}

/// Iterates over the set bits of a bitboard, lowest first.
#[derive(Clone, Copy, Debug)]
pub struct BitIter<B>(pub B);

impl<B: Bits> Iterator for BitIter<B> {
    type Item = u32;
    #[inline]
    fn next(&mut self) -> Option<u32> {
        if self.0.is_zero() {
            return None;
        }
        let i = self.0.lowest();
        self.0 ^= B::bit(i);
        Some(i)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn round_trip<B: Bits>() {
        for index in 0..100u8 {
            let sq = Square::from_index(index).unwrap();
            let Some(i) = B::index_of(sq) else { continue };
            assert_eq!(B::square_at(i), Some(sq));
            assert_eq!(B::bit(i).to_set(), SquareSet::single(sq));
            assert_eq!(B::from_set(SquareSet::single(sq)), B::bit(i));
        }
    }

    #[test]
    fn whole_boards_convert_square_by_square() {
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        for _ in 0..200 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let expected: SquareSet = BitIter(x).filter_map(<u64 as Bits>::square_at).collect();
            assert_eq!(x.to_set(), expected, "{x:#x}");
            assert_eq!(u64::from_set(expected), x);
        }
        assert_eq!(u64::MAX.to_set().len(), 64);
    }

    #[test]
    fn layouts_map_squares_both_ways() {
        round_trip::<u64>();
        round_trip::<u128>();
    }

    #[test]
    fn shifts_never_wrap_around_a_row() {
        fn check<B: Bits>() {
            for index in 0..100u8 {
                let sq = Square::from_index(index).unwrap();
                let Some(i) = B::index_of(sq) else { continue };
                for dir in 0..8 {
                    let (dc, dr) = [
                        (1, 0),
                        (-1, 0),
                        (0, 1),
                        (0, -1),
                        (1, 1),
                        (-1, 1),
                        (1, -1),
                        (-1, -1),
                    ][dir];
                    let (c, r) = (sq.col() as i32 + dc, sq.row() as i32 + dr);
                    let side = B::SIDE as i32;
                    let expected = if (0..side).contains(&c) && (0..side).contains(&r) {
                        SquareSet::single(Square::new(c as u8, r as u8).unwrap())
                    } else {
                        SquareSet::EMPTY
                    };
                    assert_eq!(B::bit(i).shift(dir).to_set(), expected, "{sq} dir {dir}");
                }
            }
        }
        check::<u64>();
        check::<u128>();
    }
}
