//! Inputs read into blocks: the next block of games of the inputs, as the format gives
//! them (WTHOR entries, RGN/PGN game texts, the other formats' games split off but not yet
//! read, or read in full), bounded by games and bytes.

use super::*;

/// A block of work, as the reading side hands it out.
pub(crate) enum Unit<T> {
    /// An input starts; whether it could be opened.
    Start(T, bool),
    /// Games of the other formats, read in full or to be read by the worker.
    Games(Vec<Pending>),
    /// WTHOR entries, most of them records for the quick check.
    Wthor(Arc<FileContext>, Vec<Entry>),
    /// RGN/PGN games: their bytes back to back, and where each is.
    Text(TextBlock),
    /// Reading failed.
    Failed(io::Error),
}

/// A game of a format other than WTHOR and RGN/PGN, as the reading gives it: read in full,
/// or split off to be read by the worker.
#[derive(Clone)]
pub(crate) enum Pending {
    Read(Box<ParsedGame>),
    MoveString(movestr::PendingLine),
    Ggf(ggf::PendingGame),
    Sgf(sgf::PendingTree),
    Json(json::PendingObject),
    Transcript(transcript::PendingGrid),
}

impl Pending {
    /// The index of a game still to be read: the quick check may take it.
    pub(crate) fn unread_index(&self) -> Option<usize> {
        match self {
            Pending::Read(_) => None,
            Pending::MoveString(line) => Some(line.index()),
            Pending::Ggf(game) => Some(game.index()),
            Pending::Sgf(tree) => Some(tree.index()),
            Pending::Json(object) => Some(object.index()),
            Pending::Transcript(grid) => Some(grid.index()),
        }
    }

    /// Scans a game still to be read into `moves` for the quick check, handing its tags to
    /// `tag`: its rules and claim, or `None` when it must be read in full.
    pub(crate) fn scan(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        match self {
            Pending::Read(_) => None,
            Pending::MoveString(line) => Some((line.scan(moves)?, QuickClaim::Nothing)),
            Pending::Ggf(game) => game.scan(moves, tag),
            Pending::Sgf(tree) => tree.scan(moves, tag),
            Pending::Json(object) => object.scan(moves, tag),
            Pending::Transcript(grid) => grid.scan(moves, tag),
        }
    }

    /// [`Pending::scan`] for a caller that keeps the game (a conversion): `None` also where
    /// the record would keep more than the game's tags, moves and result (a JSON comment;
    /// GGF and SGF moves, which claim their colours).
    pub(crate) fn scan_kept(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        match self {
            Pending::MoveString(line) => Some((line.scan(moves)?, QuickClaim::Nothing)),
            Pending::Json(object) => object.scan_kept(moves, tag),
            Pending::Transcript(grid) => grid.scan(moves, tag),
            Pending::Read(_) | Pending::Ggf(_) | Pending::Sgf(_) => None,
        }
    }

    /// The game as its reader gives it, without its record: for a game still to be read
    /// that [`Pending::scan_kept`] took (the reader then reports nothing of it).
    pub(crate) fn unread(&self) -> Option<ParsedGame> {
        match self {
            Pending::MoveString(line) => line.unread(),
            Pending::Json(object) => object.unread(),
            Pending::Transcript(grid) => grid.unread(),
            Pending::Read(_) | Pending::Ggf(_) | Pending::Sgf(_) => None,
        }
    }

    /// The game, read if it was not yet.
    pub(crate) fn read(self) -> ParsedGame {
        match self {
            Pending::Read(game) => *game,
            Pending::MoveString(line) => capped(line.read()),
            Pending::Ggf(game) => capped(game.read()),
            Pending::Sgf(tree) => capped(tree.read()),
            Pending::Json(object) => capped(object.read()),
            Pending::Transcript(grid) => capped(grid.read()),
        }
    }
}

