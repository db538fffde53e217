//! `reversi show`, the library's diagrams, completions and man pages.
//!
//! Every case of `fixtures/show/` is shown as text and as SVG; both are snapshotted, and
//! every SVG is rendered by a real renderer (resvg, built without text support, so the
//! coordinates and move numbers do not paint over the pixels looked at) whose pixels at
//! each square's centre must have the colour of what the position holds there.

use std::path::Path;

use assert_cmd::Command;
use reversi_check::validate::validate_record;
use reversi_engine::{Cell, Color, Setup, Square, SquareSet};
use reversi_formats::record::{PositionClaim, Record};
use reversi_formats::render::{square_centre, Diagram, CELL};
use reversi_formats::{Format, ReadOptions};

const ROOT: &str = env!("CARGO_MANIFEST_DIR");

fn reversi() -> Command {
    let mut cmd = Command::cargo_bin("reversi").expect("the reversi binary is built");
    cmd.current_dir(ROOT)
        .env("NO_COLOR", "1")
        .env("COLUMNS", "80")
        .env_remove("CLICOLOR_FORCE")
        .env_remove("FORCE_COLOR");
    cmd
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run(args: &[&str]) -> Run {
    let out = reversi().args(args).output().expect("reversi runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// One diagram to snapshot: a fixture and the arguments of `show`.
struct Case {
    name: &'static str,
    file: &'static str,
    args: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "four",
        file: "four.rgn",
        args: &[],
    },
    Case {
        name: "four-after-pass",
        file: "four.rgn",
        args: &["--move", "9"],
    },
    Case {
        name: "four-numbers",
        file: "four.rgn",
        args: &["--numbers"],
    },
    Case {
        name: "six",
        file: "six.rgn",
        args: &["--move", "12"],
    },
    Case {
        name: "eight",
        file: "eight.rgn",
        args: &["--move", "30"],
    },
    Case {
        name: "eight-start",
        file: "eight.rgn",
        args: &["--move", "0"],
    },
    Case {
        name: "eight-numbers",
        file: "eight.rgn",
        args: &["--numbers"],
    },
    Case {
        name: "ten",
        file: "ten.rgn",
        args: &["--move", "40"],
    },
    Case {
        name: "octagon",
        file: "octagon.rgn",
        args: &["--move", "40"],
    },
    Case {
        name: "octagon-numbers",
        file: "octagon.rgn",
        args: &["--numbers"],
    },
    Case {
        name: "multi3-neutral",
        file: "multi3.rgn",
        args: &["--move", "4"],
    },
    Case {
        name: "multi3-numbers",
        file: "multi3.rgn",
        args: &["--numbers"],
    },
    Case {
        name: "multi4",
        file: "multi4.rgn",
        args: &["--move", "30"],
    },
    Case {
        name: "blocked",
        file: "blocked.rgn",
        args: &["--move", "20"],
    },
    Case {
        name: "blocked-numbers",
        file: "blocked.rgn",
        args: &["--move", "30", "--numbers"],
    },
    Case {
        name: "classic",
        file: "classic.rgn",
        args: &["--move", "20"],
    },
    Case {
        name: "illegal",
        file: "illegal.rgn",
        args: &[],
    },
];

/// The first game of `path`, read with the library.
fn first_record(path: &str) -> Record {
    let bytes = std::fs::read(path).expect("fixture exists");
    let games = Format::Rgn
        .read_bytes(bytes, &ReadOptions::default())
        .expect("fixture reads");
    games
        .into_iter()
        .next()
        .and_then(|g| g.record)
        .expect("fixture has a game")
}

/// What each square should show: the position, or for `--numbers` the start discs and a
/// disc of the mover's colour on each placement.
fn expected_cells(case: &Case) -> (u8, Vec<(Square, Cell)>) {
    let record = first_record(&format!("{ROOT}/fixtures/show/{}", case.file));
    let upto = case
        .args
        .iter()
        .position(|a| *a == "--move")
        .map(|i| case.args[i + 1].parse().expect("a move number"));
    let diagram = Diagram::replay(&record, upto)
        .expect("fixture replays")
        .diagram;
    let numbers = case.args.contains(&"--numbers");
    let side = record.rules.board().side();
    let mut cells = Vec::new();
    for r in 0..side {
        for c in 0..side {
            let sq = Square::new(c, r).expect("on the grid");
            let cell = match diagram.number_at(sq) {
                Some(p) if numbers => Cell::Disc(p.color),
                _ if numbers => diagram.start.cell(sq),
                _ => diagram.position.cell(sq),
            };
            cells.push((sq, cell));
        }
    }
    (side, cells)
}

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

/// The colour class of a pixel, named as the cell it belongs to.
fn classify(rgb: (u8, u8, u8)) -> &'static str {
    let (r, g, b) = (rgb.0 as i32, rgb.1 as i32, rgb.2 as i32);
    let grey = (r - g).abs() < 12 && (g - b).abs() < 12;
    if grey && r < 60 {
        "black"
    } else if grey && r > 225 {
        "white (or background)"
    } else if grey && (140..200).contains(&r) {
        "neutral"
    } else if grey && (60..140).contains(&r) {
        "blocked"
    } else if r > 170 && g < 80 && b < 80 {
        "red"
    } else if g > 180 && r < 190 && b < 140 {
        "green"
    } else if r < 80 && (100..160).contains(&g) && b < 110 {
        "board"
    } else {
        "unknown"
    }
}

fn class_of(cell: Cell) -> &'static str {
    match cell {
        Cell::Disc(Color::Black) => "black",
        Cell::Disc(Color::White) | Cell::OffBoard => "white (or background)",
        Cell::Disc(Color::Red) => "red",
        Cell::Disc(Color::Green) => "green",
        Cell::Neutral => "neutral",
        Cell::Blocked => "blocked",
        Cell::Empty => "board",
    }
}

