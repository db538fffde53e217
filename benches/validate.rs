//! Validation benchmarks on WTHOR files, in games per second:
//!
//! * `plain-loop`: a hand-written `u64` bitboard replay of every game's move bytes (flips,
//!   inferred passes, the final score checked), independent of the crate's engine: the
//!   yardstick;
//! * `read+validate`: `Format::Wthor.read` over the in-memory files and `validate_record`
//!   for every game, what `reversi validate -j1` does per game minus the printing;
//! * `validate`: `validate_record` alone over records read beforehand;
//!
//! and `rgn/read+validate`: reading `benches/data/sample.rgn` and validating every game.
//!
//! The WTHOR files are the real ones, `../shared/data/wthor/*.wtb`, when present, and
//! otherwise our own sample `benches/data/sample.wtb` (300 generated games, the same as
//! `sample.rgn`; `tests/bench_data.rs` makes both), or the sample alone with
//! `BENCH_SAMPLE_ONLY=1`. Each is read into memory once.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use reversi_record::formats::{Format, ReadOptions};
use reversi_record::record::Record;
use reversi_record::validate::{validate_game, validate_record};

/// Our own sample, committed beside the benchmarks.
const SAMPLE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");

/// WTHOR files of 8x8 games, as (path, bytes): the real ones when present, else our sample.
fn wthor_files() -> Vec<(PathBuf, Vec<u8>)> {
    let real = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../shared/data/wthor"));
    let real = match std::env::var_os("BENCH_SAMPLE_ONLY") {
        Some(_) => Err(std::io::Error::other("BENCH_SAMPLE_ONLY is set")),
        None => std::fs::read_dir(real),
    };
    let entries = match real {
        Ok(entries) => entries,
        Err(e) => {
            eprintln!("../shared/data/wthor: {e}: using benches/data/sample.wtb");
            let sample = Path::new(SAMPLE_DIR).join("sample.wtb");
            let bytes = std::fs::read(&sample).expect("benches/data/sample.wtb is committed");
            return vec![(sample, bytes)];
        }
    };
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    paths.sort();
    paths
        .into_iter()
        .filter_map(|p| std::fs::read(&p).ok().map(|bytes| (p, bytes)))
        .collect()
}

// ---------------------------------------------------------------------------------------
// The plain loop: an ordinary 8x8 bitboard engine, a1 = bit 0, h8 = bit 63.

const NOT_A: u64 = 0xfefe_fefe_fefe_fefe;
const NOT_H: u64 = 0x7f7f_7f7f_7f7f_7f7f;

/// The eight neighbour shifts, each with its edge mask.
const SHIFTS: [fn(u64) -> u64; 8] = [
    |b| (b << 1) & NOT_A,
    |b| (b >> 1) & NOT_H,
    |b| b << 8,
    |b| b >> 8,
    |b| (b << 9) & NOT_A,
    |b| (b << 7) & NOT_H,
    |b| (b >> 7) & NOT_A,
    |b| (b >> 9) & NOT_H,
];

/// Discs flipped in one direction by a disc of `own` on `m`.
#[inline(always)]
fn flips_towards(own: u64, opp: u64, m: u64, shift: fn(u64) -> u64) -> u64 {
    let mut run = 0;
    let mut x = shift(m) & opp;
    while x != 0 {
        run |= x;
        x = shift(x);
        if x & own != 0 {
            return run;
        }
        x &= opp;
    }
    0
}

/// Discs flipped by a disc of `own` on `m`.
#[inline]
fn flips(own: u64, opp: u64, m: u64) -> u64 {
    let [a, b, c, d, e, f, g, h] = SHIFTS;
    flips_towards(own, opp, m, a)
        | flips_towards(own, opp, m, b)
        | flips_towards(own, opp, m, c)
        | flips_towards(own, opp, m, d)
        | flips_towards(own, opp, m, e)
        | flips_towards(own, opp, m, f)
        | flips_towards(own, opp, m, g)
        | flips_towards(own, opp, m, h)
}

/// Squares reached in one direction past a run of `opp` next to `own`.
#[inline(always)]
fn moves_towards(own: u64, opp: u64, shift: fn(u64) -> u64) -> u64 {
    let mut x = shift(own) & opp;
    for _ in 0..5 {
        x |= shift(x) & opp;
    }
    shift(x)
}

/// Squares where `own` may play.
#[inline]
fn moves(own: u64, opp: u64) -> u64 {
    let [a, b, c, d, e, f, g, h] = SHIFTS;
    (moves_towards(own, opp, a)
        | moves_towards(own, opp, b)
        | moves_towards(own, opp, c)
        | moves_towards(own, opp, d)
        | moves_towards(own, opp, e)
        | moves_towards(own, opp, f)
        | moves_towards(own, opp, g)
        | moves_towards(own, opp, h))
        & !(own | opp)
}

