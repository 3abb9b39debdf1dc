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
    let mut pos = g.position_from_json(&v.to_string()).expect("a position of this board");
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

/// A position of `g` from a position JSON (pits, stores, player to move), settled as a start.
fn from(g: &Game, v: serde_json::Value) -> Position {
    let mut pos = g.position_from_json(&v.to_string()).expect("a position of this board");
    g.settle_start(&mut pos);
    pos
}

/// Plays the named moves from `pos` and returns the position JSON after them.
fn play(g: &Game, mut pos: Position, moves: &[&str]) -> serde_json::Value {
    for m in moves {
        let k = g.parse_move(m).unwrap_or_else(|| panic!("{m} names a move"));
        g.apply(&mut pos, k).unwrap_or_else(|e| panic!("{m} is legal: {e:?}"));
    }
    json_of(g, &pos)
}

/// Igisoro: south's b8 (2 seeds) sows a8 and a7; a7 held 1, so the last seed falls into a loaded
/// front pit; north's pits in that column, a2 (3) and b2 (1), both hold seeds: both are taken (4)
/// and sown on from the pit the move began from, b8: b8, a8, a7, a6. a6 was empty: the move ends.
/// North is left with a single seed in b8, which may not be played: north cannot move and loses.
#[test]
fn igisoro_captures_both_pits_across_and_sows_them_from_the_origin() {
    let g = load("igisoro.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [[0, 0, 0, 0, 0, 0, 1, 0], [1, 0, 0, 0, 0, 0, 0, 2]],
                        "north": [[0, 3, 0, 0, 0, 0, 0, 0], [0, 1, 0, 0, 0, 0, 0, 1]]},
               "stores": {"south": 0, "north": 0}, "to_move": "south"}),
    );
    let v = play(&g, pos, &["b8"]);
    assert_eq!(v["pits"]["south"], json!([[0, 0, 0, 0, 0, 1, 3, 2], [1, 0, 0, 0, 0, 0, 0, 1]]));
    assert_eq!(v["pits"]["north"], json!([[0, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 1]]));
    assert_eq!(v["winner"], json!("south"));
}

/// Igisoro from the start: south's b1 (4) sows b2..b5; b5 held 4, so its 5 are lifted and sown
/// b6, b7, b8, a8, a7; a7 was empty: the move ends with no capture (north's front row is empty).
#[test]
fn igisoro_relays_round_the_own_rows_from_the_start() {
    let g = load("igisoro.sow");
    let v = play(&g, played(&g, &[]), &["b1"]);
    assert_eq!(v["pits"]["south"], json!([[0, 0, 0, 0, 0, 0, 1, 1], [0, 5, 5, 5, 0, 5, 5, 5]]));
    assert_eq!(v["to_move"], json!("north"));
}

/// Sat Gol from the start (a ring of seven, four seeds in each): south's s1 sows s2..s5; the hole
/// after the last, s6 (4), is lifted: s7, s1, s2, s3; then s4 (5): s5, s6, s7, s1, s2; then s3 (6):
/// s4, s5, s6, s7, s1, s2. The hole after s2, s3, is empty: the hole beyond it, s4 (1), is taken.
#[test]
fn sat_gol_sows_on_from_the_hole_after_the_last_until_it_is_empty() {
    let g = load("sat_gol.sow");
    let v = play(&g, played(&g, &[]), &["s1"]);
    assert_eq!(v["pits"]["shared"], json!([3, 8, 0, 0, 7, 2, 7]));
    assert_eq!(stores(&v), (json!(1), json!(0)));
    assert_eq!(v["to_move"], json!("north"));
}

/// Sat Gol: south's s3 (1) falls into s4; the hole after it, s5, is empty, so s6 (3) is taken.
#[test]
fn sat_gol_takes_the_hole_beyond_an_empty_one() {
    let g = load("sat_gol.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [], "north": [], "shared": [0, 0, 1, 0, 0, 3, 2]},
               "stores": {"south": 0, "north": 0}, "to_move": "south"}),
    );
    let v = play(&g, pos, &["s3"]);
    assert_eq!(v["pits"]["shared"], json!([0, 0, 0, 1, 0, 0, 2]));
    assert_eq!(stores(&v), (json!(3), json!(0)));
}