fn pixel(pixmap: &resvg::tiny_skia::Pixmap, x: u32, y: u32) -> (u8, u8, u8) {
    let p = pixmap.pixel(x, y).expect("inside the picture");
    (p.red(), p.green(), p.blue())
}

/// Renders `svg` and checks every square: the pixel at its centre has the colour of what
/// it holds, and a pixel between the disc and the square's edge is the board (or the
/// background off the board, or the shading of a blocked square).
fn check_pixels(name: &str, svg: &str, side: u8, cells: &[(Square, Cell)]) {
    // The red cross of an illegal move covers its square (tests/director checks it).
    let unmarked: Vec<&str> = svg
        .lines()
        .filter(|l| !l.contains("class=\"illegal-move\""))
        .collect();
    let pixmap = render(&unmarked.join("\n"));
    let expected_size = 26 + side as u32 * CELL + 14;
    // A caption (the marks of an illegal move) goes below the board.
    assert_eq!(pixmap.width(), expected_size, "{name}: picture width");
    assert!(pixmap.height() >= expected_size, "{name}: picture height");
    for &(sq, cell) in cells {
        let (x, y) = square_centre(sq);
        let centre = classify(pixel(&pixmap, x, y));
        assert_eq!(
            centre,
            class_of(cell),
            "{name}: centre of {sq} should show {cell:?}, pixel {:?}",
            pixel(&pixmap, x, y)
        );
        let rim = classify(pixel(&pixmap, x + 15, y - 10));
        let rim_expected = match cell {
            Cell::OffBoard => "white (or background)",
            Cell::Blocked => "blocked",
            _ => "board",
        };
        assert_eq!(rim, rim_expected, "{name}: rim of {sq} ({cell:?})");
    }
}

#[test]
fn every_case_as_text_and_svg() {
    for case in CASES {
        let file = format!("fixtures/show/{}", case.file);
        let mut args = vec!["show", file.as_str()];
        args.extend_from_slice(case.args);
        let text = run(&[args.as_slice(), &["--format", "text"]].concat());
        let svg = run(&[args.as_slice(), &["--format", "svg"]].concat());
        let expected_code = if case.name == "illegal" { 1 } else { 0 };
        assert_eq!(text.code, expected_code, "{}: {}", case.name, text.stderr);
        assert_eq!(svg.code, text.code, "{}", case.name);
        assert_eq!(svg.stderr, text.stderr, "{}", case.name);
        insta::assert_snapshot!(
            format!("{}-text", case.name),
            format!(
                "$ reversi {}\nexit code: {}\n----- stdout -----\n{}----- stderr -----\n{}",
                args.join(" "),
                text.code,
                text.stdout,
                text.stderr
            )
        );
        insta::assert_snapshot!(format!("{}-svg", case.name), svg.stdout);
        let svg_text = &svg.stdout;
        assert!(
            svg_text.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" width=")
                && svg_text.contains(" viewBox=\"0 0 "),
            "{}: sized with width, height and viewBox",
            case.name
        );
        for outside in ["href", "url(", "@import", "<image", "@font-face"] {
            assert!(
                !svg_text.contains(outside),
                "{}: self-contained, but has {outside}",
                case.name
            );
        }
        let (side, cells) = expected_cells(case);
        check_pixels(case.name, &svg.stdout, side, &cells);
    }
}

