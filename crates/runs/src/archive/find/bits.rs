//! The board's symmetries on square sets and on 8x8 bitboards, and the canonical hash of
//! an 8x8 position (the least of its images' hashes), which the index keys on.

use crate::engine::SquareSet;
use crate::event::Symmetry;

/// The image of `set` under `symmetry` on a board of `side` squares a side.
pub(crate) fn transform_set(symmetry: Symmetry, side: u8, set: SquareSet) -> SquareSet {
    symmetry.apply_set(side, set)
}

/// Rows mirrored (row r to 7 - r) on the 8x8 layout (bit `row * 8 + col`).
#[inline]
fn flip_rows(x: u64) -> u64 {
    x.swap_bytes()
}

/// Columns mirrored (col c to 7 - c).
#[inline]
fn flip_columns(x: u64) -> u64 {
    const K1: u64 = 0x5555_5555_5555_5555;
    const K2: u64 = 0x3333_3333_3333_3333;
    const K4: u64 = 0x0f0f_0f0f_0f0f_0f0f;
    let x = ((x >> 1) & K1) | ((x & K1) << 1);
    let x = ((x >> 2) & K2) | ((x & K2) << 2);
    ((x >> 4) & K4) | ((x & K4) << 4)
}

/// Reflected on the a1-h8 diagonal: `(col, row)` to `(row, col)`.
#[inline]
fn transpose(x: u64) -> u64 {
    const K1: u64 = 0x5500_5500_5500_5500;
    const K2: u64 = 0x3333_0000_3333_0000;
    const K4: u64 = 0x0f0f_0f0f_0000_0000;
    let mut x = x;
    let t = K4 & (x ^ (x << 28));
    x ^= t ^ (t >> 28);
    let t = K2 & (x ^ (x << 14));
    x ^= t ^ (t >> 14);
    let t = K1 & (x ^ (x << 7));
    x ^= t ^ (t >> 7);
    x
}

/// The image of an 8x8 bitboard under `symmetry`, as [`Symmetry::apply`] moves squares.
#[inline]
pub(crate) fn transform_u64(symmetry: Symmetry, x: u64) -> u64 {
    match symmetry {
        Symmetry::Identity => x,
        // (c, r) -> (7 - r, c): transposed, then columns mirrored.
        Symmetry::Quarter => flip_columns(transpose(x)),
        Symmetry::Half => flip_rows(flip_columns(x)),
        // (c, r) -> (r, 7 - c): transposed, then rows mirrored.
        Symmetry::ThreeQuarters => flip_rows(transpose(x)),
        Symmetry::Columns => flip_columns(x),
        Symmetry::Rows => flip_rows(x),
        Symmetry::Diagonal => transpose(x),
        Symmetry::AntiDiagonal => flip_rows(flip_columns(transpose(x))),
    }
}

/// A strong 64-bit mixer (the splitmix64 finalizer): a bijection.
#[inline]
fn mix(mut z: u64) -> u64 {
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^ (z >> 31)
}

/// The hash of one 8x8 position: Black's and White's discs and whether Black is to move.
#[inline]
pub(crate) fn position_hash(black: u64, white: u64, black_to_move: bool) -> u64 {
    let turn = if black_to_move {
        0x2545_f491_4f6c_dd1d
    } else {
        0x9e37_79b9_7f4a_7c15
    };
    mix(mix(black ^ turn) ^ white.rotate_left(29) ^ 0x6a09_e667_f3bc_c909)
}

/// The least hash of the position's images under the eight symmetries: the same for a
/// position and each of its images.
#[inline]
pub(crate) fn canonical_hash(black: u64, white: u64, black_to_move: bool) -> u64 {
    Symmetry::ALL
        .iter()
        .map(|&s| {
            position_hash(
                transform_u64(s, black),
                transform_u64(s, white),
                black_to_move,
            )
        })
        .min()
        .unwrap_or(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Bits;

    #[test]
    fn bit_transforms_move_squares_as_symmetry_apply_does() {
        for s in Symmetry::ALL {
            for index in 0..64u32 {
                let sq = u64::square_at(index).unwrap();
                let (c, r) = s.apply(8, sq.col(), sq.row());
                let expected = 1u64 << (u32::from(r) * 8 + u32::from(c));
                assert_eq!(transform_u64(s, 1 << index), expected, "{s:?} {sq}");
                let set = transform_set(s, 8, SquareSet::single(sq));
                assert_eq!(u64::from_set(set), expected, "{s:?} {sq}");
            }
        }
    }

    #[test]
    fn the_canonical_hash_is_the_same_for_every_image() {
        let (black, white) = (0x0000_0018_3c00_0000_u64, 0x0000_0800_0010_0000_u64);
        let h = canonical_hash(black, white, true);
        for s in Symmetry::ALL {
            assert_eq!(
                canonical_hash(transform_u64(s, black), transform_u64(s, white), true),
                h
            );
        }
        assert_ne!(canonical_hash(black, white, false), h);
        assert_ne!(canonical_hash(white, black, true), h);
    }
}
