//! Packed boards of the fast form: one byte a cell, in one `u128` for boards of at most 16 cells
//! and in [`Wide`] (16-byte chunks) for larger ones, so that a sowing is a table look-up and an
//! addition whichever the width. No lane can overflow or borrow: a game has at most 255 seeds, and
//! what is taken from a board is never more than it holds, lane by lane, so adding or subtracting
//! whole numbers is adding or subtracting each lane.

use std::fmt::Debug;
use std::ops::{Add, BitAnd, BitOr, BitXor, Not, Sub};

/// A packed board: [`Lanes::LANES`] cells of one byte.
pub trait Lanes:
    Copy
    + Eq
    + Debug
    + Send
    + Sync
    + 'static
    + Add<Output = Self>
    + Sub<Output = Self>
    + BitAnd<Output = Self>
    + BitOr<Output = Self>
    + BitXor<Output = Self>
    + Not<Output = Self>
{
    /// Cells it holds (at most 64: the cell sets are `u64`s).
    const LANES: usize;
    /// Every lane 0.
    const ZERO: Self;
    /// Every lane's top bit.
    const TOPS: Self;

    /// The byte of cell `c` (`c < LANES`).
    fn lane(self, c: usize) -> u32;
    /// [`Lanes::lane`] read where the board lies (a wide board taken by value was copied whole to
    /// the stack first, 8 instructions at every relay move's set-up).
    #[inline(always)]
    fn lane_of(&self, c: usize) -> u32 {
        self.lane(c)
    }
    /// `n` in lane `c`, 0 elsewhere.
    fn at(c: usize, n: u8) -> Self;
    /// Bit `c` set for every cell `c` that holds seeds.
    fn filled(self) -> u64;
    /// Bit `c` set for every cell `c` that holds `lo..=hi` seeds.
    fn within(self, lo: u8, hi: u8) -> u64;
    /// Bit `c` set for every cell `c` that holds `n` seeds: [`Lanes::within`] of `n..=n`.
    #[inline(always)]
    fn holding(self, n: u8) -> u64 {
        self.within(n, n)
    }
    /// Bit `c` set for every cell `c` that holds an odd number of seeds.
    fn odd(self) -> u64;
    /// The sum of the lanes (at most 255).
    fn sum(self) -> u32;
    /// The sum of the lanes of `self & mine` less that of `self & theirs` (masks of 0xFF lanes): a
    /// search's evaluation of the two rows.
    #[inline(always)]
    fn sum_less(self, mine: Self, theirs: Self) -> i32 {
        (self & mine).sum() as i32 - (self & theirs).sum() as i32
    }
    /// 0xFF in the lanes of `cells` (bit `c` for cell `c`).
    fn spread(cells: u64) -> Self;
    /// Every lane times `k` (no product above 255).
    fn times(self, k: u32) -> Self;
    /// Lanes whose top bit is set.
    fn tops(self) -> u32;
    /// A few bits of the whole board, folded, for a filter (its callers multiply them).
    fn mixed(self) -> u64;
    /// The lanes `16 * i .. 16 * i + 16` (a block) as one number, lane `16 * i + j` in bits `8j..8j + 8`.
    fn block(self, i: usize) -> u128;
    /// [`Lanes::block`] read where the board lies (a wide board taken by value was copied whole
    /// first, 8 instructions, twice a Hus move in the playout loop).
    #[inline(always)]
    fn block_of(&self, i: usize) -> u128 {
        self.block(i)
    }
    /// The board with block `i` replaced by `v`.
    fn with_block(self, i: usize, v: u128) -> Self;
    /// Replaces block `i` by `v`, in place (by value, the whole board was copied twice).
    #[inline(always)]
    fn set_block(&mut self, i: usize, v: u128) {
        *self = self.with_block(i, v);
    }

    /// Empties lane `c`, returning what it held.
    fn take(&mut self, c: usize) -> u32;

    /// Writes lane `c` into `cells[c]` for every cell of `cells` (at most `LANES`).
    fn write_cells(self, cells: &mut [u32]);

    /// The board of `cells` (one count a lane, each at most 255).
    fn of_cells(cells: &[u32]) -> Self {
        cells.iter().enumerate().fold(Self::ZERO, |b, (c, &n)| b | Self::at(c, n as u8))
    }
    /// No seed in any lane.
    #[inline(always)]
    fn is_zero(self) -> bool {
        self == Self::ZERO
    }
}

