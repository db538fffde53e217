//! Games as arrays for machine learning: move arrays, board tensors, legal-move masks, side
//! to move and results, built from the engine's replay in flat memory.
//!
//! A [`Batch`] gathers games (from records or from borrowed [views](crate::pipeline::view)
//! of a reader, so a WTHOR archive never builds a record) with every pass that replay infers
//! written out; [`Batch::build`] replays them, on as many threads as asked, into the
//! arrays of [`Arrays`], row-major and padded to the longest game.
//!
//! ```
//! use reversi_runs::dataset::{Batch, Options};
//! use reversi_formats::{Format, ReadOptions};
//! let games = Format::MoveString.read_bytes(b"f5d6c3d3c4\nf5f6\n".to_vec(), &ReadOptions::default())?;
//! let mut batch = Batch::new();
//! for game in &games {
//!     batch.push_record(game.record.as_ref().unwrap());
//! }
//! let arrays = batch.build(Options::default(), 1)?;
//! assert_eq!((arrays.games, arrays.plies, arrays.side), (2, 5, 8));
//! // f5 is row 5, column f: 4 * 8 + 5; the second game is padded after its two moves.
//! assert_eq!(arrays.moves[0], 37);
//! assert_eq!(&arrays.moves[5..], &[37, 45, -1, -1, -1]);
//! // The board after f5 (position 1 of game 0): f5 and e5 are Black's now.
//! let board = &arrays.boards.as_ref().unwrap()[64..128];
//! assert_eq!((board[4 * 8 + 5], board[4 * 8 + 4]), (1, 1));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;

use rayon::prelude::*;

use crate::engine::{quick, Cell, Move, Position, Rows, Rules, Square, MAX_SIDE};
use crate::pipeline::view::GameView;
use crate::record::{ClaimedResult, Record, ResultScore, StartPosition, Termination};
use crate::validate::infer_passes;

/// A pass in [`Arrays::moves`].
pub const PASS: i16 = -2;
/// Padding after a game's last move (in [`Arrays::moves`]) or position (in
/// [`Arrays::turn`], also for a finished game's last position).
pub const PAD: i16 = -1;
/// An empty square in [`Arrays::boards`]; a colour's disc is its turn index plus one
/// (Black 1, White 2, Red 3, Green 4).
pub const EMPTY: i8 = 0;
/// A neutral disc (3-player games) in [`Arrays::boards`].
pub const NEUTRAL: i8 = 5;
/// A blocked square in [`Arrays::boards`].
pub const BLOCKED: i8 = -1;
/// A square outside the board's shape (the octagon's cut corners).
pub const OFF_BOARD: i8 = -2;

/// What [`Batch::build`] fills besides moves, side to move and results.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Options {
    /// Board tensors: one board per position.
    pub boards: bool,
    /// Boards as one 0/1 plane per colour instead of cell codes.
    pub planes: bool,
    /// Legal-move masks: one per position.
    pub legal: bool,
}

impl Default for Options {
    /// Boards as cell codes, no masks.
    fn default() -> Options {
        Options {
            boards: true,
            planes: false,
            legal: false,
        }
    }
}

/// Why a batch cannot be arrays.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DatasetError {
    /// Arrays hold one board size; game `index` (0-based) is on `board`, the first on
    /// `side` x `side`.
    MixedBoards {
        /// The game's index in the batch.
        index: usize,
        /// Its board's name.
        board: &'static str,
        /// The first game's side.
        side: usize,
    },
    /// The caller asked the build to stop ([`Batch::build_until`]).
    Stopped,
}

impl fmt::Display for DatasetError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            DatasetError::Stopped => f.write_str("stopped before the arrays were built"),
            DatasetError::MixedBoards { index, board, side } => write!(
                f,
                "game {} is on a {board} board, but the first on {side}x{side}: arrays hold one board size; filter the games by rules first",
                index + 1
            ),
        }
    }
}

impl std::error::Error for DatasetError {}

/// One gathered game: its rules, start and where its moves are in [`Batch::moves`].
#[derive(Clone, Debug)]
struct Entry {
    rules: Rules,
    /// Whether the game starts from the rules' usual start.
    usual: bool,
    /// `None` when the rules refuse the start.
    start: Option<Position>,
    moves: std::ops::Range<usize>,
    /// The winner the record claims ([`claimed_winner`]), for a game whose board is not
    /// over.
    claim: i8,
}

