//! The executable form of a game: names resolved, parameters folded in, sowing tracks precomputed,
//! every expression typed, folded and compiled into a short program ([`Code`]) for the engine's stack
//! machine, so that evaluating one costs a few steps and no allocation. The engine reads only this.

pub use crate::board::NO_PIT;

mod code;
mod quick;
mod rule;
use crate::board::{Cell, Geometry, Player};
pub use code::*;
pub use quick::{QuickAct, QuickTo};
pub use rule::*;

/// A rule file compiled for the engine.
#[derive(Debug, Clone)]
pub struct Game {
    /// Display name.
    pub(crate) name: String,
    /// How hard the game is to learn (`level beginner|intermediate|advanced`), for people choosing a
    /// game; no rule reads it.
    pub(crate) level: Option<String>,
    /// The game's own words and what each means (`word "NAME" means "TEXT"`), in the file's order:
    /// the narration explains each the first time it says it ([`Game::gloss`]).
    pub(crate) words: Vec<(String, String)>,
    /// The `seeds` lines read by pit, in order (seeds, and the condition on `pit`, `None` for every
    /// pit), until the engine's `prepare` (the stage above) has given each pit the seeds of the first that holds.
    pub(crate) seeds_cases: Vec<(u32, Option<Code>)>,
    /// The board's shape (a `Game` reads as its [`Geometry`] too: `game.opposite(c)`).
    pub(crate) geometry: Geometry,
    /// Whose pits a move may start from.
    pub(crate) play_from: crate::board::PlayFrom,
    /// Ways to play one pit: 2 when some phase lets the mover choose the direction (a move is then a
    /// pit and a direction: counter-clockwise for moves `1..=side_pits`, clockwise for the next
    /// `side_pits`), else 1.
    pub(crate) choices: usize,
    /// Stores are sown into (else they only hold captures).
    pub(crate) stores_sown: bool,
    /// Seeds of every cell at the start (pits, then the two stores).
    pub(crate) initial: Vec<u32>,
    /// Who moves first.
    pub(crate) first: Player,
    /// Phases in order; the last one is the usual rules (condition `None`).
    pub(crate) phases: Vec<Phase>,
    /// Triggers (the same in every phase).
    pub(crate) triggers: Vec<Rule>,
    /// Per mover and cell, the counts of the pit a seed falls into (bit `k`; bit 63 for 63 or more)
    /// with which some trigger may hold.
    pub(crate) trigger_at: [Vec<u64>; 2],
    /// Feeding policy.
    pub(crate) feeding: Option<Feeding>,
    /// Grand slam policy.
    pub(crate) grand_slam: Option<GrandSlam>,
    /// End rules in order.
    pub(crate) ends: Vec<EndRule>,
    /// The end rules of `end game | round` actions: a rule's `then` names one
    /// ([`Then::EndGame`]).
    pub(crate) stated_ends: Vec<EndRule>,
    /// Rules `at round start`, in order: carried out once a round is set up (the first included).
    pub(crate) round_starts: Vec<Rule>,
    /// Rules `at round end`, in order: carried out once a round's result is counted.
    pub(crate) round_ends: Vec<Rule>,
    /// Rounds, if the game is a match.
    pub(crate) rounds: Option<Rounds>,
    /// Some rule claims pits (the position shows `claimed`).
    pub(crate) uses_claims: bool,
    /// Some rule closes or opens pits during a move.
    pub(crate) closes_in_moves: bool,
    /// Some rule closes pits (the position shows `closed`).
    pub(crate) uses_closed: bool,
    /// Every seed in the game.
    pub(crate) total: u32,
    /// Some expression asks whether a position `repeated` (else the engine keeps no history).
    pub(crate) uses_repeated: bool,
    /// Some expression reads the move number `ply` (so a position with its move number never recurs).
    pub(crate) uses_ply: bool,
    /// Some expression reads the moves played in this round (`round_ply`: the position JSON shows it).
    pub(crate) uses_round_ply: bool,
    /// Some expression reads the round number `round` or the rounds won (`rounds_won`): boards alike
    /// in different rounds of a match may then go on differently.
    pub(crate) uses_round: bool,
    /// Some expression reads who began the game (`starter`: the position JSON shows it).
    pub(crate) uses_starter: bool,
    /// Some rule asks the mover to choose during the move (`choose(..)`, `sow taken .. either`): a
    /// move then carries its answers, and its legal moves are found by trying each pit's move.
    pub(crate) uses_choose: bool,
    /// A player with no legal move passes the turn while the other player can move.
    pub(crate) passing: bool,
    /// Some phase lets the player to move pass (`pass when COND`): the move numbered
    /// [`Game::pass_move`], named `pass`.
    pub(crate) may_pass: bool,
    /// Some expression reads a pit's count `before` the latest seed (else the engine does not track it).
    pub(crate) uses_before: bool,
    /// Some expression reads `total` (worked out once per position then).
    pub(crate) uses_total: bool,
    /// Some expression reads a store or the total (see `Typer::stores`).
    pub(crate) reads_stores: bool,
    /// Some rule other than an end rule reads `repeated`: a move itself may then depend on the
    /// positions before it.
    pub(crate) repeated_in_moves: bool,
    /// No rule ever takes seeds out of a store (before the end of a round), so once a store has grown
    /// no earlier position of the round can come back, and the history before it can be forgotten.
    pub(crate) stores_only_grow: bool,
    /// Per cell, the random numbers a position's identity for the repetition rule is made of: seeds,
    /// then claimed by south, claimed by north, closed (see `Game::hash`).
    pub(crate) hash_keys: Vec<u64>,
    /// Per player, all ones on the cells of the player's row and zero elsewhere, over the cells a
    /// board keeps inline: a row's seeds are then summed over a fixed number of cells, which the
    /// compiler turns into a few vector additions instead of a loop of unknown length.
    pub(crate) row_masks: [[u32; crate::board::INLINE]; 2],
    /// Per cell (pits, then stores), the player whose row or store it is (nobody for a shared pit): a
    /// condition's `last.side` is one look-up.
    pub(crate) sides: Vec<Option<Player>>,
    /// The same as numbers, as the expression machine reads a side: 0 south, 1 north, 2 nobody.
    pub(crate) side_codes: Vec<u8>,
    /// The first 64 end rules sorted by how they are tested, as bit sets.
    pub(crate) end_kinds: EndKinds,
    /// The values of `memory { }`, in the order declared (empty: the game keeps no memory).
    pub(crate) memory: Vec<MemorySlot>,
    /// Every memory value at the start of the game, laid out as [`MemoryRef`] says.
    pub(crate) memory_start: Vec<i64>,
    /// The tables of the fast form of the rules' shape, when they have one (see `compile::shape`);
    /// `None` plays every move with the general engine.
    pub(crate) fast: Option<std::sync::Arc<crate::compile::shape::Fast>>,
    /// Fast forms for the sets of pits a round's set-up closed (`Game::closed_form`).
    pub(crate) closed_forms: crate::compile::shape::ClosedForms,
    /// Why the rules have no fast form (the first rule it cannot play), when they have none.
    pub(crate) general_because: Option<String>,
}

