//! Standings of an event as the World Othello Championship ranks its players: points, then
//! the Brightwell quotient (BQ), then discs; with a crosstable by round and renderers for
//! text, JSON, CSV and HTML. The rules are `spec/standings.md`.
//!
//! The input is one [`Pairing`] per board and round, independent of any reader: who sat
//! where and what came of it ([`GameResult`]), with a [`PairingSource`] naming the game it came
//! from.
//!
//! ```
//! use reversi_check::event::standings::{GameResult, Pairing, Standings, StandingsOptions};
//! let pairings = [
//!     Pairing::game("1", "Ann", "Bob", GameResult::Discs { black: 40, white: 24 }),
//!     Pairing::bye("1", "Cid"),
//!     Pairing::game("2", "Cid", "Ann", GameResult::Discs { black: 32, white: 32 }),
//!     Pairing::bye("2", "Bob"),
//! ];
//! let standings = Standings::compute(&pairings, &StandingsOptions::default())?;
//! let ann = &standings.players[0];
//! assert_eq!((ann.name.as_str(), ann.points.to_string()), ("Ann", "1.5".to_string()));
//! // BQ: 40 + 32 discs, plus 6 times Bob's 1 point and Cid's 1.5 points.
//! assert_eq!((ann.bq, ann.discs), (72 + 6 + 9, 72));
//! # Ok::<(), reversi_check::event::standings::StandingsError>(())
//! ```

mod render;

pub(crate) use render::{html_page_head, HTML_END};

use std::cmp::Ordering;
use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::fmt::{self, Write as _};

use serde::{Serialize, Serializer};

use crate::render::escape_markup;

/// The squares of the board the standings are for unless told (8x8).
pub const SQUARES: u32 = 64;
/// The weight of an opponent's points in the BQ.
pub const BQ_POINTS_WEIGHT: u32 = 6;

/// A colour in a two-player game.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Side {
    /// Moves first.
    Black,
    /// Moves second.
    White,
}

impl Side {
    /// The other side.
    pub fn other(self) -> Side {
        match self {
            Side::Black => Side::White,
            Side::White => Side::Black,
        }
    }

    /// `B` or `W`, as crosstables write it.
    pub fn letter(self) -> char {
        match self {
            Side::Black => 'B',
            Side::White => 'W',
        }
    }
}

/// A round's name as the records give it (`3`, `final`). Numeric rounds compare as numbers
/// (`03` is `3`, and `10` comes after `9`) and before any other.
///
/// ```
/// use reversi_check::event::standings::Round;
/// let mut rounds = [Round::new("10"), Round::new("final"), Round::new(" 9 ")];
/// rounds.sort();
/// assert_eq!(rounds.map(|r| r.to_string()), ["9", "10", "final"]);
/// assert_eq!(Round::new("03"), Round::new("3"));
/// ```
#[derive(Clone, PartialEq, Eq, Hash, Debug)]
pub struct Round {
    text: String,
    number: Option<u32>,
}

impl Round {
    /// The round named `text` (trimmed).
    pub fn new(text: &str) -> Round {
        let text = text.trim();
        let number = if !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit()) {
            text.parse::<u32>().ok()
        } else {
            None
        };
        Round {
            text: number.map_or_else(|| text.to_owned(), |n| n.to_string()),
            number,
        }
    }

    /// The name.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// The number, when the name is one.
    pub fn number(&self) -> Option<u32> {
        self.number
    }
}

impl Ord for Round {
    fn cmp(&self, other: &Round) -> Ordering {
        match (self.number, other.number) {
            (Some(a), Some(b)) => a.cmp(&b),
            (Some(_), None) => Ordering::Less,
            (None, Some(_)) => Ordering::Greater,
            (None, None) => self.text.cmp(&other.text),
        }
    }
}

impl PartialOrd for Round {
    fn partial_cmp(&self, other: &Round) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl fmt::Display for Round {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}

impl From<&str> for Round {
    fn from(text: &str) -> Round {
        Round::new(text)
    }
}

impl From<u32> for Round {
    fn from(n: u32) -> Round {
        Round::new(&n.to_string())
    }
}

impl Serialize for Round {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.text)
    }
}

