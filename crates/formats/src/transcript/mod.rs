//! Transcript grids: the sheet of move numbers tournament players fill in, as plain text.
//!
//! ```text
//! Black: Tastet
//! White: Shaman
//!    a  b  c  d  e  f  g  h
//! 1 55 53 50 40 39 43 41  .
//! 2 48 49 44 42 38  8 35 54
//! 3 31 45  5 29 21  7 36 32
//! 4 47 30 28  O  X  4 25 27
//! 5 37 19 15  X  O  1  9 14
//! 6 46 20 12 10  3  2 18 33
//! 7 51 52 16 17  6 13 58 34
//! 8 57 56 22 23 11 26 24  .
//! ```
//!
//! # Reading
//!
//! * A grid is one row of squares a line, top row first; the squares are separated by
//!   spaces (or `|`). A square holds the number of the move that filled it, or `.` (also `-`
//!   or `_`) when it stayed empty. Numbers count disc placements only: passes have none and
//!   are inferred at replay.
//! * The squares that hold a disc before move 1 (the centre; handicap corners; blocked
//!   squares) hold no number: write `0`, `.`, a disc letter (`X`/`B`/`*` Black, `O`/`W`
//!   White, `R`, `G`, `N`, `#`), or leave them out of the row altogether.
//! * Rows may carry their number on the left, the right or both; a line of column letters
//!   (`a b c ...`) may come first; lines made only of `-+|=` are borders and are skipped.
//! * The board comes from a `Rules:` header, else from [`ReadOptions::rules`] when its
//!   board has as many rows as the grid, else from the number of rows (6, 8 or 10: Othello
//!   on 6x6, 8x8 or 10x10).
//! * Lines `Name: value` before a grid are header lines: each becomes a tag (`Black: Tastet`
//!   → tag `Black`), except `Rules:`, which sets the rules, and the first `Result:` (or
//!   `Score:`, `Final:`, `Outcome:`), which is the claimed result in the spellings people
//!   write (`Result: 36-28`, `36 - 28`, `B+8`, `W`, `*`: [`score::parse_result`]); one
//!   that cannot be read is a `result-unreadable` warning and stays a tag. Grids are separated by blank
//!   lines, by header lines or by a new line of column letters. Lines starting with `#` or
//!   `%` are comments.
//! * Start position: when all four centre squares hold disc letters, they give the start
//!   (a [`StartPosition`] when it differs from the rules' start). Otherwise, in a 2-player
//!   game with the standard opening, a first move that is illegal from the standard start but
//!   legal with the centre diagonals reversed (e3, f4, c5 or d6 on 8x8) means the *inverted
//!   start*: the record's start position is the standard one with the four centre discs'
//!   colours swapped.
//!
//! The file is read grid by grid from its lines, so memory holds one grid whatever the
//! size of the file; a grid of more than 1 MiB is skipped with `syntax-too-long`. A line
//! that is not UTF-8 (read as Windows-1252) or holds a NUL byte is reported once per grid,
//! on the grid it is in or, between grids, on the grid before.
//!
//! Every problem of a grid is reported, each on its numbers: `transcript-missing-number`,
//! `transcript-duplicate-number` (a label on each copy), `transcript-number-out-of-range`,
//! `transcript-number-on-start-square`, `transcript-bad-cell`, `transcript-bad-shape`,
//! `transcript-bad-rules`, `transcript-missing-grid`. A grid with any of them has no
//! record.
//!
//! # Writing
//!
//! Each record as header lines (a `Rules:` line unless the rules are plain Othello, then
//! one line per tag, then a `Result:` line in one spelling the reader reads back), the grid with column letters and row numbers, and a blank line.
//! Passes get no number. The start squares show their discs (`X`, `O`, `R`, `G`, `N`), so
//! an inverted start is written as its centre letters; blocked squares and the squares off
//! the board (the octagon's corners) show as `#`; with
//! the free opening the centre squares are empty at the start and carry moves 1 to 4; 3-4
//! player games need nothing more, since colours come from replay. A
//! grid cannot hold a result no one spelling says (an agreed score, a margin with a
//! resignation), tags named as results (`Score`), comments, per-move claims, position snapshots, a start that
//! is more than a recolouring of the start squares, two moves on one square, or tags whose
//! names are not words or whose values span lines: these are refused unless writing lossily.

mod quick;
mod split;
mod write;

#[doc(hidden)]
pub use split::{GridSplitter, PendingGrid};
pub use write::writer;

use crate::codes::Code;
use std::io::BufRead;
use std::sync::Arc;

use super::text;
use super::{Games, ParsedGame, ReadOptions, Sniff};
use crate::diagnostic::{Diagnostic, Source};
use crate::engine::{
    BoardShape, Color, Move, Opening, Position, Rules, Setup, Square, SquareSet, MAX_SIDE,
};
use crate::record::{score, ClaimedResult, MoveRecord, Record, Span, StartPosition, Tag};

