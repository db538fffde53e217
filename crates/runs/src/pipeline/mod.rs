//! The pipelines: whole inputs split into blocks of games by one thread, worked on by
//! others, and reported in input order, so that memory stays flat and the output is the
//! same with any number of threads (the `blocks` module). Three runs share it: [`validation`]
//! (every game replayed, the quick check first), [`conversion`] (every game replayed,
//! made explicit and rendered for a target) and [`view`] (each game's rules, tags, moves
//! and result borrowed from buffers it reuses). The pipelines sit above the validator, the
//! formats and the edit search, and call them.

pub(crate) mod blocks;
pub mod conversion;
pub mod validation;
pub mod view;

pub use blocks::{Input, Stopped};
pub use conversion::Conversion;
pub use validation::Validation;
pub use view::GameReader;
