//! Rule scenarios: every special case of `spec/rules.md`, played through the engine.
//!
//! Each file in `fixtures/rules/` is a scenario (format below); the test renders a transcript
//! of it (boards, legal moves with their flips, every move, every refusal, the outcome) and
//! snapshots it. The worked examples in `spec/rules.md` are scenarios too: each ```` ```scenario ````
//! block there is followed by a ```` ```text ```` block that must equal its transcript, so every
//! example in the spec is checked against the engine. Run with `UPDATE_SPEC=1` to rewrite those
//! text blocks from the engine (then read the diff).
//!
//! Scenario format, one directive per line (`#` starts a comment line):
//!
//! ```text
//! rules: multi3:octagon,anti        the rules string (required unless only `parse:` lines)
//! board:                            optional: a diagram as `Position` prints it, next lines
//!    a b c d e f g h
//!  1 . . . . . . . .
//!  ...
//! turn: red                         side to move for `board:` (default black)
//! show: every                       print the board after every move (default: start and end)
//! moves: f5 d6 -- !a1 pass          moves in order; `--`/`pass` passes; `!` marks a move
//!                                   that must be refused (the refusal is printed, play goes on)
//! quiet: 58                         play the first 58 moves without printing them: the
//!                                   transcript starts from the position after them
//! parse: multi3:6x6                 a rules string to parse: prints its canonical form or
//!                                   the refusal (any number of these lines)
//! ```

use std::fmt::Write as _;
use std::path::Path;

use reversi_record::engine::Goal;
use reversi_record::{Color, IllegalMove, Move, Position, Rules, Setup, Square, SquareSet};

/// One parsed scenario.
#[derive(Default)]
struct Scenario {
    rules: Option<String>,
    board: Vec<String>,
    turn: Option<String>,
    show_every: bool,
    quiet: usize,
    moves: Vec<String>,
    parses: Vec<String>,
}

fn parse_scenario(text: &str) -> Result<Scenario, String> {
    let mut sc = Scenario::default();
    let mut lines = text.lines().peekable();
    while let Some(line) = lines.next() {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        let (key, value) = trimmed
            .split_once(':')
            .ok_or_else(|| format!("expected `key: value`, found `{line}`"))?;
        let value = value.trim();
        match key {
            "rules" => sc.rules = Some(value.to_owned()),
            "turn" => sc.turn = Some(value.to_owned()),
            "show" if value == "every" => sc.show_every = true,
            "quiet" => {
                sc.quiet = value
                    .parse()
                    .map_err(|_| format!("quiet: expected a number, found `{value}`"))?
            }
            "moves" => sc.moves.extend(value.split_whitespace().map(str::to_owned)),
            "parse" => sc.parses.push(value.to_owned()),
            "board" => {
                while let Some(next) = lines.peek() {
                    let t = next.trim_start();
                    let is_row = t.starts_with(|c: char| c.is_ascii_digit());
                    let is_header = t.starts_with("a b");
                    if !is_row && !is_header {
                        break;
                    }
                    if is_row {
                        sc.board.push(next.to_string());
                    }
                    lines.next();
                }
            }
            _ => return Err(format!("unknown directive `{key}`")),
        }
    }
    Ok(sc)
}

/// Reads a diagram in the layout of `Position`'s `Display`.
fn read_board(rules: &Rules, rows: &[String], turn: Color) -> Result<Setup, String> {
    let side = rules.board().side();
    let pad = if side >= 10 { 3 } else { 2 };
    if rows.len() != side as usize {
        return Err(format!("board: expected {side} rows, found {}", rows.len()));
    }
    let mut setup = Setup {
        discs: [SquareSet::EMPTY; 4],
        neutral: SquareSet::EMPTY,
        turn,
    };
    for (r, line) in rows.iter().enumerate() {
        let chars: Vec<char> = line.chars().collect();
        let number: String = chars[..pad.min(chars.len())].iter().collect();
        if number.trim() != (r + 1).to_string() {
            return Err(format!("board: row {} is numbered `{}`", r + 1, number));
        }
        for c in 0..side {
            let sq = Square::new(c, r as u8).expect("on the grid");
            let symbol = chars.get(pad + 1 + 2 * c as usize).copied().unwrap_or(' ');
            let on_board = rules.board().contains(sq);
            let blocked = rules.blocked().contains(sq);
            match symbol {
                ' ' if !on_board => {}
                '#' if blocked => {}
                '.' if on_board && !blocked => {}
                'N' => setup.neutral.insert(sq),
                s => {
                    let color = Color::ALL
                        .into_iter()
                        .find(|c| c.symbol() == s)
                        .ok_or_else(|| format!("board: `{s}` does not fit square {sq}"))?;
                    setup.discs[color.index()].insert(sq);
                }
            }
        }
    }
    Ok(setup)
}

