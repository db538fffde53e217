//! The level above one game: the games of an event or an archive, each reduced to its
//! facts (who played it, in which round and on which board, its moves as a key, the result
//! it claims and the one its board gives), gathered as a validation run reads them, and
//! what looks across games: the checks ([`Event::check`] and the [`Finding`]s they give) and the standings ([`standings`]).
//!
//! A run gathers facts for every game, the ones the quick check passes without building a
//! record included (`Validation::gather` in the pipeline, reversi-runs); a game's
//! facts take 52 bytes and names are kept once in one buffer however many games carry
//! them, so an archive of a million games costs a few dozen megabytes.
//!
//! ```
//! use reversi_check::event::Event;
//! use reversi_formats::{Format, ReadOptions};
//! let text = "[Black \"Ann\"]\n[White \"Bob\"]\n[Round \"1\"]\n1. f5 d6 2. c3\n\n\
//!             [Black \"Ann\"]\n[White \"Cy\"]\n[Round \"1\"]\n1. f5 f6 *\n";
//! let mut event = Event::default();
//! event.add_games("sheet.rgn", &Format::Rgn.read_bytes(text, &ReadOptions::default()).unwrap());
//! let findings = event.check(None);
//! assert_eq!(findings[0].code.name(), "player-twice-in-round");
//! assert!(findings[0].message.contains("Ann"));
//! ```

use std::sync::Arc;

use crate::engine::{Color, Outcome, Rules, Setup};
use crate::formats::wthor::NameTable;
use crate::formats::ParsedGame;
use crate::record::IDENTITY_TAGS;
use crate::record::{is_unknown_value, ClaimedResult, Identity, ResultScore, Termination};

mod checks;
mod keys;
mod names;
mod register;
mod report;
mod schedule;
mod sections;
mod sheets;
pub mod standings;
mod tally;

pub use checks::{Finding, GameRef};
#[doc(hidden)]
pub use keys::Symmetries;
pub use keys::{MoveKey, Symmetry};
pub use register::{fuller, likeness, similar_pairs, Register, Registered};
pub use report::{EventStandings, StandingsReport, StandingsRequest, UnknownEvent};
pub use schedule::{is_bye_word, LineStatus, Schedule, Scheduled, BYE_WORDS};
pub use sections::{Section, Sections};
pub use sheets::SheetError;
pub use tally::{Note, Tally};

/// What a game's record claims as its result, reduced to what standings and checks use.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Claimed {
    /// No result.
    Nothing,
    /// Black's and White's discs.
    Discs([u8; 2]),
    /// Black's discs minus White's.
    Margin(f32),
    /// Only the winner (`None`: a draw).
    Winner(Option<Color>),
    /// A result this level does not use (the counts of 3-4 players).
    Other,
}

impl Claimed {
    /// What `result` claims.
    pub fn of(result: Option<&ClaimedResult>) -> Claimed {
        match result.map(|r| &r.score) {
            None | Some(ResultScore::None) => Claimed::Nothing,
            Some(ResultScore::Discs(counts)) => match counts.as_slice() {
                [black, white] => Claimed::Discs([*black, *white]),
                _ => Claimed::Other,
            },
            Some(ResultScore::Margin(m)) => Claimed::Margin(*m as f32),
            Some(ResultScore::Winner(w)) => Claimed::Winner(*w),
        }
    }
}

/// A game's facts, as an [`Event`] keeps them; its names are in the event
/// ([`Event::identity`]). Packed in 52 bytes, so that an archive of millions of games
/// keeps a few dozen megabytes: read it through its methods.
#[derive(Clone, Copy, Debug)]
pub struct EventGame {
    /// The input it was read from ([`Event::input_name`]).
    pub input: u32,
    /// Its number in that input, from 1.
    pub index: u32,
    who: [NameId; 6],
    /// The rules it was played under ([`Event::rules`]).
    rules: u16,
    /// [`MoveKey::canonical`] in two halves (so that the record aligns on four bytes),
    /// and [`MoveKey::placements`].
    canonical: [u32; 2],
    placements: u16,
    /// The claim's value: the discs, a margin's bits, or the winner's colour.
    claim: [u8; 4],
    /// The final board's scores, when `flags` says it is known.
    board: [u8; 2],
    /// `MoveKey::to_canonical` (bits 0-2), valid (bit 3), board known (bit 4), the claim's
    /// kind (bits 5-7).
    flags: u8,
    /// How its record says it ended ([`pack_termination`]).
    termination: u8,
}

