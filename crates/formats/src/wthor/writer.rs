//! The writer: records staged as 68- or 104-byte records beside the output, the header
//! written on finish.

use std::collections::BTreeMap;
use std::fs::{self, File};
use std::io::{self, BufWriter, Seek, Write};
use std::path::{Path, PathBuf};

use super::names::{find_in, NameKind, NameTable};
use super::{
    name_bytes, name_fallback, parse_created, prepare_names, today, Geometry, Header, BLACK_TAG,
    BOARD_SIZE_TAG, CREATED_TAG, DEPTH_TAG, TOURNAMENT_TAG, WHITE_TAG,
};
use crate::capabilities::with_article;
use crate::capabilities::{on_moves, tag_phrase, termination_phrase, Claim, ClaimLosses};
use crate::engine::{BoardShape, Color, Move};
use crate::record::{Record, ResultScore, TagName};
use crate::{check_losses, RecordWriter, WriteError, WriteOptions};

/// A name table and the file it goes to.
#[derive(Debug)]
struct NameFile {
    table: NameTable,
    path: PathBuf,
    /// The file's bytes as read, and how many names they hold (`None`: a new file).
    original: Option<(Vec<u8>, usize)>,
    /// Names accepted since the table was read.
    changed: bool,
    /// A game's name was looked up in the table: the games need the file.
    used: bool,
}

impl NameFile {
    /// The name file of `kind`: `existing` read when there is one, else a new table to be
    /// written to `new`.
    fn load(kind: NameKind, existing: Option<PathBuf>, new: PathBuf) -> Result<NameFile, String> {
        match existing {
            Some(path) => fs::read(&path)
                .map_err(|e| e.to_string())
                .and_then(|bytes| {
                    let table = NameTable::parse(kind, &bytes)?;
                    let kept = table.len();
                    Ok(NameFile {
                        table,
                        path: path.clone(),
                        original: Some((bytes, kept)),
                        changed: false,
                        used: false,
                    })
                })
                .map_err(|e| format!("cannot read {}: {e}", path.display())),
            None => Ok(NameFile {
                table: NameTable::new(kind),
                path: new,
                original: None,
                changed: false,
                used: false,
            }),
        }
    }

    /// Whether `finish` writes the file: names were added, or the games use a table that
    /// has no file yet.
    fn needed(&self) -> bool {
        self.changed || (self.used && self.original.is_none())
    }
}

/// The name files `options` give (players, tournaments), their directory created when
/// missing; `None` without a names directory or files.
fn load_names(options: &WriteOptions) -> Option<Result<[NameFile; 2], String>> {
    let at = |kind: NameKind| -> (Option<PathBuf>, PathBuf) {
        match (&options.name_files, &options.names_dir) {
            (Some(files), _) => {
                let path = files.path(kind).to_path_buf();
                (path.is_file().then(|| path.clone()), path)
            }
            (None, Some(dir)) => (find_in(dir, kind), dir.join(kind.file_name())),
            (None, None) => (None, PathBuf::new()),
        }
    };
    if options.name_files.is_none() && options.names_dir.is_none() {
        return None;
    }
    Some(
        prepare_names(options)
            .map_err(|e| e.to_string())
            .and_then(|()| {
                let (found, new) = at(NameKind::Player);
                let players = NameFile::load(NameKind::Player, found, new)?;
                let (found, new) = at(NameKind::Tournament);
                let tournaments = NameFile::load(NameKind::Tournament, found, new)?;
                Ok([players, tournaments])
            }),
    )
}

/// Writes a WTHOR game file: `.wtb` for 8x8 games, `.wtd` for 10x10 (every record of a file
/// shares the board of the first).
///
/// Records are encoded as they come and staged in an anonymous file in
/// [`WriteOptions::staging_dir`] (the CLI gives the output's directory; else the names
/// directory, else the system's temporary directory), so memory stays flat;
/// [`RecordWriter::finish`] writes the header (N1 = the number of records), copies the
/// records through, and writes the name files the games need: each to a temporary file
/// beside it, renamed over it only when complete. A name file already there is extended
/// (its records copied byte for byte, so names keep their index, new names appended),
/// never rewritten; one the games use that is not there yet is written, with its pair.
///
/// The header's game year is [`WriteOptions::year`], else the first game's: a game without
/// a year, or of another year, is refused (a file holds the games of one year; with a
/// `year` given, a game of another year is a `--lossy` loss). The creation date, P1 and P3
/// are those [`WriteOptions::year_headers`] decided from all of the year's games (what a
/// run that merges inputs gives: the same file in any order of its inputs); without them,
/// they come from the first record that states them (`WthorCreated`, `WthorBoardSize`,
/// `TheoreticalDepth` or `WthorDepth` when it agrees), whatever records without them come
/// before (a PGN copy of a WTHOR game states none), so a file read and written back is
/// identical. A new file is dated today, and P3 is 1 (Edax's mark for "no theoretical
/// scores") when no record states a depth. A record that states another depth than the
/// file's is a loss. A record without `TheoreticalScore` stores its actual score there.
///
/// Name indexes: with name files ([`WriteOptions::names_dir`] or
/// [`WriteOptions::name_files`]), each `Event`/`Black`/`White` name is looked up: its
/// `WthorTournament`/`WthorBlack`/`WthorWhite` index is kept when the table gives it that
/// name, else the name wins: found elsewhere in the table or added to it (an edited name is
/// never undone by a stale index). Without name files, the index tags are written as they
/// are. A missing name is index 0 (`???`, `Diverses parties`). New names are written in
/// the characters ISO-8859-1 and Windows-1252 readers read alike ([`name_bytes`]); others
/// are refused, or replaced by [`name_fallback`] as a `--lossy` loss.
///
/// Always refused (by the [capability table](crate::capabilities)): other boards,
/// 3-4 players, variant options, a custom start, komi; a board other than the file's, a
/// year other than the file's, a game without a year, moves off the board, more placements
/// than squares.
/// Refused, or dropped and reported when lossy: position and flip claims, comments,
/// evaluations, times, results that are not a disc count, terminations, tags WTHOR has no
/// field for, names without a names directory, names longer than 19/25 bytes (cut to fit)
/// or with characters a name file cannot hold.
pub struct WthorWriter<'a> {
    out: Box<dyn Write + Send + 'a>,
    options: WriteOptions,
    /// The name files, or why they could not be read.
    names: Option<Result<[NameFile; 2], String>>,
    header: Option<Header>,
    /// Which of the header's creation date, P1 and P3 a record stated: the first record
    /// that states one sets it, whatever the records before it (a PGN copy states none).
    stated: [bool; 3],
    /// Where the records are staged (`None`: the system's temporary directory).
    staging_dir: Option<PathBuf>,
    /// The records written so far, in an anonymous file in `staging_dir`.
    body: Option<BufWriter<File>>,
    count: u32,
    finished: bool,
}

