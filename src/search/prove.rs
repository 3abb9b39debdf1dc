//! Exact values of full boards: MTD(f) over the engine's moves, with a transposition table of
//! bounded memory shared by the threads, enhanced transposition cut-offs, move ordering, and the
//! endgame databases ([`super::endgame`]) at the leaves. Input: a game, its start position and
//! (optionally) databases; output: a [`Solved`] with the value of every opening move and a
//! principal variation.
//!
//! **Values** are the utilities of [`super::solve`]: `result * BIG + margin` for the player to
//! move, so the search maximises the result first and then the final seed difference.
//!
//! **What it takes.** The table is keyed on [`Game::hash`] (the board and whose turn), which is a
//! position's whole identity only in games without rounds, a move number or a repetition rule: the
//! others are refused (the graph solver of [`super::solve`] keeps the history exact). A position
//! that recurs on the current line would need its history too: the search scores it as endless
//! play (a draw) and, when that ever happens, refuses its answer rather than risk a table entry
//! that holds only on one line.
//!
//! **Threads.** Each thread (rayon's pool) solves the next opening move by MTD(f), and with none
//! left helps with one still being solved; all share one table, written and read without locks: an entry is two words, the second the data
//! and the first the key xor the data, so an entry torn by two writers reads as a miss.

use std::sync::Mutex;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::time::Instant;

use super::endgame::Endgames;
use super::solve::{Progress, Refusal, Solved, Watch, big, split, utility};
use crate::engine::{FastMove, FastSearch, Game, Listed, Player, Position};
use crate::keys::mix;
use table::{Data, FILLS_BETWEEN_LOOKS, Table};

mod table;

/// Bytes per table entry.
pub const ENTRY_BYTES: u64 = 16;

/// Nodes between two looks at the clock (per thread).
const WATCH_EVERY: u64 = 1 << 15;

/// How a proof may run.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Memory for the transposition table.
    pub table_bytes: u64,
    /// Most nodes (all threads) before giving up.
    pub max_nodes: u64,
}

/// The rules this solver can take, or why not.
pub fn supported(game: &Game) -> Result<(), Refusal> {
    let why = if game.rounds.is_some() {
        "the game is a match of rounds"
    } else if game.uses_repeated {
        "a rule reads `repeated`, so a position's value depends on the positions before it"
    } else if game.uses_ply || game.uses_round_ply {
        "a rule reads the move number"
    } else if game.uses_starter {
        "a rule reads who began the game"
    } else if game.total > 10_000 {
        "the game has more than 10000 seeds"
    } else {
        return Ok(());
    };
    Err(Refusal::Rules(format!("the full-board solver cannot take this game: {why}")))
}

/// What every thread shares.
struct Shared<'a> {
    game: &'a Game,
    /// The packed form of the positions, when the game's fast form serves the whole search.
    fast: Option<FastSearch<'a>>,
    /// The cells of south's and north's stores.
    stores: [usize; 2],
    db: Option<&'a Endgames>,
    table: Table,
    nodes: AtomicU64,
    stop: AtomicBool,
    /// Set when a position recurred on a line.
    recurred: AtomicBool,
    /// Bound the value by the seeds on the board (see [`Shared::bounds`]).
    bounded: bool,
    /// Set when a move broke what the bounds stand on.
    unbounded: AtomicBool,
    pits: usize,
    big: i32,
    max_nodes: u64,
}

struct Searcher<'a> {
    s: &'a Shared<'a>,
    /// Identities of the positions on the current line.
    path: Vec<u64>,
    nodes: u64,
    /// Table slots this searcher filled and has not yet counted in [`Table::filled`].
    filled: u64,
    /// Set when another thread has given the value this searcher is after.
    quit: Option<&'a AtomicBool>,
    /// Helping another thread with the same opening move: near the top, the second move first.
    helping: bool,
    /// A node's lists, kept from one node to the next (four allocations a node were about a fifth
    /// of a packed search's instructions).
    rooms: Rooms,
}

/// A child in a node's order: its order, its place, whether its mover moves again, its known value.
type Ordered = (i32, u8, bool, Option<i32>);

