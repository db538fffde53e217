//! Games named by who played them: `--game` takes a number or tags in `validate`,
//! `repair` and `show`, every report names the players, and a run over several files
//! gives a line for each.

use std::path::Path;
use std::process::Command;

mod common;
use common::scratch;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs `reversi` in the project root: exit code, stdout, stderr.
fn reversi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(assert_cmd::cargo::cargo_bin("reversi"))
        .args(args)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs");
    let text = |b: &[u8]| String::from_utf8_lossy(b).into_owned();
    (
        out.status.code().unwrap_or(-1),
        text(&out.stdout),
        text(&out.stderr),
    )
}

fn json(text: &str) -> serde_json::Value {
    serde_json::from_str(text).unwrap_or_else(|e| panic!("{e}: {text}"))
}

#[test]
fn validate_takes_the_games_tags_select() {
    let sheet = "fixtures/event/round1.rgn";
    // Board 4 of round 1 claims 24-40 where the board gives 40-24 (fixtures/event/README.md).
    let (code, out, _) = reversi(&[
        "validate",
        sheet,
        "--game",
        "Round=1,Board=4",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1, "{out}");
    let report = json(&out);
    assert_eq!(report["summary"]["games"], 1);
    assert_eq!(report["summary"]["invalid"], 1);
    let found = &report["diagnostics"][0];
    assert_eq!(found["game"], 4);
    assert_eq!(found["identity"]["black"], "Greta Lindqvist");
    assert_eq!(found["identity"]["white"], "Hiro Sato");
    assert_eq!(found["identity"]["board"], "4");
    // Another board of the same sheet is clean; names compare ignoring case.
    let (code, out, _) = reversi(&["validate", "-q", sheet, "--game", "board=5"]);
    assert_eq!(code, 0, "{out}");
    assert!(out.contains("1 game: 1 valid, 0 invalid"), "{out}");
    // By number, as before.
    let (code, out, _) = reversi(&["validate", "-q", sheet, "--game", "4"]);
    assert_eq!(code, 1);
    assert!(
        out.contains("game 4 (Greta Lindqvist vs Hiro Sato, round 1, board 4)"),
        "{out}"
    );
}

#[test]
fn a_player_is_selected_across_a_folder() {
    // Every game Hiro Sato played, in the sheets of every format of the event.
    let (code, out, err) = reversi(&[
        "validate",
        "fixtures/event",
        "--game",
        "Player=hiro sato",
        "--format",
        "json",
        "--no-event-checks",
    ]);
    assert!(code == 0 || code == 1, "{err}");
    let report = json(&out);
    let games = report["summary"]["games"].as_u64().unwrap_or(0);
    // Seven rounds, and the planted re-entry and double booking (README) on top.
    assert!((7..=10).contains(&games), "{games} games: {out}");
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let who = &d["identity"];
        assert!(
            who["black"] == "Hiro Sato" || who["white"] == "Hiro Sato",
            "a game Hiro Sato did not play: {d}"
        );
    }
}

