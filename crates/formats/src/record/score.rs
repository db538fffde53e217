//! The one reader of results as people write them, for every format that holds a result as
//! free text: an RGN/PGN `Result` tag, a CSV result column, a transcript's `Result:` header.
//!
//! | written | read as |
//! |---|---|
//! | `36-28`, `36 - 28`, `36:28`, `20-22-22` | disc counts in turn order ([`ResultScore::Discs`]) |
//! | `+8`, `-8`, `+2.5` | Black's margin ([`ResultScore::Margin`]) |
//! | `B+8`, `W+8` (also `Black+8`) | the winner's margin, as SGF writes it: `W+8` is `-8` |
//! | `1-0`, `0-1`, `1/2-1/2`, `½-½`, `draw`, `=`, `tie` | the winner only ([`ResultScore::Winner`]) |
//! | `B`, `W`, `Black`, `white wins`, `red wins` | the winner only |
//! | `B+R`, `W+Resign`, `B+T`, `W+Time` | the winner, the other player resigned or lost on time |
//! | `black resigns`, `white loses on time` | no score; that player resigned or lost on time |
//! | `*` | no score: the game is unfinished |
//! | empty, `?`, `-` | nothing is claimed |
//!
//! Case and the spaces around the text do not matter. `1-0` and `0-1` name a winner, as in
//! chess; the disc counts 1 and 0 are written `01-00`. Everything read here is written back
//! by RGN's `Result` and `Termination` tags and reads back the same.
//!
//! ```
//! use reversi_formats::record::score::{parse_result, WrittenResult};
//! use reversi_formats::record::{ResultScore, Termination};
//! let read = parse_result(" 36 - 28 ").unwrap().unwrap();
//! assert_eq!(read.score, ResultScore::Discs(vec![36, 28]));
//! assert_eq!(parse_result("W+8").unwrap().unwrap().score, ResultScore::Margin(-8.0));
//! assert_eq!(parse_result("?").unwrap(), None);
//! assert!(parse_result("won on Sunday").is_err());
//! ```

use std::fmt;

use super::{ClaimedResult, Record, ResultScore, Span, Termination};
use crate::engine::{Color, Outcome};

/// A result as written: the score, and how the game ended when the spelling says it.
#[derive(Clone, PartialEq, Debug)]
pub struct WrittenResult {
    /// The score ([`ResultScore::None`] for `*` or a resignation without one).
    pub score: ResultScore,
    /// How the game ended, when the text says (`*`, `B+R`, `black resigns`); `None`
    /// leaves it to the record (normal, unless the format says otherwise).
    pub termination: Option<Termination>,
}

impl WrittenResult {
    fn score(score: ResultScore) -> WrittenResult {
        WrittenResult {
            score,
            termination: None,
        }
    }

    /// The claimed result the text makes, written at `span`: its termination, or the one
    /// a bare score implies (unfinished for no score, else normal).
    ///
    /// ```
    /// use reversi_formats::record::score::parse_result;
    /// use reversi_formats::record::Termination;
    /// let claim = parse_result("*").unwrap().unwrap().claimed(None);
    /// assert_eq!(claim.termination, Termination::Unfinished);
    /// ```
    pub fn claimed(self, span: Option<Span>) -> ClaimedResult {
        let implied = if self.score.is_none() {
            Termination::Unfinished
        } else {
            Termination::Normal
        };
        ClaimedResult {
            termination: self.termination.unwrap_or(implied),
            score: self.score,
            span,
        }
    }
}

/// Why a result could not be read: the text, and what is wrong with it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct UnreadableResult {
    /// The text as written, trimmed.
    pub text: String,
    /// What is wrong, when more can be said than that it is no result.
    pub reason: Option<String>,
}

impl fmt::Display for UnreadableResult {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.reason {
            Some(reason) => write!(f, "{reason}"),
            None => write!(
                f,
                "expected a result such as `41-23`, `20-22-22`, `*`, `1-0`, `0-1`, `1/2-1/2`, `+18` or `B+18`, but found `{}` instead",
                self.text
            ),
        }
    }
}

