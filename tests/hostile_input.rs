//! Hostile input in the library, every class of issue 20 run as the `reversi` binary in a
//! child process with its peak memory and time measured: games just under the 1 MiB limit
//! (blocks bounded by bytes, per-game caps), 10^5 properties, comments and tags in every
//! reader (linear parsing), degenerate WTHOR files (all-zero records, oversized name
//! files), and control characters from records (never raw in an output or a report).
//!
//! Inputs are generated here and kept to a few megabytes (16 MB for the 1 MiB games), so
//! that the file runs in well under a minute.
#![cfg(unix)]

mod common;

use common::child::{path_str, run, Run};
use common::scratch;

use std::fs;
use std::path::Path;
use std::time::Duration;

/// The longest a linear parse of these inputs may take on a loaded 2-core CI machine: a
/// quadratic one takes 10-30 s on 10^5 items (22 s for GGF properties, 14 s for RGN
/// comments, 31 s for SGF properties before this work).
const LINEAR_BOUND: Duration = Duration::from_secs(3);

/// Just under the 1 MiB a game may take.
const NEAR_LIMIT: usize = (1 << 20) - 200;

const BOARD: &str = "BO[8 ---------------------------O*------*O--------------------------- *]";

/// A move-string line of `len` bytes: a legal opening, then squares.
fn move_string_game(len: usize) -> String {
    let mut line = String::from("f5d6c3d3c4");
    while line.len() + 2 <= len {
        line.push_str("a1");
    }
    line
}

/// A GGF game of about `len` bytes: a board, then `B[a1]W[a1]...`.
fn ggf_game(len: usize) -> String {
    let mut game = format!("(;GM[Othello]PC[x]TY[8]{BOARD}");
    let mut black = true;
    while game.len() + 8 <= len {
        game.push_str(if black { "B[a1]" } else { "W[a1]" });
        black = !black;
    }
    game.push_str(";)");
    game
}

/// An RGN game of about `len` bytes: numbered pairs, eight to a line.
fn rgn_game(len: usize) -> String {
    let mut game = String::from("[Event \"x\"]\n\n");
    let mut number = 1;
    while game.len() + 20 <= len {
        game.push_str(&format!("{number}. a1 a1 "));
        if number % 8 == 0 {
            game.push('\n');
        }
        number += 1;
    }
    game.push_str("*\n\n");
    game
}

/// Runs `reversi ARGS... INPUT` and checks it is sane (no panic, memory under 64 MB).
fn sane_run(args: &[&str], input: &Path) -> Run {
    let mut all = args.to_vec();
    all.push(path_str(input));
    let r = run(&all);
    r.sane(&format!("{} {}", args.join(" "), input.display()));
    r
}

// ---------------------------------------------------------------------------------------
// Memory bounded by bytes

#[test]
fn games_near_the_size_limit_are_read_in_bounded_memory_by_every_command() {
    let dir = scratch("near-limit");
    let inputs = [
        ("moves.txt", move_string_game(NEAR_LIMIT) + "\n"),
        ("games.ggf", ggf_game(NEAR_LIMIT) + "\n"),
        ("games.rgn", rgn_game(NEAR_LIMIT)),
    ];
    for (name, game) in inputs {
        assert!(game.len() < 1 << 20, "{name}: {} bytes", game.len());
        let path = dir.join(name);
        fs::write(&path, game.repeat(16)).unwrap();
        for args in [
            &["validate", "-q", "--format", "json"][..],
            &["validate", "-q", "--format", "json", "--jobs", "4"],
            &["convert", "-q", "--lossy", "--to", "rgn"],
            &["convert", "-q", "--lossy", "--to", "json", "--jobs", "4"],
        ] {
            let r = sane_run(args, &path);
            assert_eq!(r.code, Some(1), "{name} {args:?}: {}", r.stderr);
            if args[0] == "validate" {
                // Each game holds more moves than any real game: reported, not read.
                let out = r.stdout();
                let found = out.matches("\"code\":\"syntax-game-too-large\"").count();
                assert_eq!(found, 16, "{out}");
                assert!(out.contains("\"games\":16"), "{out}");
            }
        }
    }
}

