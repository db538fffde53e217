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
//! The result can be wrong too: a score reversed, counts in another colour order, a digit
//! typo. When the moves replay legally to the end (as written, or after move edits) and
//! only the result disagrees, the result is a candidate edit ([`EditKind::Result`],
//! [`ResultFault`]) ranked with the move edits; a legal game whose only fault is its result
//! is never repaired by editing its moves. Such a repair is not applied unless asked
//! ([`Status::WrongResult`], [`Repair::fix_result`]); an ambiguous game's alternative can
//! be taken by hand ([`Repair::pick`]).
//!
//! ```
//! use reversi_formats::record::{MoveRecord, Record};
//! use reversi_check::repair::{repair_record, EditKind, RepairOptions, Status};
//! use reversi_engine::{Move, Rules};
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
use crate::record::{Identity, Record};
use crate::validate::validate_record;

mod grid;
mod report;
mod squares;
mod text;

pub use report::RepairReport;

use crate::edits::result::{result_fix, ResultFix};
use crate::edits::search::BUDGET;
use crate::edits::{best_checked, candidate, describe, rebuild, replay, Candidate, Found};
pub use crate::edits::{Edit, EditKind, ResultFault};
use crate::edits::{Kinds, Search};

/// How far the search goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RepairOptions {
    /// The most move edits a repair may make (default 2); a result edit comes on top.
    pub max_edits: usize,
    /// The work the search may do for one game.
    pub work_limit: WorkLimit,
}

impl Default for RepairOptions {
    fn default() -> RepairOptions {
        RepairOptions {
            max_edits: 2,
            work_limit: WorkLimit::default(),
        }
    }
}

/// The work the search may do for one game: replays of a move list (a transcript grid
/// read again counts as 20). It bounds the time a hopeless game takes; a search that
/// reaches it says so ([`Repair::gave_up`]).
///
/// ```
/// use reversi_check::repair::WorkLimit;
/// assert_eq!(WorkLimit::default().replays, 400_000);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkLimit {
    /// Replays per game.
    pub replays: usize,
}

impl Default for WorkLimit {
    fn default() -> WorkLimit {
        WorkLimit { replays: BUDGET }
    }
}

/// Why an alternative could not be picked ([`Repair::pick`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PickError {
    /// The game is not ambiguous: it has no alternatives to pick from.
    NotAmbiguous(Status),
    /// There is no alternative with this number.
    OutOfRange {
        /// The number asked for (1-based).
        pick: usize,
        /// How many alternatives there are.
        count: usize,
    },
}

impl std::fmt::Display for PickError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PickError::NotAmbiguous(status) => write!(
                f,
                "the game is {}, not ambiguous: only an ambiguous game has alternatives to pick",
                status.name()
            ),
            PickError::OutOfRange { pick, count } => write!(
                f,
                "there is no alternative {pick}: the game has {count} (pick 1 to {count})"
            ),
        }
    }
}

impl std::error::Error for PickError {}

