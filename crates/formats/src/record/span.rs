//! Byte spans into source text.

use serde::{Deserialize, Serialize};

/// A byte range of the source a record element came from.
///
/// Offsets count from the start of the file (or stream); binary formats point into a text
/// view of each record (see their module docs). To compare what two records *say* rather
/// than where they were written, compare [`Record::without_spans`](super::Record::without_spans).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default, Serialize, Deserialize)]
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

impl From<Span> for miette::SourceSpan {
    fn from(span: Span) -> miette::SourceSpan {
        (span.offset, span.len).into()
    }
}
