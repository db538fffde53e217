//! The standings run: every event a run's games hold ranked on its own board, with the
//! notes on the way and each event's problems, as one report that the command line, the
//! desk and Python all give (`reversi standings --format json` is [`StandingsReport::to_json`]).

use std::fmt::{self, Write as _};

use serde::Serialize;

use super::names::normalise;
use super::schedule::{LineStatus, Schedule, Scheduled};
use super::standings::{
    self, GameResult, Pairing, PairingSource, Seat, Side, Standings, StandingsOptions,
};
use super::{Event, Register, Section};

/// What to rank, beyond the games.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct StandingsRequest {
    /// Only the event of this name (compared ignoring case and spacing with each event's
    /// name and heading). When the games hold one event, the name it is shown under.
    pub event: Option<String>,
    /// The players who withdrew, in whichever event they play. `None`: those the pairings
    /// file says withdrew, or without one, in each event, those without a pairing in its
    /// last round.
    pub withdrawn: Option<Vec<String>>,
    /// The director's pairings file: its byes, forfeits, withdrawals and games without a
    /// record yet go into the standings of the event whose players it names.
    pub pairings: Option<Schedule>,
}

/// The standings of one event of the run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct EventStandings {
    /// The event's heading: its name, with its rules when they are not 8x8 Othello or when
    /// another event shares the name ([`Section::heading`]).
    pub event: Option<String>,
    /// The rules of its games.
    pub rules: String,
    /// The playable squares of its board: what the disc counts, byes and uncounted results
    /// are measured against.
    pub squares: u32,
    /// The standings, unless problems keep the event from being ranked.
    pub standings: Option<Standings>,
    /// What keeps the event from being ranked, each naming its games.
    pub problems: Vec<String>,
}

/// The standings of every event of a run.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct StandingsReport {
    /// Each event, in the order of its first game.
    pub events: Vec<EventStandings>,
    /// Every game left out, and every result the board settles against the record.
    pub notes: Vec<String>,
    /// Problems of the request itself (a withdrawn player no event has).
    pub problems: Vec<String>,
}

/// An event asked for that the games do not hold.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct UnknownEvent {
    /// The name asked for.
    pub asked: String,
    /// The events the games hold, by heading.
    pub known: Vec<String>,
}

impl fmt::Display for UnknownEvent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "no event is called {:?}; the games hold ", self.asked)?;
        let known: Vec<String> = self.known.iter().map(|k| format!("{k:?}")).collect();
        f.write_str(&known.join(", "))
    }
}

impl std::error::Error for UnknownEvent {}

