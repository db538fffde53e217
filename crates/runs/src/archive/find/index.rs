//! The index beside an archive (`.rrx`): the canonical hash of every position of the first
//! plies of every game, sorted, so that a position query is a binary search, then a
//! replay of the few games found (hashes can collide) from the moves the index keeps.
//!
//! # What is indexed
//!
//! Games on the 8x8 board, two players, from the usual start, with the standard opening
//! and no disc supply or handicap (every WTHOR game; anti-Othello too, whose moves are
//! Othello's): every position each reaches with at most `4 + depth` discs ([`DEFAULT_DEPTH`]
//! is 20: the first 20 placements), the positions after a pass included. Each game's
//! first moves are kept (through the placement after its last indexed position) with its
//! players' names and its result, so that a query is answered, and its explorer tree
//! counted, from the index alone. Any other game is listed as *unindexed*: a query
//! reads and replays it from its file. A position with more than `4 + depth` discs, or
//! a query without a position, is answered by a scan.
//!
//! # Binary format (version 1, little-endian)
//!
//! ```text
//! header, 80 bytes
//!   0  magic        8 bytes  "RRXFIND\0"
//!   8  version      u32      1
//!  12  depth        u32      placements indexed (20)
//!  16  slots        u32      moves kept per game (depth + 9)
//!  20  files        u32
//!  24  games        u64
//!  32  names        u64
//!  40  postings     u64
//!  48  files_bytes  u64      length of the files section
//!  56  names_bytes  u64      length of the names section
//!  64  unindexed    u64      games not indexed
//!  72  reserved     8 bytes  zero
//! files section, per file (in input order)
//!  size u64, mtime seconds i64, mtime nanoseconds u32, games u32,
//!  path length u16, path (UTF-8: relative to the index's folder when the file is below
//!  it, else absolute)
//! names section, per name (name 0 is "no name" and is not written)
//!  length u16, UTF-8 bytes
//! games section, per game (game id = position in this table), 21 + slots bytes
//!  file u32, game index in its file u32 (from 1), Black's name u32, White's name u32,
//!  winner u8 (0 unknown, 1 Black, 2 draw, 3 White), Black's margin in half discs i16,
//!  flags u8 (1: margin known, 2: indexed), moves kept u8,
//!  moves: `slots` bytes, each `row * 16 + col`, 0xFF a pass, 0xFE none
//! hashes section: postings x u64, ascending
//! ids section: postings x u32, the game of each hash (ascending within a hash)
//! unindexed section: unindexed x u32, the games not indexed (ascending)
//! ```
//!
//! The files' sizes and modification times say when the index is stale: a file added,
//! changed or gone. [`Builder::keep`] takes the unchanged files' games and postings from
//! the old index, so only the new and changed files are read again.
//!
//! ```
//! use reversi_runs::archive::find::index::{Builder, FileStamp, Index};
//! use reversi_runs::archive::find::{Finder, Query, Target};
//! use reversi_runs::pipeline::Input;
//! use reversi_engine::Rules;
//! let data = concat!(env!("CARGO_MANIFEST_DIR"), "/../../data/wthor/WTH_2021.wtb");
//! let dir = std::env::temp_dir().join(format!("rrx-doc-{}", std::process::id()));
//! std::fs::create_dir_all(&dir)?;
//! let path = dir.join("archive.rrx");
//! let mut builder = Builder::new(20);
//! builder.add_part(Builder::read_file(FileStamp::of(data)?, Input::open(data)?, 20)?);
//! builder.write(&path, &[])?;
//! let index = Index::open(&path)?;
//! assert!(index.is_fresh(&[FileStamp::of(data)?]));
//! let query = Query::at(Target::after_moves(Rules::default(), "f5d6c3d3c4")?);
//! let found = index.lookup(&Finder::new(&query), query.target.as_ref().unwrap())?;
//! assert!(found.hits.len() > 10 && found.unindexed.is_empty());
//! # std::fs::remove_dir_all(&dir)?;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::collections::HashMap;
use std::fs::File;
use std::io::{self, BufWriter, Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::time::UNIX_EPOCH;

use crate::engine::{BitPosition, Bits, BoardShape, Color, Move, Opening, Rules, Square};
use crate::pipeline::view::GameReader;
use crate::pipeline::Input;
use crate::record::{ClaimedResult, StartPosition, Tag};

use super::bits::canonical_hash;
use super::explore::result_outcome;
use super::{Finder, Hit, Target};

/// Placements indexed by default: positions with up to 24 discs.
pub const DEFAULT_DEPTH: u32 = 20;
/// The format's version; an index of another version is rebuilt.
pub const VERSION: u32 = 1;
const MAGIC: &[u8; 8] = b"RRXFIND\0";
const HEADER: u64 = 80;
/// Moves kept beyond `depth + 1`, for passes written out.
const PASS_SLACK: u32 = 8;
const PASS: u8 = 0xFF;
const NONE: u8 = 0xFE;
const INDEXED: u8 = 2;
const HAS_MARGIN: u8 = 1;
/// The deepest index: the moves kept per game are counted in a byte.
pub const MAX_DEPTH: u32 = 60;

/// A file as the index knows it: where, how big, when last changed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FileStamp {
    /// The file, canonical.
    pub path: PathBuf,
    /// Its size in bytes.
    pub size: u64,
    /// Its modification time: seconds and nanoseconds since the Unix epoch.
    pub mtime: (i64, u32),
}

