//! `reversi scenario`: run rule scenarios, check them against their expected transcripts,
//! write the conformance suite.

use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};

use reversi_check::scenario::check::{self, Format};
use reversi_check::scenario::{self, markdown, suite, ScenarioError};

use super::{exit, output, stderr_line};

/// Transcript formats.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum ScenarioFormat {
    /// The text transcript, as the snapshots show it.
    Text,
    /// JSON: `{"scenarios": [...]}`, or with `--check` one object per expected file.
    Json,
}

/// Run rule scenarios (`spec/scenario.md`): print their transcripts, check them, or write
/// the conformance suite.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Scenario files (`.scenario`), or Markdown files whose ```scenario blocks are run.
    /// With `--engine`: scenario files or directories of them, each with its expected JSON
    /// beside it (default: the conformance suite).
    #[arg(required_unless_present_any = ["suite", "engine", "serve_engine"])]
    files: Vec<PathBuf>,
    /// Transcript format (default text; with `--check` and `--bless`, a scenario whose
    /// expected transcript is only kept as JSON is taken as JSON).
    #[arg(long, value_enum)]
    format: Option<ScenarioFormat>,
    /// Compare each transcript with the expected one (beside a `.scenario` file as NAME.txt
    /// or NAME.json; in Markdown the ```text or ```json block after the scenario); exit 1
    /// with a diff on a difference.
    #[arg(long, conflicts_with = "bless")]
    check: bool,
    /// Write the expected transcripts from the engine (the files `--check` reads).
    #[arg(long)]
    bless: bool,
    /// Write the conformance suite (scenarios and expected JSON) into this directory.
    #[arg(long, value_name = "DIR", conflicts_with_all = ["files", "check", "bless"])]
    suite: Option<PathBuf>,
    /// Play the scenarios (default: the conformance suite) through an engine speaking the
    /// engine protocol on its standard input and output (spec/engine-protocol.md), started
    /// with the shell; exit 0 when it agrees with every scenario it plays, 1 on a
    /// disagreement (each scenario's first one is printed), 2 when it cannot start.
    #[arg(long, value_name = "COMMAND", conflicts_with_all = ["suite", "check", "bless", "format"])]
    engine: Option<String>,
    /// Seconds to wait for each answer of the engine.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 10.0,
        requires = "engine"
    )]
    timeout: f64,
    /// Play only the scenarios with a label matching PATTERN (a glob; `|` between
    /// alternatives): a name (`rules/pass`, `random/*`), a rules string, a facet
    /// (`board=10x10`, `players=2`) or a section (`§5.3`). Repeat to narrow.
    #[arg(long, value_name = "PATTERN", requires = "engine")]
    only: Vec<String>,
    /// Leave out the scenarios with a label matching PATTERN (as `--only`).
    #[arg(long, value_name = "PATTERN", requires = "engine")]
    skip: Vec<String>,
    /// Speak the engine protocol on standard input and output with this library's engine
    /// (the reference adapter for `--engine`).
    #[arg(long, conflicts_with_all = ["files", "suite", "check", "bless", "format", "engine"])]
    serve_engine: bool,
}

/// One scenario to run: where it comes from and what is expected of it.
struct Case {
    /// `PATH`, or `PATH:LINE` for a Markdown block.
    name: String,
    /// The line numbers of the scenario's text start here (Markdown: after the fence).
    first_line: usize,
    scenario: String,
    /// The expected transcript, if kept.
    expected: Option<String>,
    /// Where `--bless` writes: a file, or a block of the Markdown file.
    target: Target,
    /// The format of the expected transcript.
    format: Format,
}

enum Target {
    File(PathBuf),
    Block(std::ops::Range<usize>),
    Missing(String),
}

fn is_markdown(path: &Path) -> bool {
    matches!(
        path.extension().and_then(|e| e.to_str()),
        Some("md" | "markdown")
    )
}

