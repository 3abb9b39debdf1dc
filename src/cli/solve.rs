//! `sowlang solve FILE [--set pits=3 --set seeds=2] [--json]`: the exact value of a small board for
//! the player to move at the start, under the file's own rules (see `search::solve` for how the
//! history behind a repetition rule is kept exact). A board too large for the memory available is
//! refused with an estimate of its size.

use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;

use super::{Output, Start, fail, load_start, out};
use crate::Override;
use crate::diagnostic::{Diagnostic, Sources};
use crate::search::endgame::{self, Endgames, Unserved};
use crate::search::prove;
use crate::search::solve::{self, Keys, Limits, Progress, Refusal, Solved, Watch};
use crate::syntax::ast::ItemKind;

/// How to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Method {
    /// `alphabeta` when the board's positions fit in memory, else `mtdf` when the rules allow it.
    Auto,
    /// MTD(f) over the moves with a bounded table, the endgame databases at the leaves and the
    /// threads sharing out the opening moves: for full boards.
    Mtdf,
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
    #[arg(long, value_enum, default_value_t = Method::Auto)]
    method: Method,
    /// Endgame databases (with `mtdf`): every position with at most this many seeds on the board
    /// (default: as many as fit in a quarter of the available memory, at most 3e9 positions and three fifths of the game's seeds).
    #[arg(long, conflicts_with = "no_endgame")]
    endgame: Option<u32>,
    /// Solve without endgame databases.
    #[arg(long)]
    no_endgame: bool,
    /// Build (or finish) the endgame databases and stop without solving: `play`, `analyze` and
    /// `serve` then read them (with `--endgame N` for their size).
    #[arg(long, conflicts_with = "no_endgame")]
    only_endgames: bool,
    /// Where the endgame databases are kept (default: `$SOWLANG_DATABASES`, else
    /// `$XDG_CACHE_HOME/sowlang/endgame`, else `~/.cache/sowlang/endgame`).
    #[arg(long)]
    databases: Option<PathBuf>,
    /// Memory for the transposition table of `mtdf`, in MiB (default: a third of the memory
    /// available, at most 8 GiB).
    #[arg(long)]
    table_mib: Option<u64>,
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
    name: String,
    value: &'static str,
    margin: i64,
}

