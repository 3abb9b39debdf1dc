//! Stage 4, engine: positions, legal moves, sowing, captures, the end of a game and of a round. It
//! reads only the compiled [`Game`]; it never sees the syntax. Seeds are only ever moved between
//! cells (pits and stores), never created or destroyed, so their total is constant.

mod choice;
mod eval;
mod history;
mod kernel;
mod moves;
mod perft;
mod play;
mod slots;
mod trace;

use serde::{Deserialize, Serialize};

use crate::syntax::ast::PlayFrom;

pub use crate::compile::ir::{Game, NO_PIT};
pub use choice::{CHOICE_SHIFT, move_base};
pub(crate) use eval::{MAX_RANGE_CHOICE, empty_extremes};
pub use history::History;
pub use moves::Moves;
pub use perft::Playout;
pub use perft::draw;
pub use play::MoveError;
pub use slots::{INLINE, Slots};
pub use trace::{Event, Keeper, Passed};

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
    /// Moves played before this round began (`ply - round_start` is `round_ply`).
    pub round_start: u32,
    /// The player who began the game.
    pub starter: Player,
    /// The player who opened the current round (the starter in the first).
    pub opener: Player,
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

/// Does `cond` hold for the pit `c` as `pit`, on `board` before any move (a board's `seeds N where
/// COND`)?
pub(crate) fn holds_for_pit(game: &Game, board: &Board, cond: &crate::compile::ir::Code, c: Cell) -> bool {
    eval::Ctx::new(game, board, Player::South)
        .with(crate::compile::ir::Reg::Pit, c)
        .bool(cond)
}

/// Does `cond` hold with `pit` naming `c`, when `mover` moves?
pub(crate) fn holds_for_pit_of(game: &Game, board: &Board, cond: &crate::compile::ir::Code, c: Cell, mover: Player) -> bool {
    eval::Ctx::new(game, board, mover).with(crate::compile::ir::Reg::Pit, c).bool(cond)
}

impl Game {
    /// Number of pits on the board: every row of both players, then the shared pits.
    pub fn pit_count(&self) -> usize {
        2 * self.side_pits + self.shared
    }

    /// The cell of a player's store.
    pub fn store(&self, p: Player) -> Cell {
        (self.pit_count() + p.index()) as Cell
    }

    /// Player `p`'s pit `number` of row `row` (1 the front row), or [`NO_PIT`] when the board has
    /// no such pit (`pit(P, ROW, N)` in the rules).
    pub fn pit_at(&self, p: Player, row: i64, number: i64) -> Cell {
        let (rows, columns) = (self.rows as i64, self.columns as i64);
        if !(1..=rows).contains(&row) || !(1..=columns).contains(&number) || self.side_pits == 0 {
            return NO_PIT;
        }
        self.pit(p, ((row - 1) * columns + number) as usize)
    }

    /// The cell of a player's pit `k` (1-based): pit `k` of the front row on a board of one row a
    /// player; on larger boards `k - 1 = row * columns + number - 1`, rows counted from the middle.
    /// Past the player's own pits, `side_pits + j` is shared pit `j`, the same cell for both players.
    pub fn pit(&self, p: Player, k: usize) -> Cell {
        if k > self.side_pits {
            (2 * self.side_pits + k - self.side_pits - 1) as Cell
        } else {
            (p.index() * self.side_pits + k - 1) as Cell
        }
    }

    /// The pits a move may name: a player's own, then the shared ones.
    pub fn move_pits(&self) -> usize {
        self.side_pits + self.shared
    }

    /// How many moves a player's pits allow at most: one per pit, two when the direction is chosen.
    pub fn move_count(&self) -> usize {
        self.move_pits() * self.choices
    }

    /// The pit (1-based, as [`Game::pit`] reads it) a move starts from, and whether it sows clockwise
    /// by the mover's choice.
    pub fn move_parts(&self, k: usize) -> (usize, bool) {
        let k = k.max(1) - 1;
        let pits = self.move_pits();
        (k % pits + 1, k >= pits)
    }

    /// Is the cell one of the pits that belong to nobody?
    pub fn is_shared(&self, c: Cell) -> bool {
        (2 * self.side_pits..self.pit_count()).contains(&(c as usize))
    }

