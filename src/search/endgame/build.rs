//! Building one layer of the endgame databases (see the parent module's documentation): each block
//! is walked depth first with memory; when the walk met a cycle, the block is swept until no value
//! changes.

use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU16, AtomicU32, AtomicU64, Ordering};

use rayon::prelude::*;

use super::{
    Build, BuildProgress, CHUNK, Endgames, Pair, Ranker, STORE_CHECK_EVERY, UNKNOWN, Unserved, describe, for_mover, margin,
    repetition_worth, repetition_worth_in,
};
use crate::engine::{FastMove, FastSearch, Game, Outcome, Player, Position};
use crate::search::huge::{Huge, ZeroValid};

/// The deepest the walk goes in a block with a repetition rule before it values a position as
/// endless play for now.
const DEEPEST: usize = 20_000;

/// A move for the walk: what it adds to the mover's score difference, and where it leads unless
/// the game ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Step {
    gain: i32,
    next: Option<Succ>,
}

/// A position a move leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Succ {
    /// Seeds on the board.
    n: u32,
    /// Its number among the placements of `n` seeds ([`Ranker::rank`]).
    rank: u64,
    /// The mover moves again.
    same: bool,
    /// Seeds in south's store.
    south: u32,
    /// Every cell packed, when the walk plays in fast form (else 0).
    cells: u128,
}

impl Succ {
    /// Who moves there, for a move made by `side`.
    fn side(&self, side: usize) -> usize {
        if self.same { side } else { side ^ 1 }
    }
}

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
            for (o, v) in out[at..at + per_block].iter_mut().zip(lo.iter()) {
                *o = v.load(Ordering::Relaxed) as u8;
            }
            if self.layout.bounded {
                let at = at + blocks as usize * per_block;
                for (o, v) in out[at..at + per_block].iter_mut().zip(hi.iter()) {
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
    ) -> Result<(Huge<AtomicI8>, Huge<AtomicI8>), Unserved> {
        let per_block = (2 * self.ranker.count(n)) as usize;
        let unknown = |v: &AtomicI8| v.store(UNKNOWN, Ordering::Relaxed);
        let lo = filled(per_block, unknown)?;
        let hi = filled(if self.layout.bounded { per_block } else { 0 }, unknown)?;
        let mut template = game.initial(None);
        template.history.clear();
        let taken = game.total - n;
        let south = if self.layout.by_stores { block as u32 } else { taken / 2 };
        let fast = walk_form(game, &template);
        let slots = links_a_position(game, fast.as_ref());
        // Links for blocks of up to 2^31 positions; larger ones are swept by playing the moves.
        let linkable = self.layout.bounded && (per_block as u64) < 1 << 31;
        let linked = if linkable { per_block } else { 0 };
        let links = filled(linked * slots, |v: &AtomicU32| v.store(u32::MAX, Ordering::Relaxed))?;
        let exits = filled(linked, |v: &AtomicU16| v.store(NO_EXIT, Ordering::Relaxed))?;
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
            fast,
            slots,
            stacks: std::sync::Mutex::new(Vec::new()),
        };
        if self.layout.bounded {
            plan.endless = plan.repetition_range(build)?;
        }
        plan.chunks(build, progress, |w, i, cells, side| w.solve(i, side, cells).map(|_| ()))?;
        if plan.cyclic.load(Ordering::Relaxed) {
            // Sweep until a whole sweep changes nothing.
            if plan.linked.load(Ordering::Relaxed) {
                let words = (per_block as u64).div_ceil(GRANULE).div_ceil(64) as usize;
                let bits = || (0..words).map(|_| AtomicU64::new(0)).collect::<Vec<_>>();
                let mut changed = None;
                loop {
                    let changing = bits();
                    if !plan.sweep_links(build, changed.as_deref(), &changing)? {
                        break;
                    }
                    changed = Some(changing);
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
            lo: lo.iter().map(|v| v.load(Ordering::Relaxed)).collect(),
            hi: hi.iter().map(|v| v.load(Ordering::Relaxed)).collect(),
        }))
    }
}

