//! Results read wherever people write them (CSV result columns, transcript `Result:`
//! headers, RGN/PGN `Result` tags and their Edax and PlayOK variants, GGF `RE`): one score
//! parser, `validate` checks them, `repair` uses them, `convert` carries them; and the
//! move-string dialect without passes (`moves:nopass`).
//!
//! The command-line cases run the binary from the crate root on `fixtures/results/` and
//! snapshot exit code, standard output and standard error.

use assert_cmd::Command;
use proptest::prelude::*;

use reversi_check::validate::{validate_game, with_explicit_passes};
use reversi_engine::{Color, Move};
use reversi_formats::codes::Code;
use reversi_formats::record::score::{parse_result, result_text};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, ResultScore, Termination};
use reversi_formats::{Format, ParsedGame, ReadOptions, WriteError, WriteOptions};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The `reversi` binary, deterministic: run from the crate root, no colour, 80 columns.
fn reversi(args: &[&str]) -> (i32, String, String) {
    let output = Command::cargo_bin("reversi")
        .expect("the reversi binary is built")
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR")
        .args(args)
        .output()
        .expect("reversi runs");
    (
        output.status.code().expect("reversi exits with a code"),
        String::from_utf8_lossy(&output.stdout).into_owned(),
        String::from_utf8_lossy(&output.stderr).into_owned(),
    )
}

/// Exit code, standard output and standard error, for a snapshot.
fn transcript(args: &[&str]) -> (i32, String) {
    let (code, stdout, stderr) = reversi(args);
    (
        code,
        format!("exit code: {code}\n----- stdout -----\n{stdout}----- stderr -----\n{stderr}"),
    )
}

fn read_file(format: Format, rel: &str) -> Vec<ParsedGame> {
    let bytes = std::fs::read(format!("{ROOT}/{rel}")).expect("a fixture");
    let options = ReadOptions {
        name: rel.into(),
        ..ReadOptions::default()
    };
    format.read_bytes(bytes, &options).expect("a fixture reads")
}

fn result_of(game: &ParsedGame) -> Option<ClaimedResult> {
    game.record
        .as_ref()
        .expect("a record")
        .result
        .as_ref()
        .map(|r| ClaimedResult {
            span: None,
            ..r.clone()
        })
}

fn discs(counts: &[u8]) -> Option<ClaimedResult> {
    Some(ClaimedResult::discs(counts.to_vec()))
}

// ---------------------------------------------------------------------------------------
// Reading

#[test]
fn a_csv_score_column_in_every_spelling_is_the_claimed_result() {
    let games = read_file(Format::MoveString, "fixtures/results/csv-spellings.csv");
    let claim = |score: ResultScore, termination: Termination| {
        Some(ClaimedResult {
            score,
            termination,
            span: None,
        })
    };
    let normal = |score| claim(score, Termination::Normal);
    let black = || normal(ResultScore::Winner(Some(Color::Black)));
    let expected = [
        discs(&[50, 14]),
        discs(&[50, 14]),
        discs(&[50, 14]),
        normal(ResultScore::Margin(36.0)),
        normal(ResultScore::Margin(36.0)),
        black(),
        black(),
        black(),
        normal(ResultScore::Margin(-36.0)),
        claim(ResultScore::None, Termination::Unfinished),
        None,
        None,
        None,
        None,
    ];
    assert_eq!(games.len(), expected.len());
    for (game, expected) in games.iter().zip(expected) {
        assert_eq!(result_of(game), expected, "game {}", game.index);
        let record = game.record.as_ref().expect("a record");
        let unreadable = game
            .diagnostics
            .iter()
            .filter(|d| d.code == Code::ResultUnreadable)
            .count();
        // Only an unreadable score is kept as a tag, and it is reported.
        match record.tag("Final Score") {
            Some(text) => {
                assert!(["fifty to fourteen", "300-1"].contains(&text), "{text}");
                assert_eq!(unreadable, 1, "game {}", game.index);
            }
            None => assert_eq!(unreadable, 0, "game {}", game.index),
        }
        assert_eq!(record.tag("Round"), Some(game.index.to_string().as_str()));
    }
    // The claimed result points at the score as written.
    let span = games[1]
        .record
        .as_ref()
        .unwrap()
        .result
        .as_ref()
        .unwrap()
        .span;
    let span = span.expect("a span");
    let text = &games[1].source.text[span.offset - games[1].source.offset..][..span.len];
    assert_eq!(text, "50 - 14");
}