    /// Where a cell lies left to right as south sees the board (1 = south's leftmost column), for
    /// naming directions; `None` on a ring's shared pits and the stores, which have no such place.
    fn across(&self, c: Cell) -> Option<usize> {
        let c = c as usize;
        let n = self.side_pits;
        if c < n {
            Some(c % self.columns + 1)
        } else if c < 2 * n {
            Some(self.columns - (c - n) % self.columns)
        } else if c < self.pit_count() && !self.ring {
            Some(c - 2 * n + 1)
        } else {
            None
        }
    }

    /// Does a counter-clockwise lap from the cell `c` go to south's right? Read from the usual
    /// rules' track: where the next cell lies, or, at a turn, where the lap came from.
    fn ccw_goes_right(&self, c: Cell) -> bool {
        let Some(usual) = self.phases.last() else { return true };
        let track = &usual.tracks[0];
        let (Some(here), next, prev) = (
            self.across(c),
            self.across(track.next[c as usize]),
            self.across(track.prev[c as usize]),
        ) else {
            return true;
        };
        match next {
            Some(next) if next != here => next > here,
            _ => prev.is_none_or(|prev| prev < here),
        }
    }

    /// The player whose row (or store) the cell is in; `None` for a shared pit.
    pub fn side(&self, c: Cell) -> Option<Player> {
        self.sides.get(c as usize).copied().flatten()
    }

    /// The pit's number in its row (1-based, from its row's owner's left), or a shared pit's number
    /// (from south's left, or in ring order); 0 for a store.
    pub fn number(&self, c: Cell) -> usize {
        let c = c as usize;
        let n = self.side_pits;
        if c < 2 * n {
            c % self.columns + 1
        } else if c < self.pit_count() {
            c - 2 * n + 1
        } else {
            0
        }
    }

    /// The pit's row, 1 for the front row (nearest the middle of the board) up to `rows`; 0 for a
    /// shared pit or a store.
    pub fn row_of(&self, c: Cell) -> usize {
        let c = c as usize;
        if c >= 2 * self.side_pits {
            0
        } else {
            c % self.side_pits / self.columns + 1
        }
    }

    /// The move (1-based, as [`Game::pit`] reads it) that starts from the pit `c`: a pit of its
    /// row's player, or a shared pit.
    pub fn move_of(&self, c: Cell) -> usize {
        let n = self.side_pits;
        if c as usize >= 2 * n {
            c as usize - n + 1
        } else {
            c as usize % n + 1
        }
    }

    /// How a pit chosen during a move is written after the move's pit: as the mover names their own
    /// pits (`a8`, `3`, `s2`), the opponent's with a `'` (`a8'`), a store as `store` (`store'`).
    pub fn choice_name(&self, mover: Player, c: Cell) -> String {
        let theirs = self.side(c).is_some_and(|p| p != mover);
        let name = if self.is_store(c) {
            "store".to_string()
        } else {
            self.pit_name(self.move_of(c))
        };
        if theirs { format!("{name}'") } else { name }
    }

    /// Is the cell a store?
    pub fn is_store(&self, c: Cell) -> bool {
        c as usize >= self.pit_count()
    }

    /// The pit facing `c` across the middle of the board: the other player's front-row pit in the
    /// same column (a store's opposite is the other store). A ring shared by nobody faces across
    /// its centre; a middle row's pit and an odd ring's shared pit face nothing ([`NO_PIT`]).
    pub fn opposite(&self, c: Cell) -> Cell {
        let side = self.side_pits;
        let c = c as usize;
        let pits = self.pit_count();
        if c >= pits {
            return (pits + (c - pits + 1) % 2) as Cell;
        }
        if c >= 2 * side {
            let n = self.shared;
            return if self.ring && side == 0 && n.is_multiple_of(2) {
                ((c + n / 2) % n) as Cell
            } else {
                NO_PIT
            };
        }
        if self.rows == 1 {
            // One row each: the rows run opposite ways round the board, so the cells mirror.
            return (2 * side - 1 - c) as Cell;
        }
        // Numbered from each owner's left, the columns run opposite ways on the two sides.
        let other_base = if c < side { side } else { 0 };
        (other_base + self.columns - self.number(c as Cell)) as Cell
    }

