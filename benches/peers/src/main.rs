//! WTHOR validation with crates.io's `wthor` (reader) and `magpie` (rules), as a user of
//! those crates would write it: the peer figure for `reversi validate` on WTHOR files.
//!
//! Reads every `.wtb` file named (or found in a directory named) into memory, then, several
//! times, parses each file with `wthor::parse` and replays every game with
//! `magpie::othello::Game`, passing where the side to move has no move (WTHOR omits passes)
//! and checking that each move is legal; a legal game that ends with the game over and
//! the recorded score (Black's discs, empty squares to the winner) is counted valid. Prints
//! the counts and the best run in games per second, and the best run of the parse alone.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use magpie::othello::{Game as Board, Position, Stone};
use wthor::game_archive::{BoardSize, GameArchive};

/// What one pass over the files found.
#[derive(Default, Debug, PartialEq, Eq, Clone, Copy)]
struct Counts {
    /// Games read.
    games: u64,
    /// Games whose every move was legal.
    legal: u64,
    /// Legal games that end with neither side able to move.
    finished: u64,
    /// Finished games with the recorded score.
    valid: u64,
    /// 10x10 games, which magpie cannot replay.
    skipped: u64,
    /// Files the `wthor` crate refused (all their games are lost).
    refused_files: u64,
}

fn main() {
    let mut runs = 10;
    let mut paths = Vec::new();
    let mut args = std::env::args().skip(1);
    while let Some(arg) = args.next() {
        if arg == "--runs" {
            runs = args
                .next()
                .and_then(|n| n.parse().ok())
                .filter(|&n| n > 0)
                .unwrap_or_else(|| usage("--runs takes a positive number"));
        } else if arg.starts_with('-') {
            usage(&format!("unknown option {arg}"));
        } else {
            paths.push(PathBuf::from(arg));
        }
    }
    if paths.is_empty() {
        usage("name WTHOR files or directories");
    }
    let files = read_all(&paths);
    let bytes: usize = files.iter().map(|(_, b)| b.len()).sum();
    println!(
        "{} WTHOR files, {:.1} MB in memory",
        files.len(),
        bytes as f64 / 1e6
    );
    let mut best = Duration::MAX;
    let mut counts = Counts::default();
    for _ in 0..runs {
        let start = Instant::now();
        let run = validate(&files);
        best = best.min(start.elapsed());
        counts = run;
    }
    let mut parse_best = Duration::MAX;
    for _ in 0..runs {
        let start = Instant::now();
        let games: usize = files
            .iter()
            .filter_map(|(_, bytes)| wthor::parse::<GameArchive>(bytes).ok())
            .map(|archive| archive.games.len())
            .sum();
        parse_best = parse_best.min(start.elapsed());
        assert_eq!(
            games as u64, counts.games,
            "the same games as the full runs"
        );
    }
    println!(
        "{} games: {} all moves legal, {} of them finished, {} of those with the recorded score; \
         {} 10x10 skipped, {} files refused",
        counts.games,
        counts.legal,
        counts.finished,
        counts.valid,
        counts.skipped,
        counts.refused_files
    );
    println!(
        "best of {runs} runs: {:.2} ms, {:.0} K games/s (wthor parse + magpie replay, one thread)",
        best.as_secs_f64() * 1e3,
        counts.games as f64 / best.as_secs_f64() / 1e3
    );
    println!(
        "of which wthor::parse alone: {:.2} ms, {:.0} K games/s",
        parse_best.as_secs_f64() * 1e3,
        counts.games as f64 / parse_best.as_secs_f64() / 1e3
    );
}

fn usage(problem: &str) -> ! {
    eprintln!("error: {problem}\nusage: wthor-magpie [--runs N] WTB_FILE_OR_DIR...");
    std::process::exit(2);
}

/// Every `.wtb` file named or inside a directory named, read into memory, sorted by path.
fn read_all(paths: &[PathBuf]) -> Vec<(PathBuf, Vec<u8>)> {
    let mut names = Vec::new();
    for path in paths {
        if path.is_dir() {
            let entries = std::fs::read_dir(path)
                .unwrap_or_else(|e| usage(&format!("{}: {e}", path.display())));
            names.extend(
                entries
                    .filter_map(|e| e.ok())
                    .map(|e| e.path())
                    .filter(|p| is_wtb(p)),
            );
        } else {
            names.push(path.clone());
        }
    }
    names.sort();
    names
        .into_iter()
        .map(|p| {
            let bytes =
                std::fs::read(&p).unwrap_or_else(|e| usage(&format!("{}: {e}", p.display())));
            (p, bytes)
        })
        .collect()
}

fn is_wtb(path: &Path) -> bool {
    path.extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("wtb"))
}

/// One pass: parse every file and replay every game.
fn validate(files: &[(PathBuf, Vec<u8>)]) -> Counts {
    let mut counts = Counts::default();
    for (_, bytes) in files {
        let Ok(archive) = wthor::parse::<GameArchive>(bytes) else {
            counts.refused_files += 1;
            continue;
        };
        counts.games += archive.games.len() as u64;
        if archive.metadata.board_size != BoardSize::EightSquared {
            counts.skipped += archive.games.len() as u64;
            continue;
        }
        for game in &archive.games {
            if let Some(board) = replay(game) {
                counts.legal += 1;
                if let Some(score) = final_score(&board) {
                    counts.finished += 1;
                    counts.valid += u64::from(score == game.real_score);
                }
            }
        }
    }
    counts
}

/// Replays a game, passing when the side to move has no move; `None` at the first illegal
/// move.
fn replay(game: &wthor::game_archive::Game) -> Option<Board> {
    let mut board = Board::new();
    for square in &game.moves {
        if board.moves().is_empty() {
            board.pass_turn();
        }
        let pos = Position::try_from((square.rank, square.file)).ok()?;
        board.play(pos).ok()?;
    }
    Some(board)
}

/// Black's score, with the empty squares given to the winner (split on a draw), once the
/// game is over (neither side can move).
fn final_score(board: &Board) -> Option<u8> {
    let b = board.board();
    if !b.moves_for(Stone::Black).is_empty() || !b.moves_for(Stone::White).is_empty() {
        return None;
    }
    let black = b.bits_for(Stone::Black).count_set();
    let white = b.bits_for(Stone::White).count_set();
    let empty = 64 - black - white;
    let score = match black.cmp(&white) {
        std::cmp::Ordering::Greater => black + empty,
        std::cmp::Ordering::Less => black,
        std::cmp::Ordering::Equal => black + empty / 2,
    };
    Some(score)
}
