//! The quick check: a replay on specialized bitboards that answers one question, "would
//! the full validator find nothing at all in this game?", without building a
//! `Record`. It lives with the engine, below the formats that
//! gather moves for it and the validation pipeline that asks it, so data still flows one
//! way.
//!
//! Readers that can hand out a game's moves cheaply (WTHOR records, RGN/PGN text) ask it
//! first; a game it does not pass (an illegal move, a missing pass, an unfinished game, a
//! wrong result, or anything it does not handle) is read and validated in full, so the
//! diagnostics are exactly the full validator's. It is conservative by design: `false`
//! only means "look closer".
//!
//! Two-player rules from a standard opening are replayed on a [`Board`]: `u64` bitboards
//! up to 8x8 (standard Othello, by far the most common game, among them), `u128` up to
//! 10x10, in the engine's [`Bits`] layouts, with flips from ray tables. Other rules are
//! replayed with the engine's [`Position`], still without a record.
//!
//! A move is a square's code, `row * 16 + col` (a1 = 0, b1 = 1, a2 = 16), or [`PASS`].

use std::sync::OnceLock;

use super::{Bits, Color, Move, Opening, Outcome, Position, Rules, Setup, Square, SquareSet};

/// An explicit pass in a move list.
pub const PASS: u8 = 0xFF;

/// The code of the square in column `col` and row `row` (both 0-based, below 16).
#[inline]
pub const fn code(col: u8, row: u8) -> u8 {
    row << 4 | col
}

/// The move of a [`code`] or [`PASS`]; `None` for a code that names no square.
#[inline]
pub fn move_of(code: u8) -> Option<Move> {
    match code {
        PASS => Some(Move::Pass),
        _ => Square::new(code & 15, code >> 4).map(Move::Place),
    }
}

/// What a game a quick scan takes claims as its result.
#[derive(Clone, Copy, PartialEq, Debug, Default)]
pub enum QuickClaim {
    /// No result.
    #[default]
    Nothing,
    /// Black's and White's discs.
    Discs(u8, u8),
    /// A margin (GGF `RE[+18.000]`) without a komi: the board's, Black's score minus
    /// White's, a whole number, and the claim as the record keeps it.
    Margin(i16, f64),
}

impl QuickClaim {
    /// The claim of a scan that gives Black's and White's discs, if any.
    pub fn of_discs(discs: Option<(u8, u8)>) -> QuickClaim {
        discs.map_or(QuickClaim::Nothing, |(black, white)| {
            QuickClaim::Discs(black, white)
        })
    }
}

/// Most moves a game the quick check takes may have (passes included); longer lists go to
/// the full validator.
pub const MAX_MOVES: usize = 128;

/// The bit of the square in column `col` and row `row` (both below 10) in the layout a
/// flip claim's squares are gathered in: `u128`'s [`Bits`] layout, 11 bits a row.
#[inline]
pub fn claimed_bit(col: u8, row: u8) -> u128 {
    // A table: a variable shift of a `u128` takes several instructions, and a claim
    // names a square for every disc it flips.
    const BITS: [u128; 16 * 10] = {
        let mut bits = [0; 16 * 10];
        let mut i = 0;
        while i < bits.len() {
            if i % 16 < 10 {
                bits[i] = 1 << (i / 16 * 11 + i % 16);
            }
            i += 1;
        }
        bits
    };
    BITS.get(usize::from(row) * 16 + usize::from(col))
        .copied()
        .unwrap_or_default()
}

/// What one move claims to flip (RGN `c4(d4,d5)`, `c4(2)`, `c4(2:d4,d5)`, `c4()`), as the
/// full validator compares it: the squares as a set, the count against their number.
#[derive(Clone, Copy, Default, Debug)]
struct FlipClaimAt {
    /// The index of the move in the list.
    index: u8,
    /// The claimed number of flipped discs, if given.
    count: Option<u8>,
    /// The claimed squares, if given, in the layout of [`claimed_bit`].
    squares: Option<u128>,
}

/// The moves of one game, gathered by a reader without allocating.
#[derive(Clone, Debug)]
pub struct QuickMoves {
    moves: [u8; MAX_MOVES],
    len: usize,
    /// Whether an explicit pass was seen: the record then writes its passes, and a missing
    /// one is an error.
    explicit_passes: bool,
    /// The flip claims, in move order.
    claims: [FlipClaimAt; MAX_MOVES],
    claims_len: usize,
    /// The board of the last rules other than standard Othello, kept for the next game.
    board: Option<(Rules, Replay)>,
}

