//! The desk's state: the files loaded, their games and what was done to them. Every
//! operation is a library call (reading, validation, repair, rendering, writing,
//! standings); this module keeps the results and turns them into JSON.

use std::fs;
use std::io::{self, Write};
use std::path::{Component, Path, PathBuf};
use std::sync::Arc;

use rayon::prelude::*;
use reversi_check::event::Event;
use reversi_check::event::{Register, Schedule, StandingsRequest};
use reversi_check::repair::{repair_game, Repair, RepairOptions, Status};
use reversi_check::validate::{validate_game, validate_game_quick};
use reversi_formats::diagnostic::{Diagnostic, Renderer};
use reversi_formats::output::AtomicFile;
use reversi_formats::record::{Record, Tag, TagName};
use reversi_formats::render::Walk;
use reversi_formats::{Format, ParsedGame, PgnDialect, ReadOptions, WriteOptions};
use reversi_runs::run;
use serde::Serialize;
use serde_json::{json, Value};

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

/// What a game is, for the list's filter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub(crate) enum GameStatus {
    /// No finding at all.
    Valid,
    /// Warnings (an unfinished game, ...), no error.
    Warnings,
    /// At least one error.
    Errors,
    /// Changed on the desk (a repair accepted, tags edited) and now without error.
    Repaired,
}

impl GameStatus {
    fn parse(text: &str) -> Option<GameStatus> {
        Some(match text {
            "valid" => GameStatus::Valid,
            "warnings" => GameStatus::Warnings,
            "errors" => GameStatus::Errors,
            "repaired" => GameStatus::Repaired,
            _ => return None,
        })
    }
}

/// One game on the desk.
#[derive(Clone)]
struct DeskGame {
    /// The game as read, without its moves when they are held in `moves`: use
    /// [`DeskGame::parsed`] for the whole game.
    held: ParsedGame,
    /// The moves, when each is only a square (or a pass), a colour and a span: 16 bytes a
    /// move instead of the record's 160.
    moves: Option<Box<[PlainMove]>>,
    /// The findings without the suggestions (one replay), counted: what the list needs.
    findings: Findings,
    /// The findings with their suggestions, as `reversi validate` prints them: worked out
    /// when the game is opened.
    full: Option<Vec<Diagnostic>>,
    status: GameStatus,
    /// The edits accepted on the desk, as sentences.
    changes: Vec<String>,
    /// The last repair search, for accepting one of its candidates.
    repair: Option<Box<Repair>>,
    /// The file's revision when the game last changed (0: as read).
    revision: u64,
}

impl DeskGame {
    fn new(parsed: ParsedGame, changes: Vec<String>) -> DeskGame {
        let findings = Findings::of(&validate_game_quick(&parsed, &[] as &[&str]));
        let errors = findings.errors > 0 || parsed.record.is_none();
        let (held, moves) = PlainMove::hold(parsed);
        let status = if errors {
            GameStatus::Errors
        } else if !changes.is_empty() {
            GameStatus::Repaired
        } else if findings.warnings == 0 {
            GameStatus::Valid
        } else {
            GameStatus::Warnings
        };
        DeskGame {
            held,
            moves,
            findings,
            full: None,
            status,
            changes,
            repair: None,
            revision: 0,
        }
    }

    /// The game whole, its moves put back when they are held apart.
    fn parsed(&self) -> std::borrow::Cow<'_, ParsedGame> {
        match (&self.moves, &self.held.record) {
            (Some(moves), Some(_)) => {
                let mut game = self.held.clone();
                if let Some(record) = &mut game.record {
                    record.moves = moves.iter().copied().map(PlainMove::to_record).collect();
                }
                std::borrow::Cow::Owned(game)
            }
            _ => std::borrow::Cow::Borrowed(&self.held),
        }
    }

    /// Refuses an edit made by a page that saw the game at file revision `seen`, when the
    /// game has changed since (an edit or an undo in another tab): the page would otherwise
    /// write over a change it never showed.
    fn unchanged_since(&self, seen: Option<u64>) -> Result<(), Refusal> {
        match seen {
            Some(seen) if self.revision > seen => Err(Refusal::new(
                409,
                format!(
                    "game {} was changed elsewhere (another tab?) since this page showed it: reload the game to see that change, then edit again",
                    self.held.index
                ),
            )),
            _ => Ok(()),
        }
    }

    fn row(&self) -> Value {
        let identity = self.held.identity().unwrap_or_default();
        json!({
            "index": self.held.index,
            "black": identity.black,
            "white": identity.white,
            "round": identity.round,
            "board": identity.board,
            "status": self.status,
            "errors": self.findings.errors,
            "warnings": self.findings.warnings,
            "first": self.findings.first_error,
        })
    }
}

/// A move that is only a square (or a pass), the colour the record gives and its token's
/// span: how the desk holds the moves of most games.
#[derive(Clone, Copy, Debug)]
struct PlainMove {
    mv: reversi_engine::Move,
    color: Option<reversi_engine::Color>,
    /// The span's offset and length.
    span: Option<(u32, u32)>,
}

impl PlainMove {
    /// The game with its moves taken out as plain moves, when every one of them is plain
    /// (no flips, evaluation, time or comment; a span that fits); as it is otherwise.
    fn hold(mut game: ParsedGame) -> (ParsedGame, Option<Box<[PlainMove]>>) {
        let Some(record) = &mut game.record else {
            return (game, None);
        };
        let plain: Option<Box<[PlainMove]>> = record.moves.iter().map(PlainMove::of).collect();
        if plain.is_some() {
            record.moves = Vec::new();
        }
        (game, plain)
    }

    fn of(m: &reversi_formats::record::MoveRecord) -> Option<PlainMove> {
        let extra =
            m.flips.is_some() || m.eval.is_some() || m.time.is_some() || m.comment.is_some();
        let span = match m.span {
            None => None,
            Some(s) => Some((u32::try_from(s.offset).ok()?, u32::try_from(s.len).ok()?)),
        };
        (!extra).then_some(PlainMove {
            mv: m.mv,
            color: m.color,
            span,
        })
    }