/// Sat Gol in rounds: one seed left, in s1; stores 14 and 13. Each move sows it into the next hole;
/// the hole after that is empty and so is the one beyond, so nothing is taken. Both players have only
/// that move: after 14 moves the seed is back in s1 with south to move, the position repeats and the
/// round ends, south ahead (14 to 13). The seed stays in s1; south, who opens every round, fills the
/// next empty holes s2, s3, s4 (12, 2 left), north goes on with s5, s6, s7 (12, 1 left).
#[test]
fn sat_gol_a_round_ends_going_round_and_the_players_fill_the_ring_in_turn() {
    let g = load("sat_gol.sow");
    let start = |north: u32| {
        from(
            &g,
            json!({"pits": {"south": [], "north": [], "shared": [1, 0, 0, 0, 0, 0, 0]},
                   "stores": {"south": 14, "north": north}, "to_move": "south"}),
        )
    };
    let round: Vec<String> = (0..14).map(|i| format!("s{}", i % 7 + 1)).collect();
    let round: Vec<&str> = round.iter().map(String::as_str).collect();
    let v = play(&g, start(13), &round[..13]);
    assert_eq!(
        (v["round"].clone(), v["pits"]["shared"].clone()),
        (json!(1), json!([0, 0, 0, 0, 0, 0, 1]))
    );
    let v = play(&g, start(13), &round);
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["rounds_won"], json!({"south": 1, "north": 0}));
    assert_eq!(v["pits"]["shared"], json!([1, 4, 4, 4, 4, 4, 4]));
    assert_eq!(stores(&v), (json!(2), json!(1)));
    assert_eq!(v["to_move"], json!("south"));
}

/// Sat Gol: the same round with north holding 3 seeds: when it ends north cannot fill a hole, and the
/// match is over; south has more seeds (14 to 3; the seed in s1 is nobody's) and wins it.
#[test]
fn sat_gol_a_player_who_cannot_fill_a_hole_is_out() {
    let g = load("sat_gol.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [], "north": [], "shared": [1, 0, 0, 0, 0, 0, 0]},
               "stores": {"south": 14, "north": 3}, "to_move": "south"}),
    );
    let round: Vec<String> = (0..14).map(|i| format!("s{}", i % 7 + 1)).collect();
    let round: Vec<&str> = round.iter().map(String::as_str).collect();
    let v = play(&g, pos, &round);
    assert_eq!(v["over"], json!(true));
    assert_eq!(v["winner"], json!("south"));
    assert_eq!(v["pits"]["shared"], json!([1, 0, 0, 0, 0, 0, 0]));
    assert_eq!(stores(&v), (json!(14), json!(3)));
}

/// Toguz Kumalak's opening 9: south's pit 9 (9 seeds) sows its first seed back into pit 9, then north
/// 1..8; north 8 holds 10, even: south takes it. North's 1 (10) sows north 1..9 and south 1, which
/// holds 10: north takes it.
#[test]
fn toguz_kumalak_sows_back_into_the_pit_lifted_and_takes_even_pits() {
    let g = load("toguz_kumalak.sow");
    let v = play(&g, played(&g, &[]), &["9", "1"]);
    assert_eq!(v["pits"]["south"], json!([0, 9, 9, 9, 9, 9, 9, 9, 1]));
    assert_eq!(v["pits"]["north"], json!([1, 11, 11, 11, 11, 11, 11, 1, 10]));
    assert_eq!(stores(&v), (json!(10), json!(10)));
}

/// Toguz Kumalak's tuzdyk. South's 9 (one seed) goes into north 1 alone, making 3: north 1 becomes
/// south's tuzdyk and its 3 seeds south's. North's 9 (one seed) makes south 1 hold 3, but the pit of
/// the same number is south's tuzdyk: no tuzdyk, and 3 is odd. South's 8 (3) sows 8, 9 and north 1,
/// whose seed goes to south (4). North has no seeds left: south takes its own row's 5 (9 - 0).
#[test]
fn toguz_kumalak_tuzdyk_is_claimed_once_not_symmetrically_and_feeds_its_owner() {
    let g = load("toguz_kumalak.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [2, 0, 0, 0, 0, 0, 0, 3, 1], "north": [2, 0, 0, 0, 0, 0, 0, 0, 1]},
               "stores": {"south": 0, "north": 0}, "to_move": "south"}),
    );
    let v = play(&g, pos.clone(), &["9", "9"]);
    assert_eq!(v["pits"]["south"], json!([3, 0, 0, 0, 0, 0, 0, 3, 0]));
    assert_eq!(v["pits"]["north"], json!([0, 0, 0, 0, 0, 0, 0, 0, 0]));
    assert_eq!(stores(&v), (json!(3), json!(0)));
    let v = play(&g, pos, &["9", "9", "8"]);
    assert_eq!(stores(&v), (json!(9), json!(0)));
    assert_eq!(v["winner"], json!("south"));
}

