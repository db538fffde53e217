//! What the director's small CSV sheets (the pairings file, the player register) share:
//! fields split as spreadsheets write them, and one error naming the line.

use std::fmt;
use std::io;
use std::path::Path;

/// Why a sheet (a pairings file, a player register) cannot be read: the line, and what is
/// wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SheetError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for SheetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for SheetError {}

/// Reads the sheet at `path` with `parse`: an error names the file, and says what the
/// sheet is (`what`) and, for content it cannot read, what such a sheet holds (`holds`);
/// that one is `InvalidData`.
pub(super) fn read_file<T>(
    path: &Path,
    what: &str,
    holds: &str,
    parse: impl FnOnce(&[u8]) -> Result<T, SheetError>,
) -> io::Result<T> {
    let shown = path.display();
    let bytes = std::fs::read(path)
        .map_err(|e| io::Error::new(e.kind(), format!("{shown}: cannot read the {what}: {e}")))?;
    parse(&bytes).map_err(|e| {
        io::Error::new(
            io::ErrorKind::InvalidData,
            format!("{shown}: {e} ({holds})"),
        )
    })
}

/// The fields of one line, separated by `,`, `;` or tabs (the first of them the line
/// holds outside quotes), each trimmed, `"..."` unquoted (`""` is a quote).
pub(crate) fn split_fields(line: &str) -> Result<Vec<String>, String> {
    let separator = [',', ';', '\t']
        .into_iter()
        .find(|&c| outside_quotes(line).any(|x| x == c))
        .unwrap_or(',');
    let mut fields = Vec::new();
    let mut field = String::new();
    let mut chars = line.chars().peekable();
    let mut quoted = false;
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                field.push('"');
                chars.next();
            }
            '"' if quoted => quoted = false,
            '"' if field.trim().is_empty() => {
                field.clear();
                quoted = true;
            }
            c if c == separator && !quoted => {
                fields.push(field.trim().to_owned());
                field.clear();
            }
            c => field.push(c),
        }
    }
    if quoted {
        return Err("a quoted field is never closed".into());
    }
    fields.push(field.trim().to_owned());
    Ok(fields)
}

/// The characters of `line` outside double quotes.
fn outside_quotes(line: &str) -> impl Iterator<Item = char> + '_ {
    let mut quoted = false;
    line.chars().filter(move |&c| {
        if c == '"' {
            quoted = !quoted;
        }
        !quoted && c != '"'
    })
}
