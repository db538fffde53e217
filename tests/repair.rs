//! `reversi_check::repair` against corrupted copies of real games (every edit kind, one and
//! two errors, kept only when validation detects them): the restore rate against the known
//! originals, and snapshots of the report and the written record for each fixture of
//! `fixtures/repair/`.

mod common;

use std::collections::BTreeMap;
use std::fs::File;
use std::io::BufReader;
use std::path::Path;
use std::sync::Arc;
use std::time::Instant;

use common::Rng;
use rayon::prelude::*;
use reversi_check::repair::{
    repair_game, repair_record, EditKind, RepairOptions, ResultFault, Status,
};
use reversi_check::validate::validate_record;
use reversi_engine::{Move, Square};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{Record, ResultScore};
use reversi_formats::{Format, ParsedGame, PgnDialect, ReadOptions, WriteOptions};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data");

fn read_file(path: &Path) -> (Format, ReadOptions, Vec<ParsedGame>) {
    let bytes = std::fs::read(path).unwrap();
    let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
    let sniffed = Format::sniff(&reversi_formats::Sniff {
        head: &bytes[..bytes.len().min(4096)],
        len: Some(bytes.len() as u64),
    });
    let format = sniffed
        .or_else(|| Format::from_extension(ext))
        .expect("a known format");
    let name = path.file_name().unwrap().to_string_lossy().into_owned();
    let options = ReadOptions {
        name: Arc::from(name.as_str()),
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    let input = Box::new(BufReader::new(File::open(path).unwrap()));
    let games = format
        .read(input, &options)
        .map(|g| g.expect("readable"))
        .collect();
    (format, options, games)
}

/// Finished, valid games of the standard start from the real files of `data/` (see
/// `data/SOURCES.md`); a missing file, or one without such games, fails the test.
fn real_games(files: &[&str]) -> Vec<Record> {
    let mut out = Vec::new();
    for file in files {
        let path = Path::new(DATA).join(file);
        assert!(
            path.exists(),
            "{} is missing: the real data is part of the repository (data/SOURCES.md)",
            path.display()
        );
        let (_, _, games) = read_file(&path);
        let before = out.len();
        out.extend(games.into_iter().filter_map(|g| g.record).filter(|r| {
            r.start.is_none() && r.moves.len() >= 20 && validate_record(r, 1).diagnostics.is_empty()
        }));
        assert!(
            out.len() > before,
            "{}: no finished valid game",
            path.display()
        );
    }
    out
}

/// How a score sheet goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Corruption {
    SwapAdjacent,
    SwapNear,
    Neighbour,
    Digit,
    Letter,
    LeftOut,
    Doubled,
}

/// The errors the issue names for written moves: two moves swapped, a square misread
/// (a neighbour, a confused digit or letter), a move left out or written twice.
const KINDS: [Corruption; 6] = [
    Corruption::SwapAdjacent,
    Corruption::Neighbour,
    Corruption::Digit,
    Corruption::Letter,
    Corruption::LeftOut,
    Corruption::Doubled,
];

fn square(col: i32, row: i32) -> Option<Square> {
    Square::new(u8::try_from(col).ok()?, u8::try_from(row).ok()?).filter(|_| col < 8 && row < 8)
}

/// `moves` with one corruption of `kind` at a random place, if one applies there.
fn corrupt(moves: &mut Vec<Move>, kind: Corruption, rng: &mut Rng) -> bool {
    let n = moves.len();
    let i = rng.below(n - 2);
    let Move::Place(sq) = moves[i] else {
        return false;
    };
    let (c, r) = (i32::from(sq.col()), i32::from(sq.row()));
    let replace = |moves: &mut Vec<Move>, to: Option<Square>| match to {
        Some(to) if Move::Place(to) != moves[i] => {
            moves[i] = Move::Place(to);
            true
        }
        _ => false,
    };
    match kind {
        Corruption::SwapAdjacent | Corruption::SwapNear => {
            let j = i + if kind == Corruption::SwapAdjacent {
                1
            } else {
                2
            };
            if moves[i] == moves[j] {
                return false;
            }
            moves.swap(i, j);
            true
        }
        Corruption::Neighbour => {
            let (dc, dr) = *rng.pick(&[(0, 1), (0, -1), (1, 0), (-1, 0)]);
            replace(moves, square(c + dc, r + dr))
        }
        Corruption::Digit => {
            let pairs = [(6, 8), (1, 7), (3, 8), (5, 6)];
            let row = r + 1;
            let to = pairs
                .iter()
                .find_map(|&(a, b)| (row == a).then_some(b).or((row == b).then_some(a)));
            replace(moves, to.and_then(|t| square(c, t - 1)))
        }
        Corruption::Letter => {
            let pairs = [(0, 3), (1, 7), (2, 4), (4, 5)];
            let to = pairs
                .iter()
                .find_map(|&(a, b)| (c == a).then_some(b).or((c == b).then_some(a)));
            replace(moves, to.and_then(|t| square(t, r)))
        }
        Corruption::LeftOut => {
            moves.remove(i);
            true
        }
        Corruption::Doubled => {
            moves.insert(i + 1, moves[i]);
            true
        }
    }
}

/// A copy of `record` with `moves`.
fn with_moves(record: &Record, moves: &[Move]) -> Record {
    let mut r = record.clone();
    r.moves = moves
        .iter()
        .map(|&m| reversi_formats::record::MoveRecord::new(m))
        .collect();
    r
}

#[derive(Default, Debug, Clone, Copy)]
struct Tally {
    cases: usize,
    restored: usize,
    other_repair: usize,
    ambiguous: usize,
    unrepairable: usize,
    /// Corruptions that left every move legal (only the final count changed): the result
    /// is reported wrong and no move is edited, as issue 22 asks. Not in `cases`.
    legal_as_written: usize,
}

impl Tally {
    fn rate(&self) -> f64 {
        self.restored as f64 / self.cases.max(1) as f64
    }
}

/// Whether `record`'s moves replay legally to the end of the game.
fn legal_to_the_end(record: &Record) -> bool {
    let mut pos = record.start_position().unwrap();
    for m in &record.moves {
        if m.mv != Move::Pass && pos.must_pass() && pos.play(Move::Pass).is_err() {
            return false;
        }
        if pos.play(m.mv).is_err() {
            return false;
        }
    }
    pos.is_over()
}

