//! Rules that can never fire: a condition that is always false, conditions joined by `and` that
//! contradict each other or ask for a value no pit, count or number can have (pit 7 of a 6-pit row, a
//! negative count), and a capture or end rule that is shadowed by an earlier one whose condition holds
//! whenever its own does (only the first rule that holds is carried out).
//!
//! Input: the merged program of a file that passed every other check. Output: warnings only; the
//! analysis is conservative, so it reports a rule only when it is sure.

use crate::check::Program;
use crate::check::limits;
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{BinOp, Expr, ExprKind, ItemKind};

/// A set of whole numbers: sorted, disjoint, closed intervals.
#[derive(Debug, Clone, PartialEq)]
struct Ranges(Vec<(i64, i64)>);

impl Ranges {
    fn all() -> Self {
        Ranges(vec![(i64::MIN, i64::MAX)])
    }
    fn between(lo: i64, hi: i64) -> Self {
        Ranges(if lo <= hi { vec![(lo, hi)] } else { vec![] })
    }
    fn points(values: &[i64]) -> Self {
        let mut v = values.to_vec();
        v.sort_unstable();
        v.dedup();
        let mut out: Vec<(i64, i64)> = Vec::new();
        for x in v {
            match out.last_mut() {
                Some((_, hi)) if hi.checked_add(1) == Some(x) => *hi = x,
                _ => out.push((x, x)),
            }
        }
        Ranges(out)
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    fn intersect(&self, other: &Ranges) -> Ranges {
        let mut out = Vec::new();
        for &(a, b) in &self.0 {
            for &(c, d) in &other.0 {
                let (lo, hi) = (a.max(c), b.min(d));
                if lo <= hi {
                    out.push((lo, hi));
                }
            }
        }
        out.sort_unstable();
        Ranges(out)
    }
    fn complement(&self) -> Ranges {
        let mut out = Vec::new();
        let mut next = Some(i64::MIN);
        for &(lo, hi) in &self.0 {
            if let Some(n) = next
                && n < lo
            {
                out.push((n, lo - 1));
            }
            next = hi.checked_add(1);
        }
        if let Some(n) = next {
            out.push((n, i64::MAX));
        }
        Ranges(out)
    }
    fn subset_of(&self, other: &Ranges) -> bool {
        self.intersect(&other.complement()).is_empty()
    }
}

/// A constant value: the expression uses only numbers and parameters.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Const {
    Int(i64),
    Bool(bool),
}

struct Analysis<'a> {
    params: &'a [(String, i64)],
    pits: Option<usize>,
}

/// Why a condition can never hold.
enum Never {
    /// It is always false.
    Constant(Span),
    /// These conditions cannot all hold.
    Contradiction(Vec<Span>),
    /// A pit number outside the board.
    NoSuchPit(Span, i64),
    /// A negative number of seeds.
    NegativeCount(Span),
    /// A value outside what it can be.
    Impossible(Span),
    /// Every alternative of an `or` is impossible.
    Alternatives(Span),
}

