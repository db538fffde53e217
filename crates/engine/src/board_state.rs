//! The bitboard position: the hot path of perft and replay. No allocation anywhere.

use super::bits::Bits;
use super::rules::{Opening, Rules};
use super::square::{Color, SquareSet};

/// Why a move cannot be played.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver,
    /// The square is not on the board.
    OffBoard,
    /// The square is blocked.
    Blocked,
    /// The square already holds a disc.
    Occupied,
    /// The mover has no discs left to place (classic reversi).
    NoDiscsLeft,
    /// During the free opening, discs go on the empty centre squares only.
    OutsideCentre,
    /// The move closes no run, so it flips nothing.
    FlipsNothing,
    /// A non-flipping placement while a flipping move exists (3-4 players).
    FlipAvailable,
    /// A placement that touches no disc (3-4 players, no flipping move).
    NotTouching,
    /// A pass while the mover has a legal move.
    PassWithMoves,
    /// A pass in a game where nobody ever passes (3-4 players, the free opening).
    PassNotAllowed,
}

impl IllegalMove {
    /// Every reason, in declaration order: for tests and suites that must cover them all.
    pub const ALL: [IllegalMove; 11] = [
        IllegalMove::GameOver,
        IllegalMove::OffBoard,
        IllegalMove::Blocked,
        IllegalMove::Occupied,
        IllegalMove::NoDiscsLeft,
        IllegalMove::OutsideCentre,
        IllegalMove::FlipsNothing,
        IllegalMove::FlipAvailable,
        IllegalMove::NotTouching,
        IllegalMove::PassWithMoves,
        IllegalMove::PassNotAllowed,
    ];
}

impl IllegalMove {
    /// A short phrase saying why, such as `the square is occupied`.
    pub const fn reason(self) -> &'static str {
        match self {
            IllegalMove::GameOver => "the game is already over",
            IllegalMove::OffBoard => "the square is not on the board",
            IllegalMove::Blocked => "the square is blocked",
            IllegalMove::Occupied => "the square is occupied",
            IllegalMove::NoDiscsLeft => "the player has no discs left",
            IllegalMove::OutsideCentre => {
                "the first four discs of a free opening go on the empty centre squares"
            }
            IllegalMove::FlipsNothing => "the move flips nothing",
            IllegalMove::FlipAvailable => "a move that flips is available and must be played",
            IllegalMove::NotTouching => "a placement without flips must touch a disc",
            IllegalMove::PassWithMoves => "the player has a legal move, so cannot pass",
            IllegalMove::PassNotAllowed => "nobody passes in this phase or variant",
        }
    }
}

impl std::fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.reason())
    }
}

impl std::error::Error for IllegalMove {}

/// A position in a bitboard layout `B`: discs per colour, the neutral disc, the playable
/// squares, the side to move and the discs still in hand.
///
/// `Copy` and allocation-free; [`crate::Position`] wraps it for any board size.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct BitPosition<B: Bits> {
    discs: [B; 4],
    neutral: B,
    playable: B,
    centre: B,
    turn: u8,
    players: u8,
    free_opening: bool,
    /// Discs left in hand per colour; `u8::MAX` means unlimited.
    in_hand: [u8; 4],
}

impl<B: Bits> BitPosition<B> {
    /// The start position of `rules`. `None` if the board does not fit the layout.
    pub fn start(rules: &Rules) -> Option<BitPosition<B>> {
        let (discs, neutral) = rules.start_discs();
        BitPosition::from_parts(rules, discs, neutral, Color::Black)
    }

