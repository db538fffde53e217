//! The counts of a [`Stats`](super::Stats), sorted, and their text, JSON and CSV.

use super::svg::{heatmap, histogram_svg};
use super::*;

/// Games of a year (`None`: no year).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct YearCount {
    /// The year.
    pub year: Option<i32>,
    /// Games.
    pub games: u64,
}

/// Games of an event (`None`: no `Event` tag).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EventCount {
    /// The event's name.
    pub event: Option<String>,
    /// Games.
    pub games: u64,
}

/// A player's games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct PlayerCount {
    /// The name, as the records write it.
    pub player: String,
    /// Games played, in any colour.
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
    /// Two-player games as Black.
    pub black: SideCount,
    /// Two-player games as White.
    pub white: SideCount,
}

/// Games of a result.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ResultCount {
    /// The result.
    pub result: ResultKind,
    /// Games.
    pub games: u64,
}

/// Games with a disc margin.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct MarginCount {
    /// Black's discs minus White's.
    pub margin: i32,
    /// Games.
    pub games: u64,
}

/// Games of an opening.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct OpeningCount {
    /// The rules the games were played under.
    pub rules: String,
    /// The first moves, normalised (`f5 d6 c3 d3 c4 f4`; `pass` for a pass).
    pub opening: String,
    /// Games.
    pub games: u64,
}

/// Games of a length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LengthCount {
    /// Placements (passes not counted).
    pub placements: u32,
    /// Games.
    pub games: u64,
}

/// Games under some rules.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct RulesCount {
    /// The canonical rules string.
    pub rules: String,
    /// Games.
    pub games: u64,
}

/// The placements on each square of a board, over its games.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct BoardSquares {
    /// The board's name (`8x8`).
    pub board: String,
    /// The board.
    #[serde(skip)]
    pub shape: BoardShape,
    /// Games on this board.
    pub games: u64,
    /// Every square of the board, row by row.
    pub squares: Vec<SquareCount>,
}

impl BoardSquares {
    /// The most placements on one square.
    pub fn most(&self) -> u64 {
        self.squares.iter().map(|s| s.placements).max().unwrap_or(0)
    }
}

/// Placements on a square.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct SquareCount {
    /// The square.
    pub square: Square,
    /// Placements on it.
    pub placements: u64,
}

/// One table of a report, for [`StatsReport::to_csv`] and the `--section` of `reversi
/// stats`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Section {
    /// Games per year.
    Year,
    /// Games per event.
    Event,
    /// Games, wins, draws and losses per player.
    Player,
    /// Games per result.
    Result,
    /// Games per disc margin.
    Margin,
    /// Games per opening.
    Opening,
    /// Games per length.
    Length,
    /// Games per rules.
    Rules,
    /// Placements per square.
    Squares,
}

impl Section {
    /// Every section, in the order of the text report.
    pub const ALL: [Section; 9] = [
        Section::Year,
        Section::Event,
        Section::Player,
        Section::Result,
        Section::Margin,
        Section::Opening,
        Section::Length,
        Section::Rules,
        Section::Squares,
    ];

    /// The name on the command line (`year`, `squares`).
    pub const fn name(self) -> &'static str {
        match self {
            Section::Year => "year",
            Section::Event => "event",
            Section::Player => "player",
            Section::Result => "result",
            Section::Margin => "margin",
            Section::Opening => "opening",
            Section::Length => "length",
            Section::Rules => "rules",
            Section::Squares => "squares",
        }
    }

    /// Whether [`StatsReport::svg`] draws this section.
    pub const fn has_svg(self) -> bool {
        matches!(
            self,
            Section::Squares | Section::Length | Section::Margin | Section::Year
        )
    }
}

impl fmt::Display for Section {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A section name that is not one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseSectionError(String);

impl fmt::Display for ParseSectionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let names: Vec<&str> = Section::ALL.iter().map(|s| s.name()).collect();
        write!(
            f,
            "expected a section ({}), but found `{}` instead",
            names.join(", "),
            self.0
        )
    }
}

impl std::error::Error for ParseSectionError {}

