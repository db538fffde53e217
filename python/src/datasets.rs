//! Datasets: games as numpy arrays (moves, board tensors, legal-move masks, side to move,
//! results), built in Rust with the GIL released, from the engine's replay.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyString};
use reversi_engine::Rules;
use reversi_formats::Format;
use reversi_runs::dataset::{Arrays, Batch, Options};
use reversi_runs::pipeline::view::GameReader;

use crate::engine::rules_arg;
use crate::errors;
use crate::games::{format_arg, open, Game, Reader, Src};

fn array<'py, T: numpy::Element>(
    py: Python<'py>,
    shape: &[usize],
    data: Vec<T>,
) -> PyResult<PyObject> {
    let a = ArrayD::from_shape_vec(IxDyn(shape), data)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py).into_any().unbind())
}

/// Which game each row of the arrays is: its input's name and its 1-based index there.
#[derive(Default)]
pub(crate) struct Ids {
    names: Vec<Arc<str>>,
    file: Vec<u32>,
    index: Vec<i32>,
}

impl Ids {
    pub(crate) fn push(&mut self, name: &Arc<str>, index: usize) {
        if !matches!(self.names.last(), Some(n) if n == name) {
            self.names.push(name.clone());
        }
        self.file.push(self.names.len() as u32 - 1);
        self.index.push(index as i32);
    }

    fn clear(&mut self) {
        self.names.clear();
        self.file.clear();
        self.index.clear();
    }

    /// `file` (an object array of str, one str a file) and `index` (int32).
    fn set_items(&self, py: Python<'_>, d: &Bound<'_, PyDict>) -> PyResult<()> {
        let names: Vec<PyObject> = self
            .names
            .iter()
            .map(|n| PyString::new(py, n).into_any().unbind())
            .collect();
        let file: Vec<PyObject> = self
            .file
            .iter()
            .map(|&f| names[f as usize].clone_ref(py))
            .collect();
        d.set_item("file", numpy::PyArray1::from_vec(py, file))?;
        d.set_item("index", numpy::PyArray1::from_slice(py, &self.index))?;
        Ok(())
    }
}

/// The arrays as a dict of numpy arrays.
fn into_dict(py: Python<'_>, a: Arrays, planes: bool, ids: &Ids) -> PyResult<Py<PyDict>> {
    let (g, t, s) = (a.games, a.plies, a.side);
    let d = PyDict::new(py);
    ids.set_items(py, &d)?;
    d.set_item("moves", array(py, &[g, t], a.moves)?)?;
    if let Some(b) = a.boards {
        let shape: Vec<usize> = if planes {
            vec![g, t + 1, a.colors, s, s]
        } else {
            vec![g, t + 1, s, s]
        };
        d.set_item("boards", array(py, &shape, b)?)?;
    }
    if let Some(l) = a.legal {
        d.set_item("legal", array(py, &[g, t + 1, s, s], l)?)?;
    }
    d.set_item("turn", array(py, &[g, t + 1], a.turn)?)?;
    d.set_item("lengths", array(py, &[g], a.lengths)?)?;
    d.set_item("valid", array(py, &[g], a.valid)?)?;
    d.set_item("over", array(py, &[g], a.over)?)?;
    d.set_item("margin", array(py, &[g], a.margin)?)?;
    d.set_item("winner", array(py, &[g], a.winner)?)?;
    d.set_item("side", s)?;
    Ok(d.unbind())
}

/// `to_numpy(games, boards=True, planes=False, legal=False, jobs=None)`: `games` is a
/// `Reader` (its remaining games are taken through the library's views, never as `Game`
/// objects) or any iterable of `Game`s.
pub(crate) fn to_numpy(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    options: Options,
    jobs: usize,
) -> PyResult<Py<PyDict>> {
    let mut batch = Batch::new();
    let mut ids = Ids::default();
    if let Ok(mut reader) = games.downcast::<Reader>().map(|r| r.borrow_mut()) {
        gather_reader(py, &mut reader, &mut batch, &mut ids)?;
    } else {
        for (i, g) in games.try_iter()?.enumerate() {
            // Millions of games take a while: Ctrl-C is looked for every 4,096.
            if i % 4096 == 4095 {
                py.check_signals()?;
            }
            let g = g?;
            let game = g.downcast::<Game>()?.get();
            batch.push_record(game.record(py)?);
            ids.push(&game.game.source.name, game.game.index);
        }
    }
    let arrays =
        crate::interrupt::interruptible(py, |stop| batch.build_until(options, jobs, stop))?
            .map_err(|e| errors::usage(py, e.to_string()))?;
    into_dict(py, arrays, options.planes, &ids)
}

/// Every remaining game of `reader` into `batch`, through views (GIL released); the
/// file's own problems go to the reader's `file_diagnostics`.
fn gather_reader(
    py: Python<'_>,
    reader: &mut Reader,
    batch: &mut Batch,
    ids: &mut Ids,
) -> PyResult<()> {
    let Reader {
        games,
        name,
        file_diagnostics,
        ..
    } = reader;
    let read = crate::interrupt::interruptible(py, |stop| -> std::io::Result<()> {
        let Ok(games) = games.get_mut() else {
            return Ok(());
        };
        while let Some(game) = games.next_game() {
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(crate::interrupt::stopped());
            }
            let game = game?;
            match game.parsed() {
                // A game the reader could not make a record of has no moves to replay;
                // one of index 0 is a problem of the file itself.
                Some(p) if p.record.is_none() => {
                    if p.index == 0 {
                        file_diagnostics.push(p.clone());
                    }
                }
                _ => {
                    batch.push_view(&game);
                    ids.push(name, game.index());
                }
            }
        }
        Ok(())
    })?;
    read.map_err(|e| errors::io(py, name, &e))
}

