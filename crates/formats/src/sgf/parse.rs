//! Parsing one SGF game tree's main line into a record.

use super::charset::Charset;
use super::TAG_IDS;
use crate::bracketed;
use crate::codes::Code;
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::{BoardShape, Color, Move, Rules, Setup, Square, SquareSet};
use crate::record::{
    ClaimedResult, MoveRecord, Record, ResultScore, Span, StartPosition, Tag, Termination,
};
use crate::text::{parse_number, too_large, MAX_MOVES};
use std::borrow::Cow;

/// A property value (escapes resolved: borrowed from the text when it has none) and where
/// it is.
type Value<'t> = (Cow<'t, str>, Span);

/// One property with its values, the first kept apart: most properties have one, and
/// then no list is allocated.
#[derive(Clone, Debug)]
pub(super) struct Prop<'t> {
    id: Cow<'t, str>,
    first: Value<'t>,
    more: Vec<Value<'t>>,
    span: Span,
}

impl<'t> Prop<'t> {
    fn first(&self) -> (&str, Span) {
        (&self.first.0, self.first.1)
    }

    fn values(&self) -> impl Iterator<Item = &Value<'t>> {
        std::iter::once(&self.first).chain(&self.more)
    }
}

/// The main line's nodes, their properties in one list.
#[derive(Default)]
struct Nodes<'t> {
    props: Vec<Prop<'t>>,
    /// Where each node's properties end in `props`.
    ends: Vec<usize>,
}

impl<'t> Nodes<'t> {
    /// Each node's properties, in order.
    fn iter(&self) -> impl Iterator<Item = &[Prop<'t>]> {
        let mut start = 0;
        self.ends.iter().map(move |&end| {
            let node = &self.props[start..end];
            start = end;
            node
        })
    }
}

pub(super) struct TreeParser<'t, 'd> {
    pub(super) text: &'t str,
    pub(super) base: usize,
    pub(super) diagnostics: &'d mut Collected,
    /// A value ran to the end of the text, or the tree is too large (already reported).
    pub(super) broken: bool,
    /// The root's CA declares an 8-bit charset, but the text was UTF-8 and read so.
    pub(super) mislabelled: bool,
    /// Nodes and values read: past [`MAX_ITEMS`] the tree is too large and not read.
    pub(super) items: usize,
}

/// The most nodes and property values a game tree may hold (`syntax-game-too-large`): a
/// few for each of the most moves a game has, so that a tree's memory stays a small
/// multiple of its bytes.
const MAX_ITEMS: usize = 4 * MAX_MOVES;

