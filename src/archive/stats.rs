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
//! use reversi_record::archive::stats::{Section, Stats};
//! use reversi_record::formats::{Format, ReadOptions};
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
/// use reversi_record::archive::stats::Stats;
/// use reversi_record::formats::{Format, ReadOptions};
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
    /// use reversi_record::archive::stats::ResultKind;
    /// use reversi_record::record::ClaimedResult;
    /// use reversi_record::Rules;
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
/// use reversi_record::archive::stats::year_of;
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
    /// use reversi_record::archive::stats::Stats;
    /// use reversi_record::record::{ClaimedResult, MoveRecord, Record};
    /// use reversi_record::{Move, Rules};
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
    /// use reversi_record::archive::stats::Stats;
    /// use reversi_record::formats::{Format, ReadOptions};
    /// use reversi_record::pipeline::view::{GameReader, Input};
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
fn csv_field(text: &str) -> String {
    if text.contains([',', '"', '\n', '\r']) || text.starts_with(' ') || text.ends_with(' ') {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// An aligned table: a header line, then the rows; `right` says which columns are
/// numbers, aligned right. Two spaces before each line and between columns.
fn table(out: &mut String, header: &[&str], right: &[bool], rows: &[Vec<String>]) {
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
fn share(n: u64, total: u64) -> String {
    if total == 0 {
        return "-".to_owned();
    }
    format!("{:.1}%", n as f64 * 100.0 / total as f64)
}

/// The rows of a table sorted by count that the text shows, and the rest: how many rows
/// and games.
fn top_rows<T>(rows: &[T], top: usize, games: impl Fn(&T) -> u64) -> (&[T], usize, u64) {
    if top == 0 || rows.len() <= top {
        return (rows, 0, 0);
    }
    let rest = &rows[top..];
    (&rows[..top], rest.len(), rest.iter().map(games).sum())
}

/// The `top` most played of rows kept in their order (years, lengths, margins): their
/// positions, and the rest as in [`top_rows`].
fn top_in_order<T>(rows: &[T], top: usize, games: impl Fn(&T) -> u64) -> (Vec<usize>, usize, u64) {
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

fn and_more(out: &mut String, rows: usize, what: &str, games: u64) {
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
    /// use reversi_record::archive::stats::Stats;
    /// use reversi_record::formats::{Format, ReadOptions};
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
    /// use reversi_record::archive::stats::Stats;
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
    /// use reversi_record::archive::stats::{Section, Stats};
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
    /// use reversi_record::archive::stats::Stats;
    /// use reversi_record::formats::{Format, ReadOptions};
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
    /// use reversi_record::archive::stats::Stats;
    /// use reversi_record::formats::{Format, ReadOptions};
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

fn plural(n: u64, one: &'static str, many: &'static str) -> &'static str {
    if n == 1 {
        one
    } else {
        many
    }
}

/// The heat map's colour scale: palest (the least played square) to darkest (the most
/// played), through a middle blue; every channel falls as the count grows.
const SCALE: [(f64, [u8; 3]); 3] = [
    (0.0, [222, 235, 247]),
    (0.5, [107, 174, 214]),
    (1.0, [8, 48, 107]),
];
/// The colour of a square never played: the background's.
const NEVER: &str = "#ffffff";

/// The colour of `t` in 0..=1 on [`SCALE`].
fn shade(t: f64) -> [u8; 3] {
    let t = if t.is_finite() {
        t.clamp(0.0, 1.0)
    } else {
        0.0
    };
    let (lo, hi) = if t <= SCALE[1].0 {
        (SCALE[0], SCALE[1])
    } else {
        (SCALE[1], SCALE[2])
    };
    let f = (t - lo.0) / (hi.0 - lo.0);
    let mut rgb = [0u8; 3];
    for (i, c) in rgb.iter_mut().enumerate() {
        let (a, b) = (lo.1[i] as f64, hi.1[i] as f64);
        *c = (a + (b - a) * f).round() as u8;
    }
    rgb
}

fn hex([r, g, b]: [u8; 3]) -> String {
    format!("#{r:02x}{g:02x}{b:02x}")
}

/// Room left of and above the board, as in `render::svg`.
const LABEL: u32 = 26;
/// Room right of the board.
const PAD: u32 = 14;
/// Height of the legend under the board.
const LEGEND: u32 = 64;
const INK: &str = "#3a3a3a";
const GRID_LINE: &str = "#8a96a3";

/// Where `placements` lies between the least (`least`, above 0) and the most played
/// squares, 0 to 1; `None` for a square never played.
fn heat(placements: u64, least: u64, most: u64) -> Option<f64> {
    if placements == 0 {
        return None;
    }
    if most <= least {
        return Some(1.0);
    }
    Some((placements.saturating_sub(least)) as f64 / (most - least) as f64)
}

fn heatmap(board: &BoardSquares) -> String {
    use crate::render::{escape_markup, square_centre, CELL};
    let n = board.shape.side() as u32;
    let size = LABEL + n * CELL + PAD;
    let width = size.max(260);
    let height = size + LEGEND;
    let most = board.most();
    let least = board
        .squares
        .iter()
        .map(|s| s.placements)
        .filter(|&p| p > 0)
        .min()
        .unwrap_or(0);
    let placements: u64 = board.squares.iter().map(|s| s.placements).sum();
    let caption = format!(
        "Placements per square, {}: {} {}, {} {}",
        board.board,
        board.games,
        plural(board.games, "game", "games"),
        placements,
        plural(placements, "placement", "placements")
    );
    let mut s = String::with_capacity(16 * 1024);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape_markup(&caption));
    let _ = writeln!(
        s,
        r#"<rect width="{width}" height="{height}" fill="{NEVER}"/>"#
    );
    let _ = writeln!(s, r#"<g stroke="{GRID_LINE}" stroke-width="1">"#);
    for sq in &board.squares {
        let (cx, cy) = square_centre(sq.square);
        let fill =
            heat(sq.placements, least, most).map_or_else(|| NEVER.to_owned(), |t| hex(shade(t)));
        let _ = writeln!(
            s,
            r#"<rect class="square" data-square="{}" data-placements="{}" x="{}" y="{}" width="{CELL}" height="{CELL}" fill="{fill}"/>"#,
            sq.square,
            sq.placements,
            cx - CELL / 2,
            cy - CELL / 2,
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(s, r#"<g text-anchor="middle">"#);
    for sq in &board.squares {
        let (cx, cy) = square_centre(sq.square);
        let dark = heat(sq.placements, least, most).is_some_and(|t| t > 0.5);
        let ink = if dark { "#ffffff" } else { "#1a1a1a" };
        let text = sq.placements.to_string();
        let font = match text.len() {
            0..=4 => 12,
            5 => 10,
            _ => 8,
        };
        let _ = writeln!(
            s,
            r#"<text x="{cx}" y="{}" font-size="{font}" fill="{ink}">{text}</text>"#,
            cy + font / 3
        );
    }
    s.push_str("</g>\n");
    // Coordinates: letters above, numbers to the left.
    let _ = writeln!(s, r#"<g font-size="15" fill="{INK}" text-anchor="middle">"#);
    for i in 0..n {
        let centre = LABEL + i * CELL + CELL / 2;
        let _ = writeln!(
            s,
            r#"<text x="{centre}" y="{}">{}</text><text x="{}" y="{}">{}</text>"#,
            LABEL - 8,
            (b'a' + i as u8) as char,
            LABEL / 2,
            centre + 5,
            i + 1
        );
    }
    s.push_str("</g>\n");
    // The legend: the scale from the least played square to the most, its ends labelled.
    let bar_width = (n * CELL).max(200);
    let y = size + 4;
    s.push_str(r#"<defs><linearGradient id="heat" x1="0" y1="0" x2="1" y2="0">"#);
    for (at, rgb) in SCALE {
        let _ = write!(s, r#"<stop offset="{at}" stop-color="{}"/>"#, hex(rgb));
    }
    s.push_str("</linearGradient></defs>\n");
    let _ = writeln!(
        s,
        r#"<rect class="legend" x="{LABEL}" y="{y}" width="{bar_width}" height="14" fill="url(#heat)" stroke="{GRID_LINE}" stroke-width="1"/>"#
    );
    let _ = writeln!(
        s,
        r#"<g font-size="12" fill="{INK}"><text x="{LABEL}" y="{}">{least}</text><text x="{}" y="{}" text-anchor="end">{most}</text><text x="{}" y="{}" text-anchor="middle">placements (white: never)</text></g>"#,
        y + 28,
        LABEL + bar_width,
        y + 28,
        LABEL + bar_width / 2,
        y + 28
    );
    let _ = writeln!(
        s,
        r#"<text x="{LABEL}" y="{}" font-size="12" fill="{INK}">{}</text>"#,
        y + 48,
        escape_markup(&caption)
    );
    s.push_str("</svg>\n");
    s
}

/// Plot area of a histogram, in pixels.
const PLOT_LEFT: u32 = 60;
const PLOT_TOP: u32 = 40;
const PLOT_WIDTH: u32 = 640;
const PLOT_HEIGHT: u32 = 240;
const BAR: &str = "#2b6ca3";

/// A histogram of `bars` (value, games), in value order, as a standalone SVG: a bar for
/// each value from the least to the greatest (none where no game has it).
fn histogram_svg(title: &str, axis: &str, bars: &[(i64, u64)]) -> String {
    use crate::render::escape_markup;
    let width = PLOT_LEFT + PLOT_WIDTH + 24;
    let height = PLOT_TOP + PLOT_HEIGHT + 52;
    let lo = bars.iter().map(|b| b.0).min().unwrap_or(0);
    let hi = bars.iter().map(|b| b.0).max().unwrap_or(0);
    let most = bars.iter().map(|b| b.1).max().unwrap_or(0);
    let slots = (hi - lo + 1).max(1) as f64;
    let slot = PLOT_WIDTH as f64 / slots;
    let gap = if slot >= 4.0 { 1.0 } else { 0.0 };
    let base = (PLOT_TOP + PLOT_HEIGHT) as f64;
    let mut s = String::with_capacity(8 * 1024 + bars.len() * 128);
    let _ = writeln!(
        s,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" viewBox="0 0 {width} {height}" font-family="DejaVu Sans, Verdana, Arial, sans-serif">"#
    );
    let _ = writeln!(s, "<title>{}</title>", escape_markup(title));
    let _ = writeln!(
        s,
        r##"<rect width="{width}" height="{height}" fill="#ffffff"/>"##
    );
    let _ = writeln!(
        s,
        r#"<text x="{}" y="24" font-size="15" fill="{INK}" text-anchor="middle">{}</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2,
        escape_markup(title)
    );
    let _ = writeln!(s, r#"<g fill="{BAR}">"#);
    for &(value, games) in bars {
        let h = if most == 0 {
            0.0
        } else {
            games as f64 * PLOT_HEIGHT as f64 / most as f64
        };
        let x = PLOT_LEFT as f64 + (value - lo) as f64 * slot;
        let _ = writeln!(
            s,
            r#"<rect class="bar" data-value="{value}" data-games="{games}" x="{x:.2}" y="{:.2}" width="{:.2}" height="{h:.2}"/>"#,
            base - h,
            (slot - gap).max(0.5)
        );
    }
    s.push_str("</g>\n");
    // Axes, the games at the top and half way, the values every so often.
    let _ = writeln!(
        s,
        r#"<path d="M{PLOT_LEFT} {PLOT_TOP}V{}H{}" stroke="{INK}" stroke-width="1" fill="none"/>"#,
        PLOT_TOP + PLOT_HEIGHT,
        PLOT_LEFT + PLOT_WIDTH
    );
    let _ = writeln!(s, r#"<g font-size="11" fill="{INK}" text-anchor="end">"#);
    for (games, y) in [
        (most, PLOT_TOP),
        (most / 2, PLOT_TOP + PLOT_HEIGHT / 2),
        (0, PLOT_TOP + PLOT_HEIGHT),
    ] {
        let _ = writeln!(
            s,
            r#"<text x="{}" y="{}">{games}</text>"#,
            PLOT_LEFT - 6,
            y + 4
        );
    }
    s.push_str("</g>\n");
    let step = match hi - lo {
        0..=30 => 5,
        31..=150 => 10,
        151..=400 => 50,
        _ => 100,
    };
    let _ = writeln!(s, r#"<g font-size="11" fill="{INK}" text-anchor="middle">"#);
    for value in lo..=hi {
        if value != lo && value != hi && value.rem_euclid(step) != 0 {
            continue;
        }
        let x = PLOT_LEFT as f64 + ((value - lo) as f64 + 0.5) * slot;
        let _ = writeln!(
            s,
            r#"<text x="{x:.2}" y="{}">{value}</text>"#,
            PLOT_TOP + PLOT_HEIGHT + 16
        );
    }
    s.push_str("</g>\n");
    let _ = writeln!(
        s,
        r#"<text x="{}" y="{}" font-size="12" fill="{INK}" text-anchor="middle">{} (games)</text>"#,
        PLOT_LEFT + PLOT_WIDTH / 2,
        PLOT_TOP + PLOT_HEIGHT + 40,
        escape_markup(axis)
    );
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
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
