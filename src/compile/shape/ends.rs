//! End rules in fast form: an end rule's condition read as one-step tests of the stores, the rows, a
//! few cells and the move number, and those that test only whether rows are empty or the move number
//! as probes answered before the game.

use crate::board::Player;
use crate::compile::ir::{CmpOp, Code, Game, Operand, Quick, Test, Who};

/// An end rule in fast form.
#[derive(Debug, Clone)]
pub enum FastEnd {
    /// `repeated`.
    Repeated,
    /// `no_moves`.
    NoMoves,
    /// Reads only the stores: its answers are tabulated (the rule's index in `Game::ends`).
    Stores(usize),
    /// One-step tests, all (or any) of which must hold.
    Tests {
        /// All must hold (else any).
        all: bool,
        /// The tests.
        tests: Vec<EndCheck>,
    },
    /// Probes, all (or any) of which must hold.
    Probes {
        /// All must hold (else any).
        all: bool,
        /// The probes.
        probes: Vec<Probe>,
    },
}

/// A test of a packed position: it holds when (the cells chosen are all empty and the move number is
/// within `lo..=lo + span`) `== want`. A test that a row is empty takes every move number (and is
/// answered before the game: `FastForm::row_probes`); a test of the move number chooses no cells.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Probe {
    /// The cells (bit `c` for cell `c`), per player who moved and player to move.
    pub cells: [[u64; 2]; 2],
    /// Lowest move number.
    pub lo: u32,
    /// Move numbers above the lowest.
    pub span: u32,
    /// The answer when both parts hold.
    pub want: bool,
}

/// A number an end rule reads.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EndValue {
    /// A constant.
    Int(i64),
    /// The move number.
    Ply,
    /// A player's row, summed.
    Row(Player),
    /// The row of the player who moved (`true`: of the other one).
    RowOfMover(bool),
    /// The row of the player to move (`true`: of the other one).
    RowOfToMove(bool),
    /// A cell's count.
    Cell(u8),
    /// Every seed in the pits (a fast form's board has no shared pit: both rows).
    Pits,
}

/// A comparison an end rule makes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum EndCheck {
    /// `a op b`.
    Cmp(EndValue, CmpOp, EndValue),
    /// `x` within `lo..=hi`, `== inside`.
    In(EndValue, i64, i64, bool),
}

/// An end rule's condition as one-step tests, if it is made of them.
pub(super) fn end_tests(code: &Code) -> Option<FastEnd> {
    let (all, tests): (bool, &[Test]) = match &code.quick {
        Quick::One(t) => (true, std::slice::from_ref(t)),
        Quick::Both(a, b) => {
            return Some(FastEnd::Tests {
                all: true,
                tests: vec![end_check(a)?, end_check(b)?],
            });
        }
        Quick::Either(a, b) => {
            return Some(FastEnd::Tests {
                all: false,
                tests: vec![end_check(a)?, end_check(b)?],
            });
        }
        Quick::Tests(flat) => (flat.all, &flat.tests),
        _ => return None,
    };
    Some(FastEnd::Tests {
        all,
        tests: tests.iter().map(end_check).collect::<Option<_>>()?,
    })
}

/// A guard of an end rule the fast form cannot read whole: a condition of tests joined by `and`, some
/// of which are one-step tests (`seeds(other(to_move)) == 0 and not can_feed`). The rule can hold only
/// where those hold; there the fast form hands the position to the general engine, which reads it
/// whole. `None` when no part of the rule can be read (a guard of nothing would hand over every move).
pub(super) fn end_guard(code: &Code) -> Option<FastEnd> {
    let tests = code.quick.and_tests()?;
    let read: Vec<EndCheck> = tests.iter().filter_map(end_check).collect();
    (!read.is_empty()).then_some(FastEnd::Tests { all: true, tests: read })
}

