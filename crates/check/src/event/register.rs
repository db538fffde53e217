//! The player register a director keeps beside the records: each player's registered name,
//! the other spellings and the game-server logins they appear under, their club and rating.
//! Every name of the games is read through it: an alias or a login is the registered
//! player, and a name it does not hold is a finding that proposes the nearest registered
//! names (`unknown-player`). Without a register, two names of one event that look like
//! one player spelled two ways are a finding too (`similar-names`).
//!
//! The file is CSV (`,` or `;`, fields optionally in double quotes) under a header naming
//! its columns in any order, in English or the director's language: `number`, `name`
//! (the one column required), `aliases` and `logins` (several separated by `|`), `club`,
//! `rating`. A file of one column without a header is a list of names.
//!
//! ```
//! use reversi_check::event::Register;
//! let register = Register::parse(
//!     "nom;alias;pseudos;club\nJean Dupont;Dupont J.|J. Dupont;jdupont;Paris\nAnna Müller;;anna_m;Köln\n",
//! )?;
//! assert_eq!(register.find("dupont j.").map(|p| p.name.as_str()), Some("Jean Dupont"));
//! assert_eq!(register.find("ANNA_M").map(|p| p.name.as_str()), Some("Anna Müller"));
//! assert!(register.find("Jon Dupont").is_none());
//! let nearest: Vec<&str> = register.nearest("Jon Dupont").iter().map(|p| p.name.as_str()).collect();
//! assert_eq!(nearest, ["Jean Dupont"]);
//! let nearest: Vec<&str> = register.nearest("Anna Muller").iter().map(|p| p.name.as_str()).collect();
//! assert_eq!(nearest, ["Anna Müller"]);
//! # Ok::<(), reversi_check::event::SheetError>(())
//! ```

use super::sheets::SheetError;
use std::collections::HashMap;

/// One registered player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Registered {
    /// The line of the register (from 1).
    pub line: usize,
    /// The player's number, when the register gives one.
    pub number: Option<String>,
    /// The registered name: what the standings show.
    pub name: String,
    /// Other spellings of the name the records use.
    pub aliases: Vec<String>,
    /// Logins on game servers (GGS, PlayOK, ...).
    pub logins: Vec<String>,
    /// The club.
    pub club: Option<String>,
    /// The rating.
    pub rating: Option<String>,
}

/// A player register.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Register {
    players: Vec<Registered>,
    /// Each name, alias and login, folded, to its player.
    index: HashMap<String, usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Column {
    Number,
    Name,
    Aliases,
    Logins,
    Club,
    Rating,
}

/// Column names, lower case: English, French, German, Dutch, Spanish, Italian,
/// Portuguese, Japanese.
const COLUMN_NAMES: [(Column, &[&str]); 6] = [
    (
        Column::Number,
        &[
            "number", "no", "nr", "#", "numéro", "numero", "num", "nummer", "número", "番号",
        ],
    ),
    (
        Column::Name,
        &[
            "name",
            "player",
            "nom",
            "joueur",
            "spieler",
            "naam",
            "speler",
            "nombre",
            "jugador",
            "nome",
            "giocatore",
            "jogador",
            "名前",
            "氏名",
            "選手",
        ],
    ),
    (
        Column::Aliases,
        &[
            "aliases",
            "alias",
            "spellings",
            "variantes",
            "aliasse",
            "schreibweisen",
            "alternatieven",
            "alias",
            "alcunhas",
            "別名",
        ],
    ),
    (
        Column::Logins,
        &[
            "logins",
            "login",
            "pseudo",
            "pseudos",
            "benutzername",
            "gebruikersnaam",
            "usuario",
            "utente",
            "usuário",
            "ログイン",
            "id",
        ],
    ),
    (
        Column::Club,
        &[
            "club",
            "verein",
            "vereniging",
            "clube",
            "circolo",
            "クラブ",
            "所属",
        ],
    ),
    (
        Column::Rating,
        &[
            "rating",
            "elo",
            "classement",
            "wertung",
            "rang",
            "ranking",
            "punteggio",
            "レーティング",
        ],
    ),
];

