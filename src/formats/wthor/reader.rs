//! The streaming reader: one record at a time, each with its line of the text view.

use crate::codes::Code;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::names::{find_in, NameKind, NameTable};
use super::{
    Geometry, Header, BLACK_TAG, BOARD_SIZE_TAG, CREATED_TAG, DEPTH_TAG, TOURNAMENT_TAG, WHITE_TAG,
};
use crate::diagnostic::{Diagnostic, Source};
use crate::engine::{Move, Rules, Square};
use crate::formats::{ParsedGame, ReadOptions};
use crate::record::{ClaimedResult, MoveRecord, Record, Span, Tag, TagName};

/// One line of the virtual text file, under construction.
struct TextLine {
    /// Offset of the line in the virtual text.
    base: usize,
    text: String,
}

impl TextLine {
    fn new(base: usize) -> TextLine {
        TextLine::reusing(base, String::new())
    }

    /// A line built in `buffer` (cleared first), so that its allocation is reused.
    fn reusing(base: usize, mut buffer: String) -> TextLine {
        buffer.clear();
        TextLine { base, text: buffer }
    }

    /// Appends `s` and returns its span.
    fn push(&mut self, s: &str) -> Span {
        let span = Span::new(self.base + self.text.len(), s.len());
        self.text.push_str(s);
        span
    }

    /// Appends `n` in decimal and returns its span (no formatting machinery: this runs
    /// several times per record).
    fn push_number(&mut self, n: usize) -> Span {
        let start = self.text.len();
        push_decimal(&mut self.text, n);
        self.since(start)
    }

    /// The span of the text appended since the text was `start` bytes long.
    fn since(&self, start: usize) -> Span {
        Span::new(self.base + start, self.text.len() - start)
    }

    fn span(&self) -> Span {
        Span::new(self.base, self.text.len())
    }
}

/// Appends `n` in decimal to `out`.
fn push_decimal(out: &mut String, n: usize) {
    if n >= 10 {
        push_decimal(out, n / 10);
    }
    out.push(char::from(b'0' + (n % 10) as u8));
}

/// `n` in decimal, as a string of exactly its length.
fn decimal_string(n: usize) -> String {
    let digits = n.checked_ilog10().map_or(1, |l| l as usize + 1);
    let mut out = String::with_capacity(digits);
    push_decimal(&mut out, n);
    out
}

/// A header field, for pointing at it in the header's description.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Field {
    Created,
    N2,
    P1,
    P2,
    P3,
}

impl Field {
    /// Byte offset of the field in the file.
    const fn offset(self) -> usize {
        match self {
            Field::Created => 0,
            Field::N2 => 8,
            Field::P1 => 12,
            Field::P2 => 13,
            Field::P3 => 14,
        }
    }
}

/// Spans of the fields in a header description.
struct HeaderSpans {
    created: Span,
    n1: Span,
    n2: Span,
    p1: Span,
    p2: Span,
    p3: Span,
}

impl HeaderSpans {
    fn of(&self, field: Field) -> Span {
        match field {
            Field::Created => self.created,
            Field::N2 => self.n2,
            Field::P1 => self.p1,
            Field::P2 => self.p2,
            Field::P3 => self.p3,
        }
    }
}

/// Writes `header: created 2021-06-27, N1 320, N2 0, year 2021, P1 8, P2 0, P3 24`.
fn describe_header(line: &mut TextLine, h: &Header) -> HeaderSpans {
    line.push("header: created ");
    let created = line.push(&h.created());
    line.push(", N1 ");
    let n1 = line.push(&h.n1.to_string());
    line.push(", N2 ");
    let n2 = line.push(&h.n2.to_string());
    line.push(&format!(", year {}, P1 ", h.game_year));
    let p1 = line.push(&h.p1.to_string());
    line.push(", P2 ");
    let p2 = line.push(&h.p2.to_string());
    line.push(", P3 ");
    let p3 = line.push(&h.p3.to_string());
    HeaderSpans {
        created,
        n1,
        n2,
        p1,
        p2,
        p3,
    }
}

/// A header field out of range, waiting for a line to point into.
struct HeaderProblem {
    field: Field,
    message: String,
    help: String,
}

impl HeaderProblem {
    fn diagnostic(&self, spans: &HeaderSpans) -> Diagnostic {
        Diagnostic::error(Code::WthorBadHeader, &self.message)
            .at(
                Some(spans.of(self.field)),
                format!("header byte {}", self.field.offset()),
            )
            .help(&self.help)
            .in_game(1)
    }
}

