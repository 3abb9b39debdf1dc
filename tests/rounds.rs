//! Rounds on tiny invented boards, each result worked out by hand: who opens the next round (`next
//! round first ...`), how it is set up (`setup fill N` and its options, `setup mirror`, `setup
//! store N`, `setup deal fewest`), end rules that count only stated pits (`remaining ... from PITS`),
//! and a placement opening (`from store 1` with `relay never`). Every set-up keeps every seed.
//!
//! Most tests start from the same brink of a round's end: south holds one seed, in pit 1, north none,
//! and the round ends when the player to move has no seed (`seeds(to_move) == 0`). South plays pit 1,
//! its seed falls into south's pit 2, north is to move with no seed: the round ends, south's seed goes
//! to south's store (`remaining owner`), so the stores hold S + 1 and N for the next round's set-up.

use super::support::invented as game;

use serde_json::{Value, json};
use sowlang::{Game, Position};

/// A game of `pits` pits a row whose round ends as the module's comment says, with `rounds` inside
/// its `rounds { }` (the match never ends in these tests) and `end` after the end rule's condition.
fn round_game(pits: usize, end: &str, rounds: &str) -> Game {
    game(&format!(
        "game \"Rounds\"\nboard {{ pits {pits} seeds 2 }}\nsow {{ direction ccw }}\n\
         end \"stuck\" when seeds(to_move) == 0 remaining owner {end}\n\
         rounds {{ {rounds}  match ends when round > 50  match winner most rounds }}\n"
    ))
}

/// The position after `moves` from the position JSON `from`, with its seed total checked against
/// the start's: no rule may create or destroy a seed.
fn play(game: &Game, from: Value, moves: &[usize]) -> Value {
    let mut pos: Position = game.position_from_json(&from.to_string()).expect("a valid position");
    let total = game.seed_total(&pos);
    game.settle_start(&mut pos);
    for &k in moves {
        game.apply(&mut pos, k).expect("a legal move");
        assert_eq!(game.seed_total(&pos), total, "a seed was created or lost");
    }
    game.position_to_json(&pos)
}

/// The brink of the round's end on a board of `pits` pits a row: south [1, 0, ..], north empty,
/// stores S and N, south to move.
fn brink(pits: usize, south_store: u32, north_store: u32) -> Value {
    let mut south = vec![0; pits];
    south[0] = 1;
    json!({"pits": {"south": south, "north": vec![0; pits]}, "stores": {"south": south_store, "north": north_store}, "to_move": "south"})
}

/// Who is to move in round 2 under `next round first RULE`, from the brink with stores 1 and 9, the
/// round ended by `end "stuck" ... loser to_move`: north, stuck, loses the round though it holds 9
/// seeds to south's 2. So the winner is south, the loser north, the player with fewer seeds south
/// (2 < 9), the player who ended the round (made its last move) south. Round 1 was opened by south.
/// The deal: 2 seeds each, one a pit from pit 1: [1, 1, 0] on both sides, north keeps 7.
#[test]
fn who_opens_the_next_round() {
    let cases = [
        ("alternate", "north"),
        ("loser", "north"),
        ("winner", "south"),
        ("fewer seeds", "south"),
        ("other than ender", "north"),
        ("same", "south"),
    ];
    for (rule, opener) in cases {
        let g = round_game(3, "loser to_move", &format!("setup deal fewest  next round first {rule}"));
        let after = play(&g, brink(3, 1, 9), &[1]);
        assert_eq!(after["round"], 2, "{rule}");
        assert_eq!(after["rounds_won"], json!({"south": 1, "north": 0}), "{rule}");
        assert_eq!(after["pits"]["south"], json!([1, 1, 0]), "{rule}");
        assert_eq!(after["pits"]["north"], json!([1, 1, 0]), "{rule}");
        assert_eq!(after["stores"], json!({"south": 0, "north": 7}), "{rule}");
        assert_eq!(after["to_move"], opener, "next round first {rule}");
        assert_eq!(after["opener"], opener, "next round first {rule}");
    }
}

