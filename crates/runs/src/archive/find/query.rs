//! What a query says: the target position and the tag conditions, read from text.

use std::cmp::Ordering;
use std::fmt;

use crate::engine::{BoardShape, Color, Move, Position, Rules, Setup, Square, SquareSet};
use crate::record::Tag;

/// Why a query could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum QueryError {
    /// A token of a move sequence is not a square or a pass.
    BadMove {
        /// The token.
        token: String,
    },
    /// A move of the sequence is not legal where it is played.
    IllegalMove {
        /// Its number, from 1.
        number: usize,
        /// The move.
        mv: String,
        /// The legal moves there.
        legal: String,
    },
    /// A board that could not be read.
    BadBoard(String),
    /// A tag condition that could not be read.
    BadCondition(String),
}

impl fmt::Display for QueryError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryError::BadMove { token } => write!(
                f,
                "expected a square (`f5`) or a pass (`pass`, `--`), but found `{token}` instead"
            ),
            QueryError::IllegalMove { number, mv, legal } => write!(
                f,
                "move {number}, {mv}, is not legal there (legal: {legal})"
            ),
            QueryError::BadBoard(why) | QueryError::BadCondition(why) => f.write_str(why),
        }
    }
}

impl std::error::Error for QueryError {}

/// A position to find: discs and the side to move, on the board of `rules`.
///
/// ```
/// use reversi_runs::archive::find::Target;
/// use reversi_engine::Rules;
/// let tiger = Target::after_moves(Rules::default(), "f5 d6 c3 d3 c4")?;
/// assert_eq!(tiger.discs(), 9);
/// let board = tiger.board_string();
/// assert_eq!(board.len(), 66);
/// assert_eq!(Target::from_board(Rules::default(), &board)?, tiger);
/// // Without a side to move, the one of a game without passes: White, after 5 moves.
/// assert_eq!(Target::from_board(Rules::default(), &board[..64])?, tiger);
/// # Ok::<(), reversi_runs::archive::find::QueryError>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Target {
    rules: Rules,
    setup: Setup,
}

impl Target {
    /// The position after `moves` (squares with or without separators, `f5d6c3` or
    /// `f5 d6 c3`, move numbers and commas ignored, passes as `pass`, `--` or `ps`) from
    /// the usual start of `rules`. A pass the moves leave out is inferred, as in a record.
    pub fn after_moves(rules: Rules, moves: &str) -> Result<Target, QueryError> {
        let mut pos = Position::new(rules);
        for (k, mv) in parse_moves(moves, rules.board())?.into_iter().enumerate() {
            if pos.play(mv).is_ok() {
                continue;
            }
            let passed = mv != Move::Pass && pos.must_pass() && {
                let mut after = pos;
                after.play(Move::Pass).is_ok() && after.play(mv).is_ok() && {
                    pos = after;
                    true
                }
            };
            if !passed {
                let legal: Vec<String> = pos.legal_moves().iter().map(|s| s.to_string()).collect();
                let legal = match (legal.is_empty(), pos.is_over()) {
                    (_, true) => "none, the game is over".to_string(),
                    (true, false) => "a pass".to_string(),
                    (false, false) => legal.join(" "),
                };
                return Err(QueryError::IllegalMove {
                    number: k + 1,
                    mv: mv.to_string(),
                    legal,
                });
            }
        }
        Ok(Target {
            rules,
            setup: pos.setup(),
        })
    }

