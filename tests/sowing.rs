//! Sowing and capture constructs on tiny invented boards, each result worked out by hand: `skip
//! when` (answered before the game, or as each seed falls), `into both stores`, the series variants
//! (both ways, every other pit, with opposite, caps, a stated pit to stop at), captures beyond an empty
//! next pit, `move` from each pit of a set, the order in which a capture's actions read the board,
//! `lifted` (the seeds a lap picked up), and the narration of what a move did, in order.
//!
//! Cells on a board of one row a player, counter-clockwise: south's pits 1..N, then north's 1..N.
//! The pit across from north's pit k is south's pit N + 1 - k.

use super::support::{after, invented as game};

use serde_json::json;
use sowlang::{Event, Passed};
use sowlang::{Game, Position};

fn start(game: &Game) -> Position {
    let mut pos: Position = game.initial(None);
    game.settle_start(&mut pos);
    pos
}

/// The pits of both rows and the two stores, as the position JSON has them.
fn board(v: &serde_json::Value) -> (serde_json::Value, serde_json::Value, serde_json::Value, serde_json::Value) {
    (
        v["pits"]["south"].clone(),
        v["pits"]["north"].clone(),
        v["stores"]["south"].clone(),
        v["stores"]["north"].clone(),
    )
}

// ---------------------------------------------------------------- skip when

/// Each player's seeds pass over the opponent's last pit. South's pit 3 (4 seeds) sows north 1, north
/// 2, passes north 3, then south 1 and south 2. North's pit 3 (5 seeds) then sows south 1, south 2,
/// passes south 3, then north 1, 2 and 3 (its own last pit is not passed over).
const FAR_PIT: &str = r#"
game "Passing the far pit"
param pits = 3 in 2..6
board { pits pits  layout south [0, 0, 4] north [0, 0, 5] }
sow { direction ccw  skip when pit.side == opponent and pit.number == pits }
end "no move" when no_moves
"#;

#[test]
fn skip_when_on_where_a_pit_lies_passes_over_it_for_each_mover() {
    let g = game(FAR_PIT);
    let one = after(&g, &[3]);
    assert_eq!(board(&one), (json!([1, 1, 0]), json!([1, 1, 5]), json!(0), json!(0)));
    let two = after(&g, &[3, 3]);
    assert_eq!(board(&two), (json!([2, 2, 0]), json!([2, 2, 1]), json!(0), json!(0)));
    // The trace says why north's pit 3 got no seed.
    let mut pos = start(&g);
    let events = g.apply_traced(&mut pos, 3).expect("legal");
    assert!(events.contains(&Event::Skip {
        cell: 5,
        why: Passed::Stated
    }));
}

/// A pit holding three seeds or more is passed over, read as each seed falls. South's pit 3 (7 seeds):
/// north 1 (2 -> 3), north 2, north 3, south 1, south 2, south 3 (emptied, 0 -> 1), north 1 passed over
/// (it holds 3 now), north 2 (1 -> 2).
#[test]
fn skip_when_on_the_board_is_read_as_each_seed_falls() {
    let g = game(
        r#"
game "Full pits are passed"
board { pits 3  layout south [0, 0, 7] north [2, 0, 0] }
sow { direction ccw  skip when pit.count >= 3 }
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[3]);
    assert_eq!(board(&v), (json!([1, 1, 1]), json!([3, 2, 1]), json!(0), json!(0)));
}

