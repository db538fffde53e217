//! Writers of text formats, in two halves: a [`Renderer`] that turns one record into its
//! text on any thread, and the writer that frames the texts (separators, the rules in
//! force, a document's head and tail) and writes them in order.

use std::io::{self, Write};
use std::ops::Range;
use std::sync::Arc;

use super::{capabilities, check_losses, text, Format, RecordWriter, WriteError, WriteOptions};
use crate::engine::{Move, Rules};
use crate::record::{ClaimedResult, MoveRecord, Record, Tag};

/// A format written as text, one record at a time, by [`text_writer`].
pub(super) trait TextFormat: Send + Sync {
    /// The text of `record` and what the format cannot hold of it (refused or reported as
    /// the options say), or an error that stands even when writing lossily (such as rules
    /// that would change what the moves mean).
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError>;

    /// Appends what to write for the `text` of an accepted record with `rules`: the text
    /// itself, unless the format separates games or states the rules in force, for which
    /// `written` says what came before.
    fn frame(&self, written: &Written, rules: &Rules, text: &str, out: &mut String) {
        let _ = (written, rules);
        out.push_str(text);
    }

    /// Appends what ends the output (a document's closing), after `written`.
    fn end(&self, written: &Written, out: &mut String) -> io::Result<()> {
        let _ = (written, out);
        Ok(())
    }

    /// The text of a plain game, read without a record, and what the format cannot hold of
    /// it: exactly what [`TextFormat::render`] gives for the game's record. `None` where
    /// the format renders only records, or would refuse this one (the caller reads the
    /// record and renders that).
    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        let _ = game;
        None
    }
}

/// A game as a scan of its text saw it, with nothing more to it (no start position,
/// comments, claims or board snapshots) and its passes explicit: what a format that can
/// needs to render it without building its record ([`Renderer::render_plain`]). It is a
/// game the quick check passed: legal, finished, every pass forced.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct PlainGame<'a> {
    pub rules: Rules,
    /// The game's text; `tags` are where each tag's name and value lie in it.
    pub text: &'a str,
    pub tags: &'a [(Range<usize>, Range<usize>)],
    pub moves: &'a [Move],
    /// The claimed discs, Black's and White's (a normal end).
    pub discs: Option<[u8; 2]>,
}

impl PlainGame<'_> {
    /// The value of the first tag named `name` (case-insensitive, as [`Record::tag`]: a
    /// plain game and its record name the same files).
    #[doc(hidden)]
    pub fn tag(&self, name: &str) -> Option<&str> {
        tag_named(self.tags(), name)
    }

    /// The tags' names and values, in order.
    pub(crate) fn tags(&self) -> impl Iterator<Item = (&str, &str)> + Clone + '_ {
        self.tags.iter().map(|(name, value)| {
            let part = |r: &Range<usize>| self.text.get(r.clone()).unwrap_or_default();
            (part(name), part(value))
        })
    }

    /// The game's record, as its reader reads it once its passes are explicit and its
    /// result settled (without spans, which no writer writes).
    fn to_record(&self) -> Record {
        let mut record = Record::new(self.rules);
        record.tags = self
            .tags()
            .map(|(name, value)| Tag::new(name, value))
            .collect();
        record.moves = self.moves.iter().map(|&mv| MoveRecord::new(mv)).collect();
        record.result = self
            .discs
            .map(|[black, white]| ClaimedResult::discs(vec![black, white]));
        record
    }
}

/// The value of the first of `tags` (names and values) named `name`, in any case, as
/// [`Record::tag`] finds it: for the writers' views of a record or a plain game.
pub(crate) fn tag_named<'t>(
    mut tags: impl Iterator<Item = (&'t str, &'t str)>,
    name: &str,
) -> Option<&'t str> {
    tags.find(|(n, _)| n.eq_ignore_ascii_case(name))
        .map(|(_, v)| v)
}

/// What a text writer wrote before the record it frames.
#[derive(Clone, Debug, Default)]
pub(super) struct Written {
    /// Records written.
    pub(super) games: usize,
    /// The rules of the last record written with some text (standard Othello before any).
    pub(super) rules: Rules,
}

/// A record rendered by a [`Renderer`], for [`RecordWriter::write_rendered`].
#[derive(Clone, Debug)]
pub struct Rendered {
    text: String,
    losses: Vec<String>,
    rules: Rules,
}

impl Rendered {
    /// What the format dropped of the record (written lossily).
    pub fn losses(&self) -> &[String] {
        &self.losses
    }
}

