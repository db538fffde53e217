//! Plain games readied without their records, from a quick scan and a worker's buffers.

use std::ops::Range;
use std::sync::Arc;

use super::work::{Prepared, Step, Work};
use super::{Fingerprint, OutputTemplate};
use crate::diagnostic::Source;
use crate::engine::quick::{move_of, standard_end, QuickClaim, QuickMoves};
use crate::engine::{Move, Rules};
use crate::formats::rgn::quick::Annotations;
use crate::formats::rgn::GameSpan;
use crate::formats::wthor::{FileContext, QuickRecord};
use crate::formats::{rgn, text, ParsedGame, PlainGame, Renderer};
use crate::pipeline::blocks::{Pending, TextBlock};

/// A worker's buffers for the games it renders without their records, reused from game to
/// game.
#[derive(Default)]
pub(super) struct Scratch {
    quick: QuickMoves,
    /// The tags' names and values, when they are not in a game's text.
    text: String,
    /// A WTHOR game's text-view line, laid out.
    line: String,
    tags: Vec<(Range<usize>, Range<usize>)>,
    moves: Vec<Move>,
    passes: Vec<usize>,
}

impl Scratch {
    /// The fingerprint of a two-player game still to be read that the quick check passes:
    /// its result, once settled, is the final board's discs. `None`: read it.
    pub(super) fn fingerprint(&mut self, pending: &Pending) -> Option<Fingerprint> {
        let scanned = pending.scan(&mut self.quick, |_, _| {})?;
        self.fingerprint_scanned(scanned)
    }

    /// [`Scratch::fingerprint`] for the RGN/PGN game at `at` in `block`: its comments,
    /// flip claims and colour prefixes, which a fingerprint does not keep, only checked.
    pub(super) fn fingerprint_text(
        &mut self,
        block: &TextBlock,
        at: &GameSpan,
    ) -> Option<Fingerprint> {
        let bytes = block.bytes.get(at.range.clone())?;
        if at.too_long.is_some() {
            return None;
        }
        let scanned = rgn::quick::scan_plain(bytes, block.rules, &mut self.quick, |_, _| {})?;
        self.fingerprint_scanned(scanned)
    }

    /// The fingerprint of the game a quick scan gave (its moves in `self.quick`), when it
    /// is a two-player game the quick check passes.
    fn fingerprint_scanned(&mut self, (rules, claim): (Rules, QuickClaim)) -> Option<Fingerprint> {
        if rules.players() != 2 {
            return None;
        }
        let discs = self.quick.clean_claimed(&rules, claim)?;
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        Some(Fingerprint::of_plain(rules, &self.moves, discs))
    }

