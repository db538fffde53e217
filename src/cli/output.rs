//! Where a command writes: standard output, or a file through the library's [`Output`]
//! (staged, and put in place only when the run succeeds), and how a write to standard
//! output that fails ends a command.

use std::ffi::OsStr;
use std::io;
use std::path::{Path, PathBuf};

pub(crate) use reversi_runs::run::{is_stdout, Output, SharedOutput};

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
