//! Stores as places a rule acts on: a `take` of a store moves its seeds to another store or into the
//! mover's hand; one that would put them back where they are is refused.

use crate::diagnostic::Diagnostic;
use crate::syntax::ast::{Action, Expr, ExprKind, Item, ItemKind, Receiver, RuleDef};

/// The player a `store(P)` names, written as a bare word (`mover`, `south`, ...).
fn store_of(e: &Expr) -> Option<&str> {
    match &e.kind {
        ExprKind::Call(name, args) if name.node == "store" && args.len() == 1 => match &args[0].kind {
            ExprKind::Name(p) => Some(p),
            _ => None,
        },
        _ => None,
    }
}

/// Refuses `take store(P)` whose seeds would go to P's store, where they already are: a rule that
/// says it takes and moves nothing would be a silent meaning. A rule that sows what it took again
/// lifts the store's seeds into the hand, which is what it says.
pub(super) fn take_into_itself(def: &RuleDef, diags: &mut Vec<Diagnostic>) {
    if def.actions.iter().any(|a| matches!(a.node, Action::SowTaken(_))) {
        return;
    }
    for a in &def.actions {
        let Action::Take(pits, to) = &a.node else { continue };
        for pit in pits {
            let Some(whose) = store_of(pit) else { continue };
            let receiver = match to {
                None => Some("mover"),
                Some(Receiver::Owner) => Some(whose),
                Some(Receiver::Player(p)) => match &p.kind {
                    ExprKind::Name(p) => Some(p.as_str()),
                    _ => None,
                },
            };
            if receiver == Some(whose) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::take_into_itself",
                        format!("`take store({whose})` puts the seeds back into the store they are in"),
                        pit.span,
                        "the seeds go to this same store",
                    )
                    .with_help("say where they go (`to opponent`), or add `sow taken` to sow them again"),
                );
            }
        }
    }
}

/// Refuses `series ... including stores` on a board whose stores hold captures only: no track goes
/// through a store there, so the walk would never meet one and the words would say nothing.
pub(super) fn series_stores_off_track(def: &RuleDef, stores_sown: bool, diags: &mut Vec<Diagnostic>) {
    if stores_sown {
        return;
    }
    for a in &def.actions {
        if let Action::Series(series) = &a.node
            && let Some(span) = series.with_stores
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "`including stores` on a board whose stores are on no track",
                    span,
                    "the walk never meets a store",
                )
                .with_help("say `stores sown` in `board { }` and put the stores on the track (`into own store`, `into both stores`), or leave the words out"),
            );
        }
    }
}

/// Refuses `relay from store(P)` on a board whose stores hold captures only: no track goes through a
/// store there, so its seeds would have nowhere to be sown and the relay would silently never happen.
pub(super) fn relay_from_off_track(items: &[Item], stores_sown: bool, diags: &mut Vec<Diagnostic>) {
    if stores_sown {
        return;
    }
    for item in items {
        if let ItemKind::SowRelayFrom(e) = &item.kind
            && let Some(whose) = store_of(e)
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!("`relay from store({whose})` on a board whose stores are on no track"),
                    e.span,
                    "a store that holds captures only",
                )
                .with_help("say `stores sown` in `board { }` and put the store on the track (`into own store`)"),
            );
        }
    }
}
