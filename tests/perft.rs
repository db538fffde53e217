//! Perft against independent oracles: the project's fixture table (from the issue and OEIS
//! A124004) and, when present, the shared perft table `../shared/data/perft/`.

use reversi_record::{Finished, Position, Rules};

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

#[test]
fn shared_table_to_depth_9() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/perft/othello_8x8_perft.csv"
    );
    let Ok(table) = std::fs::read_to_string(path) else {
        eprintln!("skipped: {path} not found");
        return;
    };
    let pos = Position::new(Rules::default());
    for line in table.lines().skip(1) {
        let f: Vec<u64> = line.split(',').map(|x| x.trim().parse().unwrap()).collect();
        if f[0] > 9 {
            break;
        }
        assert_eq!(
            pos.perft(f[0] as u32, Finished::Counted),
            f[1],
            "depth {}",
            f[0]
        );
        assert_eq!(
            pos.perft(f[0] as u32, Finished::Ignored),
            f[2],
            "depth {}",
            f[0]
        );
    }
}