    /// The position a board gives: its squares row by row from a1 (`X x * B` Black, `O o 0
    /// W` White, `- .` empty; whitespace, row numbers, `|` and a line of column letters
    /// are skipped, so the diagram `reversi show` prints reads back), then the side to
    /// move (`X`, `O`, `Black`, `White`, optionally followed by `to move`). Without a side
    /// to move, the one a game without passes would have: Black after an even number of
    /// placements.
    pub fn from_board(rules: Rules, text: &str) -> Result<Target, QueryError> {
        let side = rules.board().side();
        let need = usize::from(side) * usize::from(side);
        let mut squares: Vec<Option<Color>> = Vec::with_capacity(need);
        let mut rest = String::new();
        for line in text.lines() {
            let trimmed = line.trim();
            let is_header = !trimmed.is_empty()
                && trimmed.split_whitespace().all(|w| {
                    w.len() == 1 && w.as_bytes()[0].is_ascii_lowercase() && w.as_bytes()[0] < b'k'
                })
                && trimmed.split_whitespace().count() == usize::from(side);
            if is_header {
                continue;
            }
            for c in line.chars() {
                if squares.len() < need {
                    match c {
                        'X' | 'x' | '*' | 'B' => squares.push(Some(Color::Black)),
                        'O' | 'o' | '0' | 'W' => squares.push(Some(Color::White)),
                        '-' | '.' => squares.push(None),
                        c if c.is_whitespace() || c.is_ascii_digit() || c == '|' || c == '+' => {}
                        c => {
                            return Err(QueryError::BadBoard(format!(
                                "a board is {need} squares row by row from a1 (`X` Black, `O` White, `-` or `.` empty), then the side to move; `{c}` is none of these"
                            )))
                        }
                    }
                } else {
                    rest.push(c);
                }
            }
            rest.push(' ');
        }
        if squares.len() < need {
            return Err(QueryError::BadBoard(format!(
                "expected {need} squares ({}), but the board has only {}",
                rules.board(),
                squares.len()
            )));
        }
        let mut discs = [SquareSet::EMPTY; 4];
        for (k, color) in squares.iter().enumerate() {
            if let Some(color) = color {
                let sq = Square::new((k % usize::from(side)) as u8, (k / usize::from(side)) as u8)
                    .ok_or_else(|| QueryError::BadBoard("a square off the grid".into()))?;
                discs[color.index()].insert(sq);
            }
        }
        let words: Vec<String> = rest
            .split_whitespace()
            .map(|w| {
                w.trim_matches(|c: char| !c.is_alphanumeric())
                    .to_lowercase()
            })
            .filter(|w| !w.is_empty())
            .collect();
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let turn = match words.as_slice() {
            [] => None,
            [side] | [side, "to", "move"] | [side, "to", "play"] => match *side {
                "x" | "b" | "black" | "*" => Some(Color::Black),
                "o" | "w" | "white" | "0" => Some(Color::White),
                _ => return Err(bad_side(&words)),
            },
            _ => return Err(bad_side(&words)),
        };
        let turn = turn.unwrap_or_else(|| {
            let (start, _) = rules.start_discs();
            let at_start: usize = start.iter().map(|d| d.len()).sum();
            let now: usize = discs.iter().map(|d| d.len()).sum();
            if now.saturating_sub(at_start) % 2 == 0 {
                Color::Black
            } else {
                Color::White
            }
        });
        let setup = Setup {
            discs,
            neutral: SquareSet::EMPTY,
            turn,
        };
        Target::from_setup(rules, setup)
    }

    /// The position of `setup` under `rules`, checked as a start position is.
    pub fn from_setup(rules: Rules, setup: Setup) -> Result<Target, QueryError> {
        Position::from_setup(rules, setup)
            .map_err(|e| QueryError::BadBoard(format!("not a position of {rules}: {e}")))?;
        Ok(Target { rules, setup })
    }

    /// The rules the position is on the board of.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// Its discs and side to move.
    pub fn setup(&self) -> Setup {
        self.setup
    }

    /// The position, for showing it.
    pub fn position(&self) -> Position {
        // Checked when the target was made.
        Position::from_setup(self.rules, self.setup).unwrap_or_else(|_| Position::new(self.rules))
    }

    /// How many discs are on the board (neutral ones included).
    pub fn discs(&self) -> usize {
        self.setup.discs.iter().map(|d| d.len()).sum::<usize>() + self.setup.neutral.len()
    }

    /// The board string: the squares row by row from a1 (`X`, `O`, `-`), a space, and the
    /// side to move (`X`, `O`), as [`Target::from_board`] reads it.
    pub fn board_string(&self) -> String {
        let side = self.rules.board().side();
        let mut s = String::with_capacity(usize::from(side) * usize::from(side) + 2);
        for row in 0..side {
            for col in 0..side {
                let c = Square::new(col, row).map_or('-', |sq| {
                    match Color::ALL
                        .iter()
                        .find(|c| self.setup.discs[c.index()].contains(sq))
                    {
                        Some(c) => c.symbol(),
                        None if self.setup.neutral.contains(sq) => 'N',
                        None => '-',
                    }
                });
                s.push(c);
            }
        }
        s.push(' ');
        s.push(self.setup.turn.symbol());
        s
    }
}

