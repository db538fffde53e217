//! `reversi find` against an independent brute force on the real WTHOR files of `data/`:
//! every game replayed with the engine's `Position` (passes inferred where the record
//! leaves them out), every position it reaches kept, and each query answered by looking
//! up the position's eight images, computed here by square maps written out below (not
//! the library's symmetry code). Positions are taken from real games at various plies;
//! each is asked in each of its eight orientations, with and without the index.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use assert_cmd::Command;
use reversi_engine::{Color, Move, Position, Rules, Square, SquareSet};
use reversi_formats::record::{Record, ResultScore};
use reversi_formats::{Format, ReadOptions};
use serde_json::Value;

const YEARS: [&str; 5] = [
    "WTH_1977.wtb",
    "WTH_1990.wtb",
    "WTH_2004.wtb",
    "WTH_2015.wtb",
    "WTH_2021.wtb",
];

fn data(name: &str) -> PathBuf {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("data/wthor")
        .join(name);
    assert!(
        path.exists(),
        "{} is missing (data/SOURCES.md)",
        path.display()
    );
    path
}

/// A folder holding copies of the WTHOR files `years` and the name files, for indexes
/// written beside it.
fn archive(years: &[&str]) -> tempfile::TempDir {
    let dir = tempfile::tempdir().unwrap();
    let wthor = dir.path().join("wthor");
    std::fs::create_dir(&wthor).unwrap();
    for name in years.iter().chain(&["WTHOR.JOU", "WTHOR.TRN"]) {
        std::fs::copy(data(name), wthor.join(name)).unwrap();
    }
    dir
}

fn reversi() -> Command {
    Command::cargo_bin("reversi").expect("the reversi binary is built")
}

/// Where a symmetry takes the square `(col, row)`.
type SquareMap = fn(u8, u8) -> (u8, u8);
/// A game: its file's name and its index there.
type GameId = (String, usize);
/// The brute force's answer: each game's ply, the symmetries it reaches the position
/// under, and its next move turned back.
type Expected = BTreeMap<GameId, (usize, BTreeSet<String>, Option<String>)>;
/// `find`'s answer: each game's ply, symmetry and next move.
type Answer = BTreeMap<GameId, (usize, String, Option<String>)>;

/// The eight symmetries of the 8x8 board as square maps, by the names `find` gives them.
const SYMMETRIES: [(&str, SquareMap); 8] = [
    ("identity", |c, r| (c, r)),
    ("rotate90", |c, r| (7 - r, c)),
    ("rotate180", |c, r| (7 - c, 7 - r)),
    ("rotate270", |c, r| (r, 7 - c)),
    ("mirror-columns", |c, r| (7 - c, r)),
    ("mirror-rows", |c, r| (c, 7 - r)),
    ("diagonal", |c, r| (r, c)),
    ("anti-diagonal", |c, r| (7 - r, 7 - c)),
];

/// A position: Black's and White's squares, and whether Black is to move.
type Key = (u128, u128, bool);

fn map_set(f: SquareMap, set: SquareSet) -> u128 {
    let mut out = 0u128;
    for sq in set.iter() {
        let (c, r) = f(sq.col(), sq.row());
        out |= 1u128 << Square::new(c, r).unwrap().index();
    }
    out
}

fn map_key(f: SquareMap, key: Key) -> Key {
    (
        map_set(f, SquareSet(key.0)),
        map_set(f, SquareSet(key.1)),
        key.2,
    )
}

fn key_of(pos: &Position) -> Key {
    (
        pos.discs(Color::Black).0,
        pos.discs(Color::White).0,
        pos.turn() == Color::Black,
    )
}

/// The board string of a position, as `--board` reads it.
fn board_string(key: Key) -> String {
    let mut s = String::new();
    for r in 0..8 {
        for c in 0..8 {
            let bit = 1u128 << Square::new(c, r).unwrap().index();
            s.push(if key.0 & bit != 0 {
                'X'
            } else if key.1 & bit != 0 {
                'O'
            } else {
                '-'
            });
        }
    }
    s.push_str(if key.2 { " X" } else { " O" });
    s
}

