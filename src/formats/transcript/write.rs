//! Writing transcript grids: the move numbers on their squares, the start discs, and the
//! header lines for what a grid can say (its tags, and the result as a `Result:` line).

use std::collections::BTreeMap;
use std::io::Write;

use super::is_header_name;
use crate::engine::{BoardShape, Color, Move, Rules, Setup, Square};
use crate::formats::capabilities::{tags_phrase, Claim, ClaimLosses};
use crate::formats::{text_writer, RecordWriter, TextFormat, WriteError, WriteOptions};
use crate::record::{score, Record, Tag};

/// A writer of transcript grids.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    crate::formats::capabilities::checked(
        crate::formats::Format::Transcript,
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
        let mut text = String::new();
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
            text.push_str(&format!("{}: {}\n", tag.name, tag.value));
        }
        if let Some(result) = result {
            text.push_str(&format!("Result: {result}\n"));
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

/// Each placed square with its move number; refused when a move lands on a filled
/// square (a grid holds one number a square: dropping a move would change the game).
fn move_numbers(record: &Record) -> Result<BTreeMap<Square, usize>, WriteError> {
    let rules = record.rules;
    let board = rules.board();
    let (start_discs, neutral) = rules.start_discs();
    let mut grid: BTreeMap<Square, usize> = BTreeMap::new();
    let mut clashes = Vec::new();
    let mut number = 0;
    for (i, m) in record.moves.iter().enumerate() {
        if let Move::Place(sq) = m.mv {
            number += 1;
            let taken = grid.contains_key(&sq)
                || start_discs.iter().any(|s| s.contains(sq))
                || neutral.contains(sq)
                || !board.contains(sq);
            if taken {
                clashes.push(format!("move {} on {sq}, a square already filled", i + 1));
            } else {
                grid.insert(sq, number);
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
fn write_grid(text: &mut String, rules: &Rules, setup: &Setup, grid: &BTreeMap<Square, usize>) {
    let board = rules.board();
    let side = board.side();
    let width = if side >= 10 { 2 } else { 1 };
    text.push_str(&" ".repeat(width));
    for c in 0..side {
        text.push_str(&format!(" {:>2}", (b'a' + c) as char));
    }
    text.push('\n');
    for r in 0..side {
        text.push_str(&format!("{:>width$}", r + 1));
        for c in 0..side {
            let cell = match Square::new(c, r) {
                Some(sq) if !board.contains(sq) || rules.blocked().contains(sq) => "#".to_owned(),
                Some(sq) if setup.neutral.contains(sq) => "N".to_owned(),
                Some(sq) => match grid.get(&sq) {
                    Some(k) => k.to_string(),
                    None => Color::ALL
                        .into_iter()
                        .find(|c| setup.discs[c.index()].contains(sq))
                        .map_or(".".to_owned(), |c| c.symbol().to_string()),
                },
                None => ".".to_owned(),
            };
            text.push_str(&format!(" {cell:>2}"));
        }
        text.push('\n');
    }
    text.push('\n');
}
