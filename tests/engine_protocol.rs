//! `reversi scenario --engine`: the engine protocol (`spec/engine-protocol.md`) driving the
//! reference adapter (`--serve-engine`) through the whole suite, the Python example engine
//! (`examples/engine/reversi_engine.py`) through what it supports, the same engine with a
//! planted bug (a readable first disagreement), engines that hang or exit, and the library's
//! runner in process over in-memory pipes.

use std::io::{self, Read, Write};
use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc::{self, Receiver, Sender};
use std::time::{Duration, Instant};

use reversi_check::scenario::engine::{Channel, Engine};
use reversi_check::scenario::facets::{self, Supports};
use reversi_check::scenario::runner::{self, Selection};
use reversi_check::scenario::serve::serve;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");
const BIN: &str = env!("CARGO_BIN_EXE_reversi");

/// The Python example engine's command line.
fn python_engine() -> String {
    format!("python3 '{ROOT}/examples/engine/reversi_engine.py'")
}

/// The reference adapter's command line.
fn reference_engine() -> String {
    format!("'{BIN}' scenario --serve-engine")
}

/// The outcome of a run: exit code, standard output, standard error, time taken.
struct Run {
    code: Option<i32>,
    stdout: String,
    stderr: String,
    took: Duration,
}

/// Runs `reversi ARGS` with `env`, failing the test when it takes more than a minute (a
/// runner that hangs, or an engine left running that holds the pipes open).
fn reversi(args: &[&str], env: &[(&str, &str)]) -> Run {
    let mut cmd = Command::new(BIN);
    cmd.args(args)
        .current_dir(ROOT)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    for (k, v) in env {
        cmd.env(k, v);
    }
    let started = Instant::now();
    let mut child = cmd.spawn().expect("reversi starts");
    let mut stdout = child.stdout.take().expect("stdout");
    let mut stderr = child.stderr.take().expect("stderr");
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let mut out = String::new();
        let mut err = String::new();
        let _ = stdout.read_to_string(&mut out);
        let _ = stderr.read_to_string(&mut err);
        let _ = tx.send((out, err));
    });
    let Ok((stdout, stderr)) = rx.recv_timeout(Duration::from_secs(60)) else {
        let _ = child.kill();
        panic!("reversi {args:?} did not finish within a minute (its pipes stayed open)");
    };
    let code = child.wait().expect("reversi ends").code();
    Run {
        code,
        stdout,
        stderr,
        took: started.elapsed(),
    }
}

/// `python3` must be on the PATH: the example engine's tests fail (not skip) without it.
fn require_python() {
    let ok = Command::new("python3")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        ok,
        "python3 is not on the PATH: the example engine cannot run"
    );
}

/// How many suite scenarios the Python example supports, from its declared facets.
fn python_supported(cases: &[runner::Case]) -> usize {
    let mut s = Supports::default();
    for line in [
        "players=2",
        "opening=standard",
        "discs=unlimited",
        "parse=no",
    ] {
        s.add(line).unwrap();
    }
    cases
        .iter()
        .filter(|c| s.lacks(&c.facets).is_none())
        .count()
}

#[test]
fn the_reference_adapter_agrees_with_the_whole_suite() {
    let total = runner::suite_cases().unwrap().len();
    let run = reversi(&["scenario", "--engine", &reference_engine()], &[]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{total} scenarios: {total} agree, 0 differ, 0 skipped"
        )),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn the_python_example_passes_the_whole_suite() {
    require_python();
    let total = runner::suite_cases().unwrap().len();
    let run = reversi(&["scenario", "--engine", &python_engine()], &[]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{total} scenarios: {total} agree, 0 differ, 0 skipped"
        )),
        "{}",
        run.stderr
    );
    assert!(run.stdout.is_empty(), "{}", run.stdout);
}