#[test]
fn three_and_four_player_counts_are_read_in_turn_order() {
    let games = read_file(Format::MoveString, "fixtures/results/csv-players.csv");
    let results: Vec<_> = games.iter().map(result_of).collect();
    assert_eq!(
        results,
        [
            discs(&[29, 23, 12]),
            discs(&[29, 12, 23]),
            discs(&[15, 30, 23, 32])
        ]
    );
    let codes: Vec<Vec<Code>> = games
        .iter()
        .map(|g| {
            validate_game(g, &[] as &[&str])
                .iter()
                .map(|d| d.code)
                .collect()
        })
        .collect();
    assert_eq!(codes, [vec![], vec![Code::WrongResult], vec![]]);
}

#[test]
fn a_transcript_result_header_is_the_claimed_result() {
    let games = read_file(
        Format::Transcript,
        "fixtures/results/transcript-exchanged-numbers.transcript",
    );
    assert_eq!(result_of(&games[0]), discs(&[35, 29]));
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(record.tag("Result"), None);
    assert!(record.tag("Event").is_some());
    // Unreadable, it is a warning and stays a tag.
    let text = "Result: about even\n1 . . . . . . . .\n2 . . . . . . . .\n3 . . . 1 . . . .\n\
                4 . . . O X . . .\n5 . . . X O . . .\n6 . . . . . . . .\n7 . . . . . . . .\n\
                8 . . . . . . . .\n";
    let games = Format::Transcript
        .read_bytes(text, &ReadOptions::default())
        .unwrap();
    let record = games[0].record.as_ref().expect("the grid is read");
    assert_eq!(record.result, None);
    assert_eq!(record.tag("Result"), Some("about even"));
    let codes: Vec<Code> = games[0].diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, [Code::ResultUnreadable]);
}

#[test]
fn pgn_result_variants_and_ggf_re_are_claimed_results() {
    // Edax: `1-0` with `{? wins 44-20}`; PlayOK: the score repeated after the movetext.
    for rel in [
        "fixtures/rgn/valid/pgn_edax.pgn",
        "fixtures/rgn/valid/pgn_playok.pgn",
    ] {
        let games = read_file(Format::Rgn, rel);
        assert_eq!(result_of(&games[0]), discs(&[44, 20]), "{rel}");
    }
    // PlayOK's score alone after the movetext, without a Result tag.
    let games = Format::Rgn
        .read_bytes(
            "[Event \"x\"]\n\n1. f5 d6 2. c3 40-24\n",
            &ReadOptions::default(),
        )
        .unwrap();
    assert_eq!(result_of(&games[0]), discs(&[40, 24]));
    // An SGF-style `W+R` in a Result tag gives the winner and who resigned.
    let games = Format::Rgn
        .read_bytes("[Result \"W+R\"]\n\n1. f5 d6\n", &ReadOptions::default())
        .unwrap();
    assert_eq!(
        result_of(&games[0]),
        Some(ClaimedResult {
            score: ResultScore::Winner(Some(Color::White)),
            termination: Termination::Resignation(Some(Color::Black)),
            span: None,
        })
    );
    let games = read_file(Format::Ggf, "fixtures/ggf/valid/edax.ggf");
    assert!(
        matches!(
            result_of(&games[0]).map(|r| r.score),
            Some(ResultScore::Margin(_))
        ),
        "GGF RE is a claimed margin"
    );
}

