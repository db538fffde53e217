//! Which event each paired game belongs to: the games of one `Event` tag, and within one
//! tag, of one set of rules (a 10x10 side event played under the main event's name is its
//! own event). The checks across games and the standings both group games this way, so
//! that a player of the main event and of its side event is never "twice in round 1".
//!
//! Only games with a round are grouped: an archive's games cost nothing here.

use std::collections::{HashMap, HashSet};

use super::names::normalise;
use super::schedule::{is_bye_word, Schedule, Scheduled};
use super::{Event, Field};
use crate::engine::Rules;

/// One event of a run: its games share an `Event` tag (compared ignoring case and spacing)
/// and their rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Section {
    /// The event's name as its first game spells it (`None`: its games name no event).
    pub event: Option<String>,
    /// The rules its games are played under.
    pub rules: Rules,
    /// Whether other games of the same `Event` tag are played under other rules: the
    /// section is then named with its rules too.
    pub shares_name: bool,
}

impl Section {
    /// The section's heading: the event's name, with the rules when they are not 8x8
    /// Othello or when the name is shared with another section
    /// (`Paris Open (othello:10x10)`); `None` for unnamed games of the usual rules.
    pub fn heading(&self) -> Option<String> {
        let usual = self.rules == Rules::default() && !self.shares_name;
        match (&self.event, usual) {
            (Some(name), true) => Some(name.clone()),
            (Some(name), false) => Some(format!("{name} ({})", self.rules)),
            (None, true) => None,
            (None, false) => Some(self.rules.to_string()),
        }
    }
}

/// The sections of a run's games, in the order of their first games.
#[derive(Clone, Debug, Default)]
pub struct Sections {
    list: Vec<Section>,
    /// Per game: its section's index, or [`Sections::NONE`] for a game without a round.
    of: Vec<u32>,
}

impl Sections {
    const NONE: u32 = u32::MAX;

    /// The sections of `event`'s games with a round. When the games name one event at
    /// most, the games that name none belong to it; with several, the unnamed games are an
    /// event of their own.
    pub fn of(event: &Event) -> Sections {
        let games = event.games();
        // The `Event` tag of each game with a round, normalised.
        let mut names: HashMap<String, u32> = HashMap::new();
        let mut spelled: Vec<&str> = Vec::new();
        let named: Vec<Option<u32>> = games
            .iter()
            .map(|g| {
                event.field_id(g, Field::Round)?;
                let text = event.field(g, Field::Event)?;
                let key = super::names::normalise(text, false);
                let next = names.len() as u32;
                let id = *names.entry(key).or_insert(next);
                if id == next {
                    spelled.push(text);
                }
                Some(id)
            })
            .collect();
        let one_name = names.len() <= 1;
        let mut index: HashMap<(Option<u32>, Rules), u32> = HashMap::new();
        let mut rules_of_name: HashMap<Option<u32>, Vec<Rules>> = HashMap::new();
        let mut sections = Sections {
            list: Vec::new(),
            of: Vec::with_capacity(games.len()),
        };
        for (g, name) in games.iter().zip(&named) {
            if event.field_id(g, Field::Round).is_none() {
                sections.of.push(Sections::NONE);
                continue;
            }
            let name = if one_name {
                names.values().next().copied()
            } else {
                *name
            };
            let rules = event.rules(g);
            let next = sections.list.len() as u32;
            let k = *index.entry((name, rules)).or_insert(next);
            if k == next {
                sections.list.push(Section {
                    event: name.map(|n| spelled[n as usize].to_owned()),
                    rules,
                    shares_name: false,
                });
                rules_of_name.entry(name).or_default().push(rules);
            }
            sections.of.push(k);
        }
        for (&(name, _), &k) in &index {
            let shared = rules_of_name.get(&name).is_some_and(|r| r.len() > 1);
            sections.list[k as usize].shares_name = shared;
        }
        sections
    }

    /// The sections, in the order of their first games.
    pub fn list(&self) -> &[Section] {
        &self.list
    }

    /// The section of game `k` (its index in [`Event::games`]); `None` without a round.
    pub fn of_game(&self, k: usize) -> Option<usize> {
        let s = *self.of.get(k)?;
        (s != Sections::NONE).then_some(s as usize)
    }

    /// The section each line of `schedule` belongs to (`None` when there is no section):
    /// the one whose games have its players (its player, for a bye or a withdrawal), the
    /// one with a game of that round and those players when several have them; any other
    /// line to the section whose players the schedule names most. One pairings file can
    /// so hold a main event and its side event, and a file of one event leaves the
    /// other's games alone.
    pub fn of_pairings(&self, event: &Event, schedule: &Schedule) -> Vec<Option<usize>> {
        let key = |name: &str| {
            let name = event.registered(name).map_or(name, |p| p.name.as_str());
            normalise(name, false)
        };
        let mut players: Vec<HashSet<String>> = vec![HashSet::new(); self.list.len()];
        let mut played: HashSet<(usize, String, String, String)> = HashSet::new();
        for (k, g) in event.games().iter().enumerate() {
            let Some(s) = self.of_game(k) else { continue };
            let names = [Field::Black, Field::White].map(|f| event.field(g, f).map(key));
            for name in names.iter().flatten() {
                players[s].insert(name.clone());
            }
            if let ([Some(b), Some(w)], Some(round)) = (names, event.field(g, Field::Round)) {
                let (b, w) = if b <= w { (b, w) } else { (w, b) };
                played.insert((s, normalise(round, true), b, w));
            }
        }
        let named = |line: &Scheduled| -> Vec<String> {
            [&line.black, &line.white]
                .into_iter()
                .filter(|n| !n.trim().is_empty() && !is_bye_word(n))
                .map(|n| key(n))
                .collect()
        };
        let lines: Vec<Vec<String>> = schedule.pairings().iter().map(named).collect();
        let best = (0..self.list.len()).max_by_key(|&s| {
            let count = lines
                .iter()
                .filter(|names| names.first().is_some_and(|n| players[s].contains(n)))
                .count();
            (count, usize::MAX - s)
        });
        schedule
            .pairings()
            .iter()
            .zip(&lines)
            .map(|(line, names)| {
                let holding: Vec<usize> = (0..self.list.len())
                    .filter(|&s| !names.is_empty() && names.iter().all(|n| players[s].contains(n)))
                    .collect();
                let game_of = |s: usize| match names.as_slice() {
                    [a, b] => {
                        let (a, b) = if a <= b { (a, b) } else { (b, a) };
                        played.contains(&(s, normalise(&line.round, true), a.clone(), b.clone()))
                    }
                    _ => false,
                };
                match holding.as_slice() {
                    [] => best,
                    [one] => Some(*one),
                    several => several
                        .iter()
                        .copied()
                        .find(|&s| game_of(s))
                        .or(Some(several[0])),
                }
            })
            .collect()
    }
}
