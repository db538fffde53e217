//! `reversi stats` against a plain count: every number of its JSON, over the real files of
//! `data/` (WTHOR years, thor and PlayOK PGN, GGS games), equals what a plain loop over the
//! games read by the formats' full readers counts here, with its own reading of dates,
//! results and openings; the JSON is the same with one thread and two; the CSV rows sum to
//! the games; the pictures are drawn by a real renderer (resvg) and a square played more is
//! darker than one played less, a length of more games a taller bar.

mod common;

use std::collections::BTreeMap;
use std::path::Path;
use std::process::Command;

use reversi_engine::{Color, Move, Square};
use reversi_formats::record::{Record, ResultScore, Termination};
use reversi_formats::render::{square_centre, CELL};
use reversi_formats::ParsedGame;
use reversi_runs::pipeline::Input;
use serde_json::Value;

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

/// The real files the counts are checked on: the game files of `data/` (WTHOR, PGN, GGF).
const FILES: &[&str] = common::REAL_RECORD_FILES.split_at(11).0;

/// A path in the repository's real data; a missing file fails the test.
fn data(rel: &str) -> String {
    let path = format!("{ROOT}/data/{rel}");
    assert!(
        Path::new(&path).exists(),
        "{path} is missing: the real data is part of the repository (data/SOURCES.md)"
    );
    path
}

fn all_files() -> Vec<String> {
    FILES.iter().map(|f| data(f)).collect()
}

