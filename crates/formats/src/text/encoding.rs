//! Decoding: UTF-8, else Windows-1252 line by line, NUL bytes reported; Windows-1252 encoding.

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::record::Span;

/// Decodes a game's or a line's bytes, found at file offset `base`, starting on 0-based
/// line `line`: UTF-8 where it is valid, each line that is not read as Windows-1252, NUL
/// bytes as U+FFFD. Returns the text and a diagnostic for each kind of problem (with the
/// first place it occurs); spans point into the decoded text.
#[doc(hidden)]
pub fn decode(bytes: Vec<u8>, base: usize, line: usize) -> (String, Vec<Diagnostic>) {
    let text = match String::from_utf8(bytes) {
        Ok(text) if !text.contains('\0') => return (text, Vec::new()),
        Ok(text) => text,
        Err(e) => decode_lines(e.as_bytes()),
    };
    // Where the first NUL byte lands once the marks are out, and on which line.
    let nul = text.find('\0').map(|at| {
        let marks = text[..at].matches(CP1252_MARK).count();
        (
            at - marks * CP1252_MARK.len_utf8(),
            text[..at].matches('\n').count(),
        )
    });
    let text = if nul.is_some() {
        text.replace('\0', "\u{FFFD}")
    } else {
        text
    };
    let mut problems = Vec::new();
    if let Some((at, number, count)) = first_marked(&text, CP1252_MARK) {
        problems.push(
            Diagnostic::warning(
                Code::SyntaxBadEncoding,
                bad_encoding_message(line + number, count),
            )
            .at(Some(Span::new(base + at, 0)), "from here")
            .help("save the file as UTF-8 to be sure of its characters"),
        );
    }
    let text = text.replace(CP1252_MARK, "");
    if let Some((at, number)) = nul {
        problems.push(
            Diagnostic::error(
                Code::SyntaxNulByte,
                format!("line {} holds a NUL byte", line + number + 1),
            )
            .at(Some(Span::new(base + at, '\u{FFFD}'.len_utf8())), "a NUL byte")
            .help("a text record holds no NUL bytes: the file is damaged or binary; it was read as U+FFFD"),
        );
    }
    (text, problems)
}

/// What `syntax-bad-encoding` says of `count` lines that are not UTF-8, the first on
/// 0-based line `first`.
pub(crate) fn bad_encoding_message(first: usize, count: usize) -> String {
    if count == 1 {
        format!(
            "line {} is not valid UTF-8; it was read as Windows-1252",
            first + 1
        )
    } else {
        format!(
            "{count} lines, the first line {}, are not valid UTF-8; they were read as Windows-1252",
            first + 1
        )
    }
}

/// A private-use character put before each line decoded as CP1252, so that the lines can
/// be found and counted; taken out again before the text is used.
const CP1252_MARK: char = '\u{F8FF}';

/// Decodes `bytes` line by line: UTF-8 lines as they are, others as Windows-1252 with
/// [`CP1252_MARK`] in front.
fn decode_lines(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len() + bytes.len() / 2);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        match std::str::from_utf8(line) {
            Ok(text) => out.push_str(&text.replace(CP1252_MARK, "\u{FFFD}")),
            Err(_) => {
                out.push(CP1252_MARK);
                out.extend(line.iter().map(|&b| cp1252(b)));
            }
        }
    }
    out
}

/// Where the first `mark` is (its byte offset once the marks are taken out), on which
/// 0-based line of `text`, and how many there are.
fn first_marked(text: &str, mark: char) -> Option<(usize, usize, usize)> {
    let at = text.find(mark)?;
    let count = text.matches(mark).count();
    let number = text[..at].matches('\n').count();
    Some((at, number, count))
}

/// Windows-1252 characters of bytes 0x80..=0x9F. The five bytes the code page leaves
/// undefined (0x81, 0x8D, 0x8F, 0x90, 0x9D) map to the C1 controls of the same value, as
/// the WHATWG decoder does, so every byte decodes and encodes back.
const HIGH_CONTROLS: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}',
    '\u{90}', '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// Decodes Windows-1252 bytes.
///
/// ```
/// use reversi_formats::text::decode_cp1252;
/// assert_eq!(decode_cp1252(b"Pr\xe9qualif de Paris"), "Préqualif de Paris");
/// assert_eq!(decode_cp1252(b"\x80 \x9c"), "€ œ");
/// ```
pub fn decode_cp1252(bytes: &[u8]) -> String {
    bytes.iter().map(|&b| cp1252(b)).collect()
}

