//! Arbitrary bytes through the movestr reader, then the validator on every record read: no
//! panic, every span inside its game's source.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_formats::Format;

fuzz_target!(|data: &[u8]| {
    fuzz_checks::read_and_check(Format::MoveString, data);
});
