//! The JSON transcript: the same facts as the text, for programs in any language.

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::engine::{Color, Move, Opening, Position, Rules, Setup, Square, SquareSet};
use crate::formats::rgn::board::to_line;

use super::parse::ScenarioError;
use super::run::Transcript;

/// The normative facts of a scenario's JSON, by path (`[]` for every entry of a list): what
/// an engine must match to pass the scenario (`spec/scenario.md` §8; the schema's
/// `x-normative` says the same, and `scenario::compare` compares each).
pub const NORMATIVE: &[&str] = &[
    "setup.board",
    "setup.turn",
    "setup.in_hand",
    "setup.phase",
    "setup_refusal",
    "positions[].key",
    "positions[].turn",
    "positions[].legal",
    "positions[].flips",
    "positions[].board",
    "positions[].in_hand",
    "positions[].phase",
    "moves[].player",
    "moves[].flips",
    "moves[].refusal",
    "moves[].after.turn",
    "moves[].after.legal",
    "moves[].after.flips",
    "moves[].after.in_hand",
    "moves[].after.phase",
    "moves[].after.key",
    "outcome.winner",
    "outcome.goal",
    "outcome.discs",
    "outcome.neutral",
    "outcome.empty",
    "outcome.scoring",
    "outcome.score",
    "parses[].rules",
];

/// Every other field of a scenario's JSON: what the scenario asks (the rules, the setup as
/// a `start:` line, the moves tried, the rules strings read), where it comes from, a count
/// and our wording (the schema's `x-not-normative`).
pub const NOT_NORMATIVE: &[&str] = &[
    "file",
    "rules",
    "error",
    "parses[].input",
    "parses[].refused",
    "setup_refused",
    "setup.start",
    "positions[].after_moves",
    "moves[].move",
    "moves[].refused",
];

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
    /// The canonical rules string; `null` for a scenario of `parse:` lines only (and one
    /// that cannot run).
    pub rules: Option<String>,
    /// Why the scenario cannot run (`reversi scenario --format json` reports it as an entry
    /// with no positions, moves or outcome).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub error: Option<JsonError>,
    /// The `parse:` lines' results.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parses: Vec<JsonParse>,
    /// Why the engine refused the scenario's board (then there are no positions).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_refused: Option<String>,
    /// The kind of the setup's refusal (`spec/rules.md` §9, such as `NotPlayable`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup_refusal: Option<String>,
    /// The position the scenario sets up, before any move (quiet ones included), in
    /// machine form; given whenever there are rules, refused or not.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub setup: Option<JsonSetup>,
    /// The positions the text transcript draws: the first shown (after the `quiet:` moves),
    /// then after every move with `show: every`, else the last one.
    pub positions: Vec<JsonPosition>,
    /// Every move in order, quiet ones and refused ones included.
    pub moves: Vec<JsonMove>,
    /// The outcome when the game is over at the end, else `null`.
    pub outcome: Option<JsonOutcome>,
}

/// A scenario that cannot run: its error (`spec/scenario.md` §7).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonError {
    /// The stable code, such as `scenario-syntax`.
    pub code: String,
    /// The line of the file the error is about, when there is one.
    pub line: Option<usize>,
    /// The message.
    pub message: String,
}

impl JsonScenario {
    /// The entry of a scenario that cannot run; `line` is the line in the file.
    pub fn failed(file: &str, error: &ScenarioError, line: Option<usize>) -> JsonScenario {
        JsonScenario {
            file: file.to_owned(),
            rules: None,
            error: Some(JsonError {
                code: error.kind.code().to_string(),
                line,
                message: error.message.clone(),
            }),
            parses: Vec::new(),
            setup_refused: None,
            setup_refusal: None,
            setup: None,
            positions: Vec::new(),
            moves: Vec::new(),
            outcome: None,
        }
    }
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

/// The position a scenario sets up, in machine form.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct JsonSetup {
    /// One string per row from the top, as [`JsonPosition::board`]; a disc the rules
    /// refuse (on a blocked or cut square) is drawn where it stands.
    pub board: Vec<String>,
    /// The side to move.
    pub turn: String,
    /// Discs in hand per colour (classic reversi only): as given, or derived from the board.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_hand: Option<Map<String, Value>>,
    /// `opening` (a free opening with a centre square empty) or `main`.
    pub phase: String,
    /// The setup as a `start:` line (RGN's `Start` syntax): setting it up gives the same
    /// position. For a setup that is not refused it is the key of that position.
    pub start: String,
}