/// Replays one WTHOR record: whether every move is legal and, when the game is over, the
/// stored score is right. Passes are inferred when a move flips nothing and the mover has
/// no move at all.
fn plain_replay(record: &[u8]) -> bool {
    let score = record[6];
    let (mut own, mut opp) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut black_to_move = true;
    for &byte in record[8..].iter().take_while(|&&b| b != 0) {
        let (row, col) = (byte / 10, byte % 10);
        if !(1..=8).contains(&row) || !(1..=8).contains(&col) {
            return false;
        }
        let m = 1u64 << ((row - 1) * 8 + col - 1);
        if (own | opp) & m != 0 {
            return false;
        }
        let mut f = flips(own, opp, m);
        if f == 0 {
            if moves(own, opp) != 0 {
                return false;
            }
            std::mem::swap(&mut own, &mut opp);
            black_to_move = !black_to_move;
            f = flips(own, opp, m);
            if f == 0 {
                return false;
            }
        }
        own |= m | f;
        opp &= !f;
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
    }
    if moves(own, opp) != 0 || moves(opp, own) != 0 {
        // Unfinished: nothing to check the score against (the validator warns).
        return true;
    }
    let (black, white) = if black_to_move {
        (own.count_ones(), opp.count_ones())
    } else {
        (opp.count_ones(), own.count_ones())
    };
    let empty = 64 - black - white;
    let black_score = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empty,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empty / 2,
    };
    black_score == u32::from(score)
}

// ---------------------------------------------------------------------------------------

fn options(path: &Path) -> ReadOptions {
    ReadOptions {
        name: Arc::from(path.display().to_string()),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    }
}

fn validate(c: &mut Criterion) {
    let files = wthor_files();
    assert!(!files.is_empty(), "no WTHOR files to validate");
    let records: Vec<Record> = files
        .iter()
        .flat_map(|(path, bytes)| {
            Format::Wthor
                .read(Box::new(Cursor::new(bytes.as_slice())), &options(path))
                .filter_map(|g| g.ok().and_then(|g| g.record))
                .collect::<Vec<_>>()
        })
        .collect();
    let games = records.len() as u64;
    let raw_games: usize = files.iter().map(|(_, b)| (b.len() - 16) / 68).sum();
    assert_eq!(raw_games as u64, games, "every real record reads");
    let plain_valid = files
        .iter()
        .flat_map(|(_, b)| b[16..].chunks_exact(68))
        .filter(|r| plain_replay(r))
        .count();
    let crate_valid = records
        .iter()
        .enumerate()
        .filter(|(i, r)| validate_record(r, i + 1).errors() == 0)
        .count();
    assert_eq!(
        plain_valid, crate_valid,
        "the plain loop agrees with the validator"
    );

    let rgn = std::fs::read(Path::new(SAMPLE_DIR).join("sample.rgn"))
        .expect("benches/data/sample.rgn is committed");
    let rgn_games = Format::Rgn
        .read_bytes(rgn.as_slice(), &ReadOptions::default())
        .expect("the sample reads")
        .len() as u64;
    if std::env::var_os("VALIDATE_BENCH_ONCE").is_some() {
        // One deterministic pass of each, for `valgrind --tool=callgrind`.
        black_box(plain_loop(&files));
        black_box(read_and_validate(&files));
        black_box(validate_only(&records));
        black_box(read_and_validate_rgn(&rgn));
        return;
    }
    let mut group = c.benchmark_group("rgn");
    group.throughput(Throughput::Elements(rgn_games));
    group.bench_function("read+validate", |b| {
        b.iter(|| read_and_validate_rgn(black_box(&rgn)))
    });
    group.finish();

    let mut group = c.benchmark_group("wthor");
    group.throughput(Throughput::Elements(games));
    group.bench_function("plain-loop", |b| b.iter(|| plain_loop(black_box(&files))));
    group.bench_function("read+validate", |b| {
        b.iter(|| read_and_validate(black_box(&files)))
    });
    group.bench_function("validate", |b| {
        b.iter(|| validate_only(black_box(&records)))
    });
    group.finish();
}

/// (a) The plain loop over every record: the number of valid games.
#[inline(never)]
fn plain_loop(files: &[(PathBuf, Vec<u8>)]) -> usize {
    let mut valid = 0;
    for (_, bytes) in files {
        for record in bytes[16..].chunks_exact(68) {
            valid += usize::from(plain_replay(record));
        }
    }
    valid
}

/// (b) Reading and validating every game: the number of diagnostics.
#[inline(never)]
fn read_and_validate(files: &[(PathBuf, Vec<u8>)]) -> usize {
    let mut found = 0;
    for (path, bytes) in files {
        let input = Box::new(Cursor::new(bytes.as_slice()));
        for game in Format::Wthor.read(input, &options(path)) {
            let Ok(game) = game else { continue };
            found += validate_game(&game, &[] as &[&str]).len();
        }
    }
    found
}

/// Reading and validating every game of an RGN file: the number of diagnostics.
#[inline(never)]
fn read_and_validate_rgn(bytes: &[u8]) -> usize {
    let input = Box::new(Cursor::new(bytes));
    Format::Rgn
        .read(input, &ReadOptions::default())
        .filter_map(Result::ok)
        .map(|game| validate_game(&game, &[] as &[&str]).len())
        .sum()
}

/// (c) Validating records read beforehand: the number of diagnostics.
#[inline(never)]
fn validate_only(records: &[Record]) -> usize {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| validate_record(r, i + 1).diagnostics.len())
        .sum()
}

criterion_group!(benches, validate);
criterion_main!(benches);