/// The header settings of each year's WTHOR file decided from every game a run writes,
/// not from the first that states them, so that a file merged from several inputs is the
/// same whatever their order: the creation date is the latest a game states
/// (`WthorCreated`); P1 (`WthorBoardSize`) and P3 (`TheoreticalDepth`, or `WthorDepth`
/// when it agrees) are the values the most games state, a tie going to the greater. A run
/// gathers them game by game ([`YearHeaders::add`]) before it writes, and hands them to
/// its writers in [`WriteOptions::year_headers`]; a game whose depth differs from its
/// year's is then a loss wherever it comes in the inputs.
///
/// ```
/// use reversi_engine::BoardShape;
/// use reversi_formats::wthor::YearHeaders;
/// let mut years = YearHeaders::default();
/// let eight = BoardShape::Eight;
/// years.add(None, eight, [("Date", "2004"), ("TheoreticalDepth", "20")]);
/// years.add(None, eight, [("Date", "2004.05.01"), ("TheoreticalDepth", "24")]);
/// years.add(None, eight, [("Date", "2004"), ("TheoreticalDepth", "24")]);
/// years.add(None, eight, [("Date", "2004"), ("WthorCreated", "2005-01-02")]);
/// years.add(None, eight, [("Date", "1990"), ("TheoreticalDepth", "22")]);
/// years.add(Some(1991), eight, [("Date", "1990"), ("TheoreticalDepth", "18")]);
/// assert_eq!(years.depth(2004), Some(24));
/// assert_eq!(years.created(2004), Some((2005, 1, 2)));
/// assert_eq!(years.depth(1990), Some(22));
/// assert_eq!(years.depth(1991), Some(18));
/// assert_eq!(years.depth(2000), None);
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct YearHeaders {
    years: BTreeMap<u16, YearTally>,
}

/// What the games of one year state of their file's header.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct YearTally {
    /// The latest creation date stated.
    created: Option<(u32, u8, u8)>,
    /// The games stating each P1.
    p1: BTreeMap<u8, u64>,
    /// The games stating each P3.
    p3: BTreeMap<u8, u64>,
}

impl YearTally {
    fn merge(&mut self, other: YearTally) {
        self.created = self.created.max(other.created);
        for (mine, theirs) in [(&mut self.p1, other.p1), (&mut self.p3, other.p3)] {
            for (value, games) in theirs {
                *mine.entry(value).or_default() += games;
            }
        }
    }
}

/// The value the most games state, a tie going to the greater.
fn most_stated(counts: &BTreeMap<u8, u64>) -> Option<u8> {
    counts
        .iter()
        .max_by_key(|&(&value, &games)| (games, value))
        .map(|(&value, _)| value)
}

impl YearHeaders {
    /// Counts what a game on `board` with these tags states of its year's header: the
    /// year `file_year` (`--year`) when given, else its `Date`'s. A game WTHOR cannot hold
    /// (another board) or without a year states nothing.
    pub fn add<'t>(
        &mut self,
        file_year: Option<u16>,
        board: BoardShape,
        tags: impl IntoIterator<Item = (&'t str, &'t str)>,
    ) {
        let Some(geometry) = Geometry::of(board) else {
            return;
        };
        let mut fields = TagFields::default();
        let mut ignored = Vec::new();
        for (name, value) in tags {
            fields.take(name, value, geometry, &mut ignored);
        }
        let Some(year) = file_year.or(fields.year) else {
            return;
        };
        let tally = self.years.entry(year).or_default();
        tally.created = tally.created.max(fields.created);
        if let Some(p1) = fields.board_size {
            *tally.p1.entry(p1).or_default() += 1;
        }
        if let Some(p3) = fields.p3() {
            *tally.p3.entry(p3).or_default() += 1;
        }
    }

    /// Adds what `other` gathered (another input, another thread).
    pub fn merge(&mut self, other: YearHeaders) {
        for (year, tally) in other.years {
            self.years.entry(year).or_default().merge(tally);
        }
    }

    /// The header's P3 for the games of `year`: the theoretical depth (or WTHOR's code
    /// for it) the most games state; `None` when none states one.
    pub fn depth(&self, year: u16) -> Option<u8> {
        most_stated(&self.years.get(&year)?.p3)
    }

    /// The header's creation date for the games of `year`: the latest stated.
    pub fn created(&self, year: u16) -> Option<(u32, u8, u8)> {
        self.years.get(&year)?.created
    }

    /// The header's P1 for the games of `year`: the board size the most games state.
    pub fn board_size(&self, year: u16) -> Option<u8> {
        most_stated(&self.years.get(&year)?.p1)
    }
}

