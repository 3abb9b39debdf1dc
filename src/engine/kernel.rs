//! Random playouts in the fast form of a rule shape (see `compile::shape`): the board packed one
//! byte a cell, into one `u128` or, for more than 16 cells, into a wider board (the loops are generic
//! over `compile::shape::Lanes`), so that a sowing is a table look-up and an addition (no lane can
//! overflow: a game has at most 255 seeds), and the filled pits of a row, a row's seeds and the
//! feeding test are a few bit operations. The moves, the random numbers drawn, the history of
//! positions and the end rules are exactly the general engine's, so a playout reaches the same
//! positions either way (`tests/fast_forms.rs` checks it for every shipped game); whatever the fast
//! form does not know (the end of the game, above all) it hands back to the general engine.
//!
//! A game whose moves relay, or sow captured seeds again, is played by loops of its own
//! (`Game::fast_relay_playout`): a move is its laps, each ended as `Game::sow` ends them (the first
//! capture rule that holds, which may end the move, give another, or take seeds to sow on at once,
//! then the relay rule), and a move whose laps would go past the relay limit is not legal. As in
//! the general engine does, a move is drawn among the candidates (the filled pits no `forbid` rule
//! closes) and sown, and a candidate whose sowing is not legal is dropped and another drawn
//! (`engine::draw_among`): only the moves drawn are sown, and whether the player to move has a
//! legal move at all is learnt by drawing the next move ahead of time.

use rand::Rng;

mod captures;
mod forms;
mod identity;
mod playout;
mod searching;
mod seen;
pub(crate) use searching::{AnySearch, Counted, Expanded, FastMove, FastSearch, Line, Listed, MoveSink, Scored};

pub(crate) use seen::Board;

use super::trace::Silent;
use super::turn::Hints;
use super::{Game, Moves, Player, Position};
use crate::compile::ir::Then;
use crate::compile::shape::at_least_16;
use crate::compile::shape::{
    ACROSS, CellCond, EndCheck, EndValue, Fast, FastAfterForbid, FastForm, FastRelay, GO, HOME_PLACES, LANES, Lanes, PLACES, STOP,
    WATCH_FROM, has_count,
};

/// A byte of a packed narrow board (the searches' boards).
#[inline(always)]
fn lane(b: u128, c: usize) -> u32 {
    Lanes::lane(b, c)
}

/// Per lane of a block, one seed in it ([`FastForm::lap_home`]): a 128-bit shift by a variable
/// amount takes a dozen instructions.
const UNIT: [u128; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 1 << (8 * i);
        i += 1;
    }
    t
};

/// Brent's cycle finding over the laps of a move: the state kept. It is asked at every lap from
/// one on (`t` counts them from 1), and keeps the state of the `t`-th when `t + 1` is a power of
/// two (1, 3, 7, ...), as laps since the last and laps until the next, counted, kept it (two
/// fields set up at every move for the few that are watched).
struct Brent<S> {
    /// None before the first state is kept: nothing to set up for the moves that never watch.
    kept: Option<S>,
}

impl<S: PartialEq + Copy> Brent<S> {
    #[inline(always)]
    fn new() -> Brent<S> {
        Brent { kept: None }
    }

    /// Whether `state`, of the `t`-th lap watched, is the one kept: the laps go round for ever.
    #[inline(always)]
    fn seen_again(&mut self, t: u32, state: S) -> bool {
        if self.kept == Some(state) {
            return true;
        }
        if (t + 1) & t == 0 {
            self.kept = Some(state);
        }
        false
    }
}

/// Where a random playout stops short of the game's end.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Until {
    /// Once this many moves have been played in all.
    pub plies: u32,
    /// After a move that leaves fewer seeds than this in the pits (0: never).
    pub floor: u32,
}

/// What a playout in fast form leaves for the general engine.
pub(crate) enum Handed {
    /// The playout stopped: the ply limit, the floor of seeds in the pits ([`Until`]), or no move
    /// to draw.
    Stopped,
    /// The game is to go on in the general engine (an end rule was carried out there), with the
    /// legal moves of the position reached when they were worked out.
    GoOn(Option<Moves>),
}

/// The position of a playout in fast form.
struct Packed<B = u128> {
    board: B,
    to_move: Player,
    ply: u32,
}

impl<B: Lanes, const L: usize> FastForm<B, L> {
    /// Does the fast form read every rule itself, never handing a position to the general engine
    /// (`starving_handed`, `unread`, `hand_below`)?
    pub(crate) fn reads_every_rule(&self) -> bool {
        self.reads_every_rule_from(0)
    }

    /// Does the fast form read every rule of the positions of `ply` moves played and after (a search
    /// from such a position never meets an opening handed over)?
    pub(crate) fn reads_every_rule_from(&self, ply: u32) -> bool {
        !self.starving_handed && self.unread == 0 && ply >= self.hand_below
    }

