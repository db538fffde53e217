//! `reversi repair`: find the game the players actually played, write every game out and
//! report what was changed.

use std::io::{self, Write};
use std::path::{Path, PathBuf};

use reversi_check::repair::{repair_batch, Repair, RepairOptions, RepairReport, Status, WorkLimit};
use reversi_formats::diagnostic::{Diagnostic, Report, Source};
use reversi_formats::record::GameSelector;
use reversi_formats::record::Record;
use reversi_formats::{
    Format, ParsedGame, PgnDialect, ReadOptions, RecordWriter, WriteError, WriteOptions,
};
use reversi_runs::pipeline::conversion::{Conversion, Fingerprint};
use reversi_runs::run::{ReadBack, ReadBackError};
use serde_json::json;

use super::input::{self, InputOptions};
use super::output::{self, Output};
use super::{exit, OutputFormat};

/// Repair records: for a game that does not replay, find the smallest set of edits (swapped,
/// misread, doubled or left-out moves; misread, missing or doubled grid numbers) that makes
/// every move legal and the result as claimed. A game whose moves are legal but whose
/// result is not the board's is reported (the result is wrong: reversed, a digit typo, ...)
/// and fixed only with `--fix-result`. Every game is written out in input order; the
/// report lists each edit.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input. A folder stands for the record files below it (recognised by their content; the others are skipped with a note)..
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// Output format, `FORMAT[:DIALECT]` (default: the first input's format; RGN for move
    /// strings and CSV tables, which hold no tags, with a note).
    #[arg(long, value_parser = input::parse_format)]
    to: Option<Format>,
    /// Output file, replaced only when the run succeeds and writes a game (never an input
    /// or its WTHOR name files); `-` (the default) writes standard output, and the report
    /// then goes to standard error.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    /// Write what the output format can hold and drop the rest (as `convert --lossy`), instead
    /// of leaving a game out.
    #[arg(long)]
    lossy: bool,
    #[command(flatten)]
    input: InputOptions,
    /// The most move edits one repair may make (a result edit comes on top).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u8).range(1..=4))]
    max_edits: u8,
    /// The work one game's search may do, in replays of a move list (a grid read again
    /// counts as 20); raise it for `--max-edits 3` or 4.
    #[arg(long, value_name = "REPLAYS", default_value_t = WorkLimit::default().replays, value_parser = clap::builder::RangedU64ValueParser::<usize>::new().range(1..))]
    work_limit: usize,
    /// Write the board's result when the moves are legal but the claimed result is not the
    /// board's, with a `Repair` tag saying so; without it such a game is reported and
    /// written unchanged.
    #[arg(long)]
    fix_result: bool,
    /// The event's pairings (as `validate --pairings`): a game whose result is the board's
    /// reversed while its pairing has the players the other way round was written from
    /// White's side, and is repaired by exchanging the names (each player keeps the score
    /// the sheet gives them). Default: the pairings table found in the folders given.
    #[arg(long, value_name = "FILE")]
    pairings: Option<PathBuf>,
    /// The player register the pairings' names are read through (as `validate
    /// --players`). Default: the register found in the folders given.
    #[arg(long, value_name = "FILE")]
    players: Option<PathBuf>,
    /// The pairings and the register, read once the arguments are parsed.
    #[arg(skip)]
    event: Option<(
        reversi_check::event::Schedule,
        Option<reversi_check::event::Register>,
    )>,
    /// Take alternative N of an ambiguous game, numbered as the report lists them:
    /// `GAME:N` for game GAME of the input (repeatable), or `N` when the input holds one
    /// game. Needs a single input file.
    #[arg(long, value_name = "[GAME:]N", value_parser = parse_pick)]
    pick: Vec<Pick>,
    /// Repair only these games: a number (`3`) or tags (`Round=3,Board=2`,
    /// `Player=Tamaru`); the other games are written as they were read (without the tag
    /// edits of `--set` and `--rename`), and not reported.
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<GameSelector>,
    /// Report format.
    #[arg(long, value_enum, default_value_t = OutputFormat::Human)]
    format: OutputFormat,
    /// Worker threads (default: every core; at most 4 per core, with a note).
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Quiet: no notes, no report for each game; for each file at most a line for what the
    /// output could not hold (its first game, and how many more) and a line for the games
    /// left as written (ambiguous, unrepairable, a wrong result); the summary.
    #[arg(long, short = 'q')]
    quiet: bool,
    #[command(flatten)]
    edits: super::convert::TagEditArgs,
    /// The edits `edits` asks for, read once the arguments are parsed.
    #[arg(skip)]
    tag_edits: reversi_formats::record::TagEdits,
}

