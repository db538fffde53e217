//! The validation pipeline against the plain path (`Format::read` and `validate_game`, one
//! game at a time): the same diagnostics in the same order, with the same sources, and
//! the same summary, for every fixture, every real record in `data/`, and
//! thousands of damaged copies of real games. The damage is what the quick check must
//! never wave through: swapped, dropped, doubled and changed moves, changed scores, passes,
//! comments, tags and bytes.

mod common;

use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use common::Rng;
use reversi_check::validate::{validate_game, Summary};
use reversi_engine::SquareSet;
use reversi_formats::record::{FlipClaim, Record};
use reversi_formats::{Format, ReadOptions, WriteOptions};
use reversi_runs::pipeline::validation::{Event, Input, Validation};

/// One game's report, comparable: its index, where its source is, and its diagnostics as
/// JSON.
#[derive(Debug, PartialEq)]
struct Reported {
    index: usize,
    source: (String, usize, usize),
    diagnostics: Vec<String>,
}

impl Reported {
    fn of(
        game: &reversi_formats::ParsedGame,
        diagnostics: &[reversi_formats::diagnostic::Diagnostic],
    ) -> Reported {
        Reported {
            index: game.index,
            source: (
                game.source.text.to_string(),
                game.source.offset,
                game.source.line,
            ),
            diagnostics: diagnostics
                .iter()
                .map(|d| serde_json::to_string(d).unwrap())
                .collect(),
        }
    }
}

fn options(name: &str, path: Option<&Path>) -> ReadOptions {
    ReadOptions {
        name: Arc::from(name),
        path: path.map(Path::to_path_buf),
        ..ReadOptions::default()
    }
}

/// The plain path: every game read in full and validated. Games without diagnostics are
/// left out (the pipeline counts those it checks quickly without reporting them).
fn plain(format: Format, bytes: &[u8], options: &ReadOptions) -> (Vec<Reported>, Summary) {
    let mut summary = Summary::default();
    summary.add_file();
    let mut reported = Vec::new();
    for game in format.read(Box::new(Cursor::new(bytes.to_vec())), options) {
        let game = game.expect("in-memory reads do not fail");
        let diagnostics = validate_game(&game, &[] as &[&str]);
        summary.add_game(&game, &diagnostics);
        if !diagnostics.is_empty() {
            reported.push(Reported::of(&game, &diagnostics));
        }
    }
    (reported, summary)
}

/// The pipeline with `jobs` workers.
fn piped(
    format: Format,
    bytes: &[u8],
    options: &ReadOptions,
    jobs: usize,
) -> (Vec<Reported>, Summary) {
    let input = Input {
        format,
        reader: Box::new(Cursor::new(bytes.to_vec())),
        options: options.clone(),
    };
    let mut reported = Vec::new();
    let summary = Validation::new()
        .jobs(jobs)
        .run([((), Some(input))].into_iter(), |event| {
            match event {
                Event::Game(game, diagnostics) if !diagnostics.is_empty() => {
                    reported.push(Reported::of(game, diagnostics))
                }
                Event::ReadFailed(e) => panic!("in-memory reads do not fail: {e}"),
                _ => {}
            }
            Ok(())
        })
        .expect("the sink never fails");
    (reported, summary)
}

/// Asserts that the pipeline, with 1 and 3 jobs, reports exactly what the plain path does.
fn assert_same(format: Format, bytes: &[u8], options: &ReadOptions, what: &str) -> Summary {
    let expected = plain(format, bytes, options);
    for jobs in [1, 3] {
        let got = piped(format, bytes, options, jobs);
        assert_eq!(got.1, expected.1, "{what}: summary with {jobs} jobs");
        assert_eq!(
            got.0.len(),
            expected.0.len(),
            "{what}: games reported, {jobs} jobs"
        );
        for (g, e) in got.0.iter().zip(&expected.0) {
            assert_eq!(g, e, "{what}: game {} with {jobs} jobs", e.index);
        }
    }
    expected.1
}

#[test]
fn every_fixture_reports_the_same() {
    let fixtures = common::fixture_files();
    for f in &fixtures {
        assert_same(
            f.format,
            &f.bytes,
            &options(&f.name, Some(&f.path)),
            &f.name,
        );
    }
    assert!(
        fixtures.len() > 100,
        "only {} fixtures were checked",
        fixtures.len()
    );
}

#[test]
fn every_real_record_reports_the_same() {
    let mut games = 0;
    for f in common::real_record_files() {
        games += assert_same(
            f.format,
            &f.bytes,
            &options(&f.name, Some(&f.path)),
            &f.name,
        )
        .games;
    }
    // The 34,591 games of the 12 game files and the 79 positions of the 4 OBF files.
    assert_eq!(games, 34_670, "the games of the 16 real record files");
}

/// Real 8x8 WTHOR records, damaged one way or another.
#[test]
fn damaged_wthor_records_report_the_same() {
    let bytes = std::fs::read(common::data_path("wthor/WTH_2004.wtb")).unwrap();
    let records: Vec<&[u8]> = bytes[16..].chunks_exact(68).collect();
    let mut rng = Rng::new(0x5eed_0001);
    let mut damaged = bytes[..16].to_vec();
    let count = 3000;
    assert_eq!(records.len(), 9113);
    for k in 0..count {
        let mut record = records[rng.below(records.len())].to_vec();
        damage_wthor(&mut record, k, &mut rng);
        damaged.extend_from_slice(&record);
    }
    damaged[4..8].copy_from_slice(&(count as u32).to_le_bytes());
    let summary = assert_same(
        Format::Wthor,
        &damaged,
        &options("damaged.wtb", None),
        "damaged.wtb",
    );
    assert!(summary.invalid > count / 2, "the damage shows: {summary}");
    assert!(
        summary.valid > count / 20,
        "some records stay valid: {summary}"
    );
}