/// A lap that would pass over every pit is not sown forever: the move is refused. South's pit 2 (4
/// seeds) passes north 1 and 2 (one seed each), sows south 1 and south 2, and then every pit holds a
/// seed: the last two seeds have nowhere to go.
#[test]
fn a_lap_that_passes_over_every_pit_is_refused() {
    let g = game(
        r#"
game "Nowhere to go"
board { pits 2  layout south [0, 4] north [1, 1] }
sow { direction ccw  skip when pit.count >= 1 }
end "long" when ply > 99
"#,
    );
    let mut pos = start(&g);
    assert_eq!(g.legal_moves(&pos), Vec::<usize>::new());
    let err = g.apply(&mut pos, 2).expect_err("refused").to_string();
    assert!(err.contains("never ends") && err.contains("nowhere to go"), "{err}");
    // Answered before the game: a rule that passes over every pit leaves no move at all.
    let all = game(
        r#"
game "Every pit passed"
board { pits 2  seeds 2 }
sow { direction ccw  skip when pit.number > 0 }
end "no move" when no_moves
"#,
    );
    let pos = start(&all);
    assert_eq!(all.legal_moves(&pos), Vec::<usize>::new());
    assert!(pos.is_over());
}

// ---------------------------------------------------------------- lifted

/// "The pit played is passed over when sowing four or more": `lifted` is what the move picked up.
/// Two pits a row, counter-clockwise: south 1, south 2, north 1, north 2. South's pit 1 holds 5 seeds:
/// south 2, north 1, north 2, then south 1 is passed over (5 >= 4), south 2 and north 1 again: south
/// [0, 2], north [2, 1]. With 3 seeds (fewer than 4) the lap ends in north 2 before coming round.
#[test]
fn lifted_is_what_the_move_picked_up_while_the_pit_played_is_empty() {
    let rules = |layout: &str, cond: &str| {
        format!(
            "game \"Many seeds pass the pit played\"\nboard {{ pits 2  layout {layout} }}\nsow {{ direction ccw  skip when pit == origin and {cond} }}\nend \"no move\" when no_moves\n"
        )
    };
    let g = game(&rules("south [5, 0] north [0, 0]", "lifted >= 4"));
    assert_eq!(board(&after(&g, &[1])), (json!([0, 2]), json!([2, 1]), json!(0), json!(0)));
    // `origin.count` reads the pit played as it is: emptied, so 0, and the seed falls into it (south
    // [1, 2], north [1, 1]); check warns about it.
    let text = rules("south [5, 0] north [0, 0]", "origin.count >= 4");
    let loaded = sowlang::load_text(std::path::Path::new("invented.sow"), &text, &[]).expect("checks");
    assert_eq!(
        loaded.warnings.iter().map(|w| w.code).collect::<Vec<_>>(),
        vec!["sow::check::origin_emptied"]
    );
    assert_eq!(
        board(&after(&loaded.game, &[1])),
        (json!([1, 2]), json!([1, 1]), json!(0), json!(0))
    );
    // With `lift N` the pit played keeps its other seeds, and `origin.count` means them: no warning.
    let kept = rules("south [5, 0] north [0, 0]", "origin.count >= 4").replace("direction ccw", "direction ccw  lift 1");
    let loaded = sowlang::load_text(std::path::Path::new("invented.sow"), &kept, &[]).expect("checks");
    assert!(loaded.warnings.is_empty());
    let g = game(&rules("south [3, 0] north [0, 0]", "lifted >= 4"));
    assert_eq!(board(&after(&g, &[1])), (json!([0, 1]), json!([1, 1]), json!(0), json!(0)));
}

/// `lifted` counts each lap's own pick-up. Three pits a row; south's pit 1 (2 seeds) sows south 2 and
/// south 3 (2 -> 3, not empty before: relay). The relay lap picks up those 3 and sows north 1, 2, 3;
/// north 3 was empty, so the move ends there. The capture asks for a lap of three: not the first lap
/// (2 lifted, although south 3 then held 3), but the relay lap, which takes north 3 (1 seed).
#[test]
fn lifted_is_the_pick_up_of_the_lap_in_a_relay() {
    let g = game(
        r#"
game "Laps of three"
board { pits 3  layout south [2, 0, 2] north [0, 0, 0] }
sow { direction ccw  relay when last.before > 0 }
capture "a lap of three" { when lifted == 3  take last }
end "no move" when no_moves
"#,
    );
    assert_eq!(board(&after(&g, &[1])), (json!([0, 1, 0]), json!([1, 1, 0]), json!(1), json!(0)));
}

