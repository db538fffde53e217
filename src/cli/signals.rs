//! The signals that end a run: the temporary outputs are removed, a line on standard error
//! says so, and the exit status is 128 + the signal (130 for SIGINT).
//!
//! SIGINT, SIGTERM, SIGHUP, SIGQUIT, SIGUSR1, SIGUSR2 and SIGALRM are blocked in every
//! thread (the mask is set before any other thread starts, and threads inherit it) and
//! taken by one thread of their own with `sigwait`, which then does what a signal handler
//! must not: takes a lock, removes files, exits. SIGXFSZ (a file-size limit, `ulimit -f`)
//! is ignored, so the write that passes the limit fails with EFBIG and is reported, naming
//! the file, like any write error (exit 2). SIGPIPE stays ignored (as Rust sets it), so a
//! closed standard output is a write error each command ends on quietly.

use std::io::Write;

/// The signals that end a run, with their names.
#[cfg(unix)]
const ENDING: [(libc::c_int, &str); 7] = [
    (libc::SIGINT, "SIGINT"),
    (libc::SIGTERM, "SIGTERM"),
    (libc::SIGHUP, "SIGHUP"),
    (libc::SIGQUIT, "SIGQUIT"),
    (libc::SIGUSR1, "SIGUSR1"),
    (libc::SIGUSR2, "SIGUSR2"),
    (libc::SIGALRM, "SIGALRM"),
];

/// Sets up the signals: call first, before any thread is started.
#[cfg(unix)]
pub(crate) fn install() {
    // SAFETY: plain libc calls on a sigset_t of our own; `signal` with SIG_IGN installs
    // no handler code.
    let set = unsafe {
        libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for (signal, _) in ENDING {
            libc::sigaddset(&mut set, signal);
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        set
    };
    let spawned = std::thread::Builder::new()
        .name("signals".into())
        .spawn(move || loop {
            let mut signal: libc::c_int = 0;
            // SAFETY: `set` is an initialised signal set; `signal` is ours to write.
            if unsafe { libc::sigwait(&set, &mut signal) } == 0 {
                end(signal);
            }
        });
    if spawned.is_err() {
        // No thread to take them: let the signals act as they would have.
        // SAFETY: unblocking the set blocked above.
        unsafe {
            libc::pthread_sigmask(libc::SIG_UNBLOCK, &set, std::ptr::null_mut());
        }
    }
}

#[cfg(not(unix))]
pub(crate) fn install() {}

/// Removes the temporaries, says what became of each output, and exits with 128 + `signal`.
#[cfg(unix)]
fn end(signal: libc::c_int) -> ! {
    let name = ENDING
        .iter()
        .find(|(s, _)| *s == signal)
        .map_or("a signal", |(_, n)| *n);
    let abandoned = reversi_formats::output::remove_temporaries();
    let mut line = format!("error: interrupted by {name}");
    for a in &abandoned {
        line.push_str(&format!("; {a}"));
    }
    line.push('\n');
    // Standard error is written without its lock, which another thread may hold.
    write_stderr_unlocked(line.as_bytes());
    std::process::exit(128 + signal);
}

/// Writes to descriptor 2 directly, ignoring errors.
#[cfg(unix)]
fn write_stderr_unlocked(bytes: &[u8]) {
    use std::os::fd::{FromRawFd, IntoRawFd};
    // SAFETY: descriptor 2 is only borrowed: `into_raw_fd` gives it back unclosed.
    let mut file = unsafe { std::fs::File::from_raw_fd(2) };
    let _ = file.write_all(bytes);
    let _ = file.into_raw_fd();
}
