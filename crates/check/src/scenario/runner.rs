//! The scenarios a run against an engine plays (`reversi scenario --engine`): the
//! conformance suite or scenario files with their expected JSON, selected by `--only` and
//! `--skip`, each checked with [`compare::check`](super::compare::check).

use std::collections::BTreeMap;
use std::io::{self, Write};
use std::path::{Path, PathBuf};

use super::check::{expected_path, Format};
use super::compare::{check, Verdict};
use super::engine::{Engine, EngineError};
use super::facets;

pub use super::case::Case;

/// The cases of the conformance suite (`reversi scenario --suite`), in its order.
pub fn suite_cases() -> Result<Vec<Case>, String> {
    let files = super::suite::files().map_err(|e| e.message)?;
    let mut cases = Vec::new();
    for f in files.iter().filter(|f| f.path.ends_with(".scenario")) {
        let json_path = format!("{}.json", f.path.trim_end_matches(".scenario"));
        let json = files
            .iter()
            .find(|g| g.path == json_path)
            .ok_or_else(|| format!("{}: no expected JSON", f.path))?;
        cases.push(Case::new(&f.path, &f.contents, &json.contents)?);
    }
    Ok(cases)
}

/// The cases of scenario files and directories (each `.scenario` under a directory, in
/// name order), each with its expected JSON beside it (`NAME.json`). A file that cannot be
/// read, or has no expected JSON, is an error.
pub fn file_cases(paths: &[PathBuf]) -> Result<Vec<Case>, String> {
    let mut files = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut files).map_err(|e| format!("{}: {e}", path.display()))?;
        } else {
            files.push(path.clone());
        }
    }
    files
        .iter()
        .map(|path| {
            let text = super::read_file(path).map_err(|e| e.to_string())?;
            let json = super::read_file(expected_path(path, Format::Json))
                .map_err(|e| format!("{e} (the expected JSON of {})", path.display()))?;
            let name = path.display().to_string();
            Case::new(&name, &text, &json)
        })
        .collect()
}

fn walk(dir: &Path, out: &mut Vec<PathBuf>) -> io::Result<()> {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<io::Result<_>>()?;
    entries.sort();
    for path in entries {
        if path.is_dir() {
            walk(&path, out)?;
        } else if path.extension().is_some_and(|e| e == "scenario") {
            out.push(path);
        }
    }
    Ok(())
}

/// `--only` and `--skip`: a case is played when every `--only` pattern matches one of its
/// labels and no `--skip` pattern does ([`facets::matches`]).
#[derive(Clone, Debug, Default)]
pub struct Selection {
    /// The `--only` patterns.
    pub only: Vec<String>,
    /// The `--skip` patterns.
    pub skip: Vec<String>,
}

impl Selection {
    /// Whether the case is selected.
    pub fn selects(&self, case: &Case) -> bool {
        self.only.iter().all(|p| facets::matches(p, &case.labels))
            && !self.skip.iter().any(|p| facets::matches(p, &case.labels))
    }
}

/// How a run came out.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Summary {
    /// Scenarios the engine agrees with.
    pub agree: usize,
    /// Scenarios it disagrees with.
    pub differ: usize,
    /// Scenarios not played because the engine does not play a facet of theirs, by facet
    /// (`players=3`), or cannot run.
    pub skipped: BTreeMap<String, usize>,
    /// Scenarios `--only` and `--skip` left out.
    pub unselected: usize,
    /// Scenarios of the run, played or not (more than the others' sum when it stopped).
    pub total: usize,
}

impl Summary {
    /// One line: `195 scenarios: 150 agree, 2 differ, 43 skipped (players=3: 20, ...)`.
    pub fn line(&self) -> String {
        let skipped: usize = self.skipped.values().sum();
        let seen = self.agree + self.differ + skipped + self.unselected;
        let mut line = if seen < self.total {
            format!("stopped after {seen} of {} scenarios: ", self.total)
        } else {
            format!("{seen} scenarios: ")
        };
        line.push_str(&format!(
            "{} agree, {} differ, {skipped} skipped",
            self.agree, self.differ
        ));
        if skipped > 0 {
            let why: Vec<String> = self
                .skipped
                .iter()
                .map(|(k, n)| format!("{k}: {n}"))
                .collect();
            line.push_str(&format!(" (the engine does not play {})", why.join(", ")));
        }
        if self.unselected > 0 {
            line.push_str(&format!(", {} left out by --only/--skip", self.unselected));
        }
        line
    }
}

/// Plays the selected cases through `engine`, writing the first disagreement of each
/// scenario that differs to `out`. Stops at the first error talking to the engine (a
/// timeout, an exit), returning it with the summary so far.
pub fn run(
    engine: &mut Engine,
    cases: &[Case],
    selection: &Selection,
    out: &mut impl Write,
) -> io::Result<(Summary, Option<(String, EngineError)>)> {
    let mut summary = Summary {
        total: cases.len(),
        ..Summary::default()
    };
    for case in cases {
        if !selection.selects(case) {
            summary.unselected += 1;
            continue;
        }
        if let Some(facet) = engine.supports.lacks(&case.facets) {
            *summary.skipped.entry(facet).or_default() += 1;
            continue;
        }
        match check(engine, &case.scenario, &case.expected) {
            Ok(Verdict::Agree) => summary.agree += 1,
            Ok(Verdict::Skip(why)) => *summary.skipped.entry(why).or_default() += 1,
            Ok(Verdict::Differ(d)) => {
                summary.differ += 1;
                writeln!(out, "{}", d.render(&case.name))?;
            }
            Err(e) => {
                summary.differ += 1;
                return Ok((summary, Some((case.name.clone(), e))));
            }
        }
    }
    Ok((summary, None))
}
