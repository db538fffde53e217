//! GGF, the Generic Game Format of the Generic Game Server (GGS), as written by GGS, NBoard,
//! Edax and Welty's game kit.
//!
//! A game is `(;` properties `;)`; each property is `ID[value]` with no escaping. Archive
//! lines may carry a count prefix (`1 (;…;)`, `2 (;…;)(;…;)` for a synchro pair); several
//! games may share a file or a line. The reader streams game by game and resynchronises at
//! the next `(;` after garbage or an unterminated game, reporting what it skipped.
//!
//! # Mapping to the record model
//!
//! | GGF | record |
//! |---|---|
//! | `GM` | checked to be `Othello` (any case), not kept |
//! | `PC` | tag `Site` |
//! | `DT` | tag `Date`, verbatim (GGS dates, Unix seconds, NBoard dates all occur) |
//! | `PB`, `PW` | tags `Black`, `White` |
//! | `RB`, `RW` | tags `BlackElo`, `WhiteElo` |
//! | `TI` | tag `TimeControl` |
//! | `TB`, `TW` | tags `BlackTimeControl`, `WhiteTimeControl` |
//! | `TY` | [`Rules`](crate::engine::Rules) (without `TY`: [`ReadOptions::rules`](crate::ReadOptions::rules) when given and fitting `BO`, else 8x8 Othello): board `4` `6` `8` `10` `88` (octagon), flag `a` (anti); the exact text in tag `GgfType` unless it is the canonical form (`8`, `10a`, `88` …) |
//! | `KB`, `KW` | tags `BlackKomiBid`, `WhiteKomiBid`, verbatim |
//! | `KM` | tag `Komi` |
//! | `RE` | [`ClaimedResult`](crate::record::ClaimedResult): [`ResultScore::Margin`](crate::record::ResultScore::Margin) (Black's net discs, empties to the winner, minus komi; negated in anti games, where GGS's RE follows the winner as Welty-gdk's `getResult` does) and [`Termination`](crate::record::Termination) (`:r` resignation, `:t` time, `:s` agreement, `:l`, `?` and words unfinished) |
//! | `CO` | the game comment |
//! | `BO` | [`StartPosition`](crate::record::StartPosition) when it differs from the rules' start |
//! | `B`, `W` | moves, with colour, eval (`/eval`) and time (`/eval/time`) |
//! | anything else | a tag named by the ID, in order |
//!
//! Boards 12 and 14 are legal GGF but not supported by the engine: such games are reported
//! (`ggf-unsupported-board`) and have no record.
//!
//! The writer puts one game on a line in GGS order, `GM PC DT PB PW RB RW TI TB TW TY KB KW KM
//! RE CO BO` and the moves, then other tags; it writes evals and times as `/eval/time`
//! suffixes and passes as `PA`. Passes a record leaves out are written where replay finds
//! them. It refuses (or, when lossy, reports) what GGF cannot hold: 3-4 players, blocked
//! squares, handicaps, free openings, raw scoring, discs in hand, flip and position claims,
//! move comments, results that are only a winner or more than two counts, tags with no GGF
//! property, and `]` or `(;` inside values (GGF has no escapes). Disc counts become a margin.

use super::Sniff;
use crate::record::TagName;

mod parse;
mod quick;
mod stream;
mod ty;
mod write;

pub use stream::read;
#[doc(hidden)]
pub use stream::{reader, PendingGame};
pub use write::writer;

/// The tag that keeps a `TY` value the rules alone do not say (synchro, komi, random start,
/// colour preference, or unusual spelling).
pub const TYPE_TAG: &str = crate::record::TagName::GGF_TYPE;

/// GGF properties that map to named tags, in the order the writer puts them.
const TAG_IDS: [(&str, &str); 12] = [
    ("PC", TagName::SITE),
    ("DT", TagName::DATE),
    ("PB", "Black"),
    ("PW", "White"),
    ("RB", "BlackElo"),
    ("RW", "WhiteElo"),
    ("TI", TagName::TIME_CONTROL),
    ("TB", "BlackTimeControl"),
    ("TW", "WhiteTimeControl"),
    ("KB", "BlackKomiBid"),
    ("KW", "WhiteKomiBid"),
    ("KM", TagName::KOMI),
];

/// Properties with a meaning of their own (not tags).
const STRUCTURAL_IDS: [&str; 7] = ["GM", "TY", "RE", "BO", "B", "W", "CO"];

/// Whether the input looks like GGF: an optional count prefix, then `(;` and GGF properties.
pub fn sniff(input: &Sniff<'_>) -> bool {
    let head = String::from_utf8_lossy(input.head);
    let text = head.trim_start_matches('\u{feff}').trim_start();
    let text = text
        .trim_start_matches(|c: char| c.is_ascii_digit())
        .trim_start();
    if !text.starts_with("(;") {
        return false;
    }
    let upper = text.to_ascii_uppercase();
    upper.contains("GM[OTHELLO]")
        || (!upper.contains("GM[2]") && !upper.contains("FF[") && upper.contains("BO["))
}

#[cfg(test)]
mod tests {
    use super::parse::parse_move_token;
    use super::ty::{GgfType, TyBoard};
    use super::write::to_ggf;
    use super::*;
    use crate::codes::Code;
    use crate::engine::{BoardShape, Move};
    use crate::record::{MoveRecord, Record};
    use crate::{ParsedGame, ReadOptions};
    use std::io::{self, BufRead};

