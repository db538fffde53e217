//! Standings (`reversi_check::event::standings`): a small event worked out by hand, the
//! rules of `spec/standings.md` one by one, and the 40-player event of `fixtures/event/`
//! against a straightforward computation written here.

use std::collections::BTreeMap;

use reversi_check::event::standings::{
    GameResult, Known, Pairing, PairingSource, Problem, Round, RoundOutcome, Side, Standings,
    StandingsOptions,
};
use reversi_check::validate::validate_record;
use reversi_formats::record::ResultScore;
use reversi_runs::pipeline::Input;

fn discs(black: u8, white: u8) -> GameResult {
    GameResult::Discs { black, white }
}

/// Six players, three rounds. Eve forfeits round 2 and withdraws, so round 3 has five
/// players and Bob a bye. Cid and Dee meet twice.
fn small_event() -> Vec<Pairing> {
    vec![
        // Round 1.
        Pairing::game(1, "Ann", "Bob", discs(40, 24))
            .on_board("1")
            .from_game(1, 1),
        Pairing::game(1, "Cid", "Dee", discs(32, 32))
            .on_board("2")
            .from_game(1, 2),
        Pairing::game(1, "Eve", "Fay", discs(20, 44))
            .on_board("3")
            .from_game(1, 3),
        // Round 2: Ann wins with White, only the winner known; Eve does not come.
        Pairing::game(2, "Fay", "Ann", GameResult::Winner(Some(Side::White)))
            .on_board("1")
            .from_game(2, 1),
        Pairing::game(
            2,
            "Bob",
            "Eve",
            GameResult::Forfeit {
                winner: Side::Black,
            },
        )
        .on_board("2")
        .from_game(2, 2),
        Pairing::game(2, "Dee", "Cid", discs(35, 29))
            .on_board("3")
            .from_game(2, 3),
        // Round 3: Eve has withdrawn.
        Pairing::game(3, "Ann", "Dee", discs(30, 34))
            .on_board("1")
            .from_game(3, 1),
        Pairing::game(3, "Cid", "Fay", discs(38, 26))
            .on_board("2")
            .from_game(3, 2),
        Pairing::bye(3, "Bob").from_game(3, 3),
    ]
}

fn small_options() -> StandingsOptions {
    StandingsOptions {
        event: Some("Club night <3>".to_owned()),
        ..StandingsOptions::default()
    }
}

#[test]
fn the_small_event_equals_the_hand_computation() {
    // Points (win or bye 1, draw 1/2):
    //   Ann R1 beat Bob, R2 beat Fay (winner only), R3 lost to Dee             = 2
    //   Bob R1 lost to Ann, R2 won by forfeit (Eve absent), R3 bye             = 2
    //   Cid R1 drew Dee, R2 lost to Dee, R3 beat Fay                           = 1.5
    //   Dee R1 drew Cid, R2 beat Cid, R3 beat Ann                              = 2.5
    //   Eve R1 lost to Fay, R2 lost by forfeit, no round 3                     = 0
    //   Fay R1 beat Eve, R2 lost to Ann (winner only), R3 lost to Cid          = 1
    // Withdrawn: Eve, the only one without a pairing in the last round.
    // BQ: own discs + 6 x opponent's points per game; 32 + 6 x own points for a bye or a
    // withdrawn opponent. A result without counts scores 33-31.
    //   Ann: (40 + 6x2 Bob) + (33 + 6x1 Fay) + (30 + 6x2.5 Dee) = 52 + 39 + 45   = 136
    //   Bob: (24 + 6x2 Ann) + (32 + 6x2: Eve withdrew) + (32 + 6x2: bye)        = 124
    //   Cid: (32 + 6x2.5 Dee) + (29 + 6x2.5 Dee) + (38 + 6x1 Fay) = 47 + 44 + 44 = 135
    //   Dee: (32 + 6x1.5 Cid) + (35 + 6x1.5 Cid) + (34 + 6x2 Ann) = 41 + 44 + 46 = 131
    //   Eve: (20 + 6x1 Fay) + (31 + 6x2 Bob)                      = 26 + 43      = 69
    //   Fay: (32 + 6x1: Eve withdrew) + (31 + 6x2 Ann) + (26 + 6x1.5 Cid)        = 116
    // Discs (a bye 32): Ann 40+33+30 = 103, Bob 24+33+32 = 89, Cid 32+29+38 = 99,
    //   Dee 32+35+34 = 101, Eve 20+31 = 51, Fay 44+31+26 = 101.
    // Order: Dee 2.5; Ann and Bob 2, Ann ahead on BQ (136 > 124); Cid; Fay; Eve.
    let s = Standings::compute(&small_event(), &small_options()).unwrap();
    let got: Vec<(usize, &str, f64, u32, u32)> = s
        .players
        .iter()
        .map(|p| (p.rank, p.name.as_str(), p.points.value(), p.bq, p.discs))
        .collect();
    assert_eq!(
        got,
        [
            (1, "Dee", 2.5, 131, 101),
            (2, "Ann", 2.0, 136, 103),
            (3, "Bob", 2.0, 124, 89),
            (4, "Cid", 1.5, 135, 99),
            (5, "Fay", 1.0, 116, 101),
            (6, "Eve", 0.0, 69, 51),
        ]
    );
    let withdrawn: Vec<&str> = s
        .players
        .iter()
        .filter(|p| p.withdrawn)
        .map(|p| p.name.as_str())
        .collect();
    assert_eq!(withdrawn, ["Eve"]);
    assert!(s.unfinished.is_empty());
    assert_eq!(
        s.rounds,
        [Round::new("1"), Round::new("2"), Round::new("3")]
    );
}

