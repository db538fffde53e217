//! Playing a scenario through an engine speaking the engine protocol
//! (`spec/engine-protocol.md`) and comparing every normative fact of its expected JSON
//! (`spec/scenario.md` §8, [`NORMATIVE`](super::NORMATIVE)) with the engine's answers.

use crate::engine::{Rules, Square};

use super::engine::{Engine, EngineError};
use super::json::{JsonOutcome, JsonScenario};
use super::parse::{Scenario, StartGiven, Tried};
use serde_json::{Map, Value};

/// How a scenario came out against an engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Every normative fact agrees.
    Agree,
    /// Not played: the engine does not play the scenario's facet (`players=3`), or the
    /// scenario cannot run.
    Skip(String),
    /// The first fact the engine disagrees on.
    Differ(Box<Disagreement>),
}

/// The first fact of a scenario an engine disagrees on, with the position it happened in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The fact, by its path in the expected JSON (`moves[3].after.legal`).
    pub path: String,
    /// What was being done: `setting up`, `move 4 (white d6)`.
    pub during: String,
    /// The expected value, as text.
    pub expected: String,
    /// The engine's value, as text.
    pub actual: String,
    /// More about the difference (the squares that differ), when there is more to say.
    pub detail: Option<String>,
    /// The position it happened in (the rows of its board, as the JSON draws them) and
    /// who was to move, when known.
    pub position: Option<(Vec<String>, String)>,
    /// The engine's board when it is the board that differs.
    pub engine_board: Option<Vec<String>>,
}

impl Disagreement {
    /// The readable report: the scenario's name, the fact, expected and actual values,
    /// and the position drawn as the text transcript draws it.
    pub fn render(&self, name: &str) -> String {
        let mut out = format!(
            "{name}: the engine disagrees at {}, {}\n  expected: {}\n  engine:   {}\n",
            self.path, self.during, self.expected, self.actual
        );
        if let Some(d) = &self.detail {
            out.push_str(&format!("  {d}\n"));
        }
        if let Some((rows, turn)) = &self.position {
            out.push_str(&format!("  the position ({turn}):\n"));
            out.push_str(&indent(&diagram(rows)));
        }
        if let Some(rows) = &self.engine_board {
            out.push_str("  the engine's board:\n");
            out.push_str(&indent(&diagram(rows)));
        }
        out
    }
}

fn indent(text: &str) -> String {
    text.lines().map(|l| format!("  {l}\n")).collect()
}

/// A board drawn as the text transcript draws it: column letters, then each row with its
/// number, from rows of one character per column (a space off the board).
///
/// ```
/// let rows = ["XO..", "....", "....", "...."].map(String::from);
/// let d = reversi_check::scenario::compare::diagram(&rows);
/// assert!(d.starts_with("   a b c d\n 1 X O . .\n"));
/// ```
pub fn diagram(rows: &[String]) -> String {
    let side = rows.len();
    let pad = if side >= 10 { 3 } else { 2 };
    let mut out = " ".repeat(pad);
    for c in 0..side {
        out.push(' ');
        out.push(char::from(b'a' + (c as u8).min(25)));
    }
    out.push('\n');
    for (r, row) in rows.iter().enumerate() {
        out.push_str(&format!("{:>pad$}", r + 1));
        for ch in row.chars() {
            out.push(' ');
            out.push(ch);
        }
        out.push('\n');
    }
    out
}

/// The facts of a position as the engine gives them.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Facts {
    /// Rows as the JSON draws them (a space off the board).
    board: Vec<String>,
    /// The side to move; `None` when the game is over.
    turn: Option<String>,
    /// The side the key names (the side to move, or after the last mover at the end).
    side: String,
    phase: String,
    hands: Option<[u64; 2]>,
    /// `["--"]` for a pass, empty at the end, else the squares in row-major order.
    legal: Vec<String>,
    /// Each legal placement's flips, squares in row-major order.
    flips: Vec<(String, Vec<String>)>,
}