/// Games gathered for [`Batch::build`], moves in one flat buffer.
#[derive(Clone, Debug, Default)]
pub struct Batch {
    entries: Vec<Entry>,
    moves: Vec<Move>,
    passes_before: Vec<usize>,
    /// The start position of the last rules seen with their usual start.
    usual_start: Option<Position>,
}

impl Batch {
    /// An empty batch.
    pub fn new() -> Batch {
        Batch::default()
    }

    /// How many games are gathered.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether no game is gathered.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// Forgets the games, keeping the buffers.
    pub fn clear(&mut self) {
        self.entries.clear();
        self.moves.clear();
    }

    /// Adds a record's game.
    pub fn push_record(&mut self, record: &Record) {
        self.push(
            record.rules,
            record.start.as_ref(),
            record.moves.iter().map(|m| m.mv),
        );
        self.claim(record.result.as_ref());
    }

    /// Adds a game seen through a reader's view, without building its record.
    pub fn push_view(&mut self, game: &GameView<'_>) {
        self.push(game.rules(), game.start(), game.moves().iter().copied());
        self.claim(game.result());
    }

    /// Gives the last game added the result its record claims: its winner is
    /// [`Arrays::winner`] when the moves do not reach the end (a resignation, a loss on
    /// time, an agreed score).
    pub fn claim(&mut self, result: Option<&ClaimedResult>) {
        if let Some(entry) = self.entries.last_mut() {
            entry.claim = claimed_winner(&entry.rules, result);
        }
    }

    /// Adds a game: its rules, start (`None`: the rules' usual one) and moves as written;
    /// the passes replay infers are written out (a game that does not replay legally keeps
    /// its moves as written, and its arrays stop at the first illegal move).
    pub fn push(
        &mut self,
        rules: Rules,
        start: Option<&StartPosition>,
        moves: impl Iterator<Item = Move> + Clone,
    ) {
        infer_passes(&rules, start, moves.clone(), &mut self.passes_before);
        let from = self.moves.len();
        let mut pending = self.passes_before.iter().peekable();
        for (i, mv) in moves.enumerate() {
            if pending.next_if(|&&p| p == i).is_some() {
                self.moves.push(Move::Pass);
            }
            self.moves.push(mv);
        }
        let usual = start.is_none();
        let start = match start {
            Some(_) => crate::record::start_position(rules, start).ok(),
            None => match self.usual_start {
                Some(pos) if *pos.rules() == rules => Some(pos),
                _ => {
                    let pos = crate::record::start_position(rules, None).ok();
                    self.usual_start = pos;
                    pos
                }
            },
        };
        self.entries.push(Entry {
            rules,
            usual,
            start,
            moves: from..self.moves.len(),
            claim: -2,
        });
    }

    /// Replays every game into arrays, on `jobs` threads (1: this one; 0: all cores).
    pub fn build(&self, options: Options, jobs: usize) -> Result<Arrays, DatasetError> {
        self.build_until(options, jobs, &std::sync::atomic::AtomicBool::new(false))
    }

    /// [`Batch::build`], stopping with [`DatasetError::Stopped`] soon after `stop` is set
    /// (it is looked at before each block of 2,048 games, a few milliseconds of work), so
    /// that a caller can interrupt a long build (Python's Ctrl-C).
    pub fn build_until(
        &self,
        options: Options,
        jobs: usize,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Result<Arrays, DatasetError> {
        let side = self
            .entries
            .first()
            .map_or(8, |e| e.rules.board().side() as usize);
        if let Some((index, e)) = self
            .entries
            .iter()
            .enumerate()
            .find(|(_, e)| e.rules.board().side() as usize != side)
        {
            return Err(DatasetError::MixedBoards {
                index,
                board: e.rules.board().name(),
                side,
            });
        }
        let colors = self
            .entries
            .iter()
            .map(|e| e.rules.players() as usize)
            .max()
            .unwrap_or(2);
        let plies = self
            .entries
            .iter()
            .map(|e| e.moves.len())
            .max()
            .unwrap_or(0);
        let mut arrays = Arrays::new(self.entries.len(), plies, side, colors, options);
        let shape = Shape::of(&arrays, options);
        let work = arrays.split(&self.entries, shape);
        let stopped = || stop.load(std::sync::atomic::Ordering::Relaxed);
        let fill = |w: Work<'_>| {
            if !stopped() {
                w.fill(&self.moves, shape);
            }
        };
        if jobs == 1 || work.len() <= 1 {
            work.into_iter().for_each(fill);
        } else {
            match rayon::ThreadPoolBuilder::new().num_threads(jobs).build() {
                Ok(pool) => pool.install(|| work.into_par_iter().for_each(fill)),
                Err(_) => work.into_iter().for_each(fill),
            }
        }
        if stopped() {
            return Err(DatasetError::Stopped);
        }
        Ok(arrays)
    }
}

