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

/// What a writer needs to know.
///
/// ```
/// use reversi_formats::{Format, ReadOptions, WriteError, WriteOptions};
/// let games = Format::Rgn.read_bytes(b"[Black \"Ann\"]\n\nf5 {a comment} d6 *\n".to_vec(), &ReadOptions::default())?;
/// let records: Vec<_> = games.into_iter().filter_map(|g| g.record).collect();
/// // A move string holds no tags and no comments: refused, unless lossy.
/// let refused = Format::MoveString.write_bytes(&records, &WriteOptions::default());
/// assert!(matches!(refused, Err(WriteError::CannotHold(_))));
/// let lossy = WriteOptions { lossy: true, ..WriteOptions::default() };
/// let (text, lost) = Format::MoveString.write_bytes(&records, &lossy)?;
/// assert_eq!((text, lost.is_empty()), (b"f5d6\n".to_vec(), false));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct WriteOptions {
    /// Write what can be held and report the rest instead of refusing.
    pub lossy: bool,
    /// The dialect, for formats that have several.
    pub dialect: Option<String>,
    /// Directory for companion files (WTHOR `WTHOR.JOU`/`WTHOR.TRN`).
    pub names_dir: Option<PathBuf>,
    /// WTHOR's two name files by any names, instead of `WTHOR.JOU`/`WTHOR.TRN` in
    /// `names_dir` (`--names PLAYERS,TOURNAMENTS`).
    pub name_files: Option<wthor::NameFiles>,
    /// The year of every game of a WTHOR file (`--year`); without it, the games' own year,
    /// which must be one.
    pub year: Option<u16>,
    /// Where a writer stages what it writes before the output is complete (WTHOR's
    /// records): the output's directory; without it, the names directory, else the
    /// system's temporary directory.
    pub staging_dir: Option<PathBuf>,
    /// WTHOR: each year's header settings decided from all the games a run writes
    /// ([`wthor::YearHeaders`]), so that a merged file does not depend on the order of
    /// its inputs; without them, the first game that states a setting decides it.
    pub year_headers: Option<std::sync::Arc<wthor::YearHeaders>>,
}

/// Why a record could not be written.
#[derive(Debug)]
pub enum WriteError {
    /// The output failed.
    Io(io::Error),
    /// The format cannot hold these parts of the record, which are information around the
    /// game (tags, names, comments, claims): nothing was written, but writing lossily drops
    /// them and writes the game.
    CannotHold(Vec<String>),
    /// The format cannot hold these parts of the record without changing what the moves or
    /// the result mean (rules, board, start, players, scoring): refused even when writing
    /// lossily (see [`capabilities`]).
    ChangesMeaning(Vec<String>),
    /// The format cannot hold the game as the run is set up (`what`), and `how` says which
    /// setting would hold it: refused, `--lossy` or not (WTHOR: a game without a year,
    /// which `--year` files; a game of another year than the file's).
    NeedsSetting {
        /// What stands in the way.
        what: String,
        /// The setting that would let the game be written.
        how: String,
    },
    /// The game has errors that the format cannot hold: written, it would read back with
    /// other findings (`written`: the codes it would read with, none for a valid game)
    /// than the errors it has (`found`). Refused even when writing lossily: a conversion
    /// never turns a wrong game into another game, or into a right one.
    HidesErrors {
        /// The codes of the game's errors, as read.
        found: Vec<String>,
        /// The codes of the errors it would read back with.
        written: Vec<String>,
    },
}

impl fmt::Display for WriteError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WriteError::Io(e) => write!(f, "{e}"),
            WriteError::CannotHold(what) | WriteError::ChangesMeaning(what) => {
                write!(f, "the target format cannot hold {}", what.join("; "))
            }
            WriteError::HidesErrors { .. } => {
                write!(f, "the target format cannot hold {}", self.hidden_errors())
            }
            WriteError::NeedsSetting { what, how } => {
                write!(f, "the target format cannot hold {what} ({how})")
            }
        }
    }
}

