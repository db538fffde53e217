//! The counters sorted into a [`StatsReport`].

use std::collections::HashMap;

use super::opening::opening_text;
use super::report::{
    BoardSquares, EventCount, LengthCount, MarginCount, OpeningCount, PlayerCount, ResultCount,
    RulesCount, SquareCount, StatsReport, YearCount,
};
use super::{ResultKind, Stats, DEFAULT_TOP, GRID};
use crate::engine::{BoardShape, Square};

impl Stats {
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

pub(super) fn board_squares(board: BoardShape, games: u64, counts: &[u64; GRID]) -> BoardSquares {
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
