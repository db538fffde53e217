//! GGF reader and writer: real GGS files, fixtures, round trips.

use proptest::prelude::*;
use reversi_engine::Preset;
use reversi_engine::{BoardShape, Color, Move, Position, Rules, Square};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{
    ClaimedResult, MoveRecord, Record, ResultScore, StartPosition, Tag, Termination,
};
use reversi_formats::{Format, ParsedGame, ReadOptions, WriteError, WriteOptions};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/ggf/");

fn read_bytes(bytes: Vec<u8>) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "test.ggf".into(),
        ..ReadOptions::default()
    };
    Format::Ggf
        .read_bytes(bytes, &options)
        .expect("reading from memory cannot fail")
}

/// The games of a file of the repository's real data (`data/ggf`, see `data/SOURCES.md`);
/// a missing file fails the test.
fn read_data(name: &str) -> Vec<ParsedGame> {
    match std::fs::read(format!("{DATA}{name}")) {
        Ok(bytes) => read_bytes(bytes),
        Err(e) => {
            panic!("{DATA}{name}: {e}: the real data is part of the repository (data/SOURCES.md)")
        }
    }
}

fn write(records: &[Record], lossy: bool) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let (buf, lost) = Format::Ggf.write_bytes(records, &options)?;
    Ok((String::from_utf8(buf).expect("GGF output is UTF-8"), lost))
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

/// Replays a record with the engine, checking every move and colour; returns the final
/// position.
fn replay(r: &Record) -> Position {
    let mut pos = Position::from_setup(r.rules, r.start_setup()).expect("start is valid");
    for (i, m) in r.moves.iter().enumerate() {
        assert_eq!(m.color, Some(pos.turn()), "colour of move {}", i + 1);
        pos.play(m.mv)
            .unwrap_or_else(|e| panic!("move {} ({}) is illegal: {e:?}", i + 1, m.mv));
    }
    pos
}

fn margin(r: &Record) -> f64 {
    match r.result.as_ref().map(|x| &x.score) {
        Some(ResultScore::Margin(m)) => *m,
        other => panic!("expected a margin, found {other:?}"),
    }
}

#[test]
fn nboard_test_reads_and_replays() {
    let games = read_data("nboard_test.ggf");
    assert_eq!(games.len(), 1);
    assert!(
        games[0].diagnostics.is_empty(),
        "{:?}",
        games[0].diagnostics
    );
    let r = games[0].record.as_ref().unwrap();
    assert_eq!(r.rules, Rules::default());
    assert_eq!(r.start, None);
    assert_eq!(r.tag("Black"), Some("Saio1200"));
    assert_eq!(r.tag("WhiteElo"), Some("2200.35"));
    assert_eq!(r.tag("Date"), Some("2003.12.15_12:33:18.MST"));
    assert_eq!(r.tag("TimeControl"), Some("05:00//02:00"));
    assert_eq!(r.moves.len(), 60);
    assert_eq!(r.moves[0].mv, Move::Place("d3".parse().unwrap()));
    assert_eq!((r.moves[0].eval, r.moves[0].time), (None, Some(0.01)));
    assert_eq!(r.moves[7].color, Some(Color::White));
    assert_eq!((r.moves[7].eval, r.moves[7].time), (Some(2.39), Some(0.01)));
    let pos = replay(r);
    assert!(pos.is_over());
    assert_eq!(pos.counts_outcome().margin() as f64, margin(r));
    assert!(
        games[0].source.text.starts_with("1 (;GM[Othello]"),
        "the count prefix is part of the source"
    );
}

#[test]
fn nboard_test2_reads_4x4_and_komi_games() {
    let games = read_data("nboard_test2.ggf");
    assert_eq!(games.len(), 3);
    for g in &games {
        assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
    }
    let small = games[0].record.as_ref().unwrap();
    assert_eq!(small.rules.board(), BoardShape::Four);
    assert_eq!(small.moves.len(), 13);
    assert_eq!(small.moves[10].mv, Move::Pass);
    assert_eq!(small.moves[10].time, Some(4.23));
    assert_eq!(small.tag("Date"), Some("947375357"));
    let pos = replay(small);
    assert!(pos.is_over());
    assert_eq!(pos.counts_outcome().margin() as f64, margin(small));

    let komi = games[1].record.as_ref().unwrap();
    assert_eq!(komi.tag("GgfType"), Some("8kr20"));
    assert_eq!(komi.tag("Komi"), Some("-3.133"));
    assert_eq!(komi.tag("BlackKomiBid"), Some("B3/2.00/27.23"));
    assert_eq!(komi.tag("WhiteKomiBid"), Some("B3/-8.27"));
    let start = komi.start.as_ref().expect("a random start");
    assert_eq!(start.setup.discs[0].len() + start.setup.discs[1].len(), 20);
    assert_eq!(margin(komi), -22.87);
    let pos = replay(komi);
    assert!(pos.is_over());
    // RE is Black's net minus komi (GGS rounds to 2 decimals).
    let net = pos.counts_outcome().margin() as f64;
    assert!((net - -3.133 - margin(komi)).abs() < 0.01, "net {net}");

    let third = games[2].record.as_ref().unwrap();
    assert_eq!(third.moves.len(), 60);
    replay(third);
}