impl Game {
    /// The name of the first rule with a choice that names `word` among its options (`"the nyumba:
    /// stop, or go on a safari"` for `safari`): the file's own words for what the option decides.
    pub fn rule_naming_option(&self, word: &str) -> Option<&str> {
        let phases = self.phases.iter().flat_map(|p| {
            [&p.turn_starts, &p.captures, &p.after_captures, &p.lap_ends, &p.after_moves]
                .into_iter()
                .flatten()
        });
        phases.chain(&self.triggers).find(|r| r.names_option(word)).map(|r| r.name.as_str())
    }

    /// A memory value at the start of the game, which a store or no pit reads ever after (they keep
    /// no memory).
    pub fn memory_start_of(&self, r: MemoryRef) -> i64 {
        self.memory_start.get(r.offset as usize).copied().unwrap_or(0)
    }
}

// A game is played on its board: every question about where a pit lies (`game.opposite(c)`,
// `game.columns`) is the board's, asked through the game.
impl std::ops::Deref for Game {
    type Target = Geometry;
    fn deref(&self) -> &Geometry {
        &self.geometry
    }
}

/// A value of `memory { }`.
#[derive(Debug, Clone)]
pub struct MemorySlot {
    /// Its name.
    pub name: String,
    /// Where its values lie.
    pub at: MemoryRef,
    /// It holds a pit (as its cell, or [`NO_PIT`]), else a number.
    pub holds_pit: bool,
}