/// Corrupts games of the sample with `errors` corruptions each (kinds drawn in turn),
/// keeps the copies validation catches, repairs them: tallies per first kind.
fn measure(
    games: &[Record],
    kinds: &[Corruption],
    errors: usize,
    count: usize,
    seed: u64,
) -> BTreeMap<Corruption, Tally> {
    let mut rng = Rng::new(seed);
    let mut cases = Vec::new();
    let mut attempts = 0;
    // Counted: the cases whose moves are illegal (the others only have a wrong result).
    let mut counted = 0;
    while counted < count && attempts < count * 20 {
        attempts += 1;
        let record = &games[rng.below(games.len())];
        let kind = kinds[counted % kinds.len()];
        let mut moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        let mut ok = corrupt(&mut moves, kind, &mut rng);
        for _ in 1..errors {
            let second = *rng.pick(kinds);
            ok &= corrupt(&mut moves, second, &mut rng);
        }
        if !ok {
            continue;
        }
        let corrupted = with_moves(record, &moves);
        if validate_record(&corrupted, 1).errors() == 0 {
            continue; // not detectable
        }
        counted += usize::from(!legal_to_the_end(&corrupted));
        cases.push((kind, record, corrupted));
    }
    let outcomes: Vec<(Corruption, Status, bool)> = cases
        .par_iter()
        .map(|(kind, original, corrupted)| {
            let repair = repair_record(corrupted, &RepairOptions::default());
            if legal_to_the_end(corrupted) {
                assert_eq!(repair.status, Status::WrongResult, "{kind:?}");
                assert!(
                    repair.edits.iter().all(|e| e.kind == EditKind::Result),
                    "no legal move is edited: {:?}",
                    repair.edits
                );
                assert_eq!(repair.record.as_ref(), Some(corrupted), "unchanged");
            }
            let same = repair.record.as_ref().is_some_and(|r| {
                r.moves
                    .iter()
                    .map(|m| m.mv)
                    .eq(original.moves.iter().map(|m| m.mv))
            });
            if repair.status == Status::Repaired {
                let fixed = repair.record.as_ref().unwrap();
                assert_eq!(validate_record(fixed, 1).errors(), 0, "a repair validates");
                assert!(!repair.edits.is_empty() && repair.edits.len() <= 2);
            } else {
                assert!(
                    same || repair.record.as_ref() == Some(corrupted),
                    "unchanged"
                );
            }
            (*kind, repair.status, same)
        })
        .collect();
    let mut tallies: BTreeMap<Corruption, Tally> = BTreeMap::new();
    for (kind, status, same) in outcomes {
        let t = tallies.entry(kind).or_default();
        if status == Status::WrongResult {
            t.legal_as_written += 1;
            continue;
        }
        t.cases += 1;
        match status {
            Status::Repaired if same => t.restored += 1,
            Status::Repaired => t.other_repair += 1,
            Status::Ambiguous => t.ambiguous += 1,
            _ => t.unrepairable += 1,
        }
    }
    tallies
}

fn total<K>(tallies: &BTreeMap<K, Tally>) -> Tally {
    tallies.values().fold(Tally::default(), |a, t| Tally {
        cases: a.cases + t.cases,
        restored: a.restored + t.restored,
        other_repair: a.other_repair + t.other_repair,
        ambiguous: a.ambiguous + t.ambiguous,
        unrepairable: a.unrepairable + t.unrepairable,
        legal_as_written: a.legal_as_written + t.legal_as_written,
    })
}

const SAMPLE: [&str; 4] = [
    "wthor/WTH_1990.wtb",
    "wthor/WTH_2015.wtb",
    "pgn/playok_sample.pgn",
    "ggf/nboard_test.ggf",
];

#[test]
fn clean_games_are_never_changed() {
    let games = real_games(&SAMPLE);
    for record in games.iter().step_by(games.len() / 200 + 1) {
        let repair = repair_record(record, &RepairOptions::default());
        assert_eq!(repair.status, Status::Valid);
        assert_eq!(repair.record.as_ref(), Some(record));
        assert!(repair.edits.is_empty());
        assert_eq!(repair.annotated().as_ref(), Some(record), "no Repair tag");
    }
}

#[test]
fn one_error_is_restored_at_least_95_percent() {
    let games = real_games(&SAMPLE);
    let start = Instant::now();
    let tallies = measure(&games, &KINDS, 1, 240, 11);
    let all = total(&tallies);
    eprintln!(
        "one error, {:?}: {all:?}, rate {:.3}",
        start.elapsed(),
        all.rate()
    );
    for (kind, t) in &tallies {
        eprintln!("  {kind:?}: {t:?}");
        assert!(t.cases >= 20, "{kind:?} is sampled: {t:?}");
    }
    assert!(all.cases >= 240);
    assert!(all.rate() >= 0.95, "{all:?}");
}

#[test]
fn two_errors_are_restored_at_least_80_percent() {
    let games = real_games(&SAMPLE);
    let start = Instant::now();
    let tallies = measure(&games, &KINDS, 2, 120, 22);
    let all = total(&tallies);
    eprintln!(
        "two errors, {:?}: {all:?}, rate {:.3}",
        start.elapsed(),
        all.rate()
    );
    for (kind, t) in &tallies {
        eprintln!("  {kind:?}: {t:?}");
    }
    assert!(all.cases >= 120);
    assert!(all.rate() >= 0.80, "{all:?}");
}

/// Two moves of the same player exchanged (two moves apart): often several such swaps
/// reach the same final board, and the game is then reported ambiguous rather than
/// guessed. Measured apart from the error kinds, with its own floor, and never a
/// wrong repair more than one time in five.
#[test]
fn a_swap_two_moves_apart_is_restored_or_called_ambiguous() {
    let games = real_games(&SAMPLE);
    let tallies = measure(&games, &[Corruption::SwapNear], 1, 60, 33);
    let t = total(&tallies);
    eprintln!("swap two apart: {t:?}, rate {:.3}", t.rate());
    assert_eq!(t.cases, 60);
    assert!(t.rate() >= 0.5, "{t:?}");
    assert!(t.other_repair * 5 <= t.cases, "{t:?}");
}

/// Issue 9: a fix that makes the moves legal but contradicts the claimed result is offered
/// as such, never as making the game legal.
#[test]
fn a_suggestion_that_contradicts_the_result_says_so() {
    let games = real_games(&["wthor/WTH_2004.wtb"]);
    let mut rng = Rng::new(9);
    let mut checked = 0;
    for record in games.iter().take(200) {
        let n = record.moves.len();
        let i = n / 2 + rng.below(n / 4);
        if record.moves[i].mv == record.moves[i + 1].mv {
            continue;
        }
        let mut moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        moves.swap(i, i + 1);
        let mut corrupted = with_moves(record, &moves);
        let report = validate_record(&corrupted, 1);
        let Some(d) = report
            .diagnostics
            .iter()
            .find(|d| d.code.name() == "illegal-move")
        else {
            continue;
        };
        // With the true result the swap back is suggested as giving it.
        let help = d.help.clone().unwrap();
        if help.starts_with("swapping moves") {
            assert!(help.contains("and gives the claimed result"), "{help}");
        }
        // With a result no game reaches, no suggestion claims the game legal.
        if let Some(ResultScore::Discs(counts)) = corrupted.result.as_mut().map(|r| &mut r.score) {
            counts[0] = 65;
        }
        let report = validate_record(&corrupted, 1);
        let d = report
            .diagnostics
            .iter()
            .find(|d| d.code.name() == "illegal-move")
            .unwrap();
        let help = d.help.as_deref().unwrap();
        assert!(!help.contains("makes the game legal"), "{help}");
        if help.starts_with("swapping moves") {
            assert!(
                help.contains(
                    "makes the moves legal, but not its claimed result (the game would end"
                ),
                "{help}"
            );
            checked += 1;
        }
    }
    assert!(checked > 10, "{checked}");
}

