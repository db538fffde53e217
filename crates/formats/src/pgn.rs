//! Writers of the Othello PGN dialects other programs read and write (`spec/pgn.md`):
//! thor→PGN exports ([`PgnDialect::Thor`]), PlayOK ([`PgnDialect::PlayOk`]) and Edax
//! ([`PgnDialect::Edax`]). Reading every dialect is the RGN reader's job.
//!
//! All three hold standard 8x8 Othello only (Edax: from any start, as a `[FEN]` tag); a
//! record of other rules, or one whose start or moves the dialect cannot express, is always
//! refused, lossy or not. Claims a dialect has no place for (flips, positions, evals, times,
//! comments, tags outside its roster, results without disc counts) are refused, or dropped
//! and reported when writing lossily.
//!
//! ```
//! use reversi_formats::{pgn, PgnDialect, WriteOptions};
//! use reversi_formats::record::{ClaimedResult, MoveRecord, Record};
//! let mut record = Record::default();
//! for sq in ["f5", "d6", "c3"] {
//!     record.moves.push(MoveRecord::new(reversi_engine::Move::Place(sq.parse().unwrap())));
//! }
//! record.result = Some(ClaimedResult::discs(vec![40, 24]));
//! let mut out = Vec::new();
//! {
//!     let mut w = pgn::writer(Box::new(&mut out), PgnDialect::Thor, &WriteOptions::default());
//!     w.write(&record).unwrap();
//!     w.finish().unwrap();
//! }
//! assert_eq!(
//!     String::from_utf8(out).unwrap(),
//!     "[Event \"?\"]\n[Date \"?\"]\n[Result \"40-24\"]\n[Black \"?\"]\n[White \"?\"]\n1. F5 D6\n2. C3 \n\n"
//! );
//! ```

use std::borrow::Cow;
use std::fmt::Write as _;
use std::io::{self, Write};

use super::capabilities::{tag_phrase, termination_phrase, Claim, ClaimLosses};
use super::text::push_decimal;
use super::{
    check_losses, text_writer, PgnDialect, PlainGame, RecordWriter, TextFormat, WriteError,
    WriteOptions, Written,
};
use crate::engine::{BoardShape, Color, Move, Position, Rules, Setup, Square, SquareSet};
use crate::record::{ClaimedResult, Record, ResultScore, StartPosition, Termination};

/// A writer of `dialect`. [`PgnDialect::Rgn`] belongs to the `rgn` format: asked for here,
/// every write fails with an [`io::ErrorKind::InvalidInput`] error.
pub fn writer<'a>(
    out: Box<dyn Write + Send + 'a>,
    dialect: PgnDialect,
    options: &WriteOptions,
) -> Box<dyn RecordWriter + 'a> {
    super::capabilities::checked(
        super::Format::Pgn(dialect),
        text_writer(out, options, PgnGames { dialect }),
    )
}

/// Formats one record in `dialect`: the game's text (without the blank line that separates
/// it from the next game) and what was dropped, or what the dialect cannot hold.
pub fn format_game(
    record: &Record,
    dialect: PgnDialect,
    options: &WriteOptions,
) -> Result<(String, Vec<String>), WriteError> {
    let why = super::capabilities::meaning_losses(super::Format::Pgn(dialect), record);
    if !why.is_empty() {
        return Err(WriteError::ChangesMeaning(why));
    }
    let (text, losses) = render_game(record, dialect)?;
    Ok((text, check_losses(losses, options)?))
}