/// One game of the brute force.
struct Game {
    file: String,
    index: usize,
    record: Record,
}

/// Every game of the files, and every position each reaches: position -> (game, ply,
/// next move as written or a pass inferred, `None` at the end).
struct Brute {
    games: Vec<Game>,
    positions: HashMap<Key, Vec<(usize, usize, Option<Move>)>>,
}

fn brute(dir: &Path, years: &[&str]) -> Brute {
    let mut games = Vec::new();
    for year in years {
        let path = dir.join(year);
        let options = ReadOptions {
            name: Arc::from(path.display().to_string()),
            path: Some(path.clone()),
            ..ReadOptions::default()
        };
        let reader = Box::new(BufReader::new(File::open(&path).unwrap()));
        for game in Format::Wthor.read(reader, &options) {
            let game = game.unwrap();
            if game.index == 0 {
                continue;
            }
            games.push(Game {
                file: year.to_string(),
                index: game.index,
                record: game.record.expect("a WTHOR record reads"),
            });
        }
    }
    let mut positions: HashMap<Key, Vec<(usize, usize, Option<Move>)>> = HashMap::new();
    for (g, game) in games.iter().enumerate() {
        let moves: Vec<Move> = game.record.moves.iter().map(|m| m.mv).collect();
        let mut pos = Position::new(Rules::default());
        let mut ply = 0;
        loop {
            let next = moves.get(ply).copied();
            let Some(mv) = next else {
                positions
                    .entry(key_of(&pos))
                    .or_default()
                    .push((g, ply, None));
                break;
            };
            let mut after = pos;
            if after.play(mv).is_ok() {
                positions
                    .entry(key_of(&pos))
                    .or_default()
                    .push((g, ply, Some(mv)));
                pos = after;
                ply += 1;
                continue;
            }
            if mv != Move::Pass && pos.must_pass() {
                // The pass the record leaves out: the position before it has a pass
                // next, the one after it the move.
                positions
                    .entry(key_of(&pos))
                    .or_default()
                    .push((g, ply, Some(Move::Pass)));
                pos.play(Move::Pass).unwrap();
                continue;
            }
            // An illegal move: nothing after it is a position of the game.
            positions
                .entry(key_of(&pos))
                .or_default()
                .push((g, ply, Some(mv)));
            break;
        }
    }
    Brute { games, positions }
}

impl Brute {
    /// The games that reach `target` in any orientation: (file, game) -> (ply, the
    /// names of the symmetries under which it is reached, next move turned back).
    fn answer(&self, target: Key) -> Expected {
        let mut out = Expected::new();
        for (name, f) in SYMMETRIES {
            let Some(list) = self.positions.get(&map_key(f, target)) else {
                continue;
            };
            for &(g, ply, next) in list {
                let game = &self.games[g];
                let back = next.map(|m| match m {
                    Move::Pass => "pass".to_string(),
                    Move::Place(sq) => {
                        // The square whose image under f is sq.
                        let (c, r) = (0..8u8)
                            .flat_map(|c| (0..8u8).map(move |r| (c, r)))
                            .find(|&(c, r)| f(c, r) == (sq.col(), sq.row()))
                            .unwrap();
                        Square::new(c, r).unwrap().name().to_string()
                    }
                });
                let entry = out.entry((game.file.clone(), game.index)).or_insert((
                    ply,
                    BTreeSet::new(),
                    back.clone(),
                ));
                assert_eq!(entry.0, ply, "one position, one ply in a game");
                entry.1.insert(name.to_string());
            }
        }
        out
    }

    /// The position of game `g` after `ply` moves (passes inferred), if it gets there.
    fn position_at(&self, g: usize, ply: usize) -> Option<Key> {
        self.positions
            .iter()
            .filter(|(_, list)| {
                list.iter()
                    .any(|&(game, p, next)| game == g && p == ply && next != Some(Move::Pass))
            })
            .map(|(k, _)| *k)
            .next()
    }
}