/// Where a pairing came from: plain numbers the caller gives (the input's index, the game's
/// index in it), so every message can name the game.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default, Serialize)]
pub struct PairingSource {
    /// The input (file) index.
    pub file: usize,
    /// The game's index in its input.
    pub game: usize,
}

impl PairingSource {
    /// The `file` of a pairing that comes from the director's pairings file, not from a
    /// game: its `game` is then the file's line.
    pub const PAIRINGS: usize = usize::MAX;

    /// Line `line` of the pairings file.
    pub fn pairings_line(line: usize) -> PairingSource {
        PairingSource {
            file: PairingSource::PAIRINGS,
            game: line,
        }
    }
}

impl fmt::Display for PairingSource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.file {
            PairingSource::PAIRINGS => write!(f, "line {} of the pairings", self.game),
            file => write!(f, "file {file}, game {}", self.game),
        }
    }
}

/// What came of a game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum GameResult {
    /// The final disc counts (WOF: the empty squares already given to the winner).
    Discs {
        /// Black's discs.
        black: u8,
        /// White's discs.
        white: u8,
    },
    /// Only the winner is known (`None`: a draw); scored 33-31 (32-32).
    Winner(Option<Side>),
    /// The other side did not play: a win for `winner`, scored 33-31.
    Forfeit {
        /// Who won.
        winner: Side,
    },
    /// Neither side came: a loss for both, no discs.
    DoubleForfeit,
    /// No result yet (unfinished, adjourned, not entered): nothing is scored.
    Unfinished,
}

/// Who sat at a board.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Seat {
    /// A game between two players.
    Game {
        /// The player of Black.
        black: String,
        /// The player of White.
        white: String,
        /// What came of it.
        result: GameResult,
    },
    /// A player without an opponent this round: a win, worth 32 discs.
    Bye {
        /// The player.
        player: String,
    },
}

/// One board of one round: the input of [`Standings::compute`].
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Pairing {
    /// The round.
    pub round: Round,
    /// The board (table) number or name, when known.
    pub board: Option<String>,
    /// Who sat there and what came of it.
    pub seat: Seat,
    /// Where it came from.
    pub source: PairingSource,
}

impl Pairing {
    /// A game of `round` between `black` and `white`, from no particular source.
    pub fn game(round: impl Into<Round>, black: &str, white: &str, result: GameResult) -> Pairing {
        Pairing {
            round: round.into(),
            board: None,
            seat: Seat::Game {
                black: black.to_owned(),
                white: white.to_owned(),
                result,
            },
            source: PairingSource::default(),
        }
    }

    /// A bye of `player` in `round`.
    pub fn bye(round: impl Into<Round>, player: &str) -> Pairing {
        Pairing {
            round: round.into(),
            board: None,
            seat: Seat::Bye {
                player: player.to_owned(),
            },
            source: PairingSource::default(),
        }
    }

    /// The same pairing at board `board`.
    pub fn on_board(mut self, board: &str) -> Pairing {
        self.board = Some(board.to_owned());
        self
    }

    /// The same pairing, coming from game `game` of input `file`.
    pub fn from_game(mut self, file: usize, game: usize) -> Pairing {
        self.source = PairingSource { file, game };
        self
    }

    /// The players, Black first (a bye has one).
    pub fn players(&self) -> Vec<&str> {
        match &self.seat {
            Seat::Game { black, white, .. } => vec![black.trim(), white.trim()],
            Seat::Bye { player } => vec![player.trim()],
        }
    }
}

/// What the standings need beyond the pairings.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StandingsOptions {
    /// The event's name, for headings.
    pub event: Option<String>,
    /// The players who withdrew. `None` takes those who have no pairing (neither a game nor
    /// a bye) in the last round.
    pub withdrawn: Option<Vec<String>>,
    /// The playable squares of the event's board (64 on 8x8, 100 on 10x10): the most discs
    /// a game can count, and what a bye and an uncounted result are worth
    /// ([`DiscScale`]).
    pub squares: u32,
}

