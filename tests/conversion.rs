//! The conversion pipeline against the plain path (`Format::read`, `with_explicit_passes`
//! and the writer, one game at a time): the same output bytes, the same name files, the
//! same outcome for every game (written with the same losses, refused for the same reason,
//! or unreadable) and the same reader diagnostics, for every fixture to every target, and
//! for every real record in `data/` to the targets the speed work is measured on.

mod common;

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use reversi_check::validate::{settle_result, validate_record, with_explicit_passes};
use reversi_formats::{Format, ParsedGame, PgnDialect, ReadOptions, WriteOptions};
use reversi_runs::pipeline::conversion::{
    Conversion, Event, Fingerprint, Mismatch, Outcome, Tally,
};
use reversi_runs::pipeline::Input;

/// One game as a run reported it, comparable.
#[derive(Debug, PartialEq)]
struct Reported {
    index: usize,
    diagnostics: Vec<String>,
    source: (String, usize),
    outcome: String,
}

impl Reported {
    fn of(game: &ParsedGame, outcome: &str) -> Reported {
        Reported {
            index: game.index,
            diagnostics: game
                .diagnostics
                .iter()
                .map(|d| serde_json::to_string(d).unwrap())
                .collect(),
            source: (game.source.text.to_string(), game.source.offset),
            outcome: outcome.to_owned(),
        }
    }
}

/// What a run wrote and reported: the output, the name files beside it, the games.
#[derive(Debug, PartialEq)]
struct Run {
    output: Vec<u8>,
    names: Vec<(String, Vec<u8>)>,
    games: Vec<Reported>,
    stopped: bool,
}

fn describe(outcome: Result<Vec<String>, String>) -> String {
    match outcome {
        Ok(losses) => format!("written, dropping {losses:?}"),
        Err(why) => format!("refused: {why}"),
    }
}

fn write_options(target: Format, dialect: Option<&str>, lossy: bool, dir: &Path) -> WriteOptions {
    WriteOptions {
        lossy,
        dialect: dialect.map(str::to_owned),
        names_dir: (target == Format::Wthor).then(|| dir.to_path_buf()),
        ..WriteOptions::default()
    }
}

/// The name files a WTHOR writer left in `dir`.
fn name_files(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut files: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .flatten()
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read(e.path()).unwrap(),
            )
        })
        .collect();
    files.sort();
    files
}

/// The plain path: every game read in full, its passes made explicit, written.
fn plain(
    format: Format,
    bytes: &[u8],
    options: &ReadOptions,
    target: Format,
    dialect: Option<&str>,
    lossy: bool,
) -> Run {
    let dir = tempfile::tempdir().unwrap();
    let mut output = Vec::new();
    let mut games = Vec::new();
    let mut stopped = false;
    {
        let options_out = write_options(target, dialect, lossy, dir.path());
        let mut writer = target.writer(Box::new(&mut output), &options_out);
        let target_name = target.to_string();
        for game in format.read(Box::new(Cursor::new(bytes.to_vec())), options) {
            let mut game = game.expect("in-memory reads do not fail");
            // Everything found in the game; a game without an error gets its passes
            // made explicit and its result settled, one with an error is written as read.
            if let Some(record) = &game.record {
                let found = validate_record(record, game.index).diagnostics;
                game.diagnostics.extend(found);
            }
            let clean = !game.diagnostics.iter().any(|d| d.is_error());
            if let Some(record) = game.record.as_mut().filter(|_| clean) {
                *record = with_explicit_passes(record).into_owned();
                let outcome = validate_record(record, 0).outcome;
                settle_result(record, outcome.as_ref());
            }
            let outcome = match &game.record {
                None => "unreadable".to_owned(),
                Some(record) => match writer.write(record) {
                    Ok(losses) => describe(Ok(losses)),
                    Err(reversi_formats::WriteError::Io(_)) => {
                        stopped = true;
                        break;
                    }
                    Err(why) => describe(Err(why.refusal(&target_name, lossy).unwrap())),
                },
            };
            games.push(Reported::of(&game, &outcome));
        }
        if !stopped {
            writer.finish().unwrap();
        }
    }
    Run {
        output,
        names: name_files(dir.path()),
        games,
        stopped,
    }
}