/// The end rule as probes, when each of its tests is one.
pub(super) fn probes(game: &Game, rows: [u64; 2], end: FastEnd) -> FastEnd {
    let FastEnd::Tests { all, tests } = &end else { return end };
    match tests.iter().map(|&t| probe(game, rows, t)).collect::<Option<Vec<_>>>() {
        Some(probes) => FastEnd::Probes { all: *all, probes },
        None => end,
    }
}

/// A test of a row's emptiness or of the move number as a probe (`rows`: each player's cells).
fn probe(game: &Game, rows: [u64; 2], t: EndCheck) -> Option<Probe> {
    let whole = Probe {
        cells: [[0; 2]; 2],
        lo: 0,
        span: u32::MAX,
        want: true,
    };
    let clamp = |n: i64| n.clamp(0, i64::from(u32::MAX)) as u32;
    let ply = |lo: i64, hi: i64, want: bool| {
        // No move number at all: one the game never reaches.
        let (lo, span) = if hi < 0 || lo > hi {
            (u32::MAX, 0)
        } else {
            (clamp(lo), clamp(hi) - clamp(lo))
        };
        Some(Probe { lo, span, want, ..whole })
    };
    match t {
        EndCheck::In(EndValue::Ply, lo, hi, inside) => ply(lo, hi, inside),
        EndCheck::Cmp(EndValue::Ply, op, EndValue::Int(n)) | EndCheck::Cmp(EndValue::Int(n), op, EndValue::Ply) => {
            let op = if matches!(t, EndCheck::Cmp(EndValue::Int(_), ..)) {
                op.swapped()
            } else {
                op
            };
            match op {
                CmpOp::Eq => ply(n, n, true),
                CmpOp::Ne => ply(n, n, false),
                CmpOp::Lt => ply(i64::MIN, n.saturating_sub(1), true),
                CmpOp::Le => ply(i64::MIN, n, true),
                CmpOp::Gt => ply(n.saturating_add(1), i64::MAX, true),
                CmpOp::Ge => ply(n, i64::MAX, true),
            }
        }
        EndCheck::In(row, lo, hi, inside) => {
            // A row's seeds are never negative: "within lo..=0" is "empty", "at least 1" is "not".
            let want = if lo <= 0 && hi == 0 {
                inside
            } else if lo == 1 && hi >= i64::from(game.total) {
                !inside
            } else {
                return None;
            };
            // Per player who moved (first index) and player to move (second).
            let cells = match row {
                EndValue::Row(p) => [[rows[p.index()]; 2]; 2],
                EndValue::RowOfMover(other) => [0, 1].map(|m| [rows[m ^ usize::from(other)]; 2]),
                EndValue::RowOfToMove(other) => [[0, 1].map(|t| rows[t ^ usize::from(other)]); 2],
                _ => return None,
            };
            Some(Probe { cells, want, ..whole })
        }
        _ => None,
    }
}

fn end_check(t: &Test) -> Option<EndCheck> {
    Some(match *t {
        Test::RowSeedsIn(p, lo, hi, inside) => EndCheck::In(EndValue::Row(p), lo, hi, inside),
        Test::Cmp(a, op, b) => EndCheck::Cmp(end_value(a)?, op, end_value(b)?),
        Test::In(x, lo, hi, inside) => EndCheck::In(end_value(x)?, lo, hi, inside),
        _ => return None,
    })
}

fn end_value(o: Operand) -> Option<EndValue> {
    Some(match o {
        Operand::Int(n) => EndValue::Int(n),
        Operand::Ply => EndValue::Ply,
        Operand::SeedsRow(p) => EndValue::Row(p),
        Operand::SeedsBoard => EndValue::Pits,
        Operand::SeedsOf(w) => match w {
            Who::Mover => EndValue::RowOfMover(false),
            Who::Opponent => EndValue::RowOfMover(true),
            Who::ToMove => EndValue::RowOfToMove(false),
            Who::NotToMove => EndValue::RowOfToMove(true),
        },
        Operand::CountCell(c) if (c as usize) < 64 => EndValue::Cell(c as u8),
        _ => return None,
    })
}