#[test]
fn an_engine_declaring_less_is_skipped_where_it_does_not_play() {
    require_python();
    let cases = runner::suite_cases().unwrap();
    let supported = python_supported(&cases);
    assert!(
        supported >= 80,
        "only {supported} scenarios for two-player Othello"
    );
    let engine = format!("{} --only-othello", python_engine());
    let run = reversi(&["scenario", "--engine", &engine], &[]);
    assert_eq!(run.code, Some(0), "{}{}", run.stdout, run.stderr);
    let skipped = cases.len() - supported;
    let summary = format!(
        "{} scenarios: {supported} agree, 0 differ, {skipped} skipped (the engine does not play ",
        cases.len()
    );
    assert!(run.stderr.contains(&summary), "{}", run.stderr);
    assert!(run.stderr.contains("players=3"), "{}", run.stderr);
}

#[test]
fn a_planted_bug_gives_a_readable_first_disagreement() {
    require_python();
    let engine = python_engine();
    let run = reversi(
        &["scenario", "--engine", &engine],
        &[("REVERSI_EXAMPLE_BUG", "one-direction")],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    // One report per scenario that differs; the first of the suite's order is this one.
    let first = run.stdout.split("\n\n").next().unwrap();
    let expected = "\
rules/classic-out-of-discs.scenario: the engine disagrees at moves[8].after.flips, after move 9 (black f5)
  expected: d2[d3] e3[d3] f4[e4,f5] d6[d5]
  engine:   d2[d3] e3[d3] f4[e4] d6[d5]
  f4 flips e4 f5 (the engine: e4)
  the position (before the move, black to move):
     a b c d e f g h
   1 . . . . . . . .
   2 . . . . . . . .
   3 . . O X . X . .
   4 . . . O X . . .
   5 . . . X O . . .
   6 . . . . . O . .
   7 . . . . . . . .
   8 . . . . . . . .";
    assert_eq!(first.trim_end(), expected, "{}", run.stdout);
    let reports = run.stdout.matches("the engine disagrees at").count();
    assert!(reports > 10, "{reports} reports:\n{}", run.stdout);
    assert!(
        run.stderr.contains(&format!("{reports} differ")),
        "{}",
        run.stderr
    );

    // A scoring bug shows in the outcome only.
    let run = reversi(
        &["scenario", "--engine", &engine],
        &[("REVERSI_EXAMPLE_BUG", "draw-empties-to-black")],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stdout.contains(
            "spec/rules-07.scenario: the engine disagrees at outcome.score, at the end\n  \
             expected: black 18, white 18\n  engine:   black 33, white 3\n"
        ),
        "{}",
        run.stdout
    );
}

#[test]
fn an_engine_that_hangs_meets_the_timeout() {
    require_python();
    // Mid-run: the engine stops answering after 50 commands.
    let run = reversi(
        &["scenario", "--engine", &python_engine(), "--timeout", "3"],
        &[("REVERSI_EXAMPLE_HANG_AFTER", "50")],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("within 3 s (--timeout); the run stops here"),
        "{}",
        run.stderr
    );
    assert!(run.stderr.contains("stopped after "), "{}", run.stderr);
    assert!(run.took < Duration::from_secs(30), "took {:?}", run.took);
    // At the handshake: the engine never answers.
    let run = reversi(
        &[
            "scenario",
            "--engine",
            "python3 -c 'import time; time.sleep(3600)'",
            "--timeout",
            "0.5",
        ],
        &[],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the engine did not answer `protocol 1` within 0.5 s"),
        "{}",
        run.stderr
    );
}

#[test]
fn an_engine_that_exits_is_a_clear_error() {
    require_python();
    let run = reversi(
        &["scenario", "--engine", &python_engine()],
        &[("REVERSI_EXAMPLE_EXIT_AFTER", "50")],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stderr.contains("the engine exited before answering")
            && run
                .stderr
                .contains("(exited with status 3); the run stops here"),
        "{}",
        run.stderr
    );
    let run = reversi(&["scenario", "--engine", "python3 -c pass"], &[]);
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(
        run.stderr
            .contains("the engine exited before answering `protocol 1` (exited with status 0)"),
        "{}",
        run.stderr
    );
    // Another version of the protocol.
    let run = reversi(
        &["scenario", "--engine", "python3 -c \"print('ready 2')\""],
        &[],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("speaks protocol `2`"), "{}", run.stderr);
}

#[test]
fn only_and_skip_select_by_label() {
    let cases = runner::suite_cases().unwrap();
    let selection = Selection {
        only: vec!["board=10x10|board=octagon".into()],
        skip: vec!["random/*".into()],
    };
    let wanted = cases.iter().filter(|c| selection.selects(c)).count();
    // The oracle: the rules string of each JSON, read independently of the labels.
    let by_hand = cases
        .iter()
        .filter(|c| {
            let rules = c.expected.rules.as_deref().unwrap_or("");
            (rules.contains(":10x10") || rules.contains(":octagon"))
                && !c.name.starts_with("random/")
        })
        .count();
    assert_eq!(wanted, by_hand);
    assert!(wanted > 5);
    let run = reversi(
        &[
            "scenario",
            "--engine",
            &reference_engine(),
            "--only",
            "board=10x10|board=octagon",
            "--skip",
            "random/*",
        ],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!(
            "{wanted} agree, 0 differ, 0 skipped, {} left out by --only/--skip",
            cases.len() - wanted
        )),
        "{}",
        run.stderr
    );
    // A section label.
    let blocked = cases
        .iter()
        .filter(|c| facets::matches("§5.3", &c.labels))
        .count();
    let by_rules = cases
        .iter()
        .filter(|c| {
            c.expected
                .rules
                .as_deref()
                .is_some_and(|r| r.contains("blocked="))
        })
        .count();
    assert_eq!(blocked, by_rules);
}

