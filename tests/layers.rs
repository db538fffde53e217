//! Every layer points down: the module graph of the library, read from the paths its code
//! names (`crate::…`, `super::…`; doc comments and test modules left out), names only
//! modules on lower floors (`FLOORS`, drawn in docs/development.md) and has no circle,
//! between top-level modules (engine, record, formats, validate, repair, …) or between the
//! modules inside one. Between the crates of `crates/` the compiler enforces it (a crate can
//! only name the crates below it); this test enforces it inside each crate too. The command
//! line (`src/cli`, `src/main.rs`) and the facade (`src/lib.rs`) sit above them all and are
//! left out.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The library's crates (the layers the compiler enforces, `crates/`), each with the module
/// its root stands for in the one module tree this test checks: the engine crate is
/// `crate::engine`, the formats crate `crate::formats` (its record, codes, output,
/// diagnostic and render modules are top-level modules of their own), and the check and
/// runs crates hold top-level modules only.
const CRATES: &[(&str, &str)] = &[
    ("crates/engine/src", "engine"),
    ("crates/formats/src", "formats"),
    ("crates/check/src", ""),
    ("crates/runs/src", ""),
];

/// The formats crate's modules that are top-level modules (floors) of their own.
const FORMATS_OWN_FLOORS: &[&str] = &["record", "codes", "output", "diagnostic", "render"];

/// A module path of crate `root` (the second field of [`CRATES`]) in the one module tree:
/// `crate::bits` in the engine crate is `crate::engine::bits`.
fn in_tree(root: &str, path: &[String]) -> Vec<String> {
    let mut out = vec!["crate".to_owned()];
    let first = path.first().map(String::as_str);
    let own_floor = root == "formats" && first.is_some_and(|f| FORMATS_OWN_FLOORS.contains(&f));
    let below = first.is_some_and(|f| f == "engine" || (root != "engine" && f == "formats"));
    if !root.is_empty() && !own_floor && !below {
        out.push(root.to_owned());
    }
    out.extend(path.iter().cloned());
    out
}

/// The library's source files, each with the module it is (`crate::formats::rgn`) and the
/// root of its crate.
fn modules() -> BTreeMap<String, (PathBuf, &'static str)> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).expect("src is readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut found = BTreeMap::new();
    for (dir, root) in CRATES {
        let src = Path::new(ROOT).join(dir);
        let mut files = Vec::new();
        walk(&src, &mut files);
        for path in files {
            let relative = path
                .strip_prefix(&src)
                .expect("under src")
                .with_extension("");
            let mut parts: Vec<String> = relative
                .components()
                .map(|c| c.as_os_str().to_string_lossy().into_owned())
                .collect();
            if parts.last().is_some_and(|p| p == "mod" || p == "lib") {
                parts.pop();
            }
            if parts.is_empty() && root.is_empty() {
                continue; // a crate root that only declares its modules
            }
            found.insert(in_tree(root, &parts).join("::"), (path, *root));
        }
    }
    found
}

/// The code of a file without its doc and line comments and without its test module.
fn code(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("a source file");
    let text = match text.find("#[cfg(test)]\nmod tests") {
        Some(at) => &text[..at],
        None => &text[..],
    };
    text.lines()
        .filter(|l| !l.trim_start().starts_with("//"))
        .collect::<Vec<_>>()
        .join("\n")
}

/// The paths `code` names that start with `crate::` or `super::`, as segments.
fn paths(code: &str) -> Vec<Vec<String>> {
    let bytes = code.as_bytes();
    let mut out = Vec::new();
    let mut at = 0;
    while at < code.len() {
        let rest = &code[at..];
        let Some(found) = ["crate::", "super::"]
            .iter()
            .filter_map(|p| rest.find(p))
            .min()
        else {
            break;
        };
        let start = at + found;
        let before_ok = start == 0
            || !(bytes[start - 1].is_ascii_alphanumeric()
                || bytes[start - 1] == b'_'
                || bytes[start - 1] == b':');
        let mut end = start;
        while end < code.len()
            && (bytes[end].is_ascii_alphanumeric() || bytes[end] == b'_' || bytes[end] == b':')
        {
            end += 1;
        }
        if before_ok {
            let path: Vec<String> = code[start..end]
                .split("::")
                .filter(|s| !s.is_empty())
                .map(str::to_owned)
                .collect();
            out.push(path);
        }
        at = end.max(start + 1);
    }
    out
}