/// The pipeline with `jobs` workers.
#[allow(clippy::too_many_arguments)]
fn piped(
    format: Format,
    bytes: &[u8],
    options: &ReadOptions,
    target: Format,
    dialect: Option<&str>,
    lossy: bool,
    jobs: usize,
) -> (Run, Tally) {
    let dir = tempfile::tempdir().unwrap();
    let mut output = Vec::new();
    let mut games = Vec::new();
    let input = Input {
        format,
        reader: Box::new(Cursor::new(bytes.to_vec())),
        options: options.clone(),
    };
    let target_name = target.to_string();
    let (stopped, tally) = {
        let options_out = write_options(target, dialect, lossy, dir.path());
        let mut writer = target.writer(Box::new(&mut output), &options_out);
        let run = Conversion::new().jobs(jobs).run(
            [((), Some(input))].into_iter(),
            &mut *writer,
            |event| {
                if let Event::Game(game, outcome) = event {
                    let outcome = match outcome {
                        Outcome::Unreadable | Outcome::FileProblem => "unreadable".to_owned(),
                        Outcome::Written(written) => describe(Ok(written.losses.clone())),
                        Outcome::Refused(why) => {
                            describe(Err(why.refusal(&target_name, lossy).unwrap()))
                        }
                    };
                    games.push(Reported::of(game, &outcome));
                }
                Ok(())
            },
        );
        match run {
            Ok(tally) => {
                writer.finish().unwrap();
                (false, tally)
            }
            Err(stopped) => (true, stopped.counts),
        }
    };
    let run = Run {
        output,
        names: name_files(dir.path()),
        games,
        stopped,
    };
    (run, tally)
}

/// Asserts that the pipeline, with 1 and 3 jobs, converts exactly as the plain path does;
/// returns how many games were read.
fn assert_same(
    format: Format,
    bytes: &[u8],
    options: &ReadOptions,
    target: (Format, Option<&str>),
    lossy: bool,
    what: &str,
) -> usize {
    let (target, dialect) = target;
    let expected = plain(format, bytes, options, target, dialect, lossy);
    for jobs in [1, 3] {
        let (got, tally) = piped(format, bytes, options, target, dialect, lossy, jobs);
        let what = format!("{what} to {target} (lossy: {lossy}, {jobs} jobs)");
        assert_eq!(got.stopped, expected.stopped, "{what}: stopped");
        assert_eq!(got.games.len(), expected.games.len(), "{what}: games");
        for (g, e) in got.games.iter().zip(&expected.games) {
            assert_eq!(g, e, "{what}: game {}", e.index);
        }
        assert!(got.output == expected.output, "{what}: the output differs");
        assert_eq!(got.names, expected.names, "{what}: name files");
        let written = expected
            .games
            .iter()
            .filter(|g| g.outcome.starts_with("written"))
            .count();
        assert_eq!(
            tally.games + tally.file_problems,
            expected.games.len(),
            "{what}: tally"
        );
        if !expected.stopped {
            assert_eq!(tally.written, written, "{what}: written");
        }
    }
    expected.games.len()
}

fn read_options(name: &str, path: &Path) -> ReadOptions {
    ReadOptions {
        name: Arc::from(name),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    }
}

/// Every target a conversion can write to, with its dialect.
fn targets() -> Vec<(Format, Option<&'static str>)> {
    let mut targets: Vec<_> = Format::WRITABLE
        .into_iter()
        // Written by the `rgn` format; asked of the PGN writers, every write fails.
        .filter(|f| *f != Format::Pgn(PgnDialect::Rgn))
        .map(|f| (f, None))
        .collect();
    targets.push((Format::Json, Some("lines")));
    targets
}

#[test]
fn every_fixture_converts_the_same_to_every_target() {
    let fixtures = common::fixture_files();
    for f in &fixtures {
        let options = read_options(&f.name, &f.path);
        for target in targets() {
            for lossy in [false, true] {
                assert_same(f.format, &f.bytes, &options, target, lossy, &f.name);
            }
        }
    }
    assert!(
        fixtures.len() > 100,
        "only {} fixtures were checked",
        fixtures.len()
    );
}

/// Real games as move strings, JSON objects (some with a comment, which their records
/// keep) and transcript grids, with their results claimed or not: converted on the plain
/// path (from their quick scans) exactly as their records are.
#[test]
fn scanned_games_of_every_format_convert_as_their_records() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sample.wtb");
    let bytes = std::fs::read(&sample).unwrap();
    let games = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    let mut records: Vec<_> = games
        .into_iter()
        .filter_map(|g| g.record)
        .take(120)
        .collect();
    for (i, record) in records.iter_mut().enumerate() {
        if i % 3 == 0 {
            record.result = None;
        }
        if i % 4 == 1 {
            record.comment = Some(format!("game {i}"));
        }
    }
    let options = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    for (format, dialect) in [
        (Format::Json, Some("lines")),
        (Format::Json, None),
        (Format::MoveString, None),
        (Format::Transcript, None),
    ] {
        let options = WriteOptions {
            dialect: dialect.map(str::to_owned),
            ..options.clone()
        };
        let (text, _) = format.write_bytes(&records, &options).unwrap();
        let name = format!("scanned.{format}");
        for target in [
            (Format::Rgn, None),
            (Format::Sgf, None),
            (Format::Json, Some("lines")),
        ] {
            let read = read_options(&name, &sample);
            let games = assert_same(format, &text, &read, target, false, &name);
            assert_eq!(games, records.len(), "{name}");
        }
    }
}

