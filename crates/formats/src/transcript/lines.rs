//! A transcript file as lines: a header line, the rows of a grid, the lines between grids;
//! and the lines of one grid gathered for reading.

use super::*;

#[derive(Clone, Debug)]
pub(super) struct Token {
    pub(super) text: TokenText,
    pub(super) span: Span,
}

/// A token's text, held in place when short, as most cells are (`.`, `12`, `X`): a grid
/// of 64 cells then costs no allocation for its tokens.
#[derive(Clone, Debug)]
pub(super) enum TokenText {
    Short { bytes: [u8; 6], len: u8 },
    Long(String),
}

impl TokenText {
    pub(super) fn new(text: &str) -> TokenText {
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
pub(super) enum LineKind {
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
pub(super) enum LineSort<'t> {
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
pub(super) fn sort(line: &str) -> LineSort<'_> {
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
pub(super) fn comment_or_border(trimmed: &str) -> bool {
    if trimmed.starts_with('%') || (trimmed.starts_with('#') && !looks_like_row(trimmed)) {
        return true;
    }
    trimmed
        .bytes()
        .all(|b| matches!(b, b'-' | b'+' | b'|' | b'=' | b' '))
        && (trimmed.contains("--") || trimmed.contains(['+', '=']))
}

/// A line of column letters (`a b c d ...`, four or more) or else a row.
pub(super) fn letters_or_row(line: &str) -> LineSort<'_> {
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
pub(super) fn trim(line: &str) -> &str {
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
pub(super) fn ascii_blank(b: u8) -> bool {
    b != b'|' && ascii_separator(b)
}

/// The name and value of a header line (`trimmed` of the whitespace before it; that after
/// it changes neither), both trimmed.
pub(super) fn header(trimmed: &str) -> Option<(&str, &str)> {
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
pub(super) fn classify(line: &str, base: usize) -> LineKind {
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

pub(super) fn looks_like_row(trimmed: &str) -> bool {
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
pub(super) const NAME_BYTES: [bool; 256] = {
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
pub(super) fn tokens(line: &str) -> Tokens<'_> {
    Tokens { line, at: 0 }
}

/// The iterator of [`tokens`]: a byte at a time over ASCII (what rows are made of),
/// a character at a time over the rest.
pub(super) struct Tokens<'t> {
    pub(super) line: &'t str,
    pub(super) at: usize,
}

impl Tokens<'_> {
    /// The length of the separator (whitespace) starting with the non-ASCII byte at `i`,
    /// or 0.
    #[cold]
    pub(super) fn wide_separator(&self, i: usize) -> usize {
        match self.line[i..].chars().next() {
            Some(c) if c.is_whitespace() => c.len_utf8(),
            _ => 0,
        }
    }
}

/// Whether the ASCII byte `b` separates tokens: whitespace (as [`char::is_whitespace`]
/// has it) or `|`.
#[inline]
pub(super) fn ascii_separator(b: u8) -> bool {
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
pub(super) fn utf8_len(b: u8) -> usize {
    match b {
        0x00..=0x7F => 1,
        0xC0..=0xDF => 2,
        0xE0..=0xEF => 3,
        _ => 4,
    }
}

pub(super) fn tokenize(line: &str, base: usize) -> Vec<Token> {
    tokens(line)
        .map(|(at, text)| Token {
            text: TokenText::new(text),
            span: Span::new(base + at, text.len()),
        })
        .collect()
}

pub(super) struct HeaderLine {
    pub(super) name: String,
    pub(super) value: String,
    pub(super) span: Span,
    /// Where the value is.
    pub(super) value_span: Span,
}

pub(super) struct RowLine {
    pub(super) tokens: Vec<Token>,
    pub(super) span: Span,
}

/// The lines of one grid with its headers, read from its text.
pub(super) struct Block {
    pub(super) header_lines: Vec<HeaderLine>,
    pub(super) row_lines: Vec<RowLine>,
    /// Byte offset and 0-based line number of the block's first line.
    pub(super) start: (usize, usize),
    /// Byte offset just past the block's last line.
    pub(super) end: usize,
    /// The text from the block's first line on, line terminators included.
    pub(super) text: String,
    /// Why the block is not read: longer than [`MAX_GAME_BYTES`](text::MAX_GAME_BYTES) (`syntax-too-long`).
    pub(super) too_long: Option<Diagnostic>,
}

/// The lines of `text` (each with its terminator, as [`LineReader`] splits them) from
/// byte offset `offset` on, with one `(offset, line)` for each.
pub(super) fn lines_at(text: &str, offset: usize) -> impl Iterator<Item = (usize, &str)> {
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
pub(super) fn line_at(text: &str, start: usize) -> (&str, usize) {
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
pub(super) fn grid_lines(
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
