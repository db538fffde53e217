//! The replay validator against fixtures (one small file per code and per variant rule,
//! every rendered diagnostic snapshotted), against every real game file (no errors), and
//! against corrupted copies of real games (each corruption caught with the right code at
//! the right ply and move, with the single-change suggestion the repair search gives).

mod common;

use std::collections::BTreeSet;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;

use common::Rng;
use reversi_check::repair::{repair_record, RepairOptions, Status};
use reversi_check::validate::{validate_game, validate_record, GameReport};
use reversi_engine::{Move, Position, Square, SquareSet};
use reversi_formats::codes::CODES;
use reversi_formats::diagnostic::{render_plain, Diagnostic, Renderer, Severity};
use reversi_formats::record::{FlipClaim, MoveRecord, Record, ResultScore};
use reversi_formats::{Format, ParsedGame, ReadOptions};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

/// Every game of the file at `path`, read as its extension says.
fn read_file(path: &Path) -> Vec<ParsedGame> {
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let format = Format::from_extension(ext).expect("a known extension");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let options = ReadOptions {
        name: Arc::from(name.as_str()),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    let input = Box::new(BufReader::new(File::open(path).unwrap()));
    format
        .read(input, &options)
        .map(|g| g.expect("fixtures and data files are readable"))
        .collect()
}

/// The validator's code names, from `CODES`.
fn code_names() -> BTreeSet<&'static str> {
    CODES
        .iter()
        .filter(|(code, _, _)| code.is_validator())
        .map(|(_, name, _)| *name)
        .collect()
}

/// What every validator diagnostic must carry (a span when the record's moves have them:
/// corrupted copies add moves without one).
fn check_shape(d: &Diagnostic, game: usize, record: &Record) {
    assert_eq!(d.game, Some(game), "{d:?}");
    assert!(
        code_names().contains(d.code.name()),
        "unknown code {}",
        d.code.name()
    );
    assert!(d.label.is_some(), "no label: {d:?}");
    if record.moves.iter().all(|m| m.span.is_some()) {
        assert!(d.span.is_some(), "no span: {d:?}");
    }
    assert!(d.help.is_some(), "no help: {d:?}");
    if d.code.name() != "bad-setup" {
        assert!(d.ply.is_some(), "no ply: {d:?}");
    }
    if let Some(n) = d.move_number {
        assert!(n >= 1 && n <= record.moves.len(), "move {n} out of range");
    }
    // `*` on a game that is over is a warning: the result is missing, not wrong.
    let star = d.code.name() == "wrong-result" && d.message.contains("`*`");
    let severity = if d.code.name() == "unfinished" || star {
        Severity::Warning
    } else {
        Severity::Error
    };
    assert_eq!(d.severity, severity, "{d:?}");
    if matches!(d.code.name(), "illegal-move" | "illegal-pass") {
        assert!(d.board.is_some(), "an illegal move draws the board");
        let rest = record.moves.len() - d.move_number.unwrap();
        assert_eq!(
            d.related
                .iter()
                .filter(|l| l.text.contains("cannot be replayed"))
                .count(),
            usize::from(rest > 0),
            "the rest of the game is said to be skipped once: {d:?}"
        );
    }
}

/// One line per game: what the replay reached and which codes it found.
fn summary(game: &ParsedGame, report: Option<&GameReport>) -> String {
    let reader: Vec<&str> = game.diagnostics.iter().map(|d| d.code.name()).collect();
    let Some(report) = report else {
        return format!("game {}: not read ({})\n", game.index, reader.join(", "));
    };
    let end = match (&report.outcome, &report.position) {
        (Some(o), _) => {
            let players = game.record.as_ref().unwrap().rules.players() as usize;
            let score: Vec<String> = o.score[..players].iter().map(|s| s.to_string()).collect();
            format!("over, {}", score.join("-"))
        }
        (None, Some(p)) if p.is_over() => "stopped at the end".to_string(),
        (None, Some(_)) => "not over".to_string(),
        (None, None) => "no start position".to_string(),
    };
    let codes: Vec<String> = report
        .diagnostics
        .iter()
        .map(|d| match d.move_number {
            Some(m) => format!("{} (ply {}, move {m})", d.code.name(), d.ply.unwrap_or(0)),
            None => d.code.to_string(),
        })
        .collect();
    let count = |n: usize, what: &str| format!("{n} {what}{}", if n == 1 { "" } else { "s" });
    format!(
        "game {}: {}, {end}; {}, {}{}{}\n",
        game.index,
        count(report.plies, "ply").replace("plys", "plies"),
        count(report.errors(), "error"),
        count(report.diagnostics.len() - report.errors(), "warning"),
        if codes.is_empty() { "" } else { ": " },
        codes.join(", ")
    )
}

