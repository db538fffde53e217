//! Checks across games: the same game twice (also under the board's symmetries), a player
//! in two games of one round, the same pairing twice, and the games against the pairings a
//! director made. Each finding names every game it is about; the work is linear in the
//! number of games (hash maps over keys, never game against game).

use std::collections::{HashMap, HashSet};
use std::fmt;
use std::hash::BuildHasher;

use serde::Serialize;

use super::names::normalise;
use super::schedule::{is_bye_word, LineStatus};
use super::{Event, EventGame, Field, NameId, Schedule, Scheduled};
use crate::codes::Code;
use crate::diagnostic::Severity;
use crate::record::Identity;

/// Games shorter than this may really have been played twice; a duplicate's message says so.
const SHORT_GAME: u16 = 20;

/// A game a finding is about: its file, number and identity.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct GameRef {
    /// The file it was read from (`-` for standard input).
    pub file: String,
    /// Its number in the file, from 1.
    pub game: usize,
    /// Who played it, and where, when its tags say.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub identity: Option<Identity>,
}

impl fmt::Display for GameRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "game {} of {}", self.game, self.file)?;
        match self.identity.as_ref().map(Identity::to_string) {
            Some(who) if !who.is_empty() => write!(f, " ({who})"),
            _ => Ok(()),
        }
    }
}

/// One problem across games.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Finding {
    /// Its stable code (`duplicate-game`, `player-twice-in-round`, ...).
    pub code: Code,
    /// Error or warning.
    pub severity: Severity,
    /// What is wrong, naming the games.
    pub message: String,
    /// How to fix it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub help: Option<String>,
    /// The games it is about, the earlier first (none for a pairing without a game).
    pub games: Vec<GameRef>,
}

/// As the terminal shows a game's diagnostic: the code, then the message marked `x` (an
/// error) or `!`, then the help; control characters from the records escaped.
///
/// ```
/// use reversi_check::event::Event;
/// use reversi_formats::{Format, ReadOptions};
/// let games = Format::MoveString.read_bytes("f5d6c3\nf5d6c3\n", &ReadOptions::default()).unwrap();
/// let mut event = Event::default();
/// event.add_games("a.txt", &games);
/// let text = event.check(None)[0].to_string();
/// assert!(text.starts_with("duplicate-game\n\n  ! game 2 of a.txt is the same game as game 1 of a.txt"));
/// ```
impl fmt::Display for Finding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mark = match self.severity {
            Severity::Error => 'x',
            _ => '!',
        };
        let escaped = crate::diagnostic::escape_controls;
        write!(
            f,
            "{}\n\n  {mark} {}\n",
            self.code.name(),
            escaped(&self.message)
        )?;
        if let Some(help) = &self.help {
            writeln!(f, "  help: {}", escaped(help))?;
        }
        Ok(())
    }
}

/// The players' names, compared ignoring case and spacing.
struct Normal {
    of: HashMap<NameId, u32>,
    /// The key of each normalised text.
    keys: HashMap<String, u32>,
}

impl Normal {
    /// The names the checks compare: every game's event and round, and the players of the
    /// games with a round (an archive's players are never compared, and cost nothing).
    fn new(event: &Event) -> Normal {
        let mut keys: HashMap<String, u32> = HashMap::new();
        let mut of = HashMap::new();
        // Games in a row share their event: its id is looked up once.
        let mut last_event = None;
        for game in event.games() {
            if event.field_id(game, Field::Round).is_none() {
                let id = event.field_id(game, Field::Event);
                if id.is_none() || id == last_event {
                    continue;
                }
                last_event = id;
            }
            let fields: &[Field] = match event.field_id(game, Field::Round) {
                Some(_) => &[Field::Black, Field::White, Field::Round, Field::Event],
                None => &[Field::Event],
            };
            for &field in fields {
                let Some(id) = event.field_id(game, field) else {
                    continue;
                };
                if of.contains_key(&id) {
                    continue;
                }
                let text = event.name(id);
                // A registered player is one key, whatever spelling or login a game has.
                let key = match field {
                    Field::Black | Field::White => match event.registered(text) {
                        Some(player) => format!("\u{0}{}", player.line),
                        None => normalise(text, false),
                    },
                    _ => normalise(text, field == Field::Round),
                };
                let next = keys.len() as u32;
                of.insert(id, *keys.entry(key).or_insert(next));
            }
        }
        Normal { of, keys }
    }