/// Igisoro arranged: the players place one seed a move in their own pits, a loaded one too (a1 gets
/// a second seed: the single-seed rule is for sowing). Placing four in each back pit, in turn, gives
/// the fixed start, from which south's b1 plays as in the fixed game (b2..b5, relay b5: b6..a7).
#[test]
fn igisoro_arranged_places_the_seeds_where_the_players_choose_then_sows() {
    let g = load("igisoro_arranged.sow");
    let v = play(&g, played(&g, &[]), &["a1", "b8", "a1"]);
    assert_eq!(v["pits"]["south"], json!([[2, 0, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]));
    assert_eq!(stores(&v), (json!(30), json!(31)));
    let names: Vec<String> = (0..64).map(|i| format!("b{}", i / 2 % 8 + 1)).collect();
    let mut moves: Vec<&str> = names.iter().map(String::as_str).collect();
    moves.push("b1");
    let v = play(&g, played(&g, &[]), &moves);
    assert_eq!(v["pits"]["south"], json!([[0, 0, 0, 0, 0, 0, 1, 1], [0, 5, 5, 5, 0, 5, 5, 5]]));
    assert_eq!(v["pits"]["north"], json!([[0, 0, 0, 0, 0, 0, 0, 0], [4, 4, 4, 4, 4, 4, 4, 4]]));
    assert_eq!(stores(&v), (json!(0), json!(0)));
}

/// Oware in rounds: south's 6 (one seed) falls into north 1. South's row is empty and north's only
/// move (north 1 into north 2) does not feed south: north cannot move and the round ends, each taking
/// the seeds of their houses: south 30, north 18; south wins the round. Round 2: south fills six houses
/// (24, 6 left), north four (16, 2 left); south fills north's empty house 5 with 4 and owns it (2
/// left); north's house 6 stays empty. South plays their six houses and north's 5 (`5'`); after
/// south's 1 (south 2..5), north may play neither 5 (south's) nor 6 (empty).
#[test]
fn oware_rounds_a_round_ends_and_the_loser_loses_the_houses_left_unfilled() {
    let g = load("oware_rounds.sow");
    let start = || {
        from(
            &g,
            json!({"pits": {"south": [0, 0, 0, 0, 0, 1], "north": [0, 0, 0, 0, 0, 0]},
                   "stores": {"south": 30, "north": 17}, "to_move": "south"}),
        )
    };
    let v = play(&g, start(), &["6"]);
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["pits"]["south"], json!([4, 4, 4, 4, 4, 4]));
    assert_eq!(v["pits"]["north"], json!([4, 4, 4, 4, 4, 0]));
    assert_eq!(stores(&v), (json!(2), json!(2)));
    assert_eq!(v["claimed"]["north"][4], json!("south"));
    assert_eq!(v["rounds_won"], json!({"south": 1, "north": 0}));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "4", "5", "6", "5'"]));
    let v = play(&g, start(), &["6", "1"]);
    assert_eq!(v["pits"]["south"], json!([0, 5, 5, 5, 5, 4]));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "4"]));
}

/// Oware in rounds: the house south owns in north's row is south's to play. Round 2 as above (south's
/// houses 4 each, north's 1-5 4 each, 5 south's, 6 empty): south plays north's 5 (`5'`, 4 seeds):
/// north 6 (1), south 1, 2, 3 (5 each); the last seed is in south's own row: no capture. North may
/// play 1-4 and 6, not 5 (south's, and empty now).
#[test]
fn oware_rounds_a_claimed_house_is_played_by_its_claimer() {
    let g = load("oware_rounds.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [0, 0, 0, 0, 0, 1], "north": [0, 0, 0, 0, 0, 0]},
               "stores": {"south": 30, "north": 17}, "to_move": "south"}),
    );
    let v = play(&g, pos, &["6", "5'"]);
    assert_eq!(v["pits"]["south"], json!([5, 5, 5, 4, 4, 4]));
    assert_eq!(v["pits"]["north"], json!([4, 4, 4, 4, 0, 1]));
    assert_eq!(stores(&v), (json!(2), json!(2)));
    assert_eq!(v["to_move"], json!("north"));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "4", "6"]));
}

