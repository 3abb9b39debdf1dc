//! Fuzz target: any bytes as a rule file through parse, check and compile (`fuzz/harness.rs`).
#![no_main]
// The play target's half of the harness is unused here.
#![allow(dead_code)]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| {
    let _ = harness::parse_check(data);
});
