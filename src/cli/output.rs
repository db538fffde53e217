//! Where a command writes: standard output, or a file that is replaced only when the run
//! succeeds.
//!
//! A file output is written to a temporary file in the target's directory and renamed over
//! the target by [`Output::commit`]; a run that fails, is refused or is interrupted
//! (SIGINT, SIGTERM: see [`install_signal_handler`]) leaves the target as it was. Before
//! anything is opened for writing, a target that is the same file as an input (by device
//! and inode, so hard links, symbolic links, `/dev/stdin` and standard input redirected
//! from the target are all caught) is refused.

use std::fs::{self, File, Metadata};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Temporary files to remove if the process is interrupted.
static TEMPORARIES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Removes every temporary output and exits with 130 on SIGINT, SIGTERM or SIGHUP.
pub(crate) fn install_signal_handler() {
    let _ = ctrlc::set_handler(|| {
        if let Ok(paths) = TEMPORARIES.lock() {
            for path in paths.iter() {
                let _ = fs::remove_file(path);
            }
        }
        std::process::exit(130);
    });
}

fn register(path: &Path) {
    if let Ok(mut paths) = TEMPORARIES.lock() {
        paths.push(path.to_path_buf());
    }
}

fn unregister(path: &Path) {
    if let Ok(mut paths) = TEMPORARIES.lock() {
        paths.retain(|p| p != path);
    }
}

/// An output being written.
pub(crate) enum Output {
    /// Standard output.
    Stdout(io::BufWriter<io::Stdout>),
    /// A file, written to a temporary file beside it first.
    File {
        temp: io::BufWriter<tempfile::NamedTempFile>,
        target: PathBuf,
        /// Whether the target existed when the run began.
        existed: bool,
    },
}

impl Output {
    /// Opens `target` (`-` for standard output) for a run that reads `inputs` (paths, `-`
    /// for standard input). Refuses a target that is the same file as an input.
    pub(crate) fn create(target: &str, inputs: &[&Path]) -> io::Result<Output> {
        let inputs: Vec<(String, Metadata)> = inputs
            .iter()
            .filter_map(|p| input_metadata(p).map(|m| (p.display().to_string(), m)))
            .collect();
        if target == "-" {
            if let Some(stdout) = stdout_metadata() {
                if let Some((name, _)) = inputs.iter().find(|(_, m)| same_file(m, &stdout)) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidInput,
                        format!("standard output is the input {name}; writing would destroy it"),
                    ));
                }
            }
            return Ok(Output::Stdout(io::BufWriter::new(io::stdout())));
        }
        let path = PathBuf::from(target);
        let existed = fs::symlink_metadata(&path).is_ok();
        if let Ok(existing) = fs::metadata(&path) {
            if let Some((name, _)) = inputs.iter().find(|(_, m)| same_file(m, &existing)) {
                let what = if name == "-" {
                    "standard input".to_owned()
                } else {
                    format!("the input {name}")
                };
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{target}: the output is {what}; writing it would destroy the input"),
                ));
            }
            if existing.is_dir() {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{target}: the output is a directory"),
                ));
            }
        }
        let dir = match path.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let file_name = path
            .file_name()
            .map_or_else(|| "output".into(), |n| n.to_string_lossy().into_owned());
        let temp = tempfile::Builder::new()
            .prefix(&format!(".{file_name}."))
            .suffix(".tmp")
            .tempfile_in(&dir)
            .map_err(|e| {
                io::Error::new(
                    e.kind(),
                    format!(
                        "{target}: cannot create a temporary file in {}: {e}",
                        dir.display()
                    ),
                )
            })?;
        register(temp.path());
        Ok(Output::File {
            temp: io::BufWriter::with_capacity(64 * 1024, temp),
            target: path,
            existed,
        })
    }

    /// The name to show in messages.
    pub(crate) fn name(&self) -> String {
        match self {
            Output::Stdout(_) => "standard output".into(),
            Output::File { target, .. } => target.display().to_string(),
        }
    }

    /// What becomes of the target when the run is abandoned: a sentence for a note.
    pub(crate) fn abandoned(&self) -> Option<String> {
        match self {
            Output::Stdout(_) => None,
            Output::File {
                target, existed, ..
            } => Some(if *existed {
                format!("{} is left as it was", target.display())
            } else {
                format!("{} is not written", target.display())
            }),
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
            Output::File { temp, .. } => Some(temp.get_ref().path()),
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
            Output::File { temp, .. } => temp,
        }
    }

    /// Finishes the output: flushes standard output, or puts the file in place of the
    /// target (keeping the target's permissions when it existed).
    pub(crate) fn commit(self) -> io::Result<()> {
        match self {
            Output::Stdout(mut out) => out.flush(),
            Output::File { temp, target, .. } => {
                let name = target.display().to_string();
                let fail = |what: &str, e: io::Error| {
                    io::Error::new(e.kind(), format!("{name}: {what}: {e}"))
                };
                let temp = temp
                    .into_inner()
                    .map_err(|e| fail("writing failed", e.into_error()))?;
                temp.as_file()
                    .sync_all()
                    .map_err(|e| fail("writing failed", e))?;
                let permissions = match fs::metadata(&target) {
                    Ok(m) => m.permissions(),
                    Err(_) => default_permissions(temp.as_file())?,
                };
                let _ = fs::set_permissions(temp.path(), permissions);
                let path = temp.path().to_path_buf();
                let result = temp.persist(&target);
                unregister(&path);
                result.map_err(|e| fail("cannot put the output in place", e.error))?;
                Ok(())
            }
        }
    }
}

