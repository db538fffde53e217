//! Playing a scenario through the engine.

use crate::engine::{
    Color, IllegalMove, Position, Rules, RulesError, Setup, SetupError, SquareSet,
};
use crate::formats::rgn::board::from_line;

use super::parse::{
    read_rows, ErrorKind, Scenario, ScenarioError, ScenarioMove, StartGiven, Tried,
};

/// What a `parse:` line gave.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParsedRules {
    /// The rules string as written.
    pub input: String,
    /// The rules, or why the string is refused.
    pub result: Result<Rules, RulesError>,
}

/// One move of a scenario as the engine took it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Step {
    /// The side to move when the move was tried.
    pub mover: Color,
    /// The move.
    pub mv: Tried,
    /// The discs it flipped (empty for a pass, a placement without flips or a refusal).
    pub flipped: SquareSet,
    /// Why the engine refused it (the scenario marked it `!`).
    pub refused: Option<IllegalMove>,
    /// Played in the scenario's `quiet:` prefix (not shown in the text transcript).
    pub quiet: bool,
    /// The position after it (unchanged by a refusal).
    pub after: Position,
}

/// The result of running a scenario: every fact the text and JSON transcripts show.
///
/// ```
/// use reversi_check::scenario::Scenario;
/// let sc: Scenario = "rules: othello:4x4\nmoves: b1 !b1".parse().unwrap();
/// let t = sc.run().unwrap();
/// assert_eq!(t.steps.len(), 2);
/// assert!(t.to_text().contains("black b1: flips b2"));
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transcript {
    /// The `parse:` lines' results, in order.
    pub parses: Vec<ParsedRules>,
    /// The rules (`None` for a scenario of `parse:` lines only).
    pub rules: Option<Rules>,
    /// Why the engine refused the scenario's `board:` or `start:` position.
    pub setup_refused: Option<SetupError>,
    /// The setup as the scenario gives it (the rules' start, a diagram or a `start:` line)
    /// and the discs in hand a `start:` line gives, refused or not.
    pub setup: Option<(Setup, Option<[u8; 2]>)>,
    /// The position before the first move.
    pub start: Option<Position>,
    /// Every move, in order, quiet ones included.
    pub steps: Vec<Step>,
    /// `show: every`.
    pub show_every: bool,
    /// `quiet: N`.
    pub quiet: usize,
}

impl Transcript {
    /// The first position the transcript shows: after the quiet moves.
    pub fn first_shown(&self) -> Option<Position> {
        match self.quiet.checked_sub(1) {
            None => self.start,
            Some(i) => self.steps.get(i).map(|s| s.after),
        }
    }

    /// The position after the last move.
    pub fn last(&self) -> Option<Position> {
        self.steps.last().map(|s| s.after).or(self.start)
    }
}

fn inconsistent(line: Option<usize>, message: impl Into<String>) -> ScenarioError {
    ScenarioError::new(line, ErrorKind::Inconsistent, message)
}

impl Scenario {
    /// Plays the scenario through the engine. Fails when it cannot be set up or when it
    /// contradicts its own marks: a `!` move that is legal, an unmarked move that is refused.
    pub fn run(&self) -> Result<Transcript, ScenarioError> {
        let parses = self
            .parses
            .iter()
            .map(|p| ParsedRules {
                input: p.clone(),
                result: p.parse(),
            })
            .collect();
        let mut transcript = Transcript {
            parses,
            rules: None,
            setup_refused: None,
            setup: None,
            start: None,
            steps: Vec::new(),
            show_every: self.show_every,
            quiet: self.quiet,
        };
        let Some((rules_text, rules_line)) = &self.rules else {
            if self.parses.is_empty() {
                return Err(inconsistent(None, "no `rules:` and no `parse:` lines"));
            }
            if self.start != StartGiven::Rules || !self.moves.is_empty() {
                return Err(inconsistent(
                    None,
                    "a board, a start or moves need a `rules:` line",
                ));
            }
            return Ok(transcript);
        };
        let rules: Rules = rules_text.parse().map_err(|e: RulesError| {
            ScenarioError::new(
                Some(*rules_line),
                ErrorKind::BadRules,
                format!("rules `{rules_text}`: {e}"),
            )
        })?;
        transcript.rules = Some(rules);
        let (setup, in_hand, pos) = self.start_position(rules)?;
        transcript.setup = Some((setup, in_hand));
        let mut pos = match pos {
            Ok(pos) => pos,
            Err(e) => {
                transcript.setup_refused = Some(e);
                return Ok(transcript);
            }
        };
        transcript.start = Some(pos);
        for (i, m) in self.moves.iter().enumerate() {
            let step = self.play(i, m, &mut pos)?;
            transcript.steps.push(step);
        }
        Ok(transcript)
    }

