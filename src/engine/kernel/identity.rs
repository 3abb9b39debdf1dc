//! A packed position's identity, as the general engine's `Game::hash` gives it: what the repetition
//! rule compares with the positions before a playout or a search.

use super::Board;
use crate::compile::shape::FastForm;
use crate::engine::{Game, Player};

/// Per digit `j` of the first `D`, the sum over the first `blocks` blocks of cells (`block(i)`, a
/// byte a cell) of each cell's seeds times its weight's digit `j` (`digits[j][c]`): two products
/// of a 16-bit seed count and digit added in one 32-bit lane, eight products an instruction
/// (`pmaddwd`, SSE2).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn key_sums<const L: usize, const D: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; D] {
    use safe_arch::{add_i32_m128i, m128i, mul_i16_horizontal_add_m128i, unpack_high_i8_m128i, unpack_low_i8_m128i, zeroed_m128i};
    let eight = |d: &[i16]| m128i::from(<[i16; 8]>::try_from(d).expect("eight digits"));
    let mut acc = [zeroed_m128i(); D];
    for i in 0..blocks {
        let x = m128i::from(block(i));
        let (low, high) = (unpack_low_i8_m128i(x, zeroed_m128i()), unpack_high_i8_m128i(x, zeroed_m128i()));
        for (a, d) in acc.iter_mut().zip(digits) {
            let d = &d[16 * i..16 * i + 16];
            let products = add_i32_m128i(
                mul_i16_horizontal_add_m128i(low, eight(&d[..8])),
                mul_i16_horizontal_add_m128i(high, eight(&d[8..])),
            );
            *a = add_i32_m128i(*a, products);
        }
    }
    acc.map(|a| <[i32; 4]>::from(a).iter().sum())
}

/// [`key_sums`] a cell at a time, where the processor has no SSE2.
#[cfg(not(target_arch = "x86_64"))]
#[inline(always)]
fn key_sums<const L: usize, const D: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; D] {
    let mut sums = [0i32; D];
    for i in 0..blocks {
        let bytes = block(i).to_le_bytes();
        for (sum, d) in sums.iter_mut().zip(digits) {
            *sum += bytes
                .iter()
                .zip(&d[16 * i..16 * i + 16])
                .map(|(&n, &d)| i32::from(n) * i32::from(d))
                .sum::<i32>();
        }
    }
    sums
}

impl<B: Board, const L: usize> FastForm<B, L> {
    /// The position's identity (`Game::hash`) for a game with no claims or memory, whose closed
    /// pits are the tables' own. Out of line: asked only while the positions before a playout
    /// may come back.
    #[inline(never)]
    pub(super) fn identity(&self, b: B, to_move: Player) -> u64 {
        // Sixteen bytes a block, times each 16-bit digit of their cells' weights (none past the
        // stores), summed in 32 bits (at most 64 x 255 x 2^15 < 2^31). A lane read by a shift of
        // its own and a 64-bit multiply each was about 300 instructions a call on 14 cells, 290
        // on 34, at a search's every move made while the positions before it may come back.
        let sums: [i32; 4] = key_sums(&self.key_digits, |i| b.block(i), self.key_blocks());
        let h = Game::turn_key(to_move).wrapping_add(self.closed_key);
        sums.iter()
            .enumerate()
            .fold(h, |h, (j, &s)| h.wrapping_add((i64::from(s) as u64) << (16 * j)))
    }

    /// The low 16 bits of the position's identity ([`FastForm::identity`]), from the weights' low
    /// digits alone (the digits above add multiples of 2^16): a quarter of the products. A search
    /// asks it first of a position that may be one of those before it ([`LowBits`]).
    #[inline(always)]
    pub(super) fn identity_low(&self, b: B, to_move: Player) -> u16 {
        self.identity_low_in(b, to_move, self.key_blocks())
    }