impl WriteError {
    /// How a refusal is reported: what `target` cannot hold, and whether `--lossy` would
    /// convert the game (`lossy`: whether it was given). `None` for an I/O error.
    ///
    /// ```
    /// use reversi_formats::WriteError;
    /// let e = WriteError::ChangesMeaning(vec!["3 players".into()]);
    /// assert_eq!(
    ///     e.refusal("wthor", false).unwrap(),
    ///     "wthor cannot hold 3 players; not converted (not even with --lossy: it would change what the game means)"
    /// );
    /// ```
    pub fn refusal(&self, target: &str, lossy: bool) -> Option<String> {
        let (what, hint) = match self {
            WriteError::Io(_) => return None,
            WriteError::ChangesMeaning(what) => (
                what,
                "not even with --lossy: it would change what the game means",
            ),
            WriteError::CannotHold(what) if !lossy => (what, "--lossy converts it without them"),
            WriteError::CannotHold(what) => (what, "the target has no room for it"),
            WriteError::NeedsSetting { what, how } => {
                return Some(format!("{target} cannot hold {what}; not converted ({how})"))
            }
            WriteError::HidesErrors { .. } => {
                return Some(format!(
                    "{target} cannot hold {}; not converted (not even with --lossy: a conversion never turns a wrong game into another; `reversi repair` fixes the record)",
                    self.hidden_errors()
                ))
            }
        };
        Some(format!(
            "{target} cannot hold {}; not converted ({hint})",
            what.join("; ")
        ))
    }

    /// What a [`WriteError::HidesErrors`] says: the errors found, and what the written
    /// game would read as.
    ///
    /// ```
    /// use reversi_formats::WriteError;
    /// let e = WriteError::HidesErrors { found: vec!["wrong-color".into()], written: vec![] };
    /// assert_eq!(
    ///     e.refusal("wthor", true).unwrap(),
    ///     "wthor cannot hold what makes this game wrong (wrong-color): written, it would read as a valid game; \
    ///      not converted (not even with --lossy: a conversion never turns a wrong game into another; `reversi repair` fixes the record)"
    /// );
    /// ```
    fn hidden_errors(&self) -> String {
        let WriteError::HidesErrors { found, written } = self else {
            return String::new();
        };
        let as_read = if written.is_empty() {
            "a valid game".to_owned()
        } else {
            format!("a game with {}", written.join(", "))
        };
        format!(
            "what makes this game wrong ({}): written, it would read as {as_read}",
            found.join(", ")
        )
    }
}

impl std::error::Error for WriteError {}

impl From<io::Error> for WriteError {
    fn from(e: io::Error) -> WriteError {
        WriteError::Io(e)
    }
}

/// Writes records one at a time.
pub trait RecordWriter {
    /// Writes `record` (or buffers it, for formats with a header). Returns what was dropped
    /// when writing lossily; refuses with [`WriteError::CannotHold`] otherwise.
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError>;
    /// Flushes everything, writing headers and companion files.
    fn finish(&mut self) -> io::Result<()>;

    /// A renderer of this writer's records that may run on other threads, for
    /// [`RecordWriter::write_rendered`] to write in order; `None` when the writer must see
    /// the records themselves, one after the other (WTHOR numbers names as it meets them).
    fn renderer(&self) -> Option<Renderer> {
        None
    }

    /// Writes what this writer's [`Renderer`] made of a record, as
    /// [`RecordWriter::write`] writes the record; returns what was dropped.
    fn write_rendered(&mut self, rendered: &Rendered) -> Result<Vec<String>, WriteError> {
        let _ = rendered;
        Err(WriteError::Io(io::Error::new(
            io::ErrorKind::Unsupported,
            "this writer writes records, not rendered text",
        )))
    }
}

/// Refuses or reports `losses` as the options say.
pub fn check_losses(
    losses: Vec<String>,
    options: &WriteOptions,
) -> Result<Vec<String>, WriteError> {
    if losses.is_empty() || options.lossy {
        Ok(losses)
    } else {
        Err(WriteError::CannotHold(losses))
    }
}

/// The start of an input, for content detection.
#[derive(Clone, Copy, Debug)]
pub struct Sniff<'a> {
    /// The first bytes (up to 4 KiB).
    pub head: &'a [u8],
    /// The whole input's length, when known.
    pub len: Option<u64>,
}

