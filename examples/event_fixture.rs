//! Makes `fixtures/event/`: a 40-player, 7-round Swiss event built from real finished games
//! of `data/wthor/WTH_2004.wtb`, written as round sheets in mixed formats, with
//! the true schedule (`pairings.csv`), the true results (`results.csv`) and planted
//! problems for the cross-game checks (listed in the README it writes).
//!
//! `cargo run --example event_fixture -- data/wthor/WTH_2004.wtb fixtures/event`
//!
//! Everything is deterministic: running it again writes the same files.

use std::collections::HashSet;
use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;

use reversi_check::validate::{validate_record, with_explicit_passes};
use reversi_engine::{Move, Rules, Square};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record};
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteOptions};
use reversi_runs::pipeline::Input;

const EVENT: &str = "Tagus Autumn Open 2026";
const ROUNDS: usize = 7;
const BOARDS: usize = 20;

const NAMES: [&str; 40] = [
    "Aiko Tanaka",
    "Bruno Costa",
    "Camille Roux",
    "Dmitri Volkov",
    "Elena Marquez",
    "Finn Olsen",
    "Greta Lindqvist",
    "Hiro Sato",
    "Ines Duarte",
    "Jonas Weber",
    "Kasia Nowak",
    "Luca Bianchi",
    "Maya Cohen",
    "Nils Berg",
    "Olga Petrova",
    "Pedro Alves",
    "Quentin Moreau",
    "Rosa Ferreira",
    "Sven Larsen",
    "Tomoko Ito",
    "Ugo Rinaldi",
    "Vera Horvath",
    "Wim de Vries",
    "Xavier Ruiz",
    "Yusuf Demir",
    "Zofia Kowalska",
    "Anders Holm",
    "Beatriz Lopes",
    "Chen Wei",
    "Dana Novak",
    "Emil Fischer",
    "Farah Haddad",
    "Gustavo Pinto",
    "Hanna Virtanen",
    "Ivan Petrov",
    "Julia Santos",
    "Kenji Mori",
    "Lea Hoffmann",
    "Marco Gallo",
    "Nora Jensen",
];

/// A real finished game: its moves and its final score (empties to the winner).
#[derive(Clone)]
struct RealGame {
    moves: Vec<Move>,
    score: [u8; 2],
    /// Its index in the WTHOR file.
    source: usize,
}

/// One board of the true schedule.
struct Board {
    round: usize,
    board: usize,
    black: usize,
    white: usize,
    game: RealGame,
}

fn real_games(path: &str, wanted: usize) -> Result<Vec<RealGame>, Box<dyn Error>> {
    let input = Input::open(path)?;
    let mut seen = HashSet::new();
    let mut out = Vec::new();
    for game in input.format.read(input.reader, &input.options) {
        let game = game?;
        let Some(record) = &game.record else { continue };
        let report = validate_record(record, game.index);
        let Some(outcome) = report.outcome else {
            continue;
        };
        // WTHOR leaves passes out; the sheets write them.
        let explicit = with_explicit_passes(record);
        let moves: Vec<Move> = explicit.moves.iter().map(|m| m.mv).collect();
        let standard = record.rules == Rules::default() && record.start.is_none();
        if report.errors() > 0 || !standard || !seen.insert(moves.clone()) {
            continue;
        }
        out.push(RealGame {
            moves,
            score: [outcome.score[0], outcome.score[1]],
            source: game.index,
        });
        if out.len() == wanted {
            return Ok(out);
        }
    }
    Err(format!("{path} has fewer than {wanted} finished legal 8x8 games").into())
}

/// Pairs `order` (players, best first) so that no two meet again, by depth-first search.
fn pair(order: &[usize], met: &HashSet<(usize, usize)>) -> Option<Vec<(usize, usize)>> {
    let Some((&first, rest)) = order.split_first() else {
        return Some(Vec::new());
    };
    for (i, &other) in rest.iter().enumerate() {
        if met.contains(&key(first, other)) {
            continue;
        }
        let mut left = rest.to_vec();
        left.remove(i);
        if let Some(mut pairs) = pair(&left, met) {
            pairs.insert(0, (first, other));
            return Some(pairs);
        }
    }
    None
}

fn key(a: usize, b: usize) -> (usize, usize) {
    (a.min(b), a.max(b))
}