impl Default for StandingsOptions {
    fn default() -> StandingsOptions {
        StandingsOptions {
            event: None,
            withdrawn: None,
            squares: SQUARES,
        }
    }
}

/// The discs of results without counts, on a board of `squares` playable squares
/// (`spec/standings.md`): half the board (rounded down) for a bye or a game against a
/// withdrawn player, one more for the winner of an uncounted result, the rest of the board
/// for its loser.
///
/// ```
/// use reversi_check::event::standings::DiscScale;
/// let eight = DiscScale::of(64);
/// assert_eq!((eight.bye, eight.win, eight.loss), (32, 33, 31));
/// let ten = DiscScale::of(100);
/// assert_eq!((ten.bye, ten.win, ten.loss), (50, 51, 49));
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct DiscScale {
    /// The board's playable squares: no game counts more discs.
    pub squares: u32,
    /// A bye (and, in the BQ, a game against a withdrawn player).
    pub bye: u32,
    /// The winner of a forfeit or a winner-only result.
    pub win: u8,
    /// Its loser; a draw without counts is `bye` each.
    pub loss: u8,
}

impl DiscScale {
    /// The scale of a board of `squares` playable squares (at most 255: the largest board
    /// of the rules has 100).
    pub fn of(squares: u32) -> DiscScale {
        let squares = squares.clamp(2, u32::from(u8::MAX));
        let bye = squares / 2;
        // `bye + 1 <= 128` and `squares - bye - 1 < 128`: both fit a u8.
        let win = (bye + 1) as u8;
        DiscScale {
            squares,
            bye,
            win,
            loss: (squares - bye - 1) as u8,
        }
    }
}

/// Points: 1 a win or a bye, 1/2 a draw, held in half points so sums are exact.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Debug, Default)]
pub struct Points(u32);

impl Points {
    /// `halves` half points.
    pub fn from_halves(halves: u32) -> Points {
        Points(halves)
    }

    /// The number of half points.
    pub fn halves(self) -> u32 {
        self.0
    }

    /// The points as a number (`2.5`).
    pub fn value(self) -> f64 {
        f64::from(self.0) / 2.0
    }
}

impl fmt::Display for Points {
    /// `2`, `2.5`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let whole = self.0 / 2;
        let text = if self.0 % 2 == 1 {
            format!("{whole}.5")
        } else {
            whole.to_string()
        };
        f.pad(&text)
    }
}

impl Serialize for Points {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_f64(self.value())
    }
}

/// How a player's game of a round came out for them.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum RoundOutcome {
    /// Won (a bye counts).
    Win,
    /// Drawn.
    Draw,
    /// Lost.
    Loss,
    /// No result yet.
    Pending,
}

impl RoundOutcome {
    fn word(self) -> &'static str {
        match self {
            RoundOutcome::Win => "win",
            RoundOutcome::Draw => "draw",
            RoundOutcome::Loss => "loss",
            RoundOutcome::Pending => "?",
        }
    }

    fn halves(self) -> u32 {
        match self {
            RoundOutcome::Win => 2,
            RoundOutcome::Draw => 1,
            RoundOutcome::Loss | RoundOutcome::Pending => 0,
        }
    }
}

/// How a crosstable cell's result is known.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Known {
    /// From the disc counts.
    Discs,
    /// Only the winner (or a draw) is known.
    WinnerOnly,
    /// A forfeit.
    Forfeit,
    /// A bye.
    Bye,
    /// No result yet.
    Unfinished,
}

/// One player's round in the crosstable.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct CrosstableCell {
    /// The round.
    pub round: Round,
    /// The board, when known.
    pub board: Option<String>,
    /// The opponent's number in the table ([`PlayerStanding::number`]); `None` for a bye.
    pub opponent: Option<usize>,
    /// The player's colour; `None` for a bye.
    pub colour: Option<Side>,
    /// The disc counts, the player's first, when the result gives them.
    pub discs: Option<[u8; 2]>,
    /// How it came out for the player.
    pub outcome: RoundOutcome,
    /// How the result is known.
    pub known: Known,
    /// Where it came from.
    pub source: PairingSource,
}

