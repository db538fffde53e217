//! Diagnostics: what readers and the validator report, with stable codes and spans.
//!
//! A [`Diagnostic`] is plain data (so it serialises to JSON as is); [`Report`] turns one into
//! a `miette` report over the game's [`Source`] for human output.

use std::fmt;
use std::sync::Arc;

use miette::{LabeledSpan, MietteError, MietteSpanContents, SourceCode, SpanContents};
use serde::Serialize;

use crate::record::Span;

/// How serious a finding is.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Severity {
    /// The record is wrong.
    Error,
    /// Legal, but worth knowing (an unfinished game).
    Warning,
    /// A note.
    Advice,
}

impl Severity {
    /// The lower-case name.
    pub const fn name(self) -> &'static str {
        match self {
            Severity::Error => "error",
            Severity::Warning => "warning",
            Severity::Advice => "advice",
        }
    }
}

/// A secondary place that matters to a diagnostic.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Label {
    /// Where.
    pub span: Span,
    /// What it is.
    pub text: String,
}

/// One finding about one game, with a stable code.
#[derive(Clone, PartialEq, Eq, Debug, Serialize)]
pub struct Diagnostic {
    /// Stable code such as `illegal-move` or `syntax-unterminated-tag`.
    pub code: &'static str,
    /// Error, warning or advice.
    pub severity: Severity,
    /// What is wrong, in one sentence.
    pub message: String,
    /// The offending text.
    pub span: Option<Span>,
    /// The label on the offending text.
    pub label: Option<String>,
    /// Other places that matter.
    pub related: Vec<Label>,
    /// How to fix it.
    pub help: Option<String>,
    /// 1-based index of the game in its file.
    pub game: Option<usize>,
    /// 1-based ply, inferred passes included.
    pub ply: Option<usize>,
    /// 1-based index of the move among the moves written in the record.
    #[serde(rename = "move")]
    pub move_number: Option<usize>,
    /// A board diagram of the position at the error.
    pub board: Option<String>,
}

impl Diagnostic {
    /// An error with `code` and `message`.
    pub fn error(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, message)
    }

    /// A warning with `code` and `message`.
    pub fn warning(code: &'static str, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, message)
    }

    fn new(code: &'static str, severity: Severity, message: impl Into<String>) -> Diagnostic {
        Diagnostic {
            code,
            severity,
            message: message.into(),
            span: None,
            label: None,
            related: Vec::new(),
            help: None,
            game: None,
            ply: None,
            move_number: None,
            board: None,
        }
    }

    /// Points the diagnostic at `span` with `label`.
    pub fn at(mut self, span: Option<Span>, label: impl Into<String>) -> Diagnostic {
        self.span = span;
        self.label = Some(label.into());
        self
    }

    /// Adds a secondary label.
    pub fn related(mut self, span: Option<Span>, text: impl Into<String>) -> Diagnostic {
        if let Some(span) = span {
            self.related.push(Label {
                span,
                text: text.into(),
            });
        }
        self
    }

    /// Sets the help line.
    pub fn help(mut self, help: impl Into<String>) -> Diagnostic {
        self.help = Some(help.into());
        self
    }

    /// Sets the game index.
    pub fn in_game(mut self, game: usize) -> Diagnostic {
        self.game = Some(game);
        self
    }

    /// Sets the ply and written-move number.
    pub fn at_move(mut self, ply: usize, move_number: Option<usize>) -> Diagnostic {
        self.ply = Some(ply);
        self.move_number = move_number;
        self
    }

    /// Attaches a board diagram.
    pub fn with_board(mut self, board: impl Into<String>) -> Diagnostic {
        self.board = Some(board.into());
        self
    }

    /// Whether this is an error.
    pub fn is_error(&self) -> bool {
        self.severity == Severity::Error
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The source text of one game, for rendering: the text, where it starts in the file, and
/// the file's name.
///
/// Binary formats give a text view of the game (for WTHOR, the record as move names) and
/// spans into that view.
#[derive(Clone, Debug)]
pub struct Source {
    /// The file name shown in reports (`-` for standard input).
    pub name: Arc<str>,
    /// The game's text.
    pub text: Arc<str>,
    /// Byte offset of `text` in the file: spans are file offsets.
    pub offset: usize,
    /// 0-based line of the first line of `text` in the file.
    pub line: usize,
}

impl Source {
    /// A source that is a whole file.
    pub fn whole(name: impl Into<Arc<str>>, text: impl Into<Arc<str>>) -> Source {
        Source {
            name: name.into(),
            text: text.into(),
            offset: 0,
            line: 0,
        }
    }

    /// 1-based line and column (in characters) of file offset `offset`.
    pub fn line_column(&self, offset: usize) -> (usize, usize) {
        let local = offset.saturating_sub(self.offset).min(self.text.len());
        let before = &self.text.as_bytes()[..local];
        let line = before.iter().filter(|&&b| b == b'\n').count();
        let line_start = before
            .iter()
            .rposition(|&b| b == b'\n')
            .map_or(0, |i| i + 1);
        let column = String::from_utf8_lossy(&before[line_start..])
            .chars()
            .count();
        (self.line + line + 1, column + 1)
    }
}

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
#[derive(Debug)]
pub struct Report<'a> {
    /// The finding.
    pub diagnostic: &'a Diagnostic,
    /// The game's source.
    pub source: &'a Source,
}

impl fmt::Display for Report<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let d = self.diagnostic;
        match (d.game, d.move_number) {
            (Some(g), Some(m)) => write!(f, "game {g}, move {m}: {}", d.message),
            (Some(g), None) => write!(f, "game {g}: {}", d.message),
            _ => f.write_str(&d.message),
        }
    }
}

impl std::error::Error for Report<'_> {}

impl miette::Diagnostic for Report<'_> {
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
        match (&d.help, &d.board) {
            (Some(h), Some(b)) => Some(Box::new(format!("{h}\n{b}"))),
            (Some(h), None) => Some(Box::new(h)),
            (None, Some(b)) => Some(Box::new(b)),
            (None, None) => None,
        }
    }

    fn source_code(&self) -> Option<&dyn SourceCode> {
        self.diagnostic.span.map(|_| self.source as &dyn SourceCode)
    }

    fn labels(&self) -> Option<Box<dyn Iterator<Item = LabeledSpan> + '_>> {
        let d = self.diagnostic;
        let primary = d
            .span
            .map(|s| LabeledSpan::new_primary_with_span(d.label.clone(), s));
        let related = d
            .related
            .iter()
            .map(|l| LabeledSpan::new_with_span(Some(l.text.clone()), l.span));
        let all: Vec<_> = primary.into_iter().chain(related).collect();
        if all.is_empty() || d.span.is_none() {
            return None;
        }
        Some(Box::new(all.into_iter()))
    }
}

/// Renders `diagnostic` as plain text (no colour, unicode frames, 80 columns): the form
/// snapshot tests pin.
pub fn render_plain(diagnostic: &Diagnostic, source: &Source) -> String {
    let handler =
        miette::GraphicalReportHandler::new_themed(miette::GraphicalTheme::unicode_nocolor())
            .with_width(80)
            .with_links(false);
    let mut out = String::new();
    let report = Report { diagnostic, source };
    if handler.render_report(&mut out, &report).is_err() {
        out = format!("{}: {}\n", diagnostic.code, diagnostic.message);
    }
    out
}
