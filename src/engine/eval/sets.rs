//! Sets of pits as the evaluator walks them: a row or the board, then filters read with `pit`
//! naming each pit, the pits that pass the first filters worked out once where those read only
//! where a pit lies; the ops over a set (`any`, `size`, `sum`, `leftmost`, ...).

use super::*;

impl<'a> Ctx<'a> {
    /// Calls `f` on every pit of the set, in the order of the row's player's numbering, until `f`
    /// returns false.
    pub fn each_in_set(&self, set: &PitSet, mut f: impl FnMut(Cell) -> bool) {
        let Some(fixed) = set.fixed.get_or_init(|| self.fixed_pits(set)) else {
            return self.walk_set(set, &set.filters, f);
        };
        // The pits that pass the row and the filters that read only where a pit lies are known;
        // the other filters are read as the set is walked.
        let cells = &fixed.cells[2 * self.mover.index() + self.to_move.index()];
        let rest = &set.filters[fixed.filters..];
        if rest.is_empty() {
            for &c in cells {
                if !f(c) {
                    return;
                }
            }
            return;
        }
        let mut room = None;
        let mut inner = self.walking(set, &mut room);
        for &c in cells {
            inner.regs[Reg::Pit as usize] = c;
            if rest.iter().all(|cond| inner.bool(cond)) && !f(c) {
                return;
            }
        }
    }

    /// The context a walk of `set` reads its filters in. A set standing alone keeps its filters'
    /// values in `room` for the walk; a program's sets keep theirs in the program's room.
    #[inline(always)]
    fn walking<'r>(&self, set: &PitSet, room: &'r mut Option<KeptRoom>) -> Ctx<'r>
    where
        'a: 'r,
    {
        let mut inner: Ctx<'r> = *self;
        if set.kept > 0 {
            inner.kept = Some(room.insert(KeptRoom::default()));
        }
        inner
    }

    /// The pits of `set`'s row (every pit, without one) that pass `filters`, in order, handed to `f`
    /// until it returns false.
    fn walk_set(&self, set: &PitSet, filters: &[Code], mut f: impl FnMut(Cell) -> bool) {
        let range = match &set.row {
            Some(p) => self.game.row(self.player(p)),
            None => 0..self.game.pit_count(),
        };
        // One context for the whole walk, `pit` changed in place: a context is too large to copy
        // for every pit.
        let mut room = None;
        let mut inner = self.walking(set, &mut room);
        for c in range {
            let c = c as Cell;
            // The pit a store stands in for is no pit of a set: the store is not one either.
            if self.game.is_store_pit(c) {
                continue;
            }
            inner.regs[Reg::Pit as usize] = c;
            if filters.iter().all(|cond| inner.bool(cond)) && !f(c) {
                return;
            }
        }
    }

    /// The pits of `set` that pass its row and its first filters that read only where a pit lies
    /// and who moves, for each mover and player to move; `None` when its row reads more. Worked
    /// out on an empty board, which such a row and filters do not read.
    #[cold]
    #[inline(never)]
    fn fixed_pits(&self, set: &PitSet) -> Option<FixedPits> {
        // A row read from `pit` (`row(pit.side)` in a filter) is read from the pit of the walk
        // around this one: not fixed.
        if !set.row.as_ref().is_none_or(|r| r.reads_only_places() && !r.reads_pit()) {
            return None;
        }
        let filters = set.filters.iter().take_while(|f| f.reads_only_places()).count();
        let n = self.game.pit_count();
        let empty = Board {
            cells: crate::board::Slots::from_elem(0, n + 2),
            claimed: crate::board::Slots::from_elem(None, n),
            closed: crate::board::Slots::from_elem(false, n),
            memory: Vec::new(),
        };
        let mut cells: [Vec<Cell>; 4] = Default::default();
        for mover in Player::BOTH {
            for to_move in Player::BOTH {
                let ctx = Ctx {
                    to_move,
                    ..Ctx::new(self.game, &empty, mover)
                };
                let list = &mut cells[2 * mover.index() + to_move.index()];
                ctx.walk_set(set, &set.filters[..filters], |c| {
                    list.push(c);
                    true
                });
            }
        }
        Some(FixedPits { cells, filters })
    }

    /// The first pit after `from` (before it, `backward`) along the lap's track that is in `set`,
    /// passing over stores and closed pits (the track holds only open pits); [`NO_PIT`] when no pit
    /// of a whole round is.
    #[inline(never)]
    pub(super) fn seek(&self, set: &PitSet, from: Cell, backward: bool) -> Cell {
        let track = self.lap_track();
        if from == NO_PIT || !track.has(from) {
            return NO_PIT;
        }
        let mut room = None;
        let mut inner = self.walking(set, &mut room);
        let mut c = from;
        for _ in 0..track.cells.len() {
            c = if backward { track.prev[c as usize] } else { track.next[c as usize] };
            if c == from {
                break;
            }
            if self.game.is_store(c) || self.board.closed.get(c as usize).copied().unwrap_or(false) {
                continue;
            }
            inner.regs[Reg::Pit as usize] = c;
            let in_row = set.row.as_ref().is_none_or(|p| self.game.side_of(c) == Some(self.player(p)));
            if in_row && set.filters.iter().all(|cond| inner.bool(cond)) {
                return c;
            }
        }
        NO_PIT
    }

    /// The value of an op over the set `i` of `code`.
    #[inline(never)]
    pub(super) fn set_value(&self, code: &Code, op: SetOp, i: u32) -> i64 {
        let set = self.set_pits(code, i);
        match op {
            SetOp::Any => {
                let mut any = false;
                self.each_in_set(set, |_| {
                    any = true;
                    false
                });
                i64::from(any)
            }
            SetOp::Size => {
                let mut n = 0;
                self.each_in_set(set, |_| {
                    n += 1;
                    true
                });
                n
            }
            SetOp::Sum => {
                let mut sum = 0;
                self.each_in_set(set, |c| {
                    sum += i64::from(self.count(c));
                    true
                });
                sum
            }
            SetOp::Leftmost | SetOp::Rightmost => {
                // The first pit found, or the walk to its end for the last.
                let first = matches!(op, SetOp::Leftmost);
                let mut found = NO_PIT;
                self.each_in_set(set, |c| {
                    found = c;
                    !first
                });
                if found == NO_PIT {
                    note_empty_extreme();
                }
                i64::from(found)
            }
            SetOp::ChooseIn => {
                let mut options: Vec<i64> = Vec::new();
                self.each_in_set(set, |c| {
                    options.push(i64::from(c));
                    true
                });
                self.chosen(&options, true, &[])
            }
        }
    }
}

/// The ops of a program over a set of pits.
#[derive(Clone, Copy)]
pub(super) enum SetOp {
    Any,
    Size,
    Sum,
    Leftmost,
    Rightmost,
    ChooseIn,
}