impl<'t> TreeParser<'t, '_> {
    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.base + start, end.saturating_sub(start))
    }

    fn push(&mut self, d: Diagnostic) {
        self.diagnostics.push(d);
    }

    /// Counts one more node or value at `at`; `false` (reported once) past [`MAX_ITEMS`].
    fn count_item(&mut self, at: usize) -> bool {
        self.items += 1;
        if self.items == MAX_ITEMS + 1 {
            let d = too_large("nodes and values", MAX_ITEMS, Some(self.span(at, at + 1)));
            self.push(d);
            self.broken = true;
        }
        self.items <= MAX_ITEMS
    }

    fn skip_ws(&self, mut i: usize) -> usize {
        let bytes = self.text.as_bytes();
        while i < bytes.len() && bytes[i].is_ascii_whitespace() {
            i += 1;
        }
        i
    }

    /// Reads a value starting at `[`; returns it and the index after `]`, or `None` when it
    /// is never closed.
    fn value(&mut self, open: usize, id: &str) -> Option<(Cow<'t, str>, Span, usize)> {
        let text = self.text;
        let bytes = text.as_bytes();
        let rest = bytes.get(open + 1..).unwrap_or_default();
        // Without an escape, the value is the text between the brackets (ASCII bytes, so
        // character boundaries).
        if let Some(k) = memchr::memchr2(b']', b'\\', rest).filter(|&k| rest[k] == b']') {
            let close = open + 1 + k;
            let value = text.get(open + 1..close)?;
            return Some((Cow::Borrowed(value), self.span(open + 1, close), close + 1));
        }
        let mut value = Vec::new();
        let mut i = open + 1;
        while i < bytes.len() {
            match bytes[i] {
                b']' => {
                    let text = String::from_utf8_lossy(&value).into_owned();
                    return Some((Cow::Owned(text), self.span(open + 1, i), i + 1));
                }
                b'\\' if i + 1 < bytes.len() => {
                    let next = bytes[i + 1];
                    i += 2;
                    if next == b'\n' || next == b'\r' {
                        // A soft line break.
                        if i < bytes.len() && matches!(bytes[i], b'\n' | b'\r') && bytes[i] != next
                        {
                            i += 1;
                        }
                    } else {
                        value.push(next);
                    }
                }
                b => {
                    value.push(b);
                    i += 1;
                }
            }
        }
        let d = Diagnostic::error(
            Code::SyntaxUnterminatedValue,
            format!("the value of `{id}` has no closing `]`"),
        )
        .at(Some(self.span(open, open + 1)), "opened here")
        .help("close the value with `]`; write `\\]` for a `]` inside it");
        self.push(d);
        self.broken = true;
        None
    }

    /// Reads a node's properties from just after its `;` onto `props`. Returns the index
    /// where it ends (the end of the text after an unterminated value).
    fn node(&mut self, mut i: usize, props: &mut Vec<Prop<'t>>) -> usize {
        let text = self.text;
        let bytes = text.as_bytes();
        loop {
            i = self.skip_ws(i);
            if i >= bytes.len() || matches!(bytes[i], b';' | b'(' | b')') {
                return i;
            }
            if !bytes[i].is_ascii_alphabetic() {
                let start = i;
                while i < bytes.len()
                    && !bytes[i].is_ascii_alphabetic()
                    && !matches!(bytes[i], b';' | b'(' | b')')
                    && !bytes[i].is_ascii_whitespace()
                {
                    i += 1;
                }
                while !text.is_char_boundary(i) {
                    i += 1;
                }
                let d = Diagnostic::error(Code::SyntaxUnexpectedText, "unexpected text in a node")
                    .at(Some(self.span(start, i)), "not a property")
                    .help("a node holds `ID[value]` properties");
                self.push(d);
                if bytes.get(start) == Some(&b'[') {
                    // A value with no property: skip it.
                    match self.value(start, "?") {
                        Some((_, _, next)) => i = next,
                        None => return bytes.len(),
                    }
                }
                continue;
            }
            let start = i;
            while i < bytes.len() && bytes[i].is_ascii_alphabetic() {
                i += 1;
            }
            // FF[3] allowed lower-case letters in IDs (`AddBlack`); only the capitals count.
            let written = &text[start..i];
            let id: Cow<'t, str> = if written.bytes().all(|b| b.is_ascii_uppercase()) {
                Cow::Borrowed(written)
            } else {
                Cow::Owned(written.chars().filter(char::is_ascii_uppercase).collect())
            };
            let id_end = i;
            let mut values = Vec::new();
            let mut first = None;
            loop {
                let j = self.skip_ws(i);
                if bytes.get(j) != Some(&b'[') {
                    break;
                }
                if !self.count_item(j) {
                    return bytes.len();
                }
                match self.value(j, &id) {
                    Some((value, span, next)) => {
                        match first {
                            None => first = Some((value, span)),
                            Some(_) => values.push((value, span)),
                        }
                        i = next;
                    }
                    None => return bytes.len(),
                }
            }
            if id.is_empty() {
                let d = Diagnostic::error(
                    Code::SyntaxBadProperty,
                    format!("`{}` is not a property name", &text[start..id_end]),
                )
                .at(
                    Some(self.span(start, id_end)),
                    "expected upper-case letters",
                )
                .help("property names are upper-case letters, such as `PB` or `C`");
                self.push(d);
                continue;
            }
            let Some(first) = first else {
                let d = bracketed::missing_value(&id, self.span(start, id_end));
                self.push(d);
                continue;
            };
            props.push(Prop {
                id,
                first,
                more: values,
                span: self.span(start, i),
            });
        }
    }

    /// The main line's nodes, reporting dropped variations.
    fn main_line(&mut self, at: usize, closed: bool) -> Nodes<'t> {
        let bytes = self.text.as_bytes();
        let mut nodes = Nodes::default();
        let mut depth = 1usize;
        let mut main = true;
        let mut i = at + 1;
        loop {
            i = self.skip_ws(i);
            if i >= bytes.len() {
                if !closed && !self.broken {
                    let d = Diagnostic::error(
                        Code::SyntaxUnterminatedGame,
                        "unterminated SGF game tree",
                    )
                    .at(
                        Some(self.span(at, at + 1)),
                        "this game tree is never closed",
                    )
                    .help("the input ends before the matching `)`; close every `(` with `)`");
                    self.push(d);
                }
                return nodes;
            }
            match bytes[i] {
                b';' if !self.count_item(i) => return nodes,
                b';' => {
                    let before = nodes.props.len();
                    let next = self.node(i + 1, &mut nodes.props);
                    if main {
                        nodes.ends.push(nodes.props.len());
                    } else {
                        nodes.props.truncate(before);
                        let d = Diagnostic::error(
                            Code::SyntaxUnexpectedText,
                            "a node after the variations of a game tree",
                        )
                        .at(Some(self.span(i, next)), "this node is not read")
                        .help("nodes come before the variations `(…)` of their tree");
                        self.push(d);
                    }
                    i = next;
                }
                b'(' if main => {
                    depth += 1;
                    i += 1;
                }
                b'(' => {
                    let end = self.skip_tree(i);
                    let d = Diagnostic::warning(
                        Code::SgfDroppedVariation,
                        "a variation was dropped: only the main line is read",
                    )
                    .at(Some(self.span(i, end)), "not read")
                    .help("the main line is the first variation at each branch");
                    self.push(d);
                    i = end;
                }
                b')' => {
                    main = false;
                    depth -= 1;
                    i += 1;
                    if depth == 0 {
                        return nodes;
                    }
                }
                _ => {
                    // Properties with no `;` before them: read them as a node so nothing is lost
                    // silently.
                    let before = nodes.props.len();
                    let next = self.node(i, &mut nodes.props);
                    let d =
                        Diagnostic::error(Code::SyntaxUnexpectedText, "properties outside a node")
                            .at(
                                Some(self.span(i, next.max(i + 1))),
                                "expected `;` before these",
                            )
                            .help("every node starts with `;`");
                    self.push(d);
                    if next == i {
                        i += 1;
                    } else {
                        i = next;
                    }
                    if main {
                        nodes.ends.push(nodes.props.len());
                    } else {
                        nodes.props.truncate(before);
                    }
                }
            }
        }
    }

    /// The index just after the subtree starting at `(`.
    fn skip_tree(&self, at: usize) -> usize {
        let bytes = self.text.as_bytes();
        let mut depth = 0usize;
        let mut in_value = false;
        let mut i = at;
        while i < bytes.len() {
            let b = bytes[i];
            i += 1;
            if in_value {
                match b {
                    b'\\' => i += 1,
                    b']' => in_value = false,
                    _ => {}
                }
                continue;
            }
            match b {
                b'[' => in_value = true,
                b'(' => depth += 1,
                b')' => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        return i;
                    }
                }
                _ => {}
            }
        }
        bytes.len()
    }

    /// Reads the main line of the game tree at `at` into a record: the game type and board
    /// from the root, its setup, then every node's properties in order.
    pub(super) fn parse(&mut self, at: usize, closed: bool) -> Option<Record> {
        let nodes = self.main_line(at, closed);
        if self.items > MAX_ITEMS {
            return None;
        }
        let Some(root) = nodes.iter().next() else {
            let d = Diagnostic::error(Code::SgfEmptyGame, "the game tree has no nodes")
                .at(Some(self.span(at, self.text.len())), "empty")
                .help("a game tree is `(;` root properties, then `;` nodes with moves `)`");
            self.push(d);
            return None;
        };
        if !self.check_game_type(root, at) {
            return None;
        }
        let (board, rules_span) = self.board_size(root)?;
        let mut record = Record {
            span: Some(self.span(at, self.text.len())),
            rules_span,
            ..Record::default()
        };
        record.rules = Rules::othello(board);

        // Setup.
        let setup_props: Vec<&Prop<'_>> = root
            .iter()
            .filter(|p| matches!(&*p.id, "AB" | "AW" | "AE" | "PL"))
            .collect();
        if !setup_props.is_empty() {
            record.start = self.setup(&setup_props, &record.rules);
        }

        // The moves' list at its length at once (a move record is large to grow).
        let moves = nodes
            .props
            .iter()
            .filter(|p| matches!(&*p.id, "B" | "W"))
            .count();
        record.moves.reserve_exact(moves);
        // The root's IDs so far (a few: a list is quicker than a set).
        let mut seen: Vec<&str> = Vec::new();
        for (n, node) in nodes.iter().enumerate() {
            let mut comments: Vec<&str> = Vec::new();
            for prop in node {
                let first = n > 0 || !seen.contains(&&*prop.id);
                if n == 0 {
                    if !first && !matches!(&*prop.id, "B" | "W") {
                        let d = Diagnostic::warning(
                            Code::SgfDuplicateProperty,
                            format!("property `{}` appears twice in the root node", prop.id),
                        )
                        .at(Some(prop.span), "again here")
                        .help("give each property once per node; all setup squares are read, otherwise the first value counts");
                        self.push(d);
                    }
                    seen.push(&prop.id);
                }
                self.read_property(n, prop, first, &mut record, &mut comments);
            }
            attach_comments(&mut record, n, &comments);
        }
        Some(record)
    }

    /// Checks the root's `GM`: another game is refused (`false`), a missing one warned about.
    fn check_game_type(&mut self, root: &[Prop<'_>], at: usize) -> bool {
        match root.iter().find(|p| p.id == "GM") {
            Some(gm) if gm.first().0.trim() != "2" => {
                let (value, span) = gm.first();
                let d = Diagnostic::error(
                    Code::SgfNotOthello,
                    format!("this is a game of type GM[{value}], not Othello (GM[2])"),
                )
                .at(Some(span), "expected 2")
                .help("only Othello game trees (`GM[2]`) can be read");
                self.push(d);
                false
            }
            Some(_) => true,
            None => {
                let d =
                    Diagnostic::warning(Code::SgfMissingGame, "the game tree does not say GM[2]")
                        .at(Some(self.span(at, at + 1)), "no GM property")
                        .help("SGF without GM means Go; this tree is read as Othello");
                self.push(d);
                true
            }
        }
    }

    /// The board the root's `SZ` gives (8x8 without one) and where it is; `None` (reported)
    /// for a size the engine does not play.
    fn board_size(&mut self, root: &[Prop<'_>]) -> Option<(BoardShape, Option<Span>)> {
        let Some(sz) = root.iter().find(|p| p.id == "SZ") else {
            return Some((BoardShape::Eight, None));
        };
        let (value, span) = sz.first();
        let value = value.trim();
        let (cols, rows) = value.split_once(':').unwrap_or((value, value));
        let board = match (cols.trim(), rows.trim()) {
            ("4", "4") => BoardShape::Four,
            ("6", "6") => BoardShape::Six,
            ("8", "8") => BoardShape::Eight,
            ("10", "10") => BoardShape::Ten,
            _ => {
                let d = Diagnostic::error(
                    Code::SgfUnsupportedBoard,
                    format!("board size `{value}` is not supported"),
                )
                .at(Some(span), "board size")
                .help("Othello SGF boards are SZ[4], SZ[6], SZ[8] or SZ[10]");
                self.push(d);
                return None;
            }
        };
        Some((board, Some(span)))
    }

    /// Reads one property of node `n` (0 is the root) into `record`, its comments into
    /// `comments`; `first` is whether it is the first of its ID in the root.
    fn read_property<'p>(
        &mut self,
        n: usize,
        prop: &'p Prop<'_>,
        first: bool,
        record: &mut Record,
        comments: &mut Vec<&'p str>,
    ) {
        match (n, &*prop.id) {
            (_, "B" | "W") => {
                let color = if prop.id == "B" {
                    Color::Black
                } else {
                    Color::White
                };
                if let Some(m) = self.parse_move(prop, color) {
                    record.moves.push(m);
                }
            }
            (_, "C") => {
                for (value, _) in prop.values() {
                    comments.push(value);
                }
            }
            // Setup properties are all read above; repeats of the others were
            // reported and only the first counts.
            (0, "FF" | "GM" | "SZ" | "AB" | "AW" | "AE" | "PL") => {}
            // The charset the text was decoded from: the file's, not the game's.
            (0, "CA") if first => self.check_charset(prop),
            (0, "CA") => {}
            (0, "RE") if first => record.result = self.parse_result(prop),
            (0, "RE") => {}
            (0, id) => {
                let name = TAG_IDS
                    .iter()
                    .find(|(tid, _)| *tid == id)
                    .map_or(id, |(_, name)| name);
                for (value, _) in prop.values() {
                    record.tags.push(Tag {
                        name: name.into(),
                        value: value.to_string(),
                        span: Some(prop.span),
                    });
                }
            }
            (_, "AB" | "AW" | "AE" | "PL") => {
                let d = Diagnostic::error(
                    Code::SgfUnsupportedSetup,
                    format!("setup property `{}` in the middle of the game", prop.id),
                )
                .at(Some(prop.span), "not read")
                .help("only the root node may set up the board");
                self.push(d);
            }
            (_, id) => {
                let d = Diagnostic::warning(
                    Code::SgfIgnoredProperty,
                    format!("property `{id}` of a move node is not read"),
                )
                .at(Some(prop.span), "ignored")
                .help("move nodes keep only the moves (B, W) and comments (C)");
                self.push(d);
            }
        }
    }

    /// Reports a `CA` the reader did not honour: an unknown charset, or an 8-bit one
    /// declared for UTF-8 text.
    fn check_charset(&mut self, prop: &Prop<'_>) {
        let (value, span) = prop.first();
        let d = if self.mislabelled {
            Diagnostic::warning(
                Code::SgfCharsetMismatch,
                format!("the game declares CA[{value}], but its text is UTF-8"),
            )
            .at(Some(span), "declared here")
            .help("it was read as UTF-8; write CA[UTF-8]")
        } else if Charset::named(value) == Charset::Unknown {
            Diagnostic::warning(
                Code::SgfUnknownCharset,
                format!("the charset `{value}` is not known"),
            )
            .at(Some(span), "not read as this charset")
            .help("the text was read as UTF-8 (lines that are not, as Windows-1252); known charsets are UTF-8, ISO-8859-1 and Windows-1252")
        } else {
            return;
        };
        self.push(d);
    }

    /// Reads the root's `AB`, `AW`, `AE`, `PL`.
    fn setup(&mut self, props: &[&Prop<'_>], rules: &Rules) -> Option<StartPosition> {
        let (start_discs, _) = rules.start_discs();
        let explicit = props.iter().any(|p| p.id == "AB" || p.id == "AW");
        let mut setup = Setup {
            discs: if explicit {
                [SquareSet::EMPTY; 4]
            } else {
                start_discs
            },
            neutral: SquareSet::EMPTY,
            turn: Color::Black,
        };
        let mut span = props[0].span;
        for prop in props {
            span = span.to(prop.span);
            if prop.id == "PL" {
                let (value, vspan) = prop.first();
                match value.trim().to_ascii_uppercase().as_str() {
                    "B" | "1" => setup.turn = Color::Black,
                    "W" | "2" => setup.turn = Color::White,
                    _ => {
                        let d = Diagnostic::error(
                            Code::SgfBadSetup,
                            format!("`{value}` is not a player"),
                        )
                        .at(Some(vspan), "expected B or W")
                        .help("PL names the side to move: PL[B] or PL[W]");
                        self.push(d);
                    }
                }
                continue;
            }
            for (value, vspan) in prop.values() {
                let sq = match parse_point(value) {
                    Some(Move::Place(sq)) if rules.board().contains(sq) => sq,
                    _ => {
                        let d = Diagnostic::error(
                            Code::SgfBadSetup,
                            format!("`{value}` is not a square of the {} board", rules.board()),
                        )
                        .at(Some(*vspan), "expected a square")
                        .help("setup squares are written like moves: `e4` or `ed`");
                        self.push(d);
                        continue;
                    }
                };
                setup.discs[0].remove(sq);
                setup.discs[1].remove(sq);
                match &*prop.id {
                    "AB" => setup.discs[0].insert(sq),
                    "AW" => setup.discs[1].insert(sq),
                    _ => {}
                }
            }
        }
        if setup.discs == start_discs && setup.turn == Color::Black {
            return None;
        }
        Some(StartPosition {
            setup,
            in_hand: None,
            span: Some(span),
        })
    }

    fn parse_move(&mut self, prop: &Prop<'_>, color: Color) -> Option<MoveRecord> {
        let (value, span) = prop.first();
        match parse_point(value.trim()) {
            Some(mv) => Some(MoveRecord {
                color: Some(color),
                ..MoveRecord::new(mv).at(span)
            }),
            None => {
                let d = Diagnostic::error(Code::SgfBadMove, format!("`{value}` is not a move"))
                    .at(Some(span), "expected a square or a pass")
                    .help("moves are a letter and a row (`f5`, `j10`), two letters (`fe`) or a pass (`PA`, `tt`)");
                self.push(d);
                None
            }
        }
    }

    fn parse_result(&mut self, prop: &Prop<'_>) -> Option<ClaimedResult> {
        let (value, span) = prop.first();
        let text = value.trim();
        let upper = text.to_ascii_uppercase();
        let result = |score, termination| {
            Some(ClaimedResult {
                score,
                termination,
                span: Some(span),
            })
        };
        match upper.as_str() {
            "0" => return result(ResultScore::Margin(0.0), Termination::Normal),
            "DRAW" | "D" => return result(ResultScore::Winner(None), Termination::Normal),
            "VOID" | "?" => return result(ResultScore::None, Termination::Unfinished),
            _ => {}
        }
        let winner = match upper.get(..2) {
            Some("B+") => Some(Color::Black),
            Some("W+") => Some(Color::White),
            _ => None,
        };
        if let Some(winner) = winner {
            let rest = upper[2..].trim();
            let loser = Some(winner.next(2));
            match rest {
                "" => return result(ResultScore::Winner(Some(winner)), Termination::Normal),
                "R" | "RESIGN" => {
                    return result(
                        ResultScore::Winner(Some(winner)),
                        Termination::Resignation(loser),
                    )
                }
                "T" | "TIME" => {
                    return result(ResultScore::Winner(Some(winner)), Termination::Time(loser))
                }
                _ => {
                    if let Some(n) = parse_number(rest).filter(|n| *n >= 0.0) {
                        let m = if winner == Color::Black { n } else { -n };
                        return result(ResultScore::Margin(m), Termination::Normal);
                    }
                }
            }
        }
        let d = Diagnostic::error(Code::SgfBadResult, format!("`{text}` is not a result"))
            .at(Some(span), "expected B+n, W+n, 0, Draw, B+R, B+T or Void")
            .help("RE gives the winner and the disc margin, such as `B+4` or `W+R`");
        self.push(d);
        None
    }
}

/// A point or pass: `f5`, `J10`, Go-style `fe` (column, row), `PA`/`pa`/`ps`/`tt`/empty.
pub(super) fn parse_point(text: &str) -> Option<Move> {
    let passes = ["", "pa", "ps", "pass", "tt"];
    if passes.iter().any(|p| text.eq_ignore_ascii_case(p)) {
        return Some(Move::Pass);
    }
    match *text.as_bytes() {
        [col, row] if col.is_ascii_alphabetic() && row.is_ascii_alphabetic() => {
            let (col, row) = (col.to_ascii_lowercase(), row.to_ascii_lowercase());
            Square::new(col - b'a', row - b'a').map(Move::Place)
        }
        // A square in either case.
        _ => Square::from_ascii(text.as_bytes()).ok().map(Move::Place),
    }
}

/// Attaches node `n`'s comments: the root's comment is the game's; a later node's belongs
/// to its move, or to the last move before it.
pub(super) fn attach_comments(record: &mut Record, n: usize, comments: &[&str]) {
    if comments.is_empty() {
        return;
    }
    let text = comments.join("\n");
    let slot = match record.moves.last_mut() {
        Some(m) if n > 0 => &mut m.comment,
        _ => &mut record.comment,
    };
    match slot {
        Some(existing) => {
            existing.push('\n');
            existing.push_str(&text);
        }
        None => *slot = Some(text),
    }
}
