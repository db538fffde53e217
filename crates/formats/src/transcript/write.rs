//! Writing transcript grids: the move numbers on their squares, the start discs, and the
//! header lines for what a grid can say (its tags, and the result as a `Result:` line).

use std::io::Write;

use super::is_header_name;
use crate::capabilities::{tags_phrase, Claim, ClaimLosses};
use crate::engine::{BoardShape, Color, Move, Rules, Setup, Square};
use crate::record::{score, Record, Tag};
use crate::text::push_decimal;
use crate::{text_writer, RecordWriter, TextFormat, WriteError, WriteOptions};

/// A writer of transcript grids.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    crate::capabilities::checked(
        crate::Format::Transcript,
        text_writer(out, options, Transcript),
    )
}

/// Transcript grids, each followed by a blank line.
struct Transcript;

impl TextFormat for Transcript {
    /// The grid of `record`: its losses and start, the move numbers on their squares, then
    /// the headers and the grid's text.
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        // Every claim but the result, which a `Result:` header holds.
        let mut losses = ClaimLosses::of(record, &Claim::ALL[1..]).into_vec();
        let result = record.result.as_ref().and_then(|claim| {
            let text = score::result_text(claim);
            if text.is_none() {
                losses.push(
                    "the result (a `Result:` header holds a score, or how the game ended, not both)"
                        .into(),
                );
            }
            text
        });
        let bad_tags: Vec<Tag> = record
            .tags
            .iter()
            .filter(|t| {
                !is_header_name(&t.name)
                    || t.name.eq_ignore_ascii_case("rules")
                    // Read back as the result.
                    || score::is_result_field(&t.name)
                    || t.value.contains(['\n', '\r'])
                    // Read back trimmed: spaces around a value cannot be held.
                    || t.value.trim() != t.value
            })
            .cloned()
            .collect();
        if !bad_tags.is_empty() {
            losses.push(tags_phrase(&bad_tags));
        }
        let setup = grid_start(record, &mut losses);
        let grid = move_numbers(record)?;
        let rules = record.rules;
        let mut text = String::with_capacity(512);
        let plain = [
            BoardShape::Four,
            BoardShape::Six,
            BoardShape::Eight,
            BoardShape::Ten,
        ]
        .into_iter()
        .any(|b| rules == Rules::othello(b));
        if !plain {
            text.push_str(&format!("Rules: {rules}\n"));
        }
        for tag in record.tags.iter().filter(|t| !bad_tags.contains(t)) {
            for part in [tag.name.as_str(), ": ", tag.value.as_str(), "\n"] {
                text.push_str(part);
            }
        }
        if let Some(result) = result {
            for part in ["Result: ", result.as_str(), "\n"] {
                text.push_str(part);
            }
        }
        write_grid(&mut text, &rules, &setup, &grid);
        Ok((text, losses))
    }
}

/// The start the grid shows: the record's when it only recolours the start squares, else
/// the rules' own (a loss: the reader accepts no other).
fn grid_start(record: &Record, losses: &mut Vec<String>) -> Setup {
    let rules = record.rules;
    let (start_discs, neutral) = rules.start_discs();
    let mut setup = record.start_setup();
    if let Some(start) = &record.start {
        let occupied = |discs: &[crate::engine::SquareSet; 4],
                        neutral: crate::engine::SquareSet| {
            discs.iter().fold(neutral, |acc, s| acc.union(*s))
        };
        let same_squares = occupied(&start.setup.discs, start.setup.neutral)
            == occupied(&start_discs, neutral)
            && start.setup.neutral == neutral;
        if !same_squares || start.setup.turn != Color::Black || start.in_hand.is_some() {
            losses.push("a start position other than a recolouring of the start squares".into());
            // Written lossily, the grid shows the rules' start: its reader accepts no other.
            setup = Record::new(rules).start_setup();
        }
    }
    setup
}

/// The move number on each square (by [`Square::index`]; 0: none).
struct Numbers([u8; 128]);

impl Numbers {
    fn get(&self, sq: Square) -> Option<u8> {
        Some(self.0[usize::from(sq.index())]).filter(|&k| k > 0)
    }
}

/// Each placed square with its move number; refused when a move lands on a filled
/// square (a grid holds one number a square: dropping a move would change the game).
fn move_numbers(record: &Record) -> Result<Numbers, WriteError> {
    let rules = record.rules;
    let board = rules.board();
    let (start_discs, neutral) = rules.start_discs();
    let mut grid = Numbers([0; 128]);
    let mut clashes = Vec::new();
    let mut number = 0u8;
    for (i, m) in record.moves.iter().enumerate() {
        if let Move::Place(sq) = m.mv {
            // Each number on a square of its own: at most one per square.
            number = number.saturating_add(1);
            let taken = grid.get(sq).is_some()
                || start_discs.iter().any(|s| s.contains(sq))
                || neutral.contains(sq)
                || !board.contains(sq);
            if taken {
                clashes.push(format!("move {} on {sq}, a square already filled", i + 1));
            } else {
                grid.0[usize::from(sq.index())] = number;
            }
        }
    }
    if !clashes.is_empty() {
        return Err(WriteError::ChangesMeaning(clashes));
    }
    Ok(grid)
}

/// Writes the grid: column letters, then each row's number and cells (`#` off the board or
/// blocked, `N` neutral, move numbers, start discs, `.`), and a blank line.
fn write_grid(text: &mut String, rules: &Rules, setup: &Setup, grid: &Numbers) {
    let board = rules.board();
    let side = board.side();
    let wide = side >= 10;
    text.push_str(if wide { "  " } else { " " });
    for c in 0..side {
        text.push_str("  ");
        text.push((b'a' + c) as char);
    }
    text.push('\n');
    for r in 0..side {
        if wide && r + 1 < 10 {
            text.push(' ');
        }
        push_decimal(text, usize::from(r) + 1);
        for c in 0..side {
            // Each cell right-aligned in two columns after a space.
            let symbol = match Square::new(c, r) {
                Some(sq) if !board.contains(sq) || rules.blocked().contains(sq) => '#',
                Some(sq) if setup.neutral.contains(sq) => 'N',
                Some(sq) => match grid.get(sq) {
                    Some(k) => {
                        text.push_str(if k < 10 { "  " } else { " " });
                        push_decimal(text, usize::from(k));
                        continue;
                    }
                    None => Color::ALL
                        .into_iter()
                        .find(|c| setup.discs[c.index()].contains(sq))
                        .map_or('.', |c| c.symbol()),
                },
                None => '.',
            };
            text.push_str("  ");
            text.push(symbol);
        }
        text.push('\n');
    }
    text.push('\n');
}
