//! Exact values where the databases keep bounds: a search with the line of play, for the first
//! cycle games of a repetition rule whose result differs between positions (see the parent
//! module's documentation).
//!
//! The question asked is "does south end at least `t` ahead?". The line of play matters only
//! within a block (a capture changes the stores, and no earlier position comes back), so the
//! search keeps the line's positions of the current block and ends a move that comes back to one
//! of them with the repetition rule's result there.
//!
//! **Cuts from the bounds.** The bounds are the values of games where every repetition of the
//! block is worth its least (`lo`) or its most (`hi`). At the first position `u` of the line's
//! block with `lo(u) >= t`, south wins: in the game where repetitions are worth the least, south
//! has a way of play that reaches an ending worth at least `t` without ever repeating (every
//! repetition is worth less than `t` there), and every position it passes has `lo >= t`, so none
//! of them is an earlier position of the line (those had `lo < t`, or the search would have
//! stopped there). Likewise north wins at the first position with `hi(u) < t`. A position a
//! capture led to starts a new block: its value depends on it alone, and is worked out once.
//!
//! **Memory.** A position's answer depends on the positions of its block on the line above it (any
//! of them the play below could come back to), so answers are kept under the position, the
//! threshold and that set of positions, in a table of at most an eighth of the memory (emptied
//! when full).

use std::collections::HashSet;
use std::hash::BuildHasherDefault;

use super::{Endgames, margin};
use crate::engine::{FastMove, FastSearch, Game, Player, Position};
use crate::keys::{KeyMap, Mixed, mix};

/// Why a search with the line of play gave up.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TooLong {
    /// Positions visited when it gave up.
    pub nodes: u64,
    /// It gave up at its deadline, not at its most positions.
    pub late: bool,
}

/// A search for exact values under a repetition rule, bounded in positions visited.
pub struct Resolver<'a> {
    at: At<'a>,
    /// The line's positions in the current block, by key.
    line: HashSet<u64, BuildHasherDefault<Mixed>>,
    /// Answers, under a mix of (position key, threshold, the line's positions above it), with
    /// that triple kept to tell two apart whose mixes meet: south reaches the threshold.
    known: KeyMap<(u64, i32, u64, bool)>,
    /// The line's positions in the current block, as a sum of their mixed keys (a set's key).
    line_key: u64,
    nodes: u64,
    max_nodes: u64,
    /// The most answers kept (an eighth of the memory).
    most_known: usize,
    /// Positions on the line now, all blocks (the recursion's depth).
    depth: usize,
    /// When to give up, if ever.
    deadline: Option<std::time::Instant>,
    /// Whether a win, and a loss, may be read from the bounds in the line's block.
    cuts: (bool, bool),
    /// Lists of moves to reuse, one a level of the search at most.
    spare: Spare,
}

/// What every position of a search reads: the rules, the databases and the fast form.
struct At<'a> {
    game: &'a Game,
    db: &'a Endgames,
    fast: Option<FastSearch<'a>>,
}

/// The longest line searched: the search recurses once a position, on a thread of a large stack
/// (`solve::deep`).
const DEEPEST: usize = 200_000;

/// Memory an answer takes in the table, with the table's own (a generous reckoning).
const BYTES_AN_ANSWER: u64 = 64;

