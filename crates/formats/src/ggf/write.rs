//! Writing GGF: one game a line, in GGS's property order.

use std::io::Write;

use super::ty::{board_token, canonical_type, GgfType, TyBoard};
use super::{STRUCTURAL_IDS, TAG_IDS, TYPE_TAG};
use crate::capabilities::{tag_phrase, Claim, ClaimLosses};
use crate::engine::{Color, Move, Rules, Setup};
use crate::moves::colored_moves;
use crate::record::{start_setup, ClaimedResult, Record, ResultScore, TagName, Termination};
use crate::text::{format_number, parse_number};
use crate::text_writer::{tag_named, PlainGame};
use crate::{text_writer, RecordWriter, TextFormat, WriteError, WriteOptions};

/// A writer of GGF games, one a line.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    crate::capabilities::checked(crate::Format::Ggf, text_writer(out, options, Ggf))
}

/// GGF games, one a line.
pub(super) struct Ggf;

impl TextFormat for Ggf {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        // Rules GGF cannot say were refused by the capability table already.
        Ok(to_ggf(record))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        plain_to_ggf(game)
    }
}

/// What the GGF text of a game is made of, from a record or from a plain game.
struct GgfGame<'g, T> {
    rules: Rules,
    /// The tags' names and values, in order.
    tags: T,
    result: Option<&'g ClaimedResult>,
    comment: Option<&'g str>,
    setup: Setup,
}

impl<'g, T: Iterator<Item = (&'g str, &'g str)> + Clone> GgfGame<'g, T> {
    /// The value of the first tag named `name` (case-insensitive, as [`Record::tag`]).
    fn tag(&self, name: &str) -> Option<&'g str> {
        tag_named(self.tags.clone(), name)
    }
}

/// The GGF text of `record` and what it could not hold.
pub(super) fn to_ggf(record: &Record) -> (String, Vec<String>) {
    // GGF holds evaluations, times and the game comment, not comments on moves, flip
    // claims or position claims.
    let mut losses =
        ClaimLosses::of(record, &[Claim::MoveComment, Claim::Flips, Claim::Position]).into_vec();
    let game = GgfGame {
        rules: record.rules,
        tags: record
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str())),
        result: record.result.as_ref(),
        comment: record.comment.as_deref(),
        setup: record.start_setup(),
    };
    let moves = colored_moves(record)
        .into_iter()
        .map(|(color, m)| (color, m.map(|m| (m.mv, m.eval, m.time))));
    let out = ggf_text(&game, moves, &mut losses);
    (out, losses)
}

/// The GGF text of a plain game (its record's, without building it) and what it could not
/// hold: its moves coloured in turn (every pass is written). `None` for 3-4 players, which
/// GGF does not hold.
fn plain_to_ggf(game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
    if game.rules.players() != 2 {
        return None;
    }
    let mut losses = Vec::new();
    let result = game
        .discs
        .map(|[black, white]| ClaimedResult::discs(vec![black, white]));
    let view = GgfGame {
        rules: game.rules,
        tags: game.tags(),
        result: result.as_ref(),
        comment: None,
        setup: start_setup(game.rules, None),
    };
    let mut color = view.setup.turn;
    let moves = game.moves.iter().map(|&mv| {
        let this = color;
        color = color.next(2);
        (this, Some((mv, None, None)))
    });
    let out = ggf_text(&view, moves, &mut losses);
    Some((out, losses))
}

/// A move as GGF writes it: the move, its evaluation and time (`None`: a pass to write).
type GgfMove = Option<(Move, Option<f64>, Option<f64>)>;

/// The GGF text of `game` with `moves`, noting in `losses` what it cannot hold.
fn ggf_text<'g, T: Iterator<Item = (&'g str, &'g str)> + Clone>(
    game: &GgfGame<'g, T>,
    moves: impl Iterator<Item = (Color, GgfMove)>,
    losses: &mut Vec<String>,
) -> String {
    let mut out = String::with_capacity(512);
    out.push_str("(;GM[Othello]");
    // Tags that map to GGF properties, in GGS order, TY after the clocks.
    for (id, name) in TAG_IDS {
        if id == "KB" {
            let ty = type_text(&game.rules, game.tag(TYPE_TAG), losses);
            prop(&mut out, losses, "TY", &ty, || "the game type".into());
        }
        if let Some(value) = game.tag(name) {
            prop(&mut out, losses, id, value, || tag_phrase(name));
        }
    }
    if let Some(re) = result_text(&game.rules, game.result, game.tag(TagName::KOMI), losses) {
        out.push_str("RE[");
        out.push_str(&re);
        out.push(']');
    }
    if let Some(comment) = game.comment {
        prop(&mut out, losses, "CO", comment, || {
            "the game comment".into()
        });
    }
    out.push_str(&board_text(&game.rules, &game.setup));
    write_moves(moves, &mut out);
    // Other tags, after the moves.
    let mut names_seen: Vec<&str> = Vec::new();
    for (name, value) in game.tags.clone() {
        // Written above: the game type and the tags GGF has properties for.
        let known = name.eq_ignore_ascii_case(TYPE_TAG)
            || TAG_IDS.iter().any(|(_, n)| n.eq_ignore_ascii_case(name));
        let repeated = names_seen.iter().any(|w| w.eq_ignore_ascii_case(name));
        names_seen.push(name);
        if known {
            if repeated {
                losses.push(format!("the repeated tag `{name}`"));
            }
            continue;
        }
        let valid_id = name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && !STRUCTURAL_IDS.contains(&name)
            && !TAG_IDS.iter().any(|(id, _)| *id == name);
        if valid_id {
            prop(&mut out, losses, name, value, || tag_phrase(name));
        } else {
            losses.push(tag_phrase(name));
        }
    }
    out.push_str(";)\n");
    out
}

