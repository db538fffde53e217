//! Edits of tags over whole files: a tag set on every game (`--set Round=4`), and players'
//! names mapped (a game server's logins to the names of the register). They change what
//! the records say about a game, never its moves or its result.
//!
//! ```
//! use reversi_formats::record::{Record, TagEdits};
//! let mut edits = TagEdits::default();
//! edits.set("Round=4".parse()?);
//! edits.rename("jdupont", "Jean Dupont");
//! let mut record = Record::default();
//! record.set_tag("Black", "JDupont");
//! record.set_tag("White", "anna_m");
//! assert!(edits.apply(&mut record));
//! assert_eq!(record.tag("Round"), Some("4"));
//! assert_eq!(record.tag("Black"), Some("Jean Dupont"));
//! assert_eq!(record.tag("White"), Some("anna_m"));
//! # Ok::<(), reversi_formats::record::BadTagEdit>(())
//! ```

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use super::{Record, Tag, TagName};

/// One `TAG=VALUE`: a tag to set on every game.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetTag {
    /// The tag's name.
    pub name: String,
    /// Its value (empty: the tag is removed).
    pub value: String,
}

/// Why a `TAG=VALUE` cannot be set.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadTagEdit(pub String);

impl fmt::Display for BadTagEdit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadTagEdit {}

impl FromStr for SetTag {
    type Err = BadTagEdit;

    /// `TAG=VALUE`; the tags with their own fields (`Rules`, `Start`, `Result`,
    /// `Termination`) change what a game means and are refused.
    fn from_str(text: &str) -> Result<SetTag, BadTagEdit> {
        let Some((name, value)) = text.split_once('=') else {
            return Err(BadTagEdit(format!("{text:?}: expected TAG=VALUE")));
        };
        let name = name.trim();
        let valid = !name.is_empty()
            && name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
        if !valid {
            return Err(BadTagEdit(format!(
                "{name:?} is not a tag name (letters, digits, `_` and `-`)"
            )));
        }
        if TagName::RESERVED
            .iter()
            .any(|r| r.eq_ignore_ascii_case(name))
        {
            return Err(BadTagEdit(format!(
                "{name} changes what the game means, and is not set over whole files (`reversi repair` edits results)"
            )));
        }
        if value.contains(['\n', '\r']) {
            return Err(BadTagEdit(format!(
                "the value of {name} holds a line break"
            )));
        }
        Ok(SetTag {
            name: name.to_owned(),
            value: value.trim().to_owned(),
        })
    }
}

/// The tags to set and the names to map, for every game of a run.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TagEdits {
    set: Vec<SetTag>,
    /// Old names, folded ([`fold_name`]), to new ones.
    renames: HashMap<String, String>,
}

impl TagEdits {
    /// Sets `tag` on every game (the last given for one name wins).
    pub fn set(&mut self, tag: SetTag) {
        self.set.retain(|t| !t.name.eq_ignore_ascii_case(&tag.name));
        self.set.push(tag);
    }

