//! Issue 26, one rule model: rules at every moment of a move (`at turn start`, `at each seed`, `at lap
//! end`, `after capture`, `at move end`), the actions every moment may use (`take N from`, `sow from`,
//! `close`/`open`, takes and another move after the move) and the questions a rule may ask
//! (`next(PIT where COND)`, `previous(...)`, `in_hand`, `lap_start`, `first_lap_end`), on tiny invented
//! boards. Every board below is worked out by hand from the rules written above it.
//!
//! Cells on a board of one row a player, counter-clockwise: south's pits 1..N, then north's 1..N. The
//! pit across from north's pit k is south's pit N + 1 - k.

use super::support::{after, invented as game, played};

use serde_json::json;
use sowlang::Event;

fn rows(v: &serde_json::Value) -> (serde_json::Value, serde_json::Value, serde_json::Value, serde_json::Value) {
    (
        v["pits"]["south"].clone(),
        v["pits"]["north"].clone(),
        v["stores"]["south"].clone(),
        v["stores"]["north"].clone(),
    )
}

/// A rule at the start of a turn acts before the seeds are lifted: south's pit 3 holds 2, so one seed
/// goes to south's store first and the move sows the other one into north 1.
#[test]
fn a_rule_at_turn_start_acts_before_anything_is_lifted() {
    let g = game(
        r#"
game "Tax"
board { pits 3  seeds 2 }
sow { direction ccw }
at turn start "tax" { when origin.count == 2  move 1 from origin to store(mover) }
end "no move" when no_moves remaining owner
"#,
    );
    assert_eq!(rows(&after(&g, &[3])), (json!([2, 2, 0]), json!([3, 2, 2]), json!(1), json!(0)));
    // North's pit 1 holds 3: no tax, its three seeds go to north 2, 3 and south 1.
    assert_eq!(rows(&after(&g, &[3, 1])), (json!([3, 2, 0]), json!([0, 3, 3]), json!(1), json!(0)));
}

/// The rules of a lap's end, in order: the capture rules (the first that holds), then `after capture`
/// (only when a capture rule was carried out), then every `at lap end` rule that holds.
const LAP_END: &str = r#"
game "Lap end"
board { pits 4  layout south [1, 1, 0, 1] north [1, 1, 1, 1] }
memory { player laps = 0  player after = 0 }
sow { direction ccw }
capture "two" { when last.side == opponent and last.count == 2  take last }
after capture "and the next" { when true  take next(last)  add 1 to mover.after }
at lap end "count" { when true  add 1 to mover.laps }
end "no move" when no_moves remaining owner
"#;

#[test]
fn after_capture_rules_follow_a_capture_and_lap_end_rules_follow_every_lap() {
    let g = game(LAP_END);
    // South's 4 sows into north 1 (now 2): "two" takes them, "and the next" takes north 2's seed, and
    // "count" counts the lap.
    let one = after(&g, &[4]);
    assert_eq!(rows(&one), (json!([1, 1, 0, 0]), json!([0, 0, 1, 1]), json!(3), json!(0)));
    assert_eq!(one["memory"]["laps"], json!({"south": 1, "north": 0}));
    assert_eq!(one["memory"]["after"], json!({"south": 1, "north": 0}));
    // North's 3 sows into its own pit 4 (now 2): no capture, so no `after capture` rule; the lap is counted.
    let two = after(&g, &[4, 3]);
    assert_eq!(rows(&two), (json!([1, 1, 0, 0]), json!([0, 0, 0, 2]), json!(3), json!(0)));
    assert_eq!(two["memory"]["after"], json!({"south": 1, "north": 0}));
    assert_eq!(two["memory"]["laps"], json!({"south": 1, "north": 1}));
}

