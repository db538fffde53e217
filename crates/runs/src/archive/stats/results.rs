//! What a claimed result says ([`ResultKind`]) and the games, wins, draws and losses it counts.

use std::fmt;

use serde::Serialize;

use crate::engine::{Color, Goal, Rules};
use crate::record::{ClaimedResult, ResultScore, Termination};

/// A player's games, in all and by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct PlayerTally {
    pub(super) all: SideCount,
    pub(super) black: SideCount,
    pub(super) white: SideCount,
}

/// Games, wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideCount {
    /// Games played (with a result or not).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn (with 3-4 players: a tie for first place).
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl SideCount {
    pub(super) fn add(&mut self, other: SideCount) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// One more game for `color`, whose outcome is `decided`.
    pub(super) fn count(&mut self, color: Color, decided: Option<Option<Color>>) {
        self.games += 1;
        match decided {
            Some(Some(winner)) if winner == color => self.wins += 1,
            Some(Some(_)) => self.losses += 1,
            Some(None) => self.draws += 1,
            None => {}
        }
    }

    /// `W-D-L`.
    pub(super) fn wdl(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// What a game's claimed result says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultKind {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Red won (3-4 players).
    Red,
    /// Green won (4 players).
    Green,
    /// A draw (3-4 players: a tie for first place).
    Draw,
    /// The record says the game stopped before its end, undecided.
    Unfinished,
    /// The record claims no result that names a winner or a draw.
    None,
}

impl ResultKind {
    /// Every kind, in the order the report lists them.
    pub const ALL: [ResultKind; 7] = [
        ResultKind::Black,
        ResultKind::White,
        ResultKind::Red,
        ResultKind::Green,
        ResultKind::Draw,
        ResultKind::Unfinished,
        ResultKind::None,
    ];

    /// The name in JSON and CSV (`black`, `draw`, `none`).
    pub const fn name(self) -> &'static str {
        match self {
            ResultKind::Black => "black",
            ResultKind::White => "white",
            ResultKind::Red => "red",
            ResultKind::Green => "green",
            ResultKind::Draw => "draw",
            ResultKind::Unfinished => "unfinished",
            ResultKind::None => "none",
        }
    }

    /// The words in the text report (`Black wins`, `no result`).
    pub const fn phrase(self) -> &'static str {
        match self {
            ResultKind::Black => "Black wins",
            ResultKind::White => "White wins",
            ResultKind::Red => "Red wins",
            ResultKind::Green => "Green wins",
            ResultKind::Draw => "draw",
            ResultKind::Unfinished => "unfinished",
            ResultKind::None => "no result",
        }
    }

    const fn of_winner(color: Color) -> ResultKind {
        match color {
            Color::Black => ResultKind::Black,
            Color::White => ResultKind::White,
            Color::Red => ResultKind::Red,
            Color::Green => ResultKind::Green,
        }
    }

    /// The winner (`Some(None)`: a draw), or `None` when the game is not decided.
    pub(super) const fn decided(self) -> Option<Option<Color>> {
        match self {
            ResultKind::Black => Some(Some(Color::Black)),
            ResultKind::White => Some(Some(Color::White)),
            ResultKind::Red => Some(Some(Color::Red)),
            ResultKind::Green => Some(Some(Color::Green)),
            ResultKind::Draw => Some(None),
            ResultKind::Unfinished | ResultKind::None => None,
        }
    }

    /// What `result` claims under `rules`, with Black's margin when it gives one.
    ///
    /// ```
    /// use reversi_runs::archive::stats::ResultKind;
    /// use reversi_formats::record::ClaimedResult;
    /// use reversi_engine::Rules;
    /// let claim = ClaimedResult::discs(vec![40, 24]);
    /// assert_eq!(ResultKind::of(Rules::default(), Some(&claim)), (ResultKind::Black, Some(16)));
    /// let anti: Rules = "anti".parse().unwrap();
    /// assert_eq!(ResultKind::of(anti, Some(&claim)), (ResultKind::White, Some(16)));
    /// assert_eq!(ResultKind::of(Rules::default(), None), (ResultKind::None, None));
    /// ```
    pub fn of(rules: Rules, result: Option<&ClaimedResult>) -> (ResultKind, Option<i32>) {
        let Some(result) = result else {
            return (ResultKind::None, None);
        };
        let two = rules.players() == 2;
        match result.termination {
            Termination::Unfinished => return (ResultKind::Unfinished, None),
            Termination::Resignation(Some(loser)) | Termination::Time(Some(loser)) if two => {
                let winner = if loser == Color::Black {
                    Color::White
                } else {
                    Color::Black
                };
                let margin = match &result.score {
                    ResultScore::Discs(counts) => two_counts(counts),
                    ResultScore::Margin(m) => whole_margin(*m),
                    _ => None,
                };
                return (ResultKind::of_winner(winner), margin);
            }
            _ => {}
        }
        let better = |a: f64, b: f64| match rules.goal() {
            Goal::MostDiscs => a > b,
            Goal::FewestDiscs => a < b,
        };
        match &result.score {
            ResultScore::None => (ResultKind::None, None),
            ResultScore::Winner(Some(color)) => (ResultKind::of_winner(*color), None),
            ResultScore::Winner(None) => (ResultKind::Draw, None),
            ResultScore::Margin(m) if two && m.is_finite() => {
                let kind = if better(*m, 0.0) {
                    ResultKind::Black
                } else if better(0.0, *m) {
                    ResultKind::White
                } else {
                    ResultKind::Draw
                };
                (kind, whole_margin(*m))
            }
            ResultScore::Margin(_) => (ResultKind::None, None),
            ResultScore::Discs(counts) => {
                let players = (rules.players() as usize).min(counts.len());
                if players < 2 {
                    return (ResultKind::None, None);
                }
                let mut best = 0;
                let mut tied = false;
                for c in 1..players {
                    if better(counts[c] as f64, counts[best] as f64) {
                        best = c;
                        tied = false;
                    } else if counts[c] == counts[best] {
                        tied = true;
                    }
                }
                let kind = match Color::from_index(best) {
                    Some(color) if !tied => ResultKind::of_winner(color),
                    _ => ResultKind::Draw,
                };
                (kind, if two { two_counts(counts) } else { None })
            }
        }
    }
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Black's discs minus White's, from two counts.
fn two_counts(counts: &[u8]) -> Option<i32> {
    match counts {
        [black, white] => Some(*black as i32 - *white as i32),
        _ => None,
    }
}

