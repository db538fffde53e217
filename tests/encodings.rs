//! Encodings declared and honoured (issue 28): names beyond Latin-1 (`Š`, `œ`, `€`,
//! Japanese) in every text format that holds names, WTHOR's name files in the characters
//! ISO-8859-1 and Windows-1252 readers share, and SGF's `CA` read and written.

use std::path::Path;

use reversi_engine::{Move, Rules};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, Tag};
use reversi_formats::wthor::{name_bytes, NameKind, NameTable};
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteError, WriteOptions};

mod common;
use common::scratch;

const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures");

const BLACK: &str = "Šimon Œuvre";
const WHITE: &str = "村上 健";
const EVENT: &str = "Coupe € 2026 – Zoë";

/// A short game with a claimed disc count, an event, a year and two players whose names
/// go beyond Latin-1.
fn game() -> Record {
    let mut r = Record::new(Rules::default());
    for sq in ["f5", "d6", "c3", "d3", "c4"] {
        r.moves
            .push(MoveRecord::new(Move::Place(sq.parse().unwrap())));
    }
    r.result = Some(ClaimedResult::discs(vec![40, 24]));
    r.tags.push(Tag::new("Event", EVENT));
    r.tags.push(Tag::new("Date", "2026"));
    r.tags.push(Tag::new("Black", BLACK));
    r.tags.push(Tag::new("White", WHITE));
    r
}

fn options(format: Format, lossy: bool) -> WriteOptions {
    WriteOptions {
        lossy,
        dialect: match format {
            Format::Pgn(d) => Some(d.name().to_string()),
            _ => None,
        },
        ..WriteOptions::default()
    }
}

fn read(format: Format, bytes: &[u8], options: &ReadOptions) -> Record {
    let games = format.read_bytes(bytes.to_vec(), options).expect("reads");
    assert!(
        games[0].diagnostics.is_empty(),
        "{format}: {:?}",
        games[0].diagnostics
    );
    games[0].record.clone().expect("a record")
}

#[test]
fn names_beyond_latin1_round_trip_in_every_text_format_that_holds_names() {
    let record = game();
    let formats = [
        Format::Rgn,
        Format::Json,
        Format::Ggf,
        Format::Sgf,
        Format::Pgn(PgnDialect::Thor),
        Format::Pgn(PgnDialect::PlayOk),
        Format::Pgn(PgnDialect::Edax),
        Format::Transcript,
    ];
    for format in formats {
        let (bytes, lost) = format
            .write_bytes(std::slice::from_ref(&record), &options(format, true))
            .unwrap_or_else(|e| panic!("{format}: {e}"));
        let text = String::from_utf8(bytes).expect("every text writer writes UTF-8");
        assert!(
            lost.iter().all(|l| !l.contains("character")),
            "{format}: {lost:?}"
        );
        for name in [BLACK, WHITE] {
            assert!(
                text.contains(name),
                "{format} writes {name} as it is:\n{text}"
            );
        }
        let back = read(format, text.as_bytes(), &ReadOptions::default());
        assert_eq!(back.tag("Black"), Some(BLACK), "{format}");
        assert_eq!(back.tag("White"), Some(WHITE), "{format}");
        if let Some(event) = back.tag("Event") {
            assert!(event.starts_with(EVENT), "{format}: {event}");
        }
    }
}

#[test]
fn sgf_declares_utf8_and_keeps_the_root_node_on_one_line() {
    let (bytes, _) = Format::Sgf
        .write_bytes(&[game()], &options(Format::Sgf, false))
        .unwrap();
    let text = String::from_utf8(bytes).unwrap();
    let root = text.lines().next().unwrap();
    assert!(root.starts_with("(;FF[4]GM[2]SZ[8]CA[UTF-8]"), "{text}");
    assert!(
        root.contains(&format!("PB[{BLACK}]")) && root.contains("RE[B+16]"),
        "every root property on the first line: {text}"
    );
    assert!(text.lines().nth(1).unwrap().starts_with(";B[f5]"));
}

#[test]
fn an_sgf_in_latin1_is_read_right_and_written_back_as_utf8() {
    let path = Path::new(FIXTURES).join("sgf/valid/latin1.sgf");
    let bytes = std::fs::read(&path).unwrap();
    assert!(
        bytes.contains(&0xe8) && std::str::from_utf8(&bytes).is_err(),
        "real Latin-1"
    );
    let record = read(Format::Sgf, &bytes, &ReadOptions::default());
    assert_eq!(record.tag("Event"), Some("Championnat de Suède"));
    assert_eq!(record.tag("Black"), Some("Prétendants François"));
    assert_eq!(record.tag("CA"), None, "the source's charset is not a tag");
    assert_eq!(record.moves[4].comment.as_deref(), Some("très bien"));
    let (out, lost) = Format::Sgf
        .write_bytes(std::slice::from_ref(&record), &WriteOptions::default())
        .unwrap();
    assert!(lost.is_empty());
    let text = String::from_utf8(out).expect("written as UTF-8");
    assert!(
        text.contains("CA[UTF-8]") && !text.contains("ISO-8859-1"),
        "{text}"
    );
    assert!(text.contains("EV[Championnat de Suède]"));
    assert_eq!(
        read(Format::Sgf, text.as_bytes(), &ReadOptions::default()).without_spans(),
        record.without_spans()
    );

    // Windows-1252: the bytes 0x80-0x9F are its signs and letters.
    let path = Path::new(FIXTURES).join("sgf/valid/windows1252.sgf");
    let record = read(
        Format::Sgf,
        &std::fs::read(path).unwrap(),
        &ReadOptions::default(),
    );
    assert_eq!(record.tag("Black"), Some("Šimon"));
    assert_eq!(record.tag("Event"), Some("Coupe €uvre"));
}