#[test]
fn a_game_under_the_cap_is_still_read_whole() {
    // 900 moves, under the 1,000 a game may hold: read, and replay reports where it fails.
    let dir = scratch("under-cap");
    let path = dir.join("long.txt");
    fs::write(&path, format!("{}\n", "f5".repeat(900))).unwrap();
    let r = sane_run(&["validate", "--format", "json"], &path);
    assert_eq!(r.code, Some(1));
    let out = r.stdout();
    assert!(!out.contains("syntax-game-too-large"), "{out}");
    assert!(out.contains("illegal-move"), "{out}");
}

// ---------------------------------------------------------------------------------------
// Linear parsing

/// One input per reader holding 10^5 of what a quadratic parser would choke on, with the
/// code a run must report (or `None`: read without a finding of the reader).
fn many_items() -> Vec<(&'static str, &'static str, String, Option<&'static str>)> {
    const N: usize = 100_000;
    let numbered = |f: &dyn Fn(usize) -> String| (0..N).map(f).collect::<String>();
    let ggf = |props: String| format!("(;GM[Othello]PC[x]TY[8]{BOARD}{props}B[f5];)\n");
    vec![
        (
            "distinct-properties",
            "ggf",
            ggf(numbered(&|i| format!("P{i}[v]"))),
            Some("syntax-game-too-large"),
        ),
        (
            "repeated-properties",
            "ggf",
            ggf("XX[v]".repeat(N)),
            Some("syntax-game-too-large"),
        ),
        (
            "distinct-root-properties",
            "sgf",
            format!(
                "(;GM[2]SZ[8]{};B[f5])\n",
                numbered(&|i| {
                    let letter = |k: usize| char::from(b'A' + (k % 26) as u8);
                    format!("P{}{}{}[v]", letter(i), letter(i / 26), letter(i / 676))
                })
            ),
            Some("syntax-game-too-large"),
        ),
        (
            "comments",
            "sgf",
            format!("(;GM[2]SZ[8];B[f5]{})\n", "C[x]".repeat(N)),
            Some("syntax-game-too-large"),
        ),
        (
            "nodes",
            "sgf",
            format!("(;GM[2]SZ[8]{})\n", ";C[x]".repeat(N)),
            Some("syntax-game-too-large"),
        ),
        (
            "comments-between-two-moves",
            "rgn",
            format!("[Event \"x\"]\n\n1. f5 {}d6 *\n", "{c} ".repeat(N)),
            None,
        ),
        (
            "semicolon-comments",
            "rgn",
            format!("[Event \"x\"]\n\n1. f5\n{}d6 *\n", ";c\n".repeat(N)),
            None,
        ),
        (
            "tags",
            "rgn",
            format!("{}\n1. f5 *\n", "[a \"\"]\n".repeat(N)),
            Some("syntax-game-too-large"),
        ),
        (
            "tags",
            "json",
            format!(
                "{{\"format\":\"reversi-record\",\"version\":1,\"games\":[{{\"tags\":[{}],\"moves\":[]}}]}}\n",
                vec!["{\"name\":\"a\",\"value\":\"\"}"; N / 4].join(",")
            ),
            Some("syntax-game-too-large"),
        ),
        (
            "moves",
            "json",
            format!(
                "{{\"format\":\"reversi-record\",\"version\":1,\"games\":[{{\"moves\":[{}]}}]}}\n",
                vec!["{\"move\":\"a1\"}"; N / 2].join(",")
            ),
            Some("syntax-game-too-large"),
        ),
        (
            "entries",
            "obf",
            format!("{} X;{}\n", "-".repeat(27) + "OX------XO" + &"-".repeat(27), "a1:+1;".repeat(N)),
            None,
        ),
        (
            "bad-entries",
            "obf",
            format!("{} X;{}\n", "-".repeat(27) + "OX------XO" + &"-".repeat(27), "zz;".repeat(N)),
            Some("syntax-too-many-errors"),
        ),
        (
            "bad-tokens",
            "moves",
            format!("f5 {}\n", "zz ".repeat(N)),
            Some("syntax-too-many-errors"),
        ),
        (
            "csv-fields",
            "moves",
            format!("moves,x\nf5d6{}\n", ",v".repeat(N)),
            Some("syntax-game-too-large"),
        ),
    ]
}

