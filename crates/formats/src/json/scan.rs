//! A byte scanner that finds the boundaries of JSON values without building them, so the
//! reader holds one game at a time.

use std::io::{self, BufRead};

use crate::byte_masks::{masks, prefix_xor, Needle, BLOCK};
use crate::text::{read_line_capped, LineRead, MAX_GAME_BYTES};

/// Text read from the input with where it starts.
#[derive(Clone)]
pub(super) struct Chunk {
    pub(super) bytes: Vec<u8>,
    pub(super) offset: usize,
    pub(super) line: usize,
}

/// How much of the first object the reader takes before it must have seen a `games` array
/// or the object's end: a bound on memory when a damaged first line runs on.
pub(super) const FIRST_OBJECT_CAP: usize = 1 << 20;

pub(super) struct Scanner<'a> {
    pub(super) input: Box<dyn BufRead + Send + 'a>,
    /// Stop scanning a value once this much is taken (reported as [`End::Eof`]); never more
    /// than [`MAX_GAME_BYTES`].
    pub(super) cap: Option<usize>,
    /// File offset of the next byte.
    pub(super) offset: usize,
    /// 0-based line of the next byte.
    pub(super) line: usize,
    /// While a value longer than the cap is read: where it starts in the buffer, and how
    /// many of its bytes were thrown away so far.
    pub(super) over: Option<(usize, usize)>,
}

/// Where a scanned value stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    /// The value is complete.
    Complete,
    /// The value is complete but longer than the cap: it was read to its end and not
    /// kept (the buffer holds what it held before it); its length in bytes.
    TooLong(usize),
    /// The input ended inside it.
    Eof,
}

