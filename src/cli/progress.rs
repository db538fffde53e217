//! The progress bar of `validate`, `convert`, `repair` and `standings`: on standard error,
//! only when it is a terminal and the run is not `--quiet`.
//!
//! The bar runs over the bytes of the input files (read so far of all of them); standard
//! input has no known size, so it gets a spinner with the counts. The rate is in games a
//! second, the ETA from the share of bytes read. While a bar is shown, every line
//! [`super::stderr_line`] prints suspends it (the bar is cleared, the line printed, the
//! bar drawn again), and [`Progress::finish`] clears it before the summary.

use std::io::{self, BufRead, IsTerminal, Read};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// The bar shown now, for [`suspend`].
static SHOWN: Mutex<Option<ProgressBar>> = Mutex::new(None);

/// A progress bar on standard error.
pub(crate) struct Progress {
    bar: ProgressBar,
    games: Arc<AtomicU64>,
}

impl Progress {
    /// A bar over the sizes of `inputs` (a spinner if one is standard input or has no
    /// known size), or `None` when `quiet` or standard error is not a terminal. `games`:
    /// whether the command counts games ([`Progress::game`]) for the rate.
    pub(crate) fn start(inputs: &[PathBuf], quiet: bool, games: bool) -> Option<Progress> {
        if quiet || !io::stderr().is_terminal() {
            return None;
        }
        Some(Progress::new(inputs, games, ProgressDrawTarget::stderr()))
    }

    fn new(inputs: &[PathBuf], count_games: bool, target: ProgressDrawTarget) -> Progress {
        let total = total_size(inputs);
        let games = Arc::new(AtomicU64::new(0));
        let bar = match total {
            Some(len) => ProgressBar::with_draw_target(Some(len), target),
            None => ProgressBar::with_draw_target(None, target),
        };
        let template = match (total.is_some(), count_games) {
            (true, true) => {
                "{bar:30} {percent:>3}% {bytes}/{total_bytes}, {games}, {rate}, ETA {eta_human}"
            }
            (true, false) => "{bar:30} {percent:>3}% {bytes}/{total_bytes}, ETA {eta_human}",
            (false, true) => "{spinner} {bytes} read, {games}, {rate}",
            (false, false) => "{spinner} {bytes} read",
        };
        let counted = games.clone();
        let rated = games.clone();
        let style = ProgressStyle::with_template(template)
            .unwrap_or_else(|_| ProgressStyle::default_bar())
            .progress_chars("=> ")
            .with_key(
                "games",
                move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let n = counted.load(Ordering::Relaxed);
                    let _ = write!(
                        w,
                        "{} {}",
                        group_digits(n),
                        if n == 1 { "game" } else { "games" }
                    );
                },
            )
            .with_key(
                "rate",
                move |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let n = rated.load(Ordering::Relaxed);
                    let _ = w.write_str(&format_rate(n, state.elapsed()));
                },
            )
            .with_key(
                "eta_human",
                |state: &ProgressState, w: &mut dyn std::fmt::Write| {
                    let eta = eta(state.fraction(), state.elapsed());
                    let _ = w.write_str(&eta.map_or_else(|| "-".to_string(), format_eta));
                },
            );
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = Some(bar.clone());
        }
        Progress { bar, games }
    }

    /// `n` more games done.
    pub(crate) fn games(&self, n: u64) {
        self.games.fetch_add(n, Ordering::Relaxed);
    }

    /// Clears the bar (before the summary is printed).
    pub(crate) fn finish(self) {
        if let Ok(mut shown) = SHOWN.lock() {
            *shown = None;
        }
        self.bar.finish_and_clear();
    }
}

impl Drop for Progress {
    fn drop(&mut self) {
        // An early return clears the bar too.
        if !self.bar.is_finished() {
            if let Ok(mut shown) = SHOWN.lock() {
                *shown = None;
            }
            self.bar.finish_and_clear();
        }
    }
}

/// What counts the bytes read on a bar, apart from it (for the reading side).
#[derive(Clone)]
pub(crate) struct Counter(Option<ProgressBar>);

impl Counter {
    /// The counter of `progress` (none: counts nothing).
    pub(crate) fn of(progress: Option<&Progress>) -> Counter {
        Counter(progress.map(|p| p.bar.clone()))
    }

    /// `reader`, counting what is read from it.
    pub(crate) fn wrap(
        &self,
        reader: Box<dyn BufRead + Send + 'static>,
    ) -> Box<dyn BufRead + Send + 'static> {
        match &self.0 {
            Some(bar) => Box::new(Counted {
                inner: reader,
                bar: bar.clone(),
            }),
            None => reader,
        }
    }

    /// `input`, its bytes counted.
    pub(crate) fn input(&self, input: reversi_runs::run::Opened) -> reversi_runs::run::Opened {
        input.tap(|reader| self.wrap(reader))
    }
}

/// Counts `n` games on the bar, if there is one.
pub(crate) fn games(progress: Option<&Progress>, n: u64) {
    if let Some(p) = progress {
        p.games(n);
    }
}

