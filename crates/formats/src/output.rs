//! Writing a file so that a failed, refused or interrupted run leaves it as it was.
//!
//! An [`AtomicFile`] is written to a short-named temporary file beside its target and
//! renamed over the target by [`AtomicFile::commit`]; dropped without a commit, it removes
//! its temporary. What the target is decides how it is written:
//!
//! * a regular file, or no file yet: staged and renamed. A new file gets the permissions
//!   the umask gives (the temporary is made with `create_new` and mode 0666 less the umask);
//!   a file that was there keeps its mode (and, where allowed, its owner and group);
//! * a symbolic link: followed, and the file it points to is replaced in its own folder, so
//!   the link stays a link;
//! * anything else that exists (a FIFO, a terminal, `/dev/null`): written directly, with no
//!   temporary and no rename, so it stays what it is;
//! * `/dev/stdout`, `/dev/stderr`, `/dev/fd/N`, `/proc/self/fd/N`: the process's own
//!   descriptor N, written directly (appending where the shell opened it with `>>`).
//!
//! Every temporary file alive is listed in a registry that a signal handler (running in a
//! thread of its own, not in the async-signal context) can empty with
//! [`remove_temporaries`]. [`refuse_inputs`] refuses a target that is the same file as an
//! input (same device and inode: hard links, symbolic links and `/dev/stdin` are caught;
//! the WTHOR name files a reader may read are inputs too:
//! [`name_files_beside`](crate::wthor::name_files_beside)).
//!
//! ```
//! use std::io::Write;
//! use reversi_formats::output::AtomicFile;
//!
//! let dir = std::env::temp_dir().join(format!("atomic-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let target = dir.join("games.rgn");
//! std::fs::write(&target, "old")?;
//! let mut out = AtomicFile::create(&target)?;
//! out.write_all(b"new")?;
//! assert_eq!(std::fs::read_to_string(&target)?, "old"); // not yet in place
//! out.commit()?;
//! assert_eq!(std::fs::read_to_string(&target)?, "new");
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::hash_map::RandomState;
use std::fmt;
use std::fs::{self, File, Metadata, OpenOptions};
use std::hash::{BuildHasher, Hasher};
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, MutexGuard};

/// A file output replaced only on [`commit`](AtomicFile::commit) (see the [module](self)).
#[derive(Debug)]
pub struct AtomicFile {
    file: File,
    /// The target as given, for messages.
    target: PathBuf,
    staging: Staging,
}

#[derive(Debug)]
enum Staging {
    /// Written to `temp`, renamed over `real` (the target with its links followed).
    Staged {
        temp: PathBuf,
        real: PathBuf,
        /// Whether the target existed when it was opened.
        existed: bool,
        committed: bool,
    },
    /// Written straight to the target, which is not a regular file.
    Direct,
}

/// What became of a target whose run was abandoned: it was left as it was, or (it did not
/// exist) it was not written. Its `Display` is a sentence for a note.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Abandoned {
    /// The target, as it was given.
    pub target: PathBuf,
    /// Whether it existed when the output was opened.
    pub existed: bool,
}

impl fmt::Display for Abandoned {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.existed {
            write!(f, "{} is left as it was", self.target.display())
        } else {
            write!(f, "{} is not written", self.target.display())
        }
    }
}

/// A temporary file alive, and the target it stands for.
struct Live {
    temp: PathBuf,
    abandoned: Abandoned,
}

static LIVE: Mutex<Vec<Live>> = Mutex::new(Vec::new());

fn live() -> MutexGuard<'static, Vec<Live>> {
    LIVE.lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn unregister(temp: &Path) {
    live().retain(|l| l.temp != temp);
}