impl FromStr for Section {
    type Err = ParseSectionError;
    fn from_str(s: &str) -> Result<Section, ParseSectionError> {
        Section::ALL
            .into_iter()
            .find(|sec| s.trim().eq_ignore_ascii_case(sec.name()))
            .ok_or_else(|| ParseSectionError(s.to_owned()))
    }
}

/// The counts of a [`Stats`], sorted:
///
/// * years in order, no year last; lengths, margins in order;
/// * events, players, openings and rules most games first, then by name (no event last);
/// * results in [`ResultKind::ALL`]'s order, every kind present;
/// * boards most games first, each with every square row by row.
///
/// JSON ([`StatsReport::to_json`]) and CSV ([`StatsReport::to_csv`]) hold every row;
/// the text ([`StatsReport::to_text`]) the [`top`](StatsReport::top) rows of each table.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StatsReport {
    /// Games counted (the unreadable ones apart): each table's games sum to this.
    pub games: u64,
    /// Games that could not be read.
    pub unreadable: u64,
    /// Moves an opening is counted over.
    pub opening_moves: usize,
    /// Rows of each table the text shows (0: every row); [`DEFAULT_TOP`] unless set.
    #[serde(skip)]
    pub top: usize,
    /// Games per year.
    pub years: Vec<YearCount>,
    /// Games per event.
    pub events: Vec<EventCount>,
    /// Games per player.
    pub players: Vec<PlayerCount>,
    /// Games per result.
    pub results: Vec<ResultCount>,
    /// Games per disc margin (two-player games that claim one).
    pub margins: Vec<MarginCount>,
    /// Games per opening.
    pub openings: Vec<OpeningCount>,
    /// Games per length.
    pub lengths: Vec<LengthCount>,
    /// Games per rules.
    pub rules: Vec<RulesCount>,
    /// Placements per square, per board.
    pub squares: Vec<BoardSquares>,
}

/// A CSV field, quoted when it must be.
pub(super) fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// An aligned table: a header line, then the rows; `right` says which columns are
/// numbers, aligned right. Two spaces before each line and between columns.
pub(super) fn table(out: &mut String, header: &[&str], right: &[bool], rows: &[Vec<String>]) {
    let mut widths: Vec<usize> = header.iter().map(|h| h.chars().count()).collect();
    for row in rows {
        for (w, cell) in widths.iter_mut().zip(row) {
            *w = (*w).max(cell.chars().count());
        }
    }
    let line = |out: &mut String, cells: &mut dyn Iterator<Item = &str>| {
        let mut text = String::from(" ");
        for (i, cell) in cells.enumerate() {
            let width = widths.get(i).copied().unwrap_or(0);
            let pad = width.saturating_sub(cell.chars().count());
            text.push(' ');
            if right.get(i).copied().unwrap_or(false) {
                text.push_str(&" ".repeat(pad));
                text.push_str(cell);
            } else {
                text.push_str(cell);
                text.push_str(&" ".repeat(pad));
            }
            text.push(' ');
        }
        out.push_str(text.trim_end());
        out.push('\n');
    };
    line(out, &mut header.iter().copied());
    for row in rows {
        line(out, &mut row.iter().map(String::as_str));
    }
}

/// `n` of `total`, as a percentage with one decimal.
pub(super) fn share(n: u64, total: u64) -> String {
    if total == 0 {
        return "-".to_owned();
    }
    format!("{:.1}%", n as f64 * 100.0 / total as f64)
}

/// The rows of a table sorted by count that the text shows, and the rest: how many rows
/// and games.
pub(super) fn top_rows<T>(rows: &[T], top: usize, games: impl Fn(&T) -> u64) -> (&[T], usize, u64) {
    if top == 0 || rows.len() <= top {
        return (rows, 0, 0);
    }
    let rest = &rows[top..];
    (&rows[..top], rest.len(), rest.iter().map(games).sum())
}

