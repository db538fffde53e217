//! Every diagnostic code is produced by at least one fixture: the fixture directories are
//! read with the right reader, every game is validated (and the repair fixtures repaired),
//! every scenario is run (`fixtures/scenario/invalid/` holds one failing scenario per
//! scenario code), and the codes seen are compared with [`CODES`]. The one input too big to
//! commit, a game over 1 MiB for `syntax-too-long`, is written at run time into a
//! temporary directory and read the same way: no code is exempt.

use std::collections::BTreeSet;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_check::event::{Event, Register, Schedule};
use reversi_check::repair::{repair_game, RepairOptions};
use reversi_check::scenario;
use reversi_check::validate::validate_game;
use reversi_formats::codes::{Code, CODES};
use reversi_formats::text::MAX_GAME_BYTES;
use reversi_formats::{Format, ReadOptions};

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

/// Every file under `dir`, sorted.
fn files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).expect("a fixture directory") {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                stack.push(path);
            } else {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// The reader for a fixture: transcripts by their directory, the rest by extension. Files
/// that are no record (expected outputs, perft and scenario files, READMEs) give `None`.
fn format_of(path: &Path) -> Option<Format> {
    let rel = path.strip_prefix(FIXTURES).ok()?;
    let top = rel.components().next()?.as_os_str().to_str()?;
    let ext = path.extension()?.to_str()?;
    if path.file_name().is_some_and(|n| n == "players.csv") {
        // A player register, read beside its folder's games.
        return None;
    }
    match top {
        "rules" | "perft" | "show" => None,
        "transcript" if ext == "txt" => Some(Format::Transcript),
        _ => Format::from_extension(ext),
    }
}

/// The codes every fixture produces.
fn produced() -> BTreeSet<Code> {
    let mut codes = BTreeSet::new();
    for path in files(Path::new(FIXTURES)) {
        if path.extension().is_some_and(|e| e == "scenario") {
            let text = std::fs::read_to_string(&path).expect("a scenario");
            if let Err(e) = scenario::run(&text) {
                codes.insert(e.kind.code());
            }
            continue;
        }
        let Some(format) = format_of(&path) else {
            continue;
        };
        let repair = path.components().any(|c| c.as_os_str() == "repair");
        codes.extend(read_codes(&path, format, repair));
    }
    codes.extend(across_games_codes());
    codes.extend(too_long_codes());
    codes
}

/// The codes of the checks across games, each fixture directory taken as one event (with
/// its `pairings.csv` and its register `players.csv`, when it has them).
fn across_games_codes() -> BTreeSet<Code> {
    let mut by_dir: std::collections::BTreeMap<PathBuf, Vec<PathBuf>> = Default::default();
    for path in files(Path::new(FIXTURES)) {
        if let Some(dir) = path.parent() {
            by_dir.entry(dir.to_path_buf()).or_default().push(path);
        }
    }
    let mut codes = BTreeSet::new();
    for (dir, paths) in by_dir {
        let mut event = Event::default();
        for path in paths {
            let Some(format) = format_of(&path) else {
                continue;
            };
            let Ok(text) = std::fs::read(&path) else {
                continue;
            };
            let name = path.to_string_lossy().into_owned();
            let options = ReadOptions {
                name: Arc::from(name.as_str()),
                path: Some(path.clone()),
                ..ReadOptions::default()
            };
            if let Ok(games) = format.read_bytes(text, &options) {
                event.add_games(&name, &games);
            }
        }
        if let Ok(bytes) = std::fs::read(dir.join("players.csv")) {
            let register = Register::from_bytes(&bytes).expect("a fixture's register reads");
            event.set_register(Arc::new(register));
        }
        let pairings = std::fs::read_to_string(dir.join("pairings.csv"))
            .ok()
            .map(|text| Schedule::parse(&text).expect("a fixture's pairings read"));
        codes.extend(event.check(pairings.as_ref()).iter().map(|f| f.code));
    }
    codes
}

/// The codes reading `path` as `format` and validating each game produces, and repairing
/// each game when `repair`.
fn read_codes(path: &Path, format: Format, repair: bool) -> BTreeSet<Code> {
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let options = ReadOptions {
        name: Arc::from(name.as_str()),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    let input = Box::new(BufReader::new(File::open(path).expect("an input")));
    let mut codes = BTreeSet::new();
    for game in format.read(input, &options).map_while(Result::ok) {
        codes.extend(validate_game(&game, &[] as &[&str]).iter().map(|d| d.code));
        if repair {
            let fixed = repair_game(&game, format, &options, &RepairOptions::default());
            codes.extend(fixed.report(game.index).map(|d| d.code));
        }
    }
    codes
}

/// The codes of a move-string file whose one line is longer than [`MAX_GAME_BYTES`],
/// written at run time into a temporary directory (it is too big to commit).
fn too_long_codes() -> BTreeSet<Code> {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let path = dir.path().join("too-long.txt");
    let line = "f5".repeat(MAX_GAME_BYTES / 2 + 1);
    std::fs::write(&path, format!("{line}\n")).expect("a temporary file");
    let codes = read_codes(&path, Format::MoveString, false);
    assert!(
        codes.contains(&Code::SyntaxTooLong),
        "a line of {} bytes gives {codes:?}",
        line.len()
    );
    codes
}

#[test]
fn every_code_has_a_fixture_that_produces_it() {
    let produced = produced();
    let missing: Vec<&str> = CODES
        .iter()
        .filter(|(code, _, _)| !produced.contains(code))
        .map(|(_, name, _)| *name)
        .collect();
    assert!(missing.is_empty(), "no fixture produces {missing:?}");
}