/// Where a memory value lies in a board's memory: from `offset`, south's then north's for a value
/// kept for each player, one per pit in cell order for a value kept for each pit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MemoryRef {
    /// Its first value's index.
    pub offset: u32,
    /// Kept for each pit (else for each player).
    pub per_pit: bool,
    /// Kept once for the whole game: one value, whoever is asked.
    pub whole_game: bool,
}

/// The end rules among the first 64 of each [`EndTest`] kind: bit `i` stands for rule `i`. After
/// a move the engine finds the first rule that holds from these sets, without looking at the
/// rules that cannot hold (store rules when no store changed).
#[derive(Debug, Clone, Copy, Default)]
pub struct EndKinds {
    /// Rules that are just `repeated`.
    pub repeated: u64,
    /// Rules that are just `no_moves`.
    pub no_moves: u64,
    /// Rules that read only the stores.
    pub stores_only: u64,
    /// The others.
    pub general: u64,
}

impl EndKinds {
    /// The kinds of `ends` (the first 64 of them).
    pub fn of(ends: &[EndRule]) -> EndKinds {
        let mut k = EndKinds::default();
        for (i, rule) in ends.iter().enumerate().take(64) {
            let set = match rule.test {
                EndTest::Repeated => &mut k.repeated,
                EndTest::NoMoves => &mut k.no_moves,
                EndTest::StoresOnly => &mut k.stores_only,
                EndTest::General => &mut k.general,
            };
            *set |= 1 << i;
        }
        k
    }
}

/// The cells one mover sows into, in order, with the next cell of each for a quick step.
#[derive(Clone, Default)]
pub struct Track {
    /// The cells in sowing order.
    pub cells: Vec<Cell>,
    /// Per cell (pits, then stores): the cell after it on the track (for a cell not on the track, the
    /// track's second cell, as if it stood first).
    pub next: Vec<Cell>,
    /// Per cell: its place in `cells` (0 for a cell not on the track, as if it stood first). The
    /// usual sowing loop counts places, so that finding each next cell does not wait on the last.
    pub place: Vec<u16>,
    /// Per cell: the cell before it on the track (for a cell not on the track, the track's last).
    pub prev: Vec<Cell>,
    /// Per place `i` (`0..=cells.len()`): a seed in each of the track's first `i` places, packed a
    /// byte a cell, so that a lap on a packed board is two or three of these added
    /// (`Track::sow_packed`, `engine::packed`); empty on a board of more than 64 cells.
    pub ahead: Vec<crate::compile::shape::WideBoard>,
}

/// The derived text but for `ahead`, which is made from `cells`: a game's text (which names its
/// databases) is what it was before the tables, and is not made longer by them.
impl std::fmt::Debug for Track {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Track")
            .field("cells", &self.cells)
            .field("next", &self.next)
            .field("place", &self.place)
            .field("prev", &self.prev)
            .finish()
    }
}

impl Track {
    /// Is the cell on this track?
    pub fn has(&self, c: Cell) -> bool {
        self.cells.get(usize::from(self.place[c as usize])) == Some(&c)
    }
}

