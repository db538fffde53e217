//! Reading a scenario's directives.

use crate::codes::Code;
use std::fmt;
use std::str::FromStr;

use crate::engine::{Color, Move, Rules, Setup, Square, SquareSet};

/// Why a scenario cannot be read or run. Each kind has a stable code ([`ErrorKind::code`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScenarioError {
    /// The 1-based line of the scenario text the error is about, when there is one.
    pub line: Option<usize>,
    /// What kind of error.
    pub kind: ErrorKind,
    /// The message, in full.
    pub message: String,
}

/// The kinds of [`ScenarioError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ErrorKind {
    /// A line that is not `key: value`, an unknown directive or a bad value.
    Syntax,
    /// The `rules:` string does not parse.
    BadRules,
    /// A `board:` diagram or `start:` value that does not fit the rules.
    BadBoard,
    /// A directive that needs another (`turn:` without `board:`, `quiet:` beyond the moves,
    /// positions without `rules:`) or conflicts with one (`board:` and `start:`).
    Inconsistent,
    /// A move without `!` that the engine refuses.
    UnexpectedRefusal,
    /// A move marked `!` that the engine plays.
    UnexpectedLegal,
}

impl ErrorKind {
    /// The stable code, such as `scenario-syntax`.
    pub const fn code(self) -> Code {
        match self {
            ErrorKind::Syntax => Code::ScenarioSyntax,
            ErrorKind::BadRules => Code::ScenarioBadRules,
            ErrorKind::BadBoard => Code::ScenarioBadBoard,
            ErrorKind::Inconsistent => Code::ScenarioInconsistent,
            ErrorKind::UnexpectedRefusal => Code::ScenarioUnexpectedRefusal,
            ErrorKind::UnexpectedLegal => Code::ScenarioUnexpectedLegal,
        }
    }
}

impl ScenarioError {
    pub(crate) fn new(line: Option<usize>, kind: ErrorKind, message: impl Into<String>) -> Self {
        ScenarioError {
            line,
            kind,
            message: message.into(),
        }
    }
}

impl fmt::Display for ScenarioError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if let Some(line) = self.line {
            write!(f, "line {line}: ")?;
        }
        write!(f, "{} [{}]", self.message, self.kind.code())
    }
}

impl std::error::Error for ScenarioError {}

/// What a scenario tries: a move of the engine, or a square name beyond every board's grid
/// (`k1`: columns `a` to `z`, rows 1 to 99), which is refused as `OffBoard` like any other
/// square that is not on the board (`spec/rules.md` §8).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Tried {
    /// A placement on a square of the grid, or a pass.
    Move(Move),
    /// A square beyond the largest board: column (0 for `a`) and row (0 for `1`).
    OffGrid {
        /// The column, 0 for `a`.
        col: u8,
        /// The row, 0 for `1`.
        row: u8,
    },
}

impl Tried {
    /// The engine's move, unless the square is beyond the grid.
    pub const fn as_move(self) -> Option<Move> {
        match self {
            Tried::Move(m) => Some(m),
            Tried::OffGrid { .. } => None,
        }
    }
}

impl fmt::Display for Tried {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Tried::Move(m) => write!(f, "{m}"),
            Tried::OffGrid { col, row } => write!(f, "{}{}", (b'a' + col) as char, row + 1),
        }
    }
}

/// One move of a scenario's `moves:` lines.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScenarioMove {
    /// The move: a placement or a pass (`--` or `pass`), or a square beyond the grid.
    pub mv: Tried,
    /// Marked `!`: the engine must refuse it.
    pub refused: bool,
    /// The 1-based line it is on.
    pub line: usize,
}

/// How the board is given.
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub enum StartGiven {
    /// The rules' own start position.
    #[default]
    Rules,
    /// A `board:` diagram: its row lines (as written), its line, and the `turn:` colour.
    Diagram {
        /// The row lines of the diagram, as written (headers left out).
        rows: Vec<String>,
        /// The line of `board:`.
        line: usize,
    },
    /// A `start:` line in RGN's `Start` syntax, and its line.
    Line {
        /// The value after `start:`.
        text: String,
        /// The line of `start:`.
        line: usize,
    },
}

/// A parsed scenario: what to set up, what to play, what to show (`spec/scenario.md`).
///
/// ```
/// use reversi_check::scenario::Scenario;
/// let sc: Scenario = "rules: othello:6x6\nmoves: b3 !a1".parse().unwrap();
/// assert_eq!(sc.moves.len(), 2);
/// assert!(sc.moves[1].refused);
/// ```
#[derive(Clone, Debug, PartialEq, Eq, Default)]
pub struct Scenario {
    /// The `rules:` string as written, and its line.
    pub rules: Option<(String, usize)>,
    /// The start position: the rules' own, a `board:` diagram or a `start:` line.
    pub start: StartGiven,
    /// The side to move of a `board:` diagram (`turn:`; Black when absent), and its line.
    pub turn: Option<(Color, usize)>,
    /// `show: every`: draw the board after every move.
    pub show_every: bool,
    /// `quiet: N`: the first N moves are played but not shown.
    pub quiet: usize,
    /// The moves, in order.
    pub moves: Vec<ScenarioMove>,
    /// The `parse:` lines: rules strings to parse.
    pub parses: Vec<String>,
}

