//! Writing records: the options, the refusals and losses of a writer ([`WriteError`]),
//! the writer every format gives ([`RecordWriter`]), and writing to memory.

use super::*;

/// What a writer needs to know.
///
/// ```
/// use reversi_formats::{Format, ReadOptions, WriteError, WriteOptions};
/// let games = Format::Rgn.read_bytes(b"[Black \"Ann\"]\n\nf5 {a comment} d6 *\n".to_vec(), &ReadOptions::default())?;
/// let records: Vec<_> = games.into_iter().filter_map(|g| g.record).collect();
/// // A move string holds no tags and no comments: refused, unless lossy.
/// let refused = Format::MoveString.write_bytes(&records, &WriteOptions::default());
/// assert!(matches!(refused, Err(WriteError::CannotHold(_))));
/// let lossy = WriteOptions { lossy: true, ..WriteOptions::default() };
/// let (text, lost) = Format::MoveString.write_bytes(&records, &lossy)?;
/// assert_eq!((text, lost.is_empty()), (b"f5d6\n".to_vec(), false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// Write what can be held and report the rest instead of refusing.
    pub lossy: bool,
    /// The dialect, for formats that have several.
    pub dialect: Option<String>,
    /// Directory for companion files (WTHOR `WTHOR.JOU`/`WTHOR.TRN`).
    pub names_dir: Option<PathBuf>,
    /// WTHOR's two name files by any names, instead of `WTHOR.JOU`/`WTHOR.TRN` in
    /// `names_dir` (`--names PLAYERS,TOURNAMENTS`).
    pub name_files: Option<wthor::NameFiles>,
    /// The year of every game of a WTHOR file (`--year`); without it, the games' own year,
    /// which must be one.
    pub year: Option<u16>,
    /// Where a writer stages what it writes before the output is complete (WTHOR's
    /// records): the output's directory; without it, the names directory, else the
    /// system's temporary directory.
    pub staging_dir: Option<PathBuf>,
    /// WTHOR: each year's header settings decided from all the games a run writes
    /// ([`wthor::YearHeaders`]), so that a merged file does not depend on the order of
    /// its inputs; without them, the first game that states a setting decides it.
    pub year_headers: Option<std::sync::Arc<wthor::YearHeaders>>,
}

/// Why a record could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The output failed.
    Io(io::Error),
    /// The format cannot hold these parts of the record, which are information around the
    /// game (tags, names, comments, claims): nothing was written, but writing lossily drops
    /// them and writes the game.
    CannotHold(Vec<String>),
    /// The format cannot hold these parts of the record without changing what the moves or
    /// the result mean (rules, board, start, players, scoring): refused even when writing
    /// lossily (see [`capabilities`]).
    ChangesMeaning(Vec<String>),
    /// The format cannot hold the game as the run is set up (`what`), and `how` says which
    /// setting would hold it: refused, `--lossy` or not (WTHOR: a game without a year,
    /// which `--year` files; a game of another year than the file's).
    NeedsSetting {
        /// What stands in the way.
        what: String,
        /// The setting that would let the game be written.
        how: String,
    },
    /// The game has errors that the format cannot hold: written, it would read back with
    /// other findings (`written`: the codes it would read with, none for a valid game)
    /// than the errors it has (`found`). Refused even when writing lossily: a conversion
    /// never turns a wrong game into another game, or into a right one.
    HidesErrors {
        /// The codes of the game's errors, as read.
        found: Vec<String>,
        /// The codes of the errors it would read back with.
        written: Vec<String>,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "{e}"),
            WriteError::CannotHold(what) | WriteError::ChangesMeaning(what) => {
                write!(f, "the target format cannot hold {}", what.join("; "))
            }
            WriteError::HidesErrors { .. } => {
                write!(f, "the target format cannot hold {}", self.hidden_errors())
            }
            WriteError::NeedsSetting { what, how } => {
                write!(f, "the target format cannot hold {what} ({how})")
            }
        }
    }
}

