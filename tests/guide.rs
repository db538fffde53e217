//! The examples of the README and the guide run as written: every `console` block's
//! `$ reversi ...` lines are run from the crate root (no colour, 80 columns), and what they
//! print, standard output and standard error as a terminal shows them, must be the lines
//! that follow, where a line `...` stands for any number of lines.

use std::path::Path;
use std::process::Command;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// One example: the arguments after `reversi`, what it must print, and where it is.
struct Example {
    args: Vec<String>,
    expected: Vec<String>,
    line: usize,
}

/// The examples of the `console` blocks of a Markdown text.
fn examples(markdown: &str) -> Vec<Example> {
    let mut out: Vec<Example> = Vec::new();
    let mut in_block = false;
    for (n, line) in markdown.lines().enumerate() {
        if !in_block {
            in_block = line.trim_end() == "```console";
            continue;
        }
        if line.trim_end() == "```" {
            in_block = false;
        } else if let Some(command) = line.strip_prefix("$ ") {
            let words = shell_words(command);
            assert_eq!(
                words.first().map(String::as_str),
                Some("reversi"),
                "line {}",
                n + 1
            );
            out.push(Example {
                args: words[1..].to_vec(),
                expected: Vec::new(),
                line: n + 1,
            });
        } else if let Some(example) = out.last_mut() {
            example.expected.push(line.to_owned());
        }
    }
    assert!(!in_block, "a console block is not closed");
    out
}

/// The words of a command line: spaces separate them, single quotes keep them together.
fn shell_words(line: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quoted = false;
    let mut any = false;
    for c in line.chars() {
        match c {
            '\'' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any {
                    words.push(std::mem::take(&mut word));
                    any = false;
                }
            }
            c => {
                word.push(c);
                any = true;
            }
        }
    }
    if any {
        words.push(word);
    }
    words
}

/// Runs `reversi` with `args` and returns what a terminal shows: both streams, in the
/// order they were written.
fn run(args: &[String]) -> Vec<String> {
    let output = Command::new("sh")
        .arg("-c")
        .arg("exec \"$0\" \"$@\" 2>&1")
        .arg(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env_remove("CLICOLOR_FORCE")
        .output()
        .expect("sh runs");
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .map(str::to_owned)
        .collect()
}

/// Whether `actual` is what `expected` says, `...` standing for any lines.
fn matches(expected: &[String], actual: &[String]) -> bool {
    match expected.split_first() {
        None => actual.is_empty(),
        Some((first, rest)) if first.trim() == "..." => {
            (0..=actual.len()).any(|skip| matches(rest, &actual[skip..]))
        }
        Some((first, rest)) => actual.split_first().is_some_and(|(line, others)| {
            line.trim_end() == first.trim_end() && matches(rest, others)
        }),
    }
}

fn check(file: &str) -> usize {
    let text = std::fs::read_to_string(Path::new(ROOT).join(file)).expect("the document");
    let examples = examples(&text);
    let mut failures = Vec::new();
    for example in &examples {
        let actual = run(&example.args);
        if !matches(&example.expected, &actual) {
            failures.push(format!(
                "{file}:{}: `reversi {}` prints\n{}\n--- where the document says\n{}",
                example.line,
                example.args.join(" "),
                actual.join("\n"),
                example.expected.join("\n")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    examples.len()
}

#[test]
fn the_readme_examples_print_what_the_readme_says() {
    // validate, convert, perft and explain; the longer examples are the guide's.
    assert_eq!(check("README.md"), 4);
}

#[test]
fn the_guide_examples_print_what_the_guide_says() {
    assert_eq!(check("docs/guide.md"), 12);
}

#[test]
fn the_matcher_can_fail() {
    let lines = |t: &str| t.lines().map(str::to_owned).collect::<Vec<_>>();
    assert!(matches(&lines("a\n...\nz"), &lines("a\nb\nc\nz")));
    assert!(matches(&lines("a\n...\nz"), &lines("a\nz")));
    assert!(!matches(&lines("a\n...\nz"), &lines("a\nb")));
    assert!(!matches(&lines("a\nb"), &lines("a\nc")));
    assert_eq!(
        shell_words("convert -o 'WTH_{year}.wtb' x"),
        ["convert", "-o", "WTH_{year}.wtb", "x"]
    );
}
