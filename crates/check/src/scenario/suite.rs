//! The conformance suite: every rule scenario of the project with its expected JSON, plus
//! seeded random games of every variant and combination and random setups played out
//! (`reversi scenario --suite DIR`).

use crate::engine::{Color, Move, Position, Rules, Setup, Square};

use super::check::json_text;
use super::markdown;
use super::parse::{Scenario, ScenarioError};

/// The rule scenarios of `fixtures/rules/`, one per special case of `spec/rules.md`.
pub const RULE_SCENARIOS: &[(&str, &str)] = &[
    (
        "multi3-neutral-unflipped",
        include_str!("../../../../fixtures/rules/multi3-neutral-unflipped.scenario"),
    ),
    (
        "free-opening-setup-no-flips",
        include_str!("../../../../fixtures/rules/free-opening-setup-no-flips.scenario"),
    ),
    (
        "classic-handicap-in-hand",
        include_str!("../../../../fixtures/rules/classic-handicap-in-hand.scenario"),
    ),
    (
        "classic-no-discs-with-a-move",
        include_str!("../../../../fixtures/rules/classic-no-discs-with-a-move.scenario"),
    ),
    (
        "classic-opening-no-discs",
        include_str!("../../../../fixtures/rules/classic-opening-no-discs.scenario"),
    ),
    (
        "classic-anti-opening-no-discs",
        include_str!("../../../../fixtures/rules/classic-anti-opening-no-discs.scenario"),
    ),
    (
        "classic-handicap-white-to-move",
        include_str!("../../../../fixtures/rules/classic-handicap-white-to-move.scenario"),
    ),
    (
        "game-over-blocked-first",
        include_str!("../../../../fixtures/rules/game-over-blocked-first.scenario"),
    ),
    (
        "octagon-over-off-board",
        include_str!("../../../../fixtures/rules/octagon-over-off-board.scenario"),
    ),
    (
        "setup-disc-on-cut-corner",
        include_str!("../../../../fixtures/rules/setup-disc-on-cut-corner.scenario"),
    ),
    (
        "setup-turn-not-playing",
        include_str!("../../../../fixtures/rules/setup-turn-not-playing.scenario"),
    ),
    (
        "setup-refusal-order",
        include_str!("../../../../fixtures/rules/setup-refusal-order.scenario"),
    ),
    (
        "classic-in-hand-above-total",
        include_str!("../../../../fixtures/rules/classic-in-hand-above-total.scenario"),
    ),
    (
        "classic-handicap-hands-full",
        include_str!("../../../../fixtures/rules/classic-handicap-hands-full.scenario"),
    ),
    (
        "classic-handicap-opening-hands-full",
        include_str!("../../../../fixtures/rules/classic-handicap-opening-hands-full.scenario"),
    ),
    (
        "classic-no-move-with-discs",
        include_str!("../../../../fixtures/rules/classic-no-move-with-discs.scenario"),
    ),
    (
        "free-opening-flips-nothing",
        include_str!("../../../../fixtures/rules/free-opening-flips-nothing.scenario"),
    ),
    (
        "multi3-neutral-left-at-end",
        include_str!("../../../../fixtures/rules/multi3-neutral-left-at-end.scenario"),
    ),
    (
        "multi3-nobody-flips",
        include_str!("../../../../fixtures/rules/multi3-nobody-flips.scenario"),
    ),
    (
        "anti-empties-to-loser",
        include_str!("../../../../fixtures/rules/anti-empties-to-loser.scenario"),
    ),
    (
        "anti-wipe-out",
        include_str!("../../../../fixtures/rules/anti-wipe-out.scenario"),
    ),
    (
        "blocked-breaks-run",
        include_str!("../../../../fixtures/rules/blocked-breaks-run.scenario"),
    ),
    (
        "classic-out-of-discs",
        include_str!("../../../../fixtures/rules/classic-out-of-discs.scenario"),
    ),
    (
        "classic-setup-in-hand",
        include_str!("../../../../fixtures/rules/classic-setup-in-hand.scenario"),
    ),
    (
        "free-opening-parallel",
        include_str!("../../../../fixtures/rules/free-opening-parallel.scenario"),
    ),
    (
        "free-opening",
        include_str!("../../../../fixtures/rules/free-opening.scenario"),
    ),
    (
        "game-over-full-board",
        include_str!("../../../../fixtures/rules/game-over-full-board.scenario"),
    ),
    (
        "handicap-anchor",
        include_str!("../../../../fixtures/rules/handicap-anchor.scenario"),
    ),
    (
        "handicap-corner-closes-run",
        include_str!("../../../../fixtures/rules/handicap-corner-closes-run.scenario"),
    ),
    (
        "handicap-corner-closes-run-black",
        include_str!("../../../../fixtures/rules/handicap-corner-closes-run-black.scenario"),
    ),
    (
        "handicap-corners",
        include_str!("../../../../fixtures/rules/handicap-corners.scenario"),
    ),
    (
        "handicap-octagon-refused",
        include_str!("../../../../fixtures/rules/handicap-octagon-refused.scenario"),
    ),
    (
        "multi-flip-priority",
        include_str!("../../../../fixtures/rules/multi-flip-priority.scenario"),
    ),
    (
        "multi3-blocked-pocket",
        include_str!("../../../../fixtures/rules/multi3-blocked-pocket.scenario"),
    ),
    (
        "multi3-fallback",
        include_str!("../../../../fixtures/rules/multi3-fallback.scenario"),
    ),
    (
        "multi3-mixed-run",
        include_str!("../../../../fixtures/rules/multi3-mixed-run.scenario"),
    ),
    (
        "multi3-neutral-not-anchor",
        include_str!("../../../../fixtures/rules/multi3-neutral-not-anchor.scenario"),
    ),
    (
        "multi3-octagon-start",
        include_str!("../../../../fixtures/rules/multi3-octagon-start.scenario"),
    ),
    (
        "multi3-start",
        include_str!("../../../../fixtures/rules/multi3-start.scenario"),
    ),
    (
        "multi3-whole-table-draw",
        include_str!("../../../../fixtures/rules/multi3-whole-table-draw.scenario"),
    ),
    (
        "multi4-10x10-start",
        include_str!("../../../../fixtures/rules/multi4-10x10-start.scenario"),
    ),
    (
        "multi4-anti",
        include_str!("../../../../fixtures/rules/multi4-anti.scenario"),
    ),
    (
        "multi4-end",
        include_str!("../../../../fixtures/rules/multi4-end.scenario"),
    ),
    (
        "mutual-block",
        include_str!("../../../../fixtures/rules/mutual-block.scenario"),
    ),
    (
        "octagon-corners",
        include_str!("../../../../fixtures/rules/octagon-corners.scenario"),
    ),
    (
        "octagon-start",
        include_str!("../../../../fixtures/rules/octagon-start.scenario"),
    ),
    (
        "pass",
        include_str!("../../../../fixtures/rules/pass.scenario"),
    ),
    (
        "raw-scoring-draw",
        include_str!("../../../../fixtures/rules/raw-scoring-draw.scenario"),
    ),
    (
        "rules-strings",
        include_str!("../../../../fixtures/rules/rules-strings.scenario"),
    ),
    (
        "setup-colour-not-playing",
        include_str!("../../../../fixtures/rules/setup-colour-not-playing.scenario"),
    ),
    (
        "setup-disc-on-blocked",
        include_str!("../../../../fixtures/rules/setup-disc-on-blocked.scenario"),
    ),
    (
        "setup-neutral-in-two-player",
        include_str!("../../../../fixtures/rules/setup-neutral-in-two-player.scenario"),
    ),
    (
        "start-10x10",
        include_str!("../../../../fixtures/rules/start-10x10.scenario"),
    ),
    (
        "start-4x4",
        include_str!("../../../../fixtures/rules/start-4x4.scenario"),
    ),
    (
        "start-6x6",
        include_str!("../../../../fixtures/rules/start-6x6.scenario"),
    ),
    (
        "start-8x8",
        include_str!("../../../../fixtures/rules/start-8x8.scenario"),
    ),
    (
        "wof-draw-odd-empty",
        include_str!("../../../../fixtures/rules/wof-draw-odd-empty.scenario"),
    ),
    (
        "wof-draw-split",
        include_str!("../../../../fixtures/rules/wof-draw-split.scenario"),
    ),
    (
        "edge-10x10-run-1",
        include_str!("../../../../fixtures/rules/edge-10x10-run-1.scenario"),
    ),
    (
        "edge-10x10-run-2",
        include_str!("../../../../fixtures/rules/edge-10x10-run-2.scenario"),
    ),
    (
        "edge-10x10-run-3",
        include_str!("../../../../fixtures/rules/edge-10x10-run-3.scenario"),
    ),
    (
        "edge-10x10-run-4",
        include_str!("../../../../fixtures/rules/edge-10x10-run-4.scenario"),
    ),
    (
        "edge-10x10-run-5",
        include_str!("../../../../fixtures/rules/edge-10x10-run-5.scenario"),
    ),
    (
        "edge-10x10-run-6",
        include_str!("../../../../fixtures/rules/edge-10x10-run-6.scenario"),
    ),
    (
        "edge-10x10-run-7",
        include_str!("../../../../fixtures/rules/edge-10x10-run-7.scenario"),
    ),
    (
        "edge-10x10-run-8",
        include_str!("../../../../fixtures/rules/edge-10x10-run-8.scenario"),
    ),
    (
        "edge-octagon-run-1",
        include_str!("../../../../fixtures/rules/edge-octagon-run-1.scenario"),
    ),
    (
        "edge-octagon-run-2",
        include_str!("../../../../fixtures/rules/edge-octagon-run-2.scenario"),
    ),
    (
        "edge-octagon-run-3",
        include_str!("../../../../fixtures/rules/edge-octagon-run-3.scenario"),
    ),
    (
        "edge-octagon-run-4",
        include_str!("../../../../fixtures/rules/edge-octagon-run-4.scenario"),
    ),
    (
        "raw-win-empties",
        include_str!("../../../../fixtures/rules/raw-win-empties.scenario"),
    ),
    (
        "raw-white-wins-empties",
        include_str!("../../../../fixtures/rules/raw-white-wins-empties.scenario"),
    ),
    (
        "wof-white-wins-empties",
        include_str!("../../../../fixtures/rules/wof-white-wins-empties.scenario"),
    ),
    (
        "anti-black-wins-empties",
        include_str!("../../../../fixtures/rules/anti-black-wins-empties.scenario"),
    ),
    (
        "anti-raw-win-empties",
        include_str!("../../../../fixtures/rules/anti-raw-win-empties.scenario"),
    ),
    (
        "anti-draw-empties",
        include_str!("../../../../fixtures/rules/anti-draw-empties.scenario"),
    ),
    (
        "anti-draw-odd-empty",
        include_str!("../../../../fixtures/rules/anti-draw-odd-empty.scenario"),
    ),
    (
        "anti-raw-draw-empties",
        include_str!("../../../../fixtures/rules/anti-raw-draw-empties.scenario"),
    ),
    (
        "classic-ends-with-empties",
        include_str!("../../../../fixtures/rules/classic-ends-with-empties.scenario"),
    ),
    (
        "shorthand-handicap-count",
        include_str!("../../../../fixtures/rules/shorthand-handicap-count.scenario"),
    ),
    (
        "shorthand-forms",
        include_str!("../../../../fixtures/rules/shorthand-forms.scenario"),
    ),
    (
        "shorthand-presets",
        include_str!("../../../../fixtures/rules/shorthand-presets.scenario"),
    ),
    (
        "setup-neutral-in-four-player",
        include_str!("../../../../fixtures/rules/setup-neutral-in-four-player.scenario"),
    ),
    (
        "setup-neutral-in-four-player-octagon",
        include_str!("../../../../fixtures/rules/setup-neutral-in-four-player-octagon.scenario"),
    ),
];

