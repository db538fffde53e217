//! Board shapes: which squares of the 10x10 grid a board has.

use std::fmt;

use super::square::{Square, SquareSet, MAX_SIDE};

/// The shape of a board.
///
/// ```
/// use reversi_engine::BoardShape;
/// assert_eq!(BoardShape::Octagon.cells().len(), 88);
/// assert_eq!("10x10".parse::<BoardShape>().unwrap(), BoardShape::Ten);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub enum BoardShape {
    /// 4x4, found in early GGS archives.
    Four,
    /// 6x6.
    Six,
    /// 8x8, standard Othello.
    #[default]
    Eight,
    /// 10x10, Grand Othello.
    Ten,
    /// 10x10 without a 3-square triangle at each corner (88 squares, GGS type `88`).
    Octagon,
}

impl BoardShape {
    /// Every shape, smallest first.
    pub const ALL: [BoardShape; 5] = [
        BoardShape::Four,
        BoardShape::Six,
        BoardShape::Eight,
        BoardShape::Ten,
        BoardShape::Octagon,
    ];

    /// Squares per side of the enclosing square grid.
    pub const fn side(self) -> u8 {
        match self {
            BoardShape::Four => 4,
            BoardShape::Six => 6,
            BoardShape::Eight => 8,
            BoardShape::Ten | BoardShape::Octagon => 10,
        }
    }

    /// The name used in rules strings (`4x4` .. `10x10`, `octagon`).
    pub const fn name(self) -> &'static str {
        match self {
            BoardShape::Four => "4x4",
            BoardShape::Six => "6x6",
            BoardShape::Eight => "8x8",
            BoardShape::Ten => "10x10",
            BoardShape::Octagon => "octagon",
        }
    }

    /// Whether `sq` is one of the board's squares.
    pub fn contains(self, sq: Square) -> bool {
        let n = self.side();
        if sq.col() >= n || sq.row() >= n {
            return false;
        }
        if self == BoardShape::Octagon {
            // Mirror into the top-left corner: the triangle a1 b1 a2 is cut.
            let c = sq.col().min(n - 1 - sq.col());
            let r = sq.row().min(n - 1 - sq.row());
            return c + r >= 2;
        }
        true
    }

    /// All squares of the board.
    pub fn cells(self) -> SquareSet {
        let n = self.side() as u32;
        let row = (1u128 << n) - 1;
        let mut set = 0u128;
        for r in 0..n {
            set |= row << (MAX_SIDE as u32 * r);
        }
        if self == BoardShape::Octagon {
            // The cut triangles: a1 b1 a2, i1 j1 j2, a9 a10 b10, i10 j9 j10.
            let cut = [0, 1, 10, 8, 9, 19, 80, 90, 91, 98, 99, 89];
            for i in cut {
                set &= !(1u128 << i);
            }
        }
        SquareSet(set)
    }

    /// The central 2x2 squares in the order top-left, top-right, bottom-right, bottom-left.
    pub fn centre(self) -> [Square; 4] {
        let c = self.side() / 2;
        let sq = |col, row| Square::new(col, row).expect("centre is on the grid");
        [sq(c - 1, c - 1), sq(c, c - 1), sq(c, c), sq(c - 1, c)]
    }

    /// The corner squares in handicap order: a1, the opposite corner, the top-right, the
    /// bottom-left (a1, h8, h1, a8 on 8x8). The octagon has none.
    pub fn corners(self) -> Vec<Square> {
        if self == BoardShape::Octagon {
            return Vec::new();
        }
        let m = self.side() - 1;
        [(0, 0), (m, m), (m, 0), (0, m)]
            .into_iter()
            .filter_map(|(c, r)| Square::new(c, r))
            .collect()
    }
}

impl fmt::Display for BoardShape {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BoardShape {
    type Err = ParseBoardShapeError;
    fn from_str(s: &str) -> Result<BoardShape, ParseBoardShapeError> {
        BoardShape::ALL
            .into_iter()
            .find(|b| s.eq_ignore_ascii_case(b.name()))
            .ok_or_else(|| ParseBoardShapeError { text: s.to_owned() })
    }
}

/// A board name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseBoardShapeError {
    /// The text that was not a board name.
    pub text: String,
}

impl fmt::Display for ParseBoardShapeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a board (4x4, 6x6, 8x8, 10x10 or octagon), but found `{}` instead",
            self.text
        )
    }
}

impl std::error::Error for ParseBoardShapeError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_have_the_right_squares() {
        assert_eq!(BoardShape::Four.cells().len(), 16);
        assert_eq!(BoardShape::Six.cells().len(), 36);
        assert_eq!(BoardShape::Eight.cells().len(), 64);
        assert_eq!(BoardShape::Ten.cells().len(), 100);
        let oct = BoardShape::Octagon;
        assert_eq!(oct.cells().len(), 88);
        for cut in [
            "a1", "a2", "b1", "i1", "j1", "j2", "a9", "a10", "b10", "i10", "j9", "j10",
        ] {
            assert!(!oct.contains(cut.parse().unwrap()), "{cut}");
        }
        for kept in ["c1", "b2", "a3", "h1", "i2", "j3", "b9", "c10", "i9"] {
            assert!(oct.contains(kept.parse().unwrap()), "{kept}");
        }
    }

    #[test]
    fn centre_and_corners() {
        let names = |v: &[Square]| {
            v.iter()
                .map(|s| s.to_string())
                .collect::<Vec<_>>()
                .join(" ")
        };
        assert_eq!(names(&BoardShape::Eight.centre()), "d4 e4 e5 d5");
        assert_eq!(names(&BoardShape::Six.centre()), "c3 d3 d4 c4");
        assert_eq!(names(&BoardShape::Ten.centre()), "e5 f5 f6 e6");
        assert_eq!(names(&BoardShape::Eight.corners()), "a1 h8 h1 a8");
        assert!(BoardShape::Octagon.corners().is_empty());
    }
}
