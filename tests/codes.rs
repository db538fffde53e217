//! Every diagnostic code is produced by at least one fixture: the fixture directories are
//! read with the right reader, every game is validated (and the repair fixtures repaired),
//! every scenario is run (`fixtures/scenario/invalid/` holds one failing scenario per
//! scenario code), and the codes seen are compared with [`CODES`].

use std::collections::BTreeSet;
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_record::codes::{Code, CODES};
use reversi_record::formats::{Format, ReadOptions};
use reversi_record::repair::{repair_game, RepairOptions};
use reversi_record::scenario;
use reversi_record::validate::validate_game;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

/// Codes no fixture produces yet: `syntax-too-long` needs a game over 1 MiB (the hostile
/// tests make one on the fly). The test fails when one of them starts being produced, so
/// that this list only shrinks.
const NOT_YET_COVERED: &[Code] = &[Code::SyntaxTooLong];

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
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let options = ReadOptions {
            name: Arc::from(name.as_str()),
            path: Some(path.clone()),
            ..ReadOptions::default()
        };
        let input = Box::new(BufReader::new(File::open(&path).expect("a fixture")));
        let repair = path.components().any(|c| c.as_os_str() == "repair");
        for game in format.read(input, &options).map_while(Result::ok) {
            codes.extend(validate_game(&game, &[] as &[&str]).iter().map(|d| d.code));
            if repair {
                let fixed = repair_game(&game, format, &options, &RepairOptions::default());
                codes.extend(fixed.report(game.index).map(|d| d.code));
            }
        }
    }
    codes
}

#[test]
fn every_code_has_a_fixture_that_produces_it() {
    let produced = produced();
    let missing: Vec<&str> = CODES
        .iter()
        .filter(|(code, _, _)| !produced.contains(code) && !NOT_YET_COVERED.contains(code))
        .map(|(_, name, _)| *name)
        .collect();
    assert!(missing.is_empty(), "no fixture produces {missing:?}");
    let covered_now: Vec<&str> = NOT_YET_COVERED
        .iter()
        .filter(|c| produced.contains(c))
        .map(|c| c.name())
        .collect();
    assert!(
        covered_now.is_empty(),
        "{covered_now:?} are produced now: take them off NOT_YET_COVERED"
    );
}
