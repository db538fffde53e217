//! `reversi`: validate, convert and explore Reversi/Othello game records.

use std::process::ExitCode;

mod cli;
mod desk;

fn main() -> ExitCode {
    cli::main()
}
