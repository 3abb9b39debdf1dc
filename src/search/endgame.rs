//! Endgame databases: the exact value of every position with at most `N` seeds on the board, for
//! any rule file whose seeds on the board never increase, built by retrograde analysis over the
//! engine's public moves and kept on disk, read in place (memory-mapped).
//!
//! **What a value is.** For a position (the seeds in the pits and whose turn it is), the most the
//! player to move can add to his score difference from here on with best play by both, when both
//! maximise their own final difference: the final margin minus the margin now. It does not depend
//! on the stores when no rule reads them (checked, see below), so one value serves every split of
//! the seeds already taken. It decides the result too, because the games served are won by the
//! player with more seeds (checked on every finished position the build meets).
//!
//! **Layers.** Seeds on the board never increase, so a move leads to a position with fewer seeds
//! (a layer built before) or as many (the same layer). The layers are built from 0 seeds up; a
//! position's value comes from its successors'. Within a layer, positions are evaluated depth
//! first with memory (a move that keeps every seed on the board leads to a position of the same
//! layer, whose value is worked out first). A position that recurs within a layer (a cycle of
//! moves that take nothing) would need the history, which these tables do not keep: such a rule
//! file is refused with the cycle found. The engine has no moves backwards, so the analysis runs
//! forwards over each layer, from its successors' values, rather than from un-moves.
//!
//! **Index.** A layer's positions are the ways to put `n` seeds into `P` pits, numbered by the
//! combinatorial number system (the colex rank of the stars-and-bars subset), which is a bijection
//! onto `0..C(n + P - 1, P - 1)`: one byte a position, no key stored.
//!
//! **Files.** One file per layer under `DIR/<key>/`, with a header (magic, version, key, layer,
//! pits, count) and then the values for south to move, then for north to move. The key is a hash
//! of the compiled rules (the rule file with its parameters folded in, every rule the engine
//! plays). A layer is written to a temporary file and renamed when done, so a build stopped by
//! Ctrl-C resumes from its last finished layer.
//!
//! **What is served.** Games without rounds, repetition rules, a move number, claims, closures or
//! memory (their values would depend on more than the pits and the turn). While building, every
//! move is checked: seeds on the board must not increase, a finished game must be won by the
//! player with more seeds, and (on one position in [`STORE_CHECK_EVERY`]) the moves must play the
//! same with another split of the stores. A failed check refuses the game with the position that
//! showed it.

use std::fmt;
use std::fs;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicI8, AtomicU64, Ordering};

use rayon::prelude::*;

use crate::engine::{Game, Outcome, Player, Position};

/// The first bytes of every database file.
pub const MAGIC: &[u8; 8] = b"SOWENDGM";
/// The format's version: a file of another version is built again.
pub const VERSION: u32 = 1;
/// Bytes before the values.
const HEADER: usize = 40;
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
    } else if game.uses_repeated {
        "a rule reads `repeated`, so a position's value depends on the positions before it"
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

/// The databases of one game: layers 0 to [`Endgames::seeds`].
pub struct Endgames {
    ranker: Ranker,
    pits: usize,
    layers: Vec<Bytes>,
    counts: Vec<u64>,
}

impl fmt::Debug for Endgames {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Endgames {{ seeds: {} }}", self.seeds())
    }
}

