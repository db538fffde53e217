//! Rendering diagnostics for people: a game's [`Source`] as `miette` reads it, a
//! [`Report`] of one diagnostic, and the [`Renderer`] that hands `miette` only a window
//! around the spans, with control characters escaped.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SpanContents};

use super::{Diagnostic, Located, Severity, Source};
use crate::record::{Identity, Span};

impl SourceCode for Source {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        context_lines_before: usize,
        context_lines_after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let local_offset = span.offset().saturating_sub(self.offset);
        let local = miette::SourceSpan::new(
            local_offset.min(self.text.len()).into(),
            span.len().min(self.text.len().saturating_sub(local_offset)),
        );
        let inner = self
            .text
            .read_span(&local, context_lines_before, context_lines_after)?;
        let start = inner.span().offset() + self.offset;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            miette::SourceSpan::new(start.into(), inner.span().len()),
            inner.line() + self.line,
            inner.column(),
            inner.line_count(),
        )))
    }
}

/// A diagnostic together with its source, ready for `miette` to render.
///
/// `miette` scans the source from its start and cannot draw columns past 65,535; use a
/// [`Renderer`], which hands it only a window around the diagnostic's spans.
#[derive(Debug)]
pub struct Report<'a, S = Source> {
    /// The finding.
    pub diagnostic: &'a Diagnostic,
    /// The game's source.
    pub source: &'a S,
}

impl<S> fmt::Display for Report<'_, S> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        // Control characters from a record are shown escaped ([`escape_controls`]).
        let message = escape_controls(&d.message);
        let who = match d.identity.as_deref().map(Identity::to_string) {
            Some(who) if !who.is_empty() => format!(" ({})", escape_controls(&who)),
            _ => String::new(),
        };
        match (d.game, d.move_number) {
            (Some(g), Some(m)) => write!(f, "game {g}{who}, move {m}: {message}"),
            (Some(g), None) => write!(f, "game {g}{who}: {message}"),
            _ => f.write_str(&message),
        }
    }
}

impl<S: fmt::Debug> std::error::Error for Report<'_, S> {}

impl<S: SourceCode + fmt::Debug> miette::Diagnostic for Report<'_, S> {
    fn code<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        Some(Box::new(self.diagnostic.code))
    }

    fn severity(&self) -> Option<miette::Severity> {
        Some(match self.diagnostic.severity {
            Severity::Error => miette::Severity::Error,
            Severity::Warning => miette::Severity::Warning,
            Severity::Advice => miette::Severity::Advice,
        })
    }

    fn help<'a>(&'a self) -> Option<Box<dyn fmt::Display + 'a>> {
        let d = self.diagnostic;
        let help = match (&d.help, &d.board) {
            (Some(h), Some(b)) => format!("{h}\n{b}"),
            (Some(h), None) => h.clone(),
            (None, Some(b)) => b.clone(),
            (None, None) => return None,
        };
        Some(Box::new(escape_controls(&help).into_owned()))
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.diagnostic.span.map(|_| self.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let text = |t: &str| escape_controls(t).into_owned();
        let primary = d
            .span
            .map(|s| LabeledSpan::new_primary_with_span(d.label.as_deref().map(text), s));
        let related = d
            .related
            .iter()
            .map(|l| LabeledSpan::new_with_span(Some(text(&l.text)), l.span));
        let all: Vec<_> = primary.into_iter().chain(related).collect();
        if all.is_empty() || d.span.is_none() {
            return None;
        }
        Some(Box::new(all.into_iter()))
    }
}

/// Renders diagnostics for people, safely and in time linear in the output.
///
/// Each diagnostic is drawn from a window of its source: the lines around its spans, found
/// with a line-start index built once per source. A span on a very long line (or spans too
/// far apart to show together) is drawn from a clipped piece of its line, with a note
/// saying which columns are shown; the JSON forms keep every span as it is.
///
/// ```
/// use reversi_formats::codes::Code;
/// use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
/// use reversi_formats::record::Span;
/// let line = format!("1. f5 {} zz", "x".repeat(100_000));
/// let source = Source::whole("long.rgn", line.as_str());
/// let d = Diagnostic::error(Code::SyntaxBadMove, "not a move").at(Some(Span::new(100_006, 2)), "here");
/// let text = Renderer::plain().render(&d, &source);
/// assert!(text.contains("[long.rgn:1:100007]"));
/// assert!(text.len() < 2_000);
/// ```
#[derive(Debug)]
pub struct Renderer {
    handler: miette::GraphicalReportHandler,
    index: Option<LineIndex>,
}

