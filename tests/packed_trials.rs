//! Issue 25: the trials of a listing of a game with choices are sown on a packed board (a byte a
//! cell) where the phase's rules are of the kinds read there (`engine::packed`). Each such game
//! plays exactly as its twin that the packed trials do not take (the same rules with a `forbid`
//! that reads `origin.before` and never holds, so that the counts before are kept): the same moves
//! listed in every position, the same position after every move, and the same random playouts.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::support::shipped;

// A twin that keeps the counts before the latest seed, which a packed trial does not read.
use crate::counts_before::KEEPS_BEFORE as GENERAL;
use crate::counts_before::{ENTERING, load};

/// Plays `games` random games of `packed` and of `general` (its twin) move by move, comparing the
/// moves listed and the positions, and a random playout of each from every tenth position;
/// returns the moves played and the positions whose trials were packed.
fn agree(packed: &sowlang::Game, general: &sowlang::Game, games: u64, what: &str) -> (u64, u64) {
    let (mut moves, mut packed_at) = (0, 0);
    for seed in 0..games {
        let mut a = packed.initial(None);
        packed.settle_start(&mut a);
        let mut b = general.initial(None);
        general.settle_start(&mut b);
        let mut rng = StdRng::seed_from_u64(seed);
        for ply in 0..300 {
            assert!(!general.trials_packed(&b), "{what}: the twin's trials are the general sowing's");
            packed_at += u64::from(packed.trials_packed(&a));
            let listed = packed.legal_moves(&a);
            assert_eq!(
                listed,
                general.legal_moves(&b),
                "{what}: game {seed} move {ply}: the moves listed differ"
            );
            if ply % 10 == 0 {
                let (mut pa, mut pb) = (a.clone(), b.clone());
                let (mut ra, mut rb) = (StdRng::seed_from_u64(ply), StdRng::seed_from_u64(ply));
                let (played, played_too) = (
                    packed.random_playout(&mut pa, &mut ra, 200),
                    general.random_playout(&mut pb, &mut rb, 200),
                );
                assert_eq!(
                    played.plies, played_too.plies,
                    "{what}: game {seed} move {ply}: the playouts differ"
                );
                assert_eq!(pa, pb, "{what}: game {seed} move {ply}: the playouts end apart");
            }
            if a.is_over() || listed.is_empty() {
                break;
            }
            let k = listed[rng.gen_range(0..listed.len())];
            packed.apply(&mut a, k).expect("a listed move is legal");
            general.apply(&mut b, k).expect("a listed move is legal");
            assert_eq!(a, b, "{what}: game {seed} after move {ply}: the positions differ");
            moves += 1;
        }
    }
    (moves, packed_at)
}

/// The shipped games whose trials are packed ([`EXPECTED`]) play as their twins.
#[test]
fn issue_25_shipped_games_with_packed_trials_play_as_their_twins() {
    let mut packed = Vec::new();
    for path in shipped() {
        let text = std::fs::read_to_string(&path).expect("a shipped file");
        let game = load(&path, &text);
        let mut start = game.initial(None);
        game.settle_start(&mut start);
        // Every phase of a game may be packed or not: played until one is.
        let mut rng = StdRng::seed_from_u64(1);
        let mut pos = start.clone();
        let mut packs = false;
        for _ in 0..40 {
            packs |= game.trials_packed(&pos);
            let listed = game.legal_moves(&pos);
            if packs || pos.is_over() || listed.is_empty() {
                break;
            }
            game.apply(&mut pos, listed[rng.gen_range(0..listed.len())])
                .expect("a listed move is legal");
        }
        if !packs {
            continue;
        }
        let twin = load(&path, &format!("{text}{GENERAL}"));
        let (moves, packed_at) = agree(&game, &twin, 12, &path.display().to_string());
        assert!(
            moves > 0 && packed_at > 0,
            "{}: {moves} moves played, {packed_at} packed",
            path.display()
        );
        packed.push(path.file_stem().expect("a name").to_string_lossy().into_owned());
    }
    assert_eq!(packed, EXPECTED);
}

/// Invented games on the way a packed trial must hold: a Bao-like game on a small board (seeds
/// entered from the store, captures required, taken seeds sown on from an end of the front row
/// either way), long relays that hand their moves over to the general sowing (past the loop watch's
/// start) and moves refused past a `relay limit`, captures that end the move, give another move or
/// sow on after `last`, three capture rules.
#[test]
fn issue_25_invented_games_with_packed_trials_play_as_their_twins() {
    let games = [
        ENTERING,
        r#"game "long relays" board { rows 2 pits 3 seeds 4 stores captures } first south
           sow { direction either track own relay when last.before > 0 }
           capture "pull" { when last.side == mover and last.row == front and last.count == 3 and opposite(last).count > 0
             take opposite(last)  sow taken either }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        r#"game "limited" board { rows 2 pits 4 seeds 3 stores captures } first north
           sow { direction either track own relay when last.before > 0 relay limit 6 }
           capture "pull" { when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 1
             take opposite(last)  sow taken from (if clockwise then leftmost(row(mover) where pit.row == front) else rightmost(row(mover) where pit.row == front)) either }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        r#"game "two rules" board { rows 2 pits 4 seeds 2 stores captures } first south
           sow { direction either track own relay when last.before > 1 }
           capture "ends" { when last.side == mover and last.row == back and last.count == 4 and opposite(last).count > 0  then end }
           capture "again" { when last.side == mover and last.row == back and last.count == 5  then another move }
           capture "pull" { when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last)  sow taken either }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
    ];
    for text in games {
        let path = std::path::Path::new("invented.sow");
        let (moves, packed_at) = agree(&load(path, text), &load(path, &format!("{text}{GENERAL}")), 60, text);
        assert!(moves > 500 && packed_at > 100, "{text}: {moves} moves played, {packed_at} packed");
    }
}

const EXPECTED: &[&str] = &["bao"];
