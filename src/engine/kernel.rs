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

mod forms;
mod playout;
mod searching;
mod seen;
pub(crate) use searching::{AnySearch, Counted, FastMove, FastSearch, Line, Listed};

pub(crate) use seen::Board;

use super::trace::Silent;
use super::turn::Hints;
use super::{Game, Moves, Player, Position};
use crate::compile::ir::Then;
use crate::compile::shape::{
    CellCond, CountShape, EndCheck, EndValue, Fast, FastAfterForbid, FastCapture, FastForbid, FastForm, FastRelay, LANES, Lanes, PLACES,
    SetTest, has_count,
};

/// A byte of a packed narrow board (the searches' boards).
#[inline(always)]
fn lane(b: u128, c: usize) -> u32 {
    Lanes::lane(b, c)
}

/// Per lane of a block, one seed in it and every lane but it ([`FastForm::play_relay_home`]): a
/// 128-bit shift by a variable amount takes a dozen instructions.
const UNIT: [u128; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = 1 << (8 * i);
        i += 1;
    }
    t
};

/// See [`UNIT`].
const KEEP: [u128; 16] = {
    let mut t = [0; 16];
    let mut i = 0;
    while i < 16 {
        t[i] = !(0xFF << (8 * i));
        i += 1;
    }
    t
};

/// Laps of a move before the fast form looks for one that goes round for ever.
const WATCH_FROM: u32 = 16;

/// Brent's cycle finding over the laps of a move: the state kept, laps since, and laps until the
/// next is kept.
struct Brent<S> {
    /// None before the first state is kept: nothing to set up for the moves that never watch.
    kept: Option<S>,
    since: u32,
    power: u32,
}

impl<S: PartialEq + Copy> Brent<S> {
    #[inline(always)]
    fn new() -> Brent<S> {
        Brent {
            kept: None,
            since: 0,
            power: 1,
        }
    }

    /// Whether `state` is the one kept: the laps go round for ever.
    #[inline(always)]
    fn seen_again(&mut self, state: S) -> bool {
        if self.kept == Some(state) {
            return true;
        }
        self.since += 1;
        if self.since >= self.power {
            self.kept = Some(state);
            self.power *= 2;
            self.since = 0;
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

/// Per digit `j`, the sum over the first `blocks` blocks of cells (`block(i)`, a byte a cell) of
/// each cell's seeds times its weight's digit `j` (`digits[j][c]`): two products of a 16-bit
/// seed count and digit added in one 32-bit lane, eight products an instruction (`pmaddwd`, SSE2).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn key_sums<const L: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; 4] {
    use safe_arch::{add_i32_m128i, m128i, mul_i16_horizontal_add_m128i, unpack_high_i8_m128i, unpack_low_i8_m128i, zeroed_m128i};
    let eight = |d: &[i16]| m128i::from(<[i16; 8]>::try_from(d).expect("eight digits"));
    let mut acc = [zeroed_m128i(); 4];
    for i in 0..blocks {
        let x = m128i::from(block(i));
        let (low, high) = (unpack_low_i8_m128i(x, zeroed_m128i()), unpack_high_i8_m128i(x, zeroed_m128i()));
        for (a, d) in acc.iter_mut().zip(digits) {
            let d = &d[16 * i..16 * i + 16];
            let products = add_i32_m128i(
                mul_i16_horizontal_add_m128i(low, eight(&d[..8])),
                mul_i16_horizontal_add_m128i(high, eight(&d[8..])),
            );
            *a = add_i32_m128i(*a, products);
        }
    }
    acc.map(|a| <[i32; 4]>::from(a).iter().sum())
}

/// [`key_sums`] a cell at a time, where the processor has no SSE2.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn key_sums<const L: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; 4] {
    let mut sums = [0i32; 4];
    for i in 0..blocks {
        let bytes = block(i).to_le_bytes();
        for (sum, d) in sums.iter_mut().zip(digits) {
            *sum += bytes
                .iter()
                .zip(&d[16 * i..16 * i + 16])
                .map(|(&n, &d)| i32::from(n) * i32::from(d))
                .sum::<i32>();
        }
    }
    sums
}

impl<B: Lanes> Packed<B> {
    /// The board and the player to move as one number, equal for two positions exactly when both
    /// are. North's board has the top bit of every lane flipped: of at most 255 seeds at most one
    /// lane holds 128 or more, so the flip raises the lanes' sum, and the result is never the board
    /// of a position of the same game (whose sum is the game's seeds).
    #[inline(always)]
    fn key(&self) -> B {
        if self.to_move.index() == 0 {
            self.board
        } else {
            self.board ^ B::TOPS
        }
    }
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

