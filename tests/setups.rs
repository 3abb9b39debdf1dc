//! Set-ups, boards and parameters on tiny invented games, each start worked out by hand: parameters
//! limited to a set or to one parity, starting seeds that vary by pit (`seeds EXPR` reading `pit`,
//! several `seeds N where COND` lines), and `drop board KEY` in a child file.

use std::path::Path;

use super::support::{invented as game, json_of, scratch};
use serde_json::{Value, json};
use sowlang::Override;

/// The pits of the start position, south's and north's, as the position JSON shows them.
fn start(game: &sowlang::Game) -> Value {
    let pos = game.initial(None);
    json_of(game, &pos)["pits"].clone()
}

/// The messages of the diagnostics of `text` with `--set name=value`, or an empty list when it loads.
fn refusals(text: &str, sets: &[(&str, i64)]) -> Vec<String> {
    let overrides: Vec<Override> = sets
        .iter()
        .map(|(name, value)| Override {
            name: name.to_string(),
            value: *value,
        })
        .collect();
    match sowlang::load_text(Path::new("invented.sow"), text, &overrides) {
        Ok(_) => Vec::new(),
        Err(f) => f.diagnostics.iter().map(|d| d.message.clone()).collect(),
    }
}

const LIMITED: &str = "game \"Limited\"\nparam pits = 6 in 2..12 even\nparam seeds = 4 in {3, 4, 6}\n\
                       board { pits pits  seeds seeds }\nsow { direction ccw }\nend \"no move\" when no_moves remaining owner\n";

#[test]
fn a_parameter_takes_only_the_values_stated() {
    assert!(refusals(LIMITED, &[("pits", 8), ("seeds", 6)]).is_empty());
    assert!(refusals(LIMITED, &[("pits", 2), ("seeds", 3)]).is_empty());
    assert_eq!(
        refusals(LIMITED, &[("pits", 7)]),
        ["`pits=7` is not allowed: `pits` must be an even number from 2 to 12"]
    );
    assert_eq!(
        refusals(LIMITED, &[("pits", 14)]),
        ["`pits=14` is not allowed: `pits` must be an even number from 2 to 12"]
    );
    assert_eq!(
        refusals(LIMITED, &[("seeds", 5)]),
        ["`seeds=5` is not allowed: `seeds` must be one of 3, 4, 6"]
    );
    // The value taken is the one given: 8 pits of 6 seeds a row.
    let loaded = sowlang::load_text(
        Path::new("invented.sow"),
        LIMITED,
        &[
            Override {
                name: "pits".into(),
                value: 8,
            },
            Override {
                name: "seeds".into(),
                value: 6,
            },
        ],
    )
    .expect("loads");
    assert_eq!(start(&loaded.game)["south"], json!([6, 6, 6, 6, 6, 6, 6, 6]));
}

#[test]
fn a_default_outside_the_values_stated_is_refused() {
    let odd = LIMITED.replace("pits = 6 in 2..12 even", "pits = 7 in 2..12 even");
    assert_eq!(refusals(&odd, &[]), ["the default 7 is not an even number from 2 to 12"]);
    let odd_range = LIMITED.replace("pits = 6 in 2..12 even", "pits = 7 in 3..13 odd");
    assert!(refusals(&odd_range, &[]).is_empty());
    let unset = LIMITED.replace("seeds = 4 in {3, 4, 6}", "seeds = 5 in {3, 4, 6}");
    assert_eq!(refusals(&unset, &[]), ["the default 5 is not one of 3, 4, 6"]);
    let none = LIMITED.replace("pits = 6 in 2..12 even", "pits = 5 in 5..5 even");
    assert_eq!(refusals(&none, &[]), ["`5..5` holds no even number"]);
}

