//! The reader: lines (or CSV rows) split off as games, pragmas and Edax start positions,
//! each game read into a record.

use super::*;

#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct MoveStringReader<R> {
    pub(super) lines: LineReader<R>,
    pub(super) name: Arc<str>,
    pub(super) rules: Rules,
    pub(super) csv: Option<Csv>,
    pub(super) seen_content: bool,
    pub(super) index: usize,
}

/// A game line split off but not yet read (the reading is most of the work, and can be
/// done on another thread): [`PendingLine::read`] gives the game the reader would have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingLine {
    pub(super) name: Arc<str>,
    pub(super) index: usize,
    pub(super) rules: Rules,
    pub(super) line: Line,
}

impl PendingLine {
    /// The game of the line.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        let record = game_from_text(self.rules, &self.line.text, self.line.offset);
        let (record, diagnostics) = match record {
            Ok(record) => (Some(record), Vec::new()),
            Err(diagnostics) => (None, diagnostics),
        };
        make_game(&self.name, self.index, &self.line, record, diagnostics)
    }

    /// The game's index in its file.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The game as [`PendingLine::read`] gives it, without its record, when decoding found
    /// nothing in the line: for a game the quick scan took.
    #[doc(hidden)]
    pub fn unread(&self) -> Option<ParsedGame> {
        let clean = !self.line.too_long && self.line.problems.is_empty();
        clean.then(|| make_game(&self.name, self.index, &self.line, None, Vec::new()))
    }

    /// Scans a plain line into `moves` for the quick check, exactly as [`parse_moves`]
    /// reads it: its rules, or `None` when the line must be read in full (what decoding
    /// found, a line too long, an Edax start, any token that is not a square of the board
    /// or a pass).
    #[doc(hidden)]
    pub fn scan(&self, moves: &mut QuickMoves) -> Option<Rules> {
        let line = &self.line;
        if line.too_long || !line.problems.is_empty() {
            return None;
        }
        moves.clear();
        let side = self.rules.board().side();
        let bytes = line.text.as_bytes();
        let mut i = 0;
        while let Some(&b) = bytes.get(i) {
            if b.is_ascii_whitespace() || b == b',' {
                i += 1;
                continue;
            }
            // Every pass starts with one of these bytes.
            if matches!(b, b'p' | b'P' | b'-' | b'@') {
                if let Some(len) = pass_len(&bytes[i..]) {
                    moves.push(PASS).then_some(())?;
                    i += len;
                    continue;
                }
            }
            if !b.is_ascii_alphabetic() {
                return None;
            }
            let end = square_token_end(bytes, i);
            let sq = Square::from_ascii(&bytes[i..end]).ok()?;
            if sq.col() >= side || sq.row() >= side || !moves.push(code(sq.col(), sq.row())) {
                return None;
            }
            i = end;
        }
        Some(self.rules)
    }
}

/// What the reader splits off: a game read in full, or a game line to read.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub enum Entry {
    Game(Box<ParsedGame>),
    Line(PendingLine),
}

impl Entry {
    /// The game.
    pub(crate) fn read(self) -> ParsedGame {
        match self {
            Entry::Game(game) => *game,
            Entry::Line(line) => line.read(),
        }
    }
}

/// Game `index` of file `name`, on `line`.
pub(super) fn make_game(
    name: &Arc<str>,
    index: usize,
    line: &Line,
    record: Option<Record>,
    diags: Vec<Diagnostic>,
) -> ParsedGame {
    let record = if line.too_long { None } else { record };
    let diags: Vec<Diagnostic> = line.problems.iter().cloned().chain(diags).collect();
    ParsedGame {
        index,
        source: Source {
            name: name.clone(),
            text: line.text.as_str().into(),
            offset: line.offset,
            line: line.number,
        },
        record,
        diagnostics: Collected::from(
            diags
                .into_iter()
                .map(|d| d.in_game(index))
                .collect::<Vec<_>>(),
        )
        .into_vec(),
    }
}