/// A record format.
///
/// ```
/// use reversi_formats::{Format, ReadOptions, WriteOptions};
/// let text = "[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 d6 2. c3 *\n";
/// // Told by its content (then its name), or named.
/// let detected = Format::detect(Box::new(text.as_bytes()), "round-1.txt", None, None)?;
/// assert_eq!(detected.format, Format::Rgn);
/// assert_eq!("ggf".parse::<Format>()?, Format::Ggf);
/// let games = Format::Rgn.read_bytes(text.as_bytes().to_vec(), &ReadOptions::default())?;
/// let records: Vec<_> = games.into_iter().filter_map(|g| g.record).collect();
/// let (json, _) = Format::Json.write_bytes(&records, &WriteOptions::default())?;
/// assert!(String::from_utf8(json)?.contains("\"Black\""));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Format {
    /// Our own Reversi Game Notation (PGN-shaped), `.rgn`.
    Rgn,
    /// The record model as JSON.
    Json,
    /// WTHOR game databases (`.wtb`, `.wtd`).
    Wthor,
    /// GGS's Generic Game Format.
    Ggf,
    /// Othello PGN in one of its dialects.
    Pgn(PgnDialect),
    /// SGF with `GM[2]`.
    Sgf,
    /// Move strings, one game a line (or a CSV column).
    MoveString,
    /// Transcript grids of move numbers.
    Transcript,
    /// OBF / board-string positions.
    Obf,
}

/// The flavours of Othello PGN.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum PgnDialect {
    /// Our RGN (the default when writing).
    Rgn,
    /// thor-to-PGN exports: upper-case moves, numbered pairs, no passes.
    Thor,
    /// PlayOK: `--` passes, the score repeated after the movetext.
    PlayOk,
    /// Edax: `pass`, chess-style results with a `{X wins B-W}` comment.
    Edax,
}

impl PgnDialect {
    /// The dialect's name on the command line.
    pub const fn name(self) -> &'static str {
        match self {
            PgnDialect::Rgn => "rgn",
            PgnDialect::Thor => "thor",
            PgnDialect::PlayOk => "playok",
            PgnDialect::Edax => "edax",
        }
    }
}

impl Format {
    /// Every format a writer exists for, dialects included, as `--to` names them.
    pub const WRITABLE: [Format; 12] = [
        Format::Rgn,
        Format::Json,
        Format::Wthor,
        Format::Ggf,
        Format::Pgn(PgnDialect::Rgn),
        Format::Pgn(PgnDialect::Thor),
        Format::Pgn(PgnDialect::PlayOk),
        Format::Pgn(PgnDialect::Edax),
        Format::Sgf,
        Format::MoveString,
        Format::Transcript,
        Format::Obf,
    ];

    /// The formats content detection tries, in order (PGN is read by the RGN
    /// reader, so it is detected as RGN).
    pub const DETECTION_ORDER: [Format; 8] = [
        Format::Wthor,
        Format::Json,
        Format::Ggf,
        Format::Sgf,
        Format::Obf,
        Format::Rgn,
        Format::Transcript,
        Format::MoveString,
    ];

    /// The name on the command line (`pgn:playok` for a dialect).
    pub fn name(self) -> String {
        match self {
            Format::Rgn => "rgn".into(),
            Format::Json => "json".into(),
            Format::Wthor => "wthor".into(),
            Format::Ggf => "ggf".into(),
            Format::Pgn(PgnDialect::Rgn) => "pgn".into(),
            Format::Pgn(d) => format!("pgn:{}", d.name()),
            Format::Sgf => "sgf".into(),
            Format::MoveString => "moves".into(),
            Format::Transcript => "transcript".into(),
            Format::Obf => "obf".into(),
        }
    }

    /// The format a file extension suggests.
    pub fn from_extension(ext: &str) -> Option<Format> {
        Some(match ext.to_ascii_lowercase().as_str() {
            "rgn" => Format::Rgn,
            "json" | "jsonl" => Format::Json,
            "wtb" | "wtd" => Format::Wthor,
            "ggf" => Format::Ggf,
            "pgn" => Format::Pgn(PgnDialect::Rgn),
            "sgf" => Format::Sgf,
            "txt" | "csv" => Format::MoveString,
            "grid" | "transcript" => Format::Transcript,
            "obf" => Format::Obf,
            _ => return None,
        })
    }

    /// The format the content looks like, if any.
    pub fn sniff(input: &Sniff<'_>) -> Option<Format> {
        Format::DETECTION_ORDER.into_iter().find(|f| match f {
            Format::Wthor => wthor::sniff(input),
            Format::Json => json::sniff(input),
            Format::Ggf => ggf::sniff(input),
            Format::Sgf => sgf::sniff(input),
            Format::Obf => obf::sniff(input),
            Format::Rgn | Format::Pgn(_) => rgn::sniff(input),
            Format::Transcript => transcript::sniff(input),
            Format::MoveString => movestr::sniff(input),
        })
    }

