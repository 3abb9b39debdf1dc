//! Endgame databases: the exact value of every position with at most `N` seeds on the board, for
//! any rule file whose seeds on the board never increase, built by retrograde analysis over the
//! engine's public moves and kept on disk, read in place (memory-mapped).
//!
//! **What a value is.** For a position (the seeds in the pits and whose turn it is), the most the
//! player to move can add to his score difference from here on with best play by both, when both
//! maximise their own final difference: the final margin minus the margin now. It decides the
//! result too, because the games served are won by the player with more seeds (checked on every
//! finished position the build meets).
//!
//! **Layers.** Seeds on the board never increase, so a move leads to a position with fewer seeds
//! (a layer built before) or as many (the same layer). The layers are built from 0 seeds up; a
//! position's value comes from its successors'. Within a layer, positions are evaluated depth
//! first with memory (a move that keeps every seed on the board leads to a position of the same
//! layer, whose value is worked out first). The engine has no moves backwards, so the analysis runs
//! forwards over each layer, from its successors' values, rather than from un-moves.
//!
//! **Stores.** When a rule reads the stores (`captured(P)`, `store(P)`, `total`), a position's
//! future depends on how the seeds already taken are split: each layer then holds a block per
//! split (south's store from 0 to every seed taken), and a value is read with the stores. Without
//! such a rule one block serves every split (checked while building, see below).
//!
//! **Cycles and the repetition rule.** Moves that take nothing keep a position in its block (same
//! seeds on the board, same stores), and may come back to a position. Without a rule on `repeated`
//! such a rule file is refused with the cycle found (its value would need the history). With an
//! end rule `repeated` (alone) the game ends at the first position that comes back, and a
//! capture clears the history (stores only grow), so a position entered by a capture, or where play
//! starts, has a value that depends on it alone: the value stored. Within a block the game is then
//! a *first cycle game*: when the end rule's result is the same at every position of the block (a
//! repetition worth the same to both players, such as Oware's seeds split evenly when an even
//! number is left), the value is that of the game where endless play is worth that result, which
//! both players can reach with choices that depend on the position alone, so the first repetition
//! gives what endless play would. Such a value is a fixed point, found by sweeping the block from
//! every position valued at the repetition's result until nothing changes (a sweep never moves a
//! value away from the true one: after `k` sweeps each value is that of the game cut after at
//! least `k` moves, which is exact once `k` passes the longest forced sequence). When the result
//! differs between positions (Oware's odd seed, to whoever has more in their row where play
//! repeats), the first repetition's value may depend on the way round the cycle, and no value that
//! depends on the position alone need exist. The databases then keep two values a position, the
//! values of the games where every repetition in the block is worth its least and its most: the
//! true value lies between them (a game's value only grows with what its endings are worth), and
//! where they meet it is exact. Readers take a value only where they meet.
//!
//! **Index.** A layer's positions are the ways to put `n` seeds into `P` pits, numbered by the
//! combinatorial number system (the colex rank of the stars-and-bars subset), which is a bijection
//! onto `0..C(n + P - 1, P - 1)`: one byte a position (two with bounds), no key stored.
//!
//! **Files.** One file per layer under `DIR/<key>/`, with a header (magic, version, key, layer,
//! pits, count, blocks, bytes a position) and then the values: per block, for south to move, then
//! for north to move (with bounds, every block's lower values, then every block's upper ones). The
//! key is a hash of the compiled rules (the rule file with its parameters folded in, every rule the
//! engine plays). A layer is written to a temporary file and renamed when done, so a build stopped
//! by Ctrl-C resumes from its last finished layer.
//!
//! **What is served.** Games without rounds, a move number, claims, closures or memory (their
//! values would depend on more than the pits, the stores and the turn), whose rules read `repeated`
//! only as a whole end rule. While building, every move is checked: seeds on the board must not
//! increase, a finished game must be won by the player with more seeds, and (on one position in
//! [`STORE_CHECK_EVERY`], when no rule reads the stores) the moves must play the same with another
//! split of the stores. A failed check refuses the game with the position that showed it.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64};

use crate::engine::{Game, Player, Position};
use crate::search::solve::{Refusal, Solved, Value};

mod build;
mod resolve;
pub use build::AfterStart;
pub use resolve::{Resolver, TooLong};