/// The rules for the moves that start while `when` holds.
#[derive(Debug, Clone)]
pub struct Phase {
    /// Name (empty for the usual rules).
    pub name: String,
    /// When it applies; `None` = always.
    pub when: Option<Code>,
    /// Sowing.
    pub sow: Sow,
    /// Forbidden moves.
    pub forbids: Vec<Forbid>,
    /// Some forbid rule reads what the move did: every move is sown on a copy to decide.
    pub judges_outcome: bool,
    /// `captures required`: when some move takes seeds, the moves that take none are not allowed.
    pub captures_required: bool,
    /// `optional`: the mover may choose this phase's rules while its condition holds; the phase
    /// never applies by itself.
    pub optional: bool,
    /// `pass when COND`: while one of these holds (the top level's hold in every phase), the
    /// player to move may pass.
    pub passes: Vec<Code>,
    /// Every move must be sown on a copy to know whether it may be played (relays that may never end,
    /// a forbidden grand slam, forbid rules on what the move did, required captures), or may be
    /// played from an empty pit (moves from the store).
    pub sows_to_judge: bool,
    /// Capture rules in order.
    pub captures: Vec<Rule>,
    /// `after move` rules, tried in order after every move of the phase; every one that holds is
    /// carried out: the phase's own, then the usual ones.
    pub after_moves: Vec<Rule>,
    /// `at turn start` rules: every one that holds is carried out, in order, before anything is lifted.
    pub turn_starts: Vec<Rule>,
    /// `at lap end` rules: at the end of every lap, after the capture rules, every one that holds.
    pub lap_ends: Vec<Rule>,
    /// `after capture` rules: at the end of a lap where a capture rule was carried out, right after it.
    pub after_captures: Vec<Rule>,
    /// `no sowing`: a move sows nothing, its `after move` rules do what it does (and a move that
    /// leaves the seeds as they were is not legal).
    pub sows_nothing: bool,
    /// Some `after move` rule asks the mover to choose: a move tried to find its choices is tried
    /// with them.
    pub after_moves_choose: bool,
    /// Every `after move` rule only remembers (sets memory values), and no phase is chosen with a
    /// move: a listing compares what its moves leave by their seeds first, and reads these rules
    /// only for moves whose seeds match (`engine::legal::landings`).
    pub after_moves_only_remember: bool,
    /// Each mover's counter-clockwise track (south first).
    pub tracks: [Track; 2],
    /// Each mover's clockwise track: the same cells the other way round.
    pub cw_tracks: [Track; 2],
    /// Per mover (south first), per cell: the seed counts, as bits (bit `k` for `k` seeds, bit 63
    /// for 63 or more), with which a capture rule might hold when a lap ends in that cell. Worked
    /// out from the tests that read only which cell `last` is and how many seeds it holds, so that
    /// most laps, ending where no rule can hold, are passed over with one look-up.
    pub capture_at: [Vec<u64>; 2],
}

/// How seeds are sown.
#[derive(Debug, Clone)]
pub struct Sow {
    /// Counter-clockwise? (When the mover chooses, the direction of `tracks`.)
    pub ccw: bool,
    /// The mover chooses the direction with each move.
    pub either: bool,
    /// A move takes this many seeds from the mover's store (or what is left there) and sows them
    /// from the pit chosen, which receives the first seed; the pit need not hold seeds.
    pub from_store: Option<u32>,
    /// The origin gets no seed.
    pub skip_origin: bool,
    /// The mover's store is on the track.
    pub into_own_store: bool,
    /// Both stores are on every track, each after its player's row (`into both stores`).
    pub into_both_stores: bool,
    /// The pits a seed passes over by the phase's `skip when` rule, if it has one.
    pub skip: Option<Skip>,
    /// Each player sows around their own rows only (else around both players' rows).
    pub own_track: bool,
    /// A track stated piece by piece (it replaces the shared or own one).
    pub path: Option<Vec<crate::syntax::ast::TrackPiece>>,
    /// Relay condition.
    pub relay: Option<Code>,
    /// The pit a relay picks up (`None`: `last`).
    pub relay_from: Option<Code>,
    /// When the first seed falls back into the pit played (`start in origin`), tested on the board
    /// before the move.
    pub start_in_origin: Option<Code>,
    /// `lift N`: how many seeds the first lap takes from the pit played.
    pub lift: Option<Code>,
    /// A move's first lap starts otherwise than by taking every seed of the pit played (`from store`,
    /// `start in origin`, `lift`, or a phase's `no sowing`, whose first lap never starts).
    pub special_start: bool,
    /// Most laps per move, as `relay limit N` states it.
    pub relay_limit: Option<u32>,
    /// Most laps per move: the stated limit, else [`crate::check::limits::DEFAULT_RELAY_LIMIT`]. A
    /// move whose sowing would go on past them is not legal.
    pub lap_cap: u32,
    /// A move whose sowing comes back to a state a lap of it started in (it would go round for ever)
    /// is seen to, and refused as never ending before the cap; not when a rule read while sowing
    /// reads `lap` or `taken` otherwise than by comparing them with numbers known before the game
    /// (they only grow, so that no state would come back).
    pub watch_loops: bool,
    /// The largest number a rule read while sowing compares `lap` with: the watch looks only at
    /// laps past it, which the rules cannot tell apart.
    pub lap_seen: u32,
    /// The largest number a rule read while sowing compares `taken` with, if one does: the watch
    /// compares `taken` cut off one past it, as far as the rules can tell it apart.
    pub taken_seen: Option<u32>,
}

