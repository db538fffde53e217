//! The game stream: tells a document from JSON Lines, checks the envelope and reads game by
//! game.

use crate::codes::Code;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use serde_json::error::Category;

use super::errors::{serde_diagnostic, text_span};
use super::scan::{Chunk, End, Scanner, FIRST_OBJECT_CAP};
use super::{FORMAT_NAME, READS};
use crate::diagnostic::{Diagnostic, Source};
use crate::record::{Record, Span};
use crate::text::{too_large, LineRead, MAX_GAME_BYTES, MAX_MOVES, MAX_TAGS};
use crate::{Games, ParsedGame, ReadOptions};

/// Reads games from a document or from JSON Lines, game by game.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    // Through `capped`, as `Format::read` does: the JSON escapes are where control
    // characters most easily come from (`\u0000`), and they are replaced and reported.
    let games = entries(input, options).map(|entry| entry.map(Entry::read));
    Box::new(games.map(|game| game.map(crate::capped)))
}

/// The games of `input` as [`Entry`]s: the game objects split off but not yet parsed (the
/// parsing is most of the work, and can be done on another thread).
#[doc(hidden)]
pub fn entries<'a>(
    input: Box<dyn BufRead + Send + 'a>,
    options: &ReadOptions,
) -> impl Iterator<Item = io::Result<Entry>> + Send + 'a {
    JsonGames {
        scanner: Scanner {
            input,
            cap: Some(MAX_GAME_BYTES),
            offset: 0,
            line: 0,
            over: None,
        },
        name: options.name.clone(),
        state: State::Start,
        pending: VecDeque::new(),
        next_index: 1,
        version: Version::Assumed,
        failed: false,
        rules: options.rules,
        scratch: Vec::new(),
        last_len: 0,
    }
}

/// What the reader splits off: an entry read already (a problem of the file itself), or a
/// game object to parse.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub enum Entry {
    Game(Box<ParsedGame>),
    Object(PendingObject),
}

impl Entry {
    /// The game, parsed if it was not yet (not yet [`capped`](crate::capped)).
    pub(crate) fn read(self) -> ParsedGame {
        match self {
            Entry::Game(game) => *game,
            Entry::Object(object) => object.read(),
        }
    }
}

/// A game object split off, not yet parsed: [`PendingObject::read`] gives the game the
/// reader would have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingObject {
    chunk: Chunk,
    name: Arc<str>,
    index: usize,
    /// The version the games are read under where the object stands.
    version: Version,
    /// The rules of a game without a `rules` member (`--rules`).
    rules: Option<crate::engine::Rules>,
}

/// Which schema version the games being read were written under.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Version {
    /// Stated as this crate's version.
    Supported,
    /// Not stated (yet): read as version 2 (which reads version 1 too).
    Assumed,
    /// Stated as another version.
    Unsupported(u64),
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum State {
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

pub(super) struct JsonGames<'a> {
    scanner: Scanner<'a>,
    name: Arc<str>,
    state: State,
    pending: VecDeque<Entry>,
    next_index: usize,
    /// The rules of games without a `rules` member (`--rules`).
    rules: Option<crate::engine::Rules>,
    version: Version,
    failed: bool,
    /// What is read between games and dropped (blanks, commas), kept from game to game.
    scratch: Vec<u8>,
    /// The bytes of the last game object: the room the next one starts with.
    last_len: usize,
}

impl PendingObject {
    /// The game's index in its file.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The bytes of the object.
    #[doc(hidden)]
    pub fn text_len(&self) -> usize {
        self.chunk.bytes.len()
    }

    /// The object's bytes.
    pub(super) fn bytes(&self) -> &[u8] {
        &self.chunk.bytes
    }

    /// The version the object is read under.
    pub(super) fn version(&self) -> Version {
        self.version
    }

    /// The rules of a game without a `rules` member (`--rules`).
    pub(super) fn default_rules(&self) -> Option<crate::engine::Rules> {
        self.rules
    }

    /// The game as [`PendingObject::read`] gives it, without its record, when the reader
    /// reports nothing of the object itself (its encoding, version and size): for a game
    /// the quick scan took.
    #[doc(hidden)]
    pub fn unread(&self) -> Option<ParsedGame> {
        if matches!(self.version, Version::Unsupported(_)) {
            return None;
        }
        let (source, encoding) = source(&self.name, &self.chunk);
        if encoding.is_some()
            || JsonGames::too_large_game(&source.text, self.chunk.offset).is_some()
        {
            return None;
        }
        Some(ParsedGame {
            index: self.index,
            source,
            record: None,
            diagnostics: Vec::new(),
        })
    }