/// The header checks of NBoard's Thor loader, lenient where formats.md says: returns the
/// problems, and whether they stop the reading (no known record size, or not a game file).
fn check_header(h: &Header) -> (Vec<HeaderProblem>, bool) {
    let mut problems = Vec::new();
    let problem = |field, message: String, help: &str| HeaderProblem {
        field,
        message,
        help: help.to_string(),
    };
    let Some(geometry) = h.geometry() else {
        problems.push(problem(
            Field::P1,
            format!(
                "the header's board size P1 is {}, which is no WTHOR board",
                h.p1
            ),
            "P1 is 0 or 8 for 8x8 games (.wtb) and 10 for 10x10 games (.wtd)",
        ));
        return (problems, true);
    };
    if h.p2 != 0 {
        let fatal = h.p2 == 1;
        problems.push(problem(
            Field::P2,
            if fatal {
                "the header's file type P2 is 1: this is a solitaire file (.pzz), not a game file"
                    .to_string()
            } else {
                format!("the header's file type P2 is {}, expected 0", h.p2)
            },
            "P2 is 0 in game files and 1 in solitaire files",
        ));
        if fatal {
            return (problems, true);
        }
    }
    if h.n2 != 0 {
        problems.push(problem(
            Field::N2,
            format!("the header's N2 is {}, expected 0 in a game file", h.n2),
            "N2 counts the names of WTHOR.JOU/WTHOR.TRN; a game file has N2 = 0 and counts its games in N1",
        ));
    }
    if usize::from(h.p3) > geometry.slots() {
        problems.push(problem(
            Field::P3,
            format!(
                "the header's depth P3 is {}, more empties than the {} board has",
                h.p3,
                geometry.board()
            ),
            "P3 is the number of empties at which the theoretical scores were computed (0 means 22)",
        ));
    }
    if h.year_in_century > 99 || h.month > 12 || h.day > 31 {
        problems.push(problem(
            Field::Created,
            format!("the header's creation date {} is no date", h.created()),
            "bytes 0-3 are century, year in century (0-99), month (1-12) and day (1-31)",
        ));
    }
    (problems, false)
}

enum Stage {
    Start,
    Records,
    Done,
}

/// The iterator behind [`super::read`].
pub(crate) struct Reader<'a> {
    input: Box<dyn BufRead + Send + 'a>,
    stage: Stage,
    /// What every record shares; complete once the header is read.
    ctx: Arc<FileContext>,
    header_problems: Vec<HeaderProblem>,
    /// The name tables, until the header is read and they move into `ctx`.
    tables: (Option<Arc<NameTable>>, Option<Arc<NameTable>>),
    /// Whether to hand out [`Entry::Quick`] records (see [`Reader::next_entry`]).
    quick: bool,
    /// Warnings about the name files, for the first game.
    name_warnings: Vec<Diagnostic>,
    /// Complete records read so far.
    complete: usize,
    /// File offset of the next record.
    file_offset: usize,
    /// Offset of the next line in the virtual text.
    text_offset: usize,
    /// The last game read, held back until we know whether it is the last.
    pending: Option<Entry>,
    /// Games ready to be yielded.
    ready: VecDeque<Entry>,
    /// The bytes of the record being read, reused from record to record.
    record_bytes: Vec<u8>,
    /// The text view's line under construction, reused from record to record.
    line_buffer: String,
}

/// What every record of a file shares once its header is read: the header, the name
/// tables and the values formatted once. [`QuickRecord`]s hold it, so that a record that
/// fails the quick check can be read in full on any thread.
pub(crate) struct FileContext {
    name: Arc<str>,
    header: Header,
    geometry: Geometry,
    tournaments: Option<Arc<NameTable>>,
    players: Option<Arc<NameTable>>,
    /// Tag values every record of the file shares, formatted once.
    shared: SharedValues,
    /// Each move byte's square and its name, for the file's geometry.
    move_bytes: Vec<Option<(Square, String)>>,
}

impl QuickRecord {
    /// Whether the quick check passes the record: its moves, decoded on the way (every
    /// byte names a square, or the record would not be quick), replayed as standard
    /// Othello with passes left out, and its score.
    pub(crate) fn is_clean(&self) -> bool {
        use crate::validate::quick::{code, replay};
        let moves = self.bytes[8..]
            .iter()
            .take_while(|&&b| b != 0)
            .map(|&b| code(b % 10 - 1, b / 10 - 1));
        replay(moves, false, Some((self.bytes[6], 64 - self.bytes[6])))
    }
}

/// One entry of the reader: a game read in full, or (when asked for) an 8x8 record whose
/// fields and move bytes are all well formed, left for the quick check.
pub(crate) enum Entry {
    /// A game read in full (boxed: most entries are the small kind).
    Game(Box<ParsedGame>),
    /// A record not yet read in full.
    Quick(QuickRecord),
}

/// An 8x8 record whose fields and move bytes are well formed, with where it lies in the
/// file and in the text view: enough to replay it quickly, or to read it in full
/// ([`FileContext::read_quick`]) exactly as the reader would have.
#[derive(Clone)]
pub(crate) struct QuickRecord {
    index: usize,
    file_offset: usize,
    text_offset: usize,
    bytes: [u8; 68],
}

/// Tag values that come from the header, formatted once per file.
#[derive(Default)]
struct SharedValues {
    created: String,
    year: String,
    board_size: String,
    depth: String,
    theoretical_depth: Option<String>,
}

impl SharedValues {
    fn of(h: &Header) -> SharedValues {
        SharedValues {
            created: h.created(),
            year: decimal_string(usize::from(h.game_year)),
            board_size: decimal_string(usize::from(h.p1)),
            depth: decimal_string(usize::from(h.p3)),
            theoretical_depth: h
                .theoretical_depth()
                .map(|d| decimal_string(usize::from(d))),
        }
    }
}

