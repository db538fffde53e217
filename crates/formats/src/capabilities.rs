//! What each format can hold, as one table, and the refusals derived from it.
//!
//! A conversion never changes what a game means. What the moves or the result mean rests on
//! the rules (board, players, every rules option, scoring), the start position (discs in
//! hand included) and the komi: a target that cannot hold one of these refuses the game,
//! even with `--lossy` ([`WriteError::ChangesMeaning`]). Every writer is wrapped by
//! [`Format::writer`] in that check, made here and nowhere else. What a target drops with
//! `--lossy` is only information around the game (tags, names, comments, claims,
//! evaluations, times, the result's form): each writer lists it, and [`LossSummary`] sums
//! it up per file. Every writer words that information through [`ClaimLosses`] (and the
//! phrases beside it in `losses.rs`), so that no format imports another and a loss reads
//! the same whichever format drops it.
//!
//! ```
//! use reversi_formats::capabilities::{meaning_losses, Capabilities};
//! use reversi_formats::Format;
//! use reversi_formats::record::Record;
//! let anti = Record::new("anti".parse().unwrap());
//! assert_eq!(meaning_losses(Format::Wthor, &anti), ["anti-reversi (fewest discs win)"]);
//! assert!(meaning_losses(Format::Ggf, &anti).is_empty());
//! assert!(Capabilities::of(Format::Rgn).anti);
//! ```

use std::collections::BTreeMap;

use super::{Format, PgnDialect, RecordWriter, WriteError};
use crate::engine::{BoardShape, Color, Opening, Rules, Scoring};
use crate::record::{Record, TagName};

mod losses;

use losses::kind;
pub(crate) use losses::{on_moves, tag_names_phrase, tag_phrase, tags_phrase, termination_phrase};
pub use losses::{Claim, ClaimLosses};

/// Which start positions other than the rules' own a format holds.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Starts {
    /// None: games start from the rules' start.
    Standard,
    /// The start squares in other colours, Black to move (transcript grids).
    Recoloured,
    /// Any position of two colours, either to move, without discs in hand.
    TwoColours,
    /// Any position, discs in hand included.
    Any,
    /// The format holds positions, not games: a game is written as its final position.
    FinalPosition,
}

/// What one format holds. Everything the rules or the start say is here; a record that
/// needs more is refused ([`meaning_losses`]).
#[derive(Clone, Copy, Debug)]
pub struct Capabilities {
    /// Boards.
    pub boards: &'static [BoardShape],
    /// Player counts.
    pub players: &'static [u8],
    /// Anti-reversi (fewest discs win).
    pub anti: bool,
    /// The free opening (the first four discs placed by the players).
    pub free_opening: bool,
    /// A limited disc supply (classic reversi).
    pub supply: bool,
    /// Blocked squares.
    pub blocked: bool,
    /// Corner handicaps.
    pub handicap: bool,
    /// Raw scoring of two-player games (empties not given to the winner).
    pub raw_scoring: bool,
    /// Start positions.
    pub starts: Starts,
    /// A komi (the `Komi` tag, GGF `KM`).
    pub komi: bool,
    /// Passes written (else inferred by replay when read back).
    pub passes: bool,
    /// Two disc counts written as they are (else as Black's margin, `RE[B+18]`: read back,
    /// a game whose result is not settled from its board claims the margin only).
    pub disc_counts: bool,
    /// Result kinds held, in words.
    pub results: &'static str,
    /// Player and event names.
    pub names: &'static str,
    /// Flip and position claims, evaluations, times, comments.
    pub claims: &'static str,
}

const ALL_BOARDS: &[BoardShape] = &BoardShape::ALL;
const SQUARE_BOARDS: &[BoardShape] = &[
    BoardShape::Four,
    BoardShape::Six,
    BoardShape::Eight,
    BoardShape::Ten,
];
const EIGHT: &[BoardShape] = &[BoardShape::Eight];

/// Everything: the record model itself.
const EVERYTHING: Capabilities = Capabilities {
    boards: ALL_BOARDS,
    players: &[2, 3, 4],
    anti: true,
    free_opening: true,
    supply: true,
    blocked: true,
    handicap: true,
    raw_scoring: true,
    starts: Starts::Any,
    komi: true,
    passes: true,
    disc_counts: true,
    results: "every result",
    names: "every tag",
    claims: "every claim and comment",
};

