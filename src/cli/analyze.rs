//! `sowlang analyze FILE [--games N] [--players A,B] [--seed S] [--threads T] [--json] [--plot out.svg]`:
//! self-play between two computer players, in parallel, then a report for the author of a variant:
//! who wins by seat (with a 95% interval), draws, how games end (which rule, repetition, the length
//! cap), how long they last, how often each rule fires, and how many moves a player has to choose
//! from. Every game gets its own seed, derived from `--seed` and its number, so the report does not
//! depend on `--threads` (unless a player has a time limit).

use std::collections::{BTreeMap, HashSet};
use std::hash::{Hash, Hasher};
use std::io::IsTerminal;
use std::path::PathBuf;
use std::time::Instant;

use indicatif::{ProgressBar, ProgressStyle};
use rayon::prelude::*;
use serde::Serialize;

use super::{Output, fail, load, out, parse_set};
use crate::Override;
use crate::diagnostic::Diagnostic;
use crate::engine::{Event, Game, Outcome};
use crate::players::{Match, Spec, play_game};

/// Arguments of `analyze`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// Games to play.
    #[arg(long, default_value_t = 200)]
    games: u64,
    /// South's player and north's, comma-separated: `random`, `greedy`, `alphabeta[:DEPTH|:TIME]`,
    /// `mcts[:PLAYOUTS|:TIME]`.
    #[arg(long, value_delimiter = ',', num_args = 1..=2, value_parser = parse_spec, default_value = "alphabeta:4,alphabeta:4")]
    players: Vec<Spec>,
    /// Seed of the whole run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Worker threads (0 = one per core).
    #[arg(long, default_value_t = 0)]
    threads: usize,
    /// Plies played at random at the start of each game, so that games differ.
    #[arg(long, default_value_t = 0)]
    random_opening: u32,
    /// Plies after which a game is stopped unfinished.
    #[arg(long, default_value_t = 1000)]
    max_plies: u32,
    /// Write an SVG with the length histogram and the seat win rates.
    #[arg(long)]
    plot: Option<PathBuf>,
    /// Set a parameter (`--set pits=5`); may be repeated.
    #[arg(long = "set", value_parser = parse_set)]
    sets: Vec<Override>,
    #[command(flatten)]
    output: Output,
}

fn parse_spec(s: &str) -> Result<Spec, String> {
    s.parse()
}

/// What one game did.
#[derive(Debug, Default, Clone)]
struct GameStats {
    winner: Option<Outcome>,
    ended_by: Option<String>,
    capped: bool,
    stuck: bool,
    plies: u32,
    capturing_moves: u64,
    seeds_captured: u64,
    /// Firings per rule name (a firing is one application of a rule that moved seeds or claimed).
    firings: BTreeMap<String, u64>,
    /// Round (or game) ends per end rule.
    ends: BTreeMap<String, u64>,
    relay_laps: u64,
    another_moves: u64,
    grand_slams: u64,
    grand_slams_undone: u64,
    feeding_penalties: u64,
    rounds: u64,
    choices: u64,
    decisions: u64,
    moves_hash: u64,
}