/// How the pits a `skip when` rule passes over are found.
#[derive(Debug, Clone)]
pub enum Skip {
    /// The condition reads only where a pit lies and who moves, so it was answered before the game:
    /// per mover (south first), per cell, whether a seed passes over it.
    Table([Vec<bool>; 2]),
    /// The condition reads the board or the move: it is tested for every pit a seed would fall into.
    Each(Code),
}

impl Sow {
    /// The cells `mover`'s seeds pass over by a `skip when` answered before the game, if any.
    #[inline]
    pub fn skip_table(&self, mover: Player) -> Option<&[bool]> {
        match &self.skip {
            Some(Skip::Table(t)) => Some(&t[mover.index()]),
            _ => None,
        }
    }

    /// The `skip when` condition to test for every seed, if it must be.
    #[inline]
    pub fn skip_each(&self) -> Option<&Code> {
        match &self.skip {
            Some(Skip::Each(c)) => Some(c),
            _ => None,
        }
    }
}

/// The result an end rule states, instead of comparing the scores.
#[derive(Debug, Clone)]
pub enum EndResult {
    /// This player wins.
    Winner(Code),
    /// This player loses.
    Loser(Code),
    /// Nobody wins.
    Draw,
}

/// Feeding policy.
#[derive(Debug, Clone)]
pub enum Feeding {
    /// Non-feeding moves are illegal.
    Required,
    /// Non-feeding moves end the game; the seeds go to the player.
    Penalty(Code),
}

/// Grand slam policy.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum GrandSlam {
    /// Captures are put back.
    CaptureNothing,
    /// Illegal.
    Forbidden,
    /// Allowed; `true` = another move.
    Allowed(bool),
}

/// An end rule.
#[derive(Debug, Clone)]
pub struct EndRule {
    /// Name (shared with the positions it ends: a playout's end allocates nothing for it).
    pub name: std::sync::Arc<str>,
    /// Condition.
    pub when: Code,
    /// The seeds left on the board.
    pub remaining: Remaining,
    /// The pits whose seeds `remaining` deals with (`from PITS`); `None`: every pit.
    pub remaining_from: Option<PitsExpr>,
    /// The result the rule states; `None`: the scores decide.
    pub result: Option<EndResult>,
    /// The condition asks `no_moves` or `can_feed`, so the legal moves must be known to test it.
    pub asks_moves: bool,
    /// The condition asks `can_feed`.
    pub asks_can_feed: bool,
    /// The condition asks `repeated`: a game it ends, ends by repetition.
    pub reads_repeated: bool,
    /// The condition reads nothing but the stores of named players, the seed total and fixed values:
    /// its answer can only change when a store does.
    pub reads_only_stores: bool,
    /// How the engine tests the rule after a move (worked out from the fields above).
    pub test: EndTest,
    /// An `end game` action's rule: in a game of rounds, the match ends with the round.
    pub whole_game: bool,
    /// For a rule that reads only the stores, in a game with few seeds: its answer for every pair
    /// of store counts, worked out by the engine's evaluator the first time the rule is tested
    /// (see `Game::store_table`).
    pub store_table: std::sync::OnceLock<Option<StoreTable>>,
}

