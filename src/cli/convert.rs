//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::PathBuf;

use std::sync::Arc;

use reversi_record::convert::{Conversion, Event, Outcome, Stopped, Tally};
use reversi_record::diagnostic::Renderer;
use reversi_record::formats::capabilities::LossSummary;
use reversi_record::formats::{wthor, Format, RecordWriter, WriteOptions};
use reversi_record::Rules;

use super::input::{self, InputOptions};
use super::output::{self, Output};
use super::{exit, stderr_line};

/// Convert records to another format. What the target cannot hold is refused, naming the
/// game and what would be lost, unless `--lossy` is given.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input.
    #[arg(required = true)]
    inputs: Vec<String>,
    /// Target format, `FORMAT[:DIALECT]`: `rgn`, `json`, `json:lines`, `wthor`, `ggf`, `pgn`, `pgn:thor`, `pgn:playok`, `pgn:edax`, `sgf`, `moves`, `transcript`, `obf`.
    #[arg(long, value_parser = parse_target)]
    to: (Format, Option<String>),
    /// Output file; `-` (the default) writes standard output.
    #[arg(short, long, default_value = "-")]
    output: String,
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
    /// No notes on standard error; refusals and losses are still reported.
    #[arg(long, short = 'q')]
    quiet: bool,
    /// Worker threads reading and rendering the games (default: one per core); the
    /// output is the same with any number.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let (target, dialect) = args.to.clone();
    let names = args.names.as_deref().map(wthor::Names::parse).transpose();
    let names = names.map_err(|e| io::Error::new(io::ErrorKind::InvalidInput, e))?;
    let name_files = names.as_ref().and_then(wthor::Names::files).cloned();
    let mut guarded: Vec<PathBuf> = args.inputs.iter().map(PathBuf::from).collect();
    guarded.extend(output::name_files(&args.inputs, args.names.as_deref()));
    guarded.extend(
        name_files
            .iter()
            .flat_map(|f| [f.players.clone(), f.tournaments.clone()]),
    );
    if target == Format::Wthor && is_name_file(&args.output) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: a WTHOR game file cannot have the name of a WTHOR name file, which is written beside it",
                args.output
            ),
        ));
    }
    let guarded: Vec<&std::path::Path> = guarded.iter().map(PathBuf::as_path).collect();
    let mut output = Output::create(&args.output, &guarded)?;
    let names_dir = match &names {
        Some(names) => names.dir().map(PathBuf::from),
        None => output_dir(&args.output),
    };
    let write_options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir,
        name_files,
        year: args.year,
        staging_dir: output_dir(&args.output),
    };
    if target == Format::Wthor {
        wthor::prepare_names(&write_options)?;
    }
    let target_name = match &write_options.dialect {
        Some(d) if target == Format::Json => format!("{target}:{d}"),
        _ => target.to_string(),
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    // A run that could not read an input, or refused every game it read, leaves the
    // output as it was, and the name files a WTHOR writer would extend too.
    let mut report = Report::new(&args, target_name.clone());
    let (tally, outcome) = {
        let mut writer = target.writer(Box::new(output.writer()), &write_options);
        match convert_inputs(&args, &options, jobs, &mut *writer, &mut report) {
            Ok(tally) if report.failed(&tally) => (tally, Ok(())),
            Ok(tally) => (tally, writer.finish()),
            Err(stopped) => (stopped.tally, Err(stopped.error)),
        }
    };
    match outcome {
        Ok(()) => {}
        // A closed standard output ends the work quietly; the status says what was found.
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => return Ok(report.status(&tally)),
        Err(e) => return Err(output.write_failed(e)),
    }
    if report.failed(&tally) {
        if let Some(abandoned) = output.abandoned() {
            stderr_line(format_args!("note: {abandoned}"));
        }
    } else {
        output.commit()?;
    }
    let not_converted = tally.refused + tally.unreadable;
    if !args.quiet || not_converted > 0 {
        stderr_line(format_args!(
            "converted {} {} to {target_name}; {not_converted} not converted",
            tally.written,
            if tally.written == 1 { "game" } else { "games" },
        ));
    }
    Ok(report.status(&tally))
}

/// What a conversion reported on standard error, and what it saw.
struct Report {
    target_name: String,
    lossy: bool,
    renderer: Renderer,
    /// The input being converted.
    name: Arc<str>,
    /// What was dropped from its games.
    dropped: LossSummary,
    /// An input could not be opened or read.
    failed_input: bool,
}

