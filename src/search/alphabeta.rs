//! Alpha-beta search (negamax form) with iterative deepening, a transposition table, move ordering
//! and a depth or time limit, for any game. Input: a game and a position with a legal move. Output:
//! the move with the best value found at the deepest completed depth, ties broken with the caller's
//! random generator, so that a depth-limited search is deterministic for a given seed.
//!
//! A move that lets the mover move again keeps the point of view: the child's value is negated only
//! when the turn passes. The table is keyed on the position without its history, so in a game with a
//! repetition rule it may reuse a value that a different history would change; for a heuristic
//! player that is the usual trade (the exact solver in [`super::solve`] does not make it).

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::Rng;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;

use super::endgame::Endgames;
use super::{DECIDED, KeyOf, evaluate, position_key};
use crate::engine::{AnySearch, FastMove, FastSearch, Game, PackedBoard, Player, Position};

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
    /// Positions visited.
    pub nodes: u64,
    /// Every move with its value at that depth; exact only when all scores were asked for, else an
    /// upper bound for the moves below the best.
    pub scores: Vec<(usize, i32)>,
}

#[derive(Clone, Copy)]
enum Bound {
    Exact,
    Lower,
    Upper,
}

/// Keyed on [`position_key`] (a hash already), which bucket a key lands in changes nothing the search
/// reads.
type Table = crate::keys::KeyMap<Entry>;

#[derive(Clone, Copy)]
struct Entry {
    depth: u32,
    value: i32,
    bound: Bound,
    best: usize,
}

struct Searcher<'a, B: PackedBoard = u128, const L: usize = 16> {
    game: &'a Game,
    /// Exact values where a position is in them.
    db: Option<&'a Endgames>,
    with_ply: bool,
    table: Table,
    nodes: u64,
    deadline: Option<Instant>,
    aborted: bool,
    root_ply: u32,
    /// The packed form of the positions, when the game's fast form serves every line from the root.
    fast: Option<FastSearch<'a, B, L>>,
    /// The packed positions of the current line, from the root, for the repetition rule.
    line: Vec<(B, Player)>,
    /// The cells of south's and north's stores.
    stores: [usize; 2],
    /// The keys of packed positions.
    keys: Option<KeyOf>,
    /// Per depth left, the list a node's children are made in, kept from one node to the next (a
    /// list allocated and freed a node was about a tenth of a packed search): for the general
    /// engine's positions and for packed ones.
    rooms: Vec<Vec<(i32, usize, Position)>>,
    packed_rooms: Vec<Vec<(i32, usize, Packed<B>)>>,
    /// The list of a packed node's moves, kept from one node to the next.
    moves_room: Vec<FastMove<B>>,
}

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
    let job = (pos, limits, all_scores, children);
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
    (pos, limits, all_scores, mut children): (&Position, Limits, bool, Vec<(usize, Position)>),
    rng: &mut StdRng,
    db: Option<&Endgames>,
    fast: Option<FastSearch<'_, B, L>>,
) -> Option<Searched> {
    let mover = pos.to_move;
    let fast = fast.and_then(|f| Some((f.pack(pos)?, f)));
    let keys = fast.as_ref().map(|_| KeyOf::new(pos));
    let (line, fast) = match fast {
        Some((cells, f)) => (vec![(cells, pos.to_move)], Some(f)),
        None => (Vec::new(), None),
    };
    let mut s = Searcher {
        game,
        db,
        with_ply: game.uses_ply || game.uses_round_ply,
        table: Table::default(),
        nodes: 0,
        deadline: None,
        aborted: false,
        root_ply: pos.ply,
        fast,
        line,
        stores: [Player::South, Player::North].map(|p| game.store(p) as usize),
        keys,
        rooms: Vec::new(),
        packed_rooms: Vec::new(),
        moves_room: Vec::new(),
    };
    let start = Instant::now();
    let mut done: Option<(u32, Vec<(usize, i32)>)> = None;
    for depth in 1..=limits.depth.max(1) {
        // The first depth always finishes, so that there is a move to play.
        s.deadline = if depth > 1 { limits.time.map(|t| start + t) } else { None };
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
        nodes: s.nodes,
        scores,
    })
}