fn bad_side(words: &[&str]) -> QueryError {
    QueryError::BadBoard(format!(
        "expected the side to move (`X`, `O`, `Black`, `White`) after the board, but found `{}` instead",
        words.join(" ")
    ))
}

/// The moves of a move sequence: squares with or without separators, passes as `pass`,
/// `--`, `ps` or `pa`; move numbers (`1.`) and commas are skipped.
pub(crate) fn parse_moves(text: &str, board: BoardShape) -> Result<Vec<Move>, QueryError> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_whitespace() || c == b',' || c == b';' {
            i += 1;
            continue;
        }
        if c.is_ascii_digit() {
            // A move number: digits and dots.
            while i < bytes.len() && (bytes[i].is_ascii_digit() || bytes[i] == b'.') {
                i += 1;
            }
            continue;
        }
        let lower = text[i..].to_ascii_lowercase();
        if let Some(len) = ["pass", "--", "ps", "pa"]
            .iter()
            .find(|p| lower.starts_with(*p))
            .map(|p| p.len())
        {
            moves.push(Move::Pass);
            i += len;
            continue;
        }
        // A letter, then one or two digits (two while the row stays on the board).
        let mut end = i + 1;
        while end < bytes.len() && end < i + 3 && bytes[end].is_ascii_digit() {
            end += 1;
        }
        if end == i + 3 {
            let row: u32 = text[i + 1..end].parse().unwrap_or(u32::MAX);
            if row > u32::from(board.side()) {
                end -= 1;
            }
        }
        let token_end = text[i..]
            .find(|c: char| c.is_whitespace() || c == ',')
            .map_or(text.len(), |k| i + k);
        let sq = text
            .get(i..end)
            .and_then(|t| t.parse::<Square>().ok())
            .filter(|sq| board.contains(*sq));
        match sq {
            Some(sq) if end > i + 1 => moves.push(Move::Place(sq)),
            _ => {
                return Err(QueryError::BadMove {
                    token: text[i..token_end.max(end.min(text.len()))].to_string(),
                })
            }
        }
        i = end;
    }
    Ok(moves)
}

/// Tag conditions: alternatives, each a list of conditions that must all hold. Empty, it
/// takes every game.
///
/// One `--where` text is read by [`TagFilter::parse`]: conditions joined by `,` (and) and
/// `|` (or; `,` binds tighter), each `Tag` then an operator and a value:
///
/// | condition | holds when the tag's value |
/// |---|---|
/// | `Black~tamaru` | contains `tamaru`, ignoring case |
/// | `Black!~tamaru` | does not contain it (or the game has no such tag) |
/// | `Event=French*` | is `French...` (`*` any text, `?` one character; ignoring case; numbers by value) |
/// | `Event!=French*` | is not |
/// | `Date>=1990`, `Date<2000.06`, `TheoreticalScore>30` | compares so: numbers by value, dates part by part (`2004.05.12`: year, month, day) on the parts both give |
/// | `Date=1990..1999` | lies in the range, ends included |
///
/// `Player` stands for `Black` or `White`. `\,` and `\|` are a comma and a bar in a value.
///
/// ```
/// use reversi_runs::archive::find::TagFilter;
/// use reversi_formats::record::Tag;
/// let tags = [Tag::new("Black", "Tamaru Hideshi"), Tag::new("White", "Murakami"), Tag::new("Date", "2004.05.12")];
/// let holds = |text: &str| TagFilter::parse(text).unwrap().matches(&tags);
/// assert!(holds("Black~tamaru") && holds("Player~murakami,Date>=2004"));
/// assert!(holds("Date=2000..2005") && holds("Date<=2004.05") && !holds("Date<2004.05"));
/// assert!(holds("White=M*kami") && holds("White=m*") && !holds("White=M"));
/// assert!(holds("Black~nobody|White~mura") && !holds("Black~nobody,White~mura"));
/// assert!(TagFilter::parse("Black").is_err());
/// ```
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TagFilter {
    alternatives: Vec<Vec<Condition>>,
}

