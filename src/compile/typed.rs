//! Typing: a lowered [`Expr`] → the typed form its place asks for ([`BoolExpr`], [`IntExpr`],
//! [`PlayerExpr`], [`PitExpr`]), with constants folded and the common shapes (`x == 3`,
//! `x in 2..3`) given their own cheap form.
//!
//! Every expression's type is known from its form. Where a value of another type stands, it reads
//! as the type's default, as the checker's rules leave it: a number 0, a condition false, a player
//! the mover, a pit none. Comparing values of two types gives "different". Expressions have no
//! effects, so folding and reordering never change a result.

use std::cell::Cell;

use super::ir::{Aggregate, ArithOp, BinOp, CmpOp, Expr, MemoryRef, PitField, Relation, SetExpr};
use crate::board::Player;

/// A pit or store named by a rule: a pit-valued [`Expr`], typed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PitExpr {
    /// No pit: what a rule that found none gives ([`NO_PIT`]).
    NoPit,
    /// The last pit of the lap.
    Last,
    /// The origin.
    Origin,
    /// The pit looked at.
    Pit,
    /// `store(P)`.
    Store(Box<PlayerExpr>),
    /// `pit(P, ROW, N)`.
    Of(Box<PlayerExpr>, Box<IntExpr>, Box<IntExpr>),
    /// `opposite(PIT)`.
    Opposite(Box<PitExpr>),
    /// `behind(PIT)`, `next(PIT)`, ...
    Relation(Relation, Box<PitExpr>),
    /// `if C then A else B`.
    If(Box<BoolExpr>, Box<PitExpr>, Box<PitExpr>),
    /// `leftmost(SET)`.
    Leftmost(Box<Pits>),
    /// The pit the current lap started from.
    LapStart,
    /// Where the move's first lap ended.
    FirstLapEnd,
    /// The first pit after (before, with the flag) a pit along the track that is in the set.
    Seek(Box<PitExpr>, Box<Pits>, bool),
    /// `rightmost(SET)`.
    Rightmost(Box<Pits>),
    /// A pit kept in memory.
    Memory(MemoryRef, Box<Whose>),
    /// `PIT + k`, `PIT - k`: k places along the track (back for k below 0).
    Along(Box<PitExpr>, Box<IntExpr>),
    /// `choose(A, B, ..)`: the pit the mover chooses among those listed.
    /// With the words naming the options (none: written as the mover names the pits).
    Choose(Vec<PitExpr>, Vec<String>),
    /// `choose(SET)`: the pit the mover chooses of a set.
    ChooseIn(Box<Pits>),
}

/// Whose memory value is read: a player's or a pit's.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum Whose {
    /// A player's.
    Player(PlayerExpr),
    /// A pit's.
    Pit(PitExpr),
}

/// A player named by a rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum PlayerExpr {
    /// A fixed player.
    Player(Player),
    /// The mover.
    Mover,
    /// The mover's opponent.
    Opponent,
    /// The player to move.
    ToMove,
    /// The player who began the game.
    Starter,
    /// `other(P)`.
    Other(Box<PlayerExpr>),
    /// `PIT.side`.
    Side(PitExpr),
    /// `PIT.owner`.
    Owner(PitExpr),
    /// `if C then A else B`.
    If(Box<BoolExpr>, Box<PlayerExpr>, Box<PlayerExpr>),
}

