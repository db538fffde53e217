//! WTHOR files as keepers need them (issues 19, 20, 28): scores of games with recorded
//! passes and no result, the header's year from the games, `--names` as a directory or two
//! files, the records staged beside the output, and an edited name, event or date that
//! survives the conversion back to WTHOR and to every other target. On the real FFO files.

use std::path::{Path, PathBuf};
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;
use reversi_check::validate::{make_passes_explicit, validate_game};
use reversi_engine::{Move, Position, Rules};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, ResultScore, Tag};
use reversi_formats::wthor::{NameKind, NameTable};
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteError, WriteOptions};

mod common;
use common::scratch;

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/wthor");

/// The real files, every year we have.
const YEARS: [&str; 5] = [
    "WTH_1977.wtb",
    "WTH_1990.wtb",
    "WTH_2004.wtb",
    "WTH_2015.wtb",
    "WTH_2021.wtb",
];

fn data(name: &str) -> PathBuf {
    Path::new(DATA).join(name)
}

/// The records of a WTHOR file, names from `names` (or beside the file).
fn read_wthor(path: &Path, names: Option<&Path>) -> Vec<Record> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let options = ReadOptions {
        name: "wthor".into(),
        path: Some(path.to_path_buf()),
        names_dir: names.map(Path::to_path_buf),
        ..ReadOptions::default()
    };
    Format::Wthor
        .read_bytes(bytes, &options)
        .expect("reading from memory")
        .into_iter()
        .map(|g| g.record.expect("every real record reads"))
        .collect()
}

fn read(format: Format, bytes: &[u8]) -> Vec<Record> {
    format
        .read_bytes(bytes.to_vec(), &ReadOptions::default())
        .expect("reading from memory")
        .into_iter()
        .map(|g| g.record.expect("a record"))
        .collect()
}

fn write(format: Format, records: &[Record], options: &WriteOptions) -> Vec<u8> {
    match format.write_bytes(records, options) {
        Ok((bytes, _)) => bytes,
        Err(e) => panic!("{format}: {e}"),
    }
}

fn lossy() -> WriteOptions {
    WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    }
}

fn with_names(dir: &Path) -> WriteOptions {
    WriteOptions {
        names_dir: Some(dir.to_path_buf()),
        ..WriteOptions::default()
    }
}

/// The 68-byte records of a game file.
fn records_of(file: &[u8]) -> Vec<&[u8]> {
    file[16..].chunks(68).collect()
}

/// The final position of a record, passes it leaves out inferred.
fn final_position(record: &Record) -> Position {
    let mut pos = Position::new(record.rules);
    for m in &record.moves {
        if m.mv != Move::Pass && pos.must_pass() {
            pos.play(Move::Pass).expect("a forced pass");
        }
        pos.play(m.mv).expect("the real games are legal");
    }
    pos
}

