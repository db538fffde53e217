//! `reversi find`: the games that reach a position (in any move order, in any orientation)
//! or whose tags say something; as references, as a file of the games, or as the
//! opening-explorer tree at the position. With `--index`, an index file beside the
//! archive answers position queries without reading the games.

use std::io::{self, Write};
use std::path::{Path, PathBuf};
use std::time::Instant;

use reversi_engine::Move;
use reversi_formats::record::Record;
use reversi_formats::{wthor, Format, RecordWriter, WriteError, WriteOptions};
use reversi_runs::archive::find::index::{Builder, FileStamp, Index, DEFAULT_DEPTH, MAX_DEPTH};
use reversi_runs::archive::find::{
    result_outcome, symmetry_name, Explorer, Finder, Hit, Query, TagFilter, Target,
};
use reversi_runs::pipeline::view::GameReader;
use serde_json::json;

use super::input::{self, InputOptions};
use super::output::{self, Output, SharedOutput};
use super::{exit, stderr_line};

mod index;
mod print;

use index::*;
use print::*;

/// Find the games that reach a position, in any move order and under the board's
/// symmetries, or whose tags match; print references to them, write them to a file, or
/// show what was played from the position (`--explore`).
///
/// Exit status as grep's: 0 when a game is found, 1 when none is, 2 on an error (an
/// input that cannot be read, a query that cannot be read).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Input files; `-` reads standard input. A folder stands for the record files below
    /// it.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// The position after these moves from the usual start: `f5d6c3d3c4`, `f5 d6 c3`,
    /// passes as `pass` or `--` (of the game `--rules` gives; default: Othello on 8x8).
    #[arg(
        long,
        value_name = "MOVES",
        conflicts_with = "board",
        allow_hyphen_values = true
    )]
    moves: Option<String>,
    /// The position on this board: its squares row by row from a1 (`X` Black, `O` White,
    /// `-` empty), then the side to move (`X` or `O`; without it, the one of a game
    /// without passes). A diagram as `reversi show` prints it reads too. Its board is the
    /// one `--rules` gives (default: Othello on 8x8).
    #[arg(long, value_name = "BOARD", allow_hyphen_values = true)]
    board: Option<String>,
    /// Tag conditions: `Black~tamaru` (contains, any case), `Event=French*` (equals, `*`
    /// any text), `Date>=1990`, `Date=1990..1999`, `!~`, `!=`, `<`, `>`; `,` joins
    /// conditions that must all hold, `|` alternatives; `Player` is Black or White. Given
    /// several times, a game meeting any of them is taken.
    #[arg(long = "where", value_name = "CONDITIONS", value_parser = parse_filter)]
    conditions: Vec<TagFilter>,
    /// Only the position as given, not its images under the board's symmetries.
    #[arg(long)]
    no_symmetry: bool,
    /// Show the explorer tree at the position instead of the games: each next move
    /// (turned back to the position's orientation) with its games, share and results.
    #[arg(long)]
    explore: bool,
    /// Write the games found to this file (`-`: standard output), atomically, in the
    /// format `--to` names (default: the one its extension names).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// The format of `--output`: `rgn`, `pgn`, `pgn:thor`, `ggf`, `sgf`, `json`,
    /// `json:lines`, `wthor`, `moves`, `transcript`, `obf`.
    #[arg(long, value_name = "FORMAT", value_parser = input::parse_target, requires = "output")]
    to: Option<(Format, Option<String>)>,
    /// Write what `--to` can hold and note what was dropped, instead of refusing a game.
    #[arg(long, requires = "output")]
    lossy: bool,
    /// How the references (or the tree) are printed: `text`, `json` (one document) or
    /// `jsonl` (one object per game or move).
    #[arg(long, value_enum, default_value_t = Shape::Text)]
    format: Shape,
    /// Use an index file beside the archive, built when missing, updated when the inputs
    /// changed (new files read, the others taken over): `ARCHIVE.rrx` for one input
    /// folder or file `ARCHIVE`. Without a position to find, only builds or updates it.
    #[arg(long)]
    index: bool,
    /// The index file (implies `--index`); needed with several inputs.
    #[arg(long, value_name = "FILE")]
    index_file: Option<PathBuf>,
    /// Placements indexed (positions with up to 4 + DEPTH discs; default: the existing
    /// index's, else 20); a deeper position is found by a scan. An index of another depth
    /// is rebuilt.
    #[arg(long, value_name = "DEPTH",
          value_parser = clap::value_parser!(u32).range(0..=i64::from(MAX_DEPTH)))]
    depth: Option<u32>,
    // `--rules` is also the rules of the position looked for (default: Othello on 8x8).
    #[command(flatten)]
    input: InputOptions,
    /// Worker threads (default: every core), each reading whole files.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No notes on standard error.
    #[arg(long, short = 'q')]
    quiet: bool,
}