#[test]
fn scenario_files_and_directories_run_through_an_engine() {
    let dir = std::env::temp_dir().join(format!("engine-protocol-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let run = reversi(&["scenario", "--suite", dir.to_str().unwrap()], &[]);
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    let rules_dir = dir.join("rules");
    let n = std::fs::read_dir(&rules_dir)
        .unwrap()
        .filter(|e| {
            e.as_ref()
                .is_ok_and(|e| e.path().extension().is_some_and(|x| x == "scenario"))
        })
        .count();
    let run = reversi(
        &[
            "scenario",
            "--engine",
            &reference_engine(),
            rules_dir.to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, Some(0), "{}", run.stderr);
    assert!(
        run.stderr.contains(&format!("{n} scenarios: {n} agree")),
        "{}",
        run.stderr
    );
    // An expected JSON that says otherwise is a disagreement, shown with its path.
    let pass = rules_dir.join("pass.json");
    let text = std::fs::read_to_string(&pass).unwrap();
    let edited = text.replacen("\"PassWithMoves\"", "\"FlipsNothing\"", 1);
    assert_ne!(edited, text, "pass.json has a PassWithMoves refusal");
    std::fs::write(&pass, edited).unwrap();
    let run = reversi(
        &[
            "scenario",
            "--engine",
            &reference_engine(),
            rules_dir.join("pass.scenario").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, Some(1), "{}", run.stderr);
    assert!(
        run.stdout.contains("refusal") && run.stdout.contains("expected: FlipsNothing"),
        "{}",
        run.stdout
    );
    // A scenario without its expected JSON cannot be run (exit 2).
    std::fs::remove_file(&pass).unwrap();
    let run = reversi(
        &[
            "scenario",
            "--engine",
            &reference_engine(),
            rules_dir.join("pass.scenario").to_str().unwrap(),
        ],
        &[],
    );
    assert_eq!(run.code, Some(2), "{}", run.stderr);
    assert!(run.stderr.contains("pass.json"), "{}", run.stderr);
    let _ = std::fs::remove_dir_all(&dir);
    assert!(!Path::new(&dir).exists());
}

/// One end of an in-memory pipe: bytes written to the `Writer` are read from the `Reader`.
struct Writer(Sender<Vec<u8>>);
struct Reader(Receiver<Vec<u8>>, Vec<u8>);

impl Write for Writer {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.0
            .send(buf.to_vec())
            .map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))?;
        Ok(buf.len())
    }
    fn flush(&mut self) -> io::Result<()> {
        Ok(())
    }
}

impl Read for Reader {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        if self.1.is_empty() {
            match self.0.recv() {
                Ok(bytes) => self.1 = bytes,
                Err(_) => return Ok(0),
            }
        }
        let n = buf.len().min(self.1.len());
        buf[..n].copy_from_slice(&self.1[..n]);
        self.1.drain(..n);
        Ok(n)
    }
}

