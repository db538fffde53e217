//! The canonical RGN writer.

use super::{board, is_reserved_tag, RESULT_TAG, RULES_TAG, START_TAG, TERMINATION_TAG};
use crate::engine::{Color, Move, Rules};
use crate::record::{FlipClaim, MoveRecord, Record, ResultScore, Termination};

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
    let mut out = String::new();
    let rules = &record.rules;
    for tag in &record.tags {
        if !is_tag_name(&tag.name) {
            losses.push(format!("a tag named `{}`", tag.name));
        } else if is_reserved_tag(&tag.name) {
            losses.push(format!(
                "a free tag named `{}`, a name RGN reserves",
                tag.name
            ));
        } else {
            push_tag(&mut out, &tag.name, &tag.value);
        }
    }
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
        let implied = if result.score.is_none() {
            Termination::Unfinished
        } else {
            Termination::Normal
        };
        if !result.score.is_none() || result.termination == Termination::Unfinished {
            match score_text(&result.score) {
                Some(s) => push_tag(&mut tail, RESULT_TAG, &s),
                None => losses.push("a result with fewer than two disc counts".into()),
            }
        }
        if result.termination != implied {
            push_tag(
                &mut tail,
                TERMINATION_TAG,
                &termination_text(result.termination),
            );
        }
    }
    // Every game starts with a tag line: that is what separates games.
    if *rules != Rules::default() || (out.is_empty() && tail.is_empty()) {
        push_tag(&mut out, RULES_TAG, &rules.to_string());
    }
    out.push_str(&tail);
    if !movetext.is_empty() {
        out.push('\n');
        out.push_str(&movetext);
    }
    (out, losses)
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
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            _ => out.push(c),
        }
    }
    out.push_str("\"]\n");
}

/// The Result tag's value.
pub(crate) fn score_text(score: &ResultScore) -> Option<String> {
    Some(match score {
        ResultScore::None => "*".into(),
        ResultScore::Discs(counts) if counts.len() < 2 => return None,
        // `1-0` and `0-1` mean a winner; two digits keep these counts counts.
        ResultScore::Discs(counts) if counts[..] == [1, 0] || counts[..] == [0, 1] => counts
            .iter()
            .map(|n| format!("{n:02}"))
            .collect::<Vec<_>>()
            .join("-"),
        ResultScore::Discs(counts) => counts
            .iter()
            .map(u8::to_string)
            .collect::<Vec<_>>()
            .join("-"),
        ResultScore::Margin(m) => format!("{m:+}"),
        ResultScore::Winner(Some(Color::Black)) => "1-0".into(),
        ResultScore::Winner(Some(Color::White)) => "0-1".into(),
        ResultScore::Winner(Some(c)) => format!("{c} wins"),
        ResultScore::Winner(None) => "1/2-1/2".into(),
    })
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

fn flip_text(claim: &FlipClaim) -> String {
    let squares = claim.squares.map(|s| {
        s.iter()
            .map(|sq| sq.to_string())
            .collect::<Vec<_>>()
            .join(",")
    });
    match (claim.count, squares) {
        (None, None) => "(?)".into(),
        (Some(n), None) => format!("({n})"),
        (None, Some(s)) => format!("({s})"),
        (Some(n), Some(s)) => format!("({n}:{s})"),
    }
}

fn move_text(m: &MoveRecord) -> String {
    let mut text = String::new();
    if let Some(c) = m.color {
        text.push(c.name().as_bytes()[0].to_ascii_uppercase() as char);
        text.push(':');
    }
    match m.mv {
        Move::Place(sq) => text.push_str(&sq.to_string()),
        Move::Pass => text.push_str("--"),
    }
    if let Some(claim) = &m.flips {
        text.push_str(&flip_text(claim));
    }
    text
}

/// The `{...}` after a move: eval and time commands, then the comment.
fn annotation(m: &MoveRecord) -> Option<String> {
    let mut parts = Vec::new();
    if let Some(e) = m.eval {
        parts.push(format!("[%eval {e}]"));
    }
    if let Some(t) = m.time {
        parts.push(format!("[%emt {t}]"));
    }
    if parts.is_empty() && m.comment.is_none() {
        return None;
    }
    let mut text = parts.join(" ");
    if let Some(c) = &m.comment {
        if !parts.is_empty() {
            text.push(' ');
        }
        text.push_str(&escape_comment(c));
    }
    Some(format!("{{{text}}}"))
}

enum Token {
    Word(String),
    Board(String),
}

fn movetext(record: &Record, losses: &mut Vec<String>) -> String {
    let rules = &record.rules;
    let players = usize::from(rules.players().max(1));
    let mut tokens = Vec::new();
    if let Some(c) = &record.comment {
        tokens.push(Token::Word(format!("{{{}}}", escape_comment(c))));
    }
    let mut claims = record.positions.iter().peekable();
    let mut last_after = 0;
    let mut push_claims = |after: usize, tokens: &mut Vec<Token>, losses: &mut Vec<String>| {
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
                None => tokens.push(Token::Board(board::to_grid(rules, &claim.setup))),
            }
        }
    };
    push_claims(0, &mut tokens, losses);
    for (i, m) in record.moves.iter().enumerate() {
        let mut word = String::new();
        if i % players == 0 {
            word.push_str(&format!("{}. ", i / players + 1));
        }
        word.push_str(&move_text(m));
        tokens.push(Token::Word(word));
        if let Some(a) = annotation(m) {
            tokens.push(Token::Word(a));
        }
        push_claims(i + 1, &mut tokens, losses);
    }
    for claim in claims {
        losses.push(format!(
            "a position claim after move {} of a {}-move record",
            claim.after_moves,
            record.moves.len()
        ));
    }
    let mut out = String::new();
    let mut column = 0;
    for token in tokens {
        match token {
            Token::Board(grid) => {
                if column > 0 {
                    out.push('\n');
                }
                out.push_str(&grid);
                out.push('\n');
                column = 0;
            }
            Token::Word(word) => {
                let first_line = word.split('\n').next().map_or(0, |l| l.chars().count());
                if column > 0 && column + 1 + first_line > WIDTH {
                    out.push('\n');
                    column = 0;
                }
                if column > 0 {
                    out.push(' ');
                    column += 1;
                }
                out.push_str(&word);
                column = match word.rfind('\n') {
                    Some(k) => word[k + 1..].chars().count(),
                    None => column + first_line,
                };
            }
        }
    }
    if column > 0 {
        out.push('\n');
    }
    out
}
