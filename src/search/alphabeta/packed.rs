//! Alpha-beta's walk over packed positions (a game's fast form serving every line from the root):
//! a position is its cells, whose turn and its move number, a few words held by value, and a node
//! makes its children as the fast form's moves ([`FastMove`]) without a node of their own.
//!
//! It visits the nodes the general engine's walk visits, in the same order, with the same values
//! (the tests compare them node count for node count), and saves work that changes nothing there:
//! - the table is probed before a node's moves are made (a position the table holds has moves);
//! - the table's move is made and searched alone first, and the others only when it did not cut
//!   the node off (they are searched after it in any order anyway);
//! - the others are ordered by sorting a small array of numbers, each its child's evaluation and
//!   its place (which keeps the order of equal evaluations, as the general walk's stable sort);
//! - a leaf (no depth left) is scored where its parent made it: no line, no table, no moves made.
//!
//! At the last depth (and only there: the moves and bounds such a node stores would order the
//! next depth worse), a node one ply above the leaves makes its moves one by one, the table's
//! first and then in move order, until one reaches beta, where earlier depths make them all and
//! visit them in the order of their evaluation; the general walk does the same there. A value of
//! alpha-beta does not depend on the order of the moves, so the last depth finds the same values
//! with fewer moves made (the tests compare the two orders).

use super::{INF, Searcher};
use crate::engine::{FastMove, FastSearch, MoveSink, PackedBoard, Player, Scored};
use crate::search::{SCALE, WIN, evaluate, evaluate_packed};

/// A packed position: its cells, the player to move, its move number.
pub(super) type At<B> = (B, Player, u32);