/// Whether the input looks like a transcript grid: six or more consecutive lines of 4 to 12
/// cells each (move numbers, `.` and disc letters), with some move numbers among them.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let text = String::from_utf8_lossy(input.head);
    let mut run = 0;
    let mut numbers = 0;
    let mut width = 0;
    // A whole grid: a run of rows as long as they are wide (a 4x4 grid has 4 rows), each a
    // label and cells, or just cells.
    let whole = |run: usize, width: usize, numbers: usize| {
        numbers > 0 && run >= 4 && (width == run || width == run + 1)
    };
    for line in text.lines() {
        match classify(line, 0) {
            LineKind::Row(tokens) => {
                if !(4..=12).contains(&tokens.len())
                    || tokens.iter().any(|t| read_cell(t).is_none())
                {
                    return false;
                }
                numbers += tokens
                    .iter()
                    .filter(|t| matches!(read_cell(t), Some(Cell::Number(k, _)) if k > 0))
                    .count();
                width = width.max(tokens.len());
                run += 1;
                if run >= 6 && numbers > 0 {
                    return true;
                }
            }
            LineKind::Header { .. } | LineKind::Columns | LineKind::Skip | LineKind::Blank
                if run == 0 => {}
            LineKind::Blank | LineKind::Skip => return whole(run, width, numbers),
            _ => return false,
        }
    }
    whole(run, width, numbers)
}

/// Reads transcript grids, one at a time: a grid is read when the line after it shows it
/// is complete, so memory holds one grid (at most [`MAX_GAME_BYTES`](text::MAX_GAME_BYTES) of text; a longer
/// one is skipped with `syntax-too-long`) whatever the size of the file.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    let mut grids = GridSplitter::new(input, options);
    Box::new(std::iter::from_fn(move || {
        Some(grids.next_pending()?.map(PendingGrid::read))
    }))
}

// ----------------------------------------------------------------------------------------
// Lines

#[derive(Clone, Debug)]
struct Token {
    text: TokenText,
    span: Span,
}

/// A token's text, held in place when short, as most cells are (`.`, `12`, `X`): a grid
/// of 64 cells then costs no allocation for its tokens.
#[derive(Clone, Debug)]
enum TokenText {
    Short { bytes: [u8; 6], len: u8 },
    Long(String),
}

impl TokenText {
    fn new(text: &str) -> TokenText {
        match text.len() {
            len @ 0..=6 => {
                let mut bytes = [0; 6];
                bytes[..len].copy_from_slice(text.as_bytes());
                TokenText::Short {
                    bytes,
                    len: len as u8,
                }
            }
            _ => TokenText::Long(text.to_owned()),
        }
    }
}

impl std::ops::Deref for TokenText {
    type Target = str;

    fn deref(&self) -> &str {
        match self {
            // A whole `str` was copied: its bytes are UTF-8.
            TokenText::Short { bytes, len } => {
                std::str::from_utf8(&bytes[..usize::from(*len)]).unwrap_or_default()
            }
            TokenText::Long(text) => text,
        }
    }
}

impl std::fmt::Display for TokenText {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self)
    }
}

#[derive(Clone, Debug)]
enum LineKind {
    Blank,
    /// A comment or a border.
    Skip,
    Header {
        name: String,
        value: String,
    },
    /// A line of column letters.
    Columns,
    Row(Vec<Token>),
}

/// What kind of line a line is, without reading it: how the splitter sorts lines.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum LineSort<'t> {
    Blank,
    /// A comment or a border.
    Skip,
    /// A header line: its name and value, trimmed.
    Header(&'t str, &'t str),
    /// A line of column letters.
    Columns,
    Row,
}

/// The kind of `line`, allocating nothing.
fn sort(line: &str) -> LineSort<'_> {
    // Past ASCII whitespace, most lines start with an ASCII byte: the first of the line
    // trimmed. Such a line is sorted from there, its end trimmed only when it must be.
    let bytes = line.as_bytes();
    let trimmed = match bytes.iter().position(|&b| !ascii_blank(b)) {
        Some(start) if bytes[start].is_ascii() => &line[start..],
        _ => trim(line),
    };
    match trimmed.as_bytes().first() {
        None => return LineSort::Blank,
        // What most lines of a grid start with: a row number or a cell. Such a line is no
        // comment, border, header (a name starts with a letter) or column letters.
        Some(b'0'..=b'9' | b'.') => return LineSort::Row,
        // A header line (its name and value do not depend on where the line ends), or
        // else column letters or a row.
        Some(b) if b.is_ascii_alphabetic() => {
            if let Some((name, value)) = header(trimmed) {
                return LineSort::Header(name, value);
            }
            return letters_or_row(line);
        }
        Some(_) => {}
    }
    if comment_or_border(trim(trimmed)) {
        return LineSort::Skip;
    }
    letters_or_row(line)
}

/// Whether a trimmed line is a comment (`%`, or `#` when it is not a row: `#` is also a
/// blocked square) or a border of dashes, pluses, bars and equals signs.
fn comment_or_border(trimmed: &str) -> bool {
    if trimmed.starts_with('%') || (trimmed.starts_with('#') && !looks_like_row(trimmed)) {
        return true;
    }
    trimmed
        .bytes()
        .all(|b| matches!(b, b'-' | b'+' | b'|' | b'=' | b' '))
        && (trimmed.contains("--") || trimmed.contains(['+', '=']))
}

/// A line of column letters (`a b c d ...`, four or more) or else a row.
fn letters_or_row(line: &str) -> LineSort<'_> {
    let mut count = 0;
    let mut next_letter = |b: u8| {
        let letter = u8::try_from(count).ok().and_then(|i| b'a'.checked_add(i));
        count += 1;
        Some(b.to_ascii_lowercase()) == letter
    };
    // An ASCII line (as column letters are) has no separators but ASCII ones: it is read
    // a byte at a time, each token one byte long.
    let letters = if line.is_ascii() {
        let mut after_separator = true;
        line.bytes().all(|b| {
            let separator = ascii_separator(b);
            let ok = separator || (after_separator && next_letter(b));
            after_separator = separator;
            ok
        })
    } else {
        tokens(line).all(|(_, t)| t.len() == 1 && next_letter(t.as_bytes()[0]))
    };
    if letters && count >= 4 {
        return LineSort::Columns;
    }
    LineSort::Row
}

