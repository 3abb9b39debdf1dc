//! The solver's search where the table is keyed on a position and the earlier positions of its round
//! in its strongly connected component: the graph of every reachable position built first, its
//! components found, then alpha-beta over it.

use std::collections::HashMap;
use std::time::Instant;

use super::*;

/// Millions of positions, so each is held in flat arrays rather than a structure with its own
/// allocations.
pub(super) struct Graph {
    /// Position `i`'s moves are the `count[i]` from `first[i]` in `moves`, best looking first for
    /// the mover.
    first: Vec<usize>,
    count: Vec<u16>,
    moves: Vec<(u8, Target)>,
    /// Per position: the utility for the player to move when there is no legal move (and no rule
    /// ends the game).
    stuck: Vec<i32>,
    component: Vec<u32>,
    components: u64,
    largest: u64,
}

/// Builds the graph of every position reachable from `start` with repetition off (so every way on
/// is an edge), with what a repetition would give on each edge, or refuses above `limit` positions.
pub(super) fn build_graph(game: &Game, start: &Position, limit: u64, watch: &Watch<'_>) -> Result<Graph, Refusal> {
    let started = Instant::now();
    let bound = estimate_positions(game);
    let reads_repeated = game.uses_repeated;
    let mut packer = Packer::new(game);
    let mut ids = Ids::default();
    let mut first: Vec<usize> = Vec::new();
    let mut count: Vec<u16> = Vec::new();
    let mut all_moves: Vec<(u8, Target)> = Vec::new();
    let mut stuck: Vec<i32> = Vec::new();
    // Depth first: the positions found but not yet expanded are then a few per ply of the line
    // followed, where breadth first would hold a whole level of the game, millions of positions.
    let mut queue: Vec<(u32, Position)> = Vec::new();
    let mut expanded = 0u64;
    let mut visit = |p: Position, ids: &mut Ids, queue: &mut Vec<(u32, Position)>| -> Result<u32, Refusal> {
        let next = ids.len();
        if let Some(id) = ids.get_or_insert(&p, &mut packer, next) {
            return Ok(id);
        }
        if u64::from(next) >= limit {
            return Err(Refusal::TooLarge {
                estimate: estimate_positions(game),
                found: Some(u64::from(next)),
                limit,
            });
        }
        queue.push((next, p));
        Ok(next)
    };
    let mut root = start.clone();
    root.history.clear();
    visit(root, &mut ids, &mut queue)?;
    while let Some((id, pos)) = queue.pop() {
        expanded += 1;
        if expanded.is_multiple_of(WATCH_EVERY) {
            (watch.report)(Progress::Graph {
                positions: u64::from(ids.len()),
                bound,
            });
            if watch.deadline.is_some_and(|d| Instant::now() >= d) {
                return Err(Refusal::TooSlow {
                    seconds: started.elapsed().as_secs_f64(),
                });
            }
        }
        let mover = pos.to_move;
        let mut moves: Vec<(i64, u8, Target)> = Vec::new();
        let legal = game.legal_moves(&pos);
        if legal.len() > 256 {
            // A move is kept as its place in the position's list, in a byte.
            return Err(Refusal::Choices);
        }
        for (place, k) in legal.into_iter().enumerate() {
            let mut child = pos.clone();
            // An empty history: `repeated` never holds, so every continuation is an edge.
            game.apply(&mut child, k).expect("listed moves are legal");
            let target = if child.over {
                Target::Over(narrow(utility(game, &child, mover)))
            } else {
                let repeated = if reads_repeated {
                    // The same move with the position it reaches already seen (when the game goes
                    // on, the end rules left the board as the move did, so its identity is `child`'s).
                    let mut again = pos.clone();
                    // The history ends with the position itself, as the engine expects.
                    again.history = vec![game.hash(&child), game.hash(&pos)].into();
                    game.apply(&mut again, k).expect("listed moves are legal");
                    if again.over { narrow(utility(game, &again, mover)) } else { 0 }
                } else {
                    0
                };
                let same = child.to_move == mover;
                let order = i64::from(crate::search::evaluate(game, &child, mover));
                child.history.clear();
                let id = visit(child, &mut ids, &mut queue)?;
                moves.push((order, place as u8, Target::Node { id, same, repeated }));
                continue;
            };
            let Target::Over(u) = target else { unreachable!("just built") };
            moves.push((i64::from(u).saturating_mul(i64::from(crate::search::SCALE)), place as u8, target));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        let i = id as usize;
        if first.len() <= i {
            first.resize(i + 1, 0);
            count.resize(i + 1, 0);
            stuck.resize(i + 1, 0);
        }
        if moves.is_empty() {
            stuck[i] = narrow(utility(game, &finished_as_is(game, &pos), mover));
        }
        first[i] = all_moves.len();
        count[i] = u16::try_from(moves.len()).expect("a position's moves are numbered in a byte");
        all_moves.extend(moves.into_iter().map(|(_, k, t)| (k, t)));
    }
    drop(ids);
    let edges = |v: usize| first[v]..first[v] + usize::from(count[v]);
    let (component, components, largest) = tarjan(stuck.len(), edges, |e| match all_moves[e].1 {
        Target::Node { id, .. } => Some(id),
        Target::Over(_) => None,
    });
    all_moves.shrink_to_fit();
    Ok(Graph {
        first,
        count,
        moves: all_moves,
        stuck,
        component,
        components,
        largest,
    })
}

impl Graph {
    fn len(&self) -> usize {
        self.stuck.len()
    }

    fn moves(&self, i: usize) -> &[(u8, Target)] {
        &self.moves[self.first[i]..self.first[i] + usize::from(self.count[i])]
    }
}

/// The graph's index of positions: packed into one integer where they fit (see
/// [`Packer`]), as bytes otherwise. Packed keys that fit in 64 bits are kept as such: the
/// index is looked up once per move of every position, and half the width is half the memory
/// those lookups wander through.
#[derive(Default)]
pub(super) struct Ids {
    narrow: NarrowIds,
    wide: PackedMap<u128, u32>,
    bytes: HashMap<Box<[u8]>, u32>,
}

/// The id of the position keyed `key` in `map` if it has one; otherwise gives it `next` and
/// returns `None`.
pub(super) fn id_or_insert<K: std::hash::Hash + Eq, S: std::hash::BuildHasher>(
    map: &mut HashMap<K, u32, S>,
    key: K,
    next: u32,
) -> Option<u32> {
    match map.entry(key) {
        std::collections::hash_map::Entry::Occupied(e) => Some(*e.get()),
        std::collections::hash_map::Entry::Vacant(e) => {
            e.insert(next);
            None
        }
    }
}

impl Ids {
    fn len(&self) -> u32 {
        (self.narrow.len + self.wide.len() + self.bytes.len()) as u32
    }

    /// The id of `pos` if it has one; otherwise gives it `next` and returns `None`.
    fn get_or_insert(&mut self, pos: &Position, packer: &mut Packer, next: u32) -> Option<u32> {
        match packer.pack(pos) {
            Some(key) => match u64::try_from(key) {
                Ok(key) => self.narrow.id_or_insert(key, next),
                Err(_) => id_or_insert(&mut self.wide, key, next),
            },
            None => id_or_insert(&mut self.bytes, identity(pos, false), next),
        }
    }
}

/// Packed keys of 64 bits and their ids, by open addressing with linear probing: a lookup reads
/// one place in memory where the standard map reads two (its control bytes, then its slots), and
/// this index is looked up once per move of millions of positions, each time somewhere else. A
/// packed key is never 0 (its last bit marks its end), so 0 marks an empty slot.
#[derive(Default)]
pub(super) struct NarrowIds {
    slots: Vec<(u64, u32)>,
    len: usize,
}

impl NarrowIds {
    fn slot(key: u64, mask: usize) -> usize {
        let m = u128::from(key) * 0x9e37_79b9_7f4a_7c15;
        ((m as u64) ^ ((m >> 64) as u64)) as usize & mask
    }

    /// The id of `key` if it has one; otherwise gives it `next` and returns `None`.
    fn id_or_insert(&mut self, key: u64, next: u32) -> Option<u32> {
        // At most three quarters full, so that probes stay short.
        if 4 * (self.len + 1) > 3 * self.slots.len() {
            self.grow();
        }
        let mask = self.slots.len() - 1;
        let mut i = Self::slot(key, mask);
        loop {
            match self.slots[i] {
                (0, _) => {
                    self.slots[i] = (key, next);
                    self.len += 1;
                    return None;
                }
                (k, id) if k == key => return Some(id),
                _ => i = (i + 1) & mask,
            }
        }
    }

    fn grow(&mut self) {
        let size = (2 * self.slots.len()).max(1 << 10);
        let old = std::mem::replace(&mut self.slots, vec![(0, 0); size]);
        let mask = size - 1;
        for (key, id) in old.into_iter().filter(|&(k, _)| k != 0) {
            let mut i = Self::slot(key, mask);
            while self.slots[i].0 != 0 {
                i = (i + 1) & mask;
            }
            self.slots[i] = (key, id);
        }
    }
}

pub(super) struct GraphSearch<'a> {
    graph: Graph,
    /// Table for positions with no earlier position of their component on the line (most of them):
    /// per position, its entry's index in `entries`, or `NO_ENTRY`. The search visits few of the
    /// graph's positions, so the entries themselves are kept apart.
    plain: Vec<u32>,
    entries: Vec<Entry>,
    /// Table for the others, keyed on the position and those earlier positions, sorted.
    seen: HashMap<(u32, Box<[u32]>), Entry>,
    /// The positions on the current line, the current one last, and a mark on each.
    path: Vec<u32>,
    on_path: Vec<bool>,
    nodes: u64,
    limits: Limits,
    tree: Tree,
    watcher: Watcher<'a>,
}

