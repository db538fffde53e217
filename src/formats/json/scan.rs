//! A byte scanner that finds the boundaries of JSON values without building them, so the
//! reader holds one game at a time.

use std::io::{self, BufRead};

use crate::formats::text::{read_line_capped, LineRead, MAX_GAME_BYTES};

/// Text read from the input with where it starts.
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
}

/// Where a scanned value stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum End {
    /// The value is complete.
    Complete,
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
                if self.cap.is_some_and(|cap| buf.len() > cap) {
                    return Ok(End::Eof);
                }
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

    /// Reads one JSON value (string, object, array or scalar) into `buf`.
    pub(super) fn value(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
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
                    if self.cap.is_some_and(|cap| buf.len() > cap) {
                        return Ok(End::Eof);
                    }
                }
                Ok(End::Complete)
            }
        }
    }

    /// Reads the rest of an object or array whose opening bracket is already in `buf`,
    /// a buffer at a time.
    fn nested_rest(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
        let mut depth = 1usize;
        let mut in_string = false;
        let mut escaped = false;
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
                let mut used = 0;
                let mut lines = 0;
                let mut done = false;
                for &b in avail {
                    used += 1;
                    if b == b'\n' {
                        lines += 1;
                    }
                    if in_string {
                        // A raw line break ends the string too: it is invalid JSON, and
                        // the parser reports it instead of the scan swallowing the file.
                        match b {
                            _ if escaped => escaped = false,
                            b'\\' => escaped = true,
                            b'"' | b'\n' => in_string = false,
                            _ => {}
                        }
                        continue;
                    }
                    match b {
                        b'"' => in_string = true,
                        b'{' | b'[' => depth += 1,
                        b'}' | b']' => {
                            depth -= 1;
                            if depth == 0 {
                                done = true;
                                break;
                            }
                        }
                        _ => {}
                    }
                }
                buf.extend_from_slice(&avail[..used]);
                (used, lines, done)
            };
            self.input.consume(used);
            self.offset += used;
            self.line += lines;
            if done {
                return Ok(End::Complete);
            }
            if self.cap.is_some_and(|cap| buf.len() > cap) {
                return Ok(End::Eof);
            }
        }
    }

    /// Reads up to and including the next line break, or to the end.
    /// A line longer than [`MAX_GAME_BYTES`] is read but not kept.
    pub(super) fn rest_of_line(&mut self, buf: &mut Vec<u8>) -> io::Result<()> {
        let n = match read_line_capped(&mut self.input, buf, MAX_GAME_BYTES)? {
            LineRead::End => 0,
            LineRead::Line(n) | LineRead::TooLong(n) => n,
        };
        self.offset += n;
        if n > 0 {
            self.line += 1;
        }
        Ok(())
    }
}