impl Event {
    /// The standings of every event the games hold: the games of one `Event` tag and rules
    /// are one event ([`Sections`](super::Sections)), ranked on their own board's squares
    /// (`spec/standings.md`). An event whose pairings cannot be ranked has its problems
    /// instead; the others are ranked all the same.
    ///
    /// ```
    /// use reversi_check::event::{Event, StandingsRequest};
    /// use reversi_formats::{Format, ReadOptions};
    /// let text = "[Event \"Open\"]\n[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
    ///             [Event \"Open\"]\n[Rules \"othello:10x10\"]\n[Round \"1\"]\n[Black \"Ann\"]\n[White \"Cy\"]\n[Result \"60-40\"]\n";
    /// let mut event = Event::default();
    /// event.add_games("r1.rgn", &Format::Rgn.read_bytes(text, &ReadOptions::default()).unwrap());
    /// let report = event.standings(&StandingsRequest::default())?;
    /// let headings: Vec<_> = report.events.iter().map(|e| e.event.as_deref()).collect();
    /// assert_eq!(headings, [Some("Open (othello)"), Some("Open (othello:10x10)")]);
    /// // Ann plays in both events, once in each round 1: no problem.
    /// assert!(report.is_complete());
    /// assert_eq!(report.events[1].squares, 100);
    /// # Ok::<(), reversi_check::event::UnknownEvent>(())
    /// ```
    pub fn standings(&self, request: &StandingsRequest) -> Result<StandingsReport, UnknownEvent> {
        let tally = self.tally_with(request.pairings.as_ref());
        let mut sections: Vec<(&Section, Vec<Pairing>)> = tally
            .by_section()
            .map(|(section, pairings)| (section, pairings.to_vec()))
            .collect();
        // A pairings file before any sheet (byes and forfeits only, so far): its event.
        let scheduled_only = Section {
            event: None,
            rules: crate::engine::Rules::default(),
            shares_name: false,
        };
        if sections.is_empty() && request.pairings.is_some() {
            sections.push((&scheduled_only, Vec::new()));
        }
        let mut report = StandingsReport {
            events: Vec::new(),
            notes: tally.notes.iter().map(ToString::to_string).collect(),
            problems: Vec::new(),
        };
        // Each line of the pairings file goes to the event whose players it names
        // (`Sections::of_pairings`); before any sheet, to the one event there is.
        let mut scheduled_withdrawn: Option<Vec<String>> = None;
        if let Some(schedule) = &request.pairings {
            let all = super::Sections::of(self);
            let line_section = all.of_pairings(self, schedule);
            let lines = schedule.pairings();
            for (section, pairings) in sections.iter_mut() {
                let index = all.list().iter().position(|s| s == *section);
                let mine: Vec<&Scheduled> = lines
                    .iter()
                    .zip(&line_section)
                    .filter(|(_, s)| index.is_none() || **s == index)
                    .map(|(line, _)| line)
                    .collect();
                if mine.is_empty() {
                    continue;
                }
                let withdrawn = apply(&mine, self.register(), pairings, &mut report.notes);
                if !withdrawn.is_empty() {
                    scheduled_withdrawn
                        .get_or_insert_with(Vec::new)
                        .extend(withdrawn);
                }
            }
        }
        // With a register, each name it does not hold, once.
        if let Some(register) = self.register() {
            let mut said = std::collections::HashSet::new();
            for pairing in sections.iter().flat_map(|(_, p)| p) {
                for name in pairing.players() {
                    if register.find(name).is_none() && said.insert(name.to_owned()) {
                        let nearest: Vec<&str> = register
                            .nearest(name)
                            .iter()
                            .map(|p| p.name.as_str())
                            .collect();
                        let hint = match nearest.as_slice() {
                            [] => String::new(),
                            names => {
                                format!(" (the nearest registered names: {})", names.join(", "))
                            }
                        };
                        report.notes.push(format!(
                            "{name} is not in the player register: ranked as written{hint}"
                        ));
                    }
                }
            }
        }
        let listed: Vec<(&Section, &[Pairing])> =
            sections.iter().map(|(s, p)| (*s, p.as_slice())).collect();
        let chosen = chosen(&listed, request.event.as_deref())?;
        let withdrawn_given = request.withdrawn.clone().or(scheduled_withdrawn);
        if let Some(given) = &withdrawn_given {
            for name in given {
                let plays = chosen.iter().any(|&(_, pairings)| {
                    pairings.iter().any(|p| p.players().contains(&name.trim()))
                });
                if !plays {
                    report
                        .problems
                        .push(format!("{name} is given as withdrawn but plays no game"));
                }
            }
        }
        for &(section, pairings) in &chosen {
            let squares = section.rules.playable().len() as u32;
            let heading = match (&request.event, listed.len()) {
                // One event: the name asked for is its heading.
                (Some(asked), 1) => Some(asked.clone()),
                _ => section.heading(),
            };
            // The withdrawn players of this event: those given who play in it.
            let withdrawn = withdrawn_given.as_ref().map(|given| {
                given
                    .iter()
                    .filter(|n| pairings.iter().any(|p| p.players().contains(&n.trim())))
                    .cloned()
                    .collect()
            });
            let options = StandingsOptions {
                event: heading.clone(),
                withdrawn,
                squares,
            };
            let (standings, problems) = match Standings::compute(pairings, &options) {
                Ok(s) => (Some(s), Vec::new()),
                Err(e) => (None, e.problems.iter().map(|p| self.explain(p)).collect()),
            };
            report.events.push(EventStandings {
                event: heading,
                rules: section.rules.to_string(),
                squares,
                standings,
                problems,
            });
        }
        Ok(report)
    }
}

