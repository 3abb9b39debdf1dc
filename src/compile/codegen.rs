//! Code generation: a typed expression → a [`Code`] program for the engine's stack machine.
//!
//! Common shapes get one op each: `last.count`, `pit.side`, `captured(south)`, `x > 3`,
//! `x in 2..3`. `a and b` / `a or b` stop as soon as `a` decides.

use super::ir::{ByWay, CmpOp, Code, Flag, Flat, Op, Operand, PitSet, Quick, Reg, Test, Who};
use super::typed::{BoolExpr, IntExpr, PitExpr, Pits, PlayerExpr, Whose};
use crate::board::{Cell, Player};

mod kept;

use kept::Part;

/// Compiles expressions for a board whose stores are the cells `pits` (south's) and `pits + 1`:
/// as many as the board has pits.
pub(crate) struct Gen<'e> {
    pits: usize,
    ops: Vec<Op>,
    sets: Vec<PitSet>,
    words: Vec<Vec<String>>,
    depth: u32,
    max: u32,
    /// The values worked out once and kept ([`kept`]); slot `i` keeps `kept[i]`.
    kept: Vec<Part<'e>>,
    /// The slots are those of the program or set this one's filters belong to.
    kept_by_owner: bool,
}

impl<'e> Gen<'e> {
    /// A program's generator, keeping the values it reads more than once.
    fn new(pits: usize, root: Part<'e>) -> Self {
        Self::keeping(pits, kept::kept(&[root], false), false)
    }

    fn keeping(pits: usize, kept: Vec<Part<'e>>, kept_by_owner: bool) -> Self {
        Gen {
            pits,
            ops: Vec::new(),
            sets: Vec::new(),
            words: Vec::new(),
            depth: 0,
            max: 0,
            kept,
            kept_by_owner,
        }
    }

    /// A condition's program.
    pub fn bool(pits: usize, e: &'e BoolExpr) -> Code {
        Self::new(pits, Part::Bool(e)).condition(e)
    }

    /// A number's program.
    pub fn int(pits: usize, e: &'e IntExpr) -> Code {
        Self::new(pits, Part::Int(e)).finish(|g| g.num(e))
    }

    /// A player's program.
    pub fn player(pits: usize, e: &'e PlayerExpr) -> Code {
        Self::new(pits, Part::Player(e)).finish(|g| g.who(e))
    }

    /// A pit's program.
    pub fn pit(pits: usize, e: &'e PitExpr) -> Code {
        Self::new(pits, Part::Pit(e)).finish(|g| g.place(e))
    }

    /// The program of the condition `e`, with its quick form.
    fn condition(self, e: &'e BoolExpr) -> Code {
        let pits = self.pits;
        let mut code = self.finish(|g| g.cond(e));
        code.quick = Quick::of(flag(e), flat(e, pits, &code.sets));
        code
    }

    /// A set of pits standing alone: its filters keep their values for one walk.
    pub fn set(pits: usize, s: &'e Pits) -> PitSet {
        let parts = kept::filter_parts(s);
        let kept = kept::kept(&parts.iter().map(|&f| Part::Bool(f)).collect::<Vec<_>>(), true);
        let mut set = Self::set_keeping(pits, s, parts, &kept);
        set.kept = kept.len() as u8;
        set
    }

