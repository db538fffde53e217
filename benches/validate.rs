//! Validation and conversion benchmarks, in games per second, side by side in one run:
//!
//! * `plain-loop`: the fastest honest loop we can write that does the same checks,
//!   independent of the crate: for WTHOR, every record's move bytes replayed on two `u64`
//!   bitboards (flips from precomputed rays, branch-free; mobility only when a move flips
//!   nothing and at the end; passes inferred; the stored score checked, winner gets the
//!   empties); for text, one scan per game (tags with the `Result` kept, move numbers,
//!   comments, squares, passes, the closing result) and the same replay;
//! * `validate-j1`, `validate-j2`: the library's pipeline ([`Validation::run`]), what
//!   `reversi validate --jobs N` runs, minus the printing, with 1 and 2 workers;
//! * `full-path-j1`: every game read into a `Record` and replayed by the full validator,
//!   without the quick check: what every game cost before it, and what a game that fails
//!   the quick check still costs;
//! * `scaling`: the pipeline with 1 and 2 workers on the same inputs 8 times over (115 K
//!   WTHOR games, 73 K PGN games);
//! * `variants`: 2,000 random 10x10 and octagon games as RGN, replayed on `u128` bitboards
//!   by the quick check, bare and with a flip claim on every move (`c4(2:d4,d5)` and
//!   `c4(d4,d5)` by turns), which the quick check compares with the flipped discs;
//! * `convert`: WTHOR to RGN and PGN text to JSON, by the plain path (each game read with
//!   `Format::read`, its passes made explicit, written, one at a time on one thread: what
//!   `reversi convert` did before the pipeline) and by the library's conversion pipeline
//!   ([`Conversion::run`], what `reversi convert --jobs N` runs) with 1 and 2 workers.
//!
//! The inputs are the real files (`data/wthor/*.wtb`, 14,351 games, or the WTHOR files of
//! the folder `REVERSI_ARCHIVE` names, such as the whole FFO base;
//! `data/pgn/WTHOR-2004.r.pgn`, 9,111 games), or with `BENCH_SAMPLE_ONLY=1` our own samples
//! `benches/data/sample.{wtb,rgn}` (300 generated games each; `tests/bench_data.rs` makes
//! them). Each is read into memory once; no name files are read.

use std::io::Cursor;
use std::path::{Path, PathBuf};

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use reversi_check::validate::{validate_game, with_explicit_passes};
use reversi_engine::{Move, Position, Rules};
use reversi_formats::record::{FlipClaim, MoveRecord, Record};
use reversi_formats::{Format, ReadOptions, WriteOptions};
use reversi_runs::pipeline::conversion::Conversion;
use reversi_runs::pipeline::view::GameReader;
use reversi_runs::pipeline::{Input, Validation};

#[allow(dead_code)]
#[path = "archive/mod.rs"]
mod archive;

/// Our own sample, committed beside the benchmarks.
const SAMPLE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");

/// WTHOR files of 8x8 games, as (path, bytes): those of `REVERSI_ARCHIVE` or `data/wthor`,
/// or our sample with `BENCH_SAMPLE_ONLY=1`.
fn wthor_files() -> Vec<(PathBuf, Vec<u8>)> {
    if std::env::var_os("BENCH_SAMPLE_ONLY").is_some() {
        eprintln!("BENCH_SAMPLE_ONLY is set: using benches/data/sample.wtb");
        let sample = Path::new(SAMPLE_DIR).join("sample.wtb");
        let bytes = std::fs::read(&sample).expect("benches/data/sample.wtb is committed");
        return vec![(sample, bytes)];
    }
    archive::wthor_files()
}

// ---------------------------------------------------------------------------------------
// The plain loops: the fastest honest replay we can write, independent of the crate. An
// ordinary 8x8 bitboard engine, a1 = bit 0, h8 = bit 63: flips from precomputed rays,
// branch-free; mobility only when a move flips nothing (a pass) and at the end.

// The rays, flips and mobility are the `formats` benchmark's (`benches/plain/`).
#[allow(dead_code)]
#[path = "plain/mod.rs"]
mod plain;
use plain::{flips, moves};