#[test]
fn the_summary_counts_games_colours_and_byes() {
    let s = Standings::compute(&small_event(), &small_options()).unwrap();
    let summary: BTreeMap<&str, [u32; 7]> = s
        .players
        .iter()
        .map(|p| {
            let counts = [p.games, p.wins, p.draws, p.losses, p.byes, p.black, p.white];
            (p.name.as_str(), counts)
        })
        .collect();
    // games, wins, draws, losses, byes, Black, White. Forfeits are games, byes are not.
    assert_eq!(summary["Ann"], [3, 2, 0, 1, 0, 2, 1]);
    assert_eq!(summary["Bob"], [2, 1, 0, 1, 1, 1, 1]);
    assert_eq!(summary["Cid"], [3, 1, 1, 1, 0, 2, 1]);
    assert_eq!(summary["Dee"], [3, 2, 1, 0, 0, 1, 2]);
    assert_eq!(summary["Eve"], [2, 0, 0, 2, 0, 1, 1]);
    assert_eq!(summary["Fay"], [3, 1, 0, 2, 0, 1, 2]);
}

#[test]
fn the_crosstable_names_opponents_by_number_with_colours_and_discs() {
    let s = Standings::compute(&small_event(), &small_options()).unwrap();
    let line = |name: &str| -> Vec<String> {
        let p = s.players.iter().find(|p| p.name == name).unwrap();
        p.rounds
            .iter()
            .map(|c| c.as_ref().map_or("-".to_owned(), |c| c.text()))
            .collect()
    };
    // Numbers: 1 Dee, 2 Ann, 3 Bob, 4 Cid, 5 Fay, 6 Eve.
    assert_eq!(line("Ann"), ["3B 40-24", "5W win", "1B 30-34"]);
    assert_eq!(line("Bob"), ["2W 24-40", "6B win ff", "bye"]);
    assert_eq!(line("Eve"), ["5B 20-44", "3W loss ff", "-"]);
    assert_eq!(line("Dee"), ["4W 32-32", "4B 35-29", "2W 34-30"]);
    let ann = &s.players[1];
    let r2 = ann.rounds[1].as_ref().unwrap();
    assert_eq!(
        (r2.opponent, r2.colour, r2.discs, r2.outcome, r2.known),
        (
            Some(5),
            Some(Side::White),
            None,
            RoundOutcome::Win,
            Known::WinnerOnly
        )
    );
    assert_eq!(r2.source, PairingSource { file: 2, game: 1 });
    assert_eq!(r2.board.as_deref(), Some("1"));
}

#[test]
fn the_small_event_renders_as_text_csv_and_html() {
    let s = Standings::compute(&small_event(), &small_options()).unwrap();
    insta::assert_snapshot!("small_event_text", s.to_text());
    insta::assert_snapshot!("small_event_csv", s.to_csv());
    let html = s.to_html();
    assert!(html.contains("<title>Club night &lt;3&gt;</title>"));
    insta::assert_snapshot!("small_event_html", html);
}

#[test]
fn the_json_holds_every_line_and_cell() {
    let s = Standings::compute(&small_event(), &small_options()).unwrap();
    let v: serde_json::Value = serde_json::from_str(&s.to_json()).unwrap();
    assert_eq!(v["event"], "Club night <3>");
    assert_eq!(v["rounds"], serde_json::json!(["1", "2", "3"]));
    let bob = &v["players"][2];
    assert_eq!(bob["name"], "Bob");
    assert_eq!(bob["points"], 2.0);
    assert_eq!(bob["bq"], 124);
    assert_eq!(bob["rounds"][1]["known"], "forfeit");
    assert_eq!(bob["rounds"][2]["known"], "bye");
    assert_eq!(bob["rounds"][2]["opponent"], serde_json::Value::Null);
    assert_eq!(v["players"][5]["rounds"][2], serde_json::Value::Null);
    assert_eq!(v["players"][5]["withdrawn"], true);
}

