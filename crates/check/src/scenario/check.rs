//! Comparing transcripts with the expected ones kept beside a scenario or in its Markdown.

use std::path::{Path, PathBuf};

use serde_json::Value;

use super::run::Transcript;

/// The two transcript formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// The text transcript.
    Text,
    /// One JSON scenario object, pretty-printed.
    Json,
}

impl Format {
    /// The extension of the expected file beside a `.scenario` file, and the language of the
    /// expected block in Markdown: `txt`/`text` or `json`.
    pub const fn extension(self) -> &'static str {
        match self {
            Format::Text => "txt",
            Format::Json => "json",
        }
    }

    /// The language of a Markdown block holding this format.
    pub const fn block_lang(self) -> &'static str {
        match self {
            Format::Text => "text",
            Format::Json => "json",
        }
    }
}

/// Where the expected transcript of a scenario file is kept: beside it, with the extension
/// of the format in place of `.scenario` (`pass.scenario` → `pass.txt` or `pass.json`). A
/// scenario named otherwise gets the extension added (`pass.txt` → `pass.txt.txt`), so the
/// expected file is never the scenario itself.
///
/// ```
/// use std::path::Path;
/// use reversi_check::scenario::check::{expected_path, Format};
/// assert_eq!(expected_path(Path::new("s/pass.scenario"), Format::Json), Path::new("s/pass.json"));
/// assert_eq!(expected_path(Path::new("s/pass.txt"), Format::Text), Path::new("s/pass.txt.txt"));
/// assert_eq!(expected_path(Path::new("s/pass"), Format::Text), Path::new("s/pass.txt"));
/// ```
pub fn expected_path(scenario: &Path, format: Format) -> PathBuf {
    match scenario.extension() {
        None => scenario.with_extension(format.extension()),
        Some(e) if e == "scenario" => scenario.with_extension(format.extension()),
        Some(_) => {
            let mut name = scenario.as_os_str().to_owned();
            name.push(".");
            name.push(format.extension());
            PathBuf::from(name)
        }
    }
}

/// The transcript in `format`, as `reversi scenario` prints it for one scenario and as the
/// expected files hold it (JSON: the scenario object, pretty, with a final newline).
pub fn render(transcript: &Transcript, file: &str, format: Format) -> String {
    match format {
        Format::Text => transcript.to_text(),
        Format::Json => json_text(&transcript.to_json(file)),
    }
}

/// JSON (a [`JsonScenario`](super::JsonScenario) or a whole report) pretty-printed, with a final newline: objects one member per line,
/// short arrays and objects of plain values (legal moves, flips, counts) on one line.
/// Used for expected files and for `reversi scenario --format json` alike.
pub fn json_text<T: serde::Serialize>(value: &T) -> String {
    let value = serde_json::to_value(value).unwrap_or(Value::Null);
    let mut text = String::new();
    write_value(&mut text, &value, 0);
    text.push('\n');
    text
}

/// A report of scenarios (`{"scenarios": [...]}`, as [`json_text`] writes a
/// [`JsonReport`](super::JsonReport)) written one scenario at a time, so a long report is
/// never held whole. The bytes are those of `json_text` on the whole report.
///
/// ```
/// use reversi_check::scenario::{self, check, JsonReport};
/// let t = scenario::run("rules: othello:4x4\nmoves: b1").unwrap();
/// let mut out = Vec::new();
/// let mut report = check::JsonReportWriter::new(&mut out);
/// report.scenario(&t.to_json("a.scenario"))?;
/// report.finish()?;
/// let whole = check::json_text(&JsonReport { scenarios: vec![t.to_json("a.scenario")] });
/// assert_eq!(String::from_utf8(out).unwrap(), whole);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Debug)]
pub struct JsonReportWriter<W: std::io::Write> {
    out: W,
    written: usize,
}

impl<W: std::io::Write> JsonReportWriter<W> {
    /// A report to `out`; nothing is written until the first scenario or [`finish`].
    ///
    /// [`finish`]: JsonReportWriter::finish
    pub fn new(out: W) -> JsonReportWriter<W> {
        JsonReportWriter { out, written: 0 }
    }

    /// Writes one scenario of the report.
    pub fn scenario(&mut self, scenario: &super::JsonScenario) -> std::io::Result<()> {
        let value = serde_json::to_value(scenario).unwrap_or(Value::Null);
        let mut text = String::from(if self.written == 0 {
            "{\n  \"scenarios\": [\n    "
        } else {
            ",\n    "
        });
        write_value(&mut text, &value, 2);
        self.written += 1;
        self.out.write_all(text.as_bytes())
    }

    /// Ends the report and gives the output back.
    pub fn finish(mut self) -> std::io::Result<W> {
        let end: &[u8] = if self.written == 0 {
            b"{\"scenarios\": []}\n"
        } else {
            b"\n  ]\n}\n"
        };
        self.out.write_all(end)?;
        Ok(self.out)
    }
}

