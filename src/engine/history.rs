//! [`History`]: the identities of the positions of a round, for the repetition rule.

/// The identities ([`crate::Game::hash`]) of the positions of the current round so far, the current
/// one last. Beside the list, a 512-bit filter has one bit set per identity (chosen by its top nine
/// bits): an identity whose bit is clear was never seen, which answers most look-ups after a move
/// without reading the list (a scan whose length changes from move to move also costs a
/// mispredicted branch at its end).
#[derive(Debug, Default, PartialEq, Eq)]
pub struct History {
    hashes: Vec<u64>,
    /// 512 bits as eight words (a shift of a wider number by a variable amount costs a dozen
    /// instructions, of a 64-bit one a single one).
    filter: [u64; 8],
}

/// Written out for `clone_from`, which keeps the list's allocation.
impl Clone for History {
    fn clone(&self) -> Self {
        History {
            hashes: self.hashes.clone(),
            filter: self.filter,
        }
    }

    fn clone_from(&mut self, source: &Self) {
        self.hashes.clone_from(&source.hashes);
        self.filter = source.filter;
    }
}

impl History {
    /// No position yet.
    pub fn new() -> Self {
        Self::default()
    }

    #[inline]
    fn word(hash: u64) -> usize {
        (hash >> 61) as usize
    }

    #[inline]
    fn bit(hash: u64) -> u64 {
        1 << (hash >> 55 & 63)
    }

    /// Adds the identity of the position reached.
    #[inline]
    pub fn push(&mut self, hash: u64) {
        self.filter[Self::word(hash)] |= Self::bit(hash);
        self.hashes.push(hash);
    }

    /// Makes room for `more` identities without reallocating.
    pub fn reserve(&mut self, more: usize) {
        self.hashes.reserve(more);
    }

    /// Forgets every position.
    #[inline]
    pub fn clear(&mut self) {
        self.hashes.clear();
        self.filter = [0; 8];
    }

    /// Replaces the identity of the current position, the last: a pass at the start of a turn
    /// changes who is to move in the position play goes on from. Rare, so the filter is rebuilt.
    pub fn replace_last(&mut self, hash: u64) {
        self.hashes.pop();
        self.filter = [0; 8];
        for &h in &self.hashes {
            self.filter[Self::word(h)] |= Self::bit(h);
        }
        self.push(hash);
    }

    /// Was a position with this identity seen?
    #[inline]
    pub fn contains(&self, hash: u64) -> bool {
        self.filter[Self::word(hash)] & Self::bit(hash) != 0 && self.hashes.contains(&hash)
    }

    /// The identity of the current position, if kept.
    #[inline]
    pub fn last(&self) -> Option<u64> {
        self.hashes.last().copied()
    }

    /// The identities, oldest first.
    pub fn as_slice(&self) -> &[u64] {
        &self.hashes
    }

    /// How many positions are kept.
    pub fn len(&self) -> usize {
        self.hashes.len()
    }

    /// No position kept?
    pub fn is_empty(&self) -> bool {
        self.hashes.is_empty()
    }
}

impl From<Vec<u64>> for History {
    fn from(hashes: Vec<u64>) -> Self {
        let mut filter = [0; 8];
        for &h in &hashes {
            filter[Self::word(h)] |= Self::bit(h);
        }
        History { hashes, filter }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn finds_exactly_the_identities_pushed_since_the_last_clear() {
        let mut h = History::new();
        // Identities whose filter bits collide (same top seven bits) and differ.
        let same_bit = [0x0123_4567_89ab_cdef, 0x0123_0000_0000_0001];
        let other = 0xfedc_ba98_7654_3210;
        h.push(same_bit[0]);
        assert!(h.contains(same_bit[0]));
        assert!(!h.contains(same_bit[1]), "a shared filter bit still needs the identity itself");
        assert!(!h.contains(other));
        h.push(other);
        assert_eq!(h.last(), Some(other));
        assert_eq!(h.len(), 2);
        h.clear();
        assert!(h.is_empty() && !h.contains(other) && h.last().is_none());
        assert_eq!(History::from(vec![other, same_bit[1]]).as_slice(), [other, same_bit[1]]);
        assert!(History::from(vec![other]).contains(other));
    }
}
