//! Boards of other shapes on tiny invented games, each result worked out by hand from the board's
//! geometry: a three-row board (a middle row nobody owns) sown along a stated zigzag, a ring of an odd
//! number of pits with one shared pit, a ring owned by nobody, a stated track that puts a store
//! at the end of a player's own rows, and stated tracks whose pits are worked out from parameters.

use serde_json::json;
use sowlang::{Game, Position};

use super::support::{invented as game, json_of as json, play_named};

/// Plays `moves` (as the players write them) from the start.
fn play(game: &Game, moves: &[&str]) -> Position {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    for text in moves {
        let k = game.parse_move(text).unwrap_or_else(|| panic!("{text} names a move"));
        game.apply(&mut pos, k).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    pos
}

/// Three pits a row, one seed in every pit. South's track: south 1, 2, 3, then the middle row from
/// south's right to left (s3, s2, s1), then north's row from north's 3 to 1 (from south's left to
/// right as south sees it): a zigzag. North's is the same seen from north's seat: north 1, 2, 3, the
/// middle row from north's right (south's s1) to s3, then south 3, 2, 1.
const THREE_ROWS: &str = r#"
game "Three rows"
board { pits 3  middle row  seeds 1 }
play from any
sow { track mover 1..3, shared 3..1, opponent 3..1 }
capture "a pair in the middle" { when last.shared and last.count == 2  take last to mover }
end "no move" when no_moves
"#;

#[test]
fn a_middle_row_is_sown_along_the_stated_zigzag_from_each_players_seat() {
    let g = game(THREE_ROWS);
    // South 3's seed goes on to s3 (the middle pit nearest it): a pair, taken.
    let pos = play(&g, &["3"]);
    let j = json(&g, &pos);
    assert_eq!(j["pits"]["south"], json!([1, 1, 0]));
    assert_eq!(j["pits"]["shared"], json!([1, 1, 0]));
    assert_eq!(j["pits"]["north"], json!([1, 1, 1]));
    assert_eq!(j["stores"], json!({"south": 2, "north": 0}));
    // North 3 sits at south's left end: its seed goes on to s1, the middle pit beside it.
    let pos = play(&g, &["3", "3"]);
    let j = json(&g, &pos);
    assert_eq!(j["pits"]["south"], json!([1, 1, 0]));
    assert_eq!(j["pits"]["shared"], json!([0, 1, 0]));
    assert_eq!(j["pits"]["north"], json!([1, 1, 0]));
    assert_eq!(j["stores"], json!({"south": 2, "north": 2}));
}

#[test]
fn a_move_may_start_from_a_shared_pit_and_is_named_by_it() {
    let g = game(THREE_ROWS);
    let j = json(&g, &play(&g, &[]));
    assert_eq!(j["legal_moves"], json!(["1", "2", "3", "s1", "s2", "s3"]));
    // South's s1 sows on into north 3 (the end of south's middle piece leads to north's row).
    let j = json(&g, &play(&g, &["s1"]));
    assert_eq!(j["pits"]["shared"], json!([0, 1, 1]));
    assert_eq!(j["pits"]["north"], json!([1, 1, 2]));
    // The same pit is north's to play too: from north's seat the middle row runs s1 -> s3, so s2's
    // seed goes to s3, a pair, taken by north.
    let j = json(&g, &play(&g, &["s1", "s2"]));
    assert_eq!(j["pits"]["shared"], json!([0, 0, 0]));
    assert_eq!(j["stores"], json!({"south": 0, "north": 2}));
}

#[test]
fn the_middle_row_is_in_front_of_each_front_row_and_faces_nothing() {
    // A capture that takes the middle pit in front of the last pit, and one that takes the pit
    // across the middle row (the other player's front pit in the same column).
    let g = game(
        r#"
game "Facing"
board { pits 3  middle row  layout south [1, 0, 0] north [0, 5, 0]  layout shared [7, 0, 0] }
sow { track mover 1..3, shared 3..1, opponent 3..1 }
capture "in front and across" { when last.side == mover  take in_front(last), opposite(last) }
end "no move" when no_moves
"#,
    );
    // South 1's seed falls in south 2: in front of it is s2 (empty), across it north 2 (5 seeds).
    let j = json(&g, &play(&g, &["1"]));
    assert_eq!(j["pits"]["north"], json!([0, 0, 0]));
    assert_eq!(j["pits"]["shared"], json!([7, 0, 0]));
    assert_eq!(j["stores"]["south"], 5);
    // The other way round: in front of south 1 is s1.
    let g2 = game(&THREE_ROWS.replace(
        r#"capture "a pair in the middle" { when last.shared and last.count == 2  take last to mover }"#,
        r#"capture "in front" { when last.side == mover  take in_front(last) }"#,
    ));
    let j = json(&g2, &play(&g2, &["1"]));
    // South 1 -> south 2: s2's one seed is taken.
    assert_eq!(j["pits"]["shared"], json!([1, 0, 1]));
    assert_eq!(j["stores"]["south"], 1);
}

/// Five pits round a ring: two each, and one shared pit between north's last pit and south's first.
const ODD_RING: &str = r#"
game "Odd ring"
board { ring 5  seeds 2  stores sown }
sow { into own store }
end "no move" when no_moves remaining owner
"#;

#[test]
fn an_odd_ring_leaves_one_pit_to_nobody_on_the_track() {
    let g = game(ODD_RING);
    assert_eq!((g.pits_per_player(), g.shared_pit_count()), (2, 1));
    // South 2: south's store, then north 1.
    let j = json(&g, &play(&g, &["2"]));
    assert_eq!(j["pits"]["south"], json!([2, 0]));
    assert_eq!(j["pits"]["north"], json!([3, 2]));
    assert_eq!(j["pits"]["shared"], json!([2]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 0}));
    // North 2: north's store, then the shared pit.
    let j = json(&g, &play(&g, &["2", "2"]));
    assert_eq!(j["pits"]["north"], json!([3, 0]));
    assert_eq!(j["pits"]["shared"], json!([3]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 1}));
    // The shared pit is nobody's to play: only own pits are moves (plain numbers).
    assert_eq!(j["legal_moves"], json!([1]));
}

