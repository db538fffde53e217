//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use reversi_engine::Rules;
use reversi_formats::capabilities::LossSummary;
use reversi_formats::diagnostic::Renderer;
use reversi_formats::{wthor, Format, ReadOptions, RecordWriter, WriteOptions};
use reversi_runs::pipeline::conversion::{
    Conversion, Event, Fingerprint, Outcome, OutputTemplate, Outputs, Stopped, Tally, TemplateError,
};
use reversi_runs::run::ReadBack;

use super::input::{self, InputOptions};
use super::output::{self, Output, SharedOutput};
use super::{exit, stderr_line, OutputFormat};

mod files;
mod report;

use files::*;
use report::*;

/// Convert records to another format. What the target cannot hold is refused, naming the
/// game and what would be lost, unless `--lossy` is given.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note).
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Target format, `FORMAT[:DIALECT]`: `rgn`, `json`, `json:lines`, `wthor`, `ggf`, `pgn`, `pgn:thor`, `pgn:playok`, `pgn:edax`, `sgf`, `moves`, `moves:nopass` (passes left out), `transcript`, `obf`.
    #[arg(long, value_parser = input::parse_target)]
    to: (Format, Option<String>),
    /// Output file; `-` (the default) writes standard output. A name with fields writes a
    /// file for each value the games give: `WTH_{year}.wtb`, `{event}/round-{round}.rgn`,
    /// any tag as `{TagName}` (`unknown` when a game has none; folders are created).
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Read as this format instead of detecting it.
    #[arg(long, value_parser = input::parse_format)]
    from: Option<Format>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    #[arg(long, value_parser = super::parse_rules)]
    rules: Option<Rules>,
    /// Where WTHOR's name files are, for reading and for writing: a directory holding
    /// `WTHOR.JOU` and `WTHOR.TRN` (created when missing), or the two files by any names,
    /// players first: `--names players.jou,tournaments.trn` (default: beside the input
    /// when reading, beside the output when writing).
    #[arg(long, value_name = "DIR|PLAYERS,TOURNAMENTS")]
    names: Option<PathBuf>,
    /// The year every game of a WTHOR output is filed under (its header holds one year);
    /// without it, the games' own year, which must be the same in every game.
    #[arg(long, value_name = "YYYY")]
    year: Option<u16>,
    /// Convert what the target can hold and list what was dropped, instead of refusing.
    #[arg(long)]
    lossy: bool,
    /// Convert only these games: a number (`3`, the third game of each input) or tags
    /// (`Round=3`, `Player=Tamaru`; names ignore case).
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<reversi_formats::record::GameSelector>,
    #[command(flatten)]
    edits: TagEditArgs,
    /// Write each game once: of the copies of one game (`exact`: the same moves; with
    /// `symmetric`, also under the board's symmetries) the one with the most information is
    /// kept (players, result, event, round and date, a replay without errors; on a tie the
    /// first in the order of the inputs), and each copy left out is named with the reason.
    /// The inputs are read twice (not standard input).
    #[arg(long, value_enum, value_name = "COPIES", num_args = 0..=1, require_equals = true, default_missing_value = "exact")]
    dedupe: Option<Dedupe>,
    /// No notes on standard error; refusals and losses are still reported.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// How the report on standard error is written: `human` (errors in full, the rest
    /// gathered per file and kind), or `json`/`jsonl` with every game's outcome, findings
    /// and losses, and a summary (one document, or one object per line).
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads reading and rendering the games (default: one per core); the
    /// output is the same with any number.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

/// Which copies `--dedupe` leaves out.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum Dedupe {
    /// The same moves as written.
    Exact,
    /// The same moves, or the same under one of the board's symmetries.
    Symmetric,
}

pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    // Folders stand for the record files below them.
    args.inputs = input::expand(&args.inputs, args.quiet)?;
    let (target, dialect) = args.to.clone();
    let names = args.names.as_deref().map(wthor::Names::parse).transpose();
    let names = names.map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let name_files = names.as_ref().and_then(wthor::Names::files).cloned();
    let template = template_of(&args.output)?;
    let mut guarded: Vec<PathBuf> = args.inputs.iter().map(PathBuf::from).collect();
    guarded.extend(args.edits.rename.iter().cloned());
    guarded.extend(output::name_files(&args.inputs, args.names.as_deref()));
    guarded.extend(
        name_files
            .iter()
            .flat_map(|f| [f.players.clone(), f.tournaments.clone()]),
    );
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let write_options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir: None,
        name_files,
        year: args.year,
        staging_dir: None,
        year_headers: None,
    };
    let names_dir = names
        .as_ref()
        .and_then(wthor::Names::dir)
        .map(PathBuf::from);
    let new_name_files = match (target, &write_options.name_files) {
        (Format::Wthor, None) => {
            new_name_files(names_dir.clone().or_else(|| output_dir(&args.output)))
        }
        _ => None,
    };
    let mut files = Files::new(target, write_options, names_dir, &guarded);
    let read_back = match &template {
        // A single output is opened before any input is read.
        None => reads_back(target, files.open_single(&args.output)?),
        Some(_) => reads_back(target, true),
    };
    let target_name = match &files.options.dialect {
        Some(d) if target == Format::Json => format!("{target}:{d}"),
        _ => target.to_string(),
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let read_options = ReadOptions {
        rules: args.rules,
        ..ReadOptions::default()
    };
    let edits = args.edits.edits()?;
    let dedupe = match args.dedupe {
        Some(copies) => Some(plan_copies(&args, &options, copies, jobs)?),
        None => None,
    };
    let mut conversion = Conversion::new()
        .jobs(jobs)
        .select(args.game.clone())
        .edit(edits)
        .target(target, &files.options, &read_options);
    if let Some(template) = template.clone() {
        conversion = conversion.split(template);
    }
    if target == Format::Wthor {
        if let Some(years) = survey_years(&args, &options, &conversion, skip_of(&dedupe)) {
            files.settle_years(years);
        }
    }
    // A run that could not read an input, or refused every game it read, leaves every
    // output as it was, and the name files a WTHOR writer would extend too.
    let mut report = Report::new(&args, target_name.clone(), read_back, template.is_some());
    if let Some((_, dropped)) = &dedupe {
        report.dropped = dropped.clone();
    }
    let skip = skip_of(&dedupe);
    let (tally, finished) =
        match convert_inputs(&args, &options, &conversion, skip, &mut files, &mut report) {
            Ok(tally) if report.failed(&tally) => (tally, Ok(None)),
            // A selector that takes nothing leaves the output as it was.
            Ok(tally) if tally.games == 0 && args.game.is_some() => {
                if let Some(selector) = &args.game {
                    stderr_line(format_args!(
                        "error: --game {selector}: no game of the inputs is selected"
                    ));
                }
                report.failed_input = true;
                (tally, Ok(None))
            }
            Ok(tally) => (tally, files.finish().map(Some)),
            Err(stopped) => (stopped.counts, Err(files.failed(stopped.error))),
        };
    let finished = match finished {
        Ok(finished) => finished,
        // A closed standard output ends the work quietly; the status says what was found.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(report.status(&tally)),
        Err(e) => return Err(e),
    };
    match finished {
        None => {
            for abandoned in files.abandoned() {
                report.abandoned(abandoned);
            }
        }
        Some(finished) => {
            // Every file is read back before any is put in place.
            let mut kept = Vec::new();
            for mut file in finished {
                let games = report.written_to(&file.name);
                if template.is_some() && games == 0 {
                    // Opened for games the writer then refused: not created.
                    continue;
                }
                file.output
                    .flush()
                    .map_err(|e| file.output.write_failed(e))?;
                let spool = report.take_spool(&file.name);
                if let (Some(path), Some(spool)) = (file.output.staged(), spool) {
                    let options = ReadOptions {
                        name: Arc::from(file.output.name()),
                        ..read_options.clone()
                    };
                    read_back_check(&conversion, target, path, &options, spool, &file.output)?;
                }
                kept.push((file, games));
            }
            for (file, games) in kept {
                let name = file.output.name();
                file.output.commit()?;
                report.wrote(name, games);
            }
        }
    }
    if let (Some(said), true, true) = (new_name_files, report.indexed, tally.written > 0) {
        if report.json.is_none() {
            stderr_line(format_args!("warning: {said}"));
        }
        report.warnings.push(said);
    }
    report.summary(&tally)?;
    Ok(report.status(&tally))
}

