//! Text input that several readers share: lines with their offsets, bounded in length,
//! decoded as UTF-8 or, line by line when that fails, as Windows-1252 (the encoding of
//! WTHOR-era Windows tools), with NUL bytes reported and never passed on; and UTF-16
//! input recognised by its byte-order mark. Also the decimal numbers GGF and SGF read and
//! write (`parse_number`, `format_number`).
//!
//! Diagnostics made here: `syntax-too-long` (a line or game over [`MAX_GAME_BYTES`]: the
//! game is skipped), `syntax-bad-encoding` (a line that is not UTF-8, read as CP1252; a
//! warning), `syntax-nul-byte` (a NUL byte, read as U+FFFD; an error),
//! `syntax-game-too-large` (a game of more than [`MAX_MOVES`] moves or [`MAX_TAGS`] tags:
//! not read; [`too_large`]) and `syntax-control-character` (a control character in a
//! record's text, read as U+FFFD; a warning; [`replace_controls`]).

use crate::codes::Code;
use std::io::{self, BufRead, Read};

use crate::diagnostic::Diagnostic;
use crate::record::Span;

/// The most bytes one line, or one game, of a text record may hold. Real games take a few
/// kilobytes; anything longer is damage (or `/dev/zero`), and is skipped with a
/// `syntax-too-long` error instead of being held in memory.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// `MAX_GAME_BYTES` as people read it.
pub(crate) const MAX_GAME_TEXT: &str = "1 MiB";

/// The most bytes a reader may consume without giving a game: past this, the input is not
/// a record of this format (`/dev/zero`, a binary file read as text), and reading stops
/// with an error instead of running on.
pub const MAX_RUN_WITHOUT_GAME: u64 = 64 << 20;

/// An input that fails with `InvalidData` once [`MAX_RUN_WITHOUT_GAME`] bytes were read
/// since the count was last reset (by the game stream, at each game).
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct RunawayGuard<R> {
    input: R,
    consumed: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R> RunawayGuard<R> {
    #[doc(hidden)]
    pub fn new(input: R, consumed: std::sync::Arc<std::sync::atomic::AtomicU64>) -> Self {
        RunawayGuard { input, consumed }
    }

    /// Adds `n` bytes. The reader is the only writer of the count (the game stream only
    /// resets it between reads), so a plain load and store do: no locked add per byte on
    /// the scanners that consume a byte at a time.
    fn count(&self, n: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        self.consumed
            .store(self.consumed.load(Relaxed) + n as u64, Relaxed);
    }

    fn check(&self) -> io::Result<()> {
        if self.consumed.load(std::sync::atomic::Ordering::Relaxed) > MAX_RUN_WITHOUT_GAME {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} MiB read without a game: this is not a record of the format; the rest is not read",
                    MAX_RUN_WITHOUT_GAME >> 20
                ),
            ));
        }
        Ok(())
    }
}

impl<R: Read> Read for RunawayGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.check()?;
        let n = self.input.read(buf)?;
        self.count(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for RunawayGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.check()?;
        self.input.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.count(amount);
        self.input.consume(amount);
    }
}

/// The most moves a game read from a record may hold. No game of any variant has more
/// than about 400 (100 squares, and with 4 players up to 3 passes before each placement), so
/// a record with more is damage; it is reported with [`too_large`] and has no record, and
/// its moves are not held: a game's memory stays a small multiple of its bytes.
pub const MAX_MOVES: usize = 1_000;

/// The most tags (GGF and SGF properties, JSON tags, CSV columns) a game read from a record
/// may hold; real games have a few dozen. A game with more is reported with [`too_large`]
/// and has no record.
pub const MAX_TAGS: usize = 1_000;

/// The `syntax-game-too-large` error: the game holds more `what` (`moves`, `tags`) than
/// `limit`; `at` is the first one over it. The game is not read.
///
/// ```
/// use reversi_formats::text::{too_large, MAX_MOVES};
/// let d = too_large("moves", MAX_MOVES, None);
/// assert_eq!(d.code.name(), "syntax-game-too-large");
/// assert!(d.message.contains("more than 1000 moves"));
/// ```
pub fn too_large(what: &str, limit: usize, at: Option<Span>) -> Diagnostic {
    Diagnostic::error(
        Code::SyntaxGameTooLarge,
        format!("the game holds more than {limit} {what}, more than any real game; the game is not read"),
    )
    .at(at, format!("{what} beyond the first {limit} start here"))
    .help("this is damage or not a game record: no game of any variant has over 400 moves, nor a record a thousand tags")
}

/// What [`read_line_capped`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum LineRead {
    /// The end of the input: nothing was read.
    End,
    /// A line of this many bytes (its terminator included) is in the buffer.
    Line(usize),
    /// A line of this many bytes was longer than the cap: it was consumed, not kept.
    TooLong(usize),
}

