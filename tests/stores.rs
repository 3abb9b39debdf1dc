//! Stores as places of the circuit (issue 26): a rule takes a store's seeds to the other store or into
//! the mover's hand, `move` has a store at either end, and a take that would leave the seeds where they
//! are is refused by `check`. Boards worked out by hand.
//!
//! Cells on a board of one row a player, counter-clockwise: south's pits 1..N, then north's 1..N.

use super::support::{after, invented as game, json_of, played};

use serde_json::json;
use sowlang::Event;
use sowlang::{Game, Position};

/// The pits of both rows and the two stores, as the position JSON has them.
fn board(v: &serde_json::Value) -> (serde_json::Value, serde_json::Value, serde_json::Value, serde_json::Value) {
    (
        v["pits"]["south"].clone(),
        v["pits"]["north"].clone(),
        v["stores"]["south"].clone(),
        v["stores"]["north"].clone(),
    )
}

/// Issue 26: `take store(opponent)` did nothing, said nothing, and `check` let it pass. South's pit 2
/// (one seed) ends in north's pit 1; the rule takes north's store (3 seeds from the reserve) into
/// south's: south 6, north 0.
const RAID: &str = r#"
game "Raiding the store"
board { pits 2  layout south [0, 1] north [1, 0]  reserve 3 }
sow { direction ccw }
capture "raid" { when last.side == opponent  take store(opponent) }
end "no move" when no_moves
"#;

#[test]
fn issue_26_take_of_the_opponents_store_moves_its_seeds_and_says_so() {
    let g = game(RAID);
    let v = after(&g, &[2]);
    assert_eq!(board(&v), (json!([0, 0]), json!([2, 0]), json!(6), json!(0)));
    let mut pos = played(&g, &[]);
    let events = g.apply_traced(&mut pos, 2).expect("legal");
    let told = g.narrate(&events).join("\n");
    assert!(told.contains("\"raid\": south takes 3 seeds from north's store"), "{told}");
}

/// A store taken into the hand is lifted and sown again. South's pit 2 (one seed) ends in north's
/// pit 1 (now 1); the rule lifts south's store (2 seeds) and sows them after north 1: north 2, then
/// south 1. That lap ends on south's side, where the rule does not hold.
#[test]
fn a_store_taken_into_the_hand_is_sown_again() {
    let g = game(
        r#"
game "The store sown again"
board { pits 2  layout south [0, 1] north [0, 0]  reserve 2 }
sow { direction ccw }
capture "spend the store" { when last.side == opponent and last.count == 1  take store(mover)  sow taken }
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[2]);
    assert_eq!(board(&v), (json!([1, 0]), json!([1, 1]), json!(0), json!(2)));
}

/// `move` from and into stores. South's pit 1 (one seed) ends in south's pit 2 (now 1): the rule moves
/// 2 seeds from north's store into it (3), then all of south's store (4) into north's pit 2.
#[test]
fn move_reads_and_fills_stores() {
    let g = game(
        r#"
game "Stores moved"
board { pits 2  layout south [1, 0] north [0, 0]  reserve 4 }
sow { direction ccw }
capture "borrow" {
  when last.side == mover
  move 2 from store(opponent) to last
  move all from store(mover) to pit(opponent, 2)
}
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[1]);
    assert_eq!(board(&v), (json!([0, 3]), json!([0, 4]), json!(0), json!(2)));
}

/// A lap that ends in the mover's own store and a rule that takes `last`: the seeds are where the take
/// would put them. Nothing moves, and the trace says so rather than nothing. South's pit 2 (one seed)
/// falls into south's store (2 from the reserve, now 3).
#[test]
fn a_take_of_the_movers_own_store_moves_nothing_and_the_trace_says_why() {
    let g = game(
        r#"
game "Own store"
board { pits 2  layout south [0, 1] north [1, 0]  reserve 2  stores sown }
sow { direction ccw  into own store }
capture "the last pit" { when last.count == 3  take last }
end "no move" when no_moves
"#,
    );
    let mut pos = played(&g, &[]);
    let events = g.apply_traced(&mut pos, 2).expect("legal");
    assert!(events.iter().any(|e| matches!(e, Event::TakeKept { seeds: 3, .. })), "{events:?}");
    let v = after(&g, &[2]);
    assert_eq!(board(&v), (json!([0, 0]), json!([1, 0]), json!(3), json!(2)));
}

