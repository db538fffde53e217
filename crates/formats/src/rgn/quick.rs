//! The quick scan of one RGN/PGN game for the quick check ([`crate::engine::quick`]):
//! one pass over the bytes that takes only the plainest games (simple tags, squares,
//! passes, move numbers, plain comments, flip claims, `B:` and `W:` colour prefixes, a
//! disc-count result) and gathers their moves and claims without allocating. Anything
//! else (escapes, boards, comment commands, other results, a `Start`, `FEN` or
//! `Termination` tag) makes it give up, and the game is parsed in full.

use crate::engine::quick::{claimed_bit, code, QuickClaim, QuickMoves, PASS};
use std::ops::Range;

use crate::engine::Rules;

/// What a scanned game claims: Black's and White's scores, when it gives a result.
pub(crate) type Claim = Option<(u8, u8)>;

/// A game's `bytes` as text when the reader has nothing to say of the text itself (UTF-8,
/// no NUL byte): the first condition for a game to be plain.
#[doc(hidden)]
pub fn plain_text(bytes: &[u8]) -> Option<&str> {
    // A control character (a NUL among them) is reported and replaced by the full reader.
    std::str::from_utf8(bytes)
        .ok()
        .filter(|text| !crate::text::has_control(text))
}

/// The quick scan of a game for a caller that keeps none of its annotations (the quick
/// check, a read-back): its `bytes` must be [`plain_text`], then [`scan_with_tags`] with
/// [`Annotations::Dropped`], each tag handed to `tag` as its name and value.
#[doc(hidden)]
pub fn scan_plain(
    bytes: &[u8],
    rules: Rules,
    moves: &mut QuickMoves,
    mut tag: impl FnMut(&str, &str),
) -> Option<(Rules, QuickClaim)> {
    let text = plain_text(bytes)?;
    let (rules, claim) = scan_with_tags(bytes, rules, moves, Annotations::Dropped, |n, v| {
        // Names and values lie between ASCII bytes: character boundaries.
        if let (Some(name), Some(value)) = (text.get(n), text.get(v)) {
            tag(name, value);
        }
    })?;
    Some((rules, QuickClaim::of_discs(claim)))
}

/// What the scan does with a comment, a flip claim or a colour prefix.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
#[doc(hidden)]
pub enum Annotations {
    /// Skips a plain comment; hands a flip claim to the quick check, to be compared with
    /// what the move flips; takes a two-player game's colour prefixes when they name the
    /// players by turns, with its passes written ([`QuickMoves::require_written_passes`]:
    /// then every prefix names the mover). For a caller that keeps none of them.
    Dropped,
    /// Gives up (for a caller that would have to keep them).
    GiveUp,
}

/// Scans a game's `bytes` into `moves`: its rules (`rules` unless a `Rules` tag says
/// otherwise) and its claim; `None` when the game is not plain enough. `tag_found` is
/// handed where the name and value of each tag a record keeps as a tag (all but `Rules`
/// and `Result`) lie in `bytes`, in order. The tags of a game the scan
/// gives up on are handed out up to where it gave up.
#[doc(hidden)]
pub fn scan_with_tags(
    bytes: &[u8],
    rules: Rules,
    moves: &mut QuickMoves,
    annotations: Annotations,
    mut tag_found: impl FnMut(Range<usize>, Range<usize>),
) -> Option<(Rules, Claim)> {
    moves.clear();
    let mut rules = rules;
    let mut pos = skip_ws(bytes, 0);
    let mut tag_result: Claim = None;
    let mut rules_tag = false;
    while bytes.get(pos) == Some(&b'[') {
        let (name_at, value_at, end) = tag(bytes, pos)?;
        let (name, value) = (&bytes[name_at.clone()], &bytes[value_at.clone()]);
        if name.eq_ignore_ascii_case(b"Result") {
            if tag_result.is_some() {
                return None;
            }
            tag_result = Some(score(trim(value))?);
        } else if name.eq_ignore_ascii_case(b"Rules") {
            if rules_tag {
                return None;
            }
            rules_tag = true;
            rules = std::str::from_utf8(value).ok()?.parse().ok()?;
        } else if [&b"Start"[..], b"Termination", b"FEN"]
            .iter()
            .any(|special| name.eq_ignore_ascii_case(special))
        {
            return None;
        } else {
            tag_found(name_at, value_at);
        }
        pos = skip_ws(bytes, end);
    }
    let colours = annotations == Annotations::Dropped && rules.players() == 2;
    let text_result = movetext(bytes, pos, moves, annotations, colours)?;
    match (tag_result, text_result) {
        (Some(t), Some(m)) if t != m => None,
        (t, m) => Some((rules, t.or(m))),
    }
}

