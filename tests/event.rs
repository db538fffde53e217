//! The level above one game: the facts a validation run gathers for every game (the quick
//! path's included) are the ones the full reader gives, and the checks across games name
//! every planted problem of an event, and find the duplicates of a real archive, mirrored
//! ones included.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use reversi_check::event::{Event, Schedule};
use reversi_formats::codes::Code;
use reversi_formats::{Format, ReadOptions};
use reversi_runs::pipeline::validation::{Event as Found, Input, Validation};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn options(path: &Path) -> ReadOptions {
    ReadOptions {
        name: Arc::from(path.to_string_lossy().as_ref()),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    }
}

/// The facts of `paths` as a validation run with `jobs` workers gathers them.
fn gathered(paths: &[PathBuf], jobs: usize) -> Event {
    let inputs = paths.iter().map(|path| {
        let input = Input::open(path).expect("a record");
        (path.to_string_lossy().into_owned(), Some(input))
    });
    let mut event = Event::default();
    Validation::new()
        .jobs(jobs)
        .gather(true)
        .run(inputs, |found| {
            match found {
                Found::Start(name) => event.start_input(name),
                Found::Facts(block) => event.absorb(block),
                _ => {}
            }
            Ok(())
        })
        .expect("the run ends");
    event
}

/// The facts of `paths` read in full, game by game.
fn read_in_full(paths: &[PathBuf]) -> Event {
    let mut event = Event::default();
    for path in paths {
        let input = Input::open(path).expect("a record");
        let games: Vec<_> = input
            .format
            .read(input.reader, &input.options)
            .map_while(Result::ok)
            .collect();
        event.add_games(&path.to_string_lossy(), &games);
    }
    event
}

/// Every fact of every game, as text to compare.
fn facts(event: &Event) -> Vec<String> {
    event
        .games()
        .iter()
        .map(|g| {
            format!(
                "{}#{} {:?} {:?} {:?} {:?} {:?} {:?} {}",
                event.input_name(g.input),
                g.index,
                event.identity(g),
                event.rules(g),
                g.moves(),
                g.claimed(),
                g.termination(),
                g.board(),
                g.valid()
            )
        })
        .collect()
}

/// A file of the repository's real data (`data/`, see `data/SOURCES.md`); a missing file
/// fails the test.
fn real(name: &str) -> PathBuf {
    let path = Path::new(ROOT).join("data").join(name);
    assert!(
        path.exists(),
        "{} is missing: the real data is part of the repository (data/SOURCES.md)",
        path.display()
    );
    path
}

#[test]
fn a_run_gathers_the_facts_the_full_reader_gives() {
    let mut paths: Vec<PathBuf> = ["wthor/WTH_1990.wtb", "pgn/WTHOR-2004.r.pgn"]
        .iter()
        .map(|n| real(n))
        .collect();
    for dir in ["checks", "cli", "rgn/valid", "validate", "ggf"] {
        let dir = Path::new(ROOT).join("fixtures").join(dir);
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .expect("a fixture folder")
            .flatten()
            .map(|e| e.path())
            .filter(|p| p.is_file() && Input::open(p).is_ok())
            .collect();
        files.sort();
        paths.extend(files);
    }
    let full = facts(&read_in_full(&paths));
    // WTHOR 1990 (2,986 games) and the 2004 export (9,113), then the fixtures.
    assert!(full.len() > 2986 + 9113, "{} games", full.len());
    for jobs in [1, 2] {
        let quick = facts(&gathered(&paths, jobs));
        assert_eq!(quick.len(), full.len(), "jobs {jobs}");
        for (a, b) in quick.iter().zip(&full) {
            assert_eq!(a, b, "jobs {jobs}");
        }
    }
}

