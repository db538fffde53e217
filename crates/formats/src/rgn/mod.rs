//! RGN, Reversi Game Notation (`.rgn`): the toolkit's own PGN-shaped record format, which
//! also reads the Othello PGN found in the wild (thor exports, PlayOK, Edax).
//!
//! A file holds games; a game is tag pairs, then movetext:
//!
//! ```text
//! [Event "Club night"]
//! [Black "Ann"]
//! [White "Bob"]
//! [Result "38-26"]
//!
//! 1. f5 d6 2. c3(d4) {[%eval 1.5] a fine move} 3. c4 --
//! ```
//!
//! The grammar and the meaning of every tag are in `spec/rgn.md`. [`read`] streams games
//! from a `BufRead` (memory bounded by one game), [`parse_str`] parses a string, and
//! [`to_string`] writes the canonical form, which reads back to the same record.
//!
//! ```
//! use reversi_formats::rgn;
//! let games = rgn::parse_str("1. f5 d6 2. c3", "example");
//! let record = games[0].record.as_ref().unwrap();
//! assert_eq!(record.moves.len(), 3);
//! // Every game starts with a tag line, so a game without tags gets its rules tag.
//! assert_eq!(rgn::to_string(record).unwrap(), "[Rules \"othello\"]\n\n1. f5 d6 2. c3\n");
//! ```

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::text;
use super::{
    text_writer, Games, ParsedGame, PlainGame, ReadOptions, RecordWriter, Sniff, TextFormat,
    WriteError, WriteOptions, Written,
};
use crate::diagnostic::{Diagnostic, Source};
use crate::engine::Rules;
use crate::record::Record;

#[doc(hidden)]
pub mod board;
mod parse;
#[doc(hidden)]
pub mod quick;
mod split;
mod write;

#[doc(hidden)]
pub use split::{GameSpan, Splitter};

pub use write::to_string;

/// The tag that holds the rules string.
pub const RULES_TAG: &str = crate::record::TagName::RULES;
/// The tag that holds a start position other than the rules' default.
pub const START_TAG: &str = crate::record::TagName::START;
/// The tag that holds the result.
pub const RESULT_TAG: &str = crate::record::TagName::RESULT;
/// The tag that says how the game ended.
pub const TERMINATION_TAG: &str = crate::record::TagName::TERMINATION;
/// Tags with their own fields in [`Record`]; they never appear in [`Record::tags`].
pub const RESERVED_TAGS: [&str; 4] = crate::record::TagName::RESERVED;

/// Whether `name` is one of the [`RESERVED_TAGS`] (any case).
pub fn is_reserved_tag(name: &str) -> bool {
    RESERVED_TAGS.iter().any(|r| r.eq_ignore_ascii_case(name))
}

/// Whether the input looks like RGN or PGN: its first non-blank line is a tag pair such as
/// `[Event "..."]`, or numbered movetext such as `1. f5 d6`.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = input
        .head
        .strip_prefix(b"\xEF\xBB\xBF")
        .unwrap_or(input.head);
    let text = String::from_utf8_lossy(head);
    match text.lines().map(str::trim).find(|l| !l.is_empty()) {
        Some(line) => parse::looks_like_tag(line) || parse::looks_like_numbered_moves(line),
        None => false,
    }
}

/// Reads every game of `input`, one at a time.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    let name = if options.name.is_empty() {
        Arc::from("-")
    } else {
        options.name.clone()
    };
    Box::new(GameReader {
        splitter: Splitter::new(input),
        buffer: Vec::new(),
        name,
        index: 0,
        rules: options.rules.unwrap_or_default(),
    })
}

/// Parses every game of `text` (a whole file); `name` is shown in diagnostics.
pub fn parse_str(text: &str, name: &str) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: Arc::from(name),
        ..ReadOptions::default()
    };
    let input: Box<dyn BufRead + Send + '_> = Box::new(text.as_bytes());
    read(input, &options).filter_map(Result::ok).collect()
}

