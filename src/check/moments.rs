//! The rules' bodies, moment by moment: which words a lap's end, a move's end and a turn's start may
//! read and do, the numbers laps are compared with, and what a sowing that sows nothing may say.

use super::types::{Scope, Ty, TypeChecker};
use super::{Statics, limits, round_moments, stores};
use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{Action, CapUnit, EndResult, Expr, ExprKind, Item, ItemKind, Moment, Receiver, Remaining, RuleDef, SeriesDef};

/// The rules of the lap's end, the move's end and the turn's start, each read in the scope of its
/// moment, and the combinations of sowing words that contradict each other.
pub(super) fn check_rules(items: &[Item], tc: &mut TypeChecker, statics: &Statics, stores_sown: bool, diags: &mut Vec<Diagnostic>) {
    if let Some(never) = items.iter().find(|i| matches!(i.kind, ItemKind::SowRelayNever))
        && let Some(relay) = items.iter().find(|i| matches!(i.kind, ItemKind::SowRelayFrom(_)))
    {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`relay from` says where a relay goes on, but `relay never` says there is none",
                relay.span,
                "relay from",
            )
            .with_label(never.span, "relay never")
            .with_help("keep one of them"),
        );
    }
    stores::relay_from_off_track(items, stores_sown, diags);
    let mut capture_names: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
    for item in items {
        if let ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) = &item.kind {
            stores::series_stores_off_track(def, stores_sown, diags);
        }
        match &item.kind {
            ItemKind::SowRelay(e) => tc.expect(e, Ty::Bool, Scope::lap_end()),
            ItemKind::SowRelayFrom(e) => tc.expect(e, Ty::Pit, Scope::lap_end()),
            ItemKind::SowSkipWhen(e) => tc.expect(e, Ty::Bool, Scope::skipping()),
            ItemKind::SowStartInOrigin(Some(e)) => tc.expect(e, Ty::Bool, Scope::before_lifting()),
            ItemKind::SowLift(e) => tc.expect(e, Ty::Int, Scope::before_lifting().choosing()),
            ItemKind::SowFromStore(e) => {
                bounded(
                    statics,
                    e,
                    1..=limits::MAX_SEEDS_PER_PIT,
                    |v| format!("a move cannot take {v} seeds from the store"),
                    "seeds a move",
                    diags,
                );
            }
            ItemKind::SowRelayLimit(e) => {
                bounded(
                    statics,
                    e,
                    1..=limits::MAX_RELAY_LIMIT,
                    |v| format!("a relay limit of {v} laps is not possible"),
                    "laps",
                    diags,
                );
            }
            ItemKind::SowIntoStore(both) if !stores_sown => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!(
                        "`into {}` needs stores that are sown into",
                        if *both { "both stores" } else { "own store" }
                    ),
                    item.span,
                    "sowing into the store",
                )
                .with_help("add `stores sown` inside `board { }`"),
            ),
            ItemKind::Forbid(_, cond) => tc.expect(cond, Ty::Bool, Scope::move_start()),
            ItemKind::ForbidAfter(_, cond) => tc.expect(cond, Ty::Bool, Scope::after_sowing()),
            ItemKind::Trigger(def) => {
                tc.expect(&def.when, Ty::Bool, Scope::trigger());
                for a in &def.actions {
                    match &a.node {
                        Action::Series(..) | Action::Then(_) | Action::SowTaken(_) | Action::SowFrom(_) => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "a trigger can only take, move or claim seeds, close or open pits and change memory",
                                a.span,
                                "not allowed in a trigger",
                            )
                            .with_help("`series` and `then` belong in a `capture` rule, which runs when the lap ends"),
                        ),
                        _ => check_action(&a.node, a.span, tc, Scope::trigger(), diags),
                    }
                }
                stores::take_into_itself(def, diags);
            }
            ItemKind::Capture(def) => {
                if let Some(first) = capture_names.get(def.name.node.as_str()) {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::duplicate",
                            "two capture rules have the same name",
                            def.name.span,
                            "again",
                        )
                        .with_label(*first, "first"),
                    );
                }
                capture_names.entry(&def.name.node).or_insert(def.name.span);
                check_lap_rule(def, tc, statics, diags);
            }
            ItemKind::At(Moment::LapEnd | Moment::AfterCapture, def) => check_lap_rule(def, tc, statics, diags),
            ItemKind::At(Moment::TurnStart, def) => check_turn_start(def, tc, diags),
            ItemKind::At(Moment::RoundStart | Moment::RoundEnd, def) => round_moments::check_rule(def, tc, diags),
            _ => {}
        }
    }
}

