//! Differential tests: the bitboard engine against a plain-array reference implementation of
//! `spec/rules.md` (`tests/reference/model.rs`), over seeded random games of every preset,
//! board and option; plus property tests of engine invariants.
//!
//! At every ply both must agree on the board, the side to move, the legal moves, the flips of
//! every legal move, must-pass, game over, discs in hand, and the refusal of a sample of
//! illegal moves and of a pass; at the end on the outcome and on both scores (raw and WOF).

#[path = "reference/model.rs"]
mod model;

use model::{Game, Spot};
use proptest::prelude::*;
use reversi_engine::Outcome;
use reversi_engine::{Cell, Color, Finished, Move, Position, Rules, Setup, Square, SquareSet};

/// Every preset, board and option combination played by the differential test. `true` marks
/// a configuration that also gets random blocked squares, different in every game.
const CONFIGS: &[(&str, bool)] = &[
    ("othello:4x4", false),
    ("othello:6x6", false),
    ("othello", false),
    ("othello:10x10", false),
    ("othello:octagon", false),
    ("othello,scoring=raw", false),
    ("anti:4x4", false),
    ("anti:6x6", false),
    ("anti", false),
    ("anti:10x10", false),
    ("anti:octagon", false),
    ("free:4x4", false),
    ("free:6x6", false),
    ("free", false),
    ("free:10x10", false),
    ("free:octagon", false),
    ("free,anti", false),
    ("classic", false),
    ("classic,anti", false),
    ("classic,handicap=white:2", false),
    ("classic", true),
    ("othello:6x6", true),
    ("othello", true),
    ("othello:10x10", true),
    ("othello:octagon", true),
    ("anti", true),
    ("free:octagon,anti", true),
    ("othello:4x4,handicap=white:1", false),
    ("othello:6x6,handicap=black:4", false),
    ("othello,handicap=white:2", false),
    ("othello,handicap=black:a8+h1", false),
    ("othello:10x10,handicap=white:3", false),
    ("anti,handicap=white:4", true),
    ("free,handicap=black:2", false),
    ("multi3", false),
    ("multi3:10x10", false),
    ("multi3:octagon", false),
    ("multi4", false),
    ("multi4:10x10", false),
    ("multi4:octagon", false),
    ("multi3,anti", false),
    ("multi4:octagon,anti", false),
    ("multi3", true),
    ("multi3:octagon", true),
    ("multi4", true),
    ("multi4:10x10,anti", true),
];

/// Plies per configuration: enough for dozens of games, fast on 2 cores.
const PLIES_PER_CONFIG: usize = 2500;

/// xorshift64: small, seeded, deterministic.
struct Rng(u64);

