//! Copies removed: of the games that are one game, which copy an archive keeps.
//!
//! The copies are the ones `validate` names (`duplicate-game`, [`Event::copy_groups`]):
//! the same moves from the same start under the same rules, as written ([`Copies::Exact`])
//! or under one of the board's symmetries too ([`Copies::Symmetric`]: a record read upside
//! down, a phone entry turned), between the same players (or with a name not given: two
//! programs that play the same line against other opponents played two games). Of each group the copy with the most information is kept
//! ([`Information`]: its players, its result, its event, round and date, whether it
//! replays without an error, how many tags it has); on a tie, the first in the order of
//! the inputs.
//!
//! ```
//! use reversi_runs::archive::dedupe::{plan, Copies};
//! use reversi_check::event::Event;
//! use reversi_formats::{Format, ReadOptions};
//! let bare = Format::MoveString.read_bytes("f5d6c3d3c4\n", &ReadOptions::default()).unwrap();
//! let named = Format::Rgn
//!     .read_bytes("[Black \"Ann\"]\n[White \"Bob\"]\n\nf5 d6 c3 d3 c4 *\n", &ReadOptions::default())
//!     .unwrap();
//! let mut event = Event::default();
//! event.add_games("bare.txt", &bare);
//! event.add_games("named.rgn", &named);
//! let plan = plan(&event, Copies::Exact);
//! // The named copy is kept, though it comes second.
//! assert!(plan.drops(0, 1) && !plan.drops(1, 1));
//! assert_eq!(
//!     plan.dropped()[0].to_string(),
//!     "game 1 of bare.txt is a copy of game 1 of named.rgn (Ann vs Bob), kept: it names its players"
//! );
//! ```

use std::collections::{HashMap, HashSet};
use std::fmt;

use crate::event::{Event, EventGame, Field, GameRef, Symmetry};

/// Which games are copies of one another.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Copies {
    /// The same moves as written.
    #[default]
    Exact,
    /// The same moves, or the same under one of the board's symmetries.
    Symmetric,
}

/// What a copy holds, in the order it counts: players named, a result, event, round
/// and date, and a replay without errors.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub struct Information {
    /// Black and White named (0 to 2).
    pub players: u8,
    /// A result claimed.
    pub result: bool,
    /// Event, round and date given (0 to 3).
    pub identity: u8,
    /// Replays without an error.
    pub valid: bool,
    /// Its tags with a value, up to 15 (a WTHOR record's theoretical score and indexes,
    /// a PGN export's extra tags): the last word.
    pub tags: u8,
}

impl Information {
    /// What `game` of `event` holds.
    pub fn of(event: &Event, game: &EventGame) -> Information {
        let has = |f: Field| u8::from(event.field(game, f).is_some_and(|v| !v.trim().is_empty()));
        Information {
            players: has(Field::Black) + has(Field::White),
            result: !matches!(game.claimed(), crate::event::Claimed::Nothing),
            identity: has(Field::Event) + has(Field::Round) + has(Field::Date),
            valid: game.valid(),
            tags: game.tags(),
        }
    }

    /// Why a copy holding `self` is kept over one holding `other`, in words.
    fn over(&self, other: &Information) -> &'static str {
        if self.players > other.players {
            "it names its players"
        } else if self.result && !other.result {
            "it gives the result"
        } else if self.identity > other.identity {
            "it names its event, round or date"
        } else if self.valid && !other.valid {
            "it replays without an error"
        } else if self.tags > other.tags {
            "it has more tags"
        } else {
            "the same information, and it comes first"
        }
    }
}

/// A copy left out, with the copy kept and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Dropped {
    /// The copy left out.
    pub game: GameRef,
    /// The copy kept instead.
    pub kept: GameRef,
    /// The symmetry that takes the kept copy's moves to this one's (`Identity`: as written).
    pub symmetry: Symmetry,
    /// Why that one is kept.
    pub why: &'static str,
}

impl fmt::Display for Dropped {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} is a copy of {}", self.game, self.kept)?;
        if self.symmetry != Symmetry::Identity {
            write!(f, ", its moves {}", self.symmetry.describe())?;
        }
        write!(f, ", kept: {}", self.why)
    }
}

