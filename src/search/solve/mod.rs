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

use std::collections::HashMap;
use std::fmt;
use std::ops::Range;
use std::time::{Duration, Instant};

use super::alphabeta::finished_as_is;
use super::position_fields;
use crate::engine::{Game, Outcome, Player, Position};

mod graph;
mod history;
use graph::*;
use history::*;

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

/// What a search has done so far, reported now and then to a [`Watch`].
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Progress {
    /// Building the graph of reachable positions.
    Graph {
        /// Positions found so far.
        positions: u64,
        /// The most there can be (see [`estimate_positions`]).
        bound: f64,
    },
    /// Searching.
    Search {
        /// Nodes visited.
        nodes: u64,
        /// Entries in the table of positions with their histories.
        table: u64,
        /// The share of the search done, estimated from where it stands in the tree (see
        /// `Tree::fraction`): rough, but it moves from 0 towards 1.
        done: f64,
    },
}

/// How a caller follows a search: a report of its progress every few thousand steps, and a
/// deadline after which it gives up.
pub struct Watch<'a> {
    /// Called with the progress every 2^14 steps.
    pub report: &'a (dyn Fn(Progress) + Sync),
    /// The search gives up ([`Refusal::TooSlow`]) when it is still going at this time.
    pub deadline: Option<Instant>,
    /// Give up early ([`Refusal::Projected`]) when, after this long, the table is projected to need
    /// more than [`PROJECTION_MARGIN`] times the limit.
    pub project_after: Option<Duration>,
}

impl Watch<'_> {
    /// Reports nothing, has no deadline and never projects.
    pub const QUIET: Watch<'static> = Watch {
        report: &|_| {},
        deadline: None,
        project_after: None,
    };
}

/// Steps between two looks at the clock and two progress reports.
const WATCH_EVERY: u64 = 1 << 14;

/// The share of the memory limit above which a projected table refuses the board before it fills.
/// Below 1 because the projection falls short: `Tree::fraction` counts every subtree of a node
/// as equally large, while alpha-beta's first one, searched with the full window, is the largest,
/// so early on the search looks further along than it is (on boards that finish, the early
/// projection is about half of the table they end with).
pub const PROJECTION_MARGIN: f64 = 0.5;

/// Where a depth-first search stands: per level, the children finished and the children there
/// are. The share of the tree behind it is then `sum over levels of finished / (product of the
/// counts down to that level)` (Knuth's and Kilby's estimate of a search's progress), which treats
/// every subtree at a level as equally large.
#[derive(Debug, Default)]
struct Tree {
    levels: Vec<(u32, u32)>,
}

impl Tree {
    fn enter(&mut self, children: usize) {
        self.levels.push((0, children.max(1) as u32));
    }

    fn child_done(&mut self) {
        if let Some(l) = self.levels.last_mut() {
            l.0 += 1;
        }
    }

    fn leave(&mut self) {
        self.levels.pop();
    }

    /// The estimated share of the search done.
    fn fraction(&self) -> f64 {
        let mut weight = 1.0;
        let mut done = 0.0;
        for &(finished, count) in &self.levels {
            weight /= f64::from(count);
            done += f64::from(finished) * weight;
            if weight < 1e-300 {
                break;
            }
        }
        done.min(1.0)
    }
}

/// The clock and the reports of one search.
struct Watcher<'a> {
    watch: &'a Watch<'a>,
    started: Instant,
    limit: u64,
}