impl<'a> Reader<'a> {
    pub(super) fn new(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Reader<'a> {
        let mut name_warnings = Vec::new();
        let mut load = |kind: NameKind| {
            let (dir, explicit) = match (&options.names_dir, &options.path) {
                (Some(dir), _) => (dir.clone(), true),
                (None, Some(path)) => (path.parent()?.to_path_buf(), false),
                (None, None) => return None,
            };
            let Some(path) = find_in(&dir, kind) else {
                if explicit {
                    name_warnings.push(
                        Diagnostic::warning(
                            Code::WthorNamesUnreadable,
                            format!("no {} in {}", kind.file_name(), dir.display()),
                        )
                        .help(format!(
                            "the {} names stay unknown; their indexes are kept",
                            kind.noun()
                        ))
                        .in_game(1),
                    );
                }
                return None;
            };
            match NameTable::read_shared(kind, &path) {
                Ok(table) => Some(table),
                Err(e) => {
                    name_warnings.push(
                        Diagnostic::warning(
                            Code::WthorNamesUnreadable,
                            format!("cannot read {}: {e}", path.display()),
                        )
                        .help(format!(
                            "the {} names stay unknown; their indexes are kept",
                            kind.noun()
                        ))
                        .in_game(1),
                    );
                    None
                }
            }
        };
        let tournaments = load(NameKind::Tournament);
        let players = load(NameKind::Player);
        Reader {
            input,
            stage: Stage::Start,
            ctx: Arc::new(FileContext {
                name: options.name.clone(),
                header: Header::default(),
                geometry: Geometry::Eight,
                tournaments: None,
                players: None,
                shared: SharedValues::default(),
                move_bytes: Vec::new(),
            }),
            header_problems: Vec::new(),
            tables: (tournaments, players),
            quick: false,
            name_warnings,
            complete: 0,
            file_offset: 0,
            text_offset: 0,
            pending: None,
            ready: VecDeque::new(),
            record_bytes: Vec::new(),
            line_buffer: String::new(),
        }
    }

    /// A reader that hands out [`Entry::Quick`] for 8x8 records the quick check may take.
    pub(crate) fn quick(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Reader<'a> {
        Reader {
            quick: true,
            ..Reader::new(input, options)
        }
    }

    /// What every record of the file shares (complete once the first entry is read).
    pub(crate) fn context(&self) -> &Arc<FileContext> {
        &self.ctx
    }

    /// Reads the header; returns a game carrying the diagnostics when it stops the reading.
    fn start(&mut self) -> io::Result<Option<ParsedGame>> {
        let mut bytes = [0u8; Header::LEN];
        let got = read_full(&mut self.input, &mut bytes)?;
        self.file_offset = got;
        if got < Header::LEN {
            let mut line = TextLine::new(0);
            let mut diagnostic = if got == 0 {
                line.push("header: ");
                Diagnostic::error(
                    Code::WthorBadHeader,
                    "the file is empty; a WTHOR file starts with a 16-byte header",
                )
            } else {
                line.push(&format!("header: {got} of 16 bytes:"));
                for b in &bytes[..got] {
                    line.push(&format!(" {b:02x}"));
                }
                line.push(" ");
                Diagnostic::error(
                    Code::WthorBadHeader,
                    format!("the file ends inside the 16-byte header, after {got} bytes"),
                )
            };
            let end = line.push("<end of file>");
            diagnostic = diagnostic
                .at(Some(end), format!("the file ends at byte {got}"))
                .help("a WTHOR file is a 16-byte header and 68-byte (8x8) or 104-byte (10x10) records")
                .in_game(1);
            return Ok(Some(self.finish_game(1, line, None, vec![diagnostic])));
        }
        let header = Header::parse(&bytes);
        let (problems, fatal) = check_header(&header);
        self.header_problems = problems;
        let geometry = header.geometry().unwrap_or(Geometry::Eight);
        let (tournaments, players) = std::mem::take(&mut self.tables);
        self.ctx = Arc::new(FileContext {
            name: self.ctx.name.clone(),
            header,
            geometry,
            tournaments,
            players,
            shared: SharedValues::of(&header),
            move_bytes: (0..=u8::MAX)
                .map(|byte| {
                    let sq = geometry.decode(byte)?;
                    Some((sq, sq.to_string()))
                })
                .collect(),
        });
        Ok(fatal.then(|| self.header_game(Vec::new())))
    }

    /// A game with no record whose line describes the header: for header problems and
    /// count mismatches of files without records.
    fn header_game(&mut self, mut extra: Vec<Diagnostic>) -> ParsedGame {
        let mut line = TextLine::new(self.text_offset);
        let spans = describe_header(&mut line, &self.ctx.header);
        let mut diagnostics: Vec<Diagnostic> = self
            .header_problems
            .iter()
            .map(|p| p.diagnostic(&spans))
            .collect();
        diagnostics.append(&mut self.name_warnings);
        for d in &mut extra {
            d.span = Some(spans.n1);
        }
        diagnostics.append(&mut extra);
        self.finish_game(1, line, None, diagnostics)
    }

