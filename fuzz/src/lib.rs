//! Checks shared by the fuzz targets: read arbitrary bytes through a format, validate every
//! record read, and hold every span to the game's [`Source`].

use std::io::Cursor;
use std::sync::Arc;

use reversi_check::validate::{validate_game, Summary};
use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
use reversi_formats::record::{Record, Span};
use reversi_formats::{Format, ParsedGame, ReadOptions};

/// Read options with a fixed name and nothing else: no path, no rules, no names directory.
pub fn options() -> ReadOptions {
    ReadOptions {
        name: Arc::from("fuzz"),
        ..ReadOptions::default()
    }
}

/// Reads `data` through `format` to the end; checks every game's spans and diagnostics,
/// validates every record and checks the validator's findings the same way.
///
/// Returns the games read (the I/O errors a reader may legitimately report, such as a
/// read error, end the stream).
pub fn read_and_check(format: Format, data: &[u8]) -> Vec<ParsedGame> {
    let input = Box::new(Cursor::new(data.to_vec()));
    let mut games = Vec::new();
    let mut previous_index = 0;
    for game in format.read(input, &options()) {
        let Ok(game) = game else { break };
        // Index 0 is a problem with the file itself (the JSON envelope), not a game.
        if game.index != 0 {
            assert!(
                game.index > previous_index,
                "game indexes must increase: {} after {}",
                game.index,
                previous_index
            );
            previous_index = game.index;
        }
        check_game(&game);
        games.push(game);
    }
    games
}

/// Checks one parsed game: its record's spans and its diagnostics lie in its source; the
/// validator neither panics nor points outside the source.
pub fn check_game(game: &ParsedGame) {
    let source = &game.source;
    for d in &game.diagnostics {
        check_diagnostic(d, source, "reader");
    }
    if let Some(record) = &game.record {
        for span in record_spans(record) {
            check_span(span, source, "record");
        }
    }
    let diagnostics = validate_game(game, &[] as &[&str]);
    for d in &diagnostics {
        check_diagnostic(d, source, "validator");
    }
    // Counted as `reversi validate` counts: a game is valid or invalid, a file problem
    // (index 0) is no game; every error and warning is counted.
    let mut summary = Summary::default();
    summary.add_game(game, &diagnostics);
    assert_eq!(summary.valid + summary.invalid, summary.games);
    assert_eq!(
        summary.games,
        usize::from(game.index != 0 || game.record.is_some())
    );
    assert!(summary.errors + summary.warnings <= diagnostics.len());
}

/// Checks a diagnostic's spans and renders it.
pub fn check_diagnostic(d: &Diagnostic, source: &Source, who: &str) {
    assert!(!d.code.name().is_empty(), "{who} diagnostic without a code");
    if let Some(span) = d.span {
        check_span(span, source, who);
    }
    for label in &d.related {
        check_span(label.span, source, who);
    }
    let mut renderer = Renderer::plain();
    let text = renderer.render(d, source);
    assert!(
        text.contains(d.code.name()),
        "rendering lost the code: {text}"
    );
    if let Some(span) = d.span {
        let located = renderer.locate(d, source);
        assert_eq!(located.line_column, Some(source.line_column(span.offset)));
    }
}

/// Asserts that `span` lies inside the source text, on character boundaries.
pub fn check_span(span: Span, source: &Source, who: &str) {
    let start = source.offset;
    let end = source.offset + source.text.len();
    assert!(
        span.offset >= start && span.end() <= end,
        "{who} span {span:?} outside the source {start}..{end}: {:?}",
        source.text
    );
    let local = span.offset - start;
    assert!(
        source.text.is_char_boundary(local) && source.text.is_char_boundary(local + span.len),
        "{who} span {span:?} splits a character of {:?}",
        source.text
    );
}

/// Every span a record carries.
pub fn record_spans(record: &Record) -> Vec<Span> {
    let mut spans = Vec::new();
    spans.extend(record.span);
    spans.extend(record.rules_span);
    spans.extend(record.start.as_ref().and_then(|s| s.span));
    spans.extend(record.tags.iter().filter_map(|t| t.span));
    for m in &record.moves {
        spans.extend(m.span);
        spans.extend(m.flips.as_ref().and_then(|f| f.span));
    }
    spans.extend(record.positions.iter().filter_map(|p| p.span));
    spans.extend(record.result.as_ref().and_then(|r| r.span));
    spans
}

