//! From games to standings: each game's pairing and the result it counts with (the board's
//! when the game was replayed to its end, the record's claim otherwise), with a note for
//! every game that is left out or whose claim and board disagree (`spec/standings.md`).

use std::collections::HashMap;
use std::fmt;

use serde::Serialize;

use super::schedule::is_bye_word;
use super::standings::{self, GameResult, Problem, Seat, Side};
use super::{Claimed, Event, EventGame, Field, GameRef, NameId, Schedule, Section, Sections};
use crate::engine::Color;
use crate::record::Termination;

/// Why a game is left out, when many games may share the reason.
const NO_ROUND: &str = "it has no Round tag";
const NO_PLAYERS: &str = "it does not name both players";
const TWO_BYES: &str = "both players are byes";

/// How many games of one input are noted one by one for one of the reasons above; the
/// rest are counted in one note.
const NOTES_A_REASON: usize = 100;

/// What happened to one game on its way to the standings.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Note {
    /// The game.
    pub game: GameRef,
    /// What was done with it, and why.
    pub message: String,
    /// Whether the game was left out of the standings.
    pub left_out: bool,
}

impl fmt::Display for Note {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.game, self.message)
    }
}

/// The pairings of a run's games, ready for [`standings::Standings::compute`], by event,
/// and the notes on the way.
#[derive(Clone, Debug, Default)]
pub struct Tally {
    /// One pairing a game (`source`: the game's input and number in it), those of each
    /// section together, each section's in the order of its games.
    pub pairings: Vec<standings::Pairing>,
    /// The events the pairings belong to, and which of `pairings` each has.
    pub sections: Vec<(Section, std::ops::Range<usize>)>,
    /// Every game left out, and every result the board settles against the record.
    pub notes: Vec<Note>,
}

impl Tally {
    /// The pairings of each section, in the order of the sections' first games.
    pub fn by_section(&self) -> impl Iterator<Item = (&Section, &[standings::Pairing])> {
        self.sections
            .iter()
            .map(|(section, range)| (section, self.pairings.get(range.clone()).unwrap_or(&[])))
    }
}

fn side(color: Color) -> Option<Side> {
    match color {
        Color::Black => Some(Side::Black),
        Color::White => Some(Side::White),
        _ => None,
    }
}

fn score_text([black, white]: [u8; 2]) -> String {
    format!("{black}-{white}")
}

impl Event {
    /// The pairings and results the games give, for the standings.
    ///
    /// A game counts with its board's result when it was replayed legally to the end (a
    /// claim that differs is noted); otherwise with its claim: disc counts, a margin (the
    /// counts it gives on 8x8), a winner, or the loser of a resignation or a time loss; a
    /// game without moves that names a winner is a forfeit. A game against `bye` (or `-`)
    /// is a bye. Left out, with a note: a copy of an earlier game (`duplicate-game`), a
    /// game without a round or a player's name.
    ///
    /// ```
    /// use reversi_check::event::Event;
    /// use reversi_check::event::standings::{Standings, StandingsOptions};
    /// use reversi_formats::{Format, ReadOptions};
    /// let text = "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"1-0\"]\n\n\
    ///             [Round \"1\"]\n[Black \"Cy\"]\n[White \"bye\"]\n";
    /// let mut event = Event::default();
    /// event.add_games("r1.rgn", &Format::Rgn.read_bytes(text, &ReadOptions::default()).unwrap());
    /// let tally = event.tally();
    /// let standings = Standings::compute(&tally.pairings, &StandingsOptions::default()).unwrap();
    /// let names: Vec<&str> = standings.players.iter().map(|p| p.name.as_str()).collect();
    /// // One point each for Ann and Cy; Cy's bye is worth a BQ of 32 + 6 x 1 = 38, Ann's
    /// // winner-only win 33 + 6 x 0 (Bob's points) = 33.
    /// assert_eq!(names, ["Cy", "Ann", "Bob"]);
    /// ```
    pub fn tally(&self) -> Tally {
        self.tally_with(None)
    }

