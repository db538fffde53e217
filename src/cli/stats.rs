//! `reversi stats`: counts over the games read (the library's
//! [`Stats`](reversi_runs::archive::stats::Stats)), as text, JSON, CSV or SVG.

use std::io;
use std::path::{Path, PathBuf};

use rayon::prelude::*;
use reversi_formats::record::GameSelector;
use reversi_runs::archive::stats::{Section, Stats, DEFAULT_OPENING_MOVES, DEFAULT_TOP};
use reversi_runs::pipeline::view::GameReader;

use super::input::{self, InputOptions};
use super::progress::Progress;
use super::{exit, output, stderr_line};

/// Count the games per year, event, player, result, opening and length, and the squares
/// played, as text, JSON, CSV or an SVG picture.
///
/// Also per claimed disc margin and per rules; openings are the first moves, symmetric
/// openings counted as one (f5, d3, c4 and e6 all start as f5). Nothing is replayed:
/// results are what the records claim (`reversi validate` checks them).
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Record files, or folders standing for the record files below them; `-` reads
    /// standard input.
    #[arg(required = true)]
    inputs: Vec<PathBuf>,
    /// What to write: aligned text tables (the top rows of each), the whole report as
    /// JSON, one section as CSV (`--section`), or a picture as SVG: the heat map of the
    /// squares (default), or a histogram of the lengths, margins or years.
    #[arg(long, value_enum, default_value_t = StatsFormat::Text)]
    format: StatsFormat,
    /// The section (`year`, `event`, `player`, `result`, `margin`, `opening`, `length`,
    /// `rules`, `squares`): the one table of `--format csv` (required there), the picture
    /// of `--format svg` (`squares`, the default, `length`, `margin` or `year`), or the
    /// only table of `--format text`.
    #[arg(long, value_parser = parse_section)]
    section: Option<Section>,
    /// Moves an opening is counted over (a shorter game counts with all its moves).
    #[arg(long, value_name = "N", default_value_t = DEFAULT_OPENING_MOVES as u16,
          value_parser = clap::value_parser!(u16).range(1..=200))]
    opening: u16,
    /// Rows of each text table: the most played, with "and N more" for the rest (0: every
    /// row).
    #[arg(long, value_name = "K", default_value_t = DEFAULT_TOP)]
    top: usize,
    /// Count only these games: a number (`3`, the third game of each input) or tags
    /// (`Round=3`, `Player=Tamaru`; names ignore case).
    #[arg(long, value_name = "N|TAG=VALUE,...", value_parser = super::parse_selector)]
    game: Option<GameSelector>,
    /// Output file, replaced only when the counts are made (never an input); `-` (the
    /// default) writes standard output.
    #[arg(short, long, default_value = "-")]
    output: PathBuf,
    #[command(flatten)]
    input: InputOptions,
    /// Worker threads, each counting whole inputs (default: every core); the counts are
    /// the same with any number.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// No notes; only errors and the counts.
    #[arg(long, short = 'q')]
    quiet: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
enum StatsFormat {
    Text,
    Json,
    Csv,
    Svg,
}

fn parse_section(s: &str) -> Result<Section, String> {
    s.parse()
        .map_err(|e: reversi_runs::archive::stats::ParseSectionError| e.to_string())
}

/// What counting the inputs gave: the counts, and whether a game could not be read (1) or
/// an input could not be opened or read to its end (2).
#[derive(Default)]
struct Counted {
    stats: Option<Stats>,
    unreadable: bool,
    failed_input: bool,
}