impl std::error::Error for UnreadableResult {}

/// Names (compared without case) of the fields people write a game's result under: a CSV
/// column, a transcript header line.
pub const RESULT_FIELDS: [&str; 6] = [
    "result",
    "score",
    "final",
    "outcome",
    "final score",
    "final result",
];

/// Whether `name` is one of [`RESULT_FIELDS`].
///
/// ```
/// assert!(reversi_formats::record::score::is_result_field(" Score "));
/// assert!(!reversi_formats::record::score::is_result_field("Black"));
/// ```
pub fn is_result_field(name: &str) -> bool {
    let name = name.trim();
    RESULT_FIELDS.iter().any(|f| f.eq_ignore_ascii_case(name))
}

/// The spellings [`parse_result`] reads, for help texts.
pub const SPELLINGS: &str = "disc counts in turn order (`36-28`, `36 - 28`, `36:28`, `20-22-22`, `36,0-28,0`), Black's margin (`+8`, `-8`), the winner's margin (`B+8`, `W+8`), the winner (`1-0`, `0-1`, `1/2-1/2`, `0,5-0,5`, `B`, `W`, `draw`), `B+R` or `W+T` for a resignation or a loss on time, `*` when unfinished, or nothing";

/// Reads a result written as people write it (see the module documentation): `Ok(None)`
/// when the text claims nothing (empty, `?`, `-`).
///
/// ```
/// use reversi_formats::record::score::parse_result;
/// use reversi_formats::record::{ResultScore, Termination};
/// use reversi_engine::Color;
/// let read = parse_result("W+R").unwrap().unwrap();
/// assert_eq!(read.score, ResultScore::Winner(Some(Color::White)));
/// assert_eq!(read.termination, Some(Termination::Resignation(Some(Color::Black))));
/// assert_eq!(parse_result("20-22-22").unwrap().unwrap().score, ResultScore::Discs(vec![20, 22, 22]));
/// // A spreadsheet's decimal commas.
/// assert_eq!(parse_result("35,0-29,0").unwrap().unwrap().score, ResultScore::Discs(vec![35, 29]));
/// assert_eq!(parse_result("0,5-0,5").unwrap().unwrap().score, ResultScore::Winner(None));
/// assert!(parse_result("35,5-28,5").is_err());
/// ```
pub fn parse_result(text: &str) -> Result<Option<WrittenResult>, UnreadableResult> {
    let t = text.trim();
    let lower = t.to_ascii_lowercase();
    let unreadable = |reason: Option<String>| UnreadableResult {
        text: t.to_owned(),
        reason,
    };
    // Chess-style results are never spaced out, but people do: `1 - 0` is `1-0`.
    let compact: String = lower.split_whitespace().collect();
    if let Some(plain) = without_decimals(&compact) {
        return parse_result(&plain);
    }
    match compact.as_str() {
        "1-0" => return Ok(Some(winner(Some(Color::Black)))),
        "0-1" => return Ok(Some(winner(Some(Color::White)))),
        "1/2-1/2" | "½-½" => return Ok(Some(winner(None))),
        _ => {}
    }
    match lower.as_str() {
        "" | "?" | "-" => return Ok(None),
        "*" => {
            return Ok(Some(WrittenResult {
                score: ResultScore::None,
                termination: Some(Termination::Unfinished),
            }))
        }
        "draw" | "drawn" | "tie" | "=" => return Ok(Some(winner(None))),
        _ => {}
    }
    if let Some(read) = words(&lower) {
        return Ok(Some(read));
    }
    if let Some(read) = winner_plus(&lower) {
        return read.map(Some).map_err(|reason| unreadable(Some(reason)));
    }
    if let Some(margin) = margin(t) {
        return Ok(Some(WrittenResult::score(ResultScore::Margin(margin))));
    }
    if let Some(counts) = disc_counts(t) {
        return counts
            .map(|c| Some(WrittenResult::score(ResultScore::Discs(c))))
            .map_err(|reason| unreadable(Some(reason)));
    }
    Err(unreadable(None))
}

