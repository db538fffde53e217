//! The text transcript: what `tests/rules.rs` snapshots and `spec/rules.md` shows.

use std::fmt::{self, Write as _};

use crate::engine::{Goal, Move, Position, SquareSet};

use super::run::Transcript;

fn squares_with_flips(pos: &Position, set: SquareSet) -> String {
    set.iter()
        .map(|sq| match pos.flips(sq) {
            Ok(f) => format!("{sq}[{}]", f.to_string().replace(' ', ",")),
            Err(e) => format!("{sq}[error: {e}]"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the side to move faces: its legal moves with their flips, a pass, or the end.
/// `with_turn` names the side to move (a board diagram already does).
fn state_line(pos: &Position, with_turn: bool) -> String {
    let turn = if with_turn {
        format!("{} ", pos.turn())
    } else {
        String::new()
    };
    let mut line = if pos.is_over() {
        "game over".to_owned()
    } else if pos.must_pass() {
        format!("{turn}must pass")
    } else {
        let legal = squares_with_flips(pos, pos.legal_moves());
        if with_turn {
            format!("{turn}to move; legal: {legal}")
        } else {
            format!("legal: {legal}")
        }
    };
    if pos.rules().supply().is_some() {
        let hand: Vec<String> = pos
            .rules()
            .colors()
            .iter()
            .map(|c| format!("{c} {}", pos.in_hand(*c).unwrap_or(0)))
            .collect();
        let _ = write!(line, " (in hand: {})", hand.join(", "));
    }
    line
}

fn outcome_line(pos: &Position) -> String {
    let o = pos.counts_outcome();
    let rules = pos.rules();
    let mut verdict = match (o.winner, rules.players()) {
        (Some(c), _) => format!("{c} wins"),
        (None, 2) => "draw".to_owned(),
        (None, _) => "draw for the whole table".to_owned(),
    };
    if rules.goal() == Goal::FewestDiscs {
        verdict.push_str(" (anti: fewest discs win)");
    }
    let mut discs: Vec<String> = rules
        .colors()
        .iter()
        .map(|c| format!("{c} {}", o.discs[c.index()]))
        .collect();
    if rules.players() == 3 {
        discs.push(format!("neutral {}", o.neutral));
    }
    let scores: Vec<String> = rules
        .colors()
        .iter()
        .map(|c| o.score[c.index()].to_string())
        .collect();
    let mut line = format!(
        "{verdict}; discs: {}; empty {}; score ({}): {}",
        discs.join(", "),
        o.empty,
        rules.scoring().name(),
        scores.join("-")
    );
    let scored: u32 = o.score.iter().map(|&s| u32::from(s)).sum();
    let on_board: u32 = o.discs.iter().map(|&d| u32::from(d)).sum();
    if rules.players() == 2 && rules.scoring().name() == "wof" {
        let unscored = (on_board + u32::from(o.empty)).saturating_sub(scored);
        if unscored > 0 {
            let _ = write!(line, "; {unscored} empty square unscored");
        }
    }
    line
}

impl Transcript {
    /// The text transcript (`spec/scenario.md`): boards, legal moves with their flips, every
    /// move and refusal, the outcome. The same as [`Transcript`]'s `Display`.
    pub fn to_text(&self) -> String {
        self.to_string()
    }
}

impl fmt::Display for Transcript {
    fn fmt(&self, out: &mut fmt::Formatter<'_>) -> fmt::Result {
        for p in &self.parses {
            match &p.result {
                Ok(r) => writeln!(out, "parse `{}` -> `{r}`", p.input)?,
                Err(e) => writeln!(out, "parse `{}` -> refused: {e}", p.input)?,
            }
        }
        let Some(rules) = &self.rules else {
            return Ok(());
        };
        writeln!(out, "rules: {rules}")?;
        if let Some(e) = &self.setup_refused {
            return writeln!(out, "setup refused: {e}");
        }
        let Some(first) = self.first_shown() else {
            return Ok(());
        };
        if self.quiet > 0 {
            writeln!(out, "after {} quiet moves:", self.quiet)?;
        }
        writeln!(out, "{first}")?;
        if !first.is_over() {
            writeln!(out, "{}", state_line(&first, false))?;
        }
        for step in self.steps.iter().filter(|s| !s.quiet) {
            let (mover, mv) = (step.mover, step.mv);
            if let Some(e) = step.refused {
                writeln!(out, "{mover} {mv}: refused, {e} ({e:?})")?;
                continue;
            }
            let what = match mv.as_move() {
                Some(Move::Pass) => "passes".to_owned(),
                _ if step.flipped.is_empty() => "flips nothing".to_owned(),
                _ => format!("flips {}", step.flipped),
            };
            writeln!(out, "{mover} {mv}: {what}")?;
            let pos = &step.after;
            if self.show_every {
                writeln!(out, "{pos}")?;
                if !pos.is_over() {
                    writeln!(out, "{}", state_line(pos, false))?;
                }
            } else {
                writeln!(out, "  {}", state_line(pos, true))?;
            }
        }
        let last = self.last().unwrap_or(first);
        if self.steps.len() > self.quiet && !self.show_every {
            writeln!(out, "{last}")?;
        }
        if last.is_over() {
            writeln!(out, "outcome: {}", outcome_line(&last))?;
        }
        Ok(())
    }
}