/// Parses one game's text found at byte `offset` of its file; spans are file offsets.
/// Returns the record (`None` when the game has a syntax error) and the diagnostics.
pub fn parse_game(text: &str, offset: usize, game: usize) -> (Option<Record>, Vec<Diagnostic>) {
    parse::Parser::new(text, offset, game).parse()
}

/// [`parse_game`] with `rules` for a game without a `Rules` tag (`--rules`), instead of
/// standard Othello. A game that states its rules keeps them.
pub fn parse_game_with_rules(
    text: &str,
    offset: usize,
    game: usize,
    rules: Rules,
) -> (Option<Record>, Vec<Diagnostic>) {
    let mut parser = parse::Parser::new(text, offset, game);
    parser.default_rules = rules;
    parser.parse()
}

/// A writer of canonical RGN: games separated by a blank line.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    text_writer(out, options, RgnGames)
}

/// RGN games, separated by a blank line.
struct RgnGames;

impl TextFormat for RgnGames {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        Ok(write::write_game(record))
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        Some((write::write_plain(game)?, Vec::new()))
    }

    fn frame(&self, written: &Written, _rules: &Rules, text: &str, out: &mut String) {
        if written.games > 0 {
            out.push('\n');
        }
        out.push_str(text);
    }
}

struct GameReader<'a> {
    splitter: Splitter<Box<dyn BufRead + Send + 'a>>,
    /// The current game's bytes, reused from game to game.
    buffer: Vec<u8>,
    name: Arc<str>,
    index: usize,
    /// The rules of games without a `Rules` tag.
    rules: Rules,
}

impl Iterator for GameReader<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        self.buffer.clear();
        let game = match self.splitter.next_game(&mut self.buffer) {
            Ok(Some(game)) => game,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        self.index += 1;
        Some(Ok(read_game(
            &self.name,
            self.index,
            self.rules,
            &self.buffer[game.range.clone()],
            &game,
        )))
    }
}