    /// The game.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        let PendingObject {
            chunk,
            name,
            index,
            version,
            rules,
        } = self;
        let (source, encoding) = source(&name, &chunk);
        let whole = Some(Span::new(chunk.offset, chunk.bytes.len()));
        let mut diagnostics = Vec::new();
        let mut record = None;
        if let Some(d) = encoding {
            diagnostics.push(d);
        } else if let Version::Unsupported(v) = version {
            diagnostics.push(
                Diagnostic::error(
                    Code::JsonUnsupportedVersion,
                    format!("expected a version 1 or 2 game, but this one is written under version {v}"),
                )
                .at(whole, format!("a version {v} game"))
                .help("this reader knows versions 1 and 2: use a newer reversi-record, or rewrite the file as version 2"),
            );
        } else if let Some(d) = JsonGames::too_large_game(&source.text, chunk.offset) {
            diagnostics.push(d);
        } else {
            match serde_json::from_str::<Record>(&source.text) {
                Ok(mut r) => {
                    r.span = whole;
                    if let Some(rules) = rules {
                        // A game that does not state its rules gets the reader's.
                        #[derive(serde::Deserialize)]
                        struct Stated {
                            rules: Option<serde::de::IgnoredAny>,
                        }
                        let stated = serde_json::from_str::<Stated>(&source.text)
                            .map_or(true, |s| s.rules.is_some());
                        if !stated {
                            r.rules = rules;
                        }
                    }
                    record = Some(r);
                }
                Err(e) => diagnostics.push(serde_diagnostic(&e, &source.text, chunk.offset)),
            }
        }
        ParsedGame {
            index,
            source,
            record,
            diagnostics: diagnostics.into_iter().map(|d| d.in_game(index)).collect(),
        }
    }
}

/// One field of an envelope (document or header line): its key and raw value, as offsets
/// into the envelope text.
pub(super) struct Field {
    key: String,
    key_at: (usize, usize),
    value_at: (usize, usize),
}