/// No entry yet in [`GraphSearch::plain`].
pub(super) const NO_ENTRY: u32 = u32::MAX;

pub(super) fn graph_search(game: &Game, start: &Position, limits: Limits, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    let t = Instant::now();
    let graph = build_graph(game, start, limits.max_positions, watch)?;
    let n = graph.len();
    let mut s = GraphSearch {
        graph,
        plain: vec![NO_ENTRY; n],
        entries: Vec::new(),
        seen: HashMap::new(),
        path: vec![0],
        on_path: vec![false; n],
        nodes: 0,
        limits,
        tree: Tree::default(),
        watcher: Watcher {
            watch,
            started: Instant::now(),
            limit: limits.max_positions,
        },
    };
    s.on_path[0] = true;
    let inf = 4 * big(game);
    let mut moves = Vec::new();
    let root: Vec<(u8, Target)> = s.graph.moves(0).to_vec();
    let root_moves = game.legal_moves(start);
    s.tree.enter(root.len());
    for (place, target) in root {
        moves.push((root_moves[usize::from(place)], mtdf(-inf, inf, |a, b| s.follow(target, a, b))?));
        s.tree.child_done();
    }
    moves.sort_by_key(|m| m.0);
    let table = s.entries.len() + s.seen.len();
    finish(
        game,
        start,
        moves,
        s.nodes,
        n as u64,
        (s.graph.components, s.graph.largest),
        table as u64,
        t,
    )
}

