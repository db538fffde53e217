//! Cutting a byte stream into bracketed games, shared by the GGF and SGF readers.
//!
//! Both formats write a game as an opening (`(;` in GGF, `(` in SGF), properties `ID[value]`
//! and a closing bracket, with any text allowed between games. A [`Splitter`] finds the
//! next opening, keeping what came before it (up to [`GARBAGE_CAP`] bytes) for the report;
//! each format then scans the game's body with its own rules (GGF games end at `;)` and have
//! no escapes; SGF trees nest parentheses and escape with `\`). [`parse_piece`] turns the
//! bytes into a [`ParsedGame`], decoding them as [`text::decode`] does (a game longer than
//! [`MAX_GAME_BYTES`] is skipped unread); the
//! diagnostics both formats give alike are made here too.

use crate::codes::Code;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::text::{self, MAX_GAME_BYTES};
use super::ParsedGame;
use crate::diagnostic::{Collected, Diagnostic, Source};
use crate::record::{Record, Span};

/// Garbage between games kept for display, at most.
const GARBAGE_CAP: usize = 4096;

/// A byte source that counts offsets and lines.
struct Scanner<'a> {
    input: Box<dyn BufRead + Send + 'a>,
    /// File offset of the next byte.
    offset: usize,
    /// 0-based line of the next byte.
    line: usize,
}

impl<'a> Scanner<'a> {
    fn new(input: Box<dyn BufRead + Send + 'a>) -> Scanner<'a> {
        Scanner {
            input,
            offset: 0,
            line: 0,
        }
    }

    /// Appends bytes to `out` up to and including the one `stop` finds, or to the end of
    /// the input. `stop` is handed the input a buffer at a time, in order, and gives the
    /// index of the stopping byte in it, if there is one. Returns whether `stop` fired.
    ///
    /// Past `cap` bytes in `out`, bytes are scanned but not kept; the count of bytes scanned
    /// is returned too, so that the caller can tell.
    fn scan_into(
        &mut self,
        out: &mut Vec<u8>,
        cap: usize,
        mut stop: impl FnMut(&[u8]) -> Option<usize>,
    ) -> io::Result<(bool, usize)> {
        let mut scanned = 0;
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok((false, scanned));
            }
            let hit = stop(buf);
            let taken = hit.map_or(buf.len(), |i| i + 1);
            if out.len() + taken <= cap {
                out.extend_from_slice(&buf[..taken]);
            }
            scanned += taken;
            // A vectorised search: lines are long beside what a byte's count would cost.
            self.line += memchr::memchr_iter(b'\n', &buf[..taken]).count();
            self.offset += taken;
            self.input.consume(taken);
            if hit.is_some() {
                return Ok((true, scanned));
            }
        }
    }

    /// The next byte, or `None` at the end.
    fn next_byte(&mut self) -> io::Result<Option<u8>> {
        let byte = loop {
            match self.input.fill_buf() {
                Ok(buf) => break buf.first().copied(),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        };
        if let Some(b) = byte {
            self.input.consume(1);
            self.offset += 1;
            if b == b'\n' {
                self.line += 1;
            }
        }
        Ok(byte)
    }
}

/// Whether byte `b` at file offset `offset` belongs to a UTF-8 byte order mark, which
/// readers skip like whitespace.
fn is_bom_byte(offset: usize, b: u8) -> bool {
    matches!((offset, b), (0, 0xEF) | (1, 0xBB) | (2, 0xBF))
}

/// One piece of the input: a game (with whatever came before it) or trailing garbage.
#[derive(Clone)]
pub(super) struct Piece<E> {
    pub(super) bytes: Vec<u8>,
    pub(super) offset: usize,
    pub(super) line: usize,
    /// Index of the game's opening in `bytes`, if there is a game.
    pub(super) game_at: Option<usize>,
    /// Bytes of garbage that were skipped without being kept (beyond the cap).
    pub(super) dropped: usize,
    /// How the game's text ended, as the format's scan of the body says.
    pub(super) end: E,
    /// The game's length when it was longer than [`MAX_GAME_BYTES`]: its bytes were not
    /// kept, and it is skipped.
    pub(super) too_long: Option<usize>,
}

