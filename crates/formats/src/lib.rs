//! Every record format the toolkit reads and writes, behind one interface.
//!
//! A reader turns bytes into a stream of [`ParsedGame`]s, each with the [`Record`] (when the
//! game could be read at all), its diagnostics and its [`Source`]. One bad game never stops
//! the stream: readers resynchronise at the next game. A writer takes records and refuses,
//! naming the game and what is lost, anything its format cannot hold, unless asked to be
//! lossy.
//!
//! The second layer of reversi-record (docs/development.md), above the engine: the record
//! model ([`record`]), diagnostics and their codes ([`diagnostic`], [`codes`]), rendering
//! ([`render`]), atomic output files ([`output`]) and every format's reader and writer.

#![warn(missing_docs, rust_2018_idioms, unreachable_pub)]
#![deny(missing_debug_implementations, nonstandard_style)]

pub mod codes;
pub mod diagnostic;
pub mod output;
pub mod record;
pub mod render;

use reversi_engine as engine;
#[allow(unused_imports)]
use reversi_engine::{
    BoardShape, Cell, Color, Finished, IllegalMove, Move, Outcome, Position, Rules, RulesError,
    Setup, SetupError, Square, SquareSet,
};

use std::fmt;
use std::io::{self, BufRead, Read, Write};
use std::path::PathBuf;
use std::sync::Arc;

use crate::diagnostic::{Diagnostic, Source};
use crate::record::{GameSelector, Identity, Record};

mod board_text;
mod bracketed;
mod byte_masks;
pub mod capabilities;
pub mod ggf;
pub mod json;
mod moves;
pub mod movestr;
pub mod obf;
pub mod pgn;
pub mod rgn;
mod select;
pub mod sgf;
pub mod text;
mod text_writer;
pub mod transcript;
pub mod wthor;

pub use select::{select_one, SelectError};
#[doc(hidden)]
pub use text_writer::PlainGame;
use text_writer::{text_writer, TextFormat, Written};
pub use text_writer::{Rendered, Renderer};

mod detect;
mod format;
mod writing;

pub use detect::{DetectError, Detected, Detection, Sniff};
pub use format::{Format, ParseFormatError, PgnDialect};
pub use writing::{check_losses, RecordWriter, WriteError, WriteOptions, WrittenEach};

/// One game as read from a file.
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// // Two games; the second cannot be read past its first move.
/// let games = Format::MoveString.read_bytes(b"f5d6c3\nf5x9\n".to_vec(), &ReadOptions::default())?;
/// assert_eq!((games[0].index, games[0].diagnostics.len()), (1, 0));
/// assert_eq!(games[0].record.as_ref().map(|r| r.moves.len()), Some(3));
/// assert_eq!(games[1].diagnostics[0].code.name(), "syntax-bad-move");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug)]
pub struct ParsedGame {
    /// 1-based index of the game in its file; 0 for an entry that reports a problem of the
    /// file itself (such as a JSON envelope), which has no record and is not a game.
    pub index: usize,
    /// The game's source text (a text view for binary formats).
    pub source: Source,
    /// The record, unless the game could not be read at all.
    pub record: Option<Record>,
    /// What the reader found wrong (syntax errors, bad encodings, ...).
    pub diagnostics: Vec<Diagnostic>,
}

impl ParsedGame {
    /// Who played the game and where, as its tags say ([`Identity`]); `None` when the
    /// game could not be read or has none of those tags.
    pub fn identity(&self) -> Option<Identity> {
        self.record
            .as_ref()
            .and_then(|r| Identity::of_tags(&r.tags))
    }

    /// Whether `selector` takes this game (a game that could not be read is taken only
    /// by its number; an entry about the file itself, index 0, never).
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_formats::record::GameSelector;
    /// let text = "[Black \"Ann\"]\n[White \"Bob\"]\n[Round \"2\"]\n\nf5 *\n";
    /// let game = Format::Rgn.read(Box::new(text.as_bytes()), &ReadOptions::default()).next().unwrap().unwrap();
    /// assert!(game.is_selected(&GameSelector::parse("Round=2,Player=bob").unwrap()));
    /// assert!(!game.is_selected(&GameSelector::parse("2").unwrap()));
    /// assert_eq!(game.identity().unwrap().to_string(), "Ann vs Bob, round 2");
    /// ```
    pub fn is_selected(&self, selector: &GameSelector) -> bool {
        if self.index == 0 {
            return false;
        }
        match (&self.record, selector) {
            (_, GameSelector::Index(n)) => *n == self.index,
            (Some(record), _) => selector.matches(self.index, &record.tags),
            (None, GameSelector::Tags(_)) => false,
        }
    }
}