impl FileStamp {
    /// The stamp of the file at `path` now.
    pub fn of(path: impl AsRef<Path>) -> io::Result<FileStamp> {
        let path = path.as_ref();
        let named = |e: io::Error| io::Error::new(e.kind(), format!("{}: {e}", path.display()));
        let canonical = std::fs::canonicalize(path).map_err(named)?;
        let meta = std::fs::metadata(&canonical).map_err(named)?;
        let mtime = meta
            .modified()
            .ok()
            .and_then(|t| match t.duration_since(UNIX_EPOCH) {
                Ok(d) => Some((i64::try_from(d.as_secs()).ok()?, d.subsec_nanos())),
                Err(e) => Some((-(i64::try_from(e.duration().as_secs()).ok()?), 0)),
            })
            .unwrap_or((0, 0));
        Ok(FileStamp {
            path: canonical,
            size: meta.len(),
            mtime,
        })
    }
}

/// One game of a file read for the index.
#[derive(Clone, Debug)]
struct PartGame {
    index: u32,
    black: Option<String>,
    white: Option<String>,
    winner: Option<i8>,
    margin: Option<f64>,
    /// Its kept moves and canonical hashes, when indexed.
    indexed: Option<(Vec<u8>, Vec<u64>)>,
}

/// The games of one file, read for the index ([`Builder::read_file`]): files can be read
/// on several threads, then added in order.
#[derive(Clone, Debug)]
pub struct FilePart {
    stamp: FileStamp,
    games: Vec<PartGame>,
}

impl FilePart {
    /// The file.
    pub fn stamp(&self) -> &FileStamp {
        &self.stamp
    }

    /// Its games.
    pub fn games(&self) -> usize {
        self.games.len()
    }

    /// Its games that are not indexed (a query reads them from the file).
    pub fn unindexed(&self) -> usize {
        self.games.iter().filter(|g| g.indexed.is_none()).count()
    }
}

/// One game's row of the games table.
#[derive(Clone, Debug)]
struct GameRow {
    file: u32,
    index: u32,
    black: u32,
    white: u32,
    winner: u8,
    margin: i16,
    flags: u8,
    moves: Vec<u8>,
}

/// Builds an index: from the files read, and from the unchanged part of an old one.
#[derive(Debug)]
pub struct Builder {
    depth: u32,
    files: Vec<(FileStamp, u32)>,
    names: Vec<String>,
    name_ids: HashMap<String, u32>,
    games: Vec<GameRow>,
    postings: Vec<(u64, u32)>,
}

impl Builder {
    /// An empty index of `depth` placements (at most [`MAX_DEPTH`]).
    pub fn new(depth: u32) -> Builder {
        Builder {
            depth: depth.min(MAX_DEPTH),
            files: Vec::new(),
            names: vec![String::new()],
            name_ids: HashMap::new(),
            games: Vec::new(),
            postings: Vec::new(),
        }
    }

