//! Diagnostics: what readers and the validator report, with stable codes and spans.
//!
//! A [`Diagnostic`] is plain data (so it serialises to JSON as is); [`Report`] turns one into
//! a `miette` report over the game's [`Source`] for human output, and a [`Renderer`]
//! renders many (`render.rs`: the window around the spans, control characters escaped).

use crate::codes::Code;
use std::fmt;
use std::sync::Arc;

use serde::Serialize;

use crate::record::{Identity, Span};

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
///
/// Serialises to the JSON shape `reversi validate --format json` prints (without the file,
/// line and column a [`Located`] adds): `code`, `severity`, `game`, `ply`, `move`,
/// `span: {offset, length}`, `message`, `help`.
///
/// ```
/// use reversi_formats::codes::Code;
/// use reversi_formats::diagnostic::{Diagnostic, Severity};
/// use reversi_formats::{Format, ReadOptions};
/// let games = Format::MoveString.read_bytes(b"f5z9\n".to_vec(), &ReadOptions::default())?;
/// let found: &Diagnostic = &games[0].diagnostics[0];
/// assert_eq!((found.code, found.severity, found.game), (Code::SyntaxBadMove, Severity::Error, Some(1)));
/// assert!(found.is_error() && found.span.is_some());
/// let json = serde_json::to_value(found)?;
/// assert_eq!(json["code"], "syntax-bad-move");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Diagnostic {
    /// Stable code such as `illegal-move` or `syntax-unterminated-tag`.
    pub code: Code,
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
    pub move_number: Option<usize>,
    /// A board diagram of the position at the error.
    pub board: Option<String>,
    /// Who played the game, and where (its players, round, board), when its tags say.
    pub identity: Option<Arc<Identity>>,
}

impl Diagnostic {
    /// An error with `code` and `message`.
    pub fn error(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Error, message)
    }

    /// A warning with `code` and `message`.
    pub fn warning(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Warning, message)
    }

    /// Advice with `code` and `message`: worth saying, counted nowhere.
    pub fn advice(code: Code, message: impl Into<String>) -> Diagnostic {
        Diagnostic::new(code, Severity::Advice, message)
    }

    fn new(code: Code, severity: Severity, message: impl Into<String>) -> Diagnostic {
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
            identity: None,
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

impl Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        Located {
            diagnostic: self,
            file: None,
            line_column: None,
        }
        .serialize(serializer)
    }
}

/// A diagnostic with where it is in its file: the one JSON shape of a diagnostic,
/// `{"code", "severity", "file", "game", "ply", "move", "span": {"offset", "length"},
/// "line", "column", "message", "help"}` (spec/validate.md). Build it with
/// [`Renderer::locate`]; a bare [`Diagnostic`] serialises the same fields without `file`,
/// `line` and `column`.
///
/// ```
/// use reversi_formats::codes::Code;
/// use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
/// use reversi_formats::record::Span;
/// let source = Source::whole("a.txt", "f5d6\nf5zz\n");
/// let d = Diagnostic::error(Code::SyntaxBadMove, "not a move").at(Some(Span::new(7, 2)), "here");
/// let json = serde_json::to_string(&Renderer::plain().locate(&d, &source)).unwrap();
/// assert!(json.contains(r#""file":"a.txt""#) && json.contains(r#""line":2,"column":3"#));
/// assert!(json.contains(r#""span":{"offset":7,"length":2}"#));
/// ```
#[derive(Clone, Copy, Debug)]
pub struct Located<'a> {
    /// The finding.
    pub diagnostic: &'a Diagnostic,
    /// The file's name (`None` serialises no `file`).
    pub file: Option<&'a str>,
    /// 1-based line and column of the span's start (`None` when the diagnostic has no span
    /// or its place was not looked up).
    pub line_column: Option<(usize, usize)>,
}

/// A span in the JSON shape: `{"offset", "length"}`.
#[derive(Serialize)]
struct SpanJson {
    offset: usize,
    length: usize,
}

impl Serialize for Located<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let d = self.diagnostic;
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("code", &d.code)?;
        map.serialize_entry("severity", &d.severity)?;
        if let Some(file) = self.file {
            map.serialize_entry("file", file)?;
        }
        map.serialize_entry("game", &d.game)?;
        if let Some(identity) = &d.identity {
            map.serialize_entry("identity", identity.as_ref())?;
        }
        map.serialize_entry("ply", &d.ply)?;
        map.serialize_entry("move", &d.move_number)?;
        let span = d.span.map(|s| SpanJson {
            offset: s.offset,
            length: s.len,
        });
        map.serialize_entry("span", &span)?;
        if self.file.is_some() {
            map.serialize_entry("line", &self.line_column.map(|(l, _)| l))?;
            map.serialize_entry("column", &self.line_column.map(|(_, c)| c))?;
        }
        map.serialize_entry("message", &d.message)?;
        map.serialize_entry("help", &d.help)?;
        map.end()
    }
}

/// How many diagnostics one game reports at most; the rest are summed up in one more,
/// `syntax-too-many-errors`, as compilers do.
pub const MAX_PER_GAME: usize = 50;