#[test]
fn a_selector_that_takes_nothing_is_an_error() {
    let (code, _, err) = reversi(&["validate", "fixtures/event/round1.rgn", "--game", "Round=9"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("--game Round=9: no game of the inputs is selected"),
        "{err}"
    );
    let (code, _, err) = reversi(&["validate", "fixtures/event/round1.rgn", "--game", "Round"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("neither a game number nor `Tag=Value`"),
        "{err}"
    );
}

#[test]
fn show_needs_the_tags_of_one_game() {
    // Round 2 board 5 was entered twice (games 5 and 21): the selector is ambiguous.
    let (code, _, err) = reversi(&["show", "fixtures/event/round2.rgn", "--game", "Board=5"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("Board=5 selects 2 games: game 5 (Rosa Ferreira vs Tomoko Ito, round 2, board 5); game 21"), "{err}");
    let (code, by_tags, err) = reversi(&[
        "show",
        "fixtures/event/round2.rgn",
        "--game",
        "Black=Rosa Ferreira,Round=2,Board=5",
    ]);
    assert_eq!(code, 2, "the copy has the same tags: {err}");
    assert!(by_tags.is_empty());
    let (code, by_tags, err) = reversi(&["show", "fixtures/event/round2.rgn", "--game", "Board=3"]);
    assert_eq!(code, 0, "{err}");
    let (_, by_number, _) = reversi(&["show", "fixtures/event/round2.rgn", "--game", "3"]);
    assert_eq!(by_tags, by_number);
    let (code, _, err) = reversi(&["show", "fixtures/event/round2.rgn", "--game", "Board=30"]);
    assert_eq!(code, 2);
    assert!(
        err.contains("no game has Board=30 (the input has 21 games)"),
        "{err}"
    );
}

#[test]
fn repair_mends_the_selected_game_and_keeps_the_others() {
    let dir = scratch("select-repair");
    let out = dir.join("fixed.rgn");
    let out_name = out.to_string_lossy().into_owned();
    let sheet = "fixtures/event/round1.rgn";
    let (code, stdout, err) = reversi(&[
        "repair",
        sheet,
        "--game",
        "Board=4",
        "--fix-result",
        "-o",
        &out_name,
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(
        stdout.contains("1 file, 1 game (and 19 games --game passes over, written as read)"),
        "{stdout}"
    );
    assert!(stdout.contains("20 written to"), "{stdout}");
    // The report names the players.
    assert!(
        stdout.contains("Greta Lindqvist vs Hiro Sato, round 1, board 4"),
        "{stdout}"
    );
    // The whole sheet is there, and now every game of it is right.
    let (code, report, err) = reversi(&["validate", "-q", &out_name]);
    assert_eq!(code, 0, "{err}{report}");
    assert!(report.contains("20 games: 20 valid"), "{report}");
    // Passing over the faulty game leaves it as it was.
    let (code, _, err) = reversi(&[
        "repair",
        sheet,
        "--game",
        "Board=5",
        "--fix-result",
        "-o",
        &out_name,
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let (code, report, _) = reversi(&["validate", "-q", &out_name, "--game", "4"]);
    assert_eq!(code, 1, "{report}");
    assert!(Path::new(sheet).exists());
}

#[test]
fn several_files_get_a_line_each() {
    let files = ["fixtures/checks/round-1.rgn", "fixtures/checks/round-2.rgn"];
    let (_, out, _) = reversi(&["validate", files[0], files[1], "--no-event-checks"]);
    for file in files {
        let line = out
            .lines()
            .find(|l| l.starts_with(&format!("{file}: ")))
            .unwrap_or_else(|| panic!("no line for {file}: {out}"));
        assert!(
            line.contains(" games: ") && line.contains(" valid, "),
            "{line}"
        );
    }
    let (_, out, _) = reversi(&["validate", files[0], files[1], "--format", "json"]);
    let report = json(&out);
    let per_file = report["files"].as_array().expect("a files array");
    assert_eq!(per_file.len(), 2);
    assert_eq!(per_file[0]["file"], files[0]);
    let sum: u64 = per_file
        .iter()
        .map(|f| f["games"].as_u64().unwrap_or(0))
        .sum();
    assert_eq!(Some(sum), report["summary"]["games"].as_u64());
    // One file: no lines, no array (the forms stay as they were).
    let (_, out, _) = reversi(&["validate", files[0], "--format", "json"]);
    assert!(json(&out).get("files").is_none());
    let (_, out, _) = reversi(&["validate", "-q", files[0], files[1]]);
    assert!(
        !out.contains(&format!("{}: ", files[0])),
        "-q has no lines per file: {out}"
    );
}

#[test]
fn convert_takes_the_selected_games_only() {
    let dir = scratch("select-convert");
    let out = dir.join("round3.rgn");
    let out_name = out.to_string_lossy().into_owned();
    let (code, _, err) = reversi(&[
        "convert",
        "fixtures/event",
        "--game",
        "Round=3",
        "--to",
        "rgn",
        "-o",
        &out_name,
        "-q",
    ]);
    assert_eq!(code, 0, "{err}");
    let (_, counted, _) = reversi(&[
        "validate",
        "fixtures/event",
        "--game",
        "Round=3",
        "--format",
        "json",
        "--no-event-checks",
    ]);
    let games = json(&counted)["summary"]["games"].as_u64().unwrap_or(0);
    assert!(games >= 20, "{counted}");
    let text = std::fs::read_to_string(&out).expect("the output");
    assert_eq!(
        text.matches("[Round \"3\"]").count() as u64,
        games,
        "{text}"
    );
    assert_eq!(text.matches("[Round ").count() as u64, games);
    // Nothing selected: an error, and the output stays as it was.
    let (code, _, err) = reversi(&[
        "convert",
        "fixtures/event",
        "--game",
        "Round=8",
        "--to",
        "rgn",
        "-o",
        &out_name,
    ]);
    assert_eq!(code, 2, "{err}");
    assert!(
        err.contains("--game Round=8: no game of the inputs is selected"),
        "{err}"
    );
    assert_eq!(std::fs::read_to_string(&out).ok(), Some(text));
}
