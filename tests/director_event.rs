//! Issue 48's end-to-end event (`fixtures/director-event/README.md`): the folder as a
//! director receives it has every planted problem named by `reversi validate` at its game
//! and move, and nothing else; the fixes the tool proposes, and only they, turn it into
//! `fixed/`; and the standings of `fixed/` are the ones worked out by hand
//! (`expected-standings.csv`), in CSV and in JSON.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn fixture(path: &str) -> PathBuf {
    Path::new(ROOT).join("fixtures/director-event").join(path)
}

/// Runs `reversi ARGS` in `dir`: its exit code, standard output and standard error.
fn reversi_in(dir: &Path, args: &[&str]) -> (Option<i32>, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(dir)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A temporary folder holding a copy of `fixtures/director-event/FOLDER` as `FOLDER/`.
fn copy_of(folder: &str) -> tempfile::TempDir {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let to = dir.path().join(folder);
    std::fs::create_dir(&to).expect("a folder");
    for entry in std::fs::read_dir(fixture(folder)).expect("the fixture") {
        let entry = entry.expect("an entry");
        std::fs::copy(entry.path(), to.join(entry.file_name())).expect("copied");
    }
    dir
}

/// The last path component of a file as the report names it.
fn base(file: &str) -> &str {
    file.rsplit('/').next().unwrap_or(file)
}

/// The pairings line a text names (`(line 23 of the pairings)`), if any.
fn pairings_line(text: &str) -> Option<usize> {
    let at = text.find(" of the pairings")?;
    let digits: String = text[..at]
        .chars()
        .rev()
        .take_while(char::is_ascii_digit)
        .collect();
    digits.chars().rev().collect::<String>().parse().ok()
}

/// What a `validate --format json` report names, one line each: a game's diagnostic as
/// `CODE FILE#GAME move N` (or `line N` when it is about a line, not a move), a finding
/// across games as `CODE FILE#GAME... [line N]` with the pairings line it names. Each with
/// its message and help, for the checks of what is said.
fn named(report: &Value) -> Vec<(String, String)> {
    let mut out = Vec::new();
    for d in report["diagnostics"].as_array().into_iter().flatten() {
        let at = match d["move"].as_u64() {
            Some(m) => format!("move {m}"),
            None => format!("line {}", d["line"]),
        };
        let key = format!(
            "{} {}#{} {at}",
            d["code"].as_str().unwrap_or("?"),
            base(d["file"].as_str().unwrap_or("?")),
            d["game"]
        );
        let said = format!("{} / {}", d["message"], d["help"]);
        out.push((key, said));
    }
    for f in report["findings"].as_array().into_iter().flatten() {
        let mut key = f["code"].as_str().unwrap_or("?").to_owned();
        for g in f["games"].as_array().into_iter().flatten() {
            key.push_str(&format!(
                " {}#{}",
                base(g["file"].as_str().unwrap_or("?")),
                g["game"]
            ));
        }
        let (message, help) = (
            f["message"].as_str().unwrap_or(""),
            f["help"].as_str().unwrap_or(""),
        );
        if let Some(line) = pairings_line(message).or_else(|| pairings_line(help)) {
            key.push_str(&format!(" line {line}"));
        }
        out.push((key, format!("{message} / {help}")));
    }
    out
}

/// Every problem planted in `incoming/` (the README's table), as [`named`] writes it.
const PLANTED: [&str; 18] = [
    // 1: a result typo.
    "wrong-result round-1.rgn#2 move 60",
    // 2: Windows-1252.
    "syntax-bad-encoding round-2.pgn#4 line 50",
    // 3: an exact copy in another file.
    "duplicate-game round-2-board-4.pgn#1 round-2.pgn#4",
    // 4: two moves swapped.
    "illegal-move round-3.csv#3 move 24",
    // 5: the game server's file: logins, no round.
    "unpaired-game ggs-round-4.ggf#1",
    "unpaired-game ggs-round-4.ggf#2",
    "missing-game line 20",
    "missing-game line 21",
    // 6: a sheet from White's side.
    "swapped-colours round-4-board-3.txt#1 line 22",
    // 7: round 4 board 4 entered under round 5, each finding naming the other.
    "unpaired-game round-4.rgn#1 line 23",
    "missing-game round-4.rgn#1 line 23",
    // 8: so Bruno Costa plays twice in round 5.
    "player-twice-in-round round-4.rgn#1 round-5.rgn#4",
    // 9: the adjourned game's first part.
    "unfinished round-5.rgn#1 move 36",
    // 10: a spelling the register does not hold.
    "unknown-player round-5.rgn#3",
    "unpaired-game round-5.rgn#3",
    "missing-game line 28",
    // 12: a bare move string.
    "unpaired-game r5-t4-moves.txt#1",
    "missing-game line 29",
];

/// `reversi validate --format json FOLDER/` run beside `FOLDER`, which finds the register
/// and the pairings file in it: the exit code, the report and standard error.
fn validate(dir: &Path, folder: &str) -> (Option<i32>, Value, String) {
    let (code, out, errors) = reversi_in(
        dir,
        &["validate", "--format", "json", &format!("{folder}/")],
    );
    assert!(
        errors.contains(&format!("{folder}/appariements.csv: read as the pairings"))
            && errors.contains(&format!(
                "{folder}/players.csv: read as the player register"
            )),
        "{errors}"
    );
    let report =
        serde_json::from_str(&out).unwrap_or_else(|e| panic!("not JSON ({e}): {out}\n{errors}"));
    (code, report, errors)
}

/// The lines `named` gives, sorted, for a failure message.
fn listing(found: &[(String, String)]) -> String {
    let mut keys: Vec<&str> = found.iter().map(|(k, _)| k.as_str()).collect();
    keys.sort_unstable();
    keys.join("\n  ")
}

#[test]
fn every_planted_problem_is_named_as_received_at_its_game_and_move() {
    let dir = copy_of("incoming");
    let (code, report, errors) = validate(dir.path(), "incoming");
    assert_eq!(code, Some(1), "errors were found: {errors}");
    assert!(errors.contains("incoming/notes.txt: skipped"), "{errors}");
    let found = named(&report);
    let said = |key: &str| -> Option<&str> {
        found
            .iter()
            .find(|(k, _)| k == key)
            .map(|(_, s)| s.as_str())
    };
    let mut wrong = Vec::new();
    for key in PLANTED {
        if said(key).is_none() {
            wrong.push(format!("not named: {key}"));
        }
    }
    // What is said of them: the typo's counts, the swap, the round, the nearest name.
    let says = [
        (
            "wrong-result round-1.rgn#2 move 60",
            "the record claims 36-29, but the game ends 36-28",
        ),
        (
            "illegal-move round-3.csv#3 move 24",
            "swapping moves 23 (h5) and 24 (g2) makes the game legal",
        ),
        (
            "unpaired-game round-4.rgn#1 line 23",
            "this game's Round tag is probably mistyped, and should be 4",
        ),
        (
            "missing-game round-4.rgn#1 line 23",
            "its Round tag should be 4",
        ),
        (
            "player-twice-in-round round-4.rgn#1 round-5.rgn#4",
            "Bruno Costa plays two games in round 5",
        ),
        (
            "unknown-player round-5.rgn#3",
            "the nearest registered names: Jonas Weber",
        ),
        (
            "swapped-colours round-4-board-3.txt#1 line 22",
            "Élodie Garnier (black) vs Greta Lindqvist (white)",
        ),
        (
            "syntax-bad-encoding round-2.pgn#4 line 50",
            "read as Windows-1252",
        ),
        ("unpaired-game ggs-round-4.ggf#1", "it has no Round tag"),
        ("unpaired-game r5-t4-moves.txt#1", "it has no Round tag"),
    ];
    for (key, words) in says {
        match said(key) {
            Some(text) if !text.contains(words) => {
                wrong.push(format!("{key} does not say {words:?}: {text}"))
            }
            _ => {}
        }
    }
    // The copy is exact: the Windows-1252 name is read as the UTF-8 one.
    if let Some(text) = said("duplicate-game round-2-board-4.pgn#1 round-2.pgn#4") {
        if text.contains("names") {
            wrong.push(format!("the copy is exact, names and all: {text}"));
        }
    }
    assert!(
        wrong.is_empty(),
        "{}\n\nnamed:\n  {}",
        wrong.join("\n"),
        listing(&found)
    );
}

#[test]
fn nothing_but_the_planted_problems_is_named_as_received_or_after_the_fixes() {
    // As received: the planted problems, nothing more (the 10x10 side event is not in
    // the pairings file, which is the main event's; the round 3 spreadsheet is read).
    let dir = copy_of("incoming");
    let (_, report, _) = validate(dir.path(), "incoming");
    let found = named(&report);
    let planted: BTreeSet<&str> = PLANTED.into_iter().collect();
    let extra: Vec<&str> = found
        .iter()
        .map(|(k, _)| k.as_str())
        .filter(|k| !planted.contains(k))
        .collect();
    // After the fixes: the adjourned game's part and the Windows-1252 line, warnings.
    let dir = copy_of("fixed");
    let (code, report, errors) = validate(dir.path(), "fixed");
    let after: Vec<String> = named(&report).into_iter().map(|(k, _)| k).collect();
    let expected = [
        "syntax-bad-encoding round-2.pgn#4 line 50",
        "unfinished round-5.rgn#1 move 36",
    ];
    assert!(
        extra.is_empty() && after == expected && code == Some(0),
        "named as received beyond the planted problems:\n  {}\n\nafter the fixes (exit {code:?}), \
         expected only {expected:?}:\n  {}\n{errors}",
        extra.join("\n  "),
        after.join("\n  ")
    );
}

/// Every file of `dir`, by name, with its bytes.
fn files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out: Vec<(String, Vec<u8>)> = std::fs::read_dir(dir)
        .expect("a folder")
        .map(|e| {
            let e = e.expect("an entry");
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).expect("read"),
            )
        })
        .collect();
    out.sort();
    out
}