fn skip_ws(bytes: &[u8], mut pos: usize) -> usize {
    while bytes.get(pos).is_some_and(u8::is_ascii_whitespace) {
        pos += 1;
    }
    pos
}

fn trim(mut value: &[u8]) -> &[u8] {
    while let [first, rest @ ..] = value {
        if !first.is_ascii_whitespace() {
            break;
        }
        value = rest;
    }
    while let [rest @ .., last] = value {
        if !last.is_ascii_whitespace() {
            break;
        }
        value = rest;
    }
    value
}

/// A plain tag `[Name "value"]` at `pos`: where its name and value are, and its end. `None`
/// for anything else: an escape in the value, no closing quote or bracket on the line.
fn tag(bytes: &[u8], pos: usize) -> Option<(Range<usize>, Range<usize>, usize)> {
    let blank = |b: &u8| *b == b' ' || *b == b'\t';
    let mut i = pos + 1;
    while bytes.get(i).is_some_and(blank) {
        i += 1;
    }
    let name_start = i;
    if !bytes.get(i)?.is_ascii_alphabetic() {
        return None;
    }
    while bytes
        .get(i)
        .is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_')
    {
        i += 1;
    }
    let name = name_start..i;
    while bytes.get(i).is_some_and(blank) {
        i += 1;
    }
    if bytes.get(i) != Some(&b'"') {
        return None;
    }
    let value_start = i + 1;
    let close = value_start + bytes[value_start..].iter().position(|&b| b == b'"')?;
    let value = value_start..close;
    if bytes[value.clone()]
        .iter()
        .any(|&b| b == b'\\' || b == b'\n')
    {
        return None;
    }
    i = close + 1;
    while bytes.get(i).is_some_and(blank) {
        i += 1;
    }
    (bytes.get(i) == Some(&b']')).then_some((name, value, i + 1))
}

/// A disc-count result `B-W` (two numbers; `1-0` and `0-1` name a winner instead).
fn score(text: &[u8]) -> Option<(u8, u8)> {
    let dash = text.iter().position(|&b| b == b'-')?;
    let (black, white) = (&text[..dash], &text[dash + 1..]);
    if matches!(text, b"1-0" | b"0-1") {
        return None;
    }
    Some((number(black)?, number(white)?))
}

/// A decimal number of at most 3 digits that fits a `u8`.
fn number(digits: &[u8]) -> Option<u8> {
    if digits.is_empty() || digits.len() > 3 || !digits.iter().all(u8::is_ascii_digit) {
        return None;
    }
    let n = digits
        .iter()
        .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
    u8::try_from(n).ok()
}

/// The colour prefix at `pos` (`B:`, `w:` ...), glued to its move: where the move starts.
/// Black's on the moves of even index (passes counted), White's on the others, and only
/// when `colours`; then every pass counts as written.
fn colour_prefix(bytes: &[u8], pos: usize, moves: &mut QuickMoves, colours: bool) -> Option<usize> {
    let named = usize::from(matches!(bytes.get(pos), Some(b'W' | b'w')));
    let turn = moves.as_slice().len() % 2;
    let glued = starts_move(bytes.get(pos + 2)) && bytes.get(pos + 3) != Some(&b':');
    if !colours || named != turn || !glued {
        return None;
    }
    moves.require_written_passes();
    Some(pos + 2)
}

/// Whether a move, square or pass, may start with `b` (what follows a colour prefix).
fn starts_move(b: Option<&u8>) -> bool {
    b.is_some_and(|b| matches!(b, b'a'..=b'j' | b'A'..=b'J' | b'-' | b'@' | b'p' | b'P'))
}

/// Whether `b` ends a movetext word, as the parser splits words (ASCII whitespace and the
/// bytes that open a comment or a board; other whitespace makes the scan give up).
#[inline]
fn ends_word(b: Option<&u8>) -> bool {
    match b {
        None => true,
        Some(b) => b.is_ascii_whitespace() || matches!(b, b'{' | b';' | b'<'),
    }
}

