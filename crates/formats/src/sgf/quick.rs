//! The quick scan of one SGF game tree for the quick check ([`crate::engine::quick`]): the
//! plainest trees (one line of nodes without variations or escapes, upper-case IDs, the
//! rules' own start if any, a margin or `0` as the result, moves taking turns) gathered
//! from the raw bytes without decoding them, building a record or allocating. Anything the
//! reader would have something to say about, or that the scan does not follow exactly as
//! the reader does, makes it give up, and the tree is parsed in full.

use super::charset::Charset;
use super::parse::parse_point;
use super::stream::PendingTree;
use super::TAG_IDS;
use crate::bracketed::{same_id, value_len};
use crate::engine::quick::{code, QuickClaim, QuickMoves, PASS};
use crate::engine::{BoardShape, Color, Move, Rules, Setup, SquareSet};
use crate::record::TagName;
use crate::text::parse_number;
use std::ops::Range;
use std::str;

/// The most distinct root properties a tree the scan takes may hold.
const MAX_ROOT: usize = 32;

/// The most nodes and values a tree the scan takes may hold, well below the reader's
/// limit.
const MAX_ITEMS: usize = 400;

impl PendingTree {
    /// Scans the tree into `moves` for the quick check, handing `tag` each tag the
    /// reader's record would have, in its order: the game's rules and claim, or `None`
    /// when the tree must be read in full.
    #[doc(hidden)]
    pub fn scan(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        let (text, at) = self.plain()?;
        scan_tree(text, at, moves, tag)
    }
}

/// One property of the root: its ID and values, as `text` ranges of the first value and
/// of all of them (`[a][b]`).
#[derive(Clone, Copy, Default)]
struct RootProp<'t> {
    id: &'t str,
    first: &'t str,
    /// From the first value's `[` to the last value's `]`.
    values: &'t str,
}

impl<'t> RootProp<'t> {
    /// The root property `prop`, its ID at `text[at..]` (its parts end in ASCII:
    /// character boundaries).
    fn of(text: &'t str, at: usize, (id, first, values): Property<'t>) -> Option<RootProp<'t>> {
        let values = text.get(values)?;
        Some(RootProp {
            id: text.get(at..at + id.len())?,
            first: values.get(1..1 + first.len())?,
            values,
        })
    }

    /// Each value, in order.
    fn each(&self) -> impl Iterator<Item = &'t str> {
        // Most properties have one value, their first (`[first]`): not split.
        let single = self.values.len() == self.first.len() + 2;
        let (first, values) = if single {
            (Some(self.first), "")
        } else {
            (None, self.values)
        };
        first.into_iter().chain(
            values
                .split(']')
                .filter_map(|v| v.trim_start().strip_prefix('[')),
        )
    }
}

/// A property's ID and first value, as bytes (most are moves, read as bytes), and where
/// all its values are (from the first `[` to the last `]`).
type Property<'t> = (&'t [u8], &'t [u8], Range<usize>);

/// A cursor over a tree's bytes.
struct Cursor<'t> {
    bytes: &'t [u8],
    i: usize,
    items: usize,
}

impl<'t> Cursor<'t> {
    #[inline]
    fn skip_ws(&mut self) -> Option<u8> {
        let bytes = self.bytes;
        while bytes.get(self.i).is_some_and(u8::is_ascii_whitespace) {
            self.i += 1;
        }
        bytes.get(self.i).copied()
    }

    /// The property at the cursor: an upper-case ID and its values, none with an escape;
    /// `None` for anything else.
    // Inlined into the scan's loop: most properties are moves, read in a few steps.
    #[inline(always)]
    fn property(&mut self) -> Option<Property<'t>> {
        let i = self.i;
        // Most properties are a move: a one-letter ID and one two-byte value, no value
        // after it (`B[f5];`). Taken at once, as `property_in_full` takes it.
        let bytes = self.bytes;
        if let Some(&[b'A'..=b'Z', b'[', a, b, b']']) = bytes.get(i..i + 5) {
            let plain = |c: u8| c != b']' && c != b'\\';
            let after = bytes[i + 5..].trim_ascii_start();
            if plain(a) && plain(b) && after.first() != Some(&b'[') {
                self.items += 1;
                if self.items > MAX_ITEMS {
                    return None;
                }
                self.i = bytes.len() - after.len();
                return Some((&bytes[i..i + 1], &bytes[i + 2..i + 4], i + 1..i + 5));
            }
        }
        self.property_in_full()
    }

    /// [`Cursor::property`], byte by byte.
    #[inline(never)]
    fn property_in_full(&mut self) -> Option<Property<'t>> {
        let bytes = self.bytes;
        // Offsets are found from what is left of the bytes: `bytes.len() - rest.len()`.
        let rest = bytes.get(self.i..)?;
        let id_len = rest
            .iter()
            .position(|b| !b.is_ascii_uppercase())
            .unwrap_or(rest.len());
        // A lower-case letter in an ID is left out by the reader: not for the scan.
        if id_len == 0 || rest.get(id_len).is_some_and(u8::is_ascii_lowercase) {
            return None;
        }
        let (id, mut rest) = rest.split_at(id_len);
        let (mut first, mut from, mut to) = (None, None, 0);
        loop {
            rest = rest.trim_ascii_start();
            let Some(value) = rest.strip_prefix(b"[") else {
                break;
            };
            self.items += 1;
            if self.items > MAX_ITEMS {
                return None;
            }
            let len = value_len(value, true)?;
            if value[len] != b']' {
                return None;
            }
            first.get_or_insert(&value[..len]);
            from.get_or_insert(bytes.len() - rest.len());
            rest = &value[len + 1..];
            to = bytes.len() - rest.len();
        }
        self.i = bytes.len() - rest.len();
        Some((id, first?, from?..to))
    }
}

