//! A deliberately simple second implementation of `spec/rules.md`: a plain array board,
//! runs walked square by square, no bitboards, nothing shared with `src/engine` beyond the
//! public vocabulary (`Rules` read through its accessors, `Square`, `Color`, `IllegalMove`).
//!
//! Written from the spec, not from the engine; slow and obvious on purpose.

use reversi_record::engine::{BoardShape, Goal, IllegalMove, Opening};
use reversi_record::{Move, Rules, Square};

/// A planted bug (tests/mutation.rs): one rule of `spec/rules.md` broken, as engine
/// authors break it. `None` everywhere else.
#[allow(dead_code)]
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Bug {
    /// §5.2: the free opening's placements flip.
    OpeningFlips,
    /// §7.3: no fallback placement, so a 3-4 player game ends when nobody can flip.
    NoFallback,
    /// §7.4: the neutral disc counted as an empty square in the outcome.
    NeutralAsEmpty,
    /// §9: handicap discs counted as placed from the hands in a classic setup.
    HandicapPlaced,
    /// §6: a player out of discs keeps its legal moves.
    DiscsIgnored,
    /// §7.1: the neutral disc breaks runs instead of being flipped.
    NeutralBreaks,
    /// §3.4: the WOF score gives the empties to the loser.
    EmptiesToLoser,
    /// §2: only the first closed direction flips.
    OneDirection,
}

/// What one square holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Spot {
    /// Not a square of the board.
    Off,
    /// A blocked square.
    Blocked,
    /// Empty and playable.
    Empty,
    /// A disc of player `0..4` (turn order).
    Disc(usize),
    /// The neutral disc of a 3-player game.
    Neutral,
}

/// The eight directions as (column step, row step).
const DIRECTIONS: [(i32, i32); 8] = [
    (1, 0),
    (-1, 0),
    (0, 1),
    (0, -1),
    (1, 1),
    (-1, 1),
    (1, -1),
    (-1, -1),
];

/// A game position: the board as a 10x10 array of spots, and whose turn it is.
#[derive(Clone, Debug)]
pub struct Game {
    side: i32,
    spots: [[Spot; 10]; 10],
    players: usize,
    turn: usize,
    fewest_wins: bool,
    free_opening: bool,
    centre: [(i32, i32); 4],
    in_hand: [Option<u32>; 4],
    /// The planted bug, if any.
    pub bug: Option<Bug>,
}

/// The result of a finished game, computed from the spec.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Result {
    /// Winner's turn index, or `None` for a draw (the whole table with 3-4 players).
    pub winner: Option<usize>,
    /// Discs per player.
    pub discs: [u32; 4],
    /// Neutral discs.
    pub neutral: u32,
    /// Empty playable squares.
    pub empty: u32,
    /// Scores under raw counting.
    pub raw: [u32; 4],
    /// Scores under the WOF rule (two players; equal to `raw` otherwise).
    pub wof: [u32; 4],
}

impl Game {
    /// The start position of `rules`, read through its accessors only.
    pub fn new(rules: &Rules) -> Game {
        let side = match rules.board() {
            BoardShape::Four => 4,
            BoardShape::Six => 6,
            BoardShape::Eight => 8,
            BoardShape::Ten | BoardShape::Octagon => 10,
        };
        let octagon = rules.board() == BoardShape::Octagon;
        let mut spots = [[Spot::Off; 10]; 10];
        for row in 0..side {
            for col in 0..side {
                // The octagon cuts the triangle of 3 squares at each corner.
                let cut = octagon && col.min(side - 1 - col) + row.min(side - 1 - row) < 2;
                if !cut {
                    spots[row as usize][col as usize] = Spot::Empty;
                }
            }
        }
        for sq in rules.blocked() {
            spots[sq.row() as usize][sq.col() as usize] = Spot::Blocked;
        }
        let h = side / 2;
        let centre = [(h - 1, h - 1), (h, h - 1), (h, h), (h - 1, h)];
        let players = rules.players() as usize;
        let mut game = Game {
            side,
            spots,
            players,
            turn: 0,
            fewest_wins: rules.goal() == Goal::FewestDiscs,
            free_opening: rules.opening() == Opening::Free,
            centre,
            in_hand: [None; 4],
            bug: None,
        };
        if rules.opening() == Opening::Standard {
            let [tl, tr, br, bl] = centre;
            if players == 2 {
                for (c, r) in [tl, br] {
                    game.set(c, r, Spot::Disc(1));
                }
                for (c, r) in [tr, bl] {
                    game.set(c, r, Spot::Disc(0));
                }
            } else {
                game.set(tl.0, tl.1, Spot::Disc(0));
                game.set(tr.0, tr.1, Spot::Disc(1));
                game.set(br.0, br.1, Spot::Disc(2));
                let fourth = if players == 4 {
                    Spot::Disc(3)
                } else {
                    Spot::Neutral
                };
                game.set(bl.0, bl.1, fourth);
            }
        }
        if let Some(h) = rules.handicap() {
            for sq in h.squares {
                game.set(
                    sq.col() as i32,
                    sq.row() as i32,
                    Spot::Disc(h.color.index()),
                );
            }
        }
        if let Some(supply) = rules.supply() {
            game.in_hand[0] = Some(u32::from(supply));
            game.in_hand[1] = Some(u32::from(supply));
        }
        game
    }