/// Every fixture of `fixtures/repair/`: the report and the written record.
#[test]
fn fixtures() {
    insta::glob!("../fixtures/repair", "*.*", |path| {
        let (format, options, games) = read_file(path);
        let file = path.file_name().unwrap().to_string_lossy().into_owned();
        let mut out = String::new();
        let mut records = Vec::new();
        let mut fixed = Vec::new();
        for game in &games {
            let repair = repair_game(game, format, &options, &RepairOptions::default());
            out.push_str(&format!("game {}: {}\n", game.index, repair.status.name()));
            if let Some(d) = repair.report(game.index) {
                out.push_str(&render_plain(&d, &game.source));
            }
            if repair.status == Status::Unrepairable {
                for d in repair.diagnostics.iter().filter(|d| d.is_error()) {
                    out.push_str(&render_plain(d, &game.source));
                }
            }
            out.push_str(&format!(
                "edits: {}\nalternatives: {}\n\n",
                serde_json::to_string(&repair.edits).unwrap(),
                serde_json::to_string(&repair.alternatives).unwrap()
            ));
            let expected = if file.starts_with("ambiguous") {
                Status::Ambiguous
            } else if file.starts_with("wrong-result") {
                Status::WrongResult
            } else if file.starts_with("unrepairable") {
                Status::Unrepairable
            } else {
                Status::Repaired
            };
            assert_eq!(repair.status, expected, "{file}");
            if let Some(r) = repair.commented() {
                records.push(r);
            }
            if repair.status == Status::WrongResult {
                fixed.extend(repair.fix_result().commented());
            }
        }
        let written = format
            .write_bytes(&records, &WriteOptions::default())
            .or_else(|_| {
                let plain: Vec<Record> = records.iter().map(strip_comments).collect();
                format.write_bytes(&plain, &WriteOptions::default())
            })
            .map(|(bytes, _)| String::from_utf8_lossy(&bytes).into_owned())
            .unwrap_or_else(|e| format!("not written: {e}"));
        out.push_str("----- written -----\n");
        out.push_str(&written);
        if !fixed.is_empty() {
            let (bytes, _) = format
                .write_bytes(&fixed, &WriteOptions::default())
                .unwrap();
            out.push_str("----- written with the result fixed -----\n");
            out.push_str(&String::from_utf8_lossy(&bytes));
        }
        insta::assert_snapshot!(out);
    });
}

fn strip_comments(r: &Record) -> Record {
    let mut r = r.clone();
    for m in &mut r.moves {
        m.comment = None;
    }
    r
}

// ----------------------------------------------------------------------------------------
// The command line

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn reversi() -> assert_cmd::Command {
    let mut cmd = assert_cmd::Command::cargo_bin("reversi").expect("the binary is built");
    cmd.current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80");
    cmd
}

fn scratch(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("reversi-repair-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir.join(name)
}

#[test]
fn cli_repairs_to_a_file_in_the_input_format_and_exits_0() {
    let out = scratch("two-errors.rgn");
    let run = reversi()
        .args(["repair", "fixtures/repair/two-errors.rgn", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(report.contains("repaired with 2 edits"), "{report}");
    assert!(
        report.contains("1 repaired, 0 ambiguous, 0 unrepairable; 1 written"),
        "{report}"
    );
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(&out).unwrap().permissions().mode();
        assert_ne!(
            mode & 0o044,
            0,
            "an ordinary file, not a private temporary one: {mode:o}"
        );
    }
    let (_, _, games) = read_file(&out);
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(validate_record(record, 1).errors(), 0);
    assert!(record
        .tag("Repair")
        .unwrap()
        .contains("d8 instead of d7 at move 45"));
    // No temporary file is left beside the output.
    let left: Vec<_> = std::fs::read_dir(out.parent().unwrap())
        .unwrap()
        .filter_map(|e| e.ok())
        .filter(|e| {
            e.file_name()
                .to_string_lossy()
                .starts_with(".reversi-repair")
        })
        .collect();
    assert!(left.is_empty(), "{left:?}");
}

#[test]
fn cli_repairs_a_grid_and_refuses_to_overwrite_its_input() {
    let path = scratch("grid.txt");
    std::fs::copy(
        format!("{ROOT}/fixtures/repair/transcript-misread-number.txt"),
        &path,
    )
    .unwrap();
    let run = reversi()
        .args(["repair", "-q"])
        .arg(&path)
        .arg("-o")
        .arg(&path)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2), "{run:?}");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("writing it would destroy the input"), "{err}");
    let fixed = scratch("grid-fixed.txt");
    let run = reversi()
        .args(["repair", "-q"])
        .arg(&path)
        .arg("-o")
        .arg(&fixed)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let text = std::fs::read_to_string(&fixed).unwrap();
    assert!(
        text.contains("Repair: number 38 on h6 read as 36"),
        "{text}"
    );
    assert!(text.contains("6 25 22 18 10  3  2 37 36"), "{text}");
}

#[test]
fn cli_json_report_has_the_documented_shape_and_exit_1_when_a_game_is_left() {
    let run = reversi()
        .args([
            "repair",
            "fixtures/repair/ambiguous-unfinished.rgn",
            "fixtures/repair/swap-adjacent.rgn",
            "--format",
            "json",
            "-o",
        ])
        .arg(scratch("json.rgn"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    let summary = &v["summary"];
    assert_eq!(summary["games"], 2);
    assert_eq!(summary["ambiguous"], 1);
    assert_eq!(summary["repaired"], 1);
    assert_eq!(summary["written"], 2);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games[0]["status"], "ambiguous");
    assert_eq!(games[0]["alternatives"].as_array().unwrap().len(), 6);
    assert_eq!(games[1]["status"], "repaired");
    assert_eq!(
        games[1]["edits"][0],
        serde_json::json!({"text": "swapped moves 21 (b6) and 22 (b5)", "kind": "swap", "move": 21, "other": 22, "written": "b6 b5", "now": "b5 b6"})
    );
    // The finding that says it all, located in the file.
    assert_eq!(games[1]["finding"]["code"], "repaired");
    assert!(games[1]["finding"]["line"].as_u64().is_some_and(|l| l > 0));
    assert_eq!(games[1]["diagnostics"], serde_json::json!([]));
    assert!(games[0]["diagnostics"]
        .as_array()
        .is_some_and(|d| !d.is_empty()));
}

#[test]
fn cli_missing_input_exits_2_and_stdout_gets_the_games() {
    let run = reversi()
        .args(["repair", "fixtures/repair/nope.rgn"])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
    let run = reversi()
        .args([
            "repair",
            "-q",
            "fixtures/repair/replace-letter.rgn",
            "--to",
            "moves",
            "--lossy",
        ])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let out = String::from_utf8_lossy(&run.stdout);
    assert!(out.starts_with("f5f6e6f4"), "{out}");
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(
        err.contains("dropped tags (Event, Black, White, Repair)"),
        "{err}"
    );
}

/// Every variant (the rules are data): random finished games of each, with their result
/// claimed and one adjacent swap that validation catches, come back repaired or ambiguous,
/// never unrepairable, and a repair always validates.
#[test]
fn every_variant_is_repaired() {
    use reversi_engine::Rules;
    use reversi_formats::record::ClaimedResult;
    let variants = [
        "othello:4x4",
        "othello:6x6",
        "othello:10x10",
        "othello:octagon",
        "anti",
        "free",
        "classic",
        "othello,blocked=c3+f6",
        "othello,handicap=black:a1",
        "multi3",
        "multi4:10x10",
        "multi3:octagon,anti",
    ];
    let mut rng = Rng::new(77);
    for name in variants {
        let rules: Rules = name.parse().unwrap();
        let (mut restored, mut tried) = (0, 0);
        for _ in 0..40 {
            if tried == 5 {
                break;
            }
            let (mut record, pos) = common::played_to_end(rules, &mut rng);
            let players = rules.players() as usize;
            let outcome = pos.outcome().unwrap();
            record.result = Some(ClaimedResult::discs(outcome.score[..players].to_vec()));
            assert_eq!(validate_record(&record, 1).errors(), 0, "{name}");
            let n = record.moves.len();
            let i = rng.below(n - 1);
            let mut corrupted = record.clone();
            let (a, b) = (corrupted.moves[i].mv, corrupted.moves[i + 1].mv);
            corrupted.moves[i].mv = b;
            corrupted.moves[i + 1].mv = a;
            if validate_record(&corrupted, 1).errors() == 0 {
                continue;
            }
            tried += 1;
            let repair = repair_record(
                &corrupted,
                &RepairOptions {
                    max_edits: 1,
                    ..RepairOptions::default()
                },
            );
            assert_ne!(
                repair.status,
                Status::Unrepairable,
                "{name}: {:?}",
                repair.diagnostics
            );
            if repair.status == Status::Repaired {
                let fixed = repair.record.unwrap();
                assert_eq!(validate_record(&fixed, 1).errors(), 0, "{name}");
                restored += usize::from(fixed.moves == record.moves);
            }
        }
        eprintln!("{name}: {restored} of {tried} restored");
        assert!(tried > 0, "{name}: a swap was caught");
    }
}

/// How a transcript grid goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum GridCorruption {
    /// A number misread with a confused digit (it then stands twice, or out of range).
    Misread,
    /// Two numbers up to three apart exchanged.
    Exchanged,
    /// A number left out: its square written as empty.
    Missing,
}

