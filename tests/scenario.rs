//! The public scenario API and `reversi scenario`: the worked examples of
//! `spec/scenario.md`, `--check` on every scenario of the project, the JSON of random games
//! against the engine and against the reference model (`tests/reference/model.rs`), and the
//! conformance suite's byte-identical regeneration.

#[path = "reference/model.rs"]
#[allow(dead_code)]
mod model;

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use assert_cmd::Command;
use model::{Game, Spot};
use proptest::prelude::*;
use reversi_check::scenario::check::{self, Format};
use reversi_check::scenario::{
    self, markdown, suite, ErrorKind, JsonPosition, JsonScenario, Scenario,
};
use reversi_engine::{Color, IllegalMove, Position, Rules, Square};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn reversi() -> Command {
    let mut cmd = Command::cargo_bin("reversi").expect("the reversi binary is built");
    cmd.current_dir(ROOT).env("NO_COLOR", "1");
    cmd
}

/// A fresh empty directory under the system's temporary directory.
fn temp_dir(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-scenario-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temporary directory");
    dir
}

#[test]
fn spec_scenario_examples_are_true() {
    let path = Path::new(ROOT).join("spec/scenario.md");
    let spec = std::fs::read_to_string(&path).expect("spec/scenario.md exists");
    let examples = markdown::examples(&spec);
    assert!(examples.len() >= 5, "the spec has its worked examples");
    let mut json_blocks = 0;
    for ex in &examples {
        let name = format!("spec/scenario.md:{}", ex.line);
        assert!(!ex.expected.is_empty(), "{name}: no expected block");
        let transcript = scenario::run(&ex.scenario).unwrap_or_else(|e| panic!("{name}: {e}"));
        for block in &ex.expected {
            let format = if block.lang == "json" {
                json_blocks += 1;
                Format::Json
            } else {
                Format::Text
            };
            let actual = check::render(&transcript, &name, format);
            if let Some(diff) = check::compare(format, &block.body, &actual) {
                panic!("{name}: the {} block differs:\n{diff}", block.lang);
            }
        }
    }
    assert!(json_blocks >= 1, "the spec shows the JSON transcript");
}

