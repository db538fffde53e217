//! Tag pairs: the free-form and well-known facts about a game.

use serde::{Deserialize, Serialize};

use super::Span;
use crate::engine::Color;

/// One tag pair, such as `[Event "World Championship"]`.
#[derive(Clone, PartialEq, Eq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Tag {
    /// The name, as written.
    pub name: String,
    /// The value.
    pub value: String,
    /// The whole tag.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl Tag {
    /// A tag with no span.
    pub fn new(name: impl Into<String>, value: impl Into<String>) -> Tag {
        Tag {
            name: name.into(),
            value: value.into(),
            span: None,
        }
    }
}

/// Well-known tag names, shared by every format so that conversion maps them one to one.
#[derive(Debug)]
pub struct TagName;

impl TagName {
    /// Event or tournament name.
    pub const EVENT: &'static str = "Event";
    /// Place.
    pub const SITE: &'static str = "Site";
    /// Date, `YYYY.MM.DD` with `??` for unknown parts, or a year.
    pub const DATE: &'static str = "Date";
    /// Time of day.
    pub const TIME: &'static str = "Time";
    /// Round.
    pub const ROUND: &'static str = "Round";
    /// Time control.
    pub const TIME_CONTROL: &'static str = "TimeControl";
    /// WTHOR theoretical score: Black's discs after perfect play.
    pub const THEORETICAL_SCORE: &'static str = "TheoreticalScore";
    /// Empties at which the theoretical score was computed.
    pub const THEORETICAL_DEPTH: &'static str = "TheoreticalDepth";
    /// Komi (GGF `KM`), Black's view.
    pub const KOMI: &'static str = "Komi";

    /// The player tag of `color`: `Black`, `White`, `Red`, `Green`.
    pub const fn player(color: Color) -> &'static str {
        match color {
            Color::Black => "Black",
            Color::White => "White",
            Color::Red => "Red",
            Color::Green => "Green",
        }
    }

    /// The rating tag of `color`: `BlackElo`, `WhiteElo`, ...
    pub const fn rating(color: Color) -> &'static str {
        match color {
            Color::Black => "BlackElo",
            Color::White => "WhiteElo",
            Color::Red => "RedElo",
            Color::Green => "GreenElo",
        }
    }
}
