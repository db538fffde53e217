//! The streaming reader: one record at a time, each with its line of the text view.

use crate::codes::Code;
use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::names::{find_in, NameKind, NameTable};
use super::record::{FileContext, QuickRecord, RawRecord, RecordFields, SharedValues, TextLine};
use super::{Geometry, Header};
use crate::diagnostic::Diagnostic;
use crate::record::{Record, Span};
use crate::{ParsedGame, ReadOptions};

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
    // Real files are dated (formats.md): a zero month or day is no date either, and the
    // mark of a header of zero bytes.
    if h.year_in_century > 99 || !(1..=12).contains(&h.month) || !(1..=31).contains(&h.day) {
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
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct Reader<'a> {
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
    /// All-zero records read in a row and not yet handed out: they are games only if a
    /// record that is not all zero follows.
    zero_run: usize,
    /// Why the reading stopped, handed out after the games before it.
    failed: Option<io::Error>,
}

/// All-zero records in a row after which the reader stops with an error: a real record
/// always names a move or a player, and a file that goes on with zeros (a zero-filled
/// file, a disk image, 64 MB of `/dev/zero` named `.wtb`) would otherwise be read as a
/// million empty games. 64 records are 4 KiB of zeros.
pub(crate) const MAX_ZERO_RECORDS: usize = 64;

/// One entry of the reader: a game read in full, or (when asked for) an 8x8 record whose
/// fields and move bytes are all well formed, left for the quick check.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub enum Entry {
    /// A game read in full (boxed: most entries are the small kind).
    Game(Box<ParsedGame>),
    /// A record not yet read in full.
    Quick(QuickRecord),
}

impl Entry {
    /// About what the entry holds, in bytes: the record, or the game's text-view line.
    #[doc(hidden)]
    pub fn bytes(&self) -> usize {
        match self {
            Entry::Game(game) => game.source.text.len() + std::mem::size_of::<ParsedGame>(),
            Entry::Quick(q) => q.bytes.len(),
        }
    }
}

impl<'a> Reader<'a> {
    pub(super) fn new(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Reader<'a> {
        let mut name_warnings = Vec::new();
        let mut load = |kind: NameKind| {
            let (place, explicit) = match (&options.name_files, &options.names_dir, &options.path) {
                (Some(files), ..) => (files.path(kind).to_path_buf(), true),
                (None, Some(dir), _) => (dir.clone(), true),
                (None, None, Some(path)) => (path.parent()?.to_path_buf(), false),
                (None, None, None) => return None,
            };
            let found = match &options.name_files {
                Some(_) => place.is_file().then(|| place.clone()),
                None => find_in(&place, kind),
            };
            let Some(path) = found else {
                if explicit {
                    let missing = match &options.name_files {
                        Some(_) => format!("no {} file {}", kind.noun(), place.display()),
                        None => format!("no {} in {}", kind.file_name(), place.display()),
                    };
                    name_warnings.push(
                        Diagnostic::warning(Code::WthorNamesUnreadable, missing)
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
                Ok(table) => {
                    let controls = table.names_with_controls();
                    if controls > 0 {
                        name_warnings.push(
                            Diagnostic::warning(
                                Code::SyntaxControlCharacter,
                                format!(
                                    "{controls} {} of {} hold control characters; they are read as U+FFFD",
                                    if controls == 1 { "name" } else { "names" },
                                    path.display()
                                ),
                            )
                            .help("a name is text: control characters in it are damage or crafted, and never reach an output")
                            .in_game(1),
                        );
                    }
                    Some(table)
                }
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
            zero_run: 0,
            failed: None,
        }
    }

    /// A reader that hands out [`Entry::Quick`] for 8x8 records the quick check may take.
    #[doc(hidden)]
    pub fn quick(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Reader<'a> {
        Reader {
            quick: true,
            ..Reader::new(input, options)
        }
    }

    /// What every record of the file shares (complete once the first entry is read).
    #[doc(hidden)]
    pub fn context(&self) -> &Arc<FileContext> {
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
            true,
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
    #[doc(hidden)]
    pub fn next_entry(&mut self) -> Option<io::Result<Entry>> {
        loop {
            if let Some(entry) = self.ready.pop_front() {
                return Some(Ok(entry));
            }
            match self.stage {
                Stage::Done => return self.failed.take().map(Err),
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
                    if got == buf.len() && buf.iter().all(|&b| b == 0) {
                        self.record_bytes = buf;
                        self.zero_run += 1;
                        if self.zero_run == MAX_ZERO_RECORDS {
                            self.stop_at_zeros();
                        }
                        continue;
                    }
                    self.flush_zero_run();
                    if got == buf.len() {
                        let entry = self.entry(&buf);
                        self.record_bytes = buf;
                        if let Some(previous) = self.pending.replace(entry) {
                            if self.ready.is_empty() {
                                return Some(Ok(previous));
                            }
                            self.ready.push_back(previous);
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

impl Reader<'_> {
    /// The entry of the complete record `bytes`: a quick record when the quick check may
    /// take it, else the game read in full.
    fn entry(&mut self, bytes: &[u8]) -> Entry {
        match self.quick.then(|| self.quick_record(bytes)).flatten() {
            Some(q) => Entry::Quick(q),
            None => Entry::Game(Box::new(self.record_game(bytes))),
        }
    }

    /// Hands out the all-zero records held back, now that a record that is not all zero
    /// (or the end) follows them: they were games after all.
    fn flush_zero_run(&mut self) {
        if self.zero_run == 0 {
            return;
        }
        let zeros = vec![0u8; self.ctx.geometry.record_len()];
        for _ in 0..std::mem::take(&mut self.zero_run) {
            let entry = self.entry(&zeros);
            if let Some(previous) = self.pending.replace(entry) {
                self.ready.push_back(previous);
            }
        }
    }

    /// Stops the reading at a run of [`MAX_ZERO_RECORDS`] all-zero records, with an error
    /// after the games before it.
    fn stop_at_zeros(&mut self) {
        let record_len = self.ctx.geometry.record_len();
        let from = self.file_offset;
        self.stage = Stage::Done;
        self.ready.extend(self.pending.take());
        self.failed = Some(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "from byte {from} on, the file holds only zero bytes ({MAX_ZERO_RECORDS} records of {record_len} zero bytes in a row, after game {}): \
                 this is not WTHOR game data (a file filled with zeros, or damaged); the rest is not read",
                self.complete
            ),
        ));
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