/// After the move a rule may take seeds and give the mover another move: south's 1 sows its seed into
/// south 2 (now 2), which the rule takes, and south moves again.
#[test]
fn an_after_move_rule_takes_and_gives_another_move() {
    let g = game(
        r#"
game "Sweep"
board { pits 3  seeds 1 }
sow { direction ccw }
after move "pair" { when last.side == mover and last.count == 2  take last  then another move }
end "no move" when no_moves remaining owner
"#,
    );
    let pos = played(&g, &[1]);
    assert_eq!(pos.to_move(), sowlang::Player::South);
    assert_eq!(rows(&after(&g, &[1])), (json!([0, 0, 1]), json!([1, 1, 1]), json!(2), json!(0)));
}

/// `take N from PIT` takes part of a pit; `close` takes a pit out of play (its seeds stay, sowing
/// passes it over, it cannot be played) and `open` brings it back.
#[test]
fn take_some_seeds_and_close_and_open_pits() {
    let g = game(
        r#"
game "Part and close"
board { pits 3  layout south [1, 0, 2] north [1, 2, 3] }
sow { direction ccw }
capture "two of three" { when last.side == opponent and last.count == 3  take 2 from last }
at lap end "close a single" { when last.side == opponent and last.count == 1  close last }
at lap end "open on two" { when last.count == 2  open board where pit.closed }
end "no move" when no_moves remaining owner
"#,
    );
    // South's 3 sows north 1 (2) and north 2 (3): two of north 2's three seeds go to south's store, and
    // north 2, left with one, is closed.
    let one = after(&g, &[3]);
    assert_eq!(rows(&one), (json!([1, 0, 0]), json!([2, 1, 3]), json!(2), json!(0)));
    assert_eq!(one["closed"]["north"], json!([false, true, false]));
    let pos = played(&g, &[3]);
    assert!(!g.legal_moves(&pos).contains(&2), "a closed pit is not played");
    // North's 1 (2 seeds) passes the closed north 2: north 3 (4), then south 1 (2), where the lap ends:
    // no capture, not a single seed, and two seeds open every closed pit again.
    let two = after(&g, &[3, 1]);
    assert_eq!(rows(&two), (json!([2, 0, 0]), json!([0, 1, 4]), json!(2), json!(0)));
    assert_eq!(two["closed"]["north"], json!([false, false, false]));
}

/// `sow from PIT` picks the pit's seeds up and sows them on from the pit after it, as a lap of the
/// move whose end the rules read again.
#[test]
fn sow_from_a_stated_pit_is_a_lap_of_the_move() {
    let g = game(
        r#"
game "Relaunch"
board { pits 3  layout south [0, 0, 1] north [3, 0, 2] }
sow { direction ccw }
capture "from across" { when last.side == opponent and last.count == 4  sow from opposite(last) }
end "no move" when no_moves remaining owner
"#,
    );
    // South's 3 sows into north 1 (now 4): the pit across, south 3, is empty, so nothing is sown again.
    assert_eq!(rows(&after(&g, &[3])), (json!([0, 0, 0]), json!([4, 0, 2]), json!(0), json!(0)));
    let g = game(
        r#"
game "Relaunch"
board { pits 3  layout south [0, 2, 2] north [3, 0, 2] }
sow { direction ccw }
capture "from across" { when last.side == opponent and last.count == 4  sow from opposite(north 1) }
end "no move" when no_moves remaining owner
"#
        .replace("opposite(north 1)", "previous(last)")
        .as_str(),
    );
    // South's 2 sows south 3 (3) and north 1 (4): the pit before north 1, south 3, is picked up and its
    // three seeds go to north 1, 2 and 3.
    let one = after(&g, &[2]);
    assert_eq!(rows(&one), (json!([0, 0, 0]), json!([5, 1, 3]), json!(0), json!(0)));
}