/// Removes every temporary file of an [`AtomicFile`] not yet committed or dropped, and
/// says what became of their targets. For a signal handler about to end the process: call
/// it from a thread (it takes a lock and removes files, which a handler in the signal's own
/// context must not do).
///
/// ```
/// use reversi_formats::output::{remove_temporaries, AtomicFile};
///
/// let dir = std::env::temp_dir().join(format!("atomic-signal-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let out = AtomicFile::create(dir.join("out.rgn"))?;
/// let abandoned = remove_temporaries();
/// assert!(abandoned.iter().any(|a| a.to_string().ends_with("out.rgn is not written")));
/// assert_eq!(std::fs::read_dir(&dir)?.count(), 0);
/// drop(out);
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn remove_temporaries() -> Vec<Abandoned> {
    let mut live = live();
    live.drain(..)
        .map(|l| {
            let _ = fs::remove_file(&l.temp);
            l.abandoned
        })
        .collect()
}

/// The error `e` with the target's name and what failed in front.
fn named(target: &Path, what: &str, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), format!("{}: {what}: {e}", target.display()))
}

/// What a target turned out to be once its links were followed.
enum Resolved {
    /// A regular file, or nothing yet: staged beside `real`.
    Regular {
        real: PathBuf,
        existing: Option<Metadata>,
    },
    /// A FIFO, a device, a socket: written directly.
    Special(PathBuf),
    /// One of the process's own descriptors.
    #[cfg(unix)]
    Descriptor(i32),
}

/// At most this many symbolic links are followed (as Linux's own limit).
const MAX_LINKS: usize = 40;

fn resolve(target: &Path) -> io::Result<Resolved> {
    let mut path = target.to_path_buf();
    for _ in 0..MAX_LINKS {
        #[cfg(unix)]
        if let Some(fd) = own_descriptor(&path) {
            return Ok(Resolved::Descriptor(fd));
        }
        match fs::symlink_metadata(&path) {
            Ok(m) if m.file_type().is_symlink() => {
                let link = fs::read_link(&path)?;
                path = match path.parent() {
                    Some(parent) if link.is_relative() => parent.join(link),
                    _ => link,
                };
            }
            Ok(m) if m.is_file() => {
                return Ok(Resolved::Regular {
                    real: path,
                    existing: Some(m),
                })
            }
            Ok(m) if m.is_dir() => {
                return Err(io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{}: the output is a directory", target.display()),
                ))
            }
            Ok(_) => return Ok(Resolved::Special(path)),
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Resolved::Regular {
                    real: path,
                    existing: None,
                })
            }
            Err(e) => return Err(named(target, "cannot open", e)),
        }
    }
    Err(io::Error::new(
        io::ErrorKind::InvalidInput,
        format!(
            "{}: more than {MAX_LINKS} symbolic links to follow",
            target.display()
        ),
    ))
}

/// The descriptor a path names in this process: `/dev/stdout` (1), `/dev/stderr` (2),
/// `/dev/fd/N`, `/proc/self/fd/N`, `/proc/thread-self/fd/N`, `/proc/PID/fd/N` of our PID.
#[cfg(unix)]
fn own_descriptor(path: &Path) -> Option<i32> {
    let text = path.to_str()?;
    match text {
        "/dev/stdout" => return Some(1),
        "/dev/stderr" => return Some(2),
        _ => {}
    }
    let pid = std::process::id().to_string();
    let number = text
        .strip_prefix("/dev/fd/")
        .or_else(|| text.strip_prefix("/proc/self/fd/"))
        .or_else(|| text.strip_prefix("/proc/thread-self/fd/"))
        .or_else(|| {
            text.strip_prefix("/proc/")
                .and_then(|rest| rest.strip_prefix(pid.as_str()))
                .and_then(|rest| rest.strip_prefix("/fd/"))
        })?;
    number.parse().ok()
}

