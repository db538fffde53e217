//! The result as a candidate edit: when the moves replay legally to the end but the
//! claimed result is not the board's, what kind of slip it was (a reversed score, counts in
//! another colour order, a digit typo, the raw disc count) and how likely that is.

use serde::Serialize;

use crate::engine::{Color, Outcome, Position};
use crate::record::score::{join_counts, result_mismatch, score_text};
use crate::record::{ClaimedResult, Record, ResultScore, TagName, Termination};

use super::{Edit, EditKind};

/// What is wrong with a claimed result the board contradicts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum ResultFault {
    /// The counts in reverse order (`50-14` for `14-50`; with 3-4 players the whole list
    /// reversed), a margin with the wrong sign, or the loser named as the winner.
    Reversed,
    /// The board's counts in another colour order that is not the reversal (3-4 players:
    /// two colours' counts exchanged, or the list rotated).
    ColourOrder,
    /// One count (or the margin) with one digit changed, added, dropped, or two adjacent
    /// digits transposed.
    DigitTypo,
    /// The raw disc count where the rules' scoring gives the empty squares to the winner.
    RawCount,
    /// Any other result: the board gives another.
    Other,
}

impl ResultFault {
    /// The kebab-case name, as JSON writes it.
    ///
    /// ```
    /// use reversi_check::repair::ResultFault;
    /// assert_eq!(ResultFault::ColourOrder.name(), "colour-order");
    /// ```
    pub const fn name(self) -> &'static str {
        match self {
            ResultFault::Reversed => "reversed",
            ResultFault::ColourOrder => "colour-order",
            ResultFault::DigitTypo => "digit-typo",
            ResultFault::RawCount => "raw-count",
            ResultFault::Other => "other",
        }
    }

    /// How the report says it: "reversed", "a digit typo", ...; `None` for
    /// [`ResultFault::Other`].
    pub const fn phrase(self) -> Option<&'static str> {
        match self {
            ResultFault::Reversed => Some("reversed"),
            ResultFault::ColourOrder => Some("the counts in another colour order"),
            ResultFault::DigitTypo => Some("a digit typo"),
            ResultFault::RawCount => Some("the raw disc count"),
            ResultFault::Other => None,
        }
    }

    /// The cost of the slip, on the scale of move edits (`plausibility`): a reversed
    /// score or a raw count is as likely as two adjacent moves swapped; a digit typo as a
    /// neighbouring square; any other wrong result is less likely than most misreadings.
    pub(crate) const fn cost(self) -> u32 {
        match self {
            ResultFault::Reversed | ResultFault::ColourOrder | ResultFault::RawCount => 1,
            ResultFault::DigitTypo => 2,
            ResultFault::Other => 6,
        }
    }
}

/// The result edit that makes a record agree with its final board.
#[derive(Clone, Debug)]
pub(crate) struct ResultFix {
    /// The board's result, in the form the record claimed it (counts, margin or winner).
    pub(crate) claim: ClaimedResult,
    /// The edit as reported.
    pub(crate) edit: Edit,
    /// Its cost.
    pub(crate) cost: u32,
}

/// The result edit `record` needs when its moves end in `end`: `None` when the claim
/// agrees with the board, claims nothing checkable (no score, a resignation, ...), or the
/// game is not over. A claim of `50-14` where the board gives `14-50` is
/// [`ResultFault::Reversed`], and the fix claims `14-50`.
pub(crate) fn result_fix(record: &Record, end: &Position) -> Option<ResultFix> {
    let claim = record.result.as_ref()?;
    if claim.termination != Termination::Normal || claim.score.is_none() {
        return None;
    }
    let outcome = end.outcome()?;
    result_mismatch(record, claim, &outcome)?;
    let players = record.rules.players() as usize;
    let real = &outcome.score[..players];
    let (score, fault) = match &claim.score {
        ResultScore::None => return None,
        ResultScore::Discs(counts) => (
            ResultScore::Discs(real.to_vec()),
            counts_fault(counts, real, &outcome.discs[..players]),
        ),
        ResultScore::Margin(_) if players != 2 => {
            (ResultScore::Discs(real.to_vec()), ResultFault::Other)
        }
        ResultScore::Margin(m) => {
            let komi: f64 = record
                .tag(TagName::KOMI)
                .and_then(|k| k.trim().parse().ok())
                .unwrap_or(0.0);
            let expected = f64::from(outcome.margin()) - komi + 0.0;
            (ResultScore::Margin(expected), margin_fault(*m, expected))
        }
        ResultScore::Winner(w) => (
            ResultScore::Winner(outcome.winner),
            winner_fault(*w, &outcome, players),
        ),
    };
    let text = |s: &ResultScore| match s {
        ResultScore::Discs(c) => score_text(s).unwrap_or_else(|| join_counts(c)),
        s => score_text(s).unwrap_or_default(),
    };
    let edit = Edit {
        kind: EditKind::Result,
        move_number: 0,
        other: None,
        square: None,
        written: text(&claim.score),
        now: text(&score),
        fault: Some(fault),
        span: claim.span,
    };
    Some(ResultFix {
        claim: ClaimedResult {
            score,
            termination: Termination::Normal,
            span: claim.span,
        },
        edit,
        cost: fault.cost(),
    })
}

