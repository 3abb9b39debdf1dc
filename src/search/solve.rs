//! Exact values of small boards under the rule file's own rules, by exhaustive search. Input: a game
//! and its start position. Output: the value for the player to move (win, draw or loss) and the
//! margin in seeds when both players maximise their own final difference, with node counts.
//!
//! Independent methods check one another: [`minimax`] walks the whole game tree with no table and no
//! pruning (tiny boards only); [`solve`] is alpha-beta with a transposition table keyed as below, or,
//! with [`Keys::History`], keyed on the position and its round's whole history, which needs no
//! argument about components (and so checks that one) but finds fewer transpositions.
//!
//! **History.** With a rule on `repeated`, a position's value depends on which positions were seen
//! before in the round, so a table keyed on the position alone is unsound: the same board can be a
//! win on one path and a forced repetition on another. The solver first builds the graph of every
//! reachable position (with repetition switched off, which only adds edges) and its strongly connected
//! components. A position seen earlier in the round can only occur again below the current one if it
//! lies in the same component (it reaches the current position, being an ancestor, so it must also be
//! reachable from it). The table key is therefore the position plus the set of earlier positions of
//! the round *in its component*: everything the rest of the game can depend on, and usually empty,
//! since captures and the like lead out of a component for good. When a rule reads the move number
//! (`ply`), positions never recur as graph nodes, so the key holds the move number and every earlier
//! position of the round instead: still exact, with fewer transpositions.
//!
//! **Endless play.** When a position recurs within a round and no rule ends the game, the players
//! could repeat the cycle forever; both methods score that as a draw with margin 0.
//!
//! Values are utilities for the player to move: `result * BIG + margin`, with `result` = +1, 0, -1
//! and `BIG` larger than any margin, so maximising the utility maximises the margin whenever the
//! winner is the player with more seeds, and in a match puts the match result first.

use std::collections::{HashMap, VecDeque};
use std::fmt;
use std::time::{Duration, Instant};

use super::alphabeta::finished_as_is;
use super::position_fields;
use crate::engine::{Game, Outcome, Player, Position};

/// Rough memory per reachable position in the graph and the table, for the refusal estimate.
pub const BYTES_PER_POSITION: u64 = 256;

/// How far the solver may go.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Most positions (graph nodes, and separately table entries) to hold in memory.
    pub max_positions: u64,
    /// Most search nodes to visit before giving up.
    pub max_nodes: u64,
}

impl Limits {
    /// Limits from the memory available now: half of it, at [`BYTES_PER_POSITION`] per position.
    pub fn from_memory() -> Limits {
        Limits {
            max_positions: (available_memory() / 2 / BYTES_PER_POSITION).max(1000),
            max_nodes: 20_000_000_000,
        }
    }
}

/// Bytes of memory available (from `/proc/meminfo`; 4 GiB when it cannot be read).
pub fn available_memory() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|t| {
            t.lines()
                .find(|l| l.starts_with("MemAvailable:"))
                .and_then(|l| l.split_whitespace().nth(1))
                .and_then(|kb| kb.parse::<u64>().ok())
        })
        .map_or(4 << 30, |kb| kb * 1024)
}

/// The result for the player to move.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Value {
    /// The player to move wins with best play.
    Win,
    /// Neither can force a win.
    Draw,
    /// The other player wins with best play.
    Loss,
}

impl Value {
    /// `"win"`, `"draw"` or `"loss"`.
    pub fn word(self) -> &'static str {
        match self {
            Value::Win => "win",
            Value::Draw => "draw",
            Value::Loss => "loss",
        }
    }
}

/// An exact result.
#[derive(Debug, Clone, PartialEq)]
pub struct Solved {
    /// For the player to move.
    pub value: Value,
    /// That player's final seed difference under best play.
    pub margin: i64,
    /// The player to move at the start.
    pub to_move: Player,
    /// Each legal move at the start with its value and margin.
    pub moves: Vec<(usize, Value, i64)>,
    /// Search nodes visited.
    pub nodes: u64,
    /// Positions in the graph (0 for plain minimax).
    pub positions: u64,
    /// Strongly connected components of the graph, and the largest one's size.
    pub components: (u64, u64),
    /// Table entries at the end.
    pub table: u64,
    /// Wall time.
    pub elapsed: Duration,
}