/// A result a spreadsheet wrote with decimals (`35,0-29,0`, `1.0-0.0`, `0,5-0,5`: a
/// decimal comma or point) as it is written without them (`35-29`, `1-0`, `1/2-1/2`);
/// `None` when `compact` has no decimals, or a fraction other than a half draw.
fn without_decimals(compact: &str) -> Option<String> {
    let parts: Vec<&str> = compact.split(['-', ':']).collect();
    let decimal = |p: &str| p.contains([',', '.']);
    if !(2..=4).contains(&parts.len()) || !parts.iter().any(|p| decimal(p)) {
        return None;
    }
    if parts.len() == 2 && parts.iter().all(|p| matches!(*p, "0,5" | "0.5")) {
        return Some("1/2-1/2".into());
    }
    let whole: Option<Vec<&str>> = parts
        .iter()
        .map(|p| {
            let (int, frac) = p.split_once([',', '.']).unwrap_or((p, "0"));
            let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
            (digits(int) && digits(frac) && frac.bytes().all(|b| b == b'0')).then_some(int)
        })
        .collect();
    Some(whole?.join("-"))
}

/// One text that [`parse_result`] reads back as `claim` (its score and its termination),
/// when one spelling says both: `None` for a termination no spelling joins to the score
/// (a margin with a resignation, an agreement, ...) or a score that is no result (fewer
/// than two disc counts, a margin that is not a number).
///
/// ```
/// use reversi_formats::record::score::{parse_result, result_text};
/// use reversi_formats::record::{ClaimedResult, ResultScore, Termination};
/// use reversi_engine::Color;
/// let claim = ClaimedResult {
///     score: ResultScore::Winner(Some(Color::White)),
///     termination: Termination::Resignation(Some(Color::Black)),
///     span: None,
/// };
/// assert_eq!(result_text(&claim).as_deref(), Some("W+R"));
/// assert_eq!(result_text(&ClaimedResult::discs(vec![1, 0])).as_deref(), Some("01-00"));
/// ```
pub fn result_text(claim: &ClaimedResult) -> Option<String> {
    let letter = |c: Color| match c {
        Color::Black => Some("B"),
        Color::White => Some("W"),
        _ => None,
    };
    Some(match (&claim.score, claim.termination) {
        (ResultScore::None, Termination::Unfinished) => "*".into(),
        (ResultScore::None, Termination::Resignation(None)) => "resigned".into(),
        (ResultScore::None, Termination::Resignation(Some(c))) => format!("{c} resigns"),
        (ResultScore::None, Termination::Time(Some(c))) => format!("{c} loses on time"),
        (ResultScore::Winner(Some(w)), Termination::Resignation(Some(l))) if l != *w => {
            format!("{}+R", letter(*w).filter(|_| letter(l).is_some())?)
        }
        (ResultScore::Winner(Some(w)), Termination::Time(Some(l))) if l != *w => {
            format!("{}+T", letter(*w).filter(|_| letter(l).is_some())?)
        }
        (score, Termination::Normal) if !score.is_none() => score_only(score)?,
        _ => return None,
    })
}

/// The text of a score with a normal end; `None` where no text reads back as it (no
/// score, fewer than two counts, a margin that is not a number).
fn score_only(score: &ResultScore) -> Option<String> {
    match score {
        ResultScore::None => None,
        ResultScore::Margin(m) if !m.is_finite() => None,
        score => score_text(score),
    }
}

