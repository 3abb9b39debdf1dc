//! `sowlang analyze FILE [--games N] [--players A,B] [--seed S] [--threads T] [--json] [--plot out.svg]`:
//! self-play between two computer players, in parallel, then a report for the author of a variant:
//! who wins by seat (with a 95% interval), draws, how games end (which rule, repetition, the length
//! cap), how long they last, how often each rule fires, and how many moves a player has to choose
//! from. Every game gets its own seed, derived from `--seed` and its number, so the report does not
//! depend on `--threads` (unless a player has a time limit).
//!
//! Every argument is checked before the first game (the plot's directory must take a new file), so
//! a mistake never costs the games played. Ctrl-C stops the run and prints the report of the games
//! finished so far, marked partial. The report leaves out what the rules cannot do (no line about
//! extra moves in a game without them), deciding from the compiled rules, not the game's name.

use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, RecvTimeoutError};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::{Output, fail, load, out, parse_set};
use crate::Override;
use crate::compile::ir::{Action, Feeding, GrandSlam, Then};
use crate::diagnostic::Diagnostic;
use crate::engine::{Event, Game, Outcome};
use crate::players::{Match, Spec, play_game};
use crate::search::endgame::Endgames;

mod human;
mod plot;
use human::human;
use plot::{PlotFile, plot_svg};

/// Most games one run may play: the report keeps each game's length and a hash of its moves.
pub const MAX_GAMES: u64 = 1_000_000;

/// The exit code of a run stopped by Ctrl-C (the shell's code for an interrupted command), so that a
/// script never takes a partial report for a whole one.
const INTERRUPTED_EXIT: u8 = 130;

/// Arguments of `analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// Games to play (1 to 1000000).
    #[arg(long, default_value_t = 200, value_parser = clap::value_parser!(u64).range(1..=MAX_GAMES))]
    games: u64,
    /// South's player and north's, separated by a comma: `random`, `greedy`, `alphabeta[:DEPTH|:TIME]`,
    /// `mcts[:PLAYOUTS|:TIME]` (a time is at most 60s a move).
    #[arg(long, value_parser = parse_players, default_value = "alphabeta:4,alphabeta:4")]
    players: Seats,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core; at most 256).
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u16).range(0..=256))]
    threads: u16,
    /// Plies played at random at the start of each game, so that games differ.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u32).range(0..=1_000_000))]
    random_opening: u32,
    /// Plies after which a game is stopped unfinished (1 to 1000000); in a game of rounds, the plies
    /// of the whole match.
    #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..=1_000_000))]
    max_plies: u32,
    /// Write an SVG with the length histogram and the seat win rates (its directory must exist).
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Set a parameter (`--set pits=5`); may be repeated.
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
    /// Play every second game with the seats exchanged (the same opening as the game before it), and
    /// report the first player's score against the second and their Elo difference with its 95%
    /// interval.
    #[arg(long)]
    swap: bool,
    #[command(flatten)]
    endgames: super::solve::Knowledge,
    #[command(flatten)]
    output: Output,
}

/// South's player and north's.
#[derive(Debug, Clone, Copy)]
pub struct Seats([Spec; 2]);

/// Parses `--players`: exactly two players, since a third one would have no seat.
fn parse_players(s: &str) -> Result<Seats, String> {
    let names: Vec<&str> = s.split(',').collect();
    if names.len() != 2 {
        return Err(format!(
            "name exactly two players, south's then north's, separated by a comma (e.g. `random,greedy`); `{s}` names {}",
            names.len()
        ));
    }
    Ok(Seats([names[0].parse()?, names[1].parse()?]))
}

/// Set by the Ctrl-C handler; the workers start no new game once it is.
static INTERRUPTED: AtomicBool = AtomicBool::new(false);

/// What one game did.
#[derive(Debug, Default, Clone)]
struct GameStats {
    winner: Option<Outcome>,
    ended_by: Option<String>,
    capped: bool,
    stuck: bool,
    plies: u32,
    counts: Counts,
    /// Firings per rule name (a firing is one application of a rule that moved seeds, claimed or set
    /// memory).
    firings: BTreeMap<String, u64>,
    /// Round (or game) ends per end rule.
    ends: BTreeMap<String, u64>,
    moves_hash: u64,
    /// How each side kept its won endgames (with the databases).
    endgames: [WonEndgames; 2],
    /// Played with the seats exchanged (`--swap`): the second player sat south.
    swapped: bool,
}

/// What is counted in a game and summed over the games.
#[derive(Debug, Default, Clone, Copy)]
struct Counts {
    capturing_moves: u64,
    seeds_captured: u64,
    relay_laps: u64,
    another_moves: u64,
    grand_slams: u64,
    grand_slams_undone: u64,
    feeding_penalties: u64,
    rounds: u64,
    /// Legal moves summed over the decisions taken (for the branching factor).
    choices: u64,
    decisions: u64,
}