impl Rng {
    fn new(seed: u64) -> Rng {
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn any_square(rng: &mut Rng) -> Square {
    Square::from_index(rng.below(100) as u8).expect("index below 100")
}

/// `base` with up to 8 random blocked squares: each candidate is kept when the rules string
/// still parses (squares off the board or on start and handicap squares are refused).
fn with_random_blocked(base: &str, rng: &mut Rng) -> Rules {
    let mut blocked: Vec<String> = Vec::new();
    for _ in 0..rng.below(9) {
        let candidate = any_square(rng).to_string();
        if blocked.contains(&candidate) {
            continue;
        }
        let mut trial = blocked.clone();
        trial.push(candidate);
        if format!("{base},blocked={}", trial.join("+"))
            .parse::<Rules>()
            .is_ok()
        {
            blocked = trial;
        }
    }
    if blocked.is_empty() {
        return base.parse().expect("config parses");
    }
    format!("{base},blocked={}", blocked.join("+"))
        .parse()
        .expect("checked above")
}

fn spot_of(cell: Cell) -> Spot {
    match cell {
        Cell::OffBoard => Spot::Off,
        Cell::Blocked => Spot::Blocked,
        Cell::Empty => Spot::Empty,
        Cell::Disc(c) => Spot::Disc(c.index()),
        Cell::Neutral => Spot::Neutral,
    }
}

fn set_of(squares: &[Square]) -> SquareSet {
    squares.iter().copied().collect()
}

/// Compares everything observable about the position to move.
fn compare(pos: &Position, game: &Game, rng: &mut Rng, all_squares: bool, at: &str) {
    assert_eq!(pos.turn().index(), game.turn(), "{at}: side to move");
    for index in 0..100 {
        let sq = Square::from_index(index).expect("index below 100");
        assert_eq!(spot_of(pos.cell(sq)), game.spot(sq), "{at}: square {sq}");
    }
    for c in pos.rules().colors() {
        assert_eq!(
            pos.in_hand(*c).map(u32::from),
            game.in_hand(c.index()),
            "{at}: {c} in hand"
        );
    }
    let legal = pos.legal_moves();
    assert_eq!(legal, set_of(&game.legal()), "{at}: legal moves");
    for sq in legal {
        assert_eq!(
            pos.flips(sq),
            Ok(set_of(&game.flips(sq))),
            "{at}: flips of {sq}"
        );
    }
    assert_eq!(pos.must_pass(), game.must_pass(), "{at}: must pass");
    assert_eq!(pos.is_over(), game.is_over(), "{at}: game over");
    let sample: Vec<Square> = if all_squares {
        (0..100).filter_map(Square::from_index).collect()
    } else {
        (0..4).map(|_| any_square(rng)).collect()
    };
    for sq in sample {
        let expected = game.check(Move::Place(sq)).map(|f| set_of(&f));
        assert_eq!(pos.flips(sq), expected, "{at}: placement on {sq}");
    }
    let mut trial = *pos;
    assert_eq!(
        trial.play(Move::Pass).map(|_| ()),
        game.check(Move::Pass).map(|_| ()),
        "{at}: pass"
    );
}

/// The same rules under WOF and under raw scoring (two players).
fn both_scorings(rules: &Rules) -> (Rules, Rules) {
    let text = rules.to_string();
    let base = text.replace(",scoring=raw", "");
    let wof: Rules = base.parse().expect("canonical rules parse");
    let raw: Rules = format!("{base},scoring=raw").parse().expect("raw variant");
    (wof, raw)
}

fn compare_outcome(pos: &Position, game: &Game, at: &str) {
    let o = pos.outcome().expect("game over");
    let r = game.result();
    assert_eq!(o.winner.map(Color::index), r.winner, "{at}: winner");
    assert_eq!(o.discs.map(u32::from), r.discs, "{at}: discs");
    assert_eq!(u32::from(o.neutral), r.neutral, "{at}: neutral");
    assert_eq!(u32::from(o.empty), r.empty, "{at}: empty");
    let rules = pos.rules();
    if rules.players() == 2 {
        let (wof, raw) = both_scorings(rules);
        let score = |rules: &Rules| Outcome::new(rules, o.discs, o.neutral, o.empty).score;
        assert_eq!(score(&wof).map(u32::from), r.wof, "{at}: WOF score");
        assert_eq!(score(&raw).map(u32::from), r.raw, "{at}: raw score");
        let expected = if rules.scoring().name() == "wof" {
            r.wof
        } else {
            r.raw
        };
        assert_eq!(o.score.map(u32::from), expected, "{at}: score");
    } else {
        assert_eq!(o.score.map(u32::from), r.raw, "{at}: score");
    }
}

/// Plays seeded random games of one configuration through both implementations.
fn differential(config: usize) -> (usize, usize) {
    let (base, random_blocked) = CONFIGS[config];
    let mut rng = Rng::new(config as u64 + 1);
    let (mut plies, mut games) = (0, 0);
    while plies < PLIES_PER_CONFIG {
        let rules = if random_blocked {
            with_random_blocked(base, &mut rng)
        } else {
            base.parse().expect("config parses")
        };
        let mut pos = Position::new(rules);
        let mut game = Game::new(&rules);
        let mut ply = 0;
        loop {
            let at = format!("{rules} game {games} ply {ply}");
            compare(&pos, &game, &mut rng, ply % 16 == 0 || pos.is_over(), &at);
            if pos.is_over() {
                compare_outcome(&pos, &game, &at);
                break;
            }
            let mv = if pos.must_pass() {
                Move::Pass
            } else {
                let legal: Vec<Square> = pos.legal_moves().iter().collect();
                Move::Place(legal[rng.below(legal.len())])
            };
            let flipped = pos.play_with_flips(mv).expect("a legal move plays");
            let expected = game.play(mv).expect("the reference agrees it is legal");
            assert_eq!(flipped, set_of(&expected), "{at}: flips played by {mv}");
            ply += 1;
        }
        plies += ply;
        games += 1;
    }
    (games, plies)
}

#[test]
fn engine_agrees_with_the_reference_on_every_variant() {
    for config in 0..CONFIGS.len() {
        let (games, plies) = differential(config);
        assert!(games >= 1 && plies >= PLIES_PER_CONFIG);
    }
}

#[test]
fn reference_start_positions_match_the_spec() {
    let expect = |rules: &str, discs: [&str; 4], neutral: &str| {
        let rules: Rules = rules.parse().unwrap();
        let game = Game::new(&rules);
        for (p, list) in discs.iter().enumerate() {
            for name in list.split_whitespace() {
                let sq: Square = name.parse().unwrap();
                assert_eq!(game.spot(sq), Spot::Disc(p), "{rules} {name}");
            }
        }
        for name in neutral.split_whitespace() {
            assert_eq!(game.spot(name.parse().unwrap()), Spot::Neutral);
        }
    };
    expect("othello:6x6", ["d3 c4", "c3 d4", "", ""], "");
    expect("othello", ["e4 d5", "d4 e5", "", ""], "");
    expect("othello:10x10", ["f5 e6", "e5 f6", "", ""], "");
    expect("othello:octagon", ["f5 e6", "e5 f6", "", ""], "");
    expect("multi3", ["d4", "e4", "e5", ""], "d5");
    expect("multi4:10x10", ["e5", "f5", "f6", "e6"], "");
    expect("multi3:octagon", ["e5", "f5", "f6", ""], "e6");
    expect(
        "othello,handicap=white:3",
        ["e4 d5", "d4 e5 a1 h8 h1", "", ""],
        "",
    );
    let octagon = Game::new(&"othello:octagon".parse().unwrap());
    for cut in [
        "a1", "b1", "a2", "i1", "j1", "j2", "a9", "a10", "b10", "i10", "j9", "j10",
    ] {
        assert_eq!(octagon.spot(cut.parse().unwrap()), Spot::Off, "{cut}");
    }
    assert_eq!(octagon.spot("b2".parse().unwrap()), Spot::Empty);
}

fn config_rules() -> impl Strategy<Value = Rules> {
    (0..CONFIGS.len()).prop_map(|i| CONFIGS[i].0.parse::<Rules>().expect("config parses"))
}

fn total_discs(pos: &Position) -> usize {
    Color::ALL
        .iter()
        .map(|c| pos.discs(*c).len())
        .sum::<usize>()
        + pos.neutral().len()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 64, ..ProptestConfig::default() })]

    /// Play never changes the number of discs except by +1 for a placement; flips are discs
    /// of others (or the neutral disc); legal moves are empty squares; a refused move changes
    /// nothing; a finished game's scores add up.
    #[test]
    fn play_keeps_the_invariants(rules in config_rules(), choices in prop::collection::vec(any::<u16>(), 0..130)) {
        let mut pos = Position::new(rules);
        for (i, choice) in choices.iter().enumerate() {
            if pos.is_over() {
                break;
            }
            let legal = pos.legal_moves();
            prop_assert_eq!(legal.difference(pos.empty()), SquareSet::EMPTY);
            let probe = Square::from_index((choice % 100) as u8).unwrap();
            if !legal.contains(probe) && !pos.must_pass() {
                let mut trial = pos;
                prop_assert!(trial.play(Move::Place(probe)).is_err());
                prop_assert_eq!(trial, pos);
            }
            let before = pos;
            let mover = pos.turn();
            let own = pos.discs(mover);
            let others = pos.rules().colors().iter().filter(|c| **c != mover)
                .fold(pos.neutral(), |acc, c| acc.union(pos.discs(*c)));
            if pos.must_pass() {
                prop_assert_eq!(pos.play_with_flips(Move::Pass).unwrap(), SquareSet::EMPTY);
                prop_assert_eq!(total_discs(&pos), total_discs(&before));
                prop_assert_eq!(pos.setup().discs, before.setup().discs);
                continue;
            }
            let squares: Vec<Square> = legal.iter().collect();
            let sq = squares[(*choice as usize ^ i) % squares.len()];
            let flipped = pos.play_with_flips(Move::Place(sq)).unwrap();
            prop_assert_eq!(flipped.difference(others), SquareSet::EMPTY);
            prop_assert_eq!(total_discs(&pos), total_discs(&before) + 1);
            prop_assert_eq!(pos.discs(mover), own.union(flipped).union(SquareSet::single(sq)));
            prop_assert_eq!(pos.empty().len() + 1, before.empty().len());
            for c in pos.rules().colors() {
                if *c != mover {
                    prop_assert_eq!(pos.discs(*c), before.discs(*c).difference(flipped));
                }
            }
        }
        if let Some(o) = pos.outcome() {
            let discs: u32 = o.discs.iter().map(|&d| u32::from(d)).sum();
            let score: u32 = o.score.iter().map(|&s| u32::from(s)).sum();
            let rules = pos.rules();
            if rules.players() == 2 && rules.scoring().name() == "wof" {
                let odd_draw = o.discs[0] == o.discs[1] && o.empty % 2 == 1;
                prop_assert_eq!(score + u32::from(odd_draw), discs + u32::from(o.empty));
            } else {
                prop_assert_eq!(score, discs);
            }
        }
    }

    /// Any accepted rules string prints a canonical form that reads back to the same rules.
    #[test]
    fn rules_strings_round_trip(
        preset in prop::sample::select(vec!["othello", "anti", "free", "classic", "multi3", "multi4"]),
        board in prop::sample::select(vec!["", ":4x4", ":6x6", ":8x8", ":10x10", ":octagon"]),
        anti in any::<bool>(),
        free in any::<bool>(),
        raw in any::<bool>(),
        handicap in prop::option::of((prop::sample::select(vec!["white", "black"]), 1..5u8)),
        blocked in prop::collection::vec(0..100u8, 0..4),
    ) {
        let mut text = format!("{preset}{board}");
        if anti { text.push_str(",anti"); }
        if free { text.push_str(",free"); }
        if raw { text.push_str(",scoring=raw"); }
        if let Some((colour, k)) = handicap { text.push_str(&format!(",handicap={colour}:{k}")); }
        if !blocked.is_empty() {
            let squares: Vec<String> = blocked.iter()
                .map(|&i| Square::from_index(i).unwrap().to_string()).collect();
            text.push_str(&format!(",blocked={}", squares.join("+")));
        }
        if let Ok(rules) = text.parse::<Rules>() {
            let canonical = rules.to_string();
            let again: Rules = canonical.parse().unwrap();
            prop_assert_eq!(again, rules);
            prop_assert_eq!(again.to_string(), canonical);
        }
    }
}

