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

// ---------------------------------------------------------------- a series through the stores

/// The docs' "A run through the store" (docs/language.md, "Series").
const THROUGH_THE_STORE: &str = r#"
game "A run through the store"
board { pits 3  seeds 1  stores sown }
sow { direction ccw  into both stores }
capture "ones and twos" {
  when last.side == opponent and last.count == 2
  take last
  series forward including stores while pit.side == opponent and pit.count in 1..2
}
end "no move" when no_moves remaining owner
"#;

/// South's 3 (two seeds) sows south's store (1) and north 1 (now 2): north 1 is taken, and the walk
/// goes on through north 2 and north 3 (1 each) into north's store (2 seeds), taken too; south 1 is
/// the mover's own and stops it. South's store: 1 + 2 + 1 + 1 + 2 = 7. Without `including stores` the
/// walk passes over north's store to south 1 and stops: south 5, north's store keeps its 2.
#[test]
fn a_series_including_stores_takes_the_store_on_its_way() {
    let from = json!({"pits": {"south": [0, 0, 2], "north": [1, 1, 1]},
                      "stores": {"south": 0, "north": 2}, "to_move": "south"});
    let run = |text: &str| {
        let g = game(text);
        let pos = g.position_from_json(&from.to_string()).expect("a position of this board");
        after_from(&g, pos, 3)
    };
    let v = run(THROUGH_THE_STORE);
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([0, 0, 0]), json!(7), json!(0)));
    let v = run(&THROUGH_THE_STORE.replace(" including stores", ""));
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([0, 0, 0]), json!(5), json!(2)));
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    assert!(
        docs.contains(THROUGH_THE_STORE.trim()),
        "docs/language.md no longer shows the example"
    );
}

// ---------------------------------------------------------------- a store that is a pit of the row

/// The docs' "A store in the row" (docs/language.md, "A store that is a pit of the row").
const STORE_IN_THE_ROW: &str = r#"
game "A store in the row"
board { pits 4  store pit 4  seeds 3 }
sow { direction ccw }
capture "across an empty pit" {
  when last.side == mover and not last.store and last.before == 0
    and not opposite(last).store and opposite(last).count > 0
  take opposite(last), last
}
end "more than half" when captured(south) > 9 or captured(north) > 9
end "no move" when no_moves remaining owner
"#;

fn from_position(g: &Game, v: serde_json::Value) -> Position {
    let mut pos = g.position_from_json(&v.to_string()).expect("a position of this board");
    g.settle_start(&mut pos);
    pos
}

/// Each player's pit 4 is their store, empty at the start: 18 seeds in play. South's 3 sows south's
/// store, north 1 and north 2; north's 3 sows north's store, south 1 and south 2: both stores are
/// sown by both players as pits of the track. The store pit is no move, and the JSON lists it with
/// no seeds and says which pit it is.
#[test]
fn a_store_pit_is_sown_as_a_pit_of_the_track_and_is_no_move() {
    let g = game(STORE_IN_THE_ROW);
    let start = played(&g, &[]);
    let v = json_of(&g, &start);
    assert_eq!(board(&v), (json!([3, 3, 3, 0]), json!([3, 3, 3, 0]), json!(0), json!(0)));
    assert_eq!(v["store_pit"], json!(4));
    assert_eq!(v["legal_moves"], json!([1, 2, 3]));
    assert_eq!(g.seed_total(&start), 18);
    let v = after(&g, &[3]);
    assert_eq!(board(&v), (json!([3, 3, 0, 0]), json!([4, 4, 3, 0]), json!(1), json!(0)));
    let v = after(&g, &[3, 3]);
    assert_eq!(board(&v), (json!([4, 4, 0, 0]), json!([4, 4, 0, 0]), json!(1), json!(1)));
    let mut pos = played(&g, &[]);
    assert!(g.apply(&mut pos, 4).is_err(), "the store pit is no move");
    // A position that puts seeds in the store pit's place is refused: they are the store's.
    let bad = json!({"pits": {"south": [1, 0, 0, 2], "north": [0, 0, 0, 0]},
                     "stores": {"south": 0, "north": 0}, "to_move": "south"});
    let refused = g.position_from_json(&bad.to_string()).expect_err("refused");
    assert!(refused.message.contains("south's pit 4 is south's store"), "{}", refused.message);
}

/// Across from south's pit 1 lies north's store. South's 3 (six seeds) sows south's store, north 1,
/// 2, 3, north's store (4 -> 5) and south 1, empty: the rule says `not opposite(last).store`, so
/// nothing is taken. Without those words the pit across, north's store, is taken with the last seed:
/// south's store 1 + 5 + 1 = 7, north's 0.
#[test]
fn the_pit_across_from_a_store_pit_is_the_store() {
    let from = json!({"pits": {"south": [0, 0, 6, 0], "north": [1, 1, 1, 0]},
                      "stores": {"south": 0, "north": 4}, "to_move": "south"});
    let g = game(STORE_IN_THE_ROW);
    let v = after_from(&g, from_position(&g, from.clone()), 3);
    assert_eq!(board(&v), (json!([1, 0, 0, 0]), json!([2, 2, 2, 0]), json!(1), json!(5)));
    let g = game(&STORE_IN_THE_ROW.replace("and not opposite(last).store ", ""));
    let v = after_from(&g, from_position(&g, from), 3);
    assert_eq!(board(&v), (json!([0, 0, 0, 0]), json!([2, 2, 2, 0]), json!(7), json!(0)));
}