#[test]
fn the_fixes_the_tool_proposes_make_the_fixed_folder_exactly() {
    // The README's commands, run in a copy of `incoming/`.
    let dir = copy_of("incoming");
    let incoming = dir.path().join("incoming");
    let fixed = dir.path().join("fixed");
    std::fs::create_dir(&fixed).unwrap();
    for name in [
        "appariements.csv",
        "notes.txt",
        "round-2.pgn",
        "round-5.rgn",
        "round-5-board-1-finished.rgn",
        "side-10x10.rgn",
    ] {
        std::fs::copy(incoming.join(name), fixed.join(name)).unwrap();
    }
    // The spelling the register lacks, added as an alias.
    let register = std::fs::read_to_string(incoming.join("players.csv")).unwrap();
    let line = "\n10,Jonas Weber,,jweber\n";
    assert!(register.contains(line), "{register}");
    std::fs::write(
        fixed.join("players.csv"),
        register.replace(line, "\n10,Jonas Weber,Jonas Webber,jweber\n"),
    )
    .unwrap();
    let event = "Event=Porto Spring Cup 2026";
    let commands: [&[&str]; 6] = [
        &[
            "repair",
            "round-1.rgn",
            "--fix-result",
            "-o",
            "../fixed/round-1.rgn",
        ],
        &["repair", "round-3.csv", "-o", "../fixed/round-3.rgn"],
        &[
            "convert",
            "ggs-round-4.ggf",
            "--to",
            "rgn",
            "--set",
            "Round=4",
            "--set",
            event,
            "--rename",
            "players.csv",
            "-o",
            "../fixed/round-4-ggs.rgn",
        ],
        &[
            "convert",
            "round-4-board-3.txt",
            "--to",
            "transcript",
            "--set",
            "Black=Élodie Garnier",
            "--set",
            "White=Greta Lindqvist",
            "-o",
            "../fixed/round-4-board-3.txt",
        ],
        &[
            "convert",
            "round-4.rgn",
            "--to",
            "rgn",
            "--set",
            "Round=4",
            "-o",
            "../fixed/round-4.rgn",
        ],
        &[
            "convert",
            "r5-t4-moves.txt",
            "--to",
            "rgn",
            "--set",
            event,
            "--set",
            "Date=2026.04.19",
            "--set",
            "Round=5",
            "--set",
            "Board=4",
            "--set",
            "Black=Hiro Sato",
            "--set",
            "White=Inês Duarte",
            "-o",
            "../fixed/round-5-board-4.rgn",
        ],
    ];
    for args in commands {
        let (code, _, errors) = reversi_in(&incoming, args);
        assert_eq!(code, Some(0), "{args:?}: {errors}");
    }
    let (made, committed) = (files(&fixed), files(&fixture("fixed")));
    let names = |f: &[(String, Vec<u8>)]| f.iter().map(|(n, _)| n.clone()).collect::<Vec<_>>();
    assert_eq!(names(&made), names(&committed));
    for ((name, a), (_, b)) in made.iter().zip(&committed) {
        assert!(
            a == b,
            "{name} differs from fixtures/director-event/fixed/{name}:\n{}",
            String::from_utf8_lossy(a)
        );
    }
    // The repairs say what they did.
    let round3 = std::fs::read_to_string(fixed.join("round-3.rgn")).unwrap();
    assert!(
        round3.contains("[Repair \"swapped moves 23 (h5) and 24 (g2)\"]"),
        "{round3}"
    );
    let round1 = std::fs::read_to_string(fixed.join("round-1.rgn")).unwrap();
    assert!(round1.contains("not 36-29 (a digit typo)"), "{round1}");
}

