//! GGF, the Generic Game Format of the Generic Game Server (GGS), as written by GGS, NBoard,
//! Edax and Welty's game kit.
//!
//! A game is `(;` properties `;)`; each property is `ID[value]` with no escaping. Archive
//! lines may carry a count prefix (`1 (;…;)`, `2 (;…;)(;…;)` for a synchro pair); several
//! games may share a file or a line. The reader streams game by game and resynchronises at
//! the next `(;` after garbage or an unterminated game, reporting what it skipped.
//!
//! # Mapping to the record model
//!
//! | GGF | record |
//! |---|---|
//! | `GM` | checked to be `Othello` (any case), not kept |
//! | `PC` | tag `Site` |
//! | `DT` | tag `Date`, verbatim (GGS dates, Unix seconds, NBoard dates all occur) |
//! | `PB`, `PW` | tags `Black`, `White` |
//! | `RB`, `RW` | tags `BlackElo`, `WhiteElo` |
//! | `TI` | tag `TimeControl` |
//! | `TB`, `TW` | tags `BlackTimeControl`, `WhiteTimeControl` |
//! | `TY` | [`Rules`] (without `TY`: [`ReadOptions::rules`] when given and fitting `BO`, else 8x8 Othello): board `4` `6` `8` `10` `88` (octagon), flag `a` (anti); the exact text in tag `GgfType` unless it is the canonical form (`8`, `10a`, `88` …) |
//! | `KB`, `KW` | tags `BlackKomiBid`, `WhiteKomiBid`, verbatim |
//! | `KM` | tag `Komi` |
//! | `RE` | [`ClaimedResult`]: [`ResultScore::Margin`] (Black's net discs, empties to the winner, minus komi; negated in anti games, where GGS's RE follows the winner as Welty-gdk's `getResult` does) and [`Termination`] (`:r` resignation, `:t` time, `:s` agreement, `:l`, `?` and words unfinished) |
//! | `CO` | the game comment |
//! | `BO` | [`StartPosition`] when it differs from the rules' start |
//! | `B`, `W` | moves, with colour, eval (`/eval`) and time (`/eval/time`) |
//! | anything else | a tag named by the ID, in order |
//!
//! Boards 12 and 14 are legal GGF but not supported by the engine: such games are reported
//! (`ggf-unsupported-board`) and have no record.
//!
//! The writer puts one game on a line in GGS order, `GM PC DT PB PW RB RW TI TB TW TY KB KW KM
//! RE CO BO` and the moves, then other tags; it writes evals and times as `/eval/time`
//! suffixes and passes as `PA`. Passes a record leaves out are written where replay finds
//! them. It refuses (or, when lossy, reports) what GGF cannot hold: 3-4 players, blocked
//! squares, handicaps, free openings, raw scoring, discs in hand, flip and position claims,
//! move comments, results that are only a winner or more than two counts, tags with no GGF
//! property, and `]` or `(;` inside values (GGF has no escapes). Disc counts become a margin.

use std::io::{self, BufRead, Write};
use std::sync::Arc;

use super::bracketed::{self, Piece, Splitter};
use super::{
    text_writer, Games, ParsedGame, ReadOptions, RecordWriter, Sniff, TextFormat, WriteError,
    WriteOptions,
};
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::{BoardShape, Color, Move, Preset, Rules, Setup, Square, SquareSet};
use crate::record::{
    ClaimedResult, MoveRecord, Record, ResultScore, Span, StartPosition, Tag, TagName, Termination,
};

/// The tag that keeps a `TY` value the rules alone do not say (synchro, komi, random start,
/// colour preference, or unusual spelling).
pub const TYPE_TAG: &str = crate::record::TagName::GGF_TYPE;

/// GGF properties that map to named tags, in the order the writer puts them.
const TAG_IDS: [(&str, &str); 12] = [
    ("PC", TagName::SITE),
    ("DT", TagName::DATE),
    ("PB", "Black"),
    ("PW", "White"),
    ("RB", "BlackElo"),
    ("RW", "WhiteElo"),
    ("TI", TagName::TIME_CONTROL),
    ("TB", "BlackTimeControl"),
    ("TW", "WhiteTimeControl"),
    ("KB", "BlackKomiBid"),
    ("KW", "WhiteKomiBid"),
    ("KM", TagName::KOMI),
];

/// Properties with a meaning of their own (not tags).
const STRUCTURAL_IDS: [&str; 7] = ["GM", "TY", "RE", "BO", "B", "W", "CO"];

/// Whether the input looks like GGF: an optional count prefix, then `(;` and GGF properties.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = String::from_utf8_lossy(input.head);
    let text = head.trim_start_matches('\u{feff}').trim_start();
    let text = text
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    if !text.starts_with("(;") {
        return false;
    }
    let upper = text.to_ascii_uppercase();
    upper.contains("GM[OTHELLO]")
        || (!upper.contains("GM[2]") && !upper.contains("FF[") && upper.contains("BO["))
}

// ---------------------------------------------------------------------------------------
// Streaming

/// How a game's text ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
enum End {
    /// At `;)`.
    Closed,
    /// At the end of the input.
    #[default]
    Eof,
    /// At the `(;` of the next game.
    NextGame,
}

/// Reads the next piece: GGF games end at `;)` (values, in brackets, have no escapes); a
/// `(;` before that starts the next game.
fn next_piece(splitter: &mut Splitter<'_>) -> io::Result<Option<Piece<End>>> {
    let Some(mut piece) = splitter.next_opening()? else {
        return Ok(None);
    };
    if piece.game_at.is_none() {
        return Ok(Some(piece));
    }
    let mut in_value = false;
    let mut prev = 0u8;
    let mut end = End::Eof;
    splitter.scan_game(&mut piece, |b| {
        if prev == b'(' && b == b';' {
            end = End::NextGame;
            return true;
        }
        if in_value {
            in_value = b != b']';
        } else if b == b'[' {
            in_value = true;
        } else if prev == b';' && b == b')' {
            end = End::Closed;
            return true;
        }
        prev = b;
        false
    })?;
    if end == End::NextGame {
        splitter.carry_opening(&mut piece);
    }
    piece.end = end;
    Ok(Some(piece))
}

