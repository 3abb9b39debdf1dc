//! Bao la Kiswahili (variants/bao_la_kiswahili.sow, docs/bao-la-kiswahili.md) over many random games: the 64
//! seeds are all there after every move, every game ends by one of the rules' ends (a front row emptied, rule
//! 25, or no legal move, rule 26) and never by a cap, and no two listed moves do the same thing. The worked
//! examples are golden scenarios (tests/scenarios/bao_la_kiswahili/).

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::support::{invented, root};

const GAMES: u64 = 1000;
/// Far more plies than a game takes (random games last about 60, the longest of a thousand a few hundred):
/// a game reaching it would be one the rules did not end.
const CAP: u32 = 5000;

fn bao() -> sowlang::Game {
    sowlang::load_game(&root().join("variants/bao_la_kiswahili.sow"), &[])
        .expect("bao_la_kiswahili loads")
        .game
}

#[test]
fn random_games_keep_the_64_seeds_and_end_by_the_rules() {
    let game = bao();
    let ends = ["bao hamna", "bao hamna: the mover emptied their own front row", "no legal move"];
    let mut longest = 0;
    for seed in 0..GAMES {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        assert_eq!(game.seed_total(&pos), 64);
        while !pos.is_over() {
            assert!(pos.ply() < CAP, "game {seed} reached {CAP} plies");
            let moves = game.legal_moves(&pos);
            assert!(
                !moves.is_empty(),
                "game {seed}: no legal move at ply {} and the game goes on",
                pos.ply()
            );
            let k = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut pos, k)
                .unwrap_or_else(|e| panic!("game {seed}: listed move {k} refused: {e}"));
            assert_eq!(game.seed_total(&pos), 64, "game {seed}: seeds not conserved at ply {}", pos.ply());
        }
        let by = pos.ended_by().unwrap_or_default();
        assert!(ends.contains(&by), "game {seed} ended by `{by}`");
        assert!(pos.winner().is_some(), "game {seed}: Bao has no draws");
        longest = longest.max(pos.ply());
    }
    println!("{GAMES} random games of Bao la Kiswahili, the longest {longest} plies");
}

/// Each move is applied and the positions compared. The file lists a capture at a kimbi only the way its
/// seeds go, and a namua capture that ends the game only clockwise; the engine lists once the other moves
/// that come to the same position (a namua capture of eight seeds sown from either kichwa into the whole
/// front row).
#[test]
fn no_two_listed_moves_do_the_same_thing() {
    let game = bao();
    for seed in 0..100 {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let mut played: Vec<String> = Vec::new();
        while !pos.is_over() {
            let moves = game.legal_moves(&pos);
            let after: Vec<(usize, sowlang::Position)> = moves
                .iter()
                .map(|&k| {
                    let mut p = pos.clone();
                    game.apply(&mut p, k).expect("a listed move plays");
                    (k, p)
                })
                .collect();
            for (i, (a, pa)) in after.iter().enumerate() {
                for (b, pb) in &after[i + 1..] {
                    assert!(
                        pa != pb,
                        "game {seed}, after {}: {} and {} do the same thing",
                        played.join(","),
                        game.name_move(&pos, *a),
                        game.name_move(&pos, *b)
                    );
                }
            }
            let k = moves[rng.gen_range(0..moves.len())];
            played.push(game.name_move(&pos, k));
            game.apply(&mut pos, k).expect("a listed move plays");
        }
    }
}

/// The language's `take N from PIT` may feed a `sow taken` (the nyumba's tax, rule 15, is one): two of the
/// pit's seeds are lifted and sown on from the pit after it, the rest stay.
#[test]
fn take_n_from_a_pit_then_sow_taken() {
    let game = invented(
        "game \"Tax\"\n\
         board { pits 4  layout south [5, 0, 0, 0] north [1, 1, 1, 1] }\n\
         sow { direction ccw }\n\
         at lap end \"two go on\" { when last.count >= 2 and lap == 1  take 2 from last  sow taken }\n\
         end \"no move\" when no_moves\n",
    );
    // South's 1 (5): south 2, 3, 4, north 1, 2 (1 -> 2): two of north 2's seeds go on, into north 3 and 4.
    let pos = crate::support::played(&game, &[1]);
    let json = crate::support::json_of(&game, &pos);
    assert_eq!(json["pits"]["south"], serde_json::json!([0, 1, 1, 1]));
    assert_eq!(json["pits"]["north"], serde_json::json!([2, 0, 2, 2]));
}

/// Rule 23: a move that never ends is not legal, seen exactly: after these 46 moves (a random game that
/// `check --explore` met), south's b2L relays round and round, its lap 3,772 starting as lap 2,080 did. The
/// file keeps the move's own state in memory, not in `lap` and `taken`, so the engine can see the repeat.
#[test]
fn a_move_that_never_ends_is_refused_as_going_round_for_ever() {
    let game = bao();
    let before = "a6L,a5L,a3L,a5R,a8L:stop,a8L,a3R,a7L,a5R,a3L,a1R,a5L,a2R,a8L:safari,a3R,a7L,a5R,a6R,a4R,a4L,a4L,\
                  a3L,a8L,a3L,a7L,a3R,a3L,a3L,a4L,a6L,a6R,a8L,a3R,a8L,a2R,a3R,a3L,a3L,a4L,a3R,a5R,a3L,a8L,a3R,a4R,b6R";
    let moves: Vec<&str> = before.split(',').collect();
    let mut pos = crate::support::play_named(&game, &moves);
    assert_eq!(
        crate::support::move_names(&game, &pos),
        ["a4L", "b4R", "b4L", "b5L"],
        "b2L is not listed"
    );
    let b2l = game.parse_move("b2L").expect("a pit and a way");
    let why = game.apply(&mut pos, b2l).expect_err("b2L never ends").to_string();
    assert!(why.contains("would start as lap"), "{why}");
}
