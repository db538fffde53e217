//! What a convert run reports: each game's outcome ([`ConvertedGame`]) and the run's sum
//! ([`ConvertReport`]), plain data in the one JSON shape every front end gives.

use serde::Serialize;

use crate::diagnostic::{Located, Renderer};
use crate::formats::ParsedGame;
use crate::pipeline::conversion::{Outcome, Tally};
use crate::record::Identity;

use super::super::Status;

/// What a convert run did, in sum: plain data (serialisable; the command line's
/// `--format json` summary, Python's `convert` result).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ConvertReport {
    /// The target format (`json:lines` with its dialect).
    pub target: String,
    /// Inputs opened.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Games written.
    pub written: usize,
    /// Games written with an error (written as read).
    pub written_with_errors: usize,
    /// Games with an error (written or not).
    pub with_errors: usize,
    /// Games the target refused.
    pub refused: usize,
    /// Games that could not be read.
    pub unreadable: usize,
    /// Games not written: refused or unreadable.
    pub not_converted: usize,
    /// Games written with a result derived from their final board.
    pub results_derived: usize,
    /// Problems of an input itself, not of a game.
    pub file_problems: usize,
    /// The outputs put in place, each with its games.
    pub outputs: Vec<OutputWritten>,
    /// What became of each output of a run that failed (left as it was, kept aside).
    pub abandoned: Vec<String>,
    /// The copies `dedupe` left out, each with why.
    pub copies_left_out: Vec<String>,
    /// Warnings about the whole run.
    pub warnings: Vec<String>,
    /// Why the run failed without an input to blame (no game selected), if it did.
    #[serde(skip)]
    pub failed: Option<String>,
    /// An input could not be opened or read.
    #[serde(skip)]
    pub failed_input: bool,
}

/// An output put in place, and how many games it holds.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OutputWritten {
    /// Its name.
    pub file: String,
    /// Its games.
    pub games: usize,
}

impl ConvertReport {
    pub(super) fn count(&mut self, tally: &Tally) {
        self.files = tally.files;
        self.games = tally.games;
        self.written = tally.written;
        self.written_with_errors = tally.written_with_errors;
        self.with_errors = tally.with_errors;
        self.refused = tally.refused;
        self.unreadable = tally.unreadable;
        self.not_converted = tally.refused + tally.unreadable;
        self.results_derived = tally.derived_results;
        self.file_problems = tally.file_problems;
    }

    /// Whether nothing is put in place: an input could not be read, no game was selected,
    /// or every game read was refused or unreadable.
    pub fn failed(&self) -> bool {
        self.failed_input || self.failed.is_some() || (self.written == 0 && self.not_converted > 0)
    }

    /// What the run's outcome says: [`Status::Failed`] when an input could not be read or
    /// nothing was selected; [`Status::Invalid`] when a game had an error or was not
    /// converted.
    pub fn status(&self) -> Status {
        if self.failed_input || self.failed.is_some() {
            Status::Failed
        } else if self.with_errors + self.file_problems + self.not_converted > 0 {
            Status::Invalid
        } else {
            Status::Clean
        }
    }
}

/// One game of a convert run: where it is, what became of it, what was dropped and
/// everything found in it (serialisable: an event of the command line's JSON report).
#[derive(Debug, Serialize)]
pub struct ConvertedGame<'a> {
    /// The input's name.
    pub file: &'a str,
    /// The game's number in its input, from 1 (0: the input itself).
    pub index: usize,
    /// Everything found in it.
    pub diagnostics: Vec<Located<'a>>,
    /// Who played it, where and when (known while its record is held: a game refused, or
    /// written as WTHOR).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity: Option<Identity>,
    /// What became of it.
    #[serde(flatten)]
    pub outcome: GameOutcome<'a>,
}

/// What became of a game, by its `outcome` in JSON.
#[derive(Debug, Serialize)]
#[serde(tag = "outcome", rename_all = "kebab-case")]
pub enum GameOutcome<'a> {
    /// Written: to which output (`None`: the one output), with its result derived from the
    /// board or not, and what the target dropped.
    Written {
        /// The output the template gave it.
        output: Option<&'a str>,
        /// Its result was derived from the final board.
        result_derived: bool,
        /// What the target dropped of it.
        dropped: &'a [String],
    },
    /// Refused by the target, which says why.
    Refused {
        /// Why, and how to convert it anyway when the target can.
        refusal: Option<String>,
    },
    /// Not converted: it could not be read.
    Unreadable,
    /// A problem of the input itself, not a game.
    FileProblem,
}

impl<'a> ConvertedGame<'a> {
    /// The report of `game` of the input `file`, `outcome` what became of it, as a run to
    /// `target` writes it (`lossy` or not: a refusal says how to write the game anyway);
    /// `renderer` locates the diagnostics (kept from game to game, it indexes each input's
    /// lines once).
    pub fn new(
        file: &'a str,
        game: &'a ParsedGame,
        outcome: &'a Outcome,
        (target, lossy): (&str, bool),
        renderer: &mut Renderer,
    ) -> ConvertedGame<'a> {
        ConvertedGame {
            file,
            index: game.index,
            diagnostics: game
                .diagnostics
                .iter()
                .map(|d| renderer.locate(d, &game.source))
                .collect(),
            identity: game.identity(),
            outcome: match outcome {
                Outcome::Written(written) => GameOutcome::Written {
                    output: written.file.as_deref(),
                    result_derived: written.derived_result,
                    dropped: &written.losses,
                },
                Outcome::Refused(why) => GameOutcome::Refused {
                    refusal: why.refusal(target, lossy),
                },
                Outcome::Unreadable => GameOutcome::Unreadable,
                Outcome::FileProblem => GameOutcome::FileProblem,
            },
        }
    }

    /// Whether there is something to say of it: a finding, a refusal, something dropped, a
    /// result derived.
    pub fn is_notable(&self) -> bool {
        !self.diagnostics.is_empty()
            || match &self.outcome {
                GameOutcome::Written {
                    result_derived,
                    dropped,
                    ..
                } => *result_derived || !dropped.is_empty(),
                _ => true,
            }
    }
}