impl Counts {
    fn add(&mut self, g: Counts) {
        self.capturing_moves += g.capturing_moves;
        self.seeds_captured += g.seeds_captured;
        self.relay_laps += g.relay_laps;
        self.another_moves += g.another_moves;
        self.grand_slams += g.grand_slams;
        self.grand_slams_undone += g.grand_slams_undone;
        self.feeding_penalties += g.feeding_penalties;
        self.rounds += g.rounds;
        self.choices += g.choices;
        self.decisions += g.decisions;
    }
}

impl GameStats {
    fn observe(&mut self, legal: usize, events: &[Event]) {
        self.counts.choices += legal as u64;
        self.counts.decisions += 1;
        let mut previous: Option<&str> = None;
        let mut captured = false;
        for e in events {
            let rule = match e {
                // Seeds taken into the hand to be sown again are captured too.
                Event::Take { rule, seeds, .. } | Event::TakeInHand { rule, seeds, .. } => {
                    self.counts.seeds_captured += u64::from(*seeds);
                    // A rule that fired on empty pits is named with 0 seeds: it captured nothing.
                    captured |= *seeds > 0;
                    Some(rule.as_str())
                }
                // A rule that only sets memory fires too: its change of memory is its action.
                Event::MoveSeeds { rule, .. }
                | Event::ShortMove { rule, .. }
                | Event::Claim { rule, .. }
                | Event::Remember { rule, .. } => Some(rule.as_str()),
                Event::PickUp { lap, .. } if *lap > 1 => {
                    self.counts.relay_laps += 1;
                    None
                }
                Event::AnotherMove { .. } => {
                    self.counts.another_moves += 1;
                    None
                }
                Event::GrandSlam { undone } => {
                    self.counts.grand_slams += 1;
                    self.counts.grand_slams_undone += u64::from(*undone);
                    None
                }
                Event::FeedingPenalty { .. } => {
                    self.counts.feeding_penalties += 1;
                    None
                }
                Event::GameEnds { rule, .. } => {
                    *self.ends.entry(rule.clone()).or_default() += 1;
                    None
                }
                Event::RoundSetup { .. } => {
                    self.counts.rounds += 1;
                    None
                }
                _ => None,
            };
            // A rule's actions come out as one run of events; a new run is a new firing.
            if let Some(r) = rule
                && previous != Some(r)
            {
                *self.firings.entry(r.to_string()).or_default() += 1;
            }
            previous = rule;
        }
        self.counts.capturing_moves += u64::from(captured);
    }
}

/// A share with its 95% Wilson interval.
#[derive(Debug, Serialize)]
struct Share {
    count: u64,
    rate: f64,
    ci95: [f64; 2],
}

fn share(count: u64, n: u64) -> Share {
    let (lo, hi) = wilson(count, n);
    Share {
        count,
        rate: if n == 0 { 0.0 } else { count as f64 / n as f64 },
        ci95: [lo, hi],
    }
}

/// The 95% Wilson score interval of `k` successes in `n` trials.
fn wilson(k: u64, n: u64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let z = 1.959_963_984_540_054_f64;
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let denom = 1.0 + z * z / n;
    let centre = (p + z * z / (2.0 * n)) / denom;
    let half = z * ((p * (1.0 - p) / n + z * z / (4.0 * n * n)).sqrt()) / denom;
    ((centre - half).max(0.0), (centre + half).min(1.0))
}

#[derive(Debug, Serialize)]
struct Sides<T> {
    south: T,
    north: T,
}

#[derive(Debug, Serialize)]
struct Length {
    mean: f64,
    median: f64,
    p90: u32,
    min: u32,
    max: u32,
}

#[derive(Debug, Serialize)]
struct RuleStats {
    /// `capture`, `trigger`, `after move` or `end`.
    kind: &'static str,
    total: u64,
    per_game: f64,
    /// Share of games in which it fired at least once.
    games: f64,
}

/// Events per game; a figure is left out (`null` never appears) when the rules cannot produce the
/// event and it never happened.
#[derive(Debug, Serialize)]
struct Events {
    #[serde(skip_serializing_if = "Option::is_none")]
    relay_laps_per_game: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    another_moves_per_game: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grand_slams: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    grand_slams_undone: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    feeding_penalties: Option<u64>,
    /// In a game of rounds (each game a match): the rounds a match played, its first included (a
    /// match stopped unfinished counts the round under way).
    #[serde(skip_serializing_if = "Option::is_none")]
    rounds_per_game: Option<f64>,
}

