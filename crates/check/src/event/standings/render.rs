//! The standings for people and programs: text, JSON, CSV and a standalone HTML page, the
//! crosstable included.

use super::*;

impl Standings {
    /// The standings as an aligned text table, the crosstable on the right, with a legend.
    ///
    /// ```
    /// use reversi_check::event::standings::{GameResult, Pairing, Standings};
    /// let pairings = [Pairing::game("1", "Ann", "Bob", GameResult::Discs { black: 40, white: 24 })];
    /// let text = Standings::compute(&pairings, &Default::default())?.to_text();
    /// let mut lines = text.lines();
    /// assert_eq!(lines.next(), Some("# Rank Player Points BQ Discs Games W D L Byes B/W Round 1"));
    /// assert_eq!(lines.next(), Some("1 1    Ann         1 40    40     1 1 0 0    0 1/0 2B 40-24"));
    /// assert_eq!(lines.next(), Some("2 2    Bob         0 30    24     1 0 0 1    0 0/1 1W 24-40"));
    /// # Ok::<(), reversi_check::event::standings::StandingsError>(())
    /// ```
    pub fn to_text(&self) -> String {
        let rows = self.table();
        let columns = rows.first().map_or(0, Vec::len);
        let widths: Vec<usize> = (0..columns)
            .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
            .collect();
        let mut out = String::new();
        if let Some(event) = &self.event {
            let _ = writeln!(out, "{}\n", one_line(event));
        }
        for row in &rows {
            let mut line = String::new();
            for (c, field) in row.iter().enumerate() {
                if c > 0 {
                    line.push(' ');
                }
                let pad = widths[c].saturating_sub(field.chars().count());
                if right_aligned(c) {
                    line.extend(std::iter::repeat(' ').take(pad));
                    line.push_str(&one_line(field));
                } else {
                    line.push_str(&one_line(field));
                    line.extend(std::iter::repeat(' ').take(pad));
                }
            }
            out.push_str(line.trim_end());
            out.push('\n');
        }
        out.push('\n');
        for note in self.notes() {
            out.push_str(&textwrap::fill(&note, 88));
            out.push('\n');
        }
        out
    }

    /// The standings as pretty JSON: the event, the rounds, each player's line with its
    /// crosstable cells, and the games without a result.
    ///
    /// ```
    /// use reversi_check::event::standings::{GameResult, Pairing, Standings};
    /// let pairings = [Pairing::game("1", "Ann", "Bob", GameResult::Winner(None))];
    /// let json = Standings::compute(&pairings, &Default::default())?.to_json();
    /// let value: serde_json::Value = serde_json::from_str(&json).unwrap();
    /// assert_eq!(value["players"][0]["points"], 0.5);
    /// assert_eq!(value["players"][0]["rounds"][0]["known"], "winner_only");
    /// # Ok::<(), reversi_check::event::standings::StandingsError>(())
    /// ```
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serializing it cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The standings as CSV (quoted as RFC 4180 says), one row per player, the crosstable cells in
    /// the round columns. A name a spreadsheet would take for a formula (one that starts
    /// with `=`, `+`, `-` or `@`) is written after a `'`, so that opening the file runs
    /// nothing a record put there.
    ///
    /// ```
    /// use reversi_check::event::standings::{GameResult, Pairing, Standings};
    /// let pairings = [Pairing::game("1", "Ann, Jr", "Bob", GameResult::Forfeit { winner: reversi_check::event::standings::Side::White })];
    /// let csv = Standings::compute(&pairings, &Default::default())?.to_csv();
    /// let mut lines = csv.lines();
    /// assert_eq!(lines.next(), Some("number,rank,player,points,bq,discs,games,wins,draws,losses,byes,black,white,withdrawn,round 1"));
    /// assert_eq!(lines.next(), Some("1,1,Bob,1,33,33,1,1,0,0,0,0,1,no,2W win ff"));
    /// assert_eq!(lines.next(), Some("2,2,\"Ann, Jr\",0,37,31,1,0,0,1,0,1,0,no,1B loss ff"));
    ///
    /// let pairings = [Pairing::game("1", "=HYPERLINK(\"x\")", "Bob", GameResult::Winner(None))];
    /// let csv = Standings::compute(&pairings, &Default::default())?.to_csv();
    /// assert!(csv.contains(",\"'=HYPERLINK(\"\"x\"\")\","));
    /// # Ok::<(), reversi_check::event::standings::StandingsError>(())
    /// ```
    pub fn to_csv(&self) -> String {
        let mut out = String::new();
        self.write_csv(&mut out, None);
        out
    }

