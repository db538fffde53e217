//! The JSON format: fixtures, a round trip on generated records, streaming.

mod common;

use std::fmt::Write as _;
use std::io::{BufReader, Read};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;

use proptest::prelude::*;
use reversi_engine::{Color, Move, Position, Rules};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{
    ClaimedResult, FlipClaim, MoveRecord, PositionClaim, Record, ResultScore, StartPosition, Tag,
    Termination,
};
use reversi_formats::{json, ParsedGame, ReadOptions, WriteOptions};

/// The record without its span, to compare with records built in memory (an `Option<Span>`
/// compares `Some` and `None` as different).
fn plain(record: Option<&Record>) -> Option<Record> {
    record.map(|r| Record {
        span: None,
        ..r.clone()
    })
}

fn read_bytes(bytes: Vec<u8>, name: &str) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: name.into(),
        ..ReadOptions::default()
    };
    json::read(Box::new(std::io::Cursor::new(bytes)), &options)
        .map(|g| g.expect("reading from memory cannot fail"))
        .collect()
}

fn write(records: &[Record], dialect: Option<&str>) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let options = WriteOptions {
            dialect: dialect.map(str::to_owned),
            ..WriteOptions::default()
        };
        let mut w = json::writer(Box::new(&mut out), &options);
        for r in records {
            assert!(w.write(r).unwrap().is_empty());
        }
        w.finish().unwrap();
    }
    out
}

/// The readable dump snapshots pin: each entry's place, record and rendered diagnostics.
fn dump(games: &[ParsedGame], pretty: bool) -> String {
    let mut out = String::new();
    for g in games {
        let _ = writeln!(
            out,
            "## entry {} (line {}, byte {}, {} bytes)",
            g.index,
            g.source.line + 1,
            g.source.offset,
            g.source.text.len()
        );
        match &g.record {
            Some(r) if pretty => {
                out.push_str(&serde_json::to_string_pretty(r).unwrap());
                out.push('\n');
            }
            Some(r) => {
                out.push_str(&serde_json::to_string(r).unwrap());
                out.push('\n');
            }
            None => out.push_str("(no record)\n"),
        }
        for d in &g.diagnostics {
            let _ = writeln!(out, "### {} {}", d.severity.name(), d.code.name());
            out.push_str(&render_plain(d, &g.source));
        }
    }
    out
}

/// Every span lies inside its entry's source text.
fn check_spans(games: &[ParsedGame]) {
    for g in games {
        let start = g.source.offset;
        let end = start + g.source.text.len();
        for d in &g.diagnostics {
            if let Some(s) = d.span {
                assert!(
                    s.offset >= start && s.end() <= end,
                    "{d:?} outside {start}..{end}"
                );
            }
            assert_eq!(d.game, (g.index > 0).then_some(g.index));
        }
    }
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/json/valid", "*.json*", |path| {
        let bytes = std::fs::read(path).unwrap();
        let games = read_bytes(bytes, &path.file_name().unwrap().to_string_lossy());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{}", dump(&games, false));
            assert!(g.record.is_some());
        }
        let indexes: Vec<usize> = games.iter().map(|g| g.index).collect();
        assert_eq!(indexes, (1..=games.len()).collect::<Vec<_>>());
        // Writing what was read and reading it again gives the same records.
        let records: Vec<Record> = games.iter().filter_map(|g| g.record.clone()).collect();
        let again = read_bytes(write(&records, None), "again");
        let plain_all = |v: Vec<Record>| v.iter().map(|r| plain(Some(r))).collect::<Vec<_>>();
        assert_eq!(
            plain_all(again.into_iter().map(|g| g.record.unwrap()).collect()),
            plain_all(records)
        );
        insta::assert_snapshot!(dump(&games, true));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/json/invalid", "*.json*", |path| {
        let bytes = std::fs::read(path).unwrap();
        let games = read_bytes(bytes, &path.file_name().unwrap().to_string_lossy());
        assert!(games.iter().any(|g| !g.diagnostics.is_empty()));
        for g in &games {
            // A game without a record always says why; file entries (index 0) hold findings.
            if g.index == 0 {
                assert!(g.record.is_none() && !g.diagnostics.is_empty());
            } else {
                assert!(g.record.is_some() || g.diagnostics.iter().any(|d| d.is_error()));
            }
        }
        check_spans(&games);
        insta::assert_snapshot!(dump(&games, false));
    });
}

