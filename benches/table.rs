//! The speed table of docs/performance.md: for every shipped game, random playouts, perft, the
//! alpha-beta and MCTS players' rates, and how playouts scale to two threads, printed as one Markdown
//! table. Rates are per CPU second of the measuring thread (its own clock), so that a busy machine
//! slows the table less than a stopwatch would; the thread scaling is per wall second, as it must be.
//!
//! `cargo bench --bench table` measures every game for about a second a column; `-- oware hus` only the
//! files whose path holds one of the words; `-- --seconds 0.5` changes the time a column.
//!
//! How each column is measured, so that the table can be read without this file:
//! - playouts: `Game::random_playout` from the start (games cut at 1,000 moves as `sowlang bench` does),
//!   moves per CPU second;
//! - perft: `Game::perft` from the start at the deepest depth whose run takes at most a third of the
//!   column's time (no deeper than 14), positions at that depth per CPU second;
//! - alpha-beta: `search::alphabeta::search_with` at the deepest depth whose search takes at most a third
//!   of the column's time (no deeper than 20), from the start and the positions of one random game,
//!   nodes per CPU second;
//! - MCTS: `search::mcts::search` from the start with the column's time, playouts per CPU second;
//! - threads: random playouts on two threads against one, moves per wall second.

use std::path::Path;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::{SmallRng, StdRng};
use sowlang::search::{alphabeta, mcts};
use sowlang::{Game, Position};

/// Longest game of the playout columns, in moves.
const PLY_CAP: u32 = 1000;

/// The CPU time this thread has had, in seconds (the wall clock where the system has no such clock).
fn thread_cpu() -> f64 {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9;
        }
    }
    thread_local!(static START: Instant = Instant::now());
    START.with(|s| s.elapsed().as_secs_f64())
}

/// Runs `work` and returns what it gives with the CPU seconds it took.
fn timed<T>(work: impl FnOnce() -> T) -> (T, f64) {
    let before = thread_cpu();
    let out = work();
    (out, (thread_cpu() - before).max(1e-9))
}

fn start(game: &Game) -> Position {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    pos
}

/// Random playouts for `seconds` of this thread's CPU: (moves, CPU seconds).
fn playouts(game: &Game, seed: u64, seconds: f64) -> (u64, f64) {
    let from = start(game);
    let mut rng = SmallRng::seed_from_u64(seed);
    let began = thread_cpu();
    let mut moves = 0u64;
    let mut pos = from.clone();
    loop {
        // The clock is a system call: read it every few thousand moves, not after every short game.
        let read_at = moves + 2048;
        for _ in 0..2048 {
            pos.clone_from(&from);
            moves += u64::from(game.random_playout(&mut pos, &mut rng, PLY_CAP).plies);
            if moves >= read_at {
                break;
            }
        }
        let spent = thread_cpu() - began;
        if spent >= seconds {
            return (moves, spent);
        }
    }
}

/// Random playouts for `seconds` of wall time on `threads` threads: moves per wall second.
fn playouts_on_threads(game: &Game, threads: u64, seconds: f64) -> f64 {
    let from = start(game);
    let deadline = Instant::now() + Duration::from_secs_f64(seconds);
    let began = Instant::now();
    let moves: u64 = std::thread::scope(|s| {
        let handles: Vec<_> = (0..threads)
            .map(|t| {
                let from = &from;
                s.spawn(move || {
                    let mut rng = SmallRng::seed_from_u64(t + 1);
                    let (mut moves, mut pos) = (0u64, from.clone());
                    while Instant::now() < deadline {
                        let read_at = moves + 2048;
                        for _ in 0..2048 {
                            pos.clone_from(from);
                            moves += u64::from(game.random_playout(&mut pos, &mut rng, PLY_CAP).plies);
                            if moves >= read_at {
                                break;
                            }
                        }
                    }
                    moves
                })
            })
            .collect();
        handles.into_iter().map(|h| h.join().expect("a playing thread")).sum()
    });
    moves as f64 / began.elapsed().as_secs_f64()
}

/// Perft at the deepest depth that takes at most `budget` CPU seconds: (depth, positions, seconds).
fn perft(game: &Game, budget: f64) -> (usize, u64, f64) {
    let from = start(game);
    let mut best = (0, 0, 1e-9);
    for depth in 1..=14 {
        let (counts, spent) = timed(|| game.perft(&from, depth));
        let leaves = counts.last().copied().unwrap_or(0);
        if leaves == 0 {
            break;
        }
        best = (depth, leaves, spent);
        // The next depth costs about as many times more as this one had positions more than the last.
        let growth = leaves as f64 / counts.iter().rev().nth(1).copied().unwrap_or(1).max(1) as f64;
        if spent * growth.max(1.0) > budget {
            break;
        }
    }
    best
}

