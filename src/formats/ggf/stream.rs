//! GGF streaming: splits the input into games, resynchronising after garbage, and
//! reports what it skipped.

use crate::codes::Code;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::parse::GameParser;
use crate::diagnostic::{Collected, Diagnostic};
use crate::engine::Rules;
use crate::formats::bracketed::{self, Piece, Splitter};
use crate::formats::{Games, ParsedGame, ReadOptions};
use crate::record::Span;

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
pub(super) struct Group {
    count: usize,
    seen: usize,
}

/// The GGF game stream. It holds one game back, so that an archive line with fewer games
/// than its count prefix says can be reported on its last game.
pub(super) struct Reader<'a> {
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
                Code::GgfCountMismatch,
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
pub(super) fn games(n: usize) -> String {
    if n == 1 {
        "1 game".into()
    } else {
        format!("{n} games")
    }
}

/// Parses one piece; also returns the count prefix before the game and whether garbage
/// came before it.
pub(super) fn parse_piece(
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
