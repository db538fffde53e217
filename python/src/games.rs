//! `read`, `Game`, `write` and `validate`: the formats and the validator.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::{Arc, Mutex, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyDict, PyList, PyString};
use reversi_check::validate::{validate_game, with_explicit_passes};
use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
use reversi_formats::record::{score, Identity, MoveRecord, Record, Tag};
use reversi_formats::render::{Diagram, Style};
use reversi_formats::{Format, ParsedGame, ReadOptions, WriteError, WriteOptions};
use reversi_runs::pipeline::view::GameReader;
use reversi_runs::pipeline::Input;

use crate::convert::ser_to_py;
use crate::engine::{move_arg, rules_arg, PyPosition, PyRules};
use crate::errors::{self, Text};

/// A format named as on the command line (`"ggf"`, `"pgn:playok"`).
pub(crate) fn format_arg(py: Python<'_>, format: Option<&str>) -> PyResult<Option<Format>> {
    format
        .map(|f| {
            f.parse::<Format>().map_err(|e| {
                errors::raise(py, "FormatError", e.to_string(), "unknown-format", None)
            })
        })
        .transpose()
}

/// What `read` and the datasets accept as a source: a path, bytes, or a file object.
pub(crate) enum Src {
    Path(PathBuf),
    Bytes(String, Vec<u8>),
}

pub(crate) fn source_arg(source: &Bound<'_, PyAny>) -> PyResult<Src> {
    if let Ok(b) = source.downcast::<PyBytes>() {
        return Ok(Src::Bytes("<bytes>".into(), b.as_bytes().to_vec()));
    }
    if source.hasattr("read")? && !source.is_instance_of::<PyString>() {
        let name = source
            .getattr("name")
            .ok()
            .and_then(|n| n.extract::<String>().ok())
            .unwrap_or_else(|| "<file>".into());
        let data = source.call_method0("read")?;
        let bytes = match data.downcast::<PyString>() {
            Ok(s) => s.to_cow()?.as_bytes().to_vec(),
            Err(_) => data.extract::<Vec<u8>>()?,
        };
        return Ok(Src::Bytes(name, bytes));
    }
    if let Ok(b) = source.extract::<Vec<u8>>() {
        if !source.is_instance_of::<PyString>() {
            return Ok(Src::Bytes("<bytes>".into(), b));
        }
    }
    source
        .extract::<PathBuf>()
        .map(Src::Path)
        .map_err(|_| errors::wrong_type("source", "a path, bytes or a binary file object", source))
}

/// Opens a source as the library's `Input`: the format given or detected (content, then
/// extension), the path handed to the reader (WTHOR finds its name files beside it).
pub(crate) fn open(
    py: Python<'_>,
    src: Src,
    format: Option<Format>,
    rules: Option<reversi_engine::Rules>,
    names: Option<&std::path::Path>,
) -> PyResult<Input> {
    open_input(py, src, format, rules, names).map(reversi_runs::run::Opened::into_input)
}

/// Opens a source with the library's one opener ([`reversi_runs::run::open`]); its
/// errors as Python's exceptions, with the library's codes.
pub(crate) fn open_input(
    py: Python<'_>,
    src: Src,
    format: Option<Format>,
    rules: Option<reversi_engine::Rules>,
    names_path: Option<&std::path::Path>,
) -> PyResult<reversi_runs::run::Opened> {
    // `names=`: WTHOR's name files, a folder or the two files.
    let names = names_path
        .map(reversi_formats::wthor::Names::parse)
        .transpose()
        .map_err(|e| errors::usage(py, format!("names: {e}")))?;
    // Read, not written: the name files must be there.
    let missing = match &names {
        Some(reversi_formats::wthor::Names::Dir(dir)) => {
            (!dir.is_dir()).then(|| dir.display().to_string())
        }
        Some(reversi_formats::wthor::Names::Files(files)) => [&files.players, &files.tournaments]
            .into_iter()
            .find(|f| !f.is_file())
            .map(|f| f.display().to_string()),
        None => None,
    };
    if let Some(missing) = missing {
        return Err(errors::usage(
            py,
            format!("names: {missing} does not exist"),
        ));
    }
    let source = match src {
        Src::Path(path) => reversi_runs::run::InputSource::Path(path),
        Src::Bytes(name, bytes) => reversi_runs::run::InputSource::Bytes { name, bytes },
    };
    let options = reversi_runs::run::InputOptions {
        from: format,
        rules,
        names: names_path.map(std::path::Path::to_path_buf),
    };
    use reversi_runs::run::OpenError;
    let opened = reversi_runs::run::open(source, &options).map_err(|e| match e {
        OpenError::Open { name, error } => errors::io(py, &name, &error),
        OpenError::UnknownFormat { ref name } => errors::raise(
            py,
            "FormatError",
            format!("{name}: the format is not recognised; name it with format=..."),
            e.code(),
            None,
        ),
        OpenError::Names { message } => errors::usage(py, format!("names: {message}")),
        e => errors::raise(py, "ReadError", e.to_string(), e.code(), None),
    })?;
    if let Some(note) = opened.names_note() {
        let warning = py.get_type::<pyo3::exceptions::PyUserWarning>();
        let note = format!(
            "{}: {}",
            opened.name(),
            note.replace("--names DIR", "names=DIR")
        );
        PyErr::warn(
            py,
            &warning,
            &std::ffi::CString::new(note).unwrap_or_default(),
            1,
        )?;
    }
    Ok(opened)
}

