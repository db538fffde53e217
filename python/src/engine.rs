//! `Rules` and `Position`: the engine's types, one to one.

use numpy::ndarray::Array2;
use numpy::{IntoPyArray, PyArray2};
use pyo3::prelude::*;
use pyo3::types::PyDict;
use reversi_engine::{Color, Finished, Move, Outcome, Square, SquareSet};
use reversi_formats::render::{Diagram, Style};

use crate::errors::{self, Text};

use reversi_runs::dataset::cell_code;

/// Rules of a variant and board, from a rules string such as `"multi3:octagon"`.
///
/// >>> Rules("othello:6x6").side
/// 6
#[pyclass(module = "reversi_record", name = "Rules", frozen, eq, hash)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub(crate) struct PyRules(pub(crate) reversi_engine::Rules);

#[pymethods]
impl PyRules {
    #[new]
    #[pyo3(signature = (text = Text("othello".into())), text_signature = "(text='othello')")]
    fn new(py: Python<'_>, text: Text) -> PyResult<PyRules> {
        parse_rules(py, &text)
    }

    /// The canonical rules string (`"anti:10x10"`).
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!("Rules({:?})", self.0.to_string())
    }

    /// The board's name: `"4x4"`, `"6x6"`, `"8x8"`, `"10x10"` or `"octagon"`.
    #[getter]
    fn board(&self) -> &'static str {
        self.0.board().name()
    }

    /// Squares per side of the board's grid.
    #[getter]
    fn side(&self) -> usize {
        self.0.board().side() as usize
    }

    /// Players (2, 3 or 4).
    #[getter]
    fn players(&self) -> usize {
        self.0.players() as usize
    }

    /// The colours taking part, in turn order.
    #[getter]
    fn colors(&self) -> Vec<&'static str> {
        self.0.colors().iter().map(|c| c.name()).collect()
    }

    /// Whether the fewest discs win.
    #[getter]
    fn is_anti(&self) -> bool {
        self.0.is_anti()
    }

    /// Pickling: the rules string.
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (String,))> {
        let class = slf.py().get_type::<PyRules>().into_any().unbind();
        Ok((class, (slf.get().0.to_string(),)))
    }

    /// The start position.
    fn start(&self) -> PyPosition {
        PyPosition(reversi_engine::Position::new(self.0))
    }
}

pub(crate) fn parse_rules(py: Python<'_>, text: &str) -> PyResult<PyRules> {
    text.parse()
        .map(PyRules)
        .map_err(|e: reversi_engine::RulesError| {
            errors::raise(py, "RulesError", e.to_string(), "bad-rules", None)
        })
}

/// Rules given as a `Rules` or a rules string.
pub(crate) fn rules_arg(
    py: Python<'_>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<Option<reversi_engine::Rules>> {
    let Some(rules) = rules else {
        return Ok(None);
    };
    if rules.is_none() {
        return Ok(None);
    }
    if let Ok(r) = rules.extract::<PyRules>() {
        return Ok(Some(r.0));
    }
    let text: String = rules
        .extract()
        .map_err(|_| errors::wrong_type("rules", "a Rules or a rules string", rules))?;
    Ok(Some(parse_rules(py, &text)?.0))
}

/// A move as Python writes it: a square name (`"f5"`), `"--"`/`"pass"`, or `None` for a
/// pass.
pub(crate) fn move_arg(py: Python<'_>, mv: Option<&str>) -> PyResult<Move> {
    match mv {
        None => Ok(Move::Pass),
        Some(t) if t == "--" || t.eq_ignore_ascii_case("pass") || t.eq_ignore_ascii_case("ps") => {
            Ok(Move::Pass)
        }
        Some(t) => square_arg(py, t).map(Move::Place),
    }
}

pub(crate) fn square_arg(py: Python<'_>, text: &str) -> PyResult<Square> {
    text.parse::<Square>().map_err(|e| {
        errors::raise(
            py,
            "IllegalMoveError",
            e.to_string(),
            "syntax-bad-move",
            None,
        )
    })
}

pub(crate) fn squares(set: SquareSet) -> Vec<String> {
    set.iter().map(|s| s.to_string()).collect()
}