/// Reads one line, through its `\n`, appending it to `buf` unless `buf` would then hold
/// more than `max` bytes; a longer line is read to its end and thrown away (and `buf`
/// truncated back), so that memory stays bounded whatever the input.
pub(crate) fn read_line_capped(
    input: &mut impl BufRead,
    buf: &mut Vec<u8>,
    max: usize,
) -> io::Result<LineRead> {
    let kept = buf.len();
    let mut total = 0usize;
    let mut over = false;
    loop {
        let available = match input.fill_buf() {
            Ok(b) => b,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if available.is_empty() {
            break;
        }
        let newline = memchr::memchr(b'\n', available);
        let take = newline.map_or(available.len(), |i| i + 1);
        if !over && buf.len() + take > max {
            over = true;
            buf.truncate(kept);
        }
        if !over {
            buf.extend_from_slice(&available[..take]);
        }
        total += take;
        input.consume(take);
        if newline.is_some() {
            break;
        }
    }
    Ok(match (total, over) {
        (0, _) => LineRead::End,
        (n, false) => LineRead::Line(n),
        (n, true) => LineRead::TooLong(n),
    })
}

/// The error for a line or game longer than [`MAX_GAME_BYTES`], which is skipped.
pub(crate) fn too_long(what: &str, line: usize, len: usize) -> Diagnostic {
    Diagnostic::error(
        Code::SyntaxTooLong,
        format!(
            "{what} on line {} is longer than {MAX_GAME_TEXT} ({len} bytes); the game is skipped",
            line + 1
        ),
    )
    .help(format!(
        "a record of one game takes a few kilobytes; this is damage or not a game record (the limit is {MAX_GAME_BYTES} bytes)"
    ))
}

/// Decodes a game's or a line's bytes, found at file offset `base`, starting on 0-based
/// line `line`: UTF-8 where it is valid, each line that is not read as Windows-1252, NUL
/// bytes as U+FFFD. Returns the text and a diagnostic for each kind of problem (with the
/// first place it occurs); spans point into the decoded text.
#[doc(hidden)]
pub fn decode(bytes: Vec<u8>, base: usize, line: usize) -> (String, Vec<Diagnostic>) {
    let text = match String::from_utf8(bytes) {
        Ok(text) if !text.contains('\0') => return (text, Vec::new()),
        Ok(text) => text,
        Err(e) => decode_lines(e.as_bytes()),
    };
    // Where the first NUL byte lands once the marks are out, and on which line.
    let nul = text.find('\0').map(|at| {
        let marks = text[..at].matches(CP1252_MARK).count();
        (
            at - marks * CP1252_MARK.len_utf8(),
            text[..at].matches('\n').count(),
        )
    });
    let text = if nul.is_some() {
        text.replace('\0', "\u{FFFD}")
    } else {
        text
    };
    let mut problems = Vec::new();
    if let Some((at, number, count)) = first_marked(&text, CP1252_MARK) {
        problems.push(
            Diagnostic::warning(
                Code::SyntaxBadEncoding,
                bad_encoding_message(line + number, count),
            )
            .at(Some(Span::new(base + at, 0)), "from here")
            .help("save the file as UTF-8 to be sure of its characters"),
        );
    }
    let text = text.replace(CP1252_MARK, "");
    if let Some((at, number)) = nul {
        problems.push(
            Diagnostic::error(
                Code::SyntaxNulByte,
                format!("line {} holds a NUL byte", line + number + 1),
            )
            .at(Some(Span::new(base + at, '\u{FFFD}'.len_utf8())), "a NUL byte")
            .help("a text record holds no NUL bytes: the file is damaged or binary; it was read as U+FFFD"),
        );
    }
    (text, problems)
}

/// What `syntax-bad-encoding` says of `count` lines that are not UTF-8, the first on
/// 0-based line `first`.
pub(crate) fn bad_encoding_message(first: usize, count: usize) -> String {
    if count == 1 {
        format!(
            "line {} is not valid UTF-8; it was read as Windows-1252",
            first + 1
        )
    } else {
        format!(
            "{count} lines, the first line {}, are not valid UTF-8; they were read as Windows-1252",
            first + 1
        )
    }
}

/// A private-use character put before each line decoded as CP1252, so that the lines can
/// be found and counted; taken out again before the text is used.
const CP1252_MARK: char = '\u{F8FF}';

/// Decodes `bytes` line by line: UTF-8 lines as they are, others as Windows-1252 with
/// [`CP1252_MARK`] in front.
fn decode_lines(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) => out.push_str(&text.replace(CP1252_MARK, "\u{FFFD}")),
            Err(_) => {
                out.push(CP1252_MARK);
                out.extend(line.iter().map(|&b| cp1252(b)));
            }
        }
    }
    out
}