/// The half of a text writer that renders records, on any thread: cloned for each worker,
/// it refuses what its writer refuses and renders what its writer would write.
///
/// ```
/// use reversi_formats::{Format, RecordWriter, WriteOptions};
/// use reversi_formats::record::{MoveRecord, Record};
/// use reversi_engine::{Move, Rules};
/// let mut out = Vec::new();
/// {
///     let mut writer = Format::MoveString.writer(Box::new(&mut out), &WriteOptions::default());
///     let renderer = writer.renderer().expect("move strings are text");
///     let mut record = Record::new(Rules::default());
///     record.moves.push(MoveRecord::new(Move::Place("f5".parse().unwrap())));
///     let rendered = std::thread::scope(|s| s.spawn(|| renderer.render(&record)).join().unwrap());
///     writer.write_rendered(&rendered.unwrap()).unwrap();
///     writer.finish().unwrap();
/// }
/// assert_eq!(out, b"f5\n");
/// ```
#[derive(Clone)]
pub struct Renderer {
    format: Arc<dyn TextFormat>,
    options: Arc<WriteOptions>,
    /// The format whose meaning checks come first ([`capabilities::checked`]).
    checked: Option<Format>,
}

impl std::fmt::Debug for Renderer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Renderer")
            .field("options", &self.options)
            .field("checked", &self.checked)
            .finish_non_exhaustive()
    }
}

impl Renderer {
    /// `record` as its writer would write it, or why the writer refuses it.
    ///
    /// Every text writer renders here, so this is where the one rule on control
    /// characters stands for all of them: a record whose text holds one
    /// ([`text::control_in`]; a record read from a file never does, its reader replaced
    /// them) is refused, or, written lossily, written with each replaced by U+FFFD and
    /// that listed as dropped. No output holds a raw control character.
    pub fn render(&self, record: &Record) -> Result<Rendered, WriteError> {
        let why = match self.checked {
            Some(format) => capabilities::meaning_losses(format, record),
            // A format that holds everything still cannot hold what no reader takes back.
            None => capabilities::beyond_readers(record),
        };
        if !why.is_empty() {
            return Err(WriteError::ChangesMeaning(why));
        }
        let cleaned;
        let mut record = record;
        let control = text::control_in(record);
        if let Some(what) = &control {
            if !self.options.lossy {
                return Err(WriteError::CannotHold(vec![what.clone()]));
            }
            let mut copy = record.clone();
            text::clean_record(&mut copy);
            cleaned = copy;
            record = &cleaned;
        }
        let (text, mut losses) = self.format.render(record)?;
        losses.extend(control);
        Ok(Rendered {
            text,
            losses: check_losses(losses, &self.options)?,
            rules: record.rules,
        })
    }

    /// A plain game rendered as [`Renderer::render`] renders the game's record: without
    /// the record where the format can, otherwise from a record made of the game's tags,
    /// moves and result, which costs far less than reading and validating it again.
    /// `None` for a game whose tags hold a control character, which its reader replaces
    /// (and reports): read its record.
    #[doc(hidden)]
    pub fn render_game(&self, game: &PlainGame<'_>) -> Option<Result<Rendered, WriteError>> {
        let controls = game
            .tags()
            .any(|(name, value)| text::has_control(name) || text::has_control(value));
        if controls {
            return None;
        }
        Some(match self.render_plain(game) {
            Some(rendered) => Ok(rendered),
            None => self.render(&game.to_record()),
        })
    }

    /// The text of a plain game without its record, when the format can give it (and no
    /// meaning check refuses it): the same text [`Renderer::render`] gives for the game's
    /// record. `None`: render the record.
    fn render_plain(&self, game: &PlainGame<'_>) -> Option<Rendered> {
        if let Some(format) = self.checked {
            // With no start position, only the rules and a komi can change what the game
            // means; a game with a komi tag is left to the record's checks.
            let komi = game
                .tags()
                .any(|(name, _)| name.eq_ignore_ascii_case(crate::record::TagName::KOMI));
            if komi || !capabilities::rules_meaning_losses(format, &game.rules).is_empty() {
                return None;
            }
        }
        let (text, losses) = self.format.render_plain(game)?;
        Some(Rendered {
            text,
            // Refused (not written lossily): the record's rendering says why.
            losses: check_losses(losses, &self.options).ok()?,
            rules: game.rules,
        })
    }

    /// This renderer, refusing first what `format` cannot hold without changing meaning.
    pub(super) fn checked(mut self, format: Format) -> Renderer {
        self.checked = Some(format);
        self
    }
}

/// A writer of `format` to `out`: renders each record, refuses or reports its losses with
/// [`check_losses`], writes its framed text, and flushes at the end.
pub(super) fn text_writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
    format: impl TextFormat + 'static,
) -> Box<dyn RecordWriter + 'a> {
    Box::new(TextWriter {
        out,
        renderer: Renderer {
            format: Arc::new(format),
            options: Arc::new(options.clone()),
            checked: None,
        },
        written: Written::default(),
        framed: String::new(),
        finished: false,
    })
}

/// The writer [`text_writer`] makes.
struct TextWriter<'a> {
    out: Box<dyn Write + Send + 'a>,
    renderer: Renderer,
    written: Written,
    /// The framed text of the record being written, reused from record to record.
    framed: String,
    finished: bool,
}

