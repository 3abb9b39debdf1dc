//! A hand-written Kalah with the rules of `variants/kalah.sow` on its 6×4 board, straightforwardly
//! optimised: a byte per cell, legal moves as a bit set. The yardstick the interpreter is measured
//! against; `tests/yardstick.rs` checks that it plays exactly like the interpreter.

/// Pits per row.
pub const N: usize = 6;
/// Cells in all: south's pits 0..6, south's store 6, north's pits 7..13, north's store 13.
const CELLS: usize = 2 * N + 2;

/// A position.
#[derive(Debug, Clone)]
pub struct Kalah {
    /// Seeds per cell (see [`CELLS`]).
    pub cells: [u8; CELLS],
    /// 0 = south, 1 = north.
    pub to_move: usize,
    /// The game is over.
    pub over: bool,
    /// Once over: 0 south, 1 north, 2 draw.
    pub winner: u8,
}

impl Default for Kalah {
    fn default() -> Self {
        Self::new()
    }
}

impl Kalah {
    /// The start: 4 seeds a pit, south to move.
    pub fn new() -> Self {
        let mut cells = [4; CELLS];
        cells[N] = 0;
        cells[CELLS - 1] = 0;
        Kalah {
            cells,
            to_move: 0,
            over: false,
            winner: 2,
        }
    }

    /// South's pit k (1-based) is cell k-1, north's is cell N+k.
    pub fn pit(side: usize, i: usize) -> usize {
        side * (N + 1) + i
    }

    /// A player's store.
    pub fn store(side: usize) -> usize {
        side * (N + 1) + N
    }

    fn row_sum(&self, side: usize) -> u8 {
        let b = side * (N + 1);
        self.cells[b..b + N].iter().sum()
    }

    /// Legal moves as bits (bit i = pit i+1 of the player to move).
    pub fn legal(&self) -> u32 {
        if self.over {
            return 0;
        }
        let b = self.to_move * (N + 1);
        let mut mask = 0;
        for i in 0..N {
            if self.cells[b + i] > 0 {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Plays pit `i` (0-based) of the player to move, which must be legal.
    pub fn apply(&mut self, i: usize) {
        let me = self.to_move;
        let skip = Self::store(1 - me);
        let own = Self::store(me);
        let origin = Self::pit(me, i);
        let mut hand = self.cells[origin];
        self.cells[origin] = 0;
        let mut c = origin;
        while hand > 0 {
            c = if c + 1 == CELLS { 0 } else { c + 1 };
            if c == skip {
                continue;
            }
            self.cells[c] += 1;
            hand -= 1;
        }
        let mine = me * (N + 1)..me * (N + 1) + N;
        if c == own {
            // Another move.
        } else {
            let across = 2 * N - c;
            if mine.contains(&c) && self.cells[c] == 1 && self.cells[across] > 0 {
                self.cells[own] += self.cells[across] + 1;
                self.cells[across] = 0;
                self.cells[c] = 0;
            }
            self.to_move = 1 - me;
        }
        let (s, n) = (self.row_sum(0), self.row_sum(1));
        if s == 0 || n == 0 {
            self.cells[Self::store(0)] += s;
            self.cells[Self::store(1)] += n;
            for side in 0..2 {
                for i in 0..N {
                    self.cells[Self::pit(side, i)] = 0;
                }
            }
            self.over = true;
            self.winner = match self.cells[Self::store(0)].cmp(&self.cells[Self::store(1)]) {
                std::cmp::Ordering::Greater => 0,
                std::cmp::Ordering::Less => 1,
                std::cmp::Ordering::Equal => 2,
            };
        }
    }
}
