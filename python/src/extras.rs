//! `scenario.run`, `standings`, `repair`, `repair_files` and `convert`: the library's runs,
//! as dicts.

use std::io;
use std::path::PathBuf;

use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};
use reversi_check::event::{Register, Schedule, StandingsRequest};
use reversi_check::repair::{repair_game, repair_record, RepairOptions, RepairReport};
use reversi_formats::diagnostic::Renderer;
use reversi_formats::{Format, ParsedGame, ReadOptions};
use reversi_runs::pipeline::conversion::Outcome;
use reversi_runs::pipeline::validation::{Event as Validated, Validation};
use reversi_runs::run::{
    self, ConvertOptions, ConvertStep, ConvertedGame, Copies, RepairRunOptions, RepairStep,
};

use crate::convert::{ser_to_py, to_py};
use crate::errors::{self, Text};
use crate::games::{format_arg, open, open_input, Game, Src};

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

/// Searches the edits that make `game` legal (swapped moves, misread squares, ...; a
/// transcript grid's misread, missing or exchanged numbers) as `reversi repair` does: the
/// library's report of one game's repair (`reversi repair --format json` gives the same
/// object per game): `status` (`"valid"`, `"repaired"`, `"wrong-result"`, `"ambiguous"`,
/// `"unrepairable"`), `edits` (dicts, each with its `text`), `alternatives`, `finding` (the
/// diagnostic saying it all, or `None`) and the findings of the game as written; with the
/// repaired `Game` under `repaired` (or `None`). GIL released.
#[pyfunction]
#[pyo3(signature = (game, max_edits = 2))]
pub(crate) fn repair(
    py: Python<'_>,
    game: &Bound<'_, Game>,
    max_edits: usize,
) -> PyResult<PyObject> {
    let game = game.get();
    let options = RepairOptions {
        max_edits,
        ..RepairOptions::default()
    };
    let parsed = &game.game;
    let repair = match game.format {
        Some(format) => {
            let read = ReadOptions {
                name: parsed.source.name.clone(),
                ..ReadOptions::default()
            };
            py.allow_threads(|| repair_game(parsed, format, &read, &options))
        }
        None => {
            let record = game.record(py)?.clone();
            py.allow_threads(|| repair_record(&record, &options))
        }
    };
    let d = ser_to_py(py, &RepairReport::new(parsed, &repair))?;
    let repaired = repair.record.clone().map(|r| {
        Game::new(ParsedGame {
            index: parsed.index,
            source: parsed.source.clone(),
            record: Some(r.without_spans()),
            diagnostics: Vec::new(),
        })
    });
    d.bind(py)
        .set_item("repaired", repaired.map(|g| Py::new(py, g)).transpose()?)?;
    Ok(d)
}

/// Repairs the games of the files `paths` into the file `output` as `reversi repair` does,
/// with the library's repair run: every game repaired on several threads, written in input
/// order in `format` (default: the first input's; RGN for move strings), the output read
/// back and put in place only when every input was read and a game was written. Returns
/// the document `reversi repair --format json` prints: `games` (each game's repair, the
/// object `repair` gives, with the writer's `note`) and `summary`. GIL released;
/// interruptible.
#[pyfunction]
#[pyo3(signature = (paths, output, format = None, lossy = false, fix_result = false, max_edits = 2, jobs = None, rules = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn repair_files(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    output: PathBuf,
    format: Option<Text>,
    lossy: bool,
    fix_result: bool,
    max_edits: usize,
    jobs: Option<usize>,
    rules: Option<&Bound<'_, PyAny>>,
) -> PyResult<PyObject> {
    let to = format_arg(py, format.as_deref())?;
    let rules = crate::engine::rules_arg(py, rules)?;
    // Every input opens (else the exception the library's error calls for), before any work.
    for path in &paths {
        open_input(py, Src::Path(path.clone()), None, rules, None)?;
    }
    let options = RepairRunOptions {
        to,
        lossy,
        fix_result,
        jobs,
        input: reversi_runs::run::InputOptions {
            from: None,
            rules,
            names: None,
        },
        search: RepairOptions {
            max_edits,
            ..RepairOptions::default()
        },
        ..RepairRunOptions::new(&output)
    };
    let run = crate::interrupt::interruptible(py, |stop| {
        let mut games = Vec::new();
        let report = run::repair(&paths, &options, |step| {
            // Ctrl-C: the run stops and the output is not put in place.
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(crate::interrupt::stopped());
            }
            match step {
                RepairStep::Game {
                    game, repair, note, ..
                } => {
                    let mut value = serde_json::to_value(RepairReport::new(game, repair))?;
                    if let Some(fields) = value.as_object_mut() {
                        fields.insert("note".into(), serde_json::json!(note));
                    }
                    games.push(value);
                }
                RepairStep::OpenFailed(e) => {
                    return Err(io::Error::new(e.kind(), e.to_string()));
                }
                RepairStep::ReadFailed { name, error } => {
                    return Err(io::Error::new(
                        error.kind(),
                        format!("{name}: reading failed: {error}"),
                    ));
                }
                RepairStep::PickFailed(why) | RepairStep::NothingSelected(why) => {
                    return Err(io::Error::new(io::ErrorKind::InvalidInput, why.to_owned()));
                }
                _ => {}
            }
            Ok(())
        });
        report.map(|report| (report, games))
    });
    let (report, games) =
        run?.map_err(|stopped| errors::io(py, &output.display().to_string(), &stopped.error))?;
    let d = PyDict::new(py);
    let list = PyList::empty(py);
    for game in &games {
        list.append(to_py(py, game)?)?;
    }
    d.set_item("games", list)?;
    d.set_item("summary", ser_to_py(py, &report)?)?;
    Ok(d.into_any().unbind())
}