    /// The CSV table into `out`; with `event`, an `event` column first holding it (for a
    /// file of several events' tables).
    pub(crate) fn write_csv(&self, out: &mut String, event: Option<&str>) {
        let header = [
            "number",
            "rank",
            "player",
            "points",
            "bq",
            "discs",
            "games",
            "wins",
            "draws",
            "losses",
            "byes",
            "black",
            "white",
            "withdrawn",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain(self.rounds.iter().map(|r| format!("round {r}")));
        let lead = |first: &str| event.map(|_| first.to_owned()).into_iter();
        push_csv_row(out, lead("event").chain(header));
        for p in &self.players {
            let fields = [
                p.number.to_string(),
                p.rank.to_string(),
                inert_in_spreadsheets(&p.name),
                p.points.to_string(),
                p.bq.to_string(),
                p.discs.to_string(),
                p.games.to_string(),
                p.wins.to_string(),
                p.draws.to_string(),
                p.losses.to_string(),
                p.byes.to_string(),
                p.black.to_string(),
                p.white.to_string(),
                if p.withdrawn { "yes" } else { "no" }.to_owned(),
            ]
            .into_iter()
            .chain(cell_texts(p));
            let event = event.map(inert_in_spreadsheets).into_iter();
            push_csv_row(out, event.chain(fields));
        }
    }

    /// The standings as a complete standalone HTML page (no scripts, no outside resources),
    /// every name escaped.
    ///
    /// ```
    /// use reversi_check::event::standings::{GameResult, Pairing, Standings};
    /// let pairings = [Pairing::game("1", "<script>", "Bob", GameResult::Discs { black: 40, white: 24 })];
    /// let html = Standings::compute(&pairings, &Default::default())?.to_html();
    /// assert!(html.starts_with("<!DOCTYPE html>"));
    /// assert!(html.contains("<td>&lt;script&gt;</td>"));
    /// assert!(!html.contains("<script>"));
    /// # Ok::<(), reversi_check::event::standings::StandingsError>(())
    /// ```
    pub fn to_html(&self) -> String {
        let title = self.event.as_deref().unwrap_or("Standings");
        let mut out = html_page_head(title);
        let _ = writeln!(out, "<h1>{}</h1>", escape_markup(title));
        self.write_html_table(&mut out);
        out.push_str(HTML_END);
        out
    }

    /// The table and its notes, as HTML, into `out`.
    pub(crate) fn write_html_table(&self, out: &mut String) {
        out.push_str("<table>\n");
        for (i, row) in self.table().iter().enumerate() {
            out.push_str("<tr>");
            for (c, field) in row.iter().enumerate() {
                let tag = if i == 0 { "th" } else { "td" };
                let class = if right_aligned(c) { " class=\"n\"" } else { "" };
                let _ = write!(out, "<{tag}{class}>{}</{tag}>", escape_markup(field));
            }
            out.push_str("</tr>\n");
        }
        out.push_str("</table>\n");
        for note in self.notes() {
            let _ = writeln!(out, "<p>{}</p>", escape_markup(&note));
        }
    }

    /// The header and one row per player, as the text and HTML tables show them.
    fn table(&self) -> Vec<Vec<String>> {
        let header = [
            "#", "Rank", "Player", "Points", "BQ", "Discs", "Games", "W", "D", "L", "Byes", "B/W",
        ]
        .map(str::to_owned)
        .into_iter()
        .chain(self.rounds.iter().map(|r| format!("Round {r}")))
        .collect();
        let mut rows = vec![header];
        for p in &self.players {
            let row = [
                p.number.to_string(),
                format!("{}{}", p.rank, if p.shared { "=" } else { "" }),
                format!(
                    "{}{}",
                    p.name,
                    if p.withdrawn { " (withdrawn)" } else { "" }
                ),
                p.points.to_string(),
                p.bq.to_string(),
                p.discs.to_string(),
                p.games.to_string(),
                p.wins.to_string(),
                p.draws.to_string(),
                p.losses.to_string(),
                p.byes.to_string(),
                format!("{}/{}", p.black, p.white),
            ]
            .into_iter()
            .chain(cell_texts(p))
            .collect();
            rows.push(row);
        }
        rows
    }

    /// The legend, and what keeps the standings provisional: paragraphs.
    fn notes(&self) -> Vec<String> {
        let mut notes = vec![
            "Ranked by points (a win or a bye 1, a draw 1/2), then BQ, then discs.".to_owned(),
            "Cells: the opponent's number and the player's colour (B/W), then the player's \
             discs and the opponent's; win/draw/loss: only the result is known; ff: forfeit; \
             ?: no result yet; -: not paired."
                .to_owned(),
        ];
        if !self.unfinished.is_empty() {
            let games: Vec<String> = self
                .unfinished
                .iter()
                .map(PairingSource::to_string)
                .collect();
            notes.push(format!(
                "Provisional: no result yet for {}.",
                games.join("; ")
            ));
        }
        notes
    }
}

fn cell_texts(p: &PlayerStanding) -> impl Iterator<Item = String> + '_ {
    p.rounds.iter().map(|c| {
        c.as_ref()
            .map_or_else(|| "-".to_owned(), CrosstableCell::text)
    })
}

