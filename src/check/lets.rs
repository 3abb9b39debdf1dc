//! `let NAME = EXPR`: each use of NAME in the program stands for EXPR, as if written out in place, so
//! that the checks and the compiler see only plain expressions. A name must not be a word of the
//! language or a parameter, and a `let` may use earlier ones but not itself, directly or through others.
//!
//! Written out, `let`s that each use the one before twice grow exponentially, and `let`s that each add
//! a few levels grow deeper than any written expression may be; every later stage walks expressions
//! recursively (the server on a small worker stack). So the size and depth of each expression with its
//! names written out are measured first, from the `let`s' own measures (linear in the file), and an
//! expression over the bounds is refused where it is used, before anything is copied.

use std::collections::{HashMap, HashSet};

use super::types::{BUILTIN_NAMES, FUNCTIONS};
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{Action, EndResult, Expr, ExprKind, Item, ItemKind, Receiver, Remaining, TrackEnd, TrackKind};
use crate::syntax::parse::MAX_EXPR_DEPTH;

/// How many operations and values one expression may hold with its `let` names written out.
pub const MAX_EXPANDED_SIZE: u64 = 10_000;

/// How many operations and values all of a file's expressions may hold with their `let` names
/// written out (about 10 MB of trees).
pub const MAX_EXPANDED_TOTAL: u64 = 100_000;

/// The size and depth of an expression with its `let` names written out.
#[derive(Debug, Clone, Copy)]
struct Measure {
    size: u64,
    depth: usize,
}

/// The `let`s of a file and their measures.
struct Lets {
    bodies: HashMap<String, (Expr, Span)>,
    /// The measure of each `let` not on a cycle, once known.
    done: HashMap<String, Measure>,
    /// The `let`s on a cycle: their uses read as a number.
    on_cycle: HashSet<String>,
}

impl Lets {
    /// Measures every `let`, each after the ones it uses, and finds the ones on a cycle: Tarjan's
    /// strongly connected components, its depth-first walk kept on the heap (a file may hold a chain
    /// of thousands of `let`s), components coming out after the ones they use.
    fn measure_all(&mut self, names: &[String]) {
        let id: HashMap<&str, usize> = names.iter().enumerate().map(|(i, n)| (n.as_str(), i)).collect();
        let uses: Vec<Vec<usize>> = names
            .iter()
            .map(|n| self.lets_in(&self.bodies[n].0).iter().map(|u| id[u.as_str()]).collect())
            .collect();
        let mut index: Vec<Option<usize>> = vec![None; names.len()];
        let mut low = vec![0; names.len()];
        let mut on_stack = vec![false; names.len()];
        let mut component: Vec<usize> = Vec::new();
        let mut counter = 0;
        for root in 0..names.len() {
            if index[root].is_some() {
                continue;
            }
            // Each entry: a name and how many of the names it uses have been looked at.
            let mut walk: Vec<(usize, usize)> = vec![(root, 0)];
            while let Some(&mut (v, ref mut next)) = walk.last_mut() {
                if index[v].is_none() {
                    index[v] = Some(counter);
                    low[v] = counter;
                    counter += 1;
                    on_stack[v] = true;
                    component.push(v);
                }
                if let Some(&w) = uses[v].get(*next) {
                    *next += 1;
                    match index[w] {
                        None => walk.push((w, 0)),
                        Some(iw) if on_stack[w] => low[v] = low[v].min(iw),
                        Some(_) => {}
                    }
                    continue;
                }
                walk.pop();
                if let Some(&(parent, _)) = walk.last() {
                    low[parent] = low[parent].min(low[v]);
                }
                if Some(low[v]) == index[v] {
                    let at = component.iter().rposition(|&x| x == v).expect("v is on the stack");
                    let members: Vec<usize> = component.drain(at..).collect();
                    members.iter().for_each(|&m| on_stack[m] = false);
                    if members.len() > 1 || uses[v].contains(&v) {
                        self.on_cycle.extend(members.iter().map(|&m| names[m].clone()));
                    } else {
                        let m = self.measure(&self.bodies[&names[v]].0);
                        self.done.insert(names[v].clone(), m);
                    }
                }
            }
        }
    }

    /// The `let` names `e` uses, each once.
    fn lets_in(&self, e: &Expr) -> Vec<String> {
        let mut found: Vec<String> = Vec::new();
        e.find_map(&mut |x| {
            if let ExprKind::Name(n) = &x.kind
                && self.bodies.contains_key(n)
                && !found.contains(n)
            {
                found.push(n.clone());
            }
            None::<()>
        });
        found
    }

