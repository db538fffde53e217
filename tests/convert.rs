//! Acceptance tests of conversion: the real data against an independent export, every real
//! file through RGN and JSON and back, every writable format on every other format's valid
//! fixtures, and a property test that whatever a format accepts survives
//! format → model → format.

mod common;
use common::scratch;

use std::io::Cursor;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use proptest::prelude::*;
use reversi_engine::Move;
use reversi_formats::record::Record;
use reversi_formats::{
    Format, ParsedGame, PgnDialect, ReadOptions, Sniff, WriteError, WriteOptions,
};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// A path in the repository's real data (`data/`, see `data/SOURCES.md`); a missing file
/// fails the test.
fn data(rel: &str) -> PathBuf {
    let path = PathBuf::from(format!("{ROOT}/data/{rel}"));
    assert!(
        path.exists(),
        "{} is missing: the real data is part of the repository (data/SOURCES.md)",
        path.display()
    );
    path
}

/// The format `bytes` are detected as, content first, then the file name.
fn detect(bytes: &[u8], path: &Path) -> Format {
    let sniff = Sniff {
        head: &bytes[..bytes.len().min(4096)],
        len: Some(bytes.len() as u64),
    };
    Format::sniff(&sniff)
        .or_else(|| {
            path.extension()
                .and_then(|e| e.to_str())
                .and_then(Format::from_extension)
        })
        .unwrap_or_else(|| panic!("cannot detect the format of {}", path.display()))
}

/// Reads every game of `bytes` as `format`.
fn read(
    format: Format,
    bytes: &[u8],
    path: Option<&Path>,
    names: Option<&Path>,
) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: Arc::from(path.map_or("test".into(), |p| p.display().to_string())),
        path: path.map(Path::to_path_buf),
        rules: None,
        names_dir: names.map(Path::to_path_buf),
        name_files: None,
    };
    format
        .read(Box::new(Cursor::new(bytes.to_vec())), &options)
        .collect::<Result<Vec<_>, _>>()
        .expect("reading from memory does not fail")
}

/// Reads every game, asserting each was read cleanly, and returns the records.
fn records(format: Format, bytes: &[u8], path: Option<&Path>, names: Option<&Path>) -> Vec<Record> {
    read(format, bytes, path, names)
        .into_iter()
        .map(|g| {
            let errors: Vec<_> = g.diagnostics.iter().filter(|d| d.is_error()).collect();
            assert!(errors.is_empty(), "{format} game {}: {errors:?}", g.index);
            g.record
                .unwrap_or_else(|| panic!("{format} game {} has a record", g.index))
        })
        .collect()
}

/// Writes `records` as `format`.
fn write(
    format: Format,
    records: &[Record],
    options: &WriteOptions,
) -> Result<(Vec<u8>, Vec<String>), WriteError> {
    let mut out = Vec::new();
    let mut dropped = Vec::new();
    {
        let mut writer = format.writer(Box::new(&mut out), options);
        for r in records {
            dropped.extend(writer.write(r)?);
        }
        writer.finish()?;
    }
    Ok((out, dropped))
}

/// The placements of a record, passes left out (formats that do not write them infer them).
fn placements(record: &Record) -> Vec<Move> {
    record
        .moves
        .iter()
        .map(|m| m.mv)
        .filter(|m| *m != Move::Pass)
        .collect()
}

// ---------------------------------------------------------------------------------------
// WTHOR and the thor→PGN export