/// The text RGN's `Result` tag writes for `score` (`*` for none; `01-00` for the counts
/// 1 and 0, which `1-0`, a winner, would misread); `None` for fewer than two counts.
///
/// ```
/// use reversi_formats::record::score::{parse_result, score_text};
/// use reversi_formats::record::ResultScore;
/// for score in [ResultScore::Discs(vec![36, 28]), ResultScore::Discs(vec![1, 0]), ResultScore::Margin(-8.0)] {
///     let text = score_text(&score).unwrap();
///     assert_eq!(parse_result(&text).unwrap().unwrap().score, score, "{text}");
/// }
/// assert_eq!(score_text(&ResultScore::None).unwrap(), "*");
/// assert_eq!(score_text(&ResultScore::Margin(-0.0)).unwrap(), "+0");
/// ```
pub fn score_text(score: &ResultScore) -> Option<String> {
    Some(match score {
        ResultScore::None => "*".into(),
        ResultScore::Discs(counts) if counts.len() < 2 => return None,
        ResultScore::Discs(counts) => {
            // `1-0` and `0-1` mean a winner; two digits keep these counts counts.
            let pad = counts[..] == [1, 0] || counts[..] == [0, 1];
            let mut text = String::with_capacity(3 * counts.len());
            for (i, &n) in counts.iter().enumerate() {
                if i > 0 {
                    text.push('-');
                }
                push_count(&mut text, n, pad);
            }
            text
        }
        // `+ 0.0` writes a margin of -0 as `+0`, as the parser reads `-0`.
        ResultScore::Margin(m) => format!("{:+}", m + 0.0),
        ResultScore::Winner(Some(Color::Black)) => "1-0".into(),
        ResultScore::Winner(Some(Color::White)) => "0-1".into(),
        ResultScore::Winner(Some(c)) => format!("{c} wins"),
        ResultScore::Winner(None) => "1/2-1/2".into(),
    })
}

/// Appends a disc count in decimal (two digits at least when `pad`), without formatting
/// machinery: the RGN writer calls this for every game.
fn push_count(text: &mut String, n: u8, pad: bool) {
    if n >= 100 {
        text.push(char::from(b'0' + n / 100));
    }
    if n >= 10 || pad {
        text.push(char::from(b'0' + n / 10 % 10));
    }
    text.push(char::from(b'0' + n % 10));
}

fn winner(color: Option<Color>) -> WrittenResult {
    WrittenResult::score(ResultScore::Winner(color))
}

/// A colour named by a whole word or its initial (`black`, `B`).
fn colour(word: &str) -> Option<Color> {
    Color::from_name(word)
}

/// The spellings made of words: a colour alone or winning, resigning or losing on time.
fn words(lower: &str) -> Option<WrittenResult> {
    let words: Vec<&str> = lower.split_whitespace().collect();
    Some(match words.as_slice() {
        ["resigns" | "resigned" | "resignation"] => WrittenResult {
            score: ResultScore::None,
            termination: Some(Termination::Resignation(None)),
        },
        [c] => winner(Some(colour(c)?)),
        [c, "wins" | "won"] => winner(Some(colour(c)?)),
        [c, "resigns" | "resigned"] => WrittenResult {
            score: ResultScore::None,
            termination: Some(Termination::Resignation(Some(colour(c)?))),
        },
        [c, "loses" | "lost", "on", "time"] => WrittenResult {
            score: ResultScore::None,
            termination: Some(Termination::Time(Some(colour(c)?))),
        },
        _ => return None,
    })
}

