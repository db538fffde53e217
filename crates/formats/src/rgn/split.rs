//! Splitting a stream into games, line by line: a game ends where a tag line follows
//! movetext, or follows a blank line after tags. Games are appended to a caller's buffer,
//! so that reading allocates nothing per line or per game once the buffers have grown.

use std::io::{self, BufRead};
use std::ops::Range;

use crate::text::{read_line_capped, LineRead, MAX_GAME_BYTES};

/// Where one game is: its bytes in the caller's buffer (trailing blank lines left out), its
/// file offset and its 0-based first line.
#[derive(Clone, Debug)]
#[doc(hidden)]
pub struct GameSpan {
    pub range: Range<usize>,
    pub offset: usize,
    pub line: usize,
    /// The game's length when it was longer than [`MAX_GAME_BYTES`]: its bytes were not
    /// kept (`range` is empty).
    pub too_long: Option<usize>,
}

/// One line as read: where it is, and whether it was too long to keep.
#[derive(Clone, Copy)]
struct LineInfo {
    offset: usize,
    line: usize,
    /// The line's length in the file.
    len: usize,
    too_long: bool,
    /// A line too long to keep: its first byte that is not blank, when the input's buffer
    /// held it (enough to tell a tag line from movetext).
    first: Option<u8>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Tag,
    Other,
}

/// The game splitter over a stream.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct Splitter<R> {
    input: R,
    offset: usize,
    line: usize,
    /// The first line of the next game, read already; its bytes are in `pending_bytes`.
    pending: Option<LineInfo>,
    pending_bytes: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Splitter<R> {
    #[doc(hidden)]
    pub fn new(input: R) -> Splitter<R> {
        Splitter {
            input,
            offset: 0,
            line: 0,
            pending: None,
            pending_bytes: Vec::new(),
            done: false,
        }
    }

    /// Appends the next line to `out` (the pending one, if any); `None` at the end.
    fn read_line(&mut self, out: &mut Vec<u8>) -> io::Result<Option<LineInfo>> {
        if let Some(line) = self.pending.take() {
            out.extend_from_slice(&self.pending_bytes);
            return Ok(Some(line));
        }
        if self.done {
            return Ok(None);
        }
        let start = out.len();
        // The line starts the input's buffer: its first byte that is not blank, should
        // the line be too long to keep.
        let first = match self.input.fill_buf() {
            Ok(available) => available.iter().copied().find(|b| !b.is_ascii_whitespace()),
            Err(_) => None,
        };
        let (n, too_long) = match read_line_capped(&mut self.input, out, start + MAX_GAME_BYTES) {
            Ok(LineRead::End) => {
                self.done = true;
                return Ok(None);
            }
            Ok(LineRead::Line(n)) => (n, false),
            Ok(LineRead::TooLong(n)) => (n, true),
            Err(e) => {
                self.done = true;
                return Err(e);
            }
        };
        let mut offset = self.offset;
        if self.offset == 0 && out[start..].starts_with(b"\xEF\xBB\xBF") {
            out.drain(start..start + 3);
            offset = 3;
        }
        let line = LineInfo {
            offset,
            line: self.line,
            len: n,
            too_long,
            first,
        };
        self.offset += n;
        self.line += 1;
        Ok(Some(line))
    }

    /// Appends the next game's lines to `out`; a game longer than [`MAX_GAME_BYTES`] is
    /// read to its end but not kept.
    #[doc(hidden)]
    pub fn next_game(&mut self, out: &mut Vec<u8>) -> io::Result<Option<GameSpan>> {
        let mut game = GameState::new(out.len());
        loop {
            // Whole lines inside the input's buffer are taken without a call per line.
            if self.pending.is_none() && self.offset > 0 && !self.done {
                let (used, ended) = self.lines_in_buffer(&mut game, out)?;
                self.input.consume(used);
                if ended {
                    break;
                }
            }
            // A line the buffer does not hold whole, the first line (it may have a byte
            // order mark), the pending line, or the end.
            let start = out.len();
            let Some(line) = self.read_line(out)? else {
                break;
            };
            if game.take(line, out, start) {
                self.hold_back(line, out, start);
                break;
            }
        }
        Ok(game.lines.finish(out))
    }

    /// Keeps `line`, appended to `out` at `start`, for the next game.
    fn hold_back(&mut self, line: LineInfo, out: &mut Vec<u8>, start: usize) {
        self.pending = Some(line);
        self.pending_bytes.clear();
        self.pending_bytes.extend_from_slice(&out[start..]);
        out.truncate(start);
    }

    /// Takes the complete lines at the start of the input's buffer into `game` (appending
    /// them to `out`) until one starts the next game (kept as pending); returns the bytes
    /// used and whether the game ended.
    fn lines_in_buffer(
        &mut self,
        game: &mut GameState,
        out: &mut Vec<u8>,
    ) -> io::Result<(usize, bool)> {
        let available = match self.input.fill_buf() {
            Ok(available) => available,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => return Ok((0, false)),
            Err(e) => {
                self.done = true;
                return Err(e);
            }
        };
        let mut used = 0;
        while let Some(newline) = memchr::memchr(b'\n', &available[used..]) {
            let len = newline + 1;
            if len > MAX_GAME_BYTES {
                break;
            }
            let start = out.len();
            out.extend_from_slice(&available[used..used + len]);
            let line = LineInfo {
                offset: self.offset,
                line: self.line,
                len,
                too_long: false,
                first: None,
            };
            self.offset += len;
            self.line += 1;
            used += len;
            if game.take(line, out, start) {
                self.hold_back(line, out, start);
                return Ok((used, true));
            }
        }
        Ok((used, false))
    }
}