/// The template `-o` gives (it holds a `{`), or `None` for one output.
fn template_of(output: &Path) -> io::Result<Option<OutputTemplate>> {
    let text = output.to_string_lossy();
    if !OutputTemplate::is_template(&text) {
        return Ok(None);
    }
    let template = text
        .parse()
        .map_err(|e: TemplateError| io::Error::new(io::ErrorKind::InvalidInput, e.to_string()))?;
    Ok(Some(template))
}

/// Converts every game of every input through `writer` with the library's pipeline,
/// reporting on standard error as it goes. An output error stops the work (returned).
fn convert_inputs(
    args: &Args,
    options: &InputOptions,
    conversion: &Conversion,
    skip: Option<&Skip>,
    files: &mut Files<'_>,
    report: &mut Report,
) -> Result<Tally, Stopped> {
    let human = report.json.is_none();
    let progress = super::progress::Progress::start(&args.inputs, args.quiet || !human, true);
    let counter = super::progress::Counter::of(progress.as_ref());
    let open = |path: &PathBuf| match input::open(path, options) {
        Ok(input) => (
            Ok((input.name().clone(), input.note())),
            Some(counter.input(input).into_input()),
        ),
        Err(e) => (Err(e), None),
    };
    let mut sink = |event: Event<'_, _>| match event {
        Event::Start(opened) => report.input_started(opened),
        Event::Game(game, outcome) => {
            super::progress::games(progress.as_ref(), 1);
            report.game(game, outcome)
        }
        Event::ReadFailed(e) => report.read_failed(e),
    };
    let run = match skip {
        None => conversion.run_split(args.inputs.iter().map(open), files, &mut sink),
        // The copies to leave out are given input by input: one run each.
        Some(skip) => {
            let mut tally = Tally::default();
            let mut stopped = None;
            for path in &args.inputs {
                let (opened, input) = open(path);
                let left_out = match &opened {
                    Ok((name, _)) => skip.get(name.as_ref()).cloned(),
                    Err(_) => None,
                };
                let one = conversion.clone().skip(left_out);
                match one.run_split(std::iter::once((opened, input)), files, &mut sink) {
                    Ok(t) => tally += t,
                    Err(mut s) => {
                        tally += s.counts;
                        s.counts = tally;
                        stopped = Some(s);
                        break;
                    }
                }
            }
            match stopped {
                Some(s) => Err(s),
                None => Ok(tally),
            }
        }
    };
    if let Some(p) = progress {
        p.finish();
    }
    report.end_input();
    run
}

/// The game numbers `--dedupe` leaves out, by input name.
type Skip = std::collections::HashMap<String, std::collections::HashSet<usize>>;

fn skip_of(dedupe: &Option<(Skip, Vec<String>)>) -> Option<&Skip> {
    dedupe.as_ref().map(|(skip, _)| skip)
}

/// What the games this run writes state of their WTHOR year files' headers, read from
/// every input before the run ([`Conversion::survey_years`]): the files then do not
/// depend on the order of the inputs. `None` with standard input, which cannot be read
/// twice (the first game to state a setting decides it). An input that cannot be read
/// adds what it could; the run reports it.
fn survey_years(
    args: &Args,
    options: &InputOptions,
    conversion: &Conversion,
    skip: Option<&Skip>,
) -> Option<wthor::YearHeaders> {
    if args.inputs.iter().any(|p| p.as_os_str() == "-") {
        return None;
    }
    let mut years = wthor::YearHeaders::default();
    for path in &args.inputs {
        let Ok(input) = input::open(path, options) else {
            continue;
        };
        let left_out = skip.and_then(|skip| skip.get(input.name().as_ref()).cloned());
        let _ = conversion
            .clone()
            .skip(left_out)
            .survey_years(input.into_input(), &mut years);
    }
    Some(years)
}