/// `B+8`, `W+2.5`, `B+R`, `W+Time`: SGF's winner and margin (or how the loser lost), two
/// players only. `None` when the text is not of this shape.
fn winner_plus(lower: &str) -> Option<Result<WrittenResult, String>> {
    let (who, what) = lower.split_once('+')?;
    let who = colour(who.trim())?;
    let loser = match who {
        Color::Black => Color::White,
        Color::White => Color::Black,
        other => {
            return Some(Err(format!(
                "`{}+...` gives a margin, which only two players have; {other} is a colour of 3-4 player games",
                &lower[..lower.find('+').unwrap_or(0)].trim()
            )))
        }
    };
    let what = what.trim();
    let termination = match what {
        "r" | "resign" | "resigned" | "resignation" => Termination::Resignation(Some(loser)),
        "t" | "time" => Termination::Time(Some(loser)),
        _ => {
            let m = unsigned_number(what)?;
            let m = if who == Color::Black { m } else { -m };
            // `W+0` is a margin of 0, not of -0.
            return Some(Ok(WrittenResult::score(ResultScore::Margin(m + 0.0))));
        }
    };
    Some(Ok(WrittenResult {
        score: ResultScore::Winner(Some(who)),
        termination: Some(termination),
    }))
}

/// A signed decimal number, Black's margin (`+18`, `-2.5`).
fn margin(t: &str) -> Option<f64> {
    let (sign, digits) = match t.as_bytes().first()? {
        b'+' => (1.0, &t[1..]),
        b'-' => (-1.0, &t[1..]),
        _ => return None,
    };
    unsigned_number(digits).map(|m| sign * m + 0.0)
}

/// Digits with an optional fraction (`18`, `2.5`, `.5`), as a finite number.
fn unsigned_number(text: &str) -> Option<f64> {
    let (whole, fraction) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    let ok = digits(whole)
        && digits(fraction)
        && !(whole.is_empty() && fraction.is_empty())
        && !(text.ends_with('.'));
    ok.then(|| text.parse::<f64>().ok())
        .flatten()
        .filter(|m| m.is_finite())
}

/// Disc counts joined by `-`, `:`, an en dash or an em dash, with or without spaces around
/// them (`36-28`, `36 - 28`, `20:22:22`). `None` when the text is not of this shape; an
/// error when a count does not fit a byte.
fn disc_counts(t: &str) -> Option<Result<Vec<u8>, String>> {
    let parts: Vec<&str> = t.split(['-', ':', '–', '—']).map(str::trim).collect();
    let shaped = parts.len() >= 2
        && parts
            .iter()
            .all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    if !shaped {
        return None;
    }
    let mut counts = Vec::with_capacity(parts.len());
    for part in parts {
        match part.parse::<u8>() {
            Ok(n) => counts.push(n),
            Err(_) => return Some(Err(format!("disc count {part} is more than 255"))),
        }
    }
    Some(Ok(counts))
}

/// Compares a claimed result with the real outcome: `(message, help)` when they disagree.
#[doc(hidden)]
pub fn result_mismatch(
    record: &Record,
    claim: &ClaimedResult,
    outcome: &Outcome,
) -> Option<(String, String)> {
    let players = record.rules.players() as usize;
    let real = &outcome.score[..players];
    match &claim.score {
        ResultScore::None => None,
        ResultScore::Discs(counts) => {
            if counts.as_slice() == real {
                return None;
            }
            let real_text = join_counts(real);
            let raw = &outcome.discs[..players];
            let help = if counts.as_slice() == raw {
                format!(
                    "{} is the raw disc count; under {} scoring the result is {real_text}",
                    join_counts(raw),
                    record.rules.scoring().name()
                )
            } else {
                format!("the final board gives {real_text}")
            };
            Some((
                format!(
                    "the record claims {}, but the game ends {real_text}",
                    join_counts(counts)
                ),
                help,
            ))
        }
        ResultScore::Margin(m) if players != 2 => Some((
            format!(
                "the record claims a margin of {m:+}, but a margin (Black's discs minus White's) means nothing with {players} players; the game ends {}",
                join_counts(real)
            ),
            format!(
                "give every player's disc count, such as `{}`",
                join_counts(real)
            ),
        )),
        ResultScore::Margin(m) => {
            let komi: f64 = record
                .tag(super::TagName::KOMI)
                .and_then(|k| k.trim().parse().ok())
                .unwrap_or(0.0);
            let expected = f64::from(outcome.margin()) - komi;
            if (m - expected).abs() < 0.011 {
                return None;
            }
            let real_text = join_counts(real);
            Some((
                format!("the record claims a margin of {m:+}, but the game ends {real_text} ({expected:+})"),
                format!(
                    "a margin is Black's score minus White's{} ({} scoring), whoever wins{}",
                    if komi != 0.0 { format!(", minus the komi {komi}") } else { String::new() },
                    record.rules.scoring().name(),
                    if record.rules.is_anti() { ", in anti games too" } else { "" }
                ),
            ))
        }
        ResultScore::Winner(w) => {
            if *w == outcome.winner {
                return None;
            }
            let real_text = join_counts(real);
            let name = |w: Option<crate::engine::Color>| {
                w.map_or_else(
                    || match players {
                        2 => "a draw".to_string(),
                        _ => "a draw for the whole table".to_string(),
                    },
                    |c| format!("a win for {c}"),
                )
            };
            Some((
                format!(
                    "the record claims {}, but the game ends {real_text}, {}",
                    name(*w),
                    name(outcome.winner)
                ),
                "check the result, or the moves before it".into(),
            ))
        }
    }
}

