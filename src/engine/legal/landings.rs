//! The room a listing of moves with choices works in ([`Game::all_choice_moves`]): the one board its
//! trial sowings are made on, and the table of what the moves listed so far leave, kept on the
//! thread from one listing to the next so that a listing allocates nothing once warm.

use super::*;
use crate::compile::shape::{Lanes, WideBoard};

/// The board a listing's trial sowings are made on ([`Game::probe`]), kept from one trial to the next
/// so that its lists (on the heap for a board of more than 7 pits a side) are allocated once a listing
/// rather than once a trial. Every trial on it is a move of one position.
pub(in crate::engine) struct Trial {
    pub(in crate::engine) board: Option<Board>,
    /// Whether a complete legal move is to leave on `board` what [`Game::landing`] says.
    pub(in crate::engine) keep: bool,
    /// Set by the last trial when it left its move's landing on `board`: whether the mover moves
    /// again.
    pub(in crate::engine) kept: Option<bool>,
    /// Set by the last trial when its sowing was complete and allowed (its choices answered or
    /// made up): whether the mover moves again.
    pub(in crate::engine) another: Option<bool>,
    /// The position's board packed a byte a cell, with the phase whose trials sow on it
    /// (`engine::packed`), where the walk's rules allow: a trial of another phase is the general
    /// sowing's.
    pub(in crate::engine) packed: Option<(WideBoard, *const crate::compile::ir::Phase)>,
    /// The last trial's landing packed, where it was a packed trial's (`board` is then not
    /// written) or a general one's that [`Trial::landing`] packed; `None` after a general trial.
    pub(in crate::engine) landed: Option<WideBoard>,
    /// Set by the last trial when it left its move's landing on `board` with the phase's `after
    /// move` rules not read, as they need not be where they only remember
    /// ([`Phase::after_moves_only_remember`]): what they read.
    pub(in crate::engine) unread: Option<Unread>,
}

/// What a kept landing's `after move` rules read of its move besides the position: read only where
/// its seeds match another landing's, since rules that only remember leave the seeds, claims and
/// closed pits as the sowing left them.
#[derive(Clone, Copy)]
pub(in crate::engine) struct Unread {
    pub(in crate::engine) origin: Cell,
    pub(in crate::engine) cw: bool,
    pub(in crate::engine) sown: Sown,
}

