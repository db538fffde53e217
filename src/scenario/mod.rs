//! Rule scenarios: describe a rules edge case in a few lines, get the engine's answer.
//!
//! A scenario (format: `spec/scenario.md`) names the rules, optionally draws a board or gives
//! an RGN `Start` line, and lists moves, `!` marking those the engine must refuse. Running it
//! gives a [`Transcript`]: every position shown with its legal moves and their flips, every
//! move with what it flipped or why it was refused, and the outcome. The transcript renders
//! as text ([`Transcript::to_text`], for snapshots) or JSON ([`Transcript::to_json`], for
//! programs in any language). [`check`] compares transcripts with expected ones, [`markdown`]
//! reads scenarios kept in Markdown, and [`suite`] builds the conformance suite.
//!
//! ```
//! use reversi_record::scenario::Scenario;
//!
//! let scenario: Scenario = "\
//! rules: othello:4x4
//! moves: b1 !b1 a1
//! ".parse()?;
//! let transcript = scenario.run()?;
//! let text = transcript.to_text();
//! assert!(text.contains("white b1: refused, the square is occupied (Occupied)"));
//! let json = transcript.to_json("example.scenario");
//! assert_eq!(json.moves[1].refusal.as_deref(), Some("Occupied"));
//! # Ok::<(), reversi_record::scenario::ScenarioError>(())
//! ```
//!
//! Snapshot-testing a scenario with `insta` from an engine's own tests:
//! `examples/scenario_snapshot.rs`.

pub mod check;
mod json;
pub mod markdown;
mod parse;
mod run;
pub mod suite;
mod text;

pub use json::{JsonMove, JsonOutcome, JsonParse, JsonPosition, JsonReport, JsonScenario};
pub use parse::{read_diagram, ErrorKind, Scenario, ScenarioError, ScenarioMove, StartGiven};
pub use run::{ParsedRules, Step, Transcript};

/// Parses and runs a scenario: the shortest way from text to a [`Transcript`].
///
/// ```
/// let t = reversi_record::scenario::run("rules: othello:6x6\nmoves: b3").unwrap();
/// assert_eq!(t.steps[0].flipped.to_string(), "c3");
/// ```
pub fn run(text: &str) -> Result<Transcript, ScenarioError> {
    Scenario::parse(text)?.run()
}