/// A rule at the end of a lap (a capture, or a rule `at lap end` or `after capture`): it may take,
/// walk a series, sow again and say what happens next.
fn check_lap_rule(def: &RuleDef, tc: &mut TypeChecker, statics: &Statics, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::lap_end());
    let mut took = false;
    let mut took_some = false;
    let mut thens = 0;
    // Issue 22 (found by fuzzing): a `take` after `sow taken` lifted seeds that were never sown, so the
    // board lost them. The sowing ends the rule's moment: nothing may follow it in the rule.
    let mut sown_at = None;
    for a in &def.actions {
        if let Some(sown) = sown_at
            && !matches!(a.node, Action::Then(_))
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "nothing may follow the sowing of taken seeds in its rule",
                    a.span,
                    "after the seeds are sown again",
                )
                .with_label(sown, "the rule's seeds are sown here, which ends it")
                .with_help("write this action before the sowing, or in a rule of its own"),
            );
        }
        if matches!(a.node, Action::SowTaken(_) | Action::SowFrom(_)) {
            sown_at = Some(a.span);
        }
        match &a.node {
            Action::Series(..) if !took => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "`series` must follow a `take`",
                    a.span,
                    "series without a take",
                )
                .with_help("write `take last` first: the series walks on from the first pit taken"),
            ),
            Action::Take(..) => took = true,
            // `take N from PIT` fills the hand too, but a series walks only from a `take`'s pits.
            Action::TakeSome(..) => took_some = true,
            Action::SowTaken(_) if !took && !took_some => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "`sow taken` must follow a `take`",
                    a.span,
                    "nothing taken yet",
                )
                .with_help("write the `take` whose seeds are sown again first"),
            ),
            Action::SowTaken(_) | Action::SowFrom(_) if def.actions.iter().any(|b| matches!(b.node, Action::Then(_))) => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "a rule that sows its seeds again cannot also say `then`",
                    a.span,
                    "the move goes on with this sowing",
                )
                .with_help("remove the `then`: the lap of the taken seeds decides what happens next"),
            ),
            Action::Then(_) => {
                thens += 1;
                if thens > 1 {
                    diags.push(
                        Diagnostic::error("sow::check::duplicate", "a rule can say `then` only once", a.span, "second `then`")
                            .with_help("keep the one `then` that says what happens after this rule"),
                    );
                }
            }
            _ => {}
        }
        let scope = if matches!(a.node, Action::Series(..)) {
            Scope::lap_end().with_pit()
        } else {
            Scope::lap_end()
        };
        if let Action::Series(SeriesDef { cap: Some((n, unit)), .. }) = &a.node {
            let what = if *unit == CapUnit::Pits { "pits" } else { "seeds" };
            bounded(
                statics,
                n,
                1..=limits::MAX_SERIES_CAP,
                |v| format!("a series capped at {v} {what} takes nothing"),
                what,
                diags,
            );
        }
        check_action(&a.node, a.span, tc, scope, diags);
    }
    stores::take_into_itself(def, diags);
}

/// A rule `at turn start`: the move is named (`origin`), nothing is lifted, no lap has ended, so
/// there is no `last` to read, no series to walk and no sowing to go on with.
fn check_turn_start(def: &RuleDef, tc: &mut TypeChecker, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::move_start());
    for a in &def.actions {
        match &a.node {
            Action::Series(..) | Action::SowTaken(_) | Action::SowFrom(_) | Action::Then(_) => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "at the start of a turn nothing is sown yet: a rule there can take, move, claim and change memory",
                    a.span,
                    "not allowed at turn start",
                )
                .with_help("`series`, `sow taken` and `then` belong in a rule at the end of a lap (`capture`, `at lap end`)"),
            ),
            _ => check_action(&a.node, a.span, tc, Scope::move_start(), diags),
        }
    }
    stores::take_into_itself(def, diags);
}

/// The value of a statement's expression known before the game, when it lies in `range`; otherwise a
/// located `out_of_range` diagnostic saying what `message` says of the value.
/// Refuses a comparison of `lap` that holds only for laps past the most a move sows (its relay limit:
/// the largest any phase states, else the default): it never holds. (One that holds for every lap a
/// move sows, `lap < 5000`, is harmless; the engine's loop watch takes no notice of its number.)
pub(super) fn lap_numbers(
    items: &[Item],
    statics: &Statics,
    numbers: &[(Span, crate::syntax::ast::BinOp, i64)],
    diags: &mut Vec<Diagnostic>,
) {
    fn stated(items: &[Item], statics: &Statics, most: &mut Option<i64>) {
        for item in items {
            match &item.kind {
                ItemKind::SowRelayLimit(e) => {
                    // Its own problems are reported where the limit is checked.
                    if let Some(v) = statics.eval(e, &mut Vec::new()) {
                        *most = Some(most.map_or(v, |m| m.max(v)));
                    }
                }
                ItemKind::Phase(_, _, inner) => stated(inner, statics, most),
                _ => {}
            }
        }
    }
    let mut most = None;
    stated(items, statics, &mut most);
    let limit = most.unwrap_or(i64::from(limits::DEFAULT_RELAY_LIMIT));
    for &(span, op, v) in numbers {
        use crate::syntax::ast::BinOp;
        let never = match op {
            BinOp::Eq | BinOp::Ge => v > limit,
            BinOp::Gt => v >= limit,
            _ => false,
        };
        if never {
            diags.push(
                Diagnostic::error(
                    "sow::check::lap_past_limit",
                    format!("this comparison of `lap` with {v} never holds: a move sows at most {limit} laps"),
                    span,
                    "never holds",
                )
                .with_help(format!(
                    "compare `lap` with a lap a move can reach (1 to {limit}), or raise `relay limit` (at most {})",
                    limits::MAX_RELAY_LIMIT
                )),
            );
        }
    }
}

