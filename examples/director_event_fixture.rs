//! Makes `fixtures/director-event/incoming/` (the folder of an event as its director
//! receives it: sheets in mixed formats, a player register, a pairings file and a stray
//! notes file) and `fixtures/director-event/results.csv` (what was really played).
//!
//! `cargo run --example director_event_fixture -- data/wthor/WTH_1990.wtb fixtures/director-event`
//!
//! The 8x8 games are the first 24 finished, legal, distinct standard games of the WTHOR
//! file, in file order; the 10x10 side event's six games are played out by a fixed
//! pseudo-random walk over the legal moves. The problems planted in the folder are listed
//! in `fixtures/director-event/README.md` (written by hand). Everything is deterministic:
//! running it again writes the same files.

use std::collections::HashSet;
use std::error::Error;
use std::fmt::Write as _;
use std::path::Path;

use reversi_check::validate::validate_record;
use reversi_engine::{Move, Position, Rules};
use reversi_formats::record::{ClaimedResult, MoveRecord, Record, ResultScore, Termination};
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteOptions};
use reversi_runs::pipeline::Input;

const EVENT: &str = "Porto Spring Cup 2026";

/// The register: name, aliases, logins (`|` between several).
const PLAYERS: [(&str, &str, &str); 13] = [
    ("Ana Ferreira", "", "anaf"),
    ("Bruno Costa", "", ""),
    ("Camille Roux", "", "camille_r"),
    ("Dmitri Volkov", "", ""),
    ("Élodie Garnier", "", ""),
    ("Finn Olsen", "", ""),
    ("Greta Lindqvist", "", ""),
    ("Hiro Sato", "Sato H.", "hsato"),
    ("Inês Duarte", "", ""),
    ("Jonas Weber", "", "jweber"),
    ("Kasia Nowak", "", ""),
    ("Lena Krüger", "", ""),
    ("Marco Gallo", "", ""),
];

const ANA: usize = 0;
const BRUNO: usize = 1;
const CAMILLE: usize = 2;
const DMITRI: usize = 3;
const ELODIE: usize = 4;
const FINN: usize = 5;
const GRETA: usize = 6;
const HIRO: usize = 7;
const INES: usize = 8;
const JONAS: usize = 9;
const KASIA: usize = 10;
const LENA: usize = 11;
const MARCO: usize = 12;

/// The main event's games that were played: round, board, Black, White. Each takes the
/// next real game.
const MAIN: [(u8, u8, usize, usize); 24] = [
    (1, 1, ANA, BRUNO),
    (1, 2, CAMILLE, DMITRI),
    (1, 3, ELODIE, FINN),
    (1, 4, GRETA, HIRO),
    (1, 5, INES, JONAS),
    (2, 1, KASIA, ANA),
    (2, 2, BRUNO, CAMILLE),
    (2, 3, FINN, GRETA),
    (2, 4, ELODIE, HIRO),
    (2, 5, JONAS, DMITRI),
    (3, 1, ANA, CAMILLE),
    (3, 2, DMITRI, KASIA),
    (3, 3, GRETA, BRUNO),
    (3, 4, HIRO, FINN),
    (3, 5, INES, ELODIE),
    (4, 1, HIRO, ANA),
    (4, 2, JONAS, CAMILLE),
    (4, 3, ELODIE, GRETA),
    (4, 4, BRUNO, INES),
    (5, 1, ANA, DMITRI),
    (5, 2, CAMILLE, FINN),
    (5, 3, GRETA, JONAS),
    (5, 4, HIRO, INES),
    (5, 5, ELODIE, BRUNO),
];

/// The 10x10 side event, a round robin: round, board, Black, White, seed of its game.
const SIDE: [(u8, u8, usize, usize, u64); 6] = [
    (1, 1, ANA, HIRO, 11),
    (1, 2, LENA, MARCO, 12),
    (2, 1, MARCO, ANA, 13),
    (2, 2, HIRO, LENA, 14),
    (3, 1, ANA, LENA, 15),
    (3, 2, HIRO, MARCO, 16),
];

/// A finished game: its moves (passes left out, as sheets write them) and its final score
/// (empties to the winner).
#[derive(Clone)]
struct Game {
    moves: Vec<Move>,
    score: [u8; 2],
    /// Its index in the WTHOR file (0 for a 10x10 game).
    source: usize,
}