impl GameStats {
    fn observe(&mut self, legal: usize, events: &[Event]) {
        self.choices += legal as u64;
        self.decisions += 1;
        let mut previous: Option<&str> = None;
        let mut captured = false;
        for e in events {
            let rule = match e {
                Event::Take { rule, seeds, .. } => {
                    self.seeds_captured += u64::from(*seeds);
                    captured = true;
                    Some(rule.as_str())
                }
                Event::MoveSeeds { rule, .. } | Event::Claim { rule, .. } => Some(rule.as_str()),
                Event::PickUp { lap, .. } if *lap > 1 => {
                    self.relay_laps += 1;
                    None
                }
                Event::AnotherMove { .. } => {
                    self.another_moves += 1;
                    None
                }
                Event::GrandSlam { undone } => {
                    self.grand_slams += 1;
                    self.grand_slams_undone += u64::from(*undone);
                    None
                }
                Event::FeedingPenalty { .. } => {
                    self.feeding_penalties += 1;
                    None
                }
                Event::GameEnds { rule, .. } => {
                    *self.ends.entry(rule.clone()).or_default() += 1;
                    None
                }
                Event::RoundSetup { .. } => {
                    self.rounds += 1;
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
        self.capturing_moves += u64::from(captured);
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
    /// `capture`, `trigger` or `end`.
    kind: &'static str,
    total: u64,
    per_game: f64,
    /// Share of games in which it fired at least once.
    games: f64,
}

#[derive(Debug, Serialize)]
struct Events {
    relay_laps_per_game: f64,
    another_moves_per_game: f64,
    grand_slams: u64,
    grand_slams_undone: u64,
    feeding_penalties: u64,
    rounds_per_game: f64,
}

/// The whole report, as `--json` prints it.
#[derive(Debug, Serialize)]
struct Report {
    file: String,
    game: String,
    games: u64,
    players: Sides<String>,
    seed: u64,
    random_opening: u32,
    max_plies: u32,
    wins: Sides<u64>,
    draws: u64,
    unfinished: u64,
    win_rate: Sides<Share>,
    draw_rate: Share,
    ended_by: BTreeMap<String, u64>,
    repetition: u64,
    capped: u64,
    stuck: u64,
    length: Length,
    length_histogram: Vec<(u32, u32, u64)>,
    captures_per_game: f64,
    seeds_captured_per_game: f64,
    rules: BTreeMap<String, RuleStats>,
    events: Events,
    branching: f64,
    distinct_games: u64,
    seconds: f64,
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

fn play_one(game: &Game, m: &Match) -> GameStats {
    let mut stats = GameStats::default();
    let played = play_game(game, m, |_, legal, events| stats.observe(legal, events));
    let mut h = std::collections::hash_map::DefaultHasher::new();
    played.moves.hash(&mut h);
    stats.moves_hash = h.finish();
    stats.winner = if played.pos.over { played.pos.winner } else { None };
    stats.ended_by = played.pos.ended_by.clone();
    stats.capped = played.capped;
    stats.stuck = played.stuck;
    stats.plies = played.pos.ply;
    stats
}

/// Runs `analyze`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let loaded = match load(&args.file, &args.sets) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    let players = [args.players[0], *args.players.get(1).unwrap_or(&args.players[0])];
    let games = args.games.max(1);
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(args.threads).build() {
        Ok(p) => p,
        Err(e) => {
            return fail(
                Diagnostic::bare("sow::analyze::threads", format!("cannot start worker threads: {e}")),
                2,
            );
        }
    };
    let bar = if std::io::stderr().is_terminal() {
        let b = ProgressBar::new(games);
        b.set_style(
            ProgressStyle::with_template("{bar:40} {pos}/{len} games  {per_sec}  {eta} left").expect("the progress template is valid"),
        );
        b
    } else {
        ProgressBar::hidden()
    };
    let start = Instant::now();
    let all: Vec<GameStats> = pool.install(|| {
        (0..games)
            .into_par_iter()
            .map(|i| {
                let m = Match {
                    players,
                    seed: game_seed(args.seed, i),
                    random_opening: args.random_opening,
                    max_plies: args.max_plies.max(1),
                };
                let s = play_one(game, &m);
                bar.inc(1);
                s
            })
            .collect()
    });
    bar.finish_and_clear();
    let report = summarise(&args, game, players, &all, start.elapsed().as_secs_f64());
    if let Some(path) = &args.plot {
        let svg = plot(&report);
        if let Err(e) = std::fs::write(path, svg) {
            return fail(
                Diagnostic::bare(
                    "sow::analyze::unwritable",
                    format!("cannot write the plot `{}`: {e}", path.display()),
                ),
                2,
            );
        }
    }
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("reports serialise")));
    } else {
        out(&human(&report));
    }
    0
}

fn summarise(args: &Args, game: &Game, players: [Spec; 2], all: &[GameStats], seconds: f64) -> Report {
    let n = all.len() as u64;
    let per_game = |x: u64| x as f64 / n.max(1) as f64;
    let count = |f: &dyn Fn(&GameStats) -> bool| all.iter().filter(|g| f(g)).count() as u64;
    let south = count(&|g| g.winner == Some(Outcome::South));
    let north = count(&|g| g.winner == Some(Outcome::North));
    let draws = count(&|g| g.winner == Some(Outcome::Draw));
    let mut ended_by: BTreeMap<String, u64> = BTreeMap::new();
    let mut repetition = 0;
    for g in all.iter().filter(|g| g.winner.is_some()) {
        if let Some(r) = &g.ended_by {
            *ended_by.entry(r.clone()).or_default() += 1;
            if game.ends.iter().any(|e| e.name == *r && e.reads_repeated) {
                repetition += 1;
            }
        }
    }
    let mut lengths: Vec<u32> = all.iter().map(|g| g.plies).collect();
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
    let kind = |name: &str| {
        if game.triggers.iter().any(|t| t.name == name) {
            "trigger"
        } else {
            "capture"
        }
    };
    let mut rules: BTreeMap<String, RuleStats> = BTreeMap::new();
    for g in all {
        for (name, &c) in &g.firings {
            let r = rules.entry(name.clone()).or_insert(RuleStats {
                kind: kind(name),
                total: 0,
                per_game: 0.0,
                games: 0.0,
            });
            r.total += c;
            r.games += 1.0;
        }
        for (name, &c) in &g.ends {
            let r = rules.entry(format!("end: {name}")).or_insert(RuleStats {
                kind: "end",
                total: 0,
                per_game: 0.0,
                games: 0.0,
            });
            r.total += c;
            r.games += 1.0;
        }
    }
    for r in rules.values_mut() {
        r.per_game = per_game(r.total);
        r.games /= n.max(1) as f64;
    }
    let sum = |f: &dyn Fn(&GameStats) -> u64| all.iter().map(f).sum::<u64>();
    let decisions = sum(&|g| g.decisions);
    let distinct: HashSet<u64> = all.iter().map(|g| g.moves_hash).collect();
    Report {
        file: args.file.display().to_string(),
        game: game.name.clone(),
        games: n,
        players: Sides {
            south: players[0].to_string(),
            north: players[1].to_string(),
        },
        seed: args.seed,
        random_opening: args.random_opening,
        max_plies: args.max_plies,
        wins: Sides { south, north },
        draws,
        unfinished: n - south - north - draws,
        win_rate: Sides {
            south: share(south, n),
            north: share(north, n),
        },
        draw_rate: share(draws, n),
        ended_by,
        repetition,
        capped: count(&|g| g.capped),
        stuck: count(&|g| g.stuck),
        length_histogram: histogram(&lengths),
        length,
        captures_per_game: per_game(sum(&|g| g.capturing_moves)),
        seeds_captured_per_game: per_game(sum(&|g| g.seeds_captured)),
        rules,
        events: Events {
            relay_laps_per_game: per_game(sum(&|g| g.relay_laps)),
            another_moves_per_game: per_game(sum(&|g| g.another_moves)),
            grand_slams: sum(&|g| g.grand_slams),
            grand_slams_undone: sum(&|g| g.grand_slams_undone),
            feeding_penalties: sum(&|g| g.feeding_penalties),
            rounds_per_game: per_game(sum(&|g| g.rounds)),
        },
        branching: if decisions == 0 {
            0.0
        } else {
            sum(&|g| g.choices) as f64 / decisions as f64
        },
        distinct_games: distinct.len() as u64,
        seconds,
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

fn pct(x: f64) -> String {
    format!("{:.1}%", 100.0 * x)
}

fn human(r: &Report) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        "{} ({}): {} games, {} (south) vs {} (north), seed {}{}, {:.1} s\n",
        r.game,
        r.file,
        r.games,
        r.players.south,
        r.players.north,
        r.seed,
        if r.random_opening > 0 {
            format!(", {} random opening plies", r.random_opening)
        } else {
            String::new()
        },
        r.seconds
    ));
    s.push_str(&format!("{:<22}{:>7}{:>9}   95% interval\n", "", "games", "share"));
    for (name, sh) in [
        ("south wins", &r.win_rate.south),
        ("north wins", &r.win_rate.north),
        ("draws", &r.draw_rate),
    ] {
        s.push_str(&format!(
            "{name:<22}{:>7}{:>9}   {} to {}\n",
            sh.count,
            pct(sh.rate),
            pct(sh.ci95[0]),
            pct(sh.ci95[1])
        ));
    }
    if r.unfinished > 0 {
        s.push_str(&format!(
            "{:<22}{:>7}{:>9}   (length cap {}: {}, no legal move: {})\n",
            "unfinished",
            r.unfinished,
            pct(r.unfinished as f64 / r.games as f64),
            r.max_plies,
            r.capped,
            r.stuck
        ));
    }
    s.push_str(&format!(
        "ended by repetition: {}; stopped at the length cap ({} plies): {}\n",
        r.repetition, r.max_plies, r.capped
    ));
    if !r.ended_by.is_empty() {
        let list: Vec<String> = r.ended_by.iter().map(|(k, v)| format!("\"{k}\" {v}")).collect();
        s.push_str(&format!("ended by rule: {}\n", list.join(", ")));
    }
    s.push_str(&format!(
        "length (plies): mean {:.1}, median {:.1}, p90 {}, min {}, max {}\n",
        r.length.mean, r.length.median, r.length.p90, r.length.min, r.length.max
    ));
    s.push_str(&format!(
        "captures per game: {:.2} moves capturing {:.1} seeds\n",
        r.captures_per_game, r.seeds_captured_per_game
    ));
    s.push_str("rules fired:\n");
    if r.rules.is_empty() {
        s.push_str("  none\n");
    }
    for (name, st) in &r.rules {
        let name = name.strip_prefix("end: ").unwrap_or(name);
        s.push_str(&format!(
            "  {:<8} {:<40} {:>9.2} per game, in {} of games\n",
            st.kind,
            format!("\"{name}\""),
            st.per_game,
            pct(st.games)
        ));
    }
    let e = &r.events;
    s.push_str(&format!(
        "relay laps per game: {:.2}; another move per game: {:.2}; grand slams: {} ({} undone); feeding penalties: {}; rounds per game: {:.2}\n",
        e.relay_laps_per_game, e.another_moves_per_game, e.grand_slams, e.grand_slams_undone, e.feeding_penalties, e.rounds_per_game
    ));
    s.push_str(&format!(
        "mean branching factor: {:.2}; distinct games: {} of {}\n",
        r.branching, r.distinct_games, r.games
    ));
    s
}

