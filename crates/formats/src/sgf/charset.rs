//! SGF's `CA` property: the charset of a game tree's text (FF[4]: "If no CA property is
//! given, ISO-8859-1 is assumed"; this reader assumes UTF-8, as the other formats, and
//! reads lines that are not UTF-8 as Windows-1252).

use crate::text::decode_cp1252;

/// A charset `CA` names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Charset {
    /// UTF-8, or a subset of it (US-ASCII), or UTF-16, which detection has decoded already.
    Utf8,
    /// ISO-8859-1 (Latin-1).
    Latin1,
    /// Windows-1252.
    Windows1252,
    /// A charset the reader does not know.
    Unknown,
}

impl Charset {
    /// The charset `name` names, in any case and spelling (`UTF-8`, `utf8`, `ISO-8859-1`,
    /// `Latin1`, `windows-1252`, `cp1252`).
    pub(super) fn named(name: &str) -> Charset {
        let key: String = name
            .chars()
            .filter(char::is_ascii_alphanumeric)
            .collect::<String>()
            .to_ascii_uppercase();
        match key.as_str() {
            "UTF8" | "USASCII" | "ASCII" | "UTF16" | "UTF16LE" | "UTF16BE" => Charset::Utf8,
            "ISO88591" | "ISOLATIN1" | "LATIN1" | "L1" | "CP819" | "IBM819" | "ISOIR100" => {
                Charset::Latin1
            }
            "WINDOWS1252" | "CP1252" | "WIN1252" | "MSANSI" => Charset::Windows1252,
            _ => Charset::Unknown,
        }
    }
}

/// The first value of the `CA` property of the root node of the game tree that starts at
/// `tree[0]` (its `(`), read from the raw bytes before they are decoded.
pub(super) fn declared(tree: &[u8]) -> Option<String> {
    let skip_ws = |mut i: usize| {
        while tree.get(i).is_some_and(u8::is_ascii_whitespace) {
            i += 1;
        }
        i
    };
    let mut i = skip_ws(1);
    if tree.get(i) != Some(&b';') {
        return None;
    }
    i += 1;
    loop {
        i = skip_ws(i);
        let &b = tree.get(i)?;
        if matches!(b, b';' | b'(' | b')') {
            return None;
        }
        if b != b'[' && !b.is_ascii_alphabetic() {
            i += 1;
            continue;
        }
        // An ID (FF[3] let lower-case letters in; only the capitals count), then values.
        let start = i;
        while tree.get(i).is_some_and(u8::is_ascii_alphabetic) {
            i += 1;
        }
        let id: Vec<u8> = tree[start..i]
            .iter()
            .copied()
            .filter(u8::is_ascii_uppercase)
            .collect();
        let mut first = None;
        loop {
            let open = skip_ws(i);
            if tree.get(open) != Some(&b'[') {
                break;
            }
            let (value, next) = value_at(tree, open)?;
            first.get_or_insert(value);
            i = next;
        }
        if id == b"CA" {
            return first.map(|v| String::from_utf8_lossy(&v).trim().to_string());
        }
    }
}

/// The value opened at `tree[open]` (`[`), escapes resolved, and the index after its `]`.
fn value_at(tree: &[u8], open: usize) -> Option<(Vec<u8>, usize)> {
    let mut value = Vec::new();
    let mut i = open + 1;
    loop {
        match *tree.get(i)? {
            b']' => return Some((value, i + 1)),
            b'\\' => {
                value.push(*tree.get(i + 1)?);
                i += 2;
            }
            b => {
                value.push(b);
                i += 1;
            }
        }
    }
}

/// The game's bytes in `charset` as UTF-8, for the reader to decode: ISO-8859-1 and
/// Windows-1252 are converted, other charsets left as they are. `None` when the bytes
/// are valid UTF-8 with characters beyond ASCII although `charset` is an 8-bit one: the
/// `CA` was copied through by a writer that wrote UTF-8, and the bytes are left as UTF-8.
pub(super) fn to_utf8(game: Vec<u8>, charset: Charset) -> Option<Vec<u8>> {
    if !matches!(charset, Charset::Latin1 | Charset::Windows1252) || game.is_ascii() {
        return Some(game);
    }
    if std::str::from_utf8(&game).is_ok() {
        return None;
    }
    Some(match charset {
        Charset::Windows1252 => decode_cp1252(&game).into_bytes(),
        _ => game
            .iter()
            .map(|&b| char::from(b))
            .collect::<String>()
            .into_bytes(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn charsets_by_any_spelling() {
        assert_eq!(Charset::named("UTF-8"), Charset::Utf8);
        assert_eq!(Charset::named("utf8"), Charset::Utf8);
        assert_eq!(Charset::named("ISO-8859-1"), Charset::Latin1);
        assert_eq!(Charset::named("latin1"), Charset::Latin1);
        assert_eq!(Charset::named("Windows-1252"), Charset::Windows1252);
        assert_eq!(Charset::named("Shift_JIS"), Charset::Unknown);
    }

    #[test]
    fn the_root_nodes_ca_is_found_in_the_raw_bytes() {
        assert_eq!(
            declared(b"(;FF[4]C[a \\] CA[no]]\n CA[ISO-8859-1]PB[x];B[f5])").as_deref(),
            Some("ISO-8859-1")
        );
        assert_eq!(declared(b"( ; charSet[UTF-8];B[f5])").as_deref(), None);
        assert_eq!(
            declared(b"(;CharAct[latin1];B[f5])").as_deref(),
            Some("latin1")
        );
        assert_eq!(
            declared(b"(;FF[4];CA[UTF-8])"),
            None,
            "not in the root node"
        );
        assert_eq!(declared(b"(;CA[UTF-8"), None);
    }

    #[test]
    fn latin1_and_windows_1252_become_utf8() {
        let game = b"PC[Su\xe8de \x80]".to_vec();
        assert_eq!(
            to_utf8(game.clone(), Charset::Latin1).unwrap(),
            "PC[Suède \u{80}]".as_bytes()
        );
        assert_eq!(
            to_utf8(game, Charset::Windows1252).unwrap(),
            "PC[Suède €]".as_bytes()
        );
        assert_eq!(to_utf8("Suède".into(), Charset::Latin1), None);
        assert_eq!(
            to_utf8("Suède".into(), Charset::Utf8).unwrap(),
            "Suède".as_bytes()
        );
    }
}
