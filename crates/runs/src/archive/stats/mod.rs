//! Counts over an archive: games per year, event, player, result, opening, length and
//! rules, and how often each square is played, for `reversi stats`.
//!
//! A [`Stats`] is fed one game at a time ([`Stats::add`] for a [`Record`],
//! [`Stats::add_parsed`] for what a format's reader gives, [`Stats::add_view`] for a game
//! of the [`GameReader`](crate::pipeline::GameReader)) and keeps counters only, never the
//! games: memory grows with the number of distinct years, events, players and openings,
//! not with the games. Two counts of parts of an archive [`merge`](Stats::merge) into the
//! count of the whole, whatever the order, so threads can count apart. [`Stats::report`]
//! sorts the counters into a [`StatsReport`], which writes them as text, JSON, CSV (one
//! [`Section`] at a time) and SVG (a heat map of the squares, histograms).
//!
//! What is counted, and how:
//!
//! * **Year**: the first four digits of the `Date` tag (`2004`, `2004.06.12`,
//!   `2003.12.15_12:33:18.MST`, `20040612`); a date of nine or more digits alone is
//!   read as Unix seconds, as early GGS games write it (`947375357` is 2000). Anything
//!   else, or no `Date`, counts as no year. WTHOR games carry their file's year in `Date`.
//! * **Event**: the `Event` tag, trimmed; an unknown value (empty, `?`) counts as no event.
//! * **Player**: the `Black` and `White` tags (`Red`, `Green` with 3-4 players), trimmed,
//!   unknown values left out: games, and the wins, draws and losses the claimed results
//!   give, in all and (two-player games) as Black and as White. A game without a decided
//!   result (unfinished, no result) counts in the games only.
//! * **Result**: what the record *claims* (nothing is replayed): an unfinished game (`*`,
//!   GGF `?`), a resignation or loss on time naming the loser, disc counts, a margin or a
//!   winner; the side with more discs wins, fewer under anti rules. A claim without any of
//!   these is "no result". The **margin** histogram counts Black's discs minus White's as
//!   claimed (a fractional margin, with komi, rounded to the nearest disc), two players only.
//! * **Opening**: the first N moves (default 6; all of them in a shorter game), passes
//!   included as written, per rules, **normalised by the symmetry of the start**: of the
//!   board symmetries (rotations, reflections) that map the start position (every
//!   colour's discs, the neutral and blocked squares) onto itself, the one is taken whose
//!   image of the opening comes first when squares are ordered right-most column first,
//!   then top row first (a pass after every square). On the standard start (four
//!   symmetries) the first moves f5, d3, c4 and e6 all become f5, and an opening is written
//!   as Othello books write it: `f5 d6 c3 d3 c4 f4` counts the games that began
//!   `e6 f4 c3 c4 d3 d6` too. A free opening (an empty centre) has
//!   eight symmetries.
//! * **Length**: the placements (passes not counted).
//! * **Rules**: the canonical rules string (`othello`, `anti:10x10`).
//! * **Squares**: every placement of every game, per board shape.
//! * **Unreadable**: games the reader could not read at all (no record); they count
//!   nowhere else. An entry about a file itself (index 0) is not a game and is not counted.
//!
//! ```
//! use reversi_runs::archive::stats::{Section, Stats};
//! use reversi_formats::{Format, ReadOptions};
//! let text = "[Date \"2004.05.01\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\nf5 d6 c3 40-24\n\n\
//!             [Date \"2004\"]\n[Black \"Bob\"]\n[White \"Ann\"]\n\ne6 f4 c3 *\n";
//! let mut stats = Stats::with_opening_moves(3);
//! for game in Format::Rgn.read_bytes(text, &ReadOptions::default())? {
//!     stats.add_parsed(&game);
//! }
//! let report = stats.report();
//! assert_eq!(report.games, 2);
//! assert_eq!(report.to_csv(Section::Year), "year,games\n2004,2\n");
//! // e6 f4 c3 is f5 d6 c3 reflected in the a1-h8 diagonal.
//! assert_eq!(report.to_csv(Section::Opening), "rules,opening,games\nothello,f5 d6 c3,2\n");
//! assert_eq!(report.players[0].player, "Ann");
//! assert_eq!((report.players[0].wins, report.players[0].black.wins), (1, 1));
//! # Ok::<(), std::io::Error>(())
//! ```

use std::collections::HashMap;
use std::fmt::{self, Write as _};
use std::str::FromStr;

use serde::Serialize;