/// What became of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Status {
    /// The record validates: written unchanged.
    Valid,
    /// One best repair was found: written with its edits.
    Repaired,
    /// The moves are legal (as written, or after the listed move edits) but the claimed
    /// result is not the board's: written unchanged, the edits found listed;
    /// [`Repair::fix_result`] makes it a repair.
    WrongResult,
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
            Status::WrongResult => "wrong-result",
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
    /// The edits of a repair, in the order of the moves (a result edit last); for a
    /// [`Status::WrongResult`] game the edits found, not applied.
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
    pub not_searched: Option<String>,
    /// The work limit of the search (replays).
    pub work_limit: usize,
    /// The most edits searched in full: when the search stopped at its work limit, repairs
    /// with more edits were searched in part or not at all.
    pub searched: usize,
    /// The alternative taken by [`Repair::pick`] (1-based), when one was.
    pub picked: Option<usize>,
    /// The checked candidates behind `alternatives` (an ambiguous game) or behind `edits`
    /// (a wrong result not yet fixed).
    candidates: Vec<Candidate>,
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
            work_limit: 0,
            searched: 0,
            picked: None,
            candidates: Vec::new(),
        }
    }

    fn not_searched(
        record: Option<Record>,
        diagnostics: Vec<Diagnostic>,
        why: impl Into<String>,
    ) -> Repair {
        Repair {
            not_searched: Some(why.into()),
            ..Repair::unchanged(Status::Unrepairable, record, diagnostics)
        }
    }

    /// Makes the repair of a [`Status::WrongResult`] game: the record with its move edits
    /// and the board's result, [`Status::Repaired`]. Any other repair is returned as it is.
    ///
    /// ```
    /// use reversi_formats::record::{ClaimedResult, MoveRecord, Record};
    /// use reversi_check::repair::{repair_record, RepairOptions, ResultFault, Status};
    /// use reversi_engine::{Move, Position, Rules};
    /// // A game played to the end (the first legal move each turn), its score reversed.
    /// let mut pos = Position::new(Rules::default());
    /// let mut record = Record::new(Rules::default());
    /// while !pos.is_over() {
    ///     let mv = match pos.legal_moves().iter().next() {
    ///         Some(sq) => Move::Place(sq),
    ///         None => Move::Pass,
    ///     };
    ///     pos.play(mv).unwrap();
    ///     if mv != Move::Pass {
    ///         record.moves.push(MoveRecord::new(mv));
    ///     }
    /// }
    /// let score = pos.outcome().unwrap().score;
    /// assert_ne!(score[0], score[1]);
    /// record.result = Some(ClaimedResult::discs(vec![score[1], score[0]]));
    /// let found = repair_record(&record, &RepairOptions::default());
    /// assert_eq!(found.status, Status::WrongResult);
    /// assert_eq!(found.edits[0].fault, Some(ResultFault::Reversed));
    /// assert_eq!(found.record.as_ref(), Some(&record), "written unchanged");
    /// let fixed = found.fix_result();
    /// assert_eq!(fixed.status, Status::Repaired);
    /// assert!(fixed.annotated().unwrap().tag("Repair").unwrap().starts_with("the result is wrong"));
    /// ```
    pub fn fix_result(mut self) -> Repair {
        if self.status != Status::WrongResult || self.candidates.is_empty() {
            return self;
        }
        let c = self.candidates.remove(0);
        self.status = Status::Repaired;
        self.board = validate_board(&c.record, c.first);
        self.record = Some(c.record);
        self
    }

    /// Whether this is a two-player game's wrong result that is the board's exactly
    /// reversed, and nothing else: what a sheet written from White's side gives (its names are swapped too), as
    /// much as a reversed score. Only a pairing tells the two apart
    /// ([`Repair::swap_names`]).
    pub fn is_reversed_result(&self) -> bool {
        self.status == Status::WrongResult
            && self.record.as_ref().is_some_and(|r| r.rules.players() == 2)
            && matches!(self.edits.as_slice(), [e] if e.kind == EditKind::Result && e.fault == Some(ResultFault::Reversed))
    }

    /// Makes the repair of a sheet written from White's side ([`Repair::is_reversed_result`]):
    /// the `Black` and `White` names exchanged and the board's result, so each player keeps
    /// the score the sheet gives them, [`Status::Repaired`]. Take it when the pairing has
    /// the players the other way round; any other repair is returned as it is.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_formats::record::ResultScore;
    /// use reversi_check::repair::{repair_game, EditKind, RepairOptions, Status};
    /// // Ann (Black) won 35-29 (a game of WTHOR 1990); the sheet names Bob as Black and
    /// // gives the score from his side.
    /// let game = "[Black \"Bob\"]\n[White \"Ann\"]\n[Result \"29-35\"]\n\n\
    ///     f5 f6 e6 f4 g5 e7 f7 c5 e8 g6 h6 d7 d6 c7 f3 g3 e3 g4 d3 h5 h4 h3 h2 c2 c4 b5 \
    ///     d8 c3 d2 c8 c6 b6 b8 e1 b4 a4 b3 f2 e2 f1 d1 c1 a3 a5 b2 g2 b7 a8 a7 a6 h1 f8 \
    ///     g7 b1 g1 a2 a1 h7 g8 h8\n";
    /// let read = ReadOptions::default();
    /// let games = Format::Rgn.read_bytes(game, &read).unwrap();
    /// let repair = repair_game(&games[0], Format::Rgn, &read, &RepairOptions::default());
    /// assert!(repair.is_reversed_result(), "a reversed score, or names swapped");
    /// let fixed = repair.swap_names();
    /// assert_eq!(fixed.status, Status::Repaired);
    /// assert_eq!(fixed.edits[0].kind, EditKind::Names);
    /// let record = fixed.record.unwrap();
    /// assert_eq!((record.tag("Black"), record.tag("White")), (Some("Ann"), Some("Bob")));
    /// assert_eq!(record.tag("Result"), None, "the result is the record's claim");
    /// assert_eq!(record.result.unwrap().score, ResultScore::Discs(vec![35, 29]));
    /// ```
    pub fn swap_names(mut self) -> Repair {
        if !self.is_reversed_result() {
            return self;
        }
        let Some(c) = self.candidates.first().cloned() else {
            return self;
        };
        let mut record = c.record;
        let black = record.tag("Black").unwrap_or("?").to_owned();
        let white = record.tag("White").unwrap_or("?").to_owned();
        // Every tag of one colour's player (`BlackElo`, `WthorWhite`, ...) goes with them.
        for tag in &mut record.tags {
            let other = if tag.name.contains("Black") {
                tag.name.replacen("Black", "White", 1)
            } else if tag.name.contains("White") {
                tag.name.replacen("White", "Black", 1)
            } else {
                continue;
            };
            tag.name = other;
            tag.span = None;
        }
        let Some(result) = self.edits.pop() else {
            return self;
        };
        self.edits = vec![Edit {
            kind: EditKind::Names,
            written: format!("Black {black}, White {white}, {}", result.written),
            now: format!("Black {white}, White {black}, {}", result.now),
            ..result
        }];
        self.candidates.clear();
        self.status = Status::Repaired;
        self.board = validate_board(&record, c.first);
        self.record = Some(record);
        self
    }

    /// Takes alternative `n` (1-based, as the report lists them) of an ambiguous game: it
    /// becomes [`Status::Repaired`] with those edits, or [`Status::WrongResult`] when they
    /// include the result ([`Repair::fix_result`] then applies them). The alternatives stay
    /// listed, and [`Repair::picked`] says which was taken.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_check::repair::{repair_game, PickError, RepairOptions, Status};
    /// let read = ReadOptions::default();
    /// let games = Format::MoveString.read_bytes("f5 d6 c3 d3 a1\n", &read).unwrap();
    /// let repair = repair_game(&games[0], Format::MoveString, &read, &RepairOptions::default());
    /// assert_eq!(repair.status, Status::Ambiguous);
    /// let count = repair.alternatives.len();
    /// let second = repair.clone().pick(2).unwrap();
    /// assert_eq!(second.status, Status::Repaired);
    /// assert_eq!(second.edits, repair.alternatives[1]);
    /// assert_eq!(
    ///     repair.pick(count + 1).unwrap_err(),
    ///     PickError::OutOfRange { pick: count + 1, count }
    /// );
    /// ```
    pub fn pick(mut self, n: usize) -> Result<Repair, PickError> {
        if self.status != Status::Ambiguous {
            return Err(PickError::NotAmbiguous(self.status));
        }
        let count = self.candidates.len();
        let Some(c) = n
            .checked_sub(1)
            .and_then(|i| self.candidates.get(i))
            .cloned()
        else {
            return Err(PickError::OutOfRange { pick: n, count });
        };
        self.candidates.clear();
        settle(&mut self, c);
        self.picked = Some(n);
        Ok(self)
    }

    /// "alternative 2 of 6, picked", for a picked repair.
    fn picked_note(&self) -> Option<String> {
        self.picked
            .map(|n| format!("alternative {n} of {}, picked", self.alternatives.len()))
    }

    /// The record to write, with the repair stated in it: a `Repair` tag listing the edits
    /// (and, for a picked alternative, which one) and a comment on each edited move. `None`
    /// when the game could not be read.
    pub fn annotated(&self) -> Option<Record> {
        let mut record = self.record.clone()?;
        if self.status == Status::Repaired {
            let list: Vec<String> = self.edits.iter().map(Edit::to_string).collect();
            let mut tag = list.join("; ");
            if let Some(note) = self.picked_note() {
                tag.push_str(&format!(" ({note})"));
            }
            record.set_tag("Repair", tag);
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
                EditKind::Delete | EditKind::Erase | EditKind::Result | EditKind::Names => continue,
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
    /// each edit and the board at the first, `wrong-result` (error) naming the board's
    /// result and the kind of slip, `ambiguous` (warning) listing the alternatives by
    /// number, `unrepairable` (error); `None` for a valid game. It names the players,
    /// round and board the record gives ([`Diagnostic::identity`]).
    pub fn report(&self, game: usize) -> Option<Diagnostic> {
        let mut d = self.finding(game)?;
        d.identity = self
            .record
            .as_ref()
            .and_then(|r| Identity::of_tags(&r.tags))
            .map(std::sync::Arc::new);
        Some(d)
    }

    /// [`Repair::report`] before the identity.
    fn finding(&self, game: usize) -> Option<Diagnostic> {
        let plural = |n: usize| if n == 1 { "edit" } else { "edits" };
        match self.status {
            Status::Valid => None,
            Status::Repaired => {
                let list: Vec<String> = self.edits.iter().map(Edit::to_string).collect();
                let first = self.edits.first();
                let picked = self
                    .picked_note()
                    .map(|n| format!(" ({n})"))
                    .unwrap_or_default();
                let mut d = Diagnostic::warning(
                    Code::Repaired,
                    format!(
                        "repaired with {} {}{picked}: {}",
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
                d.move_number = first.map(|e| e.move_number).filter(|&n| n > 0);
                d.severity = Severity::Advice;
                d = d.help(if first.is_some_and(|e| e.kind == EditKind::Result) {
                    "the final board:"
                } else {
                    "the repaired game before the first edit:"
                });
                if let Some(b) = &self.board {
                    d = d.with_board(b.clone());
                }
                Some(d)
            }
            Status::WrongResult => {
                let (result, moves): (Vec<&Edit>, Vec<&Edit>) =
                    self.edits.iter().partition(|e| e.kind == EditKind::Result);
                let result_text: Vec<String> = result.iter().map(|e| e.to_string()).collect();
                let mut message = if moves.is_empty() {
                    result_text.join("; ")
                } else {
                    let list: Vec<String> = moves.iter().map(|e| e.to_string()).collect();
                    format!(
                        "with {} {} ({}) the moves are legal, but {}",
                        moves.len(),
                        plural(moves.len()),
                        list.join("; "),
                        result_text.join("; ")
                    )
                };
                if let Some(note) = self.picked_note() {
                    message.push_str(&format!(" ({note})"));
                }
                message.push_str("; the game is written unchanged");
                let mut d = Diagnostic::error(Code::WrongResult, message)
                    .at(result.first().and_then(|e| e.span), "the claimed result")
                    .in_game(game);
                for e in &moves {
                    d = d.related(e.span, e.to_string());
                }
                d.move_number = moves.first().map(|e| e.move_number).filter(|&n| n > 0);
                d = d.help(if self.is_reversed_result() {
                    "`--fix-result` writes the board's result, with a `Repair` tag; but a sheet written from White's side has its names swapped too, and then each player's score is right: the pairings (`--pairings`) tell the two apart. The final board:"
                } else if moves.is_empty() {
                    "`--fix-result` writes the board's result, with a `Repair` tag; the final board:"
                } else {
                    "`--fix-result` writes the move edits and the board's result, with a `Repair` tag; the final board:"
                });
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
                    .enumerate()
                    .map(|(i, alt)| {
                        let edits: Vec<String> = alt.iter().map(Edit::to_string).collect();
                        format!("{}. {}", i + 1, edits.join("; "))
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
                .help(format!(
                    "the alternatives (`--pick {game}:N` takes one):\n  {}",
                    lines.join("\n  ")
                ));
                d.move_number = first.map(|e| e.move_number).filter(|&n| n > 0);
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
                    let full = match self.searched {
                        0 => "no number of edits was searched in full".to_string(),
                        n => format!("repairs of up to {n} {} were searched in full", plural(n)),
                    };
                    message.push_str(&format!(
                        " (the search stopped at its work limit of {} replays: {full}; `--work-limit` raises it)",
                        self.work_limit
                    ));
                }
                if let Some(why) = &self.not_searched {
                    message = why.clone();
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
    let limit = options.work_limit;
    let diagnostics = validate_record(record, 1).diagnostics;
    if !diagnostics.iter().any(Diagnostic::is_error) {
        return Repair::unchanged(Status::Valid, Some(record.clone()), diagnostics);
    }
    repair_moves(record, Kinds::ALL, options.max_edits, limit, diagnostics, 1)
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
    let limit = options.work_limit;
    let is_grid = format == Format::Transcript;
    match &game.record {
        Some(record) => {
            let mut diagnostics = game.diagnostics.clone();
            diagnostics.extend(validate_record(record, game.index).diagnostics);
            if let Some(identity) = game.identity().map(std::sync::Arc::new) {
                for d in &mut diagnostics {
                    d.identity = Some(identity.clone());
                }
            }
            if !diagnostics.iter().any(Diagnostic::is_error) {
                return Repair::unchanged(Status::Valid, Some(record.clone()), diagnostics);
            }
            if game.diagnostics.iter().any(Diagnostic::is_error) {
                if let Some(repair) = squares::repair(game, format, read, options.max_edits, limit)
                {
                    return repair;
                }
                return Repair::not_searched(
                    Some(record.clone()),
                    diagnostics,
                    "the reader's errors are not in the moves, and repair edits only moves",
                );
            }
            let kinds = if is_grid { Kinds::SWAPS } else { Kinds::ALL };
            repair_moves(
                record,
                kinds,
                options.max_edits,
                limit,
                diagnostics,
                game.index,
            )
        }
        None if is_grid && grid::fixable(&game.diagnostics) => {
            grid::repair(game, read, options.max_edits, limit)
        }
        None => {
            squares::repair(game, format, read, options.max_edits, limit).unwrap_or_else(|| {
                Repair::not_searched(
                    None,
                    game.diagnostics.clone(),
                    "the game could not be read, and nothing of it can be repaired",
                )
            })
        }
    }
}

/// A move list found, waiting to be checked: as found (it gives the claimed result), or
/// with the result as one more edit.
struct Pending<'f> {
    found: &'f Found,
    result: Option<ResultFix>,
}

impl Pending<'_> {
    fn rank(&self) -> (usize, u32) {
        let result = self.result.as_ref();
        (
            self.found.ops.len() + usize::from(result.is_some()),
            self.found.cost + result.map_or(0, |r| r.cost),
        )
    }
}

/// The pending move list as a checked candidate, if the record it gives validates.
fn check(
    record: &Record,
    pending: Pending<'_>,
    valid: crate::edits::Valid<'_>,
) -> Option<Candidate> {
    let Some(fix) = pending.result else {
        return candidate(record, pending.found, valid);
    };
    let ops = &pending.found.ops;
    let mut edits = describe(record, ops);
    edits.push(fix.edit);
    let mut rebuilt = rebuild(record, ops);
    rebuilt.result = Some(fix.claim);
    if !valid(&rebuilt) {
        return None;
    }
    let first = ops
        .iter()
        .map(|op| op.index())
        .min()
        .unwrap_or(rebuilt.moves.len());
    Some(Candidate {
        edits,
        record: rebuilt,
        cost: pending.found.cost + fix.cost,
        first,
    })
}

fn repair_moves(
    record: &Record,
    kinds: Kinds,
    max_edits: usize,
    limit: WorkLimit,
    diagnostics: Vec<Diagnostic>,
    game: usize,
) -> Repair {
    let Some(search) = Search::new(record, kinds, true) else {
        return Repair::not_searched(
            Some(record.clone()),
            diagnostics,
            "the start position is impossible, and repair edits only moves",
        );
    };
    let mut search = search.with_budget(limit.replays).keeping_wrong_results();
    let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
    let valid = |r: &Record| validate_record(r, game).errors() == 0;
    // Legal moves with a wrong result: the result is the edit, never a legal move.
    if let Some(fix) = replay(record, &moves).and_then(|end| result_fix(record, &end)) {
        let as_written = Found {
            ops: Vec::new(),
            moves,
            cost: 0,
        };
        let board = fix.edit.now.clone();
        let pending = Pending {
            found: &as_written,
            result: Some(fix),
        };
        return match check(record, pending, &valid) {
            Some(c) => decide(record, vec![c], diagnostics, max_edits, false),
            None => Repair::not_searched(
                Some(record.clone()),
                diagnostics,
                format!("the moves are legal, but the result is wrong (the board gives {board}) and the record's other claims (flips, positions, colours) have errors, which repair does not edit"),
            ),
        };
    }
    if search.is_good(&moves) {
        return Repair::not_searched(
            Some(record.clone()),
            diagnostics,
            "the moves are legal and give the result; the errors are in the record's other claims (flips, positions, colours), which repair does not edit",
        );
    }
    let found = search.run(&moves, max_edits);
    let wrong = search.wrong_results();
    let mut pending: Vec<Pending<'_>> = found
        .iter()
        .map(|f| Pending {
            found: f,
            result: None,
        })
        .collect();
    pending.extend(wrong.iter().filter_map(|f| {
        let end = replay(record, &f.moves)?;
        Some(Pending {
            found: f,
            result: Some(result_fix(record, &end)?),
        })
    }));
    // Stable: ties keep the search's order, the claimed result's candidates first.
    pending.sort_by_key(Pending::rank);
    let candidates = best_checked(pending.into_iter().map(|p| check(record, p, &valid)));
    let mut repair = decide(record, candidates, diagnostics, max_edits, search.exhausted);
    repair.work_limit = limit.replays;
    repair.searched = search.complete;
    repair
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
        1 => settle(&mut repair, best.remove(0)),
        _ => {
            repair.status = Status::Ambiguous;
            repair.alternatives = best.iter().map(|c| c.edits.clone()).collect();
            repair.candidates = best;
        }
    }
    repair
}

/// Makes `c` the repair: [`Status::Repaired`], or [`Status::WrongResult`] (the record as
/// read kept) when it edits the result.
fn settle(repair: &mut Repair, c: Candidate) {
    repair.edits = c.edits.clone();
    if c.edits.iter().any(|e| e.kind == EditKind::Result) {
        repair.status = Status::WrongResult;
        repair.board = validate_board(&c.record, c.record.moves.len());
        repair.candidates = vec![c];
    } else {
        repair.status = Status::Repaired;
        repair.board = validate_board(&c.record, c.first);
        repair.record = Some(c.record);
    }
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
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_check::repair::{repair_batch, RepairOptions, Status};
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
