//! Memory on tiny invented boards, each result worked out by hand: values kept for each player and
//! each pit, set and added to by rules and `after move` rules, read by phases and forbid rules (a
//! forced starting pit), part of the position (its JSON, read back, and its identity for `repeated`)
//! and of the trace; and pits that change kind (`claim`) with limits and bans, in a small game
//! written from docs/language.md alone.

use super::support::{after, invented as game, json_of, played};

use serde_json::json;
use sowlang::{Game, Position};

fn from(game: &Game, position: serde_json::Value) -> Position {
    let mut pos = game.position_from_json(&position.to_string()).expect("a position of this board");
    game.settle_start(&mut pos);
    pos
}

/// Two pits a row, one seed each: south 1, south 2, north 1, north 2 round the board. A player's first
/// move is sown in the phase "own opening", without captures, until an `after move` rule notes that
/// the player has opened. A trigger counts, per pit, the seeds that fell into it on the mover's
/// opponent's side.
const OPENINGS: &str = r#"
game "Openings"
board { pits 2 seeds 1 }
memory {
  player opened = 0
  pit counted = 0
}
sow { direction ccw }
phase "own opening" when mover.opened == 0 { no captures }
capture "two or three" { when last.side == opponent and last.count in 2..3  take last }
trigger "count" { when pit.side == opponent  add 1 to pit.counted }
after move "opened" { when mover.opened == 0  set mover.opened = 1 }
end "no move" when no_moves
"#;

/// South 2 sows into north 1 (1 -> 2): south's opening, so nothing is taken; north 1 counted once, south
/// has opened. North 2 sows into south 1 (1 -> 2): north's own opening, though south has opened, so
/// nothing is taken; south 1 counted once. South 1 (2 seeds) sows into south 2 (not counted: south's own
/// side) and north 1 (2 -> 3, counted twice now): south has opened, so "two or three" takes north 1.
/// North is left without seeds, and the game ends.
#[test]
fn player_and_pit_memory_are_set_added_to_and_read_by_a_phase() {
    let g = game(OPENINGS);
    let first = after(&g, &[2]);
    assert_eq!(first["pits"], json!({"south": [1, 0], "north": [2, 1]}));
    assert_eq!(first["stores"], json!({"south": 0, "north": 0}));
    assert_eq!(
        first["memory"],
        json!({"opened": {"south": 1, "north": 0}, "counted": {"south": [0, 0], "north": [1, 0]}})
    );
    let second = after(&g, &[2, 2]);
    assert_eq!(second["pits"], json!({"south": [2, 0], "north": [2, 0]}));
    assert_eq!(
        second["stores"],
        json!({"south": 0, "north": 0}),
        "north's first move takes nothing"
    );
    assert_eq!(
        second["memory"],
        json!({"opened": {"south": 1, "north": 1}, "counted": {"south": [1, 0], "north": [1, 0]}})
    );
    let third = after(&g, &[2, 2, 1]);
    assert_eq!(third["pits"], json!({"south": [0, 1], "north": [0, 0]}));
    assert_eq!(third["stores"], json!({"south": 3, "north": 0}));
    assert_eq!(
        third["memory"],
        json!({"opened": {"south": 1, "north": 1}, "counted": {"south": [1, 0], "north": [2, 0]}})
    );
    assert_eq!(third["over"], true);
}

/// Without the phase's memory test the first move would take: the same file with the usual rules
/// throughout takes north 1 (2 seeds) at once.
#[test]
fn the_phase_is_what_keeps_the_first_move_from_taking() {
    let g = game(&OPENINGS.replace("phase \"own opening\" when mover.opened == 0 { no captures }\n", ""));
    let first = after(&g, &[2]);
    assert_eq!(first["pits"], json!({"south": [1, 0], "north": [0, 1]}));
    assert_eq!(first["stores"]["south"], 2);
}

/// The trace says what each rule changed, and only what changed: the second move's `after move` rule
/// finds north not yet opened, the third finds south opened already and says nothing.
#[test]
fn the_trace_tells_when_a_rule_changes_memory() {
    let g = game(OPENINGS);
    let mut pos = played(&g, &[]);
    let mut lines = Vec::new();
    for k in [2, 2, 1] {
        let events = g.apply_traced(&mut pos, k).expect("legal");
        lines.extend(g.narrate(&events));
    }
    let memory: Vec<&str> = lines.iter().map(|l| l.trim()).filter(|l| l.contains(" is now ")).collect();
    assert_eq!(
        memory,
        [
            "\"count\": north 1's counted is now 1",
            "\"opened\": south's opened is now 1",
            "\"count\": south 1's counted is now 1",
            "\"opened\": north's opened is now 1",
            "\"count\": north 1's counted is now 2",
        ]
    );
}

