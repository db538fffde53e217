//! Validates record files as `reversi validate` does, with the library's pipeline: every
//! game replayed, each finding rendered (or printed as JSON with `--json`) in input order,
//! and the summary last.
//!
//! `cargo run --example validate_file -- [--json] FILE...`

use std::io;
use std::process::ExitCode;

use reversi_check::validate::Summary;
use reversi_formats::diagnostic::Renderer;
use reversi_runs::pipeline::validation::{Event, Input, Validation};

/// Validates `paths` with the library's pipeline (every core, findings in input order),
/// printing each finding through `print`; returns the counts.
fn validate_files(
    paths: &[String],
    print: &mut dyn FnMut(String),
    json: bool,
) -> io::Result<Summary> {
    let inputs = paths
        .iter()
        .map(|path| Input::open(path).map_err(|e| io::Error::new(e.kind(), format!("{path}: {e}"))))
        .collect::<io::Result<Vec<_>>>()?;
    let mut renderer = Renderer::plain();
    let summary = Validation::new().run(inputs.into_iter().map(|i| ((), Some(i))), |event| {
        if let Event::Game(game, diagnostics) = event {
            for d in diagnostics {
                print(if json {
                    serde_json::to_string(&renderer.locate(d, &game.source))
                        .map_err(io::Error::other)?
                } else {
                    renderer.render(d, &game.source)
                });
            }
        }
        Ok(())
    })?;
    Ok(summary)
}

fn main() -> ExitCode {
    let mut args: Vec<String> = std::env::args().skip(1).collect();
    let json = args.iter().any(|a| a == "--json");
    args.retain(|a| a != "--json");
    let summary = match validate_files(&args, &mut |line| println!("{line}"), json) {
        Ok(summary) => summary,
        Err(e) => {
            eprintln!("{e}");
            return ExitCode::from(2);
        }
    };
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
        let mut lines = Vec::new();
        let summary = validate_files(&[path], &mut |l| lines.push(l), true).unwrap();
        assert!(lines[0].starts_with(r#"{"code":"illegal-move","severity":"error","file":"#));
        assert_eq!((summary.games, summary.invalid), (1, 1));
        assert!(!summary.is_clean());
    }
}
