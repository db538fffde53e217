//! The edit search under both `validate` and `repair`: the smallest set of edits (swaps,
//! replacements, deletions, insertions) that makes a game's moves legal and its result as
//! claimed ([`search`]), how plausible each misreading is ([`plausibility`]), the result
//! itself as an edit when the moves are legal but the board gives another ([`result`]), and
//! the edits described as people read them. `validate` asks it for a single change to suggest
//! at an illegal move, `repair` for the repair; both bring the validator's verdict on a
//! candidate ([`Valid`]), so this module needs nothing above it.

use std::fmt;

use serde::Serialize;

use crate::engine::{Move, Position};
use crate::record::{MoveRecord, Record, Span};

pub(crate) mod plausibility;
pub(crate) mod result;
pub(crate) mod search;

pub use result::ResultFault;

pub(crate) use search::{Found, Kinds, Op, Search};

/// Whether a candidate record validates without an error: the validator's verdict, given
/// by the caller.
pub(crate) type Valid<'v> = &'v dyn Fn(&Record) -> bool;

/// The kinds of edit a repair makes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum EditKind {
    /// Two moves exchanged (two numbers, on a grid).
    Swap,
    /// A move written as another square.
    Replace,
    /// A move that was not played (written twice) removed.
    Delete,
    /// A move that was left out put back.
    Insert,
    /// A grid number misread as another.
    Renumber,
    /// A grid number left out, on a square written as empty.
    Fill,
    /// A grid number written on a second square, which stayed empty.
    Erase,
    /// The claimed result replaced by the board's (the moves are legal, the result is not).
    Result,
    /// The players' names and the score exchanged: a sheet written from White's side,
    /// each player's score right but under the other colour (the pairing says so).
    Names,
}

/// One edit of a repair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Edit {
    /// What kind of edit.
    pub kind: EditKind,
    /// The move it concerns, numbered as written (an insertion: the move it goes before;
    /// a grid edit: the move number it now is, or was for an erasure); 0 for a result
    /// edit, which concerns no move (JSON leaves it out).
    #[serde(rename = "move", skip_serializing_if = "is_zero")]
    pub move_number: usize,
    /// The second move of a swap.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub other: Option<usize>,
    /// The square of a grid edit, when known.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub square: Option<String>,
    /// What was written (empty for an insertion or a filled square).
    pub written: String,
    /// What is written now (empty for a deletion or an erasure).
    pub now: String,
    /// What kind of slip a result edit answers.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fault: Option<ResultFault>,
    /// Where the edited text is, when it has a place in the source.
    #[serde(skip)]
    pub span: Option<Span>,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

impl fmt::Display for Edit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.move_number;
        let on = self
            .square
            .as_ref()
            .map(|s| format!(" on {s}"))
            .unwrap_or_default();
        match self.kind {
            EditKind::Swap => {
                let (a, b) = self.written.split_once(' ').unwrap_or((&self.written, ""));
                let m = self.other.unwrap_or(n);
                write!(f, "swapped moves {n} ({a}) and {m} ({b})")
            }
            EditKind::Replace => write!(f, "{} instead of {} at move {n}", self.now, self.written),
            EditKind::Delete => write!(f, "deleted move {n} ({})", self.written),
            EditKind::Insert => write!(f, "inserted {} as move {n}", self.now),
            EditKind::Renumber => {
                write!(f, "number {}{on} read as {}", self.written, self.now)
            }
            EditKind::Fill => write!(f, "number {} added{on}, which was left empty", self.now),
            EditKind::Erase => write!(f, "number {}{on} removed (written twice)", self.written),
            EditKind::Names => write!(
                f,
                "the names and the score swapped (a sheet written from White's side): {}, not {}",
                self.now, self.written
            ),
            EditKind::Result => {
                write!(
                    f,
                    "the result is wrong: the board gives {}, not {}",
                    self.now, self.written
                )?;
                match self.fault.and_then(ResultFault::phrase) {
                    Some(why) => write!(f, " ({why})"),
                    None => Ok(()),
                }
            }
        }
    }
}

impl Edit {
    /// The edit as `validate`'s help names it: "swapping moves 2 (c3) and 3 (d6)", "f3
    /// instead of d4 at move 5", "deleting move 7 (e6)", "inserting c4 as move 9".
    pub fn suggestion(&self) -> String {
        let n = self.move_number;
        match self.kind {
            EditKind::Swap => {
                let (a, b) = self.written.split_once(' ').unwrap_or((&self.written, ""));
                format!(
                    "swapping moves {n} ({a}) and {} ({b})",
                    self.other.unwrap_or(n)
                )
            }
            EditKind::Replace if self.written == "--" => {
                format!("{} instead of the pass at move {n}", self.now)
            }
            EditKind::Replace => format!("{} instead of {} at move {n}", self.now, self.written),
            EditKind::Delete => format!("deleting move {n} ({})", self.written),
            EditKind::Insert => format!("inserting {} as move {n}", self.now),
            _ => self.to_string(),
        }
    }
}