impl Iterator for JsonGames<'_> {
    type Item = io::Result<Entry>;

    fn next(&mut self) -> Option<io::Result<Entry>> {
        loop {
            if let Some(entry) = self.pending.pop_front() {
                return Some(Ok(entry));
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
        self.scanner.skip_ws_unkept()?;
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
            if self.scanner.value(&mut head.bytes)? != End::Complete {
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
            if self.scanner.value(&mut head.bytes)? != End::Complete {
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
        let rest_read = self.scanner.rest_of_line(&mut rest)?;
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
        if let LineRead::TooLong(len) = rest_read {
            let diagnostic = crate::text::too_long("the rest of the line", rest_line, len);
            let chunk = Chunk {
                bytes: Vec::new(),
                offset: rest_offset,
                line: rest_line,
            };
            let entry = self.file_problem(chunk, vec![diagnostic], 0);
            self.pending.push_back(Entry::Game(Box::new(entry)));
        } else if !rest.iter().all(u8::is_ascii_whitespace) {
            let at = Some(Span::new(rest_offset, rest.len()));
            let entry = self.file_problem(
                Chunk {
                    bytes: rest,
                    offset: rest_offset,
                    line: rest_line,
                },
                vec![
                    Diagnostic::error(Code::SyntaxJson, "expected a line break after the object")
                        .at(at, "unexpected")
                        .help("in JSON Lines each game is one object on its own line"),
                ],
                0,
            );
            self.pending.push_back(Entry::Game(Box::new(entry)));
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
                                Code::JsonBadEnvelope,
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
                        Ok(v) if READS.contains(&v) => self.version = Version::Supported,
                        Ok(v) => self.version = Version::Unsupported(v),
                        Err(_) => {
                            self.version = Version::Unsupported(0);
                            problems.push(
                                Diagnostic::error(
                                    Code::JsonUnsupportedVersion,
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
                    Diagnostic::error(Code::JsonBadEnvelope, "expected `games` to be an array")
                        .at(span(f.value_at), "not an array")
                        .help("write the games as `\"games\": [{...}, {...}]`"),
                ),
                _ => problems.push(
                    Diagnostic::error(
                        Code::JsonUnknownField,
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
                    Code::JsonBadEnvelope,
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
            self.pending.push_back(Entry::Game(Box::new(entry)));
        }
    }

    /// A record-less entry for problems of the file itself. Their spans, taken on the raw
    /// bytes, are moved onto the source text (where an invalid byte is a three-byte U+FFFD)
    /// and widened to whole characters.
    fn file_problem(&self, chunk: Chunk, diagnostics: Vec<Diagnostic>, index: usize) -> ParsedGame {
        let source = source(&self.name, &chunk).0;
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

    /// Parses one game object and queues it.
    fn game(&mut self, chunk: Chunk) {
        let index = self.next_index;
        self.next_index += 1;
        self.pending.push_back(Entry::Object(PendingObject {
            chunk,
            name: self.name.clone(),
            index,
            version: self.version,
            rules: self.rules,
        }));
    }

    /// The `syntax-game-too-large` error of a game's JSON `text` (at file offset `offset`)
    /// that holds more moves or tags than a game may ([`MAX_MOVES`], [`MAX_TAGS`]), counted
    /// as its `"move"` and `"name"` keys before serde would build them all: a game's memory
    /// stays a small multiple of its bytes. (A quote inside a JSON string is escaped, so the
    /// keys are all the counting finds, but for string values spelled the same.)
    fn too_large_game(text: &str, offset: usize) -> Option<Diagnostic> {
        // The smallest move, `{"move":"a1"},`, takes 14 bytes: a shorter game has fewer.
        if text.len() < MAX_MOVES.min(MAX_TAGS) * 14 {
            return None;
        }
        for (key, what, limit) in [
            ("\"move\"", "moves", MAX_MOVES),
            ("\"name\"", "tags", MAX_TAGS),
        ] {
            if let Some(at) = memchr::memmem::find_iter(text.as_bytes(), key).nth(limit) {
                return Some(too_large(
                    what,
                    limit,
                    Some(Span::new(offset + at, key.len())),
                ));
            }
        }
        None
    }

    /// Reads one element of the document's `games` array, or its closing `]`.
    fn game_element(&mut self) -> io::Result<()> {
        self.scratch.clear();
        self.scanner.skip_ws_unkept()?;
        match self.scanner.peek()? {
            Some(b']') => {
                self.scanner.take(&mut self.scratch)?;
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
        // Games are alike in size: room for one a little longer than the last, at once.
        element.bytes.reserve(self.last_len + self.last_len / 8);
        let end = self.scanner.value(&mut element.bytes)?;
        self.last_len = element.bytes.len();
        match end {
            End::Eof => {
                self.game(element);
                self.state = State::Done;
                return Ok(());
            }
            End::TooLong(len) => self.too_long(element, len),
            End::Complete => self.game(element),
        }
        // What lies between two games is dropped but where a comma is missing (whitespace
        // is never kept: a run of it between games holds nothing).
        self.scratch.clear();
        self.scanner.skip_ws_unkept()?;
        let mut between = self.chunk_start();
        match self.scanner.peek()? {
            Some(b',') => {
                self.scanner.take(&mut self.scratch)?;
            }
            Some(b']') => {}
            None => self.unexpected_end("the `games` array is not closed"),
            Some(next) => {
                // A missing comma before the next game: report it and read on. Anything
                // else ends the array as far as this reader can tell.
                let at = self.scanner.offset;
                between.bytes = std::mem::take(&mut self.scratch);
                let mut help = "separate the games of the array with commas";
                if next == b'{' {
                    between.bytes.push(next);
                } else {
                    self.scanner.rest_of_line(&mut between.bytes)?;
                    self.state = State::Done;
                    help = "the games array holds only game objects separated by commas";
                }
                let diagnostic = Diagnostic::error(
                    Code::SyntaxJson,
                    "expected `,` or `]` after a game in the `games` array",
                )
                .at(Some(Span::new(at, 1)), "expected `,` or `]` before this")
                .help(help);
                let entry = self.file_problem(between, vec![diagnostic], 0);
                self.pending.push_back(Entry::Game(Box::new(entry)));
            }
        }
        Ok(())
    }

    fn unexpected_end(&mut self, what: &str) {
        let chunk = self.chunk_start();
        let diagnostic =
            Diagnostic::error(Code::SyntaxJson, format!("the file ends early: {what}"))
                .at(Some(Span::new(chunk.offset, 0)), "the end of the file")
                .help("the file may be truncated; a document ends with `]}`");
        let entry = self.file_problem(chunk, vec![diagnostic], 0);
        self.pending.push_back(Entry::Game(Box::new(entry)));
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
                || self.scanner.value(&mut tail.bytes)? != End::Complete
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
            if self.scanner.value(&mut tail.bytes)? != End::Complete {
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
                        Some(v) if READS.contains(&v) => Version::Supported,
                        other => Version::Unsupported(other.unwrap_or(0)),
                    };
                    if !stated.is_some_and(|v| READS.contains(&v)) {
                        problems.push(
                            Diagnostic::error(
                                Code::JsonUnsupportedVersion,
                                format!(
                                    "the document states version `{}` after its games, which were read as version 2 (which reads version 1 too)",
                                    String::from_utf8_lossy(raw)
                                ),
                            )
                            .at(span, "stated after the games")
                            .help("this reader knows versions 1 and 2; put `version` before `games`"),
                        );
                    }
                }
                "format" => {
                    let raw = &tail.bytes[f.value_at.0..f.value_at.1];
                    if serde_json::from_slice::<String>(raw).ok().as_deref() != Some(FORMAT_NAME) {
                        problems.push(
                            Diagnostic::error(
                                Code::JsonBadEnvelope,
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
                        Code::JsonUnknownField,
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
                    Code::JsonMissingVersion,
                    "the document does not state its version: its games were read as version 2 (which reads version 1 too)",
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
            self.pending.push_back(Entry::Game(Box::new(entry)));
        }
    }

    fn trailing(&mut self, chunk: Chunk) -> io::Result<()> {
        let at = Some(Span::new(chunk.offset, chunk.bytes.len().min(40)));
        let d = Diagnostic::error(Code::SyntaxJson, "unexpected text after the `games` array")
            .at(at, "unexpected")
            .help("a document ends with `]}` after its last game");
        let entry = self.file_problem(chunk, vec![d], 0);
        self.pending.push_back(Entry::Game(Box::new(entry)));
        self.state = State::Done;
        Ok(())
    }

    /// Reads one line of JSON Lines: a game, a header, or nothing.
    fn line(&mut self) -> io::Result<()> {
        let mut chunk = self.chunk_start();
        match self.scanner.rest_of_line(&mut chunk.bytes)? {
            LineRead::End => self.state = State::Done,
            LineRead::TooLong(len) => self.too_long(chunk, len),
            LineRead::Line(_) => self.line_unit(chunk),
        }
        Ok(())
    }

    /// A game (an element of the `games` array, or a line) longer than
    /// [`MAX_GAME_BYTES`], read to its end and not kept: an error in the game's place, and
    /// reading goes on with the next.
    fn too_long(&mut self, chunk: Chunk, len: usize) {
        let index = self.next_index;
        self.next_index += 1;
        let what = match self.state {
            State::Games => "the game starting",
            _ => "the line",
        };
        let diagnostic = crate::text::too_long(what, chunk.line, len).in_game(index);
        let entry = self.file_problem(chunk, vec![diagnostic], index);
        self.pending.push_back(Entry::Game(Box::new(entry)));
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
        if may_be_header(&chunk.bytes) {
            if let Ok(header) = serde_json::from_slice::<HeaderProbe>(&chunk.bytes) {
                if header.format.is_some() || header.version.is_some() {
                    let fields = header_fields(&chunk.bytes);
                    self.envelope(&chunk, &fields, false);
                    return;
                }
            }
        }
        self.game(chunk);
    }
}

/// Whether a line of JSON Lines may be a header, which names `format` or `version`: a line
/// without either word, nor an escape that could spell one, is a game (serde is asked
/// only about the others, its refusals of game lines costing more than this look).
fn may_be_header(line: &[u8]) -> bool {
    memchr::memchr(b'\\', line).is_some()
        || memchr::memmem::find(line, b"\"format\"").is_some()
        || memchr::memmem::find(line, b"\"version\"").is_some()
}

/// Recognises a JSON Lines header: an object with only `format` and `version`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct HeaderProbe {
    format: Option<serde_json::Value>,
    version: Option<serde_json::Value>,
}

/// The fields of a header line (a flat object), as offsets into it.
pub(super) fn header_fields(text: &[u8]) -> Vec<Field> {
    let mut scanner = Scanner {
        input: Box::new(text),
        cap: Some(MAX_GAME_BYTES),
        offset: 0,
        line: 0,
        over: None,
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

/// The source of game `chunk` of file `name`: its text, and the error when it is not UTF-8.
fn source(name: &Arc<str>, chunk: &Chunk) -> (Source, Option<Diagnostic>) {
    let (text, problem) = match std::str::from_utf8(&chunk.bytes) {
        Ok(t) => (t.to_owned(), None),
        Err(e) => {
            let at = e.valid_up_to();
            let d = Diagnostic::error(
                Code::SyntaxJson,
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
            name: name.clone(),
            text: text.into(),
            offset: chunk.offset,
            line: chunk.line,
        },
        problem,
    )
}