#[test]
fn novello_games_read_and_replay() {
    let games = read_data("novello_TestGames.ggf");
    assert_eq!(games.len(), 12);
    let mut passes = 0;
    for g in &games {
        assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
        let r = g.record.as_ref().unwrap();
        passes += r.moves.iter().filter(|m| m.mv == Move::Pass).count();
        let pos = replay(r);
        assert!(pos.is_over(), "game {} is finished", g.index);
        assert_eq!(
            pos.counts_outcome().margin() as f64,
            margin(r),
            "game {}",
            g.index
        );
    }
    assert!(passes >= 2, "the file has both `pass` and `PA` passes");
    let wins = games
        .iter()
        .filter(|g| margin(g.record.as_ref().unwrap()) == 2.0)
        .count();
    assert_eq!(wins, 1);
    assert_eq!(
        games[0].record.as_ref().unwrap().tag("Black"),
        Some("Saio1200")
    );
}

#[test]
fn real_files_round_trip() {
    for name in [
        "nboard_test.ggf",
        "nboard_test2.ggf",
        "novello_TestGames.ggf",
    ] {
        let games = read_data(name);
        let first = records(&games);
        let (text, lost) = write(&first, false).expect("GGF holds what it read");
        assert!(lost.is_empty());
        assert_eq!(text.lines().count(), first.len());
        let again = read_bytes(text.into_bytes());
        for g in &again {
            assert!(g.diagnostics.is_empty(), "{name}: {:?}", g.diagnostics);
        }
        assert_eq!(records(&again), first, "{name}");
    }
}