/// A cell's fields, and its [`CrosstableCell::text`] as `text`.
impl Serialize for CrosstableCell {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeStruct;
        let mut cell = s.serialize_struct("CrosstableCell", 9)?;
        cell.serialize_field("round", &self.round)?;
        cell.serialize_field("board", &self.board)?;
        cell.serialize_field("opponent", &self.opponent)?;
        cell.serialize_field("colour", &self.colour)?;
        cell.serialize_field("discs", &self.discs)?;
        cell.serialize_field("outcome", &self.outcome)?;
        cell.serialize_field("known", &self.known)?;
        cell.serialize_field("source", &self.source)?;
        cell.serialize_field("text", &self.text())?;
        cell.end()
    }
}

impl CrosstableCell {
    /// The cell as crosstables write it: `12B 40-24` (opponent 12, the player had Black,
    /// 40 discs to 24), `12W win` (winner only), `12B loss ff` (forfeit), `12W ?` (no result
    /// yet), `bye`.
    pub fn text(&self) -> String {
        let opponent = match (self.opponent, self.colour) {
            (Some(n), Some(side)) => format!("{n}{}", side.letter()),
            _ => return "bye".to_owned(),
        };
        match (self.known, self.discs) {
            (Known::Discs, Some([mine, theirs])) => format!("{opponent} {mine}-{theirs}"),
            (Known::Forfeit, _) => format!("{opponent} {} ff", self.outcome.word()),
            _ => format!("{opponent} {}", self.outcome.word()),
        }
    }
}

/// One player's line of the standings.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct PlayerStanding {
    /// The line's number, 1 first: what crosstable cells call the player.
    pub number: usize,
    /// The rank: the number of the first line with the same points, BQ and discs.
    pub rank: usize,
    /// Whether another player shares the rank.
    pub shared: bool,
    /// The name.
    pub name: String,
    /// Points.
    pub points: Points,
    /// The Brightwell quotient.
    pub bq: u32,
    /// Discs: those of every scored game, 32 a bye.
    pub discs: u32,
    /// Games with a result (forfeits included, byes not).
    pub games: u32,
    /// Games won.
    pub wins: u32,
    /// Games drawn.
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
    /// Byes.
    pub byes: u32,
    /// Games without a result yet.
    pub unfinished: u32,
    /// Games paired with Black (forfeits and unfinished games included).
    pub black: u32,
    /// Games paired with White.
    pub white: u32,
    /// Whether the player withdrew.
    pub withdrawn: bool,
    /// The crosstable line: one cell per round of [`Standings::rounds`], `None` when the
    /// player was not paired.
    pub rounds: Vec<Option<CrosstableCell>>,
}

/// The standings of an event, best first.
#[derive(Clone, PartialEq, Debug, Serialize)]
pub struct Standings {
    /// The event's name.
    pub event: Option<String>,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// The players, in rank order.
    pub players: Vec<PlayerStanding>,
    /// The games without a result yet: the standings are provisional while there are any.
    pub unfinished: Vec<PairingSource>,
}

/// Why pairings cannot be ranked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Problem {
    /// A player is paired twice in one round.
    TwiceInRound {
        /// The player.
        player: String,
        /// The round.
        round: Round,
        /// The first pairing.
        first: PairingSource,
        /// The second.
        second: PairingSource,
    },
    /// A player is paired against themselves.
    AgainstSelf {
        /// The player.
        player: String,
        /// The pairing.
        source: PairingSource,
    },
    /// A pairing without a player's name.
    NoName {
        /// The pairing.
        source: PairingSource,
    },
    /// Disc counts that the board cannot hold.
    TooManyDiscs {
        /// Black's discs.
        black: u8,
        /// White's discs.
        white: u8,
        /// The board's playable squares.
        squares: u32,
        /// The pairing.
        source: PairingSource,
    },
    /// A withdrawn player given who has no pairing.
    UnknownWithdrawn {
        /// The name.
        player: String,
    },
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Problem::TwiceInRound {
                player,
                round,
                first,
                second,
            } => write!(
                f,
                "{player} is paired twice in round {round}: {first} and {second}"
            ),
            Problem::AgainstSelf { player, source } => {
                write!(f, "{player} is paired against themselves ({source})")
            }
            Problem::NoName { source } => write!(f, "a pairing has no player's name ({source})"),
            Problem::TooManyDiscs {
                black,
                white,
                squares,
                source,
            } => write!(
                f,
                "{black}-{white} is more than the {squares} discs of the board ({source})"
            ),
            Problem::UnknownWithdrawn { player } => {
                write!(f, "{player} is given as withdrawn but has no pairing")
            }
        }
    }
}