    /// The placements indexed.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// Reads the games of `input` (the file `stamp` names) for an index of `depth`.
    pub fn read_file(stamp: FileStamp, input: Input, depth: u32) -> io::Result<FilePart> {
        let depth = depth.min(MAX_DEPTH);
        let mut reader = GameReader::new(input);
        let mut games = Vec::new();
        let mut hashes = Vec::new();
        while let Some(game) = reader.next_game() {
            let game = game?;
            if game.index() == 0 {
                continue;
            }
            let moves = game.moves();
            let indexed = index_game(
                &game.rules(),
                game.start(),
                |i| moves.get(i).copied(),
                depth,
                &mut hashes,
            );
            games.push(part_game(
                game.index(),
                game.tags(),
                game.result(),
                indexed.map(|kept| (kept, hashes.clone())),
            ));
        }
        Ok(FilePart { stamp, games })
    }

    /// Adds the games of a file read with [`Builder::read_file`] (with the same depth).
    pub fn add_part(&mut self, part: FilePart) {
        let file = self.files.len() as u32;
        self.files.push((part.stamp, part.games.len() as u32));
        for game in part.games {
            let id = self.games.len() as u32;
            let black = self.name_id(game.black);
            let white = self.name_id(game.white);
            let (winner, margin, mut flags) = encode_result(game.winner, game.margin);
            let moves = match game.indexed {
                Some((moves, hashes)) => {
                    flags |= INDEXED;
                    self.postings.extend(hashes.into_iter().map(|h| (h, id)));
                    moves
                }
                None => Vec::new(),
            };
            self.games.push(GameRow {
                file,
                index: game.index,
                black,
                white,
                winner,
                margin,
                flags,
                moves,
            });
        }
    }

    fn name_id(&mut self, name: Option<String>) -> u32 {
        let Some(name) = name.filter(|n| !n.is_empty() && n.len() <= usize::from(u16::MAX)) else {
            return 0;
        };
        if let Some(&id) = self.name_ids.get(&name) {
            return id;
        }
        let id = self.names.len() as u32;
        self.names.push(name.clone());
        self.name_ids.insert(name, id);
        id
    }

