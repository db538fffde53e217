//! `validate`: the validator runs on a thread of its own and hands its findings over
//! through a small bounded queue as it meets them, so a run holds a few games' findings at
//! a time whatever the size of its inputs. `validate(stream=True)` gives the queue's end as
//! an iterator (`Validation`); `validate()` drains it into the lists of before.
//!
//! The thread stops when the iterator is closed or dropped, when Ctrl-C comes while the
//! caller waits for the next finding, and when the run ends.

use std::collections::VecDeque;
use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError, SyncSender};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::Duration;

use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use reversi_check::event::{Register, Schedule};
use reversi_formats::diagnostic::{Diagnostic, Located, Renderer};
use reversi_formats::output::AtomicFile;
use reversi_runs::run::{self, Opened, Step, ValidateOptions};

use crate::convert::{ser_to_py, to_py};
use crate::errors;
use crate::findings::Spool;
use crate::games::{diagnostic_class, format_arg, open_input, Src};

/// How many games' findings (each at most `MAX_PER_GAME` + 1) wait in the queue at most.
const QUEUE: usize = 64;

/// How often a caller waiting for the next finding looks for a signal.
const POLL: Duration = Duration::from_millis(50);

/// One finding of a game, with its line and column in the game's input.
type Found = (Diagnostic, Option<(usize, usize)>);

/// What the run hands over.
enum Item {
    /// One game's diagnostics, and its input's name.
    Game(Arc<str>, Vec<Found>),
    /// A finding across games, in its JSON shape.
    Across(serde_json::Value),
    /// An input is over (with several inputs): its name and counts.
    Ended(Arc<str>, reversi_check::validate::Summary),
    /// The run is over: the summary in its JSON shape, or why it failed.
    Done(Result<serde_json::Value, Failure>),
}

enum Failure {
    /// An input could not be read (the message names it).
    Read(String),
    /// A bug: the run panicked.
    Panicked(String),
}

/// What a run is given.
pub(crate) struct Setup {
    /// The paths of the inputs, for `output=` to refuse.
    pub(crate) paths: Vec<PathBuf>,
    pub(crate) inputs: Vec<Opened>,
    /// The run's options (the checks across games always on).
    pub(crate) options: ValidateOptions,
}

/// Opens `paths` and sets the run up as `validate(...)`'s arguments say.
#[allow(clippy::too_many_arguments)]
pub(crate) fn setup(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    jobs: Option<usize>,
    allow: Vec<String>,
    (format, rules, names): (
        Option<&str>,
        Option<&Bound<'_, PyAny>>,
        Option<&std::path::Path>,
    ),
    (pairings, register): (Option<Schedule>, Option<Arc<Register>>),
) -> PyResult<Setup> {
    let format = format_arg(py, format)?;
    let rules = crate::engine::rules_arg(py, rules)?;
    let mut inputs = Vec::new();
    for path in &paths {
        inputs.push(open_input(
            py,
            Src::Path(path.clone()),
            format,
            rules,
            names,
        )?);
    }
    let options = ValidateOptions {
        jobs,
        allow,
        pairings,
        register,
        ..ValidateOptions::default()
    };
    Ok(Setup {
        paths,
        inputs,
        options,
    })
}

/// The run, on the thread: each game's findings, then those across games, then the end,
/// each sent as it is made. A send that fails (the iterator is gone) or the stop flag ends
/// it.
fn work(
    setup: Setup,
    queue: &SyncSender<Item>,
    stop: &AtomicBool,
) -> Result<serde_json::Value, Failure> {
    let Setup {
        paths: _,
        inputs,
        options,
    } = setup;
    let gone = || Failure::Read("the validation was stopped".into());
    let mut failed: Option<String> = None;
    let mut renderer = Renderer::plain();
    let several = inputs.len() > 1;
    let outcome = run::validate(inputs.into_iter().map(Ok), &options, |step| {
        if stop.load(Ordering::Relaxed) {
            return Err(crate::interrupt::stopped());
        }
        let item = match step {
            Step::Game(game, diagnostics) => {
                let found = diagnostics
                    .iter()
                    .map(|d| (d.clone(), renderer.locate(d, &game.source).line_column))
                    .collect();
                Item::Game(game.source.name.clone(), found)
            }
            Step::ReadFailed { name, error } => {
                failed.get_or_insert_with(|| format!("{name}: {error}"));
                return Ok(());
            }
            Step::Ended { name, counts } if several => Item::Ended(name.clone(), counts.clone()),
            Step::Finding(f) => Item::Across(serde_json::to_value(f).map_err(io::Error::other)?),
            Step::Input { .. } | Step::OpenFailed(_) | Step::Clean(_) | Step::Ended { .. } => {
                return Ok(())
            }
        };
        queue.send(item).map_err(|_| crate::interrupt::stopped())
    });
    let report = match outcome {
        Ok(report) => report,
        Err(_) if stop.load(Ordering::Relaxed) => return Err(gone()),
        Err(stopped) => return Err(Failure::Read(stopped.to_string())),
    };
    if let Some(first) = failed {
        return Err(Failure::Read(first));
    }
    serde_json::to_value(report.summary).map_err(|e| Failure::Read(e.to_string()))
}

