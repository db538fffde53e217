//! The JSON transcript: the same facts as the text, for programs in any language.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::{Move, Position, Square, SquareSet};

use super::run::Transcript;

/// `{"scenarios": [...]}`: what `reversi scenario --format json` prints.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonReport {
    /// One entry per scenario, in input order.
    pub scenarios: Vec<JsonScenario>,
}

/// One scenario's transcript as JSON (`spec/scenario.md`, "The JSON transcript").
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonScenario {
    /// Where the scenario comes from: a path, or `PATH:LINE` for a Markdown block.
    pub file: String,
    /// The canonical rules string; `null` for a scenario of `parse:` lines only.
    pub rules: Option<String>,
    /// The `parse:` lines' results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parses: Vec<JsonParse>,
    /// Why the engine refused the scenario's board (then there are no positions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_refused: Option<String>,
    /// The positions the text transcript draws: the first shown (after the `quiet:` moves),
    /// then after every move with `show: every`, else the last one.
    pub positions: Vec<JsonPosition>,
    /// Every move in order, quiet ones and refused ones included.
    pub moves: Vec<JsonMove>,
    /// The outcome when the game is over at the end, else `null`.
    pub outcome: Option<JsonOutcome>,
}

/// A `parse:` line's result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonParse {
    /// The rules string as written.
    pub input: String,
    /// Its canonical form, or `null` when refused.
    pub rules: Option<String>,
    /// Why it is refused, or `null`.
    pub refused: Option<String>,
}

/// A position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonPosition {
    /// How many moves (passes included, refusals not) have been played to reach it.
    pub after_moves: usize,
    /// The side to move; `null` when the game is over.
    pub turn: Option<String>,
    /// The legal moves of the side to move in row-major order; `["--"]` when it must pass,
    /// empty when the game is over.
    pub legal: Vec<String>,
    /// The discs each legal placement flips, by square, in the order of `legal`.
    pub flips: Map<String, Value>,
    /// One string per row from the top, one character per column: `X O R G` discs, `N`
    /// neutral, `.` empty, `#` blocked, a space for a square not on the board.
    pub board: Vec<String>,
    /// Discs still in hand per colour (classic reversi only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_hand: Option<Map<String, Value>>,
}

/// A move.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonMove {
    /// The square, or `--` for a pass.
    #[serde(rename = "move")]
    pub mv: String,
    /// Who tried it.
    pub player: String,
    /// The discs it flipped, in row-major order.
    pub flips: Vec<String>,
    /// Why the engine refuses it, or `null` when it was played.
    pub refused: Option<String>,
    /// The kind of refusal (`IllegalMove`'s variant name, such as `FlipsNothing`), or `null`.
    pub refusal: Option<String>,
}

/// The outcome of a finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonOutcome {
    /// The winner's colour, or `null` for a draw (of the whole table with 3-4 players).
    pub winner: Option<String>,
    /// `most` or `fewest` (anti): which count wins.
    pub goal: String,
    /// Discs per colour, in turn order.
    pub discs: Map<String, Value>,
    /// Neutral discs on the board.
    pub neutral: u8,
    /// Empty playable squares.
    pub empty: u8,
    /// `wof` or `raw`.
    pub scoring: String,
    /// The score per colour under the scoring.
    pub score: Map<String, Value>,
}

fn names(set: SquareSet) -> Vec<String> {
    set.iter().map(|sq| sq.to_string()).collect()
}

fn board_rows(pos: &Position) -> Vec<String> {
    let n = pos.rules().board().side();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| Square::new(c, r).map_or(' ', |sq| pos.cell(sq).symbol()))
                .collect()
        })
        .collect()
}

fn position(pos: &Position, after_moves: usize) -> JsonPosition {
    let over = pos.is_over();
    let (legal, flips) = if over {
        (Vec::new(), Map::new())
    } else if pos.must_pass() {
        (vec![Move::Pass.to_string()], Map::new())
    } else {
        let set = pos.legal_moves();
        let flips = set
            .iter()
            .map(|sq| {
                let f = pos.flips(sq).map(names).unwrap_or_default();
                (sq.to_string(), Value::from(f))
            })
            .collect();
        (names(set), flips)
    };
    let rules = pos.rules();
    let in_hand = rules.supply().map(|_| {
        rules
            .colors()
            .iter()
            .map(|c| (c.to_string(), Value::from(pos.in_hand(*c).unwrap_or(0))))
            .collect()
    });
    JsonPosition {
        after_moves,
        turn: (!over).then(|| pos.turn().to_string()),
        legal,
        flips,
        board: board_rows(pos),
        in_hand,
    }
}

fn outcome(pos: &Position) -> JsonOutcome {
    let o = pos.counts_outcome();
    let rules = pos.rules();
    let per_colour = |values: [u8; 4]| -> Map<String, Value> {
        rules
            .colors()
            .iter()
            .map(|c| (c.to_string(), Value::from(values[c.index()])))
            .collect()
    };
    JsonOutcome {
        winner: o.winner.map(|c| c.to_string()),
        goal: match rules.goal() {
            crate::engine::Goal::MostDiscs => "most".into(),
            crate::engine::Goal::FewestDiscs => "fewest".into(),
        },
        discs: per_colour(o.discs),
        neutral: o.neutral,
        empty: o.empty,
        scoring: rules.scoring().name().into(),
        score: per_colour(o.score),
    }
}

impl Transcript {
    /// The JSON transcript; `file` names where the scenario comes from.
    ///
    /// ```
    /// use reversi_record::scenario::Scenario;
    /// let t = "rules: othello\nmoves: f5".parse::<Scenario>().unwrap().run().unwrap();
    /// let json = t.to_json("example.scenario");
    /// assert_eq!(json.positions[0].legal, ["d3", "c4", "f5", "e6"]);
    /// assert_eq!(json.moves[0].flips, ["e5"]);
    /// ```
    pub fn to_json(&self, file: &str) -> JsonScenario {
        let mut positions = Vec::new();
        let mut played = self
            .steps
            .iter()
            .filter(|s| s.quiet && s.refused.is_none())
            .count();
        if let Some(first) = self.first_shown() {
            positions.push(position(&first, played));
        }
        for step in self.steps.iter().filter(|s| !s.quiet) {
            if step.refused.is_none() {
                played += 1;
                if self.show_every {
                    positions.push(position(&step.after, played));
                }
            }
        }
        if !self.show_every && self.steps.len() > self.quiet {
            if let Some(last) = self.last() {
                positions.push(position(&last, played));
            }
        }
        let moves = self
            .steps
            .iter()
            .map(|s| JsonMove {
                mv: s.mv.to_string(),
                player: s.mover.to_string(),
                flips: names(s.flipped),
                refused: s.refused.map(|e| e.to_string()),
                refusal: s.refused.map(|e| format!("{e:?}")),
            })
            .collect();
        JsonScenario {
            file: file.to_owned(),
            rules: self.rules.map(|r| r.to_string()),
            parses: self
                .parses
                .iter()
                .map(|p| JsonParse {
                    input: p.input.clone(),
                    rules: p.result.as_ref().ok().map(|r| r.to_string()),
                    refused: p.result.as_ref().err().map(|e| e.to_string()),
                })
                .collect(),
            setup_refused: self.setup_refused.as_ref().map(|e| e.to_string()),
            positions,
            moves,
            outcome: self.last().filter(|p| p.is_over()).map(|p| outcome(&p)),
        }
    }
}