/// The games of one input, read as they are asked for.
///
/// Iterating yields `Game`s; problems of the file itself (not of a game) are gathered
/// in `file_diagnostics`.
#[pyclass(module = "reversi_record", name = "Reader")]
pub(crate) struct Reader {
    pub(crate) games: Mutex<GameReader>,
    pub(crate) name: Arc<str>,
    format: Format,
    pub(crate) file_diagnostics: Vec<ParsedGame>,
    closed: bool,
}

#[pymethods]
impl Reader {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__(&mut self, py: Python<'_>) -> PyResult<Option<Game>> {
        loop {
            let games = &self.games;
            let next = py.allow_threads(|| match games.lock() {
                Ok(mut g) => g.next_parsed(),
                Err(_) => None,
            });
            match next {
                None => return Ok(None),
                Some(Err(e)) => return Err(errors::io(py, &self.name, &e)),
                Some(Ok(game)) if game.index == 0 && game.record.is_none() => {
                    self.file_diagnostics.push(game)
                }
                Some(Ok(game)) => return Ok(Some(Game::read(game, self.format))),
            }
        }
    }

    fn __enter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    /// Leaving a `with` block closes the input: no game is read after it.
    fn __exit__(
        &mut self,
        _kind: &Bound<'_, PyAny>,
        _value: &Bound<'_, PyAny>,
        _traceback: &Bound<'_, PyAny>,
    ) -> bool {
        self.close();
        false
    }

    /// Closes the input (its file); the reader then yields no more games.
    fn close(&mut self) {
        if let Ok(mut games) = self.games.lock() {
            // A reader of nothing: its input (the open file) is dropped.
            *games = GameReader::new(Input {
                format: Format::MoveString,
                reader: Box::new(io::empty()),
                options: ReadOptions::default(),
            });
        }
        self.closed = true;
    }

    /// Whether `close()` was called (or the `with` block left).
    #[getter]
    fn closed(&self) -> bool {
        self.closed
    }

    fn __repr__(&self) -> String {
        format!(
            "<Reader {} as {}{}>",
            self.name,
            self.format.name(),
            if self.closed { ", closed" } else { "" }
        )
    }

    /// The format the input is read as (`"wthor"`, `"pgn:playok"`, ...).
    #[getter]
    fn format(&self) -> String {
        self.format.name()
    }

    /// The input's name.
    #[getter]
    fn name(&self) -> &str {
        &self.name
    }

    /// Problems of the file itself met so far (dicts in the JSON shape).
    #[getter]
    fn file_diagnostics(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        let mut out = Vec::new();
        for g in &self.file_diagnostics {
            out.extend(diagnostic_dicts(py, &g.diagnostics, &g.source)?);
        }
        Ok(out)
    }
}

