//! The one way writers word what they drop: the claims a record makes around its moves
//! (result, comments, flips, colours, evaluations, times, position claims) and its tags,
//! phrased alike whatever the target format, and grouped by [`LossSummary`](super::LossSummary)
//! across games.

use crate::record::{MoveRecord, Record, Tag, Termination};

/// Something a record claims around its moves that a target format may have no place for.
///
/// The order here is the order [`ClaimLosses::into_vec`] lists them in.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Debug)]
pub enum Claim {
    /// The claimed result: `the result`.
    Result,
    /// The comment on the whole game: `the game comment`.
    GameComment,
    /// Comments on moves: `a comment on move 6`.
    MoveComment,
    /// The discs a move claims to flip: `flip claims on moves 1, 2`.
    Flips,
    /// The colour a move claims to be played by: `a colour claim on move 2`.
    Colour,
    /// Evaluations of moves: `an evaluation on move 6`.
    Eval,
    /// Times of moves: `a time on move 6`.
    Time,
    /// Positions claimed after a number of moves: `a position claim after move 8`.
    Position,
}

impl Claim {
    /// Every claim, in listing order.
    pub const ALL: [Claim; 8] = [
        Claim::Result,
        Claim::GameComment,
        Claim::MoveComment,
        Claim::Flips,
        Claim::Colour,
        Claim::Eval,
        Claim::Time,
        Claim::Position,
    ];

    /// What a format that holds only moves and a result loses of a game's annotations:
    /// every claim but the result and the moves' colours (WTHOR, thor PGN).
    pub const ANNOTATIONS: [Claim; 6] = [
        Claim::GameComment,
        Claim::MoveComment,
        Claim::Flips,
        Claim::Eval,
        Claim::Time,
        Claim::Position,
    ];

    /// The claims made per move (or after a move), listed with their move numbers.
    const PER_MOVE: [Claim; 6] = [
        Claim::MoveComment,
        Claim::Flips,
        Claim::Colour,
        Claim::Eval,
        Claim::Time,
        Claim::Position,
    ];

    /// `(one, many, preposition)` for a per-move claim; `None` for the others.
    fn words(self) -> Option<(&'static str, &'static str, &'static str)> {
        Some(match self {
            Claim::Result | Claim::GameComment => return None,
            Claim::MoveComment => ("a comment", "comments", "on"),
            Claim::Flips => ("a flip claim", "flip claims", "on"),
            Claim::Colour => ("a colour claim", "colour claims", "on"),
            Claim::Eval => ("an evaluation", "evaluations", "on"),
            Claim::Time => ("a time", "times", "on"),
            Claim::Position => ("a position claim", "position claims", "after"),
        })
    }

    /// Whether `m` makes this claim (never, for the claims not made by a move).
    fn made_by(self, m: &MoveRecord) -> bool {
        match self {
            Claim::Result | Claim::GameComment | Claim::Position => false,
            Claim::MoveComment => m.comment.is_some(),
            Claim::Flips => m.flips.is_some(),
            Claim::Colour => m.color.is_some(),
            Claim::Eval => m.eval.is_some(),
            Claim::Time => m.time.is_some(),
        }
    }

    /// The phrase for this claim on the 1-based move `numbers` (sorted, not empty): one
    /// move, a few listed, or many as a count and a range.
    fn phrase(self, numbers: &[usize]) -> String {
        match (self, self.words()) {
            (Claim::Result, _) => "the result".to_owned(),
            (Claim::GameComment, _) | (_, None) => "the game comment".to_owned(),
            (_, Some((one, many, at))) => on_moves((one, many), at, numbers),
        }
    }
}

/// Something found on the 1-based move `numbers` (sorted, not empty), given as `(one,
/// many)`: `a comment on move 6`, `comments on moves 3, 9`, `8 flip claims (on moves 1 to
/// 8)`. Refusals that name moves use it too, so that they read like the losses.
pub(crate) fn on_moves(what: (&str, &str), at: &str, numbers: &[usize]) -> String {
    let (one, many) = what;
    match numbers {
        [n] => format!("{one} {at} move {n}"),
        few if few.len() <= FEW => {
            let list: Vec<String> = few.iter().map(usize::to_string).collect();
            format!("{many} {at} moves {}", list.join(", "))
        }
        all => format!(
            "{} {many} ({at} moves {} to {})",
            all.len(),
            all[0],
            all[all.len() - 1]
        ),
    }
}

