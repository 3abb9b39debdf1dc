//! The solver's transposition table: bounds on values kept under 64-bit keys in buckets of two,
//! shared by the threads without locks, in memory whose part in use grows as the table fills.

use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};

use super::ENTRY_BYTES;

/// A table entry's data: bounds on the value, the move that set them (its place in the list of
/// legal moves) and the work it cost (log2 of the nodes below it), which decides what is replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Data {
    pub(super) lower: i16,
    pub(super) upper: i16,
    pub(super) best: u8,
    pub(super) work: u8,
}

impl Data {
    fn pack(self) -> u64 {
        u64::from(self.lower as u16) | u64::from(self.upper as u16) << 16 | u64::from(self.best) << 32 | u64::from(self.work) << 40
    }

    fn unpack(x: u64) -> Data {
        Data {
            lower: x as u16 as i16,
            upper: (x >> 16) as u16 as i16,
            best: (x >> 32) as u8,
            work: (x >> 40) as u8,
        }
    }
}

/// Buckets of two entries, each (key ^ data, data), in memory of their own: an anonymous mapping
/// the kernel is asked to back with huge pages, since every probe lands on a page of its own and,
/// with 4 KiB pages, waited for the address translation as much as for the memory (perf, Kalah 5x3:
/// three quarters of a node's time at the probes and their prefetches).
///
/// **The part in use grows as it fills.** Keys spread over the whole mapping would touch every page
/// of it at once, and the kernel zeroes each page touched: a board that needs a few hundred thousand
/// entries made it zero the whole default table (4 GiB), 0.2 to 10 s of system time against 0.1 s of
/// search (perf: 93% in `clear_page_erms`; the time varies with the machine's state, not the threads).
/// Keys are read under `mask`, which starts at [`FIRST_SLOTS`] and doubles whenever a quarter of the
/// slots in use are filled (at half, collisions cost Kalah 4x4 7% more nodes, at a quarter 2%), so
/// the memory touched follows the entries kept; the entries whose bucket moved are moved with it
/// ([`Table::spread`]).
pub(super) struct Table {
    slots: crate::search::huge::Huge<[AtomicU64; 2]>,
    /// The slots in use, less one (a power of two less one).
    mask: AtomicUsize,
    /// The slots of the whole mapping, less one.
    most: usize,
    /// Slots filled, counted as they are (counting them at the end would read every page of the
    /// table, and make the kernel provide them all).
    pub(super) filled: AtomicU64,
}

/// Slots in use at first (1 MiB).
const FIRST_SLOTS: usize = 1 << 16;

/// Fills a searcher counts before it adds them to [`Table::filled`] and looks at the mask.
pub(super) const FILLS_BETWEEN_LOOKS: u64 = 1 << 10;

impl Table {
    pub(super) fn new(bytes: u64) -> std::io::Result<Table> {
        let n = (bytes / ENTRY_BYTES).max(2).next_power_of_two() / 2;
        Ok(Table {
            slots: crate::search::huge::Huge::zeroed(n as usize)?,
            mask: AtomicUsize::new(FIRST_SLOTS.min(n as usize) - 1),
            most: n as usize - 1,
            filled: AtomicU64::new(0),
        })
    }