/// Standard two-player Othello on 8x8 only.
const OTHELLO_8X8: Capabilities = Capabilities {
    boards: EIGHT,
    players: &[2],
    anti: false,
    free_opening: false,
    supply: false,
    blocked: false,
    handicap: false,
    raw_scoring: false,
    starts: Starts::Standard,
    komi: false,
    passes: true,
    disc_counts: true,
    results: "disc counts",
    names: "the dialect's tags",
    claims: "none",
};

impl Capabilities {
    /// The capabilities of `format`.
    pub const fn of(format: Format) -> Capabilities {
        match format {
            Format::Rgn | Format::Json | Format::Pgn(PgnDialect::Rgn) => EVERYTHING,
            Format::Wthor => Capabilities {
                boards: &[BoardShape::Eight, BoardShape::Ten],
                passes: false,
                results: "Black's disc count",
                names: "event and player names (WTHOR.TRN/.JOU, cut at 25/19 bytes), the year",
                ..OTHELLO_8X8
            },
            Format::Ggf => Capabilities {
                boards: ALL_BOARDS,
                anti: true,
                starts: Starts::TwoColours,
                komi: true,
                disc_counts: false,
                results: "margins, resignations, time losses, agreements",
                names: "GGF properties",
                claims: "evaluations, times, the game comment",
                ..OTHELLO_8X8
            },
            Format::Pgn(PgnDialect::Thor) => Capabilities {
                passes: false,
                ..OTHELLO_8X8
            },
            Format::Pgn(PgnDialect::PlayOk) => OTHELLO_8X8,
            Format::Pgn(PgnDialect::Edax) => Capabilities {
                starts: Starts::TwoColours,
                komi: true,
                results: "disc counts, winners",
                names: "every tag",
                ..OTHELLO_8X8
            },
            Format::Sgf => Capabilities {
                boards: SQUARE_BOARDS,
                starts: Starts::TwoColours,
                disc_counts: false,
                results: "margins, winners, resignations, time losses",
                names: "SGF properties",
                claims: "comments",
                ..OTHELLO_8X8
            },
            Format::MoveString => Capabilities {
                starts: Starts::TwoColours,
                komi: false,
                results: "none",
                names: "none",
                claims: "none",
                ..EVERYTHING
            },
            Format::Transcript => Capabilities {
                starts: Starts::Recoloured,
                passes: false,
                results: "what one `Result:` line spells: disc counts, margins, winners, `B+R`",
                names: "header lines",
                claims: "none",
                ..EVERYTHING
            },
            Format::Obf => Capabilities {
                starts: Starts::FinalPosition,
                komi: false,
                results: "the final score, as the position's evaluation",
                names: "none",
                claims: "none",
                ..OTHELLO_8X8
            },
        }
    }
}

/// What of `record` the `format` cannot hold without changing what the game means: the
/// reasons it is refused, even when writing lossily. Empty when it can be written.
pub fn meaning_losses(format: Format, record: &Record) -> Vec<String> {
    let can = Capabilities::of(format);
    let rules: Rules = record.rules;
    let mut why = rules_meaning_losses(format, &rules);
    if let Some(start) = &record.start {
        let (discs, neutral) = rules.start_discs();
        let setup = start.setup;
        let default =
            setup.discs == discs && setup.neutral == neutral && setup.turn == Color::Black;
        let two_colours = setup.discs[2].is_empty()
            && setup.discs[3].is_empty()
            && setup.neutral.is_empty()
            && matches!(setup.turn, Color::Black | Color::White);
        let occupied = |d: &[crate::engine::SquareSet; 4], n: crate::engine::SquareSet| {
            d.iter().fold(n, |acc, s| acc.union(*s))
        };
        let recoloured = occupied(&setup.discs, setup.neutral) == occupied(&discs, neutral)
            && setup.neutral == neutral
            && setup.turn == Color::Black;
        let in_hand = start.in_hand.is_some() && rules.supply().is_some();
        let held = match can.starts {
            Starts::Any | Starts::FinalPosition => true,
            Starts::TwoColours => two_colours && !in_hand,
            Starts::Recoloured => recoloured && !in_hand,
            Starts::Standard => default && !in_hand,
        };
        if !held {
            why.push(if in_hand {
                "a start position with discs in hand".into()
            } else {
                "a start position other than the rules' own".into()
            });
        }
    }
    if !can.komi {
        if let Some(komi) = record.tag(TagName::KOMI) {
            if !matches!(komi.trim().parse::<f64>(), Ok(k) if k == 0.0) {
                why.push(format!("a komi of {} (it changes the result)", komi.trim()));
            }
        }
    }
    why.extend(beyond_readers(record));
    why
}