    /// [`Event::tally`] with the director's pairings: of two copies of one game, the one
    /// whose round, players and colours are a pairing's counts (the other may be the same
    /// sheet read from the other side, or entered under another round), with a note that
    /// says why; without such a difference, the first read.
    pub fn tally_with(&self, pairings: Option<&Schedule>) -> Tally {
        let copies = super::checks::Copies::of(self);
        // Each copy's game and the one of its copies that counts.
        let kept = self.kept_copies(&copies, pairings);
        let sections = Sections::of(self);
        let parts = self.unfinished_parts(&sections, &|k| copies.first(k).is_some());
        let spelling = self.spellings();
        let mut tally = Tally::default();
        // The section of each pairing.
        let mut section_of: Vec<usize> = Vec::new();
        // An archive without rounds would have a note for each of its games: past
        // `NOTES_A_REASON` of one input for one reason, they are counted, and said at the end.
        let mut unsaid: HashMap<(u32, &'static str), usize> = HashMap::new();
        for (k, game) in self.games().iter().enumerate() {
            let at = || self.game_ref(game);
            if let Some(&(counted, line)) = kept.get(&k) {
                if counted != k {
                    let original = self.game_ref(&self.games()[counted]);
                    let why = match line {
                        Some(line) => format!(
                            ", which matches its pairing (line {line} of the pairings): that one counts"
                        ),
                        None => String::new(),
                    };
                    tally.notes.push(Note {
                        game: at(),
                        message: format!("left out: the same game as {original}{why}"),
                        left_out: true,
                    });
                    continue;
                }
            }
            if let Some(&finished) = parts.get(&k) {
                let finished = self.game_ref(&self.games()[finished]);
                tally.notes.push(Note {
                    game: at(),
                    message: format!(
                        "left out: an unfinished record (an adjourned game) that {finished} finishes: that one counts"
                    ),
                    left_out: true,
                });
                continue;
            }
            // One of the reasons many games of an archive may share: noted the first
            // `NOTES_A_REASON` times an input gives it, then counted.
            let mut leave_out = |reason: &'static str| {
                let said = unsaid.entry((game.input, reason)).or_default();
                *said += 1;
                if *said <= NOTES_A_REASON {
                    tally.notes.push(Note {
                        game: at(),
                        message: format!("left out: {reason}"),
                        left_out: true,
                    })
                }
            };
            let Some(round) = self.field(game, Field::Round) else {
                leave_out(NO_ROUND);
                continue;
            };
            let name = |field| self.field_id(game, field).map(&spelling);
            let (Some(black), Some(white)) = (name(Field::Black), name(Field::White)) else {
                leave_out(NO_PLAYERS);
                continue;
            };
            let seat = match (is_bye_word(black), is_bye_word(white)) {
                (true, true) => {
                    leave_out(TWO_BYES);
                    continue;
                }
                (false, true) => Seat::Bye {
                    player: black.to_owned(),
                },
                (true, false) => Seat::Bye {
                    player: white.to_owned(),
                },
                (false, false) => {
                    let (result, note) = self.counted(game);
                    if let Some(message) = note {
                        tally.notes.push(Note {
                            game: at(),
                            message,
                            left_out: false,
                        });
                    }
                    Seat::Game {
                        black: black.to_owned(),
                        white: white.to_owned(),
                        result,
                    }
                }
            };
            let mut pairing = standings::Pairing {
                round: standings::Round::new(round),
                board: None,
                seat,
                source: standings::PairingSource {
                    file: game.input as usize,
                    game: game.index as usize,
                },
            };
            if let Some(board) = self.field(game, Field::Board) {
                pairing = pairing.on_board(board);
            }
            tally.pairings.push(pairing);
            section_of.push(sections.of_game(k).unwrap_or(0));
        }
        // Each section's pairings together, in game order.
        let mut order: Vec<usize> = (0..tally.pairings.len()).collect();
        order.sort_by_key(|&i| section_of[i]);
        let mut pairings: Vec<Option<standings::Pairing>> = std::mem::take(&mut tally.pairings)
            .into_iter()
            .map(Some)
            .collect();
        tally.pairings = order.iter().filter_map(|&i| pairings[i].take()).collect();
        for (s, section) in sections.list().iter().enumerate() {
            let from = order.partition_point(|&i| section_of[i] < s);
            let to = order.partition_point(|&i| section_of[i] <= s);
            if from < to {
                tally.sections.push((section.clone(), from..to));
            }
        }
        let mut unsaid: Vec<((u32, &str), usize)> = unsaid
            .into_iter()
            .filter(|(_, n)| *n > NOTES_A_REASON)
            .collect();
        unsaid.sort();
        for ((input, reason), n) in unsaid {
            let last = self.games().iter().rev().find(|g| g.input == input);
            if let Some(game) = last {
                tally.notes.push(Note {
                    game: self.game_ref(game),
                    message: format!(
                        "left out, as {} more games of {}: {reason}",
                        n - NOTES_A_REASON,
                        self.input_name(input)
                    ),
                    left_out: true,
                });
            }
        }
        tally
    }