    /// The key of a text from outside the games (a schedule's), if a game has it.
    fn key(&self, text: &str, round: bool) -> Option<u32> {
        self.keys.get(&normalise(text, round)).copied()
    }

    /// The key of a player's name from outside the games (a schedule's), if a game has the
    /// player.
    fn player_key(&self, event: &Event, text: &str) -> Option<u32> {
        match event.registered(text) {
            Some(player) => self.keys.get(&format!("\u{0}{}", player.line)).copied(),
            None => self.key(text, false),
        }
    }

    fn get(&self, event: &Event, game: &EventGame, field: Field) -> Option<u32> {
        event
            .field_id(game, field)
            .and_then(|id| self.of.get(&id).copied())
    }
}

/// The games that are the same game: for each game, the first earlier game with the same
/// moves (under the rules and the start's symmetries), if any. Found with an
/// open-addressing table of the first game of each key, placed by the key's hash (itself a
/// hash of the moves, mixed with a seed of the run's so that no input can crowd one
/// place): eight bytes a game while the checks run, and a few instructions a game.
pub(super) struct Copies(Vec<u32>);

impl Copies {
    const NONE: u32 = u32::MAX;

    pub(super) fn of(event: &Event) -> Copies {
        let games = event.games();
        let key = |g: &EventGame| (g.canonical, g.placements, g.rules);
        let size = (games.len() * 2).next_power_of_two().max(16);
        let mask = size - 1;
        let seed = std::collections::hash_map::RandomState::new().hash_one(0x00c0_91e5_u64);
        let mut firsts = vec![Copies::NONE; size];
        let mut first = vec![Copies::NONE; games.len()];
        for (k, g) in games.iter().enumerate() {
            // A game without moves is never a copy.
            if g.placements == 0 {
                continue;
            }
            let canonical = u64::from(g.canonical[0]) | u64::from(g.canonical[1]) << 32;
            let mut at = super::keys::mix(canonical ^ seed) as usize & mask;
            loop {
                match firsts[at] {
                    Copies::NONE => {
                        firsts[at] = k as u32;
                        break;
                    }
                    f if key(&games[f as usize]) == key(g) => {
                        first[k] = f;
                        break;
                    }
                    _ => at = (at + 1) & mask,
                }
            }
        }
        Copies(first)
    }

    /// The first earlier game that game `k` copies.
    pub(super) fn first(&self, k: usize) -> Option<usize> {
        let first = *self.0.get(k)?;
        (first != Copies::NONE).then_some(first as usize)
    }
}

impl Event {
    /// The games that are one game (the same moves under one of the board's symmetries,
    /// the same rules and start), as indexes into [`Event::games`]: each group in the
    /// order of its games, the groups in the order of their first; a game without a copy
    /// is in none. The copies the `duplicate-game` finding names.
    ///
    /// ```
    /// use reversi_check::event::Event;
    /// use reversi_formats::{Format, ReadOptions};
    /// // f5 d6 c3 twice, and reflected on the a1-h8 diagonal (e6 f4 c3); f5 f6 once.
    /// let text = "f5d6c3\nf5f6\nf5d6c3\ne6f4c3\n";
    /// let games = Format::MoveString.read_bytes(text, &ReadOptions::default()).unwrap();
    /// let mut event = Event::default();
    /// event.add_games("games.txt", &games);
    /// assert_eq!(event.copy_groups(), [vec![0, 2, 3]]);
    /// ```
    pub fn copy_groups(&self) -> Vec<Vec<usize>> {
        let copies = Copies::of(self);
        let mut groups: Vec<Vec<usize>> = Vec::new();
        let mut at: std::collections::HashMap<usize, usize> = std::collections::HashMap::new();
        for k in 0..self.games().len() {
            if let Some(first) = copies.first(k) {
                let g = *at.entry(first).or_insert_with(|| {
                    groups.push(vec![first]);
                    groups.len() - 1
                });
                groups[g].push(k);
            }
        }
        groups
    }

