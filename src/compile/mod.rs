//! Stage 3, compile: a [`Checked`] program → the engine's [`ir::Game`]. Names become enum variants,
//! parameters are folded in, phases are completed from the usual rules. Every check has already
//! passed, so nothing here can fail.

pub mod ir;

use crate::check::{Checked, limits};
use crate::engine::Player;
use crate::syntax::ast::{self, ExprKind, Item, ItemKind};
use ir::*;

/// Compiles a checked program.
pub fn compile(checked: &Checked) -> Game {
    let items = &checked.program.items;
    let params = &checked.params;
    let lower = Lower { params };
    let name = items
        .iter()
        .find_map(|i| match &i.kind {
            ItemKind::Game(n) => Some(n.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let first = items
        .iter()
        .find_map(|i| match i.kind {
            ItemKind::First(ast::PlayerLit::North) => Some(Player::North),
            ItemKind::First(ast::PlayerLit::South) => Some(Player::South),
            _ => None,
        })
        .unwrap_or(Player::South);
    let stores_sown = items.iter().any(|i| matches!(i.kind, ItemKind::BoardStores(ast::StoreMode::Sown)));
    let base = lower.phase(String::new(), None, items, None);
    let mut phases: Vec<Phase> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Phase(name, cond, inner) => Some(lower.phase(name.node.clone(), Some(lower.expr(cond)), inner, Some(&base))),
            _ => None,
        })
        .collect();
    phases.push(base);
    let triggers = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Trigger(def) => Some(lower.rule(def)),
            _ => None,
        })
        .collect();
    let feeding = items.iter().find_map(|i| match &i.kind {
        ItemKind::Feeding(None) => Some(Feeding::Required),
        ItemKind::Feeding(Some(p)) => Some(Feeding::Penalty(lower.expr(p))),
        _ => None,
    });
    let grand_slam = items.iter().find_map(|i| match i.kind {
        ItemKind::GrandSlam(ast::GrandSlam::CaptureNothing) => Some(GrandSlam::CaptureNothing),
        ItemKind::GrandSlam(ast::GrandSlam::Forbidden) => Some(GrandSlam::Forbidden),
        ItemKind::GrandSlam(ast::GrandSlam::Allowed(b)) => Some(GrandSlam::Allowed(b)),
        _ => None,
    });
    let ends = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::End(name, cond, remaining) => Some(EndRule {
                name: name.node.clone(),
                when: lower.expr(cond),
                remaining: match remaining {
                    None | Some(ast::Remaining::Uncounted) => Remaining::Uncounted,
                    Some(ast::Remaining::Owner) => Remaining::Owner,
                    Some(ast::Remaining::To(p)) => Remaining::To(lower.expr(p)),
                    Some(ast::Remaining::Split) => Remaining::Split,
                    Some(ast::Remaining::InPlace) => Remaining::InPlace,
                },
            }),
            _ => None,
        })
        .collect();
    let rounds = items.iter().any(|i| matches!(i.kind, ItemKind::Rounds)).then(|| Rounds {
        match_ends: items
            .iter()
            .find_map(|i| match &i.kind {
                ItemKind::MatchEnds(e) => Some(lower.expr(e)),
                _ => None,
            })
            .unwrap_or(Expr::Bool(true)),
        by_rounds: !items
            .iter()
            .any(|i| matches!(i.kind, ItemKind::MatchWinner(ast::MatchMeasure::Seeds))),
        fill: checked.fill,
        deal: items.iter().any(|i| matches!(i.kind, ItemKind::SetupDeal)),
        keep_claims: items.iter().any(|i| matches!(i.kind, ItemKind::SetupKeepClaims)),
    });
    let uses_claims = uses(items, &|a| matches!(a, ast::Action::Claim(..)));
    let uses_closed = checked.fill.is_some();
    let uses_can_feed = items.iter().any(|i| matches!(&i.kind, ItemKind::End(_, cond, _) if mentions(cond, "can_feed")));
    Game {
        name,
        pits: checked.pits,
        stores_sown,
        total: checked.initial.iter().sum(),
        initial: checked.initial.clone(),
        first,
        phases,
        triggers,
        feeding,
        grand_slam,
        ends,
        rounds,
        uses_claims,
        uses_closed,
        uses_can_feed,
    }
}

fn uses(items: &[Item], pred: &dyn Fn(&ast::Action) -> bool) -> bool {
    items.iter().any(|i| match &i.kind {
        ItemKind::Trigger(d) | ItemKind::Capture(d) => d.actions.iter().any(|a| pred(&a.node)),
        ItemKind::Phase(_, _, inner) => uses(inner, pred),
        _ => false,
    })
}

