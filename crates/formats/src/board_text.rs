//! Board strings: a board as its squares row by row from a1, then the side to move
//! (`--XO...- X`). OBF lines are one; an Edax move string may start with one. Shared here
//! so that neither format imports the other.

use crate::codes::Code;
use std::iter::Peekable;
use std::str::CharIndices;

use crate::diagnostic::Diagnostic;
use crate::engine::{BoardShape, Color, Setup, Square, SquareSet};
use crate::record::Span;

/// A board string as read.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoardString {
    /// Discs and side to move.
    pub(crate) setup: Setup,
    /// The board and side to move in the file.
    pub(crate) span: Span,
    /// Byte index (in the text given) just past the side to move.
    pub(crate) end: usize,
}

impl BoardString {
    /// The span of anything but whitespace after the side to move in `text`.
    pub(crate) fn rest_span(&self, text: &str, base: usize) -> Option<Span> {
        let rest = text.get(self.end..)?;
        let trimmed = rest.trim();
        let at = self.end + (rest.len() - rest.trim_start().len());
        (!trimmed.is_empty()).then(|| Span::new(base + at, trimmed.len()))
    }
}

/// The disc a square character stands for (`None` for an empty square); `None` for
/// anything else.
fn disc(c: char) -> Option<Option<Color>> {
    match c {
        'X' | 'x' | '*' | 'b' | 'B' => Some(Some(Color::Black)),
        'O' | 'o' | 'w' | 'W' | '0' => Some(Some(Color::White)),
        '-' | '.' => Some(None),
        _ => None,
    }
}

/// Reads a board of `board`'s side squared characters (row by row, whitespace skipped) and
/// the side to move from `text`, which starts at file offset `base`.
pub(crate) fn parse_board(
    text: &str,
    base: usize,
    board: BoardShape,
) -> Result<BoardString, Box<Diagnostic>> {
    let side = board.side();
    let need = usize::from(side) * usize::from(side);
    let parse = BoardParse {
        text,
        base,
        board,
        need,
        start: text.len() - text.trim_start().len(),
        help: format!(
            "a board is {need} characters row by row from a1 (`X x * b` Black, `O o w` White, `- .` \
             empty), then the side to move, `X` or `O`"
        ),
    };
    let mut chars = text.char_indices().peekable();
    let squares = parse.squares(&mut chars)?;
    let board_end = chars.peek().map_or(text.len(), |&(i, _)| i);
    let (turn, end) = parse.side_to_move(&mut chars, squares.last_gap_square, board_end)?;
    Ok(BoardString {
        setup: Setup {
            discs: squares.discs,
            neutral: SquareSet::EMPTY,
            turn,
        },
        span: Span::new(base + parse.start, end - parse.start),
        end,
    })
}

/// What [`parse_board`] reads from.
struct BoardParse<'t> {
    text: &'t str,
    base: usize,
    board: BoardShape,
    /// How many squares the board has.
    need: usize,
    /// Where the board starts in `text` (after leading whitespace).
    start: usize,
    /// The help of every diagnostic.
    help: String,
}

/// The squares of a board string.
struct Squares {
    discs: [SquareSet; 4],
    /// Where the last square is when whitespace came before it and it could be a side to
    /// move: a board one square short swallows the side to move as its last square.
    last_gap_square: Option<usize>,
}

