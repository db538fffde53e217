//! `reversi perft`.

use std::io::{self, Write};
use std::time::Instant;

use reversi_engine::{Finished, Move, Position, Rules};

use super::{exit, output};

/// Count the leaves of the game tree from the start position.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// Plies to search (a pass is a ply).
    depth: u32,
    /// The rules string, e.g. `othello:6x6` or `multi3:octagon`.
    #[arg(long, default_value = "othello", value_parser = super::parse_rules)]
    rules: Rules,
    /// Count a game that ends above the horizon as one leaf (Aart Bik) instead of zero
    /// (OEIS A124004, Edax).
    #[arg(long)]
    count_finished: bool,
    /// Output format.
    #[arg(long, value_enum, default_value_t = PerftFormat::Human)]
    format: PerftFormat,
    /// Threads to search on (default, or 0: every core; at most 4 per core, with a note).
    /// The count does not depend on it.
    #[arg(long, short = 'j')]
    jobs: Option<usize>,
    /// Divide the count by the first ply: each legal move (or the forced pass) with the
    /// leaves below it, then the total (what engine authors compare to find a bug).
    #[arg(long)]
    divide: bool,
}

/// How perft prints its count: one line either way, so there is no `jsonl`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub(crate) enum PerftFormat {
    /// `perft(D) RULES: N`, the timing on standard error.
    Human,
    /// One JSON object.
    Json,
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let start = Instant::now();
    let finished = if args.count_finished {
        Finished::Counted
    } else {
        Finished::Ignored
    };
    let jobs = super::capped_jobs(args.jobs, false);
    let pos = Position::new(args.rules);
    let divided = args
        .divide
        .then(|| pos.perft_divide(args.depth, finished, jobs));
    let leaves = match &divided {
        Some(divided) if !divided.is_empty() => divided.iter().map(|(_, n)| n).sum(),
        _ => pos.perft_jobs(args.depth, finished, jobs),
    };
    let seconds = start.elapsed().as_secs_f64();
    let mut out = io::stdout().lock();
    let printed = match args.format {
        PerftFormat::Human => {
            let lines = divided
                .iter()
                .flatten()
                .try_for_each(|(mv, n)| writeln!(out, "{}: {n}", move_name(*mv)));
            let line = lines
                .and_then(|()| writeln!(out, "perft({}) {}: {leaves}", args.depth, args.rules));
            let rate = leaves as f64 / seconds.max(1e-9) / 1e6;
            super::stderr_line(format_args!("{seconds:.3} s, {rate:.1} M leaves/s"));
            line
        }
        PerftFormat::Json => {
            let mut value = serde_json::json!({
                "rules": args.rules.to_string(),
                "depth": args.depth,
                "leaves": leaves,
            });
            if let Some(divided) = &divided {
                value["divide"] = divided
                    .iter()
                    .map(|(mv, n)| serde_json::json!({"move": move_name(*mv), "leaves": n}))
                    .collect();
            }
            writeln!(out, "{value}")
        }
    };
    output::finish_stdout(printed.and_then(|()| out.flush()), exit::OK)
}

/// A first move as perft's divide names it: its square, or `pass`.
fn move_name(mv: Move) -> String {
    match mv {
        Move::Place(sq) => sq.to_string(),
        Move::Pass => "pass".to_owned(),
    }
}
