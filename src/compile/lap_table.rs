//! Conditions read at the end of a lap (a capture rule's, the relay rule's) answered without the
//! evaluator ([`LapTable`]): most read only where `last` lies (its side, its row, whether it is a
//! store) and the seeds and claims of `last` and of the pit across, so for each mover and cell
//! `last` the first are answered here and the rest become reads of fixed cells to compare; a test
//! of the lap's way (`clockwise`) is one of the whole table.

use super::ir::{CellRead, CellTest, Code, Flag, LapTable, Operand, Reg, Test, Who};
use crate::board::{Cell, Geometry, Player};

/// What one test is for a mover and a cell `last`.
enum Known {
    Holds(bool),
    Count(CellTest),
    /// Read by the evaluator: it reads more than `last`'s place and seeds.
    General,
}

/// The table of a condition joined by `and` (or a single test), or `None` where it has none: any
/// other condition, or one whose tests are all read by the evaluator wherever `last` lies.
pub(super) fn build(code: &Code, sides: &[Option<Player>], g: &Geometry) -> Option<Box<LapTable>> {
    build_for(code, Reg::Last, sides, g)
}

/// [`build`] for a condition keyed on the pit `reg` names instead of `last`: a `forbid` rule read
/// before the move is sown asks the same of `origin` (its side, its row, its seeds and the seeds
/// across), so one table per mover and origin answers it as the lap tables answer a lap's end.
pub(super) fn build_for(code: &Code, reg: Reg, sides: &[Option<Player>], g: &Geometry) -> Option<Box<LapTable>> {
    let tests = code.quick.and_tests()?;
    let cells = sides.len();
    // A test of the way holds or fails wherever `last` lies: the table keeps it apart. Two that
    // contradict each other are left to the evaluator.
    let mut way = None;
    for t in &tests {
        if let Test::FlagIs(Flag::Clockwise, cw) = *t {
            if way.is_some_and(|w| w != cw) {
                return None;
            }
            way = Some(cw);
        }
    }
    let mut table = LapTable {
        cells,
        at: Vec::with_capacity(2 * cells),
        tests: Vec::new(),
        reads_claims: false,
        way,
        whole: false,
        own: Vec::new(),
    };
    for mover in Player::BOTH {
        for c in 0..cells {
            let first = table.tests.len();
            let (mut never, mut general) = (false, false);
            for t in &tests {
                match known(t, reg, sides, g, mover, c as Cell) {
                    Known::Holds(holds) => never |= !holds,
                    Known::Count(test) => table.tests.push(test),
                    Known::General => general = true,
                }
            }
            // Tests joined by `and`: one that fails decides, whatever the others read.
            let entry = if never {
                [LapTable::NEVER; 2]
            } else if general {
                [LapTable::GENERAL; 2]
            } else {
                [first as u16, table.tests.len() as u16]
            };
            if entry[0] >= LapTable::GENERAL {
                table.tests.truncate(first);
            }
            table.at.push(entry);
        }
    }
    // A table of `never` and `general` alone answers little that the filters of where a rule may hold
    // (`Phase::capture_at`) have not, and costs a look-up at every lap's end (3% of a game whose
    // conditions all read more than one lap's end).
    table.reads_claims = table.tests.iter().any(|t| t.read == CellRead::Claimed);
    table.whole = !table.reads_claims && table.at.iter().all(|e| e[0] != LapTable::GENERAL);
    table.own = own_counts(&table).unwrap_or_default();
    let useful = table.at.iter().any(|e| e[0] < LapTable::GENERAL);
    (useful && table.tests.len() < usize::from(LapTable::GENERAL)).then(|| Box::new(table))
}

/// [`LapTable::own`] of `table`: for each mover and cell, the answer for each count of that cell,
/// where every entry's tests read that cell's seeds alone and every count from 63 up answers as
/// 63 does; `None` where some entry reads more (or the table tests the way, or is not whole).
fn own_counts(table: &LapTable) -> Option<Vec<u64>> {
    if table.way.is_some() || !table.whole {
        return None;
    }
    let wide = i64::from(u32::MAX);
    table
        .at
        .iter()
        .enumerate()
        .map(|(i, &[first, end])| {
            if first == LapTable::NEVER {
                return Some(0);
            }
            let cell = (i % table.cells) as Cell;
            let tests = &table.tests[usize::from(first)..usize::from(end)];
            let alike_from_63 = |t: &CellTest| {
                if (t.lo..=t.hi).contains(&63) {
                    t.hi >= wide
                } else {
                    t.hi < 63 || t.lo > wide
                }
            };
            if !tests
                .iter()
                .all(|t| t.cell == cell && t.read != CellRead::Claimed && alike_from_63(t))
            {
                return None;
            }
            Some(
                (0..64)
                    .filter(|&n| tests.iter().all(|t| (t.lo..=t.hi).contains(&n) == t.inside))
                    .fold(0u64, |m, n| m | 1 << n),
            )
        })
        .collect()
}

/// Test `t` at the end of a lap of `mover`'s ending in `last` (the pit `reg` names), as the
/// evaluator reads it there (`to_move` is the mover; a store is a cell past the pits).
fn known(t: &Test, reg: Reg, sides: &[Option<Player>], g: &Geometry, mover: Player, last: Cell) -> Known {
    let stores = g.pit_count();
    let who = |w: Who| match w {
        Who::Mover | Who::ToMove => mover,
        Who::Opponent | Who::NotToMove => mover.other(),
    };
    let across = |c: Cell| g.in_place(g.opposite(g.place_of(c)));
    let count = |cell: Cell, lo: i64, hi: i64, inside: bool, read: CellRead| {
        if cell as usize >= sides.len() {
            // No such cell reads as empty and unclaimed.
            return Known::Holds((lo..=hi).contains(&0) == inside);
        }
        Known::Count(CellTest {
            cell,
            read,
            lo,
            hi,
            inside,
        })
    };
    match *t {
        Test::SideIs(r, w, is) if r == reg => Known::Holds((sides[last as usize] == Some(who(w))) == is),
        Test::StoreIs(r, is) if r == reg => Known::Holds((last as usize >= stores) == is),
        Test::IsStoreOf(r, w, is) if r == reg => Known::Holds((last as usize == stores + who(w).index()) == is),
        Test::In(Operand::RowOf(r), lo, hi, inside) if r == reg => {
            Known::Holds((lo..=hi).contains(&(g.row_of(g.place_of(last)) as i64)) == inside)
        }
        // Kept apart in the table's `way`.
        Test::FlagIs(Flag::Clockwise, _) => Known::Holds(true),
        Test::CountIn(r, lo, hi, inside) if r == reg => count(last, lo, hi, inside, CellRead::Seeds),
        Test::BeforeIn(r, lo, hi, inside) if r == reg => count(last, lo, hi, inside, CellRead::Before),
        Test::OppositeCountIn(r, lo, hi, inside) if r == reg => count(across(last), lo, hi, inside, CellRead::Seeds),
        Test::In(Operand::Claimed(r), lo, hi, inside) if r == reg => count(last, lo, hi, inside, CellRead::Claimed),
        Test::In(Operand::ClaimedOpposite(r), lo, hi, inside) if r == reg => count(across(last), lo, hi, inside, CellRead::Claimed),
        _ => Known::General,
    }
}
