//! Datasets: games as numpy arrays (moves, board tensors, legal-move masks, side to move,
//! results), built in Rust with the GIL released, from the engine's replay.

use std::path::PathBuf;

use numpy::ndarray::{ArrayD, IxDyn};
use numpy::IntoPyArray;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use reversi_record::formats::{Format, Games};
use reversi_record::record::Record;
use reversi_record::validate::with_explicit_passes;
use reversi_record::{Cell, Move, Position, Rules, Square};

use crate::engine::{cell_code, rules_arg, EMPTY, NEUTRAL};
use crate::errors;
use crate::games::{format_arg, open, records, Src};

/// A move in the `moves` array: `row * side + col`; a pass.
pub(crate) const PASS: i16 = -2;
/// Padding after a game's last move (and in `turn`, after its end).
pub(crate) const PAD: i16 = -1;

/// What to build.
#[derive(Clone, Copy)]
pub(crate) struct Options {
    pub(crate) boards: bool,
    pub(crate) planes: bool,
    pub(crate) legal: bool,
}

/// One game ready to replay: its start and its moves with every pass written out.
struct Prepared {
    start: Option<Position>,
    moves: Vec<Move>,
}

fn prepare(record: &Record) -> Prepared {
    let explicit = with_explicit_passes(record);
    Prepared {
        start: explicit.start_position().ok(),
        moves: explicit.moves.iter().map(|m| m.mv).collect(),
    }
}

/// The arrays of one batch of games.
pub(crate) struct Built {
    games: usize,
    plies: usize,
    side: usize,
    colors: usize,
    moves: Vec<i16>,
    boards: Option<Vec<i8>>,
    legal: Option<Vec<bool>>,
    turn: Vec<i8>,
    lengths: Vec<i32>,
    valid: Vec<bool>,
    over: Vec<bool>,
    margin: Vec<i16>,
    winner: Vec<i8>,
}

/// Builds the arrays of `records` (all on one board size). Errors name the first game on
/// another board.
pub(crate) fn build(records: &[Record], options: Options) -> Result<Built, String> {
    let side = records
        .first()
        .map_or(8, |r| r.rules.board().side() as usize);
    let colors = records
        .iter()
        .map(|r| r.rules.players() as usize)
        .max()
        .unwrap_or(2);
    if let Some((i, r)) = records
        .iter()
        .enumerate()
        .find(|(_, r)| r.rules.board().side() as usize != side)
    {
        return Err(format!(
            "game {} is on a {} board, but the first on {side}x{side}: arrays hold one board size; filter the games by rules first",
            i + 1,
            r.rules.board().name()
        ));
    }
    let prepared: Vec<Prepared> = records.iter().map(prepare).collect();
    let plies = prepared.iter().map(|p| p.moves.len()).max().unwrap_or(0);
    let games = records.len();
    let positions = plies + 1;
    let cells = side * side;
    let per_board = if options.planes {
        colors * cells
    } else {
        cells
    };
    let mut built = Built {
        games,
        plies,
        side,
        colors,
        moves: vec![PAD; games * plies],
        boards: options
            .boards
            .then(|| vec![0i8; games * positions * per_board]),
        legal: options
            .legal
            .then(|| vec![false; games * positions * cells]),
        turn: vec![PAD as i8; games * positions],
        lengths: vec![0; games],
        valid: vec![false; games],
        over: vec![false; games],
        margin: vec![0; games],
        winner: vec![-2; games],
    };
    let mut cache = Cache {
        rules: None,
        base: Vec::new(),
        table: index_table(side),
    };
    for (g, (p, record)) in prepared.iter().zip(records).enumerate() {
        fill_game(
            &mut built,
            g,
            p,
            &record.rules,
            options,
            per_board,
            &mut cache,
        );
    }
    Ok(built)
}

fn square_at(side: usize, i: usize) -> Option<Square> {
    Square::new((i % side) as u8, (i / side) as u8)
}

