//! Where given bytes stand in a block of 64: one bit a byte, for the scanners that split a
//! file into games and would otherwise look at every byte in turn (JSON's objects).
//!
//! On x86_64 the block is compared 16 bytes at a time with SSE2, which every x86_64
//! processor has; elsewhere a byte loop gives the same masks.

/// Bytes per block.
pub(crate) const BLOCK: usize = 64;

/// What a mask marks.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Needle {
    /// This byte.
    Byte(u8),
    /// This byte with bit 5 (`0x20`) set or not: `}` and `]`, `{` and `[`, a letter in
    /// either case.
    EitherCase(u8),
}

impl Needle {
    /// Whether `byte` is one this needle marks.
    #[inline]
    fn matches(self, byte: u8) -> bool {
        match self {
            Needle::Byte(b) => byte == b,
            Needle::EitherCase(b) => byte | 0x20 == b | 0x20,
        }
    }
}

/// The masks of `needles` in `block`: bit `i` of the `n`-th mask is set when `block[i]` is
/// one `needles[n]` marks.
#[inline]
pub(crate) fn masks<const N: usize>(block: &[u8; BLOCK], needles: [Needle; N]) -> [u64; N] {
    #[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
    {
        sse2::masks(block, needles)
    }
    #[cfg(not(all(target_arch = "x86_64", target_feature = "sse2")))]
    {
        byte_by_byte(block, needles)
    }
}

/// [`masks`] a byte at a time: the portable path, and the oracle of the tests.
#[cfg_attr(all(target_arch = "x86_64", target_feature = "sse2"), allow(dead_code))]
#[inline]
fn byte_by_byte<const N: usize>(block: &[u8; BLOCK], needles: [Needle; N]) -> [u64; N] {
    let mut out = [0; N];
    for (i, &byte) in block.iter().enumerate() {
        for (mask, needle) in out.iter_mut().zip(needles) {
            *mask |= u64::from(needle.matches(byte)) << i;
        }
    }
    out
}

/// Each bit set where an odd number of the bits of `mask` up to and including it are set:
/// with `mask` a block's quotes, the bytes inside strings (their opening quotes included).
#[inline]
pub(crate) fn prefix_xor(mut mask: u64) -> u64 {
    for shift in [1, 2, 4, 8, 16, 32] {
        mask ^= mask << shift;
    }
    mask
}

#[cfg(all(target_arch = "x86_64", target_feature = "sse2"))]
mod sse2 {
    use std::arch::x86_64::{
        __m128i, _mm_cmpeq_epi8, _mm_movemask_epi8, _mm_or_si128, _mm_set1_epi8, _mm_set_epi64x,
    };

    use super::{Needle, BLOCK};

    /// 16 bytes in a register, built from two `u64`s (one unaligned load once compiled).
    #[inline]
    fn load(bytes: &[u8]) -> __m128i {
        let word = |at: usize| {
            let mut w = [0u8; 8];
            w.copy_from_slice(&bytes[at..at + 8]);
            i64::from_le_bytes(w)
        };
        // SAFETY: SSE2 is enabled at compile time (the `cfg` above), so the processor
        // running this code has it; the intrinsic reads no memory.
        unsafe { _mm_set_epi64x(word(8), word(0)) }
    }

    #[inline]
    pub(super) fn masks<const N: usize>(block: &[u8; BLOCK], needles: [Needle; N]) -> [u64; N] {
        let mut out = [0u64; N];
        // SAFETY: as in `load`: SSE2 is there, and these intrinsics touch only registers.
        unsafe {
            let case = _mm_set1_epi8(0x20);
            for (quarter, bytes) in block.chunks_exact(16).enumerate() {
                let v = load(bytes);
                let folded = _mm_or_si128(v, case);
                for (mask, needle) in out.iter_mut().zip(needles) {
                    let equal = match needle {
                        Needle::Byte(b) => _mm_cmpeq_epi8(v, _mm_set1_epi8(b as i8)),
                        Needle::EitherCase(b) => {
                            _mm_cmpeq_epi8(folded, _mm_set1_epi8((b | 0x20) as i8))
                        }
                    };
                    let bits = _mm_movemask_epi8(equal) as u32 & 0xffff;
                    *mask |= u64::from(bits) << (16 * quarter);
                }
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_masks_are_those_of_a_byte_loop() {
        let needles = [
            Needle::Byte(b'"'),
            Needle::Byte(b'\\'),
            Needle::Byte(b'\n'),
            Needle::EitherCase(b'{'),
            Needle::EitherCase(b'}'),
            Needle::Byte(0xff),
            Needle::Byte(0),
        ];
        const SOME: &[u8] = b"\"\\\n{}[]|;:\x02\x7f\xff\x00aA";
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for round in 0..2000 {
            let mut block = [0u8; BLOCK];
            for byte in block.iter_mut() {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly the bytes looked for, their neighbours and case partners.
                *byte = match round % 3 {
                    0 => seed as u8,
                    _ => SOME[seed as usize % SOME.len()],
                };
            }
            assert_eq!(masks(&block, needles), byte_by_byte(&block, needles));
        }
        let mut block = [b' '; BLOCK];
        block[..27].copy_from_slice(b"{\"move\":\"f5\"},[\"move\":\"d6\"]");
        let [quotes, closes] = masks(&block, [Needle::Byte(b'"'), Needle::EitherCase(b'}')]);
        assert_eq!(quotes.count_ones(), 8);
        assert_eq!(closes, 1 << 12 | 1 << 26);
    }

    #[test]
    fn prefix_xor_marks_the_bytes_inside_strings() {
        // `a"bc"d"e`: the quotes at 1, 4 and 6.
        let inside = prefix_xor(1 << 1 | 1 << 4 | 1 << 6);
        assert_eq!(inside & 0xff, 0b1100_1110);
        assert_eq!(inside >> 6, u64::MAX >> 6);
        assert_eq!(prefix_xor(0), 0);
    }
}
