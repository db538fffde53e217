//! The checks across games are exact and deterministic: `duplicate-game` findings equal a
//! brute-force pairwise reference (written here from the spec, `spec/validate.md`, not from
//! the library's keys) on thousands of random games with mixed rules, starts and
//! symmetries, in several formats, and the whole JSON report is byte-identical at
//! `--jobs 1`, `2` and `8`.
//!
//! The reference: game `j` is a copy of game `i < j` when both have the same rules and the
//! same start (discs of each colour, neutral discs, side to move), at least one placement,
//! and a symmetry of the board that keeps the start takes `i`'s placements, one by one, to
//! `j`'s. The finding names the first such `i`.

mod common;

use std::path::{Path, PathBuf};

use common::child;
use common::Rng;
use reversi_engine::{Color, Move, Position, Rules, Setup, Square, SquareSet};
use reversi_formats::record::{MoveRecord, Record, StartPosition};
use reversi_formats::{Format, ReadOptions, WriteOptions};

/// Where a symmetry takes `(col, row)` on a board of the first argument's side.
type Mapping = fn(u8, u8, u8) -> (u8, u8);

/// The eight symmetries of a square board, as the spec names them in messages: where each
/// takes `(col, row)` on a board of `side` squares a side.
const SYMMETRIES: [(&str, Mapping); 8] = [
    ("", |_, c, r| (c, r)),
    ("rotated a quarter turn", |n, c, r| (n - 1 - r, c)),
    ("rotated a half turn", |n, c, r| (n - 1 - c, n - 1 - r)),
    ("rotated three quarter turns", |n, c, r| (r, n - 1 - c)),
    ("with its columns mirrored", |n, c, r| (n - 1 - c, r)),
    ("with its rows mirrored", |n, c, r| (c, n - 1 - r)),
    ("reflected on the a1-h8 diagonal", |_, c, r| (r, c)),
    ("reflected on the a8-h1 diagonal", |n, c, r| {
        (n - 1 - r, n - 1 - c)
    }),
];

fn map_square(s: usize, side: u8, sq: Square) -> Square {
    let (c, r) = SYMMETRIES[s].1(side, sq.col(), sq.row());
    Square::new(c, r).expect("a square of the board")
}

fn map_set(s: usize, side: u8, set: SquareSet) -> SquareSet {
    set.iter().map(|sq| map_square(s, side, sq)).collect()
}

fn map_setup(s: usize, side: u8, setup: &Setup) -> Setup {
    Setup {
        discs: setup.discs.map(|d| map_set(s, side, d)),
        neutral: map_set(s, side, setup.neutral),
        turn: setup.turn,
    }
}

/// The start a record's game is played from, written out.
fn start_of(record: &Record) -> Setup {
    match &record.start {
        Some(start) => start.setup,
        None => Position::new(record.rules).setup(),
    }
}

fn placements(record: &Record) -> Vec<Square> {
    record
        .moves
        .iter()
        .filter_map(|m| match m.mv {
            Move::Place(sq) => Some(sq),
            Move::Pass => None,
        })
        .collect()
}

/// A random legal game under `rules` from `setup` (the usual start when `None`), stopped
/// at its end or earlier.
fn random_game(rules: Rules, setup: Option<Setup>, rng: &mut Rng) -> Option<Record> {
    let mut pos = match setup {
        Some(setup) => Position::from_setup(rules, setup).ok()?,
        None => Position::new(rules),
    };
    let mut record = Record::new(rules);
    record.start = setup.map(|setup| StartPosition {
        setup,
        in_hand: None,
        span: None,
    });
    let stop = if rng.one_in(3) { rng.below(40) } else { 200 };
    while !pos.is_over() && record.moves.len() < stop {
        if pos.must_pass() {
            pos.play(Move::Pass).ok()?;
            continue;
        }
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        let mv = Move::Place(*rng.pick(&legal));
        pos.play(mv).ok()?;
        record.moves.push(MoveRecord::new(mv));
    }
    Some(record)
}