/// A duplicate of this process's descriptor `fd`, if it is open.
#[cfg(unix)]
fn duplicate(fd: i32, target: &Path) -> io::Result<File> {
    use std::os::fd::{AsFd, BorrowedFd};
    // Only a descriptor that is open is borrowed: /proc/self/fd lists exactly those.
    let open = fs::symlink_metadata(format!("/proc/self/fd/{fd}")).is_ok()
        || ((0..=2).contains(&fd) && std_stream_is_open(fd));
    if !open {
        return Err(io::Error::new(
            io::ErrorKind::NotFound,
            format!(
                "{}: descriptor {fd} is not open in this process",
                target.display()
            ),
        ));
    }
    // SAFETY: `fd` is open (checked above) and stays open while it is borrowed: the
    // duplicate is made at once, and the borrow ends with this statement.
    let borrowed = unsafe { BorrowedFd::borrow_raw(fd) };
    let owned = borrowed
        .as_fd()
        .try_clone_to_owned()
        .map_err(|e| named(target, "cannot open", e))?;
    Ok(File::from(owned))
}

/// Whether standard output or error is open (for systems without `/proc`).
#[cfg(unix)]
fn std_stream_is_open(fd: i32) -> bool {
    use std::os::fd::AsFd;
    let cloned = match fd {
        0 => io::stdin().as_fd().try_clone_to_owned(),
        1 => io::stdout().as_fd().try_clone_to_owned(),
        _ => io::stderr().as_fd().try_clone_to_owned(),
    };
    cloned.is_ok()
}

/// Eight characters from the process, a counter, the clock and a random hasher: the
/// temporary file names of this process do not repeat, and other processes' rarely collide
/// (and `create_new` refuses a collision, which is then tried again).
fn temporary_name() -> String {
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let mut hasher = RandomState::new().build_hasher();
    hasher.write_u32(std::process::id());
    hasher.write_u64(COUNTER.fetch_add(1, Ordering::Relaxed));
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos());
    hasher.write_u128(nanos);
    let mut bits = hasher.finish();
    const DIGITS: &[u8; 36] = b"0123456789abcdefghijklmnopqrstuvwxyz";
    let mut name = String::from(".");
    for _ in 0..8 {
        name.push(char::from(DIGITS[(bits % 36) as usize]));
        bits /= 36;
    }
    name.push_str(".tmp");
    name
}

/// How many temporary names are tried before giving up.
const TEMPORARY_ATTEMPTS: usize = 64;

/// A temporary file in `dir` that has no name: created under a short temporary name and
/// removed from the folder at once (on Unix), so nothing is left behind whatever ends the
/// process. For data staged beside an output:
/// WTHOR's records before their header, the fingerprints a conversion reads back.
///
/// ```
/// use std::io::{Read, Seek, Write};
/// let dir = std::env::temp_dir();
/// let mut file = reversi_formats::output::unnamed_in(&dir)?;
/// file.write_all(b"staged")?;
/// file.rewind()?;
/// let mut back = String::new();
/// file.read_to_string(&mut back)?;
/// assert_eq!(back, "staged");
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn unnamed_in(dir: &Path) -> io::Result<File> {
    let mut last = None;
    for _ in 0..TEMPORARY_ATTEMPTS {
        let path = dir.join(temporary_name());
        // The name lives between its creation and its removal: under the registry's lock,
        // so that a signal's `remove_temporaries` (which takes it) cannot end the process
        // in between and leave the name behind.
        let registry = live();
        match OpenOptions::new()
            .read(true)
            .write(true)
            .create_new(true)
            .open(&path)
        {
            Ok(file) => {
                // Unix lets an open file lose its name; elsewhere it keeps it.
                #[cfg(unix)]
                fs::remove_file(&path)?;
                drop(registry);
                return Ok(file);
            }
            Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
            Err(e) => return Err(e),
        }
    }
    Err(last.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)))
}