    /// Can a search over packed positions start at move number `ply`? Its move maker hands to the
    /// general engine what a playout hands over (a move judged by a feeding penalty, an end rule
    /// read in part), but not an opening.
    pub(crate) fn searched_from(&self, ply: u32) -> bool {
        ply >= self.hand_below
    }

    /// Is the move of `mover` on `b` judged by a feeding penalty (the opponent has no seeds), which
    /// the general engine plays?
    #[inline(always)]
    pub(crate) fn judged_by_penalty(&self, b: B, mover: Player) -> bool {
        self.starving_handed && (b & self.row_lanes[mover.other().index()]).is_zero()
    }
}

impl<B: Board, const L: usize> FastForm<B, L> {
    /// The end rules answered by probes (a row emptied, a few cells' counts) that hold after
    /// `mover`'s move reached `at`, whose filled cells are `filled`; `rows`: some rule asks whether a
    /// row is empty. Inlined, so that a playout that knows `rows` before the game tests it no more.
    ///
    /// Written out rather than through [`FastForm::ply_probes`] and [`FastForm::rows_holding`] (the
    /// searches' halves of it): through them the playouts' loop was laid out anew, Kalah +3%
    /// instructions a move.
    #[inline(always)]
    fn probes_holding(&self, rows: bool, filled: u64, mover: Player, at: &Packed<B>) -> u64 {
        let (mut any_hold, mut all_fail) = (0, 0);
        if rows {
            let empty = usize::from(filled & self.row_cells[0] == 0) * 2 + usize::from(filled & self.row_cells[1] == 0);
            (any_hold, all_fail) = self.row_probes[(mover.index() * 8 + at.to_move.index() * 4 + empty) & 15];
        }
        for (rule, p) in &self.probes {
            let holds = (at.ply.wrapping_sub(p.lo) <= p.span) == p.want;
            any_hold |= u64::from(holds) << rule;
            all_fail |= u64::from(!holds) << rule;
        }
        any_hold & self.any_probes | self.all_probes & !all_fail
    }

    /// The probes of the move number at move number `ply`: the rules with a probe that holds and
    /// those with one that fails (as [`FastForm::probes_holding`] combines them). Every move of a
    /// position reaches the same move number, so a search reads them once a position.
    #[inline(always)]
    fn ply_probes(&self, ply: u32) -> (u64, u64) {
        let (mut any_hold, mut all_fail) = (0, 0);
        for (rule, p) in &self.probes {
            let holds = (ply.wrapping_sub(p.lo) <= p.span) == p.want;
            any_hold |= u64::from(holds) << rule;
            all_fail |= u64::from(!holds) << rule;
        }
        (any_hold, all_fail)
    }

    /// [`FastForm::probes_holding`] with the probes of the move number already read (`probed`,
    /// from [`FastForm::ply_probes`]).
    #[inline(always)]
    fn rows_holding(&self, rows: bool, filled: u64, mover: Player, to_move: Player, probed: (u64, u64)) -> u64 {
        let (mut any_hold, mut all_fail) = probed;
        if rows {
            let empty = usize::from(filled & self.row_cells[0] == 0) * 2 + usize::from(filled & self.row_cells[1] == 0);
            let (hold, fail) = self.row_probes[(mover.index() * 8 + to_move.index() * 4 + empty) & 15];
            any_hold |= hold;
            all_fail |= fail;
        }
        any_hold & self.any_probes | self.all_probes & !all_fail
    }

    #[inline(always)]
    fn store(&self, p: Player) -> usize {
        self.pits + p.index()
    }

    #[inline(always)]
    fn row_seeds(&self, b: B, p: Player) -> u32 {
        (b & self.row_lanes[p.index()]).sum()
    }

    /// Sows the seeds of `origin` (which holds some): the board after and the cell of the last seed.
    #[inline(always)]
    fn sow(&self, b: B, origin: usize) -> (B, usize) {
        let origin = origin & (L - 1);
        let n = b.lane(origin) as usize;
        let lap = self.lap[origin] as usize;
        let kept = b & self.keep[origin];
        if n <= lap {
            let n = n & (PLACES - 1);
            return (kept + self.partial[origin][n], self.last[origin][n] as usize);
        }
        // More than a round: whole rounds, then the rest.
        let (rounds, rest) = ((n - 1) / lap, ((n - 1) % lap + 1) & (PLACES - 1));
        let board = kept + self.partial[origin][rest] + self.round[origin].times(rounds as u32);
        (board, self.last[origin][rest] as usize)
    }

    /// The end rules reading only the stores that hold on `b` (bit `i` for rule `i`).
    #[inline(always)]
    fn store_rules_holding(&self, b: B) -> u64 {
        let south = b.lane(self.pits) as usize;
        let north = b.lane(self.pits + 1) as usize;
        let hits = self.store_hits[south * (self.total as usize + 1) + north];
        self.store_rules[usize::from(hits)]
    }

