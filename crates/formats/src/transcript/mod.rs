//! Transcript grids: the sheet of move numbers tournament players fill in, as plain text.
//!
//! ```text
//! Black: Tastet
//! White: Shaman
//!    a  b  c  d  e  f  g  h
//! 1 55 53 50 40 39 43 41  .
//! 2 48 49 44 42 38  8 35 54
//! 3 31 45  5 29 21  7 36 32
//! 4 47 30 28  O  X  4 25 27
//! 5 37 19 15  X  O  1  9 14
//! 6 46 20 12 10  3  2 18 33
//! 7 51 52 16 17  6 13 58 34
//! 8 57 56 22 23 11 26 24  .
//! ```
//!
//! # Reading
//!
//! * A grid is one row of squares a line, top row first; the squares are separated by
//!   spaces (or `|`). A square holds the number of the move that filled it, or `.` (also `-`
//!   or `_`) when it stayed empty. Numbers count disc placements only: passes have none and
//!   are inferred at replay.
//! * The squares that hold a disc before move 1 (the centre; handicap corners; blocked
//!   squares) hold no number: write `0`, `.`, a disc letter (`X`/`B`/`*` Black, `O`/`W`
//!   White, `R`, `G`, `N`, `#`), or leave them out of the row altogether.
//! * Rows may carry their number on the left, the right or both; a line of column letters
//!   (`a b c ...`) may come first; lines made only of `-+|=` are borders and are skipped.
//! * The board comes from a `Rules:` header, else from [`ReadOptions::rules`] when its
//!   board has as many rows as the grid, else from the number of rows (6, 8 or 10: Othello
//!   on 6x6, 8x8 or 10x10).
//! * Lines `Name: value` before a grid are header lines: each becomes a tag (`Black: Tastet`
//!   → tag `Black`), except `Rules:`, which sets the rules, and the first `Result:` (or
//!   `Score:`, `Final:`, `Outcome:`), which is the claimed result in the spellings people
//!   write (`Result: 36-28`, `36 - 28`, `B+8`, `W`, `*`: [`score::parse_result`]); one
//!   that cannot be read is a `result-unreadable` warning and stays a tag. Grids are separated by blank
//!   lines, by header lines or by a new line of column letters. Lines starting with `#` or
//!   `%` are comments.
//! * Start position: when all four centre squares hold disc letters, they give the start
//!   (a [`StartPosition`] when it differs from the rules' start). Otherwise, in a 2-player
//!   game with the standard opening, a first move that is illegal from the standard start but
//!   legal with the centre diagonals reversed (e3, f4, c5 or d6 on 8x8) means the *inverted
//!   start*: the record's start position is the standard one with the four centre discs'
//!   colours swapped.
//!
//! The file is read grid by grid from its lines, so memory holds one grid whatever the
//! size of the file; a grid of more than 1 MiB is skipped with `syntax-too-long`. A line
//! that is not UTF-8 (read as Windows-1252) or holds a NUL byte is reported once per grid,
//! on the grid it is in or, between grids, on the grid before.
//!
//! Every problem of a grid is reported, each on its numbers: `transcript-missing-number`,
//! `transcript-duplicate-number` (a label on each copy), `transcript-number-out-of-range`,
//! `transcript-number-on-start-square`, `transcript-bad-cell`, `transcript-bad-shape`,
//! `transcript-bad-rules`, `transcript-missing-grid`. A grid with any of them has no
//! record.
//!
//! # Writing
//!
//! Each record as header lines (a `Rules:` line unless the rules are plain Othello, then
//! one line per tag, then a `Result:` line in one spelling the reader reads back), the grid with column letters and row numbers, and a blank line.
//! Passes get no number. The start squares show their discs (`X`, `O`, `R`, `G`, `N`), so
//! an inverted start is written as its centre letters; blocked squares and the squares off
//! the board (the octagon's corners) show as `#`; with
//! the free opening the centre squares are empty at the start and carry moves 1 to 4; 3-4
//! player games need nothing more, since colours come from replay. A
//! grid cannot hold a result no one spelling says (an agreed score, a margin with a
//! resignation), tags named as results (`Score`), comments, per-move claims, position snapshots, a start that
//! is more than a recolouring of the start squares, two moves on one square, or tags whose
//! names are not words or whose values span lines: these are refused unless writing lossily.

mod grid;
mod lines;
mod quick;
mod split;
mod write;