/// The positions of one random game from the start (at most 40), for the searches.
fn positions(game: &Game) -> Vec<Position> {
    let mut pos = start(game);
    let mut rng = StdRng::seed_from_u64(3);
    let mut out = Vec::new();
    while !pos.is_over() && out.len() < 40 {
        out.push(pos.clone());
        let moves = game.legal_moves(&pos);
        let Some(&k) = rand::seq::SliceRandom::choose(moves.as_slice(), &mut rng) else {
            break;
        };
        if game.apply(&mut pos, k).is_err() {
            break;
        }
    }
    out
}

/// Alpha-beta from the start at the deepest depth whose search takes at most `budget` CPU seconds,
/// then over the positions of a random game at that depth: (depth, nodes, seconds).
fn alpha_beta(game: &Game, budget: f64, seconds: f64) -> (u32, u64, f64) {
    let from = start(game);
    let search = |pos: &Position, depth: u32| {
        let mut rng = StdRng::seed_from_u64(1);
        let limits = alphabeta::Limits { depth, time: None };
        alphabeta::search_with(game, pos, limits, false, &mut rng, None).map_or(0, |s| s.nodes)
    };
    let mut depth = 1;
    for d in 1..=20 {
        depth = d;
        let (_, spent) = timed(|| search(&from, d));
        // Each ply costs a few times the last; stop before one that would pass the budget.
        if spent * 4.0 > budget {
            break;
        }
    }
    let (mut nodes, mut spent) = (0u64, 0.0);
    for pos in positions(game) {
        let (n, s) = timed(|| search(&pos, depth));
        (nodes, spent) = (nodes + n, spent + s);
        if spent > seconds {
            break;
        }
    }
    (depth, nodes, spent.max(1e-9))
}

/// MCTS from the start for `seconds`: playouts per CPU second.
fn mcts_rate(game: &Game, seconds: f64) -> f64 {
    let from = start(game);
    let mut rng = StdRng::seed_from_u64(5);
    let budget = mcts::Budget {
        playouts: 0,
        time: Some(Duration::from_secs_f64(seconds)),
    };
    let (found, spent) = timed(|| mcts::search(game, &from, budget, &mut rng));
    found.map_or(0.0, |f| f64::from(f.playouts) / spent)
}

/// `x` with a suffix: 12.3 M, 456 k, 78.
fn rate(x: f64) -> String {
    if x >= 1e6 {
        format!("{:.2} M", x / 1e6)
    } else if x >= 1e3 {
        format!("{:.1} k", x / 1e3)
    } else {
        format!("{x:.0}")
    }
}

fn main() {
    let mut args = std::env::args().skip(1).filter(|a| a != "--bench");
    let mut seconds = 1.0f64;
    let mut words = Vec::new();
    while let Some(a) = args.next() {
        if a == "--seconds" {
            seconds = args
                .next()
                .and_then(|s| s.parse().ok())
                .filter(|s: &f64| *s > 0.0)
                .expect("--seconds takes a positive number");
        } else {
            words.push(a);
        }
    }
    println!(
        "| file | engine | playouts: moves/CPU s | perft: depth, positions/CPU s | alpha-beta: depth, nodes/CPU s | MCTS: playouts/CPU s | 2 threads / 1 |"
    );
    println!("|---|---|---|---|---|---|---|");
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut games: Vec<_> = sowlang::shipped_games().collect();
    games.sort_by_key(|g| g.path);
    for shipped in games
        .iter()
        .filter(|g| words.is_empty() || words.iter().any(|w| g.path.contains(w.as_str())))
    {
        let game = sowlang::load_game(&root.join(shipped.path), &[])
            .expect("a shipped file loads")
            .game;
        let engine = if game.has_fast_form() { "fast form" } else { "general" };
        let (moves, spent) = playouts(&game, 1, seconds);
        let (depth, leaves, perft_spent) = perft(&game, seconds / 3.0);
        let (ab_depth, nodes, ab_spent) = alpha_beta(&game, seconds / 3.0, seconds);
        let mcts = mcts_rate(&game, seconds);
        let one = playouts_on_threads(&game, 1, seconds);
        let two = playouts_on_threads(&game, 2, seconds);
        println!(
            "| `{}` | {engine} | {} | {depth}: {} | {ab_depth}: {} | {} | {:.2}x |",
            shipped.path,
            rate(moves as f64 / spent),
            rate(leaves as f64 / perft_spent),
            rate(nodes as f64 / ab_spent),
            rate(mcts),
            two / one
        );
    }
}
