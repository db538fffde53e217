//! Decoding one record into a game: its line of the text view, its findings, and its
//! record; and the quick record the pipeline checks without reading it in full.

use std::sync::Arc;

use super::names::{NameKind, NameTable};
use super::{
    Geometry, Header, BLACK_TAG, BOARD_SIZE_TAG, CREATED_TAG, DEPTH_TAG, TOURNAMENT_TAG, WHITE_TAG,
};
use crate::codes::Code;
use crate::diagnostic::{Diagnostic, Source};
use crate::engine::{Move, Rules, Square};
use crate::record::{ClaimedResult, MoveRecord, Record, Span, Tag, TagName};
use crate::text::{decimal, push_decimal};
use crate::ParsedGame;

/// One line of the virtual text file, under construction.
pub(super) struct TextLine {
    /// Offset of the line in the virtual text.
    pub(super) base: usize,
    pub(super) text: String,
}

impl TextLine {
    pub(super) fn new(base: usize) -> TextLine {
        TextLine::reusing(base, String::new())
    }

    /// A line built in `buffer` (cleared first), so that its allocation is reused.
    pub(super) fn reusing(base: usize, mut buffer: String) -> TextLine {
        buffer.clear();
        TextLine { base, text: buffer }
    }

    /// Appends `s` and returns its span.
    pub(super) fn push(&mut self, s: &str) -> Span {
        let span = Span::new(self.base + self.text.len(), s.len());
        self.text.push_str(s);
        span
    }

    /// Appends `n` in decimal and returns its span (no formatting machinery: this runs
    /// several times per record).
    pub(super) fn push_number(&mut self, n: usize) -> Span {
        let start = self.text.len();
        push_decimal(&mut self.text, n);
        self.since(start)
    }

    /// The span of the text appended since the text was `start` bytes long.
    pub(super) fn since(&self, start: usize) -> Span {
        Span::new(self.base + start, self.text.len() - start)
    }

    pub(super) fn span(&self) -> Span {
        Span::new(self.base, self.text.len())
    }
}

/// `n` in decimal, as a string of exactly its length.
pub(super) fn decimal_string(n: usize) -> String {
    let digits = n.checked_ilog10().map_or(1, |l| l as usize + 1);
    let mut out = String::with_capacity(digits);
    push_decimal(&mut out, n);
    out
}

/// What every record of a file shares once its header is read: the header, the name
/// tables and the values formatted once. The pipeline's blocks share it (`Arc`), so that a
/// [`QuickRecord`] that fails the quick check can be read in full on any thread.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct FileContext {
    pub(super) name: Arc<str>,
    pub(super) header: Header,
    pub(super) geometry: Geometry,
    pub(super) tournaments: Option<Arc<NameTable>>,
    pub(super) players: Option<Arc<NameTable>>,
    /// Tag values every record of the file shares, formatted once.
    pub(super) shared: SharedValues,
    /// Each move byte's square and its name, for the file's geometry.
    pub(super) move_bytes: Vec<Option<(Square, String)>>,
}

/// A quick record's facts for the checks across games ([`FileContext::quick_identity`]).
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct QuickIdentity<'a> {
    pub rules: Rules,
    pub discs: [u8; 2],
    pub year: Option<&'a str>,
    /// The tournament, Black and White: a table and an index into it.
    pub names: [Option<(&'a Arc<NameTable>, u16)>; 3],
}

impl QuickRecord {
    /// The record's game number in its file (1-based).
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// Whether the quick check passes the record: its moves, decoded on the way (every
    /// byte names a square, or the record would not be quick), replayed as standard
    /// Othello with passes left out, and its score.
    #[doc(hidden)]
    pub fn is_clean(&self) -> bool {
        use crate::engine::quick::standard;
        standard().replay(
            self.codes(),
            false,
            Some((self.bytes[6], 64 - self.bytes[6])),
        )
    }

    /// The squares of its moves, as the quick board's codes (`row << 4 | col`).
    pub(crate) fn codes(&self) -> impl Iterator<Item = u8> + '_ {
        self.move_bytes()
            .iter()
            .map(|&b| QUICK_CODES[usize::from(b)])
    }

    /// Its move bytes, up to the first 0; [`QUICK_CODES`] gives each its square.
    #[doc(hidden)]
    pub fn move_bytes(&self) -> &[u8] {
        let moves = &self.bytes[8..];
        let n = moves.iter().position(|&b| b == 0).unwrap_or(moves.len());
        &moves[..n]
    }
}

