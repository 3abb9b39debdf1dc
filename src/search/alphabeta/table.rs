//! Alpha-beta's transposition table: a map from a position's key to what a search of it found,
//! kept in one array probed in a line from the key's slot (the key is a hash already). It keeps
//! every key it is given, as a map does, until it is emptied at a limit, so that the search visits
//! the same nodes as with any other map; what it saves is the second probe of a node: the slot a
//! probe found is where the node's result is stored, unless the array grew or was emptied meanwhile.
//!
//! A search's table is the thread's array of the search before, at the size it reached (a game's
//! searches are of about the same size): a fresh array grown by doubling was 1.7% of a search of
//! Kalah, 3.7% of Oware's (zeroing each new array, moving every entry at each doubling). Each slot
//! carries the stamp of the table that stored it, and a slot of an earlier stamp is empty, so that
//! a table is emptied by taking a new stamp rather than by writing every slot (a stamp is a byte:
//! every 255th table writes them all once).

use std::cell::Cell;

/// What a value is of the position's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What a search of a position found.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct Entry {
    pub(super) value: i32,
    /// The best move found (its number), searched first the next time.
    pub(super) best: u32,
    pub(super) depth: u32,
    pub(super) bound: Bound,
}

/// Where a probe ended: the slot of its key, or the empty slot a store of it starts from.
#[derive(Clone, Copy, Debug)]
pub(super) struct Spot {
    slot: usize,
    /// The array's generation when probed: a grown or emptied array is probed again.
    generation: u32,
}

/// A key and its [`Entry`] in 16 bytes, four to a cache line and none across two (in 24 bytes a
/// quarter of the slots lay across two lines, and a probe of a table of millions of entries waits
/// on memory): the move and the depth a byte each, the stamp a byte. An entry whose move or depth
/// needs more (a move with choices, a depth past 254) keeps [`WIDE`] as its move and is whole in
/// the table's side map.
#[derive(Clone, Copy)]
struct Slot {
    key: u64,
    value: i32,
    best: u8,
    depth: u8,
    bound: Bound,
    /// The stamp of the table that stored it; the slot is empty for any other (0: never stored).
    stamp: u8,
}

const _: () = assert!(std::mem::size_of::<Slot>() == 16, "a slot holds its entry in 16 bytes");

/// A slot's move when its entry is in the side map.
const WIDE: u8 = u8::MAX;

const BLANK: Slot = Slot {
    key: 0,
    value: 0,
    best: 0,
    depth: 0,
    bound: Bound::Exact,
    stamp: 0,
};

/// The slots of the first table of a thread.
const FIRST_SLOTS: usize = 1 << 12;

/// The largest array kept for the thread's next search (16 MiB): a larger one is freed, and the
/// next search starts again from [`FIRST_SLOTS`].
const KEPT_SLOTS: usize = 1 << 20;

thread_local! {
    /// The array of the thread's last table, with the last stamp it used.
    static KEPT: Cell<Option<(Vec<Slot>, u8)>> = const { Cell::new(None) };
}

/// The table. It holds at most `limit` entries: a store beyond them empties it first.
pub(super) struct Table {
    slots: Vec<Slot>,
    len: usize,
    limit: usize,
    generation: u32,
    /// The stamp of this table's slots.
    stamp: u8,
    /// The entries whose move or depth a slot's byte does not hold, by key (emptied with the table).
    wide: std::collections::HashMap<u64, Entry>,
}

impl Table {
    /// An empty table of at most `limit` entries (its array grows as they come): the thread's last
    /// array, where one was kept.
    pub(super) fn new(limit: usize) -> Table {
        let (slots, stamp) = KEPT.take().unwrap_or_else(|| (vec![BLANK; FIRST_SLOTS], 0));
        let mut t = Table {
            slots,
            len: 0,
            limit,
            generation: 0,
            stamp,
            wide: std::collections::HashMap::new(),
        };
        t.restamp();
        t
    }

    /// Empties the table: a new stamp, every slot written again only when the stamps wrap.
    fn restamp(&mut self) {
        self.stamp = self.stamp.wrapping_add(1);
        if self.stamp == 0 {
            self.slots.fill(BLANK);
            self.stamp = 1;
        }
        self.len = 0;
        if !self.wide.is_empty() {
            self.wide.clear();
        }
    }

