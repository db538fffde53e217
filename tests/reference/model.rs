//! A deliberately simple second implementation of `spec/rules.md`: a plain array board,
//! runs walked square by square, no bitboards, nothing shared with `crates/engine/src` beyond the
//! public vocabulary (`Rules` read through its accessors, `Square`, `Color`, `IllegalMove`).
//!
//! Written from the spec, not from the engine; slow and obvious on purpose.

use reversi_engine::{BoardShape, Goal, IllegalMove, Opening, Scoring};
use reversi_engine::{Move, Rules, Square};

/// A planted bug (tests/mutation.rs): one rule of `spec/rules.md` broken, as engine
/// authors break it. `None` everywhere else. The table of `tests/mutation.rs` maps each
/// section of the spec to its bugs and the scenarios that catch them.
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
    /// §2: a "run" of no discs counts as closed: a placement next to an own disc is legal.
    AdjacentCloses,
    /// §2, §4: rays walk off the left or right edge onto the next or previous row (a
    /// linear index stepped by 1 without an edge check).
    RaysWrap,
    /// §2: White moves first from the start position.
    WhiteFirst,
    /// §3.1: the two-player centre discs are swapped (Black on the top-left).
    StartSwapped,
    /// §3.2: a pass is accepted while the player has a legal move.
    PassWithMovesAccepted,
    /// §3.3: the game ends as soon as the side to move has no move (no pass).
    EndsOnFirstPass,
    /// §3.3: the game ends only when the board is full or a colour is wiped out; a mutual
    /// block goes on with both sides passing.
    OverOnlyWhenFull,
    /// §3.4: a drawn game's empties all go to Black.
    DrawEmptiesToBlack,
    /// §3.4: the odd empty square of a drawn game is scored for Black.
    OddEmptyScored,
    /// §4: the octagon's cut corners are ordinary squares.
    CutCornersPlayable,
    /// §4: the octagon cuts 6 squares at each corner (b2 too), an off-by-one.
    OctagonCutsMore,
    /// §5.1: `anti` ignored: the most discs win.
    AntiIgnored,
    /// §5.1: in anti the WOF empties go to the winner (the side with fewer discs).
    AntiEmptiesToWinner,
    /// §5.2: the free opening's placements may go on any empty square.
    OpeningAnywhere,
    /// §5.2, §9: the opening judged by the number of discs on the board (fewer than 4)
    /// instead of an empty centre square.
    OpeningByCount,
    /// §5.3: a blocked square can be played like an empty one (it still breaks runs).
    BlockedPlayable,
    /// §5.3: a blocked square is part of a run (as a disc not the mover's) and flips.
    BlockedInRuns,
    /// §5.3, §7.3: a blocked square counts as touching for the fallback.
    BlockedTouches,
    /// §5.3: blocked squares counted as empty in the outcome.
    BlockedCountedEmpty,
    /// §5.4: the handicap discs are always Black's.
    HandicapForBlack,
    /// §5.4: a disc on a handicap corner never closes a run (the corners kept apart).
    HandicapNotAnchor,
    /// §5.5: `scoring=raw` ignored: two-player games always score WOF.
    RawIgnored,
    /// §5.5, §7.4: 3-4 player games give the empty squares to the winner.
    MultiWof,
    /// §6: a player out of discs is given one from the opponent's supply.
    OpponentGivesDisc,
    /// §6: the free opening's four placements take no disc from the hand.
    OpeningFree,
    /// §6: a player without discs may not pass during the opening (the stuck position).
    NoDiscsOpeningStuck,
    /// §6: the game ends as soon as a player is out of discs (the opponent does not play on).
    EndsWhenOutOfDiscs,
    /// §6: a pass hands one of the passer's discs to the opponent (an old tradition).
    PassHandsDisc,
    /// §7.1: 3-4 player turns go round the wrong way (Black, then the last colour).
    TurnOrderReversed,
    /// §7.1: the 3-4 player start discs placed anticlockwise from the top-left.
    MultiStartRotated,
    /// §7.1, §7.2: the neutral disc closes a run like the mover's own disc.
    NeutralAnchors,
    /// §7.3: the neutral disc does not count as touching for the fallback.
    NeutralNotTouching,
    /// §7.3: touching only along an edge, not at a corner.
    EdgeOnlyTouching,
    /// §7.3: the fallback places on any empty square, touching or not.
    FallbackAnywhere,
    /// §7.4: a tie for first place goes to the first of the tied in turn order (Black
    /// wins a two-player draw).
    TieToFirst,
    /// §8: `Occupied` before `GameOver`.
    OccupiedBeforeGameOver,
    /// §8: `GameOver` before `Blocked` and `OffBoard`.
    GameOverBeforeBlocked,
    /// §8: `NoDiscsLeft` before `Occupied`.
    NoDiscsBeforeOccupied,
    /// §8: `OutsideCentre` before `NoDiscsLeft`.
    CentreBeforeNoDiscs,
    /// §8, §7.3: `NotTouching` before `FlipAvailable`.
    NotTouchingFirst,
    /// §8: a pass with legal moves is `PassWithMoves` even where nobody passes
    /// (`PassNotAllowed`: the free opening, 3-4 players).
    PassKindOrder,
    /// §9: the derived discs in hand rounded the wrong way (Black placed half rounded up
    /// when Black is to move).
    InHandRounding,
    /// §9: a disc on a blocked square or a cut corner accepted (`NotPlayable` unchecked).
    NotPlayableUnchecked,
    /// §9: discs or the move of a colour that does not take part accepted
    /// (`ColorNotPlaying` unchecked).
    ColorsUnchecked,
    /// §9: a neutral disc accepted outside a 3-player game (`NeutralNotAllowed` unchecked).
    NeutralAllowed,
    /// §9: the setup checks out of order (`NeutralNotAllowed` before `ColorNotPlaying`).
    SetupCheckOrder,
    /// §9: the discs in hand a setup gives are not checked (`InHandAboveSupply`,
    /// `InHandAboveTotal`).
    HandsUnchecked,
    /// §9: the handicap discs counted with the discs placed in `InHandAboveTotal`.
    TotalCountsHandicap,
    /// §2: a run of more than six discs never closes (a fixed-length walk).
    RunCapSix,
    /// §2: a run of more than seven discs never closes.
    RunCapSeven,
    /// §2, §4: rays stop before the last row (an off-by-one in the row bound).
    LastRowIgnored,
    /// §2, §4: rays stop before the last column.
    LastColumnIgnored,
    /// §4: the tenth row is off the board (row numbers read as one digit).
    TenthRowOff,
    /// §4: the tenth column (`j`) is off the board.
    TenthColumnOff,
    /// §4: the octagon's bottom-right corner is not cut.
    OctagonBottomRightUncut,
    /// §4: the octagon cuts only its four corner squares.
    OctagonCutsFewer,
    /// §5.5: raw scoring gives the empty squares to the winner.
    RawEmptiesToWinner,
    /// §3.4: the WOF empties of a win always go to Black.
    WofEmptiesToBlack,
    /// §5.1: the empty squares of an anti draw go to White.
    AntiDrawToWhite,
    /// §5.5: raw scoring splits the empty squares of a draw.
    RawDrawSplit,
    /// §3.4: the WOF score leaves the empty squares unscored (the raw score).
    EmptiesUnscored,
    /// §2: no diagonal runs.
    NoDiagonals,
    /// §2: only the disc next to the new one flips in each closed run.
    FirstDiscOnly,
    /// §3.1, §4: the start discs on d4 e4 d5 e5 whatever the board.
    CentreFromEight,
    /// §3.2: a pass leaves the side to move unchanged.
    PassKeepsTurn,
    /// §7.4: the neutral disc counted as Black's in the outcome.
    NeutralScoredForBlack,
    /// §8: an occupied square refused as `FlipsNothing` in two-player games.
    OccupiedAsFlipsNothing,
    /// §9: a neutral disc accepted in a 4-player setup (checked for two players only).
    NeutralAllowedInFour,
    /// §9: the side to move of a setup ignored (Black moves).
    TurnIgnoredInSetup,
    /// §6: each player has 31 discs, not 32.
    SupplyOffByOne,
    /// §3.3: at the end the key names the last mover instead of the side after it.
    LastMoverNamedAtEnd,
    /// §3.3, §8: a pass after the end refused as `PassNotAllowed`, not `GameOver`.
    OverPassNotAllowed,
    /// §8: a square off the board refused as `Blocked`.
    OffBoardAsBlocked,
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
    raw_scoring: bool,
    free_opening: bool,
    centre: [(i32, i32); 4],
    handicap: Vec<(i32, i32)>,
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
    /// The scores the rules give (`raw` or `wof`, §5.5).
    pub score: [u32; 4],
    /// The name of the scoring the rules give: `wof` or `raw`.
    pub scoring: &'static str,
}

