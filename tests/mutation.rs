//! The suite catches single-rule bugs: the reference model of `tests/reference/model.rs`,
//! with one rule of `spec/rules.md` broken at a time (`model::Bug`), plays every scenario
//! of `reversi scenario --suite` from the JSON alone and compares the facts the README
//! names. A scenario without `board:` or `start:` starts from the model's own start
//! position, which must be the JSON's `setup` (board, side to move, discs in hand, phase);
//! any other starts from the `setup` (and the discs in hand a `start:` line gives). Then
//! each move's refusal kind, flips and `after` (side to move, legal moves, their flips,
//! discs in hand, phase, key), the first position shown (with its board) and the outcome
//! (winner, discs, empties, neutral, scoring, score). Unbroken, the model agrees with every
//! scenario; each planted bug must be caught by at least two hand-written scenarios
//! (`rules/` and `spec/`, not only the random games of `random/`, `combined/`, `setups/`).
//!
//! Every rule of `spec/rules.md` has a bug here. The table says which section, and names
//! scenarios that catch it (the test checks each named scenario does; run it with
//! `--nocapture` for how many do):
//!
//! | § | planted bug (`model::Bug`): the rule broken | caught by, among others |
//! |---|---|---|
//! | §2 | `OneDirection`: only the first closed direction flips. | `rules/classic-out-of-discs`, `rules/handicap-corners`, `rules/multi3-whole-table-draw` |
//! | §2 | `AdjacentCloses`: a "run" of no discs counts as closed: a placement next to an own disc is legal. | `rules/classic-handicap-in-hand`, `rules/classic-no-discs-with-a-move`, `rules/classic-handicap-white-to-move` |
//! | §2, §4 | `RaysWrap`: rays walk off the left or right edge onto the next or previous row (a linear index stepped by 1 without an edge check). | `rules/classic-out-of-discs`, `rules/multi3-whole-table-draw`, `rules/multi4-anti` |
//! | §2 | `WhiteFirst`: White moves first from the start position. | `rules/free-opening-flips-nothing`, `rules/classic-out-of-discs`, `rules/free-opening-parallel` |
//! | §3.1 | `StartSwapped`: the two-player centre discs are swapped (Black on the top-left). | `rules/handicap-corners`, `rules/mutual-block`, `rules/octagon-start` |
//! | §3.2 | `PassWithMovesAccepted`: a pass is accepted while the player has a legal move. | `rules/free-opening`, `rules/pass`, `spec/rules-05` |
//! | §3.3 | `EndsOnFirstPass`: the game ends as soon as the side to move has no move (no pass). | `rules/classic-no-discs-with-a-move`, `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs` |
//! | §3.3 | `OverOnlyWhenFull`: the game ends only when the board is full or a colour is wiped out; a mutual block goes on with both sides passing. | `rules/anti-empties-to-loser`, `rules/mutual-block`, `rules/raw-scoring-draw` |
//! | §3.4 | `EmptiesToLoser`: the WOF score gives the empties to the loser. | `rules/game-over-blocked-first`, `rules/octagon-over-off-board`, `rules/classic-no-move-with-discs` |
//! | §3.4 | `DrawEmptiesToBlack`: a drawn game's empties all go to Black. | `rules/wof-draw-odd-empty`, `rules/wof-draw-split`, `spec/rules-07` |
//! | §3.4 | `OddEmptyScored`: the odd empty square of a drawn game is scored for Black. | `rules/wof-draw-odd-empty`, `spec/rules-08` |
//! | §4 | `CutCornersPlayable`: the octagon's cut corners are ordinary squares. | `rules/octagon-over-off-board`, `rules/setup-disc-on-cut-corner`, `rules/multi3-octagon-start` |
//! | §4 | `OctagonCutsMore`: the octagon cuts 6 squares at each corner (b2 too), an off-by-one. | `rules/octagon-over-off-board`, `rules/multi3-octagon-start`, `rules/octagon-corners` |
//! | §5.1 | `AntiIgnored`: `anti` ignored: the most discs win. | `rules/anti-empties-to-loser`, `rules/anti-wipe-out`, `rules/multi4-anti` |
//! | §5.1 | `AntiEmptiesToWinner`: in anti the WOF empties go to the winner (the side with fewer discs). | `rules/anti-empties-to-loser`, `rules/anti-wipe-out`, `spec/rules-11` |
//! | §5.2 | `OpeningFlips`: the free opening's placements flip. | `rules/free-opening-setup-no-flips`, `rules/free-opening-flips-nothing`, `setups/free-4x4-1` |
//! | §5.2 | `OpeningAnywhere`: the free opening's placements may go on any empty square. | `rules/free-opening-setup-no-flips`, `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs` |
//! | §5.2, §9 | `OpeningByCount`: the opening judged by the number of discs on the board (fewer than 4) instead of an empty centre square. | `rules/free-opening-setup-no-flips`, `rules/classic-handicap-opening-hands-full`, `rules/free-opening-flips-nothing` |
//! | §5.3 | `BlockedPlayable`: a blocked square can be played like an empty one (it still breaks runs). | `rules/game-over-blocked-first`, `rules/octagon-over-off-board`, `rules/blocked-breaks-run` |
//! | §5.3 | `BlockedInRuns`: a blocked square is part of a run (as a disc not the mover's) and flips. | `rules/blocked-breaks-run`, `rules/multi3-blocked-pocket`, `rules/multi3-fallback` |
//! | §5.3, §7.3 | `BlockedTouches`: a blocked square counts as touching for the fallback. | `rules/multi3-blocked-pocket`, `rules/multi3-fallback`, `spec/rules-23` |
//! | §5.3 | `BlockedCountedEmpty`: blocked squares counted as empty in the outcome. | `rules/game-over-blocked-first`, `rules/octagon-over-off-board`, `rules/multi3-blocked-pocket` |
//! | §5.4 | `HandicapForBlack`: the handicap discs are always Black's. | `rules/free-opening-flips-nothing`, `rules/handicap-corners`, `spec/rules-15` |
//! | §5.4 | `HandicapNotAnchor`: a disc on a handicap corner never closes a run (the corners kept apart). | `rules/handicap-corner-closes-run`, `rules/handicap-corner-closes-run-black`, `setups/classic-handicap-white-2-1` |
//! | §5.5 | `RawIgnored`: `scoring=raw` ignored: two-player games always score WOF. | `rules/raw-scoring-draw`, `spec/rules-09`, `combined/othello-6x6-handicap-black-2-scoring-raw` |
//! | §5.5, §7.4 | `MultiWof`: 3-4 player games give the empty squares to the winner. | `rules/multi3-neutral-unflipped`, `rules/multi3-neutral-left-at-end`, `rules/multi3-blocked-pocket` |
//! | §6 | `DiscsIgnored`: a player out of discs keeps its legal moves. | `rules/classic-no-discs-with-a-move`, `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs` |
//! | §6 | `OpponentGivesDisc`: a player out of discs is given one from the opponent's supply. | `rules/classic-no-discs-with-a-move`, `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs` |
//! | §6 | `OpeningFree`: the free opening's four placements take no disc from the hand. | `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs`, `rules/classic-handicap-opening-hands-full` |
//! | §6 | `NoDiscsOpeningStuck`: a player without discs may not pass during the opening (the stuck position). | `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs`, `spec/rules-16` |
//! | §6 | `EndsWhenOutOfDiscs`: the game ends as soon as a player is out of discs (the opponent does not play on). | `rules/classic-no-discs-with-a-move`, `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs` |
//! | §6 | `PassHandsDisc`: a pass hands one of the passer's discs to the opponent (an old tradition). | `rules/classic-no-move-with-discs`, `rules/classic-out-of-discs`, `spec/rules-17` |
//! | §7.1 | `NeutralBreaks`: the neutral disc breaks runs instead of being flipped. | `rules/multi3-fallback`, `rules/multi3-mixed-run`, `rules/multi3-neutral-not-anchor` |
//! | §7.1 | `TurnOrderReversed`: 3-4 player turns go round the wrong way (Black, then the last colour). | `rules/multi3-neutral-unflipped`, `rules/multi3-neutral-left-at-end`, `rules/multi3-nobody-flips` |
//! | §7.1 | `MultiStartRotated`: the 3-4 player start discs placed anticlockwise from the top-left. | `rules/multi-flip-priority`, `rules/multi3-octagon-start`, `rules/multi3-start` |
//! | §7.1, §7.2 | `NeutralAnchors`: the neutral disc closes a run like the mover's own disc. | `rules/multi3-neutral-left-at-end`, `rules/multi3-fallback`, `rules/multi3-mixed-run` |
//! | §7.3 | `NoFallback`: no fallback placement, so a 3-4 player game ends when nobody can flip. | `rules/multi3-neutral-unflipped`, `rules/multi3-neutral-left-at-end`, `rules/multi3-nobody-flips` |
//! | §7.3 | `NeutralNotTouching`: the neutral disc does not count as touching for the fallback. | `rules/multi3-fallback`, `rules/multi3-neutral-not-anchor`, `spec/rules-21` |
//! | §7.3 | `EdgeOnlyTouching`: touching only along an edge, not at a corner. | `rules/multi3-nobody-flips`, `rules/multi-flip-priority`, `rules/multi3-fallback` |
//! | §7.3 | `FallbackAnywhere`: the fallback places on any empty square, touching or not. | `rules/multi3-nobody-flips`, `rules/multi-flip-priority`, `rules/multi3-blocked-pocket` |
//! | §7.4 | `NeutralAsEmpty`: the neutral disc counted as an empty square in the outcome. | `rules/multi3-neutral-unflipped`, `rules/multi3-neutral-left-at-end`, `setups/multi3-1` |
//! | §7.4 | `TieToFirst`: a tie for first place goes to the first of the tied in turn order (Black wins a two-player draw). | `rules/multi3-whole-table-draw`, `rules/raw-scoring-draw`, `rules/wof-draw-odd-empty` |
//! | §8 | `OccupiedBeforeGameOver`: `Occupied` before `GameOver`. | `rules/game-over-blocked-first`, `rules/octagon-over-off-board`, `rules/multi3-neutral-left-at-end` |
//! | §8 | `GameOverBeforeBlocked`: `GameOver` before `Blocked` and `OffBoard`. | `rules/game-over-blocked-first`, `rules/octagon-over-off-board` |
//! | §8 | `NoDiscsBeforeOccupied`: `NoDiscsLeft` before `Occupied`. | `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs`, `setups/classic-1` |
//! | §8 | `CentreBeforeNoDiscs`: `OutsideCentre` before `NoDiscsLeft`. | `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs`, `spec/rules-16` |
//! | §8, §7.3 | `NotTouchingFirst`: `NotTouching` before `FlipAvailable`. | `rules/multi-flip-priority`, `spec/rules-22`, `setups/multi3-octagon-blocked-c3-1` |
//! | §8 | `PassKindOrder`: a pass with legal moves is `PassWithMoves` even where nobody passes (`PassNotAllowed`: the free opening, 3-4 players). | `rules/classic-opening-no-discs`, `rules/classic-anti-opening-no-discs`, `rules/free-opening` |
//! | §9 | `HandicapPlaced`: handicap discs counted as placed from the hands in a classic setup. | `rules/classic-handicap-in-hand`, `rules/classic-handicap-white-to-move`, `setups/classic-handicap-white-2-1` |
//! | §9 | `InHandRounding`: the derived discs in hand rounded the wrong way (Black placed half rounded up when Black is to move). | `rules/classic-handicap-white-to-move`, `rules/classic-setup-in-hand`, `spec/rules-29` |
//! | §9 | `NotPlayableUnchecked`: a disc on a blocked square or a cut corner accepted (`NotPlayable` unchecked). | `rules/setup-disc-on-cut-corner`, `rules/setup-disc-on-blocked` |
//! | §9 | `ColorsUnchecked`: discs or the move of a colour that does not take part accepted (`ColorNotPlaying` unchecked). | `rules/setup-turn-not-playing`, `rules/setup-refusal-order`, `rules/setup-colour-not-playing` |
//! | §9 | `NeutralAllowed`: a neutral disc accepted outside a 3-player game (`NeutralNotAllowed` unchecked). | `rules/setup-neutral-in-two-player`, `spec/rules-27` |
//! | §9 | `SetupCheckOrder`: the setup checks out of order (`NeutralNotAllowed` before `ColorNotPlaying`). | `rules/setup-turn-not-playing`, `rules/setup-refusal-order` |
//! | §9 | `HandsUnchecked`: the discs in hand a setup gives are not checked (`InHandAboveSupply`, `InHandAboveTotal`). | `rules/classic-in-hand-above-total`, `spec/rules-28` |
//! | §9 | `TotalCountsHandicap`: the handicap discs counted with the discs placed in `InHandAboveTotal`. | `rules/classic-handicap-hands-full`, `rules/classic-handicap-opening-hands-full` |
//! | §2 | `RunCapSix`: a run of more than six discs never closes (a fixed-length walk). | `rules/edge-10x10-run-7`, `rules/edge-10x10-run-8`, `rules/edge-10x10-run-2` |
//! | §2 | `RunCapSeven`: a run of more than seven discs never closes. | `rules/edge-10x10-run-8`, `rules/edge-10x10-run-1` |
//! | §2, §4 | `LastRowIgnored`: rays stop before the last row (an off-by-one in the row bound). | `rules/edge-10x10-run-8`, `rules/edge-octagon-run-4`, `rules/classic-out-of-discs` |
//! | §2, §4 | `LastColumnIgnored`: rays stop before the last column. | `rules/edge-10x10-run-1`, `rules/edge-octagon-run-1`, `rules/classic-out-of-discs` |
//! | §4 | `TenthRowOff`: the tenth row is off the board (row numbers read as one digit). | `rules/edge-10x10-run-3`, `rules/edge-octagon-run-2`, `rules/multi4-10x10-start` |
//! | §4 | `TenthColumnOff`: the tenth column (`j`) is off the board. | `rules/edge-10x10-run-5`, `rules/edge-octagon-run-3`, `rules/multi4-10x10-start` |
//! | §4 | `OctagonBottomRightUncut`: the octagon's bottom-right corner is not cut. | `rules/octagon-over-off-board`, `rules/edge-octagon-run-1`, `rules/octagon-corners` |
//! | §4 | `OctagonCutsFewer`: the octagon cuts only its four corner squares. | `rules/octagon-over-off-board`, `rules/multi3-octagon-start`, `rules/octagon-corners` |
//! | §5.5 | `RawEmptiesToWinner`: raw scoring gives the empty squares to the winner. | `rules/raw-win-empties`, `rules/raw-white-wins-empties`, `rules/anti-raw-win-empties` |
//! | §3.4 | `WofEmptiesToBlack`: the WOF empties of a win always go to Black. | `rules/wof-white-wins-empties`, `rules/anti-black-wins-empties`, `rules/classic-no-move-with-discs` |
//! | §5.1 | `AntiDrawToWhite`: the empty squares of an anti draw go to White. | `rules/anti-draw-empties`, `rules/anti-draw-odd-empty` |
//! | §5.5 | `RawDrawSplit`: raw scoring splits the empty squares of a draw. | `rules/raw-scoring-draw`, `rules/anti-raw-draw-empties`, `spec/rules-09` |
//! | §3.4 | `EmptiesUnscored`: the WOF score leaves the empty squares unscored (the raw score). | `rules/game-over-blocked-first`, `rules/wof-white-wins-empties`, `rules/classic-ends-with-empties` |
//! | §2 | `NoDiagonals`: no diagonal runs. | `rules/classic-handicap-in-hand`, `rules/classic-handicap-white-to-move`, `spec/rules-01` |
//! | §2 | `FirstDiscOnly`: only the disc next to the new one flips in each closed run. | `rules/handicap-corner-closes-run`, `rules/edge-10x10-run-4`, `spec/rules-01` |
//! | §3.1, §4 | `CentreFromEight`: the start discs on d4 e4 d5 e5 whatever the board. | `rules/start-4x4`, `rules/start-6x6`, `rules/start-10x10` |
//! | §3.2 | `PassKeepsTurn`: a pass leaves the side to move unchanged. | `rules/pass`, `rules/classic-no-discs-with-a-move`, `rules/classic-opening-no-discs` |
//! | §7.4 | `NeutralScoredForBlack`: the neutral disc counted as Black's in the outcome. | `rules/multi3-neutral-unflipped`, `rules/multi3-neutral-left-at-end`, `setups/multi3-1` |
//! | §8 | `OccupiedAsFlipsNothing`: an occupied square refused as `FlipsNothing` in two-player games. | `rules/free-opening`, `rules/shorthand-forms`, `rules/handicap-corners` |
//! | §9 | `NeutralAllowedInFour`: a neutral disc accepted in a 4-player setup (checked for two players only). | `rules/setup-neutral-in-four-player`, `rules/setup-neutral-in-four-player-octagon` |
//! | §9 | `TurnIgnoredInSetup`: the side to move of a setup ignored (Black moves). | `rules/classic-handicap-white-to-move`, `rules/wof-white-wins-empties`, `rules/raw-white-wins-empties` |
//! | §6 | `SupplyOffByOne`: each player has 31 discs, not 32. | `rules/classic-handicap-in-hand`, `rules/classic-no-move-with-discs`, `rules/classic-setup-in-hand` |
//! | §3.3 | `LastMoverNamedAtEnd`: at the end the key names the last mover instead of the side after it. | `rules/game-over-blocked-first`, `rules/raw-win-empties`, `rules/edge-10x10-run-6` |
//! | §3.3, §8 | `OverPassNotAllowed`: a pass after the end refused as `PassNotAllowed`, not `GameOver`. | `rules/game-over-blocked-first`, `rules/game-over-full-board`, `rules/anti-draw-empties` |
//! | §8 | `OffBoardAsBlocked`: a square off the board refused as `Blocked`. | `rules/octagon-over-off-board`, `rules/octagon-corners`, `rules/game-over-blocked-first` |
//!
//! Not in the model, so guarded elsewhere: §1 (square names: `tests/movestr.rs`, the
//! scenario parser), `Overlap` of §9 (a diagram or a `start:` line cannot draw two discs on
//! a square: `tests/setups.rs`), the rules strings of §10 (`rules/rules-strings` and the §10
//! examples with their `parses`, `tests/rules.rs`), perft (§11, `tests/perft.rs`).

