//! `let NAME = EXPR`: each use of NAME in the program stands for EXPR, as if written out in place, so
//! that the checks and the compiler see only plain expressions. A name must not be a word of the
//! language or a parameter, and a `let` may use earlier ones but not itself, directly or through others.

use std::collections::HashMap;

use super::types::{BUILTIN_NAMES, FUNCTIONS};
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{Action, EndResult, Expr, ExprKind, Item, ItemKind, Receiver, Remaining, TrackEnd, TrackKind};

/// How deeply `let`s may refer to one another before the chain is taken for a cycle.
const MAX_DEPTH: usize = 64;

/// Replaces every use of a `let` name in `items` by its expression; reports bad names and cycles.
pub(crate) fn expand(items: &mut [Item], params: &[(String, i64)], diags: &mut Vec<Diagnostic>) {
    let mut lets: HashMap<String, (Expr, Span)> = HashMap::new();
    // In the file's order, so that problems are reported in it.
    let mut names: Vec<String> = Vec::new();
    for item in items.iter() {
        if let ItemKind::Let(name, e) = &item.kind {
            let taken = BUILTIN_NAMES.contains(&name.node.as_str())
                || FUNCTIONS.contains(&name.node.as_str())
                || params.iter().any(|(p, _)| *p == name.node);
            if taken {
                diags.push(
                    Diagnostic::error(
                        "sow::check::conflict",
                        format!("`{}` is already a name: a word of the language or a parameter", name.node),
                        name.span,
                        "this name",
                    )
                    .with_help("choose another name for this expression"),
                );
                continue;
            }
            names.push(name.node.clone());
            lets.insert(name.node.clone(), (e.clone(), name.span));
        }
    }
    if lets.is_empty() {
        return;
    }
    // Each `let` written out in full first, so that a cycle is found once, at its own name.
    let mut full: HashMap<String, Expr> = HashMap::new();
    for name in names {
        let (mut e, span) = lets[&name].clone();
        let mut cyclic = false;
        substitute(&mut e, &lets, 0, &mut cyclic);
        if cyclic {
            diags.push(
                Diagnostic::error(
                    "sow::check::cyclic_let",
                    format!("`{name}` is defined in terms of itself"),
                    span,
                    "this name",
                )
                .with_help("a `let` may use other names, but not itself, directly or through them"),
            );
            // Its uses read as a number, so that nothing else is reported for them.
            full.insert(
                name,
                Expr {
                    kind: ExprKind::Int(0),
                    span,
                },
            );
        } else {
            full.insert(name, e);
        }
    }
    let full: HashMap<String, (Expr, Span)> = full.into_iter().map(|(n, e)| (n, (e, Span::default()))).collect();
    each_expr(items, &mut |e| {
        let mut cyclic = false;
        substitute(e, &full, 0, &mut cyclic);
    });
}

/// Writes out the `let` names used in `e`.
fn substitute(e: &mut Expr, lets: &HashMap<String, (Expr, Span)>, depth: usize, cyclic: &mut bool) {
    if let ExprKind::Name(n) = &e.kind
        && let Some((body, _)) = lets.get(n)
    {
        if depth >= MAX_DEPTH {
            *cyclic = true;
            return;
        }
        *e = body.clone();
        substitute(e, lets, depth + 1, cyclic);
        return;
    }
    let mut go = |x: &mut Expr| substitute(x, lets, depth, cyclic);
    match &mut e.kind {
        ExprKind::Int(_) | ExprKind::Name(_) => {}
        ExprKind::Call(_, args) => args.iter_mut().for_each(go),
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) | ExprKind::Parity(b, _) => go(b),
        ExprKind::Binary(_, a, b) | ExprKind::Where(a, b) | ExprKind::ChooseRange(a, b) => {
            go(a);
            go(b);
        }
        ExprKind::InRange(x, lo, hi) | ExprKind::If(x, lo, hi) => {
            go(x);
            go(lo);
            go(hi);
        }
        ExprKind::InSet(x, set) => {
            go(x);
            set.iter_mut().for_each(go);
        }
    }
}

