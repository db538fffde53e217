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
//! * [`ReadBack`]: an output read back before it is put in place.

mod open;
mod read_back;
mod validate;
mod walk;

pub use open::{open, InputOptions, InputSource, OpenError, Opened};
pub use read_back::{ReadBack, ReadBackError};
pub use validate::{
    gather, validate, FailedInput, FileCounts, Status, Step, Stopped, ValidateOptions,
    ValidateReport,
};
pub use walk::{walk, Skipped, Walked};