impl Facts {
    fn key(&self) -> String {
        let rows: Vec<String> = self
            .board
            .iter()
            .map(|r| r.chars().filter(|&c| c != ' ').collect())
            .collect();
        let symbol = crate::engine::Color::ALL
            .into_iter()
            .find(|c| c.name() == self.side)
            .map_or('?', |c| c.symbol());
        let mut key = format!("{} {symbol}", rows.join("/"));
        if let Some([b, w]) = self.hands {
            key.push_str(&format!(" {b} {w}"));
        }
        key
    }

    fn mover(&self) -> String {
        match &self.turn {
            Some(t) => format!("{t} to move"),
            None => "game over".into(),
        }
    }
}

/// A square name's place in row-major order (unknown names last, in their order).
fn order(name: &str) -> (usize, String) {
    match name.parse::<Square>() {
        Ok(sq) => (usize::from(sq.index()), String::new()),
        Err(_) => (usize::MAX, name.to_owned()),
    }
}

fn sorted(mut names: Vec<String>) -> Vec<String> {
    names.sort_by_key(|n| order(n));
    names
}

fn list(names: &[String]) -> String {
    if names.is_empty() {
        "(none)".into()
    } else {
        names.join(" ")
    }
}

fn flips_text(flips: &[(String, Vec<String>)]) -> String {
    if flips.is_empty() {
        return "(none)".into();
    }
    flips
        .iter()
        .map(|(sq, f)| format!("{sq}[{}]", f.join(",")))
        .collect::<Vec<_>>()
        .join(" ")
}

fn json_names(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|s| s.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

fn json_flips(map: &Map<String, Value>) -> Vec<(String, Vec<String>)> {
    let mut flips: Vec<(String, Vec<String>)> = map
        .iter()
        .map(|(k, v)| (k.clone(), sorted(json_names(v))))
        .collect();
    flips.sort_by_key(|(k, _)| order(k));
    flips
}

fn json_hands(map: &Option<Map<String, Value>>) -> Option<[u64; 2]> {
    map.as_ref().map(|m| {
        [
            m.get("black").and_then(Value::as_u64).unwrap_or(0),
            m.get("white").and_then(Value::as_u64).unwrap_or(0),
        ]
    })
}

fn hands_text(h: Option<[u64; 2]>) -> String {
    h.map_or("(none)".into(), |[b, w]| format!("black {b}, white {w}"))
}

/// The expected facts of a position or a move's `after`.
struct Expected<'a> {
    path: String,
    turn: &'a Option<String>,
    legal: &'a [String],
    flips: &'a Map<String, Value>,
    in_hand: &'a Option<Map<String, Value>>,
    phase: &'a str,
    key: &'a str,
    board: Option<&'a [String]>,
}

/// Where the comparison is: what is being done and in which position.
struct Context {
    during: String,
    position: Option<(Vec<String>, String)>,
}

impl Context {
    fn differ(
        &self,
        path: String,
        expected: String,
        actual: String,
        detail: Option<String>,
    ) -> Verdict {
        Verdict::Differ(Box::new(Disagreement {
            path,
            during: self.during.clone(),
            expected,
            actual,
            detail,
            position: self.position.clone(),
            engine_board: None,
        }))
    }
}

/// The squares that differ between two flip lists, for the detail line.
fn flips_detail(
    expected: &[(String, Vec<String>)],
    actual: &[(String, Vec<String>)],
) -> Option<String> {
    let mut parts = Vec::new();
    for (sq, e) in expected {
        match actual.iter().find(|(s, _)| s == sq) {
            None => parts.push(format!("{sq} is legal but the engine does not list it")),
            Some((_, a)) if a != e => {
                parts.push(format!("{sq} flips {} (the engine: {})", list(e), list(a)))
            }
            _ => {}
        }
    }
    for (sq, _) in actual {
        if !expected.iter().any(|(s, _)| s == sq) {
            parts.push(format!("{sq} is not legal but the engine lists it"));
        }
    }
    (!parts.is_empty()).then(|| parts.join("; "))
}

