//! What one fuzz input must survive, shared by the libFuzzer targets (`fuzz/fuzz_targets/`, nightly,
//! long runs) and the stable driver (`tests/fuzz_corpus.rs` in the test suite, `examples/fuzz.rs` for
//! CI's short run), so that both test the same promises.
//!
//! Two targets, so that the fast half is not slowed by the other:
//! - [`parse_check`]: any bytes as a rule file through parse, check and compile; every diagnostic has
//!   a span inside its file and renders.
//! - [`play`]: the first byte says how many moves to try, the next bytes pick each move among the
//!   legal ones, the rest is the rule file; a game that loads is played for at most [`PLY_CAP`] plies
//!   and [`WORK_CAP`] units of work (see [`plies_allowed`]), and stops once [`LISTED_CAP`] moves have
//!   been listed or [`TRIAL_LAPS_CAP`] laps sown finding them; every listed move is accepted, the seeds
//!   are conserved on every move, and the move's name reads back as the move.
//!
//! Both read the text as the file `variants/fuzz.sow` of this repository, so that `extends "oware.sow"`
//! reaches a shipped game.

use std::path::{Path, PathBuf};
use std::sync::OnceLock;

/// Plies of one game at most.
pub const PLY_CAP: usize = 64;
/// Work of one game at most, counted as plies times (seeds + cells): a ply's sowing and rules touch
/// about that many seeds and pits, relays and laps aside. Large boards play fewer plies.
pub const WORK_CAP: usize = 20_000;

/// Moves listed in one game at most, summed over its plies: a game whose moves carry choices can list
/// up to 65,536 moves a ply, each tried on a copy, and listing them is most of the time such an input
/// takes.
pub const LISTED_CAP: usize = 100_000;

/// Laps of trial sowing one game may spend finding moves with choices, summed over its plies: one
/// listing may sow up to 262,144 (a relay with a choice at each capture), which is sound for a game
/// but would make a fuzzer's inputs take seconds each.
pub const TRIAL_LAPS_CAP: u64 = 20_000;

/// Where a fuzz input's text is read from (for `extends`).
pub fn file_name() -> &'static Path {
    static NAME: OnceLock<PathBuf> = OnceLock::new();
    NAME.get_or_init(|| {
        // The crate including this file is the repository's (the stable driver) or fuzz/ (cargo-fuzz).
        let crate_dir = Path::new(env!("CARGO_MANIFEST_DIR"));
        let root = if crate_dir.join("variants").is_dir() {
            crate_dir
        } else {
            crate_dir.parent().expect("fuzz/ is in the repository")
        };
        root.join("variants/fuzz.sow")
    })
}

/// Parses, checks and compiles `data` as a rule file; the game when it loads.
pub fn parse_check(data: &[u8]) -> Option<sowlang::Game> {
    let text = std::str::from_utf8(data).ok()?;
    match sowlang::load_text(file_name(), text, &[]) {
        Err(failure) => {
            assert!(!failure.diagnostics.is_empty(), "refused without a diagnostic");
            for d in &failure.diagnostics {
                assert!(!d.labels.is_empty(), "a diagnostic without a span: {d:?}");
                for label in &d.labels {
                    let len = failure.sources.text(label.span.file).len();
                    assert!(
                        label.span.start <= label.span.end && label.span.end <= len,
                        "span outside its file: {d:?}"
                    );
                }
                let _ = d.render(&failure.sources, false);
            }
            None
        }
        Ok(loaded) => {
            for d in &loaded.warnings {
                let _ = d.render(&loaded.sources, false);
            }
            Some(loaded.game)
        }
    }
}

/// How many of `wanted` plies a game of `seeds` seeds on `cells` cells may play.
pub fn plies_allowed(wanted: usize, seeds: usize, cells: usize) -> usize {
    wanted.min(PLY_CAP).min(WORK_CAP / (seeds + cells).max(1))
}

/// The play target: a move count, the moves' picks, then the rule file.
pub fn play(data: &[u8]) {
    let Some((&count, rest)) = data.split_first() else { return };
    let count = usize::from(count).min(rest.len());
    let (picks, text) = rest.split_at(count);
    let Some(game) = parse_check(text) else { return };
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let total = game.seed_total(&pos);
    let plies = plies_allowed(picks.len(), total as usize, pos.seeds().len());
    let mut listed = 0;
    let laps_before = sowlang::trial_laps();
    for &pick in &picks[..plies] {
        let moves = game.legal_moves(&pos);
        listed += moves.len();
        let laps = sowlang::trial_laps() - laps_before;
        if pos.is_over() || moves.is_empty() || listed > LISTED_CAP || laps > TRIAL_LAPS_CAP {
            break;
        }
        let k = moves[usize::from(pick) % moves.len()];
        let name = game.name_move(&pos, k);
        assert_eq!(
            game.read_move(&pos, &name),
            Some(k),
            "move {k} is named `{name}`, which reads back otherwise"
        );
        game.apply(&mut pos, k)
            .unwrap_or_else(|e| panic!("a move listed as legal ({name}) is refused: {e}"));
        assert_eq!(game.seed_total(&pos), total, "seeds were created or destroyed by {name}");
    }
}
