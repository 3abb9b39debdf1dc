//! Sowing: a move's laps, seed by seed along the track (skipping, relaying, starting again from a
//! rule's pull), with the fast lap of the usual sowing kept small.

use super::eval::{Ctx, at_lap_end};
use super::trace::{Event, Narrate, Passed};
use super::turn::*;
use super::{Board, Cell, Game, Slots};
use crate::compile::ir::{Code, NO_PIT, Phase, Reg, Sow, Then, Track};
use crate::compile::shape::Lanes;

/// The lap after which a sowing is watched for going round for ever.
pub(super) const WATCH_FROM: u32 = 32;

impl Game {
    /// Does a sowing keep each pit's count before its latest seed? Only where some rule reads it
    /// otherwise than as `last`'s count less one at a lap's end (`compile::before`).
    pub fn keeps_counts_before(&self) -> bool {
        self.uses_before
    }

    /// Sows from `origin` on `board` (in place), with triggers, captures, relays and the grand slam
    /// policy. `turn` gives the rest of the context (the mover, ply, round).
    #[inline(always)]
    pub(super) fn sow<L: Narrate>(&self, board: &mut Board, turn: Turn, origin: Cell, phase: &Phase, log: &mut L) -> Result<Sown, Endless> {
        let sow = &phase.sow;
        // Seeds sown again may turn the move's direction (`sow taken ... ccw`).
        let mut turn = turn;
        let mut track = phase.track(turn.mover, turn.cw);
        // Per cell, the count before the latest seed fell in; kept only when some rule reads it.
        // On this frame up to `BEFORE_ON_FRAME` cells: a list taken from the thread and given back
        // cost about 180 instructions a sowing, most of a trial's set-up on a board over 16 cells.
        // A trial that goes on from a pause copies the pause's list over it: nothing to copy here.
        let resuming = turn.choices.is_some_and(|c| c.resume.is_some());
        let mut on_frame: [u32; BEFORE_ON_FRAME];
        let mut on_heap: Vec<u32>;
        let mut before: Option<&mut [u32]> = if !self.uses_before {
            None
        } else if board.cells.len() <= BEFORE_ON_FRAME {
            on_frame = [0; BEFORE_ON_FRAME];
            let n = board.cells.len();
            if !resuming {
                match board.cells.inline_all() {
                    // A fixed length the compiler copies in line.
                    Some(inline) => on_frame[..inline.len()].copy_from_slice(inline),
                    None => on_frame[..n].copy_from_slice(&board.cells),
                }
            }
            Some(&mut on_frame[..n])
        } else {
            on_heap = board.cells.to_vec();
            Some(&mut on_heap)
        };
        // Seeds taken by capture rules, to put back for a grand slam (made at the first capture).
        let mut captured: Option<CaptureLog> = None;
        let skipped = if sow.skip_origin { origin } else { NO_PIT };
        // A `skip when` that reads the board is tested as each seed falls.
        let one_by_one = !self.triggers.is_empty() || L::ON || sow.skip_each().is_some();
        let keys = &self.hash_keys;
        // What the laps changed in the board's part of the hash, while they only moved seeds along
        // the track (no capture, no trigger).
        let mut hash_delta = 0u64;
        let mut only_moved = true;
        let mut start = origin;
        let mut lap = 1u32;
        let mut another = false;
        // What the rules did: seeds taken, and seeds to sow again (two plain values, which the usual
        // lap only reads).
        let mut taken = 0u32;
        let mut pulled: Option<Pull> = None;
        let mut final_last: Cell;
        // A rule that ends the game stops the move where it fires.
        let mut ended: Option<u16> = None;
        if !phase.turn_starts.is_empty() {
            only_moved = false;
            let (took, end) = self.turn_start_rules(board, turn, origin, phase, &mut captured, log);
            taken += took;
            if end.is_some() {
                return Ok(Sown {
                    another: false,
                    last: origin,
                    laps: 0,
                    taken,
                    lifted: 0,
                    lap_start: origin,
                    first_lap_end: origin,
                    grand_slam: false,
                    cw: turn.cw,
                    hash_delta: None,
                    ended: end,
                });
            }
        }
        // The states laps started in, to see a sowing that goes round for ever.
        let mut watch = LoopWatch::default();
        // A trial of another answer to a choice goes on from the sowing paused before the capture
        // rule whose actions met it: the lap's end and that rule, which fires first.
        // Where no move claims, closes or opens a pit, a paused board keeps only its seeds and
        // memory: the rest is the position's all the move long.
        let seeds_only = !self.uses_claims && !self.closes_in_moves;
        let mut resumed = turn.choices.and_then(|c| c.resume).map(|id| {
            only_moved = false;
            super::pause::read(id, |p| {
                if let Some(packed) = p.packed {
                    // Kept by a packed trial that handed its move over (`engine::packed`): only
                    // seeds move in such a game, and the board holds the position's others.
                    packed.write_cells(&mut board.cells);
                } else if seeds_only {
                    board.cells.clone_from(&p.board.cells);
                    board.memory.clone_from(&p.board.memory);
                } else {
                    board.clone_from(&p.board);
                }
                if let Some(b) = before.as_deref_mut() {
                    // A pause of a game that reads these counts kept them.
                    b.copy_from_slice(p.before.as_deref().unwrap_or(&p.board.cells));
                }
                (start, lap, taken) = p.spot.resume(&mut turn);
                if let Some(c) = turn.choices {
                    c.resumed_at(p.spot.at);
                }
                (p.spot.last, p.spot.rule)
            })
        });
        if resumed.is_some() {
            track = phase.track(turn.mover, turn.cw);
        }
        loop {
            let (last, held) = match resumed.take() {
                Some((last, rule)) => (last, Some(rule)),
                None => {
                    let hand = match pulled.take() {
                        Some(pull) => {
                            start = pull.after;
                            turn.cw = pull.cw;
                            track = phase.track(turn.mover, turn.cw);
                            log.push(|| Event::SowAgain {
                                seeds: pull.seeds,
                                from: self.first_sown_after(board, turn, origin, phase, lap, before.as_deref(), taken, pull.after),
                                lap,
                            });
                            pull.seeds
                        }
                        None => {
                            // The usual pick-up: every seed of `start`. A move's first lap may start otherwise
                            // (from the store, or back into the pit played), worked out out of line.
                            let (from, hand) = if lap == 1 && sow.special_start {
                                if phase.sows_nothing {
                                    // The phase's `after move` rules do what the move does.
                                    return Ok(Sown {
                                        another: false,
                                        last: origin,
                                        laps: 0,
                                        taken: 0,
                                        lifted: 0,
                                        lap_start: origin,
                                        first_lap_end: origin,
                                        grand_slam: false,
                                        cw: turn.cw,
                                        hash_delta: Some(0),
                                        ended: None,
                                    });
                                }
                                let (from, hand, after) = self.first_pick_up(board, turn, origin, sow, track);
                                start = after;
                                (from, hand)
                            } else {
                                (start, std::mem::take(&mut board.cells[start as usize]))
                            };
                            hash_delta = hash_delta.wrapping_sub(u64::from(hand).wrapping_mul(keys[from as usize]));
                            log.push(|| Event::PickUp {
                                cell: from,
                                seeds: hand,
                                lap,
                            });
                            hand
                        }
                    };
                    turn.lifted = hand;
                    turn.lap_start = start;
                    let last = if !one_by_one {
                        let closed = (!turn.open).then_some(&board.closed[..]);
                        // The cells a `skip when` answered before the game passes over.
                        let stated = if sow.skip.is_some() { sow.skip_table(turn.mover) } else { None };
                        let lap_sown = sow_lap(
                            &mut board.cells,
                            closed,
                            stated,
                            before.as_deref_mut(),
                            track,
                            keys,
                            start,
                            hand,
                            skipped,
                        )
                        .ok_or(Endless::Nowhere { laps: lap })?;
                        hash_delta = hash_delta.wrapping_add(lap_sown.keys);
                        lap_sown.last
                    } else {
                        only_moved = false;
                        self.sow_one_by_one(board, turn, origin, phase, lap, before.as_deref_mut(), hand, start, &mut taken, log)?
                    };
                    if lap == 1 {
                        turn.first_lap_end = last;
                    }
                    log.push(|| Event::LapEnds {
                        last,
                        count: board.cells[last as usize],
                    });
                    let seeds = board.cells[last as usize].min(63);
                    let held = if phase.capture_at[turn.mover.index()][last as usize] >> seeds & 1 != 0 {
                        // A phase's only capture rule, answered by its table, is asked in line: the
                        // call cost about a third of what a lap's end asked there.
                        match phase.captures.as_slice() {
                            [rule] => match at_lap_end(&rule.when, turn.mover, turn.cw, last, board, before.as_deref()) {
                                Some(holds) => holds.then_some(0),
                                None => self
                                    .lap_end_holds(&rule.when, turn, board, before.as_deref(), last, origin, lap, track, taken)
                                    .then_some(0),
                            },
                            _ => self.capture_holds(board, turn, before.as_deref(), last, origin, lap, phase, track, taken),
                        }
                    } else {
                        None
                    };
                    (last, held)
                }
            };
            final_last = last;
            let mut then = None;
            if let Some(i) = held {
                // A trial pauses here for the trials of other answers to the choices the rule's
                // actions meet (before the loop watch keeps a state, and while no capture is logged
                // for a grand slam: neither is kept). Nor where the rule's one choice is sure to be
                // a given one: no other answer would go on from the pause.
                let pausing = turn.choices.filter(|c| {
                    c.pausing
                        && captured.is_none()
                        && lap <= WATCH_FROM.max(sow.lap_seen)
                        && !(c.given_ahead() && phase.captures[i].one_choice)
                });
                if let Some(c) = pausing {
                    let spot = super::pause::Spot::of(&turn, start, lap, taken, last, i, c.used());
                    let paused = || super::pause::Paused {
                        board: board.clone(),
                        packed: None,
                        before: before.as_deref().map(Slots::from_slice),
                        spot,
                    };
                    let fill = |p: &mut super::pause::Paused| {
                        p.packed = None;
                        if seeds_only {
                            p.board.cells.clone_from(&board.cells);
                            p.board.memory.clone_from(&board.memory);
                        } else {
                            p.board.clone_from(board);
                        }
                        // A slot may be one of another game's, of another size.
                        match (&mut p.before, before.as_deref()) {
                            (Some(b), Some(now)) => b.assign(now),
                            (kept, now) => *kept = now.map(Slots::from_slice),
                        }
                        p.spot = spot;
                    };
                    if let Some(id) = super::pause::keep(fill, paused) {
                        c.paused(id);
                    }
                }
                then = Some(self.capture(
                    board,
                    turn,
                    before.as_deref(),
                    last,
                    origin,
                    lap,
                    phase,
                    i,
                    &mut captured,
                    &mut taken,
                    &mut pulled,
                    log,
                ));
                if let Some(id) = pausing.and_then(|c| c.fired()) {
                    super::pause::drop_last(id);
                }
            }
            if pulled.is_none() && !(phase.lap_ends.is_empty() && phase.after_captures.is_empty()) {
                let captured_now = then.is_some();
                let more = self.lap_end_rules(
                    board,
                    turn,
                    before.as_deref(),
                    last,
                    origin,
                    lap,
                    phase,
                    track,
                    captured_now,
                    &mut captured,
                    &mut taken,
                    &mut pulled,
                    log,
                );
                then = then.max(more);
            }
            if let Some(then) = then {
                only_moved = false;
                if let Some(pull) = pulled {
                    // The taken seeds are sown on at once: a lap of their own, which the capture and
                    // relay rules then read like any other.
                    lap += 1;
                    self.lap_may_start(
                        sow,
                        &mut watch,
                        lap,
                        board,
                        before.as_deref(),
                        LapStart {
                            cell: pull.after,
                            hand: Some(pull.seeds),
                            cw: pull.cw,
                            taken: sow.taken_seen.map_or(0, |most| taken.min(most + 1)),
                        },
                    )?;
                    continue;
                }
                // Tested one by one rather than matched: most laps end with no rule fired, and a
                // jump on the answer is mispredicted more often than two tests.
                if then == Then::AnotherMove {
                    another = true;
                    break;
                }
                if then == Then::End {
                    break;
                }
                if let Then::EndGame(i) = then {
                    ended = Some(i);
                    break;
                }
            }
            // The pit a relay goes on from: `last`, or the one `relay from` names.
            let mut relay_pit = last;
            // Asked at every lap's end: kept in line for a rule its table answers, the context made
            // out of line for one it does not.
            let relay = match &sow.relay {
                None => false,
                Some(r) => {
                    if let Some(code) = &sow.relay_from {
                        relay_pit = self.relay_from_pit(code, turn, board, before.as_deref(), last, origin, lap, track);
                    }
                    // A lap ending in a store ends the move; a store `relay from` names is lifted like
                    // a pit, since the rule says so, when it is on the track its seeds go round.
                    relay_pit != NO_PIT
                        && (!self.is_store(relay_pit) || (sow.relay_from.is_some() && track.has(relay_pit)))
                        && board.cells[relay_pit as usize] > 0
                        && match at_lap_end(r, turn.mover, turn.cw, last, board, before.as_deref()) {
                            Some(holds) => holds,
                            None => self.lap_end_holds(r, turn, board, before.as_deref(), last, origin, lap, track, taken),
                        }
                }
            };
            if !relay {
                log.push(|| Event::TurnEnds {
                    why: if sow.relay.is_some() {
                        "the relay rule does not go on from here".into()
                    } else {
                        "the seeds are all sown".into()
                    },
                });
                break;
            }
            lap += 1;
            self.lap_may_start(
                sow,
                &mut watch,
                lap,
                board,
                before.as_deref(),
                LapStart {
                    cell: relay_pit,
                    hand: None,
                    cw: turn.cw,
                    taken: sow.taken_seen.map_or(0, |most| taken.min(most + 1)),
                },
            )?;
            start = relay_pit;
        }
        let grand_slam = match &captured {
            Some(captured) => self.grand_slam_check(board, captured, turn.mover.other(), &mut another, log),
            None => false,
        };
        Ok(Sown {
            another,
            last: final_last,
            laps: lap,
            taken,
            lifted: turn.lifted,
            lap_start: turn.lap_start,
            first_lap_end: turn.first_lap_end,
            grand_slam,
            cw: turn.cw,
            hash_delta: only_moved.then_some(hash_delta),
            ended,
        })
    }