impl Watcher<'_> {
    /// Called every [`WATCH_EVERY`] nodes during the search.
    fn check(&self, nodes: u64, table: u64, tree: &Tree) -> Result<(), Refusal> {
        let done = tree.fraction();
        (self.watch.report)(Progress::Search { nodes, table, done });
        let elapsed = self.started.elapsed();
        if let Some(after) = self.watch.project_after
            && elapsed >= after
            && done >= 0.01
        {
            let projected = table as f64 / done;
            if projected > PROJECTION_MARGIN * self.limit as f64 {
                return Err(Refusal::Projected {
                    entries: projected,
                    table,
                    limit: self.limit,
                    seconds: elapsed.as_secs_f64(),
                });
            }
        }
        if self.watch.deadline.is_some_and(|d| Instant::now() >= d) {
            return Err(Refusal::TooSlow {
                seconds: elapsed.as_secs_f64(),
            });
        }
        Ok(())
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
    /// A principal variation: moves that keep the value, from the start (empty when the method
    /// does not give one).
    pub pv: Vec<usize>,
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
    /// Early in the search, its table was projected to outgrow memory by far.
    Projected {
        /// The entries the whole search is projected to need.
        entries: f64,
        /// Entries when it stopped.
        table: u64,
        /// The most entries this machine holds.
        limit: u64,
        /// Seconds searched before stopping.
        seconds: f64,
    },
    /// The search was still going at the deadline its caller gave.
    TooSlow {
        /// Seconds searched.
        seconds: f64,
    },
    /// A position has more than 256 moves (moves with choices), more than the solver's tables (one
    /// byte a move) hold.
    Choices,
    /// The full-board solver ([`super::prove`]) cannot take these rules: the reason.
    Rules(String),
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
            Refusal::Choices => write!(
                f,
                "a position has more than 256 moves (with their choices), more than the solver's tables hold"
            ),
            Refusal::Projected {
                entries,
                table,
                limit,
                seconds,
            } => write!(
                f,
                "after {seconds:.1} s the search holds {table} positions with their histories and, at the rate it \
                 is going, would need about {entries:.1e}, more than the limit of {limit} (about {:.1} GiB of memory)",
                (*limit as f64) * BYTES_PER_POSITION as f64 / f64::from(1u32 << 30)
            ),
            Refusal::TooSlow { seconds } => write!(f, "the search did not finish within {seconds:.1} s"),
            Refusal::Rules(why) => write!(f, "{why}"),
        }
    }
}

/// An upper bound on the positions of a board: the ways to place every seed in the pits and stores,
/// times two for whose turn it is.
pub fn estimate_positions(game: &Game) -> f64 {
    let cells = (2 * game.side_pits() + 2) as f64;
    let seeds = f64::from(game.total);
    // C(seeds + cells - 1, cells - 1), in floating point.
    let mut c = 1.0;
    for i in 1..cells as u64 {
        c = c * (seeds + i as f64) / i as f64;
    }
    2.0 * c
}

/// Utility scale: larger than any margin.
pub(crate) fn big(game: &Game) -> i64 {
    2 * i64::from(game.total) + 1
}

/// The utility of a finished position for `me`.
pub(crate) fn utility(game: &Game, pos: &Position, me: Player) -> i64 {
    let s = game.scores(pos);
    let margin = i64::from(s[me.index()]) - i64::from(s[me.other().index()]);
    let result = match (pos.winner, me) {
        (Some(Outcome::South), Player::South) | (Some(Outcome::North), Player::North) => 1,
        (Some(Outcome::South), Player::North) | (Some(Outcome::North), Player::South) => -1,
        _ => 0,
    };
    result * big(game) + margin
}