    /// Every problem across the games: the same game twice, a player twice in one round,
    /// a pairing repeated, and, with `pairings`, the games missing, extra or with colours
    /// swapped. In the order of the later game each is about.
    ///
    /// Games of one event are those with the same `Event` tag and rules; when the run
    /// names only one event, games without an `Event` tag belong to it ([`Sections`]).
    ///
    /// [`Sections`]: super::Sections
    pub fn check(&self, pairings: Option<&Schedule>) -> Vec<Finding> {
        let mut findings = Vec::new();
        let _ = self.check_each(pairings, |f| {
            findings.push(f);
            Ok::<(), std::convert::Infallible>(())
        });
        findings
    }

    /// [`Event::check`], handing each finding to `each` as it is made, so that a run with
    /// many findings holds a few bytes for each until it is reported, never all of them;
    /// the first error of `each` stops it.
    pub fn check_each<E>(
        &self,
        pairings: Option<&Schedule>,
        mut each: impl FnMut(Finding) -> Result<(), E>,
    ) -> Result<(), E> {
        let found = self.find(pairings);
        for (_, _, pending) in found {
            each(self.describe(pending, pairings))?;
        }
        Ok(())
    }

    /// Every finding, as the games it names, in report order.
    fn find(&self, pairings: Option<&Schedule>) -> Vec<(usize, Code, Pending)> {
        let games = self.games();
        let normal = Normal::new(self);
        let copies = Copies::of(self);
        // A copy of an earlier game is reported as that (its names and round are the copy's
        // and would only repeat the finding).
        let is_copy = |k: usize| copies.first(k).is_some();
        let mut findings: Vec<(usize, Code, Pending)> = Vec::new();
        for k in 0..games.len() {
            if let Some(first) = copies.first(k) {
                findings.push((k, Code::DuplicateGame, Pending::Duplicate(first, k)));
            }
        }
        // One event, or one per `Event` tag and rules (`sections.rs`).
        let sections = super::sections::Sections::of(self);
        let group = |k: usize| sections.of_game(k);
        // An unfinished record of a game another record finishes (an adjourned game) is
        // that game's part: no second game of the pairing.
        let parts = self.unfinished_parts(&sections, &is_copy);
        let is_part = |k: usize| parts.contains_key(&k);
        let mut reported: HashSet<(usize, usize)> = HashSet::new();
        // The same two players twice.
        let mut met: HashMap<(Option<usize>, u32, u32), usize> = HashMap::new();
        for (k, g) in games.iter().enumerate() {
            // Only an event with rounds pairs its players; an archive's players meet often.
            if is_copy(k) || is_part(k) || self.field_id(g, Field::Round).is_none() {
                continue;
            }
            let (Some(b), Some(w)) = (
                normal.get(self, g, Field::Black),
                normal.get(self, g, Field::White),
            ) else {
                continue;
            };
            if b == w {
                continue;
            }
            match met.get(&(group(k), b.min(w), b.max(w))) {
                Some(&first) => {
                    reported.insert((first, k));
                    findings.push((k, Code::RepeatedPairing, Pending::Repeated(first, k)));
                }
                None => {
                    met.insert((group(k), b.min(w), b.max(w)), k);
                }
            }
        }
        // A player twice in one round.
        let mut playing: HashMap<(Option<usize>, u32, u32), usize> = HashMap::new();
        for (k, g) in games.iter().enumerate() {
            if is_copy(k) || is_part(k) || self.field_id(g, Field::Round).is_none() {
                continue;
            }
            let Some(round) = normal.get(self, g, Field::Round) else {
                continue;
            };
            for field in [Field::Black, Field::White] {
                let Some(player) = normal.get(self, g, field) else {
                    continue;
                };
                match playing.get(&(group(k), round, player)) {
                    Some(&first) => {
                        if reported.insert((first, k)) {
                            let twice = Pending::Twice(first, k, field);
                            findings.push((k, Code::PlayerTwiceInRound, twice));
                        }
                    }
                    None => {
                        playing.insert((group(k), round, player), k);
                    }
                }
            }
        }
        if let Some(pairings) = pairings {
            self.against_pairings(pairings, &normal, &copies, &sections, &mut findings);
        }
        self.check_names(&normal, &sections, &is_copy, &mut findings);
        findings.sort_by_key(|(k, code, _)| (*k, *code));
        findings
    }