pub(super) fn bounded(
    statics: &Statics,
    e: &Expr,
    range: std::ops::RangeInclusive<i64>,
    message: impl FnOnce(i64) -> String,
    label: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    let v = statics.eval(e, diags)?;
    if range.contains(&v) {
        return Some(v);
    }
    diags.push(
        Diagnostic::error("sow::check::out_of_range", message(v), e.span, label).with_help(format!(
            "use {} to {}",
            range.start(),
            range.end()
        )),
    );
    None
}

/// Is the expression written as a set of pits (`board`, `row(P)`, `... where ...`)?
/// An `after move` rule acts once the move's sowing is over: it may take, walk a series, move, claim
/// and change memory, and give the mover another move; there is no sowing left to go on with or end.
/// In a phase whose moves sow nothing, its rules are what the move does.
pub(super) fn check_after_move(def: &RuleDef, _sows_nothing: bool, tc: &mut TypeChecker, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::after_sowing());
    let mut took = false;
    for a in &def.actions {
        match &a.node {
            Action::SowTaken(_) | Action::SowFrom(_) | Action::Then(crate::syntax::ast::Then::End | crate::syntax::ast::Then::Continue) => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::misplaced",
                        "after the move its sowing is over: nothing can be sown again, and the move has ended anyway",
                        a.span,
                        "not allowed after the move",
                    )
                    .with_help("write this in a rule at the end of a lap (`capture`, `at lap end`); after the move, `then another move` gives the mover another move"),
                )
            }
            Action::Series(..) if !took => diags.push(
                Diagnostic::error("sow::check::misplaced", "`series` must follow a `take`", a.span, "series without a take")
                    .with_help("write `take last` first: the series walks on from the first pit taken"),
            ),
            Action::Series(..) => check_action(&a.node, a.span, tc, Scope::after_sowing().with_pit(), diags),
            _ => {
                took |= matches!(a.node, Action::Take(..));
                check_action(&a.node, a.span, tc, Scope::after_sowing(), diags)
            }
        }
    }
    stores::take_into_itself(def, diags);
}

/// A phase with `no sowing`: no lap is sown, so no lap ends for a capture rule and no `sow { }`
/// statement has anything to say; what a move does is its `after move` rules' `move`s, without
/// which every move would change nothing and none would be legal.
pub(super) fn check_sowing_nothing(inner: &[Item], no_sowing: Option<Span>, diags: &mut Vec<Diagnostic>) {
    let Some(no_sowing) = no_sowing else { return };
    for i in inner {
        let what = match &i.kind {
            ItemKind::Capture(_) | ItemKind::CapturesRequired => "no lap ends, so no capture rule is ever tried",
            k if k.is_sowing() => "no seed is sown, so this says nothing",
            _ => continue,
        };
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("this phase says `no sowing`: {what}"),
                i.span,
                "in a phase that sows nothing",
            )
            .with_label(no_sowing, "no sowing")
            .with_help("remove one of them; the phase's `after move` rules say what a move does"),
        );
    }
    let moves_seeds = inner.iter().any(|i| match &i.kind {
        ItemKind::AfterMove(def) => def.actions.iter().any(|a| matches!(a.node, Action::Move(_))),
        _ => false,
    });
    if !moves_seeds {
        diags.push(
            Diagnostic::error(
                "sow::check::missing",
                "this phase sows nothing and no `after move` rule of it moves seeds: no move could change the board",
                no_sowing,
                "its moves sow nothing",
            )
            .with_help("add for example `after move \"shift\" { when origin.count > 0  move 1 from origin to choose(row(mover) where pit != origin) }` inside the phase"),
        );
    }
}

fn names_a_set(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Where(..) => true,
        ExprKind::Name(n) => n == "board",
        ExprKind::Call(name, _) => name.node == "row",
        _ => false,
    }
}