#[test]
fn every_reader_is_linear_in_properties_comments_and_tags() {
    let dir = scratch("linear");
    for (what, format, text, code) in many_items() {
        assert!(
            text.len() < 1 << 20,
            "{format} {what}: {} bytes",
            text.len()
        );
        let path = dir.join(format!("{what}.{format}"));
        fs::write(&path, &text).unwrap();
        for args in [
            &["validate", "-q", "--format", "json", "--from", format][..],
            &["convert", "-q", "--lossy", "--to", "rgn", "--from", format],
        ] {
            let r = sane_run(args, &path);
            let label = format!("{format} {what}: {}", args[0]);
            assert!(r.elapsed < LINEAR_BOUND, "{label}: {:?}", r.elapsed);
            assert!(matches!(r.code, Some(0 | 1)), "{label}: {}", r.stderr);
            if args[0] == "validate" {
                let out = r.stdout();
                match code {
                    Some(code) => assert!(out.contains(code), "{label}: {out}"),
                    None => assert!(!out.contains("\"syntax-"), "{label}: {out}"),
                }
            }
        }
    }
}

// ---------------------------------------------------------------------------------------
// WTHOR: degenerate record streams and name files

#[test]
fn a_wtb_of_zero_bytes_stops_with_an_error_after_a_bound() {
    let dir = scratch("zeros");
    let path = dir.join("zeros.wtb");
    fs::write(&path, vec![0u8; 4 << 20]).unwrap();
    for args in [
        &["validate", "-q", "--format", "json"][..],
        &["validate", "--format", "human"],
        &["convert", "-q", "--to", "rgn"],
    ] {
        let r = sane_run(args, &path);
        assert_eq!(r.code, Some(2), "{args:?}: {}", r.stderr);
        assert!(
            r.stderr.contains("zeros.wtb") && r.stderr.contains("holds only zero bytes"),
            "{args:?}: {}",
            r.stderr
        );
        assert!(
            r.stdout.len() < 10_000,
            "{args:?}: {} bytes",
            r.stdout.len()
        );
        assert!(r.elapsed < LINEAR_BOUND, "{args:?}: {:?}", r.elapsed);
    }
}

/// A file of the repository's real data (`data/`, see `data/SOURCES.md`).
fn data(rel: &str) -> String {
    format!("{}/data/{rel}", env!("CARGO_MANIFEST_DIR"))
}

/// A real game file (the 2021 games) with `zeros` all-zero records appended, then `tail`
/// more real records.
fn wthor_with_zeros(zeros: usize, tail: usize) -> Vec<u8> {
    let real = fs::read(data("wthor/WTH_2021.wtb")).expect("the 2021 WTHOR file (data/wthor)");
    let (header, records) = real.split_at(16);
    let mut bytes = header.to_vec();
    bytes.extend_from_slice(records);
    bytes.extend(std::iter::repeat(0u8).take(zeros * 68));
    bytes.extend_from_slice(&records[..tail * 68]);
    let count = (records.len() / 68 + zeros + tail) as u32;
    bytes[4..8].copy_from_slice(&count.to_le_bytes());
    bytes
}

