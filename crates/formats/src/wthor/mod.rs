//! WTHOR databases: the Fédération Française d'Othello's binary game files (`.wtb` 8x8,
//! `.wtd` 10x10) and their name files (`WTHOR.JOU` players, `WTHOR.TRN` tournaments).
//!
//! A game file is a 16-byte little-endian [`Header`] and fixed records (68 bytes on 8x8, 104
//! on 10x10): tournament, black and white indexes into the name files (u16), the black
//! score, the theoretical score, and the moves (`10*row+col` on 8x8, `12*row+col` on 10x10,
//! rows and columns from 1) padded with zeros. Passes are not stored: replay infers them,
//! and the reader does not insert them.
//!
//! # Reading
//!
//! [`read`] streams the records one at a time. Each [`Record`] gets the standard rules of
//! its board, the moves, the black score as `ClaimedResult::discs([b, total - b])` (the
//! empty squares of a finished game go to the winner, as the WOF counts) and these tags:
//!
//! | tag | value |
//! |---|---|
//! | `Event`, `Black`, `White` | names from `WTHOR.TRN` / `WTHOR.JOU`, when found |
//! | `Date` | the header's game year (absent when 0) |
//! | `TheoreticalScore` | black's discs after perfect play from `TheoreticalDepth` empties |
//! | `TheoreticalDepth` | header P3; 0 means 22 in files created from 2001 on; absent when unknown or 1 (Edax writes 1 with a meaningless theoretical score) |
//! | [`TOURNAMENT_TAG`] `WthorTournament`, [`BLACK_TAG`] `WthorBlack`, [`WHITE_TAG`] `WthorWhite` | the record's name indexes |
//! | [`CREATED_TAG`] `WthorCreated` | the header's creation date, `YYYY-MM-DD` |
//! | [`BOARD_SIZE_TAG`] `WthorBoardSize` | header P1 as stored (0 or 8 for 8x8, 10) |
//! | [`DEPTH_TAG`] `WthorDepth` | header P3 as stored |
//!
//! The `Wthor*` tags are what the [`writer`] needs to give back the file byte for byte.
//!
//! Names come from the two files of [`ReadOptions::name_files`], else from
//! `WTHOR.JOU`/`WTHOR.TRN` in [`ReadOptions::names_dir`], else beside the game file
//! ([`ReadOptions::path`]'s directory, any case of the names), decoded as Windows-1252
//! ([`decode_cp1252`]). An index beyond a table keeps its index tag and gets a
//! `wthor-unknown-player` / `wthor-unknown-tournament` warning.
//!
//! # The text view
//!
//! A binary file has no text for diagnostics to point at, so the reader gives each game a
//! line of a virtual text file, one line per game:
//!
//! ```text
//! #3 [byte 152] World Championship 2004 | Tastet Marc - Murakami Takeshi | 41 (38@24): f5 d6 c3 ...
//! ```
//!
//! (`#index`, the record's real byte offset in the file, tournament and year, players, the
//! black score, the theoretical score and its depth, the moves). **Spans of this format
//! index that text view, not the file**: `Source.text` is the game's line, `Source.line` the
//! game index - 1, `Source.offset` the line's offset in the virtual text; move tokens
//! ([`MoveRecord::span`](crate::record::MoveRecord)), the score (the result's span), the
//! names and the whole line ([`Record::span`]) have spans into it. Labels name the real file
//! offsets. A byte that is no square shows as `<byte>`; bytes after the end of the moves
//! show only when one of them is not zero. When the header itself is wrong, game 1's line
//! ends with a description of the header (`|| header: created 2021-06-27, N1 320, ...`) for
//! the diagnostics to point at.
//!
//! # Diagnostics
//!
//! | code | severity | what |
//! |---|---|---|
//! | `wthor-bad-header` | error | a header field out of range; an unknown board size or a solitaire file stops the reading |
//! | `wthor-count-mismatch` | error | the header's N1 disagrees with the records in the file (all present records are read) |
//! | `wthor-truncated-record` | error | the file ends inside a record (the complete records before it are read) |
//! | `wthor-bad-move-byte` | error | a move byte that is no square of the board |
//! | `wthor-move-after-end` | error | a non-zero byte after the first empty move slot |
//! | `wthor-bad-score` | error | a score above the number of squares |
//! | `wthor-unknown-player`, `wthor-unknown-tournament` | warning | an index beyond the name table |
//! | `wthor-names-unreadable` | warning | a name file that is there but cannot be read |
//!
//! A record with an error has `record: None`.
//!
//! # Writing
//!
//! [`writer`] writes the 68- or 104-byte records (all records of a file share one board),
//! staging them as they come in an anonymous file beside the output
//! ([`WriteOptions::staging_dir`]), so memory stays flat, and writes the header and copies
//! the records on [`RecordWriter::finish`]; a staging failure names the directory and the
//! cause.
//!
//! * **The year.** The header holds one year for all the games: [`WriteOptions::year`]
//!   (`--year`), else the first game's `Date`. A game without a year, or of another year,
//!   is refused, even lossily (it would be misdated), with the way out in the message:
//!   `--year YYYY`, or an output template per year; with a year given, a game of another
//!   year is a `--lossy` loss.
//! * **Names.** With name files ([`WriteOptions::names_dir`], by default in the CLI the
//!   output's directory, or the two files of [`WriteOptions::name_files`]; see [`Names`]
//!   for `--names`), each `Event`/`Black`/`White` is looked up: its `WthorTournament`/
//!   `WthorBlack`/`WthorWhite` index is kept when the table gives it that name, else the
//!   name wins, found elsewhere or added, so an edit made in another format survives.
//!   Without name files the index tags are written as they are. Into a directory without
//!   name files, the names are numbered anew in the files written there. Name files are written
//!   whenever the games name someone, also into an empty directory (created when missing:
//!   [`prepare_names`]); files already there are extended, never rewritten: their records
//!   are copied byte for byte, new names appended, through a temporary file renamed over
//!   the old one.
//! * **Name encoding.** New names are written in the characters ISO-8859-1 and
//!   Windows-1252 readers read alike ([`name_bytes`]: the `wthor` crate and thor2pgn
//!   decode Latin-1, Windows tools Windows-1252, and they differ on 0x80-0x9F); a name
//!   with another character (`Š`, `œ`, `€`) is refused, or written with
//!   [`name_fallback`]'s replacements as a `--lossy` loss. Names too long are cut, a loss.
//! * **Scores.** Black's count from the result (a margin converts); without one, a loss,
//!   the board's count after replaying the moves, recorded passes played as passes.
//! * **Derived tags.** `TheoreticalDepth` wins over a `WthorDepth` byte that says
//!   otherwise (the header's P3 follows the value).
//!
//! What WTHOR cannot hold is refused by the [capability table](super::capabilities) (other
//! rules, boards, starts) or, for information around the game, listed as a `--lossy` loss.