/// Why a board was not solved.
#[derive(Debug, Clone, PartialEq)]
pub enum Refusal {
    /// More positions than memory allows.
    TooLarge {
        /// An upper bound on the positions (seed placements times whose turn).
        estimate: f64,
        /// Positions actually found before stopping, if the graph was built that far.
        found: Option<u64>,
        /// The most this machine holds.
        limit: u64,
    },
    /// The table of positions with their histories outgrew memory.
    TableFull {
        /// Positions in the graph (0 when the search went without one).
        positions: u64,
        /// The most entries this machine holds.
        limit: u64,
    },
    /// The search visited more nodes than allowed.
    TooLong {
        /// Nodes visited.
        nodes: u64,
    },
}

impl fmt::Display for Refusal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Refusal::TooLarge { estimate, found, limit } => {
                write!(f, "the board has up to {estimate:.2e} positions")?;
                if let Some(n) = found {
                    write!(f, " (more than {n} reachable ones found before stopping)")?;
                }
                write!(
                    f,
                    ", more than the limit of {limit} (about {:.1} GiB of memory at {BYTES_PER_POSITION} bytes each)",
                    (*limit as f64) * BYTES_PER_POSITION as f64 / f64::from(1u32 << 30)
                )
            }
            Refusal::TableFull { positions, limit } => {
                if *positions > 0 {
                    write!(f, "the board has {positions} reachable positions, but ")?;
                }
                write!(
                    f,
                    "the search needs more than {limit} table entries (positions with the history that matters to them), \
                     about {:.1} GiB of memory at {BYTES_PER_POSITION} bytes each",
                    (*limit as f64) * BYTES_PER_POSITION as f64 / f64::from(1u32 << 30)
                )
            }
            Refusal::TooLong { nodes } => write!(f, "the search gave up after {nodes} nodes"),
        }
    }
}

/// An upper bound on the positions of a board: the ways to place every seed in the pits and stores,
/// times two for whose turn it is.
pub fn estimate_positions(game: &Game) -> f64 {
    let cells = (2 * game.side_pits + 2) as f64;
    let seeds = f64::from(game.total);
    // C(seeds + cells - 1, cells - 1), in floating point.
    let mut c = 1.0;
    for i in 1..cells as u64 {
        c = c * (seeds + i as f64) / i as f64;
    }
    2.0 * c
}

/// Utility scale: larger than any margin.
fn big(game: &Game) -> i64 {
    2 * i64::from(game.total) + 1
}

/// The utility of a finished position for `me`.
fn utility(game: &Game, pos: &Position, me: Player) -> i64 {
    let s = game.scores(pos);
    let margin = i64::from(s[me.index()]) - i64::from(s[me.other().index()]);
    let result = match (pos.winner, me) {
        (Some(Outcome::South), Player::South) | (Some(Outcome::North), Player::North) => 1,
        (Some(Outcome::South), Player::North) | (Some(Outcome::North), Player::South) => -1,
        _ => 0,
    };
    result * big(game) + margin
}

fn split(game: &Game, u: i64) -> (Value, i64) {
    let b = big(game);
    if u > b / 2 {
        (Value::Win, u - b)
    } else if u < -b / 2 {
        (Value::Loss, u + b)
    } else {
        (Value::Draw, u)
    }
}

/// The position's identity for the graph: [`super::position_fields`] (everything but the history, and
/// the move number only when `with_ply`), as bytes.
fn identity(pos: &Position, with_ply: bool) -> Box<[u8]> {
    let mut out = Vec::with_capacity(pos.board.cells.len() + 16);
    // Each field as a variable-length number: 7 bits a byte, the high bit set on all but the last.
    position_fields(pos, with_ply, |mut x| {
        loop {
            let byte = (x & 0x7f) as u8;
            x >>= 7;
            if x == 0 {
                out.push(byte);
                break;
            }
            out.push(byte | 0x80);
        }
    });
    out.into_boxed_slice()
}