    /// The finding `pending` stands for.
    fn describe(&self, pending: Pending, pairings: Option<&Schedule>) -> Finding {
        let games = self.games();
        let pairing = |p: usize| pairings.and_then(|all| all.pairings().get(p));
        match pending {
            Pending::Duplicate(a, b) => self.duplicate(&games[a], &games[b]),
            Pending::Repeated(a, b) => self.repeated(&games[a], &games[b]),
            Pending::Twice(a, b, field) => self.twice_in_round(&games[a], &games[b], field),
            Pending::Missing(p, game) => {
                let game = game.map(|k| &games[k]);
                match pairing(p) {
                    Some(pairing) => self.missing(pairing, game),
                    None => self.missing(&Scheduled::default(), game),
                }
            }
            Pending::Swapped(k, p) => match pairing(p) {
                Some(pairing) => self.swapped(&games[k], pairing),
                None => self.swapped(&games[k], &Scheduled::default()),
            },
            Pending::Unpaired(k, p) => self.unpaired(&games[k], p.and_then(pairing)),
            Pending::Unknown(k, field, count) => self.unknown_player(&games[k], field, count),
            Pending::Similar((a, fa), (b, fb)) => {
                self.similar_names((&games[a], fa), (&games[b], fb))
            }
        }
    }

    /// The players' names of the paired games (with a round, not copies, not byes): with a
    /// register, each it does not hold; without, each two of one event that look like one
    /// player.
    fn check_names(
        &self,
        normal: &Normal,
        sections: &super::Sections,
        is_copy: &dyn Fn(usize) -> bool,
        findings: &mut Vec<(usize, Code, Pending)>,
    ) {
        // Each name (by key, per event): its first game and field, and its games.
        let mut seen: HashMap<(Option<usize>, u32), (usize, Field, usize)> = HashMap::new();
        let mut order: Vec<(Option<usize>, u32)> = Vec::new();
        for (k, g) in self.games().iter().enumerate() {
            if is_copy(k) || self.field_id(g, Field::Round).is_none() {
                continue;
            }
            for field in [Field::Black, Field::White] {
                let (Some(key), Some(text)) = (normal.get(self, g, field), self.field(g, field))
                else {
                    continue;
                };
                if super::is_bye_word(text) {
                    continue;
                }
                // The register's names are one list whatever the event.
                let section = match self.register {
                    Some(_) => None,
                    None => sections.of_game(k),
                };
                let entry = seen.entry((section, key)).or_insert_with(|| {
                    order.push((section, key));
                    (k, field, 0)
                });
                entry.2 += 1;
            }
        }
        if self.register.is_some() {
            // One finding a name, its spellings without accents or case together.
            let mut unknown: HashMap<String, (usize, Field, usize)> = HashMap::new();
            let mut first: Vec<String> = Vec::new();
            for at in &order {
                let (k, field, count) = seen[at];
                let name = self.player(&self.games()[k], field);
                if self.registered(name).is_none() {
                    let entry = unknown
                        .entry(crate::record::fold_name(name))
                        .or_insert_with_key(|key| {
                            first.push(key.clone());
                            (k, field, 0)
                        });
                    entry.2 += count;
                }
            }
            for key in first {
                let (k, field, count) = unknown[&key];
                findings.push((k, Code::UnknownPlayer, Pending::Unknown(k, field, count)));
            }
            return;
        }
        // Within each event, the names that look like one player.
        let texts: Vec<&str> = order
            .iter()
            .map(|at| {
                let (k, field, _) = seen[at];
                self.player(&self.games()[k], field)
            })
            .collect();
        let mut by_event: HashMap<Option<usize>, Vec<usize>> = HashMap::new();
        for (i, (section, _)) in order.iter().enumerate() {
            by_event.entry(*section).or_default().push(i);
        }
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        for members in by_event.values() {
            let names: Vec<&str> = members.iter().map(|&i| texts[i]).collect();
            for (x, y) in super::register::similar_pairs(&names) {
                pairs.push((members[x], members[y]));
            }
        }
        pairs.sort_unstable();
        for (i, j) in pairs {
            let (a, fa, _) = seen[&order[i]];
            let (b, fb, _) = seen[&order[j]];
            findings.push((
                b.max(a),
                Code::SimilarNames,
                Pending::Similar((a, fa), (b, fb)),
            ));
        }
    }