/// The Swiss schedule: by points, no repeats, except one pairing of round 1 played again
/// in the last round (a planted problem).
fn schedule(games: &[RealGame]) -> Result<Vec<Board>, Box<dyn Error>> {
    let mut halves = [0u32; 40];
    let mut blacks = [0u32; 40];
    let mut met = HashSet::new();
    let mut boards: Vec<Board> = Vec::new();
    let mut next_game = games.iter();
    for round in 1..=ROUNDS {
        let mut order: Vec<usize> = (0..40).collect();
        order.sort_by_key(|&p| (std::cmp::Reverse(halves[p]), p));
        let mut pairs = Vec::new();
        if round == ROUNDS {
            // Round 1, board 6 is played again.
            let again = boards
                .iter()
                .find(|b| b.round == 1 && b.board == 6)
                .ok_or("no round 1 board 6")?;
            let (a, b) = (again.black, again.white);
            pairs.push((a, b));
            order.retain(|&p| p != a && p != b);
        }
        pairs.extend(pair(&order, &met).ok_or("no pairing without repeats")?);
        for (i, (a, b)) in pairs.into_iter().enumerate() {
            let (black, white) = if blacks[a] <= blacks[b] {
                (a, b)
            } else {
                (b, a)
            };
            let game = next_game.next().ok_or("too few games")?.clone();
            blacks[black] += 1;
            match game.score[0].cmp(&game.score[1]) {
                std::cmp::Ordering::Greater => halves[black] += 2,
                std::cmp::Ordering::Less => halves[white] += 2,
                std::cmp::Ordering::Equal => {
                    halves[black] += 1;
                    halves[white] += 1;
                }
            }
            met.insert(key(black, white));
            boards.push(Board {
                round,
                board: i + 1,
                black,
                white,
                game,
            });
        }
    }
    Ok(boards)
}

/// The square `sq` rotated half a turn (f5 to c4): the start position maps to itself.
fn rotated(sq: Square) -> Result<Square, Box<dyn Error>> {
    let name = sq.name();
    let mut chars = name.chars();
    let (col, row) = (chars.next().ok_or("square")?, chars.as_str());
    let col = (b'a' + (b'h' - col as u8)) as char;
    let row: u8 = row.parse()?;
    Ok(format!("{col}{}", 9 - row).parse()?)
}

fn record(round: &str, board: Option<&str>, black: &str, white: &str, game: &RealGame) -> Record {
    let mut r = Record::new(Rules::default());
    r.set_tag("Event", EVENT);
    r.set_tag("Date", "2026.10.03");
    r.set_tag("Round", round);
    if let Some(board) = board {
        r.set_tag("Board", board);
    }
    r.set_tag("Black", black);
    r.set_tag("White", white);
    r.moves = game.moves.iter().map(|&m| MoveRecord::new(m)).collect();
    r.result = Some(ClaimedResult::discs(game.score.to_vec()));
    r
}

/// A round's sheet: its records and the format it is written in.
struct Sheet {
    file: &'static str,
    format: Format,
    records: Vec<Record>,
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wthor, out] = args.as_slice() else {
        return Err("usage: event_fixture WTHOR.wtb OUT_DIR".into());
    };
    let games = real_games(wthor, ROUNDS * BOARDS)?;
    let boards = schedule(&games)?;
    let out = Path::new(out);
    std::fs::create_dir_all(out)?;

    let mut pairings = String::from("round,board,black,white\n");
    let mut results = String::from("round,board,black,white,black_discs,white_discs\n");
    for b in &boards {
        let (bn, wn) = (NAMES[b.black], NAMES[b.white]);
        let _ = writeln!(pairings, "{},{},{bn},{wn}", b.round, b.board);
        let [bd, wd] = b.game.score;
        let _ = writeln!(results, "{},{},{bn},{wn},{bd},{wd}", b.round, b.board);
    }
    std::fs::write(out.join("pairings.csv"), pairings)?;
    std::fs::write(out.join("results.csv"), results)?;

    let formats: [(&'static str, Format); ROUNDS] = [
        ("round1.rgn", Format::Rgn),
        ("round2.rgn", Format::Rgn),
        ("round3.pgn", Format::Pgn(PgnDialect::Edax)),
        ("round4.pgn", Format::Pgn(PgnDialect::Edax)),
        ("round5.json", Format::Json),
        ("round6.pgn", Format::Pgn(PgnDialect::PlayOk)),
        ("round7.rgn", Format::Rgn),
    ];
    let mut sheets: Vec<Sheet> = formats
        .iter()
        .enumerate()
        .map(|(i, &(file, format))| {
            let round = (i + 1).to_string();
            let records = boards
                .iter()
                .filter(|b| b.round == i + 1)
                .map(|b| {
                    let board = b.board.to_string();
                    let date = if b.round <= 4 {
                        "2026.10.03"
                    } else {
                        "2026.10.04"
                    };
                    let mut r = record(
                        &round,
                        Some(&board),
                        NAMES[b.black],
                        NAMES[b.white],
                        &b.game,
                    );
                    r.set_tag("Date", date);
                    r
                })
                .collect();
            Sheet {
                file,
                format,
                records,
            }
        })
        .collect();
    let notes = plant(&mut sheets, &boards)?;
    // PlayOK's PGN has no place for a board: that sheet does not say.
    for sheet in &mut sheets {
        if sheet.format == Format::Pgn(PgnDialect::PlayOk) {
            for r in &mut sheet.records {
                r.tags.retain(|t| t.name != "Board");
            }
        }
    }

    for sheet in &sheets {
        let (bytes, dropped) = sheet
            .format
            .write_bytes(&sheet.records, &WriteOptions::default())?;
        if !dropped.is_empty() {
            return Err(format!("{}: the writer dropped {dropped:?}", sheet.file).into());
        }
        check_read_back(sheet, &bytes)?;
        std::fs::write(out.join(sheet.file), bytes)?;
    }
    std::fs::write(out.join("README.md"), readme(&notes, &games))?;
    Ok(())
}

