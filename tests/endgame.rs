//! Endgame databases and the full-board solver (issue 24): the databases' values against exhaustive
//! search on small boards, every shipped game served or refused with its reason, files kept, keyed
//! and resumed, and MTD(f) against the graph solver.

use std::collections::HashSet;
use std::path::Path;
use std::sync::Mutex;
use std::sync::atomic::AtomicBool;

use sowlang::search::endgame::{self, Build, Endgames, Unserved};
use sowlang::search::prove;
use sowlang::search::solve::{self, Keys, Limits, Watch};
use sowlang::{Game, Override, Position};

use super::support::{invented, root, scratch, shipped};

static GO: AtomicBool = AtomicBool::new(false);

fn kalah(pits: i64, seeds: i64) -> Game {
    let sets = [
        Override {
            name: "pits".into(),
            value: pits,
        },
        Override {
            name: "seeds".into(),
            value: seeds,
        },
    ];
    sowlang::load_game(&root().join("variants/kalah.sow"), &sets)
        .unwrap_or_else(|_| panic!("kalah loads"))
        .game
}

fn in_memory(game: &Game, seeds: u32) -> Result<Endgames, Unserved> {
    Endgames::open(
        game,
        seeds,
        &Build {
            dir: None,
            report: &|_| {},
            stop: &GO,
        },
    )
}

/// Every position reachable from the start that is not finished.
fn reachable(game: &Game) -> Vec<Position> {
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    let mut seen = HashSet::new();
    let mut todo = vec![start];
    let mut out = Vec::new();
    while let Some(p) = todo.pop() {
        if p.over || !seen.insert(game.hash(&p)) {
            continue;
        }
        for k in game.legal_moves(&p) {
            let mut c = p.clone();
            game.apply(&mut c, k).expect("legal");
            todo.push(c);
        }
        out.push(p);
    }
    out
}

fn margin(game: &Game, pos: &Position) -> i64 {
    let s = game.scores(pos);
    i64::from(s[pos.to_move.index()]) - i64::from(s[pos.to_move.other().index()])
}

#[test]
fn database_values_are_those_of_exhaustive_search() {
    let mut compared = 0;
    for (pits, seeds, upto) in [(2, 2, 8), (3, 1, 6), (2, 3, 5), (3, 2, 4)] {
        let game = kalah(pits, seeds);
        let db = in_memory(&game, upto).expect("kalah is served");
        for pos in reachable(&game) {
            let Some(v) = db.value(&pos) else {
                let on_board: u32 = pos.board.cells[..game.pit_count()].iter().sum();
                assert!(on_board > upto, "a position with {on_board} seeds on the board is missing");
                continue;
            };
            // Plain minimax: the whole tree below, no table, no pruning.
            let exact = solve::minimax(&game, &pos, 5_000_000).expect("small enough for minimax");
            assert_eq!(
                i64::from(v),
                exact.margin - margin(&game, &pos),
                "pits={pits} seeds={seeds}: {:?} {} to move",
                &pos.board.cells[..],
                pos.to_move.name()
            );
            compared += 1;
        }
    }
    assert!(compared > 500, "only {compared} positions compared");
}

#[test]
fn every_shipped_game_is_served_or_refused_with_its_reason() {
    let mut seen = Vec::new();
    for file in shipped() {
        let Ok(loaded) = sowlang::load_game(&file, &[]) else { continue };
        let game = loaded.game;
        let name = file.file_stem().expect("a name").to_string_lossy().to_string();
        // Four seeds on the board: quick, and far enough for the checks made while building.
        match in_memory(&game, 4) {
            Ok(db) => {
                assert_eq!(db.seeds(), 4);
                seen.push(format!("{name}: served"));
            }
            Err(why) => {
                let text = why.to_string();
                assert!(text.len() > 20, "{name}: a refusal without its reason: {text:?}");
                seen.push(format!("{name}: refused: {text}"));
            }
        }
    }
    let served: Vec<&String> = seen.iter().filter(|s| s.ends_with(": served")).collect();
    assert!(served.iter().any(|s| s.starts_with("kalah:")), "{seen:#?}");
    assert!(seen.iter().any(|s| s.contains("refused: a rule reads `repeated`")), "{seen:#?}");
    println!("{}", seen.join("\n"));
}

const CYCLING: &str = r#"
game "Round and round"
board {
  pits 2
  seeds 1
  stores captures
}
first south
sow {
  direction ccw
}
end "no move" when no_moves remaining owner
"#;

#[test]
fn a_position_that_recurs_without_taking_is_refused() {
    let game = invented(CYCLING);
    let why = in_memory(&game, 4).expect_err("seeds go round for ever");
    assert!(matches!(why, Unserved::Cycle(_)), "{why}");
    assert!(why.to_string().contains("recur"), "{why}");
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    let options = prove::Options {
        table_bytes: 1 << 20,
        max_nodes: 1_000_000,
    };
    // The full-board search keeps no history: a recurrence it meets makes it refuse its answer; when
    // the bounds from the seeds settle the value before any is met, the answer holds.
    let graph = solve::solve(&game, &start, Limits::from_memory(), Keys::Component).expect("tiny");
    match prove::prove(&game, &start, None, options, &Watch::QUIET) {
        Ok(p) => assert_eq!((p.value, p.margin, p.moves), (graph.value, graph.margin, graph.moves)),
        Err(r) => assert!(r.to_string().contains("recurred"), "{r}"),
    }
}

