//! How likely a misreading is: the cost of each edit kind, lower is likelier.

use crate::engine::{Move, Square};

/// Digits that handwriting confuses (`6`/`8`, `1`/`7`, `3`/`8`, `5`/`6`, ...).
const DIGIT_PAIRS: [(u8, u8); 8] = [
    (6, 8),
    (1, 7),
    (3, 8),
    (5, 6),
    (0, 6),
    (0, 8),
    (4, 9),
    (2, 7),
];

/// Column letters that handwriting confuses (`a`/`d`, `b`/`h`, `c`/`e`, `e`/`f`, `g`/`a`,
/// `i`/`j`, `h`/`k`), as 0-based columns.
const LETTER_PAIRS: [(u8, u8); 7] = [(0, 3), (1, 7), (2, 4), (4, 5), (6, 0), (8, 9), (7, 10)];

fn confused(pairs: &[(u8, u8)], a: u8, b: u8) -> bool {
    pairs
        .iter()
        .any(|&(x, y)| (x, y) == (a, b) || (y, x) == (a, b))
}

/// Whether two row numbers (1-based, as written) differ by a confusable digit.
fn rows_confused(a: u8, b: u8) -> bool {
    confused(&DIGIT_PAIRS, a % 10, b % 10) && a / 10 == b / 10
}

/// Cost of swapping two moves `distance` apart: adjacent moves first.
pub(crate) fn swap(distance: usize) -> u32 {
    match distance {
        0 | 1 => 1,
        2 => 3,
        _ => 5,
    }
}

/// Cost of reading `written` where `played` was played: a neighbouring square (same column
/// or row) or a confused digit or letter is likely, a diagonal neighbour less so, any other
/// square least.
pub(crate) fn replace(written: Move, played: Square) -> u32 {
    let Move::Place(w) = written else {
        return 6;
    };
    let (dc, dr) = (
        w.col().abs_diff(played.col()),
        w.row().abs_diff(played.row()),
    );
    let (rw, rp) = (w.row() + 1, played.row() + 1);
    match (dc, dr) {
        (0, 1) | (1, 0) => 2,
        (0, _) if rows_confused(rw, rp) => 2,
        (_, 0) if confused(&LETTER_PAIRS, w.col(), played.col()) => 3,
        (1, 1) => 4,
        _ if w.col() == played.row() && w.row() == played.col() => 4,
        _ => 8,
    }
}

/// Cost of reading a coordinate written off the board (`written`: a row number such as
/// `0` or `11`, or a 0-based column such as `k`'s 10) as `meant`: a confused digit or
/// letter, a neighbour, or a digit typed twice (`11` for `1`) is likely; any other value
/// as unlikely as any other square.
pub(crate) fn off_board(written: u8, meant: u8, row: bool) -> u32 {
    let likely = if row {
        let doubled = written >= 10 && written % 11 == 0 && written / 11 == meant;
        doubled || rows_confused(written, meant)
    } else {
        confused(&LETTER_PAIRS, written, meant)
    };
    if likely || written.abs_diff(meant) == 1 {
        2
    } else {
        8
    }
}

/// Cost of deleting a move: a move written twice is likely; a move that was never played
/// at all is less likely than any misreading.
pub(crate) fn delete(doubled: bool) -> u32 {
    if doubled {
        1
    } else {
        9
    }
}

/// Cost of inserting a left-out move.
pub(crate) const INSERT: u32 = 4;

/// Cost of reading number `written` where `meant` was written on a transcript grid: one
/// confused digit or two transposed digits are likely, one other digit less so.
pub(crate) fn renumber(written: u32, meant: u32) -> u32 {
    let (w, m) = (written.to_string(), meant.to_string());
    if w.len() == m.len() {
        let diff: Vec<(u8, u8)> = w
            .bytes()
            .zip(m.bytes())
            .filter(|(a, b)| a != b)
            .map(|(a, b)| (a - b'0', b - b'0'))
            .collect();
        match diff.as_slice() {
            [(a, b)] if confused(&DIGIT_PAIRS, *a, *b) => return 2,
            [(a, b), (c, d)] if a == d && b == c => return 2,
            [_] => return 4,
            _ => {}
        }
    }
    if written.abs_diff(meant) == 1 {
        4
    } else {
        6
    }
}

/// Cost of a number left out of a grid (a square left empty).
pub(crate) const FILL: u32 = 4;

/// Cost of a number written on two squares, one of which stayed empty.
pub(crate) const ERASE: u32 = 3;

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        s.parse().unwrap()
    }

    #[test]
    fn neighbours_and_confusions_come_first() {
        let d3 = Move::Place(sq("d3"));
        assert_eq!(replace(d3, sq("d4")), 2);
        assert_eq!(replace(d3, sq("c3")), 2);
        assert_eq!(replace(d3, sq("d8")), 2, "3 for 8");
        assert_eq!(replace(Move::Place(sq("c6")), sq("c8")), 2, "6 for 8");
        assert_eq!(replace(d3, sq("a3")), 3, "a for d");
        assert_eq!(replace(d3, sq("e4")), 4);
        assert_eq!(replace(d3, sq("g7")), 8);
        assert_eq!(renumber(36, 38), 2);
        assert_eq!(renumber(23, 32), 2);
        assert_eq!(renumber(23, 24), 4);
        assert_eq!(renumber(9, 47), 6);
    }
}