    /// Takes from the old index `old` the files `keep` says are unchanged, with their
    /// games and postings, without reading them again. The old index must have this
    /// builder's depth.
    pub fn keep(&mut self, old: &Index, keep: impl Fn(&IndexedFile) -> bool) -> io::Result<()> {
        if old.depth != self.depth {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                "the old index has another depth",
            ));
        }
        let kept_files: Vec<bool> = old.files.iter().map(&keep).collect();
        if !kept_files.iter().any(|&k| k) {
            return Ok(());
        }
        let mut file = old.file()?;
        // The old games kept, renumbered: old id -> new id.
        let mut new_ids = vec![u32::MAX; old.games as usize];
        let mut file_ids = vec![u32::MAX; old.files.len()];
        for (k, f) in old.files.iter().enumerate() {
            if kept_files[k] {
                file_ids[k] = self.files.len() as u32;
                self.files.push((f.stamp.clone(), f.games));
            }
        }
        let row_len = old.row_len();
        file.seek(SeekFrom::Start(old.games_at))?;
        let mut rows = io::BufReader::with_capacity(1 << 20, &mut file);
        let mut buf = vec![0u8; row_len];
        for (old_id, new_id) in new_ids.iter_mut().enumerate() {
            rows.read_exact(&mut buf)?;
            let row = old.decode_row(&buf);
            let Some(&fid) = file_ids.get(row.file as usize).filter(|&&f| f != u32::MAX) else {
                continue;
            };
            let _ = old_id;
            *new_id = self.games.len() as u32;
            let black = self.name_id(old.name(row.black).map(str::to_owned));
            let white = self.name_id(old.name(row.white).map(str::to_owned));
            self.games.push(GameRow {
                file: fid,
                black,
                white,
                ..row
            });
        }
        drop(rows);
        let n = old.postings as usize;
        let hashes = old.read_u64s(&mut file, old.hashes_at, n)?;
        let ids = old.read_u32s(&mut file, old.ids_at, n)?;
        for (h, id) in hashes.into_iter().zip(ids) {
            if let Some(&new) = new_ids.get(id as usize).filter(|&&n| n != u32::MAX) {
                self.postings.push((h, new));
            }
        }
        Ok(())
    }

    /// Writes the index to `path`, atomically (the old one stays until the new one is
    /// complete), refusing a path that is one of `inputs`.
    pub fn write(mut self, path: &Path, inputs: &[&Path]) -> io::Result<()> {
        self.postings.sort_unstable();
        self.postings.dedup();
        let dir = canonical_dir(path);
        let slots = self.depth + 1 + PASS_SLACK;
        let mut files = Vec::new();
        for (stamp, games) in &self.files {
            files.extend_from_slice(&stamp.size.to_le_bytes());
            files.extend_from_slice(&stamp.mtime.0.to_le_bytes());
            files.extend_from_slice(&stamp.mtime.1.to_le_bytes());
            files.extend_from_slice(&games.to_le_bytes());
            let stored = match dir.as_deref().and_then(|d| stamp.path.strip_prefix(d).ok()) {
                Some(relative) => relative.to_string_lossy().into_owned(),
                None => stamp.path.to_string_lossy().into_owned(),
            };
            let bytes = stored.as_bytes();
            let len = u16::try_from(bytes.len()).map_err(|_| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("{stored}: path too long"),
                )
            })?;
            files.extend_from_slice(&len.to_le_bytes());
            files.extend_from_slice(bytes);
        }
        let mut names = Vec::new();
        for name in &self.names[1..] {
            names.extend_from_slice(&(name.len() as u16).to_le_bytes());
            names.extend_from_slice(name.as_bytes());
        }
        let atomic = crate::output::AtomicFile::create_guarded(path, inputs)?;
        let mut out = BufWriter::with_capacity(1 << 20, atomic);
        out.write_all(MAGIC)?;
        out.write_all(&VERSION.to_le_bytes())?;
        out.write_all(&self.depth.to_le_bytes())?;
        out.write_all(&slots.to_le_bytes())?;
        out.write_all(&(self.files.len() as u32).to_le_bytes())?;
        out.write_all(&(self.games.len() as u64).to_le_bytes())?;
        out.write_all(&((self.names.len() - 1) as u64).to_le_bytes())?;
        out.write_all(&(self.postings.len() as u64).to_le_bytes())?;
        out.write_all(&(files.len() as u64).to_le_bytes())?;
        out.write_all(&(names.len() as u64).to_le_bytes())?;
        let unindexed: Vec<u32> = (0..self.games.len() as u32)
            .filter(|&id| self.games[id as usize].flags & INDEXED == 0)
            .collect();
        out.write_all(&(unindexed.len() as u64).to_le_bytes())?;
        out.write_all(&[0u8; 8])?;
        out.write_all(&files)?;
        out.write_all(&names)?;
        let mut row = Vec::with_capacity(21 + slots as usize);
        for game in &self.games {
            row.clear();
            row.extend_from_slice(&game.file.to_le_bytes());
            row.extend_from_slice(&game.index.to_le_bytes());
            row.extend_from_slice(&game.black.to_le_bytes());
            row.extend_from_slice(&game.white.to_le_bytes());
            row.push(game.winner);
            row.extend_from_slice(&game.margin.to_le_bytes());
            row.push(game.flags);
            let kept = game.moves.len().min(slots as usize);
            row.push(kept as u8);
            row.extend_from_slice(&game.moves[..kept]);
            row.resize(21 + slots as usize, NONE);
            out.write_all(&row)?;
        }
        for (h, _) in &self.postings {
            out.write_all(&h.to_le_bytes())?;
        }
        for (_, id) in &self.postings {
            out.write_all(&id.to_le_bytes())?;
        }
        for id in &unindexed {
            out.write_all(&id.to_le_bytes())?;
        }
        let atomic = out.into_inner().map_err(|e| e.into_error())?;
        atomic.commit()
    }
}