fn squares_with_flips(pos: &Position, set: SquareSet) -> String {
    set.iter()
        .map(|sq| match pos.flips(sq) {
            Ok(f) => format!("{sq}[{}]", f.to_string().replace(' ', ",")),
            Err(e) => format!("{sq}[error: {e}]"),
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// What the side to move faces: its legal moves with their flips, a pass, or the end.
/// `with_turn` names the side to move (a board diagram already does).
fn state_line(pos: &Position, with_turn: bool) -> String {
    let turn = if with_turn {
        format!("{} ", pos.turn())
    } else {
        String::new()
    };
    let mut line = if pos.is_over() {
        "game over".to_owned()
    } else if pos.must_pass() {
        format!("{turn}must pass")
    } else {
        let legal = squares_with_flips(pos, pos.legal_moves());
        if with_turn {
            format!("{turn}to move; legal: {legal}")
        } else {
            format!("legal: {legal}")
        }
    };
    if pos.rules().supply().is_some() {
        let hand: Vec<String> = pos
            .rules()
            .colors()
            .iter()
            .map(|c| format!("{c} {}", pos.in_hand(*c).unwrap_or(0)))
            .collect();
        write!(line, " (in hand: {})", hand.join(", ")).unwrap();
    }
    line
}

fn outcome_line(pos: &Position) -> String {
    let o = pos.counts_outcome();
    let rules = pos.rules();
    let mut verdict = match (o.winner, rules.players()) {
        (Some(c), _) => format!("{c} wins"),
        (None, 2) => "draw".to_owned(),
        (None, _) => "draw for the whole table".to_owned(),
    };
    if rules.goal() == Goal::FewestDiscs {
        verdict.push_str(" (anti: fewest discs win)");
    }
    let mut discs: Vec<String> = rules
        .colors()
        .iter()
        .map(|c| format!("{c} {}", o.discs[c.index()]))
        .collect();
    if rules.players() == 3 {
        discs.push(format!("neutral {}", o.neutral));
    }
    let scores: Vec<String> = rules
        .colors()
        .iter()
        .map(|c| o.score[c.index()].to_string())
        .collect();
    let mut line = format!(
        "{verdict}; discs: {}; empty {}; score ({}): {}",
        discs.join(", "),
        o.empty,
        rules.scoring().name(),
        scores.join("-")
    );
    let scored: u32 = o.score.iter().map(|&s| u32::from(s)).sum();
    let on_board: u32 = o.discs.iter().map(|&d| u32::from(d)).sum();
    if rules.players() == 2 && rules.scoring().name() == "wof" {
        let unscored = on_board + u32::from(o.empty) - scored;
        if unscored > 0 {
            write!(line, "; {unscored} empty square unscored").unwrap();
        }
    }
    line
}

/// Runs a scenario and returns its transcript. Panics when the scenario contradicts its own
/// marks (a `!` move that is legal, an unmarked move that is refused).
fn run(text: &str, name: &str) -> String {
    let sc = parse_scenario(text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut out = String::new();
    for p in &sc.parses {
        match p.parse::<Rules>() {
            Ok(r) => writeln!(out, "parse `{p}` -> `{r}`").unwrap(),
            Err(e) => writeln!(out, "parse `{p}` -> refused: {e}").unwrap(),
        }
    }
    let Some(rules_text) = &sc.rules else {
        assert!(!sc.parses.is_empty(), "{name}: no rules and no parse lines");
        return out;
    };
    let rules: Rules = rules_text
        .parse()
        .unwrap_or_else(|e| panic!("{name}: rules `{rules_text}`: {e}"));
    writeln!(out, "rules: {rules}").unwrap();
    assert!(
        sc.turn.is_none() || !sc.board.is_empty(),
        "{name}: `turn:` needs a `board:`"
    );
    assert!(
        sc.quiet <= sc.moves.len(),
        "{name}: `quiet:` exceeds the moves"
    );
    let turn = match &sc.turn {
        Some(t) => Color::from_name(t).unwrap_or_else(|| panic!("{name}: turn `{t}`")),
        None => Color::Black,
    };
    let mut pos = if sc.board.is_empty() {
        Position::new(rules)
    } else {
        let setup = read_board(&rules, &sc.board, turn).unwrap_or_else(|e| panic!("{name}: {e}"));
        match Position::from_setup(rules, setup) {
            Ok(p) => p,
            Err(e) => {
                writeln!(out, "setup refused: {e}").unwrap();
                return out;
            }
        }
    };
    let mut quiet = String::new();
    for token in &sc.moves[..sc.quiet.min(sc.moves.len())] {
        play(&mut pos, token, false, &mut quiet, name);
    }
    if sc.quiet > 0 {
        writeln!(out, "after {} quiet moves:", sc.quiet).unwrap();
    }
    writeln!(out, "{pos}").unwrap();
    if !pos.is_over() {
        writeln!(out, "{}", state_line(&pos, false)).unwrap();
    }
    for token in &sc.moves[sc.quiet.min(sc.moves.len())..] {
        play(&mut pos, token, sc.show_every, &mut out, name);
    }
    if sc.moves.len() > sc.quiet && !sc.show_every {
        writeln!(out, "{pos}").unwrap();
    }
    if pos.is_over() {
        writeln!(out, "outcome: {}", outcome_line(&pos)).unwrap();
    }
    out
}

/// Plays one move token, checking its `!` mark, and writes what happened to `out`.
fn play(pos: &mut Position, token: &str, show_every: bool, out: &mut String, name: &str) {
    let (expect_refusal, word) = match token.strip_prefix('!') {
        Some(rest) => (true, rest),
        None => (false, token),
    };
    let mv = if word == "--" || word.eq_ignore_ascii_case("pass") {
        Move::Pass
    } else {
        Move::Place(
            word.parse()
                .unwrap_or_else(|e| panic!("{name}: move `{word}`: {e}")),
        )
    };
    let mover = pos.turn();
    let mut trial = *pos;
    match (trial.play(mv), expect_refusal) {
        (Ok(flipped), false) => {
            *pos = trial;
            let what = match mv {
                Move::Pass => "passes".to_owned(),
                Move::Place(_) if flipped.is_empty() => "flips nothing".to_owned(),
                Move::Place(_) => format!("flips {flipped}"),
            };
            writeln!(out, "{mover} {mv}: {what}").unwrap();
            if show_every {
                writeln!(out, "{pos}").unwrap();
                if !pos.is_over() {
                    writeln!(out, "{}", state_line(pos, false)).unwrap();
                }
            } else {
                writeln!(out, "  {}", state_line(pos, true)).unwrap();
            }
        }
        (Err(e), true) => {
            assert_eq!(&trial, pos, "{name}: a refused move changed the position");
            writeln!(out, "{mover} {mv}: refused, {e} ({e:?})").unwrap();
        }
        (Ok(_), true) => panic!("{name}: `{token}` was expected to be refused but is legal"),
        (Err(e), false) => panic!("{name}: `{token}` was refused: {e}"),
    }
}

#[test]
fn scenarios() {
    let mut all = String::new();
    insta::glob!("../fixtures/rules", "*.scenario", |path| {
        let text = std::fs::read_to_string(path).expect("fixture readable");
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let transcript = run(&text, &name);
        all.push_str(&transcript);
        insta::with_settings!({ description => text.clone(), omit_expression => true }, {
            insta::assert_snapshot!(transcript);
        });
    });
    // The fixtures refuse a move for every reason there is.
    for kind in [
        IllegalMove::GameOver,
        IllegalMove::OffBoard,
        IllegalMove::Blocked,
        IllegalMove::Occupied,
        IllegalMove::NoDiscsLeft,
        IllegalMove::OutsideCentre,
        IllegalMove::FlipsNothing,
        IllegalMove::FlipAvailable,
        IllegalMove::NotTouching,
        IllegalMove::PassWithMoves,
        IllegalMove::PassNotAllowed,
    ] {
        assert!(
            all.contains(&format!("({kind:?})")),
            "no fixture refuses a move as {kind:?}"
        );
    }
}

/// The ```` ```scenario ```` blocks of a Markdown file, each with the ```` ```text ```` block
/// right after it: (scenario, byte range of the text block's body, text).
fn spec_examples(spec: &str) -> Vec<(String, std::ops::Range<usize>, String)> {
    let mut found = Vec::new();
    let mut rest = 0;
    while let Some(start) = spec[rest..].find("```scenario\n") {
        let body_start = rest + start + "```scenario\n".len();
        let body_end = body_start + spec[body_start..].find("```").expect("closed block");
        let scenario = spec[body_start..body_end].to_owned();
        let after = body_end + 3;
        let text_start = after
            + spec[after..]
                .find("```text\n")
                .expect("a text block follows every scenario")
            + "```text\n".len();
        assert!(
            spec[after..text_start - "```text\n".len()]
                .trim()
                .is_empty(),
            "only blank lines may separate a scenario from its text block"
        );
        let text_end = text_start + spec[text_start..].find("```").expect("closed block");
        found.push((
            scenario,
            text_start..text_end,
            spec[text_start..text_end].to_owned(),
        ));
        rest = text_end + 3;
    }
    found
}

/// The text with the spaces at the end of each line removed (the octagon's diagrams end in
/// spaces, which Markdown editors strip).
fn trim_line_ends(text: &str) -> String {
    text.lines()
        .map(|l| format!("{}\n", l.trim_end()))
        .collect()
}

#[test]
fn spec_examples_are_true() {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("spec/rules.md");
    let spec = std::fs::read_to_string(&path).expect("spec/rules.md exists");
    let examples = spec_examples(&spec);
    assert!(examples.len() >= 20, "the spec has its worked examples");
    if std::env::var_os("UPDATE_SPEC").is_some() {
        let mut updated = spec.clone();
        for (i, (scenario, range, _)) in examples.iter().enumerate().rev() {
            let text = trim_line_ends(&run(scenario, &format!("spec example {}", i + 1)));
            updated.replace_range(range.clone(), &text);
        }
        std::fs::write(&path, updated).expect("spec writable");
        return;
    }
    for (i, (scenario, _, expected)) in examples.iter().enumerate() {
        let actual = trim_line_ends(&run(scenario, &format!("spec example {}", i + 1)));
        assert_eq!(
            actual,
            trim_line_ends(expected),
            "spec example {} differs from the engine:\n{scenario}",
            i + 1
        );
    }
}

#[test]
fn canonical_rules_strings_read_back() {
    let strings = [
        "othello",
        "anti:10x10",
        "free:6x6,anti",
        "classic,blocked=a1+h8",
        "othello:4x4,handicap=black:1",
        "othello:10x10,handicap=white:4,scoring=raw",
        "multi3:octagon,anti,blocked=c1",
        "multi4:10x10",
        "anti:octagon,free,blocked=e1+f10",
    ];
    for s in strings {
        let rules: Rules = s.parse().unwrap();
        let canonical = rules.to_string();
        let again: Rules = canonical.parse().unwrap();
        assert_eq!(again, rules, "{s} -> {canonical}");
        assert_eq!(again.to_string(), canonical);
    }
}

#[test]
fn board_reader_round_trips_every_start() {
    for s in [
        "othello:4x4",
        "othello:6x6",
        "othello",
        "multi3:octagon",
        "multi4:10x10",
    ] {
        let rules: Rules = s.parse().unwrap();
        let pos = Position::new(rules);
        let shown = pos.to_string();
        let rows: Vec<String> = shown
            .lines()
            .filter(|l| l.trim_start().starts_with(|c: char| c.is_ascii_digit()))
            .map(str::to_owned)
            .collect();
        let setup = read_board(&rules, &rows, Color::Black).unwrap();
        assert_eq!(setup, pos.setup(), "{s}");
        assert!(Position::from_setup(rules, setup).is_ok());
    }
}