/// Result texts: the spellings people write, pieces of them, and noise.
fn arb_result_text() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("B".to_owned()),
        Just("W".to_owned()),
        Just("black".to_owned()),
        Just("Red".to_owned()),
        Just(" wins".to_owned()),
        Just(" resigns".to_owned()),
        Just(" loses on time".to_owned()),
        Just("+".to_owned()),
        Just("-".to_owned()),
        Just(" - ".to_owned()),
        Just(":".to_owned()),
        Just("–".to_owned()),
        Just("R".to_owned()),
        Just("T".to_owned()),
        Just("1/2".to_owned()),
        Just("*".to_owned()),
        Just("?".to_owned()),
        Just("=".to_owned()),
        Just("draw".to_owned()),
        Just(".".to_owned()),
        Just(" ".to_owned()),
        (0u16..300).prop_map(|n| n.to_string()),
        "[0-9]{1,4}",
        "[ -~]{0,3}",
    ];
    proptest::collection::vec(piece, 0..6).prop_map(|pieces| pieces.concat())
}

proptest! {
    /// Whatever the parser reads, RGN writes and reads back as the same claimed result;
    /// and the one text the transcript writer gives it reads back the same too.
    #[test]
    fn every_result_read_round_trips_through_rgn(text in arb_result_text()) {
        let Ok(Some(read)) = parse_result(&text) else {
            return Ok(());
        };
        let claim = read.claimed(None);
        let mut record = Record::default();
        record.moves.push(MoveRecord::new(Move::Place("f5".parse().unwrap())));
        record.result = Some(claim.clone());
        let (bytes, lost) = Format::Rgn
            .write_bytes(std::slice::from_ref(&record), &WriteOptions::default())
            .expect("RGN holds every result");
        prop_assert!(lost.is_empty());
        let games = Format::Rgn.read_bytes(bytes.clone(), &ReadOptions::default()).unwrap();
        let back = games[0].record.as_ref().and_then(|r| r.result.clone());
        prop_assert_eq!(
            back.map(|r| ClaimedResult { span: None, ..r }),
            Some(claim.clone()),
            "{:?} as RGN: {}", text, String::from_utf8_lossy(&bytes)
        );
        if let Some(written) = result_text(&claim) {
            let again = parse_result(&written).unwrap().unwrap().claimed(None);
            prop_assert_eq!(again, claim);
        }
    }
}

// ---------------------------------------------------------------------------------------
// validate, repair, convert

