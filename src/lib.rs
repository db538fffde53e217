//! # reversi-record
//!
//! Read, write, validate and convert game records of Reversi/Othello and its variants.
//!
//! The data flows one way: bytes → format reader → [`record`] → replay against the
//! [`engine`] → report.
//!
//! ```
//! use reversi_record::{Finished, Move, Position, Rules};
//! let rules: Rules = "othello:6x6".parse().unwrap();
//! let mut pos = Position::new(rules);
//! assert_eq!(pos.perft(4, Finished::Ignored), 244);
//! pos.play(Move::Place("b3".parse().unwrap())).unwrap();
//! ```

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

pub mod engine;

pub use engine::{
    BoardShape, Cell, Color, Finished, IllegalMove, Move, Outcome, Position, Rules, RulesError,
    Setup, Square, SquareSet,
};
pub mod codes;
pub mod diagnostic;
mod edits;
pub mod formats;
pub mod output;
pub mod pipeline;
pub mod record;
pub mod render;
pub mod repair;
pub mod scenario;
pub mod validate;

/// The README and the library tour (`docs/library.md`), whose Rust examples run as doc
/// tests.
#[cfg(doctest)]
pub mod docs {
    #[doc = include_str!("../README.md")]
    pub struct Readme;

    #[doc = include_str!("../docs/library.md")]
    pub struct LibraryTour;
}