/// Moves listed one by one in a phrase; more are given as a count and a range.
const FEW: usize = 6;

/// What a record loses of its [`Claim`]s in a target format, collected by a writer and
/// listed one phrase per kind: every writer words these losses through this type, so a
/// comment on move 6 reads the same whichever format dropped it.
///
/// A writer either names the claims its format has no place for ([`ClaimLosses::of`]) or,
/// when only some moves lose a claim, adds them one at a time ([`ClaimLosses::on_move`]).
///
/// ```
/// use reversi_formats::capabilities::{Claim, ClaimLosses};
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_engine::Move;
/// let mut record = Record::default();
/// for sq in ["f5", "d6", "c3"] {
///     let mut m = MoveRecord::new(Move::Place(sq.parse().unwrap()));
///     m.eval = Some(1.5);
///     record.moves.push(m);
/// }
/// record.moves[1].comment = Some("the only move".into());
/// record.comment = Some("a club game".into());
/// // A format that holds comments but no evaluations or times:
/// let lost = ClaimLosses::of(&record, &[Claim::Eval, Claim::Time]);
/// assert_eq!(lost.into_vec(), ["evaluations on moves 1, 2, 3"]);
/// // A plain list of moves holds none of them:
/// let lost = ClaimLosses::of(&record, &Claim::ALL);
/// assert_eq!(
///     lost.into_vec(),
///     ["the game comment", "a comment on move 2", "evaluations on moves 1, 2, 3"]
/// );
/// // Claims lost by some moves only (here a colour that replay contradicts):
/// let mut lost = ClaimLosses::default();
/// lost.on_move(Claim::Colour, 2);
/// assert_eq!(lost.into_vec(), ["a colour claim on move 2"]);
/// ```
#[derive(Clone, Debug, Default)]
pub struct ClaimLosses {
    /// The record's result and game comment, when lost.
    whole: Vec<Claim>,
    /// The 1-based move numbers each per-move claim is lost on, in [`Claim::PER_MOVE`] order.
    moves: [Vec<usize>; 6],
}

impl ClaimLosses {
    /// The `claims` of `record`, those it makes, as lost: per-move claims with the moves
    /// that make them (position claims with the number of moves they follow).
    pub fn of(record: &Record, claims: &[Claim]) -> ClaimLosses {
        let mut lost = ClaimLosses::default();
        lost.add(record, claims);
        lost
    }

    /// The result as lost: what a format without results loses of a game that has only
    /// moves and a result.
    pub fn of_result() -> ClaimLosses {
        let mut lost = ClaimLosses::default();
        lost.on_move(Claim::Result, 0);
        lost
    }

    /// Adds the `claims` of `record` as lost, as [`ClaimLosses::of`] does.
    pub fn add(&mut self, record: &Record, claims: &[Claim]) {
        for &claim in claims {
            match claim {
                Claim::Result if record.result.is_some() => self.on_move(claim, 0),
                Claim::GameComment if record.comment.is_some() => self.on_move(claim, 0),
                Claim::Result | Claim::GameComment => {}
                Claim::Position => {
                    for p in &record.positions {
                        self.on_move(claim, p.after_moves);
                    }
                }
                _ => {
                    for (i, m) in record.moves.iter().enumerate() {
                        if claim.made_by(m) {
                            self.on_move(claim, i + 1);
                        }
                    }
                }
            }
        }
    }

    /// `claim` as lost on the 1-based move `number` (for [`Claim::Position`], the number
    /// of moves the position follows). For the result and the game comment, the number is
    /// ignored.
    pub fn on_move(&mut self, claim: Claim, number: usize) {
        match Claim::PER_MOVE.iter().position(|&c| c == claim) {
            Some(i) => self.moves[i].push(number),
            None if !self.whole.contains(&claim) => self.whole.push(claim),
            None => {}
        }
    }

    /// Whether nothing is lost.
    pub fn is_empty(&self) -> bool {
        self.whole.is_empty() && self.moves.iter().all(Vec::is_empty)
    }

    /// One phrase per kind of claim lost, in [`Claim`] order.
    pub fn into_vec(mut self) -> Vec<String> {
        self.whole.sort();
        let mut out: Vec<String> = self.whole.iter().map(|c| c.phrase(&[])).collect();
        for (claim, mut numbers) in Claim::PER_MOVE.into_iter().zip(self.moves) {
            if !numbers.is_empty() {
                numbers.sort_unstable();
                numbers.dedup();
                out.push(claim.phrase(&numbers));
            }
        }
        out
    }