/// The game's part for the index.
fn part_game(
    index: usize,
    tags: &[Tag],
    result: Option<&ClaimedResult>,
    indexed: Option<(Vec<u8>, Vec<u64>)>,
) -> PartGame {
    let tag = |name: &str| {
        tags.iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.clone())
    };
    let (winner, margin) = result_outcome(result);
    PartGame {
        index: index as u32,
        black: tag("Black"),
        white: tag("White"),
        winner,
        margin,
        indexed,
    }
}

fn encode_result(winner: Option<i8>, margin: Option<f64>) -> (u8, i16, u8) {
    let winner = match winner {
        None => 0,
        Some(1) => 1,
        Some(0) => 2,
        Some(_) => 3,
    };
    let halves = margin
        .map(|m| (m * 2.0).round())
        .filter(|h| h.abs() <= f64::from(i16::MAX));
    match halves {
        Some(h) => (winner, h as i16, HAS_MARGIN),
        None => (winner, 0, 0),
    }
}

/// Whether games of `rules` from `start` are indexed: what [`index_game`] replays.
fn indexable(rules: &Rules, start: Option<&StartPosition>) -> bool {
    start.is_none()
        && rules.board() == BoardShape::Eight
        && rules.players() == 2
        && rules.opening() == Opening::Standard
        && rules.supply().is_none()
        && rules.handicap().is_none()
        && rules.playable() == BoardShape::Eight.cells()
}

/// Replays a game for the index: the canonical hash of each position with at most
/// `4 + depth` discs into `hashes`, and the moves kept (through the one played from the
/// last of them); `None` for a game the index does not hold.
fn index_game(
    rules: &Rules,
    start: Option<&StartPosition>,
    moves: impl Fn(usize) -> Option<Move>,
    depth: u32,
    hashes: &mut Vec<u64>,
) -> Option<Vec<u8>> {
    hashes.clear();
    if !indexable(rules, start) {
        return None;
    }
    let pos = BitPosition::<u64>::start(&Rules::default())?;
    let most = 4 + depth;
    let slots = (depth + 1 + PASS_SLACK) as usize;
    let mut last_ply = 0;
    super::scan::walk(pos, &moves, most, |pos, ply| {
        let black = pos.discs(Color::Black);
        let white = pos.discs(Color::White);
        hashes.push(canonical_hash(black, white, pos.turn() == Color::Black));
        last_ply = ply;
        false
    });
    hashes.sort_unstable();
    hashes.dedup();
    let mut kept = Vec::with_capacity(last_ply + 1);
    for i in 0..=last_ply {
        match moves(i) {
            None => break,
            Some(Move::Pass) => kept.push(PASS),
            Some(Move::Place(sq)) => kept.push(sq.row() << 4 | sq.col()),
        }
    }
    (kept.len() <= slots).then_some(kept)
}

/// A file an index holds.
#[derive(Clone, Debug)]
pub struct IndexedFile {
    /// Where it was and what it was like when indexed (the path resolved against the
    /// index's folder).
    pub stamp: FileStamp,
    /// Its games.
    pub games: u32,
}

/// An index opened for queries: the header, files and names read; the games and
/// postings are read as a query needs them.
#[derive(Debug)]
pub struct Index {
    path: PathBuf,
    depth: u32,
    slots: u32,
    files: Vec<IndexedFile>,
    names: Vec<String>,
    games: u64,
    postings: u64,
    games_at: u64,
    hashes_at: u64,
    ids_at: u64,
    unindexed: u64,
    unindexed_at: u64,
}

/// A game the index found at the position.
#[derive(Clone, Debug, PartialEq)]
pub struct IndexHit {
    /// The file, as an index into [`Index::files`].
    pub file: usize,
    /// The game's index in its file (from 1).
    pub index: usize,
    /// Where it meets the position.
    pub hit: Hit,
    /// Black's and White's names.
    pub black: Option<String>,
    /// White's name.
    pub white: Option<String>,
    /// Who won (`1` Black, `0` a draw, `-1` White), as its result says.
    pub winner: Option<i8>,
    /// Black's disc margin, as its result says.
    pub margin: Option<f64>,
}