fn pipe() -> (Writer, Reader) {
    let (tx, rx) = mpsc::channel();
    (Writer(tx), Reader(rx, Vec::new()))
}

#[test]
fn the_runner_and_the_adapter_talk_in_process() {
    let (to_engine, engine_in) = pipe();
    let (engine_out, from_engine) = pipe();
    std::thread::spawn(move || serve(io::BufReader::new(engine_in), engine_out));
    let channel = Channel::new(from_engine, to_engine, Duration::from_secs(10));
    let mut engine = Engine::handshake(channel).unwrap();
    assert!(engine.name.starts_with("reversi-record"), "{}", engine.name);
    let cases = runner::suite_cases().unwrap();
    let mut out = Vec::new();
    let (summary, failure) =
        runner::run(&mut engine, &cases, &Selection::default(), &mut out).unwrap();
    assert_eq!(failure, None);
    assert_eq!(summary.agree, cases.len());
    assert!(out.is_empty());

    // A case whose expected JSON is wrong in one fact: the disagreement names it.
    let case = cases
        .iter()
        .find(|c| c.name == "rules/multi3-fallback.scenario")
        .unwrap();
    let mut wrong = case.clone();
    let last = wrong.expected.moves.len() - 1;
    wrong.expected.moves[last].flips.push("a1".into());
    let (summary, _) = runner::run(&mut engine, &[wrong], &Selection::default(), &mut out).unwrap();
    assert_eq!(summary.differ, 1);
    let text = String::from_utf8(out).unwrap();
    assert!(text.contains(&format!("at moves[{last}].flips")), "{text}");

    // An engine that stops answering: a timeout, not a hang.
    let (to_engine, _engine_in) = pipe();
    let (_engine_out, from_engine) = pipe();
    let channel = Channel::new(from_engine, to_engine, Duration::from_millis(200));
    let started = Instant::now();
    let e = Engine::handshake(channel).unwrap_err();
    assert!(e.to_string().contains("did not answer `protocol 1`"), "{e}");
    assert!(started.elapsed() < Duration::from_secs(5));
}

/// The paths of a list of backticked names after `prefix` in `text`, up to a blank line.
fn listed(text: &str, prefix: &str) -> Vec<String> {
    let start = text
        .find(prefix)
        .unwrap_or_else(|| panic!("no `{prefix}` in the text"));
    let rest = &text[start + prefix.len()..];
    let end = rest.find("\n\n").unwrap_or(rest.len());
    rest[..end]
        .split('`')
        .skip(1)
        .step_by(2)
        .map(str::to_owned)
        .collect()
}

/// Every leaf field of the schema, by path (`[]` for list entries); objects that are maps
/// (flips, counts, discs in hand) are leaves.
fn schema_leaves(schema: &serde_json::Value) -> Vec<String> {
    fn resolve<'a>(
        schema: &'a serde_json::Value,
        v: &'a serde_json::Value,
    ) -> &'a serde_json::Value {
        if let Some(r) = v.get("$ref").and_then(|r| r.as_str()) {
            let name = r.trim_start_matches("#/$defs/");
            return resolve(schema, &schema["$defs"][name]);
        }
        if let Some(alts) = v.get("oneOf").and_then(|a| a.as_array()) {
            if let Some(obj) = alts
                .iter()
                .map(|a| resolve(schema, a))
                .find(|a| a.get("properties").is_some() || a.get("items").is_some())
            {
                return obj;
            }
        }
        v
    }
    fn walk(schema: &serde_json::Value, v: &serde_json::Value, path: &str, out: &mut Vec<String>) {
        let v = resolve(schema, v);
        if let Some(props) = v.get("properties").and_then(|p| p.as_object()) {
            // `error` is one field: a scenario that cannot run.
            if path == "error"
                || (!path.is_empty() && props.contains_key("black") && props.len() == 2)
            {
                out.push(path.to_owned());
                return;
            }
            for (k, sub) in props {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                walk(schema, sub, &p, out);
            }
        } else if let Some(items) = v.get("items") {
            let item = resolve(schema, items);
            if item.get("properties").is_some() {
                walk(schema, item, &format!("{path}[]"), out);
            } else {
                out.push(path.to_owned());
            }
        } else {
            out.push(path.to_owned());
        }
    }
    let mut out = Vec::new();
    walk(schema, schema, "", &mut out);
    out
}