/// Runs `reversi find` with `args` and `--format jsonl -q`: the exit code and the
/// games, (file name, game) -> (ply, symmetry, next).
fn find(args: &[&str]) -> (i32, Answer) {
    let out = reversi()
        .arg("find")
        .args(args)
        .args(["--format", "jsonl", "-q"])
        .output()
        .unwrap();
    let code = out.status.code().unwrap();
    assert!(
        code <= 1,
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut games = BTreeMap::new();
    for line in String::from_utf8(out.stdout).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        let file = Path::new(v["file"].as_str().unwrap())
            .file_name()
            .unwrap()
            .to_string_lossy()
            .into_owned();
        let game = v["game"].as_u64().unwrap() as usize;
        let hit = (
            v["ply"].as_u64().unwrap() as usize,
            v["symmetry"].as_str().unwrap().to_string(),
            v["next"].as_str().map(str::to_string),
        );
        assert!(
            games.insert((file, game), hit).is_none(),
            "a game listed twice"
        );
    }
    (code, games)
}

/// Positions of real games at various plies: (game, ply), spread over the files.
fn sample(brute: &Brute) -> Vec<Key> {
    let mut keys = Vec::new();
    let plies = [0, 1, 3, 5, 8, 12, 16, 20, 23, 27, 34, 45];
    for (k, &ply) in plies.iter().enumerate() {
        let g = (k * 1193 + 7) % brute.games.len();
        let key = brute
            .position_at(g, ply)
            .unwrap_or_else(|| panic!("game {g} reaches ply {ply}"));
        keys.push(key);
    }
    keys
}

#[test]
fn the_games_found_are_the_brute_forces_in_every_orientation_with_and_without_the_index() {
    let dir = archive(&YEARS);
    let wthor = dir.path().join("wthor");
    let brute = brute(&wthor, &YEARS);
    assert_eq!(
        brute.games.len(),
        14_357,
        "data/SOURCES.md counts the games"
    );
    let folder = wthor.to_str().unwrap();
    let mut nonidentity = 0;
    let mut several = 0;
    for target in sample(&brute) {
        for (name, f) in SYMMETRIES {
            let image = map_key(f, target);
            let expected = brute.answer(image);
            assert!(!expected.is_empty(), "the position comes from a game");
            let board = board_string(image);
            let (code, scanned) = find(&[folder, "--board", &board]);
            let (icode, indexed) = find(&[folder, "--board", &board, "--index"]);
            assert_eq!(code, 0);
            assert_eq!(icode, 0);
            let games: BTreeSet<_> = scanned.keys().cloned().collect();
            let wanted: BTreeSet<_> = expected.keys().cloned().collect();
            assert_eq!(games, wanted, "{name} image of {}", board_string(target));
            assert_eq!(scanned, indexed, "with and without the index: {board}");
            for (game, (ply, symmetry, next)) in &scanned {
                let (want_ply, symmetries, want_next) = &expected[game];
                assert_eq!(ply, want_ply, "{game:?}");
                assert!(
                    symmetries.contains(symmetry),
                    "{game:?}: {symmetry} not in {symmetries:?}"
                );
                // The next move turned back by the symmetry reported; with several, the
                // brute force turned it back by the first of the set (by name order),
                // so compare only when there is one.
                if symmetries.len() == 1 {
                    assert_eq!(next, want_next, "{game:?}");
                } else {
                    several += 1;
                }
                if symmetry != "identity" {
                    nonidentity += 1;
                }
            }
        }
    }
    assert!(
        nonidentity > 1000,
        "the images are found under their symmetries ({nonidentity})"
    );
    assert!(several > 0, "symmetric positions are in the sample");
    // Without symmetries, only the position as given.
    let target = sample(&brute)[5];
    let image = map_key(SYMMETRIES[2].1, target);
    let (_, exact) = find(&[folder, "--board", &board_string(image), "--no-symmetry"]);
    let wanted: BTreeSet<_> = brute
        .positions
        .get(&image)
        .into_iter()
        .flatten()
        .map(|&(g, _, _)| (brute.games[g].file.clone(), brute.games[g].index))
        .collect();
    assert_eq!(exact.keys().cloned().collect::<BTreeSet<_>>(), wanted);
    assert!(exact.values().all(|h| h.1 == "identity"));
}