    fn to_record(self) -> reversi_formats::record::MoveRecord {
        let mut m = reversi_formats::record::MoveRecord::new(self.mv);
        m.color = self.color;
        m.span = self
            .span
            .map(|(offset, len)| reversi_formats::record::Span {
                offset: offset as usize,
                len: len as usize,
            });
        m
    }
}

/// A game's findings as the list shows them: counts and the first error, not the
/// diagnostics themselves (a few hundred bytes each; the game opened works them out again).
#[derive(Clone, Debug, Default)]
struct Findings {
    errors: u32,
    warnings: u32,
    /// The first error's message.
    first_error: Option<Box<str>>,
    /// The move of the first error, when it names one.
    faulty: Option<usize>,
}

impl Findings {
    fn of(diagnostics: &[Diagnostic]) -> Findings {
        let errors = || diagnostics.iter().filter(|d| d.is_error());
        let count = |n: usize| u32::try_from(n).unwrap_or(u32::MAX);
        Findings {
            errors: count(errors().count()),
            warnings: count(diagnostics.len() - errors().count()),
            first_error: errors().next().map(|d| d.message.as_str().into()),
            faulty: errors().next().and_then(|d| d.move_number),
        }
    }
}

/// One edit in a file's history: the games it changed as they were on the other side of
/// it (before it, on the undo list; after it, on the redo list). One game, or the games of
/// a selection edited at once.
struct Step {
    games: Vec<Kept>,
    /// The edit, in words (`repair accepted`, `tags edited`, `Round=4 set`).
    what: String,
}

impl Step {
    fn summary(&self) -> Value {
        json!({
            "game": self.games.first().map(|k| k.n),
            "games": self.games.len(),
            "what": self.what,
        })
    }
}

/// A game as it was, in a file's history: as the desk held it (its moves apart, its
/// findings worked out).
struct Kept {
    /// The game's number.
    n: usize,
    game: DeskGame,
}

/// A file loaded on the desk.
pub(crate) struct Loaded {
    name: Arc<str>,
    format: Format,
    note: String,
    /// For a file of the served folder: its root and canonical path.
    origin: Option<(usize, PathBuf)>,
    /// For a file of the served folder: the hash of the bytes read, to tell at a save
    /// whether the file on disk is still the one read.
    read_hash: Option<u64>,
    /// For an uploaded file: the hash of its bytes, to tell the same file sent again.
    upload_hash: Option<u64>,
    games: Vec<DeskGame>,
    /// Entries about the file itself (index 0), rendered.
    file_problems: Vec<String>,
    /// The edits that can be undone, the last one last.
    undo: Vec<Step>,
    /// The edits undone, which can be redone, the last undone last.
    redo: Vec<Step>,
    /// How many edits the undo list held when the file was read or last written (the state
    /// then is the one on disk); none when that state can no longer be reached by undoing
    /// and redoing.
    clean: Option<usize>,
    /// Counts the changes to the games (edits, undos, redos): what a page saw, to tell a
    /// change made elsewhere since.
    revision: u64,
}

impl Loaded {
    /// Reads the games of `games` and validates them on all cores, a block at a time: what
    /// is held is the games kept, not every game read as well.
    fn read(
        name: Arc<str>,
        format: Format,
        note: String,
        origin: Option<(usize, PathBuf)>,
        mut games: reversi_formats::Games<'_>,
    ) -> Result<Loaded, Refusal> {
        const BLOCK: usize = 1024;
        let mut renderer = Renderer::plain();
        let mut file_problems = Vec::new();
        let mut kept: Vec<DeskGame> = Vec::new();
        let mut block: Vec<ParsedGame> = Vec::with_capacity(BLOCK);
        loop {
            let next = games
                .next()
                .transpose()
                .map_err(|e| Refusal::new(422, format!("{name}: reading failed: {e}")))?;
            let end = next.is_none();
            match next {
                // An entry about the file itself, not a game.
                Some(g) if g.index == 0 => file_problems
                    .extend(g.diagnostics.iter().map(|d| renderer.render(d, &g.source))),
                Some(g) => block.push(g),
                None => {}
            }
            if block.len() == BLOCK || (end && !block.is_empty()) {
                let validated: Vec<DeskGame> = std::mem::take(&mut block)
                    .into_par_iter()
                    .map(|g| DeskGame::new(g, Vec::new()))
                    .collect();
                kept.extend(validated);
            }
            if end {
                break;
            }
        }
        kept.shrink_to_fit();
        Ok(Loaded {
            name,
            format,
            note,
            origin,
            read_hash: None,
            upload_hash: None,
            games: kept,
            file_problems,
            undo: Vec::new(),
            redo: Vec::new(),
            clean: Some(0),
            revision: 0,
        })
    }

    fn counts(&self) -> Value {
        let count = |s: GameStatus| self.games.iter().filter(|g| g.status == s).count();
        json!({
            "valid": count(GameStatus::Valid),
            "warnings": count(GameStatus::Warnings),
            "errors": count(GameStatus::Errors),
            "repaired": count(GameStatus::Repaired),
        })
    }

    fn summary(&self, id: usize, roots: &[Root]) -> Value {
        let served = self.origin.as_ref().and_then(|(root, path)| {
            let dir = &roots.get(*root)?.dir;
            Some(path.strip_prefix(dir).ok()?.to_string_lossy().into_owned())
        });
        json!({
            "id": id,
            "name": &*self.name,
            "format": self.format.name(),
            "note": self.note,
            "games": self.games.len(),
            "counts": self.counts(),
            "served": served,
            "problems": self.file_problems,
            "changed": self.changed(),
            "revision": self.revision,
            "undo": self.undo.last().map(Step::summary),
            "redo": self.redo.last().map(Step::summary),
        })
    }

    /// Whether the file holds edits written nowhere.
    fn changed(&self) -> bool {
        self.clean != Some(self.undo.len())
    }

    /// Game `n` replaced by `game`, the edit `what` kept in the history (and what was undone
    /// no longer redoable).
    fn edit(&mut self, n: usize, game: DeskGame, what: &str) -> Result<(), Refusal> {
        self.edit_all(vec![(n, game)], what)
    }

