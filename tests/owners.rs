//! Pits owned as the rules give it, on tiny invented boards worked out by hand: a middle row owned by
//! halves, a two-row board owned by halves, a pit claimed in the opponent's row played by its claimer
//! (`play from owned`), and how such moves are named and read.

use serde_json::json;
use sowlang::{Game, Position};

use super::support::{invented as game, json_of as json};

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

/// The docs' "Halves of the middle" (docs/language.md, "Who owns a pit").
const HALVES_OF_THE_MIDDLE: &str = r#"
game "Halves of the middle"
board { pits 4  middle row owned by halves  seeds 1 }
play from owned
sow { track mover 1..4, shared 4..1, opponent 4..1 }
capture "a pair of one's own" { when last.side == mover and last.count == 2  take last to mover }
end "no move" when no_moves remaining owner
"#;

/// The docs' "Halves of the board" (docs/language.md, "Who owns a pit").
const HALVES_OF_THE_BOARD: &str = r#"
game "Halves of the board"
board { pits 4  owned by halves  seeds 2 }
play from owned
sow { direction ccw }
capture "three across the line" { when last.side == opponent and last.count == 3  take last to mover }
end "no move" when no_moves remaining owner
"#;

/// The docs' "Claimed and played" (docs/language.md, "Who owns a pit").
const CLAIMED_AND_PLAYED: &str = r#"
game "Claimed and played"
board { pits 3  seeds 2 }
play from owned
sow { direction ccw }
capture "a three is claimed" {
  when last.side == opponent and last.count == 3 and not last.claimed
  claim last for mover
}
end "no move" when no_moves remaining owner
"#;

/// Four pits a row and a middle row, one seed everywhere. South owns the middle row's left half (s1,
/// s2, from south's left), north the right half (s3, s4): each plays their row and their half. South's
/// track runs south 1..4, s4..s1, north 4..1. South's s2 (1) falls into s1, south's own: a pair, taken.
/// North's s3 (1) falls, along north's track (north 1..4, s1..s4, south 4..1), into s4, north's own:
/// a pair, taken. South may not play north's half.
#[test]
fn a_middle_row_owned_by_halves_is_played_and_taken_by_each_half_s_owner() {
    let g = game(HALVES_OF_THE_MIDDLE);
    let start = play(&g, &[]);
    assert_eq!(json(&g, &start)["legal_moves"], json!(["1", "2", "3", "4", "s1", "s2"]));
    let pos = play(&g, &["s2"]);
    let v = json(&g, &pos);
    assert_eq!(v["pits"]["shared"], json!([0, 0, 1, 1]));
    assert_eq!(v["stores"], json!({"south": 2, "north": 0}));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3", "4", "s3", "s4"]));
    let v = json(&g, &play(&g, &["s2", "s3"]));
    assert_eq!(v["pits"]["shared"], json!([0, 0, 0, 0]));
    assert_eq!(v["stores"], json!({"south": 2, "north": 2}));
    let err = g
        .apply(&mut start.clone(), g.parse_move("s3").expect("a pit"))
        .expect_err("north's half");
    assert!(err.to_string().contains("a pit the player owns"), "{err}");
}

/// Four pits a row, two in each, the board owned by halves: south owns the half on south's left (south
/// 1, 2 and north 3, 4 across from them), north the other half. South's moves are 1, 2, 3' and 4'.
/// South's 2 sows south 3 and 4 (3 each): south 4 is on north's half, `.side` north: taken (3). North
/// may play north 1 and 2 and south 3 (`3'`, 3 seeds); south 4 is empty.
#[test]
fn a_board_owned_by_halves_gives_each_player_the_half_on_their_left() {
    let g = game(HALVES_OF_THE_BOARD);
    assert_eq!(json(&g, &play(&g, &[]))["legal_moves"], json!(["1", "2", "3'", "4'"]));
    let v = json(&g, &play(&g, &["2"]));
    assert_eq!(v["pits"], json!({"south": [2, 0, 3, 0], "north": [2, 2, 2, 2]}));
    assert_eq!(v["stores"], json!({"south": 3, "north": 0}));
    assert_eq!(v["legal_moves"], json!(["1", "2", "3'"]));
    // North's 3' (south 3, 3 seeds) sows south 4, north 1, 2 (3): north's own half, nothing taken.
    let v = json(&g, &play(&g, &["2", "3'"]));
    assert_eq!(v["pits"], json!({"south": [2, 0, 0, 1], "north": [3, 3, 2, 2]}));
    assert_eq!(v["stores"], json!({"south": 3, "north": 0}));
}

/// Three pits a row, two in each. South's 3 sows north 1 and 2 (3 each): north 2 is claimed for south.
/// North may play 1 and 3, not 2. North's 1 (3) sows north 2 (4), north 3 (3), south 1 (3): south 1 is
/// claimed for north. South plays 2 and north's 2 (`2'`), not 1. South's 2' (4) sows north 3 (4),
/// south 1 (4), south 2 (3), south 3 (1): no claim (south's own row). North plays 3 and south's 1
/// (`1'`).
#[test]
fn a_pit_claimed_in_the_opponent_s_row_is_played_by_its_claimer() {
    let g = game(CLAIMED_AND_PLAYED);
    let v = json(&g, &play(&g, &["3"]));
    assert_eq!(v["pits"], json!({"south": [2, 2, 0], "north": [3, 3, 2]}));
    assert_eq!(v["claimed"]["north"], json!([null, "south", null]));
    assert_eq!(v["legal_moves"], json!(["1", "3"]));
    let v = json(&g, &play(&g, &["3", "1"]));
    assert_eq!(v["pits"], json!({"south": [3, 2, 0], "north": [0, 4, 3]}));
    assert_eq!(v["legal_moves"], json!(["2", "2'"]));
    let v = json(&g, &play(&g, &["3", "1", "2'"]));
    assert_eq!(v["pits"], json!({"south": [4, 3, 1], "north": [0, 0, 4]}));
    assert_eq!(v["legal_moves"], json!(["3", "1'"]));
}