/// A `forbid` that reads `lifted` judges the move after it: here a move whose last lap lifts a single
/// seed may not be made. South's pit 1 holds one seed, pit 2 two (no relay): only pit 2 is a move.
#[test]
fn a_forbid_on_lifted_judges_the_last_lap() {
    let g = game(
        r#"
game "No single seeds"
board { pits 2  layout south [1, 2] north [1, 1] }
sow { direction ccw }
forbid "a lap of one seed" when lifted == 1
end "no move" when no_moves
"#,
    );
    assert_eq!(g.legal_moves(&start(&g)), vec![2]);
}

// ---------------------------------------------------------------- both stores on the track

/// Both stores on both players' tracks: south 1, 2, south's store, north 1, 2, north's store. South's
/// pit 2 (3 seeds) sows its store, north 1 and north 2. North's pit 2 (4 seeds) sows north's store,
/// south 1, south 2 and south's store: the lap ends in the opponent's store, so no other move. South's
/// pit 2 (1 seed) ends in south's own store: another move.
const BOTH_STORES: &str = r#"
game "Both stores"
board { pits 2  layout south [1, 3] north [0, 3]  stores sown }
sow { direction ccw  into both stores }
capture "own store" { when last == store(mover)  then another move }
end "no move" when no_moves
"#;

#[test]
fn into_both_stores_puts_each_store_after_its_row_for_both_movers() {
    let g = game(BOTH_STORES);
    let one = after(&g, &[2]);
    assert_eq!(board(&one), (json!([1, 0]), json!([1, 4]), json!(1), json!(0)));
    assert_eq!(one["to_move"], "north");
    let two = after(&g, &[2, 2]);
    assert_eq!(board(&two), (json!([2, 1]), json!([1, 0]), json!(2), json!(1)));
    assert_eq!(two["to_move"], "south", "a lap ending in the opponent's store gives no other move");
    let three = after(&g, &[2, 2, 2]);
    assert_eq!(board(&three), (json!([2, 0]), json!([1, 0]), json!(3), json!(1)));
    assert_eq!(
        three["to_move"], "south",
        "a lap ending in the mover's own store gives another move"
    );
}

// ---------------------------------------------------------------- series

/// Pits of six, counter-clockwise; south plays pit 6, whose seeds go into north's row; `opponent` is
/// north. The first rule that holds of a two or three in north's row takes it, then its series.
fn series_game(layout: &str, series: &str) -> Game {
    game(&format!(
        "game \"Series\"\nboard {{ pits 6  layout {layout} }}\nsow {{ direction ccw }}\n\
         capture \"two or three\" {{\n  when last.side == opponent and last.count in 2..3\n  take last\n  {series}\n}}\n\
         end \"no move\" when no_moves\n"
    ))
}

/// South's 3 seeds: north 1 (1 -> 2), north 2 (2 -> 3), north 3 (1 -> 2). North 3 is taken; backward,
/// north 2 (3) and north 1 (2), then south 6 is south's: stop; forward, north 4 (2), then north 5 (1):
/// stop. 2 + 3 + 2 + 2 = 9.
#[test]
fn a_series_both_ways_walks_backward_then_forward_from_the_pit_taken() {
    let g = series_game(
        "south [0, 0, 0, 0, 0, 3] north [1, 2, 1, 2, 1, 2]",
        "series both ways while pit.side == opponent and pit.count in 2..3",
    );
    let v = after(&g, &[6]);
    assert_eq!(
        board(&v),
        (json!([0, 0, 0, 0, 0, 0]), json!([0, 0, 0, 0, 1, 2]), json!(9), json!(0))
    );
}