/// Reads the games of `source` (a path, bytes or a binary file object), one at a time.
pub(crate) fn read_games(
    py: Python<'_>,
    source: &Bound<'_, PyAny>,
    format: Option<&str>,
    rules: Option<&Bound<'_, PyAny>>,
    names: Option<&std::path::Path>,
) -> PyResult<Reader> {
    let format = format_arg(py, format)?;
    let rules = rules_arg(py, rules)?;
    let input = open(py, source_arg(source)?, format, rules, names)?;
    let name = input.options.name.clone();
    let format = input.format;
    Ok(Reader {
        games: Mutex::new(GameReader::new(input)),
        name,
        format,
        file_diagnostics: Vec::new(),
        closed: false,
    })
}

pub(crate) fn diagnostic_dicts(
    py: Python<'_>,
    diagnostics: &[Diagnostic],
    source: &Source,
) -> PyResult<Vec<PyObject>> {
    let mut renderer = Renderer::plain();
    let class = diagnostic_class(py)?;
    diagnostics
        .iter()
        .map(|d| {
            Ok(class
                .call1((ser_to_py(py, &renderer.locate(d, source))?,))?
                .unbind())
        })
        .collect()
}

/// `reversi_record.diagnostics.Diagnostic`: a finding as an object that is also a mapping
/// in the JSON shape.
pub(crate) fn diagnostic_class(py: Python<'_>) -> PyResult<Bound<'_, PyAny>> {
    py.import("reversi_record.diagnostics")?
        .getattr("Diagnostic")
}

/// One game as read: its rules, tags, moves, claimed result and what is wrong with it.
#[pyclass(module = "reversi_record", name = "Game", frozen)]
pub(crate) struct Game {
    pub(crate) game: ParsedGame,
    found: OnceLock<Vec<Diagnostic>>,
    /// The format it was read from (a transcript grid is repaired in its own terms).
    pub(crate) format: Option<Format>,
}

impl Game {
    pub(crate) fn new(game: ParsedGame) -> Game {
        Game {
            game,
            found: OnceLock::new(),
            format: None,
        }
    }

    /// A game read from `format`.
    pub(crate) fn read(game: ParsedGame, format: Format) -> Game {
        Game {
            format: Some(format),
            ..Game::new(game)
        }
    }

    fn found(&self) -> &[Diagnostic] {
        self.found
            .get_or_init(|| validate_game(&self.game, &[] as &[&str]))
    }

    pub(crate) fn record(&self, py: Python<'_>) -> PyResult<&Record> {
        self.game.record.as_ref().ok_or_else(|| {
            errors::raise(
                py,
                "ReadError",
                format!("game {} could not be read", self.game.index),
                self.game
                    .diagnostics
                    .first()
                    .map_or("syntax", |d| d.code.name()),
                None,
            )
        })
    }
}

#[pymethods]
impl Game {
    /// Builds a game from moves (`["f5", "d6", "--", ...]`), rules and tags.
    ///
    /// >>> Game.from_moves(["f5", "d6"]).moves
    /// ['f5', 'd6']
    #[staticmethod]
    #[pyo3(signature = (moves, rules = None, tags = None))]
    fn from_moves(
        py: Python<'_>,
        moves: &Bound<'_, PyAny>,
        rules: Option<&Bound<'_, PyAny>>,
        tags: Option<Vec<(Text, Text)>>,
    ) -> PyResult<Game> {
        let expected = "a list of square names (str, \"--\" or None a pass)";
        let moves: Vec<Option<String>> = if moves.is_instance_of::<PyString>() {
            return Err(errors::wrong_type("moves", expected, moves));
        } else {
            moves
                .extract()
                .map_err(|_| errors::wrong_type("moves", expected, moves))?
        };
        let mut record = Record::new(rules_arg(py, rules)?.unwrap_or_default());
        for m in &moves {
            record
                .moves
                .push(MoveRecord::new(move_arg(py, m.as_deref())?));
        }
        for (k, v) in tags.unwrap_or_default() {
            record.tags.push(Tag::new(k.0, v.0));
        }
        Ok(Game::new(ParsedGame {
            index: 1,
            source: Source::whole("<game>", ""),
            record: Some(record),
            diagnostics: Vec::new(),
        }))
    }

    /// 1-based index of the game in its input.
    #[getter]
    fn index(&self) -> usize {
        self.game.index
    }

    /// The input's name.
    #[getter]
    fn file(&self) -> &str {
        &self.game.source.name
    }

    /// The rules, or `None` when the game could not be read.
    #[getter]
    fn rules(&self) -> Option<PyRules> {
        self.game.record.as_ref().map(|r| PyRules(r.rules))
    }

    /// The tags in record order (a dict; a repeated name keeps its last value).
    #[getter]
    fn tags<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        if let Some(r) = &self.game.record {
            for t in &r.tags {
                d.set_item(&t.name, &t.value)?;
            }
        }
        Ok(d)
    }

    /// The value of tag `name` (case as written), or `None`.
    fn tag(&self, name: Text) -> Option<String> {
        self.game.record.as_ref()?.tag(&name).map(str::to_owned)
    }

    /// The moves as written (`"f5"`, `"--"` for a pass).
    #[getter]
    fn moves(&self) -> Vec<String> {
        self.game
            .record
            .as_ref()
            .map(|r| r.moves.iter().map(|m| m.mv.to_string()).collect())
            .unwrap_or_default()
    }

    /// The claimed result as text (`"36-28"`, `"B+R"`), or `None`.
    #[getter]
    fn result(&self) -> Option<String> {
        self.game
            .record
            .as_ref()?
            .result
            .as_ref()
            .and_then(score::result_text)
    }

    /// What the reader and the replay found (dicts in the JSON shape of `reversi validate`).
    #[getter]
    fn diagnostics(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        diagnostic_dicts(py, self.found(), &self.game.source)
    }

    /// What the reader alone found (syntax, encodings): the part of `diagnostics` before
    /// any replay.
    #[getter]
    fn read_diagnostics(&self, py: Python<'_>) -> PyResult<Vec<PyObject>> {
        diagnostic_dicts(py, &self.game.diagnostics, &self.game.source)
    }

    /// Whether the game has no error.
    #[getter]
    fn is_valid(&self) -> bool {
        !self.found().iter().any(Diagnostic::is_error)
    }

    /// Who played, where and when (`black`, `white`, `round`, `board`, `event`, `date`), or
    /// `None` when the tags name none of it.
    #[getter]
    fn identity(&self, py: Python<'_>) -> PyResult<PyObject> {
        let identity = self
            .game
            .record
            .as_ref()
            .and_then(|r| Identity::of_tags(&r.tags));
        match identity {
            Some(i) => ser_to_py(py, &i),
            None => Ok(py.None()),
        }
    }

    /// The game's source text (a text view for binary formats).
    #[getter]
    fn text(&self) -> &str {
        &self.game.source.text
    }

    /// The record as the library's JSON model (a dict).
    fn to_dict(&self, py: Python<'_>) -> PyResult<PyObject> {
        let record = self.record(py)?;
        ser_to_py(py, &record.without_spans())
    }

    /// Every position from the start, one after each move (passes the record leaves out
    /// are played); the list stops before an illegal move.
    fn positions(&self, py: Python<'_>) -> PyResult<Vec<PyPosition>> {
        let record = self.record(py)?;
        let explicit = with_explicit_passes(record);
        let mut pos = explicit.start_position().map_err(|e| {
            errors::raise(py, "ReadError", e.to_string(), "impossible-position", None)
        })?;
        let mut out = vec![PyPosition(pos)];
        for m in &explicit.moves {
            if pos.play(m.mv).is_err() {
                break;
            }
            out.push(PyPosition(pos));
        }
        Ok(out)
    }

    /// The final position (or where replay stops) as SVG, move numbers drawn.
    fn _repr_svg_(&self, py: Python<'_>) -> PyResult<String> {
        let record = self.record(py)?;
        let replay = Diagram::replay(record, None).map_err(|e| {
            errors::raise(py, "ReadError", e.to_string(), "impossible-position", None)
        })?;
        Ok(replay.diagram.svg(&Style { numbers: true }))
    }

    fn _repr_html_(&self, py: Python<'_>) -> PyResult<String> {
        let svg = self._repr_svg_(py)?;
        let tag = |name: &str| self.game.record.as_ref()?.tag(name).map(str::to_owned);
        let title = match (tag("Black"), tag("White")) {
            (Some(b), Some(w)) => format!("{} - {}", escape(&b), escape(&w)),
            _ => format!("game {}", self.game.index),
        };
        Ok(format!(
            "<figure>{svg}<figcaption>{title}</figcaption></figure>"
        ))
    }

    fn __len__(&self) -> usize {
        self.game.record.as_ref().map_or(0, |r| r.moves.len())
    }

    /// Games are equal when they are the same game of the same input: its name, index,
    /// text and record (what it says; where each part was written is not compared).
    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        let Ok(other) = other.downcast::<Game>() else {
            return false;
        };
        let (a, b) = (&self.game, &other.get().game);
        a.index == b.index
            && a.source.name == b.source.name
            && a.source.text == b.source.text
            && a.record.as_ref().map(Record::without_spans)
                == b.record.as_ref().map(Record::without_spans)
    }

    fn __hash__(&self) -> u64 {
        use std::hash::{Hash, Hasher};
        let mut h = std::collections::hash_map::DefaultHasher::new();
        self.game.index.hash(&mut h);
        self.game.source.name.hash(&mut h);
        self.game.source.text.hash(&mut h);
        h.finish()
    }

    /// Pickling: the game's name, index, text and record, and the reader's findings
    /// (their code, severity, message, place and help).
    fn __reduce__(slf: &Bound<'_, Self>) -> PyResult<(PyObject, (String,))> {
        let py = slf.py();
        let state = pickle_state(&slf.get().game)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(e.to_string()))?;
        let unpickle = py.get_type::<Game>().getattr("_from_pickle")?.unbind();
        Ok((unpickle, (state,)))
    }

    /// The game of a pickle's state.
    #[staticmethod]
    fn _from_pickle(state: &str) -> PyResult<Game> {
        unpickle_state(state)
            .map(Game::new)
            .map_err(|e| pyo3::exceptions::PyValueError::new_err(format!("a Game's pickle: {e}")))
    }

    fn __repr__(&self) -> String {
        match &self.game.record {
            Some(r) => format!(
                "<Game {} of {}: {}, {} moves{}>",
                self.game.index,
                self.game.source.name,
                r.rules,
                r.moves.len(),
                r.result
                    .as_ref()
                    .and_then(score::result_text)
                    .map(|t| format!(", {t}"))
                    .unwrap_or_default()
            ),
            None => format!(
                "<Game {} of {}: unreadable>",
                self.game.index, self.game.source.name
            ),
        }
    }
}

