//! Reading an output back before it is put in place: what every run that writes games does
//! (the command line's `convert`, Python's `convert`). Each game written leaves its
//! [`Fingerprint`] in a spool, an unnamed temporary file beside the output (16 bytes a
//! game, so memory stays flat); once the writer is done, the staged file is read as its
//! format and each game compared with what was written. A difference names the game, and
//! the output is not put in place.
//!
//! ```
//! use reversi_formats::{Format, ReadOptions, WriteOptions};
//! use reversi_runs::pipeline::conversion::{Conversion, Event as Converted, Outcome};
//! use reversi_runs::pipeline::Input;
//! use reversi_runs::run::ReadBack;
//! let dir = tempfile::tempdir()?;
//! let target = dir.path().join("out.rgn");
//! let input = Input {
//!     format: Format::MoveString,
//!     reader: Box::new(&b"f5d6c3\nf5f6e6\n"[..]),
//!     options: ReadOptions::default(),
//! };
//! let conversion = Conversion::new().target(Format::Rgn, &WriteOptions::default(), &ReadOptions::default());
//! let mut back = ReadBack::beside(&target)?;
//! let mut text = Vec::new();
//! {
//!     let mut writer = Format::Rgn.writer(Box::new(&mut text), &WriteOptions::default());
//!     conversion.run([("moves.txt", Some(input))].into_iter(), &mut *writer, |event| {
//!         if let Converted::Game(_, Outcome::Written(written)) = event {
//!             back.push(written.fingerprint)?;
//!         }
//!         Ok(())
//!     })?;
//!     writer.finish()?;
//! }
//! std::fs::write(&target, &text)?;
//! back.check(&conversion, Format::Rgn, &target, &ReadOptions::default())?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::fs::File;
use std::io::{self, BufReader, BufWriter, Read, Seek, Write};
use std::path::Path;

use crate::formats::{Format, ReadOptions};
use crate::pipeline::conversion::{Conversion, Fingerprint, Mismatch};
use crate::pipeline::Input;

/// The fingerprints of the games written to one output, to read it back with.
#[derive(Debug)]
pub struct ReadBack {
    spool: BufWriter<File>,
}

/// Why an output does not read back.
#[derive(Debug)]
pub enum ReadBackError {
    /// The written file, or the spool of what was written, could not be read.
    Unreadable(io::Error),
    /// A game reads back otherwise than it was written (a bug in a writer or a reader).
    Mismatch {
        /// Which game, and what differs.
        mismatch: Mismatch,
        /// The output's format.
        target: Format,
    },
}

impl fmt::Display for ReadBackError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadBackError::Unreadable(e) => write!(f, "cannot read the written file back: {e}"),
            ReadBackError::Mismatch { mismatch, target } => write!(
                f,
                "the written file does not read back as written: {mismatch} (a bug in the {target} writer or reader; please report it)"
            ),
        }
    }
}

impl std::error::Error for ReadBackError {}

impl ReadBack {
    /// Whether an output of `target` is read back: every format but OBF, which keeps each
    /// game's final position only.
    pub fn applies(target: Format) -> bool {
        target != Format::Obf
    }

    /// A spool in the folder of `output` (staged beside it, as the output is).
    pub fn beside(output: &Path) -> io::Result<ReadBack> {
        let dir = match output.parent() {
            Some(dir) if !dir.as_os_str().is_empty() => dir,
            _ => Path::new("."),
        };
        let file = crate::output::unnamed_in(dir).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create a temporary file in {}: {e}", dir.display()),
            )
        })?;
        Ok(ReadBack {
            spool: BufWriter::new(file),
        })
    }

    /// One more game written, as it must read back.
    pub fn push(&mut self, fingerprint: Fingerprint) -> io::Result<()> {
        self.spool.write_all(&fingerprint.to_bytes())
    }

    /// Reads the file at `written` as `target` and compares it game by game with what was
    /// pushed, as `conversion` reads (its rules for records that do not state theirs).
    pub fn check(
        self,
        conversion: &Conversion,
        target: Format,
        written: &Path,
        options: &ReadOptions,
    ) -> Result<(), ReadBackError> {
        let file = File::open(written).map_err(ReadBackError::Unreadable)?;
        let input = Input {
            format: target,
            reader: Box::new(BufReader::with_capacity(256 * 1024, file)),
            options: options.clone(),
        };
        let pushed = self.pushed().map_err(|e| {
            ReadBackError::Unreadable(io::Error::new(
                e.kind(),
                format!("the games written cannot be read: {e}"),
            ))
        })?;
        match conversion.verify(input, pushed) {
            Ok(None) => Ok(()),
            Ok(Some(mismatch)) => Err(ReadBackError::Mismatch { mismatch, target }),
            Err(e) => Err(ReadBackError::Unreadable(e)),
        }
    }

    /// The fingerprints pushed, in order.
    fn pushed(self) -> io::Result<impl Iterator<Item = io::Result<Fingerprint>>> {
        let mut file = self.spool.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        let mut file = BufReader::new(file);
        Ok(std::iter::from_fn(move || {
            let mut bytes = [0; 16];
            match file.read_exact(&mut bytes) {
                Ok(()) => Some(Ok(Fingerprint::from_bytes(bytes))),
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => None,
                Err(e) => Some(Err(e)),
            }
        }))
    }
}