    /// Entries held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    /// The entry of `key`, with where a store of it goes.
    #[inline(always)]
    pub(super) fn probe(&self, key: u64) -> (Option<Entry>, Spot) {
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.stamp != self.stamp {
                return (None, self.spot(i));
            }
            if s.key == key {
                if s.best == WIDE {
                    return (self.wide_entry(key), self.spot(i));
                }
                let entry = Entry {
                    value: s.value,
                    best: u32::from(s.best),
                    depth: u32::from(s.depth),
                    bound: s.bound,
                };
                return (Some(entry), self.spot(i));
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a probe soon after does
    /// not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        let slot = &self.slots[key as usize & (self.slots.len() - 1)];
        #[cfg(target_arch = "x86_64")]
        safe_arch::prefetch_t0(slot);
        #[cfg(not(target_arch = "x86_64"))]
        let _ = slot;
    }

    fn spot(&self, slot: usize) -> Spot {
        Spot {
            slot,
            generation: self.generation,
        }
    }

    /// Keeps `entry` for `key`, replacing what it had; `spot` is where its probe ended. A full
    /// table is emptied first.
    #[inline(always)]
    pub(super) fn store(&mut self, key: u64, spot: Spot, entry: Entry) {
        if self.len >= self.limit {
            self.empty();
        }
        let mask = self.slots.len() - 1;
        // Slots are never emptied one by one, so the line from the key's slot to the probe's
        // end held neither the key nor an empty slot, and still does not.
        let mut i = if spot.generation == self.generation {
            spot.slot
        } else {
            key as usize & mask
        };
        // Their bits together below [`WIDE`]: then both are (a few that would fit go to the side
        // map, when their bits together make 255).
        let narrow = (entry.best | entry.depth) < u32::from(WIDE);
        let slot = Slot {
            key,
            value: entry.value,
            best: if narrow { entry.best as u8 } else { WIDE },
            depth: entry.depth as u8,
            bound: entry.bound,
            stamp: self.stamp,
        };
        if !narrow {
            self.keep_wide(key, entry);
        }
        loop {
            let s = &mut self.slots[i];
            if s.stamp != self.stamp {
                *s = slot;
                self.len += 1;
                if self.len * 4 > self.slots.len() * 3 {
                    self.grow();
                }
                return;
            }
            if s.key == key {
                *s = slot;
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// The entry of `key`, whose slot says it is in the side map.
    #[cold]
    #[inline(never)]
    fn wide_entry(&self, key: u64) -> Option<Entry> {
        self.wide.get(&key).copied()
    }

    /// Keeps `entry`, which a slot does not hold, in the side map.
    #[cold]
    #[inline(never)]
    fn keep_wide(&mut self, key: u64, entry: Entry) {
        self.wide.insert(key, entry);
    }

    /// Empties the full table; the spots of probes before are probed again.
    #[cold]
    fn empty(&mut self) {
        self.restamp();
        self.generation = self.generation.wrapping_add(1);
    }

    /// Twice the slots, every entry moved to its new place.
    #[cold]
    fn grow(&mut self) {
        let grown = vec![BLANK; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, grown);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.stamp == self.stamp) {
            let mut i = s.key as usize & mask;
            while self.slots[i].stamp == self.stamp {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
        self.generation = self.generation.wrapping_add(1);
    }
}

impl Drop for Table {
    /// The array is kept for the thread's next search, unless it is large.
    fn drop(&mut self) {
        if self.slots.len() <= KEPT_SLOTS {
            KEPT.set(Some((std::mem::take(&mut self.slots), self.stamp)));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(value: i32) -> Entry {
        Entry {
            value,
            best: 1,
            depth: 2,
            bound: Bound::Lower,
        }
    }

    /// The table answers as a map: every key stored is found with its last entry, through growth,
    /// keys that share a slot (and the key 0), stores whose probe was made before other stores, and
    /// emptying at the limit.
    #[test]
    fn the_table_keeps_every_key_as_a_map_does() {
        let mut t = Table::new(5_000);
        let mut map = std::collections::HashMap::new();
        // Keys that share their low bits (one slot) and spread ones, the key 0 among them.
        let keys: Vec<u64> = (0..3_000u64)
            .map(|i| if i % 3 == 0 { i << 40 } else { crate::keys::mix(i) })
            .collect();
        for (n, &k) in keys.iter().enumerate() {
            // A probe, then other stores (a search's children), then the store of the probed key.
            let (_, spot) = t.probe(k);
            if n > 0 {
                let other = keys[n / 2];
                let (_, s) = t.probe(other);
                t.store(other, s, entry(-(n as i32)));
                map.insert(other, entry(-(n as i32)));
            }
            t.store(k, spot, entry(n as i32));
            map.insert(k, entry(n as i32));
        }
        assert_eq!(t.len(), map.len());
        for (k, e) in &map {
            assert_eq!(t.probe(*k).0, Some(*e), "{k}");
        }
        assert_eq!(t.probe(12_345).0, None);
        // Probes made before the array grew (a node's, before its children's stores): their
        // keys are stored where they belong now, and found.
        let mut t = Table::new(1 << 20);
        let early: Vec<(u64, Spot)> = (0..64u64)
            .map(|i| crate::keys::mix((i + 1) << 32))
            .map(|k| (k, t.probe(k).1))
            .collect();
        for k in 0..5_000u64 {
            let (_, s) = t.probe(crate::keys::mix(k));
            t.store(crate::keys::mix(k), s, entry(1));
        }
        for &(k, spot) in &early {
            t.store(k, spot, entry(2));
        }
        for &(k, _) in &early {
            assert_eq!(t.probe(k).0, Some(entry(2)), "{k}");
        }
        // Full: the next store of a new key empties it.
        let mut t = Table::new(10);
        for k in 1..=10u64 {
            let (_, s) = t.probe(k);
            t.store(k, s, entry(k as i32));
        }
        let (_, s) = t.probe(11);
        t.store(11, s, entry(11));
        assert_eq!(t.len(), 1);
        assert_eq!(t.probe(1).0, None);
        assert_eq!(t.probe(11).0, Some(entry(11)));
    }

    /// Every entry comes back as it was stored, those whose move, depth or value a slot's bytes do
    /// not hold (kept in the side map) included: through growth, when a key's entry changes from
    /// one kind to the other, and not after the table is emptied at its limit.
    #[test]
    fn an_entry_comes_back_whole_whether_its_slot_holds_it_or_not() {
        let values = [
            0,
            1,
            -1,
            7 * 16,
            -(1 << 26),
            1 << 26,
            (1 << 29) - 1,
            -(1 << 29),
            1 << 29,
            i32::MAX,
            i32::MIN,
        ];
        let bests = [0, 1, 2, 64, 128, 254, 255, 256, 1 << 8 | 3, u32::MAX];
        let depths = [0, 1, 2, 17, 128, 254, 255, 256, 1_000, u32::MAX];
        let bounds = [Bound::Exact, Bound::Lower, Bound::Upper];
        let mut all = Vec::new();
        for &value in &values {
            for &best in &bests {
                for &depth in &depths {
                    for &bound in &bounds {
                        all.push(Entry { value, best, depth, bound });
                    }
                }
            }
        }
        let key = |n: usize| crate::keys::mix(n as u64 + 1);
        let mut t = Table::new(1 << 20);
        for (n, e) in all.iter().enumerate() {
            let (_, s) = t.probe(key(n));
            t.store(key(n), s, *e);
        }
        assert!(t.slots.len() > FIRST_SLOTS, "the array grew");
        for (n, e) in all.iter().enumerate() {
            assert_eq!(t.probe(key(n)).0, Some(*e), "{e:?}");
        }
        // Each key's entry replaced by the one of another kind.
        for (n, e) in all.iter().enumerate() {
            let other = all[all.len() - 1 - n];
            let (found, s) = t.probe(key(n));
            assert_eq!(found, Some(*e));
            t.store(key(n), s, other);
            assert_eq!(t.probe(key(n)).0, Some(other), "{e:?} -> {other:?}");
        }
        // Emptied at the limit: no entry of before comes back, wide or not.
        let mut t = Table::new(all.len());
        for (n, e) in all.iter().enumerate() {
            let (_, s) = t.probe(key(n));
            t.store(key(n), s, *e);
        }
        let (_, s) = t.probe(key(all.len()));
        t.store(key(all.len()), s, all[0]);
        assert!((0..all.len()).all(|n| t.probe(key(n)).0.is_none()));
        // A key stored again after the emptying is found.
        let (_, s) = t.probe(key(5));
        t.store(key(5), s, all[0]);
        assert_eq!(t.probe(key(5)).0, Some(all[0]));
    }

    /// A table takes the thread's array of the table before it, at the size it reached, and holds
    /// none of its entries: after an emptying at the limit, and when the stamps wrap (a stale slot
    /// whose stamp comes round again must not be read as stored).
    #[test]
    fn a_table_holds_nothing_of_the_tables_before_it_on_its_thread() {
        let keys: Vec<u64> = (0..4_000u64).map(crate::keys::mix).collect();
        let mut t = Table::new(1 << 20);
        for &k in &keys {
            let (_, s) = t.probe(k);
            t.store(k, s, entry(1));
        }
        let grown = t.slots.len();
        assert!(grown > FIRST_SLOTS);
        drop(t);
        let mut t = Table::new(1 << 20);
        assert_eq!(t.slots.len(), grown, "the array of the table before is taken");
        assert!(keys.iter().all(|&k| t.probe(k).0.is_none()));
        let (_, s) = t.probe(keys[7]);
        t.store(keys[7], s, entry(2));
        assert_eq!((t.len(), t.probe(keys[7]).0), (1, Some(entry(2))));
        drop(t);
        // A slot stored once, then tables enough for the stamps to come round to its own again.
        let mut t = Table::new(1 << 20);
        let (_, s) = t.probe(keys[0]);
        t.store(keys[0], s, entry(3));
        drop(t);
        // Stamps run 1..=255: the 255th table after it has its stamp.
        for _ in 0..u8::MAX - 1 {
            drop(Table::new(1 << 20));
        }
        let t = Table::new(1 << 20);
        assert_eq!(t.probe(keys[0]).0, None);
        assert_eq!(t.len(), 0);
    }
}
