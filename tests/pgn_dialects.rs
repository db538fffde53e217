//! The PGN dialect writers against the real files they imitate, and against fixture records.

use std::path::Path;

use reversi_engine::Move;
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, Tag};
use reversi_formats::{json, pgn, PgnDialect, ReadOptions, WriteError, WriteOptions};

const THOR_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pgn/WTHOR-2004.r.pgn");
const PLAYOK_FILE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/pgn/playok_sample.pgn");

/// A file of the repository's real data (`data/pgn`, see `data/SOURCES.md`); a missing
/// file fails the test.
fn load(path: &str) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    })
}

/// A test-only reading of one game of the real files: tags, then move tokens (numbers
/// dropped, `--` a pass), then an optional trailing `B-W` score. Tags are stored in reverse
/// order, so the writer has to put them in its own.
fn tiny_parse(game: &str) -> Record {
    let mut record = Record::default();
    let mut tags = Vec::new();
    let mut tokens = Vec::new();
    for line in game.lines() {
        if let Some(tag) = line.strip_prefix('[') {
            let (name, rest) = tag.split_once(' ').unwrap();
            let value = rest.trim_end_matches(']').trim_matches('"');
            if name == "Result" {
                let (b, w) = value.split_once('-').unwrap();
                record.result = Some(ClaimedResult::discs(vec![
                    b.parse().unwrap(),
                    w.parse().unwrap(),
                ]));
            } else {
                tags.push(Tag::new(name, value));
            }
        } else {
            tokens.extend(line.split_whitespace().filter(|t| !t.ends_with('.')));
        }
    }
    tags.reverse();
    record.tags = tags;
    for t in tokens {
        if t.contains('-') && t != "--" {
            continue; // the score after PlayOK's movetext, already in the Result tag
        }
        let mv = if t == "--" {
            Move::Pass
        } else {
            Move::Place(t.parse().unwrap())
        };
        record.moves.push(MoveRecord::new(mv));
    }
    record
}

fn write_all(records: &[Record], dialect: PgnDialect, options: &WriteOptions) -> String {
    let mut out = Vec::new();
    {
        let mut w = pgn::writer(Box::new(&mut out), dialect, options);
        for r in records {
            let dropped = w.write(r).unwrap();
            assert!(dropped.is_empty(), "{dropped:?}");
        }
        w.finish().unwrap();
    }
    String::from_utf8(out).unwrap()
}

#[test]
fn thor_reproduces_the_whole_2004_export() {
    let text = load(THOR_FILE);
    let records: Vec<Record> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(tiny_parse)
        .collect();
    assert_eq!(records.len(), 9113);
    let written = write_all(&records, PgnDialect::Thor, &WriteOptions::default());
    if written != text {
        let line = written
            .lines()
            .zip(text.lines())
            .position(|(a, b)| a != b)
            .unwrap_or(0);
        panic!("first difference at line {}", line + 1);
    }
}

#[test]
fn thor_drops_passes_that_replay_infers() {
    let text = load(THOR_FILE);
    // Some 2004 games hold passes: write each through PlayOK (which makes them explicit)
    // and back through Thor; the Thor text must not change.
    let mut with_passes = 0;
    for game in text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .take(2000)
    {
        let record = tiny_parse(game);
        let playok = write_all(
            std::slice::from_ref(&record),
            PgnDialect::PlayOk,
            &WriteOptions::default(),
        );
        if playok.contains(" -- ") {
            with_passes += 1;
        }
        let reread = tiny_parse(&playok);
        let thor = write_all(&[reread], PgnDialect::Thor, &WriteOptions::default());
        assert_eq!(thor, format!("{game}\n\n"));
    }
    assert!(with_passes > 0, "no game with a pass in the first 2000");
}

#[test]
fn playok_reproduces_the_sample() {
    let text = load(PLAYOK_FILE);
    let record = tiny_parse(&text);
    assert!(record.moves.contains(&MoveRecord::new(Move::Pass)));
    let written = write_all(
        std::slice::from_ref(&record),
        PgnDialect::PlayOk,
        &WriteOptions::default(),
    );
    assert_eq!(written, text);
    // Without the pass (as a WTHOR record would be), PlayOK re-inserts it from replay.
    let mut no_pass = record;
    no_pass.moves.retain(|m| m.mv != Move::Pass);
    let written = write_all(&[no_pass], PgnDialect::PlayOk, &WriteOptions::default());
    assert_eq!(written, text);
}