/// A stream of games.
pub type Games<'a> = Box<dyn Iterator<Item = io::Result<ParsedGame>> + Send + 'a>;

/// What a reader may need beyond the bytes.
///
/// ```
/// use reversi_engine::Rules;
/// use reversi_formats::{Format, ReadOptions};
/// // A move string says nothing of its rules: the options give them.
/// let options = ReadOptions { name: "6x6.txt".into(), rules: Some("othello:6x6".parse()?), ..ReadOptions::default() };
/// let games = Format::MoveString.read_bytes(b"d2e4\n".to_vec(), &options)?;
/// let rules: Rules = "othello:6x6".parse()?;
/// assert_eq!(games[0].record.as_ref().map(|r| r.rules), Some(rules));
/// assert_eq!(&*games[0].source.name, "6x6.txt");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct ReadOptions {
    /// Name shown in diagnostics (`-` for standard input).
    pub name: Arc<str>,
    /// The file's path, when it is a file (WTHOR looks for `WTHOR.JOU`/`WTHOR.TRN` beside it).
    pub path: Option<PathBuf>,
    /// Rules for records that do not state them (move strings, transcripts, RGN and PGN
    /// without a `Rules` tag); a record that states its rules keeps them.
    pub rules: Option<Rules>,
    /// Directory of WTHOR name files (`--names DIR`).
    pub names_dir: Option<PathBuf>,
    /// WTHOR's two name files by any names, instead of those of `names_dir`
    /// (`--names PLAYERS,TOURNAMENTS`).
    pub name_files: Option<wthor::NameFiles>,
}

/// `game` with at most [`MAX_PER_GAME`](crate::diagnostic::MAX_PER_GAME) diagnostics, and
/// one more counting the rest. Readers that collect with `Collected` are capped already;
/// the others are capped here. Its record's text has no control characters: they are
/// replaced and reported here ([`text::clean_record`]), for every reader at once.
#[doc(hidden)]
pub fn capped(mut game: ParsedGame) -> ParsedGame {
    if let Some(record) = &mut game.record {
        let index = game.index;
        let found = text::clean_record(record);
        game.diagnostics
            .extend(found.into_iter().map(|d| d.in_game(index)));
    }
    if game.diagnostics.len() > crate::diagnostic::MAX_PER_GAME + 1 {
        let all = std::mem::take(&mut game.diagnostics);
        game.diagnostics = crate::diagnostic::Collected::from(all).into_vec();
    }
    game
}

/// The most a file read whole by [`read_text`] may hold.
pub const MAX_WHOLE_FILE_BYTES: u64 = 16 << 20;

/// Reads `input` whole and decodes it: for text formats whose files are small by nature
/// (transcript grids). Bad UTF-8 is no error: each line that is not UTF-8 is read as
/// Windows-1252 and a NUL byte as U+FFFD, and the diagnostics returned say so
/// (`syntax-bad-encoding`, a warning; `syntax-nul-byte`, an error). UTF-16 is decoded
/// before, by [`Format::detect`]. An input over [`MAX_WHOLE_FILE_BYTES`] is refused with an
/// `InvalidData` error instead of being held.
pub fn read_text(input: impl BufRead) -> io::Result<(String, Vec<Diagnostic>)> {
    let mut bytes = Vec::new();
    input
        .take(MAX_WHOLE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)?;
    if bytes.len() as u64 > MAX_WHOLE_FILE_BYTES {
        return Err(io::Error::new(
            io::ErrorKind::InvalidData,
            format!(
                "the input is larger than {} MiB, more than a file of this format holds; it is not read",
                MAX_WHOLE_FILE_BYTES >> 20
            ),
        ));
    }
    Ok(text::decode(bytes, 0, 0))
}