/// What a lookup found.
#[derive(Clone, Debug, Default)]
pub struct Lookup {
    /// The indexed games that reach the position, confirmed by replay, in file order.
    pub hits: Vec<IndexHit>,
    /// Candidates whose hash matched but whose replay did not (hash collisions).
    pub collisions: usize,
    /// The games the index does not hold, to be read from their files: file (into
    /// [`Index::files`]) and game index.
    pub unindexed: Vec<(usize, usize)>,
}

fn bad(path: &Path, why: &str) -> io::Error {
    io::Error::new(
        io::ErrorKind::InvalidData,
        format!("{}: not a usable index: {why}", path.display()),
    )
}

/// The canonical folder of `path`'s file (which may not exist yet).
fn canonical_dir(path: &Path) -> Option<PathBuf> {
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d,
        _ => Path::new("."),
    };
    std::fs::canonicalize(dir).ok()
}

impl Index {
    /// Opens the index at `path`: checks its magic, version and size, and reads its
    /// files and names.
    pub fn open(path: impl AsRef<Path>) -> io::Result<Index> {
        let path = path.as_ref();
        let mut file = File::open(path)?;
        let len = file.metadata()?.len();
        let mut header = [0u8; HEADER as usize];
        file.read_exact(&mut header)
            .map_err(|_| bad(path, "shorter than its header"))?;
        if &header[..8] != MAGIC {
            return Err(bad(path, "not an index file (no `RRXFIND` magic)"));
        }
        let u32_at = |at: usize| {
            u32::from_le_bytes([header[at], header[at + 1], header[at + 2], header[at + 3]])
        };
        let u64_at = |at: usize| {
            let mut b = [0u8; 8];
            b.copy_from_slice(&header[at..at + 8]);
            u64::from_le_bytes(b)
        };
        let version = u32_at(8);
        if version != VERSION {
            return Err(bad(
                path,
                &format!("version {version}, this program reads {VERSION}"),
            ));
        }
        let (depth, slots, nfiles) = (u32_at(12), u32_at(16), u32_at(20));
        let (games, nnames, postings) = (u64_at(24), u64_at(32), u64_at(40));
        let (files_bytes, names_bytes, unindexed) = (u64_at(48), u64_at(56), u64_at(64));
        if depth > MAX_DEPTH || slots != depth + 1 + PASS_SLACK {
            return Err(bad(path, "its depth and moves kept do not agree"));
        }
        let row_len = 21 + u64::from(slots);
        let games_at = HEADER
            .checked_add(files_bytes)
            .and_then(|x| x.checked_add(names_bytes))
            .ok_or_else(|| bad(path, "sections too long"))?;
        let hashes_at = games
            .checked_mul(row_len)
            .and_then(|x| x.checked_add(games_at))
            .ok_or_else(|| bad(path, "sections too long"))?;
        let ids_at = postings
            .checked_mul(8)
            .and_then(|x| x.checked_add(hashes_at))
            .ok_or_else(|| bad(path, "sections too long"))?;
        let unindexed_at = postings
            .checked_mul(4)
            .and_then(|x| x.checked_add(ids_at))
            .ok_or_else(|| bad(path, "sections too long"))?;
        let end = unindexed
            .checked_mul(4)
            .and_then(|x| x.checked_add(unindexed_at));
        if end != Some(len) || unindexed > games {
            return Err(bad(
                path,
                "its length is not what its header says (cut short?)",
            ));
        }
        let mut section = vec![0u8; files_bytes as usize];
        file.read_exact(&mut section)?;
        let dir = canonical_dir(path).unwrap_or_default();
        let mut files = Vec::with_capacity(nfiles as usize);
        let mut at = 0usize;
        let mut take = |n: usize| -> io::Result<&[u8]> {
            let bytes = section
                .get(at..at + n)
                .ok_or_else(|| bad(path, "the files section is cut short"))?;
            at += n;
            Ok(bytes)
        };
        for _ in 0..nfiles {
            let size = u64::from_le_bytes(fixed(take(8)?));
            let secs = i64::from_le_bytes(fixed(take(8)?));
            let nanos = u32::from_le_bytes(fixed(take(4)?));
            let games = u32::from_le_bytes(fixed(take(4)?));
            let len = u16::from_le_bytes(fixed(take(2)?));
            let stored = String::from_utf8_lossy(take(usize::from(len))?).into_owned();
            files.push(IndexedFile {
                stamp: FileStamp {
                    path: dir.join(stored),
                    size,
                    mtime: (secs, nanos),
                },
                games,
            });
        }
        let mut section = vec![0u8; names_bytes as usize];
        file.read_exact(&mut section)?;
        let mut names = Vec::with_capacity(nnames as usize + 1);
        names.push(String::new());
        let mut at = 0usize;
        for _ in 0..nnames {
            let len = section
                .get(at..at + 2)
                .map(|b| usize::from(u16::from_le_bytes([b[0], b[1]])))
                .ok_or_else(|| bad(path, "the names section is cut short"))?;
            let name = section
                .get(at + 2..at + 2 + len)
                .ok_or_else(|| bad(path, "the names section is cut short"))?;
            names.push(String::from_utf8_lossy(name).into_owned());
            at += 2 + len;
        }
        Ok(Index {
            path: path.to_path_buf(),
            depth,
            slots,
            files,
            names,
            games,
            postings,
            games_at,
            hashes_at,
            ids_at,
            unindexed,
            unindexed_at,
        })
    }

