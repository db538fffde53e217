//! The archive as one table: a row a game (identity, players, event, date, round, board,
//! the claimed result as numbers, the rules, the moves, and what a replay says), read
//! through the library's borrowed views (never a `Game`, never a record for a plain game)
//! into Arrow-shaped buffers; `reversi_record/table.py` wraps them as a pyarrow table
//! without copying.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Mutex;

use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use reversi_engine::Move;
use reversi_formats::record::{
    is_unknown_value, score, ClaimedResult, ResultScore, Termination, IDENTITY_TAGS,
};
use reversi_runs::dataset;
use reversi_runs::pipeline::view::{GameReader, GameView};

use crate::engine::rules_arg;
use crate::errors;
use crate::games::{format_arg, open, Src};

/// A column of optional strings: Arrow's offsets, bytes and validity.
#[derive(Default)]
struct Strings {
    offsets: Vec<i64>,
    data: Vec<u8>,
    valid: Vec<bool>,
}

impl Strings {
    fn new() -> Strings {
        Strings {
            offsets: vec![0],
            ..Strings::default()
        }
    }

    fn push(&mut self, value: Option<&str>) {
        if let Some(v) = value {
            self.data.extend_from_slice(v.as_bytes());
        }
        self.offsets.push(self.data.len() as i64);
        self.valid.push(value.is_some());
    }

    fn append(&mut self, other: Strings) {
        let base = self.data.len() as i64;
        self.data.extend_from_slice(&other.data);
        self.offsets
            .extend(other.offsets.iter().skip(1).map(|o| o + base));
        self.valid.extend(other.valid);
    }

    fn into_py(self, py: Python<'_>) -> PyResult<PyObject> {
        let d = PyDict::new(py);
        d.set_item("offsets", self.offsets.into_pyarray(py))?;
        d.set_item("data", self.data.into_pyarray(py))?;
        d.set_item("valid", self.valid.into_pyarray(py))?;
        Ok(d.into_any().unbind())
    }
}

/// The identity columns, in [`IDENTITY_TAGS`]' order (black, white, round, board, event,
/// date).
const IDENTITY: usize = IDENTITY_TAGS.len();

/// The columns of some games.
struct Columns {
    file: Strings,
    index: Vec<i32>,
    identity: [Strings; IDENTITY],
    rules: Strings,
    result: Strings,
    black_discs: Vec<i16>,
    white_discs: Vec<i16>,
    discs_valid: Vec<bool>,
    margin: Vec<f64>,
    margin_valid: Vec<bool>,
    termination: Strings,
    /// Arrow list offsets of `moves` (`row * side + col`, -2 a pass), as written.
    move_offsets: Vec<i64>,
    moves: Vec<i16>,
    /// From the replay (with `replay`).
    valid: Vec<bool>,
    finished: Vec<bool>,
    plies: Vec<i32>,
    /// Every tag as written (with `tags`): map offsets, names, values.
    tag_offsets: Vec<i64>,
    tag_names: Strings,
    tag_values: Strings,
}

impl Columns {
    fn new() -> Columns {
        Columns {
            file: Strings::new(),
            index: Vec::new(),
            identity: std::array::from_fn(|_| Strings::new()),
            rules: Strings::new(),
            result: Strings::new(),
            black_discs: Vec::new(),
            white_discs: Vec::new(),
            discs_valid: Vec::new(),
            margin: Vec::new(),
            margin_valid: Vec::new(),
            termination: Strings::new(),
            move_offsets: vec![0],
            moves: Vec::new(),
            valid: Vec::new(),
            finished: Vec::new(),
            plies: Vec::new(),
            tag_offsets: vec![0],
            tag_names: Strings::new(),
            tag_values: Strings::new(),
        }
    }

