//! Inputs the fuzz targets (`fuzz/`) once crashed on, kept under `fuzz/regressions/TARGET/`
//! and checked as the targets check them: read to the end without a panic, every record
//! replayed, every span inside its game's source and on character boundaries, every
//! diagnostic rendered.

use std::fs;
use std::path::Path;

use reversi_check::validate::validate_record;
use reversi_formats::diagnostic::{Diagnostic, Renderer, Source};
use reversi_formats::record::Span;
use reversi_formats::{Format, ReadOptions};

fn check_span(span: Span, source: &Source, what: &str) {
    let start = source.offset;
    let end = source.offset + source.text.len();
    assert!(
        span.offset >= start && span.end() <= end,
        "{what}: span {span:?} outside the source {start}..{end}"
    );
    let local = span.offset - start;
    assert!(
        source.text.is_char_boundary(local) && source.text.is_char_boundary(local + span.len),
        "{what}: span {span:?} splits a character of {:?}",
        source.text
    );
}

fn check_diagnostic(d: &Diagnostic, source: &Source, renderer: &mut Renderer, what: &str) {
    for span in d.span.into_iter().chain(d.related.iter().map(|l| l.span)) {
        check_span(span, source, what);
    }
    assert!(renderer.render(d, source).contains(d.code.name()), "{what}");
}

#[test]
fn every_kept_fuzz_finding_reads_cleanly() {
    let dir = Path::new("fuzz/regressions");
    let mut checked = 0;
    let mut renderer = Renderer::plain();
    for target in fs::read_dir(dir).expect("fuzz/regressions") {
        let target = target.unwrap().path();
        let name = target.file_name().unwrap().to_string_lossy().into_owned();
        let format: Format = match name.as_str() {
            "movestr" => Format::MoveString,
            other => other.parse().expect("a target named after a format"),
        };
        for file in fs::read_dir(&target).unwrap() {
            let file = file.unwrap().path();
            let what = file.display().to_string();
            let bytes = fs::read(&file).unwrap();
            let games = format
                .read_bytes(bytes, &ReadOptions::default())
                .unwrap_or_default();
            for game in &games {
                for d in &game.diagnostics {
                    check_diagnostic(d, &game.source, &mut renderer, &what);
                }
                if let Some(record) = &game.record {
                    for d in validate_record(record, game.index).diagnostics {
                        check_diagnostic(&d, &game.source, &mut renderer, &what);
                    }
                }
            }
            checked += 1;
        }
    }
    assert!(checked >= 6, "the kept findings are there ({checked})");
}