impl Report {
    fn new(args: &Args, target_name: String) -> Report {
        Report {
            target_name,
            lossy: args.lossy,
            renderer: Renderer::terminal(),
            name: Arc::from("-"),
            dropped: LossSummary::default(),
            failed_input: false,
        }
    }

    /// The exit status: an input could not be read; or a game had an error or was not
    /// converted; or all is well.
    fn status(&self, tally: &Tally) -> u8 {
        if self.failed_input {
            exit::USAGE
        } else if tally.with_errors + tally.file_problems + tally.refused + tally.unreadable > 0 {
            exit::INVALID
        } else {
            exit::OK
        }
    }

    /// Whether the run failed: an input could not be read, or every game read was refused.
    fn failed(&self, tally: &Tally) -> bool {
        self.failed_input || (tally.written == 0 && tally.refused + tally.unreadable > 0)
    }

    /// Reports one game: the reader's findings, then a refusal if it was not converted.
    fn game(&mut self, game: &reversi_record::formats::ParsedGame, outcome: &Outcome) {
        for d in &game.diagnostics {
            stderr_line(self.renderer.render(d, &game.source));
        }
        let name = &self.name;
        match outcome {
            Outcome::Written(losses) => self.dropped.add(game.index, losses),
            Outcome::Refused(why) => {
                let why = why
                    .refusal(&self.target_name, self.lossy)
                    .unwrap_or_default();
                stderr_line(format_args!("error: {name}: game {}: {why}", game.index));
            }
            // Its diagnostics, above, say what is wrong with the input.
            Outcome::FileProblem => {}
            Outcome::Unreadable => {
                stderr_line(format_args!(
                    "error: {name}: game {} could not be read and is not converted",
                    game.index
                ));
            }
        }
    }

    /// Lists what was dropped from the games of the input that ends.
    fn end_input(&mut self) {
        for line in std::mem::take(&mut self.dropped).lines() {
            stderr_line(format_args!("warning: {}: dropped {line}", self.name));
        }
    }
}

/// Whether `path` names a WTHOR name file.
fn is_name_file(path: &str) -> bool {
    std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| n.eq_ignore_ascii_case("WTHOR.JOU") || n.eq_ignore_ascii_case("WTHOR.TRN"))
}

/// Converts every game of every input through `writer` with the library's pipeline,
/// reporting on standard error as it goes. An output error stops the work (returned).
fn convert_inputs(
    args: &Args,
    options: &InputOptions,
    jobs: usize,
    writer: &mut dyn RecordWriter,
    report: &mut Report,
) -> Result<Tally, Stopped> {
    let inputs = args
        .inputs
        .iter()
        .map(|path| match input::open(path, options) {
            Ok(input) => (
                Ok((input.name.clone(), input.note())),
                Some(input.into_validation()),
            ),
            Err(e) => (Err(e), None),
        });
    let run = Conversion::new().jobs(jobs).run(inputs, writer, |event| {
        match event {
            Event::Start(opened) => {
                report.end_input();
                match opened {
                    Ok((name, note)) => {
                        report.name = name;
                        if !args.quiet {
                            stderr_line(format_args!("note: {note}"));
                        }
                    }
                    Err(e) => {
                        stderr_line(format_args!("error: {e}"));
                        report.failed_input = true;
                    }
                }
            }
            Event::Game(game, outcome) => report.game(game, outcome),
            Event::ReadFailed(e) => {
                stderr_line(format_args!("error: {}: reading failed: {e}", report.name));
                report.failed_input = true;
            }
        }
        Ok(())
    });
    report.end_input();
    run
}

/// The directory of the output file (WTHOR name files go beside it), `None` for stdout.
fn output_dir(output: &str) -> Option<PathBuf> {
    if output == "-" {
        return None;
    }
    match std::path::Path::new(output).parent() {
        Some(dir) if !dir.as_os_str().is_empty() => Some(dir.to_path_buf()),
        _ => Some(PathBuf::from(".")),
    }
}

/// Parses `--to`: a format, with `json:lines` selecting JSON Lines.
fn parse_target(s: &str) -> Result<(Format, Option<String>), String> {
    match s.split_once(':') {
        Some((json, dialect)) if json.eq_ignore_ascii_case("json") => {
            if dialect.eq_ignore_ascii_case("lines") {
                Ok((Format::Json, Some("lines".into())))
            } else {
                Err(format!(
                    "expected `json` or `json:lines`, but found `{s}` instead"
                ))
            }
        }
        _ => s
            .parse()
            .map(|f| (f, None))
            .map_err(|e: reversi_record::formats::ParseFormatError| e.to_string()),
    }
}