/// A start of its own: the usual one after a few random moves (it keeps no symmetry,
/// mostly), or the usual discs with the other side to move (it keeps them all).
fn random_setup(rules: Rules, rng: &mut Rng) -> Setup {
    let mut pos = Position::new(rules);
    if rng.one_in(4) {
        let mut setup = pos.setup();
        setup.turn = Color::White;
        return setup;
    }
    for _ in 0..1 + rng.below(8) {
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        if legal.is_empty() {
            break;
        }
        let _ = pos.play(Move::Place(*rng.pick(&legal)));
    }
    pos.setup()
}

/// `record` under the symmetry `s`, its start written out when it is not the usual one of
/// its rules (or when `explicit`); `None` when `s` does not keep the board.
fn transformed(record: &Record, s: usize, explicit: bool) -> Option<Record> {
    let side = record.rules.board().side();
    let playable = record.rules.playable();
    if map_set(s, side, playable) != playable {
        return None;
    }
    let start = map_setup(s, side, &start_of(record));
    let mut copy = Record::new(record.rules);
    if explicit || start != Position::new(record.rules).setup() || record.start.is_some() {
        copy.start = Some(StartPosition {
            setup: start,
            in_hand: None,
            span: None,
        });
    }
    for m in &record.moves {
        copy.moves.push(MoveRecord::new(match m.mv {
            Move::Place(sq) => Move::Place(map_square(s, side, sq)),
            Move::Pass => Move::Pass,
        }));
    }
    Some(copy)
}

/// The games of one run, in four files (the first a GGF file of games from starts of their
/// own, as a random-start archive has them), originals and copies under symmetries mixed.
fn generate(dir: &Path, seed: u64) -> Vec<PathBuf> {
    let mut rng = Rng::new(seed);
    let rules: Vec<Rules> = [
        "othello",
        "othello",
        "othello",
        "othello:6x6",
        "othello:10x10",
        "othello:octagon",
        "anti",
        "free:6x6",
        "othello,blocked=c3",
        "othello,blocked=a1+h8",
        "othello,handicap=black:2",
        "multi3",
    ]
    .iter()
    .map(|r| r.parse().expect("rules"))
    .collect();
    let standard = Rules::default();
    // (ggf: own starts, rgn: anything, moves: 8x8 from the usual start, wthor: the same)
    let mut files: [Vec<Record>; 4] = Default::default();
    let mut made: Vec<Record> = Vec::new();
    while made.len() < 3000 {
        let game = if !made.is_empty() && rng.one_in(2) {
            // A copy of an earlier game: under a symmetry, or under other rules.
            let earlier = made[rng.below(made.len())].clone();
            let (othello, anti) = (rules[0], rules[6]);
            if rng.one_in(10) && earlier.start.is_none() && [othello, anti].contains(&earlier.rules)
            {
                // The same moves under other rules on the same board: another game.
                let mut other = earlier;
                other.rules = if other.rules == othello {
                    anti
                } else {
                    othello
                };
                other
            } else {
                match transformed(&earlier, rng.below(8), rng.one_in(6)) {
                    Some(copy) => copy,
                    None => earlier,
                }
            }
        } else {
            let rules = *rng.pick(&rules);
            let setup = rng.one_in(3).then(|| random_setup(rules, &mut rng));
            match random_game(rules, setup, &mut rng) {
                Some(game) => game,
                None => continue,
            }
        };
        let plain = game.rules == standard && game.start.is_none();
        let file = match (game.start.is_some(), plain, rng.below(4)) {
            (true, _, 0 | 1) => 0,
            (_, true, 2) => 2,
            (_, true, 3) => 3,
            _ => 1,
        };
        made.push(game.clone());
        files[file].push(game);
    }
    let formats = [
        (Format::Ggf, "own-starts.ggf"),
        (Format::Rgn, "mixed.rgn"),
        (Format::MoveString, "plain.txt"),
        (Format::Wthor, "plain.wtb"),
    ];
    let options = WriteOptions {
        lossy: true,
        year: Some(2026),
        names_dir: Some(dir.to_path_buf()),
        ..WriteOptions::default()
    };
    let mut paths = Vec::new();
    for ((format, name), records) in formats.iter().zip(&files) {
        let written = format
            .write_each(records.iter().enumerate(), &options)
            .expect("written in memory");
        let path = dir.join(name);
        std::fs::write(&path, &written.bytes).expect("written");
        paths.push(path);
    }
    paths
}

