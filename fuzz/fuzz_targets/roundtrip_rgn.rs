//! RGN round trip: a game that parses without diagnostics is written with the RGN writer
//! and read again, giving the same record (spans aside) and no diagnostics.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_formats::{Format, WriteOptions};

fuzz_target!(|data: &[u8]| {
    for game in fuzz_checks::read_and_check(Format::Rgn, data) {
        let Some(record) = game.record.as_ref() else {
            continue;
        };
        if !game.diagnostics.is_empty() {
            continue;
        }
        let mut out = Vec::new();
        {
            let mut writer = Format::Rgn.writer(Box::new(&mut out), &WriteOptions::default());
            if let Err(e) = writer.write(record) {
                panic!("the RGN writer refused a record RGN read: {e}\n{record:#?}");
            }
            writer.finish().expect("writing to memory");
        }
        let written = String::from_utf8_lossy(&out).into_owned();
        let again = fuzz_checks::read_and_check(Format::Rgn, &out);
        assert_eq!(
            again.len(),
            1,
            "one game written, {} read:\n{written}",
            again.len()
        );
        let back = &again[0];
        assert!(
            back.diagnostics.is_empty(),
            "the written game has diagnostics {:?}:\n{written}",
            back.diagnostics.iter().map(|d| d.code).collect::<Vec<_>>()
        );
        let back = back
            .record
            .as_ref()
            .expect("a game without diagnostics has a record");
        assert_eq!(
            back.without_spans(),
            record.without_spans(),
            "the record changed on the way through:\n{written}"
        );
    }
});