/// The whole report, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Report {
    file: String,
    game: String,
    /// Games finished and reported.
    games: u64,
    /// Games asked for with `--games`.
    games_requested: u64,
    /// Stopped by Ctrl-C: the figures cover only `games` games.
    interrupted: bool,
    players: Sides<String>,
    seed: u64,
    random_opening: u32,
    max_plies: u32,
    /// What `max_plies` counts the plies of: `game`, or `match` in a game of rounds (every round's).
    max_plies_over: &'static str,
    wins: Sides<u64>,
    draws: u64,
    unfinished: u64,
    win_rate: Sides<Share>,
    draw_rate: Share,
    ended_by: BTreeMap<String, u64>,
    /// With `--swap`: the first player's score against the second, and their Elo difference.
    #[serde(skip_serializing_if = "Option::is_none")]
    swap: Option<SwapReport>,
    /// Games ended by a rule that reads a repeated position (only when the game has one).
    #[serde(skip_serializing_if = "Option::is_none")]
    repetition: Option<u64>,
    capped: u64,
    stuck: u64,
    length: Length,
    length_histogram: Vec<(u32, u32, u64)>,
    /// Only when some rule can take seeds.
    #[serde(skip_serializing_if = "Option::is_none")]
    captures_per_game: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    seeds_captured_per_game: Option<f64>,
    rules: BTreeMap<String, RuleStats>,
    events: Events,
    branching: f64,
    distinct_games: u64,
    seconds: f64,
    /// With the endgame databases (when they exist for the game): how often each side left a won endgame.
    #[serde(skip_serializing_if = "Option::is_none")]
    won_endgames: Option<EndgameReport>,
}

/// The databases' verdict on the players' endgames.
#[derive(Debug, Serialize)]
struct EndgameReport {
    /// The databases hold every position with at most this many seeds on the board.
    seeds: u32,
    south: WonEndgames,
    north: WonEndgames,
}

fn endgame_report(db: &Endgames, t: &Tally) -> EndgameReport {
    EndgameReport {
        seeds: db.seeds(),
        south: t.endgames[0],
        north: t.endgames[1],
    }
}

