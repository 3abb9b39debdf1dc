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
    fast.margin(cells, me) * SCALE + fast.row_seeds(cells, me) as i32 - fast.row_seeds(cells, me.other()) as i32
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
pub(crate) fn position_key(pos: &Position, with_ply: bool) -> u64 {
    // FNV-1a over the fields: fast, and good enough for a table that tolerates collisions.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    position_fields(pos, with_ply, |x| {
        h ^= x;
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    });
    h
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
    cells: usize,
    /// The fields between the cells and the player to move (claims, closures, memory).
    middle: Vec<u64>,
    /// The fields after the player to move, but the move number.
    after: Vec<u64>,
    round_start: u64,
}

impl KeyOf {
    pub(crate) fn new(like: &Position) -> KeyOf {
        let mut fields = Vec::new();
        position_fields(like, false, |x| fields.push(x));
        let cells = like.board.cells.len();
        let turn = cells + like.board.claimed.len() + like.board.closed.len() + like.board.memory.len();
        KeyOf {
            cells,
            middle: fields[cells..turn].to_vec(),
            after: fields[turn + 1..].to_vec(),
            round_start: u64::from(like.round_start),
        }
    }

    #[inline]
    pub(crate) fn key(&self, seeds: impl Fn(usize) -> u32, to_move: Player, ply: u32, with_ply: bool) -> u64 {
        let mut h: u64 = 0xcbf2_9ce4_8422_2325;
        let mut f = |x: u64| {
            h ^= x;
            h = h.wrapping_mul(0x0000_0100_0000_01b3);
        };
        (0..self.cells).for_each(|c| f(u64::from(seeds(c))));
        self.middle.iter().for_each(|&x| f(x));
        f(to_move.index() as u64);
        self.after.iter().for_each(|&x| f(x));
        if with_ply {
            f(u64::from(ply));
            f(self.round_start);
        }
        h
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
        let reads = |rule: &str| with.ends.iter().any(|e| e.name == rule && e.reads_repeated);
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
                let packed = keys.key(|c| pos.board.cells[c], pos.to_move, pos.ply, with_ply);
                assert_eq!(packed, position_key(&pos, with_ply), "after {k}");
            }
            let mut other = pos.clone();
            other.to_move = other.to_move.other();
            other.ply += 1;
            assert_ne!(
                keys.key(|c| pos.board.cells[c], other.to_move, pos.ply, false),
                position_key(&pos, false)
            );
            assert_ne!(
                keys.key(|c| pos.board.cells[c], pos.to_move, other.ply, true),
                position_key(&pos, true)
            );
            if g.legal_moves(&pos).contains(&k) {
                g.apply(&mut pos, k).expect("legal");
            }
        }
    }
}