/// The fast form takes pits only, so a game whose captures may end in the opponent's store (sown into
/// both) is played by the general engine, which takes the store.
#[test]
fn a_capture_that_may_take_the_opponents_store_has_no_fast_form() {
    let g = game(
        r#"
game "Both stores taken"
board { pits 3  seeds 3  stores sown }
sow { direction ccw  into both stores }
capture "fours" { when last.count == 4  take last }
end "no move" when no_moves remaining owner
"#,
    );
    assert!(!g.has_fast_form());
    let same_but_own = game(
        r#"
game "Own store only"
board { pits 3  seeds 3  stores sown }
sow { direction ccw  into own store }
capture "fours" { when last.count == 4  take last }
end "no move" when no_moves remaining owner
"#,
    );
    assert!(same_but_own.has_fast_form());
}

/// A relay from a store `relay from` names: south's pit 2 (one seed) falls into south's store (2 from
/// the reserve, now 3); the relay lifts the store and sows north 1, north 2 and south 1, where the lap
/// ends and the relay rule does not hold. A lap that ends in a store is relayed only because the rule
/// names it.
#[test]
fn a_store_named_by_relay_from_is_lifted_and_sown_on() {
    let g = game(
        r#"
game "Store relayed"
board { pits 2  layout south [0, 1] north [1, 1]  reserve 2  stores sown }
sow { direction ccw  into own store  relay when last.store  relay from store(mover) }
end "no move" when no_moves
"#,
    );
    let v = after(&g, &[2]);
    assert_eq!(board(&v), (json!([1, 0]), json!([2, 2]), json!(0), json!(2)));
}

// ---------------------------------------------------------------- closed pits on the track

/// South 1 (one seed) sows into south 2; south 3 is closed, so the track's next open cell after south 2
/// is north 1 (2 seeds), two places on is north 2 (4 seeds), while `next(last, any)` is south 3 itself.
fn closed_board(rule: &str) -> (Game, Position) {
    let text = format!(
        r#"
game "Closed pits passed"
board {{ pits 3  seeds 2 }}
sow {{ direction ccw }}
{rule}
end "no move" when no_moves remaining owner
rounds {{
  setup fill 2 close unfilled
  match ends when round == 2
}}
"#
    );
    let g = game(&text);
    let mut v = json_of(&g, &played(&g, &[]));
    v["pits"] = json!({"south": [1, 0, 0], "north": [2, 4, 3]});
    v["closed"] = json!({"south": [false, false, true], "north": [false, false, false]});
    let mut pos = g.position_from_json(&v.to_string()).expect("a position of this board");
    g.settle_start(&mut pos);
    (g, pos)
}

fn after_from(g: &Game, mut pos: Position, k: usize) -> serde_json::Value {
    g.apply(&mut pos, k).expect("legal");
    json_of(g, &pos)
}

#[test]
fn next_passes_over_closed_pits_as_sowing_does() {
    let (g, pos) = closed_board(r#"capture "next" { when last.side == mover  take next(last) }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 1, 0]), json!([0, 4, 3]), json!(2), json!(0)));
}

#[test]
fn next_any_counts_closed_pits() {
    let (g, pos) = closed_board(r#"capture "next" { when last.side == mover  take next(last, any) }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 1, 0]), json!([2, 4, 3]), json!(0), json!(0)));
}

/// `previous` steps back over the closed pit too: from north 1, south 2 (1 seed); with `any`, south 3
/// (empty).
#[test]
fn previous_passes_over_closed_pits_unless_any() {
    let (g, pos) = closed_board(r#"capture "back" { when last.side == mover  take previous(pit(opponent, 1)) }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([2, 4, 3]), json!(1), json!(0)));
    let (g, pos) = closed_board(r#"capture "back" { when last.side == mover  take previous(pit(opponent, 1), any) }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 1, 0]), json!([2, 4, 3]), json!(0), json!(0)));
}

#[test]
fn plus_k_counts_open_places() {
    let (g, pos) = closed_board(r#"capture "two on" { when last.side == mover  take last + 2 }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 1, 0]), json!([2, 0, 3]), json!(4), json!(0)));
}

/// The series walks past the closed pit as past a store: after south 2 (1 seed) it takes north 1 (2)
/// and stops at north 2 (4).
#[test]
fn a_series_walks_over_closed_pits() {
    let (g, pos) = closed_board(r#"capture "run" { when last.side == mover  take last  series forward while pit.count in 1..2 }"#);
    let v = after_from(&g, pos, 1);
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([0, 4, 3]), json!(3), json!(0)));
}
