//! Property tests over random setups (`spec/rules.md` §9): whatever board, variant, discs in
//! hand, side to move and phase a setup has, the engine either refuses it or gives a
//! position where something is accepted: a legal placement, or a pass, or the game is over.
//! No position is stuck (no legal move, the pass refused, the game not over), and every
//! position reached by playing on from the setup holds the same.

use proptest::prelude::*;
use reversi_check::scenario::suite::SETUP_VARIANTS;
use reversi_engine::{Color, IllegalMove, Move, Position, Rules, Setup, SetupError, SquareSet};

/// The variants the setups are drawn under: the suite's (`SETUP_VARIANTS`: every preset,
/// the classic supply with and without a handicap, the free opening on every board,
/// blocked squares), and blocked squares under the classic supply.
fn variants() -> Vec<&'static str> {
    let mut variants = SETUP_VARIANTS.to_vec();
    variants.push("classic,blocked=a1+h8");
    variants
}

/// A setup drawn from `seeds`: each playable square holds nothing or a disc of a player (or
/// the neutral disc with three players); the free opening's centre is often left partly
/// empty, so setups fall in both phases.
fn setup_of(rules: &Rules, fill: u8, seeds: &[u8], turn: u8, keep_centre: bool) -> Setup {
    let players = rules.players() as usize;
    let mut discs = [SquareSet::EMPTY; 4];
    let mut neutral = SquareSet::EMPTY;
    let centre: SquareSet = rules.board().centre().into_iter().collect();
    for (i, sq) in rules.playable().iter().enumerate() {
        let seed = seeds[i % seeds.len()].wrapping_add(i as u8);
        if seed % 100 >= fill || (!keep_centre && centre.contains(sq) && seed % 2 == 0) {
            continue;
        }
        let who = (seed as usize / 7) % (players + usize::from(players == 3));
        if who == players {
            neutral.insert(sq);
        } else {
            discs[who].insert(sq);
        }
    }
    Setup {
        discs,
        neutral,
        turn: Color::ALL[turn as usize % players],
    }
}

/// Whether the position accepts something: a legal placement plays, or the pass does, or
/// the game is over (and then every move is refused as `GameOver`).
fn assert_not_stuck(pos: &Position, at: &str) {
    if pos.is_over() {
        let mut trial = *pos;
        assert_eq!(trial.play(Move::Pass), Err(IllegalMove::GameOver), "{at}");
        return;
    }
    match pos.legal_moves().first() {
        Some(sq) => {
            let mut trial = *pos;
            assert!(
                trial.play(Move::Place(sq)).is_ok(),
                "{at}: legal {sq} refused"
            );
        }
        None => {
            let mut trial = *pos;
            assert_eq!(
                trial.play(Move::Pass),
                Ok(()),
                "{at}: no legal move, the game not over, and the pass is refused:\n{pos}"
            );
            assert!(pos.must_pass(), "{at}: must pass");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 400, ..ProptestConfig::default() })]

    #[test]
    fn no_setup_is_stuck(
        variant in 0..variants().len(),
        fill in 0u8..100,
        seeds in prop::collection::vec(any::<u8>(), 1..24),
        turn in 0u8..4,
        keep_centre in any::<bool>(),
        hands in prop::option::of((0u8..=34, 0u8..=34)),
        choices in prop::collection::vec(any::<u16>(), 0..130),
    ) {
        let variant = variants()[variant];
        let rules: Rules = variant.parse().unwrap();
        let setup = setup_of(&rules, fill, &seeds, turn, keep_centre);
        let hands = hands.map(|(b, w)| [b, w]);
        let mut pos = match Position::from_setup_in_hand(rules, setup, hands) {
            Ok(pos) => pos,
            Err(SetupError::InHandAboveSupply { in_hand, supply, .. }) => {
                prop_assert!(in_hand > supply);
                return Ok(());
            }
            Err(SetupError::InHandAboveTotal { in_hand, placed, total }) => {
                prop_assert!(u16::from(in_hand[0]) + u16::from(in_hand[1]) + placed > total);
                return Ok(());
            }
            Err(SetupError::NeutralNotAllowed(_)) => {
                prop_assert!(rules.players() != 3);
                return Ok(());
            }
            Err(e) => panic!("{}: a setup of playable squares refused: {e}", variant),
        };
        let at = format!("{} {setup:?} in hand {hands:?}", variant);
        // Played on to the end (or the moves drawn), every position accepts something.
        for (ply, choice) in choices.iter().enumerate() {
            assert_not_stuck(&pos, &format!("{at}, ply {ply}"));
            if pos.is_over() {
                break;
            }
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            let mv = if legal.is_empty() {
                Move::Pass
            } else {
                Move::Place(legal[*choice as usize % legal.len()])
            };
            prop_assert!(pos.play(mv).is_ok());
        }
        assert_not_stuck(&pos, &at);
    }
}

