//! The record model as JSON: a versioned document or JSON Lines (`spec/json.md`).
//!
//! A **document** is `{"format": "reversi-record", "version": 2, "games": [...]}`; **JSON
//! Lines** hold one game object per line, optionally preceded by a header line
//! `{"format": "reversi-record", "version": 2}`. Version 2 writes a game's tags as an object
//! (`"tags":{"Black":"Ann"}`, what `jq '.tags.Black'` reads) when their names are distinct;
//! version 1's list of `{"name", "value"}` pairs is read too, and written for a name that
//! repeats. The reader tells them apart by the first
//! object's keys and streams both: it never holds more than one game (plus the envelope's
//! small fields) in memory.
//!
//! Each game object is a [`Record`](crate::record::Record) through serde; its fields are listed in `spec/json.md`.
//! A game that cannot be read gives a diagnostic (`syntax-json`, `json-unknown-field`,
//! `json-missing-field`, `json-bad-value`, `json-unsupported-version`) pointing at the
//! offending text, and the next game is read as usual. Problems with the file itself (a wrong
//! `format`, an unknown envelope field, text after the document) come as a record-less
//! [`ParsedGame`](crate::ParsedGame) with index 0, whose source is the envelope text.
//!
//! The writer writes the document form, one game per line, or JSON Lines when
//! `options.dialect` is `"lines"`.
//!
//! ```
//! use reversi_formats::{json, ReadOptions, WriteOptions};
//! use reversi_formats::record::{MoveRecord, Record};
//! use reversi_engine::Move;
//! let mut record = Record::new("anti:6x6".parse().unwrap());
//! record.set_tag("Black", "Tastet Marc");
//! record.moves.push(MoveRecord::new(Move::Place("b3".parse().unwrap())));
//! let mut out = Vec::new();
//! {
//!     let mut w = json::writer(Box::new(&mut out), &WriteOptions::default());
//!     w.write(&record).unwrap();
//!     w.finish().unwrap();
//! }
//! assert_eq!(
//!     String::from_utf8(out.clone()).unwrap(),
//!     "{\"format\": \"reversi-record\", \"version\": 2, \"games\": [\n\
//!      {\"rules\":\"anti:6x6\",\"tags\":{\"Black\":\"Tastet Marc\"},\"moves\":[{\"move\":\"b3\"}]}\n\
//!      ]}\n"
//! );
//! let games: Vec<_> = json::read(Box::new(&out[..]), &ReadOptions::default()).collect();
//! let back = games[0].as_ref().unwrap().record.clone().unwrap();
//! assert_eq!((back.rules, back.tags, back.moves), (record.rules, record.tags, record.moves));
//! ```

use super::Sniff;

mod errors;
mod quick;
mod scan;
mod stream;
mod write;

pub use stream::read;
#[doc(hidden)]
pub use stream::{entries, Entry, PendingObject};
#[doc(hidden)]
pub use write::record_json;
pub use write::writer;

/// The `format` value of a document or header line.
pub const FORMAT_NAME: &str = "reversi-record";

/// The schema version this crate writes: 2, whose `tags` may be an object. It reads
/// [`READS`].
pub const VERSION: u64 = 2;

/// The schema versions this crate reads: 1 (tags as a list of pairs only) and 2.
pub const READS: std::ops::RangeInclusive<u64> = 1..=VERSION;

/// Whether the input looks like JSON: its first non-blank byte (after a BOM) opens an object
/// whose first key begins, or that closes at once.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = input
        .head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(input.head);
    let mut bytes = head.iter().copied().filter(|b| !b.is_ascii_whitespace());
    bytes.next() == Some(b'{') && matches!(bytes.next(), Some(b'"') | Some(b'}') | None)
}

#[cfg(test)]
mod tests {
    use super::errors::{error_offset, lossy_offset, token_before, whole_chars};
    use super::*;
    use crate::codes::Code;
    use crate::record::Record;
    use crate::{ParsedGame, ReadOptions};
    use std::io::BufRead;

