//! Hostile outputs, every command: what each command that writes a file does with a target
//! that is not a plain file (a FIFO, `/dev/null`, a symbolic link to a file or to standard
//! output, `/dev/stdout`), a long name, the umask and an existing file's mode; signals and
//! file-size limits; a closed or full standard output; `--allow` typos; file names that are
//! not UTF-8; two conversions writing WTHOR name files into one folder at once; and the
//! memory of `repair` and `scenario` on large inputs. Every run is a child process (its
//! peak memory measured by the kernel: `Run::sane`).
#![cfg(unix)]

mod common;

use common::child::{bin, files_in, path_str, run, run_with, Run};
use common::scratch;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io::{Read, Write};
use std::os::unix::ffi::{OsStrExt, OsStringExt};
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const RGN_GAME: &str = "[Event \"x\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n";
const SCENARIO: &str = "rules: othello:4x4\nmoves: b1 !b1\n";

/// Runs `cmd` with colours off, measuring its memory.
fn measured(mut cmd: Command) -> Run {
    cmd.env("NO_COLOR", "1");
    common::child::measured(cmd)
}

/// Runs the binary with `args` (any bytes), standard input closed.
fn run_os(args: &[OsString]) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args).stdin(Stdio::null());
    measured(cmd)
}

/// Runs the binary with `args` under `umask 077`.
fn run_umask_077(args: &[OsString]) -> Run {
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("umask 077; exec \"$0\" \"$@\"")
        .arg(bin())
        .args(args)
        .stdin(Stdio::null());
    measured(cmd)
}

fn os(s: impl AsRef<OsStr>) -> OsString {
    s.as_ref().to_owned()
}

// ---------------------------------------------------------------------------------------
// The commands that write a file

/// A command that writes a file, and how its target is named.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Writer {
    Convert,
    Repair,
    Show,
    ShowSvg,
    Completions,
    Man,
    /// `scenario --bless S.scenario` writes `S.txt`.
    Bless,
    /// `man --dir D` writes `D/reversi.1` (and the other pages).
    ManDir,
}

const WRITERS: [Writer; 8] = [
    Writer::Convert,
    Writer::Repair,
    Writer::Show,
    Writer::ShowSvg,
    Writer::Completions,
    Writer::Man,
    Writer::Bless,
    Writer::ManDir,
];

impl Writer {
    /// Whether `-o PATH` names the target (any path can be given).
    fn takes_output(self) -> bool {
        !matches!(self, Writer::Bless | Writer::ManDir)
    }

    /// The target in `dir` with the file name `name` (`Bless`: ending in `.txt`; `ManDir`:
    /// `reversi.1` in `dir/pages`, whatever `name`).
    fn target(self, dir: &Path, name: &str) -> PathBuf {
        match self {
            Writer::Bless => {
                dir.join(name.strip_suffix(".txt").unwrap_or(name).to_owned() + ".txt")
            }
            Writer::ManDir => {
                let pages = dir.join("pages");
                fs::create_dir_all(&pages).unwrap();
                pages.join("reversi.1")
            }
            _ => dir.join(name),
        }
    }

    /// The arguments that write `target`, with the inputs they need made in `dir`.
    fn args(self, dir: &Path, target: &Path) -> Vec<OsString> {
        let input = dir.join("in.rgn");
        fs::write(&input, RGN_GAME).unwrap();
        let o = |mut args: Vec<OsString>| {
            args.push(os("-o"));
            args.push(os(target));
            args
        };
        match self {
            Writer::Convert => {
                let mut a = o(vec![os("convert"), os("-q"), os("--to"), os("rgn")]);
                a.push(os(&input));
                a
            }
            Writer::Repair => {
                let mut a = o(vec![os("repair"), os("-q")]);
                a.push(os(&input));
                a
            }
            Writer::Show => {
                let mut a = o(vec![os("show"), os("--format"), os("text")]);
                a.push(os(&input));
                a
            }
            Writer::ShowSvg => {
                let mut a = o(vec![os("show"), os("--format"), os("svg")]);
                a.push(os(&input));
                a
            }
            Writer::Completions => o(vec![os("completions"), os("bash")]),
            Writer::Man => o(vec![os("man")]),
            Writer::Bless => {
                let mut scenario = target.as_os_str().to_owned().into_vec();
                scenario.truncate(scenario.len() - ".txt".len());
                scenario.extend_from_slice(b".scenario");
                let scenario = PathBuf::from(OsString::from_vec(scenario));
                fs::write(&scenario, SCENARIO).unwrap();
                vec![os("scenario"), os("--bless"), os(&scenario)]
            }
            Writer::ManDir => vec![os("man"), os("--dir"), os(target.parent().unwrap())],
        }
    }

