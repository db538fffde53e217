//! The alternatives a repair run takes by hand (`--pick GAME:N`).

use super::*;

/// The picks of a run, by game, and which games the input held.
#[derive(Default)]
pub(super) struct Picks {
    /// Alternative to take, by game number.
    pub(super) by_game: BTreeMap<usize, Pick>,
    /// Whether a pick was given as `N` alone (game 1, the only one).
    pub(super) bare: bool,
    /// The most games seen.
    pub(super) games: usize,
}

impl Picks {
    /// The picks given, checked: one input file, each game once.
    pub(super) fn new(inputs: &[PathBuf], given: &[Pick]) -> io::Result<Picks> {
        let usage = |m: String| io::Error::new(io::ErrorKind::InvalidInput, m);
        let mut picks = Picks::default();
        if given.is_empty() {
            return Ok(picks);
        }
        if inputs.len() != 1 {
            return Err(usage(format!(
                "--pick names a game by its number in the input, so it needs one input file, but {} were given",
                inputs.len()
            )));
        }
        for &p in given {
            picks.bare |= p.game.is_none();
            let game = p.game.unwrap_or(1);
            if let Some(before) = picks.by_game.insert(game, p) {
                return Err(usage(format!("{before} and {p} both pick for game {game}")));
            }
        }
        Ok(picks)
    }

    /// Applies the pick for `game`, if any: the chosen alternative, or an error message.
    pub(super) fn apply(&mut self, game: usize, repair: Repair) -> (Repair, Option<String>) {
        self.games = self.games.max(game);
        if self.bare && game == 2 {
            let p = self.by_game.get(&1).copied();
            let text = p.map_or_else(String::new, |p| p.to_string());
            return (
                repair,
                Some(format!(
                    "{text}: the input holds more than one game; write `--pick GAME:N`"
                )),
            );
        }
        let Some(&p) = self.by_game.get(&game) else {
            return (repair, None);
        };
        match repair.clone().pick(p.n) {
            Ok(picked) => (picked, None),
            Err(e) => (repair, Some(format!("{p}: game {game}: {e}"))),
        }
    }

    /// The picks for games the input did not hold.
    pub(super) fn unused(&self) -> Vec<String> {
        self.by_game
            .iter()
            .filter(|(&g, _)| g > self.games)
            .map(|(_, p)| {
                format!(
                    "{p}: the input holds {} {}",
                    self.games,
                    if self.games == 1 { "game" } else { "games" }
                )
            })
            .collect()
    }
}