impl Default for QuickMoves {
    fn default() -> QuickMoves {
        QuickMoves {
            moves: [0; MAX_MOVES],
            len: 0,
            explicit_passes: false,
            claims: [FlipClaimAt::default(); MAX_MOVES],
            claims_len: 0,
            board: None,
        }
    }
}

impl QuickMoves {
    /// Forgets the moves, keeping the buffer.
    pub fn clear(&mut self) {
        self.len = 0;
        self.explicit_passes = false;
        self.claims_len = 0;
    }

    /// Claims that the last move pushed flips `count` discs (when given) and `squares`
    /// (when given, [`claimed_bit`]s; none is a claim that nothing flipped). The quick
    /// check passes the game only if every claim holds, as the full validator compares
    /// them; `false` when there is no move to claim for.
    #[inline]
    pub fn claim_flips(&mut self, count: Option<u8>, squares: Option<u128>) -> bool {
        let Some(index) = self.len.checked_sub(1) else {
            return false;
        };
        // One claim a move: a second for the same move is not taken.
        if self.claims[..self.claims_len]
            .last()
            .is_some_and(|c| usize::from(c.index) == index)
        {
            return false;
        }
        self.claims[self.claims_len] = FlipClaimAt {
            index: index as u8,
            count,
            squares,
        };
        self.claims_len += 1;
        true
    }

    /// Adds a square's [`code`] or [`PASS`]; `false` when the list is full.
    #[inline]
    pub fn push(&mut self, mv: u8) -> bool {
        if self.len == MAX_MOVES {
            return false;
        }
        self.explicit_passes |= mv == PASS;
        self.moves[self.len] = mv;
        self.len += 1;
        true
    }

    /// Makes every pass count as written (as when the game writes one): a pass replay
    /// would have to infer makes the game fail the check. For games whose moves claim
    /// their colours, taking turns: then no pass may be missing.
    pub fn require_written_passes(&mut self) {
        self.explicit_passes = true;
    }

    /// The moves so far.
    pub fn as_slice(&self) -> &[u8] {
        &self.moves[..self.len]
    }

    /// [`QuickMoves::clean_score`] for a claim of any kind a quick scan takes.
    pub fn clean_claimed(&mut self, rules: &Rules, claim: QuickClaim) -> Option<[u8; 2]> {
        match claim {
            QuickClaim::Nothing => self.clean_score(rules, None),
            QuickClaim::Discs(black, white) => self.clean_score(rules, Some((black, white))),
            QuickClaim::Margin(margin, _) => self
                .clean_score(rules, None)
                .filter(|&[black, white]| i16::from(black) - i16::from(white) == margin),
        }
    }

    /// Black's and White's scores on the final board (the first two players' for 3-4
    /// players) when the full validator would report nothing for a game of `rules` from
    /// their usual start with these moves and `claim`, Black's and White's claimed scores
    /// (`None`: no result claimed); `None` otherwise. A game must end with no player able
    /// to move.
    pub fn clean_score(&mut self, rules: &Rules, claim: Option<(u8, u8)>) -> Option<[u8; 2]> {
        let (moves, explicit) = (&self.moves[..self.len], self.explicit_passes);
        let claims = Claims(&self.claims[..self.claims_len]);
        if *rules == Rules::default() && claims.0.is_empty() {
            return standard().replay_score(moves.iter().copied(), explicit, claim);
        }
        if *rules == Rules::default() {
            let board = standard();
            return board.replay_checked(moves, explicit, claim, claims.checker());
        }
        if self.board.as_ref().map_or(true, |(r, _)| r != rules) {
            self.board = Some((*rules, Replay::of(rules)));
        }
        match &self.board {
            Some((_, Replay::Narrow(board))) if claims.0.is_empty() => {
                board.replay_score(moves.iter().copied(), explicit, claim)
            }
            Some((_, Replay::Narrow(board))) => {
                board.replay_checked(moves, explicit, claim, claims.checker())
            }
            Some((_, Replay::Wide(board))) if claims.0.is_empty() => {
                board.replay_score(moves.iter().copied(), explicit, claim)
            }
            Some((_, Replay::Wide(board))) => {
                board.replay_checked(moves, explicit, claim, claims.checker())
            }
            _ => replay_engine(rules, moves, explicit, claim, &claims),
        }
    }
}

