//! Capture rules read in turn at a lap's end often open with the same condition (a file names it
//! once, `let captures_here = ...`, and each rule adds what tells it apart). Where they do, the
//! shared part is asked once for the run of rules and each rule's own part after it
//! ([`Guard`]): what each rule's `when` answers is unchanged, as `a and b` asks `a` first.

use super::codegen::Gen;
use super::ir::{Code, Guard, Op, Quick, Rule};
use super::typed::BoolExpr;

/// The conditions `e` is `c and ...` of: `e` itself, then each left operand of its `and`s.
fn spine(e: &BoolExpr) -> Vec<&BoolExpr> {
    let mut parts = vec![e];
    while let Some(BoolExpr::And(left, _)) = parts.last() {
        parts.push(left);
    }
    parts
}

/// Does the program (or a filter of its sets) ask the mover to choose?
fn chooses(code: &Code) -> bool {
    code.ops
        .iter()
        .any(|op| matches!(op, Op::Choose(..) | Op::ChooseIn(_) | Op::ChooseRange))
        || code.sets.iter().any(|s| s.row.iter().chain(&s.filters).any(chooses))
}

/// What `e` asks after `head`, one of its [`spine`]'s conditions, in the same order (`None`:
/// nothing).
fn after(e: &BoolExpr, head: &BoolExpr) -> Option<BoolExpr> {
    if e == head {
        return None;
    }
    let BoolExpr::And(left, right) = e else {
        unreachable!("the head is on the condition's spine")
    };
    Some(match after(left, head) {
        None => (**right).clone(),
        Some(rest) => BoolExpr::And(Box::new(rest), right.clone()),
    })
}

/// Gives each run of two or more `rules` in a row whose conditions (`conditions`, typed, in the
/// same order) open with one condition a [`Guard`]: that condition, the largest such, and what
/// each rule asks after it, where the opening is a program to run. A condition that asks the mover
/// to choose is not shared: asking it once would read the answers otherwise.
pub(super) fn share_heads(rules: &mut [Rule], conditions: &[BoolExpr], pits: usize) {
    let mut i = 0;
    while i < conditions.len() {
        let mut common = spine(&conditions[i]);
        let mut end = i + 1;
        while end < conditions.len() {
            let theirs = spine(&conditions[end]);
            let shared: Vec<&BoolExpr> = common.iter().copied().filter(|c| theirs.contains(c)).collect();
            if shared.is_empty() {
                break;
            }
            common = shared;
            end += 1;
        }
        if end - i < 2 {
            i = end;
            continue;
        }
        let head = Gen::bool(pits, common[0]);
        // An opening the engine answers with a few quick tests is asked again at less cost than
        // keeping its answer, and the rest then asked as a second program.
        if head.quick == Quick::Run && !chooses(&head) {
            for (rule, condition) in rules[i..end].iter_mut().zip(&conditions[i..end]) {
                let rest = after(condition, common[0]).unwrap_or(BoolExpr::Bool(true));
                rule.guard = Some(Box::new(Guard {
                    head: head.clone(),
                    rest: Gen::bool(pits, &rest),
                    run: i,
                }));
            }
        }
        i = end;
    }
}