/// `spec/rules.md`, whose worked examples are scenarios.
pub const RULES_SPEC: &str = include_str!("../../../../spec/rules.md");

/// The variants the suite plays random games of: every preset on every board it allows, and
/// every option.
pub const RANDOM_VARIANTS: &[&str] = &[
    "othello:4x4",
    "othello:6x6",
    "othello",
    "othello:10x10",
    "othello:octagon",
    "othello,scoring=raw",
    "othello,blocked=b2+g7",
    "othello:octagon,blocked=e1+f10",
    "othello,handicap=black:a8+h1",
    "othello:10x10,handicap=white:3",
    "anti:6x6",
    "anti",
    "anti:10x10",
    "anti:octagon",
    "free:6x6",
    "free",
    "free:octagon",
    "free,anti",
    "classic",
    "classic,anti",
    "classic,handicap=white:2",
    "multi3",
    "multi3:10x10",
    "multi3:octagon",
    "multi3,anti",
    "multi3,blocked=c3+f6",
    "multi4",
    "multi4:10x10",
    "multi4:octagon",
    "multi4:octagon,anti",
];

/// Random games per variant of [`RANDOM_VARIANTS`].
pub const GAMES_PER_VARIANT: u64 = 2;

/// Combinations of options the suite plays more random games of (one each), beyond
/// [`RANDOM_VARIANTS`]: options together, on the boards where their special cases meet.
pub const COMBINED_VARIANTS: &[&str] = &[
    "othello:4x4,blocked=a1",
    "othello:6x6,handicap=black:2,scoring=raw",
    "anti:4x4",
    "anti,blocked=c3+f6",
    "anti:10x10,handicap=black:4",
    "anti:octagon,blocked=b2+i9,scoring=raw",
    "free:4x4",
    "free:10x10,anti",
    "free,blocked=a1+h8,handicap=white:a8",
    "classic,blocked=a1+h8",
    "classic,anti,handicap=black:1,scoring=raw",
    "multi3:10x10,anti,blocked=a1+j10",
    "multi3:octagon,blocked=e1",
    "multi4,blocked=b2+g7",
    "multi4:10x10,anti",
];

