//! Splitting a file of transcript grids into its grids, each a [`PendingGrid`]: its text
//! and what decoding found on its lines, read into a game by [`PendingGrid::read`] (on
//! another thread, when the pipeline has several) or scanned by the quick check.
//!
//! The splitter only sorts lines (a header, a row, a blank line ...), allocating nothing
//! for them: the text of each grid is the one string it holds.

use std::collections::VecDeque;
use std::io::{self, BufRead};
use std::ops::Range;
use std::sync::Arc;

use super::{build_game, grid_lines, sort, LineSort};
use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::engine::Rules;
use crate::text::{self, LineAt, LineReader, MAX_GAME_BYTES};
use crate::{ParsedGame, ReadOptions, Source};

/// Splits a file into grids: a grid ends at the line after it that shows it complete (a
/// blank line, a header line or a line of column letters after its rows).
#[allow(missing_debug_implementations)] // internal to the workspace
#[doc(hidden)]
pub struct GridSplitter<R> {
    lines: LineReader<R>,
    /// A line that is not handed over from the input's buffer, its buffer reused.
    line: String,
    split: Split,
}

/// Where a [`GridSplitter`] is.
struct Split {
    name: Arc<str>,
    rules: Option<Rules>,
    /// The block being gathered.
    block: Gathered,
    /// The last grid split off, held until the next one is (or the input ends): decoding
    /// problems on the lines after a grid belong to it.
    ready: Option<PendingGrid>,
    /// Grids ready to hand out.
    out: VecDeque<PendingGrid>,
    index: usize,
    done: bool,
}

impl<R: BufRead> GridSplitter<R> {
    /// The grids of `input`, read as `options` say.
    #[doc(hidden)]
    pub fn new(input: R, options: &ReadOptions) -> GridSplitter<R> {
        GridSplitter {
            lines: LineReader::new(input),
            line: String::new(),
            split: Split {
                name: options.name.clone(),
                rules: options.rules,
                block: Gathered::default(),
                ready: None,
                out: VecDeque::new(),
                index: 0,
                done: false,
            },
        }
    }

    /// The next grid, not yet read; `None` at the end. A read error ends the grids.
    #[doc(hidden)]
    pub fn next_pending(&mut self) -> Option<io::Result<PendingGrid>> {
        let split = &mut self.split;
        loop {
            if let Some(grid) = split.out.pop_front() {
                return Some(Ok(grid));
            }
            if split.done {
                return None;
            }
            match self
                .lines
                .next_lines(&mut self.line, |text, at| split.take(text, at))
            {
                Some(Ok(())) => {}
                Some(Err(e)) => {
                    split.done = true;
                    return Some(Err(e));
                }
                None => {
                    split.done = true;
                    split.finish();
                    if let Some(grid) = split.ready.take() {
                        split.out.push_back(grid);
                    }
                }
            }
        }
    }
}

impl Split {
    /// Takes one line: it may end the block (a grid), start one or add to it.
    fn take(&mut self, text: &str, at: LineAt) {
        let end = at.offset + text.len();
        let sorted = (!at.too_long).then(|| sort(text));
        if self.block.rows > 0
            && matches!(
                sorted,
                Some(LineSort::Blank | LineSort::Header(..) | LineSort::Columns)
            )
        {
            self.finish();
        }
        let block = &mut self.block;
        match sorted {
            None => {
                block.touch(text, &at, end);
                block.rows += 1;
                let reason = at.problems.iter().find(|d| d.code == Code::SyntaxTooLong);
                block.overflow(reason.cloned());
            }
            Some(LineSort::Blank | LineSort::Skip) => block.keep(text, &at),
            Some(LineSort::Header(name, value)) => {
                let header = HeaderAt::new(text, block.text.len(), name, value);
                block.header_lines.push(header);
                block.touch(text, &at, end);
                block.headers += 1;
            }
            Some(LineSort::Columns) => block.touch(text, &at, end),
            Some(LineSort::Row) => {
                block.rows_at.get_or_insert(block.text.len());
                block.touch(text, &at, end);
                block.rows += 1;
            }
        }
        if at.problems.is_empty() {
            return;
        }
        // What decoding found belongs to the grid the line is in, or to the one before.
        for problem in at.problems {
            if problem.code == Code::SyntaxTooLong {
                continue;
            }
            match (&self.block.start, &mut self.ready) {
                (None, Some(ready)) => ready.problems.add(problem, at.number),
                _ => self.block.problems.add(problem, at.number),
            }
        }
    }