const VALID: u8 = 1 << 3;
const BOARD_KNOWN: u8 = 1 << 4;

impl EventGame {
    fn new(input: u32, who: [NameId; 6], rules: u16, facts: &Facts, tags: u8) -> EventGame {
        let (kind, claim) = match facts.claimed {
            Claimed::Nothing => (0, [0; 4]),
            Claimed::Discs([black, white]) => (1, [black, white, 0, 0]),
            Claimed::Margin(m) => (2, m.to_le_bytes()),
            Claimed::Winner(w) => (3, [w.map_or(0, |c| c.index() as u8 + 1), 0, 0, 0]),
            Claimed::Other => (4, [0; 4]),
        };
        let moves = facts.moves;
        let mut flags = moves.to_canonical as u8 | kind << 5;
        if facts.valid {
            flags |= VALID;
        }
        if facts.board.is_some() {
            flags |= BOARD_KNOWN;
        }
        EventGame {
            input,
            index: facts.index as u32,
            who,
            rules,
            canonical: [moves.canonical as u32, (moves.canonical >> 32) as u32],
            placements: moves.placements,
            claim,
            board: facts.board.unwrap_or_default(),
            flags,
            termination: pack_termination(facts.termination) | tags.min(15) << 4,
        }
    }

    /// How many tags with a value its record has, up to 15 (more count as 15).
    pub fn tags(&self) -> u8 {
        self.termination >> 4
    }

    /// Its moves, as keys.
    pub fn moves(&self) -> MoveKey {
        MoveKey {
            canonical: u64::from(self.canonical[0]) | u64::from(self.canonical[1]) << 32,
            to_canonical: keys::Symmetry::ALL[usize::from(self.flags & 7)],
            placements: self.placements,
        }
    }

    /// The result its record claims.
    pub fn claimed(&self) -> Claimed {
        match self.flags >> 5 {
            0 => Claimed::Nothing,
            1 => Claimed::Discs([self.claim[0], self.claim[1]]),
            2 => Claimed::Margin(f32::from_le_bytes(self.claim)),
            3 => Claimed::Winner(color_of(self.claim[0])),
            _ => Claimed::Other,
        }
    }

    /// How its record says it ended.
    pub fn termination(&self) -> Termination {
        match self.termination & 0x0f {
            0 => Termination::Normal,
            1 => Termination::Unfinished,
            2 => Termination::Agreement,
            k @ 3..=7 => Termination::Resignation(color_of(k - 3)),
            k => Termination::Time(color_of(k - 8)),
        }
    }

    /// Black's and White's scores on the final board, when the game was replayed legally
    /// to its end (two players only).
    pub fn board(&self) -> Option<[u8; 2]> {
        (self.flags & BOARD_KNOWN != 0).then_some(self.board)
    }

    /// Whether the game was read and replayed without an error.
    pub fn valid(&self) -> bool {
        self.flags & VALID != 0
    }
}

/// A colour as a number: 0 for none, else its index and one.
fn color_of(code: u8) -> Option<Color> {
    Color::ALL.get(usize::from(code).checked_sub(1)?).copied()
}

/// A termination as a number (the inverse of [`EventGame::termination`]).
fn pack_termination(termination: Termination) -> u8 {
    let code = |c: Option<Color>| c.map_or(0, |c| c.index() as u8 + 1);
    match termination {
        Termination::Normal => 0,
        Termination::Unfinished => 1,
        Termination::Agreement => 2,
        Termination::Resignation(c) => 3 + code(c),
        Termination::Time(c) => 8 + code(c),
    }
}

/// An interned name.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NameId(u32);

impl NameId {
    /// No name.
    const NONE: NameId = NameId(u32::MAX);
    /// Not looked up yet (in [`TableIds`]).
    const UNSEEN: NameId = NameId(u32::MAX - 1);

    fn get(self) -> Option<NameId> {
        (self != NameId::NONE).then_some(self)
    }
}

/// Every game's facts, in input order, with the names they use kept once.
#[derive(Debug, Default)]
pub struct Event {
    inputs: Vec<Arc<str>>,
    names: names::Names,
    /// The ids of the names of the WTHOR name tables games refer to, found as games first
    /// use them.
    tables: Vec<TableIds>,
    rules: Vec<Rules>,
    games: Vec<EventGame>,
    /// The director's player register, when there is one.
    register: Option<Arc<Register>>,
}

