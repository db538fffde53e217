//! The RGN parser: tags, then movetext tokens, each with its byte span. Token grammars are
//! `nom` parsers; recovery is by hand (a bad tag skips its line, a bad token skips to the
//! next whitespace), so every syntax error of a game is reported.

use crate::codes::Code;
use nom::branch::alt;
use nom::bytes::complete::{tag, tag_no_case, take_while, take_while_m_n};
use nom::character::complete::{char, digit1, one_of, satisfy, space0};
use nom::combinator::{all_consuming, map, map_res, opt, recognize, value};
use nom::multi::{many1_count, separated_list0};
use nom::sequence::{delimited, pair, preceded, terminated, tuple};
use nom::IResult;

use super::board;
use super::{RESULT_TAG, RULES_TAG, START_TAG, TERMINATION_TAG};
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::{Color, Move, Rules, Square, SquareSet};
use crate::record::score::parse_result;
use crate::record::{
    ClaimedResult, FlipClaim, MoveRecord, PositionClaim, Record, ResultScore, Span, StartPosition,
    Tag, Termination,
};
use crate::text::{too_large, MAX_MOVES, MAX_TAGS};

type Res<'a, T> = IResult<&'a str, T>;

fn tag_name(i: &str) -> Res<'_, &str> {
    recognize(pair(
        satisfy(|c| c.is_ascii_alphabetic()),
        take_while(|c: char| c.is_ascii_alphanumeric() || c == '_'),
    ))(i)
}

/// `[Name "`: a tag up to its value's opening quote. (By bytes: every tag line of a
/// file passes here.)
fn tag_open(i: &str) -> Res<'_, &str> {
    let bytes = i.as_bytes();
    let blanks = |from: usize| {
        from + bytes[from.min(bytes.len())..]
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count()
    };
    let fail = || nom::Err::Error(nom::error::Error::new(i, nom::error::ErrorKind::Char));
    if bytes.first() != Some(&b'[') {
        return Err(fail());
    }
    let name_start = blanks(1);
    if !bytes.get(name_start).is_some_and(u8::is_ascii_alphabetic) {
        return Err(fail());
    }
    let name_end = name_start
        + 1
        + bytes[name_start + 1..]
            .iter()
            .take_while(|&&b| b.is_ascii_alphanumeric() || b == b'_')
            .count();
    let quote = blanks(name_end);
    if bytes.get(quote) != Some(&b'"') {
        return Err(fail());
    }
    // Every byte up to the quote is ASCII, so these are character boundaries.
    Ok((&i[quote + 1..], &i[name_start..name_end]))
}

/// A square, either case: `f5`, `J10`.
fn square(i: &str) -> Res<'_, Square> {
    map_res(
        recognize(pair(
            satisfy(|c| matches!(c.to_ascii_lowercase(), 'a'..='j')),
            take_while_m_n(1, 2, |c: char| c.is_ascii_digit()),
        )),
        str::parse::<Square>,
    )(i)
}

/// A pass: `--`, `pass`, `PA`, `ps`, `@@` or `@@@@`.
fn pass(i: &str) -> Res<'_, Move> {
    value(
        Move::Pass,
        alt((
            tag("--"),
            tag_no_case("pass"),
            tag_no_case("pa"),
            tag_no_case("ps"),
            tag("@@@@"),
            tag("@@"),
        )),
    )(i)
}

/// The colour prefix of a move, `B:` `W:` `R:` `G:`.
fn colour_prefix(i: &str) -> Res<'_, Color> {
    map_res(terminated(one_of("BWRGbwrg"), char(':')), |c: char| {
        Color::from_name(&c.to_string()).ok_or(())
    })(i)
}

/// A move without its flip claim: `[B:]f5`, `--`.
fn move_token(i: &str) -> Res<'_, (Option<Color>, Move)> {
    pair(opt(colour_prefix), alt((map(square, Move::Place), pass)))(i)
}

fn count(i: &str) -> Res<'_, u8> {
    map_res(digit1, str::parse::<u8>)(i)
}

fn square_list(i: &str) -> Res<'_, SquareSet> {
    map(separated_list0(char(','), square), |v| {
        v.into_iter().collect()
    })(i)
}