/// A repair found and checked: the edits, the record they give, their cost.
#[derive(Clone, Debug)]
pub(crate) struct Candidate {
    pub(crate) edits: Vec<Edit>,
    pub(crate) record: Record,
    pub(crate) cost: u32,
    /// Index (0-based, in the repaired record) of the first edited move.
    pub(crate) first: usize,
}

/// The candidates of the best rank that validate, from candidates in order of rank (the
/// number of edits, then the cost).
pub(crate) fn best_checked(all: impl Iterator<Item = Option<Candidate>>) -> Vec<Candidate> {
    let mut best: Vec<Candidate> = Vec::new();
    for c in all.flatten() {
        if best.first().is_some_and(|b| c.rank() > b.rank()) {
            break;
        }
        best.push(c);
        if best.len() > 8 {
            break;
        }
    }
    best
}

impl Candidate {
    /// How it ranks: fewer edits first, then the likelier.
    pub(crate) fn rank(&self) -> (usize, u32) {
        (self.edits.len(), self.cost)
    }
}

/// The found move list as a record, with its edits described, if it is `valid` (the
/// validator's verdict, which the caller brings: this module is below the validator).
pub(crate) fn candidate(record: &Record, found: &Found, valid: Valid<'_>) -> Option<Candidate> {
    let edits = describe(record, &found.ops);
    let rebuilt = rebuild(record, &found.ops);
    if !valid(&rebuilt) {
        return None;
    }
    let first = found.ops.iter().map(|op| op.index()).min().unwrap_or(0);
    Some(Candidate {
        edits,
        record: rebuilt,
        cost: found.cost,
        first,
    })
}

/// The edits `ops` make to `record`, numbered as the record writes its moves.
pub(crate) fn describe(record: &Record, ops: &[Op]) -> Vec<Edit> {
    let mut slots: Vec<(Option<usize>, Move)> = record
        .moves
        .iter()
        .enumerate()
        .map(|(i, m)| (Some(i), m.mv))
        .collect();
    let mut edits = Vec::with_capacity(ops.len());
    for &op in ops {
        let number = |i: usize| {
            slots
                .get(i)
                .and_then(|s| s.0)
                .map_or(i + 1, |origin| origin + 1)
        };
        let span = |i: usize| {
            slots
                .get(i)
                .and_then(|s| s.0)
                .and_then(|o| record.moves[o].span)
        };
        let mv = |i: usize| slots.get(i).map(|s| s.1.to_string()).unwrap_or_default();
        let edit = |kind, n, written: String, now: String, span| Edit {
            kind,
            move_number: n,
            other: None,
            square: None,
            written,
            now,
            fault: None,
            span,
        };
        edits.push(match op {
            Op::Swap(a, b) => Edit {
                other: Some(number(b)),
                ..edit(
                    EditKind::Swap,
                    number(a),
                    format!("{} {}", mv(a), mv(b)),
                    format!("{} {}", mv(b), mv(a)),
                    span(a),
                )
            },
            Op::Replace(i, to) => {
                edit(EditKind::Replace, number(i), mv(i), to.to_string(), span(i))
            }
            Op::Delete(i) => edit(EditKind::Delete, number(i), mv(i), String::new(), span(i)),
            Op::Insert(i, to) => edit(
                EditKind::Insert,
                number(i),
                String::new(),
                to.to_string(),
                span(i),
            ),
        });
        op.apply(&mut slots, |m| (None, m));
    }
    edits.sort_by_key(|e| e.move_number);
    edits
}

/// `record` with `ops` applied to its moves. Position claims keep pointing after the same
/// moves; colours the record claims follow the moves from the first edit on.
pub(crate) fn rebuild(record: &Record, ops: &[Op]) -> Record {
    let mut out = record.clone();
    for &op in ops {
        match op {
            Op::Swap(a, b) => {
                let (x, y) = (out.moves[a].mv, out.moves[b].mv);
                out.moves[a].mv = y;
                out.moves[b].mv = x;
            }
            Op::Replace(i, mv) => out.moves[i].mv = mv,
            Op::Delete(i) => {
                out.moves.remove(i);
                for c in &mut out.positions {
                    if c.after_moves > i {
                        c.after_moves -= 1;
                    }
                }
            }
            Op::Insert(i, mv) => {
                out.moves.insert(i, MoveRecord::new(mv));
                for c in &mut out.positions {
                    if c.after_moves > i {
                        c.after_moves += 1;
                    }
                }
            }
        }
    }
    if record.moves.iter().any(|m| m.color.is_some()) {
        let first = ops.iter().map(|op| op.index()).min().unwrap_or(0);
        recolour(&mut out, first);
    }
    out
}

