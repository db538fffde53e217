//! Readable boards: the `Start` tag's one-line form and the movetext's grid.

use crate::engine::{BoardShape, Color, Rules, Setup, Square, SquareSet};

/// The character of a square with no disc: `#` blocked, `.` empty.
fn empty_symbol(rules: &Rules, sq: Square) -> char {
    if rules.blocked().contains(sq) {
        '#'
    } else {
        '.'
    }
}

/// What a setup holds on `sq`: `Ok(None)` for no disc, `Err` when two discs share it.
fn disc_at(setup: &Setup, sq: Square) -> Result<Option<char>, ()> {
    let mut found = None;
    for c in Color::ALL {
        if setup.discs[c.index()].contains(sq) {
            if found.is_some() {
                return Err(());
            }
            found = Some(c.symbol());
        }
    }
    if setup.neutral.contains(sq) {
        if found.is_some() {
            return Err(());
        }
        found = Some('N');
    }
    Ok(found)
}

/// Why a setup cannot be drawn on the rules' board, in the writer's words.
pub(super) fn undrawable(rules: &Rules, setup: &Setup) -> Option<String> {
    let cells = rules.board().cells();
    let all = setup
        .discs
        .iter()
        .fold(setup.neutral, |acc, s| acc.union(*s));
    if let Some(sq) = all.difference(cells).first() {
        return Some(format!(
            "a disc on {sq}, which is not on the {} board",
            rules.board()
        ));
    }
    for sq in all {
        if disc_at(setup, sq).is_err() {
            return Some(format!("two discs on {sq}"));
        }
    }
    None
}

fn cell_symbol(rules: &Rules, setup: &Setup, sq: Square) -> char {
    match disc_at(setup, sq) {
        Ok(Some(c)) => c,
        _ => empty_symbol(rules, sq),
    }
}

/// The `Start` tag's form: rows top to bottom joined by `/` (the board's squares only, so
/// the octagon's rows have 6, 8 or 10), the side to move, and discs in hand if given.
#[doc(hidden)]
pub fn to_line(rules: &Rules, setup: &Setup, in_hand: Option<[u8; 2]>) -> String {
    let cells = rules.board().cells();
    let n = rules.board().side();
    let mut rows = Vec::new();
    for r in 0..n {
        let row: String = (0..n)
            .filter_map(|c| Square::new(c, r))
            .filter(|sq| cells.contains(*sq))
            .map(|sq| cell_symbol(rules, setup, sq))
            .collect();
        rows.push(row);
    }
    let mut text = format!("{} {}", rows.join("/"), setup.turn.symbol());
    if let Some([b, w]) = in_hand {
        text.push_str(&format!(" {b} {w}"));
    }
    text
}

/// The movetext grid: `<` then one line per row, cells separated by spaces (the octagon's
/// cut corners left blank), then `X to move>`.
pub(super) fn to_grid(rules: &Rules, setup: &Setup) -> String {
    let cells = rules.board().cells();
    let n = rules.board().side();
    let mut text = String::new();
    for r in 0..n {
        text.push(if r == 0 { '<' } else { ' ' });
        let row: Vec<String> = (0..n)
            .filter_map(|c| Square::new(c, r))
            .map(|sq| {
                if cells.contains(sq) {
                    cell_symbol(rules, setup, sq).to_string()
                } else {
                    " ".to_string()
                }
            })
            .collect();
        text.push_str(row.join(" ").trim_end());
        text.push('\n');
    }
    text.push_str(&format!(" {} to move>", setup.turn.symbol()));
    text
}

/// A board read from text: the setup, and the discs in hand when given.
#[derive(Debug)]
#[doc(hidden)]
pub struct ReadBoard {
    pub setup: Setup,
    pub in_hand: Option<[u8; 2]>,
}