impl TagFilter {
    /// Reads one filter text (see the type's documentation).
    pub fn parse(text: &str) -> Result<TagFilter, QueryError> {
        let mut alternatives = Vec::new();
        for alternative in split_unescaped(text, '|') {
            let mut all = Vec::new();
            for part in split_unescaped(&alternative, ',') {
                if part.trim().is_empty() {
                    continue;
                }
                all.push(Condition::parse(&part)?);
            }
            if all.is_empty() {
                return Err(QueryError::BadCondition(format!(
                    "`{text}` has an empty alternative: a condition is `Tag~text`, `Tag=value`, `Tag>=value`, ..."
                )));
            }
            alternatives.push(all);
        }
        Ok(TagFilter { alternatives })
    }

    /// This filter or `other`: a game meeting either is taken.
    pub fn or(mut self, other: TagFilter) -> TagFilter {
        self.alternatives.extend(other.alternatives);
        self
    }

    /// Whether the filter takes every game.
    pub fn is_empty(&self) -> bool {
        self.alternatives.is_empty()
    }

    /// Whether a game with these tags is taken.
    pub fn matches(&self, tags: &[Tag]) -> bool {
        self.alternatives.is_empty()
            || self
                .alternatives
                .iter()
                .any(|all| all.iter().all(|c| c.holds(tags)))
    }
}

impl std::str::FromStr for TagFilter {
    type Err = QueryError;
    fn from_str(text: &str) -> Result<TagFilter, QueryError> {
        TagFilter::parse(text)
    }
}

impl fmt::Display for TagFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, all) in self.alternatives.iter().enumerate() {
            if k > 0 {
                f.write_str("|")?;
            }
            for (j, c) in all.iter().enumerate() {
                if j > 0 {
                    f.write_str(",")?;
                }
                write!(f, "{}", c.text)?;
            }
        }
        Ok(())
    }
}

/// `text` split at each `sep` not escaped with a backslash; `\sep` becomes `sep` (other
/// escapes are left for the next split).
fn split_unescaped(text: &str, sep: char) -> Vec<String> {
    let mut parts = vec![String::new()];
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        if c == sep {
            parts.push(String::new());
            continue;
        }
        let Some(part) = parts.last_mut() else { break };
        if c == '\\' && chars.peek() == Some(&sep) {
            part.push(sep);
            chars.next();
        } else {
            part.push(c);
        }
    }
    parts
}

/// One tag condition (see [`TagFilter`]).
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    text: String,
    name: String,
    test: Test,
}

#[derive(Clone, Debug, PartialEq)]
enum Test {
    /// Contains the (folded) text; `negated` for `!~`.
    Contains { folded: Vec<char>, negated: bool },
    /// Matches the regular expression somewhere (`~/re/`); `negated` for `!~/re/`.
    Matches { re: Pattern, negated: bool },
    /// Matches the (folded) pattern; numbers by value; `negated` for `!=`.
    Equals {
        pattern: Vec<char>,
        number: Option<f64>,
        negated: bool,
    },
    /// Compares so with the value.
    Compare { wanted: [bool; 3], value: Key },
    /// Lies between the two, ends included.
    Range { low: Key, high: Key },
}

/// A regular expression (the `regex` crate's: linear time, no look-around), compared by
/// its text.
#[derive(Clone, Debug)]
struct Pattern(regex::Regex);

impl PartialEq for Pattern {
    fn eq(&self, other: &Pattern) -> bool {
        self.0.as_str() == other.0.as_str()
    }
}

