//! WTHOR: the real FFO files (counts, an engine oracle for the scores, byte-identical round
//! trips, names), fixture snapshots and writer refusals.

use std::fs::File;
use std::io::BufReader;
use std::path::{Path, PathBuf};

use reversi_engine::{BoardShape, Move, Position, Rules};
use reversi_formats::diagnostic::render_plain;
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, ResultScore, Tag};
use reversi_formats::wthor::{self, NameKind, NameTable};
use reversi_formats::{ParsedGame, ReadOptions, WriteError, WriteOptions};

const DATA: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/data/wthor");
const FIXTURES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/wthor");

/// The real files and their header game counts.
const REAL: [(&str, usize); 5] = [
    ("WTH_1977.wtb", 12),
    ("WTH_1990.wtb", 2_986),
    ("WTH_2004.wtb", 9_113),
    ("WTH_2015.wtb", 1_926),
    ("WTH_2021.wtb", 320),
];

/// The WTHOR folder of the repository's real data (`data/wthor`, see `data/SOURCES.md`); a
/// missing folder fails the test.
fn data_dir() -> PathBuf {
    let dir = PathBuf::from(DATA);
    assert!(
        dir.is_dir(),
        "{DATA} is missing: the real data is part of the repository (data/SOURCES.md)"
    );
    dir
}

fn read_path(path: &Path, names_dir: Option<PathBuf>) -> Vec<ParsedGame> {
    let file = File::open(path).expect("file opens");
    let options = ReadOptions {
        name: path
            .file_name()
            .map_or("-".into(), |n| n.to_string_lossy().into()),
        path: Some(path.to_path_buf()),
        names_dir,
        ..ReadOptions::default()
    };
    wthor::read(Box::new(BufReader::new(file)), &options)
        .collect::<Result<Vec<_>, _>>()
        .expect("no I/O error")
}

fn read_bytes(bytes: &[u8]) -> Vec<ParsedGame> {
    let options = ReadOptions {
        name: "test.wtb".into(),
        ..ReadOptions::default()
    };
    wthor::read(Box::new(std::io::Cursor::new(bytes.to_vec())), &options)
        .collect::<Result<Vec<_>, _>>()
        .expect("no I/O error")
}

fn write_all(records: &[Record], options: &WriteOptions) -> Result<Vec<u8>, WriteError> {
    let mut out = Vec::new();
    {
        let mut writer = wthor::writer(Box::new(&mut out), options);
        for r in records {
            writer.write(r)?;
        }
        writer.finish()?;
    }
    Ok(out)
}

#[test]
fn real_files_read_cleanly_with_their_counts() {
    let dir = data_dir();
    for (name, count) in REAL {
        let games = read_path(&dir.join(name), None);
        assert_eq!(games.len(), count, "{name}");
        for (i, g) in games.iter().enumerate() {
            assert_eq!(g.index, i + 1);
            assert_eq!(g.source.line, i);
            assert!(
                g.diagnostics.is_empty(),
                "{name} #{}: {:?}",
                g.index,
                g.diagnostics
            );
            let record = g.record.as_ref().expect("every record reads");
            assert_eq!(record.rules, Rules::othello(BoardShape::Eight));
            assert!(record.moves.iter().all(|m| m.mv != Move::Pass));
            // Every span points into the game's own line of the text view.
            let text = &g.source.text;
            for m in &record.moves {
                let span = m.span.expect("move span");
                let local = span.offset - g.source.offset;
                assert_eq!(&text[local..local + span.len], m.mv.to_string());
            }
            let span = record
                .result
                .as_ref()
                .and_then(|r| r.span)
                .expect("score span");
            let local = span.offset - g.source.offset;
            let ResultScore::Discs(d) = &record.result.as_ref().unwrap().score else {
                panic!("disc score")
            };
            assert_eq!(text[local..local + span.len], d[0].to_string());
            assert_eq!(d[0] + d[1], 64);
        }
        // Lines follow each other in the virtual text.
        for pair in games.windows(2) {
            assert_eq!(
                pair[1].source.offset,
                pair[0].source.offset + pair[0].source.text.len() + 1
            );
        }
    }
}

