//! `last.before` read as `last.count - 1`, where the rules allow it: the sowing then keeps no list
//! of the counts before the latest seed (a write a seed, a copy a sowing and a pause).
//!
//! At the end of a lap the latest seed fell into `last` and, until an action runs, nothing has
//! changed `last` since: its count before that seed is its count less one. A game whose every read
//! of `before` is of `last` in a capture rule's or the relay rule's condition (the conditions read
//! there) reads nothing else of the list, provided that
//! - every lap sows at least one seed (a first lap always does: an empty origin is refused and a
//!   store sown from is not empty; but `at turn start` rules may empty the origin first, and
//!   `from store 0` sows nothing),
//! - no trigger changes a pit as the seeds fall (it might change `last` after its seed),
//! - no rule runs between a lap's end and a relay rule that reads `before`: lap-end and
//!   after-capture rules, and a capture rule that lets the relay rule decide (`then` continue)
//!   after its actions changed the board. A capture whose actions only take seeds into the hand
//!   and sow them on either sows (a new lap, whose end the relay reads) or took nothing.
//!
//! Where all this holds the conditions' tests of `last.before` within bounds become tests of
//! `last.count`, one higher, which the lap tables, the filters of where a capture may hold and the
//! fast forms read as they read any count; whatever else reads `last.before` (a condition the
//! evaluator runs, a comparison with another value) reads the count less one from the evaluator,
//! which knows the game keeps no counts before (`Ctx::before_of`).

use super::ir::{Action, Code, Op, Operand, Phase, Quick, Receiver, Reg, Rule, Test, Then};

/// Rewrites the tests of `last.before` in the phases' lap-end conditions as tests of `last.count`
/// when the rules allow it (see the module's text), and tells whether it did. `triggers` are the
/// game's; the caller knows that no other rule reads `before`.
pub(super) fn read_as_count(phases: &mut [Phase], triggers: &[Rule]) -> bool {
    if !triggers.is_empty() {
        return false;
    }
    for phase in phases.iter() {
        if !phase.turn_starts.is_empty() || phase.sow.from_store == Some(0) {
            return false;
        }
        let conditions = phase.captures.iter().map(|r| &r.when).chain(phase.sow.relay.as_ref());
        if !conditions.filter(|c| reads_before(c)).all(only_last_in_tests) {
            return false;
        }
        if phase.sow.relay.as_ref().is_some_and(reads_before) {
            let decided_after_change = |r: &Rule| r.then == Then::Continue && !sows_on_or_keeps(r);
            if !phase.lap_ends.is_empty() || !phase.after_captures.is_empty() || phase.captures.iter().any(decided_after_change) {
                return false;
            }
        }
    }
    for phase in phases.iter_mut() {
        // A rule's condition and the parts its guard asks it in (`compile::guard`).
        let conditions = phase.captures.iter_mut().flat_map(|r| {
            let guard = r.guard.as_deref_mut().map(|g| [&mut g.head, &mut g.rest]);
            std::iter::once(&mut r.when).chain(guard.into_iter().flatten())
        });
        for code in conditions.chain(phase.sow.relay.as_mut()) {
            if reads_before(code) {
                count_for_before(&mut code.quick);
            }
        }
    }
    true
}

/// Does the code read some pit's count `before` (in its program or its sets' filters)?
fn reads_before(code: &Code) -> bool {
    code.ops.iter().any(|op| matches!(op, Op::BeforeOf(_) | Op::Before))
        || code.sets.iter().any(|s| s.row.iter().chain(&s.filters).any(reads_before))
}

/// Is every read of `before`, in the program and in the plain list of tests, a read of `last`'s?
fn only_last_in_tests(code: &Code) -> bool {
    let program = !code.sets.iter().any(|s| s.row.iter().chain(&s.filters).any(reads_before))
        && code.ops.iter().all(|op| match op {
            Op::BeforeOf(r) => *r == Reg::Last,
            Op::Before => false,
            _ => true,
        });
    let tests: &[Test] = match &code.quick {
        Quick::One(t) => std::slice::from_ref(t),
        Quick::Both(a, b) | Quick::Either(a, b) => return program && [a, b].into_iter().all(test_fits),
        Quick::Tests(flat) => &flat.tests,
        Quick::Flag(_) | Quick::Run => return program,
    };
    program && tests.iter().all(test_fits)
}

/// A test that reads no `before` but `last`'s.
fn test_fits(t: &Test) -> bool {
    let fits = |o: &Operand| match o {
        Operand::Before(r) => *r == Reg::Last,
        Operand::BeforeOpposite(_) => false,
        _ => true,
    };
    match t {
        Test::BeforeIn(r, ..) => *r == Reg::Last,
        Test::Cmp(a, _, b) => fits(a) && fits(b),
        Test::In(o, ..) | Test::Parity(o, _) => fits(o),
        _ => true,
    }
}

