//! Move strings: one game a line (`f5d6c3d3c4...`), or a column of a CSV file.
//!
//! # Reading
//!
//! * A game is a line of moves: a column letter and a row number (`f5`, `F5`, `j10` on
//!   10x10), in either case, with or without spaces (or commas) between them. Passes may be
//!   written as `--`, `pa`, `ps`, `pass` or `@@` (any case); they are kept where written,
//!   and passes left out are inferred at replay.
//! * Blank lines are skipped, and so are comment lines starting with `#` or `%`.
//! * A pragma line `%% rules: anti:10x10` sets the rules for the lines after it (normally it
//!   is the first line of the file). Without one the rules come from
//!   [`ReadOptions::rules`], by default standard 8x8 Othello.
//! * A line may start with an Edax start position, `<board> <side>;`: one character per
//!   square row by row (`X x * b` Black, `O o w` White, `- .` empty; 64 on 8x8), then `X` or
//!   `O` for the side to move and a `;`. It becomes the record's start position.
//! * When the first line that is not a comment holds a `,` or a tab and is not itself a
//!   list of moves, the file is read as CSV: that line is the header and every later line a row (fields may be quoted, with
//!   `""` for a quote, and may then span lines). The move strings are in the column named
//!   `moves`, `game`, `transcript`, `movelist`, `sequence`, `record`, `line` or `opening`
//!   (any case), or else in the first column whose field reads as moves. The first column
//!   named `Result`, `Score`, `Final`, `Outcome`, `Final score` or `Final result` (any
//!   case) holds the game's claimed result, in the spellings people write (`36-28`,
//!   `36 - 28`, `+8`, `B+8`, `W`, `*`, ...: [`score::parse_result`]); a score that cannot
//!   be read is a `result-unreadable` warning and stays a tag. Every other non-empty field
//!   becomes a tag named after its column.
//!
//! A token that is not a move gives `syntax-bad-move` (pointing at it) and no record for
//! that line only. A pragma whose rules cannot be read is reported as an entry of its own
//! (`movestr-bad-pragma`, no record), and the lines after it keep the rules they had. CSV
//! rows can fail with `csv-unterminated-quote`, `csv-no-moves-column` and
//! `csv-missing-field`; a bad Edax start prefix with `board-too-short`, `board-bad-square`
//! or `board-missing-side`.
//!
//! # Writing
//!
//! One game a line, lower case, no spaces (`f5d6c3`), each pass the record writes as `--`
//! in its place; in the dialect `nopass` (`--to moves:nopass`, [`DIALECTS`]) passes are
//! left out, as most move-string consumers want them, and replay infers them back. A pass
//! replay would not infer (a pass while the player has a move, a pass after a move that
//! does not replay) cannot be left out: such a game is refused, lossy or not. A start position is written as an Edax prefix (two players only). When a
//! record's rules differ from those of the lines before (standard 8x8 at the top of the
//! file), a `%% rules:` pragma line comes first, so one file can hold games of any variant.
//! A move string cannot hold tags, results, comments, evaluations, times, flip or colour
//! claims or position snapshots: these are refused unless writing lossily. A game without
//! moves is refused even then (nothing of it would be in the output).

use crate::codes::Code;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::board_text;
use super::capabilities::{tag_names_phrase, tags_phrase, Claim, ClaimLosses};
use super::text::{self, Line, LineReader, MAX_GAME_BYTES};
use super::{
    text_writer, Games, ParsedGame, PlainGame, ReadOptions, RecordWriter, Sniff, TextFormat,
    WriteError, WriteOptions, Written,
};
use crate::diagnostic::{Collected, Diagnostic, Source};
use crate::engine::quick::{code, QuickMoves, PASS};
use crate::engine::{BoardShape, Color, Move, Rules, Square};
use crate::record::{score, MoveRecord, Record, Span, StartPosition, Tag};

/// The most fields a CSV row may have: the moves and a tag for each other field.
const MAX_CSV_FIELDS: usize = text::MAX_TAGS + 1;

/// Header names (lower case) of a CSV column holding move strings.
const MOVE_COLUMNS: [&str; 10] = [
    "moves",
    "move",
    "game",
    "transcript",
    "movelist",
    "move list",
    "sequence",
    "record",
    "line",
    "opening",
];

/// The headers of spreadsheets kept in French, German, Dutch, Spanish, Italian,
/// Portuguese and Japanese (lower case), with the column each stands for: a tag's name, or
/// `moves`. The pairings file (`event::schedule`) reads its headers with them too.
const LOCALIZED_COLUMNS: [(&str, &[&str]); 8] = [
    (
        "moves",
        &[
            "coups", "züge", "zuege", "zetten", "jugadas", "mosse", "棋譜", "手順",
        ],
    ),
    (
        "Black",
        &[
            "noir", "noirs", "schwarz", "zwart", "negro", "negras", "nero", "黒", "黒番",
        ],
    ),
    (
        "White",
        &[
            "blanc", "blancs", "weiß", "weiss", "wit", "blanco", "blancas", "bianco", "白", "白番",
        ],
    ),
    (
        "Result",
        &[
            "résultat",
            "resultat",
            "ergebnis",
            "uitslag",
            "resultaat",
            "resultado",
            "risultato",
            "結果",
        ],
    ),
    (
        "Round",
        &[
            "ronde",
            "runde",
            "tour",
            "ronda",
            "turno",
            "rodada",
            "回戦",
            "ラウンド",
        ],
    ),
    (
        "Board",
        &[
            "table",
            "tisch",
            "brett",
            "bord",
            "tafel",
            "mesa",
            "tavolo",
            "tabuleiro",
            "盤",
            "台",
            "テーブル",
        ],
    ),
    (
        "Event",
        &["tournoi", "turnier", "toernooi", "torneo", "大会"],
    ),
    ("Date", &["datum", "fecha", "data", "日付"]),
];

/// The column a header written in another language stands for ([`LOCALIZED_COLUMNS`]).
#[doc(hidden)]
pub fn localized_column(header: &str) -> Option<&'static str> {
    let header = header.to_lowercase();
    LOCALIZED_COLUMNS
        .iter()
        .find(|(_, words)| words.contains(&header.as_str()))
        .map(|(column, _)| *column)
}

