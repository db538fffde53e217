//! The quick scan of one transcript grid for the quick check ([`crate::engine::quick`]):
//! the headers and the cells of a plain grid (every number once, from 1 up without a gap,
//! the start squares left out or written as `0`, `.` or their usual discs) gathered
//! without building a record or allocating. Anything the reader would have something to
//! say about (a bad cell, a `Rules:` header, a result it does not read as disc counts, a
//! start it would read as other than the usual one) makes it give up, and the grid is
//! read in full.

use super::split::PendingGrid;
use super::{ascii_separator, line_at, sort, Layout, LineSort};
use crate::engine::quick::{code, QuickClaim, QuickMoves, PASS};
use crate::engine::{BoardShape, Color, Opening, Position, Rules, Square};
use crate::record::{score, ResultScore};
use crate::text::has_control;

/// Most rows a grid has (10x10).
const MAX_ROWS: usize = 10;
/// Most tokens a row the scan takes has: ten squares and a row number on each side.
const MAX_TOKENS: usize = MAX_ROWS + 2;
/// Most move numbers a grid holds (10x10 less its centre).
const MAX_NUMBER: usize = 100;

impl PendingGrid {
    /// Scans the grid into `moves` for the quick check, handing `tag` each tag the
    /// reader's record would have, in its order: the grid's rules and claim, or `None`
    /// when it must be read in full.
    #[doc(hidden)]
    pub fn scan(
        &self,
        moves: &mut QuickMoves,
        mut tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        // The reader would report what decoding found, or a control character.
        if self.too_long.is_some() || !self.problems.is_empty() || has_control(&self.text) {
            return None;
        }
        moves.clear();
        let mut rows = [Row::default(); MAX_ROWS];
        let mut n = 0;
        let mut claim = QuickClaim::Nothing;
        let mut result_read = false;
        let text = self.text.as_str();
        // The header lines, as the splitter found them.
        for header in &self.header_lines {
            let (name, value) = header.read(text)?;
            // The name is trimmed: compared as `is_result_field` compares it.
            if !result_read
                && score::RESULT_FIELDS
                    .iter()
                    .any(|f| f.eq_ignore_ascii_case(name))
            {
                result_read = true;
                claim = result_claim(value)?;
            } else if name.eq_ignore_ascii_case("rules") {
                return None;
            } else {
                tag(name, value);
            }
        }
        // From the first row on, a grid has rows and lines skipped only: a blank line,
        // header line or line of column letters would have ended it.
        let mut at = self.rows_at;
        while at < text.len() {
            // A line that starts, past spaces and tabs, with a digit or `.` is a row (as
            // `sort` sorts it): its cells are read as its end is found.
            let rest = &text.as_bytes()[at..];
            let indent = rest
                .iter()
                .take_while(|&&b| matches!(b, b' ' | b'\t'))
                .count();
            if let Some(b'0'..=b'9' | b'.') = rest.get(indent) {
                let (row, len) = Row::read(&rest[indent..])?;
                *rows.get_mut(n)? = row;
                n += 1;
                at += indent + len;
                continue;
            }
            let line;
            (line, at) = line_at(text, at);
            match sort(line) {
                LineSort::Row => {
                    *rows.get_mut(n)? = Row::of(line)?;
                    n += 1;
                }
                LineSort::Skip => {}
                LineSort::Blank | LineSort::Header(..) | LineSort::Columns => return None,
            }
        }
        let rules = grid_rules(n, self.rules)?;
        scan_cells(&rules, &rows[..n], moves)?;
        // A first move the usual start does not allow may make the reader take the
        // inverted start (module docs): for the reader to say.
        if let Some(&first) = moves.as_slice().first() {
            let sq = Square::new(first & 15, first >> 4)?;
            Position::new(rules)
                .legal_moves()
                .contains(sq)
                .then_some(())?;
        }
        Some((rules, claim))
    }
}

