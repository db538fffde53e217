//! The runs: what users do with files, once for every front end. The command line, the
//! desk and the Python package turn their input into a run's options and its steps and
//! report into their output; none of them opens, walks or checks on its own.
//!
//! * [`open`]: the one opener (paths, standard input, bytes; the format given or
//!   detected; WTHOR's name files);
//! * [`walk`]: the inputs a list of paths and folders stands for, with the event's register
//!   and pairings found among them;
//! * [`validate()`]: the validate run, its [`Step`]s and its [`ValidateReport`];
//!   [`gather`]: every game's facts, for the standings;
//! * [`convert()`]: the convert run, its [`ConvertStep`]s and its [`ConvertReport`]; each
//!   game's outcome as [`ConvertedGame`];
//! * [`repair()`]: the repair run, its [`RepairStep`]s and its [`RepairRunReport`]; each
//!   game's repair as `reversi_check::repair::RepairReport`;
//! * [`Output`]: where a run writes (standard output, or a file staged and put in place);
//!   [`ReadBack`]: an output read back before it is put in place.

mod convert;
mod open;
mod output;
mod read_back;
mod repair;
mod validate;
mod walk;

pub use convert::{
    convert, convert_tapped, ConvertOptions, ConvertReport, ConvertStep, ConvertStopped,
    ConvertedGame, Copies, GameOutcome, OutputWritten, Pass,
};
pub use output::{is_stdout, Output, SharedOutput};

pub use open::{open, InputOptions, InputSource, OpenError, Opened};
pub use read_back::{ReadBack, ReadBackError};
pub use repair::{
    repair, repair_tapped, Pick, RepairCounts, RepairRunOptions, RepairRunReport, RepairStep,
    RepairStopped,
};
pub use validate::{
    gather, validate, FailedInput, FileCounts, Status, Step, Stopped, ValidateOptions,
    ValidateReport,
};
pub use walk::{walk, Skipped, Walked};