/// Runs the binary: exit code, stderr.
fn reversi(args: &[&str], env: &[(&str, &str)]) -> (i32, String) {
    let out = Command::cargo_bin("reversi")
        .expect("the binary")
        .args(args)
        .envs(env.iter().copied())
        .env("NO_COLOR", "1")
        .output()
        .expect("reversi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

// ---------------------------------------------------------------------------------------
// Scores of games with recorded passes and no result

#[test]
fn a_recorded_pass_without_a_result_is_written_with_the_boards_score() {
    let original = std::fs::read(data("WTH_2004.wtb")).expect("WTH_2004.wtb");
    let records = read_wthor(&data("WTH_2004.wtb"), None);
    // The first finished game with a pass in it, made explicit, its result dropped.
    let (index, mut record) = records
        .into_iter()
        .enumerate()
        .find_map(|(i, mut r)| {
            let finished = final_position(&r).is_over();
            (make_passes_explicit(&mut r) && finished).then_some((i, r))
        })
        .expect("2004 has finished games with a pass");
    assert!(record.moves.iter().any(|m| m.mv == Move::Pass));
    record.result = None;
    // Through RGN, where the pass is written `--` and there is no Result.
    let rgn = String::from_utf8(write(Format::Rgn, &[record], &WriteOptions::default())).unwrap();
    assert!(rgn.contains(" -- ") && !rgn.contains("[Result"), "{rgn}");
    let record = read(Format::Rgn, rgn.as_bytes()).remove(0);

    let (bytes, lost) = Format::Wthor
        .write_bytes(std::slice::from_ref(&record), &lossy())
        .expect("lossy writes");
    assert_eq!(lost, ["a missing result (WTHOR stores Black's disc count)"]);
    let stored = bytes[16 + 6];
    assert_eq!(
        stored,
        records_of(&original)[index][6],
        "the original score"
    );
    let board = final_position(&record).outcome().expect("finished").score[0];
    assert_eq!(stored, board, "the board's score");
    // The written file re-validates without an error.
    let games = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    let diagnostics = validate_game(&games[0], &[] as &[&str]);
    assert!(diagnostics.is_empty(), "{diagnostics:?}");
}

#[test]
fn every_real_year_keeps_its_scores_through_rgn_with_passes_and_without_results() {
    for name in YEARS {
        let original = std::fs::read(data(name)).expect("a real year");
        let records: Vec<Record> = read_wthor(&data(name), None)
            .into_iter()
            .map(|mut r| {
                make_passes_explicit(&mut r);
                r.result = None;
                r
            })
            .collect();
        let rgn = write(Format::Rgn, &records, &WriteOptions::default());
        let back = read(Format::Rgn, &rgn);
        assert_eq!(back.len(), records.len(), "{name}");
        let written = write(Format::Wthor, &back, &lossy());
        let (mut passes, mut unfinished) = (0, 0);
        for (i, (new, old)) in records_of(&written)
            .into_iter()
            .zip(records_of(&original))
            .enumerate()
        {
            passes += usize::from(back[i].moves.iter().any(|m| m.mv == Move::Pass));
            let position = final_position(&back[i]);
            if position.is_over() {
                assert_eq!(new, old, "{name} #{}: the record as it was", i + 1);
            } else {
                // A game that stops early: the recorded result is gone, the board stands in.
                unfinished += 1;
                assert_eq!(
                    new[6],
                    position.counts_outcome().score[0],
                    "{name} #{}",
                    i + 1
                );
                assert_eq!((&new[..6], &new[7..]), (&old[..6], &old[7..]));
            }
        }
        eprintln!("{name}: {passes} games with passes, {unfinished} unfinished");
        assert!(passes > 0 || name == "WTH_1977.wtb", "{name} has passes");
        assert_eq!(written[..16], original[..16], "{name}: the header");
    }
}

// ---------------------------------------------------------------------------------------
// The header's year

fn game(year: Option<&str>) -> Record {
    let mut r = Record::new(Rules::default());
    for sq in ["f5", "d6", "c3"] {
        r.moves
            .push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
    }
    r.result = Some(ClaimedResult::discs(vec![40, 24]));
    if let Some(year) = year {
        r.tags.push(Tag::new("Date", year));
    }
    r
}

fn refusal(records: &[Record], options: &WriteOptions) -> (String, String) {
    match Format::Wthor.write_bytes(records, options) {
        Err(
            e @ (WriteError::CannotHold(_)
            | WriteError::ChangesMeaning(_)
            | WriteError::NeedsSetting { .. }),
        ) => (
            e.refusal("wthor", options.lossy).unwrap(),
            e.refusal("wthor", true).unwrap(),
        ),
        Err(e) => panic!("expected a refusal, got {e}"),
        Ok(_) => panic!("expected a refusal, got a file"),
    }
}

fn header_year(file: &[u8]) -> u16 {
    u16::from_le_bytes([file[10], file[11]])
}

#[test]
fn the_header_year_is_the_games_year() {
    let file = write(
        Format::Wthor,
        &[game(Some("2004")), game(Some("2004.05.12"))],
        &lossy(),
    );
    assert_eq!(header_year(&file), 2004);
    let real = std::fs::read(data("WTH_1990.wtb")).unwrap();
    let written = write(
        Format::Wthor,
        &read_wthor(&data("WTH_1990.wtb"), None),
        &WriteOptions::default(),
    );
    assert_eq!(header_year(&written), 1990);
    assert_eq!(written, real);
}

#[test]
fn a_game_without_a_year_is_refused_unless_the_year_is_given() {
    let (plain, lossy_too) = refusal(&[game(None)], &WriteOptions::default());
    insta::assert_snapshot!(plain, @"wthor cannot hold a game without a year (a WTHOR file holds the year of its games in its header); not converted (--year YYYY files every game under one year)");
    assert_eq!(refusal(&[game(None)], &lossy()).0, lossy_too);
    // After a dated game, the refusal says the file's year.
    let (plain, _) = refusal(&[game(Some("2004")), game(None)], &WriteOptions::default());
    assert!(plain.contains("this file's games are from 2004"), "{plain}");

    let options = WriteOptions {
        year: Some(1999),
        ..WriteOptions::default()
    };
    let file = write(Format::Wthor, &[game(None), game(Some("1999"))], &options);
    assert_eq!(header_year(&file), 1999);
    let back = read(Format::Wthor, &file);
    assert_eq!(back[0].tag("Date"), Some("1999"));
    // No games: the header still says the year given, and no year 0 without one.
    assert_eq!(header_year(&write(Format::Wthor, &[], &options)), 1999);
}

#[test]
fn a_second_year_is_refused_naming_both() {
    let games = [game(Some("2004")), game(Some("2005"))];
    let (plain, lossy_too) = refusal(&games, &WriteOptions::default());
    insta::assert_snapshot!(plain, @"wthor cannot hold a game of 2005 in a file of the games of 2004 (a WTHOR file holds one year); not converted (-o 'WTH_{year}.wtb' writes a file per year; --year YYYY files every game under one)");
    assert_eq!(refusal(&games, &lossy()).0, lossy_too, "lossy or not");

    // Years of a multi-year collection: 1977 then 1990, as one RGN file.
    let mut both = read_wthor(&data("WTH_1977.wtb"), None);
    both.extend(read_wthor(&data("WTH_1990.wtb"), None));
    let rgn = write(Format::Rgn, &both, &WriteOptions::default());
    let (plain, _) = refusal(&read(Format::Rgn, &rgn), &WriteOptions::default());
    assert!(
        plain.contains("a game of 1990 in a file of the games of 1977"),
        "{plain}"
    );

    // `--year` files every game under one year: another game's year is a --lossy loss.
    let options = WriteOptions {
        year: Some(2004),
        ..WriteOptions::default()
    };
    let (plain, _) = refusal(&games, &options);
    insta::assert_snapshot!(plain, @"wthor cannot hold the year 2005 (every game of this file is filed under 2004, as --year says); not converted (--lossy converts it without them)");
    let (file, lost) = Format::Wthor
        .write_bytes(
            &games,
            &WriteOptions {
                lossy: true,
                ..options
            },
        )
        .unwrap();
    assert_eq!(header_year(&file), 2004);
    assert_eq!(
        lost,
        ["the year 2005 (every game of this file is filed under 2004, as --year says)"]
    );
}

#[test]
fn the_cli_takes_the_year_and_refuses_a_missing_one() {
    let dir = scratch("cli-year");
    let rgn = dir.join("undated.rgn");
    let mut text =
        String::from_utf8(write(Format::Rgn, &[game(None)], &WriteOptions::default())).unwrap();
    text.push('\n');
    std::fs::write(&rgn, text).unwrap();
    let out = dir.join("out.wtb");
    let (code, stderr) = reversi(&["convert", s(&rgn), "--to", "wthor", "-o", s(&out)], &[]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("--year YYYY files every game under one year"),
        "{stderr}"
    );
    assert!(!out.exists());
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&rgn),
            "--to",
            "wthor",
            "--year",
            "2026",
            "-o",
            s(&out),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(header_year(&std::fs::read(&out).unwrap()), 2026);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_year_split_through_one_pgn_gives_back_every_year_byte_for_byte() {
    let dir = scratch("year-split");
    // Every year into one PGN file, as a keeper's collection.
    let pgn = dir.join("all.pgn");
    let mut args = vec!["convert"];
    let years: Vec<PathBuf> = YEARS.iter().map(|y| data(y)).collect();
    args.extend(years.iter().map(|p| s(p)));
    args.extend(["--to", "pgn", "-q", "-o", s(&pgn)]);
    let (code, stderr) = reversi(&args, &[]);
    assert_eq!(code, 0, "{stderr}");

    // Split by year into the archive's folder, whose name files give the players' numbers.
    let archive = dir.join("archive");
    std::fs::create_dir_all(&archive).unwrap();
    for names in ["WTHOR.JOU", "WTHOR.TRN"] {
        std::fs::copy(data(names), archive.join(names)).unwrap();
    }
    let template = archive.join("WTH_{year}.wtb");
    let (code, stderr) = reversi(
        &["convert", s(&pgn), "--to", "wthor", "-o", s(&template)],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(stderr.contains("to wthor into 5 files"), "{stderr}");
    for year in YEARS {
        let written = std::fs::read(archive.join(year)).unwrap();
        assert!(
            written == std::fs::read(data(year)).unwrap(),
            "{year} differs"
        );
    }
    for names in ["WTHOR.JOU", "WTHOR.TRN"] {
        let written = std::fs::read(archive.join(names)).unwrap();
        assert!(
            written == std::fs::read(data(names)).unwrap(),
            "{names} changed"
        );
    }

    // Into a new folder: one pair of name files for the five files (each writer merges its
    // names with those the others wrote), and every game keeps its players and event.
    let fresh = dir.join("fresh");
    let template = fresh.join("WTH_{year}.wtb");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&pgn),
            "--to",
            "wthor",
            "-q",
            "-o",
            s(&template),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    let mut listed: Vec<String> = std::fs::read_dir(&fresh)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    listed.sort();
    let mut expected: Vec<String> = YEARS.iter().map(|y| y.to_string()).collect();
    expected.extend(["WTHOR.JOU".into(), "WTHOR.TRN".into()]);
    expected.sort();
    assert_eq!(listed, expected, "no temporaries left, no other files");
    for year in YEARS {
        let original = read_wthor(&data(year), None);
        let written = read_wthor(&fresh.join(year), None);
        assert_eq!(original.len(), written.len(), "{year}");
        for (a, b) in original.iter().zip(&written) {
            for tag in ["Event", "Black", "White", "Date"] {
                assert_eq!(a.tag(tag), b.tag(tag), "{year}: {tag}");
            }
            assert_eq!(a.moves, b.moves, "{year}");
            assert_eq!(a.result, b.result, "{year}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// `--names`: a directory, created when missing, or the two files by any names

#[test]
fn names_go_to_a_directory_created_when_missing() {
    let dir = scratch("names-new-dir");
    let rgn = dir.join("2021.rgn");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&data("WTH_2021.wtb")),
            "--to",
            "rgn",
            "-o",
            s(&rgn),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    let names = dir.join("not/yet/there");
    let out = dir.join("WTH_2021.wtb");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&rgn),
            "--to",
            "wthor",
            "--names",
            s(&names),
            "-o",
            s(&out),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    assert!(names.join("WTHOR.JOU").is_file() && names.join("WTHOR.TRN").is_file());
    // Read back through the new name files: the names of the original.
    let original = read_wthor(&data("WTH_2021.wtb"), None);
    let back = read_wthor(&out, Some(&names));
    for (a, b) in original.iter().zip(&back) {
        for tag in ["Event", "Black", "White", "Date"] {
            assert_eq!(a.tag(tag), b.tag(tag), "{tag}");
        }
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn names_are_two_files_by_any_names_for_reading_and_writing() {
    let dir = scratch("names-files");
    let players = dir.join("joueurs.dat");
    let tournaments = dir.join("tournois.dat");
    std::fs::copy(data("WTHOR.JOU"), &players).unwrap();
    std::fs::copy(data("WTHOR.TRN"), &tournaments).unwrap();
    let pair = format!("{},{}", s(&players), s(&tournaments));
    let game_file = dir.join("WTH_2015.wtb");
    std::fs::copy(data("WTH_2015.wtb"), &game_file).unwrap();

    // Reading: the names come from the two files (there are none beside the game file).
    let rgn = dir.join("2015.rgn");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&game_file),
            "--names",
            &pair,
            "--to",
            "rgn",
            "-o",
            s(&rgn),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    let text = std::fs::read_to_string(&rgn).unwrap();
    let first = read_wthor(&data("WTH_2015.wtb"), None).remove(0);
    assert!(
        text.contains(&format!("[Black \"{}\"]", first.tag("Black").unwrap())),
        "names joined"
    );

    // Writing: a new player goes into the players' file, by its name.
    let edited = text.replacen(
        &format!("[Black \"{}\"]", first.tag("Black").unwrap()),
        "[Black \"Nouveau Joueur\"]",
        1,
    );
    std::fs::write(&rgn, edited).unwrap();
    let out = dir.join("out.wtb");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&rgn),
            "--names",
            &pair,
            "--to",
            "wthor",
            "-o",
            s(&out),
        ],
        &[],
    );
    assert_eq!(code, 0, "{stderr}");
    let jou = NameTable::read(NameKind::Player, &players).unwrap();
    assert_eq!(jou.len(), 3_885);
    assert_eq!(jou.find("Nouveau Joueur"), Some(3_884));
    assert!(
        !dir.join("WTHOR.JOU").exists(),
        "nothing under the usual names"
    );
    let files = reversi_formats::wthor::NameFiles {
        players: players.clone(),
        tournaments: tournaments.clone(),
    };
    let options = ReadOptions {
        name_files: Some(files),
        ..ReadOptions::default()
    };
    let back = Format::Wthor
        .read_bytes(std::fs::read(&out).unwrap(), &options)
        .unwrap();
    assert_eq!(
        back[0].record.as_ref().unwrap().tag("Black"),
        Some("Nouveau Joueur")
    );

    // A swapped pair is refused before any work.
    let swapped = format!("{},{}", s(&tournaments), s(&players));
    let out2 = dir.join("out2.wtb");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&rgn),
            "--names",
            &swapped,
            "--to",
            "wthor",
            "-o",
            s(&out2),
        ],
        &[],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains("holds 26-byte tournament records, not 20-byte player ones"),
        "{stderr}"
    );
    assert!(!out2.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_names_directory_that_cannot_be_created_is_an_error_before_any_work() {
    let dir = scratch("names-blocked");
    let blocker = dir.join("a-file");
    std::fs::write(&blocker, "not a directory").unwrap();
    let out = dir.join("out.wtb");
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&data("WTH_2021.wtb")),
            "--to",
            "wthor",
            "--names",
            s(&blocker.join("names")),
            "-o",
            s(&out),
        ],
        &[],
    );
    assert_eq!(code, 2, "{stderr}");
    assert!(
        stderr.contains(&format!(
            "cannot create the names directory {}",
            blocker.join("names").display()
        )),
        "{stderr}"
    );
    assert!(!stderr.contains("converted"), "no work was done: {stderr}");
    assert!(!out.exists());
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// Staging beside the output

