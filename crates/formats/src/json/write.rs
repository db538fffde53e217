//! Writing JSON: the versioned document, one game a line, or JSON Lines.

use std::io::{self, Write};

use crate::engine::{Move, Rules};
use crate::record::{ClaimedResult, Record, ResultScore};
use crate::{text_writer, PlainGame, RecordWriter, TextFormat, WriteError, WriteOptions, Written};

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
    "{\"format\": \"reversi-record\", \"version\": 2, \"games\": [";

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
            record_json(record)
        } else {
            record_json(&without_non_finite_numbers(record))
        }
        .map_err(io::Error::from)?;
        Ok((text, losses))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        self.shape.as_ref().ok()?;
        Some((plain_json(game).ok()?, Vec::new()))
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

/// `record` as compact JSON: exactly what `serde_json::to_string(record)` writes (the
/// serde form is the one shape; `tests/json.rs` compares the two), with the moves that
/// carry nothing but their square, most of them, written directly instead of through
/// serde's field-by-field machinery.
pub fn record_json(record: &Record) -> serde_json::Result<String> {
    // Room for the whole text at once: about 15 bytes a move, 40 a tag.
    let mut out = Vec::with_capacity(96 + 16 * record.moves.len() + 48 * record.tags.len());
    out.extend_from_slice(b"{\"rules\":");
    serde_json::to_writer(&mut out, &record.rules)?;
    if let Some(start) = &record.start {
        out.extend_from_slice(b",\"start\":");
        serde_json::to_writer(&mut out, start)?;
    }
    push_tags(&mut out, record.tags.iter().map(|t| (&*t.name, &*t.value)));
    out.extend_from_slice(b",\"moves\":[");
    for (i, m) in record.moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        let plain = m.color.is_none()
            && m.flips.is_none()
            && m.eval.is_none()
            && m.time.is_none()
            && m.comment.is_none();
        if plain {
            push_plain_move(&mut out, m.mv);
        } else {
            serde_json::to_writer(&mut out, m)?;
        }
    }
    out.push(b']');
    if !record.positions.is_empty() {
        out.extend_from_slice(b",\"positions\":");
        serde_json::to_writer(&mut out, &record.positions)?;
    }
    if let Some(result) = &record.result {
        out.extend_from_slice(b",\"result\":");
        serde_json::to_writer(&mut out, result)?;
    }
    if let Some(comment) = &record.comment {
        out.extend_from_slice(b",\"comment\":");
        serde_json::to_writer(&mut out, comment)?;
    }
    out.push(b'}');
    // Serde wrote UTF-8, and so did the lines above.
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// A plain game as JSON, read without its record: exactly what [`record_json`] writes for
/// the game's record (rules, tags, moves carrying only their squares, a normal result).
fn plain_json(game: &PlainGame<'_>) -> serde_json::Result<String> {
    let mut out = Vec::with_capacity(96 + 16 * game.moves.len() + 48 * game.tags.len());
    out.extend_from_slice(b"{\"rules\":");
    serde_json::to_writer(&mut out, &game.rules)?;
    push_tags(&mut out, game.tags());
    out.extend_from_slice(b",\"moves\":[");
    for (i, &mv) in game.moves.iter().enumerate() {
        if i > 0 {
            out.push(b',');
        }
        push_plain_move(&mut out, mv);
    }
    out.push(b']');
    if let Some([black, white]) = game.discs {
        out.extend_from_slice(b",\"result\":");
        serde_json::to_writer(&mut out, &ClaimedResult::discs(vec![black, white]))?;
    }
    out.push(b'}');
    String::from_utf8(out).map_err(serde::ser::Error::custom)
}

/// The `"tags"` member, unless there are none: an object when the names are distinct,
/// else the list of pairs (`record::tags::json_form`).
fn push_tags<'t>(out: &mut Vec<u8>, tags: impl Iterator<Item = (&'t str, &'t str)> + Clone) {
    let mut peek = tags.clone().peekable();
    if peek.peek().is_none() {
        return;
    }
    if crate::record::tags::json_form::distinct(tags.clone().map(|(name, _)| name)) {
        out.extend_from_slice(b",\"tags\":{");
        for (i, (name, value)) in tags.enumerate() {
            if i > 0 {
                out.push(b',');
            }
            json_string(out, name);
            out.push(b':');
            json_string(out, value);
        }
        out.push(b'}');
        return;
    }
    out.extend_from_slice(b",\"tags\":[");
    for (i, (name, value)) in tags.enumerate() {
        if i > 0 {
            out.push(b',');
        }
        out.extend_from_slice(b"{\"name\":");
        json_string(out, name);
        out.extend_from_slice(b",\"value\":");
        json_string(out, value);
        out.push(b'}');
    }
    out.push(b']');
}

/// A move that carries nothing but its square (or a pass), as serde writes it.
fn push_plain_move(out: &mut Vec<u8>, mv: Move) {
    match mv {
        Move::Place(sq) => {
            out.extend_from_slice(b"{\"move\":\"");
            out.extend_from_slice(sq.name().as_bytes());
            out.extend_from_slice(b"\"}");
        }
        Move::Pass => out.extend_from_slice(b"{\"move\":\"pass\"}"),
    }
}

/// `text` as a JSON string, escaped as serde_json escapes it: `"`, `\\`, and the control
/// characters (`\b`, `\t`, `\n`, `\f`, `\r` by name, the others as `\u00xx`); the rest,
/// DEL and non-ASCII included, as it is.
fn json_string(out: &mut Vec<u8>, text: &str) {
    const HEX: &[u8; 16] = b"0123456789abcdef";
    out.push(b'"');
    let bytes = text.as_bytes();
    let mut plain_from = 0;
    for (k, &b) in bytes.iter().enumerate() {
        let named = match b {
            b'"' => b'"',
            b'\\' => b'\\',
            0x08 => b'b',
            b'\t' => b't',
            b'\n' => b'n',
            0x0c => b'f',
            b'\r' => b'r',
            0x00..=0x1f => b'u',
            _ => continue,
        };
        out.extend_from_slice(&bytes[plain_from..k]);
        plain_from = k + 1;
        out.extend_from_slice(&[b'\\', named]);
        if named == b'u' {
            out.extend_from_slice(&[
                b'0',
                b'0',
                HEX[usize::from(b >> 4)],
                HEX[usize::from(b & 15)],
            ]);
        }
    }
    out.extend_from_slice(&bytes[plain_from..]);
    out.push(b'"');
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

#[cfg(test)]
mod tests {
    use super::*;

    /// Every ASCII character, alone and between others, and some beyond ASCII: escaped
    /// as serde_json escapes them.
    #[test]
    fn strings_are_escaped_as_serde_escapes_them() {
        let mut texts: Vec<String> = (0u8..=0x7f)
            .flat_map(|b| {
                let c = char::from(b);
                [c.to_string(), format!("a{c}b{c}"), format!("{c}{c}")]
            })
            .collect();
        texts.extend(
            ["", "Ünal \"Ö\" 大会", "\u{2028}\u{feff}\u{1f600}", "\\\\\""].map(String::from),
        );
        for text in texts {
            let mut out = Vec::new();
            json_string(&mut out, &text);
            assert_eq!(
                String::from_utf8(out).unwrap(),
                serde_json::to_string(&text).unwrap(),
                "{text:?}"
            );
        }
    }
}
