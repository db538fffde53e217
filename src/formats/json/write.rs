//! Writing JSON: the versioned document, one game a line, or JSON Lines.

use std::io::{self, Write};

use crate::formats::{RecordWriter, WriteError, WriteOptions};
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
    Box::new(JsonWriter {
        out,
        shape,
        lossy: options.lossy,
        started: false,
        finished: false,
        written: 0,
    })
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Shape {
    Document,
    Lines,
}

pub(super) struct JsonWriter<'a> {
    out: Box<dyn Write + Send + 'a>,
    shape: Result<Shape, String>,
    lossy: bool,
    started: bool,
    finished: bool,
    written: usize,
}

pub(super) const DOCUMENT_HEAD: &str =
    "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [";

impl JsonWriter<'_> {
    fn shape(&self) -> io::Result<Shape> {
        self.shape.clone().map_err(|d| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("expected a JSON dialect (document or lines), but found `{d}` instead"),
            )
        })
    }
}

impl RecordWriter for JsonWriter<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        let shape = self.shape()?;
        let losses = non_finite_numbers(record);
        if !losses.is_empty() && !self.lossy {
            return Err(WriteError::CannotHold(losses));
        }
        let mut text = if losses.is_empty() {
            serde_json::to_vec(record)
        } else {
            serde_json::to_vec(&without_non_finite_numbers(record))
        }
        .map_err(io::Error::from)?;
        match shape {
            Shape::Document => {
                let mut chunk = Vec::with_capacity(text.len() + DOCUMENT_HEAD.len() + 3);
                if !self.started {
                    chunk.extend_from_slice(DOCUMENT_HEAD.as_bytes());
                }
                chunk.extend_from_slice(if self.written == 0 { b"\n" } else { b",\n" });
                chunk.append(&mut text);
                self.out.write_all(&chunk)?;
            }
            Shape::Lines => {
                text.push(b'\n');
                self.out.write_all(&text)?;
            }
        }
        self.started = true;
        self.written += 1;
        Ok(losses)
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        if self.shape()? == Shape::Document {
            if !self.started {
                self.out.write_all(DOCUMENT_HEAD.as_bytes())?;
            }
            self.out.write_all(b"\n]}\n")?;
        }
        self.finished = true;
        self.out.flush()
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