/// The variants the suite sets random positions up under (`spec/rules.md` §9), each
/// played out: every preset, both phases of the free opening, classic supplies given and
/// derived, the neutral disc, blocked squares.
pub const SETUP_VARIANTS: &[&str] = &[
    "othello:4x4",
    "othello:6x6",
    "othello",
    "othello:octagon",
    "othello,blocked=b2+g7",
    "anti:10x10",
    "free:4x4",
    "free",
    "free:octagon,anti",
    "classic",
    "classic,anti",
    "classic,handicap=white:2",
    "multi3",
    "multi3:octagon,blocked=c3",
    "multi4",
    "multi4:10x10,anti",
];

/// Random setups per variant of [`SETUP_VARIANTS`].
pub const SETUPS_PER_VARIANT: u64 = 2;

/// The seed of the random games; changing it changes the suite.
pub const SEED: u64 = 2026;

/// The rules of a suite variant (a variant of the project's own lists).
fn suite_rules(variant: &str) -> Result<Rules, ScenarioError> {
    variant.parse().map_err(|e| {
        ScenarioError::new(
            None,
            super::parse::ErrorKind::BadRules,
            format!("suite variant `{variant}`: {e}"),
        )
    })
}

/// One file of the suite: its path relative to the suite directory (`/`-separated) and its
/// contents.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SuiteFile {
    /// The path inside the suite directory, such as `rules/pass.scenario`.
    pub path: String,
    /// The file's contents.
    pub contents: String,
}