/// The round just ended was opened by north (the JSON's `opener`): `alternate` gives round 2 to
/// south, `same` to north again.
#[test]
fn alternation_goes_from_the_last_round_s_opener() {
    let mut from = brink(3, 1, 9);
    from["opener"] = json!("north");
    for (rule, opener) in [("alternate", "south"), ("same", "north")] {
        let g = round_game(3, "loser to_move", &format!("setup deal fewest  next round first {rule}"));
        assert_eq!(play(&g, from.clone(), &[1])["to_move"], opener, "next round first {rule}");
    }
}

/// A drawn round (the end rule states `draw`) has no winner or loser, and stores 5 and 5 have no
/// player with fewer seeds: each rule falls back to alternation, so north (round 1 was south's)
/// opens round 2. The deal: 5 each over 3 pits, [2, 2, 1].
#[test]
fn a_drawn_round_or_equal_seeds_fall_back_to_alternation() {
    for rule in ["winner", "loser", "fewer seeds"] {
        let g = round_game(3, "draw", &format!("setup deal fewest  next round first {rule}"));
        let after = play(&g, brink(3, 4, 5), &[1]);
        assert_eq!(after["rounds_won"], json!({"south": 0, "north": 0}), "{rule}");
        assert_eq!(after["pits"]["south"], json!([2, 2, 1]), "{rule}");
        assert_eq!(after["pits"]["north"], json!([2, 2, 1]), "{rule}");
        assert_eq!(after["to_move"], "north", "next round first {rule} after a draw");
    }
}

/// Without `next round first`, the file's `first` opens every round, as before, and the position JSON
/// has no `opener`.
#[test]
fn without_a_rule_the_file_s_first_opens_every_round() {
    let g = round_game(3, "loser to_move", "setup deal fewest");
    let after = play(&g, brink(3, 1, 9), &[1]);
    assert_eq!(after["to_move"], "south");
    assert!(
        after.get("opener").is_none(),
        "no `opener` in the JSON of a game that does not state it"
    );
}

/// `setup fill 3` alone: south 4 + 1 = 5 fills pit 1 and keeps 2; north 5 the same. The pits left
/// empty stay open (no `closed` in the JSON at all: the game never closes a pit).
#[test]
fn fill_without_closing() {
    let g = round_game(4, "", "setup fill 3");
    let after = play(&g, brink(4, 4, 5), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 0, 0, 0]));
    assert_eq!(after["pits"]["north"], json!([3, 0, 0, 0]));
    assert_eq!(after["stores"], json!({"south": 2, "north": 2}));
    assert!(after.get("closed").is_none());
}

/// `setup fill 3 remainder next close unfilled`: south 7 + 1 = 8 gives 3, 3 and the remainder 2 in
/// pit 3; north 5 gives 3 and 2. The pits left empty are closed; the stores are emptied.
#[test]
fn fill_with_the_remainder_in_the_next_pit() {
    let g = round_game(4, "", "setup fill 3 remainder next close unfilled");
    let after = play(&g, brink(4, 7, 5), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 3, 2, 0]));
    assert_eq!(after["pits"]["north"], json!([3, 2, 0, 0]));
    assert_eq!(after["stores"], json!({"south": 0, "north": 0}));
    assert_eq!(after["closed"]["south"], json!([false, false, false, true]));
    assert_eq!(after["closed"]["north"], json!([false, false, true, true]));
}

/// `setup fill 3 as many as the other close unfilled`: south holds 9 + 1 = 10 (3 whole pits), north 7
/// (2 whole pits), so each fills 2 pits: south keeps 4, north 1. Pits 3 and 4 are closed on both sides.
#[test]
fn fill_as_many_pits_as_the_other_can() {
    let g = round_game(4, "", "setup fill 3 as many as the other close unfilled");
    let after = play(&g, brink(4, 9, 7), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 3, 0, 0]));
    assert_eq!(after["pits"]["north"], json!([3, 3, 0, 0]));
    assert_eq!(after["stores"], json!({"south": 4, "north": 1}));
    assert_eq!(after["closed"]["south"], json!([false, false, true, true]));
    assert_eq!(after["closed"]["north"], json!([false, false, true, true]));
}