#[test]
fn oracle_scores_match_the_engine() {
    let dir = data_dir();
    let mut unfinished_1990 = None;
    for (name, _) in REAL {
        let mut unfinished = 0;
        for g in read_path(&dir.join(name), None) {
            let record = g.record.expect("record");
            let mut pos = Position::new(record.rules);
            for (i, m) in record.moves.iter().enumerate() {
                if pos.must_pass() {
                    pos.play(Move::Pass).expect("a pass is legal when forced");
                }
                pos.play(m.mv)
                    .unwrap_or_else(|e| panic!("{name} #{} move {}: {e:?}", g.index, i + 1));
            }
            let stored = match record.result.map(|r| r.score) {
                Some(ResultScore::Discs(d)) => d[0],
                other => panic!("{name} #{}: {other:?}", g.index),
            };
            match pos.outcome() {
                Some(outcome) => assert_eq!(
                    outcome.score[0], stored,
                    "{name} #{}: engine {:?}, stored {stored}",
                    g.index, outcome
                ),
                None => unfinished += 1,
            }
            assert_eq!(
                record
                    .tags
                    .iter()
                    .find(|t| t.name == "TheoreticalDepth")
                    .map(|t| t.value.as_str()),
                Some("24")
            );
        }
        if name == "WTH_1990.wtb" {
            unfinished_1990 = Some(unfinished);
        }
        eprintln!("{name}: {unfinished} unfinished games");
    }
    assert_eq!(unfinished_1990, Some(21));
}

#[test]
fn real_files_round_trip_byte_for_byte() {
    let dir = data_dir();
    for (name, _) in REAL {
        let path = dir.join(name);
        let original = std::fs::read(&path).expect("read");
        // With the names joined (found beside the file), and without.
        for names in [true, false] {
            let games = if names {
                read_path(&path, None)
            } else {
                read_bytes(&original)
            };
            let records: Vec<Record> = games
                .into_iter()
                .map(|g| g.record.expect("record"))
                .collect();
            if names {
                assert!(records[0].tag("Black").is_some(), "{name}: names joined");
            }
            let written = write_all(&records, &WriteOptions::default()).expect("writes");
            assert!(
                written == original,
                "{name} (names {names}) differs after a round trip"
            );
        }
    }
}

#[test]
fn names_decode_windows_1252() {
    let dir = data_dir();
    let players = NameTable::read(NameKind::Player, &dir.join("WTHOR.JOU")).expect("JOU");
    let tournaments = NameTable::read(NameKind::Tournament, &dir.join("WTHOR.TRN")).expect("TRN");
    assert_eq!(players.len(), 3_884);
    assert_eq!(tournaments.len(), 439);
    assert_eq!(players.get(0), Some("???"));
    assert_eq!(players.get(1), Some("Tastet Marc"));
    assert_eq!(tournaments.get(0), Some("Diverses parties"));
    assert_eq!(tournaments.get(1), Some("World Championship"));
    assert!(tournaments.find("Préqualif de Paris").is_some());
    assert!(tournaments.find("Pérenchies (prg)").is_some());
    assert!(tournaments.find("Championnat de Suède").is_some());
    assert!(players.find("Thor (quin/becquet)").is_some());
    assert!(tournaments.find("Match Murakami-Logistello").is_some());

    // Joined into the tags of games, found beside the file or given as a directory.
    let games = read_path(&dir.join("WTH_2004.wtb"), None);
    let first = games[0].record.as_ref().unwrap();
    let index = |tag: &str| first.tag(tag).unwrap().parse::<u16>().unwrap();
    assert_eq!(
        first.tag("Event"),
        tournaments.get(index("WthorTournament"))
    );
    assert_eq!(first.tag("Black"), players.get(index("WthorBlack")));
    assert_eq!(first.tag("White"), players.get(index("WthorWhite")));
    assert_eq!(first.tag("Date"), Some("2004"));
    insta::assert_snapshot!(games[1233].source.text, @"#1234 [byte 83860] EGP Cambridge 2004 | Shaman David - de Grey Aubrey | 42 (42@24): f5 d6 c5 f4 e3 f6 f3 e2 g4 g5 f2 c4 e6 h4 g3 f1 d3 b4 b6 c6 h5 h6 h3 g6 b3 c2 c3 b5 d2 a3 a4 e1 a5 h2 a2 e7 f8 d8 c1 c7 d1 b1 c8 a7 d7 b8 g7 b7 e8 g2 b2 f7 g8 h8 h1 g1 a1 a6 a8 h7");
    let elsewhere = std::env::temp_dir().join(format!("wthor-copy-{}.wtb", std::process::id()));
    std::fs::copy(dir.join("WTH_1977.wtb"), &elsewhere).unwrap();
    let alone = read_path(&elsewhere, None);
    assert_eq!(alone[0].record.as_ref().unwrap().tag("Black"), None);
    let joined = read_path(&elsewhere, Some(dir.clone()));
    assert!(joined[0].record.as_ref().unwrap().tag("Black").is_some());
    std::fs::remove_file(&elsewhere).unwrap();
}

