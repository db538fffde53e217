//! Engine benchmarks: perft leaves per second (serial, and split across threads by
//! `Position::perft_jobs`), and the checked replay of random games per variant (time per
//! move: `Position::play`, and `Position::play_with_flips`, which also hands back the
//! flipped squares, on 8x8).

use criterion::{black_box, criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use reversi_engine::{Finished, Move, Position, Rules};

/// A small deterministic generator (xorshift64*), so every run replays the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// Random complete games under `rules`, passes written out.
fn random_games(rules: Rules, count: usize, seed: u64) -> Vec<Vec<Move>> {
    let mut rng = Rng(seed);
    (0..count)
        .map(|_| {
            let mut pos = Position::new(rules);
            let mut moves = Vec::new();
            while !pos.is_over() {
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                let mv = if legal.is_empty() {
                    Move::Pass
                } else {
                    Move::Place(legal[rng.below(legal.len())])
                };
                pos.play(mv).expect("generated moves are legal");
                moves.push(mv);
            }
            moves
        })
        .collect()
}

/// The deep 8x8 counts the test suite cannot afford, checked once here before timing
/// (OEIS A124004; the Bik convention counts finished games at depth 10).
fn deep_perft_is_right() {
    let pos = Position::new(Rules::default());
    assert_eq!(pos.perft(10, Finished::Ignored), 24_571_056);
    assert_eq!(pos.perft(10, Finished::Counted), 24_571_284);
    assert_eq!(pos.perft(11, Finished::Ignored), 212_258_216);
}

fn perft(c: &mut Criterion) {
    deep_perft_is_right();
    let mut group = c.benchmark_group("perft");
    group.sample_size(10);
    for (rules, depth) in [
        ("othello", 11),
        ("othello", 9),
        ("othello:6x6", 9),
        ("othello:10x10", 7),
        ("multi3", 6),
        ("anti", 9),
    ] {
        let rules: Rules = rules.parse().expect("rules");
        let pos = Position::new(rules);
        let leaves = pos.perft(depth, Finished::Ignored);
        group.throughput(Throughput::Elements(leaves));
        group.bench_function(BenchmarkId::new(rules.to_string(), depth), |b| {
            b.iter(|| black_box(&pos).perft(depth, Finished::Ignored))
        });
    }
    group.finish();
}

/// Serial perft against `perft_jobs` on 1 and 2 threads, on the standard start at depth 10
/// (24,571,056 leaves, about 0.1 s on one core): the speedup is the ratio of the two times.
fn perft_jobs(c: &mut Criterion) {
    const DEPTH: u32 = 10;
    let pos = Position::new(Rules::default());
    let leaves = pos.perft(DEPTH, Finished::Ignored);
    assert_eq!(pos.perft_jobs(DEPTH, Finished::Ignored, 2), leaves);
    let mut group = c.benchmark_group("perft-jobs");
    group.sample_size(10);
    group.throughput(Throughput::Elements(leaves));
    group.bench_function(BenchmarkId::new("serial", DEPTH), |b| {
        b.iter(|| black_box(&pos).perft(DEPTH, Finished::Ignored))
    });
    for jobs in [1, 2] {
        group.bench_function(BenchmarkId::new(format!("jobs-{jobs}"), DEPTH), |b| {
            b.iter(|| black_box(&pos).perft_jobs(DEPTH, Finished::Ignored, jobs))
        });
    }
    group.finish();
}

fn replay(c: &mut Criterion) {
    let mut group = c.benchmark_group("replay");
    for rules in [
        "othello",
        "othello:10x10",
        "othello:octagon",
        "anti",
        "classic",
        "multi3",
        "multi4:10x10",
    ] {
        let rules: Rules = rules.parse().expect("rules");
        let games = random_games(rules, 200, 0x5eed);
        let moves: usize = games.iter().map(Vec::len).sum();
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(BenchmarkId::from_parameter(rules), |b| {
            b.iter(|| {
                for game in &games {
                    let mut pos = Position::new(rules);
                    for &mv in game {
                        black_box(pos.play(mv).ok());
                    }
                    black_box(pos.outcome());
                }
            })
        });
        if rules == Rules::default() {
            // The same replay, also handing back each move's flipped squares.
            group.bench_function("othello-with-flips", |b| {
                b.iter(|| {
                    for game in &games {
                        let mut pos = Position::new(rules);
                        for &mv in game {
                            black_box(pos.play_with_flips(mv).ok());
                        }
                        black_box(pos.outcome());
                    }
                })
            });
        }
    }
    group.finish();
}

criterion_group!(benches, perft, perft_jobs, replay);
criterion_main!(benches);
