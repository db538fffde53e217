//! GGF streaming: splits the input into games, resynchronising after garbage, and
//! reports what it skipped.

use crate::codes::Code;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::parse::{End, GameParser};
use crate::bracketed::{self, Decoded, Piece, Splitter};
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::Rules;
use crate::record::Span;
use crate::{Games, ParsedGame, ReadOptions};

/// Reads the next piece: GGF games end at `;)` (values, in brackets, have no escapes); a
/// `(;` before that starts the next game.
pub(super) fn next_piece(splitter: &mut Splitter<'_>) -> io::Result<Option<Piece<End>>> {
    let Some(mut piece) = splitter.next_opening()? else {
        return Ok(None);
    };
    if piece.game_at.is_none() {
        return Ok(Some(piece));
    }
    let mut in_value = false;
    let mut prev = 0u8;
    let mut end = End::Eof;
    // A buffer at a time, by the rule of `stop_at`, stepping over the bytes that cannot
    // matter where they are: all but `]` and `;` in a value, `[`, `;` and `)` outside.
    splitter.scan_game(&mut piece, |chunk| {
        let mut i = 0;
        while let Some(&b) = chunk.get(i) {
            let before = if i == 0 { prev } else { chunk[i - 1] };
            if let Some(found) = stop_at(before, b, &mut in_value) {
                end = found;
                return Some(i);
            }
            i += 1;
            // Most values are two bytes (a move): stepped over at once.
            if let Some(&[x, y, b']']) = chunk.get(i..i + 3).filter(|_| in_value) {
                if (MAY_MATTER[usize::from(x)] | MAY_MATTER[usize::from(y)]) & IN_VALUE == 0 {
                    i += 3;
                    in_value = false;
                }
            }
            let here = if in_value { IN_VALUE } else { OUTSIDE };
            while chunk
                .get(i)
                .is_some_and(|&b| MAY_MATTER[usize::from(b)] & here == 0)
            {
                i += 1;
            }
        }
        prev = chunk.last().copied().unwrap_or(prev);
        None
    })?;
    if end == End::NextGame {
        splitter.carry_opening(&mut piece);
    }
    piece.end = end;
    Ok(Some(piece))
}

/// The splitting rule, byte `b` after byte `before`: a `(;` anywhere starts the next game;
/// outside values (in brackets, `in_value`) a `[` opens one and `;)` closes the game.
/// Gives how the game ended at `b`, if it did.
fn stop_at(before: u8, b: u8, in_value: &mut bool) -> Option<End> {
    if before == b'(' && b == b';' {
        return Some(End::NextGame);
    }
    if *in_value {
        *in_value = b != b']';
    } else if b == b'[' {
        *in_value = true;
    } else if before == b';' && b == b')' {
        return Some(End::Closed);
    }
    None
}

/// Where a byte may matter to `stop_at`: a mask of [`IN_VALUE`] and [`OUTSIDE`].
const MAY_MATTER: [u8; 256] = {
    let mut table = [0; 256];
    table[b']' as usize] = IN_VALUE;
    table[b'[' as usize] = OUTSIDE;
    table[b')' as usize] = OUTSIDE;
    table[b';' as usize] = IN_VALUE | OUTSIDE;
    table
};
const IN_VALUE: u8 = 1;
const OUTSIDE: u8 = 2;

/// Reads GGF games one at a time.
///
/// ```
/// use reversi_formats::{ggf, ReadOptions};
/// let text = "1 (;GM[Othello]PB[Saio]TY[8]RE[+18.000]B[f5/1.50/0.01];)\n";
/// let mut games = ggf::read(Box::new(text.as_bytes()), &ReadOptions::default());
/// let game = games.next().unwrap().unwrap();
/// let record = game.record.unwrap();
/// assert_eq!(record.tag("Black"), Some("Saio"));
/// assert_eq!(record.moves[0].eval, Some(1.5));
/// assert!(game.diagnostics.is_empty() && games.next().is_none());
/// ```
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(reader(input, options))
}

/// The game stream of `input`, to be read with [`Reader::next_pending`] when the games are
/// parsed elsewhere.
#[doc(hidden)]
pub fn reader<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Reader<'a> {
    Reader {
        splitter: Splitter::new(input, b"(;"),
        name: options.name.clone(),
        index: 0,
        held: None,
        error: None,
        done: false,
        group: None,
        last_end_line: None,
        rules: options.rules,
    }
}

