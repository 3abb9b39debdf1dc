//! The positions of a relay game found to leave their player a legal move, kept by a search: in a
//! relay game whether a player has one is known only once one of their candidates is sown to its
//! end (about a move's sowing), and a search asks it of every position it makes, many of them again
//! (iterative deepening makes the nodes near the leaves at every depth).

use std::cell::Cell;

use crate::compile::shape::Lanes;
use crate::engine::Player;

/// The bytes of each player's slots.
const BYTES: usize = 1 << 18;

/// Per player, boards on which that player has a legal move, each in the slot its hash picks (one
/// slot a hash: a board found later takes the slot of an earlier one). An empty slot holds the empty
/// board, on which no player has a move. The answer depends on the board and the player alone (the
/// packed searches take no rules that read the move number or the history into a move's legality),
/// so a board found in its slot has a move: nothing kept is ever wrong, only forgotten.
pub(crate) struct Movable<B> {
    slots: [Box<[Cell<B>]>; 2],
    /// The hash's bits that pick a slot: its top `64 - shift`.
    shift: u32,
}

impl<B: Lanes> Movable<B> {
    /// Keeps nothing: every question is answered afresh.
    pub(crate) fn none() -> Movable<B> {
        Movable {
            slots: [Box::new([]), Box::new([])],
            shift: 64,
        }
    }

    /// Keeps up to [`BYTES`] of boards a player.
    pub(crate) fn new() -> Movable<B> {
        let n = (BYTES / size_of::<B>()).next_power_of_two();
        let slots = || (0..n).map(|_| Cell::new(B::ZERO)).collect::<Box<[_]>>();
        Movable {
            slots: [slots(), slots()],
            shift: 64 - n.trailing_zeros(),
        }
    }

    /// Has `to_move` a legal move on `board`? `find` answers it where no slot does.
    #[inline(always)]
    pub(crate) fn has_move(&self, board: B, to_move: Player, find: impl FnOnce() -> bool) -> bool {
        if self.shift == 64 {
            return find();
        }
        let at = (board.mixed().wrapping_mul(0x9E37_79B9_7F4A_7C15) >> self.shift) as usize;
        let slot = &self.slots[to_move.index() & 1][at];
        if slot.get() == board {
            stats::HIT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            return true;
        }
        stats::MISS.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let yes = find();
        if yes {
            slot.set(board);
        }
        yes
    }
}

pub(crate) mod stats {
    pub(crate) static HIT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
    pub(crate) static MISS: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(0);
}
/// The number of slots, not the boards.
impl<B> std::fmt::Debug for Movable<B> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Movable({} slots a player)", self.slots[0].len())
    }
}

impl<B> Drop for Movable<B> {
    fn drop(&mut self) {
        if self.shift != 64 && std::env::var_os("P32_STATS").is_some() {
            eprintln!(
                "movable hits {} misses {}",
                stats::HIT.load(std::sync::atomic::Ordering::Relaxed),
                stats::MISS.load(std::sync::atomic::Ordering::Relaxed)
            );
        }
    }
}