/// One `--pick`: alternative `n` of game `game` (`None`: the input's only game).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Pick {
    game: Option<usize>,
    n: usize,
}

impl std::fmt::Display for Pick {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.game {
            Some(g) => write!(f, "--pick {g}:{}", self.n),
            None => write!(f, "--pick {}", self.n),
        }
    }
}

/// `3:2` (game 3, alternative 2) or `2`; both numbers from 1.
fn parse_pick(text: &str) -> Result<Pick, String> {
    let number = |t: &str, what: &str| match t.trim().parse::<usize>() {
        Ok(n) if n > 0 => Ok(n),
        _ => Err(format!(
            "expected {what} (a number from 1), but found `{t}` instead; write `GAME:N` or `N`"
        )),
    };
    match text.split_once(':') {
        Some((g, n)) => Ok(Pick {
            game: Some(number(g, "a game number")?),
            n: number(n, "an alternative number")?,
        }),
        None => Ok(Pick {
            game: None,
            n: number(text, "an alternative number")?,
        }),
    }
}

/// The picks of a run, by game, and which games the input held.
#[derive(Default)]
struct Picks {
    /// Alternative to take, by game number.
    by_game: std::collections::BTreeMap<usize, Pick>,
    /// Whether a pick was given as `N` alone (game 1, the only one).
    bare: bool,
    /// The most games seen.
    games: usize,
}

impl Picks {
    /// The picks of `args`, checked: one input file, each game once.
    fn new(args: &Args) -> io::Result<Picks> {
        let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
        let mut picks = Picks::default();
        if args.pick.is_empty() {
            return Ok(picks);
        }
        if args.inputs.len() != 1 {
            return Err(usage(format!(
                "--pick names a game by its number in the input, so it needs one input file, but {} were given",
                args.inputs.len()
            )));
        }
        for &p in &args.pick {
            picks.bare |= p.game.is_none();
            let game = p.game.unwrap_or(1);
            if let Some(before) = picks.by_game.insert(game, p) {
                return Err(usage(format!("{before} and {p} both pick for game {game}")));
            }
        }
        Ok(picks)
    }

    /// Applies the pick for `game`, if any: the chosen alternative, or an error message.
    fn apply(&mut self, game: usize, repair: Repair) -> (Repair, Option<String>) {
        self.games = self.games.max(game);
        if self.bare && game == 2 {
            let p = self.by_game.get(&1).copied();
            let text = p.map_or_else(String::new, |p| p.to_string());
            return (
                repair,
                Some(format!(
                    "{text}: the input holds more than one game; write `--pick GAME:N`"
                )),
            );
        }
        let Some(&p) = self.by_game.get(&game) else {
            return (repair, None);
        };
        match repair.clone().pick(p.n) {
            Ok(picked) => (picked, None),
            Err(e) => (repair, Some(format!("{p}: game {game}: {e}"))),
        }
    }

    /// The picks for games the input did not hold.
    fn unused(&self) -> Vec<String> {
        self.by_game
            .iter()
            .filter(|(&g, _)| g > self.games)
            .map(|(_, p)| {
                format!(
                    "{p}: the input holds {} {}",
                    self.games,
                    if self.games == 1 { "game" } else { "games" }
                )
            })
            .collect()
    }
}

