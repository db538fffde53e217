//! # reversi-record
//!
//! Read, write, validate and convert game records of Reversi/Othello and its variants.
//!
//! The data flows one way: bytes → a [`Format`]'s reader → [`ParsedGame`]s holding a
//! [`Record`] → replay against the [`Rules`] ([`validate_game`]) → [`Diagnostic`]s; a
//! writer takes records. These nine types and one function are the front door:
//!
//! ```
//! use reversi_record::{validate_game, Format, ReadOptions, WriteOptions};
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
//! Behind the front door, one module for each thing a user holds:
//!
//! * [`engine`]: rules as data, positions on bitboards, outcomes, perft;
//! * [`record`]: the record model every format reads into, results as people write them;
//! * [`formats`]: detection, reading and writing options, and what each format holds;
//! * [`diagnostic`]: findings as plain data, and their rendering;
//! * [`validate`]: the replay validator and its summary;
//! * [`run`]: what users do with files, once for every front end: the one opener, the
//!   folder walk, the validate run and its serialisable report;
//! * [`event`]: checks across games, the player register, pairings and standings.
//!
//! The library is a workspace of crates, one per layer, each depending only on those below
//! it (`docs/development.md`): `reversi-engine`, `reversi-formats`, `reversi-check`,
//! `reversi-runs`. This crate re-exports what a user of the library needs from them; the
//! front ends (the command line, the web desk, the Python package) also use what only they
//! need from the layer crates (the pipeline, repair, rule scenarios, archives, arrays for
//! machine learning). No layer depends on a command-line or terminal crate. The tour with
//! more examples is `docs/library.md`.
//!
//! ```
//! use reversi_record::engine::Finished;
//! use reversi_record::{Move, Position, Rules};
//! let rules: Rules = "othello:6x6".parse().unwrap();
//! let mut pos = Position::new(rules);
//! assert_eq!(pos.perft(4, Finished::Ignored), 244);
//! pos.play(Move::Place("b3".parse().unwrap())).unwrap();
//! ```

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

pub use reversi_check::validate::validate_game;
pub use reversi_engine::{Move, Position, Rules};
pub use reversi_formats::diagnostic::Diagnostic;
pub use reversi_formats::record::Record;
pub use reversi_formats::{Format, ParsedGame, ReadOptions, WriteOptions};

/// The rules engine: rules as data ([`Rules`]), positions on bitboards, outcomes, perft
/// (the `reversi-engine` crate).
pub mod engine {
    pub use reversi_engine::*;
}

/// The record model every format reads into: rules, start, tags, moves with their claims,
/// results as people write them, and where each came from.
pub mod record {
    pub use reversi_formats::record::*;
}

/// Every format behind one interface: detection (content, then extension), reading and
/// writing options, the writers' refusals, and what each format holds
/// ([`capabilities`](formats::capabilities)). The formats' own modules are in
/// `reversi-formats`.
pub mod formats {
    pub use reversi_formats::capabilities;
    pub use reversi_formats::{
        check_losses, select_one, DetectError, Detected, Detection, Format, Games,
        ParseFormatError, ParsedGame, PgnDialect, ReadOptions, RecordWriter, SelectError,
        WriteError, WriteOptions, WrittenEach, MAX_WHOLE_FILE_BYTES,
    };
}

/// Diagnostics as plain data, with their stable codes, and their one renderer.
pub mod diagnostic {
    pub use reversi_formats::codes::{explain, Code};
    pub use reversi_formats::diagnostic::*;
}

/// The replay validator: a game's reader and replay findings, the summary a run ends with.
pub mod validate {
    pub use reversi_check::validate::*;
}

/// What users do with files, once for every front end: open, walk, validate, convert,
/// repair, read back.
pub mod run {
    pub use reversi_runs::run::{
        convert, gather, open, repair, validate, walk, ConvertOptions, ConvertReport, ConvertStep,
        ConvertStopped, ConvertedGame, Copies, FailedInput, FileCounts, GameOutcome, InputOptions,
        InputSource, OpenError, Opened, OutputWritten, Pass, Pick, ReadBack, ReadBackError,
        RepairCounts, RepairRunOptions, RepairRunReport, RepairStep, RepairStopped, Skipped,
        Status, Step, Stopped, ValidateOptions, ValidateReport, Walked,
    };
}

/// Checks across games, the player register, the pairings and an event's standings.
pub mod event {
    pub use reversi_check::event::*;
}

#[cfg(doctest)]
pub mod docs {
    #[doc = include_str!("../README.md")]
    pub struct Readme;

    #[doc = include_str!("../docs/library.md")]
    pub struct LibraryTour;
}
