//! The starting seeds of a board's `seeds` lines: `seeds EXPR [where COND]`, several lines in order,
//! the first whose condition holds for a pit giving its seeds (none for a pit no line holds for).
//! EXPR may choose by the pit (`if pit.number == 1 then 0 else 4`); every number it can give is known
//! before the game, so each is checked here, and the choice by pit is left to the engine, which reads
//! the conditions on the starting board.
//!
//! Input: the `seeds` lines of the merged program. Output: cases (seeds, condition) in order, with
//! located diagnostics for numbers that cannot be worked out or are out of range and for lines that
//! can never be used.

use super::{Statics, limits};
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{BinOp, Expr, ExprKind};

/// One way a pit gets its starting seeds: `seeds` seeds where `when` holds (every pit without one).
#[derive(Debug, Clone)]
pub(crate) struct StartCase {
    /// Seeds in the pit.
    pub(crate) seeds: u32,
    /// The condition on `pit`; `None`: every pit.
    pub(crate) when: Option<Expr>,
}

/// The cases of the `seeds` lines in order, or `None` after a problem (reported).
pub(crate) fn cases(lines: &[Expr], statics: &Statics, diags: &mut Vec<Diagnostic>) -> Option<Vec<StartCase>> {
    let mut out = Vec::new();
    let mut ok = true;
    // A line that gives every pit its seeds: the lines after it are never read.
    let mut covering: Option<Span> = None;
    for line in lines {
        if let Some(earlier) = covering {
            diags.push(
                Diagnostic::error(
                    "sow::check::shadowed",
                    "this `seeds` line is never used: the line before it gives every pit its seeds",
                    line.span,
                    "never reached",
                )
                .with_label(earlier, "holds for every pit")
                .with_help("the first line that holds for a pit gives its seeds: add `where COND` to the earlier line, or put it last")
                .warning(),
            );
            continue;
        }
        let (count, when) = match &line.kind {
            ExprKind::Where(count, cond) => (&**count, Some((**cond).clone())),
            _ => (line, None),
        };
        if when.is_none() && !reads_pit(count) {
            covering = Some(line.span);
        }
        ok &= flatten(count, when, statics, diags, &mut out);
    }
    ok.then_some(out)
}

/// The pit-reading conditions `e` holds on (`.shared` etc. are read by the engine, not here).
pub(crate) fn reads_pit(e: &Expr) -> bool {
    e.find_map(&mut |x| matches!(&x.kind, ExprKind::Name(n) if n == "pit").then_some(()))
        .is_some()
}

/// The cases of one count: an `if` chooses between two counts by a condition, anything else must be
/// a number known before the game.
fn flatten(count: &Expr, guard: Option<Expr>, statics: &Statics, diags: &mut Vec<Diagnostic>, out: &mut Vec<StartCase>) -> bool {
    if let ExprKind::If(cond, yes, no) = &count.kind {
        let both = match &guard {
            Some(g) => Expr {
                kind: ExprKind::Binary(BinOp::And, Box::new(g.clone()), cond.clone()),
                span: cond.span,
            },
            None => (**cond).clone(),
        };
        // Read in order, the `else` branch is reached only where the `then` branch's condition fails.
        let first = flatten(yes, Some(both), statics, diags, out);
        return flatten(no, guard, statics, diags, out) && first;
    }
    if reads_pit(count) {
        diags.push(
            Diagnostic::error(
                "sow::check::not_static",
                "a pit's starting seeds must be a number known before the game",
                count.span,
                "reads the pit",
            )
            .with_help("to give pits different seeds, write `seeds N where COND` lines or `seeds if COND then N else M`"),
        );
        return false;
    }
    let Some(v) = statics.eval(count, diags) else { return false };
    if !(0..=limits::MAX_SEEDS_PER_PIT).contains(&v) {
        diags.push(
            Diagnostic::error(
                "sow::check::out_of_range",
                format!("{v} seeds in a pit is not possible"),
                count.span,
                "seeds per pit",
            )
            .with_help(format!("a pit starts with 0 to {} seeds", limits::MAX_SEEDS_PER_PIT)),
        );
        return false;
    }
    out.push(StartCase {
        seeds: v as u32,
        when: guard,
    });
    true
}

/// Every condition the `seeds` lines state (`where COND`, and `if COND` in a count), each once, to
/// be type-checked where it was written.
pub(crate) fn conditions(lines: &[Expr]) -> Vec<&Expr> {
    fn walk<'e>(count: &'e Expr, out: &mut Vec<&'e Expr>) {
        if let ExprKind::If(cond, yes, no) = &count.kind {
            out.push(cond);
            walk(yes, out);
            walk(no, out);
        }
    }
    let mut out = Vec::new();
    for line in lines {
        match &line.kind {
            ExprKind::Where(count, cond) => {
                out.push(&**cond);
                walk(count, &mut out);
            }
            _ => walk(line, &mut out),
        }
    }
    out
}