use crate::engine::{BoardShape, Color, Goal, Move, Rules, Square, SquareSet, MAX_SIDE};
use crate::event::Symmetry;
use crate::formats::ParsedGame;
use crate::pipeline::view::GameView;
use crate::record::{
    is_unknown_value, start_setup, ClaimedResult, Record, ResultScore, StartPosition, Tag, TagName,
    Termination,
};

/// Moves of an opening unless told otherwise ([`Stats::with_opening_moves`]).
pub const DEFAULT_OPENING_MOVES: usize = 6;
/// Rows of each table [`StatsReport::to_text`] shows unless told otherwise.
pub const DEFAULT_TOP: usize = 20;

/// Squares of the 10x10 grid every board fits in.
const GRID: usize = MAX_SIDE as usize * MAX_SIDE as usize;
/// An opening key's byte for a pass: after every square.
const PASS_KEY: u8 = u8::MAX;

/// Counters over games, fed one game at a time.
///
/// ```
/// use reversi_runs::archive::stats::Stats;
/// use reversi_formats::{Format, ReadOptions};
/// let games = Format::MoveString.read_bytes("f5d6c3d3c4f4\nc4c3d3c5b4\n", &ReadOptions::default())?;
/// let (mut first, mut second) = (Stats::new(), Stats::new());
/// first.add_parsed(&games[0]);
/// second.add_parsed(&games[1]);
/// first.merge(second);
/// assert_eq!(first.games(), 2);
/// assert_eq!(first.report().lengths.iter().map(|l| l.placements).collect::<Vec<_>>(), [5, 6]);
/// # Ok::<(), std::io::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Stats {
    opening_moves: usize,
    games: u64,
    unreadable: u64,
    years: HashMap<Option<i32>, u64>,
    events: HashMap<String, u64>,
    no_event: u64,
    players: HashMap<String, PlayerTally>,
    results: [u64; ResultKind::ALL.len()],
    margins: HashMap<i32, u64>,
    lengths: HashMap<u32, u64>,
    rules: HashMap<Rules, u64>,
    /// Per rules, the opening keys: a byte a move, [`encode`]d.
    openings: HashMap<Rules, HashMap<Box<[u8]>, u64>>,
    /// Per board, the placements on each square (by [`Square::index`]).
    squares: HashMap<BoardShape, Box<[u64; GRID]>>,
    /// The symmetries of the rules' own start positions, worked out once per rules.
    symmetries: Vec<(Rules, u8)>,
    /// The opening being keyed, and the image tried against it: reused from game to game.
    key: Vec<u8>,
    image: Vec<u8>,
}

impl Default for Stats {
    fn default() -> Stats {
        Stats::new()
    }
}

/// A player's games, in all and by colour.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct PlayerTally {
    all: SideCount,
    black: SideCount,
    white: SideCount,
}

/// Games, wins, draws and losses.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct SideCount {
    /// Games played (with a result or not).
    pub games: u64,
    /// Games won.
    pub wins: u64,
    /// Games drawn (with 3-4 players: a tie for first place).
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl SideCount {
    fn add(&mut self, other: SideCount) {
        self.games += other.games;
        self.wins += other.wins;
        self.draws += other.draws;
        self.losses += other.losses;
    }

    /// One more game for `color`, whose outcome is `decided`.
    fn count(&mut self, color: Color, decided: Option<Option<Color>>) {
        self.games += 1;
        match decided {
            Some(Some(winner)) if winner == color => self.wins += 1,
            Some(Some(_)) => self.losses += 1,
            Some(None) => self.draws += 1,
            None => {}
        }
    }

    /// `W-D-L`.
    fn wdl(&self) -> String {
        format!("{}-{}-{}", self.wins, self.draws, self.losses)
    }
}

/// What a game's claimed result says.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum ResultKind {
    /// Black won.
    Black,
    /// White won.
    White,
    /// Red won (3-4 players).
    Red,
    /// Green won (4 players).
    Green,
    /// A draw (3-4 players: a tie for first place).
    Draw,
    /// The record says the game stopped before its end, undecided.
    Unfinished,
    /// The record claims no result that names a winner or a draw.
    None,
}

impl ResultKind {
    /// Every kind, in the order the report lists them.
    pub const ALL: [ResultKind; 7] = [
        ResultKind::Black,
        ResultKind::White,
        ResultKind::Red,
        ResultKind::Green,
        ResultKind::Draw,
        ResultKind::Unfinished,
        ResultKind::None,
    ];

