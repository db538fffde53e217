//! The one opener: a path, standard input or bytes (an upload, a Python `bytes`), read as
//! the caller says or as [`Format::detect`] finds (content first, the extension second),
//! with WTHOR's name files found beside the game file or where
//! [`InputOptions::names`] says.
//!
//! ```
//! use reversi_formats::{Detection, Format};
//! use reversi_runs::run::{open, InputOptions, InputSource};
//! let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../fixtures/cli/mixed.rgn");
//! let opened = open(InputSource::path(path), &InputOptions::default())?;
//! assert_eq!((opened.format(), opened.detection()), (Format::Rgn, Detection::Content));
//! let upload = InputSource::Bytes { name: "sheet.txt".into(), bytes: b"f5d6c3\n".to_vec() };
//! assert_eq!(open(upload, &InputOptions::default())?.format(), Format::MoveString);
//! let unknown = InputSource::Bytes { name: "notes".into(), bytes: b"<html>".to_vec() };
//! assert_eq!(open(unknown, &InputOptions::default()).unwrap_err().code(), "unknown-format");
//! # Ok::<(), reversi_runs::run::OpenError>(())
//! ```

use std::fmt;
use std::io;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use crate::engine::Rules;
use crate::formats::text::Utf16;
use crate::formats::{wthor, DetectError, Detection, Format, Games, ReadOptions};
use crate::pipeline::Input;

/// How inputs are read: what every reading run shares (the command line's `--from`,
/// `--rules` and `--names`, Python's `format=`, `rules=` and `names=`).
#[derive(Clone, Debug, Default)]
pub struct InputOptions {
    /// Read as this format instead of detecting it.
    pub from: Option<Format>,
    /// Rules for records that do not state theirs.
    pub rules: Option<Rules>,
    /// WTHOR's name files: a folder holding `WTHOR.JOU` and `WTHOR.TRN`, or the two files
    /// as `PLAYERS,TOURNAMENTS` (see [`wthor::Names::parse`]); default: beside the game file.
    pub names: Option<PathBuf>,
}

/// Where an input's bytes come from.
pub enum InputSource {
    /// Standard input (named `-`).
    Stdin,
    /// A file (its path is handed to the reader: WTHOR finds its name files beside it).
    Path(PathBuf),
    /// Bytes already in memory, under a name (an upload, a Python `bytes`).
    Bytes {
        /// The name shown in reports (and whose extension may name the format).
        name: String,
        /// The input.
        bytes: Vec<u8>,
    },
    /// Any reader, under a name (a file read through a hash or a limit, say).
    Reader {
        /// The name shown in reports (and whose extension may name the format).
        name: String,
        /// The input from its first byte.
        reader: Box<dyn io::Read + Send>,
        /// Its length, when known (it helps tell WTHOR files).
        len: Option<u64>,
        /// The file it reads, handed to the reader (WTHOR finds its name files beside it).
        path: Option<PathBuf>,
    },
}

impl fmt::Debug for InputSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InputSource::Stdin => f.write_str("Stdin"),
            InputSource::Path(path) => f.debug_tuple("Path").field(path).finish(),
            InputSource::Bytes { name, bytes } => f
                .debug_struct("Bytes")
                .field("name", name)
                .field("len", &bytes.len())
                .finish(),
            InputSource::Reader { name, len, .. } => f
                .debug_struct("Reader")
                .field("name", name)
                .field("len", len)
                .finish_non_exhaustive(),
        }
    }
}

impl InputSource {
    /// `path`, or standard input for `-`.
    pub fn path(path: impl Into<PathBuf>) -> InputSource {
        let path = path.into();
        match path == Path::new("-") {
            true => InputSource::Stdin,
            false => InputSource::Path(path),
        }
    }
}

/// Why an input could not be opened. Each has a stable [`code`](OpenError::code).
#[derive(Debug)]
pub enum OpenError {
    /// The file could not be opened (`io`).
    Open {
        /// The input's name.
        name: String,
        /// What failed.
        error: io::Error,
    },
    /// Its first bytes could not be read (`io`).
    Read {
        /// The input's name.
        name: String,
        /// What failed.
        error: io::Error,
    },
    /// Neither the content nor the name says what format it is (`unknown-format`).
    UnknownFormat {
        /// The input's name.
        name: String,
    },
    /// The name files given are not usable (`bad-names`).
    Names {
        /// What is wrong with them.
        message: String,
    },
}

impl OpenError {
    /// The error's stable code: `io`, `unknown-format` or `bad-names`.
    pub fn code(&self) -> &'static str {
        match self {
            OpenError::Open { .. } | OpenError::Read { .. } => "io",
            OpenError::UnknownFormat { .. } => "unknown-format",
            OpenError::Names { .. } => "bad-names",
        }
    }

    /// The input it names (`None` for name files that are not usable).
    pub fn name(&self) -> Option<&str> {
        match self {
            OpenError::Open { name, .. }
            | OpenError::Read { name, .. }
            | OpenError::UnknownFormat { name } => Some(name),
            OpenError::Names { .. } => None,
        }
    }

    /// The kind of I/O error it stands for (`InvalidData` for an unknown format,
    /// `InvalidInput` for name files).
    pub fn kind(&self) -> io::ErrorKind {
        match self {
            OpenError::Open { error, .. } | OpenError::Read { error, .. } => error.kind(),
            OpenError::UnknownFormat { .. } => io::ErrorKind::InvalidData,
            OpenError::Names { .. } => io::ErrorKind::InvalidInput,
        }
    }
}