use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};

use super::{Games, ReadOptions, RecordWriter, Sniff, WriteOptions};
use crate::engine::{BoardShape, Square};
#[cfg(doc)]
use crate::record::Record;

mod charset;
mod names;
mod reader;
mod record;
mod writer;

pub use super::text::{decode_cp1252, encode_cp1252};
pub use charset::{name_bytes, name_fallback};
pub use names::{is_name_file, name_files_beside, NameKind, NameTable};
pub use writer::{WthorWriter, YearHeaders};

#[doc(hidden)]
pub use reader::{Entry, Reader};
#[doc(hidden)]
pub use record::{FileContext, QuickRecord, Tags, QUICK_CODES};

/// Tag holding the record's tournament index into `WTHOR.TRN`.
pub const TOURNAMENT_TAG: &str = crate::record::TagName::WTHOR_TOURNAMENT;
/// Tag holding the record's black player index into `WTHOR.JOU`.
pub const BLACK_TAG: &str = crate::record::TagName::WTHOR_BLACK;
/// Tag holding the record's white player index into `WTHOR.JOU`.
pub const WHITE_TAG: &str = crate::record::TagName::WTHOR_WHITE;
/// Tag holding the file header's creation date, `YYYY-MM-DD`.
pub const CREATED_TAG: &str = crate::record::TagName::WTHOR_CREATED;
/// Tag holding the header's board-size byte P1 as stored (0 or 8 for 8x8, 10 for 10x10).
pub const BOARD_SIZE_TAG: &str = crate::record::TagName::WTHOR_BOARD_SIZE;
/// Tag holding the header's depth byte P3 as stored (0 means 22 after 2001).
pub const DEPTH_TAG: &str = crate::record::TagName::WTHOR_DEPTH;