impl AtomicFile {
    /// Opens `target` for writing (see the [module](self) for what each kind of target
    /// gets). Nothing is in place until [`commit`](AtomicFile::commit).
    ///
    /// ```
    /// use std::io::Write;
    /// use reversi_formats::output::AtomicFile;
    ///
    /// // Not a regular file: written directly, and the device stays a device.
    /// let mut zero = AtomicFile::create("/dev/zero")?;
    /// assert!(zero.is_direct());
    /// zero.write_all(b"gone")?;
    /// zero.commit()?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn create(target: impl AsRef<Path>) -> io::Result<AtomicFile> {
        let target = target.as_ref();
        match resolve(target)? {
            Resolved::Regular { real, existing } => Self::staged(target, real, existing),
            Resolved::Special(path) => {
                let file = OpenOptions::new()
                    .write(true)
                    .open(&path)
                    .map_err(|e| named(target, "cannot open", e))?;
                Ok(AtomicFile {
                    file,
                    target: target.to_path_buf(),
                    staging: Staging::Direct,
                })
            }
            #[cfg(unix)]
            Resolved::Descriptor(fd) => Ok(AtomicFile {
                file: duplicate(fd, target)?,
                target: target.to_path_buf(),
                staging: Staging::Direct,
            }),
        }
    }

    /// Opens `target` as [`create`](AtomicFile::create) does, after refusing it when it is
    /// one of `inputs` ([`refuse_inputs`]).
    ///
    /// ```
    /// use reversi_formats::output::AtomicFile;
    ///
    /// let dir = std::env::temp_dir().join(format!("atomic-guard-doc-{}", std::process::id()));
    /// std::fs::create_dir_all(&dir)?;
    /// let input = dir.join("in.rgn");
    /// std::fs::write(&input, "[Rules \"othello\"]")?;
    /// let refused = AtomicFile::create_guarded(&input, &[input.as_path()]).unwrap_err();
    /// assert!(refused.to_string().contains("would destroy the input"));
    /// # std::fs::remove_dir_all(&dir)?;
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn create_guarded(target: impl AsRef<Path>, inputs: &[&Path]) -> io::Result<AtomicFile> {
        let target = target.as_ref();
        refuse_inputs(target, inputs)?;
        Self::create(target)
    }

    fn staged(target: &Path, real: PathBuf, existing: Option<Metadata>) -> io::Result<AtomicFile> {
        let dir = match real.parent() {
            Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
            _ => PathBuf::from("."),
        };
        let mut last = None;
        for _ in 0..TEMPORARY_ATTEMPTS {
            let temp = dir.join(temporary_name());
            // Created and registered under the registry's lock: a signal's
            // `remove_temporaries` waits for both, so it never misses a temporary that
            // exists (nor says nothing of its target).
            let mut registry = live();
            match OpenOptions::new().write(true).create_new(true).open(&temp) {
                Ok(file) => {
                    registry.push(Live {
                        temp: temp.clone(),
                        abandoned: Abandoned {
                            target: target.to_path_buf(),
                            existed: existing.is_some(),
                        },
                    });
                    drop(registry);
                    let out = AtomicFile {
                        file,
                        target: target.to_path_buf(),
                        staging: Staging::Staged {
                            temp,
                            real,
                            existed: existing.is_some(),
                            committed: false,
                        },
                    };
                    if let Some(existing) = &existing {
                        out.keep_owner_and_mode(existing);
                    }
                    return Ok(out);
                }
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => last = Some(e),
                Err(e) => {
                    return Err(named(
                        target,
                        &format!("cannot create a temporary file in {}", dir.display()),
                        e,
                    ))
                }
            }
        }
        Err(named(
            target,
            &format!("cannot create a temporary file in {}", dir.display()),
            last.unwrap_or_else(|| io::Error::from(io::ErrorKind::AlreadyExists)),
        ))
    }

    /// Gives the temporary the mode (and, where allowed, the owner and group) of the file
    /// it will replace. Best effort: a file that cannot take them keeps the umask's.
    fn keep_owner_and_mode(&self, existing: &Metadata) {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            let _ =
                std::os::unix::fs::fchown(&self.file, Some(existing.uid()), Some(existing.gid()));
        }
        let _ = self.file.set_permissions(existing.permissions());
    }

    /// The target, as it was given.
    pub fn target(&self) -> &Path {
        &self.target
    }

    /// Where the output is staged until [`AtomicFile::commit`] (to be read back before it
    /// is put in place); `None` for a direct target.
    pub fn staging_path(&self) -> Option<&Path> {
        match &self.staging {
            Staging::Staged { temp, .. } => Some(temp),
            Staging::Direct => None,
        }
    }

    /// Whether the target is written directly (it is not a regular file): what was written
    /// is there even without a commit.
    pub fn is_direct(&self) -> bool {
        matches!(self.staging, Staging::Direct)
    }

    /// Whether the target existed when it was opened (a direct target always does).
    pub fn existed(&self) -> bool {
        match &self.staging {
            Staging::Direct => true,
            Staging::Staged { existed, .. } => *existed,
        }
    }

    /// What becomes of the target if this output is dropped without a commit; `None` for a
    /// direct target, which has what was written.
    pub fn abandoned(&self) -> Option<Abandoned> {
        (!self.is_direct()).then(|| Abandoned {
            target: self.target.clone(),
            existed: self.existed(),
        })
    }

    /// Puts the output in place: the temporary is synced to disk and renamed over the
    /// target (a direct target is only flushed). The errors name the target.
    pub fn commit(mut self) -> io::Result<()> {
        self.file
            .flush()
            .map_err(|e| named(&self.target, "writing failed", e))?;
        let Staging::Staged {
            temp,
            real,
            committed,
            ..
        } = &mut self.staging
        else {
            return Ok(());
        };
        self.file
            .sync_all()
            .map_err(|e| named(&self.target, "writing failed", e))?;
        fs::rename(&*temp, &*real)
            .map_err(|e| named(&self.target, "cannot put the output in place", e))?;
        *committed = true;
        unregister(temp);
        // The rename itself is made durable with the folder; a folder that cannot be
        // synced (some file systems) still has the file in place.
        if let Some(dir) = real.parent().filter(|d| !d.as_os_str().is_empty()) {
            if let Ok(dir) = File::open(dir) {
                let _ = dir.sync_all();
            }
        }
        Ok(())
    }
}