impl<'a> Resolver<'a> {
    /// A search over `game` reading `db`, giving up past `max_nodes` positions.
    pub fn new(game: &'a Game, db: &'a Endgames, max_nodes: u64) -> Resolver<'a> {
        Resolver {
            at: At { game, db, fast: None },
            line: HashSet::default(),
            known: KeyMap::default(),
            nodes: 0,
            depth: 0,
            deadline: None,
            max_nodes,
            most_known: usize::try_from(crate::search::solve::available_memory() / 8 / BYTES_AN_ANSWER)
                .unwrap_or(usize::MAX)
                .max(1 << 20),
            cuts: (true, true),
            line_key: 0,
            spare: Spare::default(),
        }
    }

    /// South's final margin with best play after the move from `start` to `pos` (a position of
    /// the same block: coming back to `start` repeats it), given its bounds.
    pub fn south_margin_after(&mut self, start: &Position, pos: &Position, bounds: (i32, i32)) -> Result<i32, TooLong> {
        self.scan(pos, bounds, Some(start))
    }

    /// The same search, giving up at `deadline` too.
    pub fn until(mut self, deadline: Option<std::time::Instant>) -> Self {
        self.deadline = deadline;
        self
    }

    /// Positions visited so far.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// South's final margin with best play from `pos`, where play starts (or a capture led), given
    /// its bounds (south's final margins) from the databases.
    pub fn south_margin(&mut self, pos: &Position, bounds: (i32, i32)) -> Result<i32, TooLong> {
        self.scan(pos, bounds, None)
    }

    /// South's final margin from `pos` between `lo` and `hi`: the highest threshold south reaches,
    /// with `start` on the line above `pos` when given. Played on packed boards where the fast
    /// form serves every position after `pos`.
    fn scan(&mut self, pos: &Position, bounds: (i32, i32), start: Option<&Position>) -> Result<i32, TooLong> {
        let mut fresh = pos.clone();
        fresh.history = crate::engine::History::new();
        self.at.fast = FastSearch::along_lines(self.at.game, &fresh).filter(|_| self.at.game.pit_count() + 2 <= 16);
        let packed = |p: &Position| {
            let fast = self.at.fast.as_ref()?;
            Some(Packed {
                cells: fast.pack(p)?,
                to_move: p.to_move,
            })
        };
        let start_packed = start.map(packed);
        if let Some(here) = packed(&fresh)
            && start_packed.is_none_or(|s| s.is_some())
        {
            return self.scan_from(&here, bounds, start_packed.flatten().as_ref());
        }
        self.at.fast = None;
        self.scan_from(&fresh, bounds, start)
    }

    fn scan_from<P: Place>(&mut self, pos: &P, (lo, hi): (i32, i32), start: Option<&P>) -> Result<i32, TooLong> {
        // The start's bounds, and what coming back to it is worth to south, whoever moves there.
        let start = start.map(|s| {
            let back = (s.repeated(&self.at, Player::South), s.repeated(&self.at, Player::North));
            let back = (back.0.min(back.1), back.0.max(back.1));
            (s.key(), s.south_bounds(&self.at), back)
        });
        for t in (lo + 1..=hi).rev() {
            self.line.clear();
            self.line_key = 0;
            if let Some((key, (start_lo, start_hi), back)) = start {
                self.line.insert(key);
                self.line_key = mix(key);
                // The cuts stand on every position of the line lying between the bounds. The
                // start need not; a way of play the cut relies on may pass it only where coming
                // back to it keeps the cut's answer.
                self.cuts = (start_lo < t || back.0 >= t, start_hi >= t || back.1 < t);
            }
            let r = self.reaches(pos, t);
            self.cuts = (true, true);
            if r? {
                return Ok(t);
            }
        }
        Ok(lo)
    }

    /// Whether south ends at least `t` ahead from `pos` (the search keeps the line).
    fn reaches<P: Place>(&mut self, pos: &P, t: i32) -> Result<bool, TooLong> {
        self.nodes += 1;
        if self.nodes > self.max_nodes || self.depth >= DEEPEST {
            return Err(TooLong {
                nodes: self.nodes,
                late: false,
            });
        }
        if self.nodes.is_multiple_of(1 << 16) && self.deadline.is_some_and(|d| std::time::Instant::now() > d) {
            return Err(TooLong {
                nodes: self.nodes,
                late: true,
            });
        }
        let (lo, hi) = pos.south_bounds(&self.at);
        if lo >= t && self.cuts.0 {
            return Ok(true);
        }
        if hi < t && self.cuts.1 {
            return Ok(false);
        }
        let key = pos.key();
        let line_key = self.line_key;
        let slot = mix(key ^ mix(line_key.wrapping_add(t as u64)));
        if let Some(&(k, kt, kl, known)) = self.known.get(&slot)
            && (k, kt, kl) == (key, t, line_key)
        {
            return Ok(known);
        }
        self.line.insert(key);
        self.line_key = line_key.wrapping_add(mix(key));
        self.depth += 1;
        let result = self.children(pos, t);
        self.depth -= 1;
        self.line.remove(&key);
        self.line_key = line_key;
        let result = result?;
        if self.known.len() >= self.most_known {
            // Memory bounds the table, not the search: answers are found again when needed.
            self.known.clear();
        }
        self.known.insert(slot, (key, t, line_key, result));
        Ok(result)
    }

    /// Whether south reaches `t` from `pos` (on the line), from its moves: an ending decided at
    /// once first, then the others, the mover's most promising bounds first.
    fn children<P: Place>(&mut self, pos: &P, t: i32) -> Result<bool, TooLong> {
        let mover = pos.to_move();
        let south = mover == Player::South;
        let stores = pos.stores(&self.at);
        let mut moves = P::take_list(&mut self.spare);
        pos.moves(&self.at, &mut self.spare.fast, &mut moves);
        let mut open = Vec::with_capacity(moves.len());
        let mut decided = false;
        for m in moves.drain(..) {
            let ended = match &m {
                Step::Ended(margin) => Some(*margin),
                Step::To(child) if self.line.contains(&child.key()) => Some(child.repeated(&self.at, mover)),
                Step::To(_) => None,
            };
            match (ended, m) {
                (Some(m), _) if (m >= t) == south => {
                    decided = true;
                    break;
                }
                (Some(_), _) => {}
                (None, Step::To(child)) => {
                    let (lo, hi) = child.south_bounds(&self.at);
                    // South tries its highest bounds first, north its lowest.
                    let rank = if south { (-hi, -lo) } else { (lo, hi) };
                    open.push((rank, child));
                }
                (None, Step::Ended(_)) => unreachable!("an ended move has its margin"),
            }
        }
        P::give_list(&mut self.spare, moves);
        if decided {
            return Ok(south);
        }
        open.sort_by_key(|(rank, _)| *rank);
        for (_, child) in open {
            let wins = if child.stores(&self.at) != stores {
                // A capture: a new block, whose positions the line never meets again.
                let saved = (std::mem::take(&mut self.line), self.cuts, self.line_key);
                (self.cuts, self.line_key) = ((true, true), 0);
                let r = self.reaches(&child, t);
                (self.line, self.cuts, self.line_key) = saved;
                r?
            } else {
                self.reaches(&child, t)?
            };
            if wins == south {
                return Ok(south);
            }
        }
        Ok(!south)
    }
}