/// The board of a game file: 8x8 (`.wtb`) or 10x10 (`.wtd`).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Geometry {
    /// 8x8, 68-byte records, move byte `10*row+col`.
    Eight,
    /// 10x10, 104-byte records, move byte `12*row+col`.
    Ten,
}

impl Geometry {
    /// The geometry of `board`, if WTHOR has one.
    pub fn of(board: BoardShape) -> Option<Geometry> {
        match board {
            BoardShape::Eight => Some(Geometry::Eight),
            BoardShape::Ten => Some(Geometry::Ten),
            _ => None,
        }
    }

    /// The board shape.
    pub const fn board(self) -> BoardShape {
        match self {
            Geometry::Eight => BoardShape::Eight,
            Geometry::Ten => BoardShape::Ten,
        }
    }

    /// Bytes per game record.
    pub const fn record_len(self) -> usize {
        match self {
            Geometry::Eight => 68,
            Geometry::Ten => 104,
        }
    }

    /// Move slots per record (60 or 96).
    pub const fn slots(self) -> usize {
        self.record_len() - 8
    }

    /// Squares on the board (64 or 100).
    pub const fn squares(self) -> u8 {
        match self {
            Geometry::Eight => 64,
            Geometry::Ten => 100,
        }
    }

    const fn side(self) -> u8 {
        match self {
            Geometry::Eight => 8,
            Geometry::Ten => 10,
        }
    }

    const fn stride(self) -> u8 {
        self.side() + 2
    }

    /// The square a move byte names, if any.
    ///
    /// ```
    /// use reversi_formats::wthor::Geometry;
    /// assert_eq!(Geometry::Eight.decode(56).unwrap().to_string(), "f5");
    /// assert_eq!(Geometry::Ten.decode(130).unwrap().to_string(), "j10");
    /// assert_eq!(Geometry::Eight.decode(19), None);
    /// ```
    pub fn decode(self, byte: u8) -> Option<Square> {
        let (row, col) = (byte / self.stride(), byte % self.stride());
        let range = 1..=self.side();
        if range.contains(&row) && range.contains(&col) {
            Square::new(col - 1, row - 1)
        } else {
            None
        }
    }

    /// The move byte of `sq`, if it is on the board.
    pub fn encode(self, sq: Square) -> Option<u8> {
        (sq.col() < self.side() && sq.row() < self.side())
            .then(|| (sq.row() + 1) * self.stride() + sq.col() + 1)
    }
}

/// The 16-byte header every WTHOR file starts with (integers little-endian).
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Default)]
pub struct Header {
    /// Century of creation (20).
    pub century: u8,
    /// Year of creation within the century (21 for 2021).
    pub year_in_century: u8,
    /// Month of creation, 1-12.
    pub month: u8,
    /// Day of creation, 1-31.
    pub day: u8,
    /// Records in a game file; 0 in name files.
    pub n1: u32,
    /// Records in a name file; 0 in game files.
    pub n2: u16,
    /// Year of the games; 0 in name files.
    pub game_year: u16,
    /// Board size: 0 or 8 for 8x8, 10 for 10x10.
    pub p1: u8,
    /// File type: 1 for a solitaire file, else 0.
    pub p2: u8,
    /// Empties at which the theoretical scores were computed (0 means 22).
    pub p3: u8,
    /// Reserved, 0.
    pub reserved: u8,
}