/// Which identity field: an index into [`IDENTITY_TAGS`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// The `Black` tag.
    Black = 0,
    /// The `White` tag.
    White = 1,
    /// The `Round` tag.
    Round = 2,
    /// The `Board` tag.
    Board = 3,
    /// The `Event` tag.
    Event = 4,
    /// The `Date` tag.
    Date = 5,
}

impl Event {
    /// Reads every player's name through `register`: an alias or a login is the registered
    /// player (in the checks and the standings), and a name it does not hold is an
    /// `unknown-player` finding.
    pub fn set_register(&mut self, register: Arc<Register>) {
        self.register = Some(register);
    }

    /// The player register, when one is set.
    pub fn register(&self) -> Option<&Register> {
        self.register.as_deref()
    }

    /// The registered player a player's name stands for, when a register is set and holds
    /// it.
    pub fn registered(&self, name: &str) -> Option<&Registered> {
        self.register.as_deref()?.find(name)
    }

    /// Every player's name the games give (their `Black` and `White`, a bye word left
    /// out), each spelling once, in the order first met.
    pub fn player_names(&self) -> Vec<&str> {
        let mut seen = std::collections::HashSet::new();
        let mut out = Vec::new();
        for game in &self.games {
            for field in [Field::Black, Field::White] {
                if let Some(id) = self.field_id(game, field) {
                    let name = self.name(id);
                    if seen.insert(id) && !is_bye_word(name) {
                        out.push(name);
                    }
                }
            }
        }
        out
    }

    /// The games, in input order.
    pub fn games(&self) -> &[EventGame] {
        &self.games
    }

    /// The name of input `input`.
    pub fn input_name(&self, input: u32) -> &str {
        self.inputs.get(input as usize).map_or("-", |n| n)
    }

    /// A game's value for `field`, if it has one.
    pub fn field(&self, game: &EventGame, field: Field) -> Option<&str> {
        self.field_id(game, field).map(|id| self.name(id))
    }

    /// The value of `field` that every game with one shares (the event's name for a
    /// standings title), if they share one.
    pub fn shared_field(&self, field: Field) -> Option<&str> {
        let mut values = self.games().iter().filter_map(|g| self.field(g, field));
        let first = values.next()?;
        values.all(|v| v == first).then_some(first)
    }

    /// A game's value for `field`, interned.
    pub fn field_id(&self, game: &EventGame, field: Field) -> Option<NameId> {
        game.who[field as usize].get()
    }

    /// The rules a game was played under.
    pub fn rules(&self, game: &EventGame) -> Rules {
        self.rules
            .get(usize::from(game.rules))
            .copied()
            .unwrap_or_default()
    }

    /// The text of an interned name.
    pub fn name(&self, id: NameId) -> &str {
        self.names.get(id)
    }

    /// A game's identity, as messages give it.
    pub fn identity(&self, game: &EventGame) -> Option<Identity> {
        let value = |f: Field| self.field(game, f).map(str::to_owned);
        let identity = Identity {
            black: value(Field::Black),
            white: value(Field::White),
            round: value(Field::Round),
            board: value(Field::Board),
            event: value(Field::Event),
            date: value(Field::Date),
        };
        (identity != Identity::default()).then_some(identity)
    }

    /// Where a game is, for a finding.
    pub fn game_ref(&self, game: &EventGame) -> GameRef {
        GameRef {
            file: self.input_name(game.input).to_owned(),
            game: game.index as usize,
            identity: self.identity(game),
        }
    }

    /// Starts the games of another input; the games added next are its.
    pub fn start_input(&mut self, name: impl Into<Arc<str>>) {
        self.inputs.push(name.into());
    }

    /// Adds a block of facts gathered by a run, to the input started last.
    pub fn absorb(&mut self, block: &FactsBlock) {
        let input = self.inputs.len().saturating_sub(1) as u32;
        // Each field's last name: games in a row share their event, date and round.
        let mut last = [NameId::NONE; 6];
        // The block's name tables, as indexes into `self.tables`.
        let tables: Vec<usize> = block.tables.iter().map(|t| self.table(t)).collect();
        // The previous game's names as the block has them: the same text is the same id.
        let mut previous = [Who::None; 6];
        for raw in &block.games {
            let mut who = [NameId::NONE; 6];
            for (k, name) in raw.who.iter().enumerate() {
                who[k] = match *name {
                    Who::None => continue,
                    same if same == previous[k] && last[k] != NameId::NONE => last[k],
                    Who::Text(from, to) => {
                        let text = block.text.get(from as usize..to as usize).unwrap_or("");
                        match last[k] {
                            id if id != NameId::NONE && self.names.is(id, text) => id,
                            _ => self.intern(text),
                        }
                    }
                    Who::Table(table, index) => match tables.get(usize::from(table)) {
                        Some(&t) => self.table_name(t, index),
                        None => continue,
                    },
                };
                last[k] = who[k];
            }
            previous = raw.who;
            let facts = &raw.facts;
            let rules = self.rules_id(facts.rules);
            self.games
                .push(EventGame::new(input, who, rules, facts, raw.tags));
        }
    }

