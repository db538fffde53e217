//! The benchmark sample under `benches/data/`: our own games, not copied from anywhere.
//!
//! `sample.wtb` (WTHOR) and `sample.rgn` hold the same 300 random complete 8x8 games,
//! generated from a fixed seed with the crate's engine and written with its writers. This
//! test regenerates them and checks the committed files are exactly that; run it with
//! `BLESS_BENCH_DATA=1` to write them after a deliberate change.

use std::path::Path;

use reversi_check::validate::validate_game;
use reversi_engine::{Color, Move, Position, Rules};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, TagName};
use reversi_formats::{Format, ReadOptions, WriteOptions};

/// Games in the sample.
const GAMES: usize = 300;

/// A small deterministic generator (xorshift64*), so every run makes the same games.
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        (self.0.wrapping_mul(0x2545_f491_4f6c_dd1d) >> 33) as usize % n
    }
}

/// `GAMES` random complete 8x8 games with their results (passes left to be inferred, as
/// WTHOR stores them).
fn sample_records() -> Vec<Record> {
    let mut rng = Rng(0x00be_0c4d_a7a5);
    (0..GAMES)
        .map(|_| {
            let rules = Rules::default();
            let mut pos = Position::new(rules);
            let mut record = Record::new(rules);
            while !pos.is_over() {
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                let mv = if legal.is_empty() {
                    Move::Pass
                } else {
                    Move::Place(legal[rng.below(legal.len())])
                };
                pos.play(mv).expect("generated moves are legal");
                if mv != Move::Pass {
                    record.moves.push(MoveRecord::new(mv));
                }
            }
            let outcome = pos.outcome().expect("the game is over");
            record.result = Some(ClaimedResult::discs(outcome.score[..2].to_vec()));
            record
        })
        .collect()
}

/// The RGN form names the games, which WTHOR keeps in its name files instead.
fn with_tags(records: &[Record]) -> Vec<Record> {
    records
        .iter()
        .enumerate()
        .map(|(i, r)| {
            let mut r = r.clone();
            r.set_tag(TagName::EVENT, "reversi-record benchmark sample");
            r.set_tag(TagName::ROUND, (i + 1).to_string());
            r.set_tag(TagName::player(Color::Black), format!("Player {}", i % 17));
            r.set_tag(
                TagName::player(Color::White),
                format!("Player {}", (i * 7 + 3) % 17),
            );
            r
        })
        .collect()
}

#[test]
fn the_committed_sample_is_what_the_generator_makes() {
    let records = sample_records();
    // The header's creation date is the sample's own, not today's, so that the bytes stay
    // the same from day to day.
    let dated: Vec<_> = records
        .iter()
        .map(|r| {
            let mut r = r.clone();
            r.set_tag(TagName::WTHOR_CREATED, "2026-11-30");
            r
        })
        .collect();
    // The games are undated: the file is filed under the sample's year.
    let filed = WriteOptions {
        year: Some(2026),
        ..WriteOptions::default()
    };
    let (wtb, dropped) = Format::Wthor
        .write_bytes(&dated, &filed)
        .expect("WTHOR holds the sample");
    assert!(dropped.is_empty(), "{dropped:?}");
    let (rgn, dropped) = Format::Rgn
        .write_bytes(&with_tags(&records), &WriteOptions::default())
        .expect("RGN holds the sample");
    assert!(dropped.is_empty(), "{dropped:?}");
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data");
    if std::env::var_os("BLESS_BENCH_DATA").is_some() {
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join("sample.wtb"), &wtb).unwrap();
        std::fs::write(dir.join("sample.rgn"), &rgn).unwrap();
    }
    assert_eq!(std::fs::read(dir.join("sample.wtb")).unwrap(), wtb);
    assert_eq!(std::fs::read(dir.join("sample.rgn")).unwrap(), rgn);
    // Every game reads back and validates clean from both files.
    for (format, bytes) in [(Format::Wthor, wtb), (Format::Rgn, rgn)] {
        let games = format.read_bytes(bytes, &ReadOptions::default()).unwrap();
        assert_eq!(games.len(), GAMES, "{format}");
        for g in &games {
            let found = validate_game(g, &[] as &[&str]);
            assert!(found.is_empty(), "{format} game {}: {found:?}", g.index);
        }
    }
}