/// RGN/PGN games split from a file, not yet parsed.
pub(crate) struct TextBlock {
    pub(crate) name: Arc<str>,
    /// The rules of games without a `Rules` tag.
    pub(crate) rules: Rules,
    /// The index of the first game.
    pub(crate) first: usize,
    pub(crate) bytes: Vec<u8>,
    pub(crate) games: Vec<GameSpan>,
}

/// The inputs read into blocks, one block at a time: an input's start, then its blocks,
/// then (if reading it failed) its error.
pub(super) struct Blocks<T, I> {
    pub(super) inputs: I,
    /// Games a block holds at most.
    pub(super) block: usize,
    /// The input being read.
    pub(super) reading: Option<Reading>,
    /// What to hand out before reading on: an input's error, after its last block.
    pub(super) queued: Option<Unit<T>>,
}

impl<T, I: Iterator<Item = (T, Option<Input>)>> Blocks<T, I> {
    /// The next block, its storage taken from `recycler`; `None` when the inputs are over.
    pub(super) fn next_unit(&mut self, recycler: &mut Recycler) -> Option<Unit<T>> {
        loop {
            if let Some(unit) = self.queued.take() {
                return Some(unit);
            }
            let Some(reading) = &mut self.reading else {
                let (tag, input) = self.inputs.next()?;
                let opened = input.is_some();
                self.reading = input.map(Reading::of);
                return Some(Unit::Start(tag, opened));
            };
            let (unit, failed, more) = reading.next_block(self.block, recycler);
            if failed.is_some() || !more {
                self.reading = None;
            }
            self.queued = failed.map(Unit::Failed);
            if let Some(unit) = unit {
                return Some(unit);
            }
        }
    }
}

/// One input being read into blocks.
pub(super) enum Reading {
    /// WTHOR records, most of them for the quick check.
    Wthor(Box<wthor::Reader<'static>>),
    /// RGN/PGN games, split off as bytes back to back.
    Text(Box<TextReading>),
    /// The other formats' games ([`pending_games`]), and the one that did not fit the
    /// last block.
    Games(Box<GamesReading>),
}

/// An input of another format being split.
pub(super) struct GamesReading {
    games: Box<dyn Iterator<Item = io::Result<(Pending, usize)>> + Send>,
    carried: Option<(Pending, usize)>,
}

/// An RGN/PGN input being split into games (for the blocks, and for the view).
pub(crate) struct TextReading {
    splitter: Splitter<RunawayGuard<Box<dyn BufRead + Send>>>,
    /// The bytes read since the last game, which the runaway guard counts.
    consumed: Arc<AtomicU64>,
    /// The name its games are reported by.
    pub(crate) name: Arc<str>,
    /// The rules of games without a `Rules` tag.
    pub(crate) rules: Rules,
    /// The index of the next game.
    pub(crate) next_index: usize,
}

impl TextReading {
    pub(crate) fn open(input: Input) -> TextReading {
        let consumed = Arc::new(AtomicU64::new(0));
        let guarded = RunawayGuard::new(input.reader, consumed.clone());
        let name = match &*input.options.name {
            "" => Arc::from("-"),
            _ => input.options.name.clone(),
        };
        TextReading {
            splitter: Splitter::new(guarded),
            consumed,
            name,
            rules: input.options.rules.unwrap_or_default(),
            next_index: 1,
        }
    }

    /// Splits the next game off, appending its bytes to `bytes`: where it is; `None` at
    /// the end of the input.
    pub(crate) fn next_game(&mut self, bytes: &mut Vec<u8>) -> io::Result<Option<GameSpan>> {
        let span = self.splitter.next_game(bytes)?;
        if span.is_some() {
            self.consumed.store(0, std::sync::atomic::Ordering::Relaxed);
        }
        Ok(span)
    }
}

impl Reading {
    fn of(input: Input) -> Reading {
        match input.format {
            Format::Wthor => {
                Reading::Wthor(Box::new(wthor::Reader::quick(input.reader, &input.options)))
            }
            Format::Rgn | Format::Pgn(_) => Reading::Text(Box::new(TextReading::open(input))),
            _ => Reading::Games(Box::new(GamesReading {
                games: pending_games(input),
                carried: None,
            })),
        }
    }