/// Plants the problems in the sheets; returns a line for the README about each.
fn plant(sheets: &mut [Sheet], boards: &[Board]) -> Result<Vec<String>, Box<dyn Error>> {
    let board = |round: usize, n: usize| {
        boards
            .iter()
            .find(|b| b.round == round && b.board == n)
            .ok_or(format!("no round {round} board {n}"))
    };
    let names = |b: &Board| format!("{} (Black) v {} (White)", NAMES[b.black], NAMES[b.white]);
    let mut notes = Vec::new();

    // Result typos (the moves are right; the claimed score is not).
    let b = board(1, 4)?;
    let [bd, wd] = b.game.score;
    sheets[0].records[3].result = Some(ClaimedResult::discs(vec![wd, bd]));
    notes.push(format!(
        "**Result typo, winner swapped**: `round1.rgn` game 4 (round 1 board 4, {}) claims \
         {wd}-{bd}; the board gives {bd}-{wd}.",
        names(b)
    ));
    let b = board(7, 15)?;
    let [bd, wd] = b.game.score;
    let (tb, tw) = if bd > wd {
        (bd + 2, wd - 2)
    } else {
        (bd - 2, wd + 2)
    };
    sheets[6].records[14].result = Some(ClaimedResult::discs(vec![tb, tw]));
    notes.push(format!(
        "**Result typo, counts off**: `round7.rgn` game 15 (round 7 board 15, {}) claims \
         {tb}-{tw}; the board gives {bd}-{wd} (same winner).",
        names(b)
    ));

    // An exact copy: round 2 board 5 entered twice.
    let copy = sheets[1].records[4].clone();
    sheets[1].records.push(copy);
    notes.push(format!(
        "**Entered twice (exact copy)**: `round2.rgn` games 5 and 21 are the same record \
         (round 2 board 5, {}).",
        names(board(2, 5)?)
    ));

    // Colours swapped: round 3 board 10 names White as Black and Black as White.
    let b = board(3, 10)?;
    let r = &mut sheets[2].records[9];
    r.set_tag("Black", NAMES[b.white]);
    r.set_tag("White", NAMES[b.black]);
    notes.push(format!(
        "**Colours swapped**: `round3.pgn` game 10 (round 3 board 10) names {} as Black and \
         {} as White; the pairings (and the true result) have {}. The moves are the real \
         game's.",
        NAMES[b.white],
        NAMES[b.black],
        names(b)
    ));

    // A phone entry: round 4 board 2's moves rotated half a turn, under other names.
    let b = board(4, 2)?;
    // As a phone app takes names: a first name, an initial and a surname, in lower case.
    let first = NAMES[b.black]
        .split(' ')
        .next()
        .unwrap_or("")
        .to_lowercase();
    let (initial, surname) = NAMES[b.white].split_once(' ').unwrap_or(("", ""));
    let other = format!("{}. {}", initial.chars().next().unwrap_or('?'), surname).to_lowercase();
    let mut phone = record("4", None, &first, &other, &b.game);
    phone.set_tag("Date", "2026.10.03");
    for m in &mut phone.moves {
        if let Move::Place(sq) = m.mv {
            m.mv = Move::Place(rotated(sq)?);
        }
    }
    sheets[3].records.push(phone);
    notes.push(format!(
        "**Phone entry (a board symmetry, other names)**: `round4.pgn` game 21 (no board) has \
         the moves of round 4 board 2 ({}) rotated half a turn (f5 becomes c4), with the \
         players `{first}` and `{other}`.",
        names(b)
    ));

    // Re-entered in another round: round 3 board 7 again in round 5's sheet.
    let b = board(3, 7)?;
    let mut again = sheets[2].records[6].clone();
    again.set_tag("Round", "5");
    again.set_tag("Board", "21");
    again.set_tag("Date", "2026.10.04");
    sheets[4].records.push(again);
    notes.push(format!(
        "**Re-entered in another round**: `round5.json` game 21 (round 5, board 21: there is \
         no such board) is round 3 board 7 ({}) again, the same moves and players.",
        names(b)
    ));

    // A player on two boards of one round: round 5 board 12's White is board 3's Black.
    let (b12, b3) = (board(5, 12)?, board(5, 3)?);
    sheets[4].records[11].set_tag("White", NAMES[b3.black]);
    notes.push(format!(
        "**A player on two boards of one round**: `round5.json` game 12 (round 5 board 12) \
         names {} as White, who plays Black on board 3 (game 3); the pairings have {}.",
        NAMES[b3.black],
        names(b12)
    ));

    // One pairing played twice: in the schedule itself.
    let (b1, b7) = (board(1, 6)?, board(7, 1)?);
    notes.push(format!(
        "**One pairing played twice**: {} and {} meet in round 1 (board 6, `round1.rgn` game \
         6) and again in round 7 (board 1, `round7.rgn` game 1). Both games were played: this \
         is in `pairings.csv` and `results.csv` too, and the BQ counts that opponent twice.",
        NAMES[b1.black], NAMES[b1.white]
    ));
    let _ = b7;
    Ok(notes)
}

