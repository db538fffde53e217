//! (in progress) The `json` format.

use std::io::{BufRead, Write};

use super::{Games, ReadOptions, RecordWriter, Sniff, WriteOptions};

/// Whether the input looks like this format.
pub fn sniff(_input: &Sniff<'_>) -> bool {
    false
}

/// Reads games.
pub fn read<'a>(_input: Box<dyn BufRead + Send + 'a>, _options: &ReadOptions) -> Games<'a> {
    super::not_yet("json")
}

/// A writer.
pub fn writer<'a>(
    _out: Box<dyn Write + Send + 'a>,
    _options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    super::not_yet_writer("json")
}