#[derive(Clone, Copy, Default)]
struct Summary {
    files: usize,
    games: usize,
    valid: usize,
    repaired: usize,
    wrong_result: usize,
    ambiguous: usize,
    unrepairable: usize,
    written: usize,
    /// Games `--game` did not select, written as read.
    passed_over: usize,
}

/// What a run has found so far: its exit status, the counts, and (for `--format json`)
/// how many games' reports are written.
struct Progress {
    status: u8,
    summary: Summary,
    json_games: usize,
}

/// The games are read, repaired and written this many at a time: memory holds one batch,
/// whatever the size of the input.
const BATCH: usize = 256;

/// Why the work stopped before the end.
enum Stop {
    /// Writing the games failed (a closed pipe included).
    Output(io::Error),
    /// Writing the report failed.
    Report(io::Error),
}

/// Standard error for the report: a write that fails there loses the line, not the run.
struct Lenient<W: Write>(W);

impl<W: Write> Write for Lenient<W> {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        let _ = self.0.write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        let _ = self.0.flush();
        Ok(())
    }
}

/// Opens the output and the report, then repairs the games of each input in turn, a batch
/// at a time, and writes them with one writer (made with the first input, whose format is
/// the default target); the output is replaced only when every input could be read and a
/// game was written. A closed standard output ends the run quietly with its status.
pub(crate) fn run(mut args: Args) -> io::Result<u8> {
    args.tag_edits = args.edits.edits()?;
    // Folders stand for the record files below them; the pairings and the register found
    // there tell a sheet written from White's side.
    let mut expanded = input::expand_event(&args.inputs, args.quiet)?;
    args.inputs = std::mem::take(&mut expanded.inputs);
    let pairings = input::pairings(&expanded, args.pairings.as_deref(), args.quiet)?;
    if let Some(pairings) = pairings {
        let register = input::register(&expanded, args.players.as_deref(), args.quiet)?;
        args.event = Some((pairings, register));
    } else {
        input::notes(expanded.unused_event_files(true, false), args.quiet);
    }
    if args.format == OutputFormat::Jsonl {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            "--format for repair is human or json",
        ));
    }
    let mut picks = Picks::new(&args)?;
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .build()
        .map_err(|e| io::Error::other(e.to_string()))?;
    let mut guarded: Vec<PathBuf> = args.inputs.clone();
    guarded.extend(output::name_files(&args.inputs, None));
    let guarded: Vec<&Path> = guarded.iter().map(PathBuf::as_path).collect();
    let mut output = Output::create(&args.output, &guarded)?;
    let output_name = output.name();
    let mut report: Box<dyn Write> = if output::is_stdout(args.output.as_os_str()) {
        Box::new(Lenient(io::stderr().lock()))
    } else {
        Box::new(io::BufWriter::new(io::stdout().lock()))
    };
    let mut progress = Progress {
        status: exit::OK,
        summary: Summary::default(),
        json_games: 0,
    };
    let handler = miette::GraphicalReportHandler::new();
    // The writer opens with the first input, whose format is the default target.
    let mut sink: Option<Sink<'_>> = None;
    let staged = output.staged().is_some();
    let worked = if args.format == OutputFormat::Json {
        write!(report, "{{\"games\": [").map_err(Stop::Report)
    } else {
        Ok(())
    }
    .and_then(|()| {
        let mut out = Some(output.writer());
        let mut work = Work {
            args: &args,
            pool: &pool,
            report: &mut report,
            handler: &handler,
            progress: &mut progress,
            picks: &mut picks,
            notes: (0, None),
            staged,
        };
        for path in &args.inputs {
            work.input(path, &mut sink, &mut out)?;
        }
        for unused in work.picks.unused() {
            super::stderr_line(format_args!("error: {unused}"));
            work.progress.status = exit::USAGE;
        }
        if let (Some(selector), 0) = (&args.game, work.progress.summary.games) {
            super::stderr_line(format_args!(
                "error: --game {selector}: no game of the inputs is selected"
            ));
            work.progress.status = exit::USAGE;
        }
        Ok(())
    });
    // Finishing consumes the writer, which ends its borrow of the output.
    let mut read_back = None;
    let finished = sink.map(|mut sink| {
        let finished = sink.writer.finish();
        read_back = sink.back.map(|back| (back, sink.conversion, sink.format));
        (sink.format.to_string(), finished)
    });
    let target = match (worked, finished) {
        (Err(Stop::Output(e)) | Err(Stop::Report(e)), _) if output::is_closed_pipe(&e) => {
            note_abandoned(&output);
            return Ok(progress.status);
        }
        (Err(Stop::Output(e)), _) | (Ok(()), Some((_, Err(e)))) => {
            return Err(output.write_failed(e))
        }
        (Err(Stop::Report(e)), _) => {
            note_abandoned(&output);
            return Err(output::stdout_failed(e));
        }
        (Ok(()), Some((name, Ok(())))) => name,
        (Ok(()), None) => String::new(),
    };
    // A run that could not read an input, or wrote no game, leaves the output as it was.
    if progress.status == exit::USAGE
        || (progress.summary.written == 0 && output.abandoned().is_some())
    {
        note_abandoned(&output);
    } else {
        // What was written is read back, game by game, before it is put in place.
        let staged = output.staged().map(Path::to_path_buf);
        if let (Some((back, conversion, format)), Some(staged)) = (read_back, staged) {
            let options = ReadOptions {
                name: std::sync::Arc::from(output_name.as_str()),
                rules: args.input.rules,
                ..ReadOptions::default()
            };
            let checked = output
                .flush()
                .map_err(ReadBackError::Unreadable)
                .and_then(|()| back.check(&conversion, format, &staged, &options));
            if let Err(e) = checked {
                let kept = output
                    .abandoned()
                    .map(|a| format!("; {a}"))
                    .unwrap_or_default();
                return Err(io::Error::other(format!("{output_name}: {e}{kept}")));
            }
        }
        output.commit()?;
    }
    let printed = progress
        .print(&mut report, args.format, &target, &output_name)
        .and_then(|()| report.flush());
    output::finish_stdout(printed, progress.status)
}