/// The movetext from `pos`: moves into `moves`, and the result after them, if any. One
/// pass over the bytes; every token must end where the parser's word would. `colours`:
/// whether `B:` and `W:` prefixes may name the players by turns.
fn movetext(
    bytes: &[u8],
    mut pos: usize,
    moves: &mut QuickMoves,
    annotations: Annotations,
    colours: bool,
) -> Option<Claim> {
    let mut result: Claim = None;
    while let Some(&b) = bytes.get(pos) {
        match b {
            b if b.is_ascii_whitespace() => pos += 1,
            b'B' | b'b' | b'W' | b'w' if bytes.get(pos + 1) == Some(&b':') => {
                pos = colour_prefix(bytes, pos, moves, colours)?;
            }
            b'a'..=b'j' | b'A'..=b'J' => {
                let (col, row, len) = square(&bytes[pos..])?;
                pos += len;
                if result.is_some() || !moves.push(code(col, row)) {
                    return None;
                }
                if bytes.get(pos) == Some(&b'(') && annotations == Annotations::Dropped {
                    pos = flip_claim(bytes, pos, moves)?;
                }
                if !ends_word(bytes.get(pos)) {
                    return None;
                }
            }
            b'0'..=b'9' => {
                let (first, end) = digits(bytes, pos);
                match bytes.get(end) {
                    // A move number: its dots, then whatever follows, even with no space.
                    Some(b'.') => {
                        pos = end;
                        while bytes.get(pos) == Some(&b'.') {
                            pos += 1;
                        }
                    }
                    Some(b'-') => {
                        let (second, end) = digits(bytes, end + 1);
                        let score = (number(first)?, number(second)?);
                        if result.is_some()
                            || !ends_word(bytes.get(end))
                            || matches!(score, (1, 0) | (0, 1))
                                && first.len() == 1
                                && second.len() == 1
                        {
                            return None;
                        }
                        result = Some(score);
                        pos = end;
                    }
                    _ => return None,
                }
            }
            b'{' | b';' if annotations == Annotations::GiveUp => return None,
            b'{' => {
                let close = pos + memchr::memchr(b'}', &bytes[pos..])?;
                let inside = &bytes[pos + 1..close];
                if memchr::memchr(b'\\', inside).is_some()
                    || memchr::memmem::find(inside, b"[%").is_some()
                {
                    return None;
                }
                pos = close + 1;
            }
            b';' => pos += memchr::memchr(b'\n', &bytes[pos..]).unwrap_or(bytes.len() - pos),
            _ => {
                // Passes: `--`, `@@`, `@@@@`, `pass`, `pa`, `ps` (any case).
                let end = pos
                    + bytes[pos..]
                        .iter()
                        .position(|b| ends_word(Some(b)))
                        .unwrap_or(bytes.len() - pos);
                let w = &bytes[pos..end];
                let pass = matches!(w, b"--" | b"@@" | b"@@@@")
                    || [&b"pass"[..], b"pa", b"ps"]
                        .iter()
                        .any(|p| w.eq_ignore_ascii_case(p));
                if !pass || result.is_some() || !moves.push(PASS) {
                    return None;
                }
                pos = end;
            }
        }
    }
    Some(result)
}

/// The flip claim at `pos` (its `(`), handed to `moves` for the move before it: `(?)`,
/// `(count)`, `(count:squares)` or `(squares)`, squares separated by commas (none: a
/// claim that nothing flipped), as the parser reads it. Returns where it ends; `None` for
/// anything the scan does not follow, and for a count that is not the number of the
/// squares beside it (a claim that cannot hold, for the full validator to report).
fn flip_claim(bytes: &[u8], pos: usize, moves: &mut QuickMoves) -> Option<usize> {
    let start = pos + 1;
    let mut rest = bytes.get(start..)?;
    if rest.starts_with(b"?)") {
        return Some(start + 2);
    }
    let mut count = None;
    if rest.first().is_some_and(u8::is_ascii_digit) {
        let (digits, end) = digits(bytes, start);
        count = Some(number(digits)?);
        match bytes.get(end) {
            Some(b')') => return moves.claim_flips(count, None).then_some(end + 1),
            Some(b':') => rest = &bytes[end + 1..],
            _ => return None,
        }
    }
    let mut squares = 0u128;
    if let [b')', tail @ ..] = rest {
        rest = tail;
    } else {
        loop {
            let (col, row, len) = square(rest)?;
            squares |= claimed_bit(col, row);
            match rest.get(len) {
                Some(b',') => rest = &rest[len + 1..],
                Some(b')') => {
                    rest = &rest[len + 1..];
                    break;
                }
                _ => return None,
            }
        }
    }
    // With its squares, a count holds exactly when they do, if it is their number.
    if count.is_some_and(|count| u32::from(count) != squares.count_ones()) {
        return None;
    }
    moves
        .claim_flips(None, Some(squares))
        .then_some(bytes.len() - rest.len())
}

