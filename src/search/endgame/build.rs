//! Building one layer of the endgame databases (see the parent module's documentation): each block
//! is walked depth first with memory; when the walk met a cycle, the block is swept until no value
//! changes.

use std::collections::HashSet;
use std::hash::BuildHasherDefault;
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::{
    Build, BuildProgress, CHUNK, Endgames, Pair, Ranker, STORE_CHECK_EVERY, UNKNOWN, Unserved, describe, for_mover, margin,
    repetition_worth,
};
use crate::engine::{Game, Outcome, Player, Position};
use crate::keys::Mixed;

/// The deepest the walk goes in a block with a repetition rule before it values a position as
/// endless play for now.
const DEEPEST: usize = 20_000;

/// Where a move leads: what it adds to the mover's score difference, and, unless the game ends, the
/// pits, whether the mover moves again, and south's store.
type Outcome2 = (i32, Option<(Vec<u32>, bool, u32)>);

impl Endgames {
    /// Builds layer `n`, the layers below it being done: its blocks' lower values, then (with
    /// bounds) their upper ones.
    pub(super) fn build_layer(&self, game: &Game, n: u32, done: &AtomicU64, total: u64, build: &Build<'_>) -> Result<Vec<u8>, Unserved> {
        let count = self.ranker.count(n);
        let blocks = self.layout.blocks(n);
        let per_block = (2 * count) as usize;
        let mut out = vec![0u8; per_block * blocks as usize * self.layout.width() as usize];
        let pool = walk_pool()?;
        for block in 0..blocks {
            let (lo, hi) = pool.install(|| self.build_block(game, n, block, None, Some((done, total)), build))?;
            let at = block as usize * per_block;
            for (o, v) in out[at..at + per_block].iter_mut().zip(&lo) {
                *o = v.load(Ordering::Relaxed) as u8;
            }
            if self.layout.bounded {
                let at = at + blocks as usize * per_block;
                for (o, v) in out[at..at + per_block].iter_mut().zip(&hi) {
                    *o = v.load(Ordering::Relaxed) as u8;
                }
            }
        }
        Ok(out)
    }

    /// One block of layer `n` (south's store `block` when a rule reads the stores), with the
    /// position `pinned` given its values instead of worked out.
    #[allow(clippy::type_complexity)]
    fn build_block(
        &self,
        game: &Game,
        n: u32,
        block: u64,
        pinned: Option<(u64, Pair)>,
        progress: Option<(&AtomicU64, u64)>,
        build: &Build<'_>,
    ) -> Result<(Vec<AtomicI8>, Vec<AtomicI8>), Unserved> {
        let per_block = (2 * self.ranker.count(n)) as usize;
        let lo: Vec<AtomicI8> = (0..per_block).map(|_| AtomicI8::new(UNKNOWN)).collect();
        let hi: Vec<AtomicI8> = if self.layout.bounded {
            (0..per_block).map(|_| AtomicI8::new(UNKNOWN)).collect()
        } else {
            Vec::new()
        };
        let mut template = game.initial(None);
        template.history.clear();
        let taken = game.total - n;
        let south = if self.layout.by_stores { block as u32 } else { taken / 2 };
        let slots = self.layout.pits;
        // Links for blocks of up to 2^31 positions; larger ones are swept by playing the moves.
        let linkable = self.layout.bounded && (per_block as u64) < 1 << 31;
        let links: Vec<AtomicU32> = if linkable {
            (0..per_block * slots).map(|_| AtomicU32::new(u32::MAX)).collect()
        } else {
            Vec::new()
        };
        let exits: Vec<AtomicU16> = if linkable {
            (0..per_block).map(|_| AtomicU16::new(NO_EXIT)).collect()
        } else {
            Vec::new()
        };
        let mut plan = Plan {
            eg: self,
            game,
            n,
            count: self.ranker.count(n),
            south,
            north: taken - south,
            lo: &lo,
            hi: &hi,
            template: &template,
            endless: (0, 0),
            cyclic: AtomicBool::new(false),
            pinned,
            links,
            exits,
            linked: AtomicBool::new(linkable),
        };
        if self.layout.bounded {
            plan.endless = plan.repetition_range(build)?;
        }
        plan.chunks(build, progress, |w, i, cells, side| w.solve(cells, side, i).map(|_| ()))?;
        if plan.cyclic.load(Ordering::Relaxed) {
            // Sweep until a whole sweep changes nothing.
            if plan.linked.load(Ordering::Relaxed) {
                while plan.sweep_links(build)? {
                    continue;
                }
            } else {
                while plan.sweep(build)? {
                    continue;
                }
            }
        }
        Ok((lo, hi))
    }

