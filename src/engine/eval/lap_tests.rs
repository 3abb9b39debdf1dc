//! Issue 25: the tables that answer a lap's end without the evaluator ([`at_lap_end`]) answer as
//! the evaluator does.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

/// The game of an invented rule text.
fn game(text: &str) -> Game {
    match crate::load_text(std::path::Path::new("invented.sow"), text, &[]) {
        Ok(loaded) => loaded.game,
        Err(_) => panic!("the invented game checks:\n{text}"),
    }
}

/// Captures of every kind of test a table answers (the side, row and store of `last`, its seeds
/// now and before the latest seed, the seeds across), one with a test it leaves to the evaluator,
/// one joined by `or` (no table); each table agrees with the evaluator for every mover, every cell
/// `last` and random boards.
#[test]
fn lap_tables_answer_as_the_evaluator() {
    let g = game(
        r#"game "Lap ends"
           board { rows 2  pits 3  seeds 2 }
           sow { direction either  track own  relay when last.before > 0 and last.count < 9 }
           capture "across" {
             when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
             take opposite(last)
           }
           capture "own" { when last.side != opponent and last.count in 3..5 and last.row != front  take last }
           capture "stored" { when last == store(mover) and last.count > 2  take last }
           capture "not a store" { when not last.store and opposite(last).count == 0 and lap > 2  take last }
           capture "either" { when last.count == 7 or opposite(last).count == 7  take last }
           end "cannot move" when no_moves loser to_move"#,
    );
    let phase = g.phases.last().expect("the usual rules");
    let conditions: Vec<&Code> = phase.captures.iter().map(|r| &r.when).chain(phase.sow.relay.as_ref()).collect();
    assert!(conditions[4].lap.is_none(), "a condition joined by `or` has no table");
    let cells = g.pit_count() + 2;
    let mut rng = StdRng::seed_from_u64(25);
    let (mut answered, mut general) = (0, 0);
    for _ in 0..200 {
        let mut board = g.initial(None).board;
        let before: Vec<u32> = (0..cells).map(|_| rng.gen_range(0..4)).collect();
        for c in board.cells.iter_mut() {
            *c = rng.gen_range(0..10);
        }
        for mover in Player::BOTH {
            for last in 0..cells as Cell {
                let ctx = Ctx {
                    regs: [last, NO_PIT, NO_PIT],
                    before: Some(&before),
                    lap: 3,
                    ..Ctx::new(&g, &board, mover)
                };
                for code in &conditions {
                    match at_lap_end(code, mover, last, &board.cells, Some(&before)) {
                        Some(holds) => {
                            answered += 1;
                            assert_eq!(holds, ctx.bool(code), "{mover:?}, last {last}: {code:?}");
                        }
                        None => general += 1,
                    }
                }
            }
        }
    }
    // The first three captures and the relay are answered everywhere; the fourth where `last` is
    // a store (it is not), else by the evaluator; the fifth never.
    let per_board = 2 * cells;
    assert_eq!(answered, 200 * per_board * 4 + 200 * 2 * 2);
    assert_eq!(general, 200 * (per_board * 2 - 2 * 2));
}
