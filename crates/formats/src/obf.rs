//! OBF positions (Edax's `problem/*.obf`) and bare Edax board strings.
//!
//! # Reading
//!
//! One position a line: 64 characters for the squares a1 to h8, row by row (`X x * b` Black,
//! `O o w` White, `- .` empty; whitespace between them is skipped), the side to move (`X` or
//! `O`), then `;` and optional entries `MOVE:score;` (a square or `PA` for a pass, and the
//! signed disc difference for the mover) or a bare `score;`. A bare Edax board string, the
//! board and the side to move without `;`, is read too. Lines starting with `%` are comments;
//! blank lines are skipped.
//!
//! Each position becomes a [`Record`] of standard 8x8 rules with the position as its
//! [`StartPosition`] and no moves. The entries are kept in the tag `Evaluations`, as
//! written but normalised: space-separated, squares upper case, scores signed
//! (`G8:+18 H1:+12 PA:-4`, or `+18` for a bare score).
//!
//! # Writing
//!
//! A position (a record without moves) as an OBF line, followed by its `Evaluations`
//! entries. A game is written as the final position its moves reach, with the side to move
//! and, when the game is over, its final score as a bare evaluation (`+12;`, from the view
//! of the side to move); the moves themselves are a loss (`--lossy`). Boards other than
//! 8x8, 3-4 players and variants are always refused (the
//! [capability table](super::capabilities)), as are moves that do not replay; other tags,
//! claims and comments are refused, or dropped when writing lossily.

use crate::codes::Code;
use std::io::{BufRead, Write};
use std::sync::Arc;

use super::board_text::{board_string, parse_board};
use super::capabilities::{tags_phrase, Claim, ClaimLosses};
use super::text::{Line, LineReader};
use super::{
    text_writer, Games, ParsedGame, ReadOptions, RecordWriter, Sniff, TextFormat, WriteError,
    WriteOptions,
};
use crate::diagnostic::{Collected, Diagnostic, Source};
use crate::engine::{BoardShape, Color, Rules, Setup, Square};
use crate::record::{Record, Span, StartPosition, Tag};

/// The tag holding an OBF line's `MOVE:score` entries.
pub const EVALUATIONS_TAG: &str = crate::record::TagName::EVALUATIONS;

/// Whether the input looks like OBF: its first line that is not a comment is a board of 64
/// squares followed by the side to move.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let text = String::from_utf8_lossy(input.head);
    let Some(line) = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty() && !l.starts_with('%'))
    else {
        return false;
    };
    match parse_board(line, 0, BoardShape::Eight) {
        Ok(board) => {
            let rest = line[board.end..].trim_start();
            rest.is_empty() || (rest.starts_with(';') && parse_entries(&rest[1..], 0).is_ok())
        }
        Err(_) => false,
    }
}

/// Reads OBF positions, one a line.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    let mut lines = LineReader::new(input);
    let name = options.name.clone();
    let mut index = 0;
    Box::new(std::iter::from_fn(move || loop {
        let line = match lines.next_line()? {
            Ok(line) => line,
            Err(e) => return Some(Err(e)),
        };
        let trimmed = line.text.trim();
        if !line.too_long && (trimmed.is_empty() || trimmed.starts_with('%')) {
            continue;
        }
        index += 1;
        return Some(Ok(read_line(line, index, &name)));
    }))
}

/// The position of one line (none when the line was too long to read).
fn read_line(line: Line, index: usize, name: &Arc<str>) -> ParsedGame {
    let parsed = if line.too_long {
        Err(Vec::new())
    } else {
        parse_position(&line.text, line.offset)
    };
    let (record, found) = match parsed {
        Ok(record) => (Some(record), Vec::new()),
        Err(diags) => (None, diags),
    };
    let diagnostics = line
        .problems
        .into_iter()
        .chain(found)
        .map(|d| d.in_game(index))
        .collect::<Vec<_>>();
    ParsedGame {
        index,
        source: Source {
            name: name.clone(),
            text: line.text.into(),
            offset: line.offset,
            line: line.number,
        },
        record,
        diagnostics: Collected::from(diagnostics).into_vec(),
    }
}

