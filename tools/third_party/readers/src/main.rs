//! Reads files written by reversi-record with third-party crates and prints one JSON object
//! per game: `{"black", "white", "moves", "result"}`, for `compare.py`.
//!
//!     third-party-readers wthor GAMES.wtb WTHOR.JOU
//!     third-party-readers sgf GAMES.sgf

use std::process::ExitCode;

use serde_json::json;
use sgf_parse::unknown_game::Prop;
use sgf_parse::GameTree;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().collect();
    let result = match args.get(1).map(String::as_str) {
        Some("wthor") if args.len() == 4 => wthor_games(&args[2], &args[3]),
        Some("sgf") if args.len() == 3 => sgf_games(&args[2]),
        _ => Err("usage: third-party-readers wthor GAMES.wtb PLAYERS.JOU | sgf FILE.sgf".into()),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("third-party-readers: {e}");
            ExitCode::from(2)
        }
    }
}

fn wthor_games(games: &str, players: &str) -> Result<(), String> {
    let bytes = std::fs::read(games).map_err(|e| format!("{games}: {e}"))?;
    let archive = wthor::parse::<wthor::game_archive::GameArchive>(&bytes)
        .map_err(|e| format!("{games}: {e:?}"))?;
    let bytes = std::fs::read(players).map_err(|e| format!("{players}: {e}"))?;
    let names = wthor::parse::<wthor::records::Records>(&bytes)
        .map_err(|e| format!("{players}: {e:?}"))?
        .names;
    let name = |n: u16| names.get(n as usize).cloned();
    for game in archive.games {
        let moves: Vec<String> = game
            .moves
            .iter()
            .map(|p| format!("{}{}", (b'a' + p.file) as char, p.rank + 1))
            .collect();
        let line = json!({
            "black": name(game.black_player_number),
            "white": name(game.white_player_number),
            "moves": moves,
            "result": format!("black {}", game.real_score),
        });
        println!("{line}");
    }
    Ok(())
}

fn sgf_games(path: &str) -> Result<(), String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: {e}"))?;
    let trees = sgf_parse::parse(&text).map_err(|e| format!("{path}: {e}"))?;
    for tree in trees {
        let GameTree::Unknown(root) = tree else {
            return Err(format!("{path}: a game read as Go"));
        };
        let text_of = |id: &str| match root.get_property(id) {
            Some(Prop::PB(t) | Prop::PW(t) | Prop::RE(t)) => Some(t.text.clone()),
            _ => None,
        };
        let mut moves = Vec::new();
        for node in root.main_variation() {
            for prop in node.properties() {
                if let Prop::B(m) | Prop::W(m) = prop {
                    moves.push(m.clone());
                }
            }
        }
        let line = json!({
            "black": text_of("PB"),
            "white": text_of("PW"),
            "moves": moves,
            "result": text_of("RE"),
        });
        println!("{line}");
    }
    Ok(())
}
