//! The director's small things: `legal`, `show --legal`, "did you mean" for rules strings,
//! the variant hint, 3-4 player wording, and no progress bar off a terminal.

use assert_cmd::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn reversi(args: &[&str]) -> (String, String, i32) {
    let out = Command::cargo_bin("reversi")
        .unwrap()
        .current_dir(ROOT)
        .args(args)
        .output()
        .unwrap();
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

#[test]
fn legal_lists_the_moves_of_a_position() {
    let (out, _, code) = reversi(&[
        "legal",
        "fixtures/director/two-games.txt",
        "-g",
        "2",
        "-m",
        "1",
    ]);
    assert_eq!(code, 0);
    assert!(
        out.ends_with("white to move: 3 legal moves: f4 d6 f6\n"),
        "{out}"
    );
    // Default: after the last legal move; the illegal one is noted, exit 1.
    let (out, err, code) = reversi(&[
        "legal",
        "fixtures/director/two-games.txt",
        "--game",
        "2",
        "--format",
        "json",
    ]);
    assert_eq!(code, 1);
    assert!(err.contains("move 3 (a1) is illegal"), "{err}");
    let v: serde_json::Value = serde_json::from_str(&out).unwrap();
    assert_eq!(v["to_move"], "black");
    assert_eq!(
        v["legal"],
        serde_json::json!(["c3", "c4", "c5", "c6", "c7"])
    );
    assert_eq!(v["illegal_move"]["move"], "a1");
}

#[test]
fn legal_in_variants() {
    let (out, _, _) = reversi(&[
        "legal",
        "fixtures/rgn/valid/three_players.rgn",
        "--move",
        "3",
    ]);
    assert!(
        out.ends_with("black to move: 4 legal moves: d2 f2 d6 f6\n"),
        "{out}"
    );
    assert!(!out.contains("pass"), "{out}");
    let (out, _, _) = reversi(&["legal", "fixtures/rgn/valid/three_players.rgn"]);
    assert!(out.ends_with("game over\n"), "{out}");
    let (out, _, _) = reversi(&[
        "legal",
        "fixtures/director/free-opening.txt",
        "--rules",
        "free",
        "-m",
        "1",
    ]);
    assert!(
        out.ends_with("white to move: 3 legal moves: e4 d5 e5\n"),
        "{out}"
    );
    let (_, err, code) = reversi(&["legal", "fixtures/director/two-games.txt", "-g", "Round=3"]);
    assert_eq!(code, 2);
    assert!(err.contains("no game matches"), "{err}");
}

#[test]
fn show_legal_marks_the_svg() {
    let (out, _, code) = reversi(&[
        "show",
        "fixtures/director/two-games.txt",
        "-g",
        "2",
        "--legal",
        "--format",
        "svg",
    ]);
    assert_eq!(code, 1);
    assert_eq!(out.matches("class=\"legal-move\"").count(), 5, "{out}");
    assert_eq!(out.matches("class=\"illegal-move\"").count(), 1);
    assert!(out.contains("dots: black to move: 5 legal moves"), "{out}");
    assert!(out.contains("red cross: move 3 (a1) is illegal"), "{out}");
    let (out, _, _) = reversi(&[
        "show",
        "fixtures/director/two-games.txt",
        "-g",
        "2",
        "--legal",
    ]);
    assert!(
        out.contains("black to move: 5 legal moves: c3 c4 c5 c6 c7\nmove 3 (a1) is illegal"),
        "{out}"
    );
}

#[test]
fn rules_strings_get_a_suggestion() {
    for (given, meant) in [
        ("octagon", "othello:octagon"),
        ("10x10", "othello:10x10"),
        ("anti-reversi", "anti"),
        ("antireversi", "anti"),
        ("othelo", "othello"),
    ] {
        let (_, err, code) =
            reversi(&["legal", "fixtures/director/two-games.txt", "--rules", given]);
        assert_eq!(code, 2);
        assert!(
            err.contains(&format!("help: did you mean `{meant}`?")),
            "{given}: {err}"
        );
    }
}

#[test]
fn a_record_without_rules_that_fits_a_variant_gets_a_hint() {
    let (out, _, code) = reversi(&["validate", "fixtures/director/free-opening.txt"]);
    assert_eq!(code, 1);
    assert!(out.contains("replay cleanly under `free`"), "{out}");
    let (out, _, _) = reversi(&["validate", "fixtures/director/ten-by-ten-square.txt"]);
    assert!(out.contains("j10 is a square of the 10x10 board"), "{out}");
    let (out, _, code) = reversi(&[
        "validate",
        "fixtures/director/free-opening.txt",
        "--rules",
        "free",
    ]);
    assert_eq!(code, 0, "{out}");
}

#[test]
fn three_player_messages_never_mention_passes() {
    let (out, _, _) = reversi(&["validate", "fixtures/repair/multi3-swap.rgn"]);
    assert!(!out.to_lowercase().contains("pass"), "{out}");
    let (out, _, _) = reversi(&["legal", "fixtures/repair/multi3-swap.rgn"]);
    assert!(!out.contains("pass"), "{out}");
}

#[test]
fn no_progress_output_off_a_terminal() {
    for cmd in [
        vec!["validate", "fixtures/director/two-games.txt"],
        vec![
            "convert",
            "fixtures/director/two-games.txt",
            "--to",
            "json:lines",
        ],
        vec!["repair", "fixtures/director/two-games.txt"],
    ] {
        let (_, err, _) = reversi(&cmd);
        assert!(
            !err.contains("games/s") && !err.contains('\r') && !err.contains("\u{1b}["),
            "{cmd:?}: {err}"
        );
    }
}