    /// For the moves from `start` (a position of the databases where play starts): the values of
    /// the positions of its block as they are once `start` has been played, so that coming back
    /// to it repeats it. `None` when `start` is not in the databases.
    pub fn after_start(&self, game: &Game, start: &Position) -> Result<Option<AfterStart>, Unserved> {
        let pits = self.layout.pits;
        let cells = &start.board.cells[..pits];
        let n: u32 = cells.iter().sum();
        let Some(block) = self.layout.block(n, start.board.cells[pits]) else {
            return Ok(None);
        };
        if n > self.seeds() || start.over {
            return Ok(None);
        }
        let side = start.to_move.index();
        let index = side as u64 * self.ranker.count(n) + self.ranker.rank(cells);
        let worth = if self.layout.bounded {
            let now = margin(game, start, start.to_move);
            let (least, most) = repetition_worth(game, start, start.to_move)?;
            (least - now, most - now)
        } else {
            // No repetition rule: play never comes back to `start` (the walk refuses cycles).
            (0, 0)
        };
        let stop = AtomicBool::new(false);
        let quiet = Build {
            dir: None,
            report: &|_| {},
            stop: &stop,
        };
        let (lo, hi) = walk_pool()?.install(|| self.build_block(game, n, block, Some((index, worth)), None, &quiet))?;
        Ok(Some(AfterStart {
            n,
            south: start.board.cells[pits],
            lo: lo.into_iter().map(AtomicI8::into_inner).collect(),
            hi: hi.into_iter().map(AtomicI8::into_inner).collect(),
        }))
    }
}

/// Threads for building blocks: the depth-first walk within a block recurses once per move that
/// keeps every seed.
fn walk_pool() -> Result<rayon::ThreadPool, Unserved> {
    rayon::ThreadPoolBuilder::new()
        .stack_size(256 << 20)
        .build()
        .map_err(|e| Unserved::Io(format!("cannot start the threads: {e}")))
}

/// The values of a block once its start has been played (see [`Endgames::after_start`]).
pub struct AfterStart {
    n: u32,
    south: u32,
    lo: Vec<i8>,
    hi: Vec<i8>,
}

impl AfterStart {
    /// The least and the most `pos` (a position of the block, reached from the start) is worth to
    /// its player to move; `None` for a position of another block.
    pub fn bounds(&self, eg: &Endgames, pos: &Position) -> Option<(i32, i32)> {
        let pits = eg.layout.pits;
        let cells = &pos.board.cells[..pits];
        if pos.over || cells.iter().sum::<u32>() != self.n || pos.board.cells[pits] != self.south {
            return None;
        }
        let i = (pos.to_move.index() as u64 * eg.ranker.count(self.n) + eg.ranker.rank(cells)) as usize;
        let lo = i32::from(self.lo[i]);
        Some((lo, self.hi.get(i).map_or(lo, |&h| i32::from(h))))
    }
}

/// One block of a layer: the seeds taken split as `south` and `north`.
struct Plan<'a> {
    eg: &'a Endgames,
    game: &'a Game,
    n: u32,
    count: u64,
    south: u32,
    north: u32,
    lo: &'a [AtomicI8],
    /// Empty without bounds: the upper values are the lower ones.
    hi: &'a [AtomicI8],
    template: &'a Position,
    /// What a repetition in this block adds to south's score difference, at least and at most.
    endless: (i32, i32),
    /// The walk came back to a position of the block it was still working out.
    cyclic: AtomicBool,
    /// A position whose values are given, not worked out.
    pinned: Option<(u64, Pair)>,
    /// With a repetition rule: per position, its moves that stay in the block (`pits` slots, the
    /// successor's index with the top bit set when the mover moves again, `u32::MAX` after the
    /// last), recorded by the walk so that a sweep reads values instead of playing moves again.
    links: Vec<AtomicU32>,
    /// Per position, the best of its moves that leave the block, as two bytes (least, most).
    exits: Vec<AtomicU16>,
    /// Every position's links are recorded: no move stays in the block with seeds taken.
    linked: AtomicBool,
}

/// No move leaves the block (both bytes `i8::MIN`).
const NO_EXIT: u16 = 0x8080;