impl FromStr for Scenario {
    type Err = ScenarioError;
    fn from_str(text: &str) -> Result<Scenario, ScenarioError> {
        Scenario::parse(text)
    }
}

fn syntax(line: usize, message: String) -> ScenarioError {
    ScenarioError::new(Some(line), ErrorKind::Syntax, message)
}

/// The most moves a scenario may list: far more than any game has (a refused move does not
/// advance it), and few enough that a transcript stays small.
pub const MAX_MOVES: usize = 10_000;

/// The most `parse:` lines a scenario may have.
pub const MAX_PARSES: usize = 10_000;

/// The most row lines a `board:` diagram may have (the largest board has 10).
const MAX_ROWS: usize = 64;

/// `text` cut to 60 characters for a message, with `...` when cut.
fn shorten(text: &str) -> String {
    match text.char_indices().nth(60) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text.to_owned(),
    }
}

/// A square name beyond the grid of every board: a letter and a row number 1 to 99 that
/// [`Square`] does not read (`k1`, `a11`).
fn off_grid(word: &str) -> Option<Tried> {
    let bytes = word.as_bytes();
    let (&letter, digits) = bytes.split_first()?;
    if !letter.is_ascii_alphabetic()
        || digits.is_empty()
        || digits.len() > 2
        || digits[0] == b'0'
        || !digits.iter().all(u8::is_ascii_digit)
    {
        return None;
    }
    let row: u8 = std::str::from_utf8(digits).ok()?.parse().ok()?;
    Some(Tried::OffGrid {
        col: letter.to_ascii_lowercase() - b'a',
        row: row - 1,
    })
}

/// Reads a move as a scenario writes it (without `!`): a square, `--` or `pass`, or a
/// square name beyond the grid.
pub(crate) fn read_tried(word: &str) -> Option<Tried> {
    if word == "--" || word.eq_ignore_ascii_case("pass") {
        return Some(Tried::Move(Move::Pass));
    }
    match word.parse::<Square>() {
        Ok(sq) => Some(Tried::Move(Move::Place(sq))),
        Err(_) => off_grid(word),
    }
}

/// Reads one move token: a square, `--` or `pass`, optionally marked `!`.
fn read_move(token: &str, line: usize) -> Result<ScenarioMove, ScenarioError> {
    let (refused, word) = match token.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let mv = if word == "--" || word.eq_ignore_ascii_case("pass") {
        Tried::Move(Move::Pass)
    } else {
        match word.parse::<Square>() {
            Ok(sq) => Tried::Move(Move::Place(sq)),
            Err(e) => off_grid(word)
                .ok_or_else(|| syntax(line, format!("move `{}`: {e}", shorten(word))))?,
        }
    };
    Ok(ScenarioMove { mv, refused, line })
}

impl Scenario {
    /// Reads a scenario. Checks the syntax only; [`Scenario::run`] checks the rest. At most
    /// [`MAX_MOVES`] moves and [`MAX_PARSES`] `parse:` lines are read.
    pub fn parse(text: &str) -> Result<Scenario, ScenarioError> {
        let mut sc = Scenario::default();
        let mut lines = text.lines().enumerate().peekable();
        let mut quiet_line = 0;
        while let Some((i, line)) = lines.next() {
            let n = i + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let (key, value) = trimmed.split_once(':').ok_or_else(|| {
                syntax(
                    n,
                    format!("expected `key: value`, found `{}`", shorten(line)),
                )
            })?;
            let value = value.trim();
            match key.trim() {
                "rules" => sc.rules = Some((value.to_owned(), n)),
                "turn" => {
                    let color = Color::from_name(value).ok_or_else(|| {
                        syntax(
                            n,
                            format!("turn: expected black, white, red or green, found `{value}`"),
                        )
                    })?;
                    sc.turn = Some((color, n));
                }
                "show" => match value {
                    "every" => sc.show_every = true,
                    "ends" => sc.show_every = false,
                    _ => {
                        return Err(syntax(
                            n,
                            format!("show: expected `every` or `ends`, found `{value}`"),
                        ))
                    }
                },
                "quiet" => {
                    sc.quiet = value.parse().map_err(|_| {
                        syntax(n, format!("quiet: expected a number, found `{value}`"))
                    })?;
                    quiet_line = n;
                }
                "moves" => {
                    for token in value.split_whitespace() {
                        if sc.moves.len() == MAX_MOVES {
                            return Err(syntax(
                                n,
                                format!("more than {MAX_MOVES} moves; a scenario holds at most {MAX_MOVES}"),
                            ));
                        }
                        sc.moves.push(read_move(token, n)?);
                    }
                }
                "parse" => {
                    if sc.parses.len() == MAX_PARSES {
                        return Err(syntax(
                            n,
                            format!("more than {MAX_PARSES} `parse:` lines; a scenario holds at most {MAX_PARSES}"),
                        ));
                    }
                    sc.parses.push(value.to_owned());
                }
                "start" => {
                    sc.start = StartGiven::Line {
                        text: value.to_owned(),
                        line: n,
                    }
                }
                "board" => {
                    let mut rows = Vec::new();
                    while let Some((_, next)) = lines.peek() {
                        let t = next.trim_start();
                        let is_row = t.starts_with(|c: char| c.is_ascii_digit());
                        let is_header = t.starts_with("a b");
                        if !is_row && !is_header {
                            break;
                        }
                        if is_row {
                            if rows.len() == MAX_ROWS {
                                return Err(syntax(
                                    n,
                                    format!("board: more than {MAX_ROWS} rows (the largest board has 10)"),
                                ));
                            }
                            rows.push(next.to_string());
                        }
                        lines.next();
                    }
                    sc.start = StartGiven::Diagram { rows, line: n };
                }
                other => return Err(syntax(n, format!("unknown directive `{}`", shorten(other)))),
            }
        }
        if sc.quiet > sc.moves.len() {
            return Err(ScenarioError::new(
                Some(quiet_line),
                ErrorKind::Inconsistent,
                format!(
                    "quiet: {} exceeds the {} moves given",
                    sc.quiet,
                    sc.moves.len()
                ),
            ));
        }
        if let Some((_, line)) = sc.turn {
            if !matches!(sc.start, StartGiven::Diagram { .. }) {
                return Err(ScenarioError::new(
                    Some(line),
                    ErrorKind::Inconsistent,
                    "`turn:` needs a `board:` (a `start:` line names the side to move itself)",
                ));
            }
        }
        Ok(sc)
    }
}