/// Reads one game line under `rules`: an optional Edax start prefix, then moves.
pub(super) fn game_from_text(
    rules: Rules,
    text: &str,
    base: usize,
) -> Result<Record, Vec<Diagnostic>> {
    let board = rules.board();
    let mut record = Record::new(rules);
    let mut moves_text = text;
    let mut moves_base = base;
    let mut errors = Vec::new();
    if let Some(semicolon) = text.find(';') {
        match board_text::parse_board(&text[..semicolon], base, board) {
            Ok(parsed) if rules.players() == 2 => {
                record.start = Some(StartPosition {
                    setup: parsed.setup,
                    in_hand: None,
                    span: Some(parsed.span),
                });
                if let Some(extra) = parsed.rest_span(&text[..semicolon], base) {
                    errors.push(
                        Diagnostic::error(
                            Code::SyntaxBadMove,
                            "expected `;` after the side to move",
                        )
                        .at(Some(extra), "unexpected text")
                        .help("an Edax start is `<board> <X|O>;` followed by the moves"),
                    );
                }
            }
            Ok(parsed) => errors.push(
                Diagnostic::error(
                    Code::BoardBadStart,
                    format!(
                        "a start position prefix only holds 2 players, but the rules are {rules}"
                    ),
                )
                .at(Some(parsed.span), "start position"),
            ),
            Err(e) => errors.push(*e),
        }
        moves_text = &text[semicolon + 1..];
        moves_base = base + semicolon + 1;
    }
    match parse_moves(moves_text, moves_base, board) {
        Ok(moves) => record.moves = moves,
        Err(e) => errors.extend(e),
    }
    record.span = Some(Span::new(base, text.len()));
    if errors.is_empty() {
        Ok(record)
    } else {
        Err(errors)
    }
}

impl<R: BufRead> MoveStringReader<R> {
    pub(super) fn game(
        &mut self,
        line: &Line,
        record: Option<Record>,
        diags: Vec<Diagnostic>,
    ) -> ParsedGame {
        self.index += 1;
        make_game(&self.name, self.index, line, record, diags)
    }

    pub(super) fn pragma(&mut self, line: &Line, value: &str) -> Option<ParsedGame> {
        match value.parse::<Rules>() {
            Ok(rules) => {
                self.rules = rules;
                None
            }
            Err(e) => {
                let at = line.text.find(value).unwrap_or(0);
                let span = Span::new(line.offset + at, value.len());
                let diag = Diagnostic::error(Code::MovestrBadPragma, format!("bad rules: {e}"))
                    .at(Some(span), "not a rules string")
                    .help(format!(
                        "a pragma reads `%% rules: anti:10x10`; the lines after it keep the \
                         rules {}",
                        self.rules
                    ));
                Some(self.game(line, None, vec![diag]))
            }
        }
    }

