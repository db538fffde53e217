//! Move strings: one game a line (`f5d6c3d3c4...`), or a column of a CSV file.
//!
//! # Reading
//!
//! * A game is a line of moves: a column letter and a row number (`f5`, `F5`, `j10` on
//!   10x10), in either case, with or without spaces (or commas) between them. Passes may be
//!   written as `--`, `pa`, `ps`, `pass` or `@@` (any case); they are kept where written,
//!   and passes left out are inferred at replay.
//! * Blank lines are skipped, and so are comment lines starting with `#` or `%`.
//! * A pragma line `%% rules: anti:10x10` sets the rules for the lines after it (normally it
//!   is the first line of the file). Without one the rules come from
//!   [`ReadOptions::rules`], by default standard 8x8 Othello.
//! * A line may start with an Edax start position, `<board> <side>;`: one character per
//!   square row by row (`X x * b` Black, `O o w` White, `- .` empty; 64 on 8x8), then `X` or
//!   `O` for the side to move and a `;`. It becomes the record's start position.
//! * When the first line that is not a comment holds a `,` or a tab and is not itself a
//!   list of moves, the file is read as CSV: that line is the header and every later line a row (fields may be quoted, with
//!   `""` for a quote, and may then span lines). The move strings are in the column named
//!   `moves`, `game`, `transcript`, `movelist`, `sequence`, `record`, `line` or `opening`
//!   (any case), or else in the first column whose field reads as moves. The first column
//!   named `Result`, `Score`, `Final`, `Outcome`, `Final score` or `Final result` (any
//!   case) holds the game's claimed result, in the spellings people write (`36-28`,
//!   `36 - 28`, `+8`, `B+8`, `W`, `*`, ...: [`score::parse_result`]); a score that cannot
//!   be read is a `result-unreadable` warning and stays a tag. Every other non-empty field
//!   becomes a tag named after its column.
//!
//! A token that is not a move gives `syntax-bad-move` (pointing at it) and no record for
//! that line only. A pragma whose rules cannot be read is reported as an entry of its own
//! (`movestr-bad-pragma`, no record), and the lines after it keep the rules they had. CSV
//! rows can fail with `csv-unterminated-quote`, `csv-no-moves-column` and
//! `csv-missing-field`; a bad Edax start prefix with `board-too-short`, `board-bad-square`
//! or `board-missing-side`.
//!
//! # Writing
//!
//! One game a line, lower case, no spaces (`f5d6c3`), each pass the record writes as `--`
//! in its place; in the dialect `nopass` (`--to moves:nopass`, [`DIALECTS`]) passes are
//! left out, as most move-string consumers want them, and replay infers them back. A pass
//! replay would not infer (a pass while the player has a move, a pass after a move that
//! does not replay) cannot be left out: such a game is refused, lossy or not. A start position is written as an Edax prefix (two players only). When a
//! record's rules differ from those of the lines before (standard 8x8 at the top of the
//! file), a `%% rules:` pragma line comes first, so one file can hold games of any variant.
//! A move string cannot hold tags, results, comments, evaluations, times, flip or colour
//! claims or position snapshots: these are refused unless writing lossily. A game without
//! moves is refused even then (nothing of it would be in the output).

mod csv;
mod reader;
mod tokens;
mod write;

use crate::codes::Code;
use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::board_text;
use super::capabilities::{tag_names_phrase, tags_phrase, Claim, ClaimLosses};
use super::text::{self, Line, LineReader, MAX_GAME_BYTES};
use super::{
    text_writer, Games, ParsedGame, PlainGame, ReadOptions, RecordWriter, Sniff, TextFormat,
    WriteError, WriteOptions, Written,
};
use crate::diagnostic::{Collected, Diagnostic, Source};
use crate::engine::quick::{code, QuickMoves, PASS};
use crate::engine::{BoardShape, Color, Move, Rules, Square};
use crate::record::{score, MoveRecord, Record, Span, StartPosition, Tag};

use csv::*;
use tokens::*;
use write::*;

pub use reader::{Entry, MoveStringReader, PendingLine};

/// The most fields a CSV row may have: the moves and a tag for each other field.
const MAX_CSV_FIELDS: usize = text::MAX_TAGS + 1;

/// Header names (lower case) of a CSV column holding move strings.
const MOVE_COLUMNS: [&str; 10] = [
    "moves",
    "move",
    "game",
    "transcript",
    "movelist",
    "move list",
    "sequence",
    "record",
    "line",
    "opening",
];