/// A number computed by a rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum IntExpr {
    /// A number.
    Int(i64),
    /// `PIT.count`.
    Count(PitExpr),
    /// `PIT.before`.
    Before(PitExpr),
    /// `PIT.number`.
    Number(PitExpr),
    /// `PIT.row`.
    Row(PitExpr),
    /// Lap number.
    Lap,
    /// Seeds taken by this move so far.
    Taken,
    /// Seeds picked up to start the current lap.
    Lifted,
    /// Seeds still in hand.
    InHand,
    /// `if C then A else B`.
    If(Box<BoolExpr>, Box<IntExpr>, Box<IntExpr>),
    /// Moves played.
    Ply,
    /// Round number.
    Round,
    /// Moves played in this round.
    RoundPly,
    /// All seeds.
    Total,
    /// `seeds(P)`.
    Seeds(PlayerExpr),
    /// `captured(P)`.
    Captured(PlayerExpr),
    /// `rounds_won(P)`.
    RoundsWon(PlayerExpr),
    /// `size(SET)`.
    Size(Box<Pits>),
    /// `sum(SET)`.
    Sum(Box<Pits>),
    /// `-e`.
    Neg(Box<IntExpr>),
    /// `a op b`.
    Arith(ArithOp, Box<IntExpr>, Box<IntExpr>),
    /// `a / 2^s` (rounding down).
    Shr(Box<IntExpr>, u32),
    /// `a % 2^s` (`a` masked with `2^s - 1`).
    Mask(Box<IntExpr>, i64),
    /// A number kept in memory.
    Memory(MemoryRef, Box<Whose>),
    /// `choose(A, B, ..)`: the number the mover chooses among those listed.
    /// With the words naming the options (none: written as their values).
    Choose(Vec<IntExpr>, Vec<String>),
    /// `choose(LOW..HIGH)`: the number the mover chooses between two.
    ChooseRange(Box<IntExpr>, Box<IntExpr>),
}

/// A condition of a rule.
#[derive(Debug, Clone, PartialEq)]
pub(crate) enum BoolExpr {
    /// A truth value.
    Bool(bool),
    /// The lap's last seed?
    Final,
    /// The player to move has no legal move.
    NoMoves,
    /// The player to move has a legal move that leaves the other player's row with seeds.
    CanFeed,
    /// `can_move(P)`.
    CanMove(PlayerExpr),
    /// The position occurred before.
    Repeated,
    /// The move sows clockwise by choice.
    Clockwise,
    /// `PIT.claimed`.
    Claimed(PitExpr),
    /// `PIT.closed`.
    Closed(PitExpr),
    /// `PIT.shared`.
    Shared(PitExpr),
    /// `PIT.store`.
    IsStore(PitExpr),
    /// `any(SET)`.
    Any(Box<Pits>),
    /// `not e`.
    Not(Box<BoolExpr>),
    /// `a and b`.
    And(Box<BoolExpr>, Box<BoolExpr>),
    /// `a or b`.
    Or(Box<BoolExpr>, Box<BoolExpr>),
    /// Two numbers compared.
    Compare(CmpOp, IntExpr, IntExpr),
    /// A number compared with a fixed one.
    CompareInt(CmpOp, IntExpr, i64),
    /// `e in lo..hi`.
    InRange(Box<(IntExpr, IntExpr, IntExpr)>),
    /// `e in lo..hi` with fixed bounds.
    InRangeInt(IntExpr, i64, i64),
    /// `e in {..}`.
    InSet(IntExpr, Vec<IntExpr>),
    /// `e is even` (true) / odd.
    Parity(IntExpr, bool),
    /// Two players are the same (`true`) / differ (`false`).
    SamePlayer(PlayerExpr, PlayerExpr, bool),
    /// Two pits are the same (`true`) / differ (`false`).
    SamePit(PitExpr, PitExpr, bool),
    /// Two conditions agree (`true`) / differ (`false`).
    SameBool(Box<BoolExpr>, Box<BoolExpr>, bool),
}

/// A set of pits, typed.
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Pits {
    /// `Some(player)` = that row; `None` = the whole board.
    pub row: Option<PlayerExpr>,
    /// `where` filters, applied in order.
    pub filters: Vec<BoolExpr>,
}

/// The type of an expression's value.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ty {
    Int,
    Bool,
    Player,
    Pit,
}