/// The games of several inputs, as arrays of at most `chunk` games at a time. The games
/// are read through the library's borrowed views: a game that reads cleanly (every WTHOR
/// record, plain RGN/PGN) never becomes a record.
#[pyclass(module = "reversi_record", name = "Dataset")]
pub(crate) struct Dataset {
    paths: std::vec::IntoIter<PathBuf>,
    current: Option<(Arc<str>, Mutex<GameReader>)>,
    ids: Ids,
    format: Option<Format>,
    rules: Option<Rules>,
    chunk: usize,
    options: Options,
    jobs: usize,
    batch: Mutex<Batch>,
    /// WTHOR's name files (`names=`).
    pub(crate) names: Option<PathBuf>,
}

impl Dataset {
    pub(crate) fn new(
        py: Python<'_>,
        paths: Vec<PathBuf>,
        chunk: Option<usize>,
        format: Option<&str>,
        rules: Option<&Bound<'_, PyAny>>,
        options: Options,
        jobs: usize,
    ) -> PyResult<Dataset> {
        Ok(Dataset {
            paths: paths.into_iter(),
            current: None,
            format: format_arg(py, format)?,
            rules: rules_arg(py, rules)?,
            chunk: match chunk {
                None => usize::MAX,
                Some(0) => return Err(errors::usage(py, "chunk must be at least 1 game")),
                Some(n) => n,
            },
            options,
            jobs,
            batch: Mutex::new(Batch::new()),
            ids: Ids::default(),
            names: None,
        })
    }

    /// Gathers up to `chunk` games into the batch (GIL released), opening the next input
    /// as needed.
    fn gather(&mut self, py: Python<'_>) -> PyResult<()> {
        let Ok(mut batch) = self.batch.lock() else {
            return Err(errors::usage(py, "the dataset's batch was poisoned"));
        };
        batch.clear();
        self.ids.clear();
        while batch.len() < self.chunk {
            if self.current.is_none() {
                let Some(path) = self.paths.next() else { break };
                let name: Arc<str> = Arc::from(path.to_string_lossy().as_ref());
                let input = open(
                    py,
                    Src::Path(path),
                    self.format,
                    self.rules,
                    self.names.as_deref(),
                )?;
                self.current = Some((name, Mutex::new(GameReader::new(input))));
            }
            let Some((name, reader)) = self.current.as_ref() else {
                break;
            };
            let ids = &mut self.ids;
            let chunk = self.chunk;
            let batch = &mut *batch;
            let done = crate::interrupt::interruptible(py, |stop| -> std::io::Result<bool> {
                let Ok(mut reader) = reader.lock() else {
                    return Ok(true);
                };
                while batch.len() < chunk {
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return Err(crate::interrupt::stopped());
                    }
                    match reader.next_game() {
                        None => return Ok(true),
                        Some(game) => {
                            let game = game?;
                            // A game the reader could not make a record of has no moves
                            // to replay (its diagnostics say why).
                            if !matches!(game.parsed(), Some(p) if p.record.is_none()) {
                                batch.push_view(&game);
                                ids.push(name, game.index());
                            }
                        }
                    }
                }
                Ok(false)
            })?;
            match done {
                Ok(true) => self.current = None,
                Ok(false) => {}
                Err(e) => return Err(errors::io(py, "reading", &e)),
            }
        }
        Ok(())
    }
}

#[pymethods]
impl Dataset {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __repr__(&self) -> String {
        let chunk = match self.chunk {
            usize::MAX => String::new(),
            n => format!(", {n} games a chunk"),
        };
        let current = match &self.current {
            Some((name, _)) => format!("reading {name}, "),
            None => String::new(),
        };
        format!(
            "<Dataset {current}{} inputs to come{chunk}>",
            self.paths.len()
        )
    }

    pub(crate) fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        self.gather(py)?;
        let (options, jobs) = (self.options, self.jobs);
        let Ok(batch) = self.batch.lock() else {
            return Err(errors::usage(py, "the dataset's batch was poisoned"));
        };
        if batch.is_empty() {
            return Ok(None);
        }
        let arrays =
            crate::interrupt::interruptible(py, |stop| batch.build_until(options, jobs, stop))?
                .map_err(|e| errors::usage(py, e.to_string()))?;
        into_dict(py, arrays, options.planes, &self.ids).map(Some)
    }
}

/// An empty dataset's arrays.
pub(crate) fn empty(py: Python<'_>, options: Options) -> PyResult<Py<PyDict>> {
    let arrays = Batch::new()
        .build(options, 1)
        .map_err(|e| errors::usage(py, e.to_string()))?;
    into_dict(py, arrays, options.planes, &Ids::default())
}