/// The module graph: who names whom (a module naming its own parent or child is inside
/// it, not a layer apart).
fn graph() -> BTreeMap<String, BTreeSet<String>> {
    let modules = modules();
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for (name, (path, root)) in &modules {
        let own: Vec<&str> = name.split("::").collect();
        for mut segments in paths(&code(path)) {
            if segments[0] == "crate" {
                segments = in_tree(root, &segments[1..]);
            } else if segments[0] == "super" {
                // `super` is the parent module (of a folder's mod.rs and of a file alike).
                let mut base: Vec<String> = own.iter().map(|s| s.to_string()).collect();
                let mut ups = 0;
                while segments.first().is_some_and(|s| s == "super") {
                    segments.remove(0);
                    ups += 1;
                }
                for _ in 0..ups {
                    base.pop();
                }
                base.extend(segments);
                segments = base;
            }
            let target = (1..=segments.len())
                .rev()
                .map(|n| segments[..n].join("::"))
                .find(|candidate| modules.contains_key(candidate));
            if let Some(target) = target {
                let inside = target == *name
                    || name.starts_with(&format!("{target}::"))
                    || target.starts_with(&format!("{name}::"));
                if !inside {
                    edges.entry(name.clone()).or_default().insert(target);
                }
            }
        }
    }
    edges
}

/// The module at `depth` levels below `crate` that holds `module`.
fn level(module: &str, depth: usize) -> String {
    module
        .split("::")
        .take(depth + 1)
        .collect::<Vec<_>>()
        .join("::")
}

/// The circles (strongly connected parts of more than one module) of `edges`.
fn circles(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<Vec<String>> {
    struct Tarjan<'g> {
        edges: &'g BTreeMap<String, BTreeSet<String>>,
        index: BTreeMap<&'g str, usize>,
        low: BTreeMap<&'g str, usize>,
        stack: Vec<&'g str>,
        found: Vec<Vec<String>>,
    }
    impl<'g> Tarjan<'g> {
        fn visit(&mut self, v: &'g str) {
            let n = self.index.len();
            self.index.insert(v, n);
            self.low.insert(v, n);
            self.stack.push(v);
            for w in self.edges.get(v).into_iter().flatten() {
                if !self.index.contains_key(w.as_str()) {
                    self.visit(w);
                    let low = self.low[v].min(self.low[w.as_str()]);
                    self.low.insert(v, low);
                } else if self.stack.contains(&w.as_str()) {
                    let low = self.low[v].min(self.index[w.as_str()]);
                    self.low.insert(v, low);
                }
            }
            if self.low[v] == self.index[v] {
                let mut part = Vec::new();
                while let Some(w) = self.stack.pop() {
                    part.push(w.to_owned());
                    if w == v {
                        break;
                    }
                }
                if part.len() > 1 {
                    part.sort();
                    self.found.push(part);
                }
            }
        }
    }
    let mut tarjan = Tarjan {
        edges,
        index: BTreeMap::new(),
        low: BTreeMap::new(),
        stack: Vec::new(),
        found: Vec::new(),
    };
    for v in edges.keys() {
        if !tarjan.index.contains_key(v.as_str()) {
            tarjan.visit(v);
        }
    }
    tarjan.found
}

#[test]
fn no_module_imports_one_that_imports_it_back() {
    let edges = graph();
    assert!(
        edges.len() > 20,
        "the graph was read: {} modules name others",
        edges.len()
    );
    for depth in 1..=4 {
        let mut collapsed: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
        for (from, targets) in &edges {
            for to in targets {
                let (a, b) = (level(from, depth), level(to, depth));
                let nested =
                    a == b || b.starts_with(&format!("{a}::")) || a.starts_with(&format!("{b}::"));
                if !nested {
                    collapsed.entry(a).or_default().insert(b);
                }
            }
        }
        let found = circles(&collapsed);
        assert!(
            found.is_empty(),
            "import circles at depth {depth}: {found:?}"
        );
    }
}