/// The headers of spreadsheets kept in French, German, Dutch, Spanish, Italian,
/// Portuguese and Japanese (lower case), with the column each stands for: a tag's name, or
/// `moves`. The pairings file (`event::schedule`) reads its headers with them too.
const LOCALIZED_COLUMNS: [(&str, &[&str]); 8] = [
    (
        "moves",
        &[
            "coups", "züge", "zuege", "zetten", "jugadas", "mosse", "棋譜", "手順",
        ],
    ),
    (
        "Black",
        &[
            "noir", "noirs", "schwarz", "zwart", "negro", "negras", "nero", "黒", "黒番",
        ],
    ),
    (
        "White",
        &[
            "blanc", "blancs", "weiß", "weiss", "wit", "blanco", "blancas", "bianco", "白", "白番",
        ],
    ),
    (
        "Result",
        &[
            "résultat",
            "resultat",
            "ergebnis",
            "uitslag",
            "resultaat",
            "resultado",
            "risultato",
            "結果",
        ],
    ),
    (
        "Round",
        &[
            "ronde",
            "runde",
            "tour",
            "ronda",
            "turno",
            "rodada",
            "回戦",
            "ラウンド",
        ],
    ),
    (
        "Board",
        &[
            "table",
            "tisch",
            "brett",
            "bord",
            "tafel",
            "mesa",
            "tavolo",
            "tabuleiro",
            "盤",
            "台",
            "テーブル",
        ],
    ),
    (
        "Event",
        &["tournoi", "turnier", "toernooi", "torneo", "大会"],
    ),
    ("Date", &["datum", "fecha", "data", "日付"]),
];

/// The column a header written in another language stands for ([`LOCALIZED_COLUMNS`]).
#[doc(hidden)]
pub fn localized_column(header: &str) -> Option<&'static str> {
    let header = header.to_lowercase();
    LOCALIZED_COLUMNS
        .iter()
        .find(|(_, words)| words.contains(&header.as_str()))
        .map(|(column, _)| *column)
}

/// Whether a CSV header names a column of move strings (`moves`, `coups`, `棋譜`, ...).
///
/// ```
/// use reversi_formats::movestr::is_moves_column;
/// assert!(is_moves_column(" Coups "));
/// assert!(!is_moves_column("noir"));
/// ```
pub fn is_moves_column(header: &str) -> bool {
    let name = header.trim();
    let name = localized_column(name).unwrap_or(name).to_lowercase();
    MOVE_COLUMNS.contains(&name.as_str())
}

/// Whether the input looks like move strings: its first lines that are not comments are
/// all moves (at least one move each), or a CSV header names a moves column.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let text = String::from_utf8_lossy(input.head);
    let mut lines: Vec<&str> = text.lines().collect();
    if input.head.len() >= 4096 && lines.len() > 1 {
        lines.pop(); // possibly cut short
    }
    let mut checked = 0;
    for line in lines {
        let trimmed = line.trim();
        if trimmed.starts_with("%%") && pragma_rules(trimmed).is_some() {
            return true;
        }
        if trimmed.is_empty() || trimmed.starts_with('#') || trimmed.starts_with('%') {
            continue;
        }
        if let (0, Some(delimiter)) = (checked, csv_delimiter(line)) {
            return match split_csv(line, 0, delimiter) {
                CsvLine::Complete(fields) if fields.iter().any(|f| is_moves_column(&f.text)) => {
                    true
                }
                // A header in other words (`game_moves`, `coups`): the rows say.
                CsvLine::Complete(_) => rows_hold_moves(&text, line, delimiter),
                CsvLine::Open => false,
            };
        }
        // An Edax start prefix (`<board> <X|O>;`) may precede the moves.
        let moves_text = match line.split_once(';') {
            Some((_, moves)) => {
                if !starts_with_board(line) {
                    return false;
                }
                moves
            }
            None => line,
        };
        match parse_moves(moves_text, 0, BoardShape::Eight) {
            Ok(moves) if !moves.is_empty() => checked += 1,
            _ => return false,
        }
        if checked == 5 {
            break;
        }
    }
    checked > 0
}