    /// Reads games from `input`.
    ///
    /// Every reader bounds what it holds: a line or game over [`text::MAX_GAME_BYTES`] is
    /// skipped with a `syntax-too-long` error, and a game reports at most
    /// [`MAX_PER_GAME`](crate::diagnostic::MAX_PER_GAME) diagnostics.
    /// An input that runs on for [`text::MAX_RUN_WITHOUT_GAME`] bytes without giving a
    /// game (`/dev/zero`, a binary file read as text) ends with an `InvalidData` error.
    pub fn read<'a>(self, input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
        let consumed = Arc::new(std::sync::atomic::AtomicU64::new(0));
        let input = Box::new(text::RunawayGuard::new(input, consumed.clone()));
        let games = match self {
            Format::Rgn | Format::Pgn(_) => rgn::read(input, options),
            Format::Json => json::read(input, options),
            Format::Wthor => wthor::read(input, options),
            Format::Ggf => ggf::read(input, options),
            Format::Sgf => sgf::read(input, options),
            Format::MoveString => movestr::read(input, options),
            Format::Transcript => transcript::read(input, options),
            Format::Obf => obf::read(input, options),
        };
        Box::new(games.map(move |game| {
            consumed.store(0, std::sync::atomic::Ordering::Relaxed);
            game.map(capped)
        }))
    }

    /// A writer of this format to `out`. Records the format cannot hold without changing
    /// what they mean are refused first, as [`capabilities::meaning_losses`] says.
    pub fn writer<'a>(
        self,
        out: Box<dyn Write + Send + 'a>,
        options: &WriteOptions,
    ) -> Box<dyn RecordWriter + 'a> {
        match self {
            Format::Rgn | Format::Pgn(PgnDialect::Rgn) => rgn::writer(out, options),
            Format::Pgn(dialect) => pgn::writer(out, dialect, options),
            Format::Json => json::writer(out, options),
            Format::Wthor => wthor::writer(out, options),
            Format::Ggf => ggf::writer(out, options),
            Format::Sgf => sgf::writer(out, options),
            Format::MoveString => movestr::writer(out, options),
            Format::Transcript => transcript::writer(out, options),
            Format::Obf => obf::writer(out, options),
        }
    }

    /// The renderer of this format's writers ([`RecordWriter::renderer`]) with `options`,
    /// without a writer: what a conversion into several files renders with before it opens
    /// any. `None` for WTHOR, whose writer takes records.
    ///
    /// ```
    /// use reversi_formats::{Format, WriteOptions};
    /// let options = WriteOptions::default();
    /// assert!(Format::Rgn.renderer(&options).is_some());
    /// assert!(Format::Wthor.renderer(&options).is_none());
    /// ```
    pub fn renderer(self, options: &WriteOptions) -> Option<Renderer> {
        match self {
            Format::Wthor => None,
            _ => self.writer(Box::new(io::sink()), options).renderer(),
        }
    }
}

/// How [`Format::detect`] chose a format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detection {
    /// The caller named it.
    Given,
    /// The content looks like it ([`Format::sniff`]).
    Content,
    /// The file name's extension suggests it ([`Format::from_extension`]).
    Extension,
}

impl Detection {
    /// How the format was chosen, in words (`detected from its content`).
    pub const fn phrase(self) -> &'static str {
        match self {
            Detection::Given => "as given",
            Detection::Content => "detected from its content",
            Detection::Extension => "detected from its extension",
        }
    }
}

/// An input whose format [`Format::detect`] has chosen, ready for [`Format::read`].
pub struct Detected<'a> {
    /// The format to read it as.
    pub format: Format,
    /// How the format was chosen.
    pub detection: Detection,
    /// The encoding the input is decoded from, when it is UTF-16 (recognised by its
    /// byte-order mark); `input` then gives UTF-8.
    pub decoded_from: Option<text::Utf16>,
    /// The input, from its first byte (decoded to UTF-8 when it was UTF-16).
    pub input: Box<dyn BufRead + Send + 'a>,
}

impl fmt::Debug for Detected<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Detected")
            .field("format", &self.format)
            .field("detection", &self.detection)
            .field("decoded_from", &self.decoded_from)
            .finish_non_exhaustive()
    }
}

/// Why [`Format::detect`] found no format.
#[derive(Debug)]
pub enum DetectError {
    /// Reading the start of the input failed.
    Read(io::Error),
    /// Neither the content nor the name tells the format.
    Unknown,
}

