//! The rules that act during a move (captures at the end of a lap, triggers as each seed falls) and
//! their actions: take, move, claim, set memory, sow again; the grand slam policy.

use super::choice::Choices;
use super::eval::{Ctx, at_lap_end};
use super::trace::{Event, Keeper, Narrate};
use super::turn::*;
use super::{Board, Cell, Game, Player, Slots};
use crate::board::INLINE;
use crate::compile::ir::{Action, Code, GrandSlam, Guard, NO_PIT, Phase, PitsExpr, QuickAct, QuickTo, Receiver, Reg, Rule, Then, Track};

thread_local! {
    /// Boards kept for the snapshots of [`Game::fire`] on a board too large to be kept inline.
    static SNAPSHOTS: std::cell::RefCell<Vec<Board>> = const { std::cell::RefCell::new(Vec::new()) };
    /// A board of the size last asked, lent to the actions of rules that read nothing of the board.
    static BLANK: std::cell::RefCell<Option<Board>> = const { std::cell::RefCell::new(None) };
}

/// Whether a rule of a run whose conditions open alike holds (`Rule::guard`), the opening asked
/// once for the run: `opening` holds the run it was last asked for, and its answer. Out of line,
/// so that the loop over rules without a guard is laid out as before.
#[inline(never)]
fn guarded_holds(ctx: &Ctx, guard: &Guard, opening: &mut Option<(usize, bool)>) -> bool {
    let opens = match *opening {
        Some((run, answer)) if run == guard.run => answer,
        _ => opening.insert((guard.run, ctx.bool(&guard.head))).1,
    };
    opens && ctx.bool(&guard.rest)
}

