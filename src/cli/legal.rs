//! `reversi legal`: the legal moves of a position of a game, and who is to move.

use std::io::{self, Write};
use std::path::PathBuf;
use std::sync::Arc;

use clap::ValueEnum;
use reversi_formats::record::GameSelector;
use reversi_formats::render::{Diagram, RenderError, Turn};
use reversi_formats::ParsedGame;

use super::input::{self, InputOptions};
use super::{exit, stderr_line};

/// List the legal moves of the position after a move of a game (the help text is the
/// `Legal` command's).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The record; `-` (the default) reads standard input.
    #[arg(default_value = "-")]
    input: PathBuf,
    /// Which game of the file: its number (1 is the first), or tags such as
    /// `Round=3,Board=2` (the first game that has them).
    #[arg(long, short = 'g', default_value = "1", value_name = "GAME", value_parser = parse_selector)]
    game: GameSelector,
    /// The position after this written move (passes the record writes count; 0 is the
    /// start position). Default: after the last legal move.
    #[arg(long = "move", short = 'm', value_name = "M")]
    move_number: Option<usize>,
    #[command(flatten)]
    reading: InputOptions,
    /// Output format.
    #[arg(long, value_enum, default_value_t = LegalFormat::Human)]
    format: LegalFormat,
}

/// How `legal` prints the moves.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum LegalFormat {
    /// Two lines: the position, then who moves and the moves.
    Human,
    /// One JSON object.
    Json,
}

fn parse_selector(s: &str) -> Result<GameSelector, String> {
    GameSelector::parse(s).map_err(|e| e.to_string())
}

/// Prints the legal moves of the position asked for. Exit 1 when an illegal move comes
/// at or before that position (the moves are then those of the position before it).
pub(crate) fn run(args: Args) -> io::Result<u8> {
    let (name, game) = find_game(&args)?;
    let Some(record) = &game.record else {
        stderr_line(format_args!(
            "error: {name}: game {} could not be read, so it has no position",
            game.index
        ));
        return Ok(exit::INVALID);
    };
    let replay = match Diagram::replay(record, args.move_number) {
        Ok(r) => r,
        Err(e @ RenderError::PastEnd { .. }) => {
            return Err(usage(&format!("{name}: game {}: --move: {e}", game.index)))
        }
        Err(e @ RenderError::BadSetup(_)) => {
            stderr_line(format_args!("error: {name}: game {}: {e}", game.index));
            return Ok(exit::INVALID);
        }
    };
    let mut status = exit::OK;
    if let Some(stop) = replay.stopped {
        stderr_line(format_args!(
            "note: game {}: move {} ({}) is illegal: {}; these are the legal moves after move {}, the last legal one",
            game.index,
            stop.number,
            stop.mv,
            stop.reason,
            stop.number - 1
        ));
        status = exit::INVALID;
    }
    let diagram = &replay.diagram;
    let turn = diagram.turn();
    let mut out = io::stdout().lock();
    match args.format {
        LegalFormat::Human => {
            writeln!(out, "{}: game {}: {}", name, game.index, diagram.summary())?;
            writeln!(out, "{turn}")?;
        }
        LegalFormat::Json => {
            let moves: Vec<String> = turn.moves().iter().map(|m| m.to_string()).collect();
            let value = serde_json::json!({
                "file": &*name,
                "game": game.index,
                "move": diagram.moves,
                "rules": diagram.position.rules().to_string(),
                "to_move": turn.color().map(|c| c.to_string()),
                "must_pass": matches!(turn, Turn::Pass(_)),
                "game_over": matches!(turn, Turn::Over),
                "legal": moves,
                "illegal_move": replay.stopped.map(|s| serde_json::json!({
                    "number": s.number,
                    "move": s.mv.to_string(),
                    "reason": s.reason.reason(),
                })),
            });
            writeln!(out, "{value}")?;
        }
    }
    out.flush()?;
    Ok(status)
}

/// Opens the input and reads it up to the game `--game` selects.
fn find_game(args: &Args) -> io::Result<(Arc<str>, ParsedGame)> {
    let options = args.reading.clone();
    let input = input::open(&args.input, &options)?;
    let name = input.name().clone();
    let mut seen = 0;
    for item in input.games() {
        let game = item.map_err(|e| io::Error::new(e.kind(), format!("{name}: {e}")))?;
        if game.index == 0 {
            continue;
        }
        seen += 1;
        let tags = game.record.as_ref().map_or(&[][..], |r| r.tags.as_slice());
        if args.game.matches(seen, tags) {
            return Ok((name, game));
        }
    }
    Err(usage(&match args.game.index() {
        Some(n) => format!(
            "{name}: expected a game number from 1 to {seen}, but found {n} instead: the file has {seen} {}",
            if seen == 1 { "game" } else { "games" }
        ),
        None => format!("{name}: no game matches: {} (of {seen})", args.game),
    }))
}

fn usage(message: &str) -> io::Error {
    io::Error::new(io::ErrorKind::InvalidInput, message.to_string())
}