impl std::fmt::Debug for WthorWriter<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("WthorWriter")
            .field("header", &self.header)
            .field("count", &self.count)
            .finish_non_exhaustive()
    }
}

/// The record's facts WTHOR holds, gathered before anything is committed.
struct Encoded {
    geometry: Geometry,
    bytes: Vec<u8>,
    year: u16,
    /// The header's P3 this record asks for.
    p3: Option<u8>,
    created: Option<(u32, u8, u8)>,
    board_size: Option<u8>,
    new_names: [Vec<String>; 2],
    /// Which tables (players, tournaments) the record's names were looked up in.
    used: [bool; 2],
}

const fn slot(kind: NameKind) -> usize {
    match kind {
        NameKind::Player => 0,
        NameKind::Tournament => 1,
    }
}

/// The names of one record resolved to indexes, and what that adds to the tables.
#[derive(Default)]
struct Resolved {
    /// Tournament, Black and White indexes.
    indexes: [u16; 3],
    /// Names to add (players, tournaments).
    new_names: [Vec<String>; 2],
    /// Tables the names were looked up in (players, tournaments).
    used: [bool; 2],
}

impl<'a> WthorWriter<'a> {
    /// A writer to `out`, with the name files of `options` (their directory created when
    /// missing) and its records staged in `options.staging_dir`.
    pub fn new(out: Box<dyn Write + Send + 'a>, options: &WriteOptions) -> WthorWriter<'a> {
        let staging_dir = options
            .staging_dir
            .clone()
            .or_else(|| options.names_dir.clone())
            .or_else(|| {
                let files = options.name_files.as_ref()?;
                files.players.parent().map(Path::to_path_buf)
            })
            .map(|dir| {
                if dir.as_os_str().is_empty() {
                    PathBuf::from(".")
                } else {
                    dir
                }
            });
        WthorWriter {
            out,
            options: options.clone(),
            names: load_names(options),
            header: None,
            stated: [false; 3],
            staging_dir,
            body: None,
            count: 0,
            finished: false,
        }
    }

    /// The index of `name` in the `kind` table: `preferred` (the record's index tag) when
    /// the table gives it that name, else the name found in the table, else the name added
    /// to `pending` (in the characters a name file holds, cut to fit, listing what that
    /// loses).
    fn name_index(
        &self,
        kind: NameKind,
        name: &str,
        preferred: Option<u16>,
        pending: &mut Vec<String>,
        losses: &mut Vec<String>,
    ) -> u16 {
        let noun = kind.noun();
        let Some(Ok(files)) = &self.names else {
            losses.push(format!(
                "the {noun} name \"{name}\" (no names directory to write {} into)",
                kind.file_name()
            ));
            return 0;
        };
        let table = &files[slot(kind)].table;
        let agrees = |stored: &str| preferred.filter(|&i| table.get(i) == Some(stored));
        if let Some(i) = agrees(name).or_else(|| table.find(name)) {
            return i;
        }
        let stored = stored_name(kind, name, losses);
        if let Some(i) = agrees(&stored).or_else(|| table.find(&stored)) {
            return i;
        }
        let position = pending.iter().position(|n| *n == stored);
        let at = table.len() + position.unwrap_or(pending.len());
        let Ok(index) = u16::try_from(at) else {
            let stale = preferred
                .and_then(|i| Some((i, table.get(i)?)))
                .map_or(String::new(), |(i, old)| {
                    format!(", whose index {i} is \"{old}\" there")
                });
            losses.push(format!(
                "the {noun} name \"{name}\"{stale} ({} is full at 65,536 names)",
                kind.file_name()
            ));
            return 0;
        };
        if position.is_none() {
            pending.push(stored);
        }
        index
    }

    /// Encodes `record`, listing what would be lost: the board is checked, the moves
    /// encoded, Black's score found, the tags read, compared with the file's header and
    /// their names resolved to indices, then the record's bytes laid out.
    fn encode(&self, record: &Record, losses: &mut Vec<String>) -> Result<Encoded, WriteError> {
        let geometry = self.geometry_of(record)?;
        let moves = encode_moves(record, geometry)?;
        // WTHOR holds moves and scores only: no comment, claim, evaluation or time.
        ClaimLosses::of(record, &Claim::ANNOTATIONS).append_to(losses);
        let total = geometry.squares();
        let score = self.score(record, geometry, total, losses);
        let tags = read_tags(record, geometry, losses);
        let year = self.year_of(&tags, losses)?;
        let p3 = tags.p3();
        self.depth_losses(&tags, year, losses);
        let resolved = self.resolve_names(&tags, losses);

        let mut bytes = Vec::with_capacity(geometry.record_len());
        for index in resolved.indexes {
            bytes.extend_from_slice(&index.to_le_bytes());
        }
        bytes.push(score);
        bytes.push(tags.theoretical.unwrap_or(score));
        bytes.extend_from_slice(&moves);
        bytes.resize(geometry.record_len(), 0);
        Ok(Encoded {
            geometry,
            bytes,
            year,
            p3,
            created: tags.created,
            board_size: tags.board_size,
            new_names: resolved.new_names,
            used: resolved.used,
        })
    }

    /// The record's board as a WTHOR geometry, refused when WTHOR or this file cannot hold it.
    fn geometry_of(&self, record: &Record) -> Result<Geometry, WriteError> {
        let rules = record.rules;
        // The capability table has refused other rules, boards and starts already.
        let Some(geometry) = Geometry::of(rules.board()) else {
            return Err(WriteError::ChangesMeaning(vec![format!(
                "{} board (WTHOR holds 8x8 and 10x10)",
                with_article(rules.board())
            )]));
        };
        if let Some(file) = self.header.and_then(|h| h.geometry()) {
            if file != geometry {
                return Err(WriteError::ChangesMeaning(vec![format!(
                    "{} board (this file holds {} games)",
                    with_article(geometry.board()),
                    file.board()
                )]));
            }
        }
        Ok(geometry)
    }

    /// The year the record is filed under: [`WriteOptions::year`] (a game of another year
    /// is a loss), else the game's own, which must be the file's (the first game's).
    fn year_of(&self, tags: &TagFields<'_>, losses: &mut Vec<String>) -> Result<u16, WriteError> {
        const SPLIT: &str = "-o 'WTH_{year}.wtb' writes a file per year";
        match (self.options.year, tags.year) {
            (Some(file), Some(game)) if game != file => {
                losses.push(format!(
                    "the year {game} (every game of this file is filed under {file}, as --year says)"
                ));
                Ok(file)
            }
            (Some(file), _) => Ok(file),
            (None, None) => Err(WriteError::NeedsSetting {
                what: format!(
                    "a game without a year (a WTHOR file holds the year of its games in its header{})",
                    match &self.header {
                        Some(h) => format!("; this file's games are from {}", h.game_year),
                        None => String::new(),
                    }
                ),
                how: "--year YYYY files every game under one year".into(),
            }),
            (None, Some(game)) => match &self.header {
                Some(h) if h.game_year != game => Err(WriteError::NeedsSetting {
                    what: format!(
                        "a game of {game} in a file of the games of {} (a WTHOR file holds one year)",
                        h.game_year
                    ),
                    how: format!("{SPLIT}; --year YYYY files every game under one"),
                }),
                _ => Ok(game),
            },
        }
    }

    /// A theoretical depth other than this file's header says.
    fn depth_losses(&self, tags: &TagFields<'_>, year: u16, losses: &mut Vec<String>) {
        let decided = self.options.year_headers.as_deref().map(|years| {
            let mut header = Header::default();
            header.set_created(years.created(year).unwrap_or_else(today));
            years.depth(year).map(|p3| Header { p3, ..header })
        });
        let header = match decided {
            Some(decided) => decided,
            None => self.header.filter(|_| self.stated[2]),
        };
        let Some(h) = header else {
            return;
        };
        let differs = match (tags.depth, tags.depth_raw) {
            (Some(d), _) => Some(d) != h.theoretical_depth(),
            (None, Some(raw)) => raw != h.p3,
            (None, None) => false,
        };
        if differs {
            losses.push(format!(
                "a theoretical depth of {} empties (this file's is {})",
                tags.depth.or(tags.depth_raw).unwrap_or(0),
                h.theoretical_depth()
                    .map_or("unknown".to_string(), |d| d.to_string())
            ));
        }
    }

    /// The tournament, Black and White indices. With name files, each name is looked up
    /// (its index tag kept when the table agrees, else the name found or added: the name
    /// wins over a stale index); without them, the index tags as they are; a name without
    /// name files is a loss; no name and no index is 0.
    fn resolve_names(&self, tags: &TagFields<'_>, losses: &mut Vec<String>) -> Resolved {
        let mut resolved = Resolved::default();
        let kinds = [NameKind::Tournament, NameKind::Player, NameKind::Player];
        let tables = matches!(self.names, Some(Ok(_)));
        for (i, kind) in kinds.into_iter().enumerate() {
            resolved.indexes[i] = match (tags.indexes[i], tags.names[i]) {
                (index, Some(name)) if tables || index.is_none() => {
                    let mut pending = std::mem::take(&mut resolved.new_names[slot(kind)]);
                    let found = self.name_index(kind, name, index, &mut pending, losses);
                    resolved.new_names[slot(kind)] = pending;
                    resolved.used[slot(kind)] = tables;
                    found
                }
                (Some(index), _) => index,
                (None, _) => 0,
            };
        }
        resolved
    }

    /// Black's stored score; when the record gives none (a loss), the board's WOF count
    /// after replaying its moves.
    fn score(
        &self,
        record: &Record,
        geometry: Geometry,
        total: u8,
        losses: &mut Vec<String>,
    ) -> u8 {
        let Some(result) = &record.result else {
            losses.push("a missing result (WTHOR stores Black's disc count)".to_string());
            return replayed_score(record);
        };
        losses.extend(termination_phrase(result.termination));
        match &result.score {
            ResultScore::Discs(d) if d.len() == 2 && d[0] <= total => {
                if u16::from(d[0]) + u16::from(d[1]) != u16::from(total) {
                    losses.push(format!(
                        "White's count in the score {}-{} (WTHOR stores Black's; White's is {total} minus it)",
                        d[0], d[1]
                    ));
                }
                d[0]
            }
            ResultScore::Margin(m)
                if m.fract() == 0.0
                    && (f64::from(total) + m) % 2.0 == 0.0
                    && m.abs() <= f64::from(total) =>
            {
                // Integral and in range, checked above.
                ((f64::from(total) + m) / 2.0) as u8
            }
            other => {
                let what = match other {
                    ResultScore::Winner(_) => "a result that names only the winner".to_string(),
                    ResultScore::None => "a result without a score".to_string(),
                    ResultScore::Margin(m) => format!(
                        "the margin {m} (not a whole disc count on {})",
                        geometry.board()
                    ),
                    ResultScore::Discs(d) => format!(
                        "the score {} (WTHOR stores Black's count out of {total})",
                        d.iter().map(u8::to_string).collect::<Vec<_>>().join("-")
                    ),
                };
                losses.push(what);
                replayed_score(record)
            }
        }
    }

    /// Where the records are staged, for messages.
    fn staging_place(&self) -> String {
        match &self.staging_dir {
            Some(dir) => dir.display().to_string(),
            None => format!("the temporary directory {}", std::env::temp_dir().display()),
        }
    }

    /// An error of the staged records, naming where they are and the cause.
    fn staging_error(&self, doing: &str, e: &io::Error) -> io::Error {
        io::Error::new(
            e.kind(),
            format!(
                "cannot {doing} the WTHOR records staged in {}: {e}",
                self.staging_place()
            ),
        )
    }

    /// Takes the header settings `years` decided for `year`: a record stating another
    /// value no longer changes them.
    fn settle(&mut self, years: &YearHeaders, year: u16) {
        let Some(header) = self.header.as_mut() else {
            return;
        };
        if let Some(created) = years.created(year) {
            header.set_created(created);
            self.stated[0] = true;
        }
        if let Some(p1) = years.board_size(year) {
            header.p1 = p1;
            self.stated[1] = true;
        }
        if let Some(p3) = years.depth(year) {
            header.p3 = p3;
            self.stated[2] = true;
        }
    }

    fn accept(&mut self, e: Encoded) -> io::Result<()> {
        if self.body.is_none() {
            let file = match &self.staging_dir {
                Some(dir) => crate::output::unnamed_in(dir),
                None => crate::output::unnamed_in(&std::env::temp_dir()),
            };
            let file = file.map_err(|err| {
                io::Error::new(
                    err.kind(),
                    format!(
                        "cannot stage the WTHOR records in {}: {err}",
                        self.staging_place()
                    ),
                )
            })?;
            self.body = Some(BufWriter::new(file));
        }
        if let Some(body) = &mut self.body {
            if let Err(err) = body.write_all(&e.bytes) {
                return Err(self.staging_error("write", &err));
            }
        }
        if self.header.is_none() {
            self.header = Some(Header {
                game_year: e.year,
                p1: match e.geometry {
                    Geometry::Eight => 8,
                    Geometry::Ten => 10,
                },
                p3: 1,
                ..Header::default()
            });
            if let Some(years) = self.options.year_headers.clone() {
                self.settle(&years, e.year);
            }
        }
        let Some(header) = self.header.as_mut() else {
            return Ok(());
        };
        if let (false, Some(created)) = (self.stated[0], e.created) {
            header.set_created(created);
            self.stated[0] = true;
        }
        if let (false, Some(p1)) = (self.stated[1], e.board_size) {
            header.p1 = p1;
            self.stated[1] = true;
        }
        if let (false, Some(p3)) = (self.stated[2], e.p3) {
            header.p3 = p3;
            self.stated[2] = true;
        }
        if let Some(Ok(files)) = &mut self.names {
            for ((file, new), used) in files.iter_mut().zip(e.new_names).zip(e.used) {
                file.used |= used;
                for name in new {
                    file.table.push(name);
                    file.changed = true;
                }
            }
        }
        self.count += 1;
        Ok(())
    }

    /// Copies the staged records to the output.
    fn copy_body(&mut self, geometry: Option<Geometry>, remap: &NameRemap) -> io::Result<()> {
        let Some(body) = self.body.take() else {
            return Ok(());
        };
        let mut file = match body.into_inner() {
            Ok(file) => file,
            Err(e) => return Err(self.staging_error("write", e.error())),
        };
        if let Err(e) = file.rewind() {
            return Err(self.staging_error("read", &e));
        }
        let record_len = match geometry {
            Some(g) => g.record_len(),
            None => match file.metadata() {
                Ok(m) => (m.len() / u64::from(self.count.max(1))) as usize,
                Err(e) => return Err(self.staging_error("read", &e)),
            },
        };
        copy_remapped(&mut file, &mut self.out, record_len, remap)
    }
}

/// `name` as a name file of `kind` stores it: in the characters both ISO-8859-1 and
/// Windows-1252 readers read alike (others replaced, a loss) and cut to fit (a loss).
fn stored_name(kind: NameKind, name: &str, losses: &mut Vec<String>) -> String {
    let noun = kind.noun();
    let mut stored = name.to_string();
    if let Err(c) = name_bytes(name) {
        stored = name_fallback(name);
        losses.push(format!(
            "the character {c:?} in the {noun} name \"{name}\" (WTHOR name files hold ISO-8859-1 letters; written \"{stored}\")"
        ));
    }
    let max = kind.max_name_len();
    if stored.chars().count() > max {
        stored = stored.chars().take(max).collect();
        losses.push(format!(
            "the end of the {noun} name \"{name}\" (cut to \"{stored}\": WTHOR holds {max} bytes)",
        ));
    }
    stored
}

/// Black's WOF score after replaying the record's moves as far as they are legal: a pass
/// written in the record is played as a pass, one it leaves out is inferred.
fn replayed_score(record: &Record) -> u8 {
    let Ok(mut position) = record.start_position() else {
        return 0;
    };
    for m in &record.moves {
        if m.mv != Move::Pass && position.must_pass() {
            let _ = position.play(Move::Pass);
        }
        if position.play(m.mv).is_err() {
            break;
        }
    }
    position.counts_outcome().score[0]
}

impl RecordWriter for WthorWriter<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        if self.finished {
            return Err(WriteError::Io(io::Error::other(
                "the WTHOR file is already finished",
            )));
        }
        if let Some(Err(e)) = &self.names {
            return Err(WriteError::Io(io::Error::new(
                io::ErrorKind::InvalidData,
                e.clone(),
            )));
        }
        if self.count == u32::MAX {
            return Err(WriteError::CannotHold(vec![
                "more than 4,294,967,295 games in one file".to_string(),
            ]));
        }
        let mut losses = Vec::new();
        let encoded = self.encode(record, &mut losses)?;
        let losses = check_losses(losses, &self.options)?;
        self.accept(encoded)?;
        Ok(losses)
    }

    fn finish(&mut self) -> io::Result<()> {
        if self.finished {
            return Ok(());
        }
        self.finished = true;
        let mut header = self.header.unwrap_or(Header {
            p1: 8,
            game_year: self.options.year.unwrap_or(0),
            ..Header::default()
        });
        if !self.stated[0] {
            header.set_created(today());
        }
        header.n1 = self.count;
        // Held until the name files are written: another writer into the same folder
        // merges its names after ours, not over them.
        let (_names_lock, remap) = match &mut self.names {
            Some(Ok(files)) => merge_names_locked(files)?,
            _ => (None, NameRemap::default()),
        };
        self.out.write_all(&header.to_bytes())?;
        let geometry = header.geometry();
        self.copy_body(geometry, &remap)?;
        self.out.flush()?;
        if let Some(Ok(files)) = &self.names {
            // A pair is written together: a reader finding one file looks for the other.
            let any = files.iter().any(NameFile::needed);
            for file in files
                .iter()
                .filter(|f| f.needed() || (any && f.original.is_none()))
            {
                write_names(file)?;
            }
        }
        Ok(())
    }
}

