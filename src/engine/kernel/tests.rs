//! The fast forms' kernel against the general engine: tables, the watch over a move's laps, the
//! searches' stuck question, the packed board's lanes.

use rand::SeedableRng;

use super::*;

/// A game's fast form is a few pages of tables, and a relay game's lap tables as much again.
#[test]
fn the_tables_stay_small() {
    let (form, relay) = (std::mem::size_of::<FastForm>(), std::mem::size_of::<FastRelay>());
    eprintln!("FastForm {form} bytes, FastRelay {relay} bytes");
    assert!(form <= 16 * 1024 && relay <= 20 * 1024, "{form} {relay}");
}

/// Issue 25: the watch over a move's laps (`Brent`, its schedule read from the lap's number)
/// finds every cycle, whatever the laps before it and its length, within a few rounds of it,
/// and never a state not seen before.
#[test]
fn the_watch_finds_every_cycle_soon() {
    for tail in 0..40u32 {
        for length in 1..40u32 {
            let state = |t: u32| if t < tail { 1000 + t } else { (t - tail) % length };
            let mut watch = Brent::new();
            let found = (1..1000).find(|&t| watch.seen_again(t, state(t)));
            let t = found.unwrap_or_else(|| panic!("tail {tail}, length {length}: no cycle found"));
            assert!(
                t >= tail.max(1) + length && t <= 3 * (tail + length) + 1,
                "tail {tail}, length {length}: found at {t}"
            );
        }
    }
}

/// Issue 25: the searches' question whether a player has a legal move (`FastForm::any_legal`,
/// read from their row's filled cells where nothing can take a move away) answers as the legal
/// moves do, on every shipped game whose moves do not relay and on invented ones with a
/// `forbid` rule and feeding, along random games and with either row emptied.
#[test]
fn a_player_has_a_legal_move_where_their_legal_moves_are_some() {
    fn agrees<B: Board, const L: usize>(ff: &FastForm<B, L>, cells: &[u32], seen: &mut [usize; 2]) {
        let rows: Vec<Vec<u32>> = (0..3)
            .map(|emptied| {
                let mut c = cells.to_vec();
                for (i, n) in c[..ff.pits].iter_mut().enumerate() {
                    if emptied == 1 + usize::from(i >= ff.side) {
                        *n = 0;
                    }
                }
                c
            })
            .collect();
        for c in rows {
            let b = B::of_cells(&c);
            for p in Player::BOTH {
                let legal = ff.legal(b, b.filled(), p) != 0;
                assert_eq!(ff.any_legal(b, b.filled(), p), legal, "{c:?} {p:?}");
                seen[usize::from(legal)] += 1;
            }
        }
    }
    let mut games: Vec<Game> = crate::shipped::all().map(|s| s.game()).collect();
    games.push(crate::shipped::invented(
        r#"game "fed singles" board { pits 5 seeds 2 stores captures } first south
           sow { direction ccw skip origin }
           forbid "single" when origin.count == 1
           capture "pairs" { when last.side == opponent and last.count == 2  take last }
           feeding required
           end "stuck" when no_moves remaining owner"#,
    ));
    games.retain(|game| {
        game.fast.as_deref().is_some_and(|f| match f {
            Fast::Narrow(ff) => ff.relay.is_none(),
            Fast::Wide(ff) => ff.relay.is_none(),
        })
    });
    let fed = games
        .iter()
        .filter(|game| matches!(game.fast.as_deref(), Some(Fast::Narrow(ff)) if ff.must_feed && !ff.forbids.is_empty()))
        .count();
    let mut seen = [0; 2];
    along_random_games(&games, 11, |game, pos| match game.fast.as_deref() {
        Some(Fast::Narrow(ff)) => agrees(ff, &pos.board.cells, &mut seen),
        Some(Fast::Wide(ff)) => agrees(ff, &pos.board.cells, &mut seen),
        None => {}
    });
    assert!(fed > 0 && seen[0] > 500 && seen[1] > 500, "{fed} {seen:?}");
}

