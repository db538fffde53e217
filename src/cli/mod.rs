//! The command line: one module per verb.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod convert;
mod explain;
mod input;
mod perft;
mod repair;
mod validate;

/// Read, write, validate and convert Reversi/Othello game records of every variant.
#[derive(Debug, Parser)]
#[command(name = "reversi", version, about, propagate_version = true)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Debug, Subcommand)]
enum Command {
    /// Replay every game against the rules and report what each record gets wrong.
    #[command(visible_alias = "check")]
    Validate(validate::Args),
    /// Convert records between formats.
    Convert(convert::Args),
    /// Repair records: find the smallest set of edits that makes each game legal.
    Repair(repair::Args),
    /// Count the leaves of the game tree (move-generator test).
    Perft(perft::Args),
    /// Explain a diagnostic code.
    Explain(explain::Args),
}

/// Output formats for reports.
#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
pub(crate) enum OutputFormat {
    /// For people.
    Human,
    /// One JSON object.
    Json,
    /// JSON Lines: one object per line, streamed.
    Jsonl,
}

/// Exit codes: 0 clean, 1 invalid records, 2 usage or I/O errors.
pub(crate) mod exit {
    pub(crate) const OK: u8 = 0;
    pub(crate) const INVALID: u8 = 1;
    pub(crate) const USAGE: u8 = 2;
}

pub(crate) fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Explain(args) => explain::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => ExitCode::from(exit::OK),
        Err(e) => {
            let _ = writeln!(io::stderr(), "error: {e}");
            ExitCode::from(exit::USAGE)
        }
    }
}

/// Parses a rules string for clap, with the engine's message on error.
pub(crate) fn parse_rules(s: &str) -> Result<reversi_record::Rules, String> {
    s.parse()
        .map_err(|e: reversi_record::RulesError| e.to_string())
}
