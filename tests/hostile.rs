//! Hostile input: the `reversi` binary run as a child process on generated inputs of a few
//! megabytes (long lines, deep and unbalanced nesting, many findings, binary junk,
//! truncations, odd encodings) and on every way an output can alias an input. Each case
//! asserts no panic, the exit code, the files left behind and, measured by the kernel for
//! the child, its peak memory.
//!
//! The figures for 10 MB to 1 GB inputs are in docs/performance.md; these cases stay small so that
//! CI stays lean.
#![cfg(unix)]

mod common;

use common::child::{bin, files_in, path_str, run, run_with};
use common::scratch;

use std::fs;
use std::io::Write;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Converts `input` to the WTHOR file `wtb` (its name files beside it).
fn write_wthor(input: &Path, wtb: &Path) {
    let made = run(&[
        "convert",
        "--lossy",
        "--year",
        "2026",
        "--to",
        "wthor",
        "-o",
        path_str(wtb),
        path_str(input),
    ]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
}

const GAME: &str = "f5d6c3d3c4f4c5b3c2e6";
const RGN_GAME: &str = "[Event \"x\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n";

// ---------------------------------------------------------------------------------------
// Crashes: long lines, deep nesting, junk

/// One input per reader whose finding sits past column 65,535 (miette cannot draw such
/// columns): each is drawn from a clipped window of its line.
fn long_line_inputs() -> Vec<(&'static str, String)> {
    let pad = "x".repeat(70_000);
    let spaces = " ".repeat(70_000);
    vec![
        ("rgn", format!("[Event \"x\"]\n\n1. f5 {{{pad}}} d6 }}}}}}\n")),
        ("rgn", format!("[Event \"x\"]\n\n1. f5 {}\n", "} ".repeat(40_000))),
        (
            "ggf",
            format!("(;GM[Othello]PC[{pad}]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[zz];)\n"),
        ),
        ("sgf", format!("(;GM[2]SZ[8]C[{pad}]B[zz])\n")),
        ("sgf", format!("{}\n", "(".repeat(70_000))),
        ("moves", format!("{spaces}f5zz\n")),
        ("obf", format!("{spaces}x\n")),
        ("json", format!("{{\"format\": \"reversi-record\", \"version\": 1, \"games\": [{{\"x\": \"{pad}\", \"bad\": }}]}}\n")),
        ("transcript", format!("{spaces}1 2 3 4\n1 2 3 4\n1 2 3 4\n1 2 3 4\n")),
    ]
}

#[test]
fn findings_past_column_65535_render_in_every_output_format() {
    let dir = scratch("columns");
    for (i, (format, text)) in long_line_inputs().into_iter().enumerate() {
        let path = dir.join(format!("{i}.{format}"));
        fs::write(&path, &text).unwrap();
        for output in ["human", "json", "jsonl"] {
            let what = format!("{format} #{i} as {output}");
            let r = run(&[
                "validate",
                "--from",
                format,
                "--format",
                output,
                path_str(&path),
            ]);
            r.sane(&what);
            assert_eq!(r.code, Some(1), "{what}: {}", r.stderr);
            if output == "human" {
                assert!(r.stdout.len() < 100_000, "{what}: the report is clipped");
            }
        }
    }
}

#[test]
fn binary_junk_and_deep_nesting_never_crash_any_reader() {
    let dir = scratch("junk");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let junk: Vec<u8> = (0..2_000_000)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed as u8
        })
        .collect();
    let inputs: Vec<(&str, Vec<u8>)> = vec![
        ("junk", junk),
        ("nesting", "(;".repeat(500_000).into_bytes()),
        ("brackets", "[".repeat(2_000_000).into_bytes()),
        ("braces", "{".repeat(2_000_000).into_bytes()),
        ("json", "[{".repeat(1_000_000).into_bytes()),
    ];
    for (name, bytes) in &inputs {
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        for format in [
            "rgn",
            "json",
            "wthor",
            "ggf",
            "sgf",
            "moves",
            "transcript",
            "obf",
        ] {
            let what = format!("{name} as {format}");
            let r = run(&[
                "validate",
                "-q",
                "--from",
                format,
                "--format",
                "jsonl",
                path_str(&path),
            ]);
            r.sane(&what);
            assert!(matches!(r.code, Some(0..=2)), "{what}: {:?}", r.code);
            let out = dir.join("out.rgn");
            let c = run(&[
                "convert",
                "-q",
                "--from",
                format,
                "--to",
                "rgn",
                "-o",
                path_str(&out),
                path_str(&path),
            ]);
            c.sane(&format!("convert {what}"));
            let _ = fs::remove_file(&out);
        }
    }
}

