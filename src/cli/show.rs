//! `reversi show`: the position after a move of a game, as text or as an SVG picture.

use std::io::{self, IsTerminal, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::ValueEnum;
use reversi_check::validate::validate_record;
use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
use reversi_formats::record::GameSelector;
use reversi_formats::render::{Diagram, Marks, RenderError, Style};
use reversi_formats::{select_one, ParsedGame, SelectError};

use super::input::{self, InputOptions};
use super::{exit, output};

/// Show the position after a move of a game, as text or as an SVG diagram (the help text
/// is the `Show` command's).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Which game of the file: its number (1 is the first) or tags that name one game
    /// (`Round=3,Board=2`, `Player=Tamaru`; names ignore case).
    #[arg(long, short = 'g', default_value = "1", value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: GameSelector,
    /// Show the position after this written move (passes the record writes count; 0 is the
    /// start position). Default: the last.
    #[arg(long = "move", short = 'm', value_name = "M")]
    move_number: Option<usize>,
    #[command(flatten)]
    reading: InputOptions,
    /// Output format; default: `svg` when the output file ends in `.svg`, else `text`.
    #[arg(long, value_enum)]
    format: Option<ShowFormat>,
    /// Draw the game diagram of Othello books: the start discs and the number of each
    /// placement on the square it filled.
    #[arg(long)]
    numbers: bool,
    /// Mark the legal moves of the side to move (dots on the SVG) and say who moves; the
    /// record's illegal move, when it is the next one, is marked (a red cross) with or
    /// without this flag.
    #[arg(long)]
    legal: bool,
    /// Output file, replaced only when complete (never the input or its WTHOR name
    /// files); `-` (the default) writes standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
}

/// What `show` draws.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum ShowFormat {
    /// The board as diagnostics draw it, the side to move, disc counts, the last move.
    Text,
    /// A self-contained SVG picture.
    Svg,
}

/// Shows game `--game` of the input: its errors on stderr, then its picture.
pub(crate) fn run(args: Args) -> io::Result<u8> {
    let (name, game) = find_game(&args)?;
    let mut stderr = io::stderr().lock();
    let mut status = exit::OK;
    for d in game.diagnostics.iter().filter(|d| d.is_error()) {
        print_diagnostic(&mut stderr, d, &game.source)?;
        status = exit::INVALID;
    }
    let Some(record) = &game.record else {
        writeln!(
            stderr,
            "error: {name}: game {} could not be read, so there is nothing to show",
            game.index
        )?;
        return Ok(exit::INVALID);
    };
    let replay = match Diagram::replay(record, args.move_number) {
        Ok(r) => r,
        Err(e @ RenderError::PastEnd { .. }) => {
            return Err(usage(&format!("{name}: game {}: --move: {e}", game.index)))
        }
        Err(RenderError::BadSetup(_)) => {
            for d in validate_record(record, game.index).diagnostics {
                print_diagnostic(&mut stderr, &d, &game.source)?;
            }
            return Ok(exit::INVALID);
        }
    };
    // Judge the record only as far as it is shown: the moves after M do not matter, nor
    // (when M is not the last move) the result.
    let mut shown = record.clone();
    if let Some(m) = args.move_number {
        if m < shown.moves.len() {
            shown.moves.truncate(m);
            shown.result = None;
        }
    }
    for d in validate_record(&shown, game.index)
        .diagnostics
        .iter()
        .filter(|d| d.is_error())
    {
        print_diagnostic(&mut stderr, d, &game.source)?;
        status = exit::INVALID;
    }
    if let Some(stop) = replay.stopped {
        writeln!(
            stderr,
            "note: game {}: move {} ({}) is illegal; showing the position after move {}, the last legal one",
            game.index,
            stop.number,
            stop.mv,
            stop.number - 1
        )?;
        status = exit::INVALID;
    }
    let marks = Marks::of(record, &replay, args.legal);
    output::finish_whole(
        &args.output,
        write_picture(&args, &replay.diagram, &marks),
        status,
    )
}

/// Opens the input and reads it up to the game `--game` selects; returns the input's name
/// and the game.
fn find_game(args: &Args) -> io::Result<(Arc<str>, ParsedGame)> {
    let options = args.reading.clone();
    let input = input::open(&args.input, &options)?;
    let name = input.name().clone();
    match select_one(input.games(), &args.game) {
        Ok(game) => Ok((name, game)),
        Err(SelectError::Read(e)) => Err(io::Error::new(e.kind(), format!("{name}: {e}"))),
        Err(
            e @ SelectError::NotFound {
                selector: GameSelector::Index(_),
                ..
            },
        ) => Err(usage(&format!("{name}: {e}"))),
        Err(e) => Err(usage(&format!("{name}: --game {}: {e}", args.game))),
    }
}

/// Draws the diagram as text or SVG (by `--format`, else the output's extension) into the
/// output, `-` for stdout.
fn write_picture(args: &Args, diagram: &Diagram, marks: &Marks) -> io::Result<()> {
    let svg_named = args
        .output
        .extension()
        .is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let format = args.format.unwrap_or(if svg_named {
        ShowFormat::Svg
    } else {
        ShowFormat::Text
    });
    let style = Style {
        numbers: args.numbers,
    };
    let picture = match format {
        ShowFormat::Text => diagram.text_marked(&style, marks),
        ShowFormat::Svg => diagram.svg_marked(&style, marks),
    };
    let mut inputs = vec![args.input.clone()];
    inputs.extend(output::name_files(
        &[&args.input],
        args.reading.names.as_deref(),
    ));
    let inputs: Vec<&Path> = inputs.iter().map(PathBuf::as_path).collect();
    output::write_whole(&args.output, &inputs, picture.as_bytes())
}

/// Prints `d` as `reversi validate` does on a terminal, plainly otherwise.
fn print_diagnostic(out: &mut impl Write, d: &Diagnostic, source: &Source) -> io::Result<()> {
    let mut renderer = if io::stderr().is_terminal() {
        Renderer::terminal()
    } else {
        Renderer::plain()
    };
    writeln!(out, "{}", renderer.render(d, source))
}

fn usage(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}