/// A game as read back from a file: where it is, and what the reference compares.
struct Read {
    file: String,
    game: usize,
    rules: Rules,
    start: Setup,
    placements: Vec<Square>,
}

/// Every game of `paths` as the library reads it, in input order.
fn read_back(paths: &[PathBuf]) -> Vec<Read> {
    let mut games = Vec::new();
    for path in paths {
        let ext = path.extension().and_then(|e| e.to_str()).unwrap_or("");
        let format = Format::from_extension(ext).expect("a known extension");
        let bytes = std::fs::read(path).expect("read");
        let options = ReadOptions {
            names_dir: path.parent().map(Path::to_path_buf),
            ..ReadOptions::default()
        };
        for game in format.read_bytes(bytes, &options).expect("read back") {
            let record = game.record.as_ref().expect("every game reads");
            games.push(Read {
                file: path.display().to_string(),
                game: game.index,
                rules: record.rules,
                start: start_of(record),
                placements: placements(record),
            });
        }
    }
    games
}

/// The symmetries that take game `a` to game `b` (same rules, same start kept), brute
/// force.
fn symmetries_between(a: &Read, b: &Read) -> Vec<usize> {
    if a.rules != b.rules
        || a.start != b.start
        || a.placements.is_empty()
        || a.placements.len() != b.placements.len()
    {
        return Vec::new();
    }
    let side = a.rules.board().side();
    let playable = a.rules.playable();
    (0..8)
        .filter(|&s| {
            map_set(s, side, playable) == playable
                && map_setup(s, side, &a.start) == a.start
                && a.placements
                    .iter()
                    .zip(&b.placements)
                    .all(|(&x, &y)| map_square(s, side, x) == y)
        })
        .collect()
}

/// The reference's findings: for each game that copies an earlier one, in input order,
/// (the later game, the first earlier one, the symmetries between them).
fn reference(games: &[Read]) -> Vec<(usize, usize, Vec<usize>)> {
    let mut found = Vec::new();
    for j in 0..games.len() {
        for i in 0..j {
            let between = symmetries_between(&games[i], &games[j]);
            if !between.is_empty() {
                found.push((j, i, between));
                break;
            }
        }
    }
    found
}

fn validate(paths: &[PathBuf], jobs: &str) -> Vec<u8> {
    let mut args = vec!["validate", "-q", "--format", "json", "--jobs", jobs];
    let names: Vec<String> = paths.iter().map(|p| p.display().to_string()).collect();
    args.extend(names.iter().map(String::as_str));
    let run = child::run(&args);
    run.sane(&format!("validate --jobs {jobs}"));
    assert!(
        matches!(run.code, Some(0 | 1)),
        "validate --jobs {jobs}: {}",
        run.stderr
    );
    run.stdout
}

