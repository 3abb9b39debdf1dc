//! Which of a game's fast forms plays a position, if any: the form of its rules, or the one built for
//! the pits a round's set-up closed; and the general engine's game alone, to check them against.

use std::sync::Arc;

use rand::Rng;

use super::{Handed, Until};
use crate::compile::shape::{Fast, FastForm, Lanes};
use crate::engine::turn::Hints;
use crate::engine::{Game, Position};

impl Game {
    /// Does the game have a fast form (its rules a shape `compile::shape` recognises)?
    pub fn has_fast_form(&self) -> bool {
        self.fast.is_some()
    }

    /// Why the general engine plays the game, in the words of the rules (the first rule the fast
    /// form cannot play); `None` when the fast form plays it.
    pub fn why_general_engine(&self) -> Option<&str> {
        match (&self.fast, &self.general_because) {
            (Some(_), _) => None,
            (None, Some(why)) => Some(why),
            (None, None) => Some("the general engine was asked for"),
        }
    }

    /// Does the fast form play the next move from `pos` (the general engine plays it otherwise)?
    /// For tools and tests that want to know where a game's speed comes from.
    pub fn fast_form_takes(&self, pos: &Position) -> bool {
        self.fast_takes(pos, Hints::of(self, pos))
    }

    /// The same game played by the general engine alone: for checking the fast form against it.
    pub fn without_fast_form(&self) -> Game {
        Game {
            fast: None,
            general_because: None,
            ..self.clone()
        }
    }

    /// Does the game's fast form hand some positions to the general engine (and take the game back
    /// after its move)?
    pub(crate) fn fast_hands_over(&self) -> bool {
        match self.fast.as_deref() {
            // A round's end is the general engine's, and the next round may have no pit closed.
            Some(Fast::Narrow(ff)) => !ff.reads_every_rule() || self.rounds.is_some(),
            Some(Fast::Wide(ff)) => !ff.reads_every_rule() || self.rounds.is_some(),
            None => false,
        }
    }

    /// Does the game's fast form hand an opening to the general engine (`FastForm::hand_below`)?
    pub(crate) fn fast_hands_over_opening(&self) -> bool {
        match self.fast.as_deref() {
            Some(Fast::Narrow(ff)) => ff.hand_below > 0,
            Some(Fast::Wide(ff)) => ff.hand_below > 0,
            None => false,
        }
    }

    /// The fast form, if the game has one and `pos` is a position its tables were built for.
    #[inline]
    pub(crate) fn fast_form_for(&self, pos: &Position, hints: Hints) -> Option<&FastForm> {
        match self.fast.as_deref()? {
            // The searches have no way to hand a position over to the general engine.
            // (Nor a round's end: the exact searches keep to games without rounds.)
            Fast::Narrow(ff) => {
                (Self::fits_open(ff, pos, hints) && ff.reads_every_rule_from(pos.ply) && self.rounds.is_none()).then_some(ff)
            }
            Fast::Wide(_) => None,
        }
    }

    /// Were the tables of `ff` built for `pos`, whose closed pits are `closed` ([`closed_pits`])?
    #[inline]
    fn fits<B: Lanes, const L: usize>(ff: &FastForm<B, L>, pos: &Position, closed: u64) -> bool {
        let cells: &[u32] = &pos.board.cells;
        // An opening the fast form does not read is the general engine's (the game comes back
        // after each of its moves, `Game::random_playout_above`); the move number only grows, so
        // a playout's loop never meets one.
        !pos.over
            && pos.ply >= ff.hand_below
            && cells.len() == ff.pits + 2
            // Pits closed by a round's set-up: the tables' tracks pass over those pits only.
            && closed == ff.closed
            && pos.board.memory.is_empty()
            && cells.iter().sum::<u32>() == ff.total
    }

    /// [`Game::fits`] for the searches, which keep to games whose tables were built for every pit
    /// open.
    #[inline]
    pub(super) fn fits_open<B: Lanes, const L: usize>(ff: &FastForm<B, L>, pos: &Position, hints: Hints) -> bool {
        closed_pits(pos, hints).is_some_and(|closed| Self::fits(ff, pos, closed))
    }

    /// Could the game's fast form take `pos` ([`Game::fast_playout_any`])?
    pub(crate) fn fast_takes(&self, pos: &Position, hints: Hints) -> bool {
        self.form_taking(pos, hints).is_some()
    }

    /// The fast form that takes `pos`, if one does: the game's own, or the one built for the pits
    /// a round's set-up closed (built the first time a set of closed pits is met, and kept for the
    /// game).
    fn form_taking(&self, pos: &Position, hints: Hints) -> Option<Arc<Fast>> {
        let own = self.fast.as_ref()?;
        let closed = closed_pits(pos, hints)?;
        let form = match closed {
            0 => own.clone(),
            _ => self
                .closed_forms
                .get_or_build(closed, || crate::compile::shape::recognise_closed(self, closed).ok())?,
        };
        let fits = match &*form {
            Fast::Narrow(ff) => Self::fits(ff, pos, closed),
            Fast::Wide(ff) => Self::fits(ff, pos, closed),
        };
        fits.then_some(form)
    }

    /// [`Game::fast_playout`] on the game's fast form of whichever width, or `None` when it has
    /// none for `pos`.
    pub(crate) fn fast_playout_any(
        &self,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        until: Until,
        hints: Hints,
    ) -> Option<Handed> {
        let form = self.form_taking(pos, hints)?;
        Some(match &*form {
            Fast::Narrow(ff) => self.fast_playout(ff, pos, rng, plies, until, hints),
            Fast::Wide(ff) => self.fast_playout(ff, pos, rng, plies, until, hints),
        })
    }
}

/// The closed pits of `pos` (bit `c` for pit `c`), none when `hints` say none can be; `None` when
/// one holds seeds, which the tables' tracks would never sow from nor into.
fn closed_pits(pos: &Position, hints: Hints) -> Option<u64> {
    if hints.open {
        return Some(0);
    }
    let board = &pos.board;
    let mut closed = 0u64;
    for (c, (&shut, &seeds)) in board.closed.iter().zip(&board.cells).enumerate().take(64) {
        if shut {
            if seeds != 0 {
                return None;
            }
            closed |= 1 << c;
        }
    }
    Some(closed)
}
