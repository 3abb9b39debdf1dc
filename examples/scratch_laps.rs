use rand::{Rng, SeedableRng, rngs::StdRng};
use sowlang::engine::Event;
fn main() {
    let args: Vec<String> = std::env::args().collect();
    let file = &args[1];
    let tries: usize = args[2].parse().unwrap();
    let min: u32 = args[3].parse().unwrap();
    let sets: Vec<sowlang::Override> = args[4..]
        .iter()
        .map(|a| {
            let (n, v) = a.split_once('=').unwrap();
            sowlang::Override {
                name: n.into(),
                value: v.parse().unwrap(),
            }
        })
        .collect();
    let game = sowlang::load_game(std::path::Path::new(file), &sets)
        .unwrap_or_else(|_| panic!())
        .game;
    let mut rng = StdRng::seed_from_u64(7);
    let mut best = 0;
    let n2 = game.pit_count();
    let start = game.initial(None);
    let total: u32 = start.board.cells.iter().sum();
    for t in 0..tries {
        let mut pos = start.clone();
        if std::env::var("RANDOMBOARD").is_ok() {
            for c in pos.board.cells.iter_mut() {
                *c = 0;
            }
            for _ in 0..total {
                let c = rng.gen_range(0..n2);
                pos.board.cells[c] += 1;
            }
        } else {
            game.settle_start(&mut pos);
            let plies = rng.gen_range(0..300);
            for _ in 0..plies {
                let m = game.legal_moves(&pos);
                if pos.over || m.is_empty() {
                    break;
                }
                game.apply(&mut pos, m[rng.gen_range(0..m.len())]).unwrap();
            }
            if pos.over {
                continue;
            }
        }
        for &k in &game.legal_moves(&pos) {
            let mut p = pos.clone();
            let ev = game.apply_traced(&mut p, k).unwrap();
            let laps = ev
                .iter()
                .filter_map(|e| match e {
                    Event::PickUp { lap, .. } => Some(*lap),
                    Event::SowAgain { lap, .. } => Some(*lap),
                    _ => None,
                })
                .max()
                .unwrap_or(1);
            if laps > best {
                best = laps;
                eprintln!("try {t}: {} laps", laps);
            }
            if laps >= min {
                println!("{}", serde_json::to_string(&sowlang::position::to_json(&game, &pos)).unwrap());
                println!("move {} laps {}", game.name_move(&pos, k), laps);
                return;
            }
        }
    }
}