/// `setup fill 3 claim unfilled close unfilled`: south holds 14 + 1 = 15, fills its 4 pits (12) and
/// has 3 over; north's 5 fill its pit 1 and leave 2 in the store. South's 3 go on into north's first
/// empty pit, pit 2, which south now owns; north's pits 3 and 4 stay empty and are closed.
#[test]
fn fill_the_other_s_empty_pits_and_claim_them() {
    let g = round_game(4, "", "setup fill 3 claim unfilled close unfilled");
    let after = play(&g, brink(4, 14, 5), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 3, 3, 3]));
    assert_eq!(after["pits"]["north"], json!([3, 3, 0, 0]));
    assert_eq!(after["stores"], json!({"south": 0, "north": 2}));
    assert_eq!(after["claimed"]["north"], json!([null, "south", null, null]));
    assert_eq!(after["claimed"]["south"], json!([null, null, null, null]));
    assert_eq!(after["closed"]["north"], json!([false, false, true, true]));
}

/// With `remainder next` too: south holds 15 + 1 = 16, 4 over its own 12; north's 5 give 3 and the
/// remainder 2 in its pit 2. South's 4 go into north's empty pits 3 (3 seeds) and 4 (the remainder,
/// 1), both claimed for south. Nothing is left in either store and no pit is empty.
#[test]
fn claimed_pits_take_a_remainder_too() {
    let g = round_game(4, "", "setup fill 3 remainder next claim unfilled close unfilled");
    let after = play(&g, brink(4, 15, 5), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 3, 3, 3]));
    assert_eq!(after["pits"]["north"], json!([3, 2, 3, 1]));
    assert_eq!(after["stores"], json!({"south": 0, "north": 0}));
    assert_eq!(after["claimed"]["north"], json!([null, null, "south", "south"]));
    assert_eq!(after["closed"]["north"], json!([false, false, false, false]));
}

/// `setup store 2`: each player first keeps 2 seeds in the store. South 9 + 1 = 10 fills 2 pits with
/// 6 of the other 8 (3 whole pits' worth would need 9); north 6 fills 1 pit with 3 of the other 4.
/// South's store holds its 2 and the 2 it could not use, north's its 2 and 1.
#[test]
fn the_store_keeps_its_own_count_first() {
    let g = round_game(4, "", "setup store 2  setup fill 3 close unfilled");
    let after = play(&g, brink(4, 9, 6), &[1]);
    assert_eq!(after["pits"]["south"], json!([3, 3, 0, 0]));
    assert_eq!(after["pits"]["north"], json!([3, 0, 0, 0]));
    assert_eq!(after["stores"], json!({"south": 4, "north": 3}));
    assert_eq!(after["closed"]["north"], json!([false, true, true, true]));
}

/// `setup mirror` with `setup fill 3 remainder next`: north holds fewer seeds (4 to south's 7 + 1 =
/// 8), so north sets up: [3, 1, 0, 0]. South copies it mirrored, each pit as the pit facing it
/// (south's pit k faces north's pit 5 - k): [0, 0, 1, 3], and keeps 8 - 4 = 4.
#[test]
fn the_player_with_more_seeds_mirrors_the_other() {
    let g = round_game(4, "", "setup fill 3 remainder next  setup mirror");
    let after = play(&g, brink(4, 7, 4), &[1]);
    assert_eq!(after["pits"]["north"], json!([3, 1, 0, 0]));
    assert_eq!(after["pits"]["south"], json!([0, 0, 1, 3]));
    assert_eq!(after["stores"], json!({"south": 4, "north": 0}));
}

