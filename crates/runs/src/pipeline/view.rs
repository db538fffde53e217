//! Games one at a time, borrowed: a reader that hands out a view of each game (its rules,
//! tags, moves and result, as slices of buffers it reuses) instead of building a
//! [`Record`], in the spirit of pgn-reader's visitor. A plain game (most games of most
//! files) costs no allocation at all once the buffers have grown; the owned record is
//! built only where a caller asks for it ([`GameView::to_parsed_game`]) or where the game
//! needs the full reader.
//!
//! ```
//! use reversi_formats::{Format, ReadOptions};
//! use reversi_runs::pipeline::view::{GameReader, Input};
//! let text = "[Black \"Tamaru\"]\n[Result \"33-31\"]\n1. f5 d6 2. c3\n\n[Black \"Murakami\"]\n1. f5 f6 *\n";
//! let input = Input {
//!     format: Format::Rgn,
//!     reader: Box::new(text.as_bytes()),
//!     options: ReadOptions::default(),
//! };
//! let mut reader = GameReader::new(input);
//! let mut openings = Vec::new();
//! while let Some(game) = reader.next_game() {
//!     let game = game?;
//!     let first: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
//!     openings.push((game.tag("Black").map(str::to_owned), first.join(" ")));
//! }
//! assert_eq!(
//!     openings,
//!     [
//!         (Some("Tamaru".to_owned()), "f5 d6 c3".to_owned()),
//!         (Some("Murakami".to_owned()), "f5 f6".to_owned())
//!     ]
//! );
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! What a view holds is exactly what the format's reader would put in the record's fields
//! of the same names (`tests/view.rs` checks it on every fixture and real file): the
//! [`Rules`], the start position, the [`Tag`]s (`Rules`, `Result` and the other reserved
//! tags have their own fields, as in a [`Record`]), the moves with their passes as written,
//! and the [`ClaimedResult`]. Comments, evaluations, per-move claims, board snapshots and
//! spans are in the record: [`GameView::parsed`] when the game was read in full, otherwise
//! [`GameView::to_parsed_game`], which reads it exactly as the format's reader does.
//!
//! Which games are plain: WTHOR 8x8 records with well-formed fields and move bytes, and
//! the games of the text formats that their quick scans take (RGN/PGN: simple tags,
//! squares, passes, move numbers, comments without escapes or commands, flip claims, a
//! disc-count result; move strings, GGF, SGF, JSON and transcript grids: what
//! `docs/performance.md` lists for each). Every other game (and every OBF position) is
//! read in full and viewed through its record. RGN/PGN and WTHOR games are viewed where
//! they lie in the reader's buffers; a game of the other formats costs the one allocation
//! its text is split off into.

use std::io;
use std::sync::Arc;

use crate::diagnostic::Diagnostic;
use crate::engine::quick::{move_of, QuickClaim, QuickMoves};
use crate::engine::{Move, Rules};
use crate::formats::rgn::{self, GameSpan};
use crate::formats::wthor::{self, Entry, FileContext, QuickRecord};
use crate::formats::{capped, Format, ParsedGame};
pub use crate::pipeline::blocks::Input;
use crate::pipeline::blocks::{pending_games, Pending, TextReading};
use crate::record::{ClaimedResult, Record, ResultScore, StartPosition, Tag, Termination};

/// Reads one input's games as [`GameView`]s, reusing its buffers from game to game.
pub struct GameReader {
    source: GameSource,
    buffers: Buffers,
}

impl std::fmt::Debug for GameReader {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameReader").finish_non_exhaustive()
    }
}

/// Where the games come from.
enum GameSource {
    /// RGN/PGN text, split into games and scanned.
    Text(Box<TextSource>),
    /// WTHOR records, most of them quick.
    Wthor(Box<wthor::Reader<'static>>),
    /// The other formats' games, split off as the pipeline splits them and scanned.
    Pending(Box<PendingSource>),
    /// The input ended, or failed.
    Ended,
}

struct TextSource {
    text: TextReading,
    quick: QuickMoves,
}

struct PendingSource {
    games: Box<dyn Iterator<Item = io::Result<(Pending, usize)>> + Send>,
    quick: QuickMoves,
}

/// What a view borrows, kept from game to game so that their allocations are reused.
#[derive(Default)]
struct Buffers {
    index: usize,
    rules: Rules,
    /// Tag slots: the first `tag_count` are the game's.
    tags: Vec<Tag>,
    tag_count: usize,
    moves: Vec<Move>,
    /// The result slot, and whether the game claims one.
    result: Option<ClaimedResult>,
    has_result: bool,
    /// The game just read: in full, or plain.
    game: Option<Held>,
    /// The text source's games, one at a time.
    text: Vec<u8>,
}

/// The game just read.
// One is held at a time, by the reader: a plain game's size costs nothing, a box would
// cost an allocation a game.
#[allow(clippy::large_enum_variant)]
enum Held {
    /// Read in full by the format's reader.
    Parsed(Box<ParsedGame>),
    /// Viewed without its record, from this.
    Plain(Plain),
}

/// Where a game viewed without its record came from.
enum Plain {
    /// A quick WTHOR record.
    Wthor(Arc<FileContext>, QuickRecord),
    /// An RGN/PGN game, `Buffers::text[span.range]`; `rules` are for a game without a
    /// `Rules` tag.
    Text {
        name: Arc<str>,
        rules: Rules,
        span: GameSpan,
    },
    /// A game of another format that its quick scan took.
    Pending(Pending),
}

impl Buffers {
    fn clear(&mut self) {
        self.tag_count = 0;
        self.moves.clear();
        self.has_result = false;
        self.game = None;
    }