/// One kind of damage, chosen by `k`, to a 68-byte record.
fn damage_wthor(record: &mut [u8], k: usize, rng: &mut Rng) {
    let moves = record[8..].iter().position(|&b| b == 0).unwrap_or(60);
    let slot = |rng: &mut Rng| 8 + rng.below(moves.max(1));
    match k % 8 {
        0 => {} // untouched
        1 => {
            let (a, b) = (slot(rng), slot(rng));
            record.swap(a, b);
        }
        2 => record[6] = rng.below(66) as u8,
        3 => {
            // a move dropped: the rest move up
            let s = slot(rng);
            record.copy_within(s + 1..68, s);
            record[67] = 0;
        }
        4 => {
            // the game cut short
            let s = slot(rng);
            record[s..].fill(0);
        }
        5 => {
            let s = slot(rng);
            record[s] = 11 + 10 * rng.below(8) as u8 + rng.below(8) as u8;
        }
        6 => {
            // any byte at all
            let at = rng.below(68);
            record[at] = rng.next() as u8;
        }
        _ => {
            let s = slot(rng);
            if s + 1 < 68 {
                record[s + 1] = record[s];
            }
        }
    }
}

/// Real PGN games, damaged as text.
#[test]
fn damaged_text_games_report_the_same() {
    let text = std::fs::read_to_string(common::data_path("pgn/WTHOR-2004.r.pgn")).unwrap();
    let games: Vec<&str> = split_games(&text);
    assert_eq!(games.len(), 9113);
    let mut rng = Rng::new(0x5eed_0002);
    let mut damaged = String::new();
    let count = 2000;
    for k in 0..count {
        let game = games[rng.below(games.len())];
        damaged.push_str(&damage_text(game, k, &mut rng));
        damaged.push_str("\n\n");
    }
    let summary = assert_same(
        Format::Rgn,
        damaged.as_bytes(),
        &options("damaged.pgn", None),
        "damaged.pgn",
    );
    assert!(summary.invalid > count / 4, "the damage shows: {summary}");
    assert!(
        summary.valid > count / 10,
        "some games stay valid: {summary}"
    );
}

/// The games of a PGN/RGN text: each starts at a `[Event` line.
fn split_games(text: &str) -> Vec<&str> {
    let starts: Vec<usize> = text
        .match_indices("[Event ")
        .map(|(i, _)| i)
        .filter(|&i| i == 0 || text.as_bytes()[i - 1] == b'\n')
        .collect();
    starts
        .iter()
        .zip(starts.iter().skip(1).chain([&text.len()]))
        .map(|(&a, &b)| text[a..b].trim_end())
        .collect()
}