#[allow(dead_code)]
#[path = "reference/model.rs"]
mod model;

use model::{Bug, Game, Spot};
use reversi_check::scenario::{suite, JsonScenario, Scenario, StartGiven, Tried};
use reversi_engine::{Color, IllegalMove, Move, Rules, Square};
use serde_json::{Map, Value};

const BUGS: [Bug; 81] = [
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
    Bug::EndsWhenOutOfDiscs,
    Bug::PassHandsDisc,
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
    Bug::NotPlayableUnchecked,
    Bug::ColorsUnchecked,
    Bug::NeutralAllowed,
    Bug::SetupCheckOrder,
    Bug::HandsUnchecked,
    Bug::TotalCountsHandicap,
    Bug::RunCapSix,
    Bug::RunCapSeven,
    Bug::LastRowIgnored,
    Bug::LastColumnIgnored,
    Bug::TenthRowOff,
    Bug::TenthColumnOff,
    Bug::OctagonBottomRightUncut,
    Bug::OctagonCutsFewer,
    Bug::RawEmptiesToWinner,
    Bug::WofEmptiesToBlack,
    Bug::AntiDrawToWhite,
    Bug::RawDrawSplit,
    Bug::EmptiesUnscored,
    Bug::NoDiagonals,
    Bug::FirstDiscOnly,
    Bug::CentreFromEight,
    Bug::PassKeepsTurn,
    Bug::NeutralScoredForBlack,
    Bug::OccupiedAsFlipsNothing,
    Bug::NeutralAllowedInFour,
    Bug::TurnIgnoredInSetup,
    Bug::SupplyOffByOne,
    Bug::LastMoverNamedAtEnd,
    Bug::OverPassNotAllowed,
    Bug::OffBoardAsBlocked,
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
    let mut given = None;
    if let StartGiven::Line { text, .. } = &sc.start {
        let words: Vec<&str> = text.split_whitespace().collect();
        if let [_, _, b, w] = words.as_slice() {
            given = Some([b.parse().unwrap(), w.parse().unwrap()]);
        }
    }
    if sc.start != StartGiven::Rules {
        let refusal = Game::setup_refusal(&rules, &discs, turn, given, bug);
        if refusal != json.setup_refusal.as_deref() {
            return Some(format!("the setup refusal {refusal:?}"));
        }
    }
    if json.setup_refused.is_some() {
        return None;
    }
    let mut game = if sc.start == StartGiven::Rules {
        Game::new_with(&rules, bug)
    } else {
        Game::from_setup_with(&rules, &discs, turn, bug)
    };
    if let (Some([b, w]), Some(_)) = (given, rules.supply()) {
        game.set_in_hand(0, b);
        game.set_in_hand(1, w);
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

/// A scenario written by hand (`rules/`, the examples of spec/rules.md in `spec/`), not
/// drawn at random (`random/`, `combined/`, `setups/`).
fn is_hand_written(path: &str) -> bool {
    path.starts_with("rules/") || path.starts_with("spec/")
}

#[test]
fn every_planted_bug_is_caught_by_two_hand_written_scenarios() {
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
    // The scenarios that catch each bug, the bugs shared out between two threads.
    let catchers = |bug: Bug| -> Vec<&str> {
        cases
            .iter()
            .filter(|(_, sc, json)| caught(sc, json, Some(bug)).is_some())
            .map(|(p, _, _)| p.as_str())
            .collect()
    };
    let (first, second) = BUGS.split_at(BUGS.len() / 2);
    let found: Vec<Vec<&str>> = std::thread::scope(|s| {
        let other = s.spawn(|| second.iter().map(|&b| catchers(b)).collect::<Vec<_>>());
        let mut found: Vec<Vec<&str>> = first.iter().map(|&b| catchers(b)).collect();
        found.extend(other.join().unwrap());
        found
    });
    let mut report = Vec::new();
    let mut weak = Vec::new();
    for (bug, by) in BUGS.into_iter().zip(found) {
        let mut shown: Vec<&str> = by.clone();
        shown.sort_by_key(|p| {
            ["rules/", "spec/", "setups/", "combined/", "random/"]
                .iter()
                .position(|d| p.starts_with(d))
        });
        report.push(format!(
            "ROW|{bug:?}|{}|{}",
            by.len(),
            shown
                .iter()
                .take(3)
                .map(|p| p.trim_end_matches(".scenario"))
                .collect::<Vec<_>>()
                .join(", ")
        ));
        let hand_written: Vec<&&str> = by.iter().filter(|p| is_hand_written(p)).collect();
        if hand_written.len() < 2 {
            weak.push(format!(
                "{bug:?} is caught by fewer than two hand-written scenarios: {by:?}"
            ));
        }
    }
    eprintln!("{}", report.join("\n"));
    assert!(weak.is_empty(), "{}", weak.join("\n"));
    // The table of the doc comment: every bug once, each scenario named catches it.
    let mut listed = Vec::new();
    for row in include_str!("mutation.rs")
        .lines()
        .filter(|l| l.starts_with("//! | §") && !l.starts_with("//! | § |"))
    {
        let cells: Vec<&str> = row.split(" | ").collect();
        let name = cells[2].split('`').nth(1).unwrap();
        let bug = *BUGS
            .iter()
            .find(|b| format!("{b:?}") == name)
            .unwrap_or_else(|| panic!("the table names {name}, not in BUGS"));
        listed.push(bug);
        let named: Vec<&str> = cells[3].split('`').skip(1).step_by(2).collect();
        assert!(
            named.iter().filter(|n| is_hand_written(n)).count() >= 2,
            "{name}: the table names fewer than two hand-written scenarios"
        );
        for stem in named {
            let (_, sc, json) = cases
                .iter()
                .find(|(p, _, _)| p.trim_end_matches(".scenario") == stem)
                .unwrap_or_else(|| panic!("{name}: no scenario {stem}"));
            assert!(
                caught(sc, json, Some(bug)).is_some(),
                "{stem} does not catch {name}"
            );
        }
    }
    assert_eq!(
        listed.len(),
        BUGS.len(),
        "every bug has one row in the table"
    );
}
