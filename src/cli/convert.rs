//! `reversi convert`: any readable format to any writable one, streaming.

use std::fs::File;
use std::io::{self, Write};
use std::path::PathBuf;

use reversi_record::diagnostic::Report;
use reversi_record::formats::capabilities::LossSummary;
use reversi_record::formats::{Format, WriteError, WriteOptions};
use reversi_record::validate::with_explicit_passes;
use reversi_record::Rules;

use super::exit;
use super::input::{self, InputOptions};

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
    let out: Box<dyn Write + Send> = if args.output == "-" {
        Box::new(io::BufWriter::new(io::stdout()))
    } else {
        if let Some(input) = same_file_as_output(&args.inputs, &args.output) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!(
                    "{input}: the output is the input; writing would destroy it before it is read"
                ),
            ));
        }
        let file = File::create(&args.output)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", args.output)))?;
        Box::new(io::BufWriter::new(file))
    };
    let (target, dialect) = args.to;
    let write_options = WriteOptions {
        lossy: args.lossy,
        dialect,
        names_dir: args.names.clone().or_else(|| output_dir(&args.output)),
    };
    let mut writer = target.writer(out, &write_options);
    let target_name = match &write_options.dialect {
        Some(d) if target == Format::Json => format!("{target}:{d}"),
        _ => target.to_string(),
    };
    let options = InputOptions {
        from: args.from,
        rules: args.rules,
        names: args.names.clone(),
    };
    let mut stderr = io::stderr().lock();
    let mut status = exit::OK;
    let (mut written, mut refused) = (0usize, 0usize);
    for path in &args.inputs {
        let input = match input::open(path, &options) {
            Ok(i) => i,
            Err(e) => {
                writeln!(stderr, "error: {e}")?;
                status = exit::USAGE;
                continue;
            }
        };
        if !args.quiet {
            writeln!(stderr, "note: {}", input.note())?;
        }
        let name = input.name.clone();
        let mut dropped = LossSummary::default();
        for item in input.games {
            let game = match item {
                Ok(g) => g,
                Err(e) => {
                    writeln!(stderr, "error: {name}: {e}")?;
                    status = exit::USAGE;
                    break;
                }
            };
            for d in &game.diagnostics {
                let handler = miette::GraphicalReportHandler::new();
                let mut text = String::new();
                let report = Report {
                    diagnostic: d,
                    source: &game.source,
                };
                if handler.render_report(&mut text, &report).is_err() {
                    text = format!("{}: {}", d.code, d.message);
                }
                writeln!(stderr, "{text}")?;
            }
            let Some(record) = &game.record else {
                writeln!(
                    stderr,
                    "error: {name}: game {} could not be read and is not converted",
                    game.index
                )?;
                status = status.max(exit::INVALID);
                refused += 1;
                continue;
            };
            let explicit = with_explicit_passes(record);
            match writer.write(&explicit) {
                Ok(losses) => {
                    written += 1;
                    dropped.add(game.index, &losses);
                }
                Err(WriteError::Io(e)) => return Err(e),
                Err(refused_because) => {
                    refused += 1;
                    status = status.max(exit::INVALID);
                    let why = refused_because
                        .refusal(&target_name, args.lossy)
                        .unwrap_or_default();
                    writeln!(stderr, "error: {name}: game {}: {why}", game.index)?;
                }
            }
        }
        for line in dropped.lines() {
            writeln!(stderr, "warning: {name}: dropped {line}")?;
        }
    }
    writer.finish()?;
    if !args.quiet || refused > 0 {
        writeln!(
            stderr,
            "converted {written} {} to {target_name}; {refused} not converted",
            if written == 1 { "game" } else { "games" }
        )?;
    }
    Ok(status)
}

/// The input that is the file `output` names, if any.
fn same_file_as_output<'a>(inputs: &'a [String], output: &str) -> Option<&'a str> {
    let output = std::fs::canonicalize(output).ok()?;
    inputs
        .iter()
        .find(|i| *i != "-" && std::fs::canonicalize(i).is_ok_and(|p| p == output))
        .map(String::as_str)
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
        _ => s.parse().map(|f| (f, None)),
    }
}
