//! The moves of one line: squares and passes, each bad token a diagnostic.

use super::*;

/// Reads the moves of `text`, which starts at file offset `base`, for a board of `board`'s
/// side. Every bad token gives a diagnostic.
pub(super) fn parse_moves(
    text: &str,
    base: usize,
    board: BoardShape,
) -> Result<Vec<MoveRecord>, Vec<Diagnostic>> {
    let bytes = text.as_bytes();
    let mut moves = Vec::new();
    // Capped as they come: a line of a million bad tokens holds fifty.
    let mut errors = Collected::default();
    let mut i = 0;
    while i < bytes.len() {
        if moves.len() == text::MAX_MOVES {
            let at = Span::new(base + i, 0);
            errors.push(text::too_large("moves", text::MAX_MOVES, Some(at)));
            break;
        }
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b',' {
            i += 1;
            continue;
        }
        if let Some(len) = pass_len(&bytes[i..]) {
            moves.push(MoveRecord::new(Move::Pass).at(Span::new(base + i, len)));
            i += len;
            continue;
        }
        let mut end = i + 1;
        if b.is_ascii_alphabetic() {
            end = square_token_end(bytes, i);
        } else {
            // A run of stray characters is one bad token; `end` stays on a char boundary.
            while end < bytes.len()
                && (!text.is_char_boundary(end)
                    || !(bytes[end].is_ascii_alphanumeric()
                        || bytes[end].is_ascii_whitespace()
                        || bytes[end] == b','))
            {
                end += 1;
            }
        }
        let token = &text[i..end];
        let span = Span::new(base + i, end - i);
        match Square::from_ascii(token.as_bytes()) {
            Ok(sq) if sq.col() < board.side() && sq.row() < board.side() => {
                moves.push(MoveRecord::new(Move::Place(sq)).at(span));
            }
            Ok(sq) => errors.push(
                Diagnostic::error(
                    Code::SyntaxBadMove,
                    format!("`{token}` is not a square of the {board} board"),
                )
                .at(Some(span), format!("{sq} is off the board"))
                .help(off_board_help(board, sq)),
            ),
            Err(_) => errors.push(
                Diagnostic::error(
                    Code::SyntaxBadMove,
                    format!("expected a move such as `f5` or a pass `--`, but found `{token}`"),
                )
                .at(Some(span), "not a move")
                .help(square_help(board)),
            ),
        }
        i = end;
    }
    if errors.is_empty() {
        Ok(moves)
    } else {
        Err(errors.into_vec())
    }
}

/// The length of the pass `bytes` start with, if they do (`pass`, `pa`, `ps`, `--`, `@@`,
/// any case, the first that matches).
pub(super) fn pass_len(bytes: &[u8]) -> Option<usize> {
    ["pass", "pa", "ps", "--", "@@"]
        .into_iter()
        .find(|p| bytes.len() >= p.len() && bytes[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
        .map(str::len)
}

/// The end of the token at `i` that starts with an ASCII letter: the digits after it.
pub(super) fn square_token_end(bytes: &[u8], i: usize) -> usize {
    let mut end = i + 1;
    while end < bytes.len() && bytes[end].is_ascii_digit() {
        end += 1;
    }
    end
}

/// [`square_help`], and for a square of the 10x10 board the rules that have it.
pub(super) fn off_board_help(board: BoardShape, sq: Square) -> String {
    let ten = BoardShape::Ten;
    let mut help = square_help(board);
    if board != ten && sq.col() < ten.side() && sq.row() < ten.side() {
        help.push_str(&format!(
            "; {sq} is a square of the 10x10 board: for a 10x10 game, give the rules `othello:10x10` (a `%% rules: othello:10x10` line, or --rules)"
        ));
    }
    help
}

pub(super) fn square_help(board: BoardShape) -> String {
    let n = board.side();
    let last_col = (b'a' + n - 1) as char;
    format!(
        "a move is a column letter a-{last_col} and a row 1-{n} (such as `f5`{}), in either case; \
         a pass is `--`, `pa`, `ps` or `@@`",
        if n >= 10 { " or `j10`" } else { "" }
    )
}

/// The field delimiter when `line` is a CSV header: it holds a `,` or a tab and is not
/// itself a list of moves (`f5, d6, c3`).
pub(super) fn csv_delimiter(line: &str) -> Option<u8> {
    let delimiter = if line.contains('\t') {
        b'\t'
    } else if line.contains(',') {
        b','
    } else if line.matches(';').count() >= 2 && !starts_with_board(line) {
        // A spreadsheet saved in a locale whose decimal mark is a comma (three columns at
        // least: a sentence with a semicolon is no header).
        b';'
    } else {
        return None;
    };
    parse_moves(line, 0, BoardShape::Ten)
        .is_err()
        .then_some(delimiter)
}

/// Whether `line` starts with an Edax start position (`<board> <X|O>;`) before its moves.
pub(super) fn starts_with_board(line: &str) -> bool {
    line.split_once(';').is_some_and(|(board, _)| {
        BoardShape::ALL
            .into_iter()
            .any(|shape| board_text::parse_board(board, 0, shape).is_ok())
    })
}

/// The rules named by a pragma line `%% rules: ...`, if it is one (the text may be bad).
pub(super) fn pragma_rules(line: &str) -> Option<&str> {
    let rest = line.strip_prefix("%%")?.trim_start();
    let (key, value) = rest.split_once(':')?;
    key.trim()
        .eq_ignore_ascii_case("rules")
        .then_some(value.trim())
}
