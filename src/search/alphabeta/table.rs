//! Alpha-beta's transposition table: a map from a position's key to what a search of it found,
//! kept in one array probed in a line from the key's slot (the key is a hash already). It keeps
//! every key it is given, as a map does, until it is emptied at a limit, so that the search visits
//! the same nodes as with any other map; what it saves is the second probe of a node: the slot a
//! probe found is where the node's result is stored, unless the array grew or was emptied meanwhile.

/// What a value is of the position's true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Bound {
    Exact,
    Lower,
    Upper,
}

/// What a search of a position found (16 bytes, 24 with its key).
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

#[derive(Clone, Copy)]
struct Slot {
    /// [`EMPTY`] for an empty slot.
    key: u64,
    entry: Entry,
}

/// The key of an empty slot; a position whose key it is gets [`ZERO_KEY`] instead.
const EMPTY: u64 = 0;
const ZERO_KEY: u64 = 0x9e37_79b9_7f4a_7c15;

const BLANK: Slot = Slot {
    key: EMPTY,
    entry: Entry {
        value: 0,
        best: 0,
        depth: 0,
        bound: Bound::Exact,
    },
};

/// The table. It holds at most `limit` entries: a store beyond them empties it first.
pub(super) struct Table {
    slots: Vec<Slot>,
    len: usize,
    limit: usize,
    generation: u32,
}

impl Table {
    /// An empty table of at most `limit` entries (its array grows as they come).
    pub(super) fn new(limit: usize) -> Table {
        Table {
            slots: vec![BLANK; 1 << 12],
            len: 0,
            limit,
            generation: 0,
        }
    }

    /// Entries held.
    #[cfg(test)]
    pub(super) fn len(&self) -> usize {
        self.len
    }

    #[inline(always)]
    fn stored(key: u64) -> u64 {
        if key == EMPTY { ZERO_KEY } else { key }
    }

    /// The entry of `key`, with where a store of it goes.
    #[inline]
    pub(super) fn probe(&self, key: u64) -> (Option<Entry>, Spot) {
        let key = Self::stored(key);
        let mask = self.slots.len() - 1;
        let mut i = key as usize & mask;
        loop {
            let s = &self.slots[i];
            if s.key == key {
                return (Some(s.entry), self.spot(i));
            }
            if s.key == EMPTY {
                return (None, self.spot(i));
            }
            i = (i + 1) & mask;
        }
    }

    /// Asks the processor to bring `key`'s slot into the cache, so that a probe soon after does
    /// not wait for memory.
    #[inline(always)]
    pub(super) fn prefetch(&self, key: u64) {
        let slot = &self.slots[Self::stored(key) as usize & (self.slots.len() - 1)];
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
    #[inline]
    pub(super) fn store(&mut self, key: u64, spot: Spot, entry: Entry) {
        if self.len >= self.limit {
            self.slots.fill(BLANK);
            self.len = 0;
            self.generation = self.generation.wrapping_add(1);
        }
        let key = Self::stored(key);
        let mask = self.slots.len() - 1;
        // Slots are never emptied one by one, so the line from the key's slot to the probe's
        // end held neither the key nor an empty slot, and still does not.
        let mut i = if spot.generation == self.generation {
            spot.slot
        } else {
            key as usize & mask
        };
        loop {
            let s = &mut self.slots[i];
            if s.key == key {
                s.entry = entry;
                return;
            }
            if s.key == EMPTY {
                *s = Slot { key, entry };
                self.len += 1;
                if self.len * 4 > self.slots.len() * 3 {
                    self.grow();
                }
                return;
            }
            i = (i + 1) & mask;
        }
    }

    /// Twice the slots, every entry moved to its new place.
    #[cold]
    fn grow(&mut self) {
        let grown = vec![BLANK; self.slots.len() * 2];
        let old = std::mem::replace(&mut self.slots, grown);
        let mask = self.slots.len() - 1;
        for s in old.into_iter().filter(|s| s.key != EMPTY) {
            let mut i = s.key as usize & mask;
            while self.slots[i].key != EMPTY {
                i = (i + 1) & mask;
            }
            self.slots[i] = s;
        }
        self.generation = self.generation.wrapping_add(1);
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
}