    fn read_str(text: &str) -> Vec<ParsedGame> {
        let input: Box<dyn BufRead + Send> = Box::new(io::Cursor::new(text.as_bytes().to_vec()));
        read(input, &ReadOptions::default())
            .collect::<io::Result<Vec<_>>>()
            .unwrap()
    }

    /// Gives its text, then fails.
    struct Failing(&'static [u8]);

    impl io::Read for Failing {
        fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
            if self.0.is_empty() {
                return Err(io::Error::other("disk on fire"));
            }
            let n = buf.len().min(self.0.len());
            buf[..n].copy_from_slice(&self.0[..n]);
            self.0 = &self.0[n..];
            Ok(n)
        }
    }

    #[test]
    fn input_errors_end_the_stream_after_the_games_read() {
        let input = io::BufReader::new(Failing(b"(;GM[Othello]B[f5];)\n(;GM[Oth"));
        let mut games = read(Box::new(input), &ReadOptions::default());
        let first = games.next().unwrap().unwrap();
        assert_eq!(first.record.unwrap().moves.len(), 1);
        assert_eq!(
            games.next().unwrap().unwrap_err().to_string(),
            "disk on fire"
        );
        assert!(games.next().is_none());
    }

    #[test]
    fn sniffs_ggf_only() {
        let s = |t: &str| {
            sniff(&Sniff {
                head: t.as_bytes(),
                len: None,
            })
        };
        assert!(s("1 (;GM[Othello]PC[GGS/os]"));
        assert!(s("\n(;GM[othello]PC[Edax]"));
        assert!(s("(;PB[x]BO[8 ---"));
        assert!(!s("(;FF[4]GM[2]SZ[8]BO[x]"));
        assert!(!s("[Event \"x\"]"));
        assert!(s("\u{feff}(;GM[Othello]"));
    }

    #[test]
    fn type_grammar() {
        let t = GgfType::parse("s8r18");
        assert_eq!(t.board, Some(TyBoard::Shape(BoardShape::Eight)));
        assert!(t.errors.is_empty());
        let t = GgfType::parse("10A");
        assert!(t.anti && t.errors.is_empty());
        assert_eq!(t.board, Some(TyBoard::Shape(BoardShape::Ten)));
        assert_eq!(
            GgfType::parse("88").board,
            Some(TyBoard::Shape(BoardShape::Octagon))
        );
        assert_eq!(GgfType::parse("14").board, Some(TyBoard::Unsupported(14)));
        assert_eq!(GgfType::parse("8sk").errors.len(), 1);
        assert_eq!(GgfType::parse("8r").errors.len(), 1);
        assert_eq!(GgfType::parse("8q").errors[0].0, "has an unknown token `q`");
        assert_eq!(GgfType::parse("9").errors.len(), 1);
    }

    #[test]
    fn a_byte_order_mark_is_not_garbage() {
        let games = read_str("\u{feff}(;GM[Othello]B[f5];)");
        assert_eq!(games.len(), 1);
        assert!(games[0].diagnostics.is_empty());
        assert_eq!(games[0].source.offset, 3);
    }

    #[test]
    fn moves_and_passes() {
        assert_eq!(parse_move_token("pass"), Some(Move::Pass));
        assert_eq!(parse_move_token("PA"), Some(Move::Pass));
        assert_eq!(parse_move_token("p"), Some(Move::Pass));
        assert_eq!(parse_move_token("--"), Some(Move::Pass));
        assert_eq!(
            parse_move_token("D10"),
            Some(Move::Place("d10".parse().unwrap()))
        );
        assert_eq!(parse_move_token("passe"), None);
        for pass in ["pAsS", "pas", "Ps", "P"] {
            assert_eq!(parse_move_token(pass), Some(Move::Pass), "{pass}");
        }
        for not in ["pp", "sp", "-", "---", "pé", "é", "pass ", "a0", "k5"] {
            assert_eq!(parse_move_token(not), None, "{not}");
        }
        assert_eq!(parse_move_token(""), None);
    }

    #[test]
    fn garbage_and_unterminated_games_resync() {
        let games = read_str("junk\n1 (;GM[Othello]B[f5]\n(;GM[Othello]B[d3];)\n");
        assert_eq!(games.len(), 2);
        let codes: Vec<_> = games[0].diagnostics.iter().map(|d| d.code).collect();
        assert_eq!(codes, [Code::GgfGarbage, Code::SyntaxUnterminatedGame]);
        assert!(games[1].diagnostics.is_empty());
        assert_eq!(games[1].record.as_ref().unwrap().moves.len(), 1);
        assert_eq!(games[1].source.line, 2);
        assert_eq!(&*games[1].source.text, "(;GM[Othello]B[d3];)");
    }

    #[test]
    fn writer_refuses_what_ggf_cannot_hold() {
        let mut record = Record::new("othello,blocked=a1".parse().unwrap());
        record.moves.push(MoveRecord {
            comment: Some("good".into()),
            ..MoveRecord::new(Move::Pass)
        });
        // The rules are the capability table's: the writer lists what is around the game.
        let (_, losses) = to_ggf(&record);
        assert_eq!(losses, ["a comment on move 1"]);
        assert_eq!(
            crate::capabilities::meaning_losses(crate::Format::Ggf, &record),
            ["blocked squares"]
        );
    }
}
