//! The rules engine: every variant from one set of bitboard operations, with the rules as
//! data ([`Rules`]).

mod bits;
mod board;
mod board_state;
mod outcome;
mod perft;
mod position;
pub(crate) mod quick;
mod rules;
mod square;

pub use bits::{BitIter, Bits};
pub use board::{BoardShape, ParseBoardShapeError};
pub use board_state::{flipping_moves, flips, BitPosition, IllegalMove};
pub use outcome::Outcome;
pub use perft::{perft, perft_jobs, Finished};
pub use position::{Cell, Move, Position, Rows, Setup, SetupError};
pub use rules::{Goal, Handicap, Opening, Preset, Rules, RulesError, Scoring, CLASSIC_SUPPLY};
pub use square::{Color, ParseSquareError, Square, SquareSet, SquareSetIter, MAX_SIDE};
