//! Pictures of positions: a [`Diagram`] (a position and the moves that led to it) drawn as
//! text or as a self-contained SVG.
//!
//! The text board is the one diagnostics draw (`Position`'s `Display`); the SVG is a green
//! board with coordinates, discs of every colour, blocked squares shaded, the octagon's cut
//! corners left out and the last move framed. With [`Style::numbers`] both draw the game
//! diagram of Othello books instead: the start discs, and on every square where a disc was
//! placed, the number of that placement (passes have none) on a disc of the mover's colour.
//!
//! ```
//! use reversi_formats::record::{MoveRecord, Record};
//! use reversi_formats::render::{Diagram, Style};
//! use reversi_engine::{Move, Rules};
//! let mut record = Record::new(Rules::default());
//! for sq in ["f5", "d6", "c3"] {
//!     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
//! }
//! let replay = Diagram::replay(&record, None).unwrap();
//! assert!(replay.stopped.is_none());
//! let text = replay.diagram.text(&Style::default());
//! assert!(text.contains("last move: 3. c3 by black"));
//! let svg = replay.diagram.svg(&Style::default());
//! assert!(svg.starts_with("<svg"));
//! ```

use std::fmt;

use crate::engine::{Color, IllegalMove, Move, Position, SetupError, Square, SquareSet};
use crate::record::Record;

mod svg;
mod text;
pub mod walk;

pub use walk::Walk;

/// `text` as HTML or XML character data or attribute value: `& < > " '` escaped, control
/// characters (which XML cannot hold) as spaces, line breaks kept.
///
/// ```
/// use reversi_formats::render::escape_markup;
/// assert_eq!(escape_markup("<b a='1'>&\u{1b}"), "&lt;b a=&#39;1&#39;&gt;&amp; ");
/// ```
pub fn escape_markup(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c if c.is_control() && c != '\n' => out.push(' '),
            c => out.push(c),
        }
    }
    out
}

pub use svg::{square_centre, CELL};

/// A position to draw, with what led to it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagram {
    /// The position drawn.
    pub position: Position,
    /// The position the moves started from.
    pub start: Position,
    /// The last written move played, if any.
    pub last: Option<LastMove>,
    /// Every disc placement played, in order.
    pub placements: Vec<Placement>,
    /// Written moves played (passes the record writes included, inferred passes not).
    pub moves: usize,
    /// Written moves in the record.
    pub total_moves: usize,
}

/// A written move and who made it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LastMove {
    /// 1-based number of the written move.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// The side that made it.
    pub color: Color,
}

/// One disc placement, numbered as game diagrams number them (passes get no number).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Placement {
    /// 1-based number of the placement.
    pub number: usize,
    /// Where the disc went.
    pub square: Square,
    /// The mover.
    pub color: Color,
}

/// A written move the rules do not allow; the diagram stops before it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Stop {
    /// 1-based number of the written move.
    pub number: usize,
    /// The move.
    pub mv: Move,
    /// Why it is illegal.
    pub reason: IllegalMove,
}

/// A replayed record: the diagram, and the illegal move replay stopped at, if any.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Replay {
    /// The position after the last legal move asked for.
    pub diagram: Diagram,
    /// The illegal move that ended replay early.
    pub stopped: Option<Stop>,
}

/// Why a record cannot be drawn at all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RenderError {
    /// The start position is impossible under the rules.
    BadSetup(SetupError),
    /// The move asked for is past the record's end.
    PastEnd {
        /// The move asked for.
        asked: usize,
        /// Written moves in the record.
        moves: usize,
    },
}

impl fmt::Display for RenderError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RenderError::BadSetup(e) => write!(f, "the start position is impossible: {e}"),
            RenderError::PastEnd { asked, moves } => write!(
                f,
                "expected a move number from 0 to {moves}, but found {asked} instead: the game has {moves} written moves"
            ),
        }
    }
}

impl std::error::Error for RenderError {}

/// How to draw a diagram.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Style {
    /// Draw the game diagram: start discs, and each placement's number on a disc of the
    /// mover's colour, instead of the current position.
    pub numbers: bool,
}

impl Diagram {
    /// A diagram of a position alone (no moves, no last move).
    ///
    /// ```
    /// use reversi_formats::render::{Diagram, Style};
    /// use reversi_engine::{Position, Rules};
    /// let d = Diagram::new(Position::new(Rules::default()));
    /// assert!(d.text(&Style::default()).contains("discs: black 2, white 2"));
    /// ```
    pub fn new(position: Position) -> Diagram {
        Diagram {
            position,
            start: position,
            last: None,
            placements: Vec::new(),
            moves: 0,
            total_moves: 0,
        }
    }

