use rand::{Rng, SeedableRng, rngs::StdRng};
use sowlang::Event;
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
    let start = game.initial(None);
    let total: u32 = start.seeds().iter().sum();
    for t in 0..tries {
        let mut pos = start.clone();
        if std::env::var("RANDOMBOARD").is_ok() {
            // Every seed of the game dropped into a pit drawn at random, in the position JSON.
            let mut json = game.position_to_json(&start);
            let mut pits = Vec::new();
            counts(&mut json["pits"], &mut pits);
            let mut seeds = vec![0u32; pits.len()];
            for _ in 0..total {
                seeds[rng.gen_range(0..pits.len())] += 1;
            }
            for (pit, n) in pits.into_iter().zip(seeds) {
                *pit = n.into();
            }
            pos = game.position_from_json(&json.to_string()).unwrap();
        } else {
            game.settle_start(&mut pos);
            let plies = rng.gen_range(0..300);
            for _ in 0..plies {
                let m = game.legal_moves(&pos);
                if pos.is_over() || m.is_empty() {
                    break;
                }
                game.apply(&mut pos, m[rng.gen_range(0..m.len())]).unwrap();
            }
            if pos.is_over() {
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
                println!("{}", game.position_to_json(&pos));
                println!("move {} laps {}", game.name_move(&pos, k), laps);
                return;
            }
        }
    }
}

/// Every pit's count in the position JSON's `pits` (one list, or a list per row, per player).
fn counts<'a>(v: &'a mut serde_json::Value, out: &mut Vec<&'a mut serde_json::Value>) {
    match v {
        serde_json::Value::Array(items) => items.iter_mut().for_each(|i| counts(i, out)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|i| counts(i, out)),
        n @ serde_json::Value::Number(_) => out.push(n),
        _ => {}
    }
}
