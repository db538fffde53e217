//! Counts the games of record files of any format, detecting each file's format.
//!
//! `cargo run --example count_games -- FILE...`

use std::io;
use std::process::ExitCode;

use reversi_formats::Format;
use reversi_runs::pipeline::Input;

/// The games in `path` and the format they were read as. Entries that report a problem of
/// the file itself (index 0) are no games.
fn count_games(path: &str) -> io::Result<(Format, usize)> {
    let input = Input::open(path)?;
    let mut games = 0;
    for game in input.format.read(input.reader, &input.options) {
        if game?.index != 0 {
            games += 1;
        }
    }
    Ok((input.format, games))
}

fn main() -> ExitCode {
    let mut status = ExitCode::SUCCESS;
    for path in std::env::args().skip(1) {
        match count_games(&path) {
            Ok((format, games)) => {
                let noun = if games == 1 { "game" } else { "games" };
                println!("{path}: {games} {noun} ({format})");
            }
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_the_games_of_fixtures() {
        let root = env!("CARGO_MANIFEST_DIR");
        let mixed = count_games(&format!("{root}/fixtures/cli/mixed.rgn")).unwrap();
        assert_eq!(mixed, (Format::Rgn, 6));
        let json = count_games(&format!("{root}/fixtures/cli/envelope-field.json")).unwrap();
        assert_eq!(json, (Format::Json, 1));
    }
}