/// What of `record` no reader takes back (it refuses it as damage: `spec/validate.md`), so
/// that no format can hold it: more moves or tags than a game read may have.
pub(crate) fn beyond_readers(record: &Record) -> Vec<String> {
    use crate::text::{MAX_MOVES, MAX_TAGS};
    let mut why = Vec::new();
    if record.moves.len() > MAX_MOVES {
        why.push(format!(
            "{} moves (a game read back holds {MAX_MOVES} at most)",
            record.moves.len()
        ));
    }
    if record.tags.len() > MAX_TAGS {
        why.push(format!(
            "{} tags (a game read back holds {MAX_TAGS} at most)",
            record.tags.len()
        ));
    }
    why
}

/// What of `rules` the `format` cannot hold without changing what a game means (the first
/// reasons [`meaning_losses`] gives): all of them, for a game with nothing more than its
/// rules, tags other than a komi, and moves from the usual start.
pub(crate) fn rules_meaning_losses(format: Format, rules: &Rules) -> Vec<String> {
    let can = Capabilities::of(format);
    let mut why = Vec::new();
    if !can.players.contains(&rules.players()) {
        why.push(format!(
            "{} players (it holds {})",
            rules.players(),
            or_list(can.players.iter().map(u8::to_string))
        ));
    }
    if !can.boards.contains(&rules.board()) {
        why.push(format!(
            "{} board (it holds {})",
            with_article(rules.board()),
            or_list(can.boards.iter().map(|b| b.name().to_string()))
        ));
    }
    if rules.is_anti() && !can.anti {
        why.push("anti-reversi (fewest discs win)".into());
    }
    if rules.supply().is_some() && !can.supply {
        why.push("a limited disc supply (classic reversi)".into());
    } else if rules.opening() == Opening::Free && !can.free_opening {
        why.push("a free opening".into());
    }
    if !rules.blocked().is_empty() && !can.blocked {
        why.push("blocked squares".into());
    }
    if rules.handicap().is_some() && !can.handicap {
        why.push("a corner handicap".into());
    }
    if rules.players() == 2 && rules.scoring() == Scoring::Raw && !can.raw_scoring {
        why.push("raw scoring (empties not given to the winner)".into());
    }
    why
}

/// `8x8`, `8x8 and 10x10`, `4x4, 6x6 and 8x8`.
fn or_list(items: impl Iterator<Item = String>) -> String {
    let items: Vec<String> = items.collect();
    match items.split_last() {
        Some((last, rest)) if !rest.is_empty() => format!("{} and {last}", rest.join(", ")),
        Some((last, _)) => last.clone(),
        None => String::new(),
    }
}

/// `a 6x6 board`, `an 8x8 board`, `an octagon board`.
pub fn with_article(board: BoardShape) -> String {
    let article = if board.name().starts_with('8') || board.name().starts_with('o') {
        "an"
    } else {
        "a"
    };
    format!("{article} {board}")
}

/// `inner`, refusing first what `format` cannot hold without changing its meaning: every
/// writer of a format that cannot hold everything is made by this.
pub(super) fn checked<'a>(
    format: Format,
    inner: Box<dyn RecordWriter + 'a>,
) -> Box<dyn RecordWriter + 'a> {
    Box::new(Checked { format, inner })
}

/// A writer that refuses, before its format sees it, any record the format cannot hold
/// without changing what it means.
pub(super) struct Checked<'a> {
    pub(super) format: Format,
    pub(super) inner: Box<dyn RecordWriter + 'a>,
}