    /// Reads a CSV row (joining lines while a quoted field is open).
    pub(super) fn csv_row(&mut self, mut line: Line) -> io::Result<ParsedGame> {
        let delimiter = self.csv.as_ref().map_or(b',', |c| c.delimiter);
        let fields = loop {
            match split_csv(&line.text, line.offset, delimiter) {
                CsvLine::Complete(fields) => break Some(fields),
                CsvLine::Open => match self.lines.next_line() {
                    Some(next) => {
                        let next = next?;
                        line.problems.extend(next.problems);
                        if next.too_long || line.text.len() + next.text.len() > MAX_GAME_BYTES {
                            line.too_long = true;
                            line.problems.push(text::too_long(
                                "a quoted CSV field",
                                line.number,
                                line.text.len() + next.text.len(),
                            ));
                            line.text.clear();
                            return Ok(self.game(&line, None, Vec::new()));
                        }
                        line.text.push_str(line.terminator);
                        line.text.push_str(&next.text);
                        line.terminator = next.terminator;
                    }
                    None => break None,
                },
            }
        };
        let Some(fields) = fields else {
            let diag = Diagnostic::error(Code::CsvUnterminatedQuote, "a quoted field never ends")
                .at(Some(Span::new(line.offset, line.text.len())), "this row")
                .help("close the field with `\"`; write a quote inside a field as `\"\"`");
            return Ok(self.game(&line, None, vec![diag]));
        };
        if let Some(extra) = fields.get(MAX_CSV_FIELDS) {
            let d = text::too_large("fields", MAX_CSV_FIELDS, Some(extra.span));
            return Ok(self.game(&line, None, vec![d]));
        }
        let chosen = match self.csv.as_ref().and_then(|c| c.moves_column) {
            Some(c) => Some(c),
            None => fields.iter().position(
                |f| matches!(parse_moves(&f.text, 0, self.rules.board()), Ok(m) if !m.is_empty()),
            ),
        };
        let Some(column) = chosen else {
            let diag = Diagnostic::error(
                Code::CsvNoMovesColumn,
                "no column of this row holds a move string",
            )
            .at(Some(Span::new(line.offset, line.text.len())), "this row")
            .help(format!(
                "name the moves column `moves` in the header (or one of: {})",
                MOVE_COLUMNS.join(", ")
            ));
            return Ok(self.game(&line, None, vec![diag]));
        };
        if let Some(csv) = self.csv.as_mut() {
            csv.moves_column = Some(column);
        }
        let Some(field) = fields.get(column) else {
            let name = self
                .csv
                .as_ref()
                .map_or_else(String::new, |c| c.name(column));
            let diag = Diagnostic::error(
                Code::CsvMissingField,
                format!(
                    "this row has {} fields, so no `{name}` column (column {})",
                    fields.len(),
                    column + 1
                ),
            )
            .at(Some(Span::new(line.offset, line.text.len())), "this row")
            .help("every row needs a field for each column of the header");
            return Ok(self.game(&line, None, vec![diag]));
        };
        let result = game_from_text(self.rules, &field.text, field.offset);
        let game = match result {
            Ok(mut record) => {
                for_each_span(&mut record, |s| *s = field.line_span(*s));
                let result_column = self.csv.as_ref().and_then(|c| c.result_column);
                let mut warnings = Vec::new();
                for (i, f) in fields.iter().enumerate() {
                    if i == column || f.text.trim().is_empty() {
                        continue;
                    }
                    let name = self.csv.as_ref().map_or_else(String::new, |c| c.name(i));
                    if Some(i) == result_column {
                        match score::parse_result(&f.text) {
                            Ok(read) => {
                                record.result = read.map(|r| r.claimed(Some(f.trimmed_span())));
                                continue;
                            }
                            Err(e) => warnings.push(text::unreadable_result(
                                &format!("the `{name}` column"),
                                &name,
                                &e,
                                f.trimmed_span(),
                            )),
                        }
                    }
                    let mut tag = Tag::new(name, f.text.trim());
                    tag.span = Some(f.span);
                    record.tags.push(tag);
                }
                record.span = Some(Span::new(line.offset, line.text.len()));
                self.game(&line, Some(record), warnings)
            }
            Err(mut diags) => {
                for d in &mut diags {
                    let labels = d.related.iter_mut().map(|l| &mut l.span);
                    for span in d.span.iter_mut().chain(labels) {
                        *span = field.line_span(*span);
                    }
                }
                self.game(&line, None, diags)
            }
        };
        Ok(game)
    }
}

impl<R: BufRead> MoveStringReader<R> {
    /// The next entry: a game line split off, or a game read in full (CSV rows, bad
    /// pragmas, lines too long).
    #[doc(hidden)]
    pub fn next_entry(&mut self) -> Option<io::Result<Entry>> {
        loop {
            let line = match self.lines.next_line()? {
                Ok(line) => line,
                Err(e) => return Some(Err(e)),
            };
            if line.too_long {
                return Some(Ok(Entry::Game(Box::new(self.game(
                    &line,
                    None,
                    Vec::new(),
                )))));
            }
            let trimmed = line.text.trim();
            if let Some(value) = pragma_rules(trimmed) {
                match self.pragma(&line, value) {
                    Some(game) => return Some(Ok(Entry::Game(Box::new(game)))),
                    None => continue,
                }
            }
            if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
                continue;
            }
            if !self.seen_content {
                self.seen_content = true;
                if let Some(delimiter) = csv_delimiter(&line.text) {
                    if let CsvLine::Complete(fields) = split_csv(&line.text, line.offset, delimiter)
                    {
                        self.csv = Some(Csv::from_header(&fields, delimiter));
                        continue;
                    }
                }
            }
            if self.csv.is_some() {
                return Some(self.csv_row(line).map(|game| Entry::Game(Box::new(game))));
            }
            self.index += 1;
            return Some(Ok(Entry::Line(PendingLine {
                name: self.name.clone(),
                index: self.index,
                rules: self.rules,
                line,
            })));
        }
    }
}

impl<R: BufRead> Iterator for MoveStringReader<R> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        Some(self.next_entry()?.map(Entry::read))
    }
}