/// What a complete move leaves, as a walk hands it over to be compared: the general board, or
/// its seeds packed a byte a cell (its claims and closed pits, and its memory, the position's).
#[derive(Clone, Copy)]
pub(super) enum Landing<'a> {
    Board(&'a Board),
    Packed(&'a WideBoard),
    /// The board as the sowing left it, its `after move` rules to read.
    Unread(&'a Board, Unread),
}

thread_local! {
    /// Trial boards given back by the walks on this thread, for the next walk to copy its position
    /// into: their lists (on the heap for a board of more than 7 pits a side) were allocated once a
    /// walk. A walk inside another takes another.
    static BOARDS: std::cell::RefCell<Vec<Board>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// The most trial boards a thread keeps: as many as walks run inside one another, which is few.
const BOARDS_KEPT: usize = 8;

impl Trial {
    /// The room of a walk over the moves of a position whose board is `board`: its board a copy of
    /// `board`, made in one that an earlier walk on this thread gave back where there is one (its
    /// lists reused, none allocated). Out of line: once a walk.
    #[inline(never)]
    pub(super) fn for_walk(board: &Board, keep: bool) -> Trial {
        let board = match BOARDS.with(|kept| kept.borrow_mut().pop()) {
            Some(mut kept) => {
                kept.clone_from(board);
                kept
            }
            None => board.clone(),
        };
        Trial {
            board: Some(board),
            keep,
            kept: None,
            another: None,
            packed: None,
            landed: None,
            unread: None,
        }
    }

    /// Forgets what the last trial left, before the next.
    #[inline]
    pub(in crate::engine) fn forget(&mut self) {
        (self.kept, self.another, self.unread) = (None, None, None);
    }

    /// The landing the last trial left, which a walk whose trials are packed hands over packed
    /// whenever it can be (its memory the position's, at most 64 cells of at most 255 seeds): the
    /// same landing is then one form whichever trial left it, and a landing that cannot be packed
    /// is never one that can. `None` where no board was written.
    #[inline]
    pub(super) fn landing(&mut self, pos: &Position) -> Option<Landing<'_>> {
        if let (Some(unread), Some(b)) = (self.unread, &self.board) {
            return Some(Landing::Unread(b, unread));
        }
        if self.landed.is_none()
            && self.packed.is_some()
            && let Some(b) = &self.board
            && b.memory == pos.board.memory
            && b.cells.len() <= WideBoard::LANES
            && b.cells.iter().all(|&n| n <= 255)
        {
            self.landed = Some(WideBoard::of_cells(&b.cells));
        }
        match &self.landed {
            Some(packed) => Some(Landing::Packed(packed)),
            None => self.board.as_ref().map(Landing::Board),
        }
    }

    /// Gives the trial board back to the thread, for the next walk.
    #[inline(never)]
    pub(super) fn give_back(self) {
        if let Some(board) = self.board {
            BOARDS.with(|kept| {
                let mut kept = kept.borrow_mut();
                if kept.len() < BOARDS_KEPT {
                    kept.push(board);
                }
            });
        }
    }
}

/// What the moves listed so far leave, for [`Game::all_choice_moves`] to leave out a move that does
/// what an earlier one from the same pit does. The boards are kept in slots reused from one listing
/// to the next, and found by a quick hash of the pit and the whole board (seeds, claims, closed pits,
/// memory), so that many moves that differ only in memory do not compare pairwise; moves with the
/// same hash are compared whole.
#[derive(Default)]
pub(super) struct Landings {
    /// Each: the pit, the board, whether the mover moves again, whether the move takes seeds (the two
    /// lists of `captures required` are told apart), and the slot of the previous one with the same
    /// hash.
    slots: Vec<(usize, Board, bool, bool, usize)>,
    /// Slots in use.
    used: usize,
    /// Per slot, where its landing was handed over unread: what its `after move` rules read.
    unread: Vec<Option<Unread>>,
    /// The landings handed over packed (their memory, claims and closed pits the position's),
    /// each with its hash, pit, turn and list as `slots`, and the slot + 1 of the previous one
    /// in its bucket (0: none). A packed landing is never a general one's equal, so the two
    /// kinds are kept apart.
    packed: Vec<(WideBoard, u64, usize, bool, bool, u32)>,
    /// Packed slots in use.
    packed_used: usize,
    /// The packed slots' buckets, by the hash's low bits: the last slot + 1 of each (0: none),
    /// a power of two at least as many as the slots in use (doubled as they come), emptied for
    /// each listing. Read directly: a general table's look-up and insertion were about a
    /// twentieth of a listing's instructions.
    packed_heads: Vec<u32>,
    /// The last general slot of each hash.
    last: crate::keys::KeyMap<usize>,
}

/// The packed buckets a listing starts with.
const PACKED_BUCKETS: usize = 64;

impl Landings {
    /// Gives back the room of a listing far longer than most, so that a thread does not keep it.
    pub(super) fn trim(&mut self) {
        const KEPT: usize = 1024;
        if self.slots.len() > KEPT || self.packed.len() > KEPT {
            self.slots.truncate(KEPT);
            self.slots.shrink_to_fit();
            self.packed.truncate(KEPT);
            self.packed.shrink_to_fit();
            self.unread.truncate(KEPT);
            self.unread.shrink_to_fit();
            self.last = Default::default();
            (self.used, self.packed_used) = (0, 0);
        }
    }

    /// Forgets every move (and keeps the room).
    pub(super) fn clear(&mut self) {
        (self.used, self.packed_used) = (0, 0);
        self.last.clear();
        self.packed_heads.truncate(PACKED_BUCKETS);
        self.packed_heads.fill(0);
    }

    /// [`Landings::is_new`] of a landing as the walk handed it over. `read` reads the `after move`
    /// rules of an unread landing and gives back the memory they leave.
    #[inline]
    pub(super) fn is_new_landing(
        &mut self,
        pit: usize,
        takes: bool,
        landing: Landing,
        another: bool,
        states: bool,
        read: impl Fn(&Board, Unread) -> Vec<i64>,
    ) -> bool {
        match landing {
            Landing::Board(board) => self.is_new(pit, takes, board, another, states),
            Landing::Packed(board) => self.is_new_packed(pit, takes, board, another),
            Landing::Unread(board, unread) => self.is_new_unread(pit, takes, board, unread, another, states, read),
        }
    }

    /// [`Landings::is_new`] of a landing whose `after move` rules, which only remember, are not read
    /// yet: found by its seeds (and claims and closed pits), and its memory after those rules
    /// compared, read then, only with a landing whose seeds match. Every landing of such a listing
    /// is handed over so (its phase is the position's: no phase is chosen with a move).
    #[allow(clippy::too_many_arguments)]
    fn is_new_unread(
        &mut self,
        pit: usize,
        takes: bool,
        board: &Board,
        unread: Unread,
        another: bool,
        states: bool,
        read: impl Fn(&Board, Unread) -> Vec<i64>,
    ) -> bool {
        use std::hash::{Hash, Hasher};
        let mut h = Quick::default();
        (pit, another, takes).hash(&mut h);
        board.cells.hash(&mut h);
        if states {
            board.claimed.hash(&mut h);
            board.closed.hash(&mut h);
        }
        let key = h.finish();
        let mut read_here: Option<Vec<i64>> = None;
        let mut at = self.last.get(&key).copied().unwrap_or(usize::MAX);
        while let Some((p, b, a, t, previous)) = self.slots[..self.used].get(at) {
            if (*p, *a, *t) == (pit, another, takes)
                && same(&b.cells, &board.cells)
                && (!states || (b.claimed == board.claimed && b.closed == board.closed))
                && let Some(theirs) = self.unread[at]
            {
                // The same seeds: the earlier landing is this board with its own memory.
                let earlier = Board {
                    memory: b.memory.clone(),
                    ..board.clone()
                };
                let here = read_here.get_or_insert_with(|| read(board, unread));
                if read(&earlier, theirs) == *here {
                    return false;
                }
            }
            at = *previous;
        }
        self.insert(key, pit, takes, board, another, states, Some(unread));
        true
    }

    /// [`Landings::is_new`] of a packed landing: its 64 bytes hashed and compared.
    pub(super) fn is_new_packed(&mut self, pit: usize, takes: bool, board: &WideBoard, another: bool) -> bool {
        use std::hash::{Hash, Hasher};
        let mut h = Quick::default();
        (pit, another, takes).hash(&mut h);
        h.write(board.bytes());
        self.insert_new_packed(h.finish(), pit, takes, board, another)
    }

    /// [`Landings::is_new_packed`] with the hash `key` worked out.
    pub(super) fn insert_new_packed(&mut self, key: u64, pit: usize, takes: bool, board: &WideBoard, another: bool) -> bool {
        if self.packed_heads.len() < PACKED_BUCKETS {
            self.packed_heads = vec![0; PACKED_BUCKETS];
        }
        let mut at = self.packed_heads[key as usize & (self.packed_heads.len() - 1)];
        while at != 0 {
            let (b, k, p, a, t, previous) = &self.packed[at as usize - 1];
            if (*k, *p, *a, *t) == (key, pit, another, takes) && b == board {
                return false;
            }
            at = *previous;
        }
        if self.packed_used >= self.packed_heads.len() {
            self.more_packed_buckets();
        }
        let bucket = key as usize & (self.packed_heads.len() - 1);
        let slot = (*board, key, pit, another, takes, self.packed_heads[bucket]);
        match self.packed.get_mut(self.packed_used) {
            Some(kept) => *kept = slot,
            None => self.packed.push(slot),
        }
        self.packed_used += 1;
        self.packed_heads[bucket] = self.packed_used as u32;
        true
    }

    /// Twice as many packed buckets, the slots in use chained again in the order they came.
    #[cold]
    #[inline(never)]
    fn more_packed_buckets(&mut self) {
        let buckets = 2 * self.packed_heads.len();
        self.packed_heads.clear();
        self.packed_heads.resize(buckets, 0);
        for (i, slot) in self.packed[..self.packed_used].iter_mut().enumerate() {
            let head = &mut self.packed_heads[slot.1 as usize & (buckets - 1)];
            slot.5 = *head;
            *head = i as u32 + 1;
        }
    }

    /// Is what a move from `pit` leaves new among the moves of its list from that pit? Kept if so.
    /// With `states`, the claims and closed pits are hashed too; without, the moves are known to
    /// leave them as they were (the boards are still compared whole).
    pub(super) fn is_new(&mut self, pit: usize, takes: bool, board: &Board, another: bool, states: bool) -> bool {
        use std::hash::{Hash, Hasher};
        let mut h = Quick::default();
        (pit, another, takes).hash(&mut h);
        board.cells.hash(&mut h);
        board.memory.hash(&mut h);
        if states {
            board.claimed.hash(&mut h);
            board.closed.hash(&mut h);
        }
        self.insert_new(h.finish(), pit, takes, board, another, states)
    }

    /// [`Landings::is_new`] with the hash `key` worked out. Without `states`, only the seeds and the
    /// memory are compared and kept: the claims and closed pits of every landing of the listing are
    /// the position's.
    pub(super) fn insert_new(&mut self, key: u64, pit: usize, takes: bool, board: &Board, another: bool, states: bool) -> bool {
        let mut at = self.last.get(&key).copied().unwrap_or(usize::MAX);
        while let Some((p, b, a, t, previous)) = self.slots[..self.used].get(at) {
            at = *previous;
            if (*p, *a, *t) == (pit, another, takes)
                && same(&b.cells, &board.cells)
                && same(&b.memory, &board.memory)
                && (!states || b == board)
            {
                return false;
            }
        }
        self.insert(key, pit, takes, board, another, states, None);
        true
    }

    /// Keeps a landing found new under the hash `key` ([`Landings::insert_new`]), with what its
    /// `after move` rules read where they are unread.
    #[allow(clippy::too_many_arguments)]
    fn insert(&mut self, key: u64, pit: usize, takes: bool, board: &Board, another: bool, states: bool, unread: Option<Unread>) {
        let previous = self.last.insert(key, self.used).unwrap_or(usize::MAX);
        match self.slots.get_mut(self.used) {
            Some(slot) if !states => {
                slot.1.cells.clone_from(&board.cells);
                slot.1.memory.clone_from(&board.memory);
                (slot.0, slot.2, slot.3, slot.4) = (pit, another, takes, previous);
            }
            Some(slot) => {
                slot.1.clone_from(board);
                (slot.0, slot.2, slot.3, slot.4) = (pit, another, takes, previous);
            }
            None => self.slots.push((pit, board.clone(), another, takes, previous)),
        }
        match self.unread.get_mut(self.used) {
            Some(kept) => *kept = unread,
            None => self.unread.push(unread),
        }
        self.used += 1;
    }
}

/// Do two lists of counts hold the same? Compared in line: most boards compared are equal (the
/// same landing by another answer), short, and a library call's start-up costs more than the loop.
#[inline]
fn same<T: Copy + std::ops::BitXor<Output = T> + std::ops::BitOr<Output = T> + Default + PartialEq>(a: &[T], b: &[T]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(T::default(), |differ, (&x, &y)| differ | (x ^ y)) == T::default()
}

/// A quick hash of the words written (multiply and rotate, as rustc's own table hash), mixed at the
/// end so that every bit of the result depends on every bit written: the boards hashed are a game's
/// own positions, compared whole when their hashes agree, so the hash need not resist chosen inputs.
#[derive(Default)]
struct Quick(u64);

impl Quick {
    #[inline]
    fn add(&mut self, word: u64) {
        self.0 = (self.0.rotate_left(5) ^ word).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
}

impl std::hash::Hasher for Quick {
    fn finish(&self) -> u64 {
        // The last step of MurmurHash3's 64-bit mix.
        let mut h = self.0;
        h ^= h >> 33;
        h = h.wrapping_mul(0xff51_afd7_ed55_8ccd);
        h ^= h >> 33;
        h = h.wrapping_mul(0xc4ce_b9fe_1a85_ec53);
        h ^ (h >> 33)
    }

    fn write(&mut self, bytes: &[u8]) {
        // Four words at a time in four lanes, folded in at the end: a board's counts are hashed
        // without waiting on each multiplication in turn.
        let mut blocks = bytes.chunks_exact(32);
        let mut lanes = [0u64; 4];
        for block in &mut blocks {
            for (lane, w) in lanes.iter_mut().zip(block.chunks_exact(8)) {
                *lane =
                    (lane.rotate_left(5) ^ u64::from_le_bytes(w.try_into().expect("eight bytes"))).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
            }
        }
        for lane in lanes {
            self.add(lane);
        }
        let mut words = blocks.remainder().chunks_exact(8);
        for w in &mut words {
            self.add(u64::from_le_bytes(w.try_into().expect("eight bytes")));
        }
        let mut rest = [0u8; 8];
        let tail = words.remainder();
        rest[..tail.len()].copy_from_slice(tail);
        self.add(u64::from_le_bytes(rest) ^ (tail.len() as u64) << 56);
    }

    fn write_u8(&mut self, i: u8) {
        self.add(u64::from(i));
    }

    fn write_u32(&mut self, i: u32) {
        self.add(u64::from(i));
    }

    fn write_u64(&mut self, i: u64) {
        self.add(i);
    }

    fn write_usize(&mut self, i: usize) {
        self.add(i as u64);
    }

    fn write_isize(&mut self, i: isize) {
        self.add(i as u64);
    }

    fn write_i64(&mut self, i: i64) {
        self.add(i as u64);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::board::Slots;

    /// A board of `n` cells, beyond the inline room when `n` is large, with `seeds` in the first.
    fn board(n: usize, seeds: u32) -> Board {
        let mut cells = Slots::from_elem(0, n);
        cells[0] = seeds;
        Board {
            cells,
            claimed: Slots::from_elem(None, n),
            closed: Slots::from_elem(false, n),
            memory: Vec::new(),
        }
    }

    #[test]
    fn a_landing_is_new_once_for_its_pit_and_list() {
        let mut seen = Landings::default();
        let (a, b) = (board(40, 1), board(40, 2));
        assert!(seen.is_new(1, false, &a, false, true));
        assert!(!seen.is_new(1, false, &a, false, true));
        // Another pit, another list, another turn or another board: not the same move.
        assert!(seen.is_new(2, false, &a, false, true));
        assert!(seen.is_new(1, true, &a, false, true));
        assert!(seen.is_new(1, false, &a, true, true));
        assert!(seen.is_new(1, false, &b, false, true));
        assert!(!seen.is_new(1, false, &b, false, true));
        // Emptied for the next listing, its slots are reused: nothing is seen any more.
        seen.clear();
        assert!(seen.is_new(1, false, &b, false, true));
        assert!(seen.is_new(1, false, &a, false, true));
        assert!(!seen.is_new(1, false, &a, false, true));
        assert_eq!(seen.slots.len(), 5);
    }

    #[test]
    fn landings_with_the_same_hash_are_told_apart_by_their_boards() {
        // Every board hashed alike: the slots of one hash are chained and compared whole.
        let mut seen = Landings::default();
        let boards: Vec<Board> = (0..5).map(|s| board(20, s)).collect();
        for b in &boards {
            assert!(seen.insert_new(7, 1, false, b, false, true));
        }
        for b in &boards {
            assert!(!seen.insert_new(7, 1, false, b, false, true));
        }
        // Nor is the same board from another pit, in the other list or with another turn.
        assert!(seen.insert_new(7, 2, false, &boards[0], false, true));
        assert!(seen.insert_new(7, 1, true, &boards[0], false, true));
        assert!(seen.insert_new(7, 1, false, &boards[0], true, true));
    }

    /// Issue 25: without claims or closed pits in play, landings are told apart by their seeds
    /// and memory alone, each cell and each word of memory counting (compared in line, here all
    /// under one hash), and a slot reused keeps only those.
    #[test]
    fn without_states_every_count_and_memory_word_tells_landings_apart() {
        let mut seen = Landings::default();
        let mut base = board(40, 3);
        base.memory = vec![0, 5, 0];
        assert!(seen.insert_new(7, 1, false, &base, false, false));
        assert!(seen.is_new(1, false, &base, false, false), "another hash, another chain");
        assert!(!seen.is_new(1, false, &base, false, false));
        for c in 0..40 {
            let mut other = base.clone();
            other.cells[c] += 1;
            assert!(seen.insert_new(7, 1, false, &other, false, false), "cell {c}");
            assert!(!seen.insert_new(7, 1, false, &other, false, false), "cell {c} again");
        }
        for w in 0..3 {
            let mut other = base.clone();
            other.memory[w] -= 1;
            assert!(seen.insert_new(7, 1, false, &other, false, false), "memory word {w}");
        }
        // The same seeds and memory: one landing (its closed pits are the position's, whatever
        // the board says).
        let mut closed = base.clone();
        closed.closed[4] = true;
        assert!(!seen.insert_new(7, 1, false, &closed, false, false));
        seen.clear();
        assert!(seen.insert_new(7, 2, false, &base, false, false));
        let mut more = base.clone();
        more.cells[39] += 1;
        assert!(seen.insert_new(7, 2, false, &more, false, false), "the last cell of a reused slot");
        assert!(!seen.insert_new(7, 2, false, &more, false, false));
    }

    /// Issue 25: packed landings are told apart by every byte, their pit, list and turn, and
    /// beside general ones of the same hash each kind is found again where it lies.
    #[test]
    fn packed_landings_are_told_apart_by_every_byte_beside_general_ones() {
        let mut seen = Landings::default();
        let base = board(40, 3);
        let packed = WideBoard::of_cells(&base.cells);
        assert!(seen.is_new_packed(1, false, &packed, false));
        assert!(!seen.is_new_packed(1, false, &packed, false));
        assert!(seen.is_new_packed(2, false, &packed, false));
        assert!(seen.is_new_packed(1, true, &packed, false));
        assert!(seen.is_new_packed(1, false, &packed, true));
        for c in 0..WideBoard::LANES {
            let mut other = packed;
            other.bytes_mut()[c] += 1;
            assert!(seen.is_new_packed(1, false, &other, false), "byte {c}");
            assert!(!seen.is_new_packed(1, false, &other, false), "byte {c} again");
        }
        // General landings under one hash, with packed ones pushed in between: each found again.
        let boards: Vec<Board> = (10..14).map(|s| board(20, s)).collect();
        for b in &boards {
            assert!(seen.insert_new(7, 1, false, b, false, false));
            assert!(seen.insert_new_packed(7, 1, false, &WideBoard::of_cells(&b.cells), false));
        }
        for b in &boards {
            assert!(!seen.insert_new(7, 1, false, b, false, false));
            assert!(!seen.insert_new_packed(7, 1, false, &WideBoard::of_cells(&b.cells), false));
        }
        // A walk hands a landing over in one form: the general form of one kept packed is another.
        let is_new = |seen: &mut Landings, landing| {
            seen.is_new_landing(1, false, landing, false, false, |_, _| unreachable!("no landing is unread"))
        };
        assert!(is_new(&mut seen, Landing::Board(&base)));
        assert!(!is_new(&mut seen, Landing::Board(&base)));
        seen.clear();
        assert!(is_new(&mut seen, Landing::Packed(&packed)));
        assert!(!is_new(&mut seen, Landing::Packed(&packed)));
        assert_eq!(seen.packed_used, 1);
    }

    /// Issue 25: the packed landings' own buckets (the hash's low bits, doubled as the slots
    /// come): landings of one bucket (hashes alike in their low bits, or the same hash) are
    /// chained and compared whole, and every landing is found again after the buckets grew, in
    /// this listing and not in the next.
    #[test]
    fn packed_landings_are_found_again_across_their_buckets_growing() {
        let mut seen = Landings::default();
        let landing = |i: usize| {
            let mut b = WideBoard::ZERO;
            b.bytes_mut()[i % WideBoard::LANES] = (i / WideBoard::LANES) as u8 + 1;
            b
        };
        // Keys alike in their low 12 bits: one bucket until the buckets number 8192; a key every
        // fifth landing is shared.
        let key = |i: usize| ((i / 5) as u64) << 12 | 0x5a5;
        for round in 0..2 {
            for i in 0..1000 {
                assert!(seen.insert_new_packed(key(i), 1, false, &landing(i), false), "{i}, round {round}");
                assert!(!seen.insert_new_packed(key(i), 1, false, &landing(i), false), "{i} again");
            }
            for i in 0..1000 {
                assert!(!seen.insert_new_packed(key(i), 1, false, &landing(i), false), "{i} after growing");
                assert!(seen.insert_new_packed(key(i), 2, false, &landing(i), false), "{i} from pit 2");
            }
            assert!(seen.packed_heads.len() >= 2000 && seen.packed_heads.len().is_power_of_two());
            seen.clear();
            assert_eq!(seen.packed_heads.len(), PACKED_BUCKETS);
        }
        // Hashes that differ in their low bits alone, each its own bucket.
        for i in 0..300 {
            assert!(seen.is_new_packed(i, false, &landing(i), false));
        }
        for i in 0..300 {
            assert!(!seen.is_new_packed(i, false, &landing(i), false), "{i}");
        }
    }

    /// Issue 25: in a walk whose trials are packed, a general trial's landing is handed over
    /// packed when it can be (the same landing is one form whichever trial left it), and as its
    /// board when its memory is not the position's or a cell holds more than a byte.
    #[test]
    fn a_general_landing_of_a_packed_walk_is_handed_over_packed_where_it_can_be() {
        let mut pos_board = board(40, 3);
        pos_board.memory = vec![1];
        let pos = Position {
            board: pos_board.clone(),
            ..crate::shipped::all().next().expect("a shipped game").game().initial(None)
        };
        let mut trial = Trial::for_walk(&pos.board, true);
        assert!(matches!(trial.landing(&pos), Some(Landing::Board(_))), "a walk not packed");
        trial.packed = Some((WideBoard::of_cells(&pos.board.cells), std::ptr::null()));
        let mut left = pos_board.clone();
        left.cells[5] = 9;
        trial.board = Some(left.clone());
        match trial.landing(&pos) {
            Some(Landing::Packed(p)) => assert!(*p == WideBoard::of_cells(&left.cells)),
            _ => panic!("packed"),
        }
        for change in [|b: &mut Board| b.memory[0] = 2, |b: &mut Board| b.cells[0] = 256] {
            let mut other = pos_board.clone();
            change(&mut other);
            (trial.board, trial.landed) = (Some(other), None);
            assert!(matches!(trial.landing(&pos), Some(Landing::Board(_))));
        }
        trial.give_back();
    }

    /// Issue 25: a walk's trial board, made in one an earlier walk on the thread gave back, is a
    /// whole copy of its position's board (seeds, claims, closed pits, memory, of any size): the
    /// trials copy only the seeds and memory over it after that.
    #[test]
    fn a_trial_board_kept_from_an_earlier_walk_is_its_positions() {
        let mut earlier = board(40, 3);
        earlier.claimed[2] = Some(crate::board::Player::North);
        earlier.closed[5] = true;
        earlier.memory = vec![4, 2];
        for next in [board(34, 1), board(14, 0), board(40, 7)] {
            Trial::for_walk(&earlier, false).give_back();
            let trial = Trial::for_walk(&next, true);
            assert!(trial.board.as_ref() == Some(&next), "a board of {} cells", next.cells.len());
            assert!(trial.keep && trial.kept.is_none() && trial.another.is_none());
            trial.give_back();
        }
        // As many boards as walks inside one another, each its own position's.
        let (a, b) = (Trial::for_walk(&earlier, false), Trial::for_walk(&board(34, 9), false));
        assert!(a.board.as_ref() == Some(&earlier) && b.board.as_ref() == Some(&board(34, 9)));
    }

    /// A game of two pits a side whose three seeds, sown either way past the origin, fill the other
    /// three pits alike, so that both ways of a pit leave the same seeds; `after` is its `after
    /// move` rule, which only remembers. Its moves are sown to be judged (`captures required`).
    fn both_ways_alike(after: &str) -> Game {
        crate::shipped::invented(&format!(
            r#"game "Both ways alike"
               memory {{ player way = 0 }}
               board {{ pits 2  seeds 3 }}
               sow {{ direction either  skip origin }}
               captures required
               capture "a pair" {{ when last.count == 2  take last }}
               after move "the way" {{ when clockwise  set mover.way = {after} }}
               end "cannot move" when no_moves loser to_move"#
        ))
    }

    /// Issue 25: where the `after move` rules only remember, a listing reads them only for moves
    /// whose seeds match another's from the same pit, and still leaves out exactly the moves that
    /// leave what an earlier one leaves, as reading them on every trial ([`Game::landing`]) does.
    #[test]
    fn after_move_rules_that_only_remember_tell_apart_moves_that_leave_the_same_seeds() {
        // From [3, 3 | 3, 3], each pit's two ways (moves 1, 2 the first way, 3, 4 the other)
        // leave its other three pits at 4 seeds.
        for (after, distinct) in [("1", vec![1, 2, 3, 4]), ("0", vec![1, 2])] {
            let g = both_ways_alike(after);
            let pos = g.initial(None);
            let rules = g.move_rules(&pos, Hints::default());
            assert!(rules.phase.after_moves_only_remember);
            let every: Vec<usize> = g.all_choice_moves(&pos, rules, false).iter().map(|&(k, _)| k).collect();
            assert_eq!(every, [1, 2, 3, 4], "`set mover.way = {after}`");
            let listed: Vec<usize> = g.all_choice_moves(&pos, rules, true).iter().map(|&(k, _)| k).collect();
            assert_eq!(listed, distinct, "`set mover.way = {after}`");
            // The same moves left out as by their whole landings, `after move` rules read.
            let mut landings: Vec<(usize, (Board, bool))> = Vec::new();
            let mut by_landing = Vec::new();
            for k in every {
                let left = (g.move_parts(k).0, g.landing(&pos, rules, k));
                if !landings.contains(&left) {
                    landings.push(left);
                    by_landing.push(k);
                }
            }
            assert_eq!(listed, by_landing, "`set mover.way = {after}`");
        }
    }
}
