//! Repair benchmark: 250 real games of `WTH_2015.wtb` (in `data/wthor`, or in the folder of
//! WTHOR files `REVERSI_ARCHIVE` names), each with one
//! or two errors of the kinds score sheets have (two adjacent moves swapped, a square
//! misread as a neighbour or with a confused digit or letter, a move left out or written
//! twice), kept only when validation detects them; `repair_record` with the default two
//! edits over all of them, on one core. Without the file the benchmark stops with its name.

use criterion::{black_box, criterion_group, criterion_main, Criterion, Throughput};
use reversi_check::repair::{repair_record, RepairOptions, Status};
use reversi_check::validate::validate_record;
use reversi_engine::{Move, Square};
use reversi_formats::record::{MoveRecord, Record};
use reversi_formats::{Format, ReadOptions};

#[allow(dead_code)]
#[path = "archive/mod.rs"]
mod archive;

/// A small deterministic generator (splitmix64).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) % n as u64) as usize
    }
}

/// One error at a random place: `false` when the drawn kind does not apply there.
fn corrupt(moves: &mut Vec<Move>, rng: &mut Rng) -> bool {
    let i = rng.below(moves.len() - 2);
    let Move::Place(sq) = moves[i] else {
        return false;
    };
    let (c, r) = (sq.col(), sq.row());
    let to = |c: u8, r: u8| {
        Square::new(c, r)
            .filter(|_| c < 8 && r < 8)
            .map(Move::Place)
    };
    let replaced = match rng.below(6) {
        0 => {
            if moves[i] == moves[i + 1] {
                return false;
            }
            moves.swap(i, i + 1);
            return true;
        }
        1 => to(c, r + 1).or(to(c, r.wrapping_sub(1))),
        2 => match r + 1 {
            6 => to(c, 7),
            8 => to(c, 5),
            1 => to(c, 6),
            7 => to(c, 0),
            _ => None,
        },
        3 => match c {
            2 => to(4, r),
            4 => to(2, r),
            0 => to(3, r),
            3 => to(0, r),
            _ => None,
        },
        4 => {
            moves.remove(i);
            return true;
        }
        _ => {
            moves.insert(i + 1, moves[i]);
            return true;
        }
    };
    match replaced {
        Some(mv) => {
            moves[i] = mv;
            true
        }
        None => false,
    }
}

/// 250 corrupted copies of real games.
fn corrupted_games() -> Vec<Record> {
    let path = archive::wthor_dir().join("WTH_2015.wtb");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!(
            "{}: {e} (REVERSI_ARCHIVE names a folder of WTHOR files; unset, data/wthor)",
            path.display()
        )
    });
    let games: Vec<Record> = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap_or_default()
        .into_iter()
        .filter_map(|g| g.record)
        .filter(|r| r.moves.len() >= 20 && validate_record(r, 1).diagnostics.is_empty())
        .collect();
    assert!(
        !games.is_empty(),
        "{}: no finished valid game",
        path.display()
    );
    let mut rng = Rng(250);
    let mut out = Vec::new();
    while out.len() < 250 && !games.is_empty() {
        let record = &games[rng.below(games.len())];
        let mut moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        let errors = 1 + rng.below(2);
        if !(0..errors).all(|_| corrupt(&mut moves, &mut rng)) {
            continue;
        }
        let mut corrupted = record.clone();
        corrupted.moves = moves.into_iter().map(MoveRecord::new).collect();
        if validate_record(&corrupted, 1).errors() > 0 {
            out.push(corrupted);
        }
    }
    out
}

fn bench(c: &mut Criterion) {
    let games = corrupted_games();
    let options = RepairOptions::default();
    let repaired = games
        .iter()
        .filter(|g| repair_record(g, &options).status == Status::Repaired)
        .count();
    eprintln!("{} games, {repaired} repaired", games.len());
    let mut group = c.benchmark_group("repair");
    group.sample_size(10);
    group.throughput(Throughput::Elements(games.len() as u64));
    group.bench_function("250-games-up-to-2-errors", |b| {
        b.iter(|| {
            for g in &games {
                black_box(repair_record(black_box(g), &options));
            }
        })
    });
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