/// Converts the files `paths` into `output` (one file, or one per name a template such as
/// `WTH_{year}.wtb` gives) of `format` (else the extension's), as `reversi convert` does,
/// with the library's convert run: games replayed, passes written out, results settled, on
/// several threads; each output read back and put in place at the end, all or none.
/// Returns the run's report (the summary of `reversi convert --format json`), the
/// refusals (dicts of `file`, `game`, `message`) and under `reported` each game with
/// something to say (its outcome, findings, losses).
#[pyfunction]
#[pyo3(signature = (paths, output, format = None, lossy = false, jobs = None, names = None, rules = None, dedupe = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn convert(
    py: Python<'_>,
    paths: Vec<PathBuf>,
    output: PathBuf,
    format: Option<Text>,
    lossy: bool,
    jobs: Option<usize>,
    names: Option<PathBuf>,
    rules: Option<&Bound<'_, PyAny>>,
    dedupe: Option<Text>,
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
    let rules = crate::engine::rules_arg(py, rules)?;
    let dedupe = match dedupe.as_deref() {
        None => None,
        Some("exact") => Some(Copies::Exact),
        Some("symmetric") => Some(Copies::Symmetric),
        Some(other) => {
            return Err(errors::usage(
                py,
                format!("dedupe: expected \"exact\" or \"symmetric\", but found {other:?}"),
            ))
        }
    };
    // Every input opens (else the exception the library's error calls for), before any work.
    for path in &paths {
        open_input(py, Src::Path(path.clone()), None, rules, names.as_deref())?;
    }
    let options = ConvertOptions {
        lossy,
        jobs,
        dedupe,
        input: reversi_runs::run::InputOptions {
            from: None,
            rules,
            names,
        },
        ..ConvertOptions::new(format, &output)
    };
    let target = options.target_name();
    let run = crate::interrupt::interruptible(py, |stop| {
        let mut refusals = Vec::new();
        let mut games = Vec::new();
        let mut renderer = Renderer::plain();
        let report = run::convert(&paths, &options, |step| {
            // Ctrl-C: the run stops and no output is put in place.
            if stop.load(std::sync::atomic::Ordering::Relaxed) {
                return Err(crate::interrupt::stopped());
            }
            match step {
                ConvertStep::Game {
                    file,
                    game,
                    outcome,
                } => {
                    if let Outcome::Refused(e) = outcome {
                        let message = e
                            .refusal(&target, lossy)
                            .unwrap_or_else(|| e.to_string())
                            .replace("--lossy", "lossy=True");
                        refusals.push((file.to_string(), game.index, message));
                    }
                    let game =
                        ConvertedGame::new(file, game, outcome, (&target, lossy), &mut renderer);
                    if game.is_notable() {
                        games.push(serde_json::to_value(&game)?);
                    }
                }
                ConvertStep::OpenFailed(e) => {
                    return Err(io::Error::new(e.kind(), e.to_string()));
                }
                ConvertStep::ReadFailed { name, error } => {
                    return Err(io::Error::new(
                        error.kind(),
                        format!("{name}: reading failed: {error}"),
                    ));
                }
                _ => {}
            }
            Ok(())
        });
        report.map(|report| (report, refusals, games))
    });
    let (report, refusals, games) =
        run?.map_err(|stopped| errors::io(py, &output.display().to_string(), &stopped.error))?;
    if let Some(why) = &report.failed {
        return Err(errors::usage(py, why.clone()));
    }
    let d = ser_to_py(py, &report)?;
    let d = d.bind(py).downcast::<PyDict>()?.clone();
    let list = PyList::empty(py);
    for (file, game, message) in refusals {
        let r = PyDict::new(py);
        r.set_item("file", file)?;
        r.set_item("game", game)?;
        r.set_item("message", message)?;
        list.append(r)?;
    }
    d.set_item("refusals", list)?;
    let list = PyList::empty(py);
    for game in &games {
        list.append(to_py(py, game)?)?;
    }
    d.set_item("reported", list)?;
    Ok(d.into_any().unbind())
}