/// Reads GGF games one at a time.
///
/// ```
/// use reversi_record::formats::{ggf, ReadOptions};
/// let text = "1 (;GM[Othello]PB[Saio]TY[8]RE[+18.000]B[f5/1.50/0.01];)\n";
/// let mut games = ggf::read(Box::new(text.as_bytes()), &ReadOptions::default());
/// let game = games.next().unwrap().unwrap();
/// let record = game.record.unwrap();
/// assert_eq!(record.tag("Black"), Some("Saio"));
/// assert_eq!(record.moves[0].eval, Some(1.5));
/// assert!(game.diagnostics.is_empty() && games.next().is_none());
/// ```
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(Reader {
        splitter: Splitter::new(input, b"(;"),
        name: options.name.clone(),
        index: 0,
        held: None,
        error: None,
        done: false,
        group: None,
        last_end_line: None,
        rules: options.rules,
    })
}

/// Games of one archive line: the count its prefix announces and how many came.
struct Group {
    count: usize,
    seen: usize,
}

/// The GGF game stream. It holds one game back, so that an archive line with fewer games
/// than its count prefix says can be reported on its last game.
struct Reader<'a> {
    splitter: Splitter<'a>,
    name: Arc<str>,
    index: usize,
    held: Option<ParsedGame>,
    /// An input error to report after the held game.
    error: Option<io::Error>,
    /// Set once an input error has been reported.
    done: bool,
    group: Option<Group>,
    /// The line the previous game ended on.
    last_end_line: Option<usize>,
    /// The rules of games without `TY` (`--rules`).
    rules: Option<Rules>,
}

impl Reader<'_> {
    /// Ends the current archive line, reporting on the held game if games are missing.
    fn close_group(&mut self) {
        let (Some(group), Some(held)) = (self.group.take(), self.held.as_mut()) else {
            return;
        };
        if group.seen < group.count {
            let src = &held.source;
            let end = src.offset + src.text.trim_end().len();
            let d = Diagnostic::warning(
                "ggf-count-mismatch",
                format!(
                    "the archive line announces {} but holds {}",
                    games(group.count),
                    group.seen
                ),
            )
            .at(
                Some(Span::new(end.saturating_sub(2), 2.min(end))),
                "the line ends here",
            )
            .help("the number before `(;` counts the games of its line (2 for a synchro pair)")
            .in_game(held.index);
            held.diagnostics.push(d);
        }
    }
}

impl Iterator for Reader<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        loop {
            if let Some(e) = self.error.take() {
                self.done = true;
                return Some(Err(e));
            }
            if self.done {
                return None;
            }
            let piece = match next_piece(&mut self.splitter) {
                Ok(Some(piece)) => piece,
                Ok(None) => {
                    self.close_group();
                    return self.held.take().map(Ok);
                }
                Err(e) => {
                    self.close_group();
                    match self.held.take() {
                        Some(held) => {
                            self.error = Some(e);
                            return Some(Ok(held));
                        }
                        None => {
                            self.done = true;
                            return Some(Err(e));
                        }
                    }
                }
            };
            self.index += 1;
            let start_line = piece.line;
            let has_game = piece.game_at.is_some();
            let (mut game, (prefix, garbage)) =
                parse_piece(piece, &self.name, self.index, self.rules);
            let end_line = game.source.line
                + game
                    .source
                    .text
                    .trim_end()
                    .bytes()
                    .filter(|&b| b == b'\n')
                    .count();
            let joins =
                has_game && prefix.is_none() && !garbage && self.last_end_line == Some(start_line);
            match self.group.as_mut() {
                Some(group) if joins => {
                    group.seen += 1;
                    if group.seen > group.count {
                        let at =
                            game.source.offset + game.source.text.find("(;").unwrap_or_default();
                        let d = Diagnostic::warning(
                            "ggf-count-mismatch",
                            format!(
                                "the archive line announces {}; this is game {} of the line",
                                games(group.count),
                                group.seen
                            ),
                        )
                        .at(Some(Span::new(at, 2)), "one game too many")
                        .help("the number before `(;` counts the games of its line (2 for a synchro pair)")
                        .in_game(self.index);
                        game.diagnostics.push(d);
                    }
                }
                _ => {
                    self.close_group();
                    self.group = prefix
                        .filter(|_| has_game)
                        .map(|count| Group { count, seen: 1 });
                }
            }
            self.last_end_line = has_game.then_some(end_line);
            if let Some(out) = self.held.replace(game) {
                return Some(Ok(out));
            }
        }
    }
}

/// `1 game`, `2 games`.
fn games(n: usize) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// Parses one piece; also returns the count prefix before the game and whether garbage
/// came before it.
fn parse_piece(
    piece: Piece<End>,
    name: &Arc<str>,
    index: usize,
    default_rules: Option<Rules>,
) -> (ParsedGame, (Option<usize>, bool)) {
    let (dropped, end) = (piece.dropped, piece.end);
    bracketed::parse_piece(piece, name, index, |text, base, game_at, diagnostics| {
        let pre = &text[..game_at.unwrap_or(text.len())];
        let before = before_game(pre, base, dropped, diagnostics);
        let record = game_at.and_then(|at| {
            let mut parser = GameParser {
                text,
                base,
                diagnostics,
                default_rules,
            };
            parser.parse_game(at, end)
        });
        (record, before)
    })
}