    fn finish_game(
        &mut self,
        index: usize,
        line: TextLine,
        record: Option<Record>,
        diagnostics: Vec<Diagnostic>,
    ) -> ParsedGame {
        self.text_offset = line.base + line.text.len() + 1;
        let (game, buffer) = self.ctx.finish_game(index, line, record, diagnostics);
        self.line_buffer = buffer;
        game
    }

    /// Decodes one complete record into a game ([`FileContext::record_game`]), with what
    /// belongs to the file rather than the record.
    fn record_game(&mut self, bytes: &[u8]) -> ParsedGame {
        self.complete += 1;
        let index = self.complete;
        let offset = self.file_offset;
        self.file_offset += bytes.len();
        let line = TextLine::reusing(self.text_offset, std::mem::take(&mut self.line_buffer));
        let ctx = self.ctx.clone();
        let (record, line, diagnostics) = ctx.record_game(
            bytes,
            index,
            offset,
            line,
            |raw, fields, line, diagnostics| self.file_findings(raw, fields, line, diagnostics),
        );
        self.finish_game(index, line, record, diagnostics)
    }

    /// The record just read as a [`QuickRecord`], when the quick check may take it: an
    /// 8x8 record with well-formed fields and moves, which no finding of the file concerns.
    fn quick_record(&mut self, bytes: &[u8]) -> Option<QuickRecord> {
        let index = self.complete + 1;
        let bytes: [u8; 68] = bytes.try_into().ok()?;
        let first_with_findings =
            index == 1 && (!self.header_problems.is_empty() || !self.name_warnings.is_empty());
        if first_with_findings || self.ctx.header.n1 as usize + 1 == index {
            return None;
        }
        let len = self.ctx.quick_line_len(&bytes, index, self.file_offset)?;
        let record = QuickRecord {
            index,
            file_offset: self.file_offset,
            text_offset: self.text_offset,
            bytes,
        };
        self.complete = index;
        self.file_offset += bytes.len();
        self.text_offset += len + 1;
        Some(record)
    }

    /// What belongs to the file rather than this record, reported on the game it shows in:
    /// header problems and name-file warnings on the first game, and a game beyond the
    /// header's count.
    fn file_findings(
        &mut self,
        raw: &RawRecord,
        fields: &RecordFields,
        line: &mut TextLine,
        diagnostics: &mut Vec<Diagnostic>,
    ) {
        let index = raw.index;
        if index == 1 && !self.header_problems.is_empty() {
            line.push(" || ");
            let spans = describe_header(line, &self.ctx.header);
            diagnostics.extend(self.header_problems.iter().map(|p| p.diagnostic(&spans)));
        }
        if index == 1 {
            diagnostics.append(&mut self.name_warnings);
        }
        if self.ctx.header.n1 as usize + 1 == index {
            diagnostics.push(
                Diagnostic::error(
                    Code::WthorCountMismatch,
                    format!(
                        "the header announces {}, but the file goes on with game {index}",
                        games(self.ctx.header.n1 as usize)
                    ),
                )
                .at(
                    Some(fields.index_span),
                    format!("a record beyond N1, at byte {}", raw.offset),
                )
                .help("the file size should be 16 + N1 × the record size; all the records present are read")
                .in_game(index),
            );
        }
    }

    /// A record cut short by the end of the file.
    fn truncated_game(&mut self, bytes: &[u8]) -> ParsedGame {
        let index = self.complete + 1;
        let offset = self.file_offset;
        let record_len = self.ctx.geometry.record_len();
        let mut line = TextLine::new(self.text_offset);
        let index_span = line.push(&format!("#{index}"));
        line.push(&format!(
            " [byte {offset}] truncated, {} of {record_len} bytes:",
            bytes.len()
        ));
        for b in bytes {
            line.push(&format!(" {b:02x}"));
        }
        line.push(" ");
        let end = line.push("<end of file>");
        let file_end = offset + bytes.len();
        let diagnostic = Diagnostic::error(
            Code::WthorTruncatedRecord,
            format!(
                "the file ends inside game {index}, {} bytes short of its {record_len}",
                record_len - bytes.len()
            ),
        )
        .at(Some(end), format!("the file ends at byte {file_end}"))
        .related(
            Some(index_span),
            format!("the record starts at byte {offset}"),
        )
        .help(
            "the complete records before it are read; the file was probably cut off while copying",
        )
        .in_game(index);
        self.finish_game(index, line, None, vec![diagnostic])
    }