    fn unknown_player(&self, first: &EventGame, field: Field, count: usize) -> Finding {
        let at = self.game_ref(first);
        let name = self.player(first, field);
        let more = match count {
            0 | 1 => String::new(),
            n => format!(" (and {} more games)", n - 1),
        };
        let nearest: Vec<String> = self
            .register()
            .map(|r| r.nearest(name).iter().map(|p| p.name.clone()).collect())
            .unwrap_or_default();
        let help = match nearest.as_slice() {
            [] => "add the player to the register, or correct the name on the sheet".to_owned(),
            names => format!(
                "the nearest registered names: {}; correct the sheet, or add this spelling to the player's aliases",
                names.join(", ")
            ),
        };
        Finding {
            code: Code::UnknownPlayer,
            severity: Severity::Warning,
            message: format!("{name}, in {at}{more}, is not in the player register"),
            help: Some(help),
            games: vec![at],
        }
    }

    fn similar_names(&self, a: (&EventGame, Field), b: (&EventGame, Field)) -> Finding {
        let (ra, rb) = (self.game_ref(a.0), self.game_ref(b.0));
        let (na, nb) = (self.player(a.0, a.1), self.player(b.0, b.1));
        // The fuller spelling is the one to register.
        let name = super::register::fuller(na, nb);
        let alias = if name == na { nb } else { na };
        Finding {
            code: Code::SimilarNames,
            severity: Severity::Warning,
            message: format!(
                "{na} ({ra}) and {nb} ({rb}) look like one player spelled two ways"
            ),
            help: Some(format!(
                "write one spelling on every sheet, or keep a player register (`--players FILE`) with {alias:?} as an alias of {name:?}"
            )),
            games: vec![ra, rb],
        }
    }

    fn player(&self, game: &EventGame, field: Field) -> &str {
        self.field(game, field).unwrap_or("?")
    }

    fn duplicate(&self, first: &EventGame, later: &EventGame) -> Finding {
        let (a, b) = (self.game_ref(first), self.game_ref(later));
        let mut message = format!("{b} is the same game as {a}");
        if let Some(s) = first.moves().symmetry_to(&later.moves()) {
            if s != super::Symmetry::Identity {
                message.push_str(&format!(", its moves {}", s.describe()));
            }
        }
        let players = |g: &EventGame| {
            (
                self.field(g, Field::Black).map(str::to_lowercase),
                self.field(g, Field::White).map(str::to_lowercase),
            )
        };
        let (a_names, b_names) = (players(first), players(later));
        let named = |n: &(Option<String>, Option<String>)| n.0.is_some() || n.1.is_some();
        if named(&a_names) && named(&b_names) && a_names != b_names {
            if (a_names.1.clone(), a_names.0.clone()) == b_names {
                message.push_str(", with Black's and White's names the other way round");
            } else {
                message.push_str(", with other players' names");
            }
        }
        if first.placements < SHORT_GAME {
            message.push_str(&format!(
                " (a short game of {} moves: two games can really be the same)",
                first.placements
            ));
        }
        Finding {
            code: Code::DuplicateGame,
            severity: Severity::Warning,
            message,
            help: Some(
                "keep one of them: a game entered twice counts twice in the standings".into(),
            ),
            games: vec![a, b],
        }
    }

    fn repeated(&self, first: &EventGame, later: &EventGame) -> Finding {
        let (a, b) = (self.game_ref(first), self.game_ref(later));
        let round = |g| self.field(g, Field::Round).map(|r| normalise(r, true));
        let same_round = round(first).is_some() && round(first) == round(later);
        let when = if same_round {
            format!(
                " in round {}",
                self.field(first, Field::Round).unwrap_or("?")
            )
        } else {
            String::new()
        };
        Finding {
            code: Code::RepeatedPairing,
            severity: if same_round {
                Severity::Error
            } else {
                Severity::Warning
            },
            message: format!(
                "{} and {} meet twice{when}: {a} and {b}",
                self.player(first, Field::Black),
                self.player(first, Field::White)
            ),
            help: Some(if same_round {
                "two games of one pairing in one round: one is probably entered twice with a move mistyped, or its round is wrong".into()
            } else {
                "a Swiss event pairs two players once: check the rounds and names of both games (in a double round robin, `--allow repeated-pairing`)".into()
            }),
            games: vec![a, b],
        }
    }

