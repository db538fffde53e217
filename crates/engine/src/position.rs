//! [`Position`]: a game position of any variant and board, with checked play.

use std::fmt;

use super::bits::Bits;
use super::board_state::{BitPosition, IllegalMove};
use super::outcome::Outcome;
use super::perft::Finished;
use super::rules::Rules;
use super::square::{Color, Square, SquareSet, MAX_SIDE};

/// A move: a disc placed on a square, or a pass.
///
/// ```
/// use reversi_engine::{Move, Position, Rules};
/// let mut pos = Position::new(Rules::default());
/// let f5 = Move::Place("f5".parse()?);
/// assert!(pos.legal_moves().contains("f5".parse()?));
/// pos.play(f5)?;
/// assert_eq!((f5.to_string(), Move::Pass.to_string()), ("f5".to_string(), "--".to_string()));
/// // A pass is legal only when the side to move has no move.
/// assert!(pos.play(Move::Pass).is_err());
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Move {
    /// Place a disc of the side to move.
    Place(Square),
    /// Pass the turn.
    Pass,
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(sq) => write!(f, "{sq}"),
            Move::Pass => f.write_str("--"),
        }
    }
}

/// What a square holds.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub enum Cell {
    /// Not a square of this board (the octagon's cut corners, or beyond the board's side).
    OffBoard,
    /// A blocked square.
    Blocked,
    /// An empty playable square.
    Empty,
    /// A disc of a player.
    Disc(Color),
    /// The neutral disc of a 3-player game.
    Neutral,
}

impl Cell {
    /// The character used in board diagrams.
    pub const fn symbol(self) -> char {
        match self {
            Cell::OffBoard => ' ',
            Cell::Blocked => '#',
            Cell::Empty => '.',
            Cell::Disc(c) => c.symbol(),
            Cell::Neutral => 'N',
        }
    }
}

/// A board setup: who owns which square, and who moves.
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct Setup {
    /// Discs of each colour, in turn order.
    pub discs: [SquareSet; 4],
    /// Neutral discs (3-player games).
    pub neutral: SquareSet,
    /// Side to move.
    pub turn: Color,
}

/// Why a setup cannot be a position under the given rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SetupError {
    /// A disc stands on a square that is off the board or blocked.
    NotPlayable(Square),
    /// Two discs share a square.
    Overlap(Square),
    /// A disc of a colour that does not take part.
    ColorNotPlaying(Color),
    /// A neutral disc outside a 3-player game.
    NeutralNotAllowed(Square),
    /// Classic reversi: a player is given more discs in hand than a player of the game has.
    InHandAboveSupply {
        /// The player.
        color: Color,
        /// The discs in hand given.
        in_hand: u8,
        /// The discs each player has at the start.
        supply: u8,
    },
    /// Classic reversi: the discs in hand and the discs placed on the board (handicap discs
    /// excepted) come to more than the game's discs.
    InHandAboveTotal {
        /// The discs in hand given, Black's and White's.
        in_hand: [u8; 2],
        /// Discs on the board beyond the handicap discs: placed from the players' hands.
        placed: u16,
        /// The discs of the whole game (twice the supply).
        total: u16,
    },
}

impl SetupError {
    /// The stable name of the kind of refusal, such as `NotPlayable` (`spec/rules.md` §9):
    /// what the JSON transcript gives as `setup_refusal`.
    pub const fn kind(&self) -> &'static str {
        match self {
            SetupError::NotPlayable(_) => "NotPlayable",
            SetupError::Overlap(_) => "Overlap",
            SetupError::ColorNotPlaying(_) => "ColorNotPlaying",
            SetupError::NeutralNotAllowed(_) => "NeutralNotAllowed",
            SetupError::InHandAboveSupply { .. } => "InHandAboveSupply",
            SetupError::InHandAboveTotal { .. } => "InHandAboveTotal",
        }
    }

    /// Every kind's name, in the order of `spec/rules.md` §9.
    pub const KINDS: [&'static str; 6] = [
        "NotPlayable",
        "Overlap",
        "ColorNotPlaying",
        "NeutralNotAllowed",
        "InHandAboveSupply",
        "InHandAboveTotal",
    ];
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::NotPlayable(sq) => {
                write!(
                    f,
                    "square {sq} holds a disc but is off the board or blocked"
                )
            }
            SetupError::Overlap(sq) => write!(f, "square {sq} holds two discs"),
            SetupError::ColorNotPlaying(c) => {
                write!(
                    f,
                    "{c} does not take part in this game but has discs or the move"
                )
            }
            SetupError::NeutralNotAllowed(sq) => {
                write!(
                    f,
                    "square {sq} holds a neutral disc, which only 3-player games have"
                )
            }
            SetupError::InHandAboveSupply {
                color,
                in_hand,
                supply,
            } => write!(
                f,
                "{color} is given {in_hand} discs in hand, more than the {supply} each player has"
            ),
            SetupError::InHandAboveTotal {
                in_hand: [black, white],
                placed,
                total,
            } => write!(
                f,
                "the discs in hand (black {black}, white {white}) and the {placed} placed on the board come to {}, more than the {total} discs of the game",
                u16::from(*black) + u16::from(*white) + placed
            ),
        }
    }
}

