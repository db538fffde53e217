//! Writing JSON: the versioned document, one game a line, or JSON Lines.

use std::io::{self, Write};

use crate::engine::Rules;
use crate::formats::{text_writer, RecordWriter, TextFormat, WriteError, WriteOptions, Written};
use crate::record::{Record, ResultScore};

/// A writer of the document form, or of JSON Lines when `options.dialect` is `"lines"`.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    let shape = match options.dialect.as_deref() {
        None => Ok(Shape::Document),
        Some(d) if d.eq_ignore_ascii_case("document") => Ok(Shape::Document),
        Some(d) if d.eq_ignore_ascii_case("lines") || d.eq_ignore_ascii_case("jsonl") => {
            Ok(Shape::Lines)
        }
        Some(d) => Err(d.to_owned()),
    };
    text_writer(
        out,
        options,
        JsonGames {
            shape,
            lossy: options.lossy,
        },
    )
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Shape {
    Document,
    Lines,
}

/// Records as JSON: the versioned document, or one record a line.
struct JsonGames {
    /// The shape, or the dialect asked for that is not one.
    shape: Result<Shape, String>,
    lossy: bool,
}

pub(super) const DOCUMENT_HEAD: &str =
    "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [";

impl JsonGames {
    fn shape(&self) -> io::Result<Shape> {
        self.shape.clone().map_err(|d| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("expected a JSON dialect (document or lines), but found `{d}` instead"),
            )
        })
    }
}

impl TextFormat for JsonGames {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        self.shape()?;
        let losses = non_finite_numbers(record);
        if !losses.is_empty() && !self.lossy {
            return Err(WriteError::CannotHold(losses));
        }
        let text = if losses.is_empty() {
            serde_json::to_string(record)
        } else {
            serde_json::to_string(&without_non_finite_numbers(record))
        }
        .map_err(io::Error::from)?;
        Ok((text, losses))
    }

    fn frame(&self, written: &Written, _rules: &Rules, text: &str, out: &mut String) {
        match self.shape {
            Ok(Shape::Lines) => {
                out.push_str(text);
                out.push('\n');
            }
            _ => {
                if written.games == 0 {
                    out.push_str(DOCUMENT_HEAD);
                    out.push('\n');
                } else {
                    out.push_str(",\n");
                }
                out.push_str(text);
            }
        }
    }

    fn end(&self, written: &Written, out: &mut String) -> io::Result<()> {
        if self.shape()? == Shape::Document {
            if written.games == 0 {
                out.push_str(DOCUMENT_HEAD);
            }
            out.push_str("\n]}\n");
        }
        Ok(())
    }
}

/// The numbers JSON cannot hold (NaN and infinities), one phrase each.
pub(super) fn non_finite_numbers(record: &Record) -> Vec<String> {
    let mut lost = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if m.eval.is_some_and(|v| !v.is_finite()) {
            lost.push(format!("a non-finite eval on move {}", i + 1));
        }
        if m.time.is_some_and(|v| !v.is_finite()) {
            lost.push(format!("a non-finite time on move {}", i + 1));
        }
    }
    if let Some(r) = &record.result {
        if matches!(r.score, ResultScore::Margin(m) if !m.is_finite()) {
            lost.push("a non-finite result margin".to_owned());
        }
    }
    lost
}

pub(super) fn without_non_finite_numbers(record: &Record) -> Record {
    let mut r = record.clone();
    for m in &mut r.moves {
        m.eval = m.eval.filter(|v| v.is_finite());
        m.time = m.time.filter(|v| v.is_finite());
    }
    if let Some(result) = &mut r.result {
        if matches!(result.score, ResultScore::Margin(m) if !m.is_finite()) {
            result.score = ResultScore::None;
        }
    }
    r
}
