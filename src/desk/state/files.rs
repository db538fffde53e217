//! The files on the desk: each loaded file's games as held (most moves in 16 bytes, the
//! findings as counts), its history of edits for undo and redo, and reading a file of the
//! served folder or an upload into one, its content hashed as it is read.

use super::*;

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
    pub(super) fn parse(text: &str) -> Option<GameStatus> {
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
pub(super) struct DeskGame {
    /// The game as read, without its moves when they are held in `moves`: use
    /// [`DeskGame::parsed`] for the whole game.
    pub(super) held: ParsedGame,
    /// The moves, when each is only a square (or a pass), a colour and a span: 16 bytes a
    /// move instead of the record's 160.
    pub(super) moves: Option<Box<[PlainMove]>>,
    /// The findings without the suggestions (one replay), counted: what the list needs.
    pub(super) findings: Findings,
    /// The findings with their suggestions, as `reversi validate` prints them: worked out
    /// when the game is opened.
    pub(super) full: Option<Vec<Diagnostic>>,
    pub(super) status: GameStatus,
    /// The edits accepted on the desk, as sentences.
    pub(super) changes: Vec<String>,
    /// The last repair search, for accepting one of its candidates.
    pub(super) repair: Option<Box<Repair>>,
    /// The file's revision when the game last changed (0: as read).
    pub(super) revision: u64,
}

impl DeskGame {
    pub(super) fn new(parsed: ParsedGame, changes: Vec<String>) -> DeskGame {
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
    pub(super) fn parsed(&self) -> std::borrow::Cow<'_, ParsedGame> {
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
    pub(super) fn unchanged_since(&self, seen: Option<u64>) -> Result<(), Refusal> {
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

    pub(super) fn row(&self) -> Value {
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
pub(super) struct PlainMove {
    pub(super) mv: reversi_engine::Move,
    pub(super) color: Option<reversi_engine::Color>,
    /// The span's offset and length.
    pub(super) span: Option<(u32, u32)>,
}

impl PlainMove {
    /// The game with its moves taken out as plain moves, when every one of them is plain
    /// (no flips, evaluation, time or comment; a span that fits); as it is otherwise.
    pub(super) fn hold(mut game: ParsedGame) -> (ParsedGame, Option<Box<[PlainMove]>>) {
        let Some(record) = &mut game.record else {
            return (game, None);
        };
        let plain: Option<Box<[PlainMove]>> = record.moves.iter().map(PlainMove::of).collect();
        if plain.is_some() {
            record.moves = Vec::new();
        }
        (game, plain)
    }

    pub(super) fn of(m: &reversi_formats::record::MoveRecord) -> Option<PlainMove> {
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

    pub(super) fn to_record(self) -> reversi_formats::record::MoveRecord {
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
pub(super) struct Findings {
    pub(super) errors: u32,
    pub(super) warnings: u32,
    /// The first error's message.
    pub(super) first_error: Option<Box<str>>,
    /// The move of the first error, when it names one.
    pub(super) faulty: Option<usize>,
}

impl Findings {
    pub(super) fn of(diagnostics: &[Diagnostic]) -> Findings {
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
pub(super) struct Step {
    pub(super) games: Vec<Kept>,
    /// The edit, in words (`repair accepted`, `tags edited`, `Round=4 set`).
    pub(super) what: String,
}

impl Step {
    pub(super) fn summary(&self) -> Value {
        json!({
            "game": self.games.first().map(|k| k.n),
            "games": self.games.len(),
            "what": self.what,
        })
    }
}

/// A game as it was, in a file's history: as the desk held it (its moves apart, its
/// findings worked out).
pub(super) struct Kept {
    /// The game's number.
    pub(super) n: usize,
    pub(super) game: DeskGame,
}

/// A file loaded on the desk.
pub(crate) struct Loaded {
    pub(super) name: Arc<str>,
    pub(super) format: Format,
    pub(super) note: String,
    /// For a file of the served folder: its root and canonical path.
    pub(super) origin: Option<(usize, PathBuf)>,
    /// For a file of the served folder: the hash of the bytes read, to tell at a save
    /// whether the file on disk is still the one read.
    pub(super) read_hash: Option<u64>,
    /// For an uploaded file: the hash of its bytes, to tell the same file sent again.
    pub(super) upload_hash: Option<u64>,
    pub(super) games: Vec<DeskGame>,
    /// Entries about the file itself (index 0), rendered.
    pub(super) file_problems: Vec<String>,
    /// The edits that can be undone, the last one last.
    pub(super) undo: Vec<Step>,
    /// The edits undone, which can be redone, the last undone last.
    pub(super) redo: Vec<Step>,
    /// How many edits the undo list held when the file was read or last written (the state
    /// then is the one on disk); none when that state can no longer be reached by undoing
    /// and redoing.
    pub(super) clean: Option<usize>,
    /// Counts the changes to the games (edits, undos, redos): what a page saw, to tell a
    /// change made elsewhere since.
    pub(super) revision: u64,
}

impl Loaded {
    /// Reads the games of `games` and validates them on all cores, a block at a time: what
    /// is held is the games kept, not every game read as well.
    pub(super) fn read(
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

    pub(super) fn counts(&self) -> Value {
        let count = |s: GameStatus| self.games.iter().filter(|g| g.status == s).count();
        json!({
            "valid": count(GameStatus::Valid),
            "warnings": count(GameStatus::Warnings),
            "errors": count(GameStatus::Errors),
            "repaired": count(GameStatus::Repaired),
        })
    }

    pub(super) fn summary(&self, id: usize, roots: &[Root]) -> Value {
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
    pub(super) fn changed(&self) -> bool {
        self.clean != Some(self.undo.len())
    }

    /// Game `n` replaced by `game`, the edit `what` kept in the history (and what was undone
    /// no longer redoable).
    pub(super) fn edit(&mut self, n: usize, game: DeskGame, what: &str) -> Result<(), Refusal> {
        self.edit_all(vec![(n, game)], what)
    }

    /// Games replaced, each `(n, game)`, as one edit `what` of the history.
    pub(super) fn edit_all(
        &mut self,
        edited: Vec<(usize, DeskGame)>,
        what: &str,
    ) -> Result<(), Refusal> {
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
    pub(super) fn travel(&mut self, back: bool, seen: Option<u64>) -> Result<usize, Refusal> {
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

    pub(super) fn game(&mut self, n: usize) -> Result<&mut DeskGame, Refusal> {
        let count = self.games.len();
        n.checked_sub(1)
            .and_then(|i| self.games.get_mut(i))
            .ok_or_else(|| not_found(format!("no game {n}: the file has {count}")))
    }

    /// The records to write, each with its game number (unreadable games have none),
    /// whole (a game's moves held apart are put back) and readied as `reversi convert`
    /// readies a game for its target ([`Conversion::ready`]: passes written out, result
    /// settled, unless the game has an error): the desk exports the file the command line
    /// would write. A game with errors the target would not read back the same is left
    /// out, with why.
    pub(super) fn records(&self, conversion: &Conversion) -> (Vec<(usize, Record)>, Refused) {
        let mut records = Vec::new();
        let mut refused = Vec::new();
        for g in &self.games {
            let game = g.parsed();
            let index = g.held.index;
            let Some(mut record) = game.record.clone() else {
                continue;
            };
            match conversion
                .ready(&mut record, index, &game.diagnostics)
                .refused
            {
                Some(why) => refused.push((index, why)),
                None => records.push((index, record)),
            }
        }
        (records, refused)
    }
}

/// Games left out of an export, each with why.
pub(super) type Refused = Vec<(usize, reversi_formats::WriteError)>;

/// The largest file of the served folder the desk opens: as large as an upload may be.
pub(crate) const MAX_SERVED: u64 = crate::desk::MAX_BODY as u64;

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
pub(super) struct ContentHash(std::collections::hash_map::DefaultHasher);

impl ContentHash {
    pub(super) fn of(bytes: &[u8]) -> u64 {
        let mut hash = ContentHash::default();
        hash.write(bytes);
        hash.finish()
    }

    pub(super) fn write(&mut self, bytes: &[u8]) {
        std::hash::Hasher::write(&mut self.0, bytes);
    }

    pub(super) fn finish(&self) -> u64 {
        std::hash::Hasher::finish(&self.0)
    }
}

/// A reader hashing what is read through it.
pub(super) struct Hashing<R> {
    pub(super) inner: R,
    pub(super) hash: Arc<std::sync::Mutex<ContentHash>>,
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
pub(super) fn read_detected(
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
