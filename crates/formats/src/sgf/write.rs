//! Writing SGF: a game tree's root node on one line, its moves ten a line, in UTF-8 as
//! its `CA[UTF-8]` says.

use std::io::Write;

use super::{STRUCTURAL_IDS, TAG_IDS};
use crate::capabilities::{tag_phrase, Claim, ClaimLosses};
use crate::engine::{BoardShape, Color, Move, Setup};
use crate::moves::colored_moves;
use crate::record::{start_setup, ClaimedResult, Record, ResultScore, Termination};
use crate::text::format_number;
use crate::text_writer::PlainGame;
use crate::{text_writer, RecordWriter, TextFormat, WriteError, WriteOptions};

/// A writer of SGF game trees, Edax's layout made valid.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    crate::capabilities::checked(crate::Format::Sgf, text_writer(out, options, Sgf))
}

/// SGF game trees.
pub(super) struct Sgf;

impl TextFormat for Sgf {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        // Rules SGF cannot say were refused by the capability table already.
        Ok(to_sgf(record))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        plain_to_sgf(game)
    }
}

/// `value` with `\` and `]` escaped.
pub(super) fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    push_escaped(&mut out, value);
    out
}

/// Appends `value` escaped as [`escape`] escapes it.
fn push_escaped(out: &mut String, value: &str) {
    if !value.contains(['\\', ']']) {
        out.push_str(value);
        return;
    }
    for c in value.chars() {
        if matches!(c, '\\' | ']') {
            out.push('\\');
        }
        out.push(c);
    }
}

pub(super) fn size_token(board: BoardShape) -> &'static str {
    match board {
        BoardShape::Four => "4",
        BoardShape::Six => "6",
        BoardShape::Eight => "8",
        BoardShape::Ten | BoardShape::Octagon => "10",
    }
}

/// The SGF text of `record` and what it could not hold.
pub(super) fn to_sgf(record: &Record) -> (String, Vec<String>) {
    // SGF holds comments, not flip claims, evaluations, times or position claims.
    let mut losses = ClaimLosses::of(
        record,
        &[Claim::Flips, Claim::Eval, Claim::Time, Claim::Position],
    )
    .into_vec();
    let mut out = String::new();
    let tags = record
        .tags
        .iter()
        .map(|t| (t.name.as_str(), t.value.as_str()));
    push_root(&mut out, &record.rules, tags, &mut losses);
    push_setup(&mut out, record.start_setup());
    if let Some(re) = result_text(record.result.as_ref(), &mut losses) {
        out.push_str(&format!("RE[{re}]"));
    }
    if let Some(comment) = &record.comment {
        out.push_str(&format!("C[{}]", escape(comment)));
    }
    out.push('\n');
    let moves = colored_moves(record).into_iter().map(|(color, m)| {
        let comment = m.and_then(|m| m.comment.as_deref());
        (color, m.map(|m| m.mv), comment)
    });
    push_moves(&mut out, moves);
    (out, losses)
}

/// The SGF text of a plain game (its record's, without building it) and what it could not
/// hold: its tags as the record's, its moves coloured in turn (every pass is written), its
/// result a margin. `None` for 3-4 players, which SGF does not hold.
fn plain_to_sgf(game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
    if game.rules.players() != 2 {
        return None;
    }
    let mut losses = Vec::new();
    let mut out = String::with_capacity(256 + 5 * game.moves.len());
    push_root(&mut out, &game.rules, game.tags(), &mut losses);
    let setup = start_setup(game.rules, None);
    push_setup(&mut out, setup);
    let result = game
        .discs
        .map(|[black, white]| ClaimedResult::discs(vec![black, white]));
    if let Some(re) = result_text(result.as_ref(), &mut losses) {
        out.push_str("RE[");
        out.push_str(&re);
        out.push(']');
    }
    out.push('\n');
    let mut color = setup.turn;
    let moves = game.moves.iter().map(|&mv| {
        let this = color;
        color = color.next(2);
        (this, Some(mv), None)
    });
    push_moves(&mut out, moves);
    Some((out, losses))
}