#[test]
fn a_name_that_is_markup_stays_text_in_html() {
    let pairings = [Pairing::game(
        1,
        "<script>alert(1)</script>",
        "Bob & \"Al\"",
        discs(33, 31),
    )];
    let html = Standings::compute(&pairings, &StandingsOptions::default())
        .unwrap()
        .to_html();
    assert!(!html.contains("<script"), "{html}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(html.contains("Bob &amp; &quot;Al&quot;"));
}

#[test]
fn a_name_that_is_a_formula_stays_text_in_csv() {
    // No comma or quote in them, so each is the row's third field as it stands (a quoted
    // one is `Standings::to_csv`'s example).
    let names = [
        "=1+1",
        "+1+cmd|' /C calc'!A0",
        "-2+3",
        "@SUM(A1)",
        "-",
        "Ann",
        "Jean-Luc = 2",
        "O'Neil",
    ];
    let pairings: Vec<Pairing> = names
        .chunks(2)
        .enumerate()
        .map(|(i, pair)| Pairing::game(i as u32 + 1, pair[0], pair[1], discs(33, 31)))
        .collect();
    let csv = Standings::compute(&pairings, &StandingsOptions::default())
        .unwrap()
        .to_csv();
    let mut written: Vec<&str> = csv
        .lines()
        .skip(1)
        .map(|row| row.split(',').nth(2).unwrap())
        .collect();
    written.sort();
    let mut expected = [
        "'=1+1",
        "'+1+cmd|' /C calc'!A0",
        "'-2+3",
        "'@SUM(A1)",
        "'-",
        "Ann",
        "Jean-Luc = 2",
        "O'Neil",
    ];
    expected.sort();
    assert_eq!(written, expected, "{csv}");
    // Only names are touched: each row ends with its four round cells, one game in them.
    for row in csv.lines().skip(1) {
        let cells: Vec<&str> = row.rsplit(',').take(4).filter(|c| *c != "-").collect();
        assert!(
            matches!(cells[..], [cell] if cell.ends_with("B 33-31") || cell.ends_with("W 31-33")),
            "{row}"
        );
    }
}

#[test]
fn a_full_tie_shares_the_rank_and_keeps_a_stable_order() {
    // Each beats the other 40-24 with Black: 1 point, BQ 40+24 + 6+6 = 76, 64 discs each.
    let pairings = [
        Pairing::game(1, "Zed", "Amy", discs(40, 24)),
        Pairing::game(2, "Amy", "Zed", discs(40, 24)),
    ];
    let s = Standings::compute(&pairings, &StandingsOptions::default()).unwrap();
    let got: Vec<(usize, usize, bool, &str, u32)> = s
        .players
        .iter()
        .map(|p| (p.number, p.rank, p.shared, p.name.as_str(), p.bq))
        .collect();
    assert_eq!(got, [(1, 1, true, "Amy", 76), (2, 1, true, "Zed", 76)]);
    assert!(s.to_text().contains("\n1 1=   Amy"), "{}", s.to_text());
}

#[test]
fn discs_break_a_tie_of_points_and_bq() {
    // Amy's bye: BQ 32 + 6x1 = 38, 32 discs. Bob beats Cid (0 points) 38-26: BQ 38, 38 discs.
    let pairings = [
        Pairing::bye(1, "Amy"),
        Pairing::game(1, "Bob", "Cid", discs(38, 26)),
    ];
    let s = Standings::compute(&pairings, &StandingsOptions::default()).unwrap();
    let got: Vec<(usize, &str, u32, u32)> = s
        .players
        .iter()
        .map(|p| (p.rank, p.name.as_str(), p.bq, p.discs))
        .collect();
    assert_eq!(
        got,
        [(1, "Bob", 38, 38), (2, "Amy", 38, 32), (3, "Cid", 32, 26)]
    );
}

#[test]
fn an_unfinished_game_scores_nothing_and_makes_the_standings_provisional() {
    let pairings = [
        Pairing::game(1, "Amy", "Bob", discs(40, 24)),
        Pairing::game(2, "Bob", "Amy", GameResult::Unfinished).from_game(2, 7),
    ];
    let s = Standings::compute(&pairings, &StandingsOptions::default()).unwrap();
    let amy = &s.players[0];
    // Amy: 1 point; BQ 40 + 6x0 (Bob), the unfinished game left out; 40 discs.
    assert_eq!((amy.points.value(), amy.bq, amy.discs), (1.0, 40, 40));
    assert_eq!(
        (amy.games, amy.unfinished, amy.black, amy.white),
        (1, 1, 1, 1)
    );
    assert_eq!(amy.rounds[1].as_ref().unwrap().text(), "2W ?");
    assert_eq!(s.unfinished, [PairingSource { file: 2, game: 7 }]);
    assert!(s
        .to_text()
        .contains("Provisional: no result yet for file 2, game 7."));
}

#[test]
fn withdrawn_players_can_be_given() {
    // Given as withdrawn, Bob counts 32 + 6 x Amy's points in Amy's BQ instead of 40 + 0.
    let pairings = [
        Pairing::game(1, "Amy", "Bob", discs(40, 24)),
        Pairing::game(2, "Cid", "Amy", discs(30, 34)),
        Pairing::bye(2, "Bob"),
    ];
    let options = StandingsOptions {
        withdrawn: Some(vec!["Bob".to_owned()]),
        ..StandingsOptions::default()
    };
    let s = Standings::compute(&pairings, &options).unwrap();
    let amy = s.players.iter().find(|p| p.name == "Amy").unwrap();
    // (32 + 6x2) + (34 + 6x0 Cid) = 44 + 34.
    assert_eq!(amy.bq, 78);
    let unknown = StandingsOptions {
        withdrawn: Some(vec!["Dan".to_owned()]),
        ..StandingsOptions::default()
    };
    let err = Standings::compute(&pairings, &unknown).unwrap_err();
    assert_eq!(
        err.problems,
        [Problem::UnknownWithdrawn {
            player: "Dan".to_owned()
        }]
    );
}

#[test]
fn inconsistent_pairings_are_refused_with_every_problem_named() {
    let pairings = [
        Pairing::game(3, "Amy", "Bob", discs(40, 24)).from_game(1, 1),
        Pairing::game(3, "Cid", " Amy ", discs(40, 30)).from_game(2, 5),
        Pairing::game(3, "Dan", "Dan", discs(33, 31)).from_game(2, 6),
        Pairing::bye(4, "  ").from_game(2, 7),
    ];
    let err = Standings::compute(&pairings, &StandingsOptions::default()).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the pairings cannot be ranked:\n  \
         40-30 is more than the 64 discs of the board (file 2, game 5)\n  \
         Amy is paired twice in round 3: file 1, game 1 and file 2, game 5\n  \
         Dan is paired against themselves (file 2, game 6)\n  \
         a pairing has no player's name (file 2, game 7)"
    );
}

#[test]
fn rounds_sort_as_numbers() {
    let pairings = [
        Pairing::game("10", "Amy", "Bob", discs(40, 24)),
        Pairing::game("9", "Bob", "Amy", discs(40, 24)),
        Pairing::game("final", "Amy", "Bob", discs(40, 24)),
    ];
    let s = Standings::compute(&pairings, &StandingsOptions::default()).unwrap();
    let rounds: Vec<&str> = s.rounds.iter().map(Round::as_str).collect();
    assert_eq!(rounds, ["9", "10", "final"]);
    assert_eq!(
        s.players[0].rounds[0].as_ref().unwrap().round,
        Round::new("09")
    );
}

// ---- The 40-player event of fixtures/event ----

const EVENT: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/event");

/// One row of `results.csv`.
#[derive(Clone, Debug)]
struct Row {
    round: u32,
    board: u32,
    black: String,
    white: String,
    discs: [u8; 2],
}

fn results() -> Vec<Row> {
    let text = std::fs::read_to_string(format!("{EVENT}/results.csv")).unwrap();
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some("round,board,black,white,black_discs,white_discs")
    );
    lines
        .map(|line| {
            let f: Vec<&str> = line.split(',').collect();
            assert_eq!(f.len(), 6, "{line}");
            Row {
                round: f[0].parse().unwrap(),
                board: f[1].parse().unwrap(),
                black: f[2].to_owned(),
                white: f[3].to_owned(),
                discs: [f[4].parse().unwrap(), f[5].parse().unwrap()],
            }
        })
        .collect()
}