/// Runs `f` (which writes to the terminal) with the bar shown now, if any, cleared.
pub(crate) fn suspend<R>(f: impl FnOnce() -> R) -> R {
    let shown = SHOWN.lock().ok().and_then(|s| s.clone());
    match shown {
        Some(bar) => bar.suspend(f),
        None => f(),
    }
}

/// The sum of the inputs' sizes, or `None` when one of them is standard input or has no
/// size (a pipe).
fn total_size(inputs: &[PathBuf]) -> Option<u64> {
    let mut total = 0u64;
    for path in inputs {
        if path == Path::new("-") {
            return None;
        }
        let meta = std::fs::metadata(path).ok()?;
        if !meta.is_file() {
            return None;
        }
        total = total.saturating_add(meta.len());
    }
    Some(total)
}

/// A reader counting on the bar what is taken from it.
struct Counted {
    inner: Box<dyn BufRead + Send + 'static>,
    bar: ProgressBar,
}

impl Read for Counted {
    fn read(&mut self, buf: &mut [u8]) -> io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.bar.inc(n as u64);
        Ok(n)
    }
}

impl BufRead for Counted {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        self.inner.fill_buf()
    }

    fn consume(&mut self, amt: usize) {
        self.bar.inc(amt as u64);
        self.inner.consume(amt);
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn group_digits(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// The rate of `games` games in `elapsed`, for people: whole games a second with thousands
/// grouped (`149,585 games/s`), one decimal below 10 (`2.5 games/s`); `-` before the first
/// tenth of a second.
fn format_rate(games: u64, elapsed: Duration) -> String {
    let secs = elapsed.as_secs_f64();
    if secs < 0.1 {
        return "- games/s".to_string();
    }
    let rate = games as f64 / secs;
    if rate < 10.0 {
        format!("{rate:.1} games/s")
    } else {
        format!("{} games/s", group_digits(rate.round() as u64))
    }
}

/// The time left when `fraction` of the work took `elapsed`; `None` before anything is
/// done.
fn eta(fraction: f32, elapsed: Duration) -> Option<Duration> {
    if fraction.is_nan() || fraction <= 0.0 {
        return None;
    }
    let fraction = f64::from(fraction.min(1.0));
    let left = elapsed.as_secs_f64() * (1.0 - fraction) / fraction;
    Some(Duration::from_secs_f64(left.clamp(0.0, 360_000.0)))
}

/// A time left, for people: `7s`, `1m 05s`, `2h 03m`.
fn format_eta(left: Duration) -> String {
    let s = left.as_secs() + u64::from(left.subsec_millis() >= 500);
    match s {
        0..=59 => format!("{s}s"),
        60..=3599 => format!("{}m {:02}s", s / 60, s % 60),
        _ => format!("{}h {:02}m", s / 3600, s % 3600 / 60),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn digits_are_grouped_by_thousands() {
        assert_eq!(group_digits(0), "0");
        assert_eq!(group_digits(999), "999");
        assert_eq!(group_digits(1000), "1,000");
        assert_eq!(group_digits(149_585), "149,585");
        assert_eq!(group_digits(1_234_567), "1,234,567");
    }

    #[test]
    fn rates_are_whole_games_a_second() {
        let rate = format_rate(1_495_850, Duration::from_secs(10));
        assert_eq!(rate, "149,585 games/s");
        let rate = format_rate(1_495_851, Duration::from_millis(10_000));
        assert_eq!(rate, "149,585 games/s");
        assert_eq!(format_rate(25, Duration::from_secs(10)), "2.5 games/s");
        assert_eq!(format_rate(5, Duration::from_millis(50)), "- games/s");
    }

    #[test]
    fn etas_are_seconds_minutes_or_hours() {
        assert_eq!(format_eta(Duration::from_secs(7)), "7s");
        assert_eq!(format_eta(Duration::from_millis(7_600)), "8s");
        assert_eq!(format_eta(Duration::from_secs(65)), "1m 05s");
        assert_eq!(
            format_eta(Duration::from_secs(2 * 3600 + 3 * 60 + 9)),
            "2h 03m"
        );
        assert_eq!(eta(0.0, Duration::from_secs(3)), None);
        assert_eq!(
            eta(0.25, Duration::from_secs(3)),
            Some(Duration::from_secs(9))
        );
        assert_eq!(eta(1.0, Duration::from_secs(3)), Some(Duration::ZERO));
    }

    #[test]
    fn a_hidden_bar_counts_bytes_and_games() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a.txt");
        std::fs::write(&file, "f5d6c3\n").unwrap();
        let p = Progress::new(
            std::slice::from_ref(&file),
            true,
            ProgressDrawTarget::hidden(),
        );
        assert_eq!(p.bar.length(), Some(7));
        let mut r = Counter::of(Some(&p)).wrap(Box::new(io::Cursor::new(b"f5d6c3\n".to_vec())));
        let mut s = String::new();
        r.read_to_string(&mut s).unwrap();
        p.games(1);
        assert_eq!(p.bar.position(), 7);
        assert_eq!(p.games.load(Ordering::Relaxed), 1);
        p.finish();
        assert!(SHOWN.lock().unwrap().is_none());
        let stdin = Progress::new(&[PathBuf::from("-")], true, ProgressDrawTarget::hidden());
        assert_eq!(stdin.bar.length(), None);
    }
}
