//! The rules of a game as data, and the rules string that names them.
//!
//! ```text
//! PRESET[:BOARD][,OPTION]...
//! PRESET  othello | anti | free | classic | multi3 | multi4
//! BOARD   4x4 | 6x6 | 8x8 | 10x10 | octagon      (default 8x8)
//! OPTION  anti | free | blocked=SQ+SQ... | handicap=COLOUR:SQ+SQ... | scoring=wof|raw
//! ```

use std::fmt;
use std::str::FromStr;

use super::board::BoardShape;
use super::square::{Color, Square, SquareSet};

/// Who wins: the player with the most discs, or (anti-reversi) the one with the fewest.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Goal {
    /// Most discs wins.
    MostDiscs,
    /// Fewest discs wins (anti-reversi).
    FewestDiscs,
}

/// How the game begins.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Opening {
    /// The four centre discs are on the board before move 1.
    Standard,
    /// The board starts empty; the first four plies place discs on the centre squares.
    Free,
}

/// How a finished two-player game is scored.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Scoring {
    /// Tournament score: empty squares go to the winner (to the loser in anti), split on a draw.
    Wof,
    /// Disc counts as they stand on the board.
    Raw,
}

impl Scoring {
    /// The name used in rules strings.
    pub const fn name(self) -> &'static str {
        match self {
            Scoring::Wof => "wof",
            Scoring::Raw => "raw",
        }
    }
}

/// Corner discs of one colour on the board before move 1.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Handicap {
    /// The player who receives the discs.
    pub color: Color,
    /// The corner squares.
    pub squares: SquareSet,
}

/// The named starting points of a rules string.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Preset {
    /// Standard Othello.
    Othello,
    /// Othello where the fewest discs win.
    Anti,
    /// Othello with the four centre discs placed by the players.
    Free,
    /// 1880s reversi: free opening, 32 discs each, 8x8.
    Classic,
    /// Three players and a neutral centre disc.
    Multi3,
    /// Four players.
    Multi4,
}

impl Preset {
    const ALL: [Preset; 6] = [
        Preset::Othello,
        Preset::Anti,
        Preset::Free,
        Preset::Classic,
        Preset::Multi3,
        Preset::Multi4,
    ];

    /// The name used in rules strings.
    pub const fn name(self) -> &'static str {
        match self {
            Preset::Othello => "othello",
            Preset::Anti => "anti",
            Preset::Free => "free",
            Preset::Classic => "classic",
            Preset::Multi3 => "multi3",
            Preset::Multi4 => "multi4",
        }
    }
}

/// Disc supply of classic reversi, per player.
pub const CLASSIC_SUPPLY: u8 = 32;

/// A complete, consistent description of one variant.
///
/// Build it from a rules string; [`Display`](fmt::Display) prints the canonical form back.
///
/// ```
/// use reversi_engine::Rules;
/// let rules: Rules = "Othello:10X10, anti".parse().unwrap();
/// assert_eq!(rules.to_string(), "anti:10x10");
/// let err = "multi3:6x6".parse::<Rules>().unwrap_err();
/// assert!(err.to_string().contains("6x6"));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Rules {
    board: BoardShape,
    players: u8,
    goal: Goal,
    opening: Opening,
    supply: Option<u8>,
    blocked: SquareSet,
    handicap: Option<Handicap>,
    scoring: Scoring,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules::othello(BoardShape::Eight)
    }
}

impl Rules {
    /// Standard Othello on `board`.
    pub const fn othello(board: BoardShape) -> Rules {
        Rules {
            board,
            players: 2,
            goal: Goal::MostDiscs,
            opening: Opening::Standard,
            supply: None,
            blocked: SquareSet::EMPTY,
            handicap: None,
            scoring: Scoring::Wof,
        }
    }