/// A flip claim: `(d4,d5)` squares, `(2)` a count, `(2:d4,d5)` both, `()` none flipped,
/// `(?)` a claim of nothing.
fn flip_claim(i: &str) -> Res<'_, (Option<SquareSet>, Option<u8>)> {
    delimited(
        char('('),
        alt((
            value((None, None), char('?')),
            map(
                pair(count, opt(preceded(char(':'), square_list))),
                |(n, s)| (s, Some(n)),
            ),
            map(square_list, |s| (Some(s), None)),
        )),
        char(')'),
    )(i)
}

/// The length of the move number `w` starts with (`12.` or `12...`: digits, then dots),
/// if it starts with one.
fn move_number_len(w: &str) -> Option<usize> {
    let bytes = w.as_bytes();
    let digits = bytes.iter().take_while(|b| b.is_ascii_digit()).count();
    let dots = bytes[digits..].iter().take_while(|&&b| b == b'.').count();
    (digits > 0 && dots > 0).then_some(digits + dots)
}

/// A result token in the movetext: `*`, `1/2-1/2`, or numbers joined by `-`.
fn result_token(i: &str) -> Res<'_, &str> {
    alt((
        tag("1/2-1/2"),
        tag("*"),
        recognize(pair(digit1, many1_count(pair(char('-'), digit1)))),
    ))(i)
}

/// Whether `line` starts like a tag pair.
pub(super) fn looks_like_tag(line: &str) -> bool {
    tag_open(line).is_ok()
}

/// Whether `line` starts like numbered movetext (`1. f5`, `1.F5`).
pub(super) fn looks_like_numbered_moves(line: &str) -> bool {
    move_number_len(line)
        .is_some_and(|len| square(line[len..].trim_start_matches([' ', '\t'])).is_ok())
}

/// Reads a termination value (see the spec for the list).
pub(crate) fn parse_termination(text: &str) -> Result<Termination, String> {
    let lower = text.trim().to_ascii_lowercase();
    let words: Vec<&str> = lower.split_whitespace().collect();
    let colour = |w: &str| Color::from_name(w).filter(|_| w.len() > 1);
    let t = match words.as_slice() {
        ["normal"] => Termination::Normal,
        ["unterminated" | "unfinished" | "adjourned"] => Termination::Unfinished,
        ["agreement" | "agreed"] => Termination::Agreement,
        ["resignation" | "resigned" | "resigns"] => Termination::Resignation(None),
        [c, "resigns" | "resigned"] if colour(c).is_some() => {
            Termination::Resignation(colour(c))
        }
        ["time" | "timeout"] | ["time", "forfeit" | "loss"] => Termination::Time(None),
        [c, "loses" | "lost", "on", "time"] if colour(c).is_some() => Termination::Time(colour(c)),
        _ => {
            return Err(format!(
                "expected a termination (normal, unterminated, agreement, resignation, COLOUR resigns, time forfeit, COLOUR loses on time), but found `{}` instead",
                text.trim()
            ))
        }
    };
    Ok(t)
}

fn unescape_tag(raw: &str) -> String {
    if !raw.contains('\\') {
        return raw.to_owned();
    }
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        match chars.next() {
            Some('"') => out.push('"'),
            Some('\\') => out.push('\\'),
            Some('n') => out.push('\n'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
    }
    out
}

fn unescape_comment(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut chars = raw.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            if let Some(next) = chars.next() {
                out.push(next);
            }
        } else {
            out.push(c);
        }
    }
    out
}

struct RawTag {
    value: String,
    span: Span,
    value_span: Span,
}

/// Parses one game's text; spans are `base` plus offsets into the text.
pub(super) struct Parser<'t> {
    text: &'t str,
    base: usize,
    game: usize,
    diags: Collected,
    /// Movetext words read as moves so far, bad ones included: diagnostics' move numbers.
    move_words: usize,
    /// Set when the game holds more moves or tags than any real game
    /// (`syntax-game-too-large`): nothing more of it is read.
    too_large: bool,
    /// The rules of a game without a `Rules` tag.
    pub(super) default_rules: Rules,
}