/// `next(PIT where COND)`: the first pit after PIT along the track for which COND holds;
/// `previous(...)` the last before it.
#[test]
fn next_and_previous_where_find_the_first_pit_that_holds() {
    let g = game(
        r#"
game "Seek"
board { pits 4  layout south [0, 0, 0, 2] north [0, 1, 3, 2] }
sow { direction ccw }
capture "the next three" { when last.side == opponent  take next(last where pit.count == 3) }
capture "unused" { when false  take previous(last where pit.count == 3) }
end "no move" when no_moves remaining owner
"#,
    );
    // South's 4 sows north 1 and north 2 (now 2): the first pit after it holding 3 is north 3.
    assert_eq!(
        rows(&after(&g, &[4])),
        (json!([0, 0, 0, 0]), json!([1, 2, 0, 2]), json!(3), json!(0))
    );
    let g = game(
        r#"
game "Seek back"
board { pits 4  layout south [3, 0, 0, 2] north [0, 1, 3, 2] }
sow { direction ccw }
capture "the one before" { when last.side == opponent  take previous(last where pit.count == 3) }
end "no move" when no_moves remaining owner
"#,
    );
    // Before north 2, going back: north 1 (1), south 4 (0, just emptied), south 3, 2 (0), south 1 (3).
    assert_eq!(
        rows(&after(&g, &[4])),
        (json!([0, 0, 0, 0]), json!([1, 2, 3, 2]), json!(3), json!(0))
    );
}

/// `in_hand` (seeds still to sow, in a trigger), `lap_start` (the pit a lap started from) and
/// `first_lap_end` (where the move's first lap ended).
#[test]
fn in_hand_lap_start_and_first_lap_end() {
    let g = game(
        r#"
game "Where and how many"
board { pits 3  layout south [0, 2, 1] north [0, 1, 0] }
memory { player hand = 0  player start = no_pit  player first = no_pit }
sow { direction ccw  relay when last.count > 1 }
trigger "hand" { when pit.side == opponent  add in_hand to mover.hand }
after move "where" { when true  set mover.start = lap_start  set mover.first = first_lap_end }
end "no move" when no_moves remaining owner
"#,
    );
    // South's 2: south 3 (2), north 1 (1) ends the first lap (in hand then: 0); no relay (1 seed).
    // Then the seeds in hand as each falls on north's side: 0.
    let one = after(&g, &[2]);
    assert_eq!(rows(&one), (json!([0, 0, 2]), json!([1, 1, 0]), json!(0), json!(0)));
    assert_eq!(one["memory"]["hand"]["south"], json!(0));
    assert_eq!(one["memory"]["first"]["south"], json!("north 1"));
    assert_eq!(one["memory"]["start"]["south"], json!("south 2"));
    // North's 2 sows north 3. South's 3 (2 seeds): north 1 (2, one seed still in hand as it falls), north
    // 2 (1, none left): the lap ends with one seed, no relay.
    let three = after(&g, &[2, 2, 3]);
    assert_eq!(rows(&three), (json!([0, 0, 0]), json!([2, 1, 1]), json!(0), json!(0)));
    assert_eq!(three["memory"]["hand"]["south"], json!(1));
    assert_eq!(three["memory"]["first"]["south"], json!("north 2"));
    assert_eq!(three["memory"]["start"]["south"], json!("south 3"));
    // North's 1 (2 seeds): north 2 (2), north 3 (2), where the first lap ends; the relay lifts north 3's
    // two seeds: south 1 (1, one in hand), south 2 (1, none). The last lap started from north 3.
    let four = after(&g, &[2, 2, 3, 1]);
    assert_eq!(rows(&four), (json!([1, 1, 0]), json!([0, 2, 0]), json!(0), json!(0)));
    assert_eq!(four["memory"]["hand"]["north"], json!(1));
    assert_eq!(four["memory"]["first"]["north"], json!("north 3"));
    assert_eq!(four["memory"]["start"]["north"], json!("north 3"));
}

