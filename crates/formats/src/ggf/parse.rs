//! Parsing one GGF game's properties into a record.

use super::ty::{canonical_type, GgfType, TyBoard};
use super::{TAG_IDS, TYPE_TAG};
use crate::bracketed;
use crate::codes::Code;
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::{BoardShape, Color, Move, Preset, Rules, Setup, Square, SquareSet};
use crate::record::{
    ClaimedResult, MoveRecord, Record, ResultScore, Span, StartPosition, Tag, Termination,
};
use crate::text::{parse_number, too_large, MAX_MOVES, MAX_TAGS};
use std::collections::HashSet;

/// How a game's text ended.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub(super) enum End {
    /// At `;)`.
    Closed,
    /// At the end of the input.
    #[default]
    Eof,
    /// At the `(;` of the next game.
    NextGame,
}

/// One `ID[value]` property.
#[derive(Clone, Copy, Debug)]
pub(super) struct Prop<'t> {
    id: &'t str,
    value: &'t str,
    /// The value's text (without brackets).
    value_span: Span,
    /// The whole property.
    span: Span,
}

pub(super) struct GameParser<'t, 'd> {
    pub(super) text: &'t str,
    pub(super) base: usize,
    pub(super) diagnostics: &'d mut Collected,
    /// The rules of a game without `TY` (`--rules`), when they fit its `BO` board.
    pub(super) default_rules: Option<Rules>,
    /// Set when the game holds more properties, moves or tags than any real game
    /// (`syntax-game-too-large`, reported once): the game is not read.
    pub(super) too_large: bool,
}

/// The most properties a game may hold: every move, every tag and each property of a
/// meaning of its own ([`STRUCTURAL_IDS`](super::STRUCTURAL_IDS)).
pub(super) const MAX_PROPERTIES: usize = MAX_MOVES + MAX_TAGS + super::STRUCTURAL_IDS.len();

