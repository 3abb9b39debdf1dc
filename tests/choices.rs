//! Choices made during a move (`choose(..)`, `lift`, `sow taken .. either`) on tiny invented games,
//! every legal move list and board worked out by hand.

use serde_json::json;

use super::support::{invented as game, json_of as json, move_names as names, play_named as play};

/// Three pits a side, three seeds each; the mover lifts as many seeds of the pit as they like.
const LIFT: &str = r#"
game "Lift"
board { pits 3  seeds 3 }
sow { lift choose(1..origin.count) }
end "no move" when no_moves remaining owner
"#;

#[test]
fn the_mover_says_how_many_seeds_to_lift_and_the_rest_stay() {
    let g = game(LIFT);
    let start = play(&g, &[]);
    assert_eq!(
        names(&g, &start),
        ["1:1", "1:2", "1:3", "2:1", "2:2", "2:3", "3:1", "3:2", "3:3"],
        "each pit with each number of seeds from 1 to 3"
    );
    // Two of pit 1's three seeds go into pits 2 and 3; one stays.
    let j = json(&g, &play(&g, &["1:2"]));
    assert_eq!(j["pits"], json!({"south": [1, 4, 4], "north": [3, 3, 3]}));
    assert_eq!(
        j["legal_moves"],
        json!(["1:1", "1:2", "1:3", "2:1", "2:2", "2:3", "3:1", "3:2", "3:3"])
    );
    // All three of pit 3 go on to north's pits.
    let j = json(&g, &play(&g, &["3:3"]));
    assert_eq!(j["pits"], json!({"south": [3, 3, 0], "north": [4, 4, 4]}));
}

#[test]
fn a_move_without_its_choice_is_no_move_and_a_bad_answer_is_refused() {
    let g = game(LIFT);
    let mut pos = play(&g, &[]);
    assert_eq!(g.read_move(&pos, "2"), None, "the number of seeds is missing");
    assert_eq!(g.read_move(&pos, "2:4"), None, "pit 2 holds three seeds");
    // A number whose answer names no option (2 of 0..3 is `3`; 3 would be a fourth) is refused.
    // The numbers of the three answers are evenly spaced: the fourth lies one step past the third.
    let answer = |text: &str| g.read_move(&pos, text).expect("a move");
    let step = answer("2:2") - answer("2:1");
    let fourth = answer("2:3") + step;
    let e = g.apply(&mut pos, fourth).expect_err("no fourth option").to_string();
    assert!(e.contains("2:1, 2:2, 2:3"), "{e}");
}

/// Two rows of two pits a player, one seed in each. A capture's seeds are sown again from the end of
/// the front row the way the mover chooses goes from: clockwise from a1, counter-clockwise from a2.
/// South's own track, counter-clockwise: b1, b2, a2, a1. South's a1 faces north's a2, a2 faces a1.
const EITHER_END: &str = r#"
game "Either end"
board { rows 2  pits 2  seeds 1 }
sow { direction ccw }
capture "pull across" {
  when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
  take opposite(last)
  sow taken from (if clockwise then leftmost(row(mover) where pit.row == front) else rightmost(row(mover) where pit.row == front)) either
}
end "no move" when no_moves loser to_move
"#;

#[test]
fn each_capture_asks_the_way_and_the_move_lists_every_answer() {
    let g = game(EITHER_END);
    let start = play(&g, &[]);
    // a1 and b1 end in the back row and a1 without a capture: no choice. a2's seed falls into a1
    // (loaded, facing north's loaded a2): one choice. b2's into a2 facing north's a1: sown again
    // clockwise from a1 it captures once more (a1 faces north's a2), counter-clockwise from a2 not.
    assert_eq!(
        names(&g, &start),
        ["a1", "a2:ccw", "a2:cw", "b1", "b2:ccw", "b2:cw:ccw", "b2:cw:cw"]
    );

    // b2:ccw: north's a1 is taken and its seed falls back into a2 (2 + 1).
    let j = json(&g, &play(&g, &["b2:ccw"]));
    assert_eq!(j["pits"], json!({"south": [[1, 3], [1, 0]], "north": [[0, 1], [1, 1]]}));
    // b2:cw:ccw: the seed goes into a1 (2), which takes north's a2; that seed goes into a2 (3).
    let j = json(&g, &play(&g, &["b2:cw:ccw"]));
    assert_eq!(j["pits"], json!({"south": [[2, 3], [1, 0]], "north": [[0, 0], [1, 1]]}));
    // b2:cw:cw: both seeds taken fall into a1 (1 + 1 + 1).
    let j = json(&g, &play(&g, &["b2:cw:cw"]));
    assert_eq!(j["pits"], json!({"south": [[3, 2], [1, 0]], "north": [[0, 0], [1, 1]]}));
}