/// Puts what the pairings file says into one event's `pairings`: its byes, its forfeits
/// (over a record without a result), a game without a record as not played yet; each
/// with a note. Gives the players it says withdrew, spelt as the games spell them.
fn apply(
    lines: &[&Scheduled],
    register: Option<&Register>,
    pairings: &mut Vec<Pairing>,
    notes: &mut Vec<String>,
) -> Vec<String> {
    // The games' spelling of each name.
    let mut spelled: std::collections::HashMap<String, String> = std::collections::HashMap::new();
    for p in pairings.iter() {
        for name in p.players() {
            spelled
                .entry(normalise(name, false))
                .or_insert_with(|| name.to_owned());
        }
    }
    let name = |n: &str| match register.and_then(|r| r.find(n)) {
        Some(player) => player.name.clone(),
        None => spelled
            .get(&normalise(n, false))
            .cloned()
            .unwrap_or_else(|| n.trim().to_owned()),
    };
    let same_round = |p: &Pairing, line: &Scheduled| {
        normalise(p.round.as_str(), true) == normalise(&line.round, true)
    };
    let mut withdrawn = Vec::new();
    for &line in lines {
        let at = PairingSource::pairings_line(line.line);
        let (black, white) = (name(&line.black), name(&line.white));
        let board = |p: Pairing| match &line.board {
            Some(b) => p.on_board(b),
            None => p,
        };
        let pairing = |result: GameResult| {
            let mut p = board(Pairing::game(line.round.as_str(), &black, &white, result));
            p.source = at;
            p
        };
        // The record of this line's game, either colours.
        let game = pairings.iter().position(|p| {
            same_round(p, line) && {
                let players = p.players();
                players.len() == 2
                    && players.contains(&black.as_str())
                    && players.contains(&white.as_str())
            }
        });
        // A record that does not say its board (a game server's file) is on its line's.
        if let (Some(k), Some(b)) = (game, &line.board) {
            pairings[k].board.get_or_insert_with(|| b.clone());
        }
        match line.status {
            LineStatus::Withdrawn => withdrawn.push(black.clone()),
            LineStatus::Bye => {
                let playing = pairings
                    .iter()
                    .find(|p| same_round(p, line) && p.players().contains(&black.as_str()));
                match playing {
                    Some(p) if matches!(p.seat, Seat::Bye { .. }) => {}
                    Some(p) => notes.push(format!(
                        "{at}: the pairings give {black} a bye in round {}, but {} has them play: the game counts",
                        line.round, p.source
                    )),
                    None => {
                        let mut bye = board(Pairing::bye(line.round.as_str(), &black));
                        bye.source = at;
                        pairings.push(bye);
                    }
                }
            }
            LineStatus::Forfeit {
                black_absent,
                white_absent,
            } => {
                let result = match (black_absent, white_absent) {
                    (true, true) => GameResult::DoubleForfeit,
                    (true, false) => GameResult::Forfeit {
                        winner: Side::White,
                    },
                    _ => GameResult::Forfeit {
                        winner: Side::Black,
                    },
                };
                match game {
                    Some(k) => match &mut pairings[k].seat {
                        Seat::Game {
                            result: recorded @ (GameResult::Unfinished | GameResult::Forfeit { .. }),
                            ..
                        } => *recorded = result,
                        _ => notes.push(format!(
                            "{at}: the pairings say round {}'s {black} vs {white} was not played, but {} has a result: the record counts",
                            line.round, pairings[k].source
                        )),
                    },
                    None => pairings.push(pairing(result)),
                }
            }
            LineStatus::Game | LineStatus::Adjourned => {
                if game.is_none() {
                    let what = match line.status {
                        LineStatus::Adjourned => "adjourned, no record yet",
                        _ => "no record of the game yet",
                    };
                    notes.push(format!(
                        "{at}: round {}, {black} vs {white}: {what}: counted as not played yet",
                        line.round
                    ));
                    pairings.push(pairing(GameResult::Unfinished));
                }
            }
        }
    }
    withdrawn
}