/// The fast form the walk plays packed positions in (no `Position` a move), where it serves.
fn walk_form<'g>(game: &'g Game, template: &Position) -> Option<FastSearch<'g>> {
    FastSearch::along_lines(game, template).filter(|_| game.pit_count() + 2 <= 16)
}

/// The moves a position's links hold: a move a pit of the mover's in the fast form, else a move
/// a pit; a position with more moves keeps the sweeps playing moves.
pub(super) fn links_a_position(game: &Game, fast: Option<&FastSearch<'_>>) -> usize {
    fast.map_or(game.pit_count(), FastSearch::side_pits)
}

/// The fast form the walk of `game`'s blocks plays in, if any.
pub(super) fn walk_form_of(game: &Game) -> Option<FastSearch<'_>> {
    let mut template = game.initial(None);
    template.history.clear();
    walk_form(game, &template)
}

/// `len` values in memory of their own (in huge pages: the walk reads them at random), each made
/// ready by `set` on the pool's threads.
fn filled<T: ZeroValid + Send>(len: usize, set: impl Fn(&T) + Sync) -> Result<Huge<T>, Unserved> {
    let values = Huge::zeroed(len).map_err(no_memory)?;
    values.par_chunks(1 << 16).for_each(|c| c.iter().for_each(&set));
    Ok(values)
}

fn no_memory(e: std::io::Error) -> Unserved {
    Unserved::Io(format!("cannot map memory for a block of the databases: {e}"))
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
    links: Huge<AtomicU32>,
    /// Per position, the best of its moves that leave the block, as two bytes (least, most).
    exits: Huge<AtomicU16>,
    /// Every position's links are recorded: no move stays in the block with seeds taken.
    linked: AtomicBool,
    /// The game's fast form, when it plays every position of the block.
    fast: Option<FastSearch<'a>>,
    /// Links a position.
    slots: usize,
    /// The threads' stacks (see [`Worker::stack`]), each empty when put back.
    stacks: std::sync::Mutex<Vec<Huge<AtomicU64>>>,
}

/// Positions a sweep marks together when one of them changes: a granule's bit stays in the
/// cache where a bit a position would not.
const GRANULE: u64 = 1 << 10;

/// No move leaves the block (both bytes `i8::MIN`).
const NO_EXIT: u16 = 0x8080;