/// Reads game `index` of file `name`, whose `bytes` [`Splitter`] found at `at`; `rules`
/// are for a game without a `Rules` tag.
#[doc(hidden)]
pub fn read_game(
    name: &Arc<str>,
    index: usize,
    rules: Rules,
    bytes: &[u8],
    at: &GameSpan,
) -> ParsedGame {
    let (text, problems) = text::decode(bytes.to_vec(), at.offset, at.line);
    let (record, diagnostics) = match at.too_long {
        Some(len) => (
            None,
            vec![text::too_long("the game starting", at.line, len)],
        ),
        None => parse_game_with_rules(&text, at.offset, index, rules),
    };
    let diagnostics = problems
        .into_iter()
        .chain(diagnostics)
        .map(|d| d.in_game(index))
        .collect::<Vec<_>>();
    ParsedGame {
        index,
        source: Source {
            name: name.clone(),
            text: Arc::from(text),
            offset: at.offset,
            line: at.line,
        },
        record,
        diagnostics,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codes::Code;
    use crate::engine::{Color, Move};
    use crate::record::{ClaimedResult, ResultScore, Tag, Termination};

    fn sniffs(text: &str) -> bool {
        sniff(&Sniff {
            head: text.as_bytes(),
            len: None,
        })
    }

    fn one(text: &str) -> Record {
        let games = parse_str(text, "t");
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].diagnostics, vec![], "{text}");
        games[0].record.clone().unwrap()
    }

    fn codes(text: &str) -> Vec<Code> {
        parse_str(text, "t")
            .iter()
            .flat_map(|g| g.diagnostics.iter().map(|d| d.code))
            .collect()
    }

    #[test]
    fn sniff_knows_pgn_and_rgn_but_not_other_formats() {
        assert!(sniffs("[Event \"x\"]\n1. f5"));
        assert!(sniffs("\u{feff}\n\n  [Result \"*\"]"));
        assert!(sniffs("1. F5 D6\n2. C3"));
        assert!(sniffs("1.f5 d6"));
        assert!(!sniffs("(;GM[Othello]PC[GGS/os]"));
        assert!(!sniffs("1 (;GM[Othello];)"));
        assert!(!sniffs("[{\"rules\": \"othello\"}]"));
        assert!(!sniffs("f5d6c3d3c4"));
        assert!(!sniffs(
            "--XXXXX--OOOXX-O-OOOXXOX-OXOXOXXOXXXOXXX--XOXOXX-XXXOOO--OOOOO-- X;"
        ));
        assert!(!sniffs(""));
    }

    #[test]
    fn moves_passes_and_numbers() {
        let r = one("1.F5 d6 2... pass PA ps @@ @@@@ -- J10 b:c3 W:--");
        let moves: Vec<String> = r.moves.iter().map(|m| m.mv.to_string()).collect();
        assert_eq!(
            moves,
            ["f5", "d6", "--", "--", "--", "--", "--", "--", "j10", "c3", "--"]
        );
        assert_eq!(r.moves[9].color, Some(Color::Black));
        assert_eq!(r.moves[10].color, Some(Color::White));
        assert_eq!(r.moves[0].span.map(|s| (s.offset, s.len)), Some((2, 2)));
    }

    #[test]
    fn flip_claims() {
        let r = one("c4(d4,d5) c4(2) c4(2:d4) c4() c4(0:) c4(?)");
        let claims: Vec<_> = r
            .moves
            .iter()
            .map(|m| {
                let f = m.flips.as_ref().unwrap();
                (f.squares.map(|s| s.to_string()), f.count)
            })
            .collect();
        assert_eq!(
            claims,
            [
                (Some("d4 d5".to_string()), None),
                (None, Some(2)),
                (Some("d4".to_string()), Some(2)),
                (Some(String::new()), None),
                (Some(String::new()), Some(0)),
                (None, None),
            ]
        );
        assert_eq!(
            to_string(&r).unwrap(),
            "[Rules \"othello\"]\n\n1. c4(d4,d5) c4(2) 2. c4(2:d4) c4() 3. c4(0:) c4(?)\n"
        );
    }

    #[test]
    fn comments_evals_and_escapes() {
        let r = one("{game \\} comment} f5 {[%eval -2.5] [%emt 3] fine \\[x\\]} d6 {[%emt 0.5]} c3 {} ; rest\n");
        assert_eq!(r.comment.as_deref(), Some("game } comment"));
        assert_eq!((r.moves[0].eval, r.moves[0].time), (Some(-2.5), Some(3.0)));
        assert_eq!(r.moves[0].comment.as_deref(), Some("fine [x]"));
        assert_eq!(
            (r.moves[1].time, r.moves[1].comment.as_deref()),
            (Some(0.5), None)
        );
        assert_eq!(r.moves[2].comment.as_deref(), Some(" rest"));
        let r = one("f5 {[%eval 1] }");
        assert_eq!(r.moves[0].comment.as_deref(), Some(""));
        assert_eq!(
            to_string(&r).unwrap(),
            "[Rules \"othello\"]\n\n1. f5 {[%eval 1] }\n"
        );
    }

    #[test]
    fn results_and_terminations() {
        let score = |text: &str| {
            one(&format!("[Result \"{text}\"]"))
                .result
                .map(|r| (r.score, r.termination))
                .unwrap()
        };
        assert_eq!(score("41-23").0, ResultScore::Discs(vec![41, 23]));
        assert_eq!(score("20-22-22").0, ResultScore::Discs(vec![20, 22, 22]));
        assert_eq!(score("01-00").0, ResultScore::Discs(vec![1, 0]));
        assert_eq!(score("1-0").0, ResultScore::Winner(Some(Color::Black)));
        assert_eq!(score("0-1").0, ResultScore::Winner(Some(Color::White)));
        assert_eq!(score("1/2-1/2").0, ResultScore::Winner(None));
        assert_eq!(score("Red wins").0, ResultScore::Winner(Some(Color::Red)));
        assert_eq!(score("+18").0, ResultScore::Margin(18.0));
        assert_eq!(score("-2.5").0, ResultScore::Margin(-2.5));
        assert_eq!(score("*"), (ResultScore::None, Termination::Unfinished));
        let r = one("[Termination \"Black resigns\"]\n[Result \"20-44\"]\n\nf5 20-44");
        assert_eq!(
            r.result.unwrap().termination,
            Termination::Resignation(Some(Color::Black))
        );
        let r = one("[Termination \"time forfeit\"]").result.unwrap();
        assert_eq!(
            (r.score, r.termination, r.span.map(|s| s.offset)),
            (ResultScore::None, Termination::Time(None), Some(14))
        );
        assert_eq!(codes("[Result \"300-1\"]"), [Code::SyntaxBadResult]);
        assert_eq!(
            codes("[Termination \"rain\"]"),
            [Code::SyntaxBadTermination]
        );
        assert_eq!(
            codes("[Result \"*\"]\n[result \"*\"]"),
            [Code::SyntaxDuplicateTag]
        );
        assert_eq!(codes("f5 1-0 d6"), [Code::SyntaxMoveAfterResult]);
        assert_eq!(codes("f5 1-0 0-1"), [Code::SyntaxDuplicateResult]);
    }

    #[test]
    fn tags_keep_order_and_escapes() {
        let r = one("[Event \"a \\\"b\\\" \\\\ c\\nd \\x\"] [Date \"1\"]\n[Date \"2\"]");
        let tags: Vec<(&str, &str)> = r
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str()))
            .collect();
        assert_eq!(
            tags,
            [
                ("Event", "a \"b\" \\ c\nd \\x"),
                ("Date", "1"),
                ("Date", "2")
            ]
        );
        assert_eq!(
            to_string(&r).unwrap(),
            "[Event \"a \\\"b\\\" \\\\ c\\nd \\\\x\"]\n[Date \"1\"]\n[Date \"2\"]\n"
        );
        assert_eq!(codes("[ \"x\"]"), [Code::SyntaxBadTag]);
        assert_eq!(codes("[Event x]"), [Code::SyntaxBadTag]);
        assert_eq!(codes("[Event \"x\" y"), [Code::SyntaxUnterminatedTag]);
    }

    #[test]
    fn games_split_at_tags_after_movetext_or_after_a_blank_line() {
        let text = "\u{feff}[Event \"a\"]\n\n[Event \"b\"]\n\n1. f5\n[Event \"c\"]\nd3\n\n\n";
        let games = parse_str(text, "t");
        let events: Vec<_> = games
            .iter()
            .map(|g| g.record.as_ref().unwrap().tag("Event").unwrap().to_owned())
            .collect();
        assert_eq!(events, ["a", "b", "c"]);
        assert_eq!(
            games
                .iter()
                .map(|g| (g.source.offset, g.source.line))
                .collect::<Vec<_>>(),
            [(3, 0), (16, 2), (35, 5)]
        );
        assert_eq!(&*games[2].source.text, "[Event \"c\"]\nd3\n");
    }

    #[test]
    fn games_without_tags_stay_apart_when_written() {
        let r = one("1. f5");
        let text = format!("{}\n{}", to_string(&r).unwrap(), to_string(&r).unwrap());
        assert_eq!(parse_str(&text, "t").len(), 2);
    }

    #[test]
    fn invalid_utf8_is_a_warning() {
        let input: Box<dyn BufRead + Send> = Box::new(&b"[Event \"Su\xe8de\"]\n1. f5\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default()).collect();
        let g = games[0].as_ref().unwrap();
        assert_eq!(g.diagnostics[0].code, Code::SyntaxBadEncoding);
        assert_eq!(
            g.diagnostics[0].message,
            "line 1 is not valid UTF-8; it was read as Windows-1252"
        );
        assert_eq!(g.diagnostics[0].span.map(|s| s.offset), Some(0));
        assert_eq!(g.record.as_ref().unwrap().tag("Event"), Some("Suède"));
        assert_eq!(&*g.source.name, "-");
    }

    #[test]
    fn bad_encoding_span_lies_on_character_boundaries() {
        // Found by fuzzing: a one-byte span once split a multi-byte character.
        let input: Box<dyn BufRead + Send> =
            Box::new(&b"[Event \"x\"]\n[Site \"Su\xe8de\"]\n1. f5\n"[..]);
        let games: Vec<_> = read(input, &ReadOptions::default()).collect();
        let g = games[0].as_ref().unwrap();
        let span = g.diagnostics[0].span.unwrap();
        assert!(g.source.text.get(span.offset..span.end()).is_some());
        assert_eq!(&g.source.text[span.offset..], "[Site \"Suède\"]\n1. f5\n");
    }

    #[test]
    fn the_writer_refuses_only_what_no_text_can_mean() {
        let mut r = Record::default();
        r.tags.push(Tag::new("two words", "x"));
        r.tags.push(Tag::new("result", "x"));
        r.tags.push(Tag::new("Fine", "x"));
        r.result = Some(ClaimedResult::discs(vec![64]));
        r.moves.push(crate::record::MoveRecord::new(Move::Pass));
        let losses = to_string(&r).unwrap_err();
        assert_eq!(
            losses,
            [
                "a tag named `two words`",
                "a free tag named `result`, a name RGN reserves",
                "a result with fewer than two disc counts"
            ]
        );
        let mut out = Vec::new();
        let mut w = writer(
            Box::new(&mut out),
            &WriteOptions {
                lossy: true,
                ..WriteOptions::default()
            },
        );
        assert_eq!(w.write(&r).unwrap().len(), 3);
        assert!(matches!(
            writer(Box::new(io::sink()), &WriteOptions::default()).write(&r),
            Err(WriteError::CannotHold(_))
        ));
        drop(w);
        assert_eq!(String::from_utf8(out).unwrap(), "[Fine \"x\"]\n\n1. --\n");
        assert_eq!(
            to_string(&Record::default()).unwrap(),
            "[Rules \"othello\"]\n"
        );
        let mut r = one("[Rules \"othello\"]\n");
        (r.span, r.rules_span) = (None, None);
        assert_eq!(r, Record::default());
    }

    #[test]
    fn boards_in_tags_and_movetext() {
        let text = "[Rules \"othello:octagon\"]\n[Start \"....../......../........../........../....OX..../....XO..../........../........../......../...... O\"]\n\n<    . . . . . .\n   . . . . . . . .\n . . . . . . . . . .\n . . . . . . . . . .\n . . . . O X . . . .\n . . . . X O . . . .\n . . . . . . . . . .\n . . . . . . . . . .\n   . . . . . . . .\n     . . . . . .\n O to move>\n";
        let r = one(text);
        assert_eq!(r.start.as_ref().unwrap().setup.turn, Color::White);
        assert_eq!(r.positions[0].setup, r.start.as_ref().unwrap().setup);
        assert_eq!(r.positions[0].after_moves, 0);
        assert_eq!(to_string(&r).unwrap(), text);
        assert_eq!(
            codes("[Start \"......../......../......../...OX.../...XO.../......../......../........ X 30\"]"),
            [Code::SyntaxBadStart]
        );
        assert_eq!(codes("f5 <. . X to move>"), [Code::SyntaxBadBoard]);
        assert_eq!(codes("f5 <. . X"), [Code::SyntaxUnterminatedBoard]);
    }
}