/// A random position under `rules`: each playable square empty or holding a random disc (or,
/// with three players, now and then a neutral one), and a random side to move.
fn random_setup(rules: &Rules, rng: &mut Rng) -> (Game, Position) {
    let start = Game::new(rules);
    let density = 10 + rng.below(90);
    let players = rules.players() as usize;
    let mut discs = Vec::new();
    let mut setup = Setup {
        discs: [SquareSet::EMPTY; 4],
        neutral: SquareSet::EMPTY,
        turn: Color::ALL[rng.below(players)],
    };
    for index in 0..100 {
        let sq = Square::from_index(index).expect("index below 100");
        if matches!(start.spot(sq), Spot::Off | Spot::Blocked) || rng.below(100) >= density {
            continue;
        }
        if players == 3 && rng.below(12) == 0 {
            discs.push((sq, Spot::Neutral));
            setup.neutral.insert(sq);
        } else {
            let p = rng.below(players);
            discs.push((sq, Spot::Disc(p)));
            setup.discs[p].insert(sq);
        }
    }
    let game = Game::from_setup(rules, &discs, setup.turn.index());
    let pos = Position::from_setup(*rules, setup).expect("a setup of playable squares");
    (game, pos)
}

#[test]
fn engine_agrees_with_the_reference_on_random_positions() {
    for (config, &(base, random_blocked)) in CONFIGS.iter().enumerate() {
        let mut rng = Rng::new(1000 + config as u64);
        for n in 0..60 {
            let rules = if random_blocked {
                with_random_blocked(base, &mut rng)
            } else {
                base.parse().expect("config parses")
            };
            let (mut game, mut pos) = random_setup(&rules, &mut rng);
            for ply in 0..6 {
                let at = format!("{rules} position {n} ply {ply}\n{pos}");
                compare(&pos, &game, &mut rng, ply == 0, &at);
                if pos.is_over() {
                    compare_outcome(&pos, &game, &at);
                    break;
                }
                let mv = if pos.must_pass() {
                    Move::Pass
                } else {
                    let legal: Vec<Square> = pos.legal_moves().iter().collect();
                    Move::Place(legal[rng.below(legal.len())])
                };
                let flipped = pos.play_with_flips(mv).expect("a legal move plays");
                let expected = game.play(mv).expect("the reference agrees it is legal");
                assert_eq!(flipped, set_of(&expected), "{at}: flips played by {mv}");
            }
        }
    }
}