impl<B: PackedBoard, const L: usize> Searcher<'_, B, L> {
    fn fast_form(&self) -> &FastSearch<'_, B, L> {
        self.fast.as_ref().expect("packed positions are searched with the fast form")
    }

    /// The value of the packed position `at` for `mover`, who just moved into it.
    /// `key`: its table key, where the caller worked it out.
    pub(super) fn packed_value(&mut self, at: At<B>, key: Option<u64>, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        let to_move = at.1;
        let v = if depth == 0 {
            // A leaf's value depends on neither bound, nor on the line (it makes no move).
            self.leaf(at, None)
        } else {
            self.line.push(at.0, to_move);
            let v = if to_move == mover {
                self.packed_negamax(at, key, depth, alpha, beta)
            } else {
                -self.packed_negamax(at, key, depth, -beta, -alpha)
            };
            self.line.pop();
            return v;
        };
        if to_move == mover { v } else { -v }
    }

    /// The value of the move `m` (from a position at move number `ply`) for `mover`, who made it;
    /// `key`: its position's table key, where the caller worked it out.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn move_value(&mut self, m: &FastMove<B>, key: Option<u64>, ply: u32, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        match &m.ended {
            // A finished game, or one an end rule let go on: the general engine's position.
            Some(p) => self.child_value(p, None, mover, depth, alpha, beta),
            None if depth == 0 => {
                let v = self.leaf((m.cells, m.to_move, ply + 1), m.moves_next);
                if m.to_move == mover { v } else { -v }
            }
            None => self.packed_value((m.cells, m.to_move, ply + 1), key, mover, depth, alpha, beta),
        }
    }

    /// The value of `at` for its player to move when the endgame databases hold it.
    #[inline(always)]
    fn known(&self, at: At<B>) -> Option<i32> {
        self.db.is_some().then(|| self.in_databases(at)).flatten()
    }

    #[inline(never)]
    fn in_databases(&self, (cells, to_move, _): At<B>) -> Option<i32> {
        let db = self.db?;
        let fast = self.fast_form();
        let v = fast.with_pit_seeds(cells, |pits| db.value_of(pits, fast.south_store(cells), to_move))?;
        let stores = self.stores.map(|c| cells.lane(c) as i32);
        let m = stores[to_move.index()] - stores[to_move.other().index()] + v;
        Some(m.signum() * WIN + m * SCALE)
    }

    /// The value of `at`, whose player has no legal move and no rule ends the game: each player
    /// keeps what they hold.
    #[cold]
    fn stuck(&self, (cells, to_move, ply): At<B>) -> i32 {
        let pos = self.fast_form().position_at(cells, to_move, ply);
        self.terminal(&super::finished_as_is(self.game, &pos))
    }

    /// A node with no depth left: its value for its player to move. `moves` tells whether its
    /// player has a legal move, where the move to it learnt it.
    #[inline]
    fn leaf(&mut self, at: At<B>, moves: Option<bool>) -> i32 {
        if self.count_node() {
            return 0;
        }
        self.leaf_value(at, moves)
    }

    /// [`Self::leaf`]'s value, the node counted by the caller.
    #[inline]
    fn leaf_value(&self, at: At<B>, moves: Option<bool>) -> i32 {
        if let Some(v) = self.known(at) {
            return v;
        }
        let fast = self.fast_form();
        if !moves.unwrap_or_else(|| fast.has_moves(at.0, at.1)) {
            return self.stuck(at);
        }
        evaluate_packed(fast, at.0, at.1)
    }

    /// The value for `mover` of the leaf the move `m` (from move number `ply`, by `mover`) made,
    /// the node counted by the caller.
    #[inline]
    fn leaf_of(&self, m: &FastMove<B>, ply: u32, mover: Player) -> i32 {
        match &m.ended {
            None if self.db.is_none() && m.moves_next == Some(true) => evaluate_packed(self.fast_form(), m.cells, mover),
            None => {
                let v = self.leaf_value((m.cells, m.to_move, ply + 1), m.moves_next);
                if m.to_move == mover { v } else { -v }
            }
            Some(p) if p.to_move == mover => self.general_leaf(p, None),
            Some(p) => -self.general_leaf(p, None),
        }
    }

    /// The evaluation of the move `m`'s position for `mover`, which orders a node's moves.
    #[inline]
    fn order_of(&self, m: &FastMove<B>, mover: Player) -> i32 {
        match &m.ended {
            Some(p) => evaluate(self.game, p, mover),
            None => evaluate_packed(self.fast_form(), m.cells, mover),
        }
    }

    /// Negamax of the packed position `at` (at the end of the line), `depth` > 0; `key`: its table
    /// key, where the caller worked it out (a node two or more plies above the leaves works out its
    /// children's to ask for their slots at once).
    fn packed_negamax(&mut self, at: At<B>, key: Option<u64>, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.count_node() {
            return 0;
        }
        if let Some(v) = self.known(at) {
            return v;
        }
        let (cells, mover, ply) = at;
        let key = key.unwrap_or_else(|| {
            self.keys
                .as_ref()
                .expect("packed positions are searched with their keys")
                .key(cells, mover, ply, self.with_ply)
        });
        let (entry, spot) = self.table.probe(key);
        let mut hinted = 0;
        if let Some(e) = entry {
            hinted = e.best;
            if e.depth >= depth {
                match e.bound {
                    super::Bound::Exact => return e.value,
                    super::Bound::Lower => alpha = alpha.max(e.value),
                    super::Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return e.value;
                }
            }
        }
        let room = depth as usize;
        if self.packed_rooms.len() <= room {
            self.packed_rooms.resize_with(room + 1, Vec::new);
            self.order_rooms.resize_with(room + 1, Vec::new);
            self.key_rooms.resize_with(room + 1, Vec::new);
        }
        let mut moves = std::mem::take(&mut self.packed_rooms[room]);
        moves.clear();
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = 0;
        let mut cut = false;
        // The table's move first, made alone: the others wait until it has not cut the node off.
        let mut others = u64::MAX;
        if (1..=64).contains(&hinted) {
            let bit = 1u64 << (hinted - 1);
            self.fast_form().moves_on_line_among(&self.line, bit, &mut moves);
            if let Some(m) = moves.pop() {
                others = !bit;
                best = self.move_value(&m, None, ply, mover, depth - 1, alpha, beta);
                best_move = m.pit;
                alpha = alpha.max(best);
                cut = self.aborted || alpha >= beta;
            }
        }
        if !cut && depth == 1 && self.one_by_one {
            // Its children are leaves, made in move order until one reaches beta.
            self.packed_rooms[room] = moves;
            let (made, found) = self.one_by_one(others, ply, mover, (best, best_move), beta);
            if made == 0 && others == u64::MAX {
                return self.stuck(at);
            }
            self.count_nodes(made);
            return self.stored(key, spot, found, depth, alpha0, beta);
        }
        if !cut && depth == 1 {
            // Its children are leaves: their values come from the evaluation that orders them.
            self.packed_rooms[room] = moves;
            let (made, found) = self.last_ply(others, ply, mover, (best, best_move), beta);
            if made == 0 && others == u64::MAX {
                // No move and no rule ends the game: score what each player holds.
                return self.stuck(at);
            }
            return self.stored(key, spot, found, depth, alpha0, beta);
        }
        if !cut {
            self.fast_form().moves_on_line_among(&self.line, others, &mut moves);
            if moves.is_empty() && others == u64::MAX {
                self.packed_rooms[room] = moves;
                // No move and no rule ends the game: score what each player holds.
                return self.stuck(at);
            }
            // Each move's evaluation above its place, highest first (equal ones in their order).
            let mut order = std::mem::take(&mut self.order_rooms[room]);
            order.clear();
            order.extend(
                moves
                    .iter()
                    .enumerate()
                    .map(|(i, m)| ((INF - self.order_of(m, mover)) as u64) << 8 | i as u64),
            );
            order.sort_unstable();
            // The children's keys, each worked out once: their probes, a few misses in the cache
            // taken at once rather than in turn (two or more plies above the leaves), and then
            // their own.
            let mut child_keys = std::mem::take(&mut self.key_rooms[room]);
            child_keys.clear();
            if depth >= 2 {
                let keys = self.keys.as_ref().expect("packed positions are searched with their keys");
                for m in &moves {
                    let k = keys.key(m.cells, m.to_move, ply + 1, self.with_ply);
                    if m.ended.is_none() {
                        self.table.prefetch(k);
                    }
                    child_keys.push(k);
                }
            }
            let mut searched = 0;
            for &o in &order {
                searched += 1;
                let i = (o & 0xFF) as usize;
                let m = &moves[i];
                let v = self.move_value(m, child_keys.get(i).copied(), ply, mover, depth - 1, alpha, beta);
                if self.aborted {
                    break;
                }
                if v > best {
                    best = v;
                    best_move = m.pit;
                }
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            self.made_only += (moves.len() - searched) as u64;
            self.order_rooms[room] = order;
            self.key_rooms[room] = child_keys;
        }
        self.packed_rooms[room] = moves;
        self.stored(key, spot, (best, best_move), depth, alpha0, beta)
    }

    /// A node's value `best` (with its move) kept in the table at `spot`, searched to `depth`
    /// between `alpha0` and `beta`; 0 when the search ran out of time.
    #[inline(always)]
    fn stored(&mut self, key: u64, spot: super::Spot, (best, best_move): (i32, usize), depth: u32, alpha0: i32, beta: i32) -> i32 {
        if self.aborted {
            return 0;
        }
        let entry = super::Entry {
            depth,
            value: best,
            bound: Self::bound(best, alpha0, beta),
            best: best_move as u32,
        };
        self.table.store(key, spot, entry);
        best
    }

    /// The number of the moves among `among` made at a node one ply above the leaves of the last
    /// depth (from move number `ply`, by `mover`), in move order until one reaches `beta`, and
    /// their best with its move after `found` (the table's move and its value, made first). Each is
    /// scored as it is made, none kept.
    #[inline(always)]
    fn one_by_one(&mut self, others: u64, ply: u32, mover: Player, found: (i32, usize), beta: i32) -> (u64, (i32, usize)) {
        let mut found = found;
        let mut made = Scored(0);
        self.fast_form().moves_on_line_into(&self.line, others, &mut made, |m| {
            let v = self.leaf_of(m, ply, mover);
            if v > found.0 {
                found = (v, m.pit);
            }
            v >= beta
        });
        (made.0, found)
    }

    /// The number of the moves among `among` (made at a node one ply above the leaves, from move
    /// number `ply`, by `mover`), and their best with its move after `found` (the table's move and
    /// its value, searched first), as the general walk finds it: children in the order of their
    /// evaluation (equal ones in their place) until one reaches `beta`. Each child is a leaf, whose
    /// value is its evaluation from `mover`'s side unless its game is over, its player is stuck or
    /// the databases hold it; so the values are worked out once, as the moves are made (none kept),
    /// and the nodes that walk visits are counted without sorting them: those ordered before the
    /// first child whose value reaches `beta`.
    fn last_ply(&mut self, among: u64, ply: u32, mover: Player, found: (i32, usize), beta: i32) -> (u64, (i32, usize)) {
        let mut keyed = std::mem::take(&mut self.leaf_room);
        keyed.clear();
        let mut scores = LeafScores {
            searcher: self,
            at: (ply, mover, beta),
            keyed: &mut keyed,
            last: u64::MAX,
        };
        self.fast_form().moves_on_line_into(&self.line, among, &mut scores, |_| false);
        let last = scores.last;
        let (mut best, mut best_move, mut best_key) = (found.0, found.1, 0u64);
        let mut visited = 0;
        for &(k, v, pit) in &keyed {
            if k > last {
                continue;
            }
            visited += 1;
            // The first in the walk's order of the best ones (the table's move before them all).
            if v > best || (v == best && k < best_key) {
                (best, best_move, best_key) = (v, pit, k);
            }
        }
        let made = keyed.len() as u64;
        self.leaf_room = keyed;
        self.count_nodes(visited);
        self.made_only += made - visited;
        (made, (best, best_move))
    }
}

