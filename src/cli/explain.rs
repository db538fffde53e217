//! `reversi explain`.

use std::io::{self, Write};

use reversi_record::validate::{explain, CODES};

use super::exit;

/// Explain a diagnostic code, or list them all.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The code, such as `illegal-move`; leave out to list every code.
    code: Option<String>,
}

pub(crate) fn run(args: Args) -> io::Result<u8> {
    let mut out = io::stdout().lock();
    let Some(code) = args.code else {
        for (_, name, text) in CODES {
            let first = text
                .lines()
                .next()
                .unwrap_or(text)
                .split(". ")
                .next()
                .unwrap_or(text);
            writeln!(out, "{name:<16} {}", first.trim_end_matches('.'))?;
        }
        writeln!(
            out,
            "{:<16} reader errors (syntax-, json-, wthor-, ggf-, sgf-, transcript-)",
            "syntax-..."
        )?;
        return Ok(exit::OK);
    };
    match explain(&code) {
        Some(text) => {
            writeln!(out, "{code}\n\n{text}")?;
            Ok(exit::OK)
        }
        None => {
            writeln!(
                io::stderr(),
                "error: unknown code `{code}`; `reversi explain` lists them"
            )?;
            Ok(exit::USAGE)
        }
    }
}
