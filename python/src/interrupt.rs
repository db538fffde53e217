//! Long calls that Ctrl-C interrupts: the work runs on a thread of its own, without the GIL,
//! while the calling thread looks for signals every 50 ms; on one, the work is told to stop
//! (it looks at the flag a few milliseconds of work apart), waited for, and the signal's
//! exception (`KeyboardInterrupt`) raised. A panic of the work is a `RuntimeError`, never
//! a `PanicException`.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How often the calling thread looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// Runs `work` with a stop flag it should look at now and then; returns what it gives, or
/// the exception of a signal that came meanwhile.
pub(crate) fn interruptible<T: Send>(
    py: Python<'_>,
    work: impl FnOnce(&AtomicBool) -> T + Send,
) -> PyResult<T> {
    let stop = AtomicBool::new(false);
    let (done, result) = mpsc::channel();
    std::thread::scope(|scope| {
        let stop = &stop;
        let worker = std::thread::Builder::new().spawn_scoped(scope, move || {
            let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| work(stop)));
            let _ = done.send(outcome);
        });
        if worker.is_err() {
            return Err(PyRuntimeError::new_err(
                "could not start a thread for the work",
            ));
        }
        let mut result = result;
        loop {
            // The receiver goes into the closure and back: it is Send, not Sync.
            let (back, got) = py.allow_threads(move || {
                let got = result.recv_timeout(POLL);
                (result, got)
            });
            result = back;
            match got {
                // A signal that came while the work ended is raised all the same: a long
                // run of short calls (a file at a time) is interrupted too.
                Ok(Ok(value)) => return py.check_signals().map(|()| value),
                Ok(Err(panic)) => return Err(panicked(&panic)),
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    return Err(PyRuntimeError::new_err("the work ended without a result"))
                }
                Err(mpsc::RecvTimeoutError::Timeout) => {}
            }
            if let Err(signal) = py.check_signals() {
                stop.store(true, Ordering::Relaxed);
                // The work stops within its next look at the flag; its result is dropped.
                let _ = py.allow_threads(move || result.recv());
                return Err(signal);
            }
        }
    })
}

/// A panic of the work as the exception Python sees.
fn panicked(panic: &Box<dyn std::any::Any + Send>) -> PyErr {
    let what = panic
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| panic.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "unknown".into());
    PyRuntimeError::new_err(format!(
        "internal error in reversi_record (please report it): {what}"
    ))
}

/// An `io::Error` that stops a run whose callback saw the stop flag.
pub(crate) fn stopped() -> std::io::Error {
    std::io::Error::new(std::io::ErrorKind::Interrupted, "interrupted")
}
