//! SGF (`FF[4]`) game trees of Othello (`GM[2]`), as Edax writes them and Cassio reads them.
//!
//! A file holds game trees `(;…)`; nodes start with `;`, properties are `ID[value]` (several
//! values for list properties, `\` escapes `]` and `\`), and `(…)` opens variations. The
//! reader takes the main line (the first variation at each branch) and reports the dropped
//! ones as warnings.
//!
//! # Mapping to the record model
//!
//! | SGF | record |
//! |---|---|
//! | `FF`, `GM` | checked (`GM[2]` is Othello), not kept |
//! | `CA` | the charset the game's text is decoded from: UTF-8, ISO-8859-1 (Latin-1) or Windows-1252, in any spelling; not kept. Another is read as without a `CA` (UTF-8, a line that is not as Windows-1252) with an `sgf-unknown-charset` warning; an 8-bit charset declared for text that is valid UTF-8 beyond ASCII is read as UTF-8 with an `sgf-charset-mismatch` warning |
//! | `SZ` | [`Rules`](crate::engine::Rules) board: 4, 6, 8, 10 |
//! | `PC`, `DT`, `EV`, `RO` | tags `Site`, `Date`, `Event`, `Round` |
//! | `PB`, `PW`, `BR`, `WR` | tags `Black`, `White`, `BlackElo`, `WhiteElo` |
//! | `RE` | [`ClaimedResult`](crate::record::ClaimedResult): `B+n`/`W+n` margin, `0` margin 0, `Draw`, `B+`/`W+` winner, `B+R` resignation, `B+T` time, `Void`/`?` unfinished |
//! | root `C` | the game comment; `C` in a move's node is the move's comment |
//! | `AB`, `AW`, `AE`, `PL` (root) | [`StartPosition`](crate::record::StartPosition) when not the rules' start |
//! | `B`, `W` | moves: letter + row (`f5`, `J10`), Go-style letters (`fe`), passes `PA`, `pa`, `tt` or empty |
//! | other root properties | tags named by the ID, in order |
//!
//! The writer follows Edax's layout with valid SGF: the start as `AB`/`AW`/`PL`, one move per
//! node in letter + row form, `PA` passes, `RE` from the claimed result. It writes UTF-8 and
//! says so with `CA[UTF-8]` in every root node (SGF readers such as sgfmill assume
//! ISO-8859-1 without it), and writes each root node on one line: some old parsers take a
//! line break between properties into the next identifier.

use super::Sniff;
use crate::record::TagName;

mod charset;
mod parse;
mod quick;
mod stream;
mod write;

pub use stream::read;
#[doc(hidden)]
pub use stream::{trees, PendingTree};
pub use write::writer;

/// Root properties that map to named tags.
const TAG_IDS: [(&str, &str); 8] = [
    ("PC", TagName::SITE),
    ("DT", TagName::DATE),
    ("EV", TagName::EVENT),
    ("RO", TagName::ROUND),
    ("PB", "Black"),
    ("PW", "White"),
    ("BR", "BlackElo"),
    ("WR", "WhiteElo"),
];

/// Properties with a meaning of their own.
const STRUCTURAL_IDS: [&str; 12] = [
    "FF", "GM", "SZ", "CA", "AB", "AW", "AE", "PL", "B", "W", "C", "RE",
];

/// Whether the input looks like an Othello SGF file.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = String::from_utf8_lossy(input.head);
    let text = head.trim_start_matches('\u{feff}').trim_start();
    let Some(rest) = text.strip_prefix('(') else {
        return false;
    };
    if !rest.trim_start().starts_with(';') {
        return false;
    }
    let compact: String = text.chars().filter(|c| !c.is_whitespace()).collect();
    let upper = compact.to_ascii_uppercase();
    if upper.contains("GM[") {
        upper.contains("GM[2]")
    } else {
        upper.contains("FF[") || upper.contains("SZ[")
    }
}

#[cfg(test)]
mod tests {
    use super::parse::parse_point;
    use super::write::escape;
    use super::*;
    use crate::engine::Move;
    use crate::ReadOptions;
    use std::io;

    #[test]
    fn points() {
        let sq = |s: &str| Some(Move::Place(s.parse().unwrap()));
        assert_eq!(parse_point("f5"), sq("f5"));
        assert_eq!(parse_point("J10"), sq("j10"));
        assert_eq!(parse_point("fe"), sq("f5"));
        assert_eq!(parse_point("FE"), sq("f5"));
        assert_eq!(parse_point("tt"), Some(Move::Pass));
        assert_eq!(parse_point("PA"), Some(Move::Pass));
        assert_eq!(parse_point(""), Some(Move::Pass));
        assert_eq!(parse_point("zz"), None);
        assert_eq!(parse_point("f"), None);
    }

    #[test]
    fn a_byte_order_mark_is_not_garbage() {
        let text = "\u{feff}(;GM[2];B[f5])";
        let games: Vec<_> = read(Box::new(text.as_bytes()), &ReadOptions::default())
            .collect::<io::Result<_>>()
            .unwrap();
        assert_eq!(games.len(), 1);
        assert!(games[0].diagnostics.is_empty());
    }

    #[test]
    fn escapes_round_trip() {
        assert_eq!(escape(r"a]b\c"), r"a\]b\\c");
    }

    #[test]
    fn sniffs_othello_sgf_only() {
        let s = |t: &str| {
            sniff(&Sniff {
                head: t.as_bytes(),
                len: None,
            })
        };
        assert!(s("(;FF[4]GM[2]SZ[8]"));
        assert!(s("\n( ;GM[2]"));
        assert!(!s("(;GM[1]SZ[19]"));
        assert!(!s("1 (;GM[Othello]"));
    }
}