/// What the iterator gives next.
pub(crate) enum Next {
    /// A game's diagnostic, as a `Diagnostic`.
    Game(PyObject),
    /// A finding across games, as a dict.
    Across(PyObject),
}

/// A validation under way: iterating yields its findings as `Diagnostic`s while the
/// validator runs on a thread of its own, each game's, then those across games; the
/// summary is there once the last was taken.
#[pyclass(module = "reversi_record", name = "Validation")]
pub(crate) struct Stream {
    queue: Mutex<Option<Receiver<Item>>>,
    stop: Arc<AtomicBool>,
    worker: Option<JoinHandle<()>>,
    /// The game whose findings are being handed out, and its input's name.
    pending: VecDeque<Found>,
    file: Arc<str>,
    summary: Option<serde_json::Value>,
    /// How many findings were handed out.
    given: usize,
    closed: bool,
}

impl Stream {
    /// Starts the run.
    pub(crate) fn start(setup: Setup) -> PyResult<Stream> {
        let (send, queue) = mpsc::sync_channel(QUEUE);
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let worker = std::thread::Builder::new()
            .name("reversi-validate".into())
            .spawn(move || {
                let outcome = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
                    work(setup, &send, &flag)
                }));
                let last = outcome.unwrap_or_else(|panic| {
                    Err(Failure::Panicked(
                        panic
                            .downcast_ref::<&str>()
                            .map(|s| s.to_string())
                            .or_else(|| panic.downcast_ref::<String>().cloned())
                            .unwrap_or_else(|| "unknown".into()),
                    ))
                });
                let _ = send.send(Item::Done(last));
            })
            .map_err(|e| {
                PyRuntimeError::new_err(format!("could not start a thread for the validation: {e}"))
            })?;
        Ok(Stream {
            queue: Mutex::new(Some(queue)),
            stop,
            worker: Some(worker),
            pending: VecDeque::new(),
            file: Arc::from("-"),
            summary: None,
            given: 0,
            closed: false,
        })
    }

    /// The next item of the queue, waiting without the GIL and looking for signals every
    /// [`POLL`]; `None` once closed. A signal closes the run and is raised.
    fn receive(&mut self, py: Python<'_>) -> PyResult<Option<Item>> {
        loop {
            let queue = &self.queue;
            let got = py.allow_threads(|| match queue.lock() {
                Ok(q) => q.as_ref().map(|q| q.recv_timeout(POLL)),
                Err(_) => None,
            });
            match got {
                None => return Ok(None),
                Some(Ok(item)) => {
                    if let Err(signal) = py.check_signals() {
                        self.shut(py);
                        return Err(signal);
                    }
                    return Ok(Some(item));
                }
                Some(Err(RecvTimeoutError::Disconnected)) => {
                    self.shut(py);
                    return Err(PyRuntimeError::new_err(
                        "internal error in reversi_record (please report it): the validation ended without a result",
                    ));
                }
                Some(Err(RecvTimeoutError::Timeout)) => {
                    if let Err(signal) = py.check_signals() {
                        self.shut(py);
                        return Err(signal);
                    }
                }
            }
        }
    }

    /// The next finding, or `None` at the end (then `summary` is set).
    pub(crate) fn next_finding(&mut self, py: Python<'_>) -> PyResult<Option<Next>> {
        loop {
            if let Some((d, line_column)) = self.pending.pop_front() {
                self.given += 1;
                let located = Located {
                    diagnostic: &d,
                    file: Some(&self.file),
                    line_column,
                };
                let object = diagnostic_class(py)?.call1((ser_to_py(py, &located)?,))?;
                return Ok(Some(Next::Game(object.unbind())));
            }
            match self.receive(py)? {
                None => return Ok(None),
                Some(Item::Game(file, found)) => {
                    self.file = file;
                    self.pending = found.into();
                }
                Some(Item::Across(value)) => {
                    self.given += 1;
                    return Ok(Some(Next::Across(to_py(py, &value)?)));
                }
                Some(Item::Ended(..)) => {}
                Some(Item::Done(outcome)) => return self.end(py, outcome).map(|()| None),
            }
        }
    }

    /// The run's end: its summary kept, or its failure raised.
    fn end(&mut self, py: Python<'_>, outcome: Result<serde_json::Value, Failure>) -> PyResult<()> {
        self.shut(py);
        match outcome {
            Ok(summary) => {
                self.summary = Some(summary);
                Ok(())
            }
            Err(Failure::Read(message)) => Err(errors::raise(py, "ReadError", message, "io", None)),
            Err(Failure::Panicked(what)) => Err(PyRuntimeError::new_err(format!(
                "internal error in reversi_record (please report it): {what}"
            ))),
        }
    }

    /// Stops the run (if it still runs) and waits for its thread, without the GIL.
    fn shut(&mut self, py: Python<'_>) {
        self.stop.store(true, Ordering::Relaxed);
        // Dropping the receiving end wakes a run blocked on a full queue.
        if let Ok(mut q) = self.queue.lock() {
            q.take();
        }
        self.pending.clear();
        if let Some(worker) = self.worker.take() {
            py.allow_threads(move || {
                let _ = worker.join();
            });
        }
        self.closed = true;
    }

    /// The summary in its JSON shape, once the run ended.
    pub(crate) fn summary_value(&self) -> Option<&serde_json::Value> {
        self.summary.as_ref()
    }
}

