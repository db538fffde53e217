//! One grid read into a record: its cells, the numbers they hold, the moves they make and
//! the result its header or footer says.

use super::*;

/// What a cell of the grid says.
pub(super) enum Cell {
    Number(u32, Span),
    Empty,
    Disc(Option<Color>),
}

/// The game of `block`, the file's `index`th: `rules` are for a grid without a `Rules:`
/// header whose board fits its rows.
pub(super) fn build_game(
    mut block: Block,
    index: usize,
    name: &Arc<str>,
    rules: Option<Rules>,
) -> ParsedGame {
    let (offset, line) = block.start;
    if let Some(too_long) = block.too_long.take() {
        return ParsedGame {
            index,
            source: Source {
                name: name.clone(),
                text: Arc::from(""),
                offset,
                line,
            },
            record: None,
            diagnostics: vec![too_long.in_game(index)],
        };
    }
    let source = Source {
        name: name.clone(),
        text: Arc::from(block.text.get(..block.end - offset).unwrap_or_default()),
        offset,
        line,
    };
    let span = Span::new(offset, block.end - offset);
    let in_game = |diags: Vec<Diagnostic>| diags.into_iter().map(|d| d.in_game(index)).collect();
    let (record, diagnostics) = match grid_record(&block, span, rules) {
        Ok((record, warnings)) => (Some(record), in_game(warnings)),
        Err(diags) => (None, in_game(diags)),
    };
    ParsedGame {
        index,
        source,
        record,
        diagnostics,
    }
}

/// Reads a block into a record: its headers, the rules, the cells row by row, then the
/// move numbers checked for duplicates and gaps. Every problem in the grid is reported,
/// in the order of the text.
pub(super) fn grid_record(
    block: &Block,
    span: Span,
    rules: Option<Rules>,
) -> Result<(Record, Vec<Diagnostic>), Vec<Diagnostic>> {
    let headers = read_headers(block)?;
    let stated_rules = headers.rules;
    let rules = grid_rules(block, span, stated_rules.map(|(r, _)| r), rules)?;
    let layout = Layout::of(rules);
    let mut grid = Grid::default();
    let labels = row_labels(block);
    for (r, row) in block.row_lines.iter().enumerate() {
        grid.read_row(&layout, labels, r, row);
    }
    grid.check_numbers();
    let Grid {
        numbers,
        letters,
        mut errors,
    } = grid;
    if !errors.is_empty() {
        errors.extend(headers.warnings);
        errors.sort_by_key(|d| d.span.map_or(0, |s| s.offset));
        return Err(errors);
    }
    let mut record = Record::new(rules);
    record.rules_span = stated_rules.map(|(_, s)| s);
    record.tags = headers.tags;
    record.result = headers.result;
    record.span = Some(span);
    // The first square of each number (a number on several is an error, reported).
    record.moves = numbers
        .chunk_by(|a, b| a.0 == b.0)
        .map(|group| MoveRecord::new(Move::Place(group[0].1)).at(group[0].2))
        .collect();
    record.start = start_position(&rules, &letters, record.moves.first().map(|m| m.mv));
    Ok((record, headers.warnings))
}

/// The rules a `Rules:` header states, and where.
pub(super) type StatedRules = Option<(Rules, Span)>;

/// What a grid's header lines say.
pub(super) struct Headers {
    pub(super) tags: Vec<Tag>,
    pub(super) rules: StatedRules,
    /// The result a `Result:` header (or `Score:`, ...) claims.
    pub(super) result: Option<ClaimedResult>,
    /// A result header that cannot be read (kept as a tag).
    pub(super) warnings: Vec<Diagnostic>,
}

/// The block's header lines: the rules a `Rules:` header states, the result the first
/// result header (`Result:`, `Score:`, ...) claims, and every other header as a tag.
pub(super) fn read_headers(block: &Block) -> Result<Headers, Vec<Diagnostic>> {
    let mut tags = Vec::new();
    let mut stated_rules = None;
    let mut result = None;
    let mut result_read = false;
    let mut warnings = Vec::new();
    for h in &block.header_lines {
        if score::is_result_field(&h.name) && !result_read {
            result_read = true;
            match score::parse_result(&h.value) {
                Ok(read) => {
                    result = read.map(|r| r.claimed(Some(h.value_span)));
                    continue;
                }
                Err(e) => warnings.push(text::unreadable_result(
                    &format!("the `{}` header", h.name),
                    &h.name,
                    &e,
                    h.value_span,
                )),
            }
        }
        if h.name.eq_ignore_ascii_case("rules") {
            match h.value.parse::<Rules>() {
                Ok(rules) => stated_rules = Some((rules, h.span)),
                Err(e) => {
                    return Err(vec![Diagnostic::error(
                        Code::TranscriptBadRules,
                        format!("bad rules: {e}"),
                    )
                    .at(Some(h.span), "not a rules string")
                    .help("write the rules as in `Rules: anti:10x10`")])
                }
            }
        } else {
            let mut tag = Tag::new(h.name.clone(), h.value.clone());
            tag.span = Some(h.span);
            tags.push(tag);
        }
    }
    Ok(Headers {
        tags,
        rules: stated_rules,
        result,
        warnings,
    })
}