/// A game as JSON: what `Game.__reduce__` pickles.
fn pickle_state(game: &ParsedGame) -> serde_json::Result<String> {
    let diagnostics: Vec<serde_json::Value> = game
        .diagnostics
        .iter()
        .map(|d| {
            serde_json::json!({
                "code": d.code.name(),
                "severity": d.severity.name(),
                "message": d.message,
                "span": d.span.map(|s| [s.offset, s.len]),
                "label": d.label,
                "help": d.help,
                "game": d.game,
                "ply": d.ply,
                "move": d.move_number,
                "board": d.board,
            })
        })
        .collect();
    serde_json::to_string(&serde_json::json!({
        "file": &*game.source.name,
        "index": game.index,
        "text": &*game.source.text,
        "offset": game.source.offset,
        "line": game.source.line,
        "record": game.record,
        "diagnostics": diagnostics,
    }))
}

/// The game of [`pickle_state`]'s JSON.
fn unpickle_state(state: &str) -> Result<ParsedGame, String> {
    let v: serde_json::Value = serde_json::from_str(state).map_err(|e| e.to_string())?;
    let text = |key: &str| v[key].as_str().map(str::to_owned);
    let number = |v: &serde_json::Value| v.as_u64().map(|n| n as usize);
    let record = match &v["record"] {
        serde_json::Value::Null => None,
        r => Some(serde_json::from_value::<Record>(r.clone()).map_err(|e| e.to_string())?),
    };
    let mut diagnostics = Vec::new();
    for d in v["diagnostics"].as_array().into_iter().flatten() {
        let code = d["code"]
            .as_str()
            .and_then(reversi_formats::codes::Code::from_name)
            .ok_or("a diagnostic without a known code")?;
        let message = d["message"].as_str().unwrap_or_default();
        let mut diagnostic = match d["severity"].as_str() {
            Some("error") => Diagnostic::error(code, message),
            Some("warning") => Diagnostic::warning(code, message),
            _ => Diagnostic::advice(code, message),
        };
        diagnostic.span = d["span"].as_array().and_then(|s| {
            Some(reversi_formats::record::Span::new(
                number(s.first()?)?,
                number(s.get(1)?)?,
            ))
        });
        diagnostic.label = d["label"].as_str().map(str::to_owned);
        diagnostic.help = d["help"].as_str().map(str::to_owned);
        diagnostic.game = number(&d["game"]);
        diagnostic.ply = number(&d["ply"]);
        diagnostic.move_number = number(&d["move"]);
        diagnostic.board = d["board"].as_str().map(str::to_owned);
        diagnostics.push(diagnostic);
    }
    Ok(ParsedGame {
        index: number(&v["index"]).ok_or("no index")?,
        source: Source {
            name: Arc::from(text("file").unwrap_or_default().as_str()),
            text: Arc::from(text("text").unwrap_or_default().as_str()),
            offset: number(&v["offset"]).unwrap_or(0),
            line: number(&v["line"]).unwrap_or(0),
        },
        record,
        diagnostics,
    })
}