impl std::error::Error for SetupError {}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Layout {
    Small(BitPosition<u64>),
    Large(BitPosition<u128>),
}

macro_rules! with {
    ($self:expr, $p:ident => $e:expr) => {
        match $self {
            Layout::Small($p) => $e,
            Layout::Large($p) => $e,
        }
    };
}

/// A board row by row ([`Position::rows`]): bit `col` of entry `row`.
#[derive(Clone, Copy, Default, PartialEq, Eq, Debug)]
pub struct Rows {
    /// The discs of each colour, by [`Color::index`]; rows past the board's side are 0.
    pub discs: [[u16; MAX_SIDE as usize]; 4],
    /// The neutral discs.
    pub neutral: [u16; MAX_SIDE as usize],
}

/// A position of any variant on any board, with checked play.
///
/// ```
/// use reversi_engine::{Move, Position, Rules};
/// let mut pos = Position::new(Rules::default());
/// assert_eq!(pos.legal_moves().to_string(), "d3 c4 f5 e6");
/// let flipped = pos.play_with_flips(Move::Place("f5".parse().unwrap())).unwrap();
/// assert_eq!(flipped.to_string(), "e5");
/// assert!(pos.play(Move::Place("a1".parse().unwrap())).is_err());
/// ```
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Position {
    rules: Rules,
    layout: Layout,
}

impl Position {
    /// The start position of `rules`.
    pub fn new(rules: Rules) -> Position {
        let (discs, neutral) = rules.start_discs();
        Position::build(
            rules,
            Setup {
                discs,
                neutral,
                turn: Color::Black,
            },
        )
    }

    /// A position from an arbitrary setup, checked against `rules`.
    pub fn from_setup(rules: Rules, setup: Setup) -> Result<Position, SetupError> {
        let playable = rules.playable();
        let all = || setup.discs.iter().chain(std::iter::once(&setup.neutral));
        // Every set's squares first, then the overlaps (spec/rules.md §9: the checks in order).
        for set in all() {
            if let Some(sq) = set.difference(playable).first() {
                return Err(SetupError::NotPlayable(sq));
            }
        }
        let mut seen = SquareSet::EMPTY;
        for set in all() {
            if let Some(sq) = set.intersection(seen).first() {
                return Err(SetupError::Overlap(sq));
            }
            seen = seen.union(*set);
        }
        for c in Color::ALL.into_iter().skip(rules.players() as usize) {
            if !setup.discs[c.index()].is_empty() || setup.turn == c {
                return Err(SetupError::ColorNotPlaying(c));
            }
        }
        if rules.players() != 3 {
            if let Some(sq) = setup.neutral.first() {
                return Err(SetupError::NeutralNotAllowed(sq));
            }
        }
        Ok(Position::build(rules, setup))
    }