impl Analysis<'_> {
    fn konst(&self, e: &Expr) -> Option<Const> {
        use Const::*;
        Some(match &e.kind {
            ExprKind::Int(n) => Int(*n),
            ExprKind::Name(n) => Int(self.params.iter().find(|(p, _)| p == n)?.1),
            ExprKind::Neg(x) => Int(self.int(x)?.checked_neg()?),
            ExprKind::Not(x) => Bool(!self.bool(x)?),
            ExprKind::Binary(op, a, b) => match op {
                BinOp::And => match (self.bool(a), self.bool(b)) {
                    (Some(false), _) | (_, Some(false)) => Bool(false),
                    (Some(true), Some(true)) => Bool(true),
                    _ => return None,
                },
                BinOp::Or => match (self.bool(a), self.bool(b)) {
                    (Some(true), _) | (_, Some(true)) => Bool(true),
                    (Some(false), Some(false)) => Bool(false),
                    _ => return None,
                },
                _ => {
                    let (x, y) = (self.int(a)?, self.int(b)?);
                    match op {
                        BinOp::Eq => Bool(x == y),
                        BinOp::Ne => Bool(x != y),
                        BinOp::Lt => Bool(x < y),
                        BinOp::Le => Bool(x <= y),
                        BinOp::Gt => Bool(x > y),
                        BinOp::Ge => Bool(x >= y),
                        BinOp::Add => Int(x.checked_add(y)?),
                        BinOp::Sub => Int(x.checked_sub(y)?),
                        BinOp::Mul => Int(x.checked_mul(y)?),
                        BinOp::Div => Int(x.checked_div_euclid(y)?),
                        _ => Int(x.checked_rem_euclid(y)?),
                    }
                }
            },
            ExprKind::InRange(x, lo, hi) => {
                let (x, lo, hi) = (self.int(x)?, self.int(lo)?, self.int(hi)?);
                Bool(lo <= x && x <= hi)
            }
            ExprKind::InSet(x, items) => {
                let x = self.int(x)?;
                let mut any = false;
                for i in items {
                    any |= self.int(i)? == x;
                }
                Bool(any)
            }
            ExprKind::Parity(x, even) => Bool((self.int(x)? % 2 == 0) == *even),
            _ => return None,
        })
    }
    fn int(&self, e: &Expr) -> Option<i64> {
        match self.konst(e)? {
            Const::Int(n) => Some(n),
            Const::Bool(_) => None,
        }
    }
    fn bool(&self, e: &Expr) -> Option<bool> {
        match self.konst(e)? {
            Const::Bool(b) => Some(b),
            Const::Int(_) => None,
        }
    }

    /// The values `lhs` can take whatever happens in a game.
    fn domain(&self, lhs: &Expr) -> Ranges {
        let most = limits::MAX_TOTAL_SEEDS;
        let pits = self.pits.map_or(limits::MAX_PITS, |p| p as i64);
        match &lhs.kind {
            ExprKind::Field(_, f) if f.node == "count" || f.node == "before" => Ranges::between(0, most),
            // A store's number is 0.
            ExprKind::Field(_, f) if f.node == "number" => Ranges::between(0, pits),
            ExprKind::Name(n) if n == "lap" || n == "round" => Ranges::between(1, i64::MAX),
            ExprKind::Name(n) if n == "ply" => Ranges::between(0, i64::MAX),
            ExprKind::Name(n) if n == "total" || n == "lifted" => Ranges::between(0, most),
            ExprKind::Call(f, _) if f.node == "size" => Ranges::between(0, 2 * pits),
            ExprKind::Call(f, _) if ["sum", "seeds", "captured"].contains(&f.node.as_str()) => Ranges::between(0, most),
            ExprKind::Call(f, _) if f.node == "rounds_won" => Ranges::between(0, i64::MAX),
            _ => Ranges::all(),
        }
    }

    /// `lhs ∈ set` when the condition is a comparison of a changing value with constants.
    fn atom<'e>(&self, e: &'e Expr) -> Option<(&'e Expr, Ranges)> {
        match &e.kind {
            ExprKind::Binary(op, a, b) if matches!(op, BinOp::Eq | BinOp::Ne | BinOp::Lt | BinOp::Le | BinOp::Gt | BinOp::Ge) => {
                let (lhs, c, op) = match (self.int(a), self.int(b)) {
                    (None, Some(c)) if self.konst(a).is_none() => (&**a, c, *op),
                    (Some(c), None) if self.konst(b).is_none() => (
                        &**b,
                        c,
                        match op {
                            BinOp::Lt => BinOp::Gt,
                            BinOp::Le => BinOp::Ge,
                            BinOp::Gt => BinOp::Lt,
                            BinOp::Ge => BinOp::Le,
                            other => *other,
                        },
                    ),
                    _ => return None,
                };
                if !is_number(lhs) {
                    return None;
                }
                let set = match op {
                    BinOp::Eq => Ranges::between(c, c),
                    BinOp::Ne => Ranges::between(c, c).complement(),
                    BinOp::Lt => c.checked_sub(1).map_or(Ranges(vec![]), |h| Ranges::between(i64::MIN, h)),
                    BinOp::Le => Ranges::between(i64::MIN, c),
                    BinOp::Gt => c.checked_add(1).map_or(Ranges(vec![]), |l| Ranges::between(l, i64::MAX)),
                    _ => Ranges::between(c, i64::MAX),
                };
                Some((lhs, set))
            }
            ExprKind::InRange(x, lo, hi) if self.konst(x).is_none() => Some((x, Ranges::between(self.int(lo)?, self.int(hi)?))),
            ExprKind::InSet(x, items) if self.konst(x).is_none() => {
                let values: Option<Vec<i64>> = items.iter().map(|i| self.int(i)).collect();
                Some((x, Ranges::points(&values?)))
            }
            ExprKind::Not(inner) => self.atom(inner).map(|(lhs, set)| (lhs, set.complement())),
            _ => None,
        }
    }

    /// Why `e` can never hold, if it cannot.
    fn never(&self, e: &Expr) -> Option<Never> {
        if self.bool(e) == Some(false) {
            return Some(Never::Constant(e.span));
        }
        if let ExprKind::Binary(BinOp::Or, a, b) = &e.kind {
            return (self.never(a).is_some() && self.never(b).is_some()).then_some(Never::Alternatives(e.span));
        }
        let parts = conjuncts(e);
        if parts.len() > 1 {
            for p in &parts {
                if let Some(why) = self.never(p) {
                    return Some(why);
                }
            }
        }
        let atoms: Vec<(&Expr, Ranges, Span)> = parts
            .iter()
            .filter_map(|p| self.atom(p).map(|(lhs, set)| (lhs, set, p.span)))
            .collect();
        for (i, (lhs, set, span)) in atoms.iter().enumerate() {
            if atoms[..i].iter().any(|(l, _, _)| same(l, lhs)) {
                continue;
            }
            let domain = self.domain(lhs);
            if set.intersect(&domain).is_empty() {
                return Some(self.impossible(lhs, set, *span));
            }
            let mut all = set.intersect(&domain);
            let mut spans = vec![*span];
            for (l, s, sp) in &atoms[i + 1..] {
                if same(l, lhs) {
                    all = all.intersect(s);
                    spans.push(*sp);
                    if all.is_empty() {
                        return Some(Never::Contradiction(spans));
                    }
                }
            }
        }
        None
    }

    fn impossible(&self, lhs: &Expr, set: &Ranges, span: Span) -> Never {
        match &lhs.kind {
            ExprKind::Field(_, f) if f.node == "number" && self.pits.is_some() => {
                let wanted = set.0.first().map_or(0, |r| if r.0 == i64::MIN { r.1 } else { r.0 });
                Never::NoSuchPit(span, wanted)
            }
            ExprKind::Field(_, f) if (f.node == "count" || f.node == "before") && set.0.iter().all(|r| r.1 < 0) => {
                Never::NegativeCount(span)
            }
            _ => Never::Impossible(span),
        }
    }

    /// Does `b` holding guarantee that `a` holds?
    fn implies(&self, b: &Expr, a: &Expr) -> bool {
        if self.bool(a) == Some(true) {
            return true;
        }
        if let ExprKind::Binary(BinOp::Or, x, y) = &a.kind {
            return self.implies(b, x) || self.implies(b, y);
        }
        let given = conjuncts(b);
        conjuncts(a).iter().all(|need| {
            if given.iter().any(|g| same(g, need)) {
                return true;
            }
            let Some((lhs, wanted)) = self.atom(need) else { return false };
            let mut known = self.domain(lhs);
            let mut constrained = false;
            for g in &given {
                if let Some((l, s)) = self.atom(g)
                    && same(l, lhs)
                {
                    known = known.intersect(&s);
                    constrained = true;
                }
            }
            constrained && known.subset_of(&wanted)
        })
    }
}