fn ty(e: &Expr) -> Ty {
    match e {
        Expr::If(_, a, _) => ty(a),
        Expr::Choose(items, _) => items.first().map_or(Ty::Int, ty),
        Expr::ChooseIn(_) => Ty::Pit,
        Expr::ChooseRange(..) => Ty::Int,
        Expr::Memory(_, true, _) | Expr::NoPit => Ty::Pit,
        Expr::Memory(_, false, _) => Ty::Int,
        Expr::Int(_)
        | Expr::Lap
        | Expr::Taken
        | Expr::Lifted
        | Expr::InHand
        | Expr::Ply
        | Expr::Round
        | Expr::RoundPly
        | Expr::Total
        | Expr::Seeds(_)
        | Expr::Captured(_)
        | Expr::RoundsWon(_)
        | Expr::Neg(_)
        | Expr::Field(_, PitField::Count | PitField::Before | PitField::Number | PitField::Row)
        | Expr::Aggregate(Aggregate::Size | Aggregate::Sum, _) => Ty::Int,
        Expr::Bool(_)
        | Expr::Final
        | Expr::Clockwise
        | Expr::NoMoves
        | Expr::CanFeed
        | Expr::CanMove(_)
        | Expr::Repeated
        | Expr::Not(_)
        | Expr::InRange(..)
        | Expr::InSet(..)
        | Expr::Parity(..)
        | Expr::Field(_, PitField::Claimed | PitField::Closed | PitField::Store | PitField::Shared)
        | Expr::Aggregate(Aggregate::Any, _) => Ty::Bool,
        Expr::Binary(op, a, _) => match op {
            // `PIT + k`: a pit further along the track.
            BinOp::Add | BinOp::Sub if ty(a) == Ty::Pit => Ty::Pit,
            BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem => Ty::Int,
            _ => Ty::Bool,
        },
        Expr::Player(_)
        | Expr::Mover
        | Expr::Opponent
        | Expr::ToMove
        | Expr::Starter
        | Expr::Other(_)
        | Expr::Field(_, PitField::Side | PitField::Owner) => Ty::Player,
        Expr::Last
        | Expr::Origin
        | Expr::Pit
        | Expr::Opposite(_)
        | Expr::Relation(..)
        | Expr::Store(_)
        | Expr::PitOf(..)
        | Expr::LapStart
        | Expr::FirstLapEnd
        | Expr::Seek(..)
        | Expr::Aggregate(Aggregate::Leftmost | Aggregate::Rightmost, _) => Ty::Pit,
    }
}

/// Are `a` and `b` the two players, whoever moves?
fn complementary(a: &PlayerExpr, b: &PlayerExpr) -> bool {
    use PlayerExpr::{Mover, Opponent, Other, Player as Fixed};
    match (a, b) {
        (Fixed(x), Fixed(y)) => x != y,
        (Mover, Opponent) | (Opponent, Mover) => true,
        (x, Other(y)) | (Other(y), x) => **y == *x,
        _ => false,
    }
}

/// Types expressions and notes what the game's rules read.
#[derive(Debug, Default)]
pub(crate) struct Typer {
    /// Some expression reads `repeated`.
    pub repeated: Cell<bool>,
    /// Some expression reads a pit's count `before` the latest seed.
    pub before: Cell<bool>,
    /// Some expression reads `ply`.
    pub ply: Cell<bool>,
    /// Some expression reads `round_ply`.
    pub round_ply: Cell<bool>,
    /// Some expression reads the round number `round` or `rounds_won`.
    pub round: Cell<bool>,
    /// Some expression reads `total`.
    pub total: Cell<bool>,
    /// Some expression reads a store's seeds (`captured(P)`, `store(P).count`) or the total: a
    /// position's future may then depend on how the seeds taken are split.
    pub stores: Cell<bool>,
    /// Some expression reads `starter`.
    pub starter: Cell<bool>,
    /// Some expression asks the mover to choose.
    pub chooses: Cell<bool>,
    /// Some expression read while sowing reads `lap` or `taken`, which only grow during a move (the
    /// lowering of a `forbid` or an `after move` rule, read once the sowing is over, puts it back).
    pub counters: Cell<bool>,
    /// The numbers rules read while sowing compare `lap` with (`lap == 1`, `lap > 3`): past the
    /// largest a lap can reach, the rules cannot tell one lap from the next, so a loop is still seen
    /// there (a number past the relay limit tells no laps apart).
    pub lap_seen: std::cell::RefCell<Vec<i64>>,
    /// The largest number a rule read while sowing compares `taken` with, once one does (`taken >
    /// 0`): the rules can tell apart only the values up to one past it, so the loop watch compares
    /// `taken` cut off there.
    pub taken_seen: Cell<Option<i64>>,
    /// Every pit is one player's (no shared pit, no store in a pit's place): the two players' seeds
    /// together are then the board's, and `seeds(south) + seeds(north)` is read as `sum(board)`,
    /// the one form the fast form and the evaluator's quick tests know.
    pub every_pit_sided: bool,
}