/// The `top` most played of rows kept in their order (years, lengths, margins): their
/// positions, and the rest as in [`top_rows`].
pub(super) fn top_in_order<T>(
    rows: &[T],
    top: usize,
    games: impl Fn(&T) -> u64,
) -> (Vec<usize>, usize, u64) {
    if top == 0 || rows.len() <= top {
        return ((0..rows.len()).collect(), 0, 0);
    }
    let mut by_games: Vec<usize> = (0..rows.len()).collect();
    by_games.sort_by(|&a, &b| games(&rows[b]).cmp(&games(&rows[a])).then(a.cmp(&b)));
    let mut kept = by_games[..top].to_vec();
    kept.sort_unstable();
    let rest = &by_games[top..];
    (
        kept,
        rest.len(),
        rest.iter().map(|&i| games(&rows[i])).sum(),
    )
}

pub(super) fn and_more(out: &mut String, rows: usize, what: &str, games: u64) {
    if rows > 0 {
        let _ = writeln!(
            out,
            "  and {rows} more {what} ({games} {})",
            if games == 1 { "game" } else { "games" }
        );
    }
}

impl StatsReport {
    /// The report as aligned text tables, the [`top`](StatsReport::top) rows of each
    /// (the most played; years, lengths and margins then shown in their order), with
    /// "and N more" for the rest, and a grid of the placements per square of each board.
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// use reversi_formats::{Format, ReadOptions};
    /// let games = Format::MoveString.read_bytes("f5d6\nf5f6\nf5f4\n", &ReadOptions::default())?;
    /// let mut stats = Stats::with_opening_moves(2);
    /// games.iter().for_each(|g| { stats.add_parsed(g); });
    /// let mut report = stats.report();
    /// report.top = 2;
    /// let text = report.to_text();
    /// assert!(text.starts_with("3 games"), "{text}");
    /// assert!(text.contains("  and 1 more opening (1 game)\n"), "{text}");
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn to_text(&self) -> String {
        let mut out = String::new();
        let _ = write!(
            out,
            "{} {}",
            self.games,
            plural(self.games, "game", "games")
        );
        if self.unreadable > 0 {
            let _ = write!(out, " ({} more could not be read)", self.unreadable);
        }
        out.push('\n');
        for section in Section::ALL {
            out.push('\n');
            self.section_text(section, &mut out);
        }
        out
    }

    /// One section of [`StatsReport::to_text`].
    pub fn section_to_text(&self, section: Section) -> String {
        let mut out = String::new();
        self.section_text(section, &mut out);
        out
    }