#[test]
fn an_empty_document_is_written_whole() {
    let text = String::from_utf8(write(&[], None)).unwrap();
    assert_eq!(
        text,
        "{\"format\": \"reversi-record\", \"version\": 2, \"games\": [\n]}\n"
    );
    assert!(read_bytes(text.into_bytes(), "x").is_empty());
    assert!(write(&[], Some("lines")).is_empty());
}

#[test]
fn unknown_dialects_and_non_finite_numbers_are_refused() {
    let mut out = Vec::new();
    let options = WriteOptions {
        dialect: Some("yaml".into()),
        ..WriteOptions::default()
    };
    let mut w = json::writer(Box::new(&mut out), &options);
    let err = w.write(&Record::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "expected a JSON dialect (document or lines), but found `yaml` instead"
    );
    drop(w);

    let mut record = Record::default();
    let mut mv = MoveRecord::new(Move::Place("f5".parse().unwrap()));
    mv.eval = Some(f64::NAN);
    record.moves.push(mv);
    record.result = Some(ClaimedResult {
        score: ResultScore::Margin(f64::INFINITY),
        termination: Termination::Normal,
        span: None,
    });
    let mut out = Vec::new();
    let mut w = json::writer(Box::new(&mut out), &WriteOptions::default());
    let err = w.write(&record).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the target format cannot hold a non-finite eval on move 1; a non-finite result margin"
    );
    drop(w);
    let mut out = Vec::new();
    let lossy = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    let mut w = json::writer(Box::new(&mut out), &lossy);
    assert_eq!(w.write(&record).unwrap().len(), 2);
    w.finish().unwrap();
    drop(w);
    let back = read_bytes(out, "x");
    let r = back[0].record.as_ref().unwrap();
    assert_eq!(r.moves[0].eval, None);
    assert_eq!(r.result.as_ref().unwrap().score, ResultScore::None);
}

/// A reader that counts the bytes taken from it.
struct Counting<R> {
    inner: R,
    taken: Arc<AtomicUsize>,
}

impl<R: Read> Read for Counting<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.taken.fetch_add(n, Ordering::SeqCst);
        Ok(n)
    }
}

#[test]
fn both_shapes_stream() {
    let records: Vec<Record> = (0..2000)
        .map(|i| {
            let mut r = Record::default();
            r.set_tag("Round", i.to_string());
            r.moves
                .push(MoveRecord::new(Move::Place("f5".parse().unwrap())));
            r
        })
        .collect();
    for dialect in [None, Some("lines")] {
        let bytes = write(&records, dialect);
        let total = bytes.len();
        let taken = Arc::new(AtomicUsize::new(0));
        let input = BufReader::with_capacity(
            1024,
            Counting {
                inner: std::io::Cursor::new(bytes),
                taken: taken.clone(),
            },
        );
        let mut games = json::read(Box::new(input), &ReadOptions::default());
        let first = games.next().unwrap().unwrap();
        assert_eq!(plain(first.record.as_ref()).as_ref(), Some(&records[0]));
        assert!(
            taken.load(Ordering::SeqCst) < 4096,
            "{dialect:?} read ahead"
        );
        assert_eq!(games.count(), records.len() - 1);
        assert_eq!(taken.load(Ordering::SeqCst), total);
    }
}

// ---------------------------------------------------------------------------------------
// Generated records

const RULES: &[&str] = &[
    "othello",
    "othello:6x6",
    "othello:4x4",
    "anti:10x10",
    "othello:octagon",
    "free",
    "classic",
    "multi3",
    "multi4:10x10",
    "othello,blocked=a1+h8",
    "othello,handicap=white:2",
    "othello,scoring=raw",
];

/// A small deterministic generator driven by one seed, so proptest can shrink the seed.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        // xorshift64*
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
    fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
    fn float(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64 * 128.0 - 64.0
    }
    fn text(&mut self) -> String {
        const PIECES: &[&str] = &[
            "Tastet",
            " ",
            "Marc",
            "Suède",
            "\"",
            "\\",
            "\n",
            "{",
            "}",
            "[",
            "é",
            "日本",
            // A tab: escaped by JSON; other control characters never reach a writer.
            "\t",
            "😀",
            "?",
            "-",
            "2004.??.??",
        ];
        (0..self.below(5))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }
}