    /// The rules of `preset` on `board`, checked.
    pub fn preset(preset: Preset, board: BoardShape) -> Result<Rules, RulesError> {
        let mut rules = Rules::othello(board);
        match preset {
            Preset::Othello => {}
            Preset::Anti => rules.goal = Goal::FewestDiscs,
            Preset::Free => rules.opening = Opening::Free,
            Preset::Classic => {
                rules.opening = Opening::Free;
                rules.supply = Some(CLASSIC_SUPPLY);
            }
            Preset::Multi3 | Preset::Multi4 => {
                rules.players = if preset == Preset::Multi3 { 3 } else { 4 };
                rules.scoring = Scoring::Raw;
            }
        }
        rules.check()
    }

    /// The board shape.
    pub const fn board(&self) -> BoardShape {
        self.board
    }
    /// Number of players (2, 3 or 4).
    pub const fn players(&self) -> u8 {
        self.players
    }
    /// Most or fewest discs wins.
    pub const fn goal(&self) -> Goal {
        self.goal
    }
    /// Standard or free opening.
    pub const fn opening(&self) -> Opening {
        self.opening
    }
    /// Discs each player may place, when limited (classic reversi).
    pub const fn supply(&self) -> Option<u8> {
        self.supply
    }
    /// Squares no disc may occupy.
    pub const fn blocked(&self) -> SquareSet {
        self.blocked
    }
    /// Handicap corner discs, if any.
    pub const fn handicap(&self) -> Option<Handicap> {
        self.handicap
    }
    /// How a finished game is scored.
    pub const fn scoring(&self) -> Scoring {
        self.scoring
    }
    /// Whether the fewest discs win.
    pub fn is_anti(&self) -> bool {
        self.goal == Goal::FewestDiscs
    }
    /// Colours taking part, in turn order.
    pub fn colors(&self) -> &'static [Color] {
        &Color::ALL[..self.players as usize]
    }
    /// The squares discs can ever occupy: the board minus blocked squares.
    pub fn playable(&self) -> SquareSet {
        self.board.cells().difference(self.blocked)
    }

    /// The preset that names these rules in canonical form.
    pub fn canonical_preset(&self) -> Preset {
        match self.players {
            3 => Preset::Multi3,
            4 => Preset::Multi4,
            _ if self.supply.is_some() => Preset::Classic,
            _ if self.goal == Goal::FewestDiscs => Preset::Anti,
            _ if self.opening == Opening::Free => Preset::Free,
            _ => Preset::Othello,
        }
    }

    /// Discs each player places in a 3-4 player game without blocked squares
    /// (8x8: 20 or 15), for display; `None` otherwise.
    pub fn placements_per_player(&self) -> Option<usize> {
        if self.players < 3 || !self.blocked.is_empty() {
            return None;
        }
        Some((self.board.cells().len() - 4) / self.players as usize)
    }

    /// The discs on the board before move 1, per colour, and the neutral disc (3 players).
    pub fn start_discs(&self) -> ([SquareSet; 4], SquareSet) {
        let mut discs = [SquareSet::EMPTY; 4];
        let mut neutral = SquareSet::EMPTY;
        let [tl, tr, br, bl] = self.board.centre();
        if self.opening == Opening::Standard {
            match self.players {
                2 => {
                    discs[1] = [tl, br].into_iter().collect();
                    discs[0] = [tr, bl].into_iter().collect();
                }
                n => {
                    for (i, sq) in [tl, tr, br, bl].into_iter().enumerate() {
                        if i < n as usize {
                            discs[i].insert(sq);
                        } else {
                            neutral.insert(sq);
                        }
                    }
                }
            }
        }
        if let Some(h) = self.handicap {
            discs[h.color.index()] = discs[h.color.index()].union(h.squares);
        }
        (discs, neutral)
    }

    /// Squares that hold a disc at the start or during the free opening.
    fn start_squares(&self) -> SquareSet {
        let mut set: SquareSet = self.board.centre().into_iter().collect();
        if let Some(h) = self.handicap {
            set = set.union(h.squares);
        }
        set
    }

    /// Checks a combination of settings against the rules, explaining any refusal.
    fn check(self) -> Result<Rules, RulesError> {
        let forbid = |why: String| Err(RulesError::Forbidden(why));
        if self.players > 2 {
            if matches!(self.board, BoardShape::Four | BoardShape::Six) {
                return forbid(format!(
                    "{} players cannot play on {}: 3-4 player games use 8x8, 10x10 or the octagon",
                    self.players, self.board
                ));
            }
            if self.opening == Opening::Free {
                return forbid("the free opening is not offered with 3-4 players".into());
            }
            if self.handicap.is_some() {
                return forbid("corner handicap is not offered with 3-4 players".into());
            }
            if self.supply.is_some() {
                return forbid("a disc supply is not offered with 3-4 players".into());
            }
            if self.scoring == Scoring::Wof {
                return forbid(
                    "3-4 player games never award empty squares: use scoring=raw or leave it out"
                        .into(),
                );
            }
        }
        if self.supply.is_some() && self.board != BoardShape::Eight {
            return forbid(format!(
                "classic reversi (32 discs each) is played on 8x8, not {}",
                self.board
            ));
        }
        for sq in self.blocked {
            if !self.board.contains(sq) {
                return Err(RulesError::OffBoard {
                    square: sq,
                    board: self.board,
                });
            }
        }
        if let Some(h) = self.handicap {
            if self.board == BoardShape::Octagon {
                return forbid("corner handicap is not offered on the octagon".into());
            }
            if h.squares.is_empty() {
                return forbid("a handicap needs at least one corner".into());
            }
            let corners: SquareSet = self.board.corners().into_iter().collect();
            if let Some(sq) = h.squares.difference(corners).first() {
                return forbid(format!(
                    "handicap square {sq} is not a corner of the {} board",
                    self.board
                ));
            }
        }
        if let Some(sq) = self.blocked.intersection(self.start_squares()).first() {
            return forbid(format!(
                "square {sq} cannot be blocked: it is a start or handicap square"
            ));
        }
        Ok(self)
    }
}

