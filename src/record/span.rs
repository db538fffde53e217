//! Byte spans into source text.

use serde::{Deserialize, Serialize};

/// A byte range of the source a record element came from.
///
/// Offsets count from the start of the file (or stream). Spans are metadata: they compare
/// equal to each other always, so a record read from one place equals the same record read
/// from another.
#[derive(Clone, Copy, Debug, Default, Hash, Serialize, Deserialize)]
pub struct Span {
    /// Byte offset of the first byte.
    pub offset: usize,
    /// Length in bytes.
    pub len: usize,
}

impl Span {
    /// The span of `len` bytes starting at `offset`.
    pub const fn new(offset: usize, len: usize) -> Span {
        Span { offset, len }
    }

    /// The offset just past the end.
    pub const fn end(self) -> usize {
        self.offset + self.len
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        let start = self.offset.min(other.offset);
        Span::new(start, self.end().max(other.end()) - start)
    }

    /// The span moved `by` bytes later.
    pub const fn shifted(self, by: usize) -> Span {
        Span::new(self.offset + by, self.len)
    }
}

impl PartialEq for Span {
    /// Always true: spans say where, not what.
    fn eq(&self, _: &Span) -> bool {
        true
    }
}

impl Eq for Span {}

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        (span.offset, span.len).into()
    }
}
