//! Who played a game, and where: the identity every message and report gives beside a
//! game's number, and the selector that picks games by number or by their tags.

use std::fmt;

use serde::Serialize;

use super::Tag;

/// A game's identity as its tags give it: the players, round, board, event and date,
/// each where present.
///
/// ```
/// use reversi_formats::record::{Identity, Tag};
/// let tags = [Tag::new("Black", "Tamaru"), Tag::new("White", "Murakami"), Tag::new("Round", "3")];
/// let identity = Identity::of_tags(&tags).unwrap();
/// assert_eq!(identity.to_string(), "Tamaru vs Murakami, round 3");
/// assert!(Identity::of_tags(&[Tag::new("Annotator", "x")]).is_none());
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize)]
pub struct Identity {
    /// Black's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub black: Option<String>,
    /// White's name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub white: Option<String>,
    /// The round.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub round: Option<String>,
    /// The board (table) number.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub board: Option<String>,
    /// The event.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub event: Option<String>,
    /// The date.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub date: Option<String>,
}

/// The tags an identity is made of, in [`Identity`]'s field order.
pub const IDENTITY_TAGS: [&str; 6] = ["Black", "White", "Round", "Board", "Event", "Date"];

/// Whether a tag value says nothing (empty, `?`, `-`, PGN's `??`-filled dates).
pub fn is_unknown_value(value: &str) -> bool {
    let value = value.trim();
    value.is_empty() || value.bytes().all(|b| matches!(b, b'?' | b'-' | b'.'))
}

impl Identity {
    /// The identity of a game with these tags; `None` when none of its tags is there.
    pub fn of_tags(tags: &[Tag]) -> Option<Identity> {
        Identity::of_pairs(tags.iter().map(|t| (t.name.as_str(), t.value.as_str())))
    }

    /// The identity given by `(name, value)` tag pairs (names compared ignoring ASCII
    /// case; the first of a name counts; unknown values such as `?` left out).
    pub fn of_pairs<'a>(tags: impl IntoIterator<Item = (&'a str, &'a str)>) -> Option<Identity> {
        let mut fields: [Option<String>; 6] = Default::default();
        for (name, value) in tags {
            let Some(k) = IDENTITY_TAGS
                .iter()
                .position(|n| n.eq_ignore_ascii_case(name))
            else {
                continue;
            };
            if fields[k].is_none() && !is_unknown_value(value) {
                fields[k] = Some(value.trim().to_owned());
            }
        }
        if fields.iter().all(Option::is_none) {
            return None;
        }
        let [black, white, round, board, event, date] = fields;
        Some(Identity {
            black,
            white,
            round,
            board,
            event,
            date,
        })
    }
}

/// The short form messages use: `Black vs White, round R, board B` (a missing name shows
/// as `?`; the event and date are left to the JSON forms: most games of a file share
/// them). Empty when the game has none of these.
impl fmt::Display for Identity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut parts: Vec<String> = Vec::new();
        if self.black.is_some() || self.white.is_some() {
            let name = |n: &Option<String>| n.as_deref().unwrap_or("?").to_owned();
            parts.push(format!("{} vs {}", name(&self.black), name(&self.white)));
        }
        if let Some(round) = &self.round {
            parts.push(format!("round {round}"));
        }
        if let Some(board) = &self.board {
            parts.push(format!("board {board}"));
        }
        f.write_str(&parts.join(", "))
    }
}

/// Which games a command takes: by number, or by their tags.
///
/// `3` is the third game of each input; `Round=3,Board=2` every game whose `Round` tag is
/// `3` and whose `Board` tag is `2` (names ignore ASCII case, values are compared trimmed
/// and, for names of people, ignoring case); `Black=Tamaru` every game Tamaru played with
/// Black, `Player=Tamaru` every game Tamaru played.
///
/// ```
/// use reversi_formats::record::{GameSelector, Tag};
/// let tags = [Tag::new("Black", "Tamaru"), Tag::new("White", "Murakami"), Tag::new("Round", "3")];
/// let pick = |s: &str| GameSelector::parse(s).unwrap().matches(7, &tags);
/// assert!(pick("7") && !pick("2"));
/// assert!(pick("Round=3") && pick("round=3,white=murakami") && pick("Player=Tamaru"));
/// assert!(!pick("Round=3,Board=2"));
/// assert!(GameSelector::parse("Round").is_err() && GameSelector::parse("0").is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameSelector {
    /// The game with this 1-based number.
    Index(usize),
    /// Every game whose tags have all these values.
    Tags(Vec<(String, String)>),
}

/// Why a `--game` value is not a selector.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadSelector(String);