    /// [`FastForm::identity_low`] of the first `blocks` blocks of cells alone.
    #[inline(always)]
    pub(super) fn identity_low_in(&self, b: B, to_move: Player, blocks: usize) -> u16 {
        let [low]: [i32; 1] = key_sums(&self.key_digits, |i| b.block(i), blocks);
        (Game::turn_key(to_move).wrapping_add(self.closed_key) as u16).wrapping_add(low as u16)
    }

    /// The blocks of cells that hold pits: the weighed blocks past them hold the stores alone.
    #[inline(always)]
    pub(super) fn pit_blocks(&self) -> usize {
        self.pits.div_ceil(16).min(self.key_blocks())
    }

    /// What the blocks past [`FastForm::pit_blocks`] (the stores alone) add to
    /// [`FastForm::identity_low`]: the same for every board with `b`'s stores, so that a search
    /// whose positions before it all hold its start's stores weighs the pits' blocks alone (four
    /// rows of eight: 32 pits and two stores, two blocks of three).
    pub(super) fn identity_low_past_pits(&self, b: B) -> u16 {
        let p = Player::South;
        self.identity_low(b, p).wrapping_sub(self.identity_low_in(b, p, self.pit_blocks()))
    }

    /// The blocks of cells that hold the weighed cells (none past the stores).
    #[inline(always)]
    fn key_blocks(&self) -> usize {
        (self.pits + 2).div_ceil(16).min(L / 16)
    }
}

/// The low bits of a set of identities (bit `i` set for an identity whose low 16 bits, less the top
/// two, are `i`): a position whose [`FastForm::identity_low`] has its bit clear is not in the set,
/// so the whole identity is worked out only for the few that may be.
#[derive(Debug, Clone, Default)]
pub(crate) struct LowBits(Vec<u64>);

impl LowBits {
    /// The bits of the identities `ids` (none when there are none).
    pub(crate) fn of(ids: &[u64]) -> LowBits {
        if ids.is_empty() {
            return LowBits::default();
        }
        let mut bits = vec![0u64; 1 << 8];
        for &id in ids {
            let i = Self::index(id as u16);
            bits[i >> 6] |= 1 << (i & 63);
        }
        LowBits(bits)
    }

    /// The bit of the low 16 bits `low` of an identity.
    #[inline(always)]
    fn index(low: u16) -> usize {
        usize::from(low) & ((1 << 14) - 1)
    }

    /// May an identity whose low 16 bits are `low` be in the set?
    #[inline(always)]
    pub(crate) fn may_hold(&self, low: u16) -> bool {
        let i = Self::index(low);
        self.0.get(i >> 6).is_some_and(|w| w >> (i & 63) & 1 != 0)
    }
}

#[cfg(test)]
mod tests {
    use crate::compile::shape::{Fast, Lanes};

