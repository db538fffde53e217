//! SGF streaming: splits the input into game trees, resynchronising after garbage.

use crate::codes::Code;
use std::io::{self, BufRead};
use std::sync::Arc;

use super::charset;
use super::parse::TreeParser;
use crate::formats::bracketed::{self, Piece, Splitter};
use crate::formats::{Games, ParsedGame, ReadOptions};

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
    piece.end = splitter.scan_game(&mut piece, |b| {
        if in_value {
            if escaped {
                escaped = false;
            } else if b == b'\\' {
                escaped = true;
            } else if b == b']' {
                in_value = false;
            }
            return false;
        }
        match b {
            b'[' => in_value = true,
            b'(' => depth += 1,
            b')' => {
                depth -= 1;
                return depth == 0;
            }
            _ => {}
        }
        false
    })?;
    Ok(Some(piece))
}

/// Reads SGF game trees one at a time.
///
/// ```
/// use reversi_record::formats::{sgf, ReadOptions};
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
pub(crate) fn trees<'a>(
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
pub(crate) struct PendingTree {
    piece: Piece<bool>,
    name: Arc<str>,
    index: usize,
}

impl PendingTree {
    /// The game's index in its file.
    pub(crate) fn index(&self) -> usize {
        self.index
    }

    /// The bytes of the tree and what came before it.
    pub(crate) fn len(&self) -> usize {
        self.piece.bytes.len()
    }

    /// The game.
    pub(crate) fn read(self) -> ParsedGame {
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