    /// Replays `record` from its start position up to written move `upto` (`None`: every
    /// move; `Some(0)`: the start). Passes the record leaves out are inferred as the
    /// validator infers them; an illegal move stops replay, and the diagram shows the
    /// position before it.
    pub fn replay(record: &Record, upto: Option<usize>) -> Result<Replay, RenderError> {
        let total = record.moves.len();
        let upto = upto.unwrap_or(total);
        if upto > total {
            return Err(RenderError::PastEnd {
                asked: upto,
                moves: total,
            });
        }
        let start = record.start_position().map_err(RenderError::BadSetup)?;
        let mut diagram = Diagram {
            position: start,
            start,
            last: None,
            placements: Vec::new(),
            moves: 0,
            total_moves: total,
        };
        let pos = &mut diagram.position;
        for (i, m) in record.moves[..upto].iter().enumerate() {
            // The validator's rule: a placement by a side that must pass means the record
            // left a pass out, unless the record says that side made the placement.
            if m.mv != Move::Pass && pos.must_pass() && m.color != Some(pos.turn()) {
                let _ = pos.play(Move::Pass);
            }
            let mover = pos.turn();
            if let Err(reason) = pos.play(m.mv) {
                return Ok(Replay {
                    diagram,
                    stopped: Some(Stop {
                        number: i + 1,
                        mv: m.mv,
                        reason,
                    }),
                });
            }
            if let Move::Place(square) = m.mv {
                diagram.placements.push(Placement {
                    number: diagram.placements.len() + 1,
                    square,
                    color: mover,
                });
            }
            diagram.last = Some(LastMove {
                number: i + 1,
                mv: m.mv,
                color: mover,
            });
            diagram.moves = i + 1;
        }
        Ok(Replay {
            diagram,
            stopped: None,
        })
    }

    /// The diagram as text: the board as diagnostics draw it (or, with
    /// [`Style::numbers`], the grid of placement numbers), the side to move, the disc count
    /// of each colour (and the discs in hand, when the supply is limited) and the last move.
    pub fn text(&self, style: &Style) -> String {
        text::render(self, style)
    }

    /// The diagram as a self-contained SVG document (no fonts or files outside it), sized
    /// with `width`, `height` and `viewBox`.
    pub fn svg(&self, style: &Style) -> String {
        svg::render(self, style)
    }

    /// [`Diagram::text`] with the marks said under it, a line each.
    pub fn text_marked(&self, style: &Style, marks: &Marks) -> String {
        let mut out = text::render(self, style);
        for line in marks.caption(false) {
            out.push_str(&line);
            out.push('\n');
        }
        out
    }

    /// [`Diagram::svg`] with the marks drawn: a dot on each legal move, a red cross on the
    /// illegal move, the caption under the board.
    pub fn svg_marked(&self, style: &Style, marks: &Marks) -> String {
        svg::render_marked(self, style, marks)
    }

    /// The turn in the position drawn: who moves and what they may play.
    pub fn turn(&self) -> Turn {
        Turn::of(&self.position)
    }

    /// The placement number on each square, when a disc was placed there.
    pub fn number_at(&self, square: Square) -> Option<&Placement> {
        self.placements.iter().rev().find(|p| p.square == square)
    }

    /// A one-line summary: rules, how far the game got, who is to move.
    pub fn summary(&self) -> String {
        let pos = &self.position;
        let rules = pos.rules();
        let mut s = format!("{rules}");
        match self.last {
            Some(last) => s.push_str(&format!(", after {}", describe_move(&last))),
            None => s.push_str(", start position"),
        }
        s.push_str(": ");
        s.push_str(&counts(pos));
        if pos.is_over() {
            s.push_str("; game over");
        } else {
            s.push_str(&format!("; {} to move", pos.turn()));
        }
        s
    }
}

/// Who moves in a position and what they may play: what `reversi legal` lists.
///
/// In 3-4 player games nobody passes (a player without a flipping move places a disc
/// beside any disc), so [`Turn::Pass`] is a two-player turn only.
///
/// ```
/// use reversi_formats::render::Turn;
/// use reversi_engine::{Position, Rules};
/// let turn = Turn::of(&Position::new(Rules::default()));
/// assert_eq!(turn.to_string(), "black to move: 4 legal moves: d3 c4 f5 e6");
/// let multi = Turn::of(&Position::new("multi3".parse().unwrap()));
/// assert!(multi.to_string().starts_with("black to move: "));
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Turn {
    /// Nobody can place a disc: the game is over.
    Over,
    /// The side to move has no legal placement and must pass (two players only).
    Pass(Color),
    /// The side to move and the squares it may place a disc on (in a free opening, the
    /// empty centre squares).
    Place {
        /// The side to move.
        color: Color,
        /// Its legal placements.
        squares: SquareSet,
    },
}

