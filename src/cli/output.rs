//! Where a command writes: standard output, or a file through the library's
//! [`AtomicFile`] (replaced only when the run succeeds; see `reversi_formats::output`), and
//! how a write to standard output that fails ends a command.

use std::ffi::OsStr;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use reversi_formats::output::{self as lib, AtomicFile};

/// An output being written.
pub(crate) enum Output {
    /// Standard output.
    Stdout(io::BufWriter<io::Stdout>),
    /// A file (or a FIFO, a device: written directly).
    File(io::BufWriter<AtomicFile>),
}

/// Whether `target` is `-`, standard output.
pub(crate) fn is_stdout(target: &OsStr) -> bool {
    target == "-"
}

impl Output {
    /// Opens `target` (`-` for standard output) for a run that reads `inputs` (paths, `-`
    /// for standard input). Refuses a target that is the same file as an input.
    pub(crate) fn create(target: impl AsRef<OsStr>, inputs: &[&Path]) -> io::Result<Output> {
        let target = target.as_ref();
        if is_stdout(target) {
            lib::refuse_inputs_on_stdout(inputs)?;
            return Ok(Output::Stdout(io::BufWriter::new(io::stdout())));
        }
        let file = AtomicFile::create_guarded(Path::new(target), inputs)?;
        Ok(Output::File(io::BufWriter::with_capacity(64 * 1024, file)))
    }

    /// The name to show in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "standard output".into(),
            Output::File(file) => file.get_ref().target().display().to_string(),
        }
    }

    /// What becomes of the target when the run is abandoned: a sentence for a note
    /// (`None` for standard output and targets written directly).
    pub(crate) fn abandoned(&self) -> Option<String> {
        match self {
            Output::Stdout(_) => None,
            Output::File(file) => file.get_ref().abandoned().map(|a| a.to_string()),
        }
    }

    /// The error for a failed write to this output, naming it and saying what becomes of
    /// the target.
    pub(crate) fn write_failed(&self, e: io::Error) -> io::Error {
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
    /// for standard output.
    pub(crate) fn staged(&self) -> Option<&Path> {
        match self {
            Output::Stdout(_) => None,
            Output::File(file) => file.get_ref().staging_path(),
        }
    }

    /// Flushes what was written so far, so that the staged file can be read back.
    pub(crate) fn flush(&mut self) -> io::Result<()> {
        self.writer().flush()
    }

    /// The bytes go here.
    pub(crate) fn writer(&mut self) -> &mut (dyn Write + Send) {
        match self {
            Output::Stdout(out) => out,
            Output::File(file) => file,
        }
    }

    /// Finishes the output: flushes standard output, or puts the file in place of the
    /// target (keeping the target's permissions when it existed).
    pub(crate) fn commit(self) -> io::Result<()> {
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

/// Writes `bytes` to `target` (`-` for standard output) as [`Output`] does: atomically,
/// refusing a target that is one of `inputs`. A closed standard output is a
/// [`io::ErrorKind::BrokenPipe`] error, for the caller to end quietly.
pub(crate) fn write_whole(
    target: impl AsRef<OsStr>,
    inputs: &[&Path],
    bytes: &[u8],
) -> io::Result<()> {
    let mut output = Output::create(target, inputs)?;
    if let Err(e) = output.writer().write_all(bytes) {
        return Err(output_error(&output, e));
    }
    match output.commit() {
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Err(e),
        other => other,
    }
}

/// A failed write: a closed pipe (standard output, or a FIFO whose reader went away) stays
/// a plain broken pipe (the command ends quietly), any other error names the output.
fn output_error(output: &Output, e: io::Error) -> io::Error {
    if is_closed_pipe(&e) {
        e
    } else {
        output.write_failed(e)
    }
}

/// Whether `e` is a closed standard output (the reader went away: `| head`).
pub(crate) fn is_closed_pipe(e: &io::Error) -> bool {
    e.kind() == io::ErrorKind::BrokenPipe
}

/// A write to standard output that failed: a broken pipe is kept as it is (the command
/// ends quietly with its status); any other error names standard output.
pub(crate) fn stdout_failed(e: io::Error) -> io::Error {
    if is_closed_pipe(&e) || e.to_string().starts_with("standard output") {
        return e;
    }
    io::Error::new(e.kind(), format!("standard output: writing failed: {e}"))
}

/// Ends a command whose work wrote its whole output to `target` with [`write_whole`]: a
/// closed pipe ends it quietly with `status`; other errors name standard output, or are
/// returned as they are for a file (they name it already).
pub(crate) fn finish_whole(
    target: impl AsRef<OsStr>,
    result: io::Result<()>,
    status: u8,
) -> io::Result<u8> {
    match result {
        Err(e) if !is_stdout(target.as_ref()) && !is_closed_pipe(&e) => Err(e),
        result => finish_stdout(result, status),
    }
}

/// Ends a command whose work wrote to standard output: a closed standard output ends it
/// quietly with `status` (what it found so far), other errors name standard output.
pub(crate) fn finish_stdout(result: io::Result<()>, status: u8) -> io::Result<u8> {
    match result {
        Ok(()) => Ok(status),
        Err(e) if is_closed_pipe(&e) => Ok(status),
        Err(e) => Err(stdout_failed(e)),
    }
}

/// The WTHOR name files a reader of `inputs` may read: `WTHOR.JOU` and `WTHOR.TRN` beside
/// each input and in `names_dir`. They are inputs too: an output must not replace them.
pub(crate) fn name_files(inputs: &[impl AsRef<Path>], names_dir: Option<&Path>) -> Vec<PathBuf> {
    reversi_formats::wthor::name_files_beside(inputs, names_dir)
}

/// An [`Output`] that a writer owns a handle of (a format's writer owns what it writes
/// to), given back whole once every handle is dropped, to be committed.
pub(crate) struct SharedOutput(std::sync::Arc<std::sync::Mutex<Output>>);

impl SharedOutput {
    pub(crate) fn new(output: Output) -> SharedOutput {
        SharedOutput(std::sync::Arc::new(std::sync::Mutex::new(output)))
    }

    /// A handle that writes to the output.
    pub(crate) fn handle(&self) -> SharedOutput {
        SharedOutput(std::sync::Arc::clone(&self.0))
    }

    /// The output, once no other handle is left.
    pub(crate) fn into_output(self) -> io::Result<Output> {
        std::sync::Arc::try_unwrap(self.0)
            .map_err(|_| io::Error::other("an output is still being written"))?
            .into_inner()
            .map_err(|_| io::Error::other("an output's writer failed"))
    }

    fn lock(&self) -> io::Result<std::sync::MutexGuard<'_, Output>> {
        self.0
            .lock()
            .map_err(|_| io::Error::other("an output's writer failed"))
    }

    /// What [`Output::write_failed`] says of `e`.
    pub(crate) fn failed(&self, e: io::Error) -> io::Error {
        match self.lock() {
            Ok(output) => output.write_failed(e),
            Err(_) => e,
        }
    }

    /// Whether the output is staged ([`Output::staged`]).
    pub(crate) fn is_staged(&self) -> bool {
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