#[test]
fn wthor_2004_to_thor_pgn_is_the_reference_export() {
    let (wtb, pgn) = (data("wthor/WTH_2004.wtb"), data("pgn/WTHOR-2004.r.pgn"));
    let wthor = records(
        Format::Wthor,
        &std::fs::read(&wtb).unwrap(),
        Some(&wtb),
        None,
    );
    let expected_text = std::fs::read(&pgn).unwrap();
    let exported = records(Format::Rgn, &expected_text, Some(&pgn), None);
    assert_eq!(wthor.len(), 9113);
    assert_eq!(wthor.len(), exported.len());
    // Game by game: names, moves, results.
    for (i, (w, p)) in wthor.iter().zip(&exported).enumerate() {
        let game = i + 1;
        assert_eq!(placements(w), placements(p), "game {game}: moves");
        assert_eq!(
            w.result.as_ref().map(|r| &r.score),
            p.result.as_ref().map(|r| &r.score),
            "game {game}: result"
        );
        for tag in ["Event", "Date", "Black", "White"] {
            assert_eq!(w.tag(tag), p.tag(tag), "game {game}: {tag}");
        }
    }
    // And byte for byte. WTHOR's own bookkeeping (theoretical scores, name indexes, the
    // header) has no place in a thor export: dropped, and reported.
    let refused = write(
        Format::Pgn(PgnDialect::Thor),
        &wthor[..1],
        &WriteOptions::default(),
    );
    assert!(
        matches!(refused, Err(WriteError::CannotHold(ref what)) if what.iter().any(|w| w.contains("TheoreticalScore")))
    );
    let lossy = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    let (text, dropped) = write(Format::Pgn(PgnDialect::Thor), &wthor, &lossy).unwrap();
    assert!(
        dropped
            .iter()
            .all(|d| d.contains("Theoretical") || d.contains("Wthor")),
        "{dropped:?}"
    );
    assert!(
        text == expected_text,
        "the export is byte-identical to {}",
        pgn.display()
    );
}

#[test]
fn thor_pgn_to_wthor_gives_back_the_games_and_scores() {
    let (wtb, pgn) = (data("wthor/WTH_2004.wtb"), data("pgn/WTHOR-2004.r.pgn"));
    let original = records(
        Format::Wthor,
        &std::fs::read(&wtb).unwrap(),
        Some(&wtb),
        None,
    );
    let exported = records(Format::Rgn, &std::fs::read(&pgn).unwrap(), Some(&pgn), None);
    let names = scratch("thor-to-wthor");
    let options = WriteOptions {
        names_dir: Some(names.clone()),
        ..WriteOptions::default()
    };
    let (bytes, dropped) = write(Format::Wthor, &exported, &options).unwrap();
    assert!(dropped.is_empty());
    assert_eq!(bytes.len(), std::fs::metadata(&wtb).unwrap().len() as usize);
    let back = records(Format::Wthor, &bytes, None, Some(&names));
    assert_eq!(back.len(), original.len());
    for (i, (b, o)) in back.iter().zip(&original).enumerate() {
        let game = i + 1;
        assert_eq!(
            b.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            o.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
            "game {game}: moves"
        );
        assert_eq!(
            b.result.as_ref().map(|r| (&r.score, &r.termination)),
            o.result.as_ref().map(|r| (&r.score, &r.termination)),
            "game {game}: score"
        );
        for tag in ["Event", "Date", "Black", "White"] {
            assert_eq!(b.tag(tag), o.tag(tag), "game {game}: {tag}");
        }
    }
    // The 68-byte game records agree except for the name indexes (the new name tables
    // number names in order of appearance) and the theoretical score, which a PGN export
    // does not carry (the actual score stands in for it).
    let original_bytes = std::fs::read(&wtb).unwrap();
    for (i, (ours, theirs)) in bytes[16..]
        .chunks(68)
        .zip(original_bytes[16..].chunks(68))
        .enumerate()
    {
        assert_eq!(ours[6], theirs[6], "game {}: the actual score", i + 1);
        assert_eq!(ours[8..], theirs[8..], "game {}: the moves", i + 1);
    }
}

// ---------------------------------------------------------------------------------------
// Every real file through RGN and JSON

/// The 16 record files of `data/` (the name files `WTHOR.JOU` and `WTHOR.TRN` left out).
fn real_files() -> Vec<PathBuf> {
    let root = data("");
    let mut files = Vec::new();
    for dir in ["wthor", "pgn", "ggf", "obf", "movestrings"] {
        let entries = std::fs::read_dir(root.join(dir))
            .unwrap_or_else(|e| panic!("{}: {e}", root.join(dir).display()));
        for e in entries.flatten() {
            let path = e.path();
            let name = path
                .file_name()
                .unwrap()
                .to_string_lossy()
                .to_ascii_uppercase();
            if name == "WTHOR.JOU" || name == "WTHOR.TRN" {
                continue;
            }
            files.push(path);
        }
    }
    files.sort();
    assert_eq!(files.len(), 16, "{files:#?}");
    files
}

