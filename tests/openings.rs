//! Openings: `after move` rules of one phase, phases that sow nothing (rearranging seeds), an opening
//! at the start of every round (`round_ply`), and memory on the board people read. Tiny invented
//! games; every board, memory value and list of moves worked out by hand.

use serde_json::json;

use super::support::{invented as game, json_of as json, move_names as names, play_named as play, played};

/// A phase's own `after move` rule, and one of the whole game that reads what it left.
const PHASE_RULES: &str = r#"
game "Counted openings"
board { pits 3  seeds 2 }
memory { player opening = 0  player all = 0  player seen = 0 }
sow { direction ccw }
phase "opening" when ply < 2 {
  after move "an opening move" { when 1 == 1  add 1 to mover.opening }
}
after move "every move" { when 1 == 1  add 1 to mover.all  set mover.seen = mover.opening }
end "no move" when no_moves remaining owner
"#;

#[test]
fn a_phases_after_move_rule_counts_only_its_moves_and_comes_before_the_games() {
    let g = game(PHASE_RULES);
    // South 1 and north 1 are played in the opening (ply 0 and 1), south 2 after it.
    let j = json(&g, &played(&g, &[1, 1, 2]));
    assert_eq!(
        j["memory"]["opening"],
        json!({"south": 1, "north": 1}),
        "only the two opening moves"
    );
    assert_eq!(j["memory"]["all"], json!({"south": 2, "north": 1}), "every move");
    // The game's rule read `opening` after the phase's rule had added to it.
    assert_eq!(j["memory"]["seen"], json!({"south": 1, "north": 1}));
    // South 1 (2 seeds) into south 2, 3; north 1 the same; south 2 (3 seeds) into south 3, north 1, 2.
    assert_eq!(j["pits"], json!({"south": [0, 0, 4], "north": [1, 4, 3]}));
}

/// The documented pattern: each player moves one seed at a time to another of their own pits, twice,
/// before play starts.
const ARRANGE: &str = r#"
game "Arrange, then sow"
board { pits 3  seeds 2 }
memory { player arranged = 0 }
sow { direction ccw }
phase "arranging" when to_move.arranged < 2 {
  no sowing
  after move "one seed to another pit" {
    when 1 == 1
    move 1 from origin to choose(row(mover) where pit != origin)
    add 1 to mover.arranged
  }
}
capture "two or three" { when last.side == opponent and last.count in 2..3  take last }
end "no move" when no_moves remaining owner
"#;

#[test]
fn each_player_rearranges_twice_then_play_sows() {
    let g = game(ARRANGE);
    let start = play(&g, &[]);
    assert_eq!(
        names(&g, &start),
        ["1:2", "1:3", "2:1", "2:3", "3:1", "3:2"],
        "a seed to each other pit"
    );
    let j = json(&g, &play(&g, &["1:3"]));
    assert_eq!(
        j["pits"],
        json!({"south": [1, 2, 3], "north": [2, 2, 2]}),
        "one seed from pit 1 to pit 3"
    );
    assert_eq!(j["memory"]["arranged"], json!({"south": 1, "north": 0}));
    // North's 2:1 makes [3, 1, 2], south's 2:1 [2, 1, 3], north's 3:2 [3, 2, 1]: two moves each.
    let pos = play(&g, &["1:3", "2:1", "2:1", "3:2"]);
    let j = json(&g, &pos);
    assert_eq!(j["pits"], json!({"south": [2, 1, 3], "north": [3, 2, 1]}));
    assert_eq!(j["stores"], json!({"south": 0, "north": 0}), "rearranging takes nothing");
    assert_eq!(names(&g, &pos), ["1", "2", "3"], "play has started: a move is a pit again");
    // South 3's three seeds go to north 1, 2, 3, which then holds 2: taken.
    let j = json(&g, &play(&g, &["1:3", "2:1", "2:1", "3:2", "3"]));
    assert_eq!(j["pits"], json!({"south": [2, 1, 0], "north": [4, 3, 0]}));
    assert_eq!(j["stores"], json!({"south": 2, "north": 0}));
}

#[test]
fn a_move_that_leaves_every_seed_where_it_was_is_not_legal() {
    // The mover may name the pit played itself, which would change nothing.
    let g = game(&ARRANGE.replace("where pit != origin", ""));
    let mut pos = play(&g, &[]);
    assert_eq!(names(&g, &pos), ["1:2", "1:3", "2:1", "2:3", "3:1", "3:2"], "never a pit to itself");
    // Pit 1 with the first answer (pit 1 itself): the answer 0 adds nothing to the pit's number.
    let to_itself = 1;
    let err = g.apply(&mut pos, to_itself).expect_err("a seed from pit 1 to pit 1 is no move");
    assert!(err.to_string().contains("leave every seed where it is"), "{err}");
    // An empty pit has no seed to move: after 1:2 and 1:3 south's pit 1 is empty.
    let pos = play(&g, &["1:2", "1:2", "1:3"]);
    assert_eq!(json(&g, &pos)["pits"]["south"], json!([0, 3, 3]));
}