/// The last line of the narration of `k` played from the position JSON `from` (the end of the game).
fn narrated_end(g: &Game, from: serde_json::Value, k: &str) -> String {
    let mut pos = g.position_from_json(&from.to_string()).expect("a valid position");
    let k = g.read_move(&pos, k).expect("a move");
    let events = g.apply_traced(&mut pos, k).expect("legal");
    g.narrate(&events).pop().expect("a line")
}

/// The end of a game on an odd ring tells which of the seeds left go to a store and which stay in the
/// shared pit, which nobody owns. South 1 [1, 0], north [0, 0], s1 4, stores 3 and 2: south plays 1,
/// its seed falls in south 2, north has no move. `remaining owner`: south 2's seed goes to south (4),
/// s1's 4 stay. Limited to the shared pit (`from`), no seed moves: south 2's counts for nobody too (3).
/// `in place`: nothing moves; south 2's seed counts for south (4), s1's for nobody.
#[test]
fn the_end_of_a_game_says_which_seeds_left_stay_in_a_pit_nobody_owns() {
    let from = json!({"pits": {"south": [1, 0], "north": [0, 0], "shared": [4]}, "stores": {"south": 3, "north": 2}, "to_move": "south"});
    let ring = |remaining: &str| {
        game(&format!(
            "game \"Ring\"\nboard {{ ring 5  seeds 2 }}\nsow {{ direction ccw }}\nend \"no move\" when no_moves remaining {remaining}\n"
        ))
    };
    assert_eq!(
        narrated_end(&ring("owner"), from.clone(), "1"),
        "the game ends by \"no move\"; of the 5 seeds left, 1 goes to the owner of its pit and 4 stay in shared pit s1, \
         which nobody owns, and count for nobody: south 4, north 2: south wins"
    );
    assert_eq!(
        narrated_end(&ring("owner from board where pit.shared"), from.clone(), "1"),
        "the game ends by \"no move\"; the 5 seeds left stay on the board and count for nobody (4 in shared pit s1, \
         which nobody owns; 1 in the pits the rule leaves out): south 3, north 2: south wins"
    );
    assert_eq!(
        narrated_end(&ring("in place"), from, "1"),
        "the game ends by \"no move\"; of the 5 seeds left, 1 counts for the owner of its pit and 4 count for nobody \
         (in shared pit s1, which nobody owns): south 4, north 2: south wins"
    );
}