    /// Games replaced, each `(n, game)`, as one edit `what` of the history.
    fn edit_all(&mut self, edited: Vec<(usize, DeskGame)>, what: &str) -> Result<(), Refusal> {
        // Every game named exists before any is replaced.
        for (n, _) in &edited {
            self.game(*n)?;
        }
        let revision = self.revision + 1;
        let mut before = Step {
            games: Vec::with_capacity(edited.len()),
            what: what.to_string(),
        };
        for (n, mut game) in edited {
            let slot = self.game(n)?;
            game.revision = revision;
            let was = std::mem::replace(slot, game);
            before.games.push(Kept { n, game: was });
        }
        self.revision = revision;
        if self.clean.is_some_and(|c| c > self.undo.len()) {
            // The state on disk was among the edits undone, now dropped.
            self.clean = None;
        }
        self.undo.push(before);
        self.redo.clear();
        Ok(())
    }

    /// Undoes the last edit (`back`) or redoes the last undone: the game it concerns.
    fn travel(&mut self, back: bool, seen: Option<u64>) -> Result<usize, Refusal> {
        if seen.is_some_and(|seen| seen != self.revision) {
            return Err(Refusal::new(
                409,
                "the file was changed elsewhere (another tab?) since this page showed it: reload the page to see the change before undoing or redoing",
            ));
        }
        let revision = self.revision + 1;
        let (from, to) = if back {
            (&mut self.undo, &mut self.redo)
        } else {
            (&mut self.redo, &mut self.undo)
        };
        let Some(step) = from.pop() else {
            return Err(Refusal::new(
                409,
                if back {
                    "nothing to undo"
                } else {
                    "nothing to redo"
                },
            ));
        };
        let first = step.games.first().map(|k| k.n).unwrap_or(1);
        let mut other = Step {
            games: Vec::with_capacity(step.games.len()),
            what: step.what,
        };
        // The games of a step are those of the file (numbers never change): each is there.
        for kept in step.games {
            if let Some(slot) = kept.n.checked_sub(1).and_then(|i| self.games.get_mut(i)) {
                let was = std::mem::replace(slot, kept.game);
                other.games.push(Kept {
                    n: kept.n,
                    game: was,
                });
                slot.revision = revision;
            }
        }
        to.push(other);
        self.revision = revision;
        Ok(first)
    }

    fn game(&mut self, n: usize) -> Result<&mut DeskGame, Refusal> {
        let count = self.games.len();
        n.checked_sub(1)
            .and_then(|i| self.games.get_mut(i))
            .ok_or_else(|| not_found(format!("no game {n}: the file has {count}")))
    }

    /// The records to write, each with its game number (unreadable games have none),
    /// whole: a game's moves held apart are put back (for as long as the write takes).
    fn records(&self) -> Vec<(usize, std::borrow::Cow<'_, Record>)> {
        self.games
            .iter()
            .filter_map(|g| {
                let record = match g.parsed() {
                    std::borrow::Cow::Borrowed(p) => std::borrow::Cow::Borrowed(p.record.as_ref()?),
                    std::borrow::Cow::Owned(p) => std::borrow::Cow::Owned(p.record?),
                };
                Some((g.held.index, record))
            })
            .collect()
    }
}

/// Everything the desk holds.
pub(crate) struct Desk {
    pub(crate) roots: Vec<Root>,
    /// The files loaded, by id; a file closed leaves its place empty (ids are never reused,
    /// so a page still showing a closed file gets a 404, never another file).
    files: Vec<Option<Loaded>>,
}

/// The formats the desk writes: every writable one but WTHOR, whose name files
/// (`WTHOR.JOU`, `WTHOR.TRN`) a single download cannot carry.
pub(crate) fn writable() -> Vec<String> {
    Format::WRITABLE
        .iter()
        .filter(|f| **f != Format::Wthor)
        .map(|f| f.name())
        .collect()
}

fn target_format(name: &str) -> Result<Format, Refusal> {
    let format: Format = name
        .parse()
        .map_err(|e: reversi_formats::ParseFormatError| bad(e.to_string()))?;
    if format == Format::Wthor {
        return Err(bad(
            "the desk does not write WTHOR (its name files cannot come along); use `reversi convert --to wthor`",
        ));
    }
    Ok(format)
}

fn write_options(format: Format, lossy: bool) -> WriteOptions {
    let dialect = match format {
        Format::Pgn(d) if d != PgnDialect::Rgn => Some(d.name().to_string()),
        _ => None,
    };
    WriteOptions {
        lossy,
        dialect,
        ..WriteOptions::default()
    }
}

/// The file extension a format's files take.
fn extension(format: Format) -> &'static str {
    match format {
        Format::Rgn => "rgn",
        Format::Json => "json",
        Format::Wthor => "wtb",
        Format::Ggf => "ggf",
        Format::Pgn(_) => "pgn",
        Format::Sgf => "sgf",
        Format::MoveString => "txt",
        Format::Transcript => "grid",
        Format::Obf => "obf",
    }
}

/// A game's record read back from its own RGN text, so that its source and spans match
/// the record as changed on the desk.
fn reparsed(index: usize, name: &Arc<str>, record: &Record) -> ParsedGame {
    let options = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    let read = ReadOptions {
        name: name.clone(),
        ..ReadOptions::default()
    };
    let again = Format::Rgn
        .write_bytes(std::slice::from_ref(record), &options)
        .ok()
        .and_then(|(bytes, _)| Format::Rgn.read_bytes(bytes, &read).ok())
        .and_then(|games| games.into_iter().find(|g| g.index == 1));
    match again {
        Some(mut game) if game.record.is_some() => {
            game.index = index;
            game
        }
        _ => ParsedGame {
            index,
            source: reversi_formats::diagnostic::Source::whole(name.clone(), ""),
            record: Some(record.without_spans()),
            diagnostics: Vec::new(),
        },
    }
}

/// Refuses an edit that would make game `n` one the readers refuse (more tags or moves
/// than they take: `syntax-game-too-large`): a file holding it would not read back.
fn readable(n: usize, record: &Record) -> Result<(), Refusal> {
    use reversi_formats::text::{MAX_MOVES, MAX_TAGS};
    let over = if record.tags.len() > MAX_TAGS {
        Some(format!("{} tags, over the {MAX_TAGS}", record.tags.len()))
    } else if record.moves.len() > MAX_MOVES {
        Some(format!(
            "{} moves, over the {MAX_MOVES}",
            record.moves.len()
        ))
    } else {
        None
    };
    match over {
        Some(what) => Err(Refusal::new(
            422,
            format!("game {n} would have {what} the readers take: they would refuse it (syntax-game-too-large)"),
        )),
        None => Ok(()),
    }
}