/// How a game's moves replay, without arrays ([`replay`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Replayed {
    /// Every move is legal.
    pub valid: bool,
    /// The position reached is over.
    pub over: bool,
    /// Plies replayed legally, the passes the record leaves out included ([`Arrays::lengths`]).
    pub plies: usize,
}

/// Replays a game (its rules, start, moves as written) as [`Batch::build`] does, but keeps
/// nothing of it: whether its moves are legal, whether it ends, and how many plies it has.
/// Standard Othello from its usual start (most games) takes one walk on the quick board,
/// everything else the engine; `passes` is scratch space, kept between calls.
pub fn replay(
    rules: &Rules,
    start: Option<&StartPosition>,
    moves: &[Move],
    passes: &mut Vec<usize>,
) -> Replayed {
    if start.is_none() {
        passes.clear();
        if let Some(end) = quick::standard_end(rules, moves, passes) {
            return Replayed {
                valid: true,
                over: end.is_some(),
                plies: moves.len() + passes.len(),
            };
        }
    }
    let mut batch = Batch::new();
    batch.push(*rules, start, moves.iter().copied());
    let options = Options {
        boards: false,
        planes: false,
        legal: false,
    };
    match batch.build(options, 1) {
        Ok(a) => Replayed {
            valid: a.valid[0],
            over: a.over[0],
            plies: a.lengths[0] as usize,
        },
        Err(_) => Replayed {
            valid: false,
            over: false,
            plies: 0,
        },
    }
}

/// The arrays of a [`Batch`], row-major, games first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arrays {
    /// Games.
    pub games: usize,
    /// Plies of the longest game (passes included).
    pub plies: usize,
    /// The board's side: boards are `side` x `side`.
    pub side: usize,
    /// Colours of the batch's rules with the most players (planes per board).
    pub colors: usize,
    /// games x plies: `row * side + col`, [`PASS`], [`PAD`].
    pub moves: Vec<i16>,
    /// games x (plies + 1) x side x side cell codes ([`EMPTY`], 1 + a colour's index,
    /// [`NEUTRAL`], [`BLOCKED`], [`OFF_BOARD`]), or with [`Options::planes`] games x
    /// (plies + 1) x colors x side x side, 1 where the colour has a disc; zero after a
    /// game's last position.
    pub boards: Option<Vec<i8>>,
    /// games x (plies + 1) x side x side: where the side to move may place a disc.
    pub legal: Option<Vec<bool>>,
    /// games x (plies + 1): the side to move's index, [`PAD`] after the game and at a
    /// finished game's last position.
    pub turn: Vec<i8>,
    /// Plies each game replays legally.
    pub lengths: Vec<i32>,
    /// Whether every move of the game replays legally.
    pub valid: Vec<bool>,
    /// Whether the game's last position is over.
    pub over: Vec<bool>,
    /// The margin of the last position, the first colour's score minus the second's: on a
    /// finished board under the rules' scoring (WOF gives the empty squares to the
    /// winner), on an unfinished one the discs as they stand (the empty squares to nobody).
    pub margin: Vec<i16>,
    /// The winner's index of a finished game, -1 a draw; for a game whose moves do not
    /// reach the end, the winner its record claims (a resignation, a loss on time, a
    /// score), -2 when it claims none.
    pub winner: Vec<i8>,
}