    /// Does the condition hold of cell `c` on `b` when `mover` moves?
    #[inline(always)]
    fn holds(&self, cond: &CellCond, b: B, c: usize, mover: Player) -> bool {
        let c = c & (L - 1);
        let across = match self.across[c] {
            0xFF => 0,
            a => b.lane(a as usize),
        };
        cond.at[mover.index()] >> c & 1 != 0 && has_count(&cond.count, b.lane(c)) && has_count(&cond.across, across)
    }

    /// The cells of `b` (bit `c` for cell `c`) of which `cond` holds when `mover` moves.
    #[inline(always)]
    fn holding_cells(&self, cond: &CellCond, b: B, mover: Player) -> u64 {
        let at = cond.at[mover.index()];
        match cond.range {
            Some((lo, hi)) if cond.any_across => at & b.within(lo, hi),
            _ => (0..self.pits)
                .filter(|&c| self.holds(cond, b, c, mover))
                .fold(0, |cells, c| cells | 1 << c),
        }
    }

    /// [`FastForm::holding_cells`] for the filters of the sets of pits that capture rules test and
    /// take, from the whole board's lanes where the counts have the shape ([`CellCond::whole`]).
    /// Not in `holding_cells` itself: its pit-by-pit loop, in line in the playouts' loop (in the
    /// legal moves' `forbid` rules), left room there that a call took (Kalah +5% instructions).
    #[inline(always)]
    fn filter_cells(&self, cond: &CellCond, b: B, mover: Player) -> u64 {
        let pits = (1u64 << self.pits) - 1;
        let Some(whole) = &cond.whole else {
            return self.holding_cells(cond, b, mover);
        };
        let shaped = |shape: CountShape| {
            let cells = b.within(shape.lo, shape.hi);
            match shape.odd {
                None => cells,
                Some(true) => cells & b.odd(),
                Some(false) => cells & !b.odd(),
            }
        };
        let mut cells = cond.at[mover.index()] & pits & shaped(whole.count);
        if let Some(across) = whole.across {
            let mut passing = shaped(across) & pits;
            let mut from = 0;
            while passing != 0 {
                from |= self.across_from[passing.trailing_zeros() as usize & (L - 1)];
                passing &= passing - 1;
            }
            cells &= from;
        }
        cells
    }

    /// The pits the `forbid` rules close to `mover` on `b` (bit `c` for cell `c`).
    #[inline(always)]
    fn forbidden(&self, b: B, mover: Player) -> u64 {
        self.forbids.iter().fold(0, |cells, rule| {
            if self.sets_hold(rule, b, mover) {
                cells | self.holding_cells(&rule.origin, b, mover)
            } else {
                cells
            }
        })
    }

    /// Do the tests of sets of pits of a `forbid` rule hold on `b`?
    #[inline(always)]
    fn sets_hold(&self, rule: &FastForbid, b: B, mover: Player) -> bool {
        // Written out rather than through `all_sets_hold`: the candidates of Hus (a forbid rule
        // without sets, every move) took 10 instructions more a move through it.
        rule.sets.iter().all(|set| {
            let mut cells = set.row[mover.index()];
            for filter in &set.filters {
                if cells == 0 {
                    break;
                }
                cells &= self.holding_cells(filter, b, mover);
            }
            (cells != 0) == set.has
        })
    }

    /// Do the tests of sets of pits `sets` hold on `b`?
    #[inline(always)]
    fn all_sets_hold(&self, sets: &[SetTest], b: B, mover: Player) -> bool {
        sets.iter().all(|set| (self.set_cells(set, b, mover) != 0) == set.has)
    }

