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
use crate::syntax::ast::BinOp;
use crate::syntax::ast::{Expr, ExprKind, FillOption, Item, ItemKind};

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

/// The options of one `setup fill`: each at most once, and none that contradicts another.
pub(super) fn check_fill_options(options: &[crate::syntax::ast::Spanned<FillOption>], diags: &mut Vec<Diagnostic>) {
    let word = |o: FillOption| match o {
        FillOption::CloseUnfilled => "close unfilled",
        FillOption::RemainderNext => "remainder next",
        FillOption::RemainderMadeUp => "remainder made up",
        FillOption::RemainderMadeUpClaimed => "remainder made up and claimed",
        FillOption::AsManyAsOther => "as many as the other",
        FillOption::AsManyAsUsed => "as many as the other used",
        FillOption::ClaimUnfilled => "claim unfilled",
        FillOption::FromRight => "from right",
    };
    for (i, a) in options.iter().enumerate() {
        if let Some(first) = options[..i].iter().find(|b| b.node == a.node) {
            diags.push(
                Diagnostic::error(
                    "sow::check::duplicate",
                    format!("`{}` is said twice", word(a.node)),
                    a.span,
                    "again",
                )
                .with_label(first.span, "first here")
                .with_help("keep one of them"),
            );
        }
    }
    let find = |o: FillOption| options.iter().find(|b| b.node == o);
    // Where the seeds short of a whole pit go: one answer at most.
    let remainders: Vec<_> = options
        .iter()
        .filter(|o| {
            matches!(
                o.node,
                FillOption::RemainderNext | FillOption::RemainderMadeUp | FillOption::RemainderMadeUpClaimed
            )
        })
        .collect();
    if let [first, second, ..] = remainders[..]
        && first.node != second.node
    {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("`{}` and `{}` cannot go together", word(first.node), word(second.node)),
                second.span,
                "this",
            )
            .with_label(first.span, "and this")
            .with_help("each says where the seeds short of a whole pit go: keep one of them"),
        );
    }
    if let (Some(a), Some(b)) = (find(FillOption::AsManyAsOther), find(FillOption::AsManyAsUsed)) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`as many as the other` and `as many as the other used` cannot go together",
                b.span,
                "this",
            )
            .with_label(a.span, "and this")
            .with_help("each says how many pits the players fill: keep one of them"),
        );
    }
    let Some(as_many) = find(FillOption::AsManyAsOther) else {
        return;
    };
    for (other, why) in [
        (
            FillOption::ClaimUnfilled,
            "a player who fills only as many pits as the other has no seeds left over for the other's pits",
        ),
        (
            FillOption::RemainderNext,
            "it is not said whether the pit of the remainder counts as one the other must match",
        ),
        (
            FillOption::RemainderMadeUp,
            "it is not said whether the pit made up counts as one the other must match",
        ),
        (
            FillOption::RemainderMadeUpClaimed,
            "it is not said whether the pit made up counts as one the other must match",
        ),
    ] {
        if let Some(b) = find(other) {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!("`as many as the other` and `{}` cannot go together", word(other)),
                    b.span,
                    "this",
                )
                .with_label(as_many.span, "and this")
                .with_help(format!("{why}: keep one of them")),
            );
        }
    }
}

/// `setup mirror`: the player with more seeds copies the other's pits, so the fill must leave each
/// player's seeds on their own side, in pits the copy does not decide itself.
pub(super) fn check_mirror(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let Some(mirror) = items.iter().find(|i| matches!(i.kind, ItemKind::SetupMirror)) else {
        return;
    };
    if let Some(by_moves) = items.iter().find(|i| matches!(i.kind, ItemKind::SetupByMoves)) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`setup mirror` and `setup by moves` cannot go together",
                mirror.span,
                "this",
            )
            .with_label(by_moves.span, "and this")
            .with_help("the copy is made when the round is set up, before any move puts seeds in the pits: keep one of them"),
        );
    }
    let options = items.iter().find_map(|i| match &i.kind {
        ItemKind::SetupFill(_, options) => Some(options),
        _ => None,
    });
    for option in options.into_iter().flatten() {
        let (word, why) = match option.node {
            FillOption::ClaimUnfilled => ("claim unfilled", "it puts seeds into the pits the copy would fill"),
            FillOption::AsManyAsOther => (
                "as many as the other",
                "it says which pits the other player fills, and so does the copy",
            ),
            FillOption::AsManyAsUsed => (
                "as many as the other used",
                "it says which pits the other player fills, and so does the copy",
            ),
            FillOption::RemainderMadeUp | FillOption::RemainderMadeUpClaimed => (
                "remainder made up",
                "the seeds that make the pit up are the copier's, which the copy places itself",
            ),
            _ => continue,
        };
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("`setup mirror` and `{word}` cannot go together"),
                option.span,
                "this",
            )
            .with_label(mirror.span, "and this")
            .with_help(format!("{why}: keep one of them")),
        );
    }
}
