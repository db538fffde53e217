//! The bounds on one game (its bytes, moves and tags) and on the input read without a game.

use crate::codes::Code;
use std::io::{self, BufRead, Read};

use crate::diagnostic::Diagnostic;
use crate::record::Span;

/// The most bytes one line, or one game, of a text record may hold. Real games take a few
/// kilobytes; anything longer is damage (or `/dev/zero`), and is skipped with a
/// `syntax-too-long` error instead of being held in memory.
pub const MAX_GAME_BYTES: usize = 1 << 20;

/// `MAX_GAME_BYTES` as people read it.
pub(crate) const MAX_GAME_TEXT: &str = "1 MiB";

/// The most bytes a reader may consume without giving a game: past this, the input is not
/// a record of this format (`/dev/zero`, a binary file read as text), and reading stops
/// with an error instead of running on.
pub const MAX_RUN_WITHOUT_GAME: u64 = 64 << 20;

/// An input that fails with `InvalidData` once [`MAX_RUN_WITHOUT_GAME`] bytes were read
/// since the count was last reset (by the game stream, at each game).
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct RunawayGuard<R> {
    input: R,
    consumed: std::sync::Arc<std::sync::atomic::AtomicU64>,
}

impl<R> RunawayGuard<R> {
    #[doc(hidden)]
    pub fn new(input: R, consumed: std::sync::Arc<std::sync::atomic::AtomicU64>) -> Self {
        RunawayGuard { input, consumed }
    }

    /// Adds `n` bytes. The reader is the only writer of the count (the game stream only
    /// resets it between reads), so a plain load and store do: no locked add per byte on
    /// the scanners that consume a byte at a time.
    fn count(&self, n: usize) {
        use std::sync::atomic::Ordering::Relaxed;
        self.consumed
            .store(self.consumed.load(Relaxed) + n as u64, Relaxed);
    }

    fn check(&self) -> io::Result<()> {
        if self.consumed.load(std::sync::atomic::Ordering::Relaxed) > MAX_RUN_WITHOUT_GAME {
            return Err(io::Error::new(
                io::ErrorKind::InvalidData,
                format!(
                    "{} MiB read without a game: this is not a record of the format; the rest is not read",
                    MAX_RUN_WITHOUT_GAME >> 20
                ),
            ));
        }
        Ok(())
    }
}

impl<R: Read> Read for RunawayGuard<R> {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        self.check()?;
        let n = self.input.read(buf)?;
        self.count(n);
        Ok(n)
    }
}

impl<R: BufRead> BufRead for RunawayGuard<R> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.check()?;
        self.input.fill_buf()
    }

    fn consume(&mut self, amount: usize) {
        self.count(amount);
        self.input.consume(amount);
    }
}

/// The most moves a game read from a record may hold. No game of any variant has more
/// than about 400 (100 squares, and with 4 players up to 3 passes before each placement), so
/// a record with more is damage; it is reported with [`too_large`] and has no record, and
/// its moves are not held: a game's memory stays a small multiple of its bytes.
pub const MAX_MOVES: usize = 1_000;

/// The most tags (GGF and SGF properties, JSON tags, CSV columns) a game read from a record
/// may hold; real games have a few dozen. A game with more is reported with [`too_large`]
/// and has no record.
pub const MAX_TAGS: usize = 1_000;

/// The `syntax-game-too-large` error: the game holds more `what` (`moves`, `tags`) than
/// `limit`; `at` is the first one over it. The game is not read.
///
/// ```
/// use reversi_formats::text::{too_large, MAX_MOVES};
/// let d = too_large("moves", MAX_MOVES, None);
/// assert_eq!(d.code.name(), "syntax-game-too-large");
/// assert!(d.message.contains("more than 1000 moves"));
/// ```
pub fn too_large(what: &str, limit: usize, at: Option<Span>) -> Diagnostic {
    Diagnostic::error(
        Code::SyntaxGameTooLarge,
        format!("the game holds more than {limit} {what}, more than any real game; the game is not read"),
    )
    .at(at, format!("{what} beyond the first {limit} start here"))
    .help("this is damage or not a game record: no game of any variant has over 400 moves, nor a record a thousand tags")
}

/// The error for a line or game longer than [`MAX_GAME_BYTES`], which is skipped.
pub(crate) fn too_long(what: &str, line: usize, len: usize) -> Diagnostic {
    Diagnostic::error(
        Code::SyntaxTooLong,
        format!(
            "{what} on line {} is longer than {MAX_GAME_TEXT} ({len} bytes); the game is skipped",
            line + 1
        ),
    )
    .help(format!(
        "a record of one game takes a few kilobytes; this is damage or not a game record (the limit is {MAX_GAME_BYTES} bytes)"
    ))
}