    /// The pit `relay from` names at the end of a lap.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn relay_from_pit(
        &self,
        code: &Code,
        turn: Turn,
        board: &Board,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        track: &Track,
    ) -> Cell {
        self.ctx_lap(turn, board, before, last, origin, lap, track).pit(code)
    }

    /// Whether a condition its lap table does not answer holds at the end of a lap (the relay rule,
    /// or a phase's only capture rule).
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn lap_end_holds(
        &self,
        code: &Code,
        turn: Turn,
        board: &Board,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        track: &Track,
        taken: u32,
    ) -> bool {
        Ctx {
            taken,
            ..self.ctx_lap(turn, board, before, last, origin, lap, track)
        }
        .bool(code)
    }

    /// May lap `lap` of a move start, in the state `state` makes? Not past the phase's cap on laps
    /// (`relay limit`, or the default), nor in a state an earlier lap started in: the sowing would
    /// go round for ever (looked for unless the rules read `lap` or `taken` while sowing otherwise
    /// than by comparing them with a number).
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lap_may_start(
        &self,
        sow: &Sow,
        watch: &mut LoopWatch,
        lap: u32,
        board: &Board,
        before: Option<&[u32]>,
        start: LapStart,
    ) -> Result<(), Endless> {
        // Most laps are within the cap and before the watch starts: answered in line (a call a lap
        // was 2% of Bao's playouts).
        if lap <= sow.lap_cap && !(sow.watch_loops && lap > WATCH_FROM.max(sow.lap_seen)) {
            return Ok(());
        }
        self.lap_watched(sow, watch, lap, board, before, start)
    }

    /// [`Game::lap_may_start`] past the cap, or once the watch has started.
    #[inline(never)]
    fn lap_watched(
        &self,
        sow: &Sow,
        watch: &mut LoopWatch,
        lap: u32,
        board: &Board,
        before: Option<&[u32]>,
        start: LapStart,
    ) -> Result<(), Endless> {
        if lap > sow.lap_cap {
            return Err(Endless::Limit {
                laps: sow.lap_cap,
                stated: sow.relay_limit.is_some(),
                watched: sow.watch_loops,
            });
        }
        // Most moves end within a few laps: the watch starts past them, so that they copy no board
        // (a loop is still seen, a few laps later), and past every lap number a rule compares `lap`
        // with, so that the laps it compares look alike to the rules.
        match (sow.watch_loops && lap > WATCH_FROM.max(sow.lap_seen))
            .then(|| watch.repeats(lap, board, before, start))
            .flatten()
        {
            Some(since) => Err(Endless::Loop { lap, since }),
            None => Ok(()),
        }
    }

    /// The first pick-up of a move whose phase starts otherwise than by taking every seed of the pit
    /// played: from the store (`from store N`: the pit played gets the first seed), or back into the pit
    /// played (`start in origin`). Returns the cell picked up from, the seeds, and the cell the lap
    /// starts after.
    #[cold]
    #[inline(never)]
    pub(super) fn first_pick_up(&self, board: &mut Board, turn: Turn, origin: Cell, sow: &Sow, track: &Track) -> (Cell, u32, Cell) {
        if let Some(n) = sow.from_store {
            let store = self.store(turn.mover);
            let hand = board.cells[store as usize].min(n);
            board.cells[store as usize] -= hand;
            return (store, hand, track.prev[origin as usize]);
        }
        let back = sow
            .start_in_origin
            .as_ref()
            .is_some_and(|c| self.ctx_turn(turn, board).with(Reg::Origin, origin).bool(c));
        let held = board.cells[origin as usize];
        // `lift N` takes N seeds, at least one and at most all the pit holds.
        let hand = match &sow.lift {
            Some(code) => {
                let n = self.ctx_turn(turn, board).with(Reg::Origin, origin).run(code);
                n.clamp(1, i64::from(held.max(1))).min(i64::from(held)) as u32
            }
            None => held,
        };
        board.cells[origin as usize] -= hand;
        (origin, hand, if back { track.prev[origin as usize] } else { origin })
    }

    /// Sows `hand` seeds one at a time from the cell after `start`, testing the triggers after each
    /// seed and narrating; returns the last cell sown. The usual lap (no trigger, no narration) is
    /// the loop in [`Game::sow`] itself; this one is kept apart so that loop stays small.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    pub(super) fn sow_one_by_one(
        &self,
        board: &mut Board,
        turn: Turn,
        origin: Cell,
        phase: &Phase,
        lap: u32,
        mut before: Option<&mut [u32]>,
        mut hand: u32,
        start: Cell,
        taken: &mut u32,
        log: &mut impl Narrate,
    ) -> Result<Cell, Endless> {
        let track = phase.track(turn.mover, turn.cw);
        let mut c = start;
        let mut last = start;
        let mut sown_into = Vec::new();
        let mut passed = 0usize;
        while hand > 0 {
            c = track.next[c as usize];
            let why = self.passed_over(board, turn, origin, phase, lap, before.as_deref(), *taken, c);
            if let Some(why) = why {
                passed += 1;
                if passed > track.cells.len() {
                    // Every cell of the track is skipped: the seeds cannot be sown.
                    return Err(Endless::Nowhere { laps: lap });
                }
                // Told where it happens: after the seeds sown before it.
                if log.enabled() && !sown_into.is_empty() {
                    let cells = std::mem::take(&mut sown_into);
                    log.push(|| Event::Sown { lap, cells });
                }
                log.skip(c, why);
                continue;
            }
            passed = 0;
            if let Some(b) = before.as_deref_mut() {
                b[c as usize] = board.cells[c as usize];
            }
            board.cells[c as usize] += 1;
            hand -= 1;
            last = c;
            if log.enabled() {
                sown_into.push(c);
            }
            if self.trigger_at[turn.mover.index()][c as usize] >> board.cells[c as usize].min(63) & 1 == 0 {
                continue;
            }
            for trigger in &self.triggers {
                let fires = Ctx {
                    final_seed: hand == 0,
                    in_hand: hand,
                    lap,
                    before: before.as_deref(),
                    track: Some(track),
                    taken: *taken,
                    ..self.ctx_turn(turn, board).with(Reg::Pit, c).with(Reg::Origin, origin)
                }
                .bool(&trigger.when);
                if fires {
                    if log.enabled() {
                        let cells = std::mem::take(&mut sown_into);
                        log.push(|| Event::Sown { lap, cells });
                    }
                    let snapshot = board.clone();
                    let ctx = Ctx {
                        final_seed: hand == 0,
                        in_hand: hand,
                        lap,
                        before: before.as_deref(),
                        track: Some(track),
                        taken: *taken,
                        ..self.ctx_turn(turn, &snapshot).with(Reg::Pit, c).with(Reg::Origin, origin)
                    };
                    // Check refuses `sow taken` in a trigger, so a trigger never hands seeds back.
                    *taken += self
                        .act(board, &snapshot, &trigger.actions, &trigger.name, phase, turn.cw, ctx, None, log)
                        .taken;
                }
            }
        }
        if log.enabled() && !sown_into.is_empty() {
            log.push(|| Event::Sown { lap, cells: sown_into });
        }
        Ok(last)
    }
}

