//! Rules at the start and the end of a round (`at round start`, `at round end`): no move is being
//! made, so a rule there can take, move, claim, close or open pits and change memory, but there is
//! no lap to walk or sow, no move to end or give, and no mover to ask a choice of.

use super::types::{Scope, Ty, TypeChecker};
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{Action, Expr, ExprKind, Item, ItemKind, Moment, Receiver, RuleDef};

/// A rule of a round's start or end: its condition and actions.
pub(super) fn check_rule(def: &RuleDef, tc: &mut TypeChecker, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::turn_start());
    for a in &def.actions {
        match &a.node {
            Action::Take(..)
            | Action::TakeSome(..)
            | Action::Move(_)
            | Action::Claim(..)
            | Action::Close(..)
            | Action::Set(..)
            | Action::Add(..) => {
                if let Some(span) = chosen(&a.node) {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::misplaced",
                            "between rounds no move is being made, so there is no mover to ask a choice of",
                            span,
                            "a choice",
                        )
                        .with_help("state the value; a set-up the players choose is written with `setup by moves` (see docs/language.md)"),
                    );
                    continue;
                }
                super::moments::check_action(&a.node, a.span, tc, Scope::turn_start(), diags);
            }
            _ => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "between rounds no move is being made: a rule there can take, move, claim, close or open pits and change memory",
                    a.span,
                    "not allowed between rounds",
                )
                .with_help(
                    "`series`, sowing again, `then` and `end` belong in the rules of a move (`capture`, `at lap end`, `at move end`)",
                ),
            ),
        }
    }
}

/// Round rules stand at the top level of a game of rounds.
pub(super) fn check_places(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let has_rounds = items.iter().any(|i| matches!(i.kind, ItemKind::Rounds));
    let is_round_rule = |i: &Item| matches!(i.kind, ItemKind::At(Moment::RoundStart | Moment::RoundEnd, _));
    for item in items {
        if is_round_rule(item) && !has_rounds {
            diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "this game is not played in rounds, so no round starts or ends",
                    item.span,
                    "a rule between rounds",
                )
                .with_help("add `rounds { }` for a game of rounds, or write the rule at a moment of a move (`at turn start`, ...)"),
            );
        }
        if let ItemKind::Phase(_, _, inner) = &item.kind {
            for i in inner.iter().filter(|i| is_round_rule(i)) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::misplaced",
                        "a phase's rules apply to the moves made under it; a round starts and ends outside any move",
                        i.span,
                        "in a phase",
                    )
                    .with_help("write this rule at the top level of the file"),
                );
            }
        }
    }
}

/// Where an action asks for a choice (`choose(...)`), if it does.
fn chosen(action: &Action) -> Option<Span> {
    let mut exprs: Vec<&Expr> = Vec::new();
    match action {
        Action::Take(pits, to) => {
            exprs.extend(pits);
            if let Some(Receiver::Player(p)) = to {
                exprs.push(p);
            }
        }
        Action::Claim(pits, player) => {
            exprs.extend(pits);
            exprs.push(player);
        }
        Action::TakeSome(count, pit, to) => {
            exprs.extend([count, pit]);
            if let Some(Receiver::Player(p)) = to {
                exprs.push(p);
            }
        }
        Action::Move(m) => {
            exprs.extend(m.count.iter());
            exprs.extend(&m.from);
            exprs.push(&m.to);
        }
        Action::Close(pits, _) => exprs.extend(pits),
        Action::Set(a, b) | Action::Add(a, b) => exprs.extend([a, b]),
        _ => {}
    }
    exprs.into_iter().find_map(|e| {
        e.find_map(&mut |x| match &x.kind {
            ExprKind::Call(name, _) if name.node == "choose" => Some(x.span),
            ExprKind::ChooseRange(..) => Some(x.span),
            _ => None,
        })
    })
}

/// `next round first RULE else TIE`: only a rule that can tie has a tie-break, and it is another rule.
pub(super) fn check_tie_break(
    rule: crate::syntax::ast::RoundOpener,
    tie: &crate::syntax::ast::Spanned<crate::syntax::ast::RoundOpener>,
    diags: &mut Vec<Diagnostic>,
) {
    use crate::syntax::ast::RoundOpener as O;
    let word = |o: O| match o {
        O::Alternate => "alternate",
        O::Loser => "loser",
        O::Winner => "winner",
        O::FewerSeeds => "fewer seeds",
        O::OtherThanEnder => "other than ender",
        O::Same => "same",
    };
    let problem = if !matches!(rule, O::Loser | O::Winner | O::FewerSeeds) {
        Some(format!("`{}` always names a player, so its `else` is never used", word(rule)))
    } else if tie.node == rule {
        Some(format!("`{}` cannot break its own tie", word(rule)))
    } else {
        None
    };
    if let Some(message) = problem {
        diags.push(Diagnostic::error("sow::check::conflict", message, tie.span, "tie-break").with_help(
            "`else` follows `winner`, `loser` or `fewer seeds`, and names another rule: `next round first fewer seeds else loser`",
        ));
    }
}
