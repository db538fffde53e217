//! The record model as JSON: a versioned document or JSON Lines (`spec/json.md`).
//!
//! A **document** is `{"format": "reversi-record", "version": 1, "games": [...]}`; **JSON
//! Lines** hold one game object per line, optionally preceded by a header line
//! `{"format": "reversi-record", "version": 1}`. The reader tells them apart by the first
//! object's keys and streams both: it never holds more than one game (plus the envelope's
//! small fields) in memory.
//!
//! Each game object is a [`Record`] through serde; its fields are listed in `spec/json.md`.
//! A game that cannot be read gives a diagnostic (`syntax-json`, `json-unknown-field`,
//! `json-missing-field`, `json-bad-value`, `json-unsupported-version`) pointing at the
//! offending text, and the next game is read as usual. Problems with the file itself (a wrong
//! `format`, an unknown envelope field, text after the document) come as a record-less
//! [`ParsedGame`] with index 0, whose source is the envelope text.
//!
//! The writer writes the document form, one game per line, or JSON Lines when
//! `options.dialect` is `"lines"`.
//!
//! ```
//! use reversi_record::formats::{json, ReadOptions, WriteOptions};
//! use reversi_record::record::{MoveRecord, Record};
//! use reversi_record::Move;
//! let mut record = Record::new("anti:6x6".parse().unwrap());
//! record.set_tag("Black", "Tastet Marc");
//! record.moves.push(MoveRecord::new(Move::Place("b3".parse().unwrap())));
//! let mut out = Vec::new();
//! {
//!     let mut w = json::writer(Box::new(&mut out), &WriteOptions::default());
//!     w.write(&record).unwrap();
//!     w.finish().unwrap();
//! }
//! assert_eq!(
//!     String::from_utf8(out.clone()).unwrap(),
//!     "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [\n\
//!      {\"rules\":\"anti:6x6\",\"tags\":[{\"name\":\"Black\",\"value\":\"Tastet Marc\"}],\"moves\":[{\"move\":\"b3\"}]}\n\
//!      ]}\n"
//! );
//! let games: Vec<_> = json::read(Box::new(&out[..]), &ReadOptions::default()).collect();
//! let back = games[0].as_ref().unwrap().record.clone().unwrap();
//! assert_eq!((back.rules, back.tags, back.moves), (record.rules, record.tags, record.moves));
//! ```

use std::collections::VecDeque;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

use serde_json::error::Category;

use super::text::{read_line_capped, LineRead, MAX_GAME_BYTES};
use super::{Games, ParsedGame, ReadOptions, RecordWriter, Sniff, WriteError, WriteOptions};
use crate::diagnostic::{Diagnostic, Source};
use crate::record::{Record, ResultScore, Span};

/// The `format` value of a document or header line.
pub const FORMAT_NAME: &str = "reversi-record";

/// The schema version this crate reads and writes.
pub const VERSION: u64 = 1;

/// Whether the input looks like JSON: its first non-blank byte (after a BOM) opens an object
/// whose first key begins, or that closes at once.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = input
        .head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(input.head);
    let mut bytes = head.iter().copied().filter(|b| !b.is_ascii_whitespace());
    bytes.next() == Some(b'{') && matches!(bytes.next(), Some(b'"') | Some(b'}') | None)
}

/// Reads games from a document or from JSON Lines, game by game.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(JsonGames {
        scanner: Scanner {
            input,
            cap: Some(MAX_GAME_BYTES),
            offset: 0,
            line: 0,
        },
        name: options.name.clone(),
        state: State::Start,
        pending: VecDeque::new(),
        next_index: 1,
        version: Version::Assumed,
        failed: false,
    })
}

/// A writer of the document form, or of JSON Lines when `options.dialect` is `"lines"`.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    let shape = match options.dialect.as_deref() {
        None => Ok(Shape::Document),
        Some(d) if d.eq_ignore_ascii_case("document") => Ok(Shape::Document),
        Some(d) if d.eq_ignore_ascii_case("lines") || d.eq_ignore_ascii_case("jsonl") => {
            Ok(Shape::Lines)
        }
        Some(d) => Err(d.to_owned()),
    };
    Box::new(JsonWriter {
        out,
        shape,
        lossy: options.lossy,
        started: false,
        finished: false,
        written: 0,
    })
}

// ---------------------------------------------------------------------------------------
// Writing

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Shape {
    Document,
    Lines,
}

struct JsonWriter<'a> {
    out: Box<dyn Write + Send + 'a>,
    shape: Result<Shape, String>,
    lossy: bool,
    started: bool,
    finished: bool,
    written: usize,
}

const DOCUMENT_HEAD: &str = "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [";

impl JsonWriter<'_> {
    fn shape(&self) -> io::Result<Shape> {
        self.shape.clone().map_err(|d| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("expected a JSON dialect (document or lines), but found `{d}` instead"),
            )
        })
    }
}