impl<'t> Parser<'t> {
    pub(super) fn new(text: &'t str, base: usize, game: usize) -> Parser<'t> {
        Parser {
            text,
            base,
            game,
            diags: Collected::default(),
            move_words: 0,
            too_large: false,
            default_rules: Rules::default(),
        }
    }

    fn span(&self, start: usize, end: usize) -> Span {
        Span::new(self.base + start, end.saturating_sub(start))
    }

    fn error(&mut self, code: Code, message: String, at: (usize, usize), label: &str, help: &str) {
        let d = Diagnostic::error(code, message)
            .at(Some(self.span(at.0, at.1)), label)
            .help(help)
            .in_game(self.game);
        self.diags.push(d);
    }

    fn skip_ws(&self, mut pos: usize) -> usize {
        let bytes = self.text.as_bytes();
        while pos < bytes.len() && bytes[pos].is_ascii_whitespace() {
            pos += 1;
        }
        pos
    }

    fn end_of_line(&self, pos: usize) -> usize {
        memchr::memchr(b'\n', &self.text.as_bytes()[pos..]).map_or(self.text.len(), |k| pos + k)
    }

    /// How many lines from `pos` on start with `[`: about how many tags there are.
    fn tag_lines(&self, mut pos: usize) -> usize {
        let mut lines = 0;
        while self.text[pos..].starts_with('[') {
            lines += 1;
            pos = self.skip_ws(self.end_of_line(pos));
        }
        lines
    }

    /// The end of the text on `pos`'s line, trailing whitespace excluded.
    fn trimmed_line_end(&self, pos: usize) -> usize {
        pos + self.text[pos..self.end_of_line(pos)].trim_end().len()
    }

    /// Reads the game: its tags, the rules and start they give, the result and termination
    /// tags, then the movetext, and the claimed result from both. The record is given only
    /// when nothing was an error.
    pub(super) fn parse(mut self) -> (Option<Record>, Vec<Diagnostic>) {
        let mut record = Record {
            span: Some(self.span(0, self.text.len())),
            rules: self.default_rules,
            ..Record::default()
        };
        let (special, pos) = self.read_tags(&mut record);
        let [rules_tag, start_tag, result_tag, term_tag, fen_tag] = special;
        let start_tag = start_or_fen(&mut record, start_tag, fen_tag);
        if let Some(t) = rules_tag {
            self.read_rules(t, &mut record);
        }
        if let Some(t) = start_tag {
            self.read_start(t, &mut record);
        }
        // A Result tag is read as people write results (`record::score`); a spelling that
        // says how the game ended (`W+R`) gives the termination a Termination tag does not.
        let mut result_termination = None;
        let tag_score = result_tag.and_then(|t| match parse_result(&t.value) {
            Ok(Some(read)) => {
                result_termination = read.termination.map(|x| (x, t.value_span));
                Some((read.score, t.value_span))
            }
            Ok(None) => None,
            Err(e) => {
                self.error_at_span(
                    Code::SyntaxBadResult,
                    e.to_string(),
                    t.value_span,
                    "bad result",
                    RESULT_HELP,
                );
                None
            }
        });
        let termination = term_tag.and_then(|t| match parse_termination(&t.value) {
            Ok(x) => Some((x, t.value_span)),
            Err(e) => {
                self.error_at_span(
                    Code::SyntaxBadTermination,
                    e,
                    t.value_span,
                    "bad termination",
                    "say how the game ended, such as `white resigns` or `black loses on time`",
                );
                None
            }
        });
        // A move takes at least three bytes with its separator, a numbered pair about eight:
        // room for them all at once instead of growing the list move by move.
        record
            .moves
            .reserve((self.text.len().saturating_sub(pos) / 4).min(MAX_MOVES));
        let movetext_score = self.movetext(pos, &mut record);
        if let (Some((t, tspan)), Some((m, mspan))) = (&tag_score, &movetext_score) {
            if t != m {
                let d = Diagnostic::error(
                    Code::SyntaxResultMismatch,
                    "the result after the movetext differs from the Result tag",
                )
                .at(Some(*mspan), "this result")
                .related(Some(*tspan), "differs from this one")
                .help("make the two results agree, or drop the one after the movetext")
                .in_game(self.game);
                self.diags.push(d);
            }
        }
        let score = tag_score
            .or(movetext_score)
            .map(|(score, span)| (edax_counts(&mut record, score), span));
        record.result = claimed_result(score, termination.or(result_termination));
        let failed = self.diags.has_error();
        (
            if failed { None } else { Some(record) },
            self.diags.into_vec(),
        )
    }

    /// Reads the tag pairs: ordinary tags into `record`, the rules, start, result,
    /// termination and FEN tags returned in that order (a second one of these is an
    /// error), with where the movetext starts.
    fn read_tags(&mut self, record: &mut Record) -> ([Option<RawTag>; 5], usize) {
        let mut special: [Option<RawTag>; 5] = [None, None, None, None, None];
        let mut pos = self.skip_ws(0);
        record.tags.reserve(self.tag_lines(pos).min(MAX_TAGS));
        while self.text[pos..].starts_with('[') {
            match self.tag_at(pos) {
                Ok((name, raw, end)) => {
                    let slot = [RULES_TAG, START_TAG, RESULT_TAG, TERMINATION_TAG, FEN_TAG]
                        .iter()
                        .position(|r| r.eq_ignore_ascii_case(name));
                    match slot {
                        Some(k) if special[k].is_some() => self.error(
                            Code::SyntaxDuplicateTag,
                            format!("the {name} tag is given twice"),
                            (pos, end),
                            "second tag",
                            "keep one of the two tags",
                        ),
                        Some(k) => special[k] = Some(raw),
                        None if record.tags.len() == MAX_TAGS => {
                            self.stop(too_large("tags", MAX_TAGS, Some(raw.span)))
                        }
                        None => record.tags.push(Tag {
                            name: name.to_owned(),
                            value: raw.value,
                            span: Some(raw.span),
                        }),
                    }
                    pos = self.skip_ws(end);
                }
                Err(end) => pos = self.skip_ws(end),
            }
        }
        (special, pos)
    }

    /// Reads the `Rules` tag into `record`.
    fn read_rules(&mut self, t: RawTag, record: &mut Record) {
        match t.value.parse::<Rules>() {
            Ok(rules) => {
                record.rules = rules;
                record.rules_span = Some(t.value_span);
            }
            Err(e) => self.error_at_span(
                Code::SyntaxBadRules,
                format!("the rules string `{}` cannot be read: {e}", t.value),
                t.value_span,
                "bad rules string",
                "write a rules string such as `othello`, `anti:10x10` or `multi3:octagon,blocked=a3+j8`",
            ),
        }
    }

    /// Reads the `Start` tag into `record`, on the board of its rules.
    fn read_start(&mut self, t: RawTag, record: &mut Record) {
        match board::from_line(record.rules.board(), &t.value) {
            Ok(b) => {
                record.start = Some(StartPosition {
                    setup: b.setup,
                    in_hand: b.in_hand,
                    span: Some(t.value_span),
                })
            }
            Err(e) => self.error_at_span(
                Code::SyntaxBadStart,
                format!("the start position cannot be read: {e}"),
                t.value_span,
                "bad start position",
                &format!(
                    "write the rows top to bottom joined by `/`, then the side to move, as the {} start is written: `{}`",
                    record.rules.board(),
                    board::example_line(record.rules.board())
                ),
            ),
        }
    }

    fn error_at_span(&mut self, code: Code, message: String, span: Span, label: &str, help: &str) {
        let d = Diagnostic::error(code, message)
            .at(Some(span), label)
            .help(help)
            .in_game(self.game);
        self.diags.push(d);
    }

    /// The tag at `pos`: its name, value and end; or, after reporting it, where the bad
    /// tag's line ends.
    fn tag_at(&mut self, pos: usize) -> Result<(&'t str, RawTag, usize), usize> {
        let text = self.text;
        let line_end = self.end_of_line(pos);
        let line = &text[pos..line_end];
        // Where an error about the tag ends: the line, trailing whitespace excluded.
        let trimmed_end = pos + line.trim_end().len();
        let (rest, name) = match tag_open(line) {
            Ok(ok) => ok,
            Err(_) => {
                let has_name = tuple((char('['), space0, tag_name))(line).is_ok();
                let (message, label) = if has_name {
                    (
                        "expected a quoted value after the tag name",
                        "no quoted value",
                    )
                } else {
                    (
                        "expected a tag name (a letter, then letters, digits or `_`) after `[`",
                        "no tag name",
                    )
                };
                self.error(
                    Code::SyntaxBadTag,
                    message.into(),
                    (pos, trimmed_end),
                    label,
                    "write tags as `[Name \"value\"]`, one or more per line",
                );
                return Err(line_end);
            }
        };
        let value_start = line_end - rest.len();
        // The closing quote: the first `"` not escaped by a `\` (both ASCII, so bytes do).
        let mut close = None;
        let mut escaped = false;
        for (k, &b) in rest.as_bytes().iter().enumerate() {
            match b {
                _ if escaped => escaped = false,
                b'\\' => escaped = true,
                b'"' => {
                    close = Some(value_start + k);
                    break;
                }
                _ => {}
            }
        }
        let Some(close) = close else {
            self.error(
                Code::SyntaxUnterminatedTag,
                format!("the value of tag {name} is never closed"),
                (pos, trimmed_end),
                "unterminated value",
                "end the value with `\"` and the tag with `]` on the same line",
            );
            return Err(line_end);
        };
        let after = &text[close + 1..line_end];
        let after_trim = after.trim_start_matches([' ', '\t']);
        if !after_trim.starts_with(']') {
            self.error(
                Code::SyntaxUnterminatedTag,
                format!("expected `]` after the value of tag {name}"),
                (pos, trimmed_end),
                "tag never closed",
                "end the tag with `]` on the same line",
            );
            return Err(line_end);
        }
        let end = close + 1 + (after.len() - after_trim.len()) + 1;
        let raw = RawTag {
            value: unescape_tag(&text[value_start..close]),
            span: self.span(pos, end),
            value_span: self.span(value_start, close),
        };
        Ok((name, raw, end))
    }

    /// Reads the movetext from `pos` into `record`; returns the result written after the
    /// moves, if any.
    fn movetext(&mut self, mut pos: usize, record: &mut Record) -> Option<(ResultScore, Span)> {
        let text = self.text;
        let bytes = text.as_bytes();
        let mut result: Option<(ResultScore, Span)> = None;
        loop {
            pos = self.skip_ws(pos);
            if pos >= bytes.len() || self.too_large {
                break;
            }
            match bytes[pos] {
                b'{' => {
                    let Some(close) = find_close_brace(text, pos + 1) else {
                        self.error(
                            Code::SyntaxUnterminatedComment,
                            "this comment is never closed".into(),
                            (pos, self.trimmed_line_end(pos)),
                            "comment opened here",
                            "end the comment with `}` (write `\\}` for a brace inside it)",
                        );
                        break;
                    };
                    self.comment(pos + 1, close, record);
                    pos = close + 1;
                }
                b';' => {
                    let end = self.end_of_line(pos);
                    let comment = text[pos + 1..end].trim().to_owned();
                    attach_comment(record, comment);
                    pos = end;
                }
                b'<' => {
                    let Some(k) = text[pos..].find('>') else {
                        self.error(
                            Code::SyntaxUnterminatedBoard,
                            "this board is never closed".into(),
                            (pos, self.trimmed_line_end(pos)),
                            "board opened here",
                            "end the board with `>` after the side to move",
                        );
                        break;
                    };
                    let close = pos + k;
                    match board::from_grid(record.rules.board(), &text[pos + 1..close]) {
                        Ok(setup) => record.positions.push(PositionClaim {
                            after_moves: record.moves.len(),
                            setup,
                            span: Some(self.span(pos, close + 1)),
                        }),
                        Err(e) => self.error(
                            Code::SyntaxBadBoard,
                            format!("the board cannot be read: {e}"),
                            (pos, close + 1),
                            "bad board",
                            "write one row per line, one symbol per square (`X O R G` discs, `N` neutral, `.` empty, `#` blocked), then the side to move",
                        ),
                    }
                    pos = close + 1;
                }
                _ => {
                    let end = word_end(text, pos);
                    self.word(pos, end, record, &mut result);
                    pos = end;
                }
            }
        }
        result
    }

    /// One whitespace-delimited movetext word; errors about a move name its number.
    fn word(
        &mut self,
        start: usize,
        end: usize,
        record: &mut Record,
        result: &mut Option<(ResultScore, Span)>,
    ) {
        let first = self.diags.len();
        let before = record.moves.len();
        let number = self.move_words + 1;
        self.word_inner(start, end, record, result);
        let mut was_move = record.moves.len() > before;
        for d in &mut self.diags[first..] {
            if !d.code.name().contains("result") || d.code == Code::SyntaxMoveAfterResult {
                d.move_number = Some(number);
                was_move = true;
            }
        }
        if was_move {
            self.move_words += 1;
        }
    }

    /// One whitespace-delimited movetext word: move numbers, a move, or a result.
    fn word_inner(
        &mut self,
        mut start: usize,
        end: usize,
        record: &mut Record,
        result: &mut Option<(ResultScore, Span)>,
    ) {
        let text = self.text;
        while let Some(len) = move_number_len(&text[start..end]) {
            if start + len == end {
                return;
            }
            start += len;
        }
        let w = &text[start..end];
        // The common word, a bare square, read without the combinators (which would read
        // it the same way: nothing else a word can be starts with a letter and is a square).
        if let Ok(sq) = Square::from_ascii(w.as_bytes()) {
            if result.is_some() {
                self.move_after_result(start, end);
            }
            let m = MoveRecord::new(Move::Place(sq)).at(self.span(start, end));
            self.push_move(record, m);
            return;
        }
        if all_consuming(result_token)(w).is_ok() {
            match parse_result(w) {
                Ok(read) => {
                    let score = read.map_or(ResultScore::None, |r| r.score);
                    if result.is_some() {
                        self.error(
                            Code::SyntaxDuplicateResult,
                            "the movetext gives a second result".into(),
                            (start, end),
                            "second result",
                            "keep one result after the moves",
                        );
                    }
                    *result = Some((score, self.span(start, end)));
                }
                Err(e) => self.error(
                    Code::SyntaxBadResult,
                    e.to_string(),
                    (start, end),
                    "bad result",
                    RESULT_HELP,
                ),
            }
            return;
        }
        let Ok((rest, (color, mv))) = move_token(w) else {
            self.bad_move(start, end);
            return;
        };
        let move_end = end - rest.len();
        if result.is_some() {
            self.move_after_result(start, move_end);
        }
        let mut record_move = MoveRecord::new(mv).at(self.span(start, move_end));
        record_move.color = color;
        if rest.starts_with('(') {
            match all_consuming(flip_claim)(rest) {
                Ok((_, (squares, count))) => {
                    record_move.flips = Some(FlipClaim {
                        squares,
                        count,
                        span: Some(self.span(move_end, end)),
                    })
                }
                Err(_) => self.error(
                    Code::SyntaxBadFlipClaim,
                    format!("the flip claim `{rest}` cannot be read"),
                    (move_end, end),
                    "bad flip claim",
                    "write the flipped squares, their count, or both: `c4(d4,d5)`, `c4(2)`, `c4(2:d4,d5)`",
                ),
            }
        } else if !rest.is_empty() {
            self.bad_move(start, end);
            return;
        }
        self.push_move(record, record_move);
    }

    /// Adds `m` to the moves, or, when the game holds [`MAX_MOVES`] already, reports the
    /// game too large and stops reading it.
    fn push_move(&mut self, record: &mut Record, m: MoveRecord) {
        if record.moves.len() == MAX_MOVES {
            self.stop(too_large("moves", MAX_MOVES, m.span));
        } else {
            record.moves.push(m);
        }
    }

    /// Reports `d`, the game's being too large, once; nothing more of the game is read.
    fn stop(&mut self, d: Diagnostic) {
        if !self.too_large {
            self.too_large = true;
            self.diags.push(d.in_game(self.game));
        }
    }

    fn move_after_result(&mut self, start: usize, end: usize) {
        self.error(
            Code::SyntaxMoveAfterResult,
            "a move follows the result".into(),
            (start, end),
            "move after the result",
            "the result ends the movetext: move it after the last move",
        );
    }

    fn bad_move(&mut self, start: usize, end: usize) {
        let w = &self.text[start..end];
        self.error(
            Code::SyntaxBadMove,
            format!("expected a move, a move number or a result, but found `{w}` instead"),
            (start, end),
            "not a move",
            "write moves as squares (`f5`, `J10`) and passes as `--`",
        );
    }

    /// A `{...}` comment whose inside is `text[start..end]`: `[%eval N]` and `[%emt N]`
    /// commands at its start go to the move's eval and time.
    fn comment(&mut self, start: usize, end: usize, record: &mut Record) {
        let mut raw = &self.text[start..end];
        if record.moves.is_empty() {
            attach_comment(record, unescape_comment(raw));
            return;
        }
        let mut eval = None;
        let mut time = None;
        let mut commands = false;
        let mut space_after = false;
        loop {
            let slot = if raw.starts_with("[%eval ") {
                &mut eval
            } else if raw.starts_with("[%emt ") {
                &mut time
            } else {
                break;
            };
            let Some(close) = raw.find(']') else { break };
            let at = start + (raw.as_ptr() as usize - self.text[start..].as_ptr() as usize);
            let number = raw[..close].split_once(' ').map_or("", |x| x.1).trim();
            match number.parse::<f64>() {
                Ok(n) => *slot = Some(n),
                Err(_) => self.error(
                    Code::SyntaxBadCommand,
                    format!(
                        "expected a number in `{}`, but found `{number}`",
                        &raw[..=close]
                    ),
                    (at, at + close + 1),
                    "not a number",
                    "write evaluations and times as decimal numbers: `[%eval -2.5] [%emt 12.3]`",
                ),
            }
            if let Some(d) = self
                .diags
                .last_mut()
                .filter(|d| d.code == Code::SyntaxBadCommand)
            {
                d.move_number = Some(self.move_words);
            }
            commands = true;
            raw = &raw[close + 1..];
            space_after = raw.starts_with(' ');
            if space_after {
                raw = &raw[1..];
            }
        }
        let text = unescape_comment(raw);
        let comment = if commands && text.is_empty() && !space_after {
            None
        } else {
            Some(text)
        };
        if let Some(last) = record.moves.last_mut() {
            if eval.is_some() {
                last.eval = eval;
            }
            if time.is_some() {
                last.time = time;
            }
            if let Some(c) = comment {
                append_comment(&mut last.comment, c);
            }
        }
    }
}

const RESULT_HELP: &str =
    "write disc counts in turn order (`41-23`, `20-22-22`), `*` when unfinished, or `1-0`, `0-1`, `1/2-1/2`";

/// The start tag to read: Edax writes a custom start as `[FEN]`; RGN's own `[Start]` wins
/// when both are given, and the FEN is then kept as a tag.
fn start_or_fen(
    record: &mut Record,
    start_tag: Option<RawTag>,
    fen_tag: Option<RawTag>,
) -> Option<RawTag> {
    match (start_tag, fen_tag) {
        (Some(start), Some(fen)) => {
            record.tags.push(Tag {
                name: FEN_TAG.to_owned(),
                value: fen.value,
                span: Some(fen.span),
            });
            Some(start)
        }
        (None, Some(fen)) => Some(RawTag {
            value: fen_to_line(&fen.value).unwrap_or_else(|| fen.value.clone()),
            ..fen
        }),
        (start, None) => start,
    }
}

/// The claimed result from a score and a termination: a score without a termination ended
/// normally (or is unfinished when it is no score).
fn claimed_result(
    score: Option<(ResultScore, Span)>,
    termination: Option<(Termination, Span)>,
) -> Option<ClaimedResult> {
    match (score, termination) {
        (None, None) => None,
        (Some((score, span)), t) => Some(ClaimedResult {
            termination: t.map(|t| t.0).unwrap_or(if score.is_none() {
                Termination::Unfinished
            } else {
                Termination::Normal
            }),
            score,
            span: Some(span),
        }),
        (None, Some((termination, span))) => Some(ClaimedResult {
            score: ResultScore::None,
            termination,
            span: Some(span),
        }),
    }
}

/// Edax follows a chess-style result with its disc counts in a comment, `{Black wins 34-30}`
/// (or the winner's name, or `{Draw 32-32}`): when the last comment says exactly that and
/// agrees with `score`, the counts are the score and the comment is not kept.
fn edax_counts(record: &mut Record, score: ResultScore) -> ResultScore {
    let ResultScore::Winner(winner) = score else {
        return score;
    };
    let comment = match record.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut record.comment,
    };
    let counts = comment.as_deref().and_then(|text| {
        let (words, counts) = text.trim().rsplit_once(' ')?;
        let (b, w) = counts.split_once('-')?;
        let (b, w) = (b.parse::<u8>().ok()?, w.parse::<u8>().ok()?);
        let words = words.trim().to_ascii_lowercase();
        let said = if words == "draw" {
            None
        } else if words.ends_with(" wins") || words == "wins" {
            Some(())
        } else {
            return None;
        };
        let agrees = match winner {
            Some(Color::Black) => said.is_some() && b > w,
            Some(Color::White) => said.is_some() && w > b,
            None => said.is_none() && b == w,
            Some(_) => false,
        };
        agrees.then_some((b, w))
    });
    match counts {
        Some((b, w)) if record.rules.players() == 2 => {
            *comment = None;
            ResultScore::Discs(vec![b, w])
        }
        _ => ResultScore::Winner(winner),
    }
}