impl Plan<'_> {
    /// Runs `each` on every position of the block (index, pits, side to move), in chunks on the
    /// pool's threads, stopping at the first error.
    fn chunks(
        &self,
        build: &Build<'_>,
        progress: Option<(&AtomicU64, u64)>,
        each: impl Fn(&mut Worker<'_>, u64, &[u32], usize) -> Result<(), Unserved> + Sync,
    ) -> Result<(), Unserved> {
        let count = self.count;
        (0..(2 * count).div_ceil(CHUNK)).into_par_iter().try_for_each(|c| {
            if build.stop.load(Ordering::Relaxed) {
                return Err(Unserved::Stopped);
            }
            let mut w = Worker {
                plan: self,
                stack: HashSet::default(),
            };
            let from = c * CHUNK;
            let to = (from + CHUNK).min(2 * count);
            let mut cells = vec![0u32; self.eg.layout.pits];
            let mut bars = vec![0usize; self.eg.layout.pits - 1];
            self.eg.ranker.bars(self.n, from % count, &mut bars);
            for i in from..to {
                if i == count {
                    // North's half starts again from the first placement.
                    self.eg.ranker.bars(self.n, 0, &mut bars);
                }
                Ranker::cells_of(self.n, &bars, &mut cells);
                each(&mut w, i, &cells, usize::from(i >= count))?;
                Ranker::next_bars(self.n, &mut bars);
            }
            if let Some((done, total)) = progress {
                let d = done.fetch_add(to - from, Ordering::Relaxed) + to - from;
                (build.report)(BuildProgress {
                    done: d,
                    total,
                    layer: self.n,
                });
            }
            Ok(())
        })
    }

    /// The least and the most a repetition adds to south's score difference at a position of the
    /// block, whoever made the move that repeated it.
    fn repetition_range(&self, build: &Build<'_>) -> Result<(i32, i32), Unserved> {
        let least = std::sync::atomic::AtomicI32::new(i32::MAX);
        let most = std::sync::atomic::AtomicI32::new(i32::MIN);
        self.chunks(build, None, |w, _, cells, side| {
            let pos = w.position(cells, side, false);
            let now = margin(self.game, &pos, Player::South);
            let (l, m) = repetition_worth(self.game, &pos, Player::South)?;
            least.fetch_min(l - now, Ordering::Relaxed);
            most.fetch_max(m - now, Ordering::Relaxed);
            Ok(())
        })?;
        Ok((least.into_inner(), most.into_inner()))
    }

    /// [`Plan::sweep`] from the links the walk recorded: no move played.
    fn sweep_links(&self, build: &Build<'_>) -> Result<bool, Unserved> {
        let changed = AtomicBool::new(false);
        let slots = self.eg.layout.pits;
        let count = self.count;
        (0..(2 * count).div_ceil(CHUNK)).into_par_iter().try_for_each(|c| {
            if build.stop.load(Ordering::Relaxed) {
                return Err(Unserved::Stopped);
            }
            for i in c * CHUNK..((c + 1) * CHUNK).min(2 * count) {
                if self.pinned.is_some_and(|(p, _)| p == i) {
                    continue;
                }
                let [lo, hi] = self.exits[i as usize].load(Ordering::Relaxed).to_le_bytes();
                let mut best = (i32::from(lo as i8), i32::from(hi as i8));
                for link in &self.links[i as usize * slots..(i as usize + 1) * slots] {
                    let link = link.load(Ordering::Relaxed);
                    if link == u32::MAX {
                        break;
                    }
                    let child = self.get(u64::from(link & !(1 << 31))).expect("the walk valued every position");
                    let (lo, hi) = for_mover(child, link >> 31 == 1);
                    best = (best.0.max(lo), best.1.max(hi));
                }
                if best != self.get(i).expect("the walk valued every position") {
                    self.set(i, best);
                    changed.store(true, Ordering::Relaxed);
                }
            }
            Ok(())
        })?;
        Ok(changed.into_inner())
    }

    /// Records the moves of position `index` (on `side`) for [`Plan::sweep_links`]: a move that
    /// stays in the block and takes or gives seeds, or more moves than slots, keeps the sweeps
    /// playing moves.
    fn note(&self, index: u64, side: usize, moves: &[Outcome2]) {
        if !self.linked.load(Ordering::Relaxed) {
            return;
        }
        let slots = self.eg.layout.pits;
        let mut slot = 0;
        let mut exit = (i32::MIN, i32::MIN);
        for (gain, next) in moves {
            let pair = match next {
                None => (*gain, *gain),
                Some((child, same, south)) => {
                    let m: u32 = child.iter().sum();
                    let child_side = if *same { side } else { side ^ 1 };
                    if m == self.n {
                        if *gain != 0 || slot == slots {
                            self.linked.store(false, Ordering::Relaxed);
                            return;
                        }
                        let i = child_side as u64 * self.count + self.eg.ranker.rank(child);
                        self.links[index as usize * slots + slot].store(i as u32 | u32::from(*same) << 31, Ordering::Relaxed);
                        slot += 1;
                        continue;
                    }
                    let (lo, hi) = for_mover(self.below(child, *south, child_side), *same);
                    (gain + lo, gain + hi)
                }
            };
            exit = (exit.0.max(pair.0), exit.1.max(pair.1));
        }
        let byte = |v: i32| v.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8 as u8;
        self.exits[index as usize].store(u16::from_le_bytes([byte(exit.0), byte(exit.1)]), Ordering::Relaxed);
    }

    /// The values of a successor in a layer below (`child` in the pits, south's store `south`,
    /// `side` to move).
    fn below(&self, child: &[u32], south: u32, side: usize) -> Pair {
        let to_move = if side == 0 { Player::South } else { Player::North };
        self.eg.bounds_of(child, south, to_move).expect("the layers below are built")
    }

    fn get(&self, i: u64) -> Option<Pair> {
        if let Some((p, pair)) = self.pinned
            && p == i
        {
            return Some(pair);
        }
        let lo = self.lo[i as usize].load(Ordering::Relaxed);
        if lo == UNKNOWN {
            return None;
        }
        let hi = match self.hi.get(i as usize) {
            Some(h) => h.load(Ordering::Relaxed),
            None => lo,
        };
        Some((i32::from(lo), i32::from(hi)))
    }

    fn set(&self, i: u64, (lo, hi): Pair) {
        let byte = |v: i32| i8::try_from(v).expect("a value is at most the seeds on the board");
        if let Some(h) = self.hi.get(i as usize) {
            h.store(byte(hi), Ordering::Relaxed);
        }
        self.lo[i as usize].store(byte(lo), Ordering::Relaxed);
    }

    /// One sweep over the block, every value worked out again from its successors' as they now
    /// stand: true when one changed.
    fn sweep(&self, build: &Build<'_>) -> Result<bool, Unserved> {
        let changed = AtomicBool::new(false);
        self.chunks(build, None, |w, i, cells, side| {
            if self.pinned.is_some_and(|(p, _)| p == i) {
                return Ok(());
            }
            let pos = w.position(cells, side, false);
            let moves = w.outcomes(&pos)?;
            let pair = w.best(side, &moves, false)?;
            if pair != self.get(i).expect("the walk valued every position") {
                self.set(i, pair);
                changed.store(true, Ordering::Relaxed);
            }
            Ok(())
        })?;
        Ok(changed.into_inner())
    }
}