/// Scans the tree at `text[at..]` (its `(`).
fn scan_tree(
    text: &str,
    at: usize,
    moves: &mut QuickMoves,
    mut tag: impl FnMut(&str, &str),
) -> Option<(Rules, QuickClaim)> {
    moves.clear();
    // Colours must take turns, Black first, with every pass written.
    moves.require_written_passes();
    let mut black_next = true;
    let mut play = |id: &[u8], value: &[u8]| -> Option<()> {
        if (id == b"B") != black_next {
            return None;
        }
        black_next = !black_next;
        // Most moves are a letter and a digit (`f5`): the square at once.
        if let [column @ b'a'..=b'j', row @ b'1'..=b'9'] = *value {
            return moves.push(code(column - b'a', row - b'1')).then_some(());
        }
        let pushed = match parse_point(str::from_utf8(value).ok()?.trim())? {
            Move::Pass => moves.push(PASS),
            Move::Place(sq) => moves.push(code(sq.col(), sq.row())),
        };
        pushed.then_some(())
    };
    let mut cursor = Cursor {
        bytes: text.as_bytes(),
        i: at + 1,
        items: 0,
    };
    if cursor.skip_ws()? != b';' {
        return None;
    }
    cursor.i += 1;
    // The root node: its properties noted, each once (the reader warns of repeats), moves
    // played at once.
    let mut root = [RootProp::default(); MAX_ROOT];
    let mut count = 0;
    let mut node = 0;
    loop {
        match cursor.skip_ws()? {
            b';' => {
                cursor.items += 1;
                node += 1;
                cursor.i += 1;
            }
            b')' => {
                cursor.i += 1;
                break;
            }
            _ => {
                let at = cursor.i;
                let prop = cursor.property()?;
                let (id, first) = (prop.0, prop.1);
                match (node, id) {
                    (_, b"B" | b"W") => play(id, first)?,
                    (0, _) => {
                        if count == MAX_ROOT
                            || root[..count].iter().any(|p| same_id(p.id.as_bytes(), id))
                        {
                            return None;
                        }
                        root[count] = RootProp::of(text, at, prop)?;
                        count += 1;
                    }
                    // A move's comment is kept with it; anything else in a move node is
                    // reported.
                    (_, b"C") => {}
                    _ => return None,
                }
            }
        }
    }
    // The tree ends there (the piece ends at its closing bracket).
    if cursor.skip_ws().is_some() {
        return None;
    }
    let root = &root[..count];
    let find = |wanted: &str| root.iter().find(|p| p.id == wanted);
    if find("GM")?.first.trim() != "2" {
        return None;
    }
    let board = match find("SZ").map(|sz| sz.first.trim()) {
        None => BoardShape::Eight,
        Some(value) => {
            let (cols, rows) = value.split_once(':').unwrap_or((value, value));
            match (cols.trim(), rows.trim()) {
                ("4", "4") => BoardShape::Four,
                ("6", "6") => BoardShape::Six,
                ("8", "8") => BoardShape::Eight,
                ("10", "10") => BoardShape::Ten,
                _ => return None,
            }
        }
    };
    let rules = Rules::othello(board);
    if let Some(ca) = find("CA") {
        // An 8-bit charset is honoured only for text beyond ASCII: then the scan gives up.
        let charset = match ca.first {
            "UTF-8" => Charset::Utf8,
            other => Charset::named(other),
        };
        if charset == Charset::Unknown || charset != Charset::Utf8 && !text.is_ascii() {
            return None;
        }
    }
    if !usual_start(root, &rules)? {
        return None;
    }
    let mut claim = QuickClaim::Nothing;
    let mut komi = None;
    for prop in root {
        match prop.id {
            "FF" | "GM" | "SZ" | "CA" | "AB" | "AW" | "AE" | "PL" | "C" => {}
            "RE" => claim = result(prop.first)?,
            id => {
                let name = TAG_IDS
                    .iter()
                    .find(|(tid, _)| same_id(tid.as_bytes(), id.as_bytes()))
                    .map_or(id, |(_, name)| name);
                for value in prop.each() {
                    if komi.is_none() && name.eq_ignore_ascii_case(TagName::KOMI) {
                        komi = Some(value);
                    }
                    tag(name, value);
                }
            }
        }
    }
    if let QuickClaim::Margin(_, claimed) = claim {
        // Under a komi the margin is not the board's, and a conversion keeps it as it is:
        // for the reader.
        let komi: f64 = komi.and_then(|k| k.trim().parse().ok()).unwrap_or(0.0);
        let board = claimed.round();
        if komi != 0.0 || (claimed - board).abs() >= 0.005 || board.abs() > 1000.0 {
            return None;
        }
        claim = QuickClaim::Margin(board as i16, claimed);
    }
    Some((rules, claim))
}

