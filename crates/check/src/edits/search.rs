//! The search for the smallest set of edits that makes a game legal and its result as
//! claimed: depth-first over edit positions up to the first failing move, replaying from
//! cached prefix positions.

use std::collections::HashMap;

use crate::engine::{Move, Position, SquareSet};
use crate::record::{Record, ResultScore, Termination};

use super::plausibility as cost;

/// One edit of a move list, in the coordinates of the list it applies to.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Op {
    /// Exchange the moves at two indexes (the first is the smaller).
    Swap(usize, usize),
    /// Put another move at an index.
    Replace(usize, Move),
    /// Remove the move at an index.
    Delete(usize),
    /// Insert a move before an index (the length: after the last move).
    Insert(usize, Move),
}

impl Op {
    /// The index the edit starts at.
    pub(crate) fn index(self) -> usize {
        match self {
            Op::Swap(a, _) | Op::Replace(a, _) | Op::Delete(a) | Op::Insert(a, _) => a,
        }
    }

    /// Applies the edit to `moves`.
    pub(crate) fn apply<T: Clone>(self, items: &mut Vec<T>, make: impl FnOnce(Move) -> T) {
        match self {
            Op::Swap(a, b) => items.swap(a, b),
            Op::Replace(i, mv) => items[i] = make(mv),
            Op::Delete(i) => {
                items.remove(i);
            }
            Op::Insert(i, mv) => items.insert(i, make(mv)),
        }
    }
}

/// Which edit kinds the search may use.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Kinds {
    pub(crate) swap: bool,
    pub(crate) replace: bool,
    pub(crate) delete: bool,
    pub(crate) insert: bool,
}

impl Kinds {
    pub(crate) const ALL: Kinds = Kinds {
        swap: true,
        replace: true,
        delete: true,
        insert: true,
    };
    /// On a transcript grid a move list can only be wrong by two numbers exchanged.
    pub(crate) const SWAPS: Kinds = Kinds {
        swap: true,
        replace: false,
        delete: false,
        insert: false,
    };
}

/// A move list the search found.
#[derive(Clone, Debug)]
pub(crate) struct Found {
    /// The edits, in the order they apply.
    pub(crate) ops: Vec<Op>,
    /// The moves they give.
    pub(crate) moves: Vec<Move>,
    /// Plausibility cost (lower is likelier).
    pub(crate) cost: u32,
}

/// How a replayed move list ends.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// Legal, and the result agrees with the claim (or there is none).
    Good,
    /// Legal, but the result contradicts the claim.
    WrongResult,
}

/// The search over one record.
pub(crate) struct Search<'r> {
    record: &'r Record,
    start: Position,
    kinds: Kinds,
    /// Whether candidates must agree with the claimed result.
    check_result: bool,
    /// Replays left before the search gives up.
    budget: usize,
    /// Whether the budget ran out.
    pub(crate) exhausted: bool,
    /// The most edits searched in full (when the budget ran out: fewer than tried).
    pub(crate) complete: usize,
    /// Whether to keep the move lists that replay legally to the end but contradict the
    /// claimed result, at the first depth that has any ([`Search::wrong_results`]).
    collect_wrong: bool,
    /// Those move lists.
    wrong: HashMap<Vec<Move>, Found>,
}

/// Replays the search may do for one game by default: bounds the time a hopeless game
/// takes.
pub(crate) const BUDGET: usize = 400_000;

impl<'r> Search<'r> {
    /// A search over `record`, or `None` when its start position is impossible.
    pub(crate) fn new(record: &'r Record, kinds: Kinds, check_result: bool) -> Option<Search<'r>> {
        Some(Search {
            record,
            start: record.start_position().ok()?,
            kinds,
            check_result,
            budget: BUDGET,
            exhausted: false,
            complete: 0,
            collect_wrong: false,
            wrong: HashMap::new(),
        })
    }

    /// The same search with another work limit (replays).
    pub(crate) fn with_budget(mut self, replays: usize) -> Search<'r> {
        self.budget = replays;
        self
    }