pub(super) fn check_action(action: &Action, _span: Span, tc: &mut TypeChecker, scope: Scope, _diags: &mut Vec<Diagnostic>) {
    // What a rule does may ask the mover to choose; a series' condition is read pit after pit.
    let scope = if matches!(action, Action::Series(..)) {
        scope
    } else {
        scope.choosing()
    };
    match action {
        Action::Take(pits, to) => {
            tc.expect_pit_list(pits, scope, "take");
            if let Some(Receiver::Player(p)) = to {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Series(series) => tc.expect(&series.cond, Ty::Bool, scope),
        Action::Move(m) => {
            if let Some(n) = &m.count {
                tc.expect(n, Ty::Int, scope);
            }
            let several = m.from.len() > 1 || m.from.iter().any(names_a_set);
            tc.expect_pit_list(&m.from, scope, "from");
            tc.expect(&m.to, Ty::Pit, scope);
            if several && m.count.is_some() && !m.each {
                _diags.push(
                    Diagnostic::error(
                        "sow::check::unclear",
                        "seeds moved from several pits: say whether the number is for each pit",
                        _span,
                        "from several pits",
                    )
                    .with_help("write `move N from each of ...` (N seeds from every pit), or `move all from ...`"),
                );
            }
        }
        Action::Claim(pits, player) => {
            tc.expect_pit_list(pits, scope, "claim");
            tc.expect(player, Ty::Player, scope);
        }
        Action::SowTaken(again) | Action::SowFrom(again) => {
            // `either`: the mover chooses the way of this sowing, when the rule is carried out.
            if let Some(pit) = &again.pit {
                tc.expect(pit, Ty::Pit, scope);
            }
        }
        Action::TakeSome(count, pit, to) => {
            tc.expect(count, Ty::Int, scope);
            tc.expect(pit, Ty::Pit, scope);
            if let Some(Receiver::Player(p)) = to {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Close(pits, _) => tc.expect_pit_list(pits, scope, "close"),
        Action::Then(_) => {}
        Action::End(end) => {
            if let Some(Remaining::To(p)) = &end.remaining {
                tc.expect(p, Ty::Player, scope);
            }
            if let Some(pits) = &end.from {
                tc.expect_pits(pits, scope);
            }
            if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = &end.result {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Set(target, value) => {
            if let Some(m) = tc.memory_target(target, scope) {
                tc.expect(value, if m.holds_pit { Ty::Pit } else { Ty::Int }, scope);
            }
        }
        Action::Add(amount, target) => {
            if let Some(m) = tc.memory_target(target, scope) {
                if m.holds_pit {
                    _diags.push(
                        Diagnostic::error(
                            "sow::check::type_mismatch",
                            format!("`{}` holds a pit, which cannot be added to", m.name),
                            target.span,
                            "a pit",
                        )
                        .with_help(format!("give it another pit with `set ... {} = PIT`", m.name)),
                    );
                } else {
                    tc.expect(amount, Ty::Int, scope);
                }
            }
        }
    }
}

/// A `skip when` that reads `origin.count` reads the pit played as it is during the sowing: the move
/// picked up every seed it held, so it counts only the seeds sown back into it since (0 the first time a
/// lap comes round to it). What the move picked up is `lifted`. Not said where the first lap leaves seeds
/// in the pit played (`lift N`) or takes them from the store (`from store N`): there it means what it says.
pub(super) fn warn_emptied_origin(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let keeps_seeds = |items: &[Item]| {
        items
            .iter()
            .any(|i| matches!(i.kind, ItemKind::SowLift(_) | ItemKind::SowFromStore(_)))
    };
    let top_keeps = keeps_seeds(items);
    let phases = items.iter().filter_map(|i| match &i.kind {
        ItemKind::Phase(_, _, inner) => Some((inner.as_slice(), top_keeps || keeps_seeds(inner))),
        _ => None,
    });
    for (items, keeps) in std::iter::once((items, top_keeps)).chain(phases) {
        if keeps {
            continue;
        }
        for item in items {
            let ItemKind::SowSkipWhen(cond) = &item.kind else { continue };
            if let Some(span) = origin_count(cond) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::origin_emptied",
                        "in `skip when`, `origin.count` counts only the seeds sown back into the pit played",
                        span,
                        "0 until a seed falls back into it",
                    )
                    .warning()
                    .with_help(
                        "a move picks up every seed of the pit played before sowing; to read how many it picked up, \
                         write `lifted` (e.g. `skip when pit == origin and lifted >= 12`)",
                    ),
                );
            }
        }
    }
}

/// Where `e` reads `origin.count`, if it does.
fn origin_count(e: &Expr) -> Option<Span> {
    e.find_map(&mut |x| match &x.kind {
        ExprKind::Field(base, field) if field.node == "count" && matches!(&base.kind, ExprKind::Name(n) if n == "origin") => Some(x.span),
        _ => None,
    })
}