/// The position JSON written and read back is the same position, memory included, with the same
/// identity; a value left out keeps its start; a game without memory shows none.
#[test]
fn memory_round_trips_through_the_position_json() {
    let g = game(OPENINGS);
    let pos = played(&g, &[2, 2]);
    let text = g.position_to_json(&pos).to_string();
    let back = g.position_from_json(&text).expect("reads back");
    assert_eq!(
        (back.seeds(), back.claimed(), back.closed()),
        (pos.seeds(), pos.claimed(), pos.closed())
    );
    assert_eq!((back.to_move(), back.ply()), (pos.to_move(), pos.ply()));
    assert_eq!(g.hash(&back), g.hash(&pos));
    assert_eq!(g.position_to_json(&back).to_string(), text);

    let partial = from(
        &g,
        json!({"pits": {"south": [1, 1], "north": [1, 1]}, "stores": {"south": 0, "north": 0}, "to_move": "north",
               "memory": {"opened": {"south": 1, "north": 1}}}),
    );
    assert_eq!(
        json_of(&g, &partial)["memory"],
        json!({"opened": {"south": 1, "north": 1}, "counted": {"south": [0, 0], "north": [0, 0]}})
    );
    // North has opened: its pit 2 into south 1 (1 -> 2) takes.
    let mut p = partial.clone();
    g.apply(&mut p, 2).expect("legal");
    assert_eq!(json_of(&g, &p)["stores"], json!({"south": 0, "north": 2}));

    let unknown = g.position_from_json(
        &json!({"pits": {"south": [1, 1], "north": [1, 1]}, "stores": {"south": 0, "north": 0}, "to_move": "south",
                "memory": {"opend": {"south": 1, "north": 1}}})
        .to_string(),
    );
    assert!(unknown.expect_err("refused").message.contains("no memory named `opend`"));

    let plain = game("game \"Plain\"\nboard { pits 2 seeds 1 }\nsow { direction ccw }\nend \"no move\" when no_moves\n");
    assert!(after(&plain, &[1]).get("memory").is_none());
}

/// One seed a side on a board of one pit a row: south's seed goes into north 1, north's two seeds go
/// into south 1 and back into north 1, and the board is as at the start after two moves. A count of
/// moves in memory makes the position a new one, so `repeated` does not end the game.
#[test]
fn memory_counts_in_the_identity_of_a_position() {
    let rules = |memory: &str| {
        format!(
            "game \"Round and round\"\nboard {{ pits 1 seeds 1 }}\n{memory}\nsow {{ direction ccw }}\nend \"again\" when repeated\nend \"no move\" when no_moves\n"
        )
    };
    let forgetful = game(&rules(""));
    let back = after(&forgetful, &[1, 1]);
    assert_eq!(back["pits"], json!({"south": [1], "north": [1]}));
    assert_eq!(back["over"], true);
    let counting = game(&rules(
        "memory { player moves = 0 }\nafter move \"count\" { when mover.moves >= 0  add 1 to mover.moves }",
    ));
    let on = after(&counting, &[1, 1]);
    assert_eq!(on["pits"], json!({"south": [1], "north": [1]}));
    assert_eq!(on["memory"], json!({"moves": {"south": 1, "north": 1}}));
    assert_eq!(on["over"], false);
}

/// The next player must start where the last move ended (when that is in the next player's row and
/// holds seeds): a pit kept in memory, set by one `after move` rule and forgotten by another once used.
const FORCED: &str = r#"
game "Forced start"
board { pits 3 seeds 2 }
memory { player start = no_pit }
sow { direction ccw }
after move "used" { when mover.start != no_pit  set mover.start = no_pit }
after move "where it ended" { when last.side == opponent  set opponent.start = last }
forbid "the move must start where the last one ended" when mover.start.count > 0 and origin != mover.start
end "no move" when no_moves
"#;