/// `setup mirror` with `setup deal fewest`: north (5 seeds, south 6) deals all of them round its
/// row: [2, 1, 1, 1]; south mirrors it, [1, 1, 1, 2] (a plain deal would give [2, 1, 1, 1]), and
/// keeps 1.
#[test]
fn a_dealt_arrangement_is_mirrored_too() {
    let g = round_game(4, "", "setup deal fewest  setup mirror");
    let after = play(&g, brink(4, 5, 5), &[1]);
    assert_eq!(after["pits"]["north"], json!([2, 1, 1, 1]));
    assert_eq!(after["pits"]["south"], json!([1, 1, 1, 2]));
    assert_eq!(after["stores"], json!({"south": 1, "north": 0}));
}

/// On a board of two rows a player, the mirror keeps each row and reverses the numbers: north's a1 3,
/// a2 1 give south's a2 3, a1 1. South's own track keeps its seed on its side, so the round ends as
/// on the one-row boards (south 7 + 1 = 8, north 4, 4 pits a player).
#[test]
fn the_mirror_keeps_the_rows_on_a_four_row_board() {
    let g = game(
        "game \"Rounds\"\nboard { rows 2 pits 2 seeds 2 }\nsow { direction ccw }\n\
         end \"stuck\" when seeds(to_move) == 0 remaining owner\n\
         rounds { setup fill 3 remainder next  setup mirror  match ends when round > 50 }\n",
    );
    let from =
        json!({"pits": {"south": [[1, 0], [0, 0]], "north": [[0, 0], [0, 0]]}, "stores": {"south": 7, "north": 4}, "to_move": "south"});
    let after = play(&g, from, &[1]);
    assert_eq!(after["round"], 2);
    assert_eq!(after["pits"]["north"], json!([[3, 1], [0, 0]]));
    assert_eq!(after["pits"]["south"], json!([[1, 3], [0, 0]]));
    assert_eq!(after["stores"], json!({"south": 4, "north": 0}));
}

/// `remaining owner from board where pit.row == front`: only the front rows' seeds go to a store; the
/// back rows' stay, counted for nobody. North (to move) has no seed, so the game is over at once:
/// south's a1 (2) goes to south, south's b2 (5) does not count: 2 to north's 3, north wins. Without
/// `from`, south would have 7 and win.
#[test]
fn only_the_stated_pits_count() {
    let rules = |from: &str| {
        game(&format!(
            "game \"Front rows count\"\nboard {{ rows 2 pits 2 seeds 2 }}\nsow {{ direction ccw }}\n\
             end \"stuck\" when seeds(to_move) == 0 remaining owner {from}\n"
        ))
    };
    let from =
        json!({"pits": {"south": [[2, 0], [0, 5]], "north": [[0, 0], [0, 0]]}, "stores": {"south": 0, "north": 3}, "to_move": "north"});
    let front = play(&rules("from board where pit.row == front"), from.clone(), &[]);
    assert_eq!(front["over"], true);
    assert_eq!(front["pits"]["south"], json!([[0, 0], [0, 5]]));
    assert_eq!(front["stores"], json!({"south": 2, "north": 3}));
    assert_eq!(front["winner"], "north");
    let all = play(&rules(""), from, &[]);
    assert_eq!(all["stores"], json!({"south": 7, "north": 3}));
    assert_eq!(all["winner"], "south");
}

/// `remaining to south from row(north) where pit.number == 1`: only north's pit 1 (3 seeds) goes, to
/// south; north's pit 2 (1) stays uncounted. South (to move) has no seed, so the game is over at
/// once: 3 to 3, a draw. Without `from`, all 4 would go to south, who would win 4 to 3.
#[test]
fn remaining_to_a_player_from_stated_pits() {
    let rules = |from: &str| {
        game(&format!(
            "game \"To south\"\nboard {{ pits 2 seeds 2 }}\nsow {{ direction ccw }}\n\
             end \"stuck\" when seeds(to_move) == 0 remaining to south {from}\n"
        ))
    };
    let from = json!({"pits": {"south": [0, 0], "north": [3, 1]}, "stores": {"south": 0, "north": 3}, "to_move": "south"});
    let one = play(&rules("from row(north) where pit.number == 1"), from.clone(), &[]);
    assert_eq!(one["pits"]["north"], json!([0, 1]));
    assert_eq!(one["stores"], json!({"south": 3, "north": 3}));
    assert_eq!(one["winner"], "draw");
    let all = play(&rules(""), from, &[]);
    assert_eq!(all["stores"], json!({"south": 4, "north": 3}));
    assert_eq!(all["winner"], "south");
}