impl Game {
    /// The first capture rule that holds at the end of a lap, if one does (its place in the phase).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn capture_holds(
        &self,
        board: &Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        track: &Track,
        taken: u32,
    ) -> Option<usize> {
        // The context is made only for a rule its table does not answer.
        let mut ctx = None;
        // The run whose shared opening was asked last (`Rule::guard`), and its answer.
        let mut opening = None;
        phase.captures.iter().position(|rule| {
            at_lap_end(&rule.when, turn.mover, turn.cw, last, board, before).unwrap_or_else(|| {
                let ctx = ctx.get_or_insert_with(|| Ctx {
                    taken,
                    ..self.ctx_lap(turn, board, before, last, origin, lap, track)
                });
                match &rule.guard {
                    None => ctx.bool(&rule.when),
                    Some(guard) => guarded_holds(ctx, guard, &mut opening),
                }
            })
        })
    }

    /// Carries out capture rule `i` of the phase, which holds at the end of a lap, and tells what
    /// happens next.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn capture<L: Narrate>(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        i: usize,
        captured: &mut Option<CaptureLog>,
        taken: &mut u32,
        pulled: &mut Option<Pull>,
        log: &mut L,
    ) -> Then {
        let rule = &phase.captures[i];
        // A rule that only says what happens next (`then another move`) has nothing to carry out,
        // and no copy of the board to make for its actions.
        if !rule.actions.is_empty() {
            // Actions the engine knows need neither a context nor the board as the rule fired; a
            // narrated move names what each tried, which only `act` tells.
            let fired = match &rule.quick {
                Some(quick) if !L::ON => self.act_quick(board, turn, before, last, origin, lap, phase, rule, quick, captured, log),
                _ => self.fire(board, turn, before, last, origin, lap, phase, rule, *taken, captured, log),
            };
            *pulled = fired.pulled;
            *taken += fired.taken;
        }
        self.narrate_then(rule, log);
        rule.then
    }

    /// [`Game::act`] for actions that are all [`QuickAct`] steps, on a move that is not narrated:
    /// the same changes to the board, the same seeds taken and logged for a grand slam, the same
    /// choice asked and the same pull, read from where `last` and `origin` lie and from the memo
    /// of a pit named by the way.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn act_quick(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        rule: &Rule,
        quick: &[QuickAct],
        captured: &mut Option<CaptureLog>,
        log: &mut impl Narrate,
    ) -> Acted {
        let mut capture_log = self.grand_slam.is_some().then_some((captured, turn.mover.other()));
        let mover = turn.mover;
        let mut hand = 0u32;
        let mut acted = Acted::default();
        for step in quick {
            match *step {
                QuickAct::Take { reg, across, to } => {
                    let at = if reg == Reg::Last { last } else { origin };
                    let c = if across && at != NO_PIT {
                        self.in_place(self.opposite(self.place_of(at)))
                    } else {
                        at
                    };
                    let to = match to {
                        QuickTo::Hand => {
                            hand += self.take_in_hand(board, c, mover, &rule.name, log);
                            continue;
                        }
                        QuickTo::Owner => self.owner(board, c).unwrap_or(mover),
                        QuickTo::Mover => mover,
                        QuickTo::Opponent => mover.other(),
                    };
                    acted.taken += self.take(board, c, to, &mut capture_log, &rule.name, log);
                }
                QuickAct::SowTaken(i) => {
                    let Some(lap) = TakenLap::of(&rule.actions[i], &turn, phase, last, |f, way| {
                        self.ctx_lap(turn, board, before, last, origin, lap, phase.track(mover, turn.cw))
                            .pit_by_way(f, way)
                    }) else {
                        continue;
                    };
                    self.pull_taken(board, lap, mover, &rule.name, &mut hand, &mut acted, log);
                }
            }
        }
        acted
    }

    /// Ends a `sow taken` action: the lap starts after the pit named, or after the one before it so
    /// that it gets the first seed (a pit off the mover's track, or none, leaves the default: the pit
    /// after `last`); with `sow from PIT` (`lift`) the pit's own seeds join the hand, not counted in
    /// `taken` (no capture took them). The seeds in `hand` become the move's pull.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn pull_taken(
        &self,
        board: &mut Board,
        lap: TakenLap<'_>,
        mover: Player,
        rule: &str,
        hand: &mut u32,
        acted: &mut Acted,
        log: &mut impl Narrate,
    ) {
        let start = lap.start();
        let lifted = match lap.named {
            Some(c) if lap.lift && c != NO_PIT => self.take_in_hand(board, c, mover, rule, log),
            _ => 0,
        };
        *hand += lifted;
        if *hand > 0 {
            acted.taken += *hand - lifted;
            acted.pulled = Some(Pull {
                seeds: std::mem::take(hand),
                after: start,
                cw: lap.cw,
            });
        }
    }

    /// The narration names every rule carried out: one with no actions, by what it says comes next.
    pub(super) fn narrate_then(&self, rule: &Rule, log: &mut impl Narrate) {
        match rule.then {
            Then::End => log.push(|| Event::TurnEnds {
                why: format!("the rule \"{}\" says so", rule.name),
            }),
            Then::AnotherMove if rule.actions.is_empty() => log.push(|| Event::TurnEnds {
                why: format!("the rule \"{}\" gives another move", rule.name),
            }),
            // A rule with nothing to carry out tells, by its name, what its holding means.
            Then::Continue if rule.actions.is_empty() => log.push(|| Event::Said { rule: rule.name.clone() }),
            _ => {}
        }
    }

    /// The rules of a lap's end besides the captures: the `after capture` ones when a capture rule
    /// was carried out (`captured_now`), then the `at lap end` ones. Every one that holds is carried
    /// out, in order, each reading the board the ones before it left; a rule that sows again ends the
    /// moment (its seeds are the next lap). Tells the strongest `then` said, if a rule was carried out.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    pub(super) fn lap_end_rules(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        track: &Track,
        captured_now: bool,
        captured: &mut Option<CaptureLog>,
        taken: &mut u32,
        pulled: &mut Option<Pull>,
        log: &mut impl Narrate,
    ) -> Option<Then> {
        let after_capture = phase.after_captures.iter().filter(|_| captured_now);
        let mut then = None;
        for rule in after_capture.chain(&phase.lap_ends) {
            let holds = Ctx {
                taken: *taken,
                ..self.ctx_lap(turn, board, before, last, origin, lap, track)
            }
            .bool(&rule.when);
            if !holds {
                continue;
            }
            if !rule.actions.is_empty() {
                let fired = self.fire(board, turn, before, last, origin, lap, phase, rule, *taken, captured, log);
                *taken += fired.taken;
                if fired.pulled.is_some() {
                    *pulled = fired.pulled;
                    return Some(Then::Continue);
                }
            }
            self.narrate_then(rule, log);
            then = then.max(Some(rule.then));
        }
        then
    }

    /// The rules `at turn start`, before the move's seeds are lifted: every one that holds is carried
    /// out, in order, until one ends the game. Returns the seeds they took, and the end rule of one
    /// that ended the game.
    #[cold]
    #[inline(never)]
    pub(super) fn turn_start_rules(
        &self,
        board: &mut Board,
        turn: Turn,
        origin: Cell,
        phase: &Phase,
        captured: &mut Option<CaptureLog>,
        log: &mut impl Narrate,
    ) -> (u32, Option<u16>) {
        let track = phase.track(turn.mover, turn.cw);
        let mut taken = 0;
        for rule in &phase.turn_starts {
            let holds = Ctx {
                taken,
                ..self.ctx_lap(turn, board, None, origin, origin, 0, track)
            }
            .bool(&rule.when);
            if holds {
                taken += self
                    .fire(board, turn, None, origin, origin, 0, phase, rule, taken, captured, log)
                    .taken;
                if let Then::EndGame(i) = rule.then {
                    return (taken, Some(i));
                }
            }
        }
        (taken, None)
    }

    /// Carries out the actions of the capture rule `rule`, which holds at the end of a lap.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn fire(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        rule: &Rule,
        taken: u32,
        captured: &mut Option<CaptureLog>,
        log: &mut impl Narrate,
    ) -> Acted {
        // The rule's actions read the board as it was when the rule fired. A board too large to be
        // kept inline is copied into one kept from an earlier rule (its lists allocated once a
        // thread, not once a rule fired); a rule fired inside this one's actions takes another.
        let large = board.cells.len() > INLINE;
        if large && !rule.reads_board {
            // Actions that read nothing of the board (`take opposite(last)`, `sow taken from
            // leftmost(row(mover))`) read the same from any board of its size: one kept on the
            // thread is lent to them, neither copied nor moved.
            return BLANK.with(|blank| {
                let fits = |b: &Option<Board>| b.as_ref().is_some_and(|b| b.cells.len() == board.cells.len());
                if !fits(&blank.borrow())
                    && let Ok(mut b) = blank.try_borrow_mut()
                {
                    *b = Some(board.clone());
                }
                let lent = blank.borrow();
                match lent.as_ref() {
                    Some(any) if any.cells.len() == board.cells.len() => {
                        self.fire_on(board, any, turn, before, last, origin, lap, phase, rule, taken, captured, log)
                    }
                    // Lent already to a rule of another board, inside whose actions this one fires.
                    _ => {
                        drop(lent);
                        let copy = board.clone();
                        self.fire_on(board, &copy, turn, before, last, origin, lap, phase, rule, taken, captured, log)
                    }
                }
            });
        }
        let kept = if large {
            SNAPSHOTS.with(|kept| kept.borrow_mut().pop())
        } else {
            None
        };
        let snapshot = match kept {
            Some(mut kept) => {
                kept.clone_from(board);
                kept
            }
            None => board.clone(),
        };
        let acted = self.fire_on(board, &snapshot, turn, before, last, origin, lap, phase, rule, taken, captured, log);
        if large {
            SNAPSHOTS.with(|kept| {
                let mut kept = kept.borrow_mut();
                // As many as rules fired inside one another, which is few.
                if kept.len() < 8 {
                    kept.push(snapshot);
                }
            });
        }
        acted
    }

    /// [`Game::fire`] with the board as the rule fired, `snapshot`.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fire_on(
        &self,
        board: &mut Board,
        snapshot: &Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        rule: &Rule,
        taken: u32,
        captured: &mut Option<CaptureLog>,
        log: &mut impl Narrate,
    ) -> Acted {
        let log_captures = self.grand_slam.is_some().then_some((captured, turn.mover.other()));
        let ctx = Ctx {
            taken,
            ..self.ctx_lap(turn, snapshot, before, last, origin, lap, phase.track(turn.mover, turn.cw))
        };
        self.act(board, snapshot, &rule.actions, &rule.name, phase, turn.cw, ctx, log_captures, log)
    }

    /// Whether the captures of a move took every seed of the opponent's row (a grand slam), and what
    /// the game's grand slam policy then does: put them back, or give another move.
    #[inline(never)]
    pub(super) fn grand_slam_check(
        &self,
        board: &mut Board,
        captured: &CaptureLog,
        opponent: Player,
        another: &mut bool,
        log: &mut impl Narrate,
    ) -> bool {
        // The opponent's row is tested first: it almost never is empty, and then the log need not be
        // read.
        let grand_slam = self.row_seeds(board, opponent) == 0
            && captured
                .iter()
                .any(|t| t.seeds > 0 && self.side(t.cell) == Some(opponent) && !self.is_store(t.cell));
        if grand_slam {
            match self.grand_slam {
                Some(GrandSlam::CaptureNothing) => {
                    for t in captured.iter() {
                        board.cells[self.store(t.to) as usize] -= t.seeds;
                        board.cells[t.cell as usize] += t.seeds;
                    }
                    log.push(|| Event::GrandSlam { undone: true });
                }
                Some(GrandSlam::Allowed(again)) => {
                    log.push(|| Event::GrandSlam { undone: false });
                    *another |= again;
                }
                _ => {}
            }
        }
        grand_slam
    }

    /// The context at the end of a lap.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn ctx_lap<'a>(
        &'a self,
        turn: Turn<'a>,
        board: &'a Board,
        before: Option<&'a [u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        track: &'a Track,
    ) -> Ctx<'a> {
        Ctx {
            regs: [last, origin, NO_PIT],
            lap,
            before,
            track: Some(track),
            ..self.ctx_turn(turn, board)
        }
    }

    #[inline]
    pub(super) fn ctx_turn<'a>(&'a self, turn: Turn<'a>, board: &'a Board) -> Ctx<'a> {
        Ctx {
            choices: turn.choices,
            to_move: turn.mover,
            ply: turn.ply,
            round: turn.round,
            round_ply: turn.round_ply,
            rounds_won: turn.rounds_won,
            clockwise: turn.cw,
            starter: turn.starter,
            lifted: turn.lifted,
            lap_start: turn.lap_start,
            first_lap_end: turn.first_lap_end,
            ..Ctx::new(self, board, turn.mover)
        }
    }

    /// Takes the seeds of pit or store `c` (nothing for a missing pit) to `to`'s store.
    #[inline]
    pub(super) fn take(
        &self,
        board: &mut Board,
        c: Cell,
        receiver: Player,
        capture_log: &mut Option<(&mut Option<CaptureLog>, Player)>,
        rule: &str,
        log: &mut impl Narrate,
    ) -> u32 {
        if c == NO_PIT {
            return 0;
        }
        if c == self.store(receiver) {
            // The seeds are where the take would put them: none move, and the trace says why
            // rather than leaving the rule's carrying out unseen.
            log.push(|| Event::TakeKept {
                rule: rule.to_string(),
                cell: c,
                seeds: board.cells[c as usize],
            });
            return 0;
        }
        let cells: &mut [u32] = &mut board.cells;
        let n = std::mem::take(&mut cells[c as usize]);
        if n == 0 {
            return 0;
        }
        cells[self.store(receiver) as usize] += n;
        if let Some((captured, _)) = capture_log.as_mut() {
            captured.get_or_insert_with(CaptureLog::new).push(Taken {
                cell: c,
                seeds: n,
                to: receiver,
            });
        }
        log.push(|| Event::Take {
            rule: rule.to_string(),
            cell: c,
            seeds: n,
            to: receiver,
        });
        n
    }

    /// Carries out a rule's actions. Conditions are read on `snapshot` (the board as the rule
    /// fired), so that taking one pit does not change what the next pit of a list means. Returns the
    /// seeds taken, and those taken into the mover's hand by a rule that sows them again with where
    /// and which way that lap goes. `cw`: the move's direction now.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn act(
        &self,
        board: &mut Board,
        snapshot: &Board,
        actions: &[Action],
        rule: &str,
        phase: &Phase,
        cw: bool,
        ctx: Ctx,
        mut capture_log: Option<(&mut Option<CaptureLog>, Player)>,
        log: &mut impl Narrate,
    ) -> Acted {
        let tracks = Player::BOTH.map(|p| phase.track(p, cw));
        let mut ctx = ctx.on(snapshot);
        let mut hand = 0u32;
        let mut acted = Acted::default();
        // A rule carried out is named in the narration by what it did; when it did nothing (the pits
        // it takes from hold no seeds, or memory is set to what it was), by the first thing it tried.
        let told = log.len();
        let mut tried: Option<Event> = None;
        for action in actions {
            match action {
                Action::Take { pits, to, series } => {
                    // Each pit is taken as soon as it is named: the conditions read the snapshot, so
                    // taking one does not change which come next, and a pit named twice is empty the
                    // second time.
                    let to = match to {
                        Receiver::Owner => Some(None),
                        Receiver::Player(p) => Some(Some(ctx.player(p))),
                        Receiver::Hand => None,
                    };
                    let mover = ctx.mover;
                    // What the narration names the rule by, should every pit it takes be empty: the
                    // first pit it tries (kept apart from `take`, so that a silent move carries none
                    // of it).
                    let narrating = log.enabled();
                    let first_try = |board: &Board, c: Cell, tried: &mut Option<Event>| {
                        if narrating && tried.is_none() && c != NO_PIT {
                            *tried = Some(self.take_tried(board, c, to, mover, rule));
                        }
                    };
                    let mut take = |board: &mut Board, c: Cell| {
                        match to {
                            Some(to) => {
                                // A shared pit nobody claimed goes to the player taking it.
                                let to = to.or_else(|| self.owner(board, c)).unwrap_or(mover);
                                acted.taken += self.take(board, c, to, &mut capture_log, rule, log)
                            }
                            None => hand += self.take_in_hand(board, c, mover, rule, log),
                        }
                    };
                    let mut anchor = None;
                    for p in pits {
                        match p {
                            PitsExpr::Pit(e) => {
                                let c = ctx.pit(e);
                                anchor.get_or_insert(c);
                                first_try(board, c, &mut tried);
                                take(board, c);
                            }
                            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                                anchor.get_or_insert(c);
                                first_try(board, c, &mut tried);
                                take(board, c);
                                true
                            }),
                        }
                    }
                    if let Some(series) = series
                        && let Some(anchor) = anchor
                        && anchor != NO_PIT
                        && !self.is_store(anchor)
                    {
                        // The series walks along the track through the anchor: the mover's, or on a
                        // board where each player sows their own rows, the anchor's owner's.
                        let mover_track = tracks[ctx.mover.index()];
                        let walk = if mover_track.has(anchor) {
                            mover_track
                        } else {
                            tracks[ctx.mover.other().index()]
                        };
                        // The walk names each pit in turn as `pit`, then gives the name back.
                        let named = ctx.regs[Reg::Pit as usize];
                        if series.plain {
                            // One way, every pit, no cap: the walk stops at the first pit that fails.
                            let mut c = anchor;
                            for _ in 1..walk.cells.len() {
                                c = if series.forward {
                                    walk.next[c as usize]
                                } else {
                                    walk.prev[c as usize]
                                };
                                // The walk, as the track, holds the open pits only.
                                if self.is_store(c) || snapshot.closed[c as usize] {
                                    continue;
                                }
                                ctx.regs[Reg::Pit as usize] = c;
                                if !ctx.bool(&series.cond) {
                                    break;
                                }
                                first_try(board, c, &mut tried);
                                take(board, c);
                            }
                            ctx.regs[Reg::Pit as usize] = named;
                            continue;
                        }
                        // Both ways, the forward run stops where the backward run took a pit: each
                        // pit is looked at once.
                        let mut seen = CellSet::default();
                        let (mut pits_taken, mut seeds_taken) = (0u32, 0u32);
                        let runs = [(series.backward, false), (series.forward, true)];
                        'runs: for (_, forward) in runs.into_iter().filter(|&(on, _)| on) {
                            let mut c = anchor;
                            let mut passed = 0usize;
                            for _ in 1..walk.cells.len() {
                                c = if forward { walk.next[c as usize] } else { walk.prev[c as usize] };
                                let passed_over = if self.is_store(c) {
                                    !series.with_stores
                                } else {
                                    snapshot.closed[c as usize]
                                };
                                if passed_over {
                                    continue;
                                }
                                passed += 1;
                                if series.every_other && passed % 2 == 1 {
                                    continue;
                                }
                                if seen.has(c) || pits_taken >= series.max_pits {
                                    continue 'runs;
                                }
                                ctx.regs[Reg::Pit as usize] = c;
                                if !ctx.bool(&series.cond) {
                                    continue 'runs;
                                }
                                // A store has no pit across, unless it stands in a pit's place.
                                let across = if !series.with_opposite || (self.is_store(c) && self.store_pit.is_none()) {
                                    NO_PIT
                                } else {
                                    self.in_place(self.opposite(self.place_of(c)))
                                };
                                let seeds = board.cells[c as usize] + if across == NO_PIT { 0 } else { board.cells[across as usize] };
                                if seeds_taken.saturating_add(seeds) > series.max_seeds {
                                    continue 'runs;
                                }
                                seen.insert(c);
                                pits_taken += 1;
                                seeds_taken += seeds;
                                first_try(board, c, &mut tried);
                                take(board, c);
                                if across != NO_PIT {
                                    take(board, across);
                                }
                            }
                        }
                        ctx.regs[Reg::Pit as usize] = named;
                    }
                }
                Action::Move { count, from, to } => {
                    let to = ctx.pit(to);
                    if to == NO_PIT {
                        continue;
                    }
                    // `None`: all a pit holds; else what there is, never more, and a count below 0
                    // moves nothing.
                    let asked = count.as_ref().map(|n| ctx.int(n));
                    let mut move_from = |board: &mut Board, from: Cell| {
                        if from == NO_PIT {
                            return;
                        }
                        let held = board.cells[from as usize];
                        let n = asked.map_or(held, |asked| u32::try_from(asked.max(0)).unwrap_or(u32::MAX).min(held));
                        board.cells[from as usize] -= n;
                        board.cells[to as usize] += n;
                        if let Some(asked) = asked
                            && i64::from(n) != asked
                        {
                            log.push(|| Event::ShortMove {
                                rule: rule.to_string(),
                                asked,
                                moved: n,
                                from,
                            });
                        }
                        log.push(|| Event::MoveSeeds {
                            rule: rule.to_string(),
                            seeds: n,
                            from,
                            to,
                        });
                    };
                    // The pits are named on the snapshot, in the order written (a set in its order),
                    // and each gives what it holds on the board as it is now.
                    for p in from {
                        match p {
                            PitsExpr::Pit(e) => move_from(board, ctx.pit(e)),
                            PitsExpr::Set(s) => {
                                let mut cells: Slots<Cell> = Slots::new();
                                ctx.each_in_set(s, |c| {
                                    cells.push(c);
                                    true
                                });
                                for &c in cells.iter() {
                                    move_from(board, c);
                                }
                            }
                        }
                    }
                }
                Action::Claim { pits, player } => {
                    let p = ctx.player(player);
                    for &c in self.pits_named(&ctx, pits).iter() {
                        board.claimed[c as usize] = Some(p);
                        log.push(|| Event::Claim {
                            rule: rule.to_string(),
                            cell: c,
                            player: p,
                        });
                    }
                }
                Action::Remember { slot, owner, value, add } => {
                    let m = &self.memory[*slot];
                    let whose = ctx.run(owner);
                    let Some(i) = super::eval::memory_index(self, m.at, whose) else {
                        continue;
                    };
                    let given = ctx.run(value);
                    let old = board.memory[i];
                    let new = if *add { old.saturating_add(given) } else { given };
                    let remembered = |changed: bool| Event::Remember {
                        rule: rule.to_string(),
                        name: m.name.clone(),
                        keeper: if m.at.whole_game {
                            Keeper::Game
                        } else if m.at.per_pit {
                            Keeper::Pit(whose as Cell)
                        } else {
                            Keeper::Player(if whose == 0 { Player::South } else { Player::North })
                        },
                        value: new,
                        holds_pit: m.holds_pit,
                        changed,
                    };
                    if new != old {
                        board.memory[i] = new;
                        log.push(|| remembered(true));
                    } else if log.enabled() && tried.is_none() {
                        tried = Some(remembered(false));
                    }
                }
                Action::TakeSome { count, pit, to } => {
                    let c = ctx.pit(pit);
                    let n = u32::try_from(ctx.run(count).max(0)).unwrap_or(u32::MAX);
                    if c == NO_PIT || n == 0 {
                        continue;
                    }
                    let n = n.min(board.cells[c as usize]);
                    board.cells[c as usize] -= n;
                    let mover = ctx.mover;
                    match to {
                        Receiver::Hand => {
                            hand += n;
                            log.push(|| Event::TakeInHand {
                                rule: rule.to_string(),
                                cell: c,
                                seeds: n,
                                player: mover,
                            });
                        }
                        to => {
                            let to = match to {
                                Receiver::Player(p) => ctx.player(p),
                                _ => self.owner(board, c).unwrap_or(mover),
                            };
                            board.cells[self.store(to) as usize] += n;
                            if let Some((captured, _)) = capture_log.as_mut() {
                                captured.get_or_insert_with(CaptureLog::new).push(Taken { cell: c, seeds: n, to });
                            }
                            acted.taken += n;
                            log.push(|| Event::Take {
                                rule: rule.to_string(),
                                cell: c,
                                seeds: n,
                                to,
                            });
                        }
                    }
                }
                Action::Close { pits, closing } => {
                    for &c in self.pits_named(&ctx, pits).iter() {
                        board.closed[c as usize] = *closing;
                        log.push(|| Event::Close {
                            rule: rule.to_string(),
                            cell: c,
                            closing: *closing,
                        });
                    }
                }
                Action::SowTaken {
                    pit,
                    after,
                    cw: turn_to,
                    chosen_way,
                    lift,
                } => {
                    // A way the mover chooses (`either`) is chosen first, and the pit named then reads
                    // it as `clockwise`: "from the end of the row from which this way goes".
                    let cw = sow_taken_way(ctx.choices, *chosen_way, *turn_to, cw);
                    let named = pit
                        .as_ref()
                        .map(|f| ctx.pit_by_way(f, if *chosen_way { cw } else { ctx.clockwise }));
                    let lap = TakenLap {
                        named,
                        after: *after,
                        lift: *lift,
                        track: phase.track(ctx.mover, cw),
                        last: ctx.regs[Reg::Last as usize],
                        cw,
                    };
                    self.pull_taken(board, lap, ctx.mover, rule, &mut hand, &mut acted, log);
                }
            }
        }
        if let Some(e) = tried
            && log.len() == told
        {
            log.push(|| e);
        }
        acted
    }

    /// The pits a list names (a pit, or each pit of a set), read as the rule fired: no pit and
    /// stores left out, for the actions that change a pit's state (claim, close, open).
    fn pits_named(&self, ctx: &Ctx, pits: &[PitsExpr]) -> Slots<Cell> {
        let mut cells: Slots<Cell> = Slots::new();
        let mut keep = |c: Cell| {
            if c != NO_PIT && !self.is_store(c) {
                cells.push(c);
            }
        };
        for x in pits {
            match x {
                PitsExpr::Pit(e) => keep(ctx.pit(e)),
                PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                    keep(c);
                    true
                }),
            }
        }
        cells
    }

    /// How the narration names a take of pit `c` that may find it empty (out of line: only a
    /// narrated move asks, and the take itself stays small enough to be put in line).
    #[cold]
    #[inline(never)]
    pub(super) fn take_tried(&self, board: &Board, c: Cell, to: Option<Option<Player>>, mover: Player, rule: &str) -> Event {
        match to {
            Some(to) => Event::Take {
                rule: rule.to_string(),
                cell: c,
                seeds: 0,
                to: to.or_else(|| self.owner(board, c)).unwrap_or(mover),
            },
            None => Event::TakeInHand {
                rule: rule.to_string(),
                cell: c,
                seeds: 0,
                player: mover,
            },
        }
    }

    /// Takes the seeds of pit or store `c` (nothing for a missing pit) into `mover`'s hand, to be
    /// sown again; returns how many.
    pub(super) fn take_in_hand(&self, board: &mut Board, c: Cell, mover: Player, rule: &str, log: &mut impl Narrate) -> u32 {
        if c == NO_PIT {
            return 0;
        }
        let n = std::mem::take(&mut board.cells[c as usize]);
        if n > 0 {
            log.push(|| Event::TakeInHand {
                rule: rule.to_string(),
                cell: c,
                seeds: n,
                player: mover,
            });
        }
        n
    }
}

