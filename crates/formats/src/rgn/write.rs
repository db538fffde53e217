//! The canonical RGN writer.

use std::fmt::Write as _;

use super::parse::FEN_TAG;
use super::{board, is_reserved_tag, RESULT_TAG, RULES_TAG, START_TAG, TERMINATION_TAG};
use crate::engine::{Move, Rules};
use crate::record::score::score_text;
use crate::record::{ClaimedResult, FlipClaim, MoveRecord, Record, Termination};
use crate::text::push_decimal;
use crate::PlainGame;

/// Movetext lines are wrapped before this column.
const WIDTH: usize = 79;

/// The canonical RGN text of `record` (ending with a newline), or what RGN cannot hold.
///
/// RGN holds the whole model; the refusals are records no text can mean: tag names that
/// are not names or are reserved, two discs on one square, position claims out of order or
/// after the last move, a result with fewer than two disc counts.
pub fn to_string(record: &Record) -> Result<String, Vec<String>> {
    match write_game(record) {
        (text, losses) if losses.is_empty() => Ok(text),
        (_, losses) => Err(losses),
    }
}

/// The text of `record`, leaving out what cannot be written, and the phrases naming it.
pub(super) fn write_game(record: &Record) -> (String, Vec<String>) {
    let mut losses = Vec::new();
    let mut out = String::with_capacity(512);
    let rules = &record.rules;
    let tags = record.tags.iter().map(|t| (&*t.name, &*t.value));
    push_free_tags(
        &mut out,
        tags,
        record.tags.len(),
        record.start.is_some(),
        &mut losses,
    );
    let movetext = movetext(record, &mut losses);
    // The Start, Result and Termination tags, written after Rules.
    let mut tail = String::new();
    if let Some(start) = &record.start {
        match board::undrawable(rules, &start.setup) {
            Some(why) => losses.push(format!("a start position with {why}")),
            None => push_tag(
                &mut tail,
                START_TAG,
                &board::to_line(rules, &start.setup, start.in_hand),
            ),
        }
    }
    if let Some(result) = &record.result {
        push_result_tags(&mut tail, result, &mut losses);
    }
    (assemble(rules, out, &tail, &movetext), losses)
}

/// The text of a plain game, read without its record: exactly what [`write_game`] gives
/// for the game's record; `None` when that would leave anything out.
pub(super) fn write_plain(game: &PlainGame<'_>) -> Option<String> {
    let mut losses = Vec::new();
    // Room for the whole text: the tags with their brackets and quotes, the result, and
    // about four bytes a move with the numbers.
    let room = game.text.len() + 8 * game.tags.len() + 5 * game.moves.len() + 64;
    let mut out = String::with_capacity(room);
    push_free_tags(&mut out, game.tags(), game.tags.len(), false, &mut losses);
    let mut tail = String::new();
    if let Some([black, white]) = game.discs {
        push_result_tags(
            &mut tail,
            &ClaimedResult::discs(vec![black, white]),
            &mut losses,
        );
    }
    if !losses.is_empty() {
        return None;
    }
    let players = usize::from(game.rules.players().max(1));
    let mut movetext = String::with_capacity(8 * game.moves.len() + 16);
    let mut lines = Lines {
        out: &mut movetext,
        column: 0,
    };
    let mut word = String::with_capacity(32);
    for (i, &mv) in game.moves.iter().enumerate() {
        word.clear();
        push_move_number(&mut word, i, players);
        push_square(&mut word, mv);
        lines.word(&word);
    }
    lines.end();
    Some(assemble(&game.rules, out, &tail, &movetext))
}

/// Appends the free tags (`count` of them), leaving out, as losses, those RGN cannot write
/// as tags; `has_start` says whether the game has a start position (a Start tag).
fn push_free_tags<'t>(
    out: &mut String,
    tags: impl Iterator<Item = (&'t str, &'t str)>,
    count: usize,
    has_start: bool,
    losses: &mut Vec<String>,
) {
    let last_tag = count.saturating_sub(1);
    for (i, (name, value)) in tags.enumerate() {
        if !is_tag_name(name) {
            losses.push(format!("a tag named `{name}`"));
        } else if is_reserved_tag(name) {
            losses.push(format!("a free tag named `{name}`, a name RGN reserves"));
        } else if name.eq_ignore_ascii_case(FEN_TAG)
            && !(name == FEN_TAG && has_start && i == last_tag)
        {
            // The reader takes `FEN` for the start position, unless a Start tag is given:
            // it then keeps it, as `FEN`, after the other tags.
            losses.push(format!(
                "a free tag named `{name}`, which RGN reads as the start position"
            ));
        } else {
            push_tag(out, name, value);
        }
    }
}