#[test]
fn the_event_results_are_the_schedule_and_what_the_boards_give() {
    let rows = results();
    assert_eq!(rows.len(), 140);
    let pairings = std::fs::read_to_string(format!("{EVENT}/pairings.csv")).unwrap();
    let schedule: Vec<String> = rows
        .iter()
        .map(|r| format!("{},{},{},{}", r.round, r.board, r.black, r.white))
        .collect();
    assert_eq!(pairings.lines().skip(1).collect::<Vec<_>>(), schedule);
    let sheets = [
        "round1.rgn",
        "round2.rgn",
        "round3.pgn",
        "round4.pgn",
        "round5.json",
        "round6.pgn",
        "round7.rgn",
    ];
    let mut names_differ = Vec::new();
    let mut claims_differ = Vec::new();
    let mut replay_errors = Vec::new();
    for (i, sheet) in sheets.iter().enumerate() {
        let round = i as u32 + 1;
        let input = Input::open(format!("{EVENT}/{sheet}")).unwrap();
        let games: Vec<_> = input
            .format
            .read(input.reader, &input.options)
            .map(Result::unwrap)
            .collect();
        // Sheet game n is board n; planted extra records come after the 20 boards.
        for row in rows.iter().filter(|r| r.round == round) {
            let game = &games[row.board as usize - 1];
            let record = game.record.as_ref().unwrap();
            let report = validate_record(record, game.index);
            let errors: Vec<String> = report
                .diagnostics
                .iter()
                .filter(|d| d.is_error())
                .map(|d| d.code.name().to_owned())
                .collect();
            if !errors.is_empty() {
                replay_errors.push((round, row.board, errors));
            }
            let outcome = report.outcome.unwrap();
            assert_eq!(outcome.score[..2], row.discs, "{sheet} game {}", game.index);
            assert_eq!(record.tag("Round"), Some(round.to_string().as_str()));
            if (record.tag("Black"), record.tag("White"))
                != (Some(row.black.as_str()), Some(row.white.as_str()))
            {
                names_differ.push((round, row.board));
            }
            let claimed = record.result.as_ref().map(|r| &r.score);
            let board_says = ResultScore::Discs(row.discs.to_vec());
            // Edax PGN and the others all give the counts.
            if claimed != Some(&board_says) {
                claims_differ.push((round, row.board));
            }
        }
    }
    // What the README plants, and nothing more: the colours swapped in round 3 board 10,
    // a player on two boards in round 5 board 12; the two result typos.
    assert_eq!(names_differ, [(3, 10), (5, 12)]);
    assert_eq!(claims_differ, [(1, 4), (7, 15)]);
    let mismatch = || vec!["wrong-result".to_owned()];
    assert_eq!(replay_errors, [(1, 4, mismatch()), (7, 15, mismatch())]);
}

/// The standings of the event computed the plain way: a win 2 half points, a draw 1; BQ the
/// own discs plus 6 x the opponent's points (3 x half points) per game (every player plays
/// every round: no byes, nobody withdrawn); then sorted by points, BQ, discs, name.
fn by_hand(rows: &[Row]) -> Vec<(String, u32, u32, u32)> {
    let mut halves: BTreeMap<&str, u32> = BTreeMap::new();
    for r in rows {
        let (b, w) = match r.discs[0].cmp(&r.discs[1]) {
            std::cmp::Ordering::Greater => (2, 0),
            std::cmp::Ordering::Equal => (1, 1),
            std::cmp::Ordering::Less => (0, 2),
        };
        *halves.entry(&r.black).or_default() += b;
        *halves.entry(&r.white).or_default() += w;
    }
    let mut bq: BTreeMap<&str, u32> = BTreeMap::new();
    let mut discs: BTreeMap<&str, u32> = BTreeMap::new();
    for r in rows {
        for (me, opp, mine) in [
            (&r.black, &r.white, r.discs[0]),
            (&r.white, &r.black, r.discs[1]),
        ] {
            *bq.entry(me).or_default() += u32::from(mine) + 3 * halves[opp.as_str()];
            *discs.entry(me).or_default() += u32::from(mine);
        }
    }
    let mut table: Vec<(String, u32, u32, u32)> = halves
        .iter()
        .map(|(name, h)| (name.to_string(), *h, bq[name], discs[name]))
        .collect();
    table.sort_by(|a, b| (b.1, b.2, b.3).cmp(&(a.1, a.2, a.3)).then(a.0.cmp(&b.0)));
    table
}

fn event_pairings(rows: &[Row]) -> Vec<Pairing> {
    rows.iter()
        .enumerate()
        .map(|(i, r)| {
            Pairing::game(r.round, &r.black, &r.white, discs(r.discs[0], r.discs[1]))
                .on_board(&r.board.to_string())
                .from_game(r.round as usize, i + 1)
        })
        .collect()
}

#[test]
fn the_event_standings_equal_the_plain_computation() {
    let rows = results();
    let expected = by_hand(&rows);
    assert_eq!(expected.len(), 40);
    let s = Standings::compute(&event_pairings(&rows), &StandingsOptions::default()).unwrap();
    let got: Vec<(String, u32, u32, u32)> = s
        .players
        .iter()
        .map(|p| (p.name.clone(), p.points.halves(), p.bq, p.discs))
        .collect();
    assert_eq!(got, expected);
    assert!(s.players.iter().all(|p| !p.withdrawn && p.games == 7));
    // Kasia Nowak and Luca Bianchi meet twice: each counts the other's points twice.
    let kasia = s.players.iter().find(|p| p.name == "Kasia Nowak").unwrap();
    let luca = s.players.iter().find(|p| p.name == "Luca Bianchi").unwrap();
    let met: Vec<usize> = kasia
        .rounds
        .iter()
        .filter_map(|c| c.as_ref()?.opponent)
        .collect();
    assert_eq!(met.iter().filter(|&&n| n == luca.number).count(), 2);
}