/// A game's flip claims, for the replay to check move by move.
struct Claims<'a>(&'a [FlipClaimAt]);

impl Claims<'_> {
    /// Whether `claim` holds for `flipped`, the discs its move flipped as
    /// [`claimed_bit`]s: its squares equal to them, its count to their number.
    #[inline]
    fn holds(claim: &FlipClaimAt, flipped: u128) -> bool {
        claim
            .count
            .map_or(true, |n| u32::from(n) == flipped.count_ones())
            && claim.squares.map_or(true, |squares| squares == flipped)
    }

    /// The check [`Board::replay_checked`] asks after every written move: whether the
    /// claim of move `i`, if it has one, holds. Claims come in move order.
    fn checker<B: RayBits>(&self) -> impl FnMut(usize, B) -> bool + '_ {
        let mut next = 0;
        move |i, flipped| match self.0.get(next) {
            Some(claim) if usize::from(claim.index) == i => {
                next += 1;
                Claims::holds(claim, flipped.to_claimed())
            }
            _ => true,
        }
    }
}

/// How the quick check replays a set of rules.
#[derive(Clone, Debug)]
enum Replay {
    /// On `u64` bitboards (boards up to 8x8).
    Narrow(Board<u64>),
    /// On `u128` bitboards (boards up to 10x10).
    Wide(Board<u128>),
    /// With the engine's `Position` (free openings, disc supplies, 3-4 players).
    Engine,
}

impl Replay {
    fn of(rules: &Rules) -> Replay {
        if rules.board().side() <= u64::SIDE {
            Board::of(rules).map_or(Replay::Engine, Replay::Narrow)
        } else {
            Board::of(rules).map_or(Replay::Engine, Replay::Wide)
        }
    }
}

/// The board of standard Othello, made once.
pub fn standard() -> &'static Board<u64> {
    static STANDARD: OnceLock<Board<u64>> = OnceLock::new();
    STANDARD.get_or_init(|| {
        Board::of(&Rules::default()).unwrap_or_else(|| {
            unreachable!("standard Othello is two-player, from a standard opening")
        })
    })
}

/// Replays a standard Othello game from the usual start, its passes written out, on the
/// quick board: `visit` sees Black's and White's discs (`u64`, bit `row * 8 + col`) and
/// whether Black is to move, at the start and after every move, up to the first move that
/// is illegal. Returns how many moves were played and the position reached; `None` for
/// other rules (for the engine's replay).
pub fn standard_replay(
    rules: &Rules,
    moves: &[Move],
    mut visit: impl FnMut(u64, u64, bool),
) -> Option<(usize, Position)> {
    if *rules != Rules::default() {
        return None;
    }
    let board = standard();
    let [mut own, mut opp] = board.start;
    let mut black_to_move = true;
    visit(own, opp, black_to_move);
    let mut played = 0;
    for mv in moves {
        match *mv {
            Move::Pass => {
                if board.can_move(own, opp) || !board.can_move(opp, own) {
                    break;
                }
            }
            Move::Place(sq) => {
                let Some(index) = u64::index_of(sq) else {
                    break;
                };
                let Some(flipped) = board.place(own, opp, index as usize) else {
                    break;
                };
                own |= u64::bit(index) | flipped;
                opp &= !flipped;
            }
        }
        std::mem::swap(&mut own, &mut opp);
        black_to_move = !black_to_move;
        played += 1;
        let (black, white) = if black_to_move {
            (own, opp)
        } else {
            (opp, own)
        };
        visit(black, white, black_to_move);
    }
    let (black, white) = if black_to_move {
        (own, opp)
    } else {
        (opp, own)
    };
    let setup = Setup {
        discs: [
            black.to_set(),
            white.to_set(),
            SquareSet::EMPTY,
            SquareSet::EMPTY,
        ],
        neutral: SquareSet::EMPTY,
        turn: if black_to_move {
            Color::Black
        } else {
            Color::White
        },
    };
    let pos = Position::from_setup(*rules, setup).ok()?;
    Some((played, pos))
}