/// Per depth, the lists a node fills: its children, their keys, their order; and the moves the
/// fast form makes (one list, emptied by each node that fills it).
#[derive(Default)]
struct Rooms {
    positions: Vec<Vec<Position>>,
    packed: Vec<Vec<Packed>>,
    keys: Vec<Vec<u64>>,
    order: Vec<Vec<Ordered>>,
    moves: Vec<FastMove>,
}

impl Drop for Searcher<'_> {
    fn drop(&mut self) {
        self.s.table.count_fills(self.filled);
    }
}

/// Stopped: the deadline or the node limit was reached by some thread.
struct Stop;

impl Shared<'_> {
    /// The utility of a final margin `m` in the games that are won by the player with more seeds.
    fn of_margin(&self, m: i32) -> i32 {
        m.signum() * self.big + m
    }

    /// Seeds on the board.
    fn on_board(&self, pos: &Position) -> i32 {
        pos.board.cells[..self.pits].iter().sum::<u32>() as i32
    }

    /// Bounds on the utility of a position for its player to move whose score difference (theirs
    /// minus the other's) is `margin` with `on_board` seeds on the board, in games whose seeds on
    /// the board never increase, whose stores never shrink and which the player with more seeds
    /// wins: the final margin is the margin now give or take the seeds on the board. A null window
    /// far from the margin now is then answered at once.
    fn bounds(&self, (margin, on_board): (i32, i32)) -> (i32, i32) {
        (self.of_margin(margin - on_board), self.of_margin(margin + on_board))
    }

    /// Does a move from a position with `stores` in the stores and `on_board` seeds on the board
    /// to `child` keep what [`Shared::bounds`] stands on?
    fn keeps_bounds(&self, stores: [u32; 2], on_board: i32, child: &Position) -> bool {
        let grown = (0..2).all(|p| child.board.cells[self.stores[p]] >= stores[p]);
        let by_seeds = !child.over || {
            let s = self.game.scores(child);
            let expected = match s[0].cmp(&s[1]) {
                std::cmp::Ordering::Greater => Some(crate::engine::Outcome::South),
                std::cmp::Ordering::Less => Some(crate::engine::Outcome::North),
                std::cmp::Ordering::Equal => Some(crate::engine::Outcome::Draw),
            };
            child.winner == expected
        };
        grown && by_seeds && (child.over || self.on_board(child) <= on_board)
    }

    /// The utility of a position whose value is known without search, for its player to move: a
    /// finished game, or one in the databases.
    fn leaf(&self, pos: &Position) -> Option<i32> {
        if pos.over {
            return Some(utility(self.game, pos, pos.to_move) as i32);
        }
        let v = self.db?.value(pos)?;
        let s = self.game.scores(pos);
        let m = s[pos.to_move.index()] as i32 - s[pos.to_move.other().index()] as i32 + v;
        Some(self.of_margin(m))
    }
}