/// Says on standard error what becomes of a file output that is not committed.
fn note_abandoned(output: &Output) {
    if let Some(abandoned) = output.abandoned() {
        super::stderr_line(format_args!("note: {abandoned}"));
    }
}

/// The run's shared parts, for each input.
struct Work<'r> {
    args: &'r Args,
    pool: &'r rayon::ThreadPool,
    report: &'r mut Box<dyn Write>,
    handler: &'r miette::GraphicalReportHandler,
    progress: &'r mut Progress,
    picks: &'r mut Picks,
    /// Quiet: the writer's notes of the current file (their number, the first one).
    notes: (usize, Option<String>),
    /// Whether the output is a staged file (read back before it is put in place).
    staged: bool,
}

impl Work<'_> {
    /// Opens `path` and repairs its games a batch at a time, writing each batch (and its
    /// report) before reading the next. An input that cannot be opened, or a game that
    /// cannot be read (which ends the file there), sets the status.
    fn input<'o>(
        &mut self,
        path: &Path,
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn Write + Send)>,
    ) -> Result<(), Stop> {
        let before = self.progress.summary;
        self.notes = (0, None);
        let done = self.input_games(path, sink, out);
        let quiet_human = self.args.quiet && self.args.format == OutputFormat::Human;
        if let (true, (count, Some(first))) = (quiet_human, &self.notes) {
            let more = match count - 1 {
                0 => String::new(),
                n => format!(" (and {n} more games with a note)"),
            };
            writeln!(self.report, "{first}{more}").map_err(Stop::Report)?;
        }
        if quiet_human {
            let s = self.progress.summary;
            let open = [
                (s.ambiguous - before.ambiguous, "ambiguous"),
                (s.unrepairable - before.unrepairable, "unrepairable"),
                (s.wrong_result - before.wrong_result, "with a wrong result"),
            ];
            let listed: Vec<String> = open
                .iter()
                .filter(|(n, _)| *n > 0)
                .map(|(n, what)| format!("{n} {what}"))
                .collect();
            if !listed.is_empty() {
                let games = s.games - before.games;
                let line = format!(
                    "{}: {} of {games} games left as written: {} (without -q, each with its reasons)",
                    path.display(),
                    open.iter().map(|(n, _)| n).sum::<usize>(),
                    listed.join(", ")
                );
                writeln!(self.report, "{line}").map_err(Stop::Report)?;
            }
        }
        done
    }

    fn input_games<'o>(
        &mut self,
        path: &Path,
        sink: &mut Option<Sink<'o>>,
        out: &mut Option<&'o mut (dyn Write + Send)>,
    ) -> Result<(), Stop> {
        let args = self.args;
        let input = match input::open(path, &args.input) {
            Ok(i) => i,
            Err(e) => {
                super::stderr_line(format_args!("error: {e}"));
                self.progress.status = exit::USAGE;
                return Ok(());
            }
        };
        self.progress.summary.files += 1;
        if !args.quiet && args.format == OutputFormat::Human {
            super::stderr_line(format_args!("note: {}", input.note()));
        }
        let read = ReadOptions {
            name: input.name().clone(),
            path: (path != Path::new("-")).then(|| path.to_path_buf()),
            rules: args.input.rules,
            names_dir: None,
            name_files: None,
        };
        let format = input.format();
        let sink = match (sink.as_mut(), out.take()) {
            (Some(s), _) => s,
            (None, Some(o)) => {
                let opened = Sink::open(args, format, o, self.staged).map_err(Stop::Output)?;
                if args.to.is_none() && opened.format != format && !args.quiet {
                    super::stderr_line(format_args!(
                        "note: writing {}: {format} hold no tags (players, round, result), so the repaired games are written as RGN (--to chooses another format)",
                        opened.format
                    ));
                }
                sink.insert(opened)
            }
            (None, None) => {
                return Err(Stop::Output(io::Error::other(
                    "the output was taken without opening the writer",
                )))
            }
        };
        let repair_options = RepairOptions {
            max_edits: usize::from(args.max_edits),
            work_limit: WorkLimit {
                replays: args.work_limit,
            },
        };
        let mut games = input.games();
        let mut ended = false;
        while !ended {
            let mut batch: Vec<ParsedGame> = Vec::with_capacity(BATCH);
            while batch.len() < BATCH {
                match games.next() {
                    Some(Ok(g)) => batch.push(g),
                    Some(Err(e)) => {
                        super::stderr_line(format_args!("error: {}: {e}", read.name));
                        self.progress.status = exit::USAGE;
                        ended = true;
                        break;
                    }
                    None => {
                        ended = true;
                        break;
                    }
                }
            }
            // Only the games `--game` selects are repaired (a few: they are copied out).
            let chosen: Vec<bool> = batch
                .iter()
                .map(|g| args.game.as_ref().map_or(true, |s| g.is_selected(s)))
                .collect();
            let repairs = if chosen.iter().all(|&c| c) {
                self.pool
                    .install(|| repair_batch(&batch, format, &read, &repair_options))
            } else {
                let selected: Vec<ParsedGame> = batch
                    .iter()
                    .zip(&chosen)
                    .filter(|(_, &c)| c)
                    .map(|(g, _)| g.clone())
                    .collect();
                self.pool
                    .install(|| repair_batch(&selected, format, &read, &repair_options))
            };
            let selected = batch.iter().zip(&chosen).filter(|(_, &c)| c);
            let repairs: Vec<Repair> = selected
                .zip(repairs)
                .map(|((game, _), repair)| {
                    let (repair, error) = self.picks.apply(game.index, repair);
                    if let Some(error) = error {
                        super::stderr_line(format_args!("error: {}: {error}", read.name));
                        self.progress.status = exit::USAGE;
                    }
                    let repair = match (&args.event, &repair.record) {
                        (Some((pairings, register)), Some(record))
                            if repair.is_reversed_result() =>
                        {
                            let (black, white) = (record.tag("Black"), record.tag("White"));
                            let pairing = pairings.swapped(
                                record.tag("Round"),
                                black.unwrap_or_default(),
                                white.unwrap_or_default(),
                                register.as_ref(),
                            );
                            match pairing {
                                Some(p) if black.is_some() && white.is_some() => {
                                    if !args.quiet {
                                        super::stderr_line(format_args!(
                                            "note: {}: game {}: the pairing {p} (line {} of the pairings) has the players the other way round: the names are swapped, not the score",
                                            read.name, game.index, p.line
                                        ));
                                    }
                                    repair.swap_names()
                                }
                                _ => repair,
                            }
                        }
                        _ => repair,
                    };
                    if args.fix_result {
                        repair.fix_result()
                    } else {
                        repair
                    }
                })
                .collect();
            let mut repairs = repairs.iter();
            for (game, &chosen) in batch.iter().zip(&chosen) {
                let Some(repair) = chosen.then(|| repairs.next()).flatten() else {
                    let written = sink.write_as_read(game).map_err(Stop::Output)?;
                    self.progress.summary.passed_over += 1;
                    self.progress.summary.written += usize::from(written);
                    if !written {
                        super::stderr_line(format_args!(
                            "warning: {}: game {}: not written: {} cannot hold it as it was read",
                            read.name, game.index, sink.format
                        ));
                    }
                    continue;
                };
                let (written, note) = sink.write(repair).map_err(Stop::Output)?;
                self.progress.count(repair, written);
                let name = &read.name;
                let reported = match args.format {
                    // Quiet: a line for the file's notes and one for its games left as
                    // written, at most (`input`).
                    OutputFormat::Human if args.quiet => {
                        if let Some(note) = note {
                            self.notes.0 += 1;
                            self.notes.1.get_or_insert_with(|| {
                                format!("warning: {name}: game {}: {note}", game.index)
                            });
                        }
                        Ok(())
                    }
                    OutputFormat::Human => {
                        report_game(self.report, self.handler, name, game, repair, note)
                    }
                    _ => {
                        let comma = if self.progress.json_games == 0 {
                            ""
                        } else {
                            ","
                        };
                        self.progress.json_games += 1;
                        let value = game_json(game, repair, note.as_deref());
                        write!(self.report, "{comma}{value}")
                    }
                };
                reported.map_err(Stop::Report)?;
            }
        }
        Ok(())
    }
}

