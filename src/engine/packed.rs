//! A walk's trials on a packed board ([`WideBoard`], the fast form's board of up to 64 cells, a
//! byte a cell): where a phase's rules are all of the kinds read here (laps of the usual sowing,
//! the relay and capture conditions answered by their tables at every cell, a capture's actions of
//! takes into the hand and `sow taken`, no rule at turn start, at a lap's end or after the move,
//! no trigger, claim, closed pit, grand slam or counts before the latest seed), each trial of
//! [`Game::walk_choice_moves`] is sown on a copy of the position's board packed once a walk: a
//! trial's copy and a pause are 64 bytes moved, no list's length is tested at a read, and the
//! trial board of the general engine is written only for a landing that is kept. The walk itself
//! (shared trials, pauses, choices) is the general one's; the general sowing stays the reference
//! (`tests/packed_trials.rs` lists every position's moves both ways).
//!
//! A trial whose loop watch would start (past lap 32, or the laps the rules compare) hands its
//! move over: the general sowing tries it again from its start, or from the pause it went on from.

use super::actions::TakenLap;
use super::choice::Choices;
use super::eval::at_lap_end_packed;
use super::legal::Trial;
use super::pause::{self, Paused, Spot};
use super::sowing::{WATCH_FROM, sow_along};
use super::turn::*;
use super::{Board, Cell, Game, Position};
use crate::compile::ir::{Code, NO_PIT, Phase, QuickAct, QuickTo, Reg, Rule, Sow, Then, Track};
use crate::compile::shape::{Lanes, WideBoard};

/// The most seeds a packed trial's lap sows a seed at a time (more are added from tables).
const FEW_SEEDS: u32 = 3;

impl Game {
    /// Are the trials of a listing of `pos`'s moves (a game whose moves carry choices) sown on a
    /// packed board? For the tests that compare the two ways.
    #[doc(hidden)]
    pub fn trials_packed(&self, pos: &Position) -> bool {
        self.uses_choose && self.packed_trials(pos, self.move_rules(pos, Hints::default())).is_some()
    }

    /// The position's board packed, when every trial of a walk of `rules` may be sown on it.
    /// Asked once a walk: the rules first, which most games that are not packed fail at once.
    pub(super) fn packed_trials(&self, pos: &Position, rules: MoveRules) -> Option<WideBoard> {
        if !(self.packs(rules.phase) && rules.open && !rules.must_feed) {
            return None;
        }
        let cells = &pos.board.cells;
        let fits = cells.len() <= WideBoard::LANES && cells.iter().map(|&n| u64::from(n)).sum::<u64>() <= 255;
        fits.then(|| WideBoard::of_cells(cells))
    }

    /// Are `phase`'s rules (and the game's) all of the kinds a packed trial reads? The tests that
    /// most games fail come first.
    #[inline(never)]
    fn packs(&self, phase: &Phase) -> bool {
        let sow = &phase.sow;
        let whole = |code: &Code| code.lap.as_deref().is_some_and(|t| t.whole);
        let quick = |rule: &Rule| {
            rule.actions.is_empty()
                || rule.quick.as_deref().is_some_and(|steps| {
                    steps
                        .iter()
                        .all(|s| matches!(s, QuickAct::SowTaken(_) | QuickAct::Take { to: QuickTo::Hand, .. }))
                })
        };
        !self.uses_before
            && phase.captures.iter().all(|rule| whole(&rule.when) && quick(rule))
            && self.triggers.is_empty()
            && !self.uses_claims
            && !self.closes_in_moves
            && self.grand_slam.is_none()
            && phase.turn_starts.is_empty()
            && phase.lap_ends.is_empty()
            && phase.after_captures.is_empty()
            && phase.after_moves.is_empty()
            && !phase.sows_nothing
            && !phase.judges_outcome
            && !phase.after_moves_choose
            && sow.skip.is_none()
            && !sow.skip_origin
            && sow.relay_from.is_none()
            && sow.start_in_origin.is_none()
            && sow.lift.is_none()
            && sow.relay.as_ref().is_none_or(whole)
    }

