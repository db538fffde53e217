//! Rule scenarios: every special case of `spec/rules.md`, played through the engine.
//!
//! Each file in `fixtures/rules/` is a scenario (`spec/scenario.md`); the test renders its
//! text transcript with the library (`reversi_check::scenario`) and snapshots it. The worked
//! examples in `spec/rules.md` are scenarios too: each ```` ```scenario ```` block there is
//! followed by a ```` ```text ```` block that must equal its transcript, so every example in
//! the spec is checked against the engine. Run with `UPDATE_SPEC=1` to rewrite those text
//! blocks from the engine (then read the diff).

use std::path::Path;

use reversi_check::scenario::{self, check, markdown};
use reversi_engine::{Color, IllegalMove, Position, Rules};

/// Runs a scenario and returns its text transcript; panics (naming it) when the scenario is
/// broken or contradicts its own marks.
fn run(text: &str, name: &str) -> String {
    match scenario::run(text) {
        Ok(t) => t.to_text(),
        Err(e) => panic!("{name}: {e}"),
    }
}

#[test]
fn scenarios() {
    let mut all = String::new();
    insta::glob!("../fixtures/rules", "*.scenario", |path| {
        let text = std::fs::read_to_string(path).expect("fixture readable");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let transcript = run(&text, &name);
        all.push_str(&transcript);
        insta::with_settings!({ description => text.clone(), omit_expression => true }, {
            insta::assert_snapshot!(transcript);
        });
    });
    // The fixtures refuse a move for every reason there is.
    for kind in IllegalMove::ALL {
        assert!(
            all.contains(&format!("({kind:?})")),
            "no fixture refuses a move as {kind:?}"
        );
    }
}

#[test]
fn spec_examples_are_true() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/rules.md");
    let spec = std::fs::read_to_string(&path).expect("spec/rules.md exists");
    let examples = markdown::examples(&spec);
    assert!(examples.len() >= 20, "the spec has its worked examples");
    if std::env::var_os("UPDATE_SPEC").is_some() {
        let edits = examples
            .iter()
            .enumerate()
            .filter_map(|(i, ex)| {
                let text =
                    check::trim_line_ends(&run(&ex.scenario, &format!("spec example {}", i + 1)));
                ex.expected("text").map(|b| (b.range.clone(), text))
            })
            .collect();
        std::fs::write(&path, markdown::replace_blocks(&spec, edits)).expect("spec writable");
        return;
    }
    for (i, ex) in examples.iter().enumerate() {
        let expected = ex
            .expected("text")
            .unwrap_or_else(|| panic!("spec example {} has no text block after it", i + 1));
        let actual = run(&ex.scenario, &format!("spec example {}", i + 1));
        if let Some(diff) = check::compare(check::Format::Text, &expected.body, &actual) {
            panic!(
                "spec example {} (line {}) differs from the engine:\n{}\n{diff}",
                i + 1,
                ex.line,
                ex.scenario
            );
        }
    }
}

#[test]
fn canonical_rules_strings_read_back() {
    let strings = [
        "othello",
        "anti:10x10",
        "free:6x6,anti",
        "classic,blocked=a1+h8",
        "othello:4x4,handicap=black:1",
        "othello:10x10,handicap=white:4,scoring=raw",
        "multi3:octagon,anti,blocked=c1",
        "multi4:10x10",
        "anti:octagon,free,blocked=e1+f10",
    ];
    for s in strings {
        let rules: Rules = s.parse().unwrap();
        let canonical = rules.to_string();
        let again: Rules = canonical.parse().unwrap();
        assert_eq!(again, rules, "{s} -> {canonical}");
        assert_eq!(again.to_string(), canonical);
    }
}

#[test]
fn board_reader_round_trips_every_start() {
    for s in [
        "othello:4x4",
        "othello:6x6",
        "othello",
        "multi3:octagon",
        "multi4:10x10",
    ] {
        let rules: Rules = s.parse().unwrap();
        let pos = Position::new(rules);
        let shown = pos.to_string();
        let setup = scenario::read_diagram(&rules, &shown, Color::Black).unwrap();
        assert_eq!(setup, pos.setup(), "{s}");
        assert!(Position::from_setup(rules, setup).is_ok());
    }
}