/// A seed for game `i` of a run seeded with `seed` (splitmix64 of both).
fn game_seed(seed: u64, i: u64) -> u64 {
    fn mix(mut z: u64) -> u64 {
        z = z.wrapping_add(0x9e37_79b9_7f4a_7c15);
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    mix(seed ^ mix(i))
}

fn play_one(game: &Game, m: &Match, db: Option<&Endgames>) -> GameStats {
    let mut stats = GameStats::default();
    let played = play_game(game, m, |_, legal, events| stats.observe(legal, events));
    let mut h = std::collections::hash_map::DefaultHasher::new();
    played.moves.hash(&mut h);
    stats.moves_hash = h.finish();
    if let Some(db) = db {
        // Where `play_game` starts.
        let mut start = game.initial(None);
        game.settle_start(&mut start);
        stats.endgames = judge_endgames(game, db, &start, &played.moves);
    }
    stats.winner = if played.pos.over { played.pos.winner } else { None };
    stats.ended_by = played.pos.ended_by.as_deref().map(str::to_string);
    stats.capped = played.capped;
    stats.stuck = played.stuck;
    stats.plies = played.pos.ply;
    stats
}

/// Moves made from a won endgame, and how many of them left it, for one side (see
/// [`judge_endgames`]).
#[derive(Debug, Default, Clone, Copy, Serialize)]
struct WonEndgames {
    /// Moves made from a position of the databases whose exact value is a win for the mover.
    moves: u64,
    /// Those after which the position is no longer a win for the mover (a draw or a loss with best play).
    left: u64,
}

/// The endgame databases' verdict on a game's moves, per side: every move made from a position the
/// databases hold whose value is a win for the mover, and whether it kept the win. The game's
/// `moves` are played again from `start`.
fn judge_endgames(game: &Game, db: &Endgames, start: &crate::engine::Position, moves: &[usize]) -> [WonEndgames; 2] {
    let mut sides = [WonEndgames::default(); 2];
    let mut pos = start.clone();
    for &k in moves {
        let mover = pos.to_move;
        let before = db.final_margin(game, &pos, mover).filter(|_| !pos.over);
        if game.apply(&mut pos, k).is_err() {
            break;
        }
        if before.is_some_and(|m| m > 0) {
            let side = &mut sides[mover.index()];
            side.moves += 1;
            side.left += u64::from(db.final_margin(game, &pos, mover).is_none_or(|m| m <= 0));
        }
    }
    sides
}

/// Runs `analyze`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    // Everything that can be refused is checked here, before the first game.
    let loaded = match load(&args.file, &args.sets) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let plot = match args.plot.as_deref().map(PlotFile::prepare).transpose() {
        Ok(p) => p,
        Err(d) => return fail(d, 2),
    };
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(usize::from(args.threads)).build() {
        Ok(p) => p,
        Err(e) => {
            return fail(
                Diagnostic::bare("sow::analyze::threads", format!("cannot start worker threads: {e}")),
                2,
            );
        }
    };
    let db = Arc::new(args.endgames.read(&loaded.game));
    let game = Arc::new(loaded.game);
    let players = args.players.0;
    let games = args.games;
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(games);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games, {eta} left (Ctrl-C stops and reports)")
                .expect("the progress template is valid"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    // Without a handler (one was already set in this process) Ctrl-C ends the run as it always did.
    let _ = ctrlc::set_handler(|| INTERRUPTED.store(true, Ordering::SeqCst));
    let start = Instant::now();
    // The games run on their own thread and send each result here, so that on Ctrl-C the games
    // finished so far can be reported at once, without waiting for the ones under way (the process
    // ends when `main` returns, taking that thread with it).
    let (tx, rx) = mpsc::channel::<GameStats>();
    let worker = {
        let game = Arc::clone(&game);
        let db = Arc::clone(&db);
        let (seed, random_opening, max_plies, swap) = (args.seed, args.random_opening, args.max_plies, args.swap);
        std::thread::spawn(move || {
            pool.install(|| {
                (0..games).into_par_iter().for_each_with(tx, |tx, i| {
                    if INTERRUPTED.load(Ordering::SeqCst) {
                        return;
                    }
                    let (players, seed, swapped) = seating(players, seed, i, swap);
                    let m = Match {
                        players,
                        seed,
                        random_opening,
                        max_plies,
                    };
                    let mut stats = play_one(&game, &m, db.as_ref().as_ref());
                    stats.swapped = swapped;
                    let _ = tx.send(stats);
                });
            });
        })
    };
    let mut tally = Tally::new(&game);
    loop {
        if INTERRUPTED.load(Ordering::SeqCst) {
            // Games that finished before the stop count; the ones under way are dropped.
            for s in rx.try_iter() {
                tally.add(&game, s);
            }
            break;
        }
        match rx.recv_timeout(Duration::from_millis(50)) {
            Ok(s) => {
                tally.add(&game, s);
                bar.inc(1);
            }
            Err(RecvTimeoutError::Timeout) => {}
            Err(RecvTimeoutError::Disconnected) => {
                if let Err(panic) = worker.join() {
                    std::panic::resume_unwind(panic);
                }
                break;
            }
        }
    }
    bar.finish_and_clear();
    let interrupted = tally.games < games;
    if interrupted {
        eprintln!(
            "interrupted: {} of {games} games finished; the report below covers only those",
            tally.games
        );
    }
    if tally.games == 0 {
        eprintln!("no game finished before the interruption: nothing to report");
        return INTERRUPTED_EXIT;
    }
    let mut report = summarise(&args, &game, players, &tally, start.elapsed().as_secs_f64());
    report.won_endgames = db.as_ref().as_ref().map(|d| endgame_report(d, &tally));
    // The report is printed even when the plot cannot be written at the last moment (a full disk):
    // the games are not lost for it.
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("reports serialise")));
    } else {
        out(&human(&report));
    }
    if let Some(p) = plot
        && let Err(d) = p.write(&plot_svg(&report))
    {
        return fail(d, 2);
    }
    if interrupted { INTERRUPTED_EXIT } else { 0 }
}

/// Who sits where in game `i`, and its seed. With `swap`, the odd games exchange the seats and play
/// the seed of the game before them, so that each pair of games has the same random opening with
/// the players on either side of it.
fn seating(players: [Spec; 2], seed: u64, i: u64, swap: bool) -> ([Spec; 2], u64, bool) {
    if !swap {
        return (players, game_seed(seed, i), false);
    }
    let swapped = i % 2 == 1;
    let seats = if swapped { [players[1], players[0]] } else { players };
    (seats, game_seed(seed, i / 2), swapped)
}

/// The first player's results against the second (`--players A,B`), whatever their seats.
#[derive(Debug, Default, Clone, Copy)]
struct MatchUp {
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    unfinished: u64,
}

impl MatchUp {
    fn add(&mut self, g: &GameStats) {
        let a_is_south = !g.swapped;
        match (g.winner, a_is_south) {
            (Some(Outcome::South), true) | (Some(Outcome::North), false) => self.a_wins += 1,
            (Some(Outcome::South), false) | (Some(Outcome::North), true) => self.b_wins += 1,
            (Some(Outcome::Draw), _) => self.draws += 1,
            (None, _) => self.unfinished += 1,
        }
    }