pub(crate) fn outcome_dict<'py>(
    py: Python<'py>,
    o: &Outcome,
    players: usize,
) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    d.set_item("winner", o.winner.map(|c| c.name()))?;
    d.set_item(
        "discs",
        o.discs[..players]
            .iter()
            .map(|&n| u32::from(n))
            .collect::<Vec<_>>(),
    )?;
    d.set_item(
        "score",
        o.score[..players]
            .iter()
            .map(|&n| u32::from(n))
            .collect::<Vec<_>>(),
    )?;
    d.set_item("neutral", o.neutral)?;
    d.set_item("empty", o.empty)?;
    d.set_item("margin", o.margin())?;
    Ok(d)
}

/// A position of any variant with checked play.
///
/// >>> p = Position()
/// >>> p.legal_moves()
/// ['d3', 'c4', 'f5', 'e6']
/// >>> p.play("f5")
/// ['e5']
#[pyclass(module = "reversi_record", name = "Position", eq)]
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) struct PyPosition(pub(crate) reversi_engine::Position);

#[pymethods]
impl PyPosition {
    #[new]
    #[pyo3(signature = (rules = None))]
    fn new(py: Python<'_>, rules: Option<&Bound<'_, PyAny>>) -> PyResult<PyPosition> {
        let rules = rules_arg(py, rules)?.unwrap_or_default();
        Ok(PyPosition(reversi_engine::Position::new(rules)))
    }

    /// The rules.
    #[getter]
    fn rules(&self) -> PyRules {
        PyRules(*self.0.rules())
    }