#[test]
fn a_ring_owned_by_nobody_is_played_by_both_and_faces_across_its_centre() {
    let g = game(
        r#"
game "Round"
board { ring 6 owned by nobody  seeds 1 }
capture "across" { when last.count == 2  take opposite(last) to mover }
end "no move" when no_moves
"#,
    );
    // s1 -> s2 makes two: the pit across the ring from s2 is s5, taken.
    let j = json(&g, &play(&g, &["s1"]));
    assert_eq!(j["pits"]["south"], json!([]));
    assert_eq!(j["pits"]["shared"], json!([0, 2, 1, 1, 0, 1]));
    assert_eq!(j["stores"]["south"], 1);
    assert_eq!(j["legal_moves"], json!(["s2", "s3", "s4", "s6"]));
    // North plays s2: s3 and s4 make two each; the last, s4, faces s1, which is empty.
    let j = json(&g, &play(&g, &["s1", "s2"]));
    assert_eq!(j["pits"]["shared"], json!([0, 0, 2, 2, 0, 1]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 0}));
}

#[test]
fn a_stated_track_puts_the_store_after_a_players_own_rows() {
    // Two rows of three: the back row left to right, the front row back, then the mover's store.
    let g = game(
        r#"
game "Own rows and a store"
board { rows 2  pits 3  seeds 1  stores sown }
sow { track mover b1..b3, mover a3..a1, mover store }
end "no move" when no_moves remaining owner
"#,
    );
    // a1 is the last pit before the store.
    let j = json(&g, &play(&g, &["a1"]));
    assert_eq!(j["pits"]["south"], json!([[0, 1, 1], [1, 1, 1]]));
    assert_eq!(j["stores"]["south"], 1);
    // b3 turns into the front row at a3.
    let j = json(&g, &play(&g, &["b3"]));
    assert_eq!(j["pits"]["south"], json!([[1, 1, 2], [1, 1, 0]]));
}

/// A track stated with the board's size as a parameter: each player sows from their last pit down to
/// pit 1, into their own store (at their left), then along the other player's row from its last pit.
const CLOCKWISE_STORES: &str = r#"
game "Stores on the left"
param pits = 4 in 1..8
board { pits pits  seeds 2  stores sown }
sow { track mover pits..1, mover store, opponent pits..1 }
capture "own store" { when last == store(mover)  then another move }
end "no move" when no_moves remaining owner
"#;

/// `CLOCKWISE_STORES` with its parameters set as `--set` sets them.
fn with_pits(pits: i64) -> Result<Game, Vec<sowlang::Diagnostic>> {
    let set = [sowlang::Override {
        name: "pits".into(),
        value: pits,
    }];
    sowlang::load_text(std::path::Path::new("invented.sow"), CLOCKWISE_STORES, &set)
        .map(|l| l.game)
        .map_err(|f| f.diagnostics)
}