/// Writes a name file atomically through [`AtomicFile`](crate::output::AtomicFile): a
/// short-named temporary beside it (the file a symbolic link names, for a link), renamed
/// over it once complete; a new file gets the umask's permissions, a file that was there
/// keeps its mode. A file that was there is extended, not rewritten.
fn write_names(file: &NameFile) -> io::Result<()> {
    let bytes = match &file.original {
        Some((original, kept)) => file.table.extended_bytes(original, *kept),
        None => file.table.to_bytes(),
    }
    .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", file.path.display()));
    let mut out = crate::output::AtomicFile::create(&file.path)?;
    out.write_all(&bytes).map_err(named)?;
    out.commit()
}

/// For each name table, the new index of each index of the table as this writer had it
/// (empty: unchanged).
#[derive(Debug, Default)]
struct NameRemap([Vec<u16>; 2]);

impl NameRemap {
    fn is_identity(&self) -> bool {
        self.0
            .iter()
            .all(|m| m.iter().enumerate().all(|(i, &j)| i == usize::from(j)))
    }

    /// The index `index` of table `slot` now has.
    fn map(&self, slot: usize, index: u16) -> u16 {
        self.0[slot]
            .get(usize::from(index))
            .copied()
            .unwrap_or(index)
    }
}

/// Locks the names directory (an advisory `flock` on the directory itself, so no lock file
/// is left behind) and merges the name files as they are now with the names this writer
/// added: a name another writer added meanwhile keeps its index, ours are found or appended
/// after it. Returns the lock, to hold until the files are written, and how this writer's
/// indexes moved (its games are re-mapped as they are copied out).
fn merge_names_locked(files: &mut [NameFile; 2]) -> io::Result<(Option<File>, NameRemap)> {
    let mut remap = NameRemap::default();
    if !files.iter().any(|f| f.changed) {
        return Ok((None, remap));
    }
    let dir = match files[0].path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let lock = lock_dir(&dir)
        .map_err(|e| io::Error::new(e.kind(), format!("{}: cannot lock: {e}", dir.display())))?;
    for file in files.iter_mut() {
        let kind = file.table.kind();
        let existing = file.path.is_file().then(|| file.path.clone());
        let now = NameFile::load(kind, existing, file.path.clone())
            .map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
        let unchanged = match (&now.original, &file.original) {
            (None, None) => true,
            (Some((a, _)), Some((b, _))) => a == b,
            _ => false,
        };
        if unchanged {
            continue;
        }
        let mut merged = now;
        let mut map = Vec::with_capacity(file.table.len());
        for i in 0..file.table.len() {
            let index = u16::try_from(i).unwrap_or(u16::MAX);
            let name = file.table.get(index).unwrap_or_default();
            let same = merged.table.get(index) == Some(name);
            let at = if same {
                index
            } else if let Some(found) = merged.table.find(name) {
                found
            } else {
                if merged.table.len() > usize::from(u16::MAX) {
                    return Err(io::Error::new(
                        io::ErrorKind::InvalidData,
                        format!(
                            "{}: full at 65,536 names after another writer's",
                            merged.path.display()
                        ),
                    ));
                }
                merged.changed = true;
                merged.table.push(name.to_string())
            };
            map.push(at);
        }
        remap.0[slot(kind)] = map;
        *file = merged;
    }
    Ok((Some(lock), remap))
}