/// From [2, 2, 2] each: south 3 sows into north 1 and north 2 (2 -> 3), so north must play 2. North 2
/// (3 seeds) sows into north 3, south 1, south 2 (2 -> 3): north's start is forgotten, south must play 2.
/// South 2 (3 seeds) sows into south 3, north 1, north 2 (0 -> 1): north must play 2 again.
#[test]
fn the_next_player_starts_where_the_last_move_ended() {
    let g = game(FORCED);
    let one = after(&g, &[3]);
    assert_eq!(one["pits"], json!({"south": [2, 2, 0], "north": [3, 3, 2]}));
    assert_eq!(one["memory"], json!({"start": {"south": null, "north": "north 2"}}));
    assert_eq!(one["legal_moves"], json!([2]));
    let two = after(&g, &[3, 2]);
    assert_eq!(two["pits"], json!({"south": [3, 3, 0], "north": [3, 0, 3]}));
    assert_eq!(two["memory"], json!({"start": {"south": "south 2", "north": null}}));
    assert_eq!(two["legal_moves"], json!([2]));
    let mut pos = played(&g, &[3, 2]);
    let refused = g.apply(&mut pos, 1).expect_err("south must start from pit 2");
    assert!(
        refused.to_string().contains("the move must start where the last one ended"),
        "{refused}"
    );
    let three = after(&g, &[3, 2, 2]);
    assert_eq!(three["pits"], json!({"south": [3, 0, 1], "north": [4, 1, 3]}));
    assert_eq!(three["memory"], json!({"start": {"south": null, "north": "north 2"}}));
    assert_eq!(three["legal_moves"], json!([2]));
}

/// A forced pit that is empty forces nothing: read from JSON, north's start is its pit 2, which holds no
/// seed, so every filled pit may be played.
#[test]
fn an_empty_forced_pit_leaves_every_move() {
    let g = game(FORCED);
    let pos = from(
        &g,
        json!({"pits": {"south": [1, 1, 1], "north": [1, 0, 1]}, "stores": {"south": 0, "north": 0},
               "to_move": "north", "memory": {"start": {"south": null, "north": "north 2"}}}),
    );
    assert_eq!(g.legal_moves(&pos), [1, 3]);
    let filled = from(
        &g,
        json!({"pits": {"south": [1, 1, 1], "north": [1, 2, 1]}, "stores": {"south": 0, "north": 0},
               "to_move": "north", "memory": {"start": {"south": null, "north": "north 2"}}}),
    );
    assert_eq!(g.legal_moves(&filled), [2]);
}

/// A two-row game in the spirit of Toguz Kumalak's tuzdyk, written from docs/language.md alone: a pit
/// of the opponent's that the last seed makes 3 becomes the mover's own (not the last pit of a row, not
/// the pit numbered like one the opponent converted, at most one a player); the seeds that fall into
/// it go to its owner's store.
const CONVERTED: &str = r#"
game "Converted pits"
param pits = 4 in 3..12
board { pits pits  seeds 4 }
sow { direction ccw }
trigger "the converted pit's owner" { when pit.claimed  take pit to owner }
capture "convert" {
  when last.side == opponent and last.count == 3 and not last.claimed and last.number != pits
   and size(board where pit.claimed and pit.owner == mover) == 0
   and not any(row(mover) where pit.claimed and pit.number == last.number)
  claim last for mover
  take last
}
capture "even" { when last.side == opponent and last.count is even  take last }
end "no move" when no_moves remaining owner
"#;

/// A position of the converted-pits game: each row's seeds, each row's claims, south to move.
fn converted(south: [u32; 4], north: [u32; 4], south_claims: serde_json::Value, north_claims: serde_json::Value) -> (Game, Position) {
    let g = game(CONVERTED);
    let pos = from(
        &g,
        json!({"pits": {"south": south, "north": north}, "stores": {"south": 0, "north": 0}, "to_move": "south",
               "claimed": {"south": south_claims, "north": north_claims}}),
    );
    (g, pos)
}

fn play(g: &Game, mut pos: Position, k: usize) -> serde_json::Value {
    g.apply(&mut pos, k).expect("legal");
    json_of(g, &pos)
}

const NONE: [Option<&str>; 4] = [None; 4];

/// South 4 (3 seeds) sows into north 1, 2, 3 (2 -> 3 each): north 3 becomes south's, and its 3 seeds go
/// to south's store.
#[test]
fn the_last_seed_making_three_converts_the_pit() {
    let (g, pos) = converted([0, 0, 0, 3], [2, 2, 2, 2], json!(NONE), json!(NONE));
    let now = play(&g, pos, 4);
    assert_eq!(now["pits"], json!({"south": [0, 0, 0, 0], "north": [3, 3, 0, 2]}));
    assert_eq!(now["stores"], json!({"south": 3, "north": 0}));
    assert_eq!(now["claimed"], json!({"south": NONE, "north": [null, null, "south", null]}));
}

/// South already owns north 1: the seed that falls there goes to south's store, and north 3 (2 -> 3)
/// is not converted, one pit a player being the limit (3 is odd: nothing is taken).
#[test]
fn a_player_converts_one_pit_at_most_and_its_seeds_go_to_the_owner() {
    let (g, pos) = converted([0, 0, 0, 3], [0, 2, 2, 2], json!(NONE), json!(["south", null, null, null]));
    let now = play(&g, pos, 4);
    assert_eq!(now["pits"], json!({"south": [0, 0, 0, 0], "north": [0, 3, 3, 2]}));
    assert_eq!(now["stores"], json!({"south": 1, "north": 0}));
    assert_eq!(now["claimed"]["north"], json!(["south", null, null, null]));
}