/// Runs `f` on a thread with a large stack: the searches recurse once per ply of the longest line.
fn deep<T: Send>(f: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, f)
            .expect("a search thread starts")
            .join()
            .expect("the search thread does not panic")
    })
}

/// Solves by plain minimax: the whole tree, no table, no pruning. Only tiny boards finish.
pub fn minimax(game: &Game, start: &Position, max_nodes: u64) -> Result<Solved, Refusal> {
    deep(|| {
        let t = Instant::now();
        let mut m = Minimax {
            game,
            path: vec![identity(start, false)],
            round: start.round,
            nodes: 0,
            max_nodes,
        };
        let moves = root_moves(game, start, |child, mover| m.child(child, mover))?;
        finish(game, start, moves, m.nodes, 0, (0, 0), 0, t)
    })
}

/// The exact values of every legal move at the start; `value` scores a child for the mover.
fn root_moves(
    game: &Game,
    start: &Position,
    mut value: impl FnMut(&Position, Player) -> Result<i64, Refusal>,
) -> Result<Vec<(usize, i64)>, Refusal> {
    let mut out = Vec::new();
    for k in game.legal_moves(start) {
        let mut child = start.clone();
        game.apply(&mut child, k).expect("listed moves are legal");
        out.push((k, value(&child, start.to_move)?));
    }
    Ok(out)
}

#[allow(clippy::too_many_arguments)]
fn finish(
    game: &Game,
    start: &Position,
    moves: Vec<(usize, i64)>,
    nodes: u64,
    positions: u64,
    components: (u64, u64),
    table: u64,
    t: Instant,
) -> Result<Solved, Refusal> {
    let u = match moves.iter().map(|&(_, u)| u).max() {
        Some(u) => u,
        None if start.over => utility(game, start, start.to_move),
        None => utility(game, &finished_as_is(game, start), start.to_move),
    };
    let (value, margin) = split(game, u);
    Ok(Solved {
        value,
        margin,
        to_move: start.to_move,
        moves: moves
            .into_iter()
            .map(|(k, u)| {
                let (v, m) = split(game, u);
                (k, v, m)
            })
            .collect(),
        nodes,
        positions,
        components,
        table,
        elapsed: t.elapsed(),
    })
}

struct Minimax<'a> {
    game: &'a Game,
    /// Identities of the positions of the current round on the current line, the current one last.
    path: Vec<Box<[u8]>>,
    /// The round `path` belongs to.
    round: u32,
    nodes: u64,
    max_nodes: u64,
}

impl Minimax<'_> {
    /// The utility of `child` for `mover`, who just moved into it.
    fn child(&mut self, child: &Position, mover: Player) -> Result<i64, Refusal> {
        let u = if child.round == self.round {
            self.value(child)?
        } else {
            // A new round began: what came before cannot recur.
            let saved = (std::mem::take(&mut self.path), self.round);
            self.round = child.round;
            let u = self.value(child);
            (self.path, self.round) = saved;
            u?
        };
        Ok(if child.to_move == mover { u } else { -u })
    }

    /// The utility of `pos` for its player to move; `self.path` ends with its parent.
    fn value(&mut self, pos: &Position) -> Result<i64, Refusal> {
        self.nodes += 1;
        if self.nodes > self.max_nodes {
            return Err(Refusal::TooLong { nodes: self.nodes });
        }
        if pos.over {
            return Ok(utility(self.game, pos, pos.to_move));
        }
        let id = identity(pos, false);
        if self.path.contains(&id) {
            return Ok(0);
        }
        let moves = self.game.legal_moves(pos);
        if moves.is_empty() {
            return Ok(utility(self.game, &finished_as_is(self.game, pos), pos.to_move));
        }
        self.path.push(id);
        let mut best = Ok(i64::MIN);
        for k in moves {
            let mut child = pos.clone();
            self.game.apply(&mut child, k).expect("listed moves are legal");
            match self.child(&child, pos.to_move) {
                Ok(u) => best = best.map(|b| b.max(u)),
                Err(e) => {
                    best = Err(e);
                    break;
                }
            }
        }
        self.path.pop();
        best
    }
}