    /// A packed position's identity is the general engine's (`Game::hash`) on boards of both
    /// widths, the cells of the last block and of blocks past the first included: the repetition
    /// rule compares them with the identities of the positions before a search or a playout.
    #[test]
    fn a_packed_identity_is_the_position_hash() {
        use rand::SeedableRng;
        let texts = [
            // Six pits a side and two stores: 14 cells of one block.
            "game \"narrow\" board { pits 6 seeds 4 stores captures } first south sow { direction ccw }
             end \"stuck\" when no_moves remaining owner",
            // Four rows of nine and two stores: 38 cells, the stores in the third block.
            "game \"wide\" board { rows 2 pits 9 seeds 2 stores captures } first south
             sow { direction ccw track own }
             end \"stuck\" when no_moves loser to_move",
        ];
        for text in texts {
            let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), text, &[]) else {
                panic!("the invented game checks:\n{text}");
            };
            let game = loaded.game;
            let mut rng = rand::rngs::StdRng::seed_from_u64(3);
            let mut seen = 0;
            for _ in 0..20 {
                let mut pos = game.initial(None);
                while !pos.over && pos.ply < 60 {
                    let (id, low) = match game.fast.as_deref() {
                        Some(Fast::Narrow(ff)) => {
                            let b = u128::of_cells(&pos.board.cells);
                            (ff.identity(b, pos.to_move), ff.identity_low(b, pos.to_move))
                        }
                        Some(Fast::Wide(ff)) => {
                            let b = crate::compile::shape::WideBoard::of_cells(&pos.board.cells);
                            (ff.identity(b, pos.to_move), ff.identity_low(b, pos.to_move))
                        }
                        None => panic!("no fast form:\n{text}"),
                    };
                    assert_eq!(id, game.hash(&pos), "{text}\n{:?}", pos.board.cells);
                    // Issue 25: the low bits alone, which a search asks first, are the identity's.
                    assert_eq!(low, id as u16, "{text}\n{:?}", pos.board.cells);
                    seen += 1;
                    game.random_playout(&mut pos, &mut rng, 1);
                }
            }
            assert!(seen > 200, "{seen} positions of {text}");
        }
    }

    /// Issue 25: where the stores lie in a block of their own (four rows of eight: 32 pits, the
    /// stores in the third block), the low bits of a board's identity are the pits' blocks' sum
    /// and what the stores' block adds for any board with the same stores: a search weighs its
    /// pits' blocks alone against the positions before it, which hold its start's stores.
    #[test]
    fn the_low_bits_weigh_the_pits_blocks_alone_past_the_stores() {
        use rand::{Rng, SeedableRng};
        let text = "game \"stores apart\" board { rows 2 pits 8 seeds 2 stores captures } first south
             sow { direction ccw track own }
             capture \"across\" { when last.side == mover and last.row == front and last.before == 0 and opposite(last).count > 0
               take opposite(last) }
             end \"stuck\" when no_moves loser to_move";
        let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), text, &[]) else {
            panic!("the invented game checks");
        };
        let game = loaded.game;
        let Some(Fast::Wide(ff)) = game.fast.as_deref() else {
            panic!("a wide fast form");
        };
        assert_eq!((ff.pit_blocks(), ff.key_blocks()), (2, 3));
        let mut rng = rand::rngs::StdRng::seed_from_u64(5);
        let mut stored = 0;
        for _ in 0..20 {
            let mut pos = game.initial(None);
            while !pos.over && pos.ply < 60 {
                let b = crate::compile::shape::WideBoard::of_cells(&pos.board.cells);
                let past = ff.identity_low_past_pits(b);
                // Another board with the same stores: every pit's seeds drawn anew.
                let mut cells = pos.board.cells.clone();
                for n in cells[..ff.pits].iter_mut() {
                    *n = rng.gen_range(0..9);
                }
                let other = crate::compile::shape::WideBoard::of_cells(&cells);
                for p in crate::engine::Player::BOTH {
                    assert_eq!(
                        ff.identity_low_in(other, p, ff.pit_blocks()).wrapping_add(past),
                        ff.identity_low(other, p)
                    );
                }
                stored += usize::from(past != 0);
                game.random_playout(&mut pos, &mut rng, 1);
            }
        }
        assert!(stored > 100, "{stored} positions with seeds in a store");
    }

    /// Issue 25: the low bits of a set of identities hold every identity of the set (a search
    /// takes a position whose bit is clear as not among the positions before it), and not many
    /// others: the bits are those of the low 16 bits, less the top two.
    #[test]
    fn the_low_bits_of_identities_hold_every_one_of_them() {
        use super::LowBits;
        assert!(!LowBits::of(&[]).may_hold(0));
        let ids: Vec<u64> = (1..=300u64).map(crate::keys::mix).collect();
        let bits = LowBits::of(&ids);
        assert!(ids.iter().all(|&id| bits.may_hold(id as u16)));
        let others = (301..20_301u64).filter(|&i| bits.may_hold(crate::keys::mix(i) as u16)).count();
        assert!(others < 1_000, "{others} of 20,000 others held");
        // A bit is the low 14 bits' alone: the two above do not change it.
        assert!(ids.iter().all(|&id| bits.may_hold(id as u16 ^ 0xC000)));
    }
}
