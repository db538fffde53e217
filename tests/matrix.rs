//! The conversion matrix: every variant fixture times every target. Each conversion is
//! either refused, writing no game, or its output is recognised by content alone
//! ([`Format::sniff`]) and read back with the same rules, the same moves in the same order,
//! no new diagnostic, and the same result unless the result was listed as dropped. OBF holds
//! positions, not games: it must hold the game's final position.

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_check::validate::{validate_record, with_explicit_passes};
use reversi_engine::Move;
use reversi_formats::record::Record;
use reversi_formats::{Format, ParsedGame, ReadOptions, Sniff, WriteError, WriteOptions};

mod common;
use common::scratch;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The variant fixtures: every clean game of `fixtures/validate` and `fixtures/matrix`.
fn fixtures() -> Vec<PathBuf> {
    let mut files = Vec::new();
    for dir in ["fixtures/validate", "fixtures/matrix"] {
        let Ok(entries) = std::fs::read_dir(Path::new(ROOT).join(dir)) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            if dir.ends_with("matrix") || name.starts_with("clean-") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The format content detection alone gives `bytes`.
fn sniff(bytes: &[u8]) -> Option<Format> {
    Format::sniff(&Sniff {
        head: &bytes[..bytes.len().min(4096)],
        len: Some(bytes.len() as u64),
    })
}

fn read(format: Format, bytes: &[u8], names: Option<&Path>) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: Arc::from("matrix"),
        path: None,
        rules: None,
        names_dir: names.map(Path::to_path_buf),
        name_files: None,
    };
    format
        .read(Box::new(Cursor::new(bytes.to_vec())), &options)
        .collect::<Result<Vec<_>, _>>()
        .expect("reading from memory does not fail")
}

/// The moves with every pass explicit.
fn moves(record: &Record) -> Vec<Move> {
    with_explicit_passes(record)
        .moves
        .iter()
        .map(|m| m.mv)
        .collect()
}

/// Whether a loss names the result.
fn drops_result(losses: &[String]) -> bool {
    losses.iter().any(|l| {
        [
            "result",
            "score",
            "resignation",
            "on time",
            "unfinished",
            "agreement",
        ]
        .iter()
        .any(|w| l.contains(w))
    })
}

/// Converts one record to `target` and checks the outcome; returns a failure message.
fn check(record: &Record, target: Format, case: &str) -> Result<&'static str, String> {
    check_dialect(record, target, None, case)
}

/// [`check`] with a writer dialect (`json:lines`): writes `record` lossily, then checks a
/// refusal wrote no game, or reads the output back and compares it with `record`.
fn check_dialect(
    record: &Record,
    target: Format,
    dialect: Option<&str>,
    case: &str,
) -> Result<&'static str, String> {
    let names = scratch(case);
    let options = WriteOptions {
        lossy: true,
        dialect: dialect.map(str::to_owned),
        names_dir: Some(names.clone()),
        ..WriteOptions::default()
    };
    let mut out = Vec::new();
    let written = {
        let mut writer = target.writer(Box::new(&mut out), &options);
        let written = writer.write(record);
        writer.finish().map_err(|e| format!("finish failed: {e}"))?;
        written
    };
    let losses = match written {
        Ok(losses) => losses,
        Err(WriteError::Io(e)) => return Err(format!("I/O error {e}")),
        Err(WriteError::CannotHold(what)) => {
            return Err(format!("refused although lossy: {what:?}"));
        }
        Err(_) => return check_refused(&out, &names),
    };
    let back = read_back(&out, target, &names)?;
    if target == Format::Obf {
        return check_final_position(record, &back);
    }
    check_same_game(record, &back, &losses)?;
    let _ = std::fs::remove_dir_all(&names);
    Ok("written")
}

/// A refused record: no game may have been written.
fn check_refused(out: &[u8], names: &Path) -> Result<&'static str, String> {
    let games = match sniff(out) {
        Some(f) => read(f, out, Some(names)),
        None if out.iter().all(u8::is_ascii_whitespace) => Vec::new(),
        None => return Err("refused but wrote something unrecognisable".into()),
    };
    if games.iter().any(|g| g.record.is_some()) {
        return Err(format!("refused but wrote {} games", games.len()));
    }
    Ok("refused")
}

/// The one game of `out`, recognised by content as `target` (PGN dialects as RGN) and read
/// back (with the name files the writer put in `names`, if any) without a diagnostic.
fn read_back(out: &[u8], target: Format, names: &Path) -> Result<Record, String> {
    let Some(format) = sniff(out) else {
        return Err(format!(
            "output not recognised by content: {:?}",
            String::from_utf8_lossy(&out[..out.len().min(200)])
        ));
    };
    let expected = match target {
        Format::Pgn(_) => Format::Rgn,
        f => f,
    };
    if format != expected {
        return Err(format!("output sniffed as {format}"));
    }
    let has_names = std::fs::read_dir(names).is_ok_and(|mut d| d.next().is_some());
    let games = read(format, out, has_names.then_some(names));
    let [game] = games.as_slice() else {
        return Err(format!("read back {} games", games.len()));
    };
    if let Some(d) = game.diagnostics.first() {
        return Err(format!("reading back: {}: {}", d.code.name(), d.message));
    }
    game.record
        .clone()
        .ok_or_else(|| "read back without a record".to_owned())
}