/// Reads `bytes` back as `format`, game by game, and refuses them (422) when a reader's
/// limit cuts a game (a line or a game too long, too many tags or moves): what the desk
/// writes must read back.
fn reads_back(format: Format, bytes: &[u8]) -> Result<(), Refusal> {
    use reversi_formats::codes::Code;
    let read = ReadOptions::default();
    for game in format.read(Box::new(bytes), &read) {
        let game = game
            .map_err(|e| Refusal::new(422, format!("the file written does not read back: {e}")))?;
        let cut = game
            .diagnostics
            .iter()
            .find(|d| matches!(d.code, Code::SyntaxTooLong | Code::SyntaxGameTooLarge));
        if let Some(d) = cut {
            return Err(Refusal::new(
                422,
                format!(
                    "the file written would not read back: game {} is refused by the reader ({}: {})",
                    game.index,
                    d.code.name(),
                    d.message
                ),
            ));
        }
    }
    Ok(())
}

/// What a file name given for a new file must be: one plain, portable name: no folder,
/// not hidden, no control or direction-changing character (a name that reads otherwise
/// than it is), no space or dot at its end, not a name Windows keeps for a device (`CON`,
/// `nul.rgn`), not a WTHOR name file (the archive's players and tournaments).
fn plain_name(name: &str) -> Result<&str, Refusal> {
    let mut parts = Path::new(name).components();
    let one = matches!(
        (parts.next(), parts.next()),
        (Some(Component::Normal(_)), None)
    );
    let refused = |why: &str| {
        // The name shown as Rust writes a string: every control and direction mark seen.
        bad(format!("{name:?} is not a file name to save to: {why}"))
    };
    if !one || name.starts_with('.') || name.contains(['/', '\\', '\0']) || name.len() > 200 {
        return Err(refused("give a plain name (no folder, not hidden)"));
    }
    let hidden_or_control = |c: char| {
        c.is_control()
            || matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}')
    };
    if name.chars().any(hidden_or_control) {
        return Err(refused("it holds a control or text-direction character"));
    }
    if name.ends_with([' ', '.']) {
        return Err(refused("it ends with a space or a dot"));
    }
    let stem = name
        .split('.')
        .next()
        .unwrap_or(name)
        .trim_end()
        .to_ascii_uppercase();
    let device = matches!(stem.as_str(), "CON" | "PRN" | "AUX" | "NUL")
        || (stem.len() == 4
            && (stem.starts_with("COM") || stem.starts_with("LPT"))
            && stem.ends_with(|c: char| c.is_ascii_digit() && c != '0'));
    if device {
        return Err(refused("Windows keeps the name for a device"));
    }
    if reversi_formats::wthor::is_name_file(Path::new(name)) {
        return Err(refused(
            "it is a WTHOR name file, which the archive's games need",
        ));
    }
    Ok(name)
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

    /// Takes a game out for a repair search, run outside the lock.
    pub(crate) fn for_repair(
        &mut self,
        id: usize,
        n: usize,
    ) -> Result<(ParsedGame, Format, Arc<str>), Refusal> {
        let file = self.file(id)?;
        let name = file.name.clone();
        let format = file.format;
        let game = file.game(n)?;
        // A game changed on the desk is held as its RGN text.
        let format = if game.changes.is_empty() {
            format
        } else {
            Format::Rgn
        };
        Ok((game.parsed().into_owned(), format, name))
    }

    /// Keeps the repair found for game `n` and describes it: its status, the finding as
    /// the command line prints it, and the candidates to accept.
    pub(crate) fn repaired(
        &mut self,
        id: usize,
        n: usize,
        repair: Repair,
    ) -> Result<Value, Refusal> {
        let file = self.file(id)?;
        let game = file.game(n)?;
        let report = repair
            .report(n)
            .map(|d| Renderer::plain().render(&d, &game.held.source));
        let edits = |list: &[reversi_check::repair::Edit]| -> Vec<Value> {
            list.iter()
                .map(|e| json!({"text": e.to_string(), "move": e.move_number, "other": e.other}))
                .collect()
        };
        let mut candidates = Vec::new();
        match repair.status {
            Status::Repaired | Status::WrongResult => {
                candidates.push(json!({"choice": 0, "edits": edits(&repair.edits)}));
            }
            Status::Ambiguous => {
                for (i, alt) in repair.alternatives.iter().enumerate() {
                    candidates.push(json!({"choice": i + 1, "edits": edits(alt)}));
                }
            }
            Status::Valid | Status::Unrepairable => {}
        }
        let value = json!({
            "status": repair.status.name(),
            "report": report,
            "candidates": candidates,
            "not_searched": repair.not_searched,
        });
        game.repair = Some(Box::new(repair));
        Ok(value)
    }

    /// Accepts candidate `choice` of the last repair search of game `n` (0: the one repair,
    /// or the board's result; N: alternative N of an ambiguous game).
    pub(crate) fn accept(
        &mut self,
        id: usize,
        n: usize,
        choice: usize,
        seen: Option<u64>,
    ) -> Result<Value, Refusal> {
        let file = self.file(id)?;
        let name = file.name.clone();
        let game = file.game(n)?;
        game.unchanged_since(seen)?;
        let Some(repair) = game.repair.as_deref().cloned() else {
            return Err(Refusal::new(
                409,
                "no repair was searched for this game: ask for the candidates first",
            ));
        };
        let repair = match (repair.status, choice) {
            (Status::Ambiguous, c) if c > 0 => repair
                .pick(c)
                .map_err(|e| Refusal::new(409, e.to_string()))?,
            (Status::Repaired | Status::WrongResult, 0) => repair,
            (status, _) => {
                return Err(Refusal::new(
                    409,
                    format!(
                        "candidate {choice} is not one of this game's ({})",
                        status.name()
                    ),
                ))
            }
        }
        .fix_result();
        let (Status::Repaired, Some(record)) = (repair.status, repair.commented()) else {
            return Err(Refusal::new(409, "this candidate does not repair the game"));
        };
        let mut changes = game.changes.clone();
        changes.extend(repair.edits.iter().map(|e| format!("repair: {e}")));
        let changed = DeskGame::new(reparsed(n, &name, &record), changes);
        file.edit(n, changed, "repair accepted")?;
        self.game(id, n)
    }

    /// Replaces the tags of game `n` (the reserved ones, which have their own fields, are
    /// refused).
    pub(crate) fn set_tags(
        &mut self,
        id: usize,
        n: usize,
        tags: Vec<(String, String)>,
        seen: Option<u64>,
    ) -> Result<Value, Refusal> {
        for (name, _) in &tags {
            let fine = !name.is_empty()
                && name.len() <= 64
                && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
            if !fine {
                return Err(bad(format!(
                    "`{name}` is not a tag name: letters, digits and `_` only"
                )));
            }
            if TagName::RESERVED
                .iter()
                .any(|r| r.eq_ignore_ascii_case(name))
            {
                return Err(bad(format!(
                    "`{name}` is not edited as a tag on the desk (it is part of the game)"
                )));
            }
        }
        let file = self.file(id)?;
        let name = file.name.clone();
        let game = file.game(n)?;
        game.unchanged_since(seen)?;
        let whole = game.parsed();
        let Some(record) = &whole.record else {
            return Err(Refusal::new(409, "the game could not be read"));
        };
        let mut record = record.clone();
        let before: Vec<(String, String)> = record
            .tags
            .iter()
            .map(|t| (t.name.clone(), t.value.clone()))
            .collect();
        if before == tags {
            return self.game(id, n);
        }
        record.tags = tags.iter().map(|(k, v)| Tag::new(k, v)).collect();
        readable(n, &record)?;
        let mut changes = game.changes.clone();
        changes.push("tags edited".to_string());
        let changed = DeskGame::new(reparsed(n, &name, &record), changes);
        file.edit(n, changed, "tags edited")?;
        self.game(id, n)
    }

    /// Sets `TAG=VALUE` (as `reversi convert --set` takes it, through the same
    /// [`TagEdits`](reversi_formats::record::TagEdits)) on the games `selection` of file `id`,
    /// as one edit of its history. `seen`: the file's revision the page showed the games
    /// at (changed since: 409).
    pub(crate) fn set_on_selection(
        &mut self,
        id: usize,
        set: &str,
        selection: &[usize],
        seen: Option<u64>,
    ) -> Result<Value, Refusal> {
        let tag: reversi_formats::record::SetTag = set
            .parse()
            .map_err(|e: reversi_formats::record::BadTagEdit| bad(e.to_string()))?;
        let mut edits = reversi_formats::record::TagEdits::default();
        edits.set(tag);
        self.edit_selection(id, &edits, &format!("{} set", set.trim()), selection, seen)
    }

    /// Maps the players' names of the games `selection` of file `id` through the served
    /// folder's player register, as `reversi convert --rename REGISTER` does (every alias
    /// and login becomes the registered name, through the same
    /// [`Register::renames`] and [`TagEdits`](reversi_formats::record::TagEdits)): one edit
    /// of the file's history.
    pub(crate) fn rename_on_selection(
        &mut self,
        id: usize,
        selection: &[usize],
        seen: Option<u64>,
        found: EventFiles,
    ) -> Result<Value, Refusal> {
        let EventFiles {
            register, notes, ..
        } = found;
        let Some(register) = register else {
            let why = notes
                .iter()
                .find(|n| n.contains("register"))
                .cloned()
                .unwrap_or_else(|| "no player register in the served folder".to_string());
            return Err(Refusal::new(
                409,
                format!(
                    "{why}: the names cannot be mapped (`reversi players` writes a first register)"
                ),
            ));
        };
        let mut edits = reversi_formats::record::TagEdits::default();
        for (old, new) in register.renames() {
            edits.rename(old, new);
        }
        self.edit_selection(
            id,
            &edits,
            "names mapped through the register",
            selection,
            seen,
        )
    }

    /// `edits` applied to the games `selection` of file `id`, as one edit `what` of its
    /// history: the games changed, those the edits leave as they are, those that could not
    /// be read.
    fn edit_selection(
        &mut self,
        id: usize,
        edits: &reversi_formats::record::TagEdits,
        what: &str,
        selection: &[usize],
        seen: Option<u64>,
    ) -> Result<Value, Refusal> {
        let file = self.file(id)?;
        if seen.is_some_and(|seen| seen != file.revision) {
            return Err(Refusal::new(
                409,
                "the file was changed elsewhere (another tab?) since this page showed it: reload the page, then select again",
            ));
        }
        if selection.is_empty() {
            return Err(bad("no game selected"));
        }
        let name = file.name.clone();
        let (mut edited, mut unchanged, mut unreadable) = (Vec::new(), Vec::new(), Vec::new());
        let mut wanted = selection.to_vec();
        wanted.sort_unstable();
        wanted.dedup();
        for &n in &wanted {
            let game = file.game(n)?;
            let whole = game.parsed();
            let Some(record) = &whole.record else {
                unreadable.push(n);
                continue;
            };
            let mut record = record.clone();
            if !edits.apply(&mut record) {
                unchanged.push(n);
                continue;
            }
            readable(n, &record)?;
            let mut changes = game.changes.clone();
            changes.push(what.to_string());
            edited.push((n, DeskGame::new(reparsed(n, &name, &record), changes)));
        }
        let changed: Vec<usize> = edited.iter().map(|(n, _)| *n).collect();
        if !edited.is_empty() {
            file.edit_all(edited, &format!("{what} on {} games", changed.len()))?;
        }
        let summary = self
            .loaded()
            .find(|(i, _)| *i == id)
            .map(|(_, f)| f.summary(id, &self.roots));
        Ok(json!({
            "changed": changed,
            "unchanged": unchanged,
            "unreadable": unreadable,
            "file": summary,
        }))
    }

    /// Every game of every loaded file, as the event view lays them out by round and board
    /// and by player: the file's id, the game's number, its identity (the library's) and
    /// status, and for the later of two copies (the library's `duplicate-game`) the game it
    /// copies. With a pairings file in the served folder, each of its lines too: a game,
    /// a bye, a forfeit, an adjourned game or a withdrawal, and whether a game it expects
    /// is missing (the library's `missing-game`).
    pub(crate) fn event_games(&self, found: EventFiles) -> Value {
        let mut games: Vec<Value> = self
            .loaded()
            .flat_map(|(id, f)| {
                f.games.iter().map(move |g| {
                    let mut row = g.row();
                    row["file"] = json!(id);
                    row
                })
            })
            .collect();
        let (event, pairings, notes) = self.event(found);
        let findings = event.check(pairings.as_ref());
        let ids: Vec<(usize, &str)> = self.loaded().map(|(i, f)| (i, &*f.name)).collect();
        let id_of = |file: &str| ids.iter().find(|(_, name)| *name == file).map(|(i, _)| *i);
        let mut missing = std::collections::HashSet::new();
        for f in &findings {
            match f.code {
                reversi_formats::codes::Code::DuplicateGame => {
                    let (Some(first), Some(copy)) = (f.games.first(), f.games.get(1)) else {
                        continue;
                    };
                    let (Some(first_id), Some(copy_id)) = (id_of(&first.file), id_of(&copy.file))
                    else {
                        continue;
                    };
                    let row = games
                        .iter_mut()
                        .find(|r| r["file"] == json!(copy_id) && r["index"] == json!(copy.game));
                    if let Some(row) = row {
                        row["duplicate_of"] = json!({"file": first_id, "game": first.game});
                    }
                }
                reversi_formats::codes::Code::MissingGame => {
                    missing.insert(f.message.clone());
                }
                _ => {}
            }
        }
        let lines: Vec<Value> = pairings
            .as_ref()
            .map(|p| p.pairings())
            .unwrap_or_default()
            .iter()
            .map(|p| {
                use reversi_check::event::LineStatus as S;
                let (status, absent) = match p.status {
                    S::Game => ("game", None),
                    S::Bye => ("bye", None),
                    S::Forfeit {
                        black_absent,
                        white_absent,
                    } => (
                        "forfeit",
                        Some(match (black_absent, white_absent) {
                            (true, true) => "both",
                            (true, false) => "black",
                            _ => "white",
                        }),
                    ),
                    S::Adjourned => ("adjourned", None),
                    S::Withdrawn => ("withdrawn", None),
                };
                let tag = format!("(line {} of the pairings)", p.line);
                let is_missing = p.expects_a_game() && missing.iter().any(|m| m.contains(&tag));
                json!({
                    "line": p.line,
                    "round": p.round,
                    "board": p.board,
                    "black": p.black,
                    "white": p.white,
                    "status": status,
                    "absent": absent,
                    "missing": is_missing,
                })
            })
            .collect();
        json!({ "games": games, "pairings": lines, "notes": notes })
    }

    /// Writes file `id` in `format` to memory: the bytes, and the report of the games
    /// refused or written lossily.
    pub(crate) fn export(
        &mut self,
        id: usize,
        format: &str,
        lossy: bool,
    ) -> Result<(Vec<u8>, Value, String), Refusal> {
        let format = target_format(format)?;
        let file = self.file(id)?;
        let options = write_options(format, lossy);
        let unreadable: Vec<usize> = file
            .games
            .iter()
            .filter(|g| g.held.record.is_none())
            .map(|g| g.held.index)
            .collect();
        // A game the readers would refuse is not written: the file would not read back.
        let all = file.records();
        let over_limits: Vec<(usize, String)> = all
            .iter()
            .filter_map(|(n, r)| readable(*n, r).err().map(|e| (*n, e.message)))
            .collect();
        let records = all
            .iter()
            .filter(|(n, _)| !over_limits.iter().any(|(o, _)| o == n))
            .map(|(n, r)| (*n, r.as_ref()));
        let out = format.write_each(records, &options).map_err(io_refusal)?;
        drop(all);
        reads_back(format, &out.bytes)?;
        let mut refused: Vec<Value> = out
            .refused
            .iter()
            .chain(&over_limits)
            .map(|(g, why)| json!({"game": g, "why": why}))
            .collect();
        refused.extend(
            unreadable
                .iter()
                .map(|g| json!({"game": g, "why": "the game could not be read"})),
        );
        let errors: Vec<usize> = file
            .games
            .iter()
            .filter(|g| g.status == GameStatus::Errors)
            .map(|g| g.held.index)
            .collect();
        let report = json!({
            "format": format.name(),
            "lossy": lossy,
            "games": file.games.len(),
            "written": out.written,
            "refused": refused,
            "dropped": out.dropped.iter().map(|(g, what)| json!({"game": g, "what": what})).collect::<Vec<_>>(),
            "with_errors": errors,
            "bytes": out.bytes.len(),
        });
        let stem = Path::new(&*file.name)
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "games".into());
        let download = format!("{stem}-desk.{}", extension(format));
        Ok((out.bytes, report, download))
    }

    /// Writes file `id` beside its original in the served folder, as `name`, through the
    /// atomic output. Over the original only with `overwrite`, after a backup.
    pub(crate) fn save(
        &mut self,
        id: usize,
        format: &str,
        lossy: bool,
        name: &str,
        overwrite: bool,
    ) -> Result<Value, Refusal> {
        let name = plain_name(name)?.to_string();
        let (bytes, report, _) = self.export(id, format, lossy)?;
        let roots = self.roots.clone();
        let file = self.file(id)?;
        let Some((root, original)) = &file.origin else {
            return Err(Refusal::new(
                409,
                "this file was not opened from the served folder: download it instead",
            ));
        };
        let dir = original
            .parent()
            .ok_or_else(|| Refusal::new(500, "the original has no folder"))?;
        // The folder as it is now: a link that replaced it, or the served folder, since the
        // file was opened must not lead the write outside.
        let served = roots
            .get(*root)
            .map(|r| r.dir.as_path())
            .ok_or_else(|| Refusal::new(500, "the file's served folder is gone"))?;
        still_inside(dir, served)?;
        let target = dir.join(&name);
        let is_original = target
            .canonicalize()
            .map(|t| &t == original)
            .unwrap_or(false);
        let mut backup = None;
        if is_original {
            if !overwrite {
                return Err(Refusal::new(
                    409,
                    format!("{name} is the original: writing over it needs `overwrite` (a backup is kept)"),
                ));
            }
            let text = fs::read(original).map_err(io_refusal)?;
            if file
                .read_hash
                .is_some_and(|read| read != ContentHash::of(&text))
            {
                return Err(Refusal::new(
                    409,
                    format!("{name} changed on disk since the desk read it: writing over it would lose that change; reload it, or save under a new name"),
                ));
            }
            let copy = backup_name(original)?;
            let mut out = AtomicFile::create(&copy).map_err(io_refusal)?;
            out.write_all(&text).map_err(io_refusal)?;
            out.commit().map_err(io_refusal)?;
            backup = Some(copy.file_name().map(|n| n.to_string_lossy().into_owned()));
        } else if fs::symlink_metadata(&target).is_ok() {
            return Err(Refusal::new(
                409,
                format!("{name} exists: give a new name (the desk writes over no file but the original, when asked)"),
            ));
        }
        let mut out = if is_original {
            AtomicFile::create(&target)
        } else {
            AtomicFile::create_guarded(&target, &[original.as_path()])
        }
        .map_err(io_refusal)?;
        out.write_all(&bytes).map_err(io_refusal)?;
        out.commit().map_err(io_refusal)?;
        // The edits are on disk now; over the original, the file on disk is the desk's.
        let file = self.file(id)?;
        file.clean = Some(file.undo.len());
        if is_original {
            file.read_hash = Some(ContentHash::of(&bytes));
        }
        Ok(json!({
            "written": name,
            "backup": backup.flatten(),
            "report": report,
        }))
    }

    /// The standings of every file loaded: the library's report (each event's standings,
    /// the notes on the way), with the findings across games.
    pub(crate) fn standings(&self, found: EventFiles) -> Value {
        let (event, pairings, mut notes) = self.event(found);
        // Each finding as the command line prints it, with the games it names as the page
        // opens them: the loaded file's id (by the name its games were added under) and
        // the game's number.
        let ids: Vec<(usize, &str)> = self.loaded().map(|(i, f)| (i, &*f.name)).collect();
        let findings: Vec<Value> = event
            .check(pairings.as_ref())
            .iter()
            .map(|f| {
                let games: Vec<Value> = f
                    .games
                    .iter()
                    .filter_map(|g| {
                        let (id, _) = ids.iter().find(|(_, name)| *name == g.file)?;
                        Some(json!({"file": id, "game": g.game}))
                    })
                    .collect();
                json!({"text": f.to_string(), "code": f.code.name(), "games": games})
            })
            .collect();
        let request = StandingsRequest {
            pairings,
            ..StandingsRequest::default()
        };
        // With no event asked for, the run cannot refuse the request.
        let mut value = match event.standings(&request) {
            Ok(report) => serde_json::to_value(&report).unwrap_or_else(|_| json!({})),
            Err(unknown) => json!({ "events": [], "notes": [], "problems": [unknown.to_string()] }),
        };
        value["findings"] = json!(findings);
        if let Some(said) = value["notes"].as_array_mut() {
            let mut all: Vec<Value> = notes.drain(..).map(Value::from).collect();
            all.append(said);
            *said = all;
        }
        value
    }

    /// Every loaded file's games as one event, read through the served folder's register;
    /// the pairings, and the notes on reading the two.
    fn event(&self, found: EventFiles) -> (Event, Option<Schedule>, Vec<String>) {
        let mut event = Event::default();
        for (_, file) in self.loaded() {
            let games: Vec<ParsedGame> =
                file.games.iter().map(|g| g.parsed().into_owned()).collect();
            event.add_games(&file.name, &games);
        }
        // The director's register and pairings, when a served folder holds them.
        let EventFiles {
            register,
            pairings,
            notes,
        } = found;
        if let Some(register) = register {
            event.set_register(std::sync::Arc::new(register));
        }
        (event, pairings, notes)
    }
}