#[test]
fn a_few_zero_records_are_games_and_a_long_run_stops_after_the_games_before() {
    let dir = scratch("zero-run");
    // 10 zero records between real ones: read as 10 (empty) games, nothing stops.
    let few = dir.join("few.wtb");
    fs::write(&few, wthor_with_zeros(10, 5)).unwrap();
    let r = sane_run(&["validate", "-q", "--format", "json"], &few);
    assert!(r.stdout().contains("\"games\":335"), "{}", r.stdout());
    assert!(!r.stderr.contains("zero bytes"), "{}", r.stderr);
    // 1,000 zero records after the 320 real games: the games are reported, then the error.
    let many = dir.join("many.wtb");
    fs::write(&many, wthor_with_zeros(1_000, 5)).unwrap();
    let r = sane_run(&["validate", "-q", "--format", "json"], &many);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stdout().contains("\"games\":320"), "{}", r.stdout());
    assert!(
        r.stderr
            .contains("from byte 21776 on, the file holds only zero bytes"),
        "{}",
        r.stderr
    );
}

#[test]
fn a_name_file_over_the_bound_is_refused_unread_with_a_note() {
    let dir = scratch("big-names");
    fs::copy(data("wthor/WTH_2021.wtb"), dir.join("games.wtb")).unwrap();
    fs::copy(data("wthor/WTHOR.TRN"), dir.join("WTHOR.TRN")).unwrap();
    // 200 MB, sparse: what a damaged or crafted WTHOR.JOU may be.
    let jou = fs::File::create(dir.join("WTHOR.JOU")).unwrap();
    jou.set_len(200 << 20).unwrap();
    drop(jou);
    let r = sane_run(&["validate", "--format", "json"], &dir.join("games.wtb"));
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let out = r.stdout();
    assert!(out.contains("wthor-names-unreadable"), "{out}");
    assert!(out.contains("it is over 8 MiB"), "{out}");
    assert!(out.contains("\"games\":320"), "{out}");
    // The tournaments are still named.
    let r = sane_run(&["convert", "-q", "--to", "rgn"], &dir.join("games.wtb"));
    assert!(r.stdout().contains("[Event \""), "{}", r.stdout());
    assert!(r.stdout().contains("[WthorBlack \""), "{}", r.stdout());
}

// ---------------------------------------------------------------------------------------
// Safe text out

/// Bytes no output may hold raw: every control character but line feed and tab (and a
/// carriage return before a line feed), as UTF-8.
fn raw_controls(bytes: &[u8]) -> Vec<String> {
    let text = String::from_utf8_lossy(bytes);
    let chars: Vec<char> = text.chars().collect();
    let mut found = Vec::new();
    for (k, &c) in chars.iter().enumerate() {
        let control = matches!(c, '\0'..='\u{8}' | '\u{b}'..='\u{1f}' | '\u{7f}'..='\u{9f}');
        let line_break = c == '\r' && chars.get(k + 1) == Some(&'\n');
        if control && !line_break {
            found.push(format!("U+{:04X}", u32::from(c)));
        }
    }
    found
}

/// A JSON record with a terminal title escape in a player name, a NUL in a comment and
/// erase-screen sequences (C0 and C1) in the game comment; and the same as RGN, raw.
fn crafted_inputs(dir: &Path) -> Vec<std::path::PathBuf> {
    let json = dir.join("crafted.json");
    fs::write(
        &json,
        concat!(
            r#"{"format":"reversi-record","version":1,"games":[{"tags":[{"name":"Black","value":"\u001b]0;pwned\u0007"},"#,
            r#"{"name":"White","value":"Tastet Marc"}],"comment":"\u001b[2J\u009b2J","#,
            r#""moves":[{"move":"f5","comment":"a NUL \u0000 here"},{"move":"d6"}]}]}"#,
            "\n"
        ),
    )
    .unwrap();
    let rgn = dir.join("crafted.rgn");
    fs::write(
        &rgn,
        "[Event \"x\"]\n[Black \"\u{1b}]0;pwned\u{7}\"]\n\n1. f5 {bell\u{7} \u{9b}2J} d6 *\n",
    )
    .unwrap();
    vec![json, rgn]
}