    /// The pits of a set on `b` (bit `c` for cell `c`).
    #[inline(always)]
    fn set_cells(&self, set: &SetTest, b: B, mover: Player) -> u64 {
        let mut cells = set.row[mover.index()];
        for filter in &set.filters {
            if cells == 0 {
                break;
            }
            cells &= self.filter_cells(filter, b, mover);
        }
        cells
    }

    /// The first capture rule that holds at `last` on `b`, as `Game::capture` finds it.
    #[inline(always)]
    fn capture_rule(&self, b: B, last: usize, mover: Player) -> Option<&FastCapture<L>> {
        let rule = self.captures.iter().find(|r| self.holds(&r.when, b, last, mover))?;
        if rule.sets.is_empty() {
            return Some(rule);
        }
        self.capture_rule_from(rule, b, last, mover)
    }

    /// [`FastForm::capture_rule`] from `rule` on, whose tests of `last` hold but which also tests
    /// sets of pits: out of line, so that the other games' search for a rule is what it was (a test
    /// of the sets in it was 5-11 instructions a Kalah move).
    #[inline(never)]
    fn capture_rule_from(&self, rule: &FastCapture<L>, b: B, last: usize, mover: Player) -> Option<&FastCapture<L>> {
        let at = self.captures.iter().position(|r| std::ptr::eq(r, rule)).unwrap_or(0);
        self.captures[at..]
            .iter()
            .find(|r| self.holds(&r.when, b, last, mover) && self.all_sets_hold(&r.sets, b, mover))
    }

    /// The pits of the sets a capture rule takes on `b`.
    #[inline(never)]
    fn sets_taken(&self, rule: &FastCapture<L>, b: B, mover: Player) -> u64 {
        rule.take_sets.iter().fold(0u64, |cells, set| cells | self.set_cells(set, b, mover))
    }

    /// Carries out the actions of the capture rule `rule`, which holds at `last`, as
    /// `Game::fire` does: every pit it takes (the cells of `taken`) is emptied into the mover's
    /// store at once, which is what taking them one after another does (a pit named twice is empty
    /// the second time), or into the mover's hand when the rule sows them again: the seeds in hand
    /// are returned.
    #[inline(always)]
    fn fire(&self, rule: &FastCapture<L>, b: &mut B, last: usize, mover: Player) -> u32 {
        if B::LANES > 16 && rule.series.is_none() && !self.grand_slam_undone && !self.capture_sets {
            // A few pits, each emptied where it lies: cheaper on a wide board than a mask of the
            // whole board and a sum of every lane (Hus: 5% of a move). On a narrow board the mask
            // costs no more (Kalah: 2 instructions a move less). In line: a call's saved registers
            // and frame cost as much as the takes.
            let mut seeds = 0;
            for map in &rule.takes {
                let c = map[last & (L - 1)] as usize;
                if c < self.pits {
                    seeds += b.take(c);
                }
            }
            if !rule.sows_again {
                *b = *b + B::at(self.store(mover), seeds as u8);
                return 0;
            }
            return seeds;
        }
        self.fire_masked(rule, b, last, mover)
    }