/// Runs `reversi` with `args`: exit code, standard output, standard error.
fn reversi(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_reversi"))
        .args(args)
        .current_dir(ROOT)
        .env("NO_COLOR", "1")
        .output()
        .expect("reversi runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `reversi stats` with `args` then `files`, which must succeed; its standard output.
fn stats(args: &[&str], files: &[String]) -> String {
    let mut all: Vec<&str> = vec!["stats", "-q"];
    all.extend_from_slice(args);
    all.extend(files.iter().map(String::as_str));
    let (code, out, err) = reversi(&all);
    assert_eq!(code, 0, "reversi {all:?} failed: {err}");
    out
}

/// Every game of `path`, read in full by its format's reader (the name files beside a
/// WTHOR file found by its path).
fn games_of(path: &str) -> Vec<ParsedGame> {
    let input = Input::open(path).expect("the file opens");
    input
        .format
        .read(input.reader, &input.options)
        .collect::<Result<Vec<_>, _>>()
        .expect("the file reads")
}

/// A player's line: games, wins, draws, losses, then as Black and as White the same.
type PlayerLine = [u64; 12];

/// What a plain loop counts.
#[derive(Default, Debug)]
struct Plain {
    games: u64,
    years: BTreeMap<Option<i64>, u64>,
    events: BTreeMap<Option<String>, u64>,
    players: BTreeMap<String, PlayerLine>,
    results: BTreeMap<&'static str, u64>,
    margins: BTreeMap<i64, u64>,
    openings: BTreeMap<(String, String), u64>,
    lengths: BTreeMap<u64, u64>,
    rules: BTreeMap<String, u64>,
    squares: BTreeMap<(String, String), u64>,
}

/// The year of a date: four digits and then no digit, or (GGS) Unix seconds, a year
/// being 365.2425 days on average.
fn plain_year(date: &str) -> Option<i64> {
    let date = date.trim();
    let head: String = date.chars().take(4).collect();
    let fifth = date.chars().nth(4);
    if head.len() == 4
        && head.chars().all(|c| c.is_ascii_digit())
        && !fifth.is_some_and(|c| c.is_ascii_digit())
    {
        return head.parse().ok();
    }
    if date.len() >= 9 && date.chars().all(|c| c.is_ascii_digit()) {
        let seconds: f64 = date.parse().ok()?;
        return Some(1970 + (seconds / (365.2425 * 86_400.0)).floor() as i64);
    }
    None
}

/// A tag's value, unless it says nothing.
fn plain_tag(record: &Record, name: &str) -> Option<String> {
    let value = record.tag(name)?.trim();
    let unknown = value.is_empty() || value.chars().all(|c| matches!(c, '?' | '-' | '.'));
    (!unknown).then(|| value.to_owned())
}

/// The claimed winner (`Some(None)`: a draw; `None`: undecided), its name, and Black's
/// margin; the games here are two-player games of most discs wins.
fn plain_result(record: &Record) -> (Option<Option<Color>>, &'static str, Option<i64>) {
    let Some(claim) = &record.result else {
        return (None, "none", None);
    };
    if claim.termination == Termination::Unfinished {
        return (None, "unfinished", None);
    }
    let by_margin = |m: f64| {
        if m > 0.0 {
            (Some(Some(Color::Black)), "black")
        } else if m < 0.0 {
            (Some(Some(Color::White)), "white")
        } else {
            (Some(None), "draw")
        }
    };
    match &claim.score {
        ResultScore::Discs(counts) if counts.len() == 2 => {
            let m = counts[0] as i64 - counts[1] as i64;
            let (w, name) = by_margin(m as f64);
            (w, name, Some(m))
        }
        ResultScore::Margin(m) => {
            let (w, name) = by_margin(*m);
            (w, name, Some(m.round() as i64))
        }
        ResultScore::Winner(Some(Color::Black)) => (Some(Some(Color::Black)), "black", None),
        ResultScore::Winner(Some(Color::White)) => (Some(Some(Color::White)), "white", None),
        ResultScore::Winner(None) => (Some(None), "draw", None),
        other => panic!("a claim the plain count does not know: {other:?}"),
    }
}

/// A symmetry of a board of side `m + 1`: `(col, row, m)` to the image's `(col, row)`.
type Symmetry = fn(u8, u8, u8) -> (u8, u8);

/// The first `n` moves, turned so that the first is the square right of the centre below
/// its middle (f5 on 8x8) by the one of the four symmetries of the standard start that
/// takes it there; a game from another start position as written.
fn plain_opening(record: &Record, n: usize) -> String {
    let side = record.rules.board().side();
    let m = side - 1;
    let maps: [Symmetry; 4] = [
        |c, r, _| (c, r),
        |c, r, _| (r, c),
        |c, r, m| (m - r, m - c),
        |c, r, m| (m - c, m - r),
    ];
    let target = (side / 2 + 1, side / 2);
    let first = record.moves.iter().find_map(|mv| match mv.mv {
        Move::Place(sq) => Some(sq),
        Move::Pass => None,
    });
    let map = match (&record.start, first) {
        (None, Some(sq)) => maps
            .iter()
            .find(|f| f(sq.col(), sq.row(), m) == target)
            .copied()
            .unwrap_or(maps[0]),
        _ => maps[0],
    };
    let words: Vec<String> = record
        .moves
        .iter()
        .take(n)
        .map(|mv| match mv.mv {
            Move::Place(sq) => {
                let (c, r) = map(sq.col(), sq.row(), m);
                Square::new(c, r).expect("on the board").to_string()
            }
            Move::Pass => "pass".to_owned(),
        })
        .collect();
    words.join(" ")
}

impl Plain {
    fn of(files: &[String], opening: usize) -> Plain {
        let mut plain = Plain::default();
        for path in files {
            for game in games_of(path) {
                let record = game.record.as_ref().expect("the real games read");
                plain.count(record, opening);
            }
        }
        plain
    }

    fn count(&mut self, record: &Record, opening: usize) {
        self.games += 1;
        let year = record.tag("Date").and_then(plain_year);
        *self.years.entry(year).or_default() += 1;
        *self.events.entry(plain_tag(record, "Event")).or_default() += 1;
        let (winner, name, margin) = plain_result(record);
        *self.results.entry(name).or_default() += 1;
        if let Some(m) = margin {
            *self.margins.entry(m).or_default() += 1;
        }
        for (color, offset) in [(Color::Black, 4), (Color::White, 8)] {
            let tag = if color == Color::Black {
                "Black"
            } else {
                "White"
            };
            let Some(player) = plain_tag(record, tag) else {
                continue;
            };
            let line = self.players.entry(player).or_default();
            let column = match winner {
                Some(Some(w)) if w == color => Some(1),
                Some(Some(_)) => Some(3),
                Some(None) => Some(2),
                None => None,
            };
            for base in [0, offset] {
                line[base] += 1;
                if let Some(col) = column {
                    line[base + col] += 1;
                }
            }
        }
        let rules = record.rules.to_string();
        *self
            .openings
            .entry((rules.clone(), plain_opening(record, opening)))
            .or_default() += 1;
        *self.rules.entry(rules).or_default() += 1;
        let mut placements = 0;
        for mv in &record.moves {
            if let Move::Place(sq) = mv.mv {
                placements += 1;
                let board = record.rules.board().to_string();
                *self.squares.entry((board, sq.to_string())).or_default() += 1;
            }
        }
        *self.lengths.entry(placements).or_default() += 1;
    }
}

/// `rows` of a JSON array, as (key, games) pairs.
fn pairs<K: Ord>(json: &Value, field: &str, key: impl Fn(&Value) -> K) -> BTreeMap<K, u64> {
    let mut out = BTreeMap::new();
    for row in json[field].as_array().expect("an array") {
        let games = row["games"].as_u64().expect("a count");
        assert!(
            out.insert(key(row), games).is_none(),
            "{field}: a row twice: {row}"
        );
    }
    out
}

/// Every number of `json` equals the plain count's.
fn check_against(json: &Value, plain: &Plain) {
    assert_eq!(json["games"], plain.games);
    assert_eq!(json["unreadable"], 0);
    let years = pairs(json, "years", |r| r["year"].as_i64());
    assert_eq!(years, plain.years, "years");
    let events = pairs(json, "events", |r| r["event"].as_str().map(str::to_owned));
    assert_eq!(events, plain.events, "events");
    let results = pairs(json, "results", |r| {
        r["result"].as_str().expect("a name").to_owned()
    });
    for (name, games) in &results {
        let expected = plain.results.get(name.as_str()).copied().unwrap_or(0);
        assert_eq!(*games, expected, "result {name}");
    }
    assert_eq!(
        results.values().sum::<u64>(),
        plain.games,
        "results sum to the games"
    );
    let margins = pairs(json, "margins", |r| r["margin"].as_i64().expect("a margin"));
    assert_eq!(margins, plain.margins, "margins");
    let lengths = pairs(json, "lengths", |r| {
        r["placements"].as_u64().expect("a length")
    });
    assert_eq!(lengths, plain.lengths, "lengths");
    let rules = pairs(json, "rules", |r| {
        r["rules"].as_str().expect("rules").to_owned()
    });
    assert_eq!(rules, plain.rules, "rules");
    let openings = pairs(json, "openings", |r| {
        (
            r["rules"].as_str().expect("rules").to_owned(),
            r["opening"].as_str().expect("moves").to_owned(),
        )
    });
    assert_eq!(openings, plain.openings, "openings");
    let mut players = BTreeMap::new();
    for row in json["players"].as_array().expect("players") {
        let n = |v: &Value| v.as_u64().expect("a count");
        let line: PlayerLine = [
            n(&row["games"]),
            n(&row["wins"]),
            n(&row["draws"]),
            n(&row["losses"]),
            n(&row["black"]["games"]),
            n(&row["black"]["wins"]),
            n(&row["black"]["draws"]),
            n(&row["black"]["losses"]),
            n(&row["white"]["games"]),
            n(&row["white"]["wins"]),
            n(&row["white"]["draws"]),
            n(&row["white"]["losses"]),
        ];
        players.insert(row["player"].as_str().expect("a name").to_owned(), line);
    }
    assert_eq!(players.len(), plain.players.len(), "players");
    for (name, line) in &plain.players {
        assert_eq!(players.get(name), Some(line), "player {name}");
    }
    let mut squares = BTreeMap::new();
    for board in json["squares"].as_array().expect("boards") {
        let name = board["board"].as_str().expect("a board").to_owned();
        for sq in board["squares"].as_array().expect("squares") {
            let placements = sq["placements"].as_u64().expect("a count");
            if placements > 0 {
                let square = sq["square"].as_str().expect("a square").to_owned();
                squares.insert((name.clone(), square), placements);
            }
        }
    }
    assert_eq!(squares, plain.squares, "squares");
}

#[test]
fn every_number_equals_a_plain_count_of_the_real_files() {
    let files = all_files();
    let plain = Plain::of(&files, 6);
    // The data: WTHOR years, their thor PGN, PlayOK and GGS games; nothing unread.
    assert_eq!(plain.games, 23_807);
    assert!(plain.years.len() >= 8 && plain.events.len() > 100 && plain.players.len() > 1000);
    let json: Value = serde_json::from_str(&stats(&["--format", "json"], &files)).expect("JSON");
    check_against(&json, &plain);
    assert_eq!(json["opening_moves"], 6);
    // The year a GGS date of Unix seconds gives, and the four first moves as one.
    assert_eq!(plain.years.get(&Some(2000)), Some(&1));
    assert!(json["openings"][0]["opening"]
        .as_str()
        .unwrap()
        .starts_with("f5 "));
}

#[test]
fn other_opening_lengths_and_one_file_at_a_time() {
    for (file, moves) in [
        ("wthor/WTH_1990.wtb", "3"),
        ("ggf/nboard_test2.ggf", "10"),
        ("pgn/WTH_2021.py.pgn", "1"),
    ] {
        let files = vec![data(file)];
        let plain = Plain::of(&files, moves.parse().unwrap());
        let out = stats(&["--format", "json", "--opening", moves], &files);
        let json: Value = serde_json::from_str(&out).expect("JSON");
        check_against(&json, &plain);
    }
}

#[test]
fn the_json_is_the_same_with_one_thread_and_two() {
    let files = all_files();
    let one = stats(&["--format", "json", "--jobs", "1"], &files);
    let two = stats(&["--format", "json", "--jobs", "2"], &files);
    assert_eq!(one, two);
    // In another order of the inputs, too.
    let mut reversed = files.clone();
    reversed.reverse();
    assert_eq!(one, stats(&["--format", "json", "-j", "2"], &reversed));
}

/// The fields of a CSV line (quotes as RFC 4180 writes them).
fn csv_fields(line: &str) -> Vec<String> {
    let mut fields = vec![String::new()];
    let mut quoted = false;
    let mut chars = line.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '"' if quoted && chars.peek() == Some(&'"') => {
                chars.next();
                fields.last_mut().unwrap().push('"');
            }
            '"' => quoted = !quoted,
            ',' if !quoted => fields.push(String::new()),
            c => fields.last_mut().unwrap().push(c),
        }
    }
    assert!(!quoted, "an unclosed quote: {line}");
    fields
}