pub(crate) fn split(game: &Game, u: i64) -> (Value, i64) {
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

/// Packs a position's identity into one integer, for the graph's index of positions: each cell's
/// seeds in a fixed width wide enough for every seed of the game, then the number that the rest of
/// [`super::position_fields`] (whose turn, claims, closed pits, memory, rounds) was given when first
/// met, in Elias gamma code, then one bit after the last. Few positions differ in that rest (most
/// games have one per player to move), so it costs a bit or three where its fields would take dozens.
/// The cells have a fixed number and width and the gamma code is prefix-free, so two positions pack
/// alike only when their identities are equal.
struct Packer {
    cell_bits: u32,
    /// The rests met so far, in order: the first few are found by comparison, cheaper than a hash
    /// of many fields, and the others through `numbers`.
    rests: Vec<Vec<u64>>,
    numbers: HashMap<Vec<u64>, u64, std::hash::BuildHasherDefault<PackedHasher>>,
    rest: Vec<u64>,
}

/// How many of [`Packer::rests`] are looked through before its map.
const RESTS_COMPARED: usize = 8;

impl Packer {
    fn new(game: &Game) -> Packer {
        Packer {
            // Enough for every seed of the game.
            cell_bits: 32 - game.total.leading_zeros(),
            rests: Vec::new(),
            numbers: HashMap::default(),
            rest: Vec::new(),
        }
    }

    /// `pos` packed, or `None` when the code does not fit: such positions are indexed on their
    /// [`identity`] bytes instead.
    fn pack(&mut self, pos: &Position) -> Option<u128> {
        let cells = pos.board.cells.len();
        let mut key = 0u128;
        let mut used = 0u32;
        let mut field = 0usize;
        let mut fits = true;
        self.rest.clear();
        position_fields(pos, false, |x| {
            if field < cells {
                if x >> self.cell_bits != 0 || used + self.cell_bits >= 128 {
                    fits = false;
                } else if fits {
                    key |= u128::from(x) << used;
                    used += self.cell_bits;
                }
            } else {
                self.rest.push(x);
            }
            field += 1;
        });
        if !fits {
            return None;
        }
        let compared = self.rests.iter().take(RESTS_COMPARED).position(|r| *r == self.rest);
        let rest = match compared
            .map(|r| r as u64)
            .or_else(|| self.numbers.get(self.rest.as_slice()).copied())
        {
            Some(r) => r,
            None => {
                let r = self.rests.len() as u64;
                self.rests.push(self.rest.clone());
                self.numbers.insert(self.rest.clone(), r);
                r
            }
        };
        // Gamma code of rest + 1: as many zeros as its bits after the leading one, then its bits.
        let n = u128::from(rest) + 1;
        let len = 128 - n.leading_zeros();
        if used + 2 * len > 128 {
            return None;
        }
        key |= n << (used + len - 1);
        used += 2 * len - 1;
        Some(key | 1 << used)
    }
}

/// Hashes a packed identity (one `u128`) with a multiply-and-fold mix: the standard SipHash costs
/// more than the rest of a graph lookup, and these keys need no protection against chosen input.
#[derive(Default, Clone, Copy)]
struct PackedHasher(u64);

impl std::hash::Hasher for PackedHasher {
    fn finish(&self) -> u64 {
        self.0
    }

    fn write(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.write_u64(u64::from(b));
        }
    }

    fn write_u64(&mut self, x: u64) {
        let m = u128::from(self.0 ^ x) * 0x9e37_79b9_7f4a_7c15;
        self.0 = (m as u64) ^ ((m >> 64) as u64);
    }

    fn write_u128(&mut self, x: u128) {
        self.write_u64(x as u64);
        self.write_u64((x >> 64) as u64);
    }
}

type PackedMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<PackedHasher>>;

/// Runs `f` on a thread with a large stack: the searches recurse once per ply of the longest line.
pub(crate) fn deep<T: Send>(f: impl FnOnce() -> T + Send) -> T {
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
    minimax_watched(game, start, max_nodes, &Watch::QUIET)
}

