//! `scenario.run`, `standings`, `repair` and `convert`: the library's runs, as dicts.

use std::io;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use reversi_check::event::{Register, Schedule, StandingsRequest};
use reversi_check::repair::{repair_record, RepairOptions};
use reversi_formats::{Format, ParsedGame, ReadOptions, WriteOptions};
use reversi_runs::pipeline::conversion::{Conversion, Event as Converted, Outcome};
use reversi_runs::pipeline::validation::{Event as Validated, Validation};
use reversi_runs::run::ReadBack;

use crate::convert::{ser_to_py, to_py};
use crate::errors::{self, Text};
use crate::games::{diagnostic_dicts, format_arg, open, Game, Src};

/// Runs a rule scenario: the JSON transcript (`spec/scenario.md`) as a dict, with its
/// text form under `"text"`. A scenario that does not parse or contradicts its own marks
/// raises `ScenarioError` (its `code` such as `"scenario-unexpected-legal"`, `line`).
#[pyfunction]
pub(crate) fn scenario_run(py: Python<'_>, text: Text) -> PyResult<PyObject> {
    let transcript = reversi_check::scenario::run(&text).map_err(|e| {
        let extra = PyDict::new(py);
        let _ = extra.set_item("line", e.line);
        errors::raise(
            py,
            "ScenarioError",
            e.to_string(),
            e.kind.code().name(),
            Some(extra),
        )
    })?;
    let json = transcript.to_json("<scenario>");
    let out = ser_to_py(py, &json)?;
    out.bind(py).set_item("text", transcript.to_text())?;
    Ok(out)
}

/// The pairings file and the player register of an event, read (`UsageError` for a file
/// that is not one, `ReadError` for one that cannot be read).
pub(crate) fn event_files(
    py: Python<'_>,
    pairings: Option<PathBuf>,
    players: Option<PathBuf>,
) -> PyResult<(Option<Schedule>, Option<std::sync::Arc<Register>>)> {
    let sheet_error = |e: std::io::Error| match e.kind() {
        std::io::ErrorKind::InvalidData => errors::usage(py, e.to_string()),
        _ => errors::raise(py, "ReadError", e.to_string(), "io", None),
    };
    let register = players
        .map(|path| Register::read(&path).map(std::sync::Arc::new))
        .transpose()
        .map_err(sheet_error)?;
    let pairings = pairings
        .map(|path| Schedule::read(&path))
        .transpose()
        .map_err(sheet_error)?;
    Ok((pairings, register))
}

