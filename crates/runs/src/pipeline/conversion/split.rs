//! Output names made from the games: a template such as `WTH_{year}.wtb` splits a
//! conversion's games into one file per year, event, round, or any tag.

use std::fmt;
use std::str::FromStr;

use crate::record::TagName;

/// A file name with fields filled from each game's tags: `{year}` (the year of `Date`),
/// `{date}`, `{event}`, `{round}`, `{site}`, `{black}`, `{white}`, or any tag by name
/// (`{Board}`). A game without the tag gets `unknown`; characters that cannot be in a
/// file name (`/`, `\`, NUL and other control characters) become `_`, and a value that
/// would name a folder of its own (`.`, `..`) is `_` too; a value is cut to 96 bytes.
///
/// ```
/// use reversi_runs::pipeline::conversion::OutputTemplate;
/// let template: OutputTemplate = "WTH_{year}.wtb".parse().unwrap();
/// let tags = |name: &str| (name == "Date").then_some("2004.06.12");
/// assert_eq!(template.file_name(tags), "WTH_2004.wtb");
/// assert_eq!(template.file_name(|_| None), "WTH_unknown.wtb");
/// let by_event: OutputTemplate = "{event}/{round}.rgn".parse().unwrap();
/// assert_eq!(by_event.file_name(|n| Some(if n == "Event" { "A/B" } else { "3" })), "A_B/3.rgn");
/// let long = "x".repeat(300);
/// assert_eq!(by_event.file_name(|_| Some(long.as_str())).len(), 96 + 1 + 96 + 4);
/// assert!("games.rgn".parse::<OutputTemplate>().is_err());
/// assert!("{year".parse::<OutputTemplate>().is_err());
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutputTemplate {
    parts: Vec<Part>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Part {
    Text(String),
    /// The year of the `Date` tag.
    Year,
    /// A tag's value.
    Tag(String),
}

/// A template that could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TemplateError(String);

impl fmt::Display for TemplateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for TemplateError {}

impl OutputTemplate {
    /// Whether `output` is meant as a template (it holds a `{`).
    pub fn is_template(output: &str) -> bool {
        output.contains('{')
    }

    /// The file name for a game whose tags `tag` gives.
    pub fn file_name<'t>(&self, tag: impl Fn(&str) -> Option<&'t str>) -> String {
        let mut out = String::new();
        for part in &self.parts {
            match part {
                Part::Text(text) => out.push_str(text),
                Part::Year => {
                    let year = tag(TagName::DATE).and_then(year_of);
                    push_field(&mut out, year.unwrap_or("unknown"));
                }
                Part::Tag(name) => {
                    let value = tag(name)
                        .map(str::trim)
                        .filter(|v| !v.is_empty() && *v != "?");
                    push_field(&mut out, value.unwrap_or("unknown"));
                }
            }
        }
        out
    }
}

/// The year a `Date` value starts with (`2004`, `2004.06.12`, `2004-06-12`).
fn year_of(date: &str) -> Option<&str> {
    let date = date.trim();
    let digits = date.bytes().take_while(u8::is_ascii_digit).count();
    (digits == 4).then(|| &date[..4])
}

/// The longest a field's value is in a file name, in bytes: file names have at most 255.
const FIELD_BYTES: usize = 96;

/// Appends a field's value as a safe piece of a file name, cut to [`FIELD_BYTES`].
fn push_field(out: &mut String, value: &str) {
    if value == "." || value == ".." {
        out.push('_');
        return;
    }
    let mut end = value.len().min(FIELD_BYTES);
    while !value.is_char_boundary(end) {
        end -= 1;
    }
    out.extend(value[..end].chars().map(|c| match c {
        '/' | '\\' => '_',
        c if c.is_control() => '_',
        c => c,
    }));
}

impl FromStr for OutputTemplate {
    type Err = TemplateError;

    fn from_str(s: &str) -> Result<OutputTemplate, TemplateError> {
        let mut parts = Vec::new();
        let mut rest = s;
        let mut fields = 0;
        while let Some(open) = rest.find('{') {
            if open > 0 {
                parts.push(Part::Text(rest[..open].to_owned()));
            }
            let after = &rest[open + 1..];
            let Some(close) = after.find('}') else {
                return Err(TemplateError(format!(
                    "`{s}`: a `{{` without its `}}`; fields are written `{{year}}`, `{{event}}`, `{{round}}` or `{{TagName}}`"
                )));
            };
            let name = after[..close].trim();
            if name.is_empty() || name.contains('{') {
                return Err(TemplateError(format!("`{s}`: an empty or nested field")));
            }
            parts.push(match name.to_ascii_lowercase().as_str() {
                "year" => Part::Year,
                "date" => Part::Tag(TagName::DATE.to_owned()),
                "event" => Part::Tag(TagName::EVENT.to_owned()),
                "round" => Part::Tag(TagName::ROUND.to_owned()),
                "site" => Part::Tag(TagName::SITE.to_owned()),
                "black" => Part::Tag("Black".to_owned()),
                "white" => Part::Tag("White".to_owned()),
                _ => Part::Tag(name.to_owned()),
            });
            fields += 1;
            rest = &after[close + 1..];
        }
        if !rest.is_empty() {
            parts.push(Part::Text(rest.to_owned()));
        }
        if fields == 0 {
            return Err(TemplateError(format!(
                "`{s}` has no field such as `{{year}}`"
            )));
        }
        if s.contains('}') && s.matches('}').count() != fields {
            return Err(TemplateError(format!("`{s}`: a `}}` without its `{{`")));
        }
        Ok(OutputTemplate { parts })
    }
}