#[test]
fn a_chosen_pit_is_named_as_the_mover_names_it() {
    // The mover takes any one loaded pit of the opponent after each move.
    let g = game(
        r#"
game "Take one"
board { pits 2  seeds 1 }
capture "any" { when last.side == opponent  take choose(row(opponent) where pit.count > 0) }
end "no move" when no_moves remaining owner
"#,
    );
    let start = play(&g, &[]);
    // South 1's seed goes to south 2; south 2's to north 1 (2 seeds), after which north 1 or north 2
    // may be taken.
    assert_eq!(names(&g, &start), ["1", "2:1'", "2:2'"]);
    let j = json(&g, &play(&g, &["2:2'"]));
    assert_eq!(j["pits"], json!({"south": [1, 0], "north": [2, 0]}));
    assert_eq!(j["stores"], json!({"south": 1, "north": 0}));
}

#[test]
fn random_games_with_choices_conserve_seeds_and_replay_by_name() {
    use rand::{Rng, SeedableRng};
    for text in [LIFT, EITHER_END, EITHER_RULES, ONCE_A_GAME] {
        let g = game(text);
        let mut rng = rand::rngs::StdRng::seed_from_u64(7);
        for _ in 0..50 {
            let mut pos = play(&g, &[]);
            let total = g.seed_total(&pos);
            for _ in 0..200 {
                let moves = g.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                let k = moves[rng.gen_range(0..moves.len())];
                // Every listed move reads back from its name.
                assert_eq!(g.read_move(&pos, &g.name_move(&pos, k)), Some(k));
                g.apply(&mut pos, k).expect("a listed move is legal");
                assert_eq!(g.seed_total(&pos), total);
            }
        }
    }
}

/// The usual rules sow counter-clockwise; the mover may choose, with any move, to sow clockwise.
const EITHER_RULES: &str = r#"
game "Other way"
board { pits 3  seeds 1 }
phase "backwards" when true {
  optional
  sow { direction cw }
}
end "no move" when no_moves remaining owner
"#;

#[test]
fn an_optional_phase_is_the_moves_first_choice() {
    let g = game(EITHER_RULES);
    let start = play(&g, &[]);
    assert_eq!(
        names(&g, &start),
        ["1:usual", "1:backwards", "2:usual", "2:backwards", "3:usual", "3:backwards"]
    );
    // The usual way: south 1's seed into south 2.
    let j = json(&g, &play(&g, &["1:usual"]));
    assert_eq!(j["pits"], json!({"south": [0, 2, 1], "north": [1, 1, 1]}));
    // Clockwise from south 1 the next pit is north's 3.
    let j = json(&g, &play(&g, &["1:backwards"]));
    assert_eq!(j["pits"], json!({"south": [0, 1, 1], "north": [1, 1, 2]}));
    let mut pos = play(&g, &[]);
    let k = g.read_move(&pos, "1:backwards").expect("a move");
    let events = g.apply_traced(&mut pos, k).expect("legal");
    assert_eq!(g.narrate(&events)[0], "south plays pit 1, choosing backwards (phase \"backwards\")");
}

