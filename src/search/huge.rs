//! Large tables of atomics that the searches read at random: in an anonymous mapping advised to
//! huge pages, since with 4 KiB pages each random read waits for the address translation as much
//! as for the memory (perf: three quarters of the exact solver's time at its table's probes, and
//! the endgame walk stalled at its prefetches).

use std::marker::PhantomData;
use std::sync::atomic::{AtomicI8, AtomicU16, AtomicU32, AtomicU64};

/// Atomics whose every byte zero is a valid value (the mapping starts zeroed).
///
/// # Safety
/// Only for types whose all-zero bit pattern is a valid value, with no destructor.
pub(crate) unsafe trait ZeroValid: Sync {}

// SAFETY: an atomic integer of zero bytes is the integer 0; arrays of them likewise.
unsafe impl ZeroValid for AtomicI8 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU16 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU32 {}
// SAFETY: as above.
unsafe impl ZeroValid for AtomicU64 {}
// SAFETY: as above.
unsafe impl ZeroValid for [AtomicU64; 2] {}

/// `len` zeroed atomics of type `T` in memory of their own, read as a slice.
pub(crate) struct Huge<T> {
    memory: memmap2::MmapMut,
    len: usize,
    kind: PhantomData<T>,
}

impl<T: ZeroValid> Huge<T> {
    pub(crate) fn zeroed(len: usize) -> std::io::Result<Huge<T>> {
        let bytes = len.checked_mul(size_of::<T>()).ok_or(std::io::ErrorKind::OutOfMemory)?;
        // A mapping of no bytes is refused; one spare byte costs nothing.
        let memory = memmap2::MmapMut::map_anon(bytes.max(1))?;
        // Only advice: without huge pages the table works the same, more slowly.
        #[cfg(target_os = "linux")]
        let _ = memory.advise(memmap2::Advice::HugePage);
        Ok(Huge {
            memory,
            len,
            kind: PhantomData,
        })
    }
}

impl<T: ZeroValid> std::ops::Deref for Huge<T> {
    type Target = [T];

    #[inline(always)]
    fn deref(&self) -> &[T] {
        // SAFETY: the mapping is page-aligned (more than any atomic needs), holds `len` values of
        // `T`, started zeroed (valid for `T`), lives as long as `self`, and is only ever reached
        // through this shared slice of atomics.
        unsafe { std::slice::from_raw_parts(self.memory.as_ptr().cast::<T>(), self.len) }
    }
}