/// Everything that keeps pairings from being ranked.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct StandingsError {
    /// The problems, in input order.
    pub problems: Vec<Problem>,
}

impl fmt::Display for StandingsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the pairings cannot be ranked:")?;
        for p in &self.problems {
            write!(f, "\n  {p}")?;
        }
        Ok(())
    }
}

impl std::error::Error for StandingsError {}

/// One pairing from one player's side.
struct Seen<'a> {
    pairing: &'a Pairing,
    opponent: Option<&'a str>,
    colour: Option<Side>,
    outcome: RoundOutcome,
    known: Known,
    /// The player's counted discs and the opponent's.
    counted: Option<[u8; 2]>,
    /// The discs credited to the player: counted, or 33/32/31 for an uncounted result.
    credited: Option<u8>,
}

fn seen<'a>(pairing: &'a Pairing, colour: Side, scale: DiscScale) -> Seen<'a> {
    let Seat::Game {
        black,
        white,
        result,
    } = &pairing.seat
    else {
        return Seen {
            pairing,
            opponent: None,
            colour: None,
            outcome: RoundOutcome::Win,
            known: Known::Bye,
            counted: None,
            credited: None,
        };
    };
    let opponent = match colour {
        Side::Black => white.trim(),
        Side::White => black.trim(),
    };
    let uncounted = |winner: Option<Side>| match winner {
        None => (RoundOutcome::Draw, scale.bye as u8),
        Some(w) if w == colour => (RoundOutcome::Win, scale.win),
        Some(_) => (RoundOutcome::Loss, scale.loss),
    };
    let (outcome, known, counted, credited) = match *result {
        GameResult::Discs { black, white } => {
            let [mine, theirs] = match colour {
                Side::Black => [black, white],
                Side::White => [white, black],
            };
            let outcome = match mine.cmp(&theirs) {
                Ordering::Greater => RoundOutcome::Win,
                Ordering::Equal => RoundOutcome::Draw,
                Ordering::Less => RoundOutcome::Loss,
            };
            (outcome, Known::Discs, Some([mine, theirs]), Some(mine))
        }
        GameResult::Winner(w) => {
            let (o, d) = uncounted(w);
            (o, Known::WinnerOnly, None, Some(d))
        }
        GameResult::Forfeit { winner } => {
            let (o, d) = uncounted(Some(winner));
            (o, Known::Forfeit, None, Some(d))
        }
        GameResult::DoubleForfeit => (RoundOutcome::Loss, Known::Forfeit, None, None),
        GameResult::Unfinished => (RoundOutcome::Pending, Known::Unfinished, None, None),
    };
    Seen {
        pairing,
        opponent: Some(opponent),
        colour: Some(colour),
        outcome,
        known,
        counted,
        credited,
    }
}

