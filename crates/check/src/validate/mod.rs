//! The replay validator: re-executes every move of a record against the engine and reports
//! everything the record gets wrong, as [`Diagnostic`]s with stable codes.
//!
//! ```
//! use reversi_formats::record::{MoveRecord, Record};
//! use reversi_check::validate;
//! use reversi_engine::{Move, Rules};
//! let mut record = Record::new(Rules::default());
//! for sq in ["f5", "d6", "a1"] {
//!     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
//! }
//! let report = validate::validate_record(&record, 1);
//! assert_eq!(report.diagnostics[0].code, "illegal-move");
//! assert_eq!(report.diagnostics[0].move_number, Some(3));
//! ```

use std::borrow::Cow;

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::engine::{IllegalMove, Move, Outcome, Position, Rules, SquareSet};
use crate::record::score::{join_counts, result_mismatch};
use crate::record::{ClaimedResult, MoveRecord, Record, ResultScore, StartPosition, Termination};

mod game;
mod suggest;

pub use suggest::other_rules;

#[doc(hidden)]
pub use game::validate_game_to_end;
pub use game::{validate_game, validate_game_quick, CodeCounts, Summary};

/// What replaying one game found.
#[derive(Clone, Debug)]
pub struct GameReport {
    /// Everything found, in the order of the moves.
    pub diagnostics: Vec<Diagnostic>,
    /// Plies replayed (inferred passes included).
    pub plies: usize,
    /// The position reached (the last legal one after an illegal move).
    pub position: Option<Position>,
    /// The outcome, when the game was replayed to its end.
    pub outcome: Option<Outcome>,
    /// The indexes of the moves before which replay inferred a pass the record leaves out
    /// (what [`make_passes_explicit`] writes for a game without errors).
    pub inferred_passes: Vec<usize>,
}

impl GameReport {
    /// Number of errors.
    pub fn errors(&self) -> usize {
        self.diagnostics.iter().filter(|d| d.is_error()).count()
    }
}

/// Replays `record` (game number `game` of its file) and reports what it gets wrong.
pub fn validate_record(record: &Record, game: usize) -> GameReport {
    run_validator(record, game, true)
}

/// [`validate_record`] without working out suggestions for an illegal move (one replay).
pub(crate) fn validate_record_quick(record: &Record, game: usize) -> GameReport {
    run_validator(record, game, false)
}

/// Whether `record` replays without an error, without working out suggestions (cheap:
/// one replay).
pub(crate) fn replays_cleanly(record: &Record) -> bool {
    run_validator(record, 0, false).errors() == 0
}

fn run_validator(record: &Record, game: usize, suggest: bool) -> GameReport {
    let mut v = Validator {
        record,
        game,
        diagnostics: Vec::new(),
        inferred_passes: Vec::new(),
        suggest,
    };
    let (position, plies, outcome) = v.run();
    GameReport {
        diagnostics: v.diagnostics,
        plies,
        position,
        outcome,
        inferred_passes: v.inferred_passes,
    }
}

struct Validator<'r> {
    record: &'r Record,
    game: usize,
    diagnostics: Vec<Diagnostic>,
    inferred_passes: Vec<usize>,
    /// Whether to work out fixes for an illegal move (an edit search).
    suggest: bool,
}

