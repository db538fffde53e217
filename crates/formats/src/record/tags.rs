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

    /// RGN: the rules string ([`Record::rules`](super::Record::rules)).
    pub const RULES: &'static str = "Rules";
    /// RGN: a start position other than the rules' default
    /// ([`Record::start`](super::Record::start)).
    pub const START: &'static str = "Start";
    /// RGN: the result ([`Record::result`](super::Record::result)).
    pub const RESULT: &'static str = "Result";
    /// RGN: how the game ended.
    pub const TERMINATION: &'static str = "Termination";
    /// RGN tags with their own fields in a record; they never appear in its tags.
    pub const RESERVED: [&'static str; 4] = [
        TagName::RULES,
        TagName::START,
        TagName::RESULT,
        TagName::TERMINATION,
    ];

    /// WTHOR: the record's tournament index into `WTHOR.TRN`.
    pub const WTHOR_TOURNAMENT: &'static str = "WthorTournament";
    /// WTHOR: the record's black player index into `WTHOR.JOU`.
    pub const WTHOR_BLACK: &'static str = "WthorBlack";
    /// WTHOR: the record's white player index into `WTHOR.JOU`.
    pub const WTHOR_WHITE: &'static str = "WthorWhite";
    /// WTHOR: the file header's creation date, `YYYY-MM-DD`.
    pub const WTHOR_CREATED: &'static str = "WthorCreated";
    /// WTHOR: the header's board-size byte P1 as stored (0 or 8 for 8x8, 10 for 10x10).
    pub const WTHOR_BOARD_SIZE: &'static str = "WthorBoardSize";
    /// WTHOR: the header's depth byte P3 as stored (0 means 22 after 2001).
    pub const WTHOR_DEPTH: &'static str = "WthorDepth";

    /// GGF: a `TY` value the rules alone do not say (synchro, komi, random start, colour
    /// preference, or unusual spelling).
    pub const GGF_TYPE: &'static str = "GgfType";

    /// OBF: a line's `MOVE:score` entries.
    pub const EVALUATIONS: &'static str = "Evaluations";

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

/// Tags in JSON (version 2): an object `{"Black": "Ann", "Round": "3"}` when their names
/// are distinct (what `jq '.tags.Black'` reads), else the list of `{"name", "value"}`
/// pairs (version 1's form, which repeats a name). Both forms are read.
pub(crate) mod json_form {
    use std::fmt;

    use serde::de::{MapAccess, SeqAccess, Visitor};
    use serde::ser::SerializeMap;
    use serde::{Deserializer, Serialize, Serializer};

    use super::Tag;

    /// Whether `names` are all distinct (the object form holds them).
    pub(crate) fn distinct<'n>(names: impl Iterator<Item = &'n str> + Clone) -> bool {
        names
            .clone()
            .enumerate()
            .all(|(i, a)| names.clone().take(i).all(|b| a != b))
    }

    pub(crate) fn serialize<S: Serializer>(tags: &[Tag], s: S) -> Result<S::Ok, S::Error> {
        if !distinct(tags.iter().map(|t| t.name.as_str())) {
            return tags.serialize(s);
        }
        let mut map = s.serialize_map(Some(tags.len()))?;
        for t in tags {
            map.serialize_entry(&t.name, &t.value)?;
        }
        map.end()
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Tag>, D::Error> {
        d.deserialize_any(Tags)
    }

    struct Tags;

    impl<'de> Visitor<'de> for Tags {
        type Value = Vec<Tag>;

        fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
            f.write_str(
                "an object of tag values by name, or a list of {\"name\", \"value\"} objects",
            )
        }

        fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Vec<Tag>, A::Error> {
            let mut tags = Vec::with_capacity(seq.size_hint().unwrap_or(0).min(64));
            while let Some(tag) = seq.next_element::<Tag>()? {
                tags.push(tag);
            }
            Ok(tags)
        }

        fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Vec<Tag>, A::Error> {
            let mut tags = Vec::with_capacity(map.size_hint().unwrap_or(0).min(64));
            while let Some((name, value)) = map.next_entry::<String, String>()? {
                tags.push(Tag::new(name, value));
            }
            Ok(tags)
        }
    }
}
