//! Writes `N` short, distinct, legal 8x8 games as RGN, each between two players no other
//! game has: the input of the memory figures of the checks across games
//! (docs/performance.md), where what is kept for each game, not the replay, is measured.
//!
//! ```text
//! cargo run --release --example small_games -- 1000000 > small.rgn
//! reversi validate -q --jobs 1 small.rgn
//! ```

use std::io::{self, BufWriter, Write};

use reversi_engine::{Move, Position, Rules, Square};

fn main() -> io::Result<()> {
    let n: u64 = match std::env::args().nth(1).map(|a| a.parse()) {
        Some(Ok(n)) => n,
        _ => {
            eprintln!("usage: small_games N (> FILE.rgn)");
            std::process::exit(2);
        }
    };
    let plies: usize = std::env::args()
        .nth(2)
        .and_then(|a| a.parse().ok())
        .unwrap_or(16);
    let mut out = BufWriter::new(io::stdout().lock());
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for k in 0..n {
        writeln!(out, "[Black \"Black {k}\"]\n[White \"White {k}\"]\n")?;
        let mut pos = Position::new(Rules::default());
        let mut moves = String::new();
        for _ in 0..plies {
            if pos.is_over() {
                break;
            }
            let legal: Vec<Square> = pos.legal_moves().iter().collect();
            let mv = match legal.len() {
                0 => Move::Pass,
                len => Move::Place(legal[(next() % len as u64) as usize]),
            };
            if pos.play(mv).is_err() {
                break;
            }
            if let Move::Place(sq) = mv {
                moves.push_str(&sq.to_string());
                moves.push(' ');
            }
        }
        writeln!(out, "{moves}*\n")?;
    }
    out.flush()
}