/// What the board holds apart from discs: empty, blocked or off-board codes.
fn base_board(rules: &Rules, side: usize) -> Vec<i8> {
    let pos = Position::new(*rules);
    (0..side * side)
        .map(|i| match square_at(side, i).map(|sq| pos.cell(sq)) {
            Some(Cell::Disc(_) | Cell::Neutral) => EMPTY,
            Some(cell) => cell_code(cell),
            None => crate::engine::OFF_BOARD,
        })
        .collect()
}

/// The array index (`row * side + col`) of each square index of the engine (`row * 10 +
/// col`), `usize::MAX` off the grid.
fn index_table(side: usize) -> [usize; 100] {
    let mut table = [usize::MAX; 100];
    for (i, slot) in table.iter_mut().enumerate() {
        let (row, col) = (i / 10, i % 10);
        if row < side && col < side {
            *slot = row * side + col;
        }
    }
    table
}

/// The board and rules a batch's games share, kept from one game to the next.
struct Cache {
    rules: Option<Rules>,
    base: Vec<i8>,
    table: [usize; 100],
}

fn fill_game(
    built: &mut Built,
    g: usize,
    p: &Prepared,
    rules: &Rules,
    options: Options,
    per_board: usize,
    cache: &mut Cache,
) {
    let (side, plies) = (built.side, built.plies);
    let positions = plies + 1;
    let cells = side * side;
    let table = cache.table;
    for (k, mv) in p.moves.iter().enumerate() {
        built.moves[g * plies + k] = match mv {
            Move::Pass => PASS,
            Move::Place(sq) => table[sq.index() as usize] as i16,
        };
    }
    let Some(mut pos) = p.start else {
        return;
    };
    if options.boards && !options.planes && cache.rules != Some(*rules) {
        cache.base = base_board(rules, side);
        cache.rules = Some(*rules);
    }
    let base = &cache.base;
    let record_position = |built: &mut Built, k: usize, pos: &Position| {
        let at = g * positions + k;
        // A position with a move after it is not over; the last one is checked below.
        built.turn[at] = pos.turn().index() as i8;
        if let Some(boards) = built.boards.as_mut() {
            let board = &mut boards[at * per_board..(at + 1) * per_board];
            if options.planes {
                for &c in rules.colors() {
                    let plane = &mut board[c.index() * cells..(c.index() + 1) * cells];
                    for sq in pos.discs(c).iter() {
                        plane[table[sq.index() as usize]] = 1;
                    }
                }
            } else {
                board.copy_from_slice(base);
                for &c in rules.colors() {
                    let code = c.index() as i8 + 1;
                    for sq in pos.discs(c).iter() {
                        board[table[sq.index() as usize]] = code;
                    }
                }
                for sq in pos.neutral().iter() {
                    board[table[sq.index() as usize]] = NEUTRAL;
                }
            }
        }
        if let Some(legal) = built.legal.as_mut() {
            let mask = &mut legal[at * cells..(at + 1) * cells];
            for sq in pos.legal_moves().iter() {
                mask[table[sq.index() as usize]] = true;
            }
        }
    };
    record_position(built, 0, &pos);
    let mut played = 0;
    for mv in &p.moves {
        if pos.play(*mv).is_err() {
            break;
        }
        played += 1;
        record_position(built, played, &pos);
    }
    let over = pos.is_over();
    if over {
        built.turn[g * positions + played] = PAD as i8;
    }
    built.lengths[g] = played as i32;
    built.valid[g] = played == p.moves.len();
    built.over[g] = over;
    let outcome = pos.counts_outcome();
    built.margin[g] = outcome.margin() as i16;
    built.winner[g] = match (over, outcome.winner) {
        (false, _) => -2,
        (true, Some(c)) => c.index() as i8,
        (true, None) => -1,
    };
}

fn array<'py, T: numpy::Element>(
    py: Python<'py>,
    shape: &[usize],
    data: Vec<T>,
) -> PyResult<PyObject> {
    let a = ArrayD::from_shape_vec(IxDyn(shape), data)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    Ok(a.into_pyarray(py).into_any().unbind())
}