#[test]
fn track_pieces_may_be_numbers_worked_out_from_the_parameters() {
    // Four pits (the default): south's 2 (2 seeds) sows south 1 and south's store: another move.
    let g = game(CLOCKWISE_STORES);
    let j = json(&g, &play(&g, &["2"]));
    assert_eq!(j["pits"]["south"], json!([3, 0, 2, 2]));
    assert_eq!(j["stores"]["south"], 1);
    assert_eq!(j["to_move"], "south");
    // Three pits (`--set pits=3`): the track follows. South's 1 (2 seeds) sows south's store, then north
    // 3 (north's last pit, beside south's store); north's 3 (now 3 seeds) sows north 2, north 1 and
    // north's store: another move for north.
    let g = with_pits(3).expect("three pits check");
    let j = json(&g, &play(&g, &["1"]));
    assert_eq!(j["pits"]["south"], json!([0, 2, 2]));
    assert_eq!(j["pits"]["north"], json!([2, 2, 3]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 0}));
    let j = json(&g, &play(&g, &["1", "3"]));
    assert_eq!(j["pits"]["north"], json!([3, 3, 0]));
    assert_eq!(j["stores"], json!({"south": 1, "north": 1}));
    assert_eq!(j["to_move"], "north");
}

#[test]
fn a_track_worked_out_from_a_set_parameter_is_checked_like_a_written_one() {
    // One pit a row: `pits..1` is the one pit, and the track is south 1, south's store, north 1.
    let g = with_pits(1).expect("one pit checks");
    let j = json(&g, &play(&g, &["1"]));
    assert_eq!(j["pits"]["north"], json!([3]));
    assert_eq!(j["stores"]["south"], 1);
    // A piece that works out to a pit the board lacks is refused at the expression, with the number.
    let text = CLOCKWISE_STORES.replace("opponent pits..1", "opponent pits + 1..1");
    let failed = sowlang::load_text(std::path::Path::new("invented.sow"), &text, &[]).expect_err("pit 5 of 4");
    let d = &failed.diagnostics[0];
    assert_eq!(d.code, "sow::check::bad_track");
    assert!(d.message.contains("pit 5"), "{}", d.message);
    let at = d.labels[0].span;
    assert_eq!(&text[at.start..at.end], "pits + 1");
    // A number not known before the game is refused where it stands.
    let text = CLOCKWISE_STORES.replace("opponent pits..1", "opponent ply..1");
    let failed = sowlang::load_text(std::path::Path::new("invented.sow"), &text, &[]).expect_err("ply");
    assert_eq!(failed.diagnostics[0].code, "sow::check::not_static");
    // Every literal track stays as it was: a row letter, or a bare number, on both ends.
    let g = game(
        &CLOCKWISE_STORES
            .replace("mover pits..1", "mover a4..a1")
            .replace("opponent pits..1", "opponent 4..1"),
    );
    assert_eq!(json(&g, &play(&g, &["2"]))["stores"]["south"], 1);
}

#[test]
fn a_track_piece_may_name_its_row_by_a_word() {
    // Two rows of `pits` a player, sown round the own rows: back row left to right, front row back.
    let g = game(
        r#"
game "Own rows by words"
param pits = 3 in 2..8
board { rows 2  pits pits  seeds 1  stores sown }
sow { track mover back 1..pits, mover front pits..1, mover store }
end "no move" when no_moves remaining owner
"#,
    );
    // As `mover b1..b3, mover a3..a1, mover store`: b3 turns into the front row at a3.
    let j = json(&g, &play(&g, &["b3"]));
    assert_eq!(j["pits"]["south"], json!([[1, 1, 2], [1, 1, 0]]));
    let j = json(&g, &play(&g, &["a1"]));
    assert_eq!(j["stores"]["south"], 1);
}

#[test]
fn a_position_with_shared_pits_reads_back_as_it_was_written() {
    let g = game(THREE_ROWS);
    let pos = play(&g, &["3", "s2"]);
    let text = g.position_to_json(&pos).to_string();
    let back = g.position_from_json(&text).expect("reads back");
    assert_eq!(back.seeds(), pos.seeds());
    // A position that leaves the shared pits out is refused, and says why.
    let missing = r#"{"pits":{"south":[1,1,1],"north":[1,1,1]},"stores":{"south":0,"north":0},"to_move":"south"}"#;
    let err = g.position_from_json(missing).expect_err("no shared pits given");
    assert!(format!("{err:?}").contains("shared pits"), "{err:?}");
}