/// The narration of an end rule limited by `from` tells the seeds it deals with from those it leaves.
/// South [1, 2, 0, 4], north empty, stores 0 and 0: south plays 1, its seed falls in pit 2 ([0, 3, 0,
/// 4]); north, to move, has no seed. `remaining split from row(south) where pit.number <= 3`: the 3
/// seeds of pits 1-3 are split, 1 each and the odd one to south (more of them in its row), so 2 to 1;
/// pit 4's 4 seeds stay and count for nobody.
#[test]
fn the_end_of_a_game_tells_the_seeds_split_from_those_left_out() {
    let g = game(
        "game \"Split some\"\nboard { pits 4 seeds 2 }\nsow { direction ccw }\n\
         end \"stuck\" when seeds(to_move) == 0 remaining split from row(south) where pit.number <= 3\n",
    );
    let from = json!({"pits": {"south": [1, 2, 0, 4], "north": [0, 0, 0, 0]}, "stores": {"south": 0, "north": 0}, "to_move": "south"});
    let mut pos = g.position_from_json(&from.to_string()).expect("a valid position");
    let events = g.apply_traced(&mut pos, 1).expect("legal");
    assert_eq!(
        g.narrate(&events).last().expect("a line"),
        "the game ends by \"stuck\"; of the 7 seeds left, 3 are split evenly and 4 stay in the pits the rule leaves \
         out, and count for nobody: south 2, north 1: south wins"
    );
}

/// A placement opening: each player holds 2 seeds in hand (`reserve 2`) and, for the first 4 moves,
/// places one of them in any pit of their row, empty or not (`from store 1`), with no capture and no
/// relay. South places in pit 1, north in its pit 3, south in pit 1 again (now 2: the usual `relay
/// when last.before > 0` would pick them up and sow on, `relay never` stops it), north in its pit 3.
#[test]
fn players_place_their_seeds_one_at_a_time() {
    let rules = |relay: &str| {
        game(&format!(
            "game \"Placing\"\nparam hand = 2 in 1..10\nboard {{ pits 3 seeds 0 reserve hand }}\n\
             sow {{ direction ccw  relay when last.before > 0 }}\n\
             phase \"placing\" when ply < 2 * hand {{ sow {{ from store 1 {relay} }} no captures }}\n\
             capture \"pairs\" {{ when last.side == opponent and last.count == 2 take last }}\n\
             end \"no move\" when no_moves remaining owner\n"
        ))
    };
    let g = rules("relay never");
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert_eq!(g.legal_moves(&pos), vec![1, 2, 3], "every pit of the row, empty ones too");
    for k in [1, 3, 1, 3] {
        g.apply(&mut pos, k).expect("a legal placement");
    }
    let placed = g.position_to_json(&pos);
    assert_eq!(placed["pits"]["south"], json!([2, 0, 0]));
    assert_eq!(placed["pits"]["north"], json!([0, 0, 2]));
    assert_eq!(placed["stores"], json!({"south": 0, "north": 0}));
    // The phase is over: south's pit 1 is sown as usual, into south 2 and 3.
    g.apply(&mut pos, 1).expect("an ordinary move");
    let sown = g.position_to_json(&pos);
    assert_eq!(sown["pits"]["south"], json!([0, 1, 1]));
    // Without `relay never`, south's second placement relays: pit 1 (2 seeds) is sown into pits 2
    // and 3.
    let relaying = rules("");
    let mut pos = relaying.initial(None);
    for k in [1, 3, 1] {
        relaying.apply(&mut pos, k).expect("a legal placement");
    }
    let after = relaying.position_to_json(&pos);
    assert_eq!(after["pits"]["south"], json!([0, 1, 1]));
}