    /// Something every output of the command holds.
    fn marker(self) -> &'static str {
        match self {
            Writer::Convert | Writer::Repair => "1. f5 d6",
            Writer::Show => "black to move",
            Writer::ShowSvg => "<svg",
            Writer::Completions => "_reversi",
            Writer::Man | Writer::ManDir => ".TH",
            Writer::Bless => "rules: othello:4x4",
        }
    }
}

fn assert_marked(w: Writer, bytes: &[u8], what: &str) {
    let text = String::from_utf8_lossy(bytes);
    assert!(
        text.contains(w.marker()),
        "{w:?} {what}: expected {:?} in:\n{}",
        w.marker(),
        &text[..text.len().min(500)]
    );
}

fn assert_ok(w: Writer, r: &Run, what: &str) {
    r.sane(&format!("{w:?} {what}"));
    assert_eq!(r.code, Some(0), "{w:?} {what}: {}", r.stderr);
}

/// The files `dir` holds besides the inputs the writers make.
fn left_in(dir: &Path) -> Vec<String> {
    files_in(dir)
        .into_iter()
        .filter(|n| n != "in.rgn" && !n.ends_with(".scenario"))
        .collect()
}

#[test]
fn a_fifo_is_written_directly_and_read_from_a_thread() {
    for w in WRITERS {
        let dir = scratch(&format!("fifo-{w:?}"));
        let target = w.target(&dir, "out.txt");
        let name = std::ffi::CString::new(target.as_os_str().as_bytes()).unwrap();
        // SAFETY: a NUL-terminated path of our own.
        assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
        // Opened read-write and non-blocking: the writer's open never waits, and the
        // thread drains the FIFO until the run is over.
        let mut fifo = fs::OpenOptions::new()
            .read(true)
            .write(true)
            .custom_flags(libc::O_NONBLOCK)
            .open(&target)
            .unwrap();
        let done = Arc::new(AtomicBool::new(false));
        let reader = {
            let done = done.clone();
            std::thread::spawn(move || {
                let mut got = Vec::new();
                let mut buf = [0u8; 65536];
                loop {
                    match fifo.read(&mut buf) {
                        Ok(n) if n > 0 => got.extend_from_slice(&buf[..n]),
                        _ if done.load(Ordering::SeqCst) => return got,
                        _ => std::thread::sleep(Duration::from_millis(2)),
                    }
                }
            })
        };
        let r = run_os(&w.args(&dir, &target));
        std::thread::sleep(Duration::from_millis(20));
        done.store(true, Ordering::SeqCst);
        let got = reader.join().unwrap();
        assert_ok(w, &r, "FIFO");
        assert_marked(w, &got, "FIFO");
        assert!(
            fs::symlink_metadata(&target).unwrap().file_type().is_fifo(),
            "{w:?}: the FIFO is still a FIFO"
        );
        if w != Writer::ManDir {
            assert_eq!(left_in(&dir), ["out.txt"], "{w:?}: no temporary");
        }
    }
}

