//! Counting the positions reached after 1, 2, … moves from a position (`perft`), the usual
//! correctness-and-speed yardstick for a move generator, and uniform-random playouts (`bench`).
//!
//! Every line of play is followed with its own history, so a rule that looks at the past (such as a
//! repetition rule) ends the lines it should. A finished position is counted and not expanded; a
//! move that gives its player another move is one ply like any other.

use rand::{Rng, RngCore};

use super::trace::Silent;
use super::turn::Hints;
use super::{AnySearch, Counted, Expanded, FastMove, FastSearch, Game, Line, Moves, PackedBoard, Position};

/// A number below `n` (at least 1), drawn uniformly for a random playout: the high half of a 32-bit
/// random number times `n`. Its bias, below `n / 2^32` (under 2^-26 for a choice among 64 moves), is
/// far below what a playout can show, and it costs a multiplication where an exactly uniform draw
/// (rand's `gen_range`) also compares and, now and then, draws again. The general engine and the fast forms draw alike, so both play the same
/// games from the same generator.
#[inline(always)]
pub fn draw(rng: &mut impl RngCore, n: usize) -> usize {
    ((u64::from(rng.next_u32()) * n as u64) >> 32) as usize
}

/// A move drawn uniformly among the legal ones from `candidates` (bit `k - 1` for move `k`), a set
/// that holds every legal move and may hold others: a candidate drawn that `legal` refuses is dropped
/// and another drawn, which is a uniform draw among the legal moves that decides the legality of
/// none but the moves drawn (a move that must be sown to be judged, such as a relay that may never
/// end, is sown only when drawn). Returns the move's bit; `None`, after one more number drawn, when
/// no candidate is left. With `candidates` the legal moves, it is one [`draw`], as before.
#[inline(always)]
pub fn draw_among(rng: &mut impl RngCore, candidates: u64, mut legal: impl FnMut(usize) -> bool) -> Option<usize> {
    draw_among_with(rng, candidates, |bit| legal(bit).then_some(bit))
}

/// [`draw_among`] where `legal` answers with what it learnt of the move (`None` when it is not
/// legal), returned for the move drawn: a fast form's try of a move answers whether the mover moves
/// again, which a closure writing it through a reference took a pointer more to hand over.
#[inline(always)]
pub fn draw_among_with<T>(rng: &mut impl RngCore, mut candidates: u64, mut legal: impl FnMut(usize) -> Option<T>) -> Option<T> {
    loop {
        let bit = if candidates >> 16 == 0 {
            // At most 16 candidates (most games): the two bytes' table entries read once, for the
            // count and for the bit drawn (a loop over the bytes mispredicted its end).
            let (low, high) = (
                BYTE_BITS[(candidates & 0xFF) as usize],
                BYTE_BITS[(candidates >> 8 & 0xFF) as usize],
            );
            let below = usize::from(low.0);
            let i = draw(rng, (below + usize::from(high.0)).max(1));
            if candidates == 0 {
                return None;
            }
            if i < below {
                usize::from(low.1[i & 7])
            } else {
                8 + usize::from(high.1[(i - below) & 7])
            }
        } else {
            let i = draw(rng, (candidates.count_ones() as usize).max(1));
            if candidates == 0 {
                return None;
            }
            nth_bit(candidates, i)
        };
        if let Some(found) = legal(bit) {
            return Some(found);
        }
        candidates &= !(1 << bit);
    }
}

/// Per byte, its bits set, and where its `j`-th set bit is.
const BYTE_BITS: [(u8, [u8; 8]); 256] = {
    let mut table = [(0, [0; 8]); 256];
    let mut byte = 0;
    while byte < 256 {
        let mut bit = 0;
        while bit < 8 {
            if byte >> bit & 1 != 0 {
                table[byte].1[table[byte].0 as usize] = bit as u8;
                table[byte].0 += 1;
            }
            bit += 1;
        }
        byte += 1;
    }
    table
};