impl RecordWriter for JsonWriter<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        let shape = self.shape()?;
        let losses = non_finite_numbers(record);
        if !losses.is_empty() && !self.lossy {
            return Err(WriteError::CannotHold(losses));
        }
        let mut text = if losses.is_empty() {
            serde_json::to_vec(record)
        } else {
            serde_json::to_vec(&without_non_finite_numbers(record))
        }
        .map_err(io::Error::from)?;
        match shape {
            Shape::Document => {
                let mut chunk = Vec::with_capacity(text.len() + DOCUMENT_HEAD.len() + 3);
                if !self.started {
                    chunk.extend_from_slice(DOCUMENT_HEAD.as_bytes());
                }
                chunk.extend_from_slice(if self.written == 0 { b"\n" } else { b",\n" });
                chunk.append(&mut text);
                self.out.write_all(&chunk)?;
            }
            Shape::Lines => {
                text.push(b'\n');
                self.out.write_all(&text)?;
            }
        }
        self.started = true;
        self.written += 1;
        Ok(losses)
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        if self.shape()? == Shape::Document {
            if !self.started {
                self.out.write_all(DOCUMENT_HEAD.as_bytes())?;
            }
            self.out.write_all(b"\n]}\n")?;
        }
        self.finished = true;
        self.out.flush()
    }
}

/// The numbers JSON cannot hold (NaN and infinities), one phrase each.
fn non_finite_numbers(record: &Record) -> Vec<String> {
    let mut lost = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if m.eval.is_some_and(|v| !v.is_finite()) {
            lost.push(format!("a non-finite eval on move {}", i + 1));
        }
        if m.time.is_some_and(|v| !v.is_finite()) {
            lost.push(format!("a non-finite time on move {}", i + 1));
        }
    }
    if let Some(r) = &record.result {
        if matches!(r.score, ResultScore::Margin(m) if !m.is_finite()) {
            lost.push("a non-finite result margin".to_owned());
        }
    }
    lost
}

fn without_non_finite_numbers(record: &Record) -> Record {
    let mut r = record.clone();
    for m in &mut r.moves {
        m.eval = m.eval.filter(|v| v.is_finite());
        m.time = m.time.filter(|v| v.is_finite());
    }
    if let Some(result) = &mut r.result {
        if matches!(result.score, ResultScore::Margin(m) if !m.is_finite()) {
            result.score = ResultScore::None;
        }
    }
    r
}

// ---------------------------------------------------------------------------------------
// Reading: a byte scanner that finds the boundaries of JSON values without building them

/// How much of the first object the reader takes before it must have seen a `games` array
/// or the object's end: a bound on memory when a damaged first line runs on.
const FIRST_OBJECT_CAP: usize = 1 << 20;

struct Scanner<'a> {
    input: Box<dyn BufRead + Send + 'a>,
    /// Stop scanning a value once this much is taken (reported as [`End::Eof`]); never more
    /// than [`MAX_GAME_BYTES`].
    cap: Option<usize>,
    /// File offset of the next byte.
    offset: usize,
    /// 0-based line of the next byte.
    line: usize,
}

/// Where a scanned value stopped.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum End {
    /// The value is complete.
    Complete,
    /// The input ended inside it.
    Eof,
}