impl Arrays {
    fn new(games: usize, plies: usize, side: usize, colors: usize, options: Options) -> Arrays {
        let positions = plies + 1;
        let cells = side * side;
        let per_board = if options.planes {
            colors * cells
        } else {
            cells
        };
        Arrays {
            games,
            plies,
            side,
            colors,
            moves: vec![PAD; games * plies],
            boards: options
                .boards
                .then(|| vec![0i8; games * positions * per_board]),
            legal: options
                .legal
                .then(|| vec![false; games * positions * cells]),
            turn: vec![PAD as i8; games * positions],
            lengths: vec![0; games],
            valid: vec![false; games],
            over: vec![false; games],
            margin: vec![0; games],
            winner: vec![-2; games],
        }
    }

    /// The arrays cut into blocks of games that threads fill independently.
    fn split<'a>(&'a mut self, entries: &'a [Entry], shape: Shape) -> Vec<Work<'a>> {
        const GAMES: usize = 2048;
        let positions = shape.positions;
        let mut boards = self
            .boards
            .as_mut()
            .map(|b| b.chunks_mut(GAMES * positions * shape.per_board));
        let mut legal = self
            .legal
            .as_mut()
            .map(|l| l.chunks_mut(GAMES * positions * shape.cells));
        let plies = self.plies.max(1);
        let mut moves = self.moves.chunks_mut(GAMES * plies);
        let mut turn = self.turn.chunks_mut(GAMES * positions);
        let mut lengths = self.lengths.chunks_mut(GAMES);
        let mut valid = self.valid.chunks_mut(GAMES);
        let mut over = self.over.chunks_mut(GAMES);
        let mut margin = self.margin.chunks_mut(GAMES);
        let mut winner = self.winner.chunks_mut(GAMES);
        let mut out = Vec::with_capacity(entries.len().div_ceil(GAMES));
        for entries in entries.chunks(GAMES) {
            out.push(Work {
                entries,
                moves: moves.next().unwrap_or_default(),
                boards: boards.as_mut().and_then(Iterator::next),
                legal: legal.as_mut().and_then(Iterator::next),
                turn: turn.next().unwrap_or_default(),
                lengths: lengths.next().unwrap_or_default(),
                valid: valid.next().unwrap_or_default(),
                over: over.next().unwrap_or_default(),
                margin: margin.next().unwrap_or_default(),
                winner: winner.next().unwrap_or_default(),
            });
        }
        out
    }
}

/// The sizes every block shares.
#[derive(Clone, Copy)]
struct Shape {
    plies: usize,
    positions: usize,
    side: usize,
    cells: usize,
    per_board: usize,
    planes: bool,
    /// The array index (`row * side + col`) of each engine square index (`row * 10 +
    /// col`), `usize::MAX` off the grid.
    table: [u8; 100],
}

impl Shape {
    fn of(arrays: &Arrays, options: Options) -> Shape {
        let side = arrays.side;
        let cells = side * side;
        let mut table = [u8::MAX; 100];
        for (i, slot) in table.iter_mut().enumerate() {
            let (row, col) = (i / 10, i % 10);
            if row < side && col < side {
                *slot = (row * side + col) as u8;
            }
        }
        Shape {
            plies: arrays.plies,
            positions: arrays.plies + 1,
            side,
            cells,
            per_board: if options.planes {
                arrays.colors * cells
            } else {
                cells
            },
            planes: options.planes,
            table,
        }
    }

    #[inline]
    fn index(&self, sq: Square) -> usize {
        self.table[sq.index() as usize] as usize
    }
}

/// One block of games and its slices of every array.
struct Work<'a> {
    entries: &'a [Entry],
    moves: &'a mut [i16],
    boards: Option<&'a mut [i8]>,
    legal: Option<&'a mut [bool]>,
    turn: &'a mut [i8],
    lengths: &'a mut [i32],
    valid: &'a mut [bool],
    over: &'a mut [bool],
    margin: &'a mut [i16],
    winner: &'a mut [i8],
}