#[test]
fn the_command_line_plays_and_solves_moves_with_choices() {
    use std::process::Command;
    let dir = super::support::scratch("choices", "cli");
    let file = dir.join("lift.sow");
    std::fs::write(&file, LIFT).expect("write");
    let run = |args: &[&str]| {
        let out = Command::new(env!("CARGO_BIN_EXE_sowlang"))
            .env("SOWLANG_DATABASES", super::support::no_databases())
            .args(args)
            .env("NO_COLOR", "1")
            .output()
            .expect("run");
        (
            out.status.code(),
            String::from_utf8_lossy(&out.stdout).into_owned(),
            String::from_utf8_lossy(&out.stderr).into_owned(),
        )
    };
    let path = file.to_str().expect("utf-8 path");
    // 1:2 leaves south [1, 4, 4]; north then lifts one seed of its pit 3 into south's 1.
    let (code, out, _) = run(&["run", path, "--moves", "1:2,3:1", "--json"]);
    assert_eq!(code, Some(0));
    let j: serde_json::Value = serde_json::from_str(&out).expect("json");
    assert_eq!(j["pits"], json!({"south": [2, 4, 4], "north": [3, 3, 2]}));
    // A pit without its answer is refused, naming the moves of this position.
    let (code, _, err) = run(&["run", path, "--moves", "1"]);
    assert_eq!(code, Some(1));
    assert!(err.contains("it could be 1:1, 1:2 or 1:3"), "{err}");
    // Worked by hand: 2:1' takes north's 1 (2 seeds); north's only move, 2, ends in south's 1, which it
    // takes (2): 2 to 2. 2:2' takes north's 2 (1); north's 1 sows north 2 and south 1, taking south's 1
    // (2); south cannot move and north keeps its last seed: 1 to 3.
    let take = dir.join("take.sow");
    std::fs::write(
        &take,
        "game \"Take one\"\nboard { pits 2  seeds 1 }\ncapture \"any\" { when last.side == opponent  take choose(row(opponent) where pit.count > 0) }\nend \"no move\" when no_moves remaining owner\n",
    )
    .expect("write");
    let (code, out, err) = run(&["solve", take.to_str().expect("utf-8 path")]);
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("pit 2:1': a draw"), "{out}");
    assert!(out.contains("pit 2:2': north wins by 2"), "{out}");
}

/// A special sowing each player may make once a game: clockwise, remembered by an `after move` rule of
/// its own phase.
const ONCE_A_GAME: &str = r#"
game "Once a game"
board { pits 3  seeds 2 }
memory { player used = 0 }
phase "big" when mover.used == 0 {
  optional
  sow { direction cw }
  after move "the special sowing is used" { when true  set mover.used = 1 }
}
end "no move" when no_moves remaining owner
"#;

#[test]
fn a_special_sowing_may_be_made_once_a_game() {
    let g = game(ONCE_A_GAME);
    let start = play(&g, &[]);
    assert_eq!(names(&g, &start), ["1:usual", "1:big", "2:usual", "2:big", "3:usual", "3:big"]);
    // South's 1 sown clockwise: north's 3, then north's 2.
    let pos = play(&g, &["1:big"]);
    let j = json(&g, &pos);
    assert_eq!(j["pits"], json!({"south": [0, 2, 2], "north": [2, 3, 3]}));
    // North has not used theirs; after north's usual move (north 1 into 2 and 3), south has.
    assert_eq!(names(&g, &pos), ["1:usual", "1:big", "2:usual", "2:big", "3:usual", "3:big"]);
    let pos = play(&g, &["1:big", "1:usual"]);
    assert_eq!(json(&g, &pos)["pits"], json!({"south": [0, 2, 2], "north": [0, 4, 4]}));
    // The rules played are still named, though only the usual ones are left: a move has one written
    // form whether or not an optional phase is offered (issue 26).
    assert_eq!(names(&g, &pos), ["2:usual", "3:usual"], "south's special sowing is spent");
}

/// Three pits a side, two seeds each; after a move whose last seed falls in north's row, south keeps it or
/// spends it, a choice whose options are named by words (`choose(1 as "keep", 0 as "spend")`).
const KEEP_OR_SPEND: &str = r#"
game "Keep or spend"
board { pits 3  seeds 2 }
memory { player kept = 0 }
sow { direction ccw }
after move "the last seed" { when last.side == opponent  set mover.kept = choose(1 as "keep", 0 as "spend") }
end "no move" when no_moves remaining owner
"#;

