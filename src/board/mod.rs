//! The ground floor: the vocabulary every stage speaks (cells, players, results), the board's shape
//! and the relations between its pits (which pit faces which, which lies behind, how pits are named),
//! and the storage of a board's seeds. Syntax, check, compile and engine all stand on it; it imports
//! none of them, so a question about where a pit lies has one answer everywhere.

mod geometry;
mod slots;

use serde::{Deserialize, Serialize};

pub use geometry::Geometry;
pub use slots::{INLINE, Slots};

/// Index of a cell: pits `0..2S`, where S is the pits of one player (rows × columns); south's come
/// first, each player's front row first and each row from its owner's left (south's move k is cell
/// `k-1`, north's `S+k-1`); then south's store `2S` and north's store `2S+1`.
pub type Cell = u16;

/// A player.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Player {
    /// Sits at the bottom, moves first unless told otherwise.
    South,
    /// The other player.
    North,
}

impl Player {
    /// The other player.
    pub fn other(self) -> Player {
        match self {
            Player::South => Player::North,
            Player::North => Player::South,
        }
    }
    /// 0 for south, 1 for north.
    pub fn index(self) -> usize {
        self as usize
    }
    /// `"south"` or `"north"`.
    pub fn name(self) -> &'static str {
        match self {
            Player::South => "south",
            Player::North => "north",
        }
    }
    /// Both players, south first.
    pub const BOTH: [Player; 2] = [Player::South, Player::North];
}

/// The result of a finished game.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// South won.
    South,
    /// North won.
    North,
    /// Neither.
    Draw,
}

/// *No pit*: what `leftmost` of an empty set, `behind` a back-row pit and an unset pit memory give.
pub const NO_PIT: Cell = Cell::MAX;

/// The most numbers a `choose(LOW..HIGH)` offers: past it the move is refused, so that finding the
/// legal moves never branches without bound (`check` refuses a range it knows is wider).
pub const MAX_RANGE_CHOICE: i64 = 256;

/// The pits a player may start a move from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PlayFrom {
    /// The player's own pits (the default).
    Own,
    /// The shared pits only.
    Shared,
    /// Both.
    Any,
    /// The pits the player owns, wherever they lie: their own rows' pits nobody else claimed, the
    /// pits they claimed, their half of a board owned by halves.
    Owned,
}

/// Which pits belong to the players by halves of the board, each player owning the half on their
/// left, rather than to the player whose row they are in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Halves {
    /// None: each row is its player's, a middle row nobody's.
    #[default]
    None,
    /// The middle row (`middle row owned by halves`).
    Middle,
    /// Every row (`owned by halves`).
    Board,
}

/// The seeds and the state of every pit: what sowing changes. Each list reads as a slice and is kept
/// inline on a board of up to 7 pits a side, so copying a board allocates nothing.
#[derive(Debug, PartialEq, Eq, Hash)]
pub struct Board {
    /// Seeds per cell (pits, then the two stores).
    pub cells: Slots<u32>,
    /// Per pit: the player who claimed it, if any.
    pub claimed: Slots<Option<Player>>,
    /// Per pit: out of play.
    pub closed: Slots<bool>,
    /// The values of the game's `memory { }` (see `MemoryRef` for their order); empty in a game
    /// that keeps none.
    pub memory: Vec<i64>,
}

impl Clone for Board {
    #[inline]
    fn clone(&self) -> Self {
        Board {
            cells: self.cells.clone(),
            claimed: self.claimed.clone(),
            closed: self.closed.clone(),
            // Most games keep no memory: the empty list is made without the general copy's calls.
            memory: if self.memory.is_empty() { Vec::new() } else { self.memory.clone() },
        }
    }

    #[inline]
    fn clone_from(&mut self, source: &Self) {
        self.cells.clone_from(&source.cells);
        self.claimed.clone_from(&source.claimed);
        self.closed.clone_from(&source.closed);
        if !(self.memory.is_empty() && source.memory.is_empty()) {
            self.memory.clone_from(&source.memory);
        }
    }
}

impl Board {
    /// `clone_from` for a board whose claims and closed pits are already the source's: only the
    /// seeds and the memory are copied.
    #[inline]
    pub(crate) fn copy_seeds_from(&mut self, source: &Self) {
        debug_assert!(self.claimed == source.claimed && self.closed == source.closed);
        self.cells.clone_from(&source.cells);
        if !(self.memory.is_empty() && source.memory.is_empty()) {
            self.memory.clone_from(&source.memory);
        }
    }
}
