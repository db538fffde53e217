//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::{Path, PathBuf};

use std::sync::Arc;

use reversi_record::convert::{Conversion, Event, Fingerprint, Outcome, Stopped, Tally};
use reversi_record::diagnostic::Renderer;
use reversi_record::formats::capabilities::LossSummary;
use reversi_record::formats::{wthor, Format, ReadOptions, RecordWriter, WriteOptions};
use reversi_record::validate::Input;
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
    inputs: Vec<PathBuf>,
    /// Target format, `FORMAT[:DIALECT]`: `rgn`, `json`, `json:lines`, `wthor`, `ggf`, `pgn`, `pgn:thor`, `pgn:playok`, `pgn:edax`, `sgf`, `moves`, `moves:nopass` (passes left out), `transcript`, `obf`.
    #[arg(long, value_parser = parse_target)]
    to: (Format, Option<String>),
    /// Output file; `-` (the default) writes standard output.
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
    if target == Format::Wthor && wthor::is_name_file(&args.output) {
        return Err(io::Error::new(
            io::ErrorKind::InvalidInput,
            format!(
                "{}: a WTHOR game file cannot have the name of a WTHOR name file, which is written beside it",
                args.output.display()
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
    let read_back = ReadOptions {
        name: Arc::from(output.name()),
        rules: args.rules,
        ..ReadOptions::default()
    };
    let conversion = Conversion::new()
        .jobs(jobs)
        .target(target, &write_options, &read_back);
    // What is written to a file is read back before it is put in place; standard output
    // cannot be, nor can OBF, which keeps each game's final position only.
    let staged = output.staged().map(Path::to_path_buf);
    let spool = match &staged {
        Some(path) if target != Format::Obf => {
            let dir = path.parent().unwrap_or(Path::new("."));
            Some(Spool::new(dir).map_err(|e| output.write_failed(e))?)
        }
        _ => None,
    };
    // A run that could not read an input, or refused every game it read, leaves the
    // output as it was, and the name files a WTHOR writer would extend too.
    let mut report = Report::new(&args, target_name.clone(), spool);
    let (tally, outcome) = {
        let mut writer = target.writer(Box::new(output.writer()), &write_options);
        match convert_inputs(&args, &options, &conversion, &mut *writer, &mut report) {
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
        output.flush().map_err(|e| output.write_failed(e))?;
        if let (Some(path), Some(spool)) = (&staged, report.written.take()) {
            read_back_check(&conversion, target, path, &read_back, spool, &output)?;
        }
        output.commit()?;
    }
    let not_converted = tally.refused + tally.unreadable;
    if !args.quiet || not_converted + tally.written_with_errors > 0 {
        let with_errors = match tally.written_with_errors {
            0 => String::new(),
            n => format!(", {n} of them with errors (written as read)"),
        };
        stderr_line(format_args!(
            "converted {} {} to {target_name}{with_errors}; {not_converted} not converted",
            tally.written,
            if tally.written == 1 { "game" } else { "games" },
        ));
    }
    Ok(report.status(&tally))
}

/// Reads the staged output at `path` back and compares it game by game with what was
/// written; a difference is an error naming the game, and the target is left alone.
fn read_back_check(
    conversion: &Conversion,
    target: Format,
    path: &Path,
    options: &ReadOptions,
    spool: Spool,
    output: &Output,
) -> io::Result<()> {
    let failed = |what: String| {
        let kept = output
            .abandoned()
            .map(|a| format!("; {a}"))
            .unwrap_or_default();
        io::Error::other(format!("{}: {what}{kept}", output.name()))
    };
    let file = std::fs::File::open(path)
        .map_err(|e| failed(format!("cannot read the written file back: {e}")))?;
    let input = Input {
        format: target,
        reader: Box::new(io::BufReader::with_capacity(256 * 1024, file)),
        options: options.clone(),
    };
    let written = spool
        .read()
        .map_err(|e| failed(format!("cannot read the written games back: {e}")))?;
    match conversion.verify(input, written) {
        Ok(None) => Ok(()),
        Ok(Some(mismatch)) => Err(failed(format!(
            "the written file does not read back as written: {mismatch} (a bug in the {target} writer or reader; please report it)"
        ))),
        Err(e) => Err(failed(format!("cannot read the written file back: {e}"))),
    }
}

/// What a conversion reported on standard error, and what it saw. Per input, errors are
/// shown in full; warnings, refusals, unreadable games, derived results and losses are
/// gathered by kind and listed once when the input ends, each with its count and first
/// games. `-q` keeps errors, refusals and the summary.
struct Report {
    target_name: String,
    lossy: bool,
    quiet: bool,
    renderer: Renderer,
    /// The input being converted.
    name: Arc<str>,
    /// The input's games gathered by kind.
    input: InputReport,
    /// An input could not be opened or read.
    failed_input: bool,
    /// Where the fingerprints of the games written are kept for the read-back check.
    written: Option<Spool>,
}

/// What one input's games gave, by kind.
#[derive(Default)]
struct InputReport {
    warnings: LossSummary,
    refused: LossSummary,
    unreadable: LossSummary,
    derived: LossSummary,
    dropped: LossSummary,
}

impl Report {
    fn new(args: &Args, target_name: String, written: Option<Spool>) -> Report {
        Report {
            target_name,
            lossy: args.lossy,
            quiet: args.quiet,
            renderer: Renderer::terminal(),
            name: Arc::from("-"),
            input: InputReport::default(),
            failed_input: false,
            written,
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

    /// Reports one game: its errors in full; the rest is gathered for the input's end.
    fn game(
        &mut self,
        game: &reversi_record::formats::ParsedGame,
        outcome: &Outcome,
    ) -> io::Result<()> {
        for d in &game.diagnostics {
            if d.is_error() {
                stderr_line(self.renderer.render(d, &game.source));
            } else if game.index == 0 {
                // A problem of the input itself.
                stderr_line(self.renderer.render(d, &game.source));
            } else {
                let warning = format!("{}: {}", d.code.name(), d.message);
                self.input.warnings.add(game.index, &[warning]);
            }
        }
        let input = &mut self.input;
        match outcome {
            Outcome::Written(written) => {
                input.dropped.add(game.index, &written.losses);
                if written.derived_result {
                    let what = "result derived from the final board".to_owned();
                    input.derived.add(game.index, &[what]);
                }
                if let (Some(spool), Some(fingerprint)) = (&mut self.written, written.fingerprint) {
                    spool.push(fingerprint)?;
                }
            }
            Outcome::Refused(why) => {
                let why = why
                    .refusal(&self.target_name, self.lossy)
                    .unwrap_or_default();
                input.refused.add(game.index, &[why]);
            }
            // Its diagnostics, above, say what is wrong with the input.
            Outcome::FileProblem => {}
            Outcome::Unreadable => {
                let what = "could not be read; not converted".to_owned();
                input.unreadable.add(game.index, &[what]);
            }
        }
        Ok(())
    }

    /// Lists what the games of the input that ends gave, by kind.
    fn end_input(&mut self) {
        let input = std::mem::take(&mut self.input);
        let name = &self.name;
        for line in input.refused.lines() {
            stderr_line(format_args!("error: {name}: {line}"));
        }
        for line in input.unreadable.lines() {
            stderr_line(format_args!("error: {name}: {line}"));
        }
        if self.quiet {
            return;
        }
        for line in input.warnings.lines() {
            stderr_line(format_args!("warning: {name}: {line}"));
        }
        for line in input.dropped.lines() {
            stderr_line(format_args!("warning: {name}: dropped {line}"));
        }
        for line in input.derived.lines() {
            stderr_line(format_args!("note: {name}: {line}"));
        }
    }
}

/// The fingerprints of the games written, kept in an unnamed temporary file so that memory
/// stays flat however many games are written, for [`Conversion::verify`].
struct Spool {
    file: io::BufWriter<std::fs::File>,
}

impl Spool {
    /// A spool in `dir` (the output's folder: staged beside it, like the output).
    fn new(dir: &std::path::Path) -> io::Result<Spool> {
        let file = tempfile::tempfile_in(dir).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create a temporary file in {}: {e}", dir.display()),
            )
        })?;
        Ok(Spool {
            file: io::BufWriter::new(file),
        })
    }

    fn push(&mut self, fingerprint: Fingerprint) -> io::Result<()> {
        use std::io::Write;
        self.file.write_all(&fingerprint.to_bytes())
    }

    /// The fingerprints pushed, in order.
    fn read(self) -> io::Result<impl Iterator<Item = io::Result<Fingerprint>>> {
        use std::io::{Read, Seek};
        let mut file = self.file.into_inner().map_err(|e| e.into_error())?;
        file.rewind()?;
        let mut file = io::BufReader::new(file);
        Ok(std::iter::from_fn(move || {
            let mut bytes = [0; 16];
            match file.read_exact(&mut bytes) {
                Ok(()) => Some(Ok(Fingerprint::from_bytes(bytes))),
                Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => None,
                Err(e) => Some(Err(e)),
            }
        }))
    }
}

/// Converts every game of every input through `writer` with the library's pipeline,
/// reporting on standard error as it goes. An output error stops the work (returned).
fn convert_inputs(
    args: &Args,
    options: &InputOptions,
    conversion: &Conversion,
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
    let run = conversion.run(inputs, writer, |event| {
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
            Event::Game(game, outcome) => return report.game(game, outcome),
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
fn output_dir(output: &std::path::Path) -> Option<PathBuf> {
    if output == std::path::Path::new("-") {
        return None;
    }
    match output.parent() {
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
        Some((moves, dialect)) if moves.parse() == Ok(Format::MoveString) => {
            match reversi_record::formats::movestr::dialect(dialect) {
                Some(d) => Ok((Format::MoveString, Some(d.into()))),
                None => Err(format!(
                    "expected `moves` or `moves:nopass`, but found `{s}` instead"
                )),
            }
        }
        _ => s
            .parse()
            .map(|f| (f, None))
            .map_err(|e: reversi_record::formats::ParseFormatError| e.to_string()),
    }
}