/// Whether the rows after the CSV header `header` (in `text`, the head of the input) each
/// hold a field that is a move string: up to five of them, at least one.
fn rows_hold_moves(text: &str, header: &str, delimiter: u8) -> bool {
    let Some(at) = text.find(header) else {
        return false;
    };
    let mut rows: Vec<&str> = text[at + header.len()..]
        .lines()
        .filter(|l| !l.trim().is_empty())
        .collect();
    // The head may end inside a row.
    if text.len() >= 4096 && rows.len() > 1 {
        rows.pop();
    }
    let holds_moves = |row: &&str| match split_csv(row, 0, delimiter) {
        CsvLine::Complete(fields) => fields.iter().any(
            |f| matches!(parse_moves(&f.text, 0, BoardShape::Ten), Ok(moves) if !moves.is_empty()),
        ),
        CsvLine::Open => false,
    };
    let sample: Vec<&str> = rows.into_iter().take(5).collect();
    !sample.is_empty() && sample.iter().all(holds_moves)
}

/// Reads move strings, one game a line, or the moves column of a CSV file.
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(splitter(input, options))
}

/// A reader that splits game lines off without reading them ([`MoveStringReader::next_entry`]).
#[doc(hidden)]
pub fn splitter<R: BufRead>(input: R, options: &ReadOptions) -> MoveStringReader<R> {
    MoveStringReader {
        lines: LineReader::new(input),
        name: options.name.clone(),
        rules: options.rules.unwrap_or_default(),
        csv: None,
        seen_content: false,
        index: 0,
    }
}

/// The dialects of the move-string writer, as `--to moves:DIALECT` names them: `passes`
/// (the default: each pass written as `--`) and `nopass` (passes left out, as most
/// move-string consumers want them; replay infers them back).
pub const DIALECTS: [&str; 2] = ["passes", "nopass"];

/// The dialect `name` means (`nopass`, also `no-pass`, `nopasses`; `passes`), if any.
///
/// ```
/// use reversi_formats::movestr::dialect;
/// assert_eq!(dialect("NoPass"), Some("nopass"));
/// assert_eq!(dialect("passes"), Some("passes"));
/// assert_eq!(dialect("lines"), None);
/// ```
pub fn dialect(name: &str) -> Option<&'static str> {
    match name.trim().to_ascii_lowercase().as_str() {
        "passes" | "pass" => Some("passes"),
        "nopass" | "no-pass" | "nopasses" | "no-passes" => Some("nopass"),
        _ => None,
    }
}

