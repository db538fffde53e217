//! Move strings: fixtures, the real XOT openings file, writer refusals and round trips.

use std::io::BufReader;

use proptest::prelude::*;
use reversi_engine::{Move, Position, Rules};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, Tag};
use reversi_formats::{Format, ParsedGame, ReadOptions, Sniff, WriteError, WriteOptions};

fn read_all(text: &str, rules: Option<Rules>) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "input".into(),
        rules,
        ..ReadOptions::default()
    };
    Format::MoveString
        .read_bytes(text, &options)
        .expect("reading from memory does not fail")
}

fn write_all(records: &[Record], lossy: bool) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let (out, lost) = Format::MoveString.write_bytes(records, &options)?;
    Ok((String::from_utf8(out).expect("writers write UTF-8"), lost))
}

/// The record with its spans forgotten (`Record::without_spans`).
fn without_spans(record: Record) -> Record {
    record.without_spans()
}

/// The parsed games as a readable dump: each record as JSON, or its rendered diagnostics.
fn dump(games: &[ParsedGame]) -> String {
    let mut out = String::new();
    for game in games {
        out.push_str(&format!(
            "## game {} (line {})\n",
            game.index,
            game.source.line + 1
        ));
        if let Some(record) = &game.record {
            out.push_str(&serde_json::to_string_pretty(record).expect("records serialise"));
            out.push('\n');
        }
        for d in &game.diagnostics {
            out.push_str(&render_plain(d, &game.source));
        }
    }
    out
}