/// The case the property was written for: classic reversi, the free opening, the side to
/// move without discs. It passes (`spec/rules.md` §6), and the opponent goes on placing.
#[test]
fn a_player_without_discs_passes_in_the_free_opening() {
    let rules: Rules = "classic".parse().unwrap();
    let empty = Position::new(rules).setup();
    let mut pos = Position::from_setup_in_hand(rules, empty, Some([0, 20])).unwrap();
    assert_eq!(pos.phase(), "opening");
    assert!(pos.legal_moves().is_empty());
    assert!(pos.must_pass());
    assert!(!pos.is_over());
    pos.play(Move::Pass).unwrap();
    assert_eq!(pos.turn(), Color::White);
    // White, with discs, may not pass in the opening.
    assert_eq!(pos.play(Move::Pass), Err(IllegalMove::PassNotAllowed));
    pos.play(Move::Place("d4".parse().unwrap())).unwrap();
    pos.play(Move::Pass).unwrap();
    assert_eq!(pos.turn(), Color::White);
}

/// Discs in hand beyond what the game has are refused at setup, with a stable kind.
#[test]
fn discs_in_hand_beyond_the_game_are_refused() {
    let rules: Rules = "classic".parse().unwrap();
    let start = Position::new(rules).setup();
    let e = Position::from_setup_in_hand(rules, start, Some([40, 40])).unwrap_err();
    assert_eq!(e.kind(), "InHandAboveSupply");
    assert_eq!(
        e.to_string(),
        "black is given 40 discs in hand, more than the 32 each player has"
    );
    let e = Position::from_setup_in_hand(rules, start, Some([32, 33])).unwrap_err();
    assert!(e.to_string().starts_with("white is given 33"), "{e}");
    // The empty board of classic: 64 discs in hand is every disc of the game.
    assert!(Position::from_setup_in_hand(rules, start, Some([32, 32])).is_ok());
    let mut four = start;
    four.discs[0] = ["d5", "e4"].iter().map(|s| s.parse().unwrap()).collect();
    four.discs[1] = ["d4", "e5"].iter().map(|s| s.parse().unwrap()).collect();
    let e = Position::from_setup_in_hand(rules, four, Some([31, 31])).unwrap_err();
    assert_eq!(e.kind(), "InHandAboveTotal");
    assert!(Position::from_setup_in_hand(rules, four, Some([30, 30])).is_ok());
    // Handicap discs do not come from the hands.
    let rules: Rules = "classic,handicap=white:2".parse().unwrap();
    let start = Position::new(rules).setup();
    assert!(Position::from_setup_in_hand(rules, start, Some([32, 32])).is_ok());
    // Without a supply, the hands are ignored.
    let rules = Rules::default();
    let start = Position::new(rules).setup();
    assert!(Position::from_setup_in_hand(rules, start, Some([40, 40])).is_ok());
}

/// `spec/rules.md` §9: two discs on one square are `Overlap`, and the checks come in the
/// table's order: a disc off the board is `NotPlayable` even when an overlap comes in an
/// earlier colour (the engine once checked colour by colour and reported the overlap).
#[test]
fn overlaps_are_refused_after_unplayable_squares() {
    let rules: Rules = "multi3".parse().unwrap();
    let sq = |name: &str| name.parse().unwrap();
    let mut setup = Position::new(rules).setup();
    setup.discs[1].insert(sq("d4")); // d4 holds Black's start disc too
    let e = Position::from_setup(rules, setup).unwrap_err();
    assert_eq!(e, SetupError::Overlap(sq("d4")));
    assert_eq!(e.kind(), "Overlap");
    // The same overlap with a neutral disc off the 8x8 board (i1 is on the 10x10 grid).
    setup.neutral.insert(sq("i1"));
    let e = Position::from_setup(rules, setup).unwrap_err();
    assert_eq!(e, SetupError::NotPlayable(sq("i1")));
    // A neutral disc on a square a colour holds overlaps too.
    let mut setup = Position::new(rules).setup();
    setup.neutral.insert(sq("e4"));
    let e = Position::from_setup(rules, setup).unwrap_err();
    assert_eq!(e, SetupError::Overlap(sq("e4")));
}
