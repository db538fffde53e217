//! The game-record model every format reads into and writes from.
//!
//! A [`Record`] holds what a record *claims*: the rules, the start position, tags, the moves
//! with their optional flip claims, position snapshots and the result. Nothing here is
//! checked against the rules; that is the job of the validator (`reversi_check::validate`).
//!
//! Every element remembers the [`Span`] of source text it came from, so diagnostics can
//! point at it. [`Record::without_spans`] forgets them, to compare what two records say
//! wherever they were written.

use serde::{Deserialize, Serialize};

use crate::engine::{Color, Move, Position, Rules, Setup, SetupError, SquareSet};

mod edits;
mod identity;
pub mod score;
mod span;
pub(crate) mod tags;

pub use edits::{fold_name, BadTagEdit, SetTag, TagEdits};
pub use identity::{is_unknown_value, BadSelector, GameSelector, Identity, IDENTITY_TAGS};
pub use span::Span;
pub use tags::{Tag, TagName};

/// One game record.
///
/// ```
/// use reversi_engine::{Move, Rules};
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_formats::{Format, WriteOptions};
/// let mut record = Record::new(Rules::default());
/// record.set_tag("Black", "Ann");
/// record.moves = ["f5", "d6"].iter().map(|s| Ok(MoveRecord::new(Move::Place(s.parse()?)))).collect::<Result<_, reversi_engine::ParseSquareError>>()?;
/// assert_eq!(record.tag("black"), Some("Ann"));
/// let (rgn, _) = Format::Rgn.write_bytes(&[record], &WriteOptions::default())?;
/// assert_eq!(String::from_utf8(rgn)?, "[Black \"Ann\"]\n\n1. f5 d6\n");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Record {
    /// The rules the game was played under.
    #[serde(default)]
    pub rules: Rules,
    /// Where the rules were stated (the `Rules` tag, a GGF `TY`, ...).
    #[serde(skip)]
    pub rules_span: Option<Span>,
    /// The start position when it is not the rules' default.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub start: Option<StartPosition>,
    /// Tag pairs in the order the record gives them (rules, setup and result excluded: they
    /// have their own fields; see [`TagName::RESERVED`]).
    #[serde(
        default,
        skip_serializing_if = "Vec::is_empty",
        with = "tags::json_form"
    )]
    pub tags: Vec<Tag>,
    /// The moves as written, passes included where the record writes them.
    #[serde(default)]
    pub moves: Vec<MoveRecord>,
    /// Board snapshots the record claims, each after a number of written moves.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub positions: Vec<PositionClaim>,
    /// The claimed result.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result: Option<ClaimedResult>,
    /// A comment before the moves (game comment).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The whole game's text.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl Record {
    /// An empty record of a game under `rules`, from their default start position.
    pub fn new(rules: Rules) -> Record {
        Record {
            rules,
            ..Record::default()
        }
    }

    /// The same record with every span forgotten: two records say the same thing exactly
    /// when their `without_spans()` are equal.
    pub fn without_spans(&self) -> Record {
        let mut r = self.clone();
        r.rules_span = None;
        r.span = None;
        if let Some(s) = &mut r.start {
            s.span = None;
        }
        for t in &mut r.tags {
            t.span = None;
        }
        for m in &mut r.moves {
            m.span = None;
            if let Some(f) = &mut m.flips {
                f.span = None;
            }
        }
        for p in &mut r.positions {
            p.span = None;
        }
        if let Some(res) = &mut r.result {
            res.span = None;
        }
        r
    }

    /// The value of the first tag named `name` (case-insensitive).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// Sets tag `name` to `value`, replacing the first tag of that name or appending.
    pub fn set_tag(&mut self, name: &str, value: impl Into<String>) {
        let value = value.into();
        match self
            .tags
            .iter_mut()
            .find(|t| t.name.eq_ignore_ascii_case(name))
        {
            Some(t) => t.value = value,
            None => self.tags.push(Tag::new(name, value)),
        }
    }

    /// The player of `color` (`Black`, `White`, `Red`, `Green` tags).
    pub fn player(&self, color: Color) -> Option<&str> {
        self.tag(TagName::player(color))
    }

    /// The position the game starts from, checked against the rules: the start position
    /// (with the discs in hand it gives, when the supply is limited) or the rules' default.
    pub fn start_position(&self) -> Result<Position, SetupError> {
        start_position(self.rules, self.start.as_ref())
    }

    /// The setup the game starts from: the start position, or the rules' default.
    pub fn start_setup(&self) -> Setup {
        start_setup(self.rules, self.start.as_ref())
    }
}

