//! Snapshot-testing rule scenarios from outside the crate, as an engine author would in their
//! own repository: describe the edge case, let `reversi_check::scenario` play it, and pin the
//! transcript with `insta`. The text suits a human review; the JSON is what a test of another
//! engine compares with, position by position.
//!
//! `cargo test --example scenario_snapshot` runs the snapshot tests (`cargo test` runs them
//! too); `cargo run --example scenario_snapshot -- FILE...` prints the transcripts of
//! scenario files.

use reversi_check::scenario;

/// A blocked square breaks a run: Black's e6 flips e5, but not d6, whose run ends on the
/// blocked c6; a disc on c6 itself is refused.
const BLOCKED: &str = "\
rules: othello,blocked=c6
board:
   a b c d e f g h
 1 . . . . . . . .
 2 . . . . . . . .
 3 . . . . . . . .
 4 . . . O X . . .
 5 . . . X O . . .
 6 . . # O . . . .
 7 . . . . . . . .
 8 . . . . . . . .
moves: e6 !c6
";

/// The text transcript, or the error in its place (a snapshot shows either).
fn transcript(text: &str) -> String {
    match scenario::run(text) {
        Ok(t) => t.to_text(),
        Err(e) => format!("error: {e}\n"),
    }
}

#[cfg_attr(test, allow(dead_code))]
fn main() {
    let files: Vec<String> = std::env::args().skip(1).collect();
    if files.is_empty() {
        print!("{}", transcript(BLOCKED));
        return;
    }
    for file in files {
        match std::fs::read_to_string(&file) {
            Ok(text) => print!("==> {file} <==\n{}", transcript(&text)),
            Err(e) => eprintln!("{file}: {e}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_check::scenario::JsonScenario;

    /// The JSON transcript.
    fn json(text: &str, name: &str) -> Option<JsonScenario> {
        scenario::run(text).ok().map(|t| t.to_json(name))
    }

    #[test]
    fn blocked_square_text() {
        insta::assert_snapshot!(transcript(BLOCKED));
    }

    #[test]
    fn blocked_square_json() {
        let json = json(BLOCKED, "blocked.scenario").expect("the scenario runs");
        // What another engine would check: the legal moves of the first position...
        assert!(!json.positions[0].legal.contains(&"c6".to_owned()));
        assert_eq!(json.moves[0].flips, ["e5"]);
        // ...and the whole answer, pinned.
        insta::assert_json_snapshot!(json);
    }

    #[test]
    fn a_contradicting_scenario_is_an_error() {
        insta::assert_snapshot!(transcript("rules: othello\nmoves: a1\n"));
    }
}
