//! Serde's errors as diagnostics: the offending token's span in the game's text.

use crate::codes::Code;
use serde_json::error::Category;

use super::scan::Chunk;
use crate::diagnostic::Diagnostic;
use crate::record::Span;

/// Turns a serde error on a game's text into a diagnostic on the offending token.
pub(super) fn serde_diagnostic(e: &serde_json::Error, text: &str, offset: usize) -> Diagnostic {
    let full = e.to_string();
    let message = match full.rsplit_once(" at line ") {
        Some((m, _)) => m.to_owned(),
        None => full,
    };
    let end = error_offset(text, e.line(), e.column());
    let category = e.classify();
    let (start, stop) = token_before(text.as_bytes(), end, category == Category::Data);
    let (start, stop) = whole_chars(text, start, stop);
    let at = Some(Span::new(offset + start, stop - start));
    let (start, stop) = whole_chars(text, text.len().saturating_sub(1), text.len());
    let last = Span::new(offset + start, stop - start);
    match category {
        Category::Eof => Diagnostic::error(
            Code::SyntaxJson,
            "the game's JSON ends before it is complete",
        )
        .at(Some(last), "the game ends here")
        .help("close every string, array and object; the file may be truncated"),
        Category::Syntax | Category::Io => Diagnostic::error(Code::SyntaxJson, message)
            .at(at, "here")
            .help("each game is one JSON object (spec/json.md)"),
        Category::Data => {
            if message.starts_with("unknown field") {
                Diagnostic::error(Code::JsonUnknownField, message)
                    .at(at, "unknown field")
                    .help("field names are case-sensitive; spec/json.md lists the fields of each object")
            } else if message.starts_with("missing field") {
                Diagnostic::error(Code::JsonMissingField, message)
                    .at(at, "in this object")
                    .help("spec/json.md lists the required fields of each object")
            } else {
                let help = if message.contains("expected a square") {
                    "squares are a letter a-j and a row 1-10, such as `f5`; a pass is `pass`"
                } else if message.contains("preset")
                    || message.contains("board")
                    || message.contains("option")
                    || message.contains("rules")
                {
                    "rules strings look like `othello`, `anti:10x10` or `othello,blocked=a1+h8`"
                } else {
                    "spec/json.md gives the type of every field"
                };
                Diagnostic::error(Code::JsonBadValue, message)
                    .at(at, "this value")
                    .help(help)
            }
        }
    }
}

/// The byte offset in `text` just past the character serde_json stopped at.
pub(super) fn error_offset(text: &str, line: usize, column: usize) -> usize {
    let line_start = if line <= 1 {
        0
    } else {
        text.match_indices('\n')
            .nth(line - 2)
            .map_or(text.len(), |(i, _)| i + 1)
    };
    (line_start + column).min(text.len())
}

/// The span on `text` (the lossy decoding of `chunk`) of `span`, a span on the chunk's
/// raw bytes, in whole characters.
pub(super) fn text_span(span: Span, chunk: &Chunk, text: &str) -> Span {
    let local = |raw: usize| {
        let raw = raw.saturating_sub(chunk.offset).min(chunk.bytes.len());
        lossy_offset(&chunk.bytes, raw)
    };
    let (start, stop) = whole_chars(text, local(span.offset), local(span.end()));
    Span::new(chunk.offset + start, stop - start)
}

/// Where byte `raw` of `bytes` lands in `String::from_utf8_lossy(bytes)`, which turns each
/// invalid sequence into one U+FFFD.
pub(super) fn lossy_offset(bytes: &[u8], raw: usize) -> usize {
    let (mut raw_at, mut text_at) = (0, 0);
    for chunk in bytes.utf8_chunks() {
        let valid = chunk.valid().len();
        if raw <= raw_at + valid {
            return text_at + (raw - raw_at);
        }
        raw_at += valid;
        text_at += valid;
        let invalid = chunk.invalid().len();
        if raw < raw_at + invalid {
            return text_at;
        }
        raw_at += invalid;
        if invalid > 0 {
            text_at += char::REPLACEMENT_CHARACTER.len_utf8();
        }
    }
    text_at
}

/// Widens the byte range `start..stop` of `text` to whole characters, so that a span on a
/// byte never splits a multi-byte character.
pub(super) fn whole_chars(text: &str, mut start: usize, mut stop: usize) -> (usize, usize) {
    stop = stop.min(text.len());
    start = start.min(stop);
    while !text.is_char_boundary(start) {
        start -= 1;
    }
    while !text.is_char_boundary(stop) {
        stop += 1;
    }
    (start, stop)
}

/// The JSON text an error stopping at `end` is about: the string ending there (quotes
/// included), the number or word around it, or (`whole_objects`, for errors about values)
/// the object or array closing there.
pub(super) fn token_before(text: &[u8], end: usize, whole_objects: bool) -> (usize, usize) {
    if end == 0 || end > text.len() {
        let at = end.min(text.len().saturating_sub(1));
        return (at, (at + 1).min(text.len()));
    }
    let last = text[end - 1];
    let scalar = |b: &u8| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'+' | b'-');
    if last == b'"' {
        if let Some(start) = string_start(text, end - 1) {
            return (start, end);
        }
    } else if scalar(&last) {
        let start = text[..end]
            .iter()
            .rposition(|b| !scalar(b))
            .map_or(0, |i| i + 1);
        let stop = text[end..]
            .iter()
            .position(|b| !scalar(b))
            .map_or(text.len(), |i| end + i);
        return (start, stop);
    } else if whole_objects && matches!(last, b'}' | b']') {
        if let Some(start) = opener_of(text, end - 1) {
            return (start, end);
        }
    }
    (end - 1, end)
}

/// The opening quote of the string whose closing quote is at `close`, scanning from the
/// start so that escaped quotes are skipped.
pub(super) fn string_start(text: &[u8], close: usize) -> Option<usize> {
    let mut open = None;
    let mut i = 0;
    while i < close {
        match (text[i], open) {
            (b'\\', Some(_)) => i += 1,
            (b'"', None) => open = Some(i),
            (b'"', Some(_)) => open = None,
            _ => {}
        }
        i += 1;
    }
    open
}

/// The position of the `{` or `[` that the bracket at `close` closes.
pub(super) fn opener_of(text: &[u8], close: usize) -> Option<usize> {
    let mut stack = Vec::new();
    let mut in_string = false;
    let mut i = 0;
    while i <= close {
        let b = text[i];
        if in_string {
            match b {
                b'\\' => i += 1,
                b'"' => in_string = false,
                _ => {}
            }
        } else {
            match b {
                b'"' => in_string = true,
                b'{' | b'[' => stack.push(i),
                b'}' | b']' if i == close => return stack.pop(),
                b'}' | b']' => {
                    stack.pop();
                }
                _ => {}
            }
        }
        i += 1;
    }
    None
}