/// The rows of `expected-standings.csv`: each event's header and players, by event.
fn expected_rows() -> Vec<Vec<Vec<String>>> {
    let text = std::fs::read_to_string(fixture("expected-standings.csv")).unwrap();
    text.split("\n\n")
        .map(|table| {
            table
                .lines()
                .skip(1)
                .map(|l| l.split(',').map(str::to_owned).collect())
                .collect()
        })
        .collect()
}

/// Each event's players as the CSV writes them, from the JSON report.
fn json_rows(report: &Value) -> Vec<Vec<Vec<String>>> {
    let text = |v: &Value| match v {
        Value::String(s) => s.clone(),
        Value::Bool(b) => if *b { "yes" } else { "no" }.to_owned(),
        Value::Number(n) => match n.as_f64() {
            Some(x) if x.fract() != 0.0 => x.to_string(),
            Some(x) => format!("{x:.0}"),
            None => n.to_string(),
        },
        other => other.to_string(),
    };
    report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| {
            let heading = e["event"].as_str().unwrap_or("").to_owned();
            e["standings"]["players"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| {
                    let mut row = vec![heading.clone()];
                    for field in [
                        "number",
                        "rank",
                        "name",
                        "points",
                        "bq",
                        "discs",
                        "games",
                        "wins",
                        "draws",
                        "losses",
                        "byes",
                        "black",
                        "white",
                        "withdrawn",
                    ] {
                        row.push(text(&p[field]));
                    }
                    for cell in p["rounds"].as_array().unwrap() {
                        row.push(match cell {
                            Value::Null => "-".to_owned(),
                            c => text(&c["text"]),
                        });
                    }
                    row
                })
                .collect()
        })
        .collect()
}