impl FromStr for Rules {
    type Err = RulesError;

    fn from_str(text: &str) -> Result<Rules, RulesError> {
        let mut parts = text.split(',').map(str::trim);
        let head = parts.next().unwrap_or_default();
        if head.is_empty() {
            return Err(RulesError::Empty);
        }
        let (preset_name, board_name) = match head.split_once(':') {
            Some((p, b)) => (p.trim(), Some(b.trim())),
            None => (head, None),
        };
        let preset = Preset::ALL
            .into_iter()
            .find(|p| preset_name.eq_ignore_ascii_case(p.name()))
            .ok_or_else(|| RulesError::UnknownPreset(preset_name.to_owned()))?;
        let board = match board_name {
            Some(b) => b
                .parse::<BoardShape>()
                .map_err(|_| RulesError::UnknownBoard(b.to_owned()))?,
            None => BoardShape::Eight,
        };
        let mut rules = Rules::preset(preset, board)?;
        let mut seen: Vec<String> = Vec::new();
        for option in parts {
            let (key, value) = match option.split_once('=') {
                Some((k, v)) => (k.trim().to_ascii_lowercase(), Some(v.trim())),
                None => (option.to_ascii_lowercase(), None),
            };
            if seen.contains(&key) {
                return Err(RulesError::RepeatedOption(key));
            }
            match (key.as_str(), value) {
                ("anti", None) => rules.goal = Goal::FewestDiscs,
                ("free", None) => rules.opening = Opening::Free,
                ("blocked", Some(v)) => rules.blocked = parse_squares("blocked", v)?,
                ("handicap", Some(v)) => rules.handicap = Some(parse_handicap(v, board)?),
                ("scoring", Some(v)) => {
                    rules.scoring = match v.to_ascii_lowercase().as_str() {
                        "wof" => Scoring::Wof,
                        "raw" => Scoring::Raw,
                        _ => {
                            return Err(RulesError::BadValue {
                                option: "scoring".into(),
                                expected: "wof or raw",
                                found: v.to_owned(),
                            })
                        }
                    }
                }
                _ => return Err(RulesError::UnknownOption(option.to_owned())),
            }
            seen.push(key);
        }
        rules.check()
    }
}