/// Where the `i`-th set bit of `bits` (which has more than `i`) is: a byte at a time from a table
/// (clearing the lowest bit `i` times mispredicted its loop's end at every draw).
#[inline(always)]
fn nth_bit(bits: u64, mut i: usize) -> usize {
    let mut at = 0;
    loop {
        let (count, places) = BYTE_BITS[(bits >> at & 0xFF) as usize];
        if i < usize::from(count) {
            return at + usize::from(places[i & 7]);
        }
        i -= usize::from(count);
        at = (at + 8) & 63;
    }
}

/// What one random playout did.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Playout {
    /// Moves played.
    pub plies: u32,
    /// The game ended by its rules (else the ply cap stopped it).
    pub finished: bool,
}

impl Game {
    /// The number of positions reached after exactly `d` moves from `pos`, for `d` in `1..=depth`
    /// (`result[d - 1]`).
    pub fn perft(&self, pos: &Position, depth: usize) -> Vec<u64> {
        let mut counts = vec![0u64; depth];
        if depth == 0 {
            return counts;
        }
        // In fast form where it serves every line from `pos`: the positions packed, each line kept
        // for the repetition rule, nothing allocated a node.
        if !self.perft_fast(pos, &mut counts) {
            self.perft_into(pos, &mut counts);
        }
        counts
    }

    /// [`Game::perft`]'s counts below `pos` added in fast form, where it serves every line from
    /// `pos`; `false` (nothing counted) where it does not.
    fn perft_fast(&self, pos: &Position, counts: &mut [u64]) -> bool {
        !self.uses_choose
            && match self.fast_search(pos) {
                Some(AnySearch::Narrow(fast)) => self.perft_from(&fast, pos, counts),
                Some(AnySearch::Wide(fast)) => self.perft_from(&fast, pos, counts),
                None => false,
            }
    }

    /// [`Game::perft`] in fast form from `pos`, `false` when `pos` cannot be packed.
    fn perft_from<B: PackedBoard, const L: usize>(&self, fast: &FastSearch<B, L>, pos: &Position, counts: &mut [u64]) -> bool {
        let Some(cells) = fast.pack(pos) else {
            return false;
        };
        let mut line = fast.line(cells, pos.to_move);
        let mut rooms = vec![Vec::new(); counts.len()];
        self.perft_packed(fast, &mut line, &mut rooms, counts);
        true
    }

    /// [`Game::perft_into`] in fast form, from the last position of `line`, with a list of moves
    /// kept for each depth in `rooms`.
    fn perft_packed<B: PackedBoard, const L: usize>(
        &self,
        fast: &FastSearch<B, L>,
        line: &mut Line<B>,
        rooms: &mut [Vec<FastMove<B>>],
        counts: &mut [u64],
    ) {
        let Some((room, deeper)) = rooms.split_first_mut() else {
            return;
        };
        if counts.len() == 1 {
            // The last depth: every move made and counted, none kept, and no end rule read (a
            // position counts whether the game ends there or not).
            let mut made = Counted(0);
            fast.moves_on_line_into(line, u64::MAX, &mut made, |_| false);
            counts[0] += made.0;
            return;
        }
        room.clear();
        fast.moves_on_line_into(line, u64::MAX, &mut Expanded(room), |_| false);
        counts[0] += room.len() as u64;
        for m in room.iter() {
            match &m.ended {
                // Finished by the general engine: counted, not expanded (an end rule that let the
                // game go on would leave a position for the general engine to expand).
                Some(finished) => {
                    if !finished.over {
                        self.perft_into(finished, &mut counts[1..]);
                    }
                }
                None => {
                    line.push(m.cells, m.to_move);
                    self.perft_packed(fast, line, deeper, &mut counts[1..]);
                    line.pop();
                }
            }
        }
    }