/// The first bytes of every database file.
pub const MAGIC: &[u8; 8] = b"SOWENDGM";
/// The format's version: a file of another version is built again.
pub const VERSION: u32 = 2;
/// Bytes before the values.
const HEADER: usize = 48;
/// A value not yet known, while a layer is built.
const UNKNOWN: i8 = i8::MIN;
/// The most seeds on the board a database holds: a value then fits in a byte.
pub const MAX_SEEDS: u32 = 120;
/// One position in this many has its moves played again with the stores split another way.
pub const STORE_CHECK_EVERY: u64 = 37;
/// Positions per unit of parallel work.
const CHUNK: u64 = 1 << 14;

/// Why a game cannot have endgame databases.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unserved {
    /// Something static in the rules.
    Rules(String),
    /// A move from a position in the database puts seeds back on the board.
    Grows(String),
    /// A finished game is not won by the player with more seeds.
    Winner(String),
    /// A move plays differently with the stores split another way: some rule reads them.
    Stores(String),
    /// A position recurs within a layer.
    Cycle(String),
    /// More seeds than a value byte allows.
    TooManySeeds(u32),
    /// Reading or writing the files failed.
    Io(String),
    /// The build was stopped (Ctrl-C) before it finished; finished layers are kept.
    Stopped,
}

impl fmt::Display for Unserved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Unserved::Rules(why) => write!(f, "{why}"),
            Unserved::Grows(at) => write!(f, "a move puts seeds back on the board ({at})"),
            Unserved::Winner(at) => write!(f, "a finished game is not won by the player with more seeds ({at})"),
            Unserved::Stores(at) => write!(
                f,
                "a move plays differently when the seeds in the stores are split another way, so some rule reads the stores ({at})"
            ),
            Unserved::Cycle(at) => write!(
                f,
                "a position can recur without a seed leaving the board ({at}), and the databases keep no history"
            ),
            Unserved::TooManySeeds(n) => write!(f, "{n} seeds on the board is more than the {MAX_SEEDS} a database holds"),
            Unserved::Io(why) => write!(f, "{why}"),
            Unserved::Stopped => write!(f, "stopped before the databases were finished (finished layers are kept)"),
        }
    }
}

/// Refuses the rule files whose positions' values depend on more than the seeds in the pits and the
/// player to move, with the reason. The checks made while building come on top (see the module
/// documentation).
pub fn servable(game: &Game) -> Result<(), Unserved> {
    let why = if game.rounds.is_some() {
        "the game is a match of rounds, and a position's value depends on the rounds won"
    } else if game.uses_repeated && (game.repeated_in_moves || !game.stores_only_grow) {
        "a rule reads `repeated` during a move or a store can shrink, so a position's value depends on the positions before it"
    } else if game.uses_repeated && !game.repetition_only_ends() {
        "an end rule reads `repeated` with something else, so the game may go on past a repetition and a position's value depends on the positions before it"
    } else if game.uses_ply || game.uses_round_ply {
        "a rule reads the move number, so a position's value depends on it"
    } else if game.uses_claims {
        "a rule claims pits, so a position's value depends on the claims"
    } else if game.uses_closed {
        "a rule closes pits, so a position's value depends on which are closed"
    } else if !game.memory_start.is_empty() {
        "the game keeps a memory, so a position's value depends on it"
    } else if game.uses_starter {
        "a rule reads who began the game"
    } else {
        return Ok(());
    };
    Err(Unserved::Rules(why.into()))
}

/// The key of a game's databases: a hash of its compiled rules (with the format's version), so
/// that a changed rule file, other parameters or an engine that plays differently never read the
/// values of another.
pub fn key(game: &Game) -> u64 {
    // The fast form is derived from the rest and holds nothing the rules do not.
    let mut rules = game.clone();
    rules.fast = None;
    // Where no rule reads the total, a position's value does not depend on the seeds the game
    // began with (nor on its name or who began, refused by `servable` when read): one set of
    // databases serves every set-up of the same rules (Kalah with 3, 4 or 5 seeds a pit).
    if !rules.uses_total {
        rules.total = 0;
        rules.seeds_cases.clear();
        rules.initial.clear();
        rules.first = Player::South;
        rules.name.clear();
        rules.words.clear();
        rules.level = None;
    }
    let text = format!("{VERSION} {rules:?}");
    // FNV-1a: stable across builds and platforms, unlike the standard hasher.
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for b in text.bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0000_0100_0000_01b3);
    }
    h
}

/// The folder where the endgame databases are kept when none is named: `$SOWLANG_DATABASES`, else
/// `$XDG_CACHE_HOME/sowlang/endgame`, else `~/.cache/sowlang/endgame` (each game in its own folder
/// inside, named by its [`key`]).
pub fn default_dir() -> Option<PathBuf> {
    let var = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty()).map(PathBuf::from);
    var("SOWLANG_DATABASES")
        .or_else(|| var("XDG_CACHE_HOME").map(|d| d.join("sowlang").join("endgame")))
        .or_else(|| var("HOME").map(|d| d.join(".cache").join("sowlang").join("endgame")))
}

