//! Stage 4, engine: positions, legal moves, sowing, captures, the end of a game and of a round. It
//! reads only the compiled [`Game`]; it never sees the syntax. Seeds are only ever moved between
//! cells (pits and stores), never created or destroyed, so their total is constant.

mod actions;
mod apply;
mod choice;
mod ends;
mod eval;
mod history;
mod kernel;
mod legal;
mod moves;
mod packed;
mod pause;
mod perft;
mod prepare;
mod rounds;
mod sowing;
mod trace;
mod turn;

pub use crate::board::{Board, Cell, NO_PIT, Outcome, PlayFrom, Player, Slots};
pub use crate::compile::ir::Game;
pub use choice::move_base;
pub(crate) use eval::empty_extremes;
pub use history::History;
pub(crate) use kernel::{AnySearch, Board as PackedBoard, Counted, Expanded, FastMove, FastSearch, Line, Listed, MoveSink, Scored};
pub use legal::trial_laps;
pub use moves::Moves;
pub use perft::Playout;
pub use perft::{draw, draw_among_with};
pub use prepare::prepare;
pub use trace::{Event, Passed};
pub use turn::MoveError;

/// A position: the board and whose turn it is, with what the rules need to know of the past.
#[derive(Debug, PartialEq, Eq)]
pub struct Position {
    /// The pits and stores.
    pub(crate) board: Board,
    /// Whose turn it is.
    pub(crate) to_move: Player,
    /// Moves played so far.
    pub(crate) ply: u32,
    /// The round (1 for the first; always 1 in a game without rounds).
    pub(crate) round: u32,
    /// Moves played before this round began (`ply - round_start` is `round_ply`).
    pub(crate) round_start: u32,
    /// The player who began the game.
    pub(crate) starter: Player,
    /// The player who opened the current round (the starter in the first).
    pub(crate) opener: Player,
    /// Rounds won.
    pub(crate) rounds_won: [u32; 2],
    /// The game is over.
    pub(crate) over: bool,
    /// Who won, once over.
    pub(crate) winner: Option<Outcome>,
    /// The seeds left on the board count for their pits' owners.
    pub(crate) counted_in_place: bool,
    /// The name of the rule that ended the game (the rule's own, shared: ending a game allocates
    /// nothing for it).
    pub(crate) ended_by: Option<std::sync::Arc<str>>,
    /// Hashes of the positions of this round so far, the current one last, kept only in a game whose
    /// rules ask whether a position `repeated`. May be empty (then nothing counts as seen before);
    /// when not, the last must be the current position's: the engine works out the next position's
    /// hash from it and what the move changed.
    pub(crate) history: History,
}

