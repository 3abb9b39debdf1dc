//! criterion benches: move generation and apply on every shipped variant (over positions sampled
//! from random games), and parse+check+compile of every shipped rule file.
//!
//! `cargo bench --bench engine` (add a filter such as `-- movegen/oware` to run some).

use std::hint::black_box;
use std::path::{Path, PathBuf};

use criterion::{Criterion, Throughput, criterion_group, criterion_main};
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};
use sowlang::{Game, Position};

/// Every shipped rule file, sorted.
fn variants() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut v: Vec<PathBuf> = [root.clone(), root.join("reference")]
        .iter()
        .flat_map(|d| std::fs::read_dir(d).expect("variants directory"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "sow"))
        .collect();
    v.sort();
    v
}

fn name(path: &Path) -> String {
    let stem = path.file_stem().expect("a file name").to_string_lossy().to_string();
    if path.parent().is_some_and(|p| p.ends_with("reference")) {
        format!("reference/{stem}")
    } else {
        stem
    }
}

/// Positions (not over) from random games, each with one of its legal moves.
fn sample(game: &Game, count: usize) -> Vec<(Position, usize)> {
    let mut rng = StdRng::seed_from_u64(7);
    let mut out = Vec::with_capacity(count);
    while out.len() < count {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        while !pos.is_over() && pos.ply() < 1000 && out.len() < count {
            let moves = game.legal_moves(&pos);
            if moves.is_empty() {
                break;
            }
            let k = moves[rng.gen_range(0..moves.len())];
            out.push((pos.clone(), k));
            game.apply(&mut pos, k).expect("a listed move is legal");
        }
    }
    out
}

fn engine(c: &mut Criterion) {
    for path in variants() {
        let game = sowlang::load_game(&path, &[])
            .unwrap_or_else(|_| panic!("{} loads", path.display()))
            .game;
        let positions = sample(&game, 256);
        let n = name(&path);
        let mut group = c.benchmark_group(format!("engine/{n}"));
        group.throughput(Throughput::Elements(positions.len() as u64));
        group.bench_function("movegen", |b| {
            b.iter(|| {
                let mut moves = 0;
                for (pos, _) in &positions {
                    moves += game.legal_moves(black_box(pos)).len();
                }
                moves
            })
        });
        group.bench_function("apply", |b| {
            b.iter(|| {
                let mut plies = 0;
                for (pos, k) in &positions {
                    let mut next = pos.clone();
                    game.apply(&mut next, black_box(*k)).expect("a sampled move is legal");
                    plies += next.ply();
                }
                plies
            })
        });
        group.finish();
    }
}

fn check(c: &mut Criterion) {
    let mut group = c.benchmark_group("check");
    for path in variants() {
        let text = std::fs::read_to_string(&path).expect("a shipped file reads");
        group.bench_function(name(&path), |b| {
            b.iter(|| sowlang::load_text(black_box(&path), black_box(&text), &[]).is_ok())
        });
    }
    group.finish();
}

criterion_group!(benches, engine, check);
criterion_main!(benches);
