//! Random play through the engine. The first bytes choose the rules (preset, board,
//! options, blocked squares, handicap); each later byte chooses one of the legal moves
//! (the first legal move once the bytes run out, so every input plays a whole game).
//!
//! At every position: every legal square plays and flips what `flips` said, only discs of
//! other colours (or the neutral disc); every other square of the 10x10 grid is refused and
//! leaves the position unchanged; a pass is accepted exactly when `must_pass`; the disc
//! totals move by one placed disc and the flipped ones; the game ends within the number of
//! playable squares (plus passes) and its outcome agrees with the board.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::{Move, Position, Rules, Square, SquareSet};

const PRESETS: [&str; 6] = ["othello", "anti", "free", "classic", "multi3", "multi4"];
const BOARDS: [&str; 5] = ["4x4", "6x6", "8x8", "10x10", "octagon"];

/// A rules string from the first bytes, and how many bytes it used.
fn rules_text(data: &[u8]) -> Option<(String, usize)> {
    let [preset, board, flags, extra, rest @ ..] = data else {
        return None;
    };
    let mut text = format!(
        "{}:{}",
        PRESETS[*preset as usize % PRESETS.len()],
        BOARDS[*board as usize % BOARDS.len()]
    );
    if flags & 1 != 0 {
        text.push_str(",anti");
    }
    if flags & 2 != 0 {
        text.push_str(",free");
    }
    if flags & 4 != 0 {
        text.push_str(",scoring=raw");
    }
    if flags & 8 != 0 {
        let colour = if extra & 1 == 0 { "black" } else { "white" };
        text.push_str(&format!(",handicap={colour}:{}", 1 + (extra >> 1) % 4));
    }
    let blocked = ((flags >> 4) % 4) as usize;
    let mut used = 4;
    if blocked > 0 {
        let squares: Vec<String> = rest
            .iter()
            .take(blocked)
            .filter_map(|b| Square::from_index(b % 100))
            .map(|sq| sq.to_string())
            .collect();
        used += squares.len();
        if !squares.is_empty() {
            text.push_str(&format!(",blocked={}", squares.join("+")));
        }
    }
    Some((text, used))
}

fn all_discs(pos: &Position) -> SquareSet {
    pos.rules()
        .colors()
        .iter()
        .fold(pos.neutral(), |acc, &c| acc.union(pos.discs(c)))
}

/// Checks every invariant of `pos`: the board, each square played or refused, the pass,
/// and the outcome.
fn check_position(pos: &Position) {
    check_board(pos);
    let legal = pos.legal_moves();
    for index in 0..100u8 {
        let sq = Square::from_index(index).expect("a square of the 10x10 grid");
        check_square(pos, sq, legal.contains(sq));
    }
    check_pass(pos);
    check_outcome(pos);
}

/// Legal moves on empty squares, empty squares on the board, discs and empties filling it,
/// and a mover who plays.
fn check_board(pos: &Position) {
    let rules = *pos.rules();
    let legal = pos.legal_moves();
    let empty = pos.empty();
    let playable = rules.playable();
    assert_eq!(
        legal.difference(empty),
        SquareSet::EMPTY,
        "legal moves on full squares"
    );
    assert_eq!(
        empty.difference(playable),
        SquareSet::EMPTY,
        "empty squares off the board"
    );
    assert_eq!(
        all_discs(pos).len() + empty.len(),
        playable.len(),
        "discs and empty squares do not fill the board"
    );
    let mover = pos.turn();
    assert!(
        rules.colors().contains(&mover),
        "{mover} moves but does not play"
    );
}

/// `sq` refused by `flips` and `play` alike, leaving the position as it was, unless it is
/// `legal`; when legal, what it flips and the position after it.
fn check_square(pos: &Position, sq: Square, legal: bool) {
    let flips = pos.flips(sq);
    let mut after = *pos;
    let played = after.play_with_flips(Move::Place(sq));
    if !legal {
        assert!(flips.is_err(), "{sq} is not legal but flips says {flips:?}");
        assert!(played.is_err(), "{sq} is not legal but plays");
        assert_eq!(after, *pos, "a refused move changed the position");
        return;
    }
    let flipped = flips.unwrap_or_else(|e| panic!("legal {sq} refused by flips: {e}"));
    let played = played.unwrap_or_else(|e| panic!("legal {sq} refused by play: {e}"));
    assert_eq!(played, flipped, "play and flips disagree on {sq}");
    let mover = pos.turn();
    assert!(!flipped.contains(sq), "{sq} flips itself");
    assert_eq!(
        flipped.intersection(pos.discs(mover)),
        SquareSet::EMPTY,
        "{sq} flips the mover's own discs"
    );
    let others = all_discs(pos).difference(pos.discs(mover));
    assert_eq!(
        flipped.difference(others),
        SquareSet::EMPTY,
        "{sq} flips empty squares"
    );
    check_after_move(pos, &after, sq, flipped);
}

