//! The borrowed view of games (`reversi_runs::pipeline::view`) against the format's reader: for
//! every fixture and every real record in `data/`, the same games in the same
//! order, each view holding exactly the rules, start, tags, moves and result of the
//! reader's record, the same diagnostics, and `to_parsed_game` and `next_parsed` giving the reader's game
//! itself (record with its spans, source text). And the point of the view: a plain game
//! costs no allocation.

mod common;

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;
use std::io::Cursor;
use std::path::Path;
use std::sync::Arc;

use common::RecordFile;
use reversi_engine::Move;
use reversi_formats::record::StartPosition;
use reversi_formats::{Format, ParsedGame, PgnDialect, ReadOptions, WriteOptions};
use reversi_runs::pipeline::view::{GameReader, GameView, Input};

/// Counts each thread's allocations, to show that a plain game makes none.
struct Counting;

thread_local! {
    static ALLOCATIONS: Cell<usize> = const { Cell::new(0) };
}

fn count_one() {
    // A thread being torn down has no counter left; it is not the one measured.
    let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
}

fn allocations() -> usize {
    ALLOCATIONS.with(Cell::get)
}

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        count_one();
        // SAFETY: the caller's contract, passed on.
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static GLOBAL: Counting = Counting;

fn input(format: Format, bytes: &[u8], name: &str, path: Option<&Path>) -> Input {
    Input {
        format,
        reader: Box::new(Cursor::new(bytes.to_vec())),
        options: options(name, path),
    }
}

fn options(name: &str, path: Option<&Path>) -> ReadOptions {
    ReadOptions {
        name: Arc::from(name),
        path: path.map(Path::to_path_buf),
        ..ReadOptions::default()
    }
}

/// Diagnostics as their JSON, to compare.
fn diagnostics(d: &[reversi_formats::diagnostic::Diagnostic]) -> Vec<String> {
    d.iter()
        .map(|d| serde_json::to_string(d).unwrap())
        .collect()
}

/// Checks that `view` says what the reader's `game` says; `what` names it in failures.
fn check_view(view: &GameView<'_>, game: &ParsedGame, what: &str) {
    assert_eq!(view.index(), game.index, "{what}");
    assert_eq!(
        diagnostics(view.diagnostics()),
        diagnostics(&game.diagnostics),
        "{what}"
    );
    match &game.record {
        Some(record) => {
            let record = common::without_spans(record);
            assert_eq!(view.rules(), record.rules, "{what}");
            let start = view.start().map(|s| StartPosition {
                span: None,
                ..s.clone()
            });
            assert_eq!(start, record.start, "{what}");
            let tags: Vec<_> = view.tags().iter().map(|t| (&t.name, &t.value)).collect();
            let expected: Vec<_> = record.tags.iter().map(|t| (&t.name, &t.value)).collect();
            assert_eq!(tags, expected, "{what}");
            let moves: Vec<Move> = record.moves.iter().map(|m| m.mv).collect();
            assert_eq!(view.moves(), &moves[..], "{what}");
            let result = view.result().map(|r| (r.score.clone(), r.termination));
            let expected = record
                .result
                .as_ref()
                .map(|r| (r.score.clone(), r.termination));
            assert_eq!(result, expected, "{what}");
        }
        None => {
            assert!(view.record().is_none(), "{what}");
            assert!(view.moves().is_empty() && view.tags().is_empty(), "{what}");
        }
    }
    let parsed = view.to_parsed_game();
    assert_eq!(parsed.record, game.record, "{what}");
    assert_eq!(
        diagnostics(&parsed.diagnostics),
        diagnostics(&game.diagnostics),
        "{what}"
    );
    assert_eq!(
        (
            &*parsed.source.text,
            parsed.source.offset,
            parsed.source.line
        ),
        (&*game.source.text, game.source.offset, game.source.line),
        "{what}"
    );
}

/// Views every game of `file` and compares each with the reader's; returns how many games
/// were viewed without a record.
fn check_file(file: &RecordFile) -> usize {
    let expected: Vec<ParsedGame> = file
        .format
        .read(
            Box::new(Cursor::new(file.bytes.clone())),
            &options(&file.name, Some(&file.path)),
        )
        .map(|g| g.expect("in-memory reads do not fail"))
        .collect();
    let mut reader = GameReader::new(input(
        file.format,
        &file.bytes,
        &file.name,
        Some(&file.path),
    ));
    let mut plain = 0;
    for (k, game) in expected.iter().enumerate() {
        let what = format!("{} ({:?}), entry {}", file.name, file.format, k + 1);
        let view = reader
            .next_game()
            .unwrap_or_else(|| panic!("{what}: the view ended early"))
            .expect("in-memory reads do not fail");
        check_view(&view, game, &what);
        plain += usize::from(view.parsed().is_none());
    }
    assert!(
        reader.next_game().is_none(),
        "{}: the view has more games",
        file.name
    );
    // `next_parsed` (what a caller keeping every game uses) gives the reader's games too.
    let mut reader = GameReader::new(input(
        file.format,
        &file.bytes,
        &file.name,
        Some(&file.path),
    ));
    for (k, game) in expected.iter().enumerate() {
        let what = format!("{} ({:?}), entry {} (owned)", file.name, file.format, k + 1);
        let owned = reader
            .next_parsed()
            .unwrap_or_else(|| panic!("{what}: the reader ended early"))
            .expect("in-memory reads do not fail");
        assert_eq!(
            (owned.index, &owned.record, diagnostics(&owned.diagnostics)),
            (game.index, &game.record, diagnostics(&game.diagnostics)),
            "{what}"
        );
    }
    assert!(reader.next_parsed().is_none(), "{}: more games", file.name);
    plain
}

