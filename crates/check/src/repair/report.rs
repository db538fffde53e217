//! One game's repair as every front end reports it: the command line's `repair --format
//! json`, the desk's repair search and Python's `repair` give this shape.

use serde::ser::{SerializeMap, SerializeSeq};
use serde::{Serialize, Serializer};

use crate::diagnostic::{Diagnostic, Located, Source};
use crate::formats::ParsedGame;
use crate::record::Identity;

use super::{Edit, Repair, Status};

/// What repairing one game found, as plain data: its status, the edits (each with its
/// text), the alternatives of an ambiguous game, the finding that says it all, and, unless
/// repaired, the findings of the game as written.
///
/// ```
/// use reversi_check::repair::{repair_game, RepairOptions, RepairReport};
/// use reversi_formats::{Format, ReadOptions};
/// let game = Format::MoveString.read(Box::new(&b"f5c3d6d3c4\n"[..]), &ReadOptions::default()).next().unwrap()?;
/// let repair = repair_game(&game, Format::MoveString, &ReadOptions::default(), &RepairOptions::default());
/// let json = serde_json::to_value(RepairReport::new(&game, &repair))?;
/// assert_eq!(json["status"], "repaired");
/// assert_eq!(json["edits"][0]["text"], "swapped moves 2 (c3) and 3 (d6)");
/// assert_eq!(json["finding"]["code"], "repaired");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug)]
pub struct RepairReport<'a> {
    /// The game's input.
    pub file: &'a str,
    /// Its number there, from 1.
    pub game: usize,
    /// Who played it, where and when (as its tags say).
    pub identity: Option<Identity>,
    /// What the repair found.
    pub status: Status,
    /// The edits of a repair (found, not applied, for a wrong result).
    pub edits: &'a [Edit],
    /// The repairs that tie, for an ambiguous game.
    pub alternatives: &'a [Vec<Edit>],
    /// The alternative picked by hand (1-based), when one was.
    pub picked: Option<usize>,
    /// Why an unrepairable game was not searched, when it was not.
    pub not_searched: Option<&'a str>,
    /// The finding that says what became of the game ([`Repair::report`]); `None` for a
    /// valid game.
    pub finding: Option<Diagnostic>,
    /// The findings of the game as written (none for a game repaired).
    pub diagnostics: &'a [Diagnostic],
    source: &'a Source,
}

impl<'a> RepairReport<'a> {
    /// The report of `repair`, found for `game`.
    pub fn new(game: &'a ParsedGame, repair: &'a Repair) -> RepairReport<'a> {
        RepairReport {
            file: &game.source.name,
            game: game.index,
            identity: game.identity(),
            status: repair.status,
            edits: &repair.edits,
            alternatives: &repair.alternatives,
            picked: repair.picked,
            not_searched: repair.not_searched.as_deref(),
            finding: repair.report(game.index),
            diagnostics: match repair.status {
                Status::Repaired => &[],
                _ => &repair.diagnostics,
            },
            source: &game.source,
        }
    }

    fn located<'d>(&self, diagnostic: &'d Diagnostic) -> Located<'d>
    where
        'a: 'd,
    {
        Located {
            diagnostic,
            file: Some(self.file),
            line_column: diagnostic
                .span
                .map(|span| self.source.line_column(span.offset)),
        }
    }
}

/// An edit in JSON: its text, then its fields.
struct EditJson<'e>(&'e Edit);

impl Serialize for EditJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("text", &self.0.to_string())?;
        map.serialize_entry("kind", &self.0.kind)?;
        if self.0.move_number != 0 {
            map.serialize_entry("move", &self.0.move_number)?;
        }
        if let Some(other) = self.0.other {
            map.serialize_entry("other", &other)?;
        }
        if let Some(square) = &self.0.square {
            map.serialize_entry("square", square)?;
        }
        map.serialize_entry("written", &self.0.written)?;
        map.serialize_entry("now", &self.0.now)?;
        if let Some(fault) = &self.0.fault {
            map.serialize_entry("fault", fault)?;
        }
        map.end()
    }
}

/// A list of edits in JSON.
struct EditsJson<'e>(&'e [Edit]);

impl Serialize for EditsJson<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut seq = serializer.serialize_seq(Some(self.0.len()))?;
        for edit in self.0 {
            seq.serialize_element(&EditJson(edit))?;
        }
        seq.end()
    }
}

impl Serialize for RepairReport<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("file", self.file)?;
        map.serialize_entry("game", &self.game)?;
        map.serialize_entry("identity", &self.identity)?;
        map.serialize_entry("status", self.status.name())?;
        map.serialize_entry("edits", &EditsJson(self.edits))?;
        let alternatives: Vec<EditsJson<'_>> =
            self.alternatives.iter().map(|a| EditsJson(a)).collect();
        map.serialize_entry("alternatives", &alternatives)?;
        map.serialize_entry("picked", &self.picked)?;
        map.serialize_entry("not_searched", &self.not_searched)?;
        map.serialize_entry("finding", &self.finding.as_ref().map(|d| self.located(d)))?;
        let diagnostics: Vec<Located<'_>> =
            self.diagnostics.iter().map(|d| self.located(d)).collect();
        map.serialize_entry("diagnostics", &diagnostics)?;
        map.end()
    }
}