#[test]
fn seeds_chosen_by_the_pit() {
    // Pit 1 of each row empty, the others 4.
    let g = game(
        "game \"By pit\"\nparam pits = 4 in 2..8\nboard { pits pits  seeds if pit.number == 1 then 0 else 4 }\n\
         sow { direction ccw }\nend \"no move\" when no_moves remaining owner\n",
    );
    assert_eq!(start(&g), json!({"south": [0, 4, 4, 4], "north": [0, 4, 4, 4]}));
    // Nested choices: pit 1 gets 1, pit 2 gets 2, the rest 3; north's side as south's.
    let g = game(
        "game \"By pit\"\nboard { pits 4  seeds if pit.number == 1 then 1 else if pit.number == 2 then 2 else 3 }\n\
         sow { direction ccw }\nend \"no move\" when no_moves remaining owner\n",
    );
    assert_eq!(start(&g), json!({"south": [1, 2, 3, 3], "north": [1, 2, 3, 3]}));
}

#[test]
fn several_seeds_lines_the_first_that_holds_wins() {
    // South's pit 1: the first line (5). Pits 2 and 3: the first line fails, the second holds: 1.
    // Pit 4: no line holds: empty. North's pits: only the third line can hold, on pits 2 and 4: 7.
    let g = game(
        "game \"Lines\"\nboard {\n  pits 4\n  seeds 5 where pit.number == 1 and pit.side == south\n  seeds 1 where pit.number <= 3 and pit.side == south\n  seeds 7 where pit.side == north and pit.number is even\n}\n\
         sow { direction ccw }\nend \"no move\" when no_moves remaining owner\n",
    );
    assert_eq!(start(&g), json!({"south": [5, 1, 1, 0], "north": [0, 7, 0, 7]}));
    // A line with no condition fills every pit left: the last line, as an "else".
    let g = game(
        "game \"Lines\"\nboard { pits 3  seeds 0 where pit.number == 2  seeds 2 }\n\
         sow { direction ccw }\nend \"no move\" when no_moves remaining owner\n",
    );
    assert_eq!(start(&g), json!({"south": [2, 0, 2], "north": [2, 0, 2]}));
}

#[test]
fn a_seeds_line_after_one_for_every_pit_is_never_used() {
    let text = "game \"Lines\"\nboard { pits 3  seeds 2  seeds 0 where pit.number == 2 }\n\
                sow { direction ccw }\nend \"no move\" when no_moves remaining owner\n";
    let loaded = sowlang::load_text(Path::new("invented.sow"), text, &[]).expect("a warning only");
    let codes: Vec<&str> = loaded.warnings.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["sow::check::shadowed"]);
    assert_eq!(start(&loaded.game), json!({"south": [2, 2, 2], "north": [2, 2, 2]}));
}

#[test]
fn a_count_that_reads_the_pit_is_refused() {
    let text = "game \"Lines\"\nboard { pits 3  seeds pit.number }\nsow { direction ccw }\nend \"no move\" when no_moves remaining owner\n";
    assert_eq!(
        refusals(text, &[]),
        ["a pit's starting seeds must be a number known before the game"]
    );
    let text = text.replace("seeds pit.number", "seeds if pit.number == 1 then 2000 else 1");
    assert_eq!(refusals(&text, &[]), ["2000 seeds in a pit is not possible"]);
}