/// The text of one record in `dialect` and what it drops, or what the dialect cannot hold
/// even when lossy.
fn render_game(record: &Record, dialect: PgnDialect) -> Result<(String, Vec<String>), WriteError> {
    if dialect == PgnDialect::Rgn {
        return Err(WriteError::Io(io::Error::new(
            io::ErrorKind::InvalidInput,
            "the RGN dialect is written by the rgn format, not by the PGN dialect writers",
        )));
    }
    let mut losses = Losses::default();
    let game = PgnGame {
        rules: record.rules,
        start: record.start.as_ref(),
        tags: record
            .tags
            .iter()
            .map(|t| (t.name.as_str(), t.value.as_str())),
        result: record.result.as_ref(),
    };
    let slots = movetext(record, dialect, &mut losses);
    // No dialect holds these; colour claims are lost only where replay disagrees.
    losses.claims.add(record, &Claim::ANNOTATIONS);
    text(&plan(&game, slots, dialect, &mut losses), dialect, losses)
}

/// The text of a plan in `dialect` and what it drops, or what the dialect cannot hold even
/// when lossy (`losses.fatal`).
fn text(
    plan: &Plan<'_>,
    dialect: PgnDialect,
    mut losses: Losses,
) -> Result<(String, Vec<String>), WriteError> {
    if !losses.fatal.is_empty() {
        // Refused even lossily: only what changes the game is named.
        return Err(WriteError::ChangesMeaning(std::mem::take(
            &mut losses.fatal,
        )));
    }
    let text = match dialect {
        PgnDialect::Thor => thor_text(plan),
        PgnDialect::PlayOk => playok_text(plan),
        PgnDialect::Edax | PgnDialect::Rgn => edax_text(plan),
    };
    Ok((text, losses.finish()))
}

/// The text of a plain game in `dialect`, as [`render_game`] gives its record's, without
/// building it: standard Othello from the usual start, its passes written (Thor leaves
/// them out), no claims. `None` for other rules.
fn render_plain(game: &PlainGame<'_>, dialect: PgnDialect) -> Option<(String, Vec<String>)> {
    if game.rules != Rules::default() || dialect == PgnDialect::Rgn {
        return None;
    }
    let result = game
        .discs
        .map(|[black, white]| ClaimedResult::discs(vec![black, white]));
    let view = PgnGame {
        rules: game.rules,
        start: None,
        tags: game.tags(),
        result: result.as_ref(),
    };
    let slots = game
        .moves
        .iter()
        .copied()
        .filter(|&mv| mv != Move::Pass || dialect != PgnDialect::Thor)
        .collect();
    let mut losses = Losses::default();
    let plan = plan(&view, slots, dialect, &mut losses);
    text(&plan, dialect, losses).ok()
}

/// Games of one PGN dialect.
struct PgnGames {
    dialect: PgnDialect,
}

impl TextFormat for PgnGames {
    fn render(&self, record: &Record) -> Result<(String, Vec<String>), WriteError> {
        render_game(record, self.dialect)
    }

    fn render_plain(&self, game: &PlainGame<'_>) -> Option<(String, Vec<String>)> {
        render_plain(game, self.dialect)
    }

    fn frame(&self, written: &Written, _rules: &Rules, text: &str, out: &mut String) {
        // Thor exports end every game with a blank line; the others separate games by one.
        if written.games > 0 && self.dialect != PgnDialect::Thor {
            out.push('\n');
        }
        out.push_str(text);
        if self.dialect == PgnDialect::Thor {
            out.push('\n');
        }
    }
}

// ---------------------------------------------------------------------------------------
// What can be held

/// What a record loses in a dialect: `fatal` things are refused even when lossy (the game
/// would change meaning); the rest are dropped when lossy.
#[derive(Default)]
struct Losses {
    fatal: Vec<String>,
    plain: Vec<String>,
    /// The claims around the moves that are lost.
    claims: ClaimLosses,
}

impl Losses {
    /// Everything dropped: the plain losses, then the claims.
    fn finish(self) -> Vec<String> {
        let mut all = self.plain;
        self.claims.append_to(&mut all);
        all
    }
}

/// What the PGN text of a game is made of, from a record or from a plain game.
struct PgnGame<'g, T> {
    rules: Rules,
    start: Option<&'g StartPosition>,
    /// The tags' names and values, in order.
    tags: T,
    result: Option<&'g ClaimedResult>,
}