/// A legal move as the resolver sees it.
enum Step<P> {
    /// The game ended (by a rule other than the repetition): south's final margin.
    Ended(i32),
    /// The position it leads to.
    To(P),
}

/// Lists of moves kept for reuse.
#[derive(Default)]
struct Spare {
    packed: Vec<Vec<Step<Packed>>>,
    positions: Vec<Vec<Step<Position>>>,
    fast: Vec<FastMove>,
}

/// What the resolver needs of a position, kept as the engine's [`Position`] (any game) or packed
/// (the fast form's board and the player to move).
trait Place: Sized {
    /// Its identity, for the line and the answers.
    fn key(&self) -> u64;
    fn to_move(&self) -> Player;
    /// Seeds in the stores: a capture changes them.
    fn stores(&self, at: &At<'_>) -> [u32; 2];
    /// South's least and most final margin from here, ignoring the line (from the databases).
    fn south_bounds(&self, at: &At<'_>) -> (i32, i32);
    /// Each legal move, in order (`fast` a list to work in).
    fn moves(&self, at: &At<'_>, fast: &mut Vec<FastMove>, out: &mut Vec<Step<Self>>);
    /// South's final margin when this position ends the game as a repetition after a move by
    /// `mover`.
    fn repeated(&self, at: &At<'_>, mover: Player) -> i32;
    fn take_list(spare: &mut Spare) -> Vec<Step<Self>>;
    fn give_list(spare: &mut Spare, list: Vec<Step<Self>>);
}

impl Place for Position {
    fn key(&self) -> u64 {
        // Positions of one search share everything but the board and the turn.
        let mut h = Game::turn_key(self.to_move);
        for &c in self.board.cells.iter() {
            h = mix(h ^ u64::from(c));
        }
        h
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn stores(&self, at: &At<'_>) -> [u32; 2] {
        at.game.scores(self)
    }

    fn south_bounds(&self, at: &At<'_>) -> (i32, i32) {
        let pits = at.game.pit_count();
        let (lo, hi) = at
            .db
            .bounds_of(&self.board.cells[..pits], self.board.cells[pits], self.to_move)
            .expect("a position of the databases");
        let now = margin(at.game, self, self.to_move);
        super::for_mover((now + lo, now + hi), self.to_move == Player::South)
    }

    fn moves(&self, at: &At<'_>, _: &mut Vec<FastMove>, out: &mut Vec<Step<Self>>) {
        for k in at.game.legal_moves(self) {
            let mut child = self.clone();
            if at.game.apply(&mut child, k).is_err() {
                continue;
            }
            out.push(if child.over {
                Step::Ended(margin(at.game, &child, Player::South))
            } else {
                // The search keeps the line: the engine's own history would end the game early.
                child.history = crate::engine::History::new();
                Step::To(child)
            });
        }
    }

    fn repeated(&self, at: &At<'_>, mover: Player) -> i32 {
        let ended = at
            .game
            .ended_by_repetition(self, mover)
            .expect("the databases serve only rules that end a repetition");
        margin(at.game, &ended, Player::South)
    }

    fn take_list(spare: &mut Spare) -> Vec<Step<Self>> {
        spare.positions.pop().unwrap_or_default()
    }

    fn give_list(spare: &mut Spare, list: Vec<Step<Self>>) {
        spare.positions.push(list);
    }
}

/// A position of the fast form: every cell one byte, and the player to move.
#[derive(Debug, Clone, Copy)]
struct Packed {
    cells: u128,
    to_move: Player,
}

impl Place for Packed {
    fn key(&self) -> u64 {
        mix(self.cells as u64 ^ mix((self.cells >> 64) as u64 ^ Game::turn_key(self.to_move)))
    }

    fn to_move(&self) -> Player {
        self.to_move
    }

    fn stores(&self, at: &At<'_>) -> [u32; 2] {
        let pits = at.game.pit_count();
        [FastSearch::seeds(self.cells, pits), FastSearch::seeds(self.cells, pits + 1)]
    }

    fn south_bounds(&self, at: &At<'_>) -> (i32, i32) {
        let fast = at.fast.as_ref().expect("packed positions have a fast form");
        let pits = at.game.pit_count();
        let n: u32 = (0..pits).map(|c| FastSearch::seeds(self.cells, c)).sum();
        let (lo, hi) = at
            .db
            .bounds_ranked(n, fast.south_store(self.cells), self.to_move, at.db.ranker.rank_packed(self.cells))
            .expect("a position of the databases");
        let now = fast.margin(self.cells, self.to_move);
        super::for_mover((now + lo, now + hi), self.to_move == Player::South)
    }

    fn moves(&self, at: &At<'_>, moves: &mut Vec<FastMove>, out: &mut Vec<Step<Self>>) {
        let fast = at.fast.as_ref().expect("packed positions have a fast form");
        moves.clear();
        fast.moves(self.cells, self.to_move, moves);
        out.extend(moves.drain(..).map(|m| match m.ended {
            Some(child) => Step::Ended(margin(at.game, &child, Player::South)),
            None => Step::To(Packed {
                cells: m.cells,
                to_move: m.to_move,
            }),
        }));
    }

    fn repeated(&self, at: &At<'_>, mover: Player) -> i32 {
        let fast = at.fast.as_ref().expect("packed positions have a fast form");
        fast.position(self.cells, self.to_move).repeated(at, mover)
    }

    fn take_list(spare: &mut Spare) -> Vec<Step<Self>> {
        spare.packed.pop().unwrap_or_default()
    }

    fn give_list(spare: &mut Spare, list: Vec<Step<Self>>) {
        spare.packed.push(list);
    }
}