    /// The name in JSON and CSV (`black`, `draw`, `none`).
    pub const fn name(self) -> &'static str {
        match self {
            ResultKind::Black => "black",
            ResultKind::White => "white",
            ResultKind::Red => "red",
            ResultKind::Green => "green",
            ResultKind::Draw => "draw",
            ResultKind::Unfinished => "unfinished",
            ResultKind::None => "none",
        }
    }

    /// The words in the text report (`Black wins`, `no result`).
    pub const fn phrase(self) -> &'static str {
        match self {
            ResultKind::Black => "Black wins",
            ResultKind::White => "White wins",
            ResultKind::Red => "Red wins",
            ResultKind::Green => "Green wins",
            ResultKind::Draw => "draw",
            ResultKind::Unfinished => "unfinished",
            ResultKind::None => "no result",
        }
    }

    const fn of_winner(color: Color) -> ResultKind {
        match color {
            Color::Black => ResultKind::Black,
            Color::White => ResultKind::White,
            Color::Red => ResultKind::Red,
            Color::Green => ResultKind::Green,
        }
    }

    /// The winner (`Some(None)`: a draw), or `None` when the game is not decided.
    const fn decided(self) -> Option<Option<Color>> {
        match self {
            ResultKind::Black => Some(Some(Color::Black)),
            ResultKind::White => Some(Some(Color::White)),
            ResultKind::Red => Some(Some(Color::Red)),
            ResultKind::Green => Some(Some(Color::Green)),
            ResultKind::Draw => Some(None),
            ResultKind::Unfinished | ResultKind::None => None,
        }
    }

    /// What `result` claims under `rules`, with Black's margin when it gives one.
    ///
    /// ```
    /// use reversi_runs::archive::stats::ResultKind;
    /// use reversi_formats::record::ClaimedResult;
    /// use reversi_engine::Rules;
    /// let claim = ClaimedResult::discs(vec![40, 24]);
    /// assert_eq!(ResultKind::of(Rules::default(), Some(&claim)), (ResultKind::Black, Some(16)));
    /// let anti: Rules = "anti".parse().unwrap();
    /// assert_eq!(ResultKind::of(anti, Some(&claim)), (ResultKind::White, Some(16)));
    /// assert_eq!(ResultKind::of(Rules::default(), None), (ResultKind::None, None));
    /// ```
    pub fn of(rules: Rules, result: Option<&ClaimedResult>) -> (ResultKind, Option<i32>) {
        let Some(result) = result else {
            return (ResultKind::None, None);
        };
        let two = rules.players() == 2;
        match result.termination {
            Termination::Unfinished => return (ResultKind::Unfinished, None),
            Termination::Resignation(Some(loser)) | Termination::Time(Some(loser)) if two => {
                let winner = if loser == Color::Black {
                    Color::White
                } else {
                    Color::Black
                };
                let margin = match &result.score {
                    ResultScore::Discs(counts) => two_counts(counts),
                    ResultScore::Margin(m) => whole_margin(*m),
                    _ => None,
                };
                return (ResultKind::of_winner(winner), margin);
            }
            _ => {}
        }
        let better = |a: f64, b: f64| match rules.goal() {
            Goal::MostDiscs => a > b,
            Goal::FewestDiscs => a < b,
        };
        match &result.score {
            ResultScore::None => (ResultKind::None, None),
            ResultScore::Winner(Some(color)) => (ResultKind::of_winner(*color), None),
            ResultScore::Winner(None) => (ResultKind::Draw, None),
            ResultScore::Margin(m) if two && m.is_finite() => {
                let kind = if better(*m, 0.0) {
                    ResultKind::Black
                } else if better(0.0, *m) {
                    ResultKind::White
                } else {
                    ResultKind::Draw
                };
                (kind, whole_margin(*m))
            }
            ResultScore::Margin(_) => (ResultKind::None, None),
            ResultScore::Discs(counts) => {
                let players = (rules.players() as usize).min(counts.len());
                if players < 2 {
                    return (ResultKind::None, None);
                }
                let mut best = 0;
                let mut tied = false;
                for c in 1..players {
                    if better(counts[c] as f64, counts[best] as f64) {
                        best = c;
                        tied = false;
                    } else if counts[c] == counts[best] {
                        tied = true;
                    }
                }
                let kind = match Color::from_index(best) {
                    Some(color) if !tied => ResultKind::of_winner(color),
                    _ => ResultKind::Draw,
                };
                (kind, if two { two_counts(counts) } else { None })
            }
        }
    }
}

impl fmt::Display for ResultKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Black's discs minus White's, from two counts.
fn two_counts(counts: &[u8]) -> Option<i32> {
    match counts {
        [black, white] => Some(*black as i32 - *white as i32),
        _ => None,
    }
}

/// A claimed margin to the nearest disc.
fn whole_margin(m: f64) -> Option<i32> {
    (m.is_finite() && m.abs() <= 1000.0).then(|| m.round() as i32)
}

