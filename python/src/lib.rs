//! `reversi_record._native`: the Python package's binding over the library. Every rule and
//! format is the library's; this layer only converts arguments and results (and releases
//! the GIL around the heavy calls).

use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::PyDict;
use reversi_runs::dataset::Options;

use crate::errors::Text;

mod convert;
mod datasets;
mod engine;
mod errors;
mod extras;
mod findings;
mod games;
mod interrupt;
mod table;
mod validation;

/// Reads the games of `source`: a path, `bytes`, or a file object; the format detected
/// (content, then extension) unless `format` names it (`"wthor"`, `"pgn:playok"`, ...);
/// `rules` for readers whose records do not say them.
///
/// >>> [len(g) for g in read(b"f5d6c3\nf5f6\n")]
/// [3, 2]
#[pyfunction]
#[pyo3(signature = (source, format = None, rules = None, names = None))]
fn read(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<Text>,
    rules: Option<&Bound<'_, PyAny>>,
    names: Option<PathBuf>,
) -> PyResult<games::Reader> {
    games::read_games(py, source, format.as_deref(), rules, names.as_deref())
}

/// Writes `games` to `path` atomically (or returns the bytes when `path` is `None`), in
/// `format` (else the extension's; RGN when neither). A format that cannot hold part of a
/// game raises `WriteRefused` naming it (`lossy=True` drops what is only information
/// around the game, never what changes its meaning). What is written is read back first:
/// a game the target's reader would refuse (over its size, tags or moves) is a
/// `WriteRefused` with the reader's reason, and nothing is written. Returns what was dropped.
#[pyfunction]
#[pyo3(signature = (games, path = None, format = None, lossy = false, year = None))]
fn write(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    path: Option<PathBuf>,
    format: Option<Text>,
    lossy: bool,
    year: Option<u16>,
) -> PyResult<PyObject> {
    games::write_games(py, games, path, format.as_deref(), lossy, year)
}

/// Validates files as `reversi validate --format json` does: returns a dict with
/// `diagnostics` (`Diagnostic`s), `findings` (across games, dicts) and `summary`; with
/// `stream=True` a `Validation`, an iterator of the findings as the run makes them (memory
/// flat whatever the number of findings), its `summary` set once it is exhausted; with
/// `output=PATH` the findings written to `PATH` as `reversi validate --format jsonl` lines
/// and `{"summary": ...}` returned.
#[pyfunction]
#[pyo3(signature = (paths, jobs = None, allow = Vec::new(), format = None, rules = None, pairings = None, players = None, names = None, stream = false, output = None))]
#[allow(clippy::too_many_arguments)]
fn validate(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    jobs: Option<usize>,
    allow: Vec<Text>,
    format: Option<Text>,
    rules: Option<&Bound<'_, PyAny>>,
    pairings: Option<PathBuf>,
    players: Option<PathBuf>,
    names: Option<PathBuf>,
    stream: bool,
    output: Option<PathBuf>,
) -> PyResult<PyObject> {
    let paths = path_list(paths)?;
    let event = extras::event_files(py, pairings, players)?;
    let allow = allow.into_iter().map(|a| a.0).collect();
    let input = (format.as_deref(), rules, names.as_deref());
    if stream && output.is_some() {
        return Err(errors::usage(
            py,
            "stream=True and output= both say where the findings go: give one",
        ));
    }
    let setup = validation::setup(py, paths, jobs, allow, input, event)?;
    if let Some(output) = output {
        return Ok(validation::written(py, setup, output)?.into_any());
    }
    if stream {
        Ok(Py::new(py, validation::Stream::start(setup)?)?.into_any())
    } else {
        Ok(validation::gathered(py, setup)?.into_any())
    }
}

/// The games as numpy arrays, built in Rust (GIL released): a dict of `moves` (int16,
/// games x plies, `row * side + col`, -2 a pass, -1 padding), `boards` (int8, games x
/// positions x rows x cols, the codes of `Position.board`; with `planes=True` uint8 0/1,
/// games x positions x colours x rows x cols), `legal` (bool masks, with `legal=True`),
/// `turn` (int8 colour index to move, -1 once over or past the end), `lengths` (plies
/// replayed), `valid`, `over`, `margin` (Black's score minus White's at the end),
/// `winner` (colour index, -1 a draw; before the end, the record's claim, -2 none), `side`,
/// and `file` and `index` (each row's input and 1-based index there).
#[pyfunction]
#[pyo3(signature = (games, boards = true, planes = false, legal = false, jobs = None))]
fn to_numpy(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    boards: bool,
    planes: bool,
    legal: bool,
    jobs: Option<usize>,
) -> PyResult<Py<PyDict>> {
    let options = Options {
        boards,
        planes,
        legal,
    };
    datasets::to_numpy(py, games, options, jobs.unwrap_or(0))
}