/// An unfinished game without a result converts to every target and reads back as
/// written: PGN writes `*` for it, which claims nothing as no result does.
#[test]
fn an_unfinished_game_without_a_result_reads_back_in_every_target() {
    let text = "f5f6e6f4g5e7e3g4f3d3g3c6c4c3d6e2c5b6d7g6\nf5d6c3\n";
    for (target, dialect) in targets() {
        // WTHOR needs its name files; OBF keeps positions, not moves.
        if matches!(target, Format::Wthor | Format::Obf) {
            continue;
        }
        let options = WriteOptions {
            lossy: true,
            dialect: dialect.map(str::to_owned),
            ..WriteOptions::default()
        };
        let input = (Format::MoveString, text.as_bytes());
        let (out, written) = converted(input, target, &options, 1);
        assert_eq!(written.len(), 2, "{target} {dialect:?}");
        let found = read_back(target, &out, &written, 1);
        assert_eq!(found, None, "{target} {dialect:?}");
    }
}

#[test]
fn every_real_record_converts_the_same() {
    let mut games = 0;
    for f in common::real_record_files() {
        for target in [
            (Format::Rgn, None),
            (Format::Json, None),
            (Format::Wthor, None),
        ] {
            let options = read_options(&f.name, &f.path);
            games += assert_same(f.format, &f.bytes, &options, target, true, &f.name);
        }
    }
    // The 34,670 games and positions of the 16 real record files, to each of 3 targets.
    assert_eq!(games, 3 * 34_670, "the games of the 16 real record files");
}

#[test]
fn the_bench_sample_converts_the_same_with_passes_made_explicit() {
    // Our own sample of generated games: WTHOR records leave their passes out, so a pass-writing target needs them inserted.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sample.wtb");
    let bytes = std::fs::read(&path).unwrap();
    let games = assert_same(
        Format::Wthor,
        &bytes,
        &read_options("sample.wtb", &path),
        (Format::Rgn, None),
        false,
        "sample.wtb",
    );
    // More than one block of 256 records.
    assert!(games > 256, "the sample has {games} games");
    let (run, _) = piped(
        Format::Wthor,
        &bytes,
        &read_options("sample.wtb", &path),
        Format::Rgn,
        None,
        false,
        2,
    );
    let text = String::from_utf8(run.output).unwrap();
    assert!(text.contains(" -- "), "no pass was made explicit");
}

/// `input` (its format and bytes) converted to `target` with `jobs` workers: the output,
/// and the fingerprint of every game written.
fn converted(
    (format, bytes): (Format, &[u8]),
    target: Format,
    options: &WriteOptions,
    jobs: usize,
) -> (Vec<u8>, Vec<Fingerprint>) {
    let (mut out, mut written) = (Vec::new(), Vec::new());
    {
        let mut writer = target.writer(Box::new(&mut out), options);
        let input = Input {
            format,
            reader: Box::new(Cursor::new(bytes.to_vec())),
            options: ReadOptions::default(),
        };
        Conversion::new()
            .jobs(jobs)
            .run([((), Some(input))].into_iter(), &mut *writer, |e| {
                if let Event::Game(_, Outcome::Written(w)) = e {
                    written.push(w.fingerprint);
                }
                Ok(())
            })
            .unwrap();
        writer.finish().unwrap();
    }
    (out, written)
}

/// The first game of `out`, read back as `format` with `jobs` workers, that differs from
/// what was `written`.
fn read_back(format: Format, out: &[u8], written: &[Fingerprint], jobs: usize) -> Option<Mismatch> {
    let back = Input {
        format,
        reader: Box::new(Cursor::new(out.to_vec())),
        options: ReadOptions::default(),
    };
    let check = Conversion::new().jobs(jobs);
    check.verify(back, written.iter().copied().map(Ok)).unwrap()
}