#[test]
fn dev_null_stays_a_device() {
    for w in WRITERS {
        let dir = scratch(&format!("null-{w:?}"));
        let target = if w.takes_output() {
            PathBuf::from("/dev/null")
        } else {
            let t = w.target(&dir, "out.txt");
            std::os::unix::fs::symlink("/dev/null", &t).unwrap();
            t
        };
        let device = |what: &str| {
            let null = fs::symlink_metadata("/dev/null").unwrap();
            assert!(
                null.file_type().is_char_device(),
                "{w:?}: /dev/null is a device {what} (a tool run as root elsewhere on this \
                 machine may have replaced it: restore it with `mknod -m 666 /dev/null c 1 3`)"
            );
        };
        device("before the run");
        let r = run_os(&w.args(&dir, &target));
        assert_ok(w, &r, "/dev/null");
        device("after the run");
        assert!(
            !left_in(Path::new("/dev"))
                .iter()
                .any(|n| n.ends_with(".tmp")),
            "{w:?}: no temporary in /dev"
        );
        if !w.takes_output() {
            assert!(fs::symlink_metadata(&target)
                .unwrap()
                .file_type()
                .is_symlink());
        }
    }
}

#[test]
fn a_symlink_to_a_file_stays_a_link_and_the_file_is_replaced() {
    for w in WRITERS {
        let dir = scratch(&format!("link-{w:?}"));
        let real_dir = dir.join("real");
        fs::create_dir(&real_dir).unwrap();
        let real = real_dir.join("data.txt");
        fs::write(&real, "old").unwrap();
        let target = w.target(&dir, "out.txt");
        std::os::unix::fs::symlink(&real, &target).unwrap();
        let r = run_os(&w.args(&dir, &target));
        assert_ok(w, &r, "symlink");
        assert!(
            fs::symlink_metadata(&target)
                .unwrap()
                .file_type()
                .is_symlink(),
            "{w:?}: the link stays a link"
        );
        assert_marked(w, &fs::read(&real).unwrap(), "the file the link names");
        assert_eq!(files_in(&real_dir), ["data.txt"], "{w:?}: no temporary");
    }
}

#[test]
fn a_symlink_to_proc_self_fd_1_and_dev_stdout_write_standard_output() {
    for w in WRITERS {
        for through in ["/proc/self/fd/1", "/dev/stdout"] {
            let dir = scratch(&format!("stdout-{w:?}"));
            let target = if w.takes_output() && through == "/dev/stdout" {
                PathBuf::from(through)
            } else {
                let t = w.target(&dir, "out.txt");
                std::os::unix::fs::symlink(through, &t).unwrap();
                t
            };
            let r = run_os(&w.args(&dir, &target));
            assert_ok(w, &r, through);
            assert_marked(w, &r.stdout, through);
            if target.starts_with(&dir) {
                assert!(fs::symlink_metadata(&target)
                    .unwrap()
                    .file_type()
                    .is_symlink());
            }
        }
    }
}

#[test]
fn a_name_of_250_bytes_is_written() {
    for w in WRITERS.into_iter().filter(|w| *w != Writer::ManDir) {
        let dir = scratch(&format!("long-{w:?}"));
        let name = "n".repeat(246) + ".txt";
        let target = w.target(&dir, &name);
        let r = run_os(&w.args(&dir, &target));
        assert_ok(w, &r, "250-byte name");
        assert_marked(w, &fs::read(&target).unwrap(), "250-byte name");
        assert_eq!(left_in(&dir), [name.as_str()], "{w:?}: no temporary");
    }
}

#[test]
fn a_new_file_follows_the_umask() {
    for w in WRITERS {
        let dir = scratch(&format!("umask-{w:?}"));
        let target = w.target(&dir, "out.txt");
        let r = run_umask_077(&w.args(&dir, &target));
        assert_ok(w, &r, "umask 077");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600, "{w:?}: umask 077 gives 0600");
    }
}

#[test]
fn an_existing_file_keeps_its_mode() {
    for w in WRITERS {
        let dir = scratch(&format!("mode-{w:?}"));
        let target = w.target(&dir, "out.txt");
        fs::write(&target, "old").unwrap();
        fs::set_permissions(&target, fs::Permissions::from_mode(0o640)).unwrap();
        let r = run_os(&w.args(&dir, &target));
        assert_ok(w, &r, "0640");
        let mode = fs::metadata(&target).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o640, "{w:?}: the mode is kept");
        assert_marked(w, &fs::read(&target).unwrap(), "0640");
    }
}

// ---------------------------------------------------------------------------------------
// Inputs are never outputs