    /// A custom position under `rules`: the squares of the start position are replaced by
    /// `discs` (every other square of the board empty or blocked), `turn` to move. Discs in
    /// hand (classic) follow §9: the discs on the board beyond the handicap were placed
    /// alternately from Black.
    pub fn from_setup(rules: &Rules, discs: &[(Square, Spot)], turn: usize) -> Game {
        Game::from_setup_with(rules, discs, turn, None)
    }

    /// [`Game::from_setup`] with a planted bug (tests/mutation.rs).
    pub fn from_setup_with(
        rules: &Rules,
        discs: &[(Square, Spot)],
        turn: usize,
        bug: Option<Bug>,
    ) -> Game {
        let mut game = Game::new(rules);
        game.bug = bug;
        for (c, r) in game.squares().collect::<Vec<_>>() {
            if matches!(game.get(c, r), Spot::Disc(_) | Spot::Neutral) {
                game.set(c, r, Spot::Empty);
            }
        }
        for &(sq, spot) in discs {
            game.set(sq.col() as i32, sq.row() as i32, spot);
        }
        game.turn = turn;
        if let Some(supply) = rules.supply() {
            let handicap = rules.handicap().map_or(0, |h| h.squares.len() as u32);
            let handicap = if game.bug == Some(Bug::HandicapPlaced) {
                0
            } else {
                handicap
            };
            let placed = discs.len() as u32 - handicap.min(discs.len() as u32);
            let black = if turn == 1 {
                placed.div_ceil(2)
            } else {
                placed / 2
            };
            let supply = u32::from(supply);
            game.in_hand[0] = Some(supply.saturating_sub(black));
            game.in_hand[1] = Some(supply.saturating_sub(placed - black));
        }
        game
    }

    /// Leaves of the game tree `depth` plies below (a pass is a ply; a finished game counts
    /// `finished`).
    pub fn perft(&self, depth: u32, finished: u64) -> u64 {
        if depth == 0 {
            return 1;
        }
        let legal = self.legal();
        if legal.is_empty() {
            if self.must_pass() {
                let mut child = self.clone();
                child.play(Move::Pass).expect("a forced pass is legal");
                return child.perft(depth - 1, finished);
            }
            return finished;
        }
        legal
            .into_iter()
            .map(|sq| {
                let mut child = self.clone();
                child.play(Move::Place(sq)).expect("a legal move plays");
                child.perft(depth - 1, finished)
            })
            .sum()
    }

    fn get(&self, col: i32, row: i32) -> Spot {
        if col < 0 || row < 0 || col >= 10 || row >= 10 {
            return Spot::Off;
        }
        self.spots[row as usize][col as usize]
    }

    fn set(&mut self, col: i32, row: i32, spot: Spot) {
        self.spots[row as usize][col as usize] = spot;
    }

    /// What `sq` holds.
    pub fn spot(&self, sq: Square) -> Spot {
        self.get(sq.col() as i32, sq.row() as i32)
    }

    /// The side to move.
    pub fn turn(&self) -> usize {
        self.turn
    }

    /// Sets the discs `player` has in hand (a `start:` line that gives them).
    #[allow(dead_code)]
    pub fn set_in_hand(&mut self, player: usize, n: u32) {
        self.in_hand[player] = Some(n);
    }