    /// The placements indexed.
    pub fn depth(&self) -> u32 {
        self.depth
    }

    /// The files, in the order they were indexed.
    pub fn files(&self) -> &[IndexedFile] {
        &self.files
    }

    /// The games.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// The (hash, game) pairs.
    pub fn postings(&self) -> u64 {
        self.postings
    }

    /// Whether the index holds exactly the files `inputs`, each as it is now (in any
    /// order).
    pub fn is_fresh(&self, inputs: &[FileStamp]) -> bool {
        self.files.len() == inputs.len()
            && inputs
                .iter()
                .all(|stamp| self.files.iter().any(|f| f.stamp == *stamp))
    }

    /// Whether a position query for `target` can be answered from the index: a position
    /// on the 8x8 board with two players and at most `4 + depth` discs.
    pub fn covers(&self, target: &Target) -> bool {
        let rules = target.rules();
        rules.board() == BoardShape::Eight
            && rules.players() == 2
            && target.discs() <= 4 + self.depth as usize
    }

    fn row_len(&self) -> usize {
        21 + self.slots as usize
    }

    fn file(&self) -> io::Result<File> {
        File::open(&self.path)
            .map_err(|e| io::Error::new(e.kind(), format!("{}: {e}", self.path.display())))
    }

    /// A player's name by its id.
    fn name(&self, id: u32) -> Option<&str> {
        match id {
            0 => None,
            id => self.names.get(id as usize).map(String::as_str),
        }
    }

    fn decode_row(&self, row: &[u8]) -> GameRow {
        let u32_at = |at: usize| u32::from_le_bytes(fixed(&row[at..at + 4]));
        let kept = usize::from(row[20]).min(self.slots as usize);
        GameRow {
            file: u32_at(0),
            index: u32_at(4),
            black: u32_at(8),
            white: u32_at(12),
            winner: row[16],
            margin: i16::from_le_bytes([row[17], row[18]]),
            flags: row[19],
            moves: row[21..21 + kept].to_vec(),
        }
    }

    fn read_at(&self, file: &mut File, at: u64, buf: &mut [u8]) -> io::Result<()> {
        file.seek(SeekFrom::Start(at))?;
        file.read_exact(buf)
    }

    fn read_u64s(&self, file: &mut File, at: u64, n: usize) -> io::Result<Vec<u64>> {
        let mut bytes = vec![0u8; n * 8];
        self.read_at(file, at, &mut bytes)?;
        Ok(bytes
            .chunks_exact(8)
            .map(|c| u64::from_le_bytes(fixed(c)))
            .collect())
    }

    fn read_u32s(&self, file: &mut File, at: u64, n: usize) -> io::Result<Vec<u32>> {
        let mut bytes = vec![0u8; n * 4];
        self.read_at(file, at, &mut bytes)?;
        Ok(bytes
            .chunks_exact(4)
            .map(|c| u32::from_le_bytes(fixed(c)))
            .collect())
    }