/// The children of a node one ply above the leaves ([`Searcher::last_ply`]), scored as they are
/// made (none kept: a list written and read back was a few percent of a search; a closure a move
/// was left a call of its own).
struct LeafScores<'s, 'a, B: PackedBoard, const L: usize> {
    searcher: &'s Searcher<'a, B, L>,
    /// The node's move number, its mover and beta.
    at: (u32, Player, i32),
    /// Per move its order (evaluation above place, lowest first), its value and its move.
    keyed: &'s mut Vec<(u64, i32, usize)>,
    /// The order of the first child reaching beta (the last one the walk visits).
    last: u64,
}

impl<B: PackedBoard, const L: usize> MoveSink<B> for LeafScores<'_, '_, B, L> {
    const NEXT: bool = true;
    const FEW: bool = true;
    #[inline(always)]
    fn take(&mut self, m: FastMove<B>) {
        let (ply, mover, beta) = self.at;
        let s = self.searcher;
        let order = s.order_of(&m, mover);
        let v = match &m.ended {
            None if s.db.is_none() && m.moves_next == Some(true) => order,
            _ => s.leaf_of(&m, ply, mover),
        };
        let k = ((INF - order) as u64) << 8 | self.keyed.len() as u64;
        self.keyed.push((k, v, m.pit));
        if v >= beta && k < self.last {
            self.last = k;
        }
    }
}