#[test]
fn every_scenario_of_the_project_passes_check() {
    let mut files: Vec<String> = std::fs::read_dir(Path::new(ROOT).join("fixtures/rules"))
        .expect("fixtures/rules")
        .map(|e| e.expect("entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "scenario"))
        .map(|p| {
            format!(
                "fixtures/rules/{}",
                p.file_name().unwrap().to_string_lossy()
            )
        })
        .collect();
    files.sort();
    assert!(files.len() >= 30);
    files.push("spec/rules.md".into());
    files.push("spec/scenario.md".into());
    let out = reversi()
        .arg("scenario")
        .arg("--check")
        .args(&files)
        .output()
        .expect("runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}\n{stderr}",
        String::from_utf8_lossy(&out.stdout)
    );
    assert!(stderr.contains(" 0 differ, 0 cannot run"), "{stderr}");
}

#[test]
fn check_shows_a_diff_and_exits_1() {
    let dir = temp_dir("check");
    let sc = dir.join("pass.scenario");
    std::fs::write(&sc, "rules: othello:4x4\nmoves: b1\n").unwrap();
    // Expected: a different flip.
    let right = scenario::run("rules: othello:4x4\nmoves: b1\n")
        .unwrap()
        .to_text();
    std::fs::write(dir.join("pass.txt"), right.replace("flips b2", "flips c2")).unwrap();
    let out = reversi()
        .args(["scenario", "--check"])
        .arg(&sc)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("- black b1: flips c2"), "{stdout}");
    assert!(stdout.contains("+ black b1: flips b2"), "{stdout}");
    // --bless writes the expected transcript; then --check agrees, in both formats.
    for format in ["text", "json"] {
        let bless = reversi()
            .args(["scenario", "--bless", "--format", format])
            .arg(&sc)
            .output()
            .unwrap();
        assert_eq!(bless.status.code(), Some(0), "{bless:?}");
        let again = reversi()
            .args(["scenario", "--check", "--format", format])
            .arg(&sc)
            .output()
            .unwrap();
        assert_eq!(again.status.code(), Some(0), "{again:?}");
    }
    assert_eq!(
        std::fs::read_to_string(dir.join("pass.txt")).unwrap(),
        right
    );
    // A missing expected file is a difference too.
    std::fs::remove_file(dir.join("pass.json")).unwrap();
    let missing = reversi()
        .args(["scenario", "--check", "--format", "json"])
        .arg(&sc)
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&missing.stdout).contains("pass.json is missing"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn contradicting_scenarios_exit_1_with_a_coded_error() {
    let dir = temp_dir("errors");
    let cases = [
        (
            "refused.scenario",
            "rules: othello\nmoves: f5 a1\n",
            "scenario-unexpected-refusal",
            ":2:",
        ),
        (
            "legal.scenario",
            "rules: othello\n\nmoves: !f5\n",
            "scenario-unexpected-legal",
            ":3:",
        ),
        (
            "syntax.scenario",
            "rules othello\n",
            "scenario-syntax",
            ":1:",
        ),
        (
            "rules.scenario",
            "rules: chess\n",
            "scenario-bad-rules",
            ":1:",
        ),
    ];
    for (name, text, code, line) in cases {
        let path = dir.join(name);
        std::fs::write(&path, text).unwrap();
        let out = reversi().arg("scenario").arg(&path).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{name}");
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(
            stderr.contains(&format!("error[{code}]")),
            "{name}: {stderr}"
        );
        assert!(
            stderr.contains(&format!("{name}{line}")),
            "{name}: {stderr}"
        );
    }
    let missing = reversi()
        .args(["scenario", "no/such.scenario"])
        .output()
        .unwrap();
    assert_eq!(missing.status.code(), Some(2));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn parse_and_run_errors_have_their_kinds() {
    let kind = |text: &str| scenario::run(text).unwrap_err().kind;
    assert_eq!(kind("rules: othello\nshow: some\n"), ErrorKind::Syntax);
    assert_eq!(kind("rules: othello\nmoves: z0\n"), ErrorKind::Syntax);
    assert_eq!(kind("rules: othello\nmoves: a100\n"), ErrorKind::Syntax);
    assert_eq!(kind("rules: othello\nmoves: 5f\n"), ErrorKind::Syntax);
    // A square beyond every board is a square off this one: refused as OffBoard.
    assert_eq!(
        kind("rules: othello\nmoves: z99\n"),
        ErrorKind::UnexpectedRefusal
    );
    assert_eq!(kind("rules: othello\nlook: here\n"), ErrorKind::Syntax);
    assert_eq!(
        kind("rules: othello\nturn: white\n"),
        ErrorKind::Inconsistent
    );
    assert_eq!(
        kind("rules: othello\nquiet: 2\nmoves: f5\n"),
        ErrorKind::Inconsistent
    );
    assert_eq!(kind("moves: f5\nparse: othello\n"), ErrorKind::Inconsistent);
    assert_eq!(kind("# nothing\n"), ErrorKind::Inconsistent);
    assert_eq!(
        kind("rules: othello:4x4\nstart: ..../.OX. X\n"),
        ErrorKind::BadBoard
    );
    assert_eq!(
        kind("rules: othello:4x4\nboard:\n 1 . . . .\n"),
        ErrorKind::BadBoard
    );
    let err = scenario::run("rules: othello\nmoves: f5 f5\n").unwrap_err();
    assert_eq!(err.kind, ErrorKind::UnexpectedRefusal);
    assert_eq!(err.line, Some(2));
    assert_eq!(err.kind.code(), "scenario-unexpected-refusal");
}

/// `k1` on 8x8 (beyond the grid the library's squares can name) is refused like `i1`.
#[test]
fn a_square_beyond_the_grid_is_off_the_board() {
    let t = scenario::run("rules: othello\nmoves: !k1 !i1 !A11 f5 !z99\n").unwrap();
    let json = t.to_json("k1.scenario");
    let moves: Vec<(&str, Option<&str>)> = json
        .moves
        .iter()
        .map(|m| (m.mv.as_str(), m.refusal.as_deref()))
        .collect();
    assert_eq!(
        moves,
        [
            ("k1", Some("OffBoard")),
            ("i1", Some("OffBoard")),
            ("a11", Some("OffBoard")),
            ("f5", None),
            ("z99", Some("OffBoard")),
        ]
    );
    assert!(t
        .to_text()
        .contains("black k1: refused, the square is not on the board (OffBoard)"));
}

/// A diagram's markers draw the rules' board (a mismatch is `scenario-bad-board`, saying
/// what to draw); a disc on a blocked or cut square is a setup the engine refuses.
#[test]
fn diagram_markers_must_fit_the_board_and_discs_there_are_refused() {
    let bad = |text: &str| {
        let e = scenario::run(text).unwrap_err();
        assert_eq!(e.kind, ErrorKind::BadBoard, "{e}");
        e.message
    };
    let blocked =
        "rules: othello:4x4,blocked=a1\nboard:\n 1 {} . . .\n 2 . O X .\n 3 . X O .\n 4 . . . .\n";
    let with = |c: &str| blocked.replace("{}", c);
    assert!(bad(&with(".")).contains("square a1 is blocked by the rules: draw it `#`"));
    let refused = scenario::run(&with("X")).unwrap();
    assert_eq!(refused.setup_refused.map(|e| e.kind()), Some("NotPlayable"));
    assert!(scenario::run(&with("#")).unwrap().setup_refused.is_none());
    let plain = "rules: othello:4x4\nboard:\n 1 # . . .\n 2 . O X .\n 3 . X O .\n 4 . . . .\n";
    assert!(bad(plain).contains("square a1 is not blocked by the rules"));
    let octagon = |a1: char| {
        format!(
            "rules: othello:octagon\nboard:\n  1 {a1}   . . . . . .\n  2   . . . . . . . .\n  3 . . . . . . . . . .\n  4 . . . . . . . . . .\n  5 . . . . O X . . . .\n  6 . . . . X O . . . .\n  7 . . . . . . . . . .\n  8 . . . . . . . . . .\n  9   . . . . . . . .\n 10     . . . . . .\n"
        )
    };
    assert!(bad(&octagon('.')).contains("square a1 is not on the octagon board: leave it blank"));
    let cut = scenario::run(&octagon('X')).unwrap();
    assert_eq!(cut.setup_refused.map(|e| e.kind()), Some("NotPlayable"));
    assert!(scenario::run(&octagon(' '))
        .unwrap()
        .setup_refused
        .is_none());
}

#[test]
fn a_start_line_is_the_same_as_its_board() {
    let with_board = "rules: othello:4x4\nboard:\n   a b c d\n 1 . . . .\n 2 . X O .\n 3 . X X .\n 4 . . . .\nturn: white\nmoves: a4\n";
    let with_start = "rules: othello:4x4\nstart: ..../.XO./.XX./.... O\nmoves: a4\n";
    let a = scenario::run(with_board).unwrap();
    let b = scenario::run(with_start).unwrap();
    assert_eq!(a.to_text(), b.to_text());
    assert!(a.to_text().contains("white a4: flips b3"));
    // A start line can give classic reversi's discs in hand.
    let classic = scenario::run(
        "rules: classic\nstart: ......../......../......../...OX.../...XO.../......../......../........ X 1 5\nmoves: d3\n",
    )
    .unwrap();
    let last = classic.last().unwrap();
    assert_eq!(last.in_hand(Color::Black), Some(0));
    assert_eq!(last.in_hand(Color::White), Some(5));
}

#[test]
fn json_reads_back_and_counts_moves_played() {
    let t = scenario::run("rules: othello\nquiet: 2\nmoves: f5 !a1 d6 c3\n").unwrap();
    let json = t.to_json("x.scenario");
    assert_eq!(json.moves.len(), 4);
    assert_eq!(json.moves[1].refusal.as_deref(), Some("FlipsNothing"));
    // The first position shown is after the quiet moves (one played, one refused).
    assert_eq!(json.positions[0].after_moves, 1);
    assert_eq!(json.positions.last().unwrap().after_moves, 3);
    let text = check::json_text(&json);
    let back: JsonScenario = serde_json::from_str(&text).unwrap();
    assert_eq!(back, json);
    assert_eq!(check::compare(Format::Json, &text, &text), None);
}

#[test]
fn the_rule_fixtures_are_the_suite_rules() {
    let mut on_disk = BTreeSet::new();
    for entry in std::fs::read_dir(Path::new(ROOT).join("fixtures/rules")).unwrap() {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "scenario") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            let text = std::fs::read_to_string(&path).unwrap();
            let embedded = suite::RULE_SCENARIOS
                .iter()
                .find(|(n, _)| *n == name)
                .unwrap_or_else(|| panic!("{name} is not in suite::RULE_SCENARIOS"));
            assert_eq!(embedded.1, text, "{name}");
            on_disk.insert(name);
        }
    }
    assert_eq!(on_disk.len(), suite::RULE_SCENARIOS.len());
}

#[test]
fn the_suite_regenerates_byte_identically() {
    let dirs = [temp_dir("suite-a"), temp_dir("suite-b")];
    for dir in &dirs {
        let out = reversi()
            .args(["scenario", "--suite"])
            .arg(dir)
            .output()
            .unwrap();
        assert_eq!(out.status.code(), Some(0), "{out:?}");
    }
    let files = suite::files().unwrap();
    assert!(files.len() > 350);
    // A few MB at most: an engine's repository can hold it.
    let bytes: usize = files.iter().map(|f| f.contents.len()).sum();
    assert!(bytes < 6 << 20, "the suite holds {bytes} bytes");
    for file in &files {
        let a = std::fs::read(dirs[0].join(&file.path)).unwrap();
        let b = std::fs::read(dirs[1].join(&file.path)).unwrap();
        assert_eq!(a, b, "{}", file.path);
        assert_eq!(a, file.contents.as_bytes(), "{}", file.path);
    }
    // Every file written is listed, and the suite checks against itself.
    let scenarios: Vec<PathBuf> = files
        .iter()
        .filter(|f| f.path.ends_with(".scenario"))
        .map(|f| dirs[0].join(&f.path))
        .collect();
    let out = reversi()
        .args(["scenario", "--check", "--format", "json"])
        .args(&scenarios)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    // What the suite covers: every refusal, every preset and board in the random games.
    let all: String = files.iter().map(|f| f.contents.as_str()).collect();
    for kind in IllegalMove::ALL {
        assert!(
            all.contains(&format!("\"refusal\": \"{kind:?}\"")),
            "no suite scenario refuses a move as {kind:?}"
        );
    }
    let random: BTreeSet<String> = files
        .iter()
        .filter(|f| f.path.starts_with("random/") && f.path.ends_with(".scenario"))
        .map(|f| f.contents.lines().nth(1).unwrap_or("").to_owned())
        .collect();
    for needle in [
        "othello:4x4",
        "othello:6x6",
        "othello:10x10",
        "octagon",
        "anti",
        "free",
        "classic",
        "multi3",
        "multi4",
        "blocked=",
        "handicap=",
        "scoring=raw",
    ] {
        assert!(
            random.iter().any(|l| l.contains(needle)),
            "no random game of {needle}"
        );
    }
    for dir in &dirs {
        let _ = std::fs::remove_dir_all(dir);
    }
}

/// The JSON form of a square list, for comparing with the model's.
fn names(squares: impl IntoIterator<Item = Square>) -> Vec<String> {
    let mut v: Vec<Square> = squares.into_iter().collect();
    v.sort_by_key(|sq| sq.index());
    v.into_iter().map(|sq| sq.to_string()).collect()
}

fn model_rows(game: &Game, side: u8) -> Vec<String> {
    (0..side)
        .map(|r| {
            (0..side)
                .map(|c| match game.spot(Square::new(c, r).unwrap()) {
                    Spot::Off => ' ',
                    Spot::Blocked => '#',
                    Spot::Empty => '.',
                    Spot::Neutral => 'N',
                    Spot::Disc(p) => Color::ALL[p].symbol(),
                })
                .collect()
        })
        .collect()
}

/// A JSON position against the engine's position and the model's game.
fn check_position(json: &JsonPosition, pos: &Position, game: &Game, at: &str) {
    let over = game.is_over();
    assert_eq!(pos.is_over(), over, "{at}: game over");
    let turn = (!over).then(|| Color::ALL[game.turn()].to_string());
    assert_eq!(json.turn, turn, "{at}: turn (model)");
    assert_eq!(
        json.turn,
        (!pos.is_over()).then(|| pos.turn().to_string()),
        "{at}: turn (engine)"
    );
    let side = pos.rules().board().side();
    assert_eq!(json.board, model_rows(game, side), "{at}: board (model)");
    let expected_legal = if over {
        Vec::new()
    } else if game.must_pass() {
        vec!["--".to_owned()]
    } else {
        names(game.legal())
    };
    let mut legal = json.legal.clone();
    legal.sort_by_key(|s| s.parse::<Square>().map(|sq| sq.index()).unwrap_or(0));
    assert_eq!(legal, expected_legal, "{at}: legal moves (model)");
    let engine_legal: Vec<String> = if pos.is_over() {
        Vec::new()
    } else if pos.must_pass() {
        vec!["--".to_owned()]
    } else {
        pos.legal_moves().iter().map(|sq| sq.to_string()).collect()
    };
    assert_eq!(json.legal, engine_legal, "{at}: legal moves (engine)");
    for sq in game.legal() {
        let flips = json
            .flips
            .get(&sq.to_string())
            .unwrap_or_else(|| panic!("{at}: flips of {sq}"));
        let flips: Vec<String> = serde_json::from_value(flips.clone()).unwrap();
        assert_eq!(
            names(flips.iter().map(|s| s.parse().unwrap())),
            names(game.flips(sq)),
            "{at}: flips of {sq}"
        );
    }
    if let Some(hand) = &json.in_hand {
        for (p, c) in pos.rules().colors().iter().enumerate() {
            assert_eq!(
                hand[c.name()].as_u64(),
                game.in_hand(p).map(u64::from),
                "{at}: {c} in hand"
            );
        }
    }
}

#[test]
fn random_games_agree_with_the_engine_and_the_reference_model() {
    let files = suite::files().unwrap();
    let mut games = 0;
    for file in files.iter().filter(|f| {
        (f.path.starts_with("random/") || f.path.starts_with("combined/"))
            && f.path.ends_with(".json")
    }) {
        games += 1;
        let json: JsonScenario = serde_json::from_str(&file.contents).unwrap();
        let rules: Rules = json.rules.as_deref().unwrap().parse().unwrap();
        let scenario_path = file.path.replace(".json", ".scenario");
        let scenario_text = &files
            .iter()
            .find(|f| f.path == scenario_path)
            .unwrap()
            .contents;
        let sc: Scenario = scenario_text.parse().unwrap();
        assert_eq!(sc.moves.len(), json.moves.len(), "{}", file.path);
        let mut pos = Position::new(rules);
        let mut game = Game::new(&rules);
        let mut played = 0;
        let first = &json.positions[0];
        assert_eq!(first.after_moves, 0);
        check_position(first, &pos, &game, &format!("{} start", file.path));
        for (i, (m, jm)) in sc.moves.iter().zip(&json.moves).enumerate() {
            let at = format!("{} move {} ({})", file.path, i + 1, jm.mv);
            assert_eq!(jm.mv, m.mv.to_string(), "{at}");
            let mv = m.mv.as_move().expect("random games stay on the grid");
            if !game.is_over() {
                assert_eq!(
                    jm.player,
                    Color::ALL[game.turn()].to_string(),
                    "{at}: player"
                );
            }
            let model = game.check(mv);
            assert_eq!(model.is_err(), m.refused, "{at}: the model's refusal");
            match model {
                Err(kind) => {
                    assert_eq!(jm.refusal, Some(format!("{kind:?}")), "{at}: refusal kind");
                    let mut trial = pos;
                    assert!(trial.play(mv).is_err(), "{at}: engine refuses");
                    assert_eq!(trial, pos, "{at}: a refusal changes nothing");
                }
                Ok(_) => {
                    let flipped = game.play(mv).unwrap();
                    let engine = pos.play_with_flips(mv).unwrap();
                    let json_flips: Vec<Square> =
                        jm.flips.iter().map(|s| s.parse().unwrap()).collect();
                    assert_eq!(names(json_flips), names(flipped), "{at}: flips (model)");
                    assert_eq!(jm.flips, names(engine), "{at}: flips (engine)");
                    played += 1;
                    // What the next side faces, with the board the key gives.
                    let after = jm.after.as_ref().unwrap();
                    let rows = model_rows(&game, pos.rules().board().side());
                    let key_rows: Vec<String> = rows
                        .iter()
                        .map(|r| r.chars().filter(|&c| c != ' ').collect())
                        .collect();
                    assert_eq!(
                        after.key.split(' ').next().unwrap(),
                        key_rows.join("/"),
                        "{at}: key"
                    );
                    let shown = JsonPosition {
                        after_moves: played,
                        key: after.key.clone(),
                        turn: after.turn.clone(),
                        legal: after.legal.clone(),
                        flips: after.flips.clone(),
                        board: rows,
                        in_hand: after.in_hand.clone(),
                        phase: after.phase.clone(),
                    };
                    check_position(&shown, &pos, &game, &at);
                }
            }
        }
        let last = json.positions.last().unwrap();
        assert_eq!(last.after_moves, played, "{}: the last position", file.path);
        check_position(last, &pos, &game, &format!("{} end", file.path));
        assert!(
            game.is_over(),
            "{}: a random game plays to the end",
            file.path
        );
        let outcome = json.outcome.as_ref().unwrap();
        let result = game.result();
        assert_eq!(
            outcome.winner,
            result.winner.map(|p| Color::ALL[p].to_string()),
            "{}",
            file.path
        );
        let scores = if outcome.scoring == "raw" {
            result.raw
        } else {
            result.wof
        };
        for (p, c) in rules.colors().iter().enumerate() {
            assert_eq!(
                outcome.discs[c.name()].as_u64(),
                Some(u64::from(result.discs[p]))
            );
            assert_eq!(outcome.score[c.name()].as_u64(), Some(u64::from(scores[p])));
        }
        assert_eq!(u32::from(outcome.empty), result.empty);
        assert_eq!(u32::from(outcome.neutral), result.neutral);
    }
    assert_eq!(
        games,
        suite::RANDOM_VARIANTS.len() * suite::GAMES_PER_VARIANT as usize
            + suite::COMBINED_VARIANTS.len()
    );
}

/// A scenario-ish line: a directive (or a board row, a comment) and a random value.
fn scenario_line() -> impl Strategy<Value = String> {
    let keys = prop::sample::select(vec![
        "rules:",
        "board:",
        "turn:",
        "show:",
        "moves:",
        "quiet:",
        "parse:",
        "start:",
        " 1",
        " 2",
        "   a b",
        "#",
        "",
        "```",
        "```text",
        "```scenario",
    ]);
    let values = prop_oneof![
        prop::sample::select(vec![
            "othello:4x4",
            "multi3",
            "classic",
            "free:6x6",
            "every",
            "white",
            "b1 !a1 -- pass",
            "XO../..../..../.... O",
            ". X O .",
            "2",
        ])
        .prop_map(str::to_owned),
        "[a-j0-9 .XORGN!:/#-]{0,24}",
    ];
    (keys, values).prop_map(|(k, v)| format!("{k} {v}"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// No text makes the scenario reader, the runner, the renderers or the Markdown reader
    /// panic; what runs renders, and its JSON reads back.
    #[test]
    fn no_input_makes_scenarios_panic(lines in prop::collection::vec(scenario_line(), 0..14)) {
        let text = lines.join("\n");
        if let Ok(t) = scenario::run(&text) {
            let shown = t.to_text();
            prop_assert!(shown.is_empty() || shown.starts_with("parse") || shown.starts_with("rules:"));
            let json = t.to_json("x.scenario");
            let back: JsonScenario = serde_json::from_str(&check::json_text(&json)).unwrap();
            prop_assert_eq!(back, json);
        }
        let md = format!("```scenario\n{text}\n```\n\n```text\n{text}\n```\n{text}");
        for ex in markdown::examples(&md) {
            prop_assert!(md.contains(&ex.scenario));
        }
        let d = check::diff(&text, &md);
        prop_assert_eq!(d.is_empty(), text.is_empty() && md.is_empty());
    }
}

/// What `--check` prints on a difference, pinned: the name, the diff, the count, exit 1.
#[test]
fn check_output() {
    let dir = temp_dir("check-output");
    let text = "rules: othello:6x6\nmoves: b3 !b3 b2\n";
    std::fs::write(dir.join("two.scenario"), text).unwrap();
    let right = scenario::run(text).unwrap().to_text();
    let wrong = right.replace("black b3: flips c3", "black b3: flips c3 c4");
    std::fs::write(dir.join("two.txt"), wrong).unwrap();
    let out = reversi()
        .current_dir(&dir)
        .args(["scenario", "--check", "two.scenario"])
        .output()
        .unwrap();
    let shown = format!(
        "exit: {:?}\n--- stdout\n{}--- stderr\n{}",
        out.status.code(),
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let _ = std::fs::remove_dir_all(&dir);
    insta::assert_snapshot!(shown);
}

/// The tooling of issue 24: `--suite` writes a manifest and removes the files an earlier
/// manifest lists but it no longer writes (nothing else); `--check` finds a `.json`
/// expectation without `--format json` and names the differing value by its path;
/// `--format json` reports a scenario that cannot run as an entry.
#[test]
fn suite_manifest_stale_files_json_check_and_failed_entries() {
    let dir = temp_dir("suite-stale");
    let stale = dir.join("rules/gone.scenario");
    std::fs::create_dir_all(stale.parent().unwrap()).unwrap();
    std::fs::write(&stale, "rules: othello\n").unwrap();
    let mine = dir.join("rules/mine.scenario");
    std::fs::write(&mine, "rules: othello\n").unwrap();
    let manifest = r#"{"files": [{"path": "rules/gone.scenario"}, {"path": "../outside"}]}"#;
    std::fs::write(dir.join("manifest.json"), manifest).unwrap();
    let out = reversi()
        .args(["scenario", "--suite"])
        .arg(&dir)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    assert!(!stale.exists(), "the stale file is removed");
    assert!(mine.exists(), "a file no manifest lists is kept");
    let manifest = std::fs::read_to_string(dir.join("manifest.json")).unwrap();
    assert!(
        manifest.contains("\"scenario\": \"rules/pass.scenario\""),
        "{manifest}"
    );
    assert!(manifest.contains("\"fnv1a64\""));
    // --check without --format json finds pass.json; a changed value is named by its path.
    let pass = dir.join("rules/pass.scenario");
    let out = reversi()
        .args(["scenario", "--check"])
        .arg(&pass)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let json_path = dir.join("rules/pass.json");
    let text = std::fs::read_to_string(&json_path).unwrap();
    let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
    v["positions"][0]["board"][0] = serde_json::json!("ZZZZZZZZ");
    std::fs::write(&json_path, serde_json::to_string(&v).unwrap()).unwrap();
    let out = reversi()
        .args(["scenario", "--check"])
        .arg(&pass)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("positions[0].board[0]: expected \"ZZZZZZZZ\", actual"),
        "{stdout}"
    );
    // A scenario that cannot run is an entry of the JSON report.
    let broken = dir.join("broken.scenario");
    std::fs::write(&broken, "rules: othello\nmoves: f5 f5\n").unwrap();
    let out = reversi()
        .args(["scenario", "--format", "json"])
        .arg(&broken)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let report: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(
        report["scenarios"][0]["error"]["code"],
        "scenario-unexpected-refusal"
    );
    assert_eq!(report["scenarios"][0]["error"]["line"], 2);
    let _ = std::fs::remove_dir_all(&dir);
}
