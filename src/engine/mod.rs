//! Stage 4, engine: positions, legal moves, sowing, captures, the end of a game and of a round. It
//! reads only the compiled [`Game`]; it never sees the syntax. Seeds are only ever moved between
//! cells (pits and stores), never created or destroyed, so their total is constant.

mod eval;
mod history;
mod moves;
mod perft;
mod play;
mod slots;
mod trace;

use serde::{Deserialize, Serialize};

pub use crate::compile::ir::Game;
pub(crate) use eval::empty_extremes;
pub use history::History;
pub use moves::Moves;
pub use perft::Playout;
pub use play::MoveError;
pub use slots::{INLINE, Slots};
pub use trace::Event;

/// Index of a cell: pits `0..2N` (south's pit k is `k-1`, north's pit k is `N+k-1`), then south's
/// store `2N` and north's store `2N+1`.
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

/// The seeds and the state of every pit: what sowing changes. Each list reads as a slice and is kept
/// inline on a board of up to 7 pits a side, so copying a board allocates nothing.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Board {
    /// Seeds per cell (pits, then the two stores).
    pub cells: Slots<u32>,
    /// Per pit: the player who claimed it, if any.
    pub claimed: Slots<Option<Player>>,
    /// Per pit: out of play.
    pub closed: Slots<bool>,
}

/// A position: the board and whose turn it is, with what the rules need to know of the past.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Position {
    /// The pits and stores.
    pub board: Board,
    /// Whose turn it is.
    pub to_move: Player,
    /// Moves played so far.
    pub ply: u32,
    /// The round (1 for the first; always 1 in a game without rounds).
    pub round: u32,
    /// Rounds won.
    pub rounds_won: [u32; 2],
    /// The game is over.
    pub over: bool,
    /// Who won, once over.
    pub winner: Option<Outcome>,
    /// The seeds left on the board count for their pits' owners.
    pub counted_in_place: bool,
    /// The name of the rule that ended the game.
    pub ended_by: Option<String>,
    /// Hashes of the positions of this round so far, the current one last, kept only in a game whose
    /// rules ask whether a position `repeated`. May be empty (then nothing counts as seen before);
    /// when not, the last must be the current position's: the engine works out the next position's
    /// hash from it and what the move changed.
    pub history: History,
}

impl Game {
    /// Number of pits on the board (both rows).
    pub fn pit_count(&self) -> usize {
        2 * self.pits
    }

    /// The cell of a player's store.
    pub fn store(&self, p: Player) -> Cell {
        (2 * self.pits + p.index()) as Cell
    }

    /// The cell of a player's pit number `number` (1-based).
    pub fn pit(&self, p: Player, number: usize) -> Cell {
        (p.index() * self.pits + number - 1) as Cell
    }

    /// The player whose row (or store) the cell is in.
    pub fn side(&self, c: Cell) -> Player {
        let c = c as usize;
        let n = self.pits;
        if c < n || c == 2 * n { Player::South } else { Player::North }
    }

    /// The pit's number in its row (1-based); 0 for a store.
    pub fn number(&self, c: Cell) -> usize {
        let c = c as usize;
        if c >= 2 * self.pits { 0 } else { c % self.pits + 1 }
    }

    /// Is the cell a store?
    pub fn is_store(&self, c: Cell) -> bool {
        c as usize >= 2 * self.pits
    }

    /// The pit across the board (a store's opposite is the other store).
    pub fn opposite(&self, c: Cell) -> Cell {
        let n2 = 2 * self.pits;
        let c = c as usize;
        if c >= n2 {
            (n2 + (c - n2 + 1) % 2) as Cell
        } else {
            (n2 - 1 - c) as Cell
        }
    }

    /// A player's pits, pit 1 first.
    pub fn row(&self, p: Player) -> std::ops::Range<usize> {
        p.index() * self.pits..(p.index() + 1) * self.pits
    }

    /// The cell's owner: a claim's player, else the row's.
    pub fn owner(&self, board: &Board, c: Cell) -> Player {
        board.claimed.get(c as usize).copied().flatten().unwrap_or_else(|| self.side(c))
    }

    /// "south's pit 3", "north's store".
    pub fn describe(&self, c: Cell) -> String {
        if self.is_store(c) {
            format!("{}'s store", self.side(c).name())
        } else {
            format!("{} {}", self.side(c).name(), self.number(c))
        }
    }

