//! Control characters in a record's text: found, replaced by U+FFFD and reported.

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::record::Span;

use crate::diagnostic::controls_in;
pub use crate::diagnostic::is_control;

/// Whether `text` holds a control character ([`is_control`]) other than a carriage return
/// before a line feed (a line break, which formats allow where they allow line feeds).
///
/// ```
/// use reversi_formats::text::has_control;
/// assert!(has_control("a\u{1b}[2J") && has_control("a\rb") && has_control("\u{9b}"));
/// assert!(!has_control("two\r\nlines\tand tabs, é"));
/// ```
pub fn has_control(text: &str) -> bool {
    first_control(text).is_some()
}

/// The first control character of `text`, as [`has_control`] counts them.
pub(crate) fn first_control(text: &str) -> Option<char> {
    controls_in(text).next().map(|(_, c)| c)
}

/// `text` with each control character ([`has_control`]) replaced by U+FFFD; returns the
/// first one replaced (`None` when there was none).
///
/// ```
/// use reversi_formats::text::replace_controls;
/// let mut name = String::from("\u{1b}]0;pwned\u{7}");
/// assert_eq!(replace_controls(&mut name), Some('\u{1b}'));
/// assert_eq!(name, "\u{fffd}]0;pwned\u{fffd}");
/// let mut comment = String::from("two\r\nlines");
/// assert_eq!(replace_controls(&mut comment), None);
/// assert_eq!(comment, "two\r\nlines");
/// ```
pub fn replace_controls(text: &mut String) -> Option<char> {
    let first = first_control(text)?;
    let mut out = String::with_capacity(text.len() + 8);
    let mut from = 0;
    for (at, c) in controls_in(text) {
        out.push_str(&text[from..at]);
        out.push('\u{FFFD}');
        from = at + c.len_utf8();
    }
    out.push_str(&text[from..]);
    *text = out;
    Some(first)
}

/// `c` as `U+001B`.
pub(crate) fn code_point(c: char) -> String {
    format!("U+{:04X}", u32::from(c))
}

/// Replaces the control characters of `record`'s text (tag names and values, the game
/// comment, move comments) by U+FFFD ([`replace_controls`]), and returns one
/// `syntax-control-character` warning for each value that held any, pointing at it when
/// it has a span. Readers hand out their games through this (in [`capped`](crate::capped)),
/// so no record read from a file carries a control character.
pub(crate) fn clean_record(record: &mut crate::record::Record) -> Vec<Diagnostic> {
    let mut found = Vec::new();
    let mut report = |what: String, c: char, span: Option<Span>| {
        found.push(
            Diagnostic::warning(
                Code::SyntaxControlCharacter,
                format!(
                    "{what} holds the control character {}; it is read as U+FFFD",
                    code_point(c)
                ),
            )
            .at(span, "a control character in here")
            .help("record text holds no control characters (a NUL, an escape sequence): the file is damaged or crafted; they never reach an output"),
        );
    };
    let record_span = record.span;
    for tag in &mut record.tags {
        if let Some(c) = replace_controls(&mut tag.name) {
            report("a tag name".into(), c, tag.span.or(record_span));
        }
        if let Some(c) = replace_controls(&mut tag.value) {
            report(
                format!("the value of tag {}", tag.name),
                c,
                tag.span.or(record_span),
            );
        }
    }
    if let Some(comment) = &mut record.comment {
        if let Some(c) = replace_controls(comment) {
            report("the game comment".into(), c, record_span);
        }
    }
    for (k, m) in record.moves.iter_mut().enumerate() {
        if let Some(comment) = &mut m.comment {
            if let Some(c) = replace_controls(comment) {
                report(
                    format!("the comment on move {}", k + 1),
                    c,
                    m.span.or(record_span),
                );
            }
        }
    }
    found
}

/// Where `record`'s text (tag names and values, comments) first holds a control character
/// ([`is_control`]), in words (`U+001B in tag Black`); `None` when it holds none. Every
/// text writer refuses such a record through its [`Renderer`](crate::Renderer) (with
/// `--lossy`, writes it with the characters replaced by U+FFFD); a writer of another kind
/// checks with this.
///
/// ```
/// use reversi_formats::text::control_in;
/// use reversi_formats::record::Record;
/// let mut record = Record::default();
/// assert_eq!(control_in(&record), None);
/// record.set_tag("Black", "\u{1b}]0;pwned\u{7}");
/// assert_eq!(control_in(&record).unwrap(), "a control character (U+001B in tag Black)");
/// ```
pub fn control_in(record: &crate::record::Record) -> Option<String> {
    let first = first_control;
    let found = |c: char, place: String| {
        Some(format!(
            "a control character ({} in {place})",
            code_point(c)
        ))
    };
    for tag in &record.tags {
        if let Some(c) = first(&tag.name) {
            return found(c, "a tag name".into());
        }
        if let Some(c) = first(&tag.value) {
            return found(c, format!("tag {}", tag.name));
        }
    }
    if let Some(c) = record.comment.as_deref().and_then(first) {
        return found(c, "the game comment".into());
    }
    for (k, m) in record.moves.iter().enumerate() {
        if let Some(c) = m.comment.as_deref().and_then(first) {
            return found(c, format!("the comment on move {}", k + 1));
        }
    }
    None
}