/// The position `after` the mover of `pos` played `sq`, flipping `flipped`: the discs of
/// every colour, the neutral discs, the total, the turn and the discs in hand.
fn check_after_move(pos: &Position, after: &Position, sq: Square, flipped: SquareSet) {
    let rules = *pos.rules();
    let mover = pos.turn();
    let mut expected = pos.discs(mover).union(flipped);
    expected.insert(sq);
    assert_eq!(after.discs(mover), expected, "{sq}: the mover's discs");
    for &c in rules.colors() {
        if c != mover {
            assert_eq!(
                after.discs(c),
                pos.discs(c).difference(flipped),
                "{sq}: {c}'s discs"
            );
        }
    }
    assert_eq!(
        after.neutral(),
        pos.neutral().difference(flipped),
        "{sq}: neutral disc"
    );
    assert_eq!(
        all_discs(after).len(),
        all_discs(pos).len() + 1,
        "{sq}: disc total"
    );
    assert_eq!(after.turn(), mover.next(rules.players()), "{sq}: the turn");
    if let Some(n) = pos.in_hand(mover) {
        assert_eq!(after.in_hand(mover), Some(n - 1), "{sq}: discs in hand");
    }
}

/// A pass accepted exactly when the mover must pass (then to a player who can move), and
/// the game over exactly when no one can move.
fn check_pass(pos: &Position) {
    let rules = *pos.rules();
    let legal = pos.legal_moves();
    let mover = pos.turn();
    let mut passed = *pos;
    let pass = passed.play(Move::Pass);
    assert_eq!(
        pass.is_ok(),
        pos.must_pass(),
        "pass accepted: {pass:?}, must pass: {}",
        pos.must_pass()
    );
    if pos.must_pass() {
        assert!(legal.is_empty(), "must pass with legal moves");
        assert_eq!(
            passed.turn(),
            mover.next(rules.players()),
            "a pass keeps the turn"
        );
        assert_eq!(
            passed.legal_moves().is_empty(),
            false,
            "a pass to a player who cannot move"
        );
    } else {
        assert_eq!(passed, *pos, "a refused pass changed the position");
    }
    assert_eq!(
        pos.is_over(),
        legal.is_empty() && !pos.must_pass(),
        "game over disagrees with the legal moves"
    );
}

/// An outcome exactly when the game is over, counting the board's discs and empties, with
/// scores that add up and a winner who plays.
fn check_outcome(pos: &Position) {
    let rules = *pos.rules();
    let empty = pos.empty();
    let Some(outcome) = pos.outcome() else {
        assert!(!pos.is_over(), "a finished game has no outcome");
        return;
    };
    assert!(pos.is_over(), "an unfinished game has an outcome");
    let mut total = 0usize;
    for &c in rules.colors() {
        assert_eq!(outcome.discs[c.index()] as usize, pos.discs(c).len());
        total += pos.discs(c).len();
    }
    assert_eq!(outcome.neutral as usize, pos.neutral().len());
    assert_eq!(outcome.empty as usize, empty.len());
    let scored: usize = outcome.score.iter().map(|&s| s as usize).sum();
    assert!(
        scored == total || scored == total + empty.len() || scored + 1 == total + empty.len(),
        "scores {:?} do not add up to {total} discs and {} empty",
        outcome.score,
        empty.len()
    );
    if let Some(winner) = outcome.winner {
        assert!(
            rules.colors().contains(&winner),
            "{winner} wins but does not play"
        );
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((text, used)) = rules_text(data) else {
        return;
    };
    let Ok(rules) = text.parse::<Rules>() else {
        return;
    };
    let mut pos = Position::new(rules);
    let mut choices = data[used..].iter();
    // Every ply fills a square or passes, and two passes in a row end a game.
    let limit = 2 * rules.playable().len() + 2;
    for _ in 0..limit {
        check_position(&pos);
        if pos.is_over() {
            return;
        }
        if pos.must_pass() {
            pos.play(Move::Pass).expect("checked above");
            continue;
        }
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        let pick = choices.next().map_or(0, |&b| b as usize % legal.len());
        pos.play(Move::Place(legal[pick])).expect("checked above");
    }
    panic!("{text}: the game did not end within {limit} plies:\n{pos}");
});