/// The answers of an end rule that reads only the stores and the seed total, for every pair of
/// store counts in a game of `total` seeds.
#[derive(Debug, Clone)]
pub struct StoreTable {
    /// The seeds in the game the answers are for.
    pub total: u32,
    /// The answer for south's store `s` and north's store `n` at `s * (total + 1) + n`.
    pub holds: Vec<bool>,
}

impl StoreTable {
    /// The rule's answer for these store counts in a game of `total` seeds, when it is known.
    #[inline]
    pub fn lookup(&self, south: u32, north: u32, total: u32) -> Option<bool> {
        if total != self.total {
            return None;
        }
        let side = self.total as usize + 1;
        self.holds.get(south as usize * side + north as usize).copied()
    }
}

impl EndRule {
    /// The rule with its [`EndTest`] worked out.
    pub fn with_test(mut self) -> Self {
        self.test = match self.when.truth() {
            Some(Flag::Repeated) => EndTest::Repeated,
            Some(Flag::NoMoves) => EndTest::NoMoves,
            _ if self.reads_only_stores => EndTest::StoresOnly,
            _ => EndTest::General,
        };
        self
    }
}

/// How an end rule is tested after a move, cheapest first: the rules are tested after every move,
/// and most are one flag or read only the stores.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EndTest {
    /// The condition is just `repeated`.
    Repeated,
    /// The condition is just `no_moves`.
    NoMoves,
    /// The condition reads only the stores and fixed values (`reads_only_stores`).
    StoresOnly,
    /// Anything else.
    General,
}

/// What happens to the seeds left on the board.
#[derive(Debug, Clone)]
pub enum Remaining {
    /// To each pit's owner.
    Owner,
    /// To one player.
    To(Code),
    /// Split evenly.
    Split,
    /// Counted where they lie.
    InPlace,
    /// Not counted.
    Uncounted,
}

/// A match of rounds.
#[derive(Debug, Clone)]
pub struct Rounds {
    /// When the match is over.
    pub match_ends: Code,
    /// Most rounds (else most seeds) wins the match.
    pub by_rounds: bool,
    /// `setup fill N ...`.
    pub fill: Option<Fill>,
    /// `setup deal fewest`.
    pub deal: bool,
    /// `setup mirror`: the player with more seeds copies the other's pits, mirrored.
    pub mirror: bool,
    /// `setup store N`: seeds each player keeps in the store, out of the set-up.
    pub kept_in_store: u32,
    /// Claims survive the round.
    pub keep_claims: bool,
    /// Who opens the next round (`None`: the file's `first`).
    pub opener: Option<Opener>,
    /// `else RULE`: who opens after a drawn round or with equal seeds (`None`: as `Alternate`).
    pub tie: Option<Opener>,
}

/// `setup fill N` and its options.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Fill {
    /// Seeds a pit.
    pub per_pit: u32,
    /// `close unfilled`: the pits left empty are closed for the round.
    pub close_unfilled: bool,
    /// `remainder next`: seeds short of a whole pit go into the next pit.
    pub remainder_next: bool,
    /// `remainder made up [and claimed]`: seeds short of a whole pit go into the next pit and the
    /// other player makes it up from theirs; `Some(true)`: and owns it.
    pub made_up: Option<bool>,
    /// `as many as the other`: each player fills as many pits as the other can.
    pub as_many_as_other: bool,
    /// `as many as the other used`: the player with more seeds fills as many pits as the other
    /// filled (a pit of a remainder counts).
    pub as_many_as_used: bool,
    /// `claim unfilled`: seeds beyond a player's own pits fill the other's empty pits, claimed.
    pub claim_unfilled: bool,
    /// `from right`: each row is filled from its owner's right end.
    pub from_right: bool,
}