/// Prints the report of one game of the file `name`: its repair (or, when unrepairable,
/// its errors) and the writer's note.
fn report_game(
    report: &mut dyn Write,
    handler: &miette::GraphicalReportHandler,
    name: &str,
    game: &ParsedGame,
    repair: &Repair,
    note: Option<String>,
) -> io::Result<()> {
    let mut shown: Vec<Diagnostic> = repair.report(game.index).into_iter().collect();
    if repair.status == Status::Unrepairable {
        shown.extend(repair.diagnostics.iter().filter(|d| d.is_error()).cloned());
    }
    for d in &shown {
        writeln!(report, "{}", render(handler, d, &game.source))?;
    }
    if let Some(note) = &note {
        let who = game
            .identity()
            .map(|i| format!(" ({i})"))
            .unwrap_or_default();
        writeln!(report, "warning: {name}: game {}{who}: {note}", game.index)?;
    }
    Ok(())
}

impl Progress {
    /// Counts one repaired game, and whether it was `written`; a game neither valid nor
    /// repaired makes the run's status invalid.
    fn count(&mut self, repair: &Repair, written: bool) {
        let s = &mut self.summary;
        s.games += 1;
        match repair.status {
            Status::Valid => s.valid += 1,
            Status::Repaired => s.repaired += 1,
            Status::WrongResult => s.wrong_result += 1,
            Status::Ambiguous => s.ambiguous += 1,
            Status::Unrepairable => s.unrepairable += 1,
        }
        if !matches!(repair.status, Status::Valid | Status::Repaired) {
            self.status = self.status.max(exit::INVALID);
        }
        if written {
            s.written += 1;
        }
    }

