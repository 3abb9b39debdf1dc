//! Alpha-beta search (negamax form) with iterative deepening, a transposition table, move ordering
//! and a depth or time limit, for any game. Input: a game and a position with a legal move. Output:
//! the move with the best value found at the deepest completed depth, ties broken with the caller's
//! random generator, so that a depth-limited search is deterministic for a given seed.
//!
//! A move that lets the mover move again keeps the point of view: the child's value is negated only
//! when the turn passes. The table is keyed on the position without its history, so in a game with a
//! repetition rule it may reuse a value that a different history would change; for a heuristic
//! player that is the usual trade (the exact solver in [`super::solve`] does not make it).

mod packed;
mod table;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::endgame::Endgames;
use super::{DECIDED, KeyOf, evaluate, position_key};
use crate::engine::{AnySearch, FastMove, FastSearch, Game, Line, PackedBoard, Player, Position};
use table::{Bound, Entry, Spot, Table};

/// Beyond any score.
const INF: i32 = super::WIN * 4;

/// Table entries kept before the table is emptied (a few hundred MB at most).
const TABLE_LIMIT: usize = 4_000_000;

/// How deep or how long to search.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Deepest search, in plies.
    pub depth: u32,
    /// Stop starting deeper searches after this long (the move found at the deepest finished depth
    /// is played). A time limit makes the choice depend on the machine.
    pub time: Option<Duration>,
}

/// What a search found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Searched {
    /// The chosen pit.
    pub pit: usize,
    /// Its value for the player to move, in [`super::SCALE`] units per seed.
    pub score: i32,
    /// The deepest depth finished.
    pub depth: u32,
    /// Positions the search made and scored, each counted once, as an engine counts the moves it
    /// makes: the nodes it searched ([`Searched::visited`]), and the children a node made and
    /// evaluated to order its moves but never searched because an earlier one cut it off (at a
    /// node one ply above the leaves, a child's evaluation is its value as a leaf). A node whose
    /// table move cut it off made no other child, and none is counted (the general engine's walk
    /// counts as the packed walk makes); at the last depth a node one ply above the leaves makes
    /// its children one by one until one cuts it off, and searches each it makes.
    pub nodes: u64,
    /// The nodes searched: positions whose value the walk asked for (what `nodes` counted until it
    /// counted every position made), each child made only to order its siblings left out.
    pub visited: u64,
    /// Every move with its value at that depth; exact only when all scores were asked for, else an
    /// upper bound for the moves below the best.
    pub scores: Vec<(usize, i32)>,
}

struct Searcher<'a, B: PackedBoard = u128, const L: usize = 16> {
    game: &'a Game,
    /// Exact values where a position is in them.
    db: Option<&'a Endgames>,
    with_ply: bool,
    table: Table,
    /// Nodes searched.
    nodes: u64,
    /// Children made and evaluated to order a node's moves, never searched (see [`Searched::nodes`]).
    made_only: u64,
    deadline: Option<Instant>,
    aborted: bool,
    root_ply: u32,
    /// The packed form of the positions, when the game's fast form serves every line from the root.
    fast: Option<FastSearch<'a, B, L>>,
    /// The packed positions of the current line, from the root, for the repetition rule.
    line: Line<B>,
    /// The cells of south's and north's stores.
    stores: [usize; 2],
    /// The keys of packed positions.
    keys: Option<KeyOf>,
    /// Per depth left, the list a node's children are made in, kept from one node to the next (a
    /// list allocated and freed a node was about a tenth of a packed search): for the general
    /// engine's positions and for packed ones.
    rooms: Vec<Vec<Child>>,
    packed_rooms: Vec<Vec<FastMove<B>>>,
    /// Per depth left, the list a packed node's moves are ordered in.
    order_rooms: Vec<Vec<u64>>,
    /// Per depth left, the table keys of a packed node's children, in the order of its moves.
    key_rooms: Vec<Vec<u64>>,
    /// The order, value and move of each child of a packed node one ply above the leaves.
    leaf_room: Vec<(u64, i32, usize)>,
    /// Whether a node one ply above the leaves makes its moves one by one, the table's first and
    /// then in move order, until one reaches beta (else it makes them all and visits them in the
    /// order of their evaluation).
    one_by_one: bool,
}

/// A child of a general engine's node: its order, its move, its position, and its legal moves when
/// the move worked them out.
type Child = (i32, usize, Position, Option<Vec<usize>>);

/// Searches the position and returns the best move, or `None` when there is no legal move. With
/// `all_scores` every root move gets an exact value (slower; for hints).
pub fn search(game: &Game, pos: &Position, limits: Limits, all_scores: bool, rng: &mut StdRng) -> Option<Searched> {
    search_with(game, pos, limits, all_scores, rng, None)
}