/// Where replay inserts the passes a standard Othello game from the usual start leaves
/// out: the indexes of the moves they go before, pushed to `passes_before`. `None` when the
/// quick board cannot tell (other rules, a move that is illegal even after a pass), for
/// the engine to decide.
pub fn implicit_passes(
    rules: &Rules,
    moves: impl IntoIterator<Item = Move>,
    passes_before: &mut Vec<usize>,
) -> Option<()> {
    if *rules != Rules::default() {
        return None;
    }
    let codes = moves.into_iter().map(|m| match m {
        Move::Pass => PASS,
        // Off the 8x8 board: the walk stops there.
        Move::Place(sq) => code(sq.col(), sq.row()),
    });
    standard().walk(codes, false, |i| passes_before.push(i))?;
    Some(())
}

/// How a standard Othello game from the usual start ends on the quick board, with the
/// passes its moves leave out pushed to `passes_before` (the indexes of the moves they go
/// before): `Some(Some(score))` when it is over (Black's and White's WOF scores),
/// `Some(None)` when a player can still move, `None` when the quick board cannot tell
/// (other rules, a move that is illegal even after a pass). A game that writes a pass
/// writes them all, as the validator reads it: none is inferred.
pub fn standard_end(
    rules: &Rules,
    moves: &[Move],
    passes_before: &mut Vec<usize>,
) -> Option<Option<[u8; 2]>> {
    if *rules != Rules::default() {
        return None;
    }
    let explicit = moves.contains(&Move::Pass);
    let codes = moves.iter().map(|m| match m {
        Move::Pass => PASS,
        Move::Place(sq) => code(sq.col(), sq.row()),
    });
    let board = standard();
    let (own, opp, black_to_move) = board.walk(codes, explicit, |i| passes_before.push(i))?;
    Some(board.final_score(own, opp, black_to_move))
}

/// The rules' usual start (as a record without a start position has it), if possible.
fn start(rules: &Rules) -> Option<Position> {
    let (discs, neutral) = rules.start_discs();
    let setup = Setup {
        discs,
        neutral,
        turn: Color::Black,
    };
    Position::from_setup(*rules, setup).ok()
}

/// The replay of any rules with the engine, as the validator replays: a move that fails
/// is an error unless the mover must pass and the record leaves its passes out.
fn replay_engine(
    rules: &Rules,
    moves: &[u8],
    explicit_passes: bool,
    claim: Option<(u8, u8)>,
    claims: &Claims<'_>,
) -> Option<[u8; 2]> {
    let mut pos = start(rules)?;
    let mut next = claims.0.iter().peekable();
    for (i, &code) in moves.iter().enumerate() {
        let mv = move_of(code)?;
        let flipped = match pos.play_with_flips(mv) {
            Ok(flipped) => flipped,
            Err(_) => {
                let may_pass = mv != Move::Pass && !explicit_passes && pos.must_pass();
                if !may_pass || pos.play(Move::Pass).is_err() {
                    return None;
                }
                pos.play_with_flips(mv).ok()?
            }
        };
        if let Some(claim) = next.next_if(|c| usize::from(c.index) == i) {
            if !Claims::holds(claim, u128::from_set(flipped)) {
                return None;
            }
        }
    }
    let outcome = pos.outcome()?;
    let score = [outcome.score[0], outcome.score[1]];
    match claim {
        None => Some(score),
        Some((black, white)) => (rules.players() == 2 && score == [black, white]).then_some(score),
    }
}

/// What the ray-table replay needs of a layout beyond [`Bits`].
pub trait RayBits: Bits {
    /// The lowest set bit alone (none when empty).
    fn lowest_bit(self) -> Self;
    /// The bits above the highest set one, and that bit alone (anything and none when
    /// empty).
    fn above_highest(self) -> (Self, Self);
    /// Every bit below the lowest set one (all bits when empty).
    fn below(self) -> Self;
    /// Every bit when `yes`, none otherwise.
    fn all_if(yes: bool) -> Self;
    /// The squares in the layout of [`claimed_bit`].
    fn to_claimed(self) -> u128;
}