    /// The summary line (human), or the end of the JSON report (its summary), written as
    /// `target` to `output_name`.
    fn print(
        &self,
        report: &mut dyn Write,
        format: OutputFormat,
        target: &str,
        output_name: &str,
    ) -> io::Result<()> {
        let s = &self.summary;
        // Named only when there is one, so the line stays as it was for other runs.
        let wrong = match s.wrong_result {
            0 => String::new(),
            n => format!(", {n} with a wrong result"),
        };
        let passed_over = match s.passed_over {
            0 => String::new(),
            1 => " (and 1 game --game passes over, written as read)".to_owned(),
            n => format!(" (and {n} games --game passes over, written as read)"),
        };
        match format {
            OutputFormat::Human => writeln!(
                report,
                "{} {}, {} {}{passed_over}: {} valid, {} repaired, {} ambiguous, {} unrepairable{wrong}; {} written to {} as {target}",
                s.files,
                if s.files == 1 { "file" } else { "files" },
                s.games,
                if s.games == 1 { "game" } else { "games" },
                s.valid,
                s.repaired,
                s.ambiguous,
                s.unrepairable,
                s.written,
                output_name,
            ),
            _ => {
                let summary = json!({
                    "files": s.files,
                    "games": s.games,
                    "valid": s.valid,
                    "repaired": s.repaired,
                    "wrong_result": s.wrong_result,
                    "ambiguous": s.ambiguous,
                    "unrepairable": s.unrepairable,
                    "written": s.written,
                    "passed_over": s.passed_over,
                    "format": target,
                });
                // The games' reports were written as they came.
                writeln!(report, "], \"summary\": {summary}}}")
            }
        }
    }
}