/// South's 5 seeds make north 1 to 5 hold two each; north 5 is taken. Every other pit backward: north 4
/// is passed by, north 3 taken, north 2 passed by, north 1 taken, south 6 passed by, south 5 is south's:
/// stop. 2 + 2 + 2 = 6.
#[test]
fn a_series_over_every_other_pit_looks_at_every_second_pit() {
    let g = series_game(
        "south [0, 0, 0, 0, 0, 5] north [1, 1, 1, 1, 1, 1]",
        "series backward every other pit while pit.side == opponent and pit.count in 2..3",
    );
    let v = after(&g, &[6]);
    assert_eq!(
        board(&v),
        (json!([0, 0, 0, 0, 0, 0]), json!([0, 2, 0, 2, 0, 1]), json!(6), json!(0))
    );
}

/// South's 3 seeds make north 1, 2, 3 hold two each. `take last, opposite(last)` takes north 3 (2) and
/// south 4 (4); the series backward takes north 2 (2) with south 5 (5), north 1 (2) with south 6 (0,
/// sown from), then stops at south 6, south's. 2 + 4 + 2 + 5 + 2 = 15.
#[test]
fn a_series_with_opposite_takes_the_facing_pits_along() {
    let g = game(
        r#"
game "Facing pits"
board { pits 6  layout south [1, 2, 3, 4, 5, 3] north [1, 1, 1, 0, 0, 4] }
sow { direction ccw }
capture "two or three" {
  when last.side == opponent and last.count in 2..3
  take last, opposite(last)
  series backward while pit.side == opponent and pit.count in 2..3 with opposite
}
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[6]);
    assert_eq!(
        board(&v),
        (json!([1, 2, 3, 0, 0, 0]), json!([0, 0, 0, 0, 0, 4]), json!(15), json!(0))
    );
}

/// South's 4 seeds make north 1 to 4 hold two each (north 2 three, in the second game); north 4 is
/// taken. At most 2 pits: north 3 and north 2, not north 1. At most 5 seeds: north 3 (2, 2 in all),
/// north 2 (3, 5 in all), not north 1 (7 would pass 5).
#[test]
fn a_series_stops_at_its_cap_of_pits_or_seeds() {
    let pits = series_game(
        "south [0, 0, 0, 0, 0, 4] north [1, 1, 1, 1, 0, 0]",
        "series backward while pit.side == opponent and pit.count in 2..3 at most 2 pits",
    );
    let v = after(&pits, &[6]);
    assert_eq!(
        board(&v),
        (json!([0, 0, 0, 0, 0, 0]), json!([2, 0, 0, 0, 0, 0]), json!(6), json!(0))
    );
    let seeds = series_game(
        "south [0, 0, 0, 0, 0, 4] north [1, 2, 1, 1, 0, 0]",
        "series backward while pit.side == opponent and pit.count in 2..3 at most 5 seeds",
    );
    let v = after(&seeds, &[6]);
    assert_eq!(
        board(&v),
        (json!([0, 0, 0, 0, 0, 0]), json!([2, 0, 0, 0, 0, 0]), json!(7), json!(0))
    );
}

/// A stated pit to stop at is a condition on `pit`. South's pit 3 (1 seed) makes north 1 hold 2: taken.
/// Forward: north 2 (2), north 3 (3), then south 1 is the stated pit: stop (without that test south 1
/// (2) and south 2 (3) would go too). 2 + 2 + 3 = 7.
#[test]
fn a_series_stops_at_a_stated_pit() {
    let g = game(
        r#"
game "Stop at south 1"
board { pits 3  layout south [2, 3, 1] north [1, 2, 3] }
sow { direction ccw }
capture "two or three" {
  when last.side == opponent and last.count in 2..3
  take last
  series forward while pit.count in 2..3 and pit != leftmost(row(mover))
}
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[3]);
    assert_eq!(board(&v), (json!([2, 3, 0]), json!([0, 0, 0]), json!(7), json!(0)));
}

// ---------------------------------------------------------------- beyond the last pit

