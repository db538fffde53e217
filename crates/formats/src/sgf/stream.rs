//! SGF streaming: splits the input into game trees, resynchronising after garbage.

use crate::codes::Code;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::charset;
use super::parse::TreeParser;
use crate::bracketed::{self, Piece, Splitter};
use crate::{Games, ParsedGame, ReadOptions};

/// Reads the next piece: SGF trees end at the `)` that closes their `(`, outside values
/// (in brackets, with `\` escapes). Its `end` says whether the tree was closed.
pub(super) fn next_piece(splitter: &mut Splitter<'_>) -> io::Result<Option<Piece<bool>>> {
    let Some(mut piece) = splitter.next_opening()? else {
        return Ok(None);
    };
    if piece.game_at.is_none() {
        return Ok(Some(piece));
    }
    let mut depth = 1usize;
    let mut in_value = false;
    let mut escaped = false;
    // A buffer at a time, stopping only at the bytes that may matter: `[`, `]`, `\\`,
    // `(` and `)`.
    piece.end = splitter.scan_game(&mut piece, |chunk| {
        let mut i = 0;
        loop {
            // The byte after an escape, whatever it is, is the value's.
            if escaped {
                chunk.get(i)?;
                escaped = false;
                i += 1;
                continue;
            }
            while chunk.get(i).is_some_and(|&b| !MAY_MATTER[usize::from(b)]) {
                i += 1;
            }
            let &b = chunk.get(i)?;
            if in_value {
                match b {
                    b'\\' => escaped = true,
                    b']' => in_value = false,
                    _ => {}
                }
            } else {
                match b {
                    b'[' => {
                        // Most values are two bytes (a move): stepped over at once.
                        if let Some(&[x, y, b']']) = chunk.get(i + 1..i + 4) {
                            if !MAY_MATTER[usize::from(x)] && !MAY_MATTER[usize::from(y)] {
                                i += 4;
                                continue;
                            }
                        }
                        in_value = true;
                    }
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            return Some(i);
                        }
                    }
                    _ => {}
                }
            }
            i += 1;
        }
    })?;
    Ok(Some(piece))
}

/// The bytes the end of a game tree depends on.
const MAY_MATTER: [bool; 256] = {
    let mut table = [false; 256];
    let mut i = 0;
    while i < 5 {
        table[b"[]\\()"[i] as usize] = true;
        i += 1;
    }
    table
};

/// Reads SGF game trees one at a time.
///
/// ```
/// use reversi_formats::{sgf, ReadOptions};
/// let text = "(;FF[4]GM[2]SZ[8]PB[Edax]RE[W+2];B[f5];W[fd]C[Go-style f4])";
/// let mut games = sgf::read(Box::new(text.as_bytes()), &ReadOptions::default());
/// let record = games.next().unwrap().unwrap().record.unwrap();
/// assert_eq!(record.moves[1].mv.to_string(), "f4");
/// assert_eq!(record.moves[1].comment.as_deref(), Some("Go-style f4"));
/// ```
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(trees(input, options).map(|tree| tree.map(PendingTree::read)))
}

/// The game trees of `input`, split off but not yet parsed (the parsing is most of the
/// work, and can be done on another thread).
#[doc(hidden)]
pub fn trees<'a>(
    input: Box<dyn BufRead + Send + 'a>,
    options: &ReadOptions,
) -> impl Iterator<Item = io::Result<PendingTree>> + Send + 'a {
    let mut splitter = Splitter::new(input, b"(");
    let name = options.name.clone();
    let mut index = 0;
    let mut failed = false;
    std::iter::from_fn(move || {
        if failed {
            return None;
        }
        let piece = match next_piece(&mut splitter) {
            Ok(piece) => piece?,
            Err(e) => {
                failed = true;
                return Some(Err(e));
            }
        };
        index += 1;
        Some(Ok(PendingTree {
            piece,
            name: name.clone(),
            index,
        }))
    })
}

/// A game tree split off, not yet parsed: [`PendingTree::read`] gives the game the reader
/// would have.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingTree {
    piece: Piece<bool>,
    name: Arc<str>,
    index: usize,
}

impl PendingTree {
    /// The game's index in its file.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The bytes of the tree and what came before it.
    #[doc(hidden)]
    pub fn text_len(&self) -> usize {
        self.piece.bytes.len()
    }