/// The standings of the games in `paths` (WOC rules: points, Brightwell quotient, discs):
/// the library's report as a dict (`events`, each with its `standings` or `problems`;
/// `notes`; `problems`), with `text`, `csv` and `html`. Raises `StandingsError` when no
/// event can be ranked.
#[pyfunction]
#[pyo3(signature = (paths, event = None, withdrawn = None, jobs = None, pairings = None, players = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn standings(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    event: Option<Text>,
    withdrawn: Option<Vec<Text>>,
    jobs: Option<usize>,
    pairings: Option<PathBuf>,
    players: Option<PathBuf>,
) -> PyResult<PyObject> {
    let (pairings, register) = event_files(py, pairings, players)?;
    let mut inputs = Vec::new();
    for path in paths {
        let name = path.to_string_lossy().into_owned();
        inputs.push((name, Some(open(py, Src::Path(path), None, None, None)?)));
    }
    let mut validation = Validation::new();
    if let Some(j) = jobs {
        validation = validation.jobs(j);
    }
    let request = StandingsRequest {
        event: event.map(|e| e.0),
        withdrawn: withdrawn.map(|w| w.into_iter().map(|t| t.0).collect()),
        pairings,
    };
    // As `Validation::collect`, with a stop flag for Ctrl-C looked at between blocks.
    let result = crate::interrupt::interruptible(py, |stop| -> Result<_, String> {
        let mut event = reversi_check::event::Event::default();
        let mut failed: Option<String> = None;
        let mut name: std::sync::Arc<str> = "-".into();
        validation
            .gather(true)
            .run(inputs.into_iter(), |found| {
                if stop.load(std::sync::atomic::Ordering::Relaxed) {
                    return Err(crate::interrupt::stopped());
                }
                match found {
                    Validated::Start(input) => {
                        name = input.into();
                        event.start_input(name.clone());
                    }
                    Validated::Facts(block) => event.absorb(block),
                    Validated::ReadFailed(e) => {
                        failed.get_or_insert_with(|| format!("{name}: reading failed: {e}"));
                    }
                    Validated::Game(..) | Validated::Clean(_) | Validated::Ended(_) => {}
                }
                Ok(())
            })
            .map_err(|e| e.to_string())?;
        if let Some(first) = failed {
            return Err(first);
        }
        if let Some(register) = register {
            event.set_register(register);
        }
        Ok(event.standings(&request))
    });
    let report = match result? {
        Err(e) => return Err(errors::raise(py, "ReadError", e, "io", None)),
        Ok(Err(unknown)) => {
            return Err(errors::raise(
                py,
                "UsageError",
                unknown.to_string(),
                "usage",
                None,
            ))
        }
        Ok(Ok(report)) => report,
    };
    let ranked = report.events.iter().any(|e| e.standings.is_some());
    if !ranked || !report.problems.is_empty() {
        let problems = report.problems();
        let extra = PyDict::new(py);
        let _ = extra.set_item("problems", problems.clone());
        let message = match problems.is_empty() {
            true => "no standings: no game names its round and both players".to_owned(),
            false => format!("no standings: {}", problems.join("; ")),
        };
        return Err(errors::raise(
            py,
            "StandingsError",
            message,
            "standings",
            Some(extra),
        ));
    }
    let value = serde_json::to_value(&report)
        .map_err(|e| pyo3::exceptions::PyRuntimeError::new_err(e.to_string()))?;
    let out = to_py(py, &value)?;
    let d = out.bind(py);
    d.set_item("text", report.to_text())?;
    d.set_item("csv", report.to_csv())?;
    d.set_item("html", report.to_html())?;
    d.set_item("json", report.to_json())?;
    Ok(out)
}

/// Searches the edits that make `game` legal (swapped moves, misread squares, ...):
/// a dict of `status` (`"valid"`, `"repaired"`, `"wrong-result"`, `"ambiguous"`,
/// `"unrepairable"`), `edits` (text), `alternatives`, `game` (the repaired `Game`, or
/// `None`) and `report` (the diagnostic, or `None`). GIL released.
#[pyfunction]
#[pyo3(signature = (game, max_edits = 2))]
pub(crate) fn repair(
    py: Python<'_>,
    game: &Bound<'_, Game>,
    max_edits: usize,
) -> PyResult<PyObject> {
    let game = game.get();
    let record = game.record(py)?.clone();
    let options = RepairOptions {
        max_edits,
        ..RepairOptions::default()
    };
    let repair = py.allow_threads(|| repair_record(&record, &options));
    let d = PyDict::new(py);
    d.set_item("status", repair.status.name())?;
    d.set_item(
        "edits",
        repair
            .edits
            .iter()
            .map(|e| e.to_string())
            .collect::<Vec<_>>(),
    )?;
    let alternatives: Vec<Vec<String>> = repair
        .alternatives
        .iter()
        .map(|a| a.iter().map(|e| e.to_string()).collect())
        .collect();
    d.set_item("alternatives", alternatives)?;
    let repaired = repair.record.clone().map(|r| {
        Game::new(ParsedGame {
            index: game.game.index,
            source: game.game.source.clone(),
            record: Some(r.without_spans()),
            diagnostics: Vec::new(),
        })
    });
    d.set_item("game", repaired.map(|g| Py::new(py, g)).transpose()?)?;
    let report = match repair.report(game.game.index) {
        Some(r) => diagnostic_dicts(py, std::slice::from_ref(&r), &game.game.source)?
            .into_iter()
            .next(),
        None => None,
    };
    d.set_item("report", report)?;
    Ok(d.into_any().unbind())
}

