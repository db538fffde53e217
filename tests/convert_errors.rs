//! `convert` never turns a wrong game into a right one (issue 27): every game with an
//! error is either written with the same findings as its source, or refused naming what
//! the target cannot hold; the exit status says there were errors.

mod common;

use std::io::Cursor;
use std::process::Command;

use reversi_check::validate::validate_game;
use reversi_formats::{Format, PgnDialect, ReadOptions, WriteError, WriteOptions};
use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome};
use reversi_runs::pipeline::Input;

/// Every writable target, with its dialect.
fn targets() -> Vec<(Format, Option<&'static str>)> {
    vec![
        (Format::Rgn, None),
        (Format::Json, None),
        (Format::Json, Some("lines")),
        (Format::Wthor, None),
        (Format::Ggf, None),
        (Format::Pgn(PgnDialect::Thor), None),
        (Format::Pgn(PgnDialect::PlayOk), None),
        (Format::Pgn(PgnDialect::Edax), None),
        (Format::Sgf, None),
        (Format::MoveString, None),
        (Format::Transcript, None),
    ]
}

fn error_codes(diagnostics: &[reversi_formats::diagnostic::Diagnostic]) -> Vec<String> {
    diagnostics
        .iter()
        .filter(|d| d.is_error())
        .map(|d| d.code.name().to_owned())
        .collect()
}

#[test]
fn every_game_with_an_error_reads_back_with_the_same_errors_or_is_refused() {
    let mut written_with_errors = 0;
    let mut refused_for_errors = 0;
    for file in common::fixture_files() {
        for (target, dialect) in targets() {
            let dir = tempfile::tempdir().unwrap();
            let write = WriteOptions {
                lossy: true,
                dialect: dialect.map(str::to_owned),
                names_dir: Some(dir.path().to_path_buf()),
                ..WriteOptions::default()
            };
            let read = ReadOptions::default();
            let input = Input {
                format: file.format,
                reader: Box::new(Cursor::new(file.bytes.clone())),
                options: ReadOptions {
                    name: file.name.as_str().into(),
                    ..ReadOptions::default()
                },
            };
            // The errors of each game written, in order.
            let mut expected: Vec<Vec<String>> = Vec::new();
            let mut out = Vec::new();
            {
                let mut writer = target.writer(Box::new(&mut out), &write);
                let run = Conversion::new().jobs(1).target(target, &write, &read).run(
                    [((), Some(input))].into_iter(),
                    &mut *writer,
                    |event| {
                        if let Event::Game(game, outcome) = event {
                            let errors = error_codes(&game.diagnostics);
                            match outcome {
                                Outcome::Written(_) => {
                                    written_with_errors += usize::from(!errors.is_empty());
                                    expected.push(errors);
                                }
                                Outcome::Refused(WriteError::HidesErrors { found, .. }) => {
                                    assert_eq!(found, &errors, "{}", file.name);
                                    refused_for_errors += 1;
                                }
                                _ => {}
                            }
                        }
                        Ok(())
                    },
                );
                if run.is_err() {
                    continue;
                }
                writer.finish().unwrap();
            }
            if expected.is_empty() {
                continue;
            }
            let back = target.read_bytes(out, &read).unwrap();
            let found: Vec<Vec<String>> = back
                .iter()
                .filter(|g| g.index != 0)
                .map(|g| error_codes(&validate_game(g, &[] as &[&str])))
                .collect();
            assert_eq!(
                found,
                expected,
                "{} to {target}{}: the output's findings differ from the source's",
                file.name,
                dialect.map(|d| format!(":{d}")).unwrap_or_default()
            );
        }
    }
    // The fixtures hold both kinds: games a target keeps wrong, and games it cannot.
    assert!(written_with_errors > 50, "{written_with_errors}");
    assert!(refused_for_errors > 50, "{refused_for_errors}");
}

/// `reversi convert` on `fixture` to `target` (lossily; WTHOR files the undated fixtures
/// under 2026): exit code and standard error.
fn convert(fixture: &str, target: &str) -> String {
    let year: &[&str] = if target == "wthor" {
        &["--year", "2026"]
    } else {
        &[]
    };
    let output = Command::new(assert_cmd::cargo::cargo_bin("reversi"))
        .args(["convert", "--lossy", "-q", "--to", target, fixture])
        .args(year)
        .env("NO_COLOR", "1")
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .unwrap();
    format!(
        "exit code: {:?}\n----- stdout -----\n{}----- stderr -----\n{}",
        output.status.code(),
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn a_wrong_colour_is_refused_by_a_target_without_colours() {
    insta::assert_snapshot!(convert("fixtures/validate/wrong-color.ggf", "wthor"));
}

#[test]
fn a_missing_pass_is_refused_by_a_target_without_passes() {
    insta::assert_snapshot!(convert("fixtures/validate/missing-pass.rgn", "wthor"));
}

#[test]
fn an_illegal_move_is_written_as_read_where_the_target_keeps_it() {
    insta::assert_snapshot!(convert(
        "fixtures/validate/illegal-move-occupied.rgn",
        "rgn"
    ));
}

#[test]
fn a_wrong_result_is_refused_by_a_target_without_results_and_kept_by_pgn() {
    insta::assert_snapshot!(format!(
        "{}\n{}",
        convert("fixtures/validate/wrong-result-wof-raw-count.rgn", "moves"),
        convert(
            "fixtures/validate/wrong-result-wof-raw-count.rgn",
            "pgn:thor"
        )
    ));
}
