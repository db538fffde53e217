//! The scan: each game replayed on bitboards up to the position's number of discs.

use crate::engine::{BitPosition, Bits, BoardShape, Color, Move, Rules, Square};
use crate::event::Symmetry;
use crate::pipeline::view::GameView;
use crate::record::{Record, StartPosition, Tag};

use super::bits::transform_set;
use super::{Query, TagFilter};

/// Where a game meets a query.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hit {
    /// How many of the game's moves as written (passes written out included) are played
    /// when the position is on the board: the next written move is `moves[ply]`. 0 for a
    /// query without a position (the start is its position).
    pub ply: usize,
    /// The symmetry that takes the query's position to the game's: the game reaches the
    /// query's position seen so.
    pub symmetry: Symmetry,
    /// The move played from the position, turned back to the query's orientation: a pass
    /// when the player to move has none (written or not), `None` when the game's record
    /// ends there (or stops at an illegal move).
    pub next: Option<Move>,
}

/// One image of the target in a bitboard layout.
#[derive(Clone, Copy, Debug)]
struct Image<B> {
    discs: [B; 4],
    neutral: B,
    turn: Color,
    symmetry: Symmetry,
}

/// The target, ready to compare with replayed positions.
#[derive(Clone, Debug)]
struct Images {
    board: BoardShape,
    players: u8,
    /// Discs on the board (neutral included).
    count: u32,
    side: u8,
    narrow: Vec<Image<u64>>,
    wide: Vec<Image<u128>>,
}

/// Tests games against a [`Query`], one at a time, without allocating.
#[derive(Clone, Debug)]
pub struct Finder {
    images: Option<Images>,
    tags: TagFilter,
}

impl Finder {
    /// The finder of `query`: the position's distinct images under the symmetries that
    /// keep the board's squares (all eight on the square boards; only the identity when
    /// `query.symmetries` is off), in the order of [`Symmetry::ALL`].
    pub fn new(query: &Query) -> Finder {
        let images = query.target.map(|target| {
            let rules = target.rules();
            let setup = target.setup();
            let side = rules.board().side();
            let playable = rules.playable();
            let mut seen: Vec<([crate::engine::SquareSet; 4], crate::engine::SquareSet)> =
                Vec::new();
            let mut narrow = Vec::new();
            let mut wide = Vec::new();
            for s in Symmetry::ALL {
                if s != Symmetry::Identity
                    && (!query.symmetries || transform_set(s, side, playable) != playable)
                {
                    continue;
                }
                let discs = setup.discs.map(|d| transform_set(s, side, d));
                let neutral = transform_set(s, side, setup.neutral);
                if seen.contains(&(discs, neutral)) {
                    continue;
                }
                seen.push((discs, neutral));
                narrow.push(Image {
                    discs: discs.map(u64::from_set),
                    neutral: u64::from_set(neutral),
                    turn: setup.turn,
                    symmetry: s,
                });
                wide.push(Image {
                    discs: discs.map(u128::from_set),
                    neutral: u128::from_set(neutral),
                    turn: setup.turn,
                    symmetry: s,
                });
            }
            Images {
                board: rules.board(),
                players: rules.players(),
                count: target.discs() as u32,
                side,
                narrow,
                wide,
            }
        });
        Finder {
            images,
            tags: query.tags.clone(),
        }
    }

    /// Whether the query has a position.
    pub fn has_position(&self) -> bool {
        self.images.is_some()
    }

    /// Whether the query has tag conditions.
    pub fn has_tags(&self) -> bool {
        !self.tags.is_empty()
    }

    /// Where `record` meets the query, if it does.
    pub fn test(&self, record: &Record) -> Option<Hit> {
        if !self.tags.matches(&record.tags) {
            return None;
        }
        self.reach(&record.rules, record.start.as_ref(), |i| {
            record.moves.get(i).map(|m| m.mv)
        })
    }

    /// Where the game `view` meets the query, if it does.
    pub fn test_view(&self, view: &GameView<'_>) -> Option<Hit> {
        if view.index() == 0 || !self.tags.matches(view.tags()) {
            return None;
        }
        let moves = view.moves();
        self.reach(&view.rules(), view.start(), |i| moves.get(i).copied())
    }