impl Typer {
    /// A condition.
    pub fn bool(&self, e: &Expr) -> BoolExpr {
        if ty(e) != Ty::Bool {
            return BoolExpr::Bool(false);
        }
        match e {
            Expr::Bool(b) => BoolExpr::Bool(*b),
            Expr::Final => BoolExpr::Final,
            Expr::Clockwise => BoolExpr::Clockwise,
            Expr::NoMoves => BoolExpr::NoMoves,
            Expr::CanFeed => BoolExpr::CanFeed,
            Expr::CanMove(p) => BoolExpr::CanMove(self.player(p)),
            Expr::Repeated => {
                self.repeated.set(true);
                BoolExpr::Repeated
            }
            Expr::Field(p, PitField::Claimed) => BoolExpr::Claimed(self.pit(p)),
            Expr::Field(p, PitField::Closed) => BoolExpr::Closed(self.pit(p)),
            Expr::Field(p, PitField::Shared) => BoolExpr::Shared(self.pit(p)),
            Expr::Field(p, _) => BoolExpr::IsStore(self.pit(p)),
            Expr::Aggregate(_, set) => BoolExpr::Any(Box::new(self.set(set))),
            Expr::Not(x) => match self.bool(x) {
                BoolExpr::Bool(b) => BoolExpr::Bool(!b),
                x => BoolExpr::Not(Box::new(x)),
            },
            Expr::Binary(BinOp::And, a, b) => match (self.bool(a), self.bool(b)) {
                (BoolExpr::Bool(false), _) | (_, BoolExpr::Bool(false)) => BoolExpr::Bool(false),
                (BoolExpr::Bool(true), x) | (x, BoolExpr::Bool(true)) => x,
                (a, b) => BoolExpr::And(Box::new(a), Box::new(b)),
            },
            Expr::Binary(BinOp::Or, a, b) => match (self.bool(a), self.bool(b)) {
                (BoolExpr::Bool(true), _) | (_, BoolExpr::Bool(true)) => BoolExpr::Bool(true),
                (BoolExpr::Bool(false), x) | (x, BoolExpr::Bool(false)) => x,
                (a, b) => BoolExpr::Or(Box::new(a), Box::new(b)),
            },
            Expr::Binary(op @ (BinOp::Eq | BinOp::Ne), a, b) => {
                let same = *op == BinOp::Eq;
                if ty(a) != ty(b) {
                    return BoolExpr::Bool(!same);
                }
                match ty(a) {
                    Ty::Int => {
                        let (a, b) = self.operands(a, b);
                        compare(if same { CmpOp::Eq } else { CmpOp::Ne }, a, b)
                    }
                    Ty::Bool => match (self.bool(a), self.bool(b)) {
                        (BoolExpr::Bool(x), BoolExpr::Bool(y)) => BoolExpr::Bool((x == y) == same),
                        (a, b) => BoolExpr::SameBool(Box::new(a), Box::new(b), same),
                    },
                    Ty::Player => match (self.player(a), self.player(b)) {
                        (PlayerExpr::Player(x), PlayerExpr::Player(y)) => BoolExpr::Bool((x == y) == same),
                        (a, b) => BoolExpr::SamePlayer(a, b, same),
                    },
                    Ty::Pit => BoolExpr::SamePit(self.pit(a), self.pit(b), same),
                }
            }
            Expr::Binary(op, a, b) => {
                let op = match op {
                    BinOp::Lt => CmpOp::Lt,
                    BinOp::Le => CmpOp::Le,
                    BinOp::Gt => CmpOp::Gt,
                    _ => CmpOp::Ge,
                };
                let (a, b) = self.operands(a, b);
                compare(op, a, b)
            }
            Expr::InRange(x, lo, hi) => match (
                self.bounded(x, &[lo, hi]).unwrap_or_else(|| self.int(x)),
                self.int(lo),
                self.int(hi),
            ) {
                (IntExpr::Int(v), IntExpr::Int(lo), IntExpr::Int(hi)) => BoolExpr::Bool(lo <= v && v <= hi),
                (x, IntExpr::Int(lo), IntExpr::Int(hi)) => BoolExpr::InRangeInt(x, lo, hi),
                (x, lo, hi) => BoolExpr::InRange(Box::new((x, lo, hi))),
            },
            Expr::InSet(x, items) => {
                let against: Vec<&Expr> = items.iter().collect();
                let x = self.bounded(x, &against).unwrap_or_else(|| self.int(x));
                BoolExpr::InSet(x, items.iter().map(|i| self.int(i)).collect())
            }
            // A chosen truth value is one of two conditions, each with its own.
            Expr::If(c, a, b) => {
                let not_c = Expr::Not(c.clone());
                let either = Expr::Binary(
                    BinOp::Or,
                    Box::new(Expr::Binary(BinOp::And, c.clone(), a.clone())),
                    Box::new(Expr::Binary(BinOp::And, Box::new(not_c), b.clone())),
                );
                self.bool(&either)
            }
            Expr::Parity(x, even) => match self.int(x) {
                IntExpr::Int(v) => BoolExpr::Bool((v % 2 == 0) == *even),
                x => BoolExpr::Parity(x, *even),
            },
            _ => unreachable!("ty() said this is a condition"),
        }
    }

