//! RGN: fixtures, real Othello PGN, the spec's examples and round trips.

mod common;

use std::io::BufReader;

use proptest::prelude::*;
use reversi_engine::{Move, Position, Square};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{Record, ResultScore};
use reversi_formats::{rgn, ParsedGame, ReadOptions};

/// Parses `text`, failing on any diagnostic.
fn clean(text: &str) -> Vec<Record> {
    rgn::parse_str(text, "test")
        .into_iter()
        .map(|g| {
            if let Some(d) = g.diagnostics.first() {
                panic!("{}\n{text}", render_plain(d, &g.source));
            }
            g.record.expect("a game without diagnostics has a record")
        })
        .collect()
}

/// A PGN file of the repository's real data (`data/pgn`, see `data/SOURCES.md`); a missing
/// file fails the test.
fn data(name: &str) -> String {
    let path = format!("{}/data/pgn/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    })
}

fn squares(moves: &[reversi_formats::record::MoveRecord]) -> Vec<String> {
    moves.iter().map(|m| m.mv.to_string()).collect()
}

/// Every span of every record lies inside its game's source, in order, and covers the
/// token it belongs to.
fn check_spans(games: &[ParsedGame], file: &str) {
    for g in games {
        let src = &g.source;
        assert_eq!(&file[src.offset..src.offset + src.text.len()], &*src.text);
        let Some(r) = &g.record else { continue };
        let mut last = src.offset;
        for m in &r.moves {
            let span = m.span.expect("every move has a span");
            assert!(span.offset >= last && span.end() <= src.offset + src.text.len());
            let token = &file[span.offset..span.end()];
            let token = token.rsplit(':').next().unwrap_or(token);
            match m.mv {
                Move::Place(sq) => assert_eq!(token.parse::<Square>().ok(), Some(sq)),
                Move::Pass => assert!(["--", "pass", "pa", "ps", "@@", "@@@@"]
                    .contains(&token.to_ascii_lowercase().as_str())),
            }
            last = span.end();
        }
        for t in &r.tags {
            let span = t.span.expect("every tag has a span");
            let text = &file[span.offset..span.end()];
            assert!(text.starts_with('[') && text.ends_with(']') && text.contains(&t.name));
        }
        if let Some(res) = &r.result {
            let span = res.span.expect("the result has a span");
            assert!(span.end() <= src.offset + src.text.len());
        }
    }
}

#[test]
fn thor_export_wthor_2004() {
    let text = data("WTHOR-2004.r.pgn");
    let games = rgn::parse_str(&text, "WTHOR-2004.r.pgn");
    assert_eq!(games.len(), 9113);
    assert!(games
        .iter()
        .all(|g| g.diagnostics.is_empty() && g.record.is_some()));
    let first = games[0].record.as_ref().unwrap();
    assert_eq!(first.tag("Event"), Some("Australian National"));
    assert_eq!(first.tag("White"), Some("Halvorsen Luke"));
    assert_eq!(first.tags.len(), 4, "Result is not a free tag");
    assert_eq!(first.moves.len(), 60);
    assert_eq!(squares(&first.moves[..4]), ["f5", "f6", "e6", "f4"]);
    assert_eq!(squares(&first.moves[58..]), ["g1", "f1"]);
    assert_eq!(
        first.result.as_ref().unwrap().score,
        ResultScore::Discs(vec![41, 23])
    );
    let last = games[9112].record.as_ref().unwrap();
    assert!(!last.moves.is_empty());
    check_spans(&games, &text);
}

#[test]
fn thor_export_wth_2021_colours_come_from_replay() {
    let text = data("WTH_2021.py.pgn");
    let games = rgn::parse_str(&text, "WTH_2021.py.pgn");
    assert_eq!(games.len(), 320);
    assert!(games
        .iter()
        .all(|g| g.diagnostics.is_empty() && g.record.is_some()));
    let beijing = games[1].record.as_ref().unwrap();
    assert_eq!(beijing.tag("Event"), Some("Beijing Open - 2021"));
    assert_eq!(
        beijing.result.as_ref().unwrap().score,
        ResultScore::Discs(vec![15, 49])
    );
    // `27. H8 H1` and `28. A1 A5`: four White moves in a row, numbers notwithstanding.
    assert_eq!(squares(&beijing.moves[52..56]), ["h8", "h1", "a1", "a5"]);
    assert!(beijing.moves.iter().all(|m| m.color.is_none()));
    check_spans(&games, &text);
}

#[test]
fn playok_sample() {
    let text = data("playok_sample.pgn");
    let games = rgn::parse_str(&text, "playok_sample.pgn");
    assert_eq!(games.len(), 1);
    assert!(games[0].diagnostics.is_empty());
    let r = games[0].record.as_ref().unwrap();
    assert_eq!(r.moves.len(), 61);
    assert_eq!(r.moves[56].mv, Move::Pass);
    assert_eq!(r.moves[60].mv.to_string(), "a1");
    assert_eq!(
        r.result.as_ref().unwrap().score,
        ResultScore::Discs(vec![38, 26])
    );
    assert_eq!(r.tag("TimeControl"), Some("300"));
    check_spans(&games, &text);
}

#[test]
fn crlf_line_ends_read_the_same() {
    let text = data("playok_sample.pgn");
    let crlf = text.replace('\n', "\r\n");
    let a = clean(&text);
    let b = clean(&crlf);
    assert_eq!(
        b.iter().map(common::without_spans).collect::<Vec<_>>(),
        a.iter().map(common::without_spans).collect::<Vec<_>>()
    );
}

#[test]
fn edax_dialect() {
    let text = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/rgn/valid/pgn_edax.pgn"
    ))
    .unwrap();
    let r = &clean(&text)[0];
    assert_eq!(r.tags.iter().filter(|t| t.name == "Date").count(), 2);
    assert_eq!(r.moves[59].mv, Move::Pass);
    // `{? wins 44-20} 1-0`: the comment gives the result's disc counts.
    assert_eq!(r.moves.last().unwrap().comment, None);
    let result = r.result.as_ref().unwrap();
    assert_eq!(result.score, ResultScore::Discs(vec![44, 20]));
    replay(r).unwrap();
}

