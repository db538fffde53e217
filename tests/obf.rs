//! OBF positions: fixtures, the FFO test files with their legal-move oracle, round trips.

use reversi_engine::{Color, Move, Position, Rules, SquareSet};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::obf::EVALUATIONS_TAG;
use reversi_formats::record::{MoveRecord, Record, Tag};
use reversi_formats::{Format, ParsedGame, ReadOptions, Sniff, WriteError, WriteOptions};

const FFO_FILES: [&str; 4] = [
    "fforum-1-19.obf",
    "fforum-20-39.obf",
    "fforum-40-59.obf",
    "fforum-60-79.obf",
];

fn read_all(text: &str) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "input".into(),
        ..ReadOptions::default()
    };
    Format::Obf
        .read_bytes(text, &options)
        .expect("reading from memory does not fail")
}

fn write_all(records: &[Record], lossy: bool) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let (out, lost) = Format::Obf.write_bytes(records, &options)?;
    Ok((String::from_utf8(out).expect("writers write UTF-8"), lost))
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
            if let Some(start) = &record.start {
                let pos = Position::from_setup(record.rules, start.setup)
                    .expect("OBF boards are 8x8 positions");
                out.push_str(&format!("{pos}\n"));
            }
            out.push_str(&serde_json::to_string_pretty(record).expect("records serialise"));
            out.push('\n');
        }
        for d in &game.diagnostics {
            out.push_str(&render_plain(d, &game.source));
        }
    }
    out
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/obf", "valid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text);
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{}", dump(&games));
            let record = g.record.as_ref().expect("valid fixture");
            assert!(record.moves.is_empty());
            let span = record
                .start
                .as_ref()
                .and_then(|s| s.span)
                .expect("start span");
            assert_eq!(
                text[span.offset..span.end()].trim(),
                &text[span.offset..span.end()]
            );
        }
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/obf", "invalid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text);
        for g in &games {
            assert!(g.record.is_none());
            assert!(!g.diagnostics.is_empty());
            for d in &g.diagnostics {
                assert_eq!(d.game, Some(g.index));
                let span = d.span.expect("every diagnostic points somewhere");
                assert!(span.end() <= g.source.offset + g.source.text.len());
            }
        }
        insta::assert_snapshot!(dump(&games));
    });
}

/// The FFO files of the repository's real data (`data/obf`, see `data/SOURCES.md`); a
/// missing file fails the test.
fn ffo_games() -> Vec<(String, Vec<ParsedGame>)> {
    let mut all = Vec::new();
    for name in FFO_FILES {
        let path = format!("{}/data/obf/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
        });
        let games = read_all(&text);
        all.push((text, games));
    }
    all
}

#[test]
fn ffo_files_read_cleanly_and_list_every_legal_move() {
    let files = ffo_games();
    let mut to_move = [0; 2];
    let mut total = 0;
    for (_, games) in &files {
        for game in games {
            total += 1;
            assert!(
                game.diagnostics.is_empty(),
                "{}",
                dump(std::slice::from_ref(game))
            );
            let record = game.record.as_ref().expect("no diagnostics, so a record");
            let setup = record
                .start
                .as_ref()
                .expect("OBF positions are starts")
                .setup;
            to_move[setup.turn.index()] += 1;
            // Oracle: the FFO files list every legal move with its exact score.
            let evaluations = record.tag(EVALUATIONS_TAG).expect("FFO lines list moves");
            let mut listed = SquareSet::EMPTY;
            let mut pass = false;
            for entry in evaluations.split_whitespace() {
                let (mv, score) = entry.split_once(':').expect("MOVE:score entries");
                assert!(score.starts_with(['+', '-']), "{entry}");
                if mv == "PA" {
                    pass = true;
                } else {
                    listed.insert(mv.parse().expect("entries are squares"));
                }
            }
            let pos = Position::from_setup(Rules::default(), setup).expect("a legal setup");
            if pass {
                assert!(pos.must_pass(), "game {}", game.index);
            } else {
                assert_eq!(listed, pos.legal_moves(), "game {}\n{pos}", game.index);
            }
        }
    }
    assert_eq!(total, 79);
    assert_eq!(to_move, [51, 28]);
    assert_eq!(Color::Black.index(), 0);
}

#[test]
fn ffo_files_are_sniffed_and_written_back_byte_for_byte() {
    let files = ffo_games();
    for (text, games) in files {
        let head = text.as_bytes();
        assert_eq!(
            Format::sniff(&Sniff {
                head: &head[..head.len().min(4096)],
                len: None
            }),
            Some(Format::Obf)
        );
        let records: Vec<Record> = games.into_iter().filter_map(|g| g.record).collect();
        let (written, lost) = write_all(&records, false).expect("OBF holds OBF");
        assert!(lost.is_empty());
        let original: Vec<&str> = text.lines().filter(|l| !l.trim().is_empty()).collect();
        let rewritten: Vec<&str> = written.lines().collect();
        assert_eq!(rewritten, original);
    }
}