/// The state of the game being split off.
struct GameState {
    lines: GameLines,
    in_movetext: bool,
    blank_after_tags: bool,
}

impl GameState {
    fn new(base: usize) -> GameState {
        GameState {
            lines: GameLines::new(base),
            in_movetext: false,
            blank_after_tags: false,
        }
    }

    /// Takes `line`, just appended to `out` at `start`, into the game; `true` when it
    /// starts the next game instead (it is left in `out` for the caller).
    fn take(&mut self, line: LineInfo, out: &mut Vec<u8>, start: usize) -> bool {
        let kind = kind(line, &out[start..]);
        if self.lines.start.is_none() {
            if kind == LineKind::Blank {
                out.truncate(start);
            } else {
                self.in_movetext = kind == LineKind::Other;
                self.lines.push(out, start, line, kind);
            }
            return false;
        }
        let next_game = match (self.in_movetext, kind) {
            (true, LineKind::Tag) => true,
            (false, LineKind::Tag) => self.blank_after_tags,
            (false, LineKind::Blank) => {
                self.blank_after_tags = true;
                false
            }
            (false, LineKind::Other) => {
                self.in_movetext = true;
                false
            }
            _ => false,
        };
        if !next_game {
            self.lines.push(out, start, line, kind);
        }
        next_game
    }
}

/// What a line is, from its `bytes` (empty when it was too long to keep: then from its
/// first byte, so that a tag line too long to keep still starts the next game and never
/// takes the game before it along).
fn kind(line: LineInfo, bytes: &[u8]) -> LineKind {
    if line.too_long {
        return match line.first {
            Some(b'[') => LineKind::Tag,
            _ => LineKind::Other,
        };
    }
    match bytes.iter().find(|b| !b.is_ascii_whitespace()) {
        None => LineKind::Blank,
        Some(b'[') => LineKind::Tag,
        Some(_) => LineKind::Other,
    }
}

/// The lines of one game as they are appended, without its trailing blank lines.
struct GameLines {
    /// Where the game starts in the buffer.
    base: usize,
    /// File offset and 0-based line of the first line.
    start: Option<(usize, usize)>,
    /// Bytes of the game in the file.
    len: usize,
    /// The buffer's length and `len` at the end of the last line that is not blank.
    kept: (usize, usize),
    too_long: bool,
}

impl GameLines {
    fn new(base: usize) -> GameLines {
        GameLines {
            base,
            start: None,
            len: 0,
            kept: (base, 0),
            too_long: false,
        }
    }

    /// Takes the line just appended to `out` at `start` into the game.
    fn push(&mut self, out: &mut Vec<u8>, start: usize, line: LineInfo, kind: LineKind) {
        debug_assert!(start <= out.len());
        self.start.get_or_insert((line.offset, line.line));
        self.len += line.len;
        self.too_long |= line.too_long || self.len > MAX_GAME_BYTES;
        if self.too_long {
            out.truncate(self.base);
        }
        if kind != LineKind::Blank {
            self.kept = (out.len(), self.len);
        }
    }

    fn finish(self, out: &mut Vec<u8>) -> Option<GameSpan> {
        let (offset, line) = self.start?;
        let end = if self.too_long {
            self.base
        } else {
            self.kept.0
        };
        out.truncate(end);
        Some(GameSpan {
            range: self.base..end,
            offset,
            line,
            too_long: self.too_long.then_some(self.kept.1),
        })
    }
}