#[test]
fn csv_rows_parse_and_sum_to_the_games() {
    let files = all_files();
    let plain = Plain::of(&files, 6);
    for (section, columns) in [
        ("year", 2),
        ("event", 2),
        ("result", 2),
        ("opening", 3),
        ("length", 2),
        ("rules", 2),
    ] {
        let csv = stats(&["--format", "csv", "--section", section], &files);
        let mut lines = csv.lines();
        let header = csv_fields(lines.next().expect("a header"));
        assert_eq!(header.len(), columns, "{section}: {header:?}");
        assert_eq!(header.last().map(String::as_str), Some("games"));
        let mut sum = 0;
        let mut rows = 0;
        for line in lines {
            let fields = csv_fields(line);
            assert_eq!(fields.len(), columns, "{section}: {line}");
            sum += fields[columns - 1].parse::<u64>().expect("a count");
            rows += 1;
        }
        assert_eq!(sum, plain.games, "{section}: the rows sum to the games");
        let expected = match section {
            "year" => plain.years.len(),
            "event" => plain.events.len(),
            "result" => 7,
            "opening" => plain.openings.len(),
            "length" => plain.lengths.len(),
            _ => plain.rules.len(),
        };
        assert_eq!(rows, expected, "{section}: one row each");
    }
    // Players: each game counts for its named players; a row's results add up.
    let csv = stats(&["--format", "csv", "--section", "player"], &files);
    let mut player_games = 0;
    for line in csv.lines().skip(1) {
        let f = csv_fields(line);
        assert_eq!(f.len(), 13, "{line}");
        let n: Vec<u64> = f[1..].iter().map(|v| v.parse().expect("a count")).collect();
        assert_eq!(n[0], n[4] + n[8], "{line}: games as Black and White");
        assert!(n[1] + n[2] + n[3] <= n[0], "{line}");
        assert_eq!(plain.players.get(&f[0]).map(|l| l[0]), Some(n[0]), "{line}");
        player_games += n[0];
    }
    let named: u64 = plain.players.values().map(|l| l[0]).sum();
    assert_eq!(player_games, named);
    // Squares: the placements sum to every game's length.
    let csv = stats(&["--format", "csv", "--section", "squares"], &files);
    let placed: u64 = csv
        .lines()
        .skip(1)
        .map(|l| csv_fields(l)[2].parse::<u64>().expect("a count"))
        .sum();
    let lengths: u64 = plain.lengths.iter().map(|(len, games)| len * games).sum();
    assert_eq!(placed, lengths);
    // A name with a comma is quoted.
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.rgn");
    std::fs::write(
        &path,
        "[Event \"Paris, \\\"open\\\"\"]\n[Black \"Ann\"]\n\nf5 d6 *\n",
    )
    .unwrap();
    let file = vec![path.to_string_lossy().into_owned()];
    let csv = stats(&["--format", "csv", "--section", "event"], &file);
    assert_eq!(csv, "event,games\n\"Paris, \"\"open\"\"\",1\n");
    assert_eq!(
        csv_fields(csv.lines().nth(1).unwrap())[0],
        "Paris, \"open\""
    );
}