/// The scenarios of a file; with `read_expected`, each with its expected transcript (an
/// expected file that cannot be read is reported and counts as missing). Without an
/// explicit `--format` (`fixed`), a scenario whose expected text is missing but whose
/// expected JSON is kept is taken as JSON.
fn cases_of(
    path: &Path,
    text: &str,
    format: Format,
    fixed: bool,
    read_expected: bool,
) -> Vec<Case> {
    let shown = path.display().to_string();
    if is_markdown(path) {
        return markdown::examples(text)
            .into_iter()
            .map(|ex| {
                let format = if !fixed
                    && ex.expected(format.block_lang()).is_none()
                    && ex.expected(Format::Json.block_lang()).is_some()
                {
                    Format::Json
                } else {
                    format
                };
                let block = ex.expected(format.block_lang());
                Case {
                    name: format!("{shown}:{}", ex.line),
                    first_line: ex.line,
                    expected: block.map(|b| b.body.clone()),
                    target: match block {
                        Some(b) => Target::Block(b.range.clone()),
                        None => Target::Missing(format!(
                            "no ```{} block follows the scenario",
                            format.block_lang()
                        )),
                    },
                    scenario: ex.scenario,
                    format,
                }
            })
            .collect();
    }
    let json_path = check::expected_path(path, Format::Json);
    let format = if !fixed
        && format == Format::Text
        && !check::expected_path(path, Format::Text).exists()
        && json_path.exists()
    {
        Format::Json
    } else {
        format
    };
    let expected_path = check::expected_path(path, format);
    let expected = match read_expected.then(|| scenario::read_file(&expected_path)) {
        Some(Ok(text)) => Some(text),
        Some(Err(e)) if e.kind() != io::ErrorKind::NotFound => {
            stderr_line(format_args!("error: {e}"));
            None
        }
        _ => None,
    };
    vec![Case {
        name: shown,
        first_line: 0,
        scenario: text.to_owned(),
        expected,
        target: Target::File(expected_path),
        format,
    }]
}

/// The line of the file an error is about.
fn error_line(case: &Case, e: &ScenarioError) -> Option<usize> {
    e.line.map(|l| l + case.first_line)
}

fn report_error(case: &Case, e: &ScenarioError) {
    let line = error_line(case, e);
    let at = match (line, case.first_line) {
        (Some(l), 0) => format!("{}:{l}", case.name),
        (Some(l), _) => {
            let file = case.name.rsplit_once(':').map_or(&*case.name, |(f, _)| f);
            format!("{file}:{l}")
        }
        (None, _) => case.name.clone(),
    };
    stderr_line(format_args!(
        "error[{}]: {at}: {}",
        e.kind.code(),
        e.message
    ));
}

fn write_suite(dir: &Path) -> io::Result<u8> {
    let files = match suite::files() {
        Ok(files) => files,
        Err(e) => {
            writeln!(io::stderr(), "error[{}]: {}", e.kind.code(), e.message)?;
            return Ok(exit::INVALID);
        }
    };
    // The files the suite wrote last time, from its manifest, to remove those it no longer
    // writes (nothing else in the directory is touched).
    let old: Vec<String> = std::fs::read_to_string(dir.join(suite::MANIFEST))
        .ok()
        .and_then(|text| suite::manifest_paths(&text))
        .unwrap_or_default();
    for file in &files {
        let path = dir.join(&file.path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)
                .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", parent.display())))?;
        }
        output::write_whole(&path, &[], file.contents.as_bytes())?;
    }
    let mut removed = 0;
    for stale in old.iter().filter(|p| !files.iter().any(|f| &f.path == *p)) {
        match std::fs::remove_file(dir.join(stale)) {
            Ok(()) => removed += 1,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(io::Error::new(
                    e.kind(),
                    format!("{}: {e}", dir.join(stale).display()),
                ))
            }
        }
    }
    if removed > 0 {
        writeln!(
            io::stderr(),
            "removed {removed} files an earlier suite wrote and this one does not"
        )?;
    }
    let scenarios = files
        .iter()
        .filter(|f| f.path.ends_with(".scenario"))
        .count();
    writeln!(
        io::stderr(),
        "wrote {} files ({scenarios} scenarios with their expected JSON) to {}",
        files.len(),
        dir.display()
    )?;
    Ok(exit::OK)
}

fn count(n: usize) -> String {
    if n == 1 {
        "1 scenario".into()
    } else {
        format!("{n} scenarios")
    }
}

/// Reads a scenario or Markdown file (at most `scenario::MAX_FILE_BYTES`).
fn read_input(path: &Path) -> io::Result<String> {
    scenario::read_file(path)
}