#[test]
fn the_reader_sees_an_upward_import() {
    // The check itself: `validate` naming `repair` while `repair` names `validate` is found.
    let mut edges: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    edges
        .entry("crate::validate".into())
        .or_default()
        .insert("crate::repair".into());
    edges
        .entry("crate::repair".into())
        .or_default()
        .insert("crate::validate".into());
    edges
        .entry("crate::repair".into())
        .or_default()
        .insert("crate::engine".into());
    assert_eq!(
        circles(&edges),
        [vec![
            "crate::repair".to_owned(),
            "crate::validate".to_owned()
        ]]
    );
    assert_eq!(
        paths("use crate::formats::rgn; let x = super::super::Foo; notcrate::x"),
        [
            vec!["crate", "formats", "rgn"],
            vec!["super", "super", "Foo"]
        ]
    );
}

/// The library's floors, from the bottom: a module names only modules on floors below its
/// own (docs/development.md draws them). A new top-level module takes its place here.
const FLOORS: &[&[&str]] = &[
    &["engine"],
    &["record", "codes", "output"],
    &["diagnostic", "render"],
    &["formats"],
    &["edits"],
    &["validate", "scenario"],
    &["repair", "event"],
    &["pipeline"],
    &["dataset", "archive"],
    &["run"],
];

/// The floor of a top-level module (`crate::formats` is 3).
fn floor(module: &str) -> Option<usize> {
    let name = module.strip_prefix("crate::")?;
    FLOORS.iter().position(|floor| floor.contains(&name))
}

/// The imports between top-level modules that do not point down a floor, and the modules
/// that have no floor.
fn upward(edges: &BTreeMap<String, BTreeSet<String>>) -> Vec<String> {
    let mut found = Vec::new();
    for (from, targets) in edges {
        for to in targets {
            let (a, b) = (level(from, 1), level(to, 1));
            if a == b {
                continue;
            }
            match (floor(&a), floor(&b)) {
                (Some(x), Some(y)) if y < x => {}
                (Some(x), Some(y)) => found.push(format!(
                    "{from} (floor {x}) names {to} (floor {y}): an import pointing up or sideways"
                )),
                (None, _) => found.push(format!("{a} has no floor in FLOORS")),
                (_, None) => found.push(format!("{b} has no floor in FLOORS")),
            }
        }
    }
    found.sort();
    found.dedup();
    found
}

#[test]
fn every_import_points_down_a_floor() {
    let edges = graph();
    let found = upward(&edges);
    assert!(found.is_empty(), "{}", found.join("\n"));
    // Every top-level module of the library has its floor, and every floor is used.
    let modules: BTreeSet<String> = modules().keys().map(|m| level(m, 1)).collect();
    for module in modules.iter().filter(|m| *m != "crate") {
        assert!(floor(module).is_some(), "{module} has no floor in FLOORS");
    }
    let named: usize = FLOORS.iter().map(|f| f.len()).sum();
    let top_level = modules.iter().filter(|m| *m != "crate").count();
    assert_eq!(named, top_level, "FLOORS names a module that is gone");
}

#[test]
fn the_floor_check_sees_an_import_pointing_up_or_sideways() {
    fn add(edges: &mut BTreeMap<String, BTreeSet<String>>, from: &str, to: &str) {
        edges.entry(from.into()).or_default().insert(to.into());
    }
    let mut edges = BTreeMap::new();
    add(&mut edges, "crate::formats::rgn", "crate::engine::board");
    assert!(upward(&edges).is_empty());
    add(
        &mut edges,
        "crate::engine::board",
        "crate::pipeline::blocks",
    );
    add(&mut edges, "crate::validate", "crate::scenario");
    add(&mut edges, "crate::newcomer", "crate::engine");
    assert_eq!(upward(&edges).len(), 3, "{:?}", upward(&edges));
}