/// Oware in rounds: what a claimed house holds when the round ends is its owner's. Round 2, south's
/// row holds one seed (6) and north's only north's house 5, claimed by south (3). South's 6 falls
/// into north 1. South has no seeds and north's one move (north 1 into north 2) does not feed south:
/// north cannot move, the round ends. North 1's seed goes to north (24 + 1 = 25), north 5's three to
/// south (20 + 3 = 23): north wins the round. Round 3: north fills six houses (1 left), south five
/// (3 left); north cannot fill south's sixth: it stays empty, and the claim ends with the round.
#[test]
fn oware_rounds_a_claimed_house_is_its_owners_when_the_round_ends() {
    let g = load("oware_rounds.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [0, 0, 0, 0, 0, 1], "north": [0, 0, 0, 0, 3, 0]},
               "stores": {"south": 20, "north": 24}, "to_move": "south", "round": 2,
               "claimed": {"south": [null, null, null, null, null, null],
                           "north": [null, null, null, null, "south", null]}}),
    );
    let v = play(&g, pos, &["6"]);
    assert_eq!(v["round"], json!(3));
    assert_eq!(v["rounds_won"], json!({"south": 0, "north": 1}));
    assert_eq!(v["pits"]["south"], json!([4, 4, 4, 4, 4, 0]));
    assert_eq!(v["pits"]["north"], json!([4, 4, 4, 4, 4, 4]));
    assert_eq!(stores(&v), (json!(3), json!(1)));
    assert_eq!(v["claimed"]["north"][4], json!(null));
}

/// Selus from the start (three seeds in every hole). South's 6 sows the middle row from south's right:
/// s6, s5, s4; s4 reaches four and is taken (4). North's 6 sows the middle row from north's right,
/// which is south's left: s1, s2, s3; s3 reaches four and is taken (4). South's 5 sows south 6 (0 ->
/// 1), s6 (4 -> 5), s5 (4 -> 5): loaded, five, so lifted: s4, s3, s2, s1 and north 6 (0 -> 1), which
/// was empty: the turn ends.
#[test]
fn selus_snakes_through_the_middle_row_and_takes_fours() {
    let g = load("selus.sow");
    let v = play(&g, played(&g, &[]), &["6", "6"]);
    assert_eq!(v["pits"]["shared"], json!([4, 4, 0, 0, 4, 4]));
    assert_eq!(stores(&v), (json!(4), json!(4)));
    let v = play(&g, played(&g, &[]), &["6", "6", "5"]);
    assert_eq!(v["pits"]["south"], json!([3, 3, 3, 3, 0, 1]));
    assert_eq!(v["pits"]["shared"], json!([5, 5, 1, 1, 0, 5]));
    assert_eq!(v["pits"]["north"], json!([3, 3, 3, 3, 3, 1]));
    assert_eq!(stores(&v), (json!(4), json!(4)));
}

/// Gabata on three rows: south owns s1..s3, north s4..s6. South's s1 (3) sows on along south's
/// path, into the opponent's row from south's left: north 6, 5, 4, each brought to four and taken by
/// north, their owner (12). North's s4 (3) sows s5 and s6 (north's, to north: 8) and south 6 (to
/// south: 4); the last hole is then empty: the move ends. South may play their own half (s2, s3),
/// not north's.
#[test]
fn gabata_three_rows_gives_each_four_to_the_owner_of_its_hole() {
    let g = load("gabata_three_rows.sow");
    let v = play(&g, played(&g, &[]), &["s1"]);
    assert_eq!(v["pits"]["north"], json!([3, 3, 3, 0, 0, 0]));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "s4", "s5", "s6"]));
    assert_eq!(stores(&v), (json!(0), json!(12)));
    let v = play(&g, played(&g, &[]), &["s1", "s4"]);
    assert_eq!(v["pits"]["south"], json!([3, 3, 3, 3, 3, 0]));
    assert_eq!(v["pits"]["shared"], json!([0, 3, 3, 0, 0, 0]));
    assert_eq!(stores(&v), (json!(4), json!(20)));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "4", "5", "s2", "s3"]));
}