fn parse_squares(option: &str, text: &str) -> Result<SquareSet, RulesError> {
    text.split('+')
        .map(|s| {
            s.trim()
                .parse::<Square>()
                .map_err(|_| RulesError::BadValue {
                    option: option.to_owned(),
                    expected: "squares joined by `+`, such as a1+h8",
                    found: s.trim().to_owned(),
                })
        })
        .collect()
}

fn parse_handicap(text: &str, board: BoardShape) -> Result<Handicap, RulesError> {
    let bad = |expected| RulesError::BadValue {
        option: "handicap".into(),
        expected,
        found: text.to_owned(),
    };
    let (colour, squares) = text
        .split_once(':')
        .ok_or_else(|| bad("COLOUR:SQ+SQ... such as white:a1+h8, or COLOUR:K with K corners"))?;
    let color = Color::from_name(colour.trim())
        .filter(|c| matches!(c, Color::Black | Color::White))
        .ok_or_else(|| bad("a colour, black or white, before the `:`"))?;
    let squares = match squares.trim().parse::<usize>() {
        // On the octagon (no corners) this is empty, and `check` says why.
        Ok(k @ 1..=4) => board.corners().into_iter().take(k).collect(),
        Ok(_) => return Err(bad("between 1 and 4 corners")),
        Err(_) => parse_squares("handicap", squares)?,
    };
    Ok(Handicap { color, squares })
}

impl fmt::Display for Rules {
    /// The canonical rules string: the most specific preset, the board unless 8x8, then the
    /// options that differ from the preset in a fixed order.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let preset = self.canonical_preset();
        f.write_str(preset.name())?;
        if self.board != BoardShape::Eight {
            write!(f, ":{}", self.board)?;
        }
        if self.goal == Goal::FewestDiscs && preset != Preset::Anti {
            f.write_str(",anti")?;
        }
        if self.opening == Opening::Free && !matches!(preset, Preset::Free | Preset::Classic) {
            f.write_str(",free")?;
        }
        if !self.blocked.is_empty() {
            write!(f, ",blocked={}", join_squares(self.blocked))?;
        }
        if let Some(h) = self.handicap {
            write!(f, ",handicap={}:{}", h.color, join_squares(h.squares))?;
        }
        if self.players == 2 && self.scoring != Scoring::Wof {
            write!(f, ",scoring={}", self.scoring.name())?;
        }
        Ok(())
    }
}

fn join_squares(set: SquareSet) -> String {
    set.iter()
        .map(|s| s.to_string())
        .collect::<Vec<_>>()
        .join("+")
}

impl serde::Serialize for Rules {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_str(self)
    }
}