#[test]
fn the_trace_says_which_seed_went_where() {
    let g = game(ARRANGE);
    let mut pos = play(&g, &[]);
    let k = g.read_move(&pos, "1:3").expect("a move");
    let events = g.apply_traced(&mut pos, k).expect("legal");
    let text = g.narrate(&events);
    assert!(text.iter().any(|t| t.contains("moves 1 seed from south 1 to south 3")), "{text:?}");
    assert!(!text.iter().any(|t| t.contains("picks up")), "nothing is sown: {text:?}");
}

/// Two pits a side, one seed each and two in hand; at the start of every round each player enters
/// the two seeds their set-up kept in the store, one a move.
const EVERY_ROUND: &str = r#"
game "Place at every round"
board { pits 2  seeds 1  reserve 2 }
sow { direction ccw }
phase "placing" when round_ply < 4 {
  sow { from store 1  relay never }
  no captures
}
end "five moves" when round_ply == 5 remaining owner
rounds {
  setup store 2
  setup fill 1
  match ends when round == 2
}
"#;

#[test]
fn a_placing_phase_opens_every_round() {
    let g = game(EVERY_ROUND);
    // Round 1: south places in 1, north in 2, south in 2, north in 1: south [2, 2], north [2, 2],
    // stores empty. South's pit 1 then sows into south 2 and north 1: south [0, 3], north [3, 2].
    // The round ends: south has 3, north 5; north wins it. Round 2: each keeps 2 in the store and
    // fills pits with 1 from the rest: south [1, 0] (store 2), north [1, 1] (store 3).
    let j = json(&g, &played(&g, &[1, 2, 2, 1, 1]));
    assert_eq!(j["round"], json!(2));
    assert_eq!(j["round_ply"], json!(0));
    assert_eq!(j["ply"], json!(5));
    assert_eq!(j["pits"], json!({"south": [1, 0], "north": [1, 1]}));
    assert_eq!(j["stores"], json!({"south": 2, "north": 3}));
    assert_eq!(j["rounds_won"], json!({"south": 0, "north": 1}));
    // Round 2 places again: south into its empty pit 2, north 1, south 2, north 2: south [1, 2]
    // (store 0), north [2, 2] (store 1). South's pit 2 sows into north 1, 2: north [3, 3]. The round
    // ends: south 1, north 7, and north has won both.
    let j = json(&g, &played(&g, &[1, 2, 2, 1, 1, 2, 1, 2, 2, 2]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 7}));
    assert_eq!(j["over"], json!(true));
    assert_eq!(j["winner"], json!("north"));
    assert_eq!(j["round_ply"], json!(5));

    // Counted by `ply`, the phase is over in round 2, and south's empty pit cannot be played.
    let by_ply = game(&EVERY_ROUND.replace("when round_ply < 4", "when ply < 4"));
    let mut pos = played(&by_ply, &[1, 2, 2, 1, 1]);
    assert!(
        by_ply.apply(&mut pos, 2).is_err(),
        "round 2 starts at ply 5, after the placing phase"
    );
}

#[test]
fn round_ply_goes_through_the_position_json() {
    let g = game(EVERY_ROUND);
    let pos = played(&g, &[1, 2, 2, 1, 1, 2]);
    let text = g.position_to_json(&pos).to_string();
    let back = g.position_from_json(&text).expect("reads back");
    assert_eq!(json(&g, &back)["round_ply"], json!(1));
    assert_eq!(names(&g, &back), ["1", "2"], "still placing: either pit, empty or not");
    let wrong = text.replace("\"round_ply\":1", "\"round_ply\":7");
    assert!(g.position_from_json(&wrong).is_err(), "more moves in the round than in the game");
}

/// The board `sowlang run` draws after `moves` of the game `text`.
fn board_after(name: &str, text: &str, moves: &str) -> String {
    let dir = super::support::scratch("openings", name);
    let file = dir.join("game.sow");
    std::fs::write(&file, text).expect("written");
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["run", file.to_str().expect("a path"), "--moves", moves])
        .output()
        .expect("runs");
    assert!(out.status.success(), "{}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("text")
}

#[test]
fn the_board_says_what_the_game_remembers() {
    let board = board_after("arranged", ARRANGE, "1:3");
    assert!(
        board.contains("   1    2    3   south\nthe game remembers:\n  arranged: south 1, north 0\nnorth to move"),
        "{board}"
    );
    let remembered = r#"
game "Remembered pits"
board { pits 3  seeds 4 }
memory { pit played = 0  player start = no_pit }
after move "played" { when 1 == 1  set origin.played = 1 }
after move "where" { when mover == south  set mover.start = last }
end "no move" when no_moves
"#;
    // South 1 sows into south 2, 3 and north 1, 2 (the last); north 2 is then played.
    let board = board_after("pits", remembered, "1,2");
    assert!(
        board.contains("the game remembers:\n  played: 1 at south 1, 1 at north 2\n  start: south's is north 2, north's is no pit\n"),
        "{board}"
    );
    let board = board_after("nothing", remembered, "");
    assert!(board.contains("  played: nothing yet\n"), "{board}");
}

#[test]
fn the_games_played_here_are_the_ones_the_reference_shows() {
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    for text in [ARRANGE, EVERY_ROUND] {
        assert!(docs.contains(text.trim()), "docs/language.md no longer shows:\n{text}");
    }
}