/// Reads a board diagram in the layout [`Position`](crate::Position) prints: an optional
/// header of column letters, then one line per row, its number first, then one character per
/// column separated by spaces (`X O R G` discs, `N` neutral, `.` empty, `#` blocked, a blank
/// for a square not on the board).
///
/// ```
/// use reversi_check::scenario;
/// use reversi_engine::{Color, Position, Rules};
/// let rules: Rules = "othello:4x4".parse().unwrap();
/// let diagram = "   a b c d\n 1 . . . .\n 2 . O X .\n 3 . X O .\n 4 . . . .";
/// let setup = scenario::read_diagram(&rules, diagram, Color::Black).unwrap();
/// assert_eq!(setup, Position::new(rules).setup());
/// ```
pub fn read_diagram(rules: &Rules, diagram: &str, turn: Color) -> Result<Setup, String> {
    let rows: Vec<&str> = diagram
        .lines()
        .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    read_rows(rules, &rows, turn)
}

/// Reads the row lines of a diagram (see [`read_diagram`]).
pub(crate) fn read_rows<S: AsRef<str>>(
    rules: &Rules,
    rows: &[S],
    turn: Color,
) -> Result<Setup, String> {
    let side = rules.board().side();
    let pad = if side >= 10 { 3 } else { 2 };
    if rows.len() != side as usize {
        return Err(format!("board: expected {side} rows, found {}", rows.len()));
    }
    let mut setup = Setup {
        discs: [SquareSet::EMPTY; 4],
        neutral: SquareSet::EMPTY,
        turn,
    };
    for (r, line) in rows.iter().enumerate() {
        let chars: Vec<char> = line.as_ref().chars().collect();
        let number: String = chars[..pad.min(chars.len())].iter().collect();
        if number.trim() != (r + 1).to_string() {
            return Err(format!("board: row {} is numbered `{}`", r + 1, number));
        }
        for c in 0..side {
            let sq = Square::new(c, r as u8)
                .ok_or_else(|| format!("board: row {} is off the grid", r + 1))?;
            let symbol = chars.get(pad + 1 + 2 * c as usize).copied().unwrap_or(' ');
            let on_board = rules.board().contains(sq);
            let blocked = rules.blocked().contains(sq);
            // The markers must draw the rules' board as the engine prints it; a disc is read
            // wherever it stands, and one on a blocked or cut square is a setup the engine
            // refuses (`NotPlayable`), as from a `start:` line (spec/scenario.md §3).
            match symbol {
                ' ' if !on_board => {}
                '#' if blocked => {}
                '.' if on_board && !blocked => {}
                '.' | '#' | ' ' if !on_board => {
                    return Err(format!(
                        "board: square {sq} is not on the {} board: leave it blank (found `{symbol}`)",
                        rules.board()
                    ))
                }
                '.' | ' ' if blocked => {
                    return Err(format!(
                        "board: square {sq} is blocked by the rules: draw it `#` (found `{symbol}`)"
                    ))
                }
                '#' => {
                    return Err(format!(
                        "board: square {sq} is not blocked by the rules: draw it `.` or a disc (found `#`)"
                    ))
                }
                ' ' => {
                    return Err(format!(
                        "board: square {sq} is on the board: draw it `.` or a disc (found a blank)"
                    ))
                }
                'N' => setup.neutral.insert(sq),
                s => {
                    let color = Color::ALL
                        .into_iter()
                        .find(|c| c.symbol() == s)
                        .ok_or_else(|| format!("board: `{s}` does not fit square {sq}"))?;
                    setup.discs[color.index()].insert(sq);
                }
            }
        }
    }
    Ok(setup)
}
