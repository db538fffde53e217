//! Rules strings: whatever parses prints a canonical form that parses back to the same
//! rules, and printing that again changes nothing.
#![no_main]

use libfuzzer_sys::fuzz_target;
use reversi_engine::Rules;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(rules) = text.parse::<Rules>() else {
        return;
    };
    let canonical = rules.to_string();
    let again: Rules = canonical
        .parse()
        .unwrap_or_else(|e| panic!("{text:?} printed as {canonical:?}, which fails: {e}"));
    assert_eq!(again, rules, "{text:?} printed as {canonical:?}");
    assert_eq!(
        again.to_string(),
        canonical,
        "the canonical form is not stable"
    );
});