impl Scanner<'_> {
    fn peek(&mut self) -> io::Result<Option<u8>> {
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
    fn take(&mut self, buf: &mut Vec<u8>) -> io::Result<Option<u8>> {
        let b = self.peek()?;
        if let Some(b) = b {
            self.bump(b);
            buf.push(b);
        }
        Ok(b)
    }

    /// Skips whitespace, appending it to `buf`.
    fn skip_ws(&mut self, buf: &mut Vec<u8>) -> io::Result<()> {
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
    fn skip_bom(&mut self) -> io::Result<()> {
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
    fn value(&mut self, buf: &mut Vec<u8>) -> io::Result<End> {
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
    fn rest_of_line(&mut self, buf: &mut Vec<u8>) -> io::Result<()> {
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

// ---------------------------------------------------------------------------------------
// Reading: the game stream

/// Which schema version the games being read were written under.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Version {
    /// Stated as this crate's version.
    Supported,
    /// Not stated (yet): read as version 1.
    Assumed,
    /// Stated as another version.
    Unsupported(u64),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum State {
    /// Nothing read yet.
    Start,
    /// Inside the document's `games` array, before an element or the closing `]`.
    Games,
    /// After the `games` array: more envelope fields or the closing `}`.
    AfterGames,
    /// JSON Lines, at the start of a line.
    Lines,
    /// Done.
    Done,
}

struct JsonGames<'a> {
    scanner: Scanner<'a>,
    name: Arc<str>,
    state: State,
    pending: VecDeque<ParsedGame>,
    next_index: usize,
    version: Version,
    failed: bool,
}

/// Text read from the input with where it starts.
struct Chunk {
    bytes: Vec<u8>,
    offset: usize,
    line: usize,
}

/// One field of an envelope (document or header line): its key and raw value, as offsets
/// into the envelope text.
struct Field {
    key: String,
    key_at: (usize, usize),
    value_at: (usize, usize),
}

impl Iterator for JsonGames<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        loop {
            if let Some(game) = self.pending.pop_front() {
                return Some(Ok(game));
            }
            if self.failed || self.state == State::Done {
                return None;
            }
            let step = match self.state {
                State::Start => self.start(),
                State::Games => self.game_element(),
                State::AfterGames => self.after_games(),
                State::Lines => self.line(),
                State::Done => Ok(()),
            };
            if let Err(e) = step {
                self.failed = true;
                return Some(Err(e));
            }
        }
    }
}

impl JsonGames<'_> {
    fn chunk_start(&self) -> Chunk {
        Chunk {
            bytes: Vec::new(),
            offset: self.scanner.offset,
            line: self.scanner.line,
        }
    }

    /// Reads the first object key by key, to tell a document (it has a `games` array) from
    /// JSON Lines (it closes first).
    fn start(&mut self) -> io::Result<()> {
        self.scanner.skip_bom()?;
        let mut lead = Vec::new();
        self.scanner.skip_ws(&mut lead)?;
        match self.scanner.peek()? {
            None => {
                self.state = State::Done;
                return Ok(());
            }
            Some(b'{') => {}
            Some(_) => {
                self.state = State::Lines;
                return Ok(());
            }
        }
        let mut head = self.chunk_start();
        let mut fields = Vec::new();
        self.scanner.cap = Some(FIRST_OBJECT_CAP);
        self.scanner.take(&mut head.bytes)?;
        loop {
            self.scanner.skip_ws(&mut head.bytes)?;
            match self.scanner.peek()? {
                Some(b'}') if fields.is_empty() => {
                    self.scanner.take(&mut head.bytes)?;
                    return self.first_object_closed(head, fields);
                }
                Some(b'"') => {}
                _ => return self.broken_first_object(head),
            }
            let key_start = head.bytes.len();
            if self.scanner.value(&mut head.bytes)? == End::Eof {
                return self.broken_first_object(head);
            }
            let key_at = (key_start, head.bytes.len());
            let Ok(key) = serde_json::from_slice::<String>(&head.bytes[key_start..]) else {
                return self.broken_first_object(head);
            };
            self.scanner.skip_ws(&mut head.bytes)?;
            if self.scanner.peek()? != Some(b':') {
                return self.broken_first_object(head);
            }
            self.scanner.take(&mut head.bytes)?;
            self.scanner.skip_ws(&mut head.bytes)?;
            if key == "games" && self.scanner.peek()? == Some(b'[') {
                let at = head.bytes.len();
                self.scanner.take(&mut head.bytes)?;
                fields.push(Field {
                    key,
                    key_at,
                    value_at: (at, at + 1),
                });
                self.scanner.cap = Some(MAX_GAME_BYTES);
                self.envelope(&head, &fields, true);
                self.state = State::Games;
                return Ok(());
            }
            let value_start = head.bytes.len();
            if self.scanner.value(&mut head.bytes)? == End::Eof {
                return self.broken_first_object(head);
            }
            fields.push(Field {
                key,
                key_at,
                value_at: (value_start, head.bytes.len()),
            });
            self.scanner.skip_ws(&mut head.bytes)?;
            match self.scanner.take(&mut head.bytes)? {
                Some(b',') => {}
                Some(b'}') => return self.first_object_closed(head, fields),
                _ => return self.broken_first_object(head),
            }
        }
    }

    /// The first object closed without a `games` array: a header line or a game.
    fn first_object_closed(&mut self, head: Chunk, fields: Vec<Field>) -> io::Result<()> {
        self.scanner.cap = Some(MAX_GAME_BYTES);
        self.state = State::Lines;
        let envelope = fields
            .iter()
            .any(|f| matches!(f.key.as_str(), "format" | "version" | "games"));
        let rest_offset = self.scanner.offset;
        let rest_line = self.scanner.line;
        let mut rest = Vec::new();
        self.scanner.rest_of_line(&mut rest)?;
        let garbled = || {
            head.bytes.contains(&b'\n')
                && serde_json::from_slice::<serde::de::IgnoredAny>(&head.bytes)
                    .is_err_and(|e| e.classify() != Category::Data)
        };
        if envelope {
            self.envelope(&head, &fields, false);
        } else if garbled() {
            // A damaged first line of JSON Lines that ran into the next lines.
            self.split_lines(head);
        } else {
            self.game(head);
        }
        if !rest.iter().all(u8::is_ascii_whitespace) {
            let at = Some(Span::new(rest_offset, rest.len()));
            self.pending.push_back(self.file_problem(
                Chunk {
                    bytes: rest,
                    offset: rest_offset,
                    line: rest_line,
                },
                vec![Diagnostic::error(
                        "syntax-json",
                        "expected a line break after the object",
                    )
                    .at(at, "unexpected")
                    .help("in JSON Lines each game is one object on its own line")],
                0,
            ));
        }
        Ok(())
    }

    /// The first object could not be scanned (or grew past [`FIRST_OBJECT_CAP`] before
    /// showing a `games` array): finish its line and read what was taken line by line, so
    /// that a damaged first line of JSON Lines costs that line only.
    fn broken_first_object(&mut self, mut head: Chunk) -> io::Result<()> {
        self.scanner.cap = Some(MAX_GAME_BYTES);
        if head.bytes.last() != Some(&b'\n') {
            self.scanner.rest_of_line(&mut head.bytes)?;
        }
        self.state = State::Lines;
        self.split_lines(head);
        Ok(())
    }

    /// Checks the envelope fields of a document (`in_document`) or header line.
    fn envelope(&mut self, head: &Chunk, fields: &[Field], in_document: bool) {
        let mut problems = Vec::new();
        let span = |(a, b): (usize, usize)| Some(Span::new(head.offset + a, b - a));
        let raw = |(a, b): (usize, usize)| &head.bytes[a..b];
        let mut saw_format = false;
        let mut saw_version = false;
        for f in fields {
            match f.key.as_str() {
                "format" => {
                    saw_format = true;
                    match serde_json::from_slice::<String>(raw(f.value_at)) {
                        Ok(name) if name == FORMAT_NAME => {}
                        _ => problems.push(
                            Diagnostic::error(
                                "json-bad-envelope",
                                format!(
                                    "expected format `{FORMAT_NAME}`, but found `{}` instead",
                                    String::from_utf8_lossy(raw(f.value_at))
                                ),
                            )
                            .at(span(f.value_at), "not a reversi-record file")
                            .help("this reader knows only reversi-record JSON (spec/json.md)"),
                        ),
                    }
                }
                "version" => {
                    saw_version = true;
                    match serde_json::from_slice::<u64>(raw(f.value_at)) {
                        Ok(VERSION) => self.version = Version::Supported,
                        Ok(v) => self.version = Version::Unsupported(v),
                        Err(_) => {
                            self.version = Version::Unsupported(0);
                            problems.push(
                                Diagnostic::error(
                                    "json-unsupported-version",
                                    format!(
                                        "expected a version number, but found `{}` instead",
                                        String::from_utf8_lossy(raw(f.value_at))
                                    ),
                                )
                                .at(span(f.value_at), "not a version")
                                .help("write `\"version\": 1`"),
                            );
                        }
                    }
                }
                "games" if in_document => {}
                "games" => problems.push(
                    Diagnostic::error("json-bad-envelope", "expected `games` to be an array")
                        .at(span(f.value_at), "not an array")
                        .help("write the games as `\"games\": [{...}, {...}]`"),
                ),
                _ => problems.push(
                    Diagnostic::error(
                        "json-unknown-field",
                        format!("unknown field `{}` in the document envelope", f.key),
                    )
                    .at(span(f.key_at), "unknown field")
                    .help("the envelope holds only `format`, `version` and `games`"),
                ),
            }
        }
        if in_document && !saw_format {
            problems.push(
                Diagnostic::warning(
                    "json-bad-envelope",
                    "the document does not state its format",
                )
                .at(
                    Some(Span::new(head.offset, 1)),
                    "no `format` before `games`",
                )
                .help("start the document with `\"format\": \"reversi-record\"`"),
            );
        }
        if !in_document && !saw_version {
            self.version = Version::Assumed;
        }
        if !problems.is_empty() {
            let text = Chunk {
                bytes: head.bytes.clone(),
                offset: head.offset,
                line: head.line,
            };
            let entry = self.file_problem(text, problems, 0);
            self.pending.push_back(entry);
        }
    }

    /// A record-less entry for problems of the file itself. Their spans, taken on the raw
    /// bytes, are moved onto the source text (where an invalid byte is a three-byte U+FFFD)
    /// and widened to whole characters.
    fn file_problem(&self, chunk: Chunk, diagnostics: Vec<Diagnostic>, index: usize) -> ParsedGame {
        let source = self.source(&chunk).0;
        let diagnostics = diagnostics
            .into_iter()
            .map(|mut d| {
                let spans = d
                    .span
                    .iter_mut()
                    .chain(d.related.iter_mut().map(|l| &mut l.span));
                for span in spans {
                    *span = text_span(*span, &chunk, &source.text);
                }
                d
            })
            .collect();
        ParsedGame {
            index,
            source,
            record: None,
            diagnostics,
        }
    }

    fn source(&self, chunk: &Chunk) -> (Source, Option<Diagnostic>) {
        let (text, problem) = match std::str::from_utf8(&chunk.bytes) {
            Ok(t) => (t.to_owned(), None),
            Err(e) => {
                let at = e.valid_up_to();
                let d = Diagnostic::error(
                    "syntax-json",
                    "expected UTF-8 text, but found a byte that is not",
                )
                // The span covers the U+FFFD that stands for the bad byte in the text.
                .at(
                    Some(Span::new(
                        chunk.offset + at,
                        char::REPLACEMENT_CHARACTER.len_utf8(),
                    )),
                    "not UTF-8",
                )
                .help("JSON files are UTF-8: re-encode the file");
                (String::from_utf8_lossy(&chunk.bytes).into_owned(), Some(d))
            }
        };
        (
            Source {
                name: self.name.clone(),
                text: text.into(),
                offset: chunk.offset,
                line: chunk.line,
            },
            problem,
        )
    }

    /// Parses one game object and queues it.
    fn game(&mut self, chunk: Chunk) {
        let index = self.next_index;
        self.next_index += 1;
        let (source, encoding) = self.source(&chunk);
        let whole = Some(Span::new(chunk.offset, chunk.bytes.len()));
        let mut diagnostics = Vec::new();
        let mut record = None;
        if let Some(d) = encoding {
            diagnostics.push(d);
        } else if let Version::Unsupported(v) = self.version {
            diagnostics.push(
                Diagnostic::error(
                    "json-unsupported-version",
                    format!("expected a version {VERSION} game, but this one is written under version {v}"),
                )
                .at(whole, format!("a version {v} game"))
                .help("this reader knows version 1 only: use a newer reversi-record, or rewrite the file as version 1"),
            );
        } else {
            match serde_json::from_str::<Record>(&source.text) {
                Ok(mut r) => {
                    r.span = whole;
                    record = Some(r);
                }
                Err(e) => diagnostics.push(serde_diagnostic(&e, &source.text, chunk.offset)),
            }
        }
        self.pending.push_back(ParsedGame {
            index,
            source,
            record,
            diagnostics: diagnostics.into_iter().map(|d| d.in_game(index)).collect(),
        });
    }

    /// Reads one element of the document's `games` array, or its closing `]`.
    fn game_element(&mut self) -> io::Result<()> {
        let mut skipped = Vec::new();
        self.scanner.skip_ws(&mut skipped)?;
        match self.scanner.peek()? {
            Some(b']') => {
                self.scanner.take(&mut skipped)?;
                self.state = State::AfterGames;
                return Ok(());
            }
            None => {
                self.unexpected_end("the `games` array is not closed");
                return Ok(());
            }
            Some(_) => {}
        }
        let mut element = self.chunk_start();
        let end = self.scanner.value(&mut element.bytes)?;
        if end == End::Eof {
            self.game(element);
            self.state = State::Done;
            return Ok(());
        }
        self.game(element);
        let mut between = self.chunk_start();
        self.scanner.skip_ws(&mut between.bytes)?;
        match self.scanner.peek()? {
            Some(b',') => {
                self.scanner.take(&mut between.bytes)?;
            }
            Some(b']') => {}
            None => self.unexpected_end("the `games` array is not closed"),
            Some(next) => {
                // A missing comma before the next game: report it and read on. Anything
                // else ends the array as far as this reader can tell.
                let at = self.scanner.offset;
                let mut help = "separate the games of the array with commas";
                if next == b'{' {
                    between.bytes.push(next);
                } else {
                    self.scanner.rest_of_line(&mut between.bytes)?;
                    self.state = State::Done;
                    help = "the games array holds only game objects separated by commas";
                }
                let diagnostic = Diagnostic::error(
                    "syntax-json",
                    "expected `,` or `]` after a game in the `games` array",
                )
                .at(Some(Span::new(at, 1)), "expected `,` or `]` before this")
                .help(help);
                self.pending
                    .push_back(self.file_problem(between, vec![diagnostic], 0));
            }
        }
        Ok(())
    }

    fn unexpected_end(&mut self, what: &str) {
        let chunk = self.chunk_start();
        let diagnostic = Diagnostic::error("syntax-json", format!("the file ends early: {what}"))
            .at(Some(Span::new(chunk.offset, 0)), "the end of the file")
            .help("the file may be truncated; a document ends with `]}`");
        self.pending
            .push_back(self.file_problem(chunk, vec![diagnostic], 0));
        self.state = State::Done;
    }

    /// After the `games` array: late envelope fields, the closing `}`, then only blanks.
    fn after_games(&mut self) -> io::Result<()> {
        let mut tail = self.chunk_start();
        let mut fields = Vec::new();
        loop {
            self.scanner.skip_ws(&mut tail.bytes)?;
            match self.scanner.take(&mut tail.bytes)? {
                Some(b'}') => break,
                Some(b',') => {}
                None => {
                    self.unexpected_end("the document is not closed with `}`");
                    return Ok(());
                }
                Some(_) => return self.trailing(tail),
            }
            self.scanner.skip_ws(&mut tail.bytes)?;
            let key_start = tail.bytes.len();
            if self.scanner.peek()? != Some(b'"')
                || self.scanner.value(&mut tail.bytes)? == End::Eof
            {
                return self.trailing(tail);
            }
            let key_at = (key_start, tail.bytes.len());
            let key =
                serde_json::from_slice::<String>(&tail.bytes[key_start..]).unwrap_or_default();
            self.scanner.skip_ws(&mut tail.bytes)?;
            if self.scanner.take(&mut tail.bytes)? != Some(b':') {
                return self.trailing(tail);
            }
            self.scanner.skip_ws(&mut tail.bytes)?;
            let value_start = tail.bytes.len();
            if self.scanner.value(&mut tail.bytes)? == End::Eof {
                return self.trailing(tail);
            }
            fields.push(Field {
                key,
                key_at,
                value_at: (value_start, tail.bytes.len()),
            });
        }
        self.late_envelope(&tail, &fields);
        let mut rest = self.chunk_start();
        self.scanner.skip_ws(&mut rest.bytes)?;
        if self.scanner.peek()?.is_some() {
            rest.offset = self.scanner.offset;
            rest.line = self.scanner.line;
            rest.bytes.clear();
            self.scanner.rest_of_line(&mut rest.bytes)?;
            return self.trailing(rest);
        }
        self.state = State::Done;
        Ok(())
    }

    /// Fields after the `games` array (JSON keys may come in any order, `jq -S` sorts
    /// `version` last): checked like the envelope's. A version stated only here applied to
    /// games already read as version 1; a version stated nowhere is worth a warning.
    fn late_envelope(&mut self, tail: &Chunk, fields: &[Field]) {
        let mut problems = Vec::new();
        let version_only_here = self.version == Version::Assumed;
        for f in fields {
            let span = Some(Span::new(tail.offset + f.key_at.0, f.key_at.1 - f.key_at.0));
            match f.key.as_str() {
                "version" if version_only_here => {
                    let raw = &tail.bytes[f.value_at.0..f.value_at.1];
                    let stated = serde_json::from_slice::<u64>(raw).ok();
                    self.version = match stated {
                        Some(VERSION) => Version::Supported,
                        other => Version::Unsupported(other.unwrap_or(0)),
                    };
                    if stated != Some(VERSION) {
                        problems.push(
                            Diagnostic::error(
                                "json-unsupported-version",
                                format!(
                                    "the document states version `{}` after its games, which were read as version 1",
                                    String::from_utf8_lossy(raw)
                                ),
                            )
                            .at(span, "stated after the games")
                            .help("this reader knows version 1 only; put `version` before `games`"),
                        );
                    }
                }
                "format" => {
                    let raw = &tail.bytes[f.value_at.0..f.value_at.1];
                    if serde_json::from_slice::<String>(raw).ok().as_deref() != Some(FORMAT_NAME) {
                        problems.push(
                            Diagnostic::error(
                                "json-bad-envelope",
                                format!(
                                    "expected format `{FORMAT_NAME}`, but found `{}` instead",
                                    String::from_utf8_lossy(raw)
                                ),
                            )
                            .at(span, "not a reversi-record file")
                            .help("this reader knows only reversi-record JSON (spec/json.md)"),
                        );
                    }
                }
                "version" => {}
                _ => problems.push(
                    Diagnostic::error(
                        "json-unknown-field",
                        format!("unknown field `{}` in the document envelope", f.key),
                    )
                    .at(span, "unknown field")
                    .help("the envelope holds only `format`, `version` and `games`"),
                ),
            }
        }
        if self.version == Version::Assumed {
            problems.push(
                Diagnostic::warning(
                    "json-missing-version",
                    "the document does not state its version: its games were read as version 1",
                )
                .at(
                    Some(Span::new(
                        tail.offset + tail.bytes.len().saturating_sub(1),
                        1,
                    )),
                    "the document ends without `version`",
                )
                .help("write `\"version\": 1` before `games`"),
            );
        }
        if !problems.is_empty() {
            let chunk = Chunk {
                bytes: tail.bytes.clone(),
                offset: tail.offset,
                line: tail.line,
            };
            let entry = self.file_problem(chunk, problems, 0);
            self.pending.push_back(entry);
        }
    }

    fn trailing(&mut self, chunk: Chunk) -> io::Result<()> {
        let at = Some(Span::new(chunk.offset, chunk.bytes.len().min(40)));
        let d = Diagnostic::error("syntax-json", "unexpected text after the `games` array")
            .at(at, "unexpected")
            .help("a document ends with `]}` after its last game");
        self.pending.push_back(self.file_problem(chunk, vec![d], 0));
        self.state = State::Done;
        Ok(())
    }

    /// Reads one line of JSON Lines: a game, a header, or nothing.
    fn line(&mut self) -> io::Result<()> {
        let mut chunk = self.chunk_start();
        self.scanner.rest_of_line(&mut chunk.bytes)?;
        if chunk.bytes.is_empty() {
            self.state = State::Done;
            return Ok(());
        }
        self.line_unit(chunk);
        Ok(())
    }

    /// Reads each line of `chunk` as a line of JSON Lines.
    fn split_lines(&mut self, chunk: Chunk) {
        let mut offset = chunk.offset;
        for (i, text) in chunk.bytes.split_inclusive(|&b| b == b'\n').enumerate() {
            self.line_unit(Chunk {
                bytes: text.to_vec(),
                offset,
                line: chunk.line + i,
            });
            offset += text.len();
        }
    }

    /// One line of JSON Lines, line break included: a game, a header, or nothing.
    fn line_unit(&mut self, mut chunk: Chunk) {
        let start = chunk
            .bytes
            .iter()
            .position(|b| !b.is_ascii_whitespace())
            .unwrap_or(chunk.bytes.len());
        let end = chunk
            .bytes
            .iter()
            .rposition(|b| !b.is_ascii_whitespace())
            .map_or(start, |e| e + 1);
        if start == end {
            return;
        }
        chunk.bytes.truncate(end);
        chunk.bytes.drain(..start);
        chunk.offset += start;
        if let Ok(header) = serde_json::from_slice::<HeaderProbe>(&chunk.bytes) {
            if header.format.is_some() || header.version.is_some() {
                let fields = header_fields(&chunk.bytes);
                self.envelope(&chunk, &fields, false);
                return;
            }
        }
        self.game(chunk);
    }
}

/// Recognises a JSON Lines header: an object with only `format` and `version`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct HeaderProbe {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

/// The fields of a header line (a flat object), as offsets into it.
fn header_fields(text: &[u8]) -> Vec<Field> {
    let mut scanner = Scanner {
        input: Box::new(text),
        cap: Some(MAX_GAME_BYTES),
        offset: 0,
        line: 0,
    };
    let mut sink = Vec::new();
    let mut fields = Vec::new();
    let mut step = || -> io::Result<()> {
        scanner.take(&mut sink)?;
        loop {
            scanner.skip_ws(&mut sink)?;
            if scanner.peek()? != Some(b'"') {
                return Ok(());
            }
            let key_start = scanner.offset;
            scanner.value(&mut sink)?;
            let key_at = (key_start, scanner.offset);
            scanner.skip_ws(&mut sink)?;
            scanner.take(&mut sink)?;
            scanner.skip_ws(&mut sink)?;
            let value_start = scanner.offset;
            scanner.value(&mut sink)?;
            fields.push(Field {
                key: serde_json::from_slice(&text[key_at.0..key_at.1]).unwrap_or_default(),
                key_at,
                value_at: (value_start, scanner.offset),
            });
            scanner.skip_ws(&mut sink)?;
            if scanner.take(&mut sink)? != Some(b',') {
                return Ok(());
            }
        }
    };
    // Reading from a byte slice cannot fail.
    let _ = step();
    fields
}

/// Turns a serde error on a game's text into a diagnostic on the offending token.
fn serde_diagnostic(e: &serde_json::Error, text: &str, offset: usize) -> Diagnostic {
    let full = e.to_string();
    let message = match full.rsplit_once(" at line ") {
        Some((m, _)) => m.to_owned(),
        None => full,
    };
    let end = error_offset(text, e.line(), e.column());
    let category = e.classify();
    let (start, stop) = token_before(text.as_bytes(), end, category == Category::Data);
    let (start, stop) = whole_chars(text, start, stop);
    let at = Some(Span::new(offset + start, stop - start));
    let (start, stop) = whole_chars(text, text.len().saturating_sub(1), text.len());
    let last = Span::new(offset + start, stop - start);
    match category {
        Category::Eof => {
            Diagnostic::error("syntax-json", "the game's JSON ends before it is complete")
                .at(Some(last), "the game ends here")
                .help("close every string, array and object; the file may be truncated")
        }
        Category::Syntax | Category::Io => Diagnostic::error("syntax-json", message)
            .at(at, "here")
            .help("each game is one JSON object (spec/json.md)"),
        Category::Data => {
            if message.starts_with("unknown field") {
                Diagnostic::error("json-unknown-field", message)
                    .at(at, "unknown field")
                    .help("field names are case-sensitive; spec/json.md lists the fields of each object")
            } else if message.starts_with("missing field") {
                Diagnostic::error("json-missing-field", message)
                    .at(at, "in this object")
                    .help("spec/json.md lists the required fields of each object")
            } else {
                let help = if message.contains("expected a square") {
                    "squares are a letter a-j and a row 1-10, such as `f5`; a pass is `pass`"
                } else if message.contains("preset")
                    || message.contains("board")
                    || message.contains("option")
                    || message.contains("rules")
                {
                    "rules strings look like `othello`, `anti:10x10` or `othello,blocked=a1+h8`"
                } else {
                    "spec/json.md gives the type of every field"
                };
                Diagnostic::error("json-bad-value", message)
                    .at(at, "this value")
                    .help(help)
            }
        }
    }
}

/// The byte offset in `text` just past the character serde_json stopped at.
fn error_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    (line_start + column).min(text.len())
}