impl RecordWriter for Checked<'_> {
    fn write(&mut self, record: &Record) -> Result<Vec<String>, WriteError> {
        let why = meaning_losses(self.format, record);
        if !why.is_empty() {
            return Err(WriteError::ChangesMeaning(why));
        }
        self.inner.write(record)
    }

    fn finish(&mut self) -> std::io::Result<()> {
        self.inner.finish()
    }

    fn renderer(&self) -> Option<super::Renderer> {
        self.inner.renderer().map(|r| r.checked(self.format))
    }

    fn write_rendered(&mut self, rendered: &super::Rendered) -> Result<Vec<String>, WriteError> {
        self.inner.write_rendered(rendered)
    }
}

/// What was dropped from the games of one file, each loss listed once with the games it
/// concerns. Losses that differ only in their numbers (`evaluations on moves 3, 5` and
/// `an evaluation on move 7`) are one line: the first, and how many games had the like.
/// Memory stays small whatever the number of games: a handful of game numbers is kept per
/// line.
///
/// ```
/// use reversi_formats::capabilities::LossSummary;
/// let mut summary = LossSummary::default();
/// summary.add(1, &["the tag `Site`".to_string(), "a time on move 3".to_string()]);
/// summary.add(2, &["the tag `Site`".to_string(), "the game comment".to_string()]);
/// summary.add(3, &["times on moves 12, 14".to_string()]);
/// assert_eq!(
///     summary.lines(),
///     [
///         "the tag `Site` (2 games: 1, 2)",
///         "a time on move 3 (game 1), and the like in game 3",
///         "the game comment (game 2)"
///     ]
/// );
/// ```
#[derive(Clone, Debug, Default)]
pub struct LossSummary {
    /// Each kind of loss, in first-seen order.
    groups: Vec<LossGroup>,
    /// The group of each kind (the loss with its numbers masked).
    index: BTreeMap<String, usize>,
    /// The group of each wording seen, up to [`WORDINGS`] of them: most games of a run
    /// lose the same things in the same words, which then need no masking.
    wordings: BTreeMap<String, usize>,
}

/// Most wordings a [`LossSummary`] remembers.
const WORDINGS: usize = 1024;

/// One line of a [`LossSummary`].
#[derive(Clone, Debug)]
struct LossGroup {
    /// The loss as first seen.
    first: String,
    /// The game it was first seen in.
    first_game: usize,
    /// Games with the same kind of loss, the first few.
    games: Vec<usize>,
    /// How many games.
    count: usize,
    /// The last game counted.
    last_game: usize,
    /// Whether some game's loss was worded differently (other numbers).
    varied: bool,
}

/// Games named per line.
const SHOWN: usize = 5;

impl LossSummary {
    /// Records that game `game` lost `losses`.
    pub fn add(&mut self, game: usize, losses: &[String]) {
        for loss in losses {
            let i = match self.wordings.get(loss) {
                Some(&i) => i,
                None => self.group_of(game, loss),
            };
            let group = &mut self.groups[i];
            group.varied |= *loss != group.first;
            if group.count == 0 || group.last_game != game {
                group.count += 1;
                group.last_game = game;
                if group.games.len() < SHOWN {
                    group.games.push(game);
                }
            }
        }
    }

    /// The group of `loss`, first lost in `game` if it is new, remembered by its wording.
    fn group_of(&mut self, game: usize, loss: &str) -> usize {
        let groups = &mut self.groups;
        let i = *self.index.entry(kind(loss)).or_insert_with(|| {
            groups.push(LossGroup {
                first: loss.to_owned(),
                first_game: game,
                games: Vec::new(),
                count: 0,
                last_game: game,
                varied: false,
            });
            groups.len() - 1
        });
        if self.wordings.len() < WORDINGS {
            self.wordings.insert(loss.to_owned(), i);
        }
        i
    }

    /// Whether nothing was dropped.
    pub fn is_empty(&self) -> bool {
        self.groups.is_empty()
    }