/// The end of a replay: whether the claimed scores (winner gets the empties) are right.
/// An unfinished game has nothing to check them against: it is valid (the validator warns).
fn finished_with(own: u64, opp: u64, black_to_move: bool, claimed: Option<(u8, u8)>) -> bool {
    if own | opp != u64::MAX && (moves(own, opp) != 0 || moves(opp, own) != 0) {
        return true;
    }
    let Some((claimed_black, claimed_white)) = claimed else {
        return true;
    };
    let (black, white) = if black_to_move {
        (own.count_ones(), opp.count_ones())
    } else {
        (opp.count_ones(), own.count_ones())
    };
    let empty = 64 - black - white;
    let score = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empty,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empty / 2,
    };
    score == u32::from(claimed_black) && 64 - score == u32::from(claimed_white)
}

/// Replays squares (0-63; 64 an explicit pass) from the start position.
#[inline]
fn plain_replay(squares: impl Iterator<Item = u8>, claimed: Option<(u8, u8)>) -> bool {
    let (mut own, mut opp) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut black_to_move = true;
    for sq in squares {
        if sq == 64 {
            if moves(own, opp) != 0 || moves(opp, own) == 0 {
                return false;
            }
        } else {
            let m = 1u64 << sq;
            if (own | opp) & m != 0 {
                return false;
            }
            let mut f = flips(own, opp, usize::from(sq));
            if f == 0 {
                if moves(own, opp) != 0 {
                    return false;
                }
                std::mem::swap(&mut own, &mut opp);
                black_to_move = !black_to_move;
                f = flips(own, opp, usize::from(sq));
                if f == 0 {
                    return false;
                }
            }
            own |= m | f;
            opp &= !f;
        }
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
    }
    finished_with(own, opp, black_to_move, claimed)
}

/// Replays one WTHOR record: every move byte names a square and is legal (passes
/// inferred), the slots after the moves are 0, and the stored score is right.
fn plain_wthor(record: &[u8]) -> bool {
    let slots = &record[8..];
    let end = slots.iter().position(|&b| b == 0).unwrap_or(slots.len());
    if record[6] > 64 || slots[end..].iter().any(|&b| b != 0) {
        return false;
    }
    let mut bad = false;
    let squares = slots[..end].iter().map(|&b| {
        let (row, col) = (b / 10, b % 10);
        bad |= !(1..=8).contains(&row) || !(1..=8).contains(&col);
        (row.wrapping_sub(1) * 8).wrapping_add(col.wrapping_sub(1)) & 63
    });
    let valid = plain_replay(squares, Some((record[6], 64 - record[6])));
    valid && !bad
}

