//! The pairings a director made: who plays whom in each round, with the byes, the forfeits
//! (who did not come), the adjourned games and the withdrawals, as the director keeps them
//! in a spreadsheet. The games of a run are checked against it (`reversi validate
//! --pairings FILE`) and the standings take its byes, forfeits and withdrawals from it
//! (`reversi standings --pairings FILE`).
//!
//! The file is CSV (`,`, `;` or tab separated, fields optionally in double quotes). Its
//! columns are `round,board,black,white` and an optional `result` (or `status`), in that
//! order, or in any order under a first line naming them, in English or in the director's
//! language, as a spreadsheet of games names them (`ronde;table;noir;blanc`,
//! `Runde,Brett,Schwarz,Weiss`, `ronde,bord,zwart,wit`, `ronda,mesa,negras,blancas`,
//! `turno,tavolo,nero,bianco`, `回戦,盤,黒,白`).
//!
//! * A **bye**: one player, the other name a bye word (`bye`, `EXEMPT`, `spielfrei`,
//!   `vrij`, `libre`, `-`, ...), or the result `bye`.
//! * A **forfeit**: the result says who did not come: `+:-` or `1-0 ff` (White absent),
//!   `-:+` or `0-1 ff` (Black absent), `-:-` (neither came).
//! * An **adjourned** game: the result `adjourned` (its record comes later, maybe in two
//!   parts).
//! * A **withdrawal**: the player in the `black` column, the `white` column empty, the
//!   result `withdrawn` (`forfait général`, `zurückgezogen`, `teruggetrokken`, ...): the
//!   player plays no round from this one on.

use std::fmt;

use super::sheets::split_fields;
use super::sheets::SheetError;

/// What the schedule says of one line.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum LineStatus {
    /// A game to be played: its record gives the result.
    #[default]
    Game,
    /// `black` has a bye (`white` is empty).
    Bye,
    /// The game was not played: who did not come.
    Forfeit {
        /// Black did not come.
        black_absent: bool,
        /// White did not come.
        white_absent: bool,
    },
    /// The game was adjourned: its record, or its parts, come later.
    Adjourned,
    /// `black` withdrew, from this round on (`white` is empty).
    Withdrawn,
}

/// One line of the schedule: who plays whom with which colour, in which round and on
/// which board, and what the director noted of it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scheduled {
    /// The line of the file it was read from (from 1).
    pub line: usize,
    /// The round.
    pub round: String,
    /// The board, when given.
    pub board: Option<String>,
    /// The player with Black (the player, for a bye or a withdrawal).
    pub black: String,
    /// The player with White (empty for a bye or a withdrawal).
    pub white: String,
    /// A game, a bye, a forfeit, an adjourned game or a withdrawal.
    pub status: LineStatus,
}

impl Scheduled {
    /// Whether a game record is expected for this line: a game to be played, or adjourned.
    pub fn expects_a_game(&self) -> bool {
        matches!(self.status, LineStatus::Game | LineStatus::Adjourned)
    }
}

impl fmt::Display for Scheduled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}", self.round)?;
        if let Some(board) = &self.board {
            write!(f, ", board {board}")?;
        }
        match self.status {
            LineStatus::Bye => write!(f, ": a bye for {}", self.black),
            LineStatus::Withdrawn => write!(f, ": {} withdraws", self.black),
            _ => write!(f, ": {} (black) vs {} (white)", self.black, self.white),
        }
    }
}

/// A schedule of pairings.
///
/// ```
/// use reversi_check::event::{Schedule, LineStatus};
/// let text = "ronde;table;noir;blanc;résultat\n1;1;Ann;Bob;\n1;2;\"Cy, Jr.\";Di;+:-\n1;;Ed;EXEMPT;\n2;;Bob;;abandon\n";
/// let pairings = Schedule::parse(text).unwrap();
/// let lines = pairings.pairings();
/// assert_eq!(lines.len(), 4);
/// assert_eq!(lines[1].black, "Cy, Jr.");
/// assert_eq!(lines[1].status, LineStatus::Forfeit { black_absent: false, white_absent: true });
/// assert_eq!((lines[2].black.as_str(), lines[2].status), ("Ed", LineStatus::Bye));
/// assert_eq!((lines[3].black.as_str(), lines[3].status), ("Bob", LineStatus::Withdrawn));
/// assert!(Schedule::parse("1,1,Ann\n").unwrap_err().to_string().contains("line 1"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<Scheduled>,
}

/// The columns a schedule has.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Round,
    Board,
    Black,
    White,
    Result,
}