impl Scanner<'_> {
    pub(super) fn peek(&mut self) -> io::Result<Option<u8>> {
        loop {
            match self.input.fill_buf() {
                Ok(buf) => return Ok(buf.first().copied()),
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            }
        }
    }

    fn bump(&mut self, byte: u8) {
        self.input.consume(1);
        self.offset += 1;
        if byte == b'\n' {
            self.line += 1;
        }
    }

    /// Takes the next byte, appending it to `buf`.
    pub(super) fn take(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.bump(b);
            buf.push(b);
        }
        Ok(b)
    }

    /// Skips whitespace, appending it to `buf`.
    pub(super) fn skip_ws(&mut self, buf: &mut Vec<u8>) -> io::Result<()> {
        while let Some(b) = self.peek()? {
            if !matches!(b, b' ' | b'\t' | b'\r' | b'\n') {
                break;
            }
            self.bump(b);
            buf.push(b);
        }
        Ok(())
    }

    /// Skips whitespace without keeping it (before the first value: a run of it holds no
    /// game, and is not held in memory).
    pub(super) fn skip_ws_unkept(&mut self) -> io::Result<()> {
        loop {
            let buf = match self.input.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            let n = buf
                .iter()
                .position(|b| !matches!(b, b' ' | b'\t' | b'\r' | b'\n'))
                .unwrap_or(buf.len());
            if n == 0 {
                return Ok(());
            }
            self.line += buf[..n].iter().filter(|&&b| b == b'\n').count();
            self.offset += n;
            self.input.consume(n);
        }
    }

    /// Skips a UTF-8 byte-order mark.
    pub(super) fn skip_bom(&mut self) -> io::Result<()> {
        let buf = self.input.fill_buf()?;
        if buf.starts_with(b"\xEF\xBB\xBF") {
            self.input.consume(3);
            self.offset += 3;
        }
        Ok(())
    }

    /// Reads the rest of a string whose opening quote is already in `buf`.
    fn string_rest(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
        loop {
            // Copy whole runs of plain bytes at once.
            let (run, done) = {
                let avail = self.input.fill_buf()?;
                if avail.is_empty() {
                    return Ok(End::Eof);
                }
                let n = avail
                    .iter()
                    .position(|&b| b == b'"' || b == b'\\' || b == b'\n')
                    .unwrap_or(avail.len());
                buf.extend_from_slice(&avail[..n]);
                (n, n < avail.len())
            };
            self.input.consume(run);
            self.offset += run;
            if !done {
                self.shed(buf);
                continue;
            }
            match self.take(buf)? {
                Some(b'"') => return Ok(End::Complete),
                Some(b'\\') => {
                    if self.take(buf)?.is_none() {
                        return Ok(End::Eof);
                    }
                }
                // A raw line break inside a string is invalid JSON: stop here so the
                // parser reports it instead of swallowing the following lines.
                Some(b'\n') => return Ok(End::Complete),
                Some(_) => {}
                None => return Ok(End::Eof),
            }
        }
    }

    /// Once `buf` holds more than the cap, the value being read is thrown away as it is
    /// read (its bytes counted), so that memory stays bounded whatever its length.
    fn shed(&mut self, buf: &mut Vec<u8>) {
        let Some((start, thrown)) = &mut self.over else {
            return;
        };
        if self.cap.is_some_and(|cap| buf.len() > cap) || *thrown > 0 {
            *thrown += buf.len().saturating_sub(*start);
            buf.truncate(*start);
        }
    }

    /// Reads one JSON value (string, object, array or scalar) into `buf`; a value longer
    /// than the cap is read to its end but not kept ([`End::TooLong`]).
    pub(super) fn value(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
        self.over = Some((buf.len(), 0));
        let end = self.value_kept(buf);
        let over = self.over.take();
        match (end?, over) {
            (End::Complete, Some((start, thrown))) if thrown > 0 => {
                let len = thrown + buf.len().saturating_sub(start);
                buf.truncate(start);
                Ok(End::TooLong(len))
            }
            (end, _) => Ok(end),
        }
    }

    fn value_kept(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
        let Some(first) = self.take(buf)? else {
            return Ok(End::Eof);
        };
        match first {
            b'"' => self.string_rest(buf),
            b'{' | b'[' => self.nested_rest(buf),
            _ => {
                while let Some(b) = self.peek()? {
                    if matches!(b, b',' | b']' | b'}' | b':' | b' ' | b'\t' | b'\r' | b'\n') {
                        break;
                    }
                    self.bump(b);
                    buf.push(b);
                    self.shed(buf);
                }
                Ok(End::Complete)
            }
        }
    }

    /// Reads the rest of an object or array whose opening bracket is already in `buf`,
    /// a buffer at a time.
    fn nested_rest(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
        let mut nesting = Nesting {
            depth: 1,
            in_string: false,
            escaped: false,
        };
        loop {
            let (used, lines, done) = {
                let avail = match self.input.fill_buf() {
                    Ok(a) => a,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(e) => return Err(e),
                };
                if avail.is_empty() {
                    return Ok(End::Eof);
                }
                let (used, lines, done) = nesting.scan(avail);
                buf.extend_from_slice(&avail[..used]);
                (used, lines, done)
            };
            self.input.consume(used);
            self.offset += used;
            self.line += lines;
            if done {
                return Ok(End::Complete);
            }
            self.shed(buf);
        }
    }

    /// Reads up to and including the next line break, or to the end.
    /// A line longer than [`MAX_GAME_BYTES`] is read but not kept ([`LineRead::TooLong`]).
    pub(super) fn rest_of_line(&mut self, buf: &mut Vec<u8>) -> io::Result<LineRead> {
        let read = read_line_capped(&mut self.input, buf, MAX_GAME_BYTES)?;
        let n = match read {
            LineRead::End => 0,
            LineRead::Line(n) | LineRead::TooLong(n) => n,
        };
        self.offset += n;
        if n > 0 {
            self.line += 1;
        }
        Ok(read)
    }
}

/// Where a scan of an object or array stands: how deep, and in a string or an escape.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Nesting {
    depth: usize,
    in_string: bool,
    escaped: bool,
}