#[test]
fn fixtures() {
    let mut produced = BTreeSet::new();
    insta::glob!("../fixtures/validate", "*.*", |path| {
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let games = read_file(path);
        assert!(!games.is_empty());
        let mut summaries = String::new();
        let mut rendered = String::new();
        let mut codes = BTreeSet::new();
        let mut renderer = Renderer::plain();
        for game in &games {
            for d in validate_game(game, &[] as &[&str]) {
                codes.insert(d.code.name());
                rendered.push_str(&renderer.render(&d, &game.source));
                rendered.push('\n');
            }
            let report = game.record.as_ref().map(|r| validate_record(r, game.index));
            if let (Some(record), Some(report)) = (&game.record, &report) {
                for d in &report.diagnostics {
                    check_shape(d, game.index, record);
                }
            }
            summaries.push_str(&summary(game, report.as_ref()));
        }
        if file.starts_with("clean-") {
            assert!(codes.is_empty(), "{file} is clean, but gives {codes:?}");
        } else if file != "several-games.rgn" {
            // The file name starts with the code it plants.
            let planted = code_names()
                .into_iter()
                .filter(|c| {
                    file.starts_with(&format!("{c}-")) || file.starts_with(&format!("{c}."))
                })
                .max_by_key(|c| c.len())
                .unwrap_or_else(|| panic!("{file} names no code"));
            assert!(codes.contains(planted), "{file} does not give {planted}");
        }
        produced.extend(codes);
        insta::assert_snapshot!(format!("{summaries}\n{rendered}"));
    });
    for name in code_names() {
        assert!(produced.contains(name), "no fixture produces {name}");
    }
}

#[test]
fn several_games_in_one_file_are_reported_separately() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/validate/several-games.rgn");
    let games = read_file(&path);
    let found: Vec<Vec<&str>> = games
        .iter()
        .map(|g| {
            validate_game(g, &[] as &[&str])
                .iter()
                .map(|d| d.code.name())
                .collect::<Vec<_>>()
        })
        .collect();
    assert_eq!(
        found,
        vec![
            vec![],
            vec!["illegal-move"],
            vec!["syntax-unterminated-tag"],
            vec!["wrong-result"],
            vec!["unfinished"],
            vec![],
        ]
    );
}

// ---- Real data -------------------------------------------------------------------------

/// The 16 real record files of `data/` (see `data/SOURCES.md`); a missing folder fails
/// the test.
fn real_files() -> Vec<std::path::PathBuf> {
    let mut files = Vec::new();
    for dir in ["wthor", "pgn", "ggf", "obf", "movestrings"] {
        let entries = std::fs::read_dir(Path::new(DATA).join(dir)).unwrap_or_else(|e| {
            panic!("{DATA}/{dir}: {e}: the real data is part of the repository (data/SOURCES.md)")
        });
        for e in entries {
            let path = e.unwrap().path();
            let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
            if Format::from_extension(ext).is_some() {
                files.push(path);
            }
        }
    }
    files.sort();
    assert_eq!(files.len(), 16, "the record files of {DATA}: {files:#?}");
    files
}

#[test]
fn every_real_game_validates_without_errors() {
    let files = real_files();
    for path in files {
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let games = read_file(&path);
        assert!(!games.is_empty(), "{name}");
        let mut unfinished = 0;
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{name} game {}", g.index);
            let record = g.record.as_ref().unwrap();
            let report = validate_record(record, g.index);
            for d in &report.diagnostics {
                assert_eq!(
                    d.code.name(),
                    "unfinished",
                    "{name}: {}",
                    render_plain(d, &g.source)
                );
                assert_eq!(d.severity, Severity::Warning);
                unfinished += 1;
            }
        }
        let expected = match name.as_str() {
            "WTH_1990.wtb" => 21,
            // Opening lines, not games.
            "nboard_xot-large.txt" => games.len(),
            _ => 0,
        };
        assert_eq!(unfinished, expected, "unfinished games in {name}");
    }
}

