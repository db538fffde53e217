//! `reversi`: validate, convert and explore Reversi/Othello game records.

use std::process::ExitCode;

mod cli;

fn main() -> ExitCode {
    cli::main()
}