/// The position a game under `rules` starts from: `start` (with the discs in hand it
/// gives, when the supply is limited) or the rules' default; [`Record::start_position`]
/// for a record, this for a game seen without one.
///
/// ```
/// use reversi_formats::record::start_position;
/// use reversi_engine::{Position, Rules};
/// assert_eq!(start_position(Rules::default(), None)?, Position::new(Rules::default()));
/// # Ok::<(), reversi_engine::SetupError>(())
/// ```
pub fn start_position(rules: Rules, start: Option<&StartPosition>) -> Result<Position, SetupError> {
    let in_hand = start.and_then(|s| s.in_hand);
    Position::from_setup_in_hand(rules, start_setup(rules, start), in_hand)
}

#[doc(hidden)]
pub fn start_setup(rules: Rules, start: Option<&StartPosition>) -> Setup {
    match start {
        Some(s) => s.setup,
        None => {
            let (discs, neutral) = rules.start_discs();
            Setup {
                discs,
                neutral,
                turn: Color::Black,
            }
        }
    }
}

/// A start position other than the rules' default.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct StartPosition {
    /// Discs and side to move.
    #[serde(with = "setup_serde")]
    pub setup: Setup,
    /// Discs each player still has in hand when the supply is limited; `None` derives it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub in_hand: Option<[u8; 2]>,
    /// Where the position was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// One move as written, with what the record claims about it.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveRecord {
    /// The square, or a pass.
    #[serde(rename = "move", with = "move_serde")]
    pub mv: Move,
    /// The colour the record says made the move (GGF `B[..]`/`W[..]`, Edax case), if it
    /// says.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub color: Option<Color>,
    /// The discs the record claims the move flipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub flips: Option<FlipClaim>,
    /// An evaluation in discs, from the mover's view (GGF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub eval: Option<f64>,
    /// Seconds the mover used (GGF).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub time: Option<f64>,
    /// A comment after the move.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub comment: Option<String>,
    /// The move token.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl MoveRecord {
    /// A move with no claims.
    pub fn new(mv: Move) -> MoveRecord {
        MoveRecord {
            mv,
            color: None,
            flips: None,
            eval: None,
            time: None,
            comment: None,
            span: None,
        }
    }

    /// The same move with its span set.
    pub fn at(mut self, span: Span) -> MoveRecord {
        self.span = Some(span);
        self
    }
}

/// The discs a record says a move flipped: the squares, a count, or both.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FlipClaim {
    /// The flipped squares.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "opt_squares_serde"
    )]
    pub squares: Option<SquareSet>,
    /// How many discs flipped.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub count: Option<u8>,
    /// Where the claim was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// A board snapshot the record claims after some moves.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PositionClaim {
    /// Number of written moves (passes included) played before the snapshot.
    pub after_moves: usize,
    /// The claimed discs and side to move.
    #[serde(with = "setup_serde")]
    pub setup: Setup,
    /// Where the snapshot was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

/// The result a record claims.
#[derive(Clone, PartialEq, Debug, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct ClaimedResult {
    /// The score, in whichever form the record gives it.
    #[serde(default, skip_serializing_if = "ResultScore::is_none")]
    pub score: ResultScore,
    /// How the game ended.
    #[serde(default, skip_serializing_if = "Termination::is_normal")]
    pub termination: Termination,
    /// Where the result was written.
    #[serde(skip)]
    pub span: Option<Span>,
}

impl ClaimedResult {
    /// A normal end with disc counts per colour.
    pub fn discs(counts: Vec<u8>) -> ClaimedResult {
        ClaimedResult {
            score: ResultScore::Discs(counts),
            termination: Termination::Normal,
            span: None,
        }
    }
}

/// A claimed score.
#[derive(Clone, PartialEq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultScore {
    /// No score given (`*`, or only a termination).
    #[default]
    None,
    /// Discs per colour in turn order (`41-23`, `20-22-22` for 3 players), counted under the
    /// rules' scoring (WOF gives the empties to the winner).
    Discs(Vec<u8>),
    /// Black's discs minus White's, possibly fractional with komi (GGF `RE[+18.000]`).
    Margin(f64),
    /// Only the winner (`1-0`, `0-1`; `None` is a draw, `1/2-1/2`).
    Winner(Option<Color>),
}