/// The kind of slip that wrote `claimed` for the board's `real` counts (`raw`: the disc
/// count before the scoring gives out the empty squares).
fn counts_fault(claimed: &[u8], real: &[u8], raw: &[u8]) -> ResultFault {
    if claimed.len() != real.len() {
        return ResultFault::Other;
    }
    let mut reversed = real.to_vec();
    reversed.reverse();
    if claimed == reversed.as_slice() {
        return ResultFault::Reversed;
    }
    let (mut a, mut b) = (claimed.to_vec(), real.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    if a == b {
        return ResultFault::ColourOrder;
    }
    if claimed == raw {
        return ResultFault::RawCount;
    }
    let differing: Vec<(u8, u8)> = claimed
        .iter()
        .zip(real)
        .filter(|(c, r)| c != r)
        .map(|(&c, &r)| (c, r))
        .collect();
    match differing.as_slice() {
        [(c, r)] if digit_typo(&c.to_string(), &r.to_string()) => ResultFault::DigitTypo,
        _ => ResultFault::Other,
    }
}

/// The slip that wrote the margin `claimed` for the board's `real` one.
fn margin_fault(claimed: f64, real: f64) -> ResultFault {
    if (claimed + real).abs() < 0.011 {
        return ResultFault::Reversed;
    }
    let digits = |m: f64| format!("{}", m.abs());
    if (claimed >= 0.0) == (real >= 0.0) && digit_typo(&digits(claimed), &digits(real)) {
        return ResultFault::DigitTypo;
    }
    ResultFault::Other
}

/// The slip that named `claimed` as the winner (`None`: a draw) of a game `outcome` won.
fn winner_fault(claimed: Option<Color>, outcome: &Outcome, players: usize) -> ResultFault {
    match (claimed, outcome.winner) {
        (Some(c), Some(w)) if players == 2 && c != w => ResultFault::Reversed,
        _ => ResultFault::Other,
    }
}

/// Whether `written` is `meant` with one digit changed, added or dropped, or two adjacent
/// digits transposed.
fn digit_typo(written: &str, meant: &str) -> bool {
    let (w, m) = (written.as_bytes(), meant.as_bytes());
    if w == m {
        return false;
    }
    if w.len() == m.len() {
        let diff: Vec<usize> = (0..w.len()).filter(|&i| w[i] != m[i]).collect();
        return match diff.as_slice() {
            [_] => true,
            [i, j] => *j == i + 1 && w[*i] == m[*j] && w[*j] == m[*i],
            _ => false,
        };
    }
    let (long, short) = if w.len() > m.len() { (w, m) } else { (m, w) };
    long.len() == short.len() + 1
        && (0..long.len()).any(|skip| {
            long.iter()
                .enumerate()
                .filter(|&(i, _)| i != skip)
                .map(|(_, b)| b)
                .eq(short.iter())
        })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn slips_are_told_apart() {
        let raw = [13, 48];
        assert_eq!(
            counts_fault(&[50, 14], &[14, 50], &raw),
            ResultFault::Reversed
        );
        assert_eq!(
            counts_fault(&[14, 59], &[14, 50], &raw),
            ResultFault::DigitTypo
        );
        assert_eq!(
            counts_fault(&[4, 50], &[14, 50], &raw),
            ResultFault::DigitTypo
        );
        assert_eq!(
            counts_fault(&[41, 50], &[14, 50], &raw),
            ResultFault::DigitTypo
        );
        assert_eq!(
            counts_fault(&[13, 48], &[14, 50], &raw),
            ResultFault::RawCount
        );
        assert_eq!(counts_fault(&[30, 34], &[14, 50], &raw), ResultFault::Other);
        assert_eq!(
            counts_fault(&[14, 50, 0], &[14, 50], &raw),
            ResultFault::Other
        );
        let raw3 = [0, 0, 0];
        assert_eq!(
            counts_fault(&[22, 20, 20], &[20, 20, 22], &raw3),
            ResultFault::Reversed
        );
        assert_eq!(
            counts_fault(&[20, 30, 12], &[30, 20, 12], &raw3),
            ResultFault::ColourOrder
        );
        assert_eq!(margin_fault(8.0, -8.0), ResultFault::Reversed);
        assert_eq!(margin_fault(18.0, 16.0), ResultFault::DigitTypo);
        assert_eq!(margin_fault(18.0, -16.0), ResultFault::Other);
        assert!(digit_typo("144", "14"));
        assert!(!digit_typo("14", "14"));
        assert!(!digit_typo("12", "34"));
    }
}