impl Write for AtomicFile {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.file.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.file.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.file.flush()
    }
}

impl Drop for AtomicFile {
    fn drop(&mut self) {
        if let Staging::Staged {
            temp,
            committed: false,
            ..
        } = &self.staging
        {
            let _ = fs::remove_file(temp);
            unregister(temp);
        }
    }
}

/// The metadata of an input (`-` is standard input), when it can be had.
fn input_metadata(path: &Path) -> Option<Metadata> {
    if path == Path::new("-") {
        return standard_stream_metadata(0);
    }
    fs::metadata(path).ok()
}

/// The metadata of standard input (0) or output (1).
#[cfg(unix)]
fn standard_stream_metadata(fd: i32) -> Option<Metadata> {
    use std::os::fd::AsFd;
    let owned = if fd == 0 {
        io::stdin().as_fd().try_clone_to_owned()
    } else {
        io::stdout().as_fd().try_clone_to_owned()
    };
    File::from(owned.ok()?).metadata().ok()
}

#[cfg(not(unix))]
fn standard_stream_metadata(_fd: i32) -> Option<Metadata> {
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

/// The input of `inputs` (`-` is standard input) that is the same file as `output`.
fn input_alias<'a>(output: &Metadata, inputs: &[&'a Path]) -> Option<&'a Path> {
    inputs
        .iter()
        .find(|p| input_metadata(p).is_some_and(|m| same_file(&m, output)))
        .copied()
}