/// Calls `f` on every expression of the items (phases included), except the `let`s' own.
fn each_expr(items: &mut [Item], f: &mut dyn FnMut(&mut Expr)) {
    for item in items {
        match &mut item.kind {
            ItemKind::BoardPits(e)
            | ItemKind::BoardRows(e)
            | ItemKind::BoardReserve(e)
            | ItemKind::SowRelay(e)
            | ItemKind::SowRelayFrom(e)
            | ItemKind::SowSkipWhen(e)
            | ItemKind::SowStartInOrigin(Some(e))
            | ItemKind::SowLift(e)
            | ItemKind::SowRelayLimit(e)
            | ItemKind::SowFromStore(e)
            | ItemKind::Forbid(_, e)
            | ItemKind::ForbidAfter(_, e)
            | ItemKind::Feeding(Some(e))
            | ItemKind::MatchEnds(e)
            | ItemKind::SetupStore(e)
            | ItemKind::SetupFill(e, _) => f(e),
            ItemKind::BoardLayout(sides) => sides
                .iter_mut()
                .flat_map(|(_, rows)| rows.iter_mut())
                .flat_map(|r| r.node.iter_mut())
                .for_each(&mut *f),
            ItemKind::BoardLayoutShared(list) => list.node.iter_mut().for_each(&mut *f),
            ItemKind::BoardSeeds(lines) => lines.iter_mut().for_each(&mut *f),
            ItemKind::BoardRing(e, _) => f(e),
            ItemKind::SowTrack(TrackKind::Path(pieces)) | ItemKind::Track(_, pieces) => {
                for (first, last) in pieces.iter_mut().filter_map(|p| p.range.as_mut()) {
                    for end in [first, last] {
                        if let TrackEnd::Number(e) = end {
                            f(e);
                        }
                    }
                }
            }
            ItemKind::End(_, cond, remaining, from, result) => {
                f(cond);
                if let Some(Remaining::To(p)) = remaining {
                    f(p);
                }
                if let Some(pits) = from {
                    f(pits);
                }
                if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = result {
                    f(p);
                }
            }
            ItemKind::Memory(slot) => f(&mut slot.start),
            ItemKind::Trigger(def) | ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) => {
                f(&mut def.when);
                for a in &mut def.actions {
                    match &mut a.node {
                        Action::Take(pits, to) => {
                            pits.iter_mut().for_each(&mut *f);
                            if let Some(Receiver::Player(p)) = to {
                                f(p);
                            }
                        }
                        Action::Series(series) => {
                            f(&mut series.cond);
                            if let Some((n, _)) = &mut series.cap {
                                f(n);
                            }
                        }
                        Action::Move(m) => {
                            m.count.iter_mut().for_each(&mut *f);
                            m.from.iter_mut().for_each(&mut *f);
                            f(&mut m.to);
                        }
                        Action::Claim(pits, player) => {
                            pits.iter_mut().for_each(&mut *f);
                            f(player);
                        }
                        Action::SowTaken(again) | Action::SowFrom(again) => again.pit.iter_mut().for_each(&mut *f),
                        Action::TakeSome(count, pit, to) => {
                            f(count);
                            f(pit);
                            if let Some(Receiver::Player(p)) = to {
                                f(p);
                            }
                        }
                        Action::Close(pits, _) => pits.iter_mut().for_each(&mut *f),
                        Action::Then(_) => {}
                        Action::Set(target, value) => {
                            f(target);
                            f(value);
                        }
                        Action::Add(amount, target) => {
                            f(amount);
                            f(target);
                        }
                    }
                }
            }
            ItemKind::Phase(_, cond, inner) => {
                f(cond);
                each_expr(inner, f);
            }
            _ => {}
        }
    }
}
