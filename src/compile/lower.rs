//! Lowering a checked program's items into the engine's IR: expressions, conditions, rules and
//! phases (`compile` sets up a [`Lower`] with the board's shape and reads the items through it).

use super::codegen::Gen;
use super::ir::*;
use super::may_be_store;
use super::typed::{self, Typer};
use crate::board::Player;
use crate::check::limits;
use crate::syntax::ast::{self, ExprKind, Item, ItemKind};

pub(super) struct Lower<'a> {
    pub(super) params: &'a [(String, i64)],
    /// Pits of one player, every row: the stores' cells follow them.
    pub(super) pits: usize,
    /// Rows each player has (`back` is the last).
    pub(super) rows: usize,
    pub(super) typer: Typer,
    /// `last` may be a store.
    pub(super) sows_into_store: bool,
    /// Some `move` action may take seeds out of a store.
    pub(super) takes_from_store: std::cell::Cell<bool>,
    /// Some capture rule's or relay rule's condition reads `before` (the typer's flag notes the
    /// other reads).
    pub(super) before_at_lap_end: std::cell::Cell<bool>,
    /// The values of `memory { }`.
    pub(super) memory: Vec<MemorySlot>,
    /// The tracks declared by name (`track "NAME" = ...`).
    pub(super) tracks: Vec<(String, Vec<ast::TrackPiece>)>,
    /// The end rules `end game | round` actions carry out, in the order met.
    pub(super) stated_ends: std::cell::RefCell<Vec<EndRule>>,
}

