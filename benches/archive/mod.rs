//! Where the benchmarks find their games: the WTHOR years in the folder named by the
//! environment variable `REVERSI_ARCHIVE` (a folder of WTHOR files, `WTH_*.wtb` with
//! `WTHOR.JOU` and `WTHOR.TRN` beside them, such as the whole FFO base), and when it is
//! unset in `data/wthor` (the five years the repository carries; `data/SOURCES.md`); the
//! other inputs in `data/`. A missing file stops the benchmark with its name: nothing is
//! left out quietly.

use std::path::{Path, PathBuf};

/// The repository's real data.
pub const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// The folder of WTHOR files the benchmarks read: `$REVERSI_ARCHIVE`, else `data/wthor`.
pub fn wthor_dir() -> PathBuf {
    match std::env::var_os("REVERSI_ARCHIVE") {
        Some(dir) if !dir.is_empty() => PathBuf::from(dir),
        _ => Path::new(DATA).join("wthor"),
    }
}

/// The `*.wtb` files of [`wthor_dir`], sorted, as (path, bytes); at least one.
pub fn wthor_files() -> Vec<(PathBuf, Vec<u8>)> {
    let dir = wthor_dir();
    let entries = std::fs::read_dir(&dir).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (REVERSI_ARCHIVE names a folder of WTHOR files; unset, data/wthor)",
            dir.display()
        )
    });
    let mut paths: Vec<PathBuf> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e.eq_ignore_ascii_case("wtb")))
        .collect();
    paths.sort();
    assert!(!paths.is_empty(), "{}: no .wtb file", dir.display());
    let files: Vec<_> = paths
        .into_iter()
        .map(|p| {
            let bytes = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
            (p, bytes)
        })
        .collect();
    eprintln!("{} WTHOR files from {}", files.len(), dir.display());
    files
}

/// A file of `data/`, by its path below it, as (path, bytes).
pub fn data_file(rel: &str) -> (PathBuf, Vec<u8>) {
    let path = Path::new(DATA).join(rel);
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the real data is part of the repository (data/SOURCES.md)",
            path.display()
        )
    });
    (path, bytes)
}