impl WriteError {
    /// How a refusal is reported: what `target` cannot hold, and whether `--lossy` would
    /// convert the game (`lossy`: whether it was given). `None` for an I/O error.
    ///
    /// ```
    /// use reversi_formats::WriteError;
    /// let e = WriteError::ChangesMeaning(vec!["3 players".into()]);
    /// assert_eq!(
    ///     e.refusal("wthor", false).unwrap(),
    ///     "wthor cannot hold 3 players; not converted (not even with --lossy: it would change what the game means)"
    /// );
    /// ```
    pub fn refusal(&self, target: &str, lossy: bool) -> Option<String> {
        let (what, hint) = match self {
            WriteError::Io(_) => return None,
            WriteError::ChangesMeaning(what) => (
                what,
                "not even with --lossy: it would change what the game means",
            ),
            WriteError::CannotHold(what) if !lossy => (what, "--lossy converts it without them"),
            WriteError::CannotHold(what) => (what, "the target has no room for it"),
            WriteError::NeedsSetting { what, how } => {
                return Some(format!("{target} cannot hold {what}; not converted ({how})"))
            }
            WriteError::HidesErrors { .. } => {
                return Some(format!(
                    "{target} cannot hold {}; not converted (not even with --lossy: a conversion never turns a wrong game into another; `reversi repair` fixes the record)",
                    self.hidden_errors()
                ))
            }
        };
        Some(format!(
            "{target} cannot hold {}; not converted ({hint})",
            what.join("; ")
        ))
    }