#[test]
fn validate_checks_a_csv_result_column() {
    let (code, out) = transcript(&["validate", "fixtures/results/csv-wrong-result.csv"]);
    assert_eq!(code, 1);
    assert!(out.contains("wrong-result"), "{out}");
    assert!(
        out.contains("the record claims 14-50, but the game ends 50-14"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

#[test]
fn validate_reads_every_score_spelling_and_warns_of_unreadable_ones() {
    let (code, out) = transcript(&["validate", "fixtures/results/csv-spellings.csv"]);
    assert_eq!(code, 1, "W+36 contradicts the board");
    let headers = |code: &str| out.lines().filter(|l| *l == code).count();
    assert_eq!(headers("result-unreadable"), 2, "{out}");
    assert!(
        // One real game under fourteen spellings of its result: thirteen copies of it.
        out.contains("14 games: 13 valid, 1 invalid; 1 error, 16 warnings (13 across games)"),
        "{out}"
    );
    insta::assert_snapshot!(out);
}

/// The edits of the one game a repair report (JSON) gives.
fn repair_edits(rel: &str) -> (String, Vec<serde_json::Value>) {
    let (code, stdout, stderr) = reversi(&[
        "repair",
        rel,
        "--to",
        "rgn",
        "--format",
        "json",
        "-o",
        "/dev/null",
    ]);
    assert_eq!(code, 0, "{stderr}");
    let report: serde_json::Value = serde_json::from_str(&stdout).expect("a JSON report");
    let game = &report["games"][0];
    (
        game["status"].as_str().unwrap_or_default().to_owned(),
        game["edits"].as_array().cloned().unwrap_or_default(),
    )
}

#[test]
fn repair_uses_a_csv_score_to_choose_the_swap() {
    // Moves 49 and 51 of a real game exchanged. Without the score, another swap makes the
    // game legal (and would be written); with it, only the real one gives 35-29.
    let (status, edits) = repair_edits("fixtures/results/csv-swapped-moves.csv");
    assert_eq!(status, "repaired");
    assert_eq!(edits.len(), 1);
    assert_eq!(
        (edits[0]["move"].as_u64(), edits[0]["other"].as_u64()),
        (Some(49), Some(51))
    );
    let (_, blind) = repair_edits("fixtures/results/csv-swapped-moves-no-score.csv");
    assert_ne!(blind, edits, "the score changes the choice");
    let (code, out) = transcript(&[
        "repair",
        "fixtures/results/csv-swapped-moves.csv",
        "--to",
        "rgn",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("[Result \"35-29\"]"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn repair_uses_a_transcript_result_header() {
    let (status, edits) = repair_edits("fixtures/results/transcript-exchanged-numbers.transcript");
    assert_eq!(status, "repaired");
    assert_eq!(
        (edits[0]["move"].as_u64(), edits[0]["other"].as_u64()),
        (Some(49), Some(51))
    );
    let (_, blind) =
        repair_edits("fixtures/results/transcript-exchanged-numbers-no-result.transcript");
    assert_ne!(blind, edits, "the written result changes the choice");
    let (code, out) = transcript(&[
        "repair",
        "fixtures/results/transcript-exchanged-numbers.transcript",
    ]);
    assert_eq!(code, 0);
    assert!(out.contains("Result: 35-29"), "{out}");
    insta::assert_snapshot!(out);
}

#[test]
fn convert_writes_a_csv_result_column_as_the_rgn_result() {
    let (code, out) = transcript(&[
        "convert",
        "fixtures/results/csv-wrong-result.csv",
        "--to",
        "rgn",
    ]);
    // One game claims a result its board does not give: written as read, and exit 1.
    assert_eq!(code, 1, "{out}");
    assert!(!out.contains("cannot hold"), "{out}");
    assert!(out.contains("[Result \"50-14\"]") && out.contains("[Result \"14-50\"]"));
    insta::assert_snapshot!(out);
}

#[test]
fn a_ggf_margin_of_a_finished_game_becomes_its_disc_counts_in_pgn() {
    // Two finished WTHOR games as GGF writes them: `RE[+18.000]`, a margin.
    for dialect in ["pgn:thor", "pgn:playok", "pgn:edax"] {
        let (code, out) = transcript(&[
            "convert",
            "--lossy",
            "fixtures/results/ggf-margins.ggf",
            "--to",
            dialect,
        ]);
        assert_eq!(code, 0, "{out}");
        assert!(!out.contains("\"*\""), "{dialect}: {out}");
        assert!(
            out.contains("41-23") && out.contains("33-31"),
            "{dialect}: {out}"
        );
        assert!(
            out.contains("result derived from the final board (2 games: 1, 2)"),
            "{out}"
        );
    }
    let (_, out) = transcript(&[
        "convert",
        "-q",
        "fixtures/results/ggf-margins.ggf",
        "--to",
        "rgn",
    ]);
    insta::assert_snapshot!(out);
}

#[test]
fn a_transcript_keeps_its_result_through_a_conversion() {
    let games = read_file(
        Format::Transcript,
        "fixtures/results/transcript-exchanged-numbers.transcript",
    );
    let record = games[0].record.clone().unwrap();
    let (bytes, lost) = Format::Transcript
        .write_bytes(std::slice::from_ref(&record), &WriteOptions::default())
        .expect("a grid holds a disc count");
    assert!(lost.is_empty());
    assert!(String::from_utf8_lossy(&bytes).contains("\nResult: 35-29\n"));
    let back = Format::Transcript
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    assert_eq!(result_of(&back[0]), discs(&[35, 29]));
    // A result no header line spells is refused, or dropped with --lossy.
    let mut agreed = record;
    agreed.result = Some(ClaimedResult {
        score: ResultScore::Discs(vec![35, 29]),
        termination: Termination::Agreement,
        span: None,
    });
    match Format::Transcript.write_bytes(&[agreed], &WriteOptions::default()) {
        Err(WriteError::CannotHold(what)) => {
            assert!(what.iter().any(|w| w.starts_with("the result")), "{what:?}")
        }
        other => panic!("{other:?}"),
    }
}

// ---------------------------------------------------------------------------------------
// moves:nopass

/// A legal game with passes, written explicitly, and nothing around it.
fn game_with_a_pass() -> Record {
    let games = read_file(Format::Rgn, "fixtures/validate/clean-two-passes.rgn");
    let record = games[0].record.clone().expect("a record");
    let record = with_explicit_passes(&record).into_owned();
    assert!(record.moves.iter().any(|m| m.mv == Move::Pass));
    Record {
        tags: Vec::new(),
        result: None,
        comment: None,
        ..record
    }
}

#[test]
fn moves_nopass_leaves_passes_out_and_reads_back_the_same_game() {
    let record = game_with_a_pass();
    let options = WriteOptions {
        dialect: Some("nopass".into()),
        ..WriteOptions::default()
    };
    let (bytes, lost) = Format::MoveString
        .write_bytes(std::slice::from_ref(&record), &options)
        .expect("a legal game is written without passes");
    assert!(lost.is_empty());
    let text = String::from_utf8(bytes.clone()).unwrap();
    assert!(!text.contains("--"), "{text}");
    let games = Format::MoveString
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    assert!(validate_game(&games[0], &["unfinished"]).is_empty());
    let back = games[0].record.as_ref().unwrap();
    assert!(back.moves.iter().all(|m| m.mv != Move::Pass));
    let moves =
        |r: &Record| -> Vec<Move> { with_explicit_passes(r).moves.iter().map(|m| m.mv).collect() };
    assert_eq!(moves(back), moves(&record), "passes inferred back");
    // The default dialect still writes them.
    let (with, _) = Format::MoveString
        .write_bytes(&[record], &WriteOptions::default())
        .unwrap();
    assert!(String::from_utf8(with).unwrap().contains("--"));
}

#[test]
fn moves_nopass_refuses_a_pass_replay_would_not_put_back() {
    // Black passes while it has moves: left out, White's move would become Black's.
    let games = Format::Rgn
        .read_bytes(
            "[Event \"x\"]\n\n1. f5 d6 2. -- c3\n",
            &ReadOptions::default(),
        )
        .unwrap();
    let record = games[0].record.clone().unwrap();
    let options = WriteOptions {
        dialect: Some("nopass".into()),
        lossy: true,
        ..WriteOptions::default()
    };
    match Format::MoveString.write_bytes(
        &[Record {
            tags: Vec::new(),
            ..record
        }],
        &options,
    ) {
        Err(WriteError::ChangesMeaning(what)) => {
            assert_eq!(
                what,
                ["a pass that replay cannot infer (move 3), so it cannot be left out"]
            )
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn convert_to_moves_nopass_on_the_command_line() {
    let args = [
        "convert",
        "fixtures/validate/clean-two-passes.rgn",
        "--to",
        "moves:nopass",
        "--lossy",
    ];
    let (code, stdout, _) = reversi(&args);
    assert_eq!(code, 0);
    assert!(!stdout.is_empty() && !stdout.contains("--"), "{stdout}");
    let (_, out) = transcript(&args);
    insta::assert_snapshot!(out);
    let (code, _, stderr) = reversi(&[
        "convert",
        "fixtures/validate/clean-two-passes.rgn",
        "--to",
        "moves:nopasses-please",
    ]);
    assert_eq!(code, 2);
    assert!(
        stderr.contains("expected `moves` or `moves:nopass`"),
        "{stderr}"
    );
}