/// One kind of damage, chosen by `k`, to a game's text.
fn damage_text(game: &str, k: usize, rng: &mut Rng) -> String {
    let mut words: Vec<String> = game.split(' ').map(str::to_owned).collect();
    let n = words.len();
    let mut at = || rng.below(n);
    match k % 12 {
        0 => {}
        1 => {
            let (a, b) = (at(), at());
            words.swap(a, b);
        }
        2 => {
            let a = at();
            words.remove(a);
        }
        3 => {
            let a = at();
            let w = words[a].clone();
            words.insert(a, w);
        }
        4 => {
            let a = at();
            words.insert(a, "--".into());
        }
        5 => {
            let a = at();
            words.insert(a, "{a comment}".into());
        }
        6 => {
            let a = at();
            words.insert(a, "{[%eval 1.5]}".into());
        }
        7 => {
            let a = at();
            words[a] = words[a].to_uppercase();
        }
        8 => return game.replacen("[Result \"", "[Result \"1", 1),
        9 => return game.replacen("[Result \"", "[Result \"1-0\"]\n[X \"", 1),
        10 => {
            let a = at();
            words[a].push_str("(2)");
        }
        _ => {
            let a = at();
            let mut bytes = std::mem::take(&mut words[a]).into_bytes();
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                let pool = b"abcdefghij0123456789-.*[]{}\"\\<>; \n";
                bytes[i] = pool[rng.below(pool.len())];
            }
            words[a] = String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    words.join(" ")
}

/// Games of every kind of rules as RGN: plain ones (moves and the right result, passes
/// written or not) that the quick check takes, dressed ones (claims, comments, starts)
/// that it must leave to the full path, and damaged copies of both.
#[test]
fn games_of_every_rules_report_the_same() {
    use reversi_engine::Rules;
    use reversi_formats::WriteOptions;
    let rules_list = [
        "othello",
        "othello:6x6",
        "othello:10x10",
        "othello:octagon",
        "anti",
        "free",
        "classic",
        "multi3",
        "multi4:10x10",
        "othello,blocked=a3+h6",
        "othello:10x10,handicap=black:2",
        "othello,scoring=raw",
        "anti:6x6,scoring=raw",
    ];
    let mut rng = Rng::new(0x5eed_0003);
    let mut text = String::new();
    let mut count = 0;
    for (r, name) in rules_list.iter().enumerate() {
        let rules: Rules = name.parse().unwrap();
        for k in 0..60u64 {
            let seed = (r as u64) << 32 | k;
            let record = if k % 3 == 0 {
                common::random_record(rules, seed, k % 2 == 0)
            } else {
                played_game(rules, &mut rng, k % 2 == 0, |_, _| None)
            };
            let Ok((bytes, _)) = Format::Rgn.write_bytes(&[record], &WriteOptions::default())
            else {
                continue;
            };
            let game = String::from_utf8(bytes).unwrap();
            text.push_str(&damage_text(
                &game,
                (k as usize) % 24 / 2 * usize::from(k % 2 == 1),
                &mut rng,
            ));
            text.push('\n');
            count += 1;
        }
    }
    let summary = assert_same(
        Format::Rgn,
        text.as_bytes(),
        &options("rules.rgn", None),
        "rules.rgn",
    );
    // Damage can split a game in two (a newline before a tag).
    assert!(summary.games >= count, "{summary}");
    assert!(summary.valid > count / 3, "{summary}");
    assert!(summary.invalid > count / 10, "{summary}");
}

/// Games of every kind of rules as RGN with flip claims on their moves (squares, counts,
/// both, `(?)`, `()`), which the quick check compares with what each move flips: right
/// ones, wrong ones (a square missing or extra, one off the board, a wrong count, nothing
/// claimed for a move that flips) and right ones written unusually (capitals, any order,
/// a square twice, a count with leading zeros).
#[test]
fn flip_claims_report_the_same() {
    use reversi_engine::{Rules, Square};
    let rules_list = [
        "othello",
        "othello:6x6",
        "othello:10x10",
        "othello:octagon",
        "anti:10x10",
        "free",
        "classic",
        "multi3",
        "othello,blocked=a3+h6",
        "othello:10x10,handicap=black:2",
    ];
    let mut rng = Rng::new(0x5eed_0f11);
    let mut text = String::new();
    let mut count = 0;
    for name in rules_list {
        let rules: Rules = name.parse().unwrap();
        for k in 0..40usize {
            let mut record = played_game(rules, &mut rng, k % 2 == 0, |flipped, rng| {
                let (squares, count) = match rng.below(5) {
                    0 => (Some(flipped), Some(flipped.len() as u8)),
                    1 | 2 => (Some(flipped), None),
                    3 => (None, Some(flipped.len() as u8)),
                    _ => (None, None),
                };
                Some(FlipClaim {
                    squares,
                    count,
                    span: None,
                })
            });
            // One claim made wrong, in every other game.
            let claimed: Vec<usize> = (0..record.moves.len())
                .filter(|&i| record.moves[i].flips.is_some())
                .collect();
            if k % 2 == 1 && !claimed.is_empty() {
                let claim = record.moves[claimed[rng.below(claimed.len())]]
                    .flips
                    .as_mut()
                    .unwrap();
                let squares = claim.squares.unwrap_or_default();
                let any = Square::new(rng.below(10) as u8, rng.below(10) as u8).unwrap();
                match k / 2 % 5 {
                    0 => claim.squares = Some(SquareSet(squares.0 & squares.0.wrapping_sub(1))),
                    1 => claim.squares = Some(SquareSet(squares.0 | SquareSet::single(any).0)),
                    2 => claim.count = Some(claim.count.unwrap_or(3).wrapping_add(1)),
                    3 => claim.squares = Some(SquareSet::EMPTY),
                    _ => {
                        claim.squares = Some(squares);
                        claim.count = Some(squares.len() as u8 + 1);
                    }
                }
            }
            let Ok((bytes, _)) = Format::Rgn.write_bytes(&[record], &WriteOptions::default())
            else {
                continue;
            };
            let mut game = String::from_utf8(bytes).unwrap();
            if k % 4 == 2 {
                // Right claims written unusually: capitals, squares backwards and one
                // twice, counts with a leading zero.
                let (head, moves) = game.split_at(game.find("\n\n").unwrap_or(0));
                let moves = moves
                    .split(' ')
                    .map(|w| match (w.find('('), w.find(')')) {
                        (Some(open), Some(close)) if open < close && &w[open..=close] != "(?)" => {
                            let inside = &w[open + 1..close];
                            let (count, squares) = match inside.split_once(':') {
                                Some((n, s)) => (Some(n), s),
                                None if inside.starts_with(|c: char| c.is_ascii_digit()) => {
                                    (Some(inside), "")
                                }
                                None => (None, inside),
                            };
                            let mut list: Vec<String> = squares
                                .split(',')
                                .filter(|s| !s.is_empty())
                                .map(str::to_ascii_uppercase)
                                .collect();
                            list.reverse();
                            if let Some(first) = list.first().cloned() {
                                list.push(first);
                            }
                            let inside = match count {
                                Some(n) if list.is_empty() => format!("0{n}"),
                                Some(n) => format!("0{n}:{}", list.join(",")),
                                None => list.join(","),
                            };
                            format!("{}({inside}){}", &w[..open], &w[close + 1..])
                        }
                        _ => w.to_owned(),
                    })
                    .collect::<Vec<_>>()
                    .join(" ");
                game = format!("{head}{moves}");
            }
            text.push_str(&game);
            text.push('\n');
            count += 1;
        }
    }
    assert_mixed_rgn_reports_the_same(&text, "flips.rgn", count, 5);
}

/// [`assert_same`] for the `count` RGN games of `text`, more than a third of them valid
/// and more than one in `invalid_one_in` invalid.
fn assert_mixed_rgn_reports_the_same(text: &str, name: &str, count: usize, invalid_one_in: usize) {
    let summary = assert_same(Format::Rgn, text.as_bytes(), &options(name, None), name);
    assert_eq!(summary.games, count, "{summary}");
    assert!(summary.valid > count / 3, "{summary}");
    assert!(summary.invalid > count / invalid_one_in, "{summary}");
}

#[test]
fn colour_prefixes_report_the_same() {
    use reversi_engine::{Color, Move, Position, Rules};
    let rules_list = [
        "othello",
        "othello:6x6",
        "othello:10x10",
        "anti",
        "free",
        "classic",
        "multi3",
    ];
    let mut rng = Rng::new(0xc0_10a5);
    let mut text = String::new();
    let mut count = 0;
    for name in rules_list {
        let rules: Rules = name.parse().unwrap();
        for k in 0..36usize {
            let explicit = k % 3 != 0;
            let mut record = played_game(rules, &mut rng, explicit, |_, _| None);
            // Every move claims its mover (or every other one), as replayed; in some
            // games, the moves after a pass the record leaves out claim the other colour
            // (as if there were no pass), which is wrong.
            let mut pos = Position::new(rules);
            let mut after_pass = false;
            for (i, m) in record.moves.iter_mut().enumerate() {
                if m.mv != Move::Pass && pos.must_pass() {
                    pos.play(Move::Pass).unwrap();
                    after_pass = true;
                }
                let other = |c: Color| match c {
                    Color::Black => Color::White,
                    _ => Color::Black,
                };
                if k % 4 != 1 || i % 2 == 0 {
                    m.color = Some(pos.turn());
                    if after_pass && k % 6 == 3 {
                        m.color = m.color.map(other);
                    }
                }
                pos.play(m.mv).unwrap();
            }
            // Damaged in every third game: a colour changed, a pass dropped.
            let n = record.moves.len();
            match k % 6 {
                2 if n > 0 => {
                    let m = &mut record.moves[rng.below(n)];
                    m.color = Some(match m.color {
                        Some(Color::Black) => Color::White,
                        _ => Color::Black,
                    });
                }
                5 => {
                    if let Some(i) = record.moves.iter().position(|m| m.mv == Move::Pass) {
                        record.moves.remove(i);
                    }
                }
                _ => {}
            }
            let Ok((bytes, _)) = Format::Rgn.write_bytes(&[record], &WriteOptions::default())
            else {
                continue;
            };
            let mut game = String::from_utf8(bytes).unwrap();
            if k % 8 == 3 {
                // Prefixes in lower case, and glued to the move numbers.
                game = game.replace("B:", "b:").replace(". W:", ".w:");
            }
            text.push_str(&game);
            text.push('\n');
            count += 1;
        }
    }
    assert_mixed_rgn_reports_the_same(&text, "colours.rgn", count, 10);
}

/// A random game of `rules` played to its end (at most 200 moves), with the result its
/// final board gives, passes written when `explicit`; `claim` gives each placement's flip
/// claim from the discs it flipped.
fn played_game(
    rules: reversi_engine::Rules,
    rng: &mut Rng,
    explicit: bool,
    mut claim: impl FnMut(SquareSet, &mut Rng) -> Option<FlipClaim>,
) -> Record {
    use reversi_engine::{Move, Position};
    use reversi_formats::record::{ClaimedResult, MoveRecord};
    let mut record = Record::new(rules);
    let mut pos = Position::new(rules);
    while !pos.is_over() && record.moves.len() < 200 {
        let legal: Vec<_> = pos.legal_moves().iter().collect();
        let mv = match legal.len() {
            0 => Move::Pass,
            n => Move::Place(legal[rng.below(n)]),
        };
        let flipped = pos.play_with_flips(mv).unwrap();
        if mv == Move::Pass && !explicit {
            continue;
        }
        let mut m = MoveRecord::new(mv);
        if mv != Move::Pass {
            m.flips = claim(flipped, rng);
        }
        record.moves.push(m);
    }
    if let Some(outcome) = pos.outcome() {
        let players = rules.players() as usize;
        record.result = Some(ClaimedResult::discs(outcome.score[..players].to_vec()));
    }
    record
}

/// A reader that gives `bytes`, then fails.
struct FailingAfter(Cursor<Vec<u8>>);

impl std::io::Read for FailingAfter {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        match self.0.read(buf)? {
            0 => Err(std::io::Error::other("the disk went away")),
            n => Ok(n),
        }
    }
}