/// The director's files a served folder holds beside the sheets.
#[derive(Default)]
pub(crate) struct EventFiles {
    register: Option<Register>,
    pairings: Option<Schedule>,
    /// What was read, and what could not be.
    notes: Vec<String>,
}

/// The player register and the pairings file in the served folders, found as the command
/// line finds them ([`run::walk`]: told by their headers, only regular files opened, so a
/// FIFO named `x.csv` never hangs the desk), with a note for each read and each that
/// cannot be. Read outside the desk's lock.
pub(crate) fn event_files(roots: &[Root]) -> EventFiles {
    let folders: Vec<PathBuf> = roots
        .iter()
        .filter(|r| r.only.is_none())
        .map(|r| r.dir.clone())
        .collect();
    let mut notes = Vec::new();
    let walked = match run::walk(&folders) {
        Ok(walked) => walked,
        Err(e) => {
            notes.push(format!("the served folders could not be walked: {e}"));
            run::Walked::default()
        }
    };
    let register = walked.register(None, &mut notes);
    let register = register.unwrap_or_else(|e| {
        notes.push(e.to_string());
        None
    });
    let pairings = walked.pairings(None, &mut notes);
    let pairings = pairings.unwrap_or_else(|e| {
        notes.push(e.to_string());
        None
    });
    EventFiles {
        register,
        pairings,
        notes: notes
            .into_iter()
            .map(|n| relative_note(&folders, n))
            .collect(),
    }
}

