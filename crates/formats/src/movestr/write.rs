//! The writer: one game a line, with or without passes, an Edax start prefix where the
//! start position needs one.

use super::*;

/// Appends `moves` as one line (passes as `--` when `passes`, else left out).
pub(super) fn push_moves(line: &mut String, moves: impl Iterator<Item = Move>, passes: bool) {
    for mv in moves {
        match mv {
            Move::Place(sq) => line.push_str(sq.name()),
            Move::Pass if passes => line.push_str("--"),
            Move::Pass => {}
        }
    }
    line.push('\n');
}

/// Move strings, one game a line, under a `%% rules:` pragma when the rules change.
pub(super) struct MoveStrings {
    /// Whether passes are written (`--`), or the dialect asked for that is not one.
    pub(super) passes: Result<bool, String>,
}

impl TextFormat for MoveStrings {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        let passes = self.passes.clone().map_err(|d| {
            WriteError::Io(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "expected a move-string dialect ({}), but found `{d}` instead",
                    DIALECTS.join(", ")
                ),
            ))
        })?;
        if !passes {
            let kept = passes_replay_cannot_infer(record);
            if !kept.is_empty() {
                return Err(WriteError::ChangesMeaning(vec![kept_passes_phrase(&kept)]));
            }
        }
        let mut losses = Vec::new();
        if !record.tags.is_empty() {
            losses.push(tags_phrase(&record.tags));
        }
        ClaimLosses::of(record, &Claim::ALL).append_to(&mut losses);
        let start = match &record.start {
            Some(start) => match edax_prefix(record.rules, start) {
                Some(prefix) => Some(prefix),
                None => {
                    losses.push(
                        "a start position with more than two colours or discs in hand".into(),
                    );
                    None
                }
            },
            None => None,
        };
        if record.moves.is_empty() && start.is_none() {
            // Nothing of it would be in the output: even lossily, it is not converted.
            return Err(WriteError::ChangesMeaning(vec![
                "an empty game (a move-string line needs at least one move)".into(),
            ]));
        }
        let mut line = String::new();
        if let Some(prefix) = start {
            line.push_str(&prefix);
        }
        push_moves(&mut line, record.moves.iter().map(|m| m.mv), passes);
        Ok((line, losses))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        let passes = *self.passes.as_ref().ok()?;
        // A plain game is one the quick check passed: every pass forced, so replay infers
        // each one left out; it starts from the rules' start, and has moves.
        if game.moves.is_empty() {
            return None;
        }
        let mut losses = Vec::new();
        if !game.tags.is_empty() {
            losses.push(tag_names_phrase(game.tags().map(|(name, _)| name)));
        }
        if game.discs.is_some() {
            ClaimLosses::of_result().append_to(&mut losses);
        }
        let mut line = String::with_capacity(2 * game.moves.len() + 1);
        push_moves(&mut line, game.moves.iter().copied(), passes);
        Some((line, losses))
    }

    fn frame(&self, written: &Written, rules: &Rules, line: &str, out: &mut String) {
        if !line.is_empty() && *rules != written.rules {
            out.push_str(&format!("%% rules: {rules}\n"));
        }
        out.push_str(line);
    }
}

/// The written passes (1-based move numbers) that replay would not put back if they were
/// left out: a pass while the player has a move, or any pass from the first move that does
/// not replay on. Leaving those out would change the game.
pub(super) fn passes_replay_cannot_infer(record: &Record) -> Vec<usize> {
    let mut position = record.start_position().ok();
    let mut kept = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        let played = position.as_mut().is_some_and(|p| {
            // A pass the record leaves out, replay infers: so does this one.
            if m.mv != Move::Pass && p.legal_moves().is_empty() && !p.is_over() {
                let _ = p.play(Move::Pass);
            }
            p.play(m.mv).is_ok()
        });
        if !played {
            position = None;
            if m.mv == Move::Pass {
                kept.push(i + 1);
            }
        }
    }
    kept
}

/// `a pass replay cannot infer (move 12)`, `passes replay cannot infer (moves 12, 30)`.
pub(super) fn kept_passes_phrase(moves: &[usize]) -> String {
    let list: Vec<String> = moves.iter().map(usize::to_string).collect();
    match moves {
        [one] => format!("a pass that replay cannot infer (move {one}), so it cannot be left out"),
        _ => format!(
            "passes that replay cannot infer (moves {}), so they cannot be left out",
            list.join(", ")
        ),
    }
}

/// The Edax prefix `<board> <side>;` of a 2-colour start of a two-player game, if it has
/// no more than that (the reader takes a prefix only under two-player rules: a start of
/// three players, one of them without discs yet, has no prefix).
pub(super) fn edax_prefix(rules: Rules, start: &StartPosition) -> Option<String> {
    let s = &start.setup;
    if rules.players() != 2
        || start.in_hand.is_some()
        || !s.neutral.is_empty()
        || !s.discs[2].is_empty()
        || !s.discs[3].is_empty()
        || !matches!(s.turn, Color::Black | Color::White)
    {
        return None;
    }
    let mut text = board_text::board_string(rules.board(), s);
    text.push(';');
    Some(text)
}