#[test]
fn duplicates_are_those_of_a_brute_force_reference_at_any_number_of_jobs() {
    let dir = common::scratch("across-games");
    for seed in [1u64, 2] {
        let paths = generate(&dir, seed);
        let games = read_back(&paths);
        assert!(games.len() > 2500, "{} games read back", games.len());
        let expected = reference(&games);
        // The set is worth checking: copies of many kinds, and games that are not copies.
        let kinds: std::collections::HashSet<usize> =
            expected.iter().flat_map(|(_, _, s)| s.clone()).collect();
        assert!(expected.len() > 500, "{} copies", expected.len());
        assert!(kinds.len() == 8, "copies under every symmetry: {kinds:?}");
        let at = |file: &str, game: usize| {
            games
                .iter()
                .position(|g| g.file == file && g.game == game)
                .unwrap_or_else(|| panic!("no game {game} of {file}"))
        };
        let one = validate(&paths, "1");
        let report: serde_json::Value = serde_json::from_slice(&one).expect("JSON");
        let findings = report["findings"].as_array().cloned().unwrap_or_default();
        let copies: Vec<(usize, usize, String)> = findings
            .iter()
            .filter(|f| f["code"] == "duplicate-game")
            .map(|f| {
                let g = |k: usize| {
                    at(
                        f["games"][k]["file"].as_str().expect("a file"),
                        f["games"][k]["game"].as_u64().expect("a number") as usize,
                    )
                };
                (g(1), g(0), f["message"].as_str().unwrap_or("").to_string())
            })
            .collect();
        let got: Vec<(usize, usize)> = copies.iter().map(|(j, i, _)| (*j, *i)).collect();
        let want: Vec<(usize, usize)> = expected.iter().map(|(j, i, _)| (*j, *i)).collect();
        if got != want {
            let k = got.iter().zip(&want).take_while(|(a, b)| a == b).count();
            panic!(
                "seed {seed}: {} duplicate-game findings where the reference has {}; the \
                 first difference (later game, first game, counted over all inputs): {:?} \
                 against {:?}",
                got.len(),
                want.len(),
                got.get(k),
                want.get(k)
            );
        }
        // Where one symmetry alone takes the first to the copy, the message names it.
        for ((_, _, message), (j, i, between)) in copies.iter().zip(&expected) {
            if let [s] = between[..] {
                let named = SYMMETRIES[s].0;
                assert_eq!(
                    message.contains(", its moves "),
                    !named.is_empty(),
                    "game {j} of {i}: {message}"
                );
                assert!(message.contains(named), "game {j} of {i}: {message}");
            }
        }
        for jobs in ["2", "8"] {
            assert!(
                validate(&paths, jobs) == one,
                "seed {seed}: --jobs {jobs} reports otherwise than --jobs 1"
            );
        }
    }
}

/// Short distinct legal games, each between two players no other game has, as RGN.
fn small_games(count: usize, seed: u64) -> String {
    let mut rng = Rng::new(seed);
    let mut text = String::new();
    for k in 0..count {
        text.push_str(&format!("[Black \"Black {k}\"]\n[White \"White {k}\"]\n\n"));
        let mut pos = Position::new(Rules::default());
        for _ in 0..16 {
            let legal: Vec<Square> = pos.legal_moves().iter().collect();
            if legal.is_empty() {
                break;
            }
            let sq = *rng.pick(&legal);
            let _ = pos.play(Move::Place(sq));
            text.push_str(&format!("{sq} "));
        }
        text.push_str("*\n\n");
    }
    text
}

#[test]
fn the_checks_keep_a_small_fixed_record_a_game() {
    // 100,000 distinct games between 200,000 players (9 MB): what the checks keep grows
    // with the games and the names, and the guide promises about 52 bytes a game besides
    // the names' own bytes.
    let dir = common::scratch("across-games-memory");
    let path = dir.join("small.rgn");
    let games = 100_000;
    std::fs::write(&path, small_games(games, 7)).expect("written");
    let path = path.display().to_string();
    let run = |extra: &[&str]| {
        let mut args = vec!["validate", "-q", "--jobs", "1", "--format", "json", &path];
        args.extend(extra);
        let run = child::run(&args);
        assert!(
            matches!(run.code, Some(0 | 1)),
            "validate {extra:?}: {}",
            run.stderr
        );
        run.max_rss_kb
    };
    let without = run(&["--no-event-checks"]);
    let with = run(&[]);
    let per_game = (with - without) * 1024 / games as i64;
    eprintln!(
        "the checks across games: {per_game} bytes a game ({without} KiB without, {with} KiB with)"
    );
    // 52 bytes of facts, two names of about 13 bytes with their length and slot, and the
    // sort of the copies' keys: about 110. The checks before kept about 850.
    assert!(per_game <= 160, "{per_game} bytes a game");
}