    /// The game.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        parse_piece(self.piece, &self.name, self.index)
    }

    /// The piece's text and where the tree starts in it, when the reader has nothing to
    /// say of the text around the tree: UTF-8 without NUL bytes, closed, nothing but ASCII
    /// whitespace before it, nothing dropped.
    pub(super) fn plain(&self) -> Option<(&str, usize)> {
        let piece = &self.piece;
        let at = piece.game_at?;
        if !piece.end || piece.dropped != 0 || piece.too_long.is_some() {
            return None;
        }
        let text = std::str::from_utf8(&piece.bytes).ok()?;
        let before = text.get(..at)?;
        let plain = memchr::memchr(0, text.as_bytes()).is_none()
            && before.bytes().all(|b| b.is_ascii_whitespace());
        plain.then_some((text, at))
    }
}

fn parse_piece(mut piece: Piece<bool>, name: &Arc<str>, index: usize) -> ParsedGame {
    let (dropped, closed) = (piece.dropped, piece.end);
    // The game's text in the charset its root's CA declares, as UTF-8 for the decoder.
    let mut mislabelled = false;
    if let Some(at) = piece.game_at.filter(|&at| at < piece.bytes.len()) {
        if let Some(ca) = charset::declared(&piece.bytes[at..]) {
            let game = piece.bytes.split_off(at);
            let charset = charset::Charset::named(&ca);
            match charset::to_utf8(game.clone(), charset) {
                Some(utf8) => piece.bytes.extend(utf8),
                None => {
                    mislabelled = true;
                    piece.bytes.extend(game);
                }
            }
        }
    }
    let (game, ()) =
        bracketed::parse_piece(piece, name, index, |text, base, tree_at, diagnostics| {
            let junk = text[..tree_at.unwrap_or(text.len())].trim_end();
            if !junk.is_empty() {
                diagnostics.push(bracketed::garbage_error(
                    Code::SgfGarbage,
                    "an SGF game tree",
                    "an SGF game is `(;GM[2]…)`; this text was skipped",
                    junk,
                    base,
                    dropped,
                ));
            }
            let record = tree_at.and_then(|at| {
                let mut parser = TreeParser {
                    text,
                    base,
                    diagnostics,
                    broken: false,
                    mislabelled,
                    items: 0,
                };
                parser.parse(at, closed)
            });
            (record, ())
        });
    game
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Where each tree of `text` ends, by the rule a byte at a time: the `)` that closes
    /// it, outside values, escapes skipped.
    fn tree_ends(text: &[u8]) -> Vec<usize> {
        let mut ends = Vec::new();
        let (mut depth, mut in_value, mut escaped) = (0usize, false, false);
        for (i, &b) in text.iter().enumerate() {
            if in_value {
                if escaped {
                    escaped = false;
                } else if b == b'\\' {
                    escaped = true;
                } else if b == b']' {
                    in_value = false;
                }
                continue;
            }
            match b {
                b'[' if depth > 0 => in_value = true,
                b'(' => depth += 1,
                b')' if depth > 0 => {
                    depth -= 1;
                    if depth == 0 {
                        ends.push(i + 1);
                    }
                }
                _ => {}
            }
        }
        ends
    }

    #[test]
    fn trees_end_where_the_rule_says_at_any_buffer_size() {
        let text = concat!(
            "(;GM[2]C[x\\y];B[f5]W[)(]C[\\\\]C[a]]C[(]]C[a\\](])\n",
            "(;GM[2]C[a \\] b ) c ( d]PB[x\\\\](;B[f5])(;B[d3]C[\\n)]))\n",
            "(;GM[2]C[\\\\\\]]PW[)];W[f5]C[(((]C[\\)\\(])",
            "junk ( ;GM[2];B[f5]C[\\",
            "]])"
        );
        let ends = tree_ends(text.as_bytes());
        assert_eq!(ends.len(), 4);
        for capacity in (1..=9).chain([64, 8192]) {
            let input = io::BufReader::with_capacity(capacity, text.as_bytes());
            let pieces: Vec<_> = trees(Box::new(input), &ReadOptions::default())
                .map(|tree| tree.unwrap().piece)
                .filter(|piece| piece.game_at.is_some())
                .map(|piece| piece.offset + piece.bytes.len())
                .collect();
            assert_eq!(pieces, ends, "buffers of {capacity} bytes");
        }
    }
}