#[test]
fn a_rule_on_the_stores_is_found_and_refused() {
    let text = std::fs::read_to_string(root().join("variants/kalah.sow")).expect("kalah");
    let text = text.replace(
        "end \"a row is empty\"",
        "end \"more than half\" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner\nend \"a row is empty\"",
    );
    let game = sowlang::load_text(Path::new("half.sow"), &text, &[])
        .unwrap_or_else(|_| panic!("checks"))
        .game;
    let why = in_memory(&game, 6).expect_err("the stores decide the end");
    assert!(matches!(why, Unserved::Stores(_)), "{why}");
}

#[test]
fn database_files_are_keyed_resumed_and_rebuilt_when_damaged() {
    let dir = scratch("endgame", "files");
    let game = kalah(3, 2);
    let built = Mutex::new(0u64);
    let report = |p: endgame::BuildProgress| *built.lock().expect("lock") = p.total;
    let open = |g: &Game| {
        *built.lock().expect("lock") = 0;
        let db = Endgames::open(
            g,
            6,
            &Build {
                dir: Some(&dir),
                report: &report,
                stop: &GO,
            },
        )
        .expect("served");
        (db, *built.lock().expect("lock"))
    };
    let (first, total) = open(&game);
    assert_eq!(total, endgame::positions_up_to(game.pit_count(), 6));
    let folder = dir.join(format!("{:016x}", endgame::key(&game)));
    let layer = |n: u32| folder.join(format!("layer-{n:03}.sowdb"));
    assert!(layer(6).exists());
    // Everything is read back: nothing built.
    let (_, again) = open(&game);
    assert_eq!(again, 0);
    // A layer lost (a build stopped there) or damaged is built again, and only that one.
    std::fs::remove_file(layer(6)).expect("remove");
    let mut bytes = std::fs::read(layer(3)).expect("read");
    bytes[9] ^= 1;
    std::fs::write(layer(3), bytes).expect("write");
    let (second, rebuilt) = open(&game);
    let r = endgame::Ranker::new(game.pit_count(), 6);
    assert_eq!(rebuilt, 2 * (r.count(6) + r.count(3)));
    for pos in reachable(&game) {
        assert_eq!(first.value(&pos), second.value(&pos));
    }
    // Another board of the same file has its own key.
    assert_ne!(endgame::key(&kalah(3, 3)), endgame::key(&game));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn mtdf_agrees_with_the_graph_solver_with_and_without_databases() {
    let limits = Limits {
        max_positions: 2_000_000,
        max_nodes: 50_000_000,
    };
    let options = prove::Options {
        table_bytes: 8 << 20,
        max_nodes: 50_000_000,
    };
    for (pits, seeds) in [(2, 2), (3, 2), (3, 3), (4, 2), (2, 4)] {
        let game = kalah(pits, seeds);
        let mut start = game.initial(None);
        game.settle_start(&mut start);
        let graph = solve::solve(&game, &start, limits, Keys::Component).expect("small");
        for upto in [None, Some(3), Some(7)] {
            let db = upto.map(|n| in_memory(&game, n).expect("served"));
            let proved = prove::prove(&game, &start, db.as_ref(), options, &Watch::QUIET).expect("small");
            let board = format!("pits={pits} seeds={seeds} databases={upto:?}");
            assert_eq!((proved.value, proved.margin), (graph.value, graph.margin), "{board}");
            assert_eq!(proved.moves, graph.moves, "{board}");
            // The principal variation is legal and ends the game with the value found.
            let mut pos = start.clone();
            for &k in &proved.pv {
                game.apply(&mut pos, k).expect("a legal move");
            }
            assert!(pos.over, "{board}: the variation stops before the end");
            let s = game.scores(&pos);
            let m = i64::from(s[start.to_move.index()]) - i64::from(s[start.to_move.other().index()]);
            assert_eq!(m, proved.margin, "{board}");
        }
    }
}

#[test]
fn alphabeta_with_databases_plays_every_endgame_position_perfectly_at_depth_one() {
    use rand::SeedableRng;
    use sowlang::search::alphabeta;
    let game = kalah(3, 2);
    let db = in_memory(&game, game.total).expect("served");
    let limits = alphabeta::Limits { depth: 1, time: None };
    let mut rng = rand::rngs::StdRng::seed_from_u64(24);
    let (mut perfect, mut blind_perfect, mut positions) = (0, 0, 0);
    for pos in reachable(&game) {
        if game.legal_moves(&pos).len() < 2 {
            continue;
        }
        let best = db.value(&pos).expect("every position is in the databases");
        // The value a move keeps: what it takes plus what the databases give after it.
        let keeps = |k: usize| {
            let mut c = pos.clone();
            game.apply(&mut c, k).expect("legal");
            let now = margin(&game, &c) * if c.to_move == pos.to_move { 1 } else { -1 };
            let after = if c.over {
                0
            } else {
                let v = i64::from(db.value(&c).expect("in the databases"));
                if c.to_move == pos.to_move { v } else { -v }
            };
            now + after - margin(&game, &pos)
        };
        positions += 1;
        let with = alphabeta::search_with(&game, &pos, limits, false, &mut rng, Some(&db)).expect("a move");
        perfect += usize::from(keeps(with.pit) == i64::from(best));
        let without = alphabeta::search(&game, &pos, limits, false, &mut rng).expect("a move");
        blind_perfect += usize::from(keeps(without.pit) == i64::from(best));
    }
    assert_eq!(perfect, positions, "depth one with the databases is perfect");
    assert!(blind_perfect < positions, "without them it is not ({blind_perfect} of {positions})");
}