impl<'g, T: Iterator<Item = (&'g str, &'g str)> + Clone> PgnGame<'g, T> {
    /// The value of the first tag named `name` (case-insensitive, as [`Record::tag`]).
    fn tag(&self, name: &str) -> Option<&'g str> {
        super::text_writer::tag_named(self.tags.clone(), name)
    }
}

/// What will be written: the movetext slots, the start as FEN if any, the result and the
/// tags (`Result` among them with an empty value to fill in).
struct Plan<'g> {
    slots: Vec<Move>,
    fen: Option<String>,
    result: PgnResult,
    tags: Vec<(&'g str, Cow<'g, str>)>,
}

/// A result as PGN dialects write it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PgnResult {
    /// Black and White disc counts.
    Discs(u8, u8),
    /// Only the winner (`None` a draw): Edax only.
    Winner(Option<Color>),
    /// Not given: `*`.
    Unknown,
}

fn plan<'g, T: Iterator<Item = (&'g str, &'g str)> + Clone>(
    game: &PgnGame<'g, T>,
    slots: Vec<Move>,
    dialect: PgnDialect,
    losses: &mut Losses,
) -> Plan<'g> {
    // Rules other than 8x8 Othello were refused by the capability table already.
    let fen = start(game.rules, game.start, dialect, losses);
    let result = result(game.result, dialect, losses);
    let tags = tags(game, dialect, losses);
    Plan {
        slots,
        fen,
        result,
        tags,
    }
}

/// The FEN of a custom start (Edax only).
fn start(
    rules: Rules,
    start: Option<&StartPosition>,
    dialect: PgnDialect,
    losses: &mut Losses,
) -> Option<String> {
    let start = start?;
    if start.in_hand.is_some() {
        losses.plain.push("the discs in hand".to_owned());
    }
    let (discs, neutral) = rules.start_discs();
    let standard = Setup {
        discs,
        neutral,
        turn: Color::Black,
    };
    let setup = start.setup;
    if setup == standard {
        return None;
    }
    if dialect != PgnDialect::Edax {
        losses
            .fatal
            .push("a start position other than the standard one".to_owned());
        return None;
    }
    let on_board = BoardShape::Eight.cells();
    let two_colours = setup.discs[2].is_empty()
        && setup.discs[3].is_empty()
        && setup.neutral.is_empty()
        && matches!(setup.turn, Color::Black | Color::White);
    let fits = setup.discs[0].union(setup.discs[1]).difference(on_board) == SquareSet::EMPTY;
    if !two_colours || !fits {
        losses
            .fatal
            .push("a start position with discs a FEN tag cannot hold".to_owned());
        return None;
    }
    Some(fen(&setup))
}

/// Edax's FEN (formats.md §7.3): rank 8 first, `p` black, `P` white, side `b`/`w`.
fn fen(setup: &Setup) -> String {
    let mut out = String::new();
    for row in (0..8u8).rev() {
        let mut empties = 0;
        for col in 0..8u8 {
            let piece = Square::new(col, row).and_then(|sq| {
                if setup.discs[0].contains(sq) {
                    Some('p')
                } else if setup.discs[1].contains(sq) {
                    Some('P')
                } else {
                    None
                }
            });
            match piece {
                Some(p) => {
                    if empties > 0 {
                        let _ = write!(out, "{empties}");
                        empties = 0;
                    }
                    out.push(p);
                }
                None => empties += 1,
            }
        }
        if empties > 0 {
            let _ = write!(out, "{empties}");
        }
        if row > 0 {
            out.push('/');
        }
    }
    let side = if setup.turn == Color::White { 'w' } else { 'b' };
    let _ = write!(out, " {side} - - 0 1");
    out
}