    /// Discs `player` has in hand, when limited.
    pub fn in_hand(&self, player: usize) -> Option<u32> {
        self.in_hand[player]
    }

    fn squares(&self) -> impl Iterator<Item = (i32, i32)> + '_ {
        (0..self.side).flat_map(move |r| (0..self.side).map(move |c| (c, r)))
    }

    fn in_free_opening(&self) -> bool {
        self.free_opening
            && self
                .centre
                .iter()
                .any(|&(c, r)| self.get(c, r) == Spot::Empty)
    }

    /// The discs `mover` would flip by placing on the empty square (col, row).
    fn flips_for(&self, mover: usize, col: i32, row: i32) -> Vec<(i32, i32)> {
        let mut flipped = Vec::new();
        if self.in_free_opening() && self.bug != Some(Bug::OpeningFlips) {
            return flipped;
        }
        for (dc, dr) in DIRECTIONS {
            let mut run = Vec::new();
            let (mut c, mut r) = (col + dc, row + dr);
            loop {
                match self.get(c, r) {
                    Spot::Disc(p) if p != mover => run.push((c, r)),
                    Spot::Neutral if self.bug != Some(Bug::NeutralBreaks) => run.push((c, r)),
                    _ => break,
                }
                c += dc;
                r += dr;
            }
            let anchor = self.get(c, r) == Spot::Disc(mover);
            if anchor && (self.bug != Some(Bug::OneDirection) || flipped.is_empty()) {
                flipped.extend(run);
            }
        }
        flipped
    }

    /// Whether `mover` placing on (col, row) would close at least one run.
    fn closes_a_run(&self, mover: usize, col: i32, row: i32) -> bool {
        DIRECTIONS.iter().any(|&(dc, dr)| {
            let (mut c, mut r) = (col + dc, row + dr);
            let mut length = 0;
            while matches!(self.get(c, r), Spot::Disc(p) if p != mover)
                || (self.get(c, r) == Spot::Neutral && self.bug != Some(Bug::NeutralBreaks))
            {
                length += 1;
                c += dc;
                r += dr;
            }
            length > 0 && self.get(c, r) == Spot::Disc(mover)
        })
    }

    fn touches_a_disc(&self, col: i32, row: i32) -> bool {
        DIRECTIONS
            .iter()
            .any(|&(dc, dr)| matches!(self.get(col + dc, row + dr), Spot::Disc(_) | Spot::Neutral))
    }

    /// Squares where `mover` may place, as (col, row).
    fn legal_for(&self, mover: usize) -> Vec<(i32, i32)> {
        if self.in_hand[mover] == Some(0) && self.bug != Some(Bug::DiscsIgnored) {
            return Vec::new();
        }
        let empty: Vec<(i32, i32)> = self
            .squares()
            .filter(|&(c, r)| self.get(c, r) == Spot::Empty)
            .collect();
        if self.in_free_opening() {
            return empty
                .into_iter()
                .filter(|sq| self.centre.contains(sq))
                .collect();
        }
        let flipping: Vec<(i32, i32)> = empty
            .iter()
            .copied()
            .filter(|&(c, r)| self.closes_a_run(mover, c, r))
            .collect();
        if self.players > 2 && flipping.is_empty() && self.bug != Some(Bug::NoFallback) {
            return empty
                .into_iter()
                .filter(|&(c, r)| self.touches_a_disc(c, r))
                .collect();
        }
        flipping
    }

    /// Squares where the side to move may place.
    pub fn legal(&self) -> Vec<Square> {
        self.legal_for(self.turn)
            .into_iter()
            .map(|(c, r)| Square::new(c as u8, r as u8).expect("on the grid"))
            .collect()
    }

    /// The discs a placement of the side to move on `sq` flips (no legality check).
    pub fn flips(&self, sq: Square) -> Vec<Square> {
        self.flips_for(self.turn, sq.col() as i32, sq.row() as i32)
            .into_iter()
            .map(|(c, r)| Square::new(c as u8, r as u8).expect("on the grid"))
            .collect()
    }

    /// Whether the game is over: nobody can place a disc.
    pub fn is_over(&self) -> bool {
        if !self.legal_for(self.turn).is_empty() {
            return false;
        }
        self.players > 2 || self.legal_for(1 - self.turn).is_empty()
    }

    /// Whether the side to move must pass.
    pub fn must_pass(&self) -> bool {
        self.players == 2
            && self.legal_for(self.turn).is_empty()
            && !self.legal_for(1 - self.turn).is_empty()
    }

    /// Checks `mv`: the discs a placement flips, or why it is refused, in the spec's order.
    pub fn check(&self, mv: Move) -> std::result::Result<Vec<Square>, IllegalMove> {
        let legal = self.legal_for(self.turn);
        let over =
            || legal.is_empty() && (self.players > 2 || self.legal_for(1 - self.turn).is_empty());
        match mv {
            Move::Pass => {
                if over() {
                    Err(IllegalMove::GameOver)
                } else if self.players > 2
                    || (self.in_free_opening() && self.in_hand[self.turn] != Some(0))
                {
                    Err(IllegalMove::PassNotAllowed)
                } else if !legal.is_empty() {
                    Err(IllegalMove::PassWithMoves)
                } else {
                    Ok(Vec::new())
                }
            }
            Move::Place(sq) => {
                let (c, r) = (sq.col() as i32, sq.row() as i32);
                match self.get(c, r) {
                    Spot::Blocked => return Err(IllegalMove::Blocked),
                    Spot::Off => return Err(IllegalMove::OffBoard),
                    _ => {}
                }
                if legal.contains(&(c, r)) {
                    return Ok(self.flips(sq));
                }
                if over() {
                    return Err(IllegalMove::GameOver);
                }
                if self.get(c, r) != Spot::Empty {
                    return Err(IllegalMove::Occupied);
                }
                if self.in_hand[self.turn] == Some(0) {
                    return Err(IllegalMove::NoDiscsLeft);
                }
                if self.in_free_opening() {
                    return Err(IllegalMove::OutsideCentre);
                }
                if self.players > 2 {
                    let any_flip = self
                        .squares()
                        .filter(|&(c, r)| self.get(c, r) == Spot::Empty)
                        .any(|(c, r)| self.closes_a_run(self.turn, c, r));
                    return Err(if any_flip {
                        IllegalMove::FlipAvailable
                    } else {
                        IllegalMove::NotTouching
                    });
                }
                Err(IllegalMove::FlipsNothing)
            }
        }
    }

    /// Plays `mv` if legal, returning the flipped discs.
    pub fn play(&mut self, mv: Move) -> std::result::Result<Vec<Square>, IllegalMove> {
        let flipped = self.check(mv)?;
        if let Move::Place(sq) = mv {
            self.set(sq.col() as i32, sq.row() as i32, Spot::Disc(self.turn));
            for f in &flipped {
                self.set(f.col() as i32, f.row() as i32, Spot::Disc(self.turn));
            }
            if let Some(n) = &mut self.in_hand[self.turn] {
                *n -= 1;
            }
        }
        self.turn = (self.turn + 1) % self.players;
        Ok(flipped)
    }

    /// The result the board gives now.
    pub fn result(&self) -> Result {
        let mut discs = [0u32; 4];
        let (mut neutral, mut empty) = (0, 0);
        for (c, r) in self.squares() {
            match self.get(c, r) {
                Spot::Disc(p) => discs[p] += 1,
                Spot::Neutral if self.bug == Some(Bug::NeutralAsEmpty) => empty += 1,
                Spot::Neutral => neutral += 1,
                Spot::Empty => empty += 1,
                Spot::Off | Spot::Blocked => {}
            }
        }
        let counts = &discs[..self.players];
        let best = if self.fewest_wins {
            *counts.iter().min().expect("players")
        } else {
            *counts.iter().max().expect("players")
        };
        let leaders: Vec<usize> = (0..self.players).filter(|&p| discs[p] == best).collect();
        let winner = (leaders.len() == 1).then(|| leaders[0]);
        let raw = discs;
        let mut wof = discs;
        if self.players == 2 {
            // Empties go to the side with more discs (the winner, or the loser in anti);
            // a draw splits them, an odd one left unscored.
            let swap = self.bug == Some(Bug::EmptiesToLoser);
            if discs[0] != discs[1] {
                let more = usize::from(discs[1] > discs[0]);
                wof[if swap { 1 - more } else { more }] += empty;
            } else {
                wof[0] += empty / 2;
                wof[1] += empty / 2;
            }
        }
        Result {
            winner,
            discs,
            neutral,
            empty,
            raw,
            wof,
        }
    }
}