impl Header {
    /// Bytes in a header.
    pub const LEN: usize = 16;

    /// Decodes a header.
    pub fn parse(b: &[u8; Header::LEN]) -> Header {
        Header {
            century: b[0],
            year_in_century: b[1],
            month: b[2],
            day: b[3],
            n1: u32::from_le_bytes([b[4], b[5], b[6], b[7]]),
            n2: u16::from_le_bytes([b[8], b[9]]),
            game_year: u16::from_le_bytes([b[10], b[11]]),
            p1: b[12],
            p2: b[13],
            p3: b[14],
            reserved: b[15],
        }
    }

    /// Encodes the header.
    pub fn to_bytes(&self) -> [u8; Header::LEN] {
        let [n1a, n1b, n1c, n1d] = self.n1.to_le_bytes();
        let [n2a, n2b] = self.n2.to_le_bytes();
        let [ya, yb] = self.game_year.to_le_bytes();
        [
            self.century,
            self.year_in_century,
            self.month,
            self.day,
            n1a,
            n1b,
            n1c,
            n1d,
            n2a,
            n2b,
            ya,
            yb,
            self.p1,
            self.p2,
            self.p3,
            self.reserved,
        ]
    }

    /// The header of a name file of `count` names, created today.
    pub fn names(count: u16) -> Header {
        let mut h = Header {
            n2: count,
            ..Header::default()
        };
        h.set_created(today());
        h
    }

    /// The board of a game file, from P1.
    pub fn geometry(&self) -> Option<Geometry> {
        match self.p1 {
            0 | 8 => Some(Geometry::Eight),
            10 => Some(Geometry::Ten),
            _ => None,
        }
    }

    /// The year of creation.
    pub fn created_year(&self) -> u32 {
        u32::from(self.century) * 100 + u32::from(self.year_in_century)
    }

    /// The creation date as `YYYY-MM-DD`.
    pub fn created(&self) -> String {
        format!(
            "{:04}-{:02}-{:02}",
            self.created_year(),
            self.month,
            self.day
        )
    }

    /// Sets the creation date from a year, month and day.
    pub fn set_created(&mut self, (year, month, day): (u32, u8, u8)) {
        self.century = u8::try_from(year / 100).unwrap_or(u8::MAX);
        self.year_in_century = u8::try_from(year % 100).unwrap_or(0);
        self.month = month;
        self.day = day;
    }

    /// Empties at which the theoretical scores were computed: P3, with 0 meaning 22 in
    /// files created from 2001 on; `None` when unknown (0 in older files) or meaningless
    /// (Edax writes 1).
    pub fn theoretical_depth(&self) -> Option<u8> {
        match self.p3 {
            0 if self.created_year() >= 2001 => Some(22),
            0 | 1 => None,
            depth => Some(depth),
        }
    }
}

/// Parses a `YYYY-MM-DD` creation date.
fn parse_created(text: &str) -> Option<(u32, u8, u8)> {
    let mut parts = text.trim().splitn(3, '-');
    let year = parts.next()?.parse().ok()?;
    let month = parts.next()?.parse().ok()?;
    let day = parts.next()?.parse().ok()?;
    Some((year, month, day))
}