/// Takes an exclusive advisory lock (`flock`) on the directory `dir`, held until the file
/// returned is dropped. (`File::lock` does the same from Rust 1.89, above this crate's
/// minimum version.)
#[cfg(unix)]
fn lock_dir(dir: &std::path::Path) -> io::Result<File> {
    use std::os::fd::AsRawFd;
    let file = File::open(dir)?;
    loop {
        // SAFETY: `flock` on a descriptor this function owns.
        if unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX) } == 0 {
            return Ok(file);
        }
        let e = io::Error::last_os_error();
        if e.kind() != io::ErrorKind::Interrupted {
            return Err(e);
        }
    }
}

#[cfg(not(unix))]
fn lock_dir(dir: &std::path::Path) -> io::Result<File> {
    File::open(dir)
}

/// Copies the records of `body` to `out`, re-mapping their tournament, Black and White
/// indexes (bytes 0-1, 2-3 and 4-5, little-endian) by `remap`; `record_len` is the size of
/// a record (68 or 104).
fn copy_remapped(
    body: &mut File,
    out: &mut dyn Write,
    record_len: usize,
    remap: &NameRemap,
) -> io::Result<()> {
    if remap.is_identity() || record_len < 6 {
        io::copy(body, out)?;
        return Ok(());
    }
    let mut reader = io::BufReader::new(body);
    let mut record = vec![0u8; record_len];
    loop {
        match io::Read::read_exact(&mut reader, &mut record) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => return Ok(()),
            Err(e) => return Err(e),
        }
        for (at, table) in [
            (0, slot(NameKind::Tournament)),
            (2, slot(NameKind::Player)),
            (4, slot(NameKind::Player)),
        ] {
            let index = u16::from_le_bytes([record[at], record[at + 1]]);
            record[at..at + 2].copy_from_slice(&remap.map(table, index).to_le_bytes());
        }
        out.write_all(&record)?;
    }
}