/// A random legal game under one of [`RULES`], with random tags and claims.
fn generate(seed: u64) -> Record {
    let mut rng = Rng(seed | 1);
    let rules: Rules = RULES[rng.below(RULES.len())].parse().unwrap();
    let mut record = Record::new(rules);
    let mut pos = Position::new(rules);
    // Sometimes start from a position a few plies in.
    if rng.chance(25) {
        for _ in 0..rng.below(6) {
            if !step(&mut pos, &mut rng) {
                break;
            }
        }
        let mut in_hand = None;
        if rules.supply().is_some() || rng.chance(10) {
            in_hand = Some([rng.below(33) as u8, rng.below(33) as u8]);
        }
        record.start = Some(StartPosition {
            setup: pos.setup(),
            in_hand,
            span: None,
        });
    }
    for _ in 0..rng.below(4) {
        let name = ["Event", "Black", "White", "Date", "Round", "X-Custom", ""][rng.below(7)];
        record.tags.push(Tag::new(name, rng.text()));
    }
    let plies = rng.below(70);
    for _ in 0..plies {
        let before = pos;
        let Some(mv) = choose(&pos, &mut rng) else {
            break;
        };
        let Ok(flipped) = pos.play_with_flips(mv) else {
            break;
        };
        let mut m = MoveRecord::new(mv);
        if rng.chance(20) {
            m.color = Some(before.turn());
        }
        if rng.chance(15) {
            m.flips = Some(FlipClaim {
                squares: rng.chance(70).then_some(flipped),
                count: rng.chance(50).then_some(flipped.len() as u8),
                span: None,
            });
        }
        if rng.chance(15) {
            m.eval = Some(rng.float());
        }
        if rng.chance(15) {
            m.time = Some(rng.float().abs());
        }
        if rng.chance(5) {
            m.comment = Some(rng.text());
        }
        record.moves.push(m);
        if rng.chance(5) {
            record.positions.push(PositionClaim {
                after_moves: record.moves.len(),
                setup: pos.setup(),
                span: None,
            });
        }
    }
    if rng.chance(80) {
        let players = rules.players() as usize;
        let score = match rng.below(4) {
            0 => ResultScore::None,
            1 => ResultScore::Discs((0..players).map(|_| rng.below(65) as u8).collect()),
            2 => ResultScore::Margin(rng.float()),
            _ => ResultScore::Winner(rng.chance(80).then(|| Color::ALL[rng.below(players)])),
        };
        let who = rng.chance(50).then(|| Color::ALL[rng.below(2)]);
        let termination = match rng.below(6) {
            0 => Termination::Resignation(who),
            1 => Termination::Time(who),
            2 => Termination::Unfinished,
            3 => Termination::Agreement,
            _ => Termination::Normal,
        };
        record.result = Some(ClaimedResult {
            score,
            termination,
            span: None,
        });
    }
    if rng.chance(10) {
        record.comment = Some(rng.text());
    }
    record
}

fn choose(pos: &Position, rng: &mut Rng) -> Option<Move> {
    if pos.is_over() {
        return None;
    }
    if pos.must_pass() {
        return Some(Move::Pass);
    }
    let legal: Vec<_> = pos.legal_moves().iter().collect();
    Some(Move::Place(legal[rng.below(legal.len())]))
}

fn step(pos: &mut Position, rng: &mut Rng) -> bool {
    choose(pos, rng).is_some_and(|mv| pos.play(mv).is_ok())
}

