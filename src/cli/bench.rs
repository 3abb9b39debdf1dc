//! `sowlang bench FILE [--seconds S] [--threads T] [--seed N] [--json]`: uniformly random playouts
//! from the start position for a while, on one thread or several (rayon); prints playouts and moves
//! per second, the mean game length and the process's peak memory.
//!
//! A playout stops after [`PLY_CAP`] moves if its rules have not ended it by then: a random game of a
//! rule set without a repetition rule may otherwise go round for ever.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::SmallRng;
use serde::Serialize;

use super::{Output, Start, load_start, out};
use crate::{Game, Position};

/// Most moves of one playout.
pub const PLY_CAP: u32 = 1000;

/// Arguments of `bench`.
#[derive(Debug, clap::Args)]
pub struct Args {
    /// The rule file.
    file: PathBuf,
    /// How long to play, in seconds.
    #[arg(long, default_value_t = 5.0, value_parser = parse_seconds, allow_negative_numbers = true)]
    seconds: f64,
    /// Threads playing at once.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=1024))]
    threads: u32,
    /// Seed of the random moves (thread i plays from seed N mixed with i).
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Measure against another program, side by side on one thread: the command (its words split at
    /// spaces) is run once a slice, with `{seconds}` in its words replaced by the slice's length, and
    /// must print JSON with `moves_per_s`, e.g. `--against "refengine playouts oware {seconds} --json"`.
    /// `--seconds` is then each side's total.
    #[arg(long, value_name = "COMMAND", conflicts_with = "threads")]
    against: Option<String>,
    /// With `--against`: the slices each side's time is cut into, taken in turn.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1000), requires = "against")]
    slices: u32,
    #[command(flatten)]
    start: Start,
    #[command(flatten)]
    output: Output,
}

#[derive(Serialize)]
struct JsonBench {
    playouts: u64,
    moves: u64,
    seconds: f64,
    playouts_per_sec: f64,
    moves_per_sec: f64,
    mean_length: f64,
}

/// What the threads played.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    playouts: u64,
    moves: u64,
    capped: u64,
    /// Moves of the playout cut short by the time limit: counted in the moves, not in the lengths.
    cut: u64,
}

/// Parses `--seconds`: a positive number of seconds, at most a million.
fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(x) if x.is_finite() && x > 0.0 && x <= 1e6 => Ok(x),
        _ => Err(format!("`{s}` is not a number of seconds above 0 (at most 1000000)")),
    }
}

/// Plays random playouts from `start` until `deadline`.
fn play_until(game: &Game, start: &Position, seed: u64, deadline: Instant) -> Tally {
    // A small fast generator (xoshiro256++): the playouts need uniform moves, not secrecy, and the
    // generator's cost is part of every move measured (ChaCha's was about a fifth of a fast move).
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut tally = Tally::default();
    // The clock is read every `every` playouts: once a playout for a slow game, less often for a
    // fast one (a read costs about a hundredth of a fast game's playout), never more than a
    // millisecond or two apart.
    let (mut every, mut since, mut read) = (1u32, 0u32, Instant::now());
    // The moves one call plays: slices of about `SLICE`, the clock read after each, from how long
    // the last playout took (a whole playout for most games; the first is cut into small slices),
    // so that a game whose moves are slow (hundreds of seeds relayed around a board) still stops on
    // time (issue 22).
    const SLICE: Duration = Duration::from_millis(10);
    let mut chunk = 16;
    loop {
        let mut pos = start.clone();
        let mut plies = 0;
        let finished = loop {
            let want = chunk.min(PLY_CAP - plies);
            let p = game.random_playout(&mut pos, &mut rng, want);
            plies += p.plies;
            if p.finished || plies >= PLY_CAP || p.plies < want {
                break p.finished;
            }
            if Instant::now() >= deadline {
                // The moves of a playout cut short count; the playout does not.
                tally.moves += u64::from(plies);
                tally.cut += u64::from(plies);
                return tally;
            }
        };
        tally.playouts += 1;
        tally.moves += u64::from(plies);
        tally.capped += u64::from(!finished && plies == PLY_CAP);
        since += 1;
        if since >= every {
            let now = Instant::now();
            if now >= deadline {
                return tally;
            }
            let gap = now - read;
            if since == 1 && plies > 0 {
                let fit = f64::from(plies) * SLICE.as_secs_f64() / gap.as_secs_f64();
                chunk = (fit as u32).clamp(1, PLY_CAP);
            }
            if gap < Duration::from_micros(500) {
                every = (every * 2).min(64);
            } else if gap > Duration::from_millis(2) {
                every = (every / 2).max(1);
            }
            (since, read) = (0, now);
        }
    }
}