#[test]
fn repair_and_show_refuse_to_write_the_name_files_the_input_is_read_with() {
    let dir = scratch("names-alias");
    let rgn = dir.join("in.rgn");
    fs::write(
        &rgn,
        "[Event \"Cup\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n",
    )
    .unwrap();
    let wtb = dir.join("t.wtb");
    let made = run(&[
        "convert",
        "-q",
        "--lossy",
        "--year",
        "2026",
        "--to",
        "wthor",
        "-o",
        path_str(&wtb),
        path_str(&rgn),
    ]);
    assert_eq!(made.code, Some(0), "{}", made.stderr);
    let jou = dir.join("WTHOR.JOU");
    let before = fs::read(&jou).unwrap();
    for args in [
        vec![
            "repair",
            "-q",
            "--to",
            "rgn",
            "-o",
            path_str(&jou),
            path_str(&wtb),
        ],
        vec!["show", "-o", path_str(&jou), path_str(&wtb)],
    ] {
        let r = run(&args);
        r.sane(args[0]);
        assert_eq!(r.code, Some(2), "{}: {}", args[0], r.stderr);
        assert!(r.stderr.contains("would destroy the input"), "{}", r.stderr);
        // The refusal names the file, not standard output.
        assert!(!r.stderr.contains("standard output"), "{}", r.stderr);
        assert_eq!(
            fs::read(&jou).unwrap(),
            before,
            "{}: the name file is kept",
            args[0]
        );
    }
}

#[test]
fn a_repair_that_writes_no_game_leaves_the_output_alone() {
    let dir = scratch("repair-nothing");
    let empty = dir.join("empty.rgn");
    fs::write(&empty, "").unwrap();
    let out = dir.join("out.rgn");
    fs::write(&out, "precious").unwrap();
    let r = run(&[
        "repair",
        "-q",
        "--from",
        "rgn",
        "-o",
        path_str(&out),
        path_str(&empty),
    ]);
    r.sane("repair of nothing");
    assert_eq!(fs::read_to_string(&out).unwrap(), "precious");
    assert!(r.stderr.contains("is left as it was"), "{}", r.stderr);
    assert_eq!(files_in(&dir), ["empty.rgn", "out.rgn"]);
}