impl Turn {
    /// The turn in `pos`.
    pub fn of(pos: &Position) -> Turn {
        if pos.is_over() {
            Turn::Over
        } else if pos.must_pass() {
            Turn::Pass(pos.turn())
        } else {
            Turn::Place {
                color: pos.turn(),
                squares: pos.legal_moves(),
            }
        }
    }

    /// The side to move, unless the game is over.
    pub fn color(&self) -> Option<Color> {
        match *self {
            Turn::Over => None,
            Turn::Pass(c) | Turn::Place { color: c, .. } => Some(c),
        }
    }

    /// The legal moves: the placements, or the one pass.
    pub fn moves(&self) -> Vec<Move> {
        match *self {
            Turn::Over => Vec::new(),
            Turn::Pass(_) => vec![Move::Pass],
            Turn::Place { squares, .. } => squares.iter().map(Move::Place).collect(),
        }
    }
}

impl fmt::Display for Turn {
    /// `black to move: 4 legal moves: d3 c4 f5 e6`, `white has no legal move and must
    /// pass`, `game over`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            Turn::Over => f.write_str("game over"),
            Turn::Pass(c) => write!(f, "{c} has no legal move and must pass"),
            Turn::Place { color, squares } => {
                let n = squares.len();
                let noun = if n == 1 { "legal move" } else { "legal moves" };
                write!(f, "{color} to move: {n} {noun}: {squares}")
            }
        }
    }
}

/// What a picture marks besides the position: the legal moves of the side to move, the
/// illegal move the record writes next, and a caption saying so.
///
/// ```
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_formats::render::{Diagram, Marks, Style};
/// use reversi_engine::{Move, Rules};
/// let mut record = Record::new(Rules::default());
/// for sq in ["f5", "d6", "a1"] {
///     record.moves.push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
/// }
/// let replay = Diagram::replay(&record, None).unwrap();
/// let marks = Marks::of(&record, &replay, true);
/// assert_eq!(marks.illegal.map(|sq| sq.to_string()).as_deref(), Some("a1"));
/// assert_eq!(marks.legal.to_string(), "c3 c4 c5 c6 c7");
/// assert_eq!(marks.caption(false), [
///     "black to move: 5 legal moves: c3 c4 c5 c6 c7",
///     "move 3 (a1) is illegal: the move flips nothing",
/// ]);
/// let svg = replay.diagram.svg_marked(&Style::default(), &marks);
/// assert!(svg.contains("legal-move") && svg.contains("illegal-move"));
/// assert!(svg.contains("red cross: move 3 (a1) is illegal"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Marks {
    /// Squares marked as legal moves (dots).
    pub legal: SquareSet,
    /// The square of the illegal move marked (a red cross).
    pub illegal: Option<Square>,
    /// The turn the caption describes, when legal moves are asked for.
    pub turn: Option<Turn>,
    /// The illegal move the caption names.
    pub stop: Option<Stop>,
}

impl Marks {
    /// The marks for `replay` of `record`: the illegal move, when the position shown is the
    /// one before the record's first illegal move, and (with `legal`) the legal moves.
    pub fn of(record: &Record, replay: &Replay, legal: bool) -> Marks {
        let pos = &replay.diagram.position;
        let stop = replay
            .stopped
            .or_else(|| next_illegal(record, pos, replay.diagram.moves));
        let turn = legal.then(|| Turn::of(pos));
        Marks {
            legal: match turn {
                Some(Turn::Place { squares, .. }) => squares,
                _ => SquareSet::EMPTY,
            },
            illegal: match stop {
                Some(Stop {
                    mv: Move::Place(sq),
                    ..
                }) => Some(sq),
                _ => None,
            },
            turn,
            stop,
        }
    }