    /// The index of `table` in `self.tables`, added when new.
    fn table(&mut self, table: &Arc<NameTable>) -> usize {
        if let Some(k) = self
            .tables
            .iter()
            .position(|t| Arc::ptr_eq(&t.table, table))
        {
            return k;
        }
        self.tables.push(TableIds {
            table: Arc::clone(table),
            ids: vec![NameId::UNSEEN; table.len()],
        });
        self.tables.len() - 1
    }

    /// The id of the name at `index` of table `t` (none for a name that says nothing).
    fn table_name(&mut self, t: usize, index: u16) -> NameId {
        let Some(tables) = self.tables.get_mut(t) else {
            return NameId::NONE;
        };
        match tables.ids.get(usize::from(index)) {
            Some(&id) if id != NameId::UNSEEN => return id,
            Some(_) => {}
            None => return NameId::NONE,
        }
        let table = Arc::clone(&tables.table);
        let id = match table.get(index).and_then(identity_value) {
            Some(text) => self.intern(text),
            None => NameId::NONE,
        };
        self.tables[t].ids[usize::from(index)] = id;
        id
    }

    /// Adds games read in full (validating each to find its final board), as one input.
    pub fn add_games(&mut self, name: &str, games: &[ParsedGame]) {
        self.start_input(name);
        let mut block = FactsBlock::default();
        let mut symmetries = Symmetries::default();
        // An entry with index 0 reports a problem of the file itself: no game.
        for game in games.iter().filter(|g| g.index != 0) {
            let (diagnostics, outcome) =
                crate::validate::validate_game_to_end(game, &[] as &[&str]);
            let valid = !diagnostics.iter().any(|d| d.is_error());
            block.push_parsed(game, outcome.as_ref(), valid, &mut symmetries);
        }
        self.absorb(&block);
    }

    /// The id of `rules`: the games of an archive share a handful.
    fn rules_id(&mut self, rules: Rules) -> u16 {
        if let Some(k) = self.rules.iter().rposition(|r| *r == rules) {
            return k as u16;
        }
        if self.rules.len() > usize::from(u16::MAX) {
            // More rule sets than any archive has: the last one stands for the rest.
            return u16::MAX;
        }
        self.rules.push(rules);
        (self.rules.len() - 1) as u16
    }

    /// The id of a name (none past the 4 GiB of names an event can hold).
    fn intern(&mut self, text: &str) -> NameId {
        self.names.intern(text).unwrap_or(NameId::NONE)
    }
}

/// The shortest and the longest of [`IDENTITY_TAGS`]' names.
const IDENTITY_LENGTHS: (usize, usize) = {
    let (mut shortest, mut longest, mut k) = (usize::MAX, 0, 0);
    while k < IDENTITY_TAGS.len() {
        let len = IDENTITY_TAGS[k].len();
        if len < shortest {
            shortest = len;
        }
        if len > longest {
            longest = len;
        }
        k += 1;
    }
    (shortest, longest)
};

/// What a game's facts hold besides its names, as the gatherer gives them.
#[derive(Clone, Copy, Debug)]
#[doc(hidden)]
pub struct Facts {
    pub(crate) index: usize,
    pub(crate) rules: Rules,
    pub(crate) moves: MoveKey,
    pub(crate) claimed: Claimed,
    pub(crate) termination: Termination,
    pub(crate) board: Option<[u8; 2]>,
    pub(crate) valid: bool,
}

impl Facts {
    /// The facts of a game the quick check passed: valid, played to its end (`board`), what
    /// it claims agreeing with the board.
    #[doc(hidden)]
    pub fn clean(
        index: usize,
        rules: Rules,
        moves: MoveKey,
        claimed: Claimed,
        board: [u8; 2],
    ) -> Facts {
        Facts {
            index,
            rules,
            moves,
            claimed,
            termination: Termination::Normal,
            board: (rules.players() == 2).then_some(board),
            valid: true,
        }
    }
}