#[test]
fn a_child_drops_its_parents_seeds_for_a_layout() {
    let dir = scratch("setups", "drop_board");
    std::fs::write(
        dir.join("parent.sow"),
        "game \"Parent\"\nboard { pits 3  seeds 2 }\nsow { direction ccw }\nend \"no move\" when no_moves remaining owner\n",
    )
    .expect("write");
    let child = "extends \"parent.sow\"\ngame \"Child\"\ndrop board seeds\nboard { layout south [1, 2, 3] north [3, 2, 1] }\n";
    std::fs::write(dir.join("child.sow"), child).expect("write");
    let loaded = sowlang::load_game(&dir.join("child.sow"), &[]).unwrap_or_else(|f| panic!("{:?}", f.diagnostics));
    assert_eq!(start(&loaded.game), json!({"south": [1, 2, 3], "north": [3, 2, 1]}));
    // Without the `drop`, the child states both `seeds` and `layout`.
    std::fs::write(dir.join("child.sow"), child.replace("drop board seeds\n", "")).expect("write");
    let refused = sowlang::load_game(&dir.join("child.sow"), &[]).expect_err("seeds and layout");
    assert_eq!(refused.diagnostics[0].message, "the board sets both `seeds` and `layout`");
    // A key the parent's board does not state.
    std::fs::write(dir.join("child.sow"), child.replace("drop board seeds", "drop board reserve")).expect("write");
    let refused = sowlang::load_game(&dir.join("child.sow"), &[]).expect_err("no reserve");
    assert_eq!(refused.diagnostics[0].message, "the inherited board has no `reserve` to drop");
}

/// The docs' "Three rows of my own" (docs/language.md, "Named tracks"): each player's track runs
/// through their own three rows, the middle one named `middle`.
const OWN_THREE_ROWS: &str = "game \"Three rows of my own\"\nparam pits = 4 in 3..10\nboard { rows 3  pits pits  seeds 2 }\n\
                              sow { track mover back 1..pits, mover middle pits..1, mover front 1..pits }\n\
                              capture \"across\" { when last.row == front and last.before > 0  take opposite(last) }\n\
                              end \"cannot move\" when no_moves loser to_move\n";

#[test]
fn a_sides_own_middle_row_is_named_in_a_track() {
    // South's b1 (2 seeds) follows the track b1 -> a1 -> a2: the last seed makes a2 3, in the front
    // row, so north's front pit across (a3, facing south's a2 on rows of 4) is taken: 2 seeds.
    let g = game(OWN_THREE_ROWS);
    let after = json_of(&g, &super::support::play_named(&g, &["b1"]));
    assert_eq!(
        after["pits"],
        json!({"south": [[3, 3, 2, 2], [0, 2, 2, 2], [2, 2, 2, 2]], "north": [[2, 2, 0, 2], [2, 2, 2, 2], [2, 2, 2, 2]]})
    );
    assert_eq!(after["stores"], json!({"south": 2, "north": 0}));
    // South's a4 goes on to the back row's c1 and c2 (the track leads back to its start).
    let after = json_of(&g, &super::support::play_named(&g, &["a4"]));
    assert_eq!(after["pits"]["south"], json!([[2, 2, 2, 0], [2, 2, 2, 2], [3, 3, 2, 2]]));
    // On rows of 6 the same words name the longer rows: c6 goes on into the middle row at b6, b5.
    let g6 = game(&OWN_THREE_ROWS.replace("pits = 4", "pits = 6"));
    let after = json_of(&g6, &super::support::play_named(&g6, &["c6"]));
    assert_eq!(
        after["pits"]["south"],
        json!([[2, 2, 2, 2, 2, 2], [2, 2, 2, 2, 3, 3], [2, 2, 2, 2, 2, 0]])
    );
}

#[test]
fn middle_names_no_row_on_a_side_of_two() {
    let text = OWN_THREE_ROWS.replace("rows 3", "rows 2");
    assert_eq!(refusals(&text, &[]), ["a side of 2 rows has no middle row of its own"]);
}

/// The position after `moves` from the position JSON `from`, every seed kept.
fn play_from(game: &sowlang::Game, from: Value, moves: &[usize]) -> Value {
    let mut pos = game.position_from_json(&from.to_string()).expect("a valid position");
    let total = game.seed_total(&pos);
    game.settle_start(&mut pos);
    for &k in moves {
        game.apply(&mut pos, k).expect("a legal move");
        assert_eq!(game.seed_total(&pos), total, "a seed was created or lost");
    }
    json_of(game, &pos)
}