/// The move bytes of `record`; moves off the board or more placements than slots change
/// the game and are refused.
fn encode_moves(record: &Record, geometry: Geometry) -> Result<Vec<u8>, WriteError> {
    let mut moves = Vec::with_capacity(record.moves.len());
    let mut off_board = Vec::new();
    for (i, m) in record.moves.iter().enumerate() {
        if let Move::Place(sq) = m.mv {
            match geometry.encode(sq) {
                Some(b) => moves.push(b),
                None => off_board.push(i + 1),
            }
        }
    }
    // Moves off the board or beyond the board's squares change the game: refused.
    let mut changes = Vec::new();
    if !off_board.is_empty() {
        changes.push(on_moves(
            ("a move off the board", "moves off the board"),
            "at",
            &off_board,
        ));
    }
    // Passes are not stored: replay infers them. Only placements count.
    if moves.len() > geometry.slots() {
        changes.push(format!(
            "{} placements (WTHOR holds {}, one a square)",
            moves.len(),
            geometry.slots()
        ));
    }
    if !changes.is_empty() {
        return Err(WriteError::ChangesMeaning(changes));
    }
    Ok(moves)
}

/// What a record's tags give a WTHOR record.
#[derive(Default)]
struct TagFields<'r> {
    /// The year of `Date`.
    year: Option<u16>,
    theoretical: Option<u8>,
    /// The header's raw depth field (`WthorDepth`).
    depth_raw: Option<u8>,
    /// The theoretical depth in empties.
    depth: Option<u8>,
    created: Option<(u32, u8, u8)>,
    board_size: Option<u8>,
    /// Tournament, Black and White indices given as tags.
    indexes: [Option<u16>; 3],
    /// Tournament, Black and White names.
    names: [Option<&'r str>; 3],
}