    /// The two sides of a comparison of numbers: see [`Typer::bounded`].
    fn operands(&self, a: &Expr, b: &Expr) -> (IntExpr, IntExpr) {
        if let Some(a) = self.bounded(a, &[b]) {
            return (a, self.int(b));
        }
        if let Some(b) = self.bounded(b, &[a]) {
            return (self.int(a), b);
        }
        (self.int(a), self.int(b))
    }

    /// `lap` or `taken` itself compared with numbers known before the game (`lap == 1`, `taken in
    /// 1..3`): a rule reading it so tells apart only its values up to the largest of them, which is
    /// noted, and the loop watch stays on (any other reading turns it off: see `counters`).
    fn bounded(&self, x: &Expr, against: &[&Expr]) -> Option<IntExpr> {
        let (typed, seen) = match x {
            Expr::Lap => (IntExpr::Lap, None),
            Expr::Taken => (IntExpr::Taken, Some(())),
            _ => return None,
        };
        let mut most = 0i64;
        for e in against {
            match self.int(e) {
                IntExpr::Int(v) => most = most.max(v),
                _ => return None,
            }
        }
        match seen {
            None => self.lap_seen.borrow_mut().push(most),
            Some(()) => self.taken_seen.set(Some(self.taken_seen.get().unwrap_or(0).max(most))),
        }
        Some(typed)
    }

    /// A number.
    pub fn int(&self, e: &Expr) -> IntExpr {
        if ty(e) != Ty::Int {
            return IntExpr::Int(0);
        }
        match e {
            Expr::Int(n) => IntExpr::Int(*n),
            Expr::Lap => {
                self.counters.set(true);
                IntExpr::Lap
            }
            Expr::If(c, a, b) => match self.bool(c) {
                BoolExpr::Bool(true) => self.int(a),
                BoolExpr::Bool(false) => self.int(b),
                c => IntExpr::If(Box::new(c), Box::new(self.int(a)), Box::new(self.int(b))),
            },
            Expr::Taken => {
                self.counters.set(true);
                IntExpr::Taken
            }
            Expr::Lifted => IntExpr::Lifted,
            Expr::InHand => IntExpr::InHand,
            Expr::Ply => {
                self.ply.set(true);
                IntExpr::Ply
            }
            Expr::Round => {
                self.round.set(true);
                IntExpr::Round
            }
            Expr::RoundPly => {
                // A position is then told apart by its move number too, as with `ply`.
                self.ply.set(true);
                self.round_ply.set(true);
                IntExpr::RoundPly
            }
            Expr::Total => {
                self.total.set(true);
                self.stores.set(true);
                IntExpr::Total
            }
            Expr::Seeds(p) => IntExpr::Seeds(self.player(p)),
            Expr::Captured(p) => {
                self.stores.set(true);
                IntExpr::Captured(self.player(p))
            }
            Expr::RoundsWon(p) => {
                self.round.set(true);
                IntExpr::RoundsWon(self.player(p))
            }
            Expr::Field(p, PitField::Count) => {
                if matches!(**p, Expr::Store(_)) {
                    self.stores.set(true);
                }
                IntExpr::Count(self.pit(p))
            }
            Expr::Field(p, PitField::Before) => {
                self.before.set(true);
                IntExpr::Before(self.pit(p))
            }
            Expr::Field(p, PitField::Row) => IntExpr::Row(self.pit(p)),
            Expr::Field(p, _) => IntExpr::Number(self.pit(p)),
            Expr::Memory(r, _, whose) => IntExpr::Memory(*r, Box::new(self.whose(*r, whose))),
            Expr::Choose(items, words) => {
                self.chooses.set(true);
                IntExpr::Choose(items.iter().map(|i| self.int(i)).collect(), words.clone())
            }
            Expr::ChooseRange(lo, hi) => {
                self.chooses.set(true);
                IntExpr::ChooseRange(Box::new(self.int(lo)), Box::new(self.int(hi)))
            }
            Expr::Aggregate(Aggregate::Size, set) => IntExpr::Size(Box::new(self.set(set))),
            Expr::Aggregate(_, set) => IntExpr::Sum(Box::new(self.set(set))),
            Expr::Neg(x) => match self.int(x) {
                IntExpr::Int(n) => IntExpr::Int(n.saturating_neg()),
                x => IntExpr::Neg(Box::new(x)),
            },
            Expr::Binary(op, a, b) => {
                let op = match op {
                    BinOp::Add => ArithOp::Add,
                    BinOp::Sub => ArithOp::Sub,
                    BinOp::Mul => ArithOp::Mul,
                    BinOp::Div => ArithOp::Div,
                    _ => ArithOp::Rem,
                };
                match (self.int(a), self.int(b)) {
                    (IntExpr::Int(x), IntExpr::Int(y)) => IntExpr::Int(op.apply(x, y)),
                    // Rounding down, a division by 2^s is a shift and its remainder a mask.
                    (a, IntExpr::Int(k)) if op == ArithOp::Div && k > 0 && (k as u64).is_power_of_two() => {
                        IntExpr::Shr(Box::new(a), k.trailing_zeros())
                    }
                    (a, IntExpr::Int(k)) if op == ArithOp::Rem && k > 0 && (k as u64).is_power_of_two() => {
                        IntExpr::Mask(Box::new(a), k - 1)
                    }
                    (IntExpr::Seeds(x), IntExpr::Seeds(y)) if op == ArithOp::Add && self.every_pit_sided && complementary(&x, &y) => {
                        IntExpr::Sum(Box::new(Pits {
                            row: None,
                            filters: Vec::new(),
                        }))
                    }
                    (a, b) => IntExpr::Arith(op, Box::new(a), Box::new(b)),
                }
            }
            _ => unreachable!("ty() said this is a number"),
        }
    }