    /// Adds the positions below `pos` to `counts` (`counts[0]` = one move ahead).
    fn perft_into(&self, pos: &Position, counts: &mut [u64]) {
        // A fast form that hands over an opening takes the lines back past it.
        let opening = self.fast_hands_over_opening();
        let rules = self.move_rules(pos, Hints::default());
        let mut child = pos.clone();
        let visit = |k: usize| {
            child.clone_from(pos);
            self.play(&mut child, k, rules, Hints::default(), &mut Silent);
            counts[0] += 1;
            if counts.len() > 1 && !child.over && !(opening && self.perft_fast(&child, &mut counts[1..])) {
                self.perft_into(&child, &mut counts[1..]);
            }
        };
        if self.uses_choose {
            self.legal_moves(pos).into_iter().for_each(visit);
        } else {
            self.legal_set(pos).iter().for_each(visit);
        }
    }

    /// Plays uniformly random legal moves from `pos` until the game is over or `max_plies` moves have
    /// been played (a game may otherwise go on forever), leaving the final position in `pos`. Each
    /// move is `moves[(rng.next_u32() as u64 * moves.len() as u64 >> 32) as usize]` of the legal
    /// moves as [`Game::legal_moves`] lists them, so a program can replay a playout move by move;
    /// but in a game whose moves must be sown to be judged (relays, seeds taken and sown again), the
    /// draw is among [`Game::playout_candidates`], a candidate that is not legal dropped and another
    /// drawn ([`draw_among`]). The generator is cloned to look ahead for a move without drawing it.
    pub fn random_playout(&self, pos: &mut Position, rng: &mut (impl Rng + Clone), max_plies: u32) -> Playout {
        self.random_playout_above(pos, rng, max_plies, 0)
    }

    /// [`Game::random_playout`] that also stops after a move that leaves fewer than `floor` seeds
    /// in the pits (where a caller has something to ask of such a position: the endgame databases
    /// hold the positions of few seeds). The moves and the numbers drawn are those of
    /// [`Game::random_playout`]: a playout stopped and played on from where it stopped plays the
    /// same game as one that did not stop.
    pub fn random_playout_above(&self, pos: &mut Position, rng: &mut (impl Rng + Clone), max_plies: u32, floor: u32) -> Playout {
        let mut plies = 0;
        let below = |pos: &Position| floor != 0 && pos.board.cells[..self.pit_count()].iter().sum::<u32>() < floor;
        if self.uses_choose {
            // Moves with choices on the way are listed one by one (a bit set has no room for them),
            // as `legal_moves` lists them; a move listed is legal, so it is played without the
            // checks of `apply`. The end rule that asks whether the player to move has a move
            // lists the moves of the position reached whole, and hands the list on to the next move.
            let hints = Hints {
                hand_on: true,
                ..Hints::default()
            };
            let mut handed = None;
            let mut moves = Vec::new();
            while !pos.over && plies < max_plies {
                let rules = self.move_rules(pos, Hints::default());
                let listed = handed.take().unwrap_or_else(|| self.choice_moves(pos, rules));
                moves.clear();
                moves.extend(listed.into_iter().map(|m| m.0));
                if self.may_pass && self.pass_allowed(pos, rules) {
                    moves.push(self.pass_move());
                }
                let Some(&k) = moves.get(draw(rng, moves.len().max(1))) else {
                    break;
                };
                Self::take_handed();
                self.play(pos, k, rules, hints, &mut Silent);
                handed = Self::take_handed();
                plies += 1;
                if below(pos) {
                    break;
                }
            }
            return Playout { plies, finished: pos.over };
        }
        let hints = Hints::of(self, pos);
        // A fast form that hands some positions to the general engine takes the game back after
        // the general engine's move.
        let comes_back = self.fast_hands_over();
        let until = super::kernel::Until { plies: max_plies, floor };
        let mut reserved = false;
        loop {
            // The end rules may have worked out the next position's legal moves already.
            let mut known = None;
            let round = pos.round;
            if let Some(handed) = self.fast_playout_any(pos, rng, &mut plies, until, hints) {
                match handed {
                    super::kernel::Handed::Stopped => return Playout { plies, finished: pos.over },
                    super::kernel::Handed::GoOn(moves) => known = moves,
                }
                // The fast form's last move may have left the pits below the floor.
                if below(pos) {
                    return Playout { plies, finished: pos.over };
                }
                // A round's end and set-up were the general engine's; the next round's first move
                // is the fast form's again when it takes the position (both draw alike), so the
                // general engine neither lists the moves of the round's start nor plays its first
                // move (two fifths of a playout of rounds of relays).
                if pos.round != round && !pos.over {
                    if plies < max_plies && self.fast_takes(pos, hints) {
                        continue;
                    }
                    // The end rules asked only whether the new round's opener has a move.
                    known = None;
                }
            }
            if self.uses_repeated && !pos.over && !reserved {
                // One allocation up front rather than a reallocation each time the history doubles
                // (about six in a game of a hundred moves).
                pos.history.reserve(max_plies.min(1024) as usize);
                reserved = true;
            }
            let played = plies;
            let floored = self.random_moves(pos, rng, &mut plies, until, hints, known, comes_back);
            if floored || !comes_back || pos.over || plies >= max_plies || plies == played {
                return Playout { plies, finished: pos.over };
            }
        }
    }

