//! Squares, colours and sets of squares: the vocabulary every other module speaks.

use std::fmt;
use std::str::FromStr;

/// The largest board side the toolkit handles (10x10 and the octagon).
pub const MAX_SIDE: u8 = 10;

/// A square on a board of up to 10x10, addressed by column (`a`..`j`) and row (`1`..`10`).
///
/// Row 1 is the top row, so `a1` is the top-left corner.
///
/// ```
/// use reversi_engine::Square;
/// let sq: Square = "f5".parse().unwrap();
/// assert_eq!((sq.col(), sq.row()), (5, 4));
/// assert_eq!(sq.to_string(), "f5");
/// assert_eq!("J10".parse::<Square>().unwrap().to_string(), "j10");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Square(u8);

impl Square {
    /// The square at 0-based `col` and `row`, if both are below [`MAX_SIDE`].
    pub const fn new(col: u8, row: u8) -> Option<Square> {
        if col < MAX_SIDE && row < MAX_SIDE {
            Some(Square(row * MAX_SIDE + col))
        } else {
            None
        }
    }

    /// The square with row-major index `row * 10 + col`.
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < MAX_SIDE * MAX_SIDE {
            Some(Square(index))
        } else {
            None
        }
    }

    /// 0-based column (`a` is 0).
    pub const fn col(self) -> u8 {
        self.0 % MAX_SIDE
    }

    /// 0-based row (`1` is 0).
    pub const fn row(self) -> u8 {
        self.0 / MAX_SIDE
    }

    /// Row-major index on the 10x10 grid (`row * 10 + col`), the bit used by [`SquareSet`].
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The square's name (`f5`, `j10`) without formatting machinery or allocation: what
    /// writers use on their hot paths.
    ///
    /// ```
    /// use reversi_engine::Square;
    /// assert_eq!(Square::new(9, 9).unwrap().name(), "j10");
    /// ```
    pub const fn name(self) -> &'static str {
        NAMES[self.0 as usize]
    }

    /// Parses a square from ASCII bytes: a letter (`a`..`j`, either case) and a row number.
    #[inline]
    pub fn from_ascii(text: &[u8]) -> Result<Square, ParseSquareError> {
        // Most squares in most files: a letter and one digit.
        if let &[letter, digit] = text {
            let col = (letter | 0x20).wrapping_sub(b'a');
            let row = digit.wrapping_sub(b'1');
            if col < MAX_SIDE && row < 9 && letter.is_ascii_alphabetic() {
                return Ok(Square(row * MAX_SIDE + col));
            }
        }
        Square::from_ascii_in_full(text)
    }

    /// [`Square::from_ascii`] without its shortcut.
    fn from_ascii_in_full(text: &[u8]) -> Result<Square, ParseSquareError> {
        let bad = || ParseSquareError {
            text: String::from_utf8_lossy(text).into_owned(),
        };
        let (&letter, digits) = text.split_first().ok_or_else(bad)?;
        let col = letter.to_ascii_lowercase().wrapping_sub(b'a');
        if col >= MAX_SIDE || digits.is_empty() || digits.len() > 2 || digits[0] == b'0' {
            return Err(bad());
        }
        let mut row: u8 = 0;
        for &d in digits {
            if !d.is_ascii_digit() {
                return Err(bad());
            }
            row = row * 10 + (d - b'0');
        }
        if row == 0 || row > MAX_SIDE {
            return Err(bad());
        }
        Square::new(col, row - 1).ok_or_else(bad)
    }
}

/// Every square's name, by [`Square::index`].
#[rustfmt::skip]
const NAMES: [&str; 100] = [
    "a1", "b1", "c1", "d1", "e1", "f1", "g1", "h1", "i1", "j1",
    "a2", "b2", "c2", "d2", "e2", "f2", "g2", "h2", "i2", "j2",
    "a3", "b3", "c3", "d3", "e3", "f3", "g3", "h3", "i3", "j3",
    "a4", "b4", "c4", "d4", "e4", "f4", "g4", "h4", "i4", "j4",
    "a5", "b5", "c5", "d5", "e5", "f5", "g5", "h5", "i5", "j5",
    "a6", "b6", "c6", "d6", "e6", "f6", "g6", "h6", "i6", "j6",
    "a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "j7",
    "a8", "b8", "c8", "d8", "e8", "f8", "g8", "h8", "i8", "j8",
    "a9", "b9", "c9", "d9", "e9", "f9", "g9", "h9", "i9", "j9",
    "a10", "b10", "c10", "d10", "e10", "f10", "g10", "h10", "i10", "j10",
];

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl FromStr for Square {
    type Err = ParseSquareError;
    fn from_str(s: &str) -> Result<Square, ParseSquareError> {
        Square::from_ascii(s.as_bytes())
    }
}

impl serde::Serialize for Square {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Square {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Square, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// A square name that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSquareError {
    /// The text that was not a square.
    pub text: String,
}

impl fmt::Display for ParseSquareError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "expected a square such as `f5` (a letter a-j and a row 1-10), but found `{}`",
            self.text
        )
    }
}

impl std::error::Error for ParseSquareError {}

/// A player's colour, in turn order: Black, White, then Red and Green with 3-4 players.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug)]
pub enum Color {
    /// Moves first.
    Black,
    /// Moves second.
    White,
    /// Third player (3-4 player games).
    Red,
    /// Fourth player (4 player games).
    Green,
}

impl Color {
    /// All colours in turn order.
    pub const ALL: [Color; 4] = [Color::Black, Color::White, Color::Red, Color::Green];