#[test]
fn blessing_a_txt_scenario_never_replaces_it() {
    let dir = scratch("bless-txt");
    let scenario = dir.join("pass.txt");
    fs::write(&scenario, SCENARIO).unwrap();
    let r = run(&["scenario", "--bless", path_str(&scenario)]);
    r.sane("bless pass.txt");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert_eq!(fs::read_to_string(&scenario).unwrap(), SCENARIO);
    let expected = fs::read_to_string(dir.join("pass.txt.txt")).unwrap();
    assert!(expected.contains("white b1: refused"), "{expected}");
    // And --check reads it back from there.
    let r = run(&["scenario", "--check", path_str(&scenario)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn blessing_never_writes_over_another_scenario_input() {
    let dir = scratch("bless-other");
    let a = dir.join("a.scenario");
    fs::write(&a, SCENARIO).unwrap();
    // `a.txt` is a scenario too, and also where `a.scenario`'s transcript would go.
    let b = dir.join("a.txt");
    fs::write(&b, SCENARIO).unwrap();
    let r = run(&["scenario", "--bless", path_str(&a), path_str(&b)]);
    r.sane("bless over an input");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("would destroy the input"), "{}", r.stderr);
    assert_eq!(fs::read_to_string(&b).unwrap(), SCENARIO);
}

// ---------------------------------------------------------------------------------------
// Signals and limits

/// Starts `convert` to `output` reading games from a pipe kept open, and waits until its
/// temporary file is beside the output.
fn convert_waiting(dir: &Path, output: &Path) -> (std::process::Child, std::process::ChildStdin) {
    let mut child = Command::new(bin())
        .args([
            "convert",
            "-q",
            "--from",
            "moves",
            "--to",
            "rgn",
            "-o",
            path_str(output),
            "-",
        ])
        .stdin(Stdio::piped())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    stdin
        .write_all("f5d6c3d3c4f4c5b3c2e6\n".repeat(1000).as_bytes())
        .unwrap();
    stdin.flush().unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while files_in(dir).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert_eq!(files_in(dir).len(), 2, "a temporary file beside the output");
    (child, stdin)
}

#[test]
fn every_ending_signal_removes_the_temporary_and_exits_128_plus_the_signal() {
    for (signal, name) in [
        (libc::SIGUSR1, "SIGUSR1"),
        (libc::SIGALRM, "SIGALRM"),
        (libc::SIGTERM, "SIGTERM"),
        (libc::SIGHUP, "SIGHUP"),
        (libc::SIGUSR2, "SIGUSR2"),
    ] {
        let dir = scratch(&format!("signal-{name}"));
        let output = dir.join("out.rgn");
        fs::write(&output, "precious").unwrap();
        let (mut child, stdin) = convert_waiting(&dir, &output);
        // SAFETY: sending a signal to our own child.
        unsafe { libc::kill(child.id() as libc::pid_t, signal) };
        let status = child.wait().unwrap();
        drop(stdin);
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        assert_eq!(status.code(), Some(128 + signal), "{name}: {stderr}");
        assert!(
            stderr.contains(&format!("interrupted by {name}")),
            "{stderr}"
        );
        assert!(stderr.contains("out.rgn is left as it was"), "{stderr}");
        assert_eq!(files_in(&dir), ["out.rgn"], "{name}");
        assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
    }
}

#[test]
fn a_file_size_limit_is_reported_with_the_file_and_exit_2() {
    let dir = scratch("ulimit");
    let input = dir.join("games.txt");
    fs::write(&input, "f5d6c3d3c4f4c5b3c2e6\n".repeat(20_000)).unwrap();
    let output = dir.join("out.rgn");
    fs::write(&output, "precious").unwrap();
    let mut cmd = Command::new("sh");
    cmd.arg("-c")
        .arg("ulimit -f 100; exec \"$0\" \"$@\"")
        .arg(bin())
        .args(["convert", "-q", "--from", "moves", "--to", "rgn", "-o"])
        .arg(&output)
        .arg(&input)
        .stdin(Stdio::null());
    let r = measured(cmd);
    r.sane("ulimit -f");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(r.stderr.contains("out.rgn"), "{}", r.stderr);
    assert!(r.stderr.contains("too large"), "{}", r.stderr);
    assert_eq!(files_in(&dir), ["games.txt", "out.rgn"], "no temporary");
    assert_eq!(fs::read_to_string(&output).unwrap(), "precious");
}

// ---------------------------------------------------------------------------------------
// Closed and full standard output

/// Every command that prints, with what it needs in `dir`.
fn printing_commands(dir: &Path) -> Vec<Vec<String>> {
    let input = dir.join("in.rgn");
    fs::write(&input, RGN_GAME.repeat(200)).unwrap();
    let scenario = dir.join("s.scenario");
    fs::write(&scenario, SCENARIO).unwrap();
    let input = path_str(&input).to_owned();
    let scenario = path_str(&scenario).to_owned();
    [
        vec!["explain"],
        vec!["explain", "unfinished"],
        vec!["man"],
        vec!["completions", "bash"],
        vec!["perft", "3"],
        vec!["show", &input],
        vec!["scenario", &scenario],
        vec!["scenario", "--format", "json", &scenario],
        vec!["repair", "-q", &input],
        vec!["validate", "-q", &input],
        vec!["convert", "-q", "--to", "json", &input],
    ]
    .into_iter()
    .map(|a| a.into_iter().map(String::from).collect())
    .collect()
}

#[test]
fn a_closed_standard_output_ends_every_command_quietly_with_its_status() {
    let dir = scratch("closed");
    for args in printing_commands(&dir) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let normal = run(&args);
        let mut child = Command::new(bin())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // The reader goes away before anything is written.
        drop(child.stdout.take());
        let mut stderr = String::new();
        child
            .stderr
            .take()
            .unwrap()
            .read_to_string(&mut stderr)
            .unwrap();
        let status = child.wait().unwrap();
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(status.code(), normal.code, "{args:?}: {stderr}");
        assert!(!stderr.contains("Broken pipe"), "{args:?}: {stderr}");
    }
}

#[test]
fn a_full_standard_output_names_it_and_exits_2() {
    let dir = scratch("full");
    for args in printing_commands(&dir) {
        let full = fs::OpenOptions::new()
            .write(true)
            .open("/dev/full")
            .unwrap();
        let out = Command::new(bin())
            .args(&args)
            .stdin(Stdio::null())
            .stdout(full)
            .stderr(Stdio::piped())
            .output()
            .unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{args:?}: {stderr}");
        assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
        assert!(stderr.contains("standard output"), "{args:?}: {stderr}");
    }
}

#[test]
fn completions_piped_into_head_do_not_panic() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let mut child = Command::new(bin())
            .args(["completions", shell])
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        let mut first = [0u8; 1];
        child
            .stdout
            .as_mut()
            .unwrap()
            .read_exact(&mut first)
            .unwrap();
        drop(child.stdout.take());
        let out = child.wait_with_output().unwrap();
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert!(!stderr.contains("panicked"), "{shell}: {stderr}");
        assert_eq!(out.status.code(), Some(0), "{shell}: {stderr}");
    }
}