fn column_of(name: &str) -> Option<Column> {
    let name = name.trim().to_lowercase();
    COLUMN_NAMES
        .iter()
        .find(|(_, names)| names.contains(&name.as_str()))
        .map(|(column, _)| *column)
}

impl Register {
    /// Reads the register at `path`; an error names it (`InvalidData` for content that is
    /// not a register).
    pub fn read(path: &std::path::Path) -> std::io::Result<Register> {
        super::sheets::read_file(
            path,
            "register",
            "a register has a header such as `name,aliases,logins,club,rating`",
            Register::from_bytes,
        )
    }

    /// Reads a register's bytes as a spreadsheet saves them: UTF-8 (with or without a byte
    /// order mark), a line that is not UTF-8 as Windows-1252.
    pub fn from_bytes(bytes: &[u8]) -> Result<Register, SheetError> {
        match std::str::from_utf8(bytes) {
            Ok(text) => Register::parse(text),
            Err(_) => Register::parse(&crate::formats::text::decode_line_by_line(bytes)),
        }
    }

    /// Whether `head` (a file's first bytes) starts like a register: a first line naming
    /// a `name` column among columns a register has, and nothing a pairings file or a
    /// table of games has (`black`, `white`).
    ///
    /// ```
    /// use reversi_check::event::Register;
    /// assert!(Register::looks_like(b"\xef\xbb\xbfnom;alias;club\nJean Dupont;;Paris\n"));
    /// assert!(!Register::looks_like(b"ronde;table;noir;blanc\n"));
    /// assert!(!Register::looks_like(b"name,black,white,moves\n"));
    /// ```
    pub fn looks_like(head: &[u8]) -> bool {
        let head = head.strip_prefix(b"\xef\xbb\xbf").unwrap_or(head);
        let line = head.split(|&b| b == b'\n').next().unwrap_or_default();
        let line = crate::formats::text::decode_line_by_line(line);
        let Ok(fields) = super::sheets::split_fields(line.trim()) else {
            return false;
        };
        let columns: Vec<Option<Column>> = fields.iter().map(|f| column_of(f)).collect();
        columns.contains(&Some(Column::Name))
            && columns.iter().all(Option::is_some)
            && !fields.iter().any(|f| super::schedule::is_player_column(f))
    }

