//! Constructs of the language on tiny invented boards, each result worked out by hand: `if .. then ..
//! else ..` picks its branch per position, `let` names stand for their expressions, and `pass when
//! unable` hands the turn over.

use super::support::{after, invented as game};

/// Two pits a row, one seed each. South's pit 2 sows its seed into north 1 (1 -> 2): on the opponent's
/// side, so the `if` asks for 2 and the pit is taken. South's pit 1 sows into south 2 (1 -> 2): on the
/// mover's side, so the `if` asks for 99 and nothing is taken.
const CHOOSING: &str = r#"
game "Choosing"
board { pits 2 seeds 1 }
let wanted = if last.side == opponent then 2 else 99
sow { direction ccw }
capture "as wanted" { when last.count == wanted take last }
end "no move" when no_moves
"#;

#[test]
fn if_then_else_takes_the_branch_the_position_asks_for() {
    let g = game(CHOOSING);
    let taken = after(&g, &[2]);
    assert_eq!(taken["pits"]["south"], serde_json::json!([1, 0]));
    assert_eq!(taken["pits"]["north"], serde_json::json!([0, 1]));
    assert_eq!(taken["stores"]["south"], 2);
    let kept = after(&g, &[1]);
    assert_eq!(kept["pits"]["south"], serde_json::json!([0, 2]));
    assert_eq!(kept["stores"]["south"], 0);
}

/// The same rule written with `if` choosing a pit and a player: south's pit 2 into north 1 takes north 1
/// for south (the mover), as the `then` branches say.
#[test]
fn if_then_else_chooses_pits_and_players_too() {
    let g = game(
        r#"
game "Choosing pits"
board { pits 2 seeds 1 }
sow { direction ccw }
capture "as wanted" {
  when last.count == 2
  take (if last.side == opponent then last else opposite(last)) to (if last.side == opponent then mover else opponent)
}
end "no move" when no_moves
"#,
    );
    let taken = after(&g, &[2]);
    assert_eq!(taken["pits"]["north"], serde_json::json!([0, 1]));
    assert_eq!(taken["stores"]["south"], 2);
    // South's pit 1 into south 2 (2 seeds, own side): the `else` branches take the pit across, north 1
    // (1 seed), for the opponent.
    let other = after(&g, &[1]);
    assert_eq!(other["pits"]["south"], serde_json::json!([0, 2]));
    assert_eq!(other["pits"]["north"], serde_json::json!([0, 1]));
    assert_eq!(other["stores"]["north"], 1);
}

/// One seed, in south's pit 1, counter-clockwise. South plays it into south 2: north has no seed and no
/// move, south has one, so north passes and south moves again. Without `pass when unable` the "no move"
/// end rule would end the game there.
#[test]
fn a_player_who_cannot_move_passes() {
    let rules = |passing: &str| {
        format!(
            "game \"Passing\"\nboard {{ pits 2 layout south [1, 0] north [0, 0] }}\nsow {{ direction ccw }}\n{passing}\nend \"no move\" when no_moves\n"
        )
    };
    let g = game(&rules("pass when unable"));
    let passed = after(&g, &[1]);
    assert_eq!(passed["pits"]["south"], serde_json::json!([0, 1]));
    assert_eq!(passed["to_move"], "south");
    assert_eq!(passed["over"], false);
    // South's pit 2 sows into north 1: north can move now, and the turn goes to north as usual.
    let on = after(&g, &[1, 2]);
    assert_eq!(on["pits"]["north"], serde_json::json!([1, 0]));
    assert_eq!(on["to_move"], "north");
    let no_passing = game(&rules(""));
    assert_eq!(after(&no_passing, &[1])["over"], true);
}

/// `start in origin when origin.count > 1`: south's pit 1 holds 2 seeds, so the first falls back into it
/// and the second into south 2 (south [1, 2, 0]); south's pit 2 holds 1 seed, so it is sown on as usual,
/// into south 3 (south [2, 0, 1]).
#[test]
fn start_in_origin_drops_the_first_seed_back_when_the_rule_says() {
    let g = game(
        r#"
game "Back in"
board { pits 3 layout south [2, 1, 0] north [1, 1, 1] }
sow { direction ccw  start in origin when origin.count > 1 }
end "no move" when no_moves
"#,
    );
    assert_eq!(after(&g, &[1])["pits"]["south"], serde_json::json!([1, 2, 0]));
    assert_eq!(after(&g, &[2])["pits"]["south"], serde_json::json!([2, 0, 1]));
}

