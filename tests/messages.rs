//! The messages issue 9 fixed, each run through the binary and snapshotted: refusals that
//! say whether `--lossy` helps and name only what stands in the way, a per-file summary of
//! what was dropped, move strings that say which rules they assumed, plurals and articles,
//! board examples of the board at hand, and `perft --format` without `jsonl`.

use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// Runs the binary from the crate root: the command line, exit code and both outputs.
fn run(args: &[&str]) -> String {
    let out = Command::cargo_bin("reversi")
        .expect("the binary")
        .current_dir(ROOT)
        .args(args)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .output()
        .expect("reversi runs");
    // Binary output (a WTHOR header, dated today) is shown by its length only.
    let binary = out
        .stdout
        .iter()
        .any(|&b| b < 0x20 && !matches!(b, b'\n' | b'\r' | b'\t'));
    let stdout = if binary {
        format!("<{} bytes of binary output>\n", out.stdout.len())
    } else {
        String::from_utf8_lossy(&out.stdout).into_owned()
    };
    format!(
        "$ reversi {}\nexit code: {}\n----- stdout -----\n{stdout}----- stderr -----\n{}\n",
        args.join(" "),
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr)
    )
}

#[test]
fn refusals_say_whether_lossy_helps_and_name_only_what_stands_in_the_way() {
    let all = [
        // Refused even lossily: the 3 players, and nothing about --lossy converting it.
        run(&[
            "convert",
            "--lossy",
            "--to",
            "wthor",
            "fixtures/rgn/valid/three_players.rgn",
        ]),
        // Blocked squares into GGF: the droppable `Event` tag is not listed.
        run(&[
            "convert",
            "--to",
            "ggf",
            "fixtures/validate/clean-blocked.rgn",
        ]),
        // `an octagon board`, once, without a line per off-board move.
        run(&[
            "convert",
            "--to",
            "pgn:thor",
            "fixtures/validate/clean-octagon.rgn",
        ]),
        // Free-opening games into WTHOR are refused, --lossy or not.
        run(&[
            "convert",
            "--lossy",
            "--to",
            "wthor",
            "fixtures/validate/clean-free.rgn",
        ]),
        // Droppable only: --lossy converts it.
        run(&["convert", "--to", "moves", "fixtures/demo/club-night.rgn"]),
    ]
    .concat();
    insta::assert_snapshot!(all);
}

#[test]
fn what_was_dropped_is_summed_up_per_file() {
    insta::assert_snapshot!(run(&[
        "convert",
        "--lossy",
        "--to",
        "moves",
        "fixtures/demo/club-night.rgn"
    ]));
}

#[test]
fn validation_messages() {
    let all = [
        // Move strings say which rules they assumed and that --rules exists.
        run(&["validate", "fixtures/cli/six.txt"]),
        // `after 1 move`, and `*` on a game that is not over draws no result warning.
        run(&["validate", "fixtures/messages/one-move.rgn"]),
        // A classic player out of discs is told why.
        run(&[
            "validate",
            "fixtures/validate/illegal-move-no-discs-left.rgn",
        ]),
        // The example start is the octagon's, not an 8x8 one.
        run(&["validate", "fixtures/messages/octagon-bad-start.rgn"]),
        // perft prints one line: no `jsonl`.
        run(&["perft", "1", "--format", "jsonl"]),
    ]
    .concat();
    insta::assert_snapshot!(all);
}

#[test]
fn rules_is_the_default_for_pgn_games_without_a_rules_tag() {
    // Game 1 states no rules: --rules anti applies. Game 2 states othello: it keeps them.
    let converted = run(&[
        "convert",
        "--rules",
        "anti",
        "--to",
        "rgn",
        "fixtures/cli/anti-without-rules.pgn",
    ]);
    let games: Vec<&str> = converted.split("[Event ").skip(1).collect();
    assert_eq!(games.len(), 2, "{converted}");
    assert!(games[0].contains("[Rules \"anti\"]"), "{converted}");
    assert!(
        !games[1].contains("[Rules"),
        "othello is the default: {converted}"
    );
    assert!(
        converted.contains("read as anti (--rules)"),
        "the note says so"
    );
    let validated = run(&[
        "validate",
        "--rules",
        "anti",
        "fixtures/cli/anti-without-rules.pgn",
    ]);
    assert!(validated.contains("exit code: 0"), "{validated}");
}