/// Bao la Kujifunza from the start (two seeds everywhere). South's a3L sows a2, a1 (3): north's a8 is
/// taken and sown from the left end rightwards (a1 is a kimbi): a1, a2 (4); again north a7: a1, a2
/// (5); north a7 is now empty, so a2's 5 are lifted: a3..a7 (3); north a2 is taken and sown from the
/// right end leftwards (a7 is a kimbi): a8, a7 (4); north a2 is empty: a7's 4 go on leftwards a6..a3
/// (2); a middle pit, the sowing going counter-clockwise: north a6 is sown from the right end, a8, a7
/// (empty before): the move ends. North has lost a2, a6, a7, a8.
#[test]
fn bao_la_kujifunza_sows_captures_from_the_end_the_rules_say() {
    let g = load("bao_la_kujifunza.sow");
    let v = play(&g, played(&g, &[]), &["a3L"]);
    assert_eq!(v["pits"]["south"], json!([[5, 0, 2, 4, 4, 4, 1, 4], [2, 2, 2, 2, 2, 2, 2, 2]]));
    assert_eq!(v["pits"]["north"], json!([[2, 0, 2, 2, 2, 0, 0, 0], [2, 2, 2, 2, 2, 2, 2, 2]]));
}

/// Bao la Kujifunza: a move that captures nothing with its first lap captures nothing later. South
/// has no capture (a1, a7 and b8 hold one seed each); b6R sows b7, b8 (2): lifted, a8, a7 (2), a
/// loaded front pit facing north's loaded a2 (2), but the move is a takasa: a7 is lifted, a6, a5
/// (empty): the move ends, north's a2 untouched.
#[test]
fn bao_la_kujifunza_takasa_captures_nothing() {
    let g = load("bao_la_kujifunza.sow");
    let pos = from(
        &g,
        json!({"pits": {"south": [[1, 0, 0, 0, 0, 0, 1, 0], [0, 0, 0, 0, 0, 2, 0, 1]],
                        "north": [[0, 2, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]},
               "stores": {"south": 0, "north": 0}, "to_move": "south"}),
    );
    let v = play(&g, pos, &["b6R"]);
    assert_eq!(v["pits"]["south"], json!([[1, 0, 0, 0, 1, 1, 0, 1], [0, 0, 0, 0, 0, 0, 1, 0]]));
    assert_eq!(v["pits"]["north"], json!([[0, 2, 0, 0, 0, 0, 0, 0], [0, 0, 0, 0, 0, 0, 0, 0]]));
}

/// Igisoro as a match on the small board (`pits = 4`: 16 pits, 32 seeds in all).
fn igisoro_match() -> Game {
    let path = root().join("tests/fixtures/traditional/igisoro_match.sow");
    let set = [sowlang::Override {
        name: "pits".into(),
        value: 4,
    }];
    sowlang::load_game(&path, &set)
        .unwrap_or_else(|f| panic!("{:?}", f.diagnostics))
        .game
}

/// The last move of a game of the match: south's b4 (2 seeds) sows a4 and a3, both empty, and the
/// move ends; north holds single seeds only and cannot move, so north loses the game. South takes
/// back 25 seeds, north 7, and the next game is set up from those by north, the loser.
fn igisoro_match_brink(g: &Game) -> Position {
    from(
        g,
        json!({"pits": {"south": [[3, 3, 0, 0], [5, 5, 7, 2]], "north": [[1, 1, 1, 1], [1, 1, 1, 0]]},
               "stores": {"south": 0, "north": 0}, "to_move": "south", "ply": 40}),
    )
}

/// The set-up moves are the mover's pits, named as any move (`a1` .. `b4`), and `pass` once the hand
/// is empty while the other still places.
#[test]
fn igisoro_match_lists_the_set_up_moves_by_their_pits() {
    let g = igisoro_match();
    let start = played(&g, &[]);
    assert_eq!(json_of(&g, &start)["stores"], json!({"south": 16, "north": 16}));
    let all = ["a1", "a2", "a3", "a4", "b1", "b2", "b3", "b4"];
    assert_eq!(super::support::move_names(&g, &start), all);
    let mut pos = igisoro_match_brink(&g);
    g.apply(&mut pos, g.parse_move("b4").expect("a move")).expect("legal");
    let v = json_of(&g, &pos);
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["rounds_won"], json!({"south": 1, "north": 0}));
    assert_eq!(v["pits"]["south"], json!([[0, 0, 0, 0], [0, 0, 0, 0]]));
    assert_eq!(stores(&v), (json!(25), json!(7)));
    assert_eq!(v["to_move"], json!("north"));
    assert_eq!(super::support::move_names(&g, &pos), all);
    // North's seven seeds placed (and south's first seven): north may only pass.
    let v = play(
        &g,
        pos,
        &["a1", "b1", "a1", "b1", "a2", "b1", "a2", "b1", "b1", "b1", "b1", "b1", "b1", "b1"],
    );
    assert_eq!(v["legal_moves"], json!(["pass"]));
    assert_eq!(stores(&v), (json!(18), json!(0)));
}

