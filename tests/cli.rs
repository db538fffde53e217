//! End-to-end tests of the `reversi` command line: every verb run as a process, with its
//! standard output, standard error and exit code snapshotted.
//!
//! Commands run from the crate root (paths in the output are relative), with `NO_COLOR=1`
//! and a fixed terminal width, so the rendered diagnostics are the same everywhere; timings
//! are redacted.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;

use assert_cmd::Command;
use serde_json::Value;

mod common;
use common::scratch;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A path in the repository's real data (`data/`, see `data/SOURCES.md`); a missing file
/// fails the test.
fn data(rel: &str) -> String {
    let path = format!("{ROOT}/data/{rel}");
    assert!(
        Path::new(&path).exists(),
        "{path} is missing: the real data is part of the repository (data/SOURCES.md)"
    );
    path
}

/// The `reversi` binary, deterministic: run from the crate root, no colour, 80 columns.
fn reversi() -> Command {
    let mut cmd = Command::cargo_bin("reversi").expect("the reversi binary is built");
    cmd.current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR");
    cmd
}

/// The outcome of a run.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

impl Run {
    /// Exit code, standard output and standard error, for a snapshot.
    fn transcript(&self) -> String {
        format!(
            "exit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
            self.code, self.stdout, self.stderr
        )
    }
}

/// Runs `args`, feeding `stdin` when given.
fn run_with(args: &[&str], stdin: Option<&[u8]>) -> Run {
    let mut cmd = reversi();
    cmd.args(args);
    if let Some(input) = stdin {
        cmd.write_stdin(input.to_vec());
    }
    let output = cmd.output().expect("reversi runs");
    Run {
        code: output
            .status
            .code()
            .expect("reversi exits with a code, not a signal"),
        stdout: redact(&String::from_utf8_lossy(&output.stdout)),
        stderr: redact(&String::from_utf8_lossy(&output.stderr)),
    }
}

fn run(args: &[&str]) -> Run {
    run_with(args, None)
}