/// What the search needs of a position. It searches positions in one of two forms: the engine's
/// [`Position`] (any game), or [`Packed`] where the game's fast form serves every line, so that a
/// child is a few words and not a whole position. Both give the same values, keys and move
/// order, so the search visits the same nodes either way.
trait Node<B: PackedBoard, const L: usize>: Sized {
    /// The legal moves, as worked out before the children are made.
    type Moves;
    fn to_move(&self) -> Player;
    /// Its value for its player to move when known without search: a finished game, or one in
    /// the databases.
    fn known(&self, s: &Searcher<'_, B, L>) -> Option<i32>;
    /// Its legal moves, `None` when there is none; at a `leaf` only whether there is one counts.
    fn moves(&self, s: &mut Searcher<'_, B, L>, leaf: bool) -> Option<Self::Moves>;
    /// Its value when it has no legal move and no rule ends the game: each player keeps what
    /// they hold.
    fn stuck(&self, s: &Searcher<'_, B, L>) -> i32;
    /// [`evaluate`] of it for `me`.
    fn evaluate(&self, s: &Searcher<'_, B, L>, me: Player) -> i32;
    /// [`position_key`] of it.
    fn key(&self, s: &Searcher<'_, B, L>) -> u64;
    /// Its children, one for each of `moves` in order, with their moves.
    fn children(&self, s: &Searcher<'_, B, L>, moves: &mut Self::Moves, out: &mut Vec<(i32, usize, Self)>);
    /// Keeps the list `moves` (emptied by `children`) for the next node's moves, where its kind keeps one.
    fn keep_moves(_: &mut Searcher<'_, B, L>, _: Self::Moves)
    where
        Self: Sized,
    {
    }
    /// Puts it at the end of the line before it is searched (and takes it off after).
    /// The general engine's form of it when it is to be searched in that form (a game an end rule
    /// let go on: the packed search knows no such position).
    fn whole(&self) -> Option<&Position> {
        None
    }
    fn enter(&self, _: &mut Searcher<'_, B, L>) {}
    fn leave(&self, _: &mut Searcher<'_, B, L>) {}
    /// The searcher's lists for the children of nodes of its kind ([`Searcher`]'s `rooms`).
    fn rooms<'s>(s: &'s mut Searcher<'_, B, L>) -> &'s mut Vec<Vec<(i32, usize, Self)>>
    where
        Self: Sized;
}

impl<B: PackedBoard, const L: usize> Node<B, L> for Position {
    type Moves = Vec<usize>;

    fn rooms<'s>(s: &'s mut Searcher<'_, B, L>) -> &'s mut Vec<Vec<(i32, usize, Position)>> {
        &mut s.rooms
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn known(&self, s: &Searcher<'_, B, L>) -> Option<i32> {
        if self.over {
            return Some(s.terminal(self));
        }
        s.db.and_then(|d| d.value(self)).map(|v| exact_score(s.game, self, v))
    }

    fn moves(&self, s: &mut Searcher<'_, B, L>, _: bool) -> Option<Vec<usize>> {
        let moves = s.game.legal_moves(self);
        (!moves.is_empty()).then_some(moves)
    }

    fn stuck(&self, s: &Searcher<'_, B, L>) -> i32 {
        s.terminal(&finished_as_is(s.game, self))
    }

    fn evaluate(&self, s: &Searcher<'_, B, L>, me: Player) -> i32 {
        evaluate(s.game, self, me)
    }

    fn key(&self, s: &Searcher<'_, B, L>) -> u64 {
        position_key(self, s.with_ply)
    }

    fn children(&self, s: &Searcher<'_, B, L>, moves: &mut Vec<usize>, out: &mut Vec<(i32, usize, Position)>) {
        out.extend(moves.iter().filter_map(|&k| {
            let mut c = self.clone();
            s.game.apply(&mut c, k).ok()?;
            Some((0, k, c))
        }));
    }
}

/// A position of a game whose fast form serves every line of the search: its cells, one byte
/// each, whose turn and its move number; or a game a move finished, as the general engine left it.
enum Packed<B> {
    Live { cells: B, to_move: Player, ply: u32 },
    Ended(Box<Position>),
}

impl<B: PackedBoard> Packed<B> {
    fn fast<'s, const L: usize>(s: &'s Searcher<'_, B, L>) -> &'s FastSearch<'s, B, L> {
        s.fast.as_ref().expect("packed positions are searched with the fast form")
    }

    /// The general engine's form of it (for the rare positions the search reads whole).
    fn position<const L: usize>(&self, s: &Searcher<'_, B, L>) -> Position {
        match self {
            Packed::Live { cells, to_move, ply } => Self::fast(s).position_at(*cells, *to_move, *ply),
            Packed::Ended(p) => (**p).clone(),
        }
    }
}

impl<B: PackedBoard, const L: usize> Node<B, L> for Packed<B> {
    type Moves = Vec<FastMove<B>>;

    fn rooms<'s>(s: &'s mut Searcher<'_, B, L>) -> &'s mut Vec<Vec<(i32, usize, Packed<B>)>> {
        &mut s.packed_rooms
    }

    fn to_move(&self) -> Player {
        match self {
            Packed::Live { to_move, .. } => *to_move,
            Packed::Ended(p) => p.to_move,
        }
    }

    fn known(&self, s: &Searcher<'_, B, L>) -> Option<i32> {
        match self {
            Packed::Live { cells, to_move, .. } => {
                let db = s.db?;
                let fast = Self::fast(s);
                let v = fast.with_pit_seeds(*cells, |pits| db.value_of(pits, fast.south_store(*cells), *to_move))?;
                let stores = s.stores.map(|c| cells.lane(c) as i32);
                let m = stores[to_move.index()] - stores[to_move.other().index()] + v;
                Some(m.signum() * super::WIN + m * super::SCALE)
            }
            Packed::Ended(p) => Node::<B, L>::known(&**p, s),
        }
    }

    fn moves(&self, s: &mut Searcher<'_, B, L>, leaf: bool) -> Option<Vec<FastMove<B>>> {
        match self {
            Packed::Live { cells, to_move, .. } => {
                if leaf {
                    return Self::fast(s).has_moves(*cells, *to_move).then(Vec::new);
                }
                // The list of the last node's moves, emptied (a list allocated a node was a few
                // per cent of a search).
                let mut out = std::mem::take(&mut s.moves_room);
                out.clear();
                Self::fast(s).moves_on_line(&s.line, &mut out);
                if out.is_empty() {
                    s.moves_room = out;
                    return None;
                }
                Some(out)
            }
            // A finished game is known; a game an end rule let go on has no place here.
            Packed::Ended(_) => unreachable!("a packed search ends where a move ends the game"),
        }
    }

    fn stuck(&self, s: &Searcher<'_, B, L>) -> i32 {
        Node::<B, L>::stuck(&self.position(s), s)
    }

    fn evaluate(&self, s: &Searcher<'_, B, L>, me: Player) -> i32 {
        match self {
            Packed::Live { cells, .. } => super::evaluate_packed(Self::fast(s), *cells, me),
            Packed::Ended(p) => evaluate(s.game, p, me),
        }
    }

    fn key(&self, s: &Searcher<'_, B, L>) -> u64 {
        match self {
            Packed::Live { cells, to_move, ply } => {
                let keys = s.keys.as_ref().expect("packed positions are searched with their keys");
                keys.key(|c| cells.lane(c), *to_move, *ply, s.with_ply)
            }
            Packed::Ended(p) => position_key(p, s.with_ply),
        }
    }

    fn keep_moves(s: &mut Searcher<'_, B, L>, moves: Vec<FastMove<B>>) {
        s.moves_room = moves;
    }

    fn children(&self, _: &Searcher<'_, B, L>, moves: &mut Vec<FastMove<B>>, out: &mut Vec<(i32, usize, Packed<B>)>) {
        let Packed::Live { ply, .. } = self else {
            unreachable!("a finished game has no children")
        };
        out.extend(moves.drain(..).map(|m| {
            let child = match m.ended {
                Some(p) => Packed::Ended(p),
                None => Packed::Live {
                    cells: m.cells,
                    to_move: m.to_move,
                    ply: ply + 1,
                },
            };
            (0, m.pit, child)
        }));
    }

    fn whole(&self) -> Option<&Position> {
        match self {
            Packed::Ended(p) if !p.over => Some(p),
            _ => None,
        }
    }

    fn enter(&self, s: &mut Searcher<'_, B, L>) {
        if let Packed::Live { cells, to_move, .. } = self {
            s.line.push((*cells, *to_move));
        }
    }

    fn leave(&self, s: &mut Searcher<'_, B, L>) {
        if let Packed::Live { .. } = self {
            s.line.pop();
        }
    }
}

impl<B: PackedBoard, const L: usize> Searcher<'_, B, L> {
    /// The value of the root's child `child` for `mover`, who just moved into it: searched packed
    /// when the fast form serves the search.
    fn root_child_value(&mut self, child: &Position, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        let packed = match &self.fast {
            Some(f) if !child.over => f.pack(child).map(|cells| Packed::Live {
                cells,
                to_move: child.to_move,
                ply: child.ply,
            }),
            _ => None,
        };
        match packed {
            Some(p) => self.child_value(&p, mover, depth, alpha, beta),
            None => self.child_value(child, mover, depth, alpha, beta),
        }
    }

    /// The value of `child` for `mover`, who just moved into it.
    fn child_value<N: Node<B, L>>(&mut self, child: &N, mover: Player, depth: u32, alpha: i32, beta: i32) -> i32 {
        if let Some(p) = child.whole() {
            return self.child_value(p, mover, depth, alpha, beta);
        }
        child.enter(self);
        let v = if child.to_move() == mover {
            self.negamax(child, depth, alpha, beta)
        } else {
            -self.negamax(child, depth, -beta, -alpha)
        };
        child.leave(self);
        v
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

    /// Keeps a node's list of children for the next node `room` plies from the leaves.
    fn give_back<N: Node<B, L>>(&mut self, room: usize, children: Vec<(i32, usize, N)>) {
        let rooms = N::rooms(self);
        if rooms.len() <= room {
            rooms.resize_with(room + 1, Vec::new);
        }
        rooms[room] = children;
    }

    fn negamax<N: Node<B, L>>(&mut self, pos: &N, depth: u32, mut alpha: i32, mut beta: i32) -> i32 {
        self.nodes += 1;
        if self.nodes.is_multiple_of(1024) && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.aborted = true;
        }
        if self.aborted {
            return 0;
        }
        if let Some(v) = pos.known(self) {
            return v;
        }
        let Some(mut moves) = pos.moves(self, depth == 0) else {
            // No move and no rule ends the game: score what each player holds.
            return pos.stuck(self);
        };
        if depth == 0 {
            return pos.evaluate(self, pos.to_move());
        }
        let key = pos.key(self);
        let mut hinted = 0;
        if let Some(e) = self.table.get(&key) {
            hinted = e.best;
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
        let mover = pos.to_move();
        let room = depth as usize;
        let mut children = N::rooms(self).get_mut(room).map(std::mem::take).unwrap_or_default();
        children.clear();
        pos.children(self, &mut moves, &mut children);
        N::keep_moves(self, moves);
        for (order, k, c) in &mut children {
            *order = if *k == hinted { INF } else { c.evaluate(self, mover) };
        }
        children.sort_by_key(|(order, _, _)| std::cmp::Reverse(*order));
        let alpha0 = alpha;
        let mut best = -INF;
        let mut best_move = children[0].1;
        for (_, k, child) in &children {
            let v = self.child_value(child, mover, depth - 1, alpha, beta);
            if self.aborted {
                self.give_back(room, children);
                return 0;
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
        self.give_back(room, children);
        let bound = if best <= alpha0 {
            Bound::Upper
        } else if best >= beta {
            Bound::Lower
        } else {
            Bound::Exact
        };
        if self.table.len() >= TABLE_LIMIT {
            self.table.clear();
        }
        self.table.insert(
            key,
            Entry {
                depth,
                value: best,
                bound,
                best: best_move,
            },
        );
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