fn render(handler: &miette::GraphicalReportHandler, d: &Diagnostic, source: &Source) -> String {
    let mut text = String::new();
    let report = Report {
        diagnostic: d,
        source,
    };
    if handler.render_report(&mut text, &report).is_err() {
        text = format!("{}: {}\n", d.code, d.message);
    }
    text
}

/// A game's report in JSON: the library's [`RepairReport`], and the writer's note.
fn game_json(game: &ParsedGame, repair: &Repair, note: Option<&str>) -> serde_json::Value {
    let mut value = json!(RepairReport::new(game, repair));
    if let Some(fields) = value.as_object_mut() {
        fields.insert("note".into(), json!(note));
    }
    value
}

/// The writer of the chosen format over the output, made when the first input tells the
/// default format.
struct Sink<'a> {
    format: Format,
    writer: Box<dyn RecordWriter + 'a>,
    /// `--set` and `--rename`: applied to every game written.
    edits: reversi_formats::record::TagEdits,
    /// What every game written must read back as, when the output is a staged file: the
    /// output is read back before it is put in place, as `convert`'s is.
    back: Option<ReadBack>,
    /// Reads the output back (the target, its options, the rules of records without).
    conversion: Conversion,
    /// `--lossy`, which a refusal's words name.
    lossy: bool,
}