fn turn_from(symbol: &str) -> Option<Color> {
    let mut chars = symbol.chars();
    let c = chars.next()?;
    if chars.next().is_some() {
        return None;
    }
    Color::ALL
        .into_iter()
        .find(|col| col.symbol() == c.to_ascii_uppercase())
}

/// Reads the board's cells from `cells` (whitespace and `/` ignored) in row-major order.
fn read_cells(shape: BoardShape, cells: &str) -> Result<([SquareSet; 4], SquareSet), String> {
    let squares: Vec<Square> = shape.cells().iter().collect();
    let mut discs = [SquareSet::EMPTY; 4];
    let mut neutral = SquareSet::EMPTY;
    let mut count = 0;
    for ch in cells.chars().filter(|c| !c.is_whitespace() && *c != '/') {
        let Some(&sq) = squares.get(count) else {
            count += 1;
            continue;
        };
        count += 1;
        match ch {
            '.' | '-' | '#' => {}
            'N' | 'n' => neutral.insert(sq),
            _ => match turn_from(&ch.to_string()) {
                Some(c) => discs[c.index()].insert(sq),
                None => {
                    return Err(format!(
                        "expected a square (`X`, `O`, `R`, `G` disc, `N` neutral, `.` empty, `#` blocked), but found `{ch}` instead"
                    ))
                }
            },
        }
    }
    if count != squares.len() {
        return Err(format!(
            "expected {} squares for the {} board, but found {count} instead",
            squares.len(),
            shape
        ));
    }
    Ok((discs, neutral))
}

/// The standard start of `shape` as a `Start` value: the example for messages, so an
/// octagon shows its own rows.
pub(super) fn example_line(shape: BoardShape) -> String {
    let rules = Rules::othello(shape);
    let (discs, neutral) = rules.start_discs();
    let start = Setup {
        discs,
        neutral,
        turn: Color::Black,
    };
    to_line(&rules, &start, None)
}

/// Reads the `Start` tag's value: `ROWS TURN [BLACK-IN-HAND WHITE-IN-HAND]`.
#[doc(hidden)]
pub fn from_line(shape: BoardShape, text: &str) -> Result<ReadBoard, String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    let (cells, turn, hand) = match words.as_slice() {
        [cells, turn] => (*cells, *turn, None),
        [cells, turn, b, w] => (*cells, *turn, Some((*b, *w))),
        _ => return Err(
            "expected the rows joined by `/`, the side to move and optionally the discs in hand"
                .into(),
        ),
    };
    let (discs, neutral) = read_cells(shape, cells)?;
    let turn = turn_from(turn).ok_or_else(|| {
        format!("expected the side to move (`X`, `O`, `R` or `G`), but found `{turn}` instead")
    })?;
    let in_hand = match hand {
        None => None,
        Some((b, w)) => {
            let n = |s: &str| {
                s.parse::<u8>().map_err(|_| {
                    format!("expected a number of discs in hand (0-255), but found `{s}` instead")
                })
            };
            Some([n(b)?, n(w)?])
        }
    };
    Ok(ReadBoard {
        setup: Setup {
            discs,
            neutral,
            turn,
        },
        in_hand,
    })
}

/// Reads a movetext grid's inside (between `<` and `>`): the cells, the side to move, and
/// optionally the words `to move`.
pub(super) fn from_grid(shape: BoardShape, text: &str) -> Result<Setup, String> {
    let mut body = text.trim_end();
    if let Some(stripped) = body.strip_suffix("to move") {
        body = stripped.trim_end();
    }
    let (cells, turn) = match body.char_indices().last() {
        Some((i, _)) => (&body[..i], &body[i..]),
        None => ("", ""),
    };
    let (discs, neutral) = read_cells(shape, cells)?;
    let turn = turn_from(turn).ok_or_else(|| {
        format!("expected the side to move (`X`, `O`, `R` or `G`) after the squares, but found `{turn}` instead")
    })?;
    Ok(Setup {
        discs,
        neutral,
        turn,
    })
}