#[doc(hidden)]
pub use split::{GridSplitter, PendingGrid};
pub use write::writer;

use grid::*;
use lines::*;

use crate::codes::Code;
use std::io::BufRead;
use std::sync::Arc;

use super::text;
use super::{Games, ParsedGame, ReadOptions, Sniff};
use crate::diagnostic::{Diagnostic, Source};
use crate::engine::{
    BoardShape, Color, Move, Opening, Position, Rules, Setup, Square, SquareSet, MAX_SIDE,
};
use crate::record::{score, ClaimedResult, MoveRecord, Record, Span, StartPosition, Tag};

/// Whether the input looks like a transcript grid: six or more consecutive lines of 4 to 12
/// cells each (move numbers, `.` and disc letters), with some move numbers among them.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let text = String::from_utf8_lossy(input.head);
    let mut run = 0;
    let mut numbers = 0;
    let mut width = 0;
    // A whole grid: a run of rows as long as they are wide (a 4x4 grid has 4 rows), each a
    // label and cells, or just cells.
    let whole = |run: usize, width: usize, numbers: usize| {
        numbers > 0 && run >= 4 && (width == run || width == run + 1)
    };
    for line in text.lines() {
        match classify(line, 0) {
            LineKind::Row(tokens) => {
                if !(4..=12).contains(&tokens.len())
                    || tokens.iter().any(|t| read_cell(t).is_none())
                {
                    return false;
                }
                numbers += tokens
                    .iter()
                    .filter(|t| matches!(read_cell(t), Some(Cell::Number(k, _)) if k > 0))
                    .count();
                width = width.max(tokens.len());
                run += 1;
                if run >= 6 && numbers > 0 {
                    return true;
                }
            }
            LineKind::Header { .. } | LineKind::Columns | LineKind::Skip | LineKind::Blank
                if run == 0 => {}
            LineKind::Blank | LineKind::Skip => return whole(run, width, numbers),
            _ => return false,
        }
    }
    whole(run, width, numbers)
}

/// Reads transcript grids, one at a time: a grid is read when the line after it shows it
/// is complete, so memory holds one grid (at most [`MAX_GAME_BYTES`](text::MAX_GAME_BYTES) of text; a longer
/// one is skipped with `syntax-too-long`) whatever the size of the file.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    let mut grids = GridSplitter::new(input, options);
    Box::new(std::iter::from_fn(move || {
        Some(grids.next_pending()?.map(PendingGrid::read))
    }))
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::WriteOptions;

    const WTH_331: &str = "   a  b  c  d  e  f  g  h