/// "If the pit after the last is empty, take the one after it." South's pit 2 (1 seed) ends in south 3;
/// north 1, after it, is empty: north 2 (3) is taken. South's pit 1 (1 seed) ends in south 2; south 3,
/// after it, is empty, but north 1 after that holds nothing: no capture.
#[test]
fn a_capture_across_an_empty_next_pit_takes_the_one_after() {
    let g = game(
        r#"
game "Across the gap"
board { pits 3  layout south [1, 1, 0] north [0, 3, 4] }
sow { direction ccw }
capture "across the gap" {
  when next(last).count == 0 and next(next(last)).count > 0
  take next(next(last))
}
end "no move" when no_moves
"#,
    );
    let gap = after(&g, &[2]);
    assert_eq!(board(&gap), (json!([1, 0, 1]), json!([0, 0, 4]), json!(3), json!(0)));
    let none = after(&g, &[1]);
    assert_eq!(board(&none), (json!([0, 2, 0]), json!([0, 3, 4]), json!(0), json!(0)));
}

/// The capturing seed kept or taken: south's pit 1 (1 seed) ends in empty south 2, across from north 2
/// (3). Taking `opposite(last)` leaves the seed in south 2; taking `opposite(last), last` takes it too.
#[test]
fn the_capturing_seed_is_kept_or_taken_as_the_rule_says() {
    let rules = |take: &str| {
        game(&format!(
            "game \"Across\"\nboard {{ pits 3  layout south [1, 0, 0] north [2, 3, 4] }}\nsow {{ direction ccw }}\n\
             capture \"across\" {{ when last.side == mover and last.before == 0  take {take} }}\n\
             end \"no move\" when no_moves\n"
        ))
    };
    let kept = after(&rules("opposite(last)"), &[1]);
    assert_eq!(board(&kept), (json!([0, 1, 0]), json!([2, 0, 4]), json!(3), json!(0)));
    let taken = after(&rules("opposite(last), last"), &[1]);
    assert_eq!(board(&taken), (json!([0, 0, 0]), json!([2, 0, 4]), json!(4), json!(0)));
}

// ---------------------------------------------------------------- move from each pit of a set

/// South's pit 1 (1 seed) ends in south 2, its own: 2 seeds are moved from each of north's pits that
/// hold any, in their order: north 1 gives 2 (of 3), north 2 gives its only 1 (a short move, which the
/// trace tells). South 2: 1 + 2 + 1 = 4.
#[test]
fn move_n_from_each_of_a_set_moves_from_every_pit_in_order() {
    let g = game(
        r#"
game "Gathering"
board { pits 3  layout south [1, 0, 0] north [3, 1, 0] }
sow { direction ccw }
capture "gather" { when last.side == mover  move 2 from each of row(opponent) where pit.count > 0 to last }
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[1]);
    assert_eq!(board(&v), (json!([0, 4, 0]), json!([1, 0, 0]), json!(0), json!(0)));
    let mut pos = start(&g);
    let events = g.apply_traced(&mut pos, 1).expect("legal");
    let moved: Vec<(u32, u16)> = events
        .iter()
        .filter_map(|e| match e {
            Event::MoveSeeds { seeds, from, .. } => Some((*seeds, *from)),
            _ => None,
        })
        .collect();
    assert_eq!(moved, vec![(2, 3), (1, 4)]);
    assert!(events.iter().any(|e| matches!(
        e,
        Event::ShortMove {
            asked: 2,
            moved: 1,
            from: 4,
            ..
        }
    )));
}

/// `move all`: every seed of each pit named. South's pit 1 (1 seed) ends in south 2, across from north
/// 2 (5): both go to south's store, 6.
#[test]
fn move_all_moves_every_seed_of_each_pit() {
    let g = game(
        r#"
game "All of them"
board { pits 3  layout south [1, 0, 0] north [2, 5, 0] }
sow { direction ccw }
capture "across" { when last.side == mover  move all from last, opposite(last) to store(mover) }
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[1]);
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([2, 0, 0]), json!(6), json!(0)));
}

// ---------------------------------------------------------------- the order a capture reads the board