#[test]
fn the_event_crosstable_matches_the_results() {
    let rows = results();
    let s = Standings::compute(&event_pairings(&rows), &StandingsOptions::default()).unwrap();
    let number: BTreeMap<&str, usize> = s
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.number))
        .collect();
    for r in &rows {
        for (me, opp, side, mine, theirs) in [
            (&r.black, &r.white, Side::Black, r.discs[0], r.discs[1]),
            (&r.white, &r.black, Side::White, r.discs[1], r.discs[0]),
        ] {
            let p = &s.players[number[me.as_str()] - 1];
            let cell = p.rounds[r.round as usize - 1].as_ref().unwrap();
            assert_eq!(cell.opponent, Some(number[opp.as_str()]));
            assert_eq!(cell.colour, Some(side));
            assert_eq!(cell.discs, Some([mine, theirs]));
            assert_eq!(cell.board, Some(r.board.to_string()));
        }
    }
    insta::assert_snapshot!("event_text", s.to_text());
}

fn sheet(name: &str) -> Vec<reversi_formats::record::Record> {
    let input = Input::open(format!("{EVENT}/{name}")).unwrap();
    input
        .format
        .read(input.reader, &input.options)
        .map(|g| g.unwrap().record.unwrap())
        .collect()
}

fn moves(record: &reversi_formats::record::Record) -> Vec<String> {
    record.moves.iter().map(|m| format!("{:?}", m.mv)).collect()
}

#[test]
fn the_planted_extra_records_are_what_the_readme_says() {
    // Round 2: game 21 is an exact copy of game 5.
    let round2 = sheet("round2.rgn");
    assert_eq!(round2.len(), 21);
    assert_eq!(round2[20].without_spans(), round2[4].without_spans());
    // Round 4: game 21 is board 2 rotated half a turn, legal, with other names, no board.
    let round4 = sheet("round4.pgn");
    assert_eq!(round4.len(), 21);
    let (phone, real) = (&round4[20], &round4[1]);
    let rotate = |name: &str| -> String {
        let b = name.as_bytes();
        format!(
            "{}{}",
            (b'a' + b'h' - b[0]) as char,
            (b'1' + b'8' - b[1]) as char
        )
    };
    let rotated: Vec<String> = real
        .moves
        .iter()
        .map(|m| match m.mv {
            reversi_engine::Move::Place(sq) => rotate(sq.name()),
            reversi_engine::Move::Pass => "pass".to_owned(),
        })
        .collect();
    let written: Vec<String> = phone
        .moves
        .iter()
        .map(|m| match m.mv {
            reversi_engine::Move::Place(sq) => sq.name().to_owned(),
            reversi_engine::Move::Pass => "pass".to_owned(),
        })
        .collect();
    assert_eq!(written, rotated);
    let report = validate_record(phone, 21);
    assert_eq!(report.errors(), 0);
    assert_eq!(report.outcome, validate_record(real, 2).outcome);
    assert_eq!(
        (phone.tag("Black"), phone.tag("White")),
        (Some("tomoko"), Some("b. lopes"))
    );
    assert_eq!((phone.tag("Round"), phone.tag("Board")), (Some("4"), None));
    // Round 5: game 21 is round 3 board 7 again, under round 5 and a board that is not.
    let round5 = sheet("round5.json");
    let round3 = sheet("round3.pgn");
    assert_eq!(round5.len(), 21);
    assert_eq!(moves(&round5[20]), moves(&round3[6]));
    assert_eq!(round5[20].tag("Black"), round3[6].tag("Black"));
    assert_eq!(
        (round5[20].tag("Round"), round5[20].tag("Board")),
        (Some("5"), Some("21"))
    );
    // The other sheets hold their 20 boards and nothing else.
    for name in ["round1.rgn", "round3.pgn", "round6.pgn", "round7.rgn"] {
        assert_eq!(sheet(name).len(), 20, "{name}");
    }
}

#[test]
fn an_archive_without_rounds_is_noted_a_hundred_games_a_reason_then_counted() {
    use reversi_check::event::Event;
    use reversi_formats::{Format, ReadOptions};
    // 250 games without a round (and without moves: none is a copy of another), and one
    // with a round.
    let mut text: String = (0..250)
        .map(|k| format!("[Black \"B{k}\"]\n[White \"W{k}\"]\n\n*\n\n"))
        .collect();
    text.push_str("[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n\nf5 f6 *\n\n");
    let games = Format::Rgn
        .read_bytes(text, &ReadOptions::default())
        .unwrap();
    let mut event = Event::default();
    event.add_games("archive.rgn", &games);
    let tally = event.tally();
    let no_round: Vec<&str> = tally
        .notes
        .iter()
        .map(|n| n.message.as_str())
        .filter(|m| m.contains("no Round tag"))
        .collect();
    assert_eq!(no_round.len(), 101, "{no_round:?}");
    assert_eq!(
        no_round[100],
        "left out, as 150 more games of archive.rgn: it has no Round tag"
    );
    // The game with a round still comes to the standings.
    assert_eq!(tally.pairings.len(), 1);
}

