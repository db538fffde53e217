//! The folder walk: the inputs a list of paths stands for. A folder stands for the record
//! files below it, in path order, each recognised by its content (a notes file named
//! `.txt` is not read as move strings); player registers and pairings tables found among
//! them are kept apart; anything else is skipped with a [`Skipped`] note, and so are hidden
//! files and WTHOR name files (which a game file's reader finds by itself, silently). FIFOs,
//! sockets and devices are never opened; a link to a folder is walked once. Paths named
//! themselves are taken as they are.
//!
//! ```
//! use reversi_runs::run::walk;
//! let event = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/director-event/incoming");
//! let walked = walk(&[event.into()])?;
//! assert!(walked.inputs.len() > 5);
//! assert_eq!((walked.registers.len(), walked.pairings.len()), (1, 1));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};

use crate::event::{Register, Schedule};
use crate::formats::{wthor, Format, Sniff};

/// What the paths of a run stand for.
#[derive(Debug, Default)]
pub struct Walked {
    /// The record files (and the paths named themselves), in order.
    pub inputs: Vec<PathBuf>,
    /// Player registers found in the folders (by content).
    pub registers: Vec<PathBuf>,
    /// Pairings or results tables found in the folders (by content).
    pub pairings: Vec<PathBuf>,
    /// The files found and not read, each with why.
    pub skipped: Vec<Skipped>,
}

/// A file found in a folder and not read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skipped {
    /// The file.
    pub path: PathBuf,
    /// Why, in words (`not a regular file (a FIFO)`).
    pub why: &'static str,
}

/// The inputs `paths` stand for: a folder stands for the record files below it, in path
/// order, each recognised by its content; registers and pairings tables are kept apart;
/// anything else is [`Skipped`] with why, FIFOs, sockets and devices without being opened.
pub fn walk(paths: &[PathBuf]) -> io::Result<Walked> {
    let mut out = Walked {
        inputs: Vec::with_capacity(paths.len()),
        ..Walked::default()
    };
    for path in paths {
        if path == Path::new("-") || !path.is_dir() {
            out.inputs.push(path.clone());
            continue;
        }
        let mut files = Vec::new();
        let mut seen = HashSet::new();
        walk_folder(path, &mut files, &mut seen)?;
        files.sort_by(|a, b| a.0.cmp(&b.0));
        for (file, kind) in files {
            let found = match kind {
                Entry::File => found(&file),
                Entry::Special(what) => Found::Skipped(what),
                Entry::Cycle => Found::Skipped("a folder already walked (by another path)"),
            };
            match found {
                Found::Record => out.inputs.push(file),
                Found::Register => out.registers.push(file),
                Found::Pairings => out.pairings.push(file),
                Found::Skipped(why) => out.skipped.push(Skipped { path: file, why }),
                Found::Quiet => {}
            }
        }
    }
    Ok(out)
}

/// What a folder walk found at a path.
enum Entry {
    /// A regular file, or a link to one.
    File,
    /// Something that is not a file: never opened (a FIFO would wait for a writer).
    Special(&'static str),
    /// A link to a folder walked already (a loop, or the same folder twice).
    Cycle,
}

/// Every file below `dir`: regular files (and links to them) to read, folders walked (a
/// link to a folder once: `seen` holds the folders walked), anything else named as what it
/// is, without opening it.
fn walk_folder(
    dir: &Path,
    out: &mut Vec<(PathBuf, Entry)>,
    seen: &mut HashSet<PathBuf>,
) -> io::Result<()> {
    let cannot = |e: io::Error| {
        io::Error::new(
            e.kind(),
            format!("{}: cannot read the folder: {e}", dir.display()),
        )
    };
    if let Ok(real) = std::fs::canonicalize(dir) {
        if !seen.insert(real) {
            out.push((dir.to_path_buf(), Entry::Cycle));
            return Ok(());
        }
    }
    for entry in std::fs::read_dir(dir).map_err(cannot)? {
        let entry = entry.map_err(cannot)?;
        let path = entry.path();
        if entry.file_name().to_string_lossy().starts_with('.') {
            continue;
        }
        // What a link points to; a broken link is read as named, to report its error.
        let kind = match entry.file_type() {
            Ok(kind) if kind.is_symlink() => std::fs::metadata(&path).map(|m| m.file_type()),
            other => other,
        };
        match kind {
            Ok(kind) if kind.is_dir() => walk_folder(&path, out, seen)?,
            Ok(kind) if kind.is_file() => out.push((path, Entry::File)),
            Ok(kind) => out.push((path, Entry::Special(special(&kind)))),
            Err(_) => out.push((path, Entry::File)),
        }
    }
    Ok(())
}

/// What a file that is neither a regular file nor a folder is, for the note that skips it.
fn special(kind: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if kind.is_fifo() {
            return "not a regular file (a FIFO)";
        }
        if kind.is_socket() {
            return "not a regular file (a socket)";
        }
        if kind.is_block_device() || kind.is_char_device() {
            return "not a regular file (a device)";
        }
    }
    let _ = kind;
    "not a regular file"
}