/// A final score difference in words, for a player: "wins by 3 with best play", "draws with best
/// play", "loses by 1 with best play".
pub fn describe_final(margin: i32) -> String {
    match margin.cmp(&0) {
        std::cmp::Ordering::Greater => format!("wins by {margin} with best play"),
        std::cmp::Ordering::Equal => "draws with best play".to_string(),
        std::cmp::Ordering::Less => format!("loses by {} with best play", -margin),
    }
}

/// Numbers the ways to put `n` seeds into `pits` pits (see the module documentation).
#[derive(Debug, Clone)]
pub struct Ranker {
    pits: usize,
    /// `binom[k][m]` = C(m, k), for k < pits and m ≤ the most seeds + pits.
    binom: Vec<Vec<u64>>,
}

impl Ranker {
    /// For boards of `pits` pits (at least 2) with up to `seeds` seeds.
    pub fn new(pits: usize, seeds: u32) -> Ranker {
        let m_max = seeds as usize + pits;
        let binom = (0..pits)
            .map(|k| {
                (0..=m_max)
                    .map(|m| {
                        let mut c: u128 = 1;
                        for i in 0..k as u128 {
                            if (m as u128) < k as u128 {
                                return 0;
                            }
                            c = c * (m as u128 - i) / (i + 1);
                        }
                        u64::try_from(c).unwrap_or(u64::MAX)
                    })
                    .collect()
            })
            .collect();
        Ranker { pits, binom }
    }

    /// Positions of one player to move with `n` seeds on the board.
    pub fn count(&self, n: u32) -> u64 {
        self.binom[self.pits - 1][n as usize + self.pits - 1]
    }

    /// The number of `cells` (the pits; they hold `n` seeds) among the layer's positions.
    #[inline]
    pub fn rank(&self, cells: &[u32]) -> u64 {
        let mut r = 0u64;
        let mut bar = 0usize;
        for (k, &c) in cells[..self.pits - 1].iter().enumerate() {
            bar += c as usize;
            // The k-th bar (from 1) stands after the seeds so far and the k - 1 bars before it.
            r += self.binom[k + 1][bar + k];
        }
        r
    }

    /// [`Ranker::rank`] of the pits of a packed board (one byte a cell, the pits first).
    #[inline]
    pub(crate) fn rank_packed(&self, cells: u128) -> u64 {
        let mut r = 0u64;
        let mut bar = 0usize;
        for k in 0..self.pits - 1 {
            bar += (cells >> (8 * k)) as u8 as usize;
            r += self.binom[k + 1][bar + k];
        }
        r
    }

    /// The bars of the layer's position numbered `r`: the inverse of [`Ranker::rank`].
    fn bars(&self, n: u32, mut r: u64, bars: &mut [usize]) {
        let mut hi = n as usize + self.pits - 2;
        for k in (1..self.pits).rev() {
            // The largest place c ≤ hi with C(c, k) ≤ r.
            let row = &self.binom[k];
            let mut c = hi;
            while row[c] > r {
                c -= 1;
            }
            r -= row[c];
            bars[k - 1] = c;
            hi = c.saturating_sub(1);
        }
    }

    /// The next bars in the numbering (colex order), or false after the last.
    fn next_bars(n: u32, bars: &mut [usize]) -> bool {
        let top = n as usize + bars.len();
        for k in 0..bars.len() {
            let limit = bars.get(k + 1).copied().unwrap_or(top);
            if bars[k] + 1 < limit {
                bars[k] += 1;
                for (j, b) in bars[..k].iter_mut().enumerate() {
                    *b = j;
                }
                return true;
            }
        }
        false
    }

    fn cells_of(n: u32, bars: &[usize], cells: &mut [u32]) {
        let mut prev: isize = -1;
        for (k, &b) in bars.iter().enumerate() {
            cells[k] = (b as isize - prev - 1) as u32;
            prev = b as isize;
        }
        cells[bars.len()] = (n as isize + bars.len() as isize - 1 - prev) as u32;
    }

    /// The pits of the layer's position numbered `r`.
    pub fn unrank(&self, n: u32, r: u64, cells: &mut [u32]) {
        let mut bars = vec![0; self.pits - 1];
        self.bars(n, r, &mut bars);
        Self::cells_of(n, &bars, cells);
    }
}

/// A layer's values, in memory or in a mapped file.
enum Bytes {
    Owned(Vec<u8>),
    Mapped(memmap2::Mmap),
}