/// What the validator must report for `record`, worked out by a plain replay: `(code, move,
/// ply)` for every error and warning, in order.
fn expected_findings(record: &Record) -> Vec<(&'static str, Option<usize>, usize)> {
    let mut found = Vec::new();
    let mut pos = Position::new(record.rules);
    let explicit = record.moves.iter().any(|m| m.mv == Move::Pass);
    let mut ply = 0;
    for (i, m) in record.moves.iter().enumerate() {
        let number = i + 1;
        if pos.is_over() {
            found.push(("moves-after-end", Some(number), ply + 1));
            return found;
        }
        if m.mv != Move::Pass && pos.must_pass() {
            ply += 1;
            if explicit {
                found.push(("missing-pass", Some(number), ply));
            }
            pos.play(Move::Pass).unwrap();
        }
        ply += 1;
        let flipped = match pos.play_with_flips(m.mv) {
            Ok(f) => f,
            Err(_) => {
                let code = if m.mv == Move::Pass {
                    "illegal-pass"
                } else {
                    "illegal-move"
                };
                found.push((code, Some(number), ply));
                return found;
            }
        };
        if let Some(claim) = &m.flips {
            if claim.squares.is_some_and(|s| s != flipped) {
                found.push(("wrong-flips", Some(number), ply));
            }
        }
    }
    let last = (!record.moves.is_empty()).then_some(record.moves.len());
    match pos.outcome() {
        None => found.push(("unfinished", last, ply)),
        Some(o) => {
            if let Some(ResultScore::Discs(counts)) = record.result.as_ref().map(|r| &r.score) {
                if counts.as_slice() != &o.score[..2] {
                    found.push(("wrong-result", last, ply));
                }
            }
        }
    }
    found
}

fn findings(report: &GameReport) -> Vec<(&'static str, Option<usize>, usize)> {
    report
        .diagnostics
        .iter()
        .map(|d| (d.code.name(), d.move_number, d.ply.unwrap_or(0)))
        .collect()
}

/// Whether every move of `moves` is legal from the start of `record`, passes inferred.
fn replays(record: &Record, moves: &[Move]) -> bool {
    let mut pos = Position::new(record.rules);
    moves.iter().all(|&mv| {
        if mv != Move::Pass && pos.must_pass() && pos.play(Move::Pass).is_err() {
            return false;
        }
        pos.play(mv).is_ok()
    })
}

/// The single-change help the validator owes for an illegal move: what the repair search
/// with one edit finds (`reversi repair --max-edits 1`), so the two never disagree. A
/// unique best change is named; a tie lists the alternatives; none names no fix (or one that
/// makes the moves legal but not the claimed result).
fn check_fix(record: &Record, help: &str, what: &str) {
    let repair = repair_record(
        record,
        &RepairOptions {
            max_edits: 1,
            ..RepairOptions::default()
        },
    );
    let claims = record.result.as_ref().is_some_and(|c| !c.score.is_none());
    match repair.status {
        Status::Repaired => {
            let fixed = repair.record.as_ref().unwrap();
            assert_eq!(
                validate_record(fixed, 1).errors(),
                0,
                "{what}: the fix validates"
            );
            let tail = if claims {
                " makes the game legal and gives the claimed result; "
            } else {
                " makes the game legal; "
            };
            let fix = format!("{}{tail}", repair.edits[0].suggestion());
            assert!(help.starts_with(&fix), "{what}: {help} (expected {fix})");
        }
        Status::Ambiguous => assert!(help.starts_with("any "), "{what}: {help}"),
        _ => assert!(!help.contains("makes the game legal"), "{what}: {help}"),
    }
}

/// Checks the validator on a corrupted `record`: the findings a plain replay predicts, at
/// the same moves and plies, and the suggestion on an illegal move.
fn check_corrupted(record: &Record, what: &str) -> Vec<(&'static str, Option<usize>, usize)> {
    let report = validate_record(record, 1);
    let got = findings(&report);
    let expected = expected_findings(record);
    assert_eq!(got, expected, "{what}");
    for d in &report.diagnostics {
        check_shape(d, 1, record);
    }
    if let Some(d) = report
        .diagnostics
        .iter()
        .find(|d| matches!(d.code.name(), "illegal-move" | "illegal-pass"))
    {
        check_fix(record, d.help.as_deref().unwrap(), what);
    }
    got
}