    /// Sets the next tag slot to `name` and `value`, reusing its strings.
    fn push_tag(&mut self, name: &str, value: &str) {
        match self.tags.get_mut(self.tag_count) {
            Some(tag) => {
                tag.name.clear();
                tag.name.push_str(name);
                tag.value.clear();
                tag.value.push_str(value);
            }
            None => self.tags.push(Tag::new(name, value)),
        }
        self.tag_count += 1;
    }

    /// Pushes the moves of quick codes; `false` for a code that names no move.
    fn push_moves(&mut self, codes: &[u8]) -> bool {
        for &code in codes {
            let Some(mv) = move_of(code) else {
                return false;
            };
            self.moves.push(mv);
        }
        true
    }

    /// Sets the result to a margin (GGF, SGF).
    fn set_margin(&mut self, margin: f64) {
        self.result = Some(ClaimedResult {
            score: ResultScore::Margin(margin),
            termination: Termination::Normal,
            span: None,
        });
        self.has_result = true;
    }

    /// Sets the result to a disc count, reusing the slot's list.
    fn set_discs(&mut self, discs: [u8; 2]) {
        match &mut self.result {
            Some(ClaimedResult {
                score: ResultScore::Discs(counts),
                termination,
                span,
            }) => {
                counts.clear();
                counts.extend_from_slice(&discs);
                *termination = Termination::Normal;
                *span = None;
            }
            _ => self.result = Some(ClaimedResult::discs(discs.to_vec())),
        }
        self.has_result = true;
    }

    /// The view of the game just read, if one was.
    fn view(&mut self) -> Option<GameView<'_>> {
        let plain = match self.game.as_ref()? {
            Held::Plain(plain) => plain,
            Held::Parsed(game) => {
                let record = game.record.as_ref();
                self.moves
                    .extend(record.iter().flat_map(|r| r.moves.iter().map(|m| m.mv)));
                return Some(GameView {
                    index: game.index,
                    rules: record.map_or_else(Rules::default, |r| r.rules),
                    start: record.and_then(|r| r.start.as_ref()),
                    tags: record.map_or(&[], |r| &r.tags[..]),
                    moves: &self.moves,
                    result: record.and_then(|r| r.result.as_ref()),
                    origin: Origin::Parsed(game),
                });
            }
        };
        let origin = match plain {
            Plain::Wthor(context, q) => Origin::Wthor(context, q),
            Plain::Pending(pending) => Origin::Pending(pending),
            Plain::Text { name, rules, span } => Origin::Text {
                name,
                rules: *rules,
                bytes: self.text.get(span.range.clone()).unwrap_or_default(),
                span,
            },
        };
        Some(GameView {
            index: self.index,
            rules: self.rules,
            start: None,
            tags: &self.tags[..self.tag_count],
            moves: &self.moves,
            result: self.result.as_ref().filter(|_| self.has_result),
            origin,
        })
    }
}

impl GameReader {
    /// A reader of `input`'s games.
    pub fn new(input: Input) -> GameReader {
        let source = match input.format {
            Format::Wthor => {
                GameSource::Wthor(Box::new(wthor::Reader::quick(input.reader, &input.options)))
            }
            Format::Rgn | Format::Pgn(_) => GameSource::Text(Box::new(TextSource {
                text: TextReading::open(input),
                quick: QuickMoves::default(),
            })),
            _ => GameSource::Pending(Box::new(PendingSource {
                games: pending_games(input),
                quick: QuickMoves::default(),
            })),
        };
        GameReader {
            source,
            buffers: Buffers::default(),
        }
    }