/// Where the first `mark` is (its byte offset once the marks are taken out), on which
/// 0-based line of `text`, and how many there are.
fn first_marked(text: &str, mark: char) -> Option<(usize, usize, usize)> {
    let at = text.find(mark)?;
    let count = text.matches(mark).count();
    let number = text[..at].matches('\n').count();
    Some((at, number, count))
}

/// Windows-1252 characters of bytes 0x80..=0x9F. The five bytes the code page leaves
/// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls of the same value, as
/// the WHATWG decoder does, so every byte decodes and encodes back.
const HIGH_CONTROLS: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// Decodes Windows-1252 bytes.
///
/// ```
/// use reversi_formats::text::decode_cp1252;
/// assert_eq!(decode_cp1252(b"Pr\xe9qualif de Paris"), "Préqualif de Paris");
/// assert_eq!(decode_cp1252(b"\x80 \x9c"), "€ œ");
/// ```
pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp1252(b)).collect()
}

/// Decodes a small text file as a spreadsheet saves it: each line as UTF-8 when it is,
/// as Windows-1252 otherwise (a file of mixed lines keeps its UTF-8 ones).
///
/// ```
/// use reversi_formats::text::decode_line_by_line;
/// assert_eq!(decode_line_by_line(b"r\xe9sultat\nr\xc3\xa9sultat"), "résultat\nrésultat");
/// ```
pub fn decode_line_by_line(bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .split(|&b| b == b'\n')
        .map(|line| match std::str::from_utf8(line) {
            Ok(text) => text.to_owned(),
            Err(_) => decode_cp1252(line),
        })
        .collect();
    lines.join("\n")
}

/// Encodes `text` as Windows-1252, or returns the first character it cannot hold.
///
/// ```
/// use reversi_formats::text::encode_cp1252;
/// assert_eq!(encode_cp1252("Suède €").unwrap(), b"Su\xe8de \x80");
/// assert_eq!(encode_cp1252("Łódź"), Err('Ł'));
/// ```
pub fn encode_cp1252(text: &str) -> Result<Vec<u8>, char> {
    text.chars().map(encode_char).collect()
}

fn encode_char(c: char) -> Result<u8, char> {
    let code = u32::from(c);
    if code < 0x80 || (0xA0..=0xFF).contains(&code) {
        return u8::try_from(code).map_err(|_| c);
    }
    HIGH_CONTROLS
        .iter()
        .position(|&h| h == c)
        .and_then(|i| u8::try_from(0x80 + i).ok())
        .ok_or(c)
}

/// The character Windows-1252 gives byte `b`.
pub(crate) fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => HIGH_CONTROLS[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

/// The encoding a byte-order mark at the start of `head` names, if it is UTF-16.
pub fn utf16_bom(head: &[u8]) -> Option<Utf16> {
    match head {
        [0xFF, 0xFE, ..] => Some(Utf16::Le),
        [0xFE, 0xFF, ..] => Some(Utf16::Be),
        _ => None,
    }
}

/// A byte order of UTF-16.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Utf16 {
    /// Little-endian (`FF FE`), what Windows writes.
    Le,
    /// Big-endian (`FE FF`).
    Be,
}

impl Utf16 {
    /// The encoding's name.
    pub const fn name(self) -> &'static str {
        match self {
            Utf16::Le => "UTF-16LE",
            Utf16::Be => "UTF-16BE",
        }
    }
}

/// Reads UTF-16 (its byte-order mark first) as UTF-8, streaming; unpaired surrogates
/// become U+FFFD. Offsets in what it gives are offsets in the UTF-8 text.
///
/// ```
/// use std::io::Read;
/// use reversi_formats::text::{Utf16, Utf16Reader};
/// let bytes: Vec<u8> = [0xFF, 0xFE].into_iter()
///     .chain("f5d6é".encode_utf16().flat_map(u16::to_le_bytes))
///     .collect();
/// let mut text = String::new();
/// Utf16Reader::new(&bytes[..], Utf16::Le).read_to_string(&mut text).unwrap();
/// assert_eq!(text, "f5d6é");
/// ```
#[derive(Debug)]
pub struct Utf16Reader<R> {
    input: R,
    order: Utf16,
    bom_skipped: bool,
    /// A byte read without its pair.
    odd: Option<u8>,
    /// A high surrogate waiting for its low half.
    high: Option<u16>,
    /// UTF-8 bytes decoded but not yet handed out.
    pending: Vec<u8>,
    at: usize,
    raw: Vec<u8>,
    done: bool,
}

