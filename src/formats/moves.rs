//! Moves as writers list them: each with its colour, passes made explicit. Shared by the
//! GGF and SGF writers, so that neither format imports the other.

use crate::engine::{Color, Move};
use crate::record::{MoveRecord, Record};

/// The moves to write: each with the colour the record claims or replay gives, and the
/// passes replay finds where a record without colours leaves them out (`None`).
pub(crate) fn colored_moves(record: &Record) -> Vec<(Color, Option<&MoveRecord>)> {
    let mut pos = record.start_position().ok();
    let mut expected = record.start_setup().turn;
    let mut out = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        let color = match m.color {
            Some(c) => c,
            None => match pos.as_mut() {
                Some(p) => {
                    if m.mv != Move::Pass && p.must_pass() && !p.is_over() {
                        out.push((p.turn(), None));
                        let _ = p.play(Move::Pass);
                    }
                    p.turn()
                }
                None => expected,
            },
        };
        out.push((color, Some(m)));
        if let Some(p) = pos.as_mut() {
            if p.turn() != color || p.play(m.mv).is_err() {
                pos = None;
            }
        }
        expected = color.next(2);
    }
    out
}
