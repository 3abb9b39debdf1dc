//! What a lap's end reads without running the evaluator: a condition answered from its table
//! ([`Code::lap`], made when the file is compiled) and a pit named by the way, from its memo
//! ([`Code::by_way`]).

use super::{Ctx, EMPTY_EXTREMES, empty_extremes, note_empty_extreme};
use crate::board::{Board, Cell, Player};
use crate::compile::ir::{CellRead, CellTest, Code, LapTable, WayValues};

/// The answer of a condition at the end of a lap of `mover`'s going clockwise (`cw`) or not and
/// ending in `last` from its table ([`Code::lap`]), when it has one that answers there; `None`:
/// the evaluator reads it.
#[inline(always)]
pub(crate) fn at_lap_end(code: &Code, mover: Player, cw: bool, last: Cell, board: &Board, before: Option<&[u32]>) -> Option<bool> {
    let table = code.lap.as_deref()?;
    let [first, end] = *table.at.get(mover.index() * table.cells + last as usize)?;
    let tests = match first {
        LapTable::NEVER => return Some(false),
        LapTable::GENERAL => return None,
        _ => &table.tests[usize::from(first)..usize::from(end)],
    };
    // A test of the way joined by `and`: the other way fails, whatever the rest reads (looked at
    // only here, where the counts are read: most cells answer before).
    if table.way.is_some_and(|way| way != cw) {
        return Some(false);
    }
    if table.reads_claims {
        return Some(claims_and_seeds_hold(tests, board, before));
    }
    Some(counts_hold(tests, &board.cells, before))
}

/// [`at_lap_end`] on a trial's packed board (a count a byte, no counts before the latest seed),
/// for a condition whose table is whole ([`LapTable::whole`]): every cell answered, no claim read.
#[inline(always)]
pub(crate) fn at_lap_end_packed(code: &Code, mover: Player, cw: bool, last: Cell, cells: &[u8]) -> bool {
    // The table's look-up as in `at_lap_end` (kept apart: sharing it cost the general lap's end
    // a few instructions).
    let Some(table) = code.lap.as_deref() else { return false };
    let at = mover.index() * table.cells + last as usize;
    if let Some(&own) = table.own.get(at) {
        return own >> u32::from(cells.get(last as usize).copied().unwrap_or(0)).min(63) & 1 != 0;
    }
    let Some(&[first, end]) = table.at.get(at) else {
        return false;
    };
    if first >= LapTable::GENERAL || table.way.is_some_and(|way| way != cw) {
        return false;
    }
    counts_hold(&table.tests[usize::from(first)..usize::from(end)], cells, None)
}

/// Do the seed counts of `cells` (or `before`, for the tests that read it) pass every test?
/// Most tables read seeds alone: this loop, inlined at every lap's end, is kept to the few
/// instructions they need (as a closure passed to `all`, the compiler may leave it out of line:
/// Bao 2% slower).
#[inline(always)]
fn counts_hold<T: Copy + Into<u32>>(tests: &[CellTest], cells: &[T], before: Option<&[u32]>) -> bool {
    for t in tests {
        let c = t.cell as usize;
        let seeds = match before {
            Some(before) if t.read == CellRead::Before => before.get(c).copied(),
            _ => cells.get(c).map(|&n| n.into()),
        };
        if (t.lo..=t.hi).contains(&i64::from(seeds.unwrap_or(0))) != t.inside {
            return false;
        }
    }
    true
}

/// The answer of a `forbid` rule read before the move of `mover` (the player to move) from
/// `origin` going clockwise (`cw`) or not is sown, from its table per mover and origin (built
/// like a lap's end's, keyed on `origin`); `None`: the evaluator reads it. No counts before a
/// seed exist yet: `origin.before` reads its seeds, as the evaluator reads it there.
#[inline(always)]
pub(crate) fn at_origin(code: &Code, mover: Player, cw: bool, origin: Cell, board: &Board) -> Option<bool> {
    // A table of the origin's own seeds: one bit of a word.
    if let Some(table) = code.lap.as_deref()
        && let Some(&own) = table.own.get(mover.index() * table.cells + origin as usize)
    {
        return Some(own >> board.cells.get(origin as usize).copied().unwrap_or(0).min(63) & 1 != 0);
    }
    at_lap_end(code, mover, cw, origin, board, None)
}

/// [`at_lap_end`]'s tests where some read claims.
#[inline(never)]
fn claims_and_seeds_hold(tests: &[CellTest], board: &Board, before: Option<&[u32]>) -> bool {
    tests.iter().all(|t| {
        let c = t.cell as usize;
        let value = match (t.read, before) {
            (CellRead::Claimed, _) => u32::from(board.claimed.get(c).copied().flatten().is_some()),
            (CellRead::Before, Some(before)) => before.get(c).copied().unwrap_or(0),
            _ => board.cells.get(c).copied().unwrap_or(0),
        };
        (t.lo..=t.hi).contains(&i64::from(value)) == t.inside
    })
}

/// The pit `code` names for `mover` (the player to move) going clockwise (`cw`) or not, from its
/// memo ([`Ctx::pit_by_way`]), noting a `leftmost` or `rightmost` that found no pit as running it
/// would; `None` until the memo is made, or when the code reads more.
#[inline]
pub(crate) fn pit_from_memo(code: &Code, mover: Player, cw: bool) -> Option<Cell> {
    Some(read_memo(code.by_way.0.get()?.as_deref()?, mover, mover, cw))
}

/// The memo's pit for `mover`, `to_move` and the way, noting an empty `leftmost` / `rightmost`.
#[inline]
fn read_memo(values: &WayValues, mover: Player, to_move: Player, cw: bool) -> Cell {
    let (pit, empty) = values[4 * mover.index() + 2 * to_move.index() + usize::from(cw)];
    if empty {
        note_empty_extreme();
    }
    pit as Cell
}

impl Ctx<'_> {
    /// The pit `code` names with the lap going clockwise (`cw`) or not: from the code's memo where it
    /// reads only the mover, the player to move and the way ([`Code::reads_only_way`]), else run.
    #[inline]
    pub fn pit_by_way(&self, code: &Code, cw: bool) -> Cell {
        match code.by_way.0.get_or_init(|| self.by_way(code)) {
            Some(values) => read_memo(values, self.mover, self.to_move, cw),
            None => Ctx { clockwise: cw, ..*self }.pit(code),
        }
    }

    /// The memo of [`Ctx::pit_by_way`]: each value, and whether `leftmost` or `rightmost` found no
    /// pit on the way (noted again each time it is read, and not when it is worked out).
    #[cold]
    #[inline(never)]
    fn by_way(&self, code: &Code) -> Option<Box<WayValues>> {
        if !code.reads_only_way() {
            return None;
        }
        let noted = empty_extremes();
        let mut values = [(0, false); 8];
        for (i, value) in values.iter_mut().enumerate() {
            let player = |bit: usize| if i & bit == 0 { Player::South } else { Player::North };
            let ctx = Ctx {
                mover: player(4),
                to_move: player(2),
                clockwise: i & 1 != 0,
                ..*self
            };
            let seen = empty_extremes();
            let pit = ctx.run(code);
            *value = (pit, empty_extremes() != seen);
        }
        EMPTY_EXTREMES.with(|n| n.set(noted));
        Some(Box::new(values))
    }
}
