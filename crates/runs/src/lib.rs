//! The top layer of reversi-record's library (docs/development.md): the runs that users do
//! with files ([`run`]: open, validate, read back), the pipeline under them that reads,
//! checks and converts games on every core ([`pipeline`]), and the work over whole archives
//! ([`archive`], [`dataset`]).

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

pub mod archive;
pub mod dataset;
pub mod pipeline;
pub mod run;

#[allow(unused_imports)]
use reversi_check::{event, repair, scenario, validate};
use reversi_engine as engine;
#[allow(unused_imports)]
use reversi_engine::{
    BoardShape, Cell, Color, Finished, IllegalMove, Move, Outcome, Position, Rules, RulesError,
    Setup, SetupError, Square, SquareSet,
};
#[allow(unused_imports)]
use reversi_formats::{self as formats, codes, diagnostic, output, record, render};