/// Strongly connected components (Tarjan's algorithm without recursion): each node's component,
/// the number of components, and the largest one's size.
fn tarjan(edges: &[Vec<u32>]) -> (Vec<u32>, u64, u64) {
    const NONE: u32 = u32::MAX;
    let n = edges.len();
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut counter = 0u32;
    let mut components = 0u32;
    let mut largest = 0u64;
    // Frames: (node, next edge to look at).
    let mut frames: Vec<(u32, usize)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        frames.push((root, 0));
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some(&mut (v, ref mut e)) = frames.last_mut() {
            let vi = v as usize;
            if *e < edges[vi].len() {
                let w = edges[vi][*e];
                *e += 1;
                let wi = w as usize;
                if index[wi] == NONE {
                    index[wi] = counter;
                    low[wi] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    frames.push((w, 0));
                } else if on_stack[wi] {
                    low[vi] = low[vi].min(index[wi]);
                }
                continue;
            }
            frames.pop();
            if let Some(&(parent, _)) = frames.last() {
                low[parent as usize] = low[parent as usize].min(low[vi]);
            }
            if low[vi] == index[vi] {
                let mut size = 0u64;
                loop {
                    let w = stack.pop().expect("the component's nodes are on the stack");
                    on_stack[w as usize] = false;
                    component[w as usize] = components;
                    size += 1;
                    if w == v {
                        break;
                    }
                }
                components += 1;
                largest = largest.max(size);
            }
        }
    }
    (component, u64::from(components), largest)
}

/// What the exact solver keys its table on besides the position.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Keys {
    /// The earlier positions of the round in the position's component, on the precomputed graph
    /// (the default).
    Component,
    /// Every earlier position of the round, playing through the engine: exact without the component
    /// argument (and so a check on it), with fewer transpositions.
    History,
}

/// The exact value of `search` (a fail-soft alpha-beta search given a window) by MTD(f): a series of
/// null-window searches closing in on it from a first guess of 0, each much cheaper than one search
/// with the full window, the table carrying what they learn from one to the next.
fn mtdf(lowest: i64, highest: i64, mut search: impl FnMut(i64, i64) -> Result<i64, Refusal>) -> Result<i64, Refusal> {
    let (mut lower, mut upper) = (lowest, highest);
    let mut g = 0;
    while lower < upper {
        let beta = if g == lower { g + 1 } else { g };
        g = search(beta - 1, beta)?;
        if g < beta {
            upper = g;
        } else {
            lower = g;
        }
    }
    Ok(g)
}

/// Solves by alpha-beta with a transposition table keyed on the position and the history that can
/// still matter (see the module documentation).
pub fn solve(game: &Game, start: &Position, limits: Limits, keys: Keys) -> Result<Solved, Refusal> {
    let estimate = estimate_positions(game);
    if estimate > 100.0 * limits.max_positions as f64 {
        return Err(Refusal::TooLarge {
            estimate,
            found: None,
            limit: limits.max_positions,
        });
    }
    let with_ply = game.uses_ply;
    // In a match, a repetition can end a round and set up the next: a move the graph (built with
    // repetition off) does not have. Such games, and those whose rules read the move number (a
    // position with its move number never recurs), are keyed on the whole history instead.
    let rounds_on_repetition = game.rounds.is_some() && game.uses_repeated;
    if keys == Keys::History || with_ply || rounds_on_repetition {
        deep(|| history_search(game, start, limits, with_ply))
    } else {
        deep(|| graph_search(game, start, limits))
    }
}

// ---------------------------------------------------------------------------------------------
// On the graph: every reachable position expanded once through the engine, then searched alone.

/// Where a move leads, seen from the mover.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// The game is over: the mover's utility.
    Over(i64),
    /// Another position.
    Node {
        /// Its graph id.
        id: u32,
        /// The mover moves again there.
        same: bool,
        /// The mover's utility if it was seen before in the round: what the end rules make of a
        /// repetition, or 0 (endless play) when no rule ends the game.
        repeated: i64,
    },
}

/// A position of the graph.
struct Node {
    /// Its moves, best looking first for the mover.
    moves: Vec<(u8, Target)>,
    /// The utility for the player to move when there is no legal move (and no rule ends the game).
    stuck: i64,
}