#[test]
fn the_records_are_staged_beside_the_output_and_a_failure_names_the_place() {
    let dir = scratch("staging");
    // The name files beside the output: the game file is written back as it was.
    std::fs::copy(data("WTHOR.JOU"), dir.join("WTHOR.JOU")).unwrap();
    std::fs::copy(data("WTHOR.TRN"), dir.join("WTHOR.TRN")).unwrap();
    let out = dir.join("WTH_2021.wtb");
    // No usable system temporary directory: the output's own is used.
    let (code, stderr) = reversi(
        &[
            "convert",
            s(&data("WTH_2021.wtb")),
            "--to",
            "wthor",
            "-o",
            s(&out),
        ],
        &[("TMPDIR", "/nonexistent/tmp")],
    );
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(
        std::fs::read(&out).unwrap(),
        std::fs::read(data("WTH_2021.wtb")).unwrap()
    );

    let missing = dir.join("gone");
    let options = WriteOptions {
        staging_dir: Some(missing.clone()),
        ..WriteOptions::default()
    };
    match Format::Wthor.write_bytes(&[game(Some("2004"))], &options) {
        Err(WriteError::Io(e)) => {
            let message = e.to_string();
            assert!(
                message.starts_with(&format!(
                    "cannot stage the WTHOR records in {}: ",
                    missing.display()
                )),
                "{message}"
            );
            assert!(message.contains("No such file or directory"), "{message}");
        }
        other => panic!("expected an I/O error, got {other:?}"),
    }
    std::fs::remove_dir_all(&dir).unwrap();
}