impl RecordWriter for TextWriter<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        let rendered = self.renderer.render(record)?;
        self.write_rendered(&rendered)
    }

    fn finish(&mut self) -> io::Result<()> {
        if !self.finished {
            self.framed.clear();
            self.renderer.format.end(&self.written, &mut self.framed)?;
            self.out.write_all(self.framed.as_bytes())?;
            self.finished = true;
        }
        self.out.flush()
    }

    fn renderer(&self) -> Option<Renderer> {
        Some(self.renderer.clone())
    }

    fn write_rendered(&mut self, rendered: &Rendered) -> Result<Vec<String>, WriteError> {
        self.framed.clear();
        self.renderer.format.frame(
            &self.written,
            &rendered.rules,
            &rendered.text,
            &mut self.framed,
        );
        self.out.write_all(self.framed.as_bytes())?;
        self.written.games += 1;
        if !rendered.text.is_empty() {
            self.written.rules = rendered.rules;
        }
        Ok(rendered.losses.clone())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Writes the Black tag, refuses a record without one, and numbers the games it writes.
    struct Numbered;

    impl TextFormat for Numbered {
        fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
            let losses = record
                .comment
                .iter()
                .map(|_| "the comment".into())
                .collect();
            match record.tag("Black") {
                Some(name) => Ok((format!("{name}\n"), losses)),
                None => Err(WriteError::CannotHold(vec!["no Black tag".into()])),
            }
        }

        fn frame(&self, written: &Written, _rules: &Rules, text: &str, out: &mut String) {
            out.push_str(&format!("{}. {text}", written.games + 1));
        }

        fn end(&self, written: &Written, out: &mut String) -> io::Result<()> {
            out.push_str(&format!("({} games)\n", written.games));
            Ok(())
        }
    }

    /// Writes `records` through the writer, or renders them on another thread first.
    fn write_all(records: &[Record], lossy: bool, rendered: bool) -> (String, Vec<String>) {
        let mut out = Vec::new();
        let mut outcomes = Vec::new();
        {
            let options = WriteOptions {
                lossy,
                ..WriteOptions::default()
            };
            let mut writer = text_writer(Box::new(&mut out), &options, Numbered);
            for record in records {
                let outcome = if rendered {
                    let renderer = writer.renderer().unwrap();
                    std::thread::scope(|s| s.spawn(|| renderer.render(record)).join().unwrap())
                        .and_then(|r| writer.write_rendered(&r))
                } else {
                    writer.write(record)
                };
                outcomes.push(match outcome {
                    Ok(losses) => format!("ok {losses:?}"),
                    Err(e) => format!("refused: {e}"),
                });
            }
            writer.finish().unwrap();
            writer.finish().unwrap();
        }
        (String::from_utf8(out).unwrap(), outcomes)
    }

    fn named(name: &str, comment: Option<&str>) -> Record {
        let mut record = Record::default();
        record.tags.push(crate::record::Tag {
            name: "Black".into(),
            value: name.into(),
            span: None,
        });
        record.comment = comment.map(Into::into);
        record
    }

    #[test]
    fn control_characters_are_refused_or_replaced_for_every_text_writer() {
        let records = [named("\u{1b}]0;pwned\u{7}", None)];
        for rendered in [false, true] {
            let (text, outcomes) = write_all(&records, false, rendered);
            assert_eq!(text, "(0 games)\n");
            assert_eq!(
                outcomes,
                ["refused: the target format cannot hold a control character (U+001B in tag Black)"]
            );
            let (text, outcomes) = write_all(&records, true, rendered);
            assert_eq!(text, "1. \u{fffd}]0;pwned\u{fffd}\n(1 games)\n");
            assert_eq!(
                outcomes,
                ["ok [\"a control character (U+001B in tag Black)\"]"]
            );
        }
    }

    #[test]
    fn text_writer_frames_only_the_records_it_writes() {
        let records = [
            named("Ann", None),
            Record::default(),
            named("Bob", Some("close game")),
            named("Cy", None),
        ];
        for rendered in [false, true] {
            let (text, outcomes) = write_all(&records, false, rendered);
            assert_eq!(text, "1. Ann\n2. Cy\n(2 games)\n");
            assert_eq!(
                outcomes,
                [
                    "ok []",
                    "refused: the target format cannot hold no Black tag",
                    "refused: the target format cannot hold the comment",
                    "ok []",
                ]
            );
            let (text, outcomes) = write_all(&records, true, rendered);
            assert_eq!(text, "1. Ann\n2. Bob\n3. Cy\n(3 games)\n");
            assert_eq!(
                outcomes[1],
                "refused: the target format cannot hold no Black tag"
            );
            assert_eq!(outcomes[2], "ok [\"the comment\"]");
        }
    }
}