/// Appends the Result and Termination tags `result` needs.
fn push_result_tags(tail: &mut String, result: &ClaimedResult, losses: &mut Vec<String>) {
    let implied = if result.score.is_none() {
        Termination::Unfinished
    } else {
        Termination::Normal
    };
    if !result.score.is_none() || result.termination == Termination::Unfinished {
        match score_text(&result.score) {
            Some(s) => push_tag(tail, RESULT_TAG, &s),
            None => losses.push("a result with fewer than two disc counts".into()),
        }
    }
    if result.termination != implied {
        push_tag(tail, TERMINATION_TAG, &termination_text(result.termination));
    }
}

/// The game's text: the free tags `out` holds, the Rules tag when needed, the `tail` of
/// Start, Result and Termination tags, then the movetext after a blank line.
fn assemble(rules: &Rules, mut out: String, tail: &str, movetext: &str) -> String {
    // Every game starts with a tag line: that is what separates games.
    if *rules != Rules::default() || (out.is_empty() && tail.is_empty()) {
        push_tag(&mut out, RULES_TAG, &rules.to_string());
    }
    out.push_str(tail);
    if !movetext.is_empty() {
        out.push('\n');
        out.push_str(movetext);
    }
    out
}

fn is_tag_name(name: &str) -> bool {
    let mut chars = name.chars();
    chars.next().is_some_and(|c| c.is_ascii_alphabetic())
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

fn push_tag(out: &mut String, name: &str, value: &str) {
    out.push('[');
    out.push_str(name);
    out.push_str(" \"");
    if value.bytes().any(|b| matches!(b, b'"' | b'\\' | b'\n')) {
        for c in value.chars() {
            match c {
                '"' => out.push_str("\\\""),
                '\\' => out.push_str("\\\\"),
                '\n' => out.push_str("\\n"),
                _ => out.push(c),
            }
        }
    } else {
        out.push_str(value);
    }
    out.push_str("\"]\n");
}

/// The Termination tag's value.
pub(crate) fn termination_text(t: Termination) -> String {
    match t {
        Termination::Normal => "normal".into(),
        Termination::Unfinished => "unterminated".into(),
        Termination::Agreement => "agreement".into(),
        Termination::Resignation(None) => "resignation".into(),
        Termination::Resignation(Some(c)) => format!("{c} resigns"),
        Termination::Time(None) => "time forfeit".into(),
        Termination::Time(Some(c)) => format!("{c} loses on time"),
    }
}

fn escape_comment(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '\\' | '}' | '[') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

/// Appends the flip claim after a move: `(n)`, `(squares)`, `(n:squares)` or `(?)`.
fn push_flips(out: &mut String, claim: &FlipClaim) {
    out.push('(');
    if let Some(n) = claim.count {
        push_decimal(out, usize::from(n));
        if claim.squares.is_some() {
            out.push(':');
        }
    }
    match claim.squares {
        Some(squares) => {
            for (i, sq) in squares.iter().enumerate() {
                if i > 0 {
                    out.push(',');
                }
                out.push_str(sq.name());
            }
        }
        None if claim.count.is_none() => out.push('?'),
        None => {}
    }
    out.push(')');
}

/// Appends a move: colour prefix, square or `--`, flip claim.
fn push_move(out: &mut String, m: &MoveRecord) {
    if let Some(c) = m.color {
        out.push(c.name().as_bytes()[0].to_ascii_uppercase() as char);
        out.push(':');
    }
    push_square(out, m.mv);
    if let Some(claim) = &m.flips {
        push_flips(out, claim);
    }
}

/// Appends a move's square, or `--` for a pass.
fn push_square(out: &mut String, mv: Move) {
    match mv {
        Move::Place(sq) => out.push_str(sq.name()),
        Move::Pass => out.push_str("--"),
    }
}

/// Appends move `i`'s number (`12. `) when it opens a round of `players` moves.
fn push_move_number(out: &mut String, i: usize, players: usize) {
    if i % players == 0 {
        push_decimal(out, i / players + 1);
        out.push_str(". ");
    }
}

/// Appends the `{...}` after a move (eval and time commands, then the comment), if the
/// move has any of them; returns whether it did.
fn push_annotation(out: &mut String, m: &MoveRecord) -> bool {
    if m.eval.is_none() && m.time.is_none() && m.comment.is_none() {
        return false;
    }
    out.push('{');
    let mut first = true;
    let mut command = |out: &mut String, name: &str, value: Option<f64>| {
        if let Some(v) = value {
            if !first {
                out.push(' ');
            }
            first = false;
            // Writing to a String cannot fail.
            let _ = write!(out, "[%{name} {v}]");
        }
    };
    command(out, "eval", m.eval);
    command(out, "emt", m.time);
    if let Some(c) = &m.comment {
        if !first {
            out.push(' ');
        }
        out.push_str(&escape_comment(c));
    }
    out.push('}');
    true
}

/// Movetext being laid out in lines shorter than [`WIDTH`]: words separated by a space
/// or a line break, boards on lines of their own.
struct Lines<'a> {
    out: &'a mut String,
    /// Characters on the current line.
    column: usize,
}

