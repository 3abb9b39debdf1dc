//! Game-tree search for any compiled game, on top of the engine's public moves: a static evaluation
//! ([`evaluate`]), alpha-beta ([`alphabeta`]), Monte Carlo tree search ([`mcts`]), exact solving of
//! small boards ([`solve`]). Nothing here knows a
//! game: every rule is the engine's, so a search sees exactly the moves, captures and endings of the
//! rule file it was given.

pub mod alphabeta;
pub mod endgame;
mod huge;
pub mod mcts;
pub mod prove;
pub mod solve;

use crate::engine::{Game, Outcome, Player, Position};

/// Evaluation units per seed: the positional term is worth a fraction of a seed.
pub const SCALE: i32 = 16;

/// The score of a won game (before the margin and the distance are added).
pub const WIN: i32 = 1 << 24;

/// A score at least this large (in absolute value) means a finished game was seen.
pub const DECIDED: i32 = WIN / 2;

/// The static value of a position for `me`, in [`SCALE`] units: the score difference (stores, plus
/// pits counted in place), a small bonus per seed in one's own row over the opponent's (seeds one
/// can still sow, and in many games keep at the end), and in a match the rounds won, which outweigh
/// any seed count. A finished game scores [`WIN`] plus the margin, from `me`'s side.
pub fn evaluate(game: &Game, pos: &Position, me: Player) -> i32 {
    let scores = game.scores(pos);
    let margin = scores[me.index()] as i32 - scores[me.other().index()] as i32;
    if pos.over {
        return outcome_score(pos.winner, me) + margin * SCALE;
    }
    let mut v = margin * SCALE;
    if game.rounds.is_some() {
        let rounds = pos.rounds_won[me.index()] as i32 - pos.rounds_won[me.other().index()] as i32;
        v += rounds * (game.total as i32 + 1) * SCALE * 2;
    }
    if !pos.counted_in_place {
        v += game.row_seeds(&pos.board, me) as i32 - game.row_seeds(&pos.board, me.other()) as i32;
    }
    v
}

/// [`evaluate`] of the packed position `cells` of a game searched in fast form (no rounds, nothing
/// counted in place): the same number for the same position.
pub(crate) fn evaluate_packed<B: crate::engine::PackedBoard, const L: usize>(
    fast: &crate::engine::FastSearch<'_, B, L>,
    cells: B,
    me: Player,
) -> i32 {
    fast.margin(cells, me) * SCALE + fast.row_margin(cells, me)
}

/// ±[`WIN`] for a result seen from `me`'s side (0 for a draw or no result).
fn outcome_score(winner: Option<Outcome>, me: Player) -> i32 {
    match (winner, me) {
        (Some(Outcome::South), Player::South) | (Some(Outcome::North), Player::North) => WIN,
        (Some(Outcome::South), Player::North) | (Some(Outcome::North), Player::South) => -WIN,
        _ => 0,
    }
}

/// A score in words, for people: "+2.5 seeds", "a win", "a loss" (seen from the player to move).
pub fn describe_score(score: i32) -> String {
    if score >= DECIDED {
        let margin = (score - WIN) as f64 / f64::from(SCALE);
        format!("a win (by about {:.0} seeds)", margin.max(0.0))
    } else if score <= -DECIDED {
        let margin = (-score - WIN) as f64 / f64::from(SCALE);
        format!("a loss (by about {:.0} seeds)", margin.max(0.0))
    } else {
        format!("{:+.2} seeds", f64::from(score) / f64::from(SCALE))
    }
}

/// Every legal move of `pos` (in order) with the position it leads to: in the game's fast form when
/// it has one for `pos` ([`Game::fast_children`]), else by the general engine. The exact searches
/// (the full-board solver, the endgame databases) visit every position this way.
pub fn successors(game: &Game, pos: &Position) -> Vec<(usize, Position)> {
    let mut out = Vec::new();
    if !game.fast_children(pos, &mut out) {
        out.extend(game.legal_moves(pos).into_iter().map(|k| {
            let mut c = pos.clone();
            game.apply(&mut c, k).expect("listed moves are legal");
            (k, c)
        }));
    }
    out
}