/// How references and trees are printed.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum Shape {
    /// For people.
    #[value(alias = "human")]
    Text,
    /// One JSON document.
    Json,
    /// JSON Lines: one object per game (or per move of the tree).
    Jsonl,
}

fn parse_filter(s: &str) -> Result<TagFilter, String> {
    TagFilter::parse(s).map_err(|e| e.to_string())
}

/// A game found.
struct Found {
    /// Into the inputs.
    file: usize,
    index: usize,
    black: Option<String>,
    white: Option<String>,
    hit: Hit,
    winner: Option<i8>,
    margin: Option<f64>,
    /// The record, when the games are written.
    record: Option<Record>,
}

/// What reading one input gave.
struct FileResult {
    found: Vec<Found>,
    games: u64,
    failed: bool,
    /// The notes and errors to print, in order (inputs read in parallel print in input
    /// order).
    lines: Vec<String>,
}

impl FileResult {
    fn print(&mut self) {
        for line in self.lines.drain(..) {
            stderr_line(line);
        }
    }
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let started = Instant::now();
    let rules = args.input.rules.unwrap_or_default();
    let target = match (&args.moves, &args.board) {
        (Some(moves), _) => Some(Target::after_moves(rules, moves)),
        (None, Some(board)) => Some(Target::from_board(rules, board)),
        (None, None) => None,
    };
    let target = match target.transpose() {
        Ok(target) => target,
        Err(e) => {
            let what = if args.moves.is_some() {
                "--moves"
            } else {
                "--board"
            };
            stderr_line(format_args!("error: {what}: {e}"));
            return Ok(exit::USAGE);
        }
    };
    let tags = args
        .conditions
        .iter()
        .cloned()
        .reduce(TagFilter::or)
        .unwrap_or_default();
    let query = Query {
        target,
        tags,
        symmetries: !args.no_symmetry,
    };
    let indexing = args.index || args.index_file.is_some();
    if query.target.is_none() && query.tags.is_empty() && !indexing {
        stderr_line("error: nothing to find: give a position (--moves or --board) or tag conditions (--where)");
        return Ok(exit::USAGE);
    }
    if let (Some(target), false) = (&query.target, args.quiet) {
        let over = if target.position().is_over() {
            ", game over"
        } else {
            ""
        };
        stderr_line(format_args!(
            "note: looking for {} ({} discs, {} to move{over}){}",
            target.board_string(),
            target.discs(),
            target.setup().turn,
            if query.symmetries {
                ", in any orientation"
            } else {
                ""
            }
        ));
    }
    let inputs = input::expand(&args.inputs, args.quiet)?;
    let options = args.input.clone();
    let finder = Finder::new(&query);
    let writing = args.output.is_some();