/// Escapes text for SVG.
fn xml(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// A hand-written SVG: the histogram of game lengths on the left, the seat win rates with their 95%
/// intervals on the right.
fn plot(r: &Report) -> String {
    let (w, h) = (900.0, 420.0);
    let mut s = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w}\" height=\"{h}\" viewBox=\"0 0 {w} {h}\" font-family=\"sans-serif\" font-size=\"12\">\n<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
    );
    s.push_str(&format!(
        "<text x=\"{}\" y=\"24\" text-anchor=\"middle\" font-size=\"16\">{}: {} games, {} vs {}</text>\n",
        w / 2.0,
        xml(&r.game),
        r.games,
        xml(&r.players.south),
        xml(&r.players.north)
    ));
    // Left: the length histogram.
    let (x0, y0, pw, ph) = (60.0, 60.0, 480.0, 300.0);
    let most = r.length_histogram.iter().map(|b| b.2).max().unwrap_or(1).max(1) as f64;
    let bins = r.length_histogram.len().max(1) as f64;
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">game length (plies)</text>\n",
        x0 + pw / 2.0,
        y0 - 12.0
    ));
    for (i, &(from, to, c)) in r.length_histogram.iter().enumerate() {
        let bw = pw / bins;
        let bh = ph * c as f64 / most;
        s.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"#4878a8\"><title>{from}-{to} plies: {c} games</title></rect>\n",
            x0 + i as f64 * bw + 1.0,
            y0 + ph - bh,
            (bw - 2.0).max(1.0),
            bh
        ));
    }
    s.push_str(&format!(
        "<line x1=\"{x0}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n<line x1=\"{x0}\" y1=\"{y0}\" x2=\"{x0}\" y2=\"{}\" stroke=\"black\"/>\n",
        y0 + ph,
        x0 + pw,
        y0 + ph,
        y0 + ph
    ));
    if let (Some(first), Some(last)) = (r.length_histogram.first(), r.length_histogram.last()) {
        s.push_str(&format!(
            "<text x=\"{x0}\" y=\"{}\" text-anchor=\"start\">{}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n",
            y0 + ph + 16.0,
            first.0,
            x0 + pw,
            y0 + ph + 16.0,
            last.1
        ));
    }
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>\n<text x=\"{}\" y=\"{}\" text-anchor=\"end\">0</text>\n",
        x0 - 6.0,
        y0 + 4.0,
        most,
        x0 - 6.0,
        y0 + ph
    ));
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">mean {:.1}, median {:.1}, p90 {}</text>\n",
        x0 + pw / 2.0,
        y0 + ph + 36.0,
        r.length.mean,
        r.length.median,
        r.length.p90
    ));
    // Right: win rates by seat, with intervals.
    let (x1, pw1) = (620.0, 240.0);
    s.push_str(&format!(
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\" font-size=\"14\">results by seat (95% interval)</text>\n",
        x1 + pw1 / 2.0,
        y0 - 12.0
    ));
    let bars = [
        ("south", &r.win_rate.south, "#c0504d"),
        ("north", &r.win_rate.north, "#4f81bd"),
        ("draw", &r.draw_rate, "#9bbb59"),
    ];
    let bw = pw1 / bars.len() as f64;
    for (i, (name, sh, colour)) in bars.iter().enumerate() {
        let x = x1 + i as f64 * bw;
        let bh = ph * sh.rate;
        s.push_str(&format!(
            "<rect x=\"{:.1}\" y=\"{:.1}\" width=\"{:.1}\" height=\"{:.1}\" fill=\"{colour}\"/>\n",
            x + 8.0,
            y0 + ph - bh,
            bw - 16.0,
            bh
        ));
        let (lo, hi) = (y0 + ph - ph * sh.ci95[0], y0 + ph - ph * sh.ci95[1]);
        let cx = x + bw / 2.0;
        s.push_str(&format!(
            "<line x1=\"{cx:.1}\" y1=\"{lo:.1}\" x2=\"{cx:.1}\" y2=\"{hi:.1}\" stroke=\"black\"/>\n<line x1=\"{:.1}\" y1=\"{lo:.1}\" x2=\"{:.1}\" y2=\"{lo:.1}\" stroke=\"black\"/>\n<line x1=\"{:.1}\" y1=\"{hi:.1}\" x2=\"{:.1}\" y2=\"{hi:.1}\" stroke=\"black\"/>\n",
            cx - 6.0,
            cx + 6.0,
            cx - 6.0,
            cx + 6.0
        ));
        s.push_str(&format!(
            "<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{name}</text>\n<text x=\"{cx:.1}\" y=\"{:.1}\" text-anchor=\"middle\">{}</text>\n",
            y0 + ph + 16.0,
            (y0 + ph - bh - 6.0).min(hi - 4.0),
            pct(sh.rate)
        ));
    }
    s.push_str(&format!(
        "<line x1=\"{x1}\" y1=\"{}\" x2=\"{}\" y2=\"{}\" stroke=\"black\"/>\n",
        y0 + ph,
        x1 + pw1,
        y0 + ph
    ));
    s.push_str("</svg>\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::Player;

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
        assert_eq!(g.seeds_captured, 8);
        assert_eq!(g.capturing_moves, 1);
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