/// The sections asked for: all, or those whose event name or heading is `asked` (with one
/// section, it is taken whatever its name: `asked` is then its heading).
fn chosen<'a>(
    sections: &[(&'a Section, &'a [standings::Pairing])],
    asked: Option<&str>,
) -> Result<Vec<(&'a Section, &'a [standings::Pairing])>, UnknownEvent> {
    let Some(asked) = asked else {
        return Ok(sections.to_vec());
    };
    if sections.len() <= 1 {
        return Ok(sections.to_vec());
    }
    let key = normalise(asked, false);
    let matches = |s: &Section| {
        let same = |text: Option<String>| text.is_some_and(|t| normalise(&t, false) == key);
        same(s.heading()) || same(s.event.clone())
    };
    let found: Vec<_> = sections
        .iter()
        .copied()
        .filter(|(s, _)| matches(s))
        .collect();
    if found.is_empty() {
        return Err(UnknownEvent {
            asked: asked.to_owned(),
            known: sections
                .iter()
                .map(|(s, _)| s.heading().unwrap_or_else(|| "(no name)".to_owned()))
                .collect(),
        });
    }
    Ok(found)
}

impl StandingsReport {
    /// Whether every event is ranked and the request had no problem.
    pub fn is_complete(&self) -> bool {
        self.problems.is_empty() && self.events.iter().all(|e| e.standings.is_some())
    }

    /// The standings made, with their headings.
    fn ranked(&self) -> impl Iterator<Item = (&EventStandings, &Standings)> {
        self.events
            .iter()
            .filter_map(|e| e.standings.as_ref().map(|s| (e, s)))
    }

    /// Every problem, the request's then each event's (under its heading when there are
    /// several events).
    pub fn problems(&self) -> Vec<String> {
        let several = self.events.len() > 1;
        let mut out = self.problems.clone();
        for e in &self.events {
            for p in &e.problems {
                match (&e.event, several) {
                    (Some(heading), true) => out.push(format!("{heading}: {p}")),
                    _ => out.push(p.clone()),
                }
            }
        }
        out
    }

    /// The report as pretty JSON: what every front end gives.
    pub fn to_json(&self) -> String {
        // Plain data with string keys: serializing it cannot fail.
        let mut text = serde_json::to_string_pretty(self).unwrap_or_default();
        text.push('\n');
        text
    }

    /// The ranked events as aligned text tables, one after another.
    pub fn to_text(&self) -> String {
        let tables: Vec<String> = self.ranked().map(|(_, s)| s.to_text()).collect();
        tables.join("\n")
    }

    /// The ranked events as CSV: one event's table as [`Standings::to_csv`]; several, each
    /// with an `event` column first, the tables apart by an empty line.
    pub fn to_csv(&self) -> String {
        let ranked: Vec<_> = self.ranked().collect();
        if let [(_, only)] = ranked[..] {
            return only.to_csv();
        }
        let mut out = String::new();
        for (i, (e, s)) in ranked.iter().enumerate() {
            if i > 0 {
                out.push('\n');
            }
            s.write_csv(&mut out, Some(e.event.as_deref().unwrap_or("")));
        }
        out
    }

    /// The ranked events as one standalone HTML page: one event's as
    /// [`Standings::to_html`]; several, each table under its heading.
    pub fn to_html(&self) -> String {
        let ranked: Vec<_> = self.ranked().collect();
        if let [(_, only)] = ranked[..] {
            return only.to_html();
        }
        let mut out = standings::html_page_head("Standings");
        out.push_str("<h1>Standings</h1>\n");
        for (e, s) in ranked {
            let heading = e.event.as_deref().unwrap_or("Standings");
            let _ = writeln!(out, "<h2>{}</h2>", crate::render::escape_markup(heading));
            s.write_html_table(&mut out);
        }
        out.push_str(standings::HTML_END);
        out
    }
}
