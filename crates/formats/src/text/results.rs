//! The warning for a result in free text (CSV columns, transcript headers) that cannot be read.

use crate::codes::Code;
use crate::diagnostic::Diagnostic;
use crate::record::Span;

/// The warning for a result that cannot be read where `place` (`the \`Score\` column`)
/// writes it at `span`: the game is read without a result and the text kept as the tag
/// `tag`.
pub(crate) fn unreadable_result(
    place: &str,
    tag: &str,
    e: &crate::record::score::UnreadableResult,
    span: Span,
) -> Diagnostic {
    Diagnostic::warning(
        Code::ResultUnreadable,
        format!("{place} holds no result the reader knows: {e}"),
    )
    .at(Some(span), "not a result")
    .help(format!(
        "write {}; the game is read without a result, and the text is kept as the tag `{tag}`",
        crate::record::score::SPELLINGS
    ))
}