/// A note with the served folder it names left out: the page names files by their path
/// inside a served folder.
fn relative_note(folders: &[PathBuf], note: String) -> String {
    folders
        .iter()
        .filter_map(|f| f.to_str())
        .fold(note, |note, folder| note.replace(&format!("{folder}/"), ""))
}

/// Refuses a write into `dir` unless, its links followed now, it is still the folder it
/// was when its file was opened, inside `served` (canonical since the desk started).
fn still_inside(dir: &Path, served: &Path) -> Result<(), Refusal> {
    let now = dir.canonicalize().map_err(io_refusal)?;
    if now != dir || !now.starts_with(served) {
        return Err(Refusal::new(
            403,
            format!(
                "{}: the folder now leads elsewhere (a link replaced it since the file was opened): nothing written",
                dir.display()
            ),
        ));
    }
    Ok(())
}

/// `NAME.bak`, or `NAME.bak2`, ... : the first that does not exist.
fn backup_name(original: &Path) -> Result<PathBuf, Refusal> {
    let name = original
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    for i in 1..1000 {
        let suffix = if i == 1 {
            ".bak".to_string()
        } else {
            format!(".bak{i}")
        };
        let candidate = original.with_file_name(format!("{name}{suffix}"));
        if fs::symlink_metadata(&candidate).is_err() {
            return Ok(candidate);
        }
    }
    Err(Refusal::new(409, "too many backups beside the original"))
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

/// The largest file of the served folder the desk opens: as large as an upload may be.
pub(crate) const MAX_SERVED: u64 = super::MAX_BODY as u64;

/// Reads a file of the served folder (outside the desk's lock), named `shown` in
/// diagnostics, its format detected as the command line detects it. A file over
/// [`MAX_SERVED`] is refused (413), and one growing past it while read is cut there.
pub(crate) fn load_served(root: usize, path: &Path, shown: &str) -> Result<Loaded, Refusal> {
    let file = fs::File::open(path).map_err(|e| {
        io_refusal(io::Error::new(
            e.kind(),
            format!("{shown}: cannot open: {e}"),
        ))
    })?;
    let len = file.metadata().ok().map(|m| m.len());
    if len.is_some_and(|len| len > MAX_SERVED) {
        return Err(Refusal::new(
            413,
            format!(
                "{shown}: {} bytes, over the desk's limit of {MAX_SERVED} bytes (64 MiB): check it with `reversi validate`",
                len.unwrap_or(0)
            ),
        ));
    }
    let from_folder = Some((root, path.to_path_buf()));
    let hash = Arc::new(std::sync::Mutex::new(ContentHash::default()));
    let input = Hashing {
        inner: io::Read::take(file, MAX_SERVED),
        hash: hash.clone(),
    };
    let mut loaded = read_detected(shown, Box::new(input), len, Some(path), from_folder)?;
    loaded.read_hash = hash.lock().ok().map(|h| h.finish());
    Ok(loaded)
}

/// Hands the memory freed by closing a file back to the system: glibc's allocator keeps
/// freed memory for the process otherwise, and the desk would stay as large as the most
/// it ever held.
pub(crate) fn give_back_freed_memory() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: malloc_trim only returns free pages of the allocator's heaps to the system;
    // it takes no pointer and may be called at any time from any thread.
    unsafe {
        libc::malloc_trim(0);
    }
}

