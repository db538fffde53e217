//! The most played openings of record files of any format: the first moves of every game,
//! counted, through the borrowed view of games (`reversi_runs::pipeline::view`), which builds no
//! record for a plain game. With `--player NAME`, only the games NAME played (as Black or
//! White).
//!
//! `cargo run --release --example openings -- [--moves N] [--player NAME] FILE...`

use std::collections::HashMap;
use std::io;
use std::process::ExitCode;

use reversi_engine::Move;
use reversi_runs::pipeline::view::{GameReader, Input};

/// Opening counts: the first moves of a game, as text, and how many games began so.
#[derive(Default)]
struct Openings {
    counts: HashMap<String, usize>,
    /// The text of the opening being counted, reused from game to game.
    line: String,
}

impl Openings {
    /// Counts the games of `path` that `player` played (any game without a player given),
    /// by their first `moves` moves; returns the games counted.
    fn count_file(&mut self, path: &str, moves: usize, player: Option<&str>) -> io::Result<usize> {
        let mut reader = GameReader::new(Input::open(path)?);
        let mut counted = 0;
        while let Some(game) = reader.next_game() {
            let game = game?;
            let played = |name: &str| [game.tag("Black"), game.tag("White")].contains(&Some(name));
            if game.index() == 0 || game.moves().len() < moves || !player.map_or(true, played) {
                continue;
            }
            self.line.clear();
            for mv in &game.moves()[..moves] {
                if !self.line.is_empty() {
                    self.line.push(' ');
                }
                match mv {
                    Move::Place(sq) => self.line.push_str(sq.name()),
                    Move::Pass => self.line.push_str("--"),
                }
            }
            match self.counts.get_mut(&self.line) {
                Some(n) => *n += 1,
                None => {
                    self.counts.insert(self.line.clone(), 1);
                }
            }
            counted += 1;
        }
        Ok(counted)
    }

    /// The `n` most played, most played first (ties in move order).
    fn top(&self, n: usize) -> Vec<(&str, usize)> {
        let mut all: Vec<_> = self.counts.iter().map(|(k, &v)| (k.as_str(), v)).collect();
        all.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(b.0)));
        all.truncate(n);
        all
    }
}

fn main() -> ExitCode {
    let mut args = std::env::args().skip(1);
    let (mut moves, mut player, mut paths) = (4, None, Vec::new());
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--moves" => match args.next().and_then(|n| n.parse().ok()) {
                Some(n) => moves = n,
                None => {
                    eprintln!("--moves takes a number");
                    return ExitCode::from(2);
                }
            },
            "--player" => player = args.next(),
            _ => paths.push(arg),
        }
    }
    let mut openings = Openings::default();
    let mut status = ExitCode::SUCCESS;
    let mut games = 0;
    for path in &paths {
        match openings.count_file(path, moves, player.as_deref()) {
            Ok(n) => games += n,
            Err(e) => {
                eprintln!("{path}: {e}");
                status = ExitCode::FAILURE;
            }
        }
    }
    println!("{games} games of {moves} moves or more");
    for (line, n) in openings.top(10) {
        println!("{n:>8}  {line}");
    }
    status
}

#[cfg(test)]
mod tests {
    use super::*;
    use reversi_formats::{Format, ReadOptions};
    use std::fs::File;

    /// The openings of each game read in full by the format's reader, counted.
    fn read_in_full(path: &str, moves: usize) -> HashMap<String, usize> {
        let mut counts = HashMap::new();
        let file = Box::new(io::BufReader::new(File::open(path).unwrap()));
        for game in Format::Rgn.read(file, &ReadOptions::default()) {
            let Some(record) = game.unwrap().record else {
                continue;
            };
            if record.moves.len() >= moves {
                let line: Vec<String> = record.moves[..moves]
                    .iter()
                    .map(|m| m.mv.to_string())
                    .collect();
                *counts.entry(line.join(" ")).or_insert(0) += 1;
            }
        }
        counts
    }

    #[test]
    fn counts_the_openings_of_fixtures() {
        for file in ["cli/mixed.rgn", "cli/anti-without-rules.pgn"] {
            let path = format!("{}/fixtures/{file}", env!("CARGO_MANIFEST_DIR"));
            let mut openings = Openings::default();
            let games = openings.count_file(&path, 3, None).unwrap();
            assert!(games >= 2, "{file}: {games} games");
            assert_eq!(openings.counts, read_in_full(&path, 3), "{file}");
        }
    }

    #[test]
    fn a_player_filter_keeps_their_games_only() {
        let path = format!(
            "{}/fixtures/cli/anti-without-rules.pgn",
            env!("CARGO_MANIFEST_DIR")
        );
        let mut openings = Openings::default();
        let all = openings.count_file(&path, 1, None).unwrap();
        let mut theirs = Openings::default();
        let ann = theirs.count_file(&path, 1, Some("Ann")).unwrap();
        let mut nobody = Openings::default();
        assert_eq!(nobody.count_file(&path, 1, Some("Nobody")).unwrap(), 0);
        assert!(ann >= 1 && ann <= all, "{ann} of {all}");
    }
}