/// `line` without the whitespace around it, as [`str::trim`] has it: a byte at a time
/// while the ends are ASCII.
fn trim(line: &str) -> &str {
    let bytes = line.as_bytes();
    let Some(start) = bytes.iter().position(|&b| !ascii_blank(b)) else {
        // Still a slice of `line`: the splitter finds a header's value in its line.
        return &line[line.len()..];
    };
    let end = bytes
        .iter()
        .rposition(|&b| !ascii_blank(b))
        .map_or(start, |e| e + 1);
    if !bytes[start].is_ascii() || !bytes[end - 1].is_ascii() {
        return line.trim();
    }
    &line[start..end]
}

/// Whether the ASCII byte `b` is whitespace, as [`char::is_whitespace`] has it.
#[inline]
fn ascii_blank(b: u8) -> bool {
    b != b'|' && ascii_separator(b)
}

/// The name and value of a header line (`trimmed` of the whitespace before it; that after
/// it changes neither), both trimmed.
fn header(trimmed: &str) -> Option<(&str, &str)> {
    let bytes = trimmed.as_bytes();
    // A name starts with a letter: rows (digits, `.`) are not searched for a colon.
    if !bytes.first()?.is_ascii_alphabetic() {
        return None;
    }
    // Most names are a run of name bytes up to the colon: the first byte past the run
    // is then the first colon, and the run (spaces at its end left out) is the name. A
    // line of name bytes only has no colon.
    let past_run = bytes.iter().position(|&b| !NAME_BYTES[usize::from(b)])?;
    if bytes[past_run] == b':' {
        let colon = past_run;
        let name = trimmed[..colon].trim_end_matches(' ');
        return Some((name, trim(&trimmed[colon + 1..])));
    }
    let colon = memchr::memchr(b':', trimmed.as_bytes())?;
    // The colon is ASCII: both sides are character boundaries.
    let (name, value) = (&trimmed[..colon], &trimmed[colon + 1..]);
    let name = trim(name);
    is_header_name(name).then(|| (name, trim(value)))
}

/// `line` read as [`sort`] sorts it, with the tokens of a row.
fn classify(line: &str, base: usize) -> LineKind {
    match sort(line) {
        LineSort::Blank => LineKind::Blank,
        LineSort::Skip => LineKind::Skip,
        LineSort::Columns => LineKind::Columns,
        LineSort::Header(name, value) => LineKind::Header {
            name: name.to_owned(),
            value: value.to_owned(),
        },
        LineSort::Row => LineKind::Row(tokenize(line, base)),
    }
}

fn looks_like_row(trimmed: &str) -> bool {
    tokens(trimmed)
        .filter(|(_, t)| t.bytes().all(|b| b.is_ascii_digit()))
        .count()
        >= 3
}

pub(super) fn is_header_name(name: &str) -> bool {
    // A byte at a time: a character that is not ASCII is no part of a name.
    let mut bytes = name.bytes();
    bytes.next().is_some_and(|b| b.is_ascii_alphabetic())
        && bytes.all(|b| NAME_BYTES[usize::from(b)])
}

/// The bytes of a header's name after its first (a letter): ASCII letters and digits, ` `,
/// `_` and `-`. A table: the bytes of every header line's name are looked up.
const NAME_BYTES: [bool; 256] = {
    let mut table = [false; 256];
    let mut b = 0;
    while b < 256 {
        let byte = b as u8;
        table[b] = byte.is_ascii_alphanumeric() || matches!(byte, b' ' | b'_' | b'-');
        b += 1;
    }
    table
};

/// The tokens of `line` and where each starts in it: its text between whitespace and `|`.
fn tokens(line: &str) -> Tokens<'_> {
    Tokens { line, at: 0 }
}

/// The iterator of [`tokens`]: a byte at a time over ASCII (what rows are made of),
/// a character at a time over the rest.
struct Tokens<'t> {
    line: &'t str,
    at: usize,
}

impl Tokens<'_> {
    /// The length of the separator (whitespace) starting with the non-ASCII byte at `i`,
    /// or 0.
    #[cold]
    fn wide_separator(&self, i: usize) -> usize {
        match self.line[i..].chars().next() {
            Some(c) if c.is_whitespace() => c.len_utf8(),
            _ => 0,
        }
    }
}

/// Whether the ASCII byte `b` separates tokens: whitespace (as [`char::is_whitespace`]
/// has it) or `|`.
#[inline]
fn ascii_separator(b: u8) -> bool {
    matches!(b, b' ' | b'\t' | b'\n' | 0x0B | 0x0C | b'\r' | b'|')
}

