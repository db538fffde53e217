//! Single-change suggestions for an illegal move: the edit search ([`crate::edits`]) that
//! `repair` uses, with one edit, so `validate` and `repair` never disagree. A change must make every move
//! legal and, when the record claims a result, agree with it; a change that makes the
//! moves legal but not the result is offered as such.

use crate::engine::Rules;
use crate::record::Record;

/// A suggestion for the first illegal move of `record`, if one change makes every move
/// legal (and the result as claimed, when it claims one) and the record valid.
pub(super) fn single_change(record: &Record) -> Option<String> {
    let valid = |r: &Record| super::validate_record(r, 0).errors() == 0;
    crate::edits::suggestion(record, &valid)
}

/// The variants tried by [`other_rules`], in the order they are named.
const OTHER_RULES: [&str; 8] = [
    "anti",
    "free",
    "classic",
    "othello:10x10",
    "othello:6x6",
    "othello:4x4",
    "othello:octagon",
    "anti:10x10",
];

/// For a record that states no rules (none given by its format, no `Rules` tag) and fails
/// under the rules it was read with: the few two-player variants under which it replays
/// without an error (the claimed result included), such as anti-reversi for a game whose
/// result only the fewest discs explain, or the free opening for a game that begins on
/// the centre squares. At most 8 replays; `None` when the record states its rules, has a
/// start position of its own, replays cleanly already, or fits no variant, or fits more
/// than two (then nothing is learnt).
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_check::validate::other_rules;
/// // Free opening: the first four moves fill the centre.
/// let games = Format::MoveString.read_bytes("d4e4e5d5c5\n", &ReadOptions::default()).unwrap();
/// let record = games[0].record.as_ref().unwrap();
/// let found: Vec<String> = other_rules(record).unwrap().iter().map(|r| r.to_string()).collect();
/// assert!(found.contains(&"free".to_string()), "{found:?}");
/// ```
pub fn other_rules(record: &Record) -> Option<Vec<Rules>> {
    if record.rules_span.is_some() || record.start.is_some() || record.moves.is_empty() {
        return None;
    }
    if super::replays_cleanly(record) {
        return None;
    }
    let mut fits = Vec::new();
    for text in OTHER_RULES {
        let Ok(rules) = text.parse::<Rules>() else {
            continue;
        };
        if rules == record.rules || rules.players() != record.rules.players() {
            continue;
        }
        let mut candidate = record.clone();
        candidate.rules = rules;
        if super::replays_cleanly(&candidate) {
            fits.push(rules);
        }
    }
    (1..=2).contains(&fits.len()).then_some(fits)
}

/// The help [`other_rules`] gives, to add to the first error of the game.
pub(crate) fn other_rules_help(record: &Record) -> Option<String> {
    let fits = other_rules(record)?;
    let named: Vec<String> = fits.iter().map(|r| format!("`{r}`")).collect();
    Some(format!(
        "the record states no rules and was read as `{}`, but its moves replay cleanly under {}: give the rules (a `Rules` tag, or --rules {})",
        record.rules,
        named.join(" or "),
        fits[0]
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{Color, Move};
    use crate::record::MoveRecord;

    fn record(rules: &str, moves: &str) -> Record {
        let mut record = Record::new(rules.parse().unwrap());
        for word in moves.split_whitespace() {
            let mv = match word {
                "--" => Move::Pass,
                sq => Move::Place(sq.parse().unwrap()),
            };
            record.moves.push(MoveRecord::new(mv));
        }
        record
    }

    #[test]
    fn a_swap_is_named_before_a_square() {
        // f5 d6 c3 d3 c4 with d6 and c3 swapped: c3 is illegal for White at move 2.
        let r = record("othello", "f5 c3 d6 d3 c4");
        assert_eq!(
            single_change(&r).as_deref(),
            Some("swapping moves 2 (c3) and 3 (d6) makes the game legal")
        );
    }

    #[test]
    fn a_square_in_place_of_an_illegal_pass() {
        // After f5 White may play d6, f4 or f6; Black's c3 then needs f4 or d6.
        let r = record("othello", "f5 -- c3");
        assert_eq!(
            single_change(&r).as_deref(),
            Some("any of f4, d6 instead of the pass at move 2 makes the game legal")
        );
    }

    #[test]
    fn never_the_same_square() {
        // Classic: Black has no disc left for b8, which White may fill after Black's pass.
        let mut r = record("classic", "e5 e4 d5 d4 f3 f6 d3 c3 f5 d2 c2 e3 b3 b2 c5 a3 d1 e1 c1 f4 g3 h3 f1 d6 g2 g1 f7 g4 h5 g7 f2 g6 a4 f8 d7 b1 e6 c8 g8 e7 h6 b4 b5 a5 h4 g5 h7 h8 a1 a2 c4 c6 e2 -- d8 e8 a6 c7 h1 h2 b7 a7 a8 b6 b8");
        let last = r.moves.len() - 1;
        r.moves[last].color = Some(Color::Black);
        assert_eq!(single_change(&r), None);
    }
}