impl Work<'_> {
    fn fill(mut self, all_moves: &[Move], shape: Shape) {
        // What the board holds apart from discs, for the last rules seen.
        let mut base: Option<(Rules, Vec<[u8; 16]>)> = None;
        for (g, entry) in self.entries.iter().enumerate() {
            let moves = &all_moves[entry.moves.clone()];
            for (slot, mv) in self.moves[g * shape.plies..].iter_mut().zip(moves) {
                *slot = match mv {
                    Move::Pass => PASS,
                    Move::Place(sq) => shape.index(*sq) as i16,
                };
            }
            let Some(mut pos) = entry.start else {
                continue;
            };
            if self.boards.is_some()
                && !shape.planes
                && !matches!(&base, Some((r, _)) if *r == entry.rules)
            {
                base = Some((entry.rules, base_board(&entry.rules, shape.side)));
            }
            let base = base.as_ref().map_or(&[][..], |(_, b)| b.as_slice());
            // Standard Othello from its usual start (most games) on the quick board, the
            // rest (and legal-move masks) with the engine.
            let quick = match (entry.usual && self.legal.is_none(), shape.side) {
                (true, 8) => {
                    let mut k = 0;
                    quick::standard_replay(&entry.rules, moves, |black, white, black_to_move| {
                        let mut rows = Rows::default();
                        for r in 0..8 {
                            rows.discs[0][r] = (black >> (8 * r) & 0xff) as u16;
                            rows.discs[1][r] = (white >> (8 * r) & 0xff) as u16;
                        }
                        self.record(g, k, usize::from(!black_to_move), &rows, 2, base, shape);
                        k += 1;
                    })
                }
                _ => None,
            };
            let played = match quick {
                Some((played, end)) => {
                    pos = end;
                    played
                }
                None => {
                    self.position(g, 0, &pos, base, shape);
                    let mut played = 0;
                    for mv in moves {
                        if pos.play(*mv).is_err() {
                            break;
                        }
                        played += 1;
                        self.position(g, played, &pos, base, shape);
                    }
                    played
                }
            };
            let over = pos.is_over();
            if over {
                self.turn[g * shape.positions + played] = PAD as i8;
            }
            self.lengths[g] = played as i32;
            self.valid[g] = played == moves.len();
            self.over[g] = over;
            let outcome = pos.counts_outcome();
            // The empty squares go to the winner of a finished board only (spec/rules.md
            // §3.4); an unfinished one counts its discs, and its winner is the record's.
            self.margin[g] = if over {
                outcome.margin() as i16
            } else {
                i16::from(outcome.discs[0]) - i16::from(outcome.discs[1])
            };
            self.winner[g] = match (over, outcome.winner) {
                (false, _) => entry.claim,
                (true, Some(c)) => c.index() as i8,
                (true, None) => -1,
            };
        }
    }

    /// Writes position `k` of game `g`.
    #[inline]
    fn position(&mut self, g: usize, k: usize, pos: &Position, base: &[[u8; 16]], shape: Shape) {
        let colors = pos.rules().colors().len();
        self.record(g, k, pos.turn().index(), &pos.rows(), colors, base, shape);
        if let Some(legal) = self.legal.as_deref_mut() {
            let at = g * shape.positions + k;
            let mask = &mut legal[at * shape.cells..(at + 1) * shape.cells];
            for sq in pos.legal_moves().iter() {
                mask[shape.index(sq)] = true;
            }
        }
    }

    /// Writes the side to move and the board of position `k` of game `g`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn record(
        &mut self,
        g: usize,
        k: usize,
        turn: usize,
        rows: &Rows,
        colors: usize,
        base: &[[u8; 16]],
        shape: Shape,
    ) {
        let at = g * shape.positions + k;
        self.turn[at] = turn as i8;
        if let Some(boards) = self.boards.as_deref_mut() {
            let board = &mut boards[at * shape.per_board..(at + 1) * shape.per_board];
            // The board's side as a constant, so each row is one fixed-size store.
            macro_rules! sides {
                ($($side:literal)*) => {
                    match shape.side {
                        $($side => write_board::<$side>(board, rows, colors, base, shape),)*
                        _ => {}
                    }
                };
            }
            sides!(1 2 3 4 5 6 7 8 9 10);
        }
    }
}