/// The longest array and object written on one line.
const INLINE_ARRAY: usize = 80;
const INLINE_OBJECT: usize = 120;

fn is_scalar(v: &Value) -> bool {
    !matches!(v, Value::Array(_) | Value::Object(_))
}

/// The one-line form of a value when it is short and holds no object or array of arrays.
fn inline(v: &Value) -> Option<String> {
    let (flat, width) = match v {
        Value::Array(items) => (items.iter().all(is_scalar), INLINE_ARRAY),
        Value::Object(map) => (
            map.values().all(|m| {
                is_scalar(m) || matches!(m, Value::Array(items) if items.iter().all(is_scalar))
            }),
            INLINE_OBJECT,
        ),
        _ => (true, usize::MAX),
    };
    let text = serde_json::to_string(v).ok()?;
    // serde_json's compact form has no spaces; add them after `,` and `:` outside strings.
    let mut spaced = String::with_capacity(text.len() + 16);
    let (mut in_string, mut escaped) = (false, false);
    for ch in text.chars() {
        spaced.push(ch);
        if in_string {
            match ch {
                _ if escaped => escaped = false,
                '\\' => escaped = true,
                '"' => in_string = false,
                _ => {}
            }
        } else if ch == '"' {
            in_string = true;
        } else if ch == ',' || ch == ':' {
            spaced.push(' ');
        }
    }
    (flat && spaced.len() <= width).then_some(spaced)
}

fn write_value(out: &mut String, v: &Value, indent: usize) {
    if let Some(text) = inline(v) {
        out.push_str(&text);
        return;
    }
    let pad = "  ".repeat(indent + 1);
    let close = "  ".repeat(indent);
    match v {
        Value::Array(items) => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                out.push_str(&pad);
                write_value(out, item, indent + 1);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push(']');
        }
        Value::Object(map) => {
            out.push_str("{\n");
            for (i, (key, item)) in map.iter().enumerate() {
                out.push_str(&pad);
                out.push_str(&Value::from(key.as_str()).to_string());
                out.push_str(": ");
                write_value(out, item, indent + 1);
                out.push_str(if i + 1 < map.len() { ",\n" } else { "\n" });
            }
            out.push_str(&close);
            out.push('}');
        }
        _ => out.push_str(&v.to_string()),
    }
}

/// The text with the spaces at the end of each line removed (the octagon's diagrams end in
/// spaces, which editors strip).
pub fn trim_line_ends(text: &str) -> String {
    text.lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}

/// A JSON text without its `file` field; `None` when it is not JSON. The other keys keep
/// their order (`shift_remove`: a plain `remove` would move the last key into its place).
fn without_file(text: &str) -> Option<Value> {
    let mut value: Value = serde_json::from_str(text).ok()?;
    if let Some(map) = value.as_object_mut() {
        map.shift_remove("file");
    }
    Some(value)
}

/// The most differences [`json_diff`] lists.
const MAX_JSON_DIFFERENCES: usize = 40;

/// The differences between two JSON values, one line each, named by their path in the
/// expected value (`positions[2].board[0]: expected "....", actual "...X"`), keys in the
/// expected file's order then the actual's extra keys. At most 40 lines, then a count.
///
/// ```
/// use reversi_check::scenario::check::json_diff;
/// let e = serde_json::json!({"positions": [{"board": ["..", "XO"]}], "outcome": null});
/// let a = serde_json::json!({"positions": [{"board": ["..", "XX"]}], "outcome": 1, "x": 2});
/// assert_eq!(
///     json_diff(&e, &a),
///     "positions[0].board[1]: expected \"XO\", actual \"XX\"\n\
///      outcome: expected null, actual 1\n\
///      x: not expected, actual 2\n"
/// );
/// ```
pub fn json_diff(expected: &Value, actual: &Value) -> String {
    let mut lines = Vec::new();
    let mut more = 0;
    walk(expected, actual, String::new(), &mut lines, &mut more);
    let mut out: String = lines.iter().map(|l| format!("{l}\n")).collect();
    if more > 0 {
        out.push_str(&format!("... and {more} more differences\n"));
    }
    out
}

fn short(v: &Value) -> String {
    let text = v.to_string();
    match text.char_indices().nth(100) {
        Some((at, _)) => format!("{}...", &text[..at]),
        None => text,
    }
}

fn note(lines: &mut Vec<String>, more: &mut usize, line: String) {
    if lines.len() < MAX_JSON_DIFFERENCES {
        lines.push(line);
    } else {
        *more += 1;
    }
}