/// Whether a CSV header names a column of move strings (`moves`, `coups`, `棋譜`, ...).
///
/// ```
/// use reversi_formats::movestr::is_moves_column;
/// assert!(is_moves_column(" Coups "));
/// assert!(!is_moves_column("noir"));
/// ```
pub fn is_moves_column(header: &str) -> bool {
    let name = header.trim();
    let name = localized_column(name).unwrap_or(name).to_lowercase();
    MOVE_COLUMNS.contains(&name.as_str())
}

/// Whether the input looks like move strings: its first lines that are not comments are
/// all moves (at least one move each), or a CSV header names a moves column.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let text = String::from_utf8_lossy(input.head);
    let mut lines: Vec<&str> = text.lines().collect();
    if input.head.len() >= 4096 && lines.len() > 1 {
        lines.pop(); // possibly cut short
    }
    let mut checked = 0;
    for line in lines {
        let trimmed = line.trim();
        if trimmed.starts_with("%%") && pragma_rules(trimmed).is_some() {
            return true;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
            continue;
        }
        if let (0, Some(delimiter)) = (checked, csv_delimiter(line)) {
            return match split_csv(line, 0, delimiter) {
                CsvLine::Complete(fields) if fields.iter().any(|f| is_moves_column(&f.text)) => {
                    true
                }
                // A header in other words (`game_moves`, `coups`): the rows say.
                CsvLine::Complete(_) => rows_hold_moves(&text, line, delimiter),
                CsvLine::Open => false,
            };
        }
        // An Edax start prefix (`<board> <X|O>;`) may precede the moves.
        let moves_text = match line.split_once(';') {
            Some((_, moves)) => {
                if !starts_with_board(line) {
                    return false;
                }
                moves
            }
            None => line,
        };
        match parse_moves(moves_text, 0, BoardShape::Eight) {
            Ok(moves) if !moves.is_empty() => checked += 1,
            _ => return false,
        }
        if checked == 5 {
            break;
        }
    }
    checked > 0
}

/// Whether the rows after the CSV header `header` (in `text`, the head of the input) each
/// hold a field that is a move string: up to five of them, at least one.
fn rows_hold_moves(text: &str, header: &str, delimiter: u8) -> bool {
    let Some(at) = text.find(header) else {
        return false;
    };
    let mut rows: Vec<&str> = text[at + header.len()..]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    // The head may end inside a row.
    if text.len() >= 4096 && rows.len() > 1 {
        rows.pop();
    }
    let holds_moves = |row: &&str| match split_csv(row, 0, delimiter) {
        CsvLine::Complete(fields) => fields.iter().any(
            |f| matches!(parse_moves(&f.text, 0, BoardShape::Ten), Ok(moves) if !moves.is_empty()),
        ),
        CsvLine::Open => false,
    };
    let sample: Vec<&str> = rows.into_iter().take(5).collect();
    !sample.is_empty() && sample.iter().all(holds_moves)
}

/// Reads move strings, one game a line, or the moves column of a CSV file.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(splitter(input, options))
}

/// A reader that splits game lines off without reading them ([`MoveStringReader::next_entry`]).
#[doc(hidden)]
pub fn splitter<R: BufRead>(input: R, options: &ReadOptions) -> MoveStringReader<R> {
    MoveStringReader {
        lines: LineReader::new(input),
        name: options.name.clone(),
        rules: options.rules.unwrap_or_default(),
        csv: None,
        seen_content: false,
        index: 0,
    }
}

/// The dialects of the move-string writer, as `--to moves:DIALECT` names them: `passes`
/// (the default: each pass written as `--`) and `nopass` (passes left out, as most
/// move-string consumers want them; replay infers them back).
pub const DIALECTS: [&str; 2] = ["passes", "nopass"];

/// The dialect `name` means (`nopass`, also `no-pass`, `nopasses`; `passes`), if any.
///
/// ```
/// use reversi_formats::movestr::dialect;
/// assert_eq!(dialect("NoPass"), Some("nopass"));
/// assert_eq!(dialect("passes"), Some("passes"));
/// assert_eq!(dialect("lines"), None);
/// ```
pub fn dialect(name: &str) -> Option<&'static str> {
    match name.trim().to_ascii_lowercase().as_str() {
        "passes" | "pass" => Some("passes"),
        "nopass" | "no-pass" | "nopasses" | "no-passes" => Some("nopass"),
        _ => None,
    }
}

/// A writer of move strings, one game a line; without passes when `options.dialect` is
/// `nopass` ([`DIALECTS`]).
///
/// ```
/// use reversi_formats::{Format, ReadOptions, WriteOptions};
/// let games = Format::MoveString.read_bytes("f5d6c3d3c4f4c5b3c2e6\n", &ReadOptions::default()).unwrap();
/// let record = games[0].record.clone().unwrap();
/// let options = WriteOptions { dialect: Some("nopass".into()), ..WriteOptions::default() };
/// let (text, _) = Format::MoveString.write_bytes(&[record], &options).unwrap();
/// assert_eq!(text, b"f5d6c3d3c4f4c5b3c2e6\n");
/// ```
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    let passes = match options.dialect.as_deref() {
        None => Ok(true),
        Some(name) => match dialect(name) {
            Some("nopass") => Ok(false),
            Some(_) => Ok(true),
            None => Err(name.to_owned()),
        },
    };
    super::capabilities::checked(
        super::Format::MoveString,
        text_writer(out, options, MoveStrings { passes }),
    )
}

// ----------------------------------------------------------------------------------------
// Lines

// ----------------------------------------------------------------------------------------
// Move tokens

