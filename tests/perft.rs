//! Perft against independent oracles: the project's fixture table (from the issue and OEIS
//! A124004) and the perft table of the repository's real data, `data/perft/` (see
//! `data/SOURCES.md`).

mod common;

use common::Rng;
use reversi_engine::{Finished, Move, Position, Rules};

/// A count of the table: a number, or `-` for unknown.
fn count(text: &str) -> Option<u64> {
    (text != "-").then(|| text.parse().expect("a count is a number or `-`"))
}

/// Checks one row; a count written `-` is not known from an independent source.
fn check(rules: &str, depth: u32, finished_zero: Option<u64>, finished_one: Option<u64>) {
    let rules: Rules = rules.parse().expect("fixture rules parse");
    let pos = Position::new(rules);
    if let Some(leaves) = finished_zero {
        assert_eq!(
            pos.perft(depth, Finished::Ignored),
            leaves,
            "{rules} depth {depth}"
        );
    }
    if let Some(leaves) = finished_one {
        assert_eq!(
            pos.perft(depth, Finished::Counted),
            leaves,
            "{rules} depth {depth} (count finished)"
        );
    }
}

#[test]
fn fixture_table() {
    let table = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/fixtures/perft/standard.perft"
    ))
    .expect("fixture exists");
    let mut rows = 0;
    for line in table
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        check(f[0], f[1].parse().unwrap(), count(f[2]), count(f[3]));
        rows += 1;
    }
    assert!(rows >= 16);
}

/// The rows of the perft table of `data/perft` (depth, leaves counting finished games,
/// leaves ignoring them) from depth 0 to `max_depth`; a missing table fails the test.
fn data_table(max_depth: u64) -> Vec<[u64; 3]> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/data/perft/othello_8x8_perft.csv"
    );
    let table = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let rows = table.lines().skip(1).map(|line| {
        let f: Vec<u64> = line.split(',').map(|x| x.trim().parse().unwrap()).collect();
        [f[0], f[1], f[2]]
    });
    let rows: Vec<_> = rows.take_while(|row| row[0] <= max_depth).collect();
    assert_eq!(
        rows.len() as u64,
        max_depth + 1,
        "{path}: depths 0 to {max_depth}"
    );
    rows
}

#[test]
fn data_table_to_depth_9() {
    let table = data_table(9);
    let pos = Position::new(Rules::default());
    for [depth, counted, ignored] in table {
        assert_eq!(
            pos.perft(depth as u32, Finished::Counted),
            counted,
            "depth {depth}"
        );
        assert_eq!(
            pos.perft(depth as u32, Finished::Ignored),
            ignored,
            "depth {depth}"
        );
    }
}

/// Every variant, with a depth whose tree stays small in a debug build.
const VARIANTS: [(&str, u32); 13] = [
    ("othello", 7),
    ("othello:6x6", 7),
    ("othello:4x4", 11),
    ("othello:10x10", 6),
    ("othello:octagon", 6),
    ("anti", 7),
    ("free", 7),
    ("free:4x4", 10),
    ("othello:6x6,blocked=c1+d6", 7),
    ("othello,handicap=white:2", 7),
    ("classic", 7),
    ("multi3", 5),
    ("multi4:10x10", 5),
];

const CONVENTIONS: [Finished; 2] = [Finished::Ignored, Finished::Counted];

/// `perft_jobs` on 1, 2 and 3 threads counts what the serial perft counts, in every variant,
/// from depth 0 (no split) past the depth where the split starts (5).
#[test]
fn parallel_equals_serial_from_the_start() {
    for (rules, depth) in VARIANTS {
        let pos = Position::new(rules.parse().expect("rules parse"));
        for d in (0..=depth).filter(|d| *d <= 2 || *d >= 5) {
            for finished in CONVENTIONS {
                let serial = pos.perft(d, finished);
                for jobs in [1, 2, 3] {
                    assert_eq!(
                        pos.perft_jobs(d, finished, jobs),
                        serial,
                        "{rules} depth {d} {finished:?} jobs {jobs}"
                    );
                }
            }
        }
    }
}

/// Near the end of random games the split itself meets passes and finished games: the
/// parallel count still equals the serial one, in every variant and both conventions.
#[test]
fn parallel_equals_serial_at_the_end_of_games() {
    let mut rng = Rng::new(0x9e37_79b9_7f4a_7c15);
    let mut passes = 0;
    let mut apart = 0;
    for (rules, _) in VARIANTS {
        for _ in 0..3 {
            let mut pos = Position::new(rules.parse().expect("rules parse"));
            while !pos.is_over() {
                if pos.empty().len() <= 9 {
                    for finished in CONVENTIONS {
                        let serial = pos.perft(6, finished);
                        for jobs in [2, 3] {
                            assert_eq!(
                                pos.perft_jobs(6, finished, jobs),
                                serial,
                                "{rules} {finished:?} jobs {jobs} at\n{pos}"
                            );
                        }
                    }
                    if pos.perft(6, Finished::Ignored) != pos.perft(6, Finished::Counted) {
                        apart += 1;
                    }
                }
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                let mv = if legal.is_empty() {
                    passes += 1;
                    Move::Pass
                } else {
                    Move::Place(legal[rng.below(legal.len())])
                };
                pos.play(mv).expect("a legal move");
            }
        }
    }
    // The positions did test what they are here for.
    assert!(apart > 20, "{apart} positions where the conventions differ");
    assert!(passes > 0, "no pass in the games");
}

#[test]
fn parallel_matches_the_data_table() {
    let table = data_table(8);
    let pos = Position::new(Rules::default());
    assert_eq!(table.len(), 9);
    for [depth, counted, ignored] in table {
        for jobs in [1, 2, 3] {
            let depth = depth as u32;
            assert_eq!(
                pos.perft_jobs(depth, Finished::Counted, jobs),
                counted,
                "depth {depth} jobs {jobs}"
            );
            assert_eq!(
                pos.perft_jobs(depth, Finished::Ignored, jobs),
                ignored,
                "depth {depth} jobs {jobs}"
            );
        }
    }
}

/// Every thread count gives the same count, including 0 (one per core) and more threads
/// than subtrees.
#[test]
fn any_thread_count_gives_the_same_count() {
    let pos = Position::new("othello:6x6".parse().expect("rules parse"));
    for jobs in [0, 4, 7, 64, 1000] {
        assert_eq!(
            pos.perft_jobs(7, Finished::Ignored, jobs),
            47_740,
            "jobs {jobs}"
        );
    }
}
