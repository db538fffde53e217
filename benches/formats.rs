//! Validation and conversion in every format that holds a game, in games per second, each
//! beside a plain loop of its own:
//!
//! * `formats/<format>/plain-loop`: the fastest honest loop we can write for that format,
//!   independent of the crate: one scan of the format's text (its tags or properties
//!   stepped over, the squares and the claimed result pulled out, what the quick check
//!   refuses refused), and a replay on two `u64` bitboards (`benches/plain/mod.rs`: flips
//!   from precomputed rays, passes inferred unless the record writes them, and written
//!   passes when the moves claim their colours; a finished game's result checked, winner
//!   gets the empties; an unfinished game is valid, as the validator only warns);
//! * `formats/<format>/validate-j1`, `-j2`: the library's pipeline ([`Validation::run`],
//!   what `reversi validate --jobs N` runs, minus the printing) with 1 and 2 workers, in
//!   memory;
//! * `formats/convert/wthor-to-<format>-j1`, `-j2`: the WTHOR files converted by the
//!   library's conversion pipeline ([`Conversion::run`], what `reversi convert --jobs N`
//!   runs) into each text target, written to a sink.
//!
//! The games are those of the real WTHOR files (`data/wthor/*.wtb`, 14,357 games, their
//! names from `WTHOR.JOU`/`WTHOR.TRN`; another folder of WTHOR files with
//! `REVERSI_ARCHIVE=DIR`, such as the whole FFO base), or with `BENCH_SAMPLE_ONLY=1` our
//! own sample `benches/data/sample.wtb` (300 generated games). They
//! are read into records once and written once, in memory, by the library's writers into
//! each format: WTHOR (the files themselves), RGN, PGN (`pgn:thor`), move strings, GGF,
//! SGF, JSON, JSON Lines and transcript grids; lossily (`WriteOptions::lossy`) where the
//! format cannot hold WTHOR's tags. OBF holds positions, not games (a game is written as
//! the position it reaches): it has no group.
//!
//! Before timing, each plain loop's count of valid games is checked against the pipeline's,
//! on the whole corpus and on a damaged copy of its first 400 games (moves swapped, wrong
//! scores, unfinished games, a move on a full square), so that a loop that checks less
//! than the validator fails the run.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::time::Duration;

use criterion::{black_box, criterion_group, criterion_main, Criterion, SamplingMode, Throughput};
use reversi_check::validate::with_explicit_passes;
use reversi_formats::record::{ClaimedResult, Record, ResultScore};
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteError, WriteOptions};
use reversi_runs::pipeline::conversion::Conversion;
use reversi_runs::pipeline::{Input, Validation};

#[path = "plain/mod.rs"]
mod plain;

#[allow(dead_code)]
#[path = "archive/mod.rs"]
mod archive;

use plain::{discs, number, square, Claim, Squares, PASS};

/// Our own sample, committed beside the benchmarks.
const SAMPLE_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/benches/data");

/// WTHOR files of 8x8 games, as (path, bytes), and the folder of their name files: those
/// of `REVERSI_ARCHIVE` or `data/wthor`, or our sample with `BENCH_SAMPLE_ONLY=1`.
fn wthor_files() -> (Vec<(PathBuf, Vec<u8>)>, Option<PathBuf>) {
    if std::env::var_os("BENCH_SAMPLE_ONLY").is_some() {
        eprintln!("BENCH_SAMPLE_ONLY is set: using benches/data/sample.wtb");
        let sample = Path::new(SAMPLE_DIR).join("sample.wtb");
        let bytes = std::fs::read(&sample).expect("benches/data/sample.wtb is committed");
        return (vec![(sample, bytes)], None);
    }
    let dir = archive::wthor_dir();
    let files = archive::wthor_files();
    let names = dir.join("WTHOR.JOU").is_file().then_some(dir);
    (files, names)
}

/// The text formats: their name in the benchmark, the format and dialect written, and the
/// format they are read as.
const TEXT_FORMATS: [(&str, Format, Option<&str>, Format); 8] = [
    ("rgn", Format::Rgn, None, Format::Rgn),
    ("pgn-thor", Format::Pgn(PgnDialect::Thor), None, Format::Rgn),
    ("moves", Format::MoveString, None, Format::MoveString),
    ("ggf", Format::Ggf, None, Format::Ggf),
    ("sgf", Format::Sgf, None, Format::Sgf),
    ("json", Format::Json, None, Format::Json),
    ("jsonl", Format::Json, Some("lines"), Format::Json),
    ("transcript", Format::Transcript, None, Format::Transcript),
];