#[test]
fn the_text_board_is_the_one_diagnostics_draw() {
    let record = first_record(&format!("{ROOT}/fixtures/show/eight.rgn"));
    let diagram = Diagram::replay(&record, Some(30)).unwrap().diagram;
    let shown = run(&["show", "fixtures/show/eight.rgn", "--move", "30"]);
    assert!(
        shown.stdout.starts_with(&diagram.position.to_string()),
        "{}",
        shown.stdout
    );
    assert!(shown.stdout.contains("last move: 30. b2 by white\n"));
}

/// The board validate draws after `moves` written moves: it shows the real position when a
/// record claims a wrong one there.
fn validate_board(record: &Record, moves: usize) -> String {
    let mut claimed = record.clone();
    claimed.result = None;
    claimed.positions = vec![PositionClaim {
        after_moves: moves,
        setup: Setup {
            discs: [SquareSet::EMPTY; 4],
            neutral: SquareSet::EMPTY,
            turn: Color::Black,
        },
        span: None,
    }];
    let report = validate_record(&claimed, 1);
    let d = report
        .diagnostics
        .iter()
        .find(|d| d.code.name() == "wrong-position")
        .unwrap_or_else(|| panic!("no wrong-position after move {moves}"));
    d.board.clone().expect("wrong-position draws the board")
}

/// `show --move M` agrees with validate's boards for every M of real games: the first game
/// of a WTHOR file, and the first one whose record leaves a pass out.
#[test]
fn show_agrees_with_validate_for_every_move_of_a_real_game() {
    let path = format!("{ROOT}/data/wthor/WTH_2004.wtb");
    let bytes = std::fs::read(&path).unwrap_or_else(|e| {
        panic!("{path}: {e}: the real data is part of the repository (data/SOURCES.md)")
    });
    let games = Format::Wthor
        .read_bytes(bytes, &ReadOptions::default())
        .unwrap();
    let with_pass = games.iter().position(|g| {
        g.record.as_ref().is_some_and(|r| {
            let mut pos = r.start_position().unwrap();
            r.moves.iter().any(|m| {
                let must = pos.must_pass();
                if must {
                    let _ = pos.play(reversi_engine::Move::Pass);
                }
                let _ = pos.play(m.mv);
                must
            })
        })
    });
    let mut picked = vec![0];
    picked.extend(with_pass);
    assert!(
        picked.len() == 2,
        "WTH_2004 has a game with a left-out pass"
    );
    let mut boards = 0;
    for index in picked {
        let record = games[index].record.as_ref().unwrap();
        let game = (index + 1).to_string();
        boards += record.moves.len() + 1;
        for m in 0..=record.moves.len() {
            let shown = run(&["show", &path, "--game", &game, "--move", &m.to_string()]);
            assert_eq!(shown.code, 0, "game {game} move {m}: {}", shown.stderr);
            let board = shown
                .stdout
                .split("\ndiscs:")
                .next()
                .unwrap()
                .trim_end_matches(" (no legal move: must pass)");
            assert_eq!(board, validate_board(record, m), "game {game}, move {m}");
        }
    }
    eprintln!("{boards} boards compared");
    assert!(boards > 100, "two whole games: {boards} boards");
}

#[test]
fn an_illegal_record_is_shown_up_to_its_last_legal_move() {
    let whole = run(&["show", "fixtures/show/illegal.rgn"]);
    assert_eq!(whole.code, 1);
    assert!(whole.stderr.contains("illegal-move"), "{}", whole.stderr);
    assert!(whole.stderr.contains("move 23: black cannot play h8"));
    let before = run(&["show", "fixtures/show/illegal.rgn", "--move", "22"]);
    assert_eq!(before.code, 0, "{}", before.stderr);
    assert_eq!(before.stderr, "");
    assert_eq!(whole.stdout, before.stdout);
    let later = run(&["show", "fixtures/show/illegal.rgn", "--move", "40"]);
    assert_eq!(later.code, 1);
    assert_eq!(later.stdout, before.stdout);
}