    /// A move from `origin` with its captures: the board after, and whether the mover moves again.
    #[inline(always)]
    fn play(&self, b: B, origin: usize, mover: Player) -> (B, bool) {
        let (mut b, last) = self.sow(b, origin);
        let seeds = b.lane(last).min(63);
        // The first capture rule that holds, as `Game::capture` finds it, after the filter of the
        // cells and counts where one may.
        if self.capture_at[mover.index()][last & (L - 1)] >> seeds & 1 != 0
            && let Some(rule) = self.capture_rule(b, last, mover)
        {
            if rule.takes_any {
                // A grand slam takes every seed the opponent's row held after the sowing.
                let opponent = self.row_lanes[mover.other().index()];
                let fed = self.grand_slam_again && !(b & opponent).is_zero();
                self.fire(rule, &mut b, last, mover);
                if fed && (b & opponent).is_zero() {
                    return (b, true);
                }
            }
            return (b, rule.then == Then::AnotherMove);
        }
        (b, false)
    }

    /// The relay tables of a game whose moves relay.
    #[inline(always)]
    fn relay_tables(&self) -> &FastRelay<B, L> {
        self.relay.as_deref().expect("a relay game's fast form has relay tables")
    }

    /// A relay lap of `n` seeds from `start` (which holds them) of the move from `origin`: the board
    /// after and the cell of the last seed. The seeds go along the mover's whole track, but for the
    /// origin with `skip origin` (`FastRelay`).
    #[inline(always)]
    fn sow_on(&self, rt: &FastRelay<B, L>, b: B, start: usize, n: usize, origin: usize, mover: Player) -> (B, usize) {
        let (add, last) = self.lap_from(rt, start, n, origin, mover);
        ((b & self.keep[start & (L - 1)]) + add, last)
    }

    /// The seeds a lap of `n` seeds sows after `start` (whether picked up there or taken by a
    /// capture rule) in the move from `origin`, and the cell of the last.
    #[inline(always)]
    fn lap_from(&self, rt: &FastRelay<B, L>, start: usize, n: usize, origin: usize, mover: Player) -> (B, usize) {
        let (start, origin, m) = (start & (L - 1), origin & (L - 1), mover.index() & 1);
        let lap = self.lap[origin] as usize;
        let (rounds, rest) = if n <= lap { (0, n) } else { ((n - 1) / lap, (n - 1) % lap + 1) };
        // Past the origin passed over, the lap is one seed longer, less the seed in the origin.
        let over = rest >= usize::from(rt.skip_at[origin][start]);
        let at = (rest + usize::from(over)) & (PLACES - 1);
        let mut add = rt.partial[m][start][at];
        if over {
            add = add - rt.unit[origin];
        }
        if rounds > 0 {
            add = add + self.round[origin].times(rounds as u32);
        }
        (add, rt.last[m][start][at] as usize)
    }

    /// A move of a relay game from `origin`, as `Game::sow` plays it: after each lap the first
    /// capture rule that holds (which may end the move or give another, or take seeds to sow on at
    /// once), then the relay rule. The board after, whether the mover moves again and the laps sown,
    /// or `None` when the sowing would go on past the relay limit, or comes back to the state an
    /// earlier lap started in (Brent's cycle finding, as `Game::sow` does it): the move is not legal.
    #[inline(always)]
    fn play_relay(&self, rt: &FastRelay<B, L>, b: B, origin: usize, mover: Player) -> Option<(B, bool, u32)> {
        let (mut b, mut last) = if self.triggers.is_empty() {
            self.sow(b, origin)
        } else {
            let mut b = b;
            let n = b.take(origin);
            self.sow_seeds(rt, b, origin, n, origin, mover)
        };
        let m = mover.index() & 1;
        let mut laps = 1;
        // A lap's state is the board and the cell it starts from: the seeds in hand of a lap of
        // taken seeds are those missing from the board, which no other lap's board misses.
        let mut watch = Brent::new();
        loop {
            let mut n = b.lane(last);
            let at = last & (L - 1);
            let mut hand = 0;
            if rt.go[m][at] >> n.min(63) & 1 == 0 {
                if rt.stop[m][at] >> n.min(63) & 1 != 0 {
                    return Some((b, false, laps));
                }
                // Neither answered by the tables: the rules, one by one (a game's one capture rule
                // without the search's set-up, as in the home block's laps).
                if self.capture_at[m][at] >> n.min(63) & 1 != 0
                    && let Some(rule) = match &self.captures[..] {
                        [only] if only.sets.is_empty() => self.holds(&only.when, b, last, mover).then_some(only),
                        _ => self.capture_rule(b, last, mover),
                    }
                {
                    if rule.takes_any {
                        hand = self.fire(rule, &mut b, last, mover);
                        n = b.lane(last);
                    }
                    // Seeds taken to sow again are sown whatever the rule says next.
                    if hand == 0 && rule.then == Then::AnotherMove {
                        return Some((b, true, laps));
                    }
                    if hand == 0 && rule.then == Then::End {
                        return Some((b, false, laps));
                    }
                }
                if hand == 0 && !self.holds(&rt.when, b, last, mover) {
                    return Some((b, false, laps));
                }
            }
            laps += 1;
            if laps > rt.limit {
                return None;
            }
            // The board and the pit a lap starts from are all that its sowing and the laps after it
            // depend on here (the rules test `last` only): one seen again goes round for ever, and
            // would pass the limit in the end, so the move is refused at once. Looked for only
            // past the first few laps, where most moves have ended: a loop is still found, later.
            if laps > WATCH_FROM && watch.seen_again(laps - WATCH_FROM, (b, last)) {
                return None;
            }
            if hand > 0 {
                let (add, end) = self.lap_from(rt, last, hand as usize, origin, mover);
                (b, last) = (b + add, end);
            } else if self.triggers.is_empty() {
                (b, last) = self.sow_on(rt, b, last, n as usize, origin, mover);
            } else {
                b.take(last);
                (b, last) = self.sow_seeds(rt, b, last, n, origin, mover);
            }
        }
    }

