//! A hand-written Oware with the rules of `variants/oware.sow` on its 6×4 board, straightforwardly
//! optimised: a byte per pit, legal moves as a bit set, the repetition rule on exact positions packed
//! into a `u128` and forgotten after every capture (stores only grow, so an earlier position can never
//! come back once a store has changed). It is the yardstick the interpreter is measured against, and
//! `tests/yardstick.rs` checks that it plays exactly like the interpreter.

/// Pits per row.
pub const N: usize = 6;
/// Seeds in all.
pub const TOTAL: u8 = 48;

/// A position with its history.
#[derive(Debug, Clone)]
pub struct Oware {
    /// South's pits 0..6, north's 6..12, both counter-clockwise from the owner's left.
    pub pits: [u8; 2 * N],
    /// Captured seeds, south then north.
    pub stores: [u8; 2],
    /// 0 = south, 1 = north.
    pub to_move: usize,
    /// The game is over.
    pub over: bool,
    /// Once over: 0 south, 1 north, 2 draw.
    pub winner: u8,
    /// Positions since the last capture (the current one included).
    history: Vec<u128>,
}

impl Default for Oware {
    fn default() -> Self {
        Self::new()
    }
}

impl Oware {
    /// The start: 4 seeds a pit, south to move.
    pub fn new() -> Self {
        let mut g = Oware {
            pits: [4; 2 * N],
            stores: [0; 2],
            to_move: 0,
            over: false,
            winner: 2,
            history: Vec::with_capacity(64),
        };
        let key = g.key();
        g.history.push(key);
        g
    }

    /// Pits, stores and the player to move, exactly.
    fn key(&self) -> u128 {
        let mut k = self.to_move as u128;
        for &p in &self.pits {
            k = (k << 6) | p as u128;
        }
        k
    }

    fn row_sum(&self, side: usize) -> u8 {
        self.pits[side * N..side * N + N].iter().sum()
    }

    /// Legal moves as bits (bit i = pit i+1 of the player to move).
    pub fn legal(&self) -> u32 {
        if self.over {
            return 0;
        }
        let base = self.to_move * N;
        let starving = self.row_sum(1 - self.to_move) == 0;
        let mut mask = 0;
        for i in 0..N {
            let s = self.pits[base + i] as usize;
            // When the opponent has no seeds a move must reach their row: pit i+1 needs more than N-i-1.
            if s > 0 && (!starving || s >= N - i) {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// Plays pit `i` (0-based) of the player to move, which must be legal.
    pub fn apply(&mut self, i: usize) {
        let me = self.to_move;
        let opp = 1 - me;
        let origin = me * N + i;
        let mut hand = self.pits[origin];
        self.pits[origin] = 0;
        let mut c = origin;
        while hand > 0 {
            c = if c + 1 == 2 * N { 0 } else { c + 1 };
            if c == origin {
                continue;
            }
            self.pits[c] += 1;
            hand -= 1;
        }
        // Captures of 2 or 3, walking back through the opponent's row; none if they would take it all.
        let (lo, hi) = (opp * N, opp * N + N);
        let mut captured = false;
        if (lo..hi).contains(&c) && matches!(self.pits[c], 2 | 3) {
            let mut first = c;
            let mut taken = 0;
            loop {
                taken += self.pits[first];
                if first == lo || !matches!(self.pits[first - 1], 2 | 3) {
                    break;
                }
                first -= 1;
            }
            if taken < self.row_sum(opp) {
                for p in &mut self.pits[first..=c] {
                    *p = 0;
                }
                self.stores[me] += taken;
                captured = true;
            }
        }
        self.to_move = opp;
        // The end rules, in the order of the rule file.
        let key = self.key();
        if captured {
            self.history.clear();
        } else if self.history.contains(&key) {
            // "endless chasing": split evenly, the odd seed to the row holding more.
            let (s, n) = (self.row_sum(0), self.row_sum(1));
            let left = s + n;
            self.pits = [0; 2 * N];
            self.stores[0] += left / 2;
            self.stores[1] += left / 2;
            self.stores[if s >= n { 0 } else { 1 }] += left % 2;
            return self.finish();
        }
        self.history.push(key);
        let half = TOTAL / 2;
        if self.stores[0] > half || self.stores[1] > half {
            return self.collect();
        }
        if self.stores[0] == half && self.stores[1] == half {
            return self.finish();
        }
        if self.legal() == 0 {
            self.collect();
        }
    }

    /// Each row's seeds go to its owner, and the game ends.
    fn collect(&mut self) {
        self.stores[0] += self.row_sum(0);
        self.stores[1] += self.row_sum(1);
        self.pits = [0; 2 * N];
        self.finish();
    }

    fn finish(&mut self) {
        self.over = true;
        self.winner = match self.stores[0].cmp(&self.stores[1]) {
            std::cmp::Ordering::Greater => 0,
            std::cmp::Ordering::Less => 1,
            std::cmp::Ordering::Equal => 2,
        };
    }
}