/// Sets the colour of each move from `first` on to the side that makes it.
fn recolour(record: &mut Record, first: usize) {
    let Ok(mut pos) = record.start_position() else {
        return;
    };
    for (i, m) in record.moves.iter_mut().enumerate() {
        if m.mv != Move::Pass && pos.must_pass() {
            let _ = pos.play(Move::Pass);
        }
        let mover = pos.turn();
        if i >= first {
            m.color = Some(mover);
        }
        if pos.play(m.mv).is_err() {
            return;
        }
    }
}

/// The single-change suggestion `validate` gives for an illegal move: the search with one
/// edit, checked against the claimed result and by `valid`. `None` when no single change
/// makes the moves legal.
pub(crate) fn suggestion(record: &Record, valid: Valid<'_>) -> Option<String> {
    let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
    let claims = Search::claims_result(record);
    let mut search = Search::new(record, Kinds::ALL, true)?;
    let found = search.run(&moves, 1);
    let best = best_checked(found.iter().map(|f| candidate(record, f, valid)));
    if !best.is_empty() {
        let what = if claims {
            "makes the game legal and gives the claimed result"
        } else {
            "makes the game legal"
        };
        return Some(phrase(&best, what));
    }
    if !claims {
        return None;
    }
    let mut search = Search::new(record, Kinds::ALL, false)?;
    let found = search.run(&moves, 1);
    // Without the result, validation would still report it: check legality only.
    let legal: Vec<Candidate> = found
        .iter()
        .take_while(|f| found.first().is_some_and(|b| f.cost == b.cost))
        .take(8)
        .map(|f| Candidate {
            edits: describe(record, &f.ops),
            record: rebuild(record, &f.ops),
            cost: f.cost,
            first: 0,
        })
        .collect();
    if legal.is_empty() {
        return None;
    }
    let ends: Vec<String> = legal
        .iter()
        .filter_map(|c| {
            let moves: Vec<Move> = c.record.moves.iter().map(|m| m.mv).collect();
            let pos = replay(&c.record, &moves)?;
            Some(match pos.outcome() {
                Some(o) => {
                    let n = c.record.rules.players() as usize;
                    o.score[..n]
                        .iter()
                        .map(u8::to_string)
                        .collect::<Vec<_>>()
                        .join("-")
                }
                None => "unfinished".into(),
            })
        })
        .collect();
    let ending = match ends.as_slice() {
        [one] if one == "unfinished" => " (the game would be unfinished)".to_string(),
        [one] => format!(" (the game would end {one})"),
        _ => String::new(),
    };
    Some(format!(
        "{}, but not its claimed result{ending}",
        phrase(&legal, "makes the moves legal")
    ))
}

/// "X makes the game legal", or the alternatives when several tie.
fn phrase(best: &[Candidate], what: &str) -> String {
    let single: Vec<&Edit> = best.iter().filter_map(|c| c.edits.first()).collect();
    let same_move_replacements = single.len() == best.len()
        && single.iter().all(|e| {
            e.kind == EditKind::Replace
                && e.move_number == single[0].move_number
                && e.written == single[0].written
        });
    let text = |e: &Edit| e.suggestion();
    match single.as_slice() {
        [one] => format!("{} {what}", text(one)),
        many if same_move_replacements => {
            let squares: Vec<&str> = many.iter().map(|e| e.now.as_str()).collect();
            let written = if many[0].written == "--" {
                "the pass".to_string()
            } else {
                many[0].written.clone()
            };
            format!(
                "any of {} instead of {written} at move {} {what}",
                squares.join(", "),
                many[0].move_number
            )
        }
        many => {
            let list: Vec<String> = many.iter().map(|e| text(e)).collect();
            format!("any one of these {what}: {}", list.join("; "))
        }
    }
}

/// Replays `moves` from the record's start, inferring passes: the position reached, or
/// `None` if the setup or any move is illegal.
pub(crate) fn replay(record: &Record, moves: &[Move]) -> Option<Position> {
    let mut pos = record.start_position().ok()?;
    for &mv in moves {
        if mv != Move::Pass && pos.must_pass() {
            pos.play(Move::Pass).ok()?;
        }
        pos.play(mv).ok()?;
    }
    Some(pos)
}