impl Game {
    /// Why a seed sown by `turn`'s move from `origin` in lap `lap` passes over the cell `c`, if it
    /// does: the origin passed over, a closed pit, or a `skip when`.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    pub(super) fn passed_over(
        &self,
        board: &Board,
        turn: Turn,
        origin: Cell,
        phase: &Phase,
        lap: u32,
        before: Option<&[u32]>,
        taken: u32,
        c: Cell,
    ) -> Option<Passed> {
        let sow = &phase.sow;
        if sow.skip_origin && c == origin {
            Some(Passed::Origin)
        } else if board.closed.get(c as usize).copied().unwrap_or(false) {
            Some(Passed::Closed)
        } else if sow.skip.is_some()
            && (sow.skip_table(turn.mover).is_some_and(|t| t[c as usize])
                || sow.skip_each().is_some_and(|cond| {
                    Ctx {
                        lap,
                        before,
                        track: Some(phase.track(turn.mover, turn.cw)),
                        taken,
                        ..self.ctx_turn(turn, board).with(Reg::Pit, c).with(Reg::Origin, origin)
                    }
                    .bool(cond)
                }))
        {
            Some(Passed::Stated)
        } else {
            None
        }
    }

    /// The cell the first of the seeds sown on after `after` falls into, as [`Game::sow_one_by_one`]
    /// finds it (for the narration: the cell after `after` may be passed over).
    #[allow(clippy::too_many_arguments)]
    fn first_sown_after(
        &self,
        board: &Board,
        turn: Turn,
        origin: Cell,
        phase: &Phase,
        lap: u32,
        before: Option<&[u32]>,
        taken: u32,
        after: Cell,
    ) -> Cell {
        let track = phase.track(turn.mover, turn.cw);
        let mut c = track.next[after as usize];
        for _ in 0..track.cells.len() {
            if self.passed_over(board, turn, origin, phase, lap, before, taken, c).is_none() {
                break;
            }
            c = track.next[c as usize];
        }
        c
    }
}