#[test]
fn every_planted_problem_of_the_checks_fixture_is_named_with_its_games() {
    let dir = Path::new(ROOT).join("fixtures/checks");
    let paths: Vec<PathBuf> = [
        "phone-round-1.rgn",
        "round-1.rgn",
        "round-2.rgn",
        "round-3.rgn",
    ]
    .iter()
    .map(|n| dir.join(n))
    .collect();
    let pairings =
        Schedule::parse(&std::fs::read_to_string(dir.join("pairings.csv")).expect("the pairings"))
            .expect("pairings that read");
    let event = gathered(&paths, 2);
    let named: Vec<(Code, Vec<String>)> = event
        .check(Some(&pairings))
        .into_iter()
        .map(|f| {
            let games = f
                .games
                .iter()
                .map(|g| {
                    let file = Path::new(&g.file).file_name().unwrap().to_string_lossy();
                    format!("{file}#{}", g.game)
                })
                .collect();
            (f.code, games)
        })
        .collect();
    let expected = |code, games: &[&str]| (code, games.iter().map(|g| g.to_string()).collect());
    assert_eq!(
        named,
        [
            // The phone entry is read first (the files in name order).
            expected(
                Code::DuplicateGame,
                &["phone-round-1.rgn#1", "round-1.rgn#2"]
            ),
            expected(Code::SwappedColours, &["round-2.rgn#2"]),
            expected(Code::DuplicateGame, &["round-1.rgn#1", "round-2.rgn#3"]),
            expected(
                Code::PlayerTwiceInRound,
                &["round-2.rgn#2", "round-2.rgn#4"]
            ),
            expected(Code::UnpairedGame, &["round-2.rgn#4"]),
            expected(Code::RepeatedPairing, &["round-1.rgn#1", "round-3.rgn#1"]),
            expected(Code::UnpairedGame, &["round-3.rgn#1"]),
            expected(Code::MissingGame, &[]),
        ]
    );
    let messages: Vec<String> = event
        .check(Some(&pairings))
        .into_iter()
        .map(|f| f.message)
        .collect();
    assert!(messages[0].contains("reflected on the a1-h8 diagonal"));
    assert!(messages[2].contains("with other players' names"));
    assert!(messages[3].starts_with("Ann plays two games in round 2"));
    assert!(messages[7].contains("round 3, board 1: Cy (black) vs Ann (white)"));
    // Without the pairings, only what the games say themselves.
    let codes: Vec<Code> = event.check(None).iter().map(|f| f.code).collect();
    assert_eq!(
        codes,
        [
            Code::DuplicateGame,
            Code::DuplicateGame,
            Code::PlayerTwiceInRound,
            Code::RepeatedPairing
        ]
    );
}

/// A symmetry of the board as a map of `(col, row)`.
type Turn = fn(u8, u8) -> (u8, u8);

/// WTHOR 1990 with some of its games written again: as they are, mirrored under each of
/// the three symmetries of the start, and one game with a move changed (no duplicate).
#[test]
fn duplicates_of_a_real_archive_are_found_as_written_and_mirrored() {
    let path = real("wthor/WTH_1990.wtb");
    let bytes = std::fs::read(&path).unwrap();
    let games = Format::Wthor
        .read_bytes(bytes, &options(&path))
        .expect("the archive reads");
    let mut archive = Event::default();
    archive.add_games("1990", &games);
    let known = archive.check(None).len();
    // Copies, in move strings: (col, row) through each symmetry of the standard start.
    let line = |k: usize, turn: Turn| -> String {
        let record = games[k].record.as_ref().unwrap();
        record
            .moves
            .iter()
            .filter_map(|m| match m.mv {
                reversi_engine::Move::Place(sq) => {
                    let (c, r) = turn(sq.col(), sq.row());
                    Some(format!("{}{}", (b'a' + c) as char, r + 1))
                }
                reversi_engine::Move::Pass => None,
            })
            .collect()
    };
    let turns: [Turn; 4] = [
        |c, r| (c, r),
        |c, r| (7 - c, 7 - r),
        |c, r| (r, c),
        |c, r| (7 - r, 7 - c),
    ];
    let mut text = String::new();
    for (k, turn) in turns.iter().enumerate() {
        text.push_str(&line(10 + k, *turn));
        text.push('\n');
    }
    let copies = Format::MoveString
        .read_bytes(text, &ReadOptions::default())
        .unwrap();
    archive.add_games("copies.txt", &copies);
    let findings = archive.check(None);
    assert_eq!(findings.len(), known + 4, "{findings:#?}");
    for (k, finding) in findings[known..].iter().enumerate() {
        assert_eq!(finding.code, Code::DuplicateGame);
        assert_eq!(finding.games[1].file, "copies.txt");
        assert_eq!(finding.games[1].game, k + 1);
        // Each names the archive's game it copies (the first of its kind there).
        assert_eq!(finding.games[0].file, "1990");
        let original = finding.games[0].game;
        assert_eq!(canonical(&games[original - 1]), canonical(&games[10 + k]));
    }
}

