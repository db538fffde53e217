//! Repairs in a game's text. Some slips stop a reader outright (a grid number misread, a
//! square off the board): no record exists to search. The text is then edited where the
//! reader stopped, read again, and the moves of each readable text searched as any
//! record's; candidates rank by the number of edits of both kinds, then by plausibility.

use std::collections::HashSet;

use super::{decide, Edit, EditKind, Repair, Status, WorkLimit};
use crate::diagnostic::Diagnostic;
use crate::edits::{describe, rebuild, Candidate, Kinds, Op, Search};
use crate::engine::Move;
use crate::formats::{Format, ParsedGame, ReadOptions};
use crate::record::{Record, Span};
use crate::validate::validate_record;

/// A re-read of the text counts as this many replays against the work limit.
const READ_COST: usize = 20;

/// At most this many candidates of the best rank are kept (the rest tie too: ambiguous).
const MOST_TIES: usize = 8;

/// One edit of a game's text, at `at` in the text it applies to.
#[derive(Clone, Debug)]
pub(super) struct TextEdit {
    pub(super) at: usize,
    pub(super) old_len: usize,
    pub(super) new: String,
    pub(super) kind: EditKind,
    /// What was written, as the report says it.
    pub(super) written: String,
    /// What is written now, as the report says it.
    pub(super) now: String,
    /// The move number the edit concerns when the edit itself says (a grid's numbers);
    /// else the move read at the edited place.
    pub(super) number: Option<usize>,
    /// The move whose square the report names (a grid number written now).
    pub(super) square_of: Option<usize>,
    pub(super) cost: u32,
}

/// A kind of slip that stops a reader: which format reads the text, which move edits are
/// searched after the text edits, and the text edits that answer a reading's errors (none
/// when some error is not of this kind).
pub(super) struct Slips<'a> {
    pub(super) format: Format,
    pub(super) kinds: Kinds,
    pub(super) edits: &'a dyn Fn(&str, &[Diagnostic]) -> Vec<TextEdit>,
}

/// A readable text reached by text edits, with the move edits after them.
struct Reached {
    applied: Vec<TextEdit>,
    record: Record,
    ops: Vec<Op>,
    cost: u32,
}

struct Explorer<'a> {
    slips: &'a Slips<'a>,
    options: &'a ReadOptions,
    reads: usize,
    limit: WorkLimit,
    reached: Vec<Reached>,
}

/// Repairs `game` by editing its text with `slips` (at most `max_edits` edits in all).
pub(super) fn repair(
    slips: &Slips<'_>,
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
        slips,
        options: &options,
        reads: (limit.replays / READ_COST).max(1),
        limit,
        reached: Vec::new(),
    };
    explorer.explore(&game.source.text, &mut Vec::new(), max_edits);
    let gave_up = explorer.reads == 0;
    // Fewest edits first, then likeliest; one candidate per move list.
    let mut reached = explorer.reached;
    reached.sort_by_key(|r| (r.applied.len() + r.ops.len(), r.cost));
    let mut seen: HashSet<Vec<Move>> = HashSet::new();
    let base = game.source.offset;
    let candidates = reached.iter().filter_map(|r| {
        let record = rebuild(&r.record, &r.ops);
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        if !seen.insert(moves) || validate_record(&record, game.index).errors() > 0 {
            return None;
        }
        Some((r.applied.len() + r.ops.len(), candidate(r, record, base)))
    });
    let mut best: Vec<Candidate> = Vec::new();
    let mut best_count = usize::MAX;
    for (count, c) in candidates {
        if let Some(b) = best.first() {
            if count > best_count || c.cost > b.cost || best.len() > MOST_TIES {
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
    if repair.status != Status::Repaired {
        repair.record = game.record.clone();
    }
    repair.work_limit = limit.replays;
    repair
}

/// `offset` in the text before the edits `applied[..upto]`, from the text after them.
fn before(applied: &[TextEdit], upto: usize, offset: usize) -> usize {
    let mut o = offset;
    for e in applied[..upto].iter().rev() {
        if o > e.at {
            o = (o + e.old_len).saturating_sub(e.new.len());
        }
    }
    o
}

/// `offset` in the text after the edits `applied[from..]`, from the text before them.
fn after(applied: &[TextEdit], from: usize, offset: usize) -> usize {
    let mut o = offset;
    for e in &applied[from..] {
        if o > e.at {
            o = (o + e.new.len()).saturating_sub(e.old_len);
        }
    }
    o
}

/// The candidate a reached text gives: its edits in the original text's places.
fn candidate(r: &Reached, record: Record, base: usize) -> Candidate {
    let applied = &r.applied;
    let mut edits: Vec<Edit> = Vec::new();
    for (i, e) in applied.iter().enumerate() {
        let read_at = after(applied, i + 1, e.at);
        let number = e.number.or_else(|| {
            let i = r
                .record
                .moves
                .iter()
                .position(|m| m.span.is_some_and(|s| s.offset == read_at))?;
            Some(i + 1)
        });
        let square = e
            .square_of
            .and_then(|n| r.record.moves.get(n.checked_sub(1)?))
            .map(|m| m.mv.to_string());
        edits.push(Edit {
            kind: e.kind,
            move_number: number.unwrap_or(0),
            other: None,
            square,
            written: e.written.clone(),
            now: e.now.clone(),
            fault: None,
            span: Some(Span::new(before(applied, i, e.at) + base, e.old_len)),
        });
    }
    let mut moved = describe(&r.record, &r.ops);
    for m in &mut moved {
        m.span = m
            .span
            .map(|sp| Span::new(before(applied, applied.len(), sp.offset) + base, sp.len));
    }
    edits.extend(moved);
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
        let Ok(games) = self.slips.format.read_bytes(text.as_bytes(), self.options) else {
            return;
        };
        let [game] = games.as_slice() else { return };
        let spent: u32 = applied.iter().map(|e| e.cost).sum();
        let read_errors = game.diagnostics.iter().any(Diagnostic::is_error);
        if let (Some(record), false) = (&game.record, read_errors) {
            if applied.is_empty() {
                return;
            }
            let Some(search) = Search::new(record, self.slips.kinds, true) else {
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
        if left == 0 {
            return;
        }
        for edit in (self.slips.edits)(text, &game.diagnostics) {
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