/// Runs, checks (`--check`) or blesses (`--bless`) the scenarios of the files, or writes
/// the example suite (`--suite`). The files are read one at a time and each transcript is
/// written as it is made, so memory holds one file and one transcript. A closed standard
/// output ends the run quietly, with the status of what ran.
pub(crate) fn run(args: Args) -> io::Result<u8> {
    if let Some(dir) = &args.suite {
        return write_suite(dir);
    }
    if args.serve_engine {
        scenario::serve::serve(io::stdin().lock(), io::stdout().lock())?;
        return Ok(exit::OK);
    }
    if let Some(command) = &args.engine {
        return run_engine(command, &args);
    }
    let format = match args.format {
        None | Some(ScenarioFormat::Text) => Format::Text,
        Some(ScenarioFormat::Json) => Format::Json,
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let mut state = State::default();
    let result = run_files(&args, format, &mut out, &mut state);
    let result = result.and_then(|()| out.flush());
    let State {
        mut code,
        tally: Tally {
            agree,
            differ,
            broken,
        },
        total,
    } = state;
    if differ + broken > 0 && code == exit::OK {
        code = exit::INVALID;
    }
    if result.is_ok() {
        if args.check {
            stderr_line(format_args!(
                "{}: {agree} agree, {differ} differ, {broken} cannot run",
                count(total)
            ));
        } else if args.bless {
            stderr_line(format_args!(
                "{}: {} expected transcripts written, {broken} cannot run",
                count(total),
                total - broken
            ));
        }
    }
    output::finish_stdout(result, code)
}

/// `--engine`: the scenarios through an external engine; exit 0 all agree, 1 a
/// disagreement (or the engine failing mid-run), 2 no scenarios or an engine that cannot
/// start.
fn run_engine(command: &str, args: &Args) -> io::Result<u8> {
    use scenario::engine::EngineProcess;
    use scenario::runner;
    let cases = if args.files.is_empty() {
        runner::suite_cases()
    } else {
        runner::file_cases(&args.files)
    };
    let cases = match cases {
        Ok(cases) => cases,
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            return Ok(exit::USAGE);
        }
    };
    let timeout = match std::time::Duration::try_from_secs_f64(args.timeout) {
        Ok(t) if !t.is_zero() => t,
        _ => {
            stderr_line(format_args!(
                "error: --timeout {}: a number of seconds above 0",
                args.timeout
            ));
            return Ok(exit::USAGE);
        }
    };
    let mut process = match EngineProcess::spawn(command, timeout) {
        Ok(p) => p,
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            return Ok(exit::USAGE);
        }
    };
    stderr_line(format_args!("engine: {}", process.engine.name));
    let selection = runner::Selection {
        only: args.only.clone(),
        skip: args.skip.clone(),
    };
    let mut out = BufWriter::new(io::stdout().lock());
    let ran = runner::run(&mut process.engine, &cases, &selection, &mut out);
    let result = ran.and_then(|r| out.flush().map(|()| r));
    let (summary, failure) = match result {
        Ok(r) => r,
        Err(e) => return output::finish_stdout(Err(e), exit::USAGE),
    };
    if let Some((name, e)) = failure {
        let e = process.explain(e);
        stderr_line(format_args!("error: {name}: {e}; the run stops here"));
    }
    stderr_line(summary.line());
    Ok(if summary.differ > 0 {
        exit::INVALID
    } else if summary.agree == 0 {
        stderr_line("error: the engine played no scenario");
        exit::USAGE
    } else {
        exit::OK
    })
}

