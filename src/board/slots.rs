//! [`Slots`]: a short list kept inside its owner up to [`INLINE`] items, on the heap only beyond, so
//! that copying a position of a usual board costs one small `memcpy` and no allocation.

use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};

/// Items kept inline: both rows and stores of a board of up to 7 pits a side.
pub const INLINE: usize = 16;

/// A list of `Copy` values, inline up to `N` items (16 unless said); it reads and writes as a slice.
pub struct Slots<T: Copy + Default, const N: usize = INLINE> {
    len: u32,
    inline: [T; N],
    /// Every item when there are more than `N`; empty (no allocation) otherwise.
    heap: Vec<T>,
}

impl<T: Copy + Default, const N: usize> Slots<T, N> {
    /// An empty list.
    pub fn new() -> Self {
        Slots {
            len: 0,
            inline: [T::default(); N],
            heap: Vec::new(),
        }
    }

    /// `n` copies of `value`.
    pub fn from_elem(value: T, n: usize) -> Self {
        let mut s = Self::new();
        if n <= N {
            s.inline[..n].fill(value);
        } else {
            s.heap = vec![value; n];
        }
        s.len = n as u32;
        s
    }

    /// A copy of `items`.
    pub fn from_slice(items: &[T]) -> Self {
        let mut s = Self::new();
        if items.len() <= N {
            s.inline[..items.len()].copy_from_slice(items);
        } else {
            s.heap = items.to_vec();
        }
        s.len = items.len() as u32;
        s
    }

    /// The whole inline array when every item is kept inline (items past the length read as whatever
    /// was last there): for work over a fixed number of items that the compiler can unroll.
    #[inline]
    pub fn inline_all(&self) -> Option<&[T; N]> {
        (self.len as usize <= N).then_some(&self.inline)
    }

    /// Adds an item at the end.
    pub fn push(&mut self, item: T) {
        let n = self.len as usize;
        if n < N {
            self.inline[n] = item;
        } else {
            if n == N {
                self.heap = self.inline.to_vec();
            }
            self.heap.push(item);
        }
        self.len += 1;
    }

    /// Removes every item (keeping any heap space).
    pub fn clear(&mut self) {
        self.len = 0;
        self.heap.clear();
    }

    /// Makes `self` a copy of `items`, reusing its heap space.
    pub fn assign(&mut self, items: &[T]) {
        self.len = items.len() as u32;
        self.heap.clear();
        if items.len() <= N {
            self.inline[..items.len()].copy_from_slice(items);
        } else {
            self.heap.extend_from_slice(items);
        }
    }

    /// Makes `self` a copy of `other`, reusing its heap space.
    pub fn copy_from(&mut self, other: &Self) {
        self.len = other.len;
        if other.len as usize <= N {
            self.inline = other.inline;
            self.heap.clear();
        } else {
            self.heap.clear();
            self.heap.extend_from_slice(&other.heap);
        }
    }
}

impl<T: Copy + Default, const N: usize> Clone for Slots<T, N> {
    #[inline]
    fn clone(&self) -> Self {
        Slots {
            len: self.len,
            inline: self.inline,
            heap: if self.len as usize <= N { Vec::new() } else { self.heap.clone() },
        }
    }

    fn clone_from(&mut self, other: &Self) {
        self.copy_from(other);
    }
}

impl<T: Copy + Default, const N: usize> Default for Slots<T, N> {
    fn default() -> Self {
        Self::new()
    }
}

impl<T: Copy + Default, const N: usize> Deref for Slots<T, N> {
    type Target = [T];
    #[inline]
    fn deref(&self) -> &[T] {
        let n = self.len as usize;
        if n <= N { &self.inline[..n] } else { &self.heap }
    }
}

impl<T: Copy + Default, const N: usize> DerefMut for Slots<T, N> {
    #[inline]
    fn deref_mut(&mut self) -> &mut [T] {
        let n = self.len as usize;
        if n <= N { &mut self.inline[..n] } else { &mut self.heap }
    }
}

impl<T: Copy + Default, const N: usize> From<Vec<T>> for Slots<T, N> {
    fn from(v: Vec<T>) -> Self {
        if v.len() <= N {
            Self::from_slice(&v)
        } else {
            Slots {
                len: v.len() as u32,
                inline: [T::default(); N],
                heap: v,
            }
        }
    }
}

impl<T: Copy + Default, const N: usize> From<&[T]> for Slots<T, N> {
    fn from(v: &[T]) -> Self {
        Self::from_slice(v)
    }
}

impl<'a, T: Copy + Default, const N: usize> IntoIterator for &'a Slots<T, N> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq for Slots<T, N> {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Eq, const N: usize> Eq for Slots<T, N> {}

impl<T: Copy + Default + PartialEq, const N: usize> PartialEq<Vec<T>> for Slots<T, N> {
    fn eq(&self, other: &Vec<T>) -> bool {
        **self == **other
    }
}

impl<T: Copy + Default + Hash, const N: usize> Hash for Slots<T, N> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        (**self).hash(state)
    }
}

impl<T: Copy + Default + fmt::Debug, const N: usize> fmt::Debug for Slots<T, N> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stays_inline_up_to_the_limit_and_spills_beyond() {
        let mut s: Slots<u32> = Slots::new();
        for i in 0..INLINE as u32 + 3 {
            s.push(i);
            assert_eq!(s.len(), i as usize + 1);
            assert_eq!(s[i as usize], i);
        }
        assert_eq!(s.iter().copied().sum::<u32>(), (0..INLINE as u32 + 3).sum::<u32>());
        let c = s.clone();
        assert_eq!(c, s);
        s.clear();
        assert!(s.is_empty());
        s.copy_from(&c);
        assert_eq!(s, c);
    }

    #[test]
    fn a_vec_round_trips() {
        for n in [0, 1, INLINE, INLINE + 1, 40] {
            let v: Vec<u32> = (0..n as u32).collect();
            let s: Slots<u32> = Slots::from(v.clone());
            assert_eq!(s.to_vec(), v);
            assert_eq!(Slots::<u32>::from_elem(7u32, n).iter().filter(|&&x| x == 7).count(), n);
        }
    }
}