/// The winner a claimed result names, as [`Arrays::winner`] codes it: a colour's index, -1
/// a draw, -2 none (no result, `*`, a resignation that does not say who).
fn claimed_winner(rules: &Rules, result: Option<&ClaimedResult>) -> i8 {
    let Some(result) = result else { return -2 };
    let two = rules.players() == 2;
    match (&result.score, result.termination) {
        (ResultScore::Winner(Some(c)), _) => c.index() as i8,
        (ResultScore::Winner(None), _) => -1,
        (_, Termination::Resignation(Some(c)) | Termination::Time(Some(c))) if two => {
            1 - c.index() as i8
        }
        (ResultScore::Discs(counts), _) if counts.len() >= 2 => {
            let best = counts.iter().copied().max().unwrap_or(0);
            let mut at = counts.iter().enumerate().filter(|(_, &n)| n == best);
            match (at.next(), at.next()) {
                (Some((i, _)), None) => i as i8,
                _ => -1,
            }
        }
        (ResultScore::Margin(m), _) if two && m.is_finite() => match m.partial_cmp(&0.0) {
            Some(std::cmp::Ordering::Greater) => 0,
            Some(std::cmp::Ordering::Less) => 1,
            _ => -1,
        },
        _ => -2,
    }
}

/// The code of a cell in [`Arrays::boards`]: [`EMPTY`], 1 + a colour's index (Black 1,
/// White 2, Red 3, Green 4), [`NEUTRAL`], [`BLOCKED`] or [`OFF_BOARD`].
///
/// ```
/// use reversi_runs::dataset::cell_code;
/// use reversi_engine::{Cell, Color};
/// assert_eq!(cell_code(Cell::Disc(Color::White)), 2);
/// ```
pub fn cell_code(cell: Cell) -> i8 {
    match cell {
        Cell::Empty => EMPTY,
        Cell::Disc(c) => c.index() as i8 + 1,
        Cell::Neutral => NEUTRAL,
        Cell::Blocked => BLOCKED,
        Cell::OffBoard => OFF_BOARD,
    }
}

/// The cell codes of `rules`' board without discs (empty, blocked or off-board), one row
/// of up to 16 bytes at a time.
fn base_board(rules: &Rules, side: usize) -> Vec<[u8; 16]> {
    let pos = Position::new(*rules);
    (0..side)
        .map(|row| {
            let mut bytes = [0u8; 16];
            for (col, byte) in bytes.iter_mut().enumerate().take(side) {
                let cell = Square::new(col as u8, row as u8).map(|sq| pos.cell(sq));
                *byte = match cell {
                    Some(Cell::Disc(_) | Cell::Neutral) => EMPTY,
                    Some(cell) => cell_code(cell),
                    None => OFF_BOARD,
                } as u8;
            }
            bytes
        })
        .collect()
}

/// Writes one board of `SIDE` x `SIDE`: cell codes over `base`, or with planes one 0/1
/// plane per colour.
#[inline(always)]
fn write_board<const SIDE: usize>(
    board: &mut [i8],
    rows: &Rows,
    colors: usize,
    base: &[[u8; 16]],
    shape: Shape,
) {
    let put = |row: &mut [i8], lanes: u128| {
        let bytes = lanes.to_le_bytes().map(|b| b as i8);
        row.copy_from_slice(&bytes[..SIDE]);
    };
    if shape.planes {
        for (c, discs) in rows.discs.iter().enumerate().take(colors) {
            let plane = &mut board[c * shape.cells..(c + 1) * shape.cells];
            for (row, bits) in plane.chunks_exact_mut(SIDE).zip(discs) {
                put(row, LANES[*bits as usize]);
            }
        }
        return;
    }
    // Row by row: each colour's bits spread to one byte per square and scaled to its
    // code, over the board's blocked and off-board squares.
    for (r, (row, base)) in board.chunks_exact_mut(SIDE).zip(base).enumerate() {
        let mut lanes = u128::from_le_bytes(*base);
        for (c, discs) in rows.discs.iter().enumerate().take(colors) {
            lanes |= LANES[discs[r] as usize] * (c as u128 + 1);
        }
        lanes |= LANES[rows.neutral[r] as usize] * NEUTRAL as u128;
        put(row, lanes);
    }
}