/// Reads every input once to find its copies (`archive::dedupe`): the games to leave out
/// by input, and a line for each saying why (each also a note, unless quiet).
fn plan_copies(
    args: &Args,
    options: &InputOptions,
    copies: Dedupe,
    jobs: usize,
) -> io::Result<(Skip, Vec<String>)> {
    use reversi_runs::archive::dedupe;
    if args.inputs.iter().any(|p| p.as_os_str() == "-") {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--dedupe reads its inputs twice: standard input cannot be one",
        ));
    }
    let (event, failed) = input::gather(&args.inputs, options, Some(jobs), true)?;
    if failed {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            "--dedupe: an input could not be read, so its copies are unknown",
        ));
    }
    let copies = match copies {
        Dedupe::Exact => dedupe::Copies::Exact,
        Dedupe::Symmetric => dedupe::Copies::Symmetric,
    };
    let plan = dedupe::plan(&event, copies);
    let mut skip = Skip::new();
    for input in 0..event.games().iter().map(|g| g.input + 1).max().unwrap_or(0) {
        if let Some(games) = plan.dropped_from(input) {
            skip.insert(event.input_name(input).to_owned(), games.clone());
        }
    }
    let lines: Vec<String> = plan.dropped().iter().map(ToString::to_string).collect();
    if !args.quiet {
        for line in &lines {
            stderr_line(format_args!("note: left out: {line}"));
        }
    }
    Ok((skip, lines))
}

/// What to say when the WTHOR name files the writer uses are not in `dir` yet: made there
/// from the games' names, they number the names from scratch, so games read from WTHOR
/// files (their `WthorBlack`, ... index tags) are written with other indexes. `None`
/// when both are there.
fn new_name_files(dir: Option<PathBuf>) -> Option<String> {
    let dir = dir.filter(|d| !d.to_string_lossy().contains('{'))?;
    let missing: Vec<&str> = [wthor::NameKind::Player, wthor::NameKind::Tournament]
        .into_iter()
        .map(wthor::NameKind::file_name)
        .filter(|name| !dir.join(name).exists())
        .collect();
    (!missing.is_empty()).then(|| {
        format!(
            "{} had no {}: made there from the games' names, numbered from scratch, so the WthorBlack, WthorWhite and WthorTournament indexes the games were read with are not kept; put the name files there, or give them with --names, to keep them",
            dir.display(),
            missing.join(" and ")
        )
    })
}

/// The directory of the output file (WTHOR name files go beside it), `None` for stdout.
fn output_dir(output: &std::path::Path) -> Option<PathBuf> {
    if output == std::path::Path::new("-") {
        return None;
    }
    match output.parent() {
        Some(dir) if !dir.as_os_str().is_empty() => Some(dir.to_path_buf()),
        _ => Some(PathBuf::from(".")),
    }
}

/// Tag edits over whole files, for `convert` and `repair`.
#[derive(Debug, Clone, clap::Args)]
pub(crate) struct TagEditArgs {
    /// Set a tag on every game written, or on those `--game` selects (repeatable): `--set
    /// Round=4 --set "Event=Paris Open"`; an empty value removes the tag. `Rules`, `Start`, `Result` and `Termination`
    /// change what a game means and are refused.
    #[arg(long = "set", value_name = "TAG=VALUE")]
    set: Vec<reversi_formats::record::SetTag>,
    /// Map players' names: a CSV of `old,new` lines (or `;`), or a player register (its
    /// header tells it: every alias and login becomes the registered name). Names are
    /// compared ignoring case, accents, punctuation and spacing.
    #[arg(long, value_name = "FILE")]
    pub(crate) rename: Option<PathBuf>,
}

impl TagEditArgs {
    /// The edits asked for: a names map is a player register when it reads as one (by
    /// its header), `old,new` lines otherwise.
    pub(crate) fn edits(&self) -> io::Result<reversi_formats::record::TagEdits> {
        let mut edits = reversi_formats::record::TagEdits::default();
        for tag in &self.set {
            edits.set(tag.clone());
        }
        let Some(path) = &self.rename else {
            return Ok(edits);
        };
        let shown = path.display();
        let bytes = std::fs::read(path).map_err(|e| {
            io::Error::new(e.kind(), format!("{shown}: cannot read the names: {e}"))
        })?;
        let invalid =
            |e: String| io::Error::new(io::ErrorKind::InvalidInput, format!("{shown}: {e}"));
        if reversi_check::event::Register::looks_like(&bytes) {
            let register = reversi_check::event::Register::from_bytes(&bytes)
                .map_err(|e| invalid(e.to_string()))?;
            for (old, new) in register.renames() {
                edits.rename(old, new);
            }
        } else {
            let text = reversi_formats::text::decode_line_by_line(&bytes);
            edits
                .read_renames(&text)
                .map_err(|e| invalid(e.to_string()))?;
        }
        Ok(edits)
    }
}