/// What a run reported, event by event, as text.
fn events(inputs: Vec<(&'static str, Option<Input>)>, jobs: usize) -> (Vec<String>, Summary) {
    let mut seen = Vec::new();
    let summary = Validation::new()
        .jobs(jobs)
        .run(inputs.into_iter(), |event| {
            seen.push(match event {
                Event::Start(name) => format!("start {name}"),
                Event::Game(game, found) => format!("game {} ({} found)", game.index, found.len()),
                Event::Clean(n) => format!("clean {n}"),
                Event::Facts(block) => format!("facts {}", block.len()),
                Event::ReadFailed(e) => format!("failed: {e}"),
                Event::Ended(counts) => format!("ended: {}", counts.games_line()),
            });
            Ok(())
        })
        .unwrap();
    (seen, summary)
}

#[test]
fn several_inputs_are_reported_in_order_with_their_failures() {
    let text = |s: &str| {
        Some(Input {
            format: Format::MoveString,
            reader: Box::new(Cursor::new(s.as_bytes().to_vec())),
            options: ReadOptions::default(),
        })
    };
    let failing = Input {
        format: Format::MoveString,
        reader: Box::new(std::io::BufReader::new(FailingAfter(Cursor::new(
            b"f5d6a1\n".to_vec(),
        )))),
        options: ReadOptions::default(),
    };
    for jobs in [1, 2, 5] {
        let inputs = vec![
            ("a", text("f5d6c3\nf5d6a1\n")),
            ("missing", None),
            ("b", Some(failing_clone(&failing))),
            ("c", text("f5d6\n")),
        ];
        let (seen, summary) = events(inputs, jobs);
        assert_eq!(
            seen,
            [
                "start a",
                "game 1 (1 found)",
                "game 2 (1 found)",
                "ended: 2 games: 1 valid, 1 invalid; 1 error, 1 warning",
                "start missing",
                "start b",
                "game 1 (1 found)",
                "failed: the disk went away",
                "ended: 1 game: 0 valid, 1 invalid; 1 error, 0 warnings",
                "start c",
                "game 1 (1 found)",
                "ended: 1 game: 1 valid, 0 invalid; 0 errors, 1 warning",
            ],
            "{jobs} jobs"
        );
        assert_eq!(
            summary.to_string(),
            "3 files, 4 games: 2 valid, 2 invalid; 2 errors, 2 warnings"
        );
    }
}

/// A fresh copy of the failing input (inputs are consumed by a run).
fn failing_clone(_: &Input) -> Input {
    Input {
        format: Format::MoveString,
        reader: Box::new(std::io::BufReader::new(FailingAfter(Cursor::new(
            b"f5d6a1\n".to_vec(),
        )))),
        options: ReadOptions::default(),
    }
}

#[test]
fn a_failing_sink_stops_the_run() {
    let many = "f5d6\n".repeat(50_000);
    for jobs in [1, 3] {
        let input = Input {
            format: Format::MoveString,
            reader: Box::new(Cursor::new(many.clone().into_bytes())),
            options: ReadOptions::default(),
        };
        let mut calls = 0;
        let outcome = Validation::new()
            .jobs(jobs)
            .run([((), Some(input))].into_iter(), |_| {
                calls += 1;
                if calls == 10 {
                    Err(std::io::Error::new(
                        std::io::ErrorKind::BrokenPipe,
                        "closed",
                    ))
                } else {
                    Ok(())
                }
            });
        let stopped = outcome.unwrap_err();
        assert_eq!(stopped.error.kind(), std::io::ErrorKind::BrokenPipe);
        // The counts come back with the error: at least the 9 games reported before it.
        assert!(stopped.counts.games >= 9, "{}", stopped.counts);
        assert_eq!(
            calls, 10,
            "{jobs} jobs: nothing is reported after the error"
        );
    }
}

#[test]
fn clean_games_of_a_big_file_are_counted_in_blocks() {
    use reversi_engine::{Move, Position, Rules};
    use reversi_formats::record::{ClaimedResult, MoveRecord, Record};
    use reversi_formats::WriteOptions;
    // A finished game with its result: played to the end, passes left out.
    let mut rng = Rng::new(7);
    let mut pos = Position::new(Rules::default());
    let mut record = Record::default();
    while !pos.is_over() {
        let legal: Vec<_> = pos.legal_moves().iter().collect();
        let mv = match legal.len() {
            0 => Move::Pass,
            n => Move::Place(legal[rng.below(n)]),
        };
        pos.play(mv).unwrap();
        if mv != Move::Pass {
            record.moves.push(MoveRecord::new(mv));
        }
    }
    let outcome = pos.outcome().expect("played to the end");
    record.result = Some(ClaimedResult::discs(outcome.score[..2].to_vec()));
    let (game, _) = Format::Rgn
        .write_bytes(&[record], &WriteOptions::default())
        .unwrap();
    let text = [game.as_slice(), b"\n"].concat().repeat(3000);
    for jobs in [1, 2] {
        let input = Input {
            format: Format::Rgn,
            reader: Box::new(Cursor::new(text.clone())),
            options: ReadOptions::default(),
        };
        let (seen, summary) = events(vec![("big", Some(input))], jobs);
        assert_eq!((summary.games, summary.valid), (3000, 3000));
        assert_eq!(seen[0], "start big");
        assert_eq!(
            seen.last().map(String::as_str),
            Some("ended: 3000 games: 3000 valid, 0 invalid; 0 errors, 0 warnings")
        );
        let counted: usize = seen[1..seen.len() - 1]
            .iter()
            .map(|e| {
                e.strip_prefix("clean ")
                    .expect("only clean blocks")
                    .parse::<usize>()
                    .unwrap()
            })
            .sum();
        assert_eq!(counted, 3000);
        assert!(seen.len() > 2, "several blocks: {seen:?}");
    }
}

/// Real games written as GGF (a GGS archive's layout, one game a line) and as move
/// strings, then damaged: the quick scans of both formats must wave through nothing the
/// full path reports, and must not lose what it reports.
#[test]
fn damaged_ggf_and_move_string_games_report_the_same() {
    let records = converted_records(1500);
    let ggf = written(Format::Ggf, None, &records);
    let lines: Vec<&str> = ggf.lines().filter(|l| l.contains("(;")).collect();
    assert_damaged_the_same(
        Format::Ggf,
        "damaged.ggf",
        &lines,
        "",
        0x5eed_0003,
        damage_ggf,
    );
    let moves = written(Format::MoveString, None, &records);
    let lines: Vec<&str> = moves.lines().collect();
    assert_damaged_the_same(
        Format::MoveString,
        "damaged.txt",
        &lines,
        "",
        0x5eed_0006,
        damage_move_string,
    );
}

/// `records` written lossily as `target`.
fn written(
    target: Format,
    dialect: Option<&str>,
    records: &[reversi_formats::record::Record],
) -> String {
    let options = WriteOptions {
        lossy: true,
        dialect: dialect.map(str::to_owned),
        ..WriteOptions::default()
    };
    let (bytes, _) = target.write_bytes(records, &options).unwrap();
    String::from_utf8(bytes).unwrap()
}

/// Asserts that `games` of `format`, each damaged by `damage` and written on lines of its
/// own after `prefix`, report the same on the pipeline as on the plain path, that the
/// damage shows and that some games stay valid.
fn assert_damaged_the_same(
    format: Format,
    name: &str,
    games: &[&str],
    prefix: &str,
    seed: u64,
    damage: fn(&str, usize, &mut Rng) -> String,
) {
    let mut rng = Rng::new(seed);
    let mut damaged = String::new();
    for (k, game) in games.iter().enumerate() {
        damaged.push_str(prefix);
        damaged.push_str(&damage(game, k, &mut rng));
        damaged.push('\n');
    }
    let summary = assert_same(format, damaged.as_bytes(), &options(name, None), name);
    let count = games.len();
    assert!(
        summary.invalid > count / 4,
        "{name}: the damage shows: {summary}"
    );
    assert!(
        summary.valid > count / 10,
        "{name}: some stay valid: {summary}"
    );
}

/// The first `count` real games of WTHOR 2004 (9,113 games), as records.
fn converted_records(count: usize) -> Vec<reversi_formats::record::Record> {
    let bytes = std::fs::read(common::data_path("wthor/WTH_2004.wtb")).unwrap();
    let records: Vec<_> = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap()
        .into_iter()
        .filter_map(|game| game.record)
        .take(count)
        .collect();
    assert_eq!(records.len(), count, "WTHOR 2004 has {count} games to take");
    records
}

/// The values of a GGF line's moves, as `(start, end)` byte ranges of `B[..]`/`W[..]`.
fn ggf_moves(line: &str) -> Vec<(usize, usize)> {
    let b = line.as_bytes();
    (1..b.len())
        .filter(|&i| {
            b[i] == b'[' && matches!(b[i - 1], b'B' | b'W') && !b[i - 2].is_ascii_uppercase()
        })
        .filter_map(|i| Some((i - 1, i + 1 + line[i + 1..].find(']')? + 1)))
        .collect()
}

/// One kind of damage, chosen by `k`, to a GGF game's line.
fn damage_ggf(line: &str, k: usize, rng: &mut Rng) -> String {
    let moves = ggf_moves(line);
    let n = moves.len().max(1);
    let mut pick = || moves.get(rng.below(n)).copied();
    let game_at = line.find("(;").unwrap_or(0) + 2;
    match k % 16 {
        0 | 1 => line.to_owned(),
        // Two moves' values swapped.
        2 => match (pick(), pick()) {
            (Some(a), Some(b)) if a.0 < b.0 => {
                let (va, vb) = (&line[a.0 + 2..a.1 - 1], &line[b.0 + 2..b.1 - 1]);
                let (head, middle, tail) =
                    (&line[..a.0 + 2], &line[a.1 - 1..b.0 + 2], &line[b.1 - 1..]);
                format!("{head}{vb}{middle}{va}{tail}")
            }
            _ => line.to_owned(),
        },
        // A move dropped (a pass among them, sometimes).
        3 => match pick() {
            Some((a, b)) => format!("{}{}", &line[..a], &line[b..]),
            None => line.to_owned(),
        },
        // A colour changed.
        4 => match pick() {
            Some((a, _)) => {
                let other = if &line[a..a + 1] == "B" { "W" } else { "B" };
                format!("{}{other}{}", &line[..a], &line[a + 1..])
            }
            None => line.to_owned(),
        },
        // The result changed, flagged, or unfinished.
        5 => line.replacen("RE[", "RE[1", 1),
        6 => line
            .replacen("RE[", "RE[?", 1)
            .replacen("RE[?", "RE[+2:r]", 1),
        // A komi, whole or not.
        7 => format!(
            "{}KM[{}]{}",
            &line[..game_at],
            ["0.5", "2", "0"][k % 3],
            &line[game_at..]
        ),
        // Other game types.
        8 => line.replacen("TY[8]", ["TY[8a]", "TY[8 s]", "TY[10]", "TY[8r]"][k % 4], 1),
        // A property repeated, or an unknown one.
        9 => format!("{}PB[x]XY[z]{}", &line[..game_at], &line[game_at..]),
        // A comment, an eval that is not a number, a pass written as a word.
        10 => format!("{}CO[fine]{}", &line[..game_at], &line[game_at..]),
        11 => match pick() {
            Some((_, b)) => format!("{}/x{}", &line[..b - 1], &line[b - 1..]),
            None => line.to_owned(),
        },
        // A count prefix that does not match, garbage before the game.
        12 => format!("2 {line}"),
        13 => format!("junk {line}"),
        // A start position other than the usual one, or the game left open.
        14 => line.replacen("O*--- ---*O", "*O--- ---O*", 1),
        _ => {
            let mut bytes = line.as_bytes().to_vec();
            let i = rng.below(bytes.len());
            let pool = b"abcdefghij0123456789-.*[]();/ ";
            bytes[i] = pool[rng.below(pool.len())];
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

/// One kind of damage, chosen by `k`, to a move string.
fn damage_move_string(line: &str, k: usize, rng: &mut Rng) -> String {
    let mut moves: Vec<String> = line
        .as_bytes()
        .chunks(2)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect();
    let n = moves.len().max(1);
    let mut at = || rng.below(n).min(moves.len().saturating_sub(1));
    match k % 10 {
        0 | 1 => {}
        2 => {
            let (a, b) = (at(), at());
            moves.swap(a, b);
        }
        3 => {
            let a = at();
            moves.remove(a);
        }
        4 => {
            let a = at();
            moves.insert(a, ["--", "pass", "PA", "@@"][k % 4].into());
        }
        5 => return moves.join([" ", ", ", "\t"][k % 3]).to_uppercase(),
        6 => {
            let a = at();
            moves[a] = "k9".into();
        }
        7 => {
            let a = at();
            moves[a].push(';');
        }
        8 => return format!("{line}{}", ["", "a1", "--", " x"][k % 4]),
        _ => {
            let a = at();
            let mut bytes = std::mem::take(&mut moves[a]).into_bytes();
            if !bytes.is_empty() {
                let i = rng.below(bytes.len());
                let pool = b"abcdefghijk0123456789-@,; \t#";
                bytes[i] = pool[rng.below(pool.len())];
            }
            moves[a] = String::from_utf8_lossy(&bytes).into_owned();
        }
    }
    moves.concat()
}

/// Real games written as SGF, then damaged: what the quick scan of SGF takes, the full
/// path finds nothing in.
#[test]
fn damaged_sgf_trees_report_the_same() {
    let sgf = written(Format::Sgf, None, &converted_records(1500));
    let trees: Vec<&str> = sgf
        .split("\n(;")
        .map(|tree| tree.strip_prefix("(;").unwrap_or(tree))
        .collect();
    assert_damaged_the_same(
        Format::Sgf,
        "damaged.sgf",
        &trees,
        "(;",
        0x5eed_0004,
        damage_sgf,
    );
}

/// One kind of damage, chosen by `k`, to an SGF tree (without its opening `(;`).
fn damage_sgf(tree: &str, k: usize, rng: &mut Rng) -> String {
    let moves: Vec<(usize, usize)> = tree
        .match_indices(";B[")
        .chain(tree.match_indices(";W["))
        .filter_map(|(i, _)| Some((i + 1, i + 3 + tree[i + 3..].find(']')? + 1)))
        .collect();
    let n = moves.len().max(1);
    let mut pick = || moves.get(rng.below(n)).copied();
    match k % 18 {
        0..=2 => tree.to_owned(),
        3 => match (pick(), pick()) {
            (Some(a), Some(b)) if a.0 < b.0 => {
                let (va, vb) = (&tree[a.0 + 2..a.1 - 1], &tree[b.0 + 2..b.1 - 1]);
                let (head, middle, tail) =
                    (&tree[..a.0 + 2], &tree[a.1 - 1..b.0 + 2], &tree[b.1 - 1..]);
                format!("{head}{vb}{middle}{va}{tail}")
            }
            _ => tree.to_owned(),
        },
        4 => match pick() {
            Some((a, b)) => format!("{}{}", &tree[..a - 1], &tree[b..]),
            None => tree.to_owned(),
        },
        5 => match pick() {
            Some((a, _)) => {
                let other = if &tree[a..a + 1] == "B" { "W" } else { "B" };
                format!("{}{other}{}", &tree[..a], &tree[a + 1..])
            }
            None => tree.to_owned(),
        },
        6 => tree.replacen("RE[", ["RE[1", "RE[B+R", "RE[Draw", "RE[0"][k % 4], 1),
        7 => tree.replacen(
            "GM[2]",
            ["", "GM[2]GM[2]", "GM[1]", "GM[2]KOMI[0.5]"][k % 4],
            1,
        ),
        8 => tree.replacen("CA[UTF-8]", ["CA[latin1]", "CA[klingon]", ""][k % 3], 1),
        9 => tree.replacen("PL[B]", ["PL[W]", "PL[x]", "", "PL[1]"][k % 4], 1),
        10 => tree.replacen(
            "AB[e4]",
            ["AB[e4][f5]", "AB[e4", "AB[z9]", "AE[e4]"][k % 4],
            1,
        ),
        11 => match pick() {
            Some((_, b)) => format!(
                "{}{}{}",
                &tree[..b],
                ["N[x]", "C[fine]", "C[a\\]b]", "(;W[a1])"][k % 4],
                &tree[b..]
            ),
            None => tree.to_owned(),
        },
        12 => tree.replacen("PB[", ["Pb[", "PB[x\\]", "PB[a][b", "PB[é"][k % 4], 1),
        13 => tree.replacen("SZ[8]", ["SZ[10]", "SZ[8:8]", "SZ[19]"][k % 3], 1),
        14 => format!("junk {tree}"),
        15 => match pick() {
            Some((a, b)) => format!(
                "{}{}{}",
                &tree[..a + 2],
                ["PA", "tt", "", "fe", "F5"][k % 5],
                &tree[b - 1..]
            ),
            None => tree.to_owned(),
        },
        16 => format!("{})", tree.trim_end()),
        _ => {
            let mut bytes = tree.as_bytes().to_vec();
            let i = rng.below(bytes.len());
            let pool = b"abcdefghij0123456789-+.*[]();\\ BW";
            bytes[i] = pool[rng.below(pool.len())];
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

/// Real games written as JSON Lines, then damaged: what the quick scan of JSON takes, the
/// full path (serde) finds nothing in.
#[test]
fn damaged_json_games_report_the_same() {
    let json = written(Format::Json, Some("lines"), &converted_records(1500));
    let lines: Vec<&str> = json.lines().collect();
    assert_damaged_the_same(
        Format::Json,
        "damaged.jsonl",
        &lines,
        "",
        0x5eed_0005,
        damage_json,
    );
}

/// One kind of damage, chosen by `k`, to a game object on one line.
fn damage_json(line: &str, k: usize, rng: &mut Rng) -> String {
    let moves: Vec<usize> = line
        .match_indices("{\"move\":\"")
        .map(|(i, _)| i + 9)
        .collect();
    let n = moves.len().max(1);
    let mut pick = || moves.get(rng.below(n)).copied();
    let value = |at: usize| &line[at..at + line[at..].find('"').unwrap_or(0)];
    match k % 16 {
        0..=2 => line.to_owned(),
        3 => match (pick(), pick()) {
            (Some(a), Some(b)) if a < b => {
                let (va, vb) = (value(a), value(b));
                format!(
                    "{}{vb}{}{va}{}",
                    &line[..a],
                    &line[a + va.len()..b],
                    &line[b + vb.len()..]
                )
            }
            _ => line.to_owned(),
        },
        4 => match pick() {
            Some(a) => format!("{}{}", &line[..a - 10], &line[a + value(a).len() + 3..]),
            None => line.to_owned(),
        },
        5 => line.replacen("\"discs\":[", "\"discs\":[1", 1),
        6 => line.replacen(
            "\"discs\":[",
            ["\"discs\":[0", "\"discs\":[ ", "\"discs\":[1,"][k % 3],
            1,
        ),
        7 => match pick() {
            Some(a) => {
                let end = a + value(a).len() + 1;
                let extra = [
                    ",\"color\":\"black\"",
                    ",\"eval\":1",
                    ",\"move\":\"a1\"",
                    "",
                ][k % 4];
                format!("{}{extra}{}", &line[..end], &line[end..])
            }
            None => line.to_owned(),
        },
        8 => line.replacen(
            "\"rules\":\"othello\"",
            [
                "\"rules\":\"anti\"",
                "\"rules\":\"x\"",
                "\"rules\":\"othello\",\"rules\":\"othello\"",
            ][k % 3],
            1,
        ),
        9 => line.replacen(
            "\"value\":\"",
            [
                "\"value\":\"a\\\"",
                "\"value\":\"\\u00e9",
                "\"value\":\"\u{85}",
            ][k % 3],
            1,
        ),
        10 => line.replacen(
            "\"move\":\"pass\"",
            ["\"move\":\"PASS\"", "\"move\":\"--\"", "\"move\":\"Pass\""][k % 3],
            1,
        ),
        11 => line.replacen("\"result\":{", "\"result\":{\"termination\":\"time\",", 1),
        12 => format!("{line} x"),
        13 => line.replacen("\"tags\":[", "\"comment\":\"fine\",\"tags\":[", 1),
        14 => match pick() {
            Some(a) => format!(
                "{}{}{}",
                &line[..a],
                ["F5", "k9", "a0", ""][k % 4],
                &line[a + value(a).len()..]
            ),
            None => line.to_owned(),
        },
        _ => {
            let mut bytes = line.as_bytes().to_vec();
            let i = rng.below(bytes.len());
            let pool = b"abcdefgh0123456789-{}[]:,\" \\";
            bytes[i] = pool[rng.below(pool.len())];
            String::from_utf8_lossy(&bytes).into_owned()
        }
    }
}

#[test]
fn damaged_transcript_grids_report_the_same() {
    let grids = written(Format::Transcript, None, &converted_records(1500));
    let grids: Vec<&str> = grids.split("\n\n").filter(|g| !g.is_empty()).collect();
    assert_damaged_the_same(
        Format::Transcript,
        "damaged.txt",
        &grids,
        "",
        0x5eed_0007,
        damage_grid,
    );
}

/// One kind of damage, chosen by `k`, to a transcript grid (its header lines, its line of
/// column letters and its rows), given back ending with a line terminator.
fn damage_grid(grid: &str, k: usize, rng: &mut Rng) -> String {
    let mut lines: Vec<String> = grid.lines().map(str::to_owned).collect();
    // The rows: lines that start with their row number.
    let rows: Vec<usize> = (0..lines.len())
        .filter(|&i| lines[i].starts_with(|c: char| c.is_ascii_digit()))
        .collect();
    let numbers: Vec<(usize, usize)> = rows
        .iter()
        .flat_map(|&r| {
            let cells = lines[r].split(' ').filter(|t| !t.is_empty()).count();
            (1..cells).map(move |c| (r, c))
        })
        .filter(|&(r, c)| {
            let cell = lines[r].split(' ').filter(|t| !t.is_empty()).nth(c);
            cell.is_some_and(|t| t.bytes().all(|b| b.is_ascii_digit()))
        })
        .collect();
    let cell = |lines: &[String], (r, c): (usize, usize)| -> String {
        lines[r]
            .split(' ')
            .filter(|t| !t.is_empty())
            .nth(c)
            .unwrap_or("")
            .to_owned()
    };
    let set = |lines: &mut [String], (r, c): (usize, usize), to: &str| {
        let mut cells: Vec<String> = lines[r]
            .split(' ')
            .filter(|t| !t.is_empty())
            .map(str::to_owned)
            .collect();
        if let Some(cell) = cells.get_mut(c) {
            *cell = to.to_owned();
        }
        lines[r] = cells.join("  ");
    };
    let n = numbers.len().max(1);
    let mut pick = || numbers.get(rng.below(n)).copied();
    let choose = |options: &[&'static str]| options[k / 20 % options.len()];
    match k % 20 {
        0..=2 => {}
        3 => {
            if let (Some(a), Some(b)) = (pick(), pick()) {
                let (x, y) = (cell(&lines, a), cell(&lines, b));
                set(&mut lines, a, &y);
                set(&mut lines, b, &x);
            }
        }
        4 => {
            if let (Some(a), Some(b)) = (pick(), pick()) {
                let x = cell(&lines, a);
                set(&mut lines, b, &x);
            }
        }
        5 => {
            if let Some(a) = pick() {
                set(&mut lines, a, choose(&[".", "-", "_"]));
            }
        }
        6 => {
            if let Some(a) = pick() {
                set(
                    &mut lines,
                    a,
                    choose(&["0", "99", "61", "00007", "123456789012"]),
                );
            }
        }
        7 => {
            if let Some(a) = pick() {
                set(
                    &mut lines,
                    a,
                    choose(&["?", "X", "o", "#", "1a", "\u{2460}"]),
                );
            }
        }
        8 => {
            let centre = choose(&["X  O", ".  .", "0  0", "O  O", "x  o", "W  B", "R  G"]);
            for line in &mut lines {
                if line.contains("O  X") && line.starts_with(|c: char| c.is_ascii_digit()) {
                    *line = line.replacen("O  X", centre, 1);
                    break;
                }
            }
        }
        9 => {
            let result = choose(&[
                "Result: 34 - 30",
                "Result: B+4",
                "Result: *",
                "Result: ?",
                "Result: 1-0",
                "Result: 30-34",
                "Result: nonsense",
                "Score: 64-0",
                "Result: 034-030",
                "Result: 20-22-22",
                "Final: draw",
            ]);
            match lines.iter().position(|l| l.starts_with("Result:")) {
                Some(at) if !result.starts_with("Result: 34") => lines[at] = result.to_owned(),
                Some(at) => {
                    let score = lines[at]["Result: ".len()..].replace('-', " - ");
                    lines[at] = format!("Result: {score}");
                }
                None => lines.insert(0, result.to_owned()),
            }
        }
        10 => lines.insert(
            0,
            choose(&[
                "Rules: othello",
                "Rules: anti",
                "Rules: bogus",
                "Rules: othello:6x6",
                "rules: othello",
            ])
            .to_owned(),
        ),
        11 => {
            for &r in &rows {
                let line = &mut lines[r];
                match k / 20 % 3 {
                    0 => {
                        *line = line
                            .split_once(' ')
                            .map_or(String::new(), |(_, rest)| rest.to_owned())
                    }
                    1 => {
                        let label = line.split(' ').next().unwrap_or("").to_owned();
                        line.push_str(&format!(" {label}"));
                    }
                    _ => *line = line.replacen(' ', "  ", 1),
                }
            }
            if k / 20 % 2 == 0 {
                lines.retain(|l| !l.trim_start().starts_with("a "));
            }
        }
        12 => {
            for &r in &rows {
                let line = &mut lines[r];
                for centre in ["  O  X", "  X  O"] {
                    *line = line.replacen(centre, choose(&["", "  0  0", "  .  ."]), 1);
                }
            }
        }
        13 => {
            let separator = choose(&[" | ", "\t", "\u{a0}", "\u{3000}", " \u{85}"]);
            for &r in &rows {
                lines[r] = lines[r].replace("  ", separator);
            }
        }
        14 => {
            let odd = choose(&["\u{7}", "\u{85}", "\0", "\u{1b}[0m", "\u{feff}", "é"]);
            if let Some(line) = lines.iter_mut().find(|l| l.starts_with("Black:")) {
                line.push_str(odd);
            }
        }
        15 => {
            let extra = choose(&[
                "Result: 40-24",
                "Black: Someone Else",
                "Black Player: x",
                "_x: y",
                "Event : spaced",
                "Round:",
                "Date: 2000-01-01: with a colon",
            ]);
            lines.insert(1.min(lines.len()), extra.to_owned());
        }
        16 => {
            let extra = choose(&["# a comment", "% a note", "+--+--+", "===", "", "   "]);
            let at = rows.get(rng.below(rows.len().max(1))).copied().unwrap_or(0);
            lines.insert(at, extra.to_owned());
        }
        17 => {
            if let Some(&r) = rows.last() {
                match k / 20 % 2 {
                    0 => {
                        lines.remove(r);
                    }
                    _ => {
                        let row = lines[r].clone();
                        lines.insert(r, row);
                    }
                }
            }
        }
        18 => {
            if let Some(a) = pick() {
                let x = cell(&lines, a);
                set(&mut lines, a, &format!("{x}  {x}"));
            }
        }
        _ => return lines.join("\r\n") + "\r\n",
    }
    lines.join("\n") + "\n"
}
