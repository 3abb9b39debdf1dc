//! The `forbid` rules read before the sowing, answered from their tables per mover and origin where
//! the phase's rules have them ([`Game::forbidden_by_table`]).

use super::super::eval::at_origin;
use super::*;

impl Game {
    /// The first `forbid` rule read before the sowing that forbids the move of `pos`'s player to
    /// move from `origin` going clockwise (`cw`) or not (`Some(None)`: none does), where the
    /// phase's rules have tables per mover and origin (no context made: a listing asks this of
    /// every pit it tries); `None` where they have none (every such rule has one, or none has).
    #[inline(always)]
    pub(super) fn forbidden_by_table(&self, pos: &Position, phase: &Phase, origin: Cell, cw: bool) -> Option<Option<usize>> {
        for (i, f) in phase.forbids.iter().enumerate() {
            if f.after {
                continue;
            }
            f.when.lap.as_ref()?;
            match at_origin(&f.when, pos.to_move, cw, origin, &pos.board) {
                Some(false) => {}
                Some(true) => return Some(Some(i)),
                // This origin is one the table leaves to the evaluator.
                None => return Some(self.forbidden_from(pos, phase, origin, cw, i)),
            }
        }
        Some(None)
    }

    /// [`Game::forbidden_by_table`] from rule `from` on, by the evaluator where a table leaves it.
    #[inline(never)]
    fn forbidden_from(&self, pos: &Position, phase: &Phase, origin: Cell, cw: bool, from: usize) -> Option<usize> {
        let ctx = Ctx {
            clockwise: cw,
            ..self.ctx_at(pos, pos.to_move).with(Reg::Origin, origin)
        };
        (from..phase.forbids.len()).find(|&i| {
            let f = &phase.forbids[i];
            !f.after
                && match at_origin(&f.when, pos.to_move, cw, origin, &pos.board) {
                    Some(holds) => holds,
                    None => ctx.bool(&f.when),
                }
        })
    }
}