impl Nesting {
    /// Scans `bytes` up to the bracket that closes the value: the bytes used, the line
    /// breaks among them, and whether that bracket was found (the last byte used).
    ///
    /// Blocks of 64 bytes without a backslash or a line break, outside an escape, are
    /// scanned whole: the bytes inside strings found from the quotes at once, and the
    /// brackets outside them looked at only when they may close the value. Other bytes go
    /// one at a time ([`Nesting::step`]), which is the definition.
    #[inline]
    fn scan(&mut self, bytes: &[u8]) -> (usize, usize, bool) {
        let (mut at, mut lines) = (0, 0);
        while let Some(Ok(block)) = bytes.get(at..at + BLOCK).map(<&[u8; BLOCK]>::try_from) {
            let [quotes, escapes, breaks, opens, closes] = masks(
                block,
                [
                    Needle::Byte(b'"'),
                    Needle::Byte(b'\\'),
                    Needle::Byte(b'\n'),
                    Needle::EitherCase(b'{'),
                    Needle::EitherCase(b'}'),
                ],
            );
            if self.escaped || escapes | breaks != 0 {
                for (i, &b) in block.iter().enumerate() {
                    lines += usize::from(b == b'\n');
                    if self.step(b) {
                        return (at + i + 1, lines, true);
                    }
                }
            } else {
                let strings = prefix_xor(quotes) ^ if self.in_string { u64::MAX } else { 0 };
                self.in_string ^= quotes.count_ones() % 2 == 1;
                let (opens, closes) = (opens & !strings, closes & !strings);
                if (closes.count_ones() as usize) < self.depth {
                    self.depth += opens.count_ones() as usize;
                    self.depth -= closes.count_ones() as usize;
                } else {
                    let mut brackets = opens | closes;
                    while brackets != 0 {
                        let i = brackets.trailing_zeros();
                        brackets &= brackets - 1;
                        if opens >> i & 1 == 1 {
                            self.depth += 1;
                        } else {
                            self.depth -= 1;
                            if self.depth == 0 {
                                // A bracket that counts is outside strings.
                                self.in_string = false;
                                return (at + i as usize + 1, lines, true);
                            }
                        }
                    }
                }
            }
            at += BLOCK;
        }
        for (i, &b) in bytes[at..].iter().enumerate() {
            lines += usize::from(b == b'\n');
            if self.step(b) {
                return (at + i + 1, lines, true);
            }
        }
        (bytes.len(), lines, false)
    }

    /// Takes one byte; whether it closes the value.
    #[inline]
    fn step(&mut self, b: u8) -> bool {
        if self.in_string {
            // A raw line break ends the string too: it is invalid JSON, and the parser
            // reports it instead of the scan swallowing the file.
            match b {
                _ if self.escaped => self.escaped = false,
                b'\\' => self.escaped = true,
                b'"' | b'\n' => self.in_string = false,
                _ => {}
            }
            return false;
        }
        match b {
            b'"' => self.in_string = true,
            b'{' | b'[' => self.depth += 1,
            b'}' | b']' => {
                self.depth -= 1;
                return self.depth == 0;
            }
            _ => {}
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan a byte at a time, as it was before blocks.
    fn stepped(nesting: &mut Nesting, bytes: &[u8]) -> (usize, usize, bool) {
        for (i, &b) in bytes.iter().enumerate() {
            if nesting.step(b) {
                let lines = bytes[..=i].iter().filter(|&&b| b == b'\n').count();
                return (i + 1, lines, true);
            }
        }
        let lines = bytes.iter().filter(|&&b| b == b'\n').count();
        (bytes.len(), lines, false)
    }

    #[test]
    fn blocks_scan_as_bytes_one_at_a_time() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = |n: usize| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize % n
        };
        let pieces: [&[u8]; 12] = [
            b"{",
            b"}",
            b"[",
            b"]",
            b"\"",
            b"\\",
            b"\n",
            b"\"move\":\"f5\"",
            b",",
            b"x",
            b"{\"move\":\"d6\"},",
            b"\"World Championship\"",
        ];
        for round in 0..3000 {
            let mut text = Vec::new();
            let len = 1 + next(300);
            while text.len() < len {
                // Backslashes and line breaks in some texts only, so that whole blocks
                // are scanned at once too.
                let piece = pieces[next(pieces.len())];
                if round % 2 == 0 && (piece == b"\\" || piece == b"\n") {
                    continue;
                }
                text.extend_from_slice(piece);
            }
            let start = Nesting {
                depth: 1 + next(3),
                in_string: next(2) == 1,
                escaped: next(4) == 1,
            };
            let (mut fast, mut slow) = (start, start);
            // Fed whole and cut in two, as buffers come.
            let cut = next(text.len() + 1);
            let whole = fast.scan(&text);
            assert_eq!(
                whole,
                stepped(&mut slow, &text),
                "{:?}",
                String::from_utf8_lossy(&text)
            );
            assert_eq!(fast, slow);
            let (mut fast, mut slow) = (start, start);
            let first = fast.scan(&text[..cut]);
            assert_eq!(first, stepped(&mut slow, &text[..cut]));
            if !first.2 {
                let second = fast.scan(&text[cut..]);
                assert_eq!(second, stepped(&mut slow, &text[cut..]));
            }
            assert_eq!(fast, slow);
        }
    }
}