/// Who opens the next round (as the rule file says it; a drawn round or equal seeds: as `Alternate`).
pub use crate::syntax::ast::RoundOpener as Opener;

/// A pit found from another by where it lies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Relation {
    /// The pit behind, one row further from the middle.
    Behind,
    /// The pit in front, one row nearer the middle.
    InFront,
    /// The next cell along the mover's track.
    Next,
    /// The cell before it along the mover's track.
    Previous,
    /// `next(PIT, any)`: the next cell along the track, closed or not.
    NextAny,
    /// `previous(PIT, any)`: the cell before it, closed or not.
    PreviousAny,
}

/// A field of a pit.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PitField {
    /// Seeds now.
    Count,
    /// Seeds before the latest seed fell in.
    Before,
    /// Number in its row.
    Number,
    /// Its row, 1 for the front row.
    Row,
    /// Row player.
    Side,
    /// Owner.
    Owner,
    /// Claimed?
    Claimed,
    /// Closed?
    Closed,
    /// A store?
    Store,
    /// Nobody's (a middle row's or a ring's shared pit)?
    Shared,
}

/// Functions of a set.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Aggregate {
    /// Not empty.
    Any,
    /// Number of pits.
    Size,
    /// Seeds in them.
    Sum,
    /// Leftmost as seen by its row's player.
    Leftmost,
    /// Rightmost.
    Rightmost,
}

/// A set of pits.
#[derive(Debug, Clone)]
pub struct SetExpr {
    /// `Some(player)` = that row; `None` = the whole board.
    pub row: Option<Box<Expr>>,
    /// `where` filters, applied in order.
    pub filters: Vec<Expr>,
}

/// Binary operators.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BinOp {
    /// Logical or.
    Or,
    /// Logical and.
    And,
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less.
    Lt,
    /// Less or equal.
    Le,
    /// Greater.
    Gt,
    /// Greater or equal.
    Ge,
    /// Plus.
    Add,
    /// Minus.
    Sub,
    /// Times.
    Mul,
    /// Division rounding down.
    Div,
    /// Remainder.
    Rem,
}