/// Reads the text before a game: a count prefix (returned) and garbage (reported; whether
/// there was any is returned too).
fn before_game(
    pre: &str,
    base: usize,
    dropped: usize,
    diagnostics: &mut Collected,
) -> (Option<usize>, bool) {
    let trimmed = pre.trim_end();
    let without_count = trimmed.trim_end_matches(|c: char| c.is_ascii_digit());
    let count = if without_count.len() < trimmed.len()
        && (without_count.is_empty() || without_count.ends_with(char::is_whitespace))
    {
        trimmed[without_count.len()..].parse::<usize>().ok()
    } else {
        None
    };
    let junk = if count.is_some() {
        without_count.trim_end()
    } else {
        trimmed
    };
    if junk.is_empty() && dropped == 0 {
        return (count, false);
    }
    diagnostics.push(bracketed::garbage_error(
        "ggf-garbage",
        "a GGF game",
        "a GGF game is `(;GM[Othello]…;)`; this text was skipped",
        junk,
        base,
        dropped,
    ));
    (count, true)
}

// ---------------------------------------------------------------------------------------
// Parsing one game

/// One `ID[value]` property.
#[derive(Clone, Copy, Debug)]
struct Prop<'t> {
    id: &'t str,
    value: &'t str,
    /// The value's text (without brackets).
    value_span: Span,
    /// The whole property.
    span: Span,
}

struct GameParser<'t, 'd> {
    text: &'t str,
    base: usize,
    diagnostics: &'d mut Collected,
    /// The rules of a game without `TY` (`--rules`), when they fit its `BO` board.
    default_rules: Option<Rules>,
}