/// Reads the moves of `text`, which starts at file offset `base`, for a board of `board`'s
/// side. Every bad token gives a diagnostic.
pub(super) fn parse_moves(
    text: &str,
    base: usize,
    board: BoardShape,
) -> Result<Vec<MoveRecord>, Vec<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    // Capped as they come: a line of a million bad tokens holds fifty.
    let mut errors = Collected::default();
    let mut i = 0;
    while i < bytes.len() {
        if moves.len() == text::MAX_MOVES {
            let at = Span::new(base + i, 0);
            errors.push(text::too_large("moves", text::MAX_MOVES, Some(at)));
            break;
        }
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' {
            i += 1;
            continue;
        }
        if let Some(len) = pass_len(&bytes[i..]) {
            moves.push(MoveRecord::new(Move::Pass).at(Span::new(base + i, len)));
            i += len;
            continue;
        }
        let mut end = i + 1;
        if b.is_ascii_alphabetic() {
            end = square_token_end(bytes, i);
        } else {
            // A run of stray characters is one bad token; `end` stays on a char boundary.
            while end < bytes.len()
                && (!text.is_char_boundary(end)
                    || !(bytes[end].is_ascii_alphanumeric()
                        || bytes[end].is_ascii_whitespace()
                        || bytes[end] == b','))
            {
                end += 1;
            }
        }
        let token = &text[i..end];
        let span = Span::new(base + i, end - i);
        match Square::from_ascii(token.as_bytes()) {
            Ok(sq) if sq.col() < board.side() && sq.row() < board.side() => {
                moves.push(MoveRecord::new(Move::Place(sq)).at(span));
            }
            Ok(sq) => errors.push(
                Diagnostic::error(
                    Code::SyntaxBadMove,
                    format!("`{token}` is not a square of the {board} board"),
                )
                .at(Some(span), format!("{sq} is off the board"))
                .help(off_board_help(board, sq)),
            ),
            Err(_) => errors.push(
                Diagnostic::error(
                    Code::SyntaxBadMove,
                    format!("expected a move such as `f5` or a pass `--`, but found `{token}`"),
                )
                .at(Some(span), "not a move")
                .help(square_help(board)),
            ),
        }
        i = end;
    }
    if errors.is_empty() {
        Ok(moves)
    } else {
        Err(errors.into_vec())
    }
}

/// The length of the pass `bytes` start with, if they do (`pass`, `pa`, `ps`, `--`, `@@`,
/// any case, the first that matches).
fn pass_len(bytes: &[u8]) -> Option<usize> {
    ["pass", "pa", "ps", "--", "@@"]
        .into_iter()
        .find(|p| bytes.len() >= p.len() && bytes[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
        .map(str::len)
}

/// The end of the token at `i` that starts with an ASCII letter: the digits after it.
fn square_token_end(bytes: &[u8], i: usize) -> usize {
    let mut end = i + 1;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    end
}

/// [`square_help`], and for a square of the 10x10 board the rules that have it.
fn off_board_help(board: BoardShape, sq: Square) -> String {
    let ten = BoardShape::Ten;
    let mut help = square_help(board);
    if board != ten && sq.col() < ten.side() && sq.row() < ten.side() {
        help.push_str(&format!(
            "; {sq} is a square of the 10x10 board: for a 10x10 game, give the rules `othello:10x10` (a `%% rules: othello:10x10` line, or --rules)"
        ));
    }
    help
}

fn square_help(board: BoardShape) -> String {
    let n = board.side();
    let last_col = (b'a' + n - 1) as char;
    format!(
        "a move is a column letter a-{last_col} and a row 1-{n} (such as `f5`{}), in either case; \
         a pass is `--`, `pa`, `ps` or `@@`",
        if n >= 10 { " or `j10`" } else { "" }
    )
}

/// The field delimiter when `line` is a CSV header: it holds a `,` or a tab and is not
/// itself a list of moves (`f5, d6, c3`).
fn csv_delimiter(line: &str) -> Option<u8> {
    let delimiter = if line.contains('\t') {
        b'\t'
    } else if line.contains(',') {
        b','
    } else if line.matches(';').count() >= 2 && !starts_with_board(line) {
        // A spreadsheet saved in a locale whose decimal mark is a comma (three columns at
        // least: a sentence with a semicolon is no header).
        b';'
    } else {
        return None;
    };
    parse_moves(line, 0, BoardShape::Ten)
        .is_err()
        .then_some(delimiter)
}

/// Whether `line` starts with an Edax start position (`<board> <X|O>;`) before its moves.
fn starts_with_board(line: &str) -> bool {
    line.split_once(';').is_some_and(|(board, _)| {
        BoardShape::ALL
            .into_iter()
            .any(|shape| board_text::parse_board(board, 0, shape).is_ok())
    })
}

/// The rules named by a pragma line `%% rules: ...`, if it is one (the text may be bad).
fn pragma_rules(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("%%")?.trim_start();
    let (key, value) = rest.split_once(':')?;
    key.trim()
        .eq_ignore_ascii_case("rules")
        .then_some(value.trim())
}

// ----------------------------------------------------------------------------------------
// CSV

/// A CSV field: its unquoted text and the file offset where its content starts.
#[derive(Clone, Debug)]
struct Field {
    text: String,
    offset: usize,
    span: Span,
    /// File offset of each byte of `text` and one past its end: a quoted field drops its
    /// quotes and halves `""`, so its text is not a slice of the line.
    positions: Vec<usize>,
}

impl Field {
    /// The span of the field's text without the spaces around it, on its line.
    fn trimmed_span(&self) -> Span {
        let lead = self.text.len() - self.text.trim_start().len();
        self.line_span(Span::new(self.offset + lead, self.text.trim().len()))
    }

    /// The span on the line of `span`, a span into this field's text at `self.offset`.
    fn line_span(&self, span: Span) -> Span {
        let at = |local: usize| self.positions.get(local).copied();
        let local = span.offset.saturating_sub(self.offset);
        let (Some(start), Some(end)) = (at(local), at(local + span.len)) else {
            return span;
        };
        // The end is just past the span's last byte, not past a dropped quote.
        let end = match span.len {
            0 => start,
            n => at(local + n - 1).map_or(end, |last| last + 1),
        };
        Span::new(start, end - start)
    }
}

enum CsvLine {
    Complete(Vec<Field>),
    /// A quoted field runs on past the end of the text.
    Open,
}

/// Applies `f` to every span of `record`.
fn for_each_span(record: &mut Record, f: impl FnMut(&mut Span)) {
    let moves = record.moves.iter_mut().flat_map(|m| {
        let flips = m.flips.as_mut().and_then(|c| c.span.as_mut());
        m.span.as_mut().into_iter().chain(flips)
    });
    record
        .span
        .iter_mut()
        .chain(record.rules_span.as_mut())
        .chain(record.start.as_mut().and_then(|s| s.span.as_mut()))
        .chain(record.tags.iter_mut().filter_map(|t| t.span.as_mut()))
        .chain(moves)
        .chain(record.positions.iter_mut().filter_map(|p| p.span.as_mut()))
        .chain(record.result.as_mut().and_then(|r| r.span.as_mut()))
        .for_each(f);
}

/// Splits `text` (at file offset `base`) into fields.
fn split_csv(text: &str, base: usize, delimiter: u8) -> CsvLine {
    let bytes = text.as_bytes();
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        let mut value = Vec::new();
        let mut positions = Vec::new();
        let content;
        if bytes.get(i) == Some(&b'"') {
            i += 1;
            content = i;
            loop {
                match bytes.get(i) {
                    None => return CsvLine::Open,
                    Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                        value.push(b'"');
                        positions.push(base + i);
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(&b) => {
                        value.push(b);
                        positions.push(base + i);
                        i += 1;
                    }
                }
            }
            // Text between the closing quote and the delimiter is kept as written.
            while i < bytes.len() && bytes[i] != delimiter {
                value.push(bytes[i]);
                positions.push(base + i);
                i += 1;
            }
        } else {
            content = i;
            while i < bytes.len() && bytes[i] != delimiter {
                value.push(bytes[i]);
                positions.push(base + i);
                i += 1;
            }
        }
        positions.push(base + i);
        fields.push(Field {
            text: String::from_utf8_lossy(&value).into_owned(),
            offset: base + content,
            span: Span::new(base + start, i - start),
            positions,
        });
        // A row of more fields than a game holds tags is refused by `csv_row`: not split
        // further, so that it costs no more than that.
        if i >= bytes.len() || fields.len() > MAX_CSV_FIELDS {
            return CsvLine::Complete(fields);
        }
        i += 1; // the delimiter
    }
}

struct Csv {
    delimiter: u8,
    names: Vec<String>,
    moves_column: Option<usize>,
    /// The column holding each game's result (`Result`, `Score`, ...), if one is named so.
    result_column: Option<usize>,
}

impl Csv {
    fn from_header(fields: &[Field], delimiter: u8) -> Csv {
        let names: Vec<String> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| match f.text.trim() {
                "" => format!("Column {}", i + 1),
                name => localized_column(name).unwrap_or(name).to_owned(),
            })
            .collect();
        let moves_column = names
            .iter()
            .position(|n| MOVE_COLUMNS.contains(&n.to_ascii_lowercase().as_str()));
        let result_column = names.iter().position(|n| score::is_result_field(n));
        Csv {
            delimiter,
            names,
            moves_column,
            result_column,
        }
    }

    fn name(&self, column: usize) -> String {
        self.names
            .get(column)
            .cloned()
            .unwrap_or_else(|| format!("Column {}", column + 1))
    }
}