impl<'t> Iterator for Tokens<'t> {
    type Item = (usize, &'t str);

    #[inline]
    fn next(&mut self) -> Option<(usize, &'t str)> {
        let bytes = self.line.as_bytes();
        let mut i = self.at;
        while let Some(&b) = bytes.get(i) {
            let skip = match b {
                0x00..=0x7F if ascii_separator(b) => 1,
                0x00..=0x7F => break,
                _ => match self.wide_separator(i) {
                    0 => break,
                    n => n,
                },
            };
            i += skip;
        }
        if i == bytes.len() {
            self.at = i;
            return None;
        }
        let start = i;
        while let Some(&b) = bytes.get(i) {
            match b {
                0x00..=0x7F if ascii_separator(b) => break,
                0x00..=0x7F => i += 1,
                _ if self.wide_separator(i) > 0 => break,
                // A character's bytes: the first says how many.
                _ => i += utf8_len(b),
            }
        }
        self.at = i;
        Some((start, &self.line[start..i]))
    }
}

/// The length of the UTF-8 character whose first byte is `b`.
#[inline]
fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

fn tokenize(line: &str, base: usize) -> Vec<Token> {
    tokens(line)
        .map(|(at, text)| Token {
            text: TokenText::new(text),
            span: Span::new(base + at, text.len()),
        })
        .collect()
}

// ----------------------------------------------------------------------------------------
// The lines of a grid

struct HeaderLine {
    name: String,
    value: String,
    span: Span,
    /// Where the value is.
    value_span: Span,
}

struct RowLine {
    tokens: Vec<Token>,
    span: Span,
}

/// The lines of one grid with its headers, read from its text.
struct Block {
    header_lines: Vec<HeaderLine>,
    row_lines: Vec<RowLine>,
    /// Byte offset and 0-based line number of the block's first line.
    start: (usize, usize),
    /// Byte offset just past the block's last line.
    end: usize,
    /// The text from the block's first line on, line terminators included.
    text: String,
    /// Why the block is not read: longer than [`MAX_GAME_BYTES`](text::MAX_GAME_BYTES) (`syntax-too-long`).
    too_long: Option<Diagnostic>,
}

/// The lines of `text` (each with its terminator, as [`LineReader`] splits them) from
/// byte offset `offset` on, with one `(offset, line)` for each.
fn lines_at(text: &str, offset: usize) -> impl Iterator<Item = (usize, &str)> {
    let mut start = 0;
    std::iter::from_fn(move || {
        if start == text.len() {
            return None;
        }
        let at = offset + start;
        let line;
        (line, start) = line_at(text, start);
        Some((at, line))
    })
}

/// The line of `text` that starts at byte `start`, without its terminator (as
/// [`LineReader`] splits lines), and where the next one starts. A grid's lines are short:
/// a loop over their bytes finds their ends for less than calls to `memchr` would.
fn line_at(text: &str, start: usize) -> (&str, usize) {
    let rest = text.get(start..).unwrap_or_default();
    match rest.bytes().position(|b| b == b'\n') {
        // `\n` is ASCII: the ends are character boundaries.
        Some(end) => {
            let line = &rest[..end];
            (line.strip_suffix('\r').unwrap_or(line), start + end + 1)
        }
        None => (rest, text.len()),
    }
}

/// The grid in `text`, its header lines and rows read (none when it is too long).
fn grid_lines(
    text: String,
    start: (usize, usize),
    end: usize,
    too_long: Option<Diagnostic>,
) -> Block {
    let mut header_lines = Vec::new();
    let mut row_lines = Vec::new();
    if too_long.is_none() {
        for (offset, line) in lines_at(&text, start.0) {
            let at = line.len() - line.trim_start().len();
            let span = Span::new(offset + at, line.trim().len());
            match classify(line, offset) {
                LineKind::Header { name, value } => {
                    let colon = line.find(':').map_or(0, |c| c + 1);
                    let value_at = colon + (line[colon..].len() - line[colon..].trim_start().len());
                    let value_span = Span::new(offset + value_at, value.len());
                    header_lines.push(HeaderLine {
                        name,
                        value,
                        span,
                        value_span,
                    });
                }
                LineKind::Row(tokens) => row_lines.push(RowLine { tokens, span }),
                LineKind::Blank | LineKind::Skip | LineKind::Columns => {}
            }
        }
    }
    Block {
        header_lines,
        row_lines,
        start,
        end,
        text,
        too_long,
    }
}

// ----------------------------------------------------------------------------------------
// One grid

/// What a cell of the grid says.
enum Cell {
    Number(u32, Span),
    Empty,
    Disc(Option<Color>),
}

/// The game of `block`, the file's `index`th: `rules` are for a grid without a `Rules:`
/// header whose board fits its rows.
fn build_game(mut block: Block, index: usize, name: &Arc<str>, rules: Option<Rules>) -> ParsedGame {
    let (offset, line) = block.start;
    if let Some(too_long) = block.too_long.take() {
        return ParsedGame {
            index,
            source: Source {
                name: name.clone(),
                text: Arc::from(""),
                offset,
                line,
            },
            record: None,
            diagnostics: vec![too_long.in_game(index)],
        };
    }
    let source = Source {
        name: name.clone(),
        text: Arc::from(block.text.get(..block.end - offset).unwrap_or_default()),
        offset,
        line,
    };
    let span = Span::new(offset, block.end - offset);
    let in_game = |diags: Vec<Diagnostic>| diags.into_iter().map(|d| d.in_game(index)).collect();
    let (record, diagnostics) = match grid_record(&block, span, rules) {
        Ok((record, warnings)) => (Some(record), in_game(warnings)),
        Err(diags) => (None, in_game(diags)),
    };
    ParsedGame {
        index,
        source,
        record,
        diagnostics,
    }
}

/// Reads a block into a record: its headers, the rules, the cells row by row, then the
/// move numbers checked for duplicates and gaps. Every problem in the grid is reported,
/// in the order of the text.
fn grid_record(
    block: &Block,
    span: Span,
    rules: Option<Rules>,
) -> Result<(Record, Vec<Diagnostic>), Vec<Diagnostic>> {
    let headers = read_headers(block)?;
    let stated_rules = headers.rules;
    let rules = grid_rules(block, span, stated_rules.map(|(r, _)| r), rules)?;
    let layout = Layout::of(rules);
    let mut grid = Grid::default();
    let labels = row_labels(block);
    for (r, row) in block.row_lines.iter().enumerate() {
        grid.read_row(&layout, labels, r, row);
    }
    grid.check_numbers();
    let Grid {
        numbers,
        letters,
        mut errors,
    } = grid;
    if !errors.is_empty() {
        errors.extend(headers.warnings);
        errors.sort_by_key(|d| d.span.map_or(0, |s| s.offset));
        return Err(errors);
    }
    let mut record = Record::new(rules);
    record.rules_span = stated_rules.map(|(_, s)| s);
    record.tags = headers.tags;
    record.result = headers.result;
    record.span = Some(span);
    // The first square of each number (a number on several is an error, reported).
    record.moves = numbers
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| MoveRecord::new(Move::Place(group[0].1)).at(group[0].2))
        .collect();
    record.start = start_position(&rules, &letters, record.moves.first().map(|m| m.mv));
    Ok((record, headers.warnings))
}