#[test]
fn every_real_file_converts_to_rgn_and_json_and_back() {
    let files = real_files();
    for path in &files {
        let bytes = std::fs::read(path).unwrap();
        let format = detect(&bytes, path);
        let games = read(format, &bytes, Some(path), None);
        let originals: Vec<Record> = games.iter().filter_map(|g| g.record.clone()).collect();
        assert!(!originals.is_empty(), "{}: no games", path.display());
        for target in [Format::Rgn, Format::Json] {
            let (text, dropped) = write(target, &originals, &WriteOptions::default())
                .unwrap_or_else(|e| panic!("{} to {target}: {e}", path.display()));
            assert!(dropped.is_empty());
            let back = records(target, &text, None, None);
            assert_eq!(
                back.len(),
                originals.len(),
                "{} via {target}",
                path.display()
            );
            for (i, (b, o)) in back.iter().zip(&originals).enumerate() {
                assert_eq!(
                    b.without_spans(),
                    o.without_spans(),
                    "{} game {} via {target}",
                    path.display(),
                    i + 1
                );
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Every writable format on the other formats' valid fixtures

/// The valid fixtures of every format, with their detected formats.
fn fixtures() -> Vec<(PathBuf, Format)> {
    let mut out = Vec::new();
    for dir in [
        "rgn",
        "json",
        "wthor",
        "ggf",
        "sgf",
        "moves",
        "transcript",
        "obf",
    ] {
        let Ok(entries) = std::fs::read_dir(format!("{ROOT}/fixtures/{dir}/valid")) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_file() && path.extension().is_some_and(|x| x != "md") {
                let bytes = std::fs::read(&path).unwrap();
                out.push((path.clone(), detect(&bytes, &path)));
            }
        }
    }
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// Writes `record` as `target`, reads it back and writes it again: the second text must be
/// the first, and the moves the same. Returns whether the target could hold the record.
fn round_trip(target: Format, record: &Record, names: &Path) -> Result<bool, String> {
    let options = WriteOptions {
        names_dir: Some(names.to_path_buf()),
        ..WriteOptions::default()
    };
    let first = match write(target, std::slice::from_ref(record), &options) {
        Ok((bytes, _)) => bytes,
        Err(
            WriteError::CannotHold(_)
            | WriteError::ChangesMeaning(_)
            | WriteError::NeedsSetting { .. },
        ) => return Ok(false),
        Err(e) => return Err(format!("{target}: {e}")),
    };
    let games = read(target, &first, None, Some(names));
    let text = String::from_utf8_lossy(&first).into_owned();
    let read_back: Vec<Record> = games.iter().filter_map(|g| g.record.clone()).collect();
    let errors: Vec<String> = games
        .iter()
        .flat_map(|g| &g.diagnostics)
        .filter(|d| d.is_error())
        .map(|d| format!("{}: {}", d.code.name(), d.message))
        .collect();
    if read_back.len() != 1 || !errors.is_empty() {
        return Err(format!(
            "{target}: {} records read back, errors {errors:?}, from\n{text}",
            read_back.len()
        ));
    }
    let back = &read_back[0];
    if target != Format::Obf && placements(back) != placements(record) {
        return Err(format!("{target}: the moves differ, from\n{text}"));
    }
    if matches!(target, Format::Rgn | Format::Json)
        && back.without_spans() != record.without_spans()
    {
        return Err(format!("{target}: the record differs, from\n{text}"));
    }
    let second = write(target, std::slice::from_ref(back), &options)
        .map_err(|e| format!("{target}: the record read back cannot be written: {e}\n{text}"))?
        .0;
    if second != first {
        return Err(format!(
            "{target}: written twice differs:\n{text}\n----\n{}",
            String::from_utf8_lossy(&second)
        ));
    }
    Ok(true)
}

#[test]
fn every_writable_format_round_trips_the_other_formats_fixtures() {
    let names = scratch("fixtures");
    let fixtures = fixtures();
    assert!(fixtures.len() > 20);
    let mut failures = Vec::new();
    for target in Format::WRITABLE {
        let mut held = 0;
        for (path, format) in &fixtures {
            let bytes = std::fs::read(path).unwrap();
            for game in read(*format, &bytes, Some(path), None) {
                let Some(record) = game.record else { continue };
                match round_trip(target, &record, &names) {
                    Ok(true) => held += 1,
                    Ok(false) => {}
                    Err(e) => failures.push(format!("{} game {}: {e}", path.display(), game.index)),
                }
            }
        }
        assert!(held > 0, "{target} held none of the fixtures");
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
}

// ---------------------------------------------------------------------------------------
// Any record a format can hold survives format → model → format

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn any_record_a_format_holds_survives_a_round_trip(record in common::arb_record()) {
        let names = scratch("proptest");
        for target in Format::WRITABLE {
            if let Err(e) = round_trip(target, &record, &names) {
                prop_assert!(false, "{}", e);
            }
        }
    }

    /// What a format writes lossily is, read back, a record it holds whole: written again
    /// without `--lossy` it is not refused, and it survives another round trip.
    #[test]
    fn what_a_format_writes_lossily_it_holds(record in common::arb_record()) {
        let names = scratch("proptest-lossy");
        let lossy = WriteOptions {
            lossy: true,
            names_dir: Some(names.clone()),
            ..WriteOptions::default()
        };
        for target in Format::WRITABLE {
            let Ok((bytes, dropped)) = write(target, std::slice::from_ref(&record), &lossy) else {
                continue;
            };
            let held: Vec<Record> = read(target, &bytes, None, Some(&names))
                .into_iter()
                .filter_map(|g| g.record)
                .collect();
            if held.is_empty() && target == Format::Obf {
                // OBF skips a board it cannot draw, and says so.
                prop_assert!(!dropped.is_empty());
                continue;
            }
            if held.is_empty() && target == Format::MoveString && record.moves.is_empty() {
                // A game without moves is an empty line.
                continue;
            }
            prop_assert_eq!(held.len(), 1, "{}: {}", target, String::from_utf8_lossy(&bytes));
            match round_trip(target, &held[0], &names) {
                Ok(true) => {}
                Ok(false) => prop_assert!(
                    false,
                    "{} refuses what it wrote itself:\n{}",
                    target,
                    String::from_utf8_lossy(&bytes)
                ),
                Err(e) => prop_assert!(false, "{}", e),
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// Edax PGN read back: the FEN start and the `{Black wins B-W}` result

#[test]
fn edax_pgn_reads_back_its_fen_start_and_disc_counts() {
    let text = "[Event \"?\"]\n[Result \"0-1\"]\n[FEN \"8/8/8/3pP3/3Pp3/8/8/8 w - - 0 1\"]\n\n1. e6 f4 2. e3\n{White wins 2-6} 0-1\n";
    let games = read(Format::Pgn(PgnDialect::Edax), text.as_bytes(), None, None);
    let record = games[0].record.as_ref().expect("read");
    let start = record.start.as_ref().expect("the FEN is the start");
    assert_eq!(start.setup.turn, reversi_engine::Color::White);
    assert!(record.tag("FEN").is_none());
    assert_eq!(
        record.result.as_ref().map(|r| &r.score),
        Some(&reversi_formats::record::ResultScore::Discs(vec![2, 6]))
    );
    assert!(record.moves.iter().all(|m| m.comment.is_none()));
    // Written again, the same text.
    let (again, _) = write(
        Format::Pgn(PgnDialect::Edax),
        std::slice::from_ref(record),
        &WriteOptions::default(),
    )
    .unwrap();
    let again = String::from_utf8(again).unwrap();
    assert!(
        again.contains("[FEN \"8/8/8/3pP3/3Pp3/8/8/8 w - - 0 1\"]"),
        "{again}"
    );
    assert!(
        again.trim_end().ends_with("{White wins 2-6} 0-1"),
        "{again}"
    );
    // A comment that disagrees with the result stays a comment.
    let odd = text.replace("White wins 2-6", "Black wins 6-2");
    let games = read(Format::Pgn(PgnDialect::Edax), odd.as_bytes(), None, None);
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(
        record.moves.last().unwrap().comment.as_deref(),
        Some("Black wins 6-2")
    );
    // A bad FEN is a syntax error on the tag.
    let bad = text.replace("3pP3/3Pp3", "3pX3/3Pp3");
    let games = read(Format::Pgn(PgnDialect::Edax), bad.as_bytes(), None, None);
    assert!(games[0]
        .diagnostics
        .iter()
        .any(|d| d.code.name() == "syntax-bad-start"));
}

// ---------------------------------------------------------------------------------------
// Transcripts: what the writer draws, its reader reads

#[test]
fn transcript_of_an_octagon_game_reads_back() {
    let path = PathBuf::from(format!("{ROOT}/fixtures/rgn/valid/othello_octagon.rgn"));
    let mut record = records(
        Format::Rgn,
        &std::fs::read(&path).unwrap(),
        Some(&path),
        None,
    )
    .remove(0);
    record.result = None;
    let names = scratch("octagon");
    assert_eq!(round_trip(Format::Transcript, &record, &names), Ok(true));
    let (text, _) = write(Format::Transcript, &[record], &WriteOptions::default()).unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(
        text.contains("\n 1  #  # "),
        "off-board corners as `#`:\n{text}"
    );
}

#[test]
fn transcript_refuses_a_start_it_cannot_draw_even_lossily() {
    // A start with a disc off the centre: more than a recolouring of the start squares.
    // Dropping it would replay the moves from another position, so it is refused.
    let rgn = "[Event \"extra disc\"]\n[Start \"......../......../...X..../...OX.../...XO.../......../......../........ O\"]\n\n1. c3 *\n";
    let record = records(Format::Rgn, rgn.as_bytes(), None, None).remove(0);
    assert!(record.start.is_some());
    let lossy = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    match write(Format::Transcript, std::slice::from_ref(&record), &lossy) {
        Err(WriteError::ChangesMeaning(what)) => {
            assert_eq!(what, ["a start position other than the rules' own"]);
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
}

/// A second, independent export (a Python thor→PGN script): the same games, players and
/// results, with the year appended to the event.
#[test]
fn wthor_2021_matches_the_python_export_game_by_game() {
    let (wtb, pgn) = (data("wthor/WTH_2021.wtb"), data("pgn/WTH_2021.py.pgn"));
    let wthor = records(
        Format::Wthor,
        &std::fs::read(&wtb).unwrap(),
        Some(&wtb),
        None,
    );
    let python = records(Format::Rgn, &std::fs::read(&pgn).unwrap(), Some(&pgn), None);
    assert_eq!(wthor.len(), 320);
    assert_eq!(wthor.len(), python.len());
    let mut renamed = std::collections::BTreeSet::new();
    for (i, (w, p)) in wthor.iter().zip(&python).enumerate() {
        let game = i + 1;
        assert_eq!(placements(w), placements(p), "game {game}: moves");
        assert_eq!(
            w.result.as_ref().map(|r| &r.score),
            p.result.as_ref().map(|r| &r.score),
            "game {game}: result"
        );
        for tag in ["Black", "White"] {
            assert_eq!(w.tag(tag), p.tag(tag), "game {game}: {tag}");
        }
        let event = w.tag("Event").map(|e| format!("{e} - 2021"));
        if event.as_deref() != p.tag("Event") {
            renamed.insert((event, p.tag("Event").map(str::to_owned)));
        }
    }
    // The script's name file is newer: a few tournaments carry other (English) names.
    assert!(renamed.len() <= 3, "{renamed:?}");
}