// ----------------------------------------------------------------------------------------
// Reader

#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct MoveStringReader<R> {
    lines: LineReader<R>,
    name: Arc<str>,
    rules: Rules,
    csv: Option<Csv>,
    seen_content: bool,
    index: usize,
}

/// A game line split off but not yet read (the reading is most of the work, and can be
/// done on another thread): [`PendingLine::read`] gives the game the reader would have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingLine {
    name: Arc<str>,
    index: usize,
    rules: Rules,
    line: Line,
}

impl PendingLine {
    /// The game of the line.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        let record = game_from_text(self.rules, &self.line.text, self.line.offset);
        let (record, diagnostics) = match record {
            Ok(record) => (Some(record), Vec::new()),
            Err(diagnostics) => (None, diagnostics),
        };
        make_game(&self.name, self.index, &self.line, record, diagnostics)
    }

    /// The game's index in its file.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The game as [`PendingLine::read`] gives it, without its record, when decoding found
    /// nothing in the line: for a game the quick scan took.
    #[doc(hidden)]
    pub fn unread(&self) -> Option<ParsedGame> {
        let clean = !self.line.too_long && self.line.problems.is_empty();
        clean.then(|| make_game(&self.name, self.index, &self.line, None, Vec::new()))
    }

    /// Scans a plain line into `moves` for the quick check, exactly as [`parse_moves`]
    /// reads it: its rules, or `None` when the line must be read in full (what decoding
    /// found, a line too long, an Edax start, any token that is not a square of the board
    /// or a pass).
    #[doc(hidden)]
    pub fn scan(&self, moves: &mut QuickMoves) -> Option<Rules> {
        let line = &self.line;
        if line.too_long || !line.problems.is_empty() {
            return None;
        }
        moves.clear();
        let side = self.rules.board().side();
        let bytes = line.text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_whitespace() || b == b',' {
                i += 1;
                continue;
            }
            // Every pass starts with one of these bytes.
            if matches!(b, b'p' | b'P' | b'-' | b'@') {
                if let Some(len) = pass_len(&bytes[i..]) {
                    moves.push(PASS).then_some(())?;
                    i += len;
                    continue;
                }
            }
            if !b.is_ascii_alphabetic() {
                return None;
            }
            let end = square_token_end(bytes, i);
            let sq = Square::from_ascii(&bytes[i..end]).ok()?;
            if sq.col() >= side || sq.row() >= side || !moves.push(code(sq.col(), sq.row())) {
                return None;
            }
            i = end;
        }
        Some(self.rules)
    }
}

/// What the reader splits off: a game read in full, or a game line to read.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub enum Entry {
    Game(Box<ParsedGame>),
    Line(PendingLine),
}

impl Entry {
    /// The game.
    pub(crate) fn read(self) -> ParsedGame {
        match self {
            Entry::Game(game) => *game,
            Entry::Line(line) => line.read(),
        }
    }
}