impl Plan<'_> {
    /// Runs `each` on every position of the block (index, cells packed when the walk plays in fast
    /// form, side to move), in chunks on the pool's threads, stopping at the first error.
    fn chunks(
        &self,
        build: &Build<'_>,
        progress: Option<(&AtomicU64, u64)>,
        each: impl Fn(&mut Worker<'_>, u64, u128, usize) -> Result<(), Unserved> + Sync,
    ) -> Result<(), Unserved> {
        let count = self.count;
        (0..(2 * count).div_ceil(CHUNK)).into_par_iter().try_for_each(|c| {
            if build.stop.load(Ordering::Relaxed) {
                return Err(Unserved::Stopped);
            }
            let mut w = Worker::new(self)?;
            let from = c * CHUNK;
            let to = (from + CHUNK).min(2 * count);
            let pits = self.eg.layout.pits;
            let mut cells = vec![0u32; pits];
            let mut bars = vec![0usize; pits - 1];
            self.eg.ranker.bars(self.n, from % count, &mut bars);
            // Packed only in fast form, which holds every cell in a 128-bit number.
            let stores = if self.fast.is_some() {
                u128::from(self.south) << (8 * pits) | u128::from(self.north) << (8 * (pits + 1))
            } else {
                0
            };
            for i in from..to {
                if i == count {
                    // North's half starts again from the first placement.
                    self.eg.ranker.bars(self.n, 0, &mut bars);
                }
                Ranker::cells_of(self.n, &bars, &mut cells);
                let packed = if self.fast.is_some() {
                    cells.iter().enumerate().fold(stores, |b, (c, &s)| b | u128::from(s) << (8 * c))
                } else {
                    0
                };
                each(&mut w, i, packed, usize::from(i >= count))?;
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
        self.chunks(build, None, |w, i, cells, side| {
            w.load(i, side, cells, false);
            let pos = &w.scratch;
            let now = margin(self.game, pos, Player::South);
            let (l, m) = repetition_worth_in(self.game, pos, Player::South, &mut w.ended)?;
            least.fetch_min(l - now, Ordering::Relaxed);
            most.fetch_max(m - now, Ordering::Relaxed);
            Ok(())
        })?;
        Ok((least.into_inner(), most.into_inner()))
    }

    /// [`Plan::sweep`] from the links the walk recorded: no move played. Only a position with a
    /// move into a granule of positions `changed` by the sweep before (every position when none)
    /// is worked out again; the granules whose values change are marked in `changing`.
    fn sweep_links(&self, build: &Build<'_>, changed: Option<&[AtomicU64]>, changing: &[AtomicU64]) -> Result<bool, Unserved> {
        let any = AtomicBool::new(false);
        let slots = self.slots;
        let count = self.count;
        let marked = |bits: &[AtomicU64], i: u64| {
            let g = i / GRANULE;
            bits[(g / 64) as usize].load(Ordering::Relaxed) & 1 << (g % 64) != 0
        };
        (0..(2 * count).div_ceil(CHUNK)).into_par_iter().try_for_each(|c| {
            if build.stop.load(Ordering::Relaxed) {
                return Err(Unserved::Stopped);
            }
            for i in c * CHUNK..((c + 1) * CHUNK).min(2 * count) {
                if self.pinned.is_some_and(|(p, _)| p == i) {
                    continue;
                }
                let links = &self.links[i as usize * slots..(i as usize + 1) * slots];
                let child = |link: &AtomicU32| {
                    let link = link.load(Ordering::Relaxed);
                    (link != u32::MAX).then_some((u64::from(link & !(1 << 31)), link >> 31 == 1))
                };
                if let Some(bits) = changed
                    && !links.iter().map_while(child).any(|(j, _)| marked(bits, j))
                {
                    continue;
                }
                let [lo, hi] = self.exits[i as usize].load(Ordering::Relaxed).to_le_bytes();
                let mut best = (i32::from(lo as i8), i32::from(hi as i8));
                for (j, same) in links.iter().map_while(child) {
                    let (lo, hi) = for_mover(self.get(j).expect("the walk valued every position"), same);
                    best = (best.0.max(lo), best.1.max(hi));
                }
                if best != self.get(i).expect("the walk valued every position") {
                    self.set(i, best);
                    let g = i / GRANULE;
                    changing[(g / 64) as usize].fetch_or(1 << (g % 64), Ordering::Relaxed);
                    any.store(true, Ordering::Relaxed);
                }
            }
            Ok(())
        })?;
        Ok(any.into_inner())
    }

    /// Records the moves of position `index` (on `side`) for [`Plan::sweep_links`]: a move that
    /// stays in the block and takes or gives seeds, or more moves than slots, keeps the sweeps
    /// playing moves.
    fn note(&self, index: u64, side: usize, moves: &[Step]) {
        if !self.linked.load(Ordering::Relaxed) {
            return;
        }
        let slots = self.slots;
        let mut slot = 0;
        let mut exit = (i32::MIN, i32::MIN);
        for step in moves {
            let pair = match step.next {
                None => (step.gain, step.gain),
                Some(next) => {
                    if next.n == self.n {
                        if step.gain != 0 || slot == slots {
                            self.linked.store(false, Ordering::Relaxed);
                            return;
                        }
                        let i = next.side(side) as u64 * self.count + next.rank;
                        self.links[index as usize * slots + slot].store(i as u32 | u32::from(next.same) << 31, Ordering::Relaxed);
                        slot += 1;
                        continue;
                    }
                    let (lo, hi) = for_mover(self.below(&next, side), next.same);
                    (step.gain + lo, step.gain + hi)
                }
            };
            exit = (exit.0.max(pair.0), exit.1.max(pair.1));
        }
        let byte = |v: i32| v.clamp(i32::from(i8::MIN), i32::from(i8::MAX)) as i8 as u8;
        self.exits[index as usize].store(u16::from_le_bytes([byte(exit.0), byte(exit.1)]), Ordering::Relaxed);
    }

    /// The values of a successor in a layer below, reached by a move of `side`.
    fn below(&self, next: &Succ, side: usize) -> Pair {
        let to_move = if next.side(side) == 0 { Player::South } else { Player::North };
        self.eg
            .bounds_ranked(next.n, next.south, to_move, next.rank)
            .expect("the layers below are built")
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
            let moves = w.steps(i, side, cells, false)?;
            let pair = w.best(side, &moves, false);
            w.spare.push(moves);
            let pair = pair?;
            if pair != self.get(i).expect("the walk valued every position") {
                self.set(i, pair);
                changed.store(true, Ordering::Relaxed);
            }
            Ok(())
        })?;
        Ok(changed.into_inner())
    }
}

impl Drop for Worker<'_> {
    fn drop(&mut self) {
        // Every position put on the stack is taken off before `solve` returns, even on an error.
        if let (Ok(mut stacks), Some(stack)) = (self.plan.stacks.lock(), self.stack.take()) {
            stacks.push(stack);
        }
    }
}

