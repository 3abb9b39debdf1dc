//! A trial sowing paused where a capture rule is about to fire, so that the trial of another answer
//! to a choice that rule's actions meet goes on from there rather than sowing the move again from
//! its start ([`Game::walk_choice_moves`]). Every state the rest of the sowing reads is kept: the
//! board, the counts before the latest seeds, the lap, the seeds taken, where the lap started and
//! ended, the way. A sowing is paused only before its loop watch has kept a state and while no
//! capture is logged for a grand slam, so that those need not be kept.

use super::turn::Turn;
use super::{Board, Cell, Slots};
use crate::compile::shape::WideBoard;

/// A sowing paused before capture rule `spot.rule` fires at the end of lap `spot.lap` in `spot.last`.
pub(super) struct Paused {
    pub(super) board: Board,
    /// The seeds of a packed trial's board (`engine::packed`), kept instead of `board`'s (which
    /// is then stale); `None` for the general sowing's.
    pub(super) packed: Option<WideBoard>,
    pub(super) before: Option<Slots<u32>>,
    pub(super) spot: Spot,
}

/// Where a paused sowing stands: the turn's way and lap ends, and the lap it stopped at. The same
/// for a packed trial's pause and the general sowing's.
#[derive(Clone, Copy)]
pub(super) struct Spot {
    cw: bool,
    lifted: u32,
    lap_start: Cell,
    first_lap_end: Cell,
    start: Cell,
    lap: u32,
    taken: u32,
    pub(super) last: Cell,
    pub(super) rule: usize,
    /// The bits of choices read before the rule fired.
    pub(super) at: u32,
}

impl Spot {
    /// Where a sowing of `turn` stands before rule `rule` fires at the end of lap `lap` (which
    /// started after `start`) in `last`, `taken` seeds taken so far and `at` bits of choices read.
    pub(super) fn of(turn: &Turn, start: Cell, lap: u32, taken: u32, last: Cell, rule: usize, at: u32) -> Spot {
        Spot {
            cw: turn.cw,
            lifted: turn.lifted,
            lap_start: turn.lap_start,
            first_lap_end: turn.first_lap_end,
            start,
            lap,
            taken,
            last,
            rule,
            at,
        }
    }

    /// Puts `turn` back where the sowing stood; the lap's start, number and the seeds taken.
    pub(super) fn resume(&self, turn: &mut Turn) -> (Cell, u32, u32) {
        (turn.cw, turn.lifted, turn.lap_start, turn.first_lap_end) = (self.cw, self.lifted, self.lap_start, self.first_lap_end);
        (self.start, self.lap, self.taken)
    }
}

/// The paused sowings of the walks on this thread, in slots reused from one walk to the next (a
/// walk inside another keeps above the first's).
#[derive(Default)]
struct Pool {
    slots: Vec<Paused>,
    used: usize,
}

/// The most sowings kept paused at once: past them, the trials of other answers sow from the start.
const MOST: usize = 4096;

thread_local! {
    // Made when the thread starts: a pool made at its first use is tested for at every use.
    static POOL: std::cell::RefCell<Pool> = const { std::cell::RefCell::new(Pool { slots: Vec::new(), used: 0 }) };
}

/// How many paused sowings are kept: a walk gives back what it kept above this ([`truncate`]).
pub(super) fn floor() -> usize {
    POOL.with(|p| p.borrow().used)
}

/// Forgets the paused sowings kept above `floor` (their slots stay for the next).
pub(super) fn truncate(floor: usize) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        p.used = p.used.min(floor);
    });
}

/// Keeps a paused sowing, `fill` writing it into a slot (an old one, or `fresh`); its number, or
/// `None` when too many are kept.
pub(super) fn keep(fill: impl FnOnce(&mut Paused), fresh: impl FnOnce() -> Paused) -> Option<u32> {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        let at = p.used;
        if at >= MOST {
            return None;
        }
        match p.slots.get_mut(at) {
            Some(slot) => fill(slot),
            None => p.slots.push(fresh()),
        }
        p.used += 1;
        Some(at as u32)
    })
}

/// Gives back the paused sowing `id` when it was the last kept and no choice took it.
pub(super) fn drop_last(id: u32) {
    POOL.with(|p| {
        let mut p = p.borrow_mut();
        if p.used == id as usize + 1 {
            p.used -= 1;
        }
    });
}

/// Reads the paused sowing `id`.
pub(super) fn read<T>(id: u32, f: impl FnOnce(&Paused) -> T) -> T {
    POOL.with(|p| f(&p.borrow().slots[id as usize]))
}