/// Game `index` of file `name`, on `line`.
fn make_game(
    name: &Arc<str>,
    index: usize,
    line: &Line,
    record: Option<Record>,
    diags: Vec<Diagnostic>,
) -> ParsedGame {
    let record = if line.too_long { None } else { record };
    let diags: Vec<Diagnostic> = line.problems.iter().cloned().chain(diags).collect();
    ParsedGame {
        index,
        source: Source {
            name: name.clone(),
            text: line.text.as_str().into(),
            offset: line.offset,
            line: line.number,
        },
        record,
        diagnostics: Collected::from(
            diags
                .into_iter()
                .map(|d| d.in_game(index))
                .collect::<Vec<_>>(),
        )
        .into_vec(),
    }
}

/// Reads one game line under `rules`: an optional Edax start prefix, then moves.
fn game_from_text(rules: Rules, text: &str, base: usize) -> Result<Record, Vec<Diagnostic>> {
    let board = rules.board();
    let mut record = Record::new(rules);
    let mut moves_text = text;
    let mut moves_base = base;
    let mut errors = Vec::new();
    if let Some(semicolon) = text.find(';') {
        match board_text::parse_board(&text[..semicolon], base, board) {
            Ok(parsed) if rules.players() == 2 => {
                record.start = Some(StartPosition {
                    setup: parsed.setup,
                    in_hand: None,
                    span: Some(parsed.span),
                });
                if let Some(extra) = parsed.rest_span(&text[..semicolon], base) {
                    errors.push(
                        Diagnostic::error(
                            Code::SyntaxBadMove,
                            "expected `;` after the side to move",
                        )
                        .at(Some(extra), "unexpected text")
                        .help("an Edax start is `<board> <X|O>;` followed by the moves"),
                    );
                }
            }
            Ok(parsed) => errors.push(
                Diagnostic::error(
                    Code::BoardBadStart,
                    format!(
                        "a start position prefix only holds 2 players, but the rules are {rules}"
                    ),
                )
                .at(Some(parsed.span), "start position"),
            ),
            Err(e) => errors.push(*e),
        }
        moves_text = &text[semicolon + 1..];
        moves_base = base + semicolon + 1;
    }
    match parse_moves(moves_text, moves_base, board) {
        Ok(moves) => record.moves = moves,
        Err(e) => errors.extend(e),
    }
    record.span = Some(Span::new(base, text.len()));
    if errors.is_empty() {
        Ok(record)
    } else {
        Err(errors)
    }
}

impl<R: BufRead> MoveStringReader<R> {
    fn game(&mut self, line: &Line, record: Option<Record>, diags: Vec<Diagnostic>) -> ParsedGame {
        self.index += 1;
        make_game(&self.name, self.index, line, record, diags)
    }

    fn pragma(&mut self, line: &Line, value: &str) -> Option<ParsedGame> {
        match value.parse::<Rules>() {
            Ok(rules) => {
                self.rules = rules;
                None
            }
            Err(e) => {
                let at = line.text.find(value).unwrap_or(0);
                let span = Span::new(line.offset + at, value.len());
                let diag = Diagnostic::error(Code::MovestrBadPragma, format!("bad rules: {e}"))
                    .at(Some(span), "not a rules string")
                    .help(format!(
                        "a pragma reads `%% rules: anti:10x10`; the lines after it keep the \
                         rules {}",
                        self.rules
                    ));
                Some(self.game(line, None, vec![diag]))
            }
        }
    }

    /// Reads a CSV row (joining lines while a quoted field is open).
    fn csv_row(&mut self, mut line: Line) -> io::Result<ParsedGame> {
        let delimiter = self.csv.as_ref().map_or(b',', |c| c.delimiter);
        let fields = loop {
            match split_csv(&line.text, line.offset, delimiter) {
                CsvLine::Complete(fields) => break Some(fields),
                CsvLine::Open => match self.lines.next_line() {
                    Some(next) => {
                        let next = next?;
                        line.problems.extend(next.problems);
                        if next.too_long || line.text.len() + next.text.len() > MAX_GAME_BYTES {
                            line.too_long = true;
                            line.problems.push(text::too_long(
                                "a quoted CSV field",
                                line.number,
                                line.text.len() + next.text.len(),
                            ));
                            line.text.clear();
                            return Ok(self.game(&line, None, Vec::new()));
                        }
                        line.text.push_str(line.terminator);
                        line.text.push_str(&next.text);
                        line.terminator = next.terminator;
                    }
                    None => break None,
                },
            }
        };
        let Some(fields) = fields else {
            let diag = Diagnostic::error(Code::CsvUnterminatedQuote, "a quoted field never ends")
                .at(Some(Span::new(line.offset, line.text.len())), "this row")
                .help("close the field with `\"`; write a quote inside a field as `\"\"`");
            return Ok(self.game(&line, None, vec![diag]));
        };
        if let Some(extra) = fields.get(MAX_CSV_FIELDS) {
            let d = text::too_large("fields", MAX_CSV_FIELDS, Some(extra.span));
            return Ok(self.game(&line, None, vec![d]));
        }
        let chosen = match self.csv.as_ref().and_then(|c| c.moves_column) {
            Some(c) => Some(c),
            None => fields.iter().position(
                |f| matches!(parse_moves(&f.text, 0, self.rules.board()), Ok(m) if !m.is_empty()),
            ),
        };
        let Some(column) = chosen else {
            let diag = Diagnostic::error(
                Code::CsvNoMovesColumn,
                "no column of this row holds a move string",
            )
            .at(Some(Span::new(line.offset, line.text.len())), "this row")
            .help(format!(
                "name the moves column `moves` in the header (or one of: {})",
                MOVE_COLUMNS.join(", ")
            ));
            return Ok(self.game(&line, None, vec![diag]));
        };
        if let Some(csv) = self.csv.as_mut() {
            csv.moves_column = Some(column);
        }
        let Some(field) = fields.get(column) else {
            let name = self
                .csv
                .as_ref()
                .map_or_else(String::new, |c| c.name(column));
            let diag = Diagnostic::error(
                Code::CsvMissingField,
                format!(
                    "this row has {} fields, so no `{name}` column (column {})",
                    fields.len(),
                    column + 1
                ),
            )
            .at(Some(Span::new(line.offset, line.text.len())), "this row")
            .help("every row needs a field for each column of the header");
            return Ok(self.game(&line, None, vec![diag]));
        };
        let result = game_from_text(self.rules, &field.text, field.offset);
        let game = match result {
            Ok(mut record) => {
                for_each_span(&mut record, |s| *s = field.line_span(*s));
                let result_column = self.csv.as_ref().and_then(|c| c.result_column);
                let mut warnings = Vec::new();
                for (i, f) in fields.iter().enumerate() {
                    if i == column || f.text.trim().is_empty() {
                        continue;
                    }
                    let name = self.csv.as_ref().map_or_else(String::new, |c| c.name(i));
                    if Some(i) == result_column {
                        match score::parse_result(&f.text) {
                            Ok(read) => {
                                record.result = read.map(|r| r.claimed(Some(f.trimmed_span())));
                                continue;
                            }
                            Err(e) => warnings.push(text::unreadable_result(
                                &format!("the `{name}` column"),
                                &name,
                                &e,
                                f.trimmed_span(),
                            )),
                        }
                    }
                    let mut tag = Tag::new(name, f.text.trim());
                    tag.span = Some(f.span);
                    record.tags.push(tag);
                }
                record.span = Some(Span::new(line.offset, line.text.len()));
                self.game(&line, Some(record), warnings)
            }
            Err(mut diags) => {
                for d in &mut diags {
                    let labels = d.related.iter_mut().map(|l| &mut l.span);
                    for span in d.span.iter_mut().chain(labels) {
                        *span = field.line_span(*span);
                    }
                }
                self.game(&line, None, diags)
            }
        };
        Ok(game)
    }
}