/// The discs each written move flips, passes inferred (`None` for a pass).
fn real_flips(record: &Record) -> Vec<Option<SquareSet>> {
    let mut pos = Position::new(record.rules);
    record
        .moves
        .iter()
        .map(|m| {
            if m.mv != Move::Pass && pos.must_pass() {
                pos.play(Move::Pass).unwrap();
            }
            let flipped = pos.play_with_flips(m.mv).unwrap();
            (m.mv != Move::Pass).then_some(flipped)
        })
        .collect()
}

/// Tallies of what the corruptions led to, to show the sample covers every case.
#[derive(Default, Debug)]
struct Tally {
    games: usize,
    changed_illegal_at_once: usize,
    changed_legal_fails_later: usize,
    changed_legal_wrong_result: usize,
    changed_legal_unfinished: usize,
    changed_legal_same_result: usize,
    swap_suggested: usize,
    square_suggested: usize,
}

/// Checks that `record` is a finished, valid game, then corrupts it in each of the ways
/// below in turn (drawing from `rng` in this order, so that a seed gives the same sample)
/// and checks what validation finds.
fn corrupt_game(record: &Record, rng: &mut Rng, tally: &mut Tally) {
    assert!(findings(&validate_record(record, 1)).is_empty());
    let finished = replays(
        record,
        &record.moves.iter().map(|m| m.mv).collect::<Vec<_>>(),
    ) && expected_findings(record).is_empty();
    assert!(finished, "the sample holds finished, valid games");
    tally.games += 1;
    let squares: Vec<Square> = record.rules.playable().iter().collect();
    change_a_square(record, rng, &squares, tally);
    change_a_late_move_and_play_out(record, rng, tally);
    swap_two_moves(record, rng, tally);
    change_the_score(record, rng);
    add_then_alter_a_flip_claim(record, rng, &squares);
    insert_a_pass(record, rng);
    append_a_move(record, rng, &squares);
}

/// The position before the 0-based move `i` of `record` (passes the record leaves out
/// played), and the plies played to reach it.
fn position_before(record: &Record, i: usize) -> (Position, usize) {
    let mut pos = Position::new(record.rules);
    let mut ply = 0;
    for m in &record.moves[..i] {
        if m.mv != Move::Pass && pos.must_pass() {
            pos.play(Move::Pass).unwrap();
            ply += 1;
        }
        pos.play(m.mv).unwrap();
        ply += 1;
    }
    (pos, ply)
}

/// A move changed to another square: illegal at once, or caught later, or at the result;
/// when illegal at once, some single change is suggested (counted when it is the real
/// square).
fn change_a_square(record: &Record, rng: &mut Rng, squares: &[Square], tally: &mut Tally) {
    let i = rng.below(record.moves.len());
    let mut sq = *rng.pick(squares);
    while Move::Place(sq) == record.moves[i].mv {
        sq = *rng.pick(squares);
    }
    let mut changed = record.clone();
    changed.moves[i].mv = Move::Place(sq);
    let got = check_corrupted(&changed, &format!("move {} changed to {sq}", i + 1));
    match got.first() {
        Some(("illegal-move", Some(m), _)) if *m == i + 1 => tally.changed_illegal_at_once += 1,
        Some(("illegal-move" | "moves-after-end", Some(m), _)) => {
            assert!(*m > i + 1);
            tally.changed_legal_fails_later += 1;
        }
        Some(("wrong-result", ..)) => tally.changed_legal_wrong_result += 1,
        Some(("unfinished", ..)) => tally.changed_legal_unfinished += 1,
        None => tally.changed_legal_same_result += 1,
        other => panic!("unexpected {other:?} after changing move {}", i + 1),
    }
    if got.first() == Some(&("illegal-move", Some(i + 1), got[0].2)) {
        let report = validate_record(&changed, 1);
        let help = report.diagnostics[0].help.as_deref().unwrap();
        // The real square makes the game legal again, so some single change is named.
        assert!(help.contains(" makes the game legal"), "{help}");
        let fix = format!(
            "{} instead of {sq} at move {} makes the game legal",
            record.moves[i].mv,
            i + 1
        );
        if help.starts_with(&fix) {
            tally.square_suggested += 1;
        }
    }
}