/// The games of the files `paths` as `to_numpy`'s arrays: one dict of every game, or with
/// `chunk` an iterator of dicts of at most `chunk` games.
#[pyfunction]
#[pyo3(signature = (paths, chunk = None, boards = true, planes = false, legal = false, format = None, rules = None, jobs = None, names = None))]
#[allow(clippy::too_many_arguments)]
fn dataset(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    chunk: Option<usize>,
    boards: bool,
    planes: bool,
    legal: bool,
    format: Option<Text>,
    rules: Option<&Bound<'_, PyAny>>,
    jobs: Option<usize>,
    names: Option<PathBuf>,
) -> PyResult<PyObject> {
    let options = Options {
        boards,
        planes,
        legal,
    };
    let paths = path_list(paths)?;
    let jobs = jobs.unwrap_or(0);
    let mut set =
        datasets::Dataset::new(py, paths, chunk, format.as_deref(), rules, options, jobs)?;
    set.names = names;
    if chunk.is_some() {
        return Ok(Py::new(py, set)?.into_any());
    }
    match set.__next__(py)? {
        Some(d) => Ok(d.into_any()),
        None => Ok(datasets::empty(py, options)?.into_any()),
    }
}

/// The columns of the games table (`reversi_record.games` wraps them as pyarrow arrays).
#[pyfunction]
#[pyo3(signature = (paths, format = None, rules = None, names = None, jobs = None, replay = true, tags = false))]
#[allow(clippy::too_many_arguments)]
fn _games_columns(
    py: Python<'_>,
    paths: &Bound<'_, PyAny>,
    format: Option<Text>,
    rules: Option<&Bound<'_, PyAny>>,
    names: Option<PathBuf>,
    jobs: Option<usize>,
    replay: bool,
    tags: bool,
) -> PyResult<Py<PyDict>> {
    let paths = path_list(paths)?;
    table::games_columns(
        py,
        paths,
        format.as_deref(),
        rules,
        names,
        jobs.unwrap_or(0),
        replay,
        tags,
    )
}

/// One path or a list of them.
fn path_list(paths: &Bound<'_, PyAny>) -> PyResult<Vec<PathBuf>> {
    let expected = "a path or a list of paths";
    if paths.is_instance_of::<pyo3::types::PyString>() || paths.hasattr("__fspath__")? {
        return Ok(vec![paths
            .extract()
            .map_err(|_| errors::wrong_type("paths", expected, paths))?]);
    }
    paths
        .extract()
        .map_err(|_| errors::wrong_type("paths", expected, paths))
}

#[pymodule]
fn _native(m: &Bound<'_, PyModule>) -> PyResult<()> {
    // numpy's C API is fetched on first use, an import that Ctrl-C can break halfway: a
    // later array would then panic ("Failed to access NumPy array API capsule"). Fetch it
    // now, at import, where a failure is an ImportError.
    numpy::PyArray1::<i8>::zeros(m.py(), 0, false);
    m.add_class::<engine::PyRules>()?;
    m.add_class::<engine::PyPosition>()?;
    m.add_class::<games::Game>()?;
    m.add_class::<games::Reader>()?;
    m.add_class::<validation::Stream>()?;
    m.add_class::<findings::Findings>()?;
    m.add_function(wrap_pyfunction!(read, m)?)?;
    m.add_function(wrap_pyfunction!(write, m)?)?;
    m.add_function(wrap_pyfunction!(validate, m)?)?;
    m.add_function(wrap_pyfunction!(to_numpy, m)?)?;
    m.add_function(wrap_pyfunction!(dataset, m)?)?;
    m.add_function(wrap_pyfunction!(_games_columns, m)?)?;
    m.add_class::<datasets::Dataset>()?;
    m.add_function(wrap_pyfunction!(extras::scenario_run, m)?)?;
    m.add_function(wrap_pyfunction!(extras::standings, m)?)?;
    m.add_function(wrap_pyfunction!(extras::repair, m)?)?;
    m.add_function(wrap_pyfunction!(extras::repair_files, m)?)?;
    m.add_function(wrap_pyfunction!(extras::convert, m)?)?;
    Ok(())
}