impl Bytes {
    fn values(&self) -> &[u8] {
        match self {
            Bytes::Owned(v) => v,
            Bytes::Mapped(m) => &m[HEADER..],
        }
    }
}

/// How a game's positions are numbered in its databases (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Layout {
    pits: usize,
    /// Every seed of the game: those on the board and those taken.
    total: u32,
    /// A block per split of the seeds taken: some rule reads the stores.
    by_stores: bool,
    /// Two values a position, the least and the most it can be worth: the repetition rule's
    /// result differs between positions.
    bounded: bool,
}

impl Layout {
    fn of(game: &Game) -> Layout {
        Layout {
            pits: game.pit_count(),
            total: game.total,
            by_stores: game.reads_stores,
            bounded: game.uses_repeated,
        }
    }

    /// Blocks of layer `n`.
    fn blocks(&self, n: u32) -> u64 {
        if self.by_stores {
            u64::from(self.total.saturating_sub(n)) + 1
        } else {
            1
        }
    }

    /// Bytes a position.
    fn width(&self) -> u64 {
        if self.bounded { 2 } else { 1 }
    }

    /// The block of a position of layer `n` whose south store holds `south`, if there is one.
    #[inline]
    fn block(&self, n: u32, south: u32) -> Option<u64> {
        if !self.by_stores {
            Some(0)
        } else {
            (south + n <= self.total).then_some(u64::from(south))
        }
    }
}

/// The databases of one game: layers 0 to [`Endgames::seeds`].
pub struct Endgames {
    ranker: Ranker,
    layout: Layout,
    layers: Vec<Bytes>,
    counts: Vec<u64>,
}

impl fmt::Debug for Endgames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Endgames {{ seeds: {} }}", self.seeds())
    }
}

/// Positions (both players to move, every split of the stores where a rule reads them) of every
/// layer of `game` up to `seeds`.
pub fn positions_of(game: &Game, seeds: u32) -> u64 {
    let layout = Layout::of(game);
    let r = Ranker::new(layout.pits, seeds);
    (0..=seeds)
        .map(|n| (2 * r.count(n)).saturating_mul(layout.blocks(n)))
        .fold(0u64, u64::saturating_add)
}

/// Bytes of the databases of `game` up to `seeds`.
pub fn bytes_of(game: &Game, seeds: u32) -> u64 {
    positions_of(game, seeds).saturating_mul(Layout::of(game).width())
}

/// The most memory a build of the databases of `game` up to `seeds` holds at once (besides the
/// finished layers, which are files read in place): the largest block's values, the moves it
/// records and the best exits while it is walked, and the values of its layer.
pub fn build_bytes(game: &Game, seeds: u32) -> u64 {
    let layout = Layout::of(game);
    let r = Ranker::new(layout.pits, seeds);
    let slots = build::links_a_position(game, build::walk_form_of(game).as_ref()) as u64;
    (0..=seeds.min(game.total))
        .map(|n| {
            let per_block = 2 * r.count(n);
            let linked = layout.bounded && per_block < 1 << 31;
            let walk = per_block * layout.width() + if linked { per_block * (4 * slots + 2) } else { 0 };
            walk.saturating_add(per_block.saturating_mul(layout.blocks(n)) * layout.width())
        })
        .max()
        .unwrap_or(0)
}

/// What a build has done, for a progress bar.
#[derive(Debug, Clone, Copy)]
pub struct BuildProgress {
    /// Positions finished, of all layers to build.
    pub done: u64,
    /// Positions of all layers to build.
    pub total: u64,
    /// The layer being built.
    pub layer: u32,
}

/// How a build is run: where the files go, progress, and a flag that stops it.
pub struct Build<'a> {
    /// The folder of every game's databases (each game gets its own folder inside).
    pub dir: Option<&'a Path>,
    /// Called now and then.
    pub report: &'a (dyn Fn(BuildProgress) + Sync),
    /// Set (by Ctrl-C) to stop after the current chunk of work.
    pub stop: &'a AtomicBool,
}

/// What a layer's file must be: its header and length.
struct Shape {
    key: u64,
    n: u32,
    layout: Layout,
    count: u64,
}

impl Shape {
    fn values(&self) -> u64 {
        2 * self.count * self.layout.blocks(self.n) * self.layout.width()
    }
}

impl Endgames {
    /// The most seeds on the board of a position in the databases.
    pub fn seeds(&self) -> u32 {
        self.layers.len() as u32 - 1
    }

    fn shape(&self, game: &Game, n: u32) -> Shape {
        Shape {
            key: key(game),
            n,
            layout: self.layout,
            count: self.ranker.count(n),
        }
    }

