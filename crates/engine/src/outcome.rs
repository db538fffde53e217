//! Outcomes and scores of finished games.

use super::rules::{Goal, Rules, Scoring};
use super::square::Color;

/// The result of a game: the winner, the raw disc counts and the score under the rules.
///
/// ```
/// use reversi_engine::{Color, Outcome, Rules};
/// // 8x8, 32-30 with 2 empty squares: the tournament score gives them to the winner.
/// let o = Outcome::new(&Rules::default(), [32, 30, 0, 0], 0, 2);
/// assert_eq!(o.winner, Some(Color::Black));
/// assert_eq!(o.score[..2], [34, 30]);
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// The winner; `None` is a draw (for 3-4 players, a tie for first place: a draw for the
    /// whole table).
    pub winner: Option<Color>,
    /// Discs on the board per colour, in turn order.
    pub discs: [u8; 4],
    /// Neutral discs on the board (scored for nobody).
    pub neutral: u8,
    /// Empty playable squares.
    pub empty: u8,
    /// The score per colour under the rules' scoring: raw counts, or (two players, WOF) with
    /// the empty squares given to the side with more discs (the winner; the loser in anti),
    /// split evenly on a draw (an odd one left over stays unscored).
    pub score: [u8; 4],
}

impl Outcome {
    /// The outcome of a finished board with these counts under `rules`.
    pub fn new(rules: &Rules, discs: [u8; 4], neutral: u8, empty: u8) -> Outcome {
        let players = rules.players() as usize;
        let better = |a: u8, b: u8| match rules.goal() {
            Goal::MostDiscs => a > b,
            Goal::FewestDiscs => a < b,
        };
        let mut best = 0;
        let mut tied = false;
        for c in 1..players {
            if better(discs[c], discs[best]) {
                best = c;
                tied = false;
            } else if discs[c] == discs[best] {
                tied = true;
            }
        }
        let winner = (!tied).then(|| Color::ALL[best]);
        let mut score = discs;
        if players == 2 && rules.scoring() == Scoring::Wof {
            let more = if discs[0] > discs[1] {
                Some(0)
            } else if discs[1] > discs[0] {
                Some(1)
            } else {
                None
            };
            match more {
                Some(c) => score[c] += empty,
                None => {
                    score[0] += empty / 2;
                    score[1] += empty / 2;
                }
            }
        }
        Outcome {
            winner,
            discs,
            neutral,
            empty,
            score,
        }
    }

    /// Black's score minus White's (two-player games).
    pub fn margin(&self) -> i32 {
        self.score[0] as i32 - self.score[1] as i32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(s: &str) -> Rules {
        s.parse().unwrap()
    }

    #[test]
    fn wof_gives_empties_to_the_winner() {
        let o = Outcome::new(&rules("othello"), [20, 40, 0, 0], 0, 4);
        assert_eq!(
            (o.winner, o.score[0], o.score[1]),
            (Some(Color::White), 20, 44)
        );
        let o = Outcome::new(&rules("othello,scoring=raw"), [20, 40, 0, 0], 0, 4);
        assert_eq!((o.score[0], o.score[1]), (20, 40));
    }

    #[test]
    fn draws_split_the_empties() {
        let o = Outcome::new(&rules("othello"), [30, 30, 0, 0], 0, 4);
        assert_eq!(
            (o.winner, o.score[0], o.score[1], o.margin()),
            (None, 32, 32, 0)
        );
    }

    #[test]
    fn anti_gives_empties_to_the_loser_and_a_wipe_out_wins() {
        let o = Outcome::new(&rules("anti"), [20, 40, 0, 0], 0, 4);
        assert_eq!(
            (o.winner, o.score[0], o.score[1]),
            (Some(Color::Black), 20, 44)
        );
        let o = Outcome::new(&rules("anti"), [0, 13, 0, 0], 0, 51);
        assert_eq!(
            (o.winner, o.score[0], o.score[1]),
            (Some(Color::Black), 0, 64)
        );
    }

    #[test]
    fn multi_player_ties_for_first_draw_the_table() {
        let o = Outcome::new(&rules("multi3"), [21, 21, 20, 0], 2, 0);
        assert_eq!(o.winner, None);
        let o = Outcome::new(&rules("multi3"), [21, 20, 21, 0], 2, 0);
        assert_eq!(o.winner, None);
        let o = Outcome::new(&rules("multi4"), [16, 17, 15, 16], 0, 0);
        assert_eq!(o.winner, Some(Color::White));
        let o = Outcome::new(&rules("multi4,anti"), [16, 17, 15, 16], 0, 0);
        assert_eq!((o.winner, o.score), (Some(Color::Red), [16, 17, 15, 16]));
    }
}