/// What becomes of a file found in a folder.
enum Found {
    /// A record file: read.
    Record,
    /// Left out without a word: a hidden file, or a WTHOR name file (read with the game
    /// files beside it).
    Quiet,
    /// A player register: read as one, not as games.
    Register,
    /// A pairings (or results) table: the event's pairings, not games.
    Pairings,
    /// Left out with a note saying why.
    Skipped(&'static str),
}

/// What becomes of the file `path`, found in a folder.
fn found(path: &Path) -> Found {
    use std::io::Read;
    let hidden = path
        .file_name()
        .is_some_and(|n| n.to_string_lossy().starts_with('.'));
    if hidden || wthor::is_name_file(path) {
        return Found::Quiet;
    }
    let mut head = Vec::with_capacity(4096);
    let opened = File::open(path).and_then(|file| {
        let len = file.metadata().ok().map(|m| m.len());
        file.take(4096).read_to_end(&mut head)?;
        Ok(len)
    });
    let Ok(len) = opened else {
        // Read as named, to report its error.
        return Found::Record;
    };
    if Register::looks_like(&head) {
        return Found::Register;
    }
    if Schedule::looks_like(&head) {
        return Found::Pairings;
    }
    match Format::sniff(&Sniff { head: &head, len }) {
        Some(_) => Found::Record,
        // A file that should hold games and does not is read as named, so that its error
        // is reported and changes the exit code: one named as a record format (a notes
        // file named `.txt` aside), or a table.
        None if claims_records(path) || looks_like_a_table(&head) => Found::Record,
        None => Found::Skipped("its content is not a game record of any format"),
    }
}

/// Whether the file's extension is a record format's (`.pgn`, `.ggf`, `.wtb`, ...), a
/// notes file's `.txt` aside.
fn claims_records(path: &Path) -> bool {
    let ext = path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase());
    match ext.as_deref() {
        None | Some("txt") => false,
        Some(ext) => Format::from_extension(ext).is_some(),
    }
}

/// Whether `head` is a table: at least two lines, each with the same number (one or more)
/// of `,`, `;` or tab separators.
fn looks_like_a_table(head: &[u8]) -> bool {
    let text = String::from_utf8_lossy(head);
    let mut lines = text.lines().filter(|l| !l.trim().is_empty());
    // The last line may be cut short by the head's end.
    let lines: Vec<&str> = lines.by_ref().take(6).collect();
    let complete = if lines.len() > 2 {
        &lines[..lines.len() - 1]
    } else {
        &lines[..]
    };
    if complete.len() < 2 {
        return false;
    }
    [',', ';', '\t'].iter().any(|&sep| {
        let count = |l: &str| l.matches(sep).count();
        let first = count(complete[0]);
        first > 0 && complete.iter().all(|l| count(l) == first)
    })
}

impl Walked {
    /// The notes saying that the registers and pairings tables found (those `registers`
    /// and `pairings` say) are not read, for a run that has no use for them.
    pub fn unused_event_files(&self, registers: bool, pairings: bool) -> Vec<String> {
        let registers = self.registers.iter().filter(|_| registers).map(|path| {
            format!(
                "{}: skipped, a player register, not game records",
                path.display()
            )
        });
        let pairings = self.pairings.iter().filter(|_| pairings).map(|path| {
            format!(
                "{}: skipped, a pairings or results table, not game records",
                path.display()
            )
        });
        registers.chain(pairings).collect()
    }

    /// The player register: the file `given`, or the one register found in the folders
    /// (with a note in `notes`); none without either. Two found are an error
    /// (`InvalidInput`): the caller names one.
    pub fn register(
        &self,
        given: Option<&Path>,
        notes: &mut Vec<String>,
    ) -> io::Result<Option<Register>> {
        let path = match (given, &self.registers[..]) {
            (Some(path), _) => path,
            (None, []) => return Ok(None),
            (None, [one]) => {
                notes.push(format!(
                    "{}: read as the player register (names are read through it)",
                    one.display()
                ));
                one
            }
            (None, several) => {
                let names: Vec<String> = several.iter().map(|p| p.display().to_string()).collect();
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!(
                        "{} player registers found ({}): name the one to use with --players",
                        several.len(),
                        names.join(", ")
                    ),
                ));
            }
        };
        Register::read(path).map(Some)
    }

    /// The event's pairings: the file `given`, or the first pairings table found in the
    /// folders (in path order, as the desk takes the first in its folder), with a note in
    /// `notes` naming it and any other left aside; none without either.
    pub fn pairings(
        &self,
        given: Option<&Path>,
        notes: &mut Vec<String>,
    ) -> io::Result<Option<Schedule>> {
        let found = &self.pairings[..];
        let path = match (given, found) {
            (Some(path), _) => {
                for other in found.iter().filter(|f| f.as_path() != path) {
                    notes.push(format!(
                        "{}: skipped, a pairings table (--pairings names another)",
                        other.display()
                    ));
                }
                path
            }
            (None, []) => return Ok(None),
            (None, [first, others @ ..]) => {
                notes.push(format!("{}: read as the pairings", first.display()));
                for other in others {
                    notes.push(format!(
                        "{}: skipped, a second pairings or results table (--pairings names the one to use)",
                        other.display()
                    ));
                }
                first
            }
        };
        Schedule::read(path).map(Some)
    }
}