/// `relay from next(last)`: south's pit 1 sows its seed into south 2; the relay picks up south 3 (2
/// seeds), the pit after it, and sows them into north 1 and north 2; the pit after north 2, north 3, is
/// empty, so the move ends. South [0, 1, 0], north [1, 1, 0].
#[test]
fn relay_from_the_pit_after_the_last() {
    let g = game(
        r#"
game "Next along"
board { pits 3 layout south [1, 0, 2] north [0, 0, 0] }
sow { direction ccw  relay when last.count > 0  relay from next(last) }
end "no move" when no_moves
"#,
    );
    let p = after(&g, &[1]);
    assert_eq!(p["pits"]["south"], serde_json::json!([0, 1, 0]));
    assert_eq!(p["pits"]["north"], serde_json::json!([1, 1, 0]));
}

/// `PIT + k` counts k places along the lap's track, `PIT - k` back: four pits a row, one seed each.
/// South 1's seed makes south 2 a pair; two places on is south 4 (its seed is taken), one back is
/// south 1 (just emptied).
#[test]
fn a_pit_plus_a_number_is_found_along_the_track() {
    let g = game(
        r#"
game "Along"
board { pits 4 seeds 1 }
capture "two on" { when last.count == 2  take last + 2, last - 1 }
end "no move" when no_moves
"#,
    );
    let j = after(&g, &[1]);
    assert_eq!(j["pits"]["south"], serde_json::json!([0, 2, 1, 0]));
    assert_eq!(j["stores"]["south"], 1);
    // Sown clockwise, the track runs the other way: from south 4, the pair is south 3, two places
    // on is south 1, one back is south 4.
    let g = game(
        r#"
game "Along, clockwise"
board { pits 4 seeds 1 }
sow { direction cw }
capture "two on" { when last.count == 2  take last + 2, last - 1 }
end "no move" when no_moves
"#,
    );
    let j = after(&g, &[4]);
    assert_eq!(j["pits"]["south"], serde_json::json!([0, 1, 2, 0]));
    assert_eq!(j["stores"]["south"], 1);
}

/// The docs' "Two stages" (docs/language.md, `word "NAME" means "TEXT"`): the narration explains each
/// of the game's own words after the first line that says it, once in a game (issue 23).
const TWO_STAGES: &str = r#"
game "Two stages"
board { pits 6  seeds 4  reserve 6  stores captures }
word "kuingia" means "the first stage: each move brings one seed in from the store"
word "kucheza" means "the second stage, once the stores are empty"
sow { direction ccw }
phase "kuingia" when captured(to_move) > 0 { sow { from store 1 } }
phase "kucheza" when captured(to_move) == 0 { forbid "a pit of one seed cannot start kucheza" when origin.count < 2 }
end "no move" when no_moves remaining owner
"#;

#[test]
fn the_games_own_words_are_explained_once() {
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    assert!(docs.contains(TWO_STAGES.trim()), "docs/language.md no longer shows:\n{TWO_STAGES}");
    let g = game(TWO_STAGES);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let mut said = Vec::new();
    let mut told = Vec::new();
    for k in [1, 1, 2] {
        let events = g.apply_traced(&mut pos, k).expect("legal");
        let mut lines = g.narrate(&events);
        g.gloss(&mut lines, &mut said);
        told.extend(lines);
    }
    assert_eq!(
        told[0],
        "south plays pit 1 (phase \"kuingia\") (kuingia: the first stage: each move brings one seed in from the store)"
    );
    let explained = told.iter().filter(|l| l.contains("(kuingia: ")).count();
    assert_eq!(explained, 1, "{told:#?}");
    assert!(told.iter().any(|l| l == "north plays pit 1 (phase \"kuingia\")"), "{told:#?}");
    assert!(!told.iter().any(|l| l.contains("kucheza")), "not said yet: {told:#?}");
}

/// A rule with no actions and no `then` changes nothing; the narration says its name when it holds
/// (issue 23: Bao la Kiswahili's "the move was a takasa"). South's 1 (2 seeds) ends in south 3, taking
/// nothing; nothing else differs from a game without the rule.
#[test]
fn a_rule_with_nothing_to_do_is_said() {
    let text = r#"
game "Said"
board { pits 3 seeds 2 }
sow { direction ccw }
after move "nothing was taken" { when taken == 0 }
end "no move" when no_moves remaining owner
"#;
    let g = game(text);
    let mut pos = g.initial(None);
    let events = g.apply_traced(&mut pos, 1).expect("legal");
    let lines = g.narrate(&events);
    assert_eq!(lines.last().map(String::as_str), Some("  \"nothing was taken\""), "{lines:#?}");
    assert_eq!(
        after(&g, &[1]),
        after(
            &game(&text.replace("after move \"nothing was taken\" { when taken == 0 }\n", "")),
            &[1]
        )
    );
}