fn compare_state(ctx: &Context, e: &Expected<'_>, f: &Facts) -> Option<Verdict> {
    let p = &e.path;
    if let Some(board) = e.board {
        if board != f.board.as_slice() {
            let mut v = ctx.differ(
                format!("{p}.board"),
                "the board drawn below".into(),
                "the engine's board drawn below".into(),
                None,
            );
            if let Verdict::Differ(d) = &mut v {
                d.position = Some((board.to_vec(), "expected".into()));
                d.engine_board = Some(f.board.clone());
            }
            return Some(v);
        }
    }
    if e.turn != &f.turn {
        let show = |t: &Option<String>| t.clone().unwrap_or_else(|| "null (game over)".into());
        return Some(ctx.differ(format!("{p}.turn"), show(e.turn), show(&f.turn), None));
    }
    let legal = if e.legal == ["--"] {
        e.legal.to_vec()
    } else {
        sorted(e.legal.to_vec())
    };
    let expected_flips = json_flips(e.flips);
    if legal != f.legal {
        let detail = flips_detail(&expected_flips, &f.flips);
        return Some(ctx.differ(format!("{p}.legal"), list(&legal), list(&f.legal), detail));
    }
    if expected_flips != f.flips {
        return Some(ctx.differ(
            format!("{p}.flips"),
            flips_text(&expected_flips),
            flips_text(&f.flips),
            flips_detail(&expected_flips, &f.flips),
        ));
    }
    let hands = json_hands(e.in_hand);
    if hands.is_some() && hands != f.hands {
        return Some(ctx.differ(
            format!("{p}.in_hand"),
            hands_text(hands),
            hands_text(f.hands),
            None,
        ));
    }
    if e.phase != f.phase {
        return Some(ctx.differ(
            format!("{p}.phase"),
            e.phase.to_owned(),
            f.phase.clone(),
            None,
        ));
    }
    let key = f.key();
    if e.key != key {
        let mut v = ctx.differ(format!("{p}.key"), e.key.to_owned(), key, None);
        if let Verdict::Differ(d) = &mut v {
            d.engine_board = Some(f.board.clone());
        }
        return Some(v);
    }
    None
}

/// A protocol answer the runner cannot read: a disagreement of its own kind.
fn bad_answer(ctx: &Context, command: &str, answer: &str, why: &str) -> Verdict {
    ctx.differ(
        format!("(the answer to `{command}`)"),
        why.to_owned(),
        format!("`{answer}`"),
        None,
    )
}

/// The answer to `command`, its first word `word` stripped; a `Verdict` when the engine
/// answers otherwise (`error ...` or anything else).
fn ask_for(
    engine: &mut Engine,
    ctx: &Context,
    command: &str,
    words: &[&str],
) -> Result<Result<(String, String), Verdict>, EngineError> {
    let answer = engine.ask(command)?;
    let (word, rest) = answer.split_once(' ').unwrap_or((&answer, ""));
    if words.contains(&word) {
        Ok(Ok((word.to_owned(), rest.trim().to_owned())))
    } else {
        let wanted: Vec<String> = words.iter().map(|w| format!("`{w} ...`")).collect();
        Ok(Err(bad_answer(ctx, command, &answer, &wanted.join(" or "))))
    }
}

/// The value of an answer, or returns the verdict (wrapped by `$wrap` when given).
macro_rules! answer {
    ($e:expr) => {
        match $e? {
            Ok(v) => v,
            Err(verdict) => return Ok(verdict),
        }
    };
    ($e:expr, $wrap:path) => {
        match $e? {
            Ok(v) => v,
            Err(verdict) => return Ok($wrap(verdict)),
        }
    };
}

