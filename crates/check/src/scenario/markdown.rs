//! Scenarios kept in Markdown: a ```` ```scenario ```` block followed by its expected
//! transcripts, a ```` ```text ```` and/or a ```` ```json ```` block (as `spec/rules.md`).

use std::ops::Range;

/// A fenced block right after a scenario block: its language and its body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ExpectedBlock {
    /// `text` or `json`.
    pub lang: String,
    /// The byte range of the body in the Markdown text (for rewriting it).
    pub range: Range<usize>,
    /// The body.
    pub body: String,
}

/// A ```` ```scenario ```` block and the blocks that follow it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// The scenario text.
    pub scenario: String,
    /// The 1-based line of the opening fence.
    pub line: usize,
    /// The byte offset of the opening fence.
    pub offset: usize,
    /// The ```` ```text ```` / ```` ```json ```` blocks right after it (only blank lines
    /// between), in order.
    pub expected: Vec<ExpectedBlock>,
}

impl Example {
    /// The expected block in `lang`, if any.
    pub fn expected(&self, lang: &str) -> Option<&ExpectedBlock> {
        self.expected.iter().find(|b| b.lang == lang)
    }
}

/// A fenced block starting at byte `at` (at the start of a line): (info string, body range,
/// end of the closing fence).
fn fenced_at(md: &str, at: usize) -> Option<(String, Range<usize>, usize)> {
    let rest = md.get(at..)?.strip_prefix("```")?;
    let info_end = rest.find('\n')?;
    let info = rest[..info_end].trim().to_owned();
    let body_start = at + 3 + info_end + 1;
    let mut pos = body_start;
    loop {
        let line_end = md[pos..].find('\n').map_or(md.len(), |i| pos + i + 1);
        if md[pos..line_end].trim_end() == "```" {
            return Some((info, body_start..pos, line_end));
        }
        if line_end >= md.len() {
            return None;
        }
        pos = line_end;
    }
}

/// The scenario blocks of a Markdown text, each with its expected blocks. An unclosed
/// block ends the search.
///
/// ```
/// use reversi_check::scenario::markdown;
/// let md = "Intro\n\n```scenario\nrules: othello\n```\n\n```text\nrules: othello\n```\n";
/// let found = markdown::examples(md);
/// assert_eq!(found[0].scenario, "rules: othello\n");
/// assert_eq!(found[0].line, 3);
/// assert_eq!(found[0].expected("text").unwrap().body, "rules: othello\n");
/// ```
pub fn examples(md: &str) -> Vec<Example> {
    let mut found = Vec::new();
    let mut at = 0;
    // Lines are counted as the search goes (counting from the start for each block would
    // make a file of many blocks quadratic).
    let (mut counted_to, mut newlines) = (0, 0);
    while at < md.len() {
        let line_end = md[at..].find('\n').map_or(md.len(), |i| at + i + 1);
        if md[at..line_end].trim_end() != "```scenario" {
            at = line_end;
            continue;
        }
        let Some((_, body, end)) = fenced_at(md, at) else {
            break;
        };
        newlines += md[counted_to..at].matches('\n').count();
        counted_to = at;
        let line = newlines + 1;
        let mut example = Example {
            scenario: md[body].to_owned(),
            line,
            offset: at,
            expected: Vec::new(),
        };
        at = end;
        // The blocks that follow, separated by blank lines only.
        let mut probe = end;
        loop {
            let skipped = md[probe..].len() - md[probe..].trim_start().len();
            let next = probe + skipped;
            // Back up to the start of the line the fence is on.
            let start = md[..next].rfind('\n').map_or(0, |i| i + 1);
            if start < probe || !md[start..next].trim().is_empty() {
                break;
            }
            match fenced_at(md, next) {
                Some((lang, body, block_end)) if lang == "text" || lang == "json" => {
                    example.expected.push(ExpectedBlock {
                        lang,
                        body: md[body.clone()].to_owned(),
                        range: body,
                    });
                    probe = block_end;
                    at = block_end;
                }
                _ => break,
            }
        }
        found.push(example);
    }
    found
}

/// The Markdown with the body of blocks replaced: `(range, new body)` pairs from
/// [`examples`], in any order.
pub fn replace_blocks(md: &str, mut edits: Vec<(Range<usize>, String)>) -> String {
    edits.sort_by_key(|(r, _)| std::cmp::Reverse(r.start));
    let mut out = md.to_owned();
    for (range, body) in edits {
        out.replace_range(range, &body);
    }
    out
}
