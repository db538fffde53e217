//! The opening explorer: what was played from the position, and how those games ended.

use serde::Serialize;

use crate::engine::Move;
use crate::record::{ClaimedResult, ResultScore};

use super::Hit;

/// The games of one branch (a next move, or the games that end at the position).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize)]
pub struct Branch {
    /// Games.
    pub games: u64,
    /// Games Black won, as their results say.
    pub black_wins: u64,
    /// Drawn games.
    pub draws: u64,
    /// Games White won.
    pub white_wins: u64,
    /// Games without a result.
    pub unknown: u64,
    /// The sum of Black's disc margins (Black's discs minus White's) over the games that
    /// give one.
    pub margin_sum: f64,
    /// How many games give a margin.
    pub margins: u64,
}

impl Branch {
    /// Adds a game with `result`.
    pub fn add(&mut self, result: Option<&ClaimedResult>) {
        let (winner, margin) = result_outcome(result);
        self.add_outcome(winner, margin);
    }

    /// Adds a game whose result is already reduced to who won (`1` Black, `0` a draw,
    /// `-1` White, `None` unknown) and Black's margin ([`result_outcome`]).
    pub fn add_outcome(&mut self, winner: Option<i8>, margin: Option<f64>) {
        self.games += 1;
        match winner {
            Some(1) => self.black_wins += 1,
            Some(0) => self.draws += 1,
            Some(_) => self.white_wins += 1,
            None => self.unknown += 1,
        }
        if let Some(m) = margin {
            self.margin_sum += m;
            self.margins += 1;
        }
    }

    /// Black's average disc margin, over the games that give one.
    pub fn average_margin(&self) -> Option<f64> {
        (self.margins > 0).then(|| self.margin_sum / self.margins as f64)
    }

    fn merge(&mut self, other: &Branch) {
        self.games += other.games;
        self.black_wins += other.black_wins;
        self.draws += other.draws;
        self.white_wins += other.white_wins;
        self.unknown += other.unknown;
        self.margin_sum += other.margin_sum;
        self.margins += other.margins;
    }
}

/// A game's result reduced as [`Branch::add_outcome`] takes it (and as the index keeps
/// it): who won (`1` Black, `0` a draw, `-1` White) and Black's disc margin, when the
/// result gives them (a disc count, a margin, or only the winner).
///
/// ```
/// use reversi_runs::archive::find::result_outcome;
/// use reversi_formats::record::ClaimedResult;
/// assert_eq!(result_outcome(Some(&ClaimedResult::discs(vec![28, 36]))), (Some(-1), Some(-8.0)));
/// assert_eq!(result_outcome(None), (None, None));
/// ```
pub fn result_outcome(result: Option<&ClaimedResult>) -> (Option<i8>, Option<f64>) {
    let by_margin = |m: f64| {
        let who = if m > 0.0 {
            1
        } else if m < 0.0 {
            -1
        } else {
            0
        };
        (Some(who), Some(m))
    };
    match result.map(|r| &r.score) {
        Some(ResultScore::Discs(discs)) if discs.len() == 2 => {
            by_margin(f64::from(discs[0]) - f64::from(discs[1]))
        }
        Some(ResultScore::Margin(m)) if m.is_finite() => by_margin(*m),
        Some(ResultScore::Winner(Some(c))) if c.index() == 0 => (Some(1), None),
        Some(ResultScore::Winner(Some(c))) if c.index() == 1 => (Some(-1), None),
        Some(ResultScore::Winner(None)) => (Some(0), None),
        _ => (None, None),
    }
}