/// The grid text of `record` with one corruption, if one applies.
fn corrupt_grid(text: &str, kind: GridCorruption, rng: &mut Rng) -> Option<String> {
    // Cells: (line, token index) of each number, by number.
    let lines: Vec<Vec<String>> = text
        .lines()
        .map(|l| l.split_whitespace().map(str::to_string).collect())
        .collect();
    let mut cells: BTreeMap<u32, (usize, usize)> = BTreeMap::new();
    for (li, toks) in lines.iter().enumerate() {
        let is_row = toks.len() == 9 && toks[0].parse::<usize>().is_ok();
        for (ti, t) in toks.iter().enumerate().skip(1) {
            if let (true, Ok(k)) = (is_row, t.parse::<u32>()) {
                cells.insert(k, (li, ti));
            }
        }
    }
    let max = *cells.keys().last()?;
    let k = 1 + rng.below(max as usize - 1) as u32;
    let mut lines = lines;
    let (li, ti) = cells[&k];
    match kind {
        GridCorruption::Misread => {
            let pairs = [('6', '8'), ('1', '7'), ('3', '8'), ('5', '6')];
            let s = k.to_string();
            let pos = rng.below(s.len());
            let c = s.as_bytes()[pos] as char;
            let to = pairs
                .iter()
                .find_map(|&(a, b)| (c == a).then_some(b).or((c == b).then_some(a)))?;
            let mut t: Vec<char> = s.chars().collect();
            t[pos] = to;
            lines[li][ti] = t.into_iter().collect();
        }
        GridCorruption::Exchanged => {
            let j = k + 1 + rng.below(3) as u32;
            let &(lj, tj) = cells.get(&j)?;
            lines[li][ti] = j.to_string();
            lines[lj][tj] = k.to_string();
        }
        GridCorruption::Missing => lines[li][ti] = ".".into(),
    }
    Some(
        lines
            .iter()
            .map(|toks| toks.join(" "))
            .collect::<Vec<_>>()
            .join("\n")
            + "\n",
    )
}

/// Real games written as transcript grids, corrupted in number space and read back: the
/// restore rate of `repair_game` against the originals. Grids claim no result, so only
/// legality tells candidates apart.
#[test]
fn corrupted_grids_are_restored() {
    let games = real_games(&["wthor/WTH_2015.wtb"]);
    let options = ReadOptions::default();
    let kinds = [
        GridCorruption::Misread,
        GridCorruption::Exchanged,
        GridCorruption::Missing,
    ];
    let mut rng = Rng::new(404);
    let mut tallies: BTreeMap<GridCorruption, Tally> = BTreeMap::new();
    let mut attempts = 0;
    while tallies.values().map(|t| t.cases).sum::<usize>() < 90 && attempts < 2000 {
        attempts += 1;
        let kind = *kinds
            .iter()
            .min_by_key(|k| tallies.get(k).map_or(0, |t| t.cases))
            .unwrap();
        let original = &games[rng.below(games.len())];
        let mut bare = Record::new(original.rules);
        bare.moves = original.moves.clone();
        let (bytes, _) = Format::Transcript
            .write_bytes(&[bare], &WriteOptions::default())
            .unwrap();
        let text = String::from_utf8(bytes).unwrap();
        let Some(corrupted) = corrupt_grid(&text, kind, &mut rng) else {
            continue;
        };
        let read = Format::Transcript.read_bytes(corrupted, &options).unwrap();
        let [game] = read.as_slice() else {
            panic!("one grid")
        };
        let caught = game
            .record
            .as_ref()
            .is_none_or(|r| validate_record(r, 1).errors() > 0);
        if !caught {
            continue;
        }
        let repair = repair_game(
            game,
            Format::Transcript,
            &options,
            &RepairOptions::default(),
        );
        let t = tallies.entry(kind).or_default();
        t.cases += 1;
        let same = repair.record.as_ref().is_some_and(|r| {
            r.moves
                .iter()
                .map(|m| m.mv)
                .eq(original.moves.iter().map(|m| m.mv))
        });
        match repair.status {
            Status::Repaired if same => t.restored += 1,
            Status::Repaired => t.other_repair += 1,
            Status::Ambiguous => t.ambiguous += 1,
            _ => t.unrepairable += 1,
        }
    }
    let all = total(&tallies);
    for (kind, t) in &tallies {
        eprintln!("  {kind:?}: {t:?}");
    }
    for (kind, t) in &tallies {
        assert_eq!(t.cases, 30, "{kind:?}: {t:?}");
        assert!(t.other_repair * 10 <= t.cases, "{kind:?}: {t:?}");
    }
    eprintln!("grids: {all:?}, rate {:.3}", all.rate());
    assert!(all.rate() >= 0.9, "{all:?}");
}

// ----------------------------------------------------------------------------------------
// A wrong result (issue 22): the result is a candidate edit, never a legal move.

/// `real` (the board's counts) written wrong by a slip of `fault`, so that the slip is
/// the only reading (not also a reversal, a permutation or the raw count `raw`); `seed`
/// varies the digit typo (a digit changed, dropped or added).
fn mistype(real: &[u8], raw: &[u8], fault: ResultFault, seed: usize) -> Option<Vec<u8>> {
    let mut reversed = real.to_vec();
    reversed.reverse();
    let out = match fault {
        ResultFault::Reversed => reversed.clone(),
        ResultFault::ColourOrder => {
            // Two neighbouring counts exchanged, with 3-4 players.
            let i = (0..real.len().saturating_sub(1)).find(|&i| real[i] != real[i + 1])?;
            let mut c = real.to_vec();
            c.swap(i, i + 1);
            c
        }
        ResultFault::RawCount => raw.to_vec(),
        ResultFault::DigitTypo => {
            let i = seed % real.len();
            let text = real[i].to_string();
            let typed = match seed % 3 {
                0 => {
                    let last = text.as_bytes()[text.len() - 1] - b'0';
                    format!("{}{}", &text[..text.len() - 1], (last + 3) % 10)
                }
                1 if text.len() == 2 => text[1..].to_string(),
                _ => format!("1{text}"),
            };
            let mut c = real.to_vec();
            c[i] = typed.parse().ok()?;
            c
        }
        ResultFault::Other => return None,
    };
    let mut sorted = (out.clone(), real.to_vec());
    sorted.0.sort_unstable();
    sorted.1.sort_unstable();
    let other_reading = match fault {
        ResultFault::Reversed => false,
        ResultFault::ColourOrder => out == reversed,
        ResultFault::RawCount => sorted.0 == sorted.1,
        _ => sorted.0 == sorted.1 || out == raw,
    };
    (out != real && !other_reading).then_some(out)
}

