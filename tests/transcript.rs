//! Transcript grids: fixtures, the WTH_2019 #331 grid replayed, writer refusals, round trips.

use proptest::prelude::*;
use reversi_engine::{Color, Move, Position, Rules};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, Tag};
use reversi_formats::{Format, ParsedGame, ReadOptions, Sniff, WriteError, WriteOptions};

fn fixture(path: &str) -> String {
    std::fs::read_to_string(format!(
        "{}/fixtures/transcript/{path}",
        env!("CARGO_MANIFEST_DIR")
    ))
    .expect("fixture is readable")
}

fn read_all(text: &str) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "input".into(),
        ..ReadOptions::default()
    };
    Format::Transcript
        .read_bytes(text, &options)
        .expect("reading from memory does not fail")
}

fn write_all(records: &[Record], lossy: bool) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let (out, lost) = Format::Transcript.write_bytes(records, &options)?;
    Ok((String::from_utf8(out).expect("writers write UTF-8"), lost))
}

/// The record with its spans forgotten (`Record::without_spans`).
fn without_spans(record: Record) -> Record {
    record.without_spans()
}

/// Replays a record, inferring passes; the final position, or the first illegal move.
fn replay(record: &Record) -> Result<Position, String> {
    let setup = record.start_setup();
    let mut pos = Position::from_setup(record.rules, setup).map_err(|e| e.to_string())?;
    for (i, m) in record.moves.iter().enumerate() {
        if pos.must_pass() && !pos.is_over() && m.mv != Move::Pass {
            pos.play(Move::Pass).map_err(|e| e.to_string())?;
        }
        pos.play(m.mv)
            .map_err(|e| format!("move {} ({}) is {e}", i + 1, m.mv))?;
    }
    Ok(pos)
}

fn dump(games: &[ParsedGame]) -> String {
    let mut out = String::new();
    for game in games {
        out.push_str(&format!(
            "## game {} (line {})\n",
            game.index,
            game.source.line + 1
        ));
        if let Some(record) = &game.record {
            let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
            out.push_str(&format!("rules: {}\n", record.rules));
            for tag in &record.tags {
                out.push_str(&format!("tag {}: {}\n", tag.name, tag.value));
            }
            if let Some(start) = &record.start {
                out.push_str(&format!(
                    "start: black {} / white {}\n",
                    start.setup.discs[0], start.setup.discs[1]
                ));
            }
            out.push_str(&format!("moves ({}): {}\n", moves.len(), moves.join(" ")));
            match replay(record) {
                Ok(pos) => out.push_str(&format!("replay:\n{pos}\n")),
                Err(e) => out.push_str(&format!("replay stops: {e}\n")),
            }
        }
        for d in &game.diagnostics {
            out.push_str(&render_plain(d, &game.source));
        }
    }
    out
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/transcript", "valid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text);
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{}", dump(&games));
            let record = g.record.as_ref().expect("valid fixture");
            // Oracle: every valid fixture is a legal game (passes inferred).
            if let Err(e) = replay(record) {
                panic!("game {}: {e}", g.index);
            }
            for (i, m) in record.moves.iter().enumerate() {
                let span = m.span.expect("moves have spans");
                assert_eq!(text[span.offset..span.end()], (i + 1).to_string());
            }
        }
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/transcript", "invalid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text);
        assert!(games.iter().any(|g| !g.diagnostics.is_empty()));
        for g in &games {
            assert_eq!(g.record.is_none(), !g.diagnostics.is_empty());
            for d in &g.diagnostics {
                assert_eq!(d.game, Some(g.index));
                let span = d.span.expect("every diagnostic points somewhere");
                assert!(span.offset >= g.source.offset);
                assert!(span.end() <= g.source.offset + g.source.text.len());
            }
        }
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn every_error_of_a_grid_is_reported() {
    let games = read_all(&fixture("invalid/out_of_range.txt"));
    let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(
        codes,
        [
            "transcript-number-out-of-range",
            "transcript-number-out-of-range",
            "transcript-number-out-of-range"
        ]
    );
    let games = read_all(&fixture("invalid/doubled_number.txt"));
    let d = &games[0].diagnostics;
    let codes: Vec<_> = d.iter().map(|d| d.code.name()).collect();
    assert_eq!(
        codes,
        ["transcript-duplicate-number", "transcript-missing-number"]
    );
    assert_eq!(d[0].related.len(), 1, "a label on the second copy");
}

#[test]
fn wth_2019_331_replays_with_its_inferred_pass() {
    let games = read_all(&fixture("valid/wth_2019_331.txt"));
    let record = games[0].record.as_ref().expect("a clean grid");
    assert_eq!(record.moves.len(), 58);
    assert_eq!(record.tag("Event"), Some("WTH 2019"));
    // Oracle: the engine replays the game; a pass is needed after move 55 (a1).
    let mut pos = Position::new(record.rules);
    let mut passes = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if pos.must_pass() {
            passes.push(i);
            pos.play(Move::Pass).expect("a forced pass");
        }
        pos.play(m.mv).expect("the game is legal");
    }
    assert_eq!(passes, [55]);
    assert_eq!(pos.turn(), Color::White);
}

