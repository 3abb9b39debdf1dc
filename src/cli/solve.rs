//! `sowlang solve FILE [--set pits=3 --set seeds=2] [--json]`: the exact value of a small board for
//! the player to move at the start, under the file's own rules (see `search::solve` for how the
//! history behind a repetition rule is kept exact). A board too large for the memory available is
//! refused with an estimate of its size.

use std::path::PathBuf;

use serde::Serialize;

use super::{Output, Start, fail, load_start, out};
use crate::diagnostic::Diagnostic;
use crate::search::solve::{self, Keys, Limits, Refusal, Solved};

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// Alpha-beta with a transposition table keyed on the position and the history that can matter.
    Alphabeta,
    /// The whole game tree, no table, no pruning: a slow check for tiny boards.
    Minimax,
    /// Alpha-beta with a table keyed on the position and its round's whole history: a check on
    /// `alphabeta` for somewhat larger boards.
    History,
}

/// Arguments of `solve`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    #[command(flatten)]
    start: Start,
    /// The search method.
    #[arg(long, value_enum, default_value_t = Method::Alphabeta)]
    method: Method,
    /// Most positions to hold (default: as many as half the available memory holds).
    #[arg(long)]
    max_positions: Option<u64>,
    /// Most search nodes to visit before giving up.
    #[arg(long, default_value_t = 20_000_000_000)]
    max_nodes: u64,
    #[command(flatten)]
    output: Output,
}

#[derive(Serialize)]
struct MoveJson {
    pit: usize,
    value: &'static str,
    margin: i64,
}

#[derive(Serialize)]
struct SolvedJson {
    value: &'static str,
    margin: i64,
    nodes: u64,
    to_move: &'static str,
    moves: Vec<MoveJson>,
    method: &'static str,
    positions: u64,
    components: u64,
    largest_component: u64,
    table_entries: u64,
    seconds: f64,
}

/// Runs `solve`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let (loaded, start) = match load_start(&args.file, &args.start) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let mut limits = Limits::from_memory();
    if let Some(m) = args.max_positions {
        limits.max_positions = m.max(1);
    }
    limits.max_nodes = args.max_nodes.max(1);
    let result = match args.method {
        Method::Alphabeta => solve::solve(game, &start, limits, Keys::Component),
        Method::History => solve::solve(game, &start, limits, Keys::History),
        Method::Minimax => solve::minimax(game, &start, limits.max_nodes),
    };
    let s = match result {
        Ok(s) => s,
        Err(r) => return fail(refusal(&r, game.side_pits, game.total), 1),
    };
    let method = match args.method {
        Method::Alphabeta => "alphabeta",
        Method::Minimax => "minimax",
        Method::History => "history",
    };
    if json {
        let j = SolvedJson {
            value: s.value.word(),
            margin: s.margin,
            nodes: s.nodes,
            to_move: s.to_move.name(),
            moves: s
                .moves
                .iter()
                .map(|&(pit, v, margin)| MoveJson {
                    pit,
                    value: v.word(),
                    margin,
                })
                .collect(),
            method,
            positions: s.positions,
            components: s.components.0,
            largest_component: s.components.1,
            table_entries: s.table,
            seconds: s.elapsed.as_secs_f64(),
        };
        out(&format!("{}\n", serde_json::to_string(&j).expect("results serialise")));
    } else {
        out(&human(game, &s, method));
    }
    0
}

fn refusal(r: &Refusal, pits: usize, seeds: u32) -> Diagnostic {
    match r {
        Refusal::TooLarge { .. } | Refusal::TableFull { .. } => Diagnostic::bare("sow::solve::too_large", format!("cannot solve this board: {r}")).with_help(format!(
            "solve a smaller board, e.g. `--set pits={} --set seeds=2` ({} seeds now), or raise --max-positions on a machine with more memory",
            pits.saturating_sub(1).max(1),
            seeds
        )),
        Refusal::TooLong { .. } => Diagnostic::bare("sow::solve::too_long", format!("cannot solve this board: {r}"))
            .with_help("solve a smaller board, or raise --max-nodes"),
    }
}

fn human(game: &crate::Game, s: &Solved, method: &str) -> String {
    let me = s.to_move.name();
    let them = s.to_move.other().name();
    let result = |v: solve::Value, margin: i64| match v {
        solve::Value::Win => format!("{me} wins by {margin}"),
        solve::Value::Loss => format!("{them} wins by {}", -margin),
        solve::Value::Draw if margin == 0 => "a draw".to_string(),
        solve::Value::Draw => format!("a draw ({me} {margin:+} seeds)"),
    };
    let mut t = format!(
        "{} ({} pits a side, {} seeds in all), {me} to move: {} ({} for {me}, margin {:+})\n",
        game.name,
        game.side_pits,
        game.total,
        result(s.value, s.margin),
        s.value.word(),
        s.margin
    );
    for &(k, v, m) in &s.moves {
        t.push_str(&format!("  pit {k}: {}\n", result(v, m)));
    }
    let method = if method == "minimax" {
        "plain minimax (whole tree, no table)".to_string()
    } else if method == "history" {
        format!(
            "alpha-beta with a table keyed on the whole history: {} positions, {} table entries",
            s.positions, s.table
        )
    } else {
        format!(
            "alpha-beta with a transposition table: {} positions in {} components (largest {}), {} table entries",
            s.positions, s.components.0, s.components.1, s.table
        )
    };
    t.push_str(&format!("{method}; {} nodes in {:.2} s\n", s.nodes, s.elapsed.as_secs_f64()));
    t
}