    /// Writes `new` for a player named `old` (compared ignoring case, accents,
    /// punctuation and spacing).
    pub fn rename(&mut self, old: &str, new: &str) {
        self.renames.insert(fold_name(old), new.trim().to_owned());
    }

    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.set.is_empty() && self.renames.is_empty()
    }

    /// Applies the edits to `record`: the names of its players first, then the tags set
    /// (a tag set to a player's name wins). Returns whether anything changed.
    pub fn apply(&self, record: &mut Record) -> bool {
        self.apply_to_tags(&mut record.tags)
    }

    /// [`TagEdits::apply`] to a list of tags.
    pub fn apply_to_tags(&self, tags: &mut Vec<Tag>) -> bool {
        let mut changed = false;
        if !self.renames.is_empty() {
            for tag in tags.iter_mut() {
                let is_player = ["Black", "White", "Red", "Green"]
                    .iter()
                    .any(|p| tag.name.eq_ignore_ascii_case(p));
                if !is_player {
                    continue;
                }
                if let Some(new) = self.renames.get(&fold_name(&tag.value)) {
                    if *new != tag.value {
                        tag.value = new.clone();
                        changed = true;
                    }
                }
            }
        }
        for SetTag { name, value } in &self.set {
            let at = tags.iter().position(|t| t.name.eq_ignore_ascii_case(name));
            match (at, value.is_empty()) {
                (None, true) => {}
                (Some(_), true) => {
                    tags.retain(|t| !t.name.eq_ignore_ascii_case(name));
                    changed = true;
                }
                (Some(i), false) if tags[i].value == *value => {}
                (Some(i), false) => {
                    tags[i].value = value.clone();
                    changed = true;
                }
                (None, false) => {
                    tags.push(Tag::new(name.as_str(), value.clone()));
                    changed = true;
                }
            }
        }
        changed
    }

    /// Reads a names map: CSV lines `old,new` (or `;`-separated), an optional first line
    /// naming the columns (`old,new`), `#` comments.
    ///
    /// ```
    /// use reversi_formats::record::TagEdits;
    /// let mut edits = TagEdits::default();
    /// edits.read_renames("old;new\njdupont;Jean Dupont\n# done\n").unwrap();
    /// assert!(!edits.is_empty());
    /// assert!(edits.read_renames("jdupont\n").unwrap_err().to_string().starts_with("line 1"));
    /// ```
    pub fn read_renames(&mut self, text: &str) -> Result<usize, BadTagEdit> {
        let text = text.strip_prefix('\u{feff}').unwrap_or(text);
        let mut read = 0;
        for (k, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let separator = if line.contains(';') { ';' } else { ',' };
            let Some((old, new)) = line.split_once(separator) else {
                return Err(BadTagEdit(format!(
                    "line {}: expected `old{separator}new`",
                    k + 1
                )));
            };
            let unquote = |s: &str| s.trim().trim_matches('"').trim().to_owned();
            let (old, new) = (unquote(old), unquote(new));
            if k == 0 && old.eq_ignore_ascii_case("old") && new.eq_ignore_ascii_case("new") {
                continue;
            }
            if old.is_empty() || new.is_empty() {
                return Err(BadTagEdit(format!("line {}: an empty name", k + 1)));
            }
            self.rename(&old, &new);
            read += 1;
        }
        Ok(read)
    }
}

/// A name lower-cased, its accents taken off, its punctuation made spaces and its spacing
/// collapsed: `Müller, Anna` and `muller anna` fold alike. Logins keep their `_` and `@`.
///
/// ```
/// use reversi_formats::record::fold_name;
/// assert_eq!(fold_name("  Müller,  Anna "), "muller anna");
/// assert_eq!(fold_name("J.-P. Dupont"), "j p dupont");
/// ```
pub fn fold_name(name: &str) -> String {
    let mut out = String::with_capacity(name.len());
    for c in name.chars().flat_map(char::to_lowercase) {
        let c = unaccented(c);
        if c.is_alphanumeric() || c == '_' || c == '@' {
            out.push(c);
        } else if !out.ends_with(' ') && !out.is_empty() {
            out.push(' ');
        }
    }
    out.trim_end().to_owned()
}

/// A Latin letter without its accent (others unchanged).
fn unaccented(c: char) -> char {
    match c {
        'à' | 'á' | 'â' | 'ã' | 'ä' | 'å' | 'ā' | 'ă' | 'ą' => 'a',
        'ç' | 'ć' | 'č' => 'c',
        'ď' => 'd',
        'è' | 'é' | 'ê' | 'ë' | 'ē' | 'ė' | 'ę' | 'ě' => 'e',
        'ì' | 'í' | 'î' | 'ï' | 'ī' | 'į' => 'i',
        'ł' => 'l',
        'ñ' | 'ń' | 'ň' => 'n',
        'ò' | 'ó' | 'ô' | 'õ' | 'ö' | 'ø' | 'ō' | 'ő' => 'o',
        'ř' => 'r',
        'ś' | 'š' | 'ş' => 's',
        'ť' | 'ţ' => 't',
        'ù' | 'ú' | 'û' | 'ü' | 'ū' | 'ů' | 'ű' => 'u',
        'ý' | 'ÿ' => 'y',
        'ź' | 'ż' | 'ž' => 'z',
        c => c,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tags_that_change_a_games_meaning_are_refused() {
        for text in [
            "Result=1-0",
            "rules=anti",
            "Start=x",
            "Round",
            "=3",
            "Bad name=1",
        ] {
            assert!(text.parse::<SetTag>().is_err(), "{text}");
        }
        let mut edits = TagEdits::default();
        edits.set("Annotator=".parse().unwrap());
        let mut record = Record::default();
        record.set_tag("Annotator", "someone");
        assert!(edits.apply(&mut record));
        assert_eq!(record.tag("Annotator"), None);
        assert!(!edits.apply(&mut record));
    }
}