impl fmt::Display for DetectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DetectError::Read(e) => write!(f, "reading failed: {e}"),
            DetectError::Unknown => {
                f.write_str("cannot tell the format from the content or the name")
            }
        }
    }
}

impl std::error::Error for DetectError {}

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

/// Buffer size of the readers [`Format::detect`] builds.
const DETECT_BUFFER: usize = 64 * 1024;

impl Format {
    /// Chooses the format of `input`: `given` when set, else what the content looks like
    /// (the first 4 KiB; `len` is the whole input's length when known), else what the
    /// extension of `name` suggests. UTF-16 input (byte-order mark) is decoded to UTF-8,
    /// except when WTHOR, a binary format, is given.
    ///
    /// ```
    /// use reversi_formats::{Detection, Format};
    /// let detected = Format::detect(Box::new(&b"f5d6c3d3c4\n"[..]), "games.dat", None, None).unwrap();
    /// assert_eq!((detected.format, detected.detection), (Format::MoveString, Detection::Content));
    /// ```
    pub fn detect<'a>(
        input: Box<dyn io::Read + Send + 'a>,
        name: &str,
        len: Option<u64>,
        given: Option<Format>,
    ) -> Result<Detected<'a>, DetectError> {
        let mut reader = io::BufReader::with_capacity(DETECT_BUFFER, input);
        let decoded_from = match given {
            Some(Format::Wthor) => None,
            _ => text::utf16_bom(reader.fill_buf().map_err(DetectError::Read)?),
        };
        let mut input: Box<dyn BufRead + Send + 'a> = match decoded_from {
            Some(order) => Box::new(io::BufReader::with_capacity(
                DETECT_BUFFER,
                text::Utf16Reader::new(reader, order),
            )),
            None => Box::new(reader),
        };
        let (format, detection) = match given {
            Some(f) => (f, Detection::Given),
            None => {
                let head = input.fill_buf().map_err(DetectError::Read)?;
                let sniffed = Format::sniff(&Sniff {
                    head: &head[..head.len().min(4096)],
                    len,
                });
                let by_extension = std::path::Path::new(name)
                    .extension()
                    .and_then(|e| e.to_str())
                    .and_then(Format::from_extension);
                match (sniffed, by_extension) {
                    (Some(f), _) => (f, Detection::Content),
                    (None, Some(f)) => (f, Detection::Extension),
                    (None, None) => return Err(DetectError::Unknown),
                }
            }
        };
        Ok(Detected {
            format,
            detection,
            decoded_from,
            input,
        })
    }
}

impl Format {
    /// Reads every game of an in-memory input: the convenience form of [`Format::read`] for
    /// tests and small inputs.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions};
    /// let games = Format::MoveString.read_bytes("f5d6c3\nf5f6\n", &ReadOptions::default()).unwrap();
    /// assert_eq!(games.len(), 2);
    /// assert_eq!(games[1].record.as_ref().unwrap().moves.len(), 2);
    /// ```
    pub fn read_bytes(
        self,
        input: impl Into<Vec<u8>>,
        options: &ReadOptions,
    ) -> io::Result<Vec<ParsedGame>> {
        self.read(Box::new(io::Cursor::new(input.into())), options)
            .collect()
    }

    /// Writes `records` to memory: the bytes, and what was dropped (lossy writing). The
    /// first refusal stops the writing.
    pub fn write_bytes(
        self,
        records: &[Record],
        options: &WriteOptions,
    ) -> Result<(Vec<u8>, Vec<String>), WriteError> {
        let mut out = Vec::new();
        let mut dropped = Vec::new();
        {
            let mut writer = self.writer(Box::new(&mut out), options);
            for record in records {
                dropped.extend(writer.write(record)?);
            }
            writer.finish()?;
        }
        Ok((out, dropped))
    }
}

/// What [`Format::write_each`] made of a list of records: the bytes, and what became of
/// each game that was not written whole.
#[derive(Debug, Default)]
pub struct WrittenEach {
    /// The output.
    pub bytes: Vec<u8>,
    /// Games written.
    pub written: usize,
    /// The games refused, each with its number and the refusal as the converter says it.
    pub refused: Vec<(usize, String)>,
    /// The games written lossily, each with its number and what was dropped.
    pub dropped: Vec<(usize, Vec<String>)>,
}