/// The grid's rules: as stated, else `--rules` when its board fits the rows, else Othello
/// on a board of as many rows; refused when there is no grid or its rows do not fit.
pub(super) fn grid_rules(
    block: &Block,
    span: Span,
    stated: Option<Rules>,
    given: Option<Rules>,
) -> Result<Rules, Vec<Diagnostic>> {
    if block.row_lines.is_empty() {
        return Err(vec![Diagnostic::error(
            Code::TranscriptMissingGrid,
            "header lines with no grid after them",
        )
        .at(Some(span), "these headers")
        .help("a grid of move numbers follows its header lines")]);
    }
    let n = block.row_lines.len();
    let rules = match (stated, given) {
        (Some(rules), _) => rules,
        (None, Some(rules)) if usize::from(rules.board().side()) == n => rules,
        (None, _) => {
            match n {
                4 => Rules::othello(BoardShape::Four),
                6 => Rules::othello(BoardShape::Six),
                8 => Rules::othello(BoardShape::Eight),
                10 => Rules::othello(BoardShape::Ten),
                _ => {
                    return Err(vec![Diagnostic::error(
                    Code::TranscriptBadShape,
                    format!("a grid has 6, 8 or 10 rows, but this one has {n}"),
                )
                .at(Some(span), format!("{n} rows"))
                .help("a grid has one line per row of the board; grids are separated by blank lines")]);
                }
            }
        }
    };
    let board = rules.board();
    let side = usize::from(board.side());
    if n != side {
        return Err(vec![Diagnostic::error(
            Code::TranscriptBadShape,
            format!("the {board} board has {side} rows, but this grid has {n}"),
        )
        .at(Some(span), format!("{n} rows"))
        .help("a grid has one line per row of the board")]);
    }
    Ok(rules)
}

/// Whether the rows carry their row numbers on the left and on the right: when most rows
/// have them there.
pub(super) fn row_labels(block: &Block) -> (bool, bool) {
    let n = block.row_lines.len();
    let labelled = |pick: fn(&[Token]) -> Option<&Token>| {
        let count = block
            .row_lines
            .iter()
            .enumerate()
            .filter(|(r, row)| pick(&row.tokens).is_some_and(|t| *t.text == (r + 1).to_string()))
            .count();
        count * 2 > n
    };
    (labelled(<[Token]>::first), labelled(<[Token]>::last))
}

/// The board of a grid: which squares are filled before move 1 and how many moves fit.
pub(super) struct Layout {
    pub(super) rules: Rules,
    /// The squares printed before move 1: off the board, blocked, neutral or a start disc.
    pub(super) printed: SquareSet,
    /// The highest move number: the squares left to fill.
    pub(super) max: u32,
}

impl Layout {
    /// The layout of `rules`' board and start.
    pub(super) fn of(rules: Rules) -> Layout {
        let board = rules.board();
        let (start_discs, neutral) = rules.start_discs();
        let filled = start_discs
            .iter()
            .fold(rules.blocked().union(neutral), |all, discs| {
                all.union(*discs)
            });
        let playable_count = board.cells().len()
            - rules.blocked().len()
            - neutral.len()
            - start_discs.iter().map(|s| s.len()).sum::<usize>();
        Layout {
            rules,
            printed: SquareSet(!board.cells().0).union(filled),
            max: u32::try_from(playable_count).unwrap_or(u32::MAX),
        }
    }

    /// Whether `sq` is printed before move 1: off the board, blocked, neutral or a start disc.
    pub(super) fn preprinted(&self, sq: Square) -> bool {
        self.printed.contains(sq)
    }

    /// The squares of 0-based row `row` printed before move 1, bit `c` for column `c`:
    /// what [`Layout::preprinted`] says of each of them, at once.
    pub(super) fn printed_row(&self, row: u8) -> u16 {
        let side = self.rules.board().side();
        // A set's bit for a square is its index, `row * MAX_SIDE + col`.
        let bits = (self.printed.0)
            .checked_shr(u32::from(row) * u32::from(MAX_SIDE))
            .unwrap_or(0);
        bits as u16 & ((1 << side) - 1)
    }
}