    /// A lap of `n` seeds picked up from `start` (already emptied) in the move from `origin`, sown a
    /// seed at a time with the triggers tested after each, as `Game::sow_one_by_one` does: the board
    /// after and the cell of the last seed. A trigger that takes the last seed's pit leaves it empty,
    /// which ends the move (a relay needs seeds, and such a game has no capture rule).
    #[inline(never)]
    fn sow_seeds(&self, rt: &FastRelay<B, L>, mut b: B, start: usize, mut n: u32, origin: usize, mover: Player) -> (B, usize) {
        let m = mover.index() & 1;
        let mut c = start & (L - 1);
        while n > 0 {
            c = usize::from(self.next[m][c]) & (L - 1);
            if rt.skips && c == origin {
                continue;
            }
            b = b + B::at(c, 1);
            n -= 1;
            if self.trigger_at[m][c] >> b.lane(c).min(63) & 1 == 0 {
                continue;
            }
            // Every trigger in turn, each reading the board the ones before it left.
            for trigger in &self.triggers {
                if (if n == 0 { trigger.at_final } else { trigger.at_middle }) && self.holds(&trigger.when, b, c, mover) {
                    let owner = if self.row_cells[0] >> c & 1 != 0 {
                        Player::South
                    } else {
                        Player::North
                    };
                    let to = if trigger.to_owner { owner } else { mover };
                    let seeds = b.take(c);
                    b = b + B::at(self.store(to), seeds as u8);
                }
            }
        }
        (b, c)
    }

    /// [`FastForm::lap_from`] within the mover's home block `k` (`FastRelay::home`), for a lap of
    /// more than a round or with `skip origin` (`play_relay_home` reads the others in line): the
    /// seeds it adds to that block, less the `n` seeds picked up from `start` (as
    /// `FastRelay::home_laps`), and the cell of the last.
    #[inline(never)]
    fn lap_home(&self, rt: &FastRelay<B, L>, start: usize, n: usize, origin: usize, m: usize, k: usize) -> (u128, usize) {
        let (start, origin) = (start & (L - 1), origin & (L - 1));
        let lap = self.lap[origin] as usize;
        let (rounds, rest) = if n <= lap { (0, n) } else { ((n - 1) / lap, (n - 1) % lap + 1) };
        let over = rt.skips && rest >= usize::from(rt.skip_at[origin][start]);
        let at = (rest + usize::from(over)) & (PLACES - 1);
        let place = ((start & 15) * PLACES + at) & (HOME_PLACES - 1);
        // The table's entry picks up `at` seeds: `n` are.
        let mut add = rt.home_laps[m & 1][place]
            .wrapping_add(UNIT[start & 15] * at as u128)
            .wrapping_sub(UNIT[start & 15] * n as u128);
        if over {
            add = add.wrapping_sub(UNIT[origin & 15]);
        }
        if rounds > 0 {
            add = add.wrapping_add(self.round[origin].block(k) * rounds as u128);
        }
        (add, rt.home_last[m & 1][place] as usize)
    }

    /// Does the condition hold of cell `c`, which holds `n` seeds, on `b` (whose lane `c` may be out
    /// of date, but not the lane across) when `mover` moves?
    #[inline(always)]
    fn holds_with(&self, cond: &CellCond, b: &B, c: usize, n: u32, mover: Player) -> bool {
        let c = c & (L - 1);
        cond.at[mover.index()] >> c & 1 != 0 && has_count(&cond.count, n) && self.holds_across(cond, b, c)
    }

    /// Does the condition's test of the pit across cell `c` hold on `b`?
    #[inline(always)]
    fn holds_across(&self, cond: &CellCond, b: &B, c: usize) -> bool {
        cond.any_across
            || has_count(
                &cond.across,
                match self.across[c & (L - 1)] {
                    0xFF => 0,
                    a => b.lane(a as usize),
                },
            )
    }