/// A late move changed to another legal square and the game played out from there: every
/// move is legal, so it is caught at the result (or not at all, when the score happens to
/// be the same).
fn change_a_late_move_and_play_out(record: &Record, rng: &mut Rng, tally: &mut Tally) {
    let i = record.moves.len().saturating_sub(1 + rng.below(10));
    let (mut pos, _) = position_before(record, i);
    if pos.must_pass() {
        pos.play(Move::Pass).unwrap();
    }
    let others: Vec<Square> = pos
        .legal_moves()
        .iter()
        .filter(|&s| Move::Place(s) != record.moves[i].mv)
        .collect();
    if others.is_empty() {
        return;
    }
    let mut changed = record.clone();
    changed.moves.truncate(i);
    let mut mv = Move::Place(*rng.pick(&others));
    loop {
        pos.play(mv).unwrap();
        changed.moves.push(MoveRecord::new(mv));
        if pos.must_pass() {
            pos.play(Move::Pass).unwrap();
        }
        let Some(next) = pos.legal_moves().first() else {
            break;
        };
        mv = Move::Place(next);
    }
    let last = changed.moves.len();
    match check_corrupted(
        &changed,
        &format!("move {} changed, then played out", i + 1),
    )
    .as_slice()
    {
        [] => tally.changed_legal_same_result += 1,
        [("wrong-result", Some(m), _)] if *m == last => tally.changed_legal_wrong_result += 1,
        other => panic!("unexpected {other:?} after changing move {}", i + 1),
    }
}

/// Two adjacent moves swapped: caught at one of them, or later; when caught at once, a
/// swap is suggested (counted when it is this one).
fn swap_two_moves(record: &Record, rng: &mut Rng, tally: &mut Tally) {
    let i = rng.below(record.moves.len() - 1);
    if record.moves[i].mv == record.moves[i + 1].mv {
        return;
    }
    let mut swapped = record.clone();
    swapped.moves.swap(i, i + 1);
    let got = check_corrupted(&swapped, &format!("moves {} and {} swapped", i + 1, i + 2));
    let Some(("illegal-move", Some(m), _)) = got.first() else {
        return;
    };
    if *m > i + 2 {
        return;
    }
    // Swapping back restores the real game, so a swap (the likeliest edit) is suggested:
    // this one, unless another ties with it.
    let help = validate_record(&swapped, 1).diagnostics[0]
        .help
        .clone()
        .unwrap();
    assert!(
        help.starts_with("swapping moves ") || help.starts_with("any "),
        "{help}"
    );
    let fix = format!(
        "swapping moves {} ({}) and {} ({}) makes the game legal",
        i + 1,
        swapped.moves[i].mv,
        i + 2,
        swapped.moves[i + 1].mv
    );
    if help.starts_with(&fix) {
        tally.swap_suggested += 1;
    }
}

/// The stored score changed: a wrong result at the last move.
fn change_the_score(record: &Record, rng: &mut Rng) {
    let mut rescored = record.clone();
    if let Some(ResultScore::Discs(counts)) = rescored.result.as_mut().map(|r| &mut r.score) {
        counts[0] = (counts[0] + 1 + rng.below(5) as u8) % 65;
        let got = check_corrupted(&rescored, "score changed");
        assert_eq!(
            got,
            vec![("wrong-result", Some(record.moves.len()), got[0].2)]
        );
    }
}

/// A flip claim added (true: no finding), then altered (one square dropped, one added):
/// `wrong-flips` at that move, naming both squares.
fn add_then_alter_a_flip_claim(record: &Record, rng: &mut Rng, squares: &[Square]) {
    let i = rng.below(record.moves.len());
    let flips = real_flips(record);
    let Some(real) = flips[i] else {
        return;
    };
    let mut claimed = record.clone();
    claimed.moves[i].flips = Some(FlipClaim {
        squares: Some(real),
        count: Some(real.len() as u8),
        span: None,
    });
    assert!(check_corrupted(&claimed, "true flip claim").is_empty());
    let mut wrong = real;
    let dropped = real.first().unwrap();
    wrong.remove(dropped);
    let empty: Vec<Square> = squares
        .iter()
        .copied()
        .filter(|s| !real.contains(*s))
        .collect();
    let added = *rng.pick(&empty);
    wrong.insert(added);
    claimed.moves[i].flips = Some(FlipClaim {
        squares: Some(wrong),
        count: None,
        span: None,
    });
    let report = validate_record(&claimed, 1);
    let got = check_corrupted(&claimed, "altered flip claim");
    assert_eq!(got.len(), 1);
    assert_eq!(got[0].0, "wrong-flips");
    assert_eq!(got[0].1, Some(i + 1));
    let message = &report.diagnostics[0].message;
    assert!(
        message.contains(&format!("it also flips {dropped}")),
        "{message}"
    );
    assert!(
        message.contains(&format!("it does not flip {added}")),
        "{message}"
    );
}