/// Bounds on a value, and the move that set them.
#[derive(Debug, Clone, Copy)]
struct Entry {
    lower: i64,
    upper: i64,
    best: u8,
}

impl Entry {
    /// The value when these bounds settle it for the window `alpha..beta` (fail-soft); otherwise
    /// the window narrowed to what the bounds allow.
    fn settle(&self, alpha: i64, beta: i64) -> Result<i64, (i64, i64)> {
        if self.lower >= beta || self.lower == self.upper {
            return Ok(self.lower);
        }
        if self.upper <= alpha {
            return Ok(self.upper);
        }
        Err((alpha.max(self.lower), beta.min(self.upper)))
    }
}

struct Graph {
    nodes: Vec<Node>,
    component: Vec<u32>,
    components: u64,
    largest: u64,
}

/// Builds the graph of every position reachable from `start` with repetition off (so every way on
/// is an edge), with what a repetition would give on each edge, or refuses above `limit` positions.
fn build_graph(game: &Game, start: &Position, limit: u64) -> Result<Graph, Refusal> {
    let reads_repeated = game.uses_repeated;
    let mut ids: HashMap<Box<[u8]>, u32> = HashMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    // Breadth first: positions are expanded in the order their ids were given.
    let mut queue: VecDeque<Position> = VecDeque::new();
    let visit = |p: Position, ids: &mut HashMap<Box<[u8]>, u32>, queue: &mut VecDeque<Position>| -> Result<u32, Refusal> {
        let key = identity(&p, false);
        if let Some(&id) = ids.get(&key) {
            return Ok(id);
        }
        let id = ids.len() as u32;
        if u64::from(id) >= limit {
            return Err(Refusal::TooLarge {
                estimate: estimate_positions(game),
                found: Some(u64::from(id)),
                limit,
            });
        }
        ids.insert(key, id);
        queue.push_back(p);
        Ok(id)
    };
    let mut root = start.clone();
    root.history.clear();
    visit(root, &mut ids, &mut queue)?;
    while let Some(pos) = queue.pop_front() {
        let mover = pos.to_move;
        let mut moves: Vec<(i64, u8, Target)> = Vec::new();
        for k in game.legal_moves(&pos) {
            let mut child = pos.clone();
            // An empty history: `repeated` never holds, so every continuation is an edge.
            game.apply(&mut child, k).expect("listed moves are legal");
            let target = if child.over {
                Target::Over(utility(game, &child, mover))
            } else {
                let repeated = if reads_repeated {
                    // The same move with the position it reaches already seen (when the game goes
                    // on, the end rules left the board as the move did, so its identity is `child`'s).
                    let mut again = pos.clone();
                    // The history ends with the position itself, as the engine expects.
                    again.history = vec![game.hash(&child), game.hash(&pos)].into();
                    game.apply(&mut again, k).expect("listed moves are legal");
                    if again.over { utility(game, &again, mover) } else { 0 }
                } else {
                    0
                };
                let same = child.to_move == mover;
                let order = i64::from(super::evaluate(game, &child, mover));
                child.history.clear();
                let id = visit(child, &mut ids, &mut queue)?;
                moves.push((order, k as u8, Target::Node { id, same, repeated }));
                continue;
            };
            let Target::Over(u) = target else { unreachable!("just built") };
            moves.push((u.saturating_mul(i64::from(super::SCALE)), k as u8, target));
        }
        moves.sort_by_key(|m| std::cmp::Reverse(m.0));
        let stuck = if moves.is_empty() {
            utility(game, &finished_as_is(game, &pos), mover)
        } else {
            0
        };
        nodes.push(Node {
            moves: moves.into_iter().map(|(_, k, t)| (k, t)).collect(),
            stuck,
        });
    }
    let edges: Vec<Vec<u32>> = nodes
        .iter()
        .map(|n| {
            n.moves
                .iter()
                .filter_map(|(_, t)| match t {
                    Target::Node { id, .. } => Some(*id),
                    Target::Over(_) => None,
                })
                .collect()
        })
        .collect();
    let (component, components, largest) = tarjan(&edges);
    Ok(Graph {
        nodes,
        component,
        components,
        largest,
    })
}

