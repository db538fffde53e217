//! The diagram as text. The board itself is `Position`'s `Display`, the one diagnostics
//! draw; this module adds the numbers grid and the lines under the board.

use std::fmt::Write;

use super::{counts, describe_move, Diagram, Style};
use crate::engine::{Move, Square};

pub(super) fn render(d: &Diagram, style: &Style) -> String {
    let pos = &d.position;
    let mut out = String::new();
    if style.numbers {
        numbers_grid(d, &mut out);
        if pos.is_over() {
            out.push_str("game over");
        } else {
            let _ = write!(out, "{} to move", pos.turn());
        }
    } else {
        // Ends with `black to move` or `game over`.
        let _ = write!(out, "{pos}");
    }
    if pos.must_pass() {
        out.push_str(" (no legal move: must pass)");
    }
    out.push('\n');
    let _ = writeln!(out, "discs: {}", counts(pos));
    let in_hand: Vec<String> = pos
        .rules()
        .colors()
        .iter()
        .filter_map(|&c| pos.in_hand(c).map(|n| format!("{c} {n}")))
        .collect();
    if !in_hand.is_empty() {
        let _ = writeln!(out, "in hand: {}", in_hand.join(", "));
    }
    match &d.last {
        Some(last) => {
            let _ = write!(out, "last move: {}", describe_move(last));
            // The diagram numbers placements; the record numbers written moves.
            let placed = match last.mv {
                Move::Place(sq) => d.number_at(sq).map(|p| p.number),
                Move::Pass => None,
            };
            match placed {
                Some(n) if style.numbers && n != last.number => {
                    let _ = writeln!(out, " (number {n} on the diagram)");
                }
                _ => out.push('\n'),
            }
        }
        None => out.push_str("last move: none (start position)\n"),
    }
    out
}

/// The sheet of placement numbers: each square holds the number of the placement that
/// filled it, or what it held at the start (`X O R G N`, `#` blocked, `.` empty).
fn numbers_grid(d: &Diagram, out: &mut String) {
    let n = d.start.rules().board().side();
    let pad = if n >= 10 { 3 } else { 2 };
    let _ = write!(out, "{:pad$}", "");
    for c in 0..n {
        let _ = write!(out, " {:>2}", (b'a' + c) as char);
    }
    out.push('\n');
    for r in 0..n {
        let _ = write!(out, "{:>pad$}", r + 1);
        for c in 0..n {
            let Some(sq) = Square::new(c, r) else {
                continue;
            };
            match d.number_at(sq) {
                Some(p) => {
                    let _ = write!(out, " {:>2}", p.number);
                }
                None => {
                    let _ = write!(out, " {:>2}", d.start.cell(sq).symbol());
                }
            }
        }
        out.push('\n');
    }
}
