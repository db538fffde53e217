//! The desk's state: the files loaded, their games and what was done to them. Every
//! operation is a library call (reading, validation, repair, rendering, writing,
//! standings); this module keeps the results and turns them into JSON.
//!
//! Here: the served folders ([`Root`]) and the desk's core (files opened, listed, closed,
//! a game shown, undo and redo). Beside it: [`files`] (a loaded file's games, history and
//! reading), [`edits`] (repairs, tags, names through the register), [`write`] (export
//! and save) and [`event`] (the event view and the standings). The children share this
//! module's imports (`use super::*`).

mod edits;
mod event;
mod files;
mod write;

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use reversi_check::event::Event;
use reversi_check::event::{Register, Schedule, StandingsRequest};
use reversi_check::repair::{repair_game, Repair, RepairOptions, RepairReport, Status};
use reversi_check::validate::{validate_game, validate_game_quick};
use reversi_formats::diagnostic::{Diagnostic, Renderer};
use reversi_formats::output::AtomicFile;
use reversi_formats::record::{Record, Tag, TagName};
use reversi_formats::render::Walk;
use reversi_formats::{Format, ParsedGame, PgnDialect, ReadOptions, WriteError, WriteOptions};
use reversi_runs::pipeline::conversion::Conversion;
use reversi_runs::run;
use serde::Serialize;
use serde_json::{json, Value};

use edits::*;
use files::*;
use write::*;

pub(crate) use edits::search_repair;
pub(crate) use event::{event_files, EventFiles};
pub(crate) use files::{give_back_freed_memory, load_served, load_upload, Loaded, MAX_SERVED};

/// An error answer: the HTTP status and a sentence.
#[derive(Debug)]
pub(crate) struct Refusal {
    pub(crate) status: u16,
    pub(crate) message: String,
}

impl Refusal {
    pub(crate) fn new(status: u16, message: impl Into<String>) -> Refusal {
        Refusal {
            status,
            message: message.into(),
        }
    }
}

fn bad(message: impl Into<String>) -> Refusal {
    Refusal::new(400, message)
}

fn not_found(message: impl Into<String>) -> Refusal {
    Refusal::new(404, message)
}

fn io_refusal(e: io::Error) -> Refusal {
    let status = match e.kind() {
        io::ErrorKind::NotFound => 404,
        io::ErrorKind::PermissionDenied => 403,
        io::ErrorKind::InvalidData | io::ErrorKind::InvalidInput => 422,
        _ => 500,
    };
    Refusal::new(status, e.to_string())
}

/// A folder (or a single file) the desk serves: files may be opened and written only
/// inside it.
#[derive(Clone, Debug)]
pub(crate) struct Root {
    /// The folder, canonical.
    pub(crate) dir: PathBuf,
    /// For a file given on the command line: that file alone (canonical).
    pub(crate) only: Option<PathBuf>,
    /// As given, for the page.
    pub(crate) shown: String,
}

impl Root {
    /// The root for `path` as given on the command line.
    pub(crate) fn new(path: &Path) -> io::Result<Root> {
        let canonical = path.canonicalize().map_err(|e| {
            io::Error::new(e.kind(), format!("{}: cannot serve: {e}", path.display()))
        })?;
        let shown = path.display().to_string();
        if canonical.is_dir() {
            return Ok(Root {
                dir: canonical,
                only: None,
                shown,
            });
        }
        let dir = canonical
            .parent()
            .map(Path::to_path_buf)
            .unwrap_or_else(|| PathBuf::from("/"));
        Ok(Root {
            dir,
            only: Some(canonical),
            shown,
        })
    }

    /// The file `rel` names in this root: a relative path of plain names (no `..`, no
    /// root), which must exist and, with its links followed, stay inside the root.
    pub(crate) fn confine(&self, rel: &str) -> Result<PathBuf, Refusal> {
        if rel.is_empty() || rel.contains('\0') {
            return Err(bad("expected a path relative to the served folder"));
        }
        let path = Path::new(rel);
        if !path
            .components()
            .all(|c| matches!(c, Component::Normal(_) | Component::CurDir))
        {
            return Err(Refusal::new(
                403,
                format!("{rel}: only paths inside the served folder are served (no `..`, no absolute paths)"),
            ));
        }
        let canonical = self
            .dir
            .join(path)
            .canonicalize()
            .map_err(|e| match e.kind() {
                io::ErrorKind::NotFound => {
                    not_found(format!("{rel}: no such file in the served folder"))
                }
                io::ErrorKind::PermissionDenied => {
                    Refusal::new(403, format!("{rel}: not readable ({e})"))
                }
                // A file named as a folder (`round-1.rgn/`), a loop of links, ...: the path's
                // fault, not the server's.
                _ => bad(format!("{rel}: not a file in the served folder ({e})")),
            })?;
        if !canonical.starts_with(&self.dir) {
            return Err(Refusal::new(
                403,
                format!("{rel}: leads outside the served folder"),
            ));
        }
        if let Some(only) = &self.only {
            if &canonical != only {
                return Err(Refusal::new(403, format!("{rel}: not a served file")));
            }
        }
        if !canonical.is_file() {
            return Err(bad(format!("{rel}: not a file")));
        }
        Ok(canonical)
    }