/// The column names of a pairings file beyond those every spreadsheet of games uses
/// (`formats::movestr`'s, in eight languages): English, and the words for a status.
const COLUMN_NAMES: [(Column, &[&str]); 5] = [
    (Column::Round, &["round", "rd", "r"]),
    (Column::Board, &["board", "bd"]),
    (Column::Black, &["black"]),
    (Column::White, &["white"]),
    (
        Column::Result,
        &["result", "status", "note", "notes", "statut", "備考"],
    ),
];

/// Names that stand for no opponent: a game against one is a bye.
pub const BYE_WORDS: &[&str] = &[
    "bye",
    "(bye)",
    "-",
    "--",
    "exempt",
    "exempté",
    "exempte",
    "spielfrei",
    "frei",
    "vrij",
    "vrijgesteld",
    "libre",
    "descanso",
    "riposo",
    "folga",
    "不戦",
    "休み",
];

/// Results that mark a withdrawal.
const WITHDRAWN_WORDS: &[&str] = &[
    "withdrawn",
    "withdrew",
    "withdraws",
    "wd",
    "abandon",
    "forfait général",
    "forfait general",
    "retiré",
    "retire",
    "zurückgezogen",
    "zurueckgezogen",
    "teruggetrokken",
    "retirado",
    "ritirato",
    "棄権",
];

/// Results that mark an adjourned game.
const ADJOURNED_WORDS: &[&str] = &[
    "adjourned",
    "adj",
    "ajournée",
    "ajournee",
    "vertagt",
    "hängepartie",
    "afgebroken",
    "aplazada",
    "aggiornata",
    "adiada",
    "指し掛け",
];

/// Whether `name` stands for no opponent (a bye).
pub fn is_bye_word(name: &str) -> bool {
    let name = name.trim().to_lowercase();
    BYE_WORDS.contains(&name.as_str())
}

fn column_of(name: &str) -> Option<Column> {
    let name = name
        .trim()
        .trim_matches(|c: char| c == '#' || c == '.')
        .trim()
        .to_lowercase();
    let english = COLUMN_NAMES
        .iter()
        .find(|(_, names)| names.contains(&name.as_str()))
        .map(|(column, _)| *column);
    english.or_else(|| match crate::formats::movestr::localized_column(&name)? {
        "Round" => Some(Column::Round),
        "Board" => Some(Column::Board),
        "Black" => Some(Column::Black),
        "White" => Some(Column::White),
        "Result" => Some(Column::Result),
        _ => None,
    })
}

/// The columns a first line names, if it is a header: at least two column names and no
/// field that is not one (an empty field is allowed).
fn header(fields: &[String]) -> Option<Vec<Option<Column>>> {
    let columns: Vec<Option<Column>> = fields.iter().map(|f| column_of(f)).collect();
    let named = columns.iter().filter(|c| c.is_some()).count();
    let unknown = fields
        .iter()
        .zip(&columns)
        .any(|(f, c)| c.is_none() && !f.trim().is_empty());
    (named >= 2 && !unknown).then_some(columns)
}

impl Schedule {
    /// Whether `head` (a file's first bytes) starts like a pairings or results table: a
    /// first line naming a round, a black and a white column (other columns allowed: the
    /// scores of a results sheet), and no column of moves (a table of games).
    ///
    /// ```
    /// use reversi_check::event::Schedule;
    /// assert!(Schedule::looks_like(b"round,board,black,white,black_discs,white_discs\n1,1,A,B,40,24\n"));
    /// assert!(Schedule::looks_like(b"ronde;table;noir;blanc\n"));
    /// assert!(!Schedule::looks_like(b"black,white,moves\nA,B,f5d6\n"));
    /// assert!(!Schedule::looks_like(b"ronde;noir;blanc;coups\n2;Ann;Bob;f5d6\n"));
    /// ```
    pub fn looks_like(head: &[u8]) -> bool {
        let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
        let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = crate::formats::text::decode_line_by_line(line);
        let Ok(fields) = split_fields(line.trim()) else {
            return false;
        };
        // A table of games (a moves column) is game records, not pairings.
        if fields
            .iter()
            .any(|f| crate::formats::movestr::is_moves_column(f))
        {
            return false;
        }
        let columns: Vec<Option<Column>> = fields.iter().map(|f| column_of(f)).collect();
        [Column::Round, Column::Black, Column::White]
            .iter()
            .all(|c| columns.contains(&Some(*c)))
    }
}

/// Whether `name` names a pairings file's `black` or `white` column.
pub(super) fn is_player_column(name: &str) -> bool {
    matches!(column_of(name), Some(Column::Black | Column::White))
}