    /// [`Game::random_playout`]'s moves in the general engine, the legal moves of `pos` being `known`
    /// when they were worked out; only one when `one` (the fast form then takes the game back).
    /// `true` when a move left fewer seeds in the pits than the floor of `until`.
    #[allow(clippy::too_many_arguments)]
    fn random_moves(
        &self,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        super::kernel::Until { plies: max_plies, floor }: super::kernel::Until,
        hints: Hints,
        mut known: Option<Moves>,
        one: bool,
    ) -> bool {
        while !pos.over && *plies < max_plies {
            let (moves, rules) = match known.take() {
                Some(moves) => (moves, self.play_rules(pos, hints)),
                None => {
                    let rules = self.move_rules(pos, hints);
                    (self.legal_with(pos, rules), rules)
                }
            };
            // A game whose moves must be sown to be judged draws among the moves that pass the tests
            // before the sowing, as its fast form does (which sows only the move drawn).
            let candidates = if rules.sow_always {
                self.candidates(pos, rules, moves).bits()
            } else {
                moves.bits()
            };
            let Some(k) = draw_among(rng, candidates, |bit| moves.contains(bit + 1)).map(|bit| bit + 1) else {
                break;
            };
            known = self.play(pos, k, rules, hints, &mut Silent);
            *plies += 1;
            if floor != 0 && pos.board.cells[..self.pit_count()].iter().sum::<u32>() < floor {
                return true;
            }
            // Back to the fast form once it can take the position; until then the legal moves
            // the move worked out are kept here.
            if one && self.fast_takes(pos, hints) {
                return false;
            }
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The `i`-th set bit, across bytes, to the sixty-fourth.
    #[test]
    fn nth_bit_finds_each_set_bit_in_order() {
        let bits: u64 = 1 | 1 << 7 | 1 << 8 | 1 << 13 | 1 << 40 | 1 << 63;
        let found: Vec<usize> = (0..6).map(|i| nth_bit(bits, i)).collect();
        assert_eq!(found, [0, 7, 8, 13, 40, 63]);
        assert_eq!(nth_bit(u64::MAX, 37), 37);
    }

    /// A draw among at most sixteen candidates (the byte table's two entries) takes the bit that
    /// the count and the `i`-th set bit of the whole set give.
    #[test]
    fn draws_among_few_candidates_as_among_many() {
        use rand::SeedableRng;
        let mut rng = rand::rngs::SmallRng::seed_from_u64(7);
        for set in [1u64, 0b1011_0000_0001, 0xFFFF, 0x8001, 0xF0F0, 0x0100, 1 << 16 | 1, u64::MAX] {
            for _ in 0..64 {
                let mut copy = rng.clone();
                let want = nth_bit(set, draw(&mut copy, set.count_ones() as usize));
                assert_eq!(draw_among(&mut rng, set, |_| true), Some(want), "{set:#x}");
            }
        }
        // A candidate refused is dropped: the other is drawn.
        assert_eq!(draw_among(&mut rng, 0b101, |bit| bit == 2), Some(2));
        assert_eq!(draw_among(&mut rng, 0, |_| true), None);
    }
}