    /// [`Game::probe`]'s trial of a move from `origin` (going clockwise or not) on a copy of the
    /// position's packed board (`trial.packed`), as [`Game::probe_sown`] tries it on the general
    /// board: the seeds it takes, and `trial`'s landing (written into its general board only where
    /// the walk reads it) and whether the mover moves again. `None`: handed over where its loop watch would start,
    /// for the general sowing to try again from the start (or from the pause it went on from,
    /// which the general sowing reads).
    #[inline(never)]
    pub(super) fn probe_packed(
        &self,
        pos: &Position,
        rules: MoveRules,
        choices: Option<&Choices>,
        origin: Cell,
        cw: bool,
        trial: &mut Trial,
    ) -> Option<Result<u32, Refusal>> {
        let mut board = trial.packed?.0;
        let turn = Turn::of_way(pos, rules, cw, choices);
        let floor = pause::floor();
        let Some(sown) = self.sow_packed(&mut board, turn, origin, rules.phase, &pos.board) else {
            pause::truncate(floor);
            if let Some(c) = choices {
                c.restart();
            }
            return None;
        };
        if let Some(c) = choices {
            c.sowed(sown.as_ref().map_or_else(Endless::laps, |sown| sown.laps));
        }
        let sown = match sown {
            Ok(sown) => sown,
            Err(endless) => return Some(Err(Refusal::Endless(endless))),
        };
        // The walk reads the trial board as the landing of a move kept, and of the children that
        // share a trial with open choices: the general sowing leaves it there in both cases.
        if trial.keep && choices.is_none_or(|c| !c.fault()) {
            trial.landed = Some(board);
        }
        let kept = trial.keep && choices.is_none_or(|c| c.open().is_none() && !c.fault());
        trial.kept = kept.then_some(sown.another);
        trial.another = Some(sown.another);
        Some(Ok(sown.taken))
    }

    /// [`Game::sow`] of a trial on a packed board, for a phase [`Game::packs`] takes: the same
    /// laps, captures, choices and pauses. `position` is the walk's position's board (a paused
    /// sowing's slot is made from it, and a pit named by the way reads nothing of it). `None`:
    /// handed over where the loop watch would start, or to go on from a pause the general sowing
    /// kept.
    #[inline(always)]
    fn sow_packed(&self, b: &mut WideBoard, turn: Turn, origin: Cell, phase: &Phase, position: &Board) -> Option<Result<Sown, Endless>> {
        let sow = &phase.sow;
        let free = free_laps(sow);
        let n = position.cells.len();
        let mover = turn.mover;
        let mut turn = turn;
        let mut track = phase.track(mover, turn.cw);
        let (mut start, mut lap, mut taken) = (origin, 1u32, 0u32);
        let mut pulled: Option<Pull> = None;
        let (mut another, mut ended) = (false, None);
        let mut resumed = match turn.choices.and_then(|c| c.resume) {
            None => None,
            Some(id) => {
                let at = pause::read(id, |p| {
                    *b = p.packed?;
                    (start, lap, taken) = p.spot.resume(&mut turn);
                    Some((p.spot.at, p.spot.last, p.spot.rule))
                })?;
                if let Some(c) = turn.choices {
                    c.resumed_at(at.0);
                }
                track = phase.track(mover, turn.cw);
                Some((at.1, at.2))
            }
        };
        let final_last = loop {
            let (last, held) = match resumed.take() {
                Some(held) => (held.0, Some(held.1)),
                None => {
                    let hand = match pulled.take() {
                        Some(pull) => {
                            start = pull.after;
                            turn.cw = pull.cw;
                            track = phase.track(mover, turn.cw);
                            pull.seeds
                        }
                        // A move's first lap from the store (`from store N`: the pit played gets the
                        // first seed), the only special start a packed phase has.
                        None if lap == 1 && sow.special_start => {
                            let store = &mut b.bytes_mut()[self.store(mover) as usize];
                            let hand = (*store).min(sow.from_store.unwrap_or(0).min(255) as u8);
                            *store -= hand;
                            start = track.prev[origin as usize];
                            u32::from(hand)
                        }
                        None => u32::from(std::mem::take(&mut b.bytes_mut()[start as usize])),
                    };
                    (turn.lifted, turn.lap_start) = (hand, start);
                    // A lap of a few seeds is fewer instructions a seed at a time than the
                    // tables added.
                    let last = if hand <= FEW_SEEDS {
                        sow_along::<u8, false, false>(&mut b.bytes_mut()[..n], &mut [], track, &[], start, hand, NO_PIT).last
                    } else {
                        track.sow_packed(b, start, hand)
                    };
                    let cells = &b.bytes()[..n];
                    if lap == 1 {
                        turn.first_lap_end = last;
                    }
                    let seeds = u32::from(cells[last as usize]).min(63);
                    let held = if phase.capture_at[mover.index()][last as usize] >> seeds & 1 != 0 {
                        phase
                            .captures
                            .iter()
                            .position(|rule| at_lap_end_packed(&rule.when, mover, turn.cw, last, cells))
                    } else {
                        None
                    };
                    (last, held)
                }
            };
            if let Some(i) = held {
                // Paused as the general sowing pauses (no capture is ever logged for a grand slam
                // here), the board kept packed.
                let pausing = turn
                    .choices
                    .filter(|c| c.pausing && lap <= WATCH_FROM.max(sow.lap_seen) && !(c.given_ahead() && phase.captures[i].one_choice));
                if let Some(c) = pausing {
                    let spot = Spot::of(&turn, start, lap, taken, last, i, c.used());
                    let fill = |p: &mut Paused| {
                        p.packed = Some(*b);
                        p.spot = spot;
                    };
                    let fresh = || Paused {
                        board: position.clone(),
                        packed: Some(*b),
                        before: None,
                        spot,
                    };
                    if let Some(id) = pause::keep(fill, fresh) {
                        c.paused(id);
                    }
                }
                let then = self.capture_packed(
                    b,
                    &turn,
                    last,
                    origin,
                    lap,
                    phase,
                    &phase.captures[i],
                    &mut taken,
                    &mut pulled,
                    position,
                );
                if let Some(id) = pausing.and_then(|c| c.fired()) {
                    pause::drop_last(id);
                }
                if pulled.is_some() {
                    lap += 1;
                    match self.packed_lap_may_start(sow, lap, free)? {
                        Ok(()) => continue,
                        Err(endless) => return Some(Err(endless)),
                    }
                }
                match then {
                    Then::AnotherMove => another = true,
                    Then::EndGame(i) => ended = Some(i),
                    _ => {}
                }
                if then != Then::Continue {
                    break last;
                }
            }
            let relay = sow.relay.as_ref().is_some_and(|r| {
                // A lap ending in a store ends the move.
                !self.is_store(last) && b.bytes()[last as usize] > 0 && at_lap_end_packed(r, mover, turn.cw, last, b.bytes())
            });
            if !relay {
                break last;
            }
            lap += 1;
            if let Err(endless) = self.packed_lap_may_start(sow, lap, free)? {
                return Some(Err(endless));
            }
            start = last;
        };
        Some(Ok(Sown {
            another,
            last: final_last,
            laps: lap,
            taken,
            lifted: turn.lifted,
            lap_start: turn.lap_start,
            first_lap_end: turn.first_lap_end,
            grand_slam: false,
            cw: turn.cw,
            hash_delta: None,
            ended,
        }))
    }