    /// Loads the finished layers of `game` up to `seeds` from `build.dir`, builds the others (in
    /// parallel, writing each when done), and returns them all; without a folder, everything is
    /// built in memory.
    pub fn open(game: &Game, seeds: u32, build: &Build<'_>) -> Result<Endgames, Unserved> {
        servable(game)?;
        if seeds > MAX_SEEDS {
            return Err(Unserved::TooManySeeds(seeds));
        }
        let seeds = seeds.min(game.total);
        let layout = Layout::of(game);
        let ranker = Ranker::new(layout.pits, seeds);
        let folder = build.dir.map(|d| d.join(format!("{:016x}", key(game))));
        if let Some(f) = &folder {
            fs::create_dir_all(f).map_err(|e| Unserved::Io(format!("cannot create `{}`: {e}", f.display())))?;
        }
        let mut eg = Endgames {
            ranker,
            layout,
            layers: Vec::new(),
            counts: Vec::new(),
        };
        let mut loaded = Vec::new();
        for n in 0..=seeds {
            loaded.push(folder.as_ref().and_then(|f| read_layer(&layer_path(f, n), &eg.shape(game, n))));
        }
        let total: u64 = (0..=seeds)
            .filter(|&n| loaded[n as usize].is_none())
            .map(|n| 2 * eg.ranker.count(n) * layout.blocks(n))
            .sum();
        let done = AtomicU64::new(0);
        for (n, layer) in (0..=seeds).zip(loaded) {
            let bytes = match layer {
                Some(b) => b,
                None => {
                    let values = eg.build_layer(game, n, &done, total, build)?;
                    match &folder {
                        Some(f) => {
                            let shape = eg.shape(game, n);
                            write_layer(&layer_path(f, n), &shape, &values)?;
                            read_layer(&layer_path(f, n), &shape)
                                .ok_or_else(|| Unserved::Io(format!("cannot read back `{}`", layer_path(f, n).display())))?
                        }
                        None => Bytes::Owned(values),
                    }
                }
            };
            eg.counts.push(eg.ranker.count(n));
            eg.layers.push(bytes);
        }
        Ok(eg)
    }

    /// The value of `pos` for its player to move (see the module documentation), if it is in the
    /// databases (not finished and at most [`Endgames::seeds`] seeds on the board), exact, and
    /// not bound to the positions before it: under a repetition rule, only a position where play
    /// starts or that a capture led to.
    #[inline]
    pub fn value(&self, pos: &Position) -> Option<i32> {
        let (lo, hi) = self.bounds(pos)?;
        (lo == hi).then_some(lo)
    }

    /// The least and the most `pos` is worth to its player to move (equal where exact), on the
    /// terms of [`Endgames::value`].
    pub fn bounds(&self, pos: &Position) -> Option<(i32, i32)> {
        if pos.over || (self.layout.bounded && pos.history.as_slice().len() > 1) {
            return None;
        }
        let pits = self.layout.pits;
        self.bounds_of(&pos.board.cells[..pits], pos.board.cells[pits], pos.to_move)
    }

    /// [`Endgames::value`] of the position whose pits hold `pits` (every pit, in order) and south's
    /// store `south`, with `to_move` to move.
    #[inline]
    pub(crate) fn value_of(&self, pits: &[u32], south: u32, to_move: Player) -> Option<i32> {
        let (lo, hi) = self.bounds_of(pits, south, to_move)?;
        (lo == hi).then_some(lo)
    }

    /// The place of a position's lower value in its layer's bytes, and the layer.
    #[inline]
    fn place(&self, pits: &[u32], south: u32, to_move: Player) -> Option<(&[u8], u32, usize)> {
        let n: u32 = pits.iter().sum();
        if n as usize >= self.layers.len() {
            return None;
        }
        self.place_ranked(n, south, to_move, self.ranker.rank(pits))
    }

    /// [`Endgames::place`] of the position of layer `n` numbered `rank` ([`Ranker::rank`]).
    #[inline]
    fn place_ranked(&self, n: u32, south: u32, to_move: Player, rank: u64) -> Option<(&[u8], u32, usize)> {
        let layer = self.layers.get(n as usize)?;
        let block = self.layout.block(n, south)?;
        let count = self.counts[n as usize];
        let i = (2 * block + to_move.index() as u64) * count + rank;
        Some((layer.values(), n, i as usize))
    }