/// One thread's work on a block.
struct Worker<'a> {
    plan: &'a Plan<'a>,
    /// The positions of the block being evaluated on this thread, for finding cycles: a bit a
    /// position of the block (the walk meets most of them, and a bit is cheaper than a hash).
    stack: Option<Huge<AtomicU64>>,
    /// Positions on `stack`.
    depth: usize,
    /// A position for the general engine, its cells set for each use.
    scratch: Position,
    /// A position for ending games on.
    ended: Position,
    /// Lists of moves to reuse, one a level of the walk at most.
    spare: Vec<Vec<Step>>,
    /// The fast form's moves of one position.
    fast_moves: Vec<FastMove>,
    /// The pits of one position.
    cells: Vec<u32>,
}

impl<'a> Worker<'a> {
    fn new(plan: &'a Plan<'a>) -> Result<Worker<'a>, Unserved> {
        let kept = plan.stacks.lock().map_or(None, |mut s| s.pop());
        let stack = match kept {
            Some(s) => s,
            None => Huge::zeroed((2 * plan.count).div_ceil(64) as usize).map_err(no_memory)?,
        };
        Ok(Worker {
            plan,
            stack: Some(stack),
            depth: 0,
            scratch: plan.template.clone(),
            ended: plan.template.clone(),
            spare: Vec::new(),
            fast_moves: Vec::new(),
            cells: vec![0; plan.eg.layout.pits],
        })
    }

    /// Makes `scratch` the block's position `index` (`side` to move; its cells packed when the
    /// walk plays in fast form), the seeds taken split as the block has them (`other_split` puts
    /// them all in north's).
    fn load(&mut self, index: u64, side: usize, packed: u128, other_split: bool) {
        let plan = self.plan;
        let pits = self.cells.len();
        if plan.fast.is_some() {
            for (c, s) in self.cells.iter_mut().enumerate() {
                *s = FastSearch::seeds(packed, c);
            }
        } else {
            plan.eg.ranker.unrank(plan.n, index % plan.count, &mut self.cells);
        }
        let pos = &mut self.scratch;
        pos.board.cells[..pits].copy_from_slice(&self.cells);
        let (south, north) = if other_split {
            (0, plan.south + plan.north)
        } else {
            (plan.south, plan.north)
        };
        pos.board.cells[pits] = south;
        pos.board.cells[pits + 1] = north;
        pos.to_move = if side == 0 { Player::South } else { Player::North };
    }

    /// Puts a position on the stack, or takes it off.
    fn flip(&self, word: usize, bit: u64) {
        let stack = self.stack.as_ref().expect("a worker keeps its stack until dropped");
        stack[word].store(stack[word].load(Ordering::Relaxed) ^ bit, Ordering::Relaxed);
    }

    /// What endless play is worth to the player to move on `side`, at least and at most.
    fn endless(&self, side: usize) -> Pair {
        for_mover(self.plan.endless, side == 0)
    }

    /// The values of the block's position `index` (`side` to move, its cells `packed` when the
    /// walk plays in fast form), worked out if unknown.
    fn solve(&mut self, index: u64, side: usize, packed: u128) -> Result<Pair, Unserved> {
        if let Some(known) = self.plan.get(index) {
            return Ok(known);
        }
        let bounded = self.plan.eg.layout.bounded;
        let (word, bit) = ((index / 64) as usize, 1u64 << (index % 64));
        let stack = self.stack.as_ref().expect("a worker keeps its stack until dropped");
        if stack[word].load(Ordering::Relaxed) & bit != 0 || (bounded && self.depth >= DEEPEST) {
            if !bounded {
                self.load(index, side, packed, false);
                return Err(Unserved::Cycle(describe(self.plan.game, &self.scratch)));
            }
            // Valued for now as endless play (also past the deepest walk, which would outgrow
            // the thread's stack in a block of millions of positions in one cycle); the sweeps
            // that follow settle it.
            self.plan.cyclic.store(true, Ordering::Relaxed);
            return Ok(self.endless(side));
        }
        let moves = self.steps(index, side, packed, false)?;
        if !self.plan.eg.layout.by_stores && index.is_multiple_of(STORE_CHECK_EVERY) {
            let other = self.steps(index, side, packed, true)?;
            // The stores themselves differ; where the moves lead otherwise must not.
            let apart = |m: &[Step]| {
                m.iter()
                    .map(|s| (s.gain, s.next.map(|n| (n.n, n.rank, n.same))))
                    .collect::<Vec<_>>()
            };
            let differ = apart(&other) != apart(&moves);
            self.spare.push(other);
            if differ {
                self.load(index, side, packed, false);
                return Err(Unserved::Stores(describe(self.plan.game, &self.scratch)));
            }
        }
        self.plan.note(index, side, &moves);
        self.flip(word, bit);
        self.depth += 1;
        let best = self.best(side, &moves, true);
        self.flip(word, bit);
        self.depth -= 1;
        self.spare.push(moves);
        let best = best?;
        self.plan.set(index, best);
        Ok(best)
    }

    /// The best of `moves` for the player to move on `side`: from each successor's values, worked
    /// out first when `walk` and unknown, else as they stand.
    fn best(&mut self, side: usize, moves: &[Step], walk: bool) -> Result<Pair, Unserved> {
        let mut best = (i32::MIN, i32::MIN);
        for step in moves {
            let (lo, hi) = match step.next {
                None => (step.gain, step.gain),
                Some(next) => {
                    let values = if next.n < self.plan.n {
                        self.plan.below(&next, side)
                    } else {
                        let child_side = next.side(side);
                        let i = child_side as u64 * self.plan.count + next.rank;
                        if walk {
                            self.solve(i, child_side, next.cells)?
                        } else {
                            self.plan.get(i).expect("the walk valued every position")
                        }
                    };
                    let (lo, hi) = for_mover(values, next.same);
                    (step.gain + lo, step.gain + hi)
                }
            };
            best = (best.0.max(lo), best.1.max(hi));
        }
        // A position without moves is scored by `steps` as finished as it is.
        debug_assert!(best.0 != i32::MIN);
        Ok(best)
    }

    /// Each legal move of the block's position `index` (see [`Worker::load`]): what it adds to
    /// the mover's score difference, and where it leads unless the game ends. The list is one of
    /// `spare`'s, to be given back.
    fn steps(&mut self, index: u64, side: usize, packed: u128, other_split: bool) -> Result<Vec<Step>, Unserved> {
        let mut out = self.spare.pop().unwrap_or_default();
        out.clear();
        let plan = self.plan;
        let game = plan.game;
        let mover = if side == 0 { Player::South } else { Player::North };
        if let Some(fast) = &plan.fast {
            let pits = plan.eg.layout.pits;
            let board = if other_split {
                let keep = (1u128 << (8 * pits)) - 1;
                packed & keep | u128::from(plan.south + plan.north) << (8 * (pits + 1))
            } else {
                packed
            };
            let mut moves = std::mem::take(&mut self.fast_moves);
            moves.clear();
            fast.moves(board, mover, &mut moves);
            let before = fast.margin(board, mover);
            for m in &moves {
                let step = match &m.ended {
                    Some(child) => {
                        self.load(index, side, packed, other_split);
                        finished_step(game, &self.scratch, m.pit, child, before)?
                    }
                    None => {
                        let n: u32 = (0..pits).map(|c| FastSearch::seeds(m.cells, c)).sum();
                        if n > plan.n {
                            self.load(index, side, packed, other_split);
                            return Err(grows(game, &self.scratch, m.pit));
                        }
                        let next = Succ {
                            n,
                            rank: plan.eg.ranker.rank_packed(m.cells),
                            same: m.to_move == mover,
                            south: FastSearch::seeds(m.cells, pits),
                            cells: m.cells,
                        };
                        // The values are read once every move is listed, each far in memory.
                        let child_side = next.side(side);
                        if n < plan.n {
                            let to_move = if child_side == 0 { Player::South } else { Player::North };
                            plan.eg.prefetch_ranked(n, next.south, to_move, next.rank);
                        } else {
                            let i = (child_side as u64 * plan.count + next.rank) as usize;
                            super::prefetch(&plan.lo[i]);
                            if let Some(hi) = plan.hi.get(i) {
                                super::prefetch(hi);
                            }
                            // Read if the walk goes there: whether it is on the stack, and where
                            // its moves are recorded.
                            if let Some(stack) = &self.stack {
                                super::prefetch(&stack[i / 64]);
                            }
                            if let Some(link) = plan.links.get(i * plan.slots) {
                                super::prefetch(link);
                            }
                        }
                        Step {
                            gain: fast.margin(m.cells, mover) - before,
                            next: Some(next),
                        }
                    }
                };
                out.push(step);
            }
            self.fast_moves = moves;
        } else {
            self.load(index, side, packed, other_split);
            let pos = &self.scratch;
            let before = margin(game, pos, mover);
            for (k, child) in crate::search::successors(game, pos) {
                out.push(self.outcome(pos, k, &child, before)?);
            }
        }
        if out.is_empty() {
            self.load(index, side, packed, other_split);
            let pos = &self.scratch;
            if !pos.over {
                // As the searches score a position without moves: finished as it is.
                let ended = crate::search::alphabeta::finished_as_is(game, pos);
                out.push(Step {
                    gain: margin(game, &ended, mover) - margin(game, pos, mover),
                    next: None,
                });
            }
        }
        Ok(out)
    }

    /// What move `k` from `pos` (whose mover's margin is `before`) into `child` adds to the mover's
    /// score difference, and where it leads, checking what the databases stand on.
    fn outcome(&self, pos: &Position, k: usize, child: &Position, before: i32) -> Result<Step, Unserved> {
        let game = self.plan.game;
        if child.over {
            return finished_step(game, pos, k, child, before);
        }
        let pits = self.plan.eg.layout.pits;
        let cells = &child.board.cells[..pits];
        let n = cells.iter().sum::<u32>();
        if n > self.plan.n {
            return Err(grows(game, pos, k));
        }
        Ok(Step {
            gain: margin(game, child, pos.to_move) - before,
            next: Some(Succ {
                n,
                rank: self.plan.eg.ranker.rank(cells),
                same: child.to_move == pos.to_move,
                south: child.board.cells[pits],
                cells: 0,
            }),
        })
    }
}

/// A move `k` from `pos` (whose mover's margin is `before`) that ended the game in `child`,
/// checking that the player with more seeds won.
fn finished_step(game: &Game, pos: &Position, k: usize, child: &Position, before: i32) -> Result<Step, Unserved> {
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
    Ok(Step {
        gain: margin(game, child, pos.to_move) - before,
        next: None,
    })
}

/// The refusal for move `k` from `pos`, which put seeds back on the board.
fn grows(game: &Game, pos: &Position, k: usize) -> Unserved {
    Unserved::Grows(format!("{} from {}", game.move_name(k), describe(game, pos)))
}
