//! The legal moves an end rule asks for: whole, handed on to the next move, or only the first where
//! the caller reads no more than whether there is one.

use crate::engine::choice::move_base;
use crate::engine::turn::{Hints, MoveRules};
use crate::engine::{Game, Moves, Position};

thread_local! {
    /// The moves of the position a move reached, listed whole by its end rules when asked to hand
    /// them on ([`Hints::hand_on`]), for [`Game::take_handed`].
    static HANDED: std::cell::RefCell<Option<Vec<(usize, u32)>>> = const { std::cell::RefCell::new(None) };
}

impl Game {
    /// [`Game::legal_with`] for an end rule: with [`Hints::hand_on`], a game with choices on the way
    /// lists every move of the position (what the next move lists) instead of only the pits with
    /// one, and keeps the list for [`Game::take_handed`].
    #[inline(always)]
    pub(in crate::engine) fn legal_for_ends(&self, pos: &Position, rules: MoveRules, hints: Hints) -> Moves {
        if hints.hand_on && self.uses_choose && Self::pits_checked(rules) {
            return self.legal_handing_on(pos, rules);
        }
        if hints.first_only && Self::pits_checked(rules) {
            return self.legal_first_only(pos, rules);
        }
        self.legal_with(pos, rules)
    }

    /// [`Game::legal_for_ends`] for a caller that reads only whether there is a move
    /// ([`Hints::first_only`]), unless an end rule asks `can_feed` of the moves. Out of line: the
    /// random playouts, which hand the listing on, kept their speed only so.
    #[cold]
    #[inline(never)]
    fn legal_first_only(&self, pos: &Position, rules: MoveRules) -> Moves {
        if !self.ends.iter().any(|r| r.asks_can_feed) {
            let first = if self.uses_choose {
                self.choice_first(pos, rules)
            } else {
                self.checked_first(pos, rules)
            };
            if !first.is_empty() {
                return first;
            }
        }
        self.legal_with(pos, rules)
    }

    /// The first move [`Game::legal_checked`] lists (each move sown to be judged until one is found
    /// legal; with `captures required`, the first that takes seeds, else the first legal), alone;
    /// none when it lists none.
    fn checked_first(&self, pos: &Position, rules: MoveRules) -> Moves {
        let mut first = Moves::NONE;
        let mut first_playable = None;
        for k in 1..=self.move_count() {
            if let Ok(taken) = self.check_move_taking(pos, rules, k) {
                if taken > 0 || !rules.phase.captures_required {
                    first.insert(k);
                    return first;
                }
                first_playable.get_or_insert(k);
            }
        }
        if let Some(k) = first_playable {
            first.insert(k);
        }
        first
    }

    /// [`Game::legal_with`] where it would ask [`Game::choice_pits`], answered from the whole listing
    /// of [`Game::choice_moves`], which is kept. The pits of a listing that no bound cut short are
    /// exactly those `choice_pits` finds (it walks each pit's moves in the same order, up to the
    /// first that answers it); one that was cut is set aside and `choice_pits` asked.
    #[cold]
    #[inline(never)]
    fn legal_handing_on(&self, pos: &Position, rules: MoveRules) -> Moves {
        let (listed, cut) = self.all_choice_moves_cut(pos, rules, true);
        let mut moves = Moves::NONE;
        if cut {
            moves = self.choice_pits(pos, rules);
        } else {
            for &(k, _) in &listed {
                moves.insert(move_base(k));
            }
            HANDED.set(Some(listed));
        }
        if self.may_pass && self.pass_allowed(pos, rules) {
            return Moves::from_bits(moves.bits() | 1 << (self.pass_move() - 1));
        }
        moves
    }

    /// The listing an end rule kept ([`Hints::hand_on`]) since the last call, if any: what
    /// [`Game::choice_moves`] gives for the position the move reached, while the game went on.
    pub(in crate::engine) fn take_handed() -> Option<Vec<(usize, u32)>> {
        HANDED.take()
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use crate::engine::turn::Hints;

    /// Where the caller reads only whether there is a legal move, a game whose moves are sown to be
    /// judged lists the first move its whole listing holds (with `captures required`, the first that
    /// takes, when one does), and none exactly when that listing holds none.
    #[test]
    fn the_first_move_of_a_checked_listing_is_its_listings_first() {
        let text = r#"game "Required"
board { pits 5 seeds 3 stores captures }
first south
sow { direction ccw relay when last.before > 0 and last.count < 6 }
captures required
capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0 take opposite(last) }
end "no move" when no_moves remaining owner
"#;
        let game = crate::load_text(std::path::Path::new("invented.sow"), text, &[])
            .expect("the invented game checks")
            .game;
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let (mut positions, mut taking) = (0, 0);
        for _ in 0..40 {
            let mut pos = game.initial(None);
            while !pos.over {
                let rules = game.move_rules(&pos, Hints::default());
                let whole = game.legal_with(&pos, rules);
                let first = game.legal_for_ends(&pos, rules, Hints::FIRST_ONLY);
                let expected = whole.bits() & whole.bits().wrapping_neg();
                assert_eq!(first.bits(), expected, "{:?}", pos.board.cells);
                positions += 1;
                // A playable move before the first listed takes nothing: `captures required` left it out.
                let first_listed = expected.trailing_zeros() as usize + 1;
                if expected != 0 && (1..first_listed).any(|k| game.check_move_taking(&pos, rules, k).is_ok()) {
                    taking += 1;
                }
                game.random_playout(&mut pos, &mut rng, 1);
            }
        }
        // Positions where `captures required` left out an earlier playable move were met.
        assert!(
            positions > 500 && taking > 20,
            "{positions} positions, {taking} with a capture required"
        );
    }
}
