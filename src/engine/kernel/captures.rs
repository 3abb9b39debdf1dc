//! The conditions of cells and sets of pits a fast form reads (a capture's, a forbid rule's, a
//! relay's), the capture rule that holds at a lap's end, and its pits taken.

use super::Board;
use crate::compile::shape::{CellCond, CountShape, FastCapture, FastForbid, FastForm, SetTest, has_count};
use crate::engine::Player;

impl<B: Board, const L: usize> FastForm<B, L> {
    /// Does the condition hold of cell `c` on `b` when `mover` moves?
    #[inline(always)]
    pub(super) fn holds(&self, cond: &CellCond, b: B, c: usize, mover: Player) -> bool {
        let c = c & (L - 1);
        let across = match self.across[c] {
            0xFF => 0,
            a => b.lane(a as usize),
        };
        cond.at[mover.index()] >> c & 1 != 0 && has_count(&cond.count, b.lane(c)) && has_count(&cond.across, across)
    }

    /// The cells of `b` (bit `c` for cell `c`) of which `cond` holds when `mover` moves.
    #[inline(always)]
    pub(super) fn holding_cells(&self, cond: &CellCond, b: B, mover: Player) -> u64 {
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
    pub(super) fn filter_cells(&self, cond: &CellCond, b: B, mover: Player) -> u64 {
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
    pub(super) fn forbidden(&self, b: B, mover: Player) -> u64 {
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
    pub(super) fn sets_hold(&self, rule: &FastForbid, b: B, mover: Player) -> bool {
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
    pub(super) fn all_sets_hold(&self, sets: &[SetTest], b: B, mover: Player) -> bool {
        sets.iter().all(|set| (self.set_cells(set, b, mover) != 0) == set.has)
    }

    /// The pits of a set on `b` (bit `c` for cell `c`).
    #[inline(always)]
    pub(super) fn set_cells(&self, set: &SetTest, b: B, mover: Player) -> u64 {
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
    pub(super) fn capture_rule(&self, b: B, last: usize, mover: Player) -> Option<&FastCapture<L>> {
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
    pub(super) fn capture_rule_from(&self, rule: &FastCapture<L>, b: B, last: usize, mover: Player) -> Option<&FastCapture<L>> {
        let at = self.captures.iter().position(|r| std::ptr::eq(r, rule)).unwrap_or(0);
        self.captures[at..]
            .iter()
            .find(|r| self.holds(&r.when, b, last, mover) && self.all_sets_hold(&r.sets, b, mover))
    }

    /// The pits of the sets a capture rule takes on `b`.
    #[inline(never)]
    pub(super) fn sets_taken(&self, rule: &FastCapture<L>, b: B, mover: Player) -> u64 {
        rule.take_sets.iter().fold(0u64, |cells, set| cells | self.set_cells(set, b, mover))
    }

    /// Carries out the actions of the capture rule `rule`, which holds at `last`, as
    /// `Game::fire` does: every pit it takes (the cells of `taken`) is emptied into the mover's
    /// store at once, which is what taking them one after another does (a pit named twice is empty
    /// the second time), or into the mover's hand when the rule sows them again: the seeds in hand
    /// are returned.
    #[inline(always)]
    pub(super) fn fire(&self, rule: &FastCapture<L>, b: &mut B, last: usize, mover: Player) -> u32 {
        if B::LANES > 16 && rule.series.is_none() && !self.grand_slam_undone && !self.capture_sets {
            // A few pits, each emptied where it lies: cheaper on a wide board than a mask of the
            // whole board and a sum of every lane (Hus: 5% of a move). On a narrow board the mask
            // costs no more (Kalah: 2 instructions a move less). In line: a call's saved registers
            // and frame cost as much as the takes.
            // (A pit named twice is one bit: empty the second time, as taking it twice leaves it.)
            let (mut seeds, mut cells) = (0, rule.taken[last & (L - 1)]);
            while cells != 0 {
                seeds += b.take(cells.trailing_zeros() as usize);
                cells &= cells - 1;
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
    pub(super) fn fire_masked(&self, rule: &FastCapture<L>, b: &mut B, last: usize, mover: Player) -> u32 {
        // The sets are found on the board as the rule fires (before any pit is taken).
        let mut taken = if self.capture_sets { self.sets_taken(rule, *b, mover) } else { 0 };
        taken |= rule.taken[last & (L - 1)];
        if let Some(series) = &rule.series
            && let Some(map) = rule.takes.first()
            && usize::from(map[last & (L - 1)]) < self.pits
        {
            let anchor = usize::from(map[last & (L - 1)]);
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
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compile::shape::Fast;
    use rand::Rng;

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
}