/// One thread's work on a block.
struct Worker<'a> {
    plan: &'a Plan<'a>,
    /// The positions of the block being evaluated on this thread, for finding cycles.
    stack: HashSet<u64, BuildHasherDefault<Mixed>>,
}

impl Worker<'_> {
    /// A position of the block: `cells` in the pits, the seeds taken split as the block has them
    /// (`other_split` puts them all in north's).
    fn position(&self, cells: &[u32], side: usize, other_split: bool) -> Position {
        let plan = self.plan;
        let mut pos = plan.template.clone();
        let pits = cells.len();
        pos.board.cells[..pits].copy_from_slice(cells);
        let (south, north) = if other_split {
            (0, plan.south + plan.north)
        } else {
            (plan.south, plan.north)
        };
        pos.board.cells[pits] = south;
        pos.board.cells[pits + 1] = north;
        pos.to_move = if side == 0 { Player::South } else { Player::North };
        pos
    }

    /// What endless play is worth to the player to move on `side`, at least and at most.
    fn endless(&self, side: usize) -> Pair {
        for_mover(self.plan.endless, side == 0)
    }

    /// The values of the block's position `index` (`cells`, `side` to move), worked out if unknown.
    fn solve(&mut self, cells: &[u32], side: usize, index: u64) -> Result<Pair, Unserved> {
        if let Some(known) = self.plan.get(index) {
            return Ok(known);
        }
        let bounded = self.plan.eg.layout.bounded;
        if self.stack.contains(&index) || (bounded && self.stack.len() >= DEEPEST) {
            if !bounded {
                let pos = self.position(cells, side, false);
                return Err(Unserved::Cycle(describe(self.plan.game, &pos)));
            }
            // Valued for now as endless play (also past the deepest walk, which would outgrow
            // the thread's stack in a block of millions of positions in one cycle); the sweeps
            // that follow settle it.
            self.plan.cyclic.store(true, Ordering::Relaxed);
            return Ok(self.endless(side));
        }
        let pos = self.position(cells, side, false);
        let moves = self.outcomes(&pos)?;
        if !self.plan.eg.layout.by_stores && index.is_multiple_of(STORE_CHECK_EVERY) {
            let other = self.position(cells, side, true);
            // The stores themselves differ; where the moves lead otherwise must not.
            let apart = |m: &[Outcome2]| {
                m.iter()
                    .map(|(g, next)| (*g, next.as_ref().map(|(c, same, _)| (c.clone(), *same))))
                    .collect::<Vec<_>>()
            };
            if apart(&self.outcomes(&other)?) != apart(&moves) {
                return Err(Unserved::Stores(describe(self.plan.game, &pos)));
            }
        }
        self.plan.note(index, side, &moves);
        self.stack.insert(index);
        let best = self.best(side, &moves, true);
        self.stack.remove(&index);
        let best = best?;
        self.plan.set(index, best);
        Ok(best)
    }

    /// The best of `moves` for the player to move on `side`: from each successor's values, worked
    /// out first when `walk` and unknown, else as they stand.
    fn best(&mut self, side: usize, moves: &[Outcome2], walk: bool) -> Result<Pair, Unserved> {
        let mut best = (i32::MIN, i32::MIN);
        for (gain, next) in moves {
            let (lo, hi) = match next {
                None => (*gain, *gain),
                Some((child, same, south)) => {
                    let m: u32 = child.iter().sum();
                    let child_side = if *same { side } else { side ^ 1 };
                    let values = if m < self.plan.n {
                        self.plan.below(child, *south, child_side)
                    } else {
                        let i = child_side as u64 * self.plan.count + self.plan.eg.ranker.rank(child);
                        if walk {
                            self.solve(child, child_side, i)?
                        } else {
                            self.plan.get(i).expect("the walk valued every position")
                        }
                    };
                    let (lo, hi) = for_mover(values, *same);
                    (gain + lo, gain + hi)
                }
            };
            best = (best.0.max(lo), best.1.max(hi));
        }
        // A position without moves is scored by `outcomes` as finished as it is.
        debug_assert!(best.0 != i32::MIN);
        Ok(best)
    }

    /// Each legal move of `pos`: what it adds to the mover's score difference, and where it leads
    /// unless the game ends.
    fn outcomes(&self, pos: &Position) -> Result<Vec<Outcome2>, Unserved> {
        let game = self.plan.game;
        let before = margin(game, pos, pos.to_move);
        let mut out = Vec::new();
        let mut fast = Vec::new();
        if game.fast_moves_without_history(pos, &mut fast) {
            // One position, made each move's in turn, rather than a copy a move.
            let mut scratch = pos.clone();
            for m in fast {
                match &m.ended {
                    Some(child) => out.push(self.outcome(pos, m.pit, child, before)?),
                    None => {
                        scratch.ply = pos.ply;
                        game.unpack_move(&mut scratch, m.cells, m.to_move);
                        out.push(self.outcome(pos, m.pit, &scratch, before)?);
                    }
                }
            }
        } else {
            for (k, child) in crate::search::successors(game, pos) {
                out.push(self.outcome(pos, k, &child, before)?);
            }
        }
        if out.is_empty() && !pos.over {
            // As the searches score a position without moves: finished as it is.
            let ended = crate::search::alphabeta::finished_as_is(game, pos);
            out.push((margin(game, &ended, pos.to_move) - before, None));
        }
        Ok(out)
    }

    /// What move `k` from `pos` (whose mover's margin is `before`) into `child` adds to the mover's
    /// score difference, and where it leads, checking what the databases stand on.
    fn outcome(&self, pos: &Position, k: usize, child: &Position, before: i32) -> Result<Outcome2, Unserved> {
        let game = self.plan.game;
        let mover = pos.to_move;
        let gain = margin(game, child, mover) - before;
        if child.over {
            let s = game.scores(child);
            let by_seeds = match s[0].cmp(&s[1]) {
                std::cmp::Ordering::Greater => Outcome::South,
                std::cmp::Ordering::Less => Outcome::North,
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            if child.winner != Some(by_seeds) {
                return Err(Unserved::Winner(format!(
                    "after {} from {}",
                    game.move_name(k),
                    describe(game, pos)
                )));
            }
            return Ok((gain, None));
        }
        let pits = self.plan.eg.layout.pits;
        let cells = child.board.cells[..pits].to_vec();
        if cells.iter().sum::<u32>() > self.plan.n {
            return Err(Unserved::Grows(format!("{} from {}", game.move_name(k), describe(game, pos))));
        }
        Ok((gain, Some((cells, child.to_move == mover, child.board.cells[pits]))))
    }
}