/// Replaces perft's timing line, the only output that changes from run to run, and the
/// absolute path of the crate root.
fn redact(text: &str) -> String {
    let mut out = String::new();
    for line in text.lines() {
        if line.ends_with("M leaves/s") {
            out.push_str("[timing]");
        } else {
            out.push_str(&line.replace(ROOT, "[ROOT]"));
        }
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------
// validate

#[test]
fn validate_clean_file_exits_0() {
    let r = run(&["validate", "fixtures/rgn/valid/othello_8x8.rgn"]);
    assert_eq!(r.code, 0);
    assert!(r.stderr.contains(
        "note: reading fixtures/rgn/valid/othello_8x8.rgn as rgn (detected from its content)"
    ));
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn convert_counts_a_file_problem_as_an_error_but_not_as_a_game() {
    // The envelope's problem is reported and makes the exit code 1, but no game is lost:
    // the one game is converted.
    let r = run(&["convert", "fixtures/cli/envelope-field.json", "--to", "rgn"]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("json-unknown-field"));
    assert!(
        r.stderr
            .contains("converted 1 game to rgn; 0 not converted"),
        "{}",
        r.stderr
    );
    assert!(!r.stderr.contains("game 0"), "{}", r.stderr);
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_counts_a_file_problem_as_an_error_but_not_as_a_game() {
    // One game in a JSON document whose envelope has an unknown field: the envelope's
    // problem is the file's, not a second (invalid) game.
    let r = run(&["validate", "fixtures/cli/envelope-field.json"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("json-unknown-field"));
    assert!(
        r.stdout
            .contains("1 file, 1 game: 1 valid, 0 invalid; 1 error, 1 warning"),
        "{}",
        r.stdout
    );
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_illegal_move_exits_1_with_the_rendered_diagnostic() {
    let r = run(&["validate", "fixtures/cli/illegal.rgn"]);
    assert_eq!(r.code, 1);
    assert!(r.stdout.contains("illegal-move"));
    assert!(r.stdout.contains("[fixtures/cli/illegal.rgn:5:22]"));
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_missing_file_exits_2() {
    let r = run(&["validate", "fixtures/cli/no-such-file.rgn"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("fixtures/cli/no-such-file.rgn"));
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_unreadable_file_exits_2_naming_it() {
    // A file that opens but cannot be read (a folder is walked now: `/proc/self/mem` is
    // unreadable at its start, even for root).
    let r = run(&["validate", "/proc/self/mem"]);
    assert_eq!(r.code, 2);
    assert!(
        r.stderr
            .starts_with("error: /proc/self/mem: reading failed: "),
        "{}",
        r.stderr
    );
    // The other inputs are still validated.
    let r = run(&["validate", "/proc/self/mem", "fixtures/cli/illegal.rgn"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.contains("illegal-move"));
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_reads_standard_input() {
    let text = std::fs::read(format!("{ROOT}/fixtures/cli/illegal.rgn")).unwrap();
    let dash = run_with(&["validate", "-"], Some(&text));
    let default = run_with(&["validate"], Some(&text));
    assert_eq!(dash.code, 1);
    assert!(dash.stdout.contains("[-:5:22]"), "{}", dash.stdout);
    assert!(dash
        .stderr
        .contains("note: reading - as rgn (detected from its content)"));
    assert_eq!(dash.transcript(), default.transcript());
    insta::assert_snapshot!(dash.transcript());
}

/// The summary's keys; `across_games` only when there are findings across games (as in
/// `mixed.rgn`, whose game 5 is game 1 again), `codes` only when something is reported.
const SUMMARY_KEYS: [&str; 8] = [
    "files",
    "games",
    "valid",
    "invalid",
    "errors",
    "warnings",
    "across_games",
    "codes",
];
const FINDING_KEYS: [&str; 5] = ["code", "severity", "message", "help", "games"];
const DIAGNOSTIC_KEYS: [&str; 11] = [
    "code", "severity", "file", "game", "ply", "move", "span", "line", "column", "message", "help",
];

/// The keys of a JSON object, in the order written.
fn keys(value: &Value) -> Vec<&str> {
    value
        .as_object()
        .expect("an object")
        .keys()
        .map(String::as_str)
        .collect()
}

fn assert_diagnostic_shape(d: &Value) {
    // `identity` follows `game` when the game's tags name its players, round or board.
    let mut expected = DIAGNOSTIC_KEYS.to_vec();
    if d.get("identity").is_some() {
        expected.insert(4, "identity");
        assert!(d["identity"].is_object(), "{d}");
    }
    assert_eq!(keys(d), expected, "{d}");
    if !d["span"].is_null() {
        assert_eq!(keys(&d["span"]), ["offset", "length"]);
    }
    assert!(["error", "warning", "advice"].contains(&d["severity"].as_str().unwrap()));
}

#[test]
fn validate_json_has_the_documented_shape() {
    let r = run(&["validate", "--format", "json", "fixtures/cli/mixed.rgn"]);
    assert_eq!(r.code, 1);
    assert_eq!(r.stderr, "", "no notes in JSON mode");
    let all: Value = serde_json::from_str(&r.stdout).expect("one JSON document");
    // Diagnostics stream as they are found; the findings across games follow, the summary
    // comes last.
    assert_eq!(keys(&all), ["diagnostics", "findings", "summary"]);
    assert_eq!(keys(&all["summary"]), SUMMARY_KEYS);
    // The totals by code add up to the errors and warnings, and count what was reported.
    let codes = all["summary"]["codes"].as_object().unwrap();
    let total: u64 = codes.values().map(|n| n.as_u64().unwrap()).sum();
    let reported =
        all["summary"]["errors"].as_u64().unwrap() + all["summary"]["warnings"].as_u64().unwrap();
    assert_eq!(total, reported);
    let mut counted = std::collections::BTreeMap::<String, u64>::new();
    for d in all["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .chain(all["findings"].as_array().unwrap())
    {
        if d["severity"] != "advice" {
            *counted
                .entry(d["code"].as_str().unwrap().to_owned())
                .or_default() += 1;
        }
    }
    let codes: std::collections::BTreeMap<String, u64> = codes
        .iter()
        .map(|(k, v)| (k.clone(), v.as_u64().unwrap()))
        .collect();
    assert_eq!(codes, counted);
    let findings = all["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 1);
    assert_eq!(keys(&findings[0]), FINDING_KEYS);
    assert_eq!(findings[0]["code"], "duplicate-game");
    let games: Vec<i64> = findings[0]["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["game"].as_i64().unwrap())
        .collect();
    assert_eq!(games, [1, 5]);
    assert_eq!(findings[0]["games"][1]["identity"]["black"], "Ann");
    let diagnostics = all["diagnostics"].as_array().unwrap();
    assert_eq!(diagnostics.len(), 3);
    for d in diagnostics {
        assert_diagnostic_shape(d);
        assert_eq!(d["file"], "fixtures/cli/mixed.rgn");
    }
    let illegal = &diagnostics[0];
    assert_eq!(illegal["code"], "illegal-move");
    assert_eq!(illegal["game"], 3);
    assert_eq!(illegal["ply"], 5);
    assert_eq!(illegal["move"], 5);
    assert_eq!(illegal["span"]["length"], 2);
    assert_eq!(all["summary"]["games"], 6);
    assert_eq!(all["summary"]["invalid"], 2);
    insta::assert_json_snapshot!(all);
}

#[test]
fn validate_jsonl_streams_diagnostics_then_the_summary() {
    let r = run(&["validate", "--format", "jsonl", "fixtures/cli/mixed.rgn"]);
    assert_eq!(r.code, 1);
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("each line is JSON"))
        .collect();
    let (summary, diagnostics) = lines.split_last().expect("a summary line");
    assert_eq!(keys(summary), ["summary"]);
    assert_eq!(keys(&summary["summary"]), SUMMARY_KEYS);
    // The finding across games is the last line before the summary.
    let (finding, diagnostics) = diagnostics.split_last().expect("a finding");
    assert_eq!(keys(finding), FINDING_KEYS);
    assert_eq!(diagnostics.len(), 3);
    for d in diagnostics {
        assert_diagnostic_shape(d);
    }
    let games: Vec<i64> = diagnostics
        .iter()
        .map(|d| d["game"].as_i64().unwrap())
        .collect();
    assert_eq!(games, [3, 4, 6]);
    // The same findings as the one JSON document.
    let json = run(&["validate", "--format", "json", "fixtures/cli/mixed.rgn"]);
    let all: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(all["diagnostics"].as_array().unwrap(), diagnostics);
    assert_eq!(all["summary"], summary["summary"]);
}

#[test]
fn validate_jobs_give_identical_output_in_input_order() {
    for format in ["human", "jsonl"] {
        let one = run(&[
            "validate",
            "--format",
            format,
            "-j",
            "1",
            "fixtures/cli/mixed.rgn",
        ]);
        let two = run(&[
            "validate",
            "--format",
            format,
            "--jobs",
            "2",
            "fixtures/cli/mixed.rgn",
        ]);
        assert_eq!(one.transcript(), two.transcript());
    }
    // A real file, many batches' worth of games.
    let pgn = data("pgn/WTHOR-2004.r.pgn");
    let one = run(&["validate", "--format", "jsonl", "-j", "1", &pgn]);
    let two = run(&["validate", "--format", "jsonl", "-j", "2", &pgn]);
    assert_eq!(one.stdout, two.stdout);
    let summary: Value = serde_json::from_str(one.stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["summary"]["games"], 9113);
    let games: Vec<i64> = one
        .stdout
        .lines()
        .filter_map(|l| serde_json::from_str::<Value>(l).ok()?["game"].as_i64())
        .collect();
    assert!(games.windows(2).all(|w| w[0] <= w[1]), "input order");
}

#[test]
fn validate_allow_hides_and_does_not_count_a_code() {
    let r = run(&[
        "validate",
        "--allow",
        "illegal-move",
        "fixtures/cli/illegal.rgn",
    ]);
    assert!(!r.stdout.contains("illegal-move"));
    assert_eq!(r.code, 0);
    let mixed = run(&[
        "validate",
        "--format",
        "json",
        "--allow",
        "ILLEGAL-MOVE",
        "--allow",
        "unfinished",
        "--allow",
        "duplicate-game",
        "fixtures/cli/mixed.rgn",
    ]);
    let all: Value = serde_json::from_str(&mixed.stdout).unwrap();
    let codes: Vec<&str> = all["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    assert_eq!(codes, ["illegal-pass"]);
    assert_eq!(all["summary"]["warnings"], 0);
    assert_eq!(mixed.code, 1);
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn validate_rules_apply_to_move_strings() {
    let without = run(&["validate", "fixtures/cli/six.txt"]);
    assert_eq!(without.code, 1, "a 6x6 game is illegal on 8x8");
    let with = run(&["validate", "--rules", "othello:6x6", "fixtures/cli/six.txt"]);
    assert_eq!(with.code, 0);
    let bad = run(&["validate", "--rules", "othello:7x7", "fixtures/cli/six.txt"]);
    assert_eq!(bad.code, 2);
    insta::assert_snapshot!(format!(
        "{}\n{}\n{}",
        without.transcript(),
        with.transcript(),
        bad.transcript()
    ));
}

#[test]
fn validate_from_overrides_detection_and_the_note_says_how() {
    let detected = run(&["validate", "fixtures/cli/unknown.dat"]);
    assert!(detected
        .stderr
        .contains("note: reading fixtures/cli/unknown.dat as moves (detected from its content)"));
    assert_eq!(detected.code, 0);
    let given = run(&["validate", "--from", "rgn", "fixtures/cli/unknown.dat"]);
    assert!(given
        .stderr
        .contains("note: reading fixtures/cli/unknown.dat as rgn (as given by --from)"));
    assert_eq!(given.code, 1, "read as RGN, the move string is a bad move");
    let extension = run(&["validate", "fixtures/cli/empty.rgn"]);
    assert!(extension
        .stderr
        .contains("as rgn (detected from its extension)"));
    let quiet = run(&["validate", "-q", "fixtures/cli/unknown.dat"]);
    assert!(!quiet.stderr.contains("note:"));
    let bad = run(&[
        "validate",
        "--from",
        "pgn:chess",
        "fixtures/cli/unknown.dat",
    ]);
    assert_eq!(bad.code, 2);
    insta::assert_snapshot!(format!(
        "{}\n{}\n{}\n{}",
        detected.transcript(),
        given.transcript(),
        extension.transcript(),
        bad.transcript()
    ));
}

#[test]
fn validate_undetectable_input_exits_2() {
    let r = run_with(&["validate", "-"], Some(b"\x00\x01 not a record\n"));
    // Either the content is not recognised (exit 2) or it is read and found wanting.
    assert_ne!(r.code, 0);
    let dir = scratch("undetectable");
    let file = dir.join("mystery.bin");
    std::fs::write(&file, b"??? ???\n").unwrap();
    let r = run(&["validate", file.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("give it with --from"), "{}", r.stderr);
}

/// `reversi validate BIG | head -1`: the reader goes away after one line; the command must
/// not panic.
#[test]
fn validate_survives_a_closed_stdout() {
    let dir = scratch("pipe");
    let big = dir.join("big.rgn");
    let mut text = String::new();
    for i in 0..3000 {
        text.push_str(&format!(
            "[Event \"g{i}\"]\n\n1. f5 d6 2. c3 d3 3. a1 *\n\n"
        ));
    }
    std::fs::write(&big, text).unwrap();
    let bin = assert_cmd::cargo::cargo_bin("reversi");
    let big = big.to_str().unwrap();
    for args in [
        ["validate", "--format", "human", big],
        ["validate", "--format", "jsonl", big],
        ["convert", "--to", "json:lines", big],
    ] {
        let mut child = std::process::Command::new(&bin)
            .args(args)
            .env("NO_COLOR", "1")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut stdout = BufReader::new(child.stdout.take().unwrap());
        let mut first = String::new();
        stdout.read_line(&mut first).unwrap();
        drop(stdout);
        let output = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert!(!stderr.contains("panicked"), "{stderr}");
        // A closed stdout ends the work quietly, but the status tells what was found:
        // illegal moves, which convert reports as validate does.
        assert_eq!(output.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            first.contains("illegal-move") || first.contains("\"f5\""),
            "{first}"
        );
    }
}

// ---------------------------------------------------------------------------------------
// convert

const SAMPLE: &str = "fixtures/rgn/valid/othello_8x8.rgn";

#[test]
fn convert_to_every_text_format() {
    let mut all = String::new();
    for target in [
        "rgn",
        "pgn",
        "pgn:thor",
        "pgn:playok",
        "pgn:edax",
        "json",
        "json:lines",
        "ggf",
        "sgf",
        "moves",
        "transcript",
        "obf",
    ] {
        let r = run(&["convert", "--to", target, SAMPLE]);
        let lossy = run(&["convert", "--lossy", "--to", target, SAMPLE]);
        if r.code == 0 {
            assert_eq!(r.transcript(), lossy.transcript(), "nothing to drop");
            assert!(!r.stdout.is_empty());
            // What was written reads back as a valid game.
            let back = run_with(
                &["validate", "--format", "json", "-"],
                Some(r.stdout.as_bytes()),
            );
            assert_eq!(back.code, 0, "{target}: {}", back.stdout);
            let summary: Value = serde_json::from_str(&back.stdout).unwrap();
            assert_eq!(summary["summary"]["valid"], 1, "{target}");
        } else {
            assert_eq!(r.code, 1, "{target}");
            assert!(r.stdout.is_empty());
            assert!(r.stderr.contains("(game 1)"), "{}", r.stderr);
            assert_eq!(lossy.code, 0, "{target}: {}", lossy.stderr);
            assert!(lossy.stderr.contains("dropped"));
        }
        all.push_str(&format!("===== --to {target}\n{}", r.transcript()));
        if r.code != 0 {
            all.push_str(&format!(
                "===== --lossy --to {target}\n{}",
                lossy.transcript()
            ));
        }
    }
    insta::assert_snapshot!(all);
}

#[test]
fn convert_to_wthor_with_output_file_and_names() {
    let dir = scratch("wthor");
    let out = dir.join("out.wtb");
    let out_s = out.to_str().unwrap();
    let dir_s = dir.to_str().unwrap();
    // On standard output there is no names directory: the names cannot be held.
    let refused = run(&["convert", "--to", "wthor", SAMPLE]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("the player name \"Ann\""));
    // Refused (the day of the date is lost), nothing goes beside the output.
    let refused = run(&["convert", "--to", "wthor", "-o", out_s, SAMPLE]);
    assert_eq!(refused.code, 1);
    assert!(refused.stderr.contains("the date"), "{}", refused.stderr);
    assert!(!dir.join("WTHOR.JOU").exists());
    // The names go to WTHOR.JOU / WTHOR.TRN beside the games by default; only the day is lost.
    let r = run(&["convert", "--lossy", "--to", "wthor", "-o", out_s, SAMPLE]);
    assert!(!dir_s.is_empty());
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stdout.is_empty(),
        "-o writes the file, not standard output"
    );
    assert_eq!(std::fs::metadata(&out).unwrap().len(), 16 + 68);
    assert!(dir.join("WTHOR.JOU").exists() && dir.join("WTHOR.TRN").exists());
    let back = run(&["convert", "-q", "--to", "rgn", out_s]);
    assert_eq!(back.code, 0);
    assert!(back.stdout.contains("[Black \"Ann\"]"));
    assert!(back.stdout.contains("[Event \"8x8\"]"));
    assert!(back.stdout.contains("30. h2 -- 31. h7"));
    let mut stderr = r.stderr.clone();
    stderr = stderr.replace(out_s, "[OUT]");
    insta::assert_snapshot!(stderr);
}

/// The demo evening: four games, of four events, three of them dated.
const DEMO: &str = "fixtures/demo/club-night.rgn";
/// The movetext of a finished game (the first of the 1977 world championship, 34-30),
/// which the quick check passes.
const FINISHED_MOVES: &str = "1. f5 d6 2. c3 f3 3. f4 d3 4. c4 g6 5. f6 e6 6. c5 c6 7. d7 d8 \
    8. e7 g5 9. e3 d2 10. g4 h3 11. f7 b5 12. h5 g3 13. b4 b6 14. c8 b8 15. c7 e8 16. f8 g8 \
    17. h4 h6 18. e2 d1 19. c1 a3 20. a6 a5 21. e1 f2 22. g7 c2 23. a4 h8 24. a2 b7 25. f1 b3 \
    26. b1 b2 27. h7 -- 28. a7 a8 29. a1 -- 30. g1 g2 31. h2 h1";

/// A template names a game's file by its tags as they are named in any case, whether the
/// game is rendered from its quick scan (a plain game) or from its record (here, one with
/// a comment): both games below go to one file.
#[test]
fn a_template_reads_tag_names_in_any_case_on_every_path() {
    let dir = scratch("split-case");
    let plain = format!("[EVENT \"Club\"]\n[Result \"34-30\"]\n\n{FINISHED_MOVES} 34-30\n");
    let noted = plain.replacen("1. f5", "1. f5 {opening}", 1);
    let input = dir.join("two.rgn");
    std::fs::write(&input, format!("{plain}\n{noted}")).unwrap();
    let template = format!("{}/out/{{event}}.rgn", dir.to_str().unwrap());
    let r = run(&[
        "convert",
        "-q",
        "--to",
        "rgn",
        "-o",
        &template,
        input.to_str().unwrap(),
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let mut files: Vec<String> = std::fs::read_dir(dir.join("out"))
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    files.sort();
    assert_eq!(files, ["Club.rgn"]);
    let text = std::fs::read_to_string(dir.join("out/Club.rgn")).unwrap();
    assert_eq!(text.matches("[EVENT \"Club\"]").count(), 2, "{text}");
}

#[test]
fn convert_splits_the_games_into_the_files_a_template_names() {
    let dir = scratch("split");
    let dir_s = dir.to_str().unwrap();
    let template = format!("{dir_s}/{{event}}/round-{{round}}.rgn");
    let r = run(&["convert", "--to", "rgn", "-o", &template, DEMO]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stdout.is_empty());
    // One file per event, in a folder of its own; a game without a round gets `unknown`.
    let whole = run(&["convert", "-q", "--to", "rgn", DEMO]).stdout;
    let games: Vec<String> = whole
        .split("\n\n[")
        .map(|g| format!("[{}", g.trim_start_matches('[')))
        .collect();
    assert_eq!(games.len(), 4);
    for event in ["8x8", "multi3", "resign", "claims"] {
        let file = dir.join(event).join("round-unknown.rgn");
        let text = std::fs::read_to_string(&file).unwrap_or_else(|e| panic!("{event}: {e}"));
        let game = games
            .iter()
            .find(|g| g.contains(&format!("[Event \"{event}\"]")))
            .unwrap();
        assert_eq!(text.trim_end(), game.trim_end(), "{event}");
        assert_eq!(run(&["validate", "-q", file.to_str().unwrap()]).code, 0);
    }
    insta::assert_snapshot!(r.stderr.replace(dir_s, "[DIR]"), @r"
    note: reading fixtures/demo/club-night.rgn as rgn (detected from its content)
    warning: fixtures/demo/club-night.rgn: unfinished: the record ends before the game is over, after 31 moves (the record says a player resigned); its claimed result cannot be checked against the board (game 3)
    warning: fixtures/demo/club-night.rgn: unfinished: the record ends before the game is over, after 12 moves (the record says so) (game 4)
    note: wrote [DIR]/8x8/round-unknown.rgn (1 game)
    note: wrote [DIR]/multi3/round-unknown.rgn (1 game)
    note: wrote [DIR]/resign/round-unknown.rgn (1 game)
    note: wrote [DIR]/claims/round-unknown.rgn (1 game)
    converted 4 games to rgn into 4 files; 0 not converted
    ");

    // A template that cannot be read is a usage error before anything is written.
    let broken = format!("{dir_s}/new/{{year");
    let r = run(&["convert", "--to", "rgn", "-o", &broken, DEMO]);
    assert_eq!(r.code, 2, "{}", r.stderr);
    assert!(r.stderr.contains("a `{` without its `}`"), "{}", r.stderr);
    assert!(!dir.join("new").exists());

    // A run that refuses every game creates no file.
    let r = run(&[
        "convert",
        "--to",
        "moves",
        "-o",
        &format!("{dir_s}/m-{{year}}.txt"),
        DEMO,
    ]);
    assert_eq!(r.code, 1);
    assert!(!dir.join("m-2026.txt").exists() && !dir.join("m-unknown.txt").exists());
    // Nor a folder: the folders it made for the games it then refused are removed.
    // (WTHOR refuses them as it writes them, once their file is open.)
    let nested = format!("{dir_s}/refused/{{event}}/games.wtb");
    let r = run(&["convert", "--to", "wthor", "-o", &nested, DEMO]);
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("4 not converted"), "{}", r.stderr);
    assert!(!dir.join("refused").exists(), "{}", r.stderr);
    let r = run(&[
        "convert",
        "--lossy",
        "--to",
        "moves",
        "-o",
        &format!("{dir_s}/m-{{year}}.txt"),
        DEMO,
    ]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(r.stderr.contains("into 2 files"), "{}", r.stderr);
    let dated = std::fs::read_to_string(dir.join("m-2026.txt")).unwrap();
    assert_eq!(dated.lines().count(), 3, "{dated}");
    // Game 2 has no date: its file, with the rules its line needs.
    let undated = std::fs::read_to_string(dir.join("m-unknown.txt")).unwrap();
    assert!(undated.starts_with("%% rules: multi3\n"), "{undated}");
    assert_eq!(undated.lines().count(), 2, "{undated}");
}

#[test]
fn convert_reports_every_game_as_json_when_asked() {
    let dir = scratch("json-report");
    let out = dir.join("out.rgn");
    let out_s = out.to_str().unwrap();
    let r = run(&[
        "convert",
        "--to",
        "rgn",
        "--format",
        "jsonl",
        "-o",
        out_s,
        "fixtures/demo/mistakes.rgn",
    ]);
    assert_eq!(r.code, 1, "three games have errors: {}", r.stderr);
    assert!(r.stdout.is_empty());
    let events: Vec<Value> = r
        .stderr
        .lines()
        .map(|l| serde_json::from_str(l).unwrap_or_else(|e| panic!("{e}: {l}")))
        .collect();
    // The input, its four games, the summary: nothing else on standard error.
    assert_eq!(events.len(), 6, "{}", r.stderr);
    assert!(events[0]["input"]["note"]
        .as_str()
        .unwrap()
        .contains("as rgn"));
    let games: Vec<&Value> = events.iter().filter_map(|e| e.get("game")).collect();
    assert_eq!(games.len(), 4);
    for (i, game) in games.iter().enumerate() {
        assert_eq!(game["index"], i + 1);
        assert_eq!(game["outcome"], "written");
        assert_eq!(game["file"], "fixtures/demo/mistakes.rgn");
    }
    let codes = |g: &Value| -> Vec<String> {
        g["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .map(|d| d["code"].as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(codes(games[0]), ["wrong-result"]);
    assert_eq!(codes(games[3]), ["wrong-flips", "unfinished"]);
    assert_eq!(games[3]["diagnostics"][0]["line"], 41);
    let summary = &events[5]["summary"];
    assert_eq!(summary["games"], 4);
    assert_eq!(summary["written_with_errors"], 3);
    assert_eq!(summary["outputs"][0]["file"], out_s);
    assert_eq!(summary["outputs"][0]["games"], 4);

    // One document: the same events, refusals with their reason, nothing put in place.
    let wtb = dir.join("out.wtb");
    let r = run(&[
        "convert",
        "--to",
        "wthor",
        "--year",
        "2026",
        "--format",
        "json",
        "-o",
        wtb.to_str().unwrap(),
        "fixtures/demo/mistakes.rgn",
    ]);
    assert_eq!(r.code, 1);
    let doc: Value =
        serde_json::from_str(&r.stderr).unwrap_or_else(|e| panic!("{e}: {}", r.stderr));
    let events = doc["events"].as_array().unwrap();
    assert_eq!(events.len(), 5);
    assert!(events[1..]
        .iter()
        .all(|e| e["game"]["outcome"] == "refused"));
    assert!(events[2]["game"]["refusal"]
        .as_str()
        .unwrap()
        .contains("3 players"));
    assert_eq!(doc["summary"]["refused"], 4);
    assert_eq!(doc["summary"]["outputs"], serde_json::json!([]));
    assert!(!wtb.exists());
}

#[test]
fn a_folder_stands_for_the_record_files_below_it() {
    let dir = scratch("folder");
    let incoming = dir.join("incoming");
    std::fs::create_dir_all(incoming.join("late")).unwrap();
    std::fs::copy(DEMO, incoming.join("club-night.rgn")).unwrap();
    std::fs::copy("fixtures/cli/pass.wtb", incoming.join("pass.wtb")).unwrap();
    std::fs::copy(
        "fixtures/ggf/valid/standard.ggf",
        incoming.join("late/standard.ggf"),
    )
    .unwrap();
    // Prose named like move strings, a hidden file and WTHOR name files are not games.
    std::fs::write(
        incoming.join("notes.txt"),
        "Round 3 started late; board 2 swapped.\n",
    )
    .unwrap();
    std::fs::write(incoming.join(".~lock.club-night.rgn#"), "x").unwrap();
    for (from, to) in [("wthor.jou", "WTHOR.JOU"), ("Wthor.Trn", "WTHOR.TRN")] {
        std::fs::copy(
            Path::new("fixtures/wthor/valid/names").join(from),
            incoming.join(to),
        )
        .unwrap();
    }
    let folder = incoming.to_str().unwrap();
    let shown = |text: &str| text.replace(folder, "[DIR]");

    let r = run(&["validate", folder]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let notes: Vec<String> = r
        .stderr
        .lines()
        .filter(|l| l.starts_with("note:"))
        .map(shown)
        .collect();
    assert_eq!(
        notes,
        [
            "note: [DIR]/notes.txt: skipped, its content is not a game record of any format",
            "note: reading [DIR]/club-night.rgn as rgn (detected from its content)",
            "note: reading [DIR]/late/standard.ggf as ggf (detected from its content)",
            "note: reading [DIR]/pass.wtb as wthor (detected from its content)",
        ]
    );
    assert!(
        r.stdout.ends_with(
            "3 files, 6 games: 6 valid, 0 invalid; 0 errors, 4 warnings (1 across games)\n"
        ),
        "{}",
        r.stdout
    );

    // convert and repair take folders too; -q keeps the skip notes out.
    let r = run(&["convert", "-q", "--lossy", "--to", "moves", folder]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        r.stdout.lines().filter(|l| !l.starts_with("%%")).count(),
        6,
        "{}",
        r.stdout
    );
    assert!(!r.stderr.contains("notes.txt"), "{}", r.stderr);
    let r = run(&["repair", "-q", folder]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert!(
        r.stderr.contains("3 files, 6 games: 6 valid"),
        "{}",
        r.stderr
    );

    // A file named on the command line is read as named, by its extension if need be.
    let r = run(&[
        "validate",
        "-q",
        incoming.join("notes.txt").to_str().unwrap(),
    ]);
    assert_eq!(r.code, 1, "{}", r.stdout);
}

#[test]
fn convert_output_dash_is_standard_output() {
    let dash = run(&["convert", "--to", "sgf", "-o", "-", SAMPLE]);
    let default = run(&["convert", "--to", "sgf", SAMPLE]);
    assert_eq!(dash.code, 0);
    assert_eq!(dash.transcript(), default.transcript());
    let dir = scratch("dash");
    let file = dir.join("out.sgf");
    let to_file = run(&[
        "convert",
        "--to",
        "sgf",
        "--output",
        file.to_str().unwrap(),
        SAMPLE,
    ]);
    assert_eq!(to_file.code, 0);
    assert_eq!(std::fs::read_to_string(&file).unwrap(), dash.stdout);
    // An output that cannot be created is a usage error.
    let bad = run(&[
        "convert",
        "--to",
        "sgf",
        "-o",
        "/nonexistent-dir/x.sgf",
        SAMPLE,
    ]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("/nonexistent-dir/x.sgf"));
}

#[test]
fn convert_json_lines_is_one_record_a_line() {
    let r = run(&["convert", "--to", "json:lines", "fixtures/cli/mixed.rgn"]);
    // Two games have errors: written as read, and the status says so.
    assert_eq!(r.code, 1);
    assert!(r.stderr.contains("game 3, move 5: black cannot play a1"));
    assert!(r
        .stderr
        .contains("6 games to json:lines, 2 of them with errors"));
    let lines: Vec<Value> = r
        .stdout
        .lines()
        .map(|l| serde_json::from_str(l).expect("JSON"))
        .collect();
    assert_eq!(lines.len(), 6);
    assert!(lines.iter().all(|l| l["rules"].is_string()));
    assert!(r.stderr.contains("converted 6 games to json:lines"));
    let bad = run(&["convert", "--to", "json:pretty", SAMPLE]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("json:lines"));
}

#[test]
fn convert_refuses_what_the_target_cannot_hold() {
    let dir = scratch("refuse");
    let wtb = dir.join("three.wtb");
    let wtb = wtb.to_str().unwrap();
    let three = run(&[
        "convert",
        "--to",
        "wthor",
        "-o",
        wtb,
        "fixtures/rgn/valid/three_players.rgn",
    ]);
    assert_eq!(three.code, 1);
    assert!(three.stderr.contains("wthor cannot hold 3 players"));
    assert!(three.stderr.contains("(game 1)"));
    assert!(three
        .stderr
        .contains(&format!("note: {wtb} is not written")));
    assert!(
        !dir.join("three.wtb").exists(),
        "a refused run writes nothing"
    );
    // Some things no lossy conversion can drop.
    let three_lossy = run(&[
        "convert",
        "--lossy",
        "--to",
        "wthor",
        "-o",
        wtb,
        "fixtures/rgn/valid/three_players.rgn",
    ]);
    assert_eq!(three_lossy.code, 1);
    assert!(three_lossy.stderr.contains("not even with --lossy"));
    let blocked = run(&[
        "convert",
        "--to",
        "pgn:thor",
        "fixtures/rgn/valid/blocked_squares.rgn",
    ]);
    assert_eq!(blocked.code, 1);
    assert!(blocked.stderr.contains("blocked squares"));
    assert!(blocked.stderr.contains("not even with --lossy"));
    // Others it can, listing them.
    let claims = run(&[
        "convert",
        "--to",
        "pgn:thor",
        "fixtures/rgn/valid/claims.rgn",
    ]);
    assert_eq!(claims.code, 1);
    assert!(claims.stderr.contains("--lossy converts it without them"));
    let claims_lossy = run(&[
        "convert",
        "--lossy",
        "--to",
        "pgn:thor",
        "fixtures/rgn/valid/claims.rgn",
    ]);
    assert_eq!(claims_lossy.code, 0);
    assert!(claims_lossy
        .stderr
        .contains("dropped an evaluation on move 6"));
    // A refused game does not stop the others.
    let mixed = run(&[
        "convert",
        "--to",
        "pgn:thor",
        "fixtures/rgn/valid/blocked_squares.rgn",
        SAMPLE,
    ]);
    assert_eq!(mixed.code, 1);
    assert!(mixed.stdout.contains("[Black \"Ann\"]"));
    assert!(mixed
        .stderr
        .contains("converted 1 game to pgn:thor; 1 not converted"));
    insta::assert_snapshot!(format!(
        "{}\n{}\n{}\n{}\n{}\n{}",
        three.transcript().replace(wtb, "OUT"),
        three_lossy.transcript().replace(wtb, "OUT"),
        blocked.transcript(),
        claims.transcript(),
        claims_lossy.transcript(),
        mixed.transcript()
    ));
}

#[test]
fn convert_makes_inferred_passes_explicit() {
    // fixtures/cli/pass.wtb: WTHOR stores no passes; white passes at move 60.
    let rgn = run(&["convert", "-q", "--to", "rgn", "fixtures/cli/pass.wtb"]);
    assert_eq!(rgn.code, 0);
    assert!(rgn.stdout.contains("30. h2 -- 31. h7"), "{}", rgn.stdout);
    let ggf = run(&[
        "convert",
        "-q",
        "--lossy",
        "--to",
        "ggf",
        "fixtures/cli/pass.wtb",
    ]);
    assert_eq!(ggf.code, 0);
    assert!(ggf.stdout.contains("W[PA]"), "{}", ggf.stdout);
    let sgf = run(&[
        "convert",
        "-q",
        "--lossy",
        "--to",
        "sgf",
        "fixtures/cli/pass.wtb",
    ]);
    assert!(
        sgf.stdout.contains("W[PA]") || sgf.stdout.contains("W[]"),
        "{}",
        sgf.stdout
    );
    // Thor exports write no passes, and leaving them out loses nothing.
    let thor = run(&[
        "convert",
        "-q",
        "--lossy",
        "--to",
        "pgn:thor",
        "fixtures/cli/pass.wtb",
    ]);
    assert!(thor.stdout.contains("30. H2 H7"), "{}", thor.stdout);
    insta::assert_snapshot!(format!("{}\n{}", rgn.transcript(), ggf.transcript()));
}

#[test]
fn convert_reports_unreadable_inputs_and_keeps_going() {
    let r = run(&["convert", "--to", "rgn", "fixtures/cli/missing.rgn", SAMPLE]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.contains("[Event \"8x8\"]"));
    let syntax = run(&[
        "convert",
        "--to",
        "rgn",
        "fixtures/rgn/invalid/unterminated_tag.rgn",
    ]);
    assert_ne!(syntax.code, 0);
    insta::assert_snapshot!(format!("{}\n{}", r.transcript(), syntax.transcript()));
}

#[test]
fn convert_wthor_to_thor_pgn_matches_the_reference_export() {
    let (wtb, pgn) = (data("wthor/WTH_2004.wtb"), data("pgn/WTHOR-2004.r.pgn"));
    let r = reversi()
        .args(["convert", "-q", "--lossy", "--to", "pgn:thor", &wtb])
        .output()
        .unwrap();
    assert_eq!(r.status.code(), Some(0));
    let expected = std::fs::read(&pgn).unwrap();
    assert!(r.stdout == expected, "byte-identical to {pgn}");
}

// ---------------------------------------------------------------------------------------
// perft

#[test]
fn perft_human_and_json() {
    let human = run(&["perft", "5"]);
    assert_eq!(human.code, 0);
    assert_eq!(human.stdout, "perft(5) othello: 1396\n");
    let json = run(&["perft", "4", "--rules", "othello:6x6", "--format", "json"]);
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    assert_eq!(keys(&value), ["rules", "depth", "leaves"]);
    assert_eq!(value["leaves"], 244);
    assert_eq!(value["rules"], "othello:6x6");
    assert_eq!(value["depth"], 4);
    insta::assert_snapshot!(format!("{}\n{}", human.transcript(), json.transcript()));
}

#[test]
fn perft_divide_gives_each_first_move_then_the_total() {
    let human = run(&["perft", "3", "--divide"]);
    assert_eq!(human.code, 0);
    assert_eq!(
        human.stdout,
        "d3: 14\nc4: 14\nf5: 14\ne6: 14\nperft(3) othello: 56\n"
    );
    // A free opening's first placements, and the counts adding up in JSON.
    let json = run(&[
        "perft", "5", "--rules", "free:6x6", "--divide", "--format", "json",
    ]);
    let value: Value = serde_json::from_str(&json.stdout).unwrap();
    let divide = value["divide"].as_array().unwrap();
    let moves: Vec<&str> = divide.iter().map(|d| d["move"].as_str().unwrap()).collect();
    assert_eq!(moves, ["c3", "d3", "c4", "d4"]);
    let sum: u64 = divide.iter().map(|d| d["leaves"].as_u64().unwrap()).sum();
    assert_eq!(Some(sum), value["leaves"].as_u64());
    let whole = run(&["perft", "5", "--rules", "free:6x6", "--format", "json"]);
    let whole: Value = serde_json::from_str(&whole.stdout).unwrap();
    assert_eq!(whole["leaves"], value["leaves"]);
}

#[test]
fn perft_count_finished_counts_games_that_end_early() {
    let zero = run(&["perft", "10", "--rules", "othello:4x4", "--format", "json"]);
    let one = run(&[
        "perft",
        "10",
        "--rules",
        "othello:4x4",
        "--count-finished",
        "--format",
        "json",
    ]);
    let zero: Value = serde_json::from_str(&zero.stdout).unwrap();
    let one: Value = serde_json::from_str(&one.stdout).unwrap();
    assert_eq!(zero["leaves"], 36412);
    assert_eq!(one["leaves"], 36540);
    // Standard Othello has no finished game above depth 9.
    let a = run(&["perft", "6", "--count-finished"]);
    assert_eq!(a.stdout, "perft(6) othello: 8200\n");
}

#[test]
fn perft_jobs_gives_the_serial_count() {
    for jobs in ["1", "2", "3", "0"] {
        let r = run(&["perft", "7", "--rules", "othello:6x6", "--jobs", jobs]);
        assert_eq!(r.code, 0, "--jobs {jobs}");
        assert_eq!(r.stdout, "perft(7) othello:6x6: 47740\n", "--jobs {jobs}");
    }
    let short = run(&[
        "perft",
        "6",
        "-j",
        "2",
        "--count-finished",
        "--format",
        "json",
    ]);
    let value: Value = serde_json::from_str(&short.stdout).unwrap();
    assert_eq!(value["leaves"], 8200);
    let bad = run(&["perft", "6", "--jobs", "many"]);
    assert_eq!(bad.code, 2);
    assert!(bad.stderr.contains("--jobs"), "{}", bad.stderr);
}

#[test]
fn perft_bad_rules_exit_2_with_the_message() {
    let r = run(&["perft", "3", "--rules", "bogus"]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("expected a preset"));
    let depth = run(&["perft", "deep"]);
    assert_eq!(depth.code, 2);
    insta::assert_snapshot!(r.transcript());
}

// ---------------------------------------------------------------------------------------
// explain

#[test]
fn explain_a_code() {
    let r = run(&["explain", "illegal-move"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("illegal-move\n\n"));
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn explain_a_reader_code_gives_its_own_text() {
    let r = run(&["explain", "GGF-Bad-Move"]);
    assert_eq!(r.code, 0);
    assert!(r.stdout.starts_with("ggf-bad-move\n\n"), "{}", r.stdout);
    assert!(r.stdout.contains("B[f5]"), "{}", r.stdout);
    assert_ne!(r.stdout, run(&["explain", "ggf-bad-result"]).stdout);
    assert_eq!(run(&["explain", "ggf-"]).code, 2);
}

#[test]
fn explain_an_unknown_code_exits_2() {
    let r = run(&["explain", "no-such-code"]);
    assert_eq!(r.code, 2);
    assert!(r.stdout.is_empty());
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn explain_lists_every_code() {
    let r = run(&["explain"]);
    assert_eq!(r.code, 0);
    for code in ["illegal-move", "illegal-pass", "missing-pass", "unfinished"] {
        assert!(
            r.stdout.lines().any(|l| l.starts_with(code)),
            "{code} listed"
        );
    }
    // Every code is listed once, and explains itself with its own text.
    assert_eq!(
        r.stdout.lines().count(),
        reversi_formats::codes::CODES.len()
    );
    for (line, (_, name, text)) in r.stdout.lines().zip(reversi_formats::codes::CODES) {
        let code = line.split_whitespace().next().unwrap();
        assert_eq!(code, *name);
        let one = run(&["explain", code]);
        assert_eq!(one.code, 0, "{code}");
        assert_eq!(one.stdout, format!("{name}\n\n{text}\n"));
    }
    insta::assert_snapshot!(r.transcript());
}

#[test]
fn help_and_version() {
    let r = run(&["--help"]);
    assert_eq!(r.code, 0);
    for verb in ["validate", "convert", "perft", "explain"] {
        assert!(r.stdout.contains(verb));
    }
    let r = run(&["frobnicate"]);
    assert_eq!(r.code, 2);
    let mut child = std::process::Command::new(assert_cmd::cargo::cargo_bin("reversi"))
        .arg("--version")
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut out = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut out)
        .unwrap();
    child.wait().unwrap();
    assert!(out.starts_with("reversi "));
}

#[test]
fn validate_names_points_wthor_at_its_name_files() {
    let wtb = "fixtures/wthor/valid/nboard_test.wtb";
    let beside = run(&["validate", "--format", "json", wtb]);
    let all: Value = serde_json::from_str(&beside.stdout).unwrap();
    assert_eq!(all["summary"]["warnings"], 0);
    let names = run(&[
        "validate",
        "--format",
        "json",
        "--names",
        "fixtures/wthor/valid/names",
        wtb,
    ]);
    let all: Value = serde_json::from_str(&names.stdout).unwrap();
    let codes: Vec<&str> = all["diagnostics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|d| d["code"].as_str().unwrap())
        .collect();
    // These name files are too short for this game file: reported, not fatal.
    assert_eq!(
        codes,
        [
            "wthor-unknown-tournament",
            "wthor-unknown-player",
            "wthor-unknown-player"
        ]
    );
    assert_eq!(names.code, 0);
}

#[test]
fn convert_refuses_to_overwrite_its_input() {
    let dir = scratch("same");
    let file = dir.join("games.rgn");
    let original = std::fs::read(format!("{ROOT}/{SAMPLE}")).unwrap();
    std::fs::write(&file, &original).unwrap();
    let path = file.to_str().unwrap();
    let r = run(&["convert", "--to", "rgn", "-o", path, path]);
    assert_eq!(r.code, 2);
    assert!(r.stderr.contains("the output is the input"), "{}", r.stderr);
    assert_eq!(
        std::fs::read(&file).unwrap(),
        original,
        "the input is intact"
    );
}

#[test]
fn validate_every_real_file_in_one_run() {
    let root = data("");
    let mut files = Vec::new();
    for dir in ["wthor", "pgn", "ggf", "obf", "movestrings"] {
        for e in std::fs::read_dir(format!("{root}/{dir}"))
            .unwrap()
            .flatten()
        {
            let name = e.file_name().to_string_lossy().to_ascii_uppercase();
            if !name.starts_with("WTHOR.") {
                files.push(e.path().to_string_lossy().into_owned());
            }
        }
    }
    files.sort();
    // The 16 record files of data/ (the name files WTHOR.JOU and WTHOR.TRN left out).
    assert_eq!(files.len(), 16, "{files:#?}");
    let mut args = vec![
        "validate",
        "-q",
        "--format",
        "json",
        "--allow",
        "unfinished",
    ];
    args.extend(files.iter().map(String::as_str));
    let r = run(&args);
    let all: Value = serde_json::from_str(&r.stdout).unwrap();
    let summary = &all["summary"];
    assert_eq!(summary["files"], files.len());
    assert_eq!(summary["errors"], 0, "{}", r.stdout);
    assert_eq!(summary["invalid"], 0);
    assert_eq!(summary["games"], summary["valid"]);
    assert!(summary["games"].as_u64().unwrap() > 30_000);
    assert_eq!(r.code, 0);
}

#[test]
fn convert_gives_the_same_output_and_report_with_any_number_of_jobs() {
    // Several inputs (one missing, one with errors and refusals, WTHOR with implicit
    // passes) to a text target and to JSON: the bytes, the report on standard error and
    // the exit code do not depend on the workers.
    let inputs = [
        "fixtures/cli/mixed.rgn",
        "fixtures/cli/missing.rgn",
        "fixtures/cli/illegal.rgn",
        "fixtures/cli/pass.wtb",
        "benches/data/sample.rgn",
        "benches/data/sample.wtb",
    ];
    for target in ["moves", "json", "pgn:thor"] {
        let run_jobs = |jobs: &str| {
            let mut args = vec!["convert", "--lossy", "--to", target, "-j", jobs];
            args.extend(inputs);
            run(&args)
        };
        let one = run_jobs("1");
        assert_eq!(one.code, 2, "{target}: a missing input is a usage error");
        assert!(one.stdout.len() > 10_000, "{target}: little was written");
        for jobs in ["2", "3"] {
            let many = run_jobs(jobs);
            assert_eq!(many.code, one.code, "{target}, {jobs} jobs: exit code");
            assert!(many.stdout == one.stdout, "{target}, {jobs} jobs: output");
            assert_eq!(many.stderr, one.stderr, "{target}, {jobs} jobs: report");
        }
    }
}
