//! Child-process runs of the `reversi` binary for the hostile-input tests: exit code,
//! output, and peak memory measured by the kernel for the child.
#![cfg(unix)]

use std::fs;
use std::io::Read;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// Peak memory a run may take, whatever its input.
pub const MEMORY_LIMIT_KB: i64 = 64 * 1024;

/// What a run of the binary gave.
pub struct Run {
    pub code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: String,
    /// Peak resident memory in KiB.
    pub max_rss_kb: i64,
    pub elapsed: Duration,
}

impl Run {
    pub fn stdout(&self) -> String {
        String::from_utf8_lossy(&self.stdout).into_owned()
    }

    /// Checks what every run must be: finished by itself, no panic, memory bounded.
    pub fn sane(&self, what: &str) -> &Run {
        assert!(
            !self.stderr.contains("panicked"),
            "{what}: panicked:\n{}",
            self.stderr
        );
        assert_ne!(self.code, Some(101), "{what}: {}", self.stderr);
        assert!(self.code.is_some(), "{what}: killed by a signal");
        assert!(
            self.max_rss_kb < MEMORY_LIMIT_KB,
            "{what}: peak memory {} KiB",
            self.max_rss_kb
        );
        self
    }
}

pub fn bin() -> PathBuf {
    assert_cmd::cargo::cargo_bin("reversi")
}

/// Runs the binary with `args`, standard input from `stdin` (in `dir` when given), and
/// measures it.
pub fn run_with(args: &[&str], stdin: Stdio, dir: Option<&Path>) -> Run {
    let mut cmd = Command::new(bin());
    cmd.args(args).env("NO_COLOR", "1").stdin(stdin);
    if let Some(dir) = dir {
        cmd.current_dir(dir);
    }
    measured(cmd)
}

/// Runs `cmd` (its standard output and error piped), measuring its peak memory and time.
pub fn measured(mut cmd: Command) -> Run {
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let start = Instant::now();
    let mut child = cmd.spawn().expect("reversi starts");
    let mut out = child.stdout.take().unwrap();
    let mut err = child.stderr.take().unwrap();
    let stdout = std::thread::spawn(move || {
        let mut buf = Vec::new();
        out.read_to_end(&mut buf).unwrap();
        buf
    });
    let stderr = std::thread::spawn(move || {
        let mut buf = Vec::new();
        err.read_to_end(&mut buf).unwrap();
        buf
    });
    let pid = child.id();
    let done = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(false));
    let peak = {
        let done = done.clone();
        std::thread::spawn(move || peak_memory_kb(pid, &done))
    };
    let code = child.wait().expect("reversi ends").code();
    done.store(true, std::sync::atomic::Ordering::SeqCst);
    let max_rss_kb = peak.join().unwrap();
    Run {
        code,
        stdout: stdout.join().unwrap(),
        stderr: String::from_utf8_lossy(&stderr.join().unwrap()).into_owned(),
        max_rss_kb,
        elapsed: start.elapsed(),
    }
}

pub fn run(args: &[&str]) -> Run {
    run_with(args, Stdio::null(), None)
}

/// The child's peak resident memory in KiB: its `VmHWM` (a high-water mark, so the last
/// reading is the peak up to then), read every millisecond until it exits. (`wait4`'s
/// `ru_maxrss` would count the test process itself, whose memory the child shares until
/// it executes the binary.)
pub fn peak_memory_kb(pid: u32, done: &std::sync::atomic::AtomicBool) -> i64 {
    let path = format!("/proc/{pid}/status");
    let mut peak = 0;
    while !done.load(std::sync::atomic::Ordering::SeqCst) {
        let Ok(status) = fs::read_to_string(&path) else {
            break;
        };
        let hwm = status
            .lines()
            .find_map(|l| l.strip_prefix("VmHWM:"))
            .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<i64>().ok());
        if let Some(hwm) = hwm {
            peak = peak.max(hwm);
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    peak
}

/// The files of `dir`, sorted: what a run left behind.
pub fn files_in(dir: &Path) -> Vec<String> {
    let mut names: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    names.sort();
    names
}

pub fn path_str(p: &Path) -> &str {
    p.to_str().unwrap()
}
