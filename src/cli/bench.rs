//! `sowlang bench FILE [--seconds S] [--threads T] [--seed N] [--json]`: uniformly random playouts
//! from the start position for a while, on one thread or several (rayon); prints playouts and moves
//! per second, the mean game length and the process's peak memory, and the CPU time the playing
//! threads got beside the wall time: on a busy machine a rate per wall second measures the machine as
//! much as the engine, and the report says so.
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
    threads: u32,
    /// CPU time of the playing threads, summed; `None` (null) where the system does not tell it.
    cpu_seconds: Option<f64>,
    playouts_per_cpu_sec: Option<f64>,
    moves_per_cpu_sec: Option<f64>,
    /// `cpu_seconds` over `seconds` × `threads`: 1 when every thread ran all the time.
    cpu_share: Option<f64>,
    /// Set when the threads got less than [`CPU_SHARE_WARNED`] of the time they asked for.
    cpu_warning: Option<String>,
    /// What played: the rules' compiled fast form, or the general engine (the rules read one by one).
    engine: &'static str,
    /// With the general engine: the first rule the fast form cannot play, so that an author who wants
    /// a variant fast knows what to change (`null` with the fast form).
    general_because: Option<String>,
}

/// What the threads played.
#[derive(Debug, Default, Clone, Copy)]
struct Tally {
    playouts: u64,
    moves: u64,
    capped: u64,
    /// Moves of the playout cut short by the time limit: counted in the moves, not in the lengths.
    cut: u64,
    /// CPU seconds the thread used playing, where the system tells it.
    cpu: Option<f64>,
}

impl Tally {
    /// Two threads' tallies together.
    fn add(self, t: Tally) -> Tally {
        Tally {
            playouts: self.playouts + t.playouts,
            moves: self.moves + t.moves,
            capped: self.capped + t.capped,
            cut: self.cut + t.cut,
            cpu: self.cpu.zip(t.cpu).map(|(a, b)| a + b),
        }
    }
}

/// Below this share of the CPU time the threads asked for (wall time × threads), `bench` warns that
/// the machine was busy: the rates per wall second are then the machine's as much as the engine's.
pub const CPU_SHARE_WARNED: f64 = 0.8;

/// The share of the asked-for CPU time the threads got, when it is below [`CPU_SHARE_WARNED`]; `None`
/// when they got enough (or nothing could be measured: no wall time).
fn short_of_cpu(cpu_seconds: f64, wall_seconds: f64, threads: u32) -> Option<f64> {
    let asked = wall_seconds * f64::from(threads);
    let share = cpu_seconds / asked;
    (asked > 0.0 && share < CPU_SHARE_WARNED).then_some(share)
}

/// The warning [`short_of_cpu`] calls for, in words.
fn cpu_warning(share: f64, cpu_seconds: f64, wall_seconds: f64, threads: u32) -> String {
    format!(
        "the playing thread{} got {:.0}% of the CPU time {} asked for ({cpu_seconds:.2} s of {:.2} s): the machine \
         was busy, so the rates per wall second understate the engine; read the rates per CPU second, or \
         compare programs in turn (`--against`)",
        if threads == 1 { "" } else { "s" },
        share * 100.0,
        if threads == 1 { "it" } else { "they" },
        wall_seconds * f64::from(threads),
    )
}

/// The CPU time the calling thread has used so far, where the system tells it.
#[cfg(unix)]
fn thread_cpu() -> Option<f64> {
    let mut t = libc::timespec { tv_sec: 0, tv_nsec: 0 };
    // SAFETY: `t` is a valid place for the one `timespec` the call writes, and the clock is one
    // every supported Unix has.
    let ok = unsafe { libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t) } == 0;
    ok.then_some(t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9)
}

/// The CPU time the calling thread has used so far: not known here.
#[cfg(not(unix))]
fn thread_cpu() -> Option<f64> {
    None
}