fn escape(text: &str) -> String {
    reversi_formats::render::escape_markup(text)
}

/// The records of `games` (an iterable of `Game`).
pub(crate) fn records(py: Python<'_>, games: &Bound<'_, PyAny>) -> PyResult<Vec<Record>> {
    let mut out = Vec::new();
    for g in games.try_iter()? {
        // Millions of games take a while: Ctrl-C is looked for every 4,096.
        if out.len() % 4096 == 4095 {
            py.check_signals()?;
        }
        let g = g?;
        let game = g.downcast::<Game>()?.get();
        out.push(game.record(py)?.clone());
    }
    Ok(out)
}

fn refused(py: Python<'_>, e: &WriteError, target: &str, lossy: bool) -> PyErr {
    let (code, lost): (&str, Vec<String>) = match e {
        WriteError::Io(io) => return errors::raise(py, "ReadError", io.to_string(), "io", None),
        WriteError::CannotHold(what) => ("cannot-hold", what.clone()),
        WriteError::ChangesMeaning(what) => ("changes-meaning", what.clone()),
        WriteError::NeedsSetting { what, .. } => ("needs-setting", vec![what.clone()]),
        WriteError::HidesErrors { found, .. } => ("hides-errors", found.clone()),
    };
    let message = e
        .refusal(target, lossy)
        .unwrap_or_else(|| e.to_string())
        .replace("--lossy", "lossy=True");
    let extra = PyDict::new(py);
    let _ = extra.set_item("lost", PyList::new(py, &lost).ok());
    let _ = extra.set_item("lossy_helps", matches!(e, WriteError::CannotHold(_)));
    errors::raise(py, "WriteRefused", message, code, Some(extra))
}