impl ResultScore {
    /// Whether no score is given.
    pub fn is_none(&self) -> bool {
        matches!(self, ResultScore::None)
    }
}

/// How a game ended, as the record claims.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Termination {
    /// Played to the end (or the record says nothing else).
    #[default]
    Normal,
    /// A player resigned (`None`: the record does not say who).
    Resignation(Option<Color>),
    /// A player lost on time.
    Time(Option<Color>),
    /// Stopped before the end with no decision (`*`, GGF `?`, adjourned).
    Unfinished,
    /// The score was agreed by both players (GGF `:s`).
    Agreement,
}

impl Termination {
    /// Whether the game was played to the end.
    pub fn is_normal(&self) -> bool {
        matches!(self, Termination::Normal)
    }
}

mod move_serde {
    use crate::engine::{Move, Square};
    use serde::{Deserialize, Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(mv: &Move, s: S) -> Result<S::Ok, S::Error> {
        match mv {
            Move::Place(sq) => s.serialize_str(sq.name()),
            Move::Pass => s.serialize_str("pass"),
        }
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Move, D::Error> {
        let text = std::borrow::Cow::<'de, str>::deserialize(d)?;
        if text.eq_ignore_ascii_case("pass") {
            return Ok(Move::Pass);
        }
        text.parse::<Square>()
            .map(Move::Place)
            .map_err(serde::de::Error::custom)
    }
}

mod opt_squares_serde {
    use crate::engine::{Square, SquareSet};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    pub(super) fn serialize<S: Serializer>(
        set: &Option<SquareSet>,
        s: S,
    ) -> Result<S::Ok, S::Error> {
        let list: Option<Vec<Square>> = set.map(|set| set.iter().collect());
        list.serialize(s)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(
        d: D,
    ) -> Result<Option<SquareSet>, D::Error> {
        let list = Option::<Vec<Square>>::deserialize(d)?;
        Ok(list.map(|l| l.into_iter().collect()))
    }
}

/// Serde form of a [`Setup`]: `{"black": ["e4", ...], "white": [...], "neutral": [...],
/// "turn": "black"}`; empty colours are left out.
pub(crate) mod setup_serde {
    use crate::engine::{Color, Setup, Square, SquareSet};
    use serde::{Deserialize, Deserializer, Serialize, Serializer};

    #[derive(Serialize, Deserialize)]
    #[serde(deny_unknown_fields)]
    struct SetupForm {
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        black: Vec<Square>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        white: Vec<Square>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        red: Vec<Square>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        green: Vec<Square>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        neutral: Vec<Square>,
        turn: Color,
    }

    pub(crate) fn serialize<S: Serializer>(setup: &Setup, s: S) -> Result<S::Ok, S::Error> {
        let list = |set: SquareSet| set.iter().collect::<Vec<_>>();
        SetupForm {
            black: list(setup.discs[0]),
            white: list(setup.discs[1]),
            red: list(setup.discs[2]),
            green: list(setup.discs[3]),
            neutral: list(setup.neutral),
            turn: setup.turn,
        }
        .serialize(s)
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Setup, D::Error> {
        let f = SetupForm::deserialize(d)?;
        let set = |v: Vec<Square>| v.into_iter().collect::<SquareSet>();
        Ok(Setup {
            discs: [set(f.black), set(f.white), set(f.red), set(f.green)],
            neutral: set(f.neutral),
            turn: f.turn,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_start_position_keeps_the_discs_in_hand_it_gives() {
        let rules: Rules = "classic".parse().unwrap();
        let mut record = Record::new(rules);
        assert_eq!(
            record.start_position().unwrap().in_hand(Color::Black),
            Some(32)
        );
        let mut setup = record.start_setup();
        for sq in ["d4", "e5"] {
            setup.discs[1].insert(sq.parse().unwrap());
        }
        for sq in ["e4", "d5"] {
            setup.discs[0].insert(sq.parse().unwrap());
        }
        record.start = Some(StartPosition {
            setup,
            in_hand: Some([0, 5]),
            span: None,
        });
        let pos = record.start_position().unwrap();
        assert_eq!(pos.in_hand(Color::Black), Some(0));
        assert_eq!(pos.in_hand(Color::White), Some(5));
        assert!(pos.legal_moves().is_empty(), "Black has no discs left");
        // Without the claim, the discs in hand derive from the board: 2 placed each.
        record.start.as_mut().unwrap().in_hand = None;
        assert_eq!(
            record.start_position().unwrap().in_hand(Color::Black),
            Some(30)
        );
    }
}