/// Scans and replays one PGN/RGN game's text in one pass: tags (the `Result` kept),
/// move numbers, `{}` and `;` comments, squares, `--` passes and a closing result.
fn plain_text(game: &[u8]) -> bool {
    let mut squares = [0u8; 128];
    let mut n = 0;
    let mut claimed = None;
    let mut i = 0;
    while i < game.len() {
        match game[i] {
            b'[' => {
                let end = i + game[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(game.len() - i);
                let line = &game[i..end];
                if line.starts_with(b"[Result \"") {
                    claimed = score(&line[9..line.len().saturating_sub(2)]);
                }
                i = end;
            }
            b'{' => {
                i += game[i..]
                    .iter()
                    .position(|&b| b == b'}')
                    .unwrap_or(game.len() - i)
                    + 1
            }
            b';' => {
                i += game[i..]
                    .iter()
                    .position(|&b| b == b'\n')
                    .unwrap_or(game.len() - i)
            }
            c if c.is_ascii_whitespace() => i += 1,
            _ => {
                let end = i + game[i..]
                    .iter()
                    .position(|b| b.is_ascii_whitespace())
                    .unwrap_or(game.len() - i);
                let mut w = &game[i..end];
                while let Some(dot) = w.iter().position(|&b| b == b'.') {
                    if !w[..dot].iter().all(u8::is_ascii_digit) {
                        break;
                    }
                    w = &w[dot + 1..];
                    while w.first() == Some(&b'.') {
                        w = &w[1..];
                    }
                }
                match w {
                    [] => {}
                    [c @ (b'a'..=b'h' | b'A'..=b'H'), r @ b'1'..=b'8'] if n < 128 => {
                        squares[n] = (r - b'1') * 8 + (c.to_ascii_lowercase() - b'a');
                        n += 1;
                    }
                    b"--" if n < 128 => {
                        squares[n] = 64;
                        n += 1;
                    }
                    _ => match score(w) {
                        Some(s) if claimed.map_or(true, |c| c == s) => claimed = Some(s),
                        _ => return false,
                    },
                }
                i = end;
            }
        }
    }
    let explicit_passes = squares[..n].contains(&64);
    if !explicit_passes {
        return plain_replay(squares[..n].iter().copied(), claimed);
    }
    // With explicit passes, a move that needs a pass first is an error.
    plain_replay_strict(&squares[..n], claimed)
}

/// [`plain_replay`] for records that write their passes: no pass is inferred.
fn plain_replay_strict(squares: &[u8], claimed: Option<(u8, u8)>) -> bool {
    let (mut own, mut opp) = (0x0000_0008_1000_0000u64, 0x0000_0010_0800_0000u64);
    let mut black_to_move = true;
    for &sq in squares {
        if sq == 64 {
            if moves(own, opp) != 0 || moves(opp, own) == 0 {
                return false;
            }
        } else {
            let f = flips(own, opp, usize::from(sq));
            if f == 0 || (own | opp) & (1 << sq) != 0 {
                return false;
            }
            own |= (1 << sq) | f;
            opp &= !f;
        }
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
    }
    finished_with(own, opp, black_to_move, claimed)
}

/// `B-W` disc counts.
fn score(text: &[u8]) -> Option<(u8, u8)> {
    let dash = text.iter().position(|&b| b == b'-')?;
    let number = |d: &[u8]| std::str::from_utf8(d).ok()?.parse::<u8>().ok();
    Some((number(&text[..dash])?, number(&text[dash + 1..])?))
}

/// The games of a PGN/RGN text: a game starts at a tag line after movetext.
fn split_text(text: &[u8]) -> Vec<&[u8]> {
    let mut games = Vec::new();
    let (mut start, mut in_moves, mut at) = (0, false, 0);
    for line in text.split_inclusive(|&b| b == b'\n') {
        let first = line.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'[') && in_moves {
            games.push(&text[start..at]);
            start = at;
            in_moves = false;
        } else if first.is_some() && first != Some(&b'[') {
            in_moves = true;
        }
        at += line.len();
    }
    games.push(&text[start..]);
    games
}

// ---------------------------------------------------------------------------------------

/// The real thor-style PGN export (`data/pgn`), or our RGN sample with `BENCH_SAMPLE_ONLY=1`.
fn text_file() -> (PathBuf, Vec<u8>) {
    if std::env::var_os("BENCH_SAMPLE_ONLY").is_some() {
        let sample = Path::new(SAMPLE_DIR).join("sample.rgn");
        let bytes = std::fs::read(&sample).expect("benches/data/sample.rgn is committed");
        return (sample, bytes);
    }
    archive::data_file("pgn/WTHOR-2004.r.pgn")
}

/// Random complete games of `rules` as RGN text, passes written out; with `claims`, every
/// move claims its flipped discs (with their count on every other move).
fn random_rgn(rules: Rules, count: usize, claims: bool) -> Vec<u8> {
    let mut seed = 0x9e37_79b9_7f4a_7c15u64;
    let mut records = Vec::with_capacity(count);
    for _ in 0..count {
        let mut pos = Position::new(rules);
        let mut record = Record::new(rules);
        while !pos.is_over() {
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let mv = match legal.len() {
                0 => Move::Pass,
                n => Move::Place(legal[seed as usize % n]),
            };
            let flipped = pos.play_with_flips(mv).expect("generated moves are legal");
            let mut m = MoveRecord::new(mv);
            if claims && mv != Move::Pass {
                m.flips = Some(FlipClaim {
                    squares: Some(flipped),
                    count: (record.moves.len() % 2 == 0).then_some(flipped.len() as u8),
                    span: None,
                });
            }
            record.moves.push(m);
        }
        records.push(record);
    }
    Format::Rgn
        .write_bytes(&records, &WriteOptions::default())
        .expect("RGN holds every game")
        .0
}

