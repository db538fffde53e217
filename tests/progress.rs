//! The progress bar costs nothing: drawn on a terminal (a pseudo-terminal made by
//! `script`), a run with many thousand findings redraws it a few times a second, not once
//! a finding, whether the findings go to the same terminal or elsewhere.

#![cfg(unix)]

mod common;

use std::process::Command;
use std::time::Instant;

/// Games that each end early: one `unfinished` warning each.
fn unfinished_games(count: usize) -> String {
    (0..count)
        .map(|k| format!("[Black \"B{k}\"]\n[White \"W{k}\"]\n\nf5 d6 c3 *\n\n"))
        .collect()
}

/// What the terminal of `command` (run by `script` on a pseudo-terminal) received, and
/// how long it took; `None` when `script` is not there.
fn on_a_terminal(command: &str) -> Option<(Vec<u8>, f64)> {
    let start = Instant::now();
    let out = Command::new("script")
        .args(["-qfec", command, "/dev/null"])
        .env("TERM", "xterm")
        .output()
        .ok()?;
    assert!(
        out.status.success() || out.status.code() == Some(1),
        "{command}: {out:?}"
    );
    Some((out.stdout, start.elapsed().as_secs_f64()))
}

/// How many lines of the bar were erased (each time it is cleared or drawn again, one a
/// line it takes on the terminal).
fn erased(terminal: &[u8]) -> usize {
    terminal.windows(4).filter(|w| w == b"\x1b[2K").count()
}

#[test]
fn the_bar_is_redrawn_a_few_times_a_second_not_once_a_finding() {
    let dir = common::scratch("progress");
    let path = dir.join("unfinished.rgn");
    std::fs::write(&path, unfinished_games(20_000)).expect("written");
    let bin = common::child::bin();
    let (bin, path) = (bin.display(), path.display());
    for (what, command) in [
        (
            "findings elsewhere",
            format!("{bin} validate --jobs 1 '{path}' > /dev/null"),
        ),
        (
            "findings on the terminal",
            format!("{bin} validate --jobs 1 '{path}'"),
        ),
    ] {
        let Some((terminal, seconds)) = on_a_terminal(&command) else {
            panic!("`script` (util-linux) is needed to give the run a terminal");
        };
        let text = String::from_utf8_lossy(&terminal);
        // The run drew a bar (or the test proves nothing).
        assert!(text.contains("games/s"), "{what}: no bar:\n{text:.2000}");
        // A bar of two lines drawn 20 times a second, with room to spare; once a finding
        // would erase 40,000 lines.
        let erased = erased(&terminal);
        let bound = 40 + (80.0 * seconds) as usize;
        assert!(
            erased <= bound,
            "{what}: {erased} lines of the bar erased in {seconds:.1} s (at most {bound})"
        );
        if what == "findings on the terminal" {
            // Every finding reached the terminal, then the summary.
            assert!(text.matches("unfinished").count() >= 20_000, "{what}");
            assert!(text.contains("20000 games") || text.contains("20,000 games"));
        }
    }
}
