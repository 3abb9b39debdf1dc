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

use std::collections::{HashMap, HashSet};

use super::{Endgames, margin};
use crate::engine::{Game, Player, Position};
use crate::keys::mix;

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
    game: &'a Game,
    db: &'a Endgames,
    /// The line's positions in the current block, by hash.
    line: HashSet<u64>,
    /// Answers: (position hash, threshold, the line's positions above it) -> south reaches it.
    known: HashMap<(u64, i32, u64), bool>,
    /// The line's positions in the current block, as a sum of their mixed hashes (a set's key).
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
            game,
            db,
            line: HashSet::new(),
            known: HashMap::new(),
            nodes: 0,
            depth: 0,
            deadline: None,
            max_nodes,
            most_known: usize::try_from(crate::search::solve::available_memory() / 8 / BYTES_AN_ANSWER)
                .unwrap_or(usize::MAX)
                .max(1 << 20),
            cuts: (true, true),
            line_key: 0,
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
    /// with `start` on the line above `pos` when given.
    fn scan(&mut self, pos: &Position, (lo, hi): (i32, i32), start: Option<&Position>) -> Result<i32, TooLong> {
        let mut fresh = pos.clone();
        fresh.history = crate::engine::History::new();
        // The start's bounds, and what coming back to it is worth to south, whoever moves there.
        let start = match start {
            Some(s) => {
                let back =
                    super::repetition_worth(self.game, s, Player::South).expect("the databases serve only rules that end a repetition");
                Some((self.game.hash(s), self.south_bounds(s), back))
            }
            None => None,
        };
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
            let r = self.reaches(&fresh, t);
            self.cuts = (true, true);
            if r? {
                return Ok(t);
            }
        }
        Ok(lo)
    }

    /// South's least and most final margin at `pos` (not finished, in the databases), ignoring
    /// the line.
    fn south_bounds(&self, pos: &Position) -> (i32, i32) {
        let pits = self.game.pit_count();
        let (lo, hi) = self
            .db
            .bounds_of(&pos.board.cells[..pits], pos.board.cells[pits], pos.to_move)
            .expect("a position of the databases");
        let now = margin(self.game, pos, pos.to_move);
        super::for_mover((now + lo, now + hi), pos.to_move == Player::South)
    }

    /// Whether south ends at least `t` ahead from `pos` (its history cleared: the search keeps
    /// the line).
    fn reaches(&mut self, pos: &Position, t: i32) -> Result<bool, TooLong> {
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
        let (lo, hi) = self.south_bounds(pos);
        if lo >= t && self.cuts.0 {
            return Ok(true);
        }
        if hi < t && self.cuts.1 {
            return Ok(false);
        }
        let key = self.game.hash(pos);
        let line_key = self.line_key;
        if let Some(&known) = self.known.get(&(key, t, line_key)) {
            return Ok(known);
        }
        let stores = self.game.scores(pos);
        self.line.insert(key);
        self.line_key = line_key.wrapping_add(mix(key));
        self.depth += 1;
        let result = self.children(pos, t, stores);
        self.depth -= 1;
        let result = match result {
            Ok(r) => r,
            Err(e) => {
                self.line.remove(&key);
                self.line_key = line_key;
                return Err(e);
            }
        };
        self.line.remove(&key);
        self.line_key = line_key;
        if self.known.len() >= self.most_known {
            // Memory bounds the table, not the search: answers are found again when needed.
            self.known.clear();
        }
        self.known.insert((key, t, line_key), result);
        Ok(result)
    }

    /// Whether south reaches `t` from `pos` (on the line), from its moves: an ending decided at
    /// once first, then the others, the mover's most promising bounds first.
    fn children(&mut self, pos: &Position, t: i32, stores: [u32; 2]) -> Result<bool, TooLong> {
        let south = pos.to_move == Player::South;
        let mut open = Vec::new();
        for k in self.game.legal_moves(pos) {
            let mut child = pos.clone();
            if self.game.apply(&mut child, k).is_err() {
                continue;
            }
            let ended = if child.over {
                Some(margin(self.game, &child, Player::South))
            } else if self.line.contains(&self.game.hash(&child)) {
                let ended = self
                    .game
                    .ended_by_repetition(&child, pos.to_move)
                    .expect("the databases serve only rules that end a repetition");
                Some(margin(self.game, &ended, Player::South))
            } else {
                None
            };
            match ended {
                Some(m) if (m >= t) == south => return Ok(south),
                Some(_) => {}
                None => {
                    child.history = crate::engine::History::new();
                    let (lo, hi) = self.south_bounds(&child);
                    // South tries its highest bounds first, north its lowest.
                    let rank = if south { (-hi, -lo) } else { (lo, hi) };
                    open.push((rank, child));
                }
            }
        }
        open.sort_by_key(|(rank, _)| *rank);
        for (_, child) in open {
            let wins = if self.game.scores(&child) != stores {
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