impl<R: BufRead> MoveStringReader<R> {
    /// The next entry: a game line split off, or a game read in full (CSV rows, bad
    /// pragmas, lines too long).
    #[doc(hidden)]
    pub fn next_entry(&mut self) -> Option<io::Result<Entry>> {
        loop {
            let line = match self.lines.next_line()? {
                Ok(line) => line,
                Err(e) => return Some(Err(e)),
            };
            if line.too_long {
                return Some(Ok(Entry::Game(Box::new(self.game(
                    &line,
                    None,
                    Vec::new(),
                )))));
            }
            let trimmed = line.text.trim();
            if let Some(value) = pragma_rules(trimmed) {
                match self.pragma(&line, value) {
                    Some(game) => return Some(Ok(Entry::Game(Box::new(game)))),
                    None => continue,
                }
            }
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
                continue;
            }
            if !self.seen_content {
                self.seen_content = true;
                if let Some(delimiter) = csv_delimiter(&line.text) {
                    if let CsvLine::Complete(fields) = split_csv(&line.text, line.offset, delimiter)
                    {
                        self.csv = Some(Csv::from_header(&fields, delimiter));
                        continue;
                    }
                }
            }
            if self.csv.is_some() {
                return Some(self.csv_row(line).map(|game| Entry::Game(Box::new(game))));
            }
            self.index += 1;
            return Some(Ok(Entry::Line(PendingLine {
                name: self.name.clone(),
                index: self.index,
                rules: self.rules,
                line,
            })));
        }
    }
}

impl<R: BufRead> Iterator for MoveStringReader<R> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        Some(self.next_entry()?.map(Entry::read))
    }
}

// ----------------------------------------------------------------------------------------
// Writer

/// Appends `moves` as one line (passes as `--` when `passes`, else left out).
fn push_moves(line: &mut String, moves: impl Iterator<Item = Move>, passes: bool) {
    for mv in moves {
        match mv {
            Move::Place(sq) => line.push_str(sq.name()),
            Move::Pass if passes => line.push_str("--"),
            Move::Pass => {}
        }
    }
    line.push('\n');
}

/// Move strings, one game a line, under a `%% rules:` pragma when the rules change.
struct MoveStrings {
    /// Whether passes are written (`--`), or the dialect asked for that is not one.
    passes: Result<bool, String>,
}

impl TextFormat for MoveStrings {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        let passes = self.passes.clone().map_err(|d| {
            WriteError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "expected a move-string dialect ({}), but found `{d}` instead",
                    DIALECTS.join(", ")
                ),
            ))
        })?;
        if !passes {
            let kept = passes_replay_cannot_infer(record);
            if !kept.is_empty() {
                return Err(WriteError::ChangesMeaning(vec![kept_passes_phrase(&kept)]));
            }
        }
        let mut losses = Vec::new();
        if !record.tags.is_empty() {
            losses.push(tags_phrase(&record.tags));
        }
        ClaimLosses::of(record, &Claim::ALL).append_to(&mut losses);
        let start = match &record.start {
            Some(start) => match edax_prefix(record.rules, start) {
                Some(prefix) => Some(prefix),
                None => {
                    losses.push(
                        "a start position with more than two colours or discs in hand".into(),
                    );
                    None
                }
            },
            None => None,
        };
        if record.moves.is_empty() && start.is_none() {
            // Nothing of it would be in the output: even lossily, it is not converted.
            return Err(WriteError::ChangesMeaning(vec![
                "an empty game (a move-string line needs at least one move)".into(),
            ]));
        }
        let mut line = String::new();
        if let Some(prefix) = start {
            line.push_str(&prefix);
        }
        push_moves(&mut line, record.moves.iter().map(|m| m.mv), passes);
        Ok((line, losses))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        let passes = *self.passes.as_ref().ok()?;
        // A plain game is one the quick check passed: every pass forced, so replay infers
        // each one left out; it starts from the rules' start, and has moves.
        if game.moves.is_empty() {
            return None;
        }
        let mut losses = Vec::new();
        if !game.tags.is_empty() {
            losses.push(tag_names_phrase(game.tags().map(|(name, _)| name)));
        }
        if game.discs.is_some() {
            ClaimLosses::of_result().append_to(&mut losses);
        }
        let mut line = String::with_capacity(2 * game.moves.len() + 1);
        push_moves(&mut line, game.moves.iter().copied(), passes);
        Some((line, losses))
    }

    fn frame(&self, written: &Written, rules: &Rules, line: &str, out: &mut String) {
        if !line.is_empty() && *rules != written.rules {
            out.push_str(&format!("%% rules: {rules}\n"));
        }
        out.push_str(line);
    }
}

