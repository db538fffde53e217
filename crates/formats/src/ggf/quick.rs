//! The quick scan of one GGF game for the quick check ([`crate::engine::quick`]): the
//! properties of the plainest games (the ones a GGS archive holds: game type, names,
//! ratings, times, `TY`, the usual `BO`, a whole-number `RE`, moves with evals and times)
//! gathered without building a record or allocating. Anything the reader would have
//! something to say about, or that the scan does not follow exactly as the reader does (a
//! repeated property, a flag on `RE`, a start position, colours out of turn, a komi that
//! leaves a fractional margin), makes it give up, and the game is parsed in full.

use super::parse::{is_usual_start, parse_move_token, MAX_PROPERTIES};
use super::stream::PendingGame;
use super::ty::{canonical_type, GgfType, TyBoard};
use super::{TAG_IDS, TYPE_TAG};
use crate::bracketed::{same_id, value_len};
use crate::engine::quick::{code, QuickClaim, QuickMoves, PASS};
use crate::engine::{BoardShape, Move, Preset, Rules, Square};
use crate::record::TagName;
use crate::text::{parse_number, MAX_TAGS};
use std::str;

/// The most distinct properties other than moves a game the scan takes may hold.
const MAX_DISTINCT: usize = 32;

impl PendingGame {
    /// Scans the game into `moves` for the quick check, handing `tag` each tag the
    /// reader's record would have, in its order: the game's rules and claim, or `None`
    /// when the game must be read in full.
    #[doc(hidden)]
    pub fn scan(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        let (text, at) = self.plain()?;
        scan_game(text, at, self.default_rules(), moves, tag)
    }
}

/// The properties of the game at `text[at..]` (`(;` first), in order, up to `;)`; the
/// iteration stops early (with `failed` set) at anything the reader would report.
struct Properties<'t> {
    bytes: &'t [u8],
    at: usize,
    count: usize,
    failed: bool,
}

impl<'t> Properties<'t> {
    fn of(text: &'t str, at: usize) -> Properties<'t> {
        Properties {
            bytes: text.as_bytes(),
            at: at + 2,
            count: 0,
            failed: false,
        }
    }
}

impl<'t> Iterator for Properties<'t> {
    /// A property's ID and value, as bytes: most are moves, read as bytes.
    type Item = (&'t [u8], &'t [u8]);

