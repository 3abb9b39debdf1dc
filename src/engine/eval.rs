//! Evaluating rule expressions against a position and the state of the move in progress.

use super::{Board, Cell, Game, Player};
use crate::compile::ir::{Aggregate, BinOp, Expr, NO_PIT, PitField, SetExpr};

/// A value of an expression.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Value {
    Int(i64),
    Bool(bool),
    Player(Player),
    Pit(Cell),
}

/// Everything an expression may ask about.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub game: &'a Game,
    pub board: &'a Board,
    /// Per cell, the count before the latest seed fell in during this move (`None` = no move).
    pub before: Option<&'a [u32]>,
    pub mover: Player,
    pub to_move: Player,
    pub last: Cell,
    pub origin: Cell,
    pub pit: Cell,
    pub final_seed: bool,
    pub lap: u32,
    pub ply: u32,
    pub round: u32,
    pub rounds_won: [u32; 2],
    pub no_moves: bool,
    pub can_feed: bool,
    pub repeated: bool,
}

impl<'a> Ctx<'a> {
    pub fn new(game: &'a Game, board: &'a Board, mover: Player) -> Self {
        Ctx {
            game,
            board,
            before: None,
            mover,
            to_move: mover,
            last: NO_PIT,
            origin: NO_PIT,
            pit: NO_PIT,
            final_seed: false,
            lap: 0,
            ply: 0,
            round: 1,
            rounds_won: [0, 0],
            no_moves: false,
            can_feed: false,
            repeated: false,
        }
    }

    pub fn bool(&self, e: &Expr) -> bool {
        matches!(self.eval(e), Value::Bool(true))
    }
    pub fn int(&self, e: &Expr) -> i64 {
        match self.eval(e) {
            Value::Int(n) => n,
            _ => 0,
        }
    }
    pub fn player(&self, e: &Expr) -> Player {
        match self.eval(e) {
            Value::Player(p) => p,
            _ => self.mover,
        }
    }
    pub fn pit(&self, e: &Expr) -> Cell {
        match self.eval(e) {
            Value::Pit(c) => c,
            _ => NO_PIT,
        }
    }

    fn count(&self, c: Cell) -> u32 {
        self.board.cells.get(c as usize).copied().unwrap_or(0)
    }

    fn field(&self, c: Cell, f: PitField) -> Value {
        let g = self.game;
        if c == NO_PIT {
            return match f {
                PitField::Count | PitField::Before | PitField::Number => Value::Int(0),
                PitField::Side | PitField::Owner => Value::Player(self.mover),
                _ => Value::Bool(false),
            };
        }
        match f {
            PitField::Count => Value::Int(i64::from(self.count(c))),
            PitField::Before => Value::Int(i64::from(
                self.before
                    .and_then(|b| b.get(c as usize).copied())
                    .unwrap_or_else(|| self.count(c)),
            )),
            PitField::Number => Value::Int(g.number(c) as i64),
            PitField::Side => Value::Player(g.side(c)),
            PitField::Owner => Value::Player(g.owner(self.board, c)),
            PitField::Claimed => Value::Bool(self.board.claimed.get(c as usize).copied().flatten().is_some()),
            PitField::Closed => Value::Bool(self.board.closed.get(c as usize).copied().unwrap_or(false)),
            PitField::Store => Value::Bool(g.is_store(c)),
        }
    }

    /// Calls `f` on every pit of the set, in the order of the row's player's numbering.
    pub fn each_in_set(&self, set: &SetExpr, mut f: impl FnMut(Cell) -> bool) {
        let range = match &set.row {
            Some(p) => self.game.row(self.player(p)),
            None => 0..self.game.pit_count(),
        };
        for c in range {
            let c = c as Cell;
            let inner = Ctx { pit: c, ..*self };
            if set.filters.iter().all(|cond| inner.bool(cond)) && !f(c) {
                return;
            }
        }
    }