/// Each player's pairings, in round order, after checking there is at most one a round.
fn by_player(
    pairings: &[Pairing],
    scale: DiscScale,
) -> Result<BTreeMap<&str, Vec<Seen<'_>>>, StandingsError> {
    let mut problems = Vec::new();
    let mut first_in_round: HashMap<(&str, &Round), PairingSource> = HashMap::new();
    let mut players: BTreeMap<&str, Vec<Seen<'_>>> = BTreeMap::new();
    for p in pairings {
        let names = p.players();
        if names.iter().any(|n| n.is_empty()) {
            problems.push(Problem::NoName { source: p.source });
            continue;
        }
        if let Seat::Game {
            result: GameResult::Discs { black, white },
            ..
        } = p.seat
        {
            if u32::from(black) + u32::from(white) > scale.squares {
                problems.push(Problem::TooManyDiscs {
                    black,
                    white,
                    squares: scale.squares,
                    source: p.source,
                });
            }
        }
        if names.len() == 2 && names[0] == names[1] {
            problems.push(Problem::AgainstSelf {
                player: names[0].to_owned(),
                source: p.source,
            });
            continue;
        }
        for (i, name) in names.iter().enumerate() {
            if let Some(first) = first_in_round.insert((name, &p.round), p.source) {
                problems.push(Problem::TwiceInRound {
                    player: (*name).to_owned(),
                    round: p.round.clone(),
                    first,
                    second: p.source,
                });
            }
            let colour = if i == 0 { Side::Black } else { Side::White };
            players
                .entry(name)
                .or_default()
                .push(seen(p, colour, scale));
        }
    }
    if !problems.is_empty() {
        return Err(StandingsError { problems });
    }
    for seen in players.values_mut() {
        seen.sort_by(|a, b| a.pairing.round.cmp(&b.pairing.round));
    }
    Ok(players)
}

/// The withdrawn players: those given, or those without a pairing in the last round.
fn withdrawn<'a>(
    players: &BTreeMap<&'a str, Vec<Seen<'_>>>,
    rounds: &[Round],
    given: Option<&[String]>,
) -> Result<BTreeSet<&'a str>, StandingsError> {
    let Some(given) = given else {
        let last = rounds.last();
        return Ok(players
            .iter()
            .filter(|(_, seen)| seen.iter().all(|s| Some(&s.pairing.round) != last))
            .map(|(name, _)| *name)
            .collect());
    };
    let mut out = BTreeSet::new();
    let mut problems = Vec::new();
    for name in given {
        match players.get_key_value(name.trim()) {
            Some((key, _)) => {
                out.insert(*key);
            }
            None => problems.push(Problem::UnknownWithdrawn {
                player: name.clone(),
            }),
        }
    }
    if problems.is_empty() {
        Ok(out)
    } else {
        Err(StandingsError { problems })
    }
}

/// A player's totals before ranking.
struct Totals {
    halves: u32,
    bq: u32,
    discs: u32,
}

