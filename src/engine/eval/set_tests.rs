//! Sets of pits walked by the evaluator.

use super::*;

/// A set inside a filter whose row is read from the filter's pit (`row(pit.side)`) is the row of
/// each pit walked, not one row fixed for the walk: South's pits hold 1, 1, 1 (3 seeds) and
/// North's 2, 2, 2 (6), so the pits whose own row holds more than 4 are North's three, whoever
/// moves.
#[test]
fn a_row_read_from_the_walked_pit_follows_it() {
    let g = crate::shipped::invented(
        r#"game "Own rows"
           board { pits 3  seeds 1 }
           sow { direction ccw }
           capture "rich rows" { when size(board where sum(row(pit.side)) > 4) == 3  take last }
           end "cannot move" when no_moves loser to_move"#,
    );
    let mut board = g.initial(None).board;
    for c in 3..6 {
        board.cells[c] = 2;
    }
    let when = &g.phases.last().expect("the usual rules").captures[0].when;
    for mover in Player::BOTH {
        for _ in 0..2 {
            // Asked twice: the second walk reads what the first one may have kept.
            assert!(Ctx::new(&g, &board, mover).bool(when), "{mover:?}");
        }
    }
}
