//! The reference adapter: the library's own engine speaking the engine protocol
//! (`spec/engine-protocol.md`) on a pair of streams (`reversi scenario --serve-engine`
//! on standard input and output).

use std::io::{self, BufRead, Write};

use crate::engine::{Color, Position, Rules, Setup, Square, SquareSet};

use super::engine::PROTOCOL;
use super::parse::{read_tried, Tried};

/// What the adapter holds between commands.
#[derive(Default)]
struct Session {
    rules: Option<Rules>,
    position: Option<Position>,
}

fn names(set: SquareSet) -> String {
    set.iter()
        .map(|sq| sq.to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads the protocol's board (`ROWS` joined by `/`; `X O R G N` discs, `.`, `#` and `-`
/// no disc) and side to move into a setup.
fn read_setup(rules: &Rules, board: &str, turn: &str) -> Result<Setup, String> {
    let side = usize::from(rules.board().side());
    let rows: Vec<&str> = board.split('/').collect();
    if rows.len() != side {
        return Err(format!("the board has {} rows, not {side}", rows.len()));
    }
    let turn = Color::ALL
        .into_iter()
        .find(|c| c.name() == turn)
        .ok_or_else(|| format!("`{turn}` is not a colour"))?;
    let mut setup = Setup {
        discs: [SquareSet::EMPTY; 4],
        neutral: SquareSet::EMPTY,
        turn,
    };
    for (r, row) in rows.iter().enumerate() {
        if row.chars().count() != side {
            return Err(format!("row {} does not have {side} squares", r + 1));
        }
        for (c, ch) in row.chars().enumerate() {
            let Some(sq) = Square::new(c as u8, r as u8) else {
                return Err(format!("row {} is off the grid", r + 1));
            };
            match ch {
                '.' | '#' | '-' => {}
                'N' => setup.neutral.insert(sq),
                _ => {
                    let color = Color::ALL
                        .into_iter()
                        .find(|col| col.symbol() == ch)
                        .ok_or_else(|| format!("`{ch}` is not a square's character"))?;
                    setup.discs[color.index()].insert(sq);
                }
            }
        }
    }
    Ok(setup)
}

fn board_line(pos: &Position) -> String {
    let n = pos.rules().board().side();
    let rows: Vec<String> = (0..n)
        .map(|r| {
            (0..n)
                .map(|c| {
                    Square::new(c, r)
                        .filter(|sq| pos.rules().board().contains(*sq))
                        .map_or('-', |sq| pos.cell(sq).symbol())
                })
                .collect()
        })
        .collect();
    format!("board {}", rows.join("/"))
}

fn legal_line(pos: &Position) -> String {
    if pos.is_over() {
        return "legal".into();
    }
    if pos.must_pass() {
        return "legal --".into();
    }
    let items: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|sq| {
            let flips = pos.flips(sq).unwrap_or(SquareSet::EMPTY);
            let f: Vec<String> = flips.iter().map(|s| s.to_string()).collect();
            format!("{sq}:{}", f.join(","))
        })
        .collect();
    format!("legal {}", items.join(" "))
}

fn outcome_line(pos: &Position) -> String {
    if !pos.is_over() {
        return "outcome none".into();
    }
    let o = pos.counts_outcome();
    let rules = pos.rules();
    let per = |v: [u8; 4]| {
        rules
            .colors()
            .iter()
            .map(|c| v[c.index()].to_string())
            .collect::<Vec<_>>()
            .join(",")
    };
    format!(
        "outcome winner={} goal={} scoring={} empty={} neutral={} discs={} score={}",
        o.winner.map_or("none".into(), |c| c.to_string()),
        if rules.is_anti() { "fewest" } else { "most" },
        rules.scoring().name(),
        o.empty,
        o.neutral,
        per(o.discs),
        per(o.score),
    )
}

impl Session {
    /// The answer to one command; `None` for `quit`.
    fn answer(&mut self, line: &str) -> Option<String> {
        let line = line.trim();
        let (word, rest) = line.split_once(' ').unwrap_or((line, ""));
        let rest = rest.trim();
        Some(match word {
            "quit" => return None,
            "protocol" => format!(
                "name reversi-record {}\nready {PROTOCOL}",
                env!("CARGO_PKG_VERSION")
            ),
            "parse" => match rest.parse::<Rules>() {
                Ok(r) => format!("rules {r}"),
                Err(_) => "refused".into(),
            },
            "rules" => {
                let name = rest.split_whitespace().next().unwrap_or("");
                match name.parse::<Rules>() {
                    Ok(r) => {
                        self.rules = Some(r);
                        self.position = None;
                        "ok".into()
                    }
                    Err(e) => format!("error rules `{name}`: {e}"),
                }
            }
            _ => match self.rules {
                None => "error no rules yet (`rules ...` first)".into(),
                Some(rules) => self.with_rules(rules, word, rest),
            },
        })
    }

    fn with_rules(&mut self, rules: Rules, word: &str, rest: &str) -> String {
        match word {
            "start" => {
                self.position = Some(Position::new(rules));
                return "ok".into();
            }
            "setup" => {
                let words: Vec<&str> = rest.split_whitespace().collect();
                let (board, turn, hands) = match words.as_slice() {
                    [b, t] => (*b, *t, None),
                    [b, t, x, o] => match (x.parse(), o.parse()) {
                        (Ok(x), Ok(o)) => (*b, *t, Some([x, o])),
                        _ => return "error discs in hand are two numbers".into(),
                    },
                    _ => return "error `setup BOARD TURN [BLACK WHITE]`".into(),
                };
                let setup = match read_setup(&rules, board, turn) {
                    Ok(s) => s,
                    Err(e) => return format!("error {e}"),
                };
                let hands = hands.filter(|_| rules.supply().is_some());
                return match Position::from_setup_in_hand(rules, setup, hands) {
                    Ok(pos) => {
                        self.position = Some(pos);
                        "ok".into()
                    }
                    Err(e) => {
                        self.position = None;
                        format!("refused {}", e.kind())
                    }
                };
            }
            _ => {}
        }
        let Some(pos) = &mut self.position else {
            return "error no position yet (`start` or `setup ...` first)".into();
        };
        match word {
            "play" => match read_tried(rest) {
                None => format!("error `{rest}` is not a move"),
                Some(Tried::OffGrid { .. }) => "refused OffBoard".into(),
                Some(Tried::Move(mv)) => match pos.play_with_flips(mv) {
                    Ok(flips) if flips.is_empty() => "played".into(),
                    Ok(flips) => format!("played {}", names(flips)),
                    Err(e) => format!("refused {e:?}"),
                },
            },
            "board" => board_line(pos),
            "turn" if pos.is_over() => format!("over {}", pos.turn()),
            "turn" => format!("turn {}", pos.turn()),
            "phase" => format!("phase {}", pos.phase()),
            "hands" => match rules.supply() {
                Some(_) => {
                    let n = |c| pos.in_hand(c).unwrap_or(0);
                    format!("hands {} {}", n(Color::Black), n(Color::White))
                }
                None => "hands -".into(),
            },
            "legal" => legal_line(pos),
            "outcome" => outcome_line(pos),
            _ => format!("error unknown command `{word}`"),
        }
    }
}

/// Serves the engine protocol with the library's engine: reads commands from `input`,
/// writes one answer line to `output` for each (the handshake's two), until `quit` or the
/// end of the input.
///
/// ```
/// let input = "protocol 1\nrules othello:4x4\nstart\nplay b1\nturn\nquit\n";
/// let mut out = Vec::new();
/// reversi_check::scenario::serve::serve(input.as_bytes(), &mut out).unwrap();
/// let out = String::from_utf8(out).unwrap();
/// assert!(out.ends_with("ready 1\nok\nok\nplayed b2\nturn white\n"), "{out}");
/// ```
pub fn serve(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    let mut session = Session::default();
    for line in input.lines() {
        let line = line?;
        if line.trim().is_empty() {
            continue;
        }
        let Some(answer) = session.answer(&line) else {
            break;
        };
        writeln!(output, "{answer}")?;
        output.flush()?;
    }
    Ok(())
}
