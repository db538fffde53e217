//! Moves as writers list them: each with its colour, passes made explicit. Shared by the
//! GGF and SGF writers, so that neither format imports the other.

use crate::engine::quick::implicit_passes;
use crate::engine::{Color, Move};
use crate::record::{MoveRecord, Record};

/// The moves to write: each with the colour the record claims or replay gives, and the
/// passes replay finds where a record without colours leaves them out (`None`).
pub(crate) fn colored_moves(record: &Record) -> Vec<(Color, Option<&MoveRecord>)> {
    quick_colored_moves(record).unwrap_or_else(|| engine_colored_moves(record))
}

/// [`colored_moves`] by the engine's replay, for any record.
fn engine_colored_moves(record: &Record) -> Vec<(Color, Option<&MoveRecord>)> {
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

/// [`colored_moves`] on the quick board, for a standard Othello game from the usual start
/// whose moves claim no colour and replay legally (passes inferred where it leaves them
/// out): the colours then take turns from Black, around the inferred passes. `None`
/// otherwise, for the engine's replay.
fn quick_colored_moves(record: &Record) -> Option<Vec<(Color, Option<&MoveRecord>)>> {
    if record.start.is_some() || record.moves.iter().any(|m| m.color.is_some()) {
        return None;
    }
    let mut passes = Vec::new();
    implicit_passes(
        &record.rules,
        record.moves.iter().map(|m| m.mv),
        &mut passes,
    )?;
    let mut out = Vec::with_capacity(record.moves.len() + passes.len());
    let mut color = Color::Black;
    let mut inferred = passes.iter().peekable();
    for (i, m) in record.moves.iter().enumerate() {
        if inferred.next_if(|&&before| before == i).is_some() {
            out.push((color, None));
            color = color.next(2);
        }
        out.push((color, Some(m)));
        color = color.next(2);
    }
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::testing::{generator, random_game};
    use crate::engine::Rules;

    /// Random standard games, passes written or left out, some with a move changed: the
    /// quick board gives the engine's colours wherever it answers, and answers for every
    /// legal game.
    #[test]
    fn the_quick_board_colours_moves_as_the_engine_does() {
        let mut next = generator(0x2545_f491_4f6c_dd1d);
        let mut answered = 0;
        for k in 0..300 {
            let mut record = Record::new(Rules::default());
            let (played, _) = random_game(Rules::default(), &mut next);
            for mv in played {
                if mv != Move::Pass || k % 2 == 0 {
                    record.moves.push(MoveRecord::new(mv));
                }
            }
            let legal = k % 3 != 0;
            if !legal {
                let at = next(record.moves.len());
                let sq = crate::engine::Square::new(next(8) as u8, next(8) as u8).unwrap();
                record.moves[at] = MoveRecord::new(Move::Place(sq));
            }
            let engine = engine_colored_moves(&record);
            match quick_colored_moves(&record) {
                Some(quick) => {
                    assert_eq!(quick, engine, "game {k}");
                    answered += 1;
                }
                None => assert!(!legal, "game {k}: a legal game"),
            }
        }
        assert!(answered > 200, "{answered}");
    }
}