fn walk(e: &Value, a: &Value, path: String, lines: &mut Vec<String>, more: &mut usize) {
    if e == a {
        return;
    }
    let at = |p: &str| {
        if p.is_empty() {
            "(the whole value)".to_owned()
        } else {
            p.to_owned()
        }
    };
    match (e, a) {
        (Value::Object(em), Value::Object(am)) => {
            for (k, ev) in em {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                match am.get(k) {
                    Some(av) => walk(ev, av, sub, lines, more),
                    None => note(
                        lines,
                        more,
                        format!("{sub}: expected {}, missing", short(ev)),
                    ),
                }
            }
            for (k, av) in am.iter().filter(|(k, _)| !em.contains_key(*k)) {
                let sub = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                note(
                    lines,
                    more,
                    format!("{sub}: not expected, actual {}", short(av)),
                );
            }
        }
        (Value::Array(ev), Value::Array(av)) => {
            for (i, (x, y)) in ev.iter().zip(av).enumerate() {
                walk(x, y, format!("{path}[{i}]"), lines, more);
            }
            for (i, x) in ev.iter().enumerate().skip(av.len()) {
                note(
                    lines,
                    more,
                    format!("{path}[{i}]: expected {}, missing", short(x)),
                );
            }
            for (i, y) in av.iter().enumerate().skip(ev.len()) {
                note(
                    lines,
                    more,
                    format!("{path}[{i}]: not expected, actual {}", short(y)),
                );
            }
        }
        _ => note(
            lines,
            more,
            format!("{}: expected {}, actual {}", at(&path), short(e), short(a)),
        ),
    }
}

/// Compares an expected transcript with the actual one: `None` when they agree, else the
/// differences. Text is compared line by line with spaces at line ends ignored, and the
/// difference is a line diff (`-` expected, `+` actual); JSON as values, ignoring the `file`
/// field (where a scenario lives is not part of its answer), and the difference is one line
/// per differing value named by its path ([`json_diff`]).
///
/// ```
/// use reversi_check::scenario::check::{compare, Format};
/// assert_eq!(compare(Format::Text, "a \nb\n", "a\nb\n"), None);
/// assert_eq!(compare(Format::Text, "a\nb\n", "a\nc\n").unwrap(), "  a\n- b\n+ c\n");
/// ```
pub fn compare(format: Format, expected: &str, actual: &str) -> Option<String> {
    match format {
        Format::Text => {
            let (e, a) = (trim_line_ends(expected), trim_line_ends(actual));
            (e != a).then(|| diff(&e, &a))
        }
        Format::Json => match (without_file(expected), without_file(actual)) {
            (Some(e), Some(a)) if e == a => None,
            (Some(e), Some(a)) => Some(json_diff(&e, &a)),
            _ => Some(diff(expected, actual)),
        },
    }
}

/// A line diff: context lines start with two spaces, lines only in `old` with `- `, lines
/// only in `new` with `+ `. Runs of more than three equal lines are cut to `...`.
pub fn diff(old: &str, new: &str) -> String {
    let a: Vec<&str> = old.lines().collect();
    let b: Vec<&str> = new.lines().collect();
    let prefix = a.iter().zip(&b).take_while(|(x, y)| x == y).count();
    let suffix = a[prefix..]
        .iter()
        .rev()
        .zip(b[prefix..].iter().rev())
        .take_while(|(x, y)| x == y)
        .count();
    let (ma, mb) = (&a[prefix..a.len() - suffix], &b[prefix..b.len() - suffix]);
    let mut ops: Vec<(char, &str)> = a[..prefix].iter().map(|l| (' ', *l)).collect();
    if ma.len().saturating_mul(mb.len()) <= 4_000_000 {
        // Longest common subsequence of the middle.
        let (n, m) = (ma.len(), mb.len());
        let mut lcs = vec![vec![0u32; m + 1]; n + 1];
        for i in (0..n).rev() {
            for j in (0..m).rev() {
                lcs[i][j] = if ma[i] == mb[j] {
                    lcs[i + 1][j + 1] + 1
                } else {
                    lcs[i + 1][j].max(lcs[i][j + 1])
                };
            }
        }
        let (mut i, mut j) = (0, 0);
        while i < n || j < m {
            if i < n && j < m && ma[i] == mb[j] {
                ops.push((' ', ma[i]));
                i += 1;
                j += 1;
            } else if i < n && (j == m || lcs[i + 1][j] >= lcs[i][j + 1]) {
                ops.push(('-', ma[i]));
                i += 1;
            } else {
                ops.push(('+', mb[j]));
                j += 1;
            }
        }
    } else {
        ops.extend(ma.iter().map(|l| ('-', *l)));
        ops.extend(mb.iter().map(|l| ('+', *l)));
    }
    ops.extend(a[a.len() - suffix..].iter().map(|l| (' ', *l)));
    // Keep three lines of context around changes.
    let near = |k: usize| {
        let lo = k.saturating_sub(3);
        let hi = (k + 4).min(ops.len());
        ops[lo..hi].iter().any(|(op, _)| *op != ' ')
    };
    let mut out = String::new();
    let mut skipped = false;
    for (k, (op, line)) in ops.iter().enumerate() {
        if *op == ' ' && !near(k) {
            if !skipped {
                out.push_str("...\n");
                skipped = true;
            }
            continue;
        }
        skipped = false;
        out.push(*op);
        out.push(' ');
        out.push_str(line);
        out.push('\n');
    }
    out
}