macro_rules! ray_bits {
    ($t:ty, $to_claimed:expr, $above_highest:expr) => {
        impl RayBits for $t {
            #[inline]
            fn lowest_bit(self) -> $t {
                self & self.wrapping_neg()
            }
            #[inline]
            fn above_highest(self) -> ($t, $t) {
                $above_highest(self)
            }
            #[inline]
            fn below(self) -> $t {
                self.wrapping_sub(1)
            }
            #[inline]
            fn all_if(yes: bool) -> $t {
                <$t>::from(yes).wrapping_neg()
            }
            #[inline]
            fn to_claimed(self) -> u128 {
                $to_claimed(self)
            }
        }
    };
}
ray_bits!(
    u64,
    // Rows 8 bits apart move to 11.
    |bits: u64| (0..8).fold(0u128, |acc, row| {
        acc | u128::from(bits >> (8 * row) & 0xff) << (11 * row)
    }),
    |bits: u64| {
        // A shift by the full width wraps to no shift, and the mask clears it.
        let highest = (1u64 << 63).wrapping_shr(bits.leading_zeros()) & bits;
        (!(highest | highest.wrapping_sub(1)), highest)
    }
);
ray_bits!(
    u128,
    // The same layout.
    |bits: u128| bits,
    |bits: u128| {
        // From a table: a variable shift of a `u128` takes several instructions.
        let zeros = bits.leading_zeros() as usize;
        let (above, up_to) = (ABOVE[zeros], ABOVE[zeros + 1]);
        (above, up_to ^ above)
    }
);

/// `ABOVE[n]`: the top `n` bits of a `u128` (the bits above the highest set one of a
/// `u128` with `n` leading zeros); all of them past 128.
const ABOVE: [u128; 130] = {
    let mut above = [u128::MAX; 130];
    let mut n = 0;
    while n < 128 {
        above[n] = match n {
            0 => 0,
            n => u128::MAX << (128 - n),
        };
        n += 1;
    }
    above
};

/// Two-player rules from a standard opening without a disc supply, in the engine's bitboard
/// layout `B`: squares off the board or blocked are never occupied, so runs stop there on
/// their own.
#[derive(Clone, Debug)]
pub struct Board<B> {
    rules: Rules,
    side: u8,
    /// `rays[index][d]`: the squares from bit `index` (excluded) to the edge in direction
    /// `d`; the first four directions go up the bit order, the last four down.
    rays: Vec<[B; 8]>,
    playable: B,
    /// Black's and White's discs at the start.
    start: [B; 2],
}

impl<B: RayBits> Board<B> {
    /// The board of `rules`, if they are two-player rules from a standard opening without
    /// a disc supply on a board the layout holds.
    fn of(rules: &Rules) -> Option<Board<B>> {
        let side = rules.board().side();
        if rules.players() != 2
            || rules.opening() != Opening::Standard
            || rules.supply().is_some()
            || side > B::SIDE
        {
            return None;
        }
        let pos = start(rules)?;
        if pos.turn() != Color::Black || !pos.neutral().is_empty() {
            return None;
        }
        let bits = |set: SquareSet| {
            set.iter()
                .filter_map(B::index_of)
                .fold(B::ZERO, |acc, i| acc | B::bit(i))
        };
        Some(Board {
            rules: *rules,
            side,
            rays: rays(side),
            playable: bits(rules.playable()),
            start: [bits(pos.discs(Color::Black)), bits(pos.discs(Color::White))],
        })
    }

    /// The discs of `opp` a disc of `own` on bit `index` flips: on each ray, the run of
    /// `opp` discs before the first square that is not one, if that square is `own`'s.
    /// Branch-free, so that the loop over the rays unrolls.
    #[inline]
    fn flips(&self, own: B, opp: B, index: usize) -> B {
        let rays = &self.rays[index];
        let mut flipped = B::ZERO;
        for &ray in &rays[..4] {
            let first = (ray & !opp).lowest_bit();
            flipped |= ray & first.below() & B::all_if(!(first & own).is_zero());
        }
        for &ray in &rays[4..] {
            // Every square of the ray above its first that is not `opp`'s is `opp`'s.
            let (above, first) = (ray & !opp).above_highest();
            flipped |= ray & above & B::all_if(!(first & own).is_zero());
        }
        flipped
    }

    /// The discs a disc of `own` on bit `index` flips, when the move is legal: on an empty
    /// playable square, flipping something.
    #[inline]
    fn place(&self, own: B, opp: B, index: usize) -> Option<B> {
        if (self.playable & !(own | opp) & B::bit(index as u32)).is_zero() {
            return None;
        }
        Some(self.flips(own, opp, index)).filter(|f| !f.is_zero())
    }