/// The `TY` value: the `GgfType` tag (`kept`) when it agrees with `rules`, else the
/// canonical form.
fn type_text(rules: &Rules, kept: Option<&str>, losses: &mut Vec<String>) -> String {
    let canonical = canonical_type(rules);
    let Some(kept) = kept else {
        return canonical;
    };
    let parsed = GgfType::parse(kept);
    let agrees = parsed.errors.is_empty()
        && parsed.board == Some(TyBoard::Shape(rules.board()))
        && parsed.anti == rules.is_anti();
    if agrees {
        kept.to_owned()
    } else {
        losses.push(format!(
            "the game type `{kept}`, which disagrees with the rules"
        ));
        canonical
    }
}

/// The `RE` value, if the game claims a result (`result`) GGF can hold; `komi` is the
/// game's `Komi` tag.
fn result_text(
    rules: &Rules,
    result: Option<&ClaimedResult>,
    komi: Option<&str>,
    losses: &mut Vec<String>,
) -> Option<String> {
    let result = result?;
    let margin = match &result.score {
        ResultScore::Margin(m) => Some(*m),
        ResultScore::Discs(d) if d.len() == 2 => {
            let komi = komi.and_then(|k| parse_number(k.trim())).unwrap_or(0.0);
            Some(f64::from(d[0]) - f64::from(d[1]) - komi)
        }
        ResultScore::Discs(d) => {
            losses.push(format!("a result of {} disc counts", d.len()));
            return None;
        }
        ResultScore::Winner(None) => Some(0.0),
        ResultScore::Winner(Some(_)) => {
            losses.push("a result that names only the winner".into());
            return None;
        }
        ResultScore::None => None,
    };
    let Some(margin) = margin else {
        return match result.termination {
            Termination::Unfinished => Some("?".into()),
            Termination::Normal => None,
            _ => {
                losses.push("a result without a score".into());
                None
            }
        };
    };
    // RE says how much Black won by: in anti games, the negated margin.
    let re = if rules.is_anti() && margin != 0.0 {
        -margin
    } else {
        margin
    };
    let loser = |c: Option<Color>, losses: &mut Vec<String>, what: &str| {
        let implied = if re > 0.0 {
            Some(Color::White)
        } else if re < 0.0 {
            Some(Color::Black)
        } else {
            None
        };
        if c.is_some() && c != implied {
            losses.push(format!("who {what} (the score says otherwise)"));
        }
    };
    let flag = match result.termination {
        Termination::Normal => "",
        Termination::Resignation(c) => {
            loser(c, losses, "resigned");
            ":r"
        }
        Termination::Time(c) => {
            loser(c, losses, "lost on time");
            ":t"
        }
        Termination::Agreement => ":s",
        Termination::Unfinished => ":l",
    };
    Some(format!("{}{flag}", format_number(re, 3, true)))
}

/// Appends `ID[value]`. GGF has no escapes: a `]` would end the value and a `(;` would
/// start a new game for readers that resynchronise, so both are reported and defused;
/// `what` names the value in the report (made only then: most values need none).
fn prop(
    out: &mut String,
    losses: &mut Vec<String>,
    id: &str,
    value: &str,
    what: impl Fn() -> String,
) {
    let (close, open) = (value.contains(']'), value.contains("(;"));
    if close {
        losses.push(format!("a `]` in {}", what()));
    }
    if open {
        losses.push(format!("a `(;` in {}", what()));
    }
    out.push_str(id);
    out.push('[');
    if close || open {
        out.push_str(&value.replace(']', ")").replace("(;", "( ;"));
    } else {
        out.push_str(value);
    }
    out.push(']');
}

/// `BO[8 -------- … *]`.
fn board_text(rules: &Rules, setup: &Setup) -> String {
    let board = rules.board();
    let mut out = format!("BO[{}", board_token(board));
    let mut row = u8::MAX;
    for sq in board.cells() {
        if sq.row() != row {
            out.push(' ');
            row = sq.row();
        }
        out.push(if setup.discs[0].contains(sq) {
            '*'
        } else if setup.discs[1].contains(sq) {
            'O'
        } else {
            '-'
        });
    }
    out.push_str(if setup.turn == Color::White {
        " O]"
    } else {
        " *]"
    });
    out
}

/// `B[f5/eval/time]` for each move; `PA` passes.
fn write_moves(moves: impl Iterator<Item = (Color, GgfMove)>, out: &mut String) {
    for (color, m) in moves {
        out.push_str(if color == Color::White { "W[" } else { "B[" });
        let Some((mv, eval, time)) = m else {
            out.push_str("PA]");
            continue;
        };
        match mv {
            Move::Place(sq) => out.push_str(sq.name()),
            Move::Pass => out.push_str("PA"),
        }
        if eval.is_some() || time.is_some() {
            out.push('/');
            if let Some(e) = eval {
                out.push_str(&format_number(e, 2, false));
            }
            if let Some(t) = time {
                out.push('/');
                out.push_str(&format_number(t, 2, false));
            }
        }
        out.push(']');
    }
}