/// Per eight bits, eight bytes: 0xFF where the bit is set.
const SPREAD: [u64; 256] = {
    let mut table = [0u64; 256];
    let mut bits = 0;
    while bits < 256 {
        let mut i = 0;
        while i < 8 {
            if bits >> i & 1 != 0 {
                table[bits] |= 0xFF << (8 * i);
            }
            i += 1;
        }
        bits += 1;
    }
    table
};

/// Bit `c` set for every byte `c` of `b` that is not zero.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn filled_16(b: u128) -> u32 {
    use safe_arch::{cmp_eq_mask_i8_m128i, m128i, move_mask_i8_m128i, zeroed_m128i};
    // A byte compare and a gather of the top bits (SSE2, part of every x86-64 processor).
    !(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(m128i::from(b), zeroed_m128i())) as u32) & 0xFFFF
}

/// Bit `c` set for every byte `c` of `b` that is not zero.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn filled_16(b: u128) -> u32 {
    const LOW7: u128 = 0x7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F_7F7F;
    // The top bit of each byte that is not zero (no carry crosses a byte: 0x7F + 0x7F < 0x100).
    let tops = (((b & LOW7) + LOW7) | b) & u128::TOPS;
    let gather = |half: u64| ((half >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    gather(tops as u64) | gather((tops >> 64) as u64) << 8
}

/// Bit `c` set for every byte `c` of `b` within `lo..=hi`.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn within_16(b: u128, lo: u8, hi: u8) -> u32 {
    use safe_arch::{bitand_m128i, cmp_eq_mask_i8_m128i, m128i, max_u8_m128i, min_u8_m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    let v = m128i::from(b);
    let at_least = cmp_eq_mask_i8_m128i(max_u8_m128i(v, set_splat_i8_m128i(lo as i8)), v);
    let at_most = cmp_eq_mask_i8_m128i(min_u8_m128i(v, set_splat_i8_m128i(hi as i8)), v);
    move_mask_i8_m128i(bitand_m128i(at_least, at_most)) as u32 & 0xFFFF
}

/// Bit `c` set for every byte `c` of `b` that is `n`: one compare where a range takes two and
/// their splats (a Hus move's candidates, `origin.count == 1`, 8 instructions less).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn holding_16(b: u128, n: u8) -> u32 {
    use safe_arch::{cmp_eq_mask_i8_m128i, m128i, move_mask_i8_m128i, set_splat_i8_m128i};
    move_mask_i8_m128i(cmp_eq_mask_i8_m128i(m128i::from(b), set_splat_i8_m128i(n as i8))) as u32 & 0xFFFF
}

/// Bit `c` set for every byte `c` of `b` that is `n`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn holding_16(b: u128, n: u8) -> u32 {
    within_16(b, n, n)
}

/// Bit `c` set for every byte `c` of `b` within `lo..=hi`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn within_16(b: u128, lo: u8, hi: u8) -> u32 {
    b.to_le_bytes()
        .iter()
        .enumerate()
        .filter(|(_, n)| (lo..=hi).contains(n))
        .fold(0, |cells, (c, _)| cells | 1 << c)
}

/// Bit `c` set for every byte `c` of `b` that is at least the byte `c` of `floor` (a block's
/// candidates above a count, [`crate::compile::shape::FastForm::open_floor`]): one maximum and one
/// compare, the floor spread over the lanes when the file is compiled.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
pub(crate) fn at_least_16(b: u128, floor: u128) -> u64 {
    use safe_arch::{cmp_eq_mask_i8_m128i, m128i, max_u8_m128i, move_mask_i8_m128i};
    let v = m128i::from(b);
    u64::from(move_mask_i8_m128i(cmp_eq_mask_i8_m128i(max_u8_m128i(v, m128i::from(floor)), v)) as u32 & 0xFFFF)
}

/// Bit `c` set for every byte `c` of `b` that is at least the byte `c` of `floor`.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
pub(crate) fn at_least_16(b: u128, floor: u128) -> u64 {
    let (b, floor) = (b.to_le_bytes(), floor.to_le_bytes());
    (0..16).filter(|&c| b[c] >= floor[c]).fold(0, |cells, c| cells | 1 << c)
}