    /// [`FastForm::play_relay`] for a mover whose track lies in one block `k` of the board, which
    /// the rules read only at the end of a lap (`FastRelay::home`): the laps add to that block
    /// alone, held in a register apart (`me`) for the whole move, while the rules read and change
    /// the rest of the board in `b` itself (whose block `k` is the board's before the move until the
    /// move ends). The same laps, rules and results. The move is written in place: when it is not
    /// legal, `b` is given back as it was (block `k` was not written; the pits a capture took are
    /// put back from a copy of the board made before the move's first capture, a copy a Hus move
    /// makes about every second move where the board was copied at every move).
    #[inline(always)]
    fn play_relay_home(&self, rt: &FastRelay<B, L>, out: &mut B, origin: usize, mover: Player, k: usize) -> Option<(bool, u32)> {
        let m = mover.index() & 1;
        let mut me = out.block_of(k);
        // The board before the move's first capture, once there was one (for the undo).
        let mut saved: Option<B> = None;
        // The origin's lap is the loop's first: a lap peeled off before the loop set up as many
        // instructions again (its own table addresses) on every move.
        // (Read where the board lies, not from `me` by a shift of the block's two halves, nor
        // from a copy of the board.)
        let (mut last, mut n) = (origin, out.lane_of(origin & (L - 1)) as usize);
        let mut laps = 1;
        // As in `play_relay`, the state with the seeds to pick up from `last` (seeds in hand
        // are put there first, below).
        let mut watch = Brent::new();
        // A lap of at most `short` seeds lies within a round and passes over no origin: it is two
        // reads of the mover's rows of the tables, in line (the other laps out of line, so that
        // the loop holds none of their tables' addresses: they were set up on every move).
        let short = usize::from(rt.short[origin & (L - 1)]);
        let (laps_of, ends, steps) = (&rt.home_laps[m], &rt.home_last[m], &rt.home_step[m]);
        let careful = rt.careful;
        loop {
            // Every lap is of the `n` seeds picked up from `last` (which holds them), taken out of
            // it by the lap's own entry (`FastRelay::home_laps`): one addition where the lane was
            // cleared first. Seeds a capture took into the hand were put into `last` first (below).
            let (add, end) = if n <= short {
                // One index for both reads: the start's place in the block and the seeds.
                let place = (last & 15) * PLACES + (n & (PLACES - 1));
                (laps_of[place & (HOME_PLACES - 1)], ends[place & (HOME_PLACES - 1)] as usize)
            } else {
                self.lap_home(rt, last, n, origin, m, k)
            };
            (me, last) = (me.wrapping_add(add), end);
            let at = last & (L - 1);
            let count = lane(me, at & 15);
            n = count as usize;
            let step = steps[((at & 15) << 8 | n) & (16 * 256 - 1)];
            if step != GO {
                if step == STOP {
                    out.set_block(k, me);
                    return Some((false, laps));
                }
                // A game's one capture rule tested without the search's set-up (a Hus move's third
                // lap end or so looks for one); where its tests of place and count are known to
                // hold (`ACROSS`), its test of the pit across alone.
                let mut hand = 0;
                let found = if step == ACROSS {
                    self.captures.first().filter(|only| self.holds_across(&only.when, out, last))
                } else if self.capture_at[m][at] >> count.min(63) & 1 != 0 {
                    match &self.captures[..] {
                        [only] => self.holds_with(&only.when, out, last, count, mover).then_some(only),
                        rules => rules.iter().find(|r| self.holds_with(&r.when, out, last, count, mover)),
                    }
                } else {
                    None
                };
                if let Some(rule) = found {
                    if rule.takes_any {
                        // Outside the home block: `me` and the count in `last` stay as they are.
                        if saved.is_none() {
                            saved = Some(*out);
                        }
                        hand = self.fire(rule, out, last, mover);
                    }
                    if hand == 0 && rule.then == Then::AnotherMove {
                        out.set_block(k, me);
                        return Some((true, laps));
                    }
                    if hand == 0 && rule.then == Then::End {
                        out.set_block(k, me);
                        return Some((false, laps));
                    }
                }
                if hand > 0 {
                    // The seeds in hand put into `last` and picked up from there: the lap's entry
                    // then sows them, where a table of laps of seeds in hand was chosen at every
                    // lap. (The state watched holds the seeds to pick up, `n`.)
                    me = me.wrapping_add(UNIT[last & 15] * hand as u128);
                    n = hand as usize;
                } else if rt.relays[m][at] >> count.min(63) & 1 == 0 && !self.holds_with(&rt.when, out, last, count, mover) {
                    out.set_block(k, me);
                    return Some((false, laps));
                }
            }
            laps += 1;
            // One test a lap until the first of the limit and the watch.
            if laps > careful
                && (laps > rt.limit || laps > WATCH_FROM && watch.seen_again(laps - WATCH_FROM, (out.with_block(k, me), last, n)))
            {
                if let Some(before) = saved {
                    *out = before;
                }
                return None;
            }
        }
    }

