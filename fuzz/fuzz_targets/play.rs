//! Fuzz target: a move count, the moves' picks and a rule file; a game that loads is played within the
//! harness's ply and work caps (`fuzz/harness.rs`).
#![no_main]

#[path = "../harness.rs"]
mod harness;

libfuzzer_sys::fuzz_target!(|data: &[u8]| harness::play(data));
