//! Picking the one game a `--game` selector names out of a stream of games.

use std::fmt;
use std::io;

use super::{Games, ParsedGame};
use crate::record::{GameSelector, Identity};

/// Why [`select_one`] found no single game.
#[derive(Debug)]
pub enum SelectError {
    /// Reading failed before the game was found.
    Read(io::Error),
    /// No game is selected; the input holds this many games.
    NotFound {
        /// The selector.
        selector: GameSelector,
        /// The games of the input.
        games: usize,
    },
    /// More than one game is selected.
    Several {
        /// The selector.
        selector: GameSelector,
        /// The first games it takes (a few), by number and identity, in input order.
        games: Vec<(usize, Option<Identity>)>,
        /// How many games it takes.
        count: usize,
    },
}

impl fmt::Display for SelectError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let plural = |n: usize| if n == 1 { "game" } else { "games" };
        match self {
            SelectError::Read(e) => write!(f, "{e}"),
            SelectError::NotFound {
                selector: GameSelector::Index(n),
                games,
            } => write!(
                f,
                "expected a game number from 1 to {games}, but found {n} instead: the input has {games} {}",
                plural(*games)
            ),
            SelectError::NotFound { selector, games } => write!(
                f,
                "no game has {selector} (the input has {games} {})",
                plural(*games)
            ),
            SelectError::Several {
                selector,
                games,
                count,
            } => {
                write!(f, "{selector} selects {count} games: ")?;
                for (k, (index, identity)) in games.iter().enumerate() {
                    let comma = if k == 0 { "" } else { "; " };
                    write!(f, "{comma}game {index}")?;
                    if let Some(identity) = identity {
                        write!(f, " ({identity})")?;
                    }
                }
                if *count > games.len() {
                    write!(f, "; and {} more", count - games.len())?;
                }
                write!(f, "; name one more tag, or the game's number")
            }
        }
    }
}

impl std::error::Error for SelectError {}

/// The most games a [`SelectError::Several`] message lists.
const SHOWN: usize = 8;

/// The one game of `games` that `selector` takes. A number stops reading at that game; tags
/// read the whole input, so that a selector taking two games is an error naming both, not
/// the first of them.
///
/// ```
/// use reversi_formats::{select_one, Format, ReadOptions, SelectError};
/// use reversi_formats::record::GameSelector;
/// let text = "[Round \"1\"]\n\nf5 *\n\n[Round \"2\"]\n\nf5 d6 *\n\n[Round \"2\"]\n\nf5 f6 *\n";
/// let read = || Format::Rgn.read(Box::new(text.as_bytes()), &ReadOptions::default());
/// let pick = |s: &str| select_one(read(), &GameSelector::parse(s).unwrap());
/// assert_eq!(pick("Round=1").unwrap().index, 1);
/// assert_eq!(pick("3").unwrap().index, 3);
/// assert!(matches!(pick("Round=2"), Err(SelectError::Several { .. })));
/// assert!(matches!(pick("4"), Err(SelectError::NotFound { games: 3, .. })));
/// ```
pub fn select_one(games: Games<'_>, selector: &GameSelector) -> Result<ParsedGame, SelectError> {
    let mut seen = 0;
    let mut found: Option<ParsedGame> = None;
    let mut several: Vec<(usize, Option<Identity>)> = Vec::new();
    let mut count = 0;
    for game in games {
        let game = game.map_err(SelectError::Read)?;
        if game.index == 0 {
            continue;
        }
        seen += 1;
        if !game.is_selected(selector) {
            continue;
        }
        if selector.index().is_some() {
            return Ok(game);
        }
        count += 1;
        if let Some(first) = &found {
            if several.is_empty() {
                several.push((first.index, first.identity()));
            }
            if several.len() < SHOWN {
                several.push((game.index, game.identity()));
            }
        } else {
            found = Some(game);
        }
    }
    match found {
        Some(_) if !several.is_empty() => Err(SelectError::Several {
            selector: selector.clone(),
            games: several,
            count,
        }),
        Some(game) => Ok(game),
        None => Err(SelectError::NotFound {
            selector: selector.clone(),
            games: seen,
        }),
    }
}