/// Refuses `target` when it is the same file as one of `inputs` (`-` is standard input):
/// writing it would destroy what is being read. A target that does not exist yet, or is
/// not a regular file, is no input.
///
/// ```
/// use std::path::Path;
/// use reversi_formats::output::refuse_inputs;
///
/// let dir = std::env::temp_dir().join(format!("refuse-doc-{}", std::process::id()));
/// std::fs::create_dir_all(&dir)?;
/// let input = dir.join("in.rgn");
/// std::fs::write(&input, "")?;
/// let link = dir.join("link.rgn");
/// std::fs::hard_link(&input, &link)?;
/// assert!(refuse_inputs(&link, &[input.as_path()]).is_err());
/// assert!(refuse_inputs(&dir.join("new.rgn"), &[input.as_path()]).is_ok());
/// # std::fs::remove_dir_all(&dir)?;
/// # Ok::<(), std::io::Error>(())
/// ```
pub fn refuse_inputs(target: &Path, inputs: &[&Path]) -> io::Result<()> {
    let Ok(existing) = fs::metadata(target) else {
        return Ok(());
    };
    match input_alias(&existing, inputs) {
        None => Ok(()),
        Some(input) => {
            let what = if input == Path::new("-") {
                "standard input".to_owned()
            } else {
                format!("the input {}", input.display())
            };
            Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{}: the output is {what}; writing it would destroy the input",
                    target.display()
                ),
            ))
        }
    }
}