/// `svg` drawn by resvg.
fn render(svg: &str) -> resvg::tiny_skia::Pixmap {
    let tree =
        resvg::usvg::Tree::from_str(svg, &resvg::usvg::Options::default()).expect("the SVG parses");
    let size = tree.size().to_int_size();
    let mut pixmap =
        resvg::tiny_skia::Pixmap::new(size.width(), size.height()).expect("a non-empty picture");
    resvg::render(
        &tree,
        resvg::tiny_skia::Transform::default(),
        &mut pixmap.as_mut(),
    );
    pixmap
}

fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let p = pixmap.pixel(x, y).expect("inside the picture");
    (p.red(), p.green(), p.blue())
}

/// Perceived brightness, 0 to 255 * 1000.
fn brightness((r, g, b): (u8, u8, u8)) -> u32 {
    299 * r as u32 + 587 * g as u32 + 114 * b as u32
}

/// The value of attribute `name` in an SVG element's line.
fn attribute<'a>(line: &'a str, name: &str) -> &'a str {
    let start = line
        .find(&format!(" {name}=\""))
        .unwrap_or_else(|| panic!("{name} in {line}"))
        + name.len()
        + 3;
    let len = line[start..].find('"').expect("a closing quote");
    &line[start..start + len]
}

#[test]
fn the_heat_map_is_darker_where_more_is_played() {
    let files: Vec<String> = FILES[..5].iter().map(|f| data(f)).collect();
    let plain = Plain::of(&files, 6);
    let svg = stats(&["--format", "svg"], &files);
    assert_eq!(
        svg,
        stats(&["--format", "svg", "--section", "squares"], &files)
    );
    let pixmap = render(&svg);
    // The board's squares where `reversi show` draws them.
    assert!(pixmap.width() >= 26 + 8 * CELL);
    let mut seen = Vec::new();
    for line in svg.lines().filter(|l| l.contains("class=\"square\"")) {
        let square: Square = attribute(line, "data-square").parse().expect("a square");
        let placements: u64 = attribute(line, "data-placements").parse().expect("a count");
        let expected = plain
            .squares
            .get(&("8x8".to_owned(), square.to_string()))
            .copied()
            .unwrap_or(0);
        assert_eq!(placements, expected, "{square}");
        let (cx, cy) = square_centre(square);
        assert_eq!(
            (attribute(line, "x"), attribute(line, "y")),
            (
                (cx - CELL / 2).to_string().as_str(),
                (cy - CELL / 2).to_string().as_str()
            )
        );
        // Inside the square, clear of the count written in its middle.
        let shade = pixel(&pixmap, cx - CELL / 2 + 5, cy - CELL / 2 + 5);
        seen.push((placements, brightness(shade), square));
    }
    assert_eq!(seen.len(), 64);
    seen.sort();
    for pair in seen.windows(2) {
        let ((fewer, light, a), (more, dark, b)) = (pair[0], pair[1]);
        assert!(
            dark <= light,
            "{b} ({more} placements) is lighter than {a} ({fewer})"
        );
    }
    // Never played (the four start squares): white; the most played: far darker than
    // the least played square that was played.
    let never: Vec<_> = seen.iter().filter(|s| s.0 == 0).collect();
    assert_eq!(never.len(), 4);
    assert!(never.iter().all(|s| s.1 == brightness((255, 255, 255))));
    let least = seen.iter().find(|s| s.0 > 0).expect("a square played");
    let most = seen.last().expect("squares");
    assert!(most.0 > least.0);
    assert!(
        most.1 + 100_000 < least.1,
        "{most:?} should be much darker than {least:?}"
    );
}