    /// The next block (none when it would be empty), the error that ends the input if
    /// reading failed, and whether more may follow.
    fn next_block<T>(
        &mut self,
        size: usize,
        recycler: &mut Recycler,
    ) -> (Option<Unit<T>>, Option<io::Error>, bool) {
        match self {
            Reading::Wthor(reader) => {
                let mut entries = recycler.entries(size);
                let mut bytes = 0;
                let mut failed = None;
                // Records are small (68 or 104 bytes; a game read in full, its line of the
                // text view and its findings, a few hundred): the byte budget is for form's
                // sake.
                while entries.len() < size && bytes < BLOCK_BYTES {
                    match reader.next_entry() {
                        Some(Ok(entry)) => {
                            bytes += entry.bytes();
                            entries.push(entry);
                        }
                        Some(Err(e)) => {
                            failed = Some(e);
                            break;
                        }
                        None => break,
                    }
                }
                let full = entries.len() == size || bytes >= BLOCK_BYTES;
                let unit =
                    (!entries.is_empty()).then(|| Unit::Wthor(reader.context().clone(), entries));
                (unit, failed, full)
            }
            Reading::Text(text) => {
                let (bytes, games) = recycler.text();
                let mut block = TextBlock {
                    name: text.name.clone(),
                    rules: text.rules,
                    first: text.next_index,
                    bytes,
                    games,
                };
                let (mut failed, mut ended) = (None, false);
                while block.bytes.len() < TEXT_BLOCK && block.games.len() < size {
                    match text.next_game(&mut block.bytes) {
                        Ok(Some(game)) => block.games.push(game),
                        Ok(None) => {
                            ended = true;
                            break;
                        }
                        Err(e) => {
                            failed = Some(e);
                            break;
                        }
                    }
                }
                text.next_index += block.games.len();
                let unit = (!block.games.is_empty()).then_some(Unit::Text(block));
                (unit, failed, !ended)
            }
            Reading::Games(reading) => {
                let block = recycler.games(size.min(64));
                let GamesReading { games, carried } = &mut **reading;
                let (block, failed, ended) = next_game_block(games, size, block, carried);
                let unit = (!block.is_empty()).then_some(Unit::Games(block));
                (unit, failed, !ended)
            }
        }
    }
}

/// The games of an input of a format other than WTHOR and RGN/PGN, each with its bytes:
/// split off here, to be read by whoever takes them (move-string lines, GGF games, SGF
/// trees, JSON objects and transcript grids), or read in full here (the other formats, and
/// what a reader reports of the input itself).
pub(crate) fn pending_games(
    input: Input,
) -> Box<dyn Iterator<Item = io::Result<(Pending, usize)>> + Send> {
    let relaxed = std::sync::atomic::Ordering::Relaxed;
    match input.format {
        Format::MoveString => {
            let consumed = Arc::new(AtomicU64::new(0));
            let guarded = RunawayGuard::new(input.reader, consumed.clone());
            let mut lines = movestr::splitter(guarded, &input.options);
            Box::new(std::iter::from_fn(move || {
                let entry = lines.next_entry()?;
                // The bytes read for the entry: what its line holds.
                let bytes = consumed.swap(0, relaxed) as usize;
                Some(entry.map(|entry| match entry {
                    movestr::Entry::Game(game) => (Pending::Read(game), bytes),
                    movestr::Entry::Line(line) => (Pending::MoveString(line), bytes),
                }))
            }))
        }
        Format::Ggf => {
            let (reader, consumed) = guarded(input.reader);
            let mut games = ggf::reader(reader, &input.options);
            Box::new(std::iter::from_fn(move || {
                let game = games.next_pending()?;
                consumed.store(0, relaxed);
                Some(game.map(|game| {
                    let bytes = game.text_len();
                    (Pending::Ggf(game), bytes)
                }))
            }))
        }
        Format::Json => {
            let (reader, consumed) = guarded(input.reader);
            Box::new(json::entries(reader, &input.options).map(move |entry| {
                consumed.store(0, relaxed);
                entry.map(|entry| match entry {
                    json::Entry::Game(game) => {
                        let bytes = game.source.text.len();
                        (Pending::Read(Box::new(capped(*game))), bytes)
                    }
                    json::Entry::Object(object) => {
                        let bytes = object.text_len();
                        (Pending::Json(object), bytes)
                    }
                })
            }))
        }
        Format::Sgf => {
            let (reader, consumed) = guarded(input.reader);
            Box::new(sgf::trees(reader, &input.options).map(move |tree| {
                consumed.store(0, relaxed);
                tree.map(|tree| {
                    let bytes = tree.text_len();
                    (Pending::Sgf(tree), bytes)
                })
            }))
        }
        Format::Transcript => {
            let (reader, consumed) = guarded(input.reader);
            let mut grids = transcript::GridSplitter::new(reader, &input.options);
            Box::new(std::iter::from_fn(move || {
                let grid = grids.next_pending()?;
                consumed.store(0, relaxed);
                Some(grid.map(|grid| {
                    let bytes = grid.text_len();
                    (Pending::Transcript(grid), bytes)
                }))
            }))
        }
        format => Box::new(format.read(input.reader, &input.options).map(|game| {
            game.map(|g| {
                let bytes = g.source.text.len();
                (Pending::Read(Box::new(g)), bytes)
            })
        })),
    }
}

/// `reader` behind a [`RunawayGuard`], and the count of bytes read without a game, which
/// the game stream resets at each game: an input that runs on without one (`/dev/zero`)
/// ends with an error, as [`Format::read`] has it.
pub(super) fn guarded<'a>(
    reader: Box<dyn BufRead + Send + 'a>,
) -> (Box<dyn BufRead + Send + 'a>, Arc<AtomicU64>) {
    let consumed = Arc::new(AtomicU64::new(0));
    let guarded = Box::new(RunawayGuard::new(reader, consumed.clone()));
    (guarded, consumed)
}