    /// The candidates of `to_move`'s moves in a relay game (bit `k - 1` for pit `k`), as
    /// `Game::candidates` finds them: the filled pits no `forbid` rule closes, but the moves judged
    /// first (`FastForm::judged_first`) that are not legal. Whether another is legal is known only
    /// once it is sown ([`FastForm::try_move`]).
    #[inline(always)]
    fn candidates(&self, b: &B, filled: u64, to_move: Player) -> u64 {
        let own = self.open_candidates(b, filled, to_move);
        if own & self.judged_first[to_move.index()] == 0 {
            return own;
        }
        self.judge_first(*b, own, to_move)
    }

    /// `own` without the moves judged first that are not legal.
    #[cold]
    #[inline(never)]
    fn judge_first(&self, b: B, own: u64, to_move: Player) -> u64 {
        let Some(rt) = self.relay.as_deref() else {
            return own;
        };
        let mut left = own & self.judged_first[to_move.index()];
        let mut kept = own;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let mut after = b;
            if self.try_move(rt, &mut after, i, to_move).is_none() {
                kept &= !(1 << i);
            }
        }
        kept
    }

    /// [`FastForm::candidates`] before any move is judged.
    #[inline(always)]
    fn open_candidates(&self, b: &B, filled: u64, to_move: Player) -> u64 {
        let base = to_move.index() * self.side;
        let k = self.row_block[to_move.index() & 1];
        if k != 0xFF {
            // The mover's block alone (a wide board's four would be read else).
            let (block, at) = (b.block_of(usize::from(k)), 16 * u32::from(k));
            let mut own = block.filled() << at;
            // (The rules tested first: a game without any reads no floor, and its loop no more
            // than before.)
            if !self.forbids.is_empty() && self.open_floor != 0 {
                return at_least_16(block, self.open_floor) << at >> base & ((1u64 << self.side) - 1);
            }
            for rule in &self.forbids {
                if !self.sets_hold(rule, *b, to_move) {
                    continue;
                }
                let cond = &rule.origin;
                own &= !match cond.range {
                    Some((lo, hi)) if cond.any_across => {
                        cond.at[to_move.index()] & (if lo == hi { block.holding(lo) } else { block.within(lo, hi) }) << at
                    }
                    _ => self.holding_cells(cond, *b, to_move),
                };
            }
            return own >> base & ((1u64 << self.side) - 1);
        }
        let mut own = filled >> base & ((1u64 << self.side) - 1);
        if !self.forbids.is_empty() {
            own &= !(self.forbidden(*b, to_move) >> base);
        }
        own
    }

    /// The move of a relay game from `to_move`'s pit `i + 1`, a candidate, if it is legal (its sowing
    /// ends within the relay limit and, when the opponent must be fed, feeds them), written in place:
    /// `b` is left the board after and whether the mover moves again is returned, or `b` is left as
    /// it was and `None` returned.
    #[inline(always)]
    fn try_move(&self, rt: &FastRelay<B, L>, b: &mut B, i: usize, to_move: Player) -> Option<bool> {
        let origin = to_move.index() * self.side + i;
        let in_place = rt.in_place[to_move.index() & 1];
        if in_place != 0xFF {
            // Nothing judged after the sowing: a move not legal is known before it is written.
            return self
                .play_relay_home(rt, b, origin, to_move, usize::from(in_place))
                .map(|(another, _)| another);
        }
        let home = rt.home[to_move.index() & 1];
        let (after, another, laps) = if home == 0xFF {
            self.play_relay(rt, *b, origin, to_move)?
        } else {
            let mut out = *b;
            let (another, laps) = self.play_relay_home(rt, &mut out, origin, to_move, usize::from(home))?;
            (out, another, laps)
        };
        if !self.after_forbids.is_empty() && self.forbidden_after(&after, laps, to_move) {
            return None;
        }
        // (Not `Option::filter`: it was left a call of its own, the board copied in and out, 10% of
        // a Hus move.)
        let other = self.row_lanes[to_move.other().index()];
        if self.must_feed && (*b & other).is_zero() && (after & other).is_zero() {
            return None;
        }
        *b = after;
        Some(another)
    }

    /// Does a `forbid` rule read after the move hold of `to_move`'s move of `laps` laps that left
    /// `after`?
    #[inline(never)]
    fn forbidden_after(&self, after: &B, laps: u32, to_move: Player) -> bool {
        let m = to_move.index() & 1;
        self.after_forbids.iter().any(|rule: &FastAfterForbid| {
            rule.laps
                .iter()
                .all(|&(lo, hi, inside)| (lo..=hi).contains(&i64::from(laps)) == inside)
                && rule
                    .rows
                    .iter()
                    .all(|t| (t.lo..=t.hi).contains(&i64::from(self.row_seeds(*after, t.row[m]))) == t.inside)
        })
    }

    /// A move of a relay game drawn among the `candidates` as `Game::random_playout` draws it
    /// ([`super::draw_among_with`]): only the moves drawn are sown. The move is written in place (`b` is
    /// left the board after; as it was when no move is legal), and whether the mover moves again is
    /// returned (boards go by reference: copies of a wide board's 64 bytes in and out of these calls
    /// were a fifth of a Hus move).
    #[inline(always)]
    fn draw_move(&self, rt: &FastRelay<B, L>, rng: &mut impl Rng, b: &mut B, candidates: u64, to_move: Player) -> Option<bool> {
        super::draw_among_with(rng, candidates, move |i| self.try_move(rt, b, i, to_move))
    }

    /// Has `to_move` a legal move among the `candidates` of a relay game?
    #[inline(never)]
    fn has_move(&self, rt: &FastRelay<B, L>, b: B, candidates: u64, to_move: Player) -> bool {
        let mut left = candidates;
        // A move not legal leaves the board as it was: one board for every try.
        let mut b = b;
        while left != 0 {
            if self.try_move(rt, &mut b, left.trailing_zeros() as usize, to_move).is_some() {
                return true;
            }
            left &= left - 1;
        }
        false
    }

    /// [`FastForm::has_move`] for a search, which asks it of every position it makes: where a move
    /// is known legal once its sowing ends (`FastRelay::in_place`), a candidate whose laps, while
    /// each lies within a round, go on or end the move by the tables alone (`go`, `ends`: no
    /// capture may hold there, or none that sows again and the relay rule fails), ending it within
    /// the laps the relay limit lets pass unwatched (`careful`), answers yes without the rules'
    /// tests, each lap's end read as the home-block walk reads it (`play_relay_home`); elsewhere
    /// the laps are sown as `play_relay` sows them ([`FastForm::has_move_laps`]). Only where no
    /// candidate answers are the candidates sown in full.
    #[inline(always)]
    fn has_move_searched(&self, rt: &FastRelay<B, L>, b: B, candidates: u64, to_move: Player) -> bool {
        let m = to_move.index() & 1;
        let k = rt.in_place[m];
        if k != 0xFF {
            let home = b.block_of(usize::from(k));
            let base = to_move.index() * self.side;
            let mut left = candidates;
            while left != 0 {
                let origin = (base + left.trailing_zeros() as usize) & (L - 1);
                left &= left - 1;
                let short = usize::from(rt.short[origin]);
                let (mut me, mut last, mut seeds, mut laps) = (home, origin, b.lane(origin) as usize, 1);
                while seeds <= short {
                    // Read as `play_relay_home` reads a lap of seeds picked up: one index for both.
                    let place = (last & 15) * PLACES + (seeds & (PLACES - 1));
                    me = me.wrapping_add(rt.home_laps[m][place & (HOME_PLACES - 1)]);
                    last = usize::from(rt.home_last[m][place & (HOME_PLACES - 1)]) & (L - 1);
                    let n = lane(me, last & 15);
                    // `ends` answers more than `home_step`'s `STOP` (lap ends where the relay
                    // rule fails and no capture sows again): a search reads the two bit sets.
                    if rt.go[m][last] >> n.min(63) & 1 == 0 {
                        if rt.ends[m][last] >> n.min(63) & 1 != 0 {
                            return true;
                        }
                        break;
                    }
                    laps += 1;
                    if laps > rt.careful {
                        break;
                    }
                    seeds = n as usize;
                }
            }
        } else if self.laps_judge_alone(b, to_move) {
            return self.has_move_laps(rt, b, candidates, to_move);
        }
        self.has_move(rt, b, candidates, to_move)
    }

    /// Does a move of `to_move` on `b` stand or fall by its laps alone: no trigger changes a lap,
    /// no `forbid` rule is read after the move, and feeding, if required, is not asked (the other
    /// row holds seeds)? Then [`FastForm::has_move_laps`] may answer the stuck question.
    #[inline(always)]
    fn laps_judge_alone(&self, b: B, to_move: Player) -> bool {
        self.triggers.is_empty()
            && self.after_forbids.is_empty()
            && !(self.must_feed && (b & self.row_lanes[to_move.other().index() & 1]).is_zero())
    }

    /// [`FastForm::has_move_searched`] for a relay game whose moves are not sown in place (no home
    /// block, or a `forbid` rule or feeding judged after the move) where nothing judged after the
    /// sowing can refuse a move (no `forbid` rule read after it; feeding, if required, is not
    /// asked, as the other row holds seeds) and no trigger changes a lap: a candidate whose laps go
    /// on (`go`) and end the move (`ends`) by the tables alone within `careful` laps is legal,
    /// each lap sown as `play_relay` sows it (`sow`, then `sow_on`) with no capture rule's test; only
    /// where no candidate answers are they sown in full.
    #[inline(never)]
    fn has_move_laps(&self, rt: &FastRelay<B, L>, b: B, candidates: u64, to_move: Player) -> bool {
        let m = to_move.index() & 1;
        let base = to_move.index() * self.side;
        let mut left = candidates;
        while left != 0 {
            let origin = (base + left.trailing_zeros() as usize) & (L - 1);
            left &= left - 1;
            let (mut after, mut last) = self.sow(b, origin);
            let mut laps = 1;
            loop {
                let n = after.lane(last);
                let at = last & (L - 1);
                if rt.go[m][at] >> n.min(63) & 1 == 0 {
                    if rt.ends[m][at] >> n.min(63) & 1 != 0 {
                        return true;
                    }
                    break;
                }
                laps += 1;
                if laps > rt.careful {
                    break;
                }
                (after, last) = self.sow_on(rt, after, last, n as usize, origin, to_move);
            }
        }
        self.has_move(rt, b, candidates, to_move)
    }

    /// The legal moves of `to_move` (bit `k - 1` for pit `k`) on `b`, whose filled cells are
    /// `filled` ([`Lanes::filled`]).
    #[inline(always)]
    fn legal(&self, b: B, filled: u64, to_move: Player) -> u64 {
        let row = (1u64 << self.side) - 1;
        let base = to_move.index() * self.side;
        let mut own = filled >> base & row;
        if !self.forbids.is_empty() {
            own &= !(self.forbidden(b, to_move) >> base);
        }
        if self.must_feed && filled & self.row_cells[to_move.other().index()] == 0 {
            return self.feeding(b, to_move, own);
        }
        own
    }

    /// Has `to_move` a legal move on `b`, whose filled cells are `filled`, in a game whose moves do
    /// not relay (`legal(..) != 0`)? Read from the filled cells of their row alone where no
    /// `forbid` rule and no feeding can take a move away (the searches ask it of every move they
    /// make: `legal`'s mask worked out was about 3% of an alpha-beta search).
    #[inline(always)]
    fn any_legal(&self, b: B, filled: u64, to_move: Player) -> bool {
        // (`row_cells` are the cells `legal` reads: bit `i` of the row for cell `base + i`.)
        let own = filled & self.row_cells[to_move.index() & 1];
        if own == 0 {
            return false;
        }
        if self.forbids.is_empty() && !(self.must_feed && filled & self.row_cells[to_move.other().index() & 1] == 0) {
            return true;
        }
        self.legal(b, filled, to_move) != 0
    }

    /// Has `to_move` a legal move on `b`, whose filled cells are `filled`? In a relay game, the
    /// candidates are sown until one is legal.
    #[inline(always)]
    fn has_legal(&self, b: B, filled: u64, to_move: Player) -> bool {
        match self.relay.as_deref() {
            None => self.any_legal(b, filled, to_move),
            Some(rt) => {
                let candidates = self.candidates(&b, filled, to_move);
                candidates != 0 && self.has_move(rt, b, candidates, to_move)
            }
        }
    }

    /// The moves among `filled` that leave the starving opponent seeds.
    #[cold]
    #[inline(never)]
    fn feeding(&self, b: B, to_move: Player, filled: u64) -> u64 {
        let mut moves = 0;
        let mut left = filled;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let (after, ..) = self.play(b, to_move.index() * self.side + i, to_move);
            if !(after & self.row_lanes[to_move.other().index()]).is_zero() {
                moves |= 1 << i;
            }
        }
        moves
    }

    #[inline(always)]
    fn value(&self, v: EndValue, pos: &Packed<B>, mover: Player) -> i64 {
        i64::from(match v {
            EndValue::Int(n) => return n,
            EndValue::Ply => pos.ply,
            EndValue::Row(p) => self.row_seeds(pos.board, p),
            EndValue::RowOfMover(other) => self.row_seeds(pos.board, if other { mover.other() } else { mover }),
            EndValue::RowOfToMove(other) => self.row_seeds(pos.board, if other { pos.to_move.other() } else { pos.to_move }),
            EndValue::Cell(c) => pos.board.lane(c as usize),
            EndValue::Pits => self.row_seeds(pos.board, Player::South) + self.row_seeds(pos.board, Player::North),
        })
    }

    #[inline(always)]
    fn check(&self, t: EndCheck, pos: &Packed<B>, mover: Player) -> bool {
        match t {
            // A row is empty (or not): one mask, no sum.
            EndCheck::In(EndValue::Row(p), 0, 0, inside) => (pos.board & self.row_lanes[p.index()]).is_zero() == inside,
            EndCheck::Cmp(a, op, b) => op.holds(self.value(a, pos, mover), self.value(b, pos, mover)),
            EndCheck::In(x, lo, hi, inside) => (lo..=hi).contains(&self.value(x, pos, mover)) == inside,
        }
    }
}

#[cfg(test)]
mod tests;