#[test]
fn the_generator_covers_the_model() {
    let records: Vec<Record> = (0..300).map(generate).collect();
    assert!(records.iter().any(|r| r.rules.players() == 4));
    assert!(records.iter().any(|r| r.start.is_some()));
    assert!(records
        .iter()
        .any(|r| r.moves.iter().any(|m| m.mv == Move::Pass)));
    assert!(records.iter().any(|r| !r.positions.is_empty()));
    assert!(records.iter().any(|r| r.moves.len() > 40));
    assert!(records.iter().any(|r| r.comment.is_some()));
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn json_model_json(seeds in proptest::collection::vec(any::<u64>(), 1..6)) {
        let records: Vec<Record> = seeds.iter().map(|&s| generate(s)).collect();
        let document = write(&records, None);
        let lines = write(&records, Some("lines"));
        let from_document = read_bytes(document.clone(), "doc");
        let from_lines = read_bytes(lines.clone(), "lines");
        prop_assert_eq!(from_document.len(), records.len());
        prop_assert_eq!(from_lines.len(), records.len());
        for ((d, l), r) in from_document.iter().zip(&from_lines).zip(&records) {
            prop_assert!(d.diagnostics.is_empty(), "{:?}", d.diagnostics);
            prop_assert!(l.diagnostics.is_empty(), "{:?}", l.diagnostics);
            prop_assert_eq!(plain(d.record.as_ref()), Some(r.clone()));
            prop_assert_eq!(plain(l.record.as_ref()), Some(r.clone()));
            prop_assert_eq!(d.index, l.index);
        }
        // Each line is the record as serde writes it, the one JSON shape.
        let lines_text = String::from_utf8(lines.clone()).unwrap();
        for (line, r) in lines_text.lines().zip(&records) {
            prop_assert_eq!(line, serde_json::to_string(r).unwrap());
        }
        let reread: Vec<Record> = from_document.into_iter().filter_map(|g| g.record).collect();
        prop_assert_eq!(write(&reread, None), document);
        prop_assert_eq!(write(&reread, Some("lines")), lines);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    /// Any bytes: no panic, spans inside their sources, games numbered in order.
    #[test]
    fn any_input_is_read_safely(
        bytes in proptest::collection::vec(
            prop_oneof![
                Just(b'{'), Just(b'}'), Just(b'['), Just(b']'), Just(b'"'), Just(b':'),
                Just(b','), Just(b'\n'), Just(b'\\'), Just(b' '), any::<u8>(),
            ],
            0..200,
        )
    ) {
        let games = read_bytes(bytes, "fuzz");
        check_spans(&games);
        let indexes: Vec<usize> = games.iter().map(|g| g.index).filter(|&i| i > 0).collect();
        prop_assert!(indexes.windows(2).all(|w| w[1] == w[0] + 1));
    }

    /// A valid file with one byte replaced by up to three others: the damage stays local.
    #[test]
    fn damage_stays_local(
        seeds in proptest::collection::vec(any::<u64>(), 3..6),
        cut in any::<prop::sample::Index>(),
        junk in proptest::collection::vec(any::<u8>(), 0..4),
        lines in any::<bool>(),
    ) {
        let records: Vec<Record> = seeds.iter().map(|&s| generate(s)).collect();
        let mut bytes = write(&records, lines.then_some("lines"));
        let at = cut.index(bytes.len());
        bytes.splice(at..(at + 1).min(bytes.len()), junk);
        let games = read_bytes(bytes, "damaged");
        check_spans(&games);
        let read: Vec<Record> = games.iter().filter_map(|g| plain(g.record.as_ref())).collect();
        // In JSON Lines a damaged byte costs at most the two lines it touches (a lost line
        // break merges two); a document may lose the games after a broken array. Every
        // record read is one of the originals or the damaged one.
        if lines {
            prop_assert!(read.len() + 2 >= records.len(), "{} of {}", read.len(), records.len());
        }
        let changed = read.iter().filter(|r| !records.contains(r)).count();
        prop_assert!(changed <= 1);
    }
}

#[test]
fn rules_given_to_the_reader_apply_to_games_without_rules() {
    let options = ReadOptions {
        rules: Some("anti".parse().unwrap()),
        ..ReadOptions::default()
    };
    let text =
        "{\"moves\":[{\"move\":\"f5\"}]}\n{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]}\n";
    let games = reversi_formats::Format::Json
        .read_bytes(text, &options)
        .unwrap();
    let rules: Vec<String> = games
        .iter()
        .map(|g| g.record.as_ref().unwrap().rules.to_string())
        .collect();
    assert_eq!(
        rules,
        ["anti", "othello"],
        "a game that states its rules keeps them"
    );
}

/// Every record of every fixture, in every format (moves with colours, flip claims,
/// evaluations, times and comments; starts, positions, results of every kind), and
/// the same records with their passes made explicit: written as serde writes them.
#[test]
fn records_are_written_exactly_as_serde_writes_them() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    let mut records = 0;
    for path in common::files_under(&root) {
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        let name = path.to_string_lossy().into_owned();
        let Ok(detected) = reversi_formats::Format::detect(Box::new(&bytes[..]), &name, None, None)
        else {
            continue;
        };
        let games = detected
            .format
            .read(detected.input, &ReadOptions::default());
        for record in games.flatten().filter_map(|g| g.record) {
            let explicit = reversi_check::validate::with_explicit_passes(&record);
            for r in [&record, &*explicit] {
                assert_eq!(
                    json::record_json(r).unwrap(),
                    serde_json::to_string(r).unwrap(),
                    "{name}"
                );
            }
            records += 1;
        }
    }
    assert!(records > 200, "only {records} records were written");
}