impl Validator<'_> {
    fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d.in_game(self.game));
    }

    fn run(&mut self) -> (Option<Position>, usize, Option<Outcome>) {
        let record = self.record;
        let rules = record.rules;
        let mut pos = match record.start_position() {
            Ok(p) => p,
            Err(e) => {
                let span = record
                    .start
                    .as_ref()
                    .and_then(|s| s.span)
                    .or(record.rules_span);
                self.push(
                    Diagnostic::error(Code::BadSetup, format!("the start position is impossible: {e}"))
                        .at(span, "this start position")
                        .help(format!("the rules are `{rules}`; every disc must stand on a playable square of a colour that takes part")),
                );
                return (None, 0, None);
            }
        };
        let explicit_passes = record.moves.iter().any(|m| m.mv == Move::Pass);
        let mut claims = record.positions.iter().peekable();
        let mut ply = 0;
        let mut last_pass_span = None;
        for (i, m) in record.moves.iter().enumerate() {
            let number = i + 1;
            if claims.peek().is_some() {
                while claims.peek().is_some_and(|c| c.after_moves < number - 1) {
                    claims.next();
                }
                self.check_position_claims(&mut claims, number - 1, &pos, ply);
            }
            // The clean path is one checked play; everything else is worked out only when
            // it fails.
            let mut mover = pos.turn();
            let mut played = play(&mut pos, m);
            if played.is_err() {
                if pos.is_over() {
                    self.report_moves_after_end(&pos, i, ply);
                    return (Some(pos), ply, None);
                }
                // A move the record says the side to move made is that side's mistake,
                // not an omitted pass (classic reversi: a player without discs).
                if m.mv != Move::Pass && pos.must_pass() && m.color != Some(pos.turn()) {
                    ply += 1;
                    if explicit_passes {
                        self.push(
                            Diagnostic::error(
                                Code::MissingPass,
                                format!("{} has no legal move and must pass before {}", pos.turn(), m.mv),
                            )
                            .at(m.span, "a pass is missing before this move")
                            .at_move(ply, Some(number))
                            .help("this record writes passes explicitly: insert `--` before this move")
                            .with_board(pos.to_string()),
                        );
                    }
                    self.inferred_passes.push(i);
                    pos.play(Move::Pass)
                        .expect("must_pass means a pass is legal");
                    mover = pos.turn();
                    played = play(&mut pos, m);
                }
            }
            ply += 1;
            if let Some(claimed) = m.color.filter(|&c| c != mover) {
                self.push(
                    Diagnostic::error(
                        Code::WrongColor,
                        format!(
                            "the record says {claimed} plays {}, but it is {mover}'s turn",
                            m.mv
                        ),
                    )
                    .at(m.span, format!("{mover} to move here"))
                    .at_move(ply, Some(number))
                    .help(if rules.players() > 2 {
                        "nobody passes in 3-4 player games: a move may be missing, extra or out of order before this one"
                    } else {
                        "a pass may be missing or extra before this move"
                    }),
                );
            }
            match played {
                Ok(flipped) => {
                    if m.mv == Move::Pass {
                        last_pass_span = m.span;
                    }
                    if m.flips.is_some() {
                        self.check_flips(m, flipped, &pos, ply, number);
                    }
                }
                Err(reason) => {
                    // A failed play leaves the position as it was before the move.
                    self.report_illegal(&pos, m, reason, ply, number, last_pass_span);
                    return (Some(pos), ply - 1, None);
                }
            }
        }
        self.check_position_claims(&mut claims, record.moves.len(), &pos, ply);
        let outcome = self.check_end(&pos, ply);
        (Some(pos), ply, outcome)
    }

    fn report_moves_after_end(&mut self, pos: &Position, index: usize, ply: usize) {
        let moves = &self.record.moves;
        let rest = moves.len() - index;
        let label = match rest {
            1 => "this move comes after the end".to_string(),
            2 => "this and 1 more move come after the end".to_string(),
            n => format!("this and {} more moves come after the end", n - 1),
        };
        let end = index.checked_sub(1).and_then(|i| moves[i].span);
        self.push(
            Diagnostic::error(
                Code::MovesAfterEnd,
                format!("the game is over after {index} moves, but the record goes on with {rest} more"),
            )
            .at(moves[index].span, label)
            .related(end, "the game ends with this move")
            .at_move(ply + 1, Some(index + 1))
            .help("remove the moves after the end, or check the moves before: an earlier mistake can end a game early")
            .with_board(pos.to_string()),
        );
    }

    fn check_position_claims<'c>(
        &mut self,
        claims: &mut std::iter::Peekable<impl Iterator<Item = &'c crate::record::PositionClaim>>,
        after: usize,
        pos: &Position,
        ply: usize,
    ) {
        while let Some(claim) = claims.next_if(|c| c.after_moves == after) {
            let actual = pos.setup();
            let mut differing = SquareSet::EMPTY;
            for c in crate::engine::Color::ALL {
                differing = differing.union(SquareSet(
                    claim.setup.discs[c.index()].0 ^ actual.discs[c.index()].0,
                ));
            }
            differing = differing.union(SquareSet(claim.setup.neutral.0 ^ actual.neutral.0));
            let turn_wrong = claim.setup.turn != actual.turn && !pos.is_over();
            if differing.is_empty() && !turn_wrong {
                continue;
            }
            let mut what = Vec::new();
            if !differing.is_empty() {
                what.push(match differing.len() {
                    1 => format!("square {differing} differs"),
                    _ => format!("squares {differing} differ"),
                });
            }
            if turn_wrong {
                what.push(format!(
                    "the side to move is {}, not {}",
                    actual.turn, claim.setup.turn
                ));
            }
            self.push(
                Diagnostic::error(
                    Code::WrongPosition,
                    format!(
                        "the board after move {after} is not what the record claims: {}",
                        what.join("; ")
                    ),
                )
                .at(claim.span, "claimed position")
                .at_move(ply, (after > 0).then_some(after))
                .help("the real position is shown below")
                .with_board(pos.to_string()),
            );
        }
    }

    fn check_flips(
        &mut self,
        m: &MoveRecord,
        flipped: SquareSet,
        after: &Position,
        ply: usize,
        number: usize,
    ) {
        let Some(claim) = &m.flips else { return };
        let mut problems = Vec::new();
        if let Some(squares) = claim.squares {
            let missing = flipped.difference(squares);
            let extra = squares.difference(flipped);
            if !missing.is_empty() {
                problems.push(format!("it also flips {missing}"));
            }
            if !extra.is_empty() {
                problems.push(format!("it does not flip {extra}"));
            }
        }
        if let Some(count) = claim.count {
            if count as usize != flipped.len() {
                let real = flipped.len();
                let discs = if real == 1 { "disc" } else { "discs" };
                problems.push(format!("it flips {real} {discs}, not {count}"));
            }
        }
        if problems.is_empty() {
            return;
        }
        self.push(
            Diagnostic::error(
                Code::WrongFlips,
                format!(
                    "{} does not flip what the record claims: {}",
                    m.mv,
                    problems.join("; ")
                ),
            )
            .at(claim.span.or(m.span), "claimed flips")
            .related(m.span.filter(|_| claim.span.is_some()), "the move")
            .at_move(ply, Some(number))
            .help(format!(
                "{} flips {}; the board after it:",
                m.mv,
                if flipped.is_empty() {
                    "nothing".into()
                } else {
                    flipped.to_string()
                }
            ))
            .with_board(after.to_string()),
        );
    }

    fn report_illegal(
        &mut self,
        before: &Position,
        m: &MoveRecord,
        reason: IllegalMove,
        ply: usize,
        number: usize,
        last_pass_span: Option<crate::record::Span>,
    ) {
        let legal = before.legal_moves();
        let (code, message) = match m.mv {
            Move::Pass => (
                Code::IllegalPass,
                format!("{} passes, but {}", before.turn(), reason.reason()),
            ),
            Move::Place(sq) => (
                Code::IllegalMove,
                format!("{} cannot play {sq}: {}", before.turn(), reason.reason()),
            ),
        };
        let mut help = if legal.is_empty() && before.in_hand(before.turn()) == Some(0) {
            format!(
                "{0} has placed all {1} discs, so {0} passes from here on (classic rules hand no disc over) while the opponent plays on",
                before.turn(),
                before.rules().supply().unwrap_or(crate::engine::CLASSIC_SUPPLY),
            )
        } else if legal.is_empty() {
            format!("{} has no legal move here", before.turn())
        } else {
            format!("legal moves for {}: {legal}", before.turn())
        };
        if let Some(fix) = self
            .suggest
            .then(|| suggest::single_change(self.record))
            .flatten()
        {
            help = format!("{fix}; {help}");
        }
        let label = match m.mv {
            Move::Pass => "illegal pass".to_string(),
            Move::Place(_) => reason.reason().to_string(),
        };
        let mut d = Diagnostic::error(code, message)
            .at(m.span, label)
            .at_move(ply, Some(number))
            .help(help)
            .with_board(before.to_string());
        if m.mv != Move::Pass && before.must_pass() {
            d = d.related(last_pass_span, "the last pass");
        }
        let rest = self.record.moves.len() - number;
        if rest > 0 {
            let what = match rest {
                1 => "the last move cannot be replayed".to_string(),
                n => format!("the {n} moves from here cannot be replayed"),
            };
            d = d.related(self.record.moves[number].span, what);
        }
        self.push(d);
    }

    fn check_end(&mut self, pos: &Position, ply: usize) -> Option<Outcome> {
        let record = self.record;
        let claim = record.result.as_ref();
        let Some(outcome) = pos.outcome() else {
            if record.moves.is_empty() && claim.is_none() {
                // A bare position (an OBF line, a puzzle): nothing claims a game.
                return None;
            }
            let claim_note = match claim {
                Some(c) if !c.score.is_none() => {
                    "; its claimed result cannot be checked against the board"
                }
                _ => "",
            };
            let why = match claim.map(|c| c.termination) {
                Some(Termination::Resignation(_)) => " (the record says a player resigned)",
                Some(Termination::Time(_)) => " (the record says a player lost on time)",
                Some(Termination::Unfinished) => " (the record says so)",
                Some(Termination::Agreement) => " (the record says the score was agreed)",
                _ => "",
            };
            // A sheet with a result and no moves: a forfeit (a winner only) or a result
            // entered without its game. Nothing is wrong with it: it is said as advice.
            let result_only = record.moves.is_empty()
                && claim.is_some_and(|c| !c.score.is_none() && c.termination.is_normal());
            if let (true, Some(claim)) = (result_only, claim) {
                let message = match claim.score {
                    ResultScore::Winner(Some(_)) => {
                        "the record has no moves and names a winner: a forfeit (the standings count it so)"
                    }
                    _ => "the record gives the result without the moves: it cannot be checked against a board",
                };
                self.push(
                    Diagnostic::advice(Code::Unfinished, message)
                        .at(claim.span.or(record.span), "claimed result"),
                );
                return None;
            }
            let diagnostic = Diagnostic::warning(
                Code::Unfinished,
                format!(
                    "the record ends before the game is over, after {}{why}{claim_note}",
                    plural(record.moves.len(), "move")
                ),
            );
            self.push(
                diagnostic
                    .at(
                        record.moves.last().and_then(|m| m.span).or(record.span),
                        format!(
                            "{} to move, {} empty squares",
                            pos.turn(),
                            pos.empty().len()
                        ),
                    )
                    .related(claim.and_then(|c| c.span), "claimed result")
                    .at_move(
                        ply,
                        (!record.moves.is_empty()).then_some(record.moves.len()),
                    )
                    .help(format!("legal moves here: {}", pos.legal_moves()))
                    .with_board(pos.to_string()),
            );
            return None;
        };
        if let Some(claim) = claim {
            if claim.score.is_none() && claim.termination == Termination::Unfinished {
                let players = record.rules.players() as usize;
                let real = join_counts(&outcome.score[..players]);
                self.push(
                    Diagnostic::warning(
                        Code::WrongResult,
                        format!(
                            "the record's result is `*` (unfinished), but the game is over: it ends {real}"
                        ),
                    )
                    .at(claim.span, "claimed result")
                    .at_move(
                        ply,
                        (!record.moves.is_empty()).then_some(record.moves.len()),
                    )
                    .help(format!("write the result {real}"))
                    .with_board(pos.to_string()),
                );
            }
            if let Some(problem) = result_mismatch(record, claim, &outcome) {
                self.push(
                    Diagnostic::error(Code::WrongResult, problem.0)
                        .at(claim.span, "claimed result")
                        .at_move(
                            ply,
                            (!record.moves.is_empty()).then_some(record.moves.len()),
                        )
                        .help(problem.1)
                        .with_board(pos.to_string()),
                );
            }
        }
        Some(outcome)
    }
}