impl GraphSearch<'_> {
    /// The mover's utility of a move, within `alpha..beta`.
    fn follow(&mut self, target: Target, alpha: i64, beta: i64) -> Result<i64, Refusal> {
        match target {
            Target::Over(u) => Ok(i64::from(u)),
            Target::Node { id, repeated, .. } if self.on_path[id as usize] => Ok(i64::from(repeated)),
            Target::Node { id, same: true, .. } => self.value(id, alpha, beta),
            Target::Node { id, same: false, .. } => Ok(-self.value(id, -beta, -alpha)?),
        }
    }

    /// The utility of position `id` for its player to move, within `alpha..beta` (fail-soft);
    /// `self.path` ends with its parent.
    fn value(&mut self, id: u32, mut alpha: i64, mut beta: i64) -> Result<i64, Refusal> {
        self.nodes += 1;
        if self.nodes > self.limits.max_nodes {
            return Err(Refusal::TooLong { nodes: self.nodes });
        }
        if self.nodes.is_multiple_of(WATCH_EVERY) {
            self.watcher.check(self.nodes, self.seen.len() as u64, &self.tree)?;
        }
        let i = id as usize;
        if self.graph.moves(i).is_empty() {
            return Ok(i64::from(self.graph.stuck[i]));
        }
        // The earlier positions in this one's component: a run at the end of the line, since a line
        // that leaves a component never comes back to it.
        let c = self.graph.component[i];
        let run = self
            .path
            .iter()
            .rev()
            .take_while(|&&p| self.graph.component[p as usize] == c)
            .count();
        let key: Option<(u32, Box<[u32]>)> = (run > 0).then(|| {
            let mut seen: Vec<u32> = self.path[self.path.len() - run..].to_vec();
            seen.sort_unstable();
            (id, seen.into_boxed_slice())
        });
        let entry = match &key {
            None => (self.plain[i] != NO_ENTRY).then(|| self.entries[self.plain[i] as usize]),
            Some(k) => self.seen.get(k).copied(),
        };
        let mut first = None;
        if let Some(e) = entry {
            match e.settle(alpha, beta) {
                Ok(value) => return Ok(value),
                Err(window) => (alpha, beta) = window,
            }
            first = Some(e.best);
        }
        self.path.push(id);
        self.on_path[i] = true;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i64::MIN;
        let mut best_move = 0u8;
        let count = self.graph.moves(i).len();
        self.tree.enter(count);
        // The table's best move first, then the rest in their order.
        let hinted = first.and_then(|b| self.graph.moves(i).iter().position(|m| m.0 == b));
        for j in hinted.into_iter().chain((0..count).filter(|&j| Some(j) != hinted)) {
            let (k, target) = self.graph.moves(i)[j];
            let v = match self.follow(target, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    self.path.pop();
                    self.on_path[i] = false;
                    self.tree.leave();
                    return Err(e);
                }
            };
            self.tree.child_done();
            if v > best {
                best = v;
                best_move = k;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        self.on_path[i] = false;
        self.tree.leave();
        let mut e = entry.unwrap_or(Entry {
            lower: i64::MIN,
            upper: i64::MAX,
            best: best_move,
        });
        e.best = best_move;
        if best > alpha0 && best < beta0 {
            e.lower = best;
            e.upper = best;
        } else if best >= beta0 {
            e.lower = e.lower.max(best);
        } else {
            e.upper = e.upper.min(best);
        }
        match key {
            None if self.plain[i] == NO_ENTRY => {
                self.plain[i] = self.entries.len() as u32;
                self.entries.push(e);
            }
            None => self.entries[self.plain[i] as usize] = e,
            Some(k) => {
                if self.seen.len() as u64 >= self.limits.max_positions {
                    return Err(Refusal::TableFull {
                        positions: self.graph.len() as u64,
                        limit: self.limits.max_positions,
                    });
                }
                self.seen.insert(k, e);
            }
        }
        Ok(best)
    }
}