    /// The quick WTHOR record `q`, when the quick check passes it, readied without its
    /// record: rendered by [`Renderer::render_game`] (its tags and moves as
    /// [`FileContext::view_quick`] gives them, its passes placed by the quick board). The
    /// game is reported as the reader gives it (its text-view line), with no record;
    /// `None`: read it.
    pub(super) fn render_wthor(
        &mut self,
        work: Work<'_>,
        context: &FileContext,
        q: &QuickRecord,
    ) -> Option<Prepared> {
        if !q.is_clean() {
            return None;
        }
        let Scratch {
            text, tags, moves, ..
        } = self;
        text.clear();
        tags.clear();
        moves.clear();
        let (rules, discs) = context.view_quick(
            q,
            crate::formats::wthor::Tags::All,
            |name, value| {
                let name_at = text.len()..text.len() + name.len();
                text.push_str(name);
                let value_at = text.len()..text.len() + value.len();
                text.push_str(value);
                tags.push((name_at, value_at));
            },
            |sq| moves.push(Move::Place(sq)),
        );
        if self.place_passes(rules)? != Some(discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text: &self.text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        let line = &mut self.line;
        ready_plain(&game, discs, work, false, || {
            context.read_quick_unbuilt(q, line)
        })
    }

    /// A game still to be read (a move string, a JSON object, a transcript grid) readied
    /// without its record, as [`Scratch::render_plain`] readies an RGN game: when its scan
    /// takes it with nothing its record would keep beyond its tags, moves and result
    /// ([`Pending::scan_kept`]), in standard Othello, over, with the board's result if it
    /// claims one. The game is reported as its reader gives it; `None`: read it.
    pub(super) fn render_pending(&mut self, work: Work<'_>, pending: &Pending) -> Option<Prepared> {
        let Scratch {
            quick, text, tags, ..
        } = self;
        text.clear();
        tags.clear();
        let (rules, claim) = pending.scan_kept(quick, |name, value| {
            let name_at = text.len()..text.len() + name.len();
            text.push_str(name);
            let value_at = text.len()..text.len() + value.len();
            text.push_str(value);
            tags.push((name_at, value_at));
        })?;
        let claim = match claim {
            QuickClaim::Nothing => None,
            QuickClaim::Discs(black, white) => Some([black, white]),
            QuickClaim::Margin(..) => return None,
        };
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        let discs = self.place_passes(rules)??;
        if claim.is_some_and(|c| c != discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text: &self.text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        ready_plain(&game, discs, work, claim.is_none(), || pending.unread())
    }

    /// Inserts the passes the moves leave out, as the quick board places them, and says
    /// how the game ends: `Some(score)` when it is over; `None` when the quick board
    /// cannot tell.
    fn place_passes(&mut self, rules: Rules) -> Option<Option<[u8; 2]>> {
        self.passes.clear();
        let end = standard_end(&rules, &self.moves, &mut self.passes)?;
        for &before in self.passes.iter().rev() {
            self.moves.insert(before, Move::Pass);
        }
        Some(end)
    }

    /// Game `k` of `block` readied without its record, when the game is plain and has
    /// nothing to report: the quick scan takes it, without a comment (a record would keep
    /// it), in standard Othello, where the quick board says where its left-out passes go;
    /// it is over, and its result, when it claims one, is the board's (when it claims none,
    /// the board's is written, [`settle_result`]). Rendered by [`Renderer::render_game`].
    /// The game is reported as read, with the text the reader would have given it;
    /// `None`: read it.
    ///
    /// [`settle_result`]: crate::validate::settle_result
    pub(super) fn render_plain(
        &mut self,
        work: Work<'_>,
        block: &TextBlock,
        k: usize,
        at: &GameSpan,
    ) -> Option<Prepared> {
        let bytes = block.bytes.get(at.range.clone())?;
        if at.too_long.is_some() {
            return None;
        }
        let text = rgn::quick::plain_text(bytes)?;
        self.tags.clear();
        let tags = &mut self.tags;
        let (rules, claim) = rgn::quick::scan_with_tags(
            bytes,
            block.rules,
            &mut self.quick,
            Annotations::GiveUp,
            |name, value| tags.push((name, value)),
        )?;
        self.moves.clear();
        for &code in self.quick.as_slice() {
            self.moves.push(move_of(code)?);
        }
        let discs = self.place_passes(rules)??;
        let claim = claim.map(|(black, white)| [black, white]);
        if claim.is_some_and(|c| c != discs) {
            return None;
        }
        let game = PlainGame {
            rules,
            text,
            tags: &self.tags,
            moves: &self.moves,
            discs: Some(discs),
        };
        // The game as the reader gives it, its record taken out once rendered.
        let read = || {
            let (source_text, problems) = text::decode(bytes.to_vec(), at.offset, at.line);
            problems.is_empty().then(|| ParsedGame {
                index: block.first + k,
                source: Source {
                    name: block.name.clone(),
                    text: Arc::from(source_text),
                    offset: at.offset,
                    line: at.line,
                },
                record: None,
                diagnostics: Vec::new(),
            })
        };
        ready_plain(&game, discs, work, claim.is_none(), read)
    }
}

/// A plain game readied for the writer: rendered (or, without a renderer, to be written
/// from its record), its file named, reported as `read` gives it (`None`: read it in
/// full); `discs` is its final board's.
fn ready_plain(
    game: &PlainGame<'_>,
    discs: [u8; 2],
    work: Work<'_>,
    derived_result: bool,
    read: impl FnOnce() -> Option<ParsedGame>,
) -> Option<Prepared> {
    let (step, file) = plain_step(game, work.renderer, work.split)?;
    Some(Prepared {
        game: read()?,
        step,
        derived_result,
        fingerprint: Fingerprint::of_plain(game.rules, game.moves, discs),
        file,
    })
}

/// What the writer does with a plain game (its text rendered, or its record written),
/// and its file in a split conversion; `None` when the game needs its record read.
fn plain_step(
    game: &PlainGame<'_>,
    renderer: Option<&Renderer>,
    split: Option<&OutputTemplate>,
) -> Option<(Step, Option<String>)> {
    let step = match renderer {
        None => Step::Record,
        Some(renderer) => Step::Rendered(renderer.render_game(game)?),
    };
    Some((step, split.map(|t| t.file_name(|name| game.tag(name)))))
}
