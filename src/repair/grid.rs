//! Transcript grids in number space: a misread, missing or doubled number makes a grid
//! unreadable, so the grid's text is edited (a number rewritten, added on an empty square,
//! or removed) and read again; two numbers exchanged are a swap of moves.

use crate::codes::Code;
use std::collections::{BTreeSet, HashMap};

use super::{decide, Edit, EditKind, Repair, WorkLimit};
use crate::diagnostic::Diagnostic;
use crate::edits::plausibility as cost;
use crate::edits::{describe, rebuild, Candidate, Kinds, Op, Search};
use crate::engine::Move;
use crate::formats::{Format, ParsedGame, ReadOptions};
use crate::record::{Record, Span};
use crate::validate::validate_record;

/// The reader's codes a number-space edit can answer.
const FIXABLE: [Code; 3] = [
    Code::TranscriptDuplicateNumber,
    Code::TranscriptMissingNumber,
    Code::TranscriptNumberOutOfRange,
];

/// A re-read of the grid counts as this many replays against the work limit.
const READ_COST: usize = 20;

/// Whether every error of an unreadable grid is one a number-space edit can answer.
pub(super) fn fixable(diagnostics: &[Diagnostic]) -> bool {
    let mut errors = diagnostics.iter().filter(|d| d.is_error()).peekable();
    errors.peek().is_some() && errors.all(|d| FIXABLE.contains(&d.code))
}

/// One edit of the grid's text, at `at` in the text it applies to.
#[derive(Clone, Debug)]
struct TextEdit {
    at: usize,
    old_len: usize,
    new: String,
    kind: EditKind,
    written: Option<u32>,
    now: Option<u32>,
    cost: u32,
}

/// A readable grid reached by text edits, with the swaps after them.
struct Reached {
    applied: Vec<TextEdit>,
    record: Record,
    ops: Vec<Op>,
    cost: u32,
}

struct Explorer<'a> {
    options: &'a ReadOptions,
    reads: usize,
    limit: WorkLimit,
    reached: Vec<Reached>,
}

pub(super) fn repair(
    game: &ParsedGame,
    read: &ReadOptions,
    max_edits: usize,
    limit: WorkLimit,
) -> Repair {
    let options = ReadOptions {
        name: read.name.clone(),
        path: None,
        rules: read.rules,
        names_dir: None,
        name_files: None,
    };
    let mut explorer = Explorer {
        options: &options,
        reads: (limit.replays / READ_COST).max(1),
        limit,
        reached: Vec::new(),
    };
    let text = game.source.text.to_string();
    explorer.explore(&text, &mut Vec::new(), max_edits);
    let gave_up = explorer.reads == 0;
    // Fewest edits first, then likeliest; one candidate per move list.
    let mut reached = explorer.reached;
    reached.sort_by_key(|r| (r.applied.len() + r.ops.len(), r.cost));
    let mut seen: HashMap<Vec<Move>, ()> = HashMap::new();
    let base = game.source.offset;
    let candidates = reached.iter().filter_map(|r| {
        let record = rebuild(&r.record, &r.ops);
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        if seen.insert(moves, ()).is_some() {
            return None;
        }
        if validate_record(&record, game.index).errors() > 0 {
            return None;
        }
        Some((r.applied.len() + r.ops.len(), candidate(r, record, base)))
    });
    let mut best: Vec<Candidate> = Vec::new();
    let mut best_count = usize::MAX;
    for (count, c) in candidates {
        if let Some(b) = best.first() {
            if count > best_count || c.cost > b.cost || best.len() > 8 {
                break;
            }
        }
        best_count = count;
        best.push(c);
    }
    let mut repair = decide(
        &Record::default(),
        best,
        game.diagnostics.clone(),
        max_edits,
        gave_up,
    );
    if repair.status != super::Status::Repaired {
        repair.record = None;
    }
    repair.work_limit = limit.replays;
    repair
}