    /// The pit behind `c` in the same column, one row further from the middle; `None` for a back-row
    /// pit, a shared pit or a store.
    pub fn behind(&self, c: Cell) -> Option<Cell> {
        let row = self.row_of(c);
        (row != 0 && row < self.rows).then(|| c + self.columns as Cell)
    }

    /// The pit in front of `c` in the same column, one row nearer the middle: from a front-row pit,
    /// the middle row's pit when the board has one. `None` for a front-row pit of a board without a
    /// middle row, a shared pit or a store.
    pub fn in_front(&self, c: Cell) -> Option<Cell> {
        match self.row_of(c) {
            0 => None,
            1 if self.shared > 0 && !self.ring => {
                let across = self.across(c).expect("a pit of a row");
                Some((2 * self.side_pits + across - 1) as Cell)
            }
            1 => None,
            _ => Some(c - self.columns as Cell),
        }
    }

    /// A player's pits, every row, front row first.
    pub fn row(&self, p: Player) -> std::ops::Range<usize> {
        p.index() * self.side_pits..(p.index() + 1) * self.side_pits
    }

    /// The shared pits' cells.
    pub fn shared_pits(&self) -> std::ops::Range<usize> {
        2 * self.side_pits..self.pit_count()
    }

    /// The name of a player's move `k` as the player writes it: the pit number on a board of one row
    /// a player, else the row letter (`a` the front row) and the number, as `b3`; a shared pit is `s`
    /// and its number (`s2`).
    /// When the mover chooses the direction, `L` or `R` follows: the way the first seeds go, to the
    /// mover's left or right along the pit's row (`3R`, `a5L`). Round a ring shared by nobody, `R`
    /// is the way of counter-clockwise sowing.
    pub fn move_name(&self, k: usize) -> String {
        if k == 0 || k > self.move_count() {
            return k.to_string();
        }
        let (pit, cw) = self.move_parts(k);
        let mut name = self.pit_name(pit);
        if self.choices > 1 {
            name.push(if self.goes_right(pit) != cw { 'R' } else { 'L' });
        }
        name
    }

    /// Does counter-clockwise sowing from a player's pit `k` go to the player's right? The same for
    /// both players, whose tracks mirror each other.
    fn goes_right(&self, k: usize) -> bool {
        self.ccw_goes_right(self.pit(Player::South, k))
    }

    /// The name of a player's pit `k` (1-based, as [`Game::pit`] reads it): its number on a board of
    /// one row a player, else its row letter (`a` the front row) and number; `s` and the number for
    /// a shared pit.
    pub fn pit_name(&self, k: usize) -> String {
        if k > self.side_pits && k <= self.move_pits() {
            return format!("s{}", k - self.side_pits);
        }
        if self.rows == 1 || k == 0 || k > self.side_pits {
            return k.to_string();
        }
        let letter = char::from(b'a' + ((k - 1) / self.columns) as u8);
        format!("{letter}{}", (k - 1) % self.columns + 1)
    }

    /// Reads a move as [`Game::move_name`] writes it (letters in either case). On a board of one
    /// row a player any number reads as itself, so that [`Game::apply`] can say why a pit that does
    /// not exist cannot be played, except the numbers that stand inside for shared pits (`s1` is
    /// written for those); otherwise `None` when the text names no pit of the board.
    pub fn parse_move(&self, text: &str) -> Option<usize> {
        let mut text = text.trim();
        // The direction, when the mover chooses it.
        let mut right = None;
        if self.choices > 1 {
            let last = text.chars().last()?.to_ascii_uppercase();
            if last != 'L' && last != 'R' {
                return None;
            }
            right = Some(last == 'R');
            text = &text[..text.len() - 1];
        }
        if self.rows == 1 && self.choices == 1 && text.starts_with(|c: char| c.is_ascii_digit()) {
            let pit: usize = text.parse().ok()?;
            // A number past the player's own pits would otherwise be read as a shared pit, which
            // is written `s1`: such a number names no pit.
            if self.shared > 0 && (self.side_pits + 1..=self.move_pits()).contains(&pit) {
                return None;
            }
            return Some(pit);
        }
        let pit = self.parse_pit(text)?;
        match right {
            None => Some(pit),
            Some(right) => {
                let cw = self.goes_right(pit) != right;
                Some(pit + if cw { self.move_pits() } else { 0 })
            }
        }
    }