    /// A position from a setup and, in classic reversi, the discs each player still has in
    /// hand (`None`: derived from the board, `spec/rules.md` §9). Refused like
    /// [`Position::from_setup`], and when a player is given more discs than a player has
    /// ([`SetupError::InHandAboveSupply`]) or the hands and the discs placed on the board
    /// come to more than the game has ([`SetupError::InHandAboveTotal`]). Without a supply
    /// the discs in hand are ignored.
    ///
    /// ```
    /// use reversi_engine::{Color, Position, Rules, SetupError};
    /// let rules: Rules = "classic".parse().unwrap();
    /// let setup = Position::new(rules).setup();
    /// let pos = Position::from_setup_in_hand(rules, setup, Some([1, 5])).unwrap();
    /// assert_eq!(pos.in_hand(Color::Black), Some(1));
    /// let e = Position::from_setup_in_hand(rules, setup, Some([40, 40])).unwrap_err();
    /// assert_eq!(e.kind(), "InHandAboveSupply");
    /// let four = Position::new(Rules::default()).setup(); // the four centre discs
    /// let e = Position::from_setup_in_hand(rules, four, Some([31, 31])).unwrap_err();
    /// assert_eq!(e.kind(), "InHandAboveTotal");
    /// ```
    pub fn from_setup_in_hand(
        rules: Rules,
        setup: Setup,
        in_hand: Option<[u8; 2]>,
    ) -> Result<Position, SetupError> {
        let mut pos = Position::from_setup(rules, setup)?;
        let (Some(hands), Some(supply)) = (in_hand, rules.supply()) else {
            return Ok(pos);
        };
        for (color, n) in [(Color::Black, hands[0]), (Color::White, hands[1])] {
            if n > supply {
                return Err(SetupError::InHandAboveSupply {
                    color,
                    in_hand: n,
                    supply,
                });
            }
        }
        let handicap = rules.handicap().map_or(0, |h| h.squares.len());
        let on_board: usize = setup.discs.iter().map(|d| d.len()).sum();
        let placed = on_board.saturating_sub(handicap) as u16;
        let total = 2 * u16::from(supply);
        if u16::from(hands[0]) + u16::from(hands[1]) + placed > total {
            return Err(SetupError::InHandAboveTotal {
                in_hand: hands,
                placed,
                total,
            });
        }
        pos.set_in_hand(Color::Black, Some(hands[0]));
        pos.set_in_hand(Color::White, Some(hands[1]));
        Ok(pos)
    }