/// The span on `text` (the lossy decoding of `chunk`) of `span`, a span on the chunk's
/// raw bytes, in whole characters.
fn text_span(span: Span, chunk: &Chunk, text: &str) -> Span {
    let local = |raw: usize| {
        let raw = raw.saturating_sub(chunk.offset).min(chunk.bytes.len());
        lossy_offset(&chunk.bytes, raw)
    };
    let (start, stop) = whole_chars(text, local(span.offset), local(span.end()));
    Span::new(chunk.offset + start, stop - start)
}

/// Where byte `raw` of `bytes` lands in `String::from_utf8_lossy(bytes)`, which turns each
/// invalid sequence into one U+FFFD.
fn lossy_offset(bytes: &[u8], raw: usize) -> usize {
    let (mut raw_at, mut text_at) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().len();
        if raw <= raw_at + valid {
            return text_at + (raw - raw_at);
        }
        raw_at += valid;
        text_at += valid;
        let invalid = chunk.invalid().len();
        if raw < raw_at + invalid {
            return text_at;
        }
        raw_at += invalid;
        if invalid > 0 {
            text_at += char::REPLACEMENT_CHARACTER.len_utf8();
        }
    }
    text_at
}

/// Widens the byte range `start..stop` of `text` to whole characters, so that a span on a
/// byte never splits a multi-byte character.
fn whole_chars(text: &str, mut start: usize, mut stop: usize) -> (usize, usize) {
    stop = stop.min(text.len());
    start = start.min(stop);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(stop) {
        stop += 1;
    }
    (start, stop)
}

