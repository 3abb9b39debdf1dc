//! The hand-written yardsticks in `benches/yardstick/` play exactly like the interpreter on the rule
//! files they copy, over thousands of random games: the same legal moves, board, stores, player to
//! move and result after every move. So comparing their speed (`benches/ratio.rs`) is fair.

use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sowlang::{Game, Outcome, Player, Position};

#[path = "../benches/yardstick/kalah.rs"]
mod kalah;
#[path = "../benches/yardstick/oware.rs"]
mod oware;

const GAMES: u64 = 3000;

fn load(file: &str) -> Game {
    let path = Path::new(env!("CARGO_MANIFEST_DIR")).join(file);
    sowlang::load_game(&path, &[]).unwrap_or_else(|_| panic!("{file} loads")).game
}

fn bits(mask: u32) -> Vec<usize> {
    (0..32).filter(|i| mask & (1 << i) != 0).map(|i| i + 1).collect()
}

fn side(p: Player) -> usize {
    p.index()
}

fn winner(o: Option<Outcome>) -> u8 {
    match o {
        Some(Outcome::South) => 0,
        Some(Outcome::North) => 1,
        _ => 2,
    }
}

/// Plays `GAMES` random games on both and compares them after every move; returns the moves played.
fn agree<Y>(
    game: &Game,
    new: impl Fn() -> Y,
    legal: impl Fn(&Y) -> u32,
    apply: impl Fn(&mut Y, usize),
    same: impl Fn(&Y, &Position) -> bool,
) -> u64 {
    let mut moves = 0;
    for seed in 0..GAMES {
        let mut rng = StdRng::seed_from_u64(seed);
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let mut y = new();
        assert!(same(&y, &pos), "game {seed}: the start positions differ");
        while !pos.is_over() {
            let list = game.legal_moves(&pos);
            assert_eq!(
                bits(legal(&y)),
                list,
                "game {seed}, ply {}: legal moves differ at {pos:?}",
                pos.ply()
            );
            assert!(!list.is_empty(), "game {seed}: no move and not over");
            let k = list[rng.gen_range(0..list.len())];
            game.apply(&mut pos, k).expect("a listed move is legal");
            apply(&mut y, k - 1);
            moves += 1;
            assert!(
                same(&y, &pos),
                "game {seed}, ply {}: positions differ after pit {k}: {pos:?}",
                pos.ply()
            );
            assert!(pos.ply() < 5000, "game {seed} goes on for ever");
        }
        assert_eq!(legal(&y), 0, "game {seed}: the yardstick has moves after the end");
    }
    moves
}

#[test]
fn the_oware_yardstick_plays_like_the_interpreter() {
    let game = load("variants/oware.sow");
    let moves = agree(
        &game,
        oware::Oware::new,
        |y| y.legal(),
        |y, i| y.apply(i),
        |y, pos| {
            let c = &pos.seeds();
            c[..12] == y.pits.map(u32::from)
                && [c[12], c[13]] == y.stores.map(u32::from)
                && side(pos.to_move()) == y.to_move
                && pos.is_over() == y.over
                && (!pos.is_over() || winner(pos.winner()) == y.winner)
        },
    );
    assert!(moves > 100 * GAMES / 2, "the games are implausibly short: {moves} moves");
}

#[test]
fn the_kalah_yardstick_plays_like_the_interpreter() {
    let game = load("variants/kalah.sow");
    let moves = agree(
        &game,
        kalah::Kalah::new,
        |y| y.legal(),
        |y, i| y.apply(i),
        |y, pos| {
            let c = &pos.seeds();
            let pits_agree = (0..6)
                .all(|i| c[i] == u32::from(y.cells[kalah::Kalah::pit(0, i)]) && c[6 + i] == u32::from(y.cells[kalah::Kalah::pit(1, i)]));
            pits_agree
                && c[12] == u32::from(y.cells[kalah::Kalah::store(0)])
                && c[13] == u32::from(y.cells[kalah::Kalah::store(1)])
                && side(pos.to_move()) == y.to_move
                && pos.is_over() == y.over
                && (!pos.is_over() || winner(pos.winner()) == y.winner)
        },
    );
    assert!(moves > 20 * GAMES, "the games are implausibly short: {moves} moves");
}