impl Drop for Stream {
    fn drop(&mut self) {
        // The thread sees the flag (or its next send fails) and ends on its own.
        self.stop.store(true, Ordering::Relaxed);
        if let Ok(mut q) = self.queue.lock() {
            q.take();
        }
    }
}

#[pymethods]
impl Stream {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Each game's diagnostics as `Diagnostic`s, then the findings across games as
    /// `Diagnostic`s too (with `games`, no `game`).
    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        Ok(match self.next_finding(py)? {
            None => None,
            Some(Next::Game(d)) => Some(d),
            Some(Next::Across(v)) => Some(diagnostic_class(py)?.call1((v,))?.unbind()),
        })
    }

    /// The counts of `reversi validate --format json`'s `summary`, once every finding was
    /// taken; `None` before.
    #[getter]
    fn summary(&self, py: Python<'_>) -> PyResult<Option<PyObject>> {
        self.summary.as_ref().map(|s| to_py(py, s)).transpose()
    }

    /// How many findings were taken so far.
    #[getter]
    fn count(&self) -> usize {
        self.given
    }

    /// Whether the run is over: every finding taken, or `close()` called.
    #[getter]
    fn closed(&self) -> bool {
        self.closed
    }

    /// Stops the run; no finding is given after it (the summary stays `None` unless the run
    /// had ended).
    fn close(&mut self, py: Python<'_>) {
        self.shut(py);
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __exit__(
        &mut self,
        py: Python<'_>,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.shut(py);
        false
    }

    fn __repr__(&self) -> String {
        let state = if self.summary.is_some() {
            "done"
        } else if self.closed {
            "closed"
        } else {
            "running"
        };
        format!("<Validation {state}, {} findings taken>", self.given)
    }
}