/// What one lap of the usual sowing did.
pub(super) struct Lap {
    /// The cell the last seed fell into.
    pub(super) last: Cell,
    /// The sum of the hash keys of the cells sown into, one per seed.
    keys: u64,
}

/// One lap of the usual sowing (no trigger to test, nothing to narrate): `hand` seeds one by one
/// into the cells after `start` along the track, passing over `skipped`, the `closed` pits and the
/// cells a `skip when` table (`stated`, answered before the game) passes over, noting in `before` each cell's count before its latest seed. `None` when every cell of the track is
/// passed over, so the seeds cannot be sown. In line in [`Game::sow`]: a call per lap cost more
/// time than the registers it saves.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn sow_lap(
    cells: &mut [u32],
    closed: Option<&[bool]>,
    stated: Option<&[bool]>,
    before: Option<&mut [u32]>,
    track: &Track,
    keys: &[u64],
    start: Cell,
    hand: u32,
    skipped: Cell,
) -> Option<Lap> {
    let next = &track.next;
    if closed.is_none() && stated.is_none() && next.get(skipped as usize).is_none_or(|&after| after != skipped) {
        // Only the skipped cell is passed over, and the cell after it never is: the usual case.
        return Some(match before {
            None => sow_along::<u32, false, true>(cells, &mut [], track, keys, start, hand, skipped),
            Some(before) => sow_along::<u32, true, true>(cells, before, track, keys, start, hand, skipped),
        });
    }
    sow_lap_checked(
        cells,
        closed.unwrap_or(&[]),
        stated.unwrap_or(&[]),
        before,
        next,
        keys,
        start,
        hand,
        skipped,
    )
}

