//! Alpha-beta's speed with the game's fast form (packed positions) and without it (the general
//! engine's positions): the same games, move by move, searched at a fixed depth each way; both
//! searches visit the same nodes (the tests check it), so nodes per CPU second compare directly.
//!
//! Usage: `cargo run --release --example alphabeta_speed -- FILE [DEPTH] [GAMES] [fast|general|both] [all-leaves] [random-games]`
//! (defaults 8, 4, both in turn; `all-leaves`: a node one ply above the
//! leaves makes all its moves, as before they were made one by one;
//! `random-games`: the positions of random games searched, the same whatever the search finds). Nodes are counted as `Searched::nodes` counts them (every
//! position made and scored), the nodes searched (`Searched::visited`) beside them. The rate is given per second of wall time and, where the system
//! tells it, per second of the thread's CPU time (the one to read on a shared machine).

use std::time::Instant;

use rand::SeedableRng;
use rand::rngs::StdRng;
use sowlang::search::alphabeta::{Limits, search_ordered};

fn main() {
    let mut args = std::env::args().skip(1);
    let file = args.next().expect("a rule file");
    let depth: u32 = args.next().map_or(8, |d| d.parse().expect("a depth"));
    let games: u64 = args.next().map_or(4, |g| g.parse().expect("a number of games"));
    let game = sowlang::load_game(std::path::Path::new(&file), &[]).expect("the file loads").game;
    let only = args.next().filter(|o| o != "both");
    let rest: Vec<String> = args.collect();
    let one_by_one = !rest.iter().any(|a| a == "all-leaves");
    let fixed = rest.iter().any(|a| a == "random-games");
    let general = game.without_fast_form();
    let limits = Limits { depth, time: None };
    let forms = [("fast", "fast form", &game), ("general", "general engine", &general)];
    for (_, name, g) in forms.into_iter().filter(|(key, _, _)| only.as_deref().is_none_or(|o| o == *key)) {
        let (mut nodes, mut visited, mut moves) = (0u64, 0u64, 0u64);
        let start = Instant::now();
        let cpu = thread_cpu();
        for seed in 0..games {
            let mut pos = g.initial(None);
            g.settle_start(&mut pos);
            let mut rng = StdRng::seed_from_u64(seed);
            let mut along = StdRng::seed_from_u64(seed);
            while !pos.is_over() && moves < 100_000 {
                let Some(found) = search_ordered(g, &pos, limits, false, &mut rng, None, one_by_one) else {
                    break;
                };
                nodes += found.nodes;
                visited += found.visited;
                moves += 1;
                if fixed {
                    // The same positions whatever the search chooses: a random game's.
                    g.random_playout(&mut pos, &mut along, 1);
                } else {
                    g.apply(&mut pos, found.pit).expect("a legal move");
                }
            }
        }
        let secs = start.elapsed().as_secs_f64();
        let cpu = match (cpu, thread_cpu()) {
            (Some(a), Some(b)) => format!(", {:.2} M nodes per CPU s", nodes as f64 / (b - a).max(1e-9) / 1e6),
            _ => String::new(),
        };
        println!(
            "{name}: {moves} moves, {nodes} nodes ({visited} searched) in {secs:.3} s: {:.2} M nodes/s{cpu}",
            nodes as f64 / secs / 1e6
        );
    }
}

/// The CPU time this thread has had, in seconds, where the system tells it.
fn thread_cpu() -> Option<f64> {
    #[cfg(unix)]
    {
        let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
        // SAFETY: `t` is a valid timespec for the call to fill.
        if unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0 {
            return Some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9);
        }
    }
    None
}