/// Bit `c` set for every byte `c` of `b` that is odd.
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn odd_16(b: u128) -> u32 {
    use safe_arch::{m128i, move_mask_i8_m128i, shl_imm_u16_m128i};
    // Each byte's low bit moved to its top (a shift of the 16-bit lanes moves the low byte's into
    // bit 7 and the high byte's into bit 15; the bits shifted across bytes fall below the tops).
    move_mask_i8_m128i(shl_imm_u16_m128i::<7>(m128i::from(b))) as u32 & 0xFFFF
}

/// Bit `c` set for every byte `c` of `b` that is odd.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn odd_16(b: u128) -> u32 {
    const LOWS: u128 = 0x0101_0101_0101_0101_0101_0101_0101_0101;
    let gather = |half: u64| (half.wrapping_mul(0x0102_0408_1020_4080) >> 56) as u32;
    let lows = b & LOWS;
    gather(lows as u64) | gather((lows >> 64) as u64) << 8
}

/// The sum of the bytes (at most 255).
#[inline(always)]
fn sum_16(b: u128) -> u32 {
    let sum = |half: u64| (half.wrapping_mul(0x0101_0101_0101_0101) >> 56) as u32;
    sum(b as u64) + sum((b >> 64) as u64)
}

impl Lanes for u128 {
    const LANES: usize = 16;
    const ZERO: u128 = 0;
    const TOPS: u128 = 0x8080_8080_8080_8080_8080_8080_8080_8080;

    #[inline(always)]
    fn lane(self, c: usize) -> u32 {
        // The half that holds it, shifted: a shift of a 128-bit number by a variable amount takes a
        // dozen instructions, and a read through memory waits for the board to be stored first.
        let half = if c & 8 == 0 { self as u64 } else { (self >> 64) as u64 };
        (half >> (8 * (c & 7)) & 0xFF) as u32
    }
    #[inline(always)]
    fn at(c: usize, n: u8) -> u128 {
        u128::from(n) << (8 * (c & 15))
    }
    fn write_cells(self, cells: &mut [u32]) {
        // From the bytes in memory: a lane read from the number is a shift by a variable amount.
        for (n, &b) in cells.iter_mut().zip(self.to_le_bytes().iter()) {
            *n = b.into();
        }
    }
    #[inline(always)]
    fn take(&mut self, c: usize) -> u32 {
        let n = self.lane(c);
        *self &= !(0xFF << (8 * (c & 15)));
        n
    }
    #[inline(always)]
    fn filled(self) -> u64 {
        u64::from(filled_16(self))
    }
    #[inline(always)]
    fn within(self, lo: u8, hi: u8) -> u64 {
        u64::from(within_16(self, lo, hi))
    }
    #[inline(always)]
    fn holding(self, n: u8) -> u64 {
        u64::from(holding_16(self, n))
    }
    #[inline(always)]
    fn odd(self) -> u64 {
        u64::from(odd_16(self))
    }
    #[inline(always)]
    fn sum(self) -> u32 {
        sum_16(self)
    }
    #[inline(always)]
    fn spread(cells: u64) -> u128 {
        u128::from(SPREAD[(cells & 0xFF) as usize]) | u128::from(SPREAD[(cells >> 8 & 0xFF) as usize]) << 64
    }
    #[inline(always)]
    fn times(self, k: u32) -> u128 {
        self * u128::from(k)
    }
    #[inline(always)]
    fn tops(self) -> u32 {
        (self & Self::TOPS).count_ones()
    }
    #[inline(always)]
    fn mixed(self) -> u64 {
        (self as u64) ^ ((self >> 64) as u64).rotate_left(29)
    }
    #[inline(always)]
    fn block(self, _: usize) -> u128 {
        self
    }
    #[inline(always)]
    fn with_block(self, _: usize, v: u128) -> u128 {
        v
    }
}

/// A board of `16 * N` cells: `N` chunks of 16 bytes. Its arithmetic is written byte by byte,
/// which the compiler turns into one vector instruction a chunk (`paddb` and the like on x86-64),
/// and a lane is read as a byte: a board kept as `u128`s was added in pairs of general registers
/// and then read back as vectors through memory, a stall at every lap.
#[derive(Clone, Copy, Debug)]
#[repr(align(16))]
pub struct Wide<const N: usize>(pub [[u8; 16]; N]);

impl<const N: usize> Wide<N> {
    #[inline(always)]
    fn each(self, other: Self, f: impl Fn(u8, u8) -> u8) -> Self {
        let mut out = self;
        for (o, b) in out.0.iter_mut().zip(other.0) {
            for (o, b) in o.iter_mut().zip(b) {
                *o = f(*o, b);
            }
        }
        out
    }

