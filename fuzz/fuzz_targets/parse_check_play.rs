//! Fuzz target: any bytes → parse + check (+ render every diagnostic) → a few moves of the game.
//!
//! The input's first byte says how many moves to try (0..=63); the next bytes pick each move among the
//! legal ones; the rest is the `.sow` text. Properties: nothing panics; every diagnostic has a span inside
//! its file; a loaded game conserves seeds and every move it lists as legal can be played.
#![no_main]

use std::path::Path;

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&count, rest)) = data.split_first() else { return };
    let count = usize::from(count % 64).min(rest.len());
    let (picks, text) = rest.split_at(count);
    let Ok(text) = std::str::from_utf8(text) else { return };
    // Named as if it stood in variants/, so that `extends "oware.sow"` reaches a shipped game.
    let name = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/../variants/fuzz.sow"));
    match sowlang::load_text(name, text, &[]) {
        Err(failure) => {
            for d in &failure.diagnostics {
                for label in &d.labels {
                    let len = failure.sources.text(label.span.file).len();
                    assert!(
                        label.span.start <= label.span.end && label.span.end <= len,
                        "span outside its file: {d:?}"
                    );
                }
                let _ = d.render(&failure.sources, false);
            }
        }
        Ok(loaded) => {
            for d in &loaded.warnings {
                let _ = d.render(&loaded.sources, false);
            }
            let game = &loaded.game;
            let mut pos = game.initial(None);
            game.settle_start(&mut pos);
            let total = game.seed_total(&pos);
            for &pick in picks {
                let moves = game.legal_moves(&pos);
                if pos.over || moves.is_empty() {
                    break;
                }
                let k = moves[usize::from(pick) % moves.len()];
                game.apply(&mut pos, k).expect("a move listed as legal can be played");
                assert_eq!(game.seed_total(&pos), total, "seeds were created or destroyed");
            }
        }
    }
});