/// What the side to move faces after a move was played: the facts of the text
/// transcript's `COLOUR to move; legal: ...` line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonState {
    /// The side to move; `null` when the game is over.
    pub turn: Option<String>,
    /// As [`JsonPosition::legal`].
    pub legal: Vec<String>,
    /// As [`JsonPosition::flips`].
    pub flips: Map<String, Value>,
    /// Discs still in hand per colour (classic reversi only).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_hand: Option<Map<String, Value>>,
    /// `opening` or `main`.
    pub phase: String,
    /// The position's key ([`JsonPosition::key`]).
    pub key: String,
}

/// A position.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonPosition {
    /// How many moves (passes included, refusals not) have been played to reach it. Not
    /// an identity: use `key`.
    pub after_moves: usize,
    /// The position's identity: the position as a `start:` line (RGN's `Start` syntax:
    /// rows, the side to move, discs in hand in classic reversi), unique for board, side to
    /// move and discs in hand (the phase follows from the board). When the game is over
    /// the side named is the one after the last mover.
    pub key: String,
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
    /// `opening` (the free opening's centre placements) or `main`.
    pub phase: String,
}

/// A move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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
    /// What the next side faces after the move was played; `null` for a refused move.
    pub after: Option<JsonState>,
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

/// Discs in hand of a position as the JSON gives them: per colour, classic only.
fn hands_of(pos: &Position) -> Option<[u8; 2]> {
    pos.rules()
        .supply()
        .map(|_| [Color::Black, Color::White].map(|c| pos.in_hand(c).unwrap_or(0)))
}

fn hands_map(hands: Option<[u8; 2]>) -> Option<Map<String, Value>> {
    hands.map(|[b, w]| {
        [(Color::Black, b), (Color::White, w)]
            .into_iter()
            .map(|(c, n)| (c.to_string(), Value::from(n)))
            .collect()
    })
}

/// The key of a position: the position as a `start:` line.
pub(crate) fn position_key(pos: &Position) -> String {
    to_line(pos.rules(), &pos.setup(), hands_of(pos))
}

/// The rows of a setup: a disc where one stands (even where the rules refuse it), else
/// the board's marker.
fn setup_rows(rules: &Rules, setup: &Setup) -> Vec<String> {
    let n = rules.board().side();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    let Some(sq) = Square::new(c, r) else {
                        return ' ';
                    };
                    if setup.neutral.contains(sq) {
                        return 'N';
                    }
                    if let Some(color) = Color::ALL
                        .into_iter()
                        .find(|c| setup.discs[c.index()].contains(sq))
                    {
                        return color.symbol();
                    }
                    if !rules.board().contains(sq) {
                        ' '
                    } else if rules.blocked().contains(sq) {
                        '#'
                    } else {
                        '.'
                    }
                })
                .collect()
        })
        .collect()
}

fn setup_phase(rules: &Rules, setup: &Setup) -> &'static str {
    let taken = setup
        .discs
        .iter()
        .fold(setup.neutral, |all, d| all.union(*d));
    let open = rules.board().centre().iter().any(|sq| !taken.contains(*sq));
    if rules.opening() == Opening::Free && open {
        "opening"
    } else {
        "main"
    }
}

fn setup_json(rules: &Rules, setup: &Setup, hands: Option<[u8; 2]>) -> JsonSetup {
    JsonSetup {
        board: setup_rows(rules, setup),
        turn: setup.turn.to_string(),
        in_hand: hands_map(hands),
        phase: setup_phase(rules, setup).into(),
        start: to_line(rules, setup, hands),
    }
}

fn state(pos: &Position) -> JsonState {
    let p = position(pos, 0);
    JsonState {
        turn: p.turn,
        legal: p.legal,
        flips: p.flips,
        in_hand: p.in_hand,
        phase: p.phase,
        key: p.key,
    }
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
    JsonPosition {
        after_moves,
        key: position_key(pos),
        turn: (!over).then(|| pos.turn().to_string()),
        legal,
        flips,
        board: board_rows(pos),
        in_hand: hands_map(hands_of(pos)),
        phase: pos.phase().into(),
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
    /// use reversi_check::scenario::Scenario;
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
                after: s.refused.is_none().then(|| state(&s.after)),
            })
            .collect();
        JsonScenario {
            file: file.to_owned(),
            rules: self.rules.map(|r| r.to_string()),
            error: None,
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
            setup_refusal: self.setup_refused.as_ref().map(|e| e.kind().to_owned()),
            setup: match (&self.rules, &self.setup, &self.start) {
                (Some(rules), _, Some(start)) => {
                    Some(setup_json(rules, &start.setup(), hands_of(start)))
                }
                (Some(rules), Some((setup, hands)), None) => Some(setup_json(rules, setup, *hands)),
                _ => None,
            },
            positions,
            moves,
            outcome: self.last().filter(|p| p.is_over()).map(|p| outcome(&p)),
        }
    }
}
