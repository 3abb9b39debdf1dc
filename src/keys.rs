//! Tables keyed by numbers that are hashes already (a position's identity, a landing's quick hash):
//! one mix that carries every input bit into every output bit, so that the low bits a table's
//! buckets are chosen by are used evenly, at a tenth of SipHash's cost. These keys come from the
//! game's own positions, never from an adversary choosing them.

use std::collections::HashMap;
use std::hash::{BuildHasherDefault, Hasher};

/// The finaliser of SplitMix64.
#[inline]
pub(crate) fn mix(mut x: u64) -> u64 {
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// The hasher of a [`KeyMap`]: the key mixed once.
#[derive(Default, Clone, Copy)]
pub(crate) struct Mixed(u64);

impl Hasher for Mixed {
    fn finish(&self) -> u64 {
        mix(self.0)
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 = self.0.rotate_left(8) ^ u64::from(b);
        }
    }

    fn write_u64(&mut self, x: u64) {
        self.0 = x;
    }
}

/// A map whose `u64` keys are hashes already.
pub(crate) type KeyMap<V> = HashMap<u64, V, BuildHasherDefault<Mixed>>;
