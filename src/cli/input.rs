//! Opening inputs as the library's runs do ([`reversi_runs::run`]): the arguments every
//! reading command shares, and the notes and errors the command line prints for them.

use std::io;
use std::path::{Path, PathBuf};

use reversi_engine::Rules;
use reversi_formats::{Format, ParseFormatError};
use reversi_runs::run::{self, InputSource, OpenError, Opened, Walked};

/// What every reading command shares; the arguments of the commands that flatten it
/// (`--from`, `--rules`, `--names`).
#[derive(Clone, Debug, Default, clap::Args)]
pub(crate) struct InputOptions {
    /// Read as this format (`FORMAT[:DIALECT]`) instead of detecting it.
    #[arg(long, value_parser = parse_format)]
    pub(crate) from: Option<Format>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    #[arg(long, value_parser = super::parse_rules)]
    pub(crate) rules: Option<Rules>,
    /// Where WTHOR's name files are: a directory holding `WTHOR.JOU` and `WTHOR.TRN`, or
    /// the two files by any names, players first (default: beside the game file; a WTHOR
    /// output's go beside it, made when missing).
    #[arg(long, value_name = "DIR|PLAYERS,TOURNAMENTS")]
    pub(crate) names: Option<PathBuf>,
}

impl InputOptions {
    /// The library's options.
    pub(crate) fn run(&self) -> run::InputOptions {
        run::InputOptions {
            from: self.from,
            rules: self.rules,
            names: self.names.clone(),
        }
    }
}

/// Opens `path` (`-` for standard input), as [`run::open`] does; the error says how to
/// name the format on the command line.
pub(crate) fn open(path: impl AsRef<Path>, options: &InputOptions) -> io::Result<Opened> {
    run::open(InputSource::path(path.as_ref()), &options.run()).map_err(error)
}

/// An error opening an input, as the command line says it.
pub(crate) fn error(e: OpenError) -> io::Error {
    io::Error::new(e.kind(), message(&e))
}

/// What the command line says of an error opening an input: the library's words, and how
/// to name the format when it is not recognised.
pub(crate) fn message(e: &OpenError) -> String {
    match e {
        OpenError::UnknownFormat { .. } => format!("{e}; give it with --from"),
        e => e.to_string(),
    }
}

/// Prints `notes` on standard error as notes, unless `quiet`.
pub(crate) fn notes(notes: impl IntoIterator<Item = String>, quiet: bool) {
    if quiet {
        return;
    }
    for note in notes {
        super::stderr_line(format_args!("note: {note}"));
    }
}

/// The inputs `paths` name, folders walked ([`run::walk`]), with a note for each file
/// skipped (unless `quiet`) and for the registers and pairings tables found, which the
/// caller does not read.
pub(crate) fn expand(paths: &[PathBuf], quiet: bool) -> io::Result<Vec<PathBuf>> {
    let walked = expand_event(paths, quiet)?;
    notes(walked.unused_event_files(true, true), quiet);
    Ok(walked.inputs)
}

/// [`run::walk`], with a note for each file skipped (unless `quiet`).
pub(crate) fn expand_event(paths: &[PathBuf], quiet: bool) -> io::Result<Walked> {
    let walked = run::walk(paths)?;
    let skipped = walked.skipped.iter();
    notes(
        skipped.map(|s| format!("{}: skipped, {}", s.path.display(), s.why)),
        quiet,
    );
    Ok(walked)
}

/// The player register: `--players`, or the one found in the folders (with a note).
pub(crate) fn register(
    walked: &Walked,
    given: Option<&Path>,
    quiet: bool,
) -> io::Result<Option<reversi_check::event::Register>> {
    let mut found = Vec::new();
    let register = walked.register(given, &mut found);
    notes(found, quiet);
    register
}

/// The event's pairings: `--pairings`, or the first found in the folders (with notes).
pub(crate) fn pairings(
    walked: &Walked,
    given: Option<&Path>,
    quiet: bool,
) -> io::Result<Option<reversi_check::event::Schedule>> {
    let mut found = Vec::new();
    let pairings = walked.pairings(given, &mut found);
    notes(found, quiet);
    pairings
}

/// Parses `--to`: a format, with the dialects `json:lines` and `moves:nopass`.
pub(crate) fn parse_target(s: &str) -> Result<(Format, Option<String>), String> {
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
            match reversi_formats::movestr::dialect(dialect) {
                Some(d) => Ok((Format::MoveString, Some(d.into()))),
                None => Err(format!(
                    "expected `moves` or `moves:nopass`, but found `{s}` instead"
                )),
            }
        }
        _ => s
            .parse()
            .map(|f| (f, None))
            .map_err(|e: reversi_formats::ParseFormatError| e.to_string()),
    }
}

/// Parses `FORMAT[:DIALECT]` for clap (`--from`, repair's `--to`).
pub(crate) fn parse_format(s: &str) -> Result<Format, String> {
    s.parse().map_err(|e: ParseFormatError| e.to_string())
}

/// The facts of every game of `inputs` ([`run::gather`]; their progress on standard
/// error), and whether an input could not be opened or read (each named in an error line).
pub(crate) fn gather(
    inputs: &[PathBuf],
    options: &InputOptions,
    jobs: Option<usize>,
    quiet: bool,
) -> io::Result<(reversi_check::event::Event, bool)> {
    let jobs = super::capped_jobs(jobs, quiet);
    let progress = super::progress::Progress::start(inputs, quiet, false);
    let counter = super::progress::Counter::of(progress.as_ref());
    let input_options = options.run();
    let opened = inputs.iter().map(|path| {
        run::open(InputSource::path(path), &input_options).map(|input| counter.input(input))
    });
    let options = run::ValidateOptions {
        jobs: Some(jobs),
        ..run::ValidateOptions::default()
    };
    let (event, report) = run::gather(opened, &options, |step| {
        match step {
            run::Step::Input { note, .. } if !quiet => {
                super::stderr_line(format_args!("note: {note}"))
            }
            run::Step::OpenFailed(e) => super::stderr_line(format_args!("error: {}", message(e))),
            run::Step::ReadFailed { name, error } => {
                super::stderr_line(format_args!("error: {name}: reading failed: {error}"))
            }
            _ => {}
        }
        Ok(())
    })
    .map_err(|stopped| stopped.error)?;
    if let Some(p) = progress {
        p.finish();
    }
    Ok((event, !report.failed.is_empty()))
}