    let mut searched = 0u64;
    let mut failed = false;
    let mut found: Vec<Found> = Vec::new();
    let mut how = "scan";
    let index = if indexing {
        match index_for(&args, &inputs, &options)? {
            Some(index) => Some(index),
            None => return Ok(exit::USAGE),
        }
    } else {
        None
    };
    let indexed_answer = match (&index, &query.target) {
        (Some((index, path, stamps)), Some(target)) if index.covers(target) => {
            Some((index, path, stamps, target))
        }
        (Some((index, _, _)), Some(target)) => {
            if !args.quiet {
                stderr_line(format_args!(
                    "note: the position has {} discs, more than the index's {} (4 + depth {}): scanning the games",
                    target.discs(),
                    4 + index.depth(),
                    index.depth()
                ));
            }
            None
        }
        (Some(_), None) if query.tags.is_empty() => return Ok(exit::OK),
        (Some(_), None) => {
            if !args.quiet {
                stderr_line(
                    "note: the index answers position queries: scanning the games for the tags",
                );
            }
            None
        }
        _ => None,
    };
    if let Some((index, path, stamps, target)) = indexed_answer {
        how = "index";
        let lookup = index.lookup(&finder, target)?;
        searched = index.games();
        // The index's files, as the inputs name them.
        let by_path: std::collections::HashMap<&Path, usize> = stamps
            .iter()
            .enumerate()
            .map(|(k, s)| (s.path.as_path(), k))
            .collect();
        let file_of: Vec<Option<usize>> = index
            .files()
            .iter()
            .map(|f| by_path.get(f.stamp.path.as_path()).copied())
            .collect();
        let mut wanted: Vec<(usize, usize, Option<Found>)> = Vec::new();
        for hit in lookup.hits {
            let Some(file) = file_of.get(hit.file).copied().flatten() else {
                continue;
            };
            wanted.push((
                file,
                hit.index,
                Some(Found {
                    file,
                    index: hit.index,
                    black: hit.black,
                    white: hit.white,
                    hit: hit.hit,
                    winner: hit.winner,
                    margin: hit.margin,
                    record: None,
                }),
            ));
        }
        for (file, index) in lookup.unindexed {
            if let Some(file) = file_of.get(file).copied().flatten() {
                wanted.push((file, index, None));
            }
        }
        wanted.sort_by_key(|(file, index, _)| (*file, *index));
        if !args.quiet && lookup.collisions > 0 {
            stderr_line(format_args!(
                "note: {} candidates of the index were hash collisions, left out by replay",
                lookup.collisions
            ));
        }
        // Games the index cannot answer alone: read from their files.
        let needs_files = writing || !query.tags.is_empty() || wanted.iter().any(|w| w.2.is_none());
        if needs_files {
            let (confirmed, read_failed) =
                confirm_from_files(&args, &inputs, &options, &finder, wanted, writing)?;
            found = confirmed;
            failed |= read_failed;
        } else {
            found = wanted.into_iter().filter_map(|w| w.2).collect();
        }
        if !args.quiet {
            stderr_line(format_args!(
                "note: answered from the index {}",
                path.display()
            ));
        }
    } else {
        let jobs = super::capped_jobs(args.jobs, args.quiet);
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)?;
        // A few files at a time, so that the games kept for writing stay few.
        for (chunk_at, chunk) in inputs.chunks(jobs.max(1) * 2).enumerate() {
            let results: Vec<FileResult> = pool.install(|| {
                use rayon::prelude::*;
                chunk
                    .par_iter()
                    .enumerate()
                    .map(|(k, path)| {
                        scan_file(
                            chunk_at * jobs.max(1) * 2 + k,
                            path,
                            &options,
                            &finder,
                            writing,
                            None,
                            args.quiet,
                        )
                    })
                    .collect()
            });
            for mut result in results {
                result.print();
                searched += result.games;
                failed |= result.failed;
                found.extend(result.found);
            }
        }
    }

    if let Some(path) = &args.output {
        failed |= write_games(&args, path, &inputs, &mut found)? > 0;
    }
    let status = if failed {
        exit::USAGE
    } else if found.is_empty() {
        exit::INVALID
    } else {
        exit::OK
    };
    if !args.quiet {
        let what = match (&query.target, query.tags.is_empty()) {
            (Some(_), true) => "reach the position",
            (Some(_), false) => "reach the position and match the tags",
            (None, _) => "match the tags",
        };
        stderr_line(format_args!(
            "note: {} of {} games {what} ({how}, {:.2} s)",
            found.len(),
            searched,
            started.elapsed().as_secs_f64()
        ));
    }
    let printed = if args.explore {
        print_tree(&args, &query, &found)
    } else if args.output.is_none() {
        print_references(&args, &query, &inputs, &found, searched)
    } else {
        Ok(())
    };
    output::finish_stdout(printed, status)
}