fn parse_position(text: &str, base: usize) -> Result<Record, Vec<Diagnostic>> {
    let board = parse_board(text, base, BoardShape::Eight).map_err(|d| vec![*d])?;
    let mut record = Record::new(Rules::default());
    record.start = Some(StartPosition {
        setup: board.setup,
        in_hand: None,
        span: Some(board.span),
    });
    record.span = Some(Span::new(base, text.len()));
    let after = &text[board.end..];
    let rest = after.trim_start();
    let rest_at = board.end + (after.len() - rest.len());
    if rest.is_empty() {
        return Ok(record);
    }
    let Some(entries) = rest.strip_prefix(';') else {
        return Err(vec![Diagnostic::error(
            Code::ObfBadEntry,
            format!(
                "expected `;` after the side to move, but found `{}`",
                first_char(rest)
            ),
        )
        .at(
            Some(Span::new(base + rest_at, first_char(rest).len())),
            "expected `;`",
        )
        .help(
            "an OBF line is `<64 squares> <X|O>;` then optional `MOVE:score;` entries",
        )]);
    };
    let values = parse_entries(entries, base + rest_at + 1)?;
    if !values.is_empty() {
        let mut tag = Tag::new(EVALUATIONS_TAG, values);
        tag.span = Some(Span::new(base + rest_at, rest.len()));
        record.tags.push(tag);
    }
    Ok(record)
}

fn first_char(text: &str) -> &str {
    text.char_indices().nth(1).map_or(text, |(i, _)| &text[..i])
}

/// Reads `MOVE:score;` entries (after the first `;`) into normalised `MOVE:+score` values,
/// joined by spaces. (Joined as they come, and their errors capped as they come, so a line
/// of a million entries holds no more than its bytes.)
fn parse_entries(text: &str, base: usize) -> Result<String, Vec<Diagnostic>> {
    let mut values = String::new();
    let mut errors = Collected::default();
    let mut at = 0;
    for piece in text.split(';') {
        let entry = piece.trim();
        let entry_at = at + (piece.len() - piece.trim_start().len());
        at += piece.len() + 1;
        if entry.is_empty() {
            continue;
        }
        match normalise_entry(entry) {
            Some(value) => {
                if !values.is_empty() {
                    values.push(' ');
                }
                values.push_str(&value);
            }
            None => errors.push(
                Diagnostic::error(
                    Code::ObfBadEntry,
                    format!("expected an entry such as `G8:+18` or `PA:-4`, but found `{entry}`"),
                )
                .at(Some(Span::new(base + entry_at, entry.len())), "not an entry")
                .help("entries are a square (or `PA` for a pass), `:` and a signed disc difference, each ended by `;`"),
            ),
        }
    }
    if errors.is_empty() {
        Ok(values)
    } else {
        Err(errors.into_vec())
    }
}

/// `g8:18` → `G8:+18`; `-4` → `-4`; `None` when it is not an entry.
fn normalise_entry(entry: &str) -> Option<String> {
    let score = |s: &str| -> Option<i32> {
        let s = s.trim();
        let digits = s.strip_prefix(['+', '-']).unwrap_or(s);
        if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    match entry.split_once(':') {
        Some((mv, value)) => {
            let mv = mv.trim();
            let name = if mv.eq_ignore_ascii_case("pa") {
                "PA".to_owned()
            } else {
                let sq: Square = mv.parse().ok()?;
                if sq.col() >= 8 || sq.row() >= 8 {
                    return None;
                }
                sq.to_string().to_ascii_uppercase()
            };
            Some(format!("{name}:{:+}", score(value)?))
        }
        None => Some(format!("{:+}", score(entry)?)),
    }
}

// ----------------------------------------------------------------------------------------
// Writer

/// A writer of OBF lines.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    super::capabilities::checked(super::Format::Obf, text_writer(out, options, Obf))
}

/// OBF lines, one a position.
struct Obf;

impl TextFormat for Obf {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        // The capability table has refused boards other than 8x8, 3-4 players and variants.
        let mut losses = Vec::new();
        let others: Vec<Tag> = record
            .tags
            .iter()
            .filter(|t| !t.name.eq_ignore_ascii_case(EVALUATIONS_TAG))
            .cloned()
            .collect();
        if !others.is_empty() {
            losses.push(tags_phrase(&others));
        }
        ClaimLosses::of(record, &Claim::ALL).append_to(&mut losses);
        let (setup, entries) = if record.moves.is_empty() {
            let entries = match record.tag(EVALUATIONS_TAG) {
                Some(value) => {
                    let entries: Option<Vec<String>> =
                        value.split_whitespace().map(normalise_entry).collect();
                    if entries.is_none() {
                        losses.push(format!("an {EVALUATIONS_TAG} tag that is not OBF entries"));
                    }
                    entries.unwrap_or_default()
                }
                None => Vec::new(),
            };
            if record.result.is_some() {
                losses.push("the result".into());
            }
            (record.start_setup(), entries)
        } else {
            final_position(record, &mut losses)?
        };
        let mut line = board_string(BoardShape::Eight, &setup);
        line.push(';');
        for entry in entries {
            line.push(' ');
            line.push_str(&entry);
            line.push(';');
        }
        line.push('\n');
        Ok((line, losses))
    }
}

