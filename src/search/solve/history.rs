//! The solver's search keyed on the position and its round's whole history ([`Keys::History`], or
//! the move number where a rule reads `ply`): no argument about components, fewer transpositions.

use std::collections::HashMap;
use std::time::Instant;

use super::*;

/// The table key: a position (and its move number when a rule reads it) and the set of earlier
/// positions of its round.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub(super) struct HistoryKey {
    id: u32,
    ply: u32,
    seen: Box<[u32]>,
}

pub(super) struct HistorySearch<'a> {
    game: &'a Game,
    tree: Tree,
    watcher: Watcher<'a>,
    with_ply: bool,
    ids: HashMap<Box<[u8]>, u32>,
    table: HashMap<HistoryKey, Entry>,
    /// Ids of the positions of the current round on the current line, the current one last.
    path: Vec<u32>,
    /// The round `path` belongs to.
    round: u32,
    nodes: u64,
    limits: Limits,
}

pub(super) fn history_search(game: &Game, start: &Position, limits: Limits, with_ply: bool, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    let t = Instant::now();
    let mut s = HistorySearch {
        game,
        tree: Tree::default(),
        watcher: Watcher {
            watch,
            started: t,
            limit: limits.max_positions,
        },
        with_ply,
        ids: HashMap::new(),
        table: HashMap::new(),
        path: Vec::new(),
        round: start.round,
        nodes: 0,
        limits,
    };
    let inf = 4 * big(game);
    let start_id = s.id(start)?;
    s.path.push(start_id);
    s.tree.enter(game.legal_moves(start).len());
    let moves = root_moves(game, start, |child, mover| {
        let v = mtdf(-inf, inf, |a, b| s.child(child, mover, a, b));
        s.tree.child_done();
        v
    })?;
    finish(game, start, moves, s.nodes, s.ids.len() as u64, (0, 0), s.table.len() as u64, t)
}

impl HistorySearch<'_> {
    fn id(&mut self, pos: &Position) -> Result<u32, Refusal> {
        let key = identity(pos, false);
        if let Some(&id) = self.ids.get(&key) {
            return Ok(id);
        }
        let id = self.ids.len() as u32;
        if u64::from(id) >= self.limits.max_positions {
            return Err(Refusal::TooLarge {
                estimate: estimate_positions(self.game),
                found: Some(u64::from(id)),
                limit: self.limits.max_positions,
            });
        }
        self.ids.insert(key, id);
        Ok(id)
    }

    fn child(&mut self, child: &Position, mover: Player, alpha: i64, beta: i64) -> Result<i64, Refusal> {
        let same = child.to_move == mover;
        let (a, b) = if same { (alpha, beta) } else { (-beta, -alpha) };
        let u = if child.round == self.round {
            self.value(child, a, b)?
        } else {
            // A new round began: what came before cannot recur.
            let saved = (std::mem::take(&mut self.path), self.round);
            self.round = child.round;
            let u = self.value(child, a, b);
            (self.path, self.round) = saved;
            u?
        };
        Ok(if same { u } else { -u })
    }

    /// The utility of `pos` for its player to move, within `alpha..beta` (fail-soft); `self.path`
    /// ends with its parent.
    fn value(&mut self, pos: &Position, mut alpha: i64, mut beta: i64) -> Result<i64, Refusal> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(Refusal::TooLong { nodes: self.nodes });
        }
        if self.nodes.is_multiple_of(WATCH_EVERY) {
            self.watcher.check(self.nodes, self.table.len() as u64, &self.tree)?;
        }
        if pos.over {
            return Ok(utility(self.game, pos, pos.to_move));
        }
        let id = self.id(pos)?;
        if self.path.contains(&id) {
            return Ok(0);
        }
        let moves = self.game.legal_moves(pos);
        if moves.is_empty() {
            return Ok(utility(self.game, &finished_as_is(self.game, pos), pos.to_move));
        }
        let mut seen = self.path.clone();
        seen.sort_unstable();
        let key = HistoryKey {
            id,
            ply: if self.with_ply { pos.ply } else { 0 },
            seen: seen.into_boxed_slice(),
        };
        let entry = self.table.get(&key).copied();
        if let Some(e) = entry {
            match e.settle(alpha, beta) {
                Ok(value) => return Ok(value),
                Err(window) => (alpha, beta) = window,
            }
        }
        let mover = pos.to_move;
        let mut children: Vec<(i64, usize, Position)> = moves
            .into_iter()
            .map(|k| {
                let mut c = pos.clone();
                self.game.apply(&mut c, k).expect("listed moves are legal");
                let first = entry.is_some_and(|e| usize::from(e.best) == k);
                let order = if first {
                    i64::MIN
                } else {
                    -i64::from(crate::search::evaluate(self.game, &c, mover))
                };
                (order, k, c)
            })
            .collect();
        children.sort_by_key(|c| c.0);
        self.path.push(id);
        self.tree.enter(children.len());
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i64::MIN;
        let mut best_move = 0;
        for (_, k, child) in &children {
            let v = match self.child(child, mover, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    self.path.pop();
                    self.tree.leave();
                    return Err(e);
                }
            };
            self.tree.child_done();
            if v > best {
                best = v;
                best_move = *k;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        self.tree.leave();
        let mut e = entry.unwrap_or(Entry {
            lower: i64::MIN,
            upper: i64::MAX,
            best: 0,
        });
        // Only an ordering hint: a move past 255 (one with choices) is hinted by its low bits.
        e.best = best_move as u8;
        if best > alpha0 && best < beta0 {
            e.lower = best;
            e.upper = best;
        } else if best >= beta0 {
            e.lower = e.lower.max(best);
        } else {
            e.upper = e.upper.min(best);
        }
        if self.table.len() as u64 >= self.limits.max_positions {
            return Err(Refusal::TableFull {
                positions: 0,
                limit: self.limits.max_positions,
            });
        }
        self.table.insert(key, e);
        Ok(best)
    }
}