#[test]
fn one_list_of_normative_facts_in_code_schema_spec_readme_and_guide() {
    use reversi_check::scenario::{NORMATIVE, NOT_NORMATIVE};
    let normative: Vec<String> = NORMATIVE.iter().map(|s| (*s).to_owned()).collect();
    let not: Vec<String> = NOT_NORMATIVE.iter().map(|s| (*s).to_owned()).collect();
    // The schema lists them, and every field of the schema is in one list or the other.
    let schema: serde_json::Value = serde_json::from_str(
        &std::fs::read_to_string(format!("{ROOT}/spec/scenario.schema.json")).unwrap(),
    )
    .unwrap();
    let strings = |v: &serde_json::Value| -> Vec<String> {
        v.as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap().to_owned())
            .collect()
    };
    assert_eq!(strings(&schema["x-normative"]), normative);
    assert_eq!(strings(&schema["x-not-normative"]), not);
    let mut leaves = schema_leaves(&schema);
    leaves.sort();
    let mut both: Vec<String> = normative.iter().chain(&not).cloned().collect();
    both.sort();
    assert_eq!(leaves, both, "the schema's fields are the two lists' paths");
    let before = both.len();
    both.dedup();
    assert_eq!(both.len(), before, "no path in both lists");
    // The prose: spec §8, the suite's README, the guide.
    let readme = reversi_check::scenario::suite::files()
        .unwrap()
        .into_iter()
        .find(|f| f.path == "README.md")
        .unwrap()
        .contents;
    for (name, text) in [
        (
            "spec/scenario.md",
            std::fs::read_to_string(format!("{ROOT}/spec/scenario.md")).unwrap(),
        ),
        (
            "docs/guide.md",
            std::fs::read_to_string(format!("{ROOT}/docs/guide.md")).unwrap(),
        ),
        ("the suite's README", readme),
    ] {
        assert_eq!(listed(&text, "Normative facts: "), normative, "{name}");
        assert_eq!(listed(&text, "Not normative: "), not, "{name}");
    }
}

/// Changes a JSON value so that it no longer says the same.
fn perturb(v: &mut serde_json::Value) {
    use serde_json::Value;
    match v {
        Value::Null => *v = Value::from("black"),
        Value::Bool(b) => *b = !*b,
        Value::Number(n) => *v = Value::from(n.as_u64().unwrap_or(0) + 1),
        Value::String(s) => {
            *s = match s.as_str() {
                "black" => "white".into(),
                "main" => "opening".into(),
                "opening" => "main".into(),
                other => format!("{other}?"),
            }
        }
        Value::Array(a) => a.push(Value::from("a1")),
        Value::Object(m) => {
            if let Some(n) = m.get("black").and_then(Value::as_u64) {
                m.insert("black".into(), Value::from(n + 1));
            } else if let Some(Value::Array(first)) = m.values_mut().next() {
                first.push(Value::from("x"));
            } else {
                m.insert("a1".into(), Value::Array(Vec::new()));
            }
        }
    }
}

/// The value at a path with `[]` taken as entry `index`, if there is one.
fn at<'a>(
    v: &'a mut serde_json::Value,
    path: &str,
    index: usize,
) -> Option<&'a mut serde_json::Value> {
    let mut v = v;
    for part in path.split('.') {
        let (name, list) = match part.strip_suffix("[]") {
            Some(n) => (n, true),
            None => (part, false),
        };
        v = v.get_mut(name)?;
        if list {
            v = v.get_mut(index)?;
        }
    }
    Some(v)
}