/// The board's scores and raw disc counts at the end of `record`.
fn final_counts(record: &Record) -> (Vec<u8>, Vec<u8>) {
    let mut pos = record.start_position().unwrap();
    for m in &record.moves {
        if m.mv != Move::Pass && pos.must_pass() {
            pos.play(Move::Pass).unwrap();
        }
        pos.play(m.mv).unwrap();
    }
    let outcome = pos.outcome().expect("a finished game");
    let n = record.rules.players() as usize;
    (outcome.score[..n].to_vec(), outcome.discs[..n].to_vec())
}

/// Checks the repair of a legal `record` whose result was mistyped by `fault`: reported
/// with that kind, nothing edited but the result, written unchanged; with the result
/// fixed, the original game and result, with a `Repair` tag. The fixed record.
fn check_result_only(original: &Record, mistyped: &Record, fault: ResultFault) -> Record {
    let what = format!("{} {fault:?}", original.rules);
    let repair = repair_record(mistyped, &RepairOptions::default());
    assert_eq!(repair.status, Status::WrongResult, "{what}");
    let [edit] = repair
        .edits
        .clone()
        .try_into()
        .unwrap_or_else(|e: Vec<_>| panic!("{what}: only the result is edited: {e:?}"));
    assert_eq!(edit.kind, EditKind::Result, "{what}");
    assert_eq!(edit.fault, Some(fault), "{what}: {edit}");
    assert!(
        edit.to_string()
            .starts_with("the result is wrong: the board gives "),
        "{edit}"
    );
    assert_eq!(
        repair.record.as_ref(),
        Some(mistyped),
        "{what}: written unchanged"
    );
    assert!(repair.annotated().unwrap().tag("Repair").is_none());
    let fixed = repair.fix_result();
    assert_eq!(fixed.status, Status::Repaired, "{what}");
    let record = fixed.annotated().unwrap();
    assert_eq!(record.moves, original.moves, "{what}: no move is edited");
    assert_eq!(
        record.result.as_ref().map(|r| &r.score),
        original.result.as_ref().map(|r| &r.score)
    );
    assert_eq!(validate_record(&record, 1).errors(), 0, "{what}");
    let tag = record.tag("Repair").expect("a Repair tag");
    assert_eq!(tag, edit.to_string());
    record
}

/// Real games (WTHOR, PlayOK, NBoard) with their disc counts reversed, mistyped by one
/// digit, or given as the raw count: reported as a wrong result of that kind, never
/// repaired by editing a legal move, and fixed on request; the fixed games written as RGN
/// read back valid with their `Repair` tag.
#[test]
fn real_games_with_a_mistyped_result_keep_their_moves() {
    use reversi_formats::record::ClaimedResult;
    let games = real_games(&SAMPLE);
    let faults = [
        ResultFault::Reversed,
        ResultFault::DigitTypo,
        ResultFault::RawCount,
    ];
    let mut tried = BTreeMap::new();
    let mut fixed = Vec::new();
    // Every 60th game; the raw count only where the game ends with empty squares, which
    // few real games do: the first 10 of those.
    let step = games.len() / 60 + 1;
    for (i, original) in games.iter().enumerate() {
        let (real, raw) = final_counts(original);
        let mut original = original.clone();
        original.result = Some(ClaimedResult::discs(real.clone()));
        for fault in faults {
            let wanted = match fault {
                ResultFault::RawCount => tried.get(fault.name()).is_none_or(|&n| n < 10),
                _ => i % step == 0,
            };
            let Some(counts) = mistype(&real, &raw, fault, i / step).filter(|_| wanted) else {
                continue;
            };
            let mut mistyped = original.clone();
            mistyped.result = Some(ClaimedResult::discs(counts));
            fixed.push(check_result_only(&original, &mistyped, fault));
            *tried.entry(fault.name()).or_insert(0) += 1;
        }
    }
    eprintln!("{tried:?}");
    for fault in faults {
        assert!(
            tried.get(fault.name()).is_some_and(|&n| n >= 10),
            "{tried:?}"
        );
    }
    let (bytes, _) = Format::Rgn
        .write_bytes(&fixed, &WriteOptions::default())
        .unwrap();
    let back = Format::Rgn
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    assert_eq!(back.len(), fixed.len());
    for game in &back {
        let record = game.record.as_ref().unwrap();
        assert_eq!(validate_record(record, 1).errors(), 0);
        assert!(record
            .tag("Repair")
            .unwrap()
            .starts_with("the result is wrong"));
    }
}

/// Engine-played games of every variant (octagon, 10x10, anti, 3-4 players) with a
/// reversed result, counts in another colour order (3-4 players) or a digit typo: the
/// result is the edit, never a legal move (issue 22: an octagon game with a reversed
/// result was "repaired" by swapping two correct moves).
#[test]
fn every_variant_with_a_mistyped_result_keeps_its_moves() {
    use reversi_engine::Rules;
    use reversi_formats::record::ClaimedResult;
    let variants = [
        "othello",
        "othello:octagon",
        "othello:10x10",
        "anti",
        "anti:octagon",
        "multi3",
        "multi3:octagon,anti",
        "multi4:10x10",
    ];
    let mut rng = Rng::new(2222);
    for name in variants {
        let rules: Rules = name.parse().unwrap();
        let mut checked = 0;
        for game in 0..6 {
            let (mut record, _) = common::played_to_end(rules, &mut rng);
            let (real, raw) = final_counts(&record);
            record.result = Some(ClaimedResult::discs(real.clone()));
            for fault in [
                ResultFault::Reversed,
                ResultFault::ColourOrder,
                ResultFault::DigitTypo,
            ] {
                if fault == ResultFault::ColourOrder && rules.players() == 2 {
                    continue;
                }
                let Some(counts) = mistype(&real, &raw, fault, game) else {
                    continue;
                };
                let mut mistyped = record.clone();
                mistyped.result = Some(ClaimedResult::discs(counts));
                check_result_only(&record, &mistyped, fault);
                checked += 1;
            }
        }
        eprintln!("{name}: {checked} mistyped results");
        assert!(checked >= 6, "{name}: {checked}");
    }
}

/// Real games with two adjacent moves swapped (an illegal move) and the score reversed:
/// the swap makes the moves legal, then the result is judged, so the finding is the swap
/// and the reversed result, and fixing the result restores the original game.
#[test]
fn a_move_error_and_a_reversed_result_are_both_found() {
    use reversi_formats::record::ClaimedResult;
    let games = real_games(&SAMPLE);
    let mut rng = Rng::new(5150);
    let (mut cases, mut restored) = (0, 0);
    for original in games.iter().step_by(games.len() / 300 + 1) {
        if cases == 30 {
            break;
        }
        let (real, raw) = final_counts(original);
        let Some(reversed) = mistype(&real, &raw, ResultFault::Reversed, 0) else {
            continue;
        };
        let mut original = original.clone();
        original.result = Some(ClaimedResult::discs(real));
        let mut corrupted = original.clone();
        let i = rng.below(corrupted.moves.len() - 1);
        let (a, b) = (corrupted.moves[i].mv, corrupted.moves[i + 1].mv);
        corrupted.moves[i].mv = b;
        corrupted.moves[i + 1].mv = a;
        if a == b || legal_to_the_end(&corrupted) {
            continue;
        }
        corrupted.result = Some(ClaimedResult::discs(reversed));
        cases += 1;
        let repair = repair_record(&corrupted, &RepairOptions::default());
        assert_ne!(
            repair.status,
            Status::Repaired,
            "never a silent result change"
        );
        assert_ne!(repair.status, Status::Unrepairable, "{:?}", repair.edits);
        if repair.status != Status::WrongResult {
            continue;
        }
        assert_eq!(
            repair.record.as_ref(),
            Some(&corrupted),
            "written unchanged"
        );
        let kinds: Vec<EditKind> = repair.edits.iter().map(|e| e.kind).collect();
        let fixed = repair.fix_result();
        let record = fixed.record.as_ref().unwrap();
        assert_eq!(validate_record(record, 1).errors(), 0);
        if kinds == [EditKind::Swap, EditKind::Result] && record == &original {
            restored += 1;
        }
    }
    eprintln!("{restored} of {cases} restored");
    assert_eq!(cases, 30);
    assert!(restored >= 24, "{restored} of {cases}");
}