/// Where transcripts go: standard output as they come, or a JSON report of them all.
enum Sink<'a, W: Write> {
    Plain(&'a mut W),
    Report(check::JsonReportWriter<&'a mut W>),
}

/// What a run has seen so far.
#[derive(Default)]
struct State {
    code: u8,
    tally: Tally,
    total: usize,
}

/// The files' scenarios, one file at a time; stops at the first error writing standard
/// output or a blessed file.
fn run_files(
    args: &Args,
    format: Format,
    out: &mut impl Write,
    state: &mut State,
) -> io::Result<()> {
    let inputs: Vec<&Path> = args.files.iter().map(PathBuf::as_path).collect();
    // Headers (`==> NAME <==`) when there are several scenarios: several files, or one file
    // of several blocks.
    // A single file is read once (a FIFO cannot be read twice), its result kept.
    let mut first: Option<io::Result<String>> = None;
    let several = match args.files.as_slice() {
        [one] => {
            let read = read_input(one);
            let several = read
                .as_ref()
                .is_ok_and(|text| is_markdown(one) && markdown::examples(text).len() > 1);
            first = Some(read);
            several
        }
        _ => true,
    };
    let mut sink = if format == Format::Json && !args.check && !args.bless {
        Sink::Report(check::JsonReportWriter::new(out))
    } else {
        Sink::Plain(out)
    };
    for path in &args.files {
        let text = match first.take().unwrap_or_else(|| read_input(path)) {
            Ok(text) => text,
            Err(e) => {
                stderr_line(format_args!("error: {e}"));
                state.code = exit::USAGE;
                continue;
            }
        };
        let cases = cases_of(path, &text, format, args.format.is_some(), args.check);
        state.total += cases.len();
        let mut edits = Vec::new();
        for case in &cases {
            let transcript = match scenario::run(&case.scenario) {
                Ok(t) => t,
                Err(e) => {
                    report_error(case, &e);
                    state.tally.broken += 1;
                    if let Sink::Report(report) = &mut sink {
                        let entry =
                            scenario::JsonScenario::failed(&case.name, &e, error_line(case, &e));
                        report.scenario(&entry)?;
                    }
                    continue;
                }
            };
            let out = match &mut sink {
                Sink::Report(report) => {
                    report.scenario(&transcript.to_json(&case.name))?;
                    continue;
                }
                Sink::Plain(out) => &mut **out,
            };
            let rendered = check::render(&transcript, &case.name, case.format);
            if args.bless {
                bless_case(case, rendered, &inputs, &mut edits, &mut state.tally)?;
            } else if args.check {
                check_case(out, case, case.format, &rendered, &mut state.tally)?;
            } else {
                if several {
                    writeln!(out, "==> {} <==", case.name)?;
                }
                write!(out, "{rendered}")?;
            }
        }
        if args.bless && is_markdown(path) && !edits.is_empty() {
            bless_markdown(path, &text, edits, format)?;
        }
    }
    if let Sink::Report(report) = sink {
        report.finish()?;
    }
    Ok(())
}

/// How the scenarios of a `--check` or `--bless` run came out.
#[derive(Default)]
struct Tally {
    agree: usize,
    differ: usize,
    broken: usize,
}

/// Writes a case's transcript as its expected one: into its file, or as an edit of its
/// Markdown block (made by [`bless_markdown`]).
/// A file is never written over one of the scenario `inputs`.
fn bless_case(
    case: &Case,
    rendered: String,
    inputs: &[&Path],
    edits: &mut Vec<(std::ops::Range<usize>, String)>,
    tally: &mut Tally,
) -> io::Result<()> {
    match &case.target {
        Target::File(p) => output::write_whole(p, inputs, rendered.as_bytes())?,
        Target::Block(range) => edits.push((range.clone(), rendered)),
        Target::Missing(why) => {
            writeln!(io::stderr(), "error: {}: {why}", case.name)?;
            tally.broken += 1;
        }
    }
    Ok(())
}

/// Compares a case's transcript with its expected one, printing a difference.
fn check_case(
    out: &mut impl Write,
    case: &Case,
    format: Format,
    rendered: &str,
    tally: &mut Tally,
) -> io::Result<()> {
    match &case.expected {
        None => {
            let why = match &case.target {
                Target::File(p) => format!("{} is missing", p.display()),
                Target::Missing(why) => why.clone(),
                Target::Block(_) => String::new(),
            };
            writeln!(
                out,
                "{}: no expected transcript: {why} (--bless writes it)",
                case.name
            )?;
            tally.differ += 1;
        }
        Some(expected) => match check::compare(format, expected, rendered) {
            None => tally.agree += 1,
            Some(diff) => {
                let how = match format {
                    Format::Text => "- expected, + actual",
                    Format::Json => "each differing value by its path",
                };
                writeln!(
                    out,
                    "{}: the transcript differs from the expected one ({how}):\n{diff}",
                    case.name
                )?;
                tally.differ += 1;
            }
        },
    }
    Ok(())
}

/// Writes the blessed transcripts into the Markdown file's blocks.
fn bless_markdown(
    path: &Path,
    text: &str,
    mut edits: Vec<(std::ops::Range<usize>, String)>,
    format: Format,
) -> io::Result<()> {
    if format == Format::Text {
        // Markdown editors strip the spaces that end the octagon's rows.
        edits = edits
            .into_iter()
            .map(|(r, t)| (r, check::trim_line_ends(&t)))
            .collect();
    }
    let updated = markdown::replace_blocks(text, edits);
    // The file is rewritten in place, atomically: a failed write leaves it whole.
    output::write_whole(path, &[], updated.as_bytes())
}
