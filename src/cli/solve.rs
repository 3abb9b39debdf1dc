//! `sowlang solve FILE [--set pits=3 --set seeds=2] [--json]`: the exact value of a small board for
//! the player to move at the start, under the file's own rules (see `search::solve` for how the
//! history behind a repetition rule is kept exact). A board too large for the memory available is
//! refused with an estimate of its size.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::{Output, Start, fail, load_start, out};
use crate::Override;
use crate::diagnostic::{Diagnostic, Sources};
use crate::search::solve::{self, Keys, Limits, Progress, Refusal, Solved, Watch};
use crate::syntax::ast::ItemKind;

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
    /// Give up after this many seconds (default: no limit).
    #[arg(long, value_parser = parse_seconds, allow_negative_numbers = true)]
    max_seconds: Option<f64>,
    #[command(flatten)]
    output: Output,
}

/// Parses `--max-seconds`: above 0, at most a year (a `Duration` cannot hold much more).
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(t) if t.is_finite() && t > 0.0 && t <= 3.2e7 => Ok(t),
        _ => Err("give a number of seconds above 0 and at most 32000000 (a year)".into()),
    }
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

/// How long the search runs before its table is projected (see `solve::Watch::project_after`):
/// long enough for the estimate of its progress to mean something, short enough to count as at once.
const PROJECT_AFTER: Duration = Duration::from_secs(2);

/// How long the search for a smaller board that finishes may take in all, and each board of it.
const PROBE_TOTAL: Duration = Duration::from_secs(5);
const PROBE_EACH: Duration = Duration::from_secs(2);
/// Plain minimax visits a few million nodes a second.
const MINIMAX_PROBE_NODES: u64 = 5_000_000;

/// Solves `game` from `start` with `method`, reporting to `watch`.
fn solve_with(method: Method, game: &crate::Game, start: &crate::Position, limits: Limits, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    match method {
        Method::Alphabeta => solve::solve_watched(game, start, limits, Keys::Component, watch),
        Method::History => solve::solve_watched(game, start, limits, Keys::History, watch),
        Method::Minimax => solve::minimax_watched(game, start, limits.max_nodes, watch),
    }
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
    let bar = progress_bar();
    let report = |p: Progress| match p {
        Progress::Graph { positions, bound } => {
            bar.set_message(format!(
                "exploring the board: {positions} positions found (there can be up to {bound:.1e})"
            ));
        }
        Progress::Search { nodes, table, done } => bar.set_message(format!(
            "searching, about {:.0}% done: {nodes} nodes, {table} positions with their history (this machine holds {})",
            100.0 * done,
            limits.max_positions
        )),
    };
    let watch = Watch {
        report: &report,
        deadline: args.max_seconds.map(|s| Instant::now() + Duration::from_secs_f64(s)),
        project_after: Some(PROJECT_AFTER),
    };
    let result = solve_with(args.method, game, &start, limits, &watch);
    let s = match result {
        Ok(s) => s,
        Err(Refusal::Choices) => {
            bar.finish_and_clear();
            return fail(refusal(&Refusal::Choices, None), 1);
        }
        Err(r) => {
            bar.set_message("the board is too large; looking for a smaller one that finishes");
            let smaller = smaller_board(&args, limits, solve::estimate_positions(game));
            bar.finish_and_clear();
            return fail(refusal(&r, smaller), 1);
        }
    };
    bar.finish_and_clear();
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
        out(&human(game, &start, &s, method));
    }
    0
}

/// A spinner with a line of text on stderr, only when stderr is a terminal.
fn progress_bar() -> ProgressBar {
    if !std::io::stderr().is_terminal() {
        return ProgressBar::hidden();
    }
    let bar = ProgressBar::new_spinner();
    bar.set_style(ProgressStyle::with_template("{spinner} {elapsed} {wide_msg}").expect("the progress template is valid"));
    bar.enable_steady_tick(Duration::from_millis(200));
    bar
}

/// A smaller board of the file that was solved here, and how long it took.
struct Smaller {
    sets: Vec<Override>,
    seconds: f64,
}

/// The file's parameters that make the board smaller, each with its value now and its lowest
/// value: those whose lowering shrinks [`solve::estimate_positions`], whatever their names.
fn size_parameters(args: &Args, estimate: f64) -> Vec<(String, i64, i64)> {
    let Ok(program) = crate::check::load(&args.file, &mut Sources::default()) else {
        return Vec::new();
    };
    let mut found = Vec::new();
    for item in &program.items {
        let ItemKind::Param { name, default, range, .. } = &item.kind else {
            continue;
        };
        let now = args
            .start
            .sets
            .iter()
            .rev()
            .find(|o| o.name == name.node)
            .map_or(default.node, |o| o.value);
        let lowest = range.as_ref().map_or(1, |(lo, _)| lo.node.max(1));
        if now <= lowest {
            continue;
        }
        let lowered = with(&args.start.sets, &name.node, now - 1);
        if let Some(game) = game_with(args, &lowered)
            && solve::estimate_positions(&game) < estimate
        {
            found.push((name.node.clone(), now, lowest));
        }
    }
    found
}

/// `sets` with `name` set to `value`.
fn with(sets: &[Override], name: &str, value: i64) -> Vec<Override> {
    let mut out: Vec<Override> = sets.iter().filter(|o| o.name != name).cloned().collect();
    out.push(Override {
        name: name.to_string(),
        value,
    });
    out
}

fn game_with(args: &Args, sets: &[Override]) -> Option<crate::Game> {
    crate::load_game(&args.file, sets).ok().map(|l| l.game)
}