    fn report(&self, players: [Spec; 2]) -> SwapReport {
        let scored = self.a_wins + self.b_wins + self.draws;
        let (score, elo, ci) = elo_difference(self.a_wins, self.draws, self.b_wins);
        SwapReport {
            a: players[0].to_string(),
            b: players[1].to_string(),
            a_wins: self.a_wins,
            b_wins: self.b_wins,
            draws: self.draws,
            unfinished: self.unfinished,
            scored,
            a_score: score,
            elo,
            elo_ci95: ci,
        }
    }
}

/// `--swap`: the first player (`a`) against the second (`b`), over the games that ended.
#[derive(Debug, Serialize)]
struct SwapReport {
    a: String,
    b: String,
    a_wins: u64,
    b_wins: u64,
    draws: u64,
    /// Games stopped unfinished: left out of the score.
    unfinished: u64,
    /// Games that ended (won, lost or drawn): the score's games.
    scored: u64,
    /// The first player's points (a win 1, a draw 1/2) over the games that ended.
    a_score: f64,
    /// The first player's Elo rating minus the second's, from `a_score`; `null` when it has no
    /// finite value (one player won every game, or no game ended).
    elo: Option<f64>,
    /// Its 95% interval; a bound is `null` where it is infinite.
    elo_ci95: [Option<f64>; 2],
}

/// The Elo difference that a score `p` (points per game, 0 < p < 1) stands for: `400 log10(p / (1 - p))`.
fn elo_of(p: f64) -> Option<f64> {
    (p > 0.0 && p < 1.0).then(|| 400.0 * (p / (1.0 - p)).log10())
}

/// The first player's score from its wins, draws and losses, the Elo difference it stands for, and
/// that difference's 95% interval: the score's normal interval, `p ± 1.96 σ / √n` with σ the standard
/// deviation of the points of one game (1, 1/2, 0), each bound turned into Elo (a bound at or beyond
/// 0 or 1 is infinite, `None`).
fn elo_difference(wins: u64, draws: u64, losses: u64) -> (f64, Option<f64>, [Option<f64>; 2]) {
    let n = (wins + draws + losses) as f64;
    if n == 0.0 {
        return (0.0, None, [None, None]);
    }
    let (w, d, l) = (wins as f64 / n, draws as f64 / n, losses as f64 / n);
    let p = w + d / 2.0;
    let variance = w * (1.0 - p).powi(2) + d * (0.5 - p).powi(2) + l * p.powi(2);
    let half = 1.959_963_984_540_054 * (variance / n).sqrt();
    (p, elo_of(p), [elo_of(p - half), elo_of(p + half)])
}

/// Which events the rules can produce at all, read from the compiled rules: a figure for something
/// the rules cannot do is left out of the report rather than printed as a zero.
#[derive(Debug, Clone, Copy)]
struct Features {
    captures: bool,
    relay: bool,
    another_move: bool,
    grand_slam: bool,
    feeding_penalty: bool,
    rounds: bool,
    repetition: bool,
}

impl Features {
    fn of(game: &Game) -> Features {
        let rules = || game.phases.iter().flat_map(|p| p.captures.iter()).chain(&game.triggers);
        Features {
            captures: rules().any(|r| r.actions.iter().any(|a| matches!(a, Action::Take { .. }))),
            relay: game.phases.iter().any(|p| p.sow.relay.is_some()),
            another_move: rules().any(|r| r.then == Then::AnotherMove) || game.grand_slam == Some(GrandSlam::Allowed(true)),
            grand_slam: matches!(game.grand_slam, Some(GrandSlam::CaptureNothing | GrandSlam::Allowed(_))),
            feeding_penalty: matches!(game.feeding, Some(Feeding::Penalty(_))),
            rounds: game.rounds.is_some(),
            repetition: game.ends.iter().any(|e| e.reads_repeated),
        }
    }
}

/// The games finished so far, added up as they arrive: every figure is a sum, a count or a set, so
/// the report does not depend on the order in which the threads finish their games.
#[derive(Debug, Default)]
struct Tally {
    games: u64,
    south: u64,
    north: u64,
    draws: u64,
    capped: u64,
    stuck: u64,
    ended_by: BTreeMap<String, u64>,
    repetition: u64,
    lengths: Vec<u32>,
    hashes: HashSet<u64>,
    counts: Counts,
    endgames: [WonEndgames; 2],
    /// Per rule (end rules as `end: NAME`): its kind, firings, and games in which it fired.
    rules: BTreeMap<String, (&'static str, u64, u64)>,
    /// The first player's results against the second, whatever their seats (`--swap`).
    match_up: MatchUp,
}

impl Tally {
    /// An empty tally that already lists every rule of the game that moves seeds, claims pits or
    /// sets memory, so that one that never fired shows as such. A rule with no action (one that
    /// only grants another move) leaves no event to count; the extra moves are counted instead.
    fn new(game: &Game) -> Tally {
        let mut rules = BTreeMap::new();
        for r in game.phases.iter().flat_map(|p| p.captures.iter()) {
            if !r.actions.is_empty() {
                rules.insert(r.name.clone(), ("capture", 0, 0));
            }
        }
        for r in game.triggers.iter().filter(|r| !r.actions.is_empty()) {
            rules.insert(r.name.clone(), ("trigger", 0, 0));
        }
        for r in game.phases.iter().flat_map(|p| p.after_moves.iter()) {
            if !r.actions.is_empty() {
                rules.entry(r.name.clone()).or_insert(("after move", 0, 0));
            }
        }
        for e in &game.ends {
            rules.insert(format!("end: {}", e.name), ("end", 0, 0));
        }
        Tally { rules, ..Tally::default() }
    }