#[test]
fn an_endless_input_ends_with_an_error_not_a_hang() {
    for format in ["rgn", "ggf", "sgf", "json", "moves", "obf", "transcript"] {
        let r = run(&["validate", "-q", "--from", format, "/dev/zero"]);
        r.sane(format);
        assert_eq!(r.code, Some(2), "{format}: {}", r.stderr);
        assert!(r.stderr.contains("/dev/zero"), "{format}: {}", r.stderr);
        assert!(r.elapsed < Duration::from_secs(60), "{format}");
    }
}

#[test]
fn a_line_over_the_limit_is_skipped_with_a_diagnostic_and_the_rest_is_read() {
    let dir = scratch("long");
    let path = dir.join("long.txt");
    let text = format!("{GAME}\n{}\n{GAME}\n", "f5".repeat(1_500_000));
    fs::write(&path, text).unwrap();
    for output in ["human", "json", "jsonl"] {
        let r = run(&["validate", "-q", "--format", output, path_str(&path)]);
        r.sane(output);
        assert_eq!(r.code, Some(1));
        let out = r.stdout();
        assert!(out.contains("syntax-too-long"), "{out}");
        assert!(
            out.contains("3 games") || out.contains("\"games\":3"),
            "{out}"
        );
    }
}

#[test]
fn a_game_over_the_limit_is_an_error_in_its_place_and_never_ends_the_file() {
    use reversi_engine::{Move, Rules};
    use reversi_formats::record::{MoveRecord, Record, Tag};
    use reversi_formats::{Format, WriteOptions};
    let dir = scratch("over-the-limit");
    // Five games, the second with a comment of 1.2 MB: over the 1 MiB a game may take.
    let records: Vec<Record> = (0..5)
        .map(|k| {
            let mut record = Record::new(Rules::default());
            if k == 1 {
                // A comment every format holds (GGF and SGF have no Event).
                record.comment = Some("x".repeat(1_200_000));
            }
            record.tags.push(Tag::new("Event", format!("game {k}")));
            for square in ["f5", "d6", "c3"] {
                record
                    .moves
                    .push(MoveRecord::new(Move::Place(square.parse().unwrap())));
            }
            record
        })
        .collect();
    let options = WriteOptions {
        lossy: true,
        ..WriteOptions::default()
    };
    for (format, name) in [
        (Format::Json, "games.json"),
        (Format::Json, "games.jsonl"),
        (Format::Rgn, "games.rgn"),
        (Format::Ggf, "games.ggf"),
        (Format::Sgf, "games.sgf"),
        (Format::Rgn, "tag.rgn"),
    ] {
        let bytes = if name == "tag.rgn" {
            // The second game's tag line over the limit, right after the first's movetext.
            (0..5)
                .map(|k| match k {
                    1 => format!("[Annotator \"{}\"]\nf5 d6 c3 *\n", "x".repeat(1_200_000)),
                    _ => format!("[Event \"game {k}\"]\nf5 d6 c3 *\n"),
                })
                .collect::<String>()
                .into_bytes()
        } else if name.ends_with(".jsonl") {
            let lines = WriteOptions {
                lossy: true,
                dialect: Some("lines".into()),
                ..WriteOptions::default()
            };
            format.write_bytes(&records, &lines).unwrap().0
        } else {
            format.write_bytes(&records, &options).unwrap().0
        };
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        let r = run(&["validate", "-q", "--format", "json", path_str(&path)]);
        r.sane(name);
        assert_eq!(r.code, Some(1), "{name}: {}", r.stderr);
        let report: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        assert_eq!(report["summary"]["games"], 5, "{name}: {report}");
        let too_long: Vec<&serde_json::Value> = report["diagnostics"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|d| d["code"] == "syntax-too-long")
            .collect();
        assert_eq!(too_long.len(), 1, "{name}: {report}");
        assert_eq!(too_long[0]["game"], 2, "{name}: the second game is named");
        // The games around it are read, and converted; the skipped one is counted.
        let r = run(&[
            "convert",
            "--lossy",
            path_str(&path),
            "--to",
            "moves",
            "-o",
            "-",
        ]);
        r.sane(name);
        assert_eq!(
            r.stdout().lines().filter(|l| *l == "f5d6c3").count(),
            4,
            "{name}"
        );
        assert!(r.stderr.contains("1 not converted"), "{name}: {}", r.stderr);
        assert_ne!(r.code, Some(0), "{name}");
    }
    // An array that cannot end within the limit is an error, never "no games".
    let brackets = dir.join("brackets.json");
    fs::write(
        &brackets,
        format!("{}{}", "[".repeat(600_000), "]".repeat(600_000)),
    )
    .unwrap();
    let r = run(&["validate", "-q", path_str(&brackets)]);
    r.sane("brackets");
    assert_eq!(r.code, Some(1), "{}", r.stdout());
    assert!(r.stdout().contains("syntax-too-long"), "{}", r.stdout());
}