    /// The side to move (`"black"`, `"white"`, ...).
    #[getter]
    fn turn(&self) -> &'static str {
        self.0.turn().name()
    }

    /// The legal placements, in row-major order (empty when the side must pass).
    fn legal_moves(&self) -> Vec<String> {
        squares(self.0.legal_moves())
    }

    /// Whether the side to move has no placement but the game goes on.
    #[getter]
    fn must_pass(&self) -> bool {
        self.0.must_pass()
    }

    /// Whether nobody can move.
    #[getter]
    fn is_over(&self) -> bool {
        self.0.is_over()
    }

    /// The squares a placement on `square` would flip; `IllegalMoveError` if illegal.
    fn flips(&self, py: Python<'_>, square: Text) -> PyResult<Vec<String>> {
        let sq = square_arg(py, &square)?;
        self.0
            .flips(sq)
            .map(squares)
            .map_err(|e| illegal(py, Move::Place(sq), e))
    }

    /// Plays `move` (a square, `"--"`, `"pass"` or `None`) and returns the flipped squares;
    /// an illegal move raises `IllegalMoveError` and leaves the position as it was.
    #[pyo3(signature = (move_))]
    fn play(&mut self, py: Python<'_>, move_: Option<Text>) -> PyResult<Vec<String>> {
        let mv = move_arg(py, move_.as_deref())?;
        self.0
            .play_with_flips(mv)
            .map(squares)
            .map_err(|e| illegal(py, mv, e))
    }

    /// Passes (`IllegalMoveError` when the side has a move).
    fn pass_(&mut self, py: Python<'_>) -> PyResult<()> {
        self.0
            .play(Move::Pass)
            .map_err(|e| illegal(py, Move::Pass, e))
    }

    /// The outcome once the game is over, else `None`: winner, discs, score, margin.
    fn outcome<'py>(&self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let players = self.0.rules().players() as usize;
        self.0
            .outcome()
            .map(|o| outcome_dict(py, &o, players))
            .transpose()
    }

    /// The leaf count of the move tree `depth` plies deep (passes count as plies), on
    /// `jobs` threads; the GIL is released.
    #[pyo3(signature = (depth, jobs = 1))]
    fn perft(&self, py: Python<'_>, depth: u32, jobs: usize) -> PyResult<u64> {
        let pos = self.0;
        let leaves = crate::interrupt::interruptible(py, |stop| {
            pos.perft_jobs_until(depth, Finished::Ignored, jobs.max(1), stop)
        })?;
        // No count without a signal: the signal's exception came first.
        py.check_signals()?;
        leaves.ok_or_else(|| pyo3::exceptions::PyKeyboardInterrupt::new_err(()))
    }

    /// The board as an int8 array rows x cols: 0 empty, 1 Black, 2 White, 3 Red, 4 Green,
    /// 5 neutral, -1 blocked, -2 off the board.
    fn board<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray2<i8>> {
        let side = self.0.rules().board().side() as usize;
        let mut a = Array2::<i8>::zeros((side, side));
        for row in 0..side {
            for col in 0..side {
                if let Some(sq) = Square::new(col as u8, row as u8) {
                    a[(row, col)] = cell_code(self.0.cell(sq));
                }
            }
        }
        a.into_pyarray(py)
    }

    /// The discs of `color` as squares.
    fn discs(&self, py: Python<'_>, color: Text) -> PyResult<Vec<String>> {
        let c = Color::from_name(&color).ok_or_else(|| {
            errors::usage(
                py,
                format!("expected a colour, but found {:?} instead", &*color),
            )
        })?;
        Ok(squares(self.0.discs(c)))
    }

    /// A copy.
    fn copy(&self) -> PyPosition {
        *self
    }

    fn __copy__(&self) -> PyPosition {
        *self
    }

    fn __deepcopy__(&self, _memo: &Bound<'_, PyAny>) -> PyPosition {
        *self
    }

    /// Positions are equal when the rules, the discs, the side to move and the discs in
    /// hand are; the hash is of the same (a position used as a key must not be played on).
    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.0.rules().hash(&mut h);
        for c in Color::ALL {
            self.0.discs(c).0.hash(&mut h);
        }
        self.0.neutral().0.hash(&mut h);
        self.0.turn().hash(&mut h);
        h.finish()
    }

    /// Pickling: the rules string, each colour's discs and the neutral discs (as integers,
    /// bit `row * 10 + col`), the side to move and the discs in hand.
    #[allow(clippy::type_complexity)]
    fn __reduce__(
        slf: &Bound<'_, Self>,
    ) -> PyResult<(PyObject, (String, Vec<u128>, u128, String, Vec<Option<u8>>))> {
        let pos = slf.borrow().0;
        let restore = slf
            .py()
            .get_type::<PyPosition>()
            .getattr("_from_state")?
            .unbind();
        Ok((
            restore,
            (
                pos.rules().to_string(),
                Color::ALL.iter().map(|&c| pos.discs(c).0).collect(),
                pos.neutral().0,
                pos.turn().name().to_owned(),
                Color::ALL.iter().map(|&c| pos.in_hand(c)).collect(),
            ),
        ))
    }

    /// The position of a pickle's state (`__reduce__`).
    #[staticmethod]
    fn _from_state(
        py: Python<'_>,
        rules: &str,
        discs: Vec<u128>,
        neutral: u128,
        turn: &str,
        in_hand: Vec<Option<u8>>,
    ) -> PyResult<PyPosition> {
        let rules = parse_rules(py, rules)?.0;
        let mut sets = [SquareSet(0); 4];
        for (set, bits) in sets.iter_mut().zip(discs) {
            *set = SquareSet(bits);
        }
        let turn = Color::from_name(turn)
            .ok_or_else(|| errors::usage(py, format!("a Position's pickle: turn {turn:?}")))?;
        let setup = reversi_engine::Setup {
            discs: sets,
            neutral: SquareSet(neutral),
            turn,
        };
        let mut pos = reversi_engine::Position::from_setup(rules, setup)
            .map_err(|e| errors::usage(py, format!("a Position's pickle: {e}")))?;
        for (&c, n) in Color::ALL.iter().zip(in_hand) {
            pos.set_in_hand(c, n);
        }
        Ok(PyPosition(pos))
    }

    /// The board diagram as text.
    fn __str__(&self) -> String {
        self.0.to_string()
    }

    fn __repr__(&self) -> String {
        format!(
            "<Position {} {} to move>",
            self.0.rules(),
            self.0.turn().name()
        )
    }

    /// The position as an SVG picture (Jupyter shows it).
    fn _repr_svg_(&self) -> String {
        Diagram::new(self.0).svg(&Style::default())
    }

    /// The SVG picture in HTML.
    fn _repr_html_(&self) -> String {
        format!("<div>{}</div>", self._repr_svg_())
    }
}

pub(crate) fn illegal(py: Python<'_>, mv: Move, e: reversi_engine::IllegalMove) -> PyErr {
    let code = if mv == Move::Pass {
        "illegal-pass"
    } else {
        "illegal-move"
    };
    errors::raise(py, "IllegalMoveError", format!("{mv}: {e}"), code, None)
}