    /// The next game, or the error that ended the input (after which there are none).
    /// Like the format's reader, an entry with index 0 reports a problem of the file
    /// itself, and is not a game.
    #[allow(clippy::should_implement_trait)] // a view borrows the reader: not an `Iterator`
    pub fn next_game(&mut self) -> Option<io::Result<GameView<'_>>> {
        let b = &mut self.buffers;
        b.clear();
        let read = match &mut self.source {
            GameSource::Text(text) => text.next(b),
            GameSource::Wthor(reader) => reader.next_entry().map(|entry| {
                match entry? {
                    Entry::Quick(q) => {
                        let context = reader.context().clone();
                        view_wthor(&context, &q, b);
                        b.game = Some(Held::Plain(Plain::Wthor(context, q)));
                    }
                    Entry::Game(game) => b.game = Some(Held::Parsed(Box::new(capped(*game)))),
                }
                Ok(())
            }),
            GameSource::Pending(pending) => pending.next(b),
            GameSource::Ended => None,
        };
        match read {
            Some(Ok(())) => self.buffers.view().map(Ok),
            Some(Err(e)) => {
                self.source = GameSource::Ended;
                Some(Err(e))
            }
            None => {
                self.source = GameSource::Ended;
                None
            }
        }
    }
}

impl GameReader {
    /// The next game as the format's reader gives it ([`GameView::to_parsed_game`]), for
    /// a caller that keeps every game: a game read in full is moved out, not copied.
    pub fn next_parsed(&mut self) -> Option<io::Result<ParsedGame>> {
        let view = match self.next_game()? {
            Ok(view) => view,
            Err(e) => return Some(Err(e)),
        };
        if view.parsed().is_none() {
            return Some(Ok(view.to_parsed_game()));
        }
        match self.buffers.game.take() {
            Some(Held::Parsed(game)) => Some(Ok(*game)),
            // Unreachable: a view with a parsed game holds it in the buffers.
            _ => None,
        }
    }
}

impl TextSource {
    /// Splits off the next game and views it: scanned when it is plain, read in full
    /// otherwise.
    fn next(&mut self, b: &mut Buffers) -> Option<io::Result<()>> {
        b.text.clear();
        let span = match self.text.next_game(&mut b.text) {
            Ok(Some(span)) => span,
            Ok(None) => return None,
            Err(e) => return Some(Err(e)),
        };
        let index = self.text.next_index;
        self.text.next_index += 1;
        // Out of the buffers while the scan fills them.
        let text = std::mem::take(&mut b.text);
        let bytes = text.get(span.range.clone()).unwrap_or_default();
        if self.scan(bytes, b) {
            b.index = index;
            b.game = Some(Held::Plain(Plain::Text {
                name: self.text.name.clone(),
                rules: self.text.rules,
                span,
            }));
        } else {
            b.clear();
            let game = rgn::read_game(&self.text.name, index, self.text.rules, bytes, &span);
            b.game = Some(Held::Parsed(Box::new(capped(game))));
        }
        b.text = text;
        Some(Ok(()))
    }

    /// Views a plain game's `bytes` into `b`; `false` when the game is not plain (the
    /// reader would have something to say about its text, or the scan gives up).
    fn scan(&mut self, bytes: &[u8], b: &mut Buffers) -> bool {
        let Some(text) = rgn::quick::plain_text(bytes) else {
            return false;
        };
        let mut whole = true;
        let annotations = rgn::quick::Annotations::Dropped;
        let scanned = rgn::quick::scan_with_tags(
            bytes,
            self.text.rules,
            &mut self.quick,
            annotations,
            |n, v| {
                // Names and values lie between ASCII bytes: character boundaries.
                match (text.get(n), text.get(v)) {
                    (Some(name), Some(value)) => b.push_tag(name, value),
                    _ => whole = false,
                }
            },
        );
        let Some((rules, claim)) = scanned.filter(|_| whole) else {
            return false;
        };
        b.rules = rules;
        if !b.push_moves(self.quick.as_slice()) {
            return false;
        }
        if let Some((black, white)) = claim {
            b.set_discs([black, white]);
        }
        true
    }
}

impl PendingSource {
    /// Splits off the next game and views it: scanned when its format's quick scan takes
    /// it, read in full otherwise.
    fn next(&mut self, b: &mut Buffers) -> Option<io::Result<()>> {
        let pending = match self.games.next()? {
            Ok((pending, _)) => pending,
            Err(e) => return Some(Err(e)),
        };
        if let Some(index) = pending.unread_index() {
            if self.scan(&pending, b) {
                b.index = index;
                b.game = Some(Held::Plain(Plain::Pending(pending)));
                return Some(Ok(()));
            }
            b.clear();
        }
        b.game = Some(Held::Parsed(Box::new(capped(pending.read()))));
        Some(Ok(()))
    }