#[test]
fn special_files_and_links_in_a_folder_never_hang_or_fail_a_run() {
    let dir = scratch("special-files");
    let folder = dir.join("event");
    fs::create_dir_all(folder.join("round-2")).unwrap();
    fs::write(folder.join("round-1.rgn"), RGN_GAME).unwrap();
    fs::write(
        folder.join("round-2/sheet.rgn"),
        "[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 f6 2. e6 f4 *\n\n",
    )
    .unwrap();
    // A FIFO nobody writes, a socket, a link to a device, a link to the sub-folder (its
    // games once), a link to the folder itself (a loop), a broken link.
    let fifo = folder.join("pipe.rgn");
    let status = Command::new("mkfifo").arg(&fifo).status().unwrap();
    assert!(status.success(), "mkfifo");
    let _socket = std::os::unix::net::UnixListener::bind(folder.join("socket.rgn")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", folder.join("zero.wtb")).unwrap();
    std::os::unix::fs::symlink(folder.join("round-2"), folder.join("again")).unwrap();
    std::os::unix::fs::symlink(&folder, folder.join("round-2/loop")).unwrap();
    std::os::unix::fs::symlink(dir.join("nowhere.rgn"), folder.join("broken.rgn")).unwrap();
    let folder_arg = path_str(&folder);
    for args in [
        vec!["validate", "--jobs", "2", "--format", "json", folder_arg],
        vec!["standings", folder_arg],
        vec!["repair", "-o", "-", folder_arg],
        vec!["convert", "--lossy", folder_arg, "--to", "moves", "-o", "-"],
    ] {
        let mut cmd = Command::new(bin());
        cmd.args(&args).stdin(Stdio::null()).env("NO_COLOR", "1");
        let start = Instant::now();
        let mut child = cmd
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        while child.try_wait().unwrap().is_none() {
            if start.elapsed() > Duration::from_secs(30) {
                let _ = child.kill();
                panic!("{args:?} still running after 30 s");
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        let out = child.wait_with_output().unwrap();
        let (stdout, stderr) = (
            String::from_utf8_lossy(&out.stdout),
            String::from_utf8_lossy(&out.stderr),
        );
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        for (name, why) in [
            ("pipe.rgn", "a FIFO"),
            ("socket.rgn", "a socket"),
            ("zero.wtb", "a device"),
            ("loop", "a folder already walked"),
        ] {
            assert!(
                stderr.contains(&format!("{name}: skipped")) && stderr.contains(why),
                "{args:?}: {name} is not said to be skipped as {why}: {stderr}"
            );
        }
        // The broken link is an input that cannot be opened: named, exit 2.
        assert!(stderr.contains("broken.rgn"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        if args[0] == "validate" {
            // Both sheets read, the linked sub-folder's once.
            let report: serde_json::Value = serde_json::from_str(&stdout).unwrap();
            assert_eq!(report["summary"]["games"], 2, "{report}");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Time and memory

#[test]
fn many_findings_cost_linear_time_and_flat_memory() {
    let dir = scratch("findings");
    // One game of 200,000 bad tokens: reported as its first 50 and one line for the rest.
    let one = dir.join("one.rgn");
    fs::write(
        &one,
        format!("[Event \"x\"]\n\n1. f5 {}\n", "zz ".repeat(200_000)),
    )
    .unwrap();
    let r = run(&["validate", "-q", path_str(&one)]);
    r.sane("one game");
    assert_eq!(r.code, Some(1));
    let out = r.stdout();
    assert_eq!(out.lines().filter(|l| *l == "syntax-bad-move").count(), 50);
    assert!(
        out.contains("199950 more problems in this game are not shown"),
        "{out}"
    );
    // 30,000 games with a finding each, in every output format.
    let many = dir.join("many.txt");
    fs::write(&many, "f5zz\n".repeat(30_000)).unwrap();
    for output in ["human", "json", "jsonl"] {
        let r = run(&["validate", "-q", "--format", output, path_str(&many)]);
        r.sane(output);
        assert_eq!(r.code, Some(1));
        assert!(
            r.elapsed < Duration::from_secs(60),
            "{output}: {:?}",
            r.elapsed
        );
    }
}

#[test]
fn memory_stays_flat_on_inputs_of_several_megabytes() {
    let dir = scratch("flat");
    // 6 MB of move strings, one warning (unfinished) per game.
    let moves = dir.join("big.txt");
    fs::write(&moves, format!("{GAME}\n").repeat(300_000)).unwrap();
    for output in ["human", "json", "jsonl"] {
        let r = run(&["validate", "-q", "--format", output, path_str(&moves)]);
        r.sane(output);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
    }
    let rgn = dir.join("big.rgn");
    fs::write(&rgn, RGN_GAME.repeat(60_000)).unwrap();
    let r = run(&["validate", "-q", "--format", "json", path_str(&rgn)]);
    r.sane("rgn json");
    // Conversions, WTHOR output included.
    for target in ["wthor", "json", "ggf"] {
        let out = dir.join(format!("out.{target}"));
        let r = run(&[
            "convert",
            "-q",
            "--lossy",
            "--year",
            "2026",
            "--to",
            target,
            "-o",
            path_str(&out),
            path_str(&moves),
        ]);
        r.sane(target);
        assert_eq!(r.code, Some(0), "{target}: {}", r.stderr);
        assert!(out.exists());
    }
}

// ---------------------------------------------------------------------------------------
// Output safety

#[test]
fn an_output_that_is_an_input_by_any_alias_is_refused_and_the_input_kept() {
    let dir = scratch("alias");
    let input = dir.join("games.rgn");
    fs::write(&input, RGN_GAME).unwrap();
    let hard = dir.join("hard.rgn");
    fs::hard_link(&input, &hard).unwrap();
    let soft = dir.join("soft.rgn");
    std::os::unix::fs::symlink(&input, &soft).unwrap();
    for output in [&input, &hard, &soft] {
        let r = run(&[
            "convert",
            "--to",
            "rgn",
            "-o",
            path_str(output),
            path_str(&input),
        ]);
        r.sane("alias");
        assert_eq!(r.code, Some(2), "{}", r.stderr);
        assert!(r.stderr.contains("destroy"), "{}", r.stderr);
        assert_eq!(fs::read_to_string(&input).unwrap(), RGN_GAME);
    }
    // Standard input redirected from the output, read as `-` or as /dev/stdin.
    for name in ["-", "/dev/stdin"] {
        let stdin = fs::File::open(&input).unwrap();
        let r = run_with(
            &["convert", "--to", "rgn", "-o", path_str(&input), name],
            Stdio::from(stdin),
            None,
        );
        r.sane(name);
        assert_eq!(r.code, Some(2), "{name}: {}", r.stderr);
        assert_eq!(fs::read_to_string(&input).unwrap(), RGN_GAME);
    }
    // WTHOR name files are inputs too.
    let wthor = dir.join("w");
    fs::create_dir_all(&wthor).unwrap();
    let wtb = wthor.join("games.wtb");
    write_wthor(&input, &wtb);
    let jou = wthor.join("WTHOR.JOU");
    fs::write(&jou, b"names").unwrap();
    let r = run(&[
        "convert",
        "--to",
        "rgn",
        "-o",
        path_str(&jou),
        path_str(&wtb),
    ]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert_eq!(fs::read(&jou).unwrap(), b"names");
    let r = run(&[
        "convert",
        "--to",
        "wthor",
        "-o",
        path_str(&dir.join("WTHOR.JOU")),
        path_str(&input),
    ]);
    assert_eq!(r.code, Some(2), "{}", r.stderr);
}

#[test]
fn failed_and_refused_runs_leave_the_output_untouched_and_no_temporary_file() {
    let dir = scratch("failed");
    let output = dir.join("out.rgn");
    fs::write(&output, "precious").unwrap();
    let input = dir.join("in.rgn");
    fs::write(&input, RGN_GAME).unwrap();
    let missing = dir.join("missing.rgn");
    // An input that does not exist.
    let r = run(&[
        "convert",
        "--to",
        "rgn",
        "-o",
        path_str(&output),
        path_str(&missing),
    ]);
    r.sane("missing");
    assert_eq!(r.code, Some(2));
    assert!(
        r.stderr.contains("missing.rgn: cannot open"),
        "{}",
        r.stderr
    );
    // Every game refused.
    let three = dir.join("three.rgn");
    fs::write(&three, "[Rules \"multi3\"]\n\n1. d3 *\n").unwrap();
    let r = run(&[
        "convert",
        "--lossy",
        "--to",
        "wthor",
        "-o",
        path_str(&output),
        path_str(&three),
    ]);
    r.sane("refused");
    assert_eq!(r.code, Some(1));
    assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
    assert_eq!(files_in(&dir), ["in.rgn", "out.rgn", "three.rgn"]);
    // A refused run creates nothing.
    let fresh = dir.join("fresh.wtb");
    let r = run(&[
        "convert",
        "--to",
        "wthor",
        "-o",
        path_str(&fresh),
        path_str(&three),
    ]);
    assert_eq!(r.code, Some(1));
    assert!(!fresh.exists());
    assert_eq!(files_in(&dir), ["in.rgn", "out.rgn", "three.rgn"]);
    // A successful run replaces the output, keeping its permissions.
    use std::os::unix::fs::PermissionsExt;
    fs::set_permissions(&output, fs::Permissions::from_mode(0o640)).unwrap();
    let r = run(&[
        "convert",
        "--to",
        "rgn",
        "-o",
        path_str(&output),
        path_str(&input),
    ]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(fs::read_to_string(&output).unwrap().contains("f5"));
    assert_eq!(
        fs::metadata(&output).unwrap().permissions().mode() & 0o777,
        0o640
    );
    assert_eq!(files_in(&dir), ["in.rgn", "out.rgn", "three.rgn"]);
}

#[test]
fn an_interrupted_run_removes_its_temporary_file_and_exits_130() {
    let dir = scratch("sigint");
    let output = dir.join("out.rgn");
    fs::write(&output, "precious").unwrap();
    // Standard input is a pipe we keep open: the run waits for more games.
    let mut child = Command::new(bin())
        .args([
            "convert",
            "-q",
            "--from",
            "moves",
            "--to",
            "rgn",
            "-o",
            path_str(&output),
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all(format!("{GAME}\n").repeat(1000).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    // Wait until the temporary file exists, then interrupt.
    let deadline = Instant::now() + Duration::from_secs(30);
    while files_in(&dir).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(
        files_in(&dir).len(),
        2,
        "a temporary file beside the output"
    );
    // SAFETY: sending a signal to our own child.
    unsafe { libc::kill(child.id() as libc::pid_t, libc::SIGINT) };
    let status = child.wait().unwrap();
    drop(stdin);
    assert_eq!(status.code(), Some(130));
    assert_eq!(files_in(&dir), ["out.rgn"]);
    assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
}

#[test]
fn a_full_disk_names_the_output_and_exits_2() {
    let full = fs::OpenOptions::new().write(true).open("/dev/full");
    let Ok(full) = full else {
        eprintln!("skipped: this system has no /dev/full");
        return;
    };
    let mut cmd = Command::new(bin());
    cmd.args([
        "convert",
        "-q",
        "--to",
        "rgn",
        "fixtures/demo/club-night.rgn",
    ])
    .stdout(Stdio::from(full))
    .stderr(Stdio::piped());
    let output = cmd.output().unwrap();
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert_eq!(output.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("standard output: writing failed: No space left on device"),
        "{stderr}"
    );
}

// ---------------------------------------------------------------------------------------
// Exit codes

#[test]
fn a_closed_stderr_loses_notes_not_games() {
    let dir = scratch("stderr");
    let input = dir.join("games.txt");
    fs::write(&input, format!("{GAME}\n").repeat(20_000)).unwrap();
    let output = dir.join("out.rgn");
    let mut child = Command::new(bin())
        .args([
            "convert",
            "--lossy",
            "--to",
            "rgn",
            "-o",
            path_str(&output),
            path_str(&input),
        ])
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    drop(child.stderr.take());
    let status = child.wait().unwrap();
    assert_eq!(status.code(), Some(0));
    let written = fs::read_to_string(&output).unwrap();
    assert_eq!(written.matches("1. f5").count(), 20_000);
}

#[test]
fn convert_exits_1_when_a_game_had_an_error() {
    let dir = scratch("truncated");
    let ggf = dir.join("cut.ggf");
    fs::write(&ggf, "(;GM[Othello]PC[x]TY[8]BO[8 ---------------------------O*------*O--------------------------- *]B[d3]W[c5]").unwrap();
    let r = run(&["convert", "--to", "rgn", path_str(&ggf)]);
    r.sane("truncated ggf");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
}

#[test]
fn jobs_beyond_reason_are_capped_with_a_note() {
    let r = run(&[
        "validate",
        "--jobs",
        "100000",
        "fixtures/demo/club-night.rgn",
    ]);
    r.sane("jobs");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains("note: --jobs 100000 is more than 4 per core"),
        "{}",
        r.stderr
    );
    assert!(r.elapsed < Duration::from_secs(20));
}

// ---------------------------------------------------------------------------------------
// Encodings

#[test]
fn latin1_is_read_as_cp1252_with_a_warning_and_nul_is_never_copied() {
    let dir = scratch("encodings");
    let latin = dir.join("latin.rgn");
    fs::write(
        &latin,
        b"[Event \"x\"]\n[Black \"Ren\xe9\"]\n\n1. f5 d6 *\n",
    )
    .unwrap();
    let r = run(&["convert", "--to", "rgn", path_str(&latin)]);
    r.sane("latin-1");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout().contains("[Black \"René\"]"), "{}", r.stdout());
    assert!(r.stderr.contains("syntax-bad-encoding"), "{}", r.stderr);
    assert!(
        r.stderr.contains("line 2 is not valid UTF-8"),
        "{}",
        r.stderr
    );
    let nul = dir.join("nul.rgn");
    fs::write(&nul, b"[Event \"x\"]\n[Black \"A\0B\"]\n\n1. f5 d6 *\n").unwrap();
    let r = run(&["convert", "--to", "rgn", path_str(&nul)]);
    r.sane("nul");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("syntax-nul-byte"), "{}", r.stderr);
    assert!(!r.stdout.contains(&0), "no NUL byte in the output");
}

#[test]
fn utf16_input_is_decoded_by_its_byte_order_mark() {
    let dir = scratch("utf16");
    let text = "[Event \"Zoë\"]\n\n1. f5 d6 2. c3 d3 *\n";
    for (name, bom, le) in [
        ("le.rgn", [0xFF, 0xFE], true),
        ("be.rgn", [0xFE, 0xFF], false),
    ] {
        let mut bytes = bom.to_vec();
        for unit in text.encode_utf16() {
            bytes.extend(if le {
                unit.to_le_bytes()
            } else {
                unit.to_be_bytes()
            });
        }
        let path = dir.join(name);
        fs::write(&path, bytes).unwrap();
        let r = run(&["convert", "--to", "rgn", path_str(&path)]);
        r.sane(name);
        assert_eq!(r.code, Some(0), "{}", r.stderr);
        assert!(r.stderr.contains("decoded from UTF-16"), "{}", r.stderr);
        assert!(r.stdout().contains("[Event \"Zoë\"]"), "{}", r.stdout());
    }
}

#[test]
fn wthor_without_name_files_says_where_it_looked() {
    let dir = scratch("names");
    let input = dir.join("in.rgn");
    fs::write(&input, RGN_GAME).unwrap();
    let wtb = dir.join("games.wtb");
    write_wthor(&input, &wtb);
    for name in ["WTHOR.JOU", "WTHOR.TRN"] {
        // Written through a (private) temporary file, but readable like any new file.
        use std::os::unix::fs::PermissionsExt;
        let mode = fs::metadata(dir.join(name)).unwrap().permissions().mode();
        assert_eq!(mode & 0o777, 0o644, "{name}");
        fs::remove_file(dir.join(name)).unwrap();
    }
    let r = run(&["validate", path_str(&wtb)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr
            .contains(&format!("no WTHOR.JOU or WTHOR.TRN in {}", dir.display())),
        "{}",
        r.stderr
    );
}

/// A WTHOR file in which every game fails the quick check: each is read in full and holds
/// its diagnostics until reported, so this is where the pipeline holds the most.
#[test]
fn memory_stays_flat_when_every_game_fails() {
    let dir = scratch("all-bad");
    let path = dir.join("bad.wtb");
    let games: u32 = 30_000;
    let mut bytes = vec![20, 26, 12, 1];
    bytes.extend_from_slice(&games.to_le_bytes());
    bytes.extend_from_slice(&[0, 0, 0xd4, 0x07, 8, 0, 22, 0]);
    let corners = [11u8, 18, 81, 88, 45, 54, 56, 65];
    for g in 0..games as usize {
        bytes.extend_from_slice(&[0, 0, 1, 0, 2, 0, 32, 32]);
        bytes.extend((0..60).map(|m| corners[(g * 7 + m * 3) % corners.len()]));
    }
    fs::write(&path, bytes).unwrap();
    for jobs in ["1", "2", "8"] {
        let r = run(&[
            "validate",
            "-q",
            "--jobs",
            jobs,
            "--format",
            "json",
            path_str(&path),
        ]);
        r.sane(jobs);
        assert_eq!(r.code, Some(1), "{}", r.stderr);
        // The games repeat eight move lists: all but the first eight are duplicates.
        let report: serde_json::Value = serde_json::from_slice(&r.stdout).unwrap();
        let summary = &report["summary"];
        assert_eq!(
            (
                &summary["invalid"],
                &summary["errors"],
                &summary["warnings"]
            ),
            (&30000.into(), &30000.into(), &29992.into())
        );
        assert_eq!(summary["across_games"], 29992);
        assert_eq!(summary["codes"]["duplicate-game"], 29992);
    }
}