/// What the cells of a grid say, gathered row by row.
#[derive(Default)]
pub(super) struct Grid {
    /// Each move number with the square it stands on, in the order of the text; sorted
    /// by number (the text's order kept among equal ones) by [`Grid::check_numbers`].
    pub(super) numbers: Vec<(u32, Square, Span)>,
    /// Start squares written as discs.
    pub(super) letters: Vec<(Square, Option<Color>)>,
    pub(super) errors: Vec<Diagnostic>,
}

impl Grid {
    /// Reads row `r` (0-based): its cells without row numbers, all squares or only those
    /// not filled before move 1.
    pub(super) fn read_row(
        &mut self,
        layout: &Layout,
        labels: (bool, bool),
        r: usize,
        row: &RowLine,
    ) {
        let side = usize::from(layout.rules.board().side());
        let squares: Vec<Square> = (0..side)
            .filter_map(|c| Square::new(c as u8, r as u8))
            .collect();
        let omittable: Vec<Square> = squares
            .iter()
            .copied()
            .filter(|&sq| !layout.preprinted(sq))
            .collect();
        let Some(cells) = strip_labels(&row.tokens, r + 1, labels, side, omittable.len()) else {
            let found = row.tokens.len() - usize::from(labels.0) - usize::from(labels.1);
            let short = side - omittable.len();
            self.errors.push(
                Diagnostic::error(
                    Code::TranscriptBadShape,
                    format!(
                        "row {}{} has {found} squares, but expected {side}{}",
                        r + 1,
                        match labels {
                            (false, false) => "",
                            _ => " (besides its row number)",
                        },
                        if short > 0 {
                            format!(" (or {} without its start squares)", omittable.len())
                        } else {
                            String::new()
                        }
                    ),
                )
                .at(Some(row.span), format!("{found} squares"))
                .help("each row has one entry per square (a move number or `.`); when most rows carry their row number on a side, every row does"),
            );
            return;
        };
        let targets = if cells.len() == side {
            &squares
        } else {
            &omittable
        };
        for (token, &sq) in cells.iter().zip(targets) {
            self.read_square(layout, token, sq);
        }
    }

    /// Reads the cell on `sq`: a move number, `.`, or a disc on a start square.
    pub(super) fn read_square(&mut self, layout: &Layout, token: &Token, sq: Square) {
        let (board, max) = (layout.rules.board(), layout.max);
        let errors = &mut self.errors;
        match read_cell(token) {
            Some(Cell::Number(0, _)) if layout.preprinted(sq) => {}
            Some(Cell::Number(k, span)) if layout.preprinted(sq) => errors.push(
                Diagnostic::error(
                    Code::TranscriptNumberOnStartSquare,
                    format!("move {k} is written on {sq}, which is filled before move 1"),
                )
                .at(Some(span), "a start square")
                .help("leave start squares out, or write `0` or their disc (`X`/`O`) there"),
            ),
            Some(Cell::Number(k, span)) if k == 0 || k > max => errors.push(
                Diagnostic::error(
                    Code::TranscriptNumberOutOfRange,
                    format!("move numbers run from 1 to {max}, but {sq} holds {k}"),
                )
                .at(Some(span), "out of range")
                .help(format!("the {board} board has {max} squares to fill; write `.` for a square left empty")),
            ),
            Some(Cell::Number(k, span)) => self.numbers.push((k, sq, span)),
            Some(Cell::Empty) => {}
            Some(Cell::Disc(color)) if layout.preprinted(sq) => self.letters.push((sq, color)),
            Some(Cell::Disc(_)) => errors.push(
                Diagnostic::error(
                    Code::TranscriptBadCell,
                    format!("`{}` on {sq}: only start squares hold a disc before move 1", token.text),
                )
                .at(Some(token.span), "not a start square")
                .help("write the number of the move that filled the square, or `.` if it stayed empty"),
            ),
            None => errors.push(
                Diagnostic::error(
                    Code::TranscriptBadCell,
                    format!("expected a move number or `.` on {sq}, but found `{}`", token.text),
                )
                .at(Some(token.span), "not a move number")
                .help("a square holds the number of the move that filled it, or `.` if it stayed empty"),
            ),
        }
    }