/// The docs' "Rounds round a middle row" (docs/language.md, "rounds").
const MIDDLE_ROUNDS: &str = "game \"Rounds round a middle row\"\nboard { pits 3  middle row  seeds 2 }\n\
                             sow { track mover 1..3, shared 3..1, opponent 3..1 }\n\
                             end \"no move\" when no_moves remaining owner\n\
                             rounds {\n  setup fill 2 close unfilled\n  match ends when round == 3\n}\n";

#[test]
fn rounds_on_a_board_with_a_middle_row() {
    // South's last seed, from pit 3, falls into the middle row's s3 (the track's next pit); north
    // has no seed in its own row and cannot move: the round ends, north's 8 in store to south's 4
    // win it. The middle row keeps [0, 5, 1]; south's 4 fill pits 1 and 2 (pit 3 closed), north's 8
    // fill its three pits and 2 stay in its store; south opens (the file's `first`).
    let g = game(MIDDLE_ROUNDS);
    let from = json!({"pits": {"south": [0, 0, 1], "north": [0, 0, 0], "shared": [0, 5, 0]},
                      "stores": {"south": 4, "north": 8}, "to_move": "south"});
    let after = play_from(&g, from, &[3]);
    assert_eq!(after["pits"], json!({"south": [2, 2, 0], "north": [2, 2, 2], "shared": [0, 5, 1]}));
    assert_eq!(after["stores"], json!({"south": 0, "north": 2}));
    assert_eq!(after["closed"]["south"], json!([false, false, true]));
    assert_eq!(after["round"], json!(2));
    assert_eq!(after["rounds_won"], json!({"south": 0, "north": 1}));
    assert_eq!(after["to_move"], json!("south"));
}

/// A game of 4 pits a row whose round ends when the player to move has no seed (the seeds left go
/// to their owners, the player who cannot move loses it), with `rounds` inside its `rounds { }`.
fn stuck_rounds(rounds: &str) -> sowlang::Game {
    game(&format!(
        "game \"Rounds\"\nboard {{ pits 4  seeds 2 }}\nsow {{ direction ccw }}\n\
         end \"stuck\" when seeds(to_move) == 0 remaining owner loser to_move\n\
         rounds {{ {rounds}  match ends when round > 50 }}\n"
    ))
}

/// South [1, 0, 0, 0] and the stores given, north empty, south to move: south's pit 1 sows into its
/// pit 2, north cannot move and loses the round, south's seed goes to south's store.
fn brink(south_store: u32, north_store: u32) -> Value {
    json!({"pits": {"south": [1, 0, 0, 0], "north": [0, 0, 0, 0]},
           "stores": {"south": south_store, "north": north_store}, "to_move": "south"})
}

#[test]
fn a_fill_from_the_right_end() {
    // South's 7 seeds: 3 in pit 4, 3 in pit 3, the remainder 1 in pit 2, pit 1 closed; north's 9:
    // 3 each in pits 4, 3 and 2, pit 1 closed.
    let g = stuck_rounds("setup fill 3 from right remainder next close unfilled");
    let after = play_from(&g, brink(6, 9), &[1]);
    assert_eq!(after["pits"], json!({"south": [0, 1, 3, 3], "north": [0, 3, 3, 3]}));
    assert_eq!(
        after["closed"],
        json!({"south": [true, false, false, false], "north": [true, false, false, false]})
    );
    // From the left, as before: pit 1 first.
    let g = stuck_rounds("setup fill 3 remainder next close unfilled");
    let after = play_from(&g, brink(6, 9), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 3, 1, 0], "north": [3, 3, 3, 0]}));
}

#[test]
fn a_claiming_fill_from_the_right_goes_on_from_the_others_right() {
    // North's 3 seeds fill its pit 4; south's 14 fill its four pits (12), and the last 2, a
    // remainder, go into north's first empty pit from north's right, pit 3, claimed by south.
    let g = stuck_rounds("setup fill 3 from right claim unfilled remainder next");
    let after = play_from(&g, brink(13, 3), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 3, 3, 3], "north": [0, 0, 2, 3]}));
    assert_eq!(after["claimed"]["north"], json!([null, null, "south", null]));
}

