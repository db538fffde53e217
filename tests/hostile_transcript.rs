//! Transcript files too big to hold: the `reversi` binary run as a child process on a
//! generated transcript file of over 16 MB, of many grids and of one endless malformed
//! grid, for `validate` and `convert --to rgn`. The reader streams grid by grid, so each
//! run ends by itself, without a panic, with the exit code its findings give, in less than
//! 64 MB of peak memory (`tests/common/child.rs` measures it).
#![cfg(unix)]

mod common;

use common::child::{path_str, run};
use common::scratch;

use std::fs;
use std::path::Path;

/// FFO WTH_2019 #331 as a grid (formats.md 6.2), a legal game.
const GRID: &str = "Event: WTH 2019
Result: 34-30
   a  b  c  d  e  f  g  h
1 55 53 50 40 39 43 41  .
2 48 49 44 42 38  8 35 54
3 31 45  5 29 21  7 36 32
4 47 30 28  O  X  4 25 27
5 37 19 15  X  O  1  9 14
6 46 20 12 10  3  2 18 33
7 51 52 16 17  6 13 58 34
8 57 56 22 23 11 26 24  .

";

/// Over 16 MiB: the most the reader once held whole (and refused past).
const SIZE: usize = 17 << 20;

fn write_many(path: &Path) -> usize {
    let games = SIZE / GRID.len() + 1;
    fs::write(path, GRID.repeat(games)).unwrap();
    games
}

/// One grid that never ends: rows of numbers with no blank line between them.
fn write_endless(path: &Path) {
    let row = "1 2 3 4 5 6 7 8 9 10 11 12\n";
    fs::write(path, row.repeat(SIZE / row.len() + 1)).unwrap();
}

#[test]
fn validate_streams_a_big_transcript_file_of_many_grids() {
    let dir = scratch("transcript-many");
    let path = dir.join("many.transcript");
    let games = write_many(&path);
    let r = run(&["validate", "-q", "--from", "transcript", path_str(&path)]);
    r.sane("validate many grids");
    let out = r.stdout();
    assert_eq!(
        r.code,
        Some(0),
        "{}\n{}",
        r.stderr,
        &out[out.len().saturating_sub(2000)..]
    );
    assert!(
        out.contains(&format!("{games} games: {games} valid, 0 invalid")),
        "{}",
        &out[out.len().saturating_sub(2000)..]
    );
}

#[test]
fn convert_streams_a_big_transcript_file_of_many_grids() {
    let dir = scratch("transcript-convert");
    let path = dir.join("many.transcript");
    let games = write_many(&path);
    let out = dir.join("many.rgn");
    let r = run(&[
        "convert",
        "-q",
        "--from",
        "transcript",
        "--to",
        "rgn",
        "-o",
        path_str(&out),
        path_str(&path),
    ]);
    r.sane("convert many grids");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let text = fs::read_to_string(&out).unwrap();
    assert_eq!(text.matches("[Result \"34-30\"]").count(), games);
}

#[test]
fn an_endless_grid_is_skipped_with_a_diagnostic_in_flat_memory() {
    let dir = scratch("transcript-endless");
    let path = dir.join("endless.transcript");
    write_endless(&path);
    let r = run(&[
        "validate",
        "--from",
        "transcript",
        "--format",
        "jsonl",
        path_str(&path),
    ]);
    r.sane("validate an endless grid");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    let out = r.stdout();
    assert_eq!(
        out.matches("\"code\":\"syntax-too-long\"").count(),
        1,
        "{out}"
    );
    assert!(
        out.contains("the grid on line 1 is longer than 1 MiB"),
        "{out}"
    );
    let rgn = dir.join("endless.rgn");
    let c = run(&[
        "convert",
        "-q",
        "--from",
        "transcript",
        "--to",
        "rgn",
        "-o",
        path_str(&rgn),
        path_str(&path),
    ]);
    c.sane("convert an endless grid");
    assert_eq!(c.code, Some(1), "{}", c.stderr);
    assert!(c.stderr.contains("syntax-too-long"), "{}", c.stderr);
    assert!(!rgn.exists(), "no game converted, nothing written");
}
