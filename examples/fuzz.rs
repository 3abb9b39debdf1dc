//! Fuzzing on a stable toolchain for a given time: mutants of the kept corpus (`fuzz/corpus/`) through
//! the harness of the libFuzzer targets (`fuzz/harness.rs`), both targets in turn. CI runs it briefly
//! (`.ci/run`); `fuzz/run.sh` runs libFuzzer for long runs.
//!
//! Usage: `cargo run --release --example fuzz -- [SECONDS] [SEED]` (defaults: 30, a seed from the clock),
//! or `-- replay play|parse_check FILE` to run one kept input alone and print its time.
//! A panic prints the seed, the target and the input, writes the input to `target/fuzz-finding`, and
//! exits 1; otherwise it prints the executions and their rate and exits 0. The slowest input is written
//! to `target/fuzz-slowest`. Every minute it prints how many inputs ran so far; an input still running
//! after [`HANG_SECONDS`] is a finding too (a hang): it is written to `target/fuzz-hang` and printed, and
//! the driver exits 1 without waiting for it.

#[path = "../fuzz/harness.rs"]
mod harness;
#[path = "../fuzz/mutate.rs"]
mod mutate;

use std::path::Path;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

/// How long one input may run before it counts as a hang: twice the `-timeout` `fuzz/run.sh` gives
/// libFuzzer, as this driver often shares the machine with other work.
const HANG_SECONDS: u64 = 60;

/// The input running now, with its target and when it started, for the watchdog.
type Running = Arc<Mutex<Option<(Instant, &'static str, Vec<u8>)>>>;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    if let [replay, target, file] = &args[..]
        && replay == "replay"
    {
        return self::replay(target, Path::new(file));
    }
    let seconds: u64 = args.first().map_or(30, |s| s.parse().expect("SECONDS is a whole number"));
    let seed: u64 = args.get(1).map_or_else(
        || {
            std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_secs())
        },
        |s| s.parse().expect("SEED is a whole number"),
    );
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    // libFuzzer's inputs run on the main thread's 8 MB stack; so do these.
    let running: Running = Arc::default();
    let done = Arc::new(AtomicUsize::new(0));
    watch(root, seed, Arc::clone(&running), Arc::clone(&done));
    let worker = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || run(root, seconds, seed, &running, &done));
    worker.expect("a thread").join().unwrap_or(ExitCode::FAILURE)
}

/// Prints the count of inputs run every minute, and ends the driver when one input runs past
/// [`HANG_SECONDS`], keeping that input: a run stopped by hand or by the clock otherwise says
/// nothing about where it was.
fn watch(root: &'static Path, seed: u64, running: Running, done: Arc<AtomicUsize>) {
    let started = Instant::now();
    std::thread::spawn(move || {
        let mut reported = Instant::now();
        loop {
            std::thread::sleep(Duration::from_secs(1));
            if reported.elapsed() >= Duration::from_secs(60) {
                reported = Instant::now();
                println!(
                    "{} executions in {:.0} s (seed {seed})",
                    done.load(Ordering::Relaxed),
                    started.elapsed().as_secs_f64()
                );
            }
            let now = running.lock().map(|r| r.clone()).unwrap_or(None);
            if let Some((since, target, input)) = now
                && since.elapsed() > Duration::from_secs(HANG_SECONDS)
            {
                let path = root.join("target/fuzz-hang");
                let _ = std::fs::write(&path, &input);
                eprintln!(
                    "{target}: one input ran over {HANG_SECONDS} s (seed {seed}); input written to {}:\n{}",
                    path.display(),
                    String::from_utf8_lossy(&input)
                );
                std::process::exit(1);
            }
        }
    });
}

fn run(root: &'static Path, seconds: u64, seed: u64, running: &Running, done: &AtomicUsize) -> ExitCode {
    let deadline = Instant::now() + Duration::from_secs(seconds);
    let mut rng = StdRng::seed_from_u64(seed);
    // A panic is reported below with its input; the default hook would print it first without one.
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let started = Instant::now();
    let (mut total, mut slowest) = (0usize, (Duration::ZERO, Vec::new()));
    let mut finding = None;
    'rounds: while Instant::now() < deadline {
        for target in ["parse_check", "play"] {
            total += mutate::mutants(root, target, 2000, &mut rng, |input| {
                let one = Instant::now();
                if let Ok(mut r) = running.lock() {
                    *r = Some((one, target, input.to_vec()));
                }
                let ok = std::panic::catch_unwind(|| run_one(target, input));
                done.fetch_add(1, Ordering::Relaxed);
                if one.elapsed() > slowest.0 {
                    slowest = (one.elapsed(), input.to_vec());
                }
                if ok.is_err() {
                    finding = Some((target, input.to_vec()));
                }
                ok.is_ok() && Instant::now() < deadline
            });
            if finding.is_some() {
                break 'rounds;
            }
        }
    }
    let elapsed = started.elapsed().as_secs_f64();
    println!(
        "{total} executions in {elapsed:.1} s ({:.0} a second), seed {seed}; slowest input {:?}",
        total as f64 / elapsed,
        slowest.0
    );
    // The slowest input, to replay alone: at a low priority on a busy machine its time may be mostly
    // waiting for a core.
    let _ = std::fs::write(root.join("target/fuzz-slowest"), &slowest.1);
    match finding {
        None => ExitCode::SUCCESS,
        Some((target, input)) => {
            let path = root.join("target/fuzz-finding");
            let _ = std::fs::write(&path, &input);
            eprintln!(
                "{target} panicked (seed {seed}); input written to {}:\n{}",
                path.display(),
                String::from_utf8_lossy(&input)
            );
            ExitCode::FAILURE
        }
    }
}

/// Runs one input (a finding, a hang, the slowest) through `target` alone, and prints its time.
fn replay(target: &str, file: &Path) -> ExitCode {
    let Ok(input) = std::fs::read(file) else {
        eprintln!("cannot read {}", file.display());
        return ExitCode::FAILURE;
    };
    let target = target.to_string();
    let run = std::thread::Builder::new().stack_size(8 << 20).spawn(move || {
        let one = Instant::now();
        run_one(&target, &input);
        one.elapsed()
    });
    match run.expect("a thread").join() {
        Ok(took) => {
            println!("ran in {:.3} s", took.as_secs_f64());
            ExitCode::SUCCESS
        }
        Err(_) => ExitCode::FAILURE,
    }
}

/// One input through the target named.
fn run_one(target: &str, input: &[u8]) {
    match target {
        "play" => harness::play(input),
        _ => drop(harness::parse_check(input)),
    }
}