/// Reads the games of one input, testing each with the finder: all of them, or only
/// those `only` lists (by game index). `wanted_records` keeps the records of the games
/// found.
fn scan_file(
    file: usize,
    path: &Path,
    options: &InputOptions,
    finder: &Finder,
    wanted_records: bool,
    only: Option<&[usize]>,
    quiet: bool,
) -> FileResult {
    let mut result = FileResult {
        found: Vec::new(),
        games: 0,
        failed: false,
        lines: Vec::new(),
    };
    let input = match input::open(path, options) {
        Ok(input) => input,
        Err(e) => {
            result.lines.push(format!("error: {e}"));
            result.failed = true;
            return result;
        }
    };
    if !quiet && only.is_none() {
        result.lines.push(format!("note: {}", input.note()));
    }
    let name = input.name().clone();
    let mut reader = GameReader::new(input.into_input());
    let mut only = only.map(|o| o.iter().peekable());
    while let Some(game) = reader.next_game() {
        let view = match game {
            Ok(view) => view,
            Err(e) => {
                result
                    .lines
                    .push(format!("error: {name}: reading failed: {e}"));
                result.failed = true;
                break;
            }
        };
        if view.index() == 0 {
            continue;
        }
        if let Some(only) = &mut only {
            while only.next_if(|&&i| i < view.index()).is_some() {}
            if only.peek().is_none() {
                break;
            }
            if only.peek() != Some(&&view.index()) {
                continue;
            }
        }
        result.games += 1;
        let Some(hit) = finder.test_view(&view) else {
            continue;
        };
        let (winner, margin) = result_outcome(view.result());
        result.found.push(Found {
            file,
            index: view.index(),
            black: view.tag("Black").map(str::to_owned),
            white: view.tag("White").map(str::to_owned),
            hit,
            winner,
            margin,
            record: if wanted_records {
                view.to_parsed_game().record
            } else {
                None
            },
        });
    }
    result
}

/// The games an index lookup found, checked against the tags and with their records when
/// they are written, and the games the index does not hold, tested in full: each read
/// from its file. Also whether a file could not be read.
fn confirm_from_files(
    args: &Args,
    inputs: &[PathBuf],
    options: &InputOptions,
    finder: &Finder,
    wanted: Vec<(usize, usize, Option<Found>)>,
    writing: bool,
) -> io::Result<(Vec<Found>, bool)> {
    let mut found = Vec::new();
    let mut failed = false;
    let mut at = 0;
    while at < wanted.len() {
        let file = wanted[at].0;
        let end = at + wanted[at..].iter().take_while(|w| w.0 == file).count();
        let group = &wanted[at..end];
        at = end;
        let Some(path) = inputs.get(file) else {
            continue;
        };
        let indices: Vec<usize> = group.iter().map(|w| w.1).collect();
        let mut result = scan_file(
            file,
            path,
            options,
            finder,
            writing,
            Some(&indices),
            args.quiet,
        );
        result.print();
        failed |= result.failed;
        for game in result.found {
            // An indexed game keeps the index's hit (the same as the replay's).
            let from_index = group
                .iter()
                .find(|w| w.1 == game.index)
                .and_then(|w| w.2.as_ref());
            if let Some(indexed) = from_index {
                if indexed.hit != game.hit {
                    return Err(io::Error::other(format!(
                        "{} #{}: the index and the file disagree: rebuild the index (delete it)",
                        path.display(),
                        game.index
                    )));
                }
            }
            found.push(game);
        }
    }
    Ok((found, failed))
}

fn note(args: &Args, line: std::fmt::Arguments<'_>) {
    if !args.quiet {
        stderr_line(line);
    }
}

fn move_text(mv: Option<Move>) -> Option<String> {
    mv.map(|m| match m {
        Move::Place(sq) => sq.name().to_string(),
        Move::Pass => "pass".to_string(),
    })
}
