//! A packed position's identity, as the general engine's `Game::hash` gives it: what the repetition
//! rule compares with the positions before a playout or a search.

use super::Board;
use crate::compile::shape::FastForm;
use crate::engine::{Game, Player};

/// Per digit `j`, the sum over the first `blocks` blocks of cells (`block(i)`, a byte a cell) of
/// each cell's seeds times its weight's digit `j` (`digits[j][c]`): two products of a 16-bit
/// seed count and digit added in one 32-bit lane, eight products an instruction (`pmaddwd`, SSE2).
#[cfg(target_arch = "x86_64")]
#[inline(always)]
fn key_sums<const L: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; 4] {
    use safe_arch::{add_i32_m128i, m128i, mul_i16_horizontal_add_m128i, unpack_high_i8_m128i, unpack_low_i8_m128i, zeroed_m128i};
    let eight = |d: &[i16]| m128i::from(<[i16; 8]>::try_from(d).expect("eight digits"));
    let mut acc = [zeroed_m128i(); 4];
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
fn key_sums<const L: usize>(digits: &[[i16; L]; 4], block: impl Fn(usize) -> u128, blocks: usize) -> [i32; 4] {
    let mut sums = [0i32; 4];
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
        let blocks = (self.pits + 2).div_ceil(16).min(L / 16);
        let sums = key_sums(&self.key_digits, |i| b.block(i), blocks);
        let h = Game::turn_key(to_move).wrapping_add(self.closed_key);
        sums.iter()
            .enumerate()
            .fold(h, |h, (j, &s)| h.wrapping_add((i64::from(s) as u64) << (16 * j)))
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
                    let id = match game.fast.as_deref() {
                        Some(Fast::Narrow(ff)) => ff.identity(u128::of_cells(&pos.board.cells), pos.to_move),
                        Some(Fast::Wide(ff)) => ff.identity(crate::compile::shape::WideBoard::of_cells(&pos.board.cells), pos.to_move),
                        None => panic!("no fast form:\n{text}"),
                    };
                    assert_eq!(id, game.hash(&pos), "{text}\n{:?}", pos.board.cells);
                    seen += 1;
                    game.random_playout(&mut pos, &mut rng, 1);
                }
            }
            assert!(seen > 200, "{seen} positions of {text}");
        }
    }
}