#[test]
fn named_options_are_written_and_read_by_their_words() {
    let g = game(KEEP_OR_SPEND);
    let start = play(&g, &[]);
    // Pit 1 ends in south's pit 3 (no choice); pits 2 and 3 end in north's row.
    let mut listed = names(&g, &start);
    listed.sort();
    assert_eq!(listed, ["1", "2:keep", "2:spend", "3:keep", "3:spend"]);
    assert_eq!(json(&g, &play(&g, &["2:keep"]))["memory"]["kept"]["south"], json!(1));
    assert_eq!(
        json(&g, &play(&g, &["3:SPEND"]))["memory"]["kept"]["south"],
        json!(0),
        "read whatever the case"
    );
    assert_eq!(g.read_move(&start, "2:1"), None, "the value is not the word");
}

#[test]
fn option_words_are_checked() {
    let refused = |rule: &str, why: &str| {
        let text = KEEP_OR_SPEND.replace(r#"choose(1 as "keep", 0 as "spend")"#, rule);
        let failed = sowlang::load_text(std::path::Path::new("invented.sow"), &text, &[]).expect_err(why);
        let shown: Vec<String> = failed.diagnostics.iter().map(|d| d.message.clone()).collect();
        shown.join("; ")
    };
    assert!(refused(r#"choose(1 as "keep", 0)"#, "one option unnamed").contains("name every option"));
    assert!(refused(r#"choose(1 as "keep", 0 as "KEEP")"#, "two alike").contains("two options are named"));
    assert!(refused(r#"choose(1 as "keep it", 0 as "spend")"#, "a space").contains("cannot be written in a move"));
    assert!(refused(r#"captured(south as "keep")"#, "outside choose").contains("names an option of `choose`"));
}

/// Whether a player has a move at all (`no_moves`, `can_move`, `pass when unable`) is answered by the
/// pits' first moves, not by the whole list, which can run to 65,536 moves each tried on a copy: the
/// pits it finds must be the pits the list's moves start from, in every position of random games of
/// games whose moves carry choices (with and without `captures required`, and Bao la Kiswahili's).
#[test]
fn the_pits_with_a_move_are_the_pits_the_listed_moves_start_from() {
    let captures_required = r#"
game "Lift or take"
board { pits 3  seeds 3  stores captures }
sow { lift choose(1..origin.count) }
captures required
capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }
end "no move" when no_moves remaining owner
"#;
    let kiswahili = super::support::root().join("variants/bao_la_kiswahili.sow");
    let games = [
        game(LIFT),
        game(captures_required),
        sowlang::load_game(&kiswahili, &[]).expect("bao_la_kiswahili.sow loads").game,
    ];
    for g in &games {
        let mut seed = 7u64;
        for _ in 0..20 {
            let mut pos = g.initial(None);
            g.settle_start(&mut pos);
            for _ in 0..200 {
                let listed = g.legal_moves(&pos);
                let from_list: Vec<usize> = listed.iter().map(|&k| g.move_pit(k)).filter(|&k| !g.is_pass(k)).collect();
                let pits = g.playable_pits(&pos);
                // A pit's moves one way that do what its moves the other way do are listed once, by
                // the first way's names; its pit is still one with a move.
                let pit = |k: usize| g.move_name(k).trim_end_matches(['L', 'R']).to_string();
                assert!(
                    from_list.iter().all(|k| pits.contains(k)),
                    "{}: {from_list:?} in {pits:?}",
                    g.name()
                );
                assert!(
                    pits.iter().all(|&k| from_list.iter().any(|&j| pit(j) == pit(k))),
                    "{}: {pits:?} from {from_list:?}",
                    g.name()
                );
                if listed.is_empty() {
                    break;
                }
                seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                g.apply(&mut pos, listed[(seed >> 33) as usize % listed.len()])
                    .expect("a listed move is legal");
            }
        }
    }
}