/// What a result field says (`None`: it is not a status the schedule knows).
fn status_of(result: &str) -> Option<LineStatus> {
    let r = result.trim().to_lowercase();
    let compact: String = r.chars().filter(|c| !c.is_whitespace()).collect();
    let forfeit = |black_absent, white_absent| {
        Some(LineStatus::Forfeit {
            black_absent,
            white_absent,
        })
    };
    match compact.as_str() {
        "" => Some(LineStatus::Game),
        "bye" => Some(LineStatus::Bye),
        "+:-" | "+/-" | "+-" | "1-0ff" | "1-0f" | "1f-0" | "1f-0f" | "1:0ff" | "1-0forfeit" => {
            forfeit(false, true)
        }
        "-:+" | "-/+" | "-+" | "0-1ff" | "0-1f" | "0f-1f" | "0f-1" | "0:1ff" | "0-1forfeit" => {
            forfeit(true, false)
        }
        "-:-" | "-/-" | "--ff" | "0-0ff" | "0f-0f" => forfeit(true, true),
        _ if WITHDRAWN_WORDS.contains(&r.as_str()) => Some(LineStatus::Withdrawn),
        _ if ADJOURNED_WORDS.contains(&r.as_str()) => Some(LineStatus::Adjourned),
        _ => None,
    }
}

impl Schedule {
    /// The pairings, in file order.
    pub fn pairings(&self) -> &[Scheduled] {
        &self.pairings
    }

    /// The pairing that has the players of a game the other way round: Black `black` and
    /// White `white` in `round` (any round when `None`), with no pairing having them as
    /// written. A sheet written from White's side, or players who sat the wrong way.
    /// Names are the same when `register` finds one player for both, else when they match
    /// ignoring case, accents and punctuation.
    ///
    /// ```
    /// use reversi_check::event::Schedule;
    /// let pairings = Schedule::parse("round,board,black,white\n1,1,Ann,Bob\n2,1,Bob,Cy\n").unwrap();
    /// let found = pairings.swapped(Some("1"), "bob", "Ann", None).unwrap();
    /// assert_eq!(found.line, 2);
    /// assert!(pairings.swapped(None, "Cy", "BOB", None).is_some());
    /// assert!(pairings.swapped(Some("1"), "Ann", "Bob", None).is_none(), "as paired");
    /// assert!(pairings.swapped(Some("2"), "Bob", "Ann", None).is_none(), "another round");
    /// ```
    pub fn swapped(
        &self,
        round: Option<&str>,
        black: &str,
        white: &str,
        register: Option<&super::Register>,
    ) -> Option<&Scheduled> {
        let key = |name: &str| {
            let name = register
                .and_then(|r| r.find(name))
                .map_or(name, |p| p.name.as_str());
            crate::record::fold_name(name)
        };
        let (b, w) = (key(black), key(white));
        let same_round = |p: &Scheduled| {
            round.map_or(true, |r| {
                let number = |t: &str| t.trim().parse::<u32>().ok();
                match (number(r), number(&p.round)) {
                    (Some(x), Some(y)) => x == y,
                    _ => r.trim().eq_ignore_ascii_case(p.round.trim()),
                }
            })
        };
        let mut theirs = self
            .pairings
            .iter()
            .filter(|p| p.expects_a_game() && same_round(p));
        let mut reversed = None;
        for p in &mut theirs {
            let (pb, pw) = (key(&p.black), key(&p.white));
            if (pb.as_str(), pw.as_str()) == (b.as_str(), w.as_str()) {
                return None;
            }
            if (pb.as_str(), pw.as_str()) == (w.as_str(), b.as_str()) {
                if reversed.is_some() {
                    return None; // twice: the pairing is not one
                }
                reversed = Some(p);
            }
        }
        reversed
    }

    /// Reads the pairings file at `path`; an error names it (`InvalidData` for content that
    /// is not a pairings file).
    pub fn read(path: &std::path::Path) -> std::io::Result<Schedule> {
        super::sheets::read_file(
            path,
            "pairings",
            "a pairings file has lines `round,board,black,white[,result]`",
            Schedule::from_bytes,
        )
    }

