//! What a worker is given ([`Work`]) and hands back ([`Done`], [`Prepared`], [`Step`]).

use std::collections::HashSet;
use std::io;
use std::sync::Arc;

use super::{Fingerprint, OutputTemplate, Target};
use crate::diagnostic::Source;
use crate::formats::{ParsedGame, Rendered, Renderer, WriteError};
use crate::pipeline::blocks;
use crate::record::{GameSelector, TagEdits};

/// A block prepared by a worker.
pub(super) enum Done<T> {
    Start(T, bool),
    Games(Vec<Prepared>),
    Failed(io::Error),
    /// Reported: what the caller needed was taken out.
    Reported,
}

/// A game read, and what the worker made of it for the writer.
pub(super) struct Prepared {
    pub(super) game: ParsedGame,
    pub(super) step: Step,
    pub(super) derived_result: bool,
    pub(super) fingerprint: Fingerprint,
    /// Its file, in a split conversion.
    pub(super) file: Option<String>,
}

impl Prepared {
    /// Game `index` of an output read back, that the quick check passed: only its
    /// fingerprint counts, its text (`nothing`) is not kept.
    pub(super) fn fingerprinted(
        index: usize,
        fingerprint: Fingerprint,
        nothing: &Arc<str>,
    ) -> Prepared {
        let source = Source {
            name: nothing.clone(),
            text: nothing.clone(),
            offset: 0,
            line: 0,
        };
        Prepared {
            game: ParsedGame {
                index,
                source,
                record: None,
                diagnostics: Vec::new(),
            },
            step: Step::Record,
            derived_result: false,
            fingerprint,
            file: None,
        }
    }
}

/// What a worker works with.
#[derive(Clone, Copy)]
pub(super) struct Work<'w> {
    /// The writer's renderer, for a text target.
    pub(super) renderer: Option<&'w Renderer>,
    /// The target, to read games with errors back.
    pub(super) target: Option<&'w Target>,
    /// Names each game's file, in a split conversion.
    pub(super) split: Option<&'w OutputTemplate>,
    /// Takes only these games.
    pub(super) select: Option<&'w GameSelector>,
    /// Leaves out these games (numbers from 1).
    pub(super) skip: Option<&'w HashSet<usize>>,
    /// Edits every game's tags (every game is then read in full).
    pub(super) edits: Option<&'w TagEdits>,
    /// Games are only fingerprinted, never written (reading an output back).
    pub(super) fingerprint_only: bool,
}

impl Work<'_> {
    /// Whether games may be readied without their records.
    pub(super) fn plain(&self) -> bool {
        (self.renderer.is_some() || self.fingerprint_only) && self.edits.is_none()
    }

    /// Whether game `index` may be taken without reading its tags (no selector, or one by
    /// number that takes it); `None`: the tags decide.
    pub(super) fn takes_index(&self, index: usize) -> Option<bool> {
        if self.skip.is_some_and(|s| s.contains(&index)) {
            return Some(false);
        }
        blocks::taken_by_number(self.select, index)
    }

    /// Whether `game`, read in full, is taken (an entry about the input itself always is).
    pub(super) fn takes(&self, game: &ParsedGame) -> bool {
        !self.skip.is_some_and(|s| s.contains(&game.index))
            && blocks::taken_in_full(self.select, game)
    }
}

/// What is left for the writer to do with a game.
pub(super) enum Step {
    /// Write this text (or report why the target refused it).
    Rendered(Result<Rendered, WriteError>),
    /// Write the game's record (its passes made explicit).
    Record,
    /// Nothing: the game could not be read.
    Unreadable,
}