/// Bytes of source a window may hold before the renderer clips it.
const WINDOW_MAX: usize = 16 * 1024;
/// The longest line a window may hold before the renderer clips it.
const LINE_MAX: usize = 1_000;
/// Bytes of a clipped span shown, and of context on each side of it.
const CLIP_SPAN: usize = 120;
const CLIP_CONTEXT: usize = 60;

impl Renderer {
    /// A renderer for a terminal (colours and links as `miette` decides for the terminal).
    pub fn terminal() -> Renderer {
        Renderer::with_handler(miette::GraphicalReportHandler::new())
    }

    /// The plain form snapshot tests pin: no colour, unicode frames, 80 columns.
    pub fn plain() -> Renderer {
        Renderer::with_handler(
            miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
                .with_width(80)
                .with_links(false),
        )
    }

    /// Help and messages wrap at ASCII spaces: Unicode line breaking costs more than the
    /// rest of a diagnostic's rendering together, and our texts are words and squares.
    fn with_handler(handler: miette::GraphicalReportHandler) -> Renderer {
        Renderer {
            handler: handler
                .with_word_separator(textwrap::WordSeparator::AsciiSpace)
                .with_word_splitter(textwrap::WordSplitter::NoHyphenation),
            index: None,
        }
    }

    /// The line index of `source`, built when the source changes.
    fn index(&mut self, source: &Source) -> &LineIndex {
        let stale = !self
            .index
            .as_ref()
            .is_some_and(|i| Arc::ptr_eq(&i.text, &source.text));
        if stale {
            self.index = Some(LineIndex::new(source.text.clone()));
        }
        self.index
            .get_or_insert_with(|| LineIndex::new(source.text.clone()))
    }

    /// 1-based line and column (in characters) of file offset `offset` in `source`:
    /// [`Source::line_column`] without rescanning the source for each look-up.
    pub fn line_column(&mut self, source: &Source, offset: usize) -> (usize, usize) {
        let local = offset.saturating_sub(source.offset);
        let (line, column) = self.index(source).locate(local);
        (source.line + line + 1, column + 1)
    }

    /// `diagnostic` with its file and the line and column of its span, for JSON output.
    pub fn locate<'a>(&mut self, diagnostic: &'a Diagnostic, source: &'a Source) -> Located<'a> {
        Located {
            diagnostic,
            file: Some(&source.name),
            line_column: diagnostic
                .span
                .map(|span| self.line_column(source, span.offset)),
        }
    }

    /// Renders `diagnostic` over `source`. Control characters in its texts and in the
    /// source drawn (a terminal escape sequence hidden in a record) are shown as `\x1b`
    /// ([`escape_controls`]), never written raw.
    ///
    /// ```
    /// use reversi_formats::codes::Code;
    /// use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
    /// use reversi_formats::record::Span;
    /// let source = Source::whole("a.rgn", "[Black \"\u{1b}]0;pwned\u{7}\"]\n");
    /// let d = Diagnostic::warning(Code::SyntaxControlCharacter, "a name holds \u{1b}")
    ///     .at(Some(Span::new(0, 23)), "here");
    /// let text = Renderer::plain().render(&d, &source);
    /// assert!(text.contains(r"\x1b]0;pwned\x07") && !text.contains('\u{1b}'));
    /// ```
    pub fn render(&mut self, diagnostic: &Diagnostic, source: &Source) -> String {
        let escaped = escape_diagnostic(diagnostic);
        let diagnostic = escaped.as_ref().unwrap_or(diagnostic);
        let mut out = String::new();
        let rendered = match self.window(diagnostic, source) {
            None => self
                .handler
                .render_report(&mut out, &Report { diagnostic, source }),
            Some(Window::Lines(mut window)) => {
                let moved = window.escape(diagnostic);
                self.handler.render_report(
                    &mut out,
                    &Report {
                        diagnostic: moved.as_ref().unwrap_or(diagnostic),
                        source: &window,
                    },
                )
            }
            Some(Window::Clipped(clipped, mut window)) => {
                let moved = window.escape(&clipped);
                self.handler.render_report(
                    &mut out,
                    &Report {
                        diagnostic: moved.as_ref().unwrap_or(&clipped),
                        source: &window,
                    },
                )
            }
        };
        if rendered.is_err() {
            out = format!("{}: {}\n", diagnostic.code, diagnostic.message);
        }
        out
    }