/// Whether the root's setup (`AB`, `AW`, `AE`, `PL`) is none or the rules' own start,
/// Black to move, read as the reader reads it; `None` when the reader would report it.
fn usual_start(root: &[RootProp<'_>], rules: &Rules) -> Option<bool> {
    // Most trees set up the standard start as this crate writes it: known at once.
    let standard = *rules == Rules::default()
        && setup_props(root)
            .map(|p| (p.id, p.values))
            .eq(STANDARD_SETUP);
    if standard {
        return Some(true);
    }
    usual_start_in_full(root, rules)
}

/// The standard start's setup as this crate writes it: IDs and values.
const STANDARD_SETUP: [(&str, &str); 3] = [("AB", "[e4][d5]"), ("AW", "[d4][e5]"), ("PL", "[B]")];

/// The root's setup properties, in order.
fn setup_props<'r, 't>(root: &'r [RootProp<'t>]) -> impl Iterator<Item = &'r RootProp<'t>> {
    root.iter()
        .filter(|p| matches!(p.id, "AB" | "AW" | "AE" | "PL"))
}

/// [`usual_start`], the setup played out.
fn usual_start_in_full(root: &[RootProp<'_>], rules: &Rules) -> Option<bool> {
    let setup_props = || setup_props(root);
    if setup_props().next().is_none() {
        return Some(true);
    }
    let (start, _) = rules.start_discs();
    let explicit = setup_props().any(|p| p.id == "AB" || p.id == "AW");
    let mut setup = Setup {
        discs: if explicit {
            [SquareSet::EMPTY; 4]
        } else {
            start
        },
        neutral: SquareSet::EMPTY,
        turn: Color::Black,
    };
    for prop in setup_props() {
        if prop.id == "PL" {
            setup.turn = match prop.first.trim() {
                "B" | "b" | "1" => Color::Black,
                "W" | "w" | "2" => Color::White,
                _ => return None,
            };
            continue;
        }
        for value in prop.each() {
            let sq = match parse_point(value) {
                Some(Move::Place(sq)) if rules.board().contains(sq) => sq,
                _ => return None,
            };
            setup.discs[0].remove(sq);
            setup.discs[1].remove(sq);
            match prop.id {
                "AB" => setup.discs[0].insert(sq),
                "AW" => setup.discs[1].insert(sq),
                _ => {}
            }
        }
    }
    Some(setup.discs == start && setup.turn == Color::Black)
}

/// The claim of `RE` when it is a margin (`B+4`, `W+12.5`, `0`); `None` for anything else
/// (a winner alone, a resignation, a draw, unfinished), which the scan leaves to the
/// reader. The margin's whole number is settled with the komi.
fn result(value: &str) -> Option<QuickClaim> {
    let text = value.trim();
    if text == "0" {
        return Some(QuickClaim::Margin(0, 0.0));
    }
    let black = match text.get(..2)? {
        "B+" | "b+" => true,
        "W+" | "w+" => false,
        _ => return None,
    };
    let n = parse_number(text[2..].trim()).filter(|n| *n >= 0.0)?;
    let margin = if black { n } else { -n };
    Some(QuickClaim::Margin(0, margin))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a scan gives: rules, claim, moves, tags.
    type Scanned = (Rules, QuickClaim, Vec<u8>, Vec<(String, String)>);

    fn scan(text: &str) -> Option<Scanned> {
        let mut moves = QuickMoves::default();
        let mut tags = Vec::new();
        let (rules, claim) = scan_tree(text, 0, &mut moves, |n, v| {
            tags.push((n.to_owned(), v.to_owned()))
        })?;
        Some((rules, claim, moves.as_slice().to_vec(), tags))
    }

    #[test]
    fn a_move_at_once_reads_as_the_property_in_full() {
        for text in [
            "B[f5];",
            "W[PA])",
            "B[f5]C[x]",
            "B[f5] ",
            "B[f5][d6]",
            "B[f5]\n;",
            "B[f5] [d6]",
            "B[f5]\n\t;",
            "B[f]]",
            "B[\\5];",
            "B[]5];",
            "b[f5];",
            "BW[f5];",
            "B [f5];",
            "B[f5]",
            "B[f5",
            "B[f5]x",
            "B[ab]c",
        ] {
            let bytes = text.as_bytes();
            for items in [0, MAX_ITEMS - 1, MAX_ITEMS] {
                let mut at_once = Cursor { bytes, i: 0, items };
                let mut in_full = Cursor { bytes, i: 0, items };
                assert_eq!(
                    at_once.property(),
                    in_full.property_in_full(),
                    "{text:?} after {items}"
                );
                assert_eq!(
                    (at_once.i, at_once.items),
                    (in_full.i, in_full.items),
                    "{text:?}"
                );
            }
        }
    }

    #[test]
    fn the_standard_setup_at_once_reads_as_played_out() {
        let prop = |(id, values): (&'static str, &'static str)| RootProp {
            id,
            first: values.get(1..values.find(']').unwrap_or(1)).unwrap_or(""),
            values,
        };
        let [ab, aw, pl] = STANDARD_SETUP;
        for setup in [
            vec![ab, aw, pl],
            vec![("GM", "[2]"), ab, ("PB", "[x]"), aw, pl],
            vec![pl, ab, aw],
            vec![ab, aw],
            vec![ab, aw, pl, ("AE", "[a1]")],
            vec![ab, aw, ("PL", "[W]")],
            vec![("AB", "[d5][e4]"), aw, pl],
            vec![("AB", "[e4][d5][a1]"), aw, pl],
            vec![ab, ("AW", "[d4]"), pl],
        ] {
            let root: Vec<RootProp<'_>> = setup.iter().copied().map(prop).collect();
            for rules in [Rules::default(), Rules::othello(BoardShape::Six)] {
                assert_eq!(
                    usual_start(&root, &rules),
                    usual_start_in_full(&root, &rules),
                    "{setup:?} {rules:?}"
                );
            }
        }
    }

    #[test]
    fn a_single_value_reads_as_the_values_split() {
        for (first, values) in [
            ("x", "[x]"),
            ("", "[]"),
            ("a b", "[a b]"),
            ("x", "[x][y]"),
            ("x", "[x] [y]"),
            ("", "[][]"),
        ] {
            let prop = RootProp {
                id: "XX",
                first,
                values,
            };
            let split: Vec<&str> = values
                .split(']')
                .filter_map(|v| v.trim_start().strip_prefix('['))
                .collect();
            assert_eq!(prop.each().collect::<Vec<_>>(), split, "{values:?}");
        }
    }

    #[test]
    fn a_plain_tree_is_scanned() {
        let (rules, claim, moves, tags) = scan(
            "(;FF[4]GM[2]SZ[8]CA[UTF-8]EV[Open]PB[a]XX[1][2]AB[e4][d5]AW[d4][e5]PL[B]RE[W+4]\n\
             ;B[f5];W[fd]C[ok];B[PA])",
        )
        .unwrap();
        assert_eq!(rules, Rules::default());
        assert_eq!(claim, QuickClaim::Margin(-4, -4.0));
        assert_eq!(moves, [code(5, 4), code(5, 3), PASS]);
        let tags: Vec<String> = tags.iter().map(|(n, v)| format!("{n}={v}")).collect();
        assert_eq!(tags, ["Event=Open", "Black=a", "XX=1", "XX=2"]);
    }

    #[test]
    fn anything_unusual_gives_up() {
        for text in [
            "(;SZ[8];B[f5])",
            "(;GM[1];B[f5])",
            "(;GM[2]GM[2];B[f5])",
            "(;GM[2]SZ[12];B[f5])",
            "(;GM[2]CA[Klingon];B[f5])",
            "(;GM[2]CA[latin1]PB[é];B[f5])",
            "(;GM[2]RE[B+R];B[f5])",
            "(;GM[2]RE[Draw];B[f5])",
            "(;GM[2]PL[W];B[f5])",
            "(;GM[2]AB[e4];B[f5])",
            "(;GM[2];W[f5])",
            "(;GM[2];B[f5];B[d6])",
            "(;GM[2];B[f5]N[x])",
            "(;GM[2];B[f5](;W[d6]))",
            "(;GM[2]PB[a\\]b];B[f5])",
            "(;GM[2]Pb[a];B[f5])",
            "(;GM[2];B[zz])",
            "(;GM[2];B[f5] x)",
            "(;GM[2];B[f5]",
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }
}