    /// Ends the block: a grid when it holds rows or headers.
    fn finish(&mut self) {
        // The next block's text is about as long as this one's, with as many headers.
        let capacity = self.block.text.len().next_power_of_two();
        let headers = self.block.header_lines.len();
        let mut done = std::mem::replace(
            &mut self.block,
            Gathered {
                text: String::with_capacity(capacity),
                header_lines: Vec::with_capacity(headers),
                ..Gathered::default()
            },
        );
        let problems = std::mem::take(&mut done.problems);
        let Some(start) = done.start.filter(|_| done.rows > 0 || done.headers > 0) else {
            // Not a grid: its lines' problems go to the grid before (or the first).
            match &mut self.ready {
                Some(before) => before.problems.merge(problems),
                None => self.block.problems = problems,
            }
            return;
        };
        self.index += 1;
        let grid = PendingGrid {
            name: self.name.clone(),
            rules: self.rules,
            index: self.index,
            rows_at: done.rows_at.unwrap_or(done.text.len()),
            text: done.text,
            header_lines: done.header_lines,
            start,
            end: done.end,
            too_long: done.too_long.map(Box::new),
            problems,
        };
        if let Some(before) = self.ready.replace(grid) {
            self.out.push_back(before);
        }
    }
}

/// The lines of one block, gathered until it ends.
#[derive(Default)]
struct Gathered {
    /// How many header lines and rows the block has (kept when it overflows).
    headers: usize,
    rows: usize,
    /// Byte offset and 0-based line number of the block's first line.
    start: Option<(usize, usize)>,
    /// Byte offset just past the block's last line.
    end: usize,
    /// The text from the block's first line on, line terminators included.
    text: String,
    /// Its header lines, as sorting them found them, and where its first row starts in
    /// `text`: what the quick scan would find again.
    header_lines: Vec<HeaderAt>,
    rows_at: Option<usize>,
    /// Why the block is not kept: longer than [`MAX_GAME_BYTES`] (`syntax-too-long`).
    too_long: Option<Diagnostic>,
    /// Decoding problems of its lines.
    problems: LineProblems,
}

impl Gathered {
    /// Adds the line `text`, which belongs to the block and ends at `end`.
    fn touch(&mut self, text: &str, at: &LineAt, end: usize) {
        self.start.get_or_insert((at.offset, at.number));
        self.end = end;
        self.keep(text, at);
    }

    /// Keeps the line `text` when the block has started (a blank line or a comment inside
    /// it), as long as the block fits [`MAX_GAME_BYTES`].
    fn keep(&mut self, text: &str, at: &LineAt) {
        let Some((start, number)) = self.start else {
            return;
        };
        if self.too_long.is_some() {
            return;
        }
        if self.text.len() + text.len() + at.terminator.len() > MAX_GAME_BYTES {
            let len = at.offset + text.len() - start;
            self.overflow(Some(text::too_long("the grid", number, len)));
            return;
        }
        self.text.push_str(text);
        // Most lines end with a line feed: one byte, pushed without a copy.
        match at.terminator {
            "\n" => self.text.push('\n'),
            terminator => self.text.push_str(terminator),
        }
    }

    /// Drops what the block holds, for `reason` (the first one stays).
    fn overflow(&mut self, reason: Option<Diagnostic>) {
        if self.too_long.is_none() {
            let (_, number) = self.start.unwrap_or_default();
            self.too_long = Some(
                reason.unwrap_or_else(|| text::too_long("the grid", number, MAX_GAME_BYTES + 1)),
            );
        }
        self.text = String::new();
    }
}

/// A grid split off a file, not yet read.
#[allow(missing_debug_implementations)] // internal to the workspace
#[derive(Clone)]
#[doc(hidden)]
pub struct PendingGrid {
    name: Arc<str>,
    /// The rules for a grid without a `Rules:` header whose board fits its rows.
    pub(super) rules: Option<Rules>,
    index: usize,
    /// Its text from its first line on, line terminators included (empty when too long).
    pub(super) text: String,
    /// Its header lines and where its first row starts in `text` (its length when it has
    /// none), as the splitter sorted its lines.
    pub(super) header_lines: Vec<HeaderAt>,
    pub(super) rows_at: usize,
    /// Byte offset and 0-based line number of its first line.
    start: (usize, usize),
    /// Byte offset just past its last line.
    end: usize,
    /// Why it is skipped: longer than [`MAX_GAME_BYTES`] (boxed: grids are moved about
    /// in blocks, and this is rare).
    pub(super) too_long: Option<Box<Diagnostic>>,
    /// Decoding problems of its lines and of those after it.
    pub(super) problems: LineProblems,
}

