//! Fuzzing on a stable toolchain for a given time: mutants of the kept corpus (`fuzz/corpus/`) through
//! the harness of the libFuzzer targets (`fuzz/harness.rs`), both targets in turn. CI runs it briefly
//! (`.ci/run`); `fuzz/run.sh` runs libFuzzer for long runs.
//!
//! Usage: `cargo run --release --example fuzz -- [SECONDS] [SEED]` (defaults: 30, a seed from the clock).
//! A panic prints the seed, the target and the input, writes the input to `target/fuzz-finding`, and
//! exits 1; otherwise it prints the executions and their rate and exits 0. The slowest input is written
//! to `target/fuzz-slowest`.

#[path = "../fuzz/harness.rs"]
mod harness;
#[path = "../fuzz/mutate.rs"]
mod mutate;

use std::path::Path;
use std::process::ExitCode;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand::rngs::StdRng;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
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
    let worker = std::thread::Builder::new()
        .stack_size(8 << 20)
        .spawn(move || run(root, seconds, seed));
    worker.expect("a thread").join().unwrap_or(ExitCode::FAILURE)
}

fn run(root: &Path, seconds: u64, seed: u64) -> ExitCode {
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
                let ok = std::panic::catch_unwind(|| match target {
                    "play" => harness::play(input),
                    _ => drop(harness::parse_check(input)),
                });
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