    /// At the end of the file: the last games, with the count checked.
    fn finish(&mut self, partial: Option<ParsedGame>) {
        let n1 = self.ctx.header.n1 as usize;
        let truncated = partial.is_some();
        let present = self.complete + usize::from(truncated);
        let mut last = partial
            .map(|g| Entry::Game(Box::new(g)))
            .or_else(|| self.pending.take());
        if let Some(pending) = self.pending.take() {
            self.ready.push_back(pending);
        }
        let mismatch = if n1 > present {
            Some(format!(
                "the header announces {}, but the file holds {}{}",
                games(n1),
                games(self.complete),
                if truncated {
                    " and a truncated record"
                } else {
                    ""
                }
            ))
        } else if truncated && n1 == self.complete {
            Some(format!(
                "the header announces {}, but the file goes on with a truncated record",
                games(n1)
            ))
        } else {
            None
        };
        if let Some(message) = mismatch {
            let help =
                "the file size should be 16 + N1 × the record size; the records present are read";
            if let Some(Entry::Quick(q)) = &last {
                // The diagnostic needs the game: read it in full.
                last = Some(Entry::Game(Box::new(self.ctx.read_quick(q))));
            }
            match &mut last {
                Some(Entry::Quick(_)) => {}
                Some(Entry::Game(game)) => {
                    let index_len = game.index.to_string().len() + 1;
                    let span = Span::new(game.source.offset, index_len);
                    game.diagnostics.push(
                        Diagnostic::error(Code::WthorCountMismatch, message)
                            .at(
                                Some(span),
                                format!(
                                    "the last record, at byte {}",
                                    self.file_offset
                                        - if truncated {
                                            0
                                        } else {
                                            self.ctx.geometry.record_len()
                                        }
                                ),
                            )
                            .help(help)
                            .in_game(game.index),
                    );
                }
                None => {
                    let d = Diagnostic::error(Code::WthorCountMismatch, message)
                        .at(None, "N1, header bytes 4-7")
                        .help(help)
                        .in_game(1);
                    last = Some(Entry::Game(Box::new(self.header_game(vec![d]))));
                }
            }
        } else if last.is_none()
            && (!self.header_problems.is_empty() || !self.name_warnings.is_empty())
        {
            last = Some(Entry::Game(Box::new(self.header_game(Vec::new()))));
        }
        self.ready.extend(last);
    }
}

/// Reading records: everything here depends only on the file's header and name tables.
impl FileContext {
    /// The name at `index` of `table`, or its index with a warning when the table lacks it.
    fn name(
        table: Option<&NameTable>,
        kind: NameKind,
        index: u16,
        line: &mut TextLine,
        diagnostics: &mut Vec<Diagnostic>,
        record_offset: usize,
        game: usize,
    ) -> (Span, Option<String>) {
        match table {
            None => (line.push(&format!("{} {index}", kind.noun())), None),
            Some(t) => match t.get(index) {
                Some(name) => (line.push(name), Some(name.to_owned())),
                None => {
                    let span = line.push(&format!("{} {index}", kind.noun()));
                    let code = match kind {
                        NameKind::Player => Code::WthorUnknownPlayer,
                        NameKind::Tournament => Code::WthorUnknownTournament,
                    };
                    diagnostics.push(
                        Diagnostic::warning(
                            code,
                            format!(
                                "{} index {index} is beyond {}, which has {} names",
                                kind.noun(),
                                kind.file_name(),
                                t.len()
                            ),
                        )
                        .at(
                            Some(span),
                            format!("index {index} in the record at byte {record_offset}"),
                        )
                        .help(format!(
                            "the name file does not match this game file; a newer {} may have the name",
                            kind.file_name()
                        ))
                        .in_game(game),
                    );
                    (span, None)
                }
            },
        }
    }

    /// Decodes one complete record (game `index`, at byte `offset`) into its `line`: the
    /// fields are written ([`FileContext::describe_fields`]), the scores, moves and slots
    /// after the moves checked, `file_findings` added, and the record built when nothing
    /// was wrong.
    fn record_game(
        &self,
        bytes: &[u8],
        index: usize,
        offset: usize,
        mut line: TextLine,
        file_findings: impl FnOnce(&RawRecord, &RecordFields, &mut TextLine, &mut Vec<Diagnostic>),
    ) -> (Option<Record>, TextLine, Vec<Diagnostic>) {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let raw = RawRecord {
            index,
            offset,
            tournament: u16_at(0),
            black: u16_at(2),
            white: u16_at(4),
            score: bytes[6],
            theoretical: bytes[7],
        };
        let slots = &bytes[8..];
        let mut diagnostics = Vec::new();
        let fields = self.describe_fields(&raw, &mut line, &mut diagnostics);
        let mut error = check_scores(&raw, self.geometry, &fields, &mut diagnostics);
        let (moves, end, bad_move) = self.decode_moves(&raw, slots, &mut line, &mut diagnostics);
        error |= bad_move;
        error |= check_after_end(&raw, slots, end, &fields, &mut line, &mut diagnostics);
        file_findings(&raw, &fields, &mut line, &mut diagnostics);
        let record = (!error).then(|| self.build_record(&raw, fields, moves, &line));
        (record, line, diagnostics)
    }

    /// The game of a [`QuickRecord`] that did not pass the quick check, read in full: the
    /// same game [`Reader`] gives for it.
    pub(crate) fn read_quick(&self, q: &QuickRecord) -> ParsedGame {
        let line = TextLine::new(q.text_offset);
        let (record, line, diagnostics) =
            self.record_game(&q.bytes, q.index, q.file_offset, line, |_, _, _, _| {});
        self.finish_game(q.index, line, record, diagnostics).0
    }

    /// The game of `line`, and the line's buffer for reuse.
    fn finish_game(
        &self,
        index: usize,
        line: TextLine,
        record: Option<Record>,
        diagnostics: Vec<Diagnostic>,
    ) -> (ParsedGame, String) {
        let text: Arc<str> = Arc::from(line.text.as_str());
        let game = ParsedGame {
            index,
            source: Source {
                name: self.name.clone(),
                text,
                offset: line.base,
                line: index - 1,
            },
            record,
            diagnostics,
        };
        (game, line.text)
    }

