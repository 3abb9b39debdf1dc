//! Which values a program keeps once worked out ([`Op::Keep`](crate::compile::ir::Op::Keep)).
//!
//! A rule file names its ideas with `let`, and a name is written out wherever it is read: a
//! condition that reads `capture_exists` three times walks the row three times, and a set's filter
//! that reads it walks the row again for every pit of the set. Expressions have no effects (but a
//! choice, which is never kept), and a value that does not read `pit` is the same wherever it
//! stands in one run of a program, its sets' filters included: such a value that walks a set (or
//! asks whether a player can move) is kept for the run when it is written more than once, or once
//! inside a set's filter (read again for every pit).
//!
//! A kept value is worked out where it is first read, as before: a branch not taken works out
//! nothing, and the order of what is read does not change.

use crate::compile::ir::MOST_KEPT;
use crate::compile::typed::{BoolExpr, IntExpr, PitExpr, Pits, PlayerExpr, Whose};

/// A typed expression of any type, as the generator meets it.
#[derive(Clone, Copy, PartialEq)]
pub(super) enum Part<'e> {
    Bool(&'e BoolExpr),
    Int(&'e IntExpr),
    Pit(&'e PitExpr),
    Player(&'e PlayerExpr),
}

/// What an expression holds; of its sets' filters (which read their own `pit`), only a choice.
#[derive(Default, Clone, Copy)]
struct Holds {
    /// A walk over a set, or `can_move`.
    walk: bool,
    /// The pit `pit`.
    pit: bool,
    /// A choice, even inside a set's filters.
    choice: bool,
}

impl Holds {
    fn with(self, other: Holds) -> Holds {
        Holds {
            walk: self.walk || other.walk,
            pit: self.pit || other.pit,
            choice: self.choice || other.choice,
        }
    }

    /// Worth keeping, and the same wherever it stands in a run.
    fn keepable(self) -> bool {
        self.walk && !self.pit && !self.choice
    }
}

/// The values kept in one run of the program whose parts are `roots` (`in_filter`: the filters of
/// a set standing alone), the outermost first: a value inside a kept one is worked out once with
/// it. `roots`' sets' filters, however deep, keep theirs in the same run.
pub(super) fn kept<'e>(roots: &[Part<'e>], in_filter: bool) -> Vec<Part<'e>> {
    // Each keepable value met, how often, and whether inside a filter.
    let mut seen: Vec<(Part<'e>, u32, bool)> = Vec::new();
    for &root in roots {
        count(root, in_filter, &mut seen);
    }
    let mut kept = Vec::new();
    for &root in roots {
        choose(root, &seen, &mut kept);
    }
    kept
}

/// What `part` holds, each keepable value inside it (itself included) counted in `seen`.
fn count<'e>(part: Part<'e>, in_filter: bool, seen: &mut Vec<(Part<'e>, u32, bool)>) -> Holds {
    let mut holds = match part {
        Part::Bool(BoolExpr::CanMove(_)) => Holds {
            walk: true,
            ..Holds::default()
        },
        Part::Pit(PitExpr::Pit) => Holds {
            pit: true,
            ..Holds::default()
        },
        Part::Int(IntExpr::Choose(..) | IntExpr::ChooseRange(..)) | Part::Pit(PitExpr::Choose(..) | PitExpr::ChooseIn(_)) => Holds {
            choice: true,
            ..Holds::default()
        },
        _ => Holds::default(),
    };
    for inner in parts(part) {
        holds = holds.with(count(inner, in_filter, seen));
    }
    if let Some(set) = walked(part) {
        holds.walk = true;
        // The filters read their own `pit`; a choice in them is the walk's.
        for filter in filter_parts(set) {
            holds.choice |= count(Part::Bool(filter), true, seen).choice;
        }
    }
    if holds.keepable() {
        match seen.iter_mut().find(|(p, ..)| *p == part) {
            Some((_, n, filter)) => {
                *n += 1;
                *filter |= in_filter;
            }
            None => seen.push((part, 1, in_filter)),
        }
    }
    holds
}

/// Adds to `kept` the outermost values of `part` read more than once in a run (written twice, or
/// inside a filter), its sets' filters included.
fn choose<'e>(part: Part<'e>, seen: &[(Part<'e>, u32, bool)], kept: &mut Vec<Part<'e>>) {
    if kept.contains(&part) {
        return;
    }
    if seen.iter().any(|(p, n, filter)| *p == part && (*n > 1 || *filter)) {
        if kept.len() < MOST_KEPT {
            kept.push(part);
        }
        return;
    }
    for inner in parts(part) {
        choose(inner, seen, kept);
    }
    if let Some(set) = walked(part) {
        for filter in filter_parts(set) {
            choose(Part::Bool(filter), seen, kept);
        }
    }
}

/// A set's filters as the program reads them, each `a and b` as `a` then `b` (read in the same
/// order, the second only where the first holds): a first part that reads only where a pit lies
/// is then answered before the game (`PitSet::fixed`).
pub(super) fn filter_parts(s: &Pits) -> Vec<&BoolExpr> {
    fn split<'e>(e: &'e BoolExpr, parts: &mut Vec<&'e BoolExpr>) {
        match e {
            BoolExpr::And(a, b) => {
                split(a, parts);
                split(b, parts);
            }
            e => parts.push(e),
        }
    }
    let mut parts = Vec::new();
    for f in &s.filters {
        split(f, &mut parts);
    }
    parts
}

/// The set `part` walks itself.
fn walked(part: Part<'_>) -> Option<&Pits> {
    match part {
        Part::Bool(BoolExpr::Any(s))
        | Part::Int(IntExpr::Size(s) | IntExpr::Sum(s))
        | Part::Pit(PitExpr::Leftmost(s) | PitExpr::Rightmost(s) | PitExpr::Seek(_, s, _) | PitExpr::ChooseIn(s)) => Some(s),
        _ => None,
    }
}

/// The parts directly inside `part`, a set's row included, its filters not.
fn parts(part: Part<'_>) -> Vec<Part<'_>> {
    use Part::{Bool, Int, Pit, Player};
    fn row(s: &Pits) -> Option<Part<'_>> {
        s.row.as_ref().map(Part::Player)
    }
    fn whose(w: &Whose) -> Part<'_> {
        match w {
            Whose::Player(p) => Part::Player(p),
            Whose::Pit(p) => Part::Pit(p),
        }
    }
    match part {
        Bool(e) => match e {
            BoolExpr::CanMove(p) => vec![Player(p)],
            BoolExpr::Claimed(p) | BoolExpr::Closed(p) | BoolExpr::Shared(p) | BoolExpr::IsStore(p) => vec![Pit(p)],
            BoolExpr::Any(s) => row(s).into_iter().collect(),
            BoolExpr::Not(x) => vec![Bool(x)],
            BoolExpr::And(a, b) | BoolExpr::Or(a, b) | BoolExpr::SameBool(a, b, _) => vec![Bool(a), Bool(b)],
            BoolExpr::Compare(_, a, b) => vec![Int(a), Int(b)],
            BoolExpr::CompareInt(_, a, _) | BoolExpr::InRangeInt(a, ..) | BoolExpr::Parity(a, _) => vec![Int(a)],
            BoolExpr::InRange(r) => vec![Int(&r.0), Int(&r.1), Int(&r.2)],
            BoolExpr::InSet(x, items) => std::iter::once(Int(x)).chain(items.iter().map(Int)).collect(),
            BoolExpr::SamePlayer(a, b, _) => vec![Player(a), Player(b)],
            BoolExpr::SamePit(a, b, _) => vec![Pit(a), Pit(b)],
            BoolExpr::Bool(_) | BoolExpr::Final | BoolExpr::NoMoves | BoolExpr::CanFeed | BoolExpr::Repeated | BoolExpr::Clockwise => {
                vec![]
            }
        },
        Int(e) => match e {
            IntExpr::Count(p) | IntExpr::Before(p) | IntExpr::Number(p) | IntExpr::Row(p) => vec![Pit(p)],
            IntExpr::If(c, a, b) => vec![Bool(c), Int(a), Int(b)],
            IntExpr::Seeds(p) | IntExpr::Captured(p) | IntExpr::RoundsWon(p) => vec![Player(p)],
            IntExpr::Size(s) | IntExpr::Sum(s) => row(s).into_iter().collect(),
            IntExpr::Neg(x) | IntExpr::Shr(x, _) | IntExpr::Mask(x, _) => vec![Int(x)],
            IntExpr::Arith(_, a, b) | IntExpr::ChooseRange(a, b) => vec![Int(a), Int(b)],
            IntExpr::Memory(_, w) => vec![whose(w)],
            IntExpr::Choose(items, _) => items.iter().map(Int).collect(),
            IntExpr::Int(_)
            | IntExpr::Lap
            | IntExpr::Taken
            | IntExpr::Lifted
            | IntExpr::InHand
            | IntExpr::Ply
            | IntExpr::Round
            | IntExpr::RoundPly
            | IntExpr::Total => vec![],
        },
        Pit(e) => match e {
            PitExpr::Store(p) => vec![Player(p)],
            PitExpr::Of(p, row, number) => vec![Player(p), Int(row), Int(number)],
            PitExpr::Opposite(p) | PitExpr::Relation(_, p) => vec![Pit(p)],
            PitExpr::If(c, a, b) => vec![Bool(c), Pit(a), Pit(b)],
            PitExpr::Leftmost(s) | PitExpr::Rightmost(s) | PitExpr::ChooseIn(s) => row(s).into_iter().collect(),
            PitExpr::Seek(from, s, _) => std::iter::once(Pit(from)).chain(row(s)).collect(),
            PitExpr::Memory(_, w) => vec![whose(w)],
            PitExpr::Along(p, k) => vec![Pit(p), Int(k)],
            PitExpr::Choose(items, _) => items.iter().map(Pit).collect(),
            PitExpr::NoPit | PitExpr::Last | PitExpr::Origin | PitExpr::Pit | PitExpr::LapStart | PitExpr::FirstLapEnd => vec![],
        },
        Player(e) => match e {
            PlayerExpr::Other(p) => vec![Player(p)],
            PlayerExpr::Side(p) | PlayerExpr::Owner(p) => vec![Pit(p)],
            PlayerExpr::If(c, a, b) => vec![Bool(c), Player(a), Player(b)],
            PlayerExpr::Player(_) | PlayerExpr::Mover | PlayerExpr::Opponent | PlayerExpr::ToMove | PlayerExpr::Starter => vec![],
        },
    }
}