impl Condition {
    /// Reads `Tag OP value`.
    pub fn parse(text: &str) -> Result<Condition, QueryError> {
        let text = text.trim();
        let at = text
            .find(['~', '!', '=', '<', '>'])
            .ok_or_else(|| bad_condition(text))?;
        let name = text[..at].trim();
        if name.is_empty() || !name.chars().all(|c| c.is_alphanumeric() || c == '_') {
            return Err(bad_condition(text));
        }
        let rest = &text[at..];
        let ops = ["!~", "!=", ">=", "<=", "~", "=", ">", "<"];
        let op = ops
            .iter()
            .find(|op| rest.starts_with(**op))
            .ok_or_else(|| bad_condition(text))?;
        let value = rest[op.len()..].trim().to_string();
        let folded = || fold(&value);
        let slashed = value.len() >= 2 && value.starts_with('/') && value.ends_with('/');
        let test = match *op {
            "~" | "!~" if slashed => {
                let re = regex::RegexBuilder::new(&value[1..value.len() - 1])
                    .case_insensitive(true)
                    .size_limit(1 << 20)
                    .build()
                    .map_err(|e| {
                        QueryError::BadCondition(format!("`{text}`: not a regular expression: {e}"))
                    })?;
                Test::Matches {
                    re: Pattern(re),
                    negated: *op == "!~",
                }
            }
            "~" | "!~" => Test::Contains {
                folded: folded(),
                negated: *op == "!~",
            },
            "=" if value.contains("..") => {
                let (low, high) = value.split_once("..").unwrap_or((&value, &value));
                let key = |v: &str| {
                    Key::of(v).ok_or_else(|| {
                        QueryError::BadCondition(format!(
                            "`{text}`: a range is `low..high` of numbers or dates, and `{}` is neither",
                            v.trim()
                        ))
                    })
                };
                Test::Range {
                    low: key(low)?,
                    high: key(high)?,
                }
            }
            "=" | "!=" => Test::Equals {
                pattern: folded(),
                number: value.trim().parse::<f64>().ok(),
                negated: *op == "!=",
            },
            _ => {
                let value = Key::of(&value).ok_or_else(|| {
                    QueryError::BadCondition(format!(
                        "`{text}`: `{op}` compares numbers or dates, and `{value}` is neither"
                    ))
                })?;
                let wanted = match *op {
                    ">=" => [false, true, true],
                    "<=" => [true, true, false],
                    ">" => [false, false, true],
                    _ => [true, false, false],
                };
                Test::Compare { wanted, value }
            }
        };
        Ok(Condition {
            text: text.to_string(),
            name: name.to_string(),
            test,
        })
    }

    /// Whether a game with these tags meets the condition.
    pub fn holds(&self, tags: &[Tag]) -> bool {
        let player = self.name.eq_ignore_ascii_case("Player");
        let named = |t: &&Tag| {
            if player {
                t.name.eq_ignore_ascii_case("Black") || t.name.eq_ignore_ascii_case("White")
            } else {
                t.name.eq_ignore_ascii_case(&self.name)
            }
        };
        let negated = matches!(
            self.test,
            Test::Contains { negated: true, .. }
                | Test::Matches { negated: true, .. }
                | Test::Equals { negated: true, .. }
        );
        let mut values = tags.iter().filter(named).map(|t| t.value.as_str());
        if negated {
            // None of the values has it.
            values.all(|v| self.value_holds(v))
        } else {
            values.any(|v| self.value_holds(v))
        }
    }

    /// Whether one value meets the condition (for a negated one: does not have what it
    /// negates).
    fn value_holds(&self, value: &str) -> bool {
        match &self.test {
            Test::Contains { folded, negated } => contains_folded(value, folded) != *negated,
            Test::Matches { re, negated } => re.0.is_match(value) != *negated,
            Test::Equals {
                pattern,
                number,
                negated,
            } => {
                let equal = match (number, value.trim().parse::<f64>()) {
                    (Some(a), Ok(b)) => *a == b,
                    _ => glob_folded(value.trim(), pattern),
                };
                equal != *negated
            }
            Test::Compare { wanted, value: key } => match Key::of(value) {
                Some(v) => match v.compare(key) {
                    Some(Ordering::Less) => wanted[0],
                    Some(Ordering::Equal) => wanted[1],
                    Some(Ordering::Greater) => wanted[2],
                    None => false,
                },
                None => false,
            },
            Test::Range { low, high } => match Key::of(value) {
                Some(v) => {
                    v.compare(low).is_some_and(|o| o != Ordering::Less)
                        && v.compare(high).is_some_and(|o| o != Ordering::Greater)
                }
                None => false,
            },
        }
    }
}

