//! Transcript grids in number space: a misread, missing or doubled number makes a grid
//! unreadable, so the grid's text is edited (a number rewritten, added on an empty square,
//! or removed) and read again; two numbers exchanged are a swap of moves.

use std::collections::BTreeSet;

use super::text::{self, Slips, TextEdit};
use super::{EditKind, Repair, WorkLimit};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::edits::plausibility as cost;
use crate::edits::Kinds;
use crate::formats::{Format, ParsedGame, ReadOptions};

/// The reader's codes a number-space edit can answer.
const FIXABLE: [Code; 3] = [
    Code::TranscriptDuplicateNumber,
    Code::TranscriptMissingNumber,
    Code::TranscriptNumberOutOfRange,
];

/// Whether every error of an unreadable grid is one a number-space edit can answer.
pub(super) fn fixable(diagnostics: &[Diagnostic]) -> bool {
    let mut errors = diagnostics.iter().filter(|d| d.is_error()).peekable();
    errors.peek().is_some() && errors.all(|d| FIXABLE.contains(&d.code))
}

/// Repairs an unreadable grid in number space.
pub(super) fn repair(
    game: &ParsedGame,
    read: &ReadOptions,
    max_edits: usize,
    limit: WorkLimit,
) -> Repair {
    let slips = Slips {
        format: Format::Transcript,
        kinds: Kinds::SWAPS,
        edits: &edits,
    };
    text::repair(&slips, game, read, max_edits, limit)
}

/// A number-space edit of the text.
fn number_edit(
    at: usize,
    old_len: usize,
    new: &str,
    kind: EditKind,
    written: Option<u32>,
    now: Option<u32>,
    cost: u32,
) -> TextEdit {
    TextEdit {
        at,
        old_len,
        new: new.to_owned(),
        kind,
        written: written.map(|w| w.to_string()).unwrap_or_default(),
        now: now.map(|n| n.to_string()).unwrap_or_default(),
        number: now.or(written).map(|n| n as usize),
        square_of: now.map(|n| n as usize),
        cost,
    }
}

/// The whitespace- or `|`-separated tokens of `text`: (offset, text).
fn tokens(text: &str) -> Vec<(usize, &str)> {
    let mut out = Vec::new();
    let mut start = None;
    for (i, c) in text.char_indices() {
        let sep = c.is_whitespace() || c == '|';
        match (sep, start) {
            (true, Some(s)) => {
                out.push((s, &text[s..i]));
                start = None;
            }
            (false, None) => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        out.push((s, &text[s..]));
    }
    out
}

/// The edits worth trying for an unreadable grid, from its diagnostics.
fn edits(text: &str, diagnostics: &[Diagnostic]) -> Vec<TextEdit> {
    if !fixable(diagnostics) {
        return Vec::new();
    }
    let toks = tokens(text);
    let number = |t: &str| {
        (t.bytes().all(|b| b.is_ascii_digit()) && !t.is_empty())
            .then(|| t.parse::<u32>().ok())
            .flatten()
    };
    let labels = row_labels(text);
    let numbers: Vec<(usize, &str, u32)> = toks
        .iter()
        .filter(|(at, _)| !labels.contains(at))
        .filter_map(|&(at, t)| number(t).map(|k| (at, t, k)))
        .collect();
    let present: BTreeSet<u32> = numbers.iter().map(|n| n.2).collect();
    // Numbers out of range (more than the squares) are not part of the sequence.
    let out_of_range: BTreeSet<usize> = diagnostics
        .iter()
        .filter(|d| d.code == Code::TranscriptNumberOutOfRange)
        .filter_map(|d| d.span.map(|s| s.offset))
        .collect();
    let top = numbers
        .iter()
        .filter(|n| !out_of_range.contains(&n.0))
        .map(|n| n.2)
        .max()
        .unwrap_or(0);
    let missing: Vec<u32> = (1..=top).filter(|j| !present.contains(j)).take(3).collect();
    let mut targets = missing.clone();
    targets.push(top + 1);
    let at_offset = |offset: usize| numbers.iter().find(|n| n.0 == offset).copied();
    let mut out = Vec::new();
    let renumber = |out: &mut Vec<TextEdit>, (at, t, k): (usize, &str, u32), j: u32| {
        if j != k && j > 0 {
            out.push(number_edit(
                at,
                t.len(),
                &j.to_string(),
                EditKind::Renumber,
                Some(k),
                Some(j),
                cost::renumber(k, j),
            ));
        }
    };
    for d in diagnostics {
        let spans: Vec<usize> = d
            .span
            .iter()
            .chain(d.related.iter().map(|l| &l.span))
            .map(|s| s.offset)
            .collect();
        match d.code {
            Code::TranscriptDuplicateNumber | Code::TranscriptNumberOutOfRange => {
                for cell in spans.into_iter().filter_map(at_offset) {
                    for &j in &targets {
                        renumber(&mut out, cell, j);
                    }
                    out.push(number_edit(
                        cell.0,
                        cell.1.len(),
                        ".",
                        EditKind::Erase,
                        Some(cell.2),
                        None,
                        cost::ERASE,
                    ));
                }
            }
            Code::TranscriptMissingNumber => {
                for &j in missing.iter().take(2) {
                    for &(at, t) in &toks {
                        if matches!(t, "." | "_" | "-") && row_like(text, at) {
                            out.push(number_edit(
                                at,
                                t.len(),
                                &j.to_string(),
                                EditKind::Fill,
                                None,
                                Some(j),
                                cost::FILL,
                            ));
                        }
                    }
                    for &cell in numbers.iter().filter(|n| n.2 > j) {
                        renumber(&mut out, cell, j);
                    }
                }
            }
            _ => {}
        }
    }
    out.sort_by(|a, b| (a.at, &a.new).cmp(&(b.at, &b.new)));
    out.dedup_by(|a, b| a.at == b.at && a.new == b.new);
    out.sort_by_key(|e| e.cost);
    out
}

/// The offsets of row numbers: the first or last token of the n-th row-like line when it
/// is `n`.
fn row_labels(text: &str) -> BTreeSet<usize> {
    let mut labels = BTreeSet::new();
    let mut row = 0;
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let toks = tokens(line);
        if toks.len() >= 4
            && toks
                .iter()
                .any(|(_, t)| t.bytes().all(|b| b.is_ascii_digit()))
        {
            row += 1;
            let label = row.to_string();
            for &(at, t) in [toks.first(), toks.last()].into_iter().flatten() {
                if t == label {
                    labels.insert(offset + at);
                }
            }
        }
        offset += line.len();
    }
    labels
}

/// Whether the line holding `at` looks like a row of a grid (four or more tokens).
fn row_like(text: &str, at: usize) -> bool {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    tokens(&text[start..end]).len() >= 4
}