    /// What to hand `miette`: `None` when the diagnostic has no span.
    fn window(&mut self, d: &Diagnostic, source: &Source) -> Option<Window> {
        let primary = d.span?;
        let index = self.index(source);
        let text = &*source.text;
        let local = |offset: usize| offset.saturating_sub(source.offset).min(text.len());
        let spans = std::iter::once(primary).chain(d.related.iter().map(|l| l.span));
        let (mut lo, mut hi) = (usize::MAX, 0);
        for span in spans {
            lo = lo.min(local(span.offset));
            hi = hi.max(local(span.offset.saturating_add(span.len)));
        }
        let first = index.line_of(lo).saturating_sub(1);
        let last = (index.line_of(hi.saturating_sub(1).max(lo)) + 1).min(index.lines() - 1);
        let start = index.start(first);
        let end = index.starts.get(last + 1).copied().unwrap_or(text.len());
        let longest = (first..=last)
            .map(|l| index.end(l) - index.start(l))
            .max()
            .unwrap_or(0);
        if end - start <= WINDOW_MAX && longest <= LINE_MAX {
            return Some(Window::Lines(Excerpt {
                name: source.name.clone(),
                text: text[start..end].to_owned(),
                offset: source.offset + start,
                line: source.line + first,
                column: 0,
                lines_before: first,
            }));
        }
        // Clip: the primary span's line only, a piece of it around the span.
        let at = local(primary.offset);
        let line = index.line_of(at);
        let (line_start, line_end) = (index.start(line), index.end(line));
        let at = floor_boundary(text, at.min(line_end));
        let span_end = floor_boundary(
            text,
            local(primary.offset.saturating_add(primary.len))
                .min(line_end)
                .min(at + CLIP_SPAN),
        )
        .max(at);
        let from = ceil_boundary(text, at.saturating_sub(CLIP_CONTEXT).max(line_start)).min(at);
        let to = floor_boundary(text, (span_end + CLIP_CONTEXT).min(line_end)).max(span_end);
        let (_, column) = index.locate(from);
        let line_chars = index.locate(line_end).1;
        let mut clipped = d.clone();
        clipped.span = Some(Span::new(source.offset + at, span_end - at));
        clipped
            .related
            .retain(|l| local(l.span.offset) >= from && local(l.span.offset + l.span.len) <= to);
        let shown = format!(
            "line {} is {line_chars} characters long; columns {} to {} are shown",
            source.line + line + 1,
            column + 1,
            column + text[from..to].chars().count(),
        );
        clipped.help = Some(match clipped.help.take() {
            Some(h) => format!("{h}\n{shown}"),
            None => shown,
        });
        Some(Window::Clipped(
            Box::new(clipped),
            Excerpt {
                name: source.name.clone(),
                text: text[from..to].to_owned(),
                offset: source.offset + from,
                line: source.line + line,
                column,
                lines_before: line,
            },
        ))
    }
}

/// The part of a source a diagnostic is drawn from.
enum Window {
    /// Whole lines around the spans.
    Lines(Excerpt),
    /// A piece of one long line, with the diagnostic clipped to it.
    Clipped(Box<Diagnostic>, Excerpt),
}

/// A piece of a source, starting at `column` (0-based, in characters) of file line
/// `line`, after `lines_before` lines of the game's text.
///
/// `miette` counts a span's lines from the start of the text it is given and merges two
/// labels' snippets by that count; adding `lines_before` makes it draw a window exactly as
/// it draws the whole text.
#[derive(Debug)]
struct Excerpt {
    name: Arc<str>,
    text: String,
    offset: usize,
    line: usize,
    column: usize,
    lines_before: usize,
}