#[test]
fn a_tie_break_names_who_opens_after_equal_seeds() {
    // Both stores hold 7 after the round: `fewer seeds` ties. North lost the round (it could not
    // move); south won it. Round 1 was opened by south.
    let opener =
        |rule: &str| play_from(&stuck_rounds(&format!("setup fill 2  next round first {rule}")), brink(6, 7), &[1])["to_move"].clone();
    assert_eq!(opener("fewer seeds else winner"), json!("south"));
    assert_eq!(opener("fewer seeds else loser"), json!("north"));
    // Without one, as `alternate`: north.
    assert_eq!(opener("fewer seeds"), json!("north"));
    assert_eq!(opener("fewer seeds else same"), json!("south"));
    // Unequal seeds: the tie-break is not read (south holds fewer, 7 to 8).
    let g = stuck_rounds("setup fill 2  next round first fewer seeds else loser");
    assert_eq!(play_from(&g, brink(6, 8), &[1])["to_move"], json!("south"));
}

#[test]
fn a_tie_break_after_a_rule_that_cannot_tie_is_refused() {
    let text = "game \"Rounds\"\nboard { pits 4  seeds 2 }\nsow { direction ccw }\nend \"stuck\" when seeds(to_move) == 0 remaining owner\n\
                rounds { setup fill 2  next round first alternate else loser  match ends when round > 2 }\n";
    assert_eq!(
        refusals(text, &[]),
        ["`alternate` always names a player, so its `else` is never used"]
    );
    let text = text.replace("alternate else loser", "loser else loser");
    assert_eq!(refusals(&text, &[]), ["`loser` cannot break its own tie"]);
}

#[test]
fn the_other_fills_as_many_pits_as_the_first_used() {
    // South's 4 seeds fill pit 1 with 3 and pit 2 with the remainder 1: two pits used. North's 11
    // fill as many, two pits of 3; its other 5 stay in its store.
    let g = stuck_rounds("setup fill 3 remainder next as many as the other used");
    let after = play_from(&g, brink(3, 11), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 1, 0, 0], "north": [3, 3, 0, 0]}));
    assert_eq!(after["stores"], json!({"south": 0, "north": 5}));
    // North holding fewer (2 to south's 11) fills first: one pit, the remainder 2; south one pit.
    let after = play_from(&g, brink(10, 2), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 0, 0, 0], "north": [2, 0, 0, 0]}));
    assert_eq!(after["stores"], json!({"south": 8, "north": 0}));
    // Without it, each fills what it can: north's 11 make [3, 3, 3, 2].
    let g = stuck_rounds("setup fill 3 remainder next");
    let after = play_from(&g, brink(3, 11), &[1]);
    assert_eq!(after["pits"]["north"], json!([3, 3, 3, 2]));
}

/// The docs' "Fill the pits you choose" (docs/language.md, "Set-ups the players choose").
const CHOSEN: &str = "game \"Fill the pits you choose\"\nboard { pits 3  seeds 0  reserve 8 }\nsow { direction ccw }\n\
                      phase \"filling\" when round_ply < 4 {\n  no sowing\n  after move \"four seeds from the store\" {\n    when origin.count == 0\n    move 4 from store(mover) to origin\n  }\n}\n\
                      capture \"two or three\" { when last.side == opponent and last.count in 2..3  take last }\n\
                      end \"no move\" when no_moves remaining owner\n\
                      rounds {\n  setup by moves\n  match ends when round == 3\n}\n";