/// Today's date (UTC), for the creation date of new files.
fn today() -> (u32, u8, u8) {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    civil_from_days(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// The proleptic Gregorian date `days` after 1970-01-01 (H. Hinnant's algorithm).
fn civil_from_days(days: i64) -> (u32, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    (
        u32::try_from(year).unwrap_or(0),
        u8::try_from(month).unwrap_or(1),
        u8::try_from(day).unwrap_or(1),
    )
}

/// Whether the input looks like a WTHOR game file: with the length known, `16 + N1 *
/// record length == length` with N2 = 0 and P2 = 0; else plausible header fields (a
/// creation date, P1 of a known board, N2 = P2 = 0, P3 within the move slots).
pub fn sniff(input: &Sniff<'_>) -> bool {
    let Some(head) = input
        .head
        .get(..Header::LEN)
        .and_then(|h| <&[u8; Header::LEN]>::try_from(h).ok())
    else {
        return false;
    };
    let h = Header::parse(head);
    let Some(geometry) = h.geometry() else {
        return false;
    };
    if h.n2 != 0 || h.p2 != 0 {
        return false;
    }
    match input.len {
        Some(len) => {
            let record = geometry.record_len() as u64;
            u64::from(h.n1)
                .checked_mul(record)
                .and_then(|body| body.checked_add(Header::LEN as u64))
                == Some(len)
        }
        None => {
            (19..=21).contains(&h.century)
                && h.year_in_century < 100
                && (1..=12).contains(&h.month)
                && (1..=31).contains(&h.day)
                && usize::from(h.p3) <= geometry.slots()
                && h.reserved == 0
        }
    }
}

/// WTHOR's two name files by any names: the players (20-byte records, `WTHOR.JOU`) and
/// the tournaments (26-byte records, `WTHOR.TRN`).
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct NameFiles {
    /// The players' file.
    pub players: PathBuf,
    /// The tournaments' file.
    pub tournaments: PathBuf,
}

impl NameFiles {
    /// The file of `kind`.
    pub fn path(&self, kind: NameKind) -> &Path {
        match kind {
            NameKind::Player => &self.players,
            NameKind::Tournament => &self.tournaments,
        }
    }
}

/// Where `--names` says the name files are: a directory holding `WTHOR.JOU` and
/// `WTHOR.TRN` (in any case; created when written to and missing), or the two files by
/// any names, `PLAYERS,TOURNAMENTS`.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Names {
    /// A directory.
    Dir(PathBuf),
    /// The two files.
    Files(NameFiles),
}

impl Names {
    /// Reads `--names`' value: a directory that exists is a directory; else a value with
    /// one comma names the players' file, then the tournaments' file; else it is a
    /// directory (to be created). A file that exists must not have the other kind's
    /// records (told apart by their size and the header's count): a swapped pair is refused.
    ///
    /// ```
    /// use reversi_formats::wthor::{NameFiles, Names};
    /// let names = Names::parse("players.jou,tournaments.trn").unwrap();
    /// assert_eq!(names, Names::Files(NameFiles {
    ///     players: "players.jou".into(),
    ///     tournaments: "tournaments.trn".into(),
    /// }));
    /// assert_eq!(Names::parse("names").unwrap(), Names::Dir("names".into()));
    /// assert!(Names::parse("a,b,c").is_err());
    /// ```
    pub fn parse(value: impl AsRef<Path>) -> Result<Names, String> {
        let value = value.as_ref();
        let text = value.to_string_lossy();
        if value.is_dir() || !text.contains(',') {
            return Ok(Names::Dir(value.to_path_buf()));
        }
        let parts: Vec<&str> = text.split(',').collect();
        let [players, tournaments] = parts[..] else {
            return Err(format!(
                "--names {text}: give a directory, or the two name files as PLAYERS,TOURNAMENTS (one comma)"
            ));
        };
        if players.is_empty() || tournaments.is_empty() {
            return Err(format!(
                "--names {text}: give both name files, PLAYERS,TOURNAMENTS"
            ));
        }
        let files = NameFiles {
            players: players.into(),
            tournaments: tournaments.into(),
        };
        for kind in [NameKind::Player, NameKind::Tournament] {
            let path = files.path(kind);
            let other = match kind {
                NameKind::Player => NameKind::Tournament,
                NameKind::Tournament => NameKind::Player,
            };
            if let Ok(bytes) = std::fs::read(path) {
                if holds_records_of(&bytes, other) && !holds_records_of(&bytes, kind) {
                    return Err(format!(
                        "--names {text}: {} holds {}-byte {} records, not {}-byte {} ones; give the players' file first, then the tournaments'",
                        path.display(),
                        other.record_len(),
                        other.noun(),
                        kind.record_len(),
                        kind.noun()
                    ));
                }
            }
        }
        Ok(Names::Files(files))
    }

    /// The directory, if the names are given as one.
    pub fn dir(&self) -> Option<&Path> {
        match self {
            Names::Dir(dir) => Some(dir),
            Names::Files(_) => None,
        }
    }

    /// The two files, if the names are given as files.
    pub fn files(&self) -> Option<&NameFiles> {
        match self {
            Names::Dir(_) => None,
            Names::Files(files) => Some(files),
        }
    }
}

/// Whether `bytes` are a name file of `kind`: a header whose N2 counts exactly the
/// records after it.
fn holds_records_of(bytes: &[u8], kind: NameKind) -> bool {
    let Some(head) = bytes
        .get(..Header::LEN)
        .and_then(|h| <&[u8; Header::LEN]>::try_from(h).ok())
    else {
        return false;
    };
    let n2 = usize::from(Header::parse(head).n2);
    Header::LEN + n2 * kind.record_len() == bytes.len()
}

/// Makes the place of the name files a writer with `options` writes: the names directory
/// (or each name file's directory) is created when missing. The CLI calls it before any
/// work, so that a directory that cannot be created is an error at once; the writer does
/// the same when it is made.
///
/// ```
/// use reversi_formats::{wthor, WriteOptions};
/// let dir = std::env::temp_dir().join(format!("wthor-prepare-doc-{}", std::process::id()));
/// let options = WriteOptions { names_dir: Some(dir.join("names")), ..WriteOptions::default() };
/// wthor::prepare_names(&options).unwrap();
/// assert!(dir.join("names").is_dir());
/// # std::fs::remove_dir_all(&dir).unwrap();
/// ```
pub fn prepare_names(options: &WriteOptions) -> io::Result<()> {
    let dirs: Vec<&Path> = match (&options.name_files, &options.names_dir) {
        (Some(files), _) => [&files.players, &files.tournaments]
            .into_iter()
            .filter_map(|p| p.parent())
            .collect(),
        (None, Some(dir)) => vec![dir.as_path()],
        (None, None) => Vec::new(),
    };
    for dir in dirs.into_iter().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| {
            io::Error::new(
                e.kind(),
                format!("cannot create the names directory {}: {e}", dir.display()),
            )
        })?;
    }
    Ok(())
}