    /// Whether a game with these tags meets the query's tag conditions.
    pub fn tags_match(&self, tags: &[Tag]) -> bool {
        self.tags.matches(tags)
    }

    /// Where a game of `rules` from `start` (the usual one when `None`) with the moves
    /// `moves` gives (`moves(i)`: the `i`-th written move) reaches the query's position;
    /// tags are not looked at.
    pub fn reach(
        &self,
        rules: &Rules,
        start: Option<&StartPosition>,
        moves: impl Fn(usize) -> Option<Move>,
    ) -> Option<Hit> {
        let Some(images) = &self.images else {
            return Some(Hit {
                ply: 0,
                symmetry: Symmetry::Identity,
                next: moves(0),
            });
        };
        if rules.board() != images.board || rules.players() != images.players {
            return None;
        }
        if images.side <= u64::SIDE {
            let pos = start_position::<u64>(rules, start)?;
            replay(pos, &moves, &images.narrow, images.count, images.side)
        } else {
            let pos = start_position::<u128>(rules, start)?;
            replay(pos, &moves, &images.wide, images.count, images.side)
        }
    }
}

/// The start of a game in layout `B`: the usual one, or the record's (checked as the
/// validator checks it).
#[inline]
fn start_position<B: Bits>(rules: &Rules, start: Option<&StartPosition>) -> Option<BitPosition<B>> {
    match start {
        None => BitPosition::start(rules),
        Some(start) => {
            let pos = crate::record::start_position(*rules, Some(start)).ok()?;
            let setup = pos.setup();
            let mut bits = BitPosition::from_parts(rules, setup.discs, setup.neutral, setup.turn)?;
            for color in [Color::Black, Color::White] {
                if rules.supply().is_some() {
                    bits.set_in_hand(color, pos.in_hand(color));
                }
            }
            Some(bits)
        }
    }
}

/// Replays the moves from `pos` while the board has no more discs than the target,
/// comparing each position that has as many with the target's images.
#[inline]
fn replay<B: Bits>(
    pos: BitPosition<B>,
    moves: &impl Fn(usize) -> Option<Move>,
    images: &[Image<B>],
    count: u32,
    side: u8,
) -> Option<Hit> {
    let mut found = None;
    walk(pos, moves, count, |pos, ply| {
        if pos.occupied().count() != count {
            return false;
        }
        let Some(image) = images.iter().find(|image| same(pos, image)) else {
            return false;
        };
        let next = match moves(ply) {
            Some(Move::Place(sq)) => {
                let legal = B::index_of(sq).is_some_and(|i| pos.check_move(i).is_ok());
                if !legal && pos.must_pass() {
                    Some(Move::Pass)
                } else {
                    Some(Move::Place(back(image.symmetry, side, sq)))
                }
            }
            other => other,
        };
        found = Some(Hit {
            ply,
            symmetry: image.symmetry,
            next,
        });
        true
    });
    found
}

/// Replays `moves` (`moves(i)`: the `i`-th written move) from `pos`, showing `visit`
/// each position with at most `most` discs and the number of written moves played: the
/// start, the position after each move, and the position after each pass the record
/// leaves out (inferred, as the validator infers it, where the mover has no move). Stops
/// when `visit` says so (returns `true`), at the end of the moves, at an illegal move
/// and once the board has more than `most` discs (a placement adds one disc, so no later
/// position has fewer). Both the scan and the index walk games with this.
#[inline]
pub(super) fn walk<B: Bits>(
    mut pos: BitPosition<B>,
    moves: &impl Fn(usize) -> Option<Move>,
    most: u32,
    mut visit: impl FnMut(&BitPosition<B>, usize) -> bool,
) {
    let mut ply = 0;
    loop {
        if pos.occupied().count() > most || visit(&pos, ply) {
            return;
        }
        let Some(next) = moves(ply) else { return };
        match next {
            Move::Pass => {
                if pos.pass().is_err() {
                    return;
                }
            }
            Move::Place(sq) => {
                let Some(index) = B::index_of(sq) else { return };
                match pos.check_move(index) {
                    Ok(flipped) => pos.play_unchecked(index, flipped),
                    Err(_) if pos.must_pass() => {
                        // A pass the record leaves out: the position after it is
                        // visited, then the move is tried again (now with moves, the
                        // player cannot have to pass again).
                        pos.pass_unchecked();
                        continue;
                    }
                    Err(_) => return,
                }
            }
        }
        ply += 1;
    }
}