#[test]
fn perft_agrees_with_the_reference() {
    let cases: &[(&str, u32)] = &[
        ("othello:4x4", 16),
        ("othello:6x6", 5),
        ("othello:octagon", 4),
        ("anti:10x10", 4),
        ("free", 6),
        ("classic", 6),
        ("othello,handicap=white:2", 5),
        ("othello,blocked=c4+f5", 5),
        ("multi3", 4),
        ("multi4:octagon", 4),
        ("multi3:10x10,blocked=e4+g7", 4),
    ];
    for &(rules, depth) in cases {
        let rules: Rules = rules.parse().unwrap();
        let pos = Position::new(rules);
        let game = Game::new(&rules);
        for finished in [0, 1] {
            assert_eq!(
                pos.perft(
                    depth,
                    if finished == 1 {
                        Finished::Counted
                    } else {
                        Finished::Ignored
                    }
                ),
                game.perft(depth, finished),
                "{rules} depth {depth}, finished games count {finished}"
            );
        }
    }
}

/// Replays `moves` (no passes: they are inferred) through the engine, and through the
/// reference when `with_reference`; returns the final position, or the ply of the first
/// move the engine refused.
fn replay_inferring_passes(
    moves: &[Square],
    with_reference: bool,
) -> Result<(Position, Option<Game>), usize> {
    let rules = Rules::default();
    let mut pos = Position::new(rules);
    let mut game = with_reference.then(|| Game::new(&rules));
    for (ply, &sq) in moves.iter().enumerate() {
        if pos.must_pass() {
            pos.play(Move::Pass).expect("a forced pass");
            if let Some(g) = &mut game {
                g.play(Move::Pass).expect("the reference passes too");
            }
        }
        let flipped = pos.play_with_flips(Move::Place(sq)).map_err(|_| ply)?;
        if let Some(g) = &mut game {
            let expected = g.play(Move::Place(sq)).expect("the reference agrees");
            assert_eq!(flipped, set_of(&expected), "ply {ply} {sq}");
        }
    }
    Ok((pos, game))
}