/// Every move's span points at its token in the file.
fn check_spans(text: &str, games: &[ParsedGame]) {
    for game in games {
        let Some(record) = &game.record else { continue };
        for m in &record.moves {
            let span = m.span.expect("moves read from text have spans");
            let token = text[span.offset..span.end()].to_ascii_lowercase();
            match m.mv {
                Move::Place(sq) => assert_eq!(token, sq.to_string()),
                Move::Pass => assert!(["--", "pa", "ps", "@@", "pass"].contains(&token.as_str())),
            }
        }
    }
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/moves", "valid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text, None);
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{}", dump(&games));
            assert!(g.record.is_some());
        }
        check_spans(&text, &games);
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/moves", "invalid/*", |path| {
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let games = read_all(&text, None);
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
fn fixtures_are_sniffed_as_move_strings() {
    for name in [
        "plain.txt",
        "ten_by_ten.txt",
        "named_column.csv",
        "opening_column.csv",
    ] {
        let path = format!("{}/fixtures/moves/valid/{name}", env!("CARGO_MANIFEST_DIR"));
        let head = std::fs::read(&path).expect("fixture is readable");
        let sniff = Sniff {
            head: &head,
            len: None,
        };
        assert_eq!(Format::sniff(&sniff), Some(Format::MoveString), "{name}");
    }
}

#[test]
fn real_xot_openings_read_and_replay() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/movestrings/nboard_xot-large.txt"
    );
    let file = std::fs::File::open(path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let head = std::fs::read(path).expect("the file reads");
    let sniff = Sniff {
        head: &head[..4096],
        len: None,
    };
    assert_eq!(Format::sniff(&sniff), Some(Format::MoveString));
    let games = Format::MoveString.read(Box::new(BufReader::new(file)), &ReadOptions::default());
    let mut count = 0;
    for game in games {
        let game = game.expect("the file reads");
        count += 1;
        assert!(game.diagnostics.is_empty(), "game {}", game.index);
        let record = game.record.expect("every line is a game");
        assert_eq!(record.moves.len(), 8, "game {}", game.index);
        // Oracle: these are real openings, so every move is legal from the standard start.
        let mut pos = Position::new(record.rules);
        for m in &record.moves {
            pos.play(m.mv)
                .unwrap_or_else(|e| panic!("game {}: {} is {e}", game.index, m.mv));
        }
    }
    assert_eq!(count, 10_784);
}

#[test]
fn writer_refuses_what_a_move_string_cannot_hold() {
    let mut record = Record::new(Rules::default());
    record.moves = vec![MoveRecord::new(Move::Place("f5".parse().unwrap()))];
    record.tags.push(Tag::new("Black", "Tastet"));
    record.result = Some(ClaimedResult::discs(vec![33, 31]));
    record.comment = Some("a fine game".into());
    record.moves[0].comment = Some("the usual".into());
    let err = write_all(&[record.clone()], false).unwrap_err();
    let WriteError::CannotHold(what) = err else {
        panic!("expected a refusal")
    };
    assert_eq!(
        what,
        [
            "tags (Black)",
            "the result",
            "the game comment",
            "a comment on move 1"
        ]
    );
    let (text, lost) = write_all(&[record], true).unwrap();
    assert_eq!(text, "f5\n");
    assert_eq!(lost.len(), 4);
    // An empty game would vanish from the output: refused, even lossily.
    let empty = write_all(&[Record::default()], true).unwrap_err();
    assert!(
        matches!(&empty, WriteError::ChangesMeaning(what) if what[0].starts_with("an empty game")),
        "{empty:?}"
    );
}

#[test]
fn fixtures_round_trip_through_the_writer() {
    for name in ["plain.txt", "ten_by_ten.txt", "edax_start.txt"] {
        let path = format!("{}/fixtures/moves/valid/{name}", env!("CARGO_MANIFEST_DIR"));
        let text = std::fs::read_to_string(&path).expect("fixture is readable");
        let records: Vec<Record> = read_all(&text, None)
            .into_iter()
            .map(|g| without_spans(g.record.expect("valid fixture")))
            .collect();
        let (written, lost) = write_all(&records, false).expect("move strings hold move strings");
        assert!(lost.is_empty());
        let again: Vec<Record> = read_all(&written, None)
            .into_iter()
            .map(|g| without_spans(g.record.expect("written text reads back")))
            .collect();
        assert_eq!(again, records, "{name}:\n{written}");
    }
}

/// A random legal game under `rules`, explicit passes included where `passes` says.
fn random_game(rules: Rules, choices: &[usize], passes: bool) -> Record {
    let mut pos = Position::new(rules);
    let mut record = Record::new(rules);
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
        if mv != Move::Pass || passes {
            record.moves.push(MoveRecord::new(mv));
        }
    }
    record
}

fn any_rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(vec![
        "othello",
        "othello:6x6",
        "othello:10x10",
        "anti",
        "anti:10x10",
        "othello:octagon",
        "multi3",
    ])
    .prop_map(|r| r.parse::<Rules>().expect("rules strings parse"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn write_then_read_is_the_identity(
        games in prop::collection::vec(
            (any_rules(), prop::collection::vec(0usize..64, 1..100), any::<bool>()),
            1..5,
        )
    ) {
        let records: Vec<Record> = games
            .iter()
            .map(|(rules, choices, passes)| random_game(*rules, choices, *passes))
            .filter(|r| !r.moves.is_empty())
            .collect();
        let (written, lost) = write_all(&records, false).expect("plain games are writable");
        prop_assert!(lost.is_empty());
        let again: Vec<Record> = read_all(&written, None)
            .into_iter()
            .map(|g| without_spans(g.record.expect("written text reads back")))
            .collect();
        prop_assert_eq!(again, records);
    }

    #[test]
    fn spelling_does_not_matter(
        choices in prop::collection::vec(0usize..64, 1..60),
        upper in prop::collection::vec(any::<bool>(), 60),
        spaced in prop::collection::vec(any::<bool>(), 60),
    ) {
        let record = random_game(Rules::default(), &choices, true);
        let mut text = String::new();
        for (i, m) in record.moves.iter().enumerate() {
            let token = match m.mv {
                Move::Place(sq) => sq.to_string(),
                Move::Pass => "pa".into(),
            };
            text.push_str(&if upper[i % 60] { token.to_ascii_uppercase() } else { token });
            if spaced[i % 60] {
                text.push(' ');
            }
        }
        let games = read_all(&format!("{text}\n"), None);
        prop_assert_eq!(games.len(), 1);
        let read = games[0].record.clone().map(without_spans);
        prop_assert_eq!(read, Some(record));
    }

    #[test]
    fn arbitrary_lines_never_panic(text in "[a-jA-Jp-s0-9 ,;\"%#@:\\-\n\t\r\u{feff}é€XOo.*]{0,200}") {
        // A game that could not be read says why with an error; one that was read has
        // at most warnings from its reader (a control character replaced, an encoding).
        for game in read_all(&text, None) {
            let errors = game.diagnostics.iter().any(|d| d.is_error());
            prop_assert_eq!(game.record.is_none(), errors, "{:?}", game.diagnostics);
        }
    }
}
