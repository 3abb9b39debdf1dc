//! What is known before the game: the parameters' values (a file's own, or a user's `--set`, each
//! within what the file allows), the expressions evaluated from them, and the `memory { }` values.

use super::types;
use super::{Override, Program};
use crate::diagnostic::{Diagnostic, suggest};
use crate::syntax::ast::{Expr, ExprKind, Item, ItemKind};

/// Evaluates expressions that must be known before the game starts (board size, seeds).
pub(crate) struct Statics<'a> {
    pub(crate) params: &'a [(String, i64)],
}

impl Statics<'_> {
    pub(crate) fn eval(&self, e: &Expr, diags: &mut Vec<Diagnostic>) -> Option<i64> {
        use crate::syntax::ast::BinOp;
        match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Name(n) => match self.params.iter().find(|(p, _)| p == n) {
                Some((_, v)) => Some(*v),
                None => {
                    let mut d = Diagnostic::error(
                        "sow::check::not_static",
                        format!("`{n}` is not known before the game starts"),
                        e.span,
                        "not a parameter",
                    );
                    d = match suggest(n, self.params.iter().map(|(p, _)| p.as_str())) {
                        None if types::CONVENTIONAL_PARAMS.contains(&n.as_str()) => d.with_help(types::undeclared_help(n, None)),
                        Some(s) => d.with_help(format!("did you mean the parameter `{s}`?")),
                        None => d.with_help("only numbers and parameters (`param NAME = ...`) can be used here"),
                    };
                    diags.push(d);
                    None
                }
            },
            ExprKind::Neg(x) => self.eval(x, diags).map(i64::wrapping_neg),
            ExprKind::Binary(op, a, b) if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) => {
                let (a, b) = (self.eval(a, diags)?, self.eval(b, diags)?);
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div_euclid(b),
                    _ => a.checked_rem_euclid(b),
                };
                if r.is_none() {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::out_of_range",
                            "this calculation divides by zero or gives a number too large to hold",
                            e.span,
                            "cannot be worked out",
                        )
                        .with_help("check the numbers: a divisor must not be 0"),
                    );
                }
                r
            }
            _ => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::not_static",
                        "this must be a number known before the game starts",
                        e.span,
                        "not a plain number",
                    )
                    .with_help("use numbers, parameters and + - * / %"),
                );
                None
            }
        }
    }
}

/// The values a parameter may take: a range (of one parity, or of both), or a set.
struct Allowed {
    range: Option<(i64, i64)>,
    even: Option<bool>,
    only: Option<Vec<i64>>,
}

impl Allowed {
    fn admits(&self, v: i64) -> bool {
        self.range.is_none_or(|(lo, hi)| (lo..=hi).contains(&v))
            && self.even.is_none_or(|even| (v.rem_euclid(2) == 0) == even)
            && self.only.as_ref().is_none_or(|only| only.contains(&v))
    }

    /// The allowed values in words, after "must be".
    fn describe(&self) -> String {
        match (&self.only, self.range, self.even) {
            (Some(only), ..) => {
                let list: Vec<String> = only.iter().map(i64::to_string).collect();
                format!("one of {}", list.join(", "))
            }
            (None, Some((lo, hi)), Some(even)) => {
                format!("an {} number from {lo} to {hi}", if even { "even" } else { "odd" })
            }
            (None, Some((lo, hi)), None) => format!("from {lo} to {hi}"),
            (None, None, _) => "any number".into(),
        }
    }
}