/// Games of one archive line: the count its prefix announces and how many came.
pub(super) struct Group {
    count: usize,
    seen: usize,
}

/// The GGF game stream. It holds one game back, so that an archive line with fewer games
/// than its count prefix says can be reported on its last game.
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct Reader<'a> {
    splitter: Splitter<'a>,
    name: Arc<str>,
    index: usize,
    held: Option<PendingGame>,
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
            let src = &held.decoded;
            // The game's last two characters (`;)` when it is closed), whole.
            let text = src.text.trim_end();
            let last_two = text.char_indices().rev().nth(1).map_or(0, |(k, _)| k);
            let end_span = Span::new(src.offset + last_two, text.len() - last_two);
            let d = Diagnostic::warning(
                Code::GgfCountMismatch,
                format!(
                    "the archive line announces {} but holds {}",
                    games(group.count),
                    group.seen
                ),
            )
            .at(Some(end_span), "the line ends here")
            .help("the number before `(;` counts the games of its line (2 for a synchro pair)")
            .in_game(held.decoded.index);
            held.count_findings.push(d);
        }
    }
}

impl Reader<'_> {
    /// The next game, split off and decoded but not yet parsed.
    #[doc(hidden)]
    pub fn next_pending(&mut self) -> Option<io::Result<PendingGame>> {
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
            let mut game = PendingGame::of(piece, &self.name, self.index, self.rules);
            self.count(&mut game);
            if let Some(out) = self.held.replace(game) {
                return Some(Ok(out));
            }
        }
    }

    /// Counts `game` in its archive line, noting on it (or on the line's last game) where
    /// the line's count prefix does not match.
    fn count(&mut self, game: &mut PendingGame) {
        let source = &game.decoded;
        let end_line =
            source.line + memchr::memchr_iter(b'\n', source.text.trim_end().as_bytes()).count();
        let has_game = game.decoded.game_at.is_some();
        let joins = has_game
            && game.prefix.is_none()
            && !game.garbage
            && self.last_end_line == Some(game.start_line);
        match self.group.as_mut() {
            Some(group) if joins => {
                group.seen += 1;
                if group.seen > group.count {
                    let at = source.offset + source.text.find("(;").unwrap_or_default();
                    let d = Diagnostic::warning(
                        Code::GgfCountMismatch,
                        format!(
                            "the archive line announces {}; this is game {} of the line",
                            games(group.count),
                            group.seen
                        ),
                    )
                    .at(Some(Span::new(at, 2)), "one game too many")
                    .help("the number before `(;` counts the games of its line (2 for a synchro pair)")
                    .in_game(self.index);
                    game.count_findings.push(d);
                }
            }
            _ => {
                self.close_group();
                self.group = game
                    .prefix
                    .filter(|_| has_game)
                    .map(|count| Group { count, seen: 1 });
            }
        }
        self.last_end_line = has_game.then_some(end_line);
    }
}

impl Iterator for Reader<'_> {
    type Item = io::Result<ParsedGame>;

    fn next(&mut self) -> Option<io::Result<ParsedGame>> {
        Some(self.next_pending()?.map(PendingGame::read))
    }
}

/// A GGF game split off and decoded, not yet parsed (the parsing is most of the work, and
/// can be done on another thread): [`PendingGame::read`] gives the game the reader would
/// have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingGame {
    decoded: Decoded,
    end: End,
    dropped: usize,
    /// The rules of a game without `TY`.
    rules: Option<Rules>,
    /// The line the piece starts on.
    start_line: usize,
    /// The count prefix before the game, and whether garbage came before it.
    prefix: Option<usize>,
    garbage: bool,
    /// What the archive line's count says of the game, after what the parse finds.
    count_findings: Vec<Diagnostic>,
}

impl PendingGame {
    fn of(piece: Piece<End>, name: &Arc<str>, index: usize, rules: Option<Rules>) -> PendingGame {
        let (dropped, end, start_line) = (piece.dropped, piece.end, piece.line);
        let too_long = piece.too_long.is_some();
        let decoded = bracketed::decode_piece(piece, name, index);
        let (prefix, garbage) = if too_long {
            (None, false)
        } else {
            let text = &decoded.text;
            let pre = &text[..decoded.game_at.unwrap_or(text.len())];
            // The garbage is reported by the parse; here only whether there is any.
            before_game(pre, decoded.offset, dropped, &mut Collected::default())
        };
        PendingGame {
            decoded,
            end,
            dropped,
            rules,
            start_line,
            prefix,
            garbage,
            count_findings: Vec::new(),
        }
    }