/// What the search needs of a position. It keeps positions in one of two forms: the engine's
/// [`Position`] (any game), or a [`Packed`] board where the game's fast form serves, so that a
/// child is a few words and not a whole position until it is searched.
trait Node: Sized {
    fn to_move(&self) -> Player;
    /// Its identity, for the table and the line.
    fn key(&self, s: &Shared<'_>) -> u64;
    /// Its utility for its player to move when known without search: finished or in the databases.
    fn leaf(&self, s: &Shared<'_>) -> Option<i32>;
    /// The score difference for its player to move, and the seeds on the board.
    fn margin_and_board(&self, s: &Shared<'_>) -> (i32, i32);
    /// Its children, one for each legal move in order; a move that breaks what the bounds stand
    /// on is reported in `s.unbounded`.
    fn children(&self, s: &Shared<'_>, out: &mut Vec<Self>, scratch: &mut Vec<FastMove>);
    /// The lists of this kind of node kept from one node to the next, one per depth.
    fn rooms(r: &mut Rooms) -> &mut Vec<Vec<Self>>;
    /// Its utility for its player to move when it has no legal move (the game ends as it is).
    fn stuck(&self, s: &Shared<'_>) -> i32;
    /// The static evaluation for `me`, which orders the moves.
    fn evaluate(&self, s: &Shared<'_>, me: Player) -> i32;
    /// Asks the processor for what [`Node::leaf`] reads in the databases.
    fn prefetch_leaf(&self, _: &Shared<'_>) {}
}

impl Node for Position {
    fn to_move(&self) -> Player {
        self.to_move
    }

    fn key(&self, s: &Shared<'_>) -> u64 {
        s.game.hash(self)
    }

    fn leaf(&self, s: &Shared<'_>) -> Option<i32> {
        s.leaf(self)
    }

    fn margin_and_board(&self, s: &Shared<'_>) -> (i32, i32) {
        let sc = s.game.scores(self);
        (
            sc[self.to_move.index()] as i32 - sc[self.to_move.other().index()] as i32,
            s.on_board(self),
        )
    }

    fn rooms(r: &mut Rooms) -> &mut Vec<Vec<Position>> {
        &mut r.positions
    }

    fn children(&self, s: &Shared<'_>, out: &mut Vec<Position>, _: &mut Vec<FastMove>) {
        let stores = s.stores.map(|c| self.board.cells[c]);
        let on_board = s.on_board(self);
        for (_, c) in super::successors(s.game, self) {
            if s.bounded && !s.keeps_bounds(stores, on_board, &c) {
                s.unbounded.store(true, Ordering::Relaxed);
            }
            out.push(c);
        }
    }

    fn stuck(&self, s: &Shared<'_>) -> i32 {
        let ended = super::alphabeta::finished_as_is(s.game, self);
        utility(s.game, &ended, self.to_move) as i32
    }

    fn evaluate(&self, s: &Shared<'_>, me: Player) -> i32 {
        super::evaluate(s.game, self, me)
    }
}

/// A position of a game its fast form serves: the seeds of every cell, one byte each, and whose
/// turn it is; or a finished game, by its utility.
#[derive(Debug, Clone, Copy)]
struct Packed {
    cells: u128,
    to_move: Player,
    /// The utility for `to_move` of a finished game.
    over: Option<i32>,
}

impl Packed {
    fn of(cells: u128, to_move: Player) -> Packed {
        Packed {
            cells,
            to_move,
            over: None,
        }
    }

    fn store(&self, s: &Shared<'_>, p: Player) -> u32 {
        FastSearch::seeds(self.cells, s.stores[p.index()])
    }
}

impl Node for Packed {
    fn to_move(&self) -> Player {
        self.to_move
    }

    #[inline]
    fn key(&self, _: &Shared<'_>) -> u64 {
        let turn = self.to_move.index() as u64 + 1;
        mix(self.cells as u64 ^ mix((self.cells >> 64) as u64 ^ turn.wrapping_mul(0x9e37_79b9_7f4a_7c15)))
    }

    fn leaf(&self, s: &Shared<'_>) -> Option<i32> {
        if self.over.is_some() {
            return self.over;
        }
        let fast = s.fast.as_ref().expect("packed positions are searched with the fast form");
        let v = s
            .db?
            .value_of(&fast.pit_seeds(self.cells), fast.south_store(self.cells), self.to_move)?;
        Some(s.of_margin(self.margin_and_board(s).0 + v))
    }

    fn prefetch_leaf(&self, s: &Shared<'_>) {
        if let (None, Some(db)) = (self.over, s.db) {
            let fast = s.fast.as_ref().expect("packed positions are searched with the fast form");
            db.prefetch_of(&fast.pit_seeds(self.cells), fast.south_store(self.cells), self.to_move);
        }
    }

    #[inline]
    fn margin_and_board(&self, s: &Shared<'_>) -> (i32, i32) {
        let (mine, theirs) = (self.store(s, self.to_move), self.store(s, self.to_move.other()));
        (mine as i32 - theirs as i32, s.game.total as i32 - (mine + theirs) as i32)
    }

    fn rooms(r: &mut Rooms) -> &mut Vec<Vec<Packed>> {
        &mut r.packed
    }

    fn children(&self, s: &Shared<'_>, out: &mut Vec<Packed>, moves: &mut Vec<FastMove>) {
        let fast = s.fast.as_ref().expect("packed positions are searched with the fast form");
        moves.clear();
        // Listed without whether each child's player has a move (the search never reads it): worked
        // out only where a `no_moves` rule asks.
        fast.moves(self.cells, self.to_move, &mut Listed(moves));
        let stores = [self.store(s, Player::South), self.store(s, Player::North)];
        let on_board = self.margin_and_board(s).1;
        for m in moves.drain(..) {
            let child = match m.ended {
                Some(p) => {
                    if s.bounded && !s.keeps_bounds(stores, on_board, &p) {
                        s.unbounded.store(true, Ordering::Relaxed);
                    }
                    Packed {
                        cells: m.cells,
                        to_move: p.to_move,
                        over: Some(utility(s.game, &p, p.to_move) as i32),
                    }
                }
                None => {
                    let c = Packed::of(m.cells, m.to_move);
                    if s.bounded
                        && !(c.store(s, Player::South) >= stores[0]
                            && c.store(s, Player::North) >= stores[1]
                            && c.margin_and_board(s).1 <= on_board)
                    {
                        s.unbounded.store(true, Ordering::Relaxed);
                    }
                    c
                }
            };
            out.push(child);
        }
    }

    fn stuck(&self, s: &Shared<'_>) -> i32 {
        let fast = s.fast.as_ref().expect("packed positions are searched with the fast form");
        fast.position(self.cells, self.to_move).stuck(s)
    }

    fn evaluate(&self, s: &Shared<'_>, me: Player) -> i32 {
        if let Some(u) = self.over {
            // A finished game on the evaluation's scale, as `evaluate` scores it.
            let u = if me == self.to_move { u } else { -u };
            return u.saturating_mul(super::SCALE);
        }
        let fast = s.fast.as_ref().expect("packed positions are searched with the fast form");
        super::evaluate_packed(fast, self.cells, me)
    }
}

impl Searcher<'_> {
    /// The exact utility of `pos` for its player to move.
    fn mtdf<N: Node>(&mut self, pos: &N, guess: i32) -> Result<i32, Stop> {
        let inf = 2 * self.s.big;
        let (mut lower, mut upper) = (-inf, inf);
        let mut g = guess;
        while lower < upper {
            let beta = if g == lower { g + 1 } else { g };
            g = self.search(pos, beta - 1, beta)?;
            if g < beta {
                upper = g;
            } else {
                lower = g;
            }
        }
        Ok(g)
    }

    /// The utility of a move into `child` within `alpha..beta` (fail-soft), for the player who
    /// made it (`same`: who moves again).
    fn child<N: Node>(&mut self, child: &N, same: bool, alpha: i32, beta: i32) -> Result<i32, Stop> {
        if same {
            self.search(child, alpha, beta)
        } else {
            Ok(-self.search(child, -beta, -alpha)?)
        }
    }

    /// [`Searcher::child`] of a position, searched packed when the game's fast form serves it.
    fn child_position(&mut self, child: &Position, same: bool, alpha: i32, beta: i32) -> Result<i32, Stop> {
        match self.s.fast.as_ref().and_then(|f| f.pack(child)) {
            Some(cells) => self.child(&Packed::of(cells, child.to_move), same, alpha, beta),
            None => self.child(child, same, alpha, beta),
        }
    }

    /// [`Searcher::mtdf`] of a position, searched packed when the game's fast form serves it.
    fn mtdf_position(&mut self, pos: &Position, guess: i32) -> Result<i32, Stop> {
        match self.s.fast.as_ref().and_then(|f| f.pack(pos)) {
            Some(cells) => self.mtdf(&Packed::of(cells, pos.to_move), guess),
            None => self.mtdf(pos, guess),
        }
    }

    /// The utility of `pos` for its player to move within `alpha..beta` (fail-soft).
    fn search<N: Node>(&mut self, pos: &N, mut alpha: i32, mut beta: i32) -> Result<i32, Stop> {
        let s = self.s;
        self.nodes += 1;
        if self.nodes.is_multiple_of(WATCH_EVERY) {
            let all = s.nodes.fetch_add(WATCH_EVERY, Ordering::Relaxed) + WATCH_EVERY;
            if all > s.max_nodes {
                s.stop.store(true, Ordering::Relaxed);
            }
            if s.stop.load(Ordering::Relaxed) || self.quit.is_some_and(|q| q.load(Ordering::Relaxed)) {
                return Err(Stop);
            }
        }
        if let Some(v) = pos.leaf(s) {
            return Ok(v);
        }
        let h = pos.key(s);
        // Before the bounds: a recurrence met must be seen (endless play may score outside them).
        if self.path.contains(&h) {
            s.recurred.store(true, Ordering::Relaxed);
            return Ok(0);
        }
        if s.bounded {
            let (lo, hi) = s.bounds(pos.margin_and_board(s));
            if hi <= alpha {
                return Ok(hi);
            }
            if lo >= beta {
                return Ok(lo);
            }
        }
        let entry = s.table.probe(h);
        if let Some(e) = entry {
            let (lo, up) = (i32::from(e.lower), i32::from(e.upper));
            if lo >= beta || lo == up {
                return Ok(lo);
            }
            if up <= alpha {
                return Ok(up);
            }
            alpha = alpha.max(lo);
            beta = beta.min(up);
        }
        // The lists are the depth's own while its children are searched.
        let depth = self.path.len();
        if N::rooms(&mut self.rooms).len() <= depth {
            N::rooms(&mut self.rooms).resize_with(depth + 1, Vec::new);
        }
        if self.rooms.keys.len() <= depth {
            self.rooms.keys.resize_with(depth + 1, Vec::new);
            self.rooms.order.resize_with(depth + 1, Vec::new);
        }
        let mut lists = (
            std::mem::take(&mut N::rooms(&mut self.rooms)[depth]),
            std::mem::take(&mut self.rooms.keys[depth]),
            std::mem::take(&mut self.rooms.order[depth]),
        );
        let found = self.search_moves(pos, h, entry, (alpha, beta), &mut lists);
        let (moves, keys, order) = lists;
        N::rooms(&mut self.rooms)[depth] = moves;
        self.rooms.keys[depth] = keys;
        self.rooms.order[depth] = order;
        found
    }

    /// [`Searcher::search`] of `pos` (key `h`, table entry `entry`) within `alpha..beta` once its
    /// table and bounds did not answer: its children made, ordered and searched, with the lists
    /// of its depth.
    fn search_moves<N: Node>(
        &mut self,
        pos: &N,
        h: u64,
        entry: Option<Data>,
        (mut alpha, beta): (i32, i32),
        (moves, keys, children): &mut (Vec<N>, Vec<u64>, Vec<Ordered>),
    ) -> Result<i32, Stop> {
        let s = self.s;
        moves.clear();
        pos.children(s, moves, &mut self.rooms.moves);
        if moves.is_empty() {
            return Ok(pos.stuck(s));
        }
        let mover = pos.to_move();
        let hint = entry.map(|e| usize::from(e.best));
        // Every child first: their known values and the table's bounds on them may end the search
        // here (enhanced transposition cut-offs), and they order the moves.
        // Every child's bucket asked for first: the probes below then wait for memory about once a
        // node rather than once a child (the table is far larger than the caches, and a probe
        // missed them nine times in ten; perf, Kalah 5x3).
        keys.clear();
        keys.extend(moves.iter().map(|c| c.key(s)));
        for (c, &k) in moves.iter().zip(keys.iter()) {
            s.table.prefetch(k);
            c.prefetch_leaf(s);
        }
        children.clear();
        for (place, (c, &key)) in moves.iter().zip(keys.iter()).enumerate() {
            let same = c.to_move() == mover;
            let exact = c.leaf(s).map(|v| if same { v } else { -v });
            if let Some(v) = exact
                && v >= beta
            {
                return Ok(v);
            }
            if exact.is_none()
                && let Some(e) = s.table.probe(key)
            {
                let bound = if same { i32::from(e.lower) } else { -i32::from(e.upper) };
                if bound >= beta {
                    return Ok(bound);
                }
            }
            let order = if hint == Some(place) {
                i32::MAX
            } else if let Some(v) = exact {
                // Known values by what they are worth, on the evaluation's scale.
                v.saturating_mul(super::SCALE)
            } else {
                c.evaluate(s, mover) + if same { 2 * super::SCALE } else { 0 }
            };
            children.push((order, place as u8, same, exact));
        }
        children.sort_by_key(|c| std::cmp::Reverse(c.0));
        if self.helping && self.path.len() < 4 && children.len() > 1 {
            children.swap(0, 1);
        }
        self.path.push(h);
        let before = self.nodes;
        let (alpha0, beta0) = (alpha, beta);
        let mut best = i32::MIN;
        let mut best_move = 0u8;
        for &(_, place, same, exact) in children.iter() {
            let v = match exact {
                Some(v) => v,
                None => match self.child(&moves[usize::from(place)], same, alpha, beta) {
                    Ok(v) => v,
                    Err(e) => {
                        self.path.pop();
                        return Err(e);
                    }
                },
            };
            if v > best {
                best = v;
                best_move = place;
            }
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        self.path.pop();
        let mut d = entry.unwrap_or(Data {
            lower: i16::MIN,
            upper: i16::MAX,
            best: 0,
            work: 0,
        });
        d.best = best_move;
        d.work = (64 - (self.nodes - before).leading_zeros()) as u8;
        let b = best as i16;
        if best > alpha0 && best < beta0 {
            (d.lower, d.upper) = (b, b);
        } else if best >= beta0 {
            d.lower = d.lower.max(b);
        } else {
            d.upper = d.upper.min(b);
        }
        if s.table.store(h, d) {
            self.filled += 1;
            if self.filled == FILLS_BETWEEN_LOOKS {
                s.table.count_fills(std::mem::take(&mut self.filled));
            }
        }
        Ok(best)
    }

    /// Moves from `start` that keep its value `value` (for its player to move), to the end of the
    /// game or `limit` moves.
    fn variation(&mut self, start: &Position, mut value: i32, limit: usize) -> Result<Vec<usize>, Stop> {
        let game = self.s.game;
        let mut pos = start.clone();
        let mut pv = Vec::new();
        while !pos.over && pv.len() < limit {
            let mut next = None;
            for k in game.legal_moves(&pos) {
                let mut c = pos.clone();
                game.apply(&mut c, k).expect("listed moves are legal");
                let same = c.to_move == pos.to_move;
                // Does the move reach the value? A null window at it answers.
                let v = match self.s.leaf(&c) {
                    Some(v) => {
                        if same {
                            v
                        } else {
                            -v
                        }
                    }
                    None => self.child_position(&c, same, value - 1, value)?,
                };
                if v >= value {
                    next = Some((k, c, same));
                    break;
                }
            }
            let Some((k, c, same)) = next else { break };
            pv.push(k);
            if !same {
                value = -value;
            }
            pos = c;
        }
        Ok(pv)
    }
}

/// Solves `start` exactly: the value of every legal move (the threads sharing them out) and a
/// principal variation.
pub fn prove(game: &Game, start: &Position, db: Option<&Endgames>, options: Options, watch: &Watch<'_>) -> Result<Solved, Refusal> {
    supported(game)?;
    let t = Instant::now();
    let shared = Shared {
        game,
        fast: FastSearch::new(game, start),
        stores: [game.store_cell(Player::South), game.store_cell(Player::North)],
        db,
        table: Table::new(options.table_bytes)
            .map_err(|e| Refusal::Rules(format!("cannot have {} MiB for the table: {e}", options.table_bytes >> 20)))?,
        nodes: AtomicU64::new(0),
        stop: AtomicBool::new(false),
        recurred: AtomicBool::new(false),
        bounded: super::endgame::servable(game).is_ok(),
        unbounded: AtomicBool::new(false),
        pits: game.pit_count(),
        big: big(game) as i32,
        max_nodes: options.max_nodes,
    };
    let root = game.legal_moves(start);
    let done = AtomicU64::new(0);
    let pool = rayon::ThreadPoolBuilder::new()
        .stack_size(64 << 20)
        .build()
        .map_err(|e| Refusal::Rules(format!("cannot start the threads: {e}")))?;
    // The start is on every line, as the search keys it.
    let start_key = match shared.fast.as_ref().and_then(|f| f.pack(start)) {
        Some(cells) => Packed::of(cells, start.to_move).key(&shared),
        None => game.hash(start),
    };
    let searcher = |sh| Searcher {
        s: sh,
        path: vec![start_key],
        nodes: 0,
        filled: 0,
        quit: None,
        helping: false,
        rooms: Rooms::default(),
    };
    let solved: Result<Vec<(usize, i64)>, Stop> = pool.install(|| {
        std::thread::scope(|scope| {
            // The clock and the reports, while the threads search.
            let watcher = scope.spawn(|| {
                while !shared.stop.load(Ordering::Relaxed) && done.load(Ordering::Relaxed) < root.len() as u64 {
                    (watch.report)(Progress::Search {
                        nodes: shared.nodes.load(Ordering::Relaxed),
                        table: 0,
                        done: done.load(Ordering::Relaxed) as f64 / root.len().max(1) as f64,
                    });
                    if watch.deadline.is_some_and(|d| Instant::now() >= d) {
                        shared.stop.store(true, Ordering::Relaxed);
                    }
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
            });
            // Each thread takes the next opening move; with none left, it helps with one still being
            // solved (the first): the two share the table, the helper taking the second move first
            // near the top, and whichever finishes gives the value. Without help, the last long
            // opening move would run alone (Kalah(6,4): about one core of two over the search).
            let next = AtomicUsize::new(0);
            let finished: Vec<AtomicBool> = root.iter().map(|_| AtomicBool::new(false)).collect();
            let values: Vec<Mutex<Option<i64>>> = root.iter().map(|_| Mutex::new(None)).collect();
            let solve = |i: usize, helping: bool| -> Result<(), Stop> {
                let k = root[i];
                let mut w = searcher(&shared);
                w.quit = Some(&finished[i]);
                w.helping = helping;
                let mut c = start.clone();
                game.apply(&mut c, k).expect("listed moves are legal");
                let same = c.to_move == start.to_move;
                let v = match shared.leaf(&c) {
                    Some(v) => Ok(v),
                    None => w.mtdf_position(&c, 0),
                };
                shared.nodes.fetch_add(w.nodes % WATCH_EVERY, Ordering::Relaxed);
                match v {
                    Ok(v) => {
                        let mut value = values[i].lock().expect("no thread panics holding it");
                        if value.is_none() {
                            *value = Some(i64::from(if same { v } else { -v }));
                            finished[i].store(true, Ordering::Relaxed);
                            done.fetch_add(1, Ordering::Relaxed);
                        }
                        Ok(())
                    }
                    // Another thread gave this move's value first.
                    Err(Stop) if finished[i].load(Ordering::Relaxed) && !shared.stop.load(Ordering::Relaxed) => Ok(()),
                    Err(Stop) => Err(Stop),
                }
            };
            let r = pool
                .broadcast(|_| -> Result<(), Stop> {
                    loop {
                        let i = next.fetch_add(1, Ordering::Relaxed);
                        if i < root.len() {
                            solve(i, false)?;
                            continue;
                        }
                        match (0..root.len()).find(|&j| !finished[j].load(Ordering::Relaxed)) {
                            Some(j) => solve(j, true)?,
                            None => return Ok(()),
                        }
                    }
                })
                .into_iter()
                .collect::<Result<Vec<()>, Stop>>()
                .map(|_| {
                    root.iter()
                        .zip(&values)
                        .map(|(&k, v)| (k, v.lock().expect("no thread panics holding it").expect("every move solved")))
                        .collect::<Vec<_>>()
                });
            done.store(root.len() as u64, Ordering::Relaxed);
            watcher.join().expect("the clock thread does not panic");
            r
        })
    });
    let elapsed = t.elapsed().as_secs_f64();
    let nodes = shared.nodes.load(Ordering::Relaxed);
    let moves = match solved {
        Ok(m) => m,
        Err(Stop) if nodes > options.max_nodes => return Err(Refusal::TooLong { nodes }),
        Err(Stop) => return Err(Refusal::TooSlow { seconds: elapsed }),
    };
    if shared.recurred.load(Ordering::Relaxed) {
        return Err(Refusal::Rules(
            "a position recurred during the search, and the full-board solver keeps no history: use `--method alphabeta`".into(),
        ));
    }
    if shared.unbounded.load(Ordering::Relaxed) {
        return Err(Refusal::Rules(
            "a move put seeds back on the board, took seeds from a store or ended a game not won by the player with more seeds, \
             so the bounds the search used do not hold: use `--method alphabeta`"
                .into(),
        ));
    }
    let u = match moves.iter().map(|&(_, u)| u).max() {
        Some(u) => u,
        None => utility(game, &super::alphabeta::finished_as_is(game, start), start.to_move),
    };
    let pv = pool
        .install(|| searcher(&shared).variation(start, u as i32, 400))
        .unwrap_or_default();
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
        pv,
        nodes: shared.nodes.load(Ordering::Relaxed),
        positions: db.map_or(0, |d| super::endgame::positions_of(game, d.seeds())),
        components: (0, 0),
        table: shared.table.filled.load(Ordering::Relaxed),
        elapsed: t.elapsed(),
    })
}