    fn twice_in_round(&self, first: &EventGame, later: &EventGame, field: Field) -> Finding {
        let (a, b) = (self.game_ref(first), self.game_ref(later));
        Finding {
            code: Code::PlayerTwiceInRound,
            severity: Severity::Error,
            message: format!(
                "{} plays two games in round {}: {a} and {b}",
                self.player(later, field),
                self.field(later, Field::Round).unwrap_or("?")
            ),
            help: Some("one game's round or a player's name is probably mistyped".into()),
            games: vec![a, b],
        }
    }

    fn against_pairings(
        &self,
        pairings: &Schedule,
        normal: &Normal,
        copies: &Copies,
        sections: &super::Sections,
        findings: &mut Vec<(usize, Code, Pending)>,
    ) {
        let games = self.games();
        // Each line's event: the games of an event the pairings do not cover (a side
        // event paired on paper) are not checked against them.
        let line_section = sections.of_pairings(self, pairings);
        let covered: HashSet<Option<usize>> = line_section.iter().copied().collect();
        let group = |k: usize| sections.of_game(k);
        // The games by event, round and players.
        let mut by_pair: HashMap<(Option<usize>, u32, u32, u32), Vec<usize>> = HashMap::new();
        // The records of byes (a game against `bye`), by event, round and player.
        let mut byes: HashMap<(Option<usize>, u32, u32), Vec<usize>> = HashMap::new();
        let mut paired = vec![false; games.len()];
        for (k, g) in games.iter().enumerate() {
            if group(k).is_some() && !covered.contains(&group(k)) {
                paired[k] = true;
                continue;
            }
            if let (Some(r), Some(b), Some(w)) = (
                normal.get(self, g, Field::Round),
                normal.get(self, g, Field::Black),
                normal.get(self, g, Field::White),
            ) {
                by_pair
                    .entry((group(k), r, b.min(w), b.max(w)))
                    .or_default()
                    .push(k);
                for (player, other) in [(b, Field::White), (w, Field::Black)] {
                    if self.field(g, other).is_some_and(is_bye_word) {
                        byes.entry((group(k), r, player)).or_default().push(k);
                    }
                }
            }
        }
        // The pairings without a game, with their event and their two players' keys.
        type Missing = (usize, Option<usize>, Option<(u32, u32)>);
        let mut missing: Vec<Missing> = Vec::new();
        for (p, pairing) in pairings.pairings().iter().enumerate() {
            let section = line_section.get(p).copied().flatten();
            match pairing.status {
                // No game is expected: a bye's record, if any, is its.
                LineStatus::Bye => {
                    let key = (
                        normal.key(&pairing.round, true),
                        normal.player_key(self, &pairing.black),
                    );
                    if let (Some(r), Some(player)) = key {
                        for &k in byes.get(&(section, r, player)).into_iter().flatten() {
                            paired[k] = true;
                        }
                    }
                    continue;
                }
                LineStatus::Withdrawn => continue,
                LineStatus::Game | LineStatus::Adjourned | LineStatus::Forfeit { .. } => {}
            }
            let found = match (
                normal.key(&pairing.round, true),
                normal.player_key(self, &pairing.black),
                normal.player_key(self, &pairing.white),
            ) {
                (Some(r), Some(b), Some(w)) => by_pair
                    .get(&(section, r, b.min(w), b.max(w)))
                    .map(|ks| (ks.as_slice(), b)),
                _ => None,
            };
            let Some((ks, black)) = found else {
                if pairing.expects_a_game() {
                    let players = (
                        normal.player_key(self, &pairing.black),
                        normal.player_key(self, &pairing.white),
                    );
                    let players = match players {
                        (Some(b), Some(w)) => Some((b.min(w), b.max(w))),
                        _ => None,
                    };
                    missing.push((p, section, players));
                }
                continue;
            };
            let right = ks
                .iter()
                .copied()
                .find(|&k| normal.get(self, &games[k], Field::Black) == Some(black));
            match right {
                Some(_) => {
                    for &k in ks {
                        if normal.get(self, &games[k], Field::Black) == Some(black) {
                            paired[k] = true;
                        }
                    }
                }
                None => {
                    for &k in ks {
                        paired[k] = true;
                    }
                    findings.push((ks[0], Code::SwappedColours, Pending::Swapped(ks[0], p)));
                }
            }
        }
        // A game no pairing of its round has, and a pairing of another round with its two
        // players and no game: the game's round is probably mistyped. Each is named in the
        // other's finding.
        let mut linked: HashMap<usize, usize> = HashMap::new();
        for k in 0..games.len() {
            // A copy of a game is reported as a duplicate already.
            if paired[k] || copies.first(k).is_some_and(|first| paired[first]) {
                continue;
            }
            let players = match (
                normal.get(self, &games[k], Field::Black),
                normal.get(self, &games[k], Field::White),
            ) {
                (Some(b), Some(w)) => Some((b.min(w), b.max(w))),
                _ => None,
            };
            let same_event = |s: &Option<usize>| group(k).is_none() || *s == group(k);
            let pairing = missing
                .iter()
                .find(|(p, s, keys)| {
                    players.is_some()
                        && *keys == players
                        && same_event(s)
                        && !linked.contains_key(p)
                })
                .map(|(p, _, _)| *p);
            if let Some(p) = pairing {
                linked.insert(p, k);
            }
            findings.push((k, Code::UnpairedGame, Pending::Unpaired(k, pairing)));
        }
        for (p, _, _) in missing {
            let game = linked.get(&p).copied();
            findings.push((games.len(), Code::MissingGame, Pending::Missing(p, game)));
        }
    }