/// A game's diagnostics as a reader collects them: the first [`MAX_PER_GAME`] are kept,
/// the rest only counted, so that a game of a million bad tokens costs no more memory (or
/// report) than one of fifty.
///
/// ```
/// use reversi_formats::codes::Code;
/// use reversi_formats::diagnostic::{Collected, Diagnostic, MAX_PER_GAME};
/// let mut found = Collected::default();
/// for _ in 0..1000 {
///     found.push(Diagnostic::error(Code::SyntaxBadMove, "not a move"));
/// }
/// let list = found.into_vec();
/// assert_eq!(list.len(), MAX_PER_GAME + 1);
/// assert_eq!(list[MAX_PER_GAME].message, "950 more problems in this game are not shown");
/// ```
#[derive(Clone, Debug, Default)]
pub struct Collected {
    list: Vec<Diagnostic>,
    left_out: usize,
    left_out_error: bool,
}

impl Collected {
    /// Keeps `d`, or counts it when [`MAX_PER_GAME`] are kept already. A
    /// `syntax-too-many-errors` summary of a list collected before adds the problems it
    /// counts, so a list capped twice counts the same.
    pub fn push(&mut self, d: Diagnostic) {
        if let Some(n) = summarised(&d) {
            self.left_out += n;
            self.left_out_error |= d.is_error();
            return;
        }
        if self.list.len() < MAX_PER_GAME {
            self.list.push(d);
        } else {
            self.left_out += 1;
            self.left_out_error |= d.is_error();
        }
    }

    /// Whether any diagnostic, kept or counted, is an error.
    pub fn has_error(&self) -> bool {
        self.left_out_error || self.list.iter().any(Diagnostic::is_error)
    }

    /// The kept diagnostics, and one more that counts the rest when some were left out.
    pub fn into_vec(mut self) -> Vec<Diagnostic> {
        if self.left_out > 0 {
            let message = format!(
                "{} more {} in this game {} not shown",
                self.left_out,
                if self.left_out == 1 {
                    "problem"
                } else {
                    "problems"
                },
                if self.left_out == 1 { "is" } else { "are" },
            );
            let mut more = if self.left_out_error {
                Diagnostic::error(Code::SyntaxTooManyErrors, message)
            } else {
                Diagnostic::warning(Code::SyntaxTooManyErrors, message)
            };
            more.game = self.list.last().and_then(|d| d.game);
            more.help = Some(format!(
                "each game reports its first {MAX_PER_GAME} problems; mend those and read it again"
            ));
            self.list.push(more);
        }
        self.list
    }
}

/// How many problems `d` sums up, when it is the summary [`Collected::into_vec`] makes.
fn summarised(d: &Diagnostic) -> Option<usize> {
    if d.code != Code::SyntaxTooManyErrors {
        return None;
    }
    let (count, rest) = d.message.split_once(' ')?;
    if !rest.starts_with("more problem") {
        return None;
    }
    count.parse().ok()
}

impl std::ops::Deref for Collected {
    type Target = [Diagnostic];

    fn deref(&self) -> &[Diagnostic] {
        &self.list
    }
}

impl std::ops::DerefMut for Collected {
    fn deref_mut(&mut self) -> &mut [Diagnostic] {
        &mut self.list
    }
}

impl From<Vec<Diagnostic>> for Collected {
    /// Caps a list collected freely.
    fn from(list: Vec<Diagnostic>) -> Collected {
        let mut collected = Collected::default();
        for d in list {
            collected.push(d);
        }
        collected
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

mod render;

pub(crate) use render::controls_in;
pub use render::{escape_controls, is_control, render_plain, Renderer, Report};

#[cfg(test)]
mod tests {
    use super::*;

    /// A bare diagnostic and a located one share one shape; the located one adds the file,
    /// line and column (null without a span).
    #[test]
    fn one_json_shape() {
        let source = Source::whole("a.rgn", "1. f5\n2. zz\n");
        let d = Diagnostic::error(Code::SyntaxBadMove, "not a move")
            .at(Some(Span::new(9, 2)), "here")
            .in_game(1);
        let bare = serde_json::to_value(&d).unwrap();
        let keys: Vec<&String> = bare.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            ["code", "severity", "game", "ply", "move", "span", "message", "help"]
        );
        assert_eq!(bare["span"], serde_json::json!({"offset": 9, "length": 2}));
        let mut renderer = Renderer::plain();
        let located = serde_json::to_value(renderer.locate(&d, &source)).unwrap();
        let keys: Vec<&String> = located.as_object().unwrap().keys().collect();
        assert_eq!(
            keys,
            [
                "code", "severity", "file", "game", "ply", "move", "span", "line", "column",
                "message", "help"
            ]
        );
        assert_eq!(
            (&located["line"], &located["column"]),
            (&2.into(), &4.into())
        );
        let nowhere = Diagnostic::error(Code::SyntaxBadMove, "not a move");
        let located = serde_json::to_value(renderer.locate(&nowhere, &source)).unwrap();
        assert!(located["line"].is_null() && located["column"].is_null());
        assert_eq!(located["file"], "a.rgn");
    }
}