/// What a position is, for a transposition table: the board (seeds, claims, closures), whose turn,
/// the round and rounds won, and the move number when some rule reads it (or the moves of the round).
/// Not the history: see
/// [`solve`] for how the exact solver accounts for it.
///
/// The cells are read eight to a word, one byte a cell, as a packed board holds them (so that a
/// packed position's key, [`KeyOf::key`], is a multiply a word and not a step a cell); a board
/// with a cell of more seeds than a byte holds (which no packed board has) is read a cell a word.
pub(crate) fn position_key(pos: &Position, with_ply: bool) -> u64 {
    let cells = &pos.board.cells;
    let mut rest = FNV_OFFSET;
    let mut i = 0;
    position_fields(pos, with_ply, |x| {
        if i >= cells.len() {
            rest = fnv(rest, x);
        }
        i += 1;
    });
    let board = if cells.len() <= 64 && cells.iter().all(|&n| n <= 255) {
        let mut words = [0u64; 8];
        for (c, &n) in cells.iter().enumerate() {
            words[c / 8] |= u64::from(n) << (8 * (c % 8));
        }
        board_hash(&words[..cells.len().div_ceil(8)])
    } else {
        // Told apart from any board of bytes by the word count it could not have.
        let words: Vec<u64> = cells.iter().map(|&n| u64::from(n)).collect();
        board_hash(&words) ^ WORDS_APART
    };
    crate::keys::mix(board ^ rest)
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;

/// One step of FNV-1a over a field: the fields other than the cells are few and mostly constant.
#[inline(always)]
fn fnv(h: u64, x: u64) -> u64 {
    (h ^ x).wrapping_mul(0x0000_0100_0000_01b3)
}

/// Set in the board's hash of a board read a cell a word.
const WORDS_APART: u64 = 0x8000_0000_0000_0001;

/// The cells' part of a key, from their words of eight bytes: each word folded into the hash with
/// one 64 x 64 -> 128 bit multiply (the halves of the product xored), as wyhash does.
#[inline(always)]
fn board_hash(words: &[u64]) -> u64 {
    words.iter().fold(BOARD_SEED, |h, &w| board_step(h, w))
}

/// [`board_hash`]'s start.
const BOARD_SEED: u64 = 0x243f_6a88_85a3_08d3;

/// [`board_hash`]'s fold of the word `w` into `h`.
#[inline(always)]
fn board_step(h: u64, w: u64) -> u64 {
    let p = u128::from(h ^ w) * u128::from(0x9e37_79b9_7f4a_7c15u64);
    (p as u64) ^ ((p >> 64) as u64)
}

/// Calls `f` with each field that makes a position what it is for a search, in a fixed order: the
/// board (seeds, claims, closures, memory), whose turn, the round and rounds won, whether the seeds left count
/// in place, who opened the round, and the move number when `with_ply`.
pub(crate) fn position_fields(pos: &Position, with_ply: bool, f: impl FnMut(u64)) {
    fields_with(pos, |c| pos.board.cells[c], pos.to_move, pos.ply, with_ply, f);
}

/// [`position_key`] of the positions that are `like` but for their cells' seeds, their player to
/// move and their move number: a packed position's key, equal to the key of the same position in
/// the general engine's form, with the fields they share read from `like` once.
pub(crate) struct KeyOf {
    /// Words of eight cells.
    words: usize,
    /// The bytes of the last word that are cells (a packed board's other lanes are not read).
    last: u64,
    /// The hash of the fields after the cells, but the move number, for south and north to move.
    rest: [u64; 2],
    round_start: u64,
}

impl KeyOf {
    pub(crate) fn new(like: &Position) -> KeyOf {
        let mut fields = Vec::new();
        position_fields(like, false, |x| fields.push(x));
        let cells = like.board.cells.len();
        let turn = cells + like.board.claimed.len() + like.board.closed.len() + like.board.memory.len();
        let rest = [Player::South, Player::North].map(|p| {
            let mut h = FNV_OFFSET;
            for (i, &x) in fields.iter().enumerate().skip(cells) {
                h = fnv(h, if i == turn { p.index() as u64 } else { x });
            }
            h
        });
        let tail = cells % 8;
        KeyOf {
            words: cells.div_ceil(8),
            last: if tail == 0 { u64::MAX } else { (1 << (8 * tail)) - 1 },
            rest,
            round_start: u64::from(like.round_start),
        }
    }

    /// [`position_key`] of the packed board `b` with `to_move` to move at move number `ply`.
    #[inline(always)]
    pub(crate) fn key<B: crate::engine::PackedBoard>(&self, b: B, to_move: Player, ply: u32, with_ply: bool) -> u64 {
        let cells = if B::LANES <= 16 {
            // A narrow board is one word or two: folded without the loop over the words (its
            // count read at run time, it was a few percent of a search).
            let block = b.block(0);
            let (low, high) = (block as u64, (block >> 64) as u64);
            if self.words == 1 {
                board_step(BOARD_SEED, low & self.last)
            } else {
                board_step(board_step(BOARD_SEED, low), high & self.last)
            }
        } else {
            let mut words = [0u64; 8];
            for (j, w) in words.iter_mut().enumerate().take(self.words) {
                *w = (b.block(j / 2) >> (64 * (j % 2))) as u64;
            }
            words[self.words - 1] &= self.last;
            board_hash(&words[..self.words])
        };
        let mut rest = self.rest[to_move.index()];
        if with_ply {
            rest = fnv(fnv(rest, u64::from(ply)), self.round_start);
        }
        crate::keys::mix(cells ^ rest)
    }
}

/// [`position_fields`] of `pos` with the cells' seeds, the player to move and the move number
/// given apart.
#[inline]
fn fields_with(pos: &Position, seeds: impl Fn(usize) -> u32, to_move: Player, ply: u32, with_ply: bool, mut f: impl FnMut(u64)) {
    for c in 0..pos.board.cells.len() {
        f(u64::from(seeds(c)));
    }
    for c in &pos.board.claimed {
        f(c.map_or(0, |p| p.index() as u64 + 1));
    }
    for &c in &pos.board.closed {
        f(u64::from(c));
    }
    for &m in &pos.board.memory {
        f(m as u64);
    }
    f(to_move.index() as u64);
    f(u64::from(pos.round));
    f(u64::from(pos.rounds_won[0]));
    f(u64::from(pos.rounds_won[1]));
    f(u64::from(pos.counted_in_place));
    // Who opened the round decides who opens the next under `next round first`. It is told apart
    // only where it is not the starter, so the keys of every game that never changes it stay as
    // they were.
    if pos.opener != pos.starter {
        f(u64::MAX);
    }
    if with_ply {
        f(u64::from(ply));
        // With the move number, the round's first move gives `round_ply`.
        f(u64::from(pos.round_start));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::compile::shape::Lanes;
    use crate::test_game as game;

    const BASE: &str = r#"
game "Invented"
board {
  pits 3
  seeds 2
  stores captures
}
first south
sow {
  direction ccw
}
"#;

    #[test]
    fn the_compiled_game_knows_where_ply_and_repeated_are_read() {
        let plain = game(&format!("{BASE}end \"none left\" when no_moves remaining owner\n"));
        assert!(!plain.uses_ply);
        assert!(!plain.uses_repeated);
        let with = game(&format!(
            "{BASE}phase \"repeated Ply\" when ply < 2 {{\n  no captures\n}}\nend \"cycle\" when repeated remaining owner\nend \"none left\" when no_moves remaining owner\n"
        ));
        assert!(with.uses_ply);
        assert!(with.uses_repeated);
        let reads = |rule: &str| with.ends.iter().any(|e| *e.name == *rule && e.reads_repeated);
        assert!(reads("cycle"));
        assert!(!reads("none left"));
        // A rule's name is not read as a rule.
        let named = game(&format!("{BASE}end \"repeated ply\" when no_moves remaining owner\n"));
        assert!(!named.uses_ply && !named.uses_repeated);
    }

    #[test]
    fn a_finished_game_outweighs_any_seed_count() {
        let g = game(&format!("{BASE}end \"none left\" when no_moves remaining owner\n"));
        let mut pos = g.initial(None);
        let start = evaluate(&g, &pos, Player::South);
        assert_eq!(start, 0);
        pos.over = true;
        pos.winner = Some(Outcome::North);
        assert!(evaluate(&g, &pos, Player::South) <= -DECIDED);
        assert!(evaluate(&g, &pos, Player::North) >= DECIDED);
    }

    /// Issue 25: a packed key reads the board a word of eight cells at a time: on a wide board
    /// (more than 16 cells) too, the lanes beyond the cells left unread, and a board of more seeds
    /// in a cell than a byte holds (which no packed board has) told apart from one of fewer.
    #[test]
    fn issue_25_packed_keys_of_wide_boards_and_counts_beyond_a_byte() {
        use crate::compile::shape::WideBoard;
        let g = game(&format!(
            "{}end \"none left\" when no_moves remaining owner\n",
            BASE.replace("pits 3", "pits 9")
        ));
        let start = g.initial(None);
        let keys = KeyOf::new(&start);
        assert_eq!(start.board.cells.len(), 20);
        let mut cells = start.board.cells.clone();
        cells[4] = 0;
        cells[19] = 7;
        let mut pos = start.clone();
        pos.board.cells = cells.clone();
        let wide = WideBoard::of_cells(&cells);
        assert_eq!(keys.key(wide, pos.to_move, pos.ply, false), position_key(&pos, false));
        // Seeds in a lane that is no cell change nothing.
        let stray = wide | WideBoard::at(23, 9);
        assert_eq!(keys.key(stray, pos.to_move, pos.ply, false), position_key(&pos, false));
        // 256 seeds more in a cell is another position.
        let mut more = pos.clone();
        more.board.cells[19] += 256;
        assert_ne!(position_key(&more, false), position_key(&pos, false));
    }

    /// Issue 25: a narrow board's key folds its one word or two without the loop over the words:
    /// boards of 4 to 16 cells (one word and two, the second full or not), every cell's seeds
    /// read, the lanes beyond the cells left unread.
    #[test]
    fn issue_25_packed_keys_of_narrow_boards_of_one_word_or_two() {
        for pits in 1..=7 {
            let g = game(&format!(
                "{}end \"none left\" when no_moves remaining owner\n",
                BASE.replace("pits 3", &format!("pits {pits}"))
            ));
            let start = g.initial(None);
            let keys = KeyOf::new(&start);
            let n = start.board.cells.len();
            assert_eq!(n, 2 * pits + 2);
            for c in 0..n {
                let mut pos = start.clone();
                pos.board.cells[c] = 5 + c as u32;
                let packed = u128::of_cells(&pos.board.cells);
                for with_ply in [false, true] {
                    assert_eq!(
                        keys.key(packed, pos.to_move, pos.ply, with_ply),
                        position_key(&pos, with_ply),
                        "{n} cells, cell {c}"
                    );
                }
                assert_ne!(position_key(&pos, false), position_key(&start, false), "{n} cells, cell {c}");
                // Seeds in a lane that is no cell (the first after the cells, the last) change nothing.
                for lane in [n, 15].into_iter().filter(|&l| l >= n && l < 16) {
                    let stray = packed | u128::at(lane, 9);
                    assert_eq!(
                        keys.key(stray, pos.to_move, pos.ply, false),
                        position_key(&pos, false),
                        "{n} cells, lane {lane}"
                    );
                }
            }
        }
    }

    /// A packed position's key is the general engine's key of the same position (the table of
    /// alpha-beta holds both alike): every field, the player to move and the move number included.
    #[test]
    fn a_packed_key_is_the_position_key() {
        let g = game(&format!("{BASE}end \"none left\" when no_moves remaining owner\n"));
        let start = g.initial(None);
        let keys = KeyOf::new(&start);
        let mut pos = start.clone();
        for k in [1, 2, 3, 1] {
            for with_ply in [false, true] {
                let packed = keys.key(u128::of_cells(&pos.board.cells), pos.to_move, pos.ply, with_ply);
                assert_eq!(packed, position_key(&pos, with_ply), "after {k}");
            }
            let mut other = pos.clone();
            other.to_move = other.to_move.other();
            other.ply += 1;
            assert_ne!(
                keys.key(u128::of_cells(&pos.board.cells), other.to_move, pos.ply, false),
                position_key(&pos, false)
            );
            assert_ne!(
                keys.key(u128::of_cells(&pos.board.cells), pos.to_move, other.ply, true),
                position_key(&pos, true)
            );
            if g.legal_moves(&pos).contains(&k) {
                g.apply(&mut pos, k).expect("legal");
            }
        }
    }
}