    /// Whether `own` has a move. Asked only on a pass and at the end, when few squares
    /// are empty or the answer comes early.
    fn can_move(&self, own: B, opp: B) -> bool {
        let mut empty = self.playable & !(own | opp);
        while !empty.is_zero() {
            let index = empty.lowest();
            if !self.flips(own, opp, index as usize).is_zero() {
                return true;
            }
            empty &= !B::bit(index);
        }
        false
    }

    /// Plays `moves` from the start, inferring a pass (reported to `inferred` with the
    /// index of the move it goes before) where the mover has none and the record leaves
    /// its passes out (`!explicit_passes`). Returns the discs of the player to move and of
    /// the other, and whether Black is to move; `None` at the first move that is illegal.
    #[inline]
    pub fn walk(
        &self,
        moves: impl IntoIterator<Item = u8>,
        explicit_passes: bool,
        inferred: impl FnMut(usize),
    ) -> Option<(B, B, bool)> {
        self.walk_checked(moves, explicit_passes, inferred, |_, _| true)
    }

    /// [`Board::walk`], asking `check` after every written move, with its index and the
    /// discs it flipped (none for a pass), whether to go on; `None` when it says no.
    #[inline]
    fn walk_checked(
        &self,
        moves: impl IntoIterator<Item = u8>,
        explicit_passes: bool,
        mut inferred: impl FnMut(usize),
        mut check: impl FnMut(usize, B) -> bool,
    ) -> Option<(B, B, bool)> {
        let [mut own, mut opp] = self.start;
        let mut black_to_move = true;
        for (i, code) in moves.into_iter().enumerate() {
            if code == PASS {
                // A pass is legal only for a player without a move, in a game not over.
                if self.can_move(own, opp) || !self.can_move(opp, own) || !check(i, B::ZERO) {
                    return None;
                }
            } else {
                let (row, col) = (code >> 4, code & 15);
                if row >= self.side || col >= self.side {
                    return None;
                }
                let index = (u32::from(row) * B::STRIDE + u32::from(col)) as usize;
                let flipped = match self.place(own, opp, index) {
                    Some(flipped) => flipped,
                    // Illegal, unless the mover had to pass first and the record leaves
                    // its passes out.
                    None if explicit_passes || self.can_move(own, opp) => return None,
                    None => {
                        std::mem::swap(&mut own, &mut opp);
                        black_to_move = !black_to_move;
                        inferred(i);
                        self.place(own, opp, index)?
                    }
                };
                if !check(i, flipped) {
                    return None;
                }
                own |= B::bit(index as u32) | flipped;
                opp &= !flipped;
            }
            std::mem::swap(&mut own, &mut opp);
            black_to_move = !black_to_move;
        }
        Some((own, opp, black_to_move))
    }

    /// The replay behind [`QuickMoves::is_clean`], over the moves' codes as they come (a
    /// reader may decode them on the way): passes are inferred unless `explicit_passes`,
    /// and the game must end with `claim`.
    #[inline]
    pub fn replay(
        &self,
        moves: impl IntoIterator<Item = u8>,
        explicit_passes: bool,
        claim: Option<(u8, u8)>,
    ) -> bool {
        self.replay_score(moves, explicit_passes, claim).is_some()
    }

    /// [`Board::replay`], giving Black's and White's final scores when the game is clean.
    #[inline]
    pub fn replay_score(
        &self,
        moves: impl IntoIterator<Item = u8>,
        explicit_passes: bool,
        claim: Option<(u8, u8)>,
    ) -> Option<[u8; 2]> {
        let (own, opp, black_to_move) = self.walk(moves, explicit_passes, |_| {})?;
        self.claimed_score(own, opp, black_to_move, claim)
    }

    /// [`Board::replay_score`], with `check` asked after every move as
    /// [`Board::walk_checked`] asks it (for the moves' flip claims).
    fn replay_checked(
        &self,
        moves: &[u8],
        explicit_passes: bool,
        claim: Option<(u8, u8)>,
        check: impl FnMut(usize, B) -> bool,
    ) -> Option<[u8; 2]> {
        let walked = self.walk_checked(moves.iter().copied(), explicit_passes, |_| {}, check);
        let (own, opp, black_to_move) = walked?;
        self.claimed_score(own, opp, black_to_move, claim)
    }