/// Refuses to write standard output when it is redirected to one of `inputs`
/// (`reversi convert in.rgn > in.rgn` after the shell opened it).
pub fn refuse_inputs_on_stdout(inputs: &[&Path]) -> io::Result<()> {
    let Some(stdout) = standard_stream_metadata(1) else {
        return Ok(());
    };
    match input_alias(&stdout, inputs) {
        None => Ok(()),
        Some(input) => Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "standard output is the input {}; writing would destroy it",
                input.display()
            ),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("output-unit-{}-{name}", std::process::id()));
        let _ = fs::remove_dir_all(&dir);
        fs::create_dir_all(&dir).unwrap();
        dir
    }

    fn names(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[test]
    fn a_dropped_output_leaves_the_target_and_no_temporary() {
        let dir = scratch("drop");
        let target = dir.join("out.rgn");
        fs::write(&target, "precious").unwrap();
        let mut out = AtomicFile::create(&target).unwrap();
        out.write_all(b"half").unwrap();
        assert_eq!(names(&dir).len(), 2, "a temporary beside the target");
        assert_eq!(
            out.abandoned().unwrap().to_string(),
            format!("{} is left as it was", target.display())
        );
        drop(out);
        assert_eq!(names(&dir), ["out.rgn"]);
        assert_eq!(fs::read_to_string(&target).unwrap(), "precious");
    }

    #[test]
    fn temporary_names_are_short_and_hidden() {
        let name = temporary_name();
        assert_eq!(name.len(), 13, "{name}");
        assert!(name.starts_with('.') && name.ends_with(".tmp"), "{name}");
        assert_ne!(temporary_name(), temporary_name());
    }

    #[test]
    fn a_name_of_255_bytes_can_be_written() {
        let dir = scratch("long");
        let target = dir.join("x".repeat(251) + ".rgn");
        let mut out = AtomicFile::create(&target).unwrap();
        out.write_all(b"ok").unwrap();
        out.commit().unwrap();
        assert_eq!(fs::read_to_string(&target).unwrap(), "ok");
    }

    #[cfg(unix)]
    #[test]
    fn an_existing_file_keeps_its_mode() {
        use std::os::unix::fs::PermissionsExt;
        let dir = scratch("mode");
        let target = dir.join("out.rgn");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let mut out = AtomicFile::create(&target).unwrap();
        out.write_all(b"new").unwrap();
        out.commit().unwrap();
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640);
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_stays_a_link_and_its_file_is_replaced() {
        let dir = scratch("symlink");
        let real_dir = dir.join("real");
        fs::create_dir(&real_dir).unwrap();
        let real = real_dir.join("games.rgn");
        fs::write(&real, "old").unwrap();
        let link = dir.join("link.rgn");
        std::os::unix::fs::symlink("real/games.rgn", &link).unwrap();
        let mut out = AtomicFile::create(&link).unwrap();
        assert!(!out.is_direct());
        out.write_all(b"new").unwrap();
        assert_eq!(
            names(&real_dir).len(),
            2,
            "staged beside the file the link names"
        );
        out.commit().unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(&real).unwrap(), "new");
        assert_eq!(names(&real_dir), ["games.rgn"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_dangling_symlink_creates_the_file_it_names() {
        let dir = scratch("dangling");
        let link = dir.join("link.rgn");
        std::os::unix::fs::symlink("made.rgn", &link).unwrap();
        let mut out = AtomicFile::create(&link).unwrap();
        out.write_all(b"made").unwrap();
        out.commit().unwrap();
        assert!(fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(fs::read_to_string(dir.join("made.rgn")).unwrap(), "made");
    }

    #[cfg(unix)]
    #[test]
    fn a_device_is_written_directly() {
        use std::os::unix::fs::FileTypeExt;
        // /dev/zero rather than /dev/null: a tool of before this layer, run as root
        // elsewhere on the machine, may have replaced /dev/null with a file.
        let mut out = AtomicFile::create("/dev/zero").unwrap();
        assert!(out.is_direct());
        assert!(out.abandoned().is_none());
        out.write_all(b"nothing").unwrap();
        out.commit().unwrap();
        assert!(fs::metadata("/dev/zero")
            .unwrap()
            .file_type()
            .is_char_device());
    }

    #[cfg(unix)]
    #[test]
    fn descriptors_are_named_as_the_shell_does() {
        assert_eq!(own_descriptor(Path::new("/dev/stdout")), Some(1));
        assert_eq!(own_descriptor(Path::new("/proc/self/fd/1")), Some(1));
        assert_eq!(own_descriptor(Path::new("/dev/fd/7")), Some(7));
        let ours = format!("/proc/{}/fd/3", std::process::id());
        assert_eq!(own_descriptor(Path::new(&ours)), Some(3));
        assert_eq!(own_descriptor(Path::new("/proc/1/fd/3")), None);
        assert_eq!(own_descriptor(Path::new("/tmp/fd/3")), None);
    }

    #[test]
    fn a_directory_is_refused() {
        let dir = scratch("dir");
        let e = AtomicFile::create(&dir).unwrap_err();
        assert!(e.to_string().contains("is a directory"), "{e}");
    }

    #[test]
    fn a_missing_folder_names_it() {
        let dir = scratch("missing");
        let e = AtomicFile::create(dir.join("no/such/out.rgn")).unwrap_err();
        assert!(
            e.to_string().contains("cannot create a temporary file in"),
            "{e}"
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_symlinked_input_is_refused_as_output() {
        let dir = scratch("alias");
        let input = dir.join("in.rgn");
        fs::write(&input, "x").unwrap();
        let link = dir.join("out.rgn");
        std::os::unix::fs::symlink(&input, &link).unwrap();
        let e = AtomicFile::create_guarded(&link, &[input.as_path()]).unwrap_err();
        assert!(e.to_string().contains("would destroy the input"), "{e}");
        assert_eq!(fs::read_to_string(&input).unwrap(), "x");
    }

    #[test]
    fn the_registry_lists_only_live_temporaries() {
        let dir = scratch("registry");
        let target = dir.join("a.rgn");
        let out = AtomicFile::create(&target).unwrap();
        assert!(!out.existed());
        let listed = |t: &Path| live().iter().any(|l| l.abandoned.target == t);
        assert!(listed(&target));
        out.commit().unwrap();
        assert!(!listed(&target));
    }
}