#[test]
fn the_length_histogram_has_a_taller_bar_for_more_games() {
    let files = all_files();
    let plain = Plain::of(&files, 6);
    let svg = stats(&["--format", "svg", "--section", "length"], &files);
    let pixmap = render(&svg);
    let background = pixel(&pixmap, 2, 2);
    assert_eq!(background, (255, 255, 255));
    let mut bars = Vec::new();
    for line in svg.lines().filter(|l| l.contains("class=\"bar\"")) {
        let value: u64 = attribute(line, "data-value").parse().expect("a length");
        let games: u64 = attribute(line, "data-games").parse().expect("a count");
        assert_eq!(plain.lengths.get(&value), Some(&games), "length {value}");
        let f = |name| attribute(line, name).parse::<f64>().expect("a number");
        bars.push((games, value, f("x"), f("y"), f("width"), f("height")));
    }
    assert_eq!(bars.len(), plain.lengths.len());
    bars.sort_by_key(|b| b.0);
    let (most, least) = (bars[bars.len() - 1], bars[0]);
    assert!(most.0 > 1000 * least.0);
    // Heights in proportion to the games.
    for &(games, value, ..) in &bars {
        let height = bars.iter().find(|b| b.1 == value).unwrap().5;
        let expected = games as f64 * most.5 / most.0 as f64;
        assert!((height - expected).abs() < 0.02, "length {value}");
    }
    // The tallest bar is drawn half way up; above the shortest bar, at that height, the
    // background shows.
    let half = (most.3 + most.5 / 2.0) as u32;
    let bar_colour = pixel(&pixmap, (most.2 + most.4 / 2.0) as u32, half);
    assert_ne!(bar_colour, background, "the tallest bar at half its height");
    assert!(brightness(bar_colour) < brightness(background) / 2);
    let above_least = pixel(&pixmap, (least.2 + least.4 / 2.0) as u32, half);
    assert_eq!(above_least, background, "above the shortest bar");
    // The margins and the years draw too.
    for section in ["margin", "year"] {
        let svg = stats(&["--format", "svg", "--section", section], &files);
        let pixmap = render(&svg);
        assert!(pixmap.width() > 600);
        assert!(svg.matches("class=\"bar\"").count() > 5, "{section}");
    }
}