#[test]
fn streaming_reads_the_same_through_a_tiny_buffer() {
    let text = data("WTH_2021.py.pgn");
    let reader = BufReader::with_capacity(7, text.as_bytes());
    let streamed: Vec<ParsedGame> = rgn::read(Box::new(reader), &ReadOptions::default())
        .map(|g| g.unwrap())
        .collect();
    let whole = rgn::parse_str(&text, "x");
    assert_eq!(streamed.len(), whole.len());
    for (a, b) in streamed.iter().zip(&whole) {
        assert_eq!(a.index, b.index);
        assert_eq!(a.source.offset, b.source.offset);
        assert_eq!(a.source.line, b.source.line);
        assert_eq!(a.record, b.record);
    }
    let second = &whole[1].source;
    assert_eq!(
        second.line,
        text.lines()
            .position(|l| l == "[Event \"Beijing Open - 2021\"]")
            .unwrap()
    );
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/rgn/valid", "*.*", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let games = rgn::parse_str(&text, "fixture");
        assert!(!games.is_empty());
        let mut snap = String::new();
        for g in &games {
            if let Some(d) = g.diagnostics.first() {
                panic!("{}", render_plain(d, &g.source));
            }
            let r = g.record.as_ref().unwrap();
            snap.push_str(&format!("## game {}\n", g.index));
            snap.push_str(&serde_json::to_string_pretty(r).unwrap());
            snap.push('\n');
        }
        check_spans(&games, &text);
        if path.extension().is_some_and(|e| e == "rgn") {
            let records: Vec<Record> = games.into_iter().filter_map(|g| g.record).collect();
            assert_eq!(
                write_all(&records),
                text,
                "canonical fixtures write back unchanged"
            );
        }
        insta::assert_snapshot!(snap);
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/rgn/invalid", "*.rgn", |path| {
        let text = std::fs::read_to_string(path).unwrap();
        let games = rgn::parse_str(&text, "fixture.rgn");
        assert!(games
            .iter()
            .any(|g| g.diagnostics.iter().any(|d| d.is_error())));
        let mut snap = String::new();
        for g in &games {
            let errors = g.diagnostics.iter().any(|d| d.is_error());
            assert_eq!(
                g.record.is_none(),
                errors,
                "a game has a record unless it has errors"
            );
            snap.push_str(&format!(
                "## game {} ({})\n",
                g.index,
                if errors { "no record" } else { "read" }
            ));
            for d in &g.diagnostics {
                assert_eq!(d.game, Some(g.index));
                assert!(
                    d.code.name().starts_with("syntax-") && d.span.is_some() && d.help.is_some()
                );
                snap.push_str(&render_plain(d, &g.source));
            }
        }
        insta::assert_snapshot!(snap);
    });
}