/// Renders what a reader made of a file: text view, records, diagnostics.
fn dump(games: &[ParsedGame]) -> String {
    let mut out = String::from("## Text view\n");
    for g in games {
        out.push_str(&g.source.text);
        out.push('\n');
    }
    out.push_str("\n## Records\n");
    for g in games {
        match &g.record {
            Some(r) => out.push_str(&serde_json::to_string_pretty(r).unwrap()),
            None => out.push_str(&format!("#{}: none", g.index)),
        }
        out.push('\n');
    }
    out.push_str("\n## Diagnostics\n");
    for g in games {
        for d in &g.diagnostics {
            out.push_str(&render_plain(d, &g.source));
            out.push('\n');
        }
    }
    out
}

#[test]
fn valid_fixtures() {
    insta::glob!("../fixtures/wthor", "valid/**/*.wt[bd]", |path| {
        let games = read_path(path, None);
        assert!(!games.is_empty());
        for g in &games {
            assert!(g.diagnostics.is_empty(), "{:?}", g.diagnostics);
            assert!(g.record.is_some());
        }
        // The fixture writes back as it was.
        let records: Vec<Record> = games.iter().filter_map(|g| g.record.clone()).collect();
        let written = write_all(&records, &WriteOptions::default()).expect("writes");
        assert_eq!(written, std::fs::read(path).unwrap());
        insta::assert_snapshot!(dump(&games));
    });
}

#[test]
fn invalid_fixtures() {
    insta::glob!("../fixtures/wthor", "invalid/**/*.wtb", |path| {
        // Read by its path relative to the crate (the tests' working directory), so that
        // messages naming a file wrap the same in every checkout.
        let relative = path
            .strip_prefix(env!("CARGO_MANIFEST_DIR"))
            .unwrap_or(path);
        let games = read_path(relative, None);
        assert!(
            games.iter().any(|g| !g.diagnostics.is_empty()),
            "an invalid fixture gives diagnostics"
        );
        for g in &games {
            for d in &g.diagnostics {
                assert!(d.code.name().starts_with("wthor-"));
                assert_eq!(d.game, Some(g.index));
                if let Some(span) = d.span {
                    let start = span
                        .offset
                        .checked_sub(g.source.offset)
                        .expect("span in its line");
                    assert!(start + span.len <= g.source.text.len(), "span in its line");
                }
            }
        }
        // A name file's path appears in its message: keep the snapshot free of the checkout.
        insta::assert_snapshot!(dump(&games).replace(FIXTURES, "fixtures/wthor"));
    });
}

#[test]
fn fixtures_are_what_the_readme_says() {
    let read = |name: &str| std::fs::read(format!("{FIXTURES}/{name}")).unwrap();
    let nboard = read("valid/nboard_test.wtb");
    assert_eq!(nboard.len(), 84);
    let changes = |name: &str| -> Vec<(usize, u8)> {
        let bytes = read(name);
        (0..68)
            .filter(|&i| bytes[16 + i] != nboard[16 + i])
            .map(|i| (i, bytes[16 + i]))
            .collect()
    };
    assert_eq!(changes("invalid/bad_move_byte.wtb"), [(13, 19)]);
    assert_eq!(changes("invalid/move_after_end.wtb"), [(48, 0), (50, 0)]);
    assert_eq!(changes("invalid/bad_score.wtb"), [(6, 70)]);
    let u16_at = |name: &str, at: usize| {
        let b = read(name);
        u16::from_le_bytes([b[16 + at], b[17 + at]])
    };
    let indexes = |name: &str| [0, 2, 4].map(|at| u16_at(name, at));
    assert_eq!(indexes("valid/names/WTH_2001.wtb"), [2, 3, 1]);
    assert_eq!(indexes("invalid/unknown_names/WTH_1999.wtb"), [9, 1, 300]);
}

fn game(moves: &str) -> Record {
    let mut r = Record::new(Rules::default());
    r.moves = moves
        .split_whitespace()
        .map(|m| {
            MoveRecord::new(if m == "pass" {
                Move::Pass
            } else {
                Move::Place(m.parse().unwrap())
            })
        })
        .collect();
    r.result = Some(ClaimedResult::discs(vec![40, 24]));
    // A WTHOR file holds the games of one year.
    r.tags.push(Tag::new("Date", "2026"));
    r
}

