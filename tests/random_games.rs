//! Thousands of random games of every shipped variant: on every move the seeds on the board and in
//! the stores add up to the same total, every move ends, and the legal moves are exactly the moves
//! `apply` accepts, and the history ends with the identity of the position reached; and the quick
//! playout loop, silent moves and narrated moves play those games alike.

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, RngCore, SeedableRng};

const GAMES_PER_VARIANT: u64 = 1000;
const MAX_PLIES: u32 = 2000;

use crate::support::shipped;

#[test]
fn seeds_are_conserved_and_moves_end_in_random_games() {
    let mut report = Vec::new();
    for file in shipped() {
        let game = sowlang::load_game(&file, &[])
            .unwrap_or_else(|_| panic!("{} loads", file.display()))
            .game;
        let mut finished = 0;
        for seed in 0..GAMES_PER_VARIANT {
            let mut rng = StdRng::seed_from_u64(seed);
            let mut pos = game.initial(None);
            game.settle_start(&mut pos);
            let total = game.seed_total(&pos);
            while !pos.is_over() && pos.ply() < MAX_PLIES {
                let moves = game.legal_moves(&pos);
                if moves.is_empty() {
                    panic!(
                        "{} game {seed}: no legal move at ply {} and no end rule fired: {:?}",
                        file.display(),
                        pos.ply(),
                        pos.seeds()
                    );
                }
                // A move outside the legal list must be refused.
                let illegal = (1..=game.move_count()).find(|k| !moves.contains(k));
                if let Some(k) = illegal {
                    let mut copy = pos.clone();
                    assert!(
                        game.apply(&mut copy, k).is_err(),
                        "{} game {seed}: pit {k} is not listed as legal but was accepted",
                        file.display()
                    );
                }
                let k = moves[rng.gen_range(0..moves.len())];
                game.apply(&mut pos, k)
                    .unwrap_or_else(|e| panic!("{} game {seed}: listed move {k} refused: {e}", file.display()));
                assert_eq!(
                    game.seed_total(&pos),
                    total,
                    "{} game {seed}: seeds not conserved at ply {}",
                    file.display(),
                    pos.ply()
                );
                // The engine works out a position's identity from the last one's and the move's
                // changes; it must be what a full count over the board gives.
                if let (Some(last), false, true) = (pos.history().last(), pos.is_over(), game.keeps_history()) {
                    assert_eq!(
                        last,
                        game.hash(&pos),
                        "{} game {seed}: the history does not end with the position's identity at ply {}",
                        file.display(),
                        pos.ply()
                    );
                }
            }
            if pos.is_over() {
                finished += 1;
            }
        }
        report.push(format!(
            "{}: {finished}/{GAMES_PER_VARIANT} finished within {MAX_PLIES} plies",
            file.display()
        ));
    }
    println!("{}", report.join("\n"));
}

#[test]
fn the_conservation_check_can_fail() {
    // The check above compares totals; make sure a changed total is noticed at all.
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/oware.sow");
    let game = sowlang::load_game(&file, &[]).expect("oware loads").game;
    let pos = game.initial(None);
    let total = game.seed_total(&pos);
    let mut more = game.position_to_json(&pos);
    more["pits"]["south"][0] = serde_json::json!(5);
    let more = game.position_from_json(&more.to_string()).expect("a position of this board");
    assert_ne!(game.seed_total(&more), total);
}