    /// The first posting whose hash is not below `hash`: a binary search on the file.
    fn lower_bound(&self, file: &mut File, hash: u64, above: bool) -> io::Result<u64> {
        let (mut lo, mut hi) = (0u64, self.postings);
        let mut buf = [0u8; 8];
        while lo < hi {
            let mid = lo + (hi - lo) / 2;
            self.read_at(file, self.hashes_at + mid * 8, &mut buf)?;
            let h = u64::from_le_bytes(buf);
            if h < hash || (above && h == hash) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        Ok(lo)
    }

    /// The games that reach `target` as `finder` tests them (it must be the finder of a
    /// query for `target`, which [`Index::covers`]): the candidates whose canonical hash
    /// is the target's, each confirmed by a replay of its kept moves; and the games the
    /// index does not hold.
    pub fn lookup(&self, finder: &Finder, target: &Target) -> io::Result<Lookup> {
        let mut found = Lookup::default();
        let mut file = self.file()?;
        let setup = target.setup();
        let black = u64::from_set(setup.discs[Color::Black.index()]);
        let white = u64::from_set(setup.discs[Color::White.index()]);
        let hash = canonical_hash(black, white, setup.turn == Color::Black);
        let lo = self.lower_bound(&mut file, hash, false)?;
        let hi = self.lower_bound(&mut file, hash, true)?;
        let mut ids = self.read_u32s(&mut file, self.ids_at + lo * 4, (hi - lo) as usize)?;
        let row_len = self.row_len();
        let rules = Rules::default();
        let mut confirm = |row: &GameRow| {
            if row.flags & INDEXED == 0 {
                found
                    .unindexed
                    .push((row.file as usize, row.index as usize));
                return;
            }
            let moves = |i: usize| row.moves.get(i).and_then(|&code| decode_move(code));
            match finder.reach(&rules, None, moves) {
                Some(hit) => found.hits.push(IndexHit {
                    file: row.file as usize,
                    index: row.index as usize,
                    hit,
                    black: self.name(row.black).map(str::to_owned),
                    white: self.name(row.white).map(str::to_owned),
                    winner: match row.winner {
                        1 => Some(1),
                        2 => Some(0),
                        3 => Some(-1),
                        _ => None,
                    },
                    margin: (row.flags & HAS_MARGIN != 0).then(|| f64::from(row.margin) / 2.0),
                }),
                None => found.collisions += 1,
            }
        };
        // The games not indexed are candidates of every query.
        ids.extend(self.read_u32s(&mut file, self.unindexed_at, self.unindexed as usize)?);
        ids.sort_unstable();
        ids.dedup();
        // Many candidates: the whole table in one read; few: each row where it is.
        let mut buf = vec![0u8; row_len];
        if ids.len() as u64 * 16 > self.games {
            file.seek(SeekFrom::Start(self.games_at))?;
            let mut rows = io::BufReader::with_capacity(1 << 20, &mut file);
            let mut next = ids.iter().peekable();
            for id in 0..self.games {
                rows.read_exact(&mut buf)?;
                if next.next_if(|&&i| u64::from(i) == id).is_some() {
                    confirm(&self.decode_row(&buf));
                }
            }
        } else {
            for &id in &ids {
                if u64::from(id) >= self.games {
                    return Err(bad(&self.path, "a posting names a game it does not have"));
                }
                self.read_at(
                    &mut file,
                    self.games_at + u64::from(id) * row_len as u64,
                    &mut buf,
                )?;
                confirm(&self.decode_row(&buf));
            }
        }
        found.hits.sort_by_key(|h| (h.file, h.index));
        found.unindexed.sort_unstable();
        found.unindexed.dedup();
        Ok(found)
    }

    /// How many games are not indexed (a query reads them from their files).
    pub fn unindexed(&self) -> u64 {
        self.unindexed
    }
}

fn decode_move(code: u8) -> Option<Move> {
    match code {
        PASS => Some(Move::Pass),
        NONE => None,
        code => Square::new(code & 15, code >> 4).map(Move::Place),
    }
}

fn fixed<const N: usize>(bytes: &[u8]) -> [u8; N] {
    let mut out = [0u8; N];
    out.copy_from_slice(&bytes[..N]);
    out
}