fn refusal(record: &Record, options: &WriteOptions) -> String {
    match write_all(std::slice::from_ref(record), options) {
        Err(e @ (WriteError::CannotHold(_) | WriteError::ChangesMeaning(_))) => e.to_string(),
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn writer_refuses_what_wthor_cannot_hold() {
    let plain = WriteOptions::default();
    let mut r = game("f5 d6");
    r.rules = "othello:6x6".parse().unwrap();
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold a 6x6 board (it holds 8x8 and 10x10)");
    r.rules = "multi3".parse().unwrap();
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold 3 players (it holds 2)");
    r.rules = "anti".parse().unwrap();
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold anti-reversi (fewest discs win)");

    let mut r = game("f5 d6 c3");
    r.moves[1].comment = Some("good".into());
    r.moves[2].eval = Some(1.5);
    r.comment = Some("a game".into());
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold the game comment; a comment on move 2; an evaluation on move 3");

    let mut r = game("f5");
    r.result = Some(ClaimedResult {
        score: ResultScore::Winner(Some(reversi_engine::Color::Black)),
        ..ClaimedResult::discs(vec![])
    });
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold a result that names only the winner");
    r.result = None;
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold a missing result (WTHOR stores Black's disc count)");
    r.result = Some(ClaimedResult::discs(vec![33, 29]));
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold White's count in the score 33-29 (WTHOR stores Black's; White's is 64 minus it)");

    let mut r = game("f5");
    r.tags
        .push(Tag::new("Black", "Someone With A Very Long Name"));
    r.tags.push(Tag::new("Site", "Paris"));
    insta::assert_snapshot!(refusal(&r, &plain), @r#"the target format cannot hold the tag `Site`; the player name "Someone With A Very Long Name" (no names directory to write WTHOR.JOU into)"#);
    let dir = std::env::temp_dir().join(format!("wthor-refusals-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let with_names = WriteOptions {
        names_dir: Some(dir.clone()),
        ..WriteOptions::default()
    };
    r.tags.push(Tag::new("Date", "2004.05.12"));
    insta::assert_snapshot!(refusal(&r, &with_names), @r#"the target format cannot hold the tag `Site`; the date "2004.05.12" beyond its year; the end of the player name "Someone With A Very Long Name" (cut to "Someone With A Very": WTHOR holds 19 bytes)"#);
    assert!(
        !dir.join("WTHOR.JOU").exists(),
        "a refused record adds no name"
    );
    std::fs::remove_dir_all(&dir).unwrap();

    let mut r = game(&"f5 ".repeat(61));
    r.tags.clear();
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold 61 placements (WTHOR holds 60, one a square)");

    let mut r = game("f5");
    r.start = Some(reversi_formats::record::StartPosition {
        setup: reversi_engine::Setup {
            turn: reversi_engine::Color::White,
            ..Record::new(Rules::default()).start_setup()
        },
        in_hand: None,
        span: None,
    });
    insta::assert_snapshot!(refusal(&r, &plain), @"the target format cannot hold a start position other than the rules' own");

    // One file holds one board.
    let mut ten = game("f5");
    ten.rules = "othello:10x10".parse().unwrap();
    ten.result = Some(ClaimedResult::discs(vec![60, 40]));
    let err = write_all(&[game("f5 d6"), ten], &plain).unwrap_err();
    insta::assert_snapshot!(err.to_string(), @"the target format cannot hold a 10x10 board (this file holds 8x8 games)");

    // Passes are not a loss: replay infers them.
    let passes = game("f5 pass d6");
    let bytes = write_all(&[passes], &plain).expect("passes are dropped silently");
    assert_eq!(&bytes[16 + 8..16 + 11], &[56, 64, 0]);
}

#[test]
fn writer_adds_names_to_the_tables() {
    let dir = std::env::temp_dir().join(format!("wthor-names-out-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let options = WriteOptions {
        names_dir: Some(dir.clone()),
        ..WriteOptions::default()
    };
    let mut a = game("f5 d6 c3");
    a.tags.push(Tag::new("Event", "Championnat de Suède"));
    a.tags.push(Tag::new("Black", "Łukasz"));
    a.tags.push(Tag::new("White", "Zoë"));
    let text = refusal(&a, &options);
    assert!(
        text.contains("the character 'Ł' in the player name \"Łukasz\""),
        "{text}"
    );
    if let Some(black) = a.tags.iter_mut().find(|t| t.name == "Black") {
        black.value = "Lukasz".into();
    }
    let mut b = game("f5 f6");
    b.tags.push(Tag::new("Black", "Zoë"));
    b.tags.push(Tag::new("White", "Lukasz"));
    let bytes = write_all(&[a, b], &options).expect("writes");
    let games = read_path(
        &{
            let p = dir.join("WTH_NEW.wtb");
            std::fs::write(&p, &bytes).unwrap();
            p
        },
        None,
    );
    assert_eq!(games.len(), 2);
    let first = games[0].record.as_ref().unwrap();
    assert_eq!(first.tag("Event"), Some("Championnat de Suède"));
    assert_eq!(first.tag("Black"), Some("Lukasz"));
    assert_eq!(first.tag("WthorBlack"), Some("1"));
    let second = games[1].record.as_ref().unwrap();
    assert_eq!(second.tag("Black"), Some("Zoë"));
    assert_eq!(second.tag("White"), Some("Lukasz"));
    assert_eq!(second.tag("Event"), Some("Diverses parties"));
    let trn = std::fs::read(dir.join("WTHOR.TRN")).unwrap();
    assert_eq!(&trn[16 + 26..16 + 26 + 20], b"Championnat de Su\xe8de");

    // Lossy: the character is replaced by its base letter and reported; the name it
    // gives is already there.
    let lossy = WriteOptions {
        lossy: true,
        ..options.clone()
    };
    let mut c = game("f5");
    c.tags.push(Tag::new("Black", "Łukasz"));
    let mut out = Vec::new();
    let mut writer = wthor::writer(Box::new(&mut out), &lossy);
    let lost = writer.write(&c).expect("lossy writes");
    assert_eq!(
        lost,
        ["the character 'Ł' in the player name \"Łukasz\" (WTHOR name files hold ISO-8859-1 letters; written \"Lukasz\")"]
    );
    writer.finish().unwrap();
    drop(writer);
    assert_eq!(&out[16 + 2..16 + 4], &[1, 0], "Lukasz's index");
    let jou = NameTable::read(NameKind::Player, &dir.join("WTHOR.JOU")).unwrap();
    assert_eq!(jou.len(), 3);
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sniff_recognises_game_files_only() {
    use reversi_formats::{Format, Sniff};
    let dir = data_dir();
    for (name, _) in REAL {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let head = &bytes[..bytes.len().min(4096)];
        let size = bytes.len() as u64;
        let len = Some(size);
        assert_eq!(
            Format::sniff(&Sniff { head, len }),
            Some(Format::Wthor),
            "{name}"
        );
        assert!(
            wthor::sniff(&Sniff { head, len: None }),
            "{name} without its length"
        );
        assert!(
            !wthor::sniff(&Sniff {
                head,
                len: Some(size - 1)
            }),
            "{name} cut"
        );
    }
    for name in ["WTHOR.JOU", "WTHOR.TRN"] {
        let bytes = std::fs::read(dir.join(name)).unwrap();
        let sniff = Sniff {
            head: &bytes[..4096],
            len: Some(bytes.len() as u64),
        };
        assert!(!wthor::sniff(&sniff), "{name}");
    }
}

#[test]
fn lossy_writing_reports_and_replays_a_missing_score() {
    let mut r = game("f5 d6 c3 d3 c4 f4 f6 f3 e6 e7");
    r.result = None;
    r.tags.push(Tag::new("Round", "3"));
    let lossy = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    let mut out = Vec::new();
    let mut writer = wthor::writer(Box::new(&mut out), &lossy);
    let lost = writer.write(&r).expect("lossy writes");
    assert_eq!(
        lost,
        [
            "a missing result (WTHOR stores Black's disc count)",
            "the tag `Round`"
        ]
    );
    writer.finish().unwrap();
    drop(writer);
    // The unfinished board's count stands in for the score: replay it independently.
    let mut pos = Position::new(Rules::default());
    for m in &r.moves {
        pos.play(m.mv).unwrap();
    }
    assert_eq!(out[16 + 6], pos.counts_outcome().score[0]);
    assert_eq!(
        out[16 + 7],
        out[16 + 6],
        "no theoretical score: the actual one"
    );
    assert_eq!(
        out[14], 1,
        "P3 = 1 marks the theoretical scores as meaningless"
    );
}

#[test]
fn an_empty_writer_writes_a_header_only() {
    let bytes = write_all(&[], &WriteOptions::default()).unwrap();
    assert_eq!(bytes.len(), 16);
    assert_eq!(&bytes[4..8], &[0, 0, 0, 0]);
    let games = read_bytes(&bytes);
    assert!(games.is_empty());
}

#[test]
fn ten_by_ten_records_write_twelve_times_row_plus_column() {
    let mut r = Record::new("othello:10x10".parse().unwrap());
    r.moves = ["g6", "j10", "a1"]
        .iter()
        .map(|m| MoveRecord::new(Move::Place(m.parse().unwrap())))
        .collect();
    r.result = Some(ClaimedResult::discs(vec![60, 40]));
    r.tags.push(Tag::new("Date", "2026"));
    let bytes = write_all(&[r.clone()], &WriteOptions::default()).unwrap();
    assert_eq!(bytes.len(), 16 + 104);
    assert_eq!(bytes[12], 10);
    assert_eq!(&bytes[16 + 6..16 + 11], &[60, 60, 79, 130, 13]);
    let back = read_bytes(&bytes);
    let record = back[0].record.as_ref().unwrap();
    let moves = |r: &Record| r.moves.iter().map(|m| m.mv).collect::<Vec<_>>();
    assert_eq!(moves(record), moves(&r));
    assert_eq!(
        record.result.as_ref().map(|r| &r.score),
        r.result.as_ref().map(|r| &r.score)
    );
    let mut long = r.clone();
    long.moves = vec![MoveRecord::new(Move::Place("a1".parse().unwrap())); 97];
    insta::assert_snapshot!(refusal(&long, &WriteOptions::default()), @"the target format cannot hold 97 placements (WTHOR holds 96, one a square)");
}

proptest::proptest! {
    #[test]
    fn arbitrary_bytes_never_panic(bytes in proptest::collection::vec(proptest::num::u8::ANY, 0..400)) {
        let games = read_bytes(&bytes);
        for g in &games {
            for d in &g.diagnostics {
                if let Some(span) = d.span {
                    proptest::prop_assert!(span.offset >= g.source.offset);
                    proptest::prop_assert!(span.end() <= g.source.offset + g.source.text.len());
                }
                let _ = render_plain(d, &g.source);
            }
        }
    }

    #[test]
    fn arbitrary_records_behind_a_good_header_never_panic(
        body in proptest::collection::vec(proptest::num::u8::ANY, 0..300),
        n1 in 0u32..6,
    ) {
        let mut bytes = vec![20, 21, 6, 27];
        bytes.extend(n1.to_le_bytes());
        bytes.extend([0, 0, 0xe5, 0x07, 8, 0, 24, 0]);
        bytes.extend(&body);
        let games = read_bytes(&bytes);
        let complete = body.len() / 68;
        proptest::prop_assert!(games.len() >= complete);
        let mismatch = games.iter().any(|g| g.diagnostics.iter().any(|d| d.code.name() == "wthor-count-mismatch"));
        let truncated = body.len() % 68 != 0;
        // A truncated record announced by N1 is a truncation, not a count mismatch.
        let agrees = n1 as usize == complete + usize::from(truncated);
        proptest::prop_assert_eq!(mismatch, !agrees);
    }
}

#[test]
fn a_names_directory_without_name_files_is_reported() {
    let dir = std::env::temp_dir().join(format!("wthor-no-names-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("WTHOR.TRN"), b"too short").unwrap();
    let games = read_path(
        &PathBuf::from(format!("{FIXTURES}/valid/nboard_test.wtb")),
        Some(dir.clone()),
    );
    let messages: Vec<String> = games[0]
        .diagnostics
        .iter()
        .map(|d| {
            format!(
                "{} {:?} {}",
                d.code.name(),
                d.game,
                d.message.replace(&*dir.to_string_lossy(), "DIR")
            )
        })
        .collect();
    insta::assert_debug_snapshot!(messages, @r#"
    [
        "wthor-names-unreadable Some(1) cannot read DIR/WTHOR.TRN: expected a 16-byte header, but the file has only 9 bytes",
        "wthor-names-unreadable Some(1) no WTHOR.JOU in DIR",
    ]
    "#);
    assert!(games[0].record.is_some());
    std::fs::remove_dir_all(&dir).unwrap();
}