    /// Each player's name as the standings show it: the registered name when the register
    /// holds it (as a name, an alias or a login); otherwise, of the spellings that differ
    /// only in case and spacing (`tomoko ito`, `Tomoko  Ito`), the one most games use (the
    /// first met on a tie).
    fn spellings<'a>(&'a self) -> impl Fn(NameId) -> &'a str + 'a {
        let mut count: HashMap<NameId, usize> = HashMap::new();
        // Only the games with a round come to the standings.
        for game in self
            .games()
            .iter()
            .filter(|g| self.field_id(g, Field::Round).is_some())
        {
            for field in [Field::Black, Field::White] {
                if let Some(id) = self.field_id(game, field) {
                    *count.entry(id).or_default() += 1;
                }
            }
        }
        let mut best: HashMap<String, (usize, NameId)> = HashMap::new();
        let mut ids: Vec<(NameId, usize)> = count.into_iter().collect();
        ids.sort_by_key(|&(id, _)| id);
        for (id, n) in &ids {
            let key = super::names::normalise(self.name(*id), false);
            let entry = best.entry(key).or_insert((*n, *id));
            if *n > entry.0 {
                *entry = (*n, *id);
            }
        }
        let chosen: HashMap<NameId, NameId> = ids
            .iter()
            .map(|&(id, _)| {
                let key = super::names::normalise(self.name(id), false);
                (id, best.get(&key).map_or(id, |&(_, b)| b))
            })
            .collect();
        move |id| match self.registered(self.name(id)) {
            Some(player) => player.name.as_str(),
            None => self.name(chosen.get(&id).copied().unwrap_or(id)),
        }
    }

    /// For every game with copies (and each copy): the game of the group that counts, and
    /// the pairings line it matches when that decided it. Without pairings, or when no
    /// copy matches one (or the first does), the first read counts.
    fn kept_copies(
        &self,
        copies: &super::checks::Copies,
        pairings: Option<&Schedule>,
    ) -> HashMap<usize, (usize, Option<usize>)> {
        let mut groups: HashMap<usize, Vec<usize>> = HashMap::new();
        for k in 0..self.games().len() {
            if let Some(first) = copies.first(k) {
                groups.entry(first).or_insert_with(|| vec![first]).push(k);
            }
        }
        let matches = |k: usize| -> Option<usize> {
            let schedule = pairings?;
            let game = &self.games()[k];
            let key = |name: &str| match self.registered(name) {
                Some(p) => format!("\u{0}{}", p.line),
                None => super::names::normalise(name, false),
            };
            let round = super::names::normalise(self.field(game, Field::Round)?, true);
            let (black, white) = (
                key(self.field(game, Field::Black)?),
                key(self.field(game, Field::White)?),
            );
            schedule
                .pairings()
                .iter()
                .find(|p| {
                    super::names::normalise(&p.round, true) == round
                        && key(&p.black) == black
                        && key(&p.white) == white
                })
                .map(|p| p.line)
        };
        let mut kept = HashMap::new();
        for (first, members) in groups {
            let chosen = match matches(first) {
                Some(_) => (first, None),
                None => members
                    .iter()
                    .find_map(|&k| matches(k).map(|line| (k, Some(line))))
                    .unwrap_or((first, None)),
            };
            for k in members {
                kept.insert(k, chosen);
            }
        }
        kept
    }

    /// The games that are an unfinished part of another game of one pairing (the same
    /// event, round and two players, in either colour), each with the first such game that
    /// has a result: an adjourned game recorded up to the adjournment, then in full. A game
    /// with a result is never a part; `skip` leaves games out (copies).
    pub(super) fn unfinished_parts(
        &self,
        sections: &Sections,
        skip: &dyn Fn(usize) -> bool,
    ) -> HashMap<usize, usize> {
        type Pair = (usize, String, String, String);
        let key = |k: usize, game: &EventGame| -> Option<Pair> {
            let section = sections.of_game(k)?;
            let round = super::names::normalise(self.field(game, Field::Round)?, true);
            let player = |field| {
                let name = self.field(game, field)?;
                Some(match self.registered(name) {
                    Some(p) => format!("\u{0}{}", p.line),
                    None => super::names::normalise(name, false),
                })
            };
            let (a, b) = (player(Field::Black)?, player(Field::White)?);
            Some((section, round, a.clone().min(b.clone()), a.max(b)))
        };
        let mut finished: HashMap<Pair, usize> = HashMap::new();
        let mut open: Vec<(usize, Pair)> = Vec::new();
        for (k, game) in self.games().iter().enumerate() {
            if skip(k) {
                continue;
            }
            let Some(pair) = key(k, game) else { continue };
            match self.counted(game).0 {
                GameResult::Unfinished => open.push((k, pair)),
                _ => {
                    finished.entry(pair).or_insert(k);
                }
            }
        }
        open.into_iter()
            .filter_map(|(k, pair)| finished.get(&pair).map(|&f| (k, f)))
            .collect()
    }

    /// The result a game counts with, and a note when it is not simply the record's.
    fn counted(&self, game: &EventGame) -> (GameResult, Option<String>) {
        let claimed = self.claimed_result(game);
        if let Some(board @ [black, white]) = game.board() {
            let counted = GameResult::Discs { black, white };
            let note = match claimed {
                Some(GameResult::Discs { black: b, white: w }) if [b, w] != board => Some(format!(
                    "the record claims {}, the board gives {}: counted as the board gives",
                    score_text([b, w]),
                    score_text(board)
                )),
                Some(GameResult::Winner(w)) if w != winner_of(board) => Some(format!(
                    "the record names another winner than the board's {}: counted as the board gives",
                    score_text(board)
                )),
                _ => None,
            };
            return (counted, note);
        }
        let unchecked = |r: GameResult| {
            let note = (!game.valid()).then(|| {
                "the game does not replay (see its errors): its claimed result counts, unchecked"
                    .to_owned()
            });
            (r, note)
        };
        match claimed {
            Some(GameResult::Winner(Some(winner))) if game.moves().placements == 0 => {
                (GameResult::Forfeit { winner }, None)
            }
            Some(result) => unchecked(result),
            None => (GameResult::Unfinished, None),
        }
    }

    /// What the record claims, as a standings result.
    fn claimed_result(&self, game: &EventGame) -> Option<GameResult> {
        let squares = self.rules(game).playable().len().min(255) as i32;
        match game.claimed() {
            Claimed::Discs([black, white]) => Some(GameResult::Discs { black, white }),
            // A whole margin of the board's parity gives the counts (under WOF scoring the
            // empties go to the winner, so the counts fill the board).
            Claimed::Margin(m)
                if m.fract() == 0.0
                    && m.abs() <= squares as f32
                    && (squares + m as i32) % 2 == 0 =>
            {
                let black = ((squares + m as i32) / 2).clamp(0, squares);
                Some(GameResult::Discs {
                    black: black as u8,
                    white: (squares - black) as u8,
                })
            }
            Claimed::Margin(m) => Some(GameResult::Winner(match m {
                m if m > 0.0 => Some(Side::Black),
                m if m < 0.0 => Some(Side::White),
                _ => None,
            })),
            Claimed::Winner(w) => Some(GameResult::Winner(w.and_then(side))),
            Claimed::Nothing | Claimed::Other => match game.termination() {
                Termination::Resignation(Some(loser)) | Termination::Time(Some(loser)) => {
                    side(loser).map(|s| GameResult::Winner(Some(s.other())))
                }
                _ => None,
            },
        }
    }

    /// A standings problem in the event's terms: its games named by file, number and
    /// players.
    pub fn explain(&self, problem: &Problem) -> String {
        let name = |source: &standings::PairingSource| {
            self.games()
                .iter()
                .find(|g| g.input as usize == source.file && g.index as usize == source.game)
                .map_or_else(|| source.to_string(), |g| self.game_ref(g).to_string())
        };
        match problem {
            Problem::TwiceInRound {
                player,
                round,
                first,
                second,
            } => format!(
                "{player} has two games in round {round}: {} and {}",
                name(first),
                name(second)
            ),
            Problem::AgainstSelf { player, source } => {
                format!("{player} plays against themselves in {}", name(source))
            }
            Problem::NoName { source } => format!("{} names no player", name(source)),
            Problem::TooManyDiscs {
                black,
                white,
                squares,
                source,
            } => format!(
                "{} claims {black}-{white}, more than the {squares} discs of the board",
                name(source)
            ),
            Problem::UnknownWithdrawn { player } => {
                format!("{player} is given as withdrawn but plays no game")
            }
        }
    }
}

/// The winner of final counts (`None`: a draw).
fn winner_of([black, white]: [u8; 2]) -> Option<Side> {
    match black.cmp(&white) {
        std::cmp::Ordering::Greater => Some(Side::Black),
        std::cmp::Ordering::Less => Some(Side::White),
        std::cmp::Ordering::Equal => None,
    }
}
