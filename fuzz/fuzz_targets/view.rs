//! Arbitrary bytes read through the borrowed view and through the format's reader, as RGN,
//! WTHOR, GGF or move strings (the first byte chooses): the same games either way.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&first, rest)) = data.split_first() else {
        return;
    };
    fuzz_checks::view_agrees(fuzz_checks::split_format(first), rest);
});