/// The rules a `Rules:` header states, and where.
type StatedRules = Option<(Rules, Span)>;

/// What a grid's header lines say.
struct Headers {
    tags: Vec<Tag>,
    rules: StatedRules,
    /// The result a `Result:` header (or `Score:`, ...) claims.
    result: Option<ClaimedResult>,
    /// A result header that cannot be read (kept as a tag).
    warnings: Vec<Diagnostic>,
}

/// The block's header lines: the rules a `Rules:` header states, the result the first
/// result header (`Result:`, `Score:`, ...) claims, and every other header as a tag.
fn read_headers(block: &Block) -> Result<Headers, Vec<Diagnostic>> {
    let mut tags = Vec::new();
    let mut stated_rules = None;
    let mut result = None;
    let mut result_read = false;
    let mut warnings = Vec::new();
    for h in &block.header_lines {
        if score::is_result_field(&h.name) && !result_read {
            result_read = true;
            match score::parse_result(&h.value) {
                Ok(read) => {
                    result = read.map(|r| r.claimed(Some(h.value_span)));
                    continue;
                }
                Err(e) => warnings.push(text::unreadable_result(
                    &format!("the `{}` header", h.name),
                    &h.name,
                    &e,
                    h.value_span,
                )),
            }
        }
        if h.name.eq_ignore_ascii_case("rules") {
            match h.value.parse::<Rules>() {
                Ok(rules) => stated_rules = Some((rules, h.span)),
                Err(e) => {
                    return Err(vec![Diagnostic::error(
                        Code::TranscriptBadRules,
                        format!("bad rules: {e}"),
                    )
                    .at(Some(h.span), "not a rules string")
                    .help("write the rules as in `Rules: anti:10x10`")])
                }
            }
        } else {
            let mut tag = Tag::new(h.name.clone(), h.value.clone());
            tag.span = Some(h.span);
            tags.push(tag);
        }
    }
    Ok(Headers {
        tags,
        rules: stated_rules,
        result,
        warnings,
    })
}

/// The grid's rules: as stated, else `--rules` when its board fits the rows, else Othello
/// on a board of as many rows; refused when there is no grid or its rows do not fit.
fn grid_rules(
    block: &Block,
    span: Span,
    stated: Option<Rules>,
    given: Option<Rules>,
) -> Result<Rules, Vec<Diagnostic>> {
    if block.row_lines.is_empty() {
        return Err(vec![Diagnostic::error(
            Code::TranscriptMissingGrid,
            "header lines with no grid after them",
        )
        .at(Some(span), "these headers")
        .help("a grid of move numbers follows its header lines")]);
    }
    let n = block.row_lines.len();
    let rules = match (stated, given) {
        (Some(rules), _) => rules,
        (None, Some(rules)) if usize::from(rules.board().side()) == n => rules,
        (None, _) => {
            match n {
                4 => Rules::othello(BoardShape::Four),
                6 => Rules::othello(BoardShape::Six),
                8 => Rules::othello(BoardShape::Eight),
                10 => Rules::othello(BoardShape::Ten),
                _ => {
                    return Err(vec![Diagnostic::error(
                    Code::TranscriptBadShape,
                    format!("a grid has 6, 8 or 10 rows, but this one has {n}"),
                )
                .at(Some(span), format!("{n} rows"))
                .help("a grid has one line per row of the board; grids are separated by blank lines")]);
                }
            }
        }
    };
    let board = rules.board();
    let side = usize::from(board.side());
    if n != side {
        return Err(vec![Diagnostic::error(
            Code::TranscriptBadShape,
            format!("the {board} board has {side} rows, but this grid has {n}"),
        )
        .at(Some(span), format!("{n} rows"))
        .help("a grid has one line per row of the board")]);
    }
    Ok(rules)
}

/// Whether the rows carry their row numbers on the left and on the right: when most rows
/// have them there.
fn row_labels(block: &Block) -> (bool, bool) {
    let n = block.row_lines.len();
    let labelled = |pick: fn(&[Token]) -> Option<&Token>| {
        let count = block
            .row_lines
            .iter()
            .enumerate()
            .filter(|(r, row)| pick(&row.tokens).is_some_and(|t| *t.text == (r + 1).to_string()))
            .count();
        count * 2 > n
    };
    (labelled(<[Token]>::first), labelled(<[Token]>::last))
}

/// The board of a grid: which squares are filled before move 1 and how many moves fit.
struct Layout {
    rules: Rules,
    /// The squares printed before move 1: off the board, blocked, neutral or a start disc.
    printed: SquareSet,
    /// The highest move number: the squares left to fill.
    max: u32,
}