impl Game {
    /// The start position of `rules`, read through its accessors only.
    pub fn new(rules: &Rules) -> Game {
        Game::new_with(rules, None)
    }

    /// [`Game::new`] with a planted bug (tests/mutation.rs).
    pub fn new_with(rules: &Rules, bug: Option<Bug>) -> Game {
        let side = match rules.board() {
            BoardShape::Four => 4,
            BoardShape::Six => 6,
            BoardShape::Eight => 8,
            BoardShape::Ten | BoardShape::Octagon => 10,
        };
        let octagon = rules.board() == BoardShape::Octagon;
        let cut_below = match bug {
            Some(Bug::OctagonCutsMore) => 3,
            Some(Bug::OctagonCutsFewer) => 1,
            _ => 2,
        };
        let mut spots = [[Spot::Off; 10]; 10];
        for row in 0..side {
            for col in 0..side {
                // The octagon cuts the triangle of 3 squares at each corner.
                let cut = octagon
                    && bug != Some(Bug::CutCornersPlayable)
                    && col.min(side - 1 - col) + row.min(side - 1 - row) < cut_below
                    && !(bug == Some(Bug::OctagonBottomRightUncut) && col > 4 && row > 4);
                let tenth = side == 10
                    && ((bug == Some(Bug::TenthRowOff) && row == 9)
                        || (bug == Some(Bug::TenthColumnOff) && col == 9));
                if !cut && !tenth {
                    spots[row as usize][col as usize] = Spot::Empty;
                }
            }
        }
        for sq in rules.blocked() {
            spots[sq.row() as usize][sq.col() as usize] = Spot::Blocked;
        }
        let h = if bug == Some(Bug::CentreFromEight) {
            4
        } else {
            side / 2
        };
        let centre = [(h - 1, h - 1), (h, h - 1), (h, h), (h - 1, h)];
        let players = rules.players() as usize;
        let mut game = Game {
            side,
            spots,
            players,
            turn: 0,
            fewest_wins: rules.goal() == Goal::FewestDiscs && bug != Some(Bug::AntiIgnored),
            raw_scoring: rules.scoring() == Scoring::Raw || players > 2,
            free_opening: rules.opening() == Opening::Free,
            centre,
            handicap: Vec::new(),
            in_hand: [None; 4],
            bug,
        };
        if rules.opening() == Opening::Standard {
            let [tl, tr, br, bl] = centre;
            if players == 2 {
                let (white, black) = if bug == Some(Bug::StartSwapped) {
                    (1, 0)
                } else {
                    (0, 1)
                };
                for (c, r) in [tl, br] {
                    game.set(c, r, Spot::Disc(black));
                }
                for (c, r) in [tr, bl] {
                    game.set(c, r, Spot::Disc(white));
                }
            } else {
                // Clockwise from the top-left (anticlockwise with the bug).
                let order = if bug == Some(Bug::MultiStartRotated) {
                    [tl, bl, br, tr]
                } else {
                    [tl, tr, br, bl]
                };
                for (p, (c, r)) in order.into_iter().enumerate() {
                    let spot = if p == 3 && players == 3 {
                        Spot::Neutral
                    } else {
                        Spot::Disc(p)
                    };
                    game.set(c, r, spot);
                }
            }
        }
        if let Some(h) = rules.handicap() {
            let colour = if bug == Some(Bug::HandicapForBlack) {
                0
            } else {
                h.color.index()
            };
            for sq in h.squares {
                let (c, r) = (sq.col() as i32, sq.row() as i32);
                game.set(c, r, Spot::Disc(colour));
                game.handicap.push((c, r));
            }
        }
        if let Some(supply) = rules.supply() {
            let supply = u32::from(supply) - u32::from(bug == Some(Bug::SupplyOffByOne));
            game.in_hand[0] = Some(supply);
            game.in_hand[1] = Some(supply);
        }
        if bug == Some(Bug::WhiteFirst) && players == 2 {
            game.turn = 1;
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
        let mut game = Game::new_with(rules, bug);
        for (c, r) in game.squares().collect::<Vec<_>>() {
            if matches!(game.get(c, r), Spot::Disc(_) | Spot::Neutral) {
                game.set(c, r, Spot::Empty);
            }
        }
        for &(sq, spot) in discs {
            game.set(sq.col() as i32, sq.row() as i32, spot);
        }
        game.turn = if game.bug == Some(Bug::TurnIgnoredInSetup) {
            0
        } else {
            turn
        };
        if let Some(supply) = rules.supply() {
            let handicap = rules.handicap().map_or(0, |h| h.squares.len() as u32);
            let handicap = if game.bug == Some(Bug::HandicapPlaced) {
                0
            } else {
                handicap
            };
            let placed = discs.len() as u32 - handicap.min(discs.len() as u32);
            let rounded_up = (turn == 1) != (game.bug == Some(Bug::InHandRounding));
            let black = if rounded_up {
                placed.div_ceil(2)
            } else {
                placed / 2
            };
            let supply = u32::from(supply) - u32::from(game.bug == Some(Bug::SupplyOffByOne));
            game.in_hand[0] = Some(supply.saturating_sub(black));
            game.in_hand[1] = Some(supply.saturating_sub(placed - black));
        }
        game
    }

    /// Why `rules` refuses a setup (§9): `discs` as drawn, on any square of the grid,
    /// `turn`, and in classic reversi the discs in hand the setup gives. The kind's name,
    /// checked in the spec's order; `None` when the setup is accepted. (`Overlap` cannot be
    /// drawn: a square shows one disc.)
    #[allow(dead_code)]
    pub fn setup_refusal(
        rules: &Rules,
        discs: &[(Square, Spot)],
        turn: usize,
        hands: Option<[u32; 2]>,
        bug: Option<Bug>,
    ) -> Option<&'static str> {
        let board = Game::new_with(rules, bug);
        let players = rules.players() as usize;
        let not_playable = discs
            .iter()
            .any(|&(sq, _)| matches!(board.spot(sq), Spot::Off | Spot::Blocked));
        if not_playable && bug != Some(Bug::NotPlayableUnchecked) {
            return Some("NotPlayable");
        }
        let foreign = turn >= players
            || discs
                .iter()
                .any(|&(_, spot)| matches!(spot, Spot::Disc(p) if p >= players));
        let foreign = foreign && bug != Some(Bug::ColorsUnchecked);
        let neutral = players != 3
            && !(bug == Some(Bug::NeutralAllowedInFour) && players == 4)
            && bug != Some(Bug::NeutralAllowed)
            && discs.iter().any(|&(_, spot)| spot == Spot::Neutral);
        if bug == Some(Bug::SetupCheckOrder) && neutral {
            return Some("NeutralNotAllowed");
        }
        if foreign {
            return Some("ColorNotPlaying");
        }
        if neutral {
            return Some("NeutralNotAllowed");
        }
        let (Some(hands), Some(supply)) = (hands, rules.supply()) else {
            return None;
        };
        if bug == Some(Bug::HandsUnchecked) {
            return None;
        }
        let supply = u32::from(supply);
        if hands.iter().any(|&n| n > supply) {
            return Some("InHandAboveSupply");
        }
        let handicap = if bug == Some(Bug::TotalCountsHandicap) {
            0
        } else {
            rules.handicap().map_or(0, |h| h.squares.len())
        };
        let placed = discs
            .iter()
            .filter(|(_, spot)| matches!(spot, Spot::Disc(_)))
            .count()
            .saturating_sub(handicap) as u32;
        (hands[0] + hands[1] + placed > 2 * supply).then_some("InHandAboveTotal")
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

    /// The side of the board's grid (10 for the octagon).
    #[allow(dead_code)]
    pub fn side(&self) -> u8 {
        self.side as u8
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

    /// Whether the position is in a free opening's centre placements (§5.2, §9).
    pub fn in_opening(&self) -> bool {
        if !self.free_opening {
            return false;
        }
        if self.bug == Some(Bug::OpeningByCount) {
            let discs = self
                .squares()
                .filter(|&(c, r)| matches!(self.get(c, r), Spot::Disc(_) | Spot::Neutral))
                .count();
            return discs < 4;
        }
        self.centre
            .iter()
            .any(|&(c, r)| self.get(c, r) == Spot::Empty)
    }

    /// The next square from (col, row) in direction (dc, dr).
    fn step(&self, col: i32, row: i32, dc: i32, dr: i32) -> (i32, i32) {
        let (mut c, mut r) = (col + dc, row + dr);
        if self.bug == Some(Bug::RaysWrap) {
            if c >= self.side {
                c -= self.side;
                r += 1;
            } else if c < 0 {
                c += self.side;
                r -= 1;
            }
        }
        (c, r)
    }

    /// The run `mover` closes from (col, row) in direction (dc, dr), if closed.
    fn closed_run(
        &self,
        mover: usize,
        col: i32,
        row: i32,
        dc: i32,
        dr: i32,
    ) -> Option<Vec<(i32, i32)>> {
        let mut run = Vec::new();
        if self.bug == Some(Bug::NoDiagonals) && dc != 0 && dr != 0 {
            return None;
        }
        let (mut c, mut r) = self.step(col, row, dc, dr);
        loop {
            let beyond = (self.bug == Some(Bug::LastRowIgnored) && r == self.side - 1)
                || (self.bug == Some(Bug::LastColumnIgnored) && c == self.side - 1);
            let spot = if beyond { Spot::Off } else { self.get(c, r) };
            let anchor = spot == Spot::Disc(mover)
                && !(self.bug == Some(Bug::HandicapNotAnchor) && self.handicap.contains(&(c, r)));
            let neutral_anchor =
                spot == Spot::Neutral && self.bug == Some(Bug::NeutralAnchors) && !run.is_empty();
            if anchor || neutral_anchor {
                let cap = match self.bug {
                    Some(Bug::RunCapSix) => 6,
                    Some(Bug::RunCapSeven) => 7,
                    _ => usize::MAX,
                };
                let closed =
                    (!run.is_empty() || self.bug == Some(Bug::AdjacentCloses)) && run.len() <= cap;
                return closed.then_some(run);
            }
            let in_run = match spot {
                Spot::Disc(p) => p != mover,
                Spot::Neutral => self.bug != Some(Bug::NeutralBreaks),
                Spot::Blocked => self.bug == Some(Bug::BlockedInRuns),
                Spot::Empty | Spot::Off => false,
            };
            if !in_run {
                return None;
            }
            run.push((c, r));
            (c, r) = self.step(c, r, dc, dr);
        }
    }

    /// The discs `mover` would flip by placing on the empty square (col, row).
    fn flips_for(&self, mover: usize, col: i32, row: i32) -> Vec<(i32, i32)> {
        let mut flipped = Vec::new();
        if self.in_opening() && self.bug != Some(Bug::OpeningFlips) {
            return flipped;
        }
        for (dc, dr) in DIRECTIONS {
            if let Some(run) = self.closed_run(mover, col, row, dc, dr) {
                if self.bug != Some(Bug::OneDirection) || flipped.is_empty() {
                    let keep = if self.bug == Some(Bug::FirstDiscOnly) {
                        1
                    } else {
                        run.len()
                    };
                    flipped.extend(run.into_iter().take(keep));
                }
            }
        }
        flipped
    }

    /// Whether `mover` placing on (col, row) would close at least one run.
    fn closes_a_run(&self, mover: usize, col: i32, row: i32) -> bool {
        DIRECTIONS
            .iter()
            .any(|&(dc, dr)| self.closed_run(mover, col, row, dc, dr).is_some())
    }

    fn touches_a_disc(&self, col: i32, row: i32) -> bool {
        DIRECTIONS.iter().any(|&(dc, dr)| {
            if self.bug == Some(Bug::EdgeOnlyTouching) && dc != 0 && dr != 0 {
                return false;
            }
            match self.get(col + dc, row + dr) {
                Spot::Disc(_) => true,
                Spot::Neutral => self.bug != Some(Bug::NeutralNotTouching),
                Spot::Blocked => self.bug == Some(Bug::BlockedTouches),
                Spot::Empty | Spot::Off => false,
            }
        })
    }

    /// Whether a disc could be placed on (col, row) if the rest allowed it.
    fn open(&self, col: i32, row: i32) -> bool {
        match self.get(col, row) {
            Spot::Empty => true,
            Spot::Blocked => self.bug == Some(Bug::BlockedPlayable),
            _ => false,
        }
    }

    /// Whether `mover` is out of discs (and not given one by the opponent, with the bug).
    fn out_of_discs(&self, mover: usize) -> bool {
        if self.in_hand[mover] != Some(0) || self.bug == Some(Bug::DiscsIgnored) {
            return false;
        }
        !(self.bug == Some(Bug::OpponentGivesDisc)
            && self.in_hand[1 - mover].is_some_and(|n| n > 0))
    }

    /// Squares where `mover` may place, as (col, row).
    fn legal_for(&self, mover: usize) -> Vec<(i32, i32)> {
        if self.out_of_discs(mover) {
            return Vec::new();
        }
        let empty: Vec<(i32, i32)> = self.squares().filter(|&(c, r)| self.open(c, r)).collect();
        if self.in_opening() {
            if self.bug == Some(Bug::OpeningAnywhere) {
                return empty;
            }
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
            if self.bug == Some(Bug::FallbackAnywhere) {
                return empty;
            }
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
        if self.bug == Some(Bug::EndsWhenOutOfDiscs) && self.in_hand.contains(&Some(0)) {
            return true;
        }
        if !self.legal_for(self.turn).is_empty() {
            return false;
        }
        if self.players > 2 || self.bug == Some(Bug::EndsOnFirstPass) {
            return true;
        }
        if !self.legal_for(1 - self.turn).is_empty() {
            return false;
        }
        if self.bug == Some(Bug::OverOnlyWhenFull) {
            let mut discs = [0; 2];
            let mut empty = 0;
            for (c, r) in self.squares() {
                match self.get(c, r) {
                    Spot::Disc(p) => discs[p] += 1,
                    Spot::Empty => empty += 1,
                    _ => {}
                }
            }
            return empty == 0 || discs.contains(&0);
        }
        true
    }

    /// Whether the side to move must pass.
    pub fn must_pass(&self) -> bool {
        self.players == 2 && self.legal_for(self.turn).is_empty() && !self.is_over()
    }

    /// Checks `mv`: the discs a placement flips, or why it is refused, in the spec's order.
    pub fn check(&self, mv: Move) -> std::result::Result<Vec<Square>, IllegalMove> {
        let legal = self.legal_for(self.turn);
        let over = self.is_over();
        let bug = |b: Bug| self.bug == Some(b);
        match mv {
            Move::Pass => {
                let not_allowed = self.players > 2
                    || (self.in_opening()
                        && (bug(Bug::NoDiscsOpeningStuck) || !self.out_of_discs(self.turn)));
                if over && bug(Bug::OverPassNotAllowed) {
                    Err(IllegalMove::PassNotAllowed)
                } else if over {
                    Err(IllegalMove::GameOver)
                } else if bug(Bug::PassKindOrder) && !legal.is_empty() {
                    Err(IllegalMove::PassWithMoves)
                } else if not_allowed {
                    Err(IllegalMove::PassNotAllowed)
                } else if !legal.is_empty() && !bug(Bug::PassWithMovesAccepted) {
                    Err(IllegalMove::PassWithMoves)
                } else {
                    Ok(Vec::new())
                }
            }
            Move::Place(sq) => {
                let (c, r) = (sq.col() as i32, sq.row() as i32);
                if over && bug(Bug::GameOverBeforeBlocked) {
                    return Err(IllegalMove::GameOver);
                }
                match self.get(c, r) {
                    Spot::Blocked if !bug(Bug::BlockedPlayable) => {
                        return Err(IllegalMove::Blocked)
                    }
                    Spot::Off if bug(Bug::OffBoardAsBlocked) => return Err(IllegalMove::Blocked),
                    Spot::Off => return Err(IllegalMove::OffBoard),
                    _ => {}
                }
                if legal.contains(&(c, r)) && !over {
                    return Ok(self.flips(sq));
                }
                let occupied = !self.open(c, r);
                let no_discs = self.out_of_discs(self.turn);
                let outside = self.in_opening();
                if occupied && bug(Bug::OccupiedBeforeGameOver) {
                    return Err(IllegalMove::Occupied);
                }
                if over {
                    return Err(IllegalMove::GameOver);
                }
                if no_discs && bug(Bug::NoDiscsBeforeOccupied) {
                    return Err(IllegalMove::NoDiscsLeft);
                }
                if occupied && bug(Bug::OccupiedAsFlipsNothing) && self.players == 2 {
                    return Err(IllegalMove::FlipsNothing);
                }
                if occupied {
                    return Err(IllegalMove::Occupied);
                }
                if outside && bug(Bug::CentreBeforeNoDiscs) {
                    return Err(IllegalMove::OutsideCentre);
                }
                if no_discs {
                    return Err(IllegalMove::NoDiscsLeft);
                }
                if outside {
                    return Err(IllegalMove::OutsideCentre);
                }
                if self.players > 2 {
                    if bug(Bug::NotTouchingFirst) && !self.touches_a_disc(c, r) {
                        return Err(IllegalMove::NotTouching);
                    }
                    let any_flip = self
                        .squares()
                        .filter(|&(c, r)| self.open(c, r))
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
        if mv == Move::Pass && self.bug == Some(Bug::PassHandsDisc) && self.players == 2 {
            let (me, other) = (self.turn, 1 - self.turn);
            if let (Some(mine), Some(theirs)) = (self.in_hand[me], self.in_hand[other]) {
                if mine > 0 {
                    self.in_hand[me] = Some(mine - 1);
                    self.in_hand[other] = Some(theirs + 1);
                }
            }
        }
        if let Move::Place(sq) = mv {
            let free = self.in_opening() && self.bug == Some(Bug::OpeningFree);
            self.set(sq.col() as i32, sq.row() as i32, Spot::Disc(self.turn));
            for f in &flipped {
                self.set(f.col() as i32, f.row() as i32, Spot::Disc(self.turn));
            }
            let given =
                self.in_hand[self.turn] == Some(0) && self.bug == Some(Bug::OpponentGivesDisc);
            let from = if given { 1 - self.turn } else { self.turn };
            if let Some(n) = &mut self.in_hand[from] {
                if !free {
                    *n = n.saturating_sub(1);
                }
            }
        }
        let mover = self.turn;
        self.turn = if self.players > 2 && self.bug == Some(Bug::TurnOrderReversed) {
            (self.turn + self.players - 1) % self.players
        } else if mv == Move::Pass && self.bug == Some(Bug::PassKeepsTurn) {
            self.turn
        } else {
            (self.turn + 1) % self.players
        };
        if self.bug == Some(Bug::LastMoverNamedAtEnd) && self.is_over() {
            self.turn = mover;
        }
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
                Spot::Neutral if self.bug == Some(Bug::NeutralScoredForBlack) => discs[0] += 1,
                Spot::Neutral => neutral += 1,
                Spot::Empty => empty += 1,
                Spot::Blocked if self.bug == Some(Bug::BlockedCountedEmpty) => empty += 1,
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
        let winner = (leaders.len() == 1 || self.bug == Some(Bug::TieToFirst)).then(|| leaders[0]);
        let mut raw = discs;
        let mut wof = discs;
        if self.players == 2 && discs[0] != discs[1] && self.bug == Some(Bug::RawEmptiesToWinner) {
            if let Some(w) = winner {
                raw[w] += empty;
            }
        }
        if self.players == 2 && discs[0] == discs[1] && self.bug == Some(Bug::RawDrawSplit) {
            raw[0] += empty / 2;
            raw[1] += empty / 2;
        }
        if self.players == 2 && self.bug != Some(Bug::EmptiesUnscored) {
            // Empties go to the side with more discs (the winner, or the loser in anti);
            // a draw splits them, an odd one left unscored.
            let mut swap = self.bug == Some(Bug::EmptiesToLoser);
            if self.fewest_wins && self.bug == Some(Bug::AntiEmptiesToWinner) {
                swap = !swap;
            }
            if discs[0] != discs[1] {
                let more = usize::from(discs[1] > discs[0]);
                let to = if self.bug == Some(Bug::WofEmptiesToBlack) {
                    0
                } else if swap {
                    1 - more
                } else {
                    more
                };
                wof[to] += empty;
            } else if self.fewest_wins && self.bug == Some(Bug::AntiDrawToWhite) {
                wof[1] += empty;
            } else if self.bug == Some(Bug::DrawEmptiesToBlack) {
                wof[0] += empty;
            } else if self.bug == Some(Bug::OddEmptyScored) {
                wof[0] += empty.div_ceil(2);
                wof[1] += empty / 2;
            } else {
                wof[0] += empty / 2;
                wof[1] += empty / 2;
            }
        } else if self.bug == Some(Bug::MultiWof) {
            if let Some(w) = winner {
                wof[w] += empty;
            }
        }
        let raw_scoring = if self.players == 2 {
            self.raw_scoring && self.bug != Some(Bug::RawIgnored)
        } else {
            self.bug != Some(Bug::MultiWof)
        };
        Result {
            winner,
            discs,
            neutral,
            empty,
            raw,
            wof,
            score: if raw_scoring { raw } else { wof },
            scoring: if raw_scoring { "raw" } else { "wof" },
        }
    }
}
