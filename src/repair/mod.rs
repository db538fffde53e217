//! Repair: find the game the players actually played when a record does not replay.
//!
//! Score sheets are written in a hurry and typed up by hand: two moves end up swapped, a
//! square is misread (a neighbouring row or column, a `6` for an `8`, a `c` for an `e`), a
//! move is left out or written twice; on a transcript grid a number is misread, two
//! numbers are exchanged, a number is missing or doubled. [`repair_record`] searches for
//! the smallest set of such edits (at most [`RepairOptions::max_edits`]) that makes every
//! move legal and, when the record claims a result, makes the final board agree with it.
//! Candidates rank by the number of edits, then by how plausible the misreadings are
//! (`spec/repair.md`); the best one is taken only when no other ties with it.
//!
//! ```
//! use reversi_record::record::{MoveRecord, Record};
//! use reversi_record::repair::{repair_record, EditKind, RepairOptions, Status};
//! use reversi_record::{Move, Rules};
//! // f5 d6 c3 d3 c4 with d6 and c3 swapped: c3 is illegal at move 2.
//! let mut record = Record::new(Rules::default());
//! for sq in ["f5", "c3", "d6", "d3", "c4"] {
//!     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
//! }
//! let repair = repair_record(&record, &RepairOptions::default());
//! assert_eq!(repair.status, Status::Repaired);
//! assert_eq!(repair.edits[0].kind, EditKind::Swap);
//! assert_eq!(repair.edits[0].to_string(), "swapped moves 2 (c3) and 3 (d6)");
//! let fixed = repair.record.unwrap();
//! assert_eq!(fixed.moves[1].mv, Move::Place("d6".parse().unwrap()));
//! ```

use crate::codes::Code;

use serde::Serialize;

use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::Move;
use crate::formats::{Format, ParsedGame, ReadOptions};
use crate::record::Record;
use crate::validate::validate_record;

mod grid;

use crate::edits::{best_checked, candidate, Candidate, Kinds, Search};
pub use crate::edits::{Edit, EditKind};

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairOptions {
    /// The most edits a repair may make (default 2).
    pub max_edits: usize,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions { max_edits: 2 }
    }
}

/// What became of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The record validates: written unchanged.
    Valid,
    /// One best repair was found: written with its edits.
    Repaired,
    /// Several repairs tie for best: written unchanged, the alternatives listed.
    Ambiguous,
    /// No repair within the edit limit: written unchanged, with the validator's findings.
    Unrepairable,
}

impl Status {
    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Status::Valid => "valid",
            Status::Repaired => "repaired",
            Status::Ambiguous => "ambiguous",
            Status::Unrepairable => "unrepairable",
        }
    }
}

/// What repairing one game found.
#[derive(Clone, Debug)]
pub struct Repair {
    /// What became of the game.
    pub status: Status,
    /// The record to write: the repaired one, or the record as read (`None` when the game
    /// could not be read at all).
    pub record: Option<Record>,
    /// The edits of a repair, in the order of the moves.
    pub edits: Vec<Edit>,
    /// The repairs that tie, for an ambiguous game.
    pub alternatives: Vec<Vec<Edit>>,
    /// The reader's and validator's findings about the game as written.
    pub diagnostics: Vec<Diagnostic>,
    /// The repaired game's board before its first edit.
    pub board: Option<String>,
    /// The most edits the search tried.
    pub max_edits: usize,
    /// Whether the search stopped at its work limit before it was complete.
    pub gave_up: bool,
    /// Why an unrepairable game was not searched, when it was not.
    pub not_searched: Option<&'static str>,
}

impl Repair {
    fn unchanged(status: Status, record: Option<Record>, diagnostics: Vec<Diagnostic>) -> Repair {
        Repair {
            status,
            record,
            edits: Vec::new(),
            alternatives: Vec::new(),
            diagnostics,
            board: None,
            max_edits: 0,
            gave_up: false,
            not_searched: None,
        }
    }

    fn not_searched(
        record: Option<Record>,
        diagnostics: Vec<Diagnostic>,
        why: &'static str,
    ) -> Repair {
        Repair {
            not_searched: Some(why),
            ..Repair::unchanged(Status::Unrepairable, record, diagnostics)
        }
    }

    /// The record to write, with the repair stated in it: a `Repair` tag listing the edits
    /// and a comment on each edited move. `None` when the game could not be read.
    pub fn annotated(&self) -> Option<Record> {
        let mut record = self.record.clone()?;
        if self.status == Status::Repaired {
            let list: Vec<String> = self.edits.iter().map(Edit::to_string).collect();
            record.set_tag("Repair", list.join("; "));
        }
        Some(record)
    }

