//! The event over the files loaded: the event view by round and board, with the pairings'
//! lines; the standings with their findings; the register and pairings found in the
//! served folders as the command line finds them.

use super::*;

impl Desk {
    /// Every game of every loaded file, as the event view lays them out by round and board
    /// and by player: the file's id, the game's number, its identity (the library's) and
    /// status, and for the later of two copies (the library's `duplicate-game`) the game it
    /// copies. With a pairings file in the served folder, each of its lines too: a game,
    /// a bye, a forfeit, an adjourned game or a withdrawal, and whether a game it expects
    /// is missing (the library's `missing-game`).
    pub(crate) fn event_games(&self, found: EventFiles) -> Value {
        let mut games: Vec<Value> = self
            .loaded()
            .flat_map(|(id, f)| {
                f.games.iter().map(move |g| {
                    let mut row = g.row();
                    row["file"] = json!(id);
                    row
                })
            })
            .collect();
        let (event, pairings, notes) = self.event(found);
        let findings = event.check(pairings.as_ref());
        let ids: Vec<(usize, &str)> = self.loaded().map(|(i, f)| (i, &*f.name)).collect();
        let id_of = |file: &str| ids.iter().find(|(_, name)| *name == file).map(|(i, _)| *i);
        let mut missing = std::collections::HashSet::new();
        for f in &findings {
            match f.code {
                reversi_formats::codes::Code::DuplicateGame => {
                    let (Some(first), Some(copy)) = (f.games.first(), f.games.get(1)) else {
                        continue;
                    };
                    let (Some(first_id), Some(copy_id)) = (id_of(&first.file), id_of(&copy.file))
                    else {
                        continue;
                    };
                    let row = games
                        .iter_mut()
                        .find(|r| r["file"] == json!(copy_id) && r["index"] == json!(copy.game));
                    if let Some(row) = row {
                        row["duplicate_of"] = json!({"file": first_id, "game": first.game});
                    }
                }
                reversi_formats::codes::Code::MissingGame => {
                    missing.insert(f.message.clone());
                }
                _ => {}
            }
        }
        let lines: Vec<Value> = pairings
            .as_ref()
            .map(|p| p.pairings())
            .unwrap_or_default()
            .iter()
            .map(|p| {
                use reversi_check::event::LineStatus as S;
                let (status, absent) = match p.status {
                    S::Game => ("game", None),
                    S::Bye => ("bye", None),
                    S::Forfeit {
                        black_absent,
                        white_absent,
                    } => (
                        "forfeit",
                        Some(match (black_absent, white_absent) {
                            (true, true) => "both",
                            (true, false) => "black",
                            _ => "white",
                        }),
                    ),
                    S::Adjourned => ("adjourned", None),
                    S::Withdrawn => ("withdrawn", None),
                };
                let tag = format!("(line {} of the pairings)", p.line);
                let is_missing = p.expects_a_game() && missing.iter().any(|m| m.contains(&tag));
                json!({
                    "line": p.line,
                    "round": p.round,
                    "board": p.board,
                    "black": p.black,
                    "white": p.white,
                    "status": status,
                    "absent": absent,
                    "missing": is_missing,
                })
            })
            .collect();
        json!({ "games": games, "pairings": lines, "notes": notes })
    }

    /// The standings of every file loaded: the library's report (each event's standings,
    /// the notes on the way), with the findings across games.
    pub(crate) fn standings(&self, found: EventFiles) -> Value {
        let (event, pairings, mut notes) = self.event(found);
        // Each finding as the command line prints it, with the games it names as the page
        // opens them: the loaded file's id (by the name its games were added under) and
        // the game's number.
        let ids: Vec<(usize, &str)> = self.loaded().map(|(i, f)| (i, &*f.name)).collect();
        let findings: Vec<Value> = event
            .check(pairings.as_ref())
            .iter()
            .map(|f| {
                let games: Vec<Value> = f
                    .games
                    .iter()
                    .filter_map(|g| {
                        let (id, _) = ids.iter().find(|(_, name)| *name == g.file)?;
                        Some(json!({"file": id, "game": g.game}))
                    })
                    .collect();
                json!({"text": f.to_string(), "code": f.code.name(), "games": games})
            })
            .collect();
        let request = StandingsRequest {
            pairings,
            ..StandingsRequest::default()
        };
        // With no event asked for, the run cannot refuse the request.
        let mut value = match event.standings(&request) {
            Ok(report) => serde_json::to_value(&report).unwrap_or_else(|_| json!({})),
            Err(unknown) => json!({ "events": [], "notes": [], "problems": [unknown.to_string()] }),
        };
        value["findings"] = json!(findings);
        if let Some(said) = value["notes"].as_array_mut() {
            let mut all: Vec<Value> = notes.drain(..).map(Value::from).collect();
            all.append(said);
            *said = all;
        }
        value
    }

    /// Every loaded file's games as one event, read through the served folder's register;
    /// the pairings, and the notes on reading the two.
    fn event(&self, found: EventFiles) -> (Event, Option<Schedule>, Vec<String>) {
        let mut event = Event::default();
        for (_, file) in self.loaded() {
            let games: Vec<ParsedGame> =
                file.games.iter().map(|g| g.parsed().into_owned()).collect();
            event.add_games(&file.name, &games);
        }
        // The director's register and pairings, when a served folder holds them.
        let EventFiles {
            register,
            pairings,
            notes,
        } = found;
        if let Some(register) = register {
            event.set_register(std::sync::Arc::new(register));
        }
        (event, pairings, notes)
    }
}

/// The director's files a served folder holds beside the sheets.
#[derive(Default)]
pub(crate) struct EventFiles {
    pub(super) register: Option<Register>,
    pub(super) pairings: Option<Schedule>,
    /// What was read, and what could not be.
    pub(super) notes: Vec<String>,
}

/// The player register and the pairings file in the served folders, found as the command
/// line finds them ([`run::walk`]: told by their headers, only regular files opened, so a
/// FIFO named `x.csv` never hangs the desk), with a note for each read and each that
/// cannot be. Read outside the desk's lock.
pub(crate) fn event_files(roots: &[Root]) -> EventFiles {
    let folders: Vec<PathBuf> = roots
        .iter()
        .filter(|r| r.only.is_none())
        .map(|r| r.dir.clone())
        .collect();
    let mut notes = Vec::new();
    let walked = match run::walk(&folders) {
        Ok(walked) => walked,
        Err(e) => {
            notes.push(format!("the served folders could not be walked: {e}"));
            run::Walked::default()
        }
    };
    let register = walked.register(None, &mut notes);
    let register = register.unwrap_or_else(|e| {
        notes.push(e.to_string());
        None
    });
    let pairings = walked.pairings(None, &mut notes);
    let pairings = pairings.unwrap_or_else(|e| {
        notes.push(e.to_string());
        None
    });
    EventFiles {
        register,
        pairings,
        notes: notes
            .into_iter()
            .map(|n| relative_note(&folders, n))
            .collect(),
    }
}

/// A note with the served folder it names left out: the page names files by their path
/// inside a served folder.
pub(super) fn relative_note(folders: &[PathBuf], note: String) -> String {
    folders
        .iter()
        .filter_map(|f| f.to_str())
        .fold(note, |note, folder| note.replace(&format!("{folder}/"), ""))
}