/// Written out for `clone_from`: a playout loop that starts each game from the same position
/// copies it into the last game's position, reusing its lists (three allocations a game on a board
/// wider than `Slots` keeps inline).
impl Clone for Position {
    fn clone(&self) -> Self {
        Position {
            board: self.board.clone(),
            to_move: self.to_move,
            ply: self.ply,
            round: self.round,
            round_start: self.round_start,
            starter: self.starter,
            opener: self.opener,
            rounds_won: self.rounds_won,
            over: self.over,
            winner: self.winner,
            counted_in_place: self.counted_in_place,
            ended_by: self.ended_by.clone(),
            history: self.history.clone(),
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.board.clone_from(&source.board);
        self.to_move = source.to_move;
        self.ply = source.ply;
        self.round = source.round;
        self.round_start = source.round_start;
        self.starter = source.starter;
        self.opener = source.opener;
        self.rounds_won = source.rounds_won;
        self.over = source.over;
        self.winner = source.winner;
        self.counted_in_place = source.counted_in_place;
        self.ended_by.clone_from(&source.ended_by);
        self.history.clone_from(&source.history);
    }
}

/// A move named as [`Game::name_move`] writes it, as the object of a sentence: `pit a3`, or `the
/// pass`.
pub fn pit_word(name: &str) -> String {
    if name == "pass" { "the pass".into() } else { format!("pit {name}") }
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
    /// How many moves a player's pits allow at most: one per pit, two when the direction is chosen.
    pub fn move_count(&self) -> usize {
        self.move_pits() * self.choices
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
    pub(crate) fn side(&self, c: Cell) -> Option<Player> {
        self.sides.get(c as usize).copied().flatten()
    }

    /// How a pit chosen during a move is written after the move's pit: as the mover names their own
    /// pits (`a8`, `3`, `s2`), the opponent's with a `'` (`a8'`), a store as `store` (`store'`).
    pub(crate) fn choice_name(&self, mover: Player, c: Cell) -> String {
        let theirs = self.side_of(c).is_some_and(|p| p != mover);
        let name = if self.is_store(c) {
            "store".to_string()
        } else {
            self.pit_name(self.move_of(c))
        };
        if theirs { format!("{name}'") } else { name }
    }

    /// The name of a player's move `k` as the player writes it: the pit number on a board of one row
    /// a player, else the row letter (`a` the front row) and the number, as `b3`; a shared pit is `s`
    /// and its number (`s2`).
    /// When the mover chooses the direction, `L` or `R` follows: the way the first seeds go, to the
    /// mover's left or right along the pit's row (`3R`, `a5L`). Round a ring shared by nobody, `R`
    /// is the way of counter-clockwise sowing.
    pub fn move_name(&self, k: usize) -> String {
        if self.is_pass(k) {
            return "pass".into();
        }
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

    /// Reads a move as [`Game::move_name`] writes it (letters in either case). On a board of one
    /// row a player any number reads as itself, so that [`Game::apply`] can say why a pit that does
    /// not exist cannot be played, except the numbers that stand inside for shared pits (`s1` is
    /// written for those); otherwise `None` when the text names no pit of the board.
    pub fn parse_move(&self, text: &str) -> Option<usize> {
        let mut text = text.trim();
        if self.may_pass && text.eq_ignore_ascii_case("pass") {
            return Some(self.pass_move());
        }
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
            if text.ends_with('\'') {
                return self.parse_pit(text);
            }
            let pit: usize = text.parse().ok()?;
            // A number past the player's own pits would otherwise be read as a shared pit, written
            // `s1`, an opponent's, written `1'`, or the pass, written `pass`: such a number names no pit.
            if (self.side_pits() + 1..=self.move_pits()).contains(&pit) || self.is_pass(pit) {
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

    /// The cell's owner: a claim's player, else the row's; `None` for a shared pit nobody claimed.
    pub(crate) fn owner(&self, board: &Board, c: Cell) -> Option<Player> {
        board.claimed.get(c as usize).copied().flatten().or_else(|| self.side(c))
    }

    /// "south's pit 3", "north's store", "shared pit s2".
    pub fn describe(&self, c: Cell) -> String {
        match self.side_of(c) {
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
        if self.rounds.is_some() && !self.round_starts.is_empty() {
            // The first round starts too.
            let opener = pos.to_move;
            self.round_rules(&mut pos, &self.round_starts, opener, &mut trace::Silent);
        }
        pos.history.push(self.hash(&pos));
        pos
    }

    /// Seeds in a player's row.
    #[inline]
    pub(crate) fn row_seeds(&self, board: &Board, p: Player) -> u32 {
        match board.cells.inline_all() {
            Some(all) => all.iter().zip(&self.row_masks[p.index()]).map(|(&c, &m)| c & m).sum(),
            None => board.cells[self.row(p)].iter().sum(),
        }
    }

    /// The pits of `p` that hold seeds, as bits (bit `k-1` for pit `k`).
    #[inline]
    pub(crate) fn filled_pits(&self, board: &Board, p: Player) -> u64 {
        let n = self.side_pits();
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

    /// May `p` start a move from their pit `k` (1-based, as [`Game::pit`] reads it; past the
    /// player's own pits, the shared ones, then the opponent's)?
    pub(crate) fn may_play(&self, board: &Board, p: Player, k: usize) -> bool {
        let shared = k > self.side_pits();
        match self.play_from {
            PlayFrom::Own => !shared,
            PlayFrom::Shared => shared,
            PlayFrom::Any => true,
            PlayFrom::Owned => self.owner(board, self.pit(p, k)) == Some(p),
        }
    }

    /// On a board with shared pits, or where `p` plays the pits they own, the pits `p` may play that
    /// hold seeds, as bits (bit `k-1` for the player's pit `k`, the shared pits after the player's
    /// own, then the opponent's).
    #[cold]
    #[inline(never)]
    pub(crate) fn filled_playable(&self, board: &Board, p: Player) -> u64 {
        if self.play_from == PlayFrom::Owned {
            return (1..=self.move_pits())
                .filter(|&k| board.cells[self.pit(p, k) as usize] != 0 && self.may_play(board, p, k))
                .fold(0u64, |bits, k| bits | 1 << (k - 1));
        }
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
        own | shared << self.side_pits()
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

    /// What a closed pit `c` adds to a position's identity ([`Game::hash`]) in a game whose pits
    /// may be closed.
    #[inline]
    pub(crate) fn closed_pit_key(&self, c: usize) -> u64 {
        self.hash_keys[3 * (self.pit_count() + 2) + c]
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
                    h = h.wrapping_add(self.closed_pit_key(i));
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
