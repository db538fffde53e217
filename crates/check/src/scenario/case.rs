//! A scenario with its expected JSON, as the suite's manifest lists it and a run against
//! an engine plays it: its facets and the labels `--only` and `--skip` match.

use crate::engine::Rules;

use super::facets;
use super::json::JsonScenario;
use super::parse::{Scenario, StartGiven};

/// A scenario with its expected JSON and the labels `--only` and `--skip` match.
#[derive(Clone, Debug)]
pub struct Case {
    /// The scenario's name: its path in the suite (`rules/pass.scenario`) or as given.
    pub name: String,
    /// The scenario.
    pub scenario: Scenario,
    /// Its expected JSON.
    pub expected: JsonScenario,
    /// Its facets (`facets::of`).
    pub facets: Vec<(&'static str, String)>,
    /// Its labels (`facets::labels`).
    pub labels: Vec<String>,
}

impl Case {
    /// A case from a scenario's text and its expected JSON's text.
    pub fn new(name: &str, scenario: &str, expected: &str) -> Result<Case, String> {
        let sc = Scenario::parse(scenario).map_err(|e| format!("{name}: {}", e.message))?;
        let json: JsonScenario = serde_json::from_str(expected)
            .map_err(|e| format!("{name}: its expected JSON: {e}"))?;
        let rules: Option<Rules> = json.rules.as_deref().and_then(|r| r.parse().ok());
        let facets = facets::of(
            rules.as_ref(),
            !sc.parses.is_empty(),
            sc.start != StartGiven::Rules,
        );
        let sections = facets::sections(&json);
        let labels = facets::labels(name, json.rules.as_deref(), &facets, &sections);
        Ok(Case {
            name: name.to_owned(),
            scenario: sc,
            expected: json,
            facets,
            labels,
        })
    }
}