    /// Adds the game `view` of the input `file`.
    fn push(&mut self, file: &str, view: &GameView<'_>, tags: bool) {
        self.file.push(Some(file));
        self.index.push(view.index() as i32);
        let mut identity: [Option<&str>; IDENTITY] = [None; IDENTITY];
        for tag in view.tags() {
            let at = IDENTITY_TAGS
                .iter()
                .position(|n| n.eq_ignore_ascii_case(&tag.name));
            if let Some(slot) = at.and_then(|i| identity.get_mut(i)) {
                // The first of a name counts; a value that says nothing (`?`) is none.
                if slot.is_none() && !is_unknown_value(&tag.value) {
                    *slot = Some(&tag.value);
                }
            }
        }
        for (column, value) in self.identity.iter_mut().zip(identity) {
            column.push(value);
        }
        let readable = !matches!(view.parsed(), Some(p) if p.record.is_none());
        let rules = view.rules();
        if readable {
            let mut name = String::new();
            use std::fmt::Write;
            let _ = write!(name, "{rules}");
            self.rules.push(Some(&name));
        } else {
            self.rules.push(None);
        }
        self.push_result(view.result());
        let side = rules.board().side() as i16;
        for mv in view.moves() {
            self.moves.push(match mv {
                Move::Pass => -2,
                Move::Place(sq) => sq.row() as i16 * side + sq.col() as i16,
            });
        }
        self.move_offsets.push(self.moves.len() as i64);
        if tags {
            for tag in view.tags() {
                self.tag_names.push(Some(&tag.name));
                self.tag_values.push(Some(&tag.value));
            }
            self.tag_offsets.push(self.tag_names.valid.len() as i64);
        }
    }

    fn push_result(&mut self, result: Option<&ClaimedResult>) {
        self.result
            .push(result.and_then(score::result_text).as_deref());
        let (discs, margin) = match result.map(|r| &r.score) {
            Some(ResultScore::Discs(counts)) if counts.len() == 2 => (
                Some((counts[0] as i16, counts[1] as i16)),
                Some(counts[0] as f64 - counts[1] as f64),
            ),
            Some(ResultScore::Margin(m)) if m.is_finite() => (None, Some(*m)),
            _ => (None, None),
        };
        let (b, w) = discs.unwrap_or_default();
        self.black_discs.push(b);
        self.white_discs.push(w);
        self.discs_valid.push(discs.is_some());
        self.margin.push(margin.unwrap_or_default());
        self.margin_valid.push(margin.is_some());
        self.termination
            .push(result.map(|r| termination_name(r.termination)));
    }

    fn append(&mut self, other: Columns) {
        self.file.append(other.file);
        self.index.extend(other.index);
        for (a, b) in self.identity.iter_mut().zip(other.identity) {
            a.append(b);
        }
        self.rules.append(other.rules);
        self.result.append(other.result);
        self.black_discs.extend(other.black_discs);
        self.white_discs.extend(other.white_discs);
        self.discs_valid.extend(other.discs_valid);
        self.margin.extend(other.margin);
        self.margin_valid.extend(other.margin_valid);
        self.termination.append(other.termination);
        let base = self.moves.len() as i64;
        self.moves.extend(other.moves);
        self.move_offsets
            .extend(other.move_offsets.iter().skip(1).map(|o| o + base));
        self.valid.extend(other.valid);
        self.finished.extend(other.finished);
        self.plies.extend(other.plies);
        let base = self.tag_names.valid.len() as i64;
        self.tag_names.append(other.tag_names);
        self.tag_values.append(other.tag_values);
        self.tag_offsets
            .extend(other.tag_offsets.iter().skip(1).map(|o| o + base));
    }

    fn into_py(self, py: Python<'_>, replay: bool, tags: bool) -> PyResult<Py<PyDict>> {
        let d = PyDict::new(py);
        d.set_item("length", self.index.len())?;
        d.set_item("file", self.file.into_py(py)?)?;
        d.set_item("index", self.index.into_pyarray(py))?;
        let [black, white, round, board, event, date] = self.identity;
        for (name, column) in [
            ("black", black),
            ("white", white),
            ("event", event),
            ("date", date),
            ("round", round),
            ("board", board),
        ] {
            d.set_item(name, column.into_py(py)?)?;
        }
        d.set_item("rules", self.rules.into_py(py)?)?;
        d.set_item("result", self.result.into_py(py)?)?;
        d.set_item("black_discs", self.black_discs.into_pyarray(py))?;
        d.set_item("white_discs", self.white_discs.into_pyarray(py))?;
        d.set_item("discs_valid", self.discs_valid.into_pyarray(py))?;
        d.set_item("margin", self.margin.into_pyarray(py))?;
        d.set_item("margin_valid", self.margin_valid.into_pyarray(py))?;
        d.set_item("termination", self.termination.into_py(py)?)?;
        d.set_item("move_offsets", self.move_offsets.into_pyarray(py))?;
        d.set_item("moves", self.moves.into_pyarray(py))?;
        if replay {
            d.set_item("valid", self.valid.into_pyarray(py))?;
            d.set_item("finished", self.finished.into_pyarray(py))?;
            d.set_item("plies", self.plies.into_pyarray(py))?;
        }
        if tags {
            d.set_item("tag_offsets", self.tag_offsets.into_pyarray(py))?;
            d.set_item("tag_names", self.tag_names.into_py(py)?)?;
            d.set_item("tag_values", self.tag_values.into_py(py)?)?;
        }
        Ok(d.unbind())
    }
}