    fn missing(&self, pairing: &Scheduled, game: Option<&EventGame>) -> Finding {
        let (message, help, games) = match game {
            Some(g) => {
                let at = self.game_ref(g);
                (
                    format!(
                        "no game for the pairing {pairing} (line {} of the pairings); {at} has these players under round {}",
                        pairing.line,
                        self.field(g, Field::Round).unwrap_or("?")
                    ),
                    format!(
                        "that game's round is probably mistyped: its Round tag should be {}",
                        pairing.round
                    ),
                    vec![at],
                )
            }
            None => (
                format!(
                    "no game for the pairing {pairing} (line {} of the pairings)",
                    pairing.line
                ),
                "a sheet is missing, or its round or a name is mistyped".to_owned(),
                Vec::new(),
            ),
        };
        Finding {
            code: Code::MissingGame,
            severity: Severity::Error,
            message,
            help: Some(help),
            games,
        }
    }

    fn swapped(&self, g: &EventGame, pairing: &Scheduled) -> Finding {
        let at = self.game_ref(g);
        Finding {
            code: Code::SwappedColours,
            severity: Severity::Error,
            message: format!(
                "{at} has {} with Black and {} with White: the pairing {pairing} (line {} of the pairings) has them the other way round",
                self.player(g, Field::Black),
                self.player(g, Field::White),
                pairing.line
            ),
            help: Some("check the sheet: the names may be written in the wrong order, or the players took the wrong colours".into()),
            games: vec![at],
        }
    }

    fn unpaired(&self, g: &EventGame, pairing: Option<&Scheduled>) -> Finding {
        let at = self.game_ref(g);
        let why = match self.field(g, Field::Round) {
            None => "it has no Round tag".to_owned(),
            Some(round) => format!(
                "no pairing of round {round} has {} and {}",
                self.player(g, Field::Black),
                self.player(g, Field::White)
            ),
        };
        let help = match pairing {
            Some(p) => format!(
                "the pairing {p} (line {} of the pairings) has these players and no game: this game's Round tag is probably mistyped, and should be {}",
                p.line, p.round
            ),
            None => {
                "its round or a name is probably mistyped, or the pairings are incomplete".into()
            }
        };
        Finding {
            code: Code::UnpairedGame,
            severity: Severity::Error,
            message: format!("{at} matches no pairing: {why}"),
            help: Some(help),
            games: vec![at],
        }
    }
}

/// A finding not yet written out: the games (indexes into the event) and pairings it names.
#[derive(Clone, Copy, Debug)]
enum Pending {
    /// A name the register does not hold: its first game and field, and how many games
    /// have it.
    Unknown(usize, Field, usize),
    /// Two names that look like one player: each one's first game and field.
    Similar((usize, Field), (usize, Field)),
    Duplicate(usize, usize),
    Repeated(usize, usize),
    Twice(usize, usize, Field),
    /// A pairing without a game, and the game of another round with its players.
    Missing(usize, Option<usize>),
    Swapped(usize, usize),
    /// A game no pairing has, and the pairing of another round with its players.
    Unpaired(usize, Option<usize>),
}