/// Every set-up keeps every seed, round after round: random games of several rounds for each way of
/// setting up, the seed total checked after every move (`play` checks it too).
#[test]
fn every_set_up_keeps_every_seed() {
    let setups = [
        "setup fill 2 close unfilled",
        "setup fill 2 remainder next",
        "setup fill 3 remainder next claim unfilled close unfilled",
        "setup fill 2 as many as the other close unfilled",
        "setup store 3  setup fill 2 claim unfilled",
        "setup fill 3 remainder next  setup mirror",
        "setup deal fewest  setup mirror  next round first fewer seeds",
        "setup store 1  setup deal fewest  next round first other than ender",
    ];
    for setup in setups {
        let opener = if setup.contains("next round") {
            ""
        } else {
            "next round first alternate"
        };
        let g = game(&format!(
            "game \"Random\"\nboard {{ pits 4 seeds 3 }}\nsow {{ direction ccw }}\n\
             capture \"pairs\" {{ when last.side == opponent and last.count in 2..3 take last }}\n\
             end \"stuck\" when no_moves remaining owner\nend \"round\" when repeated remaining owner\n\
             rounds {{ {setup}  {opener}  match ends when round >= 6 }}\n"
        ));
        let mut seed = 0x2545_F491_u64;
        for _ in 0..40 {
            let mut pos = g.initial(None);
            g.settle_start(&mut pos);
            let total = g.seed_total(&pos);
            let mut rounds_seen = 1;
            for _ in 0..2000 {
                let moves = g.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                seed ^= seed << 13;
                seed ^= seed >> 7;
                seed ^= seed << 17;
                g.apply(&mut pos, moves[(seed % moves.len() as u64) as usize])
                    .expect("a legal move");
                assert_eq!(g.seed_total(&pos), total, "{setup}: a seed was created or lost");
                rounds_seen = rounds_seen.max(pos.round());
            }
            assert!(pos.is_over() || rounds_seen > 1, "{setup}: the game went nowhere");
        }
    }
}

/// The docs' "Rounds round a shared ring" (docs/language.md, `rounds`).
const SHARED_RING_ROUNDS: &str = r#"
game "Rounds round a shared ring"
board { ring 5 owned by nobody  seeds 2 }
capture "a pair" { when last.count == 2  take last to mover }
end "no move" when no_moves
rounds {
  setup fill 2 remainder next
  match ends when round == 3
}
"#;

/// A ring of five owned by nobody: s4 and s5 hold one seed each, south 3 in store, north 5. South's s4
/// sows s5 (2): a pair, taken (south 5). No seed is left: north cannot move, the round ends, drawn at
/// 5 each. South (the file's first) opens the next round and fills the empty ring from s1: s1 and s2
/// with 2 each, the last seed into s3; north goes on with s4 and s5 and keeps 1 in store.
#[test]
fn rounds_on_a_ring_owned_by_nobody_fill_its_empty_pits_in_turn() {
    let g = game(SHARED_RING_ROUNDS);
    let json_in = json!({"pits": {"south": [], "north": [], "shared": [0, 0, 0, 1, 1]},
                         "stores": {"south": 3, "north": 5}, "to_move": "south"});
    let mut pos = g.position_from_json(&json_in.to_string()).expect("a position of this board");
    g.settle_start(&mut pos);
    let events = g.apply_traced(&mut pos, g.parse_move("s4").expect("a pit")).expect("a legal move");
    let told = g.narrate(&events).join("\n");
    assert!(
        told.contains("round 2 is set up: the ring [2 2 1 2 2]; stores south 0, north 1"),
        "{told}"
    );
    let v = super::support::json_of(&g, &pos);
    assert_eq!(v["round"], json!(2));
    assert_eq!(v["rounds_won"], json!({"south": 0, "north": 0}));
    assert_eq!(v["pits"]["shared"], json!([2, 2, 1, 2, 2]));
    assert_eq!(v["stores"], json!({"south": 0, "north": 1}));
    assert_eq!(v["to_move"], json!("south"));
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    assert!(
        docs.contains(SHARED_RING_ROUNDS.trim()),
        "docs/language.md no longer shows the example"
    );
}