impl<'de> serde::Deserialize<'de> for Rules {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Rules, D::Error> {
        let text = <std::borrow::Cow<'de, str>>::deserialize(d)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

/// Why a rules string or combination was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RulesError {
    /// The string was empty.
    Empty,
    /// The preset is not one of the known names.
    UnknownPreset(String),
    /// The board is not one of the known shapes.
    UnknownBoard(String),
    /// The option is not one of the known names, or lacks or has a value it should not.
    UnknownOption(String),
    /// The option appears twice.
    RepeatedOption(String),
    /// An option's value could not be read.
    BadValue {
        /// The option.
        option: String,
        /// What was expected.
        expected: &'static str,
        /// What was found.
        found: String,
    },
    /// A square lies off the board.
    OffBoard {
        /// The square.
        square: Square,
        /// The board.
        board: BoardShape,
    },
    /// The rules forbid this combination; the text says why.
    Forbidden(String),
}

impl fmt::Display for RulesError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RulesError::Empty => f.write_str("expected a rules string such as `othello` or `anti:10x10`, but found nothing"),
            RulesError::UnknownPreset(p) => write!(
                f,
                "expected a preset (othello, anti, free, classic, multi3 or multi4), but found `{p}` instead"
            ),
            RulesError::UnknownBoard(b) => write!(
                f,
                "expected a board (4x4, 6x6, 8x8, 10x10 or octagon), but found `{b}` instead"
            ),
            RulesError::UnknownOption(o) => write!(
                f,
                "expected an option (anti, free, blocked=SQ+SQ, handicap=COLOUR:SQ+SQ or scoring=wof|raw), but found `{o}` instead"
            ),
            RulesError::RepeatedOption(o) => write!(f, "option `{o}` is given twice"),
            RulesError::BadValue { option, expected, found } => {
                write!(f, "option `{option}` expects {expected}, but found `{found}` instead")
            }
            RulesError::OffBoard { square, board } => {
                write!(f, "square {square} is not on the {board} board")
            }
            RulesError::Forbidden(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for RulesError {}

impl RulesError {
    /// The rules strings the writer of `text` (which gave this error) may have meant, best
    /// first, each of which parses: for a preset or board that is not one, a near name
    /// (`othelo`), a variant's common name (`anti-reversi`, `antireversi`, `reversi`,
    /// `free-opening`, `3-player`), or a board given alone (`octagon`, `10x10`). Empty when
    /// nothing is close.
    ///
    /// ```
    /// use reversi_engine::{Rules, RulesError};
    /// let suggest = |t: &str| t.parse::<Rules>().unwrap_err().suggestions(t);
    /// assert_eq!(suggest("octagon"), ["othello:octagon"]);
    /// assert_eq!(suggest("10x10"), ["othello:10x10"]);
    /// assert_eq!(suggest("anti-reversi"), ["anti"]);
    /// assert_eq!(suggest("othelo:6x6"), ["othello:6x6"]);
    /// assert_eq!(suggest("anti:10*10"), ["anti:10x10"]);
    /// assert!(suggest("zzzzzz").is_empty());
    /// ```
    pub fn suggestions(&self, text: &str) -> Vec<String> {
        let (head, options) = match text.split_once(',') {
            Some((h, o)) => (h.trim(), Some(o)),
            None => (text.trim(), None),
        };
        let (preset, board) = match head.split_once(':') {
            Some((p, b)) => (p.trim(), Some(b.trim())),
            None => (head, None),
        };
        let heads: Vec<String> = match self {
            RulesError::UnknownPreset(_) => near_presets(preset, board),
            RulesError::UnknownBoard(_) => near_board(board.unwrap_or_default())
                .map(|b| format!("{preset}:{b}"))
                .into_iter()
                .collect(),
            _ => Vec::new(),
        };
        let mut out: Vec<String> = Vec::new();
        for head in heads {
            let candidate = match options {
                Some(o) => format!("{head},{o}"),
                None => head,
            };
            if let Ok(rules) = candidate.parse::<Rules>() {
                let canonical = rules.to_string();
                if !out.contains(&canonical) {
                    out.push(canonical);
                }
            }
        }
        out
    }
}

/// Rules heads (`PRESET[:BOARD]`) for a preset word that is not a preset, with `board`
/// when one was given after it.
fn near_presets(word: &str, board: Option<&str>) -> Vec<String> {
    let squashed: String = word
        .chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .collect::<String>()
        .to_ascii_lowercase();
    // A board in the word (`octagon`, `othello10x10`, `anti-10x10`): the rest is the preset.
    let mut found_board = board.map(str::to_owned);
    let mut rest = squashed.clone();
    for b in BoardShape::ALL {
        let name = b.name();
        if let Some(at) = squashed.find(name) {
            if found_board.is_none() {
                found_board = Some(name.to_owned());
            }
            rest = format!("{}{}", &squashed[..at], &squashed[at + name.len()..]);
            break;
        }
    }
    let mut presets: Vec<&'static str> = Vec::new();
    if rest.is_empty() {
        presets.push("othello");
    } else if let Some(p) = preset_alias(&rest) {
        presets.push(p);
    } else {
        let best = Preset::ALL
            .iter()
            .map(|p| (edit_distance(&rest, p.name()), p.name()))
            .filter(|(d, name)| *d <= 2 && *d < name.len())
            .min();
        presets.extend(best.map(|(_, name)| name));
    }
    presets
        .into_iter()
        .map(|p| match &found_board {
            Some(b) => format!("{p}:{b}"),
            None => p.to_owned(),
        })
        .collect()
}

/// The preset a common name of a variant stands for: `reversi`, `antireversi`,
/// `antiothello`, `freeopening`, `3player` ... (letters and digits only, lower case).
fn preset_alias(word: &str) -> Option<&'static str> {
    let named = match word {
        "reversi" | "othelo" | "othelllo" | "standard" | "std" => "othello",
        "antireversi" | "antiothello" | "reverse" | "losing" | "misere" => "anti",
        "freeopening" | "freeothello" | "free4" => "free",
        "classicreversi" | "oldreversi" | "reversi1880" => "classic",
        "3player" | "3players" | "threeplayer" | "threeplayers" | "multi" | "3p" => "multi3",
        "4player" | "4players" | "fourplayer" | "fourplayers" | "4p" => "multi4",
        _ if word.starts_with("anti") => "anti",
        _ => return None,
    };
    Some(named)
}

/// A board name near `text` (`10*10`, `10X10`, `octogon`).
fn near_board(text: &str) -> Option<&'static str> {
    let squashed: String = text
        .chars()
        .map(|c| match c {
            '*' | '×' | 'X' | '/' | '-' => 'x',
            c => c.to_ascii_lowercase(),
        })
        .filter(|c| !c.is_whitespace())
        .collect();
    let squashed = match squashed.as_str() {
        "10" => "10x10".to_owned(),
        "8" => "8x8".to_owned(),
        "6" => "6x6".to_owned(),
        "4" => "4x4".to_owned(),
        "oct" | "octo" | "octa" => "octagon".to_owned(),
        _ => squashed,
    };
    BoardShape::ALL
        .iter()
        .map(|b| (edit_distance(&squashed, b.name()), b.name()))
        .filter(|(d, _)| *d <= 2)
        .min()
        .map(|(_, name)| name)
}