/// The JSON text an error stopping at `end` is about: the string ending there (quotes
/// included), the number or word around it, or (`whole_objects`, for errors about values)
/// the object or array closing there.
fn token_before(text: &[u8], end: usize, whole_objects: bool) -> (usize, usize) {
    if end == 0 || end > text.len() {
        let at = end.min(text.len().saturating_sub(1));
        return (at, (at + 1).min(text.len()));
    }
    let last = text[end - 1];
    let scalar = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-');
    if last == b'"' {
        if let Some(start) = string_start(text, end - 1) {
            return (start, end);
        }
    } else if scalar(&last) {
        let start = text[..end]
            .iter()
            .rposition(|b| !scalar(b))
            .map_or(0, |i| i + 1);
        let stop = text[end..]
            .iter()
            .position(|b| !scalar(b))
            .map_or(text.len(), |i| end + i);
        return (start, stop);
    } else if whole_objects && matches!(last, b'}' | b']') {
        if let Some(start) = opener_of(text, end - 1) {
            return (start, end);
        }
    }
    (end - 1, end)
}

/// The opening quote of the string whose closing quote is at `close`, scanning from the
/// start so that escaped quotes are skipped.
fn string_start(text: &[u8], close: usize) -> Option<usize> {
    let mut open = None;
    let mut i = 0;
    while i < close {
        match (text[i], open) {
            (b'\\', Some(_)) => i += 1,
            (b'"', None) => open = Some(i),
            (b'"', Some(_)) => open = None,
            _ => {}
        }
        i += 1;
    }
    open
}