/// The engine has quick paths for the usual case (the sowing lap without narration, the legal moves
/// handed from one move to the next, the seed total known in advance) and general ones (the
/// narrated lap of `run --trace`, rules worked out afresh for each `apply`). Playing the same random
/// games both ways must give the same position after every move and at the end.
/// The draw of one move among `n` that `Game::random_playout` makes (multiply-shift, as its doc
/// says): replaying a playout move by move must draw alike (with the candidates' rule, below).
fn draw(rng: &mut StdRng, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

#[test]
fn quick_and_narrated_play_agree_in_random_games() {
    const GAMES: u64 = 100;
    for file in shipped() {
        let game = sowlang::load_game(&file, &[])
            .unwrap_or_else(|_| panic!("{} loads", file.display()))
            .game;
        quick_and_narrated_agree(&game, &file.display().to_string(), GAMES);
    }
}

/// Issue 25: a capture whose actions are all takes of pits named by `last` or `origin` (or the
/// pits across), to the hand, the owner, the mover or the opponent, and `sow taken` from a pit
/// named by the way (or none), is carried out without the evaluator when the move is not
/// narrated: silent moves, the playout loop and the listings play as the narrated move does.
#[test]
fn issue_25_capture_actions_without_the_evaluator_play_as_narrated() {
    let takes = r#"game "Takes of every kind"
        board { pits 6  seeds 4  stores captures }
        first south
        sow { direction ccw }
        capture "both to their owner" { when last.count == 2  take last, opposite(last) to owner }
        capture "to the opponent" { when last.count == 3 and last.side == opponent  take last to opponent }
        capture "across the origin" { when last.count == 4  take opposite(origin) to mover }
        capture "the origin" { when last.count == 5  take origin }
        grand slam capture nothing
        end "stuck" when no_moves remaining owner
        end "round" when repeated remaining split"#;
    let front = "row(mover) where pit.row == front";
    let pulls = |sow: &str| {
        format!(
            r#"game "Pulled across"
            board {{ rows 2  pits 4  seeds 2  stores captures }}
            sow {{ direction either  track own  relay when last.before > 0 }}
            captures required
            capture "pull across" {{
              when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 1
              take opposite(last)
              {sow}
            }}
            capture "pull the origin" {{
              when last.side == mover and last.row == front and last.before > 0 and opposite(origin).count > 0
              take opposite(origin), last
              sow taken cw
            }}
            end "cannot move" when no_moves loser to_move
            end "going round" when repeated draw"#
        )
    };
    let texts = [
        takes.to_string(),
        pulls(&format!(
            "sow taken from (if clockwise then leftmost({front}) else rightmost({front})) either"
        )),
        pulls(&format!("sow taken after leftmost({front}) ccw")),
        pulls("sow taken"),
    ];
    for text in texts {
        let game = crate::support::invented(&text);
        quick_and_narrated_agree(&game, text.lines().next().unwrap_or_default(), 100);
    }
}

/// Random games of `game` played by the playout loop, by silent moves and by narrated ones, move
/// by move from the same draws.
fn quick_and_narrated_agree(game: &sowlang::Game, name: &str, games: u64) {
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    for seed in 0..games {
        // The playout loop of `bench` and `analyze`: silent, with hints and known legal moves.
        let mut quick = start.clone();
        let playout = game.random_playout(&mut quick, &mut StdRng::seed_from_u64(seed), MAX_PLIES);

        // The same choices, each move applied silently and narrated from the same position.
        let mut rng = StdRng::seed_from_u64(seed);
        let mut narrated = start.clone();
        let mut plies = 0;
        while !narrated.is_over() && plies < MAX_PLIES {
            let moves = game.legal_moves(&narrated);
            if moves.is_empty() {
                break;
            }
            // The draw `random_playout` makes: among the candidates (the legal moves but where
            // moves must be sown to be judged), one that is not legal dropped and another drawn.
            let mut candidates = game.playout_candidates(&narrated);
            let k = loop {
                let k = candidates[draw(&mut rng, candidates.len())];
                if moves.contains(&k) {
                    break k;
                }
                candidates.retain(|&c| c != k);
            };
            let mut silent = narrated.clone();
            game.apply(&mut silent, k)
                .unwrap_or_else(|e| panic!("{name} game {seed}: listed move {k} refused: {e}"));
            game.apply_traced(&mut narrated, k)
                .unwrap_or_else(|e| panic!("{name} game {seed}: listed move {k} refused when narrated: {e}"));
            assert_eq!(
                silent, narrated,
                "{name} game {seed}: move {k} at ply {plies} plays differently when narrated"
            );
            plies += 1;
        }
        assert_eq!(playout.plies, plies, "{name} game {seed}: the playout's length");
        assert_eq!(quick, narrated, "{name} game {seed}: the playout ends elsewhere");
    }
}