/// A later game's set-up played through: north (the loser, 7 seeds) and south (25) place a seed a
/// move in turn: north two in a1, two in a2, three in b1; south seven in b1. North's hand is empty:
/// north passes while south places six in each of b2, b3, b4. Both hands are empty, the board is
/// south a [0, 0, 0, 0] b [7, 6, 6, 6], north a [2, 2, 0, 0] b [3, 0, 0, 0], and the game is played:
/// north's b1 (3 seeds) sows b2, b3, b4, the last into an empty pit.
#[test]
fn igisoro_match_a_later_game_is_set_up_as_the_players_choose() {
    let g = igisoro_match();
    let mut moves = vec![
        "b4", "a1", "b1", "a1", "b1", "a2", "b1", "a2", "b1", "b1", "b1", "b1", "b1", "b1", "b1",
    ];
    for pit in ["b2", "b3", "b4"] {
        for _ in 0..6 {
            moves.extend(["pass", pit]);
        }
    }
    let v = play(&g, igisoro_match_brink(&g), &moves);
    assert_eq!(v["pits"]["south"], json!([[0, 0, 0, 0], [7, 6, 6, 6]]));
    assert_eq!(v["pits"]["north"], json!([[2, 2, 0, 0], [3, 0, 0, 0]]));
    assert_eq!(stores(&v), (json!(0), json!(0)));
    assert_eq!(v["to_move"], json!("north"));
    assert_eq!(v["legal_moves"], json!(["a1", "a2", "b1"]));
    moves.push("b1");
    let v = play(&g, igisoro_match_brink(&g), &moves);
    assert_eq!(v["pits"]["north"], json!([[2, 2, 0, 0], [0, 1, 1, 1]]));
}

/// The computer players choose among the set-up moves like any others: alpha-beta and MCTS each name
/// a pit of the player to move at the start of a set-up, and `pass` where it is the only move.
#[test]
fn igisoro_match_computer_players_play_the_set_up() {
    use rand::SeedableRng;
    use sowlang::search::{alphabeta, mcts};
    let g = igisoro_match();
    let mut pos = igisoro_match_brink(&g);
    g.apply(&mut pos, g.parse_move("b4").expect("a move")).expect("legal");
    let legal = g.legal_moves(&pos);
    let mut rng = rand::rngs::StdRng::seed_from_u64(1);
    let limits = alphabeta::Limits { depth: 4, time: None };
    let found = alphabeta::search(&g, &pos, limits, false, &mut rng).expect("a move");
    assert!(legal.contains(&found.pit), "alpha-beta chose {}", found.pit);
    let budget = mcts::Budget { playouts: 200, time: None };
    let found = mcts::search(&g, &pos, budget, &mut rng).expect("a move");
    assert!(legal.contains(&found.pit), "MCTS chose {}", found.pit);
    let v = play(
        &g,
        pos.clone(),
        &["a1", "b1", "a1", "b1", "a2", "b1", "a2", "b1", "b1", "b1", "b1", "b1", "b1", "b1"],
    );
    assert_eq!(v["legal_moves"], json!(["pass"]));
}

/// `check --explore` plays random matches through their set-ups and finds nothing wrong; random
/// matches keep the 32 seeds after every move and end within a bound far above their length (about
/// 160 plies on average).
#[test]
fn igisoro_match_random_matches_keep_the_seeds_and_end() {
    use rand::{Rng, SeedableRng};
    let dir = root().join("tests/fixtures/traditional");
    let run = super::support::sowlang_in(&dir, &["check", "--explore", "20", "--seed", "3", "igisoro_match.sow"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stderr.contains("20 random games played: no errors"), "{}", run.stderr);
    let g = igisoro_match();
    for seed in 0..40 {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        let mut pos = played(&g, &[]);
        while !pos.is_over() {
            assert!(pos.ply() < 5000, "match {seed} reached 5000 plies");
            let moves = g.legal_moves(&pos);
            assert!(!moves.is_empty(), "match {seed}: no move at ply {} and not over", pos.ply());
            let k = moves[rng.gen_range(0..moves.len())];
            g.apply(&mut pos, k).unwrap_or_else(|e| panic!("match {seed}: {k} refused: {e}"));
            assert_eq!(g.seed_total(&pos), 32, "match {seed}: seeds not kept at ply {}", pos.ply());
        }
        assert!(pos.round() >= 3, "match {seed} ended after {} games", pos.round());
    }
}