/// A writer of move strings, one game a line; without passes when `options.dialect` is
/// `nopass` ([`DIALECTS`]).
///
/// ```
/// use reversi_formats::{Format, ReadOptions, WriteOptions};
/// let games = Format::MoveString.read_bytes("f5d6c3d3c4f4c5b3c2e6\n", &ReadOptions::default()).unwrap();
/// let record = games[0].record.clone().unwrap();
/// let options = WriteOptions { dialect: Some("nopass".into()), ..WriteOptions::default() };
/// let (text, _) = Format::MoveString.write_bytes(&[record], &options).unwrap();
/// assert_eq!(text, b"f5d6c3d3c4f4c5b3c2e6\n");
/// ```
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    let passes = match options.dialect.as_deref() {
        None => Ok(true),
        Some(name) => match dialect(name) {
            Some("nopass") => Ok(false),
            Some(_) => Ok(true),
            None => Err(name.to_owned()),
        },
    };
    super::capabilities::checked(
        super::Format::MoveString,
        text_writer(out, options, MoveStrings { passes }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A start of three players, one without discs yet, looks like a two-colour board but
    /// the reader takes a prefix only under two-player rules: it is not written as one
    /// (lossily, it is dropped and named), so what is written reads back.
    #[test]
    fn a_start_of_three_players_is_never_a_two_player_prefix() {
        use crate::{Format, WriteOptions};
        let rules: Rules = "multi3".parse().unwrap();
        let mut record = Record::new(rules);
        let squares = |list: &[&str]| {
            list.iter()
                .map(|s| s.parse::<Square>().unwrap())
                .collect::<crate::engine::SquareSet>()
        };
        let empty = squares(&[]);
        let setup = crate::engine::Setup {
            discs: [squares(&["d4", "e5"]), squares(&["e4", "d5"]), empty, empty],
            neutral: empty,
            turn: Color::White,
        };
        record.start = Some(StartPosition {
            setup,
            in_hand: None,
            span: None,
        });
        record.moves = vec![crate::record::MoveRecord::new(Move::Place(
            "f5".parse().unwrap(),
        ))];
        let strict =
            Format::MoveString.write_bytes(std::slice::from_ref(&record), &WriteOptions::default());
        assert!(strict.is_err(), "{strict:?}");
        let lossy = WriteOptions {
            lossy: true,
            ..WriteOptions::default()
        };
        let (text, dropped) = Format::MoveString
            .write_bytes(std::slice::from_ref(&record), &lossy)
            .unwrap();
        let text = String::from_utf8(text).unwrap();
        assert!(!text.contains(';'), "{text}");
        assert!(
            dropped.iter().any(|d| d.contains("start position")),
            "{dropped:?}"
        );
        let back = read_str(&text, None);
        assert_eq!(back.len(), 1);
        assert!(back[0].record.is_some(), "{text}");
    }

    fn read_str(text: &str, rules: Option<Rules>) -> Vec<ParsedGame> {
        let options = ReadOptions {
            name: "test".into(),
            rules,
            ..ReadOptions::default()
        };
        read(Box::new(io::Cursor::new(text.to_owned())), &options)
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    fn moves_of(game: &ParsedGame) -> String {
        let record = game.record.as_ref().unwrap();
        record
            .moves
            .iter()
            .map(|m| m.mv.to_string())
            .collect::<Vec<_>>()
            .join(" ")
    }

    #[test]
    fn spreadsheets_in_other_languages_and_locales_are_read_by_content() {
        let sniffs = |text: &str| {
            sniff(&Sniff {
                head: text.as_bytes(),
                len: Some(text.len() as u64),
            })
        };
        // A French spreadsheet saved with `;` (its locale's decimal mark is the comma), a
        // BOM and CRLF: its columns become the tags they stand for.
        let french = "\u{feff}ronde;table;noir;blanc;coups;résultat\r\n\
                      3;1;Ann;Bob;f5d6c3d3c4f4c5b3c2e6;\r\n\
                      3;2;Cy;Di;f5f6e6f4;33-31\r\n";
        assert!(sniffs(french));
        let games = read_str(french, None);
        assert_eq!(games.len(), 2);
        let record = games[1].record.as_ref().unwrap();
        let tag = |name: &str| {
            record
                .tags
                .iter()
                .find(|t| t.name == name)
                .map(|t| t.value.as_str())
        };
        assert_eq!(
            (tag("Round"), tag("Board"), tag("Black"), tag("White")),
            (Some("3"), Some("2"), Some("Cy"), Some("Di"))
        );
        assert!(record.result.is_some(), "the résultat column is the result");
        assert_eq!(moves_of(&games[1]), "f5 f6 e6 f4");
        // Its numbers with decimal commas: `33,0-31,0` is 33-31, `0,5-0,5` a draw.
        let decimals = "noir;blanc;coups;résultat\n\
                        Ann;Bob;f5d6;33,0-31,0\nCy;Di;f5f6;0,5-0,5\nEd;Flo;f5f4;1,0-0,0\n";
        let games = read_str(decimals, None);
        let scores: Vec<_> = games
            .iter()
            .map(|g| {
                assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
                g.record
                    .as_ref()
                    .and_then(|r| r.result.clone())
                    .map(|c| c.score)
            })
            .collect();
        use crate::record::ResultScore;
        assert_eq!(
            scores,
            [
                Some(ResultScore::Discs(vec![33, 31])),
                Some(ResultScore::Winner(None)),
                Some(ResultScore::Winner(Some(crate::Color::Black))),
            ]
        );
        // A header in words of its own (the Kaggle export): the rows hold moves.
        assert!(sniffs(
            "eOthello_game_id,winner,game_moves\n1,1,f5d6c3d3c4\n2,0,f5f6e6f4\n"
        ));
        // A table whose rows hold no moves is no game record; nor is an Edax start line.
        assert!(!sniffs("name;club;rating\nAnn;Paris;1800\n"));
        assert!(sniffs(
            "---------------------------OX------XO--------------------------- X; f5d6\n"
        ));
    }

    #[test]
    fn quoted_field_spans_point_at_the_line() {
        // Found by fuzzing: spans in a quoted moves field ignored the dropped quotes, so
        // they landed a byte early after a closing quote or a doubled `""`.
        let text = "Black,Moves\nA,\"f5 \"\"\" zz\u{e9}\n";
        let games = read_str(text, None);
        let game = &games[0];
        let source = &game.source.text;
        let local = |s: Span| &source[s.offset - game.source.offset..s.end() - game.source.offset];
        let spans: Vec<_> = game
            .diagnostics
            .iter()
            .map(|d| local(d.span.unwrap()))
            .collect();
        assert_eq!(spans, ["\"", "z", "z", "\u{e9}"]);
        let text = "Black,Moves\nA,\"f5 d6\" c3\n";
        let games = read_str(text, None);
        let (record, source) = (games[0].record.as_ref().unwrap(), &games[0].source);
        let local = |s: Span| &source.text[s.offset - source.offset..s.end() - source.offset];
        let spans: Vec<_> = record
            .moves
            .iter()
            .map(|m| local(m.span.unwrap()))
            .collect();
        assert_eq!(spans, ["f5", "d6", "c3"]);
    }

    #[test]
    fn reads_cases_spaces_and_passes() {
        let games = read_str("F5d6 C3\n\n# comment\nf5 pa d6 PS @@ -- pass\n", None);
        assert_eq!(games.len(), 2);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(moves_of(&games[1]), "f5 -- d6 -- -- -- --");
        let spans: Vec<_> = games[0]
            .record
            .as_ref()
            .unwrap()
            .moves
            .iter()
            .map(|m| m.span.unwrap().offset)
            .collect();
        assert_eq!(spans, [0, 2, 5]);
        assert_eq!(games[1].source.line, 3);
    }

    #[test]
    fn byte_order_mark_and_commas() {
        let games = read_str("\u{feff}f5, d6,c3\n", None);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(
            games[0].record.as_ref().unwrap().moves[0]
                .span
                .unwrap()
                .offset,
            3
        );
    }

    #[test]
    fn ten_by_ten_rows_have_two_digits() {
        let games = read_str("%% rules: othello:10x10\nj10a1e10\n", None);
        assert_eq!(moves_of(&games[0]), "j10 a1 e10");
        assert_eq!(
            games[0].record.as_ref().unwrap().rules.board(),
            BoardShape::Ten
        );
    }

    #[test]
    fn bad_tokens_are_all_reported_and_only_sink_their_line() {
        let games = read_str("f5x3d6a9\nf5d6\n", None);
        assert!(games[0].record.is_none());
        let codes: Vec<_> = games[0]
            .diagnostics
            .iter()
            .map(|d| (d.code, d.span.unwrap().offset))
            .collect();
        assert_eq!(codes, [(Code::SyntaxBadMove, 2), (Code::SyntaxBadMove, 6)]);
        assert_eq!(games[0].diagnostics[0].game, Some(1));
        assert_eq!(moves_of(&games[1]), "f5 d6");
    }

    #[test]
    fn csv_columns_become_tags() {
        let text = "Black,White,Moves\n\"Doe, J\",Roe,f5d6\n";
        let games = read_str(text, None);
        let record = games[0].record.as_ref().unwrap();
        assert_eq!(record.tag("Black"), Some("Doe, J"));
        assert_eq!(record.tag("White"), Some("Roe"));
        assert_eq!(
            record.moves[0].span.unwrap().offset,
            text.find("f5d6").unwrap()
        );
    }

    #[test]
    fn csv_column_found_by_content() {
        let games = read_str("id\tline2\n1\tf5 d6 c3\n", None);
        assert_eq!(moves_of(&games[0]), "f5 d6 c3");
        assert_eq!(games[0].record.as_ref().unwrap().tag("id"), Some("1"));
    }

    #[test]
    fn edax_prefix_is_a_start_position() {
        let board = "---------------------------OX------XO---------------------------";
        let games = read_str(&format!("{board} O;e6f4\n"), None);
        let record = games[0].record.as_ref().unwrap();
        let start = record.start.as_ref().unwrap();
        assert_eq!(start.setup.turn, Color::White);
        assert_eq!(moves_of(&games[0]), "e6 f4");
    }

    #[test]
    fn writer_writes_pragmas_and_refuses_tags() {
        let mut out = Vec::new();
        {
            let mut w = writer(Box::new(&mut out), &WriteOptions::default());
            let mut r = Record::new("anti:10x10".parse().unwrap());
            r.moves = vec![
                MoveRecord::new(Move::Place("j10".parse().unwrap())),
                MoveRecord::new(Move::Pass),
            ];
            w.write(&r).unwrap();
            r.tags.push(Tag::new("Event", "x"));
            match w.write(&r) {
                Err(WriteError::CannotHold(what)) => assert_eq!(what, ["tags (Event)"]),
                other => panic!("{other:?}"),
            }
            let f5 = MoveRecord::new(Move::Place("f5".parse().unwrap()));
            w.write(&Record {
                moves: vec![f5],
                ..Record::default()
            })
            .unwrap();
            w.finish().unwrap();
        }
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "%% rules: anti:10x10\nj10--\n%% rules: othello\nf5\n"
        );
    }
}
