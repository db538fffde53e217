//! Issue 19's promise on the real records in `data/`: every file, with its results
//! and without, with its passes written and left implicit, converted through the pipeline
//! (split by year, as `-o 'WTH_{year}.wtb'` does) to every target that holds games, reads
//! back with no error, and with the same results: a finished game has the result its final
//! board gives (derived where the record had none, and checked by the validator), and an
//! unfinished game never gets a result it did not have.

mod common;

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use reversi_check::validate::{make_passes_explicit, validate_game, validate_record};
use reversi_engine::Move;
use reversi_formats::record::{ClaimedResult, Record, ResultScore, TagName};
use reversi_formats::{Format, PgnDialect, ReadOptions, RecordWriter, Renderer, WriteOptions};
use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome, OutputTemplate, Outputs};
use reversi_runs::pipeline::Input;

/// At most this many games of a file, spread over it: every kind of game a file has, in a
/// lean CI. `REAL_RESULTS_ALL=1` takes every game.
const SAMPLE: usize = 300;

/// The targets that hold games (OBF holds a position), the dialect, and whether a result
/// read back from them is the game's (move strings hold none).
const TARGETS: [(Format, Option<&str>, bool); 12] = [
    (Format::Rgn, None, true),
    (Format::Json, None, true),
    (Format::Wthor, None, true),
    (Format::Ggf, None, true),
    (Format::Pgn(PgnDialect::Rgn), None, true),
    (Format::Pgn(PgnDialect::Thor), None, true),
    (Format::Pgn(PgnDialect::PlayOk), None, true),
    (Format::Pgn(PgnDialect::Edax), None, true),
    (Format::Sgf, None, true),
    (Format::MoveString, None, false),
    (Format::MoveString, Some("nopass"), false),
    (Format::Transcript, None, true),
];

/// A buffer a writer owns a handle of.
#[derive(Clone, Default)]
struct Buffer(Arc<Mutex<Vec<u8>>>);

