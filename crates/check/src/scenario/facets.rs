//! What a scenario exercises, as labels an engine or a person can filter on
//! (`spec/engine-protocol.md` §4): the rules' facets (`board=10x10`, `players=3`, ...), the
//! rules string and the scenario's name, matched by glob patterns (`--only`, `--skip`, an
//! engine's `supports` lines).

use crate::engine::{Goal, Opening, Rules};

/// The facets a scenario has, in a fixed order: each rules facet (when it has rules), then
/// `parse` (whether it has `parse:` lines) and `setup` (`start` for the rules' own start
/// position, `given` for a `board:` or `start:` line).
///
/// ```
/// use reversi_check::scenario::facets;
/// let rules = "anti:10x10,blocked=a1".parse().unwrap();
/// let f = facets::of(Some(&rules), false, false);
/// assert!(f.contains(&("board", "10x10".to_owned())));
/// assert!(f.contains(&("goal", "fewest".to_owned())));
/// assert!(f.contains(&("blocked", "yes".to_owned())));
/// ```
pub fn of(rules: Option<&Rules>, parses: bool, given: bool) -> Vec<(&'static str, String)> {
    let yes = |b: bool| if b { "yes" } else { "no" }.to_owned();
    let mut facets = Vec::new();
    if let Some(r) = rules {
        facets.push(("preset", r.canonical_preset().name().to_owned()));
        facets.push(("board", r.board().name().to_owned()));
        facets.push(("players", r.players().to_string()));
        facets.push((
            "goal",
            match r.goal() {
                Goal::MostDiscs => "most",
                Goal::FewestDiscs => "fewest",
            }
            .to_owned(),
        ));
        facets.push((
            "opening",
            match r.opening() {
                Opening::Standard => "standard",
                Opening::Free => "free",
            }
            .to_owned(),
        ));
        facets.push((
            "discs",
            r.supply()
                .map_or_else(|| "unlimited".to_owned(), |n| n.to_string()),
        ));
        facets.push(("scoring", r.scoring().name().to_owned()));
        facets.push(("blocked", yes(!r.blocked().is_empty())));
        facets.push(("handicap", yes(r.handicap().is_some())));
    }
    facets.push(("parse", yes(parses)));
    facets.push(("setup", if given { "given" } else { "start" }.to_owned()));
    facets
}

/// Whether `pattern` matches `text` whole: `*` any run of characters, `?` one character,
/// anything else itself (ASCII letters in either case).
///
/// ```
/// use reversi_check::scenario::facets::glob;
/// assert!(glob("random/othello*", "random/othello-4x4-1"));
/// assert!(glob("board=10X10", "board=10x10"));
/// assert!(!glob("othello", "othello:4x4"));
/// ```
pub fn glob(pattern: &str, text: &str) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    // Iterative matching with one backtrack point (the last `*`): linear in practice.
    let (mut pi, mut ti) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while ti < t.len() {
        if pi < p.len() && (p[pi] == '?' || p[pi].eq_ignore_ascii_case(&t[ti])) {
            pi += 1;
            ti += 1;
        } else if pi < p.len() && p[pi] == '*' {
            star = Some((pi, ti));
            pi += 1;
        } else if let Some((sp, st)) = star {
            pi = sp + 1;
            ti = st + 1;
            star = Some((sp, st + 1));
        } else {
            return false;
        }
    }
    p[pi..].iter().all(|&c| c == '*')
}

/// Whether a pattern of `--only` or `--skip` matches one of `labels`: the pattern's
/// alternatives are separated by `|`, each a [`glob`].
///
/// ```
/// use reversi_check::scenario::facets::matches;
/// let labels = ["rules/pass".to_owned(), "board=4x4".to_owned()];
/// assert!(matches("board=8x8|board=4x4", &labels));
/// assert!(!matches("board=10x10", &labels));
/// ```
pub fn matches(pattern: &str, labels: &[String]) -> bool {
    pattern
        .split('|')
        .any(|alt| labels.iter().any(|l| glob(alt.trim(), l)))
}