    /// The final scores, when the game is over and they are `claim` (if any).
    #[inline]
    fn claimed_score(
        &self,
        own: B,
        opp: B,
        black_to_move: bool,
        claim: Option<(u8, u8)>,
    ) -> Option<[u8; 2]> {
        // Unfinished (`None`): the validator warns.
        let score = self.final_score(own, opp, black_to_move)?;
        match claim {
            None => Some(score),
            Some((black, white)) => (score == [black, white]).then_some(score),
        }
    }

    /// Black's and White's scores when no player can move (`None` while one can), from
    /// the discs of the player to move and of the other.
    fn final_score(&self, own: B, opp: B, black_to_move: bool) -> Option<[u8; 2]> {
        if (own | opp) != self.playable && (self.can_move(own, opp) || self.can_move(opp, own)) {
            return None;
        }
        let (black, white) = if black_to_move {
            (own, opp)
        } else {
            (opp, own)
        };
        let (black, white) = (black.count() as u8, white.count() as u8);
        let empty = self.playable.count() as u8 - black - white;
        let outcome = Outcome::new(&self.rules, [black, white, 0, 0], 0, empty);
        Some([outcome.score[0], outcome.score[1]])
    }
}

/// The eight directions as `(row step, column step)`: four up the bit order, four down.
const DIRECTIONS: [(i32, i32); 8] = [
    (0, 1),
    (1, -1),
    (1, 0),
    (1, 1),
    (0, -1),
    (-1, 1),
    (-1, 0),
    (-1, -1),
];