    /// Reads a register (the module's page says what it holds).
    pub fn parse(text: &str) -> Result<Register, SheetError> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut register = Register::default();
        let mut columns: Option<Vec<Option<Column>>> = None;
        let mut first = true;
        for (k, line) in text.lines().enumerate() {
            let line_no = k + 1;
            let trimmed = line.trim();
            if trimmed.is_empty() || (trimmed.starts_with('#') && !first) {
                continue;
            }
            let error = |message: String| SheetError {
                line: line_no,
                message,
            };
            let fields = super::sheets::split_fields(trimmed).map_err(error)?;
            if std::mem::take(&mut first) {
                let named: Vec<Option<Column>> = fields.iter().map(|f| column_of(f)).collect();
                if named.contains(&Some(Column::Name)) {
                    columns = Some(named);
                    continue;
                }
                if fields.len() > 1 {
                    return Err(error(
                        "a register of several columns needs a first line naming them (name, aliases, logins, club, rating, number)".into(),
                    ));
                }
            }
            let field = |column: Column| -> String {
                match &columns {
                    Some(named) => named
                        .iter()
                        .position(|c| *c == Some(column))
                        .and_then(|i| fields.get(i))
                        .cloned()
                        .unwrap_or_default(),
                    None if column == Column::Name => fields.first().cloned().unwrap_or_default(),
                    None => String::new(),
                }
            };
            let name = field(Column::Name);
            if name.is_empty() {
                return Err(error("no name".into()));
            }
            let list = |text: String| -> Vec<String> {
                text.split('|')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(str::to_owned)
                    .collect()
            };
            let some = |text: String| (!text.is_empty()).then_some(text);
            let player = Registered {
                line: line_no,
                number: some(field(Column::Number)),
                name,
                aliases: list(field(Column::Aliases)),
                logins: list(field(Column::Logins)),
                club: some(field(Column::Club)),
                rating: some(field(Column::Rating)),
            };
            register.add(player).map_err(error)?;
        }
        Ok(register)
    }

    /// Adds a player; refuses a name, alias or login another player already has.
    fn add(&mut self, player: Registered) -> Result<(), String> {
        let at = self.players.len();
        let spellings = std::iter::once(&player.name)
            .chain(&player.aliases)
            .chain(&player.logins);
        for spelling in spellings {
            let key = fold(spelling);
            match self.index.get(&key) {
                Some(&other) if other != at => {
                    return Err(format!(
                        "{spelling:?} is already {} (line {})",
                        self.players[other].name, self.players[other].line
                    ))
                }
                _ => {
                    self.index.insert(key, at);
                }
            }
        }
        self.players.push(player);
        Ok(())
    }

    /// A first register for the director to correct: one player for each group of
    /// `names` that look like one player ([`similar_pairs`]), registered under the fuller
    /// spelling, the others as aliases (a spelling without spaces with a digit, an
    /// underscore or no capital, as a login). Players in name order, numbered from 1. A
    /// spelling that differs only in case, accents or punctuation needs no alias: the
    /// register compares names without them.
    ///
    /// ```
    /// use reversi_check::event::Register;
    /// let draft = Register::draft(&["Dupont J.", "Jean Dupont", "anna_m", "Anna Müller", "Anna Muller"]);
    /// assert_eq!(
    ///     draft.to_csv(),
    ///     "number,name,aliases,logins,club,rating\n1,Anna Müller,,,,\n2,Jean Dupont,Dupont J.,,,\n3,anna_m,,,,\n"
    /// );
    /// ```
    pub fn draft(names: &[&str]) -> Register {
        // One spelling per folded name, in first-seen order.
        let mut seen = std::collections::HashSet::new();
        let names: Vec<&str> = names
            .iter()
            .map(|n| n.trim())
            .filter(|n| !n.is_empty() && seen.insert(fold(n)))
            .collect();
        // Groups of one player: union-find over the similar pairs.
        let mut parent: Vec<usize> = (0..names.len()).collect();
        fn root(parent: &mut [usize], mut i: usize) -> usize {
            while parent[i] != i {
                parent[i] = parent[parent[i]];
                i = parent[i];
            }
            i
        }
        for (i, j) in similar_pairs(&names) {
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
        let mut groups: HashMap<usize, Vec<&str>> = HashMap::new();
        for (i, name) in names.iter().enumerate() {
            let r = root(&mut parent, i);
            groups.entry(r).or_default().push(name);
        }
        let mut players: Vec<Registered> = groups
            .into_values()
            .map(|group| {
                let name = group.iter().copied().fold(group[0], fuller);
                let login = |n: &str| {
                    !n.contains(' ')
                        && (n.contains(|c: char| c.is_ascii_digit() || c == '_')
                            || !n.contains(char::is_uppercase))
                };
                let others = group.iter().filter(|n| **n != name);
                Registered {
                    name: name.to_owned(),
                    aliases: others
                        .clone()
                        .filter(|n| !login(n))
                        .map(|n| n.to_string())
                        .collect(),
                    logins: others.filter(|n| login(n)).map(|n| n.to_string()).collect(),
                    ..Registered::default()
                }
            })
            .collect();
        players.sort_by(|a, b| a.name.cmp(&b.name));
        let mut register = Register::default();
        for (i, mut player) in players.into_iter().enumerate() {
            player.line = i + 2;
            player.number = Some((i + 1).to_string());
            // Distinct folded spellings: adding cannot fail.
            let _ = register.add(player);
        }
        register
    }

    /// The register as CSV, with the header `number,name,aliases,logins,club,rating`
    /// (aliases and logins separated by `|`).
    pub fn to_csv(&self) -> String {
        let mut out = String::from("number,name,aliases,logins,club,rating\n");
        for p in &self.players {
            let fields = [
                p.number.clone().unwrap_or_default(),
                p.name.clone(),
                p.aliases.join("|"),
                p.logins.join("|"),
                p.club.clone().unwrap_or_default(),
                p.rating.clone().unwrap_or_default(),
            ];
            let quoted: Vec<String> = fields.iter().map(|f| csv_field(f)).collect();
            out.push_str(&quoted.join(","));
            out.push('\n');
        }
        out
    }

    /// The names a register maps: every alias and login to its player's name, for
    /// [`TagEdits::rename`](crate::record::TagEdits::rename).
    pub fn renames(&self) -> impl Iterator<Item = (&str, &str)> {
        self.players.iter().flat_map(|p| {
            p.aliases
                .iter()
                .chain(&p.logins)
                .chain(std::iter::once(&p.name))
                .map(move |old| (old.as_str(), p.name.as_str()))
        })
    }

    /// The players, in the register's order.
    pub fn players(&self) -> &[Registered] {
        &self.players
    }

    /// The player a name, an alias or a login stands for (compared ignoring case, accents,
    /// punctuation and spacing).
    pub fn find(&self, name: &str) -> Option<&Registered> {
        self.index.get(&fold(name)).map(|&i| &self.players[i])
    }

    /// The registered players a name the register does not hold may stand for, best first
    /// (at most three): the same words in another order, initials for a first name
    /// (`Dupont J.`), a letter or two off.
    pub fn nearest(&self, name: &str) -> Vec<&Registered> {
        let mut scored: Vec<(u32, usize)> = Vec::new();
        for (i, player) in self.players.iter().enumerate() {
            let spellings = std::iter::once(&player.name)
                .chain(&player.aliases)
                .chain(&player.logins);
            if let Some(score) = spellings.filter_map(|s| likeness(name, s)).min() {
                scored.push((score, i));
            }
        }
        scored.sort();
        scored
            .into_iter()
            .take(3)
            .map(|(_, i)| &self.players[i])
            .collect()
    }
}