impl Format {
    /// Writes `records` (each with its game number) to memory one at a time, as a
    /// conversion does: a game the format refuses is left out and named with the refusal
    /// ([`WriteError::refusal`]), a game written lossily is named with what it lost; only
    /// an I/O error stops the writing.
    ///
    /// ```
    /// use reversi_formats::{Format, ReadOptions, WriteOptions};
    /// let text = "[Black \"Ann\"]\n\nf5 d6 *\n\n[Rules \"anti\"]\n\nf5 *\n";
    /// let games = Format::Rgn.read_bytes(text, &ReadOptions::default()).unwrap();
    /// let records = games.iter().map(|g| (g.index, g.record.as_ref().unwrap()));
    /// let out = Format::MoveString.write_each(records, &WriteOptions { lossy: true, ..Default::default() }).unwrap();
    /// assert_eq!(out.written, 2);
    /// assert_eq!(out.dropped[0].0, 1, "the tag is lost");
    /// let records = games.iter().map(|g| (g.index, g.record.as_ref().unwrap()));
    /// let out = Format::Wthor.write_each(records, &WriteOptions::default()).unwrap();
    /// assert!(out.refused.iter().any(|(game, why)| *game == 2 && why.starts_with("wthor cannot hold")));
    /// ```
    pub fn write_each<'r>(
        self,
        records: impl IntoIterator<Item = (usize, &'r Record)>,
        options: &WriteOptions,
    ) -> io::Result<WrittenEach> {
        let mut out = WrittenEach::default();
        let mut bytes = Vec::new();
        {
            let mut writer = self.writer(Box::new(&mut bytes), options);
            for (game, record) in records {
                match writer.write(record) {
                    Ok(losses) => {
                        out.written += 1;
                        if !losses.is_empty() {
                            out.dropped.push((game, losses));
                        }
                    }
                    Err(WriteError::Io(e)) => return Err(e),
                    Err(e) => {
                        let why = e
                            .refusal(&self.name(), options.lossy)
                            .unwrap_or_else(|| e.to_string());
                        out.refused.push((game, why));
                    }
                }
            }
            writer.finish()?;
        }
        out.bytes = bytes;
        Ok(out)
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// A format name that could not be read (`FORMAT[:DIALECT]`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ParseFormatError {
    /// No format has this name.
    UnknownFormat(String),
    /// PGN has no dialect of this name.
    UnknownDialect(String),
    /// The format has no dialects.
    NoDialects(Format, String),
}

impl fmt::Display for ParseFormatError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ParseFormatError::UnknownFormat(name) => write!(
                f,
                "expected a format (rgn, json, wthor, ggf, pgn[:thor|playok|edax], sgf, moves, transcript, obf), but found `{name}` instead"
            ),
            ParseFormatError::UnknownDialect(d) => write!(
                f,
                "expected a PGN dialect (rgn, thor, playok, edax), but found `{d}` instead"
            ),
            ParseFormatError::NoDialects(format, d) => {
                write!(f, "format {format} has no dialect `{d}`")
            }
        }
    }
}

impl std::error::Error for ParseFormatError {}

impl std::str::FromStr for Format {
    type Err = ParseFormatError;

    /// `FORMAT[:DIALECT]`, such as `ggf` or `pgn:playok`.
    fn from_str(s: &str) -> Result<Format, ParseFormatError> {
        let (name, dialect) = match s.split_once(':') {
            Some((n, d)) => (n, Some(d)),
            None => (s, None),
        };
        let format = match name.to_ascii_lowercase().as_str() {
            "rgn" => Format::Rgn,
            "json" => Format::Json,
            "wthor" | "wtb" | "wtd" => Format::Wthor,
            "ggf" => Format::Ggf,
            "pgn" => Format::Pgn(PgnDialect::Rgn),
            "sgf" => Format::Sgf,
            "moves" | "movestring" | "txt" => Format::MoveString,
            "transcript" | "grid" => Format::Transcript,
            "obf" => Format::Obf,
            _ => return Err(ParseFormatError::UnknownFormat(name.to_owned())),
        };
        match (format, dialect) {
            (f, None) => Ok(f),
            (Format::Pgn(_), Some(d)) => {
                let dialect = [
                    PgnDialect::Rgn,
                    PgnDialect::Thor,
                    PgnDialect::PlayOk,
                    PgnDialect::Edax,
                ]
                .into_iter()
                .find(|x| d.eq_ignore_ascii_case(x.name()))
                .ok_or_else(|| ParseFormatError::UnknownDialect(d.to_owned()))?;
                Ok(Format::Pgn(dialect))
            }
            (f, Some(d)) => Err(ParseFormatError::NoDialects(f, d.to_owned())),
        }
    }
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