    /// The game's index in its file.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.decoded.index
    }

    /// The game's text and where the game starts in it, when the reader has nothing to
    /// say of the text around the game: decoded without a problem, closed with `;)`, no
    /// garbage or dropped bytes before it, its archive line's count right.
    pub(super) fn plain(&self) -> Option<(&str, usize)> {
        let clean = self.end == End::Closed
            && !self.garbage
            && self.dropped == 0
            && self.count_findings.is_empty();
        self.decoded.plain().filter(|_| clean)
    }

    /// The rules of a game without `TY` (`--rules`).
    pub(super) fn default_rules(&self) -> Option<Rules> {
        self.rules
    }

    /// The bytes of the game's text.
    #[doc(hidden)]
    pub fn text_len(&self) -> usize {
        self.decoded.text.len()
    }

    /// The game.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        let (dropped, end, default_rules) = (self.dropped, self.end, self.rules);
        let (mut game, ()) = self.decoded.parse(|text, base, game_at, diagnostics| {
            let pre = &text[..game_at.unwrap_or(text.len())];
            before_game(pre, base, dropped, diagnostics);
            let record = game_at.and_then(|at| {
                let mut parser = GameParser {
                    text,
                    base,
                    diagnostics,
                    default_rules,
                    too_large: false,
                };
                parser.parse_game(at, end)
            });
            (record, ())
        });
        game.diagnostics.extend(self.count_findings);
        game
    }
}

/// `1 game`, `2 games`.
pub(super) fn games(n: usize) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// Reads the text before a game: a count prefix (returned) and garbage (reported; whether
/// there was any is returned too).
pub(super) fn before_game(
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
        Code::GgfGarbage,
        "a GGF game",
        "a GGF game is `(;GM[Othello]…;)`; this text was skipped",
        junk,
        base,
        dropped,
    ));
    (count, true)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each game of `text` ends and how, by the rule a byte at a time: from each
    /// `(;` on, up to the byte `stop_at` stops at.
    fn game_ends(text: &[u8]) -> Vec<(usize, End)> {
        let mut ends = Vec::new();
        let mut at = memchr::memmem::find(text, b"(;");
        while let Some(open) = at {
            let (mut prev, mut in_value) = (0, false);
            let stop = text[open + 2..].iter().enumerate().find_map(|(i, &b)| {
                let found = stop_at(prev, b, &mut in_value);
                prev = b;
                found.map(|end| (open + 2 + i, end))
            });
            at = match stop {
                Some((i, End::NextGame)) => {
                    ends.push((i - 1, End::NextGame));
                    Some(i - 1)
                }
                Some((i, end)) => {
                    ends.push((i + 1, end));
                    memchr::memmem::find(&text[i + 1..], b"(;").map(|k| i + 1 + k)
                }
                None => {
                    ends.push((text.len(), End::Eof));
                    None
                }
            };
        }
        ends
    }

    #[test]
    fn games_end_where_the_rule_says_at_any_buffer_size() {
        let text = concat!(
            "(;GM[Othello]B[f5]W[d6];)\n",
            "1 (;GM[Othello]C[a ;) b ] c (]B[f5]C[;;;)]W[PA];)junk;)\n",
            "(;C[x(;y]B[f5]W[d6]\n",
            "(;B[f5];(;GM[]C[(]]C[;]);)",
            "(;B[f5]C[(;]W[d6];)C[;)]\n",
            "(;)(;B[f5] ; ) ;)(;GM[x",
        );
        let ends = game_ends(text.as_bytes());
        assert_eq!(ends.len(), 11);
        for capacity in (1..=9).chain([64, 8192]) {
            let input = io::BufReader::with_capacity(capacity, text.as_bytes());
            let mut splitter = Splitter::new(Box::new(input), b"(;");
            let mut pieces = Vec::new();
            while let Some(piece) = next_piece(&mut splitter).unwrap() {
                if piece.game_at.is_some() {
                    pieces.push((piece.offset + piece.bytes.len(), piece.end));
                }
            }
            assert_eq!(pieces, ends, "buffers of {capacity} bytes");
        }
    }
}
