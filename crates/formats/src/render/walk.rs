//! Every position of a game at once, for a viewer that steps through the moves: what the
//! web desk (`reversi serve`) sends for a game, so stepping needs no further request.

use serde::Serialize;

use super::{Diagram, Marks, RenderError, Style, Turn};
use crate::engine::{Color, Move};
use crate::record::Record;

/// A game's positions from the start to the last legal written move, each drawn as SVG
/// with its legal moves, and the first illegal move, if any.
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_formats::render::Walk;
/// let games = Format::MoveString.read_bytes("f5d6c3a1\n", &ReadOptions::default()).unwrap();
/// let walk = Walk::of(games[0].record.as_ref().unwrap()).unwrap();
/// // The start, then after each of the three legal moves; move 4 (a1) is illegal.
/// assert_eq!(walk.frames.len(), 4);
/// assert_eq!(walk.frames[0].discs, [("black".to_string(), 2), ("white".to_string(), 2)]);
/// assert_eq!(walk.frames[0].legal, ["d3", "c4", "f5", "e6"]);
/// assert_eq!(walk.stopped.as_ref().unwrap().number, 4);
/// assert!(walk.frames[3].svg.contains("illegal-move"));
/// assert_eq!(walk.moves[3].text, "a1");
/// ```
#[derive(Clone, Debug, Serialize)]
pub struct Walk {
    /// The rules string.
    pub rules: String,
    /// The written moves, in order (legal or not).
    pub moves: Vec<WalkMove>,
    /// Frame `k` is the position after `k` written moves, up to the last legal one.
    pub frames: Vec<Frame>,
    /// The first illegal written move, where replay stopped.
    pub stopped: Option<Stopped>,
}

/// A written move of the record.
#[derive(Clone, Debug, Serialize)]
pub struct WalkMove {
    /// 1-based number of the written move.
    pub number: usize,
    /// `f5`, or `pass`.
    pub text: String,
    /// Who made it, for the moves replayed (`None` from the first illegal move on).
    pub color: Option<&'static str>,
    /// The record's comment on the move.
    pub comment: Option<String>,
}

/// One position of the game.
#[derive(Clone, Debug, Serialize)]
pub struct Frame {
    /// Written moves played to reach it.
    pub after: usize,
    /// The board as SVG, the legal moves dotted, the record's illegal move (when it is the
    /// next one) crossed, with its caption.
    pub svg: String,
    /// The disc count of each colour in play, in turn order.
    pub discs: Vec<(String, u32)>,
    /// Who is to move, or `None` when the game is over.
    pub to_move: Option<&'static str>,
    /// `black to move: 4 legal moves: d3 c4 f5 e6`, as `reversi legal` says it.
    pub turn: String,
    /// The legal moves (`pass` when the side to move must pass).
    pub legal: Vec<String>,
    /// `3. c3 by black`: the move that led here.
    pub last: Option<String>,
}

/// The illegal move that stopped replay.
#[derive(Clone, Debug, Serialize)]
pub struct Stopped {
    /// 1-based number of the written move.
    pub number: usize,
    /// The move as written.
    pub text: String,
    /// Why it is illegal.
    pub reason: String,
}

fn move_text(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "pass".to_string(),
    }
}

impl Walk {
    /// Replays `record` and draws every position; an impossible start position is the
    /// only error (an illegal move ends the frames, as [`Diagram::replay`] stops there).
    pub fn of(record: &Record) -> Result<Walk, RenderError> {
        let full = Diagram::replay(record, None)?;
        let played = full.diagram.moves;
        let mut frames = Vec::with_capacity(played + 1);
        let mut colors: Vec<Option<&'static str>> = vec![None; record.moves.len()];
        let players = usize::from(record.rules.players()).clamp(2, 4);
        for k in 0..=played {
            let replay = Diagram::replay(record, Some(k))?;
            let diagram = &replay.diagram;
            let marks = Marks::of(record, &replay, true);
            let pos = &diagram.position;
            if let (Some(last), Some(slot)) = (diagram.last, k.checked_sub(1)) {
                if let Some(c) = colors.get_mut(slot) {
                    *c = Some(last.color.name());
                }
            }
            let turn = Turn::of(pos);
            frames.push(Frame {
                after: k,
                svg: diagram.svg_marked(&Style::default(), &marks),
                discs: Color::ALL[..players]
                    .iter()
                    .map(|&c| (c.name().to_string(), pos.discs(c).len() as u32))
                    .collect(),
                to_move: turn.color().map(Color::name),
                turn: turn.to_string(),
                legal: turn.moves().into_iter().map(move_text).collect(),
                last: diagram
                    .last
                    .map(|l| format!("{}. {} by {}", l.number, move_text(l.mv), l.color)),
            });
        }
        let moves = record
            .moves
            .iter()
            .enumerate()
            .map(|(i, m)| WalkMove {
                number: i + 1,
                text: move_text(m.mv),
                color: colors.get(i).copied().flatten(),
                comment: m.comment.clone(),
            })
            .collect();
        Ok(Walk {
            rules: record.rules.to_string(),
            moves,
            frames,
            stopped: full.stopped.map(|s| Stopped {
                number: s.number,
                text: move_text(s.mv),
                reason: s.reason.to_string(),
            }),
        })
    }
}