impl Excerpt {
    /// Shows the control characters of the excerpt as `\x1b` ([`escape_controls`]), and
    /// returns `d` with its spans moved to where their text now is, when any was escaped.
    fn escape(&mut self, d: &Diagnostic) -> Option<Diagnostic> {
        let escaped = match escape_controls(&self.text) {
            std::borrow::Cow::Borrowed(_) => return None,
            std::borrow::Cow::Owned(text) => text,
        };
        // (local offset in the old text, bytes added up to and including it)
        let mut grown = Vec::new();
        let mut added = 0;
        for (at, c) in controls_in(&self.text) {
            added += escaped_len(c) - c.len_utf8();
            grown.push((at, added));
        }
        let base = self.offset;
        let moved = |offset: usize| {
            let local = offset.saturating_sub(base);
            let before = grown.partition_point(|&(at, _)| at < local);
            let shift = before.checked_sub(1).map_or(0, |k| grown[k].1);
            offset + shift
        };
        let span = |s: Span| {
            let start = moved(s.offset);
            Span::new(start, moved(s.offset + s.len) - start)
        };
        let mut d = d.clone();
        d.span = d.span.map(span);
        for label in &mut d.related {
            label.span = span(label.span);
        }
        self.text = escaped;
        Some(d)
    }
}

impl SourceCode for Excerpt {
    fn read_span<'a>(
        &'a self,
        span: &miette::SourceSpan,
        before: usize,
        after: usize,
    ) -> Result<Box<dyn SpanContents<'a> + 'a>, MietteError> {
        let local = span
            .offset()
            .saturating_sub(self.offset)
            .min(self.text.len());
        let len = span.len().min(self.text.len() - local);
        let inner =
            self.text
                .read_span(&miette::SourceSpan::new(local.into(), len), before, after)?;
        Ok(Box::new(MietteSpanContents::new_named(
            self.name.to_string(),
            inner.data(),
            miette::SourceSpan::new(
                (inner.span().offset() + self.offset).into(),
                inner.span().len(),
            ),
            inner.line() + self.line,
            if inner.line() == 0 {
                inner.column() + self.column
            } else {
                inner.column()
            },
            inner.line_count() + self.lines_before,
        )))
    }
}

/// Where the lines of a text start, for logarithmic look-up, and the last column counted,
/// so that look-ups moving forward along one non-ASCII line cost what they advance.
#[derive(Debug)]
struct LineIndex {
    text: Arc<str>,
    starts: Vec<usize>,
    ascii: bool,
    /// (byte, column) of the last non-ASCII look-up.
    last: std::cell::Cell<(usize, usize)>,
}

impl LineIndex {
    fn new(text: Arc<str>) -> LineIndex {
        let starts = std::iter::once(0)
            .chain(
                text.bytes()
                    .enumerate()
                    .filter(|&(_, b)| b == b'\n')
                    .map(|(i, _)| i + 1),
            )
            .collect();
        let ascii = text.is_ascii();
        LineIndex {
            text,
            starts,
            ascii,
            last: std::cell::Cell::new((0, 0)),
        }
    }

    fn lines(&self) -> usize {
        self.starts.len()
    }

    /// The 0-based line holding byte `at`.
    fn line_of(&self, at: usize) -> usize {
        self.starts.partition_point(|&s| s <= at).saturating_sub(1)
    }

    fn start(&self, line: usize) -> usize {
        self.starts[line]
    }

    /// Where `line` ends, before its line break.
    fn end(&self, line: usize) -> usize {
        match self.starts.get(line + 1) {
            Some(&next) => {
                let bytes = self.text.as_bytes();
                let mut end = next - 1;
                if end > self.starts[line] && bytes[end - 1] == b'\r' {
                    end -= 1;
                }
                end
            }
            None => self.text.len(),
        }
    }

    /// 0-based line and column (in characters) of byte `at`.
    fn locate(&self, at: usize) -> (usize, usize) {
        let at = at.min(self.text.len());
        let line = self.line_of(at);
        let start = self.starts[line];
        if self.ascii {
            return (line, at - start);
        }
        let (mut from, mut column) = self.last.get();
        if from < start || from > at {
            (from, column) = (start, 0);
        }
        let bytes = &self.text.as_bytes()[from..at];
        column += bytes.iter().filter(|&&b| (b as i8) >= -0x40).count();
        self.last.set((at, column));
        (line, column)
    }
}

/// The nearest character boundary of `text` at or before `at`.
fn floor_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at -= 1;
    }
    at
}

/// The nearest character boundary of `text` at or after `at`.
fn ceil_boundary(text: &str, mut at: usize) -> usize {
    at = at.min(text.len());
    while !text.is_char_boundary(at) {
        at += 1;
    }
    at
}