fn write_all(records: &[Record]) -> String {
    let mut out = Vec::new();
    {
        let mut w = rgn::writer(Box::new(&mut out), &Default::default());
        for r in records {
            w.write(r).unwrap();
        }
        w.finish().unwrap();
    }
    String::from_utf8(out).unwrap()
}

fn spec_examples() -> Vec<String> {
    let spec =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/spec/rgn.md")).unwrap();
    let mut blocks = Vec::new();
    let mut current: Option<String> = None;
    for line in spec.lines() {
        match (&mut current, line) {
            (None, "```rgn") => current = Some(String::new()),
            (Some(_), "```") => blocks.push(current.take().unwrap()),
            (Some(block), _) => {
                block.push_str(line);
                block.push('\n');
            }
            (None, _) => {}
        }
    }
    blocks
}

#[test]
fn spec_examples_are_clean_and_canonical() {
    let blocks = spec_examples();
    assert!(blocks.len() >= 16, "found {} examples", blocks.len());
    for block in &blocks {
        let records = clean(block);
        assert_eq!(records.len(), 1);
        assert_eq!(&rgn::to_string(&records[0]).unwrap(), block);
    }
}

#[test]
fn every_spec_example_is_a_valid_fixture() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/rgn/valid");
    let fixtures: Vec<String> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| std::fs::read_to_string(e.unwrap().path()).unwrap())
        .collect();
    for block in spec_examples() {
        assert!(fixtures.contains(&block), "no fixture holds\n{block}");
    }
}

/// Replays `record` with the engine: every move legal (omitted passes inferred), every
/// flip and board claim true, a finished game's disc counts right; returns whether the
/// game is over.
fn replay(record: &Record) -> Result<bool, String> {
    let mut pos = match &record.start {
        Some(s) => Position::from_setup(record.rules, s.setup).map_err(|e| e.to_string())?,
        None => Position::new(record.rules),
    };
    let check_claims = |pos: &Position, after: usize| -> Result<(), String> {
        for c in record.positions.iter().filter(|c| c.after_moves == after) {
            if c.setup != pos.setup() {
                return Err(format!("board claim after move {after} is wrong"));
            }
        }
        Ok(())
    };
    check_claims(&pos, 0)?;
    for (i, m) in record.moves.iter().enumerate() {
        if m.mv != Move::Pass && pos.must_pass() {
            pos.play(Move::Pass).map_err(|e| e.to_string())?;
        }
        let flipped = pos
            .play_with_flips(m.mv)
            .map_err(|e| format!("move {}: {e}", i + 1))?;
        if let Some(f) = &m.flips {
            if f.squares.is_some_and(|s| s != flipped)
                || f.count.is_some_and(|n| n as usize != flipped.len())
            {
                return Err(format!("flip claim of move {} is wrong", i + 1));
            }
        }
        check_claims(&pos, i + 1)?;
    }
    if let (Some(ResultScore::Discs(d)), Some(outcome)) =
        (record.result.as_ref().map(|r| &r.score), pos.outcome())
    {
        if d[..] != outcome.score[..record.rules.players() as usize] {
            return Err(format!(
                "result {d:?} but the board gives {:?}",
                outcome.score
            ));
        }
    }
    Ok(pos.is_over())
}