/// The year a `Date` value gives (see the module's documentation).
///
/// ```
/// use reversi_runs::archive::stats::year_of;
/// assert_eq!(year_of("2004.06.12"), Some(2004));
/// assert_eq!(year_of("2003.12.15_12:33:18.MST"), Some(2003));
/// assert_eq!(year_of("947375357"), Some(2000));
/// assert_eq!(year_of("????.??.??"), None);
/// assert_eq!(year_of("12.06.2004"), None);
/// ```
pub fn year_of(date: &str) -> Option<i32> {
    let date = date.trim();
    let digits = date.bytes().take_while(u8::is_ascii_digit).count();
    match digits {
        4 | 8 => date.get(..4)?.parse().ok().filter(|&y| y > 0),
        _ if digits >= 9 && digits == date.len() && digits <= 12 => {
            let seconds: i64 = date.parse().ok()?;
            Some(year_of_day(seconds.div_euclid(86_400)))
        }
        _ => None,
    }
}

/// The (proleptic Gregorian) year of a day counted from 1970-01-01.
fn year_of_day(days: i64) -> i32 {
    // Howard Hinnant's `civil_from_days`, the year only.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let year = year_of_era + era * 400 + i64::from(month_index >= 10);
    year.clamp(i32::MIN as i64, i32::MAX as i64) as i32
}

/// The value of the first tag named `name` (any case), unless it says nothing.
fn known_tag<'a>(tags: &'a [Tag], name: &str) -> Option<&'a str> {
    tags.iter()
        .find(|t| t.name.eq_ignore_ascii_case(name))
        .map(|t| t.value.trim())
        .filter(|v| !is_unknown_value(v))
}

/// The image of `sq` under symmetry `t` (of [`Symmetry::ALL`]) of a board of side `n`; a
/// square off the `n` x `n` grid (a record's mistake) stays where it is.
fn transform(sq: Square, t: u8, n: u8) -> Square {
    Symmetry::ALL[usize::from(t & 7)].apply_square(n, sq)
}

fn transform_set(set: SquareSet, t: u8, n: u8) -> SquareSet {
    Symmetry::ALL[usize::from(t & 7)].apply_set(n, set)
}

/// The symmetries (a bit each, identity included) that map the start position onto
/// itself.
fn symmetries_of(rules: Rules, start: Option<&StartPosition>) -> u8 {
    let setup = start_setup(rules, start);
    let n = rules.board().side();
    let mut mask = 1;
    for t in 1..8 {
        let same = |set: SquareSet| transform_set(set, t, n) == set;
        if same(rules.playable()) && setup.discs.iter().all(|&d| same(d)) && same(setup.neutral) {
            mask |= 1 << t;
        }
    }
    mask
}

/// A move's byte in an opening key: squares ordered right-most column first, then top row
/// first; a pass after them.
fn encode(mv: Move, t: u8, n: u8) -> u8 {
    match mv {
        Move::Place(sq) => {
            let sq = transform(sq, t, n);
            (MAX_SIDE - 1 - sq.col()) * MAX_SIDE + sq.row()
        }
        Move::Pass => PASS_KEY,
    }
}

/// The move of a key's byte.
fn decode(byte: u8) -> Option<Move> {
    if byte == PASS_KEY {
        return Some(Move::Pass);
    }
    let col = (MAX_SIDE - 1).checked_sub(byte / MAX_SIDE)?;
    Square::new(col, byte % MAX_SIDE).map(Move::Place)
}

/// An opening key as text: `f5 d6 c3`, `pass` for a pass.
fn opening_text(key: &[u8]) -> String {
    let mut out = String::with_capacity(key.len() * 3);
    for (i, &byte) in key.iter().enumerate() {
        if i > 0 {
            out.push(' ');
        }
        match decode(byte) {
            Some(Move::Place(sq)) => out.push_str(sq.name()),
            Some(Move::Pass) => out.push_str("pass"),
            None => out.push('?'),
        }
    }
    out
}

impl Stats {
    /// Empty counters, openings of [`DEFAULT_OPENING_MOVES`] moves.
    pub fn new() -> Stats {
        Stats::with_opening_moves(DEFAULT_OPENING_MOVES)
    }

    /// Empty counters, openings of `moves` moves.
    pub fn with_opening_moves(moves: usize) -> Stats {
        Stats {
            opening_moves: moves,
            games: 0,
            unreadable: 0,
            years: HashMap::new(),
            events: HashMap::new(),
            no_event: 0,
            players: HashMap::new(),
            results: [0; ResultKind::ALL.len()],
            margins: HashMap::new(),
            lengths: HashMap::new(),
            rules: HashMap::new(),
            openings: HashMap::new(),
            squares: HashMap::new(),
            symmetries: Vec::new(),
            key: Vec::new(),
            image: Vec::new(),
        }
    }

