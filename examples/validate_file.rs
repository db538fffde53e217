//! Validates record files as `reversi validate` does: every game replayed, each finding
//! rendered (or printed as JSON with `--json`), and the summary last.
//!
//! `cargo run --example validate_file -- [--json] FILE...`

use std::fs::File;
use std::io;
use std::process::ExitCode;

use reversi_record::diagnostic::Renderer;
use reversi_record::formats::{Format, ReadOptions};
use reversi_record::validate::{validate_game, Summary};

/// Validates `path`, printing each finding through `print` and counting into `summary`.
fn validate_file(
    path: &str,
    summary: &mut Summary,
    print: &mut dyn FnMut(String),
    json: bool,
) -> io::Result<()> {
    let file = File::open(path)?;
    let len = file.metadata().ok().map(|m| m.len());
    let detected = Format::detect(Box::new(file), path, len, None).map_err(io::Error::other)?;
    let options = ReadOptions {
        name: path.into(),
        path: Some(path.into()),
        ..ReadOptions::default()
    };
    let mut renderer = Renderer::plain();
    summary.add_file();
    for game in detected.format.read(detected.input, &options) {
        let game = game?;
        let diagnostics = validate_game(&game, &[] as &[&str]);
        for d in &diagnostics {
            print(if json {
                serde_json::to_string(&renderer.locate(d, &game.source))
                    .map_err(io::Error::other)?
            } else {
                renderer.render(d, &game.source)
            });
        }
        summary.add_game(&game, &diagnostics);
    }
    Ok(())
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    args.retain(|a| a != "--json");
    let mut summary = Summary::default();
    for path in &args {
        if let Err(e) = validate_file(path, &mut summary, &mut |line| println!("{line}"), json) {
            eprintln!("{path}: {e}");
            return ExitCode::from(2);
        }
    }
    println!("{summary}");
    if summary.is_clean() {
        ExitCode::SUCCESS
    } else {
        ExitCode::FAILURE
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_the_illegal_move_and_counts_the_games() {
        let path = format!("{}/fixtures/cli/illegal.rgn", env!("CARGO_MANIFEST_DIR"));
        let mut summary = Summary::default();
        let mut lines = Vec::new();
        validate_file(&path, &mut summary, &mut |l| lines.push(l), true).unwrap();
        assert!(lines[0].starts_with(r#"{"code":"illegal-move","severity":"error","file":"#));
        assert_eq!((summary.games, summary.invalid), (1, 1));
        assert!(!summary.is_clean());
    }
}