/// The tag Edax writes a custom start in.
pub(super) const FEN_TAG: &str = "FEN";

/// Edax's FEN (rank 8 first, `p` Black, `P` White, digits for empty squares, side `b`/`w`)
/// as an RGN start line (row 1 first, `X` Black, `O` White), or `None` when it is no FEN.
fn fen_to_line(fen: &str) -> Option<String> {
    let mut words = fen.split_whitespace();
    let ranks = words.next()?;
    let side = match words.next()? {
        "b" | "B" => "X",
        "w" | "W" => "O",
        _ => return None,
    };
    let mut rows = Vec::new();
    for rank in ranks.split('/').rev() {
        let mut row = String::new();
        for c in rank.chars() {
            match c {
                'p' => row.push('X'),
                'P' => row.push('O'),
                _ => row.extend(std::iter::repeat('.').take(c.to_digit(10)? as usize)),
            }
        }
        rows.push(row);
    }
    Some(format!("{} {side}", rows.join("/")))
}

/// Adds `comment` to the last move, or to the game comment before the first move.
fn attach_comment(record: &mut Record, comment: String) {
    let slot = match record.moves.last_mut() {
        Some(m) => &mut m.comment,
        None => &mut record.comment,
    };
    append_comment(slot, comment);
}

/// Adds `comment` to what `slot` holds, after a space: in place, so that many comments in
/// a row cost their length, not its square.
fn append_comment(slot: &mut Option<String>, comment: String) {
    match slot {
        Some(old) => {
            old.push(' ');
            old.push_str(&comment);
        }
        None => *slot = Some(comment),
    }
}