#[test]
fn writer_refuses_boards_and_variants_and_writes_a_game_as_its_final_position() {
    let mut record = Record::new(Rules::default());
    record
        .moves
        .push(MoveRecord::new(Move::Place("f5".parse().unwrap())));
    record.tags.push(Tag::new("Event", "x"));
    record.tags.push(Tag::new(EVALUATIONS_TAG, "F5:+2 PA:-4"));
    let WriteError::CannotHold(what) = write_all(&[record.clone()], false).unwrap_err() else {
        panic!("expected a refusal")
    };
    assert_eq!(
        what,
        [
            "tags (Event)",
            "the 1 move (OBF holds the position they reach)",
            "the Evaluations of the start position"
        ]
    );
    let (text, lost) = write_all(std::slice::from_ref(&record), true).unwrap();
    assert_eq!(lost.len(), 3);
    // After f5, White to move; the game is not over, so no evaluation.
    assert_eq!(
        text,
        "---------------------------OX------XXX-------------------------- O;\n"
    );
    // Rules that change what the position means are refused, even lossily.
    for rules in ["anti", "othello:10x10", "multi3", "othello,blocked=a1"] {
        let mut r = record.clone();
        r.rules = rules.parse().unwrap();
        r.moves.clear();
        assert!(
            matches!(write_all(&[r], true), Err(WriteError::ChangesMeaning(_))),
            "{rules}"
        );
    }
}

#[test]
fn a_finished_game_is_its_final_position_with_the_score() {
    // A wipe-out after 13 moves: Black 64-0 with WOF.
    let mut record = Record::new(Rules::default());
    for sq in "c4 c3 c2 e3 f5 c6 e2 b2 b7 c5 a1 c7 c8".split(' ') {
        record
            .moves
            .push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
    }
    let mut pos = Position::new(Rules::default());
    for m in &record.moves {
        pos.play(m.mv).unwrap();
    }
    assert!(pos.is_over());
    let (text, lost) = write_all(std::slice::from_ref(&record), true).unwrap();
    assert_eq!(lost.len(), 1, "{lost:?}");
    let line = text.trim_end();
    // The score from the view of the side to move (White, who has no disc left).
    assert!(line.ends_with(" O; -64;"), "{line}");
    let back = read_all(&text);
    let start = back[0].record.as_ref().unwrap().start_position().unwrap();
    assert_eq!(start.setup(), pos.setup());
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(64))]

    /// Positions reached in random games, with random evaluations, survive a round trip.
    #[test]
    fn write_then_read_is_the_identity(
        choices in proptest::collection::vec(0usize..64, 0..60),
        scores in proptest::collection::vec(-64i32..=64, 0..6),
    ) {
        let mut pos = Position::new(Rules::default());
        for choice in choices {
            if pos.is_over() {
                break;
            }
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            let mv = if legal.is_empty() { Move::Pass } else { Move::Place(legal[choice % legal.len()]) };
            pos.play(mv).expect("legal by construction");
        }
        let mut record = Record::new(Rules::default());
        record.start = Some(reversi_formats::record::StartPosition {
            setup: pos.setup(),
            in_hand: None,
            span: None,
        });
        let entries: Vec<String> = pos
            .legal_moves()
            .iter()
            .zip(&scores)
            .map(|(sq, s)| format!("{}:{s:+}", sq.to_string().to_ascii_uppercase()))
            .collect();
        if !entries.is_empty() {
            record.tags.push(Tag::new(EVALUATIONS_TAG, entries.join(" ")));
        }
        let (written, lost) = write_all(std::slice::from_ref(&record), false).expect("OBF holds positions");
        proptest::prop_assert!(lost.is_empty());
        let mut again: Vec<Record> = read_all(&written).into_iter().filter_map(|g| g.record).collect();
        proptest::prop_assert_eq!(again.len(), 1);
        let mut read = again.remove(0);
        read.span = None;
        if let Some(s) = &mut read.start { s.span = None; }
        for t in &mut read.tags { t.span = None; }
        proptest::prop_assert_eq!(read, record);
    }
}

proptest::proptest! {
    #[test]
    fn arbitrary_lines_never_panic(text in "[XOxo*bw.\\- ;:+0-9A-Ha-hP%\n\u{feff}é]{0,300}") {
        for game in read_all(&text) {
            proptest::prop_assert_eq!(game.record.is_none(), !game.diagnostics.is_empty());
        }
    }
}