    /// A position with the given discs under `rules`, `turn` to move. `None` if the board
    /// does not fit the layout. Discs in hand are the supply minus the discs each colour
    /// has placed beyond the start position.
    pub fn from_parts(
        rules: &Rules,
        discs: [SquareSet; 4],
        neutral: SquareSet,
        turn: Color,
    ) -> Option<BitPosition<B>> {
        if rules.board().side() > B::SIDE {
            return None;
        }
        let centre: SquareSet = rules.board().centre().into_iter().collect();
        let mut in_hand = [u8::MAX; 4];
        if let Some(supply) = rules.supply() {
            // Placements alternate, so the discs on the board (beyond handicap discs) were
            // placed half by each side, Black one more when White is to move.
            let handicap = rules.handicap().map_or(0, |h| h.squares.len());
            let placed = discs
                .iter()
                .map(|d| d.len())
                .sum::<usize>()
                .saturating_sub(handicap);
            let black = (placed + usize::from(turn == Color::White)) / 2;
            let white = placed - black;
            in_hand[0] = supply.saturating_sub(black.min(255) as u8);
            in_hand[1] = supply.saturating_sub(white.min(255) as u8);
        }
        Some(BitPosition {
            discs: discs.map(B::from_set),
            neutral: B::from_set(neutral),
            playable: B::from_set(rules.playable()),
            centre: B::from_set(centre),
            turn: turn.index() as u8,
            players: rules.players(),
            free_opening: rules.opening() == Opening::Free,
            in_hand,
        })
    }

    /// Overrides the discs `color` still has in hand (`None`: unlimited).
    pub fn set_in_hand(&mut self, color: Color, discs: Option<u8>) {
        self.in_hand[color.index()] = discs.unwrap_or(u8::MAX);
    }

    /// Discs `color` still has in hand; `None` when unlimited.
    pub fn in_hand(&self, color: Color) -> Option<u8> {
        let n = self.in_hand[color.index()];
        (n != u8::MAX).then_some(n)
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        Color::ALL[self.turn as usize]
    }

    /// Sets the side to move.
    pub fn set_turn(&mut self, color: Color) {
        self.turn = color.index() as u8;
    }

    /// Number of players.
    pub fn players(&self) -> u8 {
        self.players
    }

    /// Discs of `color`.
    #[inline]
    pub fn discs(&self, color: Color) -> B {
        self.discs[color.index()]
    }

    /// The neutral disc(s) of a 3-player game.
    #[inline]
    pub fn neutral(&self) -> B {
        self.neutral
    }

    /// Squares that hold any disc.
    #[inline]
    pub fn occupied(&self) -> B {
        self.discs[0] | self.discs[1] | self.discs[2] | self.discs[3] | self.neutral
    }

    /// Empty squares a disc may go on.
    #[inline]
    pub fn empty(&self) -> B {
        self.playable & !self.occupied()
    }

    /// Playable squares (the board minus blocked squares).
    pub fn playable(&self) -> B {
        self.playable
    }

    /// Whether the free opening's placements are still going on.
    #[inline]
    pub fn in_free_opening(&self) -> bool {
        self.free_opening && (self.occupied() & self.centre) != self.centre
    }

    /// Squares where the side to move may place a disc.
    #[inline]
    pub fn legal_moves(&self) -> B {
        self.legal_moves_for(self.turn as usize)
    }

    #[inline]
    fn legal_moves_for(&self, mover: usize) -> B {
        if self.in_hand[mover] == 0 {
            return B::ZERO;
        }
        let empty = self.empty();
        if self.in_free_opening() {
            return self.centre & empty;
        }
        let own = self.discs[mover];
        let opp = self.occupied() & !own;
        let moves = flipping_moves(own, opp, empty);
        if self.players > 2 && moves.is_zero() {
            return self.occupied().neighbours() & empty;
        }
        moves
    }

    /// Whether the side to move must pass: two players, no legal move, and the opponent has
    /// one (otherwise the game is over).
    #[inline]
    pub fn must_pass(&self) -> bool {
        self.players == 2
            && self.legal_moves().is_zero()
            && !self.legal_moves_for(1 - self.turn as usize).is_zero()
    }

    /// Whether the game is over: nobody can place a disc.
    #[inline]
    pub fn is_over(&self) -> bool {
        if !self.legal_moves().is_zero() {
            return false;
        }
        self.players > 2 || self.legal_moves_for(1 - self.turn as usize).is_zero()
    }

