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
use sowlang::{Game, Override, Player, Position};

use super::support::{board_sets, invented, root, scratch, shipped};

static GO: AtomicBool = AtomicBool::new(false);

/// A shipped rule file with `pits` and `seeds` set.
fn variant(file: &str, pits: i64, seeds: i64) -> Game {
    sowlang::load_game(&root().join("variants").join(file), &board_sets(pits, seeds))
        .unwrap_or_else(|_| panic!("{file} loads"))
        .game
}

fn kalah(pits: i64, seeds: i64) -> Game {
    variant("kalah.sow", pits, seeds)
}

fn oware(pits: i64, seeds: i64) -> Game {
    variant("oware.sow", pits, seeds)
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
        if p.is_over() || !seen.insert(game.hash(&p)) {
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
    i64::from(s[pos.to_move().index()]) - i64::from(s[pos.to_move().other().index()])
}

#[test]
fn database_values_are_those_of_exhaustive_search() {
    let mut compared = 0;
    for (pits, seeds, upto) in [(2, 2, 8), (3, 1, 6), (2, 3, 5), (3, 2, 4)] {
        let game = kalah(pits, seeds);
        let db = in_memory(&game, upto).expect("kalah is served");
        for pos in reachable(&game) {
            let Some(v) = db.value(&pos) else {
                let on_board: u32 = pos.seeds()[..game.pit_count()].iter().sum();
                assert!(on_board > upto, "a position with {on_board} seeds on the board is missing");
                continue;
            };
            // Plain minimax: the whole tree below, no table, no pruning.
            let exact = solve::minimax(&game, &pos, 5_000_000).expect("small enough for minimax");
            assert_eq!(
                i64::from(v),
                exact.margin - margin(&game, &pos),
                "pits={pits} seeds={seeds}: {:?} {} to move",
                pos.seeds(),
                pos.to_move().name()
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

/// Every position reachable from the start where play could begin afresh: the start and every
/// position a capture led to (its history is itself alone).
fn entered(game: &Game) -> Vec<Position> {
    let mut start = game.initial(None);
    game.settle_start(&mut start);
    let mut seen = HashSet::new();
    let mut todo = vec![start.clone()];
    let mut out = vec![start];
    while let Some(p) = todo.pop() {
        if p.is_over() || !seen.insert(game.hash(&p)) {
            continue;
        }
        for k in game.legal_moves(&p) {
            let mut c = p.clone();
            game.apply(&mut c, k).expect("legal");
            if !c.is_over() && game.scores(&c) != game.scores(&p) {
                out.push(c.clone());
            }
            todo.push(c);
        }
    }
    out
}

#[test]
fn under_a_repetition_rule_exact_values_are_those_of_the_search_with_history() {
    // Oware: its end rules read the stores (more than half captured), and a repetition splits the
    // seeds left, the odd one to whoever has more in their row where play repeats.
    let mut exact = 0;
    let mut bounded = 0;
    for (pits, seeds) in [(2, 1), (2, 2), (3, 1), (2, 3)] {
        let game = oware(pits, seeds);
        let db = in_memory(&game, game.total_seeds()).expect("oware is served");
        for pos in entered(&game) {
            let (lo, hi) = db.bounds(&pos).expect("every position is in the databases");
            let truth = solve::solve(&game, &pos, Limits::from_memory(), Keys::History).expect("small");
            let v = truth.margin - margin(&game, &pos);
            let at = format!("{pits}x{seeds}: {:?} {} to move", pos.seeds(), pos.to_move().name());
            assert!(i64::from(lo) <= v && v <= i64::from(hi), "{at}: {v} not in {lo}..={hi}");
            if lo == hi {
                assert_eq!(db.value(&pos), Some(lo), "{at}");
                exact += 1;
            } else {
                assert_eq!(db.value(&pos), None, "{at}");
                // The search with the line of play settles it.
                let now = margin(&game, &pos) as i32;
                let (slo, shi, sign) = match pos.to_move() {
                    Player::South => (now + lo, now + hi, 1),
                    Player::North => (-(now + hi), -(now + lo), -1),
                };
                let found = endgame::Resolver::new(&game, &db, 10_000_000)
                    .south_margin(&pos, (slo, shi))
                    .expect("small");
                assert_eq!(i64::from(sign * found - now), v, "{at}: the search with the line");
                bounded += 1;
            }
        }
    }
    assert!(
        exact > 100 && bounded > 10,
        "only {exact} exact values and {bounded} bounded ones compared"
    );
}

/// The walk and the search with the line of play over packed boards (the fast form) give what they
/// give over the general engine's positions: the same databases, byte for byte, and the same exact
/// value wherever they keep bounds, on Oware boards whose blocks have cycles.
#[test]
fn under_a_repetition_rule_the_databases_and_the_line_search_are_the_same_with_the_fast_form_and_without() {
    let mut resolved = 0;
    for (pits, seeds) in [(3, 2), (2, 4), (4, 1)] {
        let game = oware(pits, seeds);
        assert!(game.has_fast_form());
        let general = game.without_fast_form();
        let all = game.total_seeds();
        let (fast_db, general_db) = (in_memory(&game, all).expect("served"), in_memory(&general, all).expect("served"));
        for n in 0..=all {
            assert_eq!(fast_db.layer_values(n), general_db.layer_values(n), "{pits}x{seeds} layer {n}");
        }
        for pos in entered(&game) {
            let (lo, hi) = fast_db.bounds(&pos).expect("every position is in the databases");
            if lo == hi {
                continue;
            }
            let now = margin(&game, &pos) as i32;
            let south = match pos.to_move() {
                Player::South => (now + lo, now + hi),
                Player::North => (-(now + hi), -(now + lo)),
            };
            let packed = endgame::Resolver::new(&game, &fast_db, 10_000_000).south_margin(&pos, south);
            let plain = endgame::Resolver::new(&general, &general_db, 10_000_000).south_margin(&pos, south);
            assert_eq!(packed.expect("small"), plain.expect("small"), "{pits}x{seeds}: {:?}", pos.seeds());
            resolved += 1;
        }
    }
    assert!(resolved > 1000, "only {resolved} positions between bounds");
}

#[test]
fn a_rule_on_the_stores_gives_a_block_per_split() {
    let text = std::fs::read_to_string(root().join("variants/kalah.sow")).expect("kalah");
    let text = text.replace(
        "end \"a row is empty\"",
        "end \"more than half\" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner\nend \"a row is empty\"",
    );
    let game = sowlang::load_text(Path::new("half.sow"), &text, &board_sets(3, 2))
        .unwrap_or_else(|_| panic!("checks"))
        .game;
    let db = in_memory(&game, game.total_seeds()).expect("the stores are part of the position");
    let mut compared = 0;
    for pos in reachable(&game) {
        let exact = solve::minimax(&game, &pos, 5_000_000).expect("small enough for minimax");
        assert_eq!(
            db.value(&pos).map(i64::from),
            Some(exact.margin - margin(&game, &pos)),
            "{:?} {} to move",
            pos.seeds(),
            pos.to_move().name()
        );
        compared += 1;
    }
    assert!(compared > 100, "only {compared}");
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
    assert_eq!(total, endgame::positions_of(&game, 6));
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
    assert_ne!(endgame::key(&kalah(4, 2)), endgame::key(&game));
}

#[test]
fn boards_that_differ_only_in_their_seeds_share_databases_unless_a_rule_reads_the_total() {
    // No rule of Kalah reads the total: the same values, so the same files.
    let (two, three) = (kalah(3, 2), kalah(3, 3));
    assert_eq!(endgame::key(&two), endgame::key(&three));
    let (a, b) = (in_memory(&two, 8).expect("served"), in_memory(&three, 8).expect("served"));
    for n in 0..=8 {
        assert_eq!(a.layer_values(n), b.layer_values(n), "layer {n}");
    }
    // A rule that reads it keeps them apart.
    let text = std::fs::read_to_string(root().join("variants/kalah.sow")).expect("kalah");
    let text = text.replace(
        "end \"a row is empty\"",
        "forbid \"never\" when total > 1000\nend \"a row is empty\"",
    );
    let reading = |seeds: &str| {
        let sets = [Override {
            name: "seeds".into(),
            value: seeds.parse().expect("number"),
        }];
        sowlang::load_text(Path::new("reads_total.sow"), &text, &sets)
            .unwrap_or_else(|_| panic!("checks"))
            .game
    };
    assert_ne!(endgame::key(&reading("2")), endgame::key(&reading("3")));
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
            assert!(pos.is_over(), "{board}: the variation stops before the end");
            let s = game.scores(&pos);
            let m = i64::from(s[start.to_move().index()]) - i64::from(s[start.to_move().other().index()]);
            assert_eq!(m, proved.margin, "{board}");
        }
    }
}

#[test]
fn alphabeta_with_databases_plays_every_endgame_position_perfectly_at_depth_one() {
    use rand::SeedableRng;
    use sowlang::search::alphabeta;
    let game = kalah(3, 2);
    let db = in_memory(&game, game.total_seeds()).expect("served");
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
            let now = margin(&game, &c) * if c.to_move() == pos.to_move() { 1 } else { -1 };
            let after = if c.is_over() {
                0
            } else {
                let v = i64::from(db.value(&c).expect("in the databases"));
                if c.to_move() == pos.to_move() { v } else { -v }
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

/// Runs sowlang from the repository root with `input` piped to it: exit code and stdout.
fn sowlang(args: &[&str], input: &[u8]) -> (i32, String) {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        // Only the databases a test names are read.
        .env_remove("SOWLANG_DATABASES")
        // A folder that does not exist: reading never creates one.
        .env("XDG_CACHE_HOME", std::env::temp_dir().join("sowlang-endgame-no-such-cache"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sowlang");
    let _ = child.stdin.take().expect("stdin").write_all(input);
    let out = child.wait_with_output().expect("sowlang ends");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned())
}

/// Kalah with 3 pits and 2 seeds: south [0,1,1], north [1,0,0], stores 4 and 5, south to move.
/// Pit 3 sows into south's store (another move), then pit 2 ends in the empty south 3 across from
/// north 1's seed: 2 seeds taken, 7 to 5, a win by 2. Pit 2 instead makes south 3 hold 2; north's
/// only move, pit 1, sows into the empty north 2 across from an empty pit (nothing taken); south's
/// only move, pit 3, sows the store and north 1 and empties south's row, so north keeps its 2 seeds:
/// 5 to 7, a loss by 2.
const WON_BY_TWO: &str = r#"{"pits":{"south":[0,1,1],"north":[1,0,0]},"stores":{"south":4,"north":5},"to_move":"south"}"#;

#[test]
fn a_hint_in_a_database_position_gives_every_move_s_exact_result() {
    let dir = scratch("endgame", "hint");
    let game = kalah(3, 2);
    Endgames::open(
        &game,
        12,
        &Build {
            dir: Some(&dir),
            report: &|_| {},
            stop: &GO,
        },
    )
    .expect("served");
    let puzzle = dir.join("won-by-two.json");
    std::fs::write(&puzzle, WON_BY_TWO).expect("write");
    let (dir_arg, puzzle_arg) = (dir.display().to_string(), puzzle.display().to_string());
    let base = [
        "play",
        "variants/kalah.sow",
        "--set",
        "pits=3",
        "--set",
        "seeds=2",
        "--vs",
        "human",
        "--from",
        &puzzle_arg,
        "--hint-depth",
        "1",
    ];
    let with: Vec<&str> = base.iter().copied().chain(["--databases", &dir_arg]).collect();
    let (code, text) = sowlang(&with, b"hint\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert!(text.contains("hint: pit 3 wins by 2 with best play"), "{text}");
    assert!(text.contains("pit 2   loses by 2 with best play"), "{text}");
    // Without them, one ply ahead sees neither end: no exact word.
    let without: Vec<&str> = base.iter().copied().chain(["--no-endgame"]).collect();
    let (code, text) = sowlang(&without, b"hint\nquit\n");
    assert_eq!(code, 0, "{text}");
    assert!(!text.contains("with best play:"), "{text}");
    assert!(text.contains("hint: pit"), "{text}");
    // `analyze` judges the players' endgames with the same databases, and only when it has them.
    let analyze = [
        "analyze",
        "variants/kalah.sow",
        "--set",
        "pits=3",
        "--set",
        "seeds=2",
        "--games",
        "20",
        "--players",
        "random,random",
        "--json",
    ];
    let (code, text) = sowlang(&[&analyze[..], &["--databases", &dir_arg]].concat(), b"");
    assert_eq!(code, 0, "{text}");
    let report: serde_json::Value = serde_json::from_str(&text).expect("json");
    let judged = &report["won_endgames"];
    assert_eq!(judged["seeds"], 12, "{text}");
    let (moves, left) = (
        |s: &str| judged[s]["moves"].as_u64().expect("moves"),
        |s: &str| judged[s]["left"].as_u64().expect("left"),
    );
    assert!(left("south") <= moves("south") && left("north") <= moves("north"), "{text}");
    // Random players stand in won endgames and leave some of them.
    assert!(moves("south") + moves("north") > 0 && left("south") + left("north") > 0, "{text}");
    let (_, text) = sowlang(&[&analyze[..], &["--no-endgame"]].concat(), b"");
    assert!(!text.contains("won_endgames"), "{text}");
}

#[test]
fn the_search_players_with_databases_play_a_best_move_in_every_database_position() {
    use rand::SeedableRng;
    use sowlang::players::{self, Spec};
    use sowlang::search::{alphabeta, mcts};
    let game = kalah(3, 2);
    let db = in_memory(&game, game.total_seeds()).expect("served");
    let specs = [
        Spec::AlphaBeta(alphabeta::Limits { depth: 1, time: None }),
        Spec::Mcts(mcts::Budget { playouts: 20, time: None }),
    ];
    let mut rng = rand::rngs::StdRng::seed_from_u64(24);
    let (mut positions, mut blind_perfect) = (0, 0);
    for pos in reachable(&game) {
        if game.legal_moves(&pos).len() < 2 {
            continue;
        }
        positions += 1;
        // Each move's final score difference for the mover, worked out here from the values alone.
        let keeps = |k: usize| {
            let mut c = pos.clone();
            game.apply(&mut c, k).expect("legal");
            let now = if c.to_move() == pos.to_move() {
                margin(&game, &c)
            } else {
                -margin(&game, &c)
            };
            let after = if c.is_over() {
                0
            } else {
                i64::from(db.value(&c).expect("in the databases"))
            };
            now + if c.to_move() == pos.to_move() { after } else { -after }
        };
        let best = margin(&game, &pos) + i64::from(db.value(&pos).expect("in the databases"));
        for spec in specs {
            let chosen = players::choose_with(&game, &pos, spec, false, &mut rng, Some(&db)).expect("a move");
            assert_eq!(keeps(chosen.pit), best, "{spec}: {:?} {}", pos.seeds(), pos.to_move().name());
            let words = if best > 0 {
                format!("wins by {best} with best play")
            } else if best == 0 {
                "draws with best play".to_string()
            } else {
                format!("loses by {} with best play", -best)
            };
            assert!(chosen.why.starts_with(&words), "{spec}: {}", chosen.why);
        }
        let blind = players::choose(&game, &pos, specs[1], false, &mut rng).expect("a move");
        blind_perfect += usize::from(keeps(blind.pit) == best);
    }
    assert!(positions > 100, "{positions}");
    assert!(
        blind_perfect < positions,
        "MCTS without them is not perfect ({blind_perfect} of {positions})"
    );
}

#[test]
fn databases_are_read_only_where_their_layers_are() {
    let dir = scratch("endgame", "read");
    let game = kalah(3, 2);
    assert!(Endgames::read(&game, &dir).is_none(), "nothing there: nothing read, nothing built");
    assert!(!dir.join(format!("{:016x}", endgame::key(&game))).exists());
    Endgames::open(
        &game,
        6,
        &Build {
            dir: Some(&dir),
            report: &|_| {},
            stop: &GO,
        },
    )
    .expect("served");
    assert_eq!(Endgames::read(&game, &dir).map(|d| d.seeds()), Some(6));
    // A missing layer ends what is read: the layers above it cannot be trusted to be of this build.
    let folder = dir.join(format!("{:016x}", endgame::key(&game)));
    std::fs::remove_file(folder.join("layer-004.sowdb")).expect("remove");
    let db = Endgames::read(&game, &dir).expect("layers 0 to 3");
    assert_eq!(db.seeds(), 3);
    let files = std::fs::read_dir(&folder).expect("folder").count();
    assert_eq!(files, 6, "reading built nothing");
}

/// Positions met in random games of `game` (every one of `games` games from the start, each move
/// drawn with `seed`).
fn visited(game: &Game, games: u64, seed: u64) -> Vec<Position> {
    use rand::{Rng, SeedableRng};
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        for _ in 0..300 {
            let moves = game.legal_moves(&pos);
            if pos.is_over() || moves.is_empty() {
                break;
            }
            out.push(pos.clone());
            let k = moves[rng.gen_range(0..moves.len())];
            game.apply(&mut pos, k).expect("legal");
        }
    }
    out
}

#[test]
fn the_fast_successors_are_the_general_engine_s_moves_and_positions() {
    let mut compared = Vec::new();
    // The shipped games the fast form serves for a search (those without a repetition rule or
    // relay sowing), and Oware without its repetition rule: feeding, a grand slam, captures in a
    // series and end rules on the stores.
    let oware = std::fs::read_to_string(root().join("variants/oware.sow")).expect("oware");
    let no_repetition = oware.replace("end \"endless chasing\" when repeated remaining split", "");
    assert_ne!(oware, no_repetition);
    let invented = sowlang::load_text(Path::new("oware_without_repetition.sow"), &no_repetition, &[])
        .unwrap_or_else(|_| panic!("checks"))
        .game;
    let games = shipped()
        .into_iter()
        .filter_map(|f| Some((f.file_stem()?.to_string_lossy().to_string(), sowlang::load_game(&f, &[]).ok()?.game)))
        .chain([("oware_without_repetition".to_string(), invented)]);
    for (name, game) in games {
        let general = game.without_fast_form();
        let mut fast = 0;
        for pos in visited(&game, 20, 7) {
            let mut out = Vec::new();
            if !game.fast_children(&pos, &mut out) {
                continue;
            }
            let expected: Vec<(usize, Position)> = general
                .legal_moves(&pos)
                .into_iter()
                .map(|k| {
                    let mut c = pos.clone();
                    general.apply(&mut c, k).expect("legal");
                    (k, c)
                })
                .collect();
            assert_eq!(out, expected, "{name}: {:?}", pos.seeds());
            fast += 1;
        }
        if fast > 0 {
            compared.push(name);
        }
    }
    assert!(compared.iter().any(|n| n == "kalah"), "{compared:?}");
    assert!(compared.iter().any(|n| n == "oware_without_repetition"), "{compared:?}");
    println!("{compared:?}");
}

#[test]
fn databases_and_proofs_are_the_same_with_the_fast_form_and_without() {
    for (pits, seeds) in [(3, 2), (4, 2), (2, 4)] {
        let game = kalah(pits, seeds);
        assert!(game.has_fast_form());
        let general = game.without_fast_form();
        let upto = game.total_seeds().min(10);
        let (fast_db, general_db) = (in_memory(&game, upto).expect("served"), in_memory(&general, upto).expect("served"));
        for n in 0..=upto {
            assert_eq!(
                fast_db.layer_values(n),
                general_db.layer_values(n),
                "pits={pits} seeds={seeds} layer {n}"
            );
        }
        let mut start = game.initial(None);
        game.settle_start(&mut start);
        let options = prove::Options {
            table_bytes: 4 << 20,
            max_nodes: 50_000_000,
        };
        for db in [None, Some(5)] {
            let (a, b) = match db {
                Some(n) => (in_memory(&game, n).expect("served"), in_memory(&general, n).expect("served")),
                None => (in_memory(&game, 0).expect("served"), in_memory(&general, 0).expect("served")),
            };
            let fast = prove::prove(&game, &start, Some(&a), options, &Watch::QUIET).expect("small");
            let slow = prove::prove(&general, &start, Some(&b), options, &Watch::QUIET).expect("small");
            assert_eq!(
                (fast.value, fast.margin, &fast.moves),
                (slow.value, slow.margin, &slow.moves),
                "pits={pits} seeds={seeds}"
            );
        }
    }
}

/// Alpha-beta reads the databases at packed positions (issue 25) as at the general engine's: the
/// same results with the fast form and without it, along random games of Kalah 3x3 with databases
/// of up to 10 seeds on the board.
#[test]
fn alphabeta_with_databases_searches_the_same_with_and_without_the_fast_form() {
    use rand::{Rng, SeedableRng};
    use sowlang::search::alphabeta::{self, Limits};
    let game = kalah(3, 3);
    let general = game.without_fast_form();
    let db = in_memory(&game, 10).expect("served");
    let mut read = 0;
    for seed in 0..4 {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        while !pos.is_over() {
            read += u32::from(db.value(&pos).is_some());
            for depth in 1..=5 {
                let limits = Limits { depth, time: None };
                let (mut ra, mut rb) = (rand::rngs::StdRng::seed_from_u64(seed), rand::rngs::StdRng::seed_from_u64(seed));
                let fast = alphabeta::search_with(&game, &pos, limits, true, &mut ra, Some(&db));
                let slow = alphabeta::search_with(&general, &pos, limits, true, &mut rb, Some(&db));
                assert_eq!(fast, slow, "seed {seed}, depth {depth}");
                assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>());
            }
            game.random_playout(&mut pos, &mut rng, 1);
        }
    }
    assert!(read > 0, "some positions searched are in the databases");
}

#[test]
fn solve_answers_a_board_under_a_repetition_rule_from_its_databases() {
    let dir = scratch("endgame", "oware");
    let dir_text = dir.to_string_lossy().to_string();
    let json = |pits: &str, seeds: &str| {
        let (code, out) = sowlang(
            &[
                "solve",
                "variants/oware.sow",
                "--set",
                &format!("pits={pits}"),
                "--set",
                &format!("seeds={seeds}"),
                "--method",
                "mtdf",
                "--databases",
                &dir_text,
                "--json",
            ],
            b"",
        );
        assert_eq!(code, 0, "{out}");
        serde_json::from_str::<serde_json::Value>(&out).expect("json")
    };
    let opening = |j: &serde_json::Value| -> Vec<(i64, i64)> {
        j["moves"]
            .as_array()
            .expect("moves")
            .iter()
            .map(|m| (m["pit"].as_i64().expect("pit"), m["margin"].as_i64().expect("margin")))
            .collect()
    };
    // The same boards by alpha-beta keyed on the position and the history that can still matter,
    // a search that shares nothing with the databases.
    let by_history = |pits: i64, seeds: i64| {
        let game = oware(pits, seeds);
        let mut start = game.initial(None);
        game.settle_start(&mut start);
        let s = solve::solve(&game, &start, Limits::from_memory(), Keys::Component).expect("small");
        let moves: Vec<(i64, i64)> = s.moves.iter().map(|&(k, _, m)| (k as i64, m)).collect();
        (s.margin, moves)
    };
    // Oware 2x5: the databases keep bounds (+2 to +4) at the start; the search with the line of
    // play settles it at +2 (opening moves 1: 0, 2: +2), as the search with history does.
    let j = json("2", "5");
    assert_eq!((j["value"].as_str(), j["margin"].as_i64()), (Some("win"), Some(2)), "{j}");
    assert_eq!(opening(&j), [(1, 0), (2, 2)]);
    assert_eq!(by_history(2, 5), (2, opening(&j)));
    // Oware 3x2: +8 with best move 3, every opening move as the search with history values it.
    let j = json("3", "2");
    assert_eq!((j["margin"].as_i64(), j["best"].as_str()), (Some(8), Some("3")), "{j}");
    assert_eq!(opening(&j), [(1, -2), (2, 4), (3, 8)]);
    assert_eq!(by_history(3, 2), (8, opening(&j)));
}

/// Issue 25: MCTS with databases plays its playouts in the fast form until the seeds in the pits
/// are few enough for a position to be in the databases, then asks them after every move: the same
/// search with the fast form and without it (whose playouts stop where the general engine's do),
/// from positions where the databases do not answer at the root. Kalah 4x3 (Oware 4x2 too, under a
/// repetition rule), databases of 8 seeds.
#[test]
fn issue_25_mcts_with_databases_searches_the_same_with_and_without_the_fast_form() {
    use rand::{Rng, SeedableRng};
    use sowlang::search::mcts::{self, Budget};
    let mut asked = 0;
    for game in [kalah(4, 3), oware(4, 2)] {
        assert!(game.has_fast_form());
        let db = in_memory(&game, 8).expect("served");
        let general = game.without_fast_form();
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let mut walk = rand::rngs::StdRng::seed_from_u64(5);
        while !pos.is_over() {
            if db.value(&pos).is_none() {
                let budget = Budget { playouts: 40, time: None };
                let (mut ra, mut rb) = (rand::rngs::StdRng::seed_from_u64(asked), rand::rngs::StdRng::seed_from_u64(asked));
                let fast = mcts::search_with(&game, &pos, budget, &mut ra, Some(&db));
                let slow = mcts::search_with(&general, &pos, budget, &mut rb, Some(&db));
                assert_eq!(fast, slow, "{:?}", pos.seeds());
                assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>(), "{:?}", pos.seeds());
                asked += 1;
            }
            game.random_playout(&mut pos, &mut walk, 1);
        }
    }
    assert!(asked > 10, "{asked}");
}