impl<R: Read> Utf16Reader<R> {
    /// UTF-8 from `input`, which starts with a byte-order mark of `order`.
    pub fn new(input: R, order: Utf16) -> Utf16Reader<R> {
        Utf16Reader {
            input,
            order,
            bom_skipped: false,
            odd: None,
            high: None,
            pending: Vec::new(),
            at: 0,
            raw: vec![0; 16 * 1024],
            done: false,
        }
    }

    fn unit(&self, pair: [u8; 2]) -> u16 {
        match self.order {
            Utf16::Le => u16::from_le_bytes(pair),
            Utf16::Be => u16::from_be_bytes(pair),
        }
    }

    fn push_char(&mut self, c: char) {
        let mut buf = [0; 4];
        self.pending
            .extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
    }

    fn push_unit(&mut self, unit: u16) {
        if !self.bom_skipped {
            self.bom_skipped = true;
            if unit == 0xFEFF {
                return;
            }
        }
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let c = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                self.push_char(char::from_u32(c).unwrap_or(char::REPLACEMENT_CHARACTER));
                return;
            }
            self.push_char(char::REPLACEMENT_CHARACTER);
        }
        match unit {
            0xD800..=0xDBFF => self.high = Some(unit),
            0xDC00..=0xDFFF => self.push_char(char::REPLACEMENT_CHARACTER),
            _ => self
                .push_char(char::from_u32(u32::from(unit)).unwrap_or(char::REPLACEMENT_CHARACTER)),
        }
    }

    /// Decodes the next block of input into `pending`; false at the end.
    fn refill(&mut self) -> io::Result<bool> {
        self.pending.clear();
        self.at = 0;
        while self.pending.is_empty() {
            if self.done {
                return Ok(false);
            }
            let n = match self.input.read(&mut self.raw) {
                Ok(n) => n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if n == 0 {
                self.done = true;
                if self.high.take().is_some() || self.odd.take().is_some() {
                    self.push_char(char::REPLACEMENT_CHARACTER);
                }
                continue;
            }
            let raw = std::mem::take(&mut self.raw);
            let mut bytes = &raw[..n];
            if let Some(first) = self.odd.take() {
                let unit = self.unit([first, bytes[0]]);
                self.push_unit(unit);
                bytes = &bytes[1..];
            }
            let mut pairs = bytes.chunks_exact(2);
            for pair in pairs.by_ref() {
                let unit = self.unit([pair[0], pair[1]]);
                self.push_unit(unit);
            }
            self.odd = pairs.remainder().first().copied();
            self.raw = raw;
        }
        Ok(true)
    }
}