/// A move from the opponent's pit `j` is the third block of numbers (after the player's own pits
/// and the shared ones), written `j'`; a plain number past the player's own pits names no pit (nor
/// the pass), and an opponent's pit is no move where the game does not play owned pits.
#[test]
fn moves_from_the_opponent_s_row_are_named_with_a_prime() {
    let g = game(CLAIMED_AND_PLAYED);
    assert_eq!(g.move_count(), 6);
    assert_eq!(g.parse_move("2'"), Some(5));
    assert_eq!(g.move_name(5), "2'");
    assert_eq!(g.parse_move("5"), None);
    assert_eq!(g.parse_move("4'"), None);
    let middle = game(HALVES_OF_THE_MIDDLE);
    assert_eq!((middle.parse_move("s2"), middle.parse_move("1'")), (Some(6), Some(9)));
    assert_eq!(middle.move_name(9), "1'");
    let plain = game("game \"Plain\"\nboard { pits 3  seeds 2 }\nend \"no move\" when no_moves\n");
    assert_eq!((plain.move_count(), plain.parse_move("2'")), (3, None));
    assert_eq!(json(&plain, &play(&plain, &[]))["legal_moves"], json!([1, 2, 3]));
    // The pass is written `pass`: the number after the pits is no move either.
    let passing = game("game \"Passing\"\nboard { pits 3  seeds 2 }\npass when true\nend \"no move\" when no_moves\n");
    assert_eq!(
        (passing.pass_move(), passing.parse_move("4"), passing.parse_move("pass")),
        (4, None, Some(4))
    );
}

/// A pit owned by halves has that half's player as `.side` and `.owner`; a claim changes `.owner`
/// only; the rows (`row(P)`) stay the players' rows.
#[test]
fn side_is_the_half_owner_is_the_claim_and_rows_stay_rows() {
    let g = game(
        r#"
game "Whose"
board { pits 4  owned by halves  seeds 1 }
play from owned
sow { direction ccw }
capture "mark" {
  when last.side == mover and last.owner == mover and size(row(mover) where pit.count == 2) == 1
  take last to mover
}
end "no move" when no_moves remaining owner
"#,
    );
    // South's 4' (north 4, south's half) sows south 1 (2): south's half and row, its only pit of 2.
    let v = json(&g, &play(&g, &["4'"]));
    assert_eq!(v["pits"], json!({"south": [0, 1, 1, 1], "north": [1, 1, 1, 0]}));
    assert_eq!(v["stores"], json!({"south": 2, "north": 0}));
    // South's 2 sows south 3 (2): north's half, not taken.
    let v = json(&g, &play(&g, &["2"]));
    assert_eq!(v["pits"], json!({"south": [1, 0, 2, 1], "north": [1, 1, 1, 1]}));
    assert_eq!(v["stores"], json!({"south": 0, "north": 0}));
}

#[test]
fn the_games_played_here_are_the_ones_the_reference_shows() {
    let docs = std::fs::read_to_string(super::support::root().join("docs/language.md")).expect("the reference");
    for text in [HALVES_OF_THE_MIDDLE, HALVES_OF_THE_BOARD, CLAIMED_AND_PLAYED] {
        assert!(docs.contains(text.trim()), "docs/language.md no longer shows:\n{text}");
    }
}

/// Random games of every game here and of the traditional games that own pits by halves, by claim or
/// by a round's set-up: every listed move is accepted and named so that it reads back as itself, every
/// move not listed is refused, and the seeds add up to the same total throughout.
#[test]
fn random_games_keep_their_seeds_and_their_move_names() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    let mut games: Vec<(String, Game)> = [HALVES_OF_THE_MIDDLE, HALVES_OF_THE_BOARD, CLAIMED_AND_PLAYED]
        .iter()
        .map(|t| (t.lines().nth(1).unwrap_or_default().to_string(), game(t)))
        .collect();
    for name in ["oware_rounds.sow", "gabata_three_rows.sow", "sat_gol.sow"] {
        let path = super::support::root().join("tests/fixtures/traditional").join(name);
        games.push((name.into(), sowlang::load_game(&path, &[]).expect("checks").game));
    }
    for (name, g) in &games {
        for seed in 0..40 {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = g.initial(None);
            g.settle_start(&mut pos);
            let total = g.seed_total(&pos);
            while !pos.is_over() && pos.ply() < 400 {
                let moves = g.legal_moves(&pos);
                assert!(!moves.is_empty(), "{name} game {seed}: no move and not over at ply {}", pos.ply());
                for k in 1..=g.move_count() {
                    if !moves.contains(&k) {
                        assert!(
                            g.apply(&mut pos.clone(), k).is_err(),
                            "{name} game {seed}: {k} accepted, not listed"
                        );
                    }
                }
                let k = moves[rng.gen_range(0..moves.len())];
                assert_eq!(g.parse_move(&g.move_name(k)), Some(k), "{name}: the name of {k} reads back");
                g.apply(&mut pos, k)
                    .unwrap_or_else(|e| panic!("{name} game {seed}: listed {k} refused: {e}"));
                assert_eq!(g.seed_total(&pos), total, "{name} game {seed}: seeds at ply {}", pos.ply());
            }
        }
    }
}