    /// [`FastForm::fire`] with the pits taken as a mask of the board.
    #[inline(never)]
    fn fire_masked(&self, rule: &FastCapture<L>, b: &mut B, last: usize, mover: Player) -> u32 {
        // The sets are found on the board as the rule fires (before any pit is taken).
        let mut taken = if self.capture_sets { self.sets_taken(rule, *b, mover) } else { 0 };
        let mut anchor = None;
        for map in &rule.takes {
            let c = map[last & (L - 1)] as usize;
            anchor.get_or_insert(c);
            if c < self.pits {
                taken |= 1 << c;
            }
        }
        if let (Some(series), Some(anchor)) = (&rule.series, anchor)
            && anchor < self.pits
        {
            // The series reads the board as it was when the rule fired.
            let holding = self.holding_cells(&series.cond, *b, mover);
            let walk = if self.on_track[mover.index()] >> anchor & 1 != 0 {
                mover
            } else {
                mover.other()
            }
            .index();
            let mut c = anchor;
            for _ in 1..self.track_len[walk] {
                c = if series.forward { self.next[walk][c] } else { self.prev[walk][c] } as usize;
                if c >= self.pits {
                    continue;
                }
                if holding >> c & 1 == 0 {
                    break;
                }
                taken |= 1 << c;
            }
        }
        let seeds = *b & B::spread(taken);
        if rule.sows_again {
            *b = *b - seeds;
            return seeds.sum();
        }
        let opponent = self.row_lanes[mover.other().index()];
        if self.grand_slam_undone && !(seeds & opponent).is_zero() && ((*b - seeds) & opponent).is_zero() {
            // A grand slam: the captures are put back, so nothing changes.
            return 0;
        }
        *b = *b - seeds + B::at(self.store(mover), seeds.sum() as u8);
        0
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
                // Neither answered by the tables: the rules, one by one.
                if self.capture_at[m][at] >> n.min(63) & 1 != 0
                    && let Some(rule) = self.capture_rule(b, last, mover)
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
            if laps > WATCH_FROM && watch.seen_again((b, last)) {
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

    /// [`FastForm::lap_from`] within the mover's home block `k` (`FastRelay::home`): the seeds it
    /// adds to that block, and the cell of the last.
    #[inline(always)]
    fn lap_home(&self, rt: &FastRelay<B, L>, start: usize, n: usize, origin: usize, m: usize, k: usize) -> (u128, usize) {
        let (start, origin) = (start & (L - 1), origin & (L - 1));
        let lap = self.lap[origin] as usize;
        let (rounds, rest) = if n <= lap { (0, n) } else { ((n - 1) / lap, (n - 1) % lap + 1) };
        let over = rt.skips && rest >= usize::from(rt.skip_at[origin][start]);
        let at = (rest + usize::from(over)) & (PLACES - 1);
        let mut add = rt.home_partial[m & 1][start & 15][at];
        if over {
            add -= UNIT[origin & 15];
        }
        if rounds > 0 {
            add += self.round[origin].block(k) * rounds as u128;
        }
        (add, rt.last[m & 1][start][at] as usize)
    }

    /// Does the condition hold of cell `c`, which holds `n` seeds, on `b` (whose lane `c` may be out
    /// of date, but not the lane across) when `mover` moves?
    #[inline(always)]
    fn holds_with(&self, cond: &CellCond, b: &B, c: usize, n: u32, mover: Player) -> bool {
        let c = c & (L - 1);
        let across = || match self.across[c] {
            0xFF => 0,
            a => b.lane(a as usize),
        };
        cond.at[mover.index()] >> c & 1 != 0 && has_count(&cond.count, n) && (cond.any_across || has_count(&cond.across, across()))
    }

    /// [`FastForm::play_relay`] for a mover whose track lies in one block `k` of the board, which
    /// the rules read only at the end of a lap (`FastRelay::home`): the laps add to that block
    /// alone, held in a register apart (`me`) for the whole move, while the rules read and change
    /// the rest of the board (`b`, whose block `k` is out of date). The same laps, rules and results.
    #[inline(always)]
    fn play_relay_home(&self, rt: &FastRelay<B, L>, b: &B, origin: usize, mover: Player, k: usize, out: &mut B) -> Option<(bool, u32)> {
        let m = mover.index() & 1;
        // The block read where the board lies, not from a copy of it: one copy of its 64 bytes less.
        let mut me = b.block(k);
        let mut b = *b;
        let (add, mut last) = self.lap_home(rt, origin, lane(me, origin & 15) as usize, origin, m, k);
        me = (me & KEEP[origin & 15]) + add;
        let mut laps = 1;
        // As in `play_relay`.
        let mut watch = Brent::new();
        loop {
            let at = last & (L - 1);
            let n = lane(me, at & 15);
            let mut hand = 0;
            if rt.go[m][at] >> n.min(63) & 1 == 0 {
                if rt.stop[m][at] >> n.min(63) & 1 != 0 {
                    {
                        *out = b;
                        out.set_block(k, me);
                        return Some((false, laps));
                    }
                }
                if self.capture_at[m][at] >> n.min(63) & 1 != 0
                    && let Some(rule) = self.captures.iter().find(|r| self.holds_with(&r.when, &b, last, n, mover))
                {
                    if rule.takes_any {
                        // Outside the home block: `me` and the count in `last` stay as they are.
                        hand = self.fire(rule, &mut b, last, mover);
                    }
                    if hand == 0 && rule.then == Then::AnotherMove {
                        {
                            *out = b;
                            out.set_block(k, me);
                            return Some((true, laps));
                        }
                    }
                    if hand == 0 && rule.then == Then::End {
                        {
                            *out = b;
                            out.set_block(k, me);
                            return Some((false, laps));
                        }
                    }
                }
                if hand == 0 && !self.holds_with(&rt.when, &b, last, n, mover) {
                    {
                        *out = b;
                        out.set_block(k, me);
                        return Some((false, laps));
                    }
                }
            }
            laps += 1;
            if laps > rt.limit {
                return None;
            }
            if laps > WATCH_FROM && watch.seen_again((b.with_block(k, me), last)) {
                return None;
            }
            let (add, end) = if hand > 0 {
                self.lap_home(rt, last, hand as usize, origin, m, k)
            } else {
                me &= KEEP[at & 15];
                self.lap_home(rt, last, n as usize, origin, m, k)
            };
            (me, last) = (me + add, end);
        }
    }

    /// The candidates of `to_move`'s moves in a relay game (bit `k - 1` for pit `k`), as
    /// `Game::candidates` finds them: the filled pits no `forbid` rule closes, but the moves judged
    /// first (`FastForm::judged_first`) that are not legal. Whether another is legal is known only
    /// once it is sown ([`FastForm::try_move`]).
    #[inline(always)]
    fn candidates(&self, b: B, filled: u64, to_move: Player) -> u64 {
        let own = self.open_candidates(b, filled, to_move);
        if own & self.judged_first[to_move.index()] == 0 {
            return own;
        }
        self.judge_first(b, own, to_move)
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
        let mut after = b;
        while left != 0 {
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            if self.try_move(rt, &b, i, to_move, &mut after).is_none() {
                kept &= !(1 << i);
            }
        }
        kept
    }

    /// [`FastForm::candidates`] before any move is judged.
    #[inline(always)]
    fn open_candidates(&self, b: B, filled: u64, to_move: Player) -> u64 {
        let base = to_move.index() * self.side;
        let k = self.row_block[to_move.index() & 1];
        if k != 0xFF {
            // The mover's block alone (a wide board's four would be read else).
            let (block, at) = (b.block(usize::from(k)), 16 * u32::from(k));
            let mut own = block.filled() << at;
            for rule in &self.forbids {
                if !self.sets_hold(rule, b, to_move) {
                    continue;
                }
                let cond = &rule.origin;
                own &= !match cond.range {
                    Some((lo, hi)) if cond.any_across => cond.at[to_move.index()] & block.within(lo, hi) << at,
                    _ => self.holding_cells(cond, b, to_move),
                };
            }
            return own >> base & ((1u64 << self.side) - 1);
        }
        let mut own = filled >> base & ((1u64 << self.side) - 1);
        if !self.forbids.is_empty() {
            own &= !(self.forbidden(b, to_move) >> base);
        }
        own
    }

    /// The move of a relay game from `to_move`'s pit `i + 1`, a candidate, if it is legal (its sowing
    /// ends within the relay limit and, when the opponent must be fed, feeds them): the board after
    /// and whether the mover moves again.
    #[inline(always)]
    fn try_move(&self, rt: &FastRelay<B, L>, b: &B, i: usize, to_move: Player, out: &mut B) -> Option<bool> {
        let origin = to_move.index() * self.side + i;
        let (another, laps) = match rt.home[to_move.index() & 1] {
            0xFF => {
                let (after, another, laps) = self.play_relay(rt, *b, origin, to_move)?;
                *out = after;
                (another, laps)
            }
            k => self.play_relay_home(rt, b, origin, to_move, usize::from(k), out)?,
        };
        if !self.after_forbids.is_empty() && self.forbidden_after(out, laps, to_move) {
            return None;
        }
        // (Not `Option::filter`: it was left a call of its own, the board copied in and out, 10% of
        // a Hus move.)
        let other = self.row_lanes[to_move.other().index()];
        if self.must_feed && (*b & other).is_zero() && (*out & other).is_zero() {
            return None;
        }
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
    /// ([`super::draw_among`]): only the moves drawn are sown. The board after is left in `out`
    /// (boards go by reference: copies of a wide board's 64 bytes in and out of these calls were a
    /// fifth of a Hus move), and whether the mover moves again is returned.
    #[inline(always)]
    fn draw_move(&self, rt: &FastRelay<B, L>, rng: &mut impl Rng, b: &B, candidates: u64, to_move: Player, out: &mut B) -> Option<bool> {
        let mut another = false;
        super::draw_among(rng, candidates, |i| match self.try_move(rt, b, i, to_move, out) {
            Some(more) => {
                another = more;
                true
            }
            None => false,
        })?;
        Some(another)
    }

    /// Has `to_move` a legal move among the `candidates` of a relay game?
    #[inline(never)]
    fn has_move(&self, rt: &FastRelay<B, L>, b: B, candidates: u64, to_move: Player) -> bool {
        let mut left = candidates;
        let mut after = b;
        while left != 0 {
            if self.try_move(rt, &b, left.trailing_zeros() as usize, to_move, &mut after).is_some() {
                return true;
            }
            left &= left - 1;
        }
        false
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

    /// Has `to_move` a legal move on `b`, whose filled cells are `filled`? In a relay game, the
    /// candidates are sown until one is legal.
    #[inline(always)]
    fn has_legal(&self, b: B, filled: u64, to_move: Player) -> bool {
        match self.relay.as_deref() {
            None => self.legal(b, filled, to_move) != 0,
            Some(rt) => {
                let candidates = self.candidates(b, filled, to_move);
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

    /// The position's identity (`Game::hash`) for a game with no claims or memory, whose closed
    /// pits are the tables' own. Out of line: asked only while the positions before a playout
    /// may come back.
    #[inline(never)]
    fn identity(&self, b: B, to_move: Player) -> u64 {
        // Sixteen bytes a block, times each 16-bit digit of their cells' weights (none past the
        // stores), summed in 32 bits (at most 64 x 255 x 2^15 < 2^31). A lane read by a shift of
        // its own and a 64-bit multiply each was about 300 instructions a call on 14 cells, 290
        // on 34, at a search's every move made while the positions before it may come back.
        let blocks = (self.pits + 2).div_ceil(16).min(L / 16);
        let sums = key_sums(&self.key_digits, |i| b.block(i), blocks);
        let h = Game::turn_key(to_move).wrapping_add(self.closed_key);
        sums.iter()
            .enumerate()
            .fold(h, |h, (j, &s)| h.wrapping_add((i64::from(s) as u64) << (16 * j)))
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
mod tests {
    use super::*;

    /// A game's fast form is a few pages of tables, and a relay game's lap tables as much again.
    #[test]
    fn the_tables_stay_small() {
        let (form, relay) = (std::mem::size_of::<FastForm>(), std::mem::size_of::<FastRelay>());
        eprintln!("FastForm {form} bytes, FastRelay {relay} bytes");
        assert!(form <= 16 * 1024 && relay <= 20 * 1024, "{form} {relay}");
    }

    /// The cells of the sets of pits that capture rules test and take, found for the whole board
    /// from the shape of their counts (ranges, parities, the pit across) and pit by
    /// pit otherwise, are the pits where the condition holds, one by one.
    #[test]
    fn sets_of_pits_are_found_for_the_whole_board_as_pit_by_pit() {
        use rand::{SeedableRng, rngs::StdRng};
        fn agree<B: Board, const L: usize>(ff: &FastForm<B, L>, rng: &mut StdRng) -> (usize, usize) {
            let filters: Vec<&CellCond> = ff
                .captures
                .iter()
                .flat_map(|r| r.sets.iter().chain(&r.take_sets))
                .flat_map(|set| &set.filters)
                .collect();
            let shaped = filters.iter().filter(|f| f.whole.is_some()).count();
            for _ in 0..2000 {
                let cells: Vec<u32> = (0..ff.pits + 2).map(|_| rng.gen_range(0..14)).collect();
                let b = B::of_cells(&cells);
                for filter in &filters {
                    for mover in Player::BOTH {
                        let one_by_one = (0..ff.pits)
                            .filter(|&c| ff.holds(filter, b, c, mover))
                            .fold(0u64, |cells, c| cells | 1 << c);
                        assert_eq!(ff.filter_cells(filter, b, mover), one_by_one, "{filter:?} on {cells:?}");
                    }
                }
            }
            (filters.len(), shaped)
        }
        let rules = "first south
sow { direction ccw }
capture \"odd across a few\" {
  when last.count > 1 and any(board where pit.count is odd and opposite(pit).count in 1..5)
  take board where pit.count > 2 and pit.count is even and opposite(pit).count is odd
}
capture \"even pairs\" {
  when any(row(mover) where pit.count in 2..7 and opposite(pit).count is even)
  take row(opponent) where pit.count is odd and pit.count > 4 and opposite(pit).count == 0
}
capture \"no shape\" {
  when any(board where pit.count != 3)
  take board where pit.count > 0 and opposite(pit).count != 2
}
end \"no move\" when no_moves remaining owner
";
        let mut rng = StdRng::seed_from_u64(7);
        for board in ["pits 6\n  seeds 4", "rows 2\n  pits 8\n  seeds 2"] {
            let text = format!("game \"Sets\"\nboard {{\n  {board}\n  stores captures\n}}\n{rules}");
            let loaded = crate::load_text(std::path::Path::new("invented.sow"), &text, &[]).expect("the invented game checks");
            let (filters, shaped) = match loaded.game.fast.as_deref() {
                Some(Fast::Narrow(ff)) => agree(ff, &mut rng),
                Some(Fast::Wide(ff)) => agree(ff.as_ref(), &mut rng),
                None => panic!("no fast form: {:?}", loaded.game.why_general_engine()),
            };
            // Every filter but the two that are no range of one parity has the whole board's shape.
            assert_eq!((filters, shaped), (6, 4), "{board}");
        }
    }

    /// A packed position's identity is the general engine's (`Game::hash`) on boards of both
    /// widths, the cells of the last block and of blocks past the first included: the repetition
    /// rule compares them with the identities of the positions before a search or a playout.
    #[test]
    fn a_packed_identity_is_the_position_hash() {
        use rand::SeedableRng;
        let texts = [
            // Six pits a side and two stores: 14 cells of one block.
            "game \"narrow\" board { pits 6 seeds 4 stores captures } first south sow { direction ccw }
             end \"stuck\" when no_moves remaining owner",
            // Four rows of nine and two stores: 38 cells, the stores in the third block.
            "game \"wide\" board { rows 2 pits 9 seeds 2 stores captures } first south
             sow { direction ccw track own }
             end \"stuck\" when no_moves loser to_move",
        ];
        for text in texts {
            let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), text, &[]) else {
                panic!("the invented game checks:\n{text}");
            };
            let game = loaded.game;
            let mut rng = rand::rngs::StdRng::seed_from_u64(3);
            let mut seen = 0;
            for _ in 0..20 {
                let mut pos = game.initial(None);
                while !pos.over && pos.ply < 60 {
                    let id = match game.fast.as_deref() {
                        Some(Fast::Narrow(ff)) => ff.identity(u128::of_cells(&pos.board.cells), pos.to_move),
                        Some(Fast::Wide(ff)) => ff.identity(crate::compile::shape::WideBoard::of_cells(&pos.board.cells), pos.to_move),
                        None => panic!("no fast form:\n{text}"),
                    };
                    assert_eq!(id, game.hash(&pos), "{text}\n{:?}", pos.board.cells);
                    seen += 1;
                    game.random_playout(&mut pos, &mut rng, 1);
                }
            }
            assert!(seen > 200, "{seen} positions of {text}");
        }
    }

    #[test]
    fn packed_bits_and_sums() {
        let b: u128 = 3 | 1 << 16 | 200 << 120;
        assert_eq!(b.filled(), 0b1000_0000_0000_0101);
        assert_eq!(b.sum(), 204);
        assert_eq!(lane(b, 15), 200);
    }
}