/// The next block of games, starting with the game `carried` over from the one
/// before (and leaving there the game that would take this one past the budget); whether
/// reading failed, and whether the games ended.
pub(super) fn next_game_block(
    games: &mut impl Iterator<Item = io::Result<(Pending, usize)>>,
    size: usize,
    mut block: Vec<Pending>,
    carried: &mut Option<(Pending, usize)>,
) -> (Vec<Pending>, Option<io::Error>, bool) {
    let mut bytes = 0;
    if let Some((game, n)) = carried.take() {
        block.push(game);
        bytes = n;
    }
    while block.len() < size {
        match games.next() {
            None => return (block, None, true),
            Some(Err(e)) => return (block, Some(e), false),
            Some(Ok((game, n))) => {
                if !block.is_empty() && bytes + n > BLOCK_BYTES {
                    *carried = Some((game, n));
                    break;
                }
                block.push(game);
                bytes += n;
            }
        }
    }
    (block, None, false)
}

/// Whether game `index` (from 1) is taken under `select` without its tags being read:
/// no selector, or one by number that takes it. `None`: the tags decide.
pub(crate) fn taken_by_number(select: Option<&GameSelector>, index: usize) -> Option<bool> {
    match select {
        None => Some(true),
        Some(GameSelector::Index(n)) => Some(*n == index),
        Some(GameSelector::Tags(_)) => None,
    }
}

/// Whether `game`, read in full, is taken under `select`; an entry about the input itself
/// (game 0) always is.
pub(crate) fn taken_in_full(select: Option<&GameSelector>, game: &ParsedGame) -> bool {
    game.index == 0 || select.map_or(true, |selector| game.is_selected(selector))
}