struct GraphSearch {
    graph: Graph,
    /// Table for positions with no earlier position of their component on the line (most of them).
    plain: Vec<Option<Entry>>,
    /// Table for the others, keyed on the position and those earlier positions, sorted.
    seen: HashMap<(u32, Box<[u32]>), Entry>,
    /// The positions on the current line, the current one last, and a mark on each.
    path: Vec<u32>,
    on_path: Vec<bool>,
    nodes: u64,
    limits: Limits,
}

fn graph_search(game: &Game, start: &Position, limits: Limits) -> Result<Solved, Refusal> {
    let t = Instant::now();
    let graph = build_graph(game, start, limits.max_positions)?;
    let n = graph.nodes.len();
    let mut s = GraphSearch {
        graph,
        plain: vec![None; n],
        seen: HashMap::new(),
        path: vec![0],
        on_path: vec![false; n],
        nodes: 0,
        limits,
    };
    s.on_path[0] = true;
    let inf = 4 * big(game);
    let mut moves = Vec::new();
    let root: Vec<(u8, Target)> = s.graph.nodes[0].moves.clone();
    for (k, target) in root {
        moves.push((usize::from(k), mtdf(-inf, inf, |a, b| s.follow(target, a, b))?));
    }
    moves.sort_by_key(|m| m.0);
    let table = s.plain.iter().filter(|e| e.is_some()).count() + s.seen.len();
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

impl GraphSearch {
    /// The mover's utility of a move, within `alpha..beta`.
    fn follow(&mut self, target: Target, alpha: i64, beta: i64) -> Result<i64, Refusal> {
        match target {
            Target::Over(u) => Ok(u),
            Target::Node { id, repeated, .. } if self.on_path[id as usize] => Ok(repeated),
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
        let i = id as usize;
        if self.graph.nodes[i].moves.is_empty() {
            return Ok(self.graph.nodes[i].stuck);
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
            None => self.plain[i],
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
        let count = self.graph.nodes[i].moves.len();
        // The table's best move first, then the rest in their order.
        let hinted = first.and_then(|b| self.graph.nodes[i].moves.iter().position(|m| m.0 == b));
        for j in hinted.into_iter().chain((0..count).filter(|&j| Some(j) != hinted)) {
            let (k, target) = self.graph.nodes[i].moves[j];
            let v = match self.follow(target, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    self.path.pop();
                    self.on_path[i] = false;
                    return Err(e);
                }
            };
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
            None => self.plain[i] = Some(e),
            Some(k) => {
                if self.seen.len() as u64 >= self.limits.max_positions {
                    return Err(Refusal::TableFull {
                        positions: self.graph.nodes.len() as u64,
                        limit: self.limits.max_positions,
                    });
                }
                self.seen.insert(k, e);
            }
        }
        Ok(best)
    }
}

// ---------------------------------------------------------------------------------------------
// Through the engine, keyed on the whole history of the round.

/// The table key: a position (and its move number when a rule reads it) and the set of earlier
/// positions of its round.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
struct HistoryKey {
    id: u32,
    ply: u32,
    seen: Box<[u32]>,
}

struct HistorySearch<'a> {
    game: &'a Game,
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

fn history_search(game: &Game, start: &Position, limits: Limits, with_ply: bool) -> Result<Solved, Refusal> {
    let t = Instant::now();
    let mut s = HistorySearch {
        game,
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
    let moves = root_moves(game, start, |child, mover| mtdf(-inf, inf, |a, b| s.child(child, mover, a, b)))?;
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
                    -i64::from(super::evaluate(self.game, &c, mover))
                };
                (order, k, c)
            })
            .collect();
        children.sort_by_key(|c| c.0);
        self.path.push(id);
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i64::MIN;
        let mut best_move = 0;
        for (_, k, child) in &children {
            let v = match self.child(child, mover, alpha, beta) {
                Ok(v) => v,
                Err(e) => {
                    self.path.pop();
                    return Err(e);
                }
            };
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
        let mut e = entry.unwrap_or(Entry {
            lower: i64::MIN,
            upper: i64::MAX,
            best: 0,
        });
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