    fn read_all(text: &str) -> Vec<ParsedGame> {
        read(Box::new(text.as_bytes()), &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect()
    }

    #[test]
    fn bad_utf8_span_covers_the_replacement_character() {
        // Found by fuzzing: a one-byte span split the three-byte U+FFFD in the source text.
        let input: Box<dyn BufRead + Send> =
            Box::new(&b"{\"rules\":\"othello\",\"comment\":\"Su\xe8de\"}\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect();
        let d = &games[0].diagnostics[0];
        assert_eq!(d.code, Code::SyntaxJson);
        let span = d.span.unwrap();
        let text = &games[0].source.text;
        assert_eq!(&text[span.offset..span.end()], "\u{fffd}");
    }

    #[test]
    fn syntax_error_spans_keep_whole_characters() {
        // Found by fuzzing: a one-byte span on a syntax error inside a multi-byte
        // character, and on the last byte of a game ending in one.
        assert_eq!(whole_chars("a\u{93}b", 2, 3), (1, 3));
        assert_eq!(whole_chars("ab\u{e9}", 3, 4), (2, 4));
        assert_eq!(whole_chars("ab", 1, 2), (1, 2));
        for text in [
            "{\"rules\":\"othello\",\"tags\":[{\"name\":\u{63d}\u{93}ack\"}]}\n",
            "{\"rules\":\"othello\" \u{e9}\n",
            "{\"rules\":\"othello\",\"moves\":[\u{e9}",
        ] {
            let games = read_all(text);
            for g in &games {
                for d in &g.diagnostics {
                    let span = d.span.unwrap();
                    let local = span.offset - g.source.offset;
                    assert!(
                        g.source.text.get(local..local + span.len).is_some(),
                        "{text}: {d:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn envelope_spans_land_on_the_source_text() {
        // Found by fuzzing: a span on the raw bytes of an envelope with invalid UTF-8 did
        // not match the lossy source text.
        assert_eq!(lossy_offset(b"ab\xffcd", 3), 5);
        assert_eq!(lossy_offset(b"ab\xff\xfecd", 4), 8);
        assert_eq!(lossy_offset(b"ab\xffcd", 2), 2);
        let input: Box<dyn BufRead + Send> =
            Box::new(&b"{\"format\": \"\xff\xferev\", \"version\": 1, \"games\": [\n]}\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default())
            .map(|g| g.unwrap())
            .collect();
        let d = games[0]
            .diagnostics
            .iter()
            .find(|d| d.code == Code::JsonBadEnvelope)
            .unwrap();
        let span = d.span.unwrap();
        let text = &games[0].source.text;
        assert_eq!(&text[span.offset..span.end()], "\"\u{fffd}\u{fffd}rev\"");
    }

    #[test]
    fn sniffs_objects_only() {
        let s = |t: &[u8]| sniff(&Sniff { head: t, len: None });
        assert!(s(b"{\"format\": \"reversi-record\""));
        assert!(s(b"\xEF\xBB\xBF  {\n\"rules\""));
        assert!(s(b"{}"));
        assert!(!s(b"(;GM[Othello]"));
        assert!(!s(b"[Event \"x\"]"));
        assert!(!s(b"{x"));
    }

    #[test]
    fn tokens_for_spans() {
        let t = br#"{"moves": [{"move": "k9"}]}"#;
        assert_eq!(token_before(t, 24, true), (20, 24));
        assert_eq!(&t[20..24], b"\"k9\"");
        assert_eq!(token_before(b"[1, 300]", 6, true), (4, 7));
        assert_eq!(token_before(t, 25, true), (11, 25));
        assert_eq!(token_before(br#"{"a": "x\"}", "b": 1}"#, 12, true), (6, 12));
        assert_eq!(token_before(br#"{"a":1,}"#, 8, false), (7, 8));
        assert_eq!(error_offset("ab\ncd\nef", 3, 1), 7);
    }

    #[test]
    fn document_and_lines_agree() {
        let doc = "{\"format\": \"reversi-record\", \"version\": 1, \"games\": [\n{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]},\n{\"rules\":\"anti:6x6\",\"moves\":[]}\n]}\n";
        let lines = "{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]}\n\n{\"rules\":\"anti:6x6\",\"moves\":[]}\n";
        let a = read_all(doc);
        let b = read_all(lines);
        assert_eq!(a.len(), 2);
        assert_eq!(b.len(), 2);
        for (x, y) in a.iter().zip(&b) {
            assert!(x.diagnostics.is_empty() && y.diagnostics.is_empty());
            let content = |g: &ParsedGame| g.record.as_ref().map(Record::without_spans);
            assert_eq!(content(x), content(y));
            assert_eq!(x.index, y.index);
        }
        assert_eq!(a[1].source.offset, doc.find("{\"rules\":\"anti").unwrap());
        assert_eq!(a[1].source.line, 2);
        assert_eq!(b[1].source.line, 2);
    }

    #[test]
    fn a_header_line_is_known_however_its_keys_are_written() {
        // Game lines are not asked of serde; a header with escaped keys still is. After a
        // first line of its own (read key by key), each line is a game or a header.
        let game = "{\"rules\":\"othello\",\"moves\":[{\"move\":\"f5\"}]}";
        let entries = |header: &str| {
            read_all(&format!("{game}\n{header}\n{game}\n"))
                .iter()
                .map(|g| (g.index, g.diagnostics.len(), g.record.is_some()))
                .collect::<Vec<_>>()
        };
        let plain = entries("{\"format\":\"reversi-record\",\"version\":1}");
        assert_eq!(plain.iter().filter(|(index, ..)| *index > 0).count(), 2);
        for header in [
            "{\"\\u0066ormat\":\"reversi-record\",\"v\\u0065rsion\":1}",
            "{ \"format\" : \"reversi-record\" , \"version\" : 1 }",
        ] {
            assert_eq!(entries(header), plain, "{header}");
        }
    }

    #[test]
    fn empty_input_has_no_games() {
        assert!(read_all("").is_empty());
        assert!(read_all("  \n").is_empty());
    }
}
