//! Converts record files from any format to another, writing to standard output; a record
//! the target cannot hold is refused (named on standard error) unless `--lossy` is given.
//!
//! `cargo run --example convert -- [--lossy] FORMAT FILE...`, for example
//! `cargo run --example convert -- --lossy moves fixtures/cli/mixed.rgn`.

use std::io::{self, Write};
use std::process::ExitCode;

use reversi_formats::{Format, WriteOptions};
use reversi_runs::pipeline::conversion::{Conversion, Event, Input, Outcome};

/// Reads every game of `paths` and writes the ones that could be read to `out` as
/// `target`, on every core with the library's conversion pipeline; returns the games
/// refused or unreadable, each with why.
fn convert(
    paths: &[String],
    target: Format,
    lossy: bool,
    out: Box<dyn Write + Send + '_>,
) -> io::Result<Vec<String>> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let mut writer = target.writer(out, &options);
    let mut inputs = Vec::new();
    for path in paths {
        inputs.push((path.clone(), Some(Input::open(path)?)));
    }
    let mut skipped = Vec::new();
    let mut current = String::new();
    Conversion::new().run(inputs.into_iter(), &mut *writer, |event| {
        match event {
            Event::Start(path) => current = path,
            Event::Game(game, Outcome::Refused(why)) => {
                skipped.push(format!("{current}: game {}: {why}", game.index));
            }
            Event::Game(game, Outcome::Unreadable) => {
                skipped.push(format!("{current}: game {} could not be read", game.index));
            }
            Event::Game(..) => {}
            Event::ReadFailed(e) => return Err(e),
        }
        Ok(())
    })?;
    writer.finish()?;
    Ok(skipped)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let lossy = args.iter().any(|a| a == "--lossy");
    args.retain(|a| a != "--lossy");
    let Some((target, paths)) = args.split_first() else {
        eprintln!("usage: convert [--lossy] FORMAT FILE...");
        return ExitCode::from(2);
    };
    let target: Format = match target.parse() {
        Ok(f) => f,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
    match convert(
        paths,
        target,
        lossy,
        Box::new(io::BufWriter::new(io::stdout())),
    ) {
        Ok(skipped) if skipped.is_empty() => ExitCode::SUCCESS,
        Ok(skipped) => {
            for s in skipped {
                eprintln!("{s}");
            }
            ExitCode::FAILURE
        }
        Err(e) => {
            eprintln!("{e}");
            ExitCode::from(2)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn converts_rgn_to_move_strings() {
        let path = format!("{}/fixtures/cli/mixed.rgn", env!("CARGO_MANIFEST_DIR"));
        let mut out = Vec::new();
        let skipped = convert(&[path], Format::MoveString, true, Box::new(&mut out)).unwrap();
        let text = String::from_utf8(out).unwrap();
        assert!(text.lines().count() >= 5, "{text}");
        assert!(text.starts_with("c4"), "{text}");
        assert!(skipped.len() <= 1, "{skipped:?}");
    }
}