    /// 0-based turn index.
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The colour with turn index `i` (0..4).
    pub fn from_index(i: usize) -> Option<Color> {
        Color::ALL.get(i).copied()
    }

    /// The lower-case English name (`black`, `white`, `red`, `green`).
    pub const fn name(self) -> &'static str {
        match self {
            Color::Black => "black",
            Color::White => "white",
            Color::Red => "red",
            Color::Green => "green",
        }
    }

    /// The one-letter board symbol (`X`, `O`, `R`, `G`).
    pub const fn symbol(self) -> char {
        match self {
            Color::Black => 'X',
            Color::White => 'O',
            Color::Red => 'R',
            Color::Green => 'G',
        }
    }

    /// Reads `black`/`white`/`red`/`green` or `b`/`w`/`r`/`g`, any case.
    pub fn from_name(name: &str) -> Option<Color> {
        Color::ALL.into_iter().find(|c| {
            name.eq_ignore_ascii_case(c.name())
                || (name.len() == 1 && name.eq_ignore_ascii_case(&c.name()[..1]))
        })
    }

    /// The colour that moves after this one in a game of `players` players.
    pub fn next(self, players: u8) -> Color {
        Color::ALL[(self.index() + 1) % players as usize]
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl serde::Serialize for Color {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.name())
    }
}

impl<'de> serde::Deserialize<'de> for Color {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Color, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        Color::from_name(&text)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown colour `{text}`")))
    }
}

/// A set of squares of a board of up to 10x10, one bit per square (row-major, 10 wide).
///
/// ```
/// use reversi_engine::{Square, SquareSet};
/// let set: SquareSet = ["d3", "c4"].iter().map(|s| s.parse::<Square>().unwrap()).collect();
/// assert_eq!(set.len(), 2);
/// assert_eq!(set.to_string(), "d3 c4");
/// ```
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct SquareSet(pub u128);

impl SquareSet {
    /// The empty set.
    pub const EMPTY: SquareSet = SquareSet(0);

    /// The set holding one square.
    pub const fn single(sq: Square) -> SquareSet {
        SquareSet(1 << sq.index())
    }

    /// Whether `sq` is in the set.
    pub const fn contains(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// Adds `sq`.
    pub fn insert(&mut self, sq: Square) {
        self.0 |= 1 << sq.index();
    }

    /// Removes `sq`.
    pub fn remove(&mut self, sq: Square) {
        self.0 &= !(1 << sq.index());
    }

    /// Number of squares.
    pub const fn len(self) -> usize {
        self.0.count_ones() as usize
    }

    /// Whether the set is empty.
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The squares in row-major order.
    pub fn iter(self) -> SquareSetIter {
        SquareSetIter(self.0)
    }

    /// The first square in row-major order.
    pub fn first(self) -> Option<Square> {
        self.iter().next()
    }

    /// Squares in both sets.
    pub const fn intersection(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & other.0)
    }

    /// Squares in either set.
    pub const fn union(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 | other.0)
    }

    /// Squares of `self` not in `other`.
    pub const fn difference(self, other: SquareSet) -> SquareSet {
        SquareSet(self.0 & !other.0)
    }
}

impl FromIterator<Square> for SquareSet {
    fn from_iter<I: IntoIterator<Item = Square>>(iter: I) -> SquareSet {
        let mut set = SquareSet::EMPTY;
        for sq in iter {
            set.insert(sq);
        }
        set
    }
}

impl IntoIterator for SquareSet {
    type Item = Square;
    type IntoIter = SquareSetIter;
    fn into_iter(self) -> SquareSetIter {
        self.iter()
    }
}

/// Iterator over a [`SquareSet`], in row-major order.
#[derive(Clone, Debug)]
pub struct SquareSetIter(u128);

impl Iterator for SquareSetIter {
    type Item = Square;
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let index = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Square::from_index(index)
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl fmt::Display for SquareSet {
    /// Squares separated by single spaces, in row-major order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, sq) in self.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{sq}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for SquareSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{{{self}}}")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn squares_parse_and_print() {
        for text in ["a1", "h8", "j10", "e5"] {
            assert_eq!(text.parse::<Square>().unwrap().to_string(), text);
        }
        assert_eq!("F5".parse::<Square>().unwrap().to_string(), "f5");
        for bad in ["", "a", "a0", "k1", "a11", "a01", "5f", "a1x", "é1"] {
            assert!(bad.parse::<Square>().is_err(), "{bad} parsed");
        }
    }

    #[test]
    fn every_square_is_named_as_it_parses() {
        for index in 0..MAX_SIDE * MAX_SIDE {
            let sq = Square::from_index(index).unwrap();
            let expected = format!("{}{}", (b'a' + sq.col()) as char, sq.row() + 1);
            assert_eq!(sq.name(), expected);
            assert_eq!(expected.parse::<Square>().unwrap(), sq);
        }
    }

    #[test]
    fn the_two_byte_shortcut_agrees_with_the_full_parse() {
        for pair in 0..=u16::MAX {
            let text = pair.to_be_bytes();
            assert_eq!(
                Square::from_ascii(&text).ok(),
                Square::from_ascii_in_full(&text).ok(),
                "{text:?}"
            );
        }
    }

    #[test]
    fn colours_rotate() {
        assert_eq!(Color::Black.next(2), Color::White);
        assert_eq!(Color::White.next(2), Color::Black);
        assert_eq!(Color::Red.next(3), Color::Black);
        assert_eq!(Color::Red.next(4), Color::Green);
        assert_eq!(Color::from_name("W"), Some(Color::White));
        assert_eq!(Color::from_name("green"), Some(Color::Green));
        assert_eq!(Color::from_name("blue"), None);
    }
}