/// The opening-explorer tree at the query's position: every next move, turned back to
/// the query's orientation, with its games and results, and the games that end there.
/// The moves' games add up to [`Explorer::continuing`]; with the games that end there,
/// to [`Explorer::total`].
///
/// ```
/// use reversi_runs::archive::find::{Explorer, Hit};
/// use reversi_check::event::Symmetry;
/// use reversi_formats::record::ClaimedResult;
/// use reversi_engine::Move;
/// let f4 = Move::Place("f4".parse().unwrap());
/// let at = |next| Hit { ply: 5, symmetry: Symmetry::Identity, next };
/// let mut tree = Explorer::default();
/// tree.add(&at(Some(f4)), Some(&ClaimedResult::discs(vec![40, 24])));
/// tree.add(&at(Some(f4)), Some(&ClaimedResult::discs(vec![30, 34])));
/// tree.add(&at(None), None);
/// let rows = tree.rows();
/// assert_eq!((rows[0].mv, rows[0].branch.games, rows[0].share), (f4, 2, 1.0));
/// assert_eq!(rows[0].branch.average_margin(), Some(6.0));
/// assert_eq!((tree.total(), tree.continuing(), tree.ended().games), (3, 2, 1));
/// ```
#[derive(Clone, Debug, Default)]
pub struct Explorer {
    moves: Vec<(Move, Branch)>,
    ended: Branch,
    all: Branch,
}

/// One next move of the tree.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ExplorerRow {
    /// The move, in the query's orientation.
    pub mv: Move,
    /// Its games and results.
    pub branch: Branch,
    /// Its share of the games that continue past the position (0 to 1).
    pub share: f64,
}

impl Explorer {
    /// Adds a game found at `hit`, with its result.
    pub fn add(&mut self, hit: &Hit, result: Option<&ClaimedResult>) {
        let (winner, margin) = result_outcome(result);
        self.add_outcome(hit, winner, margin);
    }

    /// Adds a game found at `hit` whose result is reduced ([`result_outcome`]).
    pub fn add_outcome(&mut self, hit: &Hit, winner: Option<i8>, margin: Option<f64>) {
        self.branch(hit.next).add_outcome(winner, margin);
        self.all.add_outcome(winner, margin);
    }

    fn branch(&mut self, next: Option<Move>) -> &mut Branch {
        let Some(mv) = next else {
            return &mut self.ended;
        };
        let at = match self.moves.iter().position(|(m, _)| *m == mv) {
            Some(at) => at,
            None => {
                self.moves.push((mv, Branch::default()));
                self.moves.len() - 1
            }
        };
        &mut self.moves[at].1
    }

    /// Adds another explorer's games (of other inputs).
    pub fn merge(&mut self, other: &Explorer) {
        for (mv, branch) in &other.moves {
            self.branch(Some(*mv)).merge(branch);
        }
        self.ended.merge(&other.ended);
        self.all.merge(&other.all);
    }

    /// The next moves, most played first (then in square order, passes last).
    pub fn rows(&self) -> Vec<ExplorerRow> {
        let continuing = self.continuing();
        let mut rows: Vec<ExplorerRow> = self
            .moves
            .iter()
            .map(|(mv, branch)| ExplorerRow {
                mv: *mv,
                branch: *branch,
                share: if continuing == 0 {
                    0.0
                } else {
                    branch.games as f64 / continuing as f64
                },
            })
            .collect();
        let order = |m: &Move| match m {
            Move::Place(sq) => u16::from(sq.index()),
            Move::Pass => u16::MAX,
        };
        rows.sort_by(|a, b| {
            b.branch
                .games
                .cmp(&a.branch.games)
                .then(order(&a.mv).cmp(&order(&b.mv)))
        });
        rows
    }

    /// The games found.
    pub fn total(&self) -> u64 {
        self.all.games
    }

    /// The games that continue past the position: the moves' games add up to this.
    pub fn continuing(&self) -> u64 {
        self.moves.iter().map(|(_, b)| b.games).sum()
    }

    /// The games whose record ends at the position.
    pub fn ended(&self) -> Branch {
        self.ended
    }

    /// Every game found, with their results.
    pub fn all(&self) -> Branch {
        self.all
    }
}