/// The options `format` writes WTHOR's records with: lossy only if it must be.
fn write_options(format: Format, dialect: Option<&str>, records: &[Record]) -> WriteOptions {
    let mut options = WriteOptions {
        dialect: dialect.map(str::to_string),
        ..WriteOptions::default()
    };
    let mut writer = format.writer(Box::new(std::io::sink()), &options);
    if records
        .iter()
        .any(|r| matches!(writer.write(r), Err(WriteError::CannotHold(_))))
    {
        options.lossy = true;
    }
    options
}

/// `records` written by `format`'s writer; refused games are left out.
fn written(format: Format, options: &WriteOptions, records: &[Record]) -> Vec<u8> {
    let mut out = Vec::new();
    {
        let mut writer = format.writer(Box::new(&mut out), options);
        for record in records {
            let _ = writer.write(record);
        }
        writer.finish().expect("memory takes everything");
    }
    out
}

/// The first games of `records`, damaged in the ways a plain loop must catch or let pass
/// as the validator does.
fn damaged(records: &[Record]) -> Vec<Record> {
    let mut out: Vec<Record> = records.iter().take(400).cloned().collect();
    for (i, record) in out.iter_mut().enumerate() {
        let n = record.moves.len();
        match i % 10 {
            // An illegal move.
            3 if n > 1 => record.moves.swap(0, 1),
            // A wrong score (a finished game's is an error).
            6 => {
                if let Some(ClaimedResult {
                    score: ResultScore::Discs(d),
                    ..
                }) = &record.result
                {
                    let (b, w) = (d[0], d[1]);
                    let d = if w >= 2 {
                        [b + 2, w - 2]
                    } else {
                        [b.saturating_sub(2), w + 2]
                    };
                    record.result = Some(ClaimedResult::discs(d.to_vec()));
                }
            }
            // An unfinished game (a warning only, the score unchecked).
            8 if n > 6 => record.moves.truncate(n - 6),
            // A move on a full square.
            9 if n > 0 => {
                let first = record.moves[0].clone();
                record.moves.push(first);
            }
            _ => {}
        }
    }
    out
}

