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

const BUGS: [Bug; 8] = [
    Bug::OpeningFlips,
    Bug::NoFallback,
    Bug::NeutralAsEmpty,
    Bug::HandicapPlaced,
    Bug::DiscsIgnored,
    Bug::NeutralBreaks,
    Bug::EmptiesToLoser,
    Bug::OneDirection,
];

/// Turn, legal moves, flips of each, discs in hand.
type State = (
    Option<String>,
    Vec<String>,
    Vec<(String, Vec<String>)>,
    Vec<u32>,
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
    (turn, legal, flips, hands)
}

fn json_state(
    turn: &Option<String>,
    legal: &[String],
    flips: &Map<String, Value>,
    in_hand: &Option<Map<String, Value>>,
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
    let hands = in_hand.as_ref().map_or(Vec::new(), |h| {
        ["black", "white"]
            .iter()
            .map(|c| h[*c].as_u64().unwrap() as u32)
            .collect()
    });
    (turn.clone(), legal, flips, hands)
}

/// Whether the model with `bug` disagrees with the scenario's JSON somewhere.
fn caught(sc: &Scenario, json: &JsonScenario, bug: Option<Bug>) -> Option<String> {
    let rules: Rules = json.rules.as_deref()?.parse().ok()?;
    let setup = json.setup.as_ref()?;
    if json.setup_refused.is_some() {
        return None;
    }
    let n = setup.board.len() as u8;
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
    assert!(n >= 4);
    let turn = Color::ALL
        .iter()
        .position(|c| c.name() == setup.turn)
        .unwrap();
    let mut game = Game::from_setup_with(&rules, &discs, turn, bug);
    if let StartGiven::Line { text, .. } = &sc.start {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let [_, _, b, w] = words.as_slice() {
            game.set_in_hand(0, b.parse().unwrap());
            game.set_in_hand(1, w.parse().unwrap());
        }
    }
    if sc.quiet == 0 {
        if let Some(p) = json.positions.first() {
            if state(&game, &rules) != json_state(&p.turn, &p.legal, &p.flips, &p.in_hand) {
                return Some("the first position".into());
            }
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
        let Ok(flips) = verdict else { continue };
        let mv: Move = m.mv.as_move().unwrap();
        game.play(mv).unwrap();
        if sorted(flips) != sorted_names(&jm.flips) {
            return Some(format!("move {}: flips", i + 1));
        }
        let after = jm.after.as_ref().unwrap();
        if state(&game, &rules)
            != json_state(&after.turn, &after.legal, &after.flips, &after.in_hand)
        {
            return Some(format!("move {}: after", i + 1));
        }
    }
    if let Some(o) = &json.outcome {
        let r = game.result();
        let scores = if o.scoring == "raw" { r.raw } else { r.wof };
        let same = o.winner == r.winner.map(|p| Color::ALL[p].to_string())
            && u32::from(o.empty) == r.empty
            && u32::from(o.neutral) == r.neutral
            && rules.colors().iter().enumerate().all(|(p, c)| {
                o.discs[c.name()].as_u64() == Some(u64::from(r.discs[p]))
                    && o.score[c.name()].as_u64() == Some(u64::from(scores[p]))
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
    for bug in BUGS {
        let by: Vec<&str> = cases
            .iter()
            .filter(|(_, sc, json)| caught(sc, json, Some(bug)).is_some())
            .map(|(p, _, _)| p.as_str())
            .collect();
        report.push(format!("{bug:?}: {} scenarios", by.len()));
        assert!(by.len() >= 2, "{bug:?} is caught only by {by:?}");
    }
    eprintln!("{}", report.join("\n"));
}