#[test]
fn edax_writes_the_sample_its_own_way() {
    let text = load(PLAYOK_FILE);
    let record = tiny_parse(&text);
    let mut options = WriteOptions::default();
    let refused = pgn::format_game(&record, PgnDialect::Edax, &options);
    assert!(refused.is_ok(), "Edax keeps unknown tags after its roster");
    options.lossy = true;
    insta::assert_snapshot!(write_all(&[record], PgnDialect::Edax, &options));
}

fn outcome(
    record: &Record,
    dialect: PgnDialect,
    lossy: bool,
) -> Result<(String, Vec<String>), WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    pgn::format_game(record, dialect, &options)
}

fn fixture_record(path: &Path) -> Record {
    let bytes = std::fs::read(path).unwrap();
    let games: Vec<_> = json::read(
        Box::new(std::io::Cursor::new(bytes)),
        &ReadOptions::default(),
    )
    .map(|g| g.unwrap())
    .collect();
    assert_eq!(games.len(), 1, "one record per fixture");
    assert!(
        games[0].diagnostics.is_empty(),
        "{:?}",
        games[0].diagnostics
    );
    games[0].record.clone().unwrap()
}

/// Each fixture record written in each dialect, strictly and lossily.
fn dialects_report(record: &Record) -> (String, Vec<(PgnDialect, bool)>) {
    let mut report = String::new();
    let mut strict_ok = Vec::new();
    for dialect in [PgnDialect::Thor, PgnDialect::PlayOk, PgnDialect::Edax] {
        report.push_str(&format!("## {}\n", dialect.name()));
        match outcome(record, dialect, false) {
            Ok((text, dropped)) => {
                assert!(dropped.is_empty());
                strict_ok.push((dialect, true));
                report.push_str(&text);
            }
            Err(e) => {
                strict_ok.push((dialect, false));
                report.push_str(&format!("refused: {e}\n"));
                match outcome(record, dialect, true) {
                    Ok((text, dropped)) => {
                        report.push_str("### lossy, dropped:\n");
                        for d in &dropped {
                            report.push_str(&format!("- {d}\n"));
                        }
                        report.push_str(&text);
                    }
                    Err(e) => report.push_str(&format!("### lossy: still refused: {e}\n")),
                }
            }
        }
        report.push('\n');
    }
    (report, strict_ok)
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/pgn/valid", "*.json", |path| {
        let record = fixture_record(path);
        let (report, strict) = dialects_report(&record);
        let name = path.file_name().unwrap().to_string_lossy();
        for (dialect, ok) in strict {
            let expected = !name.starts_with("edax-") || dialect == PgnDialect::Edax;
            if expected {
                assert!(ok, "{name}: {} refused it", dialect.name());
            }
        }
        insta::assert_snapshot!(report);
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/pgn/invalid", "*.json", |path| {
        let record = fixture_record(path);
        let (report, strict) = dialects_report(&record);
        assert!(
            strict.iter().any(|(_, ok)| !ok),
            "{}: every dialect wrote it",
            path.display()
        );
        insta::assert_snapshot!(report);
    });
}

#[test]
fn the_2004_export_survives_a_trip_through_json() {
    let text = load(THOR_FILE);
    let records: Vec<Record> = text
        .split("\n\n")
        .filter(|g| !g.trim().is_empty())
        .map(tiny_parse)
        .collect();
    for dialect in [None, Some("lines")] {
        let mut bytes = Vec::new();
        {
            let options = WriteOptions {
                dialect: dialect.map(str::to_owned),
                ..WriteOptions::default()
            };
            let mut w = json::writer(Box::new(&mut bytes), &options);
            for r in &records {
                w.write(r).unwrap();
            }
            w.finish().unwrap();
        }
        let input = Box::new(std::io::Cursor::new(bytes));
        let back: Vec<Record> = json::read(input, &ReadOptions::default())
            .map(|g| g.unwrap().record.unwrap())
            .collect();
        assert_eq!(
            write_all(&back, PgnDialect::Thor, &WriteOptions::default()),
            text
        );
    }
}