/// The position `record`'s moves reach, and its evaluation when the game is over (the
/// final score, from the view of the side to move); what it loses on the way is listed.
fn final_position(
    record: &Record,
    losses: &mut Vec<String>,
) -> Result<(Setup, Vec<String>), WriteError> {
    let n = record.moves.len();
    losses.push(format!(
        "the {n} move{} (OBF holds the position they reach)",
        if n == 1 { "" } else { "s" }
    ));
    if record.tag(EVALUATIONS_TAG).is_some() {
        losses.push(format!("the {EVALUATIONS_TAG} of the start position"));
    }
    let mut position = record.start_position().map_err(|e| {
        WriteError::ChangesMeaning(vec![format!(
            "a start position that cannot be set up ({e})"
        )])
    })?;
    for (i, m) in record.moves.iter().enumerate() {
        if m.mv != crate::engine::Move::Pass && position.must_pass() {
            let _ = position.play(crate::engine::Move::Pass);
        }
        if let Err(e) = position.play(m.mv) {
            return Err(WriteError::ChangesMeaning(vec![format!(
                "an illegal move {} on move {} ({e}): OBF holds the position the moves reach",
                m.mv,
                i + 1
            )]));
        }
    }
    let mut entries = Vec::new();
    match position.outcome() {
        Some(outcome) => {
            let margin = outcome.margin();
            let mover = if position.turn() == Color::White {
                -margin
            } else {
                margin
            };
            entries.push(format!("{mover:+}"));
            // The result is held: it is the final position's evaluation.
            losses.retain(|l| l != "the result");
        }
        None if record.result.is_some() => {
            losses.push("the result (the final position is not over)".into());
        }
        None => {}
    }
    Ok((position.setup(), entries))
}

#[cfg(test)]
mod tests {
    use std::io;

    use super::*;

    const FIRST: &str = "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X; G8:+18; H1:+12; H7:+6; A2:+6; A3:+4; B1:-4; A4:-22; G2:-24;";

    fn read_str(text: &str) -> Vec<ParsedGame> {
        let options = ReadOptions::default();
        read(Box::new(io::Cursor::new(text.to_owned())), &options)
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    #[test]
    fn reads_an_ffo_line() {
        let games = read_str(&format!("% comment\n\n{FIRST}\n"));
        assert_eq!(games.len(), 1);
        let record = games[0].record.as_ref().unwrap();
        let start = record.start.as_ref().unwrap();
        assert_eq!(start.setup.turn, Color::Black);
        assert!(start.setup.discs[0].contains("c1".parse().unwrap()));
        assert!(start.setup.discs[1].contains("b2".parse().unwrap()));
        assert_eq!(
            record.tag(EVALUATIONS_TAG),
            Some("G8:+18 H1:+12 H7:+6 A2:+6 A3:+4 B1:-4 A4:-22 G2:-24")
        );
        assert_eq!(games[0].source.line, 2);
    }

    #[test]
    fn bare_board_string_and_entries() {
        let games =
            read_str("---------------------------OX------XO--------------------------- O\n");
        assert!(games[0].record.as_ref().unwrap().tags.is_empty());
        assert!(sniff(&Sniff {
            head: FIRST.as_bytes(),
            len: None
        }));
        assert!(!sniff(&Sniff {
            head: b"f5d6c3",
            len: None
        }));
        assert_eq!(normalise_entry("pa:0").as_deref(), Some("PA:+0"));
        assert_eq!(normalise_entry("-4").as_deref(), Some("-4"));
        assert_eq!(normalise_entry("i9:4"), None);
    }

    #[test]
    fn writes_back_the_same_line() {
        let games = read_str(FIRST);
        let mut out = Vec::new();
        {
            let mut w = writer(Box::new(&mut out), &WriteOptions::default());
            w.write(games[0].record.as_ref().unwrap()).unwrap();
            w.finish().unwrap();
        }
        assert_eq!(String::from_utf8(out).unwrap(), format!("{FIRST}\n"));
    }
}