    /// The start position: the rules' own, a diagram or a `start:` line. The outer error
    /// is a board that cannot be read; the inner one a setup the engine refuses.
    /// Also gives the setup as written and the discs in hand a `start:` line gives.
    #[allow(clippy::type_complexity)]
    fn start_position(
        &self,
        rules: Rules,
    ) -> Result<(Setup, Option<[u8; 2]>, Result<Position, SetupError>), ScenarioError> {
        let bad_board = |line: usize, message: String| {
            ScenarioError::new(Some(line), ErrorKind::BadBoard, message)
        };
        Ok(match &self.start {
            StartGiven::Rules => {
                let pos = Position::new(rules);
                (pos.setup(), None, Ok(pos))
            }
            StartGiven::Diagram { rows, line } => {
                let turn = self.turn.map_or(Color::Black, |(c, _)| c);
                let setup = read_rows(&rules, rows, turn).map_err(|e| bad_board(*line, e))?;
                (setup, None, Position::from_setup(rules, setup))
            }
            StartGiven::Line { text, line } => {
                let read = from_line(rules.board(), text)
                    .map_err(|e| bad_board(*line, format!("start: {e}")))?;
                let in_hand = read.in_hand.filter(|_| rules.supply().is_some());
                let pos = Position::from_setup_in_hand(rules, read.setup, in_hand);
                (read.setup, in_hand, pos)
            }
        })
    }

    /// Plays move `i` on `pos` (which advances when the move is played); fails when the
    /// engine's verdict contradicts the move's `!` mark.
    fn play(&self, i: usize, m: &ScenarioMove, pos: &mut Position) -> Result<Step, ScenarioError> {
        let mover = pos.turn();
        let mut trial = *pos;
        let verdict = match m.mv {
            Tried::Move(mv) => trial.play_with_flips(mv),
            Tried::OffGrid { .. } => Err(IllegalMove::OffBoard),
        };
        match (verdict, m.refused) {
            (Ok(flipped), false) => {
                *pos = trial;
                Ok(Step {
                    mover,
                    mv: m.mv,
                    flipped,
                    refused: None,
                    quiet: i < self.quiet,
                    after: *pos,
                })
            }
            (Err(e), true) => Ok(Step {
                mover,
                mv: m.mv,
                flipped: SquareSet::EMPTY,
                refused: Some(e),
                quiet: i < self.quiet,
                after: *pos,
            }),
            (Ok(_), true) => Err(ScenarioError::new(
                Some(m.line),
                ErrorKind::UnexpectedLegal,
                format!(
                    "move {} `!{}` was expected to be refused, but {mover} can play it",
                    i + 1,
                    m.mv
                ),
            )),
            (Err(e), false) => Err(ScenarioError::new(
                Some(m.line),
                ErrorKind::UnexpectedRefusal,
                format!(
                    "move {} `{}` was refused: {e} (mark it `!{}` if that is expected)",
                    i + 1,
                    m.mv,
                    m.mv
                ),
            )),
        }
    }
}
