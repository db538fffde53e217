//! Datasets: the arrays of `dataset::Batch` equal the engine's replay position by position,
//! on the quick board (standard Othello) and on the engine (every other variant, and
//! whenever legal-move masks are asked for), on fixtures and the WTHOR years of `data/wthor`.

use std::path::Path;

use reversi_check::validate::with_explicit_passes;
use reversi_engine::{Move, Square};
use reversi_formats::record::Record;
use reversi_formats::{Format, ReadOptions};
use reversi_runs::dataset::{cell_code, Arrays, Batch, Options, PAD, PASS};
use reversi_runs::pipeline::view::{GameReader, Input};

fn records(path: &Path) -> Vec<Record> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let format = path
        .extension()
        .and_then(|e| Format::from_extension(&e.to_string_lossy()))
        .unwrap_or(Format::Rgn);
    let options = ReadOptions {
        path: Some(path.to_path_buf()),
        ..ReadOptions::default()
    };
    format
        .read_bytes(bytes, &options)
        .expect("readable")
        .into_iter()
        .filter_map(|g| g.record)
        .collect()
}

/// Every array of `arrays` checked against a replay of `records` with the engine.
fn check(records: &[Record], arrays: &Arrays, options: Options) {
    let side = arrays.side;
    let positions = arrays.plies + 1;
    let cells = side * side;
    assert_eq!(arrays.games, records.len());
    for (g, record) in records.iter().enumerate() {
        let explicit = with_explicit_passes(record);
        let moves: Vec<Move> = explicit.moves.iter().map(|m| m.mv).collect();
        for (k, mv) in moves.iter().enumerate() {
            let want = match mv {
                Move::Pass => PASS,
                Move::Place(sq) => (sq.row() as usize * side + sq.col() as usize) as i16,
            };
            assert_eq!(
                arrays.moves[g * arrays.plies + k],
                want,
                "game {g} move {k}"
            );
        }
        assert!(
            arrays.moves[g * arrays.plies + moves.len()..(g + 1) * arrays.plies]
                .iter()
                .all(|&m| m == PAD)
        );
        let Ok(mut pos) = explicit.start_position() else {
            assert_eq!(arrays.lengths[g], 0);
            continue;
        };
        let mut played = 0;
        loop {
            let at = g * positions + played;
            let turn = if played == moves.len() && pos.is_over() {
                PAD as i8
            } else {
                pos.turn().index() as i8
            };
            assert_eq!(arrays.turn[at], turn, "game {g} position {played}");
            if let Some(boards) = &arrays.boards {
                for row in 0..side {
                    for col in 0..side {
                        let cell = pos.cell(Square::new(col as u8, row as u8).unwrap());
                        let i = row * side + col;
                        if options.planes {
                            for c in 0..arrays.colors {
                                let want = i8::from(cell_code(cell) == c as i8 + 1);
                                assert_eq!(boards[(at * arrays.colors + c) * cells + i], want);
                            }
                        } else {
                            let got = boards[at * cells + i];
                            assert_eq!(
                                got,
                                cell_code(cell),
                                "game {g} position {played} square {i}"
                            );
                        }
                    }
                }
            }
            if let Some(legal) = &arrays.legal {
                let mask = pos.legal_moves();
                for row in 0..side {
                    for col in 0..side {
                        let sq = Square::new(col as u8, row as u8).unwrap();
                        assert_eq!(legal[at * cells + row * side + col], mask.contains(sq));
                    }
                }
            }
            match moves.get(played) {
                Some(mv) if pos.play(*mv).is_ok() => played += 1,
                _ => break,
            }
        }
        assert_eq!(arrays.lengths[g] as usize, played, "game {g}");
        assert_eq!(arrays.valid[g], played == moves.len());
        assert_eq!(arrays.over[g], pos.is_over());
        let o = pos.counts_outcome();
        let margin = if pos.is_over() {
            o.margin()
        } else {
            o.discs[0] as i32 - o.discs[1] as i32
        };
        assert_eq!(arrays.margin[g], margin as i16);
        // Past the game: padding.
        let end = (g * positions + played + 1)
            * if options.planes {
                arrays.colors * cells
            } else {
                cells
            };
        if let Some(boards) = &arrays.boards {
            let stop = (g + 1)
                * positions
                * if options.planes {
                    arrays.colors * cells
                } else {
                    cells
                };
            assert!(
                boards[end..stop].iter().all(|&c| c == 0),
                "game {g}: padding"
            );
        }
    }
}

fn build(records: &[Record], options: Options, jobs: usize) -> Arrays {
    let mut batch = Batch::new();
    for r in records {
        batch.push_record(r);
    }
    batch.build(options, jobs).expect("one board size")
}

#[test]
fn every_variant_fixture_equals_the_engine() {
    let dir = Path::new("fixtures/rgn/valid");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let records = records(&path);
        if records.is_empty() {
            continue;
        }
        // One board size per batch, as the arrays need.
        let side = records[0].rules.board().side();
        let records: Vec<Record> = records
            .into_iter()
            .filter(|r| r.rules.board().side() == side)
            .collect();
        for options in [
            Options::default(),
            Options {
                boards: true,
                planes: true,
                legal: true,
            },
            Options {
                boards: false,
                planes: false,
                legal: true,
            },
        ] {
            check(&records, &build(&records, options, 1), options);
        }
        seen += 1;
    }
    assert!(seen >= 10, "only {seen} fixture files");
}

#[test]
fn mixed_board_sizes_are_refused_with_the_game_named() {
    let mut batch = Batch::new();
    for rules in ["othello", "othello", "othello:6x6"] {
        batch.push_record(&Record::new(rules.parse().unwrap()));
    }
    let err = batch.build(Options::default(), 1).unwrap_err();
    assert_eq!(
        err.to_string(),
        "game 3 is on a 6x6 board, but the first on 8x8: arrays hold one board size; filter the games by rules first"
    );
}

/// The WTHOR years of `data/wthor` through the readers' views (no records): equal to the
/// engine on every game, the quick board's arrays equal to the engine's (legal masks force
/// the engine), and the same on two threads.
#[test]
fn wthor_years_through_views_equal_the_engine() {
    let dir = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/data/wthor"));
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!(
            "{}: {e}: the real data is part of the repository (data/SOURCES.md)",
            dir.display()
        )
    });
    let mut files: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|e| e == "wtb"))
        .collect();
    files.sort();
    assert_eq!(
        files.len(),
        5,
        "the five WTHOR years of data/wthor: {files:?}"
    );
    let mut games = 0;
    for path in files {
        let mut batch = Batch::new();
        let mut reader = GameReader::new(Input::open(&path).expect("opens"));
        while let Some(game) = reader.next_game() {
            batch.push_view(&game.expect("reads"));
        }
        let records = records(&path);
        assert_eq!(batch.len(), records.len());
        games += records.len();
        let quick = batch.build(Options::default(), 1).unwrap();
        check(&records, &quick, Options::default());
        let engine = batch
            .build(
                Options {
                    legal: true,
                    ..Options::default()
                },
                2,
            )
            .unwrap();
        assert_eq!(quick.boards, engine.boards, "{}", path.display());
        assert_eq!(
            (&quick.moves, &quick.turn, &quick.margin),
            (&engine.moves, &engine.turn, &engine.margin)
        );
        assert_eq!(batch.build(Options::default(), 2).unwrap(), quick);
    }
    assert_eq!(games, 14_357, "the games of the five years");
}