    /// The counts, a byte a cell (cell `c` at `c`).
    #[inline(always)]
    pub fn bytes(&self) -> &[u8] {
        self.0.as_flattened()
    }

    /// The counts, a byte a cell, to change.
    #[inline(always)]
    pub fn bytes_mut(&mut self) -> &mut [u8] {
        self.0.as_flattened_mut()
    }

    /// Chunk `i` as a number (byte `c` of the chunk in bits `8c..8c + 8`).
    #[inline(always)]
    fn chunk(self, i: usize) -> u128 {
        u128::from_le_bytes(self.0[i])
    }
}

/// Compared without a branch a byte (the derived comparison of arrays calls `memcmp`, a fifth of
/// a playout's time when a lap's state is compared every lap).
impl<const N: usize> PartialEq for Wide<N> {
    #[inline(always)]
    fn eq(&self, other: &Self) -> bool {
        let mut differ = 0u8;
        for (a, b) in self.0.iter().zip(&other.0) {
            for (a, b) in a.iter().zip(b) {
                differ |= a ^ b;
            }
        }
        differ == 0
    }
}

impl<const N: usize> Eq for Wide<N> {}

macro_rules! wide_op {
    ($trait:ident, $method:ident, $f:expr) => {
        impl<const N: usize> $trait for Wide<N> {
            type Output = Self;
            #[inline(always)]
            fn $method(self, other: Self) -> Self {
                self.each(other, $f)
            }
        }
    };
}

// Lane by lane: no lane carries or borrows (see the module's doc), so these are the narrow
// board's whole-number operations.
wide_op!(Add, add, |a: u8, b: u8| a.wrapping_add(b));
wide_op!(Sub, sub, |a: u8, b: u8| a.wrapping_sub(b));
wide_op!(BitAnd, bitand, |a: u8, b: u8| a & b);
wide_op!(BitOr, bitor, |a: u8, b: u8| a | b);
wide_op!(BitXor, bitxor, |a: u8, b: u8| a ^ b);

impl<const N: usize> Not for Wide<N> {
    type Output = Self;
    #[inline(always)]
    fn not(self) -> Self {
        Wide(self.0.map(|c| c.map(|a| !a)))
    }
}

impl<const N: usize> Lanes for Wide<N> {
    const LANES: usize = 16 * N;
    const ZERO: Self = Wide([[0; 16]; N]);
    const TOPS: Self = Wide([[0x80; 16]; N]);