/// The movetext slots. Thor drops passes (replay infers them); PlayOK and Edax write every
/// pass, inserting those the record leaves to replay. Colour claims that disagree with the
/// replay are lost (those that agree are no loss); the other claims on moves are listed by
/// `plan`.
fn movetext(record: &Record, dialect: PgnDialect, losses: &mut Losses) -> Vec<Move> {
    let insert_passes = dialect != PgnDialect::Thor;
    let mut slots = Vec::with_capacity(record.moves.len() + 2);
    // Replayed to insert passes and to check colour claims.
    let needed = insert_passes || record.moves.iter().any(|m| m.color.is_some());
    let mut replay = if needed && record.rules == Rules::default() {
        record.start_position().ok()
    } else {
        None
    };
    for (i, m) in record.moves.iter().enumerate() {
        let number = i + 1;
        if let Some(pos) = replay.as_mut() {
            if matches!(m.mv, Move::Place(_))
                && pos.must_pass()
                && pos.play(Move::Pass).is_ok()
                && insert_passes
            {
                slots.push(Move::Pass);
            }
        }
        let mover = replay.as_ref().map(Position::turn);
        if let Some(c) = m.color {
            if mover != Some(c) {
                losses.claims.on_move(Claim::Colour, number);
            }
        }
        if let Some(pos) = replay.as_mut() {
            if pos.play(m.mv).is_err() {
                replay = None;
            }
        }
        match m.mv {
            Move::Place(sq) => {
                if !BoardShape::Eight.contains(sq) {
                    losses
                        .fatal
                        .push(format!("the move {sq}, off the 8x8 board"));
                }
                slots.push(Move::Place(sq));
            }
            Move::Pass if insert_passes => slots.push(Move::Pass),
            Move::Pass => {}
        }
    }
    slots
}

fn result(claimed: Option<&ClaimedResult>, dialect: PgnDialect, losses: &mut Losses) -> PgnResult {
    let Some(claimed) = claimed else {
        return PgnResult::Unknown;
    };
    match claimed.termination {
        Termination::Normal => {}
        Termination::Unfinished if claimed.score.is_none() => {}
        other => losses.plain.extend(termination_phrase(other)),
    }
    match &claimed.score {
        ResultScore::None => PgnResult::Unknown,
        ResultScore::Discs(counts) => match counts.as_slice() {
            [b, w] => PgnResult::Discs(*b, *w),
            _ => {
                losses
                    .plain
                    .push(format!("a result of {} disc counts", counts.len()));
                PgnResult::Unknown
            }
        },
        ResultScore::Winner(w) if dialect == PgnDialect::Edax => PgnResult::Winner(*w),
        ResultScore::Winner(w) => {
            losses.plain.push(match w {
                Some(c) => format!("a result naming only the winner ({c}) without disc counts"),
                None => "a draw without disc counts".to_owned(),
            });
            PgnResult::Unknown
        }
        ResultScore::Margin(m) => {
            losses.plain.push(format!(
                "a result given only as a margin ({m:+}) without disc counts"
            ));
            if dialect == PgnDialect::Edax && m.is_finite() {
                PgnResult::Winner(if *m > 0.0 {
                    Some(Color::Black)
                } else if *m < 0.0 {
                    Some(Color::White)
                } else {
                    None
                })
            } else {
                PgnResult::Unknown
            }
        }
    }
}

/// The tag roster of each dialect, in its order; `true` marks tags always written.
const THOR_TAGS: &[(&str, bool)] = &[
    ("Event", true),
    ("Date", true),
    ("Result", true),
    ("Black", true),
    ("White", true),
];
const PLAYOK_TAGS: &[(&str, bool)] = &[
    ("Event", false),
    ("Site", false),
    ("Date", false),
    ("Round", false),
    ("Black", false),
    ("White", false),
    ("Result", true),
    ("Time", false),
    ("TimeControl", false),
    ("BlackElo", false),
    ("WhiteElo", false),
];
const EDAX_TAGS: &[(&str, bool)] = &[
    ("Event", true),
    ("Site", true),
    ("Date", true),
    ("Time", false),
    ("Round", true),
    ("Black", true),
    ("White", true),
    ("Result", true),
];