    /// [`Game::lap_may_start`] for a packed trial, which keeps no loop watch: past the cap the move
    /// is refused; `None` where the watch would start (the move is handed over). Laps up to `free`
    /// ([`free_laps`]) start at once.
    #[inline(always)]
    fn packed_lap_may_start(&self, sow: &Sow, lap: u32, free: u32) -> Option<Result<(), Endless>> {
        if lap <= free {
            return Some(Ok(()));
        }
        if lap > sow.lap_cap {
            return Some(Err(Endless::Limit {
                laps: sow.lap_cap,
                stated: sow.relay_limit.is_some(),
                watched: sow.watch_loops,
            }));
        }
        None
    }

    /// [`Game::capture`] of `rule` (its actions all takes into the hand and `sow taken`, as
    /// [`Game::act_quick`] carries them out) on a packed board: the seeds taken, the pull, and
    /// what comes next. A pit named by the way is read from its memo (the code is run, out of
    /// line, only to make the memo).
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn capture_packed(
        &self,
        b: &mut WideBoard,
        turn: &Turn,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        rule: &Rule,
        taken: &mut u32,
        pulled: &mut Option<Pull>,
        position: &Board,
    ) -> Then {
        let Some(steps) = rule.quick.as_deref().filter(|_| !rule.actions.is_empty()) else {
            return rule.then;
        };
        let cells = b.bytes_mut();
        let (mut hand, mut took) = (0u32, 0u32);
        *pulled = None;
        for step in steps {
            match *step {
                QuickAct::Take { reg, across: over, .. } => {
                    let at = if reg == Reg::Last { last } else { origin };
                    let c = if over && at != NO_PIT {
                        self.in_place(self.opposite(self.place_of(at)))
                    } else {
                        at
                    };
                    if c != NO_PIT {
                        hand += u32::from(std::mem::take(&mut cells[c as usize]));
                    }
                }
                QuickAct::SowTaken(i) => {
                    let Some(lap) = TakenLap::of(&rule.actions[i], turn, phase, last, |f, way| {
                        self.pit_by_way_run(turn, position, last, origin, lap, phase, f, way)
                    }) else {
                        continue;
                    };
                    let lifted = match lap.named {
                        Some(c) if lap.lift && c != NO_PIT => u32::from(std::mem::take(&mut cells[c as usize])),
                        _ => 0,
                    };
                    hand += lifted;
                    if hand > 0 {
                        took += hand - lifted;
                        *pulled = Some(Pull {
                            seeds: std::mem::take(&mut hand),
                            after: lap.start(),
                            cw: lap.cw,
                        });
                    }
                }
            }
        }
        *taken += took;
        rule.then
    }

