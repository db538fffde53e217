//! Converts record files from any format to another, writing to standard output; a record
//! the target cannot hold is refused (named on standard error) unless `--lossy` is given.
//!
//! `cargo run --example convert -- [--lossy] FORMAT FILE...`, for example
//! `cargo run --example convert -- --lossy moves fixtures/cli/mixed.rgn`.

use std::fs::File;
use std::io::{self, Write};
use std::process::ExitCode;

use reversi_record::formats::{Format, ReadOptions, WriteError, WriteOptions};

/// Reads every game of `paths` and writes the ones that could be read to `out` as
/// `target`; returns the games refused or unreadable, each with why.
fn convert(
    paths: &[String],
    target: Format,
    lossy: bool,
    out: Box<dyn Write + Send + '_>,
) -> Result<Vec<String>, WriteError> {
    let options = WriteOptions {
        lossy,
        ..WriteOptions::default()
    };
    let mut writer = target.writer(out, &options);
    let mut skipped = Vec::new();
    for path in paths {
        let file = File::open(path)?;
        let len = file.metadata().ok().map(|m| m.len());
        let detected = Format::detect(Box::new(file), path, len, None).map_err(io::Error::other)?;
        let read_options = ReadOptions {
            name: path.as_str().into(),
            path: Some(path.into()),
            ..ReadOptions::default()
        };
        for game in detected.format.read(detected.input, &read_options) {
            let game = game?;
            let Some(record) = &game.record else {
                if game.index != 0 {
                    skipped.push(format!("{path}: game {} could not be read", game.index));
                }
                continue;
            };
            match writer.write(record) {
                Ok(_dropped) => {}
                Err(WriteError::Io(e)) => return Err(WriteError::Io(e)),
                Err(refused) => skipped.push(format!("{path}: game {}: {refused}", game.index)),
            }
        }
    }
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
