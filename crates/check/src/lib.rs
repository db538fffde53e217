//! The third layer of reversi-record (docs/development.md), above the formats: what is
//! checked in one game ([`validate`], [`scenario`]), what is mended ([`repair`]) and what is
//! checked across games and an event's games ([`event`]).

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

mod edits;
pub mod event;
pub mod repair;
pub mod scenario;
pub mod validate;

use reversi_engine as engine;
#[allow(unused_imports)]
use reversi_engine::{
    BoardShape, Cell, Color, Finished, IllegalMove, Move, Outcome, Position, Rules, RulesError,
    Setup, SetupError, Square, SquareSet,
};
#[allow(unused_imports)]
use reversi_formats::{self as formats, codes, diagnostic, output, record, render};