/// The tags to write, in order, with `Result` holding an empty value to fill in. Thor and
/// PlayOK have no place for other tags; Edax writes them after its roster (its reader
/// skips them).
fn tags<'g, T: Iterator<Item = (&'g str, &'g str)> + Clone>(
    game: &PgnGame<'g, T>,
    dialect: PgnDialect,
    losses: &mut Losses,
) -> Vec<(&'g str, Cow<'g, str>)> {
    let roster = match dialect {
        PgnDialect::Thor => THOR_TAGS,
        PgnDialect::PlayOk => PLAYOK_TAGS,
        PgnDialect::Edax | PgnDialect::Rgn => EDAX_TAGS,
    };
    let mut out = Vec::with_capacity(roster.len());
    for &(name, always) in roster {
        let value = if name == "Result" {
            Some(Cow::Borrowed(""))
        } else {
            game.tag(name).map(|v| clean_value(name, v, losses))
        };
        match value {
            Some(v) => out.push((name, v)),
            None if always => out.push((name, Cow::Borrowed(unknown_value(dialect, name)))),
            None => {}
        }
    }
    for (k, (name, value)) in game.tags.clone().enumerate() {
        let in_roster = roster.iter().any(|(n, _)| n.eq_ignore_ascii_case(name));
        let repeated = game
            .tags
            .clone()
            .take(k)
            .any(|(n, _)| n.eq_ignore_ascii_case(name));
        if in_roster && !repeated {
            continue;
        }
        let name_ok =
            !name.is_empty() && name.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'_');
        if repeated {
            losses.plain.push(format!("the repeated tag `{name}`"));
        } else if dialect == PgnDialect::Edax && name_ok && !name.eq_ignore_ascii_case("FEN") {
            out.push((name, clean_value(name, value, losses)));
        } else {
            losses.plain.push(tag_phrase(name));
        }
    }
    out
}

fn unknown_value(dialect: PgnDialect, name: &str) -> &'static str {
    match (dialect, name) {
        (PgnDialect::Edax, "Date") => "????.??.??",
        _ => "?",
    }
}

/// A tag value as PGN writes it: `\` and `"` escaped; line breaks and other control
/// characters cannot be held.
fn clean_value<'v>(name: &str, value: &'v str, losses: &mut Losses) -> Cow<'v, str> {
    if !value.contains(|c: char| c.is_control() || c == '\\' || c == '"') {
        return Cow::Borrowed(value);
    }
    if value.chars().any(char::is_control) {
        losses.plain.push(format!(
            "line breaks or control characters in the tag `{name}`"
        ));
    }
    let mut out = String::with_capacity(value.len() + 2);
    for c in value.chars() {
        match c {
            '\\' | '"' => {
                out.push('\\');
                out.push(c);
            }
            c if c.is_control() => out.push(' '),
            c => out.push(c),
        }
    }
    Cow::Owned(out)
}

fn push_tags(out: &mut String, plan: &Plan<'_>, result: &str) {
    for (name, value) in &plan.tags {
        let value = if *name == "Result" { result } else { value };
        out.push('[');
        out.push_str(name);
        out.push_str(" \"");
        out.push_str(value);
        out.push_str("\"]\n");
    }
}

/// Appends a movetext slot: its square (in capitals when `upper`), or `pass`.
fn push_slot(out: &mut String, slot: Move, upper: bool, pass: &'static str) {
    match slot {
        Move::Place(sq) if upper => out.extend(sq.name().chars().map(|c| c.to_ascii_uppercase())),
        _ => out.push_str(slot_str(slot, pass)),
    }
}