    /// The moves an opening is counted over.
    pub fn opening_moves(&self) -> usize {
        self.opening_moves
    }

    /// Games counted (the unreadable ones apart).
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Games that could not be read.
    pub fn unreadable(&self) -> u64 {
        self.unreadable
    }

    /// Counts a game.
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// use reversi_formats::record::{ClaimedResult, MoveRecord, Record};
    /// use reversi_engine::{Move, Rules};
    /// let mut record = Record::new(Rules::default());
    /// record.set_tag("Date", "1990");
    /// record.moves.push(MoveRecord::new(Move::Place("c4".parse().unwrap())));
    /// record.result = Some(ClaimedResult::discs(vec![33, 31]));
    /// let mut stats = Stats::new();
    /// stats.add(&record);
    /// let report = stats.report();
    /// assert_eq!((report.years[0].year, report.years[0].games), (Some(1990), 1));
    /// assert_eq!(report.openings[0].opening, "f5", "c4 is f5 turned round");
    /// ```
    pub fn add(&mut self, record: &Record) {
        self.count(
            record.rules,
            record.start.as_ref(),
            &record.tags,
            record.moves.iter().map(|m| m.mv),
            record.result.as_ref(),
        );
    }

    /// Counts a game as a format's reader gives it: a game without a record as
    /// unreadable; an entry about the file itself (index 0) not at all. Returns whether the
    /// game was counted as read.
    pub fn add_parsed(&mut self, game: &ParsedGame) -> bool {
        if game.index == 0 {
            return false;
        }
        match &game.record {
            Some(record) => {
                self.add(record);
                true
            }
            None => {
                self.unreadable += 1;
                false
            }
        }
    }

    /// Counts a game of a [`GameReader`](crate::pipeline::GameReader), without building
    /// its record; as [`Stats::add_parsed`], a game that could not be read is counted as
    /// unreadable and an entry about the file itself not at all.
    ///
    /// ```
    /// use reversi_runs::archive::stats::Stats;
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::view::{GameReader, Input};
    /// let text = "[Event \"Club\"]\n\nf5 d6 *\n\n[Event \"Club\"]\n\nf5 f6 *\n";
    /// let mut reader = GameReader::new(Input {
    ///     format: Format::Rgn,
    ///     reader: Box::new(text.as_bytes()),
    ///     options: ReadOptions::default(),
    /// });
    /// let mut stats = Stats::new();
    /// while let Some(game) = reader.next_game() {
    ///     stats.add_view(&game?);
    /// }
    /// assert_eq!(stats.report().events[0].games, 2);
    /// # Ok::<(), std::io::Error>(())
    /// ```
    pub fn add_view(&mut self, game: &GameView<'_>) -> bool {
        if game.index() == 0 {
            return false;
        }
        if game.parsed().is_some_and(|g| g.record.is_none()) {
            self.unreadable += 1;
            return false;
        }
        self.count(
            game.rules(),
            game.start(),
            game.tags(),
            game.moves().iter().copied(),
            game.result(),
        );
        true
    }

    /// Counts one game that could not be read.
    pub fn add_unreadable(&mut self) {
        self.unreadable += 1;
    }

    fn count<M>(
        &mut self,
        rules: Rules,
        start: Option<&StartPosition>,
        tags: &[Tag],
        moves: M,
        result: Option<&ClaimedResult>,
    ) where
        M: Iterator<Item = Move> + Clone,
    {
        self.games += 1;
        let year = known_tag(tags, TagName::DATE).and_then(year_of);
        *self.years.entry(year).or_insert(0) += 1;
        match known_tag(tags, TagName::EVENT) {
            Some(event) => bump(&mut self.events, event, 1),
            None => self.no_event += 1,
        }
        let (kind, margin) = ResultKind::of(rules, result);
        self.results[kind as usize] += 1;
        if let Some(margin) = margin {
            *self.margins.entry(margin).or_insert(0) += 1;
        }
        let decided = kind.decided();
        for &color in rules.colors() {
            let Some(name) = known_tag(tags, TagName::player(color)) else {
                continue;
            };
            if !self.players.contains_key(name) {
                self.players.insert(name.to_owned(), PlayerTally::default());
            }
            let Some(tally) = self.players.get_mut(name) else {
                continue;
            };
            tally.all.count(color, decided);
            if rules.players() == 2 {
                match color {
                    Color::Black => tally.black.count(color, decided),
                    _ => tally.white.count(color, decided),
                }
            }
        }
        *self.rules.entry(rules).or_insert(0) += 1;
        let board = rules.board();
        let squares = self
            .squares
            .entry(board)
            .or_insert_with(|| Box::new([0; GRID]));
        let mut placements = 0u32;
        for mv in moves.clone() {
            if let Move::Place(sq) = mv {
                placements = placements.saturating_add(1);
                if let Some(n) = squares.get_mut(sq.index() as usize) {
                    *n += 1;
                }
            }
        }
        *self.lengths.entry(placements).or_insert(0) += 1;
        self.key_opening(rules, start, moves);
        let per_rules = self.openings.entry(rules).or_default();
        match per_rules.get_mut(&self.key[..]) {
            Some(n) => *n += 1,
            None => {
                per_rules.insert(self.key.clone().into_boxed_slice(), 1);
            }
        }
    }