    /// The starting position (`first` overrides who moves first).
    pub fn initial(&self, first: Option<Player>) -> Position {
        let n2 = self.pit_count();
        let mut pos = Position {
            board: Board {
                cells: Slots::from_slice(&self.initial),
                claimed: Slots::from_elem(None, n2),
                closed: Slots::from_elem(false, n2),
            },
            to_move: first.unwrap_or(self.first),
            ply: 0,
            round: 1,
            rounds_won: [0, 0],
            over: false,
            winner: None,
            counted_in_place: false,
            ended_by: None,
            history: History::new(),
        };
        pos.history.push(self.hash(&pos));
        pos
    }

    /// Seeds in a player's row.
    #[inline]
    pub fn row_seeds(&self, board: &Board, p: Player) -> u32 {
        match board.cells.inline_all() {
            Some(all) => all.iter().zip(&self.row_masks[p.index()]).map(|(&c, &m)| c & m).sum(),
            None => board.cells[self.row(p)].iter().sum(),
        }
    }

    /// The pits of `p` that hold seeds, as bits (bit `k-1` for pit `k`).
    #[inline]
    pub(crate) fn filled_pits(&self, board: &Board, p: Player) -> u64 {
        let n = self.pits;
        let base = p.index() * n;
        if let Some(all) = board.cells.inline_all()
            && let Some(eight) = all.get(base..base + 8)
        {
            // Eight cells from the row's first, one byte each (1 when it holds seeds), gathered into
            // eight bits by one multiplication: a few vector steps instead of a loop.
            let bytes: [u8; 8] = std::array::from_fn(|i| u8::from(eight[i] != 0));
            let gathered = u64::from_le_bytes(bytes).wrapping_mul(0x0102_0408_1020_4080) >> 56;
            return gathered & ((1u64 << n) - 1);
        }
        board.cells[base..base + n]
            .iter()
            .rev()
            .fold(0u64, |bits, &c| (bits << 1) | u64::from(c != 0))
    }

    /// Each player's score: the store, plus pits counted in place.
    pub fn scores(&self, pos: &Position) -> [u32; 2] {
        let mut s = [
            pos.board.cells[self.store(Player::South) as usize],
            pos.board.cells[self.store(Player::North) as usize],
        ];
        if pos.counted_in_place {
            for c in 0..self.pit_count() {
                s[self.owner(&pos.board, c as Cell).index()] += pos.board.cells[c];
            }
        }
        s
    }

    /// Every seed on the board and in the stores.
    #[inline]
    pub fn seed_total(&self, pos: &Position) -> u32 {
        pos.board.cells.iter().sum()
    }

    /// The part of [`Game::hash`] that says whose turn it is.
    #[inline]
    pub(crate) fn turn_key(p: Player) -> u64 {
        match p {
            Player::South => 0,
            Player::North => 0x2545_F491_4F6C_DD1D,
        }
    }

    /// The identity of a position for the repetition rule: board, claims, closures, player to move.
    /// Each cell's seeds count with their own random weight (`hash_keys`), so the sum differs between
    /// two different positions except with a chance of about 2^-64. Claims and closures count only in
    /// a game whose rules change them: otherwise they are the same in every position of the game.
    #[inline]
    pub fn hash(&self, pos: &Position) -> u64 {
        let b = &pos.board;
        let keys = &self.hash_keys;
        let cells = b.cells.len();
        let mut h = Self::turn_key(pos.to_move);
        let seeds: &[u32] = &b.cells;
        for (&c, &k) in seeds.iter().zip(&keys[..cells]) {
            h = h.wrapping_add(u64::from(c).wrapping_mul(k));
        }
        if self.uses_claims {
            for (i, c) in b.claimed.iter().enumerate() {
                match c {
                    Some(Player::South) => h = h.wrapping_add(keys[cells + i]),
                    Some(Player::North) => h = h.wrapping_add(keys[2 * cells + i]),
                    None => {}
                }
            }
        }
        if self.uses_closed {
            for (i, &closed) in b.closed.iter().enumerate() {
                if closed {
                    h = h.wrapping_add(keys[3 * cells + i]);
                }
            }
        }
        h
    }
}
