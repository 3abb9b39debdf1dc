//! [`Moves`]: a set of legal moves as bits, copied and tested without allocating.

/// A set of pit numbers (1 to 64), such as the legal moves of a position, in increasing order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Hash)]
pub struct Moves(u64);

impl Moves {
    /// No moves.
    pub const NONE: Moves = Moves(0);

    /// The set whose bit `k - 1` stands for pit `k`.
    pub(crate) fn from_bits(bits: u64) -> Moves {
        Moves(bits)
    }

    /// Adds pit `k` (1-based).
    pub fn insert(&mut self, k: usize) {
        debug_assert!((1..=64).contains(&k), "pit numbers run from 1 to 64");
        self.0 |= 1 << (k - 1);
    }

    /// Is pit `k` in the set?
    pub fn contains(self, k: usize) -> bool {
        (1..=64).contains(&k) && self.0 & (1 << (k - 1)) != 0
    }

    /// No move at all?
    pub fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// The pit numbers, smallest first.
    pub fn iter(self) -> impl Iterator<Item = usize> {
        let mut bits = self.0;
        std::iter::from_fn(move || {
            (bits != 0).then(|| {
                let k = bits.trailing_zeros() as usize + 1;
                bits &= bits - 1;
                k
            })
        })
    }

    /// The bits: bit `k - 1` stands for pit `k`.
    pub fn bits(self) -> u64 {
        self.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lists_the_pits_in_order_up_to_the_sixty_fourth() {
        let mut m = Moves::NONE;
        for k in [64, 1, 7, 3] {
            m.insert(k);
        }
        assert_eq!(m.iter().collect::<Vec<_>>(), [1, 3, 7, 64]);
        assert_eq!(m.bits(), 1 << 63 | 0b100_0101);
        assert!(m.contains(64) && !m.contains(2) && !m.contains(0) && !m.contains(65));
    }
}