    #[inline(always)]
    fn lane(self, c: usize) -> u32 {
        u32::from(self.0[(c >> 4) % N][c & 15])
    }
    #[inline(always)]
    fn lane_of(&self, c: usize) -> u32 {
        u32::from(self.0[(c >> 4) % N][c & 15])
    }
    #[inline(always)]
    fn at(c: usize, n: u8) -> Self {
        let mut b = Self::ZERO;
        b.0[(c >> 4) % N][c & 15] = n;
        b
    }
    #[inline(always)]
    fn take(&mut self, c: usize) -> u32 {
        std::mem::take(&mut self.0[(c >> 4) % N][c & 15]).into()
    }
    fn write_cells(self, cells: &mut [u32]) {
        for (n, &b) in cells.iter_mut().zip(self.0.as_flattened()) {
            *n = b.into();
        }
    }
    #[inline(always)]
    fn filled(self) -> u64 {
        (0..N).fold(0, |cells, i| cells | u64::from(filled_16(self.chunk(i))) << (16 * i))
    }
    #[inline(always)]
    fn within(self, lo: u8, hi: u8) -> u64 {
        (0..N).fold(0, |cells, i| cells | u64::from(within_16(self.chunk(i), lo, hi)) << (16 * i))
    }
    #[inline(always)]
    fn odd(self) -> u64 {
        (0..N).fold(0, |cells, i| cells | u64::from(odd_16(self.chunk(i))) << (16 * i))
    }
    /// A chunk at a time, each masked chunk's bytes summed by the processor (`psadbw`): the
    /// masked boards and their chunks added as whole numbers were about 60 instructions of
    /// each evaluation of a search on four rows of eight.
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn sum_less(self, mine: Self, theirs: Self) -> i32 {
        use safe_arch::{add_i64_m128i, bitand_m128i, m128i, sub_i64_m128i, sum_of_u8_abs_diff_m128i, zeroed_m128i};
        let zero = zeroed_m128i();
        let mut less = zero;
        for i in 0..N {
            let x = m128i::from(self.chunk(i));
            let a = sum_of_u8_abs_diff_m128i(bitand_m128i(x, m128i::from(mine.chunk(i))), zero);
            let t = sum_of_u8_abs_diff_m128i(bitand_m128i(x, m128i::from(theirs.chunk(i))), zero);
            less = add_i64_m128i(less, sub_i64_m128i(a, t));
        }
        let [low, high]: [i64; 2] = less.into();
        (low + high) as i32
    }
    #[inline(always)]
    fn sum(self) -> u32 {
        // The chunks added first, as whole numbers: no lane of the total can pass 255 (the whole
        // board holds at most 255 seeds), so no lane carries into the next.
        sum_16((0..N).fold(0u128, |t, i| t.wrapping_add(self.chunk(i))))
    }
    #[inline(always)]
    fn spread(cells: u64) -> Self {
        Wide(std::array::from_fn(|i| u128::spread(cells >> (16 * i)).to_le_bytes()))
    }
    #[inline(always)]
    fn times(self, k: u32) -> Self {
        Wide(self.0.map(|c| c.map(|a| a.wrapping_mul(k as u8))))
    }
    #[inline(always)]
    fn tops(self) -> u32 {
        (0..N).map(|i| self.chunk(i).tops()).sum()
    }
    fn of_cells(cells: &[u32]) -> Self {
        // A whole chunk's 16 cells at a time, packed by the processor's vector operations (a cell at
        // a time was 13 instructions of every Hus move, the playouts' set-up).
        let mut b = Self::ZERO;
        for (chunk, cells) in b.0.iter_mut().zip(cells.chunks(16)) {
            match <&[u32; 16]>::try_from(cells) {
                Ok(whole) => *chunk = whole.map(|n| n as u8),
                Err(_) => {
                    for (lane, &n) in chunk.iter_mut().zip(cells) {
                        *lane = n as u8;
                    }
                }
            }
        }
        b
    }
    #[inline(always)]
    fn block(self, i: usize) -> u128 {
        self.chunk(i % N)
    }
    #[inline(always)]
    fn block_of(&self, i: usize) -> u128 {
        u128::from_le_bytes(self.0[i % N])
    }
    #[inline(always)]
    fn with_block(self, i: usize, v: u128) -> Self {
        let mut out = self;
        out.set_block(i, v);
        out
    }
    #[inline(always)]
    fn set_block(&mut self, i: usize, v: u128) {
        self.0[i % N] = v.to_le_bytes();
    }
    #[cfg(target_arch = "x86_64")]
    #[inline(always)]
    fn mixed(self) -> u64 {
        use safe_arch::{add_i32_m128i, m128i, mul_i16_horizontal_add_m128i, zeroed_m128i};
        // Each chunk's 16-bit lanes times odd weights of its own, the products summed in 32-bit
        // lanes (one `pmaddwd` and one add a chunk), then folded as a narrow board is: the chunks
        // folded one by one took 27 instructions of every Hus move, in the repetition list's key.
        // The callers multiply the result.
        let sum = (0..N).fold(zeroed_m128i(), |sum, i| {
            add_i32_m128i(
                sum,
                mul_i16_horizontal_add_m128i(m128i::from(self.chunk(i)), m128i::from(MIX[i % MIX.len()])),
            )
        });
        u128::from(sum).mixed()
    }
    #[cfg(not(target_arch = "x86_64"))]
    #[inline(always)]
    fn mixed(self) -> u64 {
        // The chunks folded without a multiply between them: the callers multiply the result.
        (0..N).fold(0u64, |h, i| h.rotate_left(17) ^ self.chunk(i).mixed())
    }
}

/// Per chunk of a wide board, eight odd 16-bit weights ([`Wide::mixed`]; a board has at most four
/// chunks).
#[cfg(target_arch = "x86_64")]
const MIX: [u128; 4] = [
    0x11C7_82E9_15B5_F277_9C09_6D97_07DB_C101,
    0xB7A5_5CA5_A189_64EF_3FB1_313B_D921_9C9F,
    0x5265_60F9_B4D9_D42F_B66D_324B_353D_F055,
    0x5819_14BF_4111_2383_CE91_2407_2519_EBE7,
];

#[cfg(test)]
mod tests {
    use super::*;