/// A capture rule whose actions leave the board as it was unless they sow seeds on: they only take
/// seeds into the hand and sow them (a pull starts a lap when the hand holds any).
fn sows_on_or_keeps(rule: &Rule) -> bool {
    rule.actions.iter().all(|a| match a {
        Action::Take { to, .. } => matches!(to, Receiver::Hand),
        Action::SowTaken { .. } => true,
        _ => false,
    }) && rule.actions.last().is_none_or(|a| matches!(a, Action::SowTaken { .. }))
}

/// `last.before in lo..hi` as `last.count in lo+1..hi+1` (the count is at least one at a lap's end).
fn count_for_before(quick: &mut Quick) {
    let swap = |t: &mut Test| {
        if let Test::BeforeIn(Reg::Last, lo, hi, inside) = *t {
            *t = Test::CountIn(Reg::Last, lo.saturating_add(1), hi.saturating_add(1), inside);
        }
    };
    match quick {
        Quick::One(t) => swap(t),
        Quick::Both(a, b) | Quick::Either(a, b) => {
            swap(a);
            swap(b);
        }
        Quick::Tests(flat) => flat.tests.iter_mut().for_each(swap),
        Quick::Flag(_) | Quick::Run => {}
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::ir::{Quick, Reg, Test};
    use crate::test_game;

    /// Two rows of three pits a side, sown either way around the mover's own rows, relaying while the
    /// last seed falls into a loaded pit; `capture` and `more` are the rest of the rules.
    fn relay_game(capture: &str, more: &str) -> String {
        format!(
            "game \"Invented\"\nboard {{ rows 2 pits 3 seeds 2 stores captures }}\nfirst south\n\
             sow {{ direction either track own relay when last.before > 0 }}\n{capture}\n{more}\n\
             end \"stuck\" when no_moves loser to_move\n"
        )
    }

    const SOWN_ON: &str = "capture \"pull\" { when last.side == mover and last.row == front and last.before > 0 and \
                           opposite(last).count > 0  take opposite(last)  sow taken }";
    const ENDS: &str = "capture \"across\" { when last.side == mover and last.before == 0 and opposite(last).count > 0  \
                        take opposite(last)  then end }";
    // Taken to the store, and the relay rule decides after it: `last` may have been emptied.
    const STORED: &str = "capture \"both\" { when last.side == mover and last.before > 0 and opposite(last).count > 0  \
                          take opposite(last), last }";

    #[test]
    fn last_before_is_read_as_its_count_only_where_the_rules_allow_it() {
        for capture in [SOWN_ON, ENDS] {
            let g = test_game(&relay_game(capture, ""));
            assert!(!g.uses_before, "{capture}");
            // `last.before > 0` is `last.count > 1`.
            let relay = g.phases.last().and_then(|p| p.sow.relay.as_ref()).expect("a relay");
            assert_eq!(relay.quick, Quick::One(Test::CountIn(Reg::Last, 2, i64::MAX, true)));
        }
        // A condition the evaluator runs (not a plain list of tests) reads the count less one there.
        let run = test_game(&relay_game(&SOWN_ON.replace("last.before > 0", "last.before + 1 > 1"), ""));
        assert!(!run.uses_before);
        assert_eq!(run.phases.last().expect("the usual rules").captures[0].when.quick, Quick::Run);
        // Without a relay, a capture rule alone reads `before` before its actions, whatever it does.
        let no_relay = relay_game(STORED, "").replace(" relay when last.before > 0", "");
        assert!(!test_game(&no_relay).uses_before);
        let refused = [
            (STORED, "", "the relay rule reads `last` after a capture changed it"),
            (SOWN_ON, "trigger \"fours\" { when pit.count == 4  take pit }", "a trigger"),
            (
                SOWN_ON,
                "at turn start \"tax\" { when origin.count == 2  move 1 from origin to store(mover) }",
                "a rule at turn start",
            ),
            (
                SOWN_ON,
                "at lap end \"single\" { when last.count == 1 and last.side == opponent  take last }",
                "a rule at lap end",
            ),
            (SOWN_ON, "forbid \"never\" when origin.before < 0", "a read of `before` elsewhere"),
            (
                &SOWN_ON.replace("opposite(last).count > 0", "opposite(last).before > 0"),
                "",
                "another pit's `before`",
            ),
        ];
        for (capture, more, why) in refused {
            assert!(test_game(&relay_game(capture, more)).uses_before, "{why}");
        }
    }
}
