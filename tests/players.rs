//! Computer players and the exact solver, on the shipped variants: alpha-beta beats random play,
//! MCTS beats the greedy player, and the solver's methods agree on every small board they can all
//! finish. The game-playing tests are slow without optimisation, so they run under
//! `cargo test --release` (as CI does) and are skipped in a debug build.

use std::path::Path;

use rayon::prelude::*;
use sowlang::players::{Match, Spec, play_game};
use sowlang::search::solve::{self, Keys, Limits, Solved};
use sowlang::{Game, Outcome, Override, Player};

use crate::support::shipped;

fn load(file: &Path, sets: &[Override]) -> Option<Game> {
    sowlang::load_game(file, sets).ok().map(|l| l.game)
}

/// Games `player` wins against `opponent` out of `games`, half of them from each seat: wins as
/// south, wins as north, and how each other game went.
fn wins(game: &Game, player: Spec, opponent: Spec, games: u64, seed: u64) -> (u64, u64, Vec<String>) {
    let results: Vec<(bool, Player, String)> = (0..games)
        .into_par_iter()
        .map(|i| {
            let seat = if i % 2 == 0 { Player::South } else { Player::North };
            let players = if seat == Player::South {
                [player, opponent]
            } else {
                [opponent, player]
            };
            let m = Match {
                players,
                seed: seed + i,
                random_opening: 0,
                max_plies: 1000,
            };
            let played = play_game(game, &m, |_, _, _| {});
            let won = matches!(
                (played.pos.winner(), seat),
                (Some(Outcome::South), Player::South) | (Some(Outcome::North), Player::North)
            );
            let how = format!(
                "game {i}: {} as {}, {:?} after {} plies ({:?}, capped {})",
                player,
                seat.name(),
                played.pos.winner(),
                played.pos.ply(),
                played.pos.ended_by(),
                played.capped
            );
            (won, seat, how)
        })
        .collect();
    let won = |p: Player| results.iter().filter(|r| r.0 && r.1 == p).count() as u64;
    let (south, north) = (won(Player::South), won(Player::North));
    (south, north, results.into_iter().filter(|r| !r.0).map(|r| r.2).collect())
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisation: run with `cargo test --release`")]
fn alphabeta_beats_random_on_every_shipped_variant() {
    let ab: Spec = "alphabeta:3".parse().expect("a player");
    let mut failures = Vec::new();
    for file in shipped() {
        let game = load(&file, &[]).unwrap_or_else(|| panic!("{} loads", file.display()));
        let (south, north, lost) = wins(&game, ab, Spec::Random, 200, 0);
        println!(
            "{}: alpha-beta won {south} of 100 as south and {north} of 100 as north",
            file.display()
        );
        // Ba-awa's rules hand the last eight seeds to the player who began, so the other player cannot
        // always win even against random moves: alpha-beta at depth 8 still draws 14 of 100 games as
        // north (`sowlang analyze variants/ba_awa.sow --players random,alphabeta:8`). There it must win
        // 95 of 100 as the starter and lose at most 5 of 100 as north; everywhere else, 190 of 200.
        let starter_favoured = file.file_stem().is_some_and(|s| s == "ba_awa");
        let north_lost = lost.iter().filter(|l| l.contains("as north, Some(South)")).count();
        let enough = if starter_favoured {
            south >= 95 && north_lost <= 5
        } else {
            south + north >= 190
        };
        if !enough {
            failures.push(format!(
                "{}: alpha-beta won {south} of 100 as south and {north} of 100 as north\n  {}",
                file.display(),
                lost.join("\n  ")
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
#[cfg_attr(debug_assertions, ignore = "slow without optimisation: run with `cargo test --release`")]
fn mcts_beats_greedy_on_oware() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/oware.sow");
    let game = load(&file, &[]).expect("oware loads");
    let mcts: Spec = "mcts:200".parse().expect("a player");
    let (south, north, lost) = wins(&game, mcts, Spec::Greedy, 12, 100);
    let won = south + north;
    assert!(won >= 9, "MCTS won only {won} of 12:\n  {}", lost.join("\n  "));
}

#[test]
fn players_are_deterministic_for_a_seed() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/kalah.sow");
    let game = load(
        &file,
        &[Override {
            name: "pits".into(),
            value: 4,
        }],
    )
    .expect("kalah loads");
    for spec in ["alphabeta:2", "mcts:20", "greedy", "random"] {
        let m = Match {
            players: [spec.parse().expect("a player"), Spec::Random],
            seed: 7,
            random_opening: 2,
            max_plies: 300,
        };
        let a = play_game(&game, &m, |_, _, _| {});
        let b = play_game(&game, &m, |_, _, _| {});
        assert_eq!(a.moves, b.moves, "{spec}");
    }
}

/// Both results, or what differs.
fn same(a: &Solved, b: &Solved) -> Result<(), String> {
    if a.value == b.value && a.margin == b.margin && a.moves == b.moves {
        Ok(())
    } else {
        Err(format!(
            "{:?} {:+} {:?} vs {:?} {:+} {:?}",
            a.value, a.margin, a.moves, b.value, b.margin, b.moves
        ))
    }
}

#[test]
fn solve_methods_agree_on_small_boards() {
    // Small limits: a board that does not finish quickly is skipped, not waited for, and so are the
    // larger boards of the same variant and size for that method.
    let (minimax_nodes, limits) = if cfg!(debug_assertions) {
        (
            20_000,
            Limits {
                max_positions: 5_000,
                max_nodes: 50_000,
            },
        )
    } else {
        (
            100_000,
            Limits {
                max_positions: 40_000,
                max_nodes: 300_000,
            },
        )
    };
    let mut checked = Vec::new();
    let mut failures = Vec::new();
    for file in shipped() {
        for pits in 2..=3 {
            let mut gave_up = [false; 3];
            for seeds in 1..=3 {
                // A variant without these parameters has one board, which is too large.
                let Some(game) = load(&file, &super::support::board_sets(pits, seeds)) else {
                    continue;
                };
                let mut start = game.initial(None);
                game.settle_start(&mut start);
                let mut run = |i: usize, f: &dyn Fn() -> Result<Solved, solve::Refusal>| {
                    if gave_up[i] {
                        return None;
                    }
                    let r = f().ok();
                    gave_up[i] = r.is_none();
                    r
                };
                let component = run(0, &|| solve::solve(&game, &start, limits, Keys::Component));
                let history = run(1, &|| solve::solve(&game, &start, limits, Keys::History));
                let plain = run(2, &|| solve::minimax(&game, &start, minimax_nodes));
                let name = format!("{} pits={pits} seeds={seeds}", file.display());
                let mut methods = Vec::new();
                let results = [("component", &component), ("history", &history), ("minimax", &plain)];
                for (i, (a_name, a)) in results.iter().enumerate() {
                    for (b_name, b) in &results[i + 1..] {
                        if let (Some(a), Some(b)) = (a, b) {
                            methods.push(format!("{a_name}={b_name}"));
                            if let Err(e) = same(a, b) {
                                failures.push(format!("{name}: {a_name} and {b_name} differ: {e}"));
                            }
                        }
                    }
                }
                if !methods.is_empty() {
                    checked.push(format!("{name}: {}", methods.join(", ")));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let by_minimax = checked.iter().filter(|c| c.contains("component=minimax")).count();
    let by_history = checked.iter().filter(|c| c.contains("component=history")).count();
    assert!(
        by_minimax >= 10 && by_history >= 20,
        "too few boards compared ({by_minimax} with minimax, {by_history} with whole-history keys):\n{}",
        checked.join("\n")
    );
    println!("{}", checked.join("\n"));
}

#[test]
fn solving_a_full_board_is_refused_with_an_estimate() {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants/oware.sow");
    let game = load(&file, &[]).expect("oware loads");
    let start = game.initial(None);
    let r = solve::solve(&game, &start, Limits::from_memory(), Keys::Component).expect_err("far too large");
    let text = r.to_string();
    assert!(text.contains("positions") && text.contains("e1"), "{text}");
}

/// The measurement of docs/analysis.md ("Players with endgame databases"): each player with the
/// endgame databases against the same player without them, from the same random endgame positions
/// of Kalah(6,4), once from each seat. Run it on purpose (it builds databases of 3.9e7 positions):
/// `cargo test --release --test main -- --ignored --nocapture players_with_endgame_databases`.
#[test]
#[ignore = "a measurement: builds databases of 14 seeds on the board for Kalah(6,4), about a minute"]
fn players_with_endgame_databases_against_the_same_players_without() {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};
    use sowlang::players::choose_with;
    use sowlang::search::endgame::{Build, Endgames};
    use sowlang::search::{alphabeta, mcts};
    use std::sync::atomic::AtomicBool;

    const SEEDS: u32 = 14;
    let game = load(&crate::support::root().join("variants/kalah.sow"), &[]).expect("kalah");
    let stop = AtomicBool::new(false);
    let started = std::time::Instant::now();
    let db = Endgames::open(
        &game,
        SEEDS,
        &Build {
            dir: None,
            report: &|_| {},
            stop: &stop,
        },
    )
    .expect("kalah is served");
    println!("databases of {SEEDS} seeds built in {:.1} s", started.elapsed().as_secs_f64());
    let pits = game.pit_count();
    // Positions of random games when 15 to 20 seeds are left on the board: just beyond the
    // databases, so that a search reaches them within a few plies.
    let mut rng = StdRng::seed_from_u64(2024);
    let mut starts = Vec::new();
    while starts.len() < 200 {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        let target = rng.gen_range(15..=20);
        loop {
            let moves = game.legal_moves(&pos);
            if pos.is_over() || moves.is_empty() {
                break;
            }
            if pos.seeds()[..pits].iter().sum::<u32>() <= target {
                starts.push(pos.clone());
                break;
            }
            game.apply(&mut pos, moves[rng.gen_range(0..moves.len())]).expect("legal");
        }
    }
    let specs = [
        Spec::AlphaBeta(alphabeta::Limits { depth: 2, time: None }),
        Spec::AlphaBeta(alphabeta::Limits { depth: 4, time: None }),
        Spec::Mcts(mcts::Budget { playouts: 300, time: None }),
    ];
    for spec in specs {
        let results: Vec<(i64, Outcome, Player)> = starts
            .par_iter()
            .enumerate()
            .flat_map(|(i, start)| [Player::South, Player::North].into_par_iter().map(move |knows| (i, start, knows)))
            .map(|(i, start, knows)| {
                let mut rng = StdRng::seed_from_u64(i as u64);
                let mut pos = start.clone();
                while !pos.is_over() {
                    let db = (pos.to_move() == knows).then_some(&db);
                    let Some(c) = choose_with(&game, &pos, spec, false, &mut rng, db) else {
                        break;
                    };
                    game.apply(&mut pos, c.pit).expect("legal");
                }
                let s = game.scores(&pos);
                let margin = i64::from(s[knows.index()]) - i64::from(s[knows.other().index()]);
                (margin, pos.winner().unwrap_or(Outcome::Draw), knows)
            })
            .collect();
        let won = |o: Outcome, p: Player| matches!((o, p), (Outcome::South, Player::South) | (Outcome::North, Player::North));
        let wins = results.iter().filter(|r| won(r.1, r.2)).count();
        let losses = results.iter().filter(|r| won(r.1, r.2.other())).count();
        let draws = results.len() - wins - losses;
        let mean = results.iter().map(|r| r.0).sum::<i64>() as f64 / results.len() as f64;
        println!(
            "{spec}: with the databases {wins} wins, {draws} draws, {losses} losses of {} games; mean final margin {mean:+.2}",
            results.len()
        );
    }
}

/// `search_with` of `pos` at depths 1 to 5 (best move only, and every move's score) with `game`'s
/// fast form and without it: the same move, scores, depth and node count, and the same random
/// numbers drawn.
fn searches_agree(game: &Game, general: &Game, pos: &sowlang::Position, db: Option<&sowlang::search::endgame::Endgames>, what: &str) {
    use rand::{Rng, SeedableRng};
    use sowlang::search::alphabeta::{self, Limits};
    for depth in 1..=5 {
        for all in [false, true] {
            let limits = Limits { depth, time: None };
            let (mut ra, mut rb) = (
                rand::rngs::StdRng::seed_from_u64(depth.into()),
                rand::rngs::StdRng::seed_from_u64(depth.into()),
            );
            let fast = alphabeta::search_with(game, pos, limits, all, &mut ra, db);
            let slow = alphabeta::search_with(general, pos, limits, all, &mut rb, db);
            assert_eq!(fast, slow, "{what}, depth {depth}, all scores {all}");
            assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>(), "{what}, depth {depth}");
        }
    }
}

/// The positions of a random game of `game` from its start (seeded by `seed`), one every `every`
/// moves, the start first.
fn along_a_random_game(game: &Game, seed: u64, every: u32) -> Vec<sowlang::Position> {
    use rand::SeedableRng;
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
    let mut out = vec![pos.clone()];
    while !pos.is_over() && out.len() < 12 {
        game.random_playout(&mut pos, &mut rng, every);
        if !pos.is_over() {
            out.push(pos.clone());
        }
    }
    out
}

/// Alpha-beta searches packed positions where the fast form serves (issue 25) and the general
/// engine's elsewhere, with the same results: every shipped game with a fast form and small Oware
/// boards, whose lines end by repetition ("endless chasing") within the search, from the start and
/// along random games (positions with a history of their own before the search).
#[test]
fn alphabeta_searches_the_same_with_and_without_the_fast_form() {
    let mut compared = 0;
    for path in shipped() {
        let game = load(&path, &[]).expect("a shipped game loads");
        if !game.has_fast_form() {
            continue;
        }
        let general = game.without_fast_form();
        for pos in along_a_random_game(&game, compared, 9).into_iter().step_by(3) {
            searches_agree(&game, &general, &pos, None, &path.display().to_string());
        }
        compared += 1;
    }
    assert!(compared >= 7, "{compared}");
    let oware = crate::support::root().join("variants/oware.sow");
    for (pits, seeds) in [(2, 1), (2, 2), (3, 1), (3, 2)] {
        let game = load(&oware, &crate::support::board_sets(pits, seeds)).expect("oware loads");
        assert!(game.has_fast_form());
        let general = game.without_fast_form();
        for seed in 0..3 {
            for pos in along_a_random_game(&game, seed, 1) {
                searches_agree(&game, &general, &pos, None, &format!("oware {pits}x{seeds}"));
            }
        }
    }
}

/// Issue 25: alpha-beta over packed positions on boards wider than one `u128` and in games whose
/// moves relay (each candidate sown to learn whether it is legal), on invented rules: the same
/// move, scores, node count and random numbers as over the general engine's positions, from the
/// start and along a random game. The narrow relay games' limit leaves a player pits to play none
/// of which is legal, which a `no_moves` rule ends (the seeds left to their owners), or which the
/// search scores as it stands where no rule does.
#[test]
fn issue_25_alphabeta_searches_the_same_on_wide_boards_and_relays() {
    let games = [
        r#"game "pull" board { rows 2 pits 5 seeds 2 stores captures } first south
           sow { direction ccw track own relay when last.before > 0 relay limit 12 }
           forbid "single" when origin.count == 1
           capture "pull across" {
             when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last), behind(opposite(last))
             sow taken
           }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        r#"game "cross" board { rows 2 pits 5 seeds 2 stores captures } first south
           sow { direction ccw track own relay when last.before > 0 }
           capture "cross" {
             when last.side == mover and last.row == front and last.before == 0 and opposite(last).count > 0
             take opposite(last), behind(opposite(last))
             then end
           }
           end "stuck" when no_moves loser to_move
           end "going round" when repeated draw"#,
        r#"game "narrow relay" board { pits 4 seeds 3 stores captures } first south
           sow { direction ccw relay when last.before > 0 relay limit 3 }
           capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }
           end "stuck" when no_moves remaining owner
           end "long" when ply >= 40 draw"#,
        // The same with no rule for a player who cannot move: the search scores what each holds.
        r#"game "stuck relay" board { pits 4 seeds 3 stores captures } first south
           sow { direction ccw relay when last.before > 0 relay limit 3 }
           capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }
           end "long" when ply >= 40 draw"#,
    ];
    for text in games {
        let game = crate::support::invented(text);
        assert!(game.has_fast_form(), "{text}");
        let general = game.without_fast_form();
        for seed in 0..2 {
            for pos in along_a_random_game(&game, seed, 2).into_iter().take(6) {
                searches_agree(&game, &general, &pos, None, text);
            }
        }
    }
}

/// Issue 25: the searches over packed positions hand to the general engine what a playout hands
/// over (the move of a player whose opponent has no seeds, judged by a feeding penalty; an end rule
/// the fast form reads only in part, `not can_feed`), and give the general engine's values and
/// counts: invented games on small boards, where both come up within a few moves, one lap or
/// relays, from positions along random games; with a repetition rule, the general engine is given
/// the line's history.
#[test]
fn issue_25_searches_hand_moves_judged_by_a_feeding_penalty_to_the_general_engine() {
    use crate::support::penalty::{ALONE, CANNOT_FEED, ONE_LAP, RELAY};
    // The penalty beside a repetition rule: the general engine needs the line's history.
    let kept_history = format!("end \"again\" when repeated remaining split {CANNOT_FEED}");
    let mut starving = 0;
    for (pits, seeds, sowing, rules) in [
        (3, 2, ONE_LAP, CANNOT_FEED),
        (4, 2, RELAY, CANNOT_FEED),
        (3, 2, ONE_LAP, ALONE),
        (3, 1, RELAY, ALONE),
        (3, 2, ONE_LAP, kept_history.as_str()),
        (2, 1, ONE_LAP, kept_history.as_str()),
        (2, 2, ONE_LAP, kept_history.as_str()),
    ] {
        let text = crate::support::penalty::game(pits, seeds, sowing, rules);
        let game = crate::support::invented(&text);
        assert!(game.has_fast_form(), "{text}");
        let general = game.without_fast_form();
        for seed in 0..10 {
            for pos in along_a_random_game(&game, seed, 1) {
                let row = |p: usize| pos.seeds()[p * pits..(p + 1) * pits].iter().sum::<u32>();
                starving += u32::from(row(0) == 0 || row(1) == 0);
                assert_eq!(game.perft(&pos, 4), general.perft(&pos, 4), "{text}\n{pos:?}");
                searches_agree(&game, &general, &pos, None, &text);
            }
        }
    }
    assert!(starving > 15, "{starving} positions with a row empty");
}

/// Issue 25: alpha-beta counts a node for every position it makes and scores, as perft counts
/// the positions it makes: a depth-2 search of Oware's start (iterative deepening: the root's
/// children at depth 1, then each of them one ply above the leaves, making and evaluating every
/// move to order them, none ending the game) counts the root's children twice and every position
/// two plies on once, though cut-offs leave some of those unsearched (`visited` is less).
#[test]
fn issue_25_alphabeta_counts_every_position_it_makes() {
    use rand::SeedableRng;
    use sowlang::search::alphabeta::{self, Limits};
    let game = load(&crate::support::root().join("variants/oware.sow"), &[]).expect("oware loads");
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    let perft = game.perft(&pos, 2);
    for g in [game.clone(), game.without_fast_form()] {
        let limits = Limits { depth: 2, time: None };
        let rng = || rand::rngs::StdRng::seed_from_u64(1);
        let found = alphabeta::search_ordered(&g, &pos, limits, false, &mut rng(), None, false).expect("a move");
        assert_eq!(found.nodes, 2 * perft[0] + perft[1], "{perft:?}");
        assert!(found.visited < found.nodes, "{found:?}");
        // The last depth's nodes one ply above the leaves make their moves one by one until one
        // cuts the node off: every position made is searched, and fewer are made.
        let found = alphabeta::search_with(&g, &pos, limits, false, &mut rng(), None).expect("a move");
        assert_eq!(found.nodes, found.visited, "{found:?}");
        assert!(found.nodes < 2 * perft[0] + perft[1], "{found:?}");
    }
}

/// Issue 25: the last depth's nodes one ply above the leaves make their moves one by one (the
/// table's first, then in move order) until one reaches beta, where they made them all and
/// visited them in the order of their evaluation: alpha-beta's value does not depend on the
/// order, and the depths before the last are searched as before, so the move, the value, every
/// move's value (when all are asked for) and the random numbers drawn are the same, with fewer
/// positions made (in all: at a node, a weaker bound may cost more elsewhere). Every shipped game with a fast form, from the start and along random games,
/// packed and general.
#[test]
fn issue_25_leaves_made_one_by_one_give_the_same_values() {
    use rand::{Rng, SeedableRng};
    use sowlang::search::alphabeta::{self, Limits};
    let (mut compared, mut made, mut made_before) = (0, 0, 0);
    for path in shipped() {
        let game = load(&path, &[]).expect("a shipped game loads");
        if !game.has_fast_form() {
            continue;
        }
        let general = game.without_fast_form();
        for pos in along_a_random_game(&game, compared, 5) {
            for depth in [1, 2, 4, 6] {
                for all in [false, true] {
                    let g = if depth <= 4 && compared % 2 == 0 { &general } else { &game };
                    let limits = Limits { depth, time: None };
                    let (mut ra, mut rb) = (
                        rand::rngs::StdRng::seed_from_u64(depth.into()),
                        rand::rngs::StdRng::seed_from_u64(depth.into()),
                    );
                    let now = alphabeta::search_ordered(g, &pos, limits, all, &mut ra, None, true).expect("a move");
                    let before = alphabeta::search_ordered(g, &pos, limits, all, &mut rb, None, false).expect("a move");
                    let what = format!("{}, depth {depth}, all scores {all}", path.display());
                    assert_eq!((now.pit, now.score, now.depth), (before.pit, before.score, before.depth), "{what}");
                    if all {
                        assert_eq!(now.scores, before.scores, "{what}");
                    }
                    assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>(), "{what}");
                    (made, made_before) = (made + now.nodes, made_before + before.nodes);
                }
            }
        }
        compared += 1;
    }
    assert!(compared >= 7, "{compared}");
    assert!(made < made_before, "{made} {made_before}");
}

/// Issue 25: MCTS plays its playouts as `random_playout` does, in the fast form where the game has
/// one: the same search with and without it (the same random numbers drawn), on narrow and wide
/// boards and relays.
#[test]
fn issue_25_mcts_searches_the_same_with_and_without_the_fast_form() {
    use rand::{Rng, SeedableRng};
    use sowlang::search::mcts::{self, Budget};
    let mut compared = 0;
    for path in shipped() {
        let game = load(&path, &[]).expect("a shipped game loads");
        if !game.has_fast_form() {
            continue;
        }
        let general = game.without_fast_form();
        let wide = game.pit_count() > 14;
        let budget = Budget {
            playouts: if wide { 8 } else { 60 },
            time: None,
        };
        for pos in along_a_random_game(&game, compared, 7).into_iter().take(if wide { 2 } else { 4 }) {
            let (mut ra, mut rb) = (rand::rngs::StdRng::seed_from_u64(3), rand::rngs::StdRng::seed_from_u64(3));
            let fast = mcts::search(&game, &pos, budget, &mut ra);
            let slow = mcts::search(&general, &pos, budget, &mut rb);
            assert_eq!(fast, slow, "{}", path.display());
            assert_eq!(ra.r#gen::<u64>(), rb.r#gen::<u64>(), "{}", path.display());
        }
        compared += 1;
    }
    assert!(compared >= 7, "{compared}");
}