#[test]
fn spec_examples_are_legal_games() {
    for block in spec_examples() {
        let record = &clean(&block)[0];
        match replay(record) {
            Ok(over) => {
                let discs = record
                    .result
                    .as_ref()
                    .is_some_and(|r| matches!(r.score, ResultScore::Discs(_)));
                assert!(over || !discs, "disc counts of an unfinished game\n{block}");
            }
            Err(e) => panic!("{e}\n{block}"),
        }
    }
    for dialect in ["thor", "playok", "edax"] {
        let path = format!(
            "{}/fixtures/rgn/valid/pgn_{dialect}.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        for record in clean(&std::fs::read_to_string(path).unwrap()) {
            replay(&record).unwrap();
        }
    }
}

#[test]
fn a_broken_game_does_not_hide_the_next_errors() {
    let text = "[Result \"*\"]\n\n1. f5 x1 2. c3 f5( {a}\n\n[Event \"ok\"]\n\n1. f5\n";
    let games = rgn::parse_str(text, "t");
    assert_eq!(games.len(), 2);
    let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["syntax-bad-move", "syntax-bad-flip-claim"]);
    assert!(games[0].record.is_none());
    assert!(games[1].diagnostics.is_empty() && games[1].record.is_some());
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn write_then_parse_is_identity(record in common::arb_record()) {
        let text = rgn::to_string(&record).unwrap();
        let back = clean(&text);
        prop_assert_eq!(back.len(), 1);
        prop_assert_eq!(common::without_spans(&back[0]), common::without_spans(&record), "{}", text);
        prop_assert_eq!(rgn::to_string(&back[0]).unwrap(), text);
    }

    #[test]
    fn files_of_several_games_round_trip(records in proptest::collection::vec(common::arb_record(), 1..5)) {
        let text = write_all(&records);
        let back = clean(&text);
        let expected: Vec<Record> = records.iter().map(common::without_spans).collect();
        let got: Vec<Record> = back.iter().map(common::without_spans).collect();
        prop_assert_eq!(got, expected, "{}", text);
        prop_assert_eq!(write_all(&back), text);
    }

    #[test]
    fn any_text_parses_without_panicking(text in "(\\PC|\n|\\[|\\]|\\{|\\}|<|>|\\(|\\)|\"|\\\\|[0-9a-j.: -])*") {
        for g in rgn::parse_str(&text, "fuzz") {
            prop_assert_eq!(g.record.is_none(), g.diagnostics.iter().any(|d| d.is_error()));
        }
    }
}

#[test]
fn a_free_tag_named_fen_is_written_only_where_it_reads_back_as_a_tag() {
    // The reader takes `FEN` (any case) for the start position unless a Start tag is
    // given; it then keeps it as `FEN`, after the other tags.
    let mut record = Record::new(reversi_engine::Rules::default());
    record.tags.push(reversi_formats::record::Tag {
        name: "FeN".into(),
        value: "x".into(),
        span: None,
    });
    let refused = rgn::to_string(&record).unwrap_err();
    assert_eq!(
        refused,
        ["a free tag named `FeN`, which RGN reads as the start position"]
    );
    let with_start = clean(
        "[Start \"..../.OX./.XO./.... X\"]\n[Rules \"othello:4x4\"]\n[FEN \"kept\"]\n\n1. a2\n",
    )
    .remove(0);
    assert_eq!(with_start.tag("FEN"), Some("kept"));
    let text = rgn::to_string(&with_start).unwrap();
    let back = clean(&text).remove(0);
    assert_eq!(
        common::without_spans(&back),
        common::without_spans(&with_start)
    );
}