/// The position of the `{` or `[` that the bracket at `close` closes.
fn opener_of(text: &[u8], close: usize) -> Option<usize> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i <= close {
        let b = text[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => stack.push(i),
                b'}' | b']' if i == close => return stack.pop(),
                b'}' | b']' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_all(text: &str) -> Vec<ParsedGame> {
        read(Box::new(text.as_bytes()), &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect()
    }

    #[test]
    fn bad_utf8_span_covers_the_replacement_character() {
        // Found by fuzzing: a one-byte span split the three-byte U+FFFD in the source text.
        let input: Box<dyn BufRead + Send> =
            Box::new(&b"{\"rules\":\"othello\",\"comment\":\"Su\xe8de\"}\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect();
        let d = &games[0].diagnostics[0];
        assert_eq!(d.code, "syntax-json");
        let span = d.span.unwrap();
        let text = &games[0].source.text;
        assert_eq!(&text[span.offset..span.end()], "\u{fffd}");
    }

    #[test]
    fn syntax_error_spans_keep_whole_characters() {
        // Found by fuzzing: a one-byte span on a syntax error inside a multi-byte
        // character, and on the last byte of a game ending in one.
        assert_eq!(whole_chars("a\u{93}b", 2, 3), (1, 3));
        assert_eq!(whole_chars("ab\u{e9}", 3, 4), (2, 4));
        assert_eq!(whole_chars("ab", 1, 2), (1, 2));
        for text in [
            "{\"rules\":\"othello\",\"tags\":[{\"name\":\u{63d}\u{93}ack\"}]}\n",
            "{\"rules\":\"othello\" \u{e9}\n",
            "{\"rules\":\"othello\",\"moves\":[\u{e9}",
        ] {
            let games = read_all(text);
            for g in &games {
                for d in &g.diagnostics {
                    let span = d.span.unwrap();
                    let local = span.offset - g.source.offset;
                    assert!(
                        g.source.text.get(local..local + span.len).is_some(),
                        "{text}: {d:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn envelope_spans_land_on_the_source_text() {
        // Found by fuzzing: a span on the raw bytes of an envelope with invalid UTF-8 did
        // not match the lossy source text.
        assert_eq!(lossy_offset(b"ab\xffcd", 3), 5);
        assert_eq!(lossy_offset(b"ab\xff\xfecd", 4), 8);
        assert_eq!(lossy_offset(b"ab\xffcd", 2), 2);
        let input: Box<dyn BufRead + Send> =
            Box::new(&b"{\"format\": \"\xff\xferev\", \"version\": 1, \"games\": [\n]}\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect();
        let d = games[0]
            .diagnostics
            .iter()
            .find(|d| d.code == "json-bad-envelope")
            .unwrap();
        let span = d.span.unwrap();
        let text = &games[0].source.text;
        assert_eq!(&text[span.offset..span.end()], "\"\u{fffd}\u{fffd}rev\"");
    }

    #[test]
    fn sniffs_objects_only() {
        let s = |t: &[u8]| sniff(&Sniff { head: t, len: None });
        assert!(s(b"{\"format\": \"reversi-record\""));
        assert!(s(b"\xEF\xBB\xBF  {\n\"rules\""));
        assert!(s(b"{}"));
        assert!(!s(b"(;GM[Othello]"));
        assert!(!s(b"[Event \"x\"]"));
        assert!(!s(b"{x"));
    }

    #[test]
    fn tokens_for_spans() {
        let t = br#"{"moves": [{"move": "k9"}]}"#;
        assert_eq!(token_before(t, 24, true), (20, 24));
        assert_eq!(&t[20..24], b"\"k9\"");
        assert_eq!(token_before(b"[1, 300]", 6, true), (4, 7));
        assert_eq!(token_before(t, 25, true), (11, 25));
        assert_eq!(token_before(br#"{"a": "x\"}", "b": 1}"#, 12, true), (6, 12));
        assert_eq!(token_before(br#"{"a":1,}"#, 8, false), (7, 8));
        assert_eq!(error_offset("ab\ncd\nef", 3, 1), 7);
    }

    #[test]
    fn document_and_lines_agree() {
        let doc = "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [\n{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]},\n{\"rules\":\"anti:6x6\",\"moves\":[]}\n]}\n";
        let lines = "{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]}\n\n{\"rules\":\"anti:6x6\",\"moves\":[]}\n";
        let a = read_all(doc);
        let b = read_all(lines);
        assert_eq!(a.len(), 2);
        assert_eq!(b.len(), 2);
        for (x, y) in a.iter().zip(&b) {
            assert!(x.diagnostics.is_empty() && y.diagnostics.is_empty());
            let content = |g: &ParsedGame| g.record.as_ref().map(Record::without_spans);
            assert_eq!(content(x), content(y));
            assert_eq!(x.index, y.index);
        }
        assert_eq!(a[1].source.offset, doc.find("{\"rules\":\"anti").unwrap());
        assert_eq!(a[1].source.line, 2);
        assert_eq!(b[1].source.line, 2);
    }

    #[test]
    fn empty_input_has_no_games() {
        assert!(read_all("").is_empty());
        assert!(read_all("  \n").is_empty());
    }
}