#[derive(Serialize)]
struct SolvedJson {
    value: &'static str,
    margin: i64,
    nodes: u64,
    to_move: &'static str,
    /// The first of the best opening moves.
    best: Option<String>,
    moves: Vec<MoveJson>,
    /// A principal variation (`mtdf` only), each move with its player.
    pv: Vec<String>,
    method: &'static str,
    /// The endgame databases used (`mtdf`): the most seeds on the board of their positions.
    endgame_seeds: Option<u32>,
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

/// Solves `game` from `start` with `method`, reporting to `watch`, without databases (a file that
/// `auto` answers from its databases is searched with alpha-beta here: the probes for a smaller
/// board must stay within seconds, which a database build need not).
fn solve_with(method: Method, game: &crate::Game, start: &crate::Position, limits: Limits, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    let method = match resolve(method, game, limits) {
        Method::Mtdf if method == Method::Auto && by_databases_alone(game) => Method::Alphabeta,
        m => m,
    };
    match method {
        Method::Alphabeta | Method::Auto => solve::solve_watched(game, start, limits, Keys::Component, watch),
        Method::History => solve::solve_watched(game, start, limits, Keys::History, watch),
        Method::Minimax => solve::minimax_watched(game, start, limits.max_nodes, watch),
        Method::Mtdf => prove::prove(game, start, None, prove_options(None, limits), watch),
    }
}

/// The method `auto` stands for: the databases alone for a file with a repetition rule they serve
/// (when those of the whole board fit), else the graph search while the board's positions fit in
/// memory (it keeps histories exact), MTD(f) beyond when the rules allow it.
fn resolve(method: Method, game: &crate::Game, limits: Limits) -> Method {
    match method {
        Method::Auto if by_databases_alone(game) => Method::Mtdf,
        Method::Auto if prove::supported(game).is_ok() && solve::estimate_positions(game) > limits.max_positions as f64 => Method::Mtdf,
        Method::Auto => Method::Alphabeta,
        m => m,
    }
}

/// A game whose full-board answer comes from the databases alone: a repetition rule keeps the
/// search from tables keyed on positions, while the databases value every position where play
/// starts afresh (see `search::endgame`), when those of the whole board fit in memory.
fn by_databases_alone(game: &crate::Game) -> bool {
    // Databases of the whole board: their files within the memory (they are read in place, and
    // the search with the line of play reads them all over), the build's working memory within
    // two thirds of it; else the board is refused as too large.
    let memory = solve::available_memory();
    game.uses_repeated
        && endgame::servable(game).is_ok()
        && game.total <= endgame::MAX_SEEDS
        && endgame::bytes_of(game, game.total) <= memory
        && endgame::build_bytes(game, game.total) <= memory / 3 * 2
}

fn prove_options(table_mib: Option<u64>, limits: Limits) -> prove::Options {
    let bytes = match table_mib {
        Some(m) => m.max(1) << 20,
        None => (solve::available_memory() / 3).min(8 << 30),
    };
    prove::Options {
        table_bytes: bytes,
        max_nodes: limits.max_nodes,
    }
}

/// Set by Ctrl-C: the database build and the search stop and say so.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// The folder of the endgame databases.
fn database_dir(args: &Args) -> Option<PathBuf> {
    args.databases.clone().or_else(endgame::default_dir)
}

/// The most seeds on the board, at most three fifths of the game's, for databases that fit in a
/// quarter of the available memory and hold at most 3e9 positions. Kalah(6,4) needs the 2.5e9 of
/// 24 seeds (about fifteen minutes' build on two cores) to be proved within minutes: with the 4.5e8
/// of 20 seeds, the search had not finished its first opening move in half an hour. Kalah(5,4) is
/// proved in seconds with 24 of its 40 seeds, where 32 (the memory's limit) took 15 minutes to build
/// (docs/analysis.md).
fn default_endgame_seeds(game: &crate::Game) -> u32 {
    let budget = (solve::available_memory() / 4).min(3_000_000_000);
    (0..=game.total.min(endgame::MAX_SEEDS))
        .take_while(|&n| endgame::bytes_of(game, n) <= budget && 5 * n <= 3 * game.total)
        .last()
        .unwrap_or(0)
}

/// The endgame databases for `mtdf`, built (or read) with a progress bar, or `None` with a note
/// on stderr when the rules cannot have them and none were asked for by number.
fn databases(args: &Args, game: &crate::Game, whole: Option<u32>) -> Result<Option<Endgames>, Diagnostic> {
    if args.no_endgame {
        return Ok(None);
    }
    let asked = args.endgame.is_some();
    let refuse = |why: &Unserved| {
        Diagnostic::bare("sow::solve::endgame", format!("no endgame databases for this game: {why}"))
            .with_help("solve without them: `--no-endgame`")
    };
    if let Err(why) = endgame::servable(game) {
        if asked {
            return Err(refuse(&why));
        }
        eprintln!("note: solving without endgame databases: {why}");
        return Ok(None);
    }
    let seeds = args
        .endgame
        .or(whole)
        .unwrap_or_else(|| default_endgame_seeds(game))
        .min(game.total);
    let positions = endgame::positions_of(game, seeds.min(endgame::MAX_SEEDS));
    let bytes = endgame::bytes_of(game, seeds.min(endgame::MAX_SEEDS));
    let dir = database_dir(args);
    eprintln!(
        "endgame databases: every position with at most {seeds} seeds on the board, {positions} positions ({:.1} MiB){}",
        bytes as f64 / f64::from(1u32 << 20),
        dir.as_ref()
            .map_or(" in memory".to_string(), |d| format!(", kept in {}", d.display()))
    );
    let bar = if std::io::stderr().is_terminal() {
        ProgressBar::new(positions)
    } else {
        ProgressBar::hidden()
    };
    bar.set_style(
        ProgressStyle::with_template("{elapsed} [{bar:30}] {percent}% {msg} (about {eta} left)")
            .expect("the progress template is valid")
            .progress_chars("=> "),
    );
    let report = |p: endgame::BuildProgress| {
        bar.set_length(p.total.max(1));
        bar.set_position(p.done);
        bar.set_message(format!("layer {} of {seeds}", p.layer));
    };
    let build = endgame::Build {
        dir: dir.as_deref(),
        report: &report,
        stop: &INTERRUPTED,
    };
    let built = Endgames::open(game, seeds, &build);
    bar.finish_and_clear();
    match built {
        Ok(e) => Ok(Some(e)),
        Err(Unserved::Stopped) => Err(Diagnostic::bare(
            "sow::solve::stopped",
            "stopped: the endgame databases were not finished".to_string(),
        )
        .with_help("run the same command again: the finished layers are kept and the build goes on from there")),
        Err(why @ Unserved::Io(_)) => Err(refuse(&why).with_help("give a folder that can be written: `--databases DIR`")),
        Err(why) if asked => Err(refuse(&why)),
        Err(why) => {
            eprintln!("note: solving without endgame databases: {why}");
            Ok(None)
        }
    }
}

/// `--only-endgames`: builds the databases, says where they are, and stops.
fn build_only(args: &Args, game: &crate::Game) -> u8 {
    if let Err(why) = endgame::servable(game) {
        return fail(
            Diagnostic::bare("sow::solve::endgame", format!("no endgame databases for this game: {why}")),
            1,
        );
    }
    match databases(args, game, None) {
        Ok(Some(db)) => {
            let place = database_dir(args).map_or("in memory only (no folder to keep them in)".to_string(), |d| {
                format!("in {}", d.display())
            });
            out(&format!(
                "endgame databases of every position with at most {} seeds on the board, {place}\n",
                db.seeds()
            ));
            0
        }
        Ok(None) => 1,
        Err(d) => fail(d, 1),
    }
}

/// How `play`, `analyze` and `serve` find the endgame databases: they read the ones that exist and
/// never build any (`sowlang solve FILE --only-endgames` builds them).
#[derive(Debug, Clone, clap::Args)]
pub struct Knowledge {
    /// Where the endgame databases are read from (default: `$SOWLANG_DATABASES`, else
    /// `$XDG_CACHE_HOME/sowlang/endgame`, else `~/.cache/sowlang/endgame`); they are read when
    /// they exist, never built here: `sowlang solve FILE --only-endgames --endgame N` builds them.
    #[arg(long, value_name = "DIR")]
    pub databases: Option<PathBuf>,
    /// Do without the endgame databases even when they exist.
    #[arg(long, conflicts_with = "databases")]
    pub no_endgame: bool,
}

impl Knowledge {
    /// The game's databases when they exist (see [`Endgames::read`]), or `None`.
    pub fn read(&self, game: &crate::Game) -> Option<Endgames> {
        if self.no_endgame {
            return None;
        }
        Endgames::read(game, &self.databases.clone().or_else(endgame::default_dir)?)
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
    let method = resolve(args.method, game, limits);
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    if args.only_endgames {
        return build_only(&args, game);
    }
    let alone = method == Method::Mtdf && by_databases_alone(game);
    let db = if method == Method::Mtdf {
        if let (Err(r), false) = (prove::supported(game), alone) {
            return fail(refusal(&r, None), 1);
        }
        let whole = alone.then(|| start.seeds()[..game.pit_count()].iter().sum::<u32>());
        match databases(&args, game, whole) {
            Ok(db) => db,
            Err(d) => return fail(d, 1),
        }
    } else {
        None
    };
    let bar = progress_bar();
    let report = |p: Progress| match p {
        Progress::Graph { positions, bound } => {
            bar.set_message(format!(
                "exploring the board: {positions} positions found (there can be up to {bound:.1e})"
            ));
        }
        Progress::Search { nodes, table, done } if method == Method::Mtdf => {
            let _ = table;
            bar.set_message(format!(
                "searching: {:.0}% of the opening moves solved, {nodes} nodes",
                100.0 * done
            ))
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
    let result = if alone {
        match &db {
            Some(db) => solve::deep(|| endgame::solve_start(game, &start, db, limits.max_nodes, watch.deadline)),
            None => Err(Refusal::Rules("the databases this answer needs were not built".to_string())),
        }
    } else if method == Method::Mtdf {
        prove::prove(game, &start, db.as_ref(), prove_options(args.table_mib, limits), &watch)
    } else {
        solve_with(method, game, &start, limits, &watch)
    };
    let s = match result {
        Ok(s) => s,
        Err(r @ (Refusal::Choices | Refusal::Rules(_))) => {
            bar.finish_and_clear();
            return fail(refusal(&r, None), 1);
        }
        Err(r) if method == Method::Mtdf => {
            bar.finish_and_clear();
            return fail(refusal(&r, None), 1);
        }
        Err(r) => {
            bar.set_message("the board is too large; looking for a smaller one that finishes");
            let smaller = smaller_board(&args, limits, solve::estimate_positions(game));
            bar.finish_and_clear();
            return fail(refusal(&r, smaller), 1);
        }
    };
    bar.finish_and_clear();
    let method = match method {
        Method::Alphabeta | Method::Auto => "alphabeta",
        Method::Minimax => "minimax",
        Method::History => "history",
        Method::Mtdf => "mtdf",
    };
    let endgame_seeds = db.as_ref().map(Endgames::seeds);
    if json {
        let j = SolvedJson {
            value: s.value.word(),
            margin: s.margin,
            nodes: s.nodes,
            to_move: s.to_move.name(),
            best: best_move(&s).map(|k| game.name_move(&start, k)),
            moves: s
                .moves
                .iter()
                .map(|&(pit, v, margin)| MoveJson {
                    pit,
                    name: game.name_move(&start, pit),
                    value: v.word(),
                    margin,
                })
                .collect(),
            pv: variation_names(game, &start, &s.pv),
            method,
            endgame_seeds,
            positions: s.positions,
            components: s.components.0,
            largest_component: s.components.1,
            table_entries: s.table,
            seconds: s.elapsed.as_secs_f64(),
        };
        out(&format!("{}\n", serde_json::to_string(&j).expect("results serialise")));
    } else {
        out(&human(game, &start, &s, method, endgame_seeds));
    }
    0
}

/// The first of the best opening moves.
fn best_move(s: &Solved) -> Option<usize> {
    let key = |&&(_, v, m): &&(usize, solve::Value, i64)| {
        let r = match v {
            solve::Value::Win => 1,
            solve::Value::Draw => 0,
            solve::Value::Loss => -1,
        };
        (r, m)
    };
    let best = s.moves.iter().max_by_key(key)?;
    s.moves.iter().find(|m| key(m) == key(&best)).map(|m| m.0)
}

/// The moves of a variation by name, each named in the position it is played in.
fn variation_names(game: &crate::Game, start: &crate::Position, pv: &[usize]) -> Vec<String> {
    let mut pos = start.clone();
    pv.iter()
        .map(|&k| {
            let name = format!("{} {}", pos.to_move.name(), game.name_move(&pos, k));
            game.apply(&mut pos, k).expect("a variation's moves are legal");
            name
        })
        .collect()
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
        Refusal::Rules(why) => (
            "sow::solve::rules",
            format!("cannot solve this board: {why}"),
            "`--method alphabeta` keeps the history exact, on boards whose positions fit in memory".to_string(),
        ),
        Refusal::Choices => (
            "sow::solve::choices",
            "cannot solve this game: a position has more than 256 moves (moves with choices made on the way), more than the solver's tables hold".to_string(),
            "play it with `sowlang play` or study it with `sowlang analyze`, whose players handle such moves".to_string(),
        ),
    };
    let suggestion = match smaller {
        None if matches!(r, Refusal::Choices | Refusal::Rules(_)) => raise,
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

fn human(game: &crate::Game, start: &crate::Position, s: &Solved, method: &str, endgame_seeds: Option<u32>) -> String {
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
    if let Some(k) = best_move(s) {
        t.push_str(&format!("best move: {}\n", game.name_move(start, k)));
    }
    if !s.pv.is_empty() {
        t.push_str(&format!(
            "principal variation: {}\n",
            variation_names(game, start, &s.pv).join(", ")
        ));
    }
    let method = if method == "mtdf" {
        format!(
            "MTD(f) with a transposition table ({} entries used){}",
            s.table,
            endgame_seeds.map_or(String::new(), |n| format!(
                " and endgame databases of every position with at most {n} seeds on the board ({} positions)",
                s.positions
            ))
        )
    } else if method == "minimax" {
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
