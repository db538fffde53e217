//! Shared test helpers: a proptest generator of game records of every variant, for the
//! round-trip tests of every format.
//!
//! Games are random legal games played with [`Position`] on every board, preset and option
//! combination [`Rules`] accepts, with and without explicit passes, and with random tags,
//! comments, evals, times, flip and position claims, results and custom start positions.
#![allow(dead_code)]

pub mod child;

/// A scratch directory for one test of this test binary (its process), emptied first.
pub fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-test-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch directory");
    dir
}

use proptest::prelude::*;
use reversi_engine::Preset;
use reversi_engine::{BoardShape, Color, Move, Position, Rules, Square, SquareSet};
use reversi_formats::record::{
    ClaimedResult, FlipClaim, MoveRecord, PositionClaim, Record, ResultScore, StartPosition, Tag,
    Termination,
};

/// Tag names formats reserve for fields of their own; generated tags avoid them.
pub const RESERVED_TAGS: [&str; 4] = ["Rules", "Start", "Result", "Termination"];

/// A small deterministic generator (splitmix64), so one `u64` seed drives a whole record.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator from `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A number below `n` (`n` > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    /// True once in `n` times.
    pub fn one_in(&mut self, n: usize) -> bool {
        self.below(n) == 0
    }

    /// A random element of `items`.
    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }
}

/// Every rules combination [`Rules`] accepts: any preset and board, anti, free opening,
/// up to three blocked squares, a corner handicap and a scoring, filtered by the rules'
/// own checks.
pub fn arb_rules() -> impl Strategy<Value = Rules> {
    (
        0..6usize,
        0..5usize,
        any::<bool>(),
        any::<bool>(),
        proptest::collection::vec(any::<u8>(), 0..4),
        proptest::option::of((any::<bool>(), 1..=4usize)),
        0..3usize,
    )
        .prop_filter_map(
            "combination the rules refuse",
            |(preset, board, anti, free, blocked, handicap, scoring)| {
                let presets = [
                    Preset::Othello,
                    Preset::Anti,
                    Preset::Free,
                    Preset::Classic,
                    Preset::Multi3,
                    Preset::Multi4,
                ];
                let shape = BoardShape::ALL[board];
                let mut text = format!("{}:{}", presets[preset].name(), shape);
                if anti {
                    text.push_str(",anti");
                }
                if free {
                    text.push_str(",free");
                }
                let centre: SquareSet = shape.centre().into_iter().collect();
                let corners: SquareSet = shape.corners().into_iter().collect();
                let free_cells: Vec<Square> = shape
                    .cells()
                    .difference(centre)
                    .difference(corners)
                    .iter()
                    .collect();
                let mut squares: Vec<Square> = blocked
                    .iter()
                    .map(|&b| free_cells[b as usize % free_cells.len()])
                    .collect();
                squares.sort();
                squares.dedup();
                if !squares.is_empty() {
                    let names: Vec<String> = squares.iter().map(|s| s.to_string()).collect();
                    text.push_str(&format!(",blocked={}", names.join("+")));
                }
                if let Some((white, k)) = handicap {
                    let colour = if white { "white" } else { "black" };
                    text.push_str(&format!(",handicap={colour}:{k}"));
                }
                match scoring {
                    1 => text.push_str(",scoring=wof"),
                    2 => text.push_str(",scoring=raw"),
                    _ => {}
                }
                text.parse::<Rules>().ok()
            },
        )
}

/// Text with the characters formats find awkward: quotes, backslashes, braces, brackets,
/// newlines, semicolons, non-ASCII.
pub fn awkward_text(rng: &mut Rng, max: usize) -> String {
    const PIECES: [&str; 20] = [
        "a",
        "Z",
        "0",
        " ",
        "  ",
        "\"",
        "\\",
        "{",
        "}",
        "[",
        "]",
        "%",
        "\n",
        ";",
        "<",
        ">",
        "é",
        "Suède",
        "[%eval 1]",
        "(x)",
    ];
    let n = rng.below(max + 1);
    (0..n).map(|_| *rng.pick(&PIECES)).collect()
}

fn tag_name(rng: &mut Rng) -> String {
    const FIRST: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
    const REST: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
    loop {
        let mut name = String::new();
        name.push(*rng.pick(FIRST) as char);
        for _ in 0..rng.below(9) {
            name.push(*rng.pick(REST) as char);
        }
        // `FEN` is read as the start position (Edax), so no free tag has that name.
        if !RESERVED_TAGS
            .iter()
            .chain(&["FEN"])
            .any(|r| r.eq_ignore_ascii_case(&name))
        {
            return name;
        }
    }
}

fn random_number(rng: &mut Rng) -> f64 {
    match rng.below(4) {
        0 => (rng.below(12_801) as f64 - 6400.0) / 100.0,
        1 => rng.below(100) as f64,
        2 => (rng.next() % 1_000_000) as f64 / 7.0,
        _ => -(rng.below(1000) as f64) / 1000.0,
    }
}