/// The largest smaller board of the file that this machine solves within a few seconds: boards with
/// the size parameters lowered are tried from the smallest up until the time is spent, so only a
/// board that was solved here is ever suggested.
fn smaller_board(args: &Args, limits: Limits, estimate: f64) -> Option<Smaller> {
    let params = size_parameters(args, estimate);
    if params.is_empty() {
        return None;
    }
    // Every combination of values, each parameter from its value now down to at most eight below.
    let mut combos: Vec<Vec<Override>> = vec![args.start.sets.clone()];
    for (name, now, lowest) in &params {
        let values: Vec<i64> = (*lowest.max(&(now - 8))..=*now).collect();
        combos = combos
            .iter()
            .flat_map(|sets| values.iter().map(move |&v| with(sets, name, v)))
            .collect();
    }
    let mut boards: Vec<(f64, Vec<Override>, crate::Game)> = combos
        .into_iter()
        .filter_map(|sets| {
            let game = game_with(args, &sets)?;
            let e = solve::estimate_positions(&game);
            (e < estimate).then_some((e, sets, game))
        })
        .collect();
    boards.sort_by(|a, b| a.0.total_cmp(&b.0));
    let began = Instant::now();
    let mut best = None;
    for (_, sets, game) in boards {
        let left = PROBE_TOTAL.saturating_sub(began.elapsed());
        if left.is_zero() {
            break;
        }
        let mut start = game.initial(args.start.first.map(Into::into));
        game.settle_start(&mut start);
        let watch = Watch {
            report: &|_| {},
            deadline: Some(Instant::now() + left.min(PROBE_EACH)),
            project_after: Some(PROJECT_AFTER.min(left)),
        };
        let t = Instant::now();
        // Plain minimax has no clock: a small node budget keeps its tries within seconds too.
        let probe_limits = if args.method == Method::Minimax {
            Limits {
                max_nodes: limits.max_nodes.min(MINIMAX_PROBE_NODES),
                ..limits
            }
        } else {
            limits
        };
        // Boards are ordered by their size bound, which is not their difficulty: after one that
        // does not finish, a larger one still may.
        if solve_with(args.method, &game, &start, probe_limits, &watch).is_ok() {
            let shown: Vec<Override> = sets.into_iter().filter(|o| params.iter().any(|p| p.0 == o.name)).collect();
            best = Some(Smaller {
                sets: shown,
                seconds: t.elapsed().as_secs_f64(),
            });
        }
    }
    best
}

fn refusal(r: &Refusal, smaller: Option<Smaller>) -> Diagnostic {
    let gib = |limit: u64| (limit as f64) * solve::BYTES_PER_POSITION as f64 / f64::from(1u32 << 30);
    let (code, message, raise) = match r {
        Refusal::TooLarge { estimate, found, limit } => (
            "sow::solve::too_large",
            match found {
                Some(n) => format!(
                    "cannot solve this board: it has more than {n} positions, the most this machine holds (up to {estimate:.1e} in all)"
                ),
                None => {
                    format!("cannot solve this board: it has up to {estimate:.1e} positions, far more than the {limit} this machine holds")
                }
            },
            format!(
                "raise --max-positions ({limit} now, about {:.1} GiB) on a machine with more memory",
                gib(*limit)
            ),
        ),
        Refusal::TableFull { limit, .. } => (
            "sow::solve::too_large",
            format!(
                "cannot solve this board: its search needs more than {limit} positions with their history, the most this machine holds"
            ),
            format!(
                "raise --max-positions (about {:.1} GiB now) on a machine with more memory",
                gib(*limit)
            ),
        ),
        Refusal::Projected {
            entries, limit, seconds, ..
        } => (
            "sow::solve::too_large",
            format!(
                "cannot solve this board: after {seconds:.1} s its search is on course to need about {entries:.1e} positions with their history; this machine holds {limit}"
            ),
            format!(
                "raise --max-positions (about {:.1} GiB now) on a machine with more memory",
                gib(*limit)
            ),
        ),
        Refusal::TooLong { nodes } => (
            "sow::solve::too_long",
            format!("cannot solve this board: the search gave up after {nodes} nodes"),
            "raise --max-nodes".to_string(),
        ),
        Refusal::TooSlow { seconds } => (
            "sow::solve::too_long",
            format!("cannot solve this board within --max-seconds: the search was still going after {seconds:.1} s"),
            "raise --max-seconds".to_string(),
        ),
        Refusal::Choices => (
            "sow::solve::choices",
            "cannot solve this game: a position has more than 256 moves (moves with choices made on the way), more than the solver's tables hold".to_string(),
            "play it with `sowlang play` or study it with `sowlang analyze`, whose players handle such moves".to_string(),
        ),
    };
    let suggestion = match smaller {
        None if matches!(r, Refusal::Choices) => raise,
        Some(b) => {
            let sets: Vec<String> = b.sets.iter().map(|o| format!("--set {}={}", o.name, o.value)).collect();
            format!(
                "a smaller board does finish: `{}` was solved here in {:.2} s; or {raise}",
                sets.join(" "),
                b.seconds
            )
        }
        None => format!(
            "no smaller board of this file was solved here within {} s; {raise}",
            PROBE_TOTAL.as_secs()
        ),
    };
    Diagnostic::bare(code, message).with_help(suggestion)
}

fn human(game: &crate::Game, start: &crate::Position, s: &Solved, method: &str) -> String {
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
        game.side_pits(),
        game.total,
        result(s.value, s.margin),
        s.value.word(),
        s.margin
    );
    for &(k, v, m) in &s.moves {
        t.push_str(&format!("  pit {}: {}\n", game.name_move(start, k), result(v, m)));
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