/// What every text target writes of real games reads back as written (the quick scans
/// of the read-back fingerprint the games they pass), and a changed game does not.
#[test]
fn written_outputs_verify_and_changed_ones_do_not() {
    let bytes = std::fs::read(common::data_path("wthor/WTH_2004.wtb")).unwrap();
    for (target, dialect) in [
        (Format::Ggf, None),
        (Format::Sgf, None),
        (Format::Json, Some("lines")),
        (Format::Json, None),
        (Format::MoveString, None),
        (Format::Rgn, None),
    ] {
        let options = WriteOptions {
            lossy: true,
            dialect: dialect.map(str::to_owned),
            ..WriteOptions::default()
        };
        let (out, written) = converted((Format::Wthor, &bytes), target, &options, 2);
        assert_eq!(written.len(), 9113, "{target}: the games of WTHOR 2004");
        for jobs in [1, 2] {
            let found = read_back(target, &out, &written, jobs);
            assert_eq!(found, None, "{target} {dialect:?}, {jobs} jobs");
        }
        // The second game's first two moves swapped: it reads back with other moves.
        let text = String::from_utf8(out.clone()).unwrap();
        let second = text.match_indices("f5").nth(1).map(|(i, _)| i).unwrap();
        let rest = &text[second + 2..];
        let b = rest.as_bytes();
        let next = (0..b.len() - 1)
            .find(|&i| (b'a'..=b'h').contains(&b[i]) && (b'1'..=b'8').contains(&b[i + 1]))
            .unwrap();
        let mv = &rest[next..next + 2];
        let changed = format!(
            "{}{mv}{}f5{}",
            &text[..second],
            &rest[..next],
            &rest[next + 2..]
        );
        let found = read_back(target, changed.as_bytes(), &written, 1);
        assert!(
            found
                .as_ref()
                .is_some_and(|m| m.game == 2 && m.what.contains(&"moves")),
            "{target} {dialect:?}: {found:?}"
        );
    }
}

/// RGN games with colour prefixes, flip claims and comments (what a conversion from SGF
/// or GGF writes, and more) read back on the quick path as written; a colour or a claim
/// changed is found.
#[test]
fn annotated_rgn_reads_back_as_written_and_a_changed_claim_does_not() {
    use reversi_engine::Position;
    use reversi_formats::record::FlipClaim;
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sample.wtb");
    let bytes = std::fs::read(sample).unwrap();
    let games = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    let mut records = Vec::new();
    for game in games.into_iter().take(300) {
        let Some(record) = game.record else {
            continue;
        };
        let mut record = with_explicit_passes(&record).into_owned();
        let mut pos = Position::new(record.rules);
        for (i, m) in record.moves.iter_mut().enumerate() {
            m.color = Some(pos.turn());
            let flipped = pos.play_with_flips(m.mv).unwrap();
            if m.mv != reversi_engine::Move::Pass && i % 3 != 2 {
                m.flips = Some(FlipClaim {
                    squares: (i % 3 == 0).then_some(flipped),
                    count: (i % 3 == 1).then_some(flipped.len() as u8),
                    span: None,
                });
            }
            if i == 10 {
                m.comment = Some("the turning point".to_owned());
            }
        }
        records.push(record);
    }
    let (text, _) = Format::Rgn
        .write_bytes(&records, &WriteOptions::default())
        .unwrap();
    let text = String::from_utf8(text).unwrap();
    assert!(text.contains("B:") && text.contains("(") && text.contains('{'));
    let input = (Format::Rgn, text.as_bytes());
    let (out, written) = converted(input, Format::Rgn, &WriteOptions::default(), 2);
    assert_eq!(written.len(), records.len());
    let out = String::from_utf8(out).unwrap();
    assert!(out.contains("B:") && out.contains("(") && out.contains('{'));
    let verify = |text: &str, jobs| {
        read_back(Format::Rgn, text.as_bytes(), &written, jobs).map(|m| (m.game, m.what))
    };
    for jobs in [1, 2] {
        assert_eq!(verify(&out, jobs), None, "{jobs} jobs");
    }
    // In the second game, Black's first move claimed by White; in the third, a flip claim
    // made wrong.
    let starts: Vec<usize> = std::iter::once(0)
        .chain(out.match_indices("\n\n[").map(|(i, _)| i + 2))
        .collect();
    let second = starts[1] + out[starts[1]..].find("B:").unwrap();
    let changed = format!("{}W:{}", &out[..second], &out[second + 2..]);
    assert_eq!(verify(&changed, 1), Some((2, vec!["findings"])));
    let third = starts[2] + out[starts[2]..].find(")").unwrap();
    let changed = format!("{},a1{}", &out[..third], &out[third..]);
    assert_eq!(verify(&changed, 2), Some((3, vec!["findings"])));
}