/// Asks the engine for every fact of its position.
fn facts(
    engine: &mut Engine,
    ctx: &Context,
    rules: &Rules,
) -> Result<Result<Facts, Verdict>, EngineError> {
    let (_, board) = answer!(ask_for(engine, ctx, "board", &["board"]), Err);
    let rows: Vec<String> = board.split('/').map(|r| r.replace('-', " ")).collect();
    let side = usize::from(rules.board().side());
    if rows.len() != side || rows.iter().any(|r| r.chars().count() != side) {
        return Ok(Err(bad_answer(
            ctx,
            "board",
            &board,
            &format!("{side} rows of {side} characters joined by `/`"),
        )));
    }
    let (word, who) = answer!(ask_for(engine, ctx, "turn", &["turn", "over"]), Err);
    let (_, phase) = answer!(ask_for(engine, ctx, "phase", &["phase"]), Err);
    let hands = if rules.supply().is_some() {
        let (_, h) = answer!(ask_for(engine, ctx, "hands", &["hands"]), Err);
        let n: Vec<u64> = h
            .split_whitespace()
            .filter_map(|w| w.parse().ok())
            .collect();
        match n.as_slice() {
            [b, w] => Some([*b, *w]),
            _ => return Ok(Err(bad_answer(ctx, "hands", &h, "`hands BLACK WHITE`"))),
        }
    } else {
        None
    };
    let (_, legal) = answer!(ask_for(engine, ctx, "legal", &["legal"]), Err);
    let mut squares = Vec::new();
    let mut flips = Vec::new();
    for item in legal.split_whitespace() {
        if item == "--" {
            squares.push(item.to_owned());
            continue;
        }
        let (sq, f) = item.split_once(':').unwrap_or((item, ""));
        let f: Vec<String> = f
            .split(',')
            .filter(|s| !s.is_empty())
            .map(|s| s.to_ascii_lowercase())
            .collect();
        squares.push(sq.to_ascii_lowercase());
        flips.push((sq.to_ascii_lowercase(), sorted(f)));
    }
    flips.sort_by_key(|(k, _)| order(k));
    let over = word == "over";
    Ok(Ok(Facts {
        board: rows,
        turn: (!over).then(|| who.clone()),
        side: who,
        phase,
        hands,
        legal: if squares == ["--"] {
            squares
        } else {
            sorted(squares)
        },
        flips,
    }))
}

/// The protocol's `rules` command for `rules`: the canonical string, then each facet.
pub fn rules_command(rules: &Rules) -> String {
    let mut line = format!("rules {rules}");
    for (name, value) in super::facets::of(Some(rules), false, false)
        .into_iter()
        .filter(|(n, _)| !matches!(*n, "parse" | "setup" | "blocked" | "handicap"))
    {
        line.push_str(&format!(" {name}={value}"));
    }
    let blocked: Vec<String> = rules.blocked().iter().map(|s| s.to_string()).collect();
    line.push_str(&format!(
        " blocked={}",
        if blocked.is_empty() {
            "-".into()
        } else {
            blocked.join("+")
        }
    ));
    match rules.handicap() {
        Some(h) => {
            let squares: Vec<String> = h.squares.iter().map(|s| s.to_string()).collect();
            line.push_str(&format!(" handicap={}:{}", h.color, squares.join("+")));
        }
        None => line.push_str(" handicap=-"),
    }
    line
}