    /// What a [`WriteError::HidesErrors`] says: the errors found, and what the written
    /// game would read as.
    ///
    /// ```
    /// use reversi_formats::WriteError;
    /// let e = WriteError::HidesErrors { found: vec!["wrong-color".into()], written: vec![] };
    /// assert_eq!(
    ///     e.refusal("wthor", true).unwrap(),
    ///     "wthor cannot hold what makes this game wrong (wrong-color): written, it would read as a valid game; \
    ///      not converted (not even with --lossy: a conversion never turns a wrong game into another; `reversi repair` fixes the record)"
    /// );
    /// ```
    fn hidden_errors(&self) -> String {
        let WriteError::HidesErrors { found, written } = self else {
            return String::new();
        };
        let as_read = if written.is_empty() {
            "a valid game".to_owned()
        } else {
            format!("a game with {}", written.join(", "))
        };
        format!(
            "what makes this game wrong ({}): written, it would read as {as_read}",
            found.join(", ")
        )
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Writes records one at a time.
pub trait RecordWriter {
    /// Writes `record` (or buffers it, for formats with a header). Returns what was dropped
    /// when writing lossily; refuses with [`WriteError::CannotHold`] otherwise.
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError>;
    /// Flushes everything, writing headers and companion files.
    fn finish(&mut self) -> io::Result<()>;

    /// A renderer of this writer's records that may run on other threads, for
    /// [`RecordWriter::write_rendered`] to write in order; `None` when the writer must see
    /// the records themselves, one after the other (WTHOR numbers names as it meets them).
    fn renderer(&self) -> Option<Renderer> {
        None
    }

    /// Writes what this writer's [`Renderer`] made of a record, as
    /// [`RecordWriter::write`] writes the record; returns what was dropped.
    fn write_rendered(&mut self, rendered: &Rendered) -> Result<Vec<String>, WriteError> {
        let _ = rendered;
        Err(WriteError::Io(io::Error::new(
            io::ErrorKind::Unsupported,
            "this writer writes records, not rendered text",
        )))
    }
}

/// Refuses or reports `losses` as the options say.
pub fn check_losses(
    losses: Vec<String>,
    options: &WriteOptions,
) -> Result<Vec<String>, WriteError> {
    if losses.is_empty() || options.lossy {
        Ok(losses)
    } else {
        Err(WriteError::CannotHold(losses))
    }
}

impl Format {
    /// Reads every game of an in-memory input: the convenience form of [`Format::read`] for
    /// tests and small inputs.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// let games = Format::MoveString.read_bytes("f5d6c3\nf5f6\n", &ReadOptions::default()).unwrap();
    /// assert_eq!(games.len(), 2);
    /// assert_eq!(games[1].record.as_ref().unwrap().moves.len(), 2);
    /// ```
    pub fn read_bytes(
        self,
        input: impl Into<Vec<u8>>,
        options: &ReadOptions,
    ) -> io::Result<Vec<ParsedGame>> {
        self.read(Box::new(io::Cursor::new(input.into())), options)
            .collect()
    }

    /// Writes `records` to memory: the bytes, and what was dropped (lossy writing). The
    /// first refusal stops the writing.
    pub fn write_bytes(
        self,
        records: &[Record],
        options: &WriteOptions,
    ) -> Result<(Vec<u8>, Vec<String>), WriteError> {
        let mut out = Vec::new();
        let mut dropped = Vec::new();
        {
            let mut writer = self.writer(Box::new(&mut out), options);
            for record in records {
                dropped.extend(writer.write(record)?);
            }
            writer.finish()?;
        }
        Ok((out, dropped))
    }
}

/// What [`Format::write_each`] made of a list of records: the bytes, and what became of
/// each game that was not written whole.
#[derive(Debug, Default)]
pub struct WrittenEach {
    /// The output.
    pub bytes: Vec<u8>,
    /// Games written.
    pub written: usize,
    /// The games refused, each with its number and the refusal as the converter says it.
    pub refused: Vec<(usize, String)>,
    /// The games written lossily, each with its number and what was dropped.
    pub dropped: Vec<(usize, Vec<String>)>,
}

impl Format {
    /// Writes `records` (each with its game number) to memory one at a time, as a
    /// conversion does: a game the format refuses is left out and named with the refusal
    /// ([`WriteError::refusal`]), a game written lossily is named with what it lost; only
    /// an I/O error stops the writing.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// let text = "[Black \"Ann\"]\n\nf5 d6 *\n\n[Rules \"anti\"]\n\nf5 *\n";
    /// let games = Format::Rgn.read_bytes(text, &ReadOptions::default()).unwrap();
    /// let records = games.iter().map(|g| (g.index, g.record.as_ref().unwrap()));
    /// let out = Format::MoveString.write_each(records, &WriteOptions { lossy: true, ..Default::default() }).unwrap();
    /// assert_eq!(out.written, 2);
    /// assert_eq!(out.dropped[0].0, 1, "the tag is lost");
    /// let records = games.iter().map(|g| (g.index, g.record.as_ref().unwrap()));
    /// let out = Format::Wthor.write_each(records, &WriteOptions::default()).unwrap();
    /// assert!(out.refused.iter().any(|(game, why)| *game == 2 && why.starts_with("wthor cannot hold")));
    /// ```
    pub fn write_each<'r>(
        self,
        records: impl IntoIterator<Item = (usize, &'r Record)>,
        options: &WriteOptions,
    ) -> io::Result<WrittenEach> {
        let mut out = WrittenEach::default();
        let mut bytes = Vec::new();
        {
            let mut writer = self.writer(Box::new(&mut bytes), options);
            for (game, record) in records {
                match writer.write(record) {
                    Ok(losses) => {
                        out.written += 1;
                        if !losses.is_empty() {
                            out.dropped.push((game, losses));
                        }
                    }
                    Err(WriteError::Io(e)) => return Err(e),
                    Err(e) => {
                        let why = e
                            .refusal(&self.name(), options.lossy)
                            .unwrap_or_else(|| e.to_string());
                        out.refused.push((game, why));
                    }
                }
            }
            writer.finish()?;
        }
        out.bytes = bytes;
        Ok(out)
    }
}