impl Counted {
    fn merge(mut self, other: Counted) -> Counted {
        match (&mut self.stats, other.stats) {
            (Some(mine), Some(theirs)) => mine.merge(theirs),
            (None, theirs) => self.stats = theirs,
            (Some(_), None) => {}
        }
        self.unreadable |= other.unreadable;
        self.failed_input |= other.failed_input;
        self
    }
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let section = match (args.format, args.section) {
        (StatsFormat::Csv, None) => {
            return usage(&format!(
                "--format csv writes one section: give --section ({})",
                section_names(|_| true)
            ))
        }
        (StatsFormat::Json, Some(_)) => {
            return usage("--format json writes every section: leave out --section")
        }
        (StatsFormat::Svg, Some(s)) if !s.has_svg() => {
            return usage(&format!(
                "--format svg draws the sections {}, not {s}",
                section_names(Section::has_svg)
            ))
        }
        (StatsFormat::Svg, None) => Some(Section::Squares),
        (_, section) => section,
    };
    let inputs = input::expand(&args.inputs, args.quiet)?;
    let options = args.input.clone();
    let jobs = super::capped_jobs(args.jobs, args.quiet);
    let progress = Progress::start(&inputs, args.quiet, true);
    let count = |path: &PathBuf| count_input(path, &options, &args, progress.as_ref());
    let counted = if jobs <= 1 || inputs.len() <= 1 {
        inputs
            .iter()
            .map(count)
            .fold(Counted::default(), Counted::merge)
    } else {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(jobs)
            .build()
            .map_err(io::Error::other)?;
        pool.install(|| {
            inputs
                .par_iter()
                .map(count)
                .reduce(Counted::default, Counted::merge)
        })
    };
    if let Some(p) = progress {
        p.finish();
    }
    let stats = counted
        .stats
        .unwrap_or_else(|| Stats::with_opening_moves(usize::from(args.opening)));
    if let Some(selector) = &args.game {
        if stats.games() == 0 && stats.unreadable() == 0 && !counted.failed_input {
            stderr_line(format_args!(
                "error: --game {selector}: no game of the inputs is selected"
            ));
            return Ok(exit::USAGE);
        }
    }
    if stats.unreadable() > 0 {
        stderr_line(format_args!(
            "error: {} {} could not be read (above); the counts leave {} out",
            stats.unreadable(),
            if stats.unreadable() == 1 {
                "game"
            } else {
                "games"
            },
            if stats.unreadable() == 1 {
                "it"
            } else {
                "them"
            },
        ));
    }
    let mut report = stats.report();
    report.top = args.top;
    let text = match (args.format, section) {
        (StatsFormat::Text, None) => report.to_text(),
        (StatsFormat::Text, Some(section)) => report.section_to_text(section),
        (StatsFormat::Json, _) => report.to_json(),
        (StatsFormat::Csv, Some(section)) => report.to_csv(section),
        (StatsFormat::Svg, Some(section)) => report.svg(section).unwrap_or_default(),
        // Refused above.
        (StatsFormat::Csv | StatsFormat::Svg, None) => String::new(),
    };
    let mut protected = output::name_files(&inputs, args.input.names.as_deref());
    protected.extend(inputs.iter().cloned());
    let protected: Vec<&Path> = protected.iter().map(PathBuf::as_path).collect();
    let written = output::write_whole(&args.output, &protected, text.as_bytes());
    let status = if counted.failed_input {
        exit::USAGE
    } else if counted.unreadable {
        exit::INVALID
    } else {
        exit::OK
    };
    output::finish_whole(&args.output, written, status)
}

/// Counts the games of one input, naming on standard error each game that could not be
/// read and the input itself when it cannot be opened or read to its end.
fn count_input(
    path: &Path,
    options: &InputOptions,
    args: &Args,
    progress: Option<&Progress>,
) -> Counted {
    let mut counted = Counted {
        stats: Some(Stats::with_opening_moves(usize::from(args.opening))),
        ..Counted::default()
    };
    let opened = match input::open(path, options) {
        Ok(opened) => opened,
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            counted.failed_input = true;
            return counted;
        }
    };
    if !args.quiet {
        stderr_line(format_args!("note: {}", opened.note()));
    }
    let name = opened.name().clone();
    let counter = super::progress::Counter::of(progress);
    let mut reader = GameReader::new(counter.input(opened).into_input());
    let Some(stats) = counted.stats.as_mut() else {
        return counted;
    };
    while let Some(game) = reader.next_game() {
        let game = match game {
            Ok(game) => game,
            Err(e) => {
                stderr_line(format_args!("error: {name}: reading failed: {e}"));
                counted.failed_input = true;
                break;
            }
        };
        let index = game.index();
        let unreadable = game.parsed().is_some_and(|g| g.record.is_none());
        if index == 0 {
            // A problem of the input itself, not a game.
            for d in game.diagnostics().iter().filter(|d| d.is_error()) {
                stderr_line(format_args!("error: {name}: {}", d.message));
                counted.unreadable = true;
            }
            continue;
        }
        let selected = match &args.game {
            None => true,
            Some(selector) if unreadable => selector.index() == Some(index),
            Some(selector) => selector.matches(index, game.tags()),
        };
        if !selected {
            continue;
        }
        super::progress::games(progress, 1);
        if unreadable {
            let why = game
                .diagnostics()
                .iter()
                .find(|d| d.is_error())
                .map_or_else(String::new, |d| format!(": {}", d.message));
            stderr_line(format_args!(
                "error: {name}: game {index} could not be read{why}"
            ));
            counted.unreadable = true;
        }
        stats.add_view(&game);
    }
    counted
}

fn section_names(keep: impl Fn(Section) -> bool) -> String {
    let names: Vec<&str> = Section::ALL
        .into_iter()
        .filter(|&s| keep(s))
        .map(Section::name)
        .collect();
    names.join(", ")
}

fn usage(message: &str) -> io::Result<u8> {
    stderr_line(format_args!("error: {message}"));
    Ok(exit::USAGE)
}
