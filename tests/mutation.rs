//! The suite catches single-rule bugs: the reference model of `tests/reference/model.rs`,
//! with one rule of `spec/rules.md` broken at a time (`model::Bug`), plays every scenario
//! of `reversi scenario --suite` from the JSON alone (its `setup`, and the discs in hand a
//! `start:` line gives) and compares the facts the README names: each move's refusal kind,
//! flips and `after` (side to move, legal moves, their flips, discs in hand), the first
//! position and the outcome. Unbroken, the model agrees with every scenario; each planted bug
//! must be caught by at least two scenarios.

#[allow(dead_code)]
#[path = "reference/model.rs"]
mod model;

use model::{Bug, Game, Spot};
use reversi_record::scenario::{suite, JsonScenario, Scenario, StartGiven, Tried};
use reversi_record::{Color, IllegalMove, Move, Rules, Square};
use serde_json::{Map, Value};

const BUGS: [Bug; 48] = [
    Bug::OpeningFlips,
    Bug::NoFallback,
    Bug::NeutralAsEmpty,
    Bug::HandicapPlaced,
    Bug::DiscsIgnored,
    Bug::NeutralBreaks,
    Bug::EmptiesToLoser,
    Bug::OneDirection,
    Bug::AdjacentCloses,
    Bug::RaysWrap,
    Bug::WhiteFirst,
    Bug::StartSwapped,
    Bug::PassWithMovesAccepted,
    Bug::EndsOnFirstPass,
    Bug::OverOnlyWhenFull,
    Bug::DrawEmptiesToBlack,
    Bug::OddEmptyScored,
    Bug::CutCornersPlayable,
    Bug::OctagonCutsMore,
    Bug::AntiIgnored,
    Bug::AntiEmptiesToWinner,
    Bug::OpeningAnywhere,
    Bug::OpeningByCount,
    Bug::BlockedPlayable,
    Bug::BlockedInRuns,
    Bug::BlockedTouches,
    Bug::BlockedCountedEmpty,
    Bug::HandicapForBlack,
    Bug::HandicapNotAnchor,
    Bug::RawIgnored,
    Bug::MultiWof,
    Bug::OpponentGivesDisc,
    Bug::OpeningFree,
    Bug::NoDiscsOpeningStuck,
    Bug::TurnOrderReversed,
    Bug::MultiStartRotated,
    Bug::NeutralAnchors,
    Bug::NeutralNotTouching,
    Bug::EdgeOnlyTouching,
    Bug::FallbackAnywhere,
    Bug::TieToFirst,
    Bug::OccupiedBeforeGameOver,
    Bug::GameOverBeforeBlocked,
    Bug::NoDiscsBeforeOccupied,
    Bug::CentreBeforeNoDiscs,
    Bug::NotTouchingFirst,
    Bug::PassKindOrder,
    Bug::InHandRounding,
];

/// Turn, legal moves, flips of each, discs in hand, phase, key.
type State = (
    Option<String>,
    Vec<String>,
    Vec<(String, Vec<String>)>,
    Vec<u32>,
    String,
    String,
);

fn sorted(names: impl IntoIterator<Item = Square>) -> Vec<String> {
    let mut v: Vec<Square> = names.into_iter().collect();
    v.sort_by_key(|sq| sq.index());
    v.into_iter().map(|sq| sq.to_string()).collect()
}

fn sorted_names(names: &[String]) -> Vec<String> {
    sorted(names.iter().filter_map(|n| n.parse().ok()))
}

/// What the side to move faces, as the JSON gives it: turn, legal, flips, in hand.
fn state(game: &Game, rules: &Rules) -> State {
    let over = game.is_over();
    let turn = (!over).then(|| Color::ALL[game.turn()].to_string());
    let (legal, flips) = if over {
        (Vec::new(), Vec::new())
    } else if game.must_pass() {
        (vec!["--".to_owned()], Vec::new())
    } else {
        let legal = sorted(game.legal());
        let flips = game
            .legal()
            .into_iter()
            .map(|sq| (sq.to_string(), sorted(game.flips(sq))))
            .collect::<Vec<_>>();
        let mut flips = flips;
        flips.sort();
        (legal, flips)
    };
    let hands = if rules.supply().is_some() {
        (0..2).map(|p| game.in_hand(p).unwrap_or(0)).collect()
    } else {
        Vec::new()
    };
    let phase = if game.in_opening() { "opening" } else { "main" };
    (
        turn,
        legal,
        flips,
        hands,
        phase.to_owned(),
        key(game, rules),
    )
}