#[test]
fn a_transposition_is_found_from_either_move_order() {
    let dir = archive(&YEARS[..3]);
    let wthor = dir.path().join("wthor");
    let brute = brute(&wthor, &YEARS[..3]);
    // Two real games whose different move orders reach one position.
    let mut pair = None;
    'search: for (key, list) in &brute.positions {
        let discs = (key.0 | key.1).count_ones();
        if !(10..=20).contains(&discs) {
            continue;
        }
        for &(a, ply, _) in list {
            for &(b, _, _) in list {
                let moves = |g: usize| -> Vec<Move> {
                    brute.games[g].record.moves[..ply]
                        .iter()
                        .map(|m| m.mv)
                        .collect()
                };
                if a != b && moves(a) != moves(b) {
                    pair = Some((*key, moves(a), moves(b)));
                    break 'search;
                }
            }
        }
    }
    let (key, first, second) = pair.expect("the archive has transpositions");
    let text = |moves: &[Move]| moves.iter().map(|m| m.to_string()).collect::<String>();
    let folder = wthor.to_str().unwrap();
    let (_, by_first) = find(&[folder, "--moves", &text(&first), "--no-symmetry"]);
    let (_, by_second) = find(&[folder, "--moves", &text(&second), "--no-symmetry"]);
    assert_eq!(by_first, by_second);
    let wanted: BTreeSet<_> = brute.positions[&key]
        .iter()
        .map(|&(g, _, _)| (brute.games[g].file.clone(), brute.games[g].index))
        .collect();
    assert_eq!(by_first.keys().cloned().collect::<BTreeSet<_>>(), wanted);
    assert!(wanted.len() >= 2);
    // The query reads both orders as one board.
    let board = |moves: &str| {
        let out = reversi()
            .args(["find", folder, "--moves", moves, "--format", "json", "-q"])
            .output()
            .unwrap();
        let v: Value = serde_json::from_slice(&out.stdout).unwrap();
        v["query"]["board"].as_str().unwrap().to_string()
    };
    assert_eq!(board(&text(&first)), board(&text(&second)));
    assert_eq!(board(&text(&first)), board_string(key));
}