#[test]
fn seeds_are_conserved_over_random_games_on_every_shape() {
    use rand::{Rng, SeedableRng};
    let shapes = [
        THREE_ROWS.to_string(),
        ODD_RING.to_string(),
        r#"
game "Round"
board { ring 7 owned by nobody  seeds 3 }
sow { skip origin  relay when last.before > 0  relay limit 50 }
capture "threes" { when last.count == 3  take last to mover }
end "no move" when no_moves
"#
        .to_string(),
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(7);
    for text in &shapes {
        let g = game(text);
        for _ in 0..200 {
            let mut pos = g.initial(None);
            g.settle_start(&mut pos);
            let total = g.seed_total(&pos);
            for _ in 0..500 {
                let moves = g.legal_moves(&pos);
                if pos.is_over() || moves.is_empty() {
                    break;
                }
                let k = moves[rng.gen_range(0..moves.len())];
                g.apply(&mut pos, k).expect("a legal move");
                assert_eq!(g.seed_total(&pos), total, "{}", g.name());
            }
        }
    }
}

/// A choice made once and kept: the direction a player picks on their first move is remembered, and
/// a `forbid` holds them to it.
#[test]
fn a_direction_chosen_on_the_first_move_is_kept_for_the_game() {
    let g = game(
        r#"
game "Way kept"
board { pits 3  seeds 2 }
memory { player way = 0 }
sow { direction either }
after move "the first move fixes the way" { when mover.way == 0  set mover.way = if clockwise then 2 else 1 }
forbid "the way chosen on the first move is kept" when (mover.way == 1 and clockwise) or (mover.way == 2 and not clockwise)
end "no move" when no_moves
"#,
    );
    // South goes right (counter-clockwise), north left (clockwise): from then on each has only moves
    // that way. South 1R: south 2 and 3 get a seed each. North 2L: north 1 and south 3.
    let j = json(&g, &play(&g, &["1R", "2L"]));
    assert_eq!(j["pits"]["south"], json!([0, 3, 4]));
    assert_eq!(j["pits"]["north"], json!([3, 0, 2]));
    assert_eq!(j["legal_moves"], json!(["2R", "3R"]));
    // South 2R sows south 3, north 1 and north 2: every north pit holds seeds, each played leftwards.
    let j = json(&g, &play(&g, &["1R", "2L", "2R"]));
    assert_eq!(j["pits"]["north"], json!([4, 1, 2]));
    assert_eq!(j["legal_moves"], json!(["1L", "2L", "3L"]));
}

/// Pit memory covers the shared pits too: shown under `shared`, a pit value naming one as `"shared s2"`,
/// and read back as written.
#[test]
fn memory_on_a_board_with_shared_pits_is_shown_and_read_back() {
    let g = game(
        r#"
game "Remembering the middle"
board { pits 3  middle row  seeds 1 }
memory { pit visits = 0  player last_shared = no_pit }
play from any
sow { track mover 1..3, shared 3..1, opponent 3..1 }
after move "count" { when last.shared  add 1 to last.visits  set mover.last_shared = last }
end "no move" when no_moves
"#,
    );
    // South 3's seed falls in s3 (the middle pit beside it).
    let pos = play(&g, &["3"]);
    let j = json(&g, &pos);
    assert_eq!(j["memory"]["visits"]["shared"], json!([0, 0, 1]));
    assert_eq!(j["memory"]["visits"]["south"], json!([0, 0, 0]));
    assert_eq!(j["memory"]["last_shared"]["south"], json!("shared s3"));
    let text = g.position_to_json(&pos).to_string();
    let back = g.position_from_json(&text).expect("reads back");
    assert_eq!(json(&g, &back)["memory"], j["memory"]);
}

/// Two tracks round a player's two rows of three, named once: the usual rules sow along the first
/// (the back row from the left, then the front row from the right), an optional phase along the
/// second (the front row from the left, then the back row from the right).
const TWO_CIRCUITS: &str = r#"
game "Two circuits"
board { rows 2  pits 3  seeds 1 }
track "back first" = mover b1..b3, mover a3..a1
track "front first" = mover a1..a3, mover b3..b1
sow { track "back first" }
phase "the other way round" when true {
  optional
  sow { track "front first" }
}
end "cannot move" when no_moves loser to_move
"#;

#[test]
fn a_named_track_is_declared_once_and_sown_along_wherever_it_is_named() {
    let g = game(TWO_CIRCUITS);
    let south = |moves: &[&str]| json(&g, &play_named(&g, moves))["pits"]["south"].clone();
    // Along "back first" a1 is last: its seed goes round to b1.
    assert_eq!(south(&["a1:usual"]), json!([[0, 1, 1], [2, 1, 1]]));
    // Along "front first" a2 follows a1.
    assert_eq!(south(&["a1:the_other_way_round"]), json!([[0, 2, 1], [1, 1, 1]]));
    // Along "back first" the back row's end leads into the front row's right end.
    assert_eq!(south(&["b3:usual"]), json!([[1, 1, 2], [1, 1, 0]]));
}

#[test]
fn a_child_file_replaces_or_drops_a_named_track_by_its_name() {
    let dir = super::support::scratch("boards", "named-tracks");
    std::fs::write(dir.join("parent.sow"), TWO_CIRCUITS).expect("written");
    // The child turns "back first" round: b3, b2, b1, then the front row from the left.
    let child = "extends \"parent.sow\"\ntrack \"back first\" = mover b3..b1, mover a1..a3\n";
    let g = sowlang::load_text(&dir.join("child.sow"), child, &[])
        .expect("the child checks")
        .game;
    let j = json(&g, &play_named(&g, &["a1:usual"]));
    assert_eq!(j["pits"]["south"], json!([[0, 2, 1], [1, 1, 1]]));
    // Dropping a track the phase still names leaves the name undeclared.
    let dropped = "extends \"parent.sow\"\ndrop track \"front first\"\n";
    let failure = sowlang::load_text(&dir.join("dropped.sow"), dropped, &[]).expect_err("the phase names a dropped track");
    assert!(
        failure
            .diagnostics
            .iter()
            .any(|d| d.code == "sow::check::unknown_name" && d.message.contains("front first")),
        "{:?}",
        failure.diagnostics
    );
}

/// `pit(P, ROW, N)` names one pit outright: here the end of the mover's front row that seeds pulled
/// across are sown from.
#[test]
fn a_pit_is_named_by_its_player_row_and_number() {
    let g = game(
        r#"
game "Named pits"
board { rows 2  pits 4  seeds 2 }
sow { direction ccw }
capture "pull across" {
  when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
  take opposite(last)
  sow taken from pit(mover, front, 1)
}
end "cannot move" when no_moves loser to_move
"#,
    );
    // South's own track runs b1..b4, then a4..a1. South b3 sows b4 and a4 (which held 2); north
    // a1 faces south a4: its 2 seeds are sown from south a1, then on along the track into b1.
    let j = json(&g, &play(&g, &["b3"]));
    assert_eq!(j["pits"]["south"], json!([[3, 2, 2, 3], [3, 2, 0, 3]]));
    assert_eq!(j["pits"]["north"], json!([[0, 2, 2, 2], [2, 2, 2, 2]]));
}

/// Issue 26 audit: the board drawn for people on a ring owned by nobody (no player has a row) used to
/// panic on a subtraction below zero; it shows the ring's pits as the shared ones.
#[test]
fn issue_26_a_ring_owned_by_nobody_is_drawn() {
    let g = super::support::invented(
        r#"
game "Ring of seven"
board { ring 7 owned by nobody  seeds 3 }
capture "threes" { when last.count == 3  take last to mover }
end "no move" when no_moves
"#,
    );
    let pos = super::support::played(&g, &[1]);
    let text = g.board_text(&pos);
    assert!(text.contains("s1") && text.contains("s7"), "{text}");
    assert!(text.contains("[ 0] [ 4] [ 4] [ 4]"), "{text}");
}
