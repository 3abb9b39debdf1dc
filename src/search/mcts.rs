//! Monte Carlo tree search (UCT with random playouts) for any game. Input: a game, a position with a
//! legal move and a budget of playouts or time. Output: the most visited move, ties broken with the
//! caller's random generator, so a playout budget gives the same move for the same seed.
//!
//! Each node keeps the reward of the player who moved into it, so a move that lets the mover move
//! again needs no special case. A playout that reaches [`PLAYOUT_PLIES`] without an end is scored by
//! the evaluation's sign (who holds more), so a game that rarely ends still gives a signal.
//!
//! A playout is [`Game::random_playout`]'s game (in the game's fast form where it has one, issue
//! 25), so the random numbers a seed gives are drawn as `bench` draws them: the same seed and
//! budget still give the same move, but a change to how a playout draws its moves can change which
//! move that is.

use std::time::{Duration, Instant};

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::endgame::Endgames;
use super::evaluate;
use crate::engine::{Game, Outcome, Player, Position};

/// Longest random playout, in plies.
pub const PLAYOUT_PLIES: u32 = 400;

/// The exploration constant of UCT (rewards are in 0..=1).
const EXPLORATION: f64 = 1.4;

/// How many playouts, or how long.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Budget {
    /// Playouts to run (0 with a time budget: as many as it allows).
    pub playouts: u32,
    /// Run playouts for this long (the choice then depends on the machine); with a number of
    /// playouts too, at most that many, stopping early when the time is up.
    pub time: Option<Duration>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq)]
pub struct Searched {
    /// The chosen pit.
    pub pit: usize,
    /// The chosen move's mean reward for the player to move (1 = always won).
    pub win_rate: f64,
    /// Playouts run.
    pub playouts: u32,
    /// Every root move: visits and mean reward.
    pub moves: Vec<(usize, u32, f64)>,
}

struct Node {
    pos: Position,
    /// The pit played to get here.
    pit: usize,
    /// The player who played it (whose reward `reward` sums).
    by: Player,
    untried: Vec<usize>,
    children: Vec<usize>,
    visits: u32,
    reward: f64,
}

/// Searches the position, or returns `None` when there is no legal move.
pub fn search(game: &Game, pos: &Position, budget: Budget, rng: &mut StdRng) -> Option<Searched> {
    search_with(game, pos, budget, rng, None)
}