impl<R: Read> Read for Utf16Reader<R> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        if self.at == self.pending.len() && !self.refill()? {
            return Ok(0);
        }
        let n = out.len().min(self.pending.len() - self.at);
        out[..n].copy_from_slice(&self.pending[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

/// One line of text with where it is in the file.
#[derive(Clone, Debug)]
pub(crate) struct Line {
    /// The text without its line terminator, decoded by [`decode`]; a byte-order mark at
    /// the start of the file left out; empty when the line was too long.
    pub(crate) text: String,
    /// The terminator that followed it (`"\n"`, `"\r\n"` or `""` at the end).
    pub(crate) terminator: &'static str,
    /// Byte offset of the line in the text as decoded (the file offset while the file is
    /// UTF-8).
    pub(crate) offset: usize,
    /// 0-based line number.
    pub(crate) number: usize,
    /// What decoding found (bad encoding, NUL bytes), or that the line was too long and
    /// must be skipped (`syntax-too-long`, an error).
    pub(crate) problems: Vec<Diagnostic>,
    /// Whether the line was longer than [`MAX_GAME_BYTES`] and is not in `text`.
    pub(crate) too_long: bool,
}

/// The most bytes of clean lines [`LineReader::next_lines`] hands over at once (a few
/// dozen games' worth: what a caller holds of them stays small).
const CLEAN_RUN: usize = 1 << 16;

/// Reads lines one at a time, keeping their byte offsets, each at most
/// [`MAX_GAME_BYTES`] long.
#[derive(Debug)]
pub(crate) struct LineReader<R> {
    input: R,
    offset: usize,
    number: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `input`.
    pub(crate) fn new(input: R) -> LineReader<R> {
        LineReader {
            input,
            offset: 0,
            number: 0,
            buf: Vec::new(),
        }
    }

    /// The next line, or `None` at the end.
    pub(crate) fn next_line(&mut self) -> Option<io::Result<Line>> {
        let mut text = String::new();
        Some(self.next_into(&mut text)?.map(|at| Line {
            text,
            terminator: at.terminator,
            offset: at.offset,
            number: at.number,
            problems: at.problems,
            too_long: at.too_long,
        }))
    }

    /// Hands lines to `take`, each with the rest of what [`Line`] says of it: every whole
    /// line of the next [`CLEAN_RUN`] bytes of the input's buffer when they are UTF-8
    /// without a NUL byte (looked at once, handed over from there: nothing is copied), else
    /// the next line alone, read as [`LineReader::next_into`] reads it. `None` at the end.
    pub(crate) fn next_lines(
        &mut self,
        text: &mut String,
        mut take: impl FnMut(&str, LineAt),
    ) -> Option<io::Result<()>> {
        // The first line may start with a byte-order mark: it is read as any other.
        if self.number > 0 {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => &[],
                Err(e) => return Some(Err(e)),
            };
            let window = &buf[..buf.len().min(CLEAN_RUN)];
            let run = memchr::memrchr(b'\n', window).map_or(&[][..], |last| &window[..=last]);
            if let Ok(run) = std::str::from_utf8(run) {
                if !run.is_empty() && memchr::memchr(0, run.as_bytes()).is_none() {
                    let mut start = 0;
                    for newline in memchr::memchr_iter(b'\n', run.as_bytes()) {
                        // A line feed is a character of its own: both ends are boundaries.
                        let line = run.get(start..newline).unwrap_or_default();
                        start = newline + 1;
                        let (line, terminator) = match line.strip_suffix('\r') {
                            Some(line) => (line, "\r\n"),
                            None => (line, "\n"),
                        };
                        let at = LineAt {
                            terminator,
                            offset: self.offset,
                            number: self.number,
                            problems: Vec::new(),
                            too_long: false,
                        };
                        self.offset += line.len() + terminator.len();
                        self.number += 1;
                        take(line, at);
                    }
                    let used = run.len();
                    self.input.consume(used);
                    return Some(Ok(()));
                }
            }
        }
        Some(self.next_into(text)?.map(|at| take(text, at)))
    }

    /// The next line's text into `text` (cleared first: a caller that reuses it allocates
    /// nothing for a clean line), and the rest of what [`Line`] says of it; `None` at
    /// the end.
    pub(crate) fn next_into(&mut self, text: &mut String) -> Option<io::Result<LineAt>> {
        text.clear();
        self.buf.clear();
        let read = match read_line_capped(&mut self.input, &mut self.buf, MAX_GAME_BYTES) {
            Err(e) => return Some(Err(e)),
            Ok(r) => r,
        };
        let (n, too_long) = match read {
            LineRead::End => return None,
            LineRead::Line(n) => (n, false),
            LineRead::TooLong(n) => (n, true),
        };
        let mut bytes = &self.buf[..];
        let mut terminator = "";
        if let Some(rest) = bytes.strip_suffix(b"\n") {
            bytes = rest;
            terminator = "\n";
            if let Some(rest) = bytes.strip_suffix(b"\r") {
                bytes = rest;
                terminator = "\r\n";
            }
        }
        let mut offset = self.offset;
        if self.number == 0 {
            if let Some(rest) = bytes.strip_prefix("\u{feff}".as_bytes()) {
                bytes = rest;
                offset += 3;
            }
        }
        let problems = if too_long {
            vec![too_long_line(self.number, n)]
        } else {
            match std::str::from_utf8(bytes) {
                Ok(clean) if memchr::memchr(0, bytes).is_none() => {
                    text.push_str(clean);
                    Vec::new()
                }
                _ => {
                    let (decoded, problems) = decode(bytes.to_vec(), offset, self.number);
                    *text = decoded;
                    problems
                }
            }
        };
        // Offsets count the text as decoded, so that lines joined later (a quoted CSV
        // field) keep their spans: decoding may change a line's length.
        self.offset = if too_long {
            self.offset + n
        } else {
            offset + text.len() + terminator.len()
        };
        let at = LineAt {
            terminator,
            offset,
            number: self.number,
            problems,
            too_long,
        };
        self.number += 1;
        Some(Ok(at))
    }
}

/// What [`LineReader::next_into`] says of a line besides its text: the fields of [`Line`].
pub(crate) struct LineAt {
    pub(crate) terminator: &'static str,
    pub(crate) offset: usize,
    pub(crate) number: usize,
    pub(crate) problems: Vec<Diagnostic>,
    pub(crate) too_long: bool,
}

/// The error for a line of `len` bytes, too long to read.
fn too_long_line(number: usize, len: usize) -> Diagnostic {
    too_long("the line", number, len)
}

// ----------------------------------------------------------------------------------------
// Numbers (GGF and SGF)

/// A finite decimal number (`+18.000`, `-2.5`, `.5`).
pub(crate) fn parse_number(text: &str) -> Option<f64> {
    let ok = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.'))
        && text.chars().any(|c| c.is_ascii_digit());
    text.parse::<f64>().ok().filter(|x| ok && x.is_finite())
}

/// `x` with `decimals` decimals when that is exact, else its shortest exact form.
pub(crate) fn format_number(x: f64, decimals: usize, sign: bool) -> String {
    let fixed = if sign {
        format!("{x:+.decimals$}")
    } else {
        format!("{x:.decimals$}")
    };
    if fixed.parse::<f64>() == Ok(x) {
        fixed
    } else if sign {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

/// Room for any `usize` in decimal.
pub(crate) type DecimalDigits = [u8; 20];

/// `n` in decimal, written into the end of `digits` (no formatting machinery: writers and
/// readers call this for every number of every game).
pub(crate) fn decimal(n: usize, digits: &mut DecimalDigits) -> &str {
    let mut start = digits.len();
    let mut n = n;
    loop {
        start -= 1;
        digits[start] = b'0' + (n % 10) as u8;
        n /= 10;
        if n == 0 {
            break;
        }
    }
    // Only ASCII digits were written.
    std::str::from_utf8(&digits[start..]).unwrap_or_default()
}

/// Appends `n` in decimal to `out`.
pub(crate) fn push_decimal(out: &mut String, n: usize) {
    out.push_str(decimal(n, &mut [0; 20]));
}

// ----------------------------------------------------------------------------------------
// Results written as free text (CSV columns, transcript headers)

/// The warning for a result that cannot be read where `place` (`the \`Score\` column`)
/// writes it at `span`: the game is read without a result and the text kept as the tag
/// `tag`.
pub(crate) fn unreadable_result(
    place: &str,
    tag: &str,
    e: &crate::record::score::UnreadableResult,
    span: Span,
) -> Diagnostic {
    Diagnostic::warning(
        Code::ResultUnreadable,
        format!("{place} holds no result the reader knows: {e}"),
    )
    .at(Some(span), "not a result")
    .help(format!(
        "write {}; the game is read without a result, and the text is kept as the tag `{tag}`",
        crate::record::score::SPELLINGS
    ))
}

// ----------------------------------------------------------------------------------------
// Control characters

use crate::diagnostic::controls_in;
pub use crate::diagnostic::is_control;

/// Whether `text` holds a control character ([`is_control`]) other than a carriage return
/// before a line feed (a line break, which formats allow where they allow line feeds).
///
/// ```
/// use reversi_formats::text::has_control;
/// assert!(has_control("a\u{1b}[2J") && has_control("a\rb") && has_control("\u{9b}"));
/// assert!(!has_control("two\r\nlines\tand tabs, é"));
/// ```
pub fn has_control(text: &str) -> bool {
    first_control(text).is_some()
}

/// The first control character of `text`, as [`has_control`] counts them.
pub(crate) fn first_control(text: &str) -> Option<char> {
    controls_in(text).next().map(|(_, c)| c)
}

/// `text` with each control character ([`has_control`]) replaced by U+FFFD; returns the
/// first one replaced (`None` when there was none).
///
/// ```
/// use reversi_formats::text::replace_controls;
/// let mut name = String::from("\u{1b}]0;pwned\u{7}");
/// assert_eq!(replace_controls(&mut name), Some('\u{1b}'));
/// assert_eq!(name, "\u{fffd}]0;pwned\u{fffd}");
/// let mut comment = String::from("two\r\nlines");
/// assert_eq!(replace_controls(&mut comment), None);
/// assert_eq!(comment, "two\r\nlines");
/// ```
pub fn replace_controls(text: &mut String) -> Option<char> {
    let first = first_control(text)?;
    let mut out = String::with_capacity(text.len() + 8);
    let mut from = 0;
    for (at, c) in controls_in(text) {
        out.push_str(&text[from..at]);
        out.push('\u{FFFD}');
        from = at + c.len_utf8();
    }
    out.push_str(&text[from..]);
    *text = out;
    Some(first)
}

/// `c` as `U+001B`.
pub(crate) fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Replaces the control characters of `record`'s text (tag names and values, the game
/// comment, move comments) by U+FFFD ([`replace_controls`]), and returns one
/// `syntax-control-character` warning for each value that held any, pointing at it when
/// it has a span. Readers hand out their games through this (in [`capped`](super::capped)),
/// so no record read from a file carries a control character.
pub(crate) fn clean_record(record: &mut crate::record::Record) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut report = |what: String, c: char, span: Option<Span>| {
        found.push(
            Diagnostic::warning(
                Code::SyntaxControlCharacter,
                format!(
                    "{what} holds the control character {}; it is read as U+FFFD",
                    code_point(c)
                ),
            )
            .at(span, "a control character in here")
            .help("record text holds no control characters (a NUL, an escape sequence): the file is damaged or crafted; they never reach an output"),
        );
    };
    let record_span = record.span;
    for tag in &mut record.tags {
        if let Some(c) = replace_controls(&mut tag.name) {
            report("a tag name".into(), c, tag.span.or(record_span));
        }
        if let Some(c) = replace_controls(&mut tag.value) {
            report(
                format!("the value of tag {}", tag.name),
                c,
                tag.span.or(record_span),
            );
        }
    }
    if let Some(comment) = &mut record.comment {
        if let Some(c) = replace_controls(comment) {
            report("the game comment".into(), c, record_span);
        }
    }
    for (k, m) in record.moves.iter_mut().enumerate() {
        if let Some(comment) = &mut m.comment {
            if let Some(c) = replace_controls(comment) {
                report(
                    format!("the comment on move {}", k + 1),
                    c,
                    m.span.or(record_span),
                );
            }
        }
    }
    found
}

/// Where `record`'s text (tag names and values, comments) first holds a control character
/// ([`is_control`]), in words (`U+001B in tag Black`); `None` when it holds none. Every
/// text writer refuses such a record through its [`Renderer`](super::Renderer) (with
/// `--lossy`, writes it with the characters replaced by U+FFFD); a writer of another kind
/// checks with this.
///
/// ```
/// use reversi_formats::text::control_in;
/// use reversi_formats::record::Record;
/// let mut record = Record::default();
/// assert_eq!(control_in(&record), None);
/// record.set_tag("Black", "\u{1b}]0;pwned\u{7}");
/// assert_eq!(control_in(&record).unwrap(), "a control character (U+001B in tag Black)");
/// ```
pub fn control_in(record: &crate::record::Record) -> Option<String> {
    let first = first_control;
    let found = |c: char, place: String| {
        Some(format!(
            "a control character ({} in {place})",
            code_point(c)
        ))
    };
    for tag in &record.tags {
        if let Some(c) = first(&tag.name) {
            return found(c, "a tag name".into());
        }
        if let Some(c) = first(&tag.value) {
            return found(c, format!("tag {}", tag.name));
        }
    }
    if let Some(c) = record.comment.as_deref().and_then(first) {
        return found(c, "the game comment".into());
    }
    for (k, m) in record.moves.iter().enumerate() {
        if let Some(c) = m.comment.as_deref().and_then(first) {
            return found(c, format!("the comment on move {}", k + 1));
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn numbers_are_written_in_decimal() {
        for n in [0, 7, 10, 99, 100, 65_535, 1 << 40, usize::MAX] {
            assert_eq!(decimal(n, &mut [0; 20]), n.to_string());
            let mut out = String::from("x");
            push_decimal(&mut out, n);
            assert_eq!(out, format!("x{n}"));
        }
    }

    #[test]
    fn numbers_keep_their_value() {
        assert_eq!(format_number(2.0, 2, false), "2.00");
        assert_eq!(format_number(-22.87, 3, true), "-22.870");
        assert_eq!(format_number(0.001234, 2, false), "0.001234");
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("+18.000"), Some(18.0));
    }

    /// Every line of `bytes` with what [`LineReader`] says of it, read through a buffer of
    /// `capacity` bytes: by [`LineReader::next_lines`] or one at a time.
    fn lines_of(bytes: &[u8], capacity: usize, many: bool) -> Vec<(String, String)> {
        let input = io::BufReader::with_capacity(capacity, bytes);
        let mut reader = LineReader::new(input);
        let (mut text, mut out) = (String::new(), Vec::new());
        let mut take = |line: &str, at: LineAt| {
            let what = (
                at.terminator,
                at.offset,
                at.number,
                at.too_long,
                at.problems.len(),
            );
            out.push((line.to_owned(), format!("{what:?}")));
        };
        if many {
            while let Some(read) = reader.next_lines(&mut text, &mut take) {
                read.unwrap();
            }
        } else {
            while let Some(at) = reader.next_into(&mut text) {
                take(&text, at.unwrap());
            }
        }
        out
    }

    #[test]
    fn lines_handed_over_in_runs_are_the_lines_read_one_at_a_time() {
        let pieces: [&[u8]; 9] = [
            b"1 . . 3 4\n",
            b"Black: Ann\r\n",
            b"\n",
            b"\r",
            b"\0",
            b"\xe9t\xe9\n",
            b"caf\xc3\xa9\n",
            b"\xef\xbb\xbf",
            b"  a b c\n",
        ];
        let mut seed = 0x2545_f491_4f6c_dd1du64;
        for round in 0..400 {
            let mut bytes = Vec::new();
            while bytes.len() < 50 + round * 3 {
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                // Mostly clean lines; dirty ones in some inputs only.
                let piece = pieces[seed as usize % pieces.len()];
                if round % 3 != 0 && matches!(piece, b"\0" | b"\xe9t\xe9\n" | b"\r") {
                    continue;
                }
                bytes.extend_from_slice(piece);
            }
            if round % 5 == 0 {
                bytes.extend(std::iter::repeat(b'x').take(3000));
            }
            for capacity in [8, 64, 1000, 1 << 17] {
                assert_eq!(
                    lines_of(&bytes, capacity, true),
                    lines_of(&bytes, capacity, false),
                    "{capacity}: {:?}",
                    String::from_utf8_lossy(&bytes)
                );
            }
        }
    }

    #[test]
    fn long_lines_are_consumed_not_kept() {
        let input = format!("ab\n{}\ncd", "x".repeat(100));
        let mut reader = input.as_bytes();
        let mut buf = Vec::new();
        assert_eq!(
            read_line_capped(&mut reader, &mut buf, 10).unwrap(),
            LineRead::Line(3)
        );
        buf.clear();
        assert_eq!(
            read_line_capped(&mut reader, &mut buf, 10).unwrap(),
            LineRead::TooLong(101)
        );
        assert!(buf.is_empty());
        assert_eq!(
            read_line_capped(&mut reader, &mut buf, 10).unwrap(),
            LineRead::Line(2)
        );
        assert_eq!(buf, b"cd");
        assert_eq!(
            read_line_capped(&mut reader, &mut buf, 10).unwrap(),
            LineRead::End
        );
    }

    #[test]
    fn lines_that_are_not_utf8_are_read_as_cp1252_and_reported() {
        let bytes = b"[Black \"Ren\xe9\"]\n[White \"Jos\xe9 \x80\"]\nf5 d6\n".to_vec();
        let (text, problems) = decode(bytes, 100, 4);
        assert_eq!(text, "[Black \"René\"]\n[White \"José €\"]\nf5 d6\n");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].code, Code::SyntaxBadEncoding);
        assert_eq!(
            problems[0].message,
            "2 lines, the first line 5, are not valid UTF-8; they were read as Windows-1252"
        );
        assert_eq!(problems[0].span, Some(Span::new(100, 0)));
    }

    #[test]
    fn utf8_lines_beside_bad_ones_stay_utf8() {
        let bytes = "é\n".bytes().chain(*b"\xe9\n").collect();
        let (text, problems) = decode(bytes, 0, 0);
        assert_eq!(text, "é\né\n");
        assert_eq!(
            problems[0].message,
            "line 2 is not valid UTF-8; it was read as Windows-1252"
        );
        assert_eq!(problems[0].span, Some(Span::new(3, 0)));
    }

    #[test]
    fn spans_stay_on_the_decoded_text_when_nul_bytes_and_cp1252_lines_mix() {
        // Found by fuzzing: NUL bytes before a CP1252 line moved the encoding span.
        let (text, problems) = decode(b"a\0\0b\n\xe9t\xe9\n".to_vec(), 0, 0);
        assert_eq!(text, "a\u{FFFD}\u{FFFD}b\nété\n");
        for p in &problems {
            let span = p.span.unwrap();
            assert!(text.get(span.offset..span.end()).is_some(), "{p:?}");
        }
        assert_eq!(problems[0].span, Some(Span::new(9, 0)));
        assert_eq!(&text[9..], "été\n");
        assert_eq!(problems[1].span, Some(Span::new(1, 3)));
    }

    #[test]
    fn nul_bytes_are_an_error_and_never_kept() {
        let (text, problems) = decode(b"f5\0d6".to_vec(), 10, 0);
        assert_eq!(text, "f5\u{FFFD}d6");
        assert_eq!(problems[0].code, Code::SyntaxNulByte);
        assert!(problems[0].is_error());
        assert_eq!(problems[0].span, Some(Span::new(12, 3)));
    }

    #[test]
    fn utf16_both_orders_and_split_reads() {
        let text = "[Black \"Zoë\"] 𝄞\nf5";
        for order in [Utf16::Le, Utf16::Be] {
            let mut bytes = match order {
                Utf16::Le => vec![0xFF, 0xFE],
                Utf16::Be => vec![0xFE, 0xFF],
            };
            for unit in text.encode_utf16() {
                bytes.extend(match order {
                    Utf16::Le => unit.to_le_bytes(),
                    Utf16::Be => unit.to_be_bytes(),
                });
            }
            assert_eq!(utf16_bom(&bytes), Some(order));
            // One byte at a time: pairs and surrogates split across reads.
            struct OneByte<'a>(&'a [u8]);
            impl Read for OneByte<'_> {
                fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
                    let Some((&first, rest)) = self.0.split_first() else {
                        return Ok(0);
                    };
                    out[0] = first;
                    self.0 = rest;
                    Ok(1)
                }
            }
            let mut out = String::new();
            Utf16Reader::new(OneByte(&bytes), order)
                .read_to_string(&mut out)
                .unwrap();
            assert_eq!(out, text);
        }
    }
}