impl<'a> Sink<'a> {
    fn open(
        args: &Args,
        input_format: Format,
        out: &'a mut (dyn Write + Send),
        staged: bool,
    ) -> io::Result<Sink<'a>> {
        let format = args.to.unwrap_or(match input_format {
            Format::Pgn(PgnDialect::Rgn) => Format::Rgn,
            // Move strings hold no tags: a CSV's players, round and result would be lost.
            Format::MoveString => Format::Rgn,
            f => f,
        });
        let dialect = match format {
            Format::Pgn(d) if d != PgnDialect::Rgn => Some(d.name().to_string()),
            _ => None,
        };
        let options = WriteOptions {
            lossy: args.lossy,
            dialect,
            names_dir: None,
            ..WriteOptions::default()
        };
        let read = ReadOptions {
            rules: args.input.rules,
            ..ReadOptions::default()
        };
        let back = match staged && ReadBack::applies(format) {
            true => Some(ReadBack::beside(&args.output)?),
            false => None,
        };
        Ok(Sink {
            format,
            conversion: Conversion::new().target(format, &options, &read),
            writer: format.writer(Box::new(out), &options),
            edits: args.tag_edits.clone(),
            back,
            lossy: args.lossy,
        })
    }

    /// What `record` must read back as once written (readied as a conversion to the target
    /// readies a game: passes written out, result settled), or why the target refuses it:
    /// a game whose error it would hide (a wrong result in a format without results), as
    /// `convert` refuses it.
    fn check(&self, record: &Record) -> Result<Fingerprint, WriteError> {
        let mut readied = record.clone();
        let found = self.conversion.ready(&mut readied, 1, &[]);
        match found.refused {
            Some(why) => Err(why),
            None => Ok(self.conversion.fingerprint(&readied, &found.found)),
        }
    }

    /// Keeps `fingerprint`, of a game just written with `losses`, to read the output back
    /// with (its result left out when the target dropped part of it).
    fn spool(&mut self, fingerprint: Fingerprint, losses: &[String]) -> io::Result<()> {
        let Some(back) = &mut self.back else {
            return Ok(());
        };
        back.push(match losses.is_empty() {
            true => fingerprint,
            false => fingerprint.without_result(),
        })
    }

    /// Writes a game `--game` passed over, as it was read; whether it was written (a game
    /// that could not be read, or that the format cannot hold, is not).
    fn write_as_read(&mut self, game: &ParsedGame) -> io::Result<bool> {
        let Some(record) = &game.record else {
            return Ok(false);
        };
        // `--set` and `--rename` go to the games `--game` selects, as the repair does.
        let Ok(fingerprint) = self.check(record) else {
            return Ok(false);
        };
        match self.writer.write(record) {
            Ok(losses) => self.spool(fingerprint, &losses).map(|()| true),
            Err(WriteError::Io(e)) => Err(e),
            Err(_) => Ok(false),
        }
    }

    /// Writes the game's record: with the repair stated (a tag and move comments, or the
    /// tag alone when the format has no comments). Whether it was written, and a note when
    /// not as wished.
    fn write(&mut self, repair: &Repair) -> io::Result<(bool, Option<String>)> {
        let (Some(commented), Some(annotated), Some(plain)) = (
            repair.commented(),
            repair.annotated(),
            repair.record.clone(),
        ) else {
            return Ok((
                false,
                Some("the game could not be read and is not written".into()),
            ));
        };
        let mut last = Vec::new();
        let mut edited = plain.clone();
        self.edits.apply(&mut edited);
        // Tags and comments aside, the three are one game: checked once.
        let fingerprint = match self.check(&edited) {
            Ok(fingerprint) => fingerprint,
            Err(why) => {
                let format = self.format.to_string();
                let why = why
                    .refusal(&format, self.lossy)
                    .unwrap_or_else(|| why.to_string());
                return Ok((false, Some(format!("not written: {why}"))));
            }
        };
        for (i, mut record) in [commented, annotated, plain].into_iter().enumerate() {
            self.edits.apply(&mut record);
            match self.writer.write(&record) {
                Ok(losses) => {
                    self.spool(fingerprint, &losses)?;
                    let note = if !losses.is_empty() {
                        Some(format!("dropped {}", losses.join("; ")))
                    } else if i == 2 && repair.status == Status::Repaired {
                        Some(format!(
                            "{} cannot hold a note of the repair; the edits are in this report only",
                            self.format
                        ))
                    } else {
                        None
                    };
                    return Ok((true, note));
                }
                Err(WriteError::CannotHold(what)) => last = what,
                // The rules or moves do not fit the format: no annotation changes that.
                Err(WriteError::ChangesMeaning(what)) => {
                    last = what;
                    break;
                }
                Err(
                    hidden @ (WriteError::HidesErrors { .. } | WriteError::NeedsSetting { .. }),
                ) => {
                    last = vec![hidden.to_string()];
                    break;
                }
                Err(WriteError::Io(e)) => return Err(e),
            }
        }
        Ok((
            false,
            Some(format!(
                "not written: {} cannot hold {}",
                self.format,
                last.join("; ")
            )),
        ))
    }
}
