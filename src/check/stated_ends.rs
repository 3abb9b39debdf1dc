//! `end game | round` as an action: a rule that ends the game (or the round) where it fires. The
//! move stops there, so nothing may follow the action, nor a `then` say otherwise; a round can end
//! only in a game of rounds; a seed's fall (`at each seed`) is no place to stop a lap.

use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{Action, Item, ItemKind, RuleDef};

/// Checks every `end` action of the file's rules, the phases' included.
pub(super) fn check(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let has_rounds = items.iter().any(|i| matches!(i.kind, ItemKind::Rounds));
    let mut rules: Vec<(&RuleDef, bool)> = Vec::new();
    for item in items {
        collect(item, &mut rules);
        if let ItemKind::Phase(_, _, inner) = &item.kind {
            inner.iter().for_each(|i| collect(i, &mut rules));
        }
    }
    for (def, at_each_seed) in rules {
        check_rule(def, at_each_seed, has_rounds, diags);
    }
}

/// Does some rule end the game (`end game`)? Then the file needs no `end` rule of its own.
pub(super) fn any(items: &[Item]) -> bool {
    let mut rules = Vec::new();
    for item in items {
        collect(item, &mut rules);
        if let ItemKind::Phase(_, _, inner) = &item.kind {
            inner.iter().for_each(|i| collect(i, &mut rules));
        }
    }
    rules
        .iter()
        .any(|(def, _)| def.actions.iter().any(|a| matches!(&a.node, Action::End(end) if end.whole_game)))
}

fn collect<'a>(item: &'a Item, rules: &mut Vec<(&'a RuleDef, bool)>) {
    match &item.kind {
        ItemKind::Trigger(def) => rules.push((def, true)),
        ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) => rules.push((def, false)),
        _ => {}
    }
}

fn check_rule(def: &RuleDef, at_each_seed: bool, has_rounds: bool, diags: &mut Vec<Diagnostic>) {
    let Some(at) = def.actions.iter().position(|a| matches!(a.node, Action::End(_))) else {
        return;
    };
    let action = &def.actions[at];
    let Action::End(end) = &action.node else { unreachable!() };
    if at_each_seed {
        diags.push(
            Diagnostic::error(
                "sow::check::misplaced",
                "a rule `at each seed` cannot end the game: the lap is still being sown",
                action.span,
                "as a seed falls",
            )
            .with_help("end the game in a rule at the end of the lap (`at lap end`, `capture`) or of the move (`at move end`)"),
        );
    }
    if !end.whole_game && !has_rounds {
        diags.push(
            Diagnostic::error(
                "sow::check::misplaced",
                "this game is not played in rounds, so there is no round to end",
                action.span,
                "end round",
            )
            .with_help("write `end game`, or add `rounds { }` for a game of rounds"),
        );
    }
    for later in &def.actions[at + 1..] {
        let (message, help) = match later.node {
            Action::Then(_) => (
                "a rule that ends the game cannot also say `then`: the move stops where the game ends",
                "remove the `then`",
            ),
            Action::End(_) => ("a rule can end the game only once", "keep one `end`"),
            _ => (
                "nothing after `end` is carried out: the game is over when the rule reaches it",
                "move this action before the `end`",
            ),
        };
        diags.push(
            Diagnostic::error("sow::check::misplaced", message, later.span, "after the end")
                .with_label(action.span, "the game ends here")
                .with_help(help),
        );
    }
    for before in &def.actions[..at] {
        let (message, help) = match before.node {
            Action::Then(_) => (
                "a rule that ends the game cannot also say `then`: the move stops where the game ends",
                "remove the `then`",
            ),
            Action::SowTaken(_) | Action::SowFrom(_) => (
                "a rule that sows again goes on with the move, so it cannot also end the game",
                "end the game in a rule of the lap that sowing makes, or after the move",
            ),
            _ => continue,
        };
        diags.push(
            Diagnostic::error("sow::check::conflict", message, before.span, "here")
                .with_label(action.span, "the game ends here")
                .with_help(help),
        );
    }
}