fn random_flip_claim(rng: &mut Rng, flipped: SquareSet) -> FlipClaim {
    let (squares, count) = match rng.below(4) {
        0 => (Some(flipped), None),
        1 => (None, Some(flipped.len() as u8)),
        2 => (Some(flipped), Some(flipped.len() as u8)),
        _ => (None, None),
    };
    FlipClaim {
        squares,
        count,
        span: None,
    }
}

fn random_result(rng: &mut Rng, pos: &Position) -> Option<ClaimedResult> {
    let players = pos.rules().players() as usize;
    let score = match rng.below(7) {
        0 => return None,
        1 => ResultScore::None,
        2 | 3 => ResultScore::Discs(pos.counts_outcome().score[..players].to_vec()),
        4 => ResultScore::Discs((0..2 + rng.below(3)).map(|_| rng.next() as u8).collect()),
        5 => ResultScore::Margin(random_number(rng)),
        _ => ResultScore::Winner(if rng.one_in(3) {
            None
        } else {
            Some(Color::ALL[rng.below(players)])
        }),
    };
    let colour = |rng: &mut Rng| {
        if rng.one_in(3) {
            None
        } else {
            Some(Color::ALL[rng.below(players)])
        }
    };
    let termination = match rng.below(8) {
        0 => Termination::Resignation(colour(rng)),
        1 => Termination::Time(colour(rng)),
        2 => Termination::Unfinished,
        3 => Termination::Agreement,
        _ if score.is_none() => Termination::Unfinished,
        _ => Termination::Normal,
    };
    Some(ClaimedResult {
        score,
        termination,
        span: None,
    })
}

/// A random legal game under `rules` played to its end, its passes left out, no result;
/// with the final position.
pub fn played_to_end(rules: Rules, rng: &mut Rng) -> (Record, Position) {
    let mut pos = Position::new(rules);
    let mut record = Record::new(rules);
    while !pos.is_over() {
        if pos.must_pass() {
            pos.play(Move::Pass).expect("a pass when it must");
            continue;
        }
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        let mv = Move::Place(*rng.pick(&legal));
        pos.play(mv).expect("a legal move");
        record.moves.push(MoveRecord::new(mv));
    }
    (record, pos)
}

/// Plays a random legal game under `rules`, driven by `seed`, and dresses it with random
/// claims and metadata. `explicit_passes` writes the passes; otherwise they are left out.
pub fn random_record(rules: Rules, seed: u64, explicit_passes: bool) -> Record {
    let mut rng = Rng::new(seed);
    let mut record = Record::new(rules);
    let mut pos = Position::new(rules);
    if rng.one_in(4) {
        for _ in 0..rng.below(12) {
            if pos.is_over() {
                break;
            }
            let mv = random_move(&mut rng, &pos);
            let _ = pos.play(mv);
        }
        let setup = pos.setup();
        let in_hand = match (rules.supply(), rng.one_in(2)) {
            (Some(_), true) => Some([
                pos.in_hand(Color::Black).unwrap_or(0),
                pos.in_hand(Color::White).unwrap_or(0),
            ]),
            _ => None,
        };
        record.start = Some(StartPosition {
            setup,
            in_hand,
            span: None,
        });
    }
    for _ in 0..rng.below(4) {
        let value = awkward_text(&mut rng, 8);
        record.tags.push(Tag::new(tag_name(&mut rng), value));
    }
    if rng.one_in(4) {
        record.comment = Some(awkward_text(&mut rng, 10));
    }
    if rng.one_in(8) {
        record.positions.push(PositionClaim {
            after_moves: 0,
            setup: pos.setup(),
            span: None,
        });
    }
    let plies = rng.below(110);
    for _ in 0..plies {
        if pos.is_over() {
            break;
        }
        let mover = pos.turn();
        let mv = random_move(&mut rng, &pos);
        let Ok(flipped) = pos.play_with_flips(mv) else {
            break;
        };
        if mv == Move::Pass && !explicit_passes {
            continue;
        }
        let mut m = MoveRecord::new(mv);
        if rng.one_in(5) {
            m.color = Some(mover);
        }
        if rng.one_in(5) {
            m.flips = Some(random_flip_claim(&mut rng, flipped));
        }
        if rng.one_in(6) {
            m.eval = Some(random_number(&mut rng));
        }
        if rng.one_in(6) {
            m.time = Some(random_number(&mut rng).abs());
        }
        if rng.one_in(8) {
            m.comment = Some(awkward_text(&mut rng, 10));
        }
        record.moves.push(m);
        if rng.one_in(12) {
            record.positions.push(PositionClaim {
                after_moves: record.moves.len(),
                setup: pos.setup(),
                span: None,
            });
        }
    }
    record.result = random_result(&mut rng, &pos);
    record
}