/// Writes `records` as `format`; the bytes and what was dropped.
pub(crate) fn write_records(
    py: Python<'_>,
    records: &[Record],
    format: Format,
    options: &WriteOptions,
) -> PyResult<(Vec<u8>, Vec<String>)> {
    use std::sync::atomic::Ordering;
    let mut dropped = Vec::new();
    // Interruptible: the stop flag is looked at before each game written and read back.
    let result = crate::interrupt::interruptible(py, |stop| -> Result<_, WriteError> {
        let mut out = Vec::new();
        {
            let mut writer = format.writer(Box::new(&mut out), options);
            for record in records {
                if stop.load(Ordering::Relaxed) {
                    return Err(WriteError::Io(crate::interrupt::stopped()));
                }
                dropped.extend(writer.write(record)?);
            }
            writer.finish()?;
        }
        // What is written must read back: a game its reader would refuse (over the size
        // of a game, a line, its moves or tags) is refused here, before anything is
        // written out.
        let out = Arc::new(out);
        let unread = refused_on_reading(format, &out, records.len(), stop);
        Ok((out, unread))
    })?;
    let (out, unread) = result.map_err(|e| refused(py, &e, &format.name(), options.lossy))?;
    let out = Arc::try_unwrap(out).unwrap_or_else(|shared| shared.to_vec());
    if let Some((game, code, message)) = unread {
        let extra = PyDict::new(py);
        let _ = extra.set_item("lost", PyList::empty(py));
        let _ = extra.set_item("lossy_helps", false);
        return Err(errors::raise(
            py,
            "WriteRefused",
            format!(
                "{}: game {game} as written would not read back ({code}: {message}); not written",
                format.name()
            ),
            code,
            Some(extra),
        ));
    }
    Ok((out, dropped))
}