    /// The length of the line a record gets when it has nothing to report before the
    /// replay: known names (or no name table), scores on the board, moves that all name
    /// squares and nothing after them. `None` when that is not so, or the board is not
    /// 8x8.
    fn quick_line_len(&self, bytes: &[u8; 68], index: usize, offset: usize) -> Option<usize> {
        if self.geometry != Geometry::Eight || bytes[6] > 64 || bytes[7] > 64 {
            return None;
        }
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        let name_len = |table: Option<&NameTable>, kind: NameKind, i: u16| match table {
            None => Some(kind.noun().len() + 1 + digits(usize::from(i))),
            Some(t) => t.get(i).map(str::len),
        };
        let event = name_len(self.tournaments.as_deref(), NameKind::Tournament, u16_at(0))?;
        let black = name_len(self.players.as_deref(), NameKind::Player, u16_at(2))?;
        let white = name_len(self.players.as_deref(), NameKind::Player, u16_at(4))?;
        let slots = &bytes[8..];
        let moves = slots.iter().position(|&b| b == 0).unwrap_or(slots.len());
        let well_formed = slots[..moves].iter().all(|&b| {
            self.move_bytes
                .get(usize::from(b))
                .is_some_and(Option::is_some)
        });
        if !well_formed || slots[moves..].iter().any(|&b| b != 0) {
            return None;
        }
        let year = match self.header.game_year {
            0 => 0,
            _ => 1 + self.shared.year.len(),
        };
        let depth = self
            .shared
            .theoretical_depth
            .as_ref()
            .map_or(1, String::len);
        // `#3 [byte 84] EVENT YEAR | BLACK - WHITE | 33 (32@22): f5 d6`
        Some(
            1 + digits(index)
                + " [byte ".len()
                + digits(offset)
                + "] ".len()
                + event
                + year
                + " | ".len()
                + black
                + " - ".len()
                + white
                + " | ".len()
                + digits(usize::from(bytes[6]))
                + " (".len()
                + digits(usize::from(bytes[7]))
                + "@".len()
                + depth
                + "):".len()
                + 3 * moves,
        )
    }

