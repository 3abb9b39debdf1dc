//! The positions of a fast playout since the last capture, kept as packed boards with the player to
//! move folded in, for the repetition rule, and the room each thread keeps for them between playouts.

use super::FastForm;
use crate::compile::shape::{Lanes, WideBoard};
use crate::engine::Player;

/// A packed board of a width the playouts are built for: each keeps the room of its thread's last
/// playout's positions for the next (see [`Seen`]'s `Drop`).
pub(crate) trait Board: Lanes {
    /// A key as [`Seen`] keeps it.
    type Entry: Copy + 'static;
    /// The thread's room for this width.
    fn room() -> &'static std::thread::LocalKey<std::cell::Cell<Vec<Self::Entry>>>;
    /// The key of the position of `board` with `to_move` to move, equal for two positions exactly
    /// when both the key and the hash are, and its hash.
    fn keyed(board: Self, to_move: Player) -> (Self, u64);
    /// The entry of `key`, whose hash is `hash`.
    fn entry(key: Self, hash: u64) -> Self::Entry;
    /// Is `e` the entry of `key`, whose hash is `hash`?
    fn is(e: &Self::Entry, key: Self, hash: u64) -> bool;
    /// The board and the player to move of an entry's position.
    fn position(e: &Self::Entry) -> (Self, Player);
}

/// A key's hash (its filter bit is read from the top bits).
#[inline(always)]
fn hash_of<B: Lanes>(key: B) -> u64 {
    key.mixed().wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

thread_local! {
    static SEEN_ROOM: std::cell::Cell<Vec<u128>> = const { std::cell::Cell::new(Vec::new()) };
    static SEEN_ROOM_WIDE: std::cell::Cell<Vec<(u64, WideBoard)>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A narrow key is its own entry: compared as one number.
impl Board for u128 {
    type Entry = u128;
    fn room() -> &'static std::thread::LocalKey<std::cell::Cell<Vec<u128>>> {
        &SEEN_ROOM
    }
    /// The board, with the top bit of every lane flipped when North is to move: of at most 255
    /// seeds at most one lane holds 128 or more, so the flip raises the lanes' sum, and the result
    /// is never the board of a position of the same game (whose sum is the game's seeds).
    #[inline(always)]
    fn keyed(board: u128, to_move: Player) -> (u128, u64) {
        let key = if to_move.index() == 0 { board } else { board ^ u128::TOPS };
        (key, hash_of(key))
    }
    #[inline(always)]
    fn entry(key: u128, _: u64) -> u128 {
        key
    }
    #[inline(always)]
    fn is(e: &u128, key: u128, _: u64) -> bool {
        *e == key
    }
    /// A board has the top bit set in one lane at most; a flipped one in fifteen at least.
    #[inline(always)]
    fn position(e: &u128) -> (u128, Player) {
        if e.tops() > 1 {
            (e ^ u128::TOPS, Player::North)
        } else {
            (*e, Player::South)
        }
    }
}

/// A wide key is kept with its hash, compared first: a scan then compares numbers, not wide boards
/// (whose comparisons were 6% of a Hus playout).
impl Board for WideBoard {
    type Entry = (u64, WideBoard);
    fn room() -> &'static std::thread::LocalKey<std::cell::Cell<Vec<(u64, WideBoard)>>> {
        &SEEN_ROOM_WIDE
    }
    /// The board itself, the player to move in the hash's lowest bit (which the filter does not
    /// read): the board's lanes flipped for North were 4 instructions more and a copy of the key
    /// kept for the list.
    #[inline(always)]
    fn keyed(board: WideBoard, to_move: Player) -> (WideBoard, u64) {
        (board, hash_of(board) & !1 | to_move.index() as u64 & 1)
    }
    #[inline(always)]
    fn entry(key: WideBoard, hash: u64) -> (u64, WideBoard) {
        (hash, key)
    }
    #[inline(always)]
    fn is(e: &(u64, WideBoard), key: WideBoard, hash: u64) -> bool {
        e.0 == hash && e.1 == key
    }
    #[inline(always)]
    fn position(e: &(u64, WideBoard)) -> (WideBoard, Player) {
        (e.1, if e.0 & 1 == 0 { Player::South } else { Player::North })
    }
}

impl<B: Board> Drop for Seen<B> {
    fn drop(&mut self) {
        if self.keys.capacity() > 0 {
            B::room().set(std::mem::take(&mut self.keys));
        }
    }
}

/// Words of [`Seen`]'s filter: with 2048 bits, the few dozen positions between two captures of a
/// game rarely share a bit with the next, so the list is seldom read (it is cleared at each capture).
const FILTER_WORDS: usize = 32;