/// When a WTHOR file would be read without one of its name files, a note saying where the
/// reader looked (`None` when both are there, or when there is no directory to look in).
/// A names directory given explicitly reports what is missing as a `wthor-names-unreadable`
/// warning instead; this note is for the files that are merely absent beside the input.
///
/// ```
/// use reversi_formats::{wthor, ReadOptions};
/// let options = ReadOptions { path: Some("/nowhere/WTH_2004.wtb".into()), ..ReadOptions::default() };
/// let note = wthor::missing_names_note(&options).unwrap();
/// assert!(note.starts_with("no WTHOR.JOU or WTHOR.TRN in /nowhere"));
/// ```
pub fn missing_names_note(options: &ReadOptions) -> Option<String> {
    if options.names_dir.is_some() || options.name_files.is_some() {
        return None;
    }
    let dir = options.path.as_ref()?.parent()?;
    let dir = if dir.as_os_str().is_empty() {
        Path::new(".")
    } else {
        dir
    };
    let missing: Vec<&str> = [NameKind::Player, NameKind::Tournament]
        .into_iter()
        .filter(|&kind| names::find_in(dir, kind).is_none())
        .map(NameKind::file_name)
        .collect();
    if missing.is_empty() {
        return None;
    }
    Some(format!(
        "no {} in {}: names are shown by their index (--names DIR says where they are)",
        missing.join(" or "),
        dir.display()
    ))
}