    /// A player.
    pub fn player(&self, e: &Expr) -> PlayerExpr {
        if ty(e) != Ty::Player {
            return PlayerExpr::Mover;
        }
        match e {
            Expr::Player(p) => PlayerExpr::Player(*p),
            Expr::Mover => PlayerExpr::Mover,
            Expr::Opponent => PlayerExpr::Opponent,
            Expr::ToMove => PlayerExpr::ToMove,
            Expr::If(c, a, b) => match self.bool(c) {
                BoolExpr::Bool(true) => self.player(a),
                BoolExpr::Bool(false) => self.player(b),
                c => PlayerExpr::If(Box::new(c), Box::new(self.player(a)), Box::new(self.player(b))),
            },
            Expr::Starter => {
                self.starter.set(true);
                PlayerExpr::Starter
            }
            Expr::Other(p) => match self.player(p) {
                PlayerExpr::Player(p) => PlayerExpr::Player(p.other()),
                PlayerExpr::Mover => PlayerExpr::Opponent,
                PlayerExpr::Opponent => PlayerExpr::Mover,
                p => PlayerExpr::Other(Box::new(p)),
            },
            Expr::Field(p, PitField::Side) => PlayerExpr::Side(self.pit(p)),
            Expr::Field(p, _) => PlayerExpr::Owner(self.pit(p)),
            _ => unreachable!("ty() said this is a player"),
        }
    }

