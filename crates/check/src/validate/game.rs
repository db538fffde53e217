//! Validating games as read: reader and replay findings together, `--allow`, and the counts
//! a validation run reports.

use std::fmt;

use serde::Serialize;

use std::sync::Arc;

use super::validate_record;
use crate::codes::{Code, CODES, CODE_COUNT};
use crate::diagnostic::{Diagnostic, Severity};
use crate::engine::Outcome;
use crate::formats::ParsedGame;
use crate::record::Identity;

/// Everything wrong with one game as read: the reader's diagnostics, then (when the game
/// could be read) the replay's, leaving out every code in `allow` (compared ignoring ASCII
/// case).
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_check::validate::validate_game;
/// let games = Format::MoveString.read_bytes("f5d6a1\nf5d6\n", &ReadOptions::default()).unwrap();
/// let codes: Vec<&str> = validate_game(&games[0], &[] as &[&str]).iter().map(|d| d.code.name()).collect();
/// assert_eq!(codes, ["illegal-move"]);
/// assert!(validate_game(&games[1], &["unfinished"]).is_empty());
/// ```
///
/// Each diagnostic carries the game's [`Identity`] (who played it, the round and board)
/// when its tags give one.
pub fn validate_game<S: AsRef<str>>(game: &ParsedGame, allow: &[S]) -> Vec<Diagnostic> {
    validate_game_to_end(game, allow).0
}

/// [`validate_game`] without the suggestions (the edit search that says which swap or
/// misread square would make an illegal move legal, and other rules that would fit): the
/// same findings, codes and severities, for one replay of each game. What a list of many
/// games needs, leaving the full help for the game a user opens.
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_check::validate::{validate_game, validate_game_quick};
/// let games = Format::MoveString.read_bytes("f5 f6 e6 f4 e3 c5 g5 g4 g3 d6 e7 f3 e2 d7 c4 d3 f7 c6 c8 f2 b5 b6\n", &ReadOptions::default()).unwrap();
/// let full = validate_game(&games[0], &[] as &[&str]);
/// let quick = validate_game_quick(&games[0], &[] as &[&str]);
/// let codes = |ds: &[reversi_formats::diagnostic::Diagnostic]| ds.iter().map(|d| (d.code, d.severity)).collect::<Vec<_>>();
/// assert_eq!(codes(&full), codes(&quick));
/// ```
pub fn validate_game_quick<S: AsRef<str>>(game: &ParsedGame, allow: &[S]) -> Vec<Diagnostic> {
    validate_game_with(game, allow, false).0
}

/// [`validate_game`], and the outcome when the game was replayed to its end.
#[doc(hidden)]
pub fn validate_game_to_end<S: AsRef<str>>(
    game: &ParsedGame,
    allow: &[S],
) -> (Vec<Diagnostic>, Option<Outcome>) {
    validate_game_with(game, allow, true)
}

/// [`validate_game_to_end`], with or without the suggestions.
fn validate_game_with<S: AsRef<str>>(
    game: &ParsedGame,
    allow: &[S],
    suggest: bool,
) -> (Vec<Diagnostic>, Option<Outcome>) {
    let mut all = game.diagnostics.clone();
    let mut outcome = None;
    if let Some(record) = &game.record {
        let mut report = if suggest {
            validate_record(record, game.index)
        } else {
            super::validate_record_quick(record, game.index)
        };
        if suggest && report.errors() > 0 {
            if let Some(hint) = super::suggest::other_rules_help(record) {
                if let Some(first) = report.diagnostics.iter_mut().find(|d| d.is_error()) {
                    first.help = Some(match first.help.take() {
                        Some(help) => format!("{help}; {hint}"),
                        None => hint,
                    });
                }
            }
        }
        all.extend(report.diagnostics);
        outcome = report.outcome;
    }
    all.retain(|d| {
        !allow
            .iter()
            .any(|a| a.as_ref().eq_ignore_ascii_case(d.code.name()))
    });
    if !all.is_empty() {
        let identity = game
            .record
            .as_ref()
            .and_then(|r| Identity::of_tags(&r.tags));
        if let Some(identity) = identity.map(Arc::new) {
            for d in &mut all {
                d.identity = Some(identity.clone());
            }
        }
    }
    (all, outcome)
}

/// What a validation run found: the counts `reversi validate` ends with.
///
/// A game is valid when it could be read and has no error. An entry with index 0 reports
/// a problem of the file itself (a JSON envelope): its diagnostics are counted, but it is
/// no game.
///
/// ```
/// use reversi_formats::{Format, ReadOptions};
/// use reversi_check::validate::{validate_game, Summary};
/// let mut summary = Summary::default();
/// summary.add_file();
/// for game in Format::MoveString.read_bytes("f5d6a1\nf5d6\n", &ReadOptions::default()).unwrap() {
///     summary.add_game(&game, &validate_game(&game, &[] as &[&str]));
/// }
/// assert_eq!(summary.to_string(), "1 file, 2 games: 1 valid, 1 invalid; 1 error, 1 warning");
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Files read.
    pub files: usize,
    /// Games read.
    pub games: usize,
    /// Games read without an error.
    pub valid: usize,
    /// Games with an error, or that could not be read.
    pub invalid: usize,
    /// Errors reported.
    pub errors: usize,
    /// Warnings reported.
    pub warnings: usize,
    /// Of the errors and warnings, the findings across games (a game entered twice, a
    /// player twice in a round, ...): [`crate::event`].
    #[serde(skip_serializing_if = "is_zero")]
    pub across_games: usize,
    /// The errors and warnings by code (with `--allow`, what is left).
    #[serde(skip_serializing_if = "CodeCounts::is_empty")]
    pub codes: CodeCounts,
}

