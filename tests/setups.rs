//! Set-ups, boards and parameters on tiny invented games, each start worked out by hand: parameters
//! limited to a set or to one parity, starting seeds that vary by pit (`seeds EXPR` reading `pit`,
//! several `seeds N where COND` lines), and `drop board KEY` in a child file.

use std::path::Path;

use super::support::{invented as game, json_of, scratch};
use serde_json::{Value, json};
use sowlang::check::Override;

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