impl<'t> GameParser<'t, '_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.base + start, end.saturating_sub(start))
    }

    fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Splits the game into properties, reporting syntax errors.
    fn properties(&mut self, at: usize, end: End) -> Vec<Prop<'t>> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut props = Vec::new();
        let mut i = at + 2;
        loop {
            while i < bytes.len() && bytes[i].is_ascii_whitespace() {
                i += 1;
            }
            if i >= bytes.len() {
                let why = match end {
                    End::NextGame => "the next game begins before this one ends with `;)`",
                    _ => "the input ends before the game ends with `;)`",
                };
                let d = Diagnostic::error("syntax-unterminated-game", "unterminated GGF game")
                    .at(Some(self.span(at, at + 2)), "this game is never closed")
                    .help(format!("{why}; close it with `;)`"));
                self.push(d);
                return props;
            }
            if bytes[i..].starts_with(b";)") {
                return props;
            }
            if bytes[i].is_ascii_alphabetic() {
                let start = i;
                while i < bytes.len() && bytes[i].is_ascii_alphanumeric() {
                    i += 1;
                }
                let id = &text[start..i];
                let id_end = i;
                while i < bytes.len() && matches!(bytes[i], b' ' | b'\t') {
                    i += 1;
                }
                if bytes.get(i) != Some(&b'[') {
                    let d = bracketed::missing_value(id, self.span(start, id_end));
                    self.push(d);
                    continue;
                }
                let open = i;
                match text[open + 1..].find(']') {
                    Some(len) => {
                        let close = open + 1 + len;
                        props.push(Prop {
                            id,
                            value: &text[open + 1..close],
                            value_span: self.span(open + 1, close),
                            span: self.span(start, close + 1),
                        });
                        i = close + 1;
                    }
                    None => {
                        let d = Diagnostic::error(
                            "syntax-unterminated-value",
                            format!("the value of `{id}` has no closing `]`"),
                        )
                        .at(Some(self.span(start, open + 1)), "opened here")
                        .help("close the value with `]`; GGF values cannot contain `]`");
                        self.push(d);
                        return props;
                    }
                }
                continue;
            }
            // Stray text: skip to the next property or the end.
            let start = i;
            i += 1;
            while i < bytes.len()
                && !bytes[i].is_ascii_alphabetic()
                && !bytes[i].is_ascii_whitespace()
                && !bytes[i..].starts_with(b";)")
            {
                i += 1;
            }
            while !text.is_char_boundary(i) {
                i += 1;
            }
            let d = Diagnostic::error("syntax-unexpected-text", "unexpected text in a GGF game")
                .at(Some(self.span(start, i)), "not a property")
                .help("a GGF game holds only `ID[value]` properties between `(;` and `;)`");
            self.push(d);
        }
    }

    fn parse_game(&mut self, at: usize, end: End) -> Option<Record> {
        let props = self.properties(at, end);
        let mut record = Record {
            span: Some(self.span(at, self.text.len())),
            ..Record::default()
        };
        let find = |id: &str| props.iter().find(|p| p.id == id);

        if let Some(gm) = find("GM") {
            if !gm.value.trim().eq_ignore_ascii_case("othello") {
                let d = Diagnostic::error(
                    "ggf-not-othello",
                    format!("this is a game of `{}`, not Othello", gm.value),
                )
                .at(Some(gm.value_span), "expected `Othello`")
                .help("only Othello games (`GM[Othello]`) can be read");
                self.push(d);
                return None;
            }
        }

        // Rules from TY (default 8x8), or from BO's board when TY is missing.
        let ty = find("TY");
        let mut board = BoardShape::Eight;
        let mut anti = false;
        if let Some(ty) = ty {
            let parsed = GgfType::parse(ty.value);
            for (message, range) in &parsed.errors {
                let span = Span::new(ty.value_span.offset + range.start, range.end - range.start);
                let code = if message.starts_with("has an unknown") {
                    "ggf-unknown-type"
                } else {
                    "ggf-bad-type"
                };
                let d = Diagnostic::error(code, format!("game type `{}` {message}", ty.value))
                    .at(Some(span), "here")
                    .help("TY is a board (4, 6, 8, 10, 12, 14 or 88) and flags s, k, b, w, a, r N");
                self.push(d);
            }
            match parsed.board {
                Some(TyBoard::Shape(shape)) => board = shape,
                Some(TyBoard::Unsupported(n)) => {
                    let d = Diagnostic::error(
                        "ggf-unsupported-board",
                        format!("{n}x{n} boards are not supported"),
                    )
                    .at(Some(ty.value_span), "this game type")
                    .help("the toolkit plays 4x4, 6x6, 8x8, 10x10 and the octagon (88)");
                    self.push(d);
                    return None;
                }
                None => {}
            }
            anti = parsed.anti;
            record.rules_span = Some(ty.value_span);
        } else if let Some(bo) = find("BO") {
            if let Some(TyBoard::Shape(shape)) = bo
                .value
                .split_whitespace()
                .next()
                .and_then(TyBoard::from_token)
            {
                board = shape;
            }
        }
        let preset = if anti { Preset::Anti } else { Preset::Othello };
        record.rules = Rules::preset(preset, board).unwrap_or_default();
        if let (None, Some(rules)) = (ty, self.default_rules) {
            // No TY: the game does not state its rules; --rules applies when it fits BO.
            let bo_board = find("BO").and_then(|bo| {
                match bo
                    .value
                    .split_whitespace()
                    .next()
                    .and_then(TyBoard::from_token)
                {
                    Some(TyBoard::Shape(shape)) => Some(shape),
                    _ => None,
                }
            });
            if rules.players() == 2 && bo_board.map_or(true, |b| b == rules.board()) {
                record.rules = rules;
            }
        }
        if let Some(ty) = ty {
            if ty.value != canonical_type(&record.rules) {
                record.tags.push(Tag {
                    name: TYPE_TAG.into(),
                    value: ty.value.into(),
                    span: Some(ty.span),
                });
            }
        }

        let mut seen: Vec<&str> = Vec::new();
        for prop in &props {
            let first = matches!(prop.id, "B" | "W") || !seen.contains(&prop.id);
            if !first {
                let d = Diagnostic::warning(
                    "ggf-duplicate-property",
                    format!("property `{}` appears more than once", prop.id),
                )
                .at(Some(prop.span), "again here")
                .help("a GGF game gives each property once; the repeats are kept as tags");
                self.push(d);
            } else if !matches!(prop.id, "B" | "W") {
                seen.push(prop.id);
            }
            match prop.id {
                "GM" | "TY" if first => {}
                "B" | "W" => {
                    let color = if prop.id == "B" {
                        Color::Black
                    } else {
                        Color::White
                    };
                    if let Some(m) = self.parse_move(prop, color) {
                        record.moves.push(m);
                    }
                }
                "BO" if first => record.start = self.parse_board(prop, &record.rules),
                "RE" if first => record.result = self.parse_result(prop, record.rules.is_anti()),
                "CO" if first => record.comment = Some(prop.value.into()),
                id => {
                    let name = TAG_IDS
                        .iter()
                        .find(|(tid, _)| *tid == id)
                        .map_or(id, |(_, name)| name);
                    if matches!(id, "KB" | "KW") {
                        self.check_komi_bid(prop);
                    }
                    record.tags.push(Tag {
                        name: name.into(),
                        value: prop.value.into(),
                        span: Some(prop.span),
                    });
                }
            }
        }
        Some(record)
    }

    /// Splits `move/eval/time`.
    fn parse_move(&mut self, prop: &Prop<'_>, color: Color) -> Option<MoveRecord> {
        let mut parts = [""; 3];
        let mut spans = [prop.value_span; 3];
        let mut count = 0;
        let mut offset = prop.value_span.offset;
        for part in prop.value.split('/') {
            if count < 3 {
                parts[count] = part;
                spans[count] = Span::new(offset, part.len());
            }
            offset += part.len() + 1;
            count += 1;
        }
        let bad = |what: String, span: Span, label: &str| {
            Diagnostic::error("ggf-bad-move", what)
                .at(Some(span), label)
                .help("a move is `B[f5]`, `W[d3/-2.50/1.20]` (eval and seconds used) or `B[PA]`")
        };
        if count > 3 {
            let d = bad(
                format!("move `{}` has too many `/` parts", prop.value),
                prop.value_span,
                "expected move/eval/time",
            );
            self.push(d);
            return None;
        }
        let token = parts[0].trim();
        let Some(mv) = parse_move_token(token) else {
            let d = bad(
                format!("`{token}` is not a move"),
                spans[0],
                "expected a square such as `f5` or a pass",
            );
            self.push(d);
            return None;
        };
        let mut numbers = [None, None];
        for (k, what) in ["eval", "time"].into_iter().enumerate() {
            let text = parts[k + 1].trim();
            if text.is_empty() {
                continue;
            }
            match parse_number(text) {
                Some(x) => numbers[k] = Some(x),
                None => {
                    let d = bad(
                        format!("the {what} `{text}` of move `{token}` is not a number"),
                        spans[k + 1],
                        "expected a number",
                    );
                    self.push(d);
                }
            }
        }
        Some(MoveRecord {
            color: Some(color),
            eval: numbers[0],
            time: numbers[1],
            ..MoveRecord::new(mv).at(spans[0])
        })
    }

    /// Checks a komi bid (`KB`, `KW`): the grammar of a move, `move/eval/time`, any part
    /// empty (GGS writes `KB[e6//0.90]`). The value is kept verbatim.
    fn check_komi_bid(&mut self, prop: &Prop<'_>) {
        let parts: Vec<&str> = prop.value.split('/').map(str::trim).collect();
        let fits = parts.len() <= 3
            && parts
                .first()
                .is_some_and(|m| m.is_empty() || parse_move_token(m).is_some())
            && parts
                .iter()
                .skip(1)
                .all(|n| n.is_empty() || parse_number(n).is_some());
        if !fits {
            let d = Diagnostic::error(
                "ggf-bad-move",
                format!(
                    "komi bid `{}` is not a move, an eval and a time",
                    prop.value
                ),
            )
            .at(Some(prop.value_span), "expected move/eval/time")
            .help(
                "a komi bid is written as a move, `move/eval/time` with any part empty, such as `KB[e6//0.90]` or `KB[F5/2.00/27.23]`",
            );
            self.push(d);
        }
    }

    /// Reads `BO[<type> <cells> <side>]`.
    fn parse_board(&mut self, prop: &Prop<'_>, rules: &Rules) -> Option<StartPosition> {
        let value = prop.value;
        let bad = |message: String, span: Span, label: &str| {
            Diagnostic::error("ggf-bad-board", message).at(Some(span), label).help(
                "BO is the board type, its cells row by row (`*` black, `O` white, `-` empty) and the side to move (`*` or `O`)",
            )
        };
        let lead = value.len() - value.trim_start().len();
        let type_len = value[lead..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(value.len() - lead);
        let type_token = &value[lead..lead + type_len];
        let at = |i: usize, len: usize| Span::new(prop.value_span.offset + i, len);
        let board = rules.board();
        if TyBoard::from_token(type_token) != Some(TyBoard::Shape(board)) {
            let d = bad(
                format!(
                    "the board type `{type_token}` does not match the game's {} board",
                    board
                ),
                at(lead, type_len),
                "board type",
            );
            self.push(d);
            return None;
        }
        let cells: Vec<Square> = board.cells().iter().collect();
        let mut setup = Setup {
            discs: [SquareSet::EMPTY; 4],
            neutral: SquareSet::EMPTY,
            turn: Color::Black,
        };
        let mut chars = value[lead + type_len..]
            .char_indices()
            .map(|(i, c)| (i + lead + type_len, c))
            .filter(|(_, c)| !c.is_whitespace());
        for &sq in &cells {
            let Some((i, c)) = chars.next() else {
                let d = bad(
                    format!(
                        "the board lists fewer than the {} squares of the {} board",
                        cells.len(),
                        board
                    ),
                    prop.value_span,
                    "too short",
                );
                self.push(d);
                return None;
            };
            match disc_symbol(c) {
                Some(Some(color)) => setup.discs[color.index()].insert(sq),
                Some(None) => {}
                None => {
                    let d = bad(
                        format!("`{c}` is not a disc or an empty square"),
                        at(i, c.len_utf8()),
                        "expected `*`, `O` or `-`",
                    );
                    self.push(d);
                    return None;
                }
            }
        }
        match chars.next() {
            Some((_, c)) if disc_symbol(c).is_some_and(|d| d.is_some()) => {
                setup.turn = disc_symbol(c).flatten().unwrap_or(Color::Black);
            }
            Some((i, c)) => {
                let d = bad(
                    format!("expected the side to move after the board, but found `{c}`"),
                    at(i, c.len_utf8()),
                    "expected `*` or `O`",
                );
                self.push(d);
                return None;
            }
            None => {
                let d = bad(
                    "the board does not say who moves".into(),
                    prop.value_span,
                    "expected `*` or `O` at the end",
                );
                self.push(d);
                return None;
            }
        }
        if let Some((i, _)) = chars.next() {
            let d = bad(
                "unexpected text after the side to move".into(),
                at(i, value.len() - i),
                "extra text",
            );
            self.push(d);
            return None;
        }
        let (discs, _) = rules.start_discs();
        if setup.discs == discs && setup.turn == Color::Black {
            return None;
        }
        Some(StartPosition {
            setup,
            in_hand: None,
            span: Some(prop.value_span),
        })
    }

    /// Reads `RE[±score[:flag]]`, `RE[?]` or a word. In anti games RE is negated so that
    /// it still says how much Black won by (Welty-gdk); the record keeps Black's margin.
    fn parse_result(&mut self, prop: &Prop<'_>, anti: bool) -> Option<ClaimedResult> {
        let value = prop.value.trim();
        let unfinished = ClaimedResult {
            score: ResultScore::None,
            termination: Termination::Unfinished,
            span: Some(prop.value_span),
        };
        if value == "?"
            || value.eq_ignore_ascii_case("aborted")
            || value.eq_ignore_ascii_case("adjourned")
        {
            return Some(unfinished);
        }
        let (score, flag) = match value.split_once(':') {
            Some((s, f)) => (s.trim(), Some(f.trim())),
            None => (value, None),
        };
        let Some(re) = parse_number(score) else {
            let d = Diagnostic::error("ggf-bad-result", format!("`{value}` is not a result"))
                .at(Some(prop.value_span), "expected a score such as `+18.000`")
                .help("RE is Black's net score, with `:r`, `:t` or `:s` for resigned, time or agreed; `?` when unfinished");
            self.push(d);
            return None;
        };
        let termination = match flag.map(|f| f.to_ascii_lowercase()) {
            None => Termination::Normal,
            Some(f) => match f.as_str() {
                "r" => Termination::Resignation(None),
                "t" => Termination::Time(None),
                "s" => Termination::Agreement,
                "l" => Termination::Unfinished,
                _ => {
                    let d = Diagnostic::error(
                        "ggf-unknown-flag",
                        format!("`:{f}` is not a result flag"),
                    )
                    .at(Some(prop.value_span), "unknown flag")
                    .help("the flags are `:r` (resigned), `:t` (time), `:s` (agreed score) and `:l` (adjourned)");
                    self.push(d);
                    Termination::Normal
                }
            },
        };
        let margin = if anti && re != 0.0 { -re } else { re };
        Some(ClaimedResult {
            score: ResultScore::Margin(margin),
            termination,
            span: Some(prop.value_span),
        })
    }
}