fn is_zero(n: &usize) -> bool {
    *n == 0
}

/// How many diagnostics of each code a run reported: shown after the findings
/// (`by code: illegal-move 2, unfinished 5`), in JSON an object from code to count, codes
/// in the order of [`CODES`](crate::codes::CODES).
///
/// ```
/// use reversi_formats::codes::Code;
/// use reversi_check::validate::CodeCounts;
/// let mut counts = CodeCounts::default();
/// counts.add(Code::Unfinished);
/// counts.add(Code::IllegalMove);
/// counts.add(Code::Unfinished);
/// assert_eq!(counts.to_string(), "illegal-move 1, unfinished 2");
/// assert_eq!(serde_json::to_string(&counts)?, r#"{"illegal-move":1,"unfinished":2}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CodeCounts(Option<Box<[u32; CODE_COUNT]>>);

impl CodeCounts {
    /// One more of `code`.
    pub fn add(&mut self, code: Code) {
        let counts = self.0.get_or_insert_with(|| Box::new([0; CODE_COUNT]));
        if let Some(n) = counts.get_mut(code.index()) {
            *n = n.saturating_add(1);
        }
    }

    /// Whether nothing was counted.
    pub fn is_empty(&self) -> bool {
        !self
            .0
            .as_ref()
            .is_some_and(|counts| counts.iter().any(|&n| n > 0))
    }

    /// The codes counted, with their counts, in the order of [`CODES`](crate::codes::CODES).
    pub fn iter(&self) -> impl Iterator<Item = (Code, u32)> + '_ {
        let counts = self.0.as_deref().map_or(&[][..], |c| &c[..]);
        CODES
            .iter()
            .zip(counts)
            .filter(|(_, n)| **n > 0)
            .map(|((code, _, _), n)| (*code, *n))
    }
}

impl fmt::Display for CodeCounts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (k, (code, n)) in self.iter().enumerate() {
            let comma = if k == 0 { "" } else { ", " };
            write!(f, "{comma}{} {n}", code.name())?;
        }
        Ok(())
    }
}

impl Serialize for CodeCounts {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(None)?;
        for (code, n) in self.iter() {
            map.serialize_entry(code.name(), &n)?;
        }
        map.end()
    }
}

impl Summary {
    /// Counts one more file.
    pub fn add_file(&mut self) {
        self.files += 1;
    }

    /// Counts `game` with its `diagnostics` (what [`validate_game`] gave).
    pub fn add_game(&mut self, game: &ParsedGame, diagnostics: &[Diagnostic]) {
        let errors = diagnostics.iter().filter(|d| d.is_error()).count();
        self.errors += errors;
        self.warnings += diagnostics
            .iter()
            .filter(|d| d.severity == Severity::Warning)
            .count();
        for d in diagnostics
            .iter()
            .filter(|d| d.severity != Severity::Advice)
        {
            self.codes.add(d.code);
        }
        if game.index == 0 && game.record.is_none() {
            return;
        }
        self.games += 1;
        if errors > 0 || game.record.is_none() {
            self.invalid += 1;
        } else {
            self.valid += 1;
        }
    }

    /// Counts `games` more games found valid with nothing to report (the quick check's).
    pub fn add_clean(&mut self, games: usize) {
        self.games += games;
        self.valid += games;
    }

    /// Counts a finding across games of `code` and `severity`.
    pub fn add_across_games(&mut self, code: Code, severity: Severity) {
        self.across_games += 1;
        match severity {
            Severity::Error => self.errors += 1,
            Severity::Warning => self.warnings += 1,
            Severity::Advice => return,
        }
        self.codes.add(code);
    }

    /// Whether nothing was found wrong: no error and no invalid game.
    pub fn is_clean(&self) -> bool {
        self.errors == 0 && self.invalid == 0
    }
}

impl Summary {
    /// The counts without the files: `5 games: 4 valid, 1 invalid; 1 error, 0 warnings`
    /// (the line `reversi validate` gives each of several inputs).
    ///
    /// ```
    /// use reversi_check::validate::Summary;
    /// let one = Summary { files: 1, games: 2, valid: 2, ..Summary::default() };
    /// assert_eq!(one.games_line().to_string(), "2 games: 2 valid, 0 invalid; 0 errors, 0 warnings");
    /// ```
    pub fn games_line(&self) -> impl fmt::Display + '_ {
        GamesLine(self)
    }
}

/// [`Summary::games_line`].
struct GamesLine<'a>(&'a Summary);

impl fmt::Display for GamesLine<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let s = self.0;
        write!(
            f,
            "{}: {} valid, {} invalid; {}, {}",
            count(s.games, "game", "games"),
            s.valid,
            s.invalid,
            count(s.errors, "error", "errors"),
            count(s.warnings, "warning", "warnings"),
        )?;
        if s.across_games > 0 {
            write!(f, " ({} across games)", s.across_games)?;
        }
        Ok(())
    }
}

/// `n` and the noun for it.
fn count(n: usize, one: &str, many: &str) -> String {
    format!("{n} {}", if n == 1 { one } else { many })
}

impl fmt::Display for Summary {
    /// `2 files, 5 games: 4 valid, 1 invalid; 1 error, 0 warnings`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}, {}",
            count(self.files, "file", "files"),
            self.games_line()
        )
    }
}