/// The table columns aligned right: the numbers (all but rank, player and the cells).
fn right_aligned(column: usize) -> bool {
    column == 0 || (3..=10).contains(&column)
}

/// `text` on one line: control characters (a newline in a name) shown as spaces.
fn one_line(text: &str) -> String {
    text.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect()
}

/// A player's name as a spreadsheet shows it without evaluating it: after a `'` when it
/// starts with a character that opens a formula. Names are trimmed ([`Pairing::players`]),
/// so none starts with the tab or carriage return some spreadsheets skip before looking.
fn inert_in_spreadsheets(text: &str) -> String {
    if text.starts_with(['=', '+', '-', '@']) {
        format!("'{text}")
    } else {
        text.to_owned()
    }
}

fn push_csv_row(out: &mut String, fields: impl Iterator<Item = String>) {
    for (i, field) in fields.enumerate() {
        if i > 0 {
            out.push(',');
        }
        if field.contains([',', '"', '\n', '\r']) {
            out.push('"');
            out.push_str(&field.replace('"', "\"\""));
            out.push('"');
        } else {
            out.push_str(&field);
        }
    }
    out.push('\n');
}

/// A standalone page's beginning, up to its `<body>`, titled `title`.
pub(crate) fn html_page_head(title: &str) -> String {
    let mut out = String::new();
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n");
    let _ = writeln!(out, "<title>{}</title>", escape_markup(title));
    out.push_str(HTML_STYLE);
    out.push_str("</head>\n<body>\n");
    out
}

/// A standalone page's end.
pub(crate) const HTML_END: &str = "</body>\n</html>\n";

const HTML_STYLE: &str = "<style>
body { font-family: sans-serif; margin: 2em; }
table { border-collapse: collapse; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; white-space: nowrap; }
th { background: #eee; }
td.n { text-align: right; }
</style>
";