/// `*xX` black, `OoO0` white, `-._` empty; `None` for anything else.
fn disc_symbol(c: char) -> Option<Option<Color>> {
    match c {
        '*' | 'x' | 'X' => Some(Some(Color::Black)),
        'O' | 'o' | '0' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// A finite decimal number (`+18.000`, `-2.5`, `.5`).
pub(super) fn parse_number(text: &str) -> Option<f64> {
    let ok = text
        .chars()
        .all(|c| c.is_ascii_digit() || matches!(c, '+' | '-' | '.'))
        && text.chars().any(|c| c.is_ascii_digit());
    text.parse::<f64>().ok().filter(|x| ok && x.is_finite())
}

/// A move: a square (any case, `D10`), or a pass (`PA`, `pass` and its prefixes, `ps`, `--`).
fn parse_move_token(token: &str) -> Option<Move> {
    let lower = token.to_ascii_lowercase();
    if (!lower.is_empty() && "pass".starts_with(&lower)) || lower == "ps" || lower == "--" {
        return Some(Move::Pass);
    }
    Square::from_ascii(token.as_bytes()).ok().map(Move::Place)
}

// ---------------------------------------------------------------------------------------
// TY

/// A `TY` board token.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum TyBoard {
    Shape(BoardShape),
    /// 12 or 14: legal GGF the engine does not play.
    Unsupported(u32),
}

impl TyBoard {
    fn from_token(token: &str) -> Option<TyBoard> {
        Some(match token {
            "4" => TyBoard::Shape(BoardShape::Four),
            "6" => TyBoard::Shape(BoardShape::Six),
            "8" => TyBoard::Shape(BoardShape::Eight),
            "10" => TyBoard::Shape(BoardShape::Ten),
            "88" => TyBoard::Shape(BoardShape::Octagon),
            "12" => TyBoard::Unsupported(12),
            "14" => TyBoard::Unsupported(14),
            _ => return None,
        })
    }
}

/// The board token of a shape.
fn board_token(board: BoardShape) -> &'static str {
    match board {
        BoardShape::Four => "4",
        BoardShape::Six => "6",
        BoardShape::Eight => "8",
        BoardShape::Ten => "10",
        BoardShape::Octagon => "88",
    }
}