/// The positions of a playout since the history was last cleared, as [`Board::keyed`] keys with a
/// filter beside them (as [`crate::engine::History`] keeps one), and the identities of the positions
/// before the playout, while they may still come back.
pub(super) struct Seen<B: Board> {
    pub(super) keys: Vec<B::Entry>,
    filter: [u64; FILTER_WORDS],
    /// The history before the playout, but its last position (kept as a key).
    before: crate::engine::History,
}

impl<B: Board> Seen<B> {
    pub(super) fn new() -> Seen<B> {
        Seen {
            keys: Vec::new(),
            filter: [0; FILTER_WORDS],
            before: crate::engine::History::new(),
        }
    }

    /// Starts from the history of the position `current` (its last identity), and empties it: the
    /// positions are kept here until the playout writes them back. The list keeps its room, so that
    /// the next playout's copy of its start position allocates nothing (a list allocated and freed
    /// each playout was about 9 instructions a Hus move).
    pub(super) fn start(&mut self, history: &mut crate::engine::History, board: B, to_move: Player) {
        let ids = history.as_slice();
        if let Some((_, earlier)) = ids.split_last() {
            if !earlier.is_empty() {
                self.before = crate::engine::History::from(earlier.to_vec());
            }
            let (key, hash) = B::keyed(board, to_move);
            self.add(key, hash);
        }
        history.clear();
    }

    /// Keeps the key `key` of hash `hash`, its filter bit set.
    #[inline(always)]
    fn add(&mut self, key: B, hash: u64) {
        let (w, b) = Self::bit(hash);
        self.filter[w] |= b;
        self.keys.push(B::entry(key, hash));
    }

    /// Which filter bit a key of hash `hash` sets: a word and a bit.
    #[inline(always)]
    fn bit(hash: u64) -> (usize, u64) {
        let h = hash >> (64 - FILTER_WORDS.trailing_zeros() - 6);
        ((h >> 6) as usize & (FILTER_WORDS - 1), 1 << (h & 63))
    }

    /// Was the position of `board` with `to_move` to move seen? It is added either way; `identity`
    /// gives its identity, asked only while positions from before the playout are kept.
    #[inline(always)]
    pub(super) fn check_and_add(&mut self, board: B, to_move: Player, identity: impl FnOnce() -> u64) -> bool {
        let (key, hash) = B::keyed(board, to_move);
        let (w, b) = Self::bit(hash);
        let mut seen = self.filter[w] & b != 0 && self.keys.iter().any(|e| B::is(e, key, hash));
        if !self.before.is_empty() {
            seen |= self.before.contains(identity());
        }
        self.add(key, hash);
        seen
    }

    #[inline(always)]
    pub(super) fn clear(&mut self) {
        self.keys.clear();
        self.filter = [0; FILTER_WORDS];
        if !self.before.is_empty() {
            self.before = crate::engine::History::new();
        }
    }

    /// The history in the general engine's form: identities, oldest first.
    pub(super) fn history<const L: usize>(&mut self, ff: &FastForm<B, L>) -> crate::engine::History {
        let mut ids = std::mem::take(&mut self.before).as_slice().to_vec();
        ids.extend(self.keys.iter().map(|e| {
            let (board, to_move) = B::position(e);
            ff.identity(board, to_move)
        }));
        crate::engine::History::from(ids)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Both widths tell the two players' positions of one board apart, and give back the board and
    /// the player to move of what they keep (a wide board keeps the player in its hash's lowest
    /// bit, a narrow one in its lanes' top bits).
    fn keys_round_trip<B: Board + PartialEq + std::fmt::Debug>(boards: &[B]) {
        for &board in boards {
            let (south, south_hash) = B::keyed(board, Player::South);
            let (north, north_hash) = B::keyed(board, Player::North);
            assert!(!(south == north && south_hash == north_hash), "{board:?}: one key for both players");
            for (key, hash, to_move) in [(south, south_hash, Player::South), (north, north_hash, Player::North)] {
                let e = B::entry(key, hash);
                assert!(B::is(&e, key, hash));
                assert_eq!(B::position(&e), (board, to_move));
            }
        }
    }

    #[test]
    fn keys_keep_the_player_to_move() {
        keys_round_trip::<u128>(&[0, 3 | 1 << 16 | 200 << 120, 48 << 8]);
        keys_round_trip::<WideBoard>(&[WideBoard::ZERO, WideBoard::at(0, 2) + WideBoard::at(33, 7), WideBoard::at(63, 255)]);
    }
}