/// [`search`], reading the exact value of every position in the endgame databases `db` instead of
/// searching or evaluating it: such a score is [`exact_score`], a finished game's score.
pub fn search_with(
    game: &Game,
    pos: &Position,
    limits: Limits,
    all_scores: bool,
    rng: &mut StdRng,
    db: Option<&Endgames>,
) -> Option<Searched> {
    search_ordered(game, pos, limits, all_scores, rng, db, true)
}

/// [`search_with`], with `made_one_by_one` false in the order of before (a node one ply above the
/// leaves makes all its moves and visits them in the order of their evaluation): for the tests
/// that compare the two orders' values and for measuring what making them one by one saves.
#[doc(hidden)]
pub fn search_ordered(
    game: &Game,
    pos: &Position,
    limits: Limits,
    all_scores: bool,
    rng: &mut StdRng,
    db: Option<&Endgames>,
    made_one_by_one: bool,
) -> Option<Searched> {
    let mut moves = game.legal_moves(pos);
    if moves.is_empty() {
        return None;
    }
    let mover = pos.to_move;
    if moves.len() == 1 && !all_scores {
        return Some(Searched {
            pit: moves[0],
            score: evaluate(game, pos, mover),
            depth: 0,
            nodes: 1,
            visited: 1,
            scores: vec![(moves[0], evaluate(game, pos, mover))],
        });
    }
    // Shuffled first, so that equal moves are met (and tied) in a random order.
    moves.shuffle(rng);
    let children: Vec<(usize, Position)> = moves
        .iter()
        .filter_map(|&k| {
            let mut c = pos.clone();
            game.apply(&mut c, k).ok().map(|()| (k, c))
        })
        .collect();
    // Below the root, positions are packed where the fast form serves every line (the root's own
    // children are few and keep the general engine's form), on a board of the fast form's width.
    let job = (pos, limits, all_scores, children, made_one_by_one);
    match game.fast_search(pos).filter(|_| !game.uses_choose) {
        Some(AnySearch::Narrow(f)) => search_in(game, job, rng, db, Some(f)),
        Some(AnySearch::Wide(f)) => search_in(game, job, rng, db, Some(f)),
        None => search_in::<u128, 16>(game, job, rng, db, None),
    }
}

/// [`search_with`] once the root's children are made (`job`: the root, the limits, whether every
/// move's score is asked for, the children), searching packed positions with `fast` where given.
fn search_in<B: PackedBoard, const L: usize>(
    game: &Game,
    (pos, limits, all_scores, mut children, one_by_one): (&Position, Limits, bool, Vec<(usize, Position)>, bool),
    rng: &mut StdRng,
    db: Option<&Endgames>,
    fast: Option<FastSearch<'_, B, L>>,
) -> Option<Searched> {
    let mover = pos.to_move;
    let fast = fast.and_then(|f| Some((f.pack(pos)?, f)));
    let keys = fast.as_ref().map(|_| KeyOf::new(pos));
    let (line, fast) = match fast {
        Some((cells, f)) => (f.line(cells, pos.to_move), Some(f)),
        None => (Line::empty(), None),
    };
    let mut s = Searcher {
        game,
        db,
        with_ply: game.uses_ply || game.uses_round_ply,
        table: Table::new(TABLE_LIMIT),
        nodes: 0,
        made_only: 0,
        deadline: None,
        aborted: false,
        root_ply: pos.ply,
        fast,
        line,
        stores: [Player::South, Player::North].map(|p| game.store(p) as usize),
        keys,
        rooms: Vec::new(),
        packed_rooms: Vec::new(),
        order_rooms: Vec::new(),
        key_rooms: Vec::new(),
        leaf_room: Vec::new(),
        one_by_one,
    };
    let start = Instant::now();
    let mut done: Option<(u32, Vec<(usize, i32)>)> = None;
    for depth in 1..=limits.depth.max(1) {
        // The first depth always finishes, so that there is a move to play.
        s.deadline = if depth > 1 { limits.time.map(|t| start + t) } else { None };
        // Only the last depth makes the leaves one by one: a node one ply above them stores the
        // first move reaching beta and its value, where the evaluation's order stores the best
        // move and value, which order the next depth better (made one by one at every depth,
        // Kalah's search made 5% fewer moves but visited 26% more nodes above the leaves).
        s.one_by_one = one_by_one && depth == limits.depth.max(1);
        let mut scores = Vec::with_capacity(children.len());
        let mut best = -INF;
        for (k, child) in &children {
            let alpha = if all_scores || best == -INF { -INF } else { best - 1 };
            let v = s.root_child_value(child, mover, depth - 1, alpha, INF);
            if s.aborted {
                break;
            }
            best = best.max(v);
            scores.push((*k, v));
        }
        if s.aborted {
            break;
        }
        // The next depth looks at the best moves first.
        let rank: HashMap<usize, i32> = scores.iter().copied().collect();
        children.sort_by_key(|(k, _)| std::cmp::Reverse(rank[k]));
        let decided = best >= DECIDED || scores.iter().all(|&(_, v)| v <= -DECIDED);
        done = Some((depth, scores));
        if decided || limits.time.is_some_and(|t| start.elapsed() >= t) {
            break;
        }
    }
    let (depth, scores) = done.expect("the first depth is never interrupted");
    let best = scores.iter().map(|&(_, v)| v).max().expect("at least one legal move");
    let ties: Vec<usize> = scores.iter().filter(|&&(_, v)| v == best).map(|&(k, _)| k).collect();
    let pit = ties[rng.gen_range(0..ties.len())];
    let mut scores = scores;
    scores.sort_by_key(|&(k, _)| k);
    Some(Searched {
        pit,
        score: best,
        depth,
        nodes: s.nodes + s.made_only,
        visited: s.nodes,
        scores,
    })
}