/// Games and valid games by the pipeline with `jobs` workers.
fn pipeline(inputs: &[(Format, &'static [u8])], jobs: usize) -> (usize, usize) {
    let inputs = inputs.iter().map(|&(format, bytes)| {
        let input = Input {
            format,
            reader: Box::new(Cursor::new(bytes)),
            options: ReadOptions::default(),
        };
        ((), Some(input))
    });
    let summary = Validation::new()
        .jobs(jobs)
        .run(inputs, |event| {
            black_box(&event);
            Ok(())
        })
        .expect("in-memory inputs read");
    (summary.games, summary.valid)
}

/// The WTHOR files converted to `target` by the pipeline with `jobs` workers: the games
/// written.
fn convert(
    files: &[(Format, &'static [u8])],
    names: Option<&Path>,
    target: Format,
    options: &WriteOptions,
    jobs: usize,
) -> usize {
    let inputs = files.iter().map(|&(format, bytes)| {
        let input = Input {
            format,
            reader: Box::new(Cursor::new(bytes)),
            options: ReadOptions {
                names_dir: names.map(Path::to_path_buf),
                ..ReadOptions::default()
            },
        };
        ((), Some(input))
    });
    let mut writer = target.writer(Box::new(std::io::sink()), options);
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

fn leak(bytes: Vec<u8>) -> &'static [u8] {
    Box::leak(bytes.into_boxed_slice())
}

/// A group's settings: few samples, short times, one iteration count for all samples (an
/// iteration of the slowest formats takes a second).
fn settle(group: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>) {
    group.sample_size(10);
    group.sampling_mode(SamplingMode::Flat);
    group.warm_up_time(Duration::from_millis(500));
    group.measurement_time(Duration::from_secs(2));
}

fn formats(c: &mut Criterion) {
    let (files, names) = wthor_files();
    assert!(!files.is_empty(), "no WTHOR files");
    let mut records = Vec::new();
    for (path, bytes) in &files {
        let options = ReadOptions {
            path: Some(path.clone()),
            ..ReadOptions::default()
        };
        for game in Format::Wthor.read(Box::new(Cursor::new(bytes.clone())), &options) {
            let game = game.expect("the WTHOR files read");
            let record = game.record.expect("every WTHOR record reads");
            records.push(with_explicit_passes(&record).into_owned());
        }
    }
    let games = records.len();
    let wthor: Vec<(Format, &'static [u8])> = files
        .iter()
        .map(|(_, bytes)| (Format::Wthor, leak(bytes.clone())))
        .collect();
    let damaged_records = damaged(&records);

    // WTHOR: the files themselves.
    let plain_valid = plain_wthor_loop(&wthor);
    assert_eq!(
        (games, plain_valid),
        pipeline(&wthor, 1),
        "the plain loop and the validator agree on WTHOR"
    );
    let largest = wthor
        .iter()
        .map(|(_, bytes)| *bytes)
        .max_by_key(|b| b.len());
    let broken = leak(damaged_wthor(largest.unwrap_or_default()));
    let piped_broken = pipeline(&[(Format::Wthor, broken)], 1);
    assert_eq!(
        plain_wthor_loop(&[(Format::Wthor, broken)]),
        piped_broken.1,
        "the plain loop and the validator agree on damaged WTHOR records"
    );
    assert!(piped_broken.1 < piped_broken.0, "wthor: damage is found");
    eprintln!(
        "wthor: {games} games in {} files; damaged copy of the largest: {} of {} valid",
        wthor.len(),
        piped_broken.1,
        piped_broken.0
    );
    let mut group = c.benchmark_group("formats/wthor");
    settle(&mut group);
    group.throughput(Throughput::Elements(games as u64));
    group.bench_function("plain-loop", |b| {
        b.iter(|| plain_wthor_loop(black_box(&wthor)))
    });
    for jobs in [1, 2] {
        group.bench_function(format!("validate-j{jobs}"), |b| {
            b.iter(|| pipeline(black_box(&wthor), jobs))
        });
    }
    group.finish();

    let mut targets = Vec::new();
    for (name, format, dialect, read_as) in TEXT_FORMATS {
        let options = write_options(format, dialect, &records);
        let text = leak(written(format, &options, &records));
        let inputs = [(read_as, text)];
        let plain_games = plain_loop(name, text);
        assert_eq!(
            plain_games,
            pipeline(&inputs, 1),
            "the plain loop and the validator agree on {name}"
        );
        assert_eq!(plain_games.0, games, "every game of {name} is found");
        let broken = leak(written(format, &options, &damaged_records));
        let (plain_broken, piped_broken) =
            (plain_loop(name, broken), pipeline(&[(read_as, broken)], 1));
        assert_eq!(
            plain_broken, piped_broken,
            "the plain loop and the validator agree on damaged {name}"
        );
        assert!(piped_broken.1 < piped_broken.0, "{name}: damage is found");
        eprintln!(
            "{name}: {games} games, {:.1} MB{}; damaged copy: {} of {} valid",
            text.len() as f64 / 1e6,
            if options.lossy {
                ", written lossily"
            } else {
                ""
            },
            piped_broken.1,
            piped_broken.0,
        );

        let mut group = c.benchmark_group(format!("formats/{name}"));
        settle(&mut group);
        group.throughput(Throughput::Elements(games as u64));
        group.bench_function("plain-loop", |b| {
            b.iter(|| plain_loop(name, black_box(text)))
        });
        for jobs in [1, 2] {
            group.bench_function(format!("validate-j{jobs}"), |b| {
                b.iter(|| pipeline(black_box(&inputs), jobs))
            });
        }
        group.finish();
        targets.push((name, format, options));
    }

    let mut group = c.benchmark_group("formats/convert");
    settle(&mut group);
    group.throughput(Throughput::Elements(games as u64));
    for (name, format, options) in &targets {
        assert_eq!(
            convert(&wthor, names.as_deref(), *format, options, 2),
            games,
            "every game converts to {name}"
        );
        for jobs in [1, 2] {
            group.bench_function(format!("wthor-to-{name}-j{jobs}"), |b| {
                b.iter(|| convert(black_box(&wthor), names.as_deref(), *format, options, jobs))
            });
        }
    }
    group.finish();
}

/// The plain loop of the format `name`: games found and valid.
fn plain_loop(name: &str, text: &[u8]) -> (usize, usize) {
    match name {
        "rgn" | "pgn-thor" => plain_text_loop(text),
        "moves" => plain_moves_loop(text),
        "ggf" => plain_ggf_loop(text),
        "sgf" => plain_sgf_loop(text),
        "json" | "jsonl" => plain_json_loop(text),
        "transcript" => plain_transcript_loop(text),
        _ => unreachable!("a format without a plain loop: {name}"),
    }
}

// ---------------------------------------------------------------------------------------
// WTHOR.

/// A copy of the WTHOR file `bytes` with every 10th record damaged: moves swapped, a wrong
/// score, a move byte off the board, moves cut short (unfinished, valid).
fn damaged_wthor(bytes: &[u8]) -> Vec<u8> {
    let mut out = bytes.to_vec();
    for (i, record) in out[16..].chunks_exact_mut(68).enumerate().take(400) {
        match i % 10 {
            3 => record.swap(8, 9),
            6 => record[6] = record[6].wrapping_add(2) % 65,
            7 => record[8 + 20] = 19,
            8 => record[8 + 50..].fill(0),
            _ => {}
        }
    }
    out
}

/// Replays one WTHOR record: every move byte names a square and is legal (passes
/// inferred), the slots after the moves are 0, and the stored score is right.
#[inline]
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
    let valid = plain::replay(squares, false, Claim::Discs(record[6], 64 - record[6]));
    valid && !bad
}

/// The plain loop over every WTHOR record: the number of valid games.
#[inline(never)]
fn plain_wthor_loop(files: &[(Format, &[u8])]) -> usize {
    let mut valid = 0;
    for (_, bytes) in files {
        for record in bytes[16..].chunks_exact(68) {
            valid += usize::from(plain_wthor(record));
        }
    }
    valid
}

// ---------------------------------------------------------------------------------------
// RGN and PGN.

/// Scans and replays one PGN/RGN game's text in one pass: tags (the `Result` kept),
/// move numbers, `{}` and `;` comments, squares, `--` passes and a closing result.
fn plain_text(game: &[u8]) -> bool {
    let mut squares = Squares::new();
    let mut claimed = None;
    let mut i = 0;
    while i < game.len() {
        match game[i] {
            b'[' => {
                let end = i + memchr::memchr(b'\n', &game[i..]).unwrap_or(game.len() - i);
                let line = &game[i..end];
                if line.starts_with(b"[Result \"") {
                    claimed = discs(&line[9..line.len().saturating_sub(2)]);
                }
                i = end;
            }
            b'{' => i += memchr::memchr(b'}', &game[i..]).unwrap_or(game.len() - i) + 1,
            b';' => i += memchr::memchr(b'\n', &game[i..]).unwrap_or(game.len() - i),
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
                    [c, r] if square(*c, *r).is_some() => {
                        if !squares.push(square(*c, *r).unwrap_or(0)) {
                            return false;
                        }
                    }
                    b"--" => {
                        if !squares.push(PASS) {
                            return false;
                        }
                    }
                    _ => match discs(w) {
                        Some(s) if claimed.map_or(true, |c| c == s) => claimed = Some(s),
                        _ => return false,
                    },
                }
                i = end;
            }
        }
    }
    let claim = claimed.map_or(Claim::Nothing, |(b, w)| Claim::Discs(b, w));
    squares.replay(claim)
}

/// The plain loop over a PGN/RGN text: games found and valid. A game starts at a tag line
/// after movetext.
#[inline(never)]
fn plain_text_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    let (mut start, mut in_moves, mut at) = (0, false, 0);
    let mut game = |g: &[u8]| {
        games += 1;
        valid += usize::from(plain_text(g));
    };
    for line in text.split_inclusive(|&b| b == b'\n') {
        let first = line.iter().find(|b| !b.is_ascii_whitespace());
        if first == Some(&b'[') && in_moves {
            game(&text[start..at]);
            start = at;
            in_moves = false;
        } else if first.is_some() && first != Some(&b'[') {
            in_moves = true;
        }
        at += line.len();
    }
    if text[start..].iter().any(|b| !b.is_ascii_whitespace()) {
        game(&text[start..]);
    }
    (games, valid)
}

// ---------------------------------------------------------------------------------------
// Move strings.

/// One line of moves: squares in either case, `--`, `pa`, `ps`, `pass` or `@@` for a
/// pass, spaces or commas between them; no result.
#[inline]
fn plain_moves(line: &[u8]) -> bool {
    let mut squares = Squares::new();
    let mut i = 0;
    while i < line.len() {
        let c = line[i];
        if matches!(c, b' ' | b',' | b'\t' | b'\r') {
            i += 1;
            continue;
        }
        let Some(&next) = line.get(i + 1) else {
            return false;
        };
        let (sq, len) = match square(c, next) {
            Some(sq) => (sq, 2),
            None => match [c | 0x20, next | 0x20] {
                [b'p', b'a']
                    if line[i..].len() >= 4 && line[i + 2..i + 4].eq_ignore_ascii_case(b"ss") =>
                {
                    (PASS, 4)
                }
                [b'p', b'a' | b's'] => (PASS, 2),
                _ if [c, next] == *b"--" || [c, next] == *b"@@" => (PASS, 2),
                _ => return false,
            },
        };
        if !squares.push(sq) {
            return false;
        }
        i += len;
    }
    squares.replay(Claim::Nothing)
}

/// The plain loop over move strings: games found and valid. Blank lines and comment lines
/// (`#`, `%`) are skipped.
#[inline(never)]
fn plain_moves_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    for line in text.split(|&b| b == b'\n') {
        match line.iter().find(|b| !b.is_ascii_whitespace()) {
            None | Some(b'#' | b'%') => continue,
            Some(_) => {}
        }
        games += 1;
        valid += usize::from(plain_moves(line));
    }
    (games, valid)
}