    /// The caption, one line per mark: who moves and the legal moves, the illegal move and
    /// why. `svg`: say which marks stand for what (dots, red cross).
    pub fn caption(&self, svg: bool) -> Vec<String> {
        let mut lines = Vec::new();
        if let Some(turn) = self.turn {
            match turn {
                Turn::Place { .. } if svg => lines.push(format!("dots: {turn}")),
                _ => lines.push(turn.to_string()),
            }
        }
        if let Some(stop) = self.stop {
            let what = match stop.mv {
                Move::Place(sq) => sq.to_string(),
                Move::Pass => "a pass".to_string(),
            };
            let cross = if svg && self.illegal.is_some() {
                "red cross: "
            } else {
                ""
            };
            lines.push(format!(
                "{cross}move {} ({what}) is illegal: {}",
                stop.number, stop.reason
            ));
        }
        lines
    }

    /// Whether there is nothing to mark or say.
    pub fn is_empty(&self) -> bool {
        self.turn.is_none() && self.stop.is_none()
    }
}

/// The record's written move `shown + 1`, when it is illegal in `pos` (the position after
/// `shown` written moves).
fn next_illegal(record: &Record, pos: &Position, shown: usize) -> Option<Stop> {
    let m = record.moves.get(shown)?;
    let mut pos = *pos;
    if m.mv != Move::Pass && pos.must_pass() && m.color != Some(pos.turn()) {
        let _ = pos.play(Move::Pass);
    }
    pos.play(m.mv).err().map(|reason| Stop {
        number: shown + 1,
        mv: m.mv,
        reason,
    })
}

/// `31. f5 by white`, `33. pass by black`.
fn describe_move(last: &LastMove) -> String {
    let what = match last.mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "pass".to_string(),
    };
    format!("{}. {what} by {}", last.number, last.color)
}

/// `black 20, white 24` (and `neutral 1` when the game has neutral discs).
fn counts(pos: &Position) -> String {
    let mut parts: Vec<String> = pos
        .rules()
        .colors()
        .iter()
        .map(|&c| format!("{c} {}", pos.discs(c).len()))
        .collect();
    let neutral = pos.neutral().len();
    if neutral > 0 {
        parts.push(format!("neutral {neutral}"));
    }
    parts.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::MoveRecord;
    use crate::Rules;

    fn record(rules: &str, moves: &[&str]) -> Record {
        let mut r = Record::new(rules.parse().unwrap());
        for m in moves {
            let mv = match *m {
                "--" => Move::Pass,
                sq => Move::Place(sq.parse().unwrap()),
            };
            r.moves.push(MoveRecord::new(mv));
        }
        r
    }

    #[test]
    fn replay_stops_before_an_illegal_move() {
        let r = record("othello", &["f5", "d6", "a1", "c3"]);
        let replay = Diagram::replay(&r, None).unwrap();
        let stop = replay.stopped.unwrap();
        assert_eq!(stop.number, 3);
        assert_eq!(stop.reason, IllegalMove::FlipsNothing);
        assert_eq!(replay.diagram.moves, 2);
        assert_eq!(replay.diagram.last.unwrap().mv.to_string(), "d6");
        assert_eq!(replay.diagram.placements.len(), 2);
    }

    #[test]
    fn replay_infers_left_out_passes_and_numbers_placements_only() {
        // 4x4: Black must pass before White's b4 (move 11).
        let moves = [
            "a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "b4", "a4",
        ];
        let r = record("othello:4x4", &moves);
        let d = Diagram::replay(&r, None).unwrap().diagram;
        assert_eq!(d.moves, 12);
        assert_eq!(d.placements.len(), 12);
        let b4 = d.placements[10];
        assert_eq!((b4.number, b4.color), (11, Color::White));
        let with_pass = record(
            "othello:4x4",
            &[
                "a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "--", "b4", "a4",
            ],
        );
        let e = Diagram::replay(&with_pass, None).unwrap().diagram;
        assert_eq!(e.position, d.position);
        assert_eq!(e.placements, d.placements);
        let pass = Diagram::replay(&with_pass, Some(11)).unwrap().diagram.last;
        assert_eq!(
            pass,
            Some(LastMove {
                number: 11,
                mv: Move::Pass,
                color: Color::Black
            })
        );
    }

    #[test]
    fn move_past_the_end_is_refused() {
        let r = record("othello", &["f5"]);
        let e = Diagram::replay(&r, Some(2)).unwrap_err();
        assert_eq!(e, RenderError::PastEnd { asked: 2, moves: 1 });
        assert!(e.to_string().contains("from 0 to 1"));
        let start = Diagram::replay(&r, Some(0)).unwrap().diagram;
        assert_eq!(start.position, Position::new(Rules::default()));
        assert_eq!(start.last, None);
    }
}
