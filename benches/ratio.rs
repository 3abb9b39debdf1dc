//! Random playouts, one thread: the interpreter (the same loop as `sowlang bench`) against the
//! hand-written yardsticks of `benches/yardstick/`, for Oware (`variants/oware.sow`) and Kalah
//! (`variants/kalah.sow`). The two take turns in short slices so that a busy machine slows both alike;
//! the report gives each one's moves per second, the ratio interpreter / yardstick over the whole
//! run, and the median of the ratios of the slices side by side (less moved by a burst of load from
//! elsewhere, which on a shared machine slows one slice and not its neighbour).
//!
//! `cargo bench --bench ratio [-- --seconds S]` (S per side and game, 10 by default).

use std::path::Path;
use std::time::{Duration, Instant};

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sowlang::Game;

#[path = "yardstick/kalah.rs"]
mod kalah;
#[path = "yardstick/oware.rs"]
mod oware;

/// The same cap as `sowlang bench`.
const PLY_CAP: u32 = 1000;
/// How long each side plays before the other takes over.
const SLICE: Duration = Duration::from_millis(250);

/// Moves and playouts played.
#[derive(Default, Clone, Copy)]
struct Count {
    moves: u64,
    playouts: u64,
    seconds: f64,
}

impl Count {
    fn rate(self) -> f64 {
        self.moves as f64 / self.seconds
    }

    /// What was added since `before`.
    fn since(self, before: Count) -> Count {
        Count {
            moves: self.moves - before.moves,
            playouts: self.playouts - before.playouts,
            seconds: self.seconds - before.seconds,
        }
    }
}

/// The median of some ratios.
fn median(mut ratios: Vec<f64>) -> f64 {
    ratios.sort_by(f64::total_cmp);
    ratios[ratios.len() / 2]
}

/// Plays uniformly random games with a hand-written engine until `slice` has passed.
fn yardstick<Y: Clone>(
    start: &Y,
    legal: impl Fn(&Y) -> u32,
    apply: impl Fn(&mut Y, usize),
    rng: &mut StdRng,
    slice: Duration,
    c: &mut Count,
) {
    let t = Instant::now();
    loop {
        let mut y = start.clone();
        let mut plies = 0;
        while plies < PLY_CAP {
            let mut mask = legal(&y);
            if mask == 0 {
                break;
            }
            // The n-th legal move, pits in increasing order, as the interpreter lists them.
            for _ in 0..rng.gen_range(0..mask.count_ones()) {
                mask &= mask - 1;
            }
            apply(&mut y, mask.trailing_zeros() as usize);
            plies += 1;
        }
        c.moves += u64::from(plies);
        c.playouts += 1;
        if t.elapsed() >= slice {
            break;
        }
    }
    c.seconds += t.elapsed().as_secs_f64();
}

/// The same with the interpreter, as `sowlang bench` plays.
fn interpreter(game: &Game, rng: &mut StdRng, slice: Duration, c: &mut Count) {
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    let t = Instant::now();
    loop {
        let mut pos = start.clone();
        let p = game.random_playout(&mut pos, rng, PLY_CAP);
        c.moves += u64::from(p.plies);
        c.playouts += 1;
        if t.elapsed() >= slice {
            break;
        }
    }
    c.seconds += t.elapsed().as_secs_f64();
}

fn report(name: &str, hand: Count, interp: Count, slices: Vec<f64>) {
    let (h, i) = (hand.rate(), interp.rate());
    println!(
        "{name:<6} yardstick {h:>12.0} moves/s ({:.1} moves/game)   interpreter {i:>12.0} moves/s ({:.1} moves/game)   ratio {:.3} (median of {} slices {:.3})",
        hand.moves as f64 / hand.playouts as f64,
        interp.moves as f64 / interp.playouts as f64,
        i / h,
        slices.len(),
        median(slices.clone()),
    );
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let seconds: f64 = args
        .iter()
        .position(|a| a == "--seconds")
        .and_then(|i| args.get(i + 1))
        .and_then(|s| s.parse().ok())
        .unwrap_or(10.0);
    let rounds = ((seconds / SLICE.as_secs_f64()).ceil() as usize).max(1);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let load = |f: &str| sowlang::load_game(&root.join(f), &[]).unwrap_or_else(|_| panic!("{f} loads")).game;
    let (oware_game, kalah_game) = (load("variants/oware.sow"), load("variants/kalah.sow"));
    let (mut oh, mut oi, mut kh, mut ki) = (Count::default(), Count::default(), Count::default(), Count::default());
    let mut rng = StdRng::seed_from_u64(1);
    let (ow, ka) = (oware::Oware::new(), kalah::Kalah::new());
    let (mut oware_slices, mut kalah_slices) = (Vec::new(), Vec::new());
    for _ in 0..rounds {
        let before = [oh, oi, kh, ki];
        yardstick(&ow, |y| y.legal(), |y, i| y.apply(i), &mut rng, SLICE, &mut oh);
        interpreter(&oware_game, &mut rng, SLICE, &mut oi);
        yardstick(&ka, |y| y.legal(), |y, i| y.apply(i), &mut rng, SLICE, &mut kh);
        interpreter(&kalah_game, &mut rng, SLICE, &mut ki);
        oware_slices.push(oi.since(before[1]).rate() / oh.since(before[0]).rate());
        kalah_slices.push(ki.since(before[3]).rate() / kh.since(before[2]).rate());
    }
    println!(
        "random playouts, one thread, {seconds} s per engine and game, slices of {} ms",
        SLICE.as_millis()
    );
    report("oware", oh, oi, oware_slices);
    report("kalah", kh, ki, kalah_slices);
}