/// Plays `m`, working out the flipped discs only when the record claims some.
#[inline]
fn play(pos: &mut Position, m: &MoveRecord) -> Result<SquareSet, IllegalMove> {
    if m.flips.is_some() {
        pos.play_with_flips(m.mv)
    } else {
        pos.play(m.mv).map(|()| SquareSet::EMPTY)
    }
}

/// Gives a finished game the one result its final board determines, when the record has
/// none, only `*`, or a form without disc counts (a margin without komi, a winner) that
/// agrees with the board: the disc counts of `outcome` (what [`validate_record`] replayed
/// to) in turn order, under the rules' scoring. Returns whether it wrote them. A result
/// that disagrees with the board, a margin under komi, or an ending other than play to the
/// end (a resignation, a loss on time, an agreed score) is left as it is.
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_formats::record::ResultScore;
/// use reversi_check::validate::{settle_result, validate_record};
/// let text = "f5f6e6f4c3e7f3f2g5d6e8c6f7h5c5c7d7g6b5b6e3c8d8g8g4f8h4c4d3b4a3h3h6h7g2g3a5e2e1d1g1d2f1c2b3a6a4a2b2c1a7b7b1h2a1b8a8g7";
/// let mut game = Format::MoveString.read_bytes(text, &ReadOptions::default()).unwrap().remove(0);
/// let record = game.record.as_mut().unwrap();
/// let report = validate_record(record, 1);
/// assert!(settle_result(record, report.outcome.as_ref()));
/// assert!(matches!(&record.result.as_ref().unwrap().score, ResultScore::Discs(d) if d.len() == 2));
/// ```
pub fn settle_result(record: &mut Record, outcome: Option<&Outcome>) -> bool {
    let Some(outcome) = outcome else {
        return false;
    };
    let players = record.rules.players() as usize;
    let under_komi = record
        .tag(crate::record::TagName::KOMI)
        .and_then(|k| k.trim().parse::<f64>().ok())
        .is_some_and(|k| k != 0.0);
    let settled = match &record.result {
        None => true,
        Some(claim) => {
            let open = match claim.termination {
                Termination::Normal => true,
                Termination::Unfinished => claim.score.is_none(),
                _ => false,
            };
            open && match &claim.score {
                ResultScore::Discs(_) => false,
                ResultScore::Margin(_) if under_komi => false,
                _ => result_mismatch(record, claim, outcome).is_none(),
            }
        }
    };
    if settled {
        let span = record.result.as_ref().and_then(|c| c.span);
        let mut result = ClaimedResult::discs(outcome.score[..players].to_vec());
        result.span = span;
        record.result = Some(result);
    }
    settled
}