    /// Writes the record's fields into its line (`#3 [byte 84] Event 1987 | Black - White |
    /// 33 (32@22):`), looking up the names, and returns where each field is.
    fn describe_fields(
        &self,
        raw: &RawRecord,
        line: &mut TextLine,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> RecordFields {
        let (index, offset) = (raw.index, raw.offset);
        let index_span = {
            let start = line.text.len();
            line.push("#");
            line.push_number(index);
            line.since(start)
        };
        line.push(" [byte ");
        line.push_number(offset);
        line.push("] ");
        let event = FileContext::name(
            self.tournaments.as_deref(),
            NameKind::Tournament,
            raw.tournament,
            line,
            diagnostics,
            offset,
            index,
        );
        let year_span = (self.header.game_year != 0).then(|| {
            line.push(" ");
            line.push(&self.shared.year)
        });
        line.push(" | ");
        let black = FileContext::name(
            self.players.as_deref(),
            NameKind::Player,
            raw.black,
            line,
            diagnostics,
            offset,
            index,
        );
        line.push(" - ");
        let white = FileContext::name(
            self.players.as_deref(),
            NameKind::Player,
            raw.white,
            line,
            diagnostics,
            offset,
            index,
        );
        line.push(" | ");
        let score_span = line.push_number(usize::from(raw.score));
        line.push(" (");
        let theoretical_span = line.push_number(usize::from(raw.theoretical));
        line.push("@");
        let depth_span = line.push(self.shared.theoretical_depth.as_deref().unwrap_or("?"));
        line.push("):");
        RecordFields {
            index_span,
            event,
            year_span,
            black,
            white,
            score_span,
            theoretical_span,
            depth_span,
        }
    }

    /// Decodes the move bytes up to the first 0 into the line and moves; returns the moves,
    /// the slot where they end, and whether a byte named no square (an error).
    fn decode_moves(
        &self,
        raw: &RawRecord,
        slots: &[u8],
        line: &mut TextLine,
        diagnostics: &mut Vec<Diagnostic>,
    ) -> (Vec<MoveRecord>, usize, bool) {
        let geometry = self.geometry;
        let mut error = false;
        let end = slots.iter().position(|&b| b == 0).unwrap_or(slots.len());
        let mut moves = Vec::with_capacity(end);
        for (i, &byte) in slots[..end].iter().enumerate() {
            line.push(" ");
            match self
                .move_bytes
                .get(usize::from(byte))
                .and_then(Option::as_ref)
            {
                Some((sq, name)) => {
                    let span = line.push(name);
                    moves.push(MoveRecord::new(Move::Place(*sq)).at(span));
                }
                None => {
                    error = true;
                    let span = line.push(&format!("<{byte}>"));
                    let (side, stride) = match geometry {
                        Geometry::Eight => ("1-8", "10 × row + column (a1 = 11, h8 = 88)"),
                        Geometry::Ten => ("1-10", "12 × row + column (a1 = 13, j10 = 130)"),
                    };
                    let mut d = Diagnostic::error(
                        Code::WthorBadMoveByte,
                        format!(
                            "move {} is byte {byte}, no square of the {} board",
                            i + 1,
                            geometry.board()
                        ),
                    )
                    .at(
                        Some(span),
                        format!("byte {} of the file", raw.offset + 8 + i),
                    )
                    .help(format!(
                        "a move byte is {stride}, rows and columns {side}; 0 ends the moves"
                    ))
                    .in_game(raw.index);
                    d.move_number = Some(i + 1);
                    diagnostics.push(d);
                }
            }
        }
        (moves, end, error)
    }

    /// The record of a game read without errors: its tags (names, year, scores, the raw
    /// indices and the header's fields), moves and result.
    fn build_record(
        &self,
        raw: &RawRecord,
        fields: RecordFields,
        moves: Vec<MoveRecord>,
        line: &TextLine,
    ) -> Record {
        let (event_span, event) = fields.event;
        let (black_span, black_name) = fields.black;
        let (white_span, white_name) = fields.white;
        let mut tags = Vec::with_capacity(12);
        let mut tag = |name: &str, value: String, span: Option<Span>| {
            tags.push(Tag {
                name: name.to_owned(),
                value,
                span,
            });
        };
        if let Some(event) = event {
            tag(TagName::EVENT, event, Some(event_span));
        }
        if let Some(span) = fields.year_span {
            tag(TagName::DATE, self.shared.year.clone(), Some(span));
        }
        if let Some(name) = black_name {
            tag(TagName::player(crate::Color::Black), name, Some(black_span));
        }
        if let Some(name) = white_name {
            tag(TagName::player(crate::Color::White), name, Some(white_span));
        }
        tag(
            TagName::THEORETICAL_SCORE,
            decimal_string(usize::from(raw.theoretical)),
            Some(fields.theoretical_span),
        );
        if let Some(depth) = &self.shared.theoretical_depth {
            tag(
                TagName::THEORETICAL_DEPTH,
                depth.clone(),
                Some(fields.depth_span),
            );
        }
        let shared = &self.shared;
        tag(
            TOURNAMENT_TAG,
            decimal_string(usize::from(raw.tournament)),
            Some(event_span),
        );
        tag(
            BLACK_TAG,
            decimal_string(usize::from(raw.black)),
            Some(black_span),
        );
        tag(
            WHITE_TAG,
            decimal_string(usize::from(raw.white)),
            Some(white_span),
        );
        tag(CREATED_TAG, shared.created.clone(), None);
        tag(BOARD_SIZE_TAG, shared.board_size.clone(), None);
        tag(DEPTH_TAG, shared.depth.clone(), None);
        let total = self.geometry.squares();
        let mut result = ClaimedResult::discs(vec![raw.score, total - raw.score]);
        result.span = Some(fields.score_span);
        Record {
            rules: Rules::othello(self.geometry.board()),
            tags,
            moves,
            result: Some(result),
            span: Some(line.span()),
            ..Record::default()
        }
    }
}

/// Decimal digits of `n`.
fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

/// `1 game`, `2 games`.
fn games(n: usize) -> String {
    if n == 1 {
        "1 game".to_string()
    } else {
        format!("{n} games")
    }
}

/// Reads until `buf` is full or the input ends; returns the bytes read.
fn read_full(input: &mut dyn BufRead, buf: &mut [u8]) -> io::Result<usize> {
    let mut got = 0;
    while got < buf.len() {
        match input.read(&mut buf[got..]) {
            Ok(0) => break,
            Ok(n) => got += n,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    Ok(got)
}

impl Reader<'_> {
    /// The next entry: a game read in full, or, for a reader made by [`Reader::quick`], a
    /// [`QuickRecord`] where the quick check may take the record.
    pub(crate) fn next_entry(&mut self) -> Option<io::Result<Entry>> {
        loop {
            if let Some(entry) = self.ready.pop_front() {
                return Some(Ok(entry));
            }
            match self.stage {
                Stage::Done => return None,
                Stage::Start => match self.start() {
                    Err(e) => {
                        self.stage = Stage::Done;
                        return Some(Err(e));
                    }
                    Ok(Some(game)) => {
                        self.stage = Stage::Done;
                        return Some(Ok(Entry::Game(Box::new(game))));
                    }
                    Ok(None) => self.stage = Stage::Records,
                },
                Stage::Records => {
                    let mut buf = std::mem::take(&mut self.record_bytes);
                    buf.resize(self.ctx.geometry.record_len(), 0);
                    let got = match read_full(&mut self.input, &mut buf) {
                        Ok(got) => got,
                        Err(e) => {
                            self.stage = Stage::Done;
                            return Some(Err(e));
                        }
                    };
                    if got == buf.len() {
                        let entry = match self.quick.then(|| self.quick_record(&buf)).flatten() {
                            Some(q) => Entry::Quick(q),
                            None => Entry::Game(Box::new(self.record_game(&buf))),
                        };
                        self.record_bytes = buf;
                        if let Some(previous) = self.pending.replace(entry) {
                            return Some(Ok(previous));
                        }
                    } else {
                        self.stage = Stage::Done;
                        let partial = (got > 0).then(|| self.truncated_game(&buf[..got]));
                        self.finish(partial);
                    }
                }
            }
        }
    }
}

impl Iterator for Reader<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        Some(match self.next_entry()? {
            Ok(Entry::Game(game)) => Ok(*game),
            // Only a quick reader gives these; read them in full here too.
            Ok(Entry::Quick(q)) => Ok(self.ctx.read_quick(&q)),
            Err(e) => Err(e),
        })
    }
}