    pub fn eval(&self, e: &Expr) -> Value {
        use Value::*;
        match e {
            Expr::Int(n) => Int(*n),
            Expr::Bool(b) => Bool(*b),
            Expr::Player(p) => Player(*p),
            Expr::Mover => Player(self.mover),
            Expr::Opponent => Player(self.mover.other()),
            Expr::ToMove => Player(self.to_move),
            Expr::Last => Pit(self.last),
            Expr::Origin => Pit(self.origin),
            Expr::Pit => Pit(self.pit),
            Expr::Final => Bool(self.final_seed),
            Expr::Lap => Int(i64::from(self.lap)),
            Expr::Ply => Int(i64::from(self.ply)),
            Expr::Round => Int(i64::from(self.round)),
            Expr::Total => Int(self.board.cells.iter().map(|&c| i64::from(c)).sum()),
            Expr::NoMoves => Bool(self.no_moves),
            Expr::CanFeed => Bool(self.can_feed),
            Expr::Repeated => Bool(self.repeated),
            Expr::Other(p) => Player(self.player(p).other()),
            Expr::Opposite(p) => {
                let c = self.pit(p);
                Pit(if c == NO_PIT { NO_PIT } else { self.game.opposite(c) })
            }
            Expr::Store(p) => Pit(self.game.store(self.player(p))),
            Expr::Seeds(p) => Int(i64::from(self.game.row_seeds(self.board, self.player(p)))),
            Expr::Captured(p) => Int(i64::from(self.count(self.game.store(self.player(p))))),
            Expr::RoundsWon(p) => Int(i64::from(self.rounds_won[self.player(p).index()])),
            Expr::Field(p, f) => self.field(self.pit(p), *f),
            Expr::Aggregate(agg, set) => {
                let mut n = 0i64;
                let mut sum = 0i64;
                let mut first = NO_PIT;
                let mut latest = NO_PIT;
                let stop_at_first = *agg == Aggregate::Any;
                self.each_in_set(set, |c| {
                    n += 1;
                    sum += i64::from(self.count(c));
                    if first == NO_PIT {
                        first = c;
                    }
                    latest = c;
                    !stop_at_first
                });
                match agg {
                    Aggregate::Any => Bool(n > 0),
                    Aggregate::Size => Int(n),
                    Aggregate::Sum => Int(sum),
                    Aggregate::Leftmost => Pit(first),
                    Aggregate::Rightmost => Pit(latest),
                }
            }
            Expr::Neg(x) => Int(self.int(x).saturating_neg()),
            Expr::Not(x) => Bool(!self.bool(x)),
            Expr::Binary(op, a, b) => match op {
                BinOp::Or => Bool(self.bool(a) || self.bool(b)),
                BinOp::And => Bool(self.bool(a) && self.bool(b)),
                BinOp::Eq => Bool(self.eval(a) == self.eval(b)),
                BinOp::Ne => Bool(self.eval(a) != self.eval(b)),
                _ => {
                    let (x, y) = (self.int(a), self.int(b));
                    match op {
                        BinOp::Lt => Bool(x < y),
                        BinOp::Le => Bool(x <= y),
                        BinOp::Gt => Bool(x > y),
                        BinOp::Ge => Bool(x >= y),
                        BinOp::Add => Int(x.saturating_add(y)),
                        BinOp::Sub => Int(x.saturating_sub(y)),
                        BinOp::Mul => Int(x.saturating_mul(y)),
                        // Division by zero has no sensible count; it gives 0 rather than stopping the game.
                        // (`checked_`: the smallest number divided by -1 overflows; it gives 0 as well.)
                        BinOp::Div => Int(x.checked_div_euclid(y).unwrap_or(0)),
                        _ => Int(x.checked_rem_euclid(y).unwrap_or(0)),
                    }
                }
            },
            Expr::InRange(x, lo, hi) => {
                let v = self.int(x);
                Bool(self.int(lo) <= v && v <= self.int(hi))
            }
            Expr::InSet(x, items) => {
                let v = self.int(x);
                Bool(items.iter().any(|i| self.int(i) == v))
            }
            Expr::Parity(x, even) => Bool((self.int(x) % 2 == 0) == *even),
        }
    }
}