    /// Appends the phrases to `losses`.
    pub fn append_to(self, losses: &mut Vec<String>) {
        losses.extend(self.into_vec());
    }
}

/// `tags (Event, Black)`: the tags of a record for a format that holds none of them.
pub(crate) fn tags_phrase(tags: &[Tag]) -> String {
    tag_names_phrase(tags.iter().map(|t| t.name.as_str()))
}

/// [`tags_phrase`] for the tags of these names.
pub(crate) fn tag_names_phrase<'a>(names: impl Iterator<Item = &'a str>) -> String {
    let mut phrase = String::from("tags (");
    for (i, name) in names.enumerate() {
        if i > 0 {
            phrase.push_str(", ");
        }
        phrase.push_str(name);
    }
    phrase.push(')');
    phrase
}

/// ``the tag `Site` ``: one tag a format has no place for.
pub(crate) fn tag_phrase(name: &str) -> String {
    format!("the tag `{name}`")
}

/// How a game ended, for a format that holds only that it ended normally: `the resignation
/// of White`, `a loss on time`, `the mark of an unfinished game`. `None` for a normal end.
pub(crate) fn termination_phrase(termination: Termination) -> Option<String> {
    Some(match termination {
        Termination::Normal => return None,
        Termination::Resignation(Some(c)) => format!("the resignation of {c}"),
        Termination::Resignation(None) => "a resignation".to_owned(),
        Termination::Time(Some(c)) => format!("the loss on time of {c}"),
        Termination::Time(None) => "a loss on time".to_owned(),
        Termination::Unfinished => "the mark of an unfinished game".to_owned(),
        Termination::Agreement => "the agreed-score mark".to_owned(),
    })
}

/// A loss with its numbers masked: what [`LossSummary`](super::LossSummary) groups by. A
/// claim lost on one move, a few or many is one kind.
pub(crate) fn kind(loss: &str) -> String {
    let masked = mask_numbers(loss);
    for claim in Claim::PER_MOVE {
        let Some((one, many, at)) = claim.words() else {
            continue;
        };
        let forms = [
            format!("{one} {at} move #"),
            format!("{many} {at} moves #"),
            format!("# {many} ({at} moves # to #)"),
        ];
        if forms.contains(&masked) {
            return forms[1].clone();
        }
    }
    masked
}

/// `loss` with each number `#` and lists of numbers one `#`.
fn mask_numbers(loss: &str) -> String {
    let mut out = String::with_capacity(loss.len());
    let mut in_number = false;
    for c in loss.chars() {
        if c.is_ascii_digit() {
            if !in_number {
                out.push('#');
            }
            in_number = true;
        } else {
            in_number = false;
            out.push(c);
        }
    }
    while out.contains("#, #") {
        out = out.replace("#, #", "#");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Move;
    use crate::record::PositionClaim;

    #[test]
    fn one_few_and_many_moves() {
        let mut lost = ClaimLosses::default();
        lost.on_move(Claim::Time, 4);
        for n in (1..=8).rev() {
            lost.on_move(Claim::Flips, n);
        }
        lost.on_move(Claim::MoveComment, 9);
        lost.on_move(Claim::MoveComment, 3);
        lost.on_move(Claim::GameComment, 0);
        assert_eq!(
            lost.into_vec(),
            [
                "the game comment",
                "comments on moves 3, 9",
                "8 flip claims (on moves 1 to 8)",
                "a time on move 4"
            ]
        );
    }

    #[test]
    fn only_the_claims_the_record_makes() {
        let mut record = Record::default();
        record.moves.push(MoveRecord::new(Move::Pass));
        assert!(ClaimLosses::of(&record, &Claim::ALL).is_empty());
        let setup = record.start_setup();
        record.positions.push(PositionClaim {
            after_moves: 1,
            setup,
            span: None,
        });
        assert_eq!(
            ClaimLosses::of(&record, &[Claim::Position]).into_vec(),
            ["a position claim after move 1"]
        );
    }

    #[test]
    fn every_form_of_a_claim_is_one_kind() {
        let k = kind("a comment on move 6");
        assert_eq!(k, kind("comments on moves 3, 5"));
        assert_eq!(k, kind("11 comments (on moves 8 to 28)"));
        assert_ne!(k, kind("a time on move 6"));
        assert_eq!(kind("the tag `Site`"), "the tag `Site`");
        assert_eq!(
            kind("a result of 3 disc counts"),
            "a result of # disc counts"
        );
    }
}