/// The hash of a file's content, fed as it is read.
#[derive(Default)]
struct ContentHash(std::collections::hash_map::DefaultHasher);

impl ContentHash {
    fn of(bytes: &[u8]) -> u64 {
        let mut hash = ContentHash::default();
        hash.write(bytes);
        hash.finish()
    }

    fn write(&mut self, bytes: &[u8]) {
        std::hash::Hasher::write(&mut self.0, bytes);
    }

    fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }
}

/// A reader hashing what is read through it.
struct Hashing<R> {
    inner: R,
    hash: Arc<std::sync::Mutex<ContentHash>>,
}

impl<R: io::Read> io::Read for Hashing<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        if let Ok(mut hash) = self.hash.lock() {
            hash.write(&buf[..n]);
        }
        Ok(n)
    }
}

/// Reads an uploaded file (the request's body, not copied), its format detected as the
/// command line detects it.
pub(crate) fn load_upload(name: &str, bytes: axum::body::Bytes) -> Result<Loaded, Refusal> {
    let len = Some(bytes.len() as u64);
    let hash = ContentHash::of(&bytes);
    let mut loaded = read_detected(name, Box::new(io::Cursor::new(bytes)), len, None, None)?;
    loaded.upload_hash = Some(hash);
    Ok(loaded)
}