/// The trace names a closed pit and the rules of every moment.
#[test]
fn the_trace_tells_a_closed_pit() {
    let g = game(
        r#"
game "Close"
board { pits 3  seeds 1 }
sow { direction ccw }
at lap end "close" { when true  close last }
end "no move" when no_moves remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let events = g.apply_traced(&mut pos, 1).expect("legal");
    assert!(events.contains(&Event::Close {
        rule: "close".into(),
        cell: 1,
        closing: true
    }));
}

/// A value kept once for the whole game (`memory { game NAME = N }`, read and set as `game.NAME`): every
/// capture counts in the one value, whoever makes it, and an end rule reads it. The position JSON shows it
/// as one value and reads it back.
#[test]
fn memory_kept_for_the_whole_game() {
    let g = game(
        r#"
game "Game memory"
board { pits 3  seeds 2 }
memory { game captures = 0  game spot = no_pit }
sow { direction ccw }
capture "two or three" { when last.side == opponent and last.count in 2..3  take last  add 1 to game.captures  set game.spot = last }
end "two captures" when game.captures >= 2 remaining owner
end "no move" when no_moves remaining owner
"#,
    );
    // South's 3: north 1 (3), north 2 (3): north 2 is taken.
    let one = after(&g, &[3]);
    assert_eq!(rows(&one), (json!([2, 2, 0]), json!([3, 0, 2]), json!(3), json!(0)));
    assert_eq!(one["memory"], json!({"captures": 1, "spot": "north 2"}));
    // North's 1 (3 seeds): north 2 (1), north 3 (3), south 1 (3): south 1 is taken, the second capture
    // of the game: it ends, the seeds left going to their owners (south 2: 2; north 2, 3: 1 and 3).
    let two = after(&g, &[3, 1]);
    assert_eq!(two["over"], json!(true));
    assert_eq!(rows(&two), (json!([0, 0, 0]), json!([0, 0, 0]), json!(5), json!(7)));
    let back = g
        .position_from_json(&serde_json::to_string(&one).expect("json"))
        .expect("reads back");
    assert_eq!(g.position_to_json(&back)["memory"], g.position_to_json(&played(&g, &[3]))["memory"]);
}

/// The docs' "Sudden death": south's 3 sows north 1 and north 2, which then holds 3; "three in a pit"
/// takes them and ends the game: each player takes the seeds of their own row (south 2 + 2, north
/// 3 + 2), and south wins as the rule says, though north holds more (south 3 + 4 = 7, north 5).
const SUDDEN_DEATH: &str = r#"
game "Sudden death"
board { pits 3  seeds 2  stores captures }
sow { direction ccw }
at lap end "three in a pit" { when last.side == opponent and last.count == 3  take last  end game remaining owner winner mover }
end "no move" when no_moves remaining owner
"#;

#[test]
fn a_rule_ends_the_game_where_it_fires_with_its_stated_result() {
    let g = game(SUDDEN_DEATH);
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    let events = g.apply_traced(&mut pos, 3).expect("legal");
    let j = super::support::json_of(&g, &pos);
    assert_eq!(rows(&j), (json!([0, 0, 0]), json!([0, 0, 0]), json!(7), json!(5)));
    assert_eq!(j["over"], true);
    assert_eq!(j["winner"], "south");
    assert_eq!(pos.ended_by(), Some("three in a pit"));
    assert_eq!(j["ply"], 1);
    assert!(
        events
            .iter()
            .any(|e| matches!(e, Event::GameEnds { rule, stated: true, .. } if rule == "three in a pit")),
        "{events:?}"
    );
    // Without a stated result the stores decide.
    let g = game(
        &SUDDEN_DEATH
            .replace(" winner mover", "")
            .replace("seeds 2", "layout south [0, 0, 2] north [5, 2, 0]"),
    );
    let j = after(&g, &[3]);
    // South 3's two seeds: north 1 (6), north 2 (3), taken: south 3; north's row goes to north: 6.
    assert_eq!(rows(&j), (json!([0, 0, 0]), json!([0, 0, 0]), json!(3), json!(6)));
    assert_eq!(j["winner"], "north");
}

/// The move stops where the game ends: no later lap, relay or rule. South's 1 sows south 2 and 3
/// (each 3 now): the relay would lift south 3, but "three" ends the game at the first lap's end;
/// `remaining` is not said, so the seeds stay on the board, counted for nobody, and the stores (0
/// each) make a draw.
#[test]
fn nothing_of_the_move_follows_the_end_of_the_game() {
    let g = game(
        r#"
game "Stop"
board { pits 3  layout south [2, 2, 2] north [1, 1, 1]  stores captures }
memory { player after = 0 }
sow { direction ccw  relay when last.count > 1 }
at lap end "three" { when last.count == 3  end game }
at move end "after" { when true  set mover.after = 1 }
end "no move" when no_moves remaining owner
"#,
    );
    let j = after(&g, &[1]);
    assert_eq!(rows(&j), (json!([0, 3, 3]), json!([1, 1, 1]), json!(0), json!(0)));
    assert_eq!(j["winner"], "draw");
    assert_eq!(j["memory"]["after"]["south"], 0, "{j}");
}

/// At the start of a turn: a move from a pit of one seed gives the game up before anything is
/// lifted. South plays 1 (one seed): north wins, the board untouched.
#[test]
fn a_rule_at_turn_start_may_end_the_game() {
    let g = game(
        r#"
game "Resign"
board { pits 3  layout south [1, 2, 0] north [1, 1, 1]  stores captures }
sow { direction ccw }
at turn start "resigns" { when origin.count == 1  end game loser mover }
end "no move" when no_moves remaining owner
"#,
    );
    let j = after(&g, &[1]);
    assert_eq!(rows(&j), (json!([1, 2, 0]), json!([1, 1, 1]), json!(0), json!(0)));
    assert_eq!(j["winner"], "north");
    // Pit 2 (two seeds) plays as usual.
    let j = after(&g, &[2]);
    assert_eq!(rows(&j), (json!([1, 0, 1]), json!([2, 1, 1]), json!(0), json!(0)));
    assert_eq!(j["over"], false);
}

/// In a game of rounds, `end round` ends the round (south, who made three, wins it; the seeds left go
/// back to their owners: south 3 + 2 = 5, north 3, and the next round is filled two a pit: south
/// both pits and 1 in store, north one pit and 1 in store) and `end game` the whole match.
#[test]
fn end_round_and_end_game_in_a_game_of_rounds() {
    let text = r#"
game "Rounds"
board { pits 2  seeds 2 }
sow { direction ccw }
at lap end "three" { when last.side == opponent and last.count == 3  take last  end round winner mover }
end "stuck" when no_moves remaining owner
rounds { setup fill 2  match ends when round > 50  match winner most rounds }
"#;
    let g = game(text);
    let j = after(&g, &[2]);
    assert_eq!(j["round"], 2, "{j}");
    assert_eq!(j["over"], false);
    assert_eq!(rows(&j), (json!([2, 2]), json!([2, 0]), json!(1), json!(1)));
    assert_eq!(j["rounds_won"], json!({"south": 1, "north": 0}));
    let g = game(&text.replace("end round", "end game"));
    let j = after(&g, &[2]);
    assert_eq!(j["over"], true);
    assert_eq!(j["winner"], "south");
    assert_eq!(pos_round(&j), 1);
}

fn pos_round(j: &serde_json::Value) -> i64 {
    j["round"].as_i64().unwrap_or(1)
}

/// `can_move(P)` read in a `forbid ... after move` and in an `end` rule. North's row is empty: south 1
/// (one seed) would leave it so, and north could not move; south 3's two seeds reach north 1 and
/// north 2. So only 3 is legal; after it north can move, and the game goes on.
#[test]
fn can_move_asks_whether_a_player_has_a_legal_move_on_the_board() {
    let g = game(
        r#"
game "Leave a move"
board { pits 3  layout south [1, 0, 2] north [0, 0, 0]  stores captures }
sow { direction ccw }
forbid "leave the opponent a move" after move when not can_move(opponent)
end "stuck" when not can_move(to_move) remaining owner
"#,
    );
    let mut pos = g.initial(None);
    g.settle_start(&mut pos);
    assert_eq!(g.legal_moves(&pos), [3]);
    let j = after(&g, &[3]);
    assert_eq!(rows(&j), (json!([1, 0, 0]), json!([1, 1, 0]), json!(0), json!(0)));
    assert_eq!(j["over"], false);
    // North 2 sows into north 3; south 1 then leaves north its seeds in north 1 and north 3, and is
    // legal.
    let pos = played(&g, &[3, 2]);
    assert_eq!(g.legal_moves(&pos), [1]);
    // The end rule: north, to move after south 1, can move. With north's row empty instead (north
    // 2's seed gone to south 1), north could not, and the game would end.
    let j = after(&g, &[3, 2, 1]);
    assert_eq!(rows(&j), (json!([0, 1, 0]), json!([1, 0, 1]), json!(0), json!(0)));
    assert_eq!(j["over"], false);
    // Without the forbid, south 1 leaves north nothing to play: "stuck" ends the game, south's seed
    // in south 2 going to south.
    let g = game(
        r#"
game "Stuck"
board { pits 3  layout south [1, 0, 2] north [0, 0, 0]  stores captures }
sow { direction ccw }
end "stuck" when not can_move(to_move) remaining owner
"#,
    );
    let j = after(&g, &[1]);
    assert_eq!(j["ended_by"], "stuck");
    assert_eq!(rows(&j), (json!([0, 0, 0]), json!([0, 0, 0]), json!(3), json!(0)));
}

/// Rules at a round's start and end. Round 1 ends at south's first move (south 2 makes three in
/// north 2: "three" ends the round, south winning it); "tally" counts it for south, who moved last.
/// The seeds go back (south 3 + 2 = 5, north 3) and round 2 is filled two a pit: south both pits and
/// 1 in store, north one pit and 1 in store; south opens it, and "a seed back" moves south's stored
/// seed into south 2. "starts" counts round 1's start and round 2's.
#[test]
fn rules_at_the_start_and_the_end_of_a_round() {
    let g = game(
        r#"
game "Rounds"
board { pits 2  seeds 2 }
memory { player tally = 0  game starts = 0 }
sow { direction ccw }
at lap end "three" { when last.side == opponent and last.count == 3  take last  end round winner mover }
at round end "tally" { when true  add 1 to mover.tally }
at round start "starts" { when true  add 1 to game.starts }
at round start "a seed back" { when round > 1  move 1 from store(mover) to pit(mover, 2) }
end "stuck" when no_moves remaining owner
rounds { setup fill 2  match ends when round > 50  match winner most rounds }
"#,
    );
    let start = after(&g, &[]);
    assert_eq!(start["memory"]["starts"], 1, "{start}");
    let j = after(&g, &[2]);
    assert_eq!(j["round"], 2, "{j}");
    assert_eq!(rows(&j), (json!([2, 3]), json!([2, 0]), json!(0), json!(1)));
    assert_eq!(j["memory"]["tally"], json!({"south": 1, "north": 0}));
    assert_eq!(j["memory"]["starts"], 2);
}

/// A phase sets aside a usual `forbid`: in the opening (the first two moves) single seeds may be
/// played. South 1 sows its seed into south 2; north 3 sows its seed into south 1; from the third
/// move on, south 1's single seed stays again and only south 2 (3 seeds) may be played.
#[test]
fn a_phase_sets_aside_a_usual_forbid() {
    let g = game(
        r#"
game "Opening"
board { pits 3  layout south [1, 2, 0] north [1, 1, 1] }
sow { direction ccw }
forbid "single seeds stay" when origin.count == 1
phase "opening" when ply < 2 {
  drop forbid "single seeds stay"
}
end "no move" when no_moves remaining owner
"#,
    );
    let pos = played(&g, &[]);
    assert_eq!(g.legal_moves(&pos), [1, 2]);
    let pos = played(&g, &[1]);
    assert_eq!(g.legal_moves(&pos), [1, 2, 3]);
    let pos = played(&g, &[1, 3]);
    assert_eq!(super::support::json_of(&g, &pos)["pits"]["south"], json!([1, 3, 0]));
    assert_eq!(g.legal_moves(&pos), [2]);
}