#[test]
fn control_characters_from_a_record_never_reach_an_output_raw() {
    let dir = scratch("controls");
    for input in crafted_inputs(&dir) {
        let name = input.file_name().unwrap().to_string_lossy().into_owned();
        for format in ["human", "json", "jsonl"] {
            let r = sane_run(&["validate", "--format", format], &input);
            let what = format!("{name} validate --format {format}");
            assert_eq!(raw_controls(&r.stdout), Vec::<String>::new(), "{what}");
            assert_eq!(
                raw_controls(r.stderr.as_bytes()),
                Vec::<String>::new(),
                "{what}"
            );
            assert!(
                r.stdout().contains("syntax-control-character"),
                "{what}: {}",
                r.stdout()
            );
        }
        if name.ends_with(".rgn") {
            // The source drawn under a finding shows the raw bytes escaped.
            let human = sane_run(&["validate"], &input).stdout();
            assert!(human.contains(r"\x1b]0;pwned\x07"), "{name}: {human}");
        }
        for target in [
            "rgn",
            "json",
            "ggf",
            "pgn",
            "pgn:edax",
            "pgn:thor",
            "pgn:playok",
            "sgf",
            "moves",
            "transcript",
            "obf",
        ] {
            let out = dir.join(format!("out-{target}"));
            let args = ["convert", "--lossy", "--to", target, "-o", path_str(&out)];
            let r = sane_run(&args, &input);
            let what = format!("{name} to {target}");
            assert!(matches!(r.code, Some(0 | 1)), "{what}: {}", r.stderr);
            assert_eq!(
                raw_controls(r.stderr.as_bytes()),
                Vec::<String>::new(),
                "{what}"
            );
            let written = fs::read(&out).unwrap_or_default();
            assert_eq!(raw_controls(&written), Vec::<String>::new(), "{what}");
            // And to standard output.
            let r = sane_run(&["convert", "--lossy", "--to", target], &input);
            assert_eq!(
                raw_controls(&r.stdout),
                Vec::<String>::new(),
                "{what} on stdout"
            );
            let _ = fs::remove_file(&out);
        }
    }
}

#[test]
fn a_record_read_with_control_characters_converts_with_them_replaced() {
    let dir = scratch("replaced");
    let input = &crafted_inputs(&dir)[0];
    let r = sane_run(&["convert", "--to", "rgn"], input);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let out = r.stdout();
    assert!(
        out.contains("[Black \"\u{fffd}]0;pwned\u{fffd}\"]"),
        "{out}"
    );
    assert!(out.contains("{a NUL \u{fffd} here}"), "{out}");
    assert!(
        r.stderr.contains("syntax-control-character"),
        "{}",
        r.stderr
    );
}

#[test]
fn whitespace_before_and_between_json_games_is_not_held() {
    // 24 MB of whitespace before a document, inside its games array and between games:
    // skipped as it is read, never buffered, so memory stays far below the input's size.
    let dir = scratch("json-whitespace");
    let ws = " \n\t\r".repeat(2_000_000);
    let game = r#"{"rules":"othello","moves":[{"move":"f5"},{"move":"d6"}]}"#;
    let document = format!(
        "{ws}{{\"format\":\"reversi-record\",\"version\":2,\"games\":[{ws}{game},{ws}{game}]}}"
    );
    let path = dir.join("spaces.json");
    fs::write(&path, &document).unwrap();
    let r = sane_run(&["validate", "-q", "--format", "json"], &path);
    let out = r.stdout();
    assert!(out.contains("\"games\":2"), "{out}\n{}", r.stderr);
    assert!(
        r.max_rss_kb < 16 * 1024,
        "{} KiB for {} bytes",
        r.max_rss_kb,
        document.len()
    );
}