/// Appends the root node's opening and the tags (`name`, `value`, in the record's order):
/// named ones under their IDs, upper-case names as properties of their own (all values of
/// one name together); the others are lost.
fn push_root<'t>(
    out: &mut String,
    rules: &crate::engine::Rules,
    tags: impl Iterator<Item = (&'t str, &'t str)> + Clone,
    losses: &mut Vec<String>,
) {
    // The root node on one line (old parsers such as sgflib's first versions take a line
    // break before a property into its identifier), the text declared as UTF-8.
    out.push_str("(;FF[4]GM[2]SZ[");
    out.push_str(size_token(rules.board()));
    out.push_str("]CA[UTF-8]");
    let id_of = |name: &'t str| {
        TAG_IDS
            .iter()
            .find(|(_, n)| n.eq_ignore_ascii_case(name))
            .map_or(name, |(id, _)| *id)
    };
    let mut done: Vec<&str> = Vec::new();
    for (name, _) in tags.clone() {
        if name == "CA" {
            // A source's charset: this file's is the one declared above.
            continue;
        }
        let id = match TAG_IDS.iter().find(|(_, n)| n.eq_ignore_ascii_case(name)) {
            Some((id, _)) => *id,
            None => {
                let valid_id = !name.is_empty()
                    && name.bytes().all(|b| b.is_ascii_uppercase())
                    && !STRUCTURAL_IDS.contains(&name)
                    && !TAG_IDS.iter().any(|(id, _)| *id == name);
                if !valid_id {
                    losses.push(tag_phrase(name));
                    continue;
                }
                name
            }
        };
        if done.contains(&id) {
            continue;
        }
        done.push(id);
        out.push_str(id);
        for (_, value) in tags.clone().filter(|(n, _)| id_of(n) == id) {
            out.push('[');
            push_escaped(out, value);
            out.push(']');
        }
    }
}

/// Appends the start position's discs (`AB`, `AW`) and the player to move (`PL`).
fn push_setup(out: &mut String, setup: Setup) {
    for (id, set) in [("AB", setup.discs[0]), ("AW", setup.discs[1])] {
        if !set.is_empty() {
            out.push_str(id);
            for sq in set {
                out.push('[');
                out.push_str(sq.name());
                out.push(']');
            }
        }
    }
    out.push_str(if setup.turn == Color::White {
        "PL[W]"
    } else {
        "PL[B]"
    });
}

/// Appends the move nodes (each its colour, its move or a pass, its comment), ten a line,
/// and the tree's end.
fn push_moves<'m>(
    out: &mut String,
    moves: impl Iterator<Item = (Color, Option<Move>, Option<&'m str>)>,
) {
    let mut on_line = 0;
    for (color, mv, comment) in moves {
        out.push_str(if color == Color::White { ";W[" } else { ";B[" });
        out.push_str(match mv {
            Some(Move::Place(sq)) => sq.name(),
            _ => "PA",
        });
        out.push(']');
        if let Some(comment) = comment {
            out.push_str("C[");
            push_escaped(out, comment);
            out.push(']');
        }
        on_line += 1;
        if on_line == 10 {
            out.push('\n');
            on_line = 0;
        }
    }
    if on_line > 0 {
        out.push('\n');
    }
    out.push_str(")\n");
}

/// The `RE` value, if the record claims a result (`result`) SGF can hold.
pub(super) fn result_text(
    result: Option<&ClaimedResult>,
    losses: &mut Vec<String>,
) -> Option<String> {
    let result = result?;
    let margin = match &result.score {
        ResultScore::Margin(m) => Some(*m),
        ResultScore::Discs(d) if d.len() == 2 => Some(f64::from(d[0]) - f64::from(d[1])),
        ResultScore::Discs(d) => {
            losses.push(format!("a result of {} disc counts", d.len()));
            return None;
        }
        _ => None,
    };
    let letter = |c: Color| if c == Color::White { "W" } else { "B" };
    let winner = match (&result.score, margin) {
        (ResultScore::Winner(w), _) => *w,
        (_, Some(m)) if m > 0.0 => Some(Color::Black),
        (_, Some(m)) if m < 0.0 => Some(Color::White),
        _ => None,
    };
    match result.termination {
        Termination::Normal => match (&result.score, margin) {
            (ResultScore::Winner(None), _) => Some("Draw".into()),
            (ResultScore::Winner(Some(w)), _) => Some(format!("{}+", letter(*w))),
            (_, Some(0.0)) => Some("0".into()),
            (_, Some(m)) => Some(format!(
                "{}+{}",
                letter(winner.unwrap_or(Color::Black)),
                format_number(m.abs(), 0, false)
            )),
            _ => None,
        },
        Termination::Resignation(loser) | Termination::Time(loser) => {
            let flag = if matches!(result.termination, Termination::Time(_)) {
                "T"
            } else {
                "R"
            };
            let winner = winner.or(loser.map(|l| l.next(2)));
            if margin.is_some_and(|m| m != 0.0) {
                losses.push("the score of a game that did not end normally".into());
            }
            match winner {
                Some(w) if loser != Some(w) => Some(format!("{}+{flag}", letter(w))),
                _ => {
                    losses.push("a resignation or time loss without a winner".into());
                    None
                }
            }
        }
        Termination::Agreement => {
            losses.push("that the score was agreed".into());
            margin.map(|m| {
                if m == 0.0 {
                    "0".into()
                } else {
                    format!(
                        "{}+{}",
                        letter(winner.unwrap_or(Color::Black)),
                        format_number(m.abs(), 0, false)
                    )
                }
            })
        }
        Termination::Unfinished => {
            if !result.score.is_none() {
                losses.push("the score of an unfinished game".into());
            }
            Some("Void".into())
        }
    }
}