pub(super) fn params(program: &Program, overrides: &[Override], diags: &mut Vec<Diagnostic>) -> Vec<(String, i64)> {
    let mut values = Vec::new();
    let mut declared = Vec::new();
    for item in &program.items {
        if let ItemKind::Param {
            name,
            default,
            range,
            parity,
            values: only,
        } = &item.kind
        {
            declared.push(name.node.clone());
            if types::BUILTIN_NAMES.contains(&name.node.as_str()) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::reserved_name",
                        format!("`{}` is a built-in name and cannot be a parameter", name.node),
                        name.span,
                        "reserved",
                    )
                    .with_help("choose another name"),
                );
                continue;
            }
            let allowed = Allowed {
                range: range.as_ref().map(|(lo, hi)| (lo.node, hi.node)),
                even: parity.as_ref().map(|p| p.node),
                only: only.as_ref().map(|v| v.node.iter().map(|n| n.node).collect()),
            };
            // Where the allowed values are written, for labels.
            let allowed_span = match (range, only) {
                (Some((lo, hi)), _) => Some(parity.as_ref().map_or(lo.span.to(hi.span), |p| lo.span.to(p.span))),
                (_, Some(v)) => Some(v.span),
                _ => None,
            };
            let mut value = default.node;
            if let Some((lo, hi)) = range
                && lo.node > hi.node
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::empty_range",
                        format!("range `{}..{}` is empty", lo.node, hi.node),
                        lo.span.to(hi.span),
                        "lower bound is above the upper one",
                    )
                    .with_help(format!("write the smaller bound first: `{}..{}`", hi.node, lo.node)),
                );
            } else if let (Some((lo, hi)), Some(p)) = (range, parity)
                && lo.node == hi.node
                && (lo.node.rem_euclid(2) == 0) != p.node
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::empty_range",
                        format!("`{}..{}` holds no {} number", lo.node, hi.node, if p.node { "even" } else { "odd" }),
                        lo.span.to(p.span),
                        "no value is allowed",
                    )
                    .with_help("widen the range or drop the parity"),
                );
            } else if let (Some((lo, hi)), None) = (range, parity)
                && !(lo.node..=hi.node).contains(&default.node)
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("the default {} is outside `{}..{}`", default.node, lo.node, hi.node),
                        default.span,
                        "default",
                    )
                    .with_label(lo.span.to(hi.span), "allowed range")
                    .with_help("choose a default inside the range"),
                );
            } else if let Some(span) = allowed_span
                && !allowed.admits(default.node)
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("the default {} is not {}", default.node, allowed.describe()),
                        default.span,
                        "default",
                    )
                    .with_label(span, "allowed values")
                    .with_help("choose a default among the allowed values"),
                );
            }
            if let Some(o) = overrides.iter().rev().find(|o| o.name == name.node) {
                match (allowed_span, range, parity) {
                    (_, Some((lo, hi)), None) if !(lo.node..=hi.node).contains(&o.value) => diags.push(
                        Diagnostic::error(
                            "sow::check::bad_parameter",
                            format!("`{}={}` is outside the allowed range {}..{}", o.name, o.value, lo.node, hi.node),
                            lo.span.to(hi.span),
                            "allowed range",
                        )
                        .with_help(format!("choose a value of `{}` from {} to {}", o.name, lo.node, hi.node)),
                    ),
                    (Some(span), ..) if !allowed.admits(o.value) => diags.push(
                        Diagnostic::error(
                            "sow::check::bad_parameter",
                            format!(
                                "`{}={}` is not allowed: `{}` must be {}",
                                o.name,
                                o.value,
                                o.name,
                                allowed.describe()
                            ),
                            span,
                            "allowed values",
                        )
                        .with_help(format!("give `{}` a value that is {}", o.name, allowed.describe())),
                    ),
                    _ => value = o.value,
                }
            }
            values.push((name.node.clone(), value));
        }
    }
    for o in overrides {
        if !declared.contains(&o.name) {
            let mut d = Diagnostic::bare("sow::check::bad_parameter", format!("the game has no parameter `{}`", o.name));
            d = match suggest(&o.name, declared.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None if declared.is_empty() => d.with_help("this game declares no parameters"),
                None => d.with_help(format!("its parameters are: {}", declared.join(", "))),
            };
            diags.push(d);
        }
    }
    values
}

/// The values of `memory { }`: their starts are numbers known before the game, or `no_pit` for a
/// memory that holds a pit; their names are not those of a pit's own fields.
pub(super) fn memory(items: &[Item], statics: &Statics, diags: &mut Vec<Diagnostic>) -> Vec<types::MemoryDecl> {
    let mut decls = Vec::new();
    for item in items {
        let ItemKind::Memory(slot) = &item.kind else { continue };
        if types::FIELDS.contains(&slot.name.node.as_str()) {
            diags.push(
                Diagnostic::error(
                    "sow::check::reserved_name",
                    format!("`{}` is a field every pit has, and cannot name memory", slot.name.node),
                    slot.name.span,
                    "reserved",
                )
                .with_help("choose another name"),
            );
            continue;
        }
        let holds_pit = matches!(&slot.start.kind, ExprKind::Name(n) if n == "no_pit");
        if !holds_pit {
            statics.eval(&slot.start, diags);
        }
        decls.push(types::MemoryDecl {
            name: slot.name.node.clone(),
            per_pit: slot.owner.node == crate::syntax::ast::MemoryOwner::Pit,
            whole_game: slot.owner.node == crate::syntax::ast::MemoryOwner::Game,
            holds_pit,
        });
    }
    decls
}