/// One game's facts in a [`FactsBlock`]: its names as ranges of the block's text or
/// indexes into its name tables.
#[derive(Clone, Debug)]
struct RawFacts {
    who: [Who; 6],
    /// How many tags with a value its record has (at most 255).
    tags: u8,
    facts: Facts,
}

/// Where a game's name is in its [`FactsBlock`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
enum Who {
    #[default]
    None,
    /// A range of the block's text.
    Text(u32, u32),
    /// A name of one of the block's tables, by its index there.
    Table(u16, u16),
}

/// The names of a WTHOR name table with the ids an [`Event`] gave them.
#[derive(Debug)]
struct TableIds {
    table: Arc<NameTable>,
    ids: Vec<NameId>,
}

/// What an identity tag's value names: the value trimmed, `None` when it says nothing
/// ([`is_unknown_value`]).
fn identity_value(value: &str) -> Option<&str> {
    // Most values have nothing to trim: a byte at each end says so.
    let value = match (value.as_bytes().first(), value.as_bytes().last()) {
        (Some(a), Some(z)) if a.is_ascii_graphic() && z.is_ascii_graphic() => value,
        _ => value.trim(),
    };
    (!is_unknown_value(value)).then_some(value)
}

/// The facts of a block of games, as a worker gathers them: one buffer for all their names,
/// so that a block costs a few allocations however many games it has.
#[derive(Clone, Debug, Default)]
pub struct FactsBlock {
    text: String,
    /// The WTHOR name tables its games' names are in.
    tables: Vec<Arc<NameTable>>,
    games: Vec<RawFacts>,
    /// The names of the game being gathered.
    who: [Who; 6],
    /// The names of the game gathered last.
    previous: [Who; 6],
    /// How many tags with a value the game being gathered has.
    tags: u8,
}

impl FactsBlock {
    /// How many games it holds.
    pub fn len(&self) -> usize {
        self.games.len()
    }

    /// Whether it holds no game.
    pub fn is_empty(&self) -> bool {
        self.games.is_empty()
    }

    /// Notes a tag of the game being gathered (before [`FactsBlock::finish`]).
    #[doc(hidden)]
    pub fn tag(&mut self, name: &str, value: &str) {
        self.tags = self.tags.saturating_add(u8::from(!value.is_empty()));
        // Most tags are longer or shorter than every identity tag's name.
        if !(IDENTITY_LENGTHS.0..=IDENTITY_LENGTHS.1).contains(&name.len()) {
            return;
        }
        if let Some(k) = IDENTITY_TAGS
            .iter()
            .position(|n| n.eq_ignore_ascii_case(name))
        {
            self.note(k, value);
        }
    }

    /// Notes the tag of `field` of the game being gathered, as [`FactsBlock::tag`] with
    /// its name.
    #[doc(hidden)]
    pub fn field_tag(&mut self, field: Field, value: &str) {
        self.tags = self.tags.saturating_add(u8::from(!value.is_empty()));
        self.note(field as usize, value);
    }

    /// Keeps `value` as the name of identity field `k`, unless the field has one.
    fn note(&mut self, k: usize, value: &str) {
        if self.who[k] != Who::None {
            return;
        }
        // Games in a row share their event and date: the previous game's text is reused.
        if let Who::Text(from, to) = self.previous[k] {
            if self.text.as_bytes().get(from as usize..to as usize) == Some(value.as_bytes()) {
                self.who[k] = self.previous[k];
                return;
            }
        }
        let Some(value) = identity_value(value) else {
            return;
        };
        let from = self.text.len() as u32;
        self.text.push_str(value);
        self.who[k] = Who::Text(from, self.text.len() as u32);
    }

    /// Notes the name of `field` of the game being gathered as the one at `index` of
    /// `table`, as [`FactsBlock::tag`] notes a tag with that name (the name is looked up
    /// once for every game that names it, by [`Event::absorb`]).
    #[doc(hidden)]
    pub fn table_name(&mut self, field: Field, table: &Arc<NameTable>, index: u16) {
        let Some(name) = table.get(index) else {
            return;
        };
        self.tags = self.tags.saturating_add(u8::from(!name.is_empty()));
        let slot = match self.tables.iter().rposition(|t| Arc::ptr_eq(t, table)) {
            Some(slot) => slot,
            None => {
                self.tables.push(Arc::clone(table));
                self.tables.len() - 1
            }
        };
        let k = field as usize;
        if self.who[k] == Who::None {
            // A block holds a handful of tables (two a WTHOR file).
            self.who[k] = Who::Table(slot as u16, index);
        }
    }

