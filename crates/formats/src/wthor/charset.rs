//! The characters a name written to `WTHOR.JOU`/`WTHOR.TRN` may hold, and the fallback
//! for the others.
//!
//! WTHOR-era readers disagree on the bytes 0x80-0x9F: Windows tools (and this crate's
//! reader) decode the name files as Windows-1252, where they are `€`, `Š`, `œ`, curly
//! quotes and dashes; thor2pgn, Kalmia and the `wthor` crate decode ISO-8859-1, where they
//! are control characters. Every other byte means the same in both. So names are written
//! in the characters both read alike: ISO-8859-1 without its control characters (printable
//! ASCII and U+00A0-U+00FF, `é`, `è`, `ß`, `ø`, ...). The FFO's own files hold nothing else.

/// The ISO-8859-1 bytes of `name` when every character is one that ISO-8859-1 and
/// Windows-1252 readers read alike, or the first character that is not.
///
/// ```
/// use reversi_formats::wthor::name_bytes;
/// assert_eq!(name_bytes("Championnat de Suède"), Ok(b"Championnat de Su\xe8de".to_vec()));
/// assert_eq!(name_bytes("Šimon"), Err('Š'));
/// assert_eq!(name_bytes("5 €"), Err('€'));
/// ```
pub fn name_bytes(name: &str) -> Result<Vec<u8>, char> {
    name.chars()
        .map(|c| match u32::from(c) {
            0x20..=0x7E | 0xA0..=0xFF => u8::try_from(u32::from(c)).map_err(|_| c),
            _ => Err(c),
        })
        .collect()
}

/// `name` with each character [`name_bytes`] refuses replaced: a Latin letter with a
/// diacritic by its base letter (`Š` → `S`, `ł` → `l`), a ligature by its letters (`œ` →
/// `oe`), the Windows-1252 signs by ASCII (`€` → `EUR`, `–` → `-`, `’` → `'`, `…` →
/// `...`), anything else by `?`.
///
/// ```
/// use reversi_formats::wthor::name_fallback;
/// assert_eq!(name_fallback("Šimon Œuvre 5 € – Zoë"), "Simon OEuvre 5 EUR - Zoë");
/// assert_eq!(name_fallback("村上 健"), "?? ?");
/// ```
pub fn name_fallback(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars() {
        if name_bytes(c.encode_utf8(&mut [0; 4])).is_ok() {
            out.push(c);
        } else {
            push_fallback(&mut out, c);
        }
    }
    out
}

/// Base letters of U+0100-U+017F (Latin Extended-A), one per character; the ligatures
/// `Ĳ ĳ Œ œ` are handled apart.
const LATIN_EXTENDED_A: &[u8; 128] =
    b"AaAaAaCcCcCcCcDdDdEeEeEeEeEeGgGgGgGgHhHhIiIiIiIiIiIiJjKkkLlLlLlL\
lLlNnNnNnnNnOoOoOoOoRrRrRrSsSsSsSsTtTtTtUuUuUuUuUuUuWwYyYZzZzZzs";

/// Appends what stands for `c`, which a name file cannot hold.
fn push_fallback(out: &mut String, c: char) {
    let text = match c {
        'Ĳ' => "IJ",
        'ĳ' => "ij",
        'Œ' => "OE",
        'œ' => "oe",
        '\u{100}'..='\u{17F}' => {
            let base = LATIN_EXTENDED_A
                .get((u32::from(c) - 0x100) as usize)
                .map_or('?', |&b| char::from(b));
            out.push(base);
            return;
        }
        '€' => "EUR",
        '‚' => ",",
        'ƒ' => "f",
        '„' => ",,",
        '…' => "...",
        '†' => "+",
        '‡' => "++",
        'ˆ' => "^",
        '‰' => "%o",
        '‹' => "<",
        '›' => ">",
        '‘' | '’' => "'",
        '“' | '”' => "\"",
        '•' => "*",
        '–' | '—' => "-",
        '˜' => "~",
        '™' => "TM",
        _ => "?",
    };
    out.push_str(text);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_what_both_readers_read_alike_is_written() {
        for b in 0u8..=255 {
            let c = char::from(b);
            let alike = (0x20..=0x7E).contains(&b) || b >= 0xA0;
            assert_eq!(name_bytes(&c.to_string()).is_ok(), alike, "byte {b:#x}");
        }
        assert_eq!(name_bytes("a\0b"), Err('\0'));
    }

    #[test]
    fn every_windows_1252_extra_has_an_ascii_fallback() {
        let extras: Vec<char> = (0x80u8..=0x9F)
            .map(|b| {
                crate::text::decode_cp1252(&[b])
                    .chars()
                    .next()
                    .unwrap_or('?')
            })
            .filter(|c| u32::from(*c) > 0xFF)
            .collect();
        assert_eq!(extras.len(), 27);
        for c in extras {
            let f = name_fallback(&c.to_string());
            assert!(f.is_ascii() && f != "?", "{c} -> {f}");
        }
        assert_eq!(name_fallback("ŁĄŽĲĸ"), "LAZIJk");
    }
}
