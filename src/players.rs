//! Computer players that work for any game: they only use the engine's legal moves and `apply`.

use rand::Rng;
use rand::rngs::StdRng;

use crate::engine::{Game, Player, Position};

/// A strategy for choosing moves.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Uniformly random among the legal moves.
    Random,
    /// The move that gains the most seeds at once (store difference after the move), ties at random.
    Greedy,
}

/// Chooses a move for the player to move, or `None` when there is none.
pub fn choose(game: &Game, pos: &Position, strategy: Strategy, rng: &mut StdRng) -> Option<usize> {
    let moves = game.legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    match strategy {
        Strategy::Random => Some(moves[rng.gen_range(0..moves.len())]),
        Strategy::Greedy => {
            let me = pos.to_move;
            let scored: Vec<(i64, usize)> = moves
                .iter()
                .map(|&k| {
                    let mut next = pos.clone();
                    let gain = match game.apply(&mut next, k) {
                        Ok(()) => margin(game, &next, me),
                        Err(_) => i64::MIN,
                    };
                    (gain, k)
                })
                .collect();
            let best = scored.iter().map(|(g, _)| *g).max()?;
            let ties: Vec<usize> = scored.iter().filter(|(g, _)| *g == best).map(|(_, k)| *k).collect();
            Some(ties[rng.gen_range(0..ties.len())])
        }
    }
}

/// A player's score minus the other's.
pub fn margin(game: &Game, pos: &Position, me: Player) -> i64 {
    let s = game.scores(pos);
    i64::from(s[me.index()]) - i64::from(s[me.other().index()])
}