/// Converts the files `paths` into one file `output` of `format` (else the extension's),
/// as `reversi convert` does: games replayed, passes written out, results settled, on
/// several threads, written atomically. Returns the counts and the refusals (dicts of
/// `file`, `game`, `message`).
#[pyfunction]
#[pyo3(signature = (paths, output, format = None, lossy = false, jobs = None, names = None))]
pub(crate) fn convert(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    output: PathBuf,
    format: Option<Text>,
    lossy: bool,
    jobs: Option<usize>,
    names: Option<PathBuf>,
) -> PyResult<PyObject> {
    let format = match format_arg(py, format.as_deref())? {
        Some(f) => f,
        None => output
            .extension()
            .and_then(|e| e.to_str())
            .and_then(Format::from_extension)
            .ok_or_else(|| {
                errors::raise(
                    py,
                    "FormatError",
                    format!(
                        "{}: no format for this extension; name it with format=...",
                        output.display()
                    ),
                    "unknown-format",
                    None,
                )
            })?,
    };
    for p in &paths {
        if p.canonicalize()
            .ok()
            .is_some_and(|c| Some(c) == output.canonicalize().ok())
        {
            return Err(errors::usage(
                py,
                format!(
                    "{} is an input: the output never overwrites one",
                    output.display()
                ),
            ));
        }
    }
    let mut inputs = Vec::new();
    for path in paths {
        let name = path.to_string_lossy().into_owned();
        inputs.push((
            name,
            Some(open(py, Src::Path(path), None, None, names.as_deref())?),
        ));
    }
    let write = WriteOptions {
        lossy,
        names_dir: output.parent().map(|d| d.to_path_buf()),
        ..WriteOptions::default()
    };
    let mut conversion = Conversion::new().target(format, &write, &ReadOptions::default());
    if let Some(j) = jobs {
        conversion = conversion.jobs(j);
    }
    let name = output.display().to_string();
    let target = format.name();
    let run = crate::interrupt::interruptible(py, |stop| -> io::Result<_> {
        let mut refusals = Vec::new();
        let mut file = reversi_formats::output::AtomicFile::create(&output)?;
        // What is written is read back before it is put in place (as `reversi convert`).
        let mut back = match (file.staging_path(), ReadBack::applies(format)) {
            (Some(staged), true) => Some((staged.to_path_buf(), ReadBack::beside(&output)?)),
            _ => None,
        };
        let tally = {
            let mut writer = format.writer(Box::new(&mut file), &write);
            let mut current = String::new();
            let tally = conversion
                .run(inputs.into_iter(), &mut *writer, |event| {
                    // Ctrl-C: the run stops and the file is not put in place.
                    if stop.load(std::sync::atomic::Ordering::Relaxed) {
                        return Err(crate::interrupt::stopped());
                    }
                    match event {
                        Converted::Start(n) => current = n,
                        Converted::Game(game, Outcome::Refused(e)) => refusals.push((
                            current.clone(),
                            game.index,
                            e.refusal(&target, lossy)
                                .unwrap_or_else(|| e.to_string())
                                .replace("--lossy", "lossy=True"),
                        )),
                        Converted::ReadFailed(e) => return Err(e),
                        Converted::Game(_, Outcome::Written(written)) => {
                            if let Some((_, back)) = &mut back {
                                back.push(written.fingerprint)?;
                            }
                        }
                        Converted::Game(..) => {}
                    }
                    Ok(())
                })
                .map_err(|s| s.error)?;
            writer.finish()?;
            tally
        };
        std::io::Write::flush(&mut file)?;
        if let Some((staged, back)) = back {
            let options = ReadOptions {
                name: std::sync::Arc::from(name.as_str()),
                ..ReadOptions::default()
            };
            back.check(&conversion, format, &staged, &options)
                .map_err(|e| io::Error::other(format!("{name}: {e}")))?;
        }
        file.commit()?;
        Ok((tally, refusals))
    });
    let (tally, refusals) = run?.map_err(|e| errors::io(py, &name, &e))?;
    let d = PyDict::new(py);
    d.set_item("files", tally.files)?;
    d.set_item("games", tally.games)?;
    d.set_item("written", tally.written)?;
    d.set_item("refused", tally.refused)?;
    d.set_item("unreadable", tally.unreadable)?;
    d.set_item("with_errors", tally.with_errors)?;
    d.set_item("derived_results", tally.derived_results)?;
    let list = PyList::empty(py);
    for (file, game, message) in refusals {
        let r = PyDict::new(py);
        r.set_item("file", file)?;
        r.set_item("game", game)?;
        r.set_item("message", message)?;
        list.append(r)?;
    }
    d.set_item("refusals", list)?;
    Ok(d.into_any().unbind())
}
