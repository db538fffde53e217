//! The survey of what the games a run writes state of their WTHOR files' headers.

use std::io;

use super::{Conversion, Input};
use crate::formats::wthor::YearHeaders;
use crate::pipeline::view::GameReader;
use crate::record::Tag;

impl Conversion {
    /// Adds to `years` what the games of `input` this run writes state of their WTHOR
    /// files' headers ([`YearHeaders`]): the games it selects and does not leave out,
    /// their tags edited as it edits them, each read through the [`GameReader`] (its
    /// tags, never replayed). A run
    /// that merges inputs into WTHOR year files surveys every input first and hands the
    /// result to its writers ([`WriteOptions::year_headers`]), so the files do not depend
    /// on the order of the inputs.
    ///
    /// [`WriteOptions::year_headers`]: crate::formats::WriteOptions::year_headers
    ///
    /// ```
    /// use reversi_formats::wthor::YearHeaders;
    /// use reversi_formats::{Format, ReadOptions};
    /// use reversi_runs::pipeline::conversion::Conversion;
    /// use reversi_runs::pipeline::Input;
    /// let text = "[Date \"2004\"]\n[TheoreticalDepth \"24\"]\nf5 d6 *\n";
    /// let input = Input { format: Format::Rgn, reader: Box::new(text.as_bytes()), options: ReadOptions::default() };
    /// let mut years = YearHeaders::default();
    /// Conversion::new().survey_years(input, &mut years).unwrap();
    /// assert_eq!(years.depth(2004), Some(24));
    /// ```
    pub fn survey_years(&self, input: Input, years: &mut YearHeaders) -> io::Result<()> {
        let file_year = self.target.as_ref().and_then(|t| t.write.year);
        let mut reader = GameReader::new(input);
        let mut edited = Vec::new();
        while let Some(game) = reader.next_game() {
            let game = game?;
            let index = game.index();
            let taken = index > 0
                && self
                    .skip
                    .as_ref()
                    .map_or(true, |skip| !skip.contains(&index))
                && self
                    .select
                    .as_ref()
                    .map_or(true, |select| select.matches(index, game.tags()));
            if !taken {
                continue;
            }
            let board = game.rules().board();
            match &self.edits {
                None => years.add(file_year, board, tag_pairs(game.tags())),
                Some(edits) => {
                    edited.clear();
                    edited.extend_from_slice(game.tags());
                    edits.apply_to_tags(&mut edited);
                    years.add(file_year, board, tag_pairs(&edited));
                }
            }
        }
        Ok(())
    }
}

/// A game's tags as `(name, value)` pairs.
fn tag_pairs(tags: &[Tag]) -> impl Iterator<Item = (&str, &str)> {
    tags.iter().map(|t| (t.name.as_str(), t.value.as_str()))
}