#[test]
fn a_ten_by_ten_event_is_ranked_on_its_hundred_squares() {
    // spec/standings.md, per board size: a bye is worth half the board (50), a result
    // without counts 51-49; the BQ weight stays 6.
    let pairings = [
        Pairing::game(1, "Ann", "Bob", discs(60, 40)),
        Pairing::bye(1, "Cid"),
        Pairing::game(2, "Cid", "Ann", GameResult::Winner(Some(Side::White))),
        Pairing::bye(2, "Bob"),
    ];
    let options = StandingsOptions {
        squares: 100,
        ..StandingsOptions::default()
    };
    let s = Standings::compute(&pairings, &options).unwrap();
    let lines: Vec<(&str, String, u32, u32)> = s
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.points.to_string(), p.bq, p.discs))
        .collect();
    // Ann: 60 + 6x1 (Bob) + 51 + 6x1 (Cid) = 123, discs 60 + 51.
    // Cid: bye 50 + 6x1 + 49 + 6x2 (Ann) = 117, discs 50 + 49.
    // Bob: 40 + 6x2 (Ann) + bye 50 + 6x1 = 108, discs 40 + 50.
    assert_eq!(
        lines,
        [
            ("Ann", "2".to_owned(), 123, 111),
            ("Cid", "1".to_owned(), 117, 99),
            ("Bob", "1".to_owned(), 108, 90),
        ]
    );
    // 70-40 fits no 100-square board; 60-40 fits, but not on 8x8.
    let too_many = [Pairing::game(1, "Ann", "Bob", discs(70, 40))];
    let err = Standings::compute(&too_many, &options).unwrap_err();
    assert_eq!(
        err.to_string(),
        "the pairings cannot be ranked:\n  70-40 is more than the 100 discs of the board (file 0, game 0)"
    );
    assert!(Standings::compute(&pairings, &StandingsOptions::default()).is_err());
}