/// A legal game with its score reversed: without `--fix-result` the finding names the
/// board's result and the kind, the game is written unchanged and the exit code is 1; with
/// it, the board's result is written with a `Repair` tag and reads back valid.
#[test]
fn cli_reports_a_wrong_result_and_fixes_it_on_request() {
    let out = scratch("wrong-result.rgn");
    let run = reversi()
        .args(["repair", "fixtures/repair/wrong-result-reversed.rgn", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        report.contains("the result is wrong: the board gives 41-23, not 23-41 (reversed)"),
        "{report}"
    );
    assert!(
        report.contains("0 unrepairable, 1 with a wrong result; 1 written"),
        "{report}"
    );
    let (_, _, games) = read_file(&out);
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(record.tag("Repair"), None);
    assert_eq!(
        record.result.as_ref().unwrap().score,
        ResultScore::Discs(vec![23, 41])
    );

    let run = reversi()
        .args([
            "repair",
            "--fix-result",
            "fixtures/repair/wrong-result-reversed.rgn",
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0));
    let (_, _, games) = read_file(&out);
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(validate_record(record, 1).errors(), 0);
    assert_eq!(
        record.tag("Repair"),
        Some("the result is wrong: the board gives 41-23, not 23-41 (reversed)")
    );
    assert_eq!(
        record.result.as_ref().unwrap().score,
        ResultScore::Discs(vec![41, 23])
    );
    let original = read_file(Path::new(&format!(
        "{ROOT}/fixtures/repair/wrong-result-reversed.rgn"
    )))
    .2;
    let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(
        moves(record),
        moves(original[0].record.as_ref().unwrap()),
        "no move is edited"
    );

    let run = reversi()
        .args([
            "repair",
            "fixtures/repair/wrong-result-and-swap.rgn",
            "fixtures/repair/wrong-result-digit-typo.rgn",
            "--format",
            "json",
            "-o",
        ])
        .arg(scratch("wrong-result-json.rgn"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
    assert_eq!(v["summary"]["wrong_result"], 2);
    let games = v["games"].as_array().unwrap();
    assert_eq!(games[0]["status"], "wrong-result");
    assert_eq!(games[0]["edits"][0]["kind"], "swap");
    assert_eq!(
        games[0]["edits"][1],
        serde_json::json!({"text": "the result is wrong: the board gives 41-23, not 23-41 (reversed)", "kind": "result", "written": "23-41", "now": "41-23", "fault": "reversed"})
    );
    assert_eq!(games[1]["edits"][0]["fault"], "digit-typo");
}

/// `--pick GAME:N` takes alternative N of an ambiguous game (`N` alone: the input's only
/// game): different picks write different games, each with its `Repair` tag naming the
/// alternative; a pick out of range, for a game that is not ambiguous, for a game the
/// input does not hold, or with several inputs is a usage error that writes nothing.
#[test]
fn cli_pick_takes_an_alternative_and_refuses_a_wrong_pick() {
    let ambiguous = "fixtures/repair/ambiguous-unfinished.rgn";
    let picked = |pick: &str| {
        let out = scratch(&format!("pick-{}.rgn", pick.replace(':', "-")));
        let run = reversi()
            .args(["repair", ambiguous, "--pick", pick, "-o"])
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(0), "{run:?}");
        let report = String::from_utf8_lossy(&run.stdout).into_owned();
        (std::fs::read_to_string(&out).unwrap(), report)
    };
    let (first, report) = picked("1");
    assert!(
        report.contains(
            "repaired with 1 edit (alternative 1 of 6, picked): c2 instead of a1 at move 5"
        ),
        "{report}"
    );
    let (second, report) = picked("1:2");
    assert!(report.contains("alternative 2 of 6, picked"), "{report}");
    assert_ne!(first, second);
    assert!(
        second.contains("[Repair \"e3 instead of a1 at move 5 (alternative 2 of 6, picked)\"]"),
        "{second}"
    );
    let fails = |args: &[&str], expected: &str| {
        let out = scratch("pick-refused.rgn");
        let _ = std::fs::remove_file(&out);
        let run = reversi()
            .arg("repair")
            .args(args)
            .arg("-o")
            .arg(&out)
            .output()
            .unwrap();
        assert_eq!(run.status.code(), Some(2), "{args:?}: {run:?}");
        let err = String::from_utf8_lossy(&run.stderr);
        assert!(err.contains(expected), "{args:?}: {err}");
        assert!(!out.exists(), "{args:?}: nothing is written");
    };
    fails(
        &[ambiguous, "--pick", "7"],
        "--pick 7: game 1: there is no alternative 7: the game has 6 (pick 1 to 6)",
    );
    fails(
        &[ambiguous, "--pick", "2:1"],
        "--pick 2:1: the input holds 1 game",
    );
    fails(
        &["fixtures/repair/swap-adjacent.rgn", "--pick", "1"],
        "the game is repaired, not ambiguous",
    );
    fails(
        &[
            ambiguous,
            "fixtures/repair/swap-adjacent.rgn",
            "--pick",
            "1:1",
        ],
        "--pick names a game by its number in the input, so it needs one input file",
    );
    fails(&[ambiguous, "--pick", "1:0"], "an alternative number");
}

/// Three swaps need `--max-edits 3`, a search the default work limit stops: the report
/// says what was searched and which flag raises the limit; `--work-limit` lets it finish.
#[test]
fn cli_work_limit_lets_a_three_edit_search_finish() {
    let game = "fixtures/repair/unrepairable-three-swaps.rgn";
    let run = reversi()
        .args(["repair", "--max-edits", "3", game, "-o"])
        .arg(scratch("three-swaps.rgn"))
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(1));
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(
        report.contains("the search stopped at its work limit of 400000 replays"),
        "{report}"
    );
    assert!(report.contains("`--work-limit` raises it"), "{report}");
    let out = scratch("three-swaps-finished.rgn");
    let run = reversi()
        .args([
            "repair",
            "--max-edits",
            "3",
            "--work-limit",
            "3000000",
            game,
            "-o",
        ])
        .arg(&out)
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(0), "{run:?}");
    let report = String::from_utf8_lossy(&run.stdout);
    assert!(report.contains("repaired with 3 edits"), "{report}");
    let (_, _, games) = read_file(&out);
    let record = games[0].record.as_ref().unwrap();
    assert_eq!(validate_record(record, 1).errors(), 0);
    let run = reversi()
        .args(["repair", "--work-limit", "0", game])
        .output()
        .unwrap();
    assert_eq!(run.status.code(), Some(2));
}