#[test]
fn the_standings_of_the_fixed_folder_are_the_hand_computed_ones() {
    // As received, the main event cannot be ranked (Bruno Costa twice in round 5); the
    // side event is.
    let dir = copy_of("incoming");
    let (code, csv, errors) = reversi_in(
        dir.path(),
        &["standings", "-q", "--format", "csv", "incoming/"],
    );
    assert_eq!(code, Some(1), "{errors}");
    assert!(
        errors.contains("Porto Spring Cup 2026 (othello): Bruno Costa has two games in round 5"),
        "{errors}"
    );
    assert!(csv.starts_with("number,rank,player"), "{csv}");
    assert_eq!(csv.lines().count(), 5, "the 10x10 side event alone: {csv}");

    let dir = copy_of("fixed");
    let standings =
        |format: &str| reversi_in(dir.path(), &["standings", "--format", format, "fixed/"]);
    let (code, csv, errors) = standings("csv");
    assert_eq!(code, Some(0), "{errors}");
    assert!(
        errors.contains("fixed/appariements.csv: read as the pairings"),
        "{errors}"
    );
    assert!(
        errors.contains(
            "left out: an unfinished record (an adjourned game) that game 1 of fixed/round-5-board-1-finished.rgn"
        ),
        "{errors}"
    );
    let expected = std::fs::read_to_string(fixture("expected-standings.csv")).unwrap();
    let differ = csv.lines().zip(expected.lines()).find(|(a, b)| a != b);
    assert_eq!(differ, None, "the tool's row, then the hand computation's");
    assert_eq!(csv, expected);

    let (code, json, errors) = standings("json");
    assert_eq!(code, Some(0), "{errors}");
    let report: Value = serde_json::from_str(&json).unwrap();
    let events: Vec<(&str, u64)> = report["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["event"].as_str().unwrap(), e["squares"].as_u64().unwrap()))
        .collect();
    assert_eq!(
        events,
        [
            ("Porto Spring Cup 2026 (othello)", 64),
            ("Porto Spring Cup 2026 (othello:10x10)", 100)
        ]
    );
    assert_eq!(report["problems"], serde_json::json!([]));
    assert_eq!(
        report["events"][0]["standings"]["unfinished"],
        serde_json::json!([])
    );
    assert_eq!(json_rows(&report), expected_rows());
    let notes = report["notes"].as_array().unwrap();
    assert_eq!(notes.len(), 1, "{notes:?}");
}