/// Whether `pos` is the image.
#[inline]
fn same<B: Bits>(pos: &BitPosition<B>, image: &Image<B>) -> bool {
    pos.turn() == image.turn
        && pos.discs(Color::Black) == image.discs[0]
        && pos.discs(Color::White) == image.discs[1]
        && pos.discs(Color::Red) == image.discs[2]
        && pos.discs(Color::Green) == image.discs[3]
        && pos.neutral() == image.neutral
}

/// The square of the game's board `sq` turned back to the query's orientation.
fn back(symmetry: Symmetry, side: u8, sq: Square) -> Square {
    let (col, row) = symmetry.inverse().apply(side, sq.col(), sq.row());
    Square::new(col, row).unwrap_or(sq)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::archive::find::Target;

    fn squares(text: &str) -> Vec<Move> {
        text.split_whitespace()
            .map(|s| match s {
                "--" => Move::Pass,
                s => Move::Place(s.parse().unwrap()),
            })
            .collect()
    }

    fn hit(query: &Query, rules: Rules, moves: &str) -> Option<Hit> {
        let moves = squares(moves);
        Finder::new(query).reach(&rules, None, |i| moves.get(i).copied())
    }

    #[test]
    fn transpositions_and_images_are_found() {
        let rules = Rules::default();
        let query = Query::at(Target::after_moves(rules, "f5 d6 c3 d3 c4").unwrap());
        let h = hit(&query, rules, "f5 d6 c3 d3 c4 f4 f6").unwrap();
        assert_eq!(
            (h.ply, h.symmetry, h.next),
            (5, Symmetry::Identity, Some(squares("f4")[0]))
        );
        // Another order to the same discs: c4 d3 c3 d6 f5 is not legal, but f5 d6 c4 d3 c3 is.
        let h = hit(&query, rules, "f5 d6 c4 d3 c3 f4").unwrap();
        assert_eq!((h.ply, h.symmetry), (5, Symmetry::Identity));
        // Rotated a half turn: every square (c, r) at (7 - c, 7 - r).
        let h = hit(&query, rules, "c4 e3 f6 e6 f5 c5").unwrap();
        assert_eq!(h.symmetry, Symmetry::Half);
        assert_eq!(h.next, Some(squares("f4")[0]), "c5 turned back");
        let mut exact = query.clone();
        exact.symmetries = false;
        assert!(hit(&exact, rules, "c4 e3 f6 e6 f5 c5").is_none());
        assert!(hit(&query, rules, "f5 f6 e6 f4").is_none());
        // A game that ends at the position.
        assert_eq!(hit(&query, rules, "f5 d6 c3 d3 c4").unwrap().next, None);
    }

    #[test]
    fn the_side_to_move_is_part_of_the_position() {
        let rules = Rules::default();
        let target = Target::after_moves(rules, "f5 d6").unwrap();
        let mut setup = target.setup();
        setup.turn = Color::White;
        let query = Query::at(Target::from_setup(rules, setup).unwrap());
        assert!(
            hit(&query, rules, "f5 d6 c3").is_none(),
            "Black is to move there"
        );
        assert!(hit(&Query::at(target), rules, "f5 d6 c3").is_some());
    }

    #[test]
    fn other_boards_are_not_compared() {
        let query = Query::at(Target::after_moves(Rules::default(), "f5").unwrap());
        let ten: Rules = "othello:10x10".parse().unwrap();
        assert!(hit(&query, ten, "g6").is_none());
        let query = Query::at(Target::after_moves(ten, "g6").unwrap());
        assert!(hit(&query, ten, "g6 e7").is_some());
    }
}