    /// Both widths answer alike for the same cells, across chunk boundaries too.
    #[test]
    fn narrow_and_wide_boards_agree() {
        let cells = [3u32, 0, 0, 1, 200, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 5];
        let (n, w) = (u128::of_cells(&cells), Wide::<2>::of_cells(&cells));
        assert_eq!(n.filled(), 0b1000_0000_0101_1001);
        assert_eq!((n.filled(), n.within(1, 7), n.sum()), (w.filled(), w.within(1, 7), w.sum()));
        assert_eq!(n.sum(), 216);
        // Issue 25: the lanes of one mask less those of another, within and across chunks.
        let (odd, even) = (Wide::<2>::spread(0x5555_5555), Wide::<2>::spread(0xAAAA_AAAA));
        assert_eq!(
            (n.sum_less(u128::spread(0x5555), u128::spread(0xAAAA)), w.sum_less(odd, even)),
            (210 - 6, 210 - 6)
        );
        let big = Wide::<4>::of_cells(&(0..64u32).map(|c| c % 7 + c / 16).collect::<Vec<_>>());
        let (low, high) = (Wide::<4>::spread(0x0000_FFFF_0000_FFFF), Wide::<4>::spread(0xFFFF_0000_FFFF_0000));
        assert_eq!(big.sum_less(low, high), (big & low).sum() as i32 - (big & high).sum() as i32);
        assert_eq!(big.sum_less(high, low), -big.sum_less(low, high));
        assert_ne!(big.sum_less(low, high), 0);
        assert_eq!((n.odd(), w.odd()), (0b1000_0000_0100_1001, 0b1000_0000_0100_1001));
        assert_eq!((n.holding(7), n.holding(200), n.holding(0)), (1 << 6, 1 << 4, !n.filled() & 0xFFFF));
        assert_eq!((w.holding(7), w.holding(1)), (1 << 6, 1 << 3));
        let mut wide = [0u32; 40];
        wide[17] = 4;
        wide[39] = 9;
        let b = Wide::<3>::of_cells(&wide);
        assert_eq!(b.filled(), 1 << 17 | 1 << 39);
        assert_eq!(b.within(5, 9), 1 << 39);
        assert_eq!(b.odd(), 1 << 39);
        assert_eq!((b.lane(17), b.lane(39), b.sum()), (4, 9, 13));
        assert_eq!(Wide::<3>::spread(1 << 39) & b, Wide::<3>::at(39, 9));
        assert_eq!((b + Wide::<3>::at(39, 1)).lane(39), 10);
        assert_eq!((b ^ Wide::<3>::TOPS).tops(), 48);
        assert_eq!(b.block(2), 9 << (8 * 7));
        assert_eq!(b.with_block(1, 5 << 8).lane(17), 5);
        assert_eq!(b.with_block(1, 0).sum(), 9);
        // A lane taken is emptied (the others kept); the cells written back are the lanes.
        let (mut n2, mut b2) = (n, b);
        assert_eq!((n2.take(4), n2.lane(4), n2.sum()), (200, 0, 16));
        assert_eq!((b2.take(39), b2.lane(39), b2.lane(17)), (9, 0, 4));
        let (mut narrow, mut back) = ([0u32; 16], [1u32; 40]);
        n.write_cells(&mut narrow);
        b.write_cells(&mut back);
        assert_eq!((narrow, back), (cells, wide));
    }

    /// The lanes at or above a floor, lane by lane.
    #[test]
    fn lanes_at_least_a_floor() {
        let b = u128::from_le_bytes([0, 1, 2, 3, 200, 255, 7, 1, 0, 9, 2, 2, 3, 1, 0, 128]);
        for n in [1u8, 2, 3, 8, 129, 255] {
            let want = b
                .to_le_bytes()
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x >= n)
                .fold(0, |cells, (c, _)| cells | 1 << c);
            assert_eq!(at_least_16(b, u128::from_le_bytes([n; 16])), want, "floor {n}");
        }
        assert_eq!(at_least_16(b, u128::from_le_bytes([1; 16])), b.filled());
    }

    /// A wide board's mix tells apart the boards of one pit of a few seeds, wherever the pit is.
    #[test]
    fn wide_mixes_tell_single_pits_apart() {
        let mut seen = std::collections::HashSet::new();
        assert!(seen.insert(Wide::<4>::ZERO.mixed()));
        for c in 0..64 {
            for n in 1..4 {
                assert!(seen.insert(Wide::<4>::at(c, n).mixed()), "cell {c}, {n} seeds");
            }
        }
    }
}
