//! Finding games: those that reach a position (in any move order, under the board's
//! symmetries) or whose tags say something, and what was played from the position.
//!
//! A [`Query`] is a target position ([`Target`]: after a move sequence, or a board) and tag
//! conditions ([`TagFilter`]); a [`Finder`] made from it takes games one at a time
//! ([`Finder::test`] for a [`Record`](crate::record::Record), [`Finder::test_view`] for the
//! borrowed view of a streaming read) and says whether each is found, and where: a
//! [`Hit`] with the number of moves played when the position is on the board, the
//! symmetry it is on the board under, and the move played from it (turned back to the
//! query's orientation). An [`Explorer`] gathers the hits into an opening-explorer
//! tree: each next move with its games, share and results.
//!
//! A position is the discs of every colour and the side to move; two games reach the same
//! position whatever their move orders (a transposition). Under symmetries, a game that
//! reaches any of the position's images under the board's symmetries (eight on a square
//! board: four turns, four reflections) is found, and its next move is turned back. Games
//! are replayed on the engine's bitboards, without a record and without allocating: a
//! placement adds one disc, so a game is replayed only until it has more discs than the
//! position.
//!
//! ```
//! use reversi_runs::archive::find::{Finder, Query, Target};
//! use reversi_formats::{Format, ReadOptions};
//! use reversi_engine::Rules;
//! // The Tiger, and a game that reaches it in another orientation (reflected on the
//! // a1-h8 diagonal: f5 d6 c3 d3 c4 becomes e6 f4 c3 c4 d3).
//! let text = "[Round \"1\"]\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n\
//!             [Round \"2\"]\n1. e6 f4 2. c3 c4 3. d3 *\n\n\
//!             [Round \"3\"]\n1. f5 f6 *\n";
//! let games = Format::Rgn.read_bytes(text, &ReadOptions::default())?;
//! assert_eq!(games.len(), 3);
//! let query = Query::at(Target::after_moves(Rules::default(), "f5d6c3d3c4")?);
//! let finder = Finder::new(&query);
//! let hits: Vec<_> = games.iter().map(|g| finder.test(g.record.as_ref().unwrap())).collect();
//! assert_eq!(hits[0].map(|h| h.ply), Some(5));
//! assert_eq!(hits[0].and_then(|h| h.next).map(|m| m.to_string()), Some("f4".into()));
//! assert_eq!(hits[1].map(|h| h.symmetry.describe()), Some("reflected on the a1-h8 diagonal"));
//! assert!(hits[2].is_none());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! An index file beside an archive ([`index`]) answers a position query without reading
//! the games: the canonical hash of every position of the first plies of every game.

mod bits;
mod explore;
pub mod index;
mod query;
mod scan;

pub use explore::{result_outcome, Branch, Explorer, ExplorerRow};
pub use query::{Condition, QueryError, TagFilter, Target};
pub use scan::{Finder, Hit};

use crate::event::Symmetry;

/// What to find: games that reach a position (if one is given) and whose tags meet the
/// conditions (if any).
#[derive(Clone, Debug, Default)]
pub struct Query {
    /// The position the games must reach.
    pub target: Option<Target>,
    /// The conditions their tags must meet.
    pub tags: TagFilter,
    /// Whether the position's images under the board's symmetries count too ([`Query::at`]
    /// and [`Query::tagged`] set it).
    pub symmetries: bool,
}

impl Query {
    /// Games that reach `target`, in any orientation.
    pub fn at(target: Target) -> Query {
        Query {
            target: Some(target),
            tags: TagFilter::default(),
            symmetries: true,
        }
    }

    /// Games whose tags meet `tags`.
    pub fn tagged(tags: TagFilter) -> Query {
        Query {
            target: None,
            tags,
            symmetries: true,
        }
    }
}

/// A stable, short name of a symmetry, for JSON and the command line's references:
/// `identity`, `rotate90`, `rotate180`, `rotate270`, `mirror-columns`, `mirror-rows`,
/// `diagonal` (a1-h8), `anti-diagonal` (a8-h1).
pub fn symmetry_name(symmetry: Symmetry) -> &'static str {
    match symmetry {
        Symmetry::Identity => "identity",
        Symmetry::Quarter => "rotate90",
        Symmetry::Half => "rotate180",
        Symmetry::ThreeQuarters => "rotate270",
        Symmetry::Columns => "mirror-columns",
        Symmetry::Rows => "mirror-rows",
        Symmetry::Diagonal => "diagonal",
        Symmetry::AntiDiagonal => "anti-diagonal",
    }
}