#[test]
fn moves_and_games_past_the_end_are_usage_errors() {
    let past = run(&["show", "fixtures/show/four.rgn", "--move", "99"]);
    assert_eq!(past.code, 2);
    assert_eq!(past.stdout, "");
    insta::assert_snapshot!(past.stderr, @"error: fixtures/show/four.rgn: game 1: --move: expected a move number from 0 to 13, but found 99 instead: the game has 13 written moves");
    let game = run(&["show", "fixtures/demo/club-night.rgn", "--game", "9"]);
    assert_eq!(game.code, 2);
    insta::assert_snapshot!(game.stderr, @"error: fixtures/demo/club-night.rgn: expected a game number from 1 to 4, but found 9 instead: the input has 4 games");
}

#[test]
fn other_formats_and_games_and_the_output_file() {
    // Game 2 of the demo file, a three-player game, through move strings on standard input.
    let out_dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("show");
    std::fs::create_dir_all(&out_dir).unwrap();
    let svg_path = out_dir.join("club-2.svg");
    let svg_arg = svg_path.to_str().unwrap();
    let to_file = run(&[
        "show",
        "fixtures/demo/club-night.rgn",
        "--game",
        "2",
        "-o",
        svg_arg,
    ]);
    assert_eq!(to_file.code, 0, "{}", to_file.stderr);
    assert_eq!(to_file.stdout, "");
    let written = std::fs::read_to_string(&svg_path).unwrap();
    let stdout = run(&[
        "show",
        "fixtures/demo/club-night.rgn",
        "-g",
        "2",
        "--format",
        "svg",
    ]);
    assert_eq!(written, stdout.stdout, "`.svg` output means --format svg");

    let moves = reversi()
        .args(["show", "-", "--from", "moves", "--rules", "othello:6x6"])
        .write_stdin("e4e5e6d2\n")
        .output()
        .unwrap();
    assert!(moves.status.success());
    let text = String::from_utf8(moves.stdout).unwrap();
    assert!(text.contains("last move: 4. d2 by white"), "{text}");
    assert!(text.starts_with("   a b c d e f\n"), "{text}");
}

#[test]
fn completions_for_every_shell() {
    for shell in ["bash", "zsh", "fish", "powershell"] {
        let out = run(&["completions", shell]);
        assert_eq!(out.code, 0, "{shell}: {}", out.stderr);
        for word in ["validate", "convert", "show", "numbers"] {
            assert!(out.stdout.contains(word), "{shell} completes {word}");
        }
    }
    assert_eq!(run(&["completions", "tcsh"]).code, 2);
}

#[test]
fn man_pages() {
    let page = run(&["man"]);
    assert_eq!(page.code, 0);
    assert!(page.stdout.contains(".TH reversi 1"), "{}", page.stdout);
    assert!(page.stdout.contains("reversi\\-show(1)") || page.stdout.contains("show"));
    let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join("man");
    let _ = std::fs::remove_dir_all(&dir);
    let out = run(&["man", "--dir", dir.to_str().unwrap()]);
    assert_eq!(out.code, 0, "{}", out.stderr);
    let show = std::fs::read_to_string(dir.join("reversi-show.1")).unwrap();
    assert!(show.contains(".TH reversi-show 1"), "{show}");
    assert!(show.contains("\\-\\-numbers"), "{show}");
    for name in ["reversi.1", "reversi-validate.1", "reversi-convert.1"] {
        assert!(dir.join(name).exists(), "{name}");
    }
}

/// The diagrams the guide shows are what the commands it gives make today.
#[test]
fn the_guides_diagrams_are_up_to_date() {
    for (file, args) in [
        (
            "docs/club-night-move30.svg",
            &["show", "fixtures/demo/club-night.rgn", "--move", "30"][..],
        ),
        (
            "docs/club-night-numbers.svg",
            &[
                "show",
                "fixtures/demo/club-night.rgn",
                "--game",
                "2",
                "--numbers",
            ][..],
        ),
    ] {
        let committed = std::fs::read_to_string(format!("{ROOT}/{file}")).unwrap();
        let now = run(&[args, &["--format", "svg"]].concat());
        assert_eq!(
            committed,
            now.stdout,
            "{file}: regenerate with `reversi {} -o {file}`",
            args.join(" ")
        );
        // The guide shows them (linked beside it, in docs/) with the commands that make them.
        let guide = std::fs::read_to_string(format!("{ROOT}/docs/guide.md")).unwrap();
        let beside = file.trim_start_matches("docs/");
        assert!(
            guide.contains(&format!("]({beside})")),
            "the guide links {file}"
        );
        assert!(guide.contains(&format!("reversi {} -o {file}", args[..].join(" "))));
    }
}