/// splitmix64: small, seeded, the same everywhere.
#[derive(Debug)]
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// A file-name form of a rules string: `othello:octagon,blocked=e1+f10` →
/// `othello-octagon-blocked-e1-f10`.
pub fn slug(rules: &str) -> String {
    rules
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '-' })
        .collect()
}

/// Random legal moves from `pos` to the end, with now and then a move the engine must
/// refuse (marked `!`), as scenario move tokens.
fn play_out(mut pos: Position, rng: &mut Rng) -> Vec<String> {
    let playable: Vec<Square> = pos.rules().playable().iter().collect();
    let mut tokens: Vec<String> = Vec::new();
    // A 10x10 game has at most 96 placements and as many passes; stop well beyond.
    while !pos.is_over() && tokens.len() < 400 {
        // Now and then, a move that must be refused: a square that is not legal, or a pass.
        if rng.below(6) == 0 {
            let wrong = if rng.below(4) == 0 {
                Move::Pass
            } else {
                Move::Place(playable[rng.below(playable.len())])
            };
            let mut trial = pos;
            if trial.play(wrong).is_err() {
                tokens.push(format!("!{wrong}"));
            }
        }
        let legal: Vec<Square> = pos.legal_moves().iter().collect();
        let mv = if legal.is_empty() {
            Move::Pass
        } else {
            Move::Place(legal[rng.below(legal.len())])
        };
        if pos.play(mv).is_err() {
            break;
        }
        tokens.push(mv.to_string());
    }
    tokens
}

/// The `moves:` lines of `tokens`, twelve to a line.
fn moves_lines(tokens: &[String]) -> String {
    let mut text = String::new();
    for chunk in tokens.chunks(12) {
        text.push_str("moves: ");
        text.push_str(&chunk.join(" "));
        text.push('\n');
    }
    text
}