/// The first game of `bytes` (written as `format`) that its reader refuses for one of its
/// limits ([`MAX_GAME_BYTES`], [`MAX_MOVES`], [`MAX_TAGS`], a line's length), or reads
/// with no record, or the first of the `written` games missing when fewer read back: its
/// number among the games read back, the reader's code (`not-read-back` when it said
/// nothing) and message.
///
/// [`MAX_GAME_BYTES`]: reversi_formats::text::MAX_GAME_BYTES
/// [`MAX_MOVES`]: reversi_formats::text::MAX_MOVES
/// [`MAX_TAGS`]: reversi_formats::text::MAX_TAGS
fn refused_on_reading(
    format: Format,
    bytes: &Arc<Vec<u8>>,
    written: usize,
    stop: &std::sync::atomic::AtomicBool,
) -> Option<(usize, &'static str, String)> {
    use reversi_formats::codes::Code;
    let limit = |d: &Diagnostic| {
        d.is_error() && matches!(d.code, Code::SyntaxTooLong | Code::SyntaxGameTooLarge)
    };
    let len = Some(bytes.len() as u64);
    /// The bytes written, shared with the reader (not copied).
    struct Shared(Arc<Vec<u8>>);
    impl AsRef<[u8]> for Shared {
        fn as_ref(&self) -> &[u8] {
            &self.0
        }
    }
    // As `read` opens it: the detection step reads a JSON document's envelope.
    let Ok(detected) = Format::detect(
        Box::new(io::Cursor::new(Shared(bytes.clone()))),
        "<written>",
        len,
        Some(format),
    ) else {
        return None;
    };
    let mut games = GameReader::new(Input {
        format: detected.format,
        reader: detected.input,
        options: ReadOptions::default(),
    });
    let mut read = 0;
    while let Some(game) = games.next_parsed() {
        if stop.load(std::sync::atomic::Ordering::Relaxed) {
            // Interrupted: what it returns is dropped.
            return None;
        }
        let Ok(game) = game else {
            // The writer's own output failing to read is no limit of a game: the tests of
            // each format's round trip cover it.
            return None;
        };
        let found = game.diagnostics.iter().find(|d| limit(d)).or_else(|| {
            (game.index > 0 && game.record.is_none())
                .then(|| game.diagnostics.iter().find(|d| d.is_error()))
                .flatten()
        });
        if let Some(d) = found {
            return Some((game.index.max(1), d.code.name(), d.message.clone()));
        }
        read += usize::from(game.index > 0);
    }
    (read < written).then(|| {
        (
            read + 1,
            "not-read-back",
            format!("its reader finds {read} games of the {written} written"),
        )
    })
}

/// `write(games, path=None, format=None, lossy=False, year=None)`.
pub(crate) fn write_games(
    py: Python<'_>,
    games: &Bound<'_, PyAny>,
    path: Option<PathBuf>,
    format: Option<&str>,
    lossy: bool,
    year: Option<u16>,
) -> PyResult<PyObject> {
    let format = match (format_arg(py, format)?, &path) {
        (Some(f), _) => f,
        (None, Some(p)) => p
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .ok_or_else(|| {
                errors::raise(
                    py,
                    "FormatError",
                    format!(
                        "{}: no format for this extension; name it with format=...",
                        p.display()
                    ),
                    "unknown-format",
                    None,
                )
            })?,
        (None, None) => Format::Rgn,
    };
    let records = records(py, games)?;
    let options = WriteOptions {
        lossy,
        year,
        names_dir: path
            .as_ref()
            .and_then(|p| p.parent().map(|d| d.to_path_buf())),
        ..WriteOptions::default()
    };
    let (bytes, dropped) = write_records(py, &records, format, &options)?;
    match path {
        None => Ok(PyBytes::new(py, &bytes).into_any().unbind()),
        Some(path) => {
            let name = path.display().to_string();
            py.allow_threads(|| -> io::Result<()> {
                let mut file = reversi_formats::output::AtomicFile::create(&path)?;
                file.write_all(&bytes)?;
                file.commit()
            })
            .map_err(|e| errors::write(py, &name, &e))?;
            Ok(PyList::new(py, dropped)?.into_any().unbind())
        }
    }
}