/// `validate()` without `stream`: a dict of `diagnostics` (a `Findings` sequence of
/// `Diagnostic`s, kept on disk: memory stays flat however many there are), `findings` (the
/// findings across games, dicts) and `summary`.
pub(crate) fn gathered(py: Python<'_>, setup: Setup) -> PyResult<Py<PyDict>> {
    let mut stream = Stream::start(setup)?;
    let failed = |e: io::Error| {
        PyRuntimeError::new_err(format!("keeping the findings in a temporary file: {e}"))
    };
    let mut spool = Spool::new().map_err(failed)?;
    let findings = PyList::empty(py);
    drain(py, &mut stream, |found| match found {
        Taken::Diagnostic(located) => spool.push(&located).map_err(failed),
        Taken::Across(value) => findings.append(to_py(py, value)?),
        Taken::Counts(_) => Ok(()),
    })?;
    let out = PyDict::new(py);
    out.set_item("diagnostics", spool.finish().map_err(failed)?)?;
    out.set_item("findings", findings)?;
    let summary = stream
        .summary_value()
        .map(|s| to_py(py, s))
        .transpose()?
        .unwrap_or_else(|| py.None());
    out.set_item("summary", summary)?;
    Ok(out.unbind())
}

/// `validate(output=PATH)`: every finding written to `PATH` as `reversi validate --format
/// jsonl` writes them (each game's diagnostics, with several inputs a line of each input's
/// counts after its own, the findings across games, then `{"summary": ...}`), the file put
/// in place only once the run ended well; returns `{"summary": ...}`.
pub(crate) fn written(py: Python<'_>, setup: Setup, path: PathBuf) -> PyResult<Py<PyDict>> {
    let name = path.display().to_string();
    let inputs: Vec<&std::path::Path> = setup.paths.iter().map(PathBuf::as_path).collect();
    let file =
        AtomicFile::create_guarded(&path, &inputs).map_err(|e| errors::write(py, &name, &e))?;
    let mut out = io::BufWriter::with_capacity(256 * 1024, file);
    let mut stream = Stream::start(setup)?;
    let failed = |py: Python<'_>, e: io::Error| errors::write(py, &name, &e);
    drain(py, &mut stream, |found| {
        match found {
            Taken::Diagnostic(located) => line(&mut out, &located),
            Taken::Counts(counts) => line(&mut out, &counts),
            Taken::Across(value) => line(&mut out, value),
        }
        .map_err(|e| failed(py, e))
    })?;
    let summary = stream.summary.take().unwrap_or(serde_json::Value::Null);
    let last = serde_json::json!({ "summary": &summary });
    line(&mut out, &last).map_err(|e| failed(py, e))?;
    py.allow_threads(|| out.into_inner().map_err(|e| e.into_error())?.commit())
        .map_err(|e| failed(py, e))?;
    let dict = PyDict::new(py);
    dict.set_item("summary", to_py(py, &summary)?)?;
    Ok(dict.unbind())
}

/// What [`drain`] hands on, in the run's order.
enum Taken<'a> {
    /// A game's diagnostic, with its file, line and column.
    Diagnostic(Located<'a>),
    /// An input's counts (with several inputs), after its diagnostics: the command line's
    /// line of them.
    Counts(reversi_runs::run::FileCounts),
    /// A finding across games, in its JSON shape.
    Across(&'a serde_json::Value),
}

/// Takes the run's items to its end, handing each on to `each` as it comes; the run's
/// failure is raised, and so is a signal.
fn drain(
    py: Python<'_>,
    stream: &mut Stream,
    mut each: impl FnMut(Taken<'_>) -> PyResult<()>,
) -> PyResult<()> {
    loop {
        match stream.receive(py)? {
            // Closed: only by a signal, which `receive` raised.
            None => return Err(PyRuntimeError::new_err("the validation was stopped")),
            Some(Item::Game(file, found)) => {
                for (d, line_column) in &found {
                    each(Taken::Diagnostic(Located {
                        diagnostic: d,
                        file: Some(&file),
                        line_column: *line_column,
                    }))?;
                }
                stream.given += found.len();
            }
            Some(Item::Ended(input, counts)) => {
                each(Taken::Counts(reversi_runs::run::FileCounts {
                    file: input.to_string(),
                    counts,
                }))?;
            }
            Some(Item::Across(value)) => {
                stream.given += 1;
                each(Taken::Across(&value))?;
            }
            Some(Item::Done(outcome)) => return stream.end(py, outcome),
        }
    }
}

/// `value` as one line of JSON.
fn line(out: &mut impl Write, value: &impl serde::Serialize) -> io::Result<()> {
    serde_json::to_writer(&mut *out, value).map_err(io::Error::other)?;
    out.write_all(b"\n")
}