    /// One line per kind of loss: what, and in which games (the first few named).
    pub fn lines(&self) -> Vec<String> {
        self.groups
            .iter()
            .map(|g| {
                let list = |games: &[usize], total: usize| {
                    let shown: Vec<String> = games.iter().map(usize::to_string).collect();
                    let more = if total > games.len() { ", ..." } else { "" };
                    format!("{}{more}", shown.join(", "))
                };
                if !g.varied {
                    return match g.count {
                        1 => format!("{} (game {})", g.first, g.first_game),
                        n => format!("{} ({n} games: {})", g.first, list(&g.games, n)),
                    };
                }
                let others: Vec<usize> = g
                    .games
                    .iter()
                    .copied()
                    .filter(|&x| x != g.first_game)
                    .collect();
                match g.count - 1 {
                    1 => format!(
                        "{} (game {}), and the like in game {}",
                        g.first,
                        g.first_game,
                        others.first().copied().unwrap_or(0)
                    ),
                    n => format!(
                        "{} (game {}), and the like in {n} more games ({})",
                        g.first,
                        g.first_game,
                        list(&others, n)
                    ),
                }
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_game_no_reader_would_read_back_is_refused_in_every_format() {
        use crate::record::{MoveRecord, Tag};
        use crate::text::{MAX_MOVES, MAX_TAGS};
        use crate::WriteOptions;
        let mut many_tags = Record::new(Rules::default());
        for k in 0..=MAX_TAGS {
            many_tags.tags.push(Tag::new(format!("Note{k}"), "x"));
        }
        let mut many_moves = Record::new(Rules::default());
        many_moves
            .moves
            .extend((0..=MAX_MOVES).map(|_| MoveRecord::new(crate::engine::Move::Pass)));
        for format in Format::WRITABLE {
            assert!(
                meaning_losses(format, &many_tags)
                    .iter()
                    .any(|w| w.contains("tags")),
                "{format}"
            );
            assert!(
                meaning_losses(format, &many_moves)
                    .iter()
                    .any(|w| w.contains("moves")),
                "{format}"
            );
            // A written game with that many tags: refused, even lossily, never written.
            let lossy = WriteOptions {
                lossy: true,
                ..WriteOptions::default()
            };
            let written = format.write_each([(1, &many_tags)], &lossy).unwrap();
            assert_eq!(written.written, 0, "{format}");
        }
        // At the limit, a game still reads back.
        many_tags.tags.pop();
        assert!(!meaning_losses(Format::Rgn, &many_tags)
            .iter()
            .any(|w| w.contains("tags")));
    }

    #[test]
    fn losses_differing_in_numbers_are_one_kind() {
        assert_eq!(
            kind("an evaluation on move 1"),
            kind("evaluations on moves 3, 5")
        );
        assert_eq!(
            kind("evaluations on moves 3, 5"),
            kind("11 evaluations (on moves 8 to 28)")
        );
        assert_ne!(kind("the tag `Site`"), kind("the tag `Round`"));
        let mut summary = LossSummary::default();
        for game in 1..=1000 {
            summary.add(
                game,
                &[format!("a time on move {game}"), "the tag `Site`".into()],
            );
        }
        assert_eq!(
            summary.lines(),
            [
                "a time on move 1 (game 1), and the like in 999 more games (2, 3, 4, 5, ...)",
                "the tag `Site` (1000 games: 1, 2, 3, 4, 5, ...)"
            ]
        );
        assert!(summary.groups.iter().all(|g| g.games.len() <= SHOWN));
    }

    #[test]
    fn every_format_refuses_what_it_cannot_hold_and_rgn_nothing() {
        let rules = [
            "othello:4x4",
            "anti:10x10",
            "classic",
            "multi4:octagon",
            "othello,blocked=c3,scoring=raw",
        ];
        for r in rules {
            let record = Record::new(r.parse().unwrap());
            for f in [Format::Rgn, Format::Json] {
                assert!(meaning_losses(f, &record).is_empty(), "{f} {r}");
            }
            assert!(!meaning_losses(Format::Wthor, &record).is_empty(), "{r}");
        }
        let mut komi = Record::new(Rules::default());
        komi.set_tag(TagName::KOMI, "0.5");
        assert_eq!(
            meaning_losses(Format::Sgf, &komi),
            ["a komi of 0.5 (it changes the result)"]
        );
        komi.set_tag(TagName::KOMI, "0");
        assert!(meaning_losses(Format::Sgf, &komi).is_empty());
    }
}
