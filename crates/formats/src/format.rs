//! The formats: their names and dialects, and each one's reader, writer and renderer.

use super::*;

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