/// A square written off the board (`d0` for `d8`, `k3` for `h3`, `a11` for `a1`, `e9` for
/// `e8`) stops every reader: the game is not readable. Repair rewrites the square on the
/// board and reads the game again, in RGN, PGN, GGF and move strings; the restore rate on
/// real games, and never a wrong repair more than one time in twenty.
#[test]
fn a_square_off_the_board_is_read_as_the_square_meant() {
    let games = real_games(&SAMPLE);
    let mut rng = Rng::new(44);
    let formats = [
        Format::Rgn,
        Format::Pgn(PgnDialect::PlayOk),
        Format::Ggf,
        Format::MoveString,
    ];
    let (mut cases, mut restored, mut wrong) = (0, 0, 0);
    while cases < 80 {
        let original = &games[rng.below(games.len())];
        let format = formats[cases % formats.len()];
        let i = rng.below(original.moves.len());
        let Move::Place(sq) = original.moves[i].mv else {
            continue;
        };
        let name = sq.to_string();
        let (col, row) = (name.as_bytes()[0], sq.row() + 1);
        // Written off the board as a hurried hand or a slipped key would.
        let typo = match (cases / formats.len()) % 4 {
            0 if row == 8 || row == 6 => format!("{}0", col as char),
            1 if col == b'h' => format!("k{row}"),
            2 if row == 1 => format!("{}11", col as char),
            3 if row == 8 => format!("{}9", col as char),
            _ => continue,
        };
        let plain = original.without_spans();
        let lossy = WriteOptions {
            lossy: true,
            ..WriteOptions::default()
        };
        let (bytes, _) = format
            .write_bytes(std::slice::from_ref(&plain), &lossy)
            .expect("a real game writes");
        let text = String::from_utf8(bytes).expect("text");
        // The i-th move token of the text (a GGF move is `B[d3]`).
        let Some(at) = nth_move(&text, &name, i, original) else {
            continue;
        };
        let typed = format!("{}{typo}{}", &text[..at], &text[at + name.len()..]);
        let read = ReadOptions::default();
        let game = match format.read_bytes(typed.as_bytes(), &read) {
            Ok(mut g) if g.len() == 1 => g.remove(0),
            other => panic!("{format:?}: {typed}: {other:?}"),
        };
        cases += 1;
        let repair = repair_game(&game, format, &read, &RepairOptions::default());
        assert_ne!(repair.status, Status::Valid, "{format:?} {typo}");
        // Passes aside: a format may write them where the original has none.
        let moves = |r: &Record| {
            r.moves
                .iter()
                .map(|m| m.mv)
                .filter(|&m| m != Move::Pass)
                .collect::<Vec<_>>()
        };
        match repair.status {
            Status::Repaired => {
                let fixed = repair.record.as_ref().expect("a repair has its record");
                if moves(fixed) == moves(original) {
                    restored += 1;
                    let edit = &repair.edits[0];
                    assert_eq!(edit.kind, EditKind::Replace);
                    assert_eq!(
                        (edit.written.as_str(), edit.now.as_str()),
                        (typo.as_str(), name.as_str())
                    );
                    let at = fixed.moves[edit.move_number - 1].mv;
                    assert_eq!(at, Move::Place(sq), "{format:?} {typo}: the edit's move");
                    let span = edit.span.expect("the edit has its place");
                    assert_eq!(&typed[span.offset..span.offset + span.len], typo);
                } else {
                    wrong += 1;
                }
            }
            Status::Ambiguous | Status::Unrepairable => {}
            other => panic!("{format:?} {typo}: {other:?}"),
        }
    }
    eprintln!("off the board: {restored} of {cases} restored, {wrong} wrong");
    assert!(restored * 10 >= cases * 9, "{restored} of {cases}");
    assert!(wrong * 20 <= cases, "{wrong} of {cases} wrong");
}

/// The byte offset of move `i` (0-based, written `name`) in `text`: the `i`-th token that
/// is a move of `record`, counting passes a format writes.
fn nth_move(text: &str, name: &str, i: usize, record: &Record) -> Option<usize> {
    let squares: Vec<String> = record.moves.iter().map(|m| m.mv.to_string()).collect();
    let mut seen = 0;
    // Move tokens are found in order after the tags (GGF: from its first move).
    let mut from = match text.find("]B[") {
        Some(first) if text.starts_with("(;") => first,
        _ => text.find("\n\n").map_or(0, |b| b + 2),
    };
    while seen <= i {
        let want = squares.get(seen)?;
        let at = from + text[from..].find(want.as_str())?;
        if seen == i {
            return (want == name).then_some(at);
        }
        seen += 1;
        from = at + want.len();
    }
    None
}

/// A sheet written from White's side: names and score the other way round. Alone it is a
/// reversed result (reported, not guessed); with a pairing that has the players the other
/// way round, repair exchanges the names and every tag of each colour's player, so each
/// player keeps the score the sheet gives them. A pairing as written keeps the reading of
/// a reversed score.
#[test]
fn a_sheet_written_from_whites_side_is_repaired_by_the_names_when_the_pairing_says_so() {
    let games = real_games(&["wthor/WTH_1990.wtb"]);
    let original = games
        .iter()
        .find(|g| {
            let r = g.result.as_ref().map(|c| c.score.clone());
            matches!(r, Some(ResultScore::Discs(ref d)) if d[0] != d[1])
        })
        .expect("a decided game");
    let Some(ResultScore::Discs(discs)) = original.result.as_ref().map(|c| c.score.clone()) else {
        unreachable!()
    };
    let moves: Vec<String> = original.moves.iter().map(|m| m.mv.to_string()).collect();
    let sheet = format!(
        "[Round \"3\"]\n[Black \"Bob\"]\n[White \"Ann\"]\n[BlackElo \"1500\"]\n[Result \"{}-{}\"]\n\n{}\n",
        discs[1],
        discs[0],
        moves.join(" ")
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("sheet.rgn"), &sheet).unwrap();
    let out = dir.path().join("out.rgn");
    let run = |extra: &[&str]| {
        let mut cmd = reversi();
        cmd.arg("repair")
            .arg(dir.path().join("sheet.rgn"))
            .arg("-o")
            .arg(&out)
            .args(extra);
        let o = cmd.output().unwrap();
        (
            o.status.code(),
            String::from_utf8_lossy(&o.stdout).into_owned(),
            String::from_utf8_lossy(&o.stderr).into_owned(),
        )
    };
    // No pairings: a reversed result, written unchanged, the other reading named.
    let (code, report, _) = run(&[]);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("(reversed)"), "{report}");
    assert!(report.contains("written from White's side"), "{report}");
    // The pairing has Ann with Black: the names are swapped, the score is each player's.
    let pairings = dir.path().join("pairings.csv");
    std::fs::write(&pairings, "ronde;table;noir;blanc\n3;1;ann;Bob\n").unwrap();
    let (code, report, notes) = run(&["--pairings", pairings.to_str().unwrap()]);
    assert_eq!(code, Some(0), "{report}{notes}");
    assert!(notes.contains("line 2 of the pairings"), "{notes}");
    let fixed = std::fs::read_to_string(&out).unwrap();
    let read = Format::Rgn
        .read_bytes(fixed.as_bytes(), &ReadOptions::default())
        .unwrap();
    let record = read[0].record.as_ref().unwrap();
    assert_eq!(
        (
            record.tag("Black"),
            record.tag("White"),
            record.tag("WhiteElo")
        ),
        (Some("Ann"), Some("Bob"), Some("1500"))
    );
    assert_eq!(record.tag("BlackElo"), None);
    assert_eq!(
        record.result.as_ref().map(|c| c.score.clone()),
        Some(ResultScore::Discs(discs.clone()))
    );
    assert!(record
        .tag("Repair")
        .unwrap()
        .contains("written from White's side"));
    assert_eq!(validate_record(record, 1).errors(), 0);
    // A pairing as written: the score is what is reversed (and only on request).
    std::fs::write(&pairings, "ronde;table;noir;blanc\n3;1;Bob;Ann\n").unwrap();
    let (code, report, _) = run(&["--pairings", pairings.to_str().unwrap()]);
    assert_eq!(code, Some(1), "{report}");
    assert!(report.contains("(reversed)"), "{report}");
}