/// The canonical key of a game read in full.
fn canonical(game: &reversi_formats::ParsedGame) -> u64 {
    let record = game.record.as_ref().unwrap();
    let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
    reversi_check::event::MoveKey::of_moves(&record.rules, None, &moves).canonical
}

/// The command line's standings of the fixture event: the copies and re-entries are left
/// out and the result typos settled by the boards on their own; the player on two boards
/// refuses the standings, naming both games.
#[test]
fn standings_leave_out_copies_settle_typos_and_refuse_a_player_twice_in_a_round() {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["standings", "fixtures/event"])
        .current_dir(ROOT)
        .output()
        .expect("the binary runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{stderr}");
    assert!(
        stderr.contains(
            "error: Hiro Sato has two games in round 5: game 3 of fixtures/event/round5.json"
        ),
        "{stderr}"
    );
    assert!(stderr
        .contains("the record claims 24-40, the board gives 40-24: counted as the board gives"));
    assert_eq!(
        stderr.matches("left out: the same game as").count(),
        3,
        "{stderr}"
    );
    // The checks fixture without its player twice in a round ranks, the phone entry's
    // names spelt as the other sheets spell them.
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args([
            "standings",
            "-q",
            "--format",
            "csv",
            "fixtures/checks/round-1.rgn",
            "fixtures/checks/phone-round-1.rgn",
        ])
        .current_dir(ROOT)
        .output()
        .expect("the binary runs");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    for name in ["Ann", "Bob", "Cy", "Di", "Ed", "Flo"] {
        assert!(csv.contains(name), "{name}: {csv}");
    }
    assert!(!csv.contains("cy,") && !csv.contains("\"cy\""), "{csv}");
}

/// The quick scans of move strings, GGF, SGF and JSON gather the facts the full readers
/// give: real games written in each format (and a few dressed so that the scans give up).
#[test]
fn the_quick_scans_of_every_format_gather_the_facts_the_full_reader_gives() {
    let wthor = real("wthor/WTH_2004.wtb");
    let bytes = std::fs::read(&wthor).expect("the 2004 WTHOR file");
    let records: Vec<_> = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .expect("WTHOR records")
        .into_iter()
        .filter_map(|game| game.record)
        .take(2000)
        .collect();
    assert_eq!(records.len(), 2000);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut paths = Vec::new();
    for (name, target, dialect) in [
        ("games.txt", Format::MoveString, None),
        ("games.ggf", Format::Ggf, None),
        ("games.sgf", Format::Sgf, None),
        ("games.jsonl", Format::Json, Some("lines")),
        ("games.json", Format::Json, None),
    ] {
        let options = reversi_formats::WriteOptions {
            lossy: true,
            dialect: dialect.map(str::to_owned),
            ..Default::default()
        };
        let (mut text, _) = target.write_bytes(&records, &options).expect("written");
        // A komi, a flagged result and a variation: games the scans leave to the readers.
        let extra: &[u8] = match target {
            Format::Ggf => b"(;GM[Othello]PB[k]TY[8]KM[0.5]RE[+1.500]B[f5];)\n(;GM[Othello]PB[r]TY[8]RE[+64:r]B[f5];)\n",
            Format::Sgf => b"(;GM[2]PB[v];B[f5](;W[d6])(;W[f6]))\n",
            _ => b"",
        };
        text.extend_from_slice(extra);
        let path = dir.path().join(name);
        std::fs::write(&path, text).expect("a temporary file");
        paths.push(path);
    }
    let full = facts(&read_in_full(&paths));
    assert!(full.len() > 9000, "{} games", full.len());
    for jobs in [1, 2] {
        let quick = facts(&gathered(&paths, jobs));
        assert_eq!(quick.len(), full.len(), "jobs {jobs}");
        for (a, b) in quick.iter().zip(&full) {
            assert_eq!(a, b, "jobs {jobs}");
        }
    }
}