/// A random game of `rules` from `seed` as a scenario: random legal moves to the end, with
/// now and then a move the engine must refuse (marked `!`). The JSON of every move gives
/// what the next side faces (`after`), so every position of the game is in it.
pub fn random_game(rules: Rules, seed: u64, title: &str) -> String {
    let mut rng = Rng(seed);
    let tokens = play_out(Position::new(rules), &mut rng);
    let mut text = format!("# {title}\nrules: {rules}\n");
    text.push_str(&moves_lines(&tokens));
    text
}

/// A random position of `rules` from `seed` (`spec/rules.md` §9), given as a `start:` line,
/// played out as [`random_game`] does: each playable square empty or holding a disc of a
/// player (or the neutral disc with three players), the centre of a free opening often
/// left partly empty (both phases), any side to move, and in classic reversi discs in hand
/// either derived or given. `None` when the drawn setup is refused (the caller draws again).
pub fn random_setup(rules: Rules, seed: u64, title: &str) -> Option<String> {
    let mut rng = Rng(seed);
    let players = rules.players() as usize;
    let fill = 5 + rng.below(45);
    let keep_centre = rng.below(2) == 0;
    let centre: crate::engine::SquareSet = rules.board().centre().into_iter().collect();
    let mut setup = Setup {
        discs: [crate::engine::SquareSet::EMPTY; 4],
        neutral: crate::engine::SquareSet::EMPTY,
        turn: Color::ALL[rng.below(players)],
    };
    for sq in rules.playable().iter() {
        let in_centre = centre.contains(sq);
        let here = if in_centre && keep_centre {
            true
        } else {
            rng.below(100) < fill
        };
        if !here {
            continue;
        }
        let who = rng.below(players + usize::from(players == 3));
        if who == players {
            setup.neutral.insert(sq);
        } else {
            setup.discs[who].insert(sq);
        }
    }
    let hands = (rules.supply().is_some() && rng.below(2) == 0)
        .then(|| [rng.below(33) as u8, rng.below(33) as u8]);
    let pos = Position::from_setup_in_hand(rules, setup, hands).ok()?;
    let tokens = play_out(pos, &mut rng);
    // The key gives the discs in hand; without `hands` the scenario derives them (§9).
    let key = super::json::position_key(&pos);
    let start: Vec<&str> = key
        .split(' ')
        .take(if hands.is_some() { 4 } else { 2 })
        .collect();
    let mut text = format!("# {title}\nrules: {rules}\nstart: {}\n", start.join(" "));
    text.push_str(&moves_lines(&tokens));
    Some(text)
}

/// The section heading above byte `at` of a Markdown text (`## ...` or `### ...`).
fn heading_before(md: &str, at: usize) -> &str {
    md[..at]
        .lines()
        .rev()
        .find(|l| l.starts_with("##"))
        .map_or("", |l| l.trim_start_matches('#').trim())
}

fn with_json(path: String, scenario: String) -> Result<[SuiteFile; 2], ScenarioError> {
    let transcript = Scenario::parse(&scenario)?.run()?;
    let json_path = format!("{}.json", path.trim_end_matches(".scenario"));
    let json = json_text(&transcript.to_json(&path));
    Ok([
        SuiteFile {
            path,
            contents: scenario,
        },
        SuiteFile {
            path: json_path,
            contents: json,
        },
    ])
}

const README: &str = "\
# reversi-record conformance suite

Generated by `reversi scenario --suite DIR`; the same version of reversi-record writes the
same bytes. Every `NAME.scenario` (format: spec/scenario.md) has its expected answer beside
it in `NAME.json` (one scenario object of the JSON transcript).

- `rules/`: one scenario per special case of spec/rules.md (passes, forced placements without
  flips, the neutral disc, blocked squares breaking runs, the free opening, out-of-discs in
  classic, the order of refusals, game ends, scoring, setups and rules strings that are
  refused).
- `spec/`: the worked examples of spec/rules.md, in order.
- `random/`: seeded random games of every variant, and now and then a move that must be
  refused (marked `!`); every position is in the JSON, as the `after` of the move that
  reached it.
- `combined/`: a seeded random game of each of several combinations of options.
- `setups/`: seeded random positions set up under every preset (`start:` lines, both phases
  of the free opening, classic discs in hand given or derived), played out.

`manifest.json` lists every scenario with its expected file and every file with its
content hash (FNV-1a, 64 bits); `scenario.schema.json` is the JSON Schema of a `NAME.json`.