    /// Reads a schedule's bytes as a spreadsheet saves them: UTF-8 (with or without a
    /// byte order mark), a line that is not UTF-8 as Windows-1252.
    pub fn from_bytes(bytes: &[u8]) -> Result<Schedule, SheetError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Schedule::parse(text),
            Err(_) => Schedule::parse(&crate::formats::text::decode_line_by_line(bytes)),
        }
    }

    /// Reads the schedule (the module's page says what it holds). Empty lines and lines
    /// starting with `#` are skipped. A result the schedule does not know as a status (a
    /// score, `1-0`) is left to the game's record.
    pub fn parse(text: &str) -> Result<Schedule, SheetError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut pairings = Vec::new();
        let mut columns: Option<Vec<Option<Column>>> = None;
        let mut first = true;
        for (k, line) in text.lines().enumerate() {
            let line_no = k + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let error = |message: String| SheetError {
                line: line_no,
                message,
            };
            let fields = split_fields(trimmed).map_err(error)?;
            if std::mem::take(&mut first) {
                if let Some(named) = header(&fields) {
                    for needed in [Column::Round, Column::Black, Column::White] {
                        if !named.contains(&Some(needed)) {
                            return Err(error(format!(
                                "the header names no {} column",
                                column_word(needed)
                            )));
                        }
                    }
                    columns = Some(named);
                    continue;
                }
            }
            let field = |column: Column| -> String {
                match &columns {
                    Some(named) => named
                        .iter()
                        .position(|c| *c == Some(column))
                        .and_then(|i| fields.get(i))
                        .cloned()
                        .unwrap_or_default(),
                    None => {
                        let i = column as usize;
                        fields.get(i).cloned().unwrap_or_default()
                    }
                }
            };
            let expected = columns.as_ref().map_or(4, Vec::len);
            if fields.len() < expected.min(4) || (columns.is_none() && fields.len() > 5) {
                return Err(error(format!(
                    "{} fields where round,board,black,white (and a result) are {}",
                    fields.len(),
                    if columns.is_none() {
                        "4 or 5".to_owned()
                    } else {
                        expected.to_string()
                    }
                )));
            }
            pairings.push(scheduled(
                line_no,
                field(Column::Round),
                field(Column::Board),
                field(Column::Black),
                field(Column::White),
                &field(Column::Result),
            )?);
        }
        Ok(Schedule { pairings })
    }
}

fn column_word(column: Column) -> &'static str {
    match column {
        Column::Round => "round",
        Column::Board => "board",
        Column::Black => "black",
        Column::White => "white",
        Column::Result => "result",
    }
}

/// One line's pairing, from its fields.
fn scheduled(
    line: usize,
    round: String,
    board: String,
    black: String,
    white: String,
    result: &str,
) -> Result<Scheduled, SheetError> {
    let error = |message: String| SheetError { line, message };
    if round.is_empty() {
        return Err(error("no round".into()));
    }
    let mut status = status_of(result).unwrap_or(LineStatus::Game);
    // A bye: one player, the other a bye word (or nothing, with the result `bye`).
    let (black, white) = match (is_bye_word(&black), is_bye_word(&white)) {
        (true, true) => return Err(error("both players are byes".into())),
        (false, true) => {
            status = LineStatus::Bye;
            (black, String::new())
        }
        (true, false) => {
            status = LineStatus::Bye;
            (white, String::new())
        }
        (false, false) => (black, white),
    };
    if black.is_empty()
        && !white.is_empty()
        && matches!(status, LineStatus::Bye | LineStatus::Withdrawn)
    {
        return Ok(Scheduled {
            line,
            round,
            board: (!board.is_empty()).then_some(board),
            black: white,
            white: String::new(),
            status,
        });
    }
    if black.is_empty() {
        return Err(error("no black player".into()));
    }
    if white.is_empty() && !matches!(status, LineStatus::Bye | LineStatus::Withdrawn) {
        return Err(error(
            "no white player (a bye names `bye` or `-` there; a withdrawal has the result `withdrawn`)"
                .into(),
        ));
    }
    Ok(Scheduled {
        line,
        round,
        board: (!board.is_empty()).then_some(board),
        black,
        white,
        status,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_quotes_and_empty_boards() {
        let p = Schedule::parse("# rounds\n1;;Ann;Bob\n2\t3\t\"A \"\"B\"\"\"\tC\n").unwrap();
        assert_eq!(p.pairings()[0].board, None);
        assert_eq!(p.pairings()[0].line, 2);
        assert_eq!(p.pairings()[1].black, "A \"B\"");
        assert_eq!(
            p.pairings()[1].to_string(),
            "round 2, board 3: A \"B\" (black) vs C (white)"
        );
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            Schedule::parse("1,1,,Bob").unwrap_err().message,
            "no black player"
        );
        assert_eq!(Schedule::parse("\n\n1,1,\"Ann,Bob").unwrap_err().line, 3);
    }
}