// ---------------------------------------------------------------------------------------
// Arguments

#[test]
fn an_unknown_allow_code_is_a_usage_error_with_the_nearest_name() {
    let dir = scratch("allow");
    let input = dir.join("in.rgn");
    fs::write(&input, RGN_GAME).unwrap();
    let r = run(&["validate", "--allow", "unfinshed", path_str(&input)]);
    r.sane("--allow typo");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    assert!(
        r.stderr.contains("did you mean `unfinished`?"),
        "{}",
        r.stderr
    );
    let r = run(&["validate", "-q", "--allow", "UNFINISHED", path_str(&input)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
}

#[test]
fn file_names_that_are_not_utf8_work_in_every_command() {
    let dir = scratch("latin1");
    let mut name = dir.as_os_str().as_bytes().to_vec();
    name.extend_from_slice(b"/Coupe de Fran\xe7e.rgn");
    let input = PathBuf::from(OsString::from_vec(name));
    fs::write(&input, RGN_GAME).unwrap();
    let mut out_name = dir.as_os_str().as_bytes().to_vec();
    out_name.extend_from_slice(b"/sortie \xe9t\xe9.rgn");
    let output = PathBuf::from(OsString::from_vec(out_name));
    let scenario = PathBuf::from(OsString::from_vec(
        [dir.as_os_str().as_bytes(), b"/r\xe8gle.scenario"].concat(),
    ));
    fs::write(&scenario, SCENARIO).unwrap();
    let runs: Vec<Vec<OsString>> = vec![
        vec![os("validate"), os("-q"), os(&input)],
        vec![
            os("convert"),
            os("-q"),
            os("--to"),
            os("rgn"),
            os("-o"),
            os(&output),
            os(&input),
        ],
        vec![os("repair"), os("-q"), os("-o"), os(&output), os(&input)],
        vec![os("scenario"), os("--bless"), os(&scenario)],
        vec![os("show"), os("-o"), os(&output), os(&input)],
    ];
    for args in runs {
        let _ = fs::remove_file(&output);
        let r = run_os(&args);
        r.sane(&format!("{args:?}"));
        assert_eq!(r.code, Some(0), "{args:?}: {}", r.stderr);
        assert!(!r.stderr.contains("invalid UTF-8"), "{}", r.stderr);
    }
    assert!(fs::read_to_string(&output)
        .unwrap()
        .contains("black to move"));
    let expected = PathBuf::from(OsString::from_vec(
        [dir.as_os_str().as_bytes(), b"/r\xe8gle.txt"].concat(),
    ));
    assert!(expected.is_file());
}

#[test]
fn jobs_are_capped_with_a_note_in_repair() {
    let dir = scratch("jobs");
    let input = dir.join("in.rgn");
    fs::write(&input, RGN_GAME.repeat(4)).unwrap();
    let r = run(&["repair", "--jobs", "10000", path_str(&input)]);
    r.sane("repair --jobs 10000");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(
        r.stderr.contains("--jobs 10000 is more than"),
        "{}",
        r.stderr
    );
    assert!(r.elapsed < Duration::from_secs(20), "{:?}", r.elapsed);
}

// ---------------------------------------------------------------------------------------
// WTHOR name files under concurrent writers

/// Games whose players are named after `tag` and their number.
fn named_games(tag: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "[Event \"{tag} cup {}\"]\n[Black \"{tag} black {i}\"]\n[White \"{tag} white {i}\"]\n\n1. f5 d6 2. c3 d3 3. c4 f4 *\n\n",
                i % 7
            )
        })
        .collect()
}