/// The `TY` the writer derives from the rules alone: the board, then `a` for anti.
fn canonical_type(rules: &Rules) -> String {
    let anti = if rules.is_anti() { "a" } else { "" };
    format!("{}{anti}", board_token(rules.board()))
}

/// A parsed `TY` value (Welty-gdk `OsMatchType`).
#[derive(Clone, Debug, Default)]
struct GgfType {
    board: Option<TyBoard>,
    anti: bool,
    /// Errors: message and byte range in the value.
    errors: Vec<(String, std::ops::Range<usize>)>,
}

impl GgfType {
    fn parse(text: &str) -> GgfType {
        let mut ty = GgfType::default();
        let bytes = text.as_bytes();
        let mut colour_flags: Vec<char> = Vec::new();
        let mut i = 0;
        while i < bytes.len() {
            let start = i;
            let c = bytes[i];
            if c.is_ascii_whitespace() {
                i += 1;
                continue;
            }
            if c.is_ascii_digit() {
                while i < bytes.len() && bytes[i].is_ascii_digit() {
                    i += 1;
                }
                let token = &text[start..i];
                match TyBoard::from_token(token) {
                    Some(_) if ty.board.is_some() => {
                        ty.errors.push(("names a second board".into(), start..i))
                    }
                    Some(b) => ty.board = Some(b),
                    None => ty
                        .errors
                        .push((format!("has an unknown board `{token}`"), start..i)),
                }
                continue;
            }
            i += 1;
            while !text.is_char_boundary(i) {
                i += 1;
            }
            match c.to_ascii_lowercase() {
                b'a' => ty.anti = true,
                flag @ (b's' | b'k' | b'b' | b'w') => colour_flags.push(flag as char),
                b'r' => {
                    while i < bytes.len() && bytes[i] == b' ' {
                        i += 1;
                    }
                    let digits = i;
                    while i < bytes.len() && bytes[i].is_ascii_digit() {
                        i += 1;
                    }
                    if digits == i {
                        ty.errors
                            .push(("has `r` without a number of discs".into(), start..i));
                    }
                }
                _ => ty.errors.push((
                    format!("has an unknown token `{}`", &text[start..i]),
                    start..i,
                )),
            }
        }
        if colour_flags.len() > 1 {
            let flags: String = colour_flags.iter().collect();
            ty.errors.push((
                format!("combines flags `{flags}`: at most one of s, k, b, w is allowed"),
                0..text.len(),
            ));
        }
        if ty.board.is_none() && ty.errors.is_empty() {
            ty.errors
                .push(("names no board (8 is assumed)".into(), 0..text.len()));
        }
        ty
    }
}

// ---------------------------------------------------------------------------------------
// Writing

/// A writer of GGF games, one a line.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    super::capabilities::checked(super::Format::Ggf, text_writer(out, options, Ggf))
}

/// GGF games, one a line.
struct Ggf;

impl TextFormat for Ggf {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        // Rules GGF cannot say were refused by the capability table already.
        Ok(to_ggf(record))
    }
}

/// `x` with `decimals` decimals when that is exact, else its shortest exact form.
pub(super) fn format_number(x: f64, decimals: usize, sign: bool) -> String {
    let fixed = if sign {
        format!("{x:+.decimals$}")
    } else {
        format!("{x:.decimals$}")
    };
    if fixed.parse::<f64>() == Ok(x) {
        fixed
    } else if sign {
        format!("{x:+}")
    } else {
        format!("{x}")
    }
}

/// What a record holds beyond what GGF and SGF can, around the game: position and flip
/// claims. (Rules, starts and discs in hand they cannot hold are refused by the
/// [capability table](super::capabilities) before a writer sees the record.)
pub(super) fn record_losses(record: &Record, losses: &mut Vec<String>) {
    if !record.positions.is_empty() {
        losses.push("position claims".into());
    }
    if record.moves.iter().any(|m| m.flips.is_some()) {
        losses.push("flip claims".into());
    }
}