/// Is this (syntactically) a number? Only numbers are compared with `<` or with a constant number.
fn is_number(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Field(_, f) => matches!(f.node.as_str(), "count" | "before" | "number"),
        ExprKind::Name(n) => matches!(n.as_str(), "lap" | "ply" | "round" | "round_ply" | "total" | "lifted"),
        ExprKind::Call(f, _) => matches!(f.node.as_str(), "size" | "sum" | "seeds" | "captured" | "rounds_won"),
        ExprKind::Binary(op, ..) => matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem),
        ExprKind::Neg(_) => true,
        _ => false,
    }
}

/// The parts of `a and b and ...`.
fn conjuncts(e: &Expr) -> Vec<&Expr> {
    let mut out = Vec::new();
    let mut stack = vec![e];
    while let Some(x) = stack.pop() {
        match &x.kind {
            ExprKind::Binary(BinOp::And, a, b) => {
                stack.push(b);
                stack.push(a);
            }
            _ => out.push(x),
        }
    }
    out
}

/// The same expression, wherever it was written.
fn same(a: &Expr, b: &Expr) -> bool {
    use ExprKind::*;
    match (&a.kind, &b.kind) {
        (Int(x), Int(y)) => x == y,
        (Name(x), Name(y)) => x == y,
        (Call(f, xs), Call(g, ys)) => f.node == g.node && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y)),
        (Field(x, f), Field(y, g)) => f.node == g.node && same(x, y),
        (Neg(x), Neg(y)) | (Not(x), Not(y)) => same(x, y),
        (Binary(o, x1, x2), Binary(p, y1, y2)) => o == p && same(x1, y1) && same(x2, y2),
        (InRange(x, l1, h1), InRange(y, l2, h2)) => same(x, y) && same(l1, l2) && same(h1, h2),
        (InSet(x, xs), InSet(y, ys)) => same(x, y) && xs.len() == ys.len() && xs.iter().zip(ys).all(|(x, y)| same(x, y)),
        (Parity(x, e1), Parity(y, e2)) => e1 == e2 && same(x, y),
        (Where(s1, c1), Where(s2, c2)) => same(s1, s2) && same(c1, c2),
        _ => false,
    }
}