    fn section_text(&self, section: Section, out: &mut String) {
        let total = self.games;
        let num = |n: u64| n.to_string();
        match section {
            Section::Year => {
                out.push_str("Games by year\n");
                let (kept, more, games) = top_in_order(&self.years, self.top, |y| y.games);
                let rows: Vec<Vec<String>> = kept
                    .iter()
                    .map(|&i| &self.years[i])
                    .map(|y| {
                        let year = y
                            .year
                            .map_or_else(|| "(no year)".to_owned(), |y| y.to_string());
                        vec![year, num(y.games), share(y.games, total)]
                    })
                    .collect();
                table(
                    out,
                    &["year", "games", "share"],
                    &[false, true, true],
                    &rows,
                );
                and_more(out, more, "years", games);
            }
            Section::Event => {
                out.push_str("Games by event\n");
                let (shown, more, games) = top_rows(&self.events, self.top, |e| e.games);
                let rows: Vec<Vec<String>> = shown
                    .iter()
                    .map(|e| {
                        let name = e.event.clone().unwrap_or_else(|| "(no event)".to_owned());
                        vec![name, num(e.games), share(e.games, total)]
                    })
                    .collect();
                table(
                    out,
                    &["event", "games", "share"],
                    &[false, true, true],
                    &rows,
                );
                and_more(out, more, plural(more as u64, "event", "events"), games);
            }
            Section::Player => {
                out.push_str("Games by player (wins-draws-losses)\n");
                let (shown, more, games) = top_rows(&self.players, self.top, |p| p.games);
                let rows: Vec<Vec<String>> = shown
                    .iter()
                    .map(|p| {
                        vec![
                            p.player.clone(),
                            num(p.games),
                            num(p.wins),
                            num(p.draws),
                            num(p.losses),
                            format!("{} ({})", p.black.games, p.black.wdl()),
                            format!("{} ({})", p.white.games, p.white.wdl()),
                        ]
                    })
                    .collect();
                table(
                    out,
                    &[
                        "player", "games", "won", "drawn", "lost", "as Black", "as White",
                    ],
                    &[false, true, true, true, true, true, true],
                    &rows,
                );
                // A game counts for both its players: the rest's games are player-games.
                and_more(out, more, plural(more as u64, "player", "players"), games);
            }
            Section::Result => {
                out.push_str("Games by claimed result\n");
                let rows: Vec<Vec<String>> = self
                    .results
                    .iter()
                    .filter(|r| {
                        r.games > 0 || !matches!(r.result, ResultKind::Red | ResultKind::Green)
                    })
                    .map(|r| {
                        vec![
                            r.result.phrase().to_owned(),
                            num(r.games),
                            share(r.games, total),
                        ]
                    })
                    .collect();
                table(
                    out,
                    &["result", "games", "share"],
                    &[false, true, true],
                    &rows,
                );
            }
            Section::Margin => {
                out.push_str("Games by disc margin (Black minus White, as claimed)\n");
                let (kept, more, games) = top_in_order(&self.margins, self.top, |m| m.games);
                let counted: u64 = self.margins.iter().map(|m| m.games).sum();
                let rows: Vec<Vec<String>> = kept
                    .iter()
                    .map(|&i| &self.margins[i])
                    .map(|m| {
                        vec![
                            format!("{:+}", m.margin),
                            num(m.games),
                            share(m.games, counted),
                        ]
                    })
                    .collect();
                table(
                    out,
                    &["margin", "games", "share"],
                    &[true, true, true],
                    &rows,
                );
                and_more(out, more, "margins", games);
            }
            Section::Opening => {
                let _ = writeln!(
                    out,
                    "Games by opening (the first {} {}, symmetric openings counted as one)",
                    self.opening_moves,
                    plural(self.opening_moves as u64, "move", "moves")
                );
                let (shown, more, games) = top_rows(&self.openings, self.top, |o| o.games);
                let several_rules = self.rules.len() > 1;
                let rows: Vec<Vec<String>> = shown
                    .iter()
                    .map(|o| {
                        let moves = if o.opening.is_empty() {
                            "(no moves)".to_owned()
                        } else {
                            o.opening.clone()
                        };
                        let mut row = vec![num(o.games), share(o.games, total)];
                        if several_rules {
                            row.push(o.rules.clone());
                        }
                        row.push(moves);
                        row
                    })
                    .collect();
                if several_rules {
                    table(
                        out,
                        &["games", "share", "rules", "opening"],
                        &[true, true, false, false],
                        &rows,
                    );
                } else {
                    table(
                        out,
                        &["games", "share", "opening"],
                        &[true, true, false],
                        &rows,
                    );
                }
                and_more(out, more, plural(more as u64, "opening", "openings"), games);
            }
            Section::Length => {
                out.push_str("Games by length (placements)\n");
                let (kept, more, games) = top_in_order(&self.lengths, self.top, |l| l.games);
                let most = self.lengths.iter().map(|l| l.games).max().unwrap_or(0);
                let rows: Vec<Vec<String>> = kept
                    .iter()
                    .map(|&i| &self.lengths[i])
                    .map(|l| {
                        let bar = (l.games * 30).div_ceil(most.max(1)) as usize;
                        vec![
                            num(l.placements as u64),
                            num(l.games),
                            share(l.games, total),
                            "#".repeat(bar),
                        ]
                    })
                    .collect();
                table(
                    out,
                    &["length", "games", "share", ""],
                    &[true, true, true, false],
                    &rows,
                );
                and_more(out, more, "lengths", games);
            }
            Section::Rules => {
                out.push_str("Games by rules\n");
                let (shown, more, games) = top_rows(&self.rules, self.top, |r| r.games);
                let rows: Vec<Vec<String>> = shown
                    .iter()
                    .map(|r| vec![r.rules.clone(), num(r.games), share(r.games, total)])
                    .collect();
                table(
                    out,
                    &["rules", "games", "share"],
                    &[false, true, true],
                    &rows,
                );
                and_more(out, more, "rules", games);
            }
            Section::Squares => {
                for (i, board) in self.squares.iter().enumerate() {
                    if i > 0 {
                        out.push('\n');
                    }
                    let _ = writeln!(
                        out,
                        "Placements per square, {} ({} {})",
                        board.board,
                        board.games,
                        plural(board.games, "game", "games")
                    );
                    let n = board.shape.side();
                    let mut header: Vec<String> = vec![String::new()];
                    header.extend((0..n).map(|c| ((b'a' + c) as char).to_string()));
                    let rows: Vec<Vec<String>> = (0..n)
                        .map(|r| {
                            let mut row = vec![(r + 1).to_string()];
                            row.extend((0..n).map(|c| {
                                board
                                    .squares
                                    .iter()
                                    .find(|s| s.square.col() == c && s.square.row() == r)
                                    .map_or_else(|| "-".to_owned(), |s| s.placements.to_string())
                            }));
                            row
                        })
                        .collect();
                    let header: Vec<&str> = header.iter().map(String::as_str).collect();
                    table(out, &header, &vec![true; header.len()], &rows);
                }
                if self.squares.is_empty() {
                    out.push_str("Placements per square: no games\n");
                }
            }
        }
    }