/// The seed of thread `i`: thread 0 plays from `seed` itself.
fn thread_seed(seed: u64, i: usize) -> u64 {
    seed ^ (i as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// The process's peak resident memory in bytes, where the system tells it.
fn peak_memory() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmHWM:"))?;
    let kb: u64 = line
        .trim_start_matches("VmHWM:")
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()?;
    Some(kb * 1024)
}

/// Runs `bench`.
pub fn run(args: Args) -> u8 {
    let json = args.output.json();
    let (loaded, start) = match load_start(&args.file, &args.start) {
        Ok(l) => l,
        Err(code) => return code,
    };
    let game = &loaded.game;
    if let Some(command) = &args.against {
        return against(game, &start, &args, command, json);
    }
    let threads = args.threads as usize;
    let begun = Instant::now();
    let deadline = begun + Duration::from_secs_f64(args.seconds);
    let tallies: Vec<Tally> = if threads == 1 {
        vec![play_until(game, &start, thread_seed(args.seed, 0), deadline)]
    } else {
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: cannot start {threads} threads: {e}");
                return 2;
            }
        };
        pool.broadcast(|ctx| play_until(game, &start, thread_seed(args.seed, ctx.index()), deadline))
    };
    let seconds = begun.elapsed().as_secs_f64();
    let total = tallies.iter().fold(Tally::default(), |a, t| Tally {
        playouts: a.playouts + t.playouts,
        moves: a.moves + t.moves,
        capped: a.capped + t.capped,
        cut: a.cut + t.cut,
    });
    let report = JsonBench {
        playouts: total.playouts,
        moves: total.moves,
        seconds,
        playouts_per_sec: total.playouts as f64 / seconds,
        moves_per_sec: total.moves as f64 / seconds,
        mean_length: (total.moves - total.cut) as f64 / total.playouts.max(1) as f64,
    };
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("numbers serialise")));
        return 0;
    }
    let memory = peak_memory().map_or_else(|| "unknown".to_string(), |b| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)));
    out(&format!(
        "{}: {} random playouts in {:.2} s on {threads} thread{}\n\
         playouts/s:   {:.0}\n\
         moves/s:      {:.0}\n\
         mean length:  {:.1} moves ({} playouts stopped at the cap of {PLY_CAP} moves)\n\
         peak memory:  {memory}\n",
        game.name,
        report.playouts,
        report.seconds,
        if threads == 1 { "" } else { "s" },
        report.playouts_per_sec,
        report.moves_per_sec,
        report.mean_length,
        total.capped,
    ));
    0
}

/// One slice of the other program: its moves a second, from the JSON it printed.
fn their_slice(words: &[&str], seconds: f64) -> Result<f64, String> {
    let slice = format!("{seconds}");
    let args: Vec<String> = words[1..].iter().map(|w| w.replace("{seconds}", &slice)).collect();
    let output = std::process::Command::new(words[0])
        .args(&args)
        .stdin(std::process::Stdio::null())
        .output()
        .map_err(|e| format!("cannot run `{}`: {e}", words[0]))?;
    if !output.status.success() {
        return Err(format!(
            "`{}` failed ({}): {}",
            words.join(" "),
            output.status,
            String::from_utf8_lossy(&output.stderr).trim()
        ));
    }
    let text = String::from_utf8_lossy(&output.stdout);
    // The last line that is a JSON object with `moves_per_s`: a program may print other lines first.
    text.lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line.trim()).ok())
        .find_map(|v| v.get("moves_per_s").and_then(serde_json::Value::as_f64))
        .filter(|r| r.is_finite() && *r > 0.0)
        .ok_or_else(|| format!("`{}` printed no JSON with a positive `moves_per_s`", words.join(" ")))
}

#[derive(Serialize)]
struct JsonAgainst {
    slices: u32,
    seconds_per_slice: f64,
    moves_per_sec: f64,
    their_moves_per_sec: f64,
    ratio: f64,
    median_slice_ratio: f64,
}

/// `--against`: the interpreter and another program in alternating slices of equal length, so that a
/// machine busy with something else slows both alike; the ratio of the totals and the median of the
/// slices' ratios.
fn against(game: &Game, start: &Position, args: &Args, command: &str, json: bool) -> u8 {
    let words: Vec<&str> = command.split_whitespace().collect();
    if words.is_empty() {
        eprintln!("error: --against needs a command, e.g. --against \"PROGRAM {{seconds}} --json\"");
        return 2;
    }
    let slice = args.seconds / f64::from(args.slices);
    let (mut ours, mut theirs, mut ratios) = (Vec::new(), Vec::new(), Vec::new());
    for i in 0..args.slices {
        let begun = Instant::now();
        let tally = play_until(
            game,
            start,
            thread_seed(args.seed, i as usize),
            begun + Duration::from_secs_f64(slice),
        );
        let our_rate = tally.moves as f64 / begun.elapsed().as_secs_f64();
        let their_rate = match their_slice(&words, slice) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        ours.push(our_rate);
        theirs.push(their_rate);
        ratios.push(our_rate / their_rate);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    ratios.sort_by(f64::total_cmp);
    let median = if ratios.len() % 2 == 1 {
        ratios[ratios.len() / 2]
    } else {
        (ratios[ratios.len() / 2 - 1] + ratios[ratios.len() / 2]) / 2.0
    };
    let report = JsonAgainst {
        slices: args.slices,
        seconds_per_slice: slice,
        moves_per_sec: mean(&ours),
        their_moves_per_sec: mean(&theirs),
        ratio: mean(&ours) / mean(&theirs),
        median_slice_ratio: median,
    };
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("numbers serialise")));
    } else {
        out(&format!(
            "{}: {} slices of {:.2} s each, taken in turn with `{command}`\n\
             sowlang moves/s:  {:.0}\n\
             theirs moves/s:   {:.0}\n\
             ratio:            {:.3} (median of the slices {:.3})\n",
            game.name,
            report.slices,
            report.seconds_per_slice,
            report.moves_per_sec,
            report.their_moves_per_sec,
            report.ratio,
            report.median_slice_ratio,
        ));
    }
    0
}