/// A claimed margin to the nearest disc.
fn whole_margin(m: f64) -> Option<i32> {
    (m.is_finite() && m.abs() <= 1000.0).then(|| m.round() as i32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_follow_the_goal_and_the_termination() {
        use crate::record::ClaimedResult;
        let rules = Rules::default();
        let resigned = ClaimedResult {
            score: ResultScore::None,
            termination: Termination::Resignation(Some(Color::White)),
            span: None,
        };
        assert_eq!(ResultKind::of(rules, Some(&resigned)).0, ResultKind::Black);
        let unfinished = ClaimedResult {
            score: ResultScore::Discs(vec![10, 5]),
            termination: Termination::Unfinished,
            span: None,
        };
        assert_eq!(
            ResultKind::of(rules, Some(&unfinished)),
            (ResultKind::Unfinished, None)
        );
        let margin = ClaimedResult {
            score: ResultScore::Margin(-2.5),
            termination: Termination::Normal,
            span: None,
        };
        assert_eq!(
            ResultKind::of(rules, Some(&margin)),
            (ResultKind::White, Some(-3))
        );
        let multi: Rules = "multi3".parse().unwrap();
        let three = ClaimedResult::discs(vec![10, 20, 20]);
        assert_eq!(
            ResultKind::of(multi, Some(&three)),
            (ResultKind::Draw, None)
        );
        let three = ClaimedResult::discs(vec![10, 20, 30]);
        assert_eq!(ResultKind::of(multi, Some(&three)).0, ResultKind::Red);
    }
}