/// Reads the games of a WTHOR file, one record at a time; see the [module docs](self).
pub fn read<'a>(input: Box<dyn BufRead + Send + 'a>, options: &ReadOptions) -> Games<'a> {
    Box::new(reader::Reader::new(input, options))
}

/// A writer of a WTHOR game file (and its name files); see [`WthorWriter`].
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    crate::capabilities::checked(
        crate::Format::Wthor,
        Box::new(WthorWriter::new(out, options)),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn move_bytes_cover_both_boards() {
        for g in [Geometry::Eight, Geometry::Ten] {
            let squares: Vec<Square> = (0..=255).filter_map(|b| g.decode(b)).collect();
            assert_eq!(squares.len(), usize::from(g.squares()));
            for sq in squares {
                assert_eq!(g.encode(sq).and_then(|b| g.decode(b)), Some(sq));
            }
        }
        assert_eq!(Geometry::Eight.encode("a1".parse().unwrap()), Some(11));
        assert_eq!(Geometry::Eight.encode("h8".parse().unwrap()), Some(88));
        assert_eq!(Geometry::Ten.encode("a1".parse().unwrap()), Some(13));
        assert_eq!(Geometry::Ten.encode("j1".parse().unwrap()), Some(22));
        assert_eq!(Geometry::Ten.encode("a10".parse().unwrap()), Some(121));
        assert_eq!(Geometry::Eight.encode("i9".parse().unwrap()), None);
    }

    #[test]
    fn header_round_trips_and_reads_nboard_example() {
        let bytes = [
            0x14, 0x01, 0x04, 0x05, 0x01, 0, 0, 0, 0, 0, 0xbc, 0x07, 0, 0, 0, 0,
        ];
        let h = Header::parse(&bytes);
        assert_eq!(h.created(), "2001-04-05");
        assert_eq!((h.n1, h.game_year, h.p1), (1, 1980, 0));
        assert_eq!(h.geometry(), Some(Geometry::Eight));
        assert_eq!(h.theoretical_depth(), Some(22));
        assert_eq!(h.to_bytes(), bytes);
    }

    #[test]
    fn depth_zero_is_unknown_before_2001_and_one_is_meaningless() {
        let mut h = Header::default();
        h.set_created((1999, 1, 1));
        assert_eq!(h.theoretical_depth(), None);
        h.p3 = 1;
        assert_eq!(h.theoretical_depth(), None);
        h.p3 = 24;
        assert_eq!(h.theoretical_depth(), Some(24));
    }

    #[test]
    fn civil_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(19_000), (2022, 1, 8));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(parse_created("2021-06-27"), Some((2021, 6, 27)));
    }

    #[test]
    fn sniffs_by_size_and_by_fields() {
        let mut file = vec![
            0x14, 0x15, 0x06, 0x1b, 1, 0, 0, 0, 0, 0, 0xe5, 0x07, 8, 0, 24, 0,
        ];
        file.extend([0u8; 68]);
        let len = Some(file.len() as u64);
        assert!(sniff(&Sniff { head: &file, len }));
        assert!(!sniff(&Sniff {
            head: &file,
            len: Some(100)
        }));
        assert!(sniff(&Sniff {
            head: &file,
            len: None
        }));
        assert!(!sniff(&Sniff {
            head: b"[Event \"x\"]\n[Black \"y\"]\n",
            len: None
        }));
        file[13] = 1;
        assert!(!sniff(&Sniff { head: &file, len }));
    }
}