/// `-q` is quiet: no report for each game, at most a line a file for the games left as
/// written (and one for what the output could not hold), then the summary.
#[test]
fn cli_quiet_says_one_line_a_file() {
    let dir = tempfile::tempdir().unwrap();
    let lines =
        std::fs::read_to_string(Path::new(DATA).join("movestrings/nboard_xot-large.txt")).unwrap();
    // Forty games, their first move spoiled: each is repaired or ambiguous.
    let spoiled: String = lines
        .lines()
        .take(40)
        .map(|l| format!("a1{}\n", &l[2..]))
        .collect();
    for name in ["one.txt", "two.txt"] {
        std::fs::write(dir.path().join(name), &spoiled).unwrap();
    }
    let out = reversi()
        .args(["repair", "-q", "-o"])
        .arg(dir.path().join("out.rgn"))
        .arg(dir.path().join("one.txt"))
        .arg(dir.path().join("two.txt"))
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let said: Vec<&str> = stdout.lines().chain(stderr.lines()).collect();
    let loud = reversi()
        .args(["repair", "-o"])
        .arg(dir.path().join("loud.rgn"))
        .arg(dir.path().join("one.txt"))
        .output()
        .unwrap();
    let ambiguous = String::from_utf8_lossy(&loud.stdout)
        .matches("\nambiguous\n")
        .count()
        + usize::from(String::from_utf8_lossy(&loud.stdout).starts_with("ambiguous\n"));
    assert!(ambiguous > 0, "the sample has ambiguous games");
    assert_eq!(said.len(), 3, "a line a file and the summary: {said:?}");
    assert!(
        said[0].contains("one.txt: ") && said[0].contains(&format!("{ambiguous} ambiguous")),
        "{said:?}"
    );
    assert!(said[1].contains("two.txt: "), "{said:?}");
    assert!(said[2].starts_with("2 files, 80 games"), "{said:?}");
    assert_eq!(out.status.code(), Some(1));
}

/// A diagnostic has one JSON shape: what `repair --format json` lists for a game it does
/// not repair is what `validate --format json` reports for it, object for object.
#[test]
fn repair_reports_a_diagnostic_in_validates_shape() {
    let dir = tempfile::tempdir().expect("a temporary folder");
    let mut compared = 0;
    let names = [
        "ambiguous-unfinished.rgn",
        "unrepairable-three-errors.rgn",
        "wrong-result-reversed.rgn",
        "ggf-swap.ggf",
    ];
    for name in names {
        let input = format!("fixtures/repair/{name}");
        let validated = reversi()
            .args(["validate", "--format", "json", "--no-event-checks", &input])
            .output()
            .expect("validate runs");
        let validated: serde_json::Value =
            serde_json::from_slice(&validated.stdout).expect("validate writes JSON");
        let repaired = reversi()
            .args(["repair", "--format", "json", &input, "-o"])
            .arg(dir.path().join(name))
            .output()
            .expect("repair runs");
        let repaired: serde_json::Value =
            serde_json::from_slice(&repaired.stdout).expect("repair writes JSON");
        for game in repaired["games"].as_array().expect("games") {
            let listed = game["diagnostics"].as_array().expect("diagnostics");
            if game["status"] == "repaired" {
                assert!(listed.is_empty(), "{game}");
                continue;
            }
            let expected: Vec<&serde_json::Value> = validated["diagnostics"]
                .as_array()
                .expect("diagnostics")
                .iter()
                .filter(|d| d["game"] == game["game"])
                .collect();
            assert_eq!(
                listed.iter().collect::<Vec<_>>(),
                expected,
                "{name}: {game}"
            );
            compared += listed.len();
        }
    }
    assert!(compared >= 3, "{compared} diagnostics compared");
}

/// What `repair` writes is read back before it is put in place, as `convert`'s output is:
/// every repair fixture, repaired into every format that holds it (lossily), reads back
/// game by game as it was written (a wrong repair note, a pass left implicit or a result
/// settled otherwise would be a difference and leave the output as it was), and the
/// output holds the games the summary says.
#[test]
fn cli_repair_output_reads_back_in_every_format() {
    let fixtures = std::path::Path::new(ROOT).join("fixtures/repair");
    let mut files: Vec<_> = std::fs::read_dir(&fixtures)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| {
            p.extension()
                .is_some_and(|e| e == "rgn" || e == "txt" || e == "ggf")
        })
        .collect();
    files.sort();
    let mut checked = 0;
    for file in &files {
        for (to, ext) in [
            ("rgn", "rgn"),
            ("pgn", "pgn"),
            ("ggf", "ggf"),
            ("sgf", "sgf"),
            ("json", "json"),
            ("moves", "txt"),
            ("transcript", "grid"),
        ] {
            let stem = file.file_stem().unwrap().to_string_lossy();
            let out = scratch(&format!("back-{stem}.{ext}"));
            let _ = std::fs::remove_file(&out);
            let run = reversi()
                .args([
                    "repair", "-q", "--lossy", "--format", "json", "--to", to, "-o",
                ])
                .arg(&out)
                .arg(file)
                .output()
                .unwrap();
            let stderr = String::from_utf8_lossy(&run.stderr);
            assert!(
                !stderr.contains("read back") && matches!(run.status.code(), Some(0 | 1)),
                "{} --to {to}: {stderr}",
                file.display()
            );
            let report: serde_json::Value = serde_json::from_slice(&run.stdout).unwrap();
            let written = report["summary"]["written"].as_u64().unwrap();
            if written == 0 {
                continue;
            }
            let back = reversi()
                .args(["validate", "--format", "json", "--no-event-checks"])
                .arg(&out)
                .output()
                .unwrap();
            let back: serde_json::Value = serde_json::from_slice(&back.stdout).unwrap();
            assert_eq!(
                back["summary"]["games"],
                written,
                "{} --to {to}",
                file.display()
            );
            checked += 1;
        }
    }
    assert!(checked >= files.len() * 5, "{checked} outputs checked");
}

/// A game whose error the output format would hide (a wrong result in a move string, which
/// holds no result) is not written, as `convert` refuses it, and the note says how to write
/// it: with `--fix-result` the board's result makes it valid, and it is written.
#[test]
fn cli_a_game_whose_error_the_format_would_hide_is_not_written() {
    let run = reversi()
        .args([
            "repair",
            "--to",
            "moves",
            "--lossy",
            "fixtures/repair/wrong-result-digit-typo.rgn",
        ])
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert_eq!(run.status.code(), Some(1), "{stderr}");
    assert!(
        run.stdout.is_empty(),
        "nothing written: {}",
        String::from_utf8_lossy(&run.stdout)
    );
    assert!(
        stderr.contains("not written: moves cannot hold what makes this game wrong (wrong-result)")
            && stderr.contains("(--fix-result writes the board's result)"),
        "{stderr}"
    );
    let fixed = reversi()
        .args([
            "repair",
            "-q",
            "--fix-result",
            "--to",
            "moves",
            "--lossy",
            "fixtures/repair/wrong-result-digit-typo.rgn",
        ])
        .output()
        .unwrap();
    assert_eq!(
        fixed.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&fixed.stderr)
    );
    assert_eq!(String::from_utf8_lossy(&fixed.stdout).lines().count(), 1);
}