/// Which copies to leave out: by input (its number in [`Event::input_name`]'s order) and
/// game number.
#[derive(Clone, Debug, Default)]
pub struct Plan {
    dropped: Vec<Dropped>,
    by_input: HashMap<u32, HashSet<usize>>,
}

impl Plan {
    /// Whether game `game` (from 1) of input `input` (from 0) is left out.
    pub fn drops(&self, input: u32, game: usize) -> bool {
        self.by_input.get(&input).is_some_and(|g| g.contains(&game))
    }

    /// The game numbers of input `input` left out.
    pub fn dropped_from(&self, input: u32) -> Option<&HashSet<usize>> {
        self.by_input.get(&input)
    }

    /// Every copy left out, in the order of the inputs and games.
    pub fn dropped(&self) -> &[Dropped] {
        &self.dropped
    }
}

/// `part` split into the games that can be one game by their players: each Black and
/// White the same (ignoring case, accents and spacing) or not given. In the games' order.
fn same_players(event: &Event, part: Vec<usize>) -> Vec<Vec<usize>> {
    let games = event.games();
    let names = |k: usize| {
        [Field::Black, Field::White].map(|f| {
            event
                .field(&games[k], f)
                .map(crate::record::fold_name)
                .filter(|n| !n.is_empty())
        })
    };
    let agree = |a: &Option<String>, b: &Option<String>| a.is_none() || b.is_none() || a == b;
    // Each cluster: its games, and the names its games give.
    let mut clusters: Vec<(Vec<usize>, [Option<String>; 2])> = Vec::new();
    for k in part {
        let mine = names(k);
        let found = clusters
            .iter_mut()
            .find(|(_, known)| agree(&known[0], &mine[0]) && agree(&known[1], &mine[1]));
        match found {
            Some((members, known)) => {
                members.push(k);
                for (slot, name) in known.iter_mut().zip(mine) {
                    if slot.is_none() {
                        *slot = name;
                    }
                }
            }
            None => clusters.push((vec![k], mine)),
        }
    }
    clusters.into_iter().map(|(members, _)| members).collect()
}

/// The copies of `event`'s games to leave out, keeping one game of each group.
pub fn plan(event: &Event, copies: Copies) -> Plan {
    let games = event.games();
    let mut plan = Plan::default();
    let mut dropped: Vec<((u32, u32), Dropped)> = Vec::new();
    for group in event.copy_groups() {
        // Exact copies: those the same symmetry takes to the canonical moves.
        let mut parts: Vec<Vec<usize>> = Vec::new();
        match copies {
            Copies::Symmetric => parts.push(group),
            Copies::Exact => {
                let mut by: HashMap<Symmetry, usize> = HashMap::new();
                for k in group {
                    let s = games[k].moves().to_canonical;
                    let at = *by.entry(s).or_insert_with(|| {
                        parts.push(Vec::new());
                        parts.len() - 1
                    });
                    parts[at].push(k);
                }
            }
        }
        // Two games with the same moves between other players are two games (programs
        // repeat their lines): copies name the same players, or leave them out.
        let parts: Vec<Vec<usize>> = parts
            .into_iter()
            .flat_map(|part| same_players(event, part))
            .collect();
        for part in parts.into_iter().filter(|p| p.len() > 1) {
            let info = |k: usize| Information::of(event, &games[k]);
            // The most information; on a tie the first (the group is in input order).
            let Some(&kept) = part.iter().rev().max_by_key(|&&k| info(k)) else {
                continue;
            };
            for &k in part.iter().filter(|&&k| k != kept) {
                let game = &games[k];
                plan.by_input
                    .entry(game.input)
                    .or_default()
                    .insert(game.index as usize);
                let symmetry = games[kept]
                    .moves()
                    .symmetry_to(&game.moves())
                    .unwrap_or(Symmetry::Identity);
                let d = Dropped {
                    game: event.game_ref(game),
                    kept: event.game_ref(&games[kept]),
                    symmetry,
                    why: info(kept).over(&info(k)),
                };
                dropped.push(((game.input, game.index), d));
            }
        }
    }
    dropped.sort_by_key(|(at, _)| *at);
    plan.dropped = dropped.into_iter().map(|(_, d)| d).collect();
    plan
}