impl<B: PackedBoard, const L: usize> Searcher<'_, B, L> {
    /// The value of the root's child `child` for `mover`, who just moved into it: searched packed
    /// when the fast form serves the search.
    fn root_child_value(&mut self, child: &Position, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        let cells = match &self.fast {
            Some(f) if !child.over => f.pack(child),
            _ => None,
        };
        match cells {
            Some(cells) => self.packed_value((cells, child.to_move, child.ply), None, mover, depth, alpha, beta),
            None => self.child_value(child, None, mover, depth, alpha, beta),
        }
    }

    /// The value of the general engine's position `child` for `mover`, who just moved into it.
    /// `listed`: its legal moves, when the move to it worked them out.
    fn child_value(&mut self, child: &Position, listed: Option<&[usize]>, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        if child.to_move == mover {
            self.negamax(child, listed, depth, alpha, beta)
        } else {
            -self.negamax(child, listed, depth, -beta, -alpha)
        }
    }

    /// The value of a finished (or stuck) position for its player to move, sooner wins first.
    fn terminal(&self, pos: &Position) -> i32 {
        let v = evaluate(self.game, pos, pos.to_move);
        let distance = pos.ply.saturating_sub(self.root_ply) as i32;
        if v >= DECIDED {
            v - distance
        } else if v <= -DECIDED {
            v + distance
        } else {
            v
        }
    }

    /// Counts `n` nodes at once, as [`Self::count_node`] does one by one.
    #[inline]
    fn count_nodes(&mut self, n: u64) {
        let before = self.nodes;
        self.nodes += n;
        if before / 1024 != self.nodes / 1024 && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
    }

    /// Counts a node and tells whether the search is out of time (checked every 1,024 nodes).
    #[inline(always)]
    fn count_node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        self.aborted
    }

    /// The bound a node's value `best` is, searched between `alpha0` and `beta`.
    fn bound(best: i32, alpha0: i32, beta: i32) -> Bound {
        if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        }
    }

    /// The value of the general engine's position `pos` with no depth left, for its player to
    /// move (the node counted by the caller); `listed`: its legal moves, where known.
    fn general_leaf(&self, pos: &Position, listed: Option<&[usize]>) -> i32 {
        if pos.over {
            return self.terminal(pos);
        }
        if let Some(v) = self.db.and_then(|d| d.value(pos)).map(|v| exact_score(self.game, pos, v)) {
            return v;
        }
        if listed.map_or_else(|| self.game.legal_moves(pos).is_empty(), <[usize]>::is_empty) {
            // No move and no rule ends the game: score what each player holds.
            return self.terminal(&finished_as_is(self.game, pos));
        }
        evaluate(self.game, pos, pos.to_move)
    }

    /// Negamax over the general engine's positions (the reference the packed walk of [`packed`]
    /// agrees with, node for node); `listed`: the legal moves of `pos`, when the move to it worked
    /// them out (in a game with choices on the way, listing them is most of a node's work).
    fn negamax(&mut self, pos: &Position, listed: Option<&[usize]>, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        if self.count_node() {
            return 0;
        }
        if depth == 0 {
            return self.general_leaf(pos, listed);
        }
        if pos.over {
            return self.terminal(pos);
        }
        if let Some(v) = self.db.and_then(|d| d.value(pos)).map(|v| exact_score(self.game, pos, v)) {
            return v;
        }
        let moves = listed.map_or_else(|| self.game.legal_moves(pos), <[usize]>::to_vec);
        if moves.is_empty() {
            // No move and no rule ends the game: score what each player holds.
            return self.terminal(&finished_as_is(self.game, pos));
        }
        let key = position_key(pos, self.with_ply);
        let (entry, spot) = self.table.probe(key);
        let mut hinted = 0;
        if let Some(e) = entry {
            hinted = e.best as usize;
            if e.depth >= depth {
                match e.bound {
                    Bound::Exact => return e.value,
                    Bound::Lower => alpha = alpha.max(e.value),
                    Bound::Upper => beta = beta.min(e.value),
                }
                if alpha >= beta {
                    return e.value;
                }
            }
        }
        let mover = pos.to_move;
        if depth == 1 && self.one_by_one {
            // Its children are leaves, made one by one (the table's move first, then in move
            // order) until one reaches beta, as the packed walk makes them.
            let alpha0 = alpha;
            let (mut best, mut best_move) = (-INF, moves[0]);
            let first = moves.iter().filter(|&&k| k == hinted);
            for &k in first.chain(moves.iter().filter(|&&k| k != hinted)) {
                let mut c = pos.clone();
                self.game.apply_listed_plain(&mut c, k);
                let v = self.child_value(&c, None, mover, 0, alpha, beta);
                if self.aborted {
                    return 0;
                }
                if v > best {
                    (best, best_move) = (v, k);
                }
                alpha = alpha.max(v);
                if alpha >= beta {
                    break;
                }
            }
            let bound = Self::bound(best, alpha0, beta);
            let best_move = u32::try_from(best_move).unwrap_or(0);
            self.table.store(
                key,
                spot,
                Entry {
                    depth,
                    value: best,
                    bound,
                    best: best_move,
                },
            );
            return best;
        }
        let room = depth as usize;
        let mut children = self.rooms.get_mut(room).map(std::mem::take).unwrap_or_default();
        children.clear();
        // Children one ply above the leaves keep their moves listed on the way (each searched child
        // would list them); leaves are only asked whether they have one, which is cheaper than a
        // listing for the many never searched.
        let expanded = depth >= 2;
        children.extend(moves.iter().map(|&k| {
            let mut c = pos.clone();
            let listed = if expanded {
                self.game.apply_listed(&mut c, k)
            } else {
                self.game.apply_listed_plain(&mut c, k);
                None
            };
            (0, k, c, listed)
        }));
        for (order, k, c, _) in &mut children {
            *order = if *k == hinted { INF } else { evaluate(self.game, c, mover) };
        }
        children.sort_by_key(|(order, ..)| std::cmp::Reverse(*order));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = children[0].1;
        let mut searched = 0;
        for (_, k, child, listed) in &children {
            searched += 1;
            let v = self.child_value(child, listed.as_deref(), mover, depth - 1, alpha, beta);
            if self.aborted {
                break;
            }
            if v > best {
                best = v;
                best_move = *k;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        // The packed walk makes the table's move alone first, and no other when it cut the node off.
        if !(searched == 1 && children[0].1 == hinted && alpha >= beta) {
            self.made_only += (children.len() - searched) as u64;
        }
        if self.rooms.len() <= room {
            self.rooms.resize_with(room + 1, Vec::new);
        }
        self.rooms[room] = children;
        if self.aborted {
            return 0;
        }
        let entry = Entry {
            depth,
            value: best,
            bound: Self::bound(best, alpha0, beta),
            best: u32::try_from(best_move).unwrap_or(0),
        };
        self.table.store(key, spot, entry);
        best
    }
}

/// The score of a position whose value `v` the endgame databases give (see
/// [`super::endgame`]): what the finished game will score, for the player to move, the winner being
/// the player with more seeds.
pub fn exact_score(game: &Game, pos: &Position, v: i32) -> i32 {
    let s = game.scores(pos);
    let m = s[pos.to_move.index()] as i32 - s[pos.to_move.other().index()] as i32 + v;
    m.signum() * super::WIN + m * super::SCALE
}

/// A position where the player to move has no move and no rule says what happens: the game stops
/// and each player keeps what they hold.
pub(crate) fn finished_as_is(game: &Game, pos: &Position) -> Position {
    let mut p = pos.clone();
    let s = game.scores(&p);
    p.over = true;
    p.winner = Some(match s[0].cmp(&s[1]) {
        std::cmp::Ordering::Greater => crate::engine::Outcome::South,
        std::cmp::Ordering::Less => crate::engine::Outcome::North,
        std::cmp::Ordering::Equal => crate::engine::Outcome::Draw,
    });
    p
}