To check an engine: `reversi scenario --engine 'COMMAND'` plays the suite through an engine
speaking the line protocol of spec/engine-protocol.md and reports the first disagreement of
each scenario. By hand: for each scenario, set up the start (`setup` in the JSON gives it in
machine form), play the moves, and compare; an engine passes a scenario when it agrees with every normative fact of its JSON (a path with
`[]` stands for every entry of the list): the `setup` the scenario asks for (board, side to
move, discs in hand in classic reversi, phase) or, when the setup is refused, the kind of the
refusal; each position shown; each move's player, flips, refusal kind and what the next side
faces (`after`); the outcome; the canonical form of each rules string read (`null` when
refused).

Normative facts: `setup.board`, `setup.turn`, `setup.in_hand`, `setup.phase`,
`setup_refusal`, `positions[].key`, `positions[].turn`, `positions[].legal`,
`positions[].flips`, `positions[].board`, `positions[].in_hand`, `positions[].phase`,
`moves[].player`, `moves[].flips`, `moves[].refusal`, `moves[].after.turn`,
`moves[].after.legal`, `moves[].after.flips`, `moves[].after.in_hand`,
`moves[].after.phase`, `moves[].after.key`, `outcome.winner`, `outcome.goal`,
`outcome.discs`, `outcome.neutral`, `outcome.empty`, `outcome.scoring`, `outcome.score`,
`parses[].rules`.

Not normative: `file`, `rules`, `error`, `parses[].input`, `parses[].refused`,
`setup_refused`, `setup.start`, `positions[].after_moves`, `moves[].move`,
`moves[].refused`.

The fields not normative are what the scenario asks (the rules, the setup as a `start:`
line, the moves tried, the strings read), where it comes from, a count (`after_moves`: `key`
is the identity) and our wording.
The manifest gives each scenario's rules, facets (preset, board, players, options) and the
sections of spec/rules.md it exercises, to choose what an engine plays.
`reversi scenario --check DIR/*/*.scenario` checks reversi-record itself.
";

/// The JSON Schema of a transcript entry (`spec/scenario.schema.json`), written into the
/// suite as `scenario.schema.json`.
pub const SCHEMA: &str = include_str!("../../../../spec/scenario.schema.json");

/// The manifest's name in the suite directory.
pub const MANIFEST: &str = "manifest.json";

/// The version of the suite's layout and JSON (the `format` of the manifest). 3: the
/// `combined/` and `setups/` directories; random games no longer `show: every` (each
/// move's `after` carries the position). 4: each scenario of the manifest with its
/// rules, facets and sections.
pub const FORMAT: u32 = 4;

/// FNV-1a, 64 bits, as 16 hex digits: the manifest's content hash (no dependency, the same
/// everywhere; it tells changed files apart, it is no defence against forgery).
///
/// ```
/// use reversi_check::scenario::suite::fnv1a64;
/// assert_eq!(fnv1a64(b""), "cbf29ce484222325");
/// assert_eq!(fnv1a64(b"a"), "af63dc4c8601ec8c");
/// ```
pub fn fnv1a64(bytes: &[u8]) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in bytes {
        hash ^= u64::from(b);
        hash = hash.wrapping_mul(0x0100_0000_01b3);
    }
    format!("{hash:016x}")
}

/// The manifest of the suite's `files` (written last, as `manifest.json`): the version of
/// reversi-record and of the suite's format, every scenario with its expected JSON, its
/// rules, facets (`facets::of`: preset, board, players, options ...) and the sections of
/// `spec/rules.md` it exercises (`facets::sections`), and every file with its content hash. `reversi scenario --suite DIR` reads the manifest it
/// wrote before to remove the files it no longer writes.
pub fn manifest(files: &[SuiteFile]) -> SuiteFile {
    use serde_json::{json, Value};
    let scenarios: Vec<Value> = files
        .iter()
        .filter_map(|f| {
            let stem = f.path.strip_suffix(".scenario")?;
            let expected = format!("{stem}.json");
            let mut entry = json!({"scenario": f.path, "expected": expected});
            let json = files.iter().find(|g| g.path == expected)?;
            let case = super::case::Case::new(&f.path, &f.contents, &json.contents).ok()?;
            let facets: serde_json::Map<String, Value> = case
                .facets
                .iter()
                .map(|(k, v)| ((*k).to_owned(), Value::from(v.as_str())))
                .collect();
            entry["rules"] = json!(case.expected.rules);
            entry["facets"] = Value::Object(facets);
            entry["sections"] = json!(super::facets::sections(&case.expected));
            Some(entry)
        })
        .collect();
    let hashes: Vec<Value> = files
        .iter()
        .map(|f| json!({"path": f.path, "fnv1a64": fnv1a64(f.contents.as_bytes())}))
        .collect();
    let value = json!({
        "suite": "reversi-record conformance suite",
        "version": env!("CARGO_PKG_VERSION"),
        "format": FORMAT,
        "seed": SEED,
        "scenarios": scenarios,
        "files": hashes,
    });
    SuiteFile {
        path: MANIFEST.into(),
        contents: json_text(&value),
    }
}