    /// The discs that placing at bit `index` would flip, without checking legality.
    #[inline]
    pub fn flips_at(&self, index: u32) -> B {
        if self.in_free_opening() {
            return B::ZERO;
        }
        let own = self.discs[self.turn as usize];
        let opp = self.occupied() & !own;
        flips(own, opp, B::bit(index))
    }

    /// Checks a placement at bit `index` and returns the discs it flips.
    ///
    /// The common case, a move that flips, costs one flip computation; the full move
    /// generation runs only for placements that flip nothing (free opening, the 3-4 player
    /// fallback) and to explain an illegal move. Refusals come in a fixed order: off the
    /// board, game over, occupied, no discs left, outside the centre (free opening), then
    /// flip available / not touching (3-4 players) or flips nothing.
    #[inline]
    pub fn check_move(&self, index: u32) -> Result<B, IllegalMove> {
        let m = B::bit(index);
        let mover = self.turn as usize;
        if (self.playable & m).is_zero() {
            return Err(IllegalMove::OffBoard);
        }
        let occupied = self.occupied();
        if (occupied & m).is_zero() && self.in_hand[mover] != 0 && !self.in_free_opening() {
            let own = self.discs[mover];
            let flipped = flips(own, occupied & !own, m);
            if !flipped.is_zero() {
                return Ok(flipped);
            }
        }
        self.check_placement_without_flips(m)
    }

    /// The slow path of [`BitPosition::check_move`] for a placement on `m` that flips nothing.
    #[cold]
    fn check_placement_without_flips(&self, m: B) -> Result<B, IllegalMove> {
        let mover = self.turn as usize;
        let legal = self.legal_moves();
        if !(legal & m).is_zero() {
            return Ok(B::ZERO);
        }
        // A finished game refuses every move the same way, full board or not.
        if legal.is_zero() && self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        if !(self.occupied() & m).is_zero() {
            return Err(IllegalMove::Occupied);
        }
        if self.in_hand[mover] == 0 {
            return Err(IllegalMove::NoDiscsLeft);
        }
        if self.in_free_opening() {
            return Err(IllegalMove::OutsideCentre);
        }
        if self.players > 2 {
            let own = self.discs[mover];
            let any_flip = !flipping_moves(own, self.occupied() & !own, self.empty()).is_zero();
            return Err(if any_flip {
                IllegalMove::FlipAvailable
            } else {
                IllegalMove::NotTouching
            });
        }
        Err(IllegalMove::FlipsNothing)
    }

    /// Checks a pass: game over comes first, then passes nobody may make, then a pass
    /// while a legal move exists. A player without discs in hand (classic reversi) passes
    /// even during the free opening (`spec/rules.md` §6): otherwise that position would
    /// accept nothing although the game goes on.
    pub fn check_pass(&self) -> Result<(), IllegalMove> {
        if self.is_over() {
            return Err(IllegalMove::GameOver);
        }
        let out_of_discs = self.in_hand[self.turn as usize] == 0;
        if self.players > 2 || (self.in_free_opening() && !out_of_discs) {
            return Err(IllegalMove::PassNotAllowed);
        }
        if !self.legal_moves().is_zero() {
            return Err(IllegalMove::PassWithMoves);
        }
        Ok(())
    }

    /// Plays a placement at bit `index` that flips `flipped`, without any check.
    #[inline]
    pub fn play_unchecked(&mut self, index: u32, flipped: B) {
        let mover = self.turn as usize;
        let m = B::bit(index);
        // Branch-free: the flipped discs leave every owner (only opponents hold them), then
        // join the mover with the placed disc.
        let keep = !flipped;
        for discs in &mut self.discs {
            *discs &= keep;
        }
        self.neutral &= keep;
        self.discs[mover] |= m | flipped;
        if self.in_hand[mover] != u8::MAX {
            self.in_hand[mover] -= 1;
        }
        self.turn = next_turn(self.turn, self.players);
    }

    /// Passes the turn, without any check.
    #[inline]
    pub fn pass_unchecked(&mut self) {
        self.turn = next_turn(self.turn, self.players);
    }