    fn add(&mut self, game: &Game, g: GameStats) {
        self.match_up.add(&g);
        self.games += 1;
        match g.winner {
            Some(Outcome::South) => self.south += 1,
            Some(Outcome::North) => self.north += 1,
            Some(Outcome::Draw) => self.draws += 1,
            None => {}
        }
        self.capped += u64::from(g.capped);
        self.stuck += u64::from(g.stuck);
        if g.winner.is_some()
            && let Some(r) = &g.ended_by
        {
            *self.ended_by.entry(r.clone()).or_default() += 1;
            if game.ends.iter().any(|e| *e.name == **r && e.reads_repeated) {
                self.repetition += 1;
            }
        }
        self.lengths.push(g.plies);
        self.hashes.insert(g.moves_hash);
        self.counts.add(g.counts);
        for (sum, side) in self.endgames.iter_mut().zip(g.endgames) {
            sum.moves += side.moves;
            sum.left += side.left;
        }
        let kind = |name: &str| {
            if game.triggers.iter().any(|t| t.name == name) {
                "trigger"
            } else if game.phases.iter().any(|p| p.captures.iter().any(|c| c.name == name)) {
                "capture"
            } else {
                "after move"
            }
        };
        for (name, c) in g.firings {
            let r = self.rules.entry(name.clone()).or_insert((kind(&name), 0, 0));
            r.1 += c;
            r.2 += 1;
        }
        for (name, c) in g.ends {
            let r = self.rules.entry(format!("end: {name}")).or_insert(("end", 0, 0));
            r.1 += c;
            r.2 += 1;
        }
    }
}

fn summarise(args: &Args, game: &Game, players: [Spec; 2], t: &Tally, seconds: f64) -> Report {
    let n = t.games;
    let per_game = |x: u64| x as f64 / n.max(1) as f64;
    let can = Features::of(game);
    // A figure is shown when the rules can produce it, or (should the reading above miss a way)
    // when it happened.
    let shown = |possible: bool, count: u64| possible || count > 0;
    let mut lengths = t.lengths.clone();
    lengths.sort_unstable();
    let len_n = lengths.len().max(1);
    let length = Length {
        mean: lengths.iter().map(|&l| f64::from(l)).sum::<f64>() / len_n as f64,
        median: if lengths.is_empty() {
            0.0
        } else {
            (f64::from(lengths[(len_n - 1) / 2]) + f64::from(lengths[len_n / 2])) / 2.0
        },
        p90: lengths.get((len_n * 9).div_ceil(10).saturating_sub(1)).copied().unwrap_or(0),
        min: lengths.first().copied().unwrap_or(0),
        max: lengths.last().copied().unwrap_or(0),
    };
    let rules = t
        .rules
        .iter()
        .map(|(name, &(kind, total, games))| {
            let stats = RuleStats {
                kind,
                total,
                per_game: per_game(total),
                games: games as f64 / n.max(1) as f64,
            };
            (name.clone(), stats)
        })
        .collect();
    Report {
        file: args.file.display().to_string(),
        game: game.name.clone(),
        games: n,
        games_requested: args.games,
        interrupted: n < args.games,
        players: Sides {
            south: players[0].to_string(),
            north: players[1].to_string(),
        },
        seed: args.seed,
        random_opening: args.random_opening,
        max_plies: args.max_plies,
        max_plies_over: if game.rounds.is_some() { "match" } else { "game" },
        wins: Sides {
            south: t.south,
            north: t.north,
        },
        draws: t.draws,
        unfinished: n - t.south - t.north - t.draws,
        win_rate: Sides {
            south: share(t.south, n),
            north: share(t.north, n),
        },
        draw_rate: share(t.draws, n),
        swap: args.swap.then(|| t.match_up.report(players)),
        ended_by: t.ended_by.clone(),
        repetition: shown(can.repetition, t.repetition).then_some(t.repetition),
        capped: t.capped,
        stuck: t.stuck,
        length_histogram: histogram(&lengths),
        length,
        captures_per_game: shown(can.captures, t.counts.seeds_captured).then(|| per_game(t.counts.capturing_moves)),
        seeds_captured_per_game: shown(can.captures, t.counts.seeds_captured).then(|| per_game(t.counts.seeds_captured)),
        rules,
        events: Events {
            relay_laps_per_game: shown(can.relay, t.counts.relay_laps).then(|| per_game(t.counts.relay_laps)),
            another_moves_per_game: shown(can.another_move, t.counts.another_moves).then(|| per_game(t.counts.another_moves)),
            grand_slams: shown(can.grand_slam, t.counts.grand_slams).then_some(t.counts.grand_slams),
            grand_slams_undone: shown(game.grand_slam == Some(GrandSlam::CaptureNothing), t.counts.grand_slams_undone)
                .then_some(t.counts.grand_slams_undone),
            feeding_penalties: shown(can.feeding_penalty, t.counts.feeding_penalties).then_some(t.counts.feeding_penalties),
            // Each round after the first is set up: a match played one round more than that.
            rounds_per_game: shown(can.rounds, t.counts.rounds).then(|| per_game(t.counts.rounds + n)),
        },
        branching: if t.counts.decisions == 0 {
            0.0
        } else {
            t.counts.choices as f64 / t.counts.decisions as f64
        },
        distinct_games: t.hashes.len() as u64,
        seconds,
        won_endgames: None,
    }
}

/// Game lengths in at most 30 equal bins: (from, to inclusive, games).
fn histogram(sorted: &[u32]) -> Vec<(u32, u32, u64)> {
    let (Some(&lo), Some(&hi)) = (sorted.first(), sorted.last()) else {
        return Vec::new();
    };
    let width = ((hi - lo) / 30 + 1).max(1);
    let mut bins: Vec<(u32, u32, u64)> = Vec::new();
    let mut from = lo;
    while from <= hi {
        let to = from + width - 1;
        let c = sorted.iter().filter(|&&l| l >= from && l <= to).count() as u64;
        bins.push((from, to, c));
        from += width;
    }
    bins
}

#[cfg(test)]
mod tests {
    use super::plot::fit;
    use super::*;
    use crate::engine::Player;
    use std::path::Path;