struct Lower<'a> {
    params: &'a [(String, i64)],
}

impl Lower<'_> {
    fn phase(&self, name: String, when: Option<Expr>, items: &[Item], base: Option<&Phase>) -> Phase {
        let mut sow = base.map(|b| b.sow.clone()).unwrap_or(Sow {
            ccw: true,
            skip_origin: false,
            into_own_store: false,
            relay: None,
            relay_limit: limits::DEFAULT_RELAY_LIMIT,
        });
        let mut forbids = base.map(|b| b.forbids.clone()).unwrap_or_default();
        let mut captures = Vec::new();
        let mut replaces_captures = base.is_none();
        for item in items {
            match &item.kind {
                ItemKind::SowDirection(d) => sow.ccw = *d == ast::Direction::Ccw,
                ItemKind::SowSkipOrigin => sow.skip_origin = true,
                ItemKind::SowIntoStore => sow.into_own_store = true,
                ItemKind::SowRelay(e) => sow.relay = Some(self.expr(e)),
                ItemKind::SowRelayLimit(e) => sow.relay_limit = self.int(e) as u32,
                ItemKind::Forbid(reason, cond) => forbids.push(Forbid {
                    reason: reason.node.clone(),
                    when: self.expr(cond),
                }),
                ItemKind::Capture(def) => {
                    replaces_captures = true;
                    captures.push(self.rule(def));
                }
                ItemKind::NoCaptures => replaces_captures = true,
                _ => {}
            }
        }
        if !replaces_captures && let Some(b) = base {
            captures = b.captures.clone();
        }
        Phase {
            name,
            when,
            sow,
            forbids,
            captures,
        }
    }

    fn int(&self, e: &ast::Expr) -> i64 {
        match self.expr(e) {
            Expr::Int(n) => n,
            _ => unreachable!("check evaluated this expression statically"),
        }
    }

    fn rule(&self, def: &ast::RuleDef) -> Rule {
        let mut actions: Vec<Action> = Vec::new();
        let mut then = Then::Continue;
        for a in &def.actions {
            match &a.node {
                ast::Action::Take(pits, to) => actions.push(Action::Take {
                    pits: pits.iter().map(|p| self.pits(p)).collect(),
                    to: match to {
                        None => Receiver::Player(Expr::Mover),
                        Some(ast::Receiver::Owner) => Receiver::Owner,
                        Some(ast::Receiver::Player(p)) => Receiver::Player(self.expr(p)),
                    },
                    series: None,
                }),
                ast::Action::Series(dir, cond) => {
                    if let Some(Action::Take { series, .. }) = actions.iter_mut().rev().find(|a| matches!(a, Action::Take { .. })) {
                        *series = Some((*dir == ast::SeriesDir::Forward, self.expr(cond)));
                    }
                }
                ast::Action::Move(n, from, to) => actions.push(Action::Move {
                    count: self.expr(n),
                    from: self.expr(from),
                    to: self.expr(to),
                }),
                ast::Action::Claim(pits, p) => actions.push(Action::Claim {
                    pits: pits.iter().map(|x| self.pits(x)).collect(),
                    player: self.expr(p),
                }),
                ast::Action::Then(t) => {
                    then = match t {
                        ast::Then::End => Then::End,
                        ast::Then::Continue => Then::Continue,
                        ast::Then::AnotherMove => Then::AnotherMove,
                    }
                }
            }
        }
        Rule {
            name: def.name.node.clone(),
            when: self.expr(&def.when),
            actions,
            then,
        }
    }

    fn pits(&self, e: &ast::Expr) -> PitsExpr {
        if is_set(e) {
            PitsExpr::Set(self.set(e))
        } else {
            PitsExpr::Pit(self.expr(e))
        }
    }

    fn set(&self, e: &ast::Expr) -> SetExpr {
        match &e.kind {
            ExprKind::Where(base, cond) => {
                let mut s = self.set(base);
                s.filters.push(self.expr(cond));
                s
            }
            ExprKind::Call(name, args) if name.node == "row" => SetExpr {
                row: Some(Box::new(self.expr(&args[0]))),
                filters: vec![],
            },
            _ => SetExpr {
                row: None,
                filters: vec![],
            },
        }
    }

    fn expr(&self, e: &ast::Expr) -> Expr {
        let b = |x: &ast::Expr| Box::new(self.expr(x));
        match &e.kind {
            ExprKind::Int(n) => Expr::Int(*n),
            ExprKind::Name(n) => match n.as_str() {
                "south" => Expr::Player(Player::South),
                "north" => Expr::Player(Player::North),
                "mover" => Expr::Mover,
                "opponent" => Expr::Opponent,
                "to_move" => Expr::ToMove,
                "last" => Expr::Last,
                "origin" => Expr::Origin,
                "pit" => Expr::Pit,
                "final" => Expr::Final,
                "lap" => Expr::Lap,
                "ply" => Expr::Ply,
                "round" => Expr::Round,
                "total" => Expr::Total,
                "no_moves" => Expr::NoMoves,
                "can_feed" => Expr::CanFeed,
                "repeated" => Expr::Repeated,
                _ => Expr::Int(self.params.iter().find(|(p, _)| p == n).map_or(0, |(_, v)| *v)),
            },
            ExprKind::Call(name, args) => match name.node.as_str() {
                "opposite" => Expr::Opposite(b(&args[0])),
                "store" => Expr::Store(b(&args[0])),
                "other" => Expr::Other(b(&args[0])),
                "seeds" => Expr::Seeds(b(&args[0])),
                "captured" => Expr::Captured(b(&args[0])),
                "rounds_won" => Expr::RoundsWon(b(&args[0])),
                f => {
                    let agg = match f {
                        "any" => Aggregate::Any,
                        "size" => Aggregate::Size,
                        "sum" => Aggregate::Sum,
                        "leftmost" => Aggregate::Leftmost,
                        _ => Aggregate::Rightmost,
                    };
                    Expr::Aggregate(agg, Box::new(self.set(&args[0])))
                }
            },
            ExprKind::Field(base, field) => Expr::Field(
                b(base),
                match field.node.as_str() {
                    "count" => PitField::Count,
                    "before" => PitField::Before,
                    "number" => PitField::Number,
                    "side" => PitField::Side,
                    "owner" => PitField::Owner,
                    "claimed" => PitField::Claimed,
                    "closed" => PitField::Closed,
                    _ => PitField::Store,
                },
            ),
            ExprKind::Neg(x) => Expr::Neg(b(x)),
            ExprKind::Not(x) => Expr::Not(b(x)),
            ExprKind::Binary(op, x, y) => Expr::Binary(
                match op {
                    ast::BinOp::Or => BinOp::Or,
                    ast::BinOp::And => BinOp::And,
                    ast::BinOp::Eq => BinOp::Eq,
                    ast::BinOp::Ne => BinOp::Ne,
                    ast::BinOp::Lt => BinOp::Lt,
                    ast::BinOp::Le => BinOp::Le,
                    ast::BinOp::Gt => BinOp::Gt,
                    ast::BinOp::Ge => BinOp::Ge,
                    ast::BinOp::Add => BinOp::Add,
                    ast::BinOp::Sub => BinOp::Sub,
                    ast::BinOp::Mul => BinOp::Mul,
                    ast::BinOp::Div => BinOp::Div,
                    ast::BinOp::Rem => BinOp::Rem,
                },
                b(x),
                b(y),
            ),
            ExprKind::InRange(x, lo, hi) => Expr::InRange(b(x), b(lo), b(hi)),
            ExprKind::InSet(x, items) => Expr::InSet(b(x), items.iter().map(|i| self.expr(i)).collect()),
            ExprKind::Parity(x, even) => Expr::Parity(b(x), *even),
            // A set used where a value is expected was rejected by check; as a pit list it is
            // handled by `pits`.
            ExprKind::Where(..) => Expr::Bool(false),
        }
    }
}

/// Does the expression use the name `name` anywhere?
fn mentions(e: &ast::Expr, name: &str) -> bool {
    match &e.kind {
        ExprKind::Name(n) => n == name,
        ExprKind::Int(_) => false,
        ExprKind::Call(_, args) => args.iter().any(|a| mentions(a, name)),
        ExprKind::Field(b, _) | ExprKind::Neg(b) | ExprKind::Not(b) | ExprKind::Parity(b, _) => mentions(b, name),
        ExprKind::Binary(_, a, b) | ExprKind::Where(a, b) => mentions(a, name) || mentions(b, name),
        ExprKind::InRange(a, b, c) => mentions(a, name) || mentions(b, name) || mentions(c, name),
        ExprKind::InSet(a, items) => mentions(a, name) || items.iter().any(|i| mentions(i, name)),
    }
}

fn is_set(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Where(..) => true,
        ExprKind::Name(n) => n == "board",
        ExprKind::Call(name, _) => name.node == "row",
        _ => false,
    }
}