    /// Plays a placement at bit `index` if legal, returning the flipped discs.
    pub fn play(&mut self, index: u32) -> Result<B, IllegalMove> {
        let flipped = self.check_move(index)?;
        self.play_unchecked(index, flipped);
        Ok(flipped)
    }

    /// Passes if legal.
    pub fn pass(&mut self) -> Result<(), IllegalMove> {
        self.check_pass()?;
        self.pass_unchecked();
        Ok(())
    }
}

#[inline(always)]
fn next_turn(turn: u8, players: u8) -> u8 {
    if turn + 1 == players {
        0
    } else {
        turn + 1
    }
}

/// Doubling steps after the first two single steps of a fill: enough to cover the longest
/// run of the layout (6 on 8x8, 8 on 10x10).
const fn doubling_steps<B: Bits>() -> u32 {
    (B::SIDE as u32 - 4) / 2
}

/// Empty squares from which `own` closes at least one run of `opp`: a Kogge-Stone fill in
/// each of the 8 directions (two single steps, then steps of two).
#[inline]
pub fn flipping_moves<B: Bits>(own: B, opp: B, empty: B) -> B {
    (moves_towards::<B, 0>(own, opp)
        | moves_towards::<B, 1>(own, opp)
        | moves_towards::<B, 2>(own, opp)
        | moves_towards::<B, 3>(own, opp)
        | moves_towards::<B, 4>(own, opp)
        | moves_towards::<B, 5>(own, opp)
        | moves_towards::<B, 6>(own, opp)
        | moves_towards::<B, 7>(own, opp))
        & empty
}

/// Squares just past a run of `opp` that starts next to `own` in direction `DIR`.
#[inline(always)]
fn moves_towards<B: Bits, const DIR: usize>(own: B, opp: B) -> B {
    let o = opp & B::run_mask(DIR);
    let mut run = o & own.step(DIR, 1);
    run |= o & run.step(DIR, 1);
    let pairs = o & o.step(DIR, 1);
    for _ in 0..doubling_steps::<B>() {
        run |= pairs & run.step(DIR, 2);
    }
    run.step(DIR, 1)
}

/// The discs of `opp` that a disc placed on `m` flips, given the mover's discs `own`.
#[inline]
pub fn flips<B: Bits>(own: B, opp: B, m: B) -> B {
    flips_towards::<B, 0>(own, opp, m)
        | flips_towards::<B, 1>(own, opp, m)
        | flips_towards::<B, 2>(own, opp, m)
        | flips_towards::<B, 3>(own, opp, m)
        | flips_towards::<B, 4>(own, opp, m)
        | flips_towards::<B, 5>(own, opp, m)
        | flips_towards::<B, 6>(own, opp, m)
        | flips_towards::<B, 7>(own, opp, m)
}

/// The run of `opp` starting next to `m` in direction `DIR`, if `own` closes it.
///
/// On 8x8 layouts, a fill without branches (two single steps, then steps of two, as in
/// [`flipping_moves`]): replaying games or walking the perft tree, the early exits of a
/// square-by-square walk cost more in mispredicted branches than they save. On the wider
/// `u128` layout, where every step costs two registers, the walk stays faster.
#[inline(always)]
fn flips_towards<B: Bits, const DIR: usize>(own: B, opp: B, m: B) -> B {
    let o = opp & B::run_mask(DIR);
    if B::SIDE <= 8 {
        let mut run = o & m.step(DIR, 1);
        run |= o & run.step(DIR, 1);
        let pairs = o & o.step(DIR, 1);
        for _ in 0..doubling_steps::<B>() {
            run |= pairs & run.step(DIR, 2);
        }
        // The square past the run must be the mover's.
        return if (run.step(DIR, 1) & own).is_zero() {
            B::ZERO
        } else {
            run
        };
    }
    let mut x = m.step(DIR, 1);
    if (x & o).is_zero() {
        return B::ZERO;
    }
    let mut run = B::ZERO;
    while !(x & o).is_zero() {
        run |= x;
        x = x.step(DIR, 1);
    }
    if (x & own).is_zero() {
        B::ZERO
    } else {
        run
    }
}
