//! The command line: one module per verb.

use std::io::{self, Write};
use std::process::ExitCode;

use clap::{Parser, Subcommand, ValueEnum};

mod completions;
mod convert;
mod explain;
mod find;
mod input;
mod legal;
mod output;
mod perft;
mod players;
mod progress;
mod repair;
mod scenario;
mod serve;
mod show;
mod signals;
mod standings;
mod stats;
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
    Standings(standings::Args),
    Players(players::Args),
    Stats(stats::Args),
    /// Find the games that reach a position (any move order, any orientation) or match
    /// tags: references, a file of the games, or the explorer tree at the position.
    ///
    /// Exit status as grep's: 0 found, 1 none found, 2 an error.
    Find(find::Args),
    /// Count the leaves of the game tree (move-generator test).
    Perft(perft::Args),
    /// Explain a diagnostic code.
    Explain(explain::Args),
    /// Show the position after a move, as text or as an SVG diagram.
    ///
    /// An illegal record is shown up to its last legal move, with the diagnostic on standard
    /// error and exit code 1.
    Show(show::Args),
    /// List the legal moves of the position after a move of a game, and who is to move.
    ///
    /// Every variant: passes where the rules have them (never in 3-4 player games), the
    /// centre squares of a free opening, `game over` at the end. Without `--move`, the
    /// position after the last legal move; an illegal move before the position asked for
    /// is noted on standard error, with exit code 1.
    Legal(legal::Args),
    /// Print a shell completion script (bash, zsh, fish, powershell).
    ///
    /// bash: `reversi completions bash > ~/.local/share/bash-completion/completions/reversi`;
    /// zsh: `reversi completions zsh > ~/.zfunc/_reversi` (with `fpath+=~/.zfunc` before
    /// `compinit`); fish: `reversi completions fish > ~/.config/fish/completions/reversi.fish`;
    /// PowerShell: `reversi completions powershell >> $PROFILE`.
    Completions(completions::CompletionsArgs),
    /// Print the manual page (or write every page into a directory).
    ///
    /// `reversi man > reversi.1` gives the main page; `reversi man --dir DIR` writes
    /// `reversi.1` and `reversi-SUBCOMMAND.1` for each subcommand, ready for
    /// `~/.local/share/man/man1`.
    Man(completions::ManArgs),
    /// Run rule scenarios, check their transcripts, write the conformance suite.
    Scenario(scenario::Args),
    /// Start the desk: a web page on this machine to load, check, repair and save record
    /// files and see the standings (docs/serve.md).
    ///
    /// The page lists the record files of the folders given (default: the current
    /// folder), takes files dropped on it, and writes new files only beside the
    /// originals. It listens on 127.0.0.1 only (unless `--listen`); the first line printed
    /// is its address.
    Serve(serve::Args),
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
    signals::install();
    let result = match cli.command {
        Command::Validate(args) => validate::run(args),
        Command::Convert(args) => convert::run(args),
        Command::Perft(args) => perft::run(args),
        Command::Repair(args) => repair::run(args),
        Command::Standings(args) => standings::run(args),
        Command::Players(args) => players::run(args),
        Command::Stats(args) => stats::run(args),
        Command::Find(args) => find::run(args),
        Command::Explain(args) => explain::run(args),
        Command::Show(args) => show::run(args),
        Command::Legal(args) => legal::run(args),
        Command::Completions(args) => completions::completions(args),
        Command::Man(args) => completions::man(args),
        Command::Scenario(args) => scenario::run(args),
        Command::Serve(args) => serve::run(args),
    };
    match result {
        Ok(code) => ExitCode::from(code),
        // A closed standard output the command did not end on itself: nothing to say.
        Err(e) if output::is_closed_pipe(&e) => ExitCode::from(exit::USAGE),
        Err(e) => {
            stderr_line(format_args!("error: {e}"));
            ExitCode::from(exit::USAGE)
        }
    }
}

/// Writes one line to standard error. A closed or full standard error loses the line, not
/// the run: notes and findings there are a courtesy, and the exit status still tells.
/// A progress bar shown now is cleared while the line is printed.
pub(crate) fn stderr_line(text: impl std::fmt::Display) {
    progress::suspend(|| {
        let _ = writeln!(io::stderr().lock(), "{text}");
    });
}

/// Parses a rules string for clap, with the engine's message on error and, when a valid
/// rules string is close, `help: did you mean ...`.
pub(crate) fn parse_rules(s: &str) -> Result<reversi_engine::Rules, String> {
    s.parse().map_err(|e: reversi_engine::RulesError| {
        let suggestions = e.suggestions(s);
        match did_you_mean(&suggestions) {
            Some(help) => format!("{e}\n  help: {help}"),
            None => e.to_string(),
        }
    })
}

/// `did you mean `a`?`, `did you mean `a` or `b`?`; `None` for no suggestion.
pub(crate) fn did_you_mean(suggestions: &[String]) -> Option<String> {
    let quoted: Vec<String> = suggestions.iter().map(|s| format!("`{s}`")).collect();
    match quoted.as_slice() {
        [] => None,
        [one] => Some(format!("did you mean {one}?")),
        [first @ .., last] => Some(format!("did you mean {} or {last}?", first.join(", "))),
    }
}

/// Parses `--game` for clap: a game number or `Tag=Value,...`.
pub(crate) fn parse_selector(s: &str) -> Result<reversi_formats::record::GameSelector, String> {
    s.parse()
        .map_err(|e: reversi_formats::record::BadSelector| e.to_string())
}

/// Parses a diagnostic code for clap (`--allow`): a name of `reversi explain`'s list, any
/// case; an unknown one is refused, with the nearest name when one is close.
pub(crate) fn parse_code(s: &str) -> Result<String, String> {
    use reversi_formats::codes::{Code, CODES};
    if let Some(code) = Code::from_name(s) {
        return Ok(code.name().to_string());
    }
    let wanted = s.trim().to_ascii_lowercase();
    let nearest = CODES
        .iter()
        .map(|(_, name, _)| (reversi_engine::edit_distance(&wanted, name), *name))
        .min();
    let hint = match nearest {
        Some((d, name)) if d <= 2.max(wanted.len() / 3) => format!("; did you mean `{name}`?"),
        _ => String::new(),
    };
    Err(format!(
        "unknown code `{s}`{hint} (`reversi explain` lists the codes)"
    ))
}

/// At most this many worker threads per core: more only costs memory and start-up time.
const JOBS_PER_CORE: usize = 4;

/// `--jobs`, capped at [`JOBS_PER_CORE`] times the cores (with a note); every core when
/// not given.
pub(crate) fn capped_jobs(jobs: Option<usize>, quiet: bool) -> usize {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let cap = cores * JOBS_PER_CORE;
    match jobs {
        Some(n) if n > cap => {
            if !quiet {
                stderr_line(format_args!(
                    "note: --jobs {n} is more than {JOBS_PER_CORE} per core on {cores} {}; using {cap}",
                    plural(cores, "core", "cores")
                ));
            }
            cap
        }
        // 0, like no --jobs, is every core.
        Some(0) | None => cores,
        Some(n) => n,
    }
}

fn plural(n: usize, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_code_typo_is_refused_with_the_nearest_name() {
        assert_eq!(parse_code("Unfinished").unwrap(), "unfinished");
        let e = parse_code("unfinshed").unwrap_err();
        assert!(e.contains("did you mean `unfinished`?"), "{e}");
        let e = parse_code("zzzzzzzzzzzzzzzzzzzz").unwrap_err();
        assert!(!e.contains("did you mean"), "{e}");
    }
}