/// The Levenshtein distance of two short strings, by characters (the "did you mean" of a
/// rules string here, of a diagnostic code on the command line).
///
/// ```
/// use reversi_engine::edit_distance;
/// assert_eq!(edit_distance("kitten", "sitting"), 3);
/// assert_eq!(edit_distance("", "ab"), 2);
/// assert_eq!(edit_distance("same", "same"), 0);
/// ```
#[doc(hidden)]
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut row: Vec<usize> = (0..=b.len()).collect();
    for (i, ca) in a.chars().enumerate() {
        let mut diagonal = row[0];
        row[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let above = row[j + 1];
            row[j + 1] = if ca == *cb {
                diagonal
            } else {
                1 + diagonal.min(above).min(row[j])
            };
            diagonal = above;
        }
    }
    row[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn canon(text: &str) -> String {
        match text.parse::<Rules>() {
            Ok(r) => r.to_string(),
            Err(e) => format!("error: {e}"),
        }
    }

    #[test]
    fn canonical_forms() {
        assert_eq!(canon("othello"), "othello");
        assert_eq!(canon("othello:8x8"), "othello");
        assert_eq!(canon("OTHELLO:6X6"), "othello:6x6");
        assert_eq!(canon("othello,anti"), "anti");
        assert_eq!(canon("free,anti"), "anti,free");
        assert_eq!(canon("othello,free"), "free");
        assert_eq!(canon("classic"), "classic");
        assert_eq!(canon("classic,anti"), "classic,anti");
        assert_eq!(canon("multi3:octagon,anti"), "multi3:octagon,anti");
        assert_eq!(canon("multi4:10x10,scoring=raw"), "multi4:10x10");
        assert_eq!(canon("othello, blocked=h8+a1"), "othello,blocked=a1+h8");
        assert_eq!(
            canon("othello,handicap=white:2"),
            "othello,handicap=white:a1+h8"
        );
        assert_eq!(
            canon("othello:10x10,handicap=b:j10"),
            "othello:10x10,handicap=black:j10"
        );
        assert_eq!(canon("othello,scoring=raw"), "othello,scoring=raw");
    }

    #[test]
    fn refusals_say_why() {
        assert_eq!(
            canon("multi3:6x6"),
            "error: 3 players cannot play on 6x6: 3-4 player games use 8x8, 10x10 or the octagon"
        );
        assert_eq!(
            canon("othello:octagon,handicap=black:1"),
            "error: corner handicap is not offered on the octagon"
        );
        assert_eq!(
            canon("othello,handicap=black:5"),
            "error: option `handicap` expects between 1 and 4 corners, but found `black:5` instead"
        );
        assert_eq!(
            canon("othello:octagon,handicap=black:c1"),
            "error: corner handicap is not offered on the octagon"
        );
        assert_eq!(
            canon("multi4,handicap=black:a1"),
            "error: corner handicap is not offered with 3-4 players"
        );
        assert_eq!(
            canon("othello,blocked=d4"),
            "error: square d4 cannot be blocked: it is a start or handicap square"
        );
        assert_eq!(
            canon("othello,handicap=white:a1,blocked=a1"),
            "error: square a1 cannot be blocked: it is a start or handicap square"
        );
        assert_eq!(
            canon("othello:6x6,blocked=g1"),
            "error: square g1 is not on the 6x6 board"
        );
        assert_eq!(
            canon("othello:octagon,blocked=a1"),
            "error: square a1 is not on the octagon board"
        );
        assert_eq!(
            canon("othello,handicap=white:b2"),
            "error: handicap square b2 is not a corner of the 8x8 board"
        );
        assert_eq!(
            canon("classic:10x10"),
            "error: classic reversi (32 discs each) is played on 8x8, not 10x10"
        );
        assert_eq!(
            canon("multi3,free"),
            "error: the free opening is not offered with 3-4 players"
        );
        assert_eq!(
            canon("multi3,scoring=wof"),
            "error: 3-4 player games never award empty squares: use scoring=raw or leave it out"
        );
        assert!(canon("chess").starts_with("error: expected a preset"));
        assert!(canon("othello:9x9").starts_with("error: expected a board"));
        assert!(canon("othello,turbo").starts_with("error: expected an option"));
        assert_eq!(
            canon("othello,anti,anti"),
            "error: option `anti` is given twice"
        );
        assert!(canon("othello,blocked=z9").starts_with("error: option `blocked` expects squares"));
        assert!(canon("").starts_with("error: expected a rules string"));
    }

    #[test]
    fn start_discs_follow_the_rules() {
        let r: Rules = "multi3".parse().unwrap();
        let (discs, neutral) = r.start_discs();
        assert_eq!(discs[0].to_string(), "d4");
        assert_eq!(discs[1].to_string(), "e4");
        assert_eq!(discs[2].to_string(), "e5");
        assert_eq!(neutral.to_string(), "d5");
        let (discs, _) = Rules::default().start_discs();
        assert_eq!(discs[0].to_string(), "e4 d5");
        assert_eq!(discs[1].to_string(), "d4 e5");
        assert_eq!(r.placements_per_player(), Some(20));
    }
}