    #[test]
    fn a_won_endgame_left_is_counted_for_the_side_that_left_it() {
        // Sowing into one's own store, another move for a last seed there, and a capture of the pit
        // across from an own empty pit: rules written here, so that the test names no shipped game.
        let rules = r#"
game "Own stores"
board { pits 3  seeds 2  stores sown }
sow { direction ccw  into own store }
capture "store" { when last == store(mover)  then another move }
capture "across" {
  when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
  take opposite(last), last
}
end "a row is empty" when seeds(south) == 0 or seeds(north) == 0 remaining owner
"#;
        let game = crate::load_text(Path::new("own_stores.sow"), rules, &[])
            .unwrap_or_else(|_| panic!("the rules load"))
            .game;
        let stop = AtomicBool::new(false);
        let build = crate::search::endgame::Build {
            dir: None,
            report: &|_| {},
            stop: &stop,
        };
        let db = Endgames::open(&game, 12, &build).expect("the databases serve these rules");
        // South [0,1,1], north [1,0,0], stores 4 and 5, south to move. Pit 3 sows into the store
        // (another move), then pit 2 ends in the empty south 3 across from north 1's seed: 2 seeds
        // taken, 7 to 5, a win by 2. Pit 2 instead makes south 3 hold 2; north's only move, pit 1,
        // sows into the empty north 2 across from an empty pit (nothing taken); south's only move,
        // pit 3, sows the store and north 1 and empties south's row: north keeps its 2 seeds, 5 to 7.
        let text = r#"{"pits":{"south":[0,1,1],"north":[1,0,0]},"stores":{"south":4,"north":5},"to_move":"south"}"#;
        let start = crate::position::from_json(&game, text).expect("a position");
        assert_eq!(db.final_margin(&game, &start, Player::South), Some(2));
        let kept = judge_endgames(&game, &db, &start, &[3, 2]);
        assert_eq!((kept[0].moves, kept[0].left, kept[1].moves), (2, 0, 0));
        let left = judge_endgames(&game, &db, &start, &[2, 1, 3]);
        // South left its win; north then stood in a won endgame and kept it; south's last move was
        // from a lost position.
        assert_eq!((left[0].moves, left[0].left), (1, 1));
        assert_eq!((left[1].moves, left[1].left), (1, 0));
    }