/// [`sow_lap`] when no pit is closed and no two skipped cells follow one another, kept to a
/// handful of instructions a seed. It counts places along the track rather than following `next`,
/// so that each seed's cell is known without waiting for the last one's. With `BEFORE`, each
/// cell's count before its seed is noted in `before`; the loop is compiled once with and once
/// without, so that a game that does not read those counts does not test for them at every seed.
/// With `KEYS`, the hash keys of the cells sown are summed. The counts are a [`Board`]'s (`u32`)
/// or a packed trial board's (`u8`, `engine::packed`).
#[inline(always)]
pub(super) fn sow_along<T: Copy + std::ops::AddAssign + From<u8>, const BEFORE: bool, const KEYS: bool>(
    cells: &mut [T],
    before: &mut [T],
    track: &Track,
    keys: &[u64],
    start: Cell,
    hand: u32,
    skipped: Cell,
) -> Lap {
    let order = &track.cells;
    // Lists of one length, so that a seed's cell is checked against it once, not once a list.
    let n = cells.len();
    let (before, keys) = (if BEFORE { &mut before[..n] } else { before }, if KEYS { &keys[..n] } else { keys });
    let mut c = start as usize;
    let mut sum = 0u64;
    let mut i = track.place[c] as usize;
    for _ in 0..hand {
        i = if i + 1 == order.len() { 0 } else { i + 1 };
        c = order[i] as usize;
        if c == skipped as usize {
            i = if i + 1 == order.len() { 0 } else { i + 1 };
            c = order[i] as usize;
        }
        if BEFORE {
            before[c] = cells[c];
        }
        cells[c] += T::from(1);
        if KEYS {
            sum = sum.wrapping_add(keys[c]);
        }
    }
    Lap {
        last: c as Cell,
        keys: sum,
    }
}