// ---------------------------------------------------------------------------------------
// GGF.

/// GGS's standard Othello board.
const STANDARD_BO: &[u8] =
    b"8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";

/// A GGF `RE` margin: a signed number with zero decimals (no flags such as `:r`).
fn ggf_margin(value: &[u8]) -> Option<i16> {
    let (sign, rest) = match value.first()? {
        b'+' => (1, &value[1..]),
        b'-' => (-1, &value[1..]),
        _ => (1, value),
    };
    let (whole, decimals) = match rest.iter().position(|&b| b == b'.') {
        Some(dot) => (&rest[..dot], &rest[dot + 1..]),
        None => (rest, &b""[..]),
    };
    if !decimals.iter().all(|&b| b == b'0') {
        return None;
    }
    Some(sign * i16::try_from(number(whole)?).ok()?)
}

/// Scans and replays the GGF game at `text[at..]` (`(;` first): properties up to `;)`,
/// `GM[Othello]`, `TY[8]`, the standard `BO` if any, no komi, `RE` a whole-number margin,
/// `B[..]` and `W[..]` taking turns (`PA` a pass; evaluations and times after a `/`).
/// Returns whether it is valid and where it ends.
fn plain_ggf(text: &[u8], at: usize) -> (bool, usize) {
    let mut squares = Squares::new();
    let mut claim = Claim::Nothing;
    let mut plain = true;
    let mut black_to_move = true;
    let mut i = at + 2;
    loop {
        while text.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        if text[i.min(text.len())..].starts_with(b";)") {
            return (plain && squares.replay_strict(claim), i + 2);
        }
        let start = i;
        while text.get(i).is_some_and(u8::is_ascii_alphanumeric) {
            i += 1;
        }
        if i == start || text.get(i) != Some(&b'[') {
            return (false, i + 1);
        }
        let id = &text[start..i];
        let Some(len) = text[i + 1..].iter().position(|&b| b == b']') else {
            return (false, text.len());
        };
        let value = &text[i + 1..i + 1 + len];
        i += len + 2;
        match id {
            b"GM" => plain &= value.eq_ignore_ascii_case(b"othello"),
            b"TY" => plain &= value == b"8",
            b"BO" => plain &= value == STANDARD_BO,
            b"KM" => plain &= ggf_margin(value) == Some(0),
            b"RE" => match ggf_margin(value) {
                Some(m) => claim = Claim::Margin(m),
                None => plain = false,
            },
            b"B" | b"W" => {
                plain &= (id == b"B") == black_to_move;
                black_to_move = !black_to_move;
                let mv = &value[..memchr::memchr(b'/', value).unwrap_or(value.len())];
                let sq = match mv {
                    [c, r] if square(*c, *r).is_some() => square(*c, *r).unwrap_or(0),
                    _ if mv.eq_ignore_ascii_case(b"pa") => PASS,
                    _ => {
                        plain = false;
                        continue;
                    }
                };
                plain &= squares.push(sq);
            }
            _ => {}
        }
    }
}