/// The fixed fields of one record, as read.
struct RawRecord {
    /// 1-based game number.
    index: usize,
    /// File offset of the record.
    offset: usize,
    tournament: u16,
    black: u16,
    white: u16,
    score: u8,
    theoretical: u8,
}

/// Where a record's fields are in its line, and the names found for its indices.
struct RecordFields {
    index_span: Span,
    event: (Span, Option<String>),
    year_span: Option<Span>,
    black: (Span, Option<String>),
    white: (Span, Option<String>),
    score_span: Span,
    theoretical_span: Span,
    depth_span: Span,
}

/// Checks the score and the theoretical score against the board's squares; whether one
/// was too high (an error).
fn check_scores(
    raw: &RawRecord,
    geometry: Geometry,
    fields: &RecordFields,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let total = geometry.squares();
    let mut error = false;
    for (what, value, span, at) in [
        ("score", raw.score, fields.score_span, 6),
        (
            "theoretical score",
            raw.theoretical,
            fields.theoretical_span,
            7,
        ),
    ] {
        if value > total {
            error = true;
            diagnostics.push(
                Diagnostic::error(
                    Code::WthorBadScore,
                    format!("the {what} is {value}, more than the {total} squares of the board"),
                )
                .at(Some(span), format!("byte {} of the file", raw.offset + at))
                .help("WTHOR scores count Black's discs, the empty squares of a finished game going to the winner")
                .in_game(raw.index),
            );
        }
    }
    error
}

/// Checks that every move slot after the first 0 (at `end`) is 0 too, writing the slots up
/// to the last non-zero one into the line; whether one was not (an error).
fn check_after_end(
    raw: &RawRecord,
    slots: &[u8],
    end: usize,
    fields: &RecordFields,
    line: &mut TextLine,
    diagnostics: &mut Vec<Diagnostic>,
) -> bool {
    let Some(last) = slots.iter().rposition(|&b| b != 0).filter(|&l| l > end) else {
        return false;
    };
    line.push(" | after the end:");
    let mut first = None;
    for (i, &byte) in slots.iter().enumerate().take(last + 1).skip(end) {
        line.push(" ");
        let span = line.push(&byte.to_string());
        if byte != 0 && first.is_none() {
            first = Some((i, byte, span));
        }
    }
    if let Some((i, byte, span)) = first {
        let index_span = fields.index_span;
        diagnostics.push(
            Diagnostic::error(
                Code::WthorMoveAfterEnd,
                format!(
                    "move slot {} holds byte {byte} after the moves ended at slot {}",
                    i + 1,
                    end + 1
                ),
            )
            .at(
                Some(span),
                format!("byte {} of the file", raw.offset + 8 + i),
            )
            .related(
                Some(Span::new(index_span.offset, index_span.len)),
                format!("{end} moves, then a 0 at byte {}", raw.offset + 8 + end),
            )
            .help("the moves end at the first 0 byte; every slot after it must be 0 too")
            .in_game(raw.index),
        );
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn header() -> Header {
        Header {
            century: 20,
            year_in_century: 21,
            month: 6,
            day: 27,
            n1: 1,
            game_year: 2021,
            p1: 8,
            p3: 24,
            ..Header::default()
        }
    }

    #[test]
    fn header_checks_follow_nboard_and_stay_lenient() {
        assert!(check_header(&header()).0.is_empty());
        for p1 in [0, 10] {
            assert!(check_header(&Header { p1, ..header() }).0.is_empty());
        }
        let (problems, fatal) = check_header(&Header {
            p1: 124,
            ..header()
        });
        assert!(fatal);
        assert_eq!(problems[0].field, Field::P1);
        let (problems, fatal) = check_header(&Header { p2: 1, ..header() });
        assert!(fatal && problems[0].message.contains("solitaire"));
        let (problems, fatal) = check_header(&Header {
            n2: 3,
            p3: 61,
            day: 32,
            ..header()
        });
        assert!(!fatal);
        let fields: Vec<Field> = problems.iter().map(|p| p.field).collect();
        assert_eq!(fields, [Field::N2, Field::P3, Field::Created]);
        // 10x10 records have 96 slots, so depth 70 is fine there.
        assert!(check_header(&Header {
            p1: 10,
            p3: 70,
            ..header()
        })
        .0
        .is_empty());
    }

    #[test]
    fn header_description_spans_point_at_the_values() {
        let mut line = TextLine::new(100);
        let spans = describe_header(&mut line, &header());
        let at = |s: Span| &line.text[s.offset - 100..s.end() - 100];
        assert_eq!(at(spans.created), "2021-06-27");
        assert_eq!(at(spans.n1), "1");
        assert_eq!(at(spans.p3), "24");
        assert_eq!(games(1), "1 game");
        assert_eq!(games(0), "0 games");
    }
}