/// Decodes a small text file as a spreadsheet saves it: each line as UTF-8 when it is,
/// as Windows-1252 otherwise (a file of mixed lines keeps its UTF-8 ones).
///
/// ```
/// use reversi_formats::text::decode_line_by_line;
/// assert_eq!(decode_line_by_line(b"r\xe9sultat\nr\xc3\xa9sultat"), "résultat\nrésultat");
/// ```
pub fn decode_line_by_line(bytes: &[u8]) -> String {
    let lines: Vec<String> = bytes
        .split(|&b| b == b'\n')
        .map(|line| match std::str::from_utf8(line) {
            Ok(text) => text.to_owned(),
            Err(_) => decode_cp1252(line),
        })
        .collect();
    lines.join("\n")
}

/// Encodes `text` as Windows-1252, or returns the first character it cannot hold.
///
/// ```
/// use reversi_formats::text::encode_cp1252;
/// assert_eq!(encode_cp1252("Suède €").unwrap(), b"Su\xe8de \x80");
/// assert_eq!(encode_cp1252("Łódź"), Err('Ł'));
/// ```
pub fn encode_cp1252(text: &str) -> Result<Vec<u8>, char> {
    text.chars().map(encode_char).collect()
}

fn encode_char(c: char) -> Result<u8, char> {
    let code = u32::from(c);
    if code < 0x80 || (0xA0..=0xFF).contains(&code) {
        return u8::try_from(code).map_err(|_| c);
    }
    HIGH_CONTROLS
        .iter()
        .position(|&h| h == c)
        .and_then(|i| u8::try_from(0x80 + i).ok())
        .ok_or(c)
}

/// The character Windows-1252 gives byte `b`.
pub(crate) fn cp1252(b: u8) -> char {
    match b {
        0x80..=0x9F => HIGH_CONTROLS[usize::from(b - 0x80)],
        _ => char::from(b),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_that_are_not_utf8_are_read_as_cp1252_and_reported() {
        let bytes = b"[Black \"Ren\xe9\"]\n[White \"Jos\xe9 \x80\"]\nf5 d6\n".to_vec();
        let (text, problems) = decode(bytes, 100, 4);
        assert_eq!(text, "[Black \"René\"]\n[White \"José €\"]\nf5 d6\n");
        assert_eq!(problems.len(), 1);
        assert_eq!(problems[0].code, Code::SyntaxBadEncoding);
        assert_eq!(
            problems[0].message,
            "2 lines, the first line 5, are not valid UTF-8; they were read as Windows-1252"
        );
        assert_eq!(problems[0].span, Some(Span::new(100, 0)));
    }

    #[test]
    fn utf8_lines_beside_bad_ones_stay_utf8() {
        let bytes = "é\n".bytes().chain(*b"\xe9\n").collect();
        let (text, problems) = decode(bytes, 0, 0);
        assert_eq!(text, "é\né\n");
        assert_eq!(
            problems[0].message,
            "line 2 is not valid UTF-8; it was read as Windows-1252"
        );
        assert_eq!(problems[0].span, Some(Span::new(3, 0)));
    }

    #[test]
    fn spans_stay_on_the_decoded_text_when_nul_bytes_and_cp1252_lines_mix() {
        // Found by fuzzing: NUL bytes before a CP1252 line moved the encoding span.
        let (text, problems) = decode(b"a\0\0b\n\xe9t\xe9\n".to_vec(), 0, 0);
        assert_eq!(text, "a\u{FFFD}\u{FFFD}b\nété\n");
        for p in &problems {
            let span = p.span.unwrap();
            assert!(text.get(span.offset..span.end()).is_some(), "{p:?}");
        }
        assert_eq!(problems[0].span, Some(Span::new(9, 0)));
        assert_eq!(&text[9..], "été\n");
        assert_eq!(problems[1].span, Some(Span::new(1, 3)));
    }

    #[test]
    fn nul_bytes_are_an_error_and_never_kept() {
        let (text, problems) = decode(b"f5\0d6".to_vec(), 10, 0);
        assert_eq!(text, "f5\u{FFFD}d6");
        assert_eq!(problems[0].code, Code::SyntaxNulByte);
        assert!(problems[0].is_error());
        assert_eq!(problems[0].span, Some(Span::new(12, 3)));
    }
}