/// Plays `scenario` through `engine` and compares every normative fact of `expected` (the
/// scenario's expected JSON); the first fact that differs is the verdict. An engine that
/// cannot be talked to (a timeout, an exit) is an error: the run cannot go on with it.
pub fn check(
    engine: &mut Engine,
    scenario: &Scenario,
    expected: &JsonScenario,
) -> Result<Verdict, EngineError> {
    if let Some(e) = &expected.error {
        return Ok(Verdict::Skip(format!(
            "the scenario cannot run: {}",
            e.message
        )));
    }
    let mut ctx = Context {
        during: "reading rules strings".into(),
        position: None,
    };
    for (i, p) in expected.parses.iter().enumerate() {
        ctx.during = format!("parsing `{}`", p.input);
        let command = format!("parse {}", p.input);
        let (word, rest) = answer!(ask_for(engine, &ctx, &command, &["rules", "refused"]));
        let actual = (word == "rules").then_some(rest);
        if actual != p.rules {
            let show = |r: &Option<String>| r.clone().unwrap_or_else(|| "null (refused)".into());
            return Ok(ctx.differ(
                format!("parses[{i}].rules"),
                show(&p.rules),
                show(&actual),
                None,
            ));
        }
    }
    let Some(rules_text) = &expected.rules else {
        return Ok(Verdict::Agree);
    };
    let Ok(rules) = rules_text.parse::<Rules>() else {
        return Ok(Verdict::Skip(format!("rules `{rules_text}` are not ours")));
    };
    let Some(setup) = &expected.setup else {
        return Ok(Verdict::Skip("the expected JSON has no setup".into()));
    };
    ctx.during = "setting up".into();
    ctx.position = Some((setup.board.clone(), format!("{} to move", setup.turn)));
    answer!(ask_for(engine, &ctx, &rules_command(&rules), &["ok"]));
    let refusal = if scenario.start == StartGiven::Rules {
        answer!(ask_for(engine, &ctx, "start", &["ok"]));
        None
    } else {
        let board: Vec<String> = setup.board.iter().map(|r| r.replace(' ', "-")).collect();
        let mut command = format!("setup {} {}", board.join("/"), setup.turn);
        if let (StartGiven::Line { text, .. }, Some(_)) = (&scenario.start, rules.supply()) {
            if let [_, _, b, w] = text.split_whitespace().collect::<Vec<_>>().as_slice() {
                command.push_str(&format!(" {b} {w}"));
            }
        }
        let (word, rest) = answer!(ask_for(engine, &ctx, &command, &["ok", "refused"]));
        (word == "refused").then_some(rest)
    };
    if refusal != expected.setup_refusal {
        let show = |r: &Option<String>| r.clone().unwrap_or_else(|| "accepted".into());
        return Ok(ctx.differ(
            "setup_refusal".into(),
            show(&expected.setup_refusal),
            show(&refusal),
            None,
        ));
    }
    if refusal.is_some() {
        return Ok(Verdict::Agree);
    }
    let mut now = answer!(facts(engine, &ctx, &rules));
    if let Some(v) = compare_setup(&ctx, setup, &now) {
        return Ok(v);
    }
    let mut shown = 0;
    let position = |i: usize, ctx: &Context, now: &Facts| -> Option<Verdict> {
        let Some(p) = expected.positions.get(i) else {
            return Some(ctx.differ(
                format!("positions[{i}]"),
                "(no such position in the expected JSON)".into(),
                "a position".into(),
                None,
            ));
        };
        let e = Expected {
            path: format!("positions[{i}]"),
            turn: &p.turn,
            legal: &p.legal,
            flips: &p.flips,
            in_hand: &p.in_hand,
            phase: &p.phase,
            key: &p.key,
            board: Some(&p.board),
        };
        compare_state(ctx, &e, now)
    };
    ctx.during = "before the first move".into();
    ctx.position = Some((now.board.clone(), now.mover()));
    if scenario.quiet == 0 {
        if let Some(v) = position(shown, &ctx, &now) {
            return Ok(v);
        }
        shown += 1;
    }
    for (i, (m, jm)) in scenario.moves.iter().zip(&expected.moves).enumerate() {
        ctx.during = format!("move {} ({} {})", i + 1, now.side, m.mv);
        ctx.position = Some((
            now.board.clone(),
            format!("before the move, {}", now.mover()),
        ));
        let path = format!("moves[{i}]");
        if jm.player != now.side {
            return Ok(ctx.differ(
                format!("{path}.player"),
                jm.player.clone(),
                now.side.clone(),
                None,
            ));
        }
        let command = format!("play {}", token(m.mv));
        let (word, rest) = answer!(ask_for(engine, &ctx, &command, &["played", "refused"]));
        let kind = (word == "refused").then(|| rest.clone());
        if kind != jm.refusal {
            let show = |k: &Option<String>| k.clone().unwrap_or_else(|| "played".into());
            return Ok(ctx.differ(
                format!("{path}.refusal"),
                show(&jm.refusal),
                show(&kind),
                None,
            ));
        }
        if kind.is_none() {
            let after = answer!(played(engine, &mut ctx, &rules, &rest, jm, &path));
            now = after;
            if scenario.show_every && i >= scenario.quiet {
                ctx.position = Some((now.board.clone(), now.mover()));
                if let Some(v) = position(shown, &ctx, &now) {
                    return Ok(v);
                }
                shown += 1;
            }
        }
        if i + 1 == scenario.quiet {
            ctx.position = Some((now.board.clone(), now.mover()));
            if let Some(v) = position(shown, &ctx, &now) {
                return Ok(v);
            }
            shown += 1;
        }
    }
    if !scenario.show_every && scenario.moves.len() > scenario.quiet {
        ctx.during = "after the last move".into();
        ctx.position = Some((now.board.clone(), now.mover()));
        if let Some(v) = position(shown, &ctx, &now) {
            return Ok(v);
        }
    }
    ctx.during = "at the end".into();
    let (_, rest) = answer!(ask_for(engine, &ctx, "outcome", &["outcome"]));
    let actual = read_outcome(&rest, &rules);
    match (&expected.outcome, actual) {
        (None, Ok(None)) => Ok(Verdict::Agree),
        (Some(e), Ok(Some(a))) => Ok(compare_outcome(&ctx, e, &a).unwrap_or(Verdict::Agree)),
        (e, Ok(a)) => {
            let show = |o: bool| {
                if o {
                    "game over"
                } else {
                    "null (the game goes on)"
                }
            };
            Ok(ctx.differ(
                "outcome".into(),
                show(e.is_some()).into(),
                show(a.is_some()).into(),
                None,
            ))
        }
        (_, Err(why)) => Ok(bad_answer(&ctx, "outcome", &rest, &why)),
    }
}