/// The labels of a scenario the patterns of `--only` and `--skip` match: its name (the
/// path in the suite without `.scenario`, such as `rules/pass`), its canonical rules
/// string, each facet as `NAME=VALUE`, and each section of `spec/rules.md` it exercises as
/// `§N` (such as `§5.3`).
pub fn labels(
    name: &str,
    rules: Option<&str>,
    facets: &[(&'static str, String)],
    sections: &[String],
) -> Vec<String> {
    let mut labels = vec![name.trim_end_matches(".scenario").to_owned()];
    labels.extend(rules.map(str::to_owned));
    labels.extend(facets.iter().map(|(k, v)| format!("{k}={v}")));
    labels.extend(sections.iter().map(|s| format!("§{s}")));
    labels
}

/// What an engine declares it plays: its `supports FACET=VALUE|VALUE...` lines. A facet
/// it names none of is taken as supported whatever its value.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Supports {
    lines: Vec<(String, Vec<String>)>,
}

impl Supports {
    /// Reads the value of a `supports` line (`FACET=VALUE|VALUE`, values may be globs).
    pub fn add(&mut self, text: &str) -> Result<(), String> {
        let (facet, values) = text
            .trim()
            .split_once('=')
            .ok_or_else(|| format!("`supports {text}` is not `supports FACET=VALUE|...`"))?;
        let values: Vec<String> = values.split('|').map(|v| v.trim().to_owned()).collect();
        self.lines.push((facet.trim().to_ascii_lowercase(), values));
        Ok(())
    }

    /// The first facet of `facets` the engine does not play, as `NAME=VALUE`.
    ///
    /// ```
    /// use reversi_check::scenario::facets::{of, Supports};
    /// let mut s = Supports::default();
    /// s.add("players=2").unwrap();
    /// let multi3 = "multi3".parse().unwrap();
    /// assert_eq!(s.lacks(&of(Some(&multi3), false, false)), Some("players=3".to_owned()));
    /// assert_eq!(s.lacks(&of(None, true, false)), None);
    /// ```
    pub fn lacks(&self, facets: &[(&'static str, String)]) -> Option<String> {
        facets.iter().find_map(|(name, value)| {
            let refused = self
                .lines
                .iter()
                .filter(|(f, _)| f == name)
                .any(|(_, values)| !values.iter().any(|v| glob(v, value)));
            refused.then(|| format!("{name}={value}"))
        })
    }
}

/// The sections of `spec/rules.md` a scenario exercises, read from its expected JSON
/// (`spec/scenario.md` §8, the manifest): the rules' own sections (`5.1` anti, `5.3`
/// blocked squares, `6` classic, `7.1` 3-4 players, ...), and what happens in it: `3.2`
/// a pass, `3.3` a game end, `3.4` or `7.4` an outcome, `7.3` a fallback placement, `8` a
/// refused move, `9` a position set up, `10` a rules string read.
///
/// ```
/// use reversi_check::scenario::{self, facets};
/// let t = scenario::run("rules: othello:4x4,blocked=a1\nmoves: !a1 b1").unwrap();
/// let s = facets::sections(&t.to_json("x"));
/// assert_eq!(s, ["2", "3.1", "4", "5.3", "8"]);
/// ```
pub fn sections(json: &super::JsonScenario) -> Vec<String> {
    let mut s: Vec<&str> = Vec::new();
    if !json.parses.is_empty() {
        s.push("10");
    }
    let rules: Option<Rules> = json.rules.as_deref().and_then(|r| r.parse().ok());
    let Some(rules) = rules else {
        return s.into_iter().map(str::to_owned).collect();
    };
    let multi = rules.players() > 2;
    let setup_given = json.setup.as_ref().is_some_and(|setup| {
        setup.start != super::json::position_key(&crate::engine::Position::new(rules))
    });
    if !json.moves.is_empty() {
        s.push("2");
    }
    if setup_given || json.setup_refusal.is_some() {
        s.push("9");
    } else if multi {
        s.push("7.1");
    } else {
        s.push("3.1");
    }
    let played = |m: &&super::JsonMove| m.refused.is_none();
    if json.moves.iter().filter(played).any(|m| m.mv == "--") {
        s.push("3.2");
    }
    if json.outcome.is_some()
        || json
            .moves
            .iter()
            .any(|m| m.refusal.as_deref() == Some("GameOver"))
    {
        s.push(if multi { "7.4" } else { "3.3" });
    }
    if json.outcome.is_some() && !multi {
        s.push("3.4");
    }
    if rules.board() != crate::engine::BoardShape::Eight {
        s.push("4");
    }
    if rules.is_anti() {
        s.push("5.1");
    }
    if rules.opening() == Opening::Free && rules.supply().is_none() {
        s.push("5.2");
    }
    if !rules.blocked().is_empty() {
        s.push("5.3");
    }
    if rules.handicap().is_some() {
        s.push("5.4");
    }
    if rules.scoring() == crate::engine::Scoring::Raw && !multi {
        s.push("5.5");
    }
    if rules.supply().is_some() {
        s.push("6");
    }
    if multi {
        s.push("7.1");
        let fallback = json
            .moves
            .iter()
            .filter(played)
            .any(|m| m.mv != "--" && m.flips.is_empty())
            || json
                .moves
                .iter()
                .any(|m| matches!(m.refusal.as_deref(), Some("FlipAvailable" | "NotTouching")));
        if fallback {
            s.push("7.3");
        }
    }
    if json.moves.iter().any(|m| m.refusal.is_some()) {
        s.push("8");
    }
    let mut s: Vec<String> = s.into_iter().map(str::to_owned).collect();
    s.sort_by_key(|a| section_order(a));
    s.dedup();
    s
}

/// A section number as numbers, for ordering (`5.3` before `10`).
fn section_order(s: &str) -> Vec<u32> {
    s.split('.').filter_map(|n| n.parse().ok()).collect()
}