impl Built {
    fn into_dict(self, py: Python<'_>, planes: bool) -> PyResult<Py<PyDict>> {
        let (g, t, s) = (self.games, self.plies, self.side);
        let d = PyDict::new(py);
        d.set_item("moves", array(py, &[g, t], self.moves)?)?;
        if let Some(b) = self.boards {
            let shape: Vec<usize> = if planes {
                vec![g, t + 1, self.colors, s, s]
            } else {
                vec![g, t + 1, s, s]
            };
            d.set_item("boards", array(py, &shape, b)?)?;
        }
        if let Some(l) = self.legal {
            d.set_item("legal", array(py, &[g, t + 1, s, s], l)?)?;
        }
        d.set_item("turn", array(py, &[g, t + 1], self.turn)?)?;
        d.set_item("lengths", array(py, &[g], self.lengths)?)?;
        d.set_item("valid", array(py, &[g], self.valid)?)?;
        d.set_item("over", array(py, &[g], self.over)?)?;
        d.set_item("margin", array(py, &[g], self.margin)?)?;
        d.set_item("winner", array(py, &[g], self.winner)?)?;
        d.set_item("side", s)?;
        Ok(d.unbind())
    }
}

/// `to_numpy(games, boards=True, planes=False, legal=False)`.
pub(crate) fn to_numpy(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    options: Options,
) -> PyResult<Py<PyDict>> {
    let records = records(py, games)?;
    let built = py
        .allow_threads(|| build(&records, options))
        .map_err(|e| errors::usage(py, e))?;
    built.into_dict(py, options.planes)
}

/// The games of several inputs, as arrays of at most `chunk` games at a time.
#[pyclass(module = "reversi_record", name = "Dataset")]
pub(crate) struct Dataset {
    paths: std::vec::IntoIter<PathBuf>,
    current: Option<std::sync::Mutex<Games<'static>>>,
    format: Option<Format>,
    rules: Option<Rules>,
    chunk: usize,
    options: Options,
}

impl Dataset {
    pub(crate) fn new(
        py: Python<'_>,
        paths: Vec<PathBuf>,
        chunk: Option<usize>,
        format: Option<&str>,
        rules: Option<&Bound<'_, PyAny>>,
        options: Options,
    ) -> PyResult<Dataset> {
        Ok(Dataset {
            paths: paths.into_iter(),
            current: None,
            format: format_arg(py, format)?,
            rules: rules_arg(py, rules)?,
            chunk: chunk.unwrap_or(usize::MAX).max(1),
            options,
        })
    }

    /// Reads up to `chunk` records (GIL released), opening the next input as needed.
    fn next_records(&mut self, py: Python<'_>) -> PyResult<Vec<Record>> {
        let mut out = Vec::new();
        while out.len() < self.chunk {
            if self.current.is_none() {
                let Some(path) = self.paths.next() else { break };
                let input = open(py, Src::Path(path), self.format, self.rules)?;
                self.current = Some(std::sync::Mutex::new(
                    input.format.read(input.reader, &input.options),
                ));
            }
            let Some(games) = self.current.as_ref() else {
                break;
            };
            let chunk = self.chunk;
            let failed = py.allow_threads(|| -> Result<bool, std::io::Error> {
                let Ok(mut games) = games.lock() else {
                    return Ok(true);
                };
                while out.len() < chunk {
                    match games.next() {
                        None => return Ok(true),
                        Some(game) => {
                            if let Some(record) = game?.record {
                                out.push(record);
                            }
                        }
                    }
                }
                Ok(false)
            });
            match failed {
                Ok(true) => self.current = None,
                Ok(false) => {}
                Err(e) => return Err(errors::io(py, "reading", &e)),
            }
        }
        Ok(out)
    }
}

#[pymethods]
impl Dataset {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    pub(crate) fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Py<PyDict>>> {
        let records = self.next_records(py)?;
        if records.is_empty() {
            return Ok(None);
        }
        let options = self.options;
        let built = py
            .allow_threads(|| build(&records, options))
            .map_err(|e| errors::usage(py, e))?;
        built.into_dict(py, options.planes).map(Some)
    }
}