#[test]
fn the_text_shows_the_top_rows_and_how_many_more() {
    let files = all_files();
    let json: Value = serde_json::from_str(&stats(&["--format", "json"], &files)).expect("JSON");
    let events = json["events"].as_array().unwrap();
    let text = stats(&["--top", "3"], &files);
    assert!(text.starts_with("23807 games\n"), "{text}");
    let rest: u64 = events[3..]
        .iter()
        .map(|e| e["games"].as_u64().unwrap())
        .sum();
    let more = format!("  and {} more events ({rest} games)\n", events.len() - 3);
    assert!(text.contains(&more), "{more} in\n{text}");
    let first = events[0]["event"].as_str().unwrap();
    let shown = text
        .lines()
        .find(|l| l.trim_start().starts_with(first))
        .expect("the first event shown");
    assert!(shown.contains(&events[0]["games"].to_string()), "{shown}");
    // `--section` with text: that table alone; `--top 0` every row.
    let only = stats(&["--section", "event", "--top", "0"], &files);
    assert!(only.starts_with("Games by event\n"), "{only}");
    assert_eq!(only.lines().count(), 2 + events.len());
    assert!(!only.contains("more events"));
}

#[test]
fn game_selection_counts_only_the_games_selected() {
    let files = vec![data("wthor/WTH_2021.wtb")];
    let json: Value = serde_json::from_str(&stats(&["--format", "json"], &files)).unwrap();
    let top = json["players"][0].clone();
    let name = top["player"].as_str().unwrap();
    let selected = stats(
        &["--format", "json", "--game", &format!("Player={name}")],
        &files,
    );
    let selected: Value = serde_json::from_str(&selected).unwrap();
    assert_eq!(selected["games"], top["games"]);
    assert_eq!(selected["players"][0]["player"], name);
    let one: Value =
        serde_json::from_str(&stats(&["--format", "json", "--game", "7"], &files)).unwrap();
    assert_eq!(one["games"], 1);
    let (code, _, err) = reversi(&["stats", "-q", "--game", "Player=Nobody At All", &files[0]]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no game of the inputs is selected"), "{err}");
}

#[test]
fn unreadable_games_are_named_and_exit_1_and_bad_inputs_exit_2() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("club.rgn");
    std::fs::write(
        &path,
        "[Event \"Club\"]\n\nf5 d6 *\n\n[Event \"Club\"\n\nf5 f6 *\n\n[Event \"Club\"]\n\nf5 f4 *\n",
    )
    .unwrap();
    let path = path.to_string_lossy().into_owned();
    let out = dir.path().join("stats.json");
    let out_name = out.to_string_lossy().into_owned();
    let (code, stdout, err) = reversi(&["stats", "-q", "--format", "json", "-o", &out_name, &path]);
    assert_eq!(code, 1, "{err}");
    assert!(stdout.is_empty());
    assert!(err.contains("game 2 could not be read"), "{err}");
    assert!(err.contains("1 game could not be read"), "{err}");
    let json: Value = serde_json::from_str(&std::fs::read_to_string(&out).unwrap()).unwrap();
    assert_eq!(
        (json["games"].as_u64(), json["unreadable"].as_u64()),
        (Some(2), Some(1))
    );
    // A missing input: 2, the others still counted.
    let (code, stdout, err) =
        reversi(&["stats", "-q", "--format", "json", &path, "no/such/file.pgn"]);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("no/such/file.pgn"), "{err}");
    let json: Value = serde_json::from_str(&stdout).unwrap();
    assert_eq!(json["games"], 2);
    // Usage: CSV without a section, JSON with one, a picture of a table.
    for args in [
        &["--format", "csv"][..],
        &["--format", "json", "--section", "year"],
        &["--format", "svg", "--section", "player"],
        &["--opening", "0"],
    ] {
        let mut all = vec!["stats", "-q"];
        all.extend_from_slice(args);
        all.push(&path);
        let (code, stdout, err) = reversi(&all);
        assert_eq!(code, 2, "{args:?}: {err}");
        assert!(stdout.is_empty(), "{args:?}");
    }
    // Never over an input.
    let (code, _, err) = reversi(&["stats", "-q", "-o", &path, &path]);
    assert_eq!(code, 2, "{err}");
    assert!(std::fs::read_to_string(&path)
        .unwrap()
        .starts_with("[Event"));
}