impl fmt::Display for BadSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadSelector {}

impl GameSelector {
    /// Parses `N` (a game number from 1) or `Name=Value,Name=Value...`.
    pub fn parse(text: &str) -> Result<GameSelector, BadSelector> {
        let text = text.trim();
        if let Ok(n) = text.parse::<usize>() {
            return match n {
                0 => Err(BadSelector("games are numbered from 1".into())),
                n => Ok(GameSelector::Index(n)),
            };
        }
        let mut wanted = Vec::new();
        for part in text.split(',') {
            let Some((name, value)) = part.split_once('=') else {
                return Err(BadSelector(format!(
                    "`{part}` is neither a game number nor `Tag=Value` (e.g. `3` or `Round=3,Board=2`)"
                )));
            };
            let (name, value) = (name.trim(), value.trim());
            if name.is_empty() {
                return Err(BadSelector(format!("`{part}` names no tag")));
            }
            wanted.push((name.to_owned(), value.to_owned()));
        }
        Ok(GameSelector::Tags(wanted))
    }

    /// Whether game number `index` (from 1) with these tags is selected.
    pub fn matches(&self, index: usize, tags: &[Tag]) -> bool {
        self.matches_pairs(
            index,
            tags.iter().map(|t| (t.name.as_str(), t.value.as_str())),
        )
    }

    /// [`GameSelector::matches`] over `(name, value)` tag pairs.
    pub fn matches_pairs<'a, I>(&self, index: usize, tags: I) -> bool
    where
        I: IntoIterator<Item = (&'a str, &'a str)> + Clone,
    {
        match self {
            GameSelector::Index(n) => *n == index,
            GameSelector::Tags(wanted) => wanted.iter().all(|(name, value)| {
                let players = name.eq_ignore_ascii_case("Player");
                tags.clone().into_iter().any(|(n, v)| {
                    let named = if players {
                        n.eq_ignore_ascii_case("Black") || n.eq_ignore_ascii_case("White")
                    } else {
                        n.eq_ignore_ascii_case(name)
                    };
                    named && same_value(v, value)
                })
            }),
        }
    }

    /// Whether only one game number is selected.
    pub fn index(&self) -> Option<usize> {
        match self {
            GameSelector::Index(n) => Some(*n),
            GameSelector::Tags(_) => None,
        }
    }
}

impl std::str::FromStr for GameSelector {
    type Err = BadSelector;
    fn from_str(text: &str) -> Result<GameSelector, BadSelector> {
        GameSelector::parse(text)
    }
}

/// The selector as it is written: `3`, `Round=3,Board=2` (what [`GameSelector::parse`]
/// reads back).
impl fmt::Display for GameSelector {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GameSelector::Index(n) => write!(f, "{n}"),
            GameSelector::Tags(wanted) => {
                for (k, (name, value)) in wanted.iter().enumerate() {
                    let comma = if k == 0 { "" } else { "," };
                    write!(f, "{comma}{name}={value}")?;
                }
                Ok(())
            }
        }
    }
}

/// Whether a tag value is `wanted`: trimmed, ignoring case, and numbers by value (`03`
/// is `3`).
fn same_value(value: &str, wanted: &str) -> bool {
    let (value, wanted) = (value.trim(), wanted.trim());
    if let (Ok(a), Ok(b)) = (value.parse::<u64>(), wanted.parse::<u64>()) {
        return a == b;
    }
    value.to_lowercase() == wanted.to_lowercase()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_values_are_left_out() {
        let tags = [
            Tag::new("Black", "?"),
            Tag::new("White", "Bob"),
            Tag::new("Date", "????.??.??"),
        ];
        let identity = Identity::of_tags(&tags).unwrap();
        assert_eq!(identity.black, None);
        assert_eq!(identity.date, None);
        assert_eq!(identity.to_string(), "? vs Bob");
    }

    #[test]
    fn event_and_date_are_not_in_the_short_form() {
        let tags = [
            Tag::new("Event", "Club night"),
            Tag::new("Date", "2026.11.30"),
        ];
        let identity = Identity::of_tags(&tags).unwrap();
        assert_eq!(identity.event.as_deref(), Some("Club night"));
        assert_eq!(identity.to_string(), "");
    }

    #[test]
    fn numbers_match_by_value() {
        let tags = [Tag::new("Round", "03")];
        assert!(GameSelector::parse("Round=3").unwrap().matches(1, &tags));
        assert!(!GameSelector::parse("Round=4").unwrap().matches(1, &tags));
        assert!(!GameSelector::parse("Board=3").unwrap().matches(1, &tags));
    }
}