/// The ray table of a board of `side` squares a side in layout `B`, indexed by bit.
fn rays<B: Bits>(side: u8) -> Vec<[B; 8]> {
    let side = i32::from(side);
    let stride = B::STRIDE as i32;
    let mut table = vec![[B::ZERO; 8]; (stride * side) as usize];
    for row in 0..side {
        for col in 0..side {
            for (d, &(dr, dc)) in DIRECTIONS.iter().enumerate() {
                let (mut r, mut c) = (row + dr, col + dc);
                while (0..side).contains(&r) && (0..side).contains(&c) {
                    table[(row * stride + col) as usize][d] |= B::bit((r * stride + c) as u32);
                    r += dr;
                    c += dc;
                }
            }
        }
    }
    table
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::testing::{generator, random_game};

    /// The board's bits of `set`.
    fn bits<B: Bits>(set: SquareSet) -> B {
        set.iter()
            .filter_map(B::index_of)
            .fold(B::ZERO, |acc, i| acc | B::bit(i))
    }

    /// Plays random games of `rules` with the engine; at every position checks every
    /// square's legality, the flips of the move played and whether the mover can move
    /// against the engine; then replays each game (whole, or with one move changed to any
    /// square, or with a wrong claim) and compares with the engine's replay. Returns how
    /// many games both found clean.
    fn agrees_with_the_engine<B: RayBits>(
        name: &str,
        next: &mut impl FnMut(usize) -> usize,
    ) -> usize {
        let rules: Rules = name.parse().unwrap();
        let board = Board::<B>::of(&rules).unwrap();
        let side = rules.board().side();
        let mut clean = 0;
        for k in 0..150 {
            let mut pos = Position::new(rules);
            let mut moves = Vec::new();
            let explicit = k % 2 == 0;
            while !pos.is_over() {
                let own: B = bits(pos.discs(pos.turn()));
                let opp: B = bits(pos.discs(pos.turn().next(2)));
                let legal: Vec<_> = pos.legal_moves().iter().collect();
                assert_eq!(board.can_move(own, opp), !legal.is_empty(), "{name}\n{pos}");
                for (row, col) in (0..side).flat_map(|r| (0..side).map(move |c| (r, c))) {
                    let target = Square::new(col, row).unwrap();
                    let index = B::index_of(target).unwrap() as usize;
                    let legal_here = pos.clone().play(Move::Place(target)).is_ok();
                    assert_eq!(
                        board.place(own, opp, index).is_some(),
                        legal_here,
                        "{name} {target}"
                    );
                }
                if legal.is_empty() {
                    pos.play(Move::Pass).unwrap();
                    if explicit {
                        moves.push(PASS);
                    }
                    continue;
                }
                let sq = legal[next(legal.len())];
                let flipped = pos.play_with_flips(Move::Place(sq)).unwrap();
                let index = B::index_of(sq).unwrap() as usize;
                assert_eq!(board.flips(own, opp, index), bits(flipped), "{name} {sq}");
                moves.push(code(sq.col(), sq.row()));
            }
            let outcome = pos.outcome().unwrap();
            let mut claim = Some((outcome.score[0], outcome.score[1]));
            if k % 3 == 1 && !moves.is_empty() {
                let at = next(moves.len());
                moves[at] = code(next(11) as u8, next(11) as u8);
            }
            if k % 5 == 2 {
                claim = Some((outcome.score[0] ^ 1, outcome.score[1]));
            }
            let none = Claims(&[]);
            let engine = replay_engine(&rules, &moves, explicit, claim, &none);
            assert_eq!(
                board.replay_score(moves.iter().copied(), explicit, claim),
                engine,
                "{name}: {moves:?}"
            );
            clean += usize::from(engine.is_some());
        }
        clean
    }

    #[test]
    fn the_bits_above_the_highest_are_found_at_every_width() {
        for n in 0..128 {
            let bits = (1u128 << n) | ((1u128 << n) - 1) >> 1;
            let above = (!0u128).checked_shl(n + 1).unwrap_or(0);
            assert_eq!(bits.above_highest(), (above, 1 << n), "u128 bit {n}");
            if n < 64 {
                let bits = bits as u64;
                let above = (!0u64).checked_shl(n + 1).unwrap_or(0);
                assert_eq!(bits.above_highest(), (above, 1 << n), "u64 bit {n}");
            }
        }
        assert_eq!(0u128.above_highest().1, 0);
        assert_eq!(0u64.above_highest().1, 0);
        for (col, row) in [(0, 0), (9, 0), (0, 9), (9, 9), (4, 5)] {
            assert_eq!(
                claimed_bit(col, row),
                1u128 << (u32::from(row) * 11 + u32::from(col))
            );
        }
    }

    #[test]
    fn the_boards_agree_with_the_engine() {
        let mut next = generator(0x9e37_79b9_7f4a_7c15);
        let narrow = [
            "othello",
            "othello:6x6",
            "othello:4x4",
            "anti",
            "othello,blocked=c4+f6",
            "othello,scoring=raw",
        ];
        let wide = [
            "othello:10x10",
            "othello:octagon",
            "anti:10x10,scoring=raw",
            "othello:10x10,blocked=e4+g7,handicap=white:2",
        ];
        let clean: usize = narrow
            .iter()
            .map(|r| agrees_with_the_engine::<u64>(r, &mut next))
            .sum::<usize>()
            + wide
                .iter()
                .map(|r| agrees_with_the_engine::<u128>(r, &mut next))
                .sum::<usize>();
        // Whole games with the right claim are clean; damaged ones mostly not.
        assert!(clean > 500, "{clean}");
        assert!(clean < 10 * 150, "{clean}");
    }

    #[test]
    fn standard_othello_goes_through_its_board_and_needs_a_finished_game() {
        let mut next = generator(7);
        let rules = Rules::default();
        let mut moves = QuickMoves::default();
        let (played, pos) = random_game(rules, &mut next);
        for mv in played {
            if let Move::Place(sq) = mv {
                assert!(moves.push(code(sq.col(), sq.row())));
            }
        }
        let [black, white, ..] = pos.outcome().unwrap().score;
        assert!(moves.clean_score(&rules, Some((black, white))).is_some());
        assert_eq!(moves.clean_score(&rules, None), Some([black, white]));
        assert!(moves
            .clean_score(&rules, Some((black ^ 1, white)))
            .is_none());
        assert!(moves
            .clean_score(&rules, Some((black, white ^ 1)))
            .is_none());
        // An unfinished game is not clean; neither is an illegal move, a square off the
        // board or a needless pass.
        let board = standard();
        assert!(!board.replay([code(5, 4)], false, None));
        assert!(!board.replay([0], false, None));
        assert!(!board.replay([code(8, 4)], false, None));
        assert!(!board.replay([PASS], true, None));
    }
}