impl Layout {
    /// The layout of `rules`' board and start.
    fn of(rules: Rules) -> Layout {
        let board = rules.board();
        let (start_discs, neutral) = rules.start_discs();
        let filled = start_discs
            .iter()
            .fold(rules.blocked().union(neutral), |all, discs| {
                all.union(*discs)
            });
        let playable_count = board.cells().len()
            - rules.blocked().len()
            - neutral.len()
            - start_discs.iter().map(|s| s.len()).sum::<usize>();
        Layout {
            rules,
            printed: SquareSet(!board.cells().0).union(filled),
            max: u32::try_from(playable_count).unwrap_or(u32::MAX),
        }
    }

    /// Whether `sq` is printed before move 1: off the board, blocked, neutral or a start disc.
    fn preprinted(&self, sq: Square) -> bool {
        self.printed.contains(sq)
    }

    /// The squares of 0-based row `row` printed before move 1, bit `c` for column `c`:
    /// what [`Layout::preprinted`] says of each of them, at once.
    fn printed_row(&self, row: u8) -> u16 {
        let side = self.rules.board().side();
        // A set's bit for a square is its index, `row * MAX_SIDE + col`.
        let bits = (self.printed.0)
            .checked_shr(u32::from(row) * u32::from(MAX_SIDE))
            .unwrap_or(0);
        bits as u16 & ((1 << side) - 1)
    }
}

/// What the cells of a grid say, gathered row by row.
#[derive(Default)]
struct Grid {
    /// Each move number with the square it stands on, in the order of the text; sorted
    /// by number (the text's order kept among equal ones) by [`Grid::check_numbers`].
    numbers: Vec<(u32, Square, Span)>,
    /// Start squares written as discs.
    letters: Vec<(Square, Option<Color>)>,
    errors: Vec<Diagnostic>,
}

impl Grid {
    /// Reads row `r` (0-based): its cells without row numbers, all squares or only those
    /// not filled before move 1.
    fn read_row(&mut self, layout: &Layout, labels: (bool, bool), r: usize, row: &RowLine) {
        let side = usize::from(layout.rules.board().side());
        let squares: Vec<Square> = (0..side)
            .filter_map(|c| Square::new(c as u8, r as u8))
            .collect();
        let omittable: Vec<Square> = squares
            .iter()
            .copied()
            .filter(|&sq| !layout.preprinted(sq))
            .collect();
        let Some(cells) = strip_labels(&row.tokens, r + 1, labels, side, omittable.len()) else {
            let found = row.tokens.len() - usize::from(labels.0) - usize::from(labels.1);
            let short = side - omittable.len();
            self.errors.push(
                Diagnostic::error(
                    Code::TranscriptBadShape,
                    format!(
                        "row {}{} has {found} squares, but expected {side}{}",
                        r + 1,
                        match labels {
                            (false, false) => "",
                            _ => " (besides its row number)",
                        },
                        if short > 0 {
                            format!(" (or {} without its start squares)", omittable.len())
                        } else {
                            String::new()
                        }
                    ),
                )
                .at(Some(row.span), format!("{found} squares"))
                .help("each row has one entry per square (a move number or `.`); when most rows carry their row number on a side, every row does"),
            );
            return;
        };
        let targets = if cells.len() == side {
            &squares
        } else {
            &omittable
        };
        for (token, &sq) in cells.iter().zip(targets) {
            self.read_square(layout, token, sq);
        }
    }

    /// Reads the cell on `sq`: a move number, `.`, or a disc on a start square.
    fn read_square(&mut self, layout: &Layout, token: &Token, sq: Square) {
        let (board, max) = (layout.rules.board(), layout.max);
        let errors = &mut self.errors;
        match read_cell(token) {
            Some(Cell::Number(0, _)) if layout.preprinted(sq) => {}
            Some(Cell::Number(k, span)) if layout.preprinted(sq) => errors.push(
                Diagnostic::error(
                    Code::TranscriptNumberOnStartSquare,
                    format!("move {k} is written on {sq}, which is filled before move 1"),
                )
                .at(Some(span), "a start square")
                .help("leave start squares out, or write `0` or their disc (`X`/`O`) there"),
            ),
            Some(Cell::Number(k, span)) if k == 0 || k > max => errors.push(
                Diagnostic::error(
                    Code::TranscriptNumberOutOfRange,
                    format!("move numbers run from 1 to {max}, but {sq} holds {k}"),
                )
                .at(Some(span), "out of range")
                .help(format!("the {board} board has {max} squares to fill; write `.` for a square left empty")),
            ),
            Some(Cell::Number(k, span)) => self.numbers.push((k, sq, span)),
            Some(Cell::Empty) => {}
            Some(Cell::Disc(color)) if layout.preprinted(sq) => self.letters.push((sq, color)),
            Some(Cell::Disc(_)) => errors.push(
                Diagnostic::error(
                    Code::TranscriptBadCell,
                    format!("`{}` on {sq}: only start squares hold a disc before move 1", token.text),
                )
                .at(Some(token.span), "not a start square")
                .help("write the number of the move that filled the square, or `.` if it stayed empty"),
            ),
            None => errors.push(
                Diagnostic::error(
                    Code::TranscriptBadCell,
                    format!("expected a move number or `.` on {sq}, but found `{}`", token.text),
                )
                .at(Some(token.span), "not a move number")
                .help("a square holds the number of the move that filled it, or `.` if it stayed empty"),
            ),
        }
    }