/// [`play_until`] with the CPU time the calling thread spent in it.
fn play_timed(game: &Game, start: &Position, seed: u64, deadline: Instant) -> Tally {
    let before = thread_cpu();
    let tally = play_until(game, start, seed, deadline);
    let cpu = before.zip(thread_cpu()).map(|(b, a)| (a - b).max(0.0));
    Tally { cpu, ..tally }
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
    // One position for every game, each copied from `start` into the last one's lists.
    let mut pos = start.clone();
    loop {
        pos.clone_from(start);
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
        vec![play_timed(game, &start, thread_seed(args.seed, 0), deadline)]
    } else {
        let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads).build() {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: cannot start {threads} threads: {e}");
                return 2;
            }
        };
        pool.broadcast(|ctx| play_timed(game, &start, thread_seed(args.seed, ctx.index()), deadline))
    };
    let seconds = begun.elapsed().as_secs_f64();
    let total = tallies.iter().fold(
        Tally {
            cpu: Some(0.0),
            ..Tally::default()
        },
        |a, &t| a.add(t),
    );
    let per_cpu = |n: u64| total.cpu.filter(|&c| c > 0.0).map(|c| n as f64 / c);
    let short = total.cpu.and_then(|c| short_of_cpu(c, seconds, args.threads));
    let report = JsonBench {
        playouts: total.playouts,
        moves: total.moves,
        seconds,
        playouts_per_sec: total.playouts as f64 / seconds,
        moves_per_sec: total.moves as f64 / seconds,
        mean_length: (total.moves - total.cut) as f64 / total.playouts.max(1) as f64,
        threads: args.threads,
        cpu_seconds: total.cpu,
        playouts_per_cpu_sec: per_cpu(total.playouts),
        moves_per_cpu_sec: per_cpu(total.moves),
        cpu_share: total.cpu.map(|c| c / (seconds * f64::from(args.threads))),
        cpu_warning: total.cpu.zip(short).map(|(c, share)| cpu_warning(share, c, seconds, args.threads)),
        engine: if game.has_fast_form() { "fast form" } else { "general engine" },
        general_because: game.why_general_engine().map(str::to_string),
    };
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("numbers serialise")));
        return 0;
    }
    let memory = peak_memory().map_or_else(|| "unknown".to_string(), |b| format!("{:.1} MiB", b as f64 / (1024.0 * 1024.0)));
    let per_cpu = |rate: Option<f64>| rate.map_or_else(|| "unknown".to_string(), |r| format!("{r:.0}"));
    let cpu = match (report.cpu_seconds, report.cpu_share) {
        (Some(c), Some(share)) => format!("{c:.2} s ({:.0}% of {:.2} s wall time x {threads})", share * 100.0, report.seconds),
        _ => "unknown".to_string(),
    };
    out(&format!(
        "{}: {} random playouts in {:.2} s on {threads} thread{}\n\
         playouts/s:   {:.0} ({} a CPU second)\n\
         moves/s:      {:.0} ({} a CPU second)\n\
         cpu time:     {cpu}\n\
         mean length:  {:.1} moves ({} playouts stopped at the cap of {PLY_CAP} moves)\n\
         engine:       {}\n\
         peak memory:  {memory}\n",
        game.name,
        report.playouts,
        report.seconds,
        if threads == 1 { "" } else { "s" },
        report.playouts_per_sec,
        per_cpu(report.playouts_per_cpu_sec),
        report.moves_per_sec,
        per_cpu(report.moves_per_cpu_sec),
        report.mean_length,
        total.capped,
        match &report.general_because {
            Some(why) => format!("{} ({why})", report.engine),
            None => report.engine.to_string(),
        },
    ));
    if let Some(warning) = &report.cpu_warning {
        eprintln!("warning: {warning}");
    }
    0
}

/// What the other program reported for one slice.
#[derive(Debug, Clone, Copy, PartialEq)]
struct Theirs {
    /// `moves_per_s`.
    rate: f64,
    /// `cpu_seconds`, when it reports it.
    cpu: Option<f64>,
    /// `moves`, when it reports them (a rate per CPU second needs them with the CPU time).
    moves: Option<f64>,
}

/// Reads the other program's report from what it printed: the last line that is a JSON object with a
/// positive `moves_per_s` (a program may print other lines first), and with it `cpu_seconds` and
/// `moves` if it gives them.
fn their_report(text: &str) -> Option<Theirs> {
    let number = |v: &serde_json::Value, key: &str| v.get(key).and_then(serde_json::Value::as_f64).filter(|x| x.is_finite());
    text.lines()
        .rev()
        .filter_map(|line| serde_json::from_str::<serde_json::Value>(line.trim()).ok())
        .find_map(|v| {
            let rate = number(&v, "moves_per_s").filter(|r| *r > 0.0)?;
            let cpu = number(&v, "cpu_seconds").filter(|c| *c >= 0.0);
            let moves = number(&v, "moves").filter(|m| *m >= 0.0);
            Some(Theirs { rate, cpu, moves })
        })
}

