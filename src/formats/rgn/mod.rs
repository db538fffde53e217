//! RGN, Reversi Game Notation (`.rgn`): the toolkit's own PGN-shaped record format, which
//! also reads the Othello PGN found in the wild (thor exports, PlayOK, Edax).
//!
//! A file holds games; a game is tag pairs, then movetext:
//!
//! ```text
//! [Event "Club night"]
//! [Black "Ann"]
//! [White "Bob"]
//! [Result "38-26"]
//!
//! 1. f5 d6 2. c3(d4) {[%eval 1.5] a fine move} 3. c4 --
//! ```
//!
//! The grammar and the meaning of every tag are in `spec/rgn.md`. [`read`] streams games
//! from a `BufRead` (memory bounded by one game), [`parse_str`] parses a string, and
//! [`to_string`] writes the canonical form, which reads back to the same record.
//!
//! ```
//! use reversi_record::formats::rgn;
//! let games = rgn::parse_str("1. f5 d6 2. c3", "example");
//! let record = games[0].record.as_ref().unwrap();
//! assert_eq!(record.moves.len(), 3);
//! assert_eq!(rgn::to_string(record).unwrap(), "1. f5 d6 2. c3\n");
//! ```

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::{
    check_losses, Games, ParsedGame, ReadOptions, RecordWriter, Sniff, WriteError, WriteOptions,
};
use crate::diagnostic::{Diagnostic, Source};
use crate::record::Record;

mod board;
mod parse;
mod write;

pub use write::to_string;

/// The tag that holds the rules string.
pub const RULES_TAG: &str = "Rules";
/// The tag that holds a start position other than the rules' default.
pub const START_TAG: &str = "Start";
/// The tag that holds the result.
pub const RESULT_TAG: &str = "Result";
/// The tag that says how the game ended.
pub const TERMINATION_TAG: &str = "Termination";
/// Tags with their own fields in [`Record`]; they never appear in [`Record::tags`].
pub const RESERVED_TAGS: [&str; 4] = [RULES_TAG, START_TAG, RESULT_TAG, TERMINATION_TAG];

/// Whether `name` is one of the [`RESERVED_TAGS`] (any case).
pub fn is_reserved_tag(name: &str) -> bool {
    RESERVED_TAGS.iter().any(|r| r.eq_ignore_ascii_case(name))
}

/// Whether the input looks like RGN or PGN: its first non-blank line is a tag pair such as
/// `[Event "..."]`, or numbered movetext such as `1. f5 d6`.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = input
        .head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(input.head);
    let text = String::from_utf8_lossy(head);
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) => parse::looks_like_tag(line) || parse::looks_like_numbered_moves(line),
        None => false,
    }
}

/// Reads every game of `input`, one at a time.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    let name = if options.name.is_empty() {
        Arc::from("-")
    } else {
        options.name.clone()
    };
    Box::new(GameReader {
        chunks: Chunks::new(input),
        name,
        index: 0,
    })
}

/// Parses every game of `text` (a whole file); `name` is shown in diagnostics.
pub fn parse_str(text: &str, name: &str) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: Arc::from(name),
        ..ReadOptions::default()
    };
    let input: Box<dyn BufRead + Send + '_> = Box::new(text.as_bytes());
    read(input, &options).filter_map(Result::ok).collect()
}

/// Parses one game's text found at byte `offset` of its file; spans are file offsets.
/// Returns the record (`None` when the game has a syntax error) and the diagnostics.
pub fn parse_game(text: &str, offset: usize, game: usize) -> (Option<Record>, Vec<Diagnostic>) {
    parse::Parser::new(text, offset, game).parse()
}

/// A writer of canonical RGN: games separated by a blank line.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    Box::new(RgnWriter {
        out,
        options: options.clone(),
        games: 0,
    })
}

struct RgnWriter<'a> {
    out: Box<dyn Write + Send + 'a>,
    options: WriteOptions,
    games: usize,
}

impl RecordWriter for RgnWriter<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        let (text, losses) = write::write_game(record);
        let losses = check_losses(losses, &self.options)?;
        if self.games > 0 {
            self.out.write_all(b"\n")?;
        }
        self.out.write_all(text.as_bytes())?;
        self.games += 1;
        Ok(losses)
    }

    fn finish(&mut self) -> io::Result<()> {
        self.out.flush()
    }
}