/// Issue 25: the searches' question whether a relay game's player has a legal move
/// (`FastForm::has_move_searched`, a first lap that ends the move read from the tables) answers
/// as sowing the candidates does, for each candidate alone and for them all, on every shipped
/// relay game with a fast form and on invented ones whose relays stop at two or three laps (a
/// move of more is not legal; one's capture sows again where the relay rule fails), along
/// random games.
#[test]
fn a_relay_player_has_a_move_where_sowing_finds_one() {
    fn agrees<B: Board, const L: usize>(ff: &FastForm<B, L>, cells: &[u32], seen: &mut [usize; 4]) {
        let Some(rt) = ff.relay.as_deref() else {
            return;
        };
        let b = B::of_cells(cells);
        for p in Player::BOTH {
            let all = ff.candidates(&b, b.filled(), p);
            let mut left = all;
            while left != 0 {
                let one = left & left.wrapping_neg();
                left &= left - 1;
                let legal = ff.has_move(rt, b, one, p);
                assert_eq!(ff.has_move_searched(rt, b, one, p), legal, "{cells:?} {p:?} {one:b}");
                // (Counted where the tables are read: a move known legal once sown, in place
                // or by `has_move_laps`.)
                if rt.in_place[p.index()] != 0xFF {
                    seen[usize::from(legal)] += 1;
                } else if ff.laps_judge_alone(b, p) {
                    seen[2 + usize::from(legal)] += 1;
                }
            }
            assert_eq!(ff.has_move_searched(rt, b, all, p), ff.has_move(rt, b, all, p), "{cells:?} {p:?}");
        }
    }
    let mut games: Vec<Game> = crate::shipped::all().map(|s| s.game()).collect();
    games.push(crate::shipped::invented(
        r#"game "short relays" board { rows 2 pits 8 seeds 2 where pit.row == back or pit.number > 5 stores captures }
           first south
           sow { direction ccw track own relay when last.before > 0 relay limit 2 }
           forbid "single" when origin.count == 1
           capture "across" { when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last) }
           end "stuck" when no_moves loser to_move"#,
    ));
    // A track round the whole board (no home block), whose capture sows again where the relay
    // rule fails: such a lap end does not end the move (`FastRelay::ends`).
    games.push(crate::shipped::invented(
        r#"game "relays sown again" board { pits 6 seeds 3 where pit.number > 2 stores captures }
           first south
           sow { direction ccw relay when last.before > 0 relay limit 3 }
           capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0
             take opposite(last) sow taken }
           end "stuck" when no_moves loser to_move"#,
    ));
    let mut seen = [0; 4];
    along_random_games(&games, 12, |game, pos| match game.fast.as_deref() {
        Some(Fast::Narrow(ff)) => agrees(ff, &pos.board.cells, &mut seen),
        Some(Fast::Wide(ff)) => agrees(ff, &pos.board.cells, &mut seen),
        None => {}
    });
    assert!(seen[0] > 100 && seen[1] > 1000 && seen[2] > 100 && seen[3] > 1000, "{seen:?}");
}

/// Calls `visit` on each position of five random games of each of `games`, cut at 80 plies (one
/// generator a game, seeded with `seed`).
fn along_random_games(games: &[Game], seed: u64, mut visit: impl FnMut(&Game, &Position)) {
    for game in games {
        let mut rng = rand::rngs::StdRng::seed_from_u64(seed);
        for _ in 0..5 {
            let mut pos = game.initial(None);
            game.settle_start(&mut pos);
            while !pos.over && pos.ply < 80 {
                visit(game, &pos);
                game.random_playout(&mut pos, &mut rng, 1);
            }
        }
    }
}

#[test]
fn packed_bits_and_sums() {
    let b: u128 = 3 | 1 << 16 | 200 << 120;
    assert_eq!(b.filled(), 0b1000_0000_0000_0101);
    assert_eq!(b.sum(), 204);
    assert_eq!(lane(b, 15), 200);
}