    /// Views the game `pending` into `b`; `false` when the scan gives up (the reader
    /// would have something to say, or the game is not plain enough).
    fn scan(&mut self, pending: &Pending, b: &mut Buffers) -> bool {
        let Some((rules, claim)) = pending.scan(&mut self.quick, |n, v| b.push_tag(n, v)) else {
            return false;
        };
        b.rules = rules;
        if !b.push_moves(self.quick.as_slice()) {
            return false;
        }
        match claim {
            QuickClaim::Nothing => {}
            QuickClaim::Discs(black, white) => b.set_discs([black, white]),
            QuickClaim::Margin(_, claimed) => b.set_margin(claimed),
        }
        true
    }
}

/// Fills `b` with the view of the quick WTHOR record `q`.
fn view_wthor(context: &FileContext, q: &QuickRecord, b: &mut Buffers) {
    let mut moves = std::mem::take(&mut b.moves);
    let (rules, discs) = context.view_quick(
        q,
        crate::formats::wthor::Tags::All,
        |name, value| b.push_tag(name, value),
        |sq| moves.push(Move::Place(sq)),
    );
    b.moves = moves;
    b.index = q.index();
    b.rules = rules;
    b.set_discs(discs);
}

/// One game, borrowed from its [`GameReader`] until the next is read.
pub struct GameView<'a> {
    index: usize,
    rules: Rules,
    start: Option<&'a StartPosition>,
    tags: &'a [Tag],
    moves: &'a [Move],
    result: Option<&'a ClaimedResult>,
    origin: Origin<'a>,
}

/// What a view was made from.
enum Origin<'a> {
    /// The game as its format's reader gave it.
    Parsed(&'a ParsedGame),
    /// A quick WTHOR record.
    Wthor(&'a FileContext, &'a QuickRecord),
    /// A scanned game of another format.
    Pending(&'a Pending),
    /// A scanned RGN/PGN game.
    Text {
        name: &'a Arc<str>,
        rules: Rules,
        bytes: &'a [u8],
        span: &'a GameSpan,
    },
}

impl std::fmt::Debug for GameView<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("GameView")
            .field("index", &self.index)
            .field("rules", &self.rules)
            .field("start", &self.start)
            .field("tags", &self.tags)
            .field("moves", &self.moves)
            .field("result", &self.result)
            .field("parsed", &self.parsed().is_some())
            .finish()
    }
}

impl<'a> GameView<'a> {
    /// The game's 1-based index in its input; 0 for an entry that reports a problem of the
    /// input itself.
    pub fn index(&self) -> usize {
        self.index
    }

    /// The rules the game was played under.
    pub fn rules(&self) -> Rules {
        self.rules
    }

    /// The start position, when it is not the rules' usual one.
    pub fn start(&self) -> Option<&'a StartPosition> {
        self.start
    }

    /// The tags, in the order the game gives them (see [`Record::tags`]).
    pub fn tags(&self) -> &'a [Tag] {
        self.tags
    }

    /// The value of the first tag named `name` (any case).
    pub fn tag(&self, name: &str) -> Option<&'a str> {
        self.tags
            .iter()
            .find(|t| t.name.eq_ignore_ascii_case(name))
            .map(|t| t.value.as_str())
    }

    /// The moves as written, passes included where the game writes them.
    pub fn moves(&self) -> &'a [Move] {
        self.moves
    }

    /// The claimed result.
    pub fn result(&self) -> Option<&'a ClaimedResult> {
        self.result
    }

    /// The game as its format's reader gave it, when the reader read it in full (a game
    /// that is not plain, or one of a format without a plain view).
    pub fn parsed(&self) -> Option<&'a ParsedGame> {
        match self.origin {
            Origin::Parsed(game) => Some(game),
            _ => None,
        }
    }

    /// The record, when the game was read in full and could be read.
    pub fn record(&self) -> Option<&'a Record> {
        self.parsed()?.record.as_ref()
    }

    /// What the reader found wrong in the game (nothing, for a plain game).
    pub fn diagnostics(&self) -> &'a [Diagnostic] {
        self.parsed().map_or(&[], |game| &game.diagnostics[..])
    }

    /// The game read in full, exactly as the format's reader reads it: the owned record,
    /// with its comments, claims and spans, and the game's source text.
    pub fn to_parsed_game(&self) -> ParsedGame {
        match self.origin {
            Origin::Parsed(game) => game.clone(),
            Origin::Wthor(context, q) => capped(context.read_quick(q)),
            Origin::Pending(pending) => pending.clone().read(),
            Origin::Text {
                name,
                rules,
                bytes,
                span,
            } => capped(rgn::read_game(name, self.index, rules, bytes, span)),
        }
    }
}
