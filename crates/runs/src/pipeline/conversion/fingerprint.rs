//! What a written game must read back as: a digest of its rules, placements, result and
//! errors, computed once as the game is written and again as the output is read back
//! ([`Conversion::verify`](super::Conversion::verify)).

use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};

use crate::diagnostic::Diagnostic;
use crate::engine::{Move, Rules};
use crate::record::{Record, ResultScore, Termination};

/// A digest of what a game means: its rules, its placements (passes follow from them),
/// its result and the codes of its errors, each part on its own so that a difference can
/// be named. Tags, names and comments are not in it: a lossy target may drop them.
///
/// ```
/// use reversi_runs::pipeline::conversion::Fingerprint;
/// use reversi_formats::{Format, ReadOptions};
/// let read = |text: &str| Format::MoveString.read_bytes(text, &ReadOptions::default()).unwrap().remove(0);
/// let (a, b) = (read("f5d6c3"), read("f5d6c4"));
/// let of = |g: &reversi_formats::ParsedGame| Fingerprint::of_record(g.record.as_ref().unwrap(), &g.diagnostics);
/// assert_eq!(of(&a), of(&read("F5 D6 C3")));
/// assert_eq!(of(&a).differences(&of(&b)), ["moves"]);
/// assert_eq!(Fingerprint::from_bytes(of(&a).to_bytes()), of(&a));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Fingerprint {
    rules: u32,
    moves: u32,
    /// 0: not compared (a lossy target dropped part of the result).
    result: u32,
    errors: u32,
}

/// A written game that did not read back as it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mismatch {
    /// The game's number in the output (from 1).
    pub game: usize,
    /// What differs: `rules`, `moves`, `result`, `findings`; or that the game is missing
    /// from the output, or is one more than was written.
    pub what: Vec<&'static str>,
}

impl fmt::Display for Mismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.what.as_slice() {
            ["missing"] => write!(f, "game {} was written but does not read back", self.game),
            ["extra"] => write!(f, "game {} reads back but was never written", self.game),
            what => write!(
                f,
                "game {} reads back with other {} than it was written with",
                self.game,
                what.join(" and ")
            ),
        }
    }
}

fn digest(part: impl Hash) -> u32 {
    let mut h = DefaultHasher::new();
    part.hash(&mut h);
    // Never 0, which stands for "not compared".
    (h.finish() as u32) | 1
}

fn placements(moves: impl Iterator<Item = Move>) -> u32 {
    let mut h = DefaultHasher::new();
    for mv in moves {
        if let Move::Place(sq) = mv {
            (sq.col(), sq.row()).hash(&mut h);
        }
    }
    (h.finish() as u32) | 1
}

/// A termination as a number, for the digest.
fn ending(termination: Termination) -> (u8, Option<u8>) {
    let colour = |c: Option<crate::engine::Color>| c.map(|c| c as u8);
    match termination {
        Termination::Normal => (0, None),
        Termination::Resignation(c) => (1, colour(c)),
        Termination::Time(c) => (2, colour(c)),
        Termination::Unfinished => (3, None),
        Termination::Agreement => (4, None),
    }
}

fn discs_result(discs: &[u8]) -> u32 {
    digest((1u8, discs, ending(Termination::Normal)))
}

impl Fingerprint {
    /// The fingerprint of `record`, read with `diagnostics` (whose errors count).
    pub fn of_record(record: &Record, diagnostics: &[Diagnostic]) -> Fingerprint {
        let result = match &record.result {
            // `*`, an unknown result (what PGN writes for a game without one), claims
            // nothing, as no result does.
            None => digest(0u8),
            Some(claim)
                if claim.score == ResultScore::None
                    && claim.termination == Termination::Unfinished =>
            {
                digest(0u8)
            }
            Some(claim) => match &claim.score {
                ResultScore::Discs(d) if claim.termination.is_normal() => discs_result(d),
                ResultScore::Discs(d) => digest((1u8, d.as_slice(), ending(claim.termination))),
                ResultScore::Margin(m) => digest((2u8, m.to_bits(), ending(claim.termination))),
                ResultScore::Winner(w) => {
                    digest((3u8, w.map(|c| c as u8), ending(claim.termination)))
                }
                ResultScore::None => digest((4u8, ending(claim.termination))),
            },
        };
        let mut errors = DefaultHasher::new();
        for d in diagnostics.iter().filter(|d| d.is_error()) {
            d.code.name().hash(&mut errors);
        }
        Fingerprint {
            rules: digest(record.rules),
            moves: placements(record.moves.iter().map(|m| m.mv)),
            result,
            errors: (errors.finish() as u32) | 1,
        }
    }

    /// The fingerprint of a game without errors given by its rules, moves and final
    /// discs, as [`Fingerprint::of_record`] gives it for its record.
    /// This fingerprint with `record`'s result compared as Black's margin, as a format
    /// that writes two disc counts as a margin (SGF's `RE[B+18]`) reads it back: for a game
    /// with errors, whose result is not settled from the board again when read back.
    pub(crate) fn with_margin_result(self, record: &Record) -> Fingerprint {
        let Some(claim) = &record.result else {
            return self;
        };
        match &claim.score {
            ResultScore::Discs(d) if d.len() == 2 && claim.termination.is_normal() => {
                let margin = f64::from(d[0]) - f64::from(d[1]);
                Fingerprint {
                    result: digest((2u8, margin.to_bits(), ending(claim.termination))),
                    ..self
                }
            }
            _ => self,
        }
    }

    pub(crate) fn of_plain(rules: Rules, moves: &[Move], discs: [u8; 2]) -> Fingerprint {
        Fingerprint {
            rules: digest(rules),
            moves: placements(moves.iter().copied()),
            result: discs_result(&discs),
            errors: (DefaultHasher::new().finish() as u32) | 1,
        }
    }

    /// The fingerprint of a game that could not be read.
    pub(crate) fn of_unreadable() -> Fingerprint {
        Fingerprint {
            rules: 0,
            moves: 0,
            result: 0,
            errors: 0,
        }
    }

    /// This fingerprint, its result not compared.
    pub fn without_result(self) -> Fingerprint {
        Fingerprint { result: 0, ..self }
    }

    /// What differs between a game written with this fingerprint and one read back with
    /// `read`: empty when they agree.
    pub fn differences(&self, read: &Fingerprint) -> Vec<&'static str> {
        let mut what = Vec::new();
        if self.rules != read.rules {
            what.push("rules");
        }
        if self.moves != read.moves {
            what.push("moves");
        }
        if self.result != 0 && self.result != read.result {
            what.push("result");
        }
        if self.errors != read.errors {
            what.push("findings");
        }
        what
    }

    /// 16 bytes, to keep out of memory while a large output is written.
    pub fn to_bytes(self) -> [u8; 16] {
        let mut out = [0; 16];
        for (i, part) in [self.rules, self.moves, self.result, self.errors]
            .into_iter()
            .enumerate()
        {
            out[i * 4..i * 4 + 4].copy_from_slice(&part.to_le_bytes());
        }
        out
    }

    /// The fingerprint [`Fingerprint::to_bytes`] gave.
    pub fn from_bytes(bytes: [u8; 16]) -> Fingerprint {
        let part =
            |i: usize| u32::from_le_bytes([bytes[i], bytes[i + 1], bytes[i + 2], bytes[i + 3]]);
        Fingerprint {
            rules: part(0),
            moves: part(4),
            result: part(8),
            errors: part(12),
        }
    }
}