    /// The pit `code` names going clockwise (`way`) or not at a packed trial's capture, by running
    /// it where its memo is not made yet (or where it reads more than the way): out of line, so
    /// that the capture does not set up the context it needs at every call.
    #[allow(clippy::too_many_arguments)]
    #[cold]
    #[inline(never)]
    fn pit_by_way_run(
        &self,
        turn: &Turn,
        position: &Board,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        code: &Code,
        way: bool,
    ) -> Cell {
        self.ctx_lap(*turn, position, None, last, origin, lap, phase.track(turn.mover, turn.cw))
            .pit_by_way(code, way)
    }
}

/// The laps a packed trial of `sow` starts without asking more: those within the cap, before a
/// loop watch would start.
#[inline(always)]
fn free_laps(sow: &Sow) -> u32 {
    if sow.watch_loops {
        sow.lap_cap.min(WATCH_FROM.max(sow.lap_seen))
    } else {
        sow.lap_cap
    }
}

impl Track {
    /// Sows `hand` seeds from `start` along the track on a packed board, as the general sowing's
    /// loop does a seed at a time, by adding the [`Track::ahead`] tables (whole rounds, then the
    /// places from the one after `start`'s, wrapping round): the cell of the last seed (`start`
    /// when there is none). Only for a track that has its tables.
    #[inline(always)]
    pub(crate) fn sow_packed(&self, b: &mut WideBoard, start: Cell, hand: u32) -> Cell {
        let (ahead, n) = (&self.ahead, self.cells.len());
        let p = usize::from(self.place[start as usize]);
        let mut rest = hand as usize;
        let mut add = WideBoard::ZERO;
        if rest >= n {
            add = ahead[n].times((rest / n) as u32);
            rest %= n;
        }
        let (from, to) = (p + 1, p + 1 + rest);
        add = if to <= n {
            add + ahead[to] - ahead[from]
        } else {
            add + ahead[n] - ahead[from] + ahead[to - n]
        };
        *b = *b + add;
        if hand == 0 {
            return start;
        }
        let end = p + rest;
        self.cells[if end >= n { end - n } else { end }]
    }
}

#[cfg(test)]
mod tests {
    use crate::board::Player;
    use crate::compile::shape::{Lanes, WideBoard};
    use crate::engine::sowing::sow_along;
    use crate::engine::{Cell, NO_PIT};

    /// Issue 25: a lap on a packed board added from its track's tables (`Track::sow_packed`) sows
    /// what the general sowing's loop sows a seed at a time: the same counts and the same last
    /// cell, for every track of every phase of every shipped game (each mover, each way), from
    /// every cell (on the track or not), from no seed up to three whole rounds and more.
    #[test]
    fn a_lap_added_from_its_tables_sows_what_the_loop_sows() {
        let mut laps = 0;
        for shipped in crate::shipped::all() {
            let game = shipped.game();
            let size = game.initial(None).board.cells.len();
            if size > WideBoard::LANES {
                continue;
            }
            for phase in &game.phases {
                for track in Player::BOTH.iter().flat_map(|&p| [phase.track(p, false), phase.track(p, true)]) {
                    let cells: Vec<u32> = (0..size as u32).map(|c| c * 7 % 5).collect();
                    for start in 0..size as Cell {
                        for hand in 0..=3 * track.cells.len() as u32 + 2 {
                            let mut general = cells.clone();
                            let looped = sow_along::<u32, false, false>(&mut general, &mut [], track, &[], start, hand, NO_PIT).last;
                            let mut packed = WideBoard::of_cells(&cells);
                            let added = track.sow_packed(&mut packed, start, hand);
                            let mut written = vec![0; size];
                            packed.write_cells(&mut written);
                            assert_eq!(
                                (written, added),
                                (general, looped),
                                "{}: {} seeds from cell {start}",
                                shipped.path,
                                hand
                            );
                            laps += 1;
                        }
                    }
                }
            }
        }
        assert!(laps > 10_000, "{laps} laps");
    }
}