/// The plain loop over GGF text: games found and valid.
#[inline(never)]
fn plain_ggf_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    let mut at = 0;
    while let Some(open) = memchr::memmem::find(&text[at..], b"(;") {
        let (ok, end) = plain_ggf(text, at + open);
        games += 1;
        valid += usize::from(ok);
        at = end.min(text.len());
    }
    (games, valid)
}

// ---------------------------------------------------------------------------------------
// SGF.

/// An SGF `RE`: `B+8`, `W+8`, `0` or `Draw`, as Black's margin.
fn sgf_margin(value: &[u8]) -> Option<i16> {
    match value {
        b"0" | b"Draw" | b"D" => Some(0),
        [b'B', b'+', n @ ..] => Some(i16::try_from(number(n)?).ok()?),
        [b'W', b'+', n @ ..] => Some(-i16::try_from(number(n)?).ok()?),
        _ => None,
    }
}

/// The end of the SGF value opening at `text[open]` (`[`): the index of its `]`, escapes
/// (`\]`) stepped over.
#[inline]
fn sgf_value_end(text: &[u8], open: usize) -> Option<usize> {
    // Most values are short: a byte loop beats a vectorised search.
    let mut i = open + 1;
    loop {
        match *text.get(i)? {
            b']' => return Some(i),
            b'\\' => i += 2,
            _ => i += 1,
        }
    }
}