/// The way a `sow taken` lap goes: a way the mover chooses (`either`) is chosen first, and the pit
/// named then reads it as `clockwise` ("from the end of the row from which this way goes"); else
/// the action's own way (`turn_to`), else the lap's (`cw`).
#[inline(always)]
pub(super) fn sow_taken_way(choices: Option<&Choices>, chosen_way: bool, turn_to: Option<bool>, cw: bool) -> bool {
    match choices {
        Some(choices) if chosen_way => choices.pick(2, |i| if i == 0 { "ccw" } else { "cw" }.to_string()) == 1,
        _ => turn_to.unwrap_or(cw),
    }
}

/// Where a `sow taken` lap starts from: the pit its action names (if any), whether the lap starts
/// after it, whether its own seeds join the hand, the track and way of the lap, and `last`.
pub(super) struct TakenLap<'t> {
    pub(super) named: Option<Cell>,
    pub(super) after: bool,
    pub(super) lift: bool,
    pub(super) track: &'t Track,
    pub(super) last: Cell,
    pub(super) cw: bool,
}

impl<'t> TakenLap<'t> {
    /// The lap of `action` if it is a `sow taken`, as a quick step of `turn` carries it out after a
    /// lap that ended in `last`: its way first (chosen where the mover chooses it), then the pit it
    /// names by that way, read from the memo, or else by `run` (running the code, which makes the
    /// memo the first time it is asked).
    #[inline(always)]
    pub(super) fn of(
        action: &Action,
        turn: &Turn,
        phase: &'t Phase,
        last: Cell,
        run: impl FnOnce(&Code, bool) -> Cell,
    ) -> Option<TakenLap<'t>> {
        let Action::SowTaken {
            pit,
            after,
            cw: turn_to,
            chosen_way,
            lift,
        } = action
        else {
            return None;
        };
        let cw = sow_taken_way(turn.choices, *chosen_way, *turn_to, turn.cw);
        let way = if *chosen_way { cw } else { turn.cw };
        let named = pit
            .as_ref()
            .map(|f| super::eval::pit_from_memo(f, turn.mover, way).unwrap_or_else(|| run(f, way)));
        Some(TakenLap {
            named,
            after: *after,
            lift: *lift,
            track: phase.track(turn.mover, cw),
            last,
            cw,
        })
    }

    /// The cell the lap starts after: the pit named or the one before it, so that it gets the first
    /// seed (a pit off the mover's track, or none, leaves the default: the pit after `last`).
    #[inline(always)]
    pub(super) fn start(&self) -> Cell {
        match self.named {
            Some(c) if c != NO_PIT && self.track.has(c) => {
                if self.after {
                    c
                } else {
                    self.track.prev[c as usize]
                }
            }
            _ => self.last,
        }
    }
}
