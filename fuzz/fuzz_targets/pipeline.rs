//! Arbitrary bytes validated twice, through the pipeline's quick check and through the
//! plain path, as RGN, WTHOR, GGF or move strings (the first byte chooses): the same
//! findings either way.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    fuzz_checks::pipeline_agrees(fuzz_checks::split_format(first), rest);
});