/// An expression as lowered from the syntax, before typing; `compile` turns each into the typed
/// form its place asks for.
#[derive(Debug, Clone)]
pub enum Expr {
    /// A number.
    Int(i64),
    /// A truth value.
    Bool(bool),
    /// A player.
    Player(Player),
    /// The mover.
    Mover,
    /// The mover's opponent.
    Opponent,
    /// The player to move.
    ToMove,
    /// The player who began the game.
    Starter,
    /// The last pit of the lap.
    Last,
    /// The origin.
    Origin,
    /// The pit looked at.
    Pit,
    /// The lap's last seed?
    Final,
    /// Lap number.
    Lap,
    /// Seeds taken by this move's rules so far.
    Taken,
    /// Seeds picked up to start the current lap.
    Lifted,
    /// Seeds still in hand as a seed falls (`in_hand`).
    InHand,
    /// The pit the current lap started from (`lap_start`).
    LapStart,
    /// Where the move's first lap ended (`first_lap_end`).
    FirstLapEnd,
    /// `next(PIT where COND)` / `previous(...)` (the flag): the first pit after (before) PIT along the
    /// track for which every filter holds.
    Seek(Box<Expr>, Box<SetExpr>, bool),
    /// The move sows clockwise by the mover's choice.
    Clockwise,
    /// Moves played.
    Ply,
    /// Round number.
    Round,
    /// Moves played in this round.
    RoundPly,
    /// All seeds.
    Total,
    /// The player to move has no legal move.
    NoMoves,
    /// The player to move has a legal move that leaves the other player's row with seeds.
    CanFeed,
    /// The position occurred before.
    Repeated,
    /// `other(P)`.
    Other(Box<Expr>),
    /// `opposite(PIT)`.
    Opposite(Box<Expr>),
    /// `behind(PIT)`, `next(PIT)`, ...
    Relation(Relation, Box<Expr>),
    /// `store(P)`.
    Store(Box<Expr>),
    /// `pit(P, ROW, N)` (the row 1 when not given): player P's pit N of that row.
    PitOf(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `seeds(P)`.
    Seeds(Box<Expr>),
    /// `can_move(P)`: P would have a legal move (a pass aside) if it were P's turn on this board.
    CanMove(Box<Expr>),
    /// `captured(P)`.
    Captured(Box<Expr>),
    /// `rounds_won(P)`.
    RoundsWon(Box<Expr>),
    /// `PIT.field`.
    Field(Box<Expr>, PitField),
    /// `any(SET)` etc.
    Aggregate(Aggregate, Box<SetExpr>),
    /// `-e`.
    Neg(Box<Expr>),
    /// `not e`.
    Not(Box<Expr>),
    /// `a op b`.
    Binary(BinOp, Box<Expr>, Box<Expr>),
    /// `e in lo..hi`.
    InRange(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `e in {..}`.
    InSet(Box<Expr>, Vec<Expr>),
    /// `e is even` (true) / odd.
    Parity(Box<Expr>, bool),
    /// `if c then a else b`.
    If(Box<Expr>, Box<Expr>, Box<Expr>),
    /// `no_pit`.
    NoPit,
    /// A memory value of a player or a pit (`mover.opened`, `last.emptied`); it holds a pit when the
    /// flag says so.
    Memory(MemoryRef, bool, Box<Expr>),
    /// `choose(A, B, ..)`: the value the mover chooses among those listed.
    /// The words naming the options, in order (none: the options are written as their values).
    Choose(Vec<Expr>, Vec<String>),
    /// `choose(SET)`: the pit of the set the mover chooses.
    ChooseIn(Box<SetExpr>),
    /// `choose(LOW..HIGH)`: the number the mover chooses.
    ChooseRange(Box<Expr>, Box<Expr>),
}

impl Expr {
    /// Does `pred` hold for this expression or any part of it?
    pub fn mentions(&self, pred: &dyn Fn(&Expr) -> bool) -> bool {
        if pred(self) {
            return true;
        }
        let set = |s: &SetExpr| s.row.as_ref().is_some_and(|r| r.mentions(pred)) || s.filters.iter().any(|f| f.mentions(pred));
        match self {
            Expr::Int(_)
            | Expr::Bool(_)
            | Expr::Player(_)
            | Expr::Mover
            | Expr::Opponent
            | Expr::ToMove
            | Expr::Starter
            | Expr::Last
            | Expr::Origin
            | Expr::Pit
            | Expr::Final
            | Expr::Lap
            | Expr::Taken
            | Expr::Lifted
            | Expr::InHand
            | Expr::LapStart
            | Expr::FirstLapEnd
            | Expr::Clockwise
            | Expr::Ply
            | Expr::Round
            | Expr::RoundPly
            | Expr::Total
            | Expr::NoMoves
            | Expr::CanFeed
            | Expr::NoPit
            | Expr::Repeated => false,
            Expr::Other(x)
            | Expr::Opposite(x)
            | Expr::Relation(_, x)
            | Expr::Store(x)
            | Expr::Seeds(x)
            | Expr::CanMove(x)
            | Expr::Captured(x)
            | Expr::RoundsWon(x)
            | Expr::Field(x, _)
            | Expr::Memory(_, _, x)
            | Expr::Neg(x)
            | Expr::Not(x)
            | Expr::Parity(x, _) => x.mentions(pred),
            Expr::Aggregate(_, s) | Expr::ChooseIn(s) => set(s),
            Expr::Seek(x, s, _) => x.mentions(pred) || set(s),
            Expr::Binary(_, a, b) | Expr::ChooseRange(a, b) => a.mentions(pred) || b.mentions(pred),
            Expr::Choose(items, _) => items.iter().any(|i| i.mentions(pred)),
            Expr::InRange(a, b, c) | Expr::If(a, b, c) | Expr::PitOf(a, b, c) => a.mentions(pred) || b.mentions(pred) || c.mentions(pred),
            Expr::InSet(a, items) => a.mentions(pred) || items.iter().any(|i| i.mentions(pred)),
        }
    }
}