/// The end rules read the store pits as stores. South's 1 falls into south 2, empty, and takes north
/// 3 across it with the last seed: south's store 7 + 3 + 1 = 11, more than half the 18, and the game ends
/// with south the winner (`captured(south)`). Else, when the player to move cannot move, `remaining
/// owner` gives each their row's seeds, and the store pits keep theirs: south's 3 sows its last seed
/// into south's store (5 -> 6), north holds nothing and cannot move; south's 1 seed left goes to
/// south's store: 7 to north's 8, north wins.
#[test]
fn the_end_rules_count_a_store_pit_as_the_store() {
    let g = game(STORE_IN_THE_ROW);
    let from = json!({"pits": {"south": [1, 0, 0, 0], "north": [2, 2, 3, 0]},
                      "stores": {"south": 7, "north": 3}, "to_move": "south"});
    let v = after_from(&g, from_position(&g, from), 1);
    assert_eq!(board(&v), (json!([0, 0, 0, 0]), json!([2, 2, 0, 0]), json!(11), json!(3)));
    assert_eq!(v["ended_by"], json!("more than half"));
    assert_eq!(v["winner"], json!("south"));
    let from = json!({"pits": {"south": [1, 0, 1, 0], "north": [0, 0, 0, 0]},
                      "stores": {"south": 5, "north": 8}, "to_move": "south"});
    let v = after_from(&g, from_position(&g, from), 3);
    assert_eq!(board(&v), (json!([0, 0, 0, 0]), json!([0, 0, 0, 0]), json!(7), json!(8)));
    assert_eq!(v["ended_by"], json!("no move"));
    assert_eq!(v["winner"], json!("north"));
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    assert!(
        docs.contains(STORE_IN_THE_ROW.trim()),
        "docs/language.md no longer shows the example"
    );
}

/// Random games of the store-pit game keep their 18 seeds, never move from a store pit, and end.
#[test]
fn random_games_with_store_pits_keep_their_seeds_and_end() {
    use rand::{Rng, SeedableRng};
    let g = game(STORE_IN_THE_ROW);
    for seed in 0..200 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut pos = played(&g, &[]);
        while !pos.is_over() {
            assert!(pos.ply() < 2000, "game {seed} reached 2000 plies");
            let moves = g.legal_moves(&pos);
            assert!(!moves.contains(&4), "game {seed}: the store pit listed as a move");
            let k = moves[rng.gen_range(0..moves.len())];
            g.apply(&mut pos, k).expect("a listed move");
            assert_eq!(g.seed_total(&pos), 18, "game {seed}: seeds not kept");
            let v = json_of(&g, &pos);
            assert_eq!((&v["pits"]["south"][3], &v["pits"]["north"][3]), (&json!(0), &json!(0)));
        }
    }
}

/// A move that may name an empty pit (entering a seed from the store, `from store 1`) still cannot
/// name the store pit: it is the store. Each player's store starts with the 2 seeds of the reserve.
#[test]
fn a_store_pit_is_no_move_where_empty_pits_may_be_named() {
    let g = game(
        r#"
game "Entering beside a store pit"
board { pits 3  store pit 3  seeds 1  reserve 2 }
sow { direction ccw }
phase "entering" when ply < 2 {
  sow { from store 1  relay never }
  no captures
}
end "no move" when no_moves remaining owner
"#,
    );
    let v = json_of(&g, &played(&g, &[]));
    assert_eq!(board(&v), (json!([1, 1, 0]), json!([1, 1, 0]), json!(2), json!(2)));
    assert_eq!(v["legal_moves"], json!([1, 2]));
    let v = after(&g, &[2]);
    assert_eq!(board(&v), (json!([1, 2, 0]), json!([1, 1, 0]), json!(1), json!(2)));
}

/// A store has no pit across: a series `including stores ... with opposite` that takes the mover's
/// own store (where it is) takes nothing with it. South's 3 sows south's store (1) and north 1 (2),
/// taken; the walk goes back to south's store, which holds 1: taken where it is, and north's store,
/// across the board from it, is left alone; south 3 is empty and stops the walk. South 1 + 2 = 3.
#[test]
fn a_series_with_opposite_takes_nothing_across_from_a_store() {
    let g = game(
        r#"
game "Back through the store"
board { pits 3  seeds 1  stores sown }
sow { direction ccw  into both stores }
capture "twos" {
  when last.side == opponent and last.count == 2
  take last
  series backward including stores while pit.count in 1..2 with opposite
}
end "no move" when no_moves remaining owner
"#,
    );
    let from = json!({"pits": {"south": [0, 0, 2], "north": [1, 1, 1]},
                      "stores": {"south": 0, "north": 2}, "to_move": "south"});
    let pos = g.position_from_json(&from.to_string()).expect("a position of this board");
    let v = after_from(&g, pos, 3);
    assert_eq!(board(&v), (json!([0, 0, 0]), json!([0, 1, 1]), json!(3), json!(2)));
}