/// The paths a manifest lists (its `files`), for removing stale files: only relative paths
/// of plain components (no `..`, no root), so a manifest cannot name a file outside the
/// suite. `None` when the text is not a manifest.
pub fn manifest_paths(text: &str) -> Option<Vec<String>> {
    let value: serde_json::Value = serde_json::from_str(text).ok()?;
    let files = value.get("files")?.as_array()?;
    Some(
        files
            .iter()
            .filter_map(|f| f.get("path")?.as_str())
            .filter(|p| {
                !p.is_empty()
                    && p.split('/')
                        .all(|c| !c.is_empty() && c != "." && c != ".." && !c.contains('\\'))
                    && !p.contains(':')
            })
            .map(str::to_owned)
            .collect(),
    )
}

/// Every file of the suite, in a fixed order, the manifest last. Fails only when a
/// scenario of the project itself is broken (the tests keep that from happening).
pub fn files() -> Result<Vec<SuiteFile>, ScenarioError> {
    let mut files = vec![
        SuiteFile {
            path: "README.md".into(),
            contents: README.into(),
        },
        SuiteFile {
            path: "scenario.schema.json".into(),
            contents: SCHEMA.into(),
        },
    ];
    for (name, text) in RULE_SCENARIOS {
        files.extend(with_json(
            format!("rules/{name}.scenario"),
            (*text).to_owned(),
        )?);
    }
    for (i, example) in markdown::examples(RULES_SPEC).iter().enumerate() {
        let text = format!(
            "# spec/rules.md, example {} (line {}, {})\n{}",
            i + 1,
            example.line,
            heading_before(RULES_SPEC, example.offset),
            example.scenario
        );
        files.extend(with_json(
            format!("spec/rules-{:02}.scenario", i + 1),
            text,
        )?);
    }
    for (v, variant) in RANDOM_VARIANTS.iter().enumerate() {
        let rules = suite_rules(variant)?;
        for g in 0..GAMES_PER_VARIANT {
            let seed = SEED.wrapping_mul(1000).wrapping_add(v as u64 * 100 + g);
            let title = format!("Random game {} of {rules} (seed {seed}).", g + 1);
            let text = random_game(rules, seed, &title);
            let path = format!("random/{}-{}.scenario", slug(variant), g + 1);
            files.extend(with_json(path, text)?);
        }
    }
    for (v, variant) in COMBINED_VARIANTS.iter().enumerate() {
        let rules = suite_rules(variant)?;
        let seed = SEED
            .wrapping_mul(1000)
            .wrapping_add(50_000 + v as u64 * 100);
        let title = format!("Random game of {rules} (seed {seed}).");
        let text = random_game(rules, seed, &title);
        let path = format!("combined/{}.scenario", slug(variant));
        files.extend(with_json(path, text)?);
    }
    for (v, variant) in SETUP_VARIANTS.iter().enumerate() {
        let rules = suite_rules(variant)?;
        for g in 0..SETUPS_PER_VARIANT {
            // The first seed from this one whose setup the engine accepts.
            let base = SEED
                .wrapping_mul(1000)
                .wrapping_add(100_000 + v as u64 * 100 + g * 10);
            let Some(text) = (base..base + 10).find_map(|seed| {
                let title = format!(
                    "Random setup {} of {rules} (seed {seed}), played out.",
                    g + 1
                );
                random_setup(rules, seed, &title)
            }) else {
                continue;
            };
            let path = format!("setups/{}-{}.scenario", slug(variant), g + 1);
            files.extend(with_json(path, text)?);
        }
    }
    files.push(manifest(&files));
    Ok(files)
}