/// One slice of the other program: what it reported.
fn their_slice(words: &[&str], seconds: f64) -> Result<Theirs, String> {
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
    their_report(&String::from_utf8_lossy(&output.stdout))
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
    /// The interpreter's CPU time over all its slices, and its moves per CPU second.
    cpu_seconds: Option<f64>,
    moves_per_cpu_sec: Option<f64>,
    /// The other program's, when every slice of it reported `cpu_seconds` and `moves`.
    their_cpu_seconds: Option<f64>,
    their_moves_per_cpu_sec: Option<f64>,
    /// `moves_per_cpu_sec` over `their_moves_per_cpu_sec`.
    cpu_ratio: Option<f64>,
    /// Set when the interpreter's slices got less than [`CPU_SHARE_WARNED`] of their wall time.
    cpu_warning: Option<String>,
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
    // Wall and CPU time and moves of the interpreter's slices; CPU time and moves of the other's.
    let (mut our_wall, mut our_cpu, mut our_moves) = (0.0, Some(0.0), 0u64);
    let (mut their_cpu, mut their_moves) = (Some(0.0), Some(0.0));
    for i in 0..args.slices {
        let begun = Instant::now();
        let tally = play_timed(
            game,
            start,
            thread_seed(args.seed, i as usize),
            begun + Duration::from_secs_f64(slice),
        );
        let wall = begun.elapsed().as_secs_f64();
        let our_rate = tally.moves as f64 / wall;
        (our_wall, our_moves) = (our_wall + wall, our_moves + tally.moves);
        our_cpu = our_cpu.zip(tally.cpu).map(|(a, b)| a + b);
        let their = match their_slice(&words, slice) {
            Ok(r) => r,
            Err(e) => {
                eprintln!("error: {e}");
                return 2;
            }
        };
        their_cpu = their_cpu.zip(their.cpu).map(|(a, b)| a + b);
        their_moves = their_moves.zip(their.moves).map(|(a, b)| a + b);
        ours.push(our_rate);
        theirs.push(their.rate);
        ratios.push(our_rate / their.rate);
    }
    let mean = |v: &[f64]| v.iter().sum::<f64>() / v.len() as f64;
    ratios.sort_by(f64::total_cmp);
    let our_per_cpu = our_cpu.filter(|&c| c > 0.0).map(|c| our_moves as f64 / c);
    let their_per_cpu = their_cpu.filter(|&c| c > 0.0).zip(their_moves).map(|(c, m)| m / c);
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
        cpu_seconds: our_cpu,
        moves_per_cpu_sec: our_per_cpu,
        their_cpu_seconds: their_cpu,
        their_moves_per_cpu_sec: their_per_cpu,
        cpu_ratio: our_per_cpu.zip(their_per_cpu).map(|(a, b)| a / b),
        cpu_warning: our_cpu.and_then(|c| short_of_cpu(c, our_wall, 1).map(|share| cpu_warning(share, c, our_wall, 1))),
    };
    if json {
        out(&format!("{}\n", serde_json::to_string(&report).expect("numbers serialise")));
    } else {
        let cpu = |seconds: Option<f64>, rate: Option<f64>| match (seconds, rate) {
            (Some(s), Some(r)) => format!("{r:.0} moves a CPU second ({s:.2} s of CPU)"),
            (Some(s), None) => format!("{s:.2} s of CPU"),
            _ => "not reported".to_string(),
        };
        let cpu_ratio = report.cpu_ratio.map_or_else(String::new, |r| format!("\nratio per CPU s:  {r:.3}"));
        out(&format!(
            "{}: {} slices of {:.2} s each, taken in turn with `{command}`\n\
             sowlang moves/s:  {:.0}\n\
             theirs moves/s:   {:.0}\n\
             ratio:            {:.3} (median of the slices {:.3})\n\
             sowlang cpu:      {}\n\
             theirs cpu:       {}{cpu_ratio}\n",
            game.name,
            report.slices,
            report.seconds_per_slice,
            report.moves_per_sec,
            report.their_moves_per_sec,
            report.ratio,
            report.median_slice_ratio,
            cpu(report.cpu_seconds, report.moves_per_cpu_sec),
            cpu(report.their_cpu_seconds, report.their_moves_per_cpu_sec),
        ));
        if let Some(warning) = &report.cpu_warning {
            eprintln!("warning: {warning}");
        }
    }
    0
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warns_below_four_fifths_of_the_asked_for_cpu_time() {
        // One thread, one second: 0.8 s of CPU is enough, a little less is not.
        assert_eq!(short_of_cpu(1.0, 1.0, 1), None);
        assert_eq!(short_of_cpu(0.8, 1.0, 1), None);
        assert!(short_of_cpu(0.79, 1.0, 1).is_some_and(|s| (s - 0.79).abs() < 1e-12));
        // Two threads ask for twice the wall time: 1.2 s of CPU in a second is 60%.
        assert!(short_of_cpu(1.2, 1.0, 2).is_some_and(|s| (s - 0.6).abs() < 1e-12));
        assert_eq!(short_of_cpu(1.7, 1.0, 2), None);
        // A little more than asked (clock granularity) is no shortage; no wall time, no verdict.
        assert_eq!(short_of_cpu(1.01, 1.0, 1), None);
        assert_eq!(short_of_cpu(0.0, 0.0, 1), None);
    }

    #[test]
    fn reads_the_other_programs_cpu_time_when_it_gives_it() {
        let text = "a line\n{\"moves_per_s\": 2000, \"moves\": 4000, \"cpu_seconds\": 1.6}\n";
        assert_eq!(
            their_report(text),
            Some(Theirs {
                rate: 2000.0,
                cpu: Some(1.6),
                moves: Some(4000.0)
            })
        );
        assert_eq!(
            their_report("{\"moves_per_s\": 5, \"cpu_seconds\": 1}"),
            Some(Theirs {
                rate: 5.0,
                cpu: Some(1.0),
                moves: None
            })
        );
        assert_eq!(
            their_report("{\"moves_per_s\": 5}"),
            Some(Theirs {
                rate: 5.0,
                cpu: None,
                moves: None
            })
        );
        assert_eq!(their_report("{\"moves_per_s\": 0}"), None);
    }
}
