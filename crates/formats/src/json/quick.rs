//! The quick scan of one JSON game object for the quick check ([`crate::engine::quick`]):
//! the plainest objects (`rules`, `tags`, `moves` of bare `{"move": ...}` objects, a
//! disc-count `result`, a `comment`; strings without escapes) read straight from the bytes,
//! without serde building a record. Anything else (a start, position or flip claims,
//! colours, evals, another kind of result, an escape, a repeated key, a number JSON does
//! not allow) makes it give up, and serde reads the object as always.

use super::stream::{PendingObject, Version};
use crate::engine::quick::{code, QuickClaim, QuickMoves, PASS};
use crate::engine::{Rules, Square};

/// The most tags an object the scan takes may hold.
const MAX_TAGS: usize = 64;

impl PendingObject {
    /// Scans the object into `moves` for the quick check, handing `tag` its tags in order:
    /// the game's rules and claim, or `None` when serde must read it.
    #[doc(hidden)]
    pub fn scan(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        self.scan_object(moves, tag, Comment::Dropped)
    }

    /// [`PendingObject::scan`] for a caller that keeps the game: `None` also for an object
    /// with a comment, which its record would keep.
    #[doc(hidden)]
    pub fn scan_kept(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
    ) -> Option<(Rules, QuickClaim)> {
        self.scan_object(moves, tag, Comment::GiveUp)
    }

    fn scan_object(
        &self,
        moves: &mut QuickMoves,
        tag: impl FnMut(&str, &str),
        comment: Comment,
    ) -> Option<(Rules, QuickClaim)> {
        if matches!(self.version(), Version::Unsupported(_)) {
            return None;
        }
        // UTF-8, and nothing the reader would replace and report (NUL, control characters).
        let text = crate::rgn::quick::plain_text(self.bytes())?;
        let mut scan = Scan { text, i: 0 };
        let (rules, claim) = scan.game(moves, tag, comment)?;
        let rules = match rules {
            Some(stated) => stated.parse().ok()?,
            None => self.default_rules().unwrap_or_default(),
        };
        Some((rules, claim))
    }
}

/// What the scan does with the game's comment.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Comment {
    /// Skips it.
    Dropped,
    /// Gives up.
    GiveUp,
}

/// A cursor over an object's text.
struct Scan<'t> {
    text: &'t str,
    i: usize,
}

impl<'t> Scan<'t> {
    /// The next byte after JSON whitespace, not taken.
    fn peek(&mut self) -> Option<u8> {
        let bytes = self.text.as_bytes();
        while matches!(bytes.get(self.i), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.i += 1;
        }
        bytes.get(self.i).copied()
    }