/// A rule's actions are carried out in order on the board, but every condition and pit of the rule is
/// read on the board as it was when the rule fired. South's pit 3 (1 seed) makes north 1 hold 3. The
/// rule moves those 3 seeds to north 3 (1 -> 4), takes north 2 (1), then walks forward: north 3 held 1
/// when the rule fired, so `pit.count == 1` holds and it is taken with the 4 seeds it holds now; south 1
/// held 2: stop. 1 + 4 = 5. (Read after the move, north 3's 4 would stop the series: 1 taken.)
#[test]
fn a_capture_reads_the_board_as_it_fired_and_takes_what_is_there_now() {
    let g = game(
        r#"
game "Reading order"
board { pits 3  layout south [2, 0, 1] north [2, 1, 1] }
sow { direction ccw }
capture "move then take" {
  when last.side == opponent and last.count == 3
  move 3 from last to next(next(last))
  take next(last)
  series forward while pit.count == 1
}
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[3]);
    assert_eq!(board(&v), (json!([2, 0, 0]), json!([0, 0, 0]), json!(5), json!(0)));
}

// ---------------------------------------------------------------- narration

/// The narration of `game`'s move `k` from the start, line by line.
fn narrated(game: &Game, k: usize) -> Vec<String> {
    let mut pos = start(game);
    let events = game.apply_traced(&mut pos, k).expect("a legal move");
    game.narrate(&events)
}

/// Three pits a row, two seeds each. South's pit 2 sows south 3 and north 1; the trigger empties north
/// 1 into north's store (3 seeds) as the seed falls; the lap ends there with 0 seeds, an even count on
/// the opponent's side, so "even" is carried out: it takes nothing, and south moves again. The trace
/// names the rule all the same.
#[test]
fn a_rule_carried_out_that_takes_nothing_is_named() {
    let g = game(
        r#"
game "Emptied by a trigger"
board { pits 3  seeds 2 }
sow { direction ccw }
trigger "sink" { when pit.side == north and pit.number == 1  take pit to owner }
capture "even" { when last.side == opponent and last.count is even  take last  then another move }
end "no move" when no_moves remaining owner
"#,
    );
    assert_eq!(
        narrated(&g, 2),
        [
            "south plays pit 2",
            "  picks up 2 seeds from south 2",
            "  sows one seed each into south 3, north 1",
            "  \"sink\": north takes 3 seeds from north 1",
            "  the last seed falls in north 1, which now holds 0 seeds",
            "  \"even\": north 1 holds no seeds, so south takes none",
            "  south moves again",
        ]
    );
    assert_eq!(board(&after(&g, &[2])), (json!([2, 0, 3]), json!([0, 2, 2]), json!(0), json!(3)));
}

/// A rule with no actions is named by what it says comes next. Two pits a row, one seed each, south's
/// store on the track: south's pit 2 ends in the store ("own store": another move); south's pit 1
/// makes south 2 hold 2 ("pair": the move ends). A memory value set to what it holds is said to stay.
#[test]
fn a_rule_without_actions_is_named_by_what_comes_next() {
    let g = game(
        r#"
game "Named rules"
board { pits 2  seeds 1  stores sown }
memory { player moved = 1 }
sow { direction ccw  into own store }
capture "own store" { when last == store(mover)  then another move }
capture "pair" { when last.count == 2  then end }
after move "moved" { when true  set mover.moved = 1 }
end "no move" when no_moves remaining owner
"#,
    );
    let lines = narrated(&g, 2);
    assert_eq!(lines[3], "  the last seed falls in south's store, which now holds 1 seed");
    assert_eq!(
        lines[4..],
        [
            "  the move ends: the rule \"own store\" gives another move",
            "  \"moved\": south's moved stays 1",
            "  south moves again",
        ]
    );
    let lines = narrated(&g, 1);
    assert_eq!(
        lines[4..],
        ["  the move ends: the rule \"pair\" says so", "  \"moved\": south's moved stays 1",]
    );
}