/// The GGF text of `record` and what it could not hold.
fn to_ggf(record: &Record) -> (String, Vec<String>) {
    let mut losses = Vec::new();
    let rules = &record.rules;
    record_losses(record, &mut losses);
    let mut out = String::from("(;GM[Othello]");
    // Tags that map to GGF properties, in GGS order, TY after the clocks.
    let mut written: Vec<&str> = vec![TYPE_TAG];
    for (id, name) in TAG_IDS {
        if id == "KB" {
            let ty = type_text(record, &mut losses);
            prop(&mut out, &mut losses, "TY", &ty, "the game type");
        }
        if let Some(value) = record.tag(name) {
            prop(&mut out, &mut losses, id, value, &format!("the {name} tag"));
        }
        written.push(name);
    }
    if let Some(re) = result_text(record, &mut losses) {
        out.push_str(&format!("RE[{re}]"));
    }
    if let Some(comment) = &record.comment {
        prop(&mut out, &mut losses, "CO", comment, "the game comment");
    }
    out.push_str(&board_text(rules, &record.start_setup()));
    write_moves(record, &mut out, &mut losses);
    // Other tags, after the moves.
    let mut names_seen: Vec<&str> = Vec::new();
    for tag in &record.tags {
        let name = tag.name.as_str();
        let known = written.iter().any(|w| w.eq_ignore_ascii_case(name));
        let repeated = names_seen.iter().any(|w| w.eq_ignore_ascii_case(name));
        names_seen.push(name);
        if known {
            if repeated {
                losses.push(format!("a second `{name}` tag"));
            }
            continue;
        }
        let valid_id = name.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
            && name
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && !STRUCTURAL_IDS.contains(&name)
            && !TAG_IDS.iter().any(|(id, _)| *id == name);
        if valid_id {
            prop(
                &mut out,
                &mut losses,
                name,
                &tag.value,
                &format!("the {name} tag"),
            );
        } else {
            losses.push(format!("the `{name}` tag"));
        }
    }
    out.push_str(";)\n");
    (out, losses)
}

/// The `TY` value: the `GgfType` tag when it agrees with the rules, else the canonical form.
fn type_text(record: &Record, losses: &mut Vec<String>) -> String {
    let canonical = canonical_type(&record.rules);
    let Some(kept) = record.tag(TYPE_TAG) else {
        return canonical;
    };
    let parsed = GgfType::parse(kept);
    let agrees = parsed.errors.is_empty()
        && parsed.board == Some(TyBoard::Shape(record.rules.board()))
        && parsed.anti == record.rules.is_anti();
    if agrees {
        kept.to_owned()
    } else {
        losses.push(format!(
            "the game type `{kept}`, which disagrees with the rules"
        ));
        canonical
    }
}

/// The `RE` value, if the record claims a result GGF can hold.
fn result_text(record: &Record, losses: &mut Vec<String>) -> Option<String> {
    let result = record.result.as_ref()?;
    let margin = match &result.score {
        ResultScore::Margin(m) => Some(*m),
        ResultScore::Discs(d) if d.len() == 2 => {
            let komi = record
                .tag(TagName::KOMI)
                .and_then(|k| parse_number(k.trim()))
                .unwrap_or(0.0);
            Some(f64::from(d[0]) - f64::from(d[1]) - komi)
        }
        ResultScore::Discs(d) => {
            losses.push(format!("a result of {} disc counts", d.len()));
            return None;
        }
        ResultScore::Winner(None) => Some(0.0),
        ResultScore::Winner(Some(_)) => {
            losses.push("a result that names only the winner".into());
            return None;
        }
        ResultScore::None => None,
    };
    let Some(margin) = margin else {
        return match result.termination {
            Termination::Unfinished => Some("?".into()),
            Termination::Normal => None,
            _ => {
                losses.push("a result without a score".into());
                None
            }
        };
    };
    // RE says how much Black won by: in anti games, the negated margin.
    let re = if record.rules.is_anti() && margin != 0.0 {
        -margin
    } else {
        margin
    };
    let loser = |c: Option<Color>, losses: &mut Vec<String>, what: &str| {
        let implied = if re > 0.0 {
            Some(Color::White)
        } else if re < 0.0 {
            Some(Color::Black)
        } else {
            None
        };
        if c.is_some() && c != implied {
            losses.push(format!("who {what} (the score says otherwise)"));
        }
    };
    let flag = match result.termination {
        Termination::Normal => "",
        Termination::Resignation(c) => {
            loser(c, losses, "resigned");
            ":r"
        }
        Termination::Time(c) => {
            loser(c, losses, "lost on time");
            ":t"
        }
        Termination::Agreement => ":s",
        Termination::Unfinished => ":l",
    };
    Some(format!("{}{flag}", format_number(re, 3, true)))
}

/// Appends `ID[value]`. GGF has no escapes: a `]` would end the value and a `(;` would
/// start a new game for readers that resynchronise, so both are reported and defused.
fn prop(out: &mut String, losses: &mut Vec<String>, id: &str, value: &str, what: &str) {
    if value.contains(']') {
        losses.push(format!("a `]` in {what}"));
    }
    if value.contains("(;") {
        losses.push(format!("a `(;` in {what}"));
    }
    out.push_str(id);
    out.push('[');
    out.push_str(&value.replace(']', ")").replace("(;", "( ;"));
    out.push(']');
}

/// `BO[8 -------- … *]`.
fn board_text(rules: &Rules, setup: &Setup) -> String {
    let board = rules.board();
    let mut out = format!("BO[{}", board_token(board));
    let mut row = u8::MAX;
    for sq in board.cells() {
        if sq.row() != row {
            out.push(' ');
            row = sq.row();
        }
        out.push(if setup.discs[0].contains(sq) {
            '*'
        } else if setup.discs[1].contains(sq) {
            'O'
        } else {
            '-'
        });
    }
    out.push_str(if setup.turn == Color::White {
        " O]"
    } else {
        " *]"
    });
    out
}

/// The moves to write: each with the colour the record claims or replay gives, and the
/// passes replay finds where a record without colours leaves them out (`None`).
pub(super) fn colored_moves(record: &Record) -> Vec<(Color, Option<&MoveRecord>)> {
    let mut pos = record.start_position().ok();
    let mut expected = record.start_setup().turn;
    let mut out = Vec::with_capacity(record.moves.len());
    for m in &record.moves {
        let color = match m.color {
            Some(c) => c,
            None => match pos.as_mut() {
                Some(p) => {
                    if m.mv != Move::Pass && p.must_pass() && !p.is_over() {
                        out.push((p.turn(), None));
                        let _ = p.play(Move::Pass);
                    }
                    p.turn()
                }
                None => expected,
            },
        };
        out.push((color, Some(m)));
        if let Some(p) = pos.as_mut() {
            if p.turn() != color || p.play(m.mv).is_err() {
                pos = None;
            }
        }
        expected = color.next(2);
    }
    out
}