impl BoardParse<'_> {
    /// Reads the board's squares from `chars`, skipping whitespace.
    fn squares(&self, chars: &mut Peekable<CharIndices<'_>>) -> Result<Squares, Box<Diagnostic>> {
        let (text, base, board, need, start) =
            (self.text, self.base, self.board, self.need, self.start);
        let side = board.side();
        let mut discs = [SquareSet::EMPTY; 4];
        let mut count = 0;
        let mut gap = false;
        let mut last_gap_square = None;
        while count < need {
            let Some((i, c)) = chars.next() else {
                return Err(Box::new(
                    Diagnostic::error(
                        Code::BoardTooShort,
                        format!("expected {need} squares, but the board has only {count}"),
                    )
                    .at(
                        Some(Span::new(base + start, text.len() - start)),
                        format!("{count} squares"),
                    )
                    .help(self.help.clone()),
                ));
            };
            if c.is_whitespace() {
                gap = true;
                continue;
            }
            last_gap_square = (gap && "XOxo".contains(c)).then_some(i);
            gap = false;
            let Some(cell) = disc(c) else {
                return Err(Box::new(
                    Diagnostic::error(
                        Code::BoardBadSquare,
                        format!("expected a square (`X`, `O` or `-`), but found `{c}`"),
                    )
                    .at(Some(Span::new(base + i, c.len_utf8())), "not a square")
                    .help(self.help.clone()),
                ));
            };
            if let Some(color) = cell {
                let col = (count % usize::from(side)) as u8;
                let row = (count / usize::from(side)) as u8;
                match Square::new(col, row).filter(|&sq| board.contains(sq)) {
                    Some(sq) => discs[color.index()].insert(sq),
                    None => {
                        return Err(Box::new(
                            Diagnostic::error(
                                Code::BoardBadSquare,
                                format!("a disc stands outside the {board} board"),
                            )
                            .at(Some(Span::new(base + i, c.len_utf8())), "off the board")
                            .help(self.help.clone()),
                        ))
                    }
                }
            }
            count += 1;
        }
        Ok(Squares {
            discs,
            last_gap_square,
        })
    }

    /// Reads the side to move after the squares (the board ends at `board_end`); returns it
    /// and the index just past it.
    fn side_to_move(
        &self,
        chars: &mut Peekable<CharIndices<'_>>,
        last_gap_square: Option<usize>,
        board_end: usize,
    ) -> Result<(Color, usize), Box<Diagnostic>> {
        let (text, base, need, start) = (self.text, self.base, self.need, self.start);
        loop {
            match chars.next() {
                Some((_, c)) if c.is_whitespace() => continue,
                Some((i, c)) => {
                    let color = match c {
                        'X' | 'x' | '*' | 'B' | 'b' => Color::Black,
                        'O' | 'o' | '0' | 'W' | 'w' => Color::White,
                        _ if last_gap_square.is_some() => {
                            let end = last_gap_square.unwrap_or(board_end);
                            let board_text = text[start..end].trim_end();
                            return Err(Box::new(
                                Diagnostic::error(
                                    Code::BoardTooShort,
                                    format!(
                                        "expected {need} squares before the side to move, but found {}",
                                        need - 1
                                    ),
                                )
                                .at(
                                    Some(Span::new(base + start, board_text.len())),
                                    format!("{} squares", need - 1),
                                )
                                .help(self.help.clone()),
                            ));
                        }
                        _ => {
                            return Err(Box::new(
                                Diagnostic::error(
                                    Code::BoardMissingSide,
                                    format!(
                                        "expected the side to move (`X` or `O`), but found `{c}`"
                                    ),
                                )
                                .at(Some(Span::new(base + i, c.len_utf8())), "not a side")
                                .help(self.help.clone()),
                            ))
                        }
                    };
                    return Ok((color, i + c.len_utf8()));
                }
                None => {
                    return Err(Box::new(
                        Diagnostic::error(
                            Code::BoardMissingSide,
                            "expected the side to move (`X` or `O`) after the board",
                        )
                        .at(
                            Some(Span::new(base + start, board_end - start)),
                            "no side to move after this board",
                        )
                        .help(self.help.clone()),
                    ))
                }
            }
        }
    }
}

/// `<squares> <side>` for a two-colour setup on `board` (`X`, `O`, `-`).
pub(crate) fn board_string(board: BoardShape, setup: &Setup) -> String {
    let side = board.side();
    let mut text = String::new();
    for row in 0..side {
        for col in 0..side {
            let cell = Square::new(col, row).map_or('-', |sq| {
                if setup.discs[0].contains(sq) {
                    'X'
                } else if setup.discs[1].contains(sq) {
                    'O'
                } else {
                    '-'
                }
            });
            text.push(cell);
        }
    }
    text.push(' ');
    text.push(if setup.turn == Color::White { 'O' } else { 'X' });
    text
}