/// [`search`] with the endgame databases `db`: a position in them is not searched but answered
/// with a best move (its reward the exact result), and a playout that reaches one stops there with
/// the exact result.
pub fn search_with(game: &Game, pos: &Position, budget: Budget, rng: &mut StdRng, db: Option<&Endgames>) -> Option<Searched> {
    if let Some(exact) = db.and_then(|d| d.moves(game, pos)).filter(|m| !m.is_empty()) {
        let best = exact.iter().map(|m| m.1).max()?;
        let ties: Vec<usize> = exact.iter().filter(|m| m.1 == best).map(|m| m.0).collect();
        let reward = |m: i32| 0.5 + 0.5 * f64::from(m.signum());
        return Some(Searched {
            pit: ties[rng.gen_range(0..ties.len())],
            win_rate: reward(best),
            playouts: 0,
            moves: exact.iter().map(|&(k, m)| (k, 0, reward(m))).collect(),
        });
    }
    let mut untried = game.legal_moves(pos);
    if untried.is_empty() {
        return None;
    }
    untried.shuffle(rng);
    let mut nodes = vec![Node {
        pos: pos.clone(),
        pit: 0,
        by: pos.to_move.other(),
        untried,
        children: Vec::new(),
        visits: 0,
        reward: 0.0,
    }];
    let start = Instant::now();
    let mut playouts = 0u32;
    let mut path = Vec::new();
    loop {
        let more = match budget.time {
            Some(t) => playouts == 0 || (start.elapsed() < t && (budget.playouts == 0 || playouts < budget.playouts)),
            None => playouts < budget.playouts.max(1),
        };
        if !more {
            break;
        }
        path.clear();
        let mut at = 0;
        path.push(at);
        // Selection: down through fully expanded nodes.
        while nodes[at].untried.is_empty() && !nodes[at].children.is_empty() {
            let log_n = f64::from(nodes[at].visits.max(1)).ln();
            at = *nodes[at]
                .children
                .iter()
                .max_by(|&&a, &&b| uct(&nodes[a], log_n).total_cmp(&uct(&nodes[b], log_n)))
                .expect("children is not empty");
            path.push(at);
        }
        // Expansion: one new child.
        if let Some(k) = nodes[at].untried.pop() {
            let mut child = nodes[at].pos.clone();
            if game.apply(&mut child, k).is_ok() {
                let mut untried = game.legal_moves(&child);
                untried.shuffle(rng);
                let by = nodes[at].pos.to_move;
                nodes.push(Node {
                    pos: child,
                    pit: k,
                    by,
                    untried,
                    children: Vec::new(),
                    visits: 0,
                    reward: 0.0,
                });
                let id = nodes.len() - 1;
                nodes[at].children.push(id);
                at = id;
                path.push(at);
            }
        }
        // Simulation, then backing up.
        let south = playout(game, &nodes[at].pos, rng, db);
        for &n in &path {
            let node = &mut nodes[n];
            node.visits += 1;
            node.reward += if node.by == Player::South { south } else { 1.0 - south };
        }
        playouts += 1;
    }
    let root = &nodes[0];
    let most = root.children.iter().map(|&c| nodes[c].visits).max()?;
    let best: Vec<usize> = root.children.iter().copied().filter(|&c| nodes[c].visits == most).collect();
    let chosen = &nodes[best[rng.gen_range(0..best.len())]];
    let mut moves: Vec<(usize, u32, f64)> = root
        .children
        .iter()
        .map(|&c| (nodes[c].pit, nodes[c].visits, nodes[c].reward / f64::from(nodes[c].visits.max(1))))
        .collect();
    moves.sort_by_key(|m| m.0);
    Some(Searched {
        pit: chosen.pit,
        win_rate: chosen.reward / f64::from(chosen.visits.max(1)),
        playouts,
        moves,
    })
}

/// Upper confidence bound of a child seen from its parent's player to move.
fn uct(n: &Node, log_parent: f64) -> f64 {
    if n.visits == 0 {
        return f64::INFINITY;
    }
    let v = f64::from(n.visits);
    n.reward / v + EXPLORATION * (log_parent / v).sqrt()
}

/// Plays at random to the end (or [`PLAYOUT_PLIES`], or a position in the databases `db`, whose
/// result is known) and returns south's reward: 1 for a win, 0.5 for a draw, 0 for a loss. The
/// moves are [`Game::random_playout`]'s (in the game's fast form where it has one), a uniform draw
/// among the legal moves, the pass among them where the rules allow one.
fn playout(game: &Game, pos: &Position, rng: &mut StdRng, db: Option<&Endgames>) -> f64 {
    let mut p = pos.clone();
    match db {
        None => {
            game.random_playout(&mut p, rng, PLAYOUT_PLIES);
        }
        Some(db) => {
            // The databases hold positions of at most `db.seeds()` seeds in the pits: the playout
            // runs on until one, then asks them after every move.
            let floor = db.seeds() + 1;
            let mut plies = 0;
            while !p.over && plies < PLAYOUT_PLIES {
                if let Some(m) = db.final_margin(game, &p, Player::South) {
                    return 0.5 + 0.5 * f64::from(m.signum());
                }
                let on_board: u32 = p.board.cells[..game.pit_count()].iter().sum();
                let (most, floor) = if on_board < floor { (1, 0) } else { (PLAYOUT_PLIES - plies, floor) };
                let played = game.random_playout_above(&mut p, rng, most, floor);
                if played.plies == 0 {
                    break;
                }
                plies += played.plies;
            }
        }
    }
    let result = if p.over {
        p.winner
    } else {
        Some(match evaluate(game, &p, Player::South).signum() {
            1 => Outcome::South,
            -1 => Outcome::North,
            _ => Outcome::Draw,
        })
    };
    match result {
        Some(Outcome::South) => 1.0,
        Some(Outcome::North) => 0.0,
        _ => 0.5,
    }
}