#[test]
fn the_runner_compares_every_normative_fact() {
    use reversi_check::scenario::compare::{check, Verdict};
    use reversi_check::scenario::{JsonScenario, StartGiven, NORMATIVE};
    let (to_engine, engine_in) = pipe();
    let (engine_out, from_engine) = pipe();
    std::thread::spawn(move || serve(io::BufReader::new(engine_in), engine_out));
    let channel = Channel::new(from_engine, to_engine, Duration::from_secs(10));
    let mut engine = Engine::handshake(channel).unwrap();
    let cases = runner::suite_cases().unwrap();
    for path in NORMATIVE {
        // A case holding the fact (setup facts: one the runner does not send, from the
        // rules' own start), its first entry holding it, changed.
        let mut tried = false;
        'cases: for case in &cases {
            if path.starts_with("setup.") && case.scenario.start != StartGiven::Rules {
                continue;
            }
            let original = serde_json::to_value(&case.expected).unwrap();
            for index in 0..original["moves"].as_array().map_or(1, |a| a.len().max(1)) {
                let mut value = original.clone();
                let Some(field) = at(&mut value, path, index) else {
                    continue;
                };
                if path.ends_with(".in_hand") && field.is_null() {
                    continue;
                }
                perturb(field);
                let concrete = path.replace("[]", &format!("[{index}]"));
                let expected: JsonScenario = serde_json::from_value(value).unwrap();
                let verdict = check(&mut engine, &case.scenario, &expected).unwrap();
                let Verdict::Differ(d) = verdict else {
                    panic!("{}: {concrete} changed, the runner agrees", case.name);
                };
                assert!(
                    d.path.starts_with(&concrete),
                    "{}: {concrete} changed, the runner reports {}",
                    case.name,
                    d.path
                );
                tried = true;
                break 'cases;
            }
        }
        assert!(tried, "no suite scenario holds {path}");
    }
}

#[test]
fn the_manifest_gives_each_scenario_its_rules_facets_and_sections() {
    let files = reversi_check::scenario::suite::files().unwrap();
    let manifest = files.iter().find(|f| f.path == "manifest.json").unwrap();
    let manifest: serde_json::Value = serde_json::from_str(&manifest.contents).unwrap();
    let entries = manifest["scenarios"].as_array().unwrap();
    let cases = runner::suite_cases().unwrap();
    assert_eq!(entries.len(), cases.len());
    for (entry, case) in entries.iter().zip(&cases) {
        assert_eq!(entry["scenario"], case.name.as_str());
        assert_eq!(entry["rules"].as_str(), case.expected.rules.as_deref());
        // The facets, read independently from the canonical rules string.
        let rules = case.expected.rules.as_deref().unwrap_or("");
        let facets = &entry["facets"];
        if !rules.is_empty() {
            let board = rules
                .split(',')
                .next()
                .and_then(|p| p.split_once(':'))
                .map_or("8x8", |(_, b)| b);
            assert_eq!(facets["board"], board, "{}", case.name);
            let players = if rules.starts_with("multi3") {
                "3"
            } else if rules.starts_with("multi4") {
                "4"
            } else {
                "2"
            };
            assert_eq!(facets["players"], players, "{}", case.name);
            let yes = |b: bool| if b { "yes" } else { "no" };
            assert_eq!(facets["blocked"], yes(rules.contains("blocked=")));
            assert_eq!(facets["handicap"], yes(rules.contains("handicap=")));
        }
        assert_eq!(
            facets["parse"],
            if case.expected.parses.is_empty() {
                "no"
            } else {
                "yes"
            }
        );
        let sections: Vec<&str> = entry["sections"]
            .as_array()
            .unwrap()
            .iter()
            .map(|s| s.as_str().unwrap())
            .collect();
        assert!(!sections.is_empty(), "{}: no sections", case.name);
        assert_eq!(
            sections.contains(&"8"),
            case.expected.moves.iter().any(|m| m.refusal.is_some()),
            "{}: §8 iff a move is refused",
            case.name
        );
        assert_eq!(
            sections.contains(&"10"),
            !case.expected.parses.is_empty(),
            "{}",
            case.name
        );
    }
}
