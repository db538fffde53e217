//! The rules engine: every variant from one set of bitboard operations, with the rules as
//! data ([`Rules`]).
//!
//! The lowest layer of reversi-record (docs/development.md): it depends on no other crate of
//! the workspace. Most users depend on `reversi-record`, which re-exports its front door.

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

mod bits;
mod board;
mod board_state;
mod outcome;
mod perft;
mod position;
#[doc(hidden)]
pub mod quick;
mod rules;
mod square;

pub use bits::{BitIter, Bits};
pub use board::{BoardShape, ParseBoardShapeError};
pub use board_state::{flipping_moves, flips, BitPosition, IllegalMove};
pub use outcome::Outcome;
pub use perft::{perft, perft_jobs, Finished};
pub use position::{Cell, Move, Position, Rows, Setup, SetupError};
#[doc(hidden)]
pub use rules::edit_distance;
pub use rules::{Goal, Handicap, Opening, Preset, Rules, RulesError, Scoring, CLASSIC_SUPPLY};
pub use square::{Color, ParseSquareError, Square, SquareSet, SquareSetIter, MAX_SIDE};

#[doc(hidden)]
pub mod testing {
    //! Random games for the unit tests of the engine and of the formats.

    use super::{Move, Position, Rules};

    /// A small deterministic generator (xorshift64): a number below `n` at each call.
    pub fn generator(mut seed: u64) -> impl FnMut(usize) -> usize {
        move |n| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as usize % n
        }
    }

    /// A game of `rules` played to its end, each move drawn by `next` among the legal
    /// ones: its moves, every pass included, and its final position.
    pub fn random_game(
        rules: Rules,
        next: &mut impl FnMut(usize) -> usize,
    ) -> (Vec<Move>, Position) {
        let mut pos = Position::new(rules);
        let mut moves = Vec::new();
        while !pos.is_over() {
            let legal: Vec<_> = pos.legal_moves().iter().collect();
            let mv = match legal.len() {
                0 => Move::Pass,
                n => Move::Place(legal[next(n)]),
            };
            pos.play(mv).expect("a legal move");
            moves.push(mv);
        }
        (moves, pos)
    }
}