impl<'t> GameParser<'t, '_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.base + start, end.saturating_sub(start))
    }

    fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Reports the game too large, once.
    fn too_large(&mut self, what: &str, limit: usize, at: Span) {
        if !self.too_large {
            self.too_large = true;
            self.push(too_large(what, limit, Some(at)));
        }
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
                let d = Diagnostic::error(Code::SyntaxUnterminatedGame, "unterminated GGF game")
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
                // Values are short: a byte loop finds the close sooner than a searcher.
                match bytes[open + 1..].iter().position(|&b| b == b']') {
                    Some(len) => {
                        let close = open + 1 + len;
                        if props.len() == MAX_PROPERTIES {
                            self.too_large(
                                "properties",
                                MAX_PROPERTIES,
                                self.span(start, close + 1),
                            );
                            return props;
                        }
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
                            Code::SyntaxUnterminatedValue,
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
            let d = Diagnostic::error(Code::SyntaxUnexpectedText, "unexpected text in a GGF game")
                .at(Some(self.span(start, i)), "not a property")
                .help("a GGF game holds only `ID[value]` properties between `(;` and `;)`");
            self.push(d);
        }
    }

    /// Reads one game's properties into a record: the game type, the rules, then every
    /// property in order.
    pub(super) fn parse_game(&mut self, at: usize, end: End) -> Option<Record> {
        let props = self.properties(at, end);
        if self.too_large {
            return None;
        }
        let mut record = Record {
            span: Some(self.span(at, self.text.len())),
            ..Record::default()
        };
        if !self.check_game_type(&props) {
            return None;
        }
        self.read_rules(&props, &mut record)?;
        // The moves' list at its length at once (a move record is large to grow).
        let moves = props.iter().filter(|p| matches!(p.id, "B" | "W")).count();
        record.moves.reserve_exact(moves);

        // A set, not a list: a game of many distinct properties costs their number.
        let mut seen: HashSet<&str> = HashSet::new();
        for prop in &props {
            let first = matches!(prop.id, "B" | "W") || !seen.contains(prop.id);
            if !first {
                let d = Diagnostic::warning(
                    Code::GgfDuplicateProperty,
                    format!("property `{}` appears more than once", prop.id),
                )
                .at(Some(prop.span), "again here")
                .help("a GGF game gives each property once; the repeats are kept as tags");
                self.push(d);
            } else if !matches!(prop.id, "B" | "W") {
                seen.insert(prop.id);
            }
            self.read_property(prop, first, &mut record);
        }
        (!self.too_large).then_some(record)
    }

    /// Checks `GM`: a game other than Othello is refused (`false`).
    fn check_game_type(&mut self, props: &[Prop<'_>]) -> bool {
        let Some(gm) = props.iter().find(|p| p.id == "GM") else {
            return true;
        };
        if gm.value.trim().eq_ignore_ascii_case("othello") {
            return true;
        }
        let d = Diagnostic::error(
            Code::GgfNotOthello,
            format!("this is a game of `{}`, not Othello", gm.value),
        )
        .at(Some(gm.value_span), "expected `Othello`")
        .help("only Othello games (`GM[Othello]`) can be read");
        self.push(d);
        false
    }

    /// Sets the record's rules: from TY (default 8x8), or from BO's board when TY is
    /// missing, where `--rules` applies when it fits; keeps TY's text as a tag when it is
    /// not the canonical form. `None` (reported) for a board the engine does not play.
    fn read_rules(&mut self, props: &[Prop<'_>], record: &mut Record) -> Option<()> {
        let find = |id: &str| props.iter().find(|p| p.id == id);
        let ty = find("TY");
        let mut board = BoardShape::Eight;
        let mut anti = false;
        if let Some(ty) = ty {
            (board, anti) = self.read_type(ty)?;
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
        Some(())
    }

    /// Reads `TY`: the board (8x8 when it names none) and whether the game is anti,
    /// reporting what it cannot read; `None` (reported) for 12x12 and 14x14.
    fn read_type(&mut self, ty: &Prop<'_>) -> Option<(BoardShape, bool)> {
        let parsed = GgfType::parse(ty.value);
        for (message, range) in &parsed.errors {
            let span = Span::new(ty.value_span.offset + range.start, range.end - range.start);
            let code = if message.starts_with("has an unknown") {
                Code::GgfUnknownType
            } else {
                Code::GgfBadType
            };
            let d = Diagnostic::error(code, format!("game type `{}` {message}", ty.value))
                .at(Some(span), "here")
                .help("TY is a board (4, 6, 8, 10, 12, 14 or 88) and flags s, k, b, w, a, r N");
            self.push(d);
        }
        let board = match parsed.board {
            Some(TyBoard::Shape(shape)) => shape,
            Some(TyBoard::Unsupported(n)) => {
                let d = Diagnostic::error(
                    Code::GgfUnsupportedBoard,
                    format!("{n}x{n} boards are not supported"),
                )
                .at(Some(ty.value_span), "this game type")
                .help("the toolkit plays 4x4, 6x6, 8x8, 10x10 and the octagon (88)");
                self.push(d);
                return None;
            }
            None => BoardShape::Eight,
        };
        Some((board, parsed.anti))
    }

    /// Reads one property into `record`; `first` is whether it is the first of its ID
    /// (a repeat is kept as a tag).
    fn read_property(&mut self, prop: &Prop<'_>, first: bool, record: &mut Record) {
        match prop.id {
            "GM" | "TY" if first => {}
            "B" | "W" => {
                let color = if prop.id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                if let Some(m) = self.parse_move(prop, color) {
                    if record.moves.len() == MAX_MOVES {
                        self.too_large("moves", MAX_MOVES, prop.span);
                    } else {
                        record.moves.push(m);
                    }
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
                if record.tags.len() == MAX_TAGS {
                    self.too_large("tags", MAX_TAGS, prop.span);
                    return;
                }
                record.tags.push(Tag {
                    name: name.into(),
                    value: prop.value.into(),
                    span: Some(prop.span),
                });
            }
        }
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
            Diagnostic::error(Code::GgfBadMove, what)
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
                Code::GgfBadMove,
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

    /// Reads `BO[<type> <cells> <side>]`: `None` when it is the rules' own start, or when
    /// it cannot be read (reported).
    fn parse_board(&mut self, prop: &Prop<'_>, rules: &Rules) -> Option<StartPosition> {
        let value = prop.value;
        let lead = value.len() - value.trim_start().len();
        let type_len = value[lead..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(value.len() - lead);
        let type_token = &value[lead..lead + type_len];
        let board = rules.board();
        if TyBoard::from_token(type_token) != Some(TyBoard::Shape(board)) {
            let d = bad_board(
                format!(
                    "the board type `{type_token}` does not match the game's {} board",
                    board
                ),
                Span::new(prop.value_span.offset + lead, type_len),
                "board type",
            );
            self.push(d);
            return None;
        }
        let setup = match board_cells(prop, lead + type_len, board) {
            Ok(setup) => setup,
            Err(d) => {
                self.push(*d);
                return None;
            }
        };
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
            let d = Diagnostic::error(Code::GgfBadResult, format!("`{value}` is not a result"))
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
                        Code::GgfUnknownFlag,
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

/// A `ggf-bad-board` error.
fn bad_board(message: String, span: Span, label: &str) -> Diagnostic {
    Diagnostic::error(Code::GgfBadBoard, message).at(Some(span), label).help(
        "BO is the board type, its cells row by row (`*` black, `O` white, `-` empty) and the side to move (`*` or `O`)",
    )
}

/// Whether `BO`'s value `value` is a board of `board` in the position `rules` start from,
/// Black to move: the `BO` a game from the usual start writes, which the reader does not
/// keep as a start position (for the quick scan).
pub(super) fn is_usual_start(value: &str, rules: &Rules) -> bool {
    let lead = value.len() - value.trim_start().len();
    let type_len = value[lead..]
        .find(|c: char| !c.is_ascii_digit())
        .unwrap_or(value.len() - lead);
    let board = rules.board();
    if TyBoard::from_token(&value[lead..lead + type_len]) != Some(TyBoard::Shape(board)) {
        return false;
    }
    let prop = Prop {
        id: "BO",
        value,
        value_span: Span::new(0, value.len()),
        span: Span::new(0, value.len()),
    };
    board_cells(&prop, lead + type_len, board)
        .is_ok_and(|setup| setup.discs == rules.start_discs().0 && setup.turn == Color::Black)
}

/// Reads the cells of `BO`'s value from byte `from` on, row by row, then the side to move
/// and nothing after it.
fn board_cells(prop: &Prop<'_>, from: usize, board: BoardShape) -> Result<Setup, Box<Diagnostic>> {
    let value = prop.value;
    let at = |i: usize, len: usize| Span::new(prop.value_span.offset + i, len);
    let cells = board.cells();
    let mut setup = Setup {
        discs: [SquareSet::EMPTY; 4],
        neutral: SquareSet::EMPTY,
        turn: Color::Black,
    };
    let mut chars = value[from..]
        .char_indices()
        .map(|(i, c)| (i + from, c))
        .filter(|(_, c)| !c.is_whitespace());
    for sq in cells.iter() {
        let Some((i, c)) = chars.next() else {
            return Err(Box::new(bad_board(
                format!(
                    "the board lists fewer than the {} squares of the {} board",
                    cells.len(),
                    board
                ),
                prop.value_span,
                "too short",
            )));
        };
        match disc_symbol(c) {
            Some(Some(color)) => setup.discs[color.index()].insert(sq),
            Some(None) => {}
            None => {
                return Err(Box::new(bad_board(
                    format!("`{c}` is not a disc or an empty square"),
                    at(i, c.len_utf8()),
                    "expected `*`, `O` or `-`",
                )));
            }
        }
    }
    match chars.next() {
        Some((_, c)) if disc_symbol(c).is_some_and(|d| d.is_some()) => {
            setup.turn = disc_symbol(c).flatten().unwrap_or(Color::Black);
        }
        Some((i, c)) => {
            return Err(Box::new(bad_board(
                format!("expected the side to move after the board, but found `{c}`"),
                at(i, c.len_utf8()),
                "expected `*` or `O`",
            )));
        }
        None => {
            return Err(Box::new(bad_board(
                "the board does not say who moves".into(),
                prop.value_span,
                "expected `*` or `O` at the end",
            )));
        }
    }
    if let Some((i, _)) = chars.next() {
        return Err(Box::new(bad_board(
            "unexpected text after the side to move".into(),
            at(i, value.len() - i),
            "extra text",
        )));
    }
    Ok(setup)
}

/// `*xX` black, `OoO0` white, `-._` empty; `None` for anything else.
pub(super) fn disc_symbol(c: char) -> Option<Option<Color>> {
    match c {
        '*' | 'x' | 'X' => Some(Some(Color::Black)),
        'O' | 'o' | '0' => Some(Some(Color::White)),
        '-' | '.' | '_' => Some(None),
        _ => None,
    }
}

/// A move: a square (any case, `D10`), or a pass (`PA`, `pass` and its prefixes, `ps`, `--`).
pub(super) fn parse_move_token(token: &str) -> Option<Move> {
    // A square first: most tokens are one (and no pass reads as a square).
    if let Ok(sq) = Square::from_ascii(token.as_bytes()) {
        return Some(Move::Place(sq));
    }
    let pass_prefix = !token.is_empty()
        && token.len() <= 4
        && "pass".as_bytes()[..token.len()].eq_ignore_ascii_case(token.as_bytes());
    (pass_prefix || token.eq_ignore_ascii_case("ps") || token == "--").then_some(Move::Pass)
}