/// In-memory inputs as the pipelines take them.
fn in_memory<'a>(
    inputs: &'a [(Format, &'static [u8])],
) -> impl Iterator<Item = ((), Option<Input>)> + Send + 'a {
    inputs.iter().map(|&(format, bytes)| {
        let input = Input {
            format,
            reader: Box::new(Cursor::new(bytes)),
            options: ReadOptions::default(),
        };
        ((), Some(input))
    })
}

/// The pipeline over in-memory inputs with `jobs` workers: the games found valid.
fn pipeline(inputs: &[(Format, &'static [u8])], jobs: usize) -> usize {
    let inputs = in_memory(inputs);
    let summary = Validation::new()
        .jobs(jobs)
        .run(inputs, |event| {
            black_box(&event);
            Ok(())
        })
        .expect("in-memory inputs read");
    summary.valid
}

/// What `reversi validate` runs by default: the pipeline with every game's facts gathered,
/// then the checks across games (copies, pairings, names): the games found valid and the
/// findings.
fn default_path(inputs: &[(Format, &'static [u8])], jobs: usize) -> (usize, usize) {
    let inputs = in_memory(inputs)
        .enumerate()
        .map(|(k, ((), input))| (k.to_string(), input));
    let gathered = Validation::new()
        .jobs(jobs)
        .collect(inputs)
        .expect("in-memory inputs read");
    let mut findings = 0;
    let _ = gathered.event.check_each(None, |finding| {
        black_box(&finding);
        findings += 1;
        Ok::<(), std::convert::Infallible>(())
    });
    (gathered.summary.valid, findings)
}

/// The crate's full path, without the quick check: every game read into a `Record` and
/// replayed by the full validator, one at a time.
fn full_path(inputs: &[(Format, &'static [u8])]) -> usize {
    let mut valid = 0;
    for &(format, bytes) in inputs {
        for game in format.read(Box::new(Cursor::new(bytes)), &ReadOptions::default()) {
            let Ok(game) = game else { continue };
            let found = validate_game(&game, &[] as &[&str]);
            valid += usize::from(game.record.is_some() && !found.iter().any(|d| d.is_error()));
        }
    }
    valid
}

/// Every game of `inputs` converted to `target` the plain way, one at a time: the games
/// written.
fn convert_plain(inputs: &[(Format, &'static [u8])], target: Format) -> usize {
    let mut writer = target.writer(Box::new(std::io::sink()), &WriteOptions::default());
    let mut written = 0;
    for &(format, bytes) in inputs {
        for game in format.read(Box::new(Cursor::new(bytes)), &ReadOptions::default()) {
            let Ok(game) = game else { continue };
            if let Some(record) = &game.record {
                written += usize::from(writer.write(&with_explicit_passes(record)).is_ok());
            }
        }
    }
    writer.finish().expect("a sink takes everything");
    written
}

/// Every game of `inputs` converted to `target` by the pipeline with `jobs` workers: the
/// games written.
fn convert_piped(inputs: &[(Format, &'static [u8])], target: Format, jobs: usize) -> usize {
    let inputs = in_memory(inputs);
    let mut writer = target.writer(Box::new(std::io::sink()), &WriteOptions::default());
    let tally = Conversion::new()
        .jobs(jobs)
        .run(inputs, &mut *writer, |event| {
            black_box(&event);
            Ok(())
        })
        .expect("a sink takes everything");
    writer.finish().expect("a sink takes everything");
    tally.written
}

/// Every game of `inputs` through the borrowed view: the moves seen (each game's tags and
/// moves looked at, as a caller would).
fn read_viewed(inputs: &[(Format, &'static [u8])]) -> usize {
    let mut moves = 0;
    for (_, input) in in_memory(inputs) {
        let Some(input) = input else { continue };
        let mut reader = GameReader::new(input);
        while let Some(Ok(game)) = reader.next_game() {
            black_box(game.tag("Black"));
            moves += game.moves().len();
        }
    }
    moves
}

/// Every game of `inputs` read into an owned record by the format's reader: the moves seen.
fn read_owned(inputs: &[(Format, &'static [u8])]) -> usize {
    let mut moves = 0;
    for &(format, bytes) in inputs {
        for game in format.read(Box::new(Cursor::new(bytes)), &ReadOptions::default()) {
            let Some(record) = game.ok().and_then(|g| g.record) else {
                continue;
            };
            black_box(record.tag("Black"));
            moves += record.moves.len();
        }
    }
    moves
}

fn leak(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

fn validate(c: &mut Criterion) {
    let files = wthor_files();
    assert!(!files.is_empty(), "no WTHOR files to validate");
    let games: usize = files.iter().map(|(_, b)| (b.len() - 16) / 68).sum();
    let wthor: Vec<(Format, &'static [u8])> = files
        .iter()
        .map(|(_, bytes)| (Format::Wthor, leak(bytes.clone())))
        .collect();
    let plain_valid = plain_wthor_loop(&files);
    assert_eq!(
        plain_valid,
        pipeline(&wthor, 1),
        "the plain loop and the validator agree on WTHOR"
    );
    assert_eq!(pipeline(&wthor, 1), full_path(&wthor));

    let (text_path, text) = text_file();
    let text: &'static [u8] = leak(text);
    let text_inputs = [(Format::Rgn, text)];
    let text_games = split_text(text).len();
    assert_eq!(
        plain_text_loop(text),
        pipeline(&text_inputs, 1),
        "the plain loop and the validator agree on {}",
        text_path.display()
    );

    let variant = |rules: &str, claims: bool| {
        let games = [(
            Format::Rgn,
            leak(random_rgn(rules.parse().unwrap(), 2000, claims)),
        )];
        assert_eq!(pipeline(&games, 1), 2000, "{rules} games are valid");
        games
    };
    let ten = variant("othello:10x10", false);
    let octagon = variant("othello:octagon", false);
    let ten_claims = variant("othello:10x10", true);
    let octagon_claims = variant("othello:octagon", true);

    if std::env::var_os("VALIDATE_BENCH_ONCE").is_some() {
        // One deterministic pass of each, for `valgrind --tool=callgrind`.
        black_box(plain_wthor_loop(&files));
        black_box(pipeline(&wthor, 1));
        black_box(default_path(&wthor, 1));
        black_box(plain_text_loop(text));
        black_box(pipeline(&text_inputs, 1));
        return;
    }
    let mut group = c.benchmark_group("wthor");
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("plain-loop", |b| {
        b.iter(|| plain_wthor_loop(black_box(&files)))
    });
    group.bench_function("validate-j1", |b| b.iter(|| pipeline(black_box(&wthor), 1)));
    group.bench_function("validate-j2", |b| b.iter(|| pipeline(black_box(&wthor), 2)));
    group.bench_function("default-j1", |b| {
        b.iter(|| default_path(black_box(&wthor), 1))
    });
    group.bench_function("default-j2", |b| {
        b.iter(|| default_path(black_box(&wthor), 2))
    });
    group.bench_function("full-path-j1", |b| b.iter(|| full_path(black_box(&wthor))));
    group.finish();

    let mut group = c.benchmark_group("text");
    group.throughput(Throughput::Elements(text_games as u64));
    group.bench_function("plain-loop", |b| {
        b.iter(|| plain_text_loop(black_box(text)))
    });
    group.bench_function("validate-j1", |b| {
        b.iter(|| pipeline(black_box(&text_inputs), 1))
    });
    group.bench_function("validate-j2", |b| {
        b.iter(|| pipeline(black_box(&text_inputs), 2))
    });
    group.bench_function("default-j1", |b| {
        b.iter(|| default_path(black_box(&text_inputs), 1))
    });
    group.bench_function("full-path-j1", |b| {
        b.iter(|| full_path(black_box(&text_inputs)))
    });
    group.finish();

    // Scaling on a bigger input, as archives are: the same files 8 times over, so that a
    // run's start and end (threads starting, the last block) weigh less.
    let wthor_x8: Vec<(Format, &'static [u8])> = wthor
        .iter()
        .copied()
        .cycle()
        .take(wthor.len() * 8)
        .collect();
    let text_x8 = [(Format::Rgn, text); 8];
    let mut group = c.benchmark_group("scaling");
    group.sample_size(20);
    group.throughput(Throughput::Elements(games as u64 * 8));
    group.bench_function("wthor-x8-j1", |b| {
        b.iter(|| pipeline(black_box(&wthor_x8), 1))
    });
    group.bench_function("wthor-x8-j2", |b| {
        b.iter(|| pipeline(black_box(&wthor_x8), 2))
    });
    group.throughput(Throughput::Elements(text_games as u64 * 8));
    group.bench_function("text-x8-j1", |b| {
        b.iter(|| pipeline(black_box(&text_x8), 1))
    });
    group.bench_function("text-x8-j2", |b| {
        b.iter(|| pipeline(black_box(&text_x8), 2))
    });
    group.finish();

    assert_eq!(
        convert_plain(&wthor, Format::Rgn),
        convert_piped(&wthor, Format::Rgn, 2)
    );
    assert_eq!(
        convert_plain(&text_inputs, Format::Json),
        convert_piped(&text_inputs, Format::Json, 2)
    );
    let mut group = c.benchmark_group("convert");
    group.sample_size(20);
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("wthor-to-rgn-plain", |b| {
        b.iter(|| convert_plain(black_box(&wthor), Format::Rgn))
    });
    for jobs in [1, 2] {
        group.bench_function(format!("wthor-to-rgn-j{jobs}"), |b| {
            b.iter(|| convert_piped(black_box(&wthor), Format::Rgn, jobs))
        });
    }
    group.throughput(Throughput::Elements(text_games as u64));
    group.bench_function("text-to-json-plain", |b| {
        b.iter(|| convert_plain(black_box(&text_inputs), Format::Json))
    });
    for jobs in [1, 2] {
        group.bench_function(format!("text-to-json-j{jobs}"), |b| {
            b.iter(|| convert_piped(black_box(&text_inputs), Format::Json, jobs))
        });
    }
    group.finish();

    assert_eq!(read_viewed(&wthor), read_owned(&wthor));
    assert_eq!(read_viewed(&text_inputs), read_owned(&text_inputs));
    let mut group = c.benchmark_group("read");
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("wthor-view", |b| b.iter(|| read_viewed(black_box(&wthor))));
    group.bench_function("wthor-owned", |b| b.iter(|| read_owned(black_box(&wthor))));
    group.throughput(Throughput::Elements(text_games as u64));
    group.bench_function("text-view", |b| {
        b.iter(|| read_viewed(black_box(&text_inputs)))
    });
    group.bench_function("text-owned", |b| {
        b.iter(|| read_owned(black_box(&text_inputs)))
    });
    group.finish();

    let mut group = c.benchmark_group("variants");
    group.throughput(Throughput::Elements(2000));
    group.bench_function("10x10-validate-j1", |b| {
        b.iter(|| pipeline(black_box(&ten), 1))
    });
    group.bench_function("octagon-validate-j1", |b| {
        b.iter(|| pipeline(black_box(&octagon), 1))
    });
    group.bench_function("10x10-flip-claims-validate-j1", |b| {
        b.iter(|| pipeline(black_box(&ten_claims), 1))
    });
    group.bench_function("octagon-flip-claims-validate-j1", |b| {
        b.iter(|| pipeline(black_box(&octagon_claims), 1))
    });
    group.finish();
}

/// The plain loop over every WTHOR record: the number of valid games.
#[inline(never)]
fn plain_wthor_loop(files: &[(PathBuf, Vec<u8>)]) -> usize {
    let mut valid = 0;
    for (_, bytes) in files {
        for record in bytes[16..].chunks_exact(68) {
            valid += usize::from(plain_wthor(record));
        }
    }
    valid
}

/// The plain loop over a PGN/RGN text: the number of valid games.
#[inline(never)]
fn plain_text_loop(text: &[u8]) -> usize {
    split_text(text)
        .into_iter()
        .filter(|g| plain_text(g))
        .count()
}

criterion_group!(benches, validate);
criterion_main!(benches);