/// `B[f5/eval/time]` for each move; `PA` passes.
fn write_moves(record: &Record, out: &mut String, losses: &mut Vec<String>) {
    let mut number = 0;
    for (color, m) in colored_moves(record) {
        out.push_str(if color == Color::White { "W[" } else { "B[" });
        let Some(m) = m else {
            out.push_str("PA]");
            continue;
        };
        number += 1;
        if m.comment.is_some() {
            losses.push(format!("a comment on move {number}"));
        }
        match m.mv {
            Move::Place(sq) => out.push_str(&sq.to_string()),
            Move::Pass => out.push_str("PA"),
        }
        if m.eval.is_some() || m.time.is_some() {
            out.push('/');
            if let Some(e) = m.eval {
                out.push_str(&format_number(e, 2, false));
            }
            if let Some(t) = m.time {
                out.push('/');
                out.push_str(&format_number(t, 2, false));
            }
        }
        out.push(']');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read_str(text: &str) -> Vec<ParsedGame> {
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        read(input, &ReadOptions::default())
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    /// Gives its text, then fails.
    struct Failing(&'static [u8]);

    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn input_errors_end_the_stream_after_the_games_read() {
        let input = io::BufReader::new(Failing(b"(;GM[Othello]B[f5];)\n(;GM[Oth"));
        let mut games = read(Box::new(input), &ReadOptions::default());
        let first = games.next().unwrap().unwrap();
        assert_eq!(first.record.unwrap().moves.len(), 1);
        assert_eq!(
            games.next().unwrap().unwrap_err().to_string(),
            "disk on fire"
        );
        assert!(games.next().is_none());
    }

    #[test]
    fn sniffs_ggf_only() {
        let s = |t: &str| {
            sniff(&Sniff {
                head: t.as_bytes(),
                len: None,
            })
        };
        assert!(s("1 (;GM[Othello]PC[GGS/os]"));
        assert!(s("\n(;GM[othello]PC[Edax]"));
        assert!(s("(;PB[x]BO[8 ---"));
        assert!(!s("(;FF[4]GM[2]SZ[8]BO[x]"));
        assert!(!s("[Event \"x\"]"));
        assert!(s("\u{feff}(;GM[Othello]"));
    }

    #[test]
    fn type_grammar() {
        let t = GgfType::parse("s8r18");
        assert_eq!(t.board, Some(TyBoard::Shape(BoardShape::Eight)));
        assert!(t.errors.is_empty());
        let t = GgfType::parse("10A");
        assert!(t.anti && t.errors.is_empty());
        assert_eq!(t.board, Some(TyBoard::Shape(BoardShape::Ten)));
        assert_eq!(
            GgfType::parse("88").board,
            Some(TyBoard::Shape(BoardShape::Octagon))
        );
        assert_eq!(GgfType::parse("14").board, Some(TyBoard::Unsupported(14)));
        assert_eq!(GgfType::parse("8sk").errors.len(), 1);
        assert_eq!(GgfType::parse("8r").errors.len(), 1);
        assert_eq!(GgfType::parse("8q").errors[0].0, "has an unknown token `q`");
        assert_eq!(GgfType::parse("9").errors.len(), 1);
    }

    #[test]
    fn a_byte_order_mark_is_not_garbage() {
        let games = read_str("\u{feff}(;GM[Othello]B[f5];)");
        assert_eq!(games.len(), 1);
        assert!(games[0].diagnostics.is_empty());
        assert_eq!(games[0].source.offset, 3);
    }

    #[test]
    fn moves_and_passes() {
        assert_eq!(parse_move_token("pass"), Some(Move::Pass));
        assert_eq!(parse_move_token("PA"), Some(Move::Pass));
        assert_eq!(parse_move_token("p"), Some(Move::Pass));
        assert_eq!(parse_move_token("--"), Some(Move::Pass));
        assert_eq!(
            parse_move_token("D10"),
            Some(Move::Place("d10".parse().unwrap()))
        );
        assert_eq!(parse_move_token("passe"), None);
        assert_eq!(parse_move_token(""), None);
    }

    #[test]
    fn numbers_keep_their_value() {
        assert_eq!(format_number(2.0, 2, false), "2.00");
        assert_eq!(format_number(-22.87, 3, true), "-22.870");
        assert_eq!(format_number(0.001234, 2, false), "0.001234");
        assert_eq!(parse_number("inf"), None);
        assert_eq!(parse_number("+18.000"), Some(18.0));
    }

    #[test]
    fn garbage_and_unterminated_games_resync() {
        let games = read_str("junk\n1 (;GM[Othello]B[f5]\n(;GM[Othello]B[d3];)\n");
        assert_eq!(games.len(), 2);
        let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, ["ggf-garbage", "syntax-unterminated-game"]);
        assert!(games[1].diagnostics.is_empty());
        assert_eq!(games[1].record.as_ref().unwrap().moves.len(), 1);
        assert_eq!(games[1].source.line, 2);
        assert_eq!(&*games[1].source.text, "(;GM[Othello]B[d3];)");
    }

    #[test]
    fn writer_refuses_what_ggf_cannot_hold() {
        let mut record = Record::new("othello,blocked=a1".parse().unwrap());
        record.moves.push(MoveRecord {
            comment: Some("good".into()),
            ..MoveRecord::new(Move::Pass)
        });
        // The rules are the capability table's: the writer lists what is around the game.
        let (_, losses) = to_ggf(&record);
        assert_eq!(losses, ["a comment on move 1"]);
        assert_eq!(
            crate::formats::capabilities::meaning_losses(crate::formats::Format::Ggf, &record),
            ["blocked squares"]
        );
    }
}