/// Whether `c` is a control character that record text must not carry out of a reader or
/// into an output or a report: the C0 controls but tab and line feed (a carriage return
/// too: it rewrites a terminal's line), DEL, and the C1 controls (U+0080 to U+009F, which
/// some terminals obey as escape sequences).
///
/// ```
/// use reversi_formats::diagnostic::is_control;
/// assert!(is_control('\u{1b}') && is_control('\0') && is_control('\u{9b}') && is_control('\r'));
/// assert!(!is_control('\n') && !is_control('\t') && !is_control('é'));
/// ```
pub fn is_control(c: char) -> bool {
    matches!(c, '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}')
}

/// Where `text` holds a control character ([`is_control`]) other than a carriage return
/// before a line feed (a line break, which formats allow where they allow line feeds):
/// what a reader replaces, a writer refuses and a report shows escaped.
pub(crate) fn controls_in(text: &str) -> impl Iterator<Item = (usize, char)> + '_ {
    let bytes = text.as_bytes();
    // Most texts hold none: a pass over their bytes says so without decoding a character.
    let text = if may_hold_control(bytes) { text } else { "" };
    text.char_indices()
        .filter(move |&(at, c)| is_control(c) && !(c == '\r' && bytes.get(at + 1) == Some(&b'\n')))
}

/// Whether `bytes` may hold a control character: every one is ASCII or starts with the
/// byte 0xC2 (the C1 controls). Looked at in blocks without an early exit, so that the
/// test runs on whole vectors.
fn may_hold_control(bytes: &[u8]) -> bool {
    let suspect = |b: u8| b < 0x20 && b != b'\t' && b != b'\n' || b == 0x7f || b == 0xc2;
    let any_in = |block: &[u8]| block.iter().fold(false, |any, &b| any | suspect(b));
    let mut blocks = bytes.chunks_exact(32);
    blocks.any(any_in) || any_in(blocks.remainder())
}

/// The length of `c` escaped: `\x1b` (4) or `\u{9b}` (6).
fn escaped_len(c: char) -> usize {
    if u32::from(c) < 0x80 {
        4
    } else {
        6
    }
}

/// `text` with its control characters (a NUL, an escape, a bell, DEL, the C1 controls;
/// not tab and line feed) written as `\x1b`-style text (`\u{9b}` for the C1 controls),
/// so that no record text can drive the terminal a report is shown on. Every line the
/// command line prints with text from a record goes through this.
///
/// ```
/// use reversi_formats::diagnostic::escape_controls;
/// assert_eq!(escape_controls("\u{1b}]0;pwned\u{7}"), r"\x1b]0;pwned\x07");
/// assert_eq!(escape_controls("A\0B\u{9b}2J"), r"A\x00B\u{9b}2J");
/// assert_eq!(escape_controls("two\nlines\tand tabs"), "two\nlines\tand tabs");
/// ```
pub fn escape_controls(text: &str) -> std::borrow::Cow<'_, str> {
    let mut found = controls_in(text).peekable();
    if found.peek().is_none() {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 16);
    let mut from = 0;
    for (at, c) in found {
        out.push_str(&text[from..at]);
        let code = u32::from(c);
        if code < 0x80 {
            out.push_str(&format!("\\x{code:02x}"));
        } else {
            out.push_str(&format!("\\u{{{code:x}}}"));
        }
        from = at + c.len_utf8();
    }
    out.push_str(&text[from..]);
    std::borrow::Cow::Owned(out)
}

/// `d` with its texts (message, label, help, related labels, board) escaped, when any
/// holds a control character.
fn escape_diagnostic(d: &Diagnostic) -> Option<Diagnostic> {
    let needs = |t: &str| t.chars().any(is_control);
    let any = needs(&d.message)
        || d.label.as_deref().is_some_and(needs)
        || d.help.as_deref().is_some_and(needs)
        || d.board.as_deref().is_some_and(needs)
        || d.related.iter().any(|l| needs(&l.text));
    if !any {
        return None;
    }
    let esc = |t: &str| escape_controls(t).into_owned();
    let mut d = d.clone();
    d.message = esc(&d.message);
    d.label = d.label.as_deref().map(esc);
    d.help = d.help.as_deref().map(esc);
    d.board = d.board.as_deref().map(esc);
    for label in &mut d.related {
        label.text = esc(&label.text);
    }
    Some(d)
}

/// Renders `diagnostic` as plain text (no colour, unicode frames, 80 columns): the form
/// snapshot tests pin. To render many diagnostics, keep one [`Renderer::plain`].
pub fn render_plain(diagnostic: &Diagnostic, source: &Source) -> String {
    Renderer::plain().render(diagnostic, source)
}