/// Scans and replays the SGF game at `text[at..]` (`(` first): one line of nodes, `GM[2]`,
/// `SZ[8]`, the standard start in `AB` and `AW` with Black to play, `RE` a margin, `B[..]`
/// and `W[..]` taking turns (`PA` or empty a pass). Returns whether it is valid and where
/// it ends.
fn plain_sgf(text: &[u8], at: usize) -> (bool, usize) {
    const BLACK: u64 = 1 << 28 | 1 << 35;
    const WHITE: u64 = 1 << 27 | 1 << 36;
    let mut squares = Squares::new();
    let mut claim = Claim::Nothing;
    let mut plain = true;
    let mut black_to_move = true;
    let (mut black, mut white, mut moved) = (0u64, 0u64, false);
    let mut i = at + 1;
    loop {
        while text.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        match text.get(i) {
            None => return (false, i),
            Some(b';') => {
                i += 1;
                continue;
            }
            Some(b')') => {
                plain &= black == BLACK && white == WHITE;
                return (plain && squares.replay_strict(claim), i + 1);
            }
            Some(c) if c.is_ascii_uppercase() => {}
            Some(_) => return (false, i + 1),
        }
        let start = i;
        while text.get(i).is_some_and(u8::is_ascii_uppercase) {
            i += 1;
        }
        let id = &text[start..i];
        let mut values = 0;
        loop {
            while text.get(i).is_some_and(u8::is_ascii_whitespace) {
                i += 1;
            }
            if text.get(i) != Some(&b'[') {
                break;
            }
            let Some(close) = sgf_value_end(text, i) else {
                return (false, text.len());
            };
            let value = &text[i + 1..close];
            i = close + 1;
            values += 1;
            match id {
                b"GM" => plain &= value == b"2",
                b"SZ" => plain &= value == b"8",
                b"PL" => plain &= value == b"B",
                b"RE" => match sgf_margin(value) {
                    Some(m) => claim = Claim::Margin(m),
                    None => plain = false,
                },
                b"AB" | b"AW" => {
                    plain &= !moved;
                    match value {
                        [c, r] if square(*c, *r).is_some() => {
                            let bit = 1u64 << square(*c, *r).unwrap_or(0);
                            if id == b"AB" {
                                black |= bit;
                            } else {
                                white |= bit;
                            }
                        }
                        _ => plain = false,
                    }
                }
                b"B" | b"W" => {
                    moved = true;
                    plain &= values == 1 && (id == b"B") == black_to_move;
                    black_to_move = !black_to_move;
                    let sq = match value {
                        [c, r] if square(*c, *r).is_some() => square(*c, *r).unwrap_or(0),
                        [] | b"PA" | b"pa" => PASS,
                        _ => {
                            plain = false;
                            continue;
                        }
                    };
                    plain &= squares.push(sq);
                }
                _ => {}
            }
        }
        if values == 0 {
            return (false, i + 1);
        }
    }
}

/// The plain loop over SGF text: games found and valid.
#[inline(never)]
fn plain_sgf_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    let mut at = 0;
    while let Some(open) = memchr::memchr(b'(', &text[at..]) {
        let (ok, end) = plain_sgf(text, at + open);
        games += 1;
        valid += usize::from(ok);
        at = end.min(text.len());
    }
    (games, valid)
}

// ---------------------------------------------------------------------------------------
// JSON and JSON Lines.

/// A cursor over JSON text, with just what a game's scan needs.
struct Json<'t> {
    text: &'t [u8],
    at: usize,
}

impl<'t> Json<'t> {
    /// Steps over whitespace.
    #[inline]
    fn ws(&mut self) {
        while self.text.get(self.at).is_some_and(u8::is_ascii_whitespace) {
            self.at += 1;
        }
    }

    /// The next byte that is not whitespace, stepped over if it is `byte`.
    #[inline]
    fn eat(&mut self, byte: u8) -> bool {
        self.ws();
        let found = self.text.get(self.at) == Some(&byte);
        self.at += usize::from(found);
        found
    }