/// North owns south's pit 3: south may not convert north's pit 3, the one of the same number. North's
/// pit 2 instead leaves north 3 free to convert (the same move, a control).
#[test]
fn the_pit_numbered_like_the_opponents_is_banned() {
    let (g, pos) = converted([0, 0, 0, 3], [2, 2, 2, 2], json!([null, null, "north", null]), json!(NONE));
    let banned = play(&g, pos, 4);
    assert_eq!(banned["pits"], json!({"south": [0, 0, 0, 0], "north": [3, 3, 3, 2]}));
    assert_eq!(banned["stores"]["south"], 0);
    assert_eq!(banned["claimed"]["north"], json!(NONE));
    let (g, pos) = converted([0, 0, 0, 3], [2, 2, 2, 2], json!([null, "north", null, null]), json!(NONE));
    let allowed = play(&g, pos, 4);
    assert_eq!(allowed["claimed"]["north"], json!([null, null, "south", null]));
    assert_eq!(allowed["stores"]["south"], 3);
}

/// South 4 (4 seeds) sows into north 1 to 4, the last making north 4 three: the last pit of a row is
/// never converted (and 3 is odd: nothing is taken).
#[test]
fn the_last_pit_of_a_row_is_not_converted() {
    let (g, pos) = converted([0, 0, 0, 4], [2, 2, 2, 2], json!(NONE), json!(NONE));
    let now = play(&g, pos, 4);
    assert_eq!(now["pits"], json!({"south": [0, 0, 0, 0], "north": [3, 3, 3, 3]}));
    assert_eq!(now["stores"]["south"], 0);
    assert_eq!(now["claimed"]["north"], json!(NONE));
}

/// Whole games from the start, always the first legal move: seeds are never lost, and no player ever
/// owns more than one converted pit, and never in the last pit of a row.
#[test]
fn whole_games_keep_the_limits() {
    let g = game(CONVERTED);
    let mut pos = played(&g, &[]);
    let total = g.seed_total(&pos);
    for ply in 0..400 {
        let moves = g.legal_moves(&pos);
        let Some(&k) = moves.get(ply % moves.len().max(1)) else { break };
        g.apply(&mut pos, k).expect("legal");
        assert_eq!(g.seed_total(&pos), total);
        let owned = |p: sowlang::Player| pos.claimed().iter().filter(|&&c| c == Some(p)).count();
        assert!(owned(sowlang::Player::South) <= 1 && owned(sowlang::Player::North) <= 1);
        for row in [0..4, 4..8] {
            assert_eq!(pos.claimed()[row.end - 1], None, "the last pit of a row stays its own");
        }
        if pos.is_over() {
            break;
        }
    }
}

/// A compulsory opening: while a player has pits not yet played, they must play one of those, the
/// fullest first (ties leave a choice). Pit memory marks the pits played; the phase ends by itself.
const OPENING: &str = r#"
game "Compulsory opening"
board { pits 3  layout south [1, 3, 2] north [2, 1, 3] }
memory { pit played = 0 }
after move "the pit has been played" { when origin.played == 0  set origin.played = 1 }
phase "opening" when any(row(to_move) where pit.played == 0) {
  forbid "in the opening each pit is played once" when origin.played == 1
  forbid "in the opening the fullest pit is played first" when any(row(mover) where pit.played == 0 and pit.count > origin.count)
}
end "no move" when no_moves
"#;

#[test]
fn a_compulsory_opening_plays_every_pit_once_the_fullest_first() {
    let g = game(OPENING);
    assert_eq!(after(&g, &[])["legal_moves"], serde_json::json!([2]));
    // South 2 (three seeds) sows south 3, north 1, north 2: north's 1 and 3 hold three each.
    let j = after(&g, &[2]);
    assert_eq!(j["pits"]["north"], serde_json::json!([3, 2, 3]));
    assert_eq!(j["legal_moves"], serde_json::json!([1, 3]));
    // North 3 sows south 1, 2, 3; south's unplayed pits now hold 2 (pit 1) and 4 (pit 3): pit 3.
    let j = after(&g, &[2, 3]);
    assert_eq!(j["pits"]["south"], serde_json::json!([2, 1, 4]));
    assert_eq!(j["legal_moves"], serde_json::json!([3]));
    assert_eq!(j["memory"]["played"]["south"], serde_json::json!([0, 1, 0]));
}
