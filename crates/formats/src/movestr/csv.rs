//! CSV files of move strings: fields, quotes, the moves column and the other columns as tags.

use super::*;

/// A CSV field: its unquoted text and the file offset where its content starts.
#[derive(Clone, Debug)]
pub(super) struct Field {
    pub(super) text: String,
    pub(super) offset: usize,
    pub(super) span: Span,
    /// File offset of each byte of `text` and one past its end: a quoted field drops its
    /// quotes and halves `""`, so its text is not a slice of the line.
    pub(super) positions: Vec<usize>,
}

impl Field {
    /// The span of the field's text without the spaces around it, on its line.
    pub(super) fn trimmed_span(&self) -> Span {
        let lead = self.text.len() - self.text.trim_start().len();
        self.line_span(Span::new(self.offset + lead, self.text.trim().len()))
    }

    /// The span on the line of `span`, a span into this field's text at `self.offset`.
    pub(super) fn line_span(&self, span: Span) -> Span {
        let at = |local: usize| self.positions.get(local).copied();
        let local = span.offset.saturating_sub(self.offset);
        let (Some(start), Some(end)) = (at(local), at(local + span.len)) else {
            return span;
        };
        // The end is just past the span's last byte, not past a dropped quote.
        let end = match span.len {
            0 => start,
            n => at(local + n - 1).map_or(end, |last| last + 1),
        };
        Span::new(start, end - start)
    }
}

pub(super) enum CsvLine {
    Complete(Vec<Field>),
    /// A quoted field runs on past the end of the text.
    Open,
}

/// Applies `f` to every span of `record`.
pub(super) fn for_each_span(record: &mut Record, f: impl FnMut(&mut Span)) {
    let moves = record.moves.iter_mut().flat_map(|m| {
        let flips = m.flips.as_mut().and_then(|c| c.span.as_mut());
        m.span.as_mut().into_iter().chain(flips)
    });
    record
        .span
        .iter_mut()
        .chain(record.rules_span.as_mut())
        .chain(record.start.as_mut().and_then(|s| s.span.as_mut()))
        .chain(record.tags.iter_mut().filter_map(|t| t.span.as_mut()))
        .chain(moves)
        .chain(record.positions.iter_mut().filter_map(|p| p.span.as_mut()))
        .chain(record.result.as_mut().and_then(|r| r.span.as_mut()))
        .for_each(f);
}

/// Splits `text` (at file offset `base`) into fields.
pub(super) fn split_csv(text: &str, base: usize, delimiter: u8) -> CsvLine {
    let bytes = text.as_bytes();
    let mut fields = Vec::new();
    let mut i = 0;
    loop {
        let start = i;
        let mut value = Vec::new();
        let mut positions = Vec::new();
        let content;
        if bytes.get(i) == Some(&b'"') {
            i += 1;
            content = i;
            loop {
                match bytes.get(i) {
                    None => return CsvLine::Open,
                    Some(b'"') if bytes.get(i + 1) == Some(&b'"') => {
                        value.push(b'"');
                        positions.push(base + i);
                        i += 2;
                    }
                    Some(b'"') => {
                        i += 1;
                        break;
                    }
                    Some(&b) => {
                        value.push(b);
                        positions.push(base + i);
                        i += 1;
                    }
                }
            }
            // Text between the closing quote and the delimiter is kept as written.
            while i < bytes.len() && bytes[i] != delimiter {
                value.push(bytes[i]);
                positions.push(base + i);
                i += 1;
            }
        } else {
            content = i;
            while i < bytes.len() && bytes[i] != delimiter {
                value.push(bytes[i]);
                positions.push(base + i);
                i += 1;
            }
        }
        positions.push(base + i);
        fields.push(Field {
            text: String::from_utf8_lossy(&value).into_owned(),
            offset: base + content,
            span: Span::new(base + start, i - start),
            positions,
        });
        // A row of more fields than a game holds tags is refused by `csv_row`: not split
        // further, so that it costs no more than that.
        if i >= bytes.len() || fields.len() > MAX_CSV_FIELDS {
            return CsvLine::Complete(fields);
        }
        i += 1; // the delimiter
    }
}

pub(super) struct Csv {
    pub(super) delimiter: u8,
    pub(super) names: Vec<String>,
    pub(super) moves_column: Option<usize>,
    /// The column holding each game's result (`Result`, `Score`, ...), if one is named so.
    pub(super) result_column: Option<usize>,
}

impl Csv {
    pub(super) fn from_header(fields: &[Field], delimiter: u8) -> Csv {
        let names: Vec<String> = fields
            .iter()
            .enumerate()
            .map(|(i, f)| match f.text.trim() {
                "" => format!("Column {}", i + 1),
                name => localized_column(name).unwrap_or(name).to_owned(),
            })
            .collect();
        let moves_column = names
            .iter()
            .position(|n| MOVE_COLUMNS.contains(&n.to_ascii_lowercase().as_str()));
        let result_column = names.iter().position(|n| score::is_result_field(n));
        Csv {
            delimiter,
            names,
            moves_column,
            result_column,
        }
    }

    pub(super) fn name(&self, column: usize) -> String {
        self.names
            .get(column)
            .cloned()
            .unwrap_or_else(|| format!("Column {}", column + 1))
    }
}