/// A pit passed over is told where the sowing passes it. Two pits a row; south's pit 1 (4 seeds) sows
/// south 2, north 1, north 2, passes south 1 (the pit played), and sows south 2 again.
#[test]
fn a_pit_passed_over_is_told_in_the_order_of_the_sowing() {
    let g = game(
        r#"
game "Around"
board { pits 2  layout south [4, 0] north [0, 0] }
sow { direction ccw  skip origin }
end "no move" when no_moves
"#,
    );
    assert_eq!(
        narrated(&g, 1)[1..5],
        [
            "  picks up 4 seeds from south 1",
            "  sows one seed each into south 2, north 1, north 2",
            "  skips south 1, the pit the move started from",
            "  sows one seed into south 2",
        ]
    );
}

// ---------------------------------------------------------------- sets answered before the game

/// A set's filters that read only where a pit lies (and who moves) are answered before the game, the
/// others as the set is walked, in the order written. South's pit 1 (1 seed) ends in south 2, which
/// takes north's pits numbered 2 or more that hold more than 2 seeds and are not pit 4: north 3 (3),
/// not north 2 (2 seeds) nor north 4 (the filter after the one on seeds). The end rule reads the
/// player to move's row after the move (north's, whose pits 1 and 2 both hold seeds): the game ends.
/// North's move from the mirrored start takes south 3 alike.
#[test]
fn sets_whose_filters_read_only_places_keep_the_order_of_their_filters() {
    // The same rules with south first and, mirrored, with north first.
    let rules = |layout: &str, first: &str| {
        game(&format!(
            r#"
game "Fixed sets"
board {{ pits 4  layout {layout} }}
first {first}
sow {{ direction ccw }}
capture "across" {{
  when last.side == mover and last.count == 1
  take row(opponent) where pit.number >= 2 and pit.count > 2 and pit.number != 4
}}
end "front held" when ply > 0 and size(row(to_move) where pit.number <= 2 and pit.count > 0) == 2 draw
end "no move" when no_moves loser to_move
"#
        ))
    };
    let v = after(&rules("south [1, 0, 3, 4] north [1, 2, 3, 4]", "south"), &[1]);
    assert_eq!(board(&v), (json!([0, 1, 3, 4]), json!([1, 2, 0, 4]), json!(3), json!(0)));
    assert_eq!(v["over"], json!(true), "{v}");
    let v = after(&rules("south [1, 2, 3, 4] north [1, 0, 3, 4]", "north"), &[1]);
    assert_eq!(board(&v), (json!([1, 2, 0, 4]), json!([0, 1, 3, 4]), json!(0), json!(3)));
    assert_eq!(v["over"], json!(true), "{v}");
}

/// A capture rule's actions read the board as the rule fired, also on a board too large to be kept
/// inline (its copy kept from one rule fired to the next): south's pit 1 ends in south 2 with 1 seed,
/// which takes the leftmost filled pit of north's (north 1, 2 seeds); north's pit 2 (7 seeds) ends in
/// south 1, which takes the leftmost filled pit of south's now: south 1 itself, not south 2 (the
/// leftmost filled one when the first rule fired).
#[test]
fn actions_read_the_board_as_the_rule_fired_on_a_large_board() {
    let g = game(
        r#"
game "Leftmost filled"
board { pits 8  layout south [1, 0, 0, 0, 0, 0, 0, 0] north [2, 7, 0, 0, 0, 0, 0, 0] }
sow { direction ccw }
capture "leftmost" {
  when last.count == 1
  take leftmost(row(opponent) where pit.count > 0)
}
end "no move" when no_moves loser to_move
"#,
    );
    let v = after(&g, &[1, 2]);
    assert_eq!(
        board(&v),
        (json!([0, 1, 0, 0, 0, 0, 0, 0]), json!([0, 0, 1, 1, 1, 1, 1, 1]), json!(2), json!(1))
    );
}