/// Longest list of rules compared pair by pair for shadowing.
const MAX_COMPARED: usize = 200;

/// A rule whose condition is looked at.
struct Rule<'a> {
    what: String,
    name_span: Span,
    when: &'a Expr,
}

/// Checks every rule of a program that passed the other checks; pushes warnings.
pub(crate) fn check(program: &Program, params: &[(String, i64)], pits: Option<usize>, diags: &mut Vec<Diagnostic>) {
    let an = Analysis { params, pits };
    let mut ends = Vec::new();
    let mut captures = Vec::new();
    for item in &program.items {
        match &item.kind {
            ItemKind::End(name, cond, ..) => ends.push(Rule {
                what: format!("the end rule `{}`", name.node),
                name_span: name.span,
                when: cond,
            }),
            ItemKind::Phase(name, cond, inner) => {
                never(
                    &an,
                    &Rule {
                        what: format!("the phase `{}`", name.node),
                        name_span: name.span,
                        when: cond,
                    },
                    diags,
                );
                let list: Vec<Rule> = inner.iter().filter_map(capture).collect();
                first_match(&an, &list, diags);
                others(&an, inner, diags);
            }
            _ => {}
        }
        if let Some(c) = capture(item) {
            captures.push(c);
        }
    }
    others(&an, &program.items, diags);
    first_match(&an, &captures, diags);
    first_match(&an, &ends, diags);
    if !ends.is_empty() && ends.iter().take(MAX_COMPARED).all(|r| an.never(r.when).is_some()) {
        let mut d = Diagnostic::error(
            "sow::check::no_end",
            "none of the `end` rules can ever hold, so the game can never finish",
            ends[0].when.span,
            "can never hold",
        );
        for r in &ends[1..] {
            d = d.with_label(r.when.span, "can never hold either");
        }
        diags.push(d.with_help("fix their conditions, or add for example `end \"no move left\" when no_moves remaining owner`"));
    }
}

fn capture(item: &crate::syntax::ast::Item) -> Option<Rule<'_>> {
    match &item.kind {
        ItemKind::Capture(def) => Some(Rule {
            what: format!("the capture `{}`", def.name.node),
            name_span: def.name.span,
            when: &def.when,
        }),
        _ => None,
    }
}

/// Triggers, `after move` rules, forbid rules and the relay rule: each on its own (every one that holds applies).
fn others(an: &Analysis, items: &[crate::syntax::ast::Item], diags: &mut Vec<Diagnostic>) {
    for item in items {
        let rule = match &item.kind {
            ItemKind::Trigger(def) => Rule {
                what: format!("the trigger `{}`", def.name.node),
                name_span: def.name.span,
                when: &def.when,
            },
            ItemKind::At(_, def) => Rule {
                what: format!("the rule `{}`", def.name.node),
                name_span: def.name.span,
                when: &def.when,
            },
            ItemKind::AfterMove(def) => Rule {
                what: format!("the `after move` rule `{}`", def.name.node),
                name_span: def.name.span,
                when: &def.when,
            },
            ItemKind::Forbid(reason, cond) | ItemKind::ForbidAfter(reason, cond) => Rule {
                what: format!("the forbid rule `{}`", reason.node),
                name_span: reason.span,
                when: cond,
            },
            ItemKind::SowRelay(cond) => Rule {
                what: "the relay rule".to_string(),
                name_span: item.span,
                when: cond,
            },
            _ => continue,
        };
        never(an, &rule, diags);
    }
}