/// The flips of a played move and what the next side faces, compared with the move's
/// expected JSON; the facts of the new position.
fn played(
    engine: &mut Engine,
    ctx: &mut Context,
    rules: &Rules,
    answer: &str,
    jm: &super::json::JsonMove,
    path: &str,
) -> Result<Result<Facts, Verdict>, EngineError> {
    let flips = sorted(
        answer
            .split_whitespace()
            .map(str::to_ascii_lowercase)
            .collect(),
    );
    if flips != sorted(jm.flips.clone()) {
        return Ok(Err(ctx.differ(
            format!("{path}.flips"),
            list(&jm.flips),
            list(&flips),
            None,
        )));
    }
    let after = match facts(engine, ctx, rules)? {
        Ok(f) => f,
        Err(v) => return Ok(Err(v)),
    };
    if let Some(a) = &jm.after {
        let e = Expected {
            path: format!("{path}.after"),
            turn: &a.turn,
            legal: &a.legal,
            flips: &a.flips,
            in_hand: &a.in_hand,
            phase: &a.phase,
            key: &a.key,
            board: None,
        };
        ctx.during = format!("after {}", ctx.during);
        if let Some(v) = compare_state(ctx, &e, &after) {
            return Ok(Err(v));
        }
    }
    Ok(Ok(after))
}