/// A movetext slot in lower case: its square, or `pass`.
fn slot_str(slot: Move, pass: &'static str) -> &'static str {
    match slot {
        Move::Place(sq) => sq.name(),
        Move::Pass => pass,
    }
}

// ---------------------------------------------------------------------------------------
// The dialects

/// `WTHOR-2004.r.pgn`: tags, then one numbered line per pair of written moves; a lone last
/// move keeps the pair's trailing space.
fn thor_text(plan: &Plan<'_>) -> String {
    let mut result = String::new();
    match plan.result {
        PgnResult::Discs(b, w) => {
            push_decimal(&mut result, usize::from(b));
            result.push('-');
            push_decimal(&mut result, usize::from(w));
        }
        _ => result.push('*'),
    }
    let mut out = String::with_capacity(256 + 8 * plan.slots.len());
    push_tags(&mut out, plan, &result);
    for (line, pair) in plan.slots.chunks(2).enumerate() {
        push_decimal(&mut out, line + 1);
        out.push_str(". ");
        push_slot(&mut out, pair[0], true, "");
        out.push(' ');
        if let Some(&second) = pair.get(1) {
            push_slot(&mut out, second, true, "");
        }
        out.push('\n');
    }
    out
}

/// Greedy word wrap at `width` columns.
struct Wrapper {
    out: String,
    column: usize,
    width: usize,
}

impl Wrapper {
    fn token(&mut self, token: &str) {
        if self.column > 0 {
            if self.column + 1 + token.len() > self.width {
                self.out.push('\n');
                self.column = 0;
            } else {
                self.out.push(' ');
                self.column += 1;
            }
        }
        self.out.push_str(token);
        self.column += token.len();
    }
}

/// `playok_sample.pgn`: tags, a blank line, numbered pairs wrapped at 79 columns, `--`
/// passes, the score after the movetext.
fn playok_text(plan: &Plan<'_>) -> String {
    let result = match plan.result {
        PgnResult::Discs(b, w) => format!("{b}-{w}"),
        _ => "*".to_owned(),
    };
    let mut w = Wrapper {
        out: String::new(),
        column: 0,
        width: 79,
    };
    push_tags(&mut w.out, plan, &result);
    w.out.push('\n');
    for (i, slot) in plan.slots.iter().enumerate() {
        if i % 2 == 0 {
            w.token(&format!("{}.", i / 2 + 1));
        }
        w.token(slot_str(*slot, "--"));
    }
    w.token(&result);
    w.out.push('\n');
    w.out
}

/// Edax 4.6's export without its bugs: one `Date`, `Time` only when known, no leading
/// space; `pass`; moves wrapped at 79 columns; the chess-style result after a
/// `{Black wins 34-30}` comment on its own line.
fn edax_text(plan: &Plan<'_>) -> String {
    let (result, comment) = match plan.result {
        PgnResult::Discs(b, w) => {
            let (r, c) = match b.cmp(&w) {
                std::cmp::Ordering::Greater => ("1-0", format!("{{Black wins {b}-{w}}}")),
                std::cmp::Ordering::Less => ("0-1", format!("{{White wins {b}-{w}}}")),
                std::cmp::Ordering::Equal => ("1/2-1/2", format!("{{Draw {b}-{w}}}")),
            };
            (r, Some(c))
        }
        PgnResult::Winner(Some(Color::Black)) => ("1-0", None),
        PgnResult::Winner(Some(_)) => ("0-1", None),
        PgnResult::Winner(None) => ("1/2-1/2", None),
        PgnResult::Unknown => ("*", None),
    };
    let mut out = String::new();
    push_tags(&mut out, plan, result);
    if let Some(fen) = &plan.fen {
        let _ = writeln!(out, "[FEN \"{fen}\"]");
    }
    out.push('\n');
    // Edax wraps near 80 columns and keeps a move number with its move.
    let mut w = Wrapper {
        out,
        column: 0,
        width: 79,
    };
    for (i, slot) in plan.slots.iter().enumerate() {
        let mv = slot_str(*slot, "pass");
        if i % 2 == 0 {
            w.token(&format!("{}. {mv}", i / 2 + 1));
        } else {
            w.token(mv);
        }
    }
    let mut out = w.out;
    if w.column > 0 {
        out.push('\n');
    }
    match comment {
        Some(c) => {
            let _ = writeln!(out, "{c} {result}");
        }
        None => {
            let _ = writeln!(out, "{result}");
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::record::{ClaimedResult, MoveRecord, StartPosition};

    fn game(moves: &str) -> Record {
        let mut r = Record::default();
        for i in (0..moves.len()).step_by(2) {
            let mv = &moves[i..i + 2];
            r.moves.push(MoveRecord::new(if mv == "--" {
                Move::Pass
            } else {
                Move::Place(mv.parse().unwrap())
            }));
        }
        r
    }

    fn text(record: &Record, dialect: PgnDialect) -> String {
        format_game(record, dialect, &WriteOptions::default())
            .unwrap()
            .0
    }

    #[test]
    fn fen_of_the_standard_start() {
        let (discs, neutral) = Rules::default().start_discs();
        let setup = Setup {
            discs,
            neutral,
            turn: Color::Black,
        };
        assert_eq!(fen(&setup), "8/8/8/3pP3/3Pp3/8/8/8 b - - 0 1");
    }

    #[test]
    fn edax_writes_fen_for_other_starts() {
        let mut r = game("e6");
        let (mut discs, neutral) = Rules::default().start_discs();
        discs[0].insert("a1".parse().unwrap());
        r.start = Some(StartPosition {
            setup: Setup {
                discs,
                neutral,
                turn: Color::Black,
            },
            in_hand: None,
            span: None,
        });
        let t = text(&r, PgnDialect::Edax);
        assert!(
            t.contains("[FEN \"8/8/8/3pP3/3Pp3/8/8/p7 b - - 0 1\"]\n"),
            "{t}"
        );
        let err = format_game(&r, PgnDialect::Thor, &WriteOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the target format cannot hold a start position other than the rules' own"
        );
    }

    #[test]
    fn explicit_passes_follow_the_dialect() {
        // The pass is not legal here, so replay stops and the moves are written as given.
        let mut r = game("f5--");
        r.result = Some(ClaimedResult::discs(vec![3, 1]));
        assert!(text(&r, PgnDialect::PlayOk).ends_with("\n1. f5 -- 3-1\n"));
        assert!(text(&r, PgnDialect::Thor).ends_with("1. F5 \n"));
        assert!(text(&r, PgnDialect::Edax).ends_with("\n1. f5 pass\n{Black wins 3-1} 1-0\n"));
    }

    #[test]
    fn losses_are_grouped_per_kind() {
        let mut r = game("f5d6c3d3c4f4f6");
        for m in &mut r.moves {
            m.eval = Some(1.0);
        }
        r.moves[2].comment = Some("nice".into());
        let err = format_game(&r, PgnDialect::PlayOk, &WriteOptions::default()).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the target format cannot hold a comment on move 3; 7 evaluations (on moves 1 to 7)"
        );
        let lossy = WriteOptions {
            lossy: true,
            ..WriteOptions::default()
        };
        let (t, dropped) = format_game(&r, PgnDialect::PlayOk, &lossy).unwrap();
        assert_eq!(dropped.len(), 2);
        assert!(t.contains("1. f5 d6 2. c3 d3"));
    }

    #[test]
    fn other_rules_are_refused_even_lossy() {
        let r = Record::new("anti:6x6".parse().unwrap());
        let lossy = WriteOptions {
            lossy: true,
            ..WriteOptions::default()
        };
        let err = format_game(&r, PgnDialect::Edax, &lossy).unwrap_err();
        assert_eq!(
            err.to_string(),
            "the target format cannot hold a 6x6 board (it holds 8x8); anti-reversi (fewest discs win)"
        );
    }
}