    /// A pit.
    pub fn pit(&self, e: &Expr) -> PitExpr {
        if ty(e) != Ty::Pit {
            return PitExpr::NoPit;
        }
        match e {
            Expr::Last => PitExpr::Last,
            Expr::If(c, a, b) => match self.bool(c) {
                BoolExpr::Bool(true) => self.pit(a),
                BoolExpr::Bool(false) => self.pit(b),
                c => PitExpr::If(Box::new(c), Box::new(self.pit(a)), Box::new(self.pit(b))),
            },
            Expr::Origin => PitExpr::Origin,
            Expr::Pit => PitExpr::Pit,
            Expr::Store(p) => PitExpr::Store(Box::new(self.player(p))),
            Expr::PitOf(p, row, number) => PitExpr::Of(Box::new(self.player(p)), Box::new(self.int(row)), Box::new(self.int(number))),
            Expr::Opposite(p) => match self.pit(p) {
                PitExpr::NoPit => PitExpr::NoPit,
                p => PitExpr::Opposite(Box::new(p)),
            },
            Expr::Relation(r, p) => match self.pit(p) {
                PitExpr::NoPit => PitExpr::NoPit,
                p => PitExpr::Relation(*r, Box::new(p)),
            },
            Expr::Binary(op, p, k) => {
                let k = match op {
                    BinOp::Sub => match self.int(k) {
                        IntExpr::Int(n) => IntExpr::Int(n.saturating_neg()),
                        k => IntExpr::Neg(Box::new(k)),
                    },
                    _ => self.int(k),
                };
                match (self.pit(p), k) {
                    (PitExpr::NoPit, _) => PitExpr::NoPit,
                    (p, IntExpr::Int(0)) => p,
                    (p, k) => PitExpr::Along(Box::new(p), Box::new(k)),
                }
            }
            Expr::Aggregate(Aggregate::Leftmost, set) => PitExpr::Leftmost(Box::new(self.set(set))),
            Expr::LapStart => PitExpr::LapStart,
            Expr::FirstLapEnd => PitExpr::FirstLapEnd,
            Expr::Seek(from, set, backward) => PitExpr::Seek(Box::new(self.pit(from)), Box::new(self.set(set)), *backward),
            Expr::Aggregate(_, set) => PitExpr::Rightmost(Box::new(self.set(set))),
            Expr::NoPit => PitExpr::NoPit,
            Expr::Memory(r, _, whose) => PitExpr::Memory(*r, Box::new(self.whose(*r, whose))),
            Expr::Choose(..) | Expr::ChooseIn(_) => {
                self.chooses.set(true);
                self.chosen_pit(e)
            }
            _ => unreachable!("ty() said this is a pit"),
        }
    }

    fn chosen_pit(&self, e: &Expr) -> PitExpr {
        match e {
            Expr::Choose(items, words) => PitExpr::Choose(items.iter().map(|i| self.pit(i)).collect(), words.clone()),
            Expr::ChooseIn(set) => PitExpr::ChooseIn(Box::new(self.set(set))),
            _ => unreachable!("ty() said this is a pit"),
        }
    }

    /// Whose memory value `r` is read: the player or the pit `e`.
    pub fn whose(&self, r: MemoryRef, e: &Expr) -> Whose {
        if r.per_pit {
            Whose::Pit(self.pit(e))
        } else {
            Whose::Player(self.player(e))
        }
    }

    /// A set of pits.
    pub fn set(&self, s: &SetExpr) -> Pits {
        Pits {
            row: s.row.as_ref().map(|r| self.player(r)),
            filters: s.filters.iter().map(|f| self.bool(f)).collect(),
        }
    }
}

