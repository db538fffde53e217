//! `reversi explain`.

use std::io::{self, Write};

use reversi_formats::codes::{Code, CODES};

use super::{exit, output};

/// Explain a diagnostic code, or list them all.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The code, such as `illegal-move`; leave out to list every code.
    code: Option<String>,
}

/// Prints the explanation (or the list); a closed standard output ends it quietly.
pub(crate) fn run(args: Args) -> io::Result<u8> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    let (result, status) = print(&mut out, args);
    output::finish_stdout(result.and_then(|()| out.flush()), status)
}

fn print(out: &mut impl Write, args: Args) -> (io::Result<()>, u8) {
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
            if let Err(e) = writeln!(out, "{name:<width$} {}", first.trim_end_matches('.')) {
                return (Err(e), exit::OK);
            }
        }
        return (Ok(()), exit::OK);
    };
    match Code::from_name(&code) {
        Some(code) => (
            writeln!(out, "{}\n\n{}", code.name(), code.explanation()),
            exit::OK,
        ),
        None => {
            let hint = super::parse_code(&code).err().unwrap_or_default();
            super::stderr_line(format_args!("error: {hint}"));
            (Ok(()), exit::USAGE)
        }
    }
}