/// The explorer tree of a query, as JSON.
fn tree(args: &[&str]) -> Value {
    let out = reversi()
        .arg("find")
        .args(args)
        .args(["--explore", "--format", "json", "-q"])
        .output()
        .unwrap();
    assert!(
        out.status.code().unwrap() <= 1,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    serde_json::from_slice(&out.stdout).unwrap()
}

#[test]
fn the_explorer_tree_adds_up_and_counts_what_the_brute_force_counts() {
    let dir = archive(&YEARS);
    let wthor = dir.path().join("wthor");
    let brute = brute(&wthor, &YEARS);
    let folder = wthor.to_str().unwrap();
    let mut pos = Position::new(Rules::default());
    for sq in ["f5", "d6", "c3", "d3", "c4"] {
        pos.play(Move::Place(sq.parse().unwrap())).unwrap();
    }
    let tiger = key_of(&pos);
    let expected = brute.answer(tiger);
    for index in [false, true] {
        // The Tiger, rotated: the tree's moves are turned back to the query's orientation.
        let image = map_key(SYMMETRIES[1].1, tiger);
        let board = board_string(image);
        let mut args = vec![folder, "--board", board.as_str()];
        if index {
            args.push("--index");
        }
        let t = tree(&args);
        let moves = t["moves"].as_array().unwrap();
        let sum: u64 = moves.iter().map(|m| m["games"].as_u64().unwrap()).sum();
        assert_eq!(sum, t["continuing"].as_u64().unwrap());
        assert_eq!(
            sum + t["ended"].as_u64().unwrap(),
            t["games"].as_u64().unwrap()
        );
        assert_eq!(t["games"].as_u64().unwrap() as usize, expected.len());
        let share: f64 = moves.iter().map(|m| m["share"].as_f64().unwrap()).sum();
        assert!((share - 1.0).abs() < 1e-9, "{share}");
        for m in moves {
            let results = ["black_wins", "draws", "white_wins", "unknown"];
            let games: u64 = results.iter().map(|r| m[r].as_u64().unwrap()).sum();
            assert_eq!(games, m["games"].as_u64().unwrap());
        }
        // Each move's games, from the brute force: its next moves turned back, then
        // turned to the rotated query.
        let mut counts: BTreeMap<String, u64> = BTreeMap::new();
        let mut black_wins: BTreeMap<String, u64> = BTreeMap::new();
        for ((file, game), (_, _, next)) in &expected {
            let Some(next) = next else { continue };
            let turned = match next.as_str() {
                "pass" => "pass".to_string(),
                sq => {
                    let sq: Square = sq.parse().unwrap();
                    let (c, r) = (SYMMETRIES[1].1)(sq.col(), sq.row());
                    Square::new(c, r).unwrap().name().to_string()
                }
            };
            *counts.entry(turned.clone()).or_default() += 1;
            let g = brute
                .games
                .iter()
                .find(|g| &g.file == file && g.index == *game)
                .unwrap();
            if let Some(ResultScore::Discs(d)) = g.record.result.as_ref().map(|r| &r.score) {
                if d[0] > d[1] {
                    *black_wins.entry(turned).or_default() += 1;
                }
            }
        }
        let got: BTreeMap<String, u64> = moves
            .iter()
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["games"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, counts, "index: {index}");
        let got: BTreeMap<String, u64> = moves
            .iter()
            .filter(|m| m["black_wins"].as_u64().unwrap() > 0)
            .map(|m| {
                (
                    m["move"].as_str().unwrap().to_string(),
                    m["black_wins"].as_u64().unwrap(),
                )
            })
            .collect();
        assert_eq!(got, black_wins, "index: {index}");
        assert!(got.len() >= 3);
    }
}

#[test]
fn a_stale_index_is_detected_and_brought_up_to_date() {
    let dir = archive(&YEARS[..4]);
    let wthor = dir.path().join("wthor");
    let folder = wthor.to_str().unwrap();
    let index = dir.path().join("wthor.rrx");
    let run = |args: &[&str]| {
        let out = reversi().arg("find").args(args).output().unwrap();
        (
            out.status.code().unwrap(),
            String::from_utf8(out.stdout).unwrap(),
            String::from_utf8(out.stderr).unwrap(),
        )
    };
    let tiger = ["--moves", "f5d6c3d3c4", "--format", "jsonl"];
    let query = |extra: &[&str]| {
        let mut args = vec![folder];
        args.extend_from_slice(&tiger);
        args.extend_from_slice(extra);
        run(&args)
    };
    let (code, built, notes) = query(&["--index"]);
    assert_eq!(code, 0);
    assert!(index.exists());
    assert!(notes.contains("built:"), "{notes}");
    assert_eq!(built, query(&[]).1, "the index answers as the scan");
    let (_, _, notes) = query(&["--index"]);
    assert!(
        notes.contains("answered from the index") && !notes.contains("built:"),
        "{notes}"
    );

    // A file added: only it is read.
    std::fs::copy(data(YEARS[4]), wthor.join(YEARS[4])).unwrap();
    let (_, updated, notes) = query(&["--index"]);
    assert!(
        notes.contains("out of date (4 of its 4 files unchanged, 0 changed, 0 gone, 1 new)"),
        "{notes}"
    );
    assert!(notes.contains("4 files taken over"), "{notes}");
    assert_eq!(updated, query(&[]).1);
    assert_ne!(updated, built);

    // A file changed (another year's games under its name) and one gone.
    std::fs::copy(data(YEARS[4]), wthor.join(YEARS[0])).unwrap();
    std::fs::remove_file(wthor.join(YEARS[3])).unwrap();
    let (_, changed, notes) = query(&["--index"]);
    assert!(notes.contains("1 changed, 1 gone, 0 new"), "{notes}");
    assert_eq!(changed, query(&[]).1);
    assert!(changed.lines().count() < updated.lines().count());

    // Only touched: the same size, another time.
    let file = File::options()
        .write(true)
        .open(wthor.join(YEARS[1]))
        .unwrap();
    file.set_modified(
        std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_000_000),
    )
    .unwrap();
    drop(file);
    let (_, _, notes) = query(&["--index"]);
    assert!(notes.contains("1 changed"), "{notes}");

    // Not an index (cut short): rebuilt.
    let bytes = std::fs::read(&index).unwrap();
    std::fs::write(&index, &bytes[..bytes.len() / 2]).unwrap();
    let (code, rebuilt, notes) = query(&["--index"]);
    assert_eq!(code, 0);
    assert!(
        notes.contains("not a usable index") && notes.contains("built:"),
        "{notes}"
    );
    assert_eq!(rebuilt, changed);

    // Another depth: rebuilt; a position deeper than the index: scanned, same answer.
    let (_, _, notes) = query(&["--index", "--depth", "4"]);
    assert!(notes.contains("another depth"), "{notes}");
    let deep = ["--moves", "f5d6c3d3c4f4f6", "--format", "jsonl"];
    let mut args = vec![folder, "--index", "--depth", "4"];
    args.extend_from_slice(&deep);
    let (code, from_index, notes) = run(&args);
    assert_eq!(code, 0);
    assert!(notes.contains("more than the index's 8"), "{notes}");
    let mut args = vec![folder];
    args.extend_from_slice(&deep);
    assert_eq!(from_index, run(&args).1);
}

