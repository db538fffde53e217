//! The library's runs (`reversi_runs::run`), as every front end calls them.

use reversi_runs::run::{self, InputOptions, InputSource, Status, Step, ValidateOptions};

const EVENT: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/fixtures/director-event/incoming"
);

/// The director's event as received, validated with `jobs` workers: every step as JSON, and
/// the report.
fn validate_event(jobs: usize) -> (Vec<String>, run::ValidateReport) {
    let walked = run::walk(&[EVENT.into()]).expect("the folder walks");
    let mut notes = Vec::new();
    let options = ValidateOptions {
        jobs: Some(jobs),
        pairings: walked.pairings(None, &mut notes).expect("pairings"),
        register: walked
            .register(None, &mut notes)
            .expect("register")
            .map(std::sync::Arc::new),
        ..ValidateOptions::default()
    };
    assert_eq!(notes.len(), 2, "{notes:?}");
    let inputs = walked
        .inputs
        .iter()
        .map(|path| run::open(InputSource::path(path), &InputOptions::default()));
    let mut renderer = reversi_formats::diagnostic::Renderer::plain();
    let mut steps = Vec::new();
    let report = run::validate(inputs, &options, |step| {
        let line = match step {
            Step::Input { name, note } => format!("input {name}: {note}"),
            Step::Game(game, diagnostics) => diagnostics
                .iter()
                .map(|d| serde_json::to_string(&renderer.locate(d, &game.source)))
                .collect::<Result<Vec<_>, _>>()?
                .join("\n"),
            Step::Finding(finding) => serde_json::to_string(finding)?,
            Step::Ended { name, counts } => format!("ended {name}: {counts}"),
            other => format!("{other:?}"),
        };
        steps.push(line);
        Ok(())
    })
    .expect("the run ends");
    (steps, report)
}

#[test]
fn validate_gives_the_same_steps_and_report_for_any_number_of_jobs() {
    let (steps, report) = validate_event(1);
    assert!(steps.iter().any(|s| s.contains("\"code\"")), "{steps:?}");
    assert!(report.summary.across_games > 0, "{:?}", report.summary);
    assert_eq!(report.files.len(), 11);
    assert_eq!(report.status(), Status::Invalid);
    for jobs in [2, 8] {
        let (again, again_report) = validate_event(jobs);
        assert_eq!(again, steps, "jobs {jobs}");
        assert_eq!(
            serde_json::to_string(&again_report).expect("json"),
            serde_json::to_string(&report).expect("json")
        );
    }
}

#[test]
fn an_input_that_cannot_be_opened_fails_the_run_and_the_others_are_read() {
    let inputs = [
        run::open(
            InputSource::path("no/such/file.rgn"),
            &InputOptions::default(),
        ),
        run::open(
            InputSource::Bytes {
                name: "moves.txt".into(),
                bytes: b"f5d6c3d3c4\n".to_vec(),
            },
            &InputOptions::default(),
        ),
        run::open(
            InputSource::Bytes {
                name: "notes".into(),
                bytes: b"\x00\x01 not a record".to_vec(),
            },
            &InputOptions::default(),
        ),
    ];
    let mut failed = Vec::new();
    let report = run::validate(inputs, &ValidateOptions::default(), |step| {
        if let Step::OpenFailed(e) = step {
            failed.push(e.code());
        }
        Ok(())
    })
    .expect("the run ends");
    assert_eq!(failed, ["io", "unknown-format"]);
    assert_eq!(report.summary.games, 1);
    assert_eq!(report.status(), Status::Failed);
    let json = serde_json::to_value(&report).expect("json");
    assert_eq!(json["failed"][0]["code"], "io");
    assert_eq!(json["failed"][0]["file"], "no/such/file.rgn");
    assert_eq!(json["failed"][1]["file"], "notes");
    assert_eq!(json["failed"][1]["code"], "unknown-format");
}

#[test]
fn a_step_that_fails_stops_the_run_with_the_report_so_far() {
    let games = "f5d6c3\n".repeat(2000);
    let inputs = [run::open(
        InputSource::Bytes {
            name: "games.txt".into(),
            bytes: games.into_bytes(),
        },
        &InputOptions::default(),
    )];
    let mut seen = 0;
    let stopped = run::validate(inputs, &ValidateOptions::default(), |step| {
        if let Step::Game(..) = step {
            seen += 1;
            if seen == 10 {
                return Err(std::io::Error::from(std::io::ErrorKind::BrokenPipe));
            }
        }
        Ok(())
    })
    .expect_err("the step stops it");
    assert_eq!(stopped.error.kind(), std::io::ErrorKind::BrokenPipe);
    assert!(
        stopped.report.summary.games >= 10,
        "{}",
        stopped.report.summary
    );
    assert!(
        stopped.report.summary.games < 2000,
        "{}",
        stopped.report.summary
    );
}

/// What the runs that write read back: a file changed between its writing and its reading
/// back is refused, naming the game; the file as written passes.
#[test]
fn read_back_finds_a_game_that_does_not_read_as_written() {
    use reversi_formats::{Format, ReadOptions, WriteOptions};
    use reversi_runs::pipeline::conversion::{Conversion, Event, Outcome};
    use reversi_runs::pipeline::Input;
    use reversi_runs::run::{ReadBack, ReadBackError};

    let dir = tempfile::tempdir().expect("a temporary folder");
    let target = dir.path().join("out.rgn");
    let conversion = Conversion::new().target(
        Format::Rgn,
        &WriteOptions::default(),
        &ReadOptions::default(),
    );
    let write = |back: &mut ReadBack| {
        let input = Input {
            format: Format::MoveString,
            reader: Box::new(&b"f5d6c3d3c4\nf5f6e6f4\nf5d6c5\n"[..]),
            options: ReadOptions::default(),
        };
        let mut text = Vec::new();
        let mut writer = Format::Rgn.writer(Box::new(&mut text), &WriteOptions::default());
        conversion
            .run(
                [("m.txt", Some(input))].into_iter(),
                &mut *writer,
                |event| {
                    if let Event::Game(_, Outcome::Written(written)) = event {
                        back.push(written.fingerprint)?;
                    }
                    Ok(())
                },
            )
            .expect("converts");
        writer.finish().expect("finishes");
        drop(writer);
        text
    };
    let mut back = ReadBack::beside(&target).expect("a spool");
    let text = write(&mut back);
    std::fs::write(&target, &text).expect("written");
    back.check(&conversion, Format::Rgn, &target, &ReadOptions::default())
        .expect("reads back as written");

    let mut back = ReadBack::beside(&target).expect("a spool");
    let text = String::from_utf8(write(&mut back)).expect("text");
    let changed = text.replacen("f6", "d6", 1);
    assert_ne!(changed, text);
    std::fs::write(&target, changed).expect("written");
    let refused = back
        .check(&conversion, Format::Rgn, &target, &ReadOptions::default())
        .expect_err("the change is found");
    assert!(matches!(&refused, ReadBackError::Mismatch { mismatch, .. } if mismatch.game == 2));
    assert!(refused.to_string().contains("game 2"), "{refused}");
    // The spools are unnamed: nothing is left beside the output.
    let left: Vec<_> = std::fs::read_dir(dir.path()).expect("listed").collect();
    assert_eq!(left.len(), 1);
}
