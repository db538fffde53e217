//! (in progress) Othello PGN dialect writers.

use std::io::Write;

use super::{PgnDialect, RecordWriter, WriteOptions};

/// A writer of `dialect`.
pub fn writer<'a>(
    _out: Box<dyn Write + Send + 'a>,
    _dialect: PgnDialect,
    _options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    super::not_yet_writer("pgn")
}