/// Oracle: every game of the WTHOR files replays legally, and every finished one stores
/// Black's WOF score (empties to the winner, split on a draw). The reference replays every
/// 25th game alongside the engine.
#[test]
fn wthor_games_replay_with_their_stored_scores() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/wthor");
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!("{dir}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let mut paths: Vec<_> = entries
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x.eq_ignore_ascii_case("wtb")))
        .collect();
    paths.sort();
    assert_eq!(paths.len(), 5, "the five WTHOR years of {dir}: {paths:?}");
    let (mut finished, mut unfinished, mut total) = (0, 0, 0);
    for path in paths {
        let unfinished_before = unfinished;
        let bytes = std::fs::read(&path).expect("readable");
        for (i, record) in bytes[16..].chunks_exact(68).enumerate() {
            let moves: Vec<Square> = record[8..]
                .iter()
                .take_while(|&&b| b != 0)
                .map(|&b| Square::new(b % 10 - 1, b / 10 - 1).expect("a WTHOR move byte"))
                .collect();
            let at = format!("{} game {}", path.display(), i + 1);
            let (pos, game) = replay_inferring_passes(&moves, total % 25 == 0)
                .unwrap_or_else(|ply| panic!("{at}: illegal move at ply {ply}"));
            if let Some(game) = game {
                assert_eq!(pos.is_over(), game.is_over(), "{at}");
            }
            total += 1;
            match pos.outcome() {
                Some(o) => {
                    assert_eq!(o.score[0], record[6], "{at}: stored score");
                    finished += 1;
                }
                None => unfinished += 1,
            }
        }
        if path.ends_with("WTH_1990.wtb") {
            // Games that stop before the end (resignation, time): 45 to 51 moves.
            assert_eq!(unfinished - unfinished_before, 21, "{}", path.display());
        }
    }
    assert_eq!(total, 14_357, "the games of the five years");
    assert!(finished > 0 && unfinished > 0);
}