impl Lower<'_> {
    /// An end rule: an `end` item's (whose condition is `when`), or the one an `end game | round`
    /// action carries out (`when` true; `whole_game`: a match of rounds ends with it).
    pub(super) fn end_rule(
        &self,
        name: &str,
        when: Expr,
        remaining: Option<&ast::Remaining>,
        from: Option<&ast::Expr>,
        result: Option<&ast::EndResult>,
        whole_game: bool,
    ) -> EndRule {
        let asks_can_feed = when.mentions(&|e| matches!(e, Expr::CanFeed));
        EndRule {
            name: name.into(),
            asks_moves: asks_can_feed || when.mentions(&|e| matches!(e, Expr::NoMoves)),
            asks_can_feed,
            reads_repeated: when.mentions(&|e| matches!(e, Expr::Repeated)),
            reads_only_stores: !when.mentions(&|e| match e {
                Expr::Captured(who) => !matches!(**who, Expr::Player(_)),
                _ => !matches!(
                    e,
                    Expr::Int(_)
                        | Expr::Bool(_)
                        | Expr::Player(_)
                        | Expr::Total
                        | Expr::Neg(_)
                        | Expr::Not(_)
                        | Expr::Binary(..)
                        | Expr::InRange(..)
                        | Expr::InSet(..)
                ),
            }),
            when: Gen::bool(self.pits, &self.typer.bool(&when)),
            result: result.map(|r| match r {
                ast::EndResult::Winner(p) => EndResult::Winner(self.player(p)),
                ast::EndResult::Loser(p) => EndResult::Loser(self.player(p)),
                ast::EndResult::Draw => EndResult::Draw,
            }),
            test: EndTest::General,
            store_table: Default::default(),
            remaining_from: from.map(|pits| self.pits(pits)),
            remaining: match remaining {
                None | Some(ast::Remaining::Uncounted) => Remaining::Uncounted,
                Some(ast::Remaining::Owner) => Remaining::Owner,
                Some(ast::Remaining::To(p)) => Remaining::To(self.player(p)),
                Some(ast::Remaining::Split) => Remaining::Split,
                Some(ast::Remaining::InPlace) => Remaining::InPlace,
            },
            whole_game,
        }
        .with_test()
    }

    /// Where each value of `memory { }` lies, and every value at the start.
    pub(super) fn memory_layout(&self, items: &[Item]) -> (Vec<MemorySlot>, Vec<i64>) {
        let mut slots = Vec::new();
        let mut start = Vec::new();
        for item in items {
            let ItemKind::Memory(slot) = &item.kind else { continue };
            let holds_pit = matches!(&slot.start.kind, ExprKind::Name(n) if n == "no_pit");
            let first = if holds_pit {
                i64::from(NO_PIT)
            } else {
                match self.typer.int(&self.expr(&slot.start)) {
                    typed::IntExpr::Int(n) => n,
                    _ => unreachable!("check evaluated the start statically"),
                }
            };
            let per_pit = slot.owner.node == ast::MemoryOwner::Pit;
            let whole_game = slot.owner.node == ast::MemoryOwner::Game;
            let at = MemoryRef {
                offset: start.len() as u32,
                per_pit,
                whole_game,
            };
            let values = match (per_pit, whole_game) {
                (true, _) => 2 * self.pits,
                (_, true) => 1,
                _ => 2,
            };
            start.extend(std::iter::repeat_n(first, values));
            slots.push(MemorySlot {
                name: slot.name.node.clone(),
                at,
                holds_pit,
            });
        }
        (slots, start)
    }

    /// A condition, typed.
    pub(super) fn cond(&self, e: &ast::Expr) -> Code {
        Gen::bool(self.pits, &self.typer.bool(&self.expr(e)))
    }

    /// A condition read at a lap's end before any action (a capture rule's, the relay rule's): its
    /// reads of `before` are noted apart, since they may be answered from `last`'s count
    /// (`before::read_as_count`).
    fn lap_end_cond(&self, e: &ast::Expr) -> Code {
        Gen::bool(self.pits, &self.lap_end_typed(e))
    }

    /// [`Lower::lap_end_cond`] typed, not lowered.
    fn lap_end_typed(&self, e: &ast::Expr) -> typed::BoolExpr {
        let elsewhere = self.typer.before.replace(false);
        let typed = self.typer.bool(&self.expr(e));
        let here = self.typer.before.replace(elsewhere);
        self.before_at_lap_end.set(self.before_at_lap_end.get() || here);
        typed
    }

    /// A player, typed.
    /// Lowers what is read once a move's sowing is over (a `forbid`, an `after move` rule): its
    /// reading `lap` or `taken` does not count as the sowing's.
    fn after_sowing<T>(&self, lower: impl FnOnce(&Self) -> T) -> T {
        let before = (
            self.typer.counters.get(),
            self.typer.lap_seen.borrow().len(),
            self.typer.taken_seen.get(),
        );
        let lowered = lower(self);
        self.typer.counters.set(before.0);
        self.typer.lap_seen.borrow_mut().truncate(before.1);
        self.typer.taken_seen.set(before.2);
        lowered
    }

    pub(super) fn player(&self, e: &ast::Expr) -> Code {
        Gen::player(self.pits, &self.typer.player(&self.expr(e)))
    }

    pub(super) fn phase(&self, name: String, when: Option<Code>, items: &[Item], base: Option<&Phase>) -> Phase {
        let mut sow = base.map(|b| b.sow.clone()).unwrap_or(Sow {
            ccw: true,
            either: false,
            from_store: None,
            skip_origin: false,
            into_own_store: false,
            into_both_stores: false,
            skip: None,
            own_track: self.rows > 1,
            path: None,
            relay: None,
            relay_from: None,
            start_in_origin: None,
            lift: None,
            special_start: false,
            relay_limit: None,
            lap_cap: limits::DEFAULT_RELAY_LIMIT,
            watch_loops: true,
            lap_seen: 0,
            taken_seen: None,
        });
        let mut forbids = base.map(|b| b.forbids.clone()).unwrap_or_default();
        let mut passes = base.map(|b| b.passes.clone()).unwrap_or_default();
        let mut captures = Vec::new();
        let mut replaces_captures = base.is_none();
        let mut captures_required = base.is_some_and(|b| b.captures_required);
        let mut optional = false;
        let mut after_moves = Vec::new();
        // The capture rules' conditions typed, for the openings they share.
        let mut capture_conditions = Vec::new();
        // The rules of the other moments, by moment: the phase's own first, then the usual ones.
        let mut moments: [Vec<Rule>; 3] = Default::default();
        let mut sows_nothing = false;
        let mut after_moves_choose = false;
        for item in items {
            match &item.kind {
                ItemKind::SowDirection(d) => {
                    sow.ccw = *d != ast::Direction::Cw;
                    sow.either = *d == ast::Direction::Either;
                }
                ItemKind::SowSkipOrigin => sow.skip_origin = true,
                ItemKind::SowIntoStore(both) => {
                    sow.into_own_store = !both;
                    sow.into_both_stores = *both;
                }
                ItemKind::SowSkipWhen(e) => sow.skip = Some(Skip::Each(self.cond(e))),
                ItemKind::SowTrack(kind) => {
                    sow.own_track = *kind == ast::TrackKind::Own;
                    sow.path = match kind {
                        ast::TrackKind::Path(pieces) => Some(pieces.clone()),
                        ast::TrackKind::Named(name) => {
                            let declared = self.tracks.iter().find(|(n, _)| *n == name.node);
                            Some(declared.expect("checked: the track is declared").1.clone())
                        }
                        _ => None,
                    };
                }
                ItemKind::SowFromStore(e) => sow.from_store = Some(self.int(e) as u32),
                ItemKind::CapturesRequired => captures_required = true,
                ItemKind::PhaseOptional => optional = true,
                ItemKind::SowRelay(e) => sow.relay = Some(self.lap_end_cond(e)),
                ItemKind::SowRelayFrom(e) => sow.relay_from = Some(Gen::pit(self.pits, &self.typer.pit(&self.expr(e)))),
                ItemKind::SowRelayNever => {
                    sow.relay = None;
                    sow.relay_from = None;
                }
                ItemKind::SowStartInOrigin(cond) => {
                    sow.start_in_origin = Some(cond.as_ref().map_or_else(|| Code::constant(1), |c| self.cond(c)));
                }
                ItemKind::SowRelayLimit(e) => sow.relay_limit = Some(self.int(e) as u32),
                ItemKind::SowLift(e) => sow.lift = Some(Gen::int(self.pits, &self.typer.int(&self.expr(e)))),
                // A forbid is read before the move or once its sowing is over: what it reads of
                // `lap` and `taken` does not steer a sowing.
                ItemKind::ForbidAfter(reason, cond) => forbids.push(Forbid {
                    reason: reason.node.clone(),
                    when: self.after_sowing(|l| l.cond(cond)),
                    after: true,
                }),
                // The phase sets aside a usual forbid (check made sure one has the name).
                ItemKind::Drop(ast::DropKind::Forbid, name) => forbids.retain(|f| f.reason != name.node),
                ItemKind::Forbid(reason, cond) => forbids.push(Forbid {
                    reason: reason.node.clone(),
                    when: self.after_sowing(|l| l.cond(cond)),
                    after: mentions(cond, "taken") || mentions(cond, "lap") || mentions(cond, "lifted"),
                }),
                ItemKind::Capture(def) => {
                    replaces_captures = true;
                    let mut typed = None;
                    captures.push(self.rule_read_at(def, |l| Gen::bool(l.pits, typed.insert(l.lap_end_typed(&def.when)))));
                    capture_conditions.push(typed.expect("the condition was lowered"));
                }
                ItemKind::NoCaptures => replaces_captures = true,
                ItemKind::AfterMove(def) => {
                    // Whether this rule chooses, the game's flag kept as it was.
                    let chose_before = self.typer.chooses.replace(false);
                    after_moves.push(self.after_sowing(|l| l.rule(def)));
                    after_moves_choose |= self.typer.chooses.get();
                    self.typer.chooses.set(chose_before || self.typer.chooses.get());
                }
                // A round's start and end are no moment of a move: the game keeps those rules.
                ItemKind::At(ast::Moment::RoundStart | ast::Moment::RoundEnd, _) => {}
                ItemKind::At(moment, def) => {
                    let chose_before = self.typer.chooses.replace(false);
                    moments[*moment as usize].push(self.rule(def));
                    after_moves_choose |= self.typer.chooses.get();
                    self.typer.chooses.set(chose_before || self.typer.chooses.get());
                }
                ItemKind::NoSowing => sows_nothing = true,
                ItemKind::PassWhen(cond) => passes.push(self.cond(cond)),
                _ => {}
            }
        }
        if !replaces_captures && let Some(b) = base {
            captures = b.captures.clone();
        } else {
            super::guard::share_heads(&mut captures, &capture_conditions, self.pits);
        }
        if let Some(b) = base {
            after_moves.extend(b.after_moves.iter().cloned());
            after_moves_choose |= b.after_moves_choose;
            for (own, usual) in moments.iter_mut().zip([&b.turn_starts, &b.lap_ends, &b.after_captures]) {
                own.extend(usual.iter().cloned());
            }
        }
        let [turn_starts, lap_ends, after_captures] = moments;
        if sows_nothing {
            // Nothing is picked up, so nothing of the usual first lap is left to say.
            captures.clear();
            sow.from_store = None;
            sow.lift = None;
            sow.start_in_origin = None;
        }
        Phase {
            name,
            when,
            sow,
            judges_outcome: forbids.iter().any(|f| f.after),
            captures_required,
            optional,
            passes,
            sows_to_judge: false,
            forbids,
            captures,
            after_moves,
            turn_starts,
            lap_ends,
            after_captures,
            sows_nothing,
            after_moves_choose,
            after_moves_only_remember: false,
            tracks: Default::default(),
            cw_tracks: Default::default(),
            capture_at: Default::default(),
        }
    }

    fn int(&self, e: &ast::Expr) -> i64 {
        match self.expr(e) {
            Expr::Int(n) => n,
            _ => unreachable!("check evaluated this expression statically"),
        }
    }

    pub(super) fn rule(&self, def: &ast::RuleDef) -> Rule {
        self.rule_read_at(def, |l| l.cond(&def.when))
    }

    /// A rule whose condition `when` lowers.
    fn rule_read_at(&self, def: &ast::RuleDef, when: impl FnOnce(&Self) -> Code) -> Rule {
        let mut actions: Vec<Action> = Vec::new();
        let mut then = Then::Continue;
        // A rule that sows its seeds again takes them into the mover's hand, not to a store.
        let sows_again = def.actions.iter().any(|a| matches!(a.node, ast::Action::SowTaken(_)));
        for a in &def.actions {
            match &a.node {
                ast::Action::Take(pits, to) => actions.push(Action::Take {
                    pits: pits.iter().map(|p| self.pits(p)).collect(),
                    to: match to {
                        _ if sows_again => Receiver::Hand,
                        None => Receiver::Player(Gen::player(self.pits, &typed::PlayerExpr::Mover)),
                        Some(ast::Receiver::Owner) => Receiver::Owner,
                        Some(ast::Receiver::Player(p)) => Receiver::Player(self.player(p)),
                    },
                    series: None,
                }),
                ast::Action::Series(def) => {
                    if def.with_stores.is_some() {
                        // The walk may take a store's seeds: stores no longer only grow.
                        self.takes_from_store.set(true);
                    }
                    if let Some(Action::Take { series, .. }) = actions.iter_mut().rev().find(|a| matches!(a, Action::Take { .. })) {
                        let cap = |unit| match &def.cap {
                            Some((n, u)) if *u == unit => u32::try_from(self.int(n)).unwrap_or(u32::MAX),
                            _ => u32::MAX,
                        };
                        let (backward, forward) = (def.dir != ast::SeriesDir::Forward, def.dir != ast::SeriesDir::Backward);
                        let (max_pits, max_seeds) = (cap(ast::CapUnit::Pits), cap(ast::CapUnit::Seeds));
                        *series = Some(Series {
                            backward,
                            forward,
                            every_other: def.every_other,
                            with_stores: def.with_stores.is_some(),
                            cond: self.cond(&def.cond),
                            with_opposite: def.with_opposite,
                            max_pits,
                            max_seeds,
                            plain: backward != forward
                                && !def.every_other
                                && def.with_stores.is_none()
                                && !def.with_opposite
                                && max_pits == u32::MAX
                                && max_seeds == u32::MAX,
                        });
                    }
                }
                ast::Action::Move(m) => {
                    for from in m.from.iter().filter(|p| !is_set(p)) {
                        if may_be_store(&self.typer.pit(&self.expr(from)), self.sows_into_store) {
                            self.takes_from_store.set(true);
                        }
                    }
                    actions.push(Action::Move {
                        count: m.count.as_ref().map(|n| Gen::int(self.pits, &self.typer.int(&self.expr(n)))),
                        from: m.from.iter().map(|p| self.pits(p)).collect(),
                        to: Gen::pit(self.pits, &self.typer.pit(&self.expr(&m.to))),
                    })
                }
                ast::Action::Claim(pits, p) => actions.push(Action::Claim {
                    pits: pits.iter().map(|x| self.pits(x)).collect(),
                    player: self.player(p),
                }),
                ast::Action::TakeSome(count, pit, to) => {
                    if may_be_store(&self.typer.pit(&self.expr(pit)), self.sows_into_store) {
                        self.takes_from_store.set(true);
                    }
                    actions.push(Action::TakeSome {
                        count: Gen::int(self.pits, &self.typer.int(&self.expr(count))),
                        pit: Gen::pit(self.pits, &self.typer.pit(&self.expr(pit))),
                        to: match to {
                            _ if sows_again => Receiver::Hand,
                            None => Receiver::Player(Gen::player(self.pits, &typed::PlayerExpr::Mover)),
                            Some(ast::Receiver::Owner) => Receiver::Owner,
                            Some(ast::Receiver::Player(p)) => Receiver::Player(self.player(p)),
                        },
                    })
                }
                ast::Action::Close(pits, closing) => actions.push(Action::Close {
                    pits: pits.iter().map(|x| self.pits(x)).collect(),
                    closing: *closing,
                }),
                ast::Action::SowTaken(again) | ast::Action::SowFrom(again) => actions.push(Action::SowTaken {
                    lift: matches!(a.node, ast::Action::SowFrom(_)),
                    pit: again.pit.as_ref().map(|p| Gen::pit(self.pits, &self.typer.pit(&self.expr(p)))),
                    after: again.after,
                    cw: again
                        .direction
                        .as_ref()
                        .filter(|d| d.node != ast::Direction::Either)
                        .map(|d| d.node == ast::Direction::Cw),
                    chosen_way: again.direction.as_ref().is_some_and(|d| d.node == ast::Direction::Either),
                }),
                ast::Action::Set(target, value) | ast::Action::Add(value, target) => {
                    let ExprKind::Field(whose, name) = &target.kind else {
                        unreachable!("check accepts only memory as a target")
                    };
                    let slot = self
                        .memory
                        .iter()
                        .position(|m| m.name == name.node)
                        .expect("check accepts only declared memory");
                    let m = &self.memory[slot];
                    let owner = if m.at.whole_game {
                        Gen::player(self.pits, &typed::PlayerExpr::Player(Player::South))
                    } else if m.at.per_pit {
                        Gen::pit(self.pits, &self.typer.pit(&self.expr(whose)))
                    } else {
                        Gen::player(self.pits, &self.typer.player(&self.expr(whose)))
                    };
                    let value = if m.holds_pit {
                        Gen::pit(self.pits, &self.typer.pit(&self.expr(value)))
                    } else {
                        Gen::int(self.pits, &self.typer.int(&self.expr(value)))
                    };
                    actions.push(Action::Remember {
                        slot,
                        owner,
                        value,
                        add: matches!(a.node, ast::Action::Add(..)),
                    });
                }
                ast::Action::End(end) => {
                    let mut stated = self.stated_ends.borrow_mut();
                    stated.push(self.end_rule(
                        &def.name.node,
                        Expr::Bool(true),
                        end.remaining.as_ref(),
                        end.from.as_deref(),
                        end.result.as_ref(),
                        end.whole_game,
                    ));
                    then = Then::EndGame((stated.len() - 1) as u16);
                }
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
            when: when(self),
            reads_board: Rule::reads_board_in_actions(&actions),
            quick: Rule::quick_actions(&actions),
            // Known once every rule is read (whether the file has a `choose`).
            one_choice: false,
            guard: None,
            actions,
            then,
        }
    }

    fn pits(&self, e: &ast::Expr) -> PitsExpr {
        if is_set(e) {
            PitsExpr::Set(Gen::set(self.pits, &self.typer.set(&self.set(e))))
        } else {
            PitsExpr::Pit(Gen::pit(self.pits, &self.typer.pit(&self.expr(e))))
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

    pub(super) fn expr(&self, e: &ast::Expr) -> Expr {
        let b = |x: &ast::Expr| Box::new(self.expr(x));
        match &e.kind {
            ExprKind::Int(n) => Expr::Int(*n),
            ExprKind::Name(n) => match n.as_str() {
                "south" => Expr::Player(Player::South),
                "north" => Expr::Player(Player::North),
                "mover" => Expr::Mover,
                "opponent" => Expr::Opponent,
                "to_move" => Expr::ToMove,
                "starter" => Expr::Starter,
                "last" => Expr::Last,
                "origin" => Expr::Origin,
                "pit" => Expr::Pit,
                "final" => Expr::Final,
                "lap" => Expr::Lap,
                "taken" => Expr::Taken,
                "lifted" => Expr::Lifted,
                "in_hand" => Expr::InHand,
                "lap_start" => Expr::LapStart,
                "first_lap_end" => Expr::FirstLapEnd,
                "clockwise" => Expr::Clockwise,
                "ply" => Expr::Ply,
                "round" => Expr::Round,
                "round_ply" => Expr::RoundPly,
                "total" => Expr::Total,
                "no_moves" => Expr::NoMoves,
                "can_feed" => Expr::CanFeed,
                "repeated" => Expr::Repeated,
                "no_pit" => Expr::NoPit,
                "true" => Expr::Bool(true),
                "false" => Expr::Bool(false),
                "front" => Expr::Int(1),
                "back" => Expr::Int(self.rows as i64),
                _ => Expr::Int(self.params.iter().find(|(p, _)| p == n).map_or(0, |(_, v)| *v)),
            },
            ExprKind::Call(name, args) => match name.node.as_str() {
                "opposite" => Expr::Opposite(b(&args[0])),
                "behind" => Expr::Relation(Relation::Behind, b(&args[0])),
                "in_front" => Expr::Relation(Relation::InFront, b(&args[0])),
                "next" | "previous" if let ExprKind::Where(from, _) = &args[0].kind => {
                    let mut set = self.set(&args[0]);
                    set.row = None;
                    Expr::Seek(b(from), Box::new(set), name.node == "previous")
                }
                // `check` let a second argument through only as the word `any`.
                "next" if args.len() == 2 => Expr::Relation(Relation::NextAny, b(&args[0])),
                "previous" if args.len() == 2 => Expr::Relation(Relation::PreviousAny, b(&args[0])),
                "next" => Expr::Relation(Relation::Next, b(&args[0])),
                "previous" => Expr::Relation(Relation::Previous, b(&args[0])),
                "store" => Expr::Store(b(&args[0])),
                "pit" => {
                    let (row, number) = match args.as_slice() {
                        [_, row, number] => (b(row), b(number)),
                        _ => (Box::new(Expr::Int(1)), b(&args[1])),
                    };
                    Expr::PitOf(b(&args[0]), row, number)
                }
                "other" => Expr::Other(b(&args[0])),
                "seeds" => Expr::Seeds(b(&args[0])),
                "can_move" => Expr::CanMove(b(&args[0])),
                "captured" => Expr::Captured(b(&args[0])),
                "rounds_won" => Expr::RoundsWon(b(&args[0])),
                "choose" if args.len() == 1 && is_set(&args[0]) => Expr::ChooseIn(Box::new(self.set(&args[0]))),
                "choose" => {
                    // The words of named options (`1 as "stop"`); check has seen that all or none have one.
                    let words = args
                        .iter()
                        .filter_map(|a| match &a.kind {
                            ExprKind::Labelled(_, w) => Some(w.node.clone()),
                            _ => None,
                        })
                        .collect();
                    Expr::Choose(args.iter().map(|a| self.expr(a)).collect(), words)
                }
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
            ExprKind::Field(base, field) if let Some(m) = self.memory.iter().find(|m| m.name == field.node) => {
                // A value kept for the whole game has one owner: the game (read as south's place).
                let owner = if m.at.whole_game {
                    Box::new(Expr::Player(Player::South))
                } else {
                    b(base)
                };
                Expr::Memory(m.at, m.holds_pit, owner)
            }
            ExprKind::Field(base, field) => Expr::Field(
                b(base),
                match field.node.as_str() {
                    "count" => PitField::Count,
                    "before" => PitField::Before,
                    "number" => PitField::Number,
                    "row" => PitField::Row,
                    "side" => PitField::Side,
                    "owner" => PitField::Owner,
                    "claimed" => PitField::Claimed,
                    "closed" => PitField::Closed,
                    "shared" => PitField::Shared,
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
            ExprKind::If(c, x, y) => Expr::If(b(c), b(x), b(y)),
            ExprKind::ChooseRange(lo, hi) => Expr::ChooseRange(b(lo), b(hi)),
            // A named option of `choose` is its value; the word was read with the choice.
            ExprKind::Labelled(value, _) => self.expr(value),
            // A set used where a value is expected was rejected by check; as a pit list it is
            // handled by `pits`.
            ExprKind::Where(..) => Expr::Bool(false),
        }
    }
}

/// Does the expression use the name `name` anywhere?
fn mentions(e: &ast::Expr, name: &str) -> bool {
    e.find_map(&mut |x| matches!(&x.kind, ExprKind::Name(n) if n == name).then_some(()))
        .is_some()
}

fn is_set(e: &ast::Expr) -> bool {
    match &e.kind {
        ExprKind::Where(..) => true,
        ExprKind::Name(n) => n == "board",
        ExprKind::Call(name, _) => name.node == "row",
        _ => false,
    }
}