    /// A set whose filters `parts` keep their values in the slots `kept` of their owner.
    fn set_keeping(pits: usize, s: &'e Pits, parts: Vec<&'e BoolExpr>, kept: &[Part<'e>]) -> PitSet {
        let filters = parts
            .into_iter()
            .map(|f| Gen::keeping(pits, kept.to_vec(), true).condition(f))
            .collect();
        PitSet::new(s.row.as_ref().map(|r| Gen::player(pits, r)), filters, 0)
    }

    /// Where a choice's option words are kept (past the end of `words` when it has none).
    fn words_index(&mut self, words: &[String]) -> u32 {
        if !words.is_empty() {
            self.words.push(words.to_vec());
        }
        (self.words.len() - usize::from(!words.is_empty())) as u32
    }

    fn finish(mut self, f: impl FnOnce(&mut Self)) -> Code {
        f(&mut self);
        debug_assert_eq!(self.depth, 1, "a program leaves one value");
        Code {
            ops: self.ops,
            sets: self.sets,
            words: self.words,
            depth: self.max,
            kept: if self.kept_by_owner { 0 } else { self.kept.len() as u8 },
            quick: Quick::Run,
            lap: None,
            by_way: ByWay::default(),
        }
    }

    /// Adds an op that takes `takes` values and leaves one.
    fn op(&mut self, op: Op, takes: u32) {
        self.ops.push(op);
        self.depth = self.depth + 1 - takes;
        self.max = self.max.max(self.depth);
    }

    fn push(&mut self, op: Op) {
        self.op(op, 0);
    }

    fn unary(&mut self, op: Op) {
        self.op(op, 1);
    }

    /// Emits `work`, the ops of `part`; where `part` is a kept value, they are passed over once
    /// it is known.
    fn kept_or(&mut self, part: Part<'e>, work: impl FnOnce(&mut Self)) {
        let Some(slot) = self.kept.iter().position(|k| *k == part) else {
            return work(self);
        };
        let slot = slot as u8;
        let recall = self.ops.len();
        self.ops.push(Op::Recall(slot, 0));
        work(self);
        self.ops.push(Op::Keep(slot));
        self.ops[recall] = Op::Recall(slot, self.ops.len() as u32);
    }

    fn set_index(&mut self, s: &'e Pits) -> u32 {
        self.sets.push(Self::set_keeping(self.pits, s, kept::filter_parts(s), &self.kept));
        (self.sets.len() - 1) as u32
    }

    /// `if c then a else b`: the condition, then one branch or the other, each leaving one value.
    fn branch(&mut self, c: &'e BoolExpr, a: impl FnOnce(&mut Self), b: impl FnOnce(&mut Self)) {
        self.cond(c);
        let unless = self.ops.len();
        self.ops.push(Op::Unless(0));
        self.depth -= 1;
        a(self);
        let jump = self.ops.len();
        self.ops.push(Op::Jump(0));
        // The `else` branch starts from the depth the `then` branch started from.
        self.depth -= 1;
        self.ops[unless] = Op::Unless(self.ops.len() as u32);
        b(self);
        self.ops[jump] = Op::Jump(self.ops.len() as u32);
    }

    /// `a and b` (`and` true) or `a or b`.
    fn short_circuit(&mut self, a: &'e BoolExpr, b: &'e BoolExpr, and: bool) {
        self.cond(a);
        let at = self.ops.len();
        self.ops.push(if and { Op::AndThen(0) } else { Op::OrElse(0) });
        // Going on, the op drops `a`; `b` then stands in its place.
        self.depth -= 1;
        self.cond(b);
        let end = self.ops.len() as u32;
        self.ops[at] = if and { Op::AndThen(end) } else { Op::OrElse(end) };
    }

    fn cond(&mut self, e: &'e BoolExpr) {
        self.kept_or(Part::Bool(e), |g| g.cond_worked(e));
    }

    fn cond_worked(&mut self, e: &'e BoolExpr) {
        match e {
            BoolExpr::Bool(b) => self.push(Op::Int(i64::from(*b))),
            BoolExpr::Final | BoolExpr::NoMoves | BoolExpr::CanFeed | BoolExpr::Repeated | BoolExpr::Clockwise => {
                self.push(Op::Flag(flag(e).expect("a flag")));
            }
            BoolExpr::CanMove(p) => {
                self.who(p);
                self.unary(Op::CanMove);
            }
            BoolExpr::Claimed(p) => {
                self.place(p);
                self.unary(Op::Claimed);
            }
            BoolExpr::Closed(p) => {
                self.place(p);
                self.unary(Op::Closed);
            }
            BoolExpr::Shared(p) => {
                self.place(p);
                self.unary(Op::Shared);
            }
            BoolExpr::IsStore(p) => {
                self.place(p);
                self.unary(Op::IsStore);
            }
            BoolExpr::Any(s) => {
                let i = self.set_index(s);
                self.push(Op::Any(i));
            }
            BoolExpr::Not(x) => {
                self.cond(x);
                self.unary(Op::Not);
            }
            BoolExpr::And(a, b) => self.short_circuit(a, b, true),
            BoolExpr::Or(a, b) => self.short_circuit(a, b, false),
            BoolExpr::Compare(op, a, b) => {
                self.num(a);
                self.num(b);
                self.op(Op::Cmp(*op), 2);
            }
            BoolExpr::CompareInt(op, a, k) => {
                self.num(a);
                self.unary(Op::CmpInt(*op, *k));
            }
            BoolExpr::InRange(r) => {
                let (x, lo, hi) = &**r;
                self.num(x);
                self.num(lo);
                self.num(hi);
                self.op(Op::InRange, 3);
            }
            BoolExpr::InRangeInt(x, lo, hi) => {
                self.num(x);
                // Bounds that fit in 32 bits keep an op in 16 bytes, which the evaluator's loop
                // reads the faster; wider ones go on the stack as any range's.
                match (i32::try_from(*lo), i32::try_from(*hi)) {
                    (Ok(lo), Ok(hi)) => self.unary(Op::InRangeInt(lo, hi)),
                    _ => {
                        self.push(Op::Int(*lo));
                        self.push(Op::Int(*hi));
                        self.op(Op::InRange, 3);
                    }
                }
            }
            BoolExpr::InSet(x, items) => {
                self.num(x);
                for i in items {
                    self.num(i);
                }
                self.op(Op::InSet(items.len() as u32), items.len() as u32 + 1);
            }
            BoolExpr::Parity(x, even) => {
                self.num(x);
                self.unary(Op::Parity(*even));
            }
            BoolExpr::SamePlayer(a, b, same) => {
                self.who(a);
                self.who(b);
                self.op(Op::Cmp(if *same { CmpOp::Eq } else { CmpOp::Ne }), 2);
            }
            BoolExpr::SamePit(a, b, same) => {
                self.place(a);
                self.place(b);
                self.op(Op::Cmp(if *same { CmpOp::Eq } else { CmpOp::Ne }), 2);
            }
            BoolExpr::SameBool(a, b, same) => {
                self.cond(a);
                self.cond(b);
                self.op(Op::Cmp(if *same { CmpOp::Eq } else { CmpOp::Ne }), 2);
            }
        }
    }

    fn num(&mut self, e: &'e IntExpr) {
        self.kept_or(Part::Int(e), |g| g.num_worked(e));
    }

    fn num_worked(&mut self, e: &'e IntExpr) {
        match e {
            IntExpr::Int(n) => self.push(Op::Int(*n)),
            IntExpr::Count(p) => match reg(p) {
                Some(r) => self.push(Op::CountOf(r)),
                None => {
                    self.place(p);
                    self.unary(Op::Count);
                }
            },
            IntExpr::Before(p) => match reg(p) {
                Some(r) => self.push(Op::BeforeOf(r)),
                None => {
                    self.place(p);
                    self.unary(Op::Before);
                }
            },
            IntExpr::Number(p) => {
                self.place(p);
                self.unary(Op::Number);
            }
            IntExpr::Row(p) => {
                self.place(p);
                self.unary(Op::RowOf);
            }
            IntExpr::Lap => self.push(Op::Lap),
            IntExpr::Taken => self.push(Op::Taken),
            IntExpr::Lifted => self.push(Op::Lifted),
            IntExpr::InHand => self.push(Op::InHand),
            IntExpr::If(c, a, b) => self.branch(c, |g| g.num(a), |g| g.num(b)),
            IntExpr::Ply => self.push(Op::Ply),
            IntExpr::Round => self.push(Op::Round),
            IntExpr::RoundPly => self.push(Op::RoundPly),
            IntExpr::Total => self.push(Op::Total),
            IntExpr::Seeds(PlayerExpr::Player(p)) => self.push(Op::SeedsOf(*p)),
            IntExpr::Seeds(p) => {
                self.who(p);
                self.unary(Op::Seeds);
            }
            IntExpr::Captured(PlayerExpr::Player(p)) => self.push(Op::CountCell(self.store(*p))),
            IntExpr::Captured(p) => {
                self.who(p);
                self.unary(Op::Captured);
            }
            IntExpr::RoundsWon(p) => {
                self.who(p);
                self.unary(Op::RoundsWon);
            }
            IntExpr::Choose(items, words) => {
                for i in items {
                    self.num(i);
                }
                let w = self.words_index(words);
                self.op(Op::Choose(items.len() as u32, false, w), items.len() as u32);
            }
            IntExpr::ChooseRange(lo, hi) => {
                self.num(lo);
                self.num(hi);
                self.op(Op::ChooseRange, 2);
            }
            IntExpr::Size(s) => {
                let i = self.set_index(s);
                self.push(Op::Size(i));
            }
            IntExpr::Sum(s) => {
                let i = self.set_index(s);
                self.push(Op::Sum(i));
            }
            IntExpr::Neg(x) => {
                self.num(x);
                self.unary(Op::Neg);
            }
            IntExpr::Arith(op, a, b) => {
                self.num(a);
                self.num(b);
                self.op(Op::Arith(*op), 2);
            }
            IntExpr::Shr(x, s) => {
                self.num(x);
                self.unary(Op::Shr(*s));
            }
            IntExpr::Mask(x, m) => {
                self.num(x);
                self.unary(Op::Mask(*m));
            }
            IntExpr::Memory(r, whose) => self.memory(*r, whose),
        }
    }

    fn who(&mut self, e: &'e PlayerExpr) {
        self.kept_or(Part::Player(e), |g| g.who_worked(e));
    }

    fn who_worked(&mut self, e: &'e PlayerExpr) {
        match e {
            PlayerExpr::Player(p) => self.push(Op::Int(p.index() as i64)),
            PlayerExpr::Mover => self.push(Op::Mover),
            PlayerExpr::Opponent => self.push(Op::Opponent),
            PlayerExpr::ToMove => self.push(Op::ToMove),
            PlayerExpr::Starter => self.push(Op::Starter),
            PlayerExpr::If(c, a, b) => self.branch(c, |g| g.who(a), |g| g.who(b)),
            PlayerExpr::Other(p) => {
                self.who(p);
                self.unary(Op::Other);
            }
            PlayerExpr::Side(p) => match reg(p) {
                Some(r) => self.push(Op::SideOf(r)),
                None => {
                    self.place(p);
                    self.unary(Op::Side);
                }
            },
            PlayerExpr::Owner(p) => {
                self.place(p);
                self.unary(Op::Owner);
            }
        }
    }

    fn place(&mut self, e: &'e PitExpr) {
        self.kept_or(Part::Pit(e), |g| g.place_worked(e));
    }

    fn place_worked(&mut self, e: &'e PitExpr) {
        match e {
            PitExpr::NoPit => self.push(Op::Int(i64::from(crate::compile::ir::NO_PIT))),
            PitExpr::Last => self.push(Op::Reg(Reg::Last)),
            PitExpr::Origin => self.push(Op::Reg(Reg::Origin)),
            PitExpr::Pit => self.push(Op::Reg(Reg::Pit)),
            PitExpr::Store(p) => match &**p {
                PlayerExpr::Player(p) => self.push(Op::Int(i64::from(self.store(*p)))),
                p => {
                    self.who(p);
                    self.unary(Op::Store);
                }
            },
            PitExpr::Opposite(p) => {
                self.place(p);
                self.unary(Op::Opposite);
            }
            PitExpr::Relation(r, p) => {
                self.place(p);
                self.unary(Op::Relation(*r));
            }
            PitExpr::If(c, a, b) => self.branch(c, |g| g.place(a), |g| g.place(b)),
            PitExpr::Leftmost(s) => {
                let i = self.set_index(s);
                self.push(Op::Leftmost(i));
            }
            PitExpr::LapStart => self.push(Op::LapStart),
            PitExpr::FirstLapEnd => self.push(Op::FirstLapEnd),
            PitExpr::Seek(from, s, backward) => {
                self.place(from);
                let i = self.set_index(s);
                self.unary(Op::Seek(i, *backward));
            }
            PitExpr::Rightmost(s) => {
                let i = self.set_index(s);
                self.push(Op::Rightmost(i));
            }
            PitExpr::Memory(r, whose) => self.memory(*r, whose),
            PitExpr::Choose(items, words) => {
                for i in items {
                    self.place(i);
                }
                let w = self.words_index(words);
                self.op(Op::Choose(items.len() as u32, true, w), items.len() as u32);
            }
            PitExpr::ChooseIn(s) => {
                let i = self.set_index(s);
                self.push(Op::ChooseIn(i));
            }
            PitExpr::Along(p, k) => {
                self.place(p);
                self.num(k);
                self.op(Op::Along, 2);
            }
            PitExpr::Of(p, row, number) => {
                self.who(p);
                self.num(row);
                self.num(number);
                self.op(Op::PitOf, 3);
            }
        }
    }

    /// A memory value: whose it is, then the look-up.
    fn memory(&mut self, r: super::ir::MemoryRef, whose: &'e Whose) {
        match whose {
            Whose::Player(p) => self.who(p),
            Whose::Pit(p) => self.place(p),
        }
        self.unary(Op::Memory(r));
    }

    /// A player's store cell.
    fn store(&self, p: Player) -> Cell {
        (self.pits + p.index()) as Cell
    }
}

/// The condition as tests joined all by `and` or all by `or`, if it is one.
fn flat(e: &BoolExpr, pits: usize, sets: &[PitSet]) -> Option<Flat> {
    let mut tests = Vec::new();
    let all = match e {
        BoolExpr::And(..) => true,
        BoolExpr::Or(..) => false,
        _ => true,
    };
    if joined(e, all, pits, sets, &mut tests) {
        Some(Flat { all, tests })
    } else {
        None
    }
}

/// Adds the tests of `e`, joined by `and` (`all`) or `or`, to `tests`; false if `e` is not such a join.
fn joined(e: &BoolExpr, all: bool, pits: usize, sets: &[PitSet], tests: &mut Vec<Test>) -> bool {
    match e {
        BoolExpr::And(a, b) if all => joined(a, all, pits, sets, tests) && joined(b, all, pits, sets, tests),
        BoolExpr::Or(a, b) if !all => joined(a, all, pits, sets, tests) && joined(b, all, pits, sets, tests),
        _ => match test(e, pits, sets) {
            Some(t) => {
                tests.push(specialized(t));
                true
            }
            None => false,
        },
    }
}

/// The condition as one test, if it is one.
fn test(e: &BoolExpr, pits: usize, sets: &[PitSet]) -> Option<Test> {
    let truth = |o: Operand| Some(Test::In(o, 0, 0, false));
    match e {
        BoolExpr::Bool(b) => truth(Operand::Int(i64::from(*b))),
        BoolExpr::Final | BoolExpr::NoMoves | BoolExpr::CanFeed | BoolExpr::Repeated | BoolExpr::Clockwise => {
            truth(Operand::Flag(flag(e)?))
        }
        BoolExpr::Claimed(p) => truth(match at(p, pits)? {
            Place::Reg(r) => Operand::Claimed(r),
            Place::Opposite(r) => Operand::ClaimedOpposite(r),
            _ => return None,
        }),
        BoolExpr::IsStore(p) => truth(match at(p, pits)? {
            Place::Reg(r) => Operand::IsStore(r),
            _ => return None,
        }),
        BoolExpr::Not(x) => match test(x, pits, sets)? {
            Test::Cmp(a, op, b) => Some(Test::Cmp(a, negated(op), b)),
            Test::In(x, lo, hi, inside) => Some(Test::In(x, lo, hi, !inside)),
            Test::Parity(..) => None,
            Test::AnyIn(i, has) => Some(Test::AnyIn(i, !has)),
            // `test` makes only the general shapes; `specialized` the rest.
            _ => None,
        },
        BoolExpr::Compare(op, a, b) => Some(Test::Cmp(operand(a, pits)?, *op, operand(b, pits)?)),
        BoolExpr::CompareInt(op, a, k) => Some(against(operand(a, pits)?, *op, *k)),
        BoolExpr::InRangeInt(x, lo, hi) => Some(Test::In(operand(x, pits)?, *lo, *hi, true)),
        BoolExpr::Parity(x, even) => Some(Test::Parity(operand(x, pits)?, *even)),
        BoolExpr::SamePlayer(a, b, same) => Some(same_as(player_operand(a, pits)?, *same, player_operand(b, pits)?)),
        BoolExpr::SamePit(a, b, same) => Some(same_as(pit_operand(a, pits)?, *same, pit_operand(b, pits)?)),
        // The set's program was made with the condition's, so it is among the condition's sets (an
        // equal one, when the condition names it twice, answers the same).
        BoolExpr::Any(s) => {
            let set = Gen::set(pits, s);
            sets.iter().position(|x| *x == set).map(|i| Test::AnyIn(i as u32, true))
        }
        BoolExpr::Closed(_)
        | BoolExpr::Shared(_)
        | BoolExpr::And(..)
        | BoolExpr::Or(..)
        | BoolExpr::InRange(_)
        | BoolExpr::InSet(..)
        | BoolExpr::CanMove(_)
        | BoolExpr::SameBool(..) => None,
    }
}

/// The test in one step when it has a shape of its own ([`Test::SideIs`], [`Test::CountIn`], ...).
fn specialized(t: Test) -> Test {
    match t {
        Test::Cmp(Operand::Side(r), op @ (CmpOp::Eq | CmpOp::Ne), Operand::Who(w))
        | Test::Cmp(Operand::Who(w), op @ (CmpOp::Eq | CmpOp::Ne), Operand::Side(r)) => Test::SideIs(r, w, op == CmpOp::Eq),
        Test::Cmp(Operand::Reg(r), op @ (CmpOp::Eq | CmpOp::Ne), Operand::StoreOf(w))
        | Test::Cmp(Operand::StoreOf(w), op @ (CmpOp::Eq | CmpOp::Ne), Operand::Reg(r)) => Test::IsStoreOf(r, w, op == CmpOp::Eq),
        Test::In(Operand::Count(r), lo, hi, inside) => Test::CountIn(r, lo, hi, inside),
        Test::In(Operand::Before(r), lo, hi, inside) => Test::BeforeIn(r, lo, hi, inside),
        Test::In(Operand::CountOpposite(r), lo, hi, inside) => Test::OppositeCountIn(r, lo, hi, inside),
        Test::In(Operand::SeedsRow(p), lo, hi, inside) => Test::RowSeedsIn(p, lo, hi, inside),
        Test::Parity(Operand::Count(r), even) => Test::CountEven(r, even),
        Test::Parity(Operand::CountOpposite(r), even) => Test::OppositeCountEven(r, even),
        // Truth values are 0 or 1: outside 0..0 is true, inside it false.
        Test::In(Operand::IsStore(r), 0, 0, inside) => Test::StoreIs(r, !inside),
        Test::In(Operand::Flag(f), 0, 0, inside) => Test::FlagIs(f, !inside),
        t => t,
    }
}

/// The flag a condition is, when it is one.
fn flag(e: &BoolExpr) -> Option<Flag> {
    match e {
        BoolExpr::Final => Some(Flag::Final),
        BoolExpr::NoMoves => Some(Flag::NoMoves),
        BoolExpr::CanFeed => Some(Flag::CanFeed),
        BoolExpr::Repeated => Some(Flag::Repeated),
        BoolExpr::Clockwise => Some(Flag::Clockwise),
        _ => None,
    }
}

/// `x op k` as a range test.
fn against(x: Operand, op: CmpOp, k: i64) -> Test {
    // An empty range for `x < i64::MIN` and `x > i64::MAX`.
    let (lo, hi, inside) = match op {
        CmpOp::Eq => (k, k, true),
        CmpOp::Ne => (k, k, false),
        CmpOp::Lt => k.checked_sub(1).map_or((1, 0, true), |h| (i64::MIN, h, true)),
        CmpOp::Le => (i64::MIN, k, true),
        CmpOp::Gt => k.checked_add(1).map_or((1, 0, true), |l| (l, i64::MAX, true)),
        CmpOp::Ge => (k, i64::MAX, true),
    };
    Test::In(x, lo, hi, inside)
}

/// `a == b` (`same`) or `a != b`, a range test when one side is fixed.
fn same_as(a: Operand, same: bool, b: Operand) -> Test {
    let op = if same { CmpOp::Eq } else { CmpOp::Ne };
    match (a, b) {
        (x, Operand::Int(k)) | (Operand::Int(k), x) => against(x, op, k),
        (a, b) => Test::Cmp(a, op, b),
    }
}

fn negated(op: CmpOp) -> CmpOp {
    match op {
        CmpOp::Eq => CmpOp::Ne,
        CmpOp::Ne => CmpOp::Eq,
        CmpOp::Lt => CmpOp::Ge,
        CmpOp::Le => CmpOp::Gt,
        CmpOp::Gt => CmpOp::Le,
        CmpOp::Ge => CmpOp::Lt,
    }
}

/// A number a test can read directly.
fn operand(e: &IntExpr, pits: usize) -> Option<Operand> {
    Some(match e {
        IntExpr::Int(n) => Operand::Int(*n),
        IntExpr::Lap => Operand::Lap,
        IntExpr::Ply => Operand::Ply,
        IntExpr::Round => Operand::Round,
        IntExpr::Total => Operand::Total(0),
        IntExpr::Shr(x, s) if **x == IntExpr::Total => Operand::Total(*s),
        IntExpr::Count(p) => match at(p, pits)? {
            Place::Reg(r) => Operand::Count(r),
            Place::Opposite(r) => Operand::CountOpposite(r),
            Place::Cell(c) => Operand::CountCell(c),
            Place::StoreOf(w) => Operand::CapturedBy(w),
        },
        IntExpr::Before(p) => match at(p, pits)? {
            Place::Reg(r) => Operand::Before(r),
            Place::Opposite(r) => Operand::BeforeOpposite(r),
            _ => return None,
        },
        IntExpr::Row(p) => match at(p, pits)? {
            Place::Reg(r) => Operand::RowOf(r),
            _ => return None,
        },
        IntExpr::Captured(PlayerExpr::Player(p)) => Operand::CountCell((pits + p.index()) as Cell),
        IntExpr::Captured(p) => Operand::CapturedBy(who_of(p)?),
        IntExpr::Seeds(PlayerExpr::Player(p)) => Operand::SeedsRow(*p),
        IntExpr::Sum(s) if s.row.is_none() && s.filters.is_empty() => Operand::SeedsBoard,
        IntExpr::Seeds(p) => Operand::SeedsOf(who_of(p)?),
        IntExpr::RoundsWon(PlayerExpr::Player(p)) => Operand::RoundsWonBy(*p),
        IntExpr::RoundsWon(p) => Operand::RoundsWon(who_of(p)?),
        _ => return None,
    })
}

/// A player a test can read directly.
fn player_operand(p: &PlayerExpr, pits: usize) -> Option<Operand> {
    Some(match p {
        PlayerExpr::Player(p) => Operand::Int(p.index() as i64),
        PlayerExpr::Side(x) => match at(x, pits)? {
            Place::Reg(r) => Operand::Side(r),
            Place::Opposite(r) => Operand::SideOpposite(r),
            _ => return None,
        },
        _ => Operand::Who(who_of(p)?),
    })
}

/// A pit a test can read directly.
fn pit_operand(p: &PitExpr, pits: usize) -> Option<Operand> {
    Some(match at(p, pits)? {
        Place::Reg(r) => Operand::Reg(r),
        Place::Opposite(r) => Operand::Opposite(r),
        Place::Cell(c) => Operand::Int(i64::from(c)),
        Place::StoreOf(w) => Operand::StoreOf(w),
    })
}

/// Where a pit expression points, for the pits a test names directly.
enum Place {
    Reg(Reg),
    Opposite(Reg),
    Cell(Cell),
    StoreOf(Who),
}

fn at(p: &PitExpr, pits: usize) -> Option<Place> {
    Some(match p {
        PitExpr::Store(w) => match &**w {
            PlayerExpr::Player(p) => Place::Cell((pits + p.index()) as Cell),
            w => Place::StoreOf(who_of(w)?),
        },
        PitExpr::Opposite(x) => Place::Opposite(reg(x)?),
        _ => Place::Reg(reg(p)?),
    })
}

fn who_of(p: &PlayerExpr) -> Option<Who> {
    Some(match p {
        PlayerExpr::Mover => Who::Mover,
        PlayerExpr::Opponent => Who::Opponent,
        PlayerExpr::ToMove => Who::ToMove,
        PlayerExpr::Other(x) if **x == PlayerExpr::ToMove => Who::NotToMove,
        _ => return None,
    })
}

/// The pit as a register of the move, if it is one.
fn reg(p: &PitExpr) -> Option<Reg> {
    match p {
        PitExpr::Last => Some(Reg::Last),
        PitExpr::Origin => Some(Reg::Origin),
        PitExpr::Pit => Some(Reg::Pit),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_comparison_with_a_fixed_number_is_a_range_even_at_the_ends() {
        for k in [i64::MIN, -3, 0, 3, i64::MAX] {
            for op in [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
                let Test::In(_, lo, hi, inside) = against(Operand::Ply, op, k) else {
                    panic!("a range")
                };
                for x in [i64::MIN, i64::MIN + 1, -4, -3, -2, 0, 2, 3, 4, i64::MAX - 1, i64::MAX] {
                    assert_eq!((lo..=hi).contains(&x) == inside, op.holds(x, k), "{x} {op:?} {k}");
                }
            }
        }
    }
    use crate::compile::ir::ArithOp;

    #[test]
    fn common_shapes_take_one_op_and_and_jumps_past_its_right_side() {
        // last.side == opponent and last.count in 2..3
        let e = BoolExpr::And(
            Box::new(BoolExpr::SamePlayer(PlayerExpr::Side(PitExpr::Last), PlayerExpr::Opponent, true)),
            Box::new(BoolExpr::InRangeInt(IntExpr::Count(PitExpr::Last), 2, 3)),
        );
        let code = Gen::bool(6, &e);
        assert_eq!(
            code.ops,
            [
                Op::SideOf(Reg::Last),
                Op::Opponent,
                Op::Cmp(CmpOp::Eq),
                Op::AndThen(6),
                Op::CountOf(Reg::Last),
                Op::InRangeInt(2, 3)
            ]
        );
        assert_eq!(code.depth, 2);
        assert_eq!(
            code.quick,
            Quick::Both(Test::SideIs(Reg::Last, Who::Opponent, true), Test::CountIn(Reg::Last, 2, 3, true))
        );
    }

    #[test]
    fn parity_of_a_pit_or_the_pit_across_is_one_step() {
        // pit.count is even and opposite(pit).count is odd
        let e = BoolExpr::And(
            Box::new(BoolExpr::Parity(IntExpr::Count(PitExpr::Pit), true)),
            Box::new(BoolExpr::Parity(IntExpr::Count(PitExpr::Opposite(Box::new(PitExpr::Pit))), false)),
        );
        assert_eq!(
            Gen::bool(6, &e).quick,
            Quick::Both(Test::CountEven(Reg::Pit, true), Test::OppositeCountEven(Reg::Pit, false))
        );
        // Any other number keeps the general test.
        let e = BoolExpr::Parity(IntExpr::Int(3), true);
        assert_eq!(Gen::bool(6, &e).quick, Quick::One(Test::Parity(Operand::Int(3), true)));
    }

    #[test]
    fn whether_a_set_has_a_pit_is_one_test_of_the_conditions_set() {
        // origin.count == 1 and any(row(mover) where pit.count > 1)
        let set = |row| super::Pits {
            row,
            filters: vec![BoolExpr::CompareInt(CmpOp::Gt, IntExpr::Count(PitExpr::Pit), 1)],
        };
        let e = BoolExpr::And(
            Box::new(BoolExpr::CompareInt(CmpOp::Eq, IntExpr::Count(PitExpr::Origin), 1)),
            Box::new(BoolExpr::Any(Box::new(set(Some(PlayerExpr::Mover))))),
        );
        let code = Gen::bool(6, &e);
        assert_eq!(
            code.quick,
            Quick::Both(Test::CountIn(Reg::Origin, 1, 1, true), Test::AnyIn(0, true))
        );
        assert_eq!(code.sets.len(), 1);
        // not any(board where ...) or not any(row(mover) where ...): the second set is the second.
        let e = BoolExpr::Or(
            Box::new(BoolExpr::Not(Box::new(BoolExpr::Any(Box::new(set(None)))))),
            Box::new(BoolExpr::Not(Box::new(BoolExpr::Any(Box::new(set(Some(PlayerExpr::Mover))))))),
        );
        assert_eq!(Gen::bool(6, &e).quick, Quick::Either(Test::AnyIn(0, false), Test::AnyIn(1, false)));
    }

    #[test]
    fn mixed_and_or_is_not_flat() {
        let e = BoolExpr::And(
            Box::new(BoolExpr::Or(Box::new(BoolExpr::Final), Box::new(BoolExpr::Repeated))),
            Box::new(BoolExpr::NoMoves),
        );
        assert_eq!(Gen::bool(6, &e).quick, Quick::Run);
        let e = BoolExpr::Or(Box::new(BoolExpr::Final), Box::new(BoolExpr::Not(Box::new(BoolExpr::Repeated))));
        assert_eq!(
            Gen::bool(6, &e).quick,
            Quick::Either(Test::FlagIs(Flag::Final, true), Test::FlagIs(Flag::Repeated, false))
        );
    }

    #[test]
    fn a_fixed_players_store_is_a_fixed_cell() {
        let e = BoolExpr::Compare(
            CmpOp::Gt,
            IntExpr::Captured(PlayerExpr::Player(Player::North)),
            IntExpr::Arith(ArithOp::Sub, Box::new(IntExpr::Total), Box::new(IntExpr::Int(1))),
        );
        // Six pits a player: the stores are cells 12 and 13.
        let code = Gen::bool(12, &e);
        assert_eq!(code.ops[0], Op::CountCell(13));
        assert_eq!(code.depth, 3);
    }
}