#[test]
fn nboard_test_writes_in_ggs_order() {
    let games = read_data("nboard_test.ggf");
    let (text, _) = write(&records(&games), false).unwrap();
    assert!(text.starts_with(
        "(;GM[Othello]PC[GGS/os]DT[2003.12.15_12:33:18.MST]PB[Saio1200]PW[Saio3000]RB[2196.37]RW[2200.35]TI[05:00//02:00]TY[8]RE[+0.000]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[d3//0.01]W[c5//0.01]"
    ), "{text}");
    assert!(text.contains("W[d2/2.39/0.01]"));
    assert!(text.ends_with("W[h8//0.01];)\n"));
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
    insta::glob!("../fixtures/ggf", "valid/*.ggf", |path| {
        let games = read_bytes(std::fs::read(path).unwrap());
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
            let r = g.record.clone().expect("valid games have records");
            // Every valid fixture survives a round trip.
            let (text, lost) = write(std::slice::from_ref(&r), false).expect("GGF holds it");
            assert!(lost.is_empty());
            assert_eq!(records(&read_bytes(text.into_bytes())), vec![strip(r)]);
        }
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/ggf", "invalid/*.ggf", |path| {
        let games = read_bytes(std::fs::read(path).unwrap());
        assert!(games.iter().any(|g| !g.diagnostics.is_empty()));
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn writer_refuses_or_reports() {
    let mut r = Record::new(Rules::default());
    r.tags.push(Tag::new("Event", "Open"));
    r.tags.push(Tag::new("Black", "a]b"));
    r.comment = Some("a new game (; starts here".into());
    r.result = Some(ClaimedResult {
        score: ResultScore::Winner(Some(Color::Black)),
        termination: Termination::Normal,
        span: None,
    });
    match write(std::slice::from_ref(&r), false) {
        Err(WriteError::CannotHold(what)) => assert_eq!(
            what,
            [
                "a `]` in the tag `Black`",
                "a result that names only the winner",
                "a `(;` in the game comment",
                "the tag `Event`"
            ]
        ),
        other => panic!("expected a refusal, got {other:?}"),
    }
    let (text, lost) = write(std::slice::from_ref(&r), true).unwrap();
    assert_eq!(lost.len(), 4);
    assert!(text.contains("PB[a)b]"));
    assert_eq!(
        read_bytes(text.into_bytes()).len(),
        1,
        "the comment does not split the game"
    );
    // Rules that change what the moves mean are refused even when lossy, and only they
    // are named: the droppable `Event` tag is not.
    for (rules, why) in [
        ("multi3", "3 players (it holds 2)"),
        ("free", "a free opening"),
        ("classic", "a limited disc supply (classic reversi)"),
        ("othello,blocked=a1", "blocked squares"),
        ("othello,handicap=white:1", "a corner handicap"),
        (
            "othello,scoring=raw",
            "raw scoring (empties not given to the winner)",
        ),
    ] {
        let mut r = r.clone();
        r.rules = rules.parse().unwrap();
        match write(&[r], true) {
            Err(WriteError::ChangesMeaning(what)) => assert_eq!(what, [why], "{rules}"),
            other => panic!("{rules}: expected a refusal, got {other:?}"),
        }
    }
}

#[test]
fn writer_converts_disc_counts_and_inserts_passes() {
    // 4x4: a game where White must pass, written without passes or colours (as WTHOR would).
    let rules: Rules = "othello:4x4".parse().unwrap();
    let games = read_data("nboard_test2.ggf");
    let mut r = strip(games[0].record.clone().unwrap());
    assert_eq!(r.rules, rules);
    let with_passes = r.clone();
    r.moves.retain(|m| m.mv != Move::Pass);
    for m in &mut r.moves {
        m.color = None;
    }
    r.result = Some(ClaimedResult::discs(vec![7, 9]));
    let (text, lost) = write(&[r], false).unwrap();
    assert!(lost.is_empty());
    assert!(text.contains("RE[-2.000]"), "{text}");
    assert!(
        text.contains("B[PA//4.23]") || text.contains("B[PA]"),
        "{text}"
    );
    let back = records(&read_bytes(text.into_bytes()));
    let moves: Vec<_> = back[0].moves.iter().map(|m| (m.mv, m.color)).collect();
    let expected: Vec<_> = with_passes.moves.iter().map(|m| (m.mv, m.color)).collect();
    assert_eq!(moves, expected);
}

// ---------------------------------------------------------------------------------------
// Round trip of generated records

#[derive(Clone, Debug)]
struct Spec {
    board: usize,
    anti: bool,
    extra: Vec<(u8, bool)>,
    white_first: bool,
    choices: Vec<u16>,
    evals: Vec<Option<i32>>,
    result: (u8, i32),
    names: (String, String),
    comment: Option<String>,
    type_flags: (u8, Option<u8>),
    more_tags: bool,
}

fn spec() -> impl Strategy<Value = Spec> {
    (
        (0..5usize, any::<bool>()),
        (
            prop::collection::vec((0..100u8, any::<bool>()), 0..6),
            any::<bool>(),
        ),
        prop::collection::vec(any::<u16>(), 0..100),
        prop::collection::vec(prop::option::of(-6400..6400i32), 0..100),
        (0..6u8, -512..512i32),
        ("[A-Za-z0-9+_. -]{0,10}", "[A-Za-z0-9+_. -]{0,10}"),
        prop::option::of("[a-z ;:)*]{0,20}"),
        ((0..5u8, prop::option::of(4..40u8)), any::<bool>()),
    )
        .prop_map(
            |(
                (board, anti),
                (extra, white_first),
                choices,
                evals,
                result,
                names,
                comment,
                (type_flags, more_tags),
            )| Spec {
                type_flags,
                more_tags,
                board,
                anti,
                extra,
                white_first,
                choices,
                evals,
                result,
                names,
                comment,
            },
        )
}

fn build(spec: &Spec) -> Record {
    let board = BoardShape::ALL[spec.board];
    let preset = if spec.anti {
        Preset::Anti
    } else {
        Preset::Othello
    };
    let rules = Rules::preset(preset, board).unwrap();
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
        let e = spec.evals.get(i).copied().flatten();
        m.eval = e.map(|e| f64::from(e) / 100.0);
        m.time = e.filter(|e| e % 3 == 0).map(|e| f64::from(e.abs()) / 100.0);
        pos.play(mv).unwrap();
        record.moves.push(m);
    }
    let (kind, n) = spec.result;
    let m = f64::from(n) / 8.0;
    let (score, termination) = match kind {
        0 => (ResultScore::None, Termination::Unfinished),
        1 => (ResultScore::Margin(m), Termination::Resignation(None)),
        2 => (ResultScore::Margin(m), Termination::Time(None)),
        3 => (ResultScore::Margin(m), Termination::Agreement),
        4 => (ResultScore::Margin(m), Termination::Unfinished),
        _ => (ResultScore::Margin(m), Termination::Normal),
    };
    record.result = Some(ClaimedResult {
        score,
        termination,
        span: None,
    });
    // A TY beyond the rules (synchro, komi, colour, random discs) is kept in `GgfType`.
    let (flag, random) = spec.type_flags;
    let board_token = ["4", "6", "8", "10", "88"][spec.board];
    let flag = ["", "s", "k", "b", "w"][usize::from(flag)];
    let anti = if spec.anti { "a" } else { "" };
    let random = random.map(|n| format!("r{n}")).unwrap_or_default();
    if !flag.is_empty() || !random.is_empty() {
        record.tags.push(Tag::new(
            "GgfType",
            format!("{flag}{board_token}{anti}{random}"),
        ));
    }
    record.tags.push(Tag::new("Site", "GGS/os"));
    if spec.more_tags {
        record.tags.push(Tag::new("Date", "947375357"));
    }
    record.tags.push(Tag::new("Black", spec.names.0.clone()));
    record.tags.push(Tag::new("White", spec.names.1.clone()));
    if spec.more_tags {
        record.tags.push(Tag::new("BlackElo", "1720"));
        record.tags.push(Tag::new("TimeControl", "15:00//02:00"));
        record.tags.push(Tag::new("WhiteTimeControl", "10:00"));
        record.tags.push(Tag::new("BlackKomiBid", "B3/2.00/27.23"));
        record.tags.push(Tag::new("Komi", "-3.133"));
    }
    record.tags.push(Tag::new("ZZ", "an unknown property"));
    record.comment = spec.comment.clone();
    record
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn model_ggf_model(specs in prop::collection::vec(spec(), 1..4)) {
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
        prop::sample::select(b"(;)[]BWTYRE8-*O/.: pa1\n2d0".to_vec()), 0..200)) {
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

#[test]
fn komi_bids_read_with_the_move_grammar_and_round_trip_unchanged() {
    // As GGS archives write them: move, empty eval, time; or any part empty.
    let text = "(;GM[Othello]PB[x]PW[y]TY[8k]KB[e6//0.90]KW[/-1.00/]KM[0.5]RE[+3.500]B[f5];)\n";
    let games = read_bytes(text.as_bytes().to_vec());
    assert!(
        games[0].diagnostics.is_empty(),
        "{:?}",
        games[0].diagnostics
    );
    let record = games[0].record.clone().unwrap();
    assert_eq!(record.tag("BlackKomiBid"), Some("e6//0.90"));
    assert_eq!(record.tag("WhiteKomiBid"), Some("/-1.00/"));
    let (written, lost) = write(&[record], false).unwrap();
    assert!(lost.is_empty(), "{lost:?}");
    assert!(
        written.contains("KB[e6//0.90]KW[/-1.00/]"),
        "written back unchanged: {written}"
    );
    // Not a move, or four parts: refused with the grammar in the help.
    for bad in ["KB[zz/1]", "KB[e6/1/2/3]", "KB[e6/x]"] {
        let games = read_bytes(format!("(;GM[Othello]TY[8]{bad}B[f5];)").into_bytes());
        let d = &games[0].diagnostics[0];
        assert_eq!(d.code.name(), "ggf-bad-move", "{bad}");
        assert!(d.help.as_deref().unwrap_or("").contains("KB[e6//0.90]"));
    }
}

#[test]
fn rules_given_to_the_reader_apply_to_games_without_ty() {
    let options = ReadOptions {
        name: "test.ggf".into(),
        rules: Some("anti".parse().unwrap()),
        ..ReadOptions::default()
    };
    let text = "(;GM[Othello]B[f5];)\n(;GM[Othello]TY[8]B[f5];)\n";
    let games = Format::Ggf.read_bytes(text, &options).unwrap();
    let rules: Vec<String> = games
        .iter()
        .map(|g| g.record.as_ref().unwrap().rules.to_string())
        .collect();
    assert_eq!(rules, ["anti", "othello"], "a game with TY keeps its rules");
}