/// A token of a row as [`read_cell`](super::read_cell) reads it: a number ([`MAX_NUMBER`]
/// + 1 for any higher), an empty square, or a disc (`None`: `R`, `G`, `N`, `#`).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum Cell {
    Number(u8),
    #[default]
    Empty,
    Disc(Option<Color>),
}

/// The tokens of a row, when it has no more than [`MAX_TOKENS`], each a [`Cell`].
#[derive(Clone, Copy, Default)]
struct Row {
    cells: [Cell; MAX_TOKENS],
    len: usize,
}

impl Row {
    /// The tokens of `line` (split as [`tokens`](super::tokens) splits them), read as
    /// [`Row::read`] reads them.
    fn of(line: &str) -> Option<Row> {
        Some(Row::read(line.as_bytes())?.0)
    }

    /// The tokens of the line `text` starts with, read in one pass over its bytes, and the
    /// bytes the line takes with its line feed; `None` for a token that is not ASCII (or a
    /// separator that is not), not a cell, or a number written with a leading zero, which
    /// is never a row number: the reader reads such a row in full.
    fn read(text: &[u8]) -> Option<(Row, usize)> {
        let mut row = Row::default();
        let mut i = 0;
        loop {
            while text
                .get(i)
                .is_some_and(|&b| b != b'\n' && ascii_separator(b))
            {
                i += 1;
            }
            let cell = match text.get(i) {
                None => return Some((row, i)),
                Some(b'\n') => return Some((row, i + 1)),
                Some(&digit @ b'0'..=b'9') => {
                    let mut k = u16::from(digit - b'0');
                    i += 1;
                    while let Some(&digit @ b'0'..=b'9') = text.get(i) {
                        if k == 0 {
                            return None;
                        }
                        // Past the highest number any board has, a number is out of range.
                        k = (k * 10 + u16::from(digit - b'0')).min(MAX_NUMBER as u16 + 1);
                        i += 1;
                    }
                    Cell::Number(k as u8)
                }
                Some(&b) => {
                    i += 1;
                    letter(b)?
                }
            };
            // A token ends at a separator (a line feed is one) or at the end.
            if text.get(i).is_some_and(|&b| !ascii_separator(b)) {
                return None;
            }
            row.push(cell)?;
        }
    }

    fn push(&mut self, cell: Cell) -> Option<()> {
        *self.cells.get_mut(self.len)? = cell;
        self.len += 1;
        Some(())
    }

    fn cells(&self) -> &[Cell] {
        &self.cells[..self.len]
    }
}

/// The cell a token of one byte, `b`, is, other than a number.
fn letter(b: u8) -> Option<Cell> {
    Some(match b {
        b'.' | b'-' | b'_' => Cell::Empty,
        b'X' | b'x' | b'B' | b'b' | b'*' => Cell::Disc(Some(Color::Black)),
        b'O' | b'o' | b'W' | b'w' => Cell::Disc(Some(Color::White)),
        b'R' | b'r' | b'G' | b'g' | b'N' | b'n' | b'#' => Cell::Disc(None),
        _ => return None,
    })
}

/// The rules of a grid of `n` rows without a `Rules:` header, as the reader picks them:
/// `given` when its board has as many rows, else Othello on a board of as many rows.
fn grid_rules(n: usize, given: Option<Rules>) -> Option<Rules> {
    match given {
        Some(rules) if usize::from(rules.board().side()) == n => Some(rules),
        _ => {
            let board = match n {
                4 => BoardShape::Four,
                6 => BoardShape::Six,
                8 => BoardShape::Eight,
                10 => BoardShape::Ten,
                _ => return None,
            };
            Some(Rules::othello(board))
        }
    }
}

/// The claim of a result header's `value`, when the reader reads it as disc counts (or
/// as no claim); `None` for anything else.
fn result_claim(value: &str) -> Option<QuickClaim> {
    if let Some((black, white)) = two_counts(value) {
        return Some(QuickClaim::Discs(black, white));
    }
    let written = match score::parse_result(value) {
        Ok(None) => return Some(QuickClaim::Nothing),
        Ok(Some(written)) => written,
        Err(_) => return None,
    };
    match written.score {
        ResultScore::Discs(counts) if written.termination.is_none() => match counts[..] {
            [black, white] => Some(QuickClaim::Discs(black, white)),
            _ => None,
        },
        _ => None,
    }
}

