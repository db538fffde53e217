//! # reversi-record
//!
//! Read, write, validate and convert game records of Reversi/Othello and its variants.
//!
//! The data flows one way: bytes → format reader → [`record`] → replay against the
//! [`engine`] → report; writers take a record.
//!
//! ```
//! use reversi_record::formats::{Format, ReadOptions, WriteOptions};
//! use reversi_record::validate::validate_game;
//!
//! // Read: every format has a reader that yields games, one bad game never sinks a file.
//! let text = b"f5d6c3d3c4\nf5f5\n".to_vec();
//! let games = Format::MoveString.read_bytes(text, &ReadOptions::default())?;
//! // Validate: the reader's findings and the replay's, pointing at the exact token.
//! let found = validate_game(&games[1], &[] as &[&str]);
//! assert!(found.iter().any(|d| d.code.name() == "illegal-move" && d.is_error()));
//! // Write: a writer refuses what its format cannot hold, unless writing lossily.
//! let record = games[0].record.as_ref().unwrap();
//! let (rgn, _) = Format::Rgn.write_bytes(std::slice::from_ref(record), &WriteOptions::default())?;
//! assert_eq!(String::from_utf8(rgn)?, "[Rules \"othello\"]\n\n1. f5 d6 2. c3 d3 3. c4\n");
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The floors, from the bottom:
//!
//! * [`engine`]: rules as data ([`Rules`]), positions on bitboards, outcomes, perft.
//! * [`record`]: the record model every format reads into; results as people write them.
//! * [`formats`]: one reader and writer per format behind [`formats::Format`], with what
//!   each holds ([`formats::capabilities`]); [`codes`] and [`diagnostic`] name and render
//!   what they find.
//! * [`validate`]: the replay validator; [`repair`]: the edit search for recorders'
//!   errors (the search itself sits below both, so they never disagree).
//! * [`pipeline`]: whole inputs on all cores in input order, in flat memory:
//!   [`pipeline::Validation`], [`pipeline::Conversion`] (which reads back what it wrote),
//!   [`pipeline::GameReader`] (games without records).
//! * [`dataset`]: games as arrays (moves, board tensors, legal masks, results) for
//!   machine learning, from the same replay.
//! * [`run`]: what users do with files, for every front end: the one opener, the folder
//!   walk, the validate run and its report.
//! * [`render`] draws positions as text and SVG; [`scenario`] runs rule scenarios and the
//!   conformance suite; [`output`] writes files atomically, never over an input.
//!
//! The command line, the web desk and the Python package are front ends over these; the
//! library alone depends on no command-line or terminal crate. The tour with more examples
//! is `docs/library.md`.
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

pub use reversi_check::{event, repair, scenario, validate};
pub use reversi_engine as engine;
pub use reversi_engine::{
    BoardShape, Cell, Color, Finished, IllegalMove, Move, Outcome, Position, Rules, RulesError,
    Setup, SetupError, Square, SquareSet,
};
pub use reversi_formats as formats;
pub use reversi_formats::{codes, diagnostic, output, record, render};
pub use reversi_runs::{archive, dataset, pipeline, run};

#[cfg(doctest)]
pub mod docs {
    #[doc = include_str!("../README.md")]
    pub struct Readme;

    #[doc = include_str!("../docs/library.md")]
    pub struct LibraryTour;
}
