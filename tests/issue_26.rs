//! Issue 26, section 4 (the defects) and the passes of section 1: each test fails without its fix.
//! Tiny invented games worked out by hand, the shipped files the defects were found in, and the
//! command line where the defect was met there.

use std::process::Command;

use serde_json::json;
use sowlang::{Event, MoveError};

use crate::support::{invented, json_of, root, scratch};

/// The game of the docs' `pass when unable` section: south, to move first, has no seed.
const BLOCKED_AT_THE_START: &str = r#"
game "Blocked at the start"
board { pits 2  layout south [0, 0] north [1, 1] }
sow { direction ccw }
pass when unable
end "neither can move" when no_moves remaining owner
"#;

/// The player to move at the start has no move, the other has: the player passes before the end rules
/// are read, so `no_moves` does not end the game ("neither can move" did).
#[test]
fn issue_26_a_start_where_only_the_player_to_move_is_blocked_passes_first() {
    let g = invented(BLOCKED_AT_THE_START);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert!(!pos.is_over(), "the game is not over: {:?}", pos.ended_by());
    assert_eq!(pos.to_move(), sowlang::Player::North);
    assert_eq!(g.legal_moves(&pos), [1, 2]);
    // A position given to start from (`run --from`) is settled the same way.
    let from = root().join("target").join("issue_26_blocked.json");
    std::fs::create_dir_all(from.parent().expect("dir")).expect("dir");
    std::fs::write(
        &from,
        r#"{"pits":{"south":[0,0],"north":[1,1]},"stores":{"south":0,"north":0},"to_move":"south"}"#,
    )
    .expect("write");
    let dir = scratch("issue26", "blocked");
    let file = dir.join("blocked.sow");
    std::fs::write(&file, BLOCKED_AT_THE_START).expect("write");
    let out = sowlang(&[
        "run",
        file.to_str().expect("path"),
        "--from",
        from.to_str().expect("path"),
        "--json",
    ]);
    let j: serde_json::Value = serde_json::from_str(&out.0).unwrap_or_else(|e| panic!("{e}: {} {}", out.0, out.1));
    assert_eq!(j["over"], false);
    assert_eq!(j["to_move"], "north");
    // When neither can move, the turn stays and the end rule ends the game.
    let g = invented(
        &BLOCKED_AT_THE_START
            .replace("south [0, 0] north [1, 1]", "south [1, 0] north [1, 0]")
            .replace(
                "pass when unable",
                "forbid \"single seeds stay\" when origin.count == 1\npass when unable",
            ),
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert!(pos.is_over());
    assert_eq!(pos.ended_by(), Some("neither can move"));
    assert_eq!(pos.to_move(), sowlang::Player::South);
}

/// Round 1: north opens and sows north 1's two seeds into north 2 and south 1, taking south 1's three;
/// the round ends after its one move, south holding 2 seeds, north 6. Round 2 is set up four a pit:
/// south fills none, north fills pit 1 and keeps 2; south, with fewer seeds, opens it and cannot move.
/// South passes and north plays; the match then ends.
#[test]
fn issue_26_a_round_whose_opener_cannot_move_is_opened_by_the_other_player() {
    let g = invented(
        r#"
game "The opener cannot move"
board { pits 2  seeds 2  stores captures }
first north
sow { direction ccw }
capture "across" { when last.side == opponent  take last }
pass when unable
end "one move a round" when round_ply == 1 remaining owner
rounds {
  match ends when round >= 2
  setup fill 4
  next round first fewer seeds
}
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let events = g.apply_traced(&mut pos, 1).expect("north 1");
    assert_eq!(pos.round(), 2);
    assert_eq!(pos.opener(), sowlang::Player::South);
    assert!(
        events.iter().any(|e| matches!(
            e,
            Event::Pass {
                player: sowlang::Player::South,
                chosen: false
            }
        )),
        "south passes at the start of round 2: {events:?}"
    );
    assert_eq!(pos.to_move(), sowlang::Player::North, "the round is not stuck");
    assert_eq!(g.legal_moves(&pos), [1]);
    g.apply(&mut pos, 1).expect("north 1");
    assert!(pos.is_over());
}

fn sowlang(args: &[&str]) -> (String, String, i32) {
    let out = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .output()
        .expect("run sowlang");
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
        out.status.code().unwrap_or(-1),
    )
}

/// A move number's bits past the pit were read as another pit (257 as pit 1, 4294967297 too): such a
/// number names no pit, and is refused, whatever reads it.
#[test]
fn issue_26_move_numbers_past_the_board_are_refused_not_wrapped() {
    let oware = sowlang::load_game(&root().join("variants/oware.sow"), &[]).expect("oware").game;
    for k in [257usize, 4_294_967_297, 256 + 3] {
        let mut pos = oware.initial(None);
        oware.settle_start(&mut pos);
        match oware.apply(&mut pos, k) {
            Err(MoveError::Illegal { name, reason, .. }) => {
                assert_eq!(name, k.to_string());
                assert!(reason.contains(&format!("there is no pit {k}")), "{reason}");
            }
            other => panic!("move {k} was {other:?}"),
        }
        assert_eq!(pos.ply(), 0, "nothing was played");
        assert_eq!(oware.read_move(&pos, &k.to_string()), Some(k));
    }
    let (out, err, code) = sowlang(&["run", "variants/oware.sow", "--moves", "257"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("there is no pit 257"), "{err}");
    // A game whose moves carry choices reads no number past its pits as a move.
    let lift = invented(LIFT);
    let pos = lift.initial(None);
    for text in ["257", "4294967297", "513"] {
        assert_eq!(lift.read_move(&pos, text), None, "{text}");
    }
    let dir = scratch("issue26", "lift");
    let file = dir.join("lift.sow");
    std::fs::write(&file, LIFT).expect("write");
    let (out, err, code) = sowlang(&["run", file.to_str().expect("path"), "--moves", "257"]);
    assert_eq!(code, 1, "{out}{err}");
    assert!(err.contains("there is no pit 257"), "{err}");
}

/// As many seeds as the mover likes: one choice a move, with as many options as the pit has seeds.
const LIFT: &str = r#"
game "Lift"
board { pits 3  layout south [1, 2, 10] north [3, 3, 3] }
sow { lift choose(1..origin.count) }
end "no move" when no_moves remaining owner
"#;

/// A choice with one option was left out of the move's name (`1` for pit 1 of one seed, where pit 2's
/// moves are `2:1` and `2:2`), and `1:1` was refused; an optional phase's answer came and went with
/// the phase being offered. Every choice a move meets is written now, and every name listed is read.
#[test]
fn issue_26_move_names_are_regular() {
    let g = invented(LIFT);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let names: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(&names[..3], ["1:1", "2:1", "2:2"]);
    for name in &names {
        let k = g.read_move(&pos, name).unwrap_or_else(|| panic!("{name} is read"));
        assert_eq!(&g.name_move(&pos, k), name);
    }
    // `1` alone is no move: it names the pit, not the answer.
    assert!(g.legal_moves(&pos).iter().all(|&k| g.read_move(&pos, "1") != Some(k)));
    // A choice whose one option comes from a rule: the pit of two seeds gives `choose(1..1)`.
    let g = invented(&LIFT.replace("choose(1..origin.count)", "choose(1..origin.count - 1)"));
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let names: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(&names[..2], ["2:1", "3:1"], "{names:?}");
    let k = g.read_move(&pos, "2:1").expect("2:1 is read");
    g.apply(&mut pos, k).expect("2:1");
    assert_eq!(json_of(&g, &pos)["pits"]["south"], json!([1, 1, 11]));
    // An optional phase offered only at the first move: its answer is written all game.
    let g = invented(
        r#"
game "Once"
board { pits 3  seeds 2 }
phase "backwards" when ply == 0 {
  optional
  sow { direction cw }
}
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let first: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(
        first,
        ["1:usual", "1:backwards", "2:usual", "2:backwards", "3:usual", "3:backwards"]
    );
    let k = g.read_move(&pos, "1:usual").expect("read");
    g.apply(&mut pos, k).expect("legal");
    let then: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(then, ["1:usual", "2:usual", "3:usual"]);
}

/// The docs' game "A long relay": south's move sows 1,600 laps, one of north's seeds moved a lap,
/// and ends. It was refused as never ending past 1,000 laps; within its stated limit it is legal, a
/// move that goes round for ever is refused as such, and the default limit is said to be one.
const LONG_RELAY: &str = r#"
game "A long relay"
board { pits 3  layout south [1, 0, 0] north [1000, 600, 0] }
sow {
  direction ccw
  relay when pit(north, 1).count + pit(north, 2).count > 0
  relay from origin
  relay limit 2000
}
capture "one tick" {
  when true
  move all from last to origin
  move 1 from (if pit(north, 1).count > 0 then pit(north, 1) else pit(north, 2)) to pit(north, 3)
}
end "no move" when no_moves remaining owner
"#;

fn refusal(g: &sowlang::Game, k: usize) -> String {
    let mut pos = g.initial(None);
    match g.apply(&mut pos, k) {
        Err(MoveError::Illegal { reason, .. }) => reason,
        other => panic!("move {k} was {other:?}"),
    }
}

#[test]
fn issue_26_a_relay_that_ends_after_many_laps_is_legal_and_one_that_loops_is_said_to() {
    let g = invented(LONG_RELAY);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert_eq!(g.legal_moves(&pos), [1]);
    let events = g.apply_traced(&mut pos, 1).expect("the long relay is legal");
    let laps = events.iter().filter(|e| matches!(e, Event::PickUp { .. })).count();
    assert_eq!(laps, 1600);
    // South 1's seed goes to south 2 and back every lap; north's 1,600 seeds end in north 3. North's
    // one move from there would go round for ever: north cannot move, and the game ends, each
    // player taking the seeds of their own row.
    let moved: Vec<_> = events.iter().filter(|e| matches!(e, Event::MoveSeeds { .. })).collect();
    assert_eq!(moved.len(), 3200);
    assert!(pos.is_over());
    assert_eq!(json_of(&g, &pos)["stores"], json!({"south": 1, "north": 1600}));
    // Under the default limit of 1,000 laps the move is refused, and said not to have been seen to
    // loop: it might end later.
    let default = invented(&LONG_RELAY.replace("relay limit 2000", ""));
    let why = refusal(&default, 1);
    assert!(
        why.contains("1000 laps") && why.contains("the default") && why.contains("might end later"),
        "{why}"
    );
    // A seed moved out of north 1 and back each lap: the second watched lap starts as the first.
    let looping = invented(&LONG_RELAY.replace(
        "move 1 from (if pit(north, 1).count > 0 then pit(north, 1) else pit(north, 2)) to pit(north, 3)",
        "move 1 from pit(north, 1) to pit(north, 2)\n  move 1 from pit(north, 2) to pit(north, 1)",
    ));
    let why = refusal(&looping, 1);
    assert!(why.contains("never ends") && why.contains("round for ever"), "{why}");
    // A stated limit refuses at its own count, whether or not the move would end.
    let stated = invented(&LONG_RELAY.replace("relay limit 2000", "relay limit 100"));
    let why = refusal(&stated, 1);
    assert!(why.contains("100 laps") && why.contains("`relay limit`"), "{why}");
    // Rules that read `lap` while sowing otherwise than against a number cannot be seen to loop:
    // the limit alone ends them.
    let counted = invented(
        &LONG_RELAY
            .replace("when true", "when lap + 1 > 1")
            .replace("relay limit 2000", "")
            .replace(
                "move 1 from (if pit(north, 1).count > 0 then pit(north, 1) else pit(north, 2)) to pit(north, 3)",
                "move 1 from pit(north, 1) to pit(north, 2)\n  move 1 from pit(north, 2) to pit(north, 1)",
            ),
    );
    let why = refusal(&counted, 1);
    assert!(why.contains("1000 laps") && why.contains("read `lap` or `taken`"), "{why}");
}

/// 256 seeds in south 1, `lift choose(1..origin.count)` and a memory value chosen after every move
/// (256 options each): pit 1 alone makes 65,536 moves, none taking anything; pit 2's 256 moves take
/// north 1's seed. The list used to stop at 65,536 moves before `captures required` picked out the
/// capturing ones, and offered pit 1's.
#[test]
fn issue_26_captures_required_picks_the_moves_before_the_list_is_cut() {
    let g = invented(
        r#"
game "Many ways"
board { pits 2  layout south [256, 1] north [1, 0]  stores captures }
memory { player note = 0 }
sow { direction ccw  lift choose(1..origin.count) }
captures required
capture "from pit 2" { when origin == pit(mover, 2) and last.side == opponent  take last }
after move "note" { when true  set mover.note = choose(1..256) }
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let legal = g.legal_moves(&pos);
    assert_eq!(legal.len(), 256);
    assert!(
        legal.iter().all(|&k| g.name_move(&pos, k).starts_with("2:1:")),
        "{:?}",
        g.name_move(&pos, legal[0])
    );
}

/// Bao's start: the ten seeds a player has lie in a5 (6), a6 and a7 (2 each); an entry into an empty
/// front pit ends at once whichever way it goes, so of the 16 moves (8 pits, `L` and `R`) 11 leave
/// different positions. Each is listed once, by its first name; the other names are still read.
#[test]
fn issue_26_moves_that_do_the_same_are_listed_once() {
    let bao = sowlang::load_game(&root().join("variants/bao.sow"), &[]).expect("bao").game;
    let mut pos = bao.initial(None);
    bao.settle_start(&mut pos);
    let names: Vec<String> = bao.legal_moves(&pos).iter().map(|&k| bao.name_move(&pos, k)).collect();
    assert_eq!(names, ["a1L", "a2L", "a3L", "a4L", "a5L", "a6L", "a7L", "a8L", "a5R", "a6R", "a7R"]);
    let (mut left, mut right) = (pos.clone(), pos.clone());
    bao.apply(&mut left, bao.read_move(&pos, "a1L").expect("a1L")).expect("legal");
    bao.apply(&mut right, bao.read_move(&pos, "a1R").expect("a1R is still read"))
        .expect("legal");
    assert_eq!(left, right);
    // The same in a game whose mover chooses only the way: entering a seed from the store into an
    // empty pit.
    let g = invented(
        r#"
game "Entering"
board { pits 3  layout south [0, 2, 0] north [1, 1, 1]  reserve 3  stores captures }
sow { direction either  from store 1 }
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let names: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    // The one seed entered falls into the pit played, whichever way it would go on: three moves,
    // named by the counter-clockwise way, which is south's right.
    assert_eq!(names, ["1R", "2R", "3R"]);
    assert_eq!(g.perft(&pos, 1), [3]);
    let (mut right, mut left) = (pos.clone(), pos.clone());
    g.apply(&mut right, g.read_move(&pos, "2R").expect("2R")).expect("legal");
    g.apply(&mut left, g.read_move(&pos, "2L").expect("2L is still read"))
        .expect("legal");
    assert_eq!(right, left);
    assert_eq!(json_of(&g, &right)["pits"]["south"], json!([0, 3, 0]));
}

/// A rule that only sets memory fired (it was counted 0 times), an `after move` rule among them; the
/// length cap of a game of rounds counts the whole match, and the report says so.
#[test]
fn issue_26_analyze_counts_rules_that_set_memory_and_says_what_its_cap_counts() {
    let dir = scratch("issue26", "analyze");
    let file = dir.join("memory.sow");
    std::fs::write(
        &file,
        r#"
game "Remembering"
board { pits 3  seeds 2  stores captures }
memory { player moves = 0 }
sow { direction ccw }
capture "counted" { when last.side == opponent and last.count == 2  add 1 to mover.moves }
after move "every move" { when true  add 1 to mover.moves }
end "no move" when no_moves remaining owner
end "long" when ply >= 30 remaining owner
"#,
    )
    .expect("write");
    let (out, err, code) = sowlang(&[
        "analyze",
        file.to_str().expect("path"),
        "--games",
        "4",
        "--players",
        "random,random",
        "--json",
    ]);
    assert_eq!(code, 0, "{err}");
    let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    let every = &report["rules"]["every move"];
    assert_eq!(every["kind"], "after move");
    assert!(every["total"].as_u64().is_some_and(|n| n >= 4), "{report}");
    assert!(report["rules"]["counted"]["total"].as_u64().is_some_and(|n| n > 0), "{report}");
    assert_eq!(report["max_plies_over"], "game");
    // A match of rounds: the cap counts every round's moves.
    let rounds = dir.join("rounds.sow");
    std::fs::write(
        &rounds,
        r#"
game "Endless rounds"
board { pits 2  seeds 2  stores captures }
sow { direction ccw }
end "one move a round" when round_ply == 1 remaining owner
rounds {
  match ends when round > 1000
  setup fill 2
}
"#,
    )
    .expect("write");
    let (out, err, code) = sowlang(&[
        "analyze",
        rounds.to_str().expect("path"),
        "--games",
        "2",
        "--players",
        "random,random",
        "--max-plies",
        "20",
    ]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("length cap 20 plies a match, every round counted"), "{out}");
}

/// `no_moves` in an `after move` rule was refused as "known only after a move", which an `after move`
/// rule is.
#[test]
fn issue_26_no_moves_in_an_after_move_rule_is_refused_for_what_it_is() {
    let failure = sowlang::load_text(
        std::path::Path::new("after.sow"),
        r#"
game "After"
board { pits 3  seeds 3 }
memory { player stuck = 0 }
sow { direction ccw }
after move "note" { when no_moves  set mover.stuck = 1 }
end "no move" when no_moves remaining owner
"#,
        &[],
    )
    .expect_err("refused");
    let message = &failure.diagnostics[0].message;
    assert!(!message.contains("known only after a move"), "{message}");
    assert!(
        message.contains("`after move` rules included") && message.contains("`end` rule"),
        "{message}"
    );
}

/// Seeds taken and sown again from the pit played, which `skip origin` passes over: the trace named
/// the pit played as where they were sown from, then said it was skipped.
#[test]
fn issue_26_the_trace_names_the_pit_taken_seeds_are_sown_from() {
    let g = invented(
        r#"
game "Taken seeds pass the origin"
board { pits 3  layout south [2, 0, 0] north [1, 0, 0] }
sow { direction ccw  skip origin }
capture "pull" {
  when last.side == mover and last.before == 0 and opposite(last).count > 0
  take opposite(last)
  sow taken from origin
}
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    let events = g.apply_traced(&mut pos, 1).expect("legal");
    let lines = g.narrate(&events);
    assert!(
        lines.iter().any(|l| l.contains("sows the 1 seed taken on, from south 2")),
        "{lines:#?}"
    );
    assert!(!lines.iter().any(|l| l.contains("taken on, from south 1")), "{lines:#?}");
}

/// J'odu takes the feeding rule of the document it comes from (a forfeit), not oware.sow's: a move
/// that leaves the starving opponent without seeds, when one would have fed them, is played and
/// ends the game, the seeds left going to the opponent.
#[test]
fn issue_26_jodu_forfeits_the_seeds_of_a_player_who_could_feed_and_did_not() {
    let jodu = sowlang::load_game(&root().join("variants/jodu.sow"), &[]).expect("jodu").game;
    let mut pos = jodu
        .position_from_json(r#"{"pits":{"south":[0,0,0,0,2,1],"north":[0,0,0,0,0,0]},"stores":{"south":17,"north":16},"to_move":"south"}"#)
        .expect("position");
    jodu.settle_start(&mut pos);
    // South 6 feeds north (north 1); south 5 (2 seeds) only reaches south 6 and north 1... south 5
    // sows south 6 and north 1: it feeds too. Both feed; the position after a non-feeding move is
    // below.
    assert_eq!(jodu.legal_moves(&pos), [5, 6]);
    let mut pos = jodu
        .position_from_json(r#"{"pits":{"south":[0,0,0,1,0,1],"north":[0,0,0,0,0,0]},"stores":{"south":17,"north":17},"to_move":"south"}"#)
        .expect("position");
    jodu.settle_start(&mut pos);
    // South 4 sows into south 5: north stays empty, while south 6 would have fed north 1.
    assert_eq!(jodu.legal_moves(&pos), [4, 6], "oware.sow's `feeding required` would list only 6");
    jodu.apply(&mut pos, 4).expect("a move that does not feed is played");
    assert!(pos.is_over());
    assert_eq!(pos.ended_by(), Some("feeding penalty"));
    assert_eq!(json_of(&jodu, &pos)["stores"], json!({"south": 17, "north": 19}));
}

/// J'odu's seeds a pit: from 15 a pit random games no longer ended (292 of 300 unfinished at 20,000
/// plies); the range allows only boards whose games end. Its top end, played at random, ends.
#[test]
fn issue_26_jodu_allows_only_boards_whose_games_end() {
    use rand::SeedableRng;
    let path = root().join("variants/jodu.sow");
    let top = JODU_MOST_SEEDS;
    let set = |v: i64| sowlang::Override {
        name: "seeds".into(),
        value: v,
    };
    assert!(
        sowlang::load_game(&path, &[set(top + 1)]).is_err(),
        "{} seeds a pit is refused",
        top + 1
    );
    let game = sowlang::load_game(&path, &[set(top)]).expect("the top of the range").game;
    for seed in 0..40 {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let played = game.random_playout(&mut pos, &mut rand::rngs::StdRng::seed_from_u64(seed), 20_000);
        assert!(played.finished, "game {seed} at {top} seeds a pit is unfinished after 20,000 plies");
    }
}

/// The most seeds a pit jodu.sow allows.
const JODU_MOST_SEEDS: i64 = 10;

/// Bao's end cites "runs out of seeds or cannot make a move" and reads both as having no move: the
/// file says so where it does it.
#[test]
fn issue_26_bao_says_that_running_out_of_seeds_is_having_no_move() {
    let text = std::fs::read_to_string(root().join("variants/bao.sow")).expect("bao.sow");
    let before_end = text.split("end \"cannot move\"").next().expect("the end rule");
    let comments = before_end.rsplit("\n\n").next().expect("its paragraph");
    assert!(
        comments.contains("# interpretation:") && comments.contains("runs out of seeds"),
        "{comments}"
    );
}

/// Moruba and Hus, both won by disabling the opponent, scored a repeated position differently (Moruba
/// by the seeds held, Hus as a draw): one reason and one result for both.
#[test]
fn issue_26_moruba_and_hus_end_a_repetition_alike_for_one_reason() {
    let rule = |file: &str| {
        let text = std::fs::read_to_string(root().join("variants").join(file)).expect("file");
        let at = text.find("end \"going round\"").expect("the repetition rule");
        let paragraph = text[..at].rsplit("\n\n").next().expect("its comment").to_string();
        let line = text[at..].lines().next().expect("the rule").to_string();
        (paragraph, line)
    };
    let (moruba_why, moruba) = rule("moruba.sow");
    let (hus_why, hus) = rule("hus.sow");
    assert_eq!(moruba, hus);
    assert!(moruba.ends_with("draw"), "{moruba}");
    let reason = |why: &str| why.split("and call it a draw").nth(1).map(str::to_string);
    assert!(
        reason(&moruba_why).is_some() && reason(&moruba_why) == reason(&hus_why),
        "{moruba_why}\n{hus_why}"
    );
}

/// The docs' game "Pass while behind": a player behind in captures may pass.
const PASS_WHILE_BEHIND: &str = r#"
game "Pass while behind"
board { pits 3  seeds 2  stores captures }
sow { direction ccw }
capture "two" { when last.side == opponent and last.count == 2  take last }
pass when captured(mover) < captured(opponent)
end "no move" when no_moves remaining owner
end "round and round" when repeated remaining owner
"#;

/// `pass when COND`: a move named `pass` while COND holds, played like any other move. One seed a
/// pit: south 3 sows its seed into north 1, which then holds 2, and takes them; north, behind by 2,
/// may pass (north 1 is empty: north's moves are 2, 3 and the pass); south, ahead, may not.
#[test]
fn issue_26_a_player_may_pass_while_the_rules_allow_it() {
    let g = invented(&PASS_WHILE_BEHIND.replace("seeds 2", "layout south [1, 1, 1] north [1, 1, 1]"));
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert_eq!(g.legal_moves(&pos), [1, 2, 3], "nobody is behind at the start");
    assert_eq!(g.read_move(&pos, "pass"), Some(g.pass_move()));
    let mut refused = pos.clone();
    assert!(matches!(g.apply(&mut refused, g.pass_move()), Err(MoveError::Illegal { .. })));
    g.apply(&mut pos, 3).expect("south 3");
    assert_eq!(json_of(&g, &pos)["pits"], json!({"south": [1, 1, 0], "north": [0, 1, 1]}));
    assert_eq!(json_of(&g, &pos)["stores"], json!({"south": 2, "north": 0}));
    let listed: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(listed, ["2", "3", "pass"]);
    let board = pos.seeds().to_vec();
    let events = g.apply_traced(&mut pos, g.pass_move()).expect("north passes");
    assert!(matches!(events.as_slice(), [Event::Pass { chosen: true, .. }, ..]), "{events:?}");
    assert_eq!(g.narrate(&events)[0], "north passes");
    assert_eq!(pos.seeds(), board, "no seed moves");
    assert_eq!(pos.to_move(), sowlang::Player::South);
    assert_eq!(json_of(&g, &pos)["ply"], 2);
    // South is ahead: no pass.
    let listed: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(listed, ["1", "2"]);
    // The position JSON lists the pass by name where it is allowed.
    let mut north_to_move = g.position_to_json(&pos);
    north_to_move["to_move"] = json!("north");
    let back = g.position_from_json(&north_to_move.to_string()).expect("a position of this board");
    assert_eq!(json_of(&g, &back)["legal_moves"], json!(["2", "3", "pass"]));
}

/// The pass on the command line, by the computer players and in `analyze`.
#[test]
fn issue_26_the_pass_is_played_by_the_command_line_the_players_and_analyze() {
    let dir = scratch("issue26", "pass");
    let file = dir.join("pass.sow");
    // Passing is always allowed; a pass back brings a position back, which ends the game.
    std::fs::write(&file, PASS_WHILE_BEHIND.replace("captured(mover) < captured(opponent)", "true")).expect("write");
    let path = file.to_str().expect("path");
    let (out, err, code) = sowlang(&["run", path, "--moves", "1,pass,pass", "--json"]);
    assert_eq!(code, 0, "{err}");
    let j: serde_json::Value = serde_json::from_str(&out).expect("JSON");
    assert_eq!(j["ended_by"], "round and round");
    let (out, err, code) = sowlang(&["run", path, "--moves", "pass", "--trace"]);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("south passes"), "{out}");
    for players in ["random,random", "greedy,alphabeta:2", "mcts:50,random"] {
        let (out, err, code) = sowlang(&["analyze", path, "--games", "3", "--players", players, "--max-plies", "60", "--json"]);
        assert_eq!(code, 0, "{players}: {err}");
        let report: serde_json::Value = serde_json::from_str(&out).expect("JSON");
        assert_eq!(report["games"], 3);
    }
    // A pass refused where the rules do not allow it.
    let (_, err, code) = sowlang(&["run", "variants/oware.sow", "--moves", "pass"]);
    assert_ne!(code, 0);
    assert!(err.contains("pass"), "{err}");
}

/// With a pass, a player's moves must leave room for it: 64 pits a player and a pass are refused.
#[test]
fn issue_26_a_pass_needs_a_move_number_of_its_own() {
    let failure = sowlang::load_text(
        std::path::Path::new("wide.sow"),
        r#"
game "Wide"
board { pits 64  seeds 1 }
sow { direction ccw }
pass when true
end "no move" when no_moves remaining owner
"#,
        &[],
    )
    .expect_err("refused");
    assert!(
        failure.diagnostics.iter().any(|d| d.message.contains("and the pass make 65")),
        "{:?}",
        failure.diagnostics
    );
    assert!(
        sowlang::load_text(
            std::path::Path::new("narrow.sow"),
            "game \"Narrow\"\nboard { pits 63  seeds 1 }\nsow { direction ccw }\npass when true\nend \"no move\" when no_moves remaining owner\n",
            &[]
        )
        .is_ok()
    );
}

/// A pass is allowed by its own rule, whatever `captures required` says of the pits' moves; a phase's
/// pass rule holds in that phase.
#[test]
fn issue_26_a_pass_in_a_phase_and_with_captures_required() {
    let g = invented(
        r#"
game "Pass in a phase"
board { pits 3  layout south [1, 1, 1] north [1, 1, 1]  stores captures }
sow { direction ccw }
captures required
capture "one" { when last.side == opponent and last.count == 2  take last }
phase "opening" when ply < 2 {
  pass when true
}
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    // South 3 sows into north 1 (2): a capture, so only it may be played, and the pass.
    let names: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(names, ["3", "pass"]);
    g.apply(&mut pos, g.pass_move()).expect("south passes");
    g.apply(&mut pos, g.pass_move()).expect("north passes");
    // The opening is over: no pass.
    let names: Vec<String> = g.legal_moves(&pos).iter().map(|&k| g.name_move(&pos, k)).collect();
    assert_eq!(names, ["3"]);
}

/// Rules that compare `lap` or `taken` with a number keep the loop watch: they can tell apart only
/// the laps up to that number (the watch looks past it) and the seeds taken up to one past it (the
/// watch compares `taken` cut off there).
#[test]
fn issue_26_comparing_lap_or_taken_with_a_number_keeps_the_loop_watch() {
    let looping = LONG_RELAY.replace("relay limit 2000", "").replace(
        "move 1 from (if pit(north, 1).count > 0 then pit(north, 1) else pit(north, 2)) to pit(north, 3)",
        "move 1 from pit(north, 1) to pit(north, 2)\n  move 1 from pit(north, 2) to pit(north, 1)",
    );
    for when in ["lap > 0", "lap == 1 or lap >= 2", "taken == 0", "lap in 1..900 or taken in {0, 5}"] {
        let g = invented(&looping.replace("when true", &format!("when {when}")));
        let why = refusal(&g, 1);
        assert!(why.contains("would start as lap"), "`{when}`: {why}");
    }
    // The watch starts past the laps a rule tells apart: lap 700 is still told apart, so the repeat is
    // seen after it.
    let g = invented(&looping.replace("when true", "when lap != 700 or last.count > 0"));
    let why = refusal(&g, 1);
    let lap: u32 = why
        .split("would start as lap ")
        .nth(1)
        .and_then(|rest| rest.split(|c: char| !c.is_ascii_digit()).next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("{why}"));
    assert!(lap > 700, "{why}");
    // A number past the limit tells no laps apart: the watch sees the repeat as if it were not there.
    let g = invented(&looping.replace("when true", "when lap != 5000"));
    let why = refusal(&g, 1);
    assert!(why.contains("would start as lap"), "{why}");
}

const TAKING_ROUND: &str = r#"
game "Taking round"
board { pits 3  layout south [1, 0, 0] north [0, 0, 1] }
sow { direction ccw }
capture "take it and sow it again" {
  when last.side == south and (taken > 0 or lap == 1)
  take last
  sow taken from pit(south, 2)
}
end "no move" when no_moves remaining owner
"#;

/// The same when `taken` grows: south's seed is taken and sown back into south 2 every lap, `taken`
/// growing by one; a rule that tells apart no seeds taken from some still sees the board come back
/// (the watch compares `taken` cut off at 1). Read otherwise (`taken + 0 > 0`) only the limit ends it.
#[test]
fn issue_26_a_loop_that_takes_is_seen_when_taken_is_compared_with_a_number() {
    let docs = std::fs::read_to_string(root().join("docs/language.md")).expect("the reference");
    assert!(
        docs.contains(TAKING_ROUND.trim()),
        "docs/language.md no longer shows:\n{TAKING_ROUND}"
    );
    let g = invented(TAKING_ROUND);
    let why = refusal(&g, 1);
    assert!(why.contains("would start as lap"), "{why}");
    let g = invented(&TAKING_ROUND.replace("taken > 0", "taken + 0 > 0"));
    let why = refusal(&g, 1);
    assert!(why.contains("1000 laps"), "{why}");
}