    /// A string's raw content (escapes stepped over, not decoded).
    #[inline]
    fn string(&mut self) -> Option<&'t [u8]> {
        if !self.eat(b'"') {
            return None;
        }
        // Most strings are short: a byte loop beats a vectorised search.
        let start = self.at;
        loop {
            match *self.text.get(self.at)? {
                b'"' => {
                    self.at += 1;
                    return Some(&self.text[start..self.at - 1]);
                }
                b'\\' => self.at += 2,
                _ => self.at += 1,
            }
        }
    }

    /// A number of at most three digits.
    fn number(&mut self) -> Option<u16> {
        self.ws();
        let start = self.at;
        while self.text.get(self.at).is_some_and(u8::is_ascii_digit) {
            self.at += 1;
        }
        number(&self.text[start..self.at])
    }

    /// Steps over a value of any kind.
    fn skip(&mut self) -> Option<()> {
        self.ws();
        match *self.text.get(self.at)? {
            b'"' => self.string().map(drop),
            b'{' | b'[' => {
                let mut depth = 0usize;
                loop {
                    match *self.text.get(self.at)? {
                        b'"' => {
                            self.string()?;
                            continue;
                        }
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => depth -= 1,
                        _ => {}
                    }
                    self.at += 1;
                    if depth == 0 {
                        return Some(());
                    }
                }
            }
            _ => {
                while self
                    .text
                    .get(self.at)
                    .is_some_and(|b| !b",]} \t\r\n".contains(b))
                {
                    self.at += 1;
                }
                Some(())
            }
        }
    }

    /// The keys of an object (its `{` already eaten), each handed to `value` to read its
    /// value; `None` on a syntax error.
    fn object(&mut self, mut value: impl FnMut(&mut Self, &'t [u8]) -> Option<()>) -> Option<()> {
        if self.eat(b'}') {
            return Some(());
        }
        loop {
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            value(self, key)?;
            if self.eat(b'}') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// The elements of an array (its `[` already eaten), each read by `element`.
    fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        if self.eat(b']') {
            return Some(());
        }
        loop {
            element(self)?;
            if self.eat(b']') {
                return Some(());
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// One game object: `rules` standard Othello, `tags` and `comment` stepped over, `moves`
    /// of `{"move": square or "pass"}`, `result` a score in discs; anything else
    /// (a start, position claims, flips, a termination) is not plain. Whether it is valid.
    fn game(&mut self) -> Option<bool> {
        if !self.eat(b'{') {
            return None;
        }
        let mut squares = Squares::new();
        let mut claim = Claim::Nothing;
        let mut plain = true;
        self.object(|j, key| match key {
            b"rules" => {
                plain &= j.string()? == b"othello";
                Some(())
            }
            b"tags" | b"comment" => j.skip(),
            b"moves" => {
                if !j.eat(b'[') {
                    return None;
                }
                j.array(|j| {
                    if !j.eat(b'{') {
                        return None;
                    }
                    j.object(|j, key| {
                        if key != b"move" {
                            plain = false;
                            return j.skip();
                        }
                        let sq = match j.string()? {
                            [c, r] if square(*c, *r).is_some() => square(*c, *r).unwrap_or(0),
                            b"pass" => PASS,
                            _ => {
                                plain = false;
                                return Some(());
                            }
                        };
                        plain &= squares.push(sq);
                        Some(())
                    })
                })
            }
            b"result" => {
                if !j.eat(b'{') {
                    return None;
                }
                j.object(|j, key| {
                    if key != b"score" || !j.eat(b'{') {
                        plain = false;
                        return j.skip();
                    }
                    j.object(|j, key| {
                        if key != b"discs" || !j.eat(b'[') {
                            plain = false;
                            return j.skip();
                        }
                        let mut counts = [0u16; 3];
                        let mut n = 0;
                        j.array(|j| {
                            counts[n.min(2)] = j.number()?;
                            n += 1;
                            Some(())
                        })?;
                        match (n, u8::try_from(counts[0]), u8::try_from(counts[1])) {
                            (2, Ok(b), Ok(w)) => claim = Claim::Discs(b, w),
                            _ => plain = false,
                        }
                        Some(())
                    })
                })
            }
            _ => {
                plain = false;
                j.skip()
            }
        })?;
        Some(plain && squares.replay(claim))
    }
}

/// The plain loop over JSON text: a document (`{"format": ..., "games": [...]}`) or JSON
/// Lines (one game object after another): games found and valid.
#[inline(never)]
fn plain_json_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    let mut json = Json { text, at: 0 };
    let document =
        json.eat(b'{') && matches!(json.string(), Some(b"format" | b"version" | b"games"));
    json.at = 0;
    let mut game = |j: &mut Json<'_>| {
        let ok = j.game()?;
        games += 1;
        valid += usize::from(ok);
        Some(())
    };
    if document {
        json.eat(b'{');
        let read = json.object(|j, key| {
            if key != b"games" {
                return j.skip();
            }
            if !j.eat(b'[') {
                return None;
            }
            j.array(&mut game)
        });
        assert!(read.is_some(), "the JSON document reads");
    } else {
        loop {
            json.ws();
            if json.at == text.len() {
                break;
            }
            assert!(game(&mut json).is_some(), "the JSON Lines read");
        }
    }
    (games, valid)
}

// ---------------------------------------------------------------------------------------
// Transcript grids.

/// One grid and its header lines: `Result:` (or `Score:`, `Final:`, `Outcome:`) as disc
/// counts, other tags stepped over; eight rows of eight cells, each row with its number
/// first; every cell a move number, `.` (or `-`, `_`) for an empty square, or the start's
/// disc letters on the four centre squares; the numbers 1 to n each once. Passes are
/// inferred.
fn plain_transcript(lines: &[&[u8]]) -> bool {
    let mut order = [0u8; 64];
    let (mut numbers, mut highest) = (0usize, 0usize);
    let mut claim = Claim::Nothing;
    let mut rows = 0u8;
    let mut centre = [0u8; 4];
    let mut result_seen = false;
    for line in lines {
        let line = line.trim_ascii();
        match line.first() {
            Some(b'0'..=b'9') => {}
            Some(c) if c.is_ascii_alphabetic() => {
                // A header line, or the column letters.
                let Some(colon) = memchr::memchr(b':', line) else {
                    if line
                        .iter()
                        .all(|&b| b == b' ' || (b'a'..=b'h').contains(&b))
                    {
                        continue;
                    }
                    return false;
                };
                let name = &line[..colon];
                if !result_seen
                    && [&b"Result"[..], b"Score", b"Final", b"Outcome"]
                        .iter()
                        .any(|n| name.eq_ignore_ascii_case(n))
                {
                    result_seen = true;
                    match discs(line[colon + 1..].trim_ascii()) {
                        Some((b, w)) => claim = Claim::Discs(b, w),
                        None => return false,
                    }
                }
                continue;
            }
            _ => return false,
        }
        let mut cells = line.split(|&b| b == b' ').filter(|cell| !cell.is_empty());
        let row = match cells.next().and_then(number) {
            Some(row @ 1..=8) if rows & 1 << (row - 1) == 0 => row as u8 - 1,
            _ => return false,
        };
        rows |= 1 << row;
        let mut col = 0u8;
        for cell in cells {
            if col == 8 {
                return false;
            }
            let sq = row * 8 + col;
            match cell {
                b"." | b"-" | b"_" => {}
                [b'X' | b'O'] => match sq {
                    27 => centre[0] = cell[0],
                    28 => centre[1] = cell[0],
                    35 => centre[2] = cell[0],
                    36 => centre[3] = cell[0],
                    _ => return false,
                },
                _ => match number(cell) {
                    Some(n @ 1..=60) if !matches!(sq, 27 | 28 | 35 | 36) => {
                        let n = usize::from(n);
                        if order[n - 1] != 0 {
                            return false;
                        }
                        order[n - 1] = sq + 1;
                        numbers += 1;
                        highest = highest.max(n);
                    }
                    _ => return false,
                },
            }
            col += 1;
        }
        if col != 8 {
            return false;
        }
    }
    rows == 0xff
        && centre == *b"OXXO"
        && numbers == highest
        && plain::replay(order[..numbers].iter().map(|&s| s - 1), false, claim)
}

/// The plain loop over transcript grids: games found and valid. A grid's lines run to a
/// blank line (or the end); `#` and `%` lines are comments.
#[inline(never)]
fn plain_transcript_loop(text: &[u8]) -> (usize, usize) {
    let (mut games, mut valid) = (0, 0);
    let mut lines: Vec<&[u8]> = Vec::with_capacity(32);
    let mut game = |lines: &mut Vec<&[u8]>| {
        if !lines.is_empty() {
            games += 1;
            valid += usize::from(plain_transcript(lines));
            lines.clear();
        }
    };
    for line in text.split(|&b| b == b'\n') {
        match line.iter().find(|b| !b.is_ascii_whitespace()) {
            None => game(&mut lines),
            Some(b'#' | b'%') => {}
            Some(_) => lines.push(line),
        }
    }
    game(&mut lines);
    (games, valid)
}

criterion_group!(benches, formats);
criterion_main!(benches);