    /// The same record with a comment `repair: ...` on each move an edit put in place.
    pub fn commented(&self) -> Option<Record> {
        let mut record = self.annotated()?;
        if self.status != Status::Repaired {
            return Some(record);
        }
        for e in &self.edits {
            let indexes = match e.kind {
                EditKind::Swap => vec![e.move_number, e.other.unwrap_or(e.move_number)],
                EditKind::Replace | EditKind::Insert | EditKind::Renumber | EditKind::Fill => {
                    vec![e.move_number]
                }
                EditKind::Delete | EditKind::Erase => continue,
            };
            for i in indexes {
                let Some(m) = i.checked_sub(1).and_then(|i| record.moves.get_mut(i)) else {
                    continue;
                };
                let text = format!("repair: {e}");
                m.comment = Some(match m.comment.take() {
                    Some(c) if !c.is_empty() => format!("{c}; {text}"),
                    _ => text,
                });
            }
        }
        Some(record)
    }

    /// The finding to show for this game in a report: `repaired` (advice) with a label on
    /// each edit and the board at the first, `ambiguous` (warning) listing the
    /// alternatives, `unrepairable` (error); `None` for a valid game.
    pub fn report(&self, game: usize) -> Option<Diagnostic> {
        let plural = |n: usize| if n == 1 { "edit" } else { "edits" };
        match self.status {
            Status::Valid => None,
            Status::Repaired => {
                let list: Vec<String> = self.edits.iter().map(Edit::to_string).collect();
                let first = self.edits.first();
                let mut d = Diagnostic::warning(
                    Code::Repaired,
                    format!(
                        "repaired with {} {}: {}",
                        self.edits.len(),
                        plural(self.edits.len()),
                        list.join("; ")
                    ),
                )
                .at(
                    first.and_then(|e| e.span),
                    first.map(Edit::to_string).unwrap_or_default(),
                )
                .in_game(game);
                for e in self.edits.iter().skip(1) {
                    d = d.related(e.span, e.to_string());
                }
                d.move_number = first.map(|e| e.move_number);
                d.severity = Severity::Advice;
                d = d.help("the repaired game before the first edit:");
                if let Some(b) = &self.board {
                    d = d.with_board(b.clone());
                }
                Some(d)
            }
            Status::Ambiguous => {
                let n = self.alternatives.first().map_or(0, Vec::len);
                let lines: Vec<String> = self
                    .alternatives
                    .iter()
                    .map(|alt| {
                        alt.iter()
                            .map(Edit::to_string)
                            .collect::<Vec<_>>()
                            .join("; ")
                    })
                    .collect();
                let first = self.alternatives.first().and_then(|a| a.first());
                let count = match self.alternatives.len() {
                    k if k > 8 => format!("{k} or more"),
                    k => k.to_string(),
                };
                let mut d = Diagnostic::warning(
                    Code::Ambiguous,
                    format!(
                        "{count} repairs with {n} {} fit equally well; the game is written unchanged",
                        plural(n)
                    ),
                )
                .at(
                    first.and_then(|e| e.span),
                    "the first edit of the first one",
                )
                .in_game(game)
                .help(format!("the alternatives:\n  {}", lines.join("\n  ")));
                d.move_number = first.map(|e| e.move_number);
                Some(d)
            }
            Status::Unrepairable => {
                let first = self.diagnostics.iter().find(|d| d.is_error());
                let mut message = format!(
                    "no repair with at most {} {} makes the game legal",
                    self.max_edits,
                    plural(self.max_edits)
                );
                if self.record.as_ref().is_some_and(Search::claims_result) {
                    message.push_str(" and gives the claimed result");
                }
                if self.gave_up {
                    message.push_str(" (the search stopped at its work limit)");
                }
                if let Some(why) = self.not_searched {
                    message = why.into();
                }
                let mut d = Diagnostic::error(Code::Unrepairable, message)
                    .at(first.and_then(|d| d.span), "the first error")
                    .in_game(game)
                    .help("the game is written unchanged; the findings follow");
                d.move_number = first.and_then(|d| d.move_number);
                Some(d)
            }
        }
    }
}

/// Repairs one record: unchanged when it validates, else the smallest repair found.
pub fn repair_record(record: &Record, options: &RepairOptions) -> Repair {
    let diagnostics = validate_record(record, 1).diagnostics;
    if !diagnostics.iter().any(Diagnostic::is_error) {
        return Repair::unchanged(Status::Valid, Some(record.clone()), diagnostics);
    }
    repair_moves(record, Kinds::ALL, options.max_edits, diagnostics, 1)
}