/// Oracle: the FFO endgame positions list every legal move of the side to move.
#[test]
fn ffo_positions_list_every_legal_move() {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/data/obf");
    let entries = std::fs::read_dir(dir).unwrap_or_else(|e| {
        panic!("{dir}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let (mut positions, mut files) = (0, 0);
    for entry in entries.filter_map(Result::ok) {
        files += 1;
        let text = std::fs::read_to_string(entry.path()).expect("readable");
        for line in text.lines().filter(|l| !l.trim().is_empty()) {
            let mut fields = line.split(';').map(str::trim);
            let head = fields.next().expect("a board");
            let (board, side) = head.split_once(' ').expect("board and side");
            let turn = if side.trim() == "X" {
                Color::Black
            } else {
                Color::White
            };
            let mut setup = Setup {
                discs: [SquareSet::EMPTY; 4],
                neutral: SquareSet::EMPTY,
                turn,
            };
            let mut discs = Vec::new();
            for (i, ch) in board.chars().enumerate() {
                let sq = Square::new((i % 8) as u8, (i / 8) as u8).expect("8x8");
                let player = match ch {
                    'X' => 0,
                    'O' => 1,
                    _ => continue,
                };
                setup.discs[player].insert(sq);
                discs.push((sq, Spot::Disc(player)));
            }
            let listed: SquareSet = fields
                .filter(|f| !f.is_empty())
                .map(|f| f.split(':').next().unwrap().parse::<Square>().unwrap())
                .collect();
            let pos = Position::from_setup(Rules::default(), setup).expect("an 8x8 position");
            let game = Game::from_setup(&Rules::default(), &discs, turn.index());
            assert_eq!(pos.legal_moves(), listed, "{line}");
            assert_eq!(set_of(&game.legal()), listed, "{line}");
            positions += 1;
        }
    }
    // The four fforum files: 79 positions.
    assert_eq!((files, positions), (4, 79), "files and positions of {dir}");
}

/// The rows of the published perft table, `spec/perft.md`: rules, depth, and the counts
/// with a finished game as 0 and as 1 leaf.
fn published_perft() -> Vec<(Rules, u32, u64, u64)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/spec/perft.md");
    let text = std::fs::read_to_string(path).expect("spec/perft.md");
    text.lines()
        .filter_map(|line| {
            let cells: Vec<&str> = line.split('|').map(str::trim).collect();
            let rules = cells.get(1)?.strip_prefix('`')?.strip_suffix('`')?;
            Some((
                rules.parse().expect("published rules parse"),
                cells[2].parse().expect("a depth"),
                cells[3].parse().expect("a count"),
                cells[4].parse().expect("a count"),
            ))
        })
        .collect()
}

#[test]
fn published_table_agrees_with_both_implementations() {
    let rows = published_perft();
    // Every preset on every board it is played on, and the rules with options.
    assert!(rows.len() >= 250, "{} rows", rows.len());
    let mut by_reference = 0;
    for &(rules, depth, zero, one) in &rows {
        let pos = Position::new(rules);
        let at = format!("{rules} depth {depth}");
        assert_eq!(pos.perft(depth, Finished::Ignored), zero, "{at}");
        assert_eq!(pos.perft(depth, Finished::Counted), one, "{at}, finished 1");
        // The canonical form is the one the engine prints.
        assert_eq!(rules.to_string().parse::<Rules>().unwrap(), rules, "{at}");
        if one <= 30_000 {
            let game = Game::new(&rules);
            assert_eq!(game.perft(depth, 0), zero, "{at}: the reference");
            assert_eq!(game.perft(depth, 1), one, "{at}: the reference, finished 1");
            by_reference += 1;
        }
    }
    assert!(
        by_reference >= 150,
        "{by_reference} rows checked by the reference"
    );
}

#[test]
fn perft_divided_by_the_first_ply_adds_up_to_the_whole() {
    for (rules, depth) in [
        ("othello", 6),
        ("othello:4x4", 12),
        ("free:6x6", 5),
        ("classic", 5),
        ("multi3:octagon", 4),
        ("anti:10x10", 4),
    ] {
        let rules: Rules = rules.parse().unwrap();
        let pos = Position::new(rules);
        let game = Game::new(&rules);
        for finished in [Finished::Ignored, Finished::Counted] {
            let divided = pos.perft_divide(depth, finished, 2);
            let total: u64 = divided.iter().map(|(_, n)| n).sum();
            assert_eq!(total, pos.perft(depth, finished), "{rules} depth {depth}");
            // Each first move's count is the reference's from the position after it.
            for (mv, n) in divided {
                let mut child = game.clone();
                child
                    .play(mv)
                    .expect("the reference plays the engine's first move");
                let leaves = child.perft(depth - 1, u64::from(finished == Finished::Counted));
                assert_eq!(n, leaves, "{rules} depth {depth}, first move {mv}");
            }
        }
    }
    // At depth 0 and at the end of a game there is nothing to divide.
    assert!(Position::new(Rules::default())
        .perft_divide(0, Finished::Ignored, 1)
        .is_empty());
}