    #[test]
    fn elo_from_a_score_and_its_interval() {
        // 6 wins, 2 losses: p = 3/4, 400 log10(3) = 190.85; σ² = 3/4 (1/4)² + 1/4 (3/4)² = 3/16,
        // half = 1.96 √(3/16 / 8) = 0.30006: the upper bound is past 1, infinite.
        let (p, elo, [lo, hi]) = elo_difference(6, 0, 2);
        assert_eq!(p, 0.75);
        assert!((elo.expect("finite") - 190.85).abs() < 0.01);
        // p - half = 0.44994: 400 log10(0.44994 / 0.55006) = -34.90.
        assert!((lo.expect("finite") + 34.90).abs() < 0.01, "{lo:?}");
        assert_eq!(hi, None);
        // Even: 0, and an interval symmetric about it. 5 wins, 5 losses: half = 1.96 √(1/4 / 10) =
        // 0.30990, 400 log10(0.80990 / 0.19010) = 400 · 0.62945 = 251.78.
        let (p, elo, [lo, hi]) = elo_difference(5, 0, 5);
        assert_eq!((p, elo), (0.5, Some(0.0)));
        assert!((hi.expect("finite") - 251.78).abs() < 0.01 && (lo.expect("finite") + 251.78).abs() < 0.01);
        // Draws count half and narrow the interval: 2 wins, 6 draws, 2 losses: σ² = 2/10 (1/2)² · 2 = 1/10.
        let (p, _, [lo, _]) = elo_difference(2, 6, 2);
        assert_eq!(p, 0.5);
        let half = 1.959_963_984_540_054 * (0.1f64 / 10.0).sqrt();
        assert!((lo.expect("finite") - 400.0 * ((0.5 - half) / (0.5 + half)).log10()).abs() < 1e-9);
        // Every game won: no finite difference.
        assert_eq!(elo_difference(4, 0, 0).1, None);
        assert_eq!(elo_difference(0, 0, 0).1, None);
    }

    #[test]
    fn swapped_games_pair_up_on_one_seed() {
        let (a, b) = (Spec::Random, Spec::Greedy);
        assert_eq!(seating([a, b], 7, 4, true), ([a, b], game_seed(7, 2), false));
        assert_eq!(seating([a, b], 7, 5, true), ([b, a], game_seed(7, 2), true));
        assert_eq!(seating([a, b], 7, 5, false), ([a, b], game_seed(7, 5), false));
    }

    #[test]
    fn wilson_interval_brackets_the_rate() {
        let (lo, hi) = wilson(50, 100);
        assert!((lo - 0.4038).abs() < 1e-3 && (hi - 0.5962).abs() < 1e-3, "{lo} {hi}");
        assert_eq!(wilson(0, 0), (0.0, 1.0));
        let (lo, hi) = wilson(10, 10);
        assert!(lo > 0.69 && (hi - 1.0).abs() < 1e-9, "{lo} {hi}");
    }

    #[test]
    fn firings_count_runs_of_one_rule() {
        let mut g = GameStats::default();
        let take = |rule: &str| Event::Take {
            rule: rule.into(),
            cell: 0,
            seeds: 2,
            to: Player::South,
        };
        g.observe(
            3,
            &[take("a"), take("a"), Event::Sown { lap: 1, cells: vec![] }, take("a"), take("b")],
        );
        assert_eq!(g.firings.get("a"), Some(&2));
        assert_eq!(g.firings.get("b"), Some(&1));
        assert_eq!(g.counts.seeds_captured, 8);
        assert_eq!(g.counts.capturing_moves, 1);
    }

    #[test]
    fn seeds_taken_into_the_hand_are_captures() {
        let mut g = GameStats::default();
        let in_hand = Event::TakeInHand {
            rule: "pull".into(),
            cell: 3,
            seeds: 5,
            player: Player::South,
        };
        g.observe(2, &[in_hand.clone(), in_hand]);
        assert_eq!(
            (g.firings.get("pull"), g.counts.seeds_captured, g.counts.capturing_moves),
            (Some(&1), 10, 1)
        );
    }

    #[test]
    fn players_are_exactly_two() {
        assert!(parse_players("random,greedy").is_ok());
        for bad in ["random", "random,greedy,mcts", "random,", ",", ""] {
            assert!(parse_players(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn long_titles_are_cut_to_fit() {
        assert_eq!(fit("short", 100.0, 10.0), "short");
        // 60 pixels at 10 px a character (0.6 em each) hold 10 characters.
        assert_eq!(fit("abcdefghijklmnop", 60.0, 10.0), "abcdefghi…");
    }

    #[test]
    fn histogram_covers_every_game() {
        let lengths = [3, 5, 5, 40, 100];
        let bins = histogram(&lengths);
        assert_eq!(bins.iter().map(|b| b.2).sum::<u64>(), 5);
        assert_eq!(bins.first().map(|b| b.0), Some(3));
        assert!(bins.last().is_some_and(|b| b.1 >= 100));
    }
}