fn real_games(path: &str, wanted: usize) -> Result<Vec<Game>, Box<dyn Error>> {
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
        let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
        let standard = record.rules == Rules::default() && record.start.is_none();
        if report.errors() > 0 || !standard || !seen.insert(moves.clone()) {
            continue;
        }
        out.push(Game {
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

/// A 10x10 game played to its end by a pseudo-random walk driven by `seed`.
fn ten_by_ten(seed: u64) -> Result<Game, Box<dyn Error>> {
    let rules: Rules = "othello:10x10".parse()?;
    let mut pos = Position::new(rules);
    let mut state = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut moves = Vec::new();
    while !pos.is_over() {
        if pos.must_pass() {
            pos.play(Move::Pass)?;
            continue;
        }
        let legal: Vec<_> = pos.legal_moves().iter().collect();
        // xorshift64
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mv = Move::Place(legal[(state % legal.len() as u64) as usize]);
        pos.play(mv)?;
        moves.push(mv);
    }
    let outcome = pos.outcome().ok_or("the game is over")?;
    Ok(Game {
        moves,
        score: [outcome.score[0], outcome.score[1]],
        source: 0,
    })
}

fn name(p: usize) -> &'static str {
    PLAYERS[p].0
}

/// A sheet's record of `game`.
fn record(round: &str, board: Option<u8>, black: &str, white: &str, game: &Game) -> Record {
    let mut r = Record::new(Rules::default());
    r.set_tag("Event", EVENT);
    r.set_tag(
        "Date",
        if round <= "3" {
            "2026.04.18"
        } else {
            "2026.04.19"
        },
    );
    r.set_tag("Round", round);
    if let Some(board) = board {
        r.set_tag("Board", board.to_string());
    }
    r.set_tag("Black", black);
    r.set_tag("White", white);
    r.moves = game.moves.iter().map(|&m| MoveRecord::new(m)).collect();
    r.result = Some(ClaimedResult::discs(game.score.to_vec()));
    r
}

fn write(format: Format, records: &[Record]) -> Result<Vec<u8>, Box<dyn Error>> {
    let (bytes, dropped) = format.write_bytes(records, &WriteOptions::default())?;
    if !dropped.is_empty() {
        return Err(format!("{format}: the writer dropped {dropped:?}").into());
    }
    // Read back: the same moves and tags.
    let back = format.read_bytes(bytes.clone(), &ReadOptions::default())?;
    for (b, r) in back.iter().zip(records) {
        let b = b.record.as_ref().ok_or("not read back")?;
        let placed = |r: &Record| -> Vec<Move> {
            r.moves
                .iter()
                .map(|m| m.mv)
                .filter(|m| *m != Move::Pass)
                .collect()
        };
        let same = placed(b) == placed(r)
            && ["Round", "Board", "Black", "White"]
                .iter()
                .all(|t| b.tag(t) == r.tag(t));
        if !same {
            return Err(
                format!("{format}: a game is not read back as written: {:?}", b.tags).into(),
            );
        }
    }
    Ok(bytes)
}

/// `text` in Windows-1252, as a French spreadsheet or an old Windows program saves it
/// (only the characters of Latin-1 are needed here).
fn windows_1252(text: &str) -> Result<Vec<u8>, Box<dyn Error>> {
    text.chars()
        .map(|c| u8::try_from(u32::from(c)).map_err(|_| format!("{c:?} is not Latin-1").into()))
        .collect()
}

fn moves_text(moves: &[Move]) -> String {
    moves.iter().map(ToString::to_string).collect()
}

fn main() -> Result<(), Box<dyn Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [wthor, out] = args.as_slice() else {
        return Err("usage: director_event_fixture WTHOR.wtb OUT_DIR".into());
    };
    let games = real_games(wthor, MAIN.len())?;
    let out = Path::new(out);
    let incoming = out.join("incoming");
    std::fs::create_dir_all(&incoming)?;
    let game = |round: u8, board: u8| -> Result<(&Game, usize, usize), Box<dyn Error>> {
        MAIN.iter()
            .zip(&games)
            .find(|((r, b, _, _), _)| *r == round && *b == board)
            .map(|((_, _, black, white), g)| (g, *black, *white))
            .ok_or_else(|| format!("no round {round} board {board}").into())
    };
    let sheet = |round: u8, board: u8| -> Result<Record, Box<dyn Error>> {
        let (g, black, white) = game(round, board)?;
        Ok(record(
            &round.to_string(),
            Some(board),
            name(black),
            name(white),
            g,
        ))
    };

    // What was really played.
    let mut results =
        String::from("event,round,board,black,white,black_discs,white_discs,source\n");
    for ((round, board, black, white), g) in MAIN.iter().zip(&games) {
        let [b, w] = g.score;
        let _ = writeln!(
            results,
            "main,{round},{board},{},{},{b},{w},WTH_1990.wtb game {}",
            name(*black),
            name(*white),
            g.source
        );
    }
    let side: Vec<Game> = SIDE
        .iter()
        .map(|s| ten_by_ten(s.4))
        .collect::<Result<_, _>>()?;
    for ((round, board, black, white, seed), g) in SIDE.iter().zip(&side) {
        let [b, w] = g.score;
        let _ = writeln!(
            results,
            "side 10x10,{round},{board},{},{},{b},{w},random walk seed {seed}",
            name(*black),
            name(*white)
        );
    }
    std::fs::write(out.join("results.csv"), results)?;

    // The register, as the director keeps it.
    let mut register = String::from("number,name,aliases,logins\n");
    for (i, (n, aliases, logins)) in PLAYERS.iter().enumerate() {
        let _ = writeln!(register, "{},{n},{aliases},{logins}", i + 1);
    }
    std::fs::write(incoming.join("players.csv"), register)?;

    // The pairings, saved by a French spreadsheet (`;`, Windows-1252).
    let mut pairings = String::from("ronde;table;noir;blanc;résultat\n");
    let byes = [(1, KASIA), (2, INES), (3, JONAS)];
    for round in 1..=5u8 {
        for (r, b, black, white) in MAIN.iter().filter(|m| m.0 == round) {
            let status = if (*r, *b) == (5, 1) { "ajournée" } else { "" };
            let _ = writeln!(
                pairings,
                "{r};{b};{};{};{status}",
                name(*black),
                name(*white)
            );
        }
        if round == 4 {
            let _ = writeln!(pairings, "4;5;{};{};+:-", name(FINN), name(DMITRI));
            let _ = writeln!(pairings, "4;;{};;abandon", name(KASIA));
        }
        for (r, p) in byes.iter().filter(|b| b.0 == round) {
            let _ = writeln!(pairings, "{r};;{};EXEMPT;", name(*p));
        }
    }
    std::fs::write(incoming.join("appariements.csv"), windows_1252(&pairings)?)?;

    std::fs::write(
        incoming.join("notes.txt"),
        "Porto Spring Cup 2026 - director's notes\n\n\
         Saturday: round 2 started 20 minutes late. Kasia Nowak left after round 3\n\
         (family matter) and will not play on Sunday.\n\
         Sunday: Dmitri did not come for round 4 (train). Board 1 of round 5 was\n\
         adjourned at move 36 and finished after lunch.\n\
         The 10x10 side event was played on Saturday evening.\n",
    )?;

    // Round 1, RGN: board 2's result mistyped (a digit of White's count); board 4's White
    // written as an alias of the register.
    let mut round1: Vec<Record> = (1..=5).map(|b| sheet(1, b)).collect::<Result<_, _>>()?;
    let [b2, w2] = game(1, 2)?.0.score;
    round1[1].result = Some(ClaimedResult::discs(vec![b2, typo(w2)]));
    round1[3].set_tag("White", "Sato H.");
    std::fs::write(incoming.join("round-1.rgn"), write(Format::Rgn, &round1)?)?;

    // Round 2, Edax PGN saved in Windows-1252 (Élodie's É is one byte); board 4 came in
    // once more from a player, as its own UTF-8 file.
    let round2: Vec<Record> = (1..=5).map(|b| sheet(2, b)).collect::<Result<_, _>>()?;
    let pgn = Format::Pgn(PgnDialect::Edax);
    let text = String::from_utf8(write(pgn, &round2)?)?;
    std::fs::write(incoming.join("round-2.pgn"), windows_1252(&text)?)?;
    std::fs::write(
        incoming.join("round-2-board-4.pgn"),
        write(pgn, &round2[3..4])?,
    )?;

    // Round 3, a French spreadsheet's CSV: board 3 has two moves swapped.
    let mut csv = String::from("tournoi;ronde;table;noir;blanc;coups;résultat\n");
    for b in 1..=5u8 {
        let (g, black, white) = game(3, b)?;
        let mut moves = g.moves.clone();
        if b == 3 {
            moves.swap(SWAP_AT - 1, SWAP_AT);
        }
        let [bd, wd] = g.score;
        let _ = writeln!(
            csv,
            "{EVENT};3;{b};{};{};{};{bd}-{wd}",
            name(black),
            name(white),
            moves_text(&moves)
        );
    }
    std::fs::write(incoming.join("round-3.csv"), csv)?;

    // Round 4, boards 1 and 2 played on the game server: its GGF names the logins and
    // has no round.
    let mut ggs = Vec::new();
    for (b, black, white) in [(1, "hsato", "anaf"), (2, "jweber", "camille_r")] {
        let (g, _, _) = game(4, b)?;
        let mut r = Record::new(Rules::default());
        r.set_tag("Black", black);
        r.set_tag("White", white);
        r.set_tag("Date", "2026.04.19");
        r.moves = g.moves.iter().map(|&m| MoveRecord::new(m)).collect();
        r.result = Some(ClaimedResult::discs(g.score.to_vec()));
        ggs.push(r);
    }
    std::fs::write(
        incoming.join("ggs-round-4.ggf"),
        write_unchecked(Format::Ggf, &ggs)?,
    )?;

    // Round 4 board 3, a transcript grid typed from White's sheet: the names the other
    // way round.
    let (g, black, white) = game(4, 3)?;
    let from_white = record("4", Some(3), name(white), name(black), g);
    std::fs::write(
        incoming.join("round-4-board-3.txt"),
        write(Format::Transcript, &[from_white])?,
    )?;

    // Round 4 board 4, typed under round 5.
    let mut wrong_round = sheet(4, 4)?;
    wrong_round.set_tag("Round", "5");
    std::fs::write(
        incoming.join("round-4.rgn"),
        write(Format::Rgn, &[wrong_round])?,
    )?;

    // Round 5, RGN: board 1 as adjourned (its first 36 moves, no result); Jonas Weber
    // spelt with two b's; board 4 is not on this sheet.
    let mut round5 = Vec::new();
    for b in [1, 2, 3, 5] {
        let mut r = sheet(5, b)?;
        if b == 1 {
            r.moves.truncate(ADJOURNED_AT);
            r.result = Some(ClaimedResult {
                score: ResultScore::None,
                termination: Termination::Unfinished,
                span: None,
            });
        }
        if b == 3 {
            r.set_tag("White", "Jonas Webber");
        }
        round5.push(r);
    }
    std::fs::write(incoming.join("round-5.rgn"), write(Format::Rgn, &round5)?)?;
    // The adjourned game, finished after lunch, on its own sheet.
    std::fs::write(
        incoming.join("round-5-board-1-finished.rgn"),
        write(Format::Rgn, &[sheet(5, 1)?])?,
    )?;
    // Round 5 board 4: the moves as a phone app exports them, nothing else.
    let (g, _, _) = game(5, 4)?;
    std::fs::write(
        incoming.join("r5-t4-moves.txt"),
        format!("{}\n", moves_text(&g.moves)),
    )?;

    // The 10x10 side event, under the main event's name.
    let rules: Rules = "othello:10x10".parse()?;
    let side_records: Vec<Record> = SIDE
        .iter()
        .zip(&side)
        .map(|((round, board, black, white, _), g)| {
            let mut r = record(
                &round.to_string(),
                Some(*board),
                name(*black),
                name(*white),
                g,
            );
            r.rules = rules;
            r.set_tag("Date", "2026.04.18");
            r
        })
        .collect();
    std::fs::write(
        incoming.join("side-10x10.rgn"),
        write(Format::Rgn, &side_records)?,
    )?;
    Ok(())
}

/// Round 3 board 3's moves `SWAP_AT` and `SWAP_AT + 1` (from 1) are written the other way
/// round.
const SWAP_AT: usize = 23;

/// Round 5 board 1 was adjourned after this many moves.
const ADJOURNED_AT: usize = 36;

/// A count with one digit mistyped: its last digit one more (or one less at 9).
fn typo(count: u8) -> u8 {
    if count % 10 == 9 {
        count - 1
    } else {
        count + 1
    }
}

/// Writes without reading back the tags (GGF keeps no round or board).
fn write_unchecked(format: Format, records: &[Record]) -> Result<Vec<u8>, Box<dyn Error>> {
    let (bytes, dropped) = format.write_bytes(records, &WriteOptions::default())?;
    if !dropped.is_empty() {
        return Err(format!("{format}: the writer dropped {dropped:?}").into());
    }
    Ok(bytes)
}