    /// Whether the game is in the free opening (`opening`) or past it (`main`): a setup is in
    /// the opening when the rules have a free opening and a centre square is empty
    /// (`spec/rules.md` §9).
    pub fn phase(&self) -> &'static str {
        if self.in_free_opening() {
            "opening"
        } else {
            "main"
        }
    }

    fn build(rules: Rules, setup: Setup) -> Position {
        let Setup {
            discs,
            neutral,
            turn,
        } = setup;
        let layout = match BitPosition::<u64>::from_parts(&rules, discs, neutral, turn) {
            Some(p) => Layout::Small(p),
            None => Layout::Large(
                BitPosition::<u128>::from_parts(&rules, discs, neutral, turn)
                    .expect("every board fits the 10x10 layout"),
            ),
        };
        Position { rules, layout }
    }

    /// The rules of the game.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The side to move.
    pub fn turn(&self) -> Color {
        with!(&self.layout, p => p.turn())
    }

    /// The setup this position is: discs and side to move.
    pub fn setup(&self) -> Setup {
        Setup {
            discs: Color::ALL.map(|c| self.discs(c)),
            neutral: self.neutral(),
            turn: self.turn(),
        }
    }

    /// Discs of `color`.
    pub fn discs(&self, color: Color) -> SquareSet {
        with!(&self.layout, p => p.discs(color).to_set())
    }

    /// Neutral discs (3-player games).
    pub fn neutral(&self) -> SquareSet {
        with!(&self.layout, p => p.neutral().to_set())
    }

    /// The board row by row, bit `col` of row `row`: the discs of each colour in turn
    /// order and the neutral discs, read straight off the bitboards (what array builders
    /// use instead of a [`SquareSet`] per colour).
    ///
    /// ```
    /// use reversi_engine::{Color, Position, Rules};
    /// let rows = Position::new(Rules::default()).rows();
    /// // Row 4: d4 White, e4 Black.
    /// assert_eq!((rows.discs[Color::Black.index()][3], rows.discs[Color::White.index()][3]), (0b10000, 0b1000));
    /// ```
    pub fn rows(&self) -> Rows {
        fn read<B: Bits>(p: &BitPosition<B>, rules: &Rules) -> Rows {
            let side = rules.board().side() as usize;
            let mut rows = Rows::default();
            for &c in rules.colors() {
                let discs = p.discs(c);
                for (r, row) in rows.discs[c.index()].iter_mut().enumerate().take(side) {
                    *row = discs.row(r as u32);
                }
            }
            let neutral = p.neutral();
            if !neutral.is_zero() {
                for (r, row) in rows.neutral.iter_mut().enumerate().take(side) {
                    *row = neutral.row(r as u32);
                }
            }
            rows
        }
        with!(&self.layout, p => read(p, &self.rules))
    }

    /// Empty playable squares.
    pub fn empty(&self) -> SquareSet {
        with!(&self.layout, p => p.empty().to_set())
    }

    /// Discs `color` still has in hand, when the supply is limited (classic reversi).
    pub fn in_hand(&self, color: Color) -> Option<u8> {
        with!(&self.layout, p => p.in_hand(color))
    }

    /// Sets the discs `color` still has in hand (`None`: unlimited), for a setup whose
    /// history is known (a record's start position can say it).
    pub fn set_in_hand(&mut self, color: Color, discs: Option<u8>) {
        with!(&mut self.layout, p => p.set_in_hand(color, discs))
    }

    /// What `sq` holds.
    pub fn cell(&self, sq: Square) -> Cell {
        if !self.rules.board().contains(sq) {
            return Cell::OffBoard;
        }
        if self.rules.blocked().contains(sq) {
            return Cell::Blocked;
        }
        if self.neutral().contains(sq) {
            return Cell::Neutral;
        }
        match Color::ALL.into_iter().find(|&c| self.discs(c).contains(sq)) {
            Some(c) => Cell::Disc(c),
            None => Cell::Empty,
        }
    }

    /// Squares where the side to move may place a disc.
    pub fn legal_moves(&self) -> SquareSet {
        with!(&self.layout, p => p.legal_moves().to_set())
    }

    /// Whether the side to move must pass (two players only).
    pub fn must_pass(&self) -> bool {
        with!(&self.layout, p => p.must_pass())
    }

    /// Whether the game is over.
    pub fn is_over(&self) -> bool {
        with!(&self.layout, p => p.is_over())
    }

    /// Whether the free opening's centre placements are still going on.
    pub fn in_free_opening(&self) -> bool {
        with!(&self.layout, p => p.in_free_opening())
    }

    /// The discs a placement on `sq` would flip, or why it is illegal.
    pub fn flips(&self, sq: Square) -> Result<SquareSet, IllegalMove> {
        with!(&self.layout, p => check(p, &self.rules, sq).map(|(_, f)| f.to_set()))
    }

    /// Plays `mv` if legal; on error the position is unchanged. To learn which discs the
    /// move flipped, use [`Position::play_with_flips`].
    ///
    /// ```
    /// use reversi_engine::{Move, Position, Rules};
    /// let mut pos = Position::new(Rules::default());
    /// pos.play(Move::Place("f5".parse().unwrap())).unwrap();
    /// assert!(pos.play(Move::Pass).is_err());
    /// ```
    #[inline]
    pub fn play(&mut self, mv: Move) -> Result<(), IllegalMove> {
        let rules = &self.rules;
        with!(&mut self.layout, p => match mv {
            Move::Pass => p.pass(),
            Move::Place(sq) => {
                let (index, flipped) = check(p, rules, sq)?;
                p.play_unchecked(index, flipped);
                Ok(())
            }
        })
    }

    /// Plays `mv` if legal, like [`Position::play`], and returns the discs it flipped
    /// (none for a pass); on error the position is unchanged.
    #[inline]
    pub fn play_with_flips(&mut self, mv: Move) -> Result<SquareSet, IllegalMove> {
        let rules = &self.rules;
        with!(&mut self.layout, p => match mv {
            Move::Pass => p.pass().map(|()| SquareSet::EMPTY),
            Move::Place(sq) => {
                let (index, flipped) = check(p, rules, sq)?;
                p.play_unchecked(index, flipped);
                Ok(flipped.to_set())
            }
        })
    }

    /// The result, once the game is over.
    pub fn outcome(&self) -> Option<Outcome> {
        self.is_over().then(|| self.counts_outcome())
    }

    /// The result the board would give if the game ended now.
    pub fn counts_outcome(&self) -> Outcome {
        let mut discs = [0u8; 4];
        for c in self.rules.colors() {
            discs[c.index()] = self.discs(*c).len() as u8;
        }
        Outcome::new(
            &self.rules,
            discs,
            self.neutral().len() as u8,
            self.empty().len() as u8,
        )
    }

    /// Counts the leaves of the game tree `depth` plies deep (a pass is a ply); `finished`
    /// says what a game that ends above the horizon counts.
    ///
    /// ```
    /// use reversi_engine::{Finished, Position, Rules};
    /// assert_eq!(Position::new(Rules::default()).perft(4, Finished::Ignored), 244);
    /// ```
    pub fn perft(&self, depth: u32, finished: Finished) -> u64 {
        with!(&self.layout, p => super::perft::perft(p, depth, finished))
    }

    /// [`Position::perft`] divided by the first ply: each legal move in square order (or
    /// the forced pass) with the leaves below it, `jobs` threads searching each (see
    /// [`Position::perft_jobs`]). The counts add up to [`Position::perft`]'s; none at depth
    /// 0 or when the game is over (then the whole count is `perft`'s: 1 or what `finished`
    /// says).
    ///
    /// ```
    /// use reversi_engine::{Finished, Move, Position, Rules};
    /// let pos = Position::new(Rules::default());
    /// let divided = pos.perft_divide(3, Finished::Ignored, 1);
    /// assert_eq!(divided[0], (Move::Place("d3".parse()?), 14));
    /// assert_eq!(divided.iter().map(|(_, n)| n).sum::<u64>(), 56);
    /// # Ok::<(), Box<dyn std::error::Error>>(())
    /// ```
    pub fn perft_divide(&self, depth: u32, finished: Finished, jobs: usize) -> Vec<(Move, u64)> {
        if depth == 0 || self.is_over() {
            return Vec::new();
        }
        let moves: Vec<Move> = if self.must_pass() {
            vec![Move::Pass]
        } else {
            self.legal_moves().iter().map(Move::Place).collect()
        };
        moves
            .into_iter()
            .filter_map(|mv| {
                let mut child = *self;
                child.play(mv).ok()?;
                Some((mv, child.perft_jobs(depth - 1, finished, jobs)))
            })
            .collect()
    }

    /// Counts what [`Position::perft`] counts on `jobs` threads (0: one per core; at most 256),
    /// splitting the tree at the first ply (deeper while there are too few subtrees to share
    /// out).
    /// Shallow searches (depth below 5) and `jobs` 1 run on the calling thread.
    ///
    /// ```
    /// use reversi_engine::{Finished, Position, Rules};
    /// let pos = Position::new(Rules::default());
    /// assert_eq!(pos.perft_jobs(7, Finished::Ignored, 2), 55_092);
    /// assert_eq!(pos.perft_jobs(7, Finished::Ignored, 2), pos.perft(7, Finished::Ignored));
    /// ```
    pub fn perft_jobs(&self, depth: u32, finished: Finished, jobs: usize) -> u64 {
        with!(&self.layout, p => super::perft::perft_jobs(p, depth, finished, jobs))
    }

    /// [`Position::perft_jobs`], giving up (`None`) soon after `stop` is set, so that a
    /// caller can interrupt a deep search: the flag is looked at before every subtree of
    /// 7 plies or more, a few milliseconds of search apart.
    ///
    /// ```
    /// use std::sync::atomic::AtomicBool;
    /// use reversi_engine::{Finished, Position, Rules};
    /// let pos = Position::new(Rules::default());
    /// assert_eq!(pos.perft_jobs_until(8, Finished::Ignored, 2, &AtomicBool::new(false)), Some(390_216));
    /// assert_eq!(pos.perft_jobs_until(30, Finished::Ignored, 2, &AtomicBool::new(true)), None);
    /// ```
    pub fn perft_jobs_until(
        &self,
        depth: u32,
        finished: Finished,
        jobs: usize,
        stop: &std::sync::atomic::AtomicBool,
    ) -> Option<u64> {
        with!(&self.layout, p => super::perft::perft_jobs_until(p, depth, finished, jobs, stop))
    }
}