impl fmt::Display for Condition {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

fn bad_condition(text: &str) -> QueryError {
    QueryError::BadCondition(format!(
        "expected a tag condition (`Black~tamaru`, `Event~/^french (open|cup)$/`, `Event=French*`, `Date>=1990`, `Date=1990..1999`), but found `{text}` instead"
    ))
}

/// The characters of `text`, lower-cased.
fn fold(text: &str) -> Vec<char> {
    text.trim().chars().flat_map(char::to_lowercase).collect()
}

/// Whether `hay` contains `needle` (already folded), ignoring case, without allocating.
fn contains_folded(hay: &str, needle: &[char]) -> bool {
    if needle.is_empty() {
        return true;
    }
    if hay.is_ascii() && needle.iter().all(char::is_ascii) {
        let hay = hay.as_bytes();
        return hay.len() >= needle.len()
            && hay.windows(needle.len()).any(|w| {
                w.iter()
                    .zip(needle)
                    .all(|(a, b)| a.to_ascii_lowercase() == *b as u8)
            });
    }
    let mut starts = hay.char_indices();
    loop {
        let rest = match starts.next() {
            Some((i, _)) => &hay[i..],
            None => return false,
        };
        let mut folded = rest.chars().flat_map(char::to_lowercase);
        if needle.iter().all(|c| folded.next() == Some(*c)) {
            return true;
        }
    }
}

/// Whether `value` matches `pattern` (folded; `*` any run, `?` one character), ignoring
/// case.
fn glob_folded(value: &str, pattern: &[char]) -> bool {
    // Few characters, no allocation for ASCII values: a small stack of positions.
    let value: smallchars::Chars = smallchars::Chars::of(value);
    let v = value.as_slice();
    let (mut p, mut s) = (0usize, 0usize);
    let mut star: Option<(usize, usize)> = None;
    while s < v.len() {
        if p < pattern.len() && (pattern[p] == '?' || pattern[p] == v[s]) {
            p += 1;
            s += 1;
        } else if p < pattern.len() && pattern[p] == '*' {
            star = Some((p, s));
            p += 1;
        } else if let Some((sp, ss)) = star {
            p = sp + 1;
            s = ss + 1;
            star = Some((sp, ss + 1));
        } else {
            return false;
        }
    }
    pattern[p..].iter().all(|&c| c == '*')
}

mod smallchars {
    //! A value's folded characters, on the stack when short.

    // On the stack on purpose: one per value compared, never kept.
    #[allow(clippy::large_enum_variant)]
    pub(super) enum Chars {
        Short([char; 64], usize),
        Long(Vec<char>),
    }

    impl Chars {
        pub(super) fn of(value: &str) -> Chars {
            let mut short = ['\0'; 64];
            let mut n = 0;
            for c in value.chars().flat_map(char::to_lowercase) {
                if n == short.len() {
                    return Chars::Long(value.chars().flat_map(char::to_lowercase).collect());
                }
                short[n] = c;
                n += 1;
            }
            Chars::Short(short, n)
        }

        pub(super) fn as_slice(&self) -> &[char] {
            match self {
                Chars::Short(c, n) => &c[..*n],
                Chars::Long(v) => v,
            }
        }
    }
}

/// A value compared by `<`, `>`, ranges: a number, a date's parts, or both (`1990.05`).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Key {
    number: Option<f64>,
    /// Up to four whole numbers (year, month, day, ...), in order, and how many.
    parts: Option<([u32; 4], usize)>,
}

impl Key {
    /// A number (`30`, `-2.5`), or a date of whole-number parts separated by `.`, `-`,
    /// `/` (`2004.05.12`, `2004-05`); unknown parts (`??`) end it.
    fn of(value: &str) -> Option<Key> {
        let value = value.trim();
        let number = value.parse::<f64>().ok().filter(|n| n.is_finite());
        let mut parts = [0u32; 4];
        let mut n = 0;
        for part in value.split(['.', '-', '/']) {
            if n == parts.len() {
                break;
            }
            match part.trim().parse::<u32>() {
                Ok(p) => {
                    parts[n] = p;
                    n += 1;
                }
                Err(_) if n > 0 && part.chars().all(|c| c == '?') => break,
                Err(_) => {
                    n = 0;
                    break;
                }
            }
        }
        let parts = (n > 0).then_some((parts, n));
        (number.is_some() || parts.is_some()).then_some(Key { number, parts })
    }