/// [`sow_lap`] when pits may be closed or passed over by `skip when`, or skipped cells may follow
/// one another: one seed at a time along `next`. Out of line, to keep the usual lap small.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn sow_lap_checked(
    cells: &mut [u32],
    closed: &[bool],
    stated: &[bool],
    mut before: Option<&mut [u32]>,
    next: &[Cell],
    keys: &[u64],
    start: Cell,
    mut hand: u32,
    skipped: Cell,
) -> Option<Lap> {
    let mut c = start as usize;
    let mut sum = 0u64;
    let mut passed = 0usize;
    while hand > 0 {
        c = next[c] as usize;
        if c == skipped as usize || closed.get(c).copied().unwrap_or(false) || stated.get(c).copied().unwrap_or(false) {
            passed += 1;
            if passed > cells.len() {
                return None;
            }
            continue;
        }
        passed = 0;
        if let Some(b) = before.as_deref_mut() {
            b[c] = cells[c];
        }
        cells[c] += 1;
        sum = sum.wrapping_add(keys[c]);
        hand -= 1;
    }
    Some(Lap {
        last: c as Cell,
        keys: sum,
    })
}

/// The cells of a board whose counts before the latest seed are kept on the sowing's frame (a
/// board of up to four rows of 15 pits and the stores); a larger board's list is made on the heap.
const BEFORE_ON_FRAME: usize = 64;