/// An evening's games: the Open on 8x8, its 10x10 side event under the same `Event` name
/// (Ann and Bob play both, round 1 of each), and a Blitz with the same players.
const EVENING: &str = "\
[Event \"Open\"]\n[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
[Event \"Open\"]\n[Round \"1\"]\n[Black \"Cid\"]\n[White \"Dee\"]\n[Result \"30-34\"]\n\n\
[Event \"open\"]\n[Rules \"othello:10x10\"]\n[Round \"1\"]\n[Black \"Bob\"]\n[White \"Ann\"]\n[Result \"55-45\"]\n\n\
[Event \"Open\"]\n[Rules \"othello:10x10\"]\n[Round \"1\"]\n[Black \"Cid\"]\n[White \"bye\"]\n\n\
[Event \"Blitz\"]\n[Round \"1\"]\n[Black \"Ann\"]\n[White \"Cid\"]\n[Result \"1-0\"]\n";

fn evening() -> reversi_check::event::Event {
    use reversi_formats::{Format, ReadOptions};
    let games = Format::Rgn
        .read_bytes(EVENING, &ReadOptions::default())
        .unwrap();
    let mut event = reversi_check::event::Event::default();
    event.add_games("evening.rgn", &games);
    event
}

#[test]
fn each_event_and_board_is_ranked_on_its_own() {
    use reversi_check::event::StandingsRequest;
    let event = evening();
    let report = event.standings(&StandingsRequest::default()).unwrap();
    assert!(report.is_complete(), "{:?}", report.problems());
    // Each event's heading, squares, and players with their points and discs.
    type Table<'a> = (Option<&'a str>, u32, Vec<(&'a str, String, u32)>);
    let tables: Vec<Table> = report
        .events
        .iter()
        .map(|e| {
            let s = e.standings.as_ref().unwrap();
            let players = s
                .players
                .iter()
                .map(|p| (p.name.as_str(), p.points.to_string(), p.discs))
                .collect();
            (e.event.as_deref(), e.squares, players)
        })
        .collect();
    assert_eq!(
        tables,
        [
            (
                Some("Open (othello)"),
                64,
                vec![
                    ("Ann", "1".to_owned(), 40),
                    ("Dee", "1".to_owned(), 34),
                    ("Cid", "0".to_owned(), 30),
                    ("Bob", "0".to_owned(), 24)
                ]
            ),
            (
                Some("Open (othello:10x10)"),
                100,
                // Cid's bye is half of 100 squares: a BQ of 50 + 6 x 1 = 56, above Bob's
                // 55 + 6 x 0 (Ann's points).
                vec![
                    ("Cid", "1".to_owned(), 50),
                    ("Bob", "1".to_owned(), 55),
                    ("Ann", "0".to_owned(), 45)
                ]
            ),
            (
                Some("Blitz"),
                64,
                vec![("Ann", "1".to_owned(), 33), ("Cid", "0".to_owned(), 31)]
            ),
        ]
    );
    // The checks across games group the games the same way: nobody is twice in round 1.
    let findings: Vec<String> = event.check(None).iter().map(|f| f.to_string()).collect();
    assert!(findings.is_empty(), "{findings:?}");
}

#[test]
fn one_event_is_chosen_by_name_and_an_unknown_name_is_refused() {
    use reversi_check::event::StandingsRequest;
    let event = evening();
    let ask = |name: &str| {
        event.standings(&StandingsRequest {
            event: Some(name.to_owned()),
            ..StandingsRequest::default()
        })
    };
    // A name shared by two boards gives both; a heading, or another spelling, gives one.
    let headings = |name: &str| -> Vec<Option<String>> {
        ask(name)
            .unwrap()
            .events
            .into_iter()
            .map(|e| e.event)
            .collect()
    };
    assert_eq!(
        headings("OPEN"),
        [
            Some("Open (othello)".to_owned()),
            Some("Open (othello:10x10)".to_owned())
        ]
    );
    assert_eq!(
        headings("open (othello:10x10)"),
        [Some("Open (othello:10x10)".to_owned())]
    );
    assert_eq!(headings(" blitz "), [Some("Blitz".to_owned())]);
    let unknown = ask("Rapid").unwrap_err();
    assert_eq!(
        unknown.to_string(),
        "no event is called \"Rapid\"; the games hold \"Open (othello)\", \"Open (othello:10x10)\", \"Blitz\""
    );
}

#[test]
fn a_withdrawn_player_counts_in_the_events_they_play_and_an_unknown_one_is_a_problem() {
    use reversi_check::event::StandingsRequest;
    let event = evening();
    let request = |names: &[&str]| StandingsRequest {
        withdrawn: Some(names.iter().map(|n| n.to_string()).collect()),
        ..StandingsRequest::default()
    };
    let report = event.standings(&request(&["Dee"])).unwrap();
    assert!(report.is_complete());
    let withdrawn: Vec<Vec<&str>> = report
        .events
        .iter()
        .map(|e| {
            let s = e.standings.as_ref().unwrap();
            s.players
                .iter()
                .filter(|p| p.withdrawn)
                .map(|p| p.name.as_str())
                .collect()
        })
        .collect();
    assert_eq!(withdrawn, [vec!["Dee"], vec![], vec![]]);
    let report = event.standings(&request(&["Eve"])).unwrap();
    assert!(!report.is_complete());
    assert_eq!(
        report.problems(),
        ["Eve is given as withdrawn but plays no game"]
    );
}

/// Three rounds of five players as a director keeps them: the sheets of the games played,
/// and a pairings file in French, saved by a spreadsheet in Windows-1252, with the byes
/// (`EXEMPT`, `-`), a forfeit (`+:-`: Cid did not come), an adjourned game without a
/// record yet, and Eve's withdrawal from round 3.
const SHEETS: &str = "\
[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n\n\
[Round \"1\"]\n[Black \"Cid\"]\n[White \"Dee\"]\n[Result \"30-34\"]\n\n\
[Round \"2\"]\n[Black \"dee\"]\n[White \"Eve\"]\n[Result \"20-44\"]\n\n\
[Round \"3\"]\n[Black \"Bob\"]\n[White \"Dee\"]\n[Result \"35-29\"]\n";

const PAIRINGS: &[u8] = b"ronde;table;noir;blanc;r\xe9sultat\r\n\
1;1;Ann;Bob;\r\n1;2;Cid;Dee;\r\n1;;Eve;EXEMPT;\r\n\
2;1;Bob;Cid;+:-\r\n2;2;Dee;Eve;\r\n2;;Ann;-;\r\n\
3;1;Ann;Cid;ajourn\xe9e\r\n3;2;Bob;Dee;\r\n3;;Eve;;abandon\r\n";

#[test]
fn the_pairings_file_gives_the_byes_forfeits_withdrawals_and_games_to_come() {
    use reversi_check::event::{Event, Schedule, StandingsRequest};
    use reversi_formats::{Format, ReadOptions};
    let schedule = Schedule::from_bytes(PAIRINGS).unwrap();
    assert_eq!(schedule.pairings().len(), 9);
    let mut event = Event::default();
    let games = Format::Rgn
        .read_bytes(SHEETS, &ReadOptions::default())
        .unwrap();
    event.add_games("sheets.rgn", &games);
    let report = event
        .standings(&StandingsRequest {
            pairings: Some(schedule.clone()),
            ..StandingsRequest::default()
        })
        .unwrap();
    assert!(report.is_complete(), "{:?}", report.problems());
    let s = report.events[0].standings.as_ref().unwrap();
    let lines: Vec<(&str, String, u32, u32, bool)> = s
        .players
        .iter()
        .map(|p| {
            (
                p.name.as_str(),
                p.points.to_string(),
                p.bq,
                p.discs,
                p.withdrawn,
            )
        })
        .collect();
    // By hand (spec/standings.md; Eve withdrawn, so her opponents count 32 + 6 x their
    // own points for her; the adjourned game scores nothing yet):
    //   Bob 2: 24 + 6x2 (Ann) + 33 (forfeit) + 6x0 (Cid) + 35 + 6x1 (Dee) = 110
    //   Ann 2: 40 + 6x2 (Bob) + bye 32 + 6x2 = 96
    //   Eve 2: bye 32 + 6x2 + 44 + 6x1 (Dee) = 94
    //   Dee 1: 34 + 6x0 (Cid) + (32 + 6x1: Eve withdrew) + 29 + 6x2 (Bob) = 113
    //   Cid 0: 30 + 6x1 (Dee) + 31 (forfeit lost) + 6x2 (Bob) = 79
    assert_eq!(
        lines,
        [
            ("Bob", "2".to_owned(), 110, 92, false),
            ("Ann", "2".to_owned(), 96, 72, false),
            ("Eve", "2".to_owned(), 94, 76, true),
            ("Dee", "1".to_owned(), 113, 83, false),
            ("Cid", "0".to_owned(), 79, 61, false),
        ]
    );
    let cid = &s.players[4];
    assert_eq!(cid.rounds[1].as_ref().unwrap().text(), "1W loss ff");
    // The adjourned game keeps the standings provisional, named by its line.
    assert_eq!(s.unfinished, [PairingSource::pairings_line(8)]);
    assert!(
        report
            .notes
            .iter()
            .any(|n| n == "line 8 of the pairings: round 3, Ann vs Cid: adjourned, no record yet: counted as not played yet"),
        "{:?}",
        report.notes
    );
    // Against the schedule, only the adjourned game's record is missing: byes, the
    // forfeit and the withdrawal expect none.
    let codes: Vec<String> = event
        .check(Some(&schedule))
        .iter()
        .map(|f| f.code.name().to_owned())
        .collect();
    assert_eq!(codes, ["missing-game"]);
}

#[test]
fn pairings_headers_in_other_languages_and_orders_are_headers() {
    use reversi_check::event::{LineStatus, Schedule};
    for text in [
        "Runde,Brett,Weiss,Schwarz\n1,1,Bob,Ann\n",
        "ronde\tbord\tzwart\twit\n1\t1\tAnn\tBob\n",
        "blancas;negras;ronda\nBob;Ann;1\n",
        "回戦,盤,黒,白\n1,1,Ann,Bob\n",
        "\u{feff}Round;Board;Black;White;Result\n1;1;Ann;Bob;40-24\n",
    ] {
        let schedule = Schedule::parse(text).unwrap_or_else(|e| panic!("{text:?}: {e}"));
        let lines = schedule.pairings();
        assert_eq!(lines.len(), 1, "{text:?}");
        assert_eq!(
            (
                lines[0].round.as_str(),
                lines[0].black.as_str(),
                lines[0].white.as_str()
            ),
            ("1", "Ann", "Bob"),
            "{text:?}"
        );
        assert_eq!(lines[0].status, LineStatus::Game, "{text:?}");
    }
    // Byes in several spellings, a double forfeit, and lines the schedule cannot read.
    let schedule = Schedule::parse("1,,Ann,spielfrei\n1,,vrij,Bob\n1,2,Cid,Dee,-:-\n").unwrap();
    let seen: Vec<(&str, LineStatus)> = schedule
        .pairings()
        .iter()
        .map(|l| (l.black.as_str(), l.status))
        .collect();
    assert_eq!(
        seen,
        [
            ("Ann", LineStatus::Bye),
            ("Bob", LineStatus::Bye),
            (
                "Cid",
                LineStatus::Forfeit {
                    black_absent: true,
                    white_absent: true
                }
            )
        ]
    );
    let err = Schedule::parse("round,board,black,white\n1,1,Ann,\n").unwrap_err();
    assert_eq!(err.line, 2);
    assert!(err.message.starts_with("no white player"), "{err}");
    let err = Schedule::parse("ronde;table;noir\n1;1;Ann\n").unwrap_err();
    assert_eq!(err.to_string(), "line 1: the header names no white column");
}

#[test]
fn an_adjourned_game_recorded_in_two_parts_is_one_game_and_the_finished_part_counts() {
    use reversi_check::event::{Event, StandingsRequest};
    use reversi_formats::{Format, ReadOptions};
    // Round 1, Ann v Bob: the sheet up to the adjournment (`*`), then the whole game in
    // another file, its colours written the other way round by the second recorder.
    let adjourned =
        "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"*\"]\n1. f5 d6 2. c3\n\n\
                     [Round \"1\"]\n[Black \"Cid\"]\n[White \"Dee\"]\n[Result \"30-34\"]\n";
    let resumed = "[Round \"1\"]\n[Black \"ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\n";
    let mut event = Event::default();
    for (name, text) in [("evening.rgn", adjourned), ("resumed.rgn", resumed)] {
        let games = Format::Rgn
            .read_bytes(text, &ReadOptions::default())
            .unwrap();
        event.add_games(name, &games);
    }
    let findings: Vec<String> = event.check(None).iter().map(|f| f.to_string()).collect();
    assert!(findings.is_empty(), "{findings:?}");
    let report = event.standings(&StandingsRequest::default()).unwrap();
    assert!(report.is_complete(), "{:?}", report.problems());
    let s = report.events[0].standings.as_ref().unwrap();
    assert!(s.unfinished.is_empty(), "{:?}", s.unfinished);
    let ann = s.players.iter().find(|p| p.name == "Ann").unwrap();
    assert_eq!(
        (ann.points.to_string(), ann.discs, ann.games),
        ("1".to_owned(), 40, 1)
    );
    assert!(
        report
            .notes
            .iter()
            .any(|n| n.starts_with("game 1 of evening.rgn")
                && n.contains(
                    "left out: an unfinished record (an adjourned game) that game 1 of resumed.rgn"
                )),
        "{:?}",
        report.notes
    );
}

#[test]
fn of_two_copies_the_one_that_matches_its_pairing_counts_and_the_note_says_why() {
    use reversi_check::event::{Event, Schedule, StandingsRequest};
    use reversi_formats::{Format, ReadOptions};
    // A phone entry read from the other side of the board (its moves reflected on the
    // diagonal) with the players the other way round, then the typed sheet.
    let phone = "[Round \"1\"]\n[Black \"Bob\"]\n[White \"Ann\"]\n[Result \"24-40\"]\ne6 f4 c3\n";
    let typed = "[Round \"1\"]\n[Black \"Ann\"]\n[White \"Bob\"]\n[Result \"40-24\"]\nf5 d6 c3\n";
    let mut event = Event::default();
    for (name, text) in [("phone.rgn", phone), ("typed.rgn", typed)] {
        let games = Format::Rgn
            .read_bytes(text, &ReadOptions::default())
            .unwrap();
        event.add_games(name, &games);
    }
    let winner = |request: &StandingsRequest| {
        let report = event.standings(request).unwrap();
        let s = report.events[0].standings.clone().unwrap();
        (s.players[0].name.clone(), report.notes)
    };
    // Without pairings, the first read counts.
    let (first, notes) = winner(&StandingsRequest::default());
    assert_eq!(first, "Ann", "{notes:?}");
    assert!(
        notes.iter().any(|n| n.starts_with("game 1 of typed.rgn")
            && n.contains("left out: the same game as game 1 of phone.rgn")),
        "{notes:?}"
    );
    // With them, the copy that matches its pairing counts, and the note says why.
    let pairings = Schedule::parse("round,board,black,white\n1,1,Ann,Bob\n").unwrap();
    let (_, notes) = winner(&StandingsRequest {
        pairings: Some(pairings),
        ..StandingsRequest::default()
    });
    assert!(
        notes.iter().any(|n| n.starts_with("game 1 of phone.rgn")
            && n.ends_with("which matches its pairing (line 2 of the pairings): that one counts")),
        "{notes:?}"
    );
}

#[test]
fn a_pairings_file_before_any_sheet_gives_its_byes_and_forfeits() {
    use reversi_check::event::{Event, Schedule, StandingsRequest};
    let pairings =
        Schedule::parse("round,board,black,white,result\n1,1,Ann,Bob,+:-\n1,,Cy,bye,\n").unwrap();
    let report = Event::default()
        .standings(&StandingsRequest {
            pairings: Some(pairings),
            ..StandingsRequest::default()
        })
        .unwrap();
    assert!(report.is_complete(), "{:?}", report.problems());
    let s = report.events[0].standings.as_ref().unwrap();
    let lines: Vec<(&str, String)> = s
        .players
        .iter()
        .map(|p| (p.name.as_str(), p.points.to_string()))
        .collect();
    // Cy's bye: 32 + 6 x 1 = 38; Ann's forfeit win: 33 + 6 x 0 = 33.
    assert_eq!(
        lines,
        [
            ("Cy", "1".to_owned()),
            ("Ann", "1".to_owned()),
            ("Bob", "0".to_owned())
        ]
    );
}