// ---------------------------------------------------------------------------------------
// An edited name, event or date wins

/// The 2004 games as RGN, one text a game, with edits in a few of them: two players
/// renamed (one to a name already in `WTHOR.JOU`, one to a new name), an event renamed.
struct Edited {
    originals: Vec<Record>,
    texts: Vec<String>,
    /// The games edited and their new Black name or Event.
    edits: Vec<(usize, &'static str, String)>,
}

fn edited_2004() -> Edited {
    let originals = read_wthor(&data("WTH_2004.wtb"), None);
    let mut texts: Vec<String> = originals
        .iter()
        .map(|r| {
            String::from_utf8(write(
                Format::Rgn,
                std::slice::from_ref(r),
                &WriteOptions::default(),
            ))
            .unwrap()
        })
        .collect();
    let mut edits = Vec::new();
    let mut edit = |i: usize, tag: &'static str, new: &str| {
        let old = originals[i].tag(tag).expect("the name is there");
        assert_ne!(old, new);
        let before = format!("[{tag} \"{old}\"]");
        assert!(texts[i].contains(&before));
        texts[i] = texts[i].replacen(&before, &format!("[{tag} \"{new}\"]"), 1);
        edits.push((i, tag, new.to_string()));
    };
    edit(3, "Black", "Tastet Marc");
    edit(100, "Black", "Nouveau Joueur Zoë");
    edit(101, "White", "Nouveau Joueur Zoë");
    edit(2_000, "Event", "Open de Göteborg");
    Edited {
        originals,
        texts,
        edits,
    }
}