/// The model's board as the JSON draws it: a row per string, a space off the board.
fn board(game: &Game) -> Vec<String> {
    let n = game.side();
    (0..n)
        .map(|r| {
            (0..n)
                .map(|c| match game.spot(Square::new(c, r).unwrap()) {
                    Spot::Off => ' ',
                    Spot::Blocked => '#',
                    Spot::Empty => '.',
                    Spot::Disc(p) => Color::ALL[p].symbol(),
                    Spot::Neutral => 'N',
                })
                .collect()
        })
        .collect()
}

/// The model's position key (spec/scenario.md §5): the rows without off-board squares,
/// the side to move, the discs in hand in classic reversi.
fn key(game: &Game, rules: &Rules) -> String {
    let rows: Vec<String> = board(game)
        .iter()
        .map(|row| row.chars().filter(|&c| c != ' ').collect())
        .collect();
    let mut key = format!("{} {}", rows.join("/"), Color::ALL[game.turn()].symbol());
    if rules.supply().is_some() {
        for p in 0..2 {
            key.push_str(&format!(" {}", game.in_hand(p).unwrap_or(0)));
        }
    }
    key
}

fn json_state(
    turn: &Option<String>,
    legal: &[String],
    flips: &Map<String, Value>,
    in_hand: &Option<Map<String, Value>>,
    phase: &str,
    key: &str,
) -> State {
    let legal = if legal == ["--"] {
        legal.to_vec()
    } else {
        sorted_names(legal)
    };
    let mut flips: Vec<(String, Vec<String>)> = flips
        .iter()
        .map(|(k, v)| {
            let names: Vec<String> = serde_json::from_value(v.clone()).unwrap();
            (k.clone(), sorted_names(&names))
        })
        .collect();
    flips.sort();
    (
        turn.clone(),
        legal,
        flips,
        hands(in_hand),
        phase.to_owned(),
        key.to_owned(),
    )
}

fn hands(in_hand: &Option<Map<String, Value>>) -> Vec<u32> {
    in_hand.as_ref().map_or(Vec::new(), |h| {
        ["black", "white"]
            .iter()
            .map(|c| h[*c].as_u64().unwrap() as u32)
            .collect()
    })
}