    /// The whole report as pretty JSON, every row of every table (the field names of
    /// these types; `year`, `event` `null` for none; squares by name).
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// let json: serde_json::Value = serde_json::from_str(&Stats::new().report().to_json()).unwrap();
    /// assert_eq!(json["games"], 0);
    /// assert_eq!(json["results"][4]["result"], "draw");
    /// ```
    pub fn to_json(&self) -> String {
        let mut text = serde_json::to_string_pretty(self).unwrap_or_else(|e| {
            // Unreachable: every field serialises.
            format!("{{\"error\": {:?}}}", e.to_string())
        });
        text.push('\n');
        text
    }

    /// One section as CSV, a header line then every row: `year,games` (an empty year for
    /// none), `event,games`, `player,games,wins,draws,losses,black_games,black_wins,
    /// black_draws,black_losses,white_games,...`, `result,games`, `margin,games`,
    /// `rules,opening,games`, `placements,games`, `rules,games`, `board,square,placements`.
    /// The games of the year, event, result, opening, length and rules sections sum to
    /// [`StatsReport::games`].
    ///
    /// ```
    /// use reversi_runs::archive::stats::{Section, Stats};
    /// let csv = Stats::new().report().to_csv(Section::Result);
    /// assert_eq!(csv.lines().next(), Some("result,games"));
    /// assert_eq!(csv.lines().count(), 8);
    /// ```
    pub fn to_csv(&self, section: Section) -> String {
        let mut out = String::new();
        match section {
            Section::Year => {
                out.push_str("year,games\n");
                for y in &self.years {
                    let year = y.year.map(|y| y.to_string()).unwrap_or_default();
                    let _ = writeln!(out, "{year},{}", y.games);
                }
            }
            Section::Event => {
                out.push_str("event,games\n");
                for e in &self.events {
                    let event = e.event.as_deref().map(csv_field).unwrap_or_default();
                    let _ = writeln!(out, "{event},{}", e.games);
                }
            }
            Section::Player => {
                out.push_str("player,games,wins,draws,losses,black_games,black_wins,black_draws,black_losses,white_games,white_wins,white_draws,white_losses\n");
                for p in &self.players {
                    let (b, w) = (&p.black, &p.white);
                    let _ = writeln!(
                        out,
                        "{},{},{},{},{},{},{},{},{},{},{},{},{}",
                        csv_field(&p.player),
                        p.games,
                        p.wins,
                        p.draws,
                        p.losses,
                        b.games,
                        b.wins,
                        b.draws,
                        b.losses,
                        w.games,
                        w.wins,
                        w.draws,
                        w.losses
                    );
                }
            }
            Section::Result => {
                out.push_str("result,games\n");
                for r in &self.results {
                    let _ = writeln!(out, "{},{}", r.result.name(), r.games);
                }
            }
            Section::Margin => {
                out.push_str("margin,games\n");
                for m in &self.margins {
                    let _ = writeln!(out, "{},{}", m.margin, m.games);
                }
            }
            Section::Opening => {
                out.push_str("rules,opening,games\n");
                for o in &self.openings {
                    let _ = writeln!(
                        out,
                        "{},{},{}",
                        csv_field(&o.rules),
                        csv_field(&o.opening),
                        o.games
                    );
                }
            }
            Section::Length => {
                out.push_str("placements,games\n");
                for l in &self.lengths {
                    let _ = writeln!(out, "{},{}", l.placements, l.games);
                }
            }
            Section::Rules => {
                out.push_str("rules,games\n");
                for r in &self.rules {
                    let _ = writeln!(out, "{},{}", csv_field(&r.rules), r.games);
                }
            }
            Section::Squares => {
                out.push_str("board,square,placements\n");
                for board in &self.squares {
                    for s in &board.squares {
                        let _ = writeln!(out, "{},{},{}", board.board, s.square, s.placements);
                    }
                }
            }
        }
        out
    }