/// `B-W`, two counts of one to three digits, as most grids write their result (`1-0` and
/// `0-1` name a winner instead): what [`score::parse_result`] reads as these two counts.
fn two_counts(value: &str) -> Option<(u8, u8)> {
    let (black, white) = value.split_once('-')?;
    if matches!(value, "1-0" | "0-1") {
        return None;
    }
    let count = |digits: &str| {
        let ok = (1..=3).contains(&digits.len()) && digits.bytes().all(|b| b.is_ascii_digit());
        digits.parse::<u8>().ok().filter(|_| ok)
    };
    Some((count(black)?, count(white)?))
}

/// The cells of `rows` (the grid's rows, top first) into `moves`, in the order of their
/// numbers; `None` at anything the reader would report or read as a start of its own.
fn scan_cells(rules: &Rules, rows: &[Row], moves: &mut QuickMoves) -> Option<()> {
    let layout = Layout::of(*rules);
    let side = rules.board().side();
    let labels = row_labels(rows);
    let mut by_number = [PASS; MAX_NUMBER + 1];
    let mut count = 0;
    let mut highest = 0;
    // The discs written on the centre squares, when the grid could name a start by them.
    let usual_start = rules.players() == 2 && rules.opening() == Opening::Standard;
    let centre = rules.board().centre();
    let mut centre_letters = [None; 4];
    for (r, row) in (0..).zip(rows) {
        let cells = strip_labels(row.cells(), r + 1, labels)?;
        let printed = layout.printed_row(r);
        // Every square of the row, or those not printed before move 1.
        let all = cells.len() == usize::from(side);
        if !all && cells.len() != usize::from(side) - printed.count_ones() as usize {
            return None;
        }
        let mut col = 0;
        for &cell in cells {
            // Past the printed squares a row leaves out (there are as many columns left as
            // cells: `col` stays below `side`).
            while !all && printed >> col & 1 == 1 {
                col += 1;
            }
            let preprinted = printed >> col & 1 == 1;
            let c = col;
            col += 1;
            match cell {
                Cell::Number(0) if preprinted => {}
                Cell::Number(k) if preprinted || k == 0 || u32::from(k) > layout.max => {
                    return None
                }
                Cell::Number(k) => {
                    let k = usize::from(k);
                    let slot = by_number.get_mut(k)?;
                    if *slot != PASS {
                        return None;
                    }
                    *slot = code(c, r);
                    count += 1;
                    highest = highest.max(k);
                }
                Cell::Empty => {}
                Cell::Disc(_) if !preprinted => return None,
                Cell::Disc(Some(color)) => {
                    centre_letter(&centre, &mut centre_letters, Square::new(c, r)?, color)
                }
                Cell::Disc(None) => {}
            }
        }
    }
    // A number missing below the highest is reported.
    if count != highest {
        return None;
    }
    if usual_start && centre_letters.iter().all(Option::is_some) {
        // All four centre discs written: they are the start, which must be the usual one.
        let discs = rules.start_discs().0;
        let usual = centre.iter().zip(centre_letters).all(|(&sq, letter)| {
            letter.is_some_and(|color: Color| discs[color.index()].contains(sq))
        });
        if !usual {
            return None;
        }
    }
    for &sq in &by_number[1..=highest] {
        if !moves.push(sq) {
            return None;
        }
    }
    Some(())
}

/// Notes `color` written on `sq` when it is one of the `centre` squares.
fn centre_letter(centre: &[Square; 4], letters: &mut [Option<Color>; 4], sq: Square, color: Color) {
    if let Some(i) = centre.iter().position(|&c| c == sq) {
        letters[i] = Some(color);
    }
}

/// Whether `cell` is the number `n` (above 0): as its row number, the decimals of `n`
/// ([`Row::of`] reads no number with a leading zero).
fn is_number(cell: Option<&Cell>, n: u8) -> bool {
    cell == Some(&Cell::Number(n))
}