/// Detects the format of `input` (as the command line does) and reads its games, with the
/// note the command line prints.
fn read_detected(
    shown: &str,
    input: Box<dyn io::Read + Send>,
    len: Option<u64>,
    path: Option<&Path>,
    from_folder: Option<(usize, PathBuf)>,
) -> Result<Loaded, Refusal> {
    let source = reversi_runs::run::InputSource::Reader {
        name: shown.to_owned(),
        reader: input,
        len,
        path: path.map(Path::to_path_buf),
    };
    // The library's one opener, as the command line and Python open their inputs.
    let options = reversi_runs::run::InputOptions::default();
    let opened =
        reversi_runs::run::open(source, &options).map_err(|e| Refusal::new(422, e.to_string()))?;
    let name = opened.name().clone();
    let format = opened.format();
    let note = format!(
        "reading {name} as {format} ({})",
        opened.detection().phrase()
    );
    Loaded::read(name, format, note, from_folder, opened.games())
}

/// Searches a repair of `game` (outside the desk's lock).
pub(crate) fn search_repair(game: &ParsedGame, format: Format, name: Arc<str>) -> Repair {
    let read = ReadOptions {
        name,
        ..ReadOptions::default()
    };
    repair_game(game, format, &read, &RepairOptions::default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_save_name_is_one_plain_portable_name() {
        for good in [
            "round-3.rgn",
            "Ronde 3 (corrigée).pgn",
            "console.rgn",
            "com10.txt",
        ] {
            assert_eq!(plain_name(good).ok(), Some(good), "{good}");
        }
        for bad in [
            "../out.rgn",
            "sub/out.rgn",
            ".hidden.rgn",
            "two\nlines.rgn",
            "tab\there.rgn",
            "esc\u{1b}[2J.rgn",
            "\u{202e}nr.exe.rgn",
            "isolated\u{2067}.rgn",
            "trailing.rgn ",
            "trailing.",
            "CON",
            "nul.rgn",
            "Com1.txt",
            "lpt9",
            "WTHOR.JOU",
            "wthor.trn",
        ] {
            assert!(plain_name(bad).is_err(), "{bad:?} is refused");
        }
        // The refusal shows the name with its controls escaped.
        let Err(refusal) = plain_name("a\u{202e}b.rgn") else {
            panic!("refused");
        };
        assert!(refusal.message.contains("\\u{202e}"), "{}", refusal.message);
    }
}
