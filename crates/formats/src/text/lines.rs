//! Lines read with their offsets and numbers, each capped at [`MAX_GAME_BYTES`].

use std::io::{self, BufRead};

use super::encoding::decode;
use super::limits::{too_long, MAX_GAME_BYTES};
use crate::diagnostic::Diagnostic;

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

#[cfg(test)]
mod tests {
    use super::*;

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
}