/// Whether the model with `bug` disagrees with the scenario's JSON somewhere, and where.
///
/// A scenario without `board:` or `start:` is played from the model's own start position
/// (its board, side to move and discs in hand must be the JSON's `setup`); any other from
/// the JSON's `setup`, with the discs in hand a `start:` line gives.
fn caught(sc: &Scenario, json: &JsonScenario, bug: Option<Bug>) -> Option<String> {
    let rules: Rules = json.rules.as_deref()?.parse().ok()?;
    let setup = json.setup.as_ref()?;
    if json.setup_refused.is_some() {
        return None;
    }
    let mut game = if sc.start == StartGiven::Rules {
        Game::new_with(&rules, bug)
    } else {
        let mut discs = Vec::new();
        for (r, row) in setup.board.iter().enumerate() {
            for (c, ch) in row.chars().enumerate() {
                let sq = Square::new(c as u8, r as u8).unwrap();
                let spot = match ch {
                    'N' => Spot::Neutral,
                    _ => match Color::ALL.iter().position(|col| col.symbol() == ch) {
                        Some(p) => Spot::Disc(p),
                        None => continue,
                    },
                };
                discs.push((sq, spot));
            }
        }
        let turn = Color::ALL
            .iter()
            .position(|c| c.name() == setup.turn)
            .unwrap();
        Game::from_setup_with(&rules, &discs, turn, bug)
    };
    if let StartGiven::Line { text, .. } = &sc.start {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let [_, _, b, w] = words.as_slice() {
            game.set_in_hand(0, b.parse().unwrap());
            game.set_in_hand(1, w.parse().unwrap());
        }
    }
    let phase = if game.in_opening() { "opening" } else { "main" };
    if board(&game) != setup.board
        || Color::ALL[game.turn()].name() != setup.turn
        || state(&game, &rules).3 != hands(&setup.in_hand)
        || phase != setup.phase
    {
        return Some("the setup".into());
    }
    let first = |game: &Game| {
        let p = json.positions.first()?;
        let expected = json_state(&p.turn, &p.legal, &p.flips, &p.in_hand, &p.phase, &p.key);
        (state(game, &rules) != expected || board(game) != p.board)
            .then(|| "the first position".to_owned())
    };
    if sc.quiet == 0 {
        if let Some(diff) = first(&game) {
            return Some(diff);
        }
    }
    for (i, (m, jm)) in sc.moves.iter().zip(&json.moves).enumerate() {
        let verdict = match m.mv {
            Tried::Move(mv) => game.check(mv),
            Tried::OffGrid { .. } => Err(IllegalMove::OffBoard),
        };
        let kind = verdict.as_ref().err().map(|k| format!("{k:?}"));
        if kind != jm.refusal {
            return Some(format!("move {}: refusal {kind:?}", i + 1));
        }
        if let Ok(flips) = verdict {
            let mv: Move = m.mv.as_move().unwrap();
            game.play(mv).unwrap();
            if sorted(flips) != sorted_names(&jm.flips) {
                return Some(format!("move {}: flips", i + 1));
            }
            let a = jm.after.as_ref().unwrap();
            let expected = json_state(&a.turn, &a.legal, &a.flips, &a.in_hand, &a.phase, &a.key);
            if state(&game, &rules) != expected {
                return Some(format!("move {}: after", i + 1));
            }
        }
        if i + 1 == sc.quiet {
            if let Some(diff) = first(&game) {
                return Some(diff);
            }
        }
    }
    if let Some(o) = &json.outcome {
        let r = game.result();
        let same = o.winner == r.winner.map(|p| Color::ALL[p].to_string())
            && u32::from(o.empty) == r.empty
            && u32::from(o.neutral) == r.neutral
            && o.scoring == r.scoring
            && rules.colors().iter().enumerate().all(|(p, c)| {
                o.discs[c.name()].as_u64() == Some(u64::from(r.discs[p]))
                    && o.score[c.name()].as_u64() == Some(u64::from(r.score[p]))
            });
        if !same {
            return Some("the outcome".into());
        }
    }
    None
}

#[test]
fn every_planted_bug_is_caught_by_two_scenarios() {
    let files = suite::files().unwrap();
    let mut cases = Vec::new();
    for f in files.iter().filter(|f| f.path.ends_with(".scenario")) {
        let json_path = format!("{}.json", f.path.trim_end_matches(".scenario"));
        let json = files.iter().find(|g| g.path == json_path).unwrap();
        let json: JsonScenario = serde_json::from_str(&json.contents).unwrap();
        let sc: Scenario = f.contents.parse().unwrap();
        cases.push((f.path.clone(), sc, json));
    }
    for (path, sc, json) in &cases {
        assert_eq!(
            caught(sc, json, None),
            None,
            "{path}: the unbroken model disagrees"
        );
    }
    let mut report = Vec::new();
    let mut weak = Vec::new();
    for bug in BUGS {
        let by: Vec<&str> = cases
            .iter()
            .filter(|(_, sc, json)| caught(sc, json, Some(bug)).is_some())
            .map(|(p, _, _)| p.as_str())
            .collect();
        report.push(format!("{bug:?}: {} scenarios: {by:?}", by.len()));
        if by.len() < 2 {
            weak.push(format!("{bug:?} is caught only by {by:?}"));
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(weak.is_empty(), "{}", weak.join("\n"));
}