    #[inline]
    fn bounds_of(&self, pits: &[u32], south: u32, to_move: Player) -> Option<(i32, i32)> {
        let n: u32 = pits.iter().sum();
        if n as usize >= self.layers.len() {
            return None;
        }
        self.bounds_ranked(n, south, to_move, self.ranker.rank(pits))
    }

    /// [`Endgames::bounds_of`] of the position of layer `n` numbered `rank`.
    #[inline]
    fn bounds_ranked(&self, n: u32, south: u32, to_move: Player, rank: u64) -> Option<(i32, i32)> {
        let (values, n, i) = self.place_ranked(n, south, to_move, rank)?;
        let lo = i32::from(values[i] as i8);
        if !self.layout.bounded {
            return Some((lo, lo));
        }
        let half = (2 * self.counts[n as usize] * self.layout.blocks(n)) as usize;
        Some((lo, i32::from(values[half + i] as i8)))
    }

    /// Asks the processor for the byte [`Endgames::value_of`] reads for the same position, so
    /// that the read soon after does not wait for memory (the layers are far larger than the
    /// caches).
    #[inline]
    pub(crate) fn prefetch_of(&self, pits: &[u32], south: u32, to_move: Player) {
        if let Some((values, _, i)) = self.place(pits, south, to_move) {
            prefetch(&values[i]);
        }
    }

    /// [`Endgames::prefetch_of`] of the position of layer `n` numbered `rank`.
    #[inline]
    fn prefetch_ranked(&self, n: u32, south: u32, to_move: Player, rank: u64) {
        if let Some((values, n, i)) = self.place_ranked(n, south, to_move, rank) {
            prefetch(&values[i]);
            if self.layout.bounded {
                prefetch(&values[(2 * self.counts[n as usize] * self.layout.blocks(n)) as usize + i]);
            }
        }
    }

    /// The values of layer `n`, as the files hold them.
    pub fn layer_values(&self, n: u32) -> Option<&[u8]> {
        self.layers.get(n as usize).map(Bytes::values)
    }

    /// The finished layers of `game` in `dir`, from 0 seeds on the board up to the last one before
    /// the first missing (or damaged) layer: read, never built, so that a player or a hint costs no
    /// build. `None` when the rules cannot have databases or there is none.
    pub fn read(game: &Game, dir: &Path) -> Option<Endgames> {
        servable(game).ok()?;
        let folder = dir.join(format!("{:016x}", key(game)));
        if !folder.is_dir() {
            return None;
        }
        let layout = Layout::of(game);
        let most = game.total.min(MAX_SEEDS);
        let mut eg = Endgames {
            ranker: Ranker::new(layout.pits, most),
            layout,
            layers: Vec::new(),
            counts: Vec::new(),
        };
        for n in 0..=most {
            let Some(b) = read_layer(&layer_path(&folder, n), &eg.shape(game, n)) else {
                break;
            };
            eg.layers.push(b);
            eg.counts.push(eg.ranker.count(n));
        }
        (!eg.layers.is_empty()).then_some(eg)
    }

    /// The final score difference for `player` (their score minus the other's) when the game is
    /// played out from `pos` with best play, if `pos` is finished or has an exact value in the
    /// databases.
    pub fn final_margin(&self, game: &Game, pos: &Position, player: Player) -> Option<i32> {
        let now = margin(game, pos, player);
        if pos.over {
            return Some(now);
        }
        let v = self.value(pos)?;
        Some(if pos.to_move == player { now + v } else { now - v })
    }

    /// Every legal move of `pos` with the final score difference it leads to for the player to move,
    /// with best play after it, when `pos` and every move's position have exact values in the
    /// databases.
    pub fn moves(&self, game: &Game, pos: &Position) -> Option<Vec<(usize, i32)>> {
        self.value(pos)?;
        let mover = pos.to_move;
        game.legal_moves(pos)
            .into_iter()
            .map(|k| {
                let mut child = pos.clone();
                game.apply(&mut child, k).ok()?;
                Some((k, self.final_margin(game, &child, mover)?))
            })
            .collect()
    }
}

