//! Traditional games written for issue 26 from their rules alone, that need what the issue added
//! (tests/fixtures/traditional/*.sow): each checks clean and plays hand-worked boards exactly.

use super::support::{json_of, played, root};

use serde_json::json;
use sowlang::{Game, Position};

fn load(name: &str) -> Game {
    let path = root().join("tests/fixtures/traditional").join(name);
    sowlang::load_game(&path, &[])
        .unwrap_or_else(|f| panic!("{name} does not check: {:?}", f.diagnostics))
        .game
}

/// A position of `g` with these pits, and these pits closed (north's, by number).
fn with_closed(g: &Game, south: serde_json::Value, north: serde_json::Value, north_closed: &[usize]) -> Position {
    let mut v = json_of(g, &played(g, &[]));
    v["pits"] = json!({"south": south, "north": north});
    let closed: Vec<bool> = (1..=7).map(|n| north_closed.contains(&n)).collect();
    v["closed"] = json!({"south": vec![false; 7], "north": closed});
    let mut pos = sowlang::position::from_json(g, &v.to_string()).expect("a position of this board");
    g.settle_start(&mut pos);
    pos
}

fn stores(v: &serde_json::Value) -> (serde_json::Value, serde_json::Value) {
    (v["stores"]["south"].clone(), v["stores"]["north"].clone())
}

/// Pallanguzhi's "pit after" is the next pit in play: rubbish pits (closed for the round) are passed
/// over by sowing and by the capture. North's pits 1 and 4 are closed. South's pit 7 (one seed) passes
/// north 1 and falls into north 2 (now 1); the pit after it, north 3, is empty, so south takes the pit
/// after that one in play: north 5 (north 4 is passed over), 5 seeds. The turn ends.
#[test]
fn pallanguzhi_takes_the_pit_after_the_empty_one_passing_rubbish_pits() {
    let g = load("pallanguzhi.sow");
    let mut pos = with_closed(&g, json!([2, 2, 2, 2, 2, 2, 1]), json!([0, 0, 0, 0, 5, 2, 2]), &[1, 4]);
    g.apply(&mut pos, 7).expect("legal");
    let v = json_of(&g, &pos);
    assert_eq!(v["pits"]["south"], json!([2, 2, 2, 2, 2, 2, 0]));
    assert_eq!(v["pits"]["north"], json!([0, 1, 0, 0, 0, 2, 2]));
    assert_eq!(stores(&v), (json!(5), json!(0)));
    assert_eq!(v["to_move"], json!("north"));
}

/// The relay lifts the next pit in play. North's pit 1 is closed. South's pit 6 (one seed) falls into
/// south 7 (now 1); the pit after it in play is north 2 (3 seeds), lifted and sown into north 3, 4 and 5.
/// The pit after north 5 is empty, so south takes the one after it, north 7, which is empty too: the
/// turn ends with nothing taken.
#[test]
fn pallanguzhi_relays_from_the_next_pit_in_play() {
    let g = load("pallanguzhi.sow");
    let mut pos = with_closed(&g, json!([0, 0, 0, 0, 0, 1, 0]), json!([0, 3, 0, 0, 0, 0, 0]), &[1]);
    g.apply(&mut pos, 6).expect("legal");
    let v = json_of(&g, &pos);
    assert_eq!(v["pits"]["south"], json!([0, 0, 0, 0, 0, 0, 1]));
    assert_eq!(v["pits"]["north"], json!([0, 0, 1, 1, 1, 0, 0]));
    assert_eq!(stores(&v), (json!(0), json!(0)));
}

/// "Pasu": a pit that reaches four while sowing goes to the owner of its row. South's pit 1 (3 seeds)
/// sows south 2 (3 -> 4: its 4 seeds go to south), south 3 and south 4. The pit after south 4, south 5,
/// is empty: south takes south 6 (2 seeds). South's store: 6.
#[test]
fn pallanguzhi_pasu_goes_to_the_rows_owner() {
    let g = load("pallanguzhi.sow");
    let mut pos = with_closed(&g, json!([3, 3, 0, 0, 0, 2, 0]), json!([1, 1, 1, 1, 1, 1, 1]), &[]);
    g.apply(&mut pos, 1).expect("legal");
    let v = json_of(&g, &pos);
    assert_eq!(v["pits"]["south"], json!([0, 0, 1, 1, 0, 0, 0]));
    assert_eq!(stores(&v), (json!(6), json!(0)));
}