/// Reads a written sheet back and checks every record kept its tags, moves and result.
fn check_read_back(sheet: &Sheet, bytes: &[u8]) -> Result<(), Box<dyn Error>> {
    let games = sheet
        .format
        .read_bytes(bytes.to_vec(), &ReadOptions::default())?;
    let records: Vec<&Record> = games.iter().filter_map(|g| g.record.as_ref()).collect();
    if records.len() != sheet.records.len() {
        return Err(format!("{}: {} records read back", sheet.file, records.len()).into());
    }
    for (i, (back, wrote)) in records.iter().zip(&sheet.records).enumerate() {
        let tags = ["Round", "Black", "White", "Event"];
        let board_kept = matches!(sheet.format, Format::Pgn(PgnDialect::PlayOk))
            || back.tag("Board") == wrote.tag("Board");
        let same = tags.iter().all(|t| back.tag(t) == wrote.tag(t))
            && board_kept
            && back
                .moves
                .iter()
                .map(|m| m.mv)
                .eq(wrote.moves.iter().map(|m| m.mv))
            && back.result.as_ref().map(|r| &r.score) == wrote.result.as_ref().map(|r| &r.score);
        if !same {
            return Err(format!("{} game {}: not read back as written", sheet.file, i + 1).into());
        }
    }
    Ok(())
}

fn readme(notes: &[String], games: &[RealGame]) -> String {
    let first = games.first().map_or(0, |g| g.source);
    let last = games.iter().map(|g| g.source).max().unwrap_or(0);
    let mut out = format!(
        "# A realistic event: {EVENT}\n\n\
         40 players, 7 Swiss rounds (paired by points, no repeats but one), 20 boards a round. \
         Every game is a real finished, legal 8x8 game of `data/wthor/WTH_2004.wtb` \
         (its games {first} to {last} in file order, the first {} finished legal ones with \
         distinct moves); the names are invented. Made by \
         `cargo run --example event_fixture -- data/wthor/WTH_2004.wtb fixtures/event` \
         (`examples/event_fixture.rs`); do not edit by hand.\n\n\
         ## Files\n\n\
         | file | what |\n|---|---|\n\
         | `pairings.csv` | the true schedule: `round,board,black,white` |\n\
         | `results.csv` | the true results, as the boards give them (empties to the winner): \
         `round,board,black,white,black_discs,white_discs` |\n\
         | `round1.rgn`, `round2.rgn`, `round7.rgn` | RGN sheets: `Event`, `Date`, `Round`, \
         `Board`, `Black`, `White`, `Result` tags |\n\
         | `round3.pgn`, `round4.pgn` | Edax PGN (`Round`, `Board` kept after its roster; the \
         result as `1-0 {{Black wins 40-24}}`) |\n\
         | `round5.json` | the JSON format, the same tags |\n\
         | `round6.pgn` | PlayOK PGN: it has a `Round` tag but no place for `Board`, so the \
         board of these games is unknown |\n\n\
         No sheet is GGF: the GGF reader maps no tag to a round or a board, so a GGF sheet \
         could not say which round its games belong to.\n\n\
         Sheet game *n* is board *n* of its round, except the planted extra records.\n\n\
         ## Planted problems\n\n",
        games.len()
    );
    for note in notes {
        let _ = writeln!(out, "* {note}");
    }
    out.push_str(
        "\nNothing else is wrong: every other record has the players, colours, round, board \
         and result of `pairings.csv` and `results.csv`.\n",
    );
    out
}