/// The pairs of `names` (by index, the lower first, in order) that look like one player
/// ([`likeness`]). Names are compared when they share a word of two letters or more; a
/// word that more than 64 names share (`van`) brings no pair, so a large list costs about
/// as much as it has names.
pub fn similar_pairs(names: &[&str]) -> Vec<(usize, usize)> {
    let mut by_word: HashMap<String, Vec<usize>> = HashMap::new();
    for (i, name) in names.iter().enumerate() {
        let mut words: Vec<String> = fold(name)
            .split(' ')
            .filter(|w| w.chars().count() >= 2)
            .map(str::to_owned)
            .collect();
        words.sort();
        words.dedup();
        for word in words {
            by_word.entry(word).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for group in by_word.values() {
        if group.len() > 64 {
            continue;
        }
        for (x, &i) in group.iter().enumerate() {
            for &j in &group[x + 1..] {
                if likeness(names[i], names[j]).is_some() {
                    pairs.push((i.min(j), i.max(j)));
                }
            }
        }
    }
    pairs.sort_unstable();
    pairs.dedup();
    pairs
}

/// Which of two spellings of one player to register: the fuller (more letters, then more
/// bytes: accents), the first on a tie.
pub fn fuller<'a>(a: &'a str, b: &'a str) -> &'a str {
    let fullness = |n: &str| (n.chars().filter(|c| c.is_alphabetic()).count(), n.len());
    if fullness(b) > fullness(a) {
        b
    } else {
        a
    }
}

use crate::record::fold_name as fold;

/// A CSV field, quoted when it holds a separator, a quote or a line break.
fn csv_field(text: &str) -> String {
    if text.contains([',', ';', '"', '\n', '\r']) {
        format!("\"{}\"", text.replace('"', "\"\""))
    } else {
        text.to_owned()
    }
}

/// How alike two names that differ are (lower is closer), or `None` when they do not look
/// like one player: 1 the same words in another order, 2 an initial for a first name, 3
/// a letter or two off (names of at least five letters).
pub fn likeness(a: &str, b: &str) -> Option<u32> {
    let (fa, fb) = (fold(a), fold(b));
    if fa.is_empty() || fb.is_empty() {
        return None;
    }
    if fa == fb {
        return Some(0);
    }
    let words = |s: &str| -> Vec<String> {
        let mut w: Vec<String> = s.split(' ').map(str::to_owned).collect();
        w.sort();
        w
    };
    let (wa, wb) = (words(&fa), words(&fb));
    if wa == wb {
        return Some(1);
    }
    if initials_match(&wa, &wb) || initials_match(&wb, &wa) {
        return Some(2);
    }
    let limit = match fa.chars().count().min(fb.chars().count()) {
        0..=4 => 0,
        5..=9 => 1,
        _ => 2,
    };
    if limit > 0 && edit_distance(&fa, &fb, limit) <= limit {
        return Some(3);
    }
    None
}

/// Whether `short` is `long` with a first name (or several) written as initials:
/// `dupont j` and `jean dupont`, `j p dupont` and `jean pierre dupont`. At least one word
/// of three letters or more must match in full.
fn initials_match(short: &[String], long: &[String]) -> bool {
    if short.len() != long.len() || short == long {
        return false;
    }
    let mut left: Vec<&str> = long.iter().map(String::as_str).collect();
    let mut full = false;
    // Whole words first, then initials.
    let mut initials = Vec::new();
    for word in short {
        if word.chars().count() == 1 {
            initials.push(word.as_str());
        } else if let Some(i) = left.iter().position(|w| w == word) {
            full |= word.chars().count() >= 3;
            left.remove(i);
        } else {
            return false;
        }
    }
    for initial in initials {
        match left.iter().position(|w| w.starts_with(initial)) {
            Some(i) => {
                left.remove(i);
            }
            None => return false,
        }
    }
    full && left.is_empty()
}

/// The edit distance of two texts, or `limit + 1` once it is past `limit`.
fn edit_distance(a: &str, b: &str, limit: usize) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    if a.len().abs_diff(b.len()) > limit {
        return limit + 1;
    }
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.iter().enumerate() {
        current[0] = i + 1;
        let mut best = current[0];
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
            best = best.min(current[j + 1]);
        }
        if best > limit {
            return limit + 1;
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_that_look_like_one_player() {
        assert_eq!(likeness("Dupont J.", "Jean Dupont"), Some(2));
        assert_eq!(likeness("J.-P. Dupont", "Jean Pierre Dupont"), Some(2));
        assert_eq!(likeness("DUPONT Jean", "Jean Dupont"), Some(1));
        assert_eq!(likeness("Anna Muller", "Anna Müller"), Some(0));
        assert_eq!(likeness("Jean Dupond", "Jean Dupont"), Some(3));
        assert_eq!(likeness("Jean Dupont", "Jean Durand"), None);
        assert_eq!(likeness("Ann", "Amy"), None);
        assert_eq!(likeness("J. Martin", "Jean Dupont"), None);
    }

    #[test]
    fn a_spelling_is_one_players_only() {
        let err = Register::parse("name,aliases\nJean Dupont,J. Dupont\nJules Dupont,J. Dupont\n")
            .unwrap_err();
        assert_eq!(err.line, 3);
        assert!(
            err.message.contains("already Jean Dupont (line 2)"),
            "{err}"
        );
        let err = Register::parse("Jean,Dupont\n").unwrap_err();
        assert!(err.message.contains("naming them"), "{err}");
        let one_column = Register::parse("Jean Dupont\nAnna Müller\n").unwrap();
        assert_eq!(one_column.players().len(), 2);
    }
}