    // Inlined into the scan's loop: most properties are moves, read in a few steps.
    #[inline(always)]
    fn next(&mut self) -> Option<(&'t [u8], &'t [u8])> {
        let bytes = self.bytes;
        // Offsets are found from what is left of the bytes: `bytes.len() - rest.len()`.
        let rest = bytes.get(self.at..).unwrap_or_default().trim_ascii_start();
        self.at = bytes.len() - rest.len();
        // Closed, or (unterminated, stray text, a missing or open value) reported.
        if rest.starts_with(b";)") {
            return None;
        }
        self.failed = true;
        if !rest.first()?.is_ascii_alphabetic() {
            return None;
        }
        let id_len = rest
            .iter()
            .position(|b| !b.is_ascii_alphanumeric())
            .unwrap_or(rest.len());
        let (id, rest) = rest.split_at(id_len);
        let gap = rest
            .iter()
            .take_while(|&&b| b == b' ' || b == b'\t')
            .count();
        let rest = rest[gap..].strip_prefix(b"[")?;
        let value = &rest[..value_len(rest, false)?];
        if self.count == MAX_PROPERTIES {
            return None;
        }
        self.count += 1;
        self.failed = false;
        // Past the value and its `]`.
        self.at = bytes.len() - (rest.len() - value.len() - 1);
        Some((id, value))
    }
}

/// The rules a canonical `TY` value names (`8`, `10a`, `88` ...), without parsing it.
fn canonical_rules(value: &str) -> Option<Rules> {
    let (board, anti) = match value.strip_suffix('a') {
        Some(board) => (board, true),
        None => (value, false),
    };
    let Some(TyBoard::Shape(board)) = TyBoard::from_token(board) else {
        return None;
    };
    let preset = if anti { Preset::Anti } else { Preset::Othello };
    Rules::preset(preset, board).ok()
}

/// The `BO` of standard Othello as GGS writes it: most games have it.
const STANDARD_BO: &str =
    "8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *";

/// Scans the game at `text[at..]`; `default_rules` are for a game without `TY`. One pass:
/// the moves go straight into `moves` (the board's bounds are checked at replay), the
/// other properties are noted, then read in their order once the rules are known.
fn scan_game(
    text: &str,
    at: usize,
    default_rules: Option<Rules>,
    moves: &mut QuickMoves,
    mut tag: impl FnMut(&str, &str),
) -> Option<(Rules, QuickClaim)> {
    moves.clear();
    // Colours must take turns, Black first, with every pass written: then each move's
    // colour is its mover's, as the validator checks.
    moves.require_written_passes();
    let mut black_next = true;
    // The other properties, each once (the reader warns of repeats).
    let mut others = [("", ""); MAX_DISTINCT];
    let mut distinct = 0;
    let mut props = Properties::of(text, at);
    for (id, value) in props.by_ref() {
        match id {
            b"B" | b"W" => {
                if (id == b"B") != black_next {
                    return None;
                }
                black_next = !black_next;
                let pushed = match parse_move(value)? {
                    Move::Pass => moves.push(PASS),
                    Move::Place(sq) => moves.push(code(sq.col(), sq.row())),
                };
                if !pushed {
                    return None;
                }
            }
            _ => {
                // Both ends are ASCII bytes: character boundaries of the text.
                let (id, value) = (str::from_utf8(id).ok()?, str::from_utf8(value).ok()?);
                if distinct == MAX_DISTINCT
                    || others[..distinct]
                        .iter()
                        .any(|(seen, _)| same_id(seen.as_bytes(), id.as_bytes()))
                {
                    return None;
                }
                others[distinct] = (id, value);
                distinct += 1;
            }
        }
    }
    if props.failed {
        return None;
    }
    let others = &others[..distinct];
    let find = |wanted: &str| others.iter().find(|(id, _)| *id == wanted).map(|(_, v)| *v);
    if find("GM").is_some_and(|gm| !gm.trim().eq_ignore_ascii_case("othello")) {
        return None;
    }
    let bo = find("BO");
    let rules = match find("TY") {
        Some(value) => match canonical_rules(value) {
            Some(rules) => rules,
            None => {
                let parsed = GgfType::parse(value);
                let Some(TyBoard::Shape(board)) = parsed.board.filter(|_| parsed.errors.is_empty())
                else {
                    return None;
                };
                let preset = if parsed.anti {
                    Preset::Anti
                } else {
                    Preset::Othello
                };
                let rules = Rules::preset(preset, board).unwrap_or_default();
                if value != canonical_type(&rules) {
                    tag(TYPE_TAG, value);
                }
                rules
            }
        },
        None => {
            let bo_board = bo
                .and_then(|v| v.split_whitespace().next())
                .and_then(TyBoard::from_token)
                .and_then(|b| match b {
                    TyBoard::Shape(shape) => Some(shape),
                    TyBoard::Unsupported(_) => None,
                });
            let rules = Rules::preset(Preset::Othello, bo_board.unwrap_or(BoardShape::Eight))
                .unwrap_or_default();
            match default_rules {
                Some(given)
                    if given.players() == 2 && bo_board.map_or(true, |b| b == given.board()) =>
                {
                    given
                }
                _ => rules,
            }
        }
    };
    let usual_start = |value: &str| {
        value == STANDARD_BO && rules == Rules::default() || is_usual_start(value, &rules)
    };
    if bo.is_some_and(|value| !usual_start(value)) {
        return None;
    }
    let (mut margin, mut komi) = (None, None);
    // One short of the reader's limit: its `GgfType` tag may come first.
    if others.len() + 1 >= MAX_TAGS {
        return None;
    }
    for &(id, value) in others {
        match id {
            "GM" | "TY" | "BO" | "CO" => {}
            "RE" => margin = Some(parse_number(value.trim())?),
            _ => {
                if matches!(id, "KB" | "KW") && !komi_bid_fits(value) {
                    return None;
                }
                let name = tag_name(id);
                if komi.is_none() && name.eq_ignore_ascii_case(TagName::KOMI) {
                    komi = Some(value);
                }
                tag(name, value);
            }
        }
    }
    let claim = match margin {
        None => QuickClaim::Nothing,
        Some(re) => {
            let margin = if rules.is_anti() && re != 0.0 {
                -re
            } else {
                re
            };
            // Under a komi the margin is not the board's, and a conversion keeps it as it
            // is: for the reader.
            let komi: f64 = komi.and_then(|k| k.trim().parse().ok()).unwrap_or(0.0);
            // The board's margin the validator accepts (within 0.011 of the claim), when
            // the claim leaves no doubt which whole number it is.
            let board = margin.round();
            if komi != 0.0 || (margin - board).abs() >= 0.005 || board.abs() > 1000.0 {
                return None;
            }
            QuickClaim::Margin(board as i16, margin)
        }
    };
    Some((rules, claim))
}

/// The tag a property other than the structural ones becomes.
fn tag_name(id: &str) -> &str {
    TAG_IDS
        .iter()
        .find(|(tid, _)| same_id(tid.as_bytes(), id.as_bytes()))
        .map_or(id, |(_, name)| name)
}

/// A move `move/eval/time` the reader reads without a word: at most three parts, a move,
/// numbers or nothing after it.
#[inline]
fn parse_move(value: &[u8]) -> Option<Move> {
    // Most moves are a square alone, a letter and a digit (`f5`), or a pass (`PA`): taken
    // at once, in the scan's loop.
    match *value {
        [b'P', b'A'] => Some(Move::Pass),
        [column, row @ b'1'..=b'9'] if (column | 0x20).wrapping_sub(b'a') < 10 => {
            Square::new((column | 0x20) - b'a', row - b'1').map(Move::Place)
        }
        _ => parse_move_in_parts(value),
    }
}

/// [`parse_move`], the value split into its parts.
#[inline(never)]
fn parse_move_in_parts(value: &[u8]) -> Option<Move> {
    // Most moves start with a square as a letter and a digit (`f5/0.00/1.23`): taken at
    // once, and the eval and time after it split as below.
    let (mv, mut parts) = match *value {
        [column, row @ b'1'..=b'9', ref rest @ ..]
            if (column | 0x20).wrapping_sub(b'a') < 10 && matches!(rest, [] | [b'/', ..]) =>
        {
            let square = Square::new((column | 0x20) - b'a', row - b'1')?;
            let mut parts = str::from_utf8(rest).ok()?.split('/');
            // The empty text before the first `/`, or before the end.
            parts.next();
            (Move::Place(square), parts)
        }
        _ => {
            let mut parts = str::from_utf8(value).ok()?.split('/');
            (parse_move_token(parts.next()?.trim())?, parts)
        }
    };
    for _ in 0..2 {
        match parts.next().map(str::trim) {
            Some(n) if !n.is_empty() && parse_number(n).is_none() => return None,
            _ => {}
        }
    }
    parts.next().is_none().then_some(mv)
}

/// Whether a komi bid reads as the reader's check wants it (`move/eval/time`, any part
/// empty).
fn komi_bid_fits(value: &str) -> bool {
    let mut parts = value.split('/').map(str::trim);
    let first = parts.next().unwrap_or_default();
    let mut count = 1;
    let rest_fit = parts.all(|n| {
        count += 1;
        n.is_empty() || parse_number(n).is_some()
    });
    count <= 3 && rest_fit && (first.is_empty() || parse_move_token(first).is_some())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_move_at_once_reads_as_the_move_split_into_parts() {
        // The move read without the shortcut: its parts split, the first one a token.
        let split = |value: &str| {
            let mut parts = value.split('/');
            let mv = parse_move_token(parts.next()?.trim())?;
            for _ in 0..2 {
                match parts.next().map(str::trim) {
                    Some(n) if !n.is_empty() && parse_number(n).is_none() => return None,
                    _ => {}
                }
            }
            parts.next().is_none().then_some(mv)
        };
        for value in [
            "f5", "F5", "j9", "J9", "a1/", "f5/1.2/3", "f5//0.5", "f5/1/2/3", "f5///", "f5/x",
            "f5 /1", " f5", "f55", "f5x", "k5", "a0", "j10/1", "pass", "PA", "--", "", "/",
        ] {
            let bytes = value.as_bytes();
            assert_eq!(parse_move(bytes), split(value), "{value:?}");
            assert_eq!(
                parse_move_in_parts(bytes),
                split(value),
                "{value:?} in parts"
            );
        }
    }

    /// What a scan gives: rules, claim, moves, tags.
    type Scanned = (Rules, QuickClaim, Vec<u8>, Vec<(String, String)>);

    fn scan(text: &str) -> Option<Scanned> {
        let mut moves = QuickMoves::default();
        let mut tags = Vec::new();
        let at = text.find("(;")?;
        let (rules, claim) = scan_game(text, at, None, &mut moves, |n, v| {
            tags.push((n.to_owned(), v.to_owned()))
        })?;
        Some((rules, claim, moves.as_slice().to_vec(), tags))
    }

    #[test]
    fn a_ggs_game_is_scanned() {
        let (rules, claim, moves, tags) = scan(
            "(;GM[Othello]PC[GGS/os]PB[a]PW[b]RB[2000.1]TY[8]RE[+18.000]\
             BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]\
             B[f5//1.2]W[d6/-0.5/3]B[PA];)",
        )
        .unwrap();
        assert_eq!(rules, Rules::default());
        assert_eq!(claim, QuickClaim::Margin(18, 18.0));
        assert_eq!(moves, [code(5, 4), code(3, 5), PASS]);
        let names: Vec<&str> = tags.iter().map(|(n, _)| n.as_str()).collect();
        assert_eq!(names, ["Site", "Black", "White", "BlackElo"]);
    }

    #[test]
    fn anti_negates_the_margin_and_a_komi_gives_up() {
        assert_eq!(scan("(;TY[8]KM[-2.5]RE[+4.5]B[f5];)"), None);
        let (_, claim, _, _) = scan("(;TY[8]KM[0]RE[+4]B[f5];)").unwrap();
        assert_eq!(claim, QuickClaim::Margin(4, 4.0));
        let (rules, claim, _, tags) = scan("(;TY[8 a]RE[+4]B[f5];)").unwrap();
        assert!(rules.is_anti());
        assert_eq!(claim, QuickClaim::Margin(-4, -4.0));
        assert_eq!(tags, [(TYPE_TAG.to_owned(), "8 a".to_owned())]);
    }

    #[test]
    fn anything_unusual_gives_up() {
        for text in [
            "(;GM[Go]B[f5];)",
            "(;TY[8]TY[8]B[f5];)",
            "(;TY[12]B[f5];)",
            "(;TY[8x]B[f5];)",
            "(;RE[+4:r]B[f5];)",
            "(;RE[?]B[f5];)",
            "(;KM[0.3]RE[+4]B[f5];)",
            "(;B[f5]B[d6];)",
            "(;W[f5];)",
            "(;B[k5];)",
            "(;B[f5/x];)",
            "(;B[f5/1/2/3];)",
            "(;KB[z9];)",
            "(;BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- O]B[f5];)",
            "(;B f5];)",
            "(;B[f5]",
            "(;B[f5] ! ;)",
            "(;B[f5",
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }
}