/// The exact result of `start` read from the databases, which must hold it whole (every seed on
/// its board): the value, and each opening move's, the moves that stay among the positions of the
/// start's block valued once the start has been played ([`Endgames::after_start`]). Where the
/// databases keep bounds, a search with the line of play ([`Resolver`]) finds the exact value;
/// refused with the bounds when it visits more than `max_nodes` positions.
pub fn solve_start(
    game: &Game,
    start: &Position,
    db: &Endgames,
    max_nodes: u64,
    deadline: Option<std::time::Instant>,
) -> Result<Solved, Refusal> {
    let t = std::time::Instant::now();
    let on_board: u32 = start.board.cells[..db.layout.pits].iter().sum();
    let (lo, hi) = db.bounds(start).ok_or_else(|| {
        Refusal::Rules(format!(
            "the databases hold positions of up to {} seeds on the board and the start has {on_board}: build them to {on_board} (`--endgame {on_board}`)",
            db.seeds()
        ))
    })?;
    let mover = start.to_move;
    let now = margin(game, start, mover);
    let mut resolver = Resolver::new(game, db, max_nodes).until(deadline);
    // South's final margins, and back to the mover's.
    let south = |m: Pair| for_mover(m, mover == Player::South);
    let gave_up = |what: &str, bounds: (i32, i32), e: TooLong| {
        Refusal::Rules(format!(
            "not proved within {} positions{}: {what}, with best play the player to move ends between {:+} and {:+} seeds ahead (a repetition is worth different results at different positions here, and the databases keep bounds where it is); `--max-nodes` and `--max-seconds` allow more",
            e.nodes,
            if e.late { " and the time given" } else { "" },
            bounds.0,
            bounds.1
        ))
    };
    let lo = if lo == hi {
        lo
    } else {
        let (slo, shi) = south((now + lo, now + hi));
        eprintln!(
            "note: the databases hold the start between {:+} and {:+}: searching with the line of play (`--max-nodes`, `--max-seconds` bound it)",
            now + lo,
            now + hi
        );
        let s = resolver
            .south_margin(start, (slo, shi))
            .map_err(|e| gave_up("from the start", (now + lo, now + hi), e))?;
        south((s, s)).0 - now
    };
    let block = 2 * db.ranker.count(on_board);
    if block >= 1 << 24 {
        // Minutes on the largest boards, without a bar.
        eprintln!(
            "note: valuing the opening moves: the start's {block} positions with as many seeds are valued again with the start on the line"
        );
    }
    let after = db.after_start(game, start).map_err(|e| Refusal::Rules(e.to_string()))?;
    let word = |m: i64| match m.cmp(&0) {
        std::cmp::Ordering::Greater => Value::Win,
        std::cmp::Ordering::Equal => Value::Draw,
        std::cmp::Ordering::Less => Value::Loss,
    };
    let mut moves = Vec::new();
    let mut unsettled = Vec::new();
    for k in game.legal_moves(start) {
        let mut child = start.clone();
        game.apply(&mut child, k).map_err(|e| Refusal::Rules(e.to_string()))?;
        let final_margin = if child.over {
            Some(margin(game, &child, mover))
        } else {
            let entered = db.bounds(&child);
            let bounds = entered.or_else(|| after.as_ref().and_then(|a| a.bounds(db, &child)));
            let Some((clo, chi)) = bounds else {
                return Err(Refusal::Rules(format!("move {} leads out of the databases", game.move_name(k))));
            };
            let there = margin(game, &child, child.to_move);
            let m = for_mover((there + clo, there + chi), child.to_move == mover);
            if m.0 == m.1 {
                Some(m.0)
            } else {
                let (slo, shi) = south(m);
                let s = if entered.is_some() {
                    resolver.south_margin(&child, (slo, shi))
                } else {
                    resolver.south_margin_after(start, &child, (slo, shi))
                };
                match s {
                    Ok(s) => Some(south((s, s)).0),
                    Err(e) => {
                        unsettled.push(gave_up(&format!("after move {}", game.move_name(k)), m, e));
                        None
                    }
                }
            }
        };
        if let Some(m) = final_margin {
            moves.push((k, word(i64::from(m)), i64::from(m)));
        }
    }
    // A move left unsettled is said; the answer stands when a settled move reaches the value.
    let margin = i64::from(now + lo);
    if let Some(first) = unsettled.first() {
        if !moves.iter().any(|&(_, _, m)| m == margin) {
            return Err(first.clone());
        }
        for why in &unsettled {
            eprintln!("note: {why}; that move is left out of the opening moves");
        }
    }
    Ok(Solved {
        value: word(margin),
        margin,
        to_move: mover,
        moves,
        pv: Vec::new(),
        nodes: resolver.nodes(),
        positions: positions_of(game, db.seeds()),
        components: (0, 0),
        table: 0,
        elapsed: t.elapsed(),
    })
}

fn layer_path(folder: &Path, n: u32) -> PathBuf {
    folder.join(format!("layer-{n:03}.sowdb"))
}

