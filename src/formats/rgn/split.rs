//! Splitting a stream into games, line by line: a game ends where a tag line follows
//! movetext, or follows a blank line after tags. Games are appended to a caller's buffer,
//! so that reading allocates nothing per line or per game once the buffers have grown.

use std::io::{self, BufRead};
use std::ops::Range;

use crate::formats::text::{read_line_capped, LineRead, MAX_GAME_BYTES};

/// Where one game is: its bytes in the caller's buffer (trailing blank lines left out), its
/// file offset and its 0-based first line.
#[derive(Clone, Debug)]
pub(crate) struct GameSpan {
    pub(crate) range: Range<usize>,
    pub(crate) offset: usize,
    pub(crate) line: usize,
    /// The game's length when it was longer than [`MAX_GAME_BYTES`]: its bytes were not
    /// kept (`range` is empty).
    pub(crate) too_long: Option<usize>,
}

/// One line as read: where it is, and whether it was too long to keep.
#[derive(Clone, Copy)]
struct LineInfo {
    offset: usize,
    line: usize,
    /// The line's length in the file.
    len: usize,
    too_long: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Tag,
    Other,
}

/// The game splitter over a stream.
pub(crate) struct Splitter<R> {
    input: R,
    offset: usize,
    line: usize,
    /// The line read last, its bytes in `line_bytes`.
    pending: Option<LineInfo>,
    line_bytes: Vec<u8>,
    done: bool,
}

impl<R: BufRead> Splitter<R> {
    pub(crate) fn new(input: R) -> Splitter<R> {
        Splitter {
            input,
            offset: 0,
            line: 0,
            pending: None,
            line_bytes: Vec::new(),
            done: false,
        }
    }

    /// Reads the next line into `line_bytes`, unless one is pending there.
    fn read_line(&mut self) -> io::Result<Option<LineInfo>> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        if self.done {
            return Ok(None);
        }
        self.line_bytes.clear();
        let (n, too_long) =
            match read_line_capped(&mut self.input, &mut self.line_bytes, MAX_GAME_BYTES) {
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
        if self.offset == 0 && self.line_bytes.starts_with(b"\xEF\xBB\xBF") {
            self.line_bytes.drain(..3);
            offset = 3;
        }
        let line = LineInfo {
            offset,
            line: self.line,
            len: n,
            too_long,
        };
        self.offset += n;
        self.line += 1;
        Ok(Some(line))
    }

    fn kind(&self, line: LineInfo) -> LineKind {
        if line.too_long {
            return LineKind::Other;
        }
        match self.line_bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            None => LineKind::Blank,
            Some(b'[') => LineKind::Tag,
            Some(_) => LineKind::Other,
        }
    }

    /// Appends the next game's lines to `out`; a game longer than [`MAX_GAME_BYTES`] is
    /// read to its end but not kept.
    pub(crate) fn next_game(&mut self, out: &mut Vec<u8>) -> io::Result<Option<GameSpan>> {
        let mut game = GameLines::new(out.len());
        let mut in_movetext = false;
        let mut blank_after_tags = false;
        while let Some(line) = self.read_line()? {
            let kind = self.kind(line);
            if game.start.is_none() {
                if kind != LineKind::Blank {
                    in_movetext = kind == LineKind::Other;
                    game.push(out, &self.line_bytes, line, kind);
                }
                continue;
            }
            match (in_movetext, kind) {
                (true, LineKind::Tag) => {
                    self.pending = Some(line);
                    break;
                }
                (false, LineKind::Tag) if blank_after_tags => {
                    self.pending = Some(line);
                    break;
                }
                (false, LineKind::Blank) => blank_after_tags = true,
                (false, LineKind::Other) => in_movetext = true,
                _ => {}
            }
            game.push(out, &self.line_bytes, line, kind);
        }
        Ok(game.finish(out))
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

    fn push(&mut self, out: &mut Vec<u8>, bytes: &[u8], line: LineInfo, kind: LineKind) {
        self.start.get_or_insert((line.offset, line.line));
        self.len += line.len;
        self.too_long |= line.too_long || self.len > MAX_GAME_BYTES;
        if self.too_long {
            out.truncate(self.base);
        } else {
            out.extend_from_slice(bytes);
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