    /// The same search keeping the move lists that are legal to the end but contradict
    /// the claimed result (for the result as an edit): at the first depth that has them,
    /// and then one depth further, where a move list with one more edit that does give
    /// the claimed result ranks with them.
    pub(crate) fn keeping_wrong_results(mut self) -> Search<'r> {
        self.collect_wrong = self.check_result;
        self
    }

    /// The legal move lists with the wrong result the search kept, best first (by cost).
    pub(crate) fn wrong_results(&mut self) -> Vec<Found> {
        sorted(std::mem::take(&mut self.wrong))
    }

    /// Whether the record claims a result the final board can be checked against.
    pub(crate) fn claims_result(record: &Record) -> bool {
        record
            .result
            .as_ref()
            .is_some_and(|c| !c.score.is_none() && c.termination == Termination::Normal)
    }

    /// Whether `moves` already replay legally with the claimed result.
    pub(crate) fn is_good(&mut self, moves: &[Move]) -> bool {
        match self.replay(moves, 0, self.start, None) {
            Ok(pos) => self.judge(&pos) == End::Good,
            Err(_) => false,
        }
    }

    /// Every move list reachable with the fewest edits (at most `max_edits`) that replays
    /// legally and agrees with the claimed result; empty when none is found or the moves
    /// already do.
    pub(crate) fn run(&mut self, moves: &[Move], max_edits: usize) -> Vec<Found> {
        let mut cache = Vec::with_capacity(moves.len() + 1);
        let fail = match self.replay(moves, 0, self.start, Some(&mut cache)) {
            Err(i) => i,
            Ok(pos) => match self.judge(&pos) {
                End::Good => return Vec::new(),
                _ => moves.len(),
            },
        };
        let mut wrong_depth = None;
        for depth in 1..=max_edits {
            let mut found = HashMap::new();
            let mut ops = Vec::with_capacity(depth);
            self.expand(moves, &cache, fail, 0, depth, &mut ops, 0, &mut found);
            if self.exhausted && wrong_depth.is_none() {
                // A depth searched in part says nothing of the wrong results it did not reach.
                self.wrong.clear();
            }
            if self.collect_wrong && !self.wrong.is_empty() {
                self.collect_wrong = false;
                wrong_depth = Some(depth);
            }
            if !found.is_empty() || self.exhausted {
                return sorted(found);
            }
            self.complete = depth;
            if wrong_depth.is_some_and(|d| d < depth) {
                break;
            }
        }
        Vec::new()
    }

    /// Replays `moves[from..]` from `pos`, the position before move `from`, inferring
    /// passes; pushes the position before each move into `cache` (truncated to `from`
    /// first) and the final one. The final position, or the index of the first failing move.
    #[inline]
    fn replay(
        &mut self,
        moves: &[Move],
        from: usize,
        mut pos: Position,
        mut cache: Option<&mut Vec<Position>>,
    ) -> Result<Position, usize> {
        self.budget = self.budget.saturating_sub(1);
        if let Some(c) = cache.as_deref_mut() {
            c.truncate(from);
        }
        for (i, &mv) in moves.iter().enumerate().skip(from) {
            if let Some(c) = cache.as_deref_mut() {
                c.push(pos);
            }
            if mv != Move::Pass && pos.must_pass() && pos.play(Move::Pass).is_err() {
                return Err(i);
            }
            if pos.play(mv).is_err() {
                return Err(i);
            }
        }
        if let Some(c) = cache {
            c.push(pos);
        }
        Ok(pos)
    }

    fn judge(&self, pos: &Position) -> End {
        let Some(claim) = self.record.result.as_ref() else {
            return End::Good;
        };
        if !self.check_result || claim.score.is_none() {
            return End::Good;
        }
        match pos.outcome() {
            // The board of an unfinished game cannot agree with the result of a finished one.
            None if claim.termination == Termination::Normal
                && !matches!(claim.score, ResultScore::None) =>
            {
                End::WrongResult
            }
            None => End::Good,
            Some(outcome) => {
                if crate::record::score::result_mismatch(self.record, claim, &outcome).is_none() {
                    End::Good
                } else {
                    End::WrongResult
                }
            }
        }
    }

    /// Tries every edit at indexes `min..=fail` of `moves` (whose prefix positions are in
    /// `cache`), and with `left` > 1 edits more after each.
    #[allow(clippy::too_many_arguments)]
    fn expand(
        &mut self,
        moves: &[Move],
        cache: &[Position],
        fail: usize,
        min: usize,
        left: usize,
        ops: &mut Vec<Op>,
        spent: u32,
        found: &mut HashMap<Vec<Move>, Found>,
    ) {
        let mut edited = Vec::with_capacity(moves.len() + 1);
        let mut candidates = Vec::new();
        let mut child_cache = Vec::with_capacity(moves.len() + 2);
        for p in min..=fail.min(moves.len()) {
            if self.budget == 0 {
                self.exhausted = true;
                return;
            }
            let before = cache[p];
            candidates.clear();
            self.candidates(moves, p, &before, &mut candidates);
            for &(op, c) in &candidates {
                edited.clear();
                edited.extend_from_slice(moves);
                op.apply(&mut edited, |m| m);
                ops.push(op);
                if left == 1 {
                    if let Ok(end) = self.replay(&edited, p, before, None) {
                        self.accept(&edited, &end, ops, spent + c, found);
                    }
                } else {
                    child_cache.clear();
                    child_cache.extend_from_slice(&cache[..p]);
                    let next_fail = match self.replay(&edited, p, before, Some(&mut child_cache)) {
                        Err(i) => Some(i),
                        Ok(end) => match self.judge(&end) {
                            // Fewer edits would do: found at a smaller depth, if at all.
                            End::Good => None,
                            _ => Some(edited.len()),
                        },
                    };
                    if let Some(f) = next_fail {
                        let child = std::mem::take(&mut child_cache);
                        let again = edited.clone();
                        self.expand(&again, &child, f, p, left - 1, ops, spent + c, found);
                        child_cache = child;
                    }
                }
                ops.pop();
                if self.exhausted {
                    return;
                }
            }
        }
    }

    fn accept(
        &mut self,
        moves: &[Move],
        end: &Position,
        ops: &[Op],
        spent: u32,
        found: &mut HashMap<Vec<Move>, Found>,
    ) {
        let found = match self.judge(end) {
            End::Good => found,
            End::WrongResult if self.collect_wrong && end.is_over() => &mut self.wrong,
            End::WrongResult => return,
        };
        let candidate = Found {
            ops: ops.to_vec(),
            moves: moves.to_vec(),
            cost: spent,
        };
        let better = !matches!(found.get(moves), Some(f) if f.cost <= candidate.cost);
        if better {
            found.insert(moves.to_vec(), candidate);
        }
    }

    /// The edits at index `p` worth trying, with their costs: only those that put a legal
    /// move at `p`.
    fn candidates(&self, moves: &[Move], p: usize, before: &Position, out: &mut Vec<(Op, u32)>) {
        let mut pos = *before;
        if pos.must_pass() && !pos.is_over() {
            let _ = pos.play(Move::Pass);
        }
        let legal = if pos.is_over() {
            SquareSet::EMPTY
        } else {
            pos.legal_moves()
        };
        let fits = |mv: Move| match mv {
            Move::Place(sq) => legal.contains(sq),
            Move::Pass => before.must_pass(),
        };
        let current = moves.get(p).copied();
        let k = self.kinds;
        if let Some(cur) = current {
            if k.swap {
                for (q, &other) in moves.iter().enumerate().skip(p + 1) {
                    if other != cur && fits(other) {
                        out.push((Op::Swap(p, q), cost::swap(q - p)));
                    }
                }
            }
            if k.replace {
                for sq in legal.iter() {
                    if Move::Place(sq) != cur {
                        out.push((Op::Replace(p, Move::Place(sq)), cost::replace(cur, sq)));
                    }
                }
            }
            if k.delete && !matches!(moves.get(p + 1), Some(&next) if !fits(next)) {
                let doubled = p.checked_sub(1).and_then(|i| moves.get(i)) == Some(&cur)
                    || moves.get(p + 1) == Some(&cur);
                out.push((Op::Delete(p), cost::delete(doubled)));
            }
        }
        if k.insert {
            for sq in legal.iter() {
                if current != Some(Move::Place(sq)) {
                    out.push((Op::Insert(p, Move::Place(sq)), cost::INSERT));
                }
            }
        }
    }
}