fn header(shape: &Shape) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&shape.n.to_le_bytes());
    h[16..24].copy_from_slice(&shape.key.to_le_bytes());
    h[24..32].copy_from_slice(&(shape.layout.pits as u64).to_le_bytes());
    h[32..40].copy_from_slice(&shape.count.to_le_bytes());
    h[40..44].copy_from_slice(&(shape.layout.blocks(shape.n) as u32).to_le_bytes());
    h[44..48].copy_from_slice(&(shape.layout.width() as u32).to_le_bytes());
    h
}

/// The layer's file mapped, if it is there, whole and of this game and format.
fn read_layer(path: &Path, shape: &Shape) -> Option<Bytes> {
    let file = fs::File::open(path).ok()?;
    // SAFETY: the file is only ever written under a temporary name and renamed when complete, and
    // never changed afterwards; a file changed by someone else while mapped could show other
    // values, never memory outside the map (its length is checked below before any read).
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    let expected = HEADER as u64 + shape.values();
    (map.len() as u64 == expected && map[..HEADER] == header(shape)).then_some(Bytes::Mapped(map))
}

fn write_layer(path: &Path, shape: &Shape, values: &[u8]) -> Result<(), Unserved> {
    let tmp = path.with_extension("tmp");
    let io = |e: std::io::Error| Unserved::Io(format!("cannot write `{}`: {e}", tmp.display()));
    let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io)?);
    f.write_all(&header(shape)).map_err(io)?;
    f.write_all(values).map_err(io)?;
    f.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)?;
    fs::rename(&tmp, path).map_err(|e| Unserved::Io(format!("cannot rename `{}`: {e}", tmp.display())))
}

/// Asks the processor for the cache line of `at`, to be read soon.
#[inline]
fn prefetch<T>(at: &T) {
    #[cfg(target_arch = "x86_64")]
    safe_arch::prefetch_t0(at);
    #[cfg(not(target_arch = "x86_64"))]
    let _ = at;
}

/// A position's two values for a player, the least and the most: equal where exact.
type Pair = (i32, i32);

/// `pair`, a successor's values for its player to move, as the player who moved into it sees them:
/// the same when he moves again (`same`), else the other player's, negated (his least comes with
/// the other's most).
fn for_mover((lo, hi): Pair, same: bool) -> Pair {
    if same { (lo, hi) } else { (-hi, -lo) }
}

/// The least and the most final score difference for `me` when `pos` ends as a repetition,
/// whoever made the move that repeated it; refused when no end rule holds then.
fn repetition_worth(game: &Game, pos: &Position, me: Player) -> Result<Pair, Unserved> {
    repetition_worth_in(game, pos, me, &mut pos.clone())
}

/// [`repetition_worth`], ending the game on `scratch` (whatever it holds before).
fn repetition_worth_in(game: &Game, pos: &Position, me: Player, scratch: &mut Position) -> Result<Pair, Unserved> {
    let mut worth = (i32::MAX, i32::MIN);
    for mover in Player::BOTH {
        scratch.clone_from(pos);
        if !game.end_by_repetition(scratch, mover) {
            return Err(Unserved::Rules(format!(
                "no end rule holds when a position repeats ({})",
                describe(game, pos)
            )));
        }
        let m = margin(game, scratch, me);
        worth = (worth.0.min(m), worth.1.max(m));
    }
    Ok(worth)
}

/// The score difference for `p`.
fn margin(game: &Game, pos: &Position, p: Player) -> i32 {
    let s = game.scores(pos);
    s[p.index()] as i32 - s[p.other().index()] as i32
}

/// Words for a position, in a refusal.
fn describe(game: &Game, pos: &Position) -> String {
    let pits = game.pit_count();
    let cells = &pos.board.cells;
    format!(
        "pits {:?}, stores {} and {}, {} to move",
        &cells[..pits],
        cells[pits],
        cells[pits + 1],
        pos.to_move.name()
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranks_number_every_placement_once_in_order() {
        let r = Ranker::new(4, 5);
        for n in 0..=5 {
            let mut bars = vec![0usize; 3];
            r.bars(n, 0, &mut bars);
            let mut cells = vec![0u32; 4];
            let mut seen = 0u64;
            loop {
                Ranker::cells_of(n, &bars, &mut cells);
                assert_eq!(cells.iter().sum::<u32>(), n);
                assert_eq!(r.rank(&cells), seen, "{cells:?}");
                let mut back = vec![0u32; 4];
                r.unrank(n, seen, &mut back);
                assert_eq!(back, cells);
                seen += 1;
                if !Ranker::next_bars(n, &mut bars) {
                    break;
                }
            }
            assert_eq!(seen, r.count(n));
        }
        // C(5 + 3, 3) placements of 5 seeds in 4 pits.
        assert_eq!(r.count(5), 56);
    }
}
