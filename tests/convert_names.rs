//! A PGN tournament to WTHOR and back, through the binary: the names go to WTHOR.JOU and
//! WTHOR.TRN beside the output, names too long for their fields are cut (a named `--lossy`
//! loss, summed up once per file), existing name files are extended, never rewritten.

use std::path::Path;
use std::process::Command;

use assert_cmd::cargo::CommandCargoExt;

mod common;
use common::scratch;

const MOVES: &str = "1. c4 e3 2. f2 e2 3. f3 c3 4. c5 g4 5. e1 d1 6. f5 e6 7. g2 g1 8. h5 c6 9. b4
h1 10. f4 f1 11. e7 a5 12. g6 b3 13. b7 h4 14. c2 e8 15. f7 b2 16. a4 d7 17. g5
b5 18. g3 d6 19. a6 d2 20. a1 h3 21. d8 b6 22. c7 d3 23. f6 a2 24. a3 g7 25. h8
a7 26. b1 c8 27. a8 c1 28. b8 g8 29. f8 h6 30. h2 -- 31. h7";

/// A PGN game of the tournament `event` between `black` and `white`.
fn game(event: &str, black: &str, white: &str) -> String {
    format!(
        "[Event \"{event}\"]\n[Date \"2026\"]\n[Black \"{black}\"]\n[White \"{white}\"]\n[Result \"44-20\"]\n\n{MOVES}\n\n"
    )
}

/// Runs the binary: exit code, stdout, stderr.
fn reversi(args: &[&str]) -> (i32, String, String) {
    let out = Command::cargo_bin("reversi")
        .expect("the binary")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("reversi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// An event name too long for WTHOR.TRN (35 bytes; it holds 25).
const LONG_EVENT: &str = "Championnat du monde des clubs 2026";
/// A player name too long for WTHOR.JOU (26 bytes; it holds 19).
const LONG_PLAYER: &str = "Bartholomew Longname-Smith";

#[test]
fn a_pgn_tournament_converts_to_wthor_with_names_beside_it_and_back() {
    let dir = scratch("tournament");
    let pgn = dir.join("tournament.pgn");
    std::fs::write(
        &pgn,
        [
            game(LONG_EVENT, LONG_PLAYER, "Bob"),
            game(LONG_EVENT, "Bob", LONG_PLAYER),
            game(LONG_EVENT, "Cy", "Bob"),
        ]
        .concat(),
    )
    .unwrap();
    let wtb = dir.join("t.wtb");
    long_names_are_refused_then_cut_lossily(&dir, &pgn, &wtb);
    the_games_read_back_with_cut_names(&wtb);
    a_second_file_extends_the_name_files(&dir, &wtb);
    let leftovers: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .flatten()
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .filter(|n| n.starts_with(".tmp"))
        .collect();
    assert!(leftovers.is_empty(), "temporary files left: {leftovers:?}");
}

/// Names too long for WTHOR: refused without `--lossy`, saying `--lossy` helps, and no
/// name file written; with it, the names cut, each loss listed once for the file, and
/// the name files written beside the output.
fn long_names_are_refused_then_cut_lossily(dir: &Path, pgn: &Path, wtb: &Path) {
    let (code, _, stderr) = reversi(&["convert", "--to", "wthor", "-o", s(wtb), s(pgn)]);
    assert_eq!(code, 1, "{stderr}");
    assert!(
        stderr.contains("--lossy converts it without them"),
        "{stderr}"
    );
    assert!(
        !dir.join("WTHOR.JOU").exists(),
        "a refused run writes no names"
    );

    let (code, _, stderr) = reversi(&["convert", "--lossy", "--to", "wthor", "-o", s(wtb), s(pgn)]);
    assert_eq!(code, 0, "{stderr}");
    let cut_event = stderr
        .lines()
        .filter(|l| l.contains("the end of the tournament name"))
        .collect::<Vec<_>>();
    assert_eq!(cut_event.len(), 1, "{stderr}");
    assert!(cut_event[0].contains("(3 games: 1, 2, 3)"), "{stderr}");
    assert!(dir.join("WTHOR.JOU").exists() && dir.join("WTHOR.TRN").exists());
}

/// Back: the same moves and results, the names cut at the field size.
fn the_games_read_back_with_cut_names(wtb: &Path) {
    let (code, rgn, stderr) = reversi(&["convert", "-q", "--to", "rgn", s(wtb)]);
    assert_eq!(code, 0, "{stderr}");
    assert_eq!(rgn.matches("[Result \"44-20\"]").count(), 3, "{rgn}");
    assert_eq!(rgn.matches("30. h2 -- 31. h7").count(), 3, "{rgn}");
    assert!(
        rgn.contains(&format!("[Event \"{}\"]", &LONG_EVENT[..25])),
        "{rgn}"
    );
    assert!(
        rgn.contains(&format!("[Black \"{}\"]", &LONG_PLAYER[..19])),
        "{rgn}"
    );
    assert!(rgn.contains("[White \"Bob\"]"));
}

/// A second file beside the first (`wtb`): the name files are extended, the names there
/// keep their index and their bytes, new names are appended, and both files read their
/// names.
fn a_second_file_extends_the_name_files(dir: &Path, wtb: &Path) {
    let jou_before = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    let pgn2 = dir.join("more.pgn");
    std::fs::write(&pgn2, game("Club", "Dee", "Bob")).unwrap();
    let wtb2 = dir.join("more.wtb");
    let (code, _, stderr) = reversi(&["convert", "--to", "wthor", "-o", s(&wtb2), s(&pgn2)]);
    assert_eq!(code, 0, "{stderr}");
    let jou_after = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    assert_eq!(
        jou_after.len(),
        jou_before.len() + 20,
        "one new player (Dee)"
    );
    assert_eq!(
        &jou_after[16..],
        &[
            &jou_before[16..],
            b"Dee\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0\0".as_slice()
        ]
        .concat()[..],
        "existing records untouched, the new one appended"
    );
    let (_, rgn, _) = reversi(&["convert", "-q", "--to", "rgn", s(wtb)]);
    assert!(
        rgn.contains(&format!("[Black \"{}\"]", &LONG_PLAYER[..19])),
        "the first file still reads its names: {rgn}"
    );
    let (_, rgn2, _) = reversi(&["convert", "-q", "--to", "rgn", s(&wtb2)]);
    assert!(
        rgn2.contains("[Black \"Dee\"]") && rgn2.contains("[White \"Bob\"]"),
        "{rgn2}"
    );
}