/// Whether the rows carry their numbers on the left and on the right: when most do.
fn row_labels(rows: &[Row]) -> (bool, bool) {
    let (mut left, mut right) = (0, 0);
    for (r, row) in (1..).zip(rows) {
        left += usize::from(is_number(row.cells().first(), r));
        right += usize::from(is_number(row.cells().last(), r));
    }
    (left * 2 > rows.len(), right * 2 > rows.len())
}

/// The cells of a row (`cells`) without its row numbers (`labels`: on the left, on the
/// right), when they are there.
fn strip_labels(cells: &[Cell], row: u8, labels: (bool, bool)) -> Option<&[Cell]> {
    let (left, right) = labels;
    if (left && !is_number(cells.first(), row)) || (right && !is_number(cells.last(), row)) {
        return None;
    }
    cells.get(usize::from(left)..cells.len().checked_sub(usize::from(right))?)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::GridSplitter;
    use crate::ReadOptions;

    const GRID: &str = "Black: Tastet\nWhite: Shaman\nResult: 34-30\n   a  b  c  d  e  f  g  h
1 56 51 37 36 41 49 57 60
2 47 52 44 18 35 42 58 59
3 38 50  3  6 17  4 24 20
4 45 25  7  O  X  5 19 33
5 40 22 11  X  O  1 16 23
6 39 26 12  2 10  9  8 34
7 54 48 29 13 15 21 43 53
8 55 28 27 14 30 31 32 46
";

    /// The scan of the first grid of `text`, with the tags it hands out.
    fn scan(text: &str) -> Option<(Rules, QuickClaim, Vec<String>, Vec<u8>)> {
        let mut grids = GridSplitter::new(std::io::Cursor::new(text), &ReadOptions::default());
        let grid = grids.next_pending()?.ok()?;
        let mut moves = QuickMoves::default();
        let mut tags = Vec::new();
        let (rules, claim) = grid.scan(&mut moves, |n, v| tags.push(format!("{n}={v}")))?;
        Some((rules, claim, tags, moves.as_slice().to_vec()))
    }

    #[test]
    fn a_row_number_is_its_decimals_only() {
        use crate::text::decimal;
        let tokens = [
            "0", "00", "01", "1", "10", "010", "100", "1000", "1a", "+1", "\u{661}",
        ];
        for n in 1..=10 {
            for token in tokens.iter().copied().chain([decimal(n, &mut [0; 20])]) {
                let written = token == decimal(n, &mut [0; 20]);
                let row = Row::of(token);
                let first = row.as_ref().and_then(|row| row.cells().first());
                assert_eq!(is_number(first, n as u8), written, "{token:?} {n}");
            }
        }
        assert!(!is_number(None, 1));
    }

    #[test]
    fn rows_read_as_the_reader_reads_their_cells() {
        use super::super::{read_cell, tokenize, Cell as Read};
        for line in [
            "1 56 51 37 36 41 49 57 60",
            "  4 45 25  7  O  X  5 19 33  4",
            "|1|2|3|.|-|_|x|o|",
            "\t* b B W w R r G g N n # 0\r",
            "101 999 100 1234567890123 0",
            "1 2 3 4 5 6 7 8 9 10 11 12",
            "1 2 3 4 5 6 7 8 9 10 11 12 13",
            "01 2",
            "1 00",
            "1a 2",
            "1 Y",
            "1 XO",
            "1 .. 2",
            "1\u{3000}2",
            "1 \u{a0}2",
            "1 é",
            "",
            "   ",
        ] {
            let read: Option<Vec<Cell>> = tokenize(line, 0)
                .iter()
                .map(|token| {
                    let digits = token.text.len() > 1 && token.text.starts_with('0');
                    match read_cell(token)? {
                        _ if digits => None,
                        Read::Number(k, _) => Some(Cell::Number(k.min(101) as u8)),
                        Read::Empty => Some(Cell::Empty),
                        Read::Disc(color) => Some(Cell::Disc(color)),
                    }
                })
                .collect();
            // A line that is not ASCII is read in full.
            let read = read.filter(|cells| cells.len() <= MAX_TOKENS && line.is_ascii());
            let scanned = Row::of(line).map(|row| row.cells().to_vec());
            assert_eq!(scanned, read, "{line:?}");
        }
    }

    #[test]
    fn a_plain_grid_is_scanned() {
        let (rules, claim, tags, moves) = scan(GRID).unwrap();
        assert_eq!(rules, Rules::default());
        assert_eq!(claim, QuickClaim::Discs(34, 30));
        assert_eq!(tags, ["Black=Tastet", "White=Shaman"]);
        assert_eq!(moves.len(), 60);
        assert_eq!(moves[0], code(5, 4));
        assert_eq!(moves[59], code(7, 0));
        // The same without labels, with the start squares left out or as `0`.
        let bare: String = GRID
            .lines()
            .map(|l| match l.split_once(' ') {
                Some((n, rest)) if n.parse::<u8>().is_ok() => format!("{rest}\n"),
                _ => format!("{l}\n"),
            })
            .collect::<String>()
            .replace(" O  X ", " ")
            .replace(" X  O ", " 0 0 ");
        assert_eq!(scan(&bare).unwrap().3, moves);
    }

    #[test]
    fn anything_the_reader_reports_gives_up() {
        for (from, to) in [
            ("Result: 34-30", "Result: 1-0"),
            ("Result: 34-30", "Rules: othello"),
            ("Result: 34-30", "Result: nonsense"),
            (" 56 ", " 61 "),
            (" 56 ", " 51 "),
            (" 56 ", " ? "),
            (" 56 ", " X "),
            (" 56 ", " . "),
            ("  O  X ", "  X  X "),
            ("  O  X ", "  1  X "),
            ("8 55 ", "8 "),
            ("Tastet", "Tas\u{7}tet"),
        ] {
            assert!(GRID.contains(from), "{from}");
            let text = GRID.replacen(from, to, 1);
            assert!(scan(&text).is_none(), "{to}");
        }
        // Results the reader reads as these counts, or as none.
        for (value, claim) in [
            ("34 - 30", QuickClaim::Discs(34, 30)),
            ("034-030", QuickClaim::Discs(34, 30)),
            ("?", QuickClaim::Nothing),
        ] {
            let text = GRID.replace("34-30", value);
            assert_eq!(scan(&text).unwrap().1, claim, "{value}");
        }
    }

    #[test]
    fn header_lines_are_handed_over_as_the_reader_reads_them() {
        let headers = "Event: Paris Open\r\n  Black\t: Tastet  \nWhite :\u{a0}Shaman\u{3000}\n\
                       Round:\nPlace:   \t\n% a comment\nDate : 1977 : 05\nX_y-2 z: a:b\n\n";
        let text = format!("{headers}{GRID}").replace("Black: Tastet\nWhite: Shaman\n", "");
        let (_, _, tags, _) = scan(&text).unwrap();
        let mut grids = GridSplitter::new(std::io::Cursor::new(text), &ReadOptions::default());
        let game = grids.next_pending().unwrap().unwrap().read();
        let read: Vec<String> = (game.record.unwrap().tags.iter())
            .map(|t| format!("{}={}", t.name, t.value))
            .collect();
        assert_eq!(tags, read);
        assert_eq!(tags.len(), 7);
    }

    #[test]
    fn two_counts_read_as_the_result_parser_reads_them() {
        for text in ["34-30", "0-64", "64-0", "01-00", "100-0", "1-1", "10-54"] {
            let parsed = score::parse_result(text).unwrap().unwrap();
            let (black, white) = two_counts(text).unwrap();
            assert_eq!(parsed.score, ResultScore::Discs(vec![black, white]));
            assert!(parsed.termination.is_none());
        }
        for text in ["1-0", "0-1", "1000-0", "a-b", "-5", "5-"] {
            assert!(two_counts(text).is_none(), "{text}");
        }
    }
}