/// OBF: the game's final position, as the start position of a game without moves.
fn check_final_position(record: &Record, back: &Record) -> Result<&'static str, String> {
    let original = validate_record(record, 1);
    let Some(end) = &original.position else {
        return Err("the original has no final position".into());
    };
    let start = back
        .start_position()
        .map_err(|e| format!("bad position read back: {e}"))?;
    if start.setup() != end.setup() || back.rules.board() != record.rules.board() {
        return Err("OBF holds another position than the game's final one".into());
    }
    Ok("written")
}

/// The same rules and moves, no new diagnostic, and the same result unless `losses` say it
/// was dropped.
fn check_same_game(record: &Record, back: &Record, losses: &[String]) -> Result<(), String> {
    if back.rules != record.rules {
        return Err(format!("rules {} became {}", record.rules, back.rules));
    }
    if moves(back) != moves(record) {
        return Err(format!(
            "moves differ: {:?} became {:?}",
            moves(record),
            moves(back)
        ));
    }
    let original = validate_record(record, 1);
    let report = validate_record(back, 1);
    let before: Vec<_> = original.diagnostics.iter().map(|d| d.code.name()).collect();
    let new: Vec<_> = report
        .diagnostics
        .iter()
        .filter(|d| !before.contains(&d.code.name()))
        // A result listed as dropped, or none at all, comes back from the PGN dialects as
        // `*` (their roster needs a result), which a finished game flags as a warning.
        .filter(|d| {
            let unknown = drops_result(losses) || record.result.is_none();
            !(unknown && d.code.name() == "wrong-result" && !d.is_error())
        })
        .map(|d| format!("{}: {}", d.code.name(), d.message))
        .collect();
    if !new.is_empty() {
        return Err(format!(
            "new diagnostics: {new:?} (result {:?}, losses {losses:?})",
            record.result
        ));
    }
    let had_result = record.result.as_ref().is_some_and(|r| !r.score.is_none());
    let has_result = back.result.as_ref().is_some_and(|r| !r.score.is_none());
    if had_result && !has_result && !drops_result(losses) {
        return Err(format!(
            "the result was dropped unlisted (losses {losses:?})"
        ));
    }
    Ok(())
}

#[test]
fn every_variant_to_every_target_is_refused_or_read_back_the_same() {
    let mut failures = Vec::new();
    let mut counts = [0usize; 2];
    for path in fixtures() {
        let bytes = std::fs::read(&path).expect("a fixture");
        let format = sniff(&bytes).expect("the fixture's format");
        let file = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        for (i, game) in read(format, &bytes, None).into_iter().enumerate() {
            let record = game.record.expect("a clean fixture has a record");
            assert!(
                validate_record(&record, 1).errors() == 0,
                "{file} game {} is not clean",
                i + 1
            );
            for target in Format::WRITABLE {
                let case = format!("{file}-{}-{target}", i + 1).replace(':', "_");
                match check(&record, target, &case) {
                    Ok("refused") => counts[0] += 1,
                    Ok(_) => counts[1] += 1,
                    Err(why) => failures.push(format!("{file} game {} to {target}: {why}", i + 1)),
                }
            }
            let case = format!("{file}-{}-jsonl", i + 1);
            match check_dialect(&record, Format::Json, Some("lines"), &case) {
                Ok("written") => counts[1] += 1,
                Ok(other) => failures.push(format!("{file} game {} to json:lines: {other}", i + 1)),
                Err(why) => failures.push(format!("{file} game {} to json:lines: {why}", i + 1)),
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures ({} refused, {} converted):\n{}",
        failures.len(),
        counts[0],
        counts[1],
        failures.join("\n")
    );
    assert!(
        counts[1] > 100,
        "the matrix converts most cases: {counts:?}"
    );
}

/// Rules strings of every preset on every board it is played on, and combinations of the
/// options.
const VARIANTS: &[&str] = &[
    "othello:4x4",
    "othello:6x6",
    "othello:8x8",
    "othello:10x10",
    "othello:octagon",
    "anti:4x4",
    "anti:6x6",
    "anti:10x10",
    "anti:octagon",
    "free:6x6",
    "free:10x10",
    "free,anti",
    "classic",
    "classic,anti",
    "multi3",
    "multi3:10x10",
    "multi3:octagon,anti",
    "multi4",
    "multi4:10x10",
    "multi4:octagon",
    "othello,blocked=c3+f6",
    "anti:10x10,blocked=c3",
    "othello,handicap=black:a1+h8",
    "othello:10x10,handicap=white:a1",
    "othello,scoring=raw",
    "anti,scoring=raw",
    "othello:6x6,scoring=raw",
];

/// Random legal games of every variant, dressed with random tags, claims, comments and
/// results (`tests/common`), through every target.
#[test]
fn random_games_of_every_variant_to_every_target() {
    let mut failures = Vec::new();
    let mut counts = [0usize; 2];
    for rules in VARIANTS {
        let rules: reversi_engine::Rules = rules.parse().expect("a rules string");
        for seed in 0..6u64 {
            let record = common::random_record(rules, seed, seed % 2 == 0);
            for target in Format::WRITABLE {
                let case = format!("{rules}-{seed}-{target}").replace([':', ',', '='], "_");
                match check(&record, target, &case) {
                    Ok("refused") => counts[0] += 1,
                    Ok(_) => counts[1] += 1,
                    Err(why) => failures.push(format!("{rules} seed {seed} to {target}: {why}")),
                }
            }
        }
    }
    assert!(
        failures.is_empty(),
        "{} failures ({} refused, {} converted):\n{}",
        failures.len(),
        counts[0],
        counts[1],
        failures.join("\n")
    );
}