/// How a claimed result says the game ended.
fn termination_name(t: Termination) -> &'static str {
    match t {
        Termination::Normal => "normal",
        Termination::Resignation(_) => "resignation",
        Termination::Time(_) => "time",
        Termination::Unfinished => "unfinished",
        Termination::Agreement => "agreement",
    }
}

/// Reads every game of `reader` (input `name`) into columns; `stop` ends it early.
fn read_input(
    name: &str,
    reader: &mut GameReader,
    replay: bool,
    tags: bool,
    stop: &AtomicBool,
) -> std::io::Result<Columns> {
    let mut columns = Columns::new();
    let mut passes = Vec::new();
    while let Some(game) = reader.next_game() {
        if stop.load(Ordering::Relaxed) {
            return Err(crate::interrupt::stopped());
        }
        let game = game?;
        // Index 0 reports a problem of the input itself: not a game.
        if game.index() == 0 {
            continue;
        }
        columns.push(name, &game, tags);
        if replay {
            let readable = !matches!(game.parsed(), Some(p) if p.record.is_none());
            let replayed = if readable {
                dataset::replay(&game.rules(), game.start(), game.moves(), &mut passes)
            } else {
                dataset::Replayed {
                    valid: false,
                    over: false,
                    plies: 0,
                }
            };
            columns.valid.push(replayed.valid);
            columns.finished.push(replayed.over);
            columns.plies.push(replayed.plies as i32);
        }
    }
    Ok(columns)
}

/// `games(paths, names=None, format=None, rules=None, jobs=None, replay=True,
/// tags=False)`: the columns of every game of `paths`, in input order.
#[allow(clippy::too_many_arguments)]
pub(crate) fn games_columns(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    format: Option<&str>,
    rules: Option<&Bound<'_, PyAny>>,
    names: Option<PathBuf>,
    jobs: usize,
    replay: bool,
    tags: bool,
) -> PyResult<Py<PyDict>> {
    let format = format_arg(py, format)?;
    let rules = rules_arg(py, rules)?;
    let jobs = match jobs {
        0 => std::thread::available_parallelism().map_or(1, |n| n.get()),
        j => j,
    };
    let mut all = Columns::new();
    // Inputs are opened (with the GIL: a missing name file is a warning) a group at a
    // time, so that a folder of thousands of files does not hold them all open.
    for group in paths.chunks(64) {
        let mut inputs = Vec::new();
        for path in group {
            let name = path.to_string_lossy().into_owned();
            let input = open(py, Src::Path(path.clone()), format, rules, names.as_deref())?;
            inputs.push((name, Mutex::new(Some(GameReader::new(input)))));
        }
        let results: Vec<Mutex<Option<std::io::Result<Columns>>>> =
            inputs.iter().map(|_| Mutex::new(None)).collect();
        let next = AtomicUsize::new(0);
        let inputs = &inputs;
        let results_ref = &results;
        crate::interrupt::interruptible(py, |stop| {
            std::thread::scope(|scope| {
                for _ in 0..jobs.min(inputs.len()) {
                    scope.spawn(|| loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        let Some((name, reader)) = inputs.get(i) else {
                            break;
                        };
                        let reader = reader.lock().ok().and_then(|mut r| r.take());
                        let Some(mut reader) = reader else { continue };
                        let columns = read_input(name, &mut reader, replay, tags, stop);
                        if let Ok(mut slot) = results_ref[i].lock() {
                            *slot = Some(columns);
                        }
                    });
                }
            })
        })?;
        for ((name, _), result) in inputs.iter().zip(results) {
            match result.into_inner().ok().flatten() {
                Some(Ok(columns)) => all.append(columns),
                Some(Err(e)) => return Err(errors::io(py, name, &e)),
                None => return Err(errors::io(py, name, &crate::interrupt::stopped())),
            }
        }
    }
    all.into_py(py, replay, tags)
}
