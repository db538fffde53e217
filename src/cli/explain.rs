//! `reversi explain`.

use std::io::{self, Write};

use reversi_record::codes::{Code, CODES};

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
        let width = CODES
            .iter()
            .map(|(_, name, _)| name.len())
            .max()
            .unwrap_or(0);
        for (_, name, text) in CODES {
            let first = text
                .lines()
                .next()
                .unwrap_or(text)
                .split(". ")
                .next()
                .unwrap_or(text);
            writeln!(out, "{name:<width$} {}", first.trim_end_matches('.'))?;
        }
        return Ok(exit::OK);
    };
    match Code::from_name(&code) {
        Some(code) => {
            writeln!(out, "{}\n\n{}", code.name(), code.explanation())?;
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