#[test]
fn fixtures_are_sniffed_as_transcripts() {
    for name in [
        "wth_2019_331.txt",
        "ten_by_ten.txt",
        "no_labels_centre_omitted.txt",
    ] {
        let text = fixture(&format!("valid/{name}"));
        let sniff = Sniff {
            head: text.as_bytes(),
            len: None,
        };
        assert_eq!(Format::sniff(&sniff), Some(Format::Transcript), "{name}");
    }
}

#[test]
fn valid_fixtures_round_trip() {
    for name in [
        "wth_2019_331.txt",
        "ten_by_ten.txt",
        "no_labels_centre_omitted.txt",
        "right_labels_zero_centre.txt",
        "inverted_start.txt",
        "two_grids_rules_header.txt",
    ] {
        let records: Vec<Record> = read_all(&fixture(&format!("valid/{name}")))
            .into_iter()
            .map(|g| without_spans(g.record.expect("valid fixture")))
            .collect();
        let (written, lost) = write_all(&records, false).expect("grids hold grids");
        assert!(lost.is_empty());
        let again: Vec<Record> = read_all(&written)
            .into_iter()
            .map(|g| without_spans(g.record.expect("written grids read back")))
            .collect();
        assert_eq!(again, records, "{name}:\n{written}");
    }
    let text = fixture("valid/wth_2019_331.txt");
    let records: Vec<Record> = read_all(&text)
        .into_iter()
        .filter_map(|g| g.record)
        .collect();
    assert_eq!(write_all(&records, false).unwrap().0, format!("{text}\n"));
}

#[test]
fn writer_refuses_what_a_grid_cannot_hold() {
    let mut record = Record::new(Rules::default());
    for sq in ["f5", "d6", "f5"] {
        record
            .moves
            .push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
    }
    record.moves[1].eval = Some(2.0);
    record.result = Some(ClaimedResult::discs(vec![33, 31]));
    record.tags.push(Tag::new("Black", "ok"));
    record.tags.push(Tag::new("Date:Time", "not a header name"));
    // A move on a filled square cannot be drawn: dropping it would change the game, so the
    // record is refused even lossily, naming only that.
    let WriteError::ChangesMeaning(what) = write_all(&[record.clone()], true).unwrap_err() else {
        panic!("expected a refusal")
    };
    assert_eq!(what, ["move 3 on f5, a square already filled"]);
    record.moves.pop();
    let WriteError::CannotHold(what) = write_all(&[record.clone()], false).unwrap_err() else {
        panic!("expected a refusal")
    };
    // The result is held, as a `Result:` header line.
    assert_eq!(what, ["an evaluation on move 2", "tags (Date:Time)"]);
    let (text, lost) = write_all(&[record], true).unwrap();
    assert_eq!(lost.len(), 2);
    assert!(text.starts_with("Black: ok\nResult: 33-31\n"));
}

fn random_game(rules: Rules, start: Option<reversi_engine::Setup>, choices: &[usize]) -> Record {
    let mut record = Record::new(rules);
    let setup = start.unwrap_or_else(|| record.start_setup());
    let mut pos = Position::from_setup(rules, setup).expect("a legal start");
    if let Some(setup) = start {
        record.start = Some(reversi_formats::record::StartPosition {
            setup,
            in_hand: None,
            span: None,
        });
    }
    for &choice in choices {
        if pos.is_over() {
            break;
        }
        let legal: Vec<_> = pos.legal_moves().iter().collect();
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Place(legal[choice % legal.len()])
        };
        pos.play(mv).expect("legal by construction");
        if mv != Move::Pass {
            record.moves.push(MoveRecord::new(mv));
        }
    }
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn write_then_read_is_the_identity(
        rules in prop::sample::select(vec!["othello", "othello:6x6", "othello:10x10", "anti", "multi3", "othello:octagon", "free"]),
        inverted in any::<bool>(),
        choices in prop::collection::vec(0usize..64, 1..100),
    ) {
        let rules: Rules = rules.parse().expect("rules strings parse");
        let mut start = None;
        if inverted && rules.players() == 2 && rules.opening() == reversi_engine::Opening::Standard {
            let mut setup = Record::new(rules).start_setup();
            setup.discs.swap(0, 1);
            start = Some(setup);
        }
        let record = random_game(rules, start, &choices);
        prop_assume!(!record.moves.is_empty());
        let (written, lost) = write_all(std::slice::from_ref(&record), false).expect("plain games are writable");
        prop_assert!(lost.is_empty());
        let again: Vec<Record> = read_all(&written)
            .into_iter()
            .map(|g| without_spans(g.record.expect("written grids read back")))
            .collect();
        prop_assert_eq!(again, vec![record], "{}", written);
    }

    #[test]
    fn arbitrary_text_never_panics(text in "[0-9a-jOX. :|#%+=\n\r\u{feff}é-]{0,400}") {
        for game in read_all(&text) {
            prop_assert_eq!(game.record.is_none(), !game.diagnostics.is_empty());
        }
    }
}
