//! Edits of the games on the desk: a repair searched and accepted, tags set on one game or
//! on a selection, names mapped through the register; each edit one step of its file's
//! history, and refused when the readers would refuse the game it makes.

use super::*;

/// A game's record read back from its own RGN text, so that its source and spans match
/// the record as changed on the desk.
pub(super) fn reparsed(index: usize, name: &Arc<str>, record: &Record) -> ParsedGame {
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
pub(super) fn readable(n: usize, record: &Record) -> Result<(), Refusal> {
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

impl Desk {
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

    /// Keeps the repair found for game `n` and describes it: the library's
    /// [`RepairReport`], the finding as the command line prints it (`report`), and the
    /// candidates to accept.
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
        // The library's report of a repair, with the text the page shows and the
        // candidates it offers.
        let mut value = json!(RepairReport::new(&game.parsed(), &repair));
        if let Some(fields) = value.as_object_mut() {
            fields.insert("report".into(), json!(report));
            fields.insert("candidates".into(), json!(candidates));
        }
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
}

/// Searches a repair of `game` (outside the desk's lock).
pub(crate) fn search_repair(game: &ParsedGame, format: Format, name: Arc<str>) -> Repair {
    let read = ReadOptions {
        name,
        ..ReadOptions::default()
    };
    repair_game(game, format, &read, &RepairOptions::default())
}