    /// Sorts the move numbers, and reports those written on several squares and those
    /// missing before the last.
    fn check_numbers(&mut self) {
        self.numbers.sort_by_key(|&(k, _, _)| k);
        let errors = &mut self.errors;
        let groups = || {
            self.numbers
                .chunk_by(|a, b| a.0 == b.0)
                .map(|group| (group[0].0, group))
        };
        for (k, group) in groups() {
            if group.len() > 1 {
                let places: Vec<(Square, Span)> =
                    group.iter().map(|&(_, sq, span)| (sq, span)).collect();
                let names: Vec<String> = places.iter().map(|(sq, _)| sq.to_string()).collect();
                let mut d = Diagnostic::error(
                    Code::TranscriptDuplicateNumber,
                    format!(
                        "move {k} is written on {} squares ({})",
                        places.len(),
                        names.join(", ")
                    ),
                )
                .at(Some(places[0].1), format!("move {k} on {}", places[0].0))
                .help("each move number stands on exactly one square");
                for (sq, span) in &places[1..] {
                    d = d.related(Some(*span), format!("move {k} again on {sq}"));
                }
                errors.push(d);
            }
        }
        let mut expected = 1;
        for (k, group) in groups() {
            if k > expected {
                let message = if k - expected == 1 {
                    format!("there is no move {expected}, though the grid goes on to move {k}")
                } else if k - expected == 2 {
                    format!(
                        "there are no moves {expected} and {}, though the grid goes on to move {k}",
                        k - 1
                    )
                } else {
                    format!(
                        "there are no moves {expected} to {}, though the grid goes on to move {k}",
                        k - 1
                    )
                };
                errors.push(
                    Diagnostic::error(Code::TranscriptMissingNumber, message)
                        .at(
                            Some(group[0].2),
                            format!("move {k} follows move {}", expected - 1),
                        )
                        .help(
                            "every move up to the last one needs its number on the square it filled",
                        ),
                );
            }
            expected = k + 1;
        }
    }
}

/// The cells of a row without its row numbers (`labels`: on the left, on the right), when
/// they are there and the cells fit `side` squares, or the `without` squares left when the
/// start squares are omitted.
fn strip_labels(
    tokens: &[Token],
    row: usize,
    labels: (bool, bool),
    side: usize,
    without: usize,
) -> Option<&[Token]> {
    let label = row.to_string();
    let (left, right) = labels;
    if (left && *tokens.first()?.text != label) || (right && *tokens.last()?.text != label) {
        return None;
    }
    let cells = tokens.get(usize::from(left)..tokens.len().checked_sub(usize::from(right))?)?;
    (cells.len() == side || cells.len() == without).then_some(cells)
}

fn read_cell(token: &Token) -> Option<Cell> {
    let t: &str = &token.text;
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return Some(match t.parse::<u32>() {
            Ok(k) => Cell::Number(k, token.span),
            Err(_) => Cell::Number(u32::MAX, token.span),
        });
    }
    Some(match t {
        "." | "-" | "_" => Cell::Empty,
        "X" | "x" | "B" | "b" | "*" => Cell::Disc(Some(Color::Black)),
        "O" | "o" | "W" | "w" => Cell::Disc(Some(Color::White)),
        "R" | "r" | "G" | "g" | "N" | "n" | "#" => Cell::Disc(None),
        _ => return None,
    })
}