impl Lines<'_> {
    /// Lays out `word`, which may span lines (a comment with line breaks).
    fn word(&mut self, word: &str) {
        let bytes = word.as_bytes();
        // Most words are a move or its number: a byte loop looks at them before a
        // vectorised search would have started.
        let line_break = if bytes.len() <= 16 {
            bytes.iter().position(|&b| b == b'\n')
        } else {
            memchr::memchr(b'\n', bytes)
        };
        let (first_line, last_line) = match line_break {
            Some(first) => {
                let last = memchr::memrchr(b'\n', word.as_bytes()).unwrap_or(first);
                (&word[..first], Some(&word[last + 1..]))
            }
            None => (word, None),
        };
        let first_width = width(first_line);
        if self.column > 0 && self.column + 1 + first_width > WIDTH {
            self.out.push('\n');
            self.column = 0;
        }
        if self.column > 0 {
            self.out.push(' ');
            self.column += 1;
        }
        self.out.push_str(word);
        self.column = match last_line {
            Some(last) => width(last),
            None => self.column + first_width,
        };
    }

    /// Lays out a board diagram on lines of its own.
    fn board(&mut self, grid: &str) {
        if self.column > 0 {
            self.out.push('\n');
        }
        self.out.push_str(grid);
        self.out.push('\n');
        self.column = 0;
    }

    /// Ends the last line.
    fn end(self) {
        if self.column > 0 {
            self.out.push('\n');
        }
    }
}

/// The width of `text` in characters (every byte, for ASCII text).
fn width(text: &str) -> usize {
    if text.is_ascii() {
        text.len()
    } else {
        text.chars().count()
    }
}

fn movetext(record: &Record, losses: &mut Vec<String>) -> String {
    let rules = &record.rules;
    let players = usize::from(rules.players().max(1));
    let mut out = String::with_capacity(8 * record.moves.len() + 16);
    let mut lines = Lines {
        out: &mut out,
        column: 0,
    };
    if let Some(c) = &record.comment {
        lines.word(&format!("{{{}}}", escape_comment(c)));
    }
    let mut claims = record.positions.iter().peekable();
    let mut last_after = 0;
    let mut push_claims = |after: usize, lines: &mut Lines<'_>, losses: &mut Vec<String>| {
        while let Some(claim) = claims.next_if(|c| c.after_moves <= after) {
            if claim.after_moves < last_after || claim.after_moves < after {
                losses.push(format!(
                    "a position claim after move {} out of order",
                    claim.after_moves
                ));
                continue;
            }
            last_after = claim.after_moves;
            match board::undrawable(rules, &claim.setup) {
                Some(why) => losses.push(format!(
                    "a position claim after move {} with {why}",
                    claim.after_moves
                )),
                None => lines.board(&board::to_grid(rules, &claim.setup)),
            }
        }
    };
    push_claims(0, &mut lines, losses);
    // One word at a time, built in the same buffer from move to move.
    let mut word = String::with_capacity(32);
    for (i, m) in record.moves.iter().enumerate() {
        word.clear();
        push_move_number(&mut word, i, players);
        push_move(&mut word, m);
        lines.word(&word);
        word.clear();
        if push_annotation(&mut word, m) {
            lines.word(&word);
        }
        push_claims(i + 1, &mut lines, losses);
    }
    for claim in claims {
        losses.push(format!(
            "a position claim after move {} of a {}-move record",
            claim.after_moves,
            record.moves.len()
        ));
    }
    lines.end();
    out
}