/// `1 move`, `2 moves`.
fn plural(n: usize, noun: &str) -> String {
    if n == 1 {
        format!("1 {noun}")
    } else {
        format!("{n} {noun}s")
    }
}

/// The record with every pass that replay infers written out, so formats that write passes
/// get them. Position claims keep pointing after the same moves. A record that does not
/// replay legally comes back unchanged (nothing is ever repaired).
///
/// ```
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_check::validate;
/// use reversi_engine::{Move, Rules};
/// // 4x4: after a2 a1 c4 d2 d1 d4 d3 a3 b1 c1, Black must pass before White's b4.
/// let mut record = Record::new("othello:4x4".parse().unwrap());
/// for sq in ["a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "b4", "a4"] {
///     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
/// }
/// let explicit = validate::with_explicit_passes(&record);
/// assert_eq!(explicit.moves.len(), 13);
/// assert_eq!(explicit.moves[10].mv, Move::Pass);
/// ```
pub fn with_explicit_passes(record: &Record) -> Cow<'_, Record> {
    let passes_before = implicit_passes(record);
    if passes_before.is_empty() {
        return Cow::Borrowed(record);
    }
    let mut out = record.clone();
    insert_passes(&mut out, &passes_before);
    Cow::Owned(out)
}

/// [`with_explicit_passes`] in place: writes out every pass that replay infers; returns
/// whether it wrote any. A record that does not replay legally is left unchanged.
///
/// ```
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_check::validate;
/// use reversi_engine::{Move, Rules};
/// let mut record = Record::new("othello:4x4".parse().unwrap());
/// for sq in ["a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "b4", "a4"] {
///     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
/// }
/// assert!(validate::make_passes_explicit(&mut record));
/// assert_eq!(record, *validate::with_explicit_passes(&record));
/// assert_eq!(record.moves[10].mv, Move::Pass);
/// ```
pub fn make_passes_explicit(record: &mut Record) -> bool {
    let passes_before = implicit_passes(record);
    insert_passes(record, &passes_before);
    !passes_before.is_empty()
}

