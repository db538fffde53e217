//! The pairings a director made: a CSV of `round,board,black,white`, the schedule the
//! games of a run are checked against (`reversi validate --pairings FILE`).

use std::fmt;

/// One game of the schedule: who plays whom with which colour, in which round and on
/// which board.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Scheduled {
    /// The line of the file it was read from (from 1).
    pub line: usize,
    /// The round.
    pub round: String,
    /// The board, when given.
    pub board: Option<String>,
    /// The player with Black.
    pub black: String,
    /// The player with White.
    pub white: String,
}

impl fmt::Display for Scheduled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "round {}", self.round)?;
        if let Some(board) = &self.board {
            write!(f, ", board {board}")?;
        }
        write!(f, ": {} (black) vs {} (white)", self.black, self.white)
    }
}

/// A schedule of pairings.
///
/// ```
/// use reversi_record::event::Schedule;
/// let pairings = Schedule::parse("round,board,black,white\n1,1,Ann,Bob\n1,2,\"Cy, Jr.\",Di\n").unwrap();
/// assert_eq!(pairings.pairings().len(), 2);
/// assert_eq!(pairings.pairings()[1].black, "Cy, Jr.");
/// assert!(Schedule::parse("1,1,Ann\n").unwrap_err().to_string().contains("line 1"));
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<Scheduled>,
}

/// Why a pairings file cannot be read: the line, and what is wrong with it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScheduleError {
    /// The line (from 1).
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl fmt::Display for ScheduleError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for ScheduleError {}

impl Schedule {
    /// The pairings, in file order.
    pub fn pairings(&self) -> &[Scheduled] {
        &self.pairings
    }

    /// Reads `round,board,black,white` lines (comma, semicolon or tab separated, fields
    /// optionally in double quotes); a first line naming the columns is skipped, as are
    /// empty lines and lines starting with `#`. The board may be empty.
    pub fn parse(text: &str) -> Result<Schedule, ScheduleError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut pairings = Vec::new();
        for (k, line) in text.lines().enumerate() {
            let line_no = k + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || trimmed.starts_with('#') {
                continue;
            }
            let fields = split_fields(trimmed).map_err(|message| ScheduleError {
                line: line_no,
                message,
            })?;
            if pairings.is_empty() && is_header(&fields) {
                continue;
            }
            let [round, board, black, white] = match <[String; 4]>::try_from(fields) {
                Ok(fields) => fields,
                Err(fields) => {
                    return Err(ScheduleError {
                        line: line_no,
                        message: format!(
                            "{} fields where round,board,black,white are 4",
                            fields.len()
                        ),
                    })
                }
            };
            let missing = |what: &str| ScheduleError {
                line: line_no,
                message: format!("no {what}"),
            };
            if round.is_empty() {
                return Err(missing("round"));
            }
            if black.is_empty() {
                return Err(missing("black player"));
            }
            if white.is_empty() {
                return Err(missing("white player"));
            }
            pairings.push(Scheduled {
                line: line_no,
                round,
                board: (!board.is_empty()).then_some(board),
                black,
                white,
            });
        }
        Ok(Schedule { pairings })
    }
}

/// Whether a first line names the columns.
fn is_header(fields: &[String]) -> bool {
    fields
        .first()
        .is_some_and(|f| f.eq_ignore_ascii_case("round") || f.eq_ignore_ascii_case("rd"))
}

/// The fields of one line, separated by `,`, `;` or tabs (the first of them the line
/// holds outside quotes), each trimmed, `"..."` unquoted (`""` is a quote).
fn split_fields(line: &str) -> Result<Vec<String>, String> {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_quotes_and_empty_boards() {
        let p = Schedule::parse("# rounds\n1;;Ann;Bob\n2\t3\t\"A \"\"B\"\"\"\tC\n").unwrap();
        assert_eq!(p.pairings()[0].board, None);
        assert_eq!(p.pairings()[0].line, 2);
        assert_eq!(p.pairings()[1].black, "A \"B\"");
        assert_eq!(
            p.pairings()[1].to_string(),
            "round 2, board 3: A \"B\" (black) vs C (white)"
        );
    }

    #[test]
    fn bad_lines_are_named() {
        assert_eq!(
            Schedule::parse("1,1,,Bob").unwrap_err().message,
            "no black player"
        );
        assert_eq!(Schedule::parse("\n\n1,1,\"Ann,Bob").unwrap_err().line, 3);
    }
}