    /// The order of `self` and `other`: numbers by value when both are numbers, else
    /// dates on the parts both give.
    fn compare(&self, other: &Key) -> Option<Ordering> {
        match (self.number, other.number) {
            (Some(a), Some(b)) => a.partial_cmp(&b),
            _ => {
                let (a, an) = self.parts?;
                let (b, bn) = other.parts?;
                let n = an.min(bn);
                Some(a[..n].cmp(&b[..n]))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn moves_are_read_with_and_without_separators() {
        let b = BoardShape::Eight;
        let joined = parse_moves("f5d6c3", b).unwrap();
        assert_eq!(joined, parse_moves("1. f5 d6 2. c3", b).unwrap());
        assert_eq!(joined, parse_moves("F5, D6, C3", b).unwrap());
        assert_eq!(parse_moves("f5 pass d6 --", b).unwrap().len(), 4);
        assert!(parse_moves("f5 z9", b).is_err());
        assert!(parse_moves("f5 i1", b).is_err(), "off an 8x8 board");
        let ten = parse_moves("a10j1", BoardShape::Ten).unwrap();
        assert_eq!(ten.len(), 2);
        assert_eq!(ten[0].to_string(), "a10");
    }

    #[test]
    fn a_regular_expression_matches_anywhere_ignoring_case() {
        let tags = |event: &str| vec![Tag::new("Event", event), Tag::new("Black", "Ann")];
        let open = Condition::parse("Event~/^(french|dutch) open$/").unwrap();
        assert!(open.holds(&tags("French Open")));
        assert!(open.holds(&tags("dutch open")));
        assert!(!open.holds(&tags("French Open 2004")), "anchored");
        let not = Condition::parse("Event!~/open/").unwrap();
        assert!(!not.holds(&tags("French Open")));
        assert!(not.holds(&tags("Cup")));
        assert!(not.holds(&[]), "no tag: nothing matches");
        let e = Condition::parse("Event~/(/").unwrap_err();
        assert!(e.to_string().contains("not a regular expression"), "{e}");
        // Not slashed: a substring, where `/` is a character like any other.
        assert!(Condition::parse("Date~/")
            .unwrap()
            .holds(&[Tag::new("Date", "2004/05")]));
    }

    #[test]
    fn an_illegal_move_is_named() {
        let e = Target::after_moves(Rules::default(), "f5 a1").unwrap_err();
        let legal = legal_after_f5();
        assert_eq!(legal.split(' ').count(), 3);
        assert_eq!(
            e.to_string(),
            format!("move 2, a1, is not legal there (legal: {legal})")
        );
    }

    fn legal_after_f5() -> String {
        let mut pos = Position::new(Rules::default());
        pos.play(Move::Place("f5".parse().unwrap())).unwrap();
        pos.legal_moves()
            .iter()
            .map(|s| s.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn a_diagram_reads_back() {
        let target = Target::after_moves(Rules::default(), "f5d6c3d3c4").unwrap();
        let diagram = target.position().to_string();
        assert_eq!(
            Target::from_board(Rules::default(), &diagram).unwrap(),
            target
        );
        let e = Target::from_board(Rules::default(), "XO--").unwrap_err();
        assert!(e.to_string().contains("only 4"), "{e}");
        let e = Target::from_board(
            Rules::default(),
            &format!("{} Q", &target.board_string()[..64]),
        )
        .unwrap_err();
        assert!(e.to_string().contains("side to move"), "{e}");
    }

    #[test]
    fn conditions() {
        let tags = [
            Tag::new("Black", "Müller Jörg"),
            Tag::new("Round", "03"),
            Tag::new("Date", "1990.??.??"),
        ];
        let holds = |text: &str| TagFilter::parse(text).unwrap().matches(&tags);
        assert!(holds("Black~MÜLLER"));
        assert!(holds("Black!~tamaru"));
        assert!(!holds("Black!~jörg"));
        assert!(holds("Round=3") && holds("Round>2") && !holds("Round>3"));
        assert!(holds("Date>=1990") && holds("Date<=1990") && !holds("Date<1990"));
        assert!(holds("Date=1989..1991") && !holds("Date=1991..1995"));
        assert!(holds("Black=m*j?rg"));
        assert!(holds("Event!=x"), "a missing tag is not x");
        assert!(!holds("Event~x"), "a missing tag contains nothing");
        assert!(TagFilter::parse("Date>=soon").is_err());
        assert!(TagFilter::parse("=x").is_err());
        assert!(TagFilter::parse("a~b|").is_err());
        let escaped = TagFilter::parse("Black~Müller\\, J").unwrap();
        assert!(!escaped.matches(&tags));
        assert!(TagFilter::parse("Black=Müller Jörg\\|x|Round=9")
            .unwrap()
            .to_string()
            .contains("Round=9"));
    }
}