/// Finds the games of a stream, one opening at a time.
pub(super) struct Splitter<'a> {
    scanner: Scanner<'a>,
    /// The bytes that open a game.
    opening: &'static [u8],
    /// Offset and line of an opening already consumed that starts the next game.
    carry: Option<(usize, usize)>,
    /// The bytes of the last game: the room the next piece starts with.
    last_len: usize,
}

impl<'a> Splitter<'a> {
    /// A splitter of games that start with `opening` (one or two bytes).
    pub(super) fn new(input: Box<dyn BufRead + Send + 'a>, opening: &'static [u8]) -> Splitter<'a> {
        Splitter {
            scanner: Scanner::new(input),
            opening,
            carry: None,
            last_len: 0,
        }
    }

    /// Reads up to and including the next game's opening, skipping leading whitespace and
    /// keeping any garbage before it. The piece has no `game_at` when the input ended first,
    /// or when too much garbage came before the opening to keep it with the game (it is
    /// then carried over to the next piece). `None` at the end of the input.
    pub(super) fn next_opening<E: Default>(&mut self) -> io::Result<Option<Piece<E>>> {
        // Games are alike in size: room for one a little longer than the last, at once
        // (within reason: one huge game does not make every piece after it huge).
        let room = self.last_len.min(1 << 16);
        let mut piece = Piece {
            bytes: Vec::with_capacity(room + room / 8),
            offset: self.scanner.offset,
            line: self.scanner.line,
            game_at: None,
            dropped: 0,
            end: E::default(),
            too_long: None,
        };
        if let Some((offset, line)) = self.carry.take() {
            piece.bytes.extend_from_slice(self.opening);
            piece.offset = offset;
            piece.line = line;
            piece.game_at = Some(0);
            return Ok(Some(piece));
        }
        let mut prev = 0u8;
        loop {
            let line = self.scanner.line;
            let Some(b) = self.scanner.next_byte()? else {
                return Ok((!piece.bytes.is_empty()).then_some(piece));
            };
            if piece.bytes.is_empty() && piece.dropped == 0 {
                if b.is_ascii_whitespace() || is_bom_byte(self.scanner.offset - 1, b) {
                    continue;
                }
                piece.offset = self.scanner.offset - 1;
                piece.line = line;
            }
            if [prev, b].ends_with(self.opening) {
                let at = self.scanner.offset - self.opening.len();
                if piece.dropped > 0 {
                    // Too much garbage to keep with the game: report it on its own.
                    self.carry = Some((at, line));
                    return Ok(Some(piece));
                }
                piece.bytes.push(b);
                piece.game_at = Some(piece.bytes.len() - self.opening.len());
                return Ok(Some(piece));
            }
            if piece.bytes.len() < GARBAGE_CAP {
                piece.bytes.push(b);
            } else {
                piece.dropped += 1;
            }
            prev = b;
        }
    }

    /// Appends a game's bytes to `bytes` up to and including the one `stop` finds (as
    /// `Scanner::scan_into` has it), or to the end of the input. Returns whether `stop`
    /// fired.
    /// A game longer than [`MAX_GAME_BYTES`] is scanned to its end but not kept: the
    /// piece's `too_long` says so.
    pub(super) fn scan_game<E>(
        &mut self,
        piece: &mut Piece<E>,
        stop: impl FnMut(&[u8]) -> Option<usize>,
    ) -> io::Result<bool> {
        let before = piece.bytes.len();
        let (hit, scanned) = self
            .scanner
            .scan_into(&mut piece.bytes, MAX_GAME_BYTES, stop)?;
        if before + scanned > MAX_GAME_BYTES {
            piece.bytes = Vec::new();
            piece.too_long = Some(before + scanned);
        }
        self.last_len = before + scanned;
        Ok(hit)
    }

    /// Hands the opening that the piece ends with (just scanned) over to the next piece.
    pub(super) fn carry_opening<E>(&mut self, piece: &mut Piece<E>) {
        let len = self.opening.len();
        if piece.too_long.is_none() {
            piece.bytes.truncate(piece.bytes.len().saturating_sub(len));
        }
        self.carry = Some((self.scanner.offset - len, self.scanner.line));
    }
}