/// The index of the `}` closing a comment whose inside starts at `from` (`\` escapes).
fn find_close_brace(text: &str, from: usize) -> Option<usize> {
    let bytes = text.as_bytes();
    let mut k = from;
    while k < bytes.len() {
        match bytes[k] {
            b'\\' => k += 2,
            b'}' => return Some(k),
            _ => k += 1,
        }
    }
    None
}

/// Where the movetext word starting at `pos` ends: whitespace, `{`, `;` or `<`.
fn word_end(text: &str, pos: usize) -> usize {
    // ASCII, the common case, byte by byte; the same bytes end a word as below.
    for (k, &b) in text.as_bytes()[pos..].iter().enumerate() {
        if !b.is_ascii() {
            return word_end_chars(text, pos);
        }
        if matches!(b, b'\t'..=b'\r' | b' ' | b'{' | b';' | b'<') {
            return pos + k.max(1);
        }
    }
    text.len()
}

/// [`word_end`] for text that is not all ASCII: a word ends at whitespace or at a byte
/// that opens a comment or a board, and takes at least its first character.
fn word_end_chars(text: &str, pos: usize) -> usize {
    text[pos..]
        .find(|c: char| c.is_whitespace() || matches!(c, '{' | ';' | '<'))
        .map_or(text.len(), |k| pos + k)
        .max(pos + text[pos..].chars().next().map_or(0, char::len_utf8))
}

#[cfg(test)]
mod tests {
    use super::tag_open;

    #[test]
    fn tag_openings_are_read_by_bytes() {
        for (line, name, rest) in [
            ("[Event \"x\"]", "Event", "x\"]"),
            ("[ \tWthor_2  \t\"\"]", "Wthor_2", "\"]"),
            ("[B\"é\"]", "B", "é\"]"),
        ] {
            assert_eq!(tag_open(line).ok(), Some((rest, name)), "{line}");
        }
        for bad in [
            "",
            "[",
            "[ ",
            "[\"x\"]",
            "[1a \"x\"]",
            "[Name x",
            "[Name",
            "[Na-me \"x\"]",
            "[é \"x\"]",
            " [A \"x\"]",
        ] {
            assert!(tag_open(bad).is_err(), "{bad}");
        }
    }
}