#[inline(always)]
fn check<B: Bits>(p: &BitPosition<B>, rules: &Rules, sq: Square) -> Result<(u32, B), IllegalMove> {
    let index = B::index_of(sq).ok_or(IllegalMove::OffBoard)?;
    match p.check_move(index) {
        Ok(flipped) => Ok((index, flipped)),
        Err(IllegalMove::OffBoard) if rules.blocked().contains(sq) => Err(IllegalMove::Blocked),
        Err(e) => Err(e),
    }
}

impl fmt::Display for Position {
    /// A board diagram: columns across the top, rows down the side, `X O R G` discs, `N`
    /// neutral, `.` empty, `#` blocked; then the side to move or `game over`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.rules.board().side();
        let pad = if n >= 10 { 3 } else { 2 };
        write!(f, "{:pad$}", "")?;
        for c in 0..n {
            write!(f, " {}", (b'a' + c) as char)?;
        }
        writeln!(f)?;
        for r in 0..n {
            write!(f, "{:>pad$}", r + 1)?;
            for c in 0..n {
                let sq = Square::new(c, r).expect("board fits the grid");
                write!(f, " {}", self.cell(sq).symbol())?;
            }
            writeln!(f)?;
        }
        if self.is_over() {
            write!(f, "game over")
        } else {
            write!(f, "{} to move", self.turn())
        }
    }
}