/// The found move lists in order of cost, ties in the order of their moves.
fn sorted(found: HashMap<Vec<Move>, Found>) -> Vec<Found> {
    let mut all: Vec<Found> = found.into_values().collect();
    all.sort_by_cached_key(|f| {
        let key: Vec<u8> = f
            .moves
            .iter()
            .map(|m| match m {
                Move::Place(sq) => sq.index() + 1,
                Move::Pass => 0,
            })
            .collect();
        (f.cost, key)
    });
    all
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MoveRecord;

    fn record(moves: &str) -> (Record, Vec<Move>) {
        let mut record = Record::new(crate::Rules::default());
        let moves: Vec<Move> = moves
            .split_whitespace()
            .map(|w| Move::Place(w.parse().unwrap()))
            .collect();
        record.moves = moves.iter().map(|&m| MoveRecord::new(m)).collect();
        (record, moves)
    }

    #[test]
    fn a_doubled_move_is_deleted_and_a_left_out_one_inserted() {
        let (r, moves) = record("f5 d6 c3 c3 d3 c4");
        let found = Search::new(&r, Kinds::ALL, true).unwrap().run(&moves, 1);
        assert_eq!(found[0].ops, [Op::Delete(2)], "{found:?}");
        assert_eq!(found[0].cost, 1);
        let (r, moves) = record("f5 d6 d3 c4");
        let found = Search::new(&r, Kinds::ALL, true).unwrap().run(&moves, 1);
        assert!(found
            .iter()
            .any(|f| f.ops == [Op::Insert(2, Move::Place("c3".parse().unwrap()))]));
    }

    #[test]
    fn swaps_only_on_grids_and_nothing_for_a_legal_game() {
        let (r, moves) = record("f5 c3 d6 d3 c4");
        let found = Search::new(&r, Kinds::SWAPS, true).unwrap().run(&moves, 2);
        assert!(found
            .iter()
            .all(|f| f.ops.iter().all(|op| matches!(op, Op::Swap(..)))));
        assert_eq!(found[0].ops, [Op::Swap(1, 2)]);
        let (r, moves) = record("f5 d6 c3 d3 c4");
        let mut search = Search::new(&r, Kinds::ALL, true).unwrap();
        assert!(search.is_good(&moves));
        assert!(search.run(&moves, 2).is_empty());
    }
}