/// Reads the tags WTHOR holds, listing the others and values it cannot hold as losses.
fn read_tags<'r>(
    record: &'r Record,
    geometry: Geometry,
    losses: &mut Vec<String>,
) -> TagFields<'r> {
    let mut f = TagFields::default();
    for tag in &record.tags {
        if !f.take(&tag.name, &tag.value, geometry, losses) {
            losses.push(tag_phrase(&tag.name));
        }
    }
    f
}

impl<'r> TagFields<'r> {
    /// The header's P3 the tags ask for: `TheoreticalDepth`, or `WthorDepth` when it says
    /// the same (the value wins over the raw byte, which may be stale after an edit).
    fn p3(&self) -> Option<u8> {
        match (self.depth_raw, self.depth) {
            (Some(raw), Some(depth)) => {
                let mut header = Header {
                    p3: raw,
                    ..Header::default()
                };
                header.set_created(self.created.unwrap_or_else(today));
                Some(if header.theoretical_depth() == Some(depth) {
                    raw
                } else {
                    depth
                })
            }
            (raw, depth) => raw.or(depth),
        }
    }

    /// Takes the tag `name`'s value into its field, listing a value WTHOR cannot hold as
    /// a loss; `false` when WTHOR has no field for the tag.
    fn take(
        &mut self,
        name: &str,
        value: &'r str,
        geometry: Geometry,
        losses: &mut Vec<String>,
    ) -> bool {
        let f = self;
        let total = geometry.squares();
        let value = value.trim();
        let is = |n: &str| name.eq_ignore_ascii_case(n);
        let number = |what: &str, losses: &mut Vec<String>| -> Option<u16> {
            let v = value.parse().ok();
            if v.is_none() {
                losses.push(format!("the {what} \"{value}\" (not a number)"));
            }
            v
        };
        if is(TagName::EVENT) {
            f.names[0] = Some(value);
        } else if is(TagName::player(Color::Black)) {
            f.names[1] = Some(value);
        } else if is(TagName::player(Color::White)) {
            f.names[2] = Some(value);
        } else if is(TOURNAMENT_TAG) {
            f.indexes[0] = number("tournament index", losses);
        } else if is(BLACK_TAG) {
            f.indexes[1] = number("black player index", losses);
        } else if is(WHITE_TAG) {
            f.indexes[2] = number("white player index", losses);
        } else if is(TagName::DATE) {
            let digits = value.get(..4).and_then(|y| y.parse::<u16>().ok());
            f.year = digits;
            let rest = value.get(4..).unwrap_or("");
            if digits.is_none() && value.chars().any(|c| c.is_ascii_digit())
                || rest.chars().any(|c| c.is_ascii_digit())
            {
                losses.push(format!("the date \"{value}\" beyond its year"));
            }
        } else if is(TagName::THEORETICAL_SCORE) {
            match value.parse::<u8>().ok().filter(|&t| t <= total) {
                Some(t) => f.theoretical = Some(t),
                None => losses.push(format!("the theoretical score \"{value}\"")),
            }
        } else if is(TagName::THEORETICAL_DEPTH) {
            match value.parse::<u8>() {
                Ok(d) => f.depth = Some(d),
                Err(_) => losses.push(format!("the theoretical depth \"{value}\"")),
            }
        } else if is(DEPTH_TAG) {
            f.depth_raw = value.parse::<u8>().ok();
        } else if is(CREATED_TAG) {
            f.created = parse_created(value);
        } else if is(BOARD_SIZE_TAG) {
            f.board_size = value.parse::<u8>().ok().filter(|&p| {
                Header {
                    p1: p,
                    ..Header::default()
                }
                .geometry()
                    == Some(geometry)
            });
        } else {
            return false;
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::{BoardShape, Rules};
    use crate::record::{ClaimedResult, MoveRecord, Tag};

    #[test]
    fn articles() {
        assert_eq!(with_article(BoardShape::Eight), "an 8x8");
        assert_eq!(with_article(BoardShape::Six), "a 6x6");
        assert_eq!(with_article(BoardShape::Octagon), "an octagon");
    }

    #[test]
    fn a_new_name_used_twice_in_a_record_is_added_once() {
        let dir = std::env::temp_dir().join(format!("wthor-writer-unit-{}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let options = WriteOptions {
            names_dir: Some(dir.clone()),
            ..WriteOptions::default()
        };
        let mut sink = Vec::new();
        let mut writer = WthorWriter::new(Box::new(&mut sink), &options);
        let mut r = Record::new(Rules::default());
        r.moves
            .push(MoveRecord::new(Move::Place("f5".parse().unwrap())));
        r.result = Some(ClaimedResult::discs(vec![64, 0]));
        r.tags.push(Tag::new("Date", "2026"));
        r.tags.push(Tag::new("Black", "Self"));
        r.tags.push(Tag::new("White", "Self"));
        assert_eq!(writer.write(&r).unwrap(), Vec::<String>::new());
        writer.finish().unwrap();
        drop(writer);
        assert_eq!(&sink[16 + 2..16 + 6], &[1, 0, 1, 0]);
        let jou = NameTable::read(NameKind::Player, &dir.join("WTHOR.JOU")).unwrap();
        assert_eq!(jou.len(), 2);
        let trn = NameTable::read(NameKind::Tournament, &dir.join("WTHOR.TRN")).unwrap();
        assert_eq!(
            trn.len(),
            1,
            "the missing half of the pair is written with it"
        );
        fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn margins_become_black_counts() {
        let mut r = Record::new(Rules::default());
        r.result = Some(ClaimedResult {
            score: ResultScore::Margin(18.0),
            ..ClaimedResult::discs(vec![])
        });
        let writer = WthorWriter::new(Box::new(std::io::sink()), &WriteOptions::default());
        let mut losses = Vec::new();
        assert_eq!(writer.score(&r, Geometry::Eight, 64, &mut losses), 41);
        assert!(losses.is_empty());
        r.result = Some(ClaimedResult {
            score: ResultScore::Margin(2.5),
            ..ClaimedResult::discs(vec![])
        });
        writer.score(&r, Geometry::Eight, 64, &mut losses);
        assert_eq!(losses, ["the margin 2.5 (not a whole disc count on 8x8)"]);
    }
}