#[test]
fn an_sgf_that_declares_latin1_but_is_utf8_is_read_as_utf8_with_a_warning() {
    let path = Path::new(FIXTURES).join("sgf/invalid/charset_mismatch.sgf");
    let games = Format::Sgf
        .read_bytes(std::fs::read(path).unwrap(), &ReadOptions::default())
        .unwrap();
    let codes: Vec<&str> = games[0].diagnostics.iter().map(|d| d.code.name()).collect();
    assert_eq!(codes, ["sgf-charset-mismatch"]);
    assert_eq!(
        games[0].record.as_ref().unwrap().tag("Event"),
        Some("Prétendants")
    );
}

fn wthor_options(dir: &Path, lossy: bool) -> WriteOptions {
    WriteOptions {
        lossy,
        names_dir: Some(dir.to_path_buf()),
        ..WriteOptions::default()
    }
}

#[test]
fn wthor_names_beyond_latin1_are_refused_or_replaced_with_lossy() {
    let dir = scratch("wthor");
    match Format::Wthor.write_bytes(&[game()], &wthor_options(&dir, false)) {
        Err(e @ WriteError::CannotHold(_)) => {
            let text = e.to_string();
            for c in ['€', 'Š', '村'] {
                assert!(text.contains(&format!("the character '{c}'")), "{text}");
            }
        }
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(
        !dir.join("WTHOR.JOU").exists(),
        "a refused game adds no name"
    );

    let (bytes, lost) = Format::Wthor
        .write_bytes(&[game()], &wthor_options(&dir, true))
        .unwrap();
    assert_eq!(
        lost,
        [
            "the character '€' in the tournament name \"Coupe € 2026 – Zoë\" (WTHOR name files hold ISO-8859-1 letters; written \"Coupe EUR 2026 - Zoë\")",
            "the character 'Š' in the player name \"Šimon Œuvre\" (WTHOR name files hold ISO-8859-1 letters; written \"Simon OEuvre\")",
            "the character '村' in the player name \"村上 健\" (WTHOR name files hold ISO-8859-1 letters; written \"?? ?\")",
        ]
    );
    let jou = NameTable::read(NameKind::Player, &dir.join("WTHOR.JOU")).unwrap();
    let trn = NameTable::read(NameKind::Tournament, &dir.join("WTHOR.TRN")).unwrap();
    assert_eq!(jou.find("Simon OEuvre"), Some(1));
    assert_eq!(jou.find("?? ?"), Some(2));
    assert_eq!(trn.find("Coupe EUR 2026 - Zoë"), Some(1));
    // Every byte written is one ISO-8859-1 and Windows-1252 read alike: no 0x80-0x9F.
    for file in ["WTHOR.JOU", "WTHOR.TRN"] {
        let names = std::fs::read(dir.join(file)).unwrap();
        assert!(
            names[16..].iter().all(|&b| !(0x80..=0x9F).contains(&b)),
            "{file}"
        );
    }
    assert!(std::fs::read(dir.join("WTHOR.TRN"))
        .unwrap()
        .windows(3)
        .any(|w| w == b"Zo\xeb"));
    let path = dir.join("WTH_2026.wtb");
    std::fs::write(&path, bytes).unwrap();
    let read_options = ReadOptions {
        path: Some(path.clone()),
        ..ReadOptions::default()
    };
    let back = read(Format::Wthor, &std::fs::read(&path).unwrap(), &read_options);
    assert_eq!(back.tag("Black"), Some("Simon OEuvre"));
    assert_eq!(back.tag("Event"), Some("Coupe EUR 2026 - Zoë"));
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn a_name_already_in_the_name_file_is_kept_whatever_its_bytes() {
    // A name file written by a Windows tool, with "Šimon" as Windows-1252 byte 0x8A: a game
    // naming him gets his index; nothing new is written.
    let dir = scratch("cp1252-names");
    let mut players = NameTable::new(NameKind::Player);
    players.push("Šimon".into());
    std::fs::write(dir.join("WTHOR.JOU"), players.to_bytes().unwrap()).unwrap();
    let before = std::fs::read(dir.join("WTHOR.JOU")).unwrap();
    assert!(before.contains(&0x8A));
    let mut r = game();
    r.tags.retain(|t| t.name == "Date");
    r.tags.push(Tag::new("Black", "Šimon"));
    let (bytes, lost) = Format::Wthor
        .write_bytes(&[r], &wthor_options(&dir, false))
        .unwrap();
    assert!(lost.is_empty(), "{lost:?}");
    assert_eq!(&bytes[16 + 2..16 + 4], &[1, 0]);
    assert_eq!(std::fs::read(dir.join("WTHOR.JOU")).unwrap(), before);
    assert!(name_bytes("Šimon").is_err(), "it would not be written anew");
    std::fs::remove_dir_all(&dir).unwrap();
}
