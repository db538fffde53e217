//! A block's games read, replayed and readied for the writer, errors checked against the target.

use std::sync::Arc;

use super::plain::Scratch;
use super::work::{Done, Prepared, Step, Work};
use super::{Fingerprint, Target};
use crate::diagnostic::Diagnostic;
use crate::engine::Move;
use crate::formats::capabilities::Capabilities;
use crate::formats::wthor::Entry;
use crate::formats::{capped, rgn, ParsedGame, WriteError};
use crate::pipeline::blocks::{Spent, Unit};
use crate::record::Record;
use crate::validate::{insert_inferred_passes, settle_result, validate_game, validate_record};

/// Reads a block's games and readies each for the writer: replayed, passes made
/// explicit and result settled when it has no error, and the text rendered when the
/// writer has a renderer.
pub(super) fn prepare<T>(unit: Unit<T>, work: Work<'_>, scratch: &mut Scratch) -> (Done<T>, Spent) {
    let mut prepared = Vec::new();
    // The games are looked at where they lie and their storage handed back for the next
    // block (`blocks::run`); a game read in full is read from a copy.
    let spent = match unit {
        Unit::Start(tag, opened) => return (Done::Start(tag, opened), Spent::Nothing),
        Unit::Failed(e) => return (Done::Failed(e), Spent::Nothing),
        Unit::Games(games) => {
            // Reading an output back, a game the quick check passes is only fingerprinted.
            let quick = work.fingerprint_only && work.select.is_none();
            let nothing: Arc<str> = Arc::from("");
            for pending in &games {
                let plain = quick
                    .then(|| Some((pending.unread_index()?, scratch.fingerprint(pending)?)))
                    .flatten();
                if let Some((index, fingerprint)) = plain {
                    prepared.push(Prepared::fingerprinted(index, fingerprint, &nothing));
                    continue;
                }
                let rendered = pending
                    .unread_index()
                    .filter(|&index| work.takes_index(index) == Some(true) && work.plain())
                    .and_then(|_| scratch.render_pending(work, pending));
                if let Some(rendered) = rendered {
                    prepared.push(rendered);
                    continue;
                }
                let game = pending.clone().read();
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Games(games)
        }
        Unit::Wthor(context, entries) => {
            for entry in &entries {
                let game = match entry {
                    Entry::Quick(q) if work.takes_index(q.index()) == Some(false) => continue,
                    Entry::Quick(q) => {
                        let quick = work.takes_index(q.index()).is_some();
                        let plain = (quick && work.plain())
                            .then(|| scratch.render_wthor(work, &context, q));
                        if let Some(plain) = plain.flatten() {
                            prepared.push(plain);
                            continue;
                        }
                        context.read_quick(q)
                    }
                    Entry::Game(game) => (**game).clone(),
                };
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Wthor(entries)
        }
        Unit::Text(block) => {
            // Reading an output back, as above.
            let fingerprint_only = work.fingerprint_only && work.select.is_none();
            let nothing: Arc<str> = Arc::from("");
            for (k, at) in block.games.iter().enumerate() {
                let fingerprint = fingerprint_only
                    .then(|| scratch.fingerprint_text(&block, at))
                    .flatten();
                if let Some(fingerprint) = fingerprint {
                    let index = block.first + k;
                    prepared.push(Prepared::fingerprinted(index, fingerprint, &nothing));
                    continue;
                }
                let bytes = &block.bytes[at.range.clone()];
                let quick = match work.takes_index(block.first + k) {
                    Some(false) => continue,
                    Some(true) => true,
                    None => false,
                };
                let plain = (quick && work.plain())
                    .then(|| scratch.render_plain(work, &block, k, at))
                    .flatten();
                if let Some(plain) = plain {
                    prepared.push(plain);
                    continue;
                }
                let game = rgn::read_game(&block.name, block.first + k, block.rules, bytes, at);
                if work.takes(&game) {
                    prepared.push(ready(game, work));
                }
            }
            Spent::Text(block)
        }
    };
    (Done::Games(prepared), spent)
}

/// A game read, readied for the writer. Everything found in it is added to its
/// diagnostics. A game without an error gets its passes made explicit and its result
/// settled ([`settle_result`]); a game with an error is written as read, when it reads
/// back with the same errors. Its text is rendered when there is a renderer.
fn ready(game: ParsedGame, work: Work<'_>) -> Prepared {
    // Cleaned and capped as every reader's game is, then replayed: the diagnostics are
    // those `validate` gives.
    let mut game = capped(game);
    if let (Some(edits), Some(record)) = (work.edits, game.record.as_mut()) {
        edits.apply(record);
    }
    let Some(record) = game.record.as_mut() else {
        return Prepared {
            game,
            step: Step::Unreadable,
            derived_result: false,
            fingerprint: Fingerprint::of_unreadable(),
            file: None,
        };
    };
    let readied = ready_record(record, game.index, &game.diagnostics, work.target);
    let Readied {
        found,
        derived_result,
        refused: refusal,
    } = readied;
    game.diagnostics.extend(found);
    let fingerprint = fingerprint_for(record, &game.diagnostics, work.target);
    let file = work.split.map(|t| t.file_name(|name| record.tag(name)));
    let step = match (refusal, work.renderer) {
        (Some(why), _) => Step::Rendered(Err(why)),
        (None, None) => Step::Record,
        (None, Some(renderer)) => {
            let rendered = game.record.as_ref().map(|r| renderer.render(r));
            // Freed here, by the thread that built it, rather than by the writer's.
            game.record = None;
            rendered.map_or(Step::Unreadable, Step::Rendered)
        }
    };
    Prepared {
        game,
        step,
        derived_result,
        fingerprint,
        file,
    }
}

/// Why a game with errors (`found` among its diagnostics) cannot be written to `target`:
/// written alone and read back, it has other errors, or other placements. `None`: it
/// reads back the same, or the target refuses it for another reason anyway.
fn hidden_errors(record: &Record, found: &[Diagnostic], target: &Target) -> Option<WriteError> {
    let codes = |diagnostics: &[Diagnostic]| -> Vec<String> {
        diagnostics
            .iter()
            .filter(|d| d.is_error())
            .map(|d| d.code.name().to_owned())
            .collect()
    };
    let found = codes(found);
    let (bytes, _) = target
        .format
        .write_bytes(std::slice::from_ref(record), &target.write)
        .ok()?;
    let read = target.format.read_bytes(bytes, &target.read).ok();
    let written = match read.as_deref() {
        Some([again]) => {
            let same_moves = again.record.as_ref().is_some_and(|r| {
                let placed = |r: &Record| {
                    r.moves
                        .iter()
                        .filter(|m| m.mv != Move::Pass)
                        .map(|m| m.mv)
                        .collect::<Vec<_>>()
                };
                placed(r) == placed(record)
            });
            let written = codes(&validate_game(again, &[] as &[&str]));
            if same_moves && written == found {
                return None;
            }
            written
        }
        _ => vec!["a game that does not read back".to_owned()],
    };
    Some(WriteError::HidesErrors { found, written })
}

/// What readying a record for the writer found ([`Conversion::ready`](super::Conversion::ready)).
#[derive(Debug)]
pub struct Readied {
    /// The replay's findings.
    pub found: Vec<Diagnostic>,
    /// Whether its result was derived from the final board.
    pub derived_result: bool,
    /// Why the target refuses it: a game with errors that would not read back from the
    /// target with the same errors and moves.
    pub refused: Option<WriteError>,
}

/// Readies `record` (game `index`, read with the findings `read`) as every conversion
/// readies a game: replayed and, unless the replay or its reading found an error, the
/// passes it leaves implicit written out and its result settled from the final board; a
/// game with errors is refused by a `target` it would not read back from the same.
pub(super) fn ready_record(
    record: &mut Record,
    index: usize,
    read: &[Diagnostic],
    target: Option<&Target>,
) -> Readied {
    let report = validate_record(record, index);
    let has_errors = read
        .iter()
        .chain(&report.diagnostics)
        .any(Diagnostic::is_error);
    let mut derived_result = false;
    let mut refused = None;
    if !has_errors {
        insert_inferred_passes(record, &report);
        derived_result = settle_result(record, report.outcome.as_ref());
    } else if let Some(target) = target {
        let found: Vec<Diagnostic> = read.iter().chain(&report.diagnostics).cloned().collect();
        refused = hidden_errors(record, &found, target);
    }
    Readied {
        found: report.diagnostics,
        derived_result,
        refused,
    }
}

/// What `record` (read and replayed with `diagnostics`), written to `target`, must read back
/// as. A format that writes two disc counts as Black's margin
/// ([`Capabilities::disc_counts`]): a game with errors, whose result is not settled from the
/// board when read back, is compared by its margin.
///
/// [`Capabilities::disc_counts`]: crate::formats::capabilities::Capabilities::disc_counts
pub(super) fn fingerprint_for(
    record: &Record,
    diagnostics: &[Diagnostic],
    target: Option<&Target>,
) -> Fingerprint {
    let fingerprint = Fingerprint::of_record(record, diagnostics);
    match target {
        Some(t)
            if !Capabilities::of(t.format).disc_counts
                && diagnostics.iter().any(Diagnostic::is_error) =>
        {
            fingerprint.with_margin_result(record)
        }
        _ => fingerprint,
    }
}