    /// The measure of `e` with its `let` names written out (a name written out takes the place of
    /// its node), once the `let`s it uses are measured.
    fn measure(&self, e: &Expr) -> Measure {
        if let ExprKind::Name(n) = &e.kind
            && let Some(m) = self.done.get(n)
        {
            return *m;
        }
        let mut m = Measure { size: 1, depth: 1 };
        for part in parts(e) {
            let p = self.measure(part);
            m.size = m.size.saturating_add(p.size);
            m.depth = m.depth.max(p.depth.saturating_add(1));
        }
        m
    }
}

/// Whether `e` names one of the `lets`.
fn uses_lets(e: &Expr, lets: &Lets) -> bool {
    e.find_map(&mut |x| matches!(&x.kind, ExprKind::Name(n) if lets.bodies.contains_key(n)).then_some(()))
        .is_some()
}

/// The parts of `e`, left to right.
fn parts(e: &Expr) -> Vec<&Expr> {
    match &e.kind {
        ExprKind::Int(_) | ExprKind::Name(_) => vec![],
        ExprKind::Call(_, args) => args.iter().collect(),
        ExprKind::Labelled(a, _) => vec![a],
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) | ExprKind::Parity(b, _) => vec![b],
        ExprKind::Binary(_, a, b) | ExprKind::Where(a, b) | ExprKind::ChooseRange(a, b) => vec![a, b],
        ExprKind::InRange(a, b, c) | ExprKind::If(a, b, c) => vec![a, b, c],
        ExprKind::InSet(a, items) => std::iter::once(&**a).chain(items).collect(),
    }
}

/// Replaces every use of a `let` name in `items` by its expression; reports bad names, cycles and
/// expressions that would grow too large or too deep. Returns the places of the expressions refused
/// for their size, left as written: what is found inside them only follows from that.
pub(crate) fn expand(items: &mut [Item], params: &[(String, i64)], diags: &mut Vec<Diagnostic>) -> Vec<Span> {
    let mut bodies: HashMap<String, (Expr, Span)> = HashMap::new();
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
            bodies.insert(name.node.clone(), (e.clone(), name.span));
        }
    }
    if bodies.is_empty() {
        return Vec::new();
    }
    let mut lets = Lets {
        bodies,
        done: HashMap::new(),
        on_cycle: HashSet::new(),
    };
    lets.measure_all(&names);
    for name in &names {
        let span = lets.bodies[name].1;
        if lets.on_cycle.contains(name) {
            diags.push(
                Diagnostic::error(
                    "sow::check::cyclic_let",
                    format!("`{name}` is defined in terms of itself"),
                    span,
                    "this name",
                )
                .with_help("a `let` may use other names, but not itself, directly or through them"),
            );
        }
    }
    let mut refused = Vec::new();
    let mut total: u64 = 0;
    each_expr(items, &mut |e| {
        if !uses_lets(e, &lets) {
            return;
        }
        let m = lets.measure(e);
        let problem = if m.depth > MAX_EXPR_DEPTH {
            Some(format!(
                "with its `let` names written out, this expression is more than {MAX_EXPR_DEPTH} operations deep"
            ))
        } else if m.size > MAX_EXPANDED_SIZE {
            Some(format!(
                "with its `let` names written out, this expression has more than {MAX_EXPANDED_SIZE} operations and values"
            ))
        } else if total + m.size > MAX_EXPANDED_TOTAL {
            Some(format!(
                "with their `let` names written out, the file's expressions have more than {MAX_EXPANDED_TOTAL} operations and values"
            ))
        } else {
            None
        };
        match problem {
            Some(message) => {
                diags.push(
                    Diagnostic::error("sow::check::too_complex", message, e.span, "this expression")
                        .with_help("each use of a name stands for its whole expression: use fewer names that repeat others"),
                );
                refused.push(e.span);
            }
            None => {
                total += m.size;
                substitute(e, &lets);
            }
        }
    });
    refused
}

/// Writes out the `let` names used in `e`, whose measure is within the bounds.
fn substitute(e: &mut Expr, lets: &Lets) {
    // A name standing for a name is followed in a loop: a chain of such `let`s adds no depth.
    while let ExprKind::Name(n) = &e.kind
        && let Some((body, _)) = lets.bodies.get(n)
    {
        if lets.on_cycle.contains(n) {
            // Its uses read as a number, so that nothing else is reported for them.
            e.kind = ExprKind::Int(0);
            return;
        }
        *e = body.clone();
    }
    let go = |x: &mut Expr| substitute(x, lets);
    match &mut e.kind {
        ExprKind::Int(_) | ExprKind::Name(_) => {}
        ExprKind::Call(_, args) => args.iter_mut().for_each(go),
        ExprKind::Labelled(a, _) => go(a),
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
                        Action::End(end) => {
                            if let Some(Remaining::To(p)) = &mut end.remaining {
                                f(p);
                            }
                            if let Some(pits) = &mut end.from {
                                f(pits);
                            }
                            if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = &mut end.result {
                                f(p);
                            }
                        }
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