impl PendingGrid {
    /// The game's index in its file, from 1.
    #[doc(hidden)]
    pub fn index(&self) -> usize {
        self.index
    }

    /// The bytes of its text.
    #[doc(hidden)]
    pub fn text_len(&self) -> usize {
        self.text.len()
    }

    /// The game as [`PendingGrid::read`] gives it, without its record, when decoding found
    /// nothing in its lines: for a grid the quick scan took.
    #[doc(hidden)]
    pub fn unread(&self) -> Option<ParsedGame> {
        if self.too_long.is_some() || !self.problems.is_empty() {
            return None;
        }
        let (offset, line) = self.start;
        let source = Source {
            name: self.name.clone(),
            text: Arc::from(self.text.get(..self.end - offset).unwrap_or_default()),
            offset,
            line,
        };
        Some(ParsedGame {
            index: self.index,
            source,
            record: None,
            diagnostics: Vec::new(),
        })
    }

    /// The game the reader gives for this grid.
    #[doc(hidden)]
    pub fn read(self) -> ParsedGame {
        let too_long = self.too_long.map(|d| *d);
        let block = grid_lines(self.text, self.start, self.end, too_long);
        let game = build_game(block, self.index, &self.name, self.rules);
        self.problems.attach(game)
    }
}

/// Where a header line's name and value are in its grid's text, as [`sort`] found them.
#[derive(Clone)]
pub(super) struct HeaderAt {
    name: Range<usize>,
    value: Range<usize>,
}

impl HeaderAt {
    /// The header line `line`, which starts at byte `at` of its grid's text, with the
    /// `name` and `value` sorting it found in it.
    fn new(line: &str, at: usize, name: &str, value: &str) -> HeaderAt {
        // Both are slices of `line`.
        let within = |part: &str| {
            let start = at + (part.as_ptr() as usize).wrapping_sub(line.as_ptr() as usize);
            start..start + part.len()
        };
        HeaderAt {
            name: within(name),
            value: within(value),
        }
    }

    /// Its name and value in `text`, its grid's text.
    pub(super) fn read<'t>(&self, text: &'t str) -> Option<(&'t str, &'t str)> {
        Some((text.get(self.name.clone())?, text.get(self.value.clone())?))
    }
}

/// The decoding problems of the lines a game answers for, one per kind as the decoder of a
/// whole text gives them: the first bad encoding (counting the lines), the first NUL byte.
#[derive(Clone, Default)]
pub(super) struct LineProblems {
    /// The first bad-encoding warning, its 0-based line, and how many lines had one
    /// (boxed, as the NUL byte: most grids have neither).
    encoding: Option<Box<(Diagnostic, usize, usize)>>,
    nul: Option<Box<Diagnostic>>,
}

impl LineProblems {
    /// Whether there are none.
    pub(super) fn is_empty(&self) -> bool {
        self.encoding.is_none() && self.nul.is_none()
    }

    fn add(&mut self, problem: Diagnostic, line: usize) {
        match problem.code {
            Code::SyntaxBadEncoding => match self.encoding.as_deref_mut() {
                Some((_, _, count)) => *count += 1,
                None => self.encoding = Some(Box::new((problem, line, 1))),
            },
            Code::SyntaxNulByte if self.nul.is_none() => self.nul = Some(Box::new(problem)),
            _ => {}
        }
    }

    fn merge(&mut self, other: LineProblems) {
        if let Some(theirs) = other.encoding {
            match self.encoding.as_deref_mut() {
                Some((_, _, mine)) => *mine += theirs.2,
                None => self.encoding = Some(theirs),
            }
        }
        if self.nul.is_none() {
            self.nul = other.nul;
        }
    }

    /// `game` with the problems first. A problem outside the game's text (a line before
    /// the first grid) keeps its message, which names the line, but points nowhere.
    fn attach(self, mut game: ParsedGame) -> ParsedGame {
        let encoding = self.encoding.map(|found| {
            let (mut problem, line, count) = *found;
            problem.message = text::bad_encoding_message(line, count);
            problem
        });
        let start = game.source.offset;
        let end = start + game.source.text.len();
        let problems: Vec<Diagnostic> = encoding
            .into_iter()
            .chain(self.nul.map(|nul| *nul))
            .map(|problem| {
                let mut problem = problem.in_game(game.index);
                if !problem
                    .span
                    .is_some_and(|s| s.offset >= start && s.end() <= end)
                {
                    problem.span = None;
                    problem.label = None;
                }
                problem
            })
            .collect();
        game.diagnostics.splice(0..0, problems);
        game
    }
}