    /// Reads a pit a move may start from, named as [`Game::pit_name`] writes it (`3`, `b3`, `s2`;
    /// letters in either case), with no way after it: its number (1-based, as [`Game::pit`] reads it),
    /// or `None` when the text names no such pit of the board.
    pub fn parse_pit(&self, text: &str) -> Option<usize> {
        let text = text.trim();
        let first = text.chars().next()?;
        if self.rows == 1 && first.is_ascii_digit() {
            let pit: usize = text.parse().ok()?;
            return (1..=self.columns).contains(&pit).then_some(pit);
        }
        if !first.is_ascii_alphabetic() {
            return None;
        }
        let letter = first.to_ascii_lowercase();
        let number: usize = text[1..].parse().ok()?;
        if letter == 's' {
            (1..=self.shared).contains(&number).then(|| self.side_pits + number)
        } else {
            let row = usize::from(letter as u8 - b'a');
            (row < self.rows && (1..=self.columns).contains(&number)).then(|| row * self.columns + number)
        }
    }

    /// The cell's owner: a claim's player, else the row's; `None` for a shared pit nobody claimed.
    pub fn owner(&self, board: &Board, c: Cell) -> Option<Player> {
        board.claimed.get(c as usize).copied().flatten().or_else(|| self.side(c))
    }

    /// "south's pit 3", "north's store", "shared pit s2".
    pub fn describe(&self, c: Cell) -> String {
        match self.side(c) {
            Some(p) if self.is_store(c) => format!("{}'s store", p.name()),
            Some(p) => format!("{} {}", p.name(), self.pit_name(self.move_of(c))),
            None => format!("shared pit {}", self.pit_name(self.move_of(c))),
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
                memory: self.memory_start.clone(),
            },
            to_move: first.unwrap_or(self.first),
            ply: 0,
            round: 1,
            round_start: 0,
            starter: first.unwrap_or(self.first),
            opener: first.unwrap_or(self.first),
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
        let n = self.side_pits;
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

    /// May a move start from the player's pit `k` (1-based, as [`Game::pit`] reads it; past the
    /// player's own pits, the shared ones)?
    pub(crate) fn may_play(&self, k: usize) -> bool {
        let shared = k > self.side_pits;
        match self.play_from {
            PlayFrom::Own => !shared,
            PlayFrom::Shared => shared,
            PlayFrom::Any => true,
        }
    }

    /// On a board with shared pits, the pits `p` may play that hold seeds, as bits (bit `k-1` for
    /// the player's pit `k`, the shared pits after the player's own).
    #[cold]
    #[inline(never)]
    pub(crate) fn filled_playable(&self, board: &Board, p: Player) -> u64 {
        let own = match self.play_from {
            PlayFrom::Shared => 0,
            _ => self.filled_pits(board, p),
        };
        let shared = match self.play_from {
            PlayFrom::Own => 0,
            _ => board.cells[self.shared_pits()]
                .iter()
                .rev()
                .fold(0u64, |bits, &c| (bits << 1) | u64::from(c != 0)),
        };
        own | shared << self.side_pits
    }

    /// Each player's score: the store, plus pits counted in place.
    pub fn scores(&self, pos: &Position) -> [u32; 2] {
        let mut s = [
            pos.board.cells[self.store(Player::South) as usize],
            pos.board.cells[self.store(Player::North) as usize],
        ];
        if pos.counted_in_place {
            for c in 0..self.pit_count() {
                if let Some(owner) = self.owner(&pos.board, c as Cell) {
                    s[owner.index()] += pos.board.cells[c];
                }
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

    /// The identity of a position for the repetition rule: board, claims, closures, memory, player to
    /// move.
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
        if !b.memory.is_empty() {
            for (&v, &k) in b.memory.iter().zip(&keys[4 * cells..]) {
                h = h.wrapping_add((v as u64).wrapping_mul(k));
            }
        }
        h
    }
}