    /// Takes `byte`, after whitespace.
    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.peek()? == byte).then(|| self.i += 1)
    }

    /// A string without escapes (and, as JSON wants, without raw control characters).
    fn string(&mut self) -> Option<&'t str> {
        self.expect(b'"')?;
        let bytes = self.text.as_bytes();
        let start = self.i;
        // Keys, squares and names are short: a byte loop beats a vectorised search.
        let len = bytes[start..]
            .iter()
            .position(|&b| b == b'"' || b == b'\\' || b < 0x20)?;
        let end = start + len;
        if bytes[end] != b'"' {
            return None;
        }
        self.i = end + 1;
        self.text.get(start..end)
    }

    /// A move as the writer writes it, `{"move":"f5"}` (a lower-case letter and a digit),
    /// taken at once; `None` (nothing taken) for any other form.
    fn written_move(&mut self) -> Option<u8> {
        self.peek()?;
        let rest = self
            .text
            .as_bytes()
            .get(self.i..)?
            .strip_prefix(b"{\"move\":\"")?;
        let [column @ b'a'..=b'j', row @ b'1'..=b'9', b'"', b'}', ..] = *rest else {
            return None;
        };
        self.i += 13;
        Some(code(column - b'a', row - b'1'))
    }

    /// A disc count: digits without a leading zero, at most 255.
    fn count(&mut self) -> Option<u8> {
        self.peek()?;
        let bytes = self.text.as_bytes();
        let start = self.i;
        while bytes.get(self.i).is_some_and(u8::is_ascii_digit) {
            self.i += 1;
        }
        let digits = &bytes[start..self.i];
        if digits.is_empty() || digits.len() > 1 && digits[0] == b'0' || digits.len() > 3 {
            return None;
        }
        let n = digits
            .iter()
            .fold(0u32, |n, &d| n * 10 + u32::from(d - b'0'));
        u8::try_from(n).ok()
    }

    /// The members of an object, handed one by one to `member` with the scan at the
    /// value, which `member` must take.
    fn object(&mut self, mut member: impl FnMut(&mut Self, &'t str) -> Option<()>) -> Option<()> {
        self.expect(b'{')?;
        if self.peek()? == b'}' {
            self.i += 1;
            return Some(());
        }
        loop {
            let key = self.string()?;
            self.expect(b':')?;
            member(self, key)?;
            match self.peek()? {
                b',' => self.i += 1,
                b'}' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The elements of an array, each taken by `element`.
    fn array(&mut self, mut element: impl FnMut(&mut Self) -> Option<()>) -> Option<()> {
        self.expect(b'[')?;
        if self.peek()? == b']' {
            self.i += 1;
            return Some(());
        }
        loop {
            element(self)?;
            match self.peek()? {
                b',' => self.i += 1,
                b']' => {
                    self.i += 1;
                    return Some(());
                }
                _ => return None,
            }
        }
    }

    /// The game object: its `rules` string if it has one, and its claim.
    fn game(
        &mut self,
        moves: &mut QuickMoves,
        mut tag: impl FnMut(&str, &str),
        comment: Comment,
    ) -> Option<(Option<&'t str>, QuickClaim)> {
        moves.clear();
        let mut rules = None;
        let mut claim = None;
        // Which members were seen: serde refuses a repeated one.
        let mut seen = [false; 5];
        let mut once = |k: usize| (!std::mem::replace(&mut seen[k], true)).then_some(());
        self.object(|scan, key| match key {
            "rules" => {
                once(0)?;
                rules = Some(scan.string()?);
                Some(())
            }
            "tags" => {
                once(1)?;
                let mut count = 0;
                // Version 2's object of values by name (a name repeated is left to serde).
                // Without allocating: more than 16 tags are left to serde too.
                if scan.peek()? == b'{' {
                    let mut names: [&str; 16] = [""; 16];
                    return scan.object(|scan, name| {
                        if count == names.len() || names[..count].contains(&name) {
                            return None;
                        }
                        names[count] = name;
                        count += 1;
                        tag(name, scan.string()?);
                        Some(())
                    });
                }
                scan.array(|scan| {
                    count += 1;
                    if count > MAX_TAGS {
                        return None;
                    }
                    let (mut name, mut value) = (None, None);
                    scan.object(|scan, key| {
                        let slot = match key {
                            "name" => &mut name,
                            "value" => &mut value,
                            _ => return None,
                        };
                        match slot.replace(scan.string()?) {
                            Some(_) => None,
                            None => Some(()),
                        }
                    })?;
                    tag(name?, value?);
                    Some(())
                })
            }
            "moves" => {
                once(2)?;
                moves.clear();
                scan.array(|scan| {
                    if let Some(code) = scan.written_move() {
                        return moves.push(code).then_some(());
                    }
                    let mut mv = None;
                    scan.object(|scan, key| {
                        if key != "move" || mv.is_some() {
                            return None;
                        }
                        mv = Some(scan.string()?);
                        Some(())
                    })?;
                    let mv = mv?;
                    let code = if mv.eq_ignore_ascii_case("pass") {
                        PASS
                    } else {
                        let sq = Square::from_ascii(mv.as_bytes()).ok()?;
                        code(sq.col(), sq.row())
                    };
                    moves.push(code).then_some(())
                })
            }
            "result" => {
                once(3)?;
                let mut discs = None;
                scan.object(|scan, key| {
                    if key != "score" || discs.is_some() {
                        return None;
                    }
                    scan.object(|scan, key| {
                        if key != "discs" || discs.is_some() {
                            return None;
                        }
                        let mut counts = [0u8; 3];
                        let mut n = 0;
                        scan.array(|scan| {
                            *counts.get_mut(n)? = scan.count()?;
                            n += 1;
                            Some(())
                        })?;
                        discs = (n == 2).then_some((counts[0], counts[1]));
                        discs.map(|_| ())
                    })
                })?;
                claim = Some(QuickClaim::of_discs(Some(discs?)));
                Some(())
            }
            "comment" if comment == Comment::GiveUp => None,
            "comment" => {
                once(4)?;
                scan.string().map(|_| ())
            }
            _ => None,
        })?;
        // Nothing but whitespace after the object.
        if self.peek().is_some() {
            return None;
        }
        Some((rules, claim.unwrap_or_default()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// What a scan gives: the rules string, the claim, moves, tags.
    type Scanned = (Option<String>, QuickClaim, Vec<u8>, Vec<String>);

    fn scan(text: &str) -> Option<Scanned> {
        let mut moves = QuickMoves::default();
        let mut tags = Vec::new();
        let mut scan = Scan { text, i: 0 };
        let (rules, claim) = scan.game(
            &mut moves,
            |n, v| tags.push(format!("{n}={v}")),
            Comment::Dropped,
        )?;
        Some((
            rules.map(str::to_owned),
            claim,
            moves.as_slice().to_vec(),
            tags,
        ))
    }

    #[test]
    fn a_plain_object_is_scanned() {
        let (rules, claim, moves, tags) = scan(
            r#" {"rules":"othello", "tags":[{"name":"Black","value":"Tamaru"},{"value":"x","name":"Round"}],
               "moves":[{"move":"f5"}, {"move":"PASS"}, {"move":"D6"}],"result":{"score":{"discs":[40,24]}},"comment":"ok"} "#,
        )
        .unwrap();
        assert_eq!(rules.as_deref(), Some("othello"));
        assert_eq!(claim, QuickClaim::Discs(40, 24));
        assert_eq!(moves, [code(5, 4), PASS, code(3, 5)]);
        assert_eq!(tags, ["Black=Tamaru", "Round=x"]);
        // Version 2's object of tags reads the same.
        let (_, _, _, tags) =
            scan(r#"{"rules":"othello","tags":{"Black":"Tamaru","Round":"x"},"moves":[]}"#)
                .expect("an object of tags is scanned");
        assert_eq!(tags, ["Black=Tamaru", "Round=x"]);
        assert_eq!(scan("{}").unwrap().1, QuickClaim::Nothing);
    }

    #[test]
    fn moves_in_the_written_form_and_any_other_scan_the_same() {
        let moves = |list: &str| scan(&format!(r#"{{"moves":[{list}]}}"#)).map(|s| s.2);
        let written = moves(r#"{"move":"f5"},{"move":"d6"},{"move":"j9"}"#);
        assert_eq!(written, Some(vec![code(5, 4), code(3, 5), code(9, 8)]));
        let spaced = moves(r#" { "move" : "f5" } , {"move":"D6"},{"move": "j9"}"#);
        assert_eq!(spaced, written);
        for list in [
            r#"{"move":"f5","x":1}"#,
            r#"{"move":"f5"}{"move":"d6"}"#,
            r#"{"move":"f5"]"#,
        ] {
            assert_eq!(moves(list), None, "{list}");
        }
    }

    #[test]
    fn anything_unusual_gives_up() {
        for text in [
            r#"{"rules":"othello","rules":"anti"}"#,
            r#"{"start":{}}"#,
            r#"{"tags":[{"name":"a\"b","value":"x"}]}"#,
            r#"{"tags":[{"name":"a"}]}"#,
            r#"{"tags":[{"name":"a","value":"b","span":1}]}"#,
            r#"{"moves":[{"move":"f5","color":"black"}]}"#,
            r#"{"moves":[{"move":"z5"}]}"#,
            r#"{"moves":[{"move":"f5"},]}"#,
            r#"{"result":{"score":{"discs":[40,24,0]}}}"#,
            r#"{"result":{"score":{"discs":[040,24]}}}"#,
            r#"{"result":{"score":{"discs":[400,24]}}}"#,
            r#"{"result":{"score":{"margin":4}}}"#,
            r#"{"result":{"score":{"discs":[40,24]},"termination":"time"}}"#,
            r#"{"comment":"a"} x"#,
            r#"{"comment":"a""#,
            r#"{"moves":[{"move":"f5"}"#,
            "{\"comment\":\"a\tb\"}",
        ] {
            assert_eq!(scan(text), None, "{text}");
        }
    }
}