/// Rules of which only the first that holds is carried out: each may never fire, or be shadowed.
fn first_match(an: &Analysis, rules: &[Rule], diags: &mut Vec<Diagnostic>) {
    let possible: Vec<bool> = rules.iter().map(|r| !never(an, r, diags)).collect();
    // Comparing every pair costs rules²: a list longer than any real game's is only checked rule by rule.
    if rules.len() > MAX_COMPARED {
        return;
    }
    for (i, rule) in rules.iter().enumerate() {
        if !possible[i] {
            continue;
        }
        if let Some(earlier) = rules[..i]
            .iter()
            .zip(&possible)
            .find(|(e, p)| **p && an.implies(rule.when, e.when))
            .map(|(e, _)| e)
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::shadowed",
                    format!("{} can never fire: whenever it could, {} fires first", rule.what, earlier.what),
                    rule.when.span,
                    "whenever this holds",
                )
                .with_label(earlier.when.span, "this holds too, and its rule comes first")
                .with_label(rule.name_span, "never reached")
                .with_help("only the first rule that holds is carried out: put the narrower rule first, or remove one")
                .warning(),
            );
        }
    }
}

/// Reports `rule` if its condition can never hold; returns whether it did.
fn never(an: &Analysis, rule: &Rule, diags: &mut Vec<Diagnostic>) -> bool {
    let Some(why) = an.never(rule.when) else { return false };
    let what = &rule.what;
    let d = match why {
        Never::Constant(span) => Diagnostic::error(
            "sow::check::never_fires",
            format!("{what} can never fire: its condition is always false"),
            span,
            "always false",
        )
        .with_help("fix the condition, or remove the rule"),
        Never::Alternatives(span) => Diagnostic::error(
            "sow::check::never_fires",
            format!("{what} can never fire: none of the alternatives joined by `or` can hold"),
            span,
            "can never hold",
        )
        .with_help("fix the condition, or remove the rule"),
        Never::Contradiction(spans) => {
            let mut d = Diagnostic::error(
                "sow::check::never_fires",
                format!("{what} can never fire: its conditions contradict each other"),
                spans[0],
                "this",
            );
            for s in &spans[1..] {
                d = d.with_label(*s, "cannot hold together with this");
            }
            d.with_help("no value satisfies all of them at once: did you mean `or` instead of `and`?")
        }
        Never::NoSuchPit(span, n) => {
            let pits = an.pits.unwrap_or(0);
            Diagnostic::error(
                "sow::check::no_such_pit",
                format!("{what} can never fire: there is no pit {n} on a row of {pits} pits"),
                span,
                format!("pits are numbered 1 to {pits}"),
            )
            .with_help(format!("use a pit number from 1 to {pits}"))
        }
        Never::NegativeCount(span) => Diagnostic::error(
            "sow::check::negative_count",
            format!("{what} can never fire: a pit never holds a negative number of seeds"),
            span,
            "asks for fewer than 0 seeds",
        )
        .with_help("counts of seeds are 0 or more: compare with 0 or a larger number"),
        Never::Impossible(span) => Diagnostic::error(
            "sow::check::never_fires",
            format!("{what} can never fire: this asks for a value it can never have"),
            span,
            "can never hold",
        )
        .with_help("check the numbers: laps and rounds start at 1, counts and moves at 0"),
    };
    let primary = d.labels[0].span;
    let inside = rule.name_span.start <= primary.start && primary.end <= rule.name_span.end;
    let d = if inside { d } else { d.with_label(rule.name_span, "this rule") };
    diags.push(d.warning());
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn complement_of_a_point_leaves_both_sides() {
        let r = Ranges::between(3, 3).complement();
        assert_eq!(r, Ranges(vec![(i64::MIN, 2), (4, i64::MAX)]));
        assert_eq!(r.complement(), Ranges::between(3, 3));
    }

    #[test]
    fn ranges_at_the_ends_of_the_numbers_do_not_overflow() {
        assert!(Ranges::all().complement().is_empty());
        assert_eq!(Ranges::points(&[i64::MAX, i64::MAX - 1]), Ranges::between(i64::MAX - 1, i64::MAX));
    }

    #[test]
    fn subset_follows_containment() {
        assert!(Ranges::between(2, 2).subset_of(&Ranges::between(2, 3)));
        assert!(!Ranges::between(2, 4).subset_of(&Ranges::between(2, 3)));
        assert!(Ranges(vec![]).subset_of(&Ranges(vec![])));
    }
}