/// Positions (both players to move) of every layer up to `seeds` on a board of `pits` pits.
pub fn positions_up_to(pits: usize, seeds: u32) -> u64 {
    let r = Ranker::new(pits, seeds);
    (0..=seeds).map(|n| 2 * r.count(n)).fold(0u64, u64::saturating_add)
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

impl Endgames {
    /// The most seeds on the board of a position in the databases.
    pub fn seeds(&self) -> u32 {
        self.layers.len() as u32 - 1
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
        let pits = game.pit_count();
        let ranker = Ranker::new(pits, seeds);
        let folder = build.dir.map(|d| d.join(format!("{:016x}", key(game))));
        if let Some(f) = &folder {
            fs::create_dir_all(f).map_err(|e| Unserved::Io(format!("cannot create `{}`: {e}", f.display())))?;
        }
        let mut eg = Endgames {
            ranker,
            pits,
            layers: Vec::new(),
            counts: Vec::new(),
        };
        let mut loaded = Vec::new();
        for n in 0..=seeds {
            loaded.push(
                folder
                    .as_ref()
                    .and_then(|f| read_layer(&layer_path(f, n), key(game), n, pits, eg.ranker.count(n))),
            );
        }
        let total: u64 = (0..=seeds)
            .filter(|&n| loaded[n as usize].is_none())
            .map(|n| 2 * eg.ranker.count(n))
            .sum();
        let done = AtomicU64::new(0);
        for (n, layer) in (0..=seeds).zip(loaded) {
            let bytes = match layer {
                Some(b) => b,
                None => {
                    let values = eg.build_layer(game, n, &done, total, build)?;
                    match &folder {
                        Some(f) => {
                            write_layer(&layer_path(f, n), key(game), n, pits, eg.ranker.count(n), &values)?;
                            read_layer(&layer_path(f, n), key(game), n, pits, eg.ranker.count(n))
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
    /// databases: not finished and at most [`Endgames::seeds`] seeds on the board.
    #[inline]
    pub fn value(&self, pos: &Position) -> Option<i32> {
        if pos.over {
            return None;
        }
        self.value_of(&pos.board.cells[..self.pits], pos.to_move)
    }

    /// [`Endgames::value`] of the position whose pits hold `pits` (every pit, in order) with
    /// `to_move` to move.
    #[inline]
    pub(crate) fn value_of(&self, pits: &[u32], to_move: Player) -> Option<i32> {
        let n: u32 = pits.iter().sum();
        let layer = self.layers.get(n as usize)?;
        let r = self.ranker.rank(pits);
        let i = to_move.index() as u64 * self.counts[n as usize] + r;
        Some(i32::from(layer.values()[i as usize] as i8))
    }

    /// Asks the processor for the byte [`Endgames::value_of`] reads for the same position, so
    /// that the read soon after does not wait for memory (the layers are far larger than the
    /// caches).
    #[inline]
    pub(crate) fn prefetch_of(&self, pits: &[u32], to_move: Player) {
        let n: u32 = pits.iter().sum();
        if let Some(layer) = self.layers.get(n as usize) {
            let i = to_move.index() as u64 * self.counts[n as usize] + self.ranker.rank(pits);
            #[cfg(target_arch = "x86_64")]
            safe_arch::prefetch_t0(&layer.values()[i as usize]);
            #[cfg(not(target_arch = "x86_64"))]
            let _ = (layer, i);
        }
    }

    /// The values of layer `n` (south to move, then north), as the files hold them.
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
        let pits = game.pit_count();
        let most = game.total.min(MAX_SEEDS);
        let ranker = Ranker::new(pits, most);
        let k = key(game);
        let mut layers = Vec::new();
        let mut counts = Vec::new();
        for n in 0..=most {
            let Some(b) = read_layer(&layer_path(&folder, n), k, n, pits, ranker.count(n)) else {
                break;
            };
            layers.push(b);
            counts.push(ranker.count(n));
        }
        if layers.is_empty() {
            return None;
        }
        Some(Endgames {
            ranker,
            pits,
            layers,
            counts,
        })
    }

    /// The final score difference for `player` (their score minus the other's) when the game is
    /// played out from `pos` with best play, if `pos` is finished or in the databases.
    pub fn final_margin(&self, game: &Game, pos: &Position, player: Player) -> Option<i32> {
        let now = margin(game, pos, player);
        if pos.over {
            return Some(now);
        }
        let v = self.value(pos)?;
        Some(if pos.to_move == player { now + v } else { now - v })
    }

    /// Every legal move of `pos` with the final score difference it leads to for the player to move,
    /// with best play after it, when `pos` is in the databases (its moves then lead to positions in
    /// them or to the end of the game).
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

    /// Builds layer `n`, the layers below it being done.
    fn build_layer(&self, game: &Game, n: u32, done: &AtomicU64, total: u64, build: &Build<'_>) -> Result<Vec<u8>, Unserved> {
        let count = self.ranker.count(n);
        let values: Vec<AtomicI8> = (0..2 * count).map(|_| AtomicI8::new(UNKNOWN)).collect();
        let chunks = (2 * count).div_ceil(CHUNK);
        let mut template = game.initial(None);
        template.history.clear();
        let pool = rayon::ThreadPoolBuilder::new()
            // The depth-first walk within a layer recurses once per move that keeps every seed.
            .stack_size(256 << 20)
            .build()
            .map_err(|e| Unserved::Io(format!("cannot start the threads: {e}")))?;
        pool.install(|| {
            (0..chunks).into_par_iter().try_for_each(|c| {
                if build.stop.load(Ordering::Relaxed) {
                    return Err(Unserved::Stopped);
                }
                let mut w = Worker {
                    eg: self,
                    game,
                    n,
                    count,
                    values: &values,
                    template: &template,
                    stack: Vec::new(),
                };
                let from = c * CHUNK;
                let to = (from + CHUNK).min(2 * count);
                let mut cells = vec![0u32; self.pits];
                let mut bars = vec![0usize; self.pits - 1];
                let side_of = |i: u64| if i < count { 0 } else { 1 };
                self.ranker.bars(n, from % count, &mut bars);
                for i in from..to {
                    if i == count {
                        // North's half starts again from the first placement.
                        self.ranker.bars(n, 0, &mut bars);
                    }
                    Ranker::cells_of(n, &bars, &mut cells);
                    w.solve(&cells, side_of(i), i)?;
                    Ranker::next_bars(n, &mut bars);
                }
                let d = done.fetch_add(to - from, Ordering::Relaxed) + to - from;
                (build.report)(BuildProgress { done: d, total, layer: n });
                Ok(())
            })
        })?;
        Ok(values.into_iter().map(|v| v.into_inner() as u8).collect())
    }
}

fn layer_path(folder: &Path, n: u32) -> PathBuf {
    folder.join(format!("layer-{n:03}.sowdb"))
}

fn header(key: u64, n: u32, pits: usize, count: u64) -> [u8; HEADER] {
    let mut h = [0u8; HEADER];
    h[..8].copy_from_slice(MAGIC);
    h[8..12].copy_from_slice(&VERSION.to_le_bytes());
    h[12..16].copy_from_slice(&n.to_le_bytes());
    h[16..24].copy_from_slice(&key.to_le_bytes());
    h[24..32].copy_from_slice(&(pits as u64).to_le_bytes());
    h[32..40].copy_from_slice(&count.to_le_bytes());
    h
}

/// The layer's file mapped, if it is there, whole and of this game and format.
fn read_layer(path: &Path, key: u64, n: u32, pits: usize, count: u64) -> Option<Bytes> {
    let file = fs::File::open(path).ok()?;
    // SAFETY: the file is only ever written under a temporary name and renamed when complete, and
    // never changed afterwards; a file changed by someone else while mapped could show other
    // values, never memory outside the map (its length is checked below before any read).
    let map = unsafe { memmap2::Mmap::map(&file) }.ok()?;
    let expected = HEADER as u64 + 2 * count;
    (map.len() as u64 == expected && map[..HEADER] == header(key, n, pits, count)).then_some(Bytes::Mapped(map))
}

fn write_layer(path: &Path, key: u64, n: u32, pits: usize, count: u64, values: &[u8]) -> Result<(), Unserved> {
    let tmp = path.with_extension("tmp");
    let io = |e: std::io::Error| Unserved::Io(format!("cannot write `{}`: {e}", tmp.display()));
    let mut f = std::io::BufWriter::new(fs::File::create(&tmp).map_err(io)?);
    f.write_all(&header(key, n, pits, count)).map_err(io)?;
    f.write_all(values).map_err(io)?;
    f.into_inner().map_err(|e| io(e.into_error()))?.sync_all().map_err(io)?;
    fs::rename(&tmp, path).map_err(|e| Unserved::Io(format!("cannot rename `{}`: {e}", tmp.display())))
}

/// One thread's work on a layer.
struct Worker<'a> {
    eg: &'a Endgames,
    game: &'a Game,
    n: u32,
    count: u64,
    values: &'a [AtomicI8],
    template: &'a Position,
    /// The positions of the layer being evaluated on this thread, for finding cycles.
    stack: Vec<u64>,
}

/// The score difference for `p`.
fn margin(game: &Game, pos: &Position, p: Player) -> i32 {
    let s = game.scores(pos);
    s[p.index()] as i32 - s[p.other().index()] as i32
}

/// Words for a position, in a refusal.
fn describe(game: &Game, pos: &Position) -> String {
    let pits = game.pit_count();
    format!("pits {:?}, {} to move", &pos.board.cells[..pits], pos.to_move.name())
}

impl Worker<'_> {
    /// A position of the layer: `cells` in the pits, the seeds taken split between the stores
    /// (`other_split` puts them all in north's).
    fn position(&self, cells: &[u32], side: usize, other_split: bool) -> Position {
        let mut pos = self.template.clone();
        let pits = cells.len();
        pos.board.cells[..pits].copy_from_slice(cells);
        let taken = self.game.total - self.n;
        let south = if other_split { 0 } else { taken / 2 };
        pos.board.cells[pits] = south;
        pos.board.cells[pits + 1] = taken - south;
        pos.to_move = if side == 0 { Player::South } else { Player::North };
        pos
    }

    /// The value of the layer's position `index` (`cells`, `side` to move), worked out if unknown.
    fn solve(&mut self, cells: &[u32], side: usize, index: u64) -> Result<i8, Unserved> {
        let known = self.values[index as usize].load(Ordering::Relaxed);
        if known != UNKNOWN {
            return Ok(known);
        }
        if self.stack.contains(&index) {
            let pos = self.position(cells, side, false);
            return Err(Unserved::Cycle(describe(self.game, &pos)));
        }
        let pos = self.position(cells, side, false);
        let moves = self.outcomes(&pos)?;
        if index.is_multiple_of(STORE_CHECK_EVERY) {
            let other = self.position(cells, side, true);
            if self.outcomes(&other)? != moves {
                return Err(Unserved::Stores(describe(self.game, &pos)));
            }
        }
        self.stack.push(index);
        let mut best = i32::MIN;
        for (gain, next) in moves {
            let v = match next {
                None => gain,
                Some((child, same)) => {
                    let m: u32 = child.iter().sum();
                    let cv = if m < self.n {
                        let r = self.eg.ranker.rank(&child);
                        let side = usize::from(same) ^ side ^ 1;
                        i32::from(self.eg.layers[m as usize].values()[(side as u64 * self.eg.counts[m as usize] + r) as usize] as i8)
                    } else {
                        let child_side = if same { side } else { side ^ 1 };
                        let r = self.eg.ranker.rank(&child);
                        let i = child_side as u64 * self.count + r;
                        match self.solve(&child, child_side, i) {
                            Ok(v) => i32::from(v),
                            Err(e) => {
                                self.stack.pop();
                                return Err(e);
                            }
                        }
                    };
                    gain + if same { cv } else { -cv }
                }
            };
            best = best.max(v);
        }
        self.stack.pop();
        if best == i32::MIN {
            // No move and the game goes on: it ends as it is, and nothing more is taken.
            best = 0;
        }
        let v = i8::try_from(best).expect("a value is at most the seeds on the board");
        self.values[index as usize].store(v, Ordering::Relaxed);
        Ok(v)
    }

    /// Each legal move of `pos`: what it adds to the mover's score difference, and where it leads
    /// (the pits, and whether the mover moves again) unless the game ends.
    #[allow(clippy::type_complexity)]
    fn outcomes(&self, pos: &Position) -> Result<Vec<(i32, Option<(Vec<u32>, bool)>)>, Unserved> {
        let game = self.game;
        let before = margin(game, pos, pos.to_move);
        let mut out = Vec::new();
        let mut fast = Vec::new();
        if game.fast_moves(pos, &mut fast) {
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
            for (k, child) in super::successors(game, pos) {
                out.push(self.outcome(pos, k, &child, before)?);
            }
        }
        if out.is_empty() && !pos.over {
            // As the searches score a position without moves: finished as it is.
            let ended = super::alphabeta::finished_as_is(game, pos);
            out.push((margin(game, &ended, pos.to_move) - before, None));
        }
        Ok(out)
    }

    /// What move `k` from `pos` (whose mover's margin is `before`) into `child` adds to the mover's
    /// score difference, and where it leads, checking what the databases stand on.
    #[allow(clippy::type_complexity)]
    fn outcome(&self, pos: &Position, k: usize, child: &Position, before: i32) -> Result<(i32, Option<(Vec<u32>, bool)>), Unserved> {
        let game = self.game;
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
        let cells = child.board.cells[..self.eg.pits].to_vec();
        if cells.iter().sum::<u32>() > self.n {
            return Err(Unserved::Grows(format!("{} from {}", game.move_name(k), describe(game, pos))));
        }
        Ok((gain, Some((cells, child.to_move == mover))))
    }
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
