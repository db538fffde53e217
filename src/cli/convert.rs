//! `reversi convert`: any readable format to any writable one, streaming.

use std::io;
use std::path::PathBuf;

use reversi_record::diagnostic::Renderer;
use reversi_record::formats::capabilities::LossSummary;
use reversi_record::formats::{Format, RecordWriter, WriteError, WriteOptions};
use reversi_record::validate::with_explicit_passes;
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
    /// Directory of WTHOR name files, for reading and for writing (default: beside the
    /// input when reading, beside the output when writing).
    #[arg(long, value_name = "DIR")]
    names: Option<PathBuf>,
    /// Convert what the target can hold and list what was dropped, instead of refusing.
    #[arg(long)]
    lossy: bool,
    /// No notes on standard error; refusals and losses are still reported.
    #[arg(long, short = 'q')]
    quiet: bool,
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let (target, dialect) = args.to.clone();
    let mut guarded: Vec<PathBuf> = args.inputs.iter().map(PathBuf::from).collect();
    guarded.extend(output::name_files(&args.inputs, args.names.as_deref()));
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
    let write_options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir: args.names.clone().or_else(|| output_dir(&args.output)),
    };
    let target_name = match &write_options.dialect {
        Some(d) if target == Format::Json => format!("{target}:{d}"),
        _ => target.to_string(),
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let mut tally = Tally::default();
    // A run that could not read an input, or refused every game it read, leaves the
    // output as it was, and the name files a WTHOR writer would extend too.
    let outcome = {
        let mut writer = target.writer(Box::new(output.writer()), &write_options);
        convert_inputs(&args, &options, &mut *writer, &target_name, &mut tally).and_then(|()| {
            if tally.failed() {
                Ok(())
            } else {
                writer.finish().map_err(WriteError::Io)
            }
        })
    };
    match outcome {
        Ok(()) => {}
        // A closed standard output ends the work quietly; the status says what was found.
        Err(WriteError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {
            return Ok(tally.status());
        }
        Err(WriteError::Io(e)) => return Err(output.write_failed(e)),
        Err(e) => return Err(io::Error::other(e.to_string())),
    }
    if tally.failed() {
        if let Some(abandoned) = output.abandoned() {
            stderr_line(format_args!("note: {abandoned}"));
        }
    } else {
        output.commit()?;
    }
    if !args.quiet || tally.refused > 0 {
        stderr_line(format_args!(
            "converted {} {} to {target_name}; {} not converted",
            tally.written,
            if tally.written == 1 { "game" } else { "games" },
            tally.refused
        ));
    }
    Ok(tally.status())
}

/// What a conversion saw.
#[derive(Default)]
struct Tally {
    written: usize,
    refused: usize,
    /// The exit status so far.
    status: u8,
}

impl Tally {
    fn status(&self) -> u8 {
        self.status
    }

    /// Whether the run failed: an input could not be read, or every game read was refused.
    fn failed(&self) -> bool {
        self.status == exit::USAGE || (self.written == 0 && self.refused > 0)
    }

    fn saw(&mut self, status: u8) {
        self.status = self.status.max(status);
    }
}

/// Whether `path` names a WTHOR name file.
fn is_name_file(path: &str) -> bool {
    std::path::Path::new(path)
        .file_name()
        .map(|n| n.to_string_lossy())
        .is_some_and(|n| n.eq_ignore_ascii_case("WTHOR.JOU") || n.eq_ignore_ascii_case("WTHOR.TRN"))
}

/// Converts every game of every input through `writer`. An output error stops the work
/// (returned); everything else is reported on standard error and counted in `tally`.
fn convert_inputs(
    args: &Args,
    options: &InputOptions,
    writer: &mut dyn RecordWriter,
    target_name: &str,
    tally: &mut Tally,
) -> Result<(), WriteError> {
    let mut renderer = Renderer::terminal();
    for path in &args.inputs {
        let input = match input::open(path, options) {
            Ok(i) => i,
            Err(e) => {
                stderr_line(format_args!("error: {e}"));
                tally.saw(exit::USAGE);
                continue;
            }
        };
        if !args.quiet {
            stderr_line(format_args!("note: {}", input.note()));
        }
        let name = input.name.clone();
        let mut dropped = LossSummary::default();
        for item in input.games() {
            let game = match item {
                Ok(g) => g,
                Err(e) => {
                    stderr_line(format_args!("error: {name}: reading failed: {e}"));
                    tally.saw(exit::USAGE);
                    break;
                }
            };
            for d in &game.diagnostics {
                stderr_line(renderer.render(d, &game.source));
                if d.is_error() {
                    tally.saw(exit::INVALID);
                }
            }
            let Some(record) = &game.record else {
                stderr_line(format_args!(
                    "error: {name}: game {} could not be read and is not converted",
                    game.index
                ));
                tally.saw(exit::INVALID);
                tally.refused += 1;
                continue;
            };
            let explicit = with_explicit_passes(record);
            match writer.write(&explicit) {
                Ok(losses) => {
                    tally.written += 1;
                    dropped.add(game.index, &losses);
                }
                Err(WriteError::Io(e)) => return Err(WriteError::Io(e)),
                Err(refused_because) => {
                    tally.refused += 1;
                    tally.saw(exit::INVALID);
                    let why = refused_because
                        .refusal(target_name, args.lossy)
                        .unwrap_or_default();
                    stderr_line(format_args!("error: {name}: game {}: {why}", game.index));
                }
            }
        }
        for line in dropped.lines() {
            stderr_line(format_args!("warning: {name}: dropped {line}"));
        }
    }
    Ok(())
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
