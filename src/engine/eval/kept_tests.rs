//! Values a program keeps once worked out ([`Op::Keep`]) read as the program worked out in full.

use super::*;
use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::shipped::invented as game;

/// Conditions that read a `let` walking a set more than once, or inside a set's filter (a value
/// the same for every pit), beside values that walk a set but read `pit` (never kept: a set of
/// `pit`'s own row, a `leftmost` from a pit's count): each gives, on random boards, for every
/// mover and pit `last`, what the same program gives with every value worked out where it is
/// read.
#[test]
fn kept_values_read_as_the_program_worked_out_in_full() {
    let g = game(
        r#"game "Kept"
           board { rows 2  pits 6  seeds 3 }
           sow { direction ccw }
           let rich = size(row(opponent) where pit.count > 2)
           let first_full = leftmost(row(mover) where pit.count > 3)
           let own_rich = sum(row(pit.side) where pit.count > 1)
           capture "rich" {
             when (rich > 1 or last.count == 2) and any(row(mover) where pit.count < rich and pit.count > 0)
             take last
           }
           capture "first" {
             when (first_full == last or opposite(first_full).count == last.count) and first_full != no_pit
             take last
           }
           capture "own" {
             when (last.count == 1 or last.count == 5)
               and size(board where own_rich > 2 * pit.count and leftmost(row(pit.side) where pit.count > 2 and pit.number > 3) != no_pit) % 2 == 0
             take last
           }
           capture "nested" {
             when (last.count == 3 or taken > 0) and size(row(mover) where any(row(opponent) where pit.count == rich)) >= first_full.count
               and first_full != no_pit
             take last
           }
           end "cannot move" when no_moves loser to_move"#,
    );
    let phase = g.phases.last().expect("the usual rules");
    let conditions: Vec<&Code> = phase.captures.iter().map(|r| &r.when).collect();
    let keeping: Vec<u8> = conditions.iter().map(|c| c.kept).collect();
    // "own" reads `pit` in every value that walks a set: nothing to keep. "nested" keeps the
    // inner `any` (the same for every pit of the outer set, `rich` worked out once with it) and
    // `first_full`, read twice.
    assert_eq!(keeping, [1, 1, 0, 2], "the values each condition keeps");
    let cells = g.pit_count() + 2;
    let mut rng = StdRng::seed_from_u64(25);
    let mut held = [0; 4];
    for _ in 0..300 {
        let mut board = g.initial(None).board;
        for c in board.cells.iter_mut() {
            *c = rng.gen_range(0..7);
        }
        for mover in Player::BOTH {
            for last in 0..cells as Cell {
                let ctx = Ctx {
                    regs: [last, NO_PIT, NO_PIT],
                    ..Ctx::new(&g, &board, mover)
                };
                for (i, code) in conditions.iter().enumerate() {
                    let kept = ctx.run_program(code);
                    // With no room, every value is worked out where it is read.
                    let in_full = Ctx { kept: None, ..ctx }.exec(code, &mut [0; 64]);
                    assert_eq!(kept, in_full, "{mover:?}, last {last}, capture {i}: {code:?}");
                    held[i] += usize::from(kept != 0);
                }
            }
        }
    }
    let per_capture = 300 * 2 * cells;
    assert!(
        held.iter().all(|&n| n > 0 && n < per_capture),
        "each condition both holds and fails: {held:?}"
    );
}