fn random_move(rng: &mut Rng, pos: &Position) -> Move {
    let legal = pos.legal_moves();
    if legal.is_empty() {
        return Move::Pass;
    }
    let k = rng.below(legal.len());
    legal.iter().nth(k).map_or(Move::Pass, Move::Place)
}

/// Records of every variant (see the module docs).
pub fn arb_record() -> impl Strategy<Value = Record> {
    let rules = prop_oneof![1 => Just(Rules::default()), 3 => arb_rules()];
    (rules, any::<u64>(), any::<bool>())
        .prop_map(|(rules, seed, passes)| random_record(rules, seed, passes))
}

/// The record with its spans forgotten (`Record::without_spans`).
pub fn without_spans(record: &Record) -> Record {
    record.without_spans()
}

/// A record file to read, with the format `reversi` detects for it and the name a test
/// reports it by.
pub struct RecordFile {
    pub path: std::path::PathBuf,
    pub name: String,
    pub format: reversi_formats::Format,
    pub bytes: Vec<u8>,
}

/// Every file below `dir`, sorted; none when `dir` is absent.
pub fn files_under(dir: &std::path::Path) -> Vec<std::path::PathBuf> {
    fn walk(dir: &std::path::Path, out: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    walk(dir, &mut files);
    files.sort();
    files
}

/// The files of `paths` a reader reads, each with the format `reversi` detects for it.
/// UTF-16 files are left out: detection decodes them before any reader sees them.
fn record_files(
    paths: Vec<std::path::PathBuf>,
    name: impl Fn(&std::path::Path) -> String,
) -> Vec<RecordFile> {
    paths
        .into_iter()
        .filter_map(|path| {
            let bytes = std::fs::read(&path).ok()?;
            if bytes.starts_with(&[0xFF, 0xFE]) || bytes.starts_with(&[0xFE, 0xFF]) {
                return None;
            }
            let shown = path.to_string_lossy().into_owned();
            let format = reversi_formats::Format::detect(
                Box::new(&bytes[..]),
                &shown,
                Some(bytes.len() as u64),
                None,
            )
            .ok()?
            .format;
            Some(RecordFile {
                name: name(&path),
                path,
                format,
                bytes,
            })
        })
        .collect()
}

/// Every fixture a reader reads, named by its path below `fixtures/`.
pub fn fixture_files() -> Vec<RecordFile> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures");
    record_files(files_under(&root), |p| {
        p.strip_prefix(&root).unwrap_or(p).display().to_string()
    })
}

/// The repository's real data: WTHOR years, PGN, GGF, move strings, OBF and perft tables
/// (`data/`, where each file comes from: `data/SOURCES.md`).
pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// The record files of `data/`, below its folders (`WTHOR.JOU` and `WTHOR.TRN` hold names,
/// not games; `perft/` holds a table).
pub const REAL_RECORD_FILES: [&str; 16] = [
    "wthor/WTH_1977.wtb",
    "wthor/WTH_1990.wtb",
    "wthor/WTH_2004.wtb",
    "wthor/WTH_2015.wtb",
    "wthor/WTH_2021.wtb",
    "pgn/WTHOR-2004.r.pgn",
    "pgn/WTH_2021.py.pgn",
    "pgn/playok_sample.pgn",
    "ggf/nboard_test.ggf",
    "ggf/nboard_test2.ggf",
    "ggf/novello_TestGames.ggf",
    "movestrings/nboard_xot-large.txt",
    "obf/fforum-1-19.obf",
    "obf/fforum-20-39.obf",
    "obf/fforum-40-59.obf",
    "obf/fforum-60-79.obf",
];

/// A file of `data/`, by its path below it; a missing file fails the test (the data is
/// part of the repository).
pub fn data_path(rel: &str) -> std::path::PathBuf {
    let path = std::path::Path::new(DATA).join(rel);
    assert!(
        path.exists(),
        "{} is missing: the real data is part of the repository (data/SOURCES.md)",
        path.display()
    );
    path
}

/// Every real record file of `data/` ([`REAL_RECORD_FILES`], each required and read in the
/// format `reversi` detects for it), named by its file name.
pub fn real_record_files() -> Vec<RecordFile> {
    let paths: Vec<_> = REAL_RECORD_FILES.iter().map(|rel| data_path(rel)).collect();
    let files = record_files(paths, |p| {
        p.file_name()
            .map_or_else(String::new, |n| n.to_string_lossy().into_owned())
    });
    let read: Vec<&str> = files.iter().map(|f| f.name.as_str()).collect();
    let listed: Vec<&str> = REAL_RECORD_FILES
        .iter()
        .map(|rel| rel.rsplit('/').next().unwrap_or(rel))
        .collect();
    assert_eq!(
        read, listed,
        "every real record file reads as a record file"
    );
    files
}
