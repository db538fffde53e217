//! Where a run writes: standard output, or a file through [`AtomicFile`] (staged beside
//! its target and put in place only when the run succeeds), and a handle of it that a
//! format's writer can own.
//!
//! ```
//! use std::io::Write;
//! use reversi_runs::run::Output;
//! let dir = tempfile::tempdir()?;
//! let target = dir.path().join("games.txt");
//! let mut output = Output::create(&target, &[])?;
//! output.writer().write_all(b"f5d6c3\n")?;
//! assert!(!target.exists(), "staged until committed");
//! output.commit()?;
//! assert_eq!(std::fs::read(&target)?, b"f5d6c3\n");
//! # Ok::<(), std::io::Error>(())
//! ```

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::Path;
use std::sync::{Arc, Mutex, MutexGuard};

use crate::output::{refuse_inputs_on_stdout, AtomicFile};

/// An output being written.
#[derive(Debug)]
pub enum Output {
    /// Standard output.
    Stdout(io::BufWriter<io::Stdout>),
    /// A file (staged; a FIFO or a device is written directly).
    File(io::BufWriter<AtomicFile>),
}

/// Whether `target` is `-`, standard output.
pub fn is_stdout(target: &OsStr) -> bool {
    target == "-"
}

impl Output {
    /// Opens `target` (`-` for standard output) for a run that reads `inputs` (paths, `-`
    /// for standard input). Refuses a target that is the same file as an input.
    pub fn create(target: impl AsRef<OsStr>, inputs: &[&Path]) -> io::Result<Output> {
        let target = target.as_ref();
        if is_stdout(target) {
            refuse_inputs_on_stdout(inputs)?;
            return Ok(Output::Stdout(io::BufWriter::new(io::stdout())));
        }
        let file = AtomicFile::create_guarded(Path::new(target), inputs)?;
        Ok(Output::File(io::BufWriter::with_capacity(64 * 1024, file)))
    }

    /// The name to show in messages.
    pub fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "standard output".into(),
            Output::File(file) => file.get_ref().target().display().to_string(),
        }
    }

    /// What becomes of the target when the run is abandoned: a sentence for a note
    /// (`None` for standard output and targets written directly).
    pub fn abandoned(&self) -> Option<String> {
        match self {
            Output::Stdout(_) => None,
            Output::File(file) => file.get_ref().abandoned().map(|a| a.to_string()),
        }
    }

    /// The error for a failed write to this output, naming it and saying what becomes of
    /// the target.
    pub fn write_failed(&self, e: io::Error) -> io::Error {
        let kept = self
            .abandoned()
            .map(|a| format!("; {a}"))
            .unwrap_or_default();
        io::Error::new(
            e.kind(),
            format!("{}: writing failed: {e}{kept}", self.name()),
        )
    }

    /// Where a file output is staged until [`Output::commit`] puts it in place; `None`
    /// for standard output and targets written directly.
    pub fn staged(&self) -> Option<&Path> {
        match self {
            Output::Stdout(_) => None,
            Output::File(file) => file.get_ref().staging_path(),
        }
    }

    /// Flushes what was written so far, so that the staged file can be read back.
    pub fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }

    /// The bytes go here.
    pub fn writer(&mut self) -> &mut (dyn Write + Send) {
        match self {
            Output::Stdout(out) => out,
            Output::File(file) => file,
        }
    }

    /// Finishes the output: flushes standard output, or puts the file in place of the
    /// target (keeping the target's permissions when it existed).
    pub fn commit(self) -> io::Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush(),
            Output::File(file) => {
                let name = file.get_ref().target().display().to_string();
                let file = match file.into_inner() {
                    Ok(file) => file,
                    Err(e) => {
                        let (e, writer) = e.into_parts();
                        let kept = writer
                            .get_ref()
                            .abandoned()
                            .map(|a| format!("; {a}"))
                            .unwrap_or_default();
                        return Err(io::Error::new(
                            e.kind(),
                            format!("{name}: writing failed: {e}{kept}"),
                        ));
                    }
                };
                file.commit()
            }
        }
    }
}

/// An [`Output`] that a writer owns a handle of (a format's writer owns what it writes
/// to), given back whole once every handle is dropped, to be committed.
#[derive(Debug)]
pub struct SharedOutput(Arc<Mutex<Output>>);

impl SharedOutput {
    /// `output`, to hand out handles of.
    pub fn new(output: Output) -> SharedOutput {
        SharedOutput(Arc::new(Mutex::new(output)))
    }

    /// A handle that writes to the output.
    pub fn handle(&self) -> SharedOutput {
        SharedOutput(Arc::clone(&self.0))
    }

    /// The output, once no other handle is left.
    pub fn into_output(self) -> io::Result<Output> {
        Arc::try_unwrap(self.0)
            .map_err(|_| io::Error::other("an output is still being written"))?
            .into_inner()
            .map_err(|_| io::Error::other("an output's writer failed"))
    }

    fn lock(&self) -> io::Result<MutexGuard<'_, Output>> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("an output's writer failed"))
    }

    /// What [`Output::write_failed`] says of `e`.
    pub fn failed(&self, e: io::Error) -> io::Error {
        match self.lock() {
            Ok(output) => output.write_failed(e),
            Err(_) => e,
        }
    }

    /// Whether the output is staged ([`Output::staged`]).
    pub fn is_staged(&self) -> bool {
        self.lock().is_ok_and(|o| o.staged().is_some())
    }
}

impl Write for SharedOutput {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.lock()?.writer().write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.lock()?.writer().write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.lock()?.writer().flush()
    }
}