#[test]
fn every_fixture_is_viewed_as_its_reader_reads_it() {
    let files = common::fixture_files();
    assert!(files.len() > 50, "only {} fixtures", files.len());
    let plain: usize = files.iter().map(check_file).sum();
    // Most RGN/PGN and WTHOR fixture games are plain.
    assert!(plain > 50, "only {plain} plain games");
}

#[test]
fn every_real_record_is_viewed_as_its_reader_reads_it() {
    let files = common::real_record_files();
    let plain: usize = files.iter().map(check_file).sum();
    assert!(plain > 20_000, "only {plain} plain games");
}

/// A file of plain games, read through the view: after the first games have grown the
/// buffers, the rest allocate nothing (the full reader allocates about 30 times a game).
/// Counted on this thread only, where the reader runs.
#[test]
fn plain_games_allocate_nothing() {
    let game = "[Event \"Club night\"]\n[Black \"Tamaru\"]\n[White \"Murakami\"]\n\
                [Result \"33-31\"]\n1. f5 d6 2. c3 d3 3. c4 f4 {a comment} 4. f6 f3 33-31\n\n";
    let text = game.repeat(2_000).into_bytes();
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sample.wtb");
    let wthor = std::fs::read(sample).expect("the WTHOR sample");
    for (format, bytes) in [(Format::Rgn, text), (Format::Wthor, wthor)] {
        let mut reader = GameReader::new(input(format, &bytes, "games", None));
        let (mut games, mut warm) = (0, 0);
        while let Some(view) = reader.next_game() {
            let view = view.unwrap();
            assert!(
                view.parsed().is_none(),
                "{format:?} game {} is read in full",
                view.index()
            );
            assert!(!view.moves().is_empty() && !view.tags().is_empty());
            games += 1;
            if games == 10 {
                warm = allocations();
            }
        }
        assert!(games >= 300, "{format:?}: only {games} games");
        let made = allocations() - warm;
        println!("{format:?}: {made} allocations for {} games", games - 10);
        // WTHOR tag values (player and tournament numbers) vary in length: a slot grows
        // a few times, when a longer value first comes.
        assert!(
            made <= 8,
            "{format:?}: {made} allocations for {} games",
            games - 10
        );
    }
}

/// The WTHOR sample's games written in every text format and read through the view: each
/// view holds what the format's reader reads, every game is viewed without its record
/// (its format's quick scan takes it), and a game costs at most one allocation (the text
/// split off for it; none for RGN/PGN), where the full reader makes dozens.
#[test]
fn games_of_every_format_are_viewed_without_their_records() {
    let sample = Path::new(env!("CARGO_MANIFEST_DIR")).join("benches/data/sample.wtb");
    let wthor = std::fs::read(sample).expect("the WTHOR sample");
    let records: Vec<_> = Format::Wthor
        .read(Box::new(Cursor::new(wthor)), &options("sample", None))
        .map(|g| g.unwrap().record.unwrap())
        .collect();
    assert_eq!(records.len(), 300);
    let formats = [
        ("rgn", Format::Rgn, None, Format::Rgn),
        ("pgn:thor", Format::Pgn(PgnDialect::Thor), None, Format::Rgn),
        ("moves", Format::MoveString, None, Format::MoveString),
        ("ggf", Format::Ggf, None, Format::Ggf),
        ("sgf", Format::Sgf, None, Format::Sgf),
        ("json", Format::Json, None, Format::Json),
        ("json:lines", Format::Json, Some("lines"), Format::Json),
        ("transcript", Format::Transcript, None, Format::Transcript),
    ];
    for (name, format, dialect, read_as) in formats {
        let write = WriteOptions {
            lossy: true,
            dialect: dialect.map(str::to_owned),
            ..WriteOptions::default()
        };
        let (bytes, _) = format.write_bytes(&records, &write).unwrap();
        let file = RecordFile {
            path: Path::new("sample").with_extension(name),
            name: name.to_owned(),
            format: read_as,
            bytes,
        };
        assert_eq!(
            check_file(&file),
            records.len(),
            "{name}: every game is plain"
        );
        let mut reader = GameReader::new(input(read_as, &file.bytes, name, None));
        let (mut games, mut warm) = (0, 0);
        while let Some(view) = reader.next_game() {
            assert!(view.unwrap().parsed().is_none());
            games += 1;
            if games == 10 {
                warm = allocations();
            }
        }
        let made = allocations() - warm;
        println!("{name}: {made} allocations for {} games", games - 10);
        assert!(
            made <= games - 10 + 8,
            "{name}: {made} allocations for {} games",
            games - 10
        );
    }
}

/// Found by fuzzing (`fuzz/fuzz_targets/view.rs`): a game with more diagnostics than a game
/// keeps (here, one per bad byte and stray character) is viewed with the list the reader
/// gives, capped the same way.
#[test]
fn a_game_with_many_findings_is_viewed_with_the_readers_capped_list() {
    let mut bytes = b"r".to_vec();
    bytes.extend([0x0b; 44]);
    bytes.extend([0xff; 4]);
    bytes.extend([0x0b; 14]);
    bytes.extend(b": !");
    let game = Format::Rgn
        .read(Box::new(Cursor::new(bytes.clone())), &options("fuzz", None))
        .next()
        .expect("one game")
        .expect("in memory");
    let mut reader = GameReader::new(input(Format::Rgn, &bytes, "fuzz", None));
    let view = reader.next_game().expect("one game").expect("in memory");
    check_view(&view, &game, "the fuzz finding");
    assert!(reader.next_game().is_none());
}
