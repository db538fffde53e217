//! Squares off the board (`g0`, `k3`, `a11`): a reader cannot read them as moves, so the
//! game cannot be read. Each is rewritten as a square of the board, the coordinate that is
//! on the board kept and the other read as a confused digit or letter, a neighbour or any
//! other value (ranked so, `spec/repair.md`), and the game read again.

use super::text::{self, Slips, TextEdit};
use super::{EditKind, Repair, WorkLimit};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::edits::plausibility as cost;
use crate::edits::Kinds;
use crate::formats::{Format, ParsedGame, ReadOptions};

/// The readers' codes for a token that is not a move.
const BAD_MOVE: [Code; 2] = [Code::SyntaxBadMove, Code::GgfBadMove];

/// Repairs `game` when every error its reader found is a move written as a square off the
/// board and its text reads alone as it read in its file; `None` otherwise.
pub(super) fn repair(
    game: &ParsedGame,
    format: Format,
    read: &ReadOptions,
    max_edits: usize,
    limit: WorkLimit,
) -> Option<Repair> {
    let side = game
        .record
        .as_ref()
        .map(|r| r.rules)
        .or(read.rules)
        .unwrap_or_default()
        .board()
        .side();
    let text = &game.source.text;
    // The reader's spans are file offsets; the text starts at the game's.
    let planned = bad_squares(side, text, &game.diagnostics, game.source.offset)?;
    if planned.is_empty() || planned.len() > max_edits {
        return None;
    }
    // The game's text alone must read with the same errors at the same places.
    let alone = format.read_bytes(text.as_bytes(), read).ok()?;
    let [again] = alone.as_slice() else {
        return None;
    };
    let places = |b: &[OffBoard<'_>]| b.iter().map(|o| o.at).collect::<Vec<_>>();
    if bad_squares(side, text, &again.diagnostics, 0).map(|b| places(&b)) != Some(places(&planned))
    {
        return None;
    }
    let edits = move |text: &str, diagnostics: &[Diagnostic]| edits_on(side, text, diagnostics);
    let slips = Slips {
        format,
        kinds: Kinds::ALL,
        edits: &edits,
    };
    Some(text::repair(&slips, game, read, max_edits, limit))
}

/// A token that reads as a square off a board of `side`: its 0-based column and 1-based
/// row as written, and whether its letter is a capital.
fn off_board(token: &str, side: u8) -> Option<(u8, u8, bool)> {
    let (letter, digits) = token.split_at_checked(1)?;
    let letter = letter.bytes().next().filter(u8::is_ascii_alphabetic)?;
    if digits.is_empty() || digits.len() > 2 || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let row: u8 = digits.parse().ok()?;
    let col = letter.to_ascii_lowercase() - b'a';
    let on = col < side && (1..=side).contains(&row);
    (!on).then_some((col, row, letter.is_ascii_uppercase()))
}

/// A move written as a square off the board: where, as written, its column and row.
struct OffBoard<'t> {
    at: usize,
    written: &'t str,
    col: u8,
    row: u8,
    capital: bool,
}

/// Every bad move of `diagnostics` (spans `base` bytes into the file before `text`), when
/// each is a square off the board; `None` when some error is anything else.
fn bad_squares<'t>(
    side: u8,
    text: &'t str,
    diagnostics: &[Diagnostic],
    base: usize,
) -> Option<Vec<OffBoard<'t>>> {
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| {
            let s = d.span.filter(|_| BAD_MOVE.contains(&d.code))?;
            let at = s.offset.checked_sub(base)?;
            let written = text.get(at..at.checked_add(s.len)?)?;
            let (col, row, capital) = off_board(written, side)?;
            Some(OffBoard {
                at,
                written,
                col,
                row,
                capital,
            })
        })
        .collect()
}

/// The rewrites of the first bad move, when every error is a square off the board.
fn edits_on(side: u8, text: &str, diagnostics: &[Diagnostic]) -> Vec<TextEdit> {
    let Some(bad) = bad_squares(side, text, diagnostics, 0) else {
        return Vec::new();
    };
    let Some(first) = bad.first() else {
        return Vec::new();
    };
    let values =
        |v: u8, on: bool, range: std::ops::RangeInclusive<u8>, row: bool| -> Vec<(u8, u32)> {
            if on {
                vec![(v, 0)]
            } else {
                range.map(|m| (m, cost::off_board(v, m, row))).collect()
            }
        };
    let cols = values(first.col, first.col < side, 0..=side - 1, false);
    let rows = values(first.row, (1..=side).contains(&first.row), 1..=side, true);
    let mut out = Vec::with_capacity(cols.len() * rows.len());
    for &(c, col_cost) in &cols {
        for &(r, row_cost) in &rows {
            let letter = char::from(if first.capital { b'A' } else { b'a' } + c);
            let now = format!("{letter}{r}");
            out.push(TextEdit {
                at: first.at,
                old_len: first.written.len(),
                now: now.to_ascii_lowercase(),
                new: now,
                kind: EditKind::Replace,
                written: first.written.to_owned(),
                number: None,
                square_of: None,
                cost: col_cost + row_cost,
            });
        }
    }
    out.sort_by_key(|e| e.cost);
    out
}