/// Decodes `piece` and builds its game. `parse` reads the text, which starts at file offset
/// `base`, adding to the diagnostics (after any encoding warning); it returns the record
/// and whatever else the format learns. Every diagnostic is marked as the game's.
pub(super) fn parse_piece<E, T: Default>(
    piece: Piece<E>,
    name: &Arc<str>,
    index: usize,
    parse: impl FnOnce(&str, usize, Option<usize>, &mut Collected) -> (Option<Record>, T),
) -> (ParsedGame, T) {
    decode_piece(piece, name, index).parse(parse)
}

/// A piece decoded, not yet parsed: [`Decoded::parse`] builds its game.
#[derive(Clone)]
pub(super) struct Decoded {
    pub(super) index: usize,
    name: Arc<str>,
    /// The piece's text decoded, made the game's [`Source`] when it is read in full (a
    /// plain game needs no shared copy of it).
    pub(super) text: String,
    /// Byte offset of `text` in the file, and its first line (0-based).
    pub(super) offset: usize,
    pub(super) line: usize,
    /// Where the game starts in the text, if there is a game.
    pub(super) game_at: Option<usize>,
    /// What decoding found.
    problems: Vec<Diagnostic>,
    /// The game's length when it was too long to keep.
    too_long: Option<usize>,
}

/// Decodes `piece`, game `index` of file `name`.
pub(super) fn decode_piece<E>(piece: Piece<E>, name: &Arc<str>, index: usize) -> Decoded {
    let base = piece.offset;
    // Most pieces are UTF-8 without a NUL byte: their text is their bytes, as is.
    let (text, game_at, problems) = match String::from_utf8(piece.bytes) {
        Ok(text) if memchr::memchr(0, text.as_bytes()).is_none() => {
            let game_at = piece.game_at.filter(|&at| at <= text.len());
            (text, game_at, Vec::new())
        }
        Ok(text) => decode_apart(text.into_bytes(), piece.game_at, base, piece.line),
        Err(e) => decode_apart(e.into_bytes(), piece.game_at, base, piece.line),
    };
    Decoded {
        index,
        name: name.clone(),
        text,
        offset: base,
        line: piece.line,
        game_at,
        problems,
        too_long: piece.too_long,
    }
}

/// The text of `bytes` (from file offset `base`, line `line` on) with the text before the
/// game (at `game_at`) and the game decoded apart, so that where the game starts in the
/// decoded text is known (decoding may change lengths); where it starts, and what
/// decoding found.
fn decode_apart(
    mut bytes: Vec<u8>,
    game_at: Option<usize>,
    base: usize,
    line: usize,
) -> (String, Option<usize>, Vec<Diagnostic>) {
    let game = game_at
        .filter(|&at| at <= bytes.len())
        .map(|at| bytes.split_off(at));
    let (mut text, mut problems) = text::decode(bytes, base, line);
    let game_at = game.map(|game| {
        let at = text.len();
        let line = line + text.matches('\n').count();
        let (game_text, game_problems) = text::decode(game, base + at, line);
        text.push_str(&game_text);
        problems.extend(game_problems);
        at
    });
    (text, game_at, problems)
}

impl Decoded {
    /// Builds the game, as [`parse_piece`] says.
    /// The text and where the game starts in it, when decoding found nothing and the
    /// piece holds a game.
    pub(super) fn plain(&self) -> Option<(&str, usize)> {
        let at = self
            .game_at
            .filter(|_| self.problems.is_empty() && self.too_long.is_none())?;
        Some((&self.text, at))
    }