impl Write for Buffer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0.lock().expect("one writer").extend_from_slice(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

/// The files of a split conversion, in memory. WTHOR games without a date go to the file
/// `unknown`, filed under 1999.
struct Memory {
    target: Format,
    options: WriteOptions,
    files: BTreeMap<String, (Buffer, Box<dyn RecordWriter>)>,
}

impl Outputs for Memory {
    fn renderer(&self) -> Option<Renderer> {
        self.target.renderer(&self.options)
    }

    fn writer(&mut self, name: &str) -> io::Result<&mut dyn RecordWriter> {
        if !self.files.contains_key(name) {
            let buffer = Buffer::default();
            let options = WriteOptions {
                year: (name == "unknown").then_some(1999),
                ..self.options.clone()
            };
            let writer = self.target.writer(Box::new(buffer.clone()), &options);
            self.files.insert(name.to_owned(), (buffer, writer));
        }
        let (_, writer) = self.files.get_mut(name).expect("just opened");
        Ok(&mut **writer)
    }
}

/// What a written game must read back as.
struct Expected {
    /// Its number in the source.
    game: usize,
    /// The source has an error (written as read, with it: issue 27's part).
    wrong: bool,
    finished: bool,
    /// Played under komi: its result stays the margin it is (no disc count gives it).
    komi: bool,
    /// The source's result.
    result: Option<ClaimedResult>,
}

/// The records of a real file, at most [`SAMPLE`] of them, spread over the file.
fn sample(file: &common::RecordFile) -> Vec<Record> {
    let options = ReadOptions {
        name: file.name.as_str().into(),
        path: Some(file.path.clone()),
        ..ReadOptions::default()
    };
    let records: Vec<Record> = file
        .format
        .read_bytes(file.bytes.clone(), &options)
        .expect("reading from memory")
        .into_iter()
        .filter_map(|g| g.record)
        .collect();
    let all = std::env::var_os("REAL_RESULTS_ALL").is_some();
    let step = if all {
        1
    } else {
        records.len().div_ceil(SAMPLE).max(1)
    };
    records.into_iter().step_by(step).collect()
}

/// Converts `source` (RGN) to `target`, split by year; checks every game read back and
/// returns how many were written and how many of those had a derived result.
fn convert_and_check(
    label: &str,
    source: &[u8],
    expected: &[Expected],
    (target, dialect, holds_results): (Format, Option<&str>, bool),
    names: &Path,
    failures: &mut Vec<String>,
) -> (usize, usize) {
    let options = WriteOptions {
        lossy: true,
        dialect: dialect.map(str::to_owned),
        names_dir: Some(names.to_path_buf()),
        ..WriteOptions::default()
    };
    let read = ReadOptions {
        names_dir: Some(names.to_path_buf()),
        ..ReadOptions::default()
    };
    let template: OutputTemplate = "{year}".parse().expect("a template");
    let conversion = Conversion::new()
        .jobs(2)
        .target(target, &options, &read)
        .split(template);
    let mut outputs = Memory {
        target,
        options: options.clone(),
        files: BTreeMap::new(),
    };
    let input = Input {
        format: Format::Rgn,
        reader: Box::new(io::Cursor::new(source.to_vec())),
        options: ReadOptions::default(),
    };
    // Per output file, what each game written to it must read back as.
    let mut written: BTreeMap<String, Vec<&Expected>> = BTreeMap::new();
    let mut derived = 0;
    let tally = conversion
        .run_split([((), Some(input))].into_iter(), &mut outputs, |event| {
            if let Event::Game(game, Outcome::Written(w)) = event {
                let file = w.file.clone().unwrap_or_default();
                written
                    .entry(file)
                    .or_default()
                    .push(&expected[game.index - 1]);
                derived += usize::from(w.derived_result);
            }
            Ok(())
        })
        .expect("converts in memory");
    let target_name = format!(
        "{target}{}",
        dialect.map(|d| format!(":{d}")).unwrap_or_default()
    );
    for (name, (buffer, mut writer)) in outputs.files {
        writer.finish().expect("finishes in memory");
        drop(writer);
        let bytes = std::mem::take(&mut *buffer.0.lock().expect("one writer"));
        let games = target.read_bytes(bytes, &read).expect("reads from memory");
        let games: Vec<_> = games.into_iter().filter(|g| g.index != 0).collect();
        let expected = written.remove(&name).unwrap_or_default();
        if games.len() != expected.len() {
            failures.push(format!(
                "{label} to {target_name} ({name}): {} games written, {} read back",
                expected.len(),
                games.len()
            ));
            continue;
        }
        for (game, expected) in games.iter().zip(expected) {
            let at = format!("{label} to {target_name}, game {}", expected.game);
            let errors: Vec<String> = validate_game(game, &[] as &[&str])
                .iter()
                .filter(|d| d.is_error())
                .map(|d| format!("{}: {}", d.code.name(), d.message))
                .collect();
            if expected.wrong {
                if errors.is_empty() {
                    failures.push(format!("{at}: a wrong game reads back without an error"));
                }
                continue;
            }
            if !errors.is_empty() {
                failures.push(format!("{at}: {errors:?}"));
            }
            let score = game
                .record
                .as_ref()
                .and_then(|r| r.result.as_ref())
                .map(|r| &r.score)
                .filter(|s| !s.is_none());
            if !holds_results {
                continue;
            }
            // GGF and SGF write a result as a margin; the others as disc counts.
            let margins = matches!(target, Format::Ggf | Format::Sgf);
            match score {
                _ if !expected.finished || expected.komi => {}
                Some(ResultScore::Discs(_)) => {}
                Some(ResultScore::Margin(_)) if margins => {}
                other => failures.push(format!(
                    "{at}: a finished game reads back with the result {other:?}"
                )),
            }
            // WTHOR stores a disc count for every game: an unfinished one's is its board's.
            let had_score = expected.result.as_ref().is_some_and(|r| !r.score.is_none());
            if !expected.finished && score.is_some() && !had_score && target != Format::Wthor {
                failures.push(format!(
                    "{at}: an unfinished game without a result reads back with {score:?}"
                ));
            }
        }
    }
    assert_eq!(tally.games, expected.len(), "{label} to {target_name}");
    (tally.written, derived)
}

#[test]
fn every_real_file_reads_back_from_every_target_with_its_results_and_without() {
    let files: Vec<_> = common::real_record_files()
        .into_iter()
        .filter(|f| f.format != Format::Obf)
        .collect();
    // The 12 game files of data/ (the 16 record files but OBF's positions).
    assert_eq!(files.len(), 12);
    let names = std::env::temp_dir().join(format!("real-results-{}", std::process::id()));
    let mut failures = Vec::new();
    let mut written_per_target = vec![0; TARGETS.len()];
    let mut derived_without_results = 0;
    let mut games = 0;
    for file in &files {
        let records = sample(file);
        games += records.len();
        assert!(!records.is_empty(), "{}: no games", file.name);
        for explicit in [true, false] {
            for results in [true, false] {
                let variant: Vec<Record> = records
                    .iter()
                    .cloned()
                    .map(|mut r| {
                        if explicit {
                            make_passes_explicit(&mut r);
                        } else {
                            r.moves.retain(|m| m.mv != Move::Pass);
                        }
                        if !results {
                            r.result = None;
                        }
                        r
                    })
                    .collect();
                let expected: Vec<Expected> = variant
                    .iter()
                    .enumerate()
                    .map(|(i, r)| {
                        let report = validate_record(r, i + 1);
                        Expected {
                            game: i + 1,
                            wrong: report.errors() > 0,
                            finished: report.position.as_ref().is_some_and(|p| p.is_over()),
                            komi: r.tag(TagName::KOMI).is_some(),
                            result: r.result.clone(),
                        }
                    })
                    .collect();
                let (source, _) = Format::Rgn
                    .write_bytes(&variant, &WriteOptions::default())
                    .expect("RGN holds every record");
                let label = format!(
                    "{} ({} passes, {})",
                    file.name,
                    if explicit { "explicit" } else { "implicit" },
                    if results {
                        "with results"
                    } else {
                        "without results"
                    }
                );
                for (t, &target) in TARGETS.iter().enumerate() {
                    let dir: PathBuf = names.join(format!("{t}"));
                    let _ = std::fs::remove_dir_all(&dir);
                    std::fs::create_dir_all(&dir).expect("a names directory");
                    let (written, derived) =
                        convert_and_check(&label, &source, &expected, target, &dir, &mut failures);
                    written_per_target[t] += written;
                    if !results && t == 0 {
                        derived_without_results += derived;
                    }
                }
            }
        }
    }
    let _ = std::fs::remove_dir_all(&names);
    failures.truncate(20);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    eprintln!("{} files, {games} games, each in 4 forms:", files.len());
    for ((target, dialect, _), written) in TARGETS.iter().zip(&written_per_target) {
        eprintln!(
            "  {target}{}: {written} written and read back",
            dialect.map(|d| format!(":{d}")).unwrap_or_default()
        );
        assert!(*written > 0, "{target} {dialect:?} held no real game");
    }
    eprintln!("  results derived from the board (rgn, without results): {derived_without_results}");
    assert!(
        derived_without_results > 1000,
        "results derived from the board: {derived_without_results}"
    );
}
