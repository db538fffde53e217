//! Writing what the desk holds: a file exported in a format to memory, or saved beside
//! the original (the file on disk checked to be the one read, its old state kept as a
//! backup, the folder checked to be the one served); what is written must read back.

use super::*;

/// The formats the desk writes: every writable one but WTHOR, whose name files
/// (`WTHOR.JOU`, `WTHOR.TRN`) a single download cannot carry.
pub(crate) fn writable() -> Vec<String> {
    Format::WRITABLE
        .iter()
        .filter(|f| **f != Format::Wthor)
        .map(|f| f.name())
        .collect()
}

pub(super) fn target_format(name: &str) -> Result<Format, Refusal> {
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

pub(super) fn write_options(format: Format, lossy: bool) -> WriteOptions {
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
pub(super) fn extension(format: Format) -> &'static str {
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

/// Reads `bytes` back as `format`, game by game, and refuses them (422) when a reader's
/// limit cuts a game (a line or a game too long, too many tags or moves): what the desk
/// writes must read back.
pub(super) fn reads_back(format: Format, bytes: &[u8]) -> Result<(), Refusal> {
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
pub(super) fn plain_name(name: &str) -> Result<&str, Refusal> {
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
        let conversion = Conversion::new().target(format, &options, &ReadOptions::default());
        let (all, hides_errors) = file.records(&conversion);
        // A game the readers would cut, written: the file would not read back.
        for (n, why) in &hides_errors {
            if let WriteError::HidesErrors { written, .. } = why {
                if let Some(code) = written
                    .iter()
                    .find(|c| *c == "syntax-too-long" || *c == "syntax-game-too-large")
                {
                    return Err(Refusal::new(
                        422,
                        format!("the file written would not read back: game {n} is refused by the reader ({code})"),
                    ));
                }
            }
        }
        let hides_errors: Vec<(usize, String)> = hides_errors
            .into_iter()
            .map(|(n, why)| (n, why.to_string()))
            .collect();
        let over_limits: Vec<(usize, String)> = all
            .iter()
            .filter_map(|(n, r)| readable(*n, r).err().map(|e| (*n, e.message)))
            .collect();
        let records = all
            .iter()
            .filter(|(n, _)| !over_limits.iter().any(|(o, _)| o == n))
            .map(|(n, r)| (*n, r));
        let out = format.write_each(records, &options).map_err(io_refusal)?;
        drop(all);
        reads_back(format, &out.bytes)?;
        let mut refused: Vec<Value> = out
            .refused
            .iter()
            .chain(&over_limits)
            .chain(&hides_errors)
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
}

/// Refuses a write into `dir` unless, its links followed now, it is still the folder it
/// was when its file was opened, inside `served` (canonical since the desk started).
pub(super) fn still_inside(dir: &Path, served: &Path) -> Result<(), Refusal> {
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
pub(super) fn backup_name(original: &Path) -> Result<PathBuf, Refusal> {
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