    /// A section as a standalone SVG picture: the heat map of the squares
    /// ([`StatsReport::heatmap_svg`]), or a histogram of the lengths, margins or years;
    /// `None` for a section without a picture ([`Section::has_svg`]).
    pub fn svg(&self, section: Section) -> Option<String> {
        match section {
            Section::Squares => Some(self.heatmap_svg()),
            Section::Length => Some(self.length_svg()),
            Section::Margin => Some(histogram_svg(
                "Games by disc margin (Black minus White, as claimed)",
                "margin",
                &self
                    .margins
                    .iter()
                    .map(|m| (m.margin as i64, m.games))
                    .collect::<Vec<_>>(),
            )),
            Section::Year => Some(histogram_svg(
                "Games by year",
                "year",
                &self
                    .years
                    .iter()
                    .filter_map(|y| Some((y.year? as i64, y.games)))
                    .collect::<Vec<_>>(),
            )),
            _ => None,
        }
    }

    /// The heat map of the board of the most games ([`StatsReport::heatmap_svg_of`]);
    /// an empty 8x8 board without games.
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// use reversi_formats::{Format, ReadOptions};
    /// let games = Format::MoveString.read_bytes("f5d6c3\nf5f6\n", &ReadOptions::default())?;
    /// let mut stats = Stats::new();
    /// games.iter().for_each(|g| { stats.add_parsed(g); });
    /// let svg = stats.report().heatmap_svg();
    /// assert!(svg.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\""));
    /// assert!(svg.contains(r#"data-square="f5" data-placements="2""#));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn heatmap_svg(&self) -> String {
        match self.squares.first() {
            Some(board) => heatmap(board),
            None => heatmap(&board_squares(BoardShape::Eight, 0, &[0; GRID])),
        }
    }

    /// The heat map of `board`, if any game was played on it: a standalone SVG of the
    /// board, each square shaded by its placements, linearly from the palest blue for the
    /// least played square to the darkest for the most played (white for a square never
    /// played, such as the four start squares), with the count written in it, the
    /// coordinates around it and a legend under it, its ends labelled with the counts. Squares are where
    /// [`square_centre`](crate::render::square_centre) says, as in `reversi show`'s
    /// diagrams; each square's `rect` has `class="square"`, `data-square` and
    /// `data-placements`.
    pub fn heatmap_svg_of(&self, board: BoardShape) -> Option<String> {
        self.squares.iter().find(|b| b.shape == board).map(heatmap)
    }

    /// The histogram of the game lengths, as a standalone SVG: a bar per number of
    /// placements from the shortest game to the longest, its height in proportion to the
    /// games; each bar's `rect` has `class="bar"`, `data-value` and `data-games`.
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// use reversi_formats::{Format, ReadOptions};
    /// let games = Format::MoveString.read_bytes("f5d6c3\nf5f6\nf5f4\n", &ReadOptions::default())?;
    /// let mut stats = Stats::new();
    /// games.iter().for_each(|g| { stats.add_parsed(g); });
    /// let svg = stats.report().length_svg();
    /// assert!(svg.contains(r#"data-value="2" data-games="2""#));
    /// assert!(svg.contains(r#"data-value="3" data-games="1""#));
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn length_svg(&self) -> String {
        histogram_svg(
            "Games by length (placements)",
            "placements",
            &self
                .lengths
                .iter()
                .map(|l| (l.placements as i64, l.games))
                .collect::<Vec<_>>(),
        )
    }
}

pub(super) fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}
