//! End rules that read only the stores are re-checked only after a move that changed a store, and
//! the first 64 rules are sorted by kind (the engine's shortcuts, see `Game::end_rule_holding`);
//! these games check that the shortcuts never change when a game ends, or by which rule.

use std::path::Path;

use sowlang::{Game, Position};

fn game(text: &str) -> Game {
    match sowlang::load_text(Path::new("end_rules_test.sow"), text, &[]) {
        Ok(loaded) => loaded.game,
        Err(failure) => panic!("the test file loads: {:?}", failure.diagnostics),
    }
}

fn ended_by(pos: &Position) -> Option<&str> {
    pos.ended_by()
}

/// Three pits of two seeds a side, no captures: the stores never change.
const NO_CAPTURES: &str = r#"
game "No captures"
board {
  pits 3
  seeds 2
  stores captures
}
first south
sow {
  direction ccw
}
"#;

#[test]
fn a_store_rule_true_from_the_start_ends_the_first_move_of_an_unsettled_start() {
    let g = game(&format!(
        "{NO_CAPTURES}end \"nothing captured\" when captured(south) == 0 and captured(north) == 0 remaining owner\n"
    ));
    // Settled, the start is already over.
    let mut settled = g.initial(None);
    g.settle_start(&mut settled);
    assert!(settled.is_over());
    assert_eq!(ended_by(&settled), Some("nothing captured"));
    // Not settled (a library user who skips settle_start): the rule is still checked after the first
    // move, although that move changed no store.
    let mut pos = g.initial(None);
    assert!(!pos.is_over());
    g.apply(&mut pos, 1).expect("pit 1 holds seeds");
    assert!(pos.is_over());
    assert_eq!(ended_by(&pos), Some("nothing captured"));
    // South's pit 1 was sown into pits 2 and 3 (0, 3, 3); north kept 2, 2, 2; every pit went to its owner.
    assert_eq!(g.scores(&pos), [6, 6]);
}

#[test]
fn a_rule_that_also_reads_the_ply_is_checked_after_every_move() {
    let g = game(&format!(
        "{NO_CAPTURES}end \"three moves\" when ply >= 3 and captured(south) == 0 remaining owner\n"
    ));
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    // South 1: S 0 3 3, N 2 2 2. North 1: N 0 3 3. South 2 sows 3 seeds: S 0 0 4, N 1 4 3.
    for (ply, pit) in [(1, 1), (2, 1), (3, 2)] {
        assert!(!pos.is_over(), "over before ply {ply}");
        g.apply(&mut pos, pit).expect("a legal move");
        assert_eq!(pos.ply(), ply);
    }
    assert!(pos.is_over());
    assert_eq!(ended_by(&pos), Some("three moves"));
    assert_eq!(g.scores(&pos), [4, 8]);
}

#[test]
fn a_store_rule_is_checked_after_a_move_that_sows_into_a_store() {
    let g = game(
        r#"
game "Sown stores"
board {
  pits 3
  seeds 2
  stores sown
}
first south
sow {
  direction ccw
  into own store
}
end "south scored" when captured(south) >= 1 remaining owner
end "north scored" when captured(north) >= 1 remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    // South 1 sows pits 2 and 3: no store reached, the game goes on.
    g.apply(&mut pos, 1).expect("a legal move");
    assert!(!pos.is_over());
    // North 2 sows north 3 and north's store: north has 1 in its store.
    g.apply(&mut pos, 2).expect("a legal move");
    assert!(pos.is_over());
    assert_eq!(ended_by(&pos), Some("north scored"));
    // South 0 3 3 = 6; north 2 0 3 + 1 = 6.
    assert_eq!(g.scores(&pos), [6, 6]);
}

/// The first end rule that holds ends the game, whatever kinds of rules come before it, also
/// past the 64th rule (the engine sorts the first 64 by kind).
#[test]
fn the_first_rule_that_holds_wins_among_seventy() {
    // Rules 1 to 66 can only hold once south has captured: never, in a game without captures.
    let mut text = NO_CAPTURES.to_string();
    for i in 1..=66 {
        text.push_str(&format!("end \"store {i}\" when captured(south) >= {i} remaining owner\n"));
    }
    text.push_str("end \"long\" when ply >= 3 remaining owner\n");
    text.push_str("end \"stuck\" when no_moves remaining owner\n");
    text.push_str("end \"longer\" when ply >= 2 remaining owner\n");
    let g = game(&text);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    // South 1: S 0 3 3, N 2 2 2. North 1: N 0 3 3. Rule 69 ("longer") holds now, but rule 67
    // ("long") comes first and does not yet; rule 68 needs a player without moves.
    g.apply(&mut pos, 1).expect("a legal move");
    g.apply(&mut pos, 1).expect("a legal move");
    assert!(pos.is_over());
    assert_eq!(ended_by(&pos), Some("longer"));
    let mut text2 = text.replace("end \"longer\" when ply >= 2 remaining owner\n", "");
    text2.push_str("end \"never\" when ply >= 100 remaining owner\n");
    let g = game(&text2);
    let mut pos2 = g.initial(None);
    g.settle_start(&mut pos2);
    for pit in [1, 1, 2] {
        g.apply(&mut pos2, pit).expect("a legal move");
    }
    // South 2 sows 3 seeds: S 0 0 4, N 1 4 3 at ply 3: rule 67 holds.
    assert!(pos2.is_over());
    assert_eq!(ended_by(&pos2), Some("long"));
}

/// A store rule and a general rule that start to hold on the same move: the one written first wins.
#[test]
fn rules_of_two_kinds_holding_at_once_are_tried_in_the_order_written() {
    let board = r#"
game "Sown stores"
board {
  pits 3
  seeds 2
  stores sown
}
first south
sow {
  direction ccw
  into own store
}
"#;
    let store = "end \"north scored\" when captured(north) >= 1 remaining owner\n";
    let general = "end \"two moves\" when ply >= 2 remaining owner\n";
    for (rules, winner) in [([store, general], "north scored"), ([general, store], "two moves")] {
        let g = game(&(board.to_string() + rules[0] + rules[1]));
        let mut pos = g.initial(None);
        g.settle_start(&mut pos);
        // South 1 sows pits 2 and 3; north 2 sows north 3 and north's store: at ply 2 both hold.
        g.apply(&mut pos, 1).expect("a legal move");
        assert!(!pos.is_over());
        g.apply(&mut pos, 2).expect("a legal move");
        assert_eq!(ended_by(&pos), Some(winner));
    }
}