1 55 53 50 40 39 43 41  .
2 48 49 44 42 38  8 35 54
3 31 45  5 29 21  7 36 32
4 47 30 28  O  X  4 25 27
5 37 19 15  X  O  1  9 14
6 46 20 12 10  3  2 18 33
7 51 52 16 17  6 13 58 34
8 57 56 22 23 11 26 24  .
";

    fn read_str(text: &str) -> Vec<ParsedGame> {
        read(
            Box::new(io::Cursor::new(text.to_owned())),
            &ReadOptions::default(),
        )
        .collect::<io::Result<Vec<_>>>()
        .unwrap()
    }

    #[test]
    fn header_lines_read_as_the_general_rule_reads_them() {
        // The rule without the shortcut for a name that runs up to its colon.
        fn general(trimmed: &str) -> Option<(&str, &str)> {
            if !trimmed.as_bytes().first()?.is_ascii_alphabetic() {
                return None;
            }
            let (name, value) = trimmed.split_once(':')?;
            let name = trim(name);
            is_header_name(name).then(|| (name, trim(value)))
        }
        for line in [
            "Black: Tastet",
            "Black : Tastet ",
            "Black   :",
            "White Player-2_x: a: b",
            "Black\t: Tastet",
            "Bl\tack: Tastet",
            "Black\u{3000}: Tastet",
            "Bläck: Tastet",
            "Black; Tastet",
            "Black Tastet",
            "a  b  c  d  e  f  g  h",
            "Result:34-30",
            "Result:\u{a0}34-30\u{a0}",
            "X O . . : 1",
            "1 2 3: 4",
            "B",
            "",
        ] {
            assert_eq!(header(line), general(line), "{line:?}");
        }
    }

    #[test]
    fn printed_squares_are_off_the_board_or_filled_before_move_1() {
        for text in [
            "othello:4x4",
            "othello",
            "othello:10x10",
            "othello:octagon",
            "free",
            "multi3",
            "multi4:10x10",
            "classic,handicap=white:2",
            "othello,blocked=c3+f6",
        ] {
            let rules: Rules = text.parse().unwrap();
            let layout = Layout::of(rules);
            let (discs, neutral) = rules.start_discs();
            let filled = discs
                .iter()
                .fold(rules.blocked().union(neutral), |all, d| all.union(*d));
            for row in 0..MAX_SIDE {
                for col in 0..MAX_SIDE {
                    let sq = Square::new(col, row).unwrap();
                    let printed = !rules.board().contains(sq) || filled.contains(sq);
                    assert_eq!(layout.preprinted(sq), printed, "{text} {sq}");
                    let in_row =
                        col < rules.board().side() && layout.printed_row(row) >> col & 1 == 1;
                    assert_eq!(in_row, printed && col < rules.board().side(), "{text} {sq}");
                }
            }
        }
    }

    #[test]
    fn lines_sort_as_the_general_rule_sorts_them() {
        // The rule without the shortcuts for a line that starts with an ASCII byte.
        fn general(line: &str) -> LineSort<'_> {
            let trimmed = trim(line);
            match trimmed.as_bytes().first() {
                None => return LineSort::Blank,
                Some(b'0'..=b'9' | b'.') => return LineSort::Row,
                Some(_) => {}
            }
            if comment_or_border(trimmed) {
                return LineSort::Skip;
            }
            if let Some((name, value)) = header(trimmed) {
                return LineSort::Header(name, value);
            }
            letters_or_row(line)
        }
        for line in [
            "",
            " \t ",
            "\u{3000}",
            "1 56 51 37 36 41 49 57 60",
            "  . . 1 2",
            "\u{3000}1 2 3",
            "Black: Tastet",
            " Black : Tastet \t",
            "Black: Tastet\u{3000}",
            "\u{3000}Black: Tastet",
            "Black\t: Tastet",
            "Black Tastet \t",
            "White Player-2_x: a: b",
            "   a  b  c  d  e  f  g  h",
            "a b c d\t",
            "A B C D E F G H ",
            "a b c",
            "|a|b|c|d|",
            "X O . . 1 2 3 4",
            "# comment",
            "# 1 2 3",
            "% comment",
            "  +--+--+ ",
            "---\t",
            "====",
            "-- \u{3000}",
            "| 1 2 3 |",
            "é: x",
        ] {
            assert_eq!(sort(line), general(line), "{line:?}");
        }
    }

    #[test]
    fn reads_the_wth_331_grid() {
        let games = read_str(WTH_331);
        assert_eq!(games.len(), 1);
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.moves.len(), 58);
        assert_eq!(record.moves[0].mv.to_string(), "f5");
        assert_eq!(record.moves[54].mv.to_string(), "a1");
        assert!(record.start.is_none());
        let span = record.moves[0].span.unwrap();
        assert_eq!(&WTH_331[span.offset..span.end()], "1");
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let games = read_str(&format!("\u{feff}Event: x\n{WTH_331}"));
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.tag("Event"), Some("x"));
        assert_eq!(games[0].source.offset, 3);
    }

    #[test]
    fn writes_the_same_grid() {
        let games = read_str(WTH_331);
        let mut out = Vec::new();
        {
            let mut w = writer(Box::new(&mut out), &WriteOptions::default());
            w.write(games[0].record.as_ref().unwrap()).unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), format!("{WTH_331}\n"));
    }

    #[test]
    fn inverted_start_from_move_one() {
        let grid = WTH_331
            .replace(" O  X ", " .  . ")
            .replace(" X  O ", " .  . ")
            .replace("  4 25", " 99 25");
        let games = read_str(&grid);
        let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                Code::TranscriptMissingNumber,
                Code::TranscriptNumberOutOfRange
            ]
        );
        let grid = "1 . . . . . . . .\n2 . . . . . . . .\n3 . . . . 1 . . .\n4 . . . 0 0 . . .\n5 . . . 0 0 . . .\n6 . . . . . . . .\n7 . . . . . . . .\n8 . . . . . . . .\n";
        let games = read_str(grid);
        let start = games[0].record.as_ref().unwrap().start.as_ref().unwrap();
        assert!(start.setup.discs[0].contains("d4".parse().unwrap()));
    }
}