    /// Sets `self.key` to the game's opening, normalised by the start's symmetries.
    fn key_opening<M>(&mut self, rules: Rules, start: Option<&StartPosition>, moves: M)
    where
        M: Iterator<Item = Move> + Clone,
    {
        let mask = match start {
            Some(start) => symmetries_of(rules, Some(start)),
            None => match self.symmetries.iter().find(|(r, _)| *r == rules) {
                Some(&(_, mask)) => mask,
                None => {
                    let mask = symmetries_of(rules, None);
                    self.symmetries.push((rules, mask));
                    mask
                }
            },
        };
        let n = rules.board().side();
        self.key.clear();
        for mv in moves.clone().take(self.opening_moves) {
            self.key.push(encode(mv, 0, n));
        }
        for t in 1..8 {
            if mask & (1 << t) == 0 {
                continue;
            }
            self.image.clear();
            for mv in moves.clone().take(self.opening_moves) {
                self.image.push(encode(mv, t, n));
            }
            if self.image < self.key {
                std::mem::swap(&mut self.image, &mut self.key);
            }
        }
    }

    /// Adds `other`'s counts to these: the count of both parts of an archive, the same
    /// whatever the order they are merged in. Counts of different opening lengths keep
    /// both lengths' openings side by side; merge counts of one length.
    pub fn merge(&mut self, other: Stats) {
        self.games += other.games;
        self.unreadable += other.unreadable;
        add_counts(&mut self.years, other.years);
        add_counts(&mut self.events, other.events);
        self.no_event += other.no_event;
        for (name, tally) in other.players {
            let mine = self.players.entry(name).or_default();
            mine.all.add(tally.all);
            mine.black.add(tally.black);
            mine.white.add(tally.white);
        }
        for (mine, theirs) in self.results.iter_mut().zip(other.results) {
            *mine += theirs;
        }
        add_counts(&mut self.margins, other.margins);
        add_counts(&mut self.lengths, other.lengths);
        add_counts(&mut self.rules, other.rules);
        for (rules, openings) in other.openings {
            add_counts(self.openings.entry(rules).or_default(), openings);
        }
        for (board, counts) in other.squares {
            match self.squares.get_mut(&board) {
                Some(mine) => {
                    for (m, t) in mine.iter_mut().zip(counts.iter()) {
                        *m += t;
                    }
                }
                None => {
                    self.squares.insert(board, counts);
                }
            }
        }
    }