    /// Counts `fills` more slots filled, and doubles the slots in use while a quarter of them are.
    pub(super) fn count_fills(&self, fills: u64) {
        let filled = self.filled.fetch_add(fills, Ordering::Relaxed) + fills;
        let wanted = usize::try_from(filled.saturating_mul(4)).unwrap_or(usize::MAX);
        loop {
            let mask = self.mask.load(Ordering::Relaxed);
            if mask >= self.most || wanted <= mask {
                return;
            }
            // One thread doubles the slots and moves the entries; the others search on meanwhile,
            // missing the entries not yet moved.
            if self
                .mask
                .compare_exchange(mask, 2 * mask + 1, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
            {
                self.spread(mask);
            }
        }
    }

    /// Moves each entry of the slots `0..=mask` whose bucket is now in the upper half (after the
    /// slots in use doubled from `mask + 1`) to the same place there, if that place is empty: left
    /// where they were, entries are lost at each doubling (Kalah 5x3: a fifth more nodes).
    /// Threads that store meanwhile can make a move fail or lose an entry, never give a key another
    /// key's data: an entry read torn moves under a key no position has.
    fn spread(&self, mask: usize) {
        let slots = self.slots();
        for (b, [k, d]) in slots[..=mask].iter().enumerate() {
            let data = d.load(Ordering::Relaxed);
            if data == 0 {
                continue;
            }
            let h = k.load(Ordering::Relaxed) ^ data;
            let to = ((h as usize) & (2 * mask + 1) & !1) | (b & 1);
            if to == b || slots[to][1].load(Ordering::Relaxed) != 0 {
                continue;
            }
            slots[to][0].store(h ^ data, Ordering::Relaxed);
            slots[to][1].store(data, Ordering::Relaxed);
            // Emptied only if no thread has stored there meanwhile (a slot whose data is 0 is empty).
            let _ = d.compare_exchange(data, 0, Ordering::Relaxed, Ordering::Relaxed);
        }
    }

    #[inline(always)]
    fn slots(&self) -> &[[AtomicU64; 2]] {
        &self.slots
    }

    fn bucket(&self, h: u64) -> usize {
        (h as usize) & self.mask.load(Ordering::Relaxed) & !1
    }

    pub(super) fn probe(&self, h: u64) -> Option<Data> {
        let b = self.bucket(h);
        self.slots()[b..b + 2].iter().find_map(|[k, d]| {
            let d = d.load(Ordering::Relaxed);
            (k.load(Ordering::Relaxed) ^ d == h && d != 0).then(|| Data::unpack(d))
        })
    }

    /// Keeps `data` for `h`; true when it took an empty slot (what [`Table::filled`] counts).
    pub(super) fn store(&self, h: u64, data: Data) -> bool {
        let b = self.bucket(h);
        let pair = &self.slots()[b..b + 2];
        let read = |i: usize| {
            let d = pair[i][1].load(Ordering::Relaxed);
            (pair[i][0].load(Ordering::Relaxed) ^ d, d)
        };
        let (k0, d0) = read(0);
        let (k1, d1) = read(1);
        // The same position, else the entry that cost less.
        let i = if k0 == h {
            0
        } else if k1 == h || Data::unpack(d1).work < Data::unpack(d0).work {
            1
        } else {
            0
        };
        let d = data.pack();
        pair[i][0].store(h ^ d, Ordering::Relaxed);
        pair[i][1].store(d, Ordering::Relaxed);
        [d0, d1][i] == 0
    }

    /// Asks the processor to bring `h`'s bucket into the cache, so that a probe soon after does not
    /// wait for memory.
    #[inline]
    pub(super) fn prefetch(&self, h: u64) {
        #[cfg(target_arch = "x86_64")]
        safe_arch::prefetch_t0(&self.slots()[self.bucket(h)]);
        #[cfg(not(target_arch = "x86_64"))]
        let _ = h;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::keys::mix;

    /// Bytes of the table's mapping the process holds in memory: the `Rss` of the area of
    /// `/proc/self/smaps` that holds it (an area may hold a neighbouring mapping too).
    #[cfg(target_os = "linux")]
    fn resident(table: &Table) -> u64 {
        let at = table.slots.as_ptr() as usize;
        let smaps = std::fs::read_to_string("/proc/self/smaps").expect("linux has smaps");
        let holds = |l: &str| {
            let range = l.split(' ').next().unwrap_or("");
            let mut ends = range.split('-').map(|x| usize::from_str_radix(x, 16));
            matches!((ends.next(), ends.next()), (Some(Ok(a)), Some(Ok(b))) if a <= at && at < b)
        };
        let mut lines = smaps.lines().skip_while(|l| !holds(l));
        lines.next().expect("the table's mapping is listed");
        let rss = lines.find_map(|l| l.strip_prefix("Rss:")).expect("a mapping has its Rss");
        rss.trim().trim_end_matches("kB").trim().parse::<u64>().expect("kB") << 10
    }

    /// Issue 25: `solve` of a board needing 1e5 entries made the kernel zero the whole default
    /// table (gigabytes) as the keys touched every page of it.
    #[cfg(target_os = "linux")]
    #[test]
    fn a_table_holds_in_memory_about_what_it_keeps_not_its_whole_size() {
        // A mapping of 512 MiB (a table takes the power of two at or below half the bytes given).
        let table = Table::new(1 << 30).expect("512 MiB of address space");
        let data = Data {
            lower: -3,
            upper: 5,
            best: 1,
            work: 9,
        };
        let (mut fills, mut pending) = (0u64, 0u64);
        for i in 1..=100_000u64 {
            if table.store(mix(i), data) {
                fills += 1;
                pending += 1;
                if pending == FILLS_BETWEEN_LOOKS {
                    table.count_fills(std::mem::take(&mut pending));
                }
            }
        }
        table.count_fills(pending);
        assert_eq!(table.filled.load(Ordering::Relaxed), fills);
        // 1e5 entries are 1.6 MB: with the slots in use at most eight times the entries (and whole
        // huge pages), well below 64 MiB; keys over the whole mapping held all 512 MiB of it.
        let held = resident(&table);
        assert!(held < 64 << 20, "{} MiB held for {fills} entries", held >> 20);
        let in_use = table.mask.load(Ordering::Relaxed) as u64 + 1;
        assert!(
            in_use > 2 * fills && in_use <= 8 * fills,
            "{in_use} slots in use for {fills} entries"
        );
        // Entries move with their buckets as the slots in use double: only those a later key pushed
        // out of a full bucket are lost.
        let found = (1..=100_000u64).filter(|&i| table.probe(mix(i)) == Some(data)).count() as u64;
        assert!(found * 100 >= fills * 98, "{found} of {fills} entries found again");
    }
}