/// The written passes (1-based move numbers) that replay would not put back if they were
/// left out: a pass while the player has a move, or any pass from the first move that does
/// not replay on. Leaving those out would change the game.
fn passes_replay_cannot_infer(record: &Record) -> Vec<usize> {
    let mut position = record.start_position().ok();
    let mut kept = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let played = position.as_mut().is_some_and(|p| {
            // A pass the record leaves out, replay infers: so does this one.
            if m.mv != Move::Pass && p.legal_moves().is_empty() && !p.is_over() {
                let _ = p.play(Move::Pass);
            }
            p.play(m.mv).is_ok()
        });
        if !played {
            position = None;
            if m.mv == Move::Pass {
                kept.push(i + 1);
            }
        }
    }
    kept
}

/// `a pass replay cannot infer (move 12)`, `passes replay cannot infer (moves 12, 30)`.
fn kept_passes_phrase(moves: &[usize]) -> String {
    let list: Vec<String> = moves.iter().map(usize::to_string).collect();
    match moves {
        [one] => format!("a pass that replay cannot infer (move {one}), so it cannot be left out"),
        _ => format!(
            "passes that replay cannot infer (moves {}), so they cannot be left out",
            list.join(", ")
        ),
    }
}

/// The Edax prefix `<board> <side>;` of a 2-colour start of a two-player game, if it has
/// no more than that (the reader takes a prefix only under two-player rules: a start of
/// three players, one of them without discs yet, has no prefix).
fn edax_prefix(rules: Rules, start: &StartPosition) -> Option<String> {
    let s = &start.setup;
    if rules.players() != 2
        || start.in_hand.is_some()
        || !s.neutral.is_empty()
        || !s.discs[2].is_empty()
        || !s.discs[3].is_empty()
        || !matches!(s.turn, Color::Black | Color::White)
    {
        return None;
    }
    let mut text = board_text::board_string(rules.board(), s);
    text.push(';');
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start of three players, one without discs yet, looks like a two-colour board but
    /// the reader takes a prefix only under two-player rules: it is not written as one
    /// (lossily, it is dropped and named), so what is written reads back.
    #[test]
    fn a_start_of_three_players_is_never_a_two_player_prefix() {
        use crate::{Format, WriteOptions};
        let rules: Rules = "multi3".parse().unwrap();
        let mut record = Record::new(rules);
        let squares = |list: &[&str]| {
            list.iter()
                .map(|s| s.parse::<Square>().unwrap())
                .collect::<crate::engine::SquareSet>()
        };
        let empty = squares(&[]);
        let setup = crate::engine::Setup {
            discs: [squares(&["d4", "e5"]), squares(&["e4", "d5"]), empty, empty],
            neutral: empty,
            turn: Color::White,
        };
        record.start = Some(StartPosition {
            setup,
            in_hand: None,
            span: None,
        });
        record.moves = vec![crate::record::MoveRecord::new(Move::Place(
            "f5".parse().unwrap(),
        ))];
        let strict =
            Format::MoveString.write_bytes(std::slice::from_ref(&record), &WriteOptions::default());
        assert!(strict.is_err(), "{strict:?}");
        let lossy = WriteOptions {
            lossy: true,
            ..WriteOptions::default()
        };
        let (text, dropped) = Format::MoveString
            .write_bytes(std::slice::from_ref(&record), &lossy)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(!text.contains(';'), "{text}");
        assert!(
            dropped.iter().any(|d| d.contains("start position")),
            "{dropped:?}"
        );
        let back = read_str(&text, None);
        assert_eq!(back.len(), 1);
        assert!(back[0].record.is_some(), "{text}");
    }

    fn read_str(text: &str, rules: Option<Rules>) -> Vec<ParsedGame> {
        let options = ReadOptions {
            name: "test".into(),
            rules,
            ..ReadOptions::default()
        };
        read(Box::new(io::Cursor::new(text.to_owned())), &options)
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    fn moves_of(game: &ParsedGame) -> String {
        let record = game.record.as_ref().unwrap();
        record
            .moves
            .iter()
            .map(|m| m.mv.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn spreadsheets_in_other_languages_and_locales_are_read_by_content() {
        let sniffs = |text: &str| {
            sniff(&Sniff {
                head: text.as_bytes(),
                len: Some(text.len() as u64),
            })
        };
        // A French spreadsheet saved with `;` (its locale's decimal mark is the comma), a
        // BOM and CRLF: its columns become the tags they stand for.
        let french = "\u{feff}ronde;table;noir;blanc;coups;résultat\r\n\
                      3;1;Ann;Bob;f5d6c3d3c4f4c5b3c2e6;\r\n\
                      3;2;Cy;Di;f5f6e6f4;33-31\r\n";
        assert!(sniffs(french));
        let games = read_str(french, None);
        assert_eq!(games.len(), 2);
        let record = games[1].record.as_ref().unwrap();
        let tag = |name: &str| {
            record
                .tags
                .iter()
                .find(|t| t.name == name)
                .map(|t| t.value.as_str())
        };
        assert_eq!(
            (tag("Round"), tag("Board"), tag("Black"), tag("White")),
            (Some("3"), Some("2"), Some("Cy"), Some("Di"))
        );
        assert!(record.result.is_some(), "the résultat column is the result");
        assert_eq!(moves_of(&games[1]), "f5 f6 e6 f4");
        // Its numbers with decimal commas: `33,0-31,0` is 33-31, `0,5-0,5` a draw.
        let decimals = "noir;blanc;coups;résultat\n\
                        Ann;Bob;f5d6;33,0-31,0\nCy;Di;f5f6;0,5-0,5\nEd;Flo;f5f4;1,0-0,0\n";
        let games = read_str(decimals, None);
        let scores: Vec<_> = games
            .iter()
            .map(|g| {
                assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
                g.record
                    .as_ref()
                    .and_then(|r| r.result.clone())
                    .map(|c| c.score)
            })
            .collect();
        use crate::record::ResultScore;
        assert_eq!(
            scores,
            [
                Some(ResultScore::Discs(vec![33, 31])),
                Some(ResultScore::Winner(None)),
                Some(ResultScore::Winner(Some(crate::Color::Black))),
            ]
        );
        // A header in words of its own (the Kaggle export): the rows hold moves.
        assert!(sniffs(
            "eOthello_game_id,winner,game_moves\n1,1,f5d6c3d3c4\n2,0,f5f6e6f4\n"
        ));
        // A table whose rows hold no moves is no game record; nor is an Edax start line.
        assert!(!sniffs("name;club;rating\nAnn;Paris;1800\n"));
        assert!(sniffs(
            "---------------------------OX------XO--------------------------- X; f5d6\n"
        ));
    }

    #[test]
    fn quoted_field_spans_point_at_the_line() {
        // Found by fuzzing: spans in a quoted moves field ignored the dropped quotes, so
        // they landed a byte early after a closing quote or a doubled `""`.
        let text = "Black,Moves\nA,\"f5 \"\"\" zz\u{e9}\n";
        let games = read_str(text, None);
        let game = &games[0];
        let source = &game.source.text;
        let local = |s: Span| &source[s.offset - game.source.offset..s.end() - game.source.offset];
        let spans: Vec<_> = game
            .diagnostics
            .iter()
            .map(|d| local(d.span.unwrap()))
            .collect();
        assert_eq!(spans, ["\"", "z", "z", "\u{e9}"]);
        let text = "Black,Moves\nA,\"f5 d6\" c3\n";
        let games = read_str(text, None);
        let (record, source) = (games[0].record.as_ref().unwrap(), &games[0].source);
        let local = |s: Span| &source.text[s.offset - source.offset..s.end() - source.offset];
        let spans: Vec<_> = record
            .moves
            .iter()
            .map(|m| local(m.span.unwrap()))
            .collect();
        assert_eq!(spans, ["f5", "d6", "c3"]);
    }

    #[test]
    fn reads_cases_spaces_and_passes() {
        let games = read_str("F5d6 C3\n\n# comment\nf5 pa d6 PS @@ -- pass\n", None);
        assert_eq!(games.len(), 2);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(moves_of(&games[1]), "f5 -- d6 -- -- -- --");
        let spans: Vec<_> = games[0]
            .record
            .as_ref()
            .unwrap()
            .moves
            .iter()
            .map(|m| m.span.unwrap().offset)
            .collect();
        assert_eq!(spans, [0, 2, 5]);
        assert_eq!(games[1].source.line, 3);
    }

    #[test]
    fn byte_order_mark_and_commas() {
        let games = read_str("\u{feff}f5, d6,c3\n", None);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(
            games[0].record.as_ref().unwrap().moves[0]
                .span
                .unwrap()
                .offset,
            3
        );
    }

    #[test]
    fn ten_by_ten_rows_have_two_digits() {
        let games = read_str("%% rules: othello:10x10\nj10a1e10\n", None);
        assert_eq!(moves_of(&games[0]), "j10 a1 e10");
        assert_eq!(
            games[0].record.as_ref().unwrap().rules.board(),
            BoardShape::Ten
        );
    }

    #[test]
    fn bad_tokens_are_all_reported_and_only_sink_their_line() {
        let games = read_str("f5x3d6a9\nf5d6\n", None);
        assert!(games[0].record.is_none());
        let codes: Vec<_> = games[0]
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.unwrap().offset))
            .collect();
        assert_eq!(codes, [(Code::SyntaxBadMove, 2), (Code::SyntaxBadMove, 6)]);
        assert_eq!(games[0].diagnostics[0].game, Some(1));
        assert_eq!(moves_of(&games[1]), "f5 d6");
    }

    #[test]
    fn csv_columns_become_tags() {
        let text = "Black,White,Moves\n\"Doe, J\",Roe,f5d6\n";
        let games = read_str(text, None);
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.tag("Black"), Some("Doe, J"));
        assert_eq!(record.tag("White"), Some("Roe"));
        assert_eq!(
            record.moves[0].span.unwrap().offset,
            text.find("f5d6").unwrap()
        );
    }

    #[test]
    fn csv_column_found_by_content() {
        let games = read_str("id\tline2\n1\tf5 d6 c3\n", None);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(games[0].record.as_ref().unwrap().tag("id"), Some("1"));
    }

    #[test]
    fn edax_prefix_is_a_start_position() {
        let board = "---------------------------OX------XO---------------------------";
        let games = read_str(&format!("{board} O;e6f4\n"), None);
        let record = games[0].record.as_ref().unwrap();
        let start = record.start.as_ref().unwrap();
        assert_eq!(start.setup.turn, Color::White);
        assert_eq!(moves_of(&games[0]), "e6 f4");
    }

    #[test]
    fn writer_writes_pragmas_and_refuses_tags() {
        let mut out = Vec::new();
        {
            let mut w = writer(Box::new(&mut out), &WriteOptions::default());
            let mut r = Record::new("anti:10x10".parse().unwrap());
            r.moves = vec![
                MoveRecord::new(Move::Place("j10".parse().unwrap())),
                MoveRecord::new(Move::Pass),
            ];
            w.write(&r).unwrap();
            r.tags.push(Tag::new("Event", "x"));
            match w.write(&r) {
                Err(WriteError::CannotHold(what)) => assert_eq!(what, ["tags (Event)"]),
                other => panic!("{other:?}"),
            }
            let f5 = MoveRecord::new(Move::Place("f5".parse().unwrap()));
            w.write(&Record {
                moves: vec![f5],
                ..Record::default()
            })
            .unwrap();
            w.finish().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "%% rules: anti:10x10\nj10--\n%% rules: othello\nf5\n"
        );
    }
}