impl Edited {
    fn rgn(&self) -> Vec<u8> {
        self.texts.concat().into_bytes()
    }

    fn records(&self) -> Vec<Record> {
        read(Format::Rgn, &self.rgn())
    }

    /// Checks that `back` holds every edit and every other name as it was.
    fn check(&self, back: &[Record], what: &str) {
        assert_eq!(back.len(), self.originals.len(), "{what}");
        for (i, (b, o)) in back.iter().zip(&self.originals).enumerate() {
            for tag in ["Event", "Black", "White", "Date"] {
                let expected = self
                    .edits
                    .iter()
                    .find(|(g, t, _)| *g == i && *t == tag)
                    .map_or(o.tag(tag), |(_, _, new)| Some(new.as_str()));
                assert_eq!(b.tag(tag), expected, "{what}: game {} {tag}", i + 1);
            }
        }
    }
}

#[test]
fn edited_names_survive_into_an_empty_names_directory() {
    let edited = edited_2004();
    let dir = scratch("edited-empty");
    let file = write(Format::Wthor, &edited.records(), &with_names(&dir));
    assert!(dir.join("WTHOR.JOU").is_file() && dir.join("WTHOR.TRN").is_file());
    let path = dir.join("WTH_2004.wtb");
    std::fs::write(&path, &file).unwrap();
    edited.check(&read_wthor(&path, Some(&dir)), "an empty directory");
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn edited_names_survive_into_the_original_names_directory() {
    let edited = edited_2004();
    let dir = scratch("edited-original");
    std::fs::copy(data("WTHOR.JOU"), dir.join("WTHOR.JOU")).unwrap();
    std::fs::copy(data("WTHOR.TRN"), dir.join("WTHOR.TRN")).unwrap();
    let file = write(Format::Wthor, &edited.records(), &with_names(&dir));
    let path = dir.join("WTH_2004.wtb");
    std::fs::write(&path, &file).unwrap();
    edited.check(&read_wthor(&path, Some(&dir)), "the original directory");

    // Only the new names are added; an existing one keeps its index.
    let jou = NameTable::read(NameKind::Player, &dir.join("WTHOR.JOU")).unwrap();
    let trn = NameTable::read(NameKind::Tournament, &dir.join("WTHOR.TRN")).unwrap();
    assert_eq!((jou.len(), trn.len()), (3_885, 440));
    assert_eq!(jou.find("Tastet Marc"), Some(1));
    // Every game not edited is the original record, byte for byte.
    let original = std::fs::read(data("WTH_2004.wtb")).unwrap();
    assert_eq!(file[..16], original[..16]);
    let edited_games: Vec<usize> = edited.edits.iter().map(|(g, _, _)| *g).collect();
    for (i, (new, old)) in records_of(&file)
        .into_iter()
        .zip(records_of(&original))
        .enumerate()
    {
        if edited_games.contains(&i) {
            assert_ne!(new, old, "game {} was edited", i + 1);
        } else {
            assert_eq!(new, old, "game {}", i + 1);
        }
    }
    assert_eq!(
        &records_of(&file)[3][2..4],
        &1u16.to_le_bytes(),
        "Tastet Marc"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_date_wins_or_is_refused_naming_both_years() {
    let edited = edited_2004();
    // Two games moved to 2005: a file holds one year.
    let mut texts = edited.texts.clone();
    for i in [7, 8] {
        texts[i] = texts[i].replacen("[Date \"2004\"]", "[Date \"2005\"]", 1);
    }
    let (plain, _) = refusal(&read(Format::Rgn, texts.concat().as_bytes()), &lossy());
    assert!(
        plain.contains("a game of 2005 in a file of the games of 2004"),
        "{plain}"
    );
    // Every game moved: the file is of 2005.
    let all: String = edited
        .texts
        .iter()
        .map(|t| t.replacen("[Date \"2004\"]", "[Date \"2005\"]", 1))
        .collect();
    let dir = scratch("edited-date");
    let file = write(
        Format::Wthor,
        &read(Format::Rgn, all.as_bytes()),
        &with_names(&dir),
    );
    assert_eq!(header_year(&file), 2005);
    assert!(read(Format::Wthor, &file)
        .iter()
        .all(|r| r.tag("Date") == Some("2005")));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn an_edited_theoretical_depth_wins_over_the_stale_header_byte() {
    let mut records = read_wthor(&data("WTH_2021.wtb"), None);
    for r in &mut records {
        for tag in &mut r.tags {
            if tag.name == "TheoreticalDepth" {
                tag.value = "20".into();
            }
        }
    }
    assert_eq!(records[0].tag("WthorDepth"), Some("24"), "the stale byte");
    let file = write(Format::Wthor, &records, &WriteOptions::default());
    assert_eq!(file[14], 20);
    assert_eq!(
        read(Format::Wthor, &file)[0].tag("TheoreticalDepth"),
        Some("20")
    );
}

#[test]
fn edited_names_survive_every_other_target() {
    let edited = edited_2004();
    let records = edited.records();
    let targets = [
        Format::Rgn,
        Format::Json,
        Format::Ggf,
        Format::Sgf,
        Format::Pgn(PgnDialect::Thor),
        Format::Pgn(PgnDialect::PlayOk),
        Format::Pgn(PgnDialect::Edax),
    ];
    for target in targets {
        let options = WriteOptions {
            lossy: true,
            dialect: match target {
                Format::Pgn(d) => Some(d.name().to_string()),
                _ => None,
            },
            ..WriteOptions::default()
        };
        let back = read(target, &write(target, &records, &options));
        assert_eq!(back.len(), records.len(), "{target}");
        for (game, tag, new) in &edited.edits {
            let old = edited.originals[*game].tag(tag);
            let got = back[*game].tag(tag);
            if *tag != "Event" {
                assert_eq!(got, Some(new.as_str()), "{target}: game {} {tag}", game + 1);
            }
            assert_ne!(got, old, "{target}: game {} {tag} undone", game + 1);
        }
    }
}

/// A game whose result is only a margin still gets its black count.
#[test]
fn margins_are_written_as_black_counts() {
    let mut r = game(Some("2004"));
    r.result = Some(ClaimedResult {
        score: ResultScore::Margin(-8.0),
        ..ClaimedResult::discs(vec![])
    });
    let file = write(Format::Wthor, &[r], &WriteOptions::default());
    assert_eq!(file[16 + 6], 28);
}