/// [`minimax`], reporting its progress to `watch` and giving up at its deadline.
pub fn minimax_watched(game: &Game, start: &Position, max_nodes: u64, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    deep(|| {
        let t = Instant::now();
        let mut m = Minimax {
            game,
            path: vec![identity(start, false)],
            round: start.round,
            nodes: 0,
            max_nodes,
            tree: Tree::default(),
            // No table: nothing to project.
            watcher: Watcher {
                watch,
                started: t,
                limit: u64::MAX,
            },
        };
        m.tree.enter(game.legal_moves(start).len());
        let moves = root_moves(game, start, |child, mover| {
            let v = m.child(child, mover);
            m.tree.child_done();
            v
        })?;
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
        pv: Vec::new(),
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
    tree: Tree,
    watcher: Watcher<'a>,
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
        if self.nodes.is_multiple_of(WATCH_EVERY) {
            self.watcher.check(self.nodes, 0, &self.tree)?;
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
        self.tree.enter(moves.len());
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
            self.tree.child_done();
        }
        self.tree.leave();
        self.path.pop();
        best
    }
}

/// Strongly connected components (Tarjan's algorithm without recursion) of `n` nodes: each node's
/// component, the number of components, and the largest one's size. Node `v`'s edges are
/// `edges(v)`, and `head(e)` is where edge `e` leads, if to a node.
fn tarjan(n: usize, edges: impl Fn(usize) -> Range<usize>, head: impl Fn(usize) -> Option<u32>) -> (Vec<u32>, u64, u64) {
    const NONE: u32 = u32::MAX;
    let mut index = vec![NONE; n];
    let mut low = vec![0u32; n];
    let mut on_stack = vec![false; n];
    let mut component = vec![NONE; n];
    let mut stack: Vec<u32> = Vec::new();
    let mut counter = 0u32;
    let mut components = 0u32;
    let mut largest = 0u64;
    // Frames: (node, edges left to look at).
    let mut frames: Vec<(u32, Range<usize>)> = Vec::new();
    for root in 0..n as u32 {
        if index[root as usize] != NONE {
            continue;
        }
        frames.push((root, edges(root as usize)));
        index[root as usize] = counter;
        low[root as usize] = counter;
        counter += 1;
        stack.push(root);
        on_stack[root as usize] = true;
        while let Some((v, e)) = frames.last_mut() {
            let v = *v;
            let vi = v as usize;
            if let Some(next) = e.next() {
                let Some(w) = head(next) else { continue };
                let wi = w as usize;
                if index[wi] == NONE {
                    index[wi] = counter;
                    low[wi] = counter;
                    counter += 1;
                    stack.push(w);
                    on_stack[wi] = true;
                    frames.push((w, edges(wi)));
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
    solve_watched(game, start, limits, keys, &Watch::QUIET)
}

/// [`solve`], reporting its progress to `watch` and giving up at its deadline.
pub fn solve_watched(game: &Game, start: &Position, limits: Limits, keys: Keys, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    let estimate = estimate_positions(game);
    if estimate > 100.0 * limits.max_positions as f64 {
        return Err(Refusal::TooLarge {
            estimate,
            found: None,
            limit: limits.max_positions,
        });
    }
    let with_ply = game.uses_ply || game.uses_round_ply;
    // In a match, a repetition can end a round and set up the next: a move the graph (built with
    // repetition off) does not have. Such games, and those whose rules read the move number (a
    // position with its move number never recurs), are keyed on the whole history instead.
    let rounds_on_repetition = game.rounds.is_some() && game.uses_repeated;
    if keys == Keys::History || with_ply || rounds_on_repetition {
        deep(|| history_search(game, start, limits, with_ply, watch))
    } else {
        deep(|| graph_search(game, start, limits, watch))
    }
}

// ---------------------------------------------------------------------------------------------
// On the graph: every reachable position expanded once through the engine, then searched alone.

// ---------------------------------------------------------------------------------------------
// Through the engine, keyed on the whole history of the round.

/// Where a move leads, seen from the mover.
#[derive(Debug, Clone, Copy)]
enum Target {
    /// The game is over: the mover's utility.
    Over(i32),
    /// Another position.
    Node {
        /// Its graph id.
        id: u32,
        /// The mover moves again there.
        same: bool,
        /// The mover's utility if it was seen before in the round: what the end rules make of a
        /// repetition, or 0 (endless play) when no rule ends the game.
        repeated: i32,
    },
}

/// A utility kept in the graph, where millions of them are held: a margin is at most twice the
/// seeds, far within `i32` on any board small enough to solve.
fn narrow(u: i64) -> i32 {
    i32::try_from(u).expect("utilities of a solvable board fit in 32 bits")
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

#[cfg(test)]
mod tests {
    use super::Tree;

    #[test]
    fn the_share_done_counts_finished_subtrees_at_every_level() {
        let mut t = Tree::default();
        t.enter(2);
        assert_eq!(t.fraction(), 0.0);
        t.child_done();
        assert_eq!(t.fraction(), 0.5);
        // One of four children of the second root child done: 1/2 + 1/(2*4).
        t.enter(4);
        t.child_done();
        assert_eq!(t.fraction(), 0.625);
        t.leave();
        t.child_done();
        assert_eq!(t.fraction(), 1.0);
        // A node without children counts as one.
        t.enter(0);
        assert_eq!(t.fraction(), 1.0);
    }
}