#[test]
fn the_players_choose_the_pits_they_fill() {
    let g = game(CHOSEN);
    let pos = super::support::played(&g, &[]);
    assert_eq!(super::support::move_names(&g, &pos), ["1", "2", "3"]);
    // South fills pit 1 from its store (8 -> 4); north then chooses among its own empty pits.
    let pos = super::support::played(&g, &[1]);
    assert_eq!(json_of(&g, &pos)["pits"], json!({"south": [4, 0, 0], "north": [0, 0, 0]}));
    assert_eq!(json_of(&g, &pos)["stores"], json!({"south": 4, "north": 8}));
    // South's pit 1 is filled: naming it again would move nothing, so it is not a move.
    let pos = super::support::played(&g, &[1, 3]);
    assert_eq!(super::support::move_names(&g, &pos), ["2", "3"]);
    let pos = super::support::played(&g, &[1, 3, 2, 1]);
    let shown = json_of(&g, &pos);
    assert_eq!(shown["pits"], json!({"south": [4, 4, 0], "north": [4, 0, 4]}));
    assert_eq!(shown["stores"], json!({"south": 0, "north": 0}));
    // The usual moves now: south's 2 sows into its pit 3 and north's 1, 2, 3 (north [5, 1, 5]).
    let pos = super::support::played(&g, &[1, 3, 2, 1, 2]);
    assert_eq!(json_of(&g, &pos)["pits"], json!({"south": [4, 0, 1], "north": [5, 1, 5]}));
}

#[test]
fn a_round_set_up_by_moves_leaves_the_seeds_in_the_stores() {
    // South's 2 puts its last seed into its pit 3; north has no seed and cannot move: the round
    // ends, south's seed goes to its store (4 + 1). The next round's board is left empty, the seeds
    // in the stores, and its first moves fill again.
    let g = game(CHOSEN);
    let from = json!({"pits": {"south": [0, 1, 0], "north": [0, 0, 0]}, "stores": {"south": 4, "north": 11},
                      "to_move": "south", "ply": 9, "round_ply": 9});
    let after = play_from(&g, from.clone(), &[2]);
    assert_eq!(after["round"], json!(2));
    assert_eq!(after["pits"], json!({"south": [0, 0, 0], "north": [0, 0, 0]}));
    assert_eq!(after["stores"], json!({"south": 5, "north": 11}));
    let mut pos = g.position_from_json(&from.to_string()).expect("a valid position");
    g.settle_start(&mut pos);
    g.apply(&mut pos, 2).expect("legal");
    assert_eq!(super::support::move_names(&g, &pos), ["1", "2", "3"]);
}

/// A traditional game played in rounds, written from its rules as tests/games/NAME.sow.
fn traditional(name: &str) -> sowlang::Game {
    let path = super::support::root().join("tests/games").join(format!("{name}.sow"));
    sowlang::load_game(&path, &[])
        .unwrap_or_else(|f| panic!("{name}: {:?}", f.diagnostics))
        .game
}

#[test]
fn pallanguzhi_goes_on_from_the_next_pit_and_takes_after_an_empty_one() {
    // South's pit 1 (6 seeds) reaches its pit 7 (7 seeds); the next pit, north's 1, holds 6: they
    // are sown on from north's 2 to north's 7 (7 seeds). The pit after it, south's 1, is empty (it
    // was played), so the seeds of the pit after that, south's 2 (7), are taken, and the turn ends.
    let g = traditional("pallanguzhi");
    let shown = json_of(&g, &super::support::played(&g, &[1]));
    assert_eq!(
        shown["pits"],
        json!({"south": [0, 0, 7, 7, 7, 7, 7], "north": [0, 7, 7, 7, 7, 7, 7]})
    );
    assert_eq!(shown["stores"], json!({"south": 7, "north": 0}));
    assert_eq!(shown["to_move"], json!("north"));
}

