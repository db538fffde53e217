//! `convert --dedupe`: each game written once, the copy with the most information kept,
//! against an independent count of the distinct games of real files.

mod common;

use std::collections::HashSet;
use std::path::Path;

use common::child::{path_str, run};
use reversi_formats::record::{fold_name, Record};
use reversi_formats::{Format, ReadOptions};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

fn records(path: &Path) -> Vec<Record> {
    let bytes = std::fs::read(path).unwrap();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let format = Format::sniff(&reversi_formats::Sniff {
        head: &bytes[..bytes.len().min(4096)],
        len: Some(bytes.len() as u64),
    })
    .or_else(|| Format::from_extension(ext))
    .expect("a known format");
    let options = ReadOptions {
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    format
        .read_bytes(bytes, &options)
        .unwrap()
        .into_iter()
        .filter_map(|g| g.record)
        .collect()
}

/// A game as the oracle tells games apart: its placements as written (passes are written
/// by some formats, not others) and its players.
fn identity(r: &Record) -> (String, String, String) {
    let moves: Vec<String> = r
        .moves
        .iter()
        .filter(|m| m.mv != reversi_engine::Move::Pass)
        .map(|m| m.mv.to_string())
        .collect();
    let name = |tag: &str| r.tag(tag).map(fold_name).unwrap_or_default();
    (moves.join(""), name("Black"), name("White"))
}

#[test]
fn the_archive_with_its_pgn_copies_gives_each_game_once() {
    let wthor = Path::new(DATA).join("wthor/WTH_2004.wtb");
    let pgn = Path::new(DATA).join("pgn/WTHOR-2004.r.pgn");
    let mut distinct = HashSet::new();
    let mut read = 0;
    for path in [&wthor, &pgn] {
        for r in records(path) {
            read += 1;
            distinct.insert(identity(&r));
        }
    }
    assert!(
        read > distinct.len() * 2 - 50,
        "the PGN copies the WTHOR year"
    );
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("once.rgn");
    let r = run(&[
        "convert",
        "--dedupe",
        "--to",
        "rgn",
        "-o",
        path_str(&out),
        path_str(&wthor),
        path_str(&pgn),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let written = records(&out);
    let kept: HashSet<_> = written.iter().map(identity).collect();
    assert_eq!(written.len(), distinct.len(), "each game once");
    assert_eq!(kept.len(), distinct.len(), "no game twice");
    let lost = distinct.difference(&kept).count();
    assert_eq!(lost, 0, "no game lost");
    let left_out = r.stderr.matches("note: left out: ").count();
    assert_eq!(left_out, read - distinct.len(), "{}", r.stderr);
    assert!(
        r.stderr.contains(&format!("({left_out} copies left out)")),
        "{}",
        r.stderr
    );
    // On a tie the first input's copy is kept: every game written is WTHOR's.
    assert!(written.iter().all(|g| g.tag("WthorTournament").is_some()));
}

#[test]
fn the_copy_with_the_most_information_is_kept_and_turned_copies_only_when_asked() {
    let dir = tempfile::tempdir().unwrap();
    let moves = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7";
    // The same game rotated half a turn (f5 becomes c4), as a phone app might enter it.
    let turned = "c4 e3 f6 e6 f5 c5 c3 c6 d3 d2";
    std::fs::write(
        dir.path().join("bare.txt"),
        format!("{}\n", moves.replace(' ', "")),
    )
    .unwrap();
    std::fs::write(
        dir.path().join("sheet.rgn"),
        format!("[Round \"2\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n\n{moves} *\n\n[Black \"Ann\"]\n[White \"Bob\"]\n\n{turned} *\n\n[Black \"Cy\"]\n[White \"Di\"]\n\n{moves} *\n"),
    )
    .unwrap();
    let inputs = [dir.path().join("bare.txt"), dir.path().join("sheet.rgn")];
    let out = dir.path().join("out.rgn");
    let convert = |copies: &str| {
        let mut args = vec!["convert", copies, "--to", "rgn", "-o", path_str(&out)];
        args.extend(inputs.iter().map(|p| path_str(p)));
        let r = run(&args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        (records(&out), r.stderr)
    };
    // Exact: the bare copy goes (the sheet names the players); Cy v Di is another game.
    let (written, notes) = convert("--dedupe");
    assert_eq!(written.len(), 3, "{notes}");
    assert!(
        notes.contains("game 1 of ") && notes.contains("bare.txt is a copy of game 1 of "),
        "{notes}"
    );
    assert!(notes.contains("kept: it names its players"), "{notes}");
    // Symmetric: the turned copy goes too, and the note says how it was turned.
    let (written, notes) = convert("--dedupe=symmetric");
    assert_eq!(written.len(), 2, "{notes}");
    assert!(notes.contains("its moves "), "{notes}");
    let players: Vec<_> = written
        .iter()
        .map(|r| r.tag("Black").unwrap_or("?"))
        .collect();
    assert_eq!(players, ["Ann", "Cy"]);
    assert_eq!(
        written[0].tag("Round"),
        Some("2"),
        "the copy with its round"
    );
    // Standard input cannot be read twice.
    let r = run(&["convert", "--dedupe", "--to", "rgn", "-"]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("standard input"), "{}", r.stderr);
}

/// The archive as RGN with its PGN copies, split back into WTHOR year files: the same
/// files, byte for byte, for either order of the inputs, and the originals; a PGN copy
/// read first (it states no theoretical depth) no longer makes the year's WTHOR games
/// refused; a target folder without name files is a warning that says what changes.
#[test]
fn splitting_the_archive_by_year_does_not_depend_on_the_order_of_the_inputs() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = Path::new(DATA).join("wthor");
    let mut rgn = Vec::new();
    for year in ["1990", "2004"] {
        let out = dir.path().join(format!("{year}.rgn"));
        let wtb = wthor.join(format!("WTH_{year}.wtb"));
        let r = run(&[
            "convert",
            "-q",
            path_str(&wtb),
            "--to",
            "rgn",
            "-o",
            path_str(&out),
        ]);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        rgn.push(out);
    }
    let pgn = Path::new(DATA).join("pgn/WTHOR-2004.r.pgn");
    let orders = [
        vec![rgn[0].clone(), rgn[1].clone(), pgn.clone()],
        vec![pgn.clone(), rgn[1].clone(), rgn[0].clone()],
    ];
    let mut outputs = Vec::new();
    for (k, order) in orders.iter().enumerate() {
        let target = dir.path().join(format!("order-{k}"));
        std::fs::create_dir(&target).unwrap();
        for name in ["WTHOR.JOU", "WTHOR.TRN"] {
            std::fs::copy(wthor.join(name), target.join(name)).unwrap();
        }
        let template = target.join("WTH_{year}.wtb");
        let mut args = vec![
            "convert",
            "-q",
            "--dedupe",
            "--to",
            "wthor",
            "-o",
            path_str(&template),
        ];
        args.extend(order.iter().map(|p| path_str(p)));
        let r = run(&args);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert_eq!(r.stderr, "", "quiet, nothing refused");
        outputs.push(target);
    }
    for year in ["1990", "2004"] {
        let name = format!("WTH_{year}.wtb");
        let original = std::fs::read(wthor.join(&name)).unwrap();
        for target in &outputs {
            let written = std::fs::read(target.join(&name)).unwrap();
            assert!(
                written == original,
                "{}: not the original",
                target.join(&name).display()
            );
        }
    }
    // Without dedupe, the copy first: every WTHOR game is still taken.
    let both = dir.path().join("both.wtb");
    std::fs::copy(wthor.join("WTHOR.JOU"), dir.path().join("WTHOR.JOU")).unwrap();
    std::fs::copy(wthor.join("WTHOR.TRN"), dir.path().join("WTHOR.TRN")).unwrap();
    let r = run(&[
        "convert",
        "-q",
        path_str(&pgn),
        path_str(&rgn[1]),
        "--to",
        "wthor",
        "-o",
        path_str(&both),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let games = records(&both).len();
    assert_eq!(
        games,
        2 * records(&pgn).len(),
        "the copies and the originals"
    );
    // No name files in the target folder: said, even quietly.
    let bare = dir.path().join("bare");
    std::fs::create_dir(&bare).unwrap();
    let r = run(&[
        "convert",
        "-q",
        path_str(&rgn[0]),
        "--to",
        "wthor",
        "-o",
        path_str(&bare.join("WTH_1990.wtb")),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("had no WTHOR.JOU and WTHOR.TRN")
            && r.stderr.contains("numbered from scratch"),
        "{}",
        r.stderr
    );
}

/// A year's header settings are decided from all its games: two inputs of one year that
/// state different theoretical depths and creation dates merge into the same file in
/// either order, with the depth most games state and the latest date; the games stating
/// the other depth are refused in either order (a `--lossy` loss when asked).
#[test]
fn a_years_depth_and_date_come_from_all_its_games_in_any_order() {
    let dir = tempfile::tempdir().unwrap();
    let wthor = Path::new(DATA).join("wthor");
    let r = run(&[
        "convert",
        "-q",
        path_str(&wthor.join("WTH_1990.wtb")),
        "--to",
        "rgn",
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let text = String::from_utf8(r.stdout).unwrap();
    let games: Vec<&str> = text.split("\n\n[Event").collect();
    assert!(games.len() > 60, "{} games", games.len());
    let game = |i: usize| match i {
        0 => games[0].to_string(),
        _ => format!("[Event{}", games[i]),
    };
    // 30 games as the year file states them; 20 others restated at depth 20, created later.
    let many: String = (0..30).map(|i| game(i) + "\n\n").collect();
    let few: String = (30..50)
        .map(|i| {
            let g = game(i);
            assert!(g.contains("[TheoreticalDepth \"24\"]"), "{g}");
            g.replace("[TheoreticalDepth \"24\"]", "[TheoreticalDepth \"20\"]")
                .replace("[WthorDepth \"24\"]", "[WthorDepth \"20\"]")
                .replace(
                    "[WthorCreated \"2006-07-12\"]",
                    "[WthorCreated \"2007-01-02\"]",
                )
                + "\n\n"
        })
        .collect();
    let many_path = dir.path().join("many.rgn");
    let few_path = dir.path().join("few.rgn");
    std::fs::write(&many_path, many).unwrap();
    std::fs::write(&few_path, few).unwrap();
    let merged = |order: [&Path; 2], lossy: bool, k: usize| {
        let out = dir.path().join(format!("merged-{k}"));
        std::fs::create_dir(&out).unwrap();
        for name in ["WTHOR.JOU", "WTHOR.TRN"] {
            std::fs::copy(wthor.join(name), out.join(name)).unwrap();
        }
        let file = out.join("WTH_1990.wtb");
        let mut args = vec!["convert", "-q", "--to", "wthor", "-o", path_str(&file)];
        if lossy {
            args.push("--lossy");
        }
        args.extend(order.iter().map(|p| path_str(p)));
        let r = run(&args);
        (r, std::fs::read(&file).unwrap_or_default())
    };
    let (strict_a, bytes_a) = merged([&many_path, &few_path], false, 0);
    let (strict_b, bytes_b) = merged([&few_path, &many_path], false, 1);
    for r in [&strict_a, &strict_b] {
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        assert!(
            r.stderr.contains(
                "few.rgn: wthor cannot hold a theoretical depth of 20 empties (this file's is 24)"
            ),
            "{}",
            r.stderr
        );
        assert!(
            r.stderr
                .contains("converted 30 games to wthor; 20 not converted"),
            "{}",
            r.stderr
        );
    }
    assert_eq!(bytes_a, bytes_b, "the same file in either order");
    let header = &bytes_a[..16];
    let records = u32::from_le_bytes([header[4], header[5], header[6], header[7]]);
    assert_eq!(records, 30, "the games at the year's depth");
    assert_eq!(header[14], 24, "P3: the depth most games state");
    assert_eq!(
        (header[0], header[1], header[2], header[3]),
        (20, 7, 1, 2),
        "the latest creation date stated"
    );
    let (lossy_a, bytes_a) = merged([&many_path, &few_path], true, 2);
    let (lossy_b, bytes_b) = merged([&few_path, &many_path], true, 3);
    for r in [&lossy_a, &lossy_b] {
        assert_eq!(r.code, Some(0), "{}", r.stderr);
    }
    // The games in input order, each file's header the same.
    assert_eq!(bytes_a[..16], bytes_b[..16]);
    let sorted = |bytes: &[u8]| {
        let mut records: Vec<&[u8]> = bytes[16..].chunks(68).collect();
        records.sort();
        records.concat()
    };
    assert_eq!(bytes_a.len(), 16 + 50 * 68);
    assert_eq!(sorted(&bytes_a), sorted(&bytes_b));
}