impl fmt::Display for OpenError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            OpenError::Open { name, error } => write!(f, "{name}: cannot open: {error}"),
            OpenError::Read { name, error } => write!(f, "{name}: reading failed: {error}"),
            OpenError::UnknownFormat { name } => write!(f, "{name}: {}", DetectError::Unknown),
            OpenError::Names { message } => f.write_str(message),
        }
    }
}

impl std::error::Error for OpenError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            OpenError::Open { error, .. } | OpenError::Read { error, .. } => Some(error),
            _ => None,
        }
    }
}

impl From<OpenError> for io::Error {
    fn from(e: OpenError) -> io::Error {
        io::Error::new(e.kind(), e.to_string())
    }
}

/// An opened input: its format chosen, its reader at its first byte.
pub struct Opened {
    name: Arc<str>,
    format: Format,
    detection: Detection,
    reader: Box<dyn io::BufRead + Send + 'static>,
    read_options: ReadOptions,
    decoded_from: Option<Utf16>,
    names_note: Option<String>,
}

impl fmt::Debug for Opened {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Opened")
            .field("name", &self.name)
            .field("format", &self.format)
            .field("detection", &self.detection)
            .finish_non_exhaustive()
    }
}

impl Opened {
    /// The name reports give it (`-` for standard input).
    pub fn name(&self) -> &Arc<str> {
        &self.name
    }

    /// The format it is read as.
    pub fn format(&self) -> Format {
        self.format
    }

    /// How the format was chosen.
    pub fn detection(&self) -> Detection {
        self.detection
    }

    /// For WTHOR read without name files: where the reader looked for them (the players
    /// and tournaments are then shown by their numbers).
    pub fn names_note(&self) -> Option<&str> {
        self.names_note.as_deref()
    }

    /// Reads what is read of it through `tap` (a progress counter, say).
    pub fn tap(
        mut self,
        tap: impl FnOnce(Box<dyn io::BufRead + Send>) -> Box<dyn io::BufRead + Send>,
    ) -> Opened {
        self.reader = tap(self.reader);
        self
    }

    /// Its games, as the format's reader gives them.
    pub fn games(self) -> Games<'static> {
        self.format.read(self.reader, &self.read_options)
    }

    /// The input for the library's pipelines.
    pub fn into_input(self) -> Input {
        Input {
            format: self.format,
            reader: self.reader,
            options: self.read_options,
        }
    }

    /// A note saying how it is read: the format and why, the encoding it is decoded from,
    /// where WTHOR's name files were looked for when none were found, and the rules of
    /// records that do not state theirs.
    pub fn note(&self) -> String {
        let how = match self.detection {
            Detection::Given => "as given by --from",
            other => other.phrase(),
        };
        let mut note = format!("reading {} as {} ({how})", self.name, self.format);
        if let Some(encoding) = self.decoded_from {
            note.push_str(&format!(", decoded from {}", encoding.name()));
        }
        if let Some(names) = &self.names_note {
            note.push_str("; ");
            note.push_str(names);
        }
        match (self.read_options.rules, self.format) {
            (Some(rules), _) => note.push_str(&format!(
                "; records that do not state their rules are read as {rules} (--rules)"
            )),
            (None, Format::MoveString) => note.push_str(
                "; lines without a `%% rules:` line above them are read as othello on 8x8 (give other rules with --rules)",
            ),
            (None, _) => {}
        }
        note
    }
}

/// Opens `source` as `options` say. A path need not be UTF-8: it is named with the bytes
/// that are not replaced (`Path::display`).
pub fn open(source: InputSource, options: &InputOptions) -> Result<Opened, OpenError> {
    let names = options
        .names
        .as_deref()
        .map(wthor::Names::parse)
        .transpose()
        .map_err(|message| OpenError::Names { message })?;
    let (name, path, reader, len): (String, _, Box<dyn io::Read + Send>, _) = match source {
        InputSource::Stdin => ("-".to_owned(), None, Box::new(io::stdin()), None),
        InputSource::Path(path) => {
            let name = path.display().to_string();
            let file = match std::fs::File::open(&path) {
                Ok(file) => file,
                Err(error) => return Err(OpenError::Open { name, error }),
            };
            let len = file.metadata().ok().map(|m| m.len());
            (name, Some(path), Box::new(file), len)
        }
        InputSource::Bytes { name, bytes } => {
            let len = Some(bytes.len() as u64);
            (name, None, Box::new(io::Cursor::new(bytes)), len)
        }
        InputSource::Reader {
            name,
            reader,
            len,
            path,
        } => (name, path, reader, len),
    };
    let detected = match Format::detect(reader, &name, len, options.from) {
        Ok(detected) => detected,
        Err(DetectError::Read(error)) => return Err(OpenError::Read { name, error }),
        Err(DetectError::Unknown) => return Err(OpenError::UnknownFormat { name }),
    };
    let name: Arc<str> = Arc::from(name);
    let read_options = ReadOptions {
        name: name.clone(),
        path,
        rules: options.rules,
        names_dir: names.as_ref().and_then(wthor::Names::dir).map(Into::into),
        name_files: names.as_ref().and_then(wthor::Names::files).cloned(),
    };
    let names_note = (detected.format == Format::Wthor)
        .then(|| wthor::missing_names_note(&read_options))
        .flatten();
    Ok(Opened {
        name,
        format: detected.format,
        detection: detected.detection,
        reader: detected.input,
        read_options,
        decoded_from: detected.decoded_from,
        names_note,
    })
}