/// `a op b` on numbers, with a fixed side moved to the right.
fn compare(op: CmpOp, a: IntExpr, b: IntExpr) -> BoolExpr {
    match (a, b) {
        (IntExpr::Int(x), IntExpr::Int(y)) => BoolExpr::Bool(op.holds(x, y)),
        (a, IntExpr::Int(k)) => BoolExpr::CompareInt(op, a, k),
        (IntExpr::Int(k), b) => BoolExpr::CompareInt(op.swapped(), b, k),
        (a, b) => BoolExpr::Compare(op, a, b),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_shift_and_a_mask_round_down_like_euclid() {
        for x in -40i64..40 {
            for s in 0..4 {
                assert_eq!(x >> s, x.div_euclid(1 << s));
                assert_eq!(x & ((1 << s) - 1), x.rem_euclid(1 << s));
            }
        }
    }

    use super::*;
    use crate::board::Player;

    fn b(x: Expr) -> Box<Expr> {
        Box::new(x)
    }

    #[test]
    fn constants_fold_and_a_fixed_side_moves_right() {
        let t = Typer::default();
        let half = Expr::Binary(BinOp::Div, b(Expr::Int(48)), b(Expr::Int(2)));
        assert_eq!(t.int(&half), IntExpr::Int(24));
        let e = Expr::Binary(BinOp::Lt, b(Expr::Int(3)), b(Expr::Ply));
        assert_eq!(t.bool(&e), BoolExpr::CompareInt(CmpOp::Gt, IntExpr::Ply, 3));
        let e = Expr::InRange(b(Expr::Field(b(Expr::Last), PitField::Count)), b(Expr::Int(2)), b(Expr::Int(3)));
        assert_eq!(t.bool(&e), BoolExpr::InRangeInt(IntExpr::Count(PitExpr::Last), 2, 3));
        let e = Expr::Binary(BinOp::And, b(Expr::Bool(true)), b(Expr::Final));
        assert_eq!(t.bool(&e), BoolExpr::Final);
        assert_eq!(t.int(&Expr::Binary(BinOp::Div, b(Expr::Int(1)), b(Expr::Int(0)))), IntExpr::Int(0));
        let half_ply = Expr::Binary(BinOp::Div, b(Expr::Ply), b(Expr::Int(4)));
        assert_eq!(t.int(&half_ply), IntExpr::Shr(Box::new(IntExpr::Ply), 2));
        let odd = Expr::Binary(BinOp::Rem, b(Expr::Ply), b(Expr::Int(2)));
        assert_eq!(t.int(&odd), IntExpr::Mask(Box::new(IntExpr::Ply), 1));
    }

    /// The two players' seeds together are the board's only where every pit is one player's.
    #[test]
    fn both_players_seeds_are_the_board_where_every_pit_is_one_players() {
        let seeds = |p: Expr| Expr::Seeds(b(p));
        let both = [
            (Expr::Player(Player::South), Expr::Player(Player::North)),
            (Expr::Opponent, Expr::Mover),
            (Expr::ToMove, Expr::Other(b(Expr::ToMove))),
            (Expr::Other(b(Expr::Mover)), Expr::Mover),
        ];
        let board = IntExpr::Sum(Box::new(Pits {
            row: None,
            filters: Vec::new(),
        }));
        let sided = Typer {
            every_pit_sided: true,
            ..Typer::default()
        };
        let shared = Typer::default();
        for (x, y) in both {
            let sum = Expr::Binary(BinOp::Add, b(seeds(x)), b(seeds(y)));
            assert_eq!(sided.int(&sum), board, "{sum:?}");
            assert!(matches!(shared.int(&sum), IntExpr::Arith(ArithOp::Add, ..)), "{sum:?}");
        }
        // One player twice, or a difference, is not the board.
        for e in [
            Expr::Binary(BinOp::Add, b(seeds(Expr::Mover)), b(seeds(Expr::Mover))),
            Expr::Binary(BinOp::Sub, b(seeds(Expr::Mover)), b(seeds(Expr::Opponent))),
            Expr::Binary(BinOp::Add, b(seeds(Expr::ToMove)), b(seeds(Expr::Mover))),
        ] {
            assert!(matches!(sided.int(&e), IntExpr::Arith(..)), "{e:?}");
        }
    }

    #[test]
    fn a_value_of_another_type_reads_as_the_default() {
        let t = Typer::default();
        assert_eq!(t.int(&Expr::Final), IntExpr::Int(0));
        assert_eq!(t.bool(&Expr::Ply), BoolExpr::Bool(false));
        assert_eq!(t.player(&Expr::Ply), PlayerExpr::Mover);
        assert_eq!(t.pit(&Expr::Mover), PitExpr::NoPit);
        // A player and a number are never equal.
        assert_eq!(
            t.bool(&Expr::Binary(BinOp::Eq, b(Expr::Mover), b(Expr::Int(0)))),
            BoolExpr::Bool(false)
        );
        assert_eq!(
            t.bool(&Expr::Binary(BinOp::Ne, b(Expr::Mover), b(Expr::Int(0)))),
            BoolExpr::Bool(true)
        );
        assert_eq!(
            t.player(&Expr::Other(b(Expr::Player(Player::South)))),
            PlayerExpr::Player(Player::North)
        );
    }

    #[test]
    fn the_typer_notes_repeated_and_before() {
        let t = Typer::default();
        t.bool(&Expr::Binary(BinOp::Or, b(Expr::Repeated), b(Expr::Final)));
        assert!(t.repeated.get() && !t.before.get());
        t.int(&Expr::Field(b(Expr::Last), PitField::Before));
        assert!(t.before.get());
    }
}