fn totals(
    scale: DiscScale,
    seen: &[Seen<'_>],
    halves_of: &BTreeMap<&str, u32>,
    withdrawn: &BTreeSet<&str>,
) -> Totals {
    let own: u32 = seen.iter().map(|s| s.outcome.halves()).sum();
    // 6 times the points is 3 times the half points.
    let weighted = |halves: u32| BQ_POINTS_WEIGHT / 2 * halves;
    let (mut bq, mut discs) = (0, 0);
    for s in seen {
        match (s.opponent, s.credited) {
            (None, _) => {
                bq += scale.bye + weighted(own);
                discs += scale.bye;
            }
            (Some(_), None) => {}
            (Some(opponent), Some(credited)) => {
                discs += u32::from(credited);
                bq += if withdrawn.contains(opponent) {
                    scale.bye + weighted(own)
                } else {
                    u32::from(credited) + weighted(halves_of.get(opponent).copied().unwrap_or(0))
                };
            }
        }
    }
    Totals {
        halves: own,
        bq,
        discs,
    }
}

impl Standings {
    /// Ranks the players of `pairings` by points, then BQ, then discs (then name, for a
    /// stable order; a full tie shares the rank). Refuses pairings that put a player twice in
    /// a round, against themselves or without a name, and counts beyond the board's squares, naming
    /// each problem's games.
    ///
    /// ```
    /// use reversi_check::event::standings::{GameResult, Pairing, Standings};
    /// let pairings = [
    ///     Pairing::game("1", "Ann", "Bob", GameResult::Unfinished).from_game(1, 1),
    ///     Pairing::game("1", "Bob", "Cid", GameResult::Winner(None)).from_game(1, 2),
    /// ];
    /// let err = Standings::compute(&pairings, &Default::default()).unwrap_err();
    /// assert_eq!(
    ///     err.to_string(),
    ///     "the pairings cannot be ranked:\n  Bob is paired twice in round 1: file 1, game 1 and file 1, game 2"
    /// );
    /// ```
    pub fn compute(
        pairings: &[Pairing],
        options: &StandingsOptions,
    ) -> Result<Standings, StandingsError> {
        let scale = DiscScale::of(options.squares);
        let players = by_player(pairings, scale)?;
        let rounds: Vec<Round> = pairings
            .iter()
            .map(|p| p.round.clone())
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let withdrawn = withdrawn(&players, &rounds, options.withdrawn.as_deref())?;
        let halves_of: BTreeMap<&str, u32> = players
            .iter()
            .map(|(name, seen)| (*name, seen.iter().map(|s| s.outcome.halves()).sum()))
            .collect();
        let mut order: Vec<(&str, Totals)> = players
            .iter()
            .map(|(name, seen)| (*name, totals(scale, seen, &halves_of, &withdrawn)))
            .collect();
        order.sort_by(|(a, ta), (b, tb)| {
            (tb.halves, tb.bq, tb.discs)
                .cmp(&(ta.halves, ta.bq, ta.discs))
                .then_with(|| a.cmp(b))
        });
        let number_of: HashMap<&str, usize> = order
            .iter()
            .enumerate()
            .map(|(i, (name, _))| (*name, i + 1))
            .collect();
        let key = |t: &Totals| (t.halves, t.bq, t.discs);
        let mut lines = Vec::with_capacity(order.len());
        for (i, (name, t)) in order.iter().enumerate() {
            let rank = order[..i]
                .iter()
                .position(|(_, u)| key(u) == key(t))
                .unwrap_or(i)
                + 1;
            let shared = order.iter().filter(|(_, u)| key(u) == key(t)).count() > 1;
            let seen = players.get(name).map(Vec::as_slice).unwrap_or(&[]);
            let mut line = line(name, seen, &rounds, &number_of);
            line.number = i + 1;
            line.rank = rank;
            line.shared = shared;
            line.points = Points(t.halves);
            line.bq = t.bq;
            line.discs = t.discs;
            line.withdrawn = withdrawn.contains(name);
            lines.push(line);
        }
        let unfinished = pairings
            .iter()
            .filter(|p| {
                matches!(
                    p.seat,
                    Seat::Game {
                        result: GameResult::Unfinished,
                        ..
                    }
                )
            })
            .map(|p| p.source)
            .collect();
        Ok(Standings {
            event: options.event.clone(),
            rounds,
            players: lines,
            unfinished,
        })
    }
}

/// A player's line with the crosstable and counts filled in (numbers and totals not yet).
fn line(
    name: &str,
    seen: &[Seen<'_>],
    rounds: &[Round],
    number_of: &HashMap<&str, usize>,
) -> PlayerStanding {
    let count = |f: &dyn Fn(&Seen<'_>) -> bool| seen.iter().filter(|s| f(s)).count() as u32;
    let scored = |s: &Seen<'_>| s.opponent.is_some() && s.outcome != RoundOutcome::Pending;
    let cells = rounds
        .iter()
        .map(|round| {
            seen.iter()
                .find(|s| &s.pairing.round == round)
                .map(|s| CrosstableCell {
                    round: round.clone(),
                    board: s.pairing.board.clone(),
                    opponent: s.opponent.and_then(|o| number_of.get(o).copied()),
                    colour: s.colour,
                    discs: s.counted,
                    outcome: s.outcome,
                    known: s.known,
                    source: s.pairing.source,
                })
        })
        .collect();
    PlayerStanding {
        number: 0,
        rank: 0,
        shared: false,
        name: name.to_owned(),
        points: Points(0),
        bq: 0,
        discs: 0,
        games: count(&scored),
        wins: count(&|s| scored(s) && s.outcome == RoundOutcome::Win),
        draws: count(&|s| scored(s) && s.outcome == RoundOutcome::Draw),
        losses: count(&|s| scored(s) && s.outcome == RoundOutcome::Loss),
        byes: count(&|s| s.opponent.is_none()),
        unfinished: count(&|s| s.outcome == RoundOutcome::Pending),
        black: count(&|s| s.colour == Some(Side::Black)),
        white: count(&|s| s.colour == Some(Side::White)),
        withdrawn: false,
        rounds: cells,
    }
}