    pub(super) fn parse<T: Default>(
        self,
        parse: impl FnOnce(&str, usize, Option<usize>, &mut Collected) -> (Option<Record>, T),
    ) -> (ParsedGame, T) {
        let mut diagnostics = Collected::default();
        for d in self.problems {
            diagnostics.push(d);
        }
        let base = self.offset;
        let (record, extra) = match self.too_long {
            Some(len) => {
                diagnostics.push(text::too_long("the game starting", self.line, len));
                (None, T::default())
            }
            None => parse(&self.text, base, self.game_at, &mut diagnostics),
        };
        let mut diagnostics = diagnostics.into_vec();
        for d in &mut diagnostics {
            d.game = Some(self.index);
        }
        let game = ParsedGame {
            index: self.index,
            source: Source {
                name: self.name,
                text: self.text.into(),
                offset: self.offset,
                line: self.line,
            },
            record,
            diagnostics,
        };
        (game, extra)
    }
}

/// The error for `junk`, text at file offset `base` before a game that is not one, of which
/// `dropped` more bytes were not kept. `a_game` names what the text is not (`a GGF game`).
pub(super) fn garbage_error(
    code: Code,
    a_game: &str,
    help: &'static str,
    junk: &str,
    base: usize,
    dropped: usize,
) -> Diagnostic {
    let mut message = format!("text between games that is not {a_game}");
    if dropped > 0 {
        message = format!(
            "{} bytes of text between games that is not {a_game}",
            junk.len() + dropped
        );
    }
    Diagnostic::error(code, message)
        .at(Some(Span::new(base, junk.len())), "not part of any game")
        .help(help)
}

/// The index of the first `]` in `rest`, the bytes after a value's `[`, or of the first `\`
/// when values have `escapes` (SGF). Most values are short (`f5`): a byte loop finds their
/// end before a vectorised search would have started.
#[inline]
pub(super) fn value_len(rest: &[u8], escapes: bool) -> Option<usize> {
    let stops = |b: u8| b == b']' || escapes && b == b'\\';
    // Most values are two bytes (a move): their end at once.
    if let [a, b, b']', ..] = *rest {
        if !stops(a) && !stops(b) {
            return Some(2);
        }
    }
    let head = rest.get(..SHORT_VALUE).unwrap_or(rest);
    if let Some(len) = head.iter().position(|&b| stops(b)) {
        return Some(len);
    }
    let tail = &rest[head.len()..];
    let found = if escapes {
        memchr::memchr2(b']', b'\\', tail)
    } else {
        memchr::memchr(b']', tail)
    };
    Some(head.len() + found?)
}

/// The bytes of a value looked at one at a time before a vectorised search.
const SHORT_VALUE: usize = 16;

/// Whether property IDs `a` and `b` are the same: most are one or two bytes, compared
/// without a call.
#[inline]
pub(super) fn same_id(a: &[u8], b: &[u8]) -> bool {
    match (a, b) {
        ([a], [b]) => a == b,
        ([a0, a1], [b0, b1]) => a0 == b0 && a1 == b1,
        _ => a == b,
    }
}

/// The error for property `id` at `span` with no `[value]` after it.
pub(super) fn missing_value(id: &str, span: Span) -> Diagnostic {
    Diagnostic::error(
        Code::SyntaxMissingValue,
        format!("property `{id}` has no `[value]`"),
    )
    .at(Some(span), "expected `[` after this")
    .help("write properties as `ID[value]`")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_value_ends_at_the_first_stop_near_or_far() {
        // Stops 7 bytes apart, then 37, then none for 40; a `\` among them.
        let text: String = (0..92)
            .map(|k| match k {
                6 | 13 | 50 | 51 => ']',
                9 | 49 => '\\',
                _ => 'x',
            })
            .collect();
        let bytes = text.as_bytes();
        for from in 0..=bytes.len() {
            let rest = &bytes[from..];
            let found = memchr::memchr(b']', rest);
            assert_eq!(value_len(rest, false), found, "from {from}");
            let found = memchr::memchr2(b']', b'\\', rest);
            assert_eq!(value_len(rest, true), found, "from {from}, escapes");
        }
    }

    #[test]
    fn ids_are_the_same_as_their_bytes() {
        let ids: [&[u8]; 8] = [b"", b"B", b"W", b"BO", b"BR", b"WB", b"BOX", b"BOY"];
        for a in ids {
            for b in ids {
                assert_eq!(same_id(a, b), a == b, "{a:?} {b:?}");
            }
        }
    }
}