/// The games whose tags `keep` takes, by a plain loop over the records.
fn plain_filter(brute: &Brute, keep: impl Fn(&Record) -> bool) -> BTreeSet<GameId> {
    brute
        .games
        .iter()
        .filter(|g| keep(&g.record))
        .map(|g| (g.file.clone(), g.index))
        .collect()
}

#[test]
fn tag_queries_take_what_a_plain_filter_takes() {
    let dir = archive(&YEARS);
    let wthor = dir.path().join("wthor");
    let brute = brute(&wthor, &YEARS);
    let folder = wthor.to_str().unwrap();
    let tag = |r: &Record, name: &str| r.tag(name).unwrap_or("").to_lowercase();
    let keys = |m: Answer| -> BTreeSet<_> { m.into_keys().collect() };

    let (code, got) = find(&[folder, "--where", "Black~murakami"]);
    assert_eq!(code, 0);
    let want = plain_filter(&brute, |r| tag(r, "Black").contains("murakami"));
    assert!(want.len() > 10);
    assert_eq!(keys(got), want);

    let (_, either) = find(&[
        folder,
        "--where",
        "Black~murakami",
        "--where",
        "White~MURAKAMI",
    ]);
    let (_, player) = find(&[folder, "--where", "Player~Murakami"]);
    let want = plain_filter(&brute, |r| {
        tag(r, "Black").contains("murakami") || tag(r, "White").contains("murakami")
    });
    assert_eq!(keys(either), want);
    assert_eq!(keys(player), want);

    let (_, years) = find(&[folder, "--where", "Date>=1990,Date<2015"]);
    let year = |r: &Record| r.tag("Date").unwrap_or("0")[..4].parse::<u32>().unwrap();
    let want = plain_filter(&brute, |r| (1990..2015).contains(&year(r)));
    assert!(want.len() > 10_000);
    assert_eq!(keys(years), want);

    let (_, range) = find(&[folder, "--where", "TheoreticalScore=40..64|Event=French*"]);
    let score = |r: &Record| {
        r.tag("TheoreticalScore")
            .and_then(|s| s.parse::<i64>().ok())
    };
    let want = plain_filter(&brute, |r| {
        score(r).is_some_and(|s| (40..=64).contains(&s)) || tag(r, "Event").starts_with("french")
    });
    assert!(want.len() > 100);
    assert_eq!(keys(range), want);

    // A position and tags: both must hold.
    let (_, both) = find(&[folder, "--moves", "f5d6c3d3c4", "--where", "Date=2004"]);
    let mut pos = Position::new(Rules::default());
    for sq in ["f5", "d6", "c3", "d3", "c4"] {
        pos.play(Move::Place(sq.parse().unwrap())).unwrap();
    }
    let tiger: BTreeSet<_> = brute.answer(key_of(&pos)).into_keys().collect();
    let want: BTreeSet<_> = plain_filter(&brute, |r| r.tag("Date") == Some("2004"))
        .intersection(&tiger)
        .cloned()
        .collect();
    assert!(!want.is_empty());
    assert_eq!(keys(both.clone()), want);
    let (_, both_indexed) = find(&[
        folder,
        "--moves",
        "f5d6c3d3c4",
        "--where",
        "Date=2004",
        "--index",
    ]);
    assert_eq!(both_indexed, both);

    // Nothing found: exit 1; a query that does not read: exit 2.
    let (code, none) = find(&[folder, "--where", "Black~nobody-plays-here"]);
    assert_eq!((code, none.len()), (1, 0));
    let out = reversi()
        .args(["find", folder, "--moves", "f5f5"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("move 2, f5, is not legal"));
    let out = reversi()
        .args(["find", folder, "--where", "Black"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
}

#[test]
fn the_games_found_are_written_to_a_file_that_reads_back() {
    let dir = archive(&YEARS[2..3]);
    let wthor = dir.path().join("wthor");
    let folder = wthor.to_str().unwrap();
    let out_path = dir.path().join("tiger.rgn");
    let (_, found) = find(&[folder, "--moves", "f5d6c3d3c4", "--where", "Black~a"]);
    let out = reversi()
        .args([
            "find",
            folder,
            "--moves",
            "f5d6c3d3c4",
            "--where",
            "Black~a",
            "-o",
        ])
        .arg(&out_path)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stdout.is_empty(),
        "the games go to the file, not references"
    );
    let games = Format::Rgn
        .read_bytes(std::fs::read(&out_path).unwrap(), &ReadOptions::default())
        .unwrap();
    assert_eq!(games.len(), found.len());
    assert!(games.len() > 100);
    for game in &games {
        let record = game.record.as_ref().unwrap();
        assert!(record.tag("Black").unwrap().to_lowercase().contains('a'));
        let first: Vec<String> = record.moves[..5].iter().map(|m| m.mv.to_string()).collect();
        // WTHOR games start with f5; the Tiger's five moves in some order.
        let mut sorted = first.clone();
        sorted.sort();
        assert_eq!(sorted, ["c3", "c4", "d3", "d6", "f5"], "{first:?}");
    }
    // A WTHOR output, with its name files beside it.
    let wtb = dir.path().join("out").join("TIGER.wtb");
    std::fs::create_dir(wtb.parent().unwrap()).unwrap();
    let out = reversi()
        .args([
            "find",
            folder,
            "--moves",
            "f5d6c3d3c4",
            "-q",
            "--to",
            "wthor",
            "-o",
        ])
        .arg(&wtb)
        .output()
        .unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let (_, again) = find(&[wtb.to_str().unwrap(), "--moves", "f5d6c3d3c4"]);
    let (_, all) = find(&[folder, "--moves", "f5d6c3d3c4"]);
    assert_eq!(again.len(), all.len());
}

#[test]
fn a_pass_the_record_leaves_out_is_a_position_of_the_game() {
    let dir = archive(&YEARS);
    let wthor = dir.path().join("wthor");
    let brute = brute(&wthor, &YEARS);
    let folder = wthor.to_str().unwrap();
    // A real game with a pass WTHOR leaves out, and the positions before and after it.
    let (before, &(g, ply, _)) = brute
        .positions
        .iter()
        .flat_map(|(k, list)| list.iter().map(move |e| (*k, e)))
        .filter(|(_, e)| e.2 == Some(Move::Pass))
        .min_by_key(|(_, e)| (e.0, e.1))
        .expect("some WTHOR game has a pass");
    let after = (before.0, before.1, !before.2);
    let game = (brute.games[g].file.clone(), brute.games[g].index);
    let written = brute.games[g].record.moves[ply].mv.to_string();
    let (_, found) = find(&[folder, "--board", &board_string(before), "--no-symmetry"]);
    assert_eq!(
        found[&game],
        (ply, "identity".to_string(), Some("pass".to_string()))
    );
    let (_, found) = find(&[folder, "--board", &board_string(after), "--no-symmetry"]);
    assert_eq!(found[&game], (ply, "identity".to_string(), Some(written)));
    // An index of every placement holds it too.
    let (_, indexed) = find(&[
        folder,
        "--board",
        &board_string(after),
        "--no-symmetry",
        "--index",
        "--depth",
        "60",
    ]);
    assert_eq!(indexed, found);
}

#[test]
fn games_the_index_does_not_hold_are_read_from_their_files() {
    let tmp = tempfile::tempdir().unwrap();
    // The index goes beside the folder: ggf.rrx.
    let dir = tmp.path().join("ggf");
    std::fs::create_dir(&dir).unwrap();
    let ggf = Path::new(env!("CARGO_MANIFEST_DIR")).join("data/ggf");
    for name in [
        "nboard_test.ggf",
        "nboard_test2.ggf",
        "novello_TestGames.ggf",
    ] {
        std::fs::copy(ggf.join(name), dir.join(name)).unwrap();
    }
    // The 8x8 game of a random start (`TY[8kr20]`): a start of its own, not indexed.
    let text = std::fs::read(dir.join("nboard_test2.ggf")).unwrap();
    let games = Format::Ggf
        .read_bytes(text, &ReadOptions::default())
        .unwrap();
    let (index, record) = games
        .iter()
        .filter_map(|g| Some((g.index, g.record.as_ref()?)))
        .find(|(_, r)| r.start.is_some() && r.rules.board() == reversi_engine::BoardShape::Eight)
        .expect("the random-start game");
    let mut pos = record.start_position().unwrap();
    for m in &record.moves[..3] {
        pos.play(m.mv).unwrap();
    }
    let board = board_string(key_of(&pos));
    let folder = dir.to_str().unwrap();
    let (code, scanned) = find(&[folder, "--board", &board]);
    assert_eq!(code, 0);
    assert_eq!(scanned[&("nboard_test2.ggf".to_string(), index)].0, 3);
    let out = reversi()
        .args([
            "find", folder, "--board", &board, "--index", "--format", "jsonl",
        ])
        .output()
        .unwrap();
    let notes = String::from_utf8_lossy(&out.stderr);
    assert!(notes.contains("2 of them not indexed"), "{notes}");
    assert!(notes.contains("answered from the index"), "{notes}");
    let (_, indexed) = find(&[folder, "--board", &board, "--index"]);
    assert_eq!(indexed, scanned);
    // And the indexed games of the same files, through the index.
    let (_, scanned) = find(&[folder, "--moves", "f5d6"]);
    let (_, indexed) = find(&[folder, "--moves", "f5d6", "--index"]);
    assert!(scanned.len() >= 5);
    assert_eq!(indexed, scanned);
}