    /// The counts, sorted: [`StatsReport`] says in which order.
    pub fn report(&self) -> StatsReport {
        let mut years: Vec<YearCount> = self
            .years
            .iter()
            .map(|(&year, &games)| YearCount { year, games })
            .collect();
        // Years in order, no year last.
        years.sort_by_key(|y| (y.year.is_none(), y.year));
        let mut events: Vec<EventCount> = self
            .events
            .iter()
            .map(|(event, &games)| EventCount {
                event: Some(event.clone()),
                games,
            })
            .collect();
        if self.no_event > 0 {
            events.push(EventCount {
                event: None,
                games: self.no_event,
            });
        }
        events.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| (a.event.is_none(), &a.event).cmp(&(b.event.is_none(), &b.event)))
        });
        let mut players: Vec<PlayerCount> = self
            .players
            .iter()
            .map(|(player, t)| PlayerCount {
                player: player.clone(),
                games: t.all.games,
                wins: t.all.wins,
                draws: t.all.draws,
                losses: t.all.losses,
                black: t.black,
                white: t.white,
            })
            .collect();
        players.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.player.cmp(&b.player)));
        let results = ResultKind::ALL
            .iter()
            .map(|&result| ResultCount {
                result,
                games: self.results[result as usize],
            })
            .collect();
        let mut margins: Vec<MarginCount> = self
            .margins
            .iter()
            .map(|(&margin, &games)| MarginCount { margin, games })
            .collect();
        margins.sort_by_key(|m| m.margin);
        let mut openings: Vec<OpeningCount> = self
            .openings
            .iter()
            .flat_map(|(rules, keys)| {
                keys.iter().map(move |(key, &games)| OpeningCount {
                    rules: rules.to_string(),
                    opening: opening_text(key),
                    games,
                })
            })
            .collect();
        openings.sort_by(|a, b| {
            b.games
                .cmp(&a.games)
                .then_with(|| a.rules.cmp(&b.rules))
                .then_with(|| a.opening.cmp(&b.opening))
        });
        let mut lengths: Vec<LengthCount> = self
            .lengths
            .iter()
            .map(|(&placements, &games)| LengthCount { placements, games })
            .collect();
        lengths.sort_by_key(|l| l.placements);
        // One row per rules string (two rules written alike would share it).
        let mut by_name: HashMap<String, u64> = HashMap::new();
        for (r, &games) in &self.rules {
            *by_name.entry(r.to_string()).or_insert(0) += games;
        }
        let mut rules: Vec<RulesCount> = by_name
            .into_iter()
            .map(|(rules, games)| RulesCount { rules, games })
            .collect();
        rules.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.rules.cmp(&b.rules)));
        let mut boards: Vec<(BoardShape, u64)> = Vec::new();
        for (r, &games) in &self.rules {
            match boards.iter_mut().find(|(b, _)| *b == r.board()) {
                Some((_, n)) => *n += games,
                None => boards.push((r.board(), games)),
            }
        }
        let mut squares: Vec<BoardSquares> = self
            .squares
            .iter()
            .map(|(&board, counts)| {
                let games = boards
                    .iter()
                    .find(|(b, _)| *b == board)
                    .map_or(0, |&(_, n)| n);
                board_squares(board, games, counts)
            })
            .collect();
        // The board of the most games first.
        squares.sort_by(|a, b| b.games.cmp(&a.games).then_with(|| a.shape.cmp(&b.shape)));
        StatsReport {
            games: self.games,
            unreadable: self.unreadable,
            opening_moves: self.opening_moves,
            top: DEFAULT_TOP,
            years,
            events,
            players,
            results,
            margins,
            openings,
            lengths,
            rules,
            squares,
        }
    }
}

/// Adds one to the count of `key`, allocating the key only when it is new.
fn bump(map: &mut HashMap<String, u64>, key: &str, n: u64) {
    match map.get_mut(key) {
        Some(count) => *count += n,
        None => {
            map.insert(key.to_owned(), n);
        }
    }
}

fn add_counts<K: std::hash::Hash + Eq>(mine: &mut HashMap<K, u64>, theirs: HashMap<K, u64>) {
    for (key, n) in theirs {
        *mine.entry(key).or_insert(0) += n;
    }
}

fn board_squares(board: BoardShape, games: u64, counts: &[u64; GRID]) -> BoardSquares {
    let n = board.side();
    let mut squares = Vec::new();
    for r in 0..n {
        for c in 0..n {
            if let Some(sq) = Square::new(c, r).filter(|&sq| board.contains(sq)) {
                squares.push(SquareCount {
                    square: sq,
                    placements: counts[sq.index() as usize],
                });
            }
        }
    }
    BoardSquares {
        board: board.name().to_owned(),
        shape: board,
        games,
        squares,
    }
}

mod report;
mod svg;

pub use report::*;

#[cfg(test)]
mod tests {
    use super::svg::*;
    use super::*;
    use crate::formats::{Format, ReadOptions};

    fn stats_of(moves: &str, opening: usize) -> Stats {
        let mut stats = Stats::with_opening_moves(opening);
        for game in Format::MoveString
            .read_bytes(moves, &ReadOptions::default())
            .unwrap()
        {
            stats.add_parsed(&game);
        }
        stats
    }

    #[test]
    fn the_four_first_moves_of_the_standard_start_are_one_opening() {
        let report = stats_of("f5d6c3\nd3c5f6\nc4e3f6\ne6f4c3\n", 3).report();
        assert_eq!(report.openings.len(), 1, "{:?}", report.openings);
        assert_eq!(report.openings[0].opening, "f5 d6 c3");
        assert_eq!(report.openings[0].games, 4);
    }

    #[test]
    fn distinct_openings_stay_distinct() {
        let report = stats_of("f5d6\nf5f6\nf5f4\nd3e3\n", 2).report();
        let names: Vec<&str> = report.openings.iter().map(|o| o.opening.as_str()).collect();
        // d3 e3 is f5 f4 (the diagonal opening) reflected in the a8-h1 diagonal.
        assert_eq!(names, ["f5 f4", "f5 d6", "f5 f6"]);
        assert_eq!(report.openings[0].games, 2);
    }