    /// The record files of this root, as paths relative to it (links leading out left
    /// out), with their sizes.
    fn listing(&self) -> Vec<(String, u64)> {
        let found = match &self.only {
            Some(file) => vec![file.clone()],
            None => run::walk(std::slice::from_ref(&self.dir))
                .map(|walked| walked.inputs)
                .unwrap_or_default(),
        };
        let mut out = Vec::new();
        for path in found {
            let Ok(canonical) = path.canonicalize() else {
                continue;
            };
            if !canonical.starts_with(&self.dir) || !canonical.is_file() {
                continue;
            }
            let Ok(rel) = path.strip_prefix(&self.dir) else {
                continue;
            };
            let size = fs::metadata(&canonical).map(|m| m.len()).unwrap_or(0);
            out.push((rel.to_string_lossy().into_owned(), size));
        }
        out
    }
}

/// Everything the desk holds.
pub(crate) struct Desk {
    pub(crate) roots: Vec<Root>,
    /// The files loaded, by id; a file closed leaves its place empty (ids are never reused,
    /// so a page still showing a closed file gets a 404, never another file).
    files: Vec<Option<Loaded>>,
}

impl Desk {
    pub(crate) fn new(roots: Vec<Root>) -> Desk {
        Desk {
            roots,
            files: Vec::new(),
        }
    }

    fn file(&mut self, id: usize) -> Result<&mut Loaded, Refusal> {
        self.files
            .get_mut(id)
            .and_then(Option::as_mut)
            .ok_or_else(|| not_found(format!("no file {id} is loaded")))
    }

    /// The files loaded, with their ids.
    fn loaded(&self) -> impl Iterator<Item = (usize, &Loaded)> {
        self.files
            .iter()
            .enumerate()
            .filter_map(|(i, f)| f.as_ref().map(|f| (i, f)))
    }

    /// The summary of the loaded file read from `path` of served folder `root`, if any:
    /// opening a file again is that file, with its edits.
    pub(crate) fn loaded_from(&self, root: usize, path: &Path) -> Option<Value> {
        self.loaded()
            .find(|(_, f)| {
                f.origin
                    .as_ref()
                    .is_some_and(|(r, p)| *r == root && p == path)
            })
            .map(|(id, f)| self.already(id, f))
    }

    fn already(&self, id: usize, file: &Loaded) -> Value {
        let mut summary = file.summary(id, &self.roots);
        summary["already"] = json!(true);
        summary
    }

    /// Closes file `id`: the desk lets go of it. A file with edits written nowhere is kept
    /// unless `discard` says to drop them.
    pub(crate) fn close(&mut self, id: usize, discard: bool) -> Result<Value, Refusal> {
        let file = self.file(id)?;
        if file.changed() && !discard {
            return Err(Refusal::new(
                409,
                format!(
                    "{} has edits written nowhere: save or download it first, or close it discarding them",
                    file.name
                ),
            ));
        }
        let name = file.name.to_string();
        if let Some(slot) = self.files.get_mut(id) {
            *slot = None;
        }
        Ok(json!({ "closed": id, "name": name }))
    }

    /// Undoes the last edit of file `id` (`back`), or redoes the last undone: the file's
    /// summary and the game changed, as [`Desk::game`] gives it.
    pub(crate) fn travel(
        &mut self,
        id: usize,
        back: bool,
        seen: Option<u64>,
    ) -> Result<Value, Refusal> {
        let n = self.file(id)?.travel(back, seen)?;
        let game = self.game(id, n)?;
        let summary = self
            .loaded()
            .find(|(i, _)| *i == id)
            .map(|(_, f)| f.summary(id, &self.roots));
        Ok(json!({ "file": summary, "game": game }))
    }

    pub(crate) fn info(&self, token_free: Value) -> Value {
        let roots: Vec<Value> = self
            .roots
            .iter()
            .enumerate()
            .map(|(i, r)| json!({"root": i, "name": r.shown}))
            .collect();
        json!({
            "version": env!("CARGO_PKG_VERSION"),
            "roots": roots,
            "formats": writable(),
            "limits": token_free,
        })
    }

    /// The served roots (for listing them outside the lock: [`folder`]).
    pub(crate) fn roots(&self) -> &[Root] {
        &self.roots
    }

    pub(crate) fn files(&self) -> Value {
        let files: Vec<Value> = self
            .loaded()
            .map(|(i, f)| f.summary(i, &self.roots))
            .collect();
        json!({ "files": files })
    }