/// The square at the start of `rest` (`d4`, `J10`): its column, its row and its length.
#[inline]
fn square(rest: &[u8]) -> Option<(u8, u8, usize)> {
    let (column, row, len) = match rest {
        [column, b'1', b'0', ..] => (column, 9, 3),
        [column, row @ b'1'..=b'9', ..] => (column, row - b'1', 2),
        _ => return None,
    };
    // Lower case, and every byte that is not a column letter to 10 or above.
    let column = (column | 0x20).wrapping_sub(b'a');
    (column < 10).then_some((column, row, len))
}

/// The run of ASCII digits at `pos`, and where it ends.
fn digits(bytes: &[u8], pos: usize) -> (&[u8], usize) {
    let start = pos.min(bytes.len());
    let len = bytes[start..]
        .iter()
        .take_while(|b| b.is_ascii_digit())
        .count();
    (&bytes[start..start + len], start + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The scan without its tags.
    fn scan(bytes: &[u8], rules: Rules, moves: &mut QuickMoves) -> Option<(Rules, Claim)> {
        scan_with_tags(bytes, rules, moves, Annotations::Dropped, |_, _| {})
    }

    fn scanned(text: &str) -> Option<(Vec<u8>, Claim)> {
        let mut moves = QuickMoves::default();
        let (_, claim) = scan(text.as_bytes(), Rules::default(), &mut moves)?;
        Some((moves.as_slice().to_vec(), claim))
    }

    #[test]
    fn plain_games_are_scanned() {
        let (moves, claim) = scanned(
            "[Event \"x\"]\n[Result \"41-23\"]\n1. F5 d6 2.c3 -- {fine} ; note\n3. e6 41-23",
        )
        .unwrap();
        assert_eq!(
            moves,
            [code(5, 4), code(3, 5), code(2, 2), PASS, code(4, 5)]
        );
        assert_eq!(claim, Some((41, 23)));
        assert_eq!(scanned("1. f5").unwrap().1, None);
        let mut moves = QuickMoves::default();
        let (rules, _) = scan(
            b"[Rules \"othello:10x10\"]\n1. j10",
            Rules::default(),
            &mut moves,
        )
        .unwrap();
        assert_eq!(rules.to_string(), "othello:10x10");
        assert_eq!(moves.as_slice(), [code(9, 9)]);
    }

    /// Whether the quick check passes the 4x4 game `text` (`None`: the scan gives up).
    fn claims_hold(text: &str) -> Option<bool> {
        let mut moves = QuickMoves::default();
        let rules: Rules = "othello:4x4".parse().unwrap();
        let (rules, claim) = scan(text.as_bytes(), rules, &mut moves)?;
        Some(moves.clean_score(&rules, claim).is_some())
    }

    #[test]
    fn flip_claims_are_scanned_and_checked() {
        // 4x4: Black's a2 flips b2, and so on to the end: Black passes before White's
        // b4, which flips b3 and c4, and Black's a4 fills the board.
        let game = |claims: [&str; 12]| {
            let moves = [
                "a2", "a1", "c4", "d2", "d1", "d4", "d3", "a3", "b1", "c1", "b4", "a4",
            ];
            let mut text = String::new();
            for (mv, claim) in moves.iter().zip(claims) {
                text.push_str(mv);
                text.push_str(claim);
                text.push(' ');
            }
            text
        };
        let none = [""; 12];
        assert_eq!(claims_hold(&game(none)), Some(true));
        let mut first = none;
        for (claim, holds) in [
            ("(b2)", true),
            ("(B2)", true),
            ("(1)", true),
            ("(1:b2)", true),
            ("(1:b2,b2)", true),
            ("(?)", true),
            ("(b2,c2)", false),
            ("()", false),
            ("(2)", false),
            ("(2:b2,b3)", false),
            ("(j10)", false),
        ] {
            first[0] = claim;
            assert_eq!(claims_hold(&game(first)), Some(holds), "{claim}");
        }
        // A count that is not the number of the squares beside it cannot hold: the scan
        // leaves the claim to the full validator.
        for claim in ["(0:b2)", "(1:)", "(2:b2)", "(2:b2,b2)"] {
            first[0] = claim;
            assert_eq!(claims_hold(&game(first)), None, "{claim}");
        }
        // A claim on a later move, after the pass the record leaves out.
        let mut late = none;
        for (claim, holds) in [
            ("(b3,c4)", true),
            ("(c4,b3)", true),
            ("(2)", true),
            ("(b3)", false),
        ] {
            late[10] = claim;
            assert_eq!(claims_hold(&game(late)), Some(holds), "b4{claim}");
        }
    }

    #[test]
    fn colour_prefixes_name_the_players_by_turns() {
        let scanned_moves = |text: &str| {
            let mut moves = QuickMoves::default();
            scan(text.as_bytes(), Rules::default(), &mut moves)?;
            Some(moves.as_slice().to_vec())
        };
        let plain = scanned_moves("1. f5 d6 2. c3 --").unwrap();
        for text in [
            "1. B:f5 W:d6 2. B:c3 W:--",
            "1. b:f5 w:d6 2.B:c3 w:pass",
            "1. f5 W:d6 2. c3 W:@@",
        ] {
            assert_eq!(scanned_moves(text).as_ref(), Some(&plain), "{text}");
        }
        // Prefixes make every pass count as written: a missing one fails the check.
        let holds = |text: &str| {
            let mut moves = QuickMoves::default();
            let (rules, claim) = scan(text.as_bytes(), Rules::default(), &mut moves)?;
            Some(moves.clean_score(&rules, claim).is_some())
        };
        let game = "f5 d6 c3 d3 c4 f4 f6 f3 e6 e7 d7 g6 f8 f7 g5 h6 h4 g4 h3 g3 h5 c5 e3 \
            d8 e8 c6 b4 a3 b5 a6 b3 b6 a5 a4 c8 g8 h7 b8 e2 f2 f1 e1 g1 d1 c7 a8 g7 h8 c2 \
            c1 b1 b2 a1 a2 a7 d2 g2 h2 h1 b7";
        let Some(clean) = holds(game) else {
            panic!("the bare game is scanned")
        };
        let coloured: Vec<String> = game
            .split_whitespace()
            .enumerate()
            .map(|(i, mv)| format!("{}:{mv}", ["B", "W"][i % 2]))
            .collect();
        assert_eq!(
            holds(&coloured.join(" ")),
            Some(clean && !game.contains("--"))
        );
        for text in [
            "1. W:f5",
            "1. B:f5 B:d6",
            "1. R:f5",
            "1. B: f5",
            "1. B:B:f5",
            "1. B:41-23",
            "1. B:{x} f5",
            "1. f5 W:",
        ] {
            assert_eq!(scanned(text), None, "{text}");
        }
        // Three players, or a caller that keeps the prefixes: the full parser reads them.
        let mut moves = QuickMoves::default();
        let multi: Rules = "multi3".parse().unwrap();
        assert!(scan(b"B:f5", multi, &mut moves).is_none());
        let kept = scan_with_tags(
            b"B:f5",
            Rules::default(),
            &mut moves,
            Annotations::GiveUp,
            |_, _| {},
        );
        assert!(kept.is_none());
    }

    #[test]
    fn anything_unusual_gives_up() {
        for text in [
            "[Result \"1-0\"]\n1. f5",
            "[Result \"41-23\"]\n1. f5 40-24",
            "[Result \"41-23\"]\n[Result \"41-23\"]\n1. f5",
            "[Rules \"nonsense\"]\n1. f5",
            "[Rules \"anti\"]\n[Rules \"anti\"]\n1. f5",
            "[Start \"x\"]\n1. f5",
            "[Event \"a\\\"b\"]\n1. f5",
            "[Event \"x\"\n1. f5",
            "1. f5(e5 d6",
            "1. f5(e5,) d6",
            "1. f5(,e5) d6",
            "1. f5(e5)x d6",
            "1. f5(e11) d6",
            "1. f5(e0) d6",
            "1. f5(300) d6",
            "1. f5(1:e5:e6) d6",
            "1. f5(?e5) d6",
            "1. f5(e5;e6) d6",
            "1. --(0) d6",
            "1. f5 {[%eval 1]}",
            "1. f5 <board>",
            "1. k5",
            "1. a11",
            "1. a0",
            "1. f5!",
            "1. f5 41-23 d6",
            "1. f5 300-1",
            "1. f5 {open",
        ] {
            assert_eq!(scanned(text), None, "{text}");
        }
    }
}