    #[test]
    fn a_free_opening_has_eight_symmetries() {
        let rules: Rules = "free".parse().unwrap();
        assert_eq!(symmetries_of(rules, None), 0xff);
        assert_eq!(symmetries_of(Rules::default(), None).count_ones(), 4);
        let multi: Rules = "multi3".parse().unwrap();
        assert_eq!(symmetries_of(multi, None), 1);
    }

    #[test]
    fn the_eight_transforms_are_the_symmetries_of_the_square() {
        for t in 0..8u8 {
            let image: SquareSet = transform_set(BoardShape::Eight.cells(), t, 8);
            assert_eq!(image, BoardShape::Eight.cells());
        }
        let f5: Square = "f5".parse().unwrap();
        let images: std::collections::BTreeSet<Square> =
            (0..8).map(|t| transform(f5, t, 8)).collect();
        assert_eq!(images.len(), 8, "f5 has eight images");
        for byte in 0..100 {
            let mv = decode(byte).unwrap();
            assert_eq!(encode(mv, 0, 10), byte);
        }
    }

    #[test]
    fn results_follow_the_goal_and_the_termination() {
        use crate::record::ClaimedResult;
        let rules = Rules::default();
        let resigned = ClaimedResult {
            score: ResultScore::None,
            termination: Termination::Resignation(Some(Color::White)),
            span: None,
        };
        assert_eq!(ResultKind::of(rules, Some(&resigned)).0, ResultKind::Black);
        let unfinished = ClaimedResult {
            score: ResultScore::Discs(vec![10, 5]),
            termination: Termination::Unfinished,
            span: None,
        };
        assert_eq!(
            ResultKind::of(rules, Some(&unfinished)),
            (ResultKind::Unfinished, None)
        );
        let margin = ClaimedResult {
            score: ResultScore::Margin(-2.5),
            termination: Termination::Normal,
            span: None,
        };
        assert_eq!(
            ResultKind::of(rules, Some(&margin)),
            (ResultKind::White, Some(-3))
        );
        let multi: Rules = "multi3".parse().unwrap();
        let three = ClaimedResult::discs(vec![10, 20, 20]);
        assert_eq!(
            ResultKind::of(multi, Some(&three)),
            (ResultKind::Draw, None)
        );
        let three = ClaimedResult::discs(vec![10, 20, 30]);
        assert_eq!(ResultKind::of(multi, Some(&three)).0, ResultKind::Red);
    }

    #[test]
    fn merging_in_any_order_gives_the_same_report() {
        let text = "f5d6c3d3c4\nf5f6e6f4\nd3c5f6f5e6e3\nc4e3f6e6f5\n";
        let all = stats_of(text, 4).report();
        let lines: Vec<&str> = text.lines().collect();
        let parts: Vec<Stats> = lines.iter().map(|l| stats_of(l, 4)).collect();
        let mut forward = Stats::with_opening_moves(4);
        for p in parts.iter().cloned() {
            forward.merge(p);
        }
        let mut backward = Stats::with_opening_moves(4);
        for p in parts.into_iter().rev() {
            backward.merge(p);
        }
        assert_eq!(forward.report(), all);
        assert_eq!(backward.report(), all);
        assert_eq!(forward.report().to_json(), backward.report().to_json());
    }

    #[test]
    fn years_from_dates() {
        assert_eq!(year_of("2021"), Some(2021));
        assert_eq!(year_of("20040612"), Some(2004));
        assert_eq!(year_of("940607137"), Some(1999));
        assert_eq!(year_of("0000"), None);
        assert_eq!(year_of(""), None);
        assert_eq!(year_of_day(0), 1970);
        assert_eq!(year_of_day(-1), 1969);
        assert_eq!(year_of_day(365 * 30 + 7), 2000);
    }

    #[test]
    fn the_shade_darkens_as_the_count_grows() {
        let mut last = shade(0.0);
        for i in 1..=100 {
            let next = shade(i as f64 / 100.0);
            assert!(next.iter().zip(last).all(|(n, l)| *n <= l), "{i}");
            last = next;
        }
        assert_eq!(shade(1.0), [8, 48, 107]);
        assert_eq!(heat(0, 5, 9), None);
        assert_eq!((heat(5, 5, 9), heat(9, 5, 9)), (Some(0.0), Some(1.0)));
        assert_eq!(heat(3, 3, 3), Some(1.0));
    }
}