/// Validates `data` as `format` twice, through the library's pipeline (with its quick
/// check) and game by game through the reader and [`validate_game`], and asserts that both
/// report the same diagnostics for the same games, and the same counts.
pub fn pipeline_agrees(format: Format, data: &[u8]) {
    use reversi_runs::pipeline::validation::{Event, Input, Validation};
    type Report = (usize, usize, Vec<String>);
    let mut plain: Vec<Report> = Vec::new();
    let mut summary = Summary::default();
    summary.add_file();
    for game in format.read(Box::new(Cursor::new(data.to_vec())), &options()) {
        let Ok(game) = game else { break };
        let found = validate_game(&game, &[] as &[&str]);
        summary.add_game(&game, &found);
        if !found.is_empty() {
            plain.push((
                game.index,
                game.source.offset,
                found.iter().map(|d| format!("{d:?}")).collect(),
            ));
        }
    }
    let input = Input {
        format,
        reader: Box::new(Cursor::new(data.to_vec())),
        options: options(),
    };
    let mut piped: Vec<Report> = Vec::new();
    let mut failed = false;
    let piped_summary = Validation::new()
        .jobs(1)
        .run([((), Some(input))].into_iter(), |event| {
            match event {
                Event::Game(game, found) if !found.is_empty() => piped.push((
                    game.index,
                    game.source.offset,
                    found.iter().map(|d| format!("{d:?}")).collect(),
                )),
                Event::ReadFailed(_) => failed = true,
                _ => {}
            }
            Ok(())
        })
        .expect("the sink never fails");
    if failed {
        // The plain path stops at the same read error; the counts before it must agree.
        return;
    }
    assert_eq!(piped, plain, "the pipeline and the plain path disagree");
    assert_eq!(piped_summary, summary);
}

/// Reads `data` through `format` twice, by the format's reader and through the borrowed
/// view (`reversi_runs::pipeline::view`): the same games in the same order, each view holding what
/// the reader's record holds, and `to_parsed_game` giving the reader's game.
pub fn view_agrees(format: Format, data: &[u8]) {
    use reversi_runs::pipeline::view::{GameReader, Input};
    let mut reader = GameReader::new(Input {
        format,
        reader: Box::new(Cursor::new(data.to_vec())),
        options: options(),
    });
    for game in format.read(Box::new(Cursor::new(data.to_vec())), &options()) {
        let view = reader.next_game().expect("the view ends with the reader");
        let (Ok(game), Ok(view)) = (game, view) else {
            // Both stop at the same read error.
            return;
        };
        assert_eq!(view.index(), game.index);
        let debug = |d: &[Diagnostic]| d.iter().map(|d| format!("{d:?}")).collect::<Vec<_>>();
        assert_eq!(debug(view.diagnostics()), debug(&game.diagnostics));
        if let Some(record) = &game.record {
            assert_eq!(view.rules(), record.rules);
            let tags: Vec<_> = view.tags().iter().map(|t| (&t.name, &t.value)).collect();
            let expected: Vec<_> = record.tags.iter().map(|t| (&t.name, &t.value)).collect();
            assert_eq!(tags, expected);
            let moves: Vec<_> = record.moves.iter().map(|m| m.mv).collect();
            assert_eq!(view.moves(), &moves[..]);
            let result = view.result().map(|r| (&r.score, r.termination));
            assert_eq!(
                result,
                record.result.as_ref().map(|r| (&r.score, r.termination))
            );
        }
        let parsed = view.to_parsed_game();
        assert_eq!(parsed.record, game.record);
        assert_eq!(parsed.source.text, game.source.text);
    }
    assert!(
        reader.next_game().is_none(),
        "the view has more games than the reader"
    );
}

/// The format a target reads its input as, chosen by the input's first byte: RGN, WTHOR,
/// GGF or move strings, the formats the pipeline splits itself.
pub fn split_format(selector: u8) -> Format {
    [Format::Rgn, Format::Wthor, Format::Ggf, Format::MoveString][usize::from(selector % 4)]
}