#[test]
fn standings_rank_each_event_on_its_own_board_and_one_bad_event_sinks_no_other() {
    // The Open on 8x8, its 10x10 side event under the same name, a Blitz, and a Rapid
    // whose sheets put Ed twice in round 1.
    let dir = tempfile::tempdir().unwrap();
    let game = |event: &str, rules: &str, black: &str, white: &str, result: &str| {
        let rules = match rules {
            "" => String::new(),
            r => format!("[Rules \"{r}\"]\n"),
        };
        format!("[Event \"{event}\"]\n{rules}[Round \"1\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n[Result \"{result}\"]\n\n")
    };
    let evening = [
        game("Open", "", "Ann", "Bob", "40-24"),
        game("Open", "", "Cid", "Dee", "30-34"),
        game("Open", "othello:10x10", "Bob", "Ann", "55-45"),
        game("Blitz", "", "Ann", "Cid", "1-0"),
    ]
    .concat();
    std::fs::write(dir.path().join("evening.rgn"), evening).unwrap();
    let rapid = [
        game("Rapid", "", "Ed", "Flo", "1-0"),
        game("Rapid", "", "Gus", "Ed", "0-1"),
    ]
    .concat();
    std::fs::write(dir.path().join("rapid.rgn"), rapid).unwrap();
    let folder = dir.path().to_str().unwrap().to_owned();
    let standings = |args: &[&str]| {
        let all: Vec<&str> = ["standings", "-q"]
            .iter()
            .chain(args)
            .chain([&folder.as_str()])
            .copied()
            .collect();
        reversi(&all)
    };
    let (code, text, errors) = standings(&[]);
    assert_eq!(code, Some(1), "{errors}");
    // Each table: its heading, an empty line, then its header row.
    let lines: Vec<&str> = text.lines().collect();
    let headings: Vec<&str> = lines
        .windows(3)
        .filter(|w| w[2].starts_with("# Rank"))
        .map(|w| w[0])
        .collect();
    assert_eq!(
        headings,
        ["Open (othello)", "Open (othello:10x10)", "Blitz"],
        "{text}"
    );
    assert!(
        errors.contains("error: Rapid: Ed has two games in round 1")
            && errors.contains("1 of 4 events have no standings"),
        "{errors}"
    );
    // One event by name; an unknown one is a usage error naming those there are.
    let (code, text, errors) = standings(&["--event", "blitz", "--format", "csv"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(text.lines().count(), 3, "{text}");
    assert!(text.starts_with("number,rank,player"), "{text}");
    let (code, _, errors) = standings(&["--event", "Marathon"]);
    assert_eq!(code, Some(2));
    assert!(errors.contains("\"Open (othello:10x10)\""), "{errors}");
    // Several events in one CSV: an `event` column, a table each.
    let (_, csv, _) = standings(&["--format", "csv"]);
    assert!(csv.starts_with("event,number,rank,player"), "{csv}");
    assert!(
        csv.contains("\nOpen (othello:10x10),1,1,Bob,1,55,55,"),
        "{csv}"
    );
}

#[test]
fn standings_take_byes_forfeits_and_withdrawals_from_a_french_pairings_file() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
                  [Round \"2\"]\n[Black \"Cid\"]\n[White \"Ann\"]\n[Result \"30-34\"]\n";
    std::fs::write(dir.path().join("sheets.rgn"), sheets).unwrap();
    let pairings = dir.path().join("appariements.csv");
    std::fs::write(
        &pairings,
        "ronde;table;noir;blanc;résultat\n1;1;Ann;Bob;\n1;;Cid;EXEMPT;\n2;1;Cid;Ann;\n2;2;Bob;;abandon\n",
    )
    .unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(["standings", "-q", "--format", "csv", "--pairings"])
        .arg(&pairings)
        .arg(dir.path().join("sheets.rgn"))
        .output()
        .expect("the binary runs");
    let csv = String::from_utf8_lossy(&out.stdout);
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    // Ann 2 wins; Cid a bye (32 + 6 x 1) and a loss (30 + 6 x 2); Bob withdrew after a
    // loss, so Ann's game against him counts 32 + 6 x 2 in her BQ: 44 + 34 + 6 x 1.
    let rows: Vec<&str> = csv.lines().skip(1).collect();
    assert_eq!(
        rows,
        [
            "1,1,Ann,2,84,74,2,2,0,0,0,1,1,no,3B 40-24,2W 34-30",
            "2,2,Cid,1,80,62,1,0,0,1,1,1,0,no,bye,1B 30-34",
            "3,3,Bob,0,36,24,1,0,0,1,0,0,1,yes,1W 24-40,-",
        ],
        "{csv}"
    );
}

/// Runs `reversi ARGS` in the repository; its exit code, standard output and error.
fn reversi(args: &[&str]) -> (Option<i32>, String, String) {
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(ROOT)
        .output()
        .expect("the binary runs");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn a_register_found_in_the_folder_makes_aliases_and_logins_one_player() {
    // fixtures/register/README.md: Dupont J. and jdupont are Jean Dupont, anna_m Anna
    // Müller, kdv Kees de Vries, Lucia Fernandez Lucía Fernández; Anna Mueller is unknown.
    let (code, csv, errors) = reversi(&["standings", "--format", "csv", "fixtures/register/"]);
    assert_eq!(code, Some(0), "{errors}");
    assert!(
        errors.contains("fixtures/register/players.csv: read as the player register"),
        "{errors}"
    );
    assert!(
        errors.contains("note: Anna Mueller is not in the player register: ranked as written (the nearest registered names: Anna Müller)"),
        "{errors}"
    );
    let players: Vec<(&str, &str)> = csv
        .lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            (f[2], f[3])
        })
        .collect();
    assert_eq!(
        players,
        [
            ("Jean Dupont", "2"),
            ("Lucía Fernández", "1"),
            ("Anna Mueller", "1"),
            ("Kees de Vries", "0"),
            ("Anna Müller", "0"),
        ]
    );
    let (_, json, _) = reversi(&["validate", "-q", "--format", "json", "fixtures/register/"]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let found = &report["summary"]["codes"];
    assert_eq!(found["unknown-player"], 1, "{found}");
    assert!(found.get("similar-names").is_none(), "{found}");
    // Given by hand, a register that lacks Lucía finds her too.
    let dir = tempfile::tempdir().unwrap();
    let partial = dir.path().join("players.csv");
    std::fs::write(&partial, "name;aliases\nJean Dupont;Dupont J.|jdupont\n").unwrap();
    let (_, json, _) = reversi(&[
        "validate",
        "-q",
        "--format",
        "json",
        "--players",
        partial.to_str().unwrap(),
        "fixtures/register/round-1.rgn",
        "fixtures/register/round-2.rgn",
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    // anna_m, Kees de Vries, Lucia Fernandez (Lucía Fernández is the same folded), Anna
    // Mueller, kdv.
    assert_eq!(report["summary"]["codes"]["unknown-player"], 5, "{json}");
}

#[test]
fn without_a_register_two_spellings_of_one_player_are_named_and_a_draft_gathers_them() {
    let (_, json, _) = reversi(&["validate", "-q", "--format", "json", "fixtures/names/"]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    assert_eq!(report["summary"]["codes"]["similar-names"], 2, "{json}");
    let (code, csv, errors) = reversi(&["players", "-q", "fixtures/names/"]);
    assert_eq!(code, Some(0), "{errors}");
    assert_eq!(
        csv,
        "number,name,aliases,logins,club,rating\n\
         1,Anna Müller,,,,\n\
         2,Jean Dupont,Dupont J.,,,\n\
         3,Kees de Vries,,,,\n\
         4,Lucía Fernández,,,,\n"
    );
    // The draft, used as the register, leaves no finding on names.
    let dir = tempfile::tempdir().unwrap();
    let register = dir.path().join("players.csv");
    std::fs::write(&register, &csv).unwrap();
    let (_, json, _) = reversi(&[
        "validate",
        "-q",
        "--format",
        "json",
        "--players",
        register.to_str().unwrap(),
        "fixtures/names/",
    ]);
    let report: serde_json::Value = serde_json::from_str(&json).unwrap();
    let codes = &report["summary"]["codes"];
    assert!(
        codes.get("similar-names").is_none() && codes.get("unknown-player").is_none(),
        "{codes}"
    );
}

#[test]
fn a_game_servers_file_gets_its_round_and_registered_names_in_one_command() {
    let dir = tempfile::tempdir().unwrap();
    // A GGS game between two logins, with no round.
    let ggf = "(;GM[Othello]PC[GGS/os]PB[jdupont]PW[anna_m]TY[8]RE[?]BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]B[f5]W[d6]B[c3];)\n";
    let input = dir.path().join("ggs.ggf");
    std::fs::write(&input, ggf).unwrap();
    let output = dir.path().join("round-3.rgn");
    let (code, _, errors) = reversi(&[
        "convert",
        input.to_str().unwrap(),
        "--to",
        "rgn",
        "--set",
        "Round=3",
        "--set",
        "Event=Club Cup",
        "--rename",
        "fixtures/register/players.csv",
        "-o",
        output.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0), "{errors}");
    let written = std::fs::read_to_string(&output).unwrap();
    let games = Format::Rgn
        .read_bytes(written.as_bytes(), &ReadOptions::default())
        .unwrap();
    let record = games[0].record.as_ref().unwrap();
    let tags = |names: &[&str]| -> Vec<Option<String>> {
        names
            .iter()
            .map(|n| record.tag(n).map(str::to_owned))
            .collect()
    };
    assert_eq!(
        tags(&["Round", "Event", "Black", "White"]),
        [
            Some("3".to_owned()),
            Some("Club Cup".to_owned()),
            Some("Jean Dupont".to_owned()),
            Some("Anna Müller".to_owned())
        ],
        "{written}"
    );
    let moves: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
    assert_eq!(moves, ["f5", "d6", "c3"]);
    // An `old,new` map does the same through repair; a result is never set over files.
    let map = dir.path().join("names.csv");
    std::fs::write(&map, "old;new\nJDUPONT;Jean Dupont\n").unwrap();
    let repaired = dir.path().join("repaired.rgn");
    let (code, _, errors) = reversi(&[
        "repair",
        input.to_str().unwrap(),
        "--to",
        "rgn",
        "--rename",
        map.to_str().unwrap(),
        "-o",
        repaired.to_str().unwrap(),
    ]);
    assert!(matches!(code, Some(0 | 1)), "{errors}");
    let written = std::fs::read_to_string(&repaired).unwrap();
    assert!(
        written.contains("[Black \"Jean Dupont\"]") && written.contains("[White \"anna_m\"]"),
        "{written}"
    );
    let (code, _, errors) = reversi(&[
        "convert",
        input.to_str().unwrap(),
        "--to",
        "rgn",
        "--set",
        "Result=1-0",
    ]);
    assert_eq!(code, Some(2));
    assert!(
        errors.contains("Result changes what the game means"),
        "{errors}"
    );
}

#[test]
fn a_table_or_a_record_file_that_cannot_be_read_is_an_error_not_a_skip() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(
        dir.path().join("round-1.rgn"),
        "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("notes.txt"), "Board 2 started late.\n").unwrap();
    std::fs::write(
        dir.path().join("pairings.csv"),
        "round,board,black,white\n1,1,Ann,Bob\n",
    )
    .unwrap();
    let folder = dir.path().to_str().unwrap().to_owned();
    let (code, _, errors) = reversi(&["validate", &folder]);
    assert_eq!(
        code,
        Some(0),
        "notes are skipped with a note, the pairings table read as the pairings: {errors}"
    );
    assert!(
        errors.contains("pairings.csv: read as the pairings"),
        "{errors}"
    );
    assert!(errors.contains("notes.txt: skipped"), "{errors}");
    // A spreadsheet of something else, and a .pgn that holds no game: read as their
    // extensions say, their errors named, and the exit code says so.
    std::fs::write(
        dir.path().join("scores.csv"),
        "name;points\nAnn;3\nBob;2\nCy;1\n",
    )
    .unwrap();
    std::fs::write(dir.path().join("round-2.pgn"), "see the paper sheet\n").unwrap();
    let (code, report, errors) = reversi(&["validate", &folder]);
    assert_eq!(code, Some(1), "{errors}");
    for name in [
        "scores.csv: 4 games: 0 valid, 4 invalid",
        "round-2.pgn: 1 game: 0 valid, 1 invalid",
    ] {
        assert!(report.contains(name), "{name}: {report}");
    }
}

#[test]
fn a_game_entered_under_the_wrong_round_is_linked_to_the_pairing_it_belongs_to() {
    let games = "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
                 [Round \"3\"]\n[Black \"Cy\"]\n[White \"Di\"]\n[Result \"30-34\"]\n";
    let schedule = Schedule::parse("round,board,black,white\n1,1,Ann,Bob\n2,1,Cy,Di\n").unwrap();
    let mut event = Event::default();
    event.add_games(
        "sheets.rgn",
        &Format::Rgn
            .read_bytes(games, &ReadOptions::default())
            .unwrap(),
    );
    let findings = event.check(Some(&schedule));
    let said: Vec<(String, String)> = findings
        .iter()
        .map(|f| (f.code.name().to_owned(), f.help.clone().unwrap_or_default()))
        .collect();
    assert_eq!(said.len(), 2, "{said:?}");
    assert_eq!(said[0].0, "unpaired-game");
    assert!(
        said[0].1.contains("line 3 of the pairings") && said[0].1.ends_with("should be 2"),
        "{said:?}"
    );
    assert_eq!(said[1].0, "missing-game");
    assert!(
        findings[1]
            .message
            .contains("has these players under round 3"),
        "{}",
        findings[1].message
    );
    assert_eq!(
        said[1].1,
        "that game's round is probably mistyped: its Round tag should be 2"
    );
}

#[test]
fn repair_of_a_spreadsheets_csv_writes_rgn_with_its_tags_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("round-2.csv");
    // A director's CSV (French header, `;`): the second game has two moves swapped.
    std::fs::write(
        &csv,
        "ronde;noir;blanc;coups\n2;Ann;Bob;f5d6c3d3c4f4f6f3e6e7\n2;Cy;Di;f5d6c3c4d3\n",
    )
    .unwrap();
    let (code, out, errors) = reversi(&["repair", csv.to_str().unwrap()]);
    assert!(matches!(code, Some(0 | 1)), "{errors}");
    assert!(
        errors.contains("so the repaired games are written as RGN"),
        "{errors}"
    );
    let games = Format::Rgn
        .read_bytes(out.as_bytes(), &ReadOptions::default())
        .unwrap();
    let players: Vec<(Option<&str>, Option<&str>)> = games
        .iter()
        .map(|g| {
            let r = g.record.as_ref().unwrap();
            (r.tag("Black"), r.tag("Round"))
        })
        .collect();
    assert_eq!(
        players,
        [(Some("Ann"), Some("2")), (Some("Cy"), Some("2"))],
        "{out}"
    );
}

#[test]
fn a_pairings_table_found_in_the_folder_is_the_events_pairings_as_on_the_desk() {
    let dir = tempfile::tempdir().unwrap();
    let sheets = "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
                  [Round \"2\"]\n[Black \"Cid\"]\n[White \"Ann\"]\n[Result \"30-34\"]\n";
    std::fs::write(dir.path().join("sheets.rgn"), sheets).unwrap();
    let pairings = dir.path().join("appariements.csv");
    std::fs::write(
        &pairings,
        "ronde;table;noir;blanc;résultat\n1;1;Ann;Bob;\n1;;Cid;EXEMPT;\n2;1;Cid;Ann;\n2;2;Bob;;abandon\n",
    )
    .unwrap();
    let folder = dir.path().to_str().unwrap().to_owned();
    let sheet = dir.path().join("sheets.rgn");
    let (code, named, _) = reversi(&[
        "standings",
        "-q",
        "--format",
        "json",
        "--pairings",
        pairings.to_str().unwrap(),
        sheet.to_str().unwrap(),
    ]);
    assert_eq!(code, Some(0));
    let (code, found, notes) = reversi(&["standings", "--format", "json", &folder]);
    assert_eq!(code, Some(0), "{notes}");
    assert!(
        notes.contains("appariements.csv: read as the pairings"),
        "{notes}"
    );
    assert_eq!(
        found, named,
        "the table found is read as --pairings reads it"
    );
    assert!(
        found.contains("\"bye\""),
        "Cid's bye comes from the table: {found}"
    );
    // A sheet without a board is on its pairing's table.
    let report: serde_json::Value = serde_json::from_str(&found).unwrap();
    let ann = &report["events"][0]["standings"]["players"][0];
    assert_eq!(ann["name"], "Ann");
    assert_eq!(ann["rounds"][0]["board"], "1", "{ann}");
    // A second table is left aside by name; --pairings chooses.
    std::fs::write(
        dir.path().join("zz-results.csv"),
        "round,board,black,white\n1,1,Bob,Ann\n",
    )
    .unwrap();
    let (code, again, notes) = reversi(&["standings", "--format", "json", &folder]);
    assert_eq!(code, Some(0), "{notes}");
    assert!(
        notes.contains("zz-results.csv: skipped, a second pairings or results table"),
        "{notes}"
    );
    assert_eq!(again, named);
    // A command without a use for it says it is not read.
    let out = dir.path().join("out.rgn");
    let (_, _, notes) = reversi(&[
        "convert",
        &folder,
        "--to",
        "rgn",
        "-o",
        out.to_str().unwrap(),
    ]);
    assert!(
        notes.contains("appariements.csv: skipped, a pairings or results table"),
        "{notes}"
    );
}

#[test]
fn set_goes_to_the_games_game_selects_and_no_other() {
    let dir = tempfile::tempdir().unwrap();
    let sheet = dir.path().join("round-5.rgn");
    let games: String = (1..=4)
        .map(|b| format!("[Round \"5\"]\n[Board \"{b}\"]\n[Black \"A{b}\"]\n[White \"B{b}\"]\n\nf5 d6 c3 *\n\n"))
        .collect();
    std::fs::write(&sheet, games).unwrap();
    let out = dir.path().join("out.rgn");
    for command in ["repair", "convert"] {
        let (code, _, errors) = reversi(&[
            command,
            sheet.to_str().unwrap(),
            "--game",
            "Board=2",
            "--set",
            "Round=4",
            "--to",
            "rgn",
            "-o",
            out.to_str().unwrap(),
        ]);
        assert_eq!(code, Some(0), "{command}: {errors}");
        let written = std::fs::read_to_string(&out).unwrap();
        let rounds: Vec<&str> = written
            .lines()
            .filter(|l| l.starts_with("[Round"))
            .collect();
        let expected: &[&str] = match command {
            // repair writes every game, the others as they were read.
            "repair" => &[
                "[Round \"5\"]",
                "[Round \"4\"]",
                "[Round \"5\"]",
                "[Round \"5\"]",
            ],
            // convert writes the games it selects.
            _ => &["[Round \"4\"]"],
        };
        assert_eq!(rounds, expected, "{command}: {written}");
        std::fs::remove_file(&out).unwrap();
    }
}