/// The quick board's code of each 8x8 move byte (`10 * row + col`, from 1); 0 for the
/// bytes a quick record never holds.
#[doc(hidden)]
pub const QUICK_CODES: [u8; 256] = {
    let mut codes = [0; 256];
    let mut b = 11;
    while b <= 88 {
        if b % 10 >= 1 && b % 10 <= 8 {
            codes[b] = crate::engine::quick::code((b % 10 - 1) as u8, (b / 10 - 1) as u8);
        }
        b += 1;
    }
    codes
};

/// An 8x8 record whose fields and move bytes are well formed, with where it lies in the
/// file and in the text view: enough to replay it quickly, or to read it in full
/// ([`FileContext::read_quick`]) exactly as the reader would have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct QuickRecord {
    pub(super) index: usize,
    pub(super) file_offset: usize,
    pub(super) text_offset: usize,
    pub(super) bytes: [u8; 68],
}

/// Tag values that come from the header, formatted once per file.
#[derive(Default)]
pub(super) struct SharedValues {
    pub(super) created: String,
    pub(super) year: String,
    pub(super) board_size: String,
    pub(super) depth: String,
    pub(super) theoretical_depth: Option<String>,
}

impl SharedValues {
    pub(super) fn of(h: &Header) -> SharedValues {
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

/// Reading records: everything here depends only on the file's header and name tables.
impl FileContext {
    /// The name at `index` of `table`, or its index with a warning when the table lacks it.
    pub(super) fn name(
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
    /// was wrong (and `build` asks for it).
    pub(super) fn record_game(
        &self,
        bytes: &[u8],
        index: usize,
        offset: usize,
        mut line: TextLine,
        file_findings: impl FnOnce(&RawRecord, &RecordFields, &mut TextLine, &mut Vec<Diagnostic>),
        build: bool,
    ) -> (Option<Record>, TextLine, Vec<Diagnostic>) {
        let raw = RawRecord::of(bytes, index, offset);
        let slots = &bytes[8..];
        let mut diagnostics = Vec::new();
        let fields = self.describe_fields(&raw, &mut line, &mut diagnostics);
        let mut error = check_scores(&raw, self.geometry, &fields, &mut diagnostics);
        let (moves, end, bad_move) =
            self.decode_moves(&raw, slots, &mut line, &mut diagnostics, build);
        error |= bad_move;
        error |= check_after_end(&raw, slots, end, &fields, &mut line, &mut diagnostics);
        file_findings(&raw, &fields, &mut line, &mut diagnostics);
        let record = (build && !error).then(|| self.build_record(&raw, fields, moves, &line));
        (record, line, diagnostics)
    }

    /// What the record of `q` holds, without building it: each tag handed to `tag`, each
    /// move's square to `square`, in order; returns the rules and the claimed discs
    /// (Black's, White's). The same tags, moves and result as [`FileContext::read_quick`]'s
    /// record.
    #[doc(hidden)]
    pub fn view_quick(
        &self,
        q: &QuickRecord,
        tags: Tags,
        mut tag: impl FnMut(&str, &str),
        mut square: impl FnMut(Square),
    ) -> (Rules, [u8; 2]) {
        let raw = RawRecord::of(&q.bytes, q.index, q.file_offset);
        let (tournaments, players) = (self.tournaments.as_deref(), self.players.as_deref());
        let names = [
            tournaments.and_then(|t| t.get(raw.tournament)),
            players.and_then(|t| t.get(raw.black)),
            players.and_then(|t| t.get(raw.white)),
        ];
        self.each_tag(&raw, names, tags, |name, value, _| match value {
            TagValue::Name(value) | TagValue::Text(value) => tag(name, value),
        });
        for &byte in q.bytes[8..].iter().take_while(|&&b| b != 0) {
            if let Some(Some((sq, _))) = self.move_bytes.get(usize::from(byte)) {
                square(*sq);
            }
        }
        let total = self.geometry.squares();
        (
            Rules::othello(self.geometry.board()),
            [raw.score, total - raw.score],
        )
    }

    /// What the checks across games take of a quick record, as [`FileContext::view_quick`]
    /// gives it but without looking its names up: the rules and the discs, the file's
    /// year (its `Date` tag; `None` for year 0), the tournament's, Black's and White's
    /// indexes with their tables (`None` without the table). Its squares are
    /// [`QuickRecord::codes`].
    #[doc(hidden)]
    pub fn quick_identity(&self, q: &QuickRecord) -> QuickIdentity<'_> {
        let raw = RawRecord::of(&q.bytes, q.index, q.file_offset);
        let (tournaments, players) = (self.tournaments.as_ref(), self.players.as_ref());
        let total = self.geometry.squares();
        QuickIdentity {
            rules: Rules::othello(self.geometry.board()),
            discs: [raw.score, total - raw.score],
            year: (self.header.game_year != 0).then_some(self.shared.year.as_str()),
            names: [
                tournaments.map(|t| (t, raw.tournament)),
                players.map(|t| (t, raw.black)),
                players.map(|t| (t, raw.white)),
            ],
        }
    }

    /// The game of a [`QuickRecord`] that did not pass the quick check, read in full: the
    /// same game [`Reader`] gives for it.
    #[doc(hidden)]
    pub fn read_quick(&self, q: &QuickRecord) -> ParsedGame {
        let (record, line, diagnostics) = self.decode_quick(q, TextLine::new(q.text_offset), true);
        self.finish_game(q.index, line, record, diagnostics).0
    }

    /// [`FileContext::record_game`] for a quick record (whose file has nothing to say of
    /// it), into `line`.
    fn decode_quick(
        &self,
        q: &QuickRecord,
        line: TextLine,
        build: bool,
    ) -> (Option<Record>, TextLine, Vec<Diagnostic>) {
        let no_findings = |_: &RawRecord, _: &RecordFields, _: &mut TextLine, _: &mut Vec<_>| {};
        self.record_game(&q.bytes, q.index, q.file_offset, line, no_findings, build)
    }

    /// The game of a [`QuickRecord`] as [`FileContext::read_quick`] gives it, but with no
    /// record built (for a caller that takes the game's contents from
    /// [`FileContext::view_quick`]); `None` when the reader has something to report. The
    /// text-view line is laid out in `buffer`, kept for the next call.
    #[doc(hidden)]
    pub fn read_quick_unbuilt(&self, q: &QuickRecord, buffer: &mut String) -> Option<ParsedGame> {
        let line = TextLine::reusing(q.text_offset, std::mem::take(buffer));
        let (_, line, diagnostics) = self.decode_quick(q, line, false);
        if !diagnostics.is_empty() {
            *buffer = line.text;
            return None;
        }
        let (game, text) = self.finish_game(q.index, line, None, diagnostics);
        *buffer = text;
        Some(game)
    }

    /// The game of `line`, and the line's buffer for reuse.
    pub(super) fn finish_game(
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
    pub(super) fn quick_line_len(
        &self,
        bytes: &[u8; 68],
        index: usize,
        offset: usize,
    ) -> Option<usize> {
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
    pub(super) fn describe_fields(
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

    /// Decodes the move bytes up to the first 0 into the line and (when `build`) the moves;
    /// returns the moves, the slot where they end, and whether a byte named no square (an
    /// error).
    pub(super) fn decode_moves(
        &self,
        raw: &RawRecord,
        slots: &[u8],
        line: &mut TextLine,
        diagnostics: &mut Vec<Diagnostic>,
        build: bool,
    ) -> (Vec<MoveRecord>, usize, bool) {
        let geometry = self.geometry;
        let mut error = false;
        let end = slots.iter().position(|&b| b == 0).unwrap_or(slots.len());
        let mut moves = Vec::with_capacity(if build { end } else { 0 });
        for (i, &byte) in slots[..end].iter().enumerate() {
            line.push(" ");
            match self
                .move_bytes
                .get(usize::from(byte))
                .and_then(Option::as_ref)
            {
                Some((sq, name)) => {
                    let span = line.push(name);
                    if build {
                        moves.push(MoveRecord::new(Move::Place(*sq)).at(span));
                    }
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
    pub(super) fn build_record(
        &self,
        raw: &RawRecord,
        fields: RecordFields,
        moves: Vec<MoveRecord>,
        line: &TextLine,
    ) -> Record {
        let (event_span, event) = fields.event;
        let (black_span, black) = fields.black;
        let (white_span, white) = fields.white;
        let mut tags = Vec::with_capacity(12);
        self.each_tag(
            raw,
            [event, black, white],
            Tags::All,
            |name, value, field| {
                let span = match field {
                    TagField::Event => Some(event_span),
                    TagField::Black => Some(black_span),
                    TagField::White => Some(white_span),
                    TagField::Year => fields.year_span,
                    TagField::Theoretical => Some(fields.theoretical_span),
                    TagField::Depth => Some(fields.depth_span),
                    TagField::Header => None,
                };
                tags.push(Tag {
                    name: name.to_owned(),
                    // The names found are moved into their tags rather than copied.
                    value: match value {
                        TagValue::Name(name) => name,
                        TagValue::Text(text) => text.to_owned(),
                    },
                    span,
                });
            },
        );
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

/// Which field of a record a tag is read from (where its span is).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum TagField {
    Event,
    Year,
    Black,
    White,
    Theoretical,
    Depth,
    /// The file's header, shared by every record.
    Header,
}

/// A tag's value: a name from a name table (given as the caller holds it), or text.
pub(super) enum TagValue<'v, N> {
    Name(N),
    Text(&'v str),
}

/// Which of a record's tags a view hands over.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[doc(hidden)]
pub enum Tags {
    /// Every tag the record has.
    All,
    /// Only those that say who played and where ([`crate::record::IDENTITY_TAGS`]): the
    /// event, the date and the players (a WTHOR record has no round or board).
    Identity,
}

impl FileContext {
    /// How many tags a record's view gives beyond [`Tags::Identity`]'s (its theoretical
    /// score and depth, its name indexes, the header's fields): what a view of the
    /// identity alone leaves uncounted.
    #[doc(hidden)]
    pub fn tags_beyond_identity(&self) -> u8 {
        7 + u8::from(self.shared.theoretical_depth.is_some())
    }

    /// The tags of record `raw`, in order (`tags` says which), each handed to `tag` with the field it is read
    /// from; `names` are the tournament's and the players' names found in the name tables
    /// (`None` without a table).
    pub(super) fn each_tag<N>(
        &self,
        raw: &RawRecord,
        names: [Option<N>; 3],
        tags: Tags,
        mut tag: impl FnMut(&'static str, TagValue<'_, N>, TagField),
    ) {
        let [event, black, white] = names;
        let mut digits = [0; 20];
        if let Some(event) = event {
            tag(TagName::EVENT, TagValue::Name(event), TagField::Event);
        }
        if self.header.game_year != 0 {
            tag(
                TagName::DATE,
                TagValue::Text(&self.shared.year),
                TagField::Year,
            );
        }
        if let Some(name) = black {
            tag(
                TagName::player(crate::Color::Black),
                TagValue::Name(name),
                TagField::Black,
            );
        }
        if let Some(name) = white {
            tag(
                TagName::player(crate::Color::White),
                TagValue::Name(name),
                TagField::White,
            );
        }
        if tags == Tags::Identity {
            return;
        }
        let theoretical = decimal(raw.theoretical.into(), &mut digits);
        tag(
            TagName::THEORETICAL_SCORE,
            TagValue::Text(theoretical),
            TagField::Theoretical,
        );
        if let Some(depth) = &self.shared.theoretical_depth {
            tag(
                TagName::THEORETICAL_DEPTH,
                TagValue::Text(depth),
                TagField::Depth,
            );
        }
        let tournament = decimal(raw.tournament.into(), &mut digits);
        tag(TOURNAMENT_TAG, TagValue::Text(tournament), TagField::Event);
        let black = decimal(raw.black.into(), &mut digits);
        tag(BLACK_TAG, TagValue::Text(black), TagField::Black);
        let white = decimal(raw.white.into(), &mut digits);
        tag(WHITE_TAG, TagValue::Text(white), TagField::White);
        let shared = &self.shared;
        tag(
            CREATED_TAG,
            TagValue::Text(&shared.created),
            TagField::Header,
        );
        tag(
            BOARD_SIZE_TAG,
            TagValue::Text(&shared.board_size),
            TagField::Header,
        );
        tag(DEPTH_TAG, TagValue::Text(&shared.depth), TagField::Header);
    }
}

/// Decimal digits of `n`.
pub(super) fn digits(n: usize) -> usize {
    n.checked_ilog10().map_or(1, |l| l as usize + 1)
}

impl RawRecord {
    /// The fixed fields of the record `bytes` (68 of them), game `index` at byte `offset`.
    pub(super) fn of(bytes: &[u8], index: usize, offset: usize) -> RawRecord {
        let u16_at = |i: usize| u16::from_le_bytes([bytes[i], bytes[i + 1]]);
        RawRecord {
            index,
            offset,
            tournament: u16_at(0),
            black: u16_at(2),
            white: u16_at(4),
            score: bytes[6],
            theoretical: bytes[7],
        }
    }
}

/// The fixed fields of one record, as read.
pub(super) struct RawRecord {
    /// 1-based game number.
    pub(super) index: usize,
    /// File offset of the record.
    pub(super) offset: usize,
    pub(super) tournament: u16,
    pub(super) black: u16,
    pub(super) white: u16,
    pub(super) score: u8,
    pub(super) theoretical: u8,
}

/// Where a record's fields are in its line, and the names found for its indices.
pub(super) struct RecordFields {
    pub(super) index_span: Span,
    pub(super) event: (Span, Option<String>),
    pub(super) year_span: Option<Span>,
    pub(super) black: (Span, Option<String>),
    pub(super) white: (Span, Option<String>),
    pub(super) score_span: Span,
    pub(super) theoretical_span: Span,
    pub(super) depth_span: Span,
}

/// Checks the score and the theoretical score against the board's squares; whether one
/// was too high (an error).
pub(super) fn check_scores(
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
pub(super) fn check_after_end(
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