#[test]
fn congkak_sows_clockwise_into_its_own_store_and_plays_again() {
    // South's 7 (7 seeds) sows its pits 6 to 1 and its store: another move. South's 1 (8 seeds)
    // sows its store and north's 7 to 1; north's 1 held 7, so its 8 are sown on from south's 7:
    // south's 7 to 1 and the store again, another move.
    let g = traditional("congkak");
    let shown = json_of(&g, &super::support::played(&g, &[7]));
    assert_eq!(shown["pits"]["south"], json!([8, 8, 8, 8, 8, 8, 0]));
    assert_eq!(shown["to_move"], json!("south"));
    let shown = json_of(&g, &super::support::played(&g, &[7, 1]));
    assert_eq!(
        shown["pits"],
        json!({"south": [1, 9, 9, 9, 9, 9, 1], "north": [0, 8, 8, 8, 8, 8, 8]})
    );
    assert_eq!(shown["stores"], json!({"south": 3, "north": 0}));
    assert_eq!(shown["to_move"], json!("south"));
}

/// The docs' "Made up by the other" (docs/language.md, "rounds").
const MADE_UP: &str = "game \"Made up by the other\"\nboard { pits 4  seeds 3 }\nsow { direction ccw }\n\
                       capture \"two or three\" { when last.side == opponent and last.count in 2..3  take last }\n\
                       end \"no move\" when no_moves remaining owner\n\
                       rounds {\n  setup fill 3 remainder made up and claimed close unfilled\n  \
                       match ends when rounds_won(south) == 2 or rounds_won(north) == 2\n}\n";

#[test]
fn a_short_pit_is_made_up_by_the_other_player() {
    // South's pit 1 sows into its pit 2; north cannot move and the round ends: south 6 + 1 = 7 seeds,
    // north 17. South fills pits 1 and 2 with 3 and puts its last seed into pit 3; north fills its
    // four pits (12, 5 left), makes south's pit 3 up with 2 and claims it (3 left); south's pit 4 is
    // closed.
    let g = game(MADE_UP);
    let from = json!({"pits": {"south": [1, 0, 0, 0], "north": [0, 0, 0, 0]},
                      "stores": {"south": 6, "north": 17}, "to_move": "south"});
    let after = play_from(&g, from.clone(), &[1]);
    assert_eq!(after["round"], json!(2));
    assert_eq!(after["pits"], json!({"south": [3, 3, 3, 0], "north": [3, 3, 3, 3]}));
    assert_eq!(after["stores"], json!({"south": 0, "north": 3}));
    assert_eq!(after["claimed"]["south"], json!([null, null, "north", null]));
    assert_eq!(after["closed"]["south"], json!([false, false, false, true]));
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    assert!(docs.contains(MADE_UP.trim()), "docs/language.md no longer shows the example");
    // Without `and claimed` the pit stays south's; with too few left, north gives what it has: south's
    // 10 fill three pits and put 1 into pit 4, north's 13 fill its four pits and its last seed goes to
    // south's pit 4 (2 seeds, not whole).
    let g = stuck_rounds("setup fill 3 remainder made up");
    let after = play_from(&g, brink(6, 17), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 3, 1 + 2, 0], "north": [3, 3, 3, 3]}));
    assert_eq!(after.get("claimed"), None, "no pit is claimed: the position shows no claims");
    let after = play_from(&g, brink(9, 13), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 3, 3, 2], "north": [3, 3, 3, 3]}));
    assert_eq!(after["stores"], json!({"south": 0, "north": 0}));
    // With `as many as the other used` the pit made up counts as used: south's 4 fill pit 1 and put 1
    // into pit 2 (two pits used); north's 11 fill two pits (6, 5 left) and make south's pit 2 up with 2.
    let g = stuck_rounds("setup fill 3 remainder made up as many as the other used");
    let after = play_from(&g, brink(3, 11), &[1]);
    assert_eq!(after["pits"], json!({"south": [3, 3, 0, 0], "north": [3, 3, 0, 0]}));
    assert_eq!(after["stores"], json!({"south": 0, "north": 3}));
}