    /// Forgets the tags noted for a game that is not gathered after all.
    #[doc(hidden)]
    pub fn forget(&mut self) {
        self.who = Default::default();
        self.tags = 0;
    }

    /// Counts `n` more tags for the game being gathered (tags a view did not hand over).
    #[doc(hidden)]
    pub fn count_tags(&mut self, n: u8) {
        self.tags = self.tags.saturating_add(n);
    }

    /// Ends the game being gathered.
    #[doc(hidden)]
    pub fn finish(&mut self, facts: Facts) {
        let who = std::mem::take(&mut self.who);
        self.previous = who;
        let tags = std::mem::take(&mut self.tags);
        self.games.push(RawFacts { who, tags, facts });
    }

    /// Gathers a game read in full, with the outcome its replay reached.
    #[doc(hidden)]
    pub fn push_parsed(
        &mut self,
        game: &ParsedGame,
        outcome: Option<&Outcome>,
        valid: bool,
        symmetries: &mut Symmetries,
    ) {
        let Some(record) = &game.record else {
            // Unreadable: no names, no moves, nothing claimed.
            self.forget();
            self.finish(Facts {
                index: game.index,
                rules: Rules::default(),
                moves: keys::KeyMaker::new(&Rules::default(), 1).key(0, std::iter::empty()),
                claimed: Claimed::Nothing,
                termination: Termination::Normal,
                board: None,
                valid: false,
            });
            return;
        };
        for tag in &record.tags {
            self.tag(&tag.name, &tag.value);
        }
        let setup: Option<&Setup> = record.start.as_ref().map(|s| &s.setup);
        let squares = record.moves.iter().filter_map(|m| match m.mv {
            crate::engine::Move::Place(sq) => Some(sq.row() << 4 | sq.col()),
            crate::engine::Move::Pass => None,
        });
        let key = symmetries.key(&record.rules, setup, squares);
        let board = outcome
            .filter(|_| record.rules.players() == 2)
            .map(|o| [o.score[0], o.score[1]]);
        let result = record.result.as_ref();
        self.finish(Facts {
            index: game.index,
            rules: record.rules,
            moves: key,
            claimed: Claimed::of(result),
            termination: result.map_or(Termination::Normal, |r| r.termination),
            board,
            valid,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_is_kept_in_52_bytes() {
        // What an archive of millions of games holds for each, besides its names.
        assert_eq!(std::mem::size_of::<EventGame>(), 52);
    }

    #[test]
    fn a_game_reads_back_what_it_was_given() {
        let colors = [
            None,
            Some(Color::Black),
            Some(Color::White),
            Some(Color::Green),
        ];
        let terminations = [
            Termination::Normal,
            Termination::Unfinished,
            Termination::Agreement,
        ]
        .into_iter()
        .chain(colors.iter().map(|&c| Termination::Resignation(c)))
        .chain(colors.iter().map(|&c| Termination::Time(c)));
        let claims = [
            Claimed::Nothing,
            Claimed::Discs([33, 31]),
            Claimed::Margin(-22.87),
            Claimed::Winner(None),
            Claimed::Winner(Some(Color::White)),
            Claimed::Other,
        ];
        for (k, termination) in terminations.enumerate() {
            for (j, claimed) in claims.into_iter().enumerate() {
                let facts = Facts {
                    index: 7 + k,
                    rules: Rules::default(),
                    moves: MoveKey {
                        canonical: 0xDEAD_BEEF_0123_4567 ^ j as u64,
                        to_canonical: Symmetry::ALL[(k + j) % 8],
                        placements: 58,
                    },
                    claimed,
                    termination,
                    board: (j % 2 == 0).then_some([40, 24]),
                    valid: k % 2 == 1,
                };
                let game = EventGame::new(3, [NameId::NONE; 6], 1, &facts, 15);
                assert_eq!(game.tags(), 15);
                assert_eq!(game.moves(), facts.moves);
                assert_eq!(game.claimed(), claimed);
                assert_eq!(game.termination(), termination);
                assert_eq!(game.board(), facts.board);
                assert_eq!(game.valid(), facts.valid);
                assert_eq!((game.input, game.index), (3, 7 + k as u32));
            }
        }
    }
}