    /// Sorts the move numbers, and reports those written on several squares and those
    /// missing before the last.
    pub(super) fn check_numbers(&mut self) {
        self.numbers.sort_by_key(|&(k, _, _)| k);
        let errors = &mut self.errors;
        let groups = || {
            self.numbers
                .chunk_by(|a, b| a.0 == b.0)
                .map(|group| (group[0].0, group))
        };
        for (k, group) in groups() {
            if group.len() > 1 {
                let places: Vec<(Square, Span)> =
                    group.iter().map(|&(_, sq, span)| (sq, span)).collect();
                let names: Vec<String> = places.iter().map(|(sq, _)| sq.to_string()).collect();
                let mut d = Diagnostic::error(
                    Code::TranscriptDuplicateNumber,
                    format!(
                        "move {k} is written on {} squares ({})",
                        places.len(),
                        names.join(", ")
                    ),
                )
                .at(Some(places[0].1), format!("move {k} on {}", places[0].0))
                .help("each move number stands on exactly one square");
                for (sq, span) in &places[1..] {
                    d = d.related(Some(*span), format!("move {k} again on {sq}"));
                }
                errors.push(d);
            }
        }
        let mut expected = 1;
        for (k, group) in groups() {
            if k > expected {
                let message = if k - expected == 1 {
                    format!("there is no move {expected}, though the grid goes on to move {k}")
                } else if k - expected == 2 {
                    format!(
                        "there are no moves {expected} and {}, though the grid goes on to move {k}",
                        k - 1
                    )
                } else {
                    format!(
                        "there are no moves {expected} to {}, though the grid goes on to move {k}",
                        k - 1
                    )
                };
                errors.push(
                    Diagnostic::error(Code::TranscriptMissingNumber, message)
                        .at(
                            Some(group[0].2),
                            format!("move {k} follows move {}", expected - 1),
                        )
                        .help(
                            "every move up to the last one needs its number on the square it filled",
                        ),
                );
            }
            expected = k + 1;
        }
    }
}

/// The cells of a row without its row numbers (`labels`: on the left, on the right), when
/// they are there and the cells fit `side` squares, or the `without` squares left when the
/// start squares are omitted.
pub(super) fn strip_labels(
    tokens: &[Token],
    row: usize,
    labels: (bool, bool),
    side: usize,
    without: usize,
) -> Option<&[Token]> {
    let label = row.to_string();
    let (left, right) = labels;
    if (left && *tokens.first()?.text != label) || (right && *tokens.last()?.text != label) {
        return None;
    }
    let cells = tokens.get(usize::from(left)..tokens.len().checked_sub(usize::from(right))?)?;
    (cells.len() == side || cells.len() == without).then_some(cells)
}

pub(super) fn read_cell(token: &Token) -> Option<Cell> {
    let t: &str = &token.text;
    if t.bytes().all(|b| b.is_ascii_digit()) {
        return Some(match t.parse::<u32>() {
            Ok(k) => Cell::Number(k, token.span),
            Err(_) => Cell::Number(u32::MAX, token.span),
        });
    }
    Some(match t {
        "." | "-" | "_" => Cell::Empty,
        "X" | "x" | "B" | "b" | "*" => Cell::Disc(Some(Color::Black)),
        "O" | "o" | "W" | "w" => Cell::Disc(Some(Color::White)),
        "R" | "r" | "G" | "g" | "N" | "n" | "#" => Cell::Disc(None),
        _ => return None,
    })
}

/// The start position the grid implies: the letters on the centre squares when all four
/// are given, else the inverted start when move 1 needs it.
pub(super) fn start_position(
    rules: &Rules,
    letters: &[(Square, Option<Color>)],
    first: Option<Move>,
) -> Option<StartPosition> {
    if rules.players() != 2 || rules.opening() != Opening::Standard {
        return None;
    }
    let default = Setup {
        discs: rules.start_discs().0,
        neutral: rules.start_discs().1,
        turn: Color::Black,
    };
    let centre = rules.board().centre();
    let given: Vec<(Square, Color)> = centre
        .iter()
        .filter_map(|sq| {
            letters
                .iter()
                .find(|(s, _)| s == sq)
                .and_then(|&(s, c)| Some((s, c?)))
        })
        .filter(|(_, c)| matches!(c, Color::Black | Color::White))
        .collect();
    let setup = if given.len() == 4 {
        let mut setup = default;
        for (sq, color) in given {
            for set in &mut setup.discs {
                set.remove(sq);
            }
            setup.discs[color.index()].insert(sq);
        }
        setup
    } else {
        let Some(Move::Place(sq)) = first else {
            return None;
        };
        let mut inverted = default;
        for c in centre {
            let (b, w) = (default.discs[0].contains(c), default.discs[1].contains(c));
            if b != w {
                inverted.discs[0].remove(c);
                inverted.discs[1].remove(c);
                inverted.discs[usize::from(b)].insert(c);
            }
        }
        let legal_from = |setup: Setup| {
            Position::from_setup(*rules, setup).is_ok_and(|p| p.legal_moves().contains(sq))
        };
        if legal_from(default) || !legal_from(inverted) {
            return None;
        }
        inverted
    };
    (setup != default).then_some(StartPosition {
        setup,
        in_hand: None,
        span: None,
    })
}
