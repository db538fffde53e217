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

use crate::engine::{BoardShape, Color, Move, Rules, Square, MAX_SIDE};
use crate::formats::ParsedGame;
use crate::pipeline::view::GameView;
use crate::record::{ClaimedResult, Record, StartPosition, Tag, TagName};
/// Moves of an opening unless told otherwise ([`Stats::with_opening_moves`]).
pub const DEFAULT_OPENING_MOVES: usize = 6;
/// Rows of each table [`StatsReport::to_text`] shows unless told otherwise.
pub const DEFAULT_TOP: usize = 20;

/// Squares of the 10x10 grid every board fits in.
const GRID: usize = MAX_SIDE as usize * MAX_SIDE as usize;

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
    ///
    /// [`encode`]: opening::encode
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

mod opening;
mod report;
mod results;
mod sorting;
mod svg;
mod tags;

pub use report::*;
pub use results::{ResultKind, SideCount};
pub use tags::year_of;

use results::PlayerTally;
use sorting::board_squares;
use tags::known_tag;

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
