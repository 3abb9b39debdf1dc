//! Perft: the number of positions reached after 1..5 moves from the start, against the counts known
//! for the OpenSpiel rule sets (issue 5). A finished position is counted and not expanded, another
//! move is one ply, and the repetition rule is followed along each line.

use std::path::Path;

fn perft(file: &str, depth: usize) -> Vec<u64> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    let game = sowlang::load_game(&path, &[]).unwrap_or_else(|_| panic!("{file} loads")).game;
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    game.perft(&pos, depth)
}

#[test]
fn oware_6x4_under_openspiel_rules() {
    assert_eq!(perft("variants/reference/openspiel_oware.sow", 5), [6, 36, 190, 1014, 5219]);
}

#[test]
fn kalah_6x4_under_openspiel_rules() {
    assert_eq!(perft("variants/reference/openspiel_kalah.sow", 5), [6, 35, 185, 942, 4690]);
}

#[test]
fn a_finished_position_is_counted_and_not_expanded() {
    // Kalah with one pit of one seed a side: south's only move sows into its own store (another move)
    // and empties south's row, which ends the game at once.
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/kalah.sow");
    let set = |name: &str| sowlang::Override {
        name: name.into(),
        value: 1,
    };
    let game = sowlang::load_game(&path, &[set("pits"), set("seeds")])
        .unwrap_or_else(|_| panic!("kalah loads"))
        .game;
    let pos = game.initial(None);
    assert_eq!(game.perft(&pos, 3), [1, 0, 0]);
}

#[test]
fn depth_zero_counts_nothing() {
    assert!(perft("variants/oware.sow", 0).is_empty());
}
