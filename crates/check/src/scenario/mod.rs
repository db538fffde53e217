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
//! use reversi_check::scenario::Scenario;
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
//! # Ok::<(), reversi_check::scenario::ScenarioError>(())
//! ```
//!
//! Snapshot-testing a scenario with `insta` from an engine's own tests:
//! `examples/scenario_snapshot.rs`. Driving an engine in any language through the engine
//! protocol (`spec/engine-protocol.md`): [`engine`] (the channel, the handshake, the
//! process), [`compare`] (a scenario against the engine) and [`serve`] (the library's own
//! engine speaking the protocol).

pub mod case;
pub mod check;
pub mod compare;
pub mod engine;
pub mod facets;
mod json;
pub mod markdown;
mod parse;
mod run;
pub mod runner;
pub mod serve;
pub mod suite;
mod text;

pub use json::{
    JsonError, JsonMove, JsonOutcome, JsonParse, JsonPosition, JsonReport, JsonScenario, JsonSetup,
    JsonState, NORMATIVE, NOT_NORMATIVE,
};
pub use parse::{
    read_diagram, ErrorKind, Scenario, ScenarioError, ScenarioMove, StartGiven, Tried, MAX_MOVES,
    MAX_PARSES,
};
pub use run::{ParsedRules, Step, Transcript};

/// Parses and runs a scenario: the shortest way from text to a [`Transcript`].
///
/// ```
/// let t = reversi_check::scenario::run("rules: othello:6x6\nmoves: b3").unwrap();
/// assert_eq!(t.steps[0].flipped.to_string(), "c3");
/// ```
pub fn run(text: &str) -> Result<Transcript, ScenarioError> {
    Scenario::parse(text)?.run()
}

/// The largest scenario or Markdown file [`read_file`] reads: scenarios are a few lines,
/// and the rules' whole specification is well under it.
pub const MAX_FILE_BYTES: u64 = 4 * 1024 * 1024;

/// Reads a scenario, Markdown or expected-transcript file of at most [`MAX_FILE_BYTES`];
/// a larger one (or an endless one, `/dev/zero`) is refused after reading one byte past
/// the bound, and a file that is not UTF-8 is refused. The errors name the file.
///
/// ```
/// let dir = std::env::temp_dir().join(format!("scenario-read-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let path = dir.join("pass.scenario");
/// std::fs::write(&path, "rules: othello:4x4\n")?;
/// assert_eq!(reversi_check::scenario::read_file(&path)?, "rules: othello:4x4\n");
/// let e = reversi_check::scenario::read_file("/dev/zero").unwrap_err();
/// assert!(e.to_string().contains("larger than 4 MiB"), "{e}");
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn read_file(path: impl AsRef<std::path::Path>) -> std::io::Result<String> {
    use std::io::{Error, ErrorKind, Read};
    let path = path.as_ref();
    let named = |e: Error| Error::new(e.kind(), format!("{}: {e}", path.display()));
    let file = std::fs::File::open(path).map_err(named)?;
    let mut bytes = Vec::new();
    file.take(MAX_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(named)?;
    if bytes.len() as u64 > MAX_FILE_BYTES {
        return Err(Error::new(
            ErrorKind::InvalidData,
            format!(
                "{}: larger than {} MiB, the most a scenario file may hold",
                path.display(),
                MAX_FILE_BYTES / (1024 * 1024)
            ),
        ));
    }
    String::from_utf8(bytes).map_err(|e| {
        Error::new(
            ErrorKind::InvalidData,
            format!(
                "{}: not UTF-8 (byte {} is not valid)",
                path.display(),
                e.utf8_error().valid_up_to()
            ),
        )
    })
}
