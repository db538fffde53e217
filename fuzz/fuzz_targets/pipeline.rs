//! Arbitrary bytes validated twice, through the pipeline's quick check and through the
//! plain path, as RGN (first byte even) or WTHOR (odd): the same findings either way.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_record::formats::Format;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    let format = if first % 2 == 0 { Format::Rgn } else { Format::Wthor };
    fuzz_checks::pipeline_agrees(format, rest);
});