/// Counts written `36-28`, `29-23-12`.
#[doc(hidden)]
pub fn join_counts(counts: &[u8]) -> String {
    counts
        .iter()
        .map(|c| c.to_string())
        .collect::<Vec<_>>()
        .join("-")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(text: &str) -> (ResultScore, Option<Termination>) {
        let r = parse_result(text)
            .unwrap_or_else(|e| panic!("{text}: {e}"))
            .unwrap_or_else(|| panic!("{text}: nothing"));
        (r.score, r.termination)
    }

    fn score(text: &str) -> ResultScore {
        let (score, termination) = read(text);
        assert_eq!(termination, None, "{text}");
        score
    }

    #[test]
    fn disc_counts_in_every_spelling() {
        for text in ["36-28", "36 - 28", "36:28", " 36 : 28 ", "36–28", "36—28"] {
            assert_eq!(score(text), ResultScore::Discs(vec![36, 28]), "{text}");
        }
        assert_eq!(score("20-22-22"), ResultScore::Discs(vec![20, 22, 22]));
        assert_eq!(
            score("15 - 16 - 17 - 16"),
            ResultScore::Discs(vec![15, 16, 17, 16])
        );
        assert_eq!(score("01-00"), ResultScore::Discs(vec![1, 0]));
        assert_eq!(score("64-0"), ResultScore::Discs(vec![64, 0]));
    }

    #[test]
    fn margins_black_point_of_view() {
        assert_eq!(score("+8"), ResultScore::Margin(8.0));
        assert_eq!(score("-8"), ResultScore::Margin(-8.0));
        assert_eq!(score("-2.5"), ResultScore::Margin(-2.5));
        assert_eq!(score("+18.000"), ResultScore::Margin(18.0));
        assert_eq!(score("B+8"), ResultScore::Margin(8.0));
        assert_eq!(score("b + 8"), ResultScore::Margin(8.0));
        assert_eq!(score("W+8"), ResultScore::Margin(-8.0));
        assert_eq!(score("White+2.5"), ResultScore::Margin(-2.5));
        let ResultScore::Margin(zero) = score("W+0") else {
            panic!("a margin")
        };
        assert!(zero == 0.0 && zero.is_sign_positive());
    }

    #[test]
    fn winners_only() {
        let black = ResultScore::Winner(Some(Color::Black));
        let white = ResultScore::Winner(Some(Color::White));
        for text in [
            "1-0",
            "1 - 0",
            "B",
            "b",
            "Black",
            "BLACK",
            "black wins",
            "B won",
        ] {
            assert_eq!(score(text), black, "{text}");
        }
        for text in ["0-1", "W", "White", "white wins"] {
            assert_eq!(score(text), white, "{text}");
        }
        for text in ["1/2-1/2", "½-½", "draw", "Draw", "=", "tie", "drawn"] {
            assert_eq!(score(text), ResultScore::Winner(None), "{text}");
        }
        assert_eq!(score("red wins"), ResultScore::Winner(Some(Color::Red)));
        assert_eq!(score("Green"), ResultScore::Winner(Some(Color::Green)));
    }

    #[test]
    fn resignations_and_time_losses() {
        assert_eq!(
            read("B+R"),
            (
                ResultScore::Winner(Some(Color::Black)),
                Some(Termination::Resignation(Some(Color::White)))
            )
        );
        assert_eq!(
            read("W+Resign"),
            (
                ResultScore::Winner(Some(Color::White)),
                Some(Termination::Resignation(Some(Color::Black)))
            )
        );
        assert_eq!(
            read("w+t"),
            (
                ResultScore::Winner(Some(Color::White)),
                Some(Termination::Time(Some(Color::Black)))
            )
        );
        assert_eq!(
            read("black resigns"),
            (
                ResultScore::None,
                Some(Termination::Resignation(Some(Color::Black)))
            )
        );
        assert_eq!(
            read("White loses on time"),
            (
                ResultScore::None,
                Some(Termination::Time(Some(Color::White)))
            )
        );
    }

    #[test]
    fn unfinished_and_nothing() {
        assert_eq!(
            read("*"),
            (ResultScore::None, Some(Termination::Unfinished))
        );
        for text in ["", "  ", "?", "-"] {
            assert_eq!(parse_result(text), Ok(None), "{text:?}");
        }
    }

    #[test]
    fn every_text_written_reads_back_as_its_claim() {
        let claims = [
            ClaimedResult::discs(vec![36, 28]),
            ClaimedResult::discs(vec![0, 1]),
            ClaimedResult::discs(vec![20, 22, 22]),
            ClaimedResult {
                score: ResultScore::Margin(-2.5),
                termination: Termination::Normal,
                span: None,
            },
            ClaimedResult {
                score: ResultScore::Winner(Some(Color::Red)),
                termination: Termination::Normal,
                span: None,
            },
            ClaimedResult {
                score: ResultScore::None,
                termination: Termination::Unfinished,
                span: None,
            },
            ClaimedResult {
                score: ResultScore::Winner(Some(Color::Black)),
                termination: Termination::Time(Some(Color::White)),
                span: None,
            },
            ClaimedResult {
                score: ResultScore::None,
                termination: Termination::Resignation(Some(Color::Green)),
                span: None,
            },
        ];
        for claim in claims {
            let text = result_text(&claim).unwrap_or_else(|| panic!("{claim:?}"));
            let read = parse_result(&text).unwrap().unwrap().claimed(None);
            assert_eq!(read, claim, "{text}");
        }
        let agreed = ClaimedResult {
            score: ResultScore::Discs(vec![33, 31]),
            termination: Termination::Agreement,
            span: None,
        };
        assert_eq!(result_text(&agreed), None);
        assert_eq!(result_text(&ClaimedResult::discs(vec![64])), None);
    }

    #[test]
    fn what_is_no_result_is_refused_with_the_text() {
        for text in [
            "won", "36-", "-36-28", "36--28", "+", "B+", "B+x", "36-28 B", "+inf", "+NaN", "1e3",
            "+8.", "Red+8", "3 6-28", "x wins",
        ] {
            let e = parse_result(text).expect_err(text);
            assert_eq!(e.text, text.trim(), "{text}");
            assert!(!e.to_string().is_empty());
        }
        assert_eq!(
            parse_result("300-1").unwrap_err().to_string(),
            "disc count 300 is more than 255"
        );
        assert!(parse_result("Red+8")
            .unwrap_err()
            .to_string()
            .contains("only two players"));
        assert!(parse_result("won")
            .unwrap_err()
            .to_string()
            .contains("but found `won` instead"));
    }
}