/// The candidate a reached grid gives: its edits in the original text's places.
fn candidate(r: &Reached, record: Record, base: usize) -> Candidate {
    let back = |offset: usize| {
        let mut o = offset;
        for e in r.applied.iter().rev() {
            if o > e.at {
                o = (o + e.old_len).saturating_sub(e.new.len());
            }
        }
        o + base
    };
    let mut edits: Vec<Edit> = Vec::new();
    // Each text edit's place, mapped back through the edits after it.
    for (i, e) in r.applied.iter().enumerate() {
        let mut at = e.at;
        for later in r.applied[..i].iter().rev() {
            if at > later.at {
                at = (at + later.old_len).saturating_sub(later.new.len());
            }
        }
        let number = e.now.or(e.written).unwrap_or(0) as usize;
        let square = e
            .now
            .and_then(|n| r.record.moves.get((n as usize).checked_sub(1)?))
            .map(|m| m.mv.to_string());
        edits.push(Edit {
            kind: e.kind,
            move_number: number,
            other: None,
            square,
            written: e.written.map(|w| w.to_string()).unwrap_or_default(),
            now: e.now.map(|n| n.to_string()).unwrap_or_default(),
            fault: None,
            span: Some(Span::new(at + base, e.old_len)),
        });
    }
    let mut swaps = describe(&r.record, &r.ops);
    for s in &mut swaps {
        s.span = s.span.map(|sp| Span::new(back(sp.offset), sp.len));
    }
    edits.extend(swaps);
    edits.sort_by_key(|e| e.move_number);
    let first = edits
        .iter()
        .map(|e| e.move_number.saturating_sub(1))
        .min()
        .unwrap_or(0);
    Candidate {
        edits,
        record: record.without_spans(),
        cost: r.cost,
        first,
    }
}

impl Explorer<'_> {
    fn explore(&mut self, text: &str, applied: &mut Vec<TextEdit>, left: usize) {
        if self.reads == 0 {
            return;
        }
        self.reads -= 1;
        let Ok(games) = Format::Transcript.read_bytes(text.as_bytes(), self.options) else {
            return;
        };
        let [game] = games.as_slice() else { return };
        let spent: u32 = applied.iter().map(|e| e.cost).sum();
        if let Some(record) = &game.record {
            if applied.is_empty() {
                return;
            }
            let Some(search) = Search::new(record, Kinds::SWAPS, true) else {
                return;
            };
            let mut search = search.with_budget(self.limit.replays);
            let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
            if search.is_good(&moves) {
                self.reached.push(Reached {
                    applied: applied.clone(),
                    record: record.clone(),
                    ops: Vec::new(),
                    cost: spent,
                });
            } else if left > 0 {
                for f in search.run(&moves, left) {
                    self.reached.push(Reached {
                        applied: applied.clone(),
                        record: record.clone(),
                        ops: f.ops,
                        cost: spent + f.cost,
                    });
                }
            }
            return;
        }
        if left == 0 || !fixable(&game.diagnostics) {
            return;
        }
        for edit in edits(text, &game.diagnostics) {
            let mut next = String::with_capacity(text.len() + 2);
            next.push_str(&text[..edit.at]);
            next.push_str(&edit.new);
            next.push_str(&text[edit.at + edit.old_len..]);
            applied.push(edit);
            self.explore(&next, applied, left - 1);
            applied.pop();
        }
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
            out.push(TextEdit {
                at,
                old_len: t.len(),
                new: j.to_string(),
                kind: EditKind::Renumber,
                written: Some(k),
                now: Some(j),
                cost: cost::renumber(k, j),
            });
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
                    out.push(TextEdit {
                        at: cell.0,
                        old_len: cell.1.len(),
                        new: ".".into(),
                        kind: EditKind::Erase,
                        written: Some(cell.2),
                        now: None,
                        cost: cost::ERASE,
                    });
                }
            }
            Code::TranscriptMissingNumber => {
                for &j in missing.iter().take(2) {
                    for &(at, t) in &toks {
                        if matches!(t, "." | "_" | "-") && row_like(text, at) {
                            out.push(TextEdit {
                                at,
                                old_len: t.len(),
                                new: j.to_string(),
                                kind: EditKind::Fill,
                                written: None,
                                now: Some(j),
                                cost: cost::FILL,
                            });
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