/// The Black and White names of every game of the WTHOR file `wtb`, read back.
fn players_of(wtb: &Path) -> Vec<(String, String)> {
    let r = run(&["convert", "-q", "--to", "rgn", path_str(wtb)]);
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    let text = r.stdout();
    let tag = |line: &str, name: &str| {
        line.strip_prefix(&format!("[{name} \""))
            .and_then(|v| v.strip_suffix("\"]"))
            .map(str::to_owned)
    };
    let blacks: Vec<String> = text.lines().filter_map(|l| tag(l, "Black")).collect();
    let whites: Vec<String> = text.lines().filter_map(|l| tag(l, "White")).collect();
    blacks.into_iter().zip(whites).collect()
}

#[test]
fn two_conversions_into_one_folder_both_keep_their_names() {
    let dir = scratch("concurrent-names");
    let out = dir.join("db");
    fs::create_dir(&out).unwrap();
    let games = 400;
    for tag in ["alpha", "beta"] {
        fs::write(dir.join(format!("{tag}.rgn")), named_games(tag, games)).unwrap();
    }
    for round in 0..3 {
        let children: Vec<_> = ["alpha", "beta"]
            .iter()
            .map(|tag| {
                Command::new(bin())
                    .args([
                        "convert", "-q", "--lossy", "--year", "2026", "--to", "wthor", "-o",
                    ])
                    .arg(out.join(format!("{tag}{round}.wtb")))
                    .arg(dir.join(format!("{tag}.rgn")))
                    .stdout(Stdio::null())
                    .stderr(Stdio::piped())
                    .spawn()
                    .unwrap()
            })
            .collect();
        for child in children {
            let out = child.wait_with_output().unwrap();
            assert_eq!(
                out.status.code(),
                Some(0),
                "{}",
                String::from_utf8_lossy(&out.stderr)
            );
        }
        for tag in ["alpha", "beta"] {
            let players = players_of(&out.join(format!("{tag}{round}.wtb")));
            assert_eq!(players.len(), games, "{tag} round {round}");
            for (i, (black, white)) in players.iter().enumerate() {
                assert_eq!(black, &format!("{tag} black {i}"), "round {round}");
                assert_eq!(white, &format!("{tag} white {i}"), "round {round}");
            }
        }
    }
    assert!(
        !files_in(&out).iter().any(|n| n.ends_with(".tmp")),
        "{:?}",
        files_in(&out)
    );
}

// ---------------------------------------------------------------------------------------
// Memory

#[test]
fn repair_of_2_mb_of_openings_stays_small() {
    let dir = scratch("repair-memory");
    let input = dir.join("openings.txt");
    let openings = [
        "f5d6c3d3c4",
        "f5f6e6f4e3",
        "f5d6c5f4e3",
        "f5f4e3f6d3",
        "c4c3d3c5b4",
    ];
    let mut text = String::new();
    let mut i = 0;
    while text.len() < 2_000_000 {
        text.push_str(openings[i % openings.len()]);
        text.push('\n');
        i += 1;
    }
    fs::write(&input, text).unwrap();
    let output = dir.join("out.txt");
    let r = run(&[
        "repair",
        "-q",
        "--from",
        "moves",
        "-o",
        path_str(&output),
        path_str(&input),
    ]);
    r.sane("repair of 2 MB");
    assert_eq!(r.code, Some(0), "{}", r.stderr);
    assert!(r.stdout().contains(&format!("{i} games")), "{}", r.stdout());
    let json = run(&[
        "repair",
        "-q",
        "--format",
        "json",
        "--from",
        "moves",
        "-o",
        path_str(&output),
        path_str(&input),
    ]);
    json.sane("repair --format json of 2 MB");
    let report: serde_json::Value = serde_json::from_slice(&json.stdout).unwrap();
    assert_eq!(report["summary"]["games"], i);
    assert_eq!(report["games"].as_array().unwrap().len(), i);
}