/// Writes `bytes` to `target` (`-` for standard output) as [`Output`] does: atomically,
/// refusing a target that is one of `inputs`.
pub(crate) fn write_whole(target: &str, inputs: &[&Path], bytes: &[u8]) -> io::Result<()> {
    let mut output = Output::create(target, inputs)?;
    let name = output.name();
    output
        .writer()
        .write_all(bytes)
        .map_err(|e| io::Error::new(e.kind(), format!("{name}: writing failed: {e}")))?;
    output.commit()
}

/// What a new file gets: read and write for everyone the umask allows (tempfile makes its
/// files private).
#[cfg(unix)]
fn default_permissions(_file: &File) -> io::Result<fs::Permissions> {
    use std::os::unix::fs::PermissionsExt;
    Ok(fs::Permissions::from_mode(0o644))
}

#[cfg(not(unix))]
fn default_permissions(file: &File) -> io::Result<fs::Permissions> {
    Ok(file.metadata()?.permissions())
}

/// The metadata of an input (`-` is standard input), when it can be had.
fn input_metadata(path: &Path) -> Option<Metadata> {
    if path == Path::new("-") {
        return stdin_metadata();
    }
    fs::metadata(path).ok()
}

#[cfg(unix)]
fn stdin_metadata() -> Option<Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdin().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

#[cfg(unix)]
fn stdout_metadata() -> Option<Metadata> {
    use std::os::fd::AsFd;
    let fd = io::stdout().as_fd().try_clone_to_owned().ok()?;
    File::from(fd).metadata().ok()
}

#[cfg(not(unix))]
fn stdin_metadata() -> Option<Metadata> {
    None
}

#[cfg(not(unix))]
fn stdout_metadata() -> Option<Metadata> {
    None
}

/// Whether two files are one (same device and inode). Only regular files count: two
/// terminals or pipes are not "the same input and output" in the sense that matters here.
#[cfg(unix)]
fn same_file(a: &Metadata, b: &Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    a.is_file() && b.is_file() && a.dev() == b.dev() && a.ino() == b.ino()
}

#[cfg(not(unix))]
fn same_file(_a: &Metadata, _b: &Metadata) -> bool {
    false
}

/// The WTHOR name files a reader of `inputs` may read: `WTHOR.JOU` and `WTHOR.TRN` beside
/// each input and in `names_dir`. They are inputs too: an output must not replace them.
pub(crate) fn name_files(inputs: &[String], names_dir: Option<&Path>) -> Vec<PathBuf> {
    let dirs = inputs
        .iter()
        .filter(|i| *i != "-")
        .map(|i| {
            Path::new(i)
                .parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new("."))
                .to_path_buf()
        })
        .chain(names_dir.map(Path::to_path_buf))
        .collect::<std::collections::BTreeSet<_>>();
    let mut files = Vec::new();
    for dir in dirs {
        if let Ok(entries) = fs::read_dir(&dir) {
            for entry in entries.flatten() {
                let name = entry.file_name();
                let name = name.to_string_lossy();
                if name.eq_ignore_ascii_case("WTHOR.JOU") || name.eq_ignore_ascii_case("WTHOR.TRN")
                {
                    files.push(entry.path());
                }
            }
        }
    }
    files
}