/// Writes out the passes that the replay behind `report` inferred (a game without errors:
/// [`make_passes_explicit`] without a second replay); returns whether it wrote any.
///
/// ```
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_check::validate;
/// use reversi_engine::{Move};
/// let mut record = Record::new("othello:4x4".parse().unwrap());
/// for sq in ["a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "b4", "a4"] {
///     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
/// }
/// let report = validate::validate_record(&record, 1);
/// assert_eq!(report.inferred_passes, [10]);
/// assert!(validate::insert_inferred_passes(&mut record, &report));
/// assert_eq!(record.moves[10].mv, Move::Pass);
/// ```
pub fn insert_inferred_passes(record: &mut Record, report: &GameReport) -> bool {
    insert_passes(record, &report.inferred_passes);
    !report.inferred_passes.is_empty()
}

/// The indexes of the moves before which replay infers a pass the record leaves out; none
/// when the record writes its passes or does not replay legally.
fn implicit_passes(record: &Record) -> Vec<usize> {
    let mut passes_before = Vec::new();
    let moves = record.moves.iter().map(|m| m.mv);
    infer_passes(
        &record.rules,
        record.start.as_ref(),
        moves,
        &mut passes_before,
    );
    passes_before
}

/// The passes that replay infers in `moves` (from `start`, or the rules' start), as the
/// indexes of the moves they go before, into `passes_before` (cleared first). A game that
/// does not replay legally, or whose start the rules refuse, infers none.
#[doc(hidden)]
pub fn infer_passes(
    rules: &Rules,
    start: Option<&StartPosition>,
    moves: impl Iterator<Item = Move> + Clone,
    passes_before: &mut Vec<usize>,
) {
    passes_before.clear();
    // Standard Othello from its usual start, the common case, on the quick check's board;
    // anything it cannot tell, with the engine.
    if start.is_none()
        && crate::engine::quick::implicit_passes(rules, moves.clone(), passes_before).is_some()
    {
        return;
    }
    passes_before.clear();
    let Ok(mut pos) = crate::record::start_position(*rules, start) else {
        return;
    };
    for (i, mv) in moves.enumerate() {
        if pos.play(mv).is_ok() {
            continue;
        }
        // A placement fails where its player has to pass first, or it is illegal.
        if mv == Move::Pass || !pos.must_pass() || {
            let _ = pos.play(Move::Pass);
            pos.play(mv).is_err()
        } {
            passes_before.clear();
            return;
        }
        passes_before.push(i);
    }
}

fn insert_passes(record: &mut Record, passes_before: &[usize]) {
    if passes_before.is_empty() {
        return;
    }
    let moves = std::mem::take(&mut record.moves);
    record.moves = Vec::with_capacity(moves.len() + passes_before.len());
    let mut pending = passes_before.iter().peekable();
    for (i, m) in moves.into_iter().enumerate() {
        if pending.next_if(|&&p| p == i).is_some() {
            record.moves.push(MoveRecord::new(Move::Pass));
        }
        record.moves.push(m);
    }
    for claim in &mut record.positions {
        // A claim after n moves moves past the passes inserted before move n (1-based)
        // and every earlier one.
        let shift = match claim.after_moves {
            0 => 0,
            n => passes_before.iter().filter(|&&p| p < n).count(),
        };
        claim.after_moves += shift;
    }
}