    /// Resolves a file of the served folder (for reading it outside the lock): its
    /// canonical path and the name it is shown by.
    pub(crate) fn resolve(&self, root: usize, rel: &str) -> Result<(PathBuf, String), Refusal> {
        let served = self
            .roots
            .get(root)
            .ok_or_else(|| not_found(format!("no served folder {root}")))?;
        let path = served.confine(rel)?;
        let shown = match &served.only {
            Some(_) => served.shown.clone(),
            None => Path::new(&served.shown).join(rel).display().to_string(),
        };
        Ok((path, shown))
    }

    /// Adds a loaded file; its summary. A file already loaded (the same file of the served
    /// folder, or the same bytes uploaded under the same name) is not added again: the
    /// summary is the loaded one's, with `already`.
    pub(crate) fn add(&mut self, loaded: Loaded) -> Value {
        let same = self
            .loaded()
            .find(|(_, f)| match (&loaded.origin, &f.origin) {
                (Some(a), Some(b)) => a == b,
                (None, None) => loaded.upload_hash == f.upload_hash && loaded.name == f.name,
                _ => false,
            });
        if let Some((id, f)) = same {
            return self.already(id, f);
        }
        let id = self.files.len();
        let summary = loaded.summary(id, &self.roots);
        self.files.push(Some(loaded));
        summary
    }

    pub(crate) fn games(
        &mut self,
        id: usize,
        status: Option<&str>,
        player: Option<&str>,
        offset: usize,
        limit: usize,
    ) -> Result<Value, Refusal> {
        // A player searched for: their name's text anywhere in Black or White, case
        // ignored (as typed at the desk, not a name matched through the register).
        let player = player
            .map(|p| p.trim().to_lowercase())
            .filter(|p| !p.is_empty());
        let plays = |g: &DeskGame| {
            let Some(wanted) = &player else {
                return true;
            };
            let identity = g.held.identity().unwrap_or_default();
            [identity.black, identity.white]
                .iter()
                .flatten()
                .any(|name| name.to_lowercase().contains(wanted.as_str()))
        };
        let wanted = match status {
            None | Some("") | Some("all") => None,
            Some(s) => Some(GameStatus::parse(s).ok_or_else(|| {
                bad(format!(
                    "unknown status `{s}`: valid, warnings, errors, repaired or all"
                ))
            })?),
        };
        let file = self.file(id)?;
        let matching: Vec<&DeskGame> = file
            .games
            .iter()
            .filter(|g| wanted.map_or(true, |w| g.status == w) && plays(g))
            .collect();
        let rows: Vec<Value> = matching
            .iter()
            .skip(offset)
            .take(limit.min(1000))
            .map(|g| g.row())
            .collect();
        Ok(json!({
            "total": file.games.len(),
            "matched": matching.len(),
            "offset": offset,
            "counts": file.counts(),
            "games": rows,
        }))
    }

    /// A game opened: tags, moves, every position, the diagnostics as the command line
    /// prints them.
    pub(crate) fn game(&mut self, id: usize, n: usize) -> Result<Value, Refusal> {
        let file = self.file(id)?;
        let name = file.name.clone();
        let revision = file.revision;
        let game = file.game(n)?;
        let whole = game.parsed().into_owned();
        if game.full.is_none() {
            game.full = Some(validate_game(&whole, &[] as &[&str]));
        }
        let full = game.full.as_deref().unwrap_or_default();
        let mut renderer = Renderer::plain();
        // The library's one shape of a diagnostic (as `validate --format json` and Python's
        // `validate` give it), with the text the page shows for people.
        let diagnostics: Vec<Value> = full
            .iter()
            .map(|d| {
                let mut shown = serde_json::to_value(renderer.locate(d, &whole.source))
                    .unwrap_or_else(|e| json!({ "code": d.code.name(), "message": e.to_string() }));
                shown["text"] = Value::String(renderer.render(d, &whole.source));
                shown
            })
            .collect();
        let faulty = game.findings.faulty;
        let record = whole.record.as_ref();
        let walk = match record.map(Walk::of) {
            Some(Ok(walk)) => Some(walk),
            _ => None,
        };
        let tags: Vec<(String, String)> = record
            .map(|r| {
                r.tags
                    .iter()
                    .map(|t| (t.name.clone(), t.value.clone()))
                    .collect()
            })
            .unwrap_or_default();
        Ok(json!({
            "file": &*name,
            "index": whole.index,
            "identity": whole.identity(),
            "status": game.status,
            "tags": tags,
            "result": record.and_then(|r| r.result.as_ref()),
            "diagnostics": diagnostics,
            "faulty": faulty,
            "walk": walk,
            "changes": game.changes,
            // The file's revision as this answer shows it: sent back with an edit, to tell a
            // change made elsewhere since.
            "revision": revision,
        }))
    }
}

/// The record files of the served `roots`, each with its root and size: a walk of the
/// folders, done outside the desk's lock so that a large folder or a slow disk does not
/// hold up the other requests.
pub(crate) fn folder(roots: &[Root]) -> Value {
    let mut files = Vec::new();
    for (i, root) in roots.iter().enumerate() {
        for (path, size) in root.listing() {
            files.push(json!({"root": i, "path": path, "size": size}));
        }
    }
    json!({ "files": files })
}