struct GameReader<'a> {
    chunks: Chunks<Box<dyn BufRead + Send + 'a>>,
    name: Arc<str>,
    index: usize,
}

impl Iterator for GameReader<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        let chunk = match self.chunks.next_chunk() {
            Ok(Some(chunk)) => chunk,
            Ok(None) => return None,
            Err(e) => {
                self.chunks.done = true;
                return Some(Err(e));
            }
        };
        self.index += 1;
        let mut encoding = None;
        let text = match String::from_utf8(chunk.bytes) {
            Ok(text) => text,
            Err(e) => {
                let at = e.utf8_error().valid_up_to();
                encoding = Some(at);
                String::from_utf8_lossy(e.as_bytes()).into_owned()
            }
        };
        let (record, mut diagnostics) = parse_game(&text, chunk.offset, self.index);
        if let Some(at) = encoding {
            let d = Diagnostic::warning("bad-encoding", "the game is not valid UTF-8")
                .at(
                    Some(crate::record::Span::new(chunk.offset + at, 1)),
                    "not UTF-8",
                )
                .help("save the file as UTF-8; invalid bytes were read as U+FFFD")
                .in_game(self.index);
            diagnostics.insert(0, d);
        }
        Some(Ok(ParsedGame {
            index: self.index,
            source: Source {
                name: self.name.clone(),
                text: Arc::from(text),
                offset: chunk.offset,
                line: chunk.line,
            },
            record,
            diagnostics,
        }))
    }
}

/// One game's bytes, where they start, and the 0-based line they start on.
struct Chunk {
    bytes: Vec<u8>,
    offset: usize,
    line: usize,
}

struct Line {
    bytes: Vec<u8>,
    offset: usize,
    line: usize,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum LineKind {
    Blank,
    Tag,
    Other,
}

impl Line {
    fn kind(&self) -> LineKind {
        match self.bytes.iter().find(|b| !b.is_ascii_whitespace()) {
            None => LineKind::Blank,
            Some(b'[') => LineKind::Tag,
            Some(_) => LineKind::Other,
        }
    }
}

/// Splits a stream into games, line by line: a game ends where a tag line follows
/// movetext, or follows a blank line after tags.
struct Chunks<R> {
    input: R,
    offset: usize,
    line: usize,
    pending: Option<Line>,
    done: bool,
}

impl<R: BufRead> Chunks<R> {
    fn new(input: R) -> Chunks<R> {
        Chunks {
            input,
            offset: 0,
            line: 0,
            pending: None,
            done: false,
        }
    }

    fn read_line(&mut self) -> io::Result<Option<Line>> {
        if let Some(line) = self.pending.take() {
            return Ok(Some(line));
        }
        if self.done {
            return Ok(None);
        }
        let mut bytes = Vec::new();
        let n = self.input.read_until(b'\n', &mut bytes)?;
        if n == 0 {
            self.done = true;
            return Ok(None);
        }
        let mut offset = self.offset;
        if self.offset == 0 && bytes.starts_with(b"\xEF\xBB\xBF") {
            bytes.drain(..3);
            offset = 3;
        }
        let line = Line {
            bytes,
            offset,
            line: self.line,
        };
        self.offset += n;
        self.line += 1;
        Ok(Some(line))
    }

    fn next_chunk(&mut self) -> io::Result<Option<Chunk>> {
        let mut lines: Vec<Line> = Vec::new();
        let mut in_movetext = false;
        let mut blank_after_tags = false;
        while let Some(line) = self.read_line()? {
            let kind = line.kind();
            if lines.is_empty() {
                if kind != LineKind::Blank {
                    in_movetext = kind == LineKind::Other;
                    lines.push(line);
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
            lines.push(line);
        }
        while lines.last().is_some_and(|l| l.kind() == LineKind::Blank) {
            lines.pop();
        }
        let Some(first) = lines.first() else {
            return Ok(None);
        };
        let (offset, line) = (first.offset, first.line);
        let bytes = lines.into_iter().flat_map(|l| l.bytes).collect();
        Ok(Some(Chunk {
            bytes,
            offset,
            line,
        }))
    }
}