/// One byte per bit of a row: entry `bits` has lane `col` 1 where bit `col` is set.
static LANES: [u128; 1 << MAX_SIDE] = {
    let mut table = [0u128; 1 << MAX_SIDE];
    let mut bits = 0;
    while bits < table.len() {
        let mut col = 0;
        while col < MAX_SIDE as usize {
            if bits >> col & 1 == 1 {
                table[bits] |= 1 << (8 * col);
            }
            col += 1;
        }
        bits += 1;
    }
    table
};

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::{Format, ReadOptions};
    use crate::Color;

    /// The arrays of the games of an RGN text.
    fn arrays_of(text: &str) -> (Vec<Record>, Arrays) {
        let games = Format::Rgn
            .read_bytes(text.as_bytes().to_vec(), &ReadOptions::default())
            .expect("reads");
        let records: Vec<Record> = games.into_iter().filter_map(|g| g.record).collect();
        let mut batch = Batch::new();
        for r in &records {
            batch.push_record(r);
        }
        let arrays = batch.build(Options::default(), 1).expect("builds");
        (records, arrays)
    }

    #[test]
    fn an_unfinished_game_counts_its_discs_and_takes_the_claimed_winner() {
        let moves = "1. f5 d6 2. c3 d3 3. c4 f4 4. f6 f3 5. e6 e7";
        let text = format!(
            "[Result \"0-1\"]\n[Termination \"black resigns\"]\n{moves}\n\n\
             [Result \"B+R\"]\n{moves}\n\n\
             [Result \"*\"]\n{moves}\n\n\
             [Result \"40-24\"]\n{moves}\n"
        );
        let (records, a) = arrays_of(&text);
        assert_eq!(records.len(), 4);
        // The board after the moves, replayed here: the discs as they stand.
        let mut pos = crate::Position::new(Rules::default());
        for m in &records[0].moves {
            pos.play(m.mv).expect("legal");
        }
        assert!(!pos.is_over());
        let raw = pos.discs(Color::Black).len() as i16 - pos.discs(Color::White).len() as i16;
        assert_eq!(a.margin, vec![raw; 4]);
        assert_eq!(a.over, vec![false; 4]);
        assert_eq!(a.winner, vec![1, 0, -2, 0]);
    }

    #[test]
    fn replay_says_what_the_arrays_say() {
        let text = "[Event \"a\"]\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n\
            [Event \"b\"]\n1. e6 f4 2. e3 f6 3. g5 d6 4. e7 f5 5. c5 *\n\n\
            [Event \"c\"]\n1. f5 d6 2. a1 d3 *\n\n\
            [Rules \"othello:6x6\"]\n1. b3 b2 *\n\n\
            [Rules \"anti\"]\n1. f5 f6 2. e6 *\n";
        let games = Format::Rgn
            .read_bytes(text.as_bytes().to_vec(), &ReadOptions::default())
            .expect("reads");
        let records: Vec<Record> = games.into_iter().filter_map(|g| g.record).collect();
        assert_eq!(records.len(), 5);
        let mut passes = Vec::new();
        let mut seen = Vec::new();
        for r in &records {
            let moves: Vec<Move> = r.moves.iter().map(|m| m.mv).collect();
            let mut batch = Batch::new();
            batch.push_record(r);
            let a = batch.build(Options::default(), 1).expect("builds");
            let got = replay(&r.rules, r.start.as_ref(), &moves, &mut passes);
            assert_eq!(
                (got.valid, got.over, got.plies),
                (a.valid[0], a.over[0], a.lengths[0] as usize)
            );
            seen.push((got.valid, got.over));
        }
        // The cases are all there: unfinished, finished, illegal, other rules.
        assert!(seen.contains(&(true, false)) && seen.contains(&(true, true)));
        assert!(seen.contains(&(false, false)));
    }

    #[test]
    fn a_finished_board_decides_whatever_the_record_claims() {
        // The shortest game: Black wipes White out after nine moves.
        let moves = "1. e6 f4 2. e3 f6 3. g5 d6 4. e7 f5 5. c5";
        let text = format!("[Result \"0-1\"]\n[Termination \"black resigns\"]\n{moves}\n");
        let (_, a) = arrays_of(&text);
        assert!(a.over[0]);
        assert_eq!((a.winner[0], a.margin[0]), (0, 64));
    }
}