/// Repairs one game as a reader gave it. Transcript grids (`format`) are repaired in
/// number space: misread, missing and doubled numbers make a grid unreadable, so the grid's
/// text is edited and read again (with `read`); two numbers exchanged are a swap of moves.
pub fn repair_game(
    game: &ParsedGame,
    format: Format,
    read: &ReadOptions,
    options: &RepairOptions,
) -> Repair {
    let is_grid = format == Format::Transcript;
    match &game.record {
        Some(record) => {
            let mut diagnostics = game.diagnostics.clone();
            diagnostics.extend(validate_record(record, game.index).diagnostics);
            if !diagnostics.iter().any(Diagnostic::is_error) {
                return Repair::unchanged(Status::Valid, Some(record.clone()), diagnostics);
            }
            if game.diagnostics.iter().any(Diagnostic::is_error) {
                return Repair::not_searched(
                    Some(record.clone()),
                    diagnostics,
                    "the reader's errors are not in the moves, and repair edits only moves",
                );
            }
            let kinds = if is_grid { Kinds::SWAPS } else { Kinds::ALL };
            repair_moves(record, kinds, options.max_edits, diagnostics, game.index)
        }
        None if is_grid && grid::fixable(&game.diagnostics) => {
            grid::repair(game, read, options.max_edits)
        }
        None => Repair::not_searched(
            None,
            game.diagnostics.clone(),
            "the game could not be read, and nothing of it can be repaired",
        ),
    }
}

fn repair_moves(
    record: &Record,
    kinds: Kinds,
    max_edits: usize,
    diagnostics: Vec<Diagnostic>,
    game: usize,
) -> Repair {
    let Some(mut search) = Search::new(record, kinds, true) else {
        return Repair::not_searched(
            Some(record.clone()),
            diagnostics,
            "the start position is impossible, and repair edits only moves",
        );
    };
    let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
    if search.is_good(&moves) {
        return Repair::not_searched(
            Some(record.clone()),
            diagnostics,
            "the moves are legal and give the result; the errors are in the record's other claims (flips, positions, colours), which repair does not edit",
        );
    }
    let found = search.run(&moves, max_edits);
    let gave_up = search.exhausted;
    let valid = |r: &Record| validate_record(r, game).errors() == 0;
    let candidates = best_checked(found.into_iter().map(|f| candidate(record, &f, &valid)));
    decide(record, candidates, diagnostics, max_edits, gave_up)
}

fn decide(
    record: &Record,
    mut best: Vec<Candidate>,
    diagnostics: Vec<Diagnostic>,
    max_edits: usize,
    gave_up: bool,
) -> Repair {
    let mut repair = Repair::unchanged(Status::Unrepairable, Some(record.clone()), diagnostics);
    repair.max_edits = max_edits;
    repair.gave_up = gave_up;
    match best.len() {
        0 => {}
        1 => {
            let c = best.remove(0);
            let start = validate_board(&c.record, c.first);
            repair.status = Status::Repaired;
            repair.edits = c.edits;
            repair.board = start;
            repair.record = Some(c.record);
        }
        _ => {
            repair.status = Status::Ambiguous;
            repair.alternatives = best.into_iter().map(|c| c.edits).collect();
        }
    }
    repair
}

/// The board of `record` before move `first` (0-based).
fn validate_board(record: &Record, first: usize) -> Option<String> {
    let moves: Vec<Move> = record.moves.iter().take(first).map(|m| m.mv).collect();
    let mut pos = crate::edits::replay(record, &moves)?;
    if record.moves.get(first).is_some_and(|m| m.mv != Move::Pass) && pos.must_pass() {
        pos.play(Move::Pass).ok()?;
    }
    Some(pos.to_string())
}

/// Repairs a batch of games as [`repair_game`] does, in parallel on the current rayon
/// pool, the repairs in the games' order. A caller that reads games in batches of a bounded
/// size and writes each batch before reading the next holds one batch at a time, whatever
/// the size of the input.
///
/// ```
/// use reversi_record::formats::{Format, ReadOptions};
/// use reversi_record::repair::{repair_batch, RepairOptions, Status};
///
/// let text = "f5 d6 c3 d3 c4\nf5 d6 c3 d3 c4 f4\n";
/// let read = ReadOptions::default();
/// let games: Vec<_> = Format::MoveString
///     .read(Box::new(std::io::Cursor::new(text)), &read)
///     .collect::<Result<_, _>>()?;
/// let repairs = repair_batch(&games, Format::MoveString, &read, &RepairOptions::default());
/// assert_eq!(repairs.len(), 2);
/// assert!(repairs.iter().all(|r| r.status == Status::Valid));
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn repair_batch(
    games: &[ParsedGame],
    format: Format,
    read: &ReadOptions,
    options: &RepairOptions,
) -> Vec<Repair> {
    use rayon::prelude::*;
    games
        .par_iter()
        .map(|g| repair_game(g, format, read, options))
        .collect()
}