/// A pass inserted where the player has a move: `illegal-pass` there, after a
/// `missing-pass` for each pass the record left out before it.
fn insert_a_pass(record: &Record, rng: &mut Rng) {
    let i = rng.below(record.moves.len());
    let (pos, ply) = position_before(record, i);
    if pos.must_pass() {
        return;
    }
    let mut passed = record.clone();
    passed.moves.insert(i, MoveRecord::new(Move::Pass));
    let got = check_corrupted(&passed, &format!("pass inserted before move {}", i + 1));
    // Passes left out before it are now missing: the record writes one.
    let (last, missing) = got.split_last().unwrap();
    assert!(missing.iter().all(|f| f.0 == "missing-pass"), "{got:?}");
    assert_eq!(*last, ("illegal-pass", Some(i + 1), ply + 1));
}

/// A move appended after the end: `moves-after-end` at it.
fn append_a_move(record: &Record, rng: &mut Rng, squares: &[Square]) {
    let n = record.moves.len();
    let mut longer = record.clone();
    longer
        .moves
        .push(MoveRecord::new(Move::Place(*rng.pick(squares))));
    let got = check_corrupted(&longer, "move after the end");
    let plies = validate_record(record, 1).plies;
    assert_eq!(got, vec![("moves-after-end", Some(n + 1), plies + 1)]);
}

/// Corrupts `count` games drawn (seeded) from the finished, valid games of `files` (of
/// `data/`; a missing file fails the test).
fn corrupt_sample(files: &[&str], count: usize, seed: u64) -> Tally {
    let mut games = Vec::new();
    for file in files {
        let path = Path::new(DATA).join(file);
        assert!(
            path.exists(),
            "{} is missing: the real data is part of the repository (data/SOURCES.md)",
            path.display()
        );
        games.extend(
            read_file(&path)
                .into_iter()
                .filter_map(|g| g.record)
                .filter(|r| {
                    r.start.is_none()
                        && r.moves.len() >= 2
                        && validate_record(r, 1).diagnostics.is_empty()
                }),
        );
    }
    assert!(
        !games.is_empty(),
        "{files:?}: no finished valid game to corrupt"
    );
    let mut rng = Rng::new(seed);
    let mut tally = Tally::default();
    for _ in 0..count {
        let record = &games[rng.below(games.len())];
        corrupt_game(record, &mut rng, &mut tally);
    }
    eprintln!("{files:?}: {tally:?}");
    tally
}

#[test]
fn corrupted_wthor_games_are_caught() {
    let files = [
        "wthor/WTH_1977.wtb",
        "wthor/WTH_1990.wtb",
        "wthor/WTH_2004.wtb",
        "wthor/WTH_2015.wtb",
        "wthor/WTH_2021.wtb",
    ];
    let t = corrupt_sample(&files, 400, 2004);
    assert_eq!(t.games, 400);
    // The sample is big enough to see every outcome of a changed move.
    assert!(t.changed_illegal_at_once > 100, "{t:?}");
    assert!(t.changed_legal_fails_later > 0, "{t:?}");
    assert!(t.changed_legal_wrong_result > 10, "{t:?}");
    assert!(t.swap_suggested > 50, "{t:?}");
    assert!(t.square_suggested > 10, "{t:?}");
}

#[test]
fn corrupted_pgn_games_are_caught() {
    for (file, seed) in [("pgn/WTHOR-2004.r.pgn", 7), ("pgn/WTH_2021.py.pgn", 2021)] {
        let t = corrupt_sample(&[file], 100, seed);
        assert_eq!(t.games, 100);
        assert!(t.changed_illegal_at_once > 30, "{file}: {t:?}");
        assert!(t.swap_suggested > 10, "{file}: {t:?}");
    }
}
