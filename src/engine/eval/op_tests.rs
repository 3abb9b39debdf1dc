//! The stack machine's ops whose values do not fit in the op itself.

use super::*;

/// Bounds of a range test that fit in 32 bits are kept in the op; wider ones are pushed as any
/// range's. Both read as the bounds say, on counts 0 to 4 of `last`: `in 2..5000000000` holds
/// from 2, `in -4294967295..1` up to 1 (cut to 32 bits it would be `1..1`), `in
/// 4294967298..4294967299` never (cut, `2..3`).
#[test]
fn wide_range_bounds_read_as_written() {
    let g = crate::shipped::invented(
        r#"game "Wide bounds"
           board { pits 3  seeds 1 }
           sow { direction ccw }
           capture "from two" { when last.count in 2..5000000000  take last }
           capture "up to one" { when last.count in -4294967295..1  take last }
           capture "never" { when last.count in 4294967298..4294967299  take last }
           capture "narrow" { when last.count in 2..3  take last }
           end "cannot move" when no_moves loser to_move"#,
    );
    let rules = &g.phases.last().expect("the usual rules").captures;
    let ops = |i: usize| &rules[i].when.ops;
    assert!(ops(0).contains(&Op::InRange), "{:?}", ops(0));
    assert!(ops(3).iter().any(|op| matches!(op, Op::InRangeInt(2, 3))), "{:?}", ops(3));
    let board = g.initial(None).board;
    for count in 0..5 {
        let ctx = Ctx::new(&g, &board, Player::South).with(Reg::Last, 0);
        let cells = [count; 3];
        let ctx = Ctx { cells: &cells, ..ctx };
        let run = |i: usize| ctx.run_program(&rules[i].when) != 0;
        assert_eq!(run(0), count >= 2, "count {count}");
        assert_eq!(run(1), count <= 1, "count {count}");
        assert!(!run(2), "count {count}");
        assert_eq!(run(3), (2..=3).contains(&count), "count {count}");
    }
}

/// A program reading several memory values finds each one's own (their start values, on the
/// board before any move): a player's 7, another player's value past 32 bits, the game's -2. The
/// op names where a value lies; its start is the game's.
#[test]
fn memory_values_are_read_each_from_its_own_place() {
    let g = crate::shipped::invented(
        r#"game "Memories"
           memory {
             player small = 7
             player wide = 5000000000
             game low = -2
           }
           board { pits 3  seeds 1 }
           sow { direction ccw }
           capture "all three" { when mover.small == 7 and opponent.wide == 5000000000 and game.low == -2  take last }
           capture "sum" { when mover.small + game.low == 5  take last }
           end "cannot move" when no_moves loser to_move"#,
    );
    let rules = &g.phases.last().expect("the usual rules").captures;
    let board = g.initial(None).board;
    for mover in Player::BOTH {
        let ctx = Ctx::new(&g, &board, mover);
        assert!(ctx.run_program(&rules[0].when) != 0, "{mover:?}");
        assert!(ctx.run_program(&rules[1].when) != 0, "{mover:?}");
    }
}