/// The setup's facts: its board, side to move, discs in hand and phase.
fn compare_setup(ctx: &Context, setup: &super::json::JsonSetup, f: &Facts) -> Option<Verdict> {
    if setup.board != f.board {
        let mut v = ctx.differ(
            "setup.board".into(),
            "the board drawn below".into(),
            "the engine's board drawn below".into(),
            None,
        );
        if let Verdict::Differ(d) = &mut v {
            d.position = Some((setup.board.clone(), "expected".into()));
            d.engine_board = Some(f.board.clone());
        }
        return Some(v);
    }
    if setup.turn != f.side {
        return Some(ctx.differ(
            "setup.turn".into(),
            setup.turn.clone(),
            f.side.clone(),
            None,
        ));
    }
    let hands = json_hands(&setup.in_hand);
    if hands.is_some() && hands != f.hands {
        return Some(ctx.differ(
            "setup.in_hand".into(),
            hands_text(hands),
            hands_text(f.hands),
            None,
        ));
    }
    (setup.phase != f.phase).then(|| {
        ctx.differ(
            "setup.phase".into(),
            setup.phase.clone(),
            f.phase.clone(),
            None,
        )
    })
}

/// A move as the protocol's `play` writes it.
fn token(mv: Tried) -> String {
    mv.to_string()
}

/// The outcome an engine gives: `none`, or `winner=... goal=... scoring=... empty=N
/// neutral=N discs=N,N... score=N,N...`.
fn read_outcome(text: &str, rules: &Rules) -> Result<Option<JsonOutcome>, String> {
    if text.trim() == "none" {
        return Ok(None);
    }
    let wanted = "`none` or `winner=COLOUR|none goal=most|fewest scoring=wof|raw empty=N neutral=N discs=N,... score=N,...`";
    let mut fields = std::collections::HashMap::new();
    for word in text.split_whitespace() {
        let (k, v) = word.split_once('=').ok_or_else(|| wanted.to_owned())?;
        fields.insert(k, v);
    }
    let get = |k: &str| fields.get(k).copied().ok_or_else(|| wanted.to_owned());
    let number = |k: &str| -> Result<u8, String> { get(k)?.parse().map_err(|_| wanted.to_owned()) };
    let per_colour = |k: &str| -> Result<Map<String, Value>, String> {
        let values: Vec<u64> = get(k)?
            .split(',')
            .map(|n| n.parse().map_err(|_| wanted.to_owned()))
            .collect::<Result<_, _>>()?;
        if values.len() != rules.colors().len() {
            return Err(format!("{k}: one number per player ({wanted})"));
        }
        Ok(rules
            .colors()
            .iter()
            .zip(values)
            .map(|(c, n)| (c.to_string(), Value::from(n)))
            .collect())
    };
    let winner = get("winner")?;
    Ok(Some(JsonOutcome {
        winner: (winner != "none").then(|| winner.to_owned()),
        goal: get("goal")?.to_owned(),
        discs: per_colour("discs")?,
        neutral: number("neutral")?,
        empty: number("empty")?,
        scoring: get("scoring")?.to_owned(),
        score: per_colour("score")?,
    }))
}

fn compare_outcome(ctx: &Context, e: &JsonOutcome, a: &JsonOutcome) -> Option<Verdict> {
    let show_map = |m: &Map<String, Value>| {
        m.iter()
            .map(|(k, v)| format!("{k} {v}"))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let show = |o: &Option<String>| o.clone().unwrap_or_else(|| "null (a draw)".into());
    let diffs = [
        ("winner", show(&e.winner), show(&a.winner)),
        ("goal", e.goal.clone(), a.goal.clone()),
        ("discs", show_map(&e.discs), show_map(&a.discs)),
        ("neutral", e.neutral.to_string(), a.neutral.to_string()),
        ("empty", e.empty.to_string(), a.empty.to_string()),
        ("scoring", e.scoring.clone(), a.scoring.clone()),
        ("score", show_map(&e.score), show_map(&a.score)),
    ];
    diffs
        .into_iter()
        .find(|(_, x, y)| x != y)
        .map(|(field, x, y)| ctx.differ(format!("outcome.{field}"), x, y, None))
}