#[test]
fn an_oversized_or_endless_scenario_is_refused_fast() {
    let dir = scratch("scenario-big");
    let big = dir.join("big.scenario");
    let mut text = String::from("rules: othello\n");
    while text.len() < 8 * 1024 * 1024 {
        text.push_str("moves: !a1 !a1 !a1 !a1 !a1 !a1 !a1 !a1 !a1 !a1 !a1 !a1\n");
    }
    fs::write(&big, text).unwrap();
    for path in [path_str(&big), "/dev/zero"] {
        for format in ["text", "json"] {
            let r = run(&["scenario", "--format", format, path]);
            r.sane(path);
            assert_eq!(r.code, Some(2), "{path}: {}", r.stderr);
            assert!(r.stderr.contains("larger than 4 MiB"), "{}", r.stderr);
            assert!(
                r.elapsed < Duration::from_secs(10),
                "{path}: {:?}",
                r.elapsed
            );
        }
    }
}

#[test]
fn the_largest_scenarios_allowed_stay_small() {
    let dir = scratch("scenario-largest");
    // The most moves a scenario may have, every position shown.
    let moves = scenario_moves(10_000);
    let long = dir.join("long.scenario");
    fs::write(
        &long,
        format!("rules: othello\nshow: every\nmoves: {moves}\n"),
    )
    .unwrap();
    // Just under 4 MiB of small scenarios in Markdown.
    let md = dir.join("many.md");
    let block = "```scenario\nrules: othello:4x4\nmoves: b1 !b1\n```\n\n";
    fs::write(&md, block.repeat(4 * 1024 * 1024 / block.len() - 1)).unwrap();
    for path in [&long, &md] {
        for format in ["text", "json"] {
            let r = run(&["scenario", "--format", format, path_str(path)]);
            r.sane(&format!("{} {format}", path.display()));
            assert_eq!(r.code, Some(0), "{}", &r.stderr[..r.stderr.len().min(2000)]);
            assert!(!r.stdout.is_empty());
        }
    }
    let over = dir.join("over.scenario");
    fs::write(
        &over,
        format!("rules: othello\nmoves: {} !a1\n", scenario_moves(10_000)),
    )
    .unwrap();
    let r = run(&["scenario", path_str(&over)]);
    r.sane("too many moves");
    assert_eq!(r.code, Some(1), "{}", r.stderr);
    assert!(r.stderr.contains("at most 10000"), "{}", r.stderr);
}

/// `n` moves of a scenario on 8x8: a game's moves, then refused moves to the count.
fn scenario_moves(n: usize) -> String {
    let game = ["f5", "d6", "c3", "d3", "c4"];
    let mut moves: Vec<&str> = game.to_vec();
    while moves.len() < n {
        moves.push("!a1");
    }
    moves.join(" ")
}

#[test]
fn a_scenario_from_stdin_like_devices_is_bounded() {
    // A FIFO fed forever is cut at the bound like /dev/zero.
    let dir = scratch("scenario-fifo");
    let fifo = dir.join("endless.scenario");
    let name = std::ffi::CString::new(fifo.as_os_str().as_bytes()).unwrap();
    // SAFETY: a NUL-terminated path of our own.
    assert_eq!(unsafe { libc::mkfifo(name.as_ptr(), 0o644) }, 0);
    let feeder = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let Ok(mut f) = fs::OpenOptions::new().write(true).open(&fifo) else {
                return;
            };
            let chunk = "# comment\n".repeat(1000);
            while f.write_all(chunk.as_bytes()).is_ok() {}
        })
    };
    let r = run_with(&["scenario", path_str(&fifo)], Stdio::null(), None);
    r.sane("endless FIFO");
    assert_eq!(r.code, Some(2), "{}", r.stderr);
    feeder.join().unwrap();
}
