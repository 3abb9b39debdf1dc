//! `sowlang perft FILE DEPTH [--json]`: the number of positions reached after 1..DEPTH moves from the
//! start position. A finished position is counted and not expanded, another move is one ply, and a
//! rule that looks at the past is followed along each line of play (see [`crate::Game::perft`]).

use std::path::PathBuf;
use std::time::Instant;

use serde::Serialize;

use super::{Output, Start, load_start, out};

/// Arguments of `perft`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// How many moves deep to count.
    #[arg(value_parser = clap::value_parser!(u32).range(1..=64))]
    depth: u32,
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    output: Output,
}

#[derive(Serialize)]
struct JsonPerft {
    nodes: Vec<u64>,
}

/// Runs `perft`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let (loaded, pos) = match load_start(&args.file, &args.start) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let started = Instant::now();
    let nodes = game.perft(&pos, args.depth as usize);
    let seconds = started.elapsed().as_secs_f64();
    if json {
        out(&format!(
            "{}\n",
            serde_json::to_string(&JsonPerft { nodes }).expect("numbers serialise")
        ));
        return 0;
    }
    let mut text = String::new();
    for (d, n) in nodes.iter().enumerate() {
        text.push_str(&format!("depth {:>2}: {n}\n", d + 1));
    }
    let all: u64 = nodes.iter().sum();
    text.push_str(&format!(
        "{all} positions in {seconds:.3} s ({:.0} positions/s)\n",
        all as f64 / seconds.max(1e-9)
    ));
    out(&text);
    0
}