/// The start position the grid implies: the letters on the centre squares when all four
/// are given, else the inverted start when move 1 needs it.
fn start_position(
    rules: &Rules,
    letters: &[(Square, Option<Color>)],
    first: Option<Move>,
) -> Option<StartPosition> {
    if rules.players() != 2 || rules.opening() != Opening::Standard {
        return None;
    }
    let default = Setup {
        discs: rules.start_discs().0,
        neutral: rules.start_discs().1,
        turn: Color::Black,
    };
    let centre = rules.board().centre();
    let given: Vec<(Square, Color)> = centre
        .iter()
        .filter_map(|sq| {
            letters
                .iter()
                .find(|(s, _)| s == sq)
                .and_then(|&(s, c)| Some((s, c?)))
        })
        .filter(|(_, c)| matches!(c, Color::Black | Color::White))
        .collect();
    let setup = if given.len() == 4 {
        let mut setup = default;
        for (sq, color) in given {
            for set in &mut setup.discs {
                set.remove(sq);
            }
            setup.discs[color.index()].insert(sq);
        }
        setup
    } else {
        let Some(Move::Place(sq)) = first else {
            return None;
        };
        let mut inverted = default;
        for c in centre {
            let (b, w) = (default.discs[0].contains(c), default.discs[1].contains(c));
            if b != w {
                inverted.discs[0].remove(c);
                inverted.discs[1].remove(c);
                inverted.discs[usize::from(b)].insert(c);
            }
        }
        let legal_from = |setup: Setup| {
            Position::from_setup(*rules, setup).is_ok_and(|p| p.legal_moves().contains(sq))
        };
        if legal_from(default) || !legal_from(inverted) {
            return None;
        }
        inverted
    };
    (setup != default).then_some(StartPosition {
        setup,
        in_hand: None,
        span: None,
    })
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;
    use crate::WriteOptions;

    const WTH_331: &str = "   a  b  c  d  e  f  g  h
1 55 53 50 40 39 43 41  .
2 48 49 44 42 38  8 35 54
3 31 45  5 29 21  7 36 32
4 47 30 28  O  X  4 25 27
5 37 19 15  X  O  1  9 14
6 46 20 12 10  3  2 18 33
7 51 52 16 17  6 13 58 34
8 57 56 22 23 11 26 24  .
";

    fn read_str(text: &str) -> Vec<ParsedGame> {
        read(
            Box::new(io::Cursor::new(text.to_owned())),
            &ReadOptions::default(),
        )
        .collect::<io::Result<Vec<_>>>()
        .unwrap()
    }

    #[test]
    fn header_lines_read_as_the_general_rule_reads_them() {
        // The rule without the shortcut for a name that runs up to its colon.
        fn general(trimmed: &str) -> Option<(&str, &str)> {
            if !trimmed.as_bytes().first()?.is_ascii_alphabetic() {
                return None;
            }
            let (name, value) = trimmed.split_once(':')?;
            let name = trim(name);
            is_header_name(name).then(|| (name, trim(value)))
        }
        for line in [
            "Black: Tastet",
            "Black : Tastet ",
            "Black   :",
            "White Player-2_x: a: b",
            "Black\t: Tastet",
            "Bl\tack: Tastet",
            "Black\u{3000}: Tastet",
            "Bläck: Tastet",
            "Black; Tastet",
            "Black Tastet",
            "a  b  c  d  e  f  g  h",
            "Result:34-30",
            "Result:\u{a0}34-30\u{a0}",
            "X O . . : 1",
            "1 2 3: 4",
            "B",
            "",
        ] {
            assert_eq!(header(line), general(line), "{line:?}");
        }
    }

    #[test]
    fn printed_squares_are_off_the_board_or_filled_before_move_1() {
        for text in [
            "othello:4x4",
            "othello",
            "othello:10x10",
            "othello:octagon",
            "free",
            "multi3",
            "multi4:10x10",
            "classic,handicap=white:2",
            "othello,blocked=c3+f6",
        ] {
            let rules: Rules = text.parse().unwrap();
            let layout = Layout::of(rules);
            let (discs, neutral) = rules.start_discs();
            let filled = discs
                .iter()
                .fold(rules.blocked().union(neutral), |all, d| all.union(*d));
            for row in 0..MAX_SIDE {
                for col in 0..MAX_SIDE {
                    let sq = Square::new(col, row).unwrap();
                    let printed = !rules.board().contains(sq) || filled.contains(sq);
                    assert_eq!(layout.preprinted(sq), printed, "{text} {sq}");
                    let in_row =
                        col < rules.board().side() && layout.printed_row(row) >> col & 1 == 1;
                    assert_eq!(in_row, printed && col < rules.board().side(), "{text} {sq}");
                }
            }
        }
    }

    #[test]
    fn lines_sort_as_the_general_rule_sorts_them() {
        // The rule without the shortcuts for a line that starts with an ASCII byte.
        fn general(line: &str) -> LineSort<'_> {
            let trimmed = trim(line);
            match trimmed.as_bytes().first() {
                None => return LineSort::Blank,
                Some(b'0'..=b'9' | b'.') => return LineSort::Row,
                Some(_) => {}
            }
            if comment_or_border(trimmed) {
                return LineSort::Skip;
            }
            if let Some((name, value)) = header(trimmed) {
                return LineSort::Header(name, value);
            }
            letters_or_row(line)
        }
        for line in [
            "",
            " \t ",
            "\u{3000}",
            "1 56 51 37 36 41 49 57 60",
            "  . . 1 2",
            "\u{3000}1 2 3",
            "Black: Tastet",
            " Black : Tastet \t",
            "Black: Tastet\u{3000}",
            "\u{3000}Black: Tastet",
            "Black\t: Tastet",
            "Black Tastet \t",
            "White Player-2_x: a: b",
            "   a  b  c  d  e  f  g  h",
            "a b c d\t",
            "A B C D E F G H ",
            "a b c",
            "|a|b|c|d|",
            "X O . . 1 2 3 4",
            "# comment",
            "# 1 2 3",
            "% comment",
            "  +--+--+ ",
            "---\t",
            "====",
            "-- \u{3000}",
            "| 1 2 3 |",
            "é: x",
        ] {
            assert_eq!(sort(line), general(line), "{line:?}");
        }
    }

    #[test]
    fn reads_the_wth_331_grid() {
        let games = read_str(WTH_331);
        assert_eq!(games.len(), 1);
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.moves.len(), 58);
        assert_eq!(record.moves[0].mv.to_string(), "f5");
        assert_eq!(record.moves[54].mv.to_string(), "a1");
        assert!(record.start.is_none());
        let span = record.moves[0].span.unwrap();
        assert_eq!(&WTH_331[span.offset..span.end()], "1");
    }

    #[test]
    fn byte_order_mark_is_skipped() {
        let games = read_str(&format!("\u{feff}Event: x\n{WTH_331}"));
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.tag("Event"), Some("x"));
        assert_eq!(games[0].source.offset, 3);
    }

    #[test]
    fn writes_the_same_grid() {
        let games = read_str(WTH_331);
        let mut out = Vec::new();
        {
            let mut w = writer(Box::new(&mut out), &WriteOptions::default());
            w.write(games[0].record.as_ref().unwrap()).unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), format!("{WTH_331}\n"));
    }

    #[test]
    fn inverted_start_from_move_one() {
        let grid = WTH_331
            .replace(" O  X ", " .  . ")
            .replace(" X  O ", " .  . ")
            .replace("  4 25", " 99 25");
        let games = read_str(&grid);
        let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(
            codes,
            [
                Code::TranscriptMissingNumber,
                Code::TranscriptNumberOutOfRange
            ]
        );
        let grid = "1 . . . . . . . .\n2 . . . . . . . .\n3 . . . . 1 . . .\n4 . . . 0 0 . . .\n5 . . . 0 0 . . .\n6 . . . . . . . .\n7 . . . . . . . .\n8 . . . . . . . .\n";
        let games = read_str(grid);
        let start = games[0].record.as_ref().unwrap().start.as_ref().unwrap();
        assert!(start.setup.discs[0].contains("d4".parse().unwrap()));
    }
}
