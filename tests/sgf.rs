//! SGF (GM[2]) reader and writer: fixtures, the Edax layout, round trips.

use std::io::{self, BufRead};

use proptest::prelude::*;
use reversi_engine::{BoardShape, Color, Move, Position, Rules, Square};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{
    ClaimedResult, MoveRecord, Record, ResultScore, StartPosition, Tag, Termination,
};
use reversi_formats::{ggf, Format, ParsedGame, ReadOptions, WriteError, WriteOptions};

fn read_bytes(bytes: Vec<u8>) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "test.sgf".into(),
        ..ReadOptions::default()
    };
    Format::Sgf
        .read_bytes(bytes, &options)
        .expect("reading from memory cannot fail")
}

fn write(records: &[Record], lossy: bool) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let (buf, lost) = Format::Sgf.write_bytes(records, &options)?;
    Ok((String::from_utf8(buf).expect("SGF output is UTF-8"), lost))
}

/// The record with its spans forgotten (`Record::without_spans`).
fn strip(r: Record) -> Record {
    r.without_spans()
}

fn records(games: &[ParsedGame]) -> Vec<Record> {
    games
        .iter()
        .map(|g| strip(g.record.clone().expect("game has a record")))
        .collect()
}

fn dump(games: &[ParsedGame]) -> String {
    let mut out = String::new();
    for g in games {
        out.push_str(&format!("## Game {}\n", g.index));
        match &g.record {
            Some(r) => {
                out.push_str(&serde_json::to_string_pretty(r).unwrap());
                out.push('\n');
            }
            None => out.push_str("(no record)\n"),
        }
        for d in &g.diagnostics {
            assert_eq!(d.game, Some(g.index));
            if let Some(span) = d.span {
                assert!(span.offset >= g.source.offset);
                assert!(span.end() <= g.source.offset + g.source.text.len());
            }
            out.push_str(&render_plain(d, &g.source));
        }
    }
    out
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/sgf", "valid/*.sgf", |path| {
        let games = read_bytes(std::fs::read(path).unwrap());
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
            let r = g.record.clone().expect("valid games have records");
            let (text, lost) = write(std::slice::from_ref(&r), false).expect("SGF holds it");
            assert!(lost.is_empty());
            let again = read_bytes(text.into_bytes());
            assert!(
                again[0].diagnostics.is_empty(),
                "{:?}",
                again[0].diagnostics
            );
            assert_eq!(records(&again), vec![strip(r)]);
        }
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/sgf", "invalid/*.sgf", |path| {
        let games = read_bytes(std::fs::read(path).unwrap());
        assert!(games.iter().any(|g| !g.diagnostics.is_empty()));
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn edax_sample_replays() {
    let games = read_bytes(
        std::fs::read(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/fixtures/sgf/valid/edax.sgf"
        ))
        .unwrap(),
    );
    let r = games[0].record.as_ref().unwrap();
    assert_eq!(r.start, None, "Edax's explicit start is the standard one");
    assert_eq!(r.tag("Black"), Some("?"));
    assert_eq!(r.tag("AP"), Some("edax:4.6"));
    assert_eq!(r.moves.len(), 7);
    assert_eq!(r.moves[5].mv, Move::Pass);
    assert_eq!(r.result.as_ref().unwrap().score, ResultScore::Margin(4.0));
    let mut pos = Position::new(r.rules);
    for m in &r.moves[..4] {
        assert_eq!(m.color, Some(pos.turn()));
        pos.play(m.mv).unwrap();
    }
}

#[test]
fn writes_the_edax_layout() {
    let mut r = Record::new(Rules::default());
    r.tags.push(Tag::new("Black", "Edax"));
    for (i, sq) in ["f5", "d6", "c3"].iter().enumerate() {
        let mut m = MoveRecord::new(Move::Place(sq.parse().unwrap()));
        if i == 1 {
            m.comment = Some("a [note] \\ here".into());
        }
        r.moves.push(m);
    }
    r.result = Some(ClaimedResult::discs(vec![40, 24]));
    let (text, lost) = write(&[r], false).unwrap();
    assert!(lost.is_empty());
    assert_eq!(
        text,
        "(;FF[4]GM[2]SZ[8]CA[UTF-8]PB[Edax]AB[e4][d5]AW[d4][e5]PL[B]RE[B+16]\n;B[f5];W[d6]C[a [note\\] \\\\ here];B[c3]\n)\n"
    );
}

#[test]
fn writer_refuses_what_sgf_cannot_hold() {
    let mut r = Record::new("anti:octagon".parse().unwrap());
    r.tags.push(Tag::new("TimeControl", "5 min"));
    let mut m = MoveRecord::new(Move::Pass);
    m.eval = Some(1.0);
    r.moves.push(m);
    match write(std::slice::from_ref(&r), false) {
        Err(WriteError::ChangesMeaning(what)) => assert_eq!(
            what,
            [
                "an octagon board (it holds 4x4, 6x6, 8x8 and 10x10)",
                "anti-reversi (fewest discs win)"
            ],
            "only what changes the game's meaning is named"
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    // The octagon and anti change what the moves mean: refused even when lossy.
    assert!(matches!(
        write(std::slice::from_ref(&r), true),
        Err(WriteError::ChangesMeaning(_))
    ));
    r.rules = "othello:10x10".parse().unwrap();
    let (text, lost) = write(&[r], true).unwrap();
    assert_eq!(lost, ["an evaluation on move 1", "the tag `TimeControl`"]);
    assert!(text.contains("SZ[10]"));
}

#[test]
fn ggf_games_convert_to_sgf() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ggf/nboard_test2.ggf");
    let bytes = std::fs::read(path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(bytes));
    let games: Vec<_> = ggf::read(input, &ReadOptions::default())
        .collect::<io::Result<_>>()
        .unwrap();
    let small = strip(games[0].record.clone().unwrap());
    // GGF evals and times do not fit SGF: refused, then written lossily.
    assert!(write(std::slice::from_ref(&small), false).is_err());
    let (text, lost) = write(std::slice::from_ref(&small), true).unwrap();
    assert_eq!(
        lost,
        ["13 times (on moves 1 to 13)", "the tag `TimeControl`"]
    );
    assert!(text.contains("SZ[4]"));
    assert!(text.contains(";B[PA]"));
    assert!(text.contains("RE[W+2]"));
    let back = records(&read_bytes(text.into_bytes()));
    let moves = |r: &Record| r.moves.iter().map(|m| (m.mv, m.color)).collect::<Vec<_>>();
    assert_eq!(moves(&back[0]), moves(&small));
    assert_eq!(back[0].rules, small.rules);
}

// ---------------------------------------------------------------------------------------
// Round trip of generated records

#[derive(Clone, Debug)]
struct Spec {
    board: usize,
    extra: Vec<(u8, bool)>,
    white_first: bool,
    choices: Vec<u16>,
    comments: Vec<Option<String>>,
    result: (u8, i32),
    tags: Vec<(usize, String)>,
    comment: Option<String>,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        (0..4usize, any::<bool>()),
        prop::collection::vec((0..100u8, any::<bool>()), 0..6),
        prop::collection::vec(any::<u16>(), 0..100),
        prop::collection::vec(
            prop::option::weighted(0.1, "[a-z \\]\\\\\n;()\\[]{0,12}"),
            0..100,
        ),
        (0..8u8, -512..512i32),
        prop::collection::vec((0..8usize, "[A-Za-z0-9 .\\]\\\\-]{0,10}"), 0..5),
        prop::option::of("[a-z \\]\\\\]{0,20}"),
    )
        .prop_map(
            |((board, white_first), extra, choices, comments, result, tags, comment)| Spec {
                board,
                extra,
                white_first,
                choices,
                comments,
                result,
                tags,
                comment,
            },
        )
}

const TAG_NAMES: [&str; 8] = [
    "Event", "Site", "Date", "Round", "Black", "White", "BlackElo", "GN",
];

fn build(spec: &Spec) -> Record {
    let board = [
        BoardShape::Four,
        BoardShape::Six,
        BoardShape::Eight,
        BoardShape::Ten,
    ][spec.board];
    let rules = Rules::othello(board);
    let mut record = Record::new(rules);
    let mut setup = record.start_setup();
    for &(index, black) in &spec.extra {
        let Some(sq) = Square::from_index(index) else {
            continue;
        };
        if board.contains(sq) && !setup.discs[0].contains(sq) && !setup.discs[1].contains(sq) {
            setup.discs[usize::from(!black)].insert(sq);
        }
    }
    if spec.white_first {
        setup.turn = Color::White;
    }
    if setup != record.start_setup() {
        record.start = Some(StartPosition {
            setup,
            in_hand: None,
            span: None,
        });
    }
    let mut pos = Position::from_setup(rules, setup).unwrap();
    for (i, &choice) in spec.choices.iter().enumerate() {
        if pos.is_over() {
            break;
        }
        let mv = if pos.must_pass() {
            Move::Pass
        } else {
            let legal: Vec<Square> = pos.legal_moves().iter().collect();
            Move::Place(legal[usize::from(choice) % legal.len()])
        };
        let mut m = MoveRecord::new(mv);
        m.color = Some(pos.turn());
        m.comment = spec.comments.get(i).cloned().flatten();
        pos.play(mv).unwrap();
        record.moves.push(m);
    }
    let (kind, n) = spec.result;
    let m = f64::from(n) / 2.0;
    let winner = if n >= 0 { Color::Black } else { Color::White };
    let (score, termination) = match kind {
        0 => (ResultScore::None, Termination::Unfinished),
        1 => (
            ResultScore::Winner(Some(winner)),
            Termination::Resignation(Some(winner.next(2))),
        ),
        2 => (
            ResultScore::Winner(Some(winner)),
            Termination::Time(Some(winner.next(2))),
        ),
        3 => (ResultScore::Winner(Some(winner)), Termination::Normal),
        4 => (ResultScore::Winner(None), Termination::Normal),
        _ => (ResultScore::Margin(m), Termination::Normal),
    };
    record.result = Some(ClaimedResult {
        score,
        termination,
        span: None,
    });
    // One tag per name, in any order.
    let mut used = Vec::new();
    for (k, value) in &spec.tags {
        if !used.contains(k) {
            used.push(*k);
            record.tags.push(Tag::new(TAG_NAMES[*k], value.clone()));
        }
    }
    record.comment = spec.comment.clone();
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn model_sgf_model(specs in prop::collection::vec(spec(), 1..4)) {
        let records: Vec<Record> = specs.iter().map(build).collect();
        let (text, lost) = write(&records, false).unwrap();
        prop_assert!(lost.is_empty());
        let games = read_bytes(text.into_bytes());
        for g in &games {
            prop_assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
        }
        prop_assert_eq!(self::records(&games), records);
    }

    #[test]
    fn reader_never_panics(bytes in prop::collection::vec(
        prop::sample::select(b"(;)[]\\BWCSZGM2PAf5tt \n".to_vec()), 0..200)) {
        let games = read_bytes(bytes);
        for g in &games {
            for d in &g.diagnostics {
                if let Some(span) = d.span {
                    prop_assert!(span.end() <= g.source.offset + g.source.text.len());
                }
            }
        }
    }
}
