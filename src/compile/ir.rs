//! The executable form of a game: names resolved, parameters folded in, sowing tracks precomputed,
//! every expression typed, folded and compiled into a short program ([`Code`]) for the engine's stack
//! machine, so that evaluating one costs a few steps and no allocation. The engine reads only this.

pub use crate::board::NO_PIT;

mod quick;
use crate::board::{Cell, Geometry, Player};
pub use quick::{QuickAct, QuickTo};

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
    /// The value at the start, which a store or no pit reads (they keep no memory).
    pub start: i64,
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
#[derive(Debug, Clone, Default)]
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

/// A forbidden move.
#[derive(Debug, Clone)]
pub struct Forbid {
    /// What the player is told.
    pub reason: String,
    /// When the origin is forbidden.
    pub when: Code,
    /// The condition reads what the move did (`taken`), so it is tested on the board after the
    /// move, which is sown on a copy to find out.
    pub after: bool,
}

/// A trigger or capture rule.
#[derive(Clone)]
pub struct Rule {
    /// Name.
    pub name: String,
    /// Condition.
    pub when: Code,
    /// Actions.
    pub actions: Vec<Action>,
    /// What happens next.
    pub then: Then,
    /// Derived from `actions` ([`Rule::reads_board_in_actions`]): the actions may read the board, so
    /// they read it as the rule fired, from a copy. Left out of `Debug` (which the endgame
    /// databases' key reads), as what follows from the rules is.
    pub reads_board: bool,
    /// Derived from `actions` ([`Rule::quick_actions`]): the actions as steps the engine carries out
    /// without the evaluator, when every one is of a kind it knows so. Left out of `Debug` too.
    pub quick: Option<Box<[QuickAct]>>,
    /// Derived when the file is compiled: the actions meet one choice at most (the file has no
    /// `choose`, and at most one `sow taken ... either`), so that where the move's given answers
    /// are not all read, the rule's choice is a given one. Left out of `Debug` too.
    pub one_choice: bool,
}

impl std::fmt::Debug for Rule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Rule")
            .field("name", &self.name)
            .field("when", &self.when)
            .field("actions", &self.actions)
            .field("then", &self.then)
            .finish()
    }
}

impl Rule {
    /// Might the actions read the board (seeds, claims, closures, memory), rather than only where
    /// pits lie and the state of the move? Only a take of named pits and sets without a series and
    /// a `sow taken` are looked into; any other action counts as reading it.
    pub fn reads_board_in_actions(actions: &[Action]) -> bool {
        let pits = |pits: &[PitsExpr]| {
            pits.iter().any(|p| match p {
                PitsExpr::Pit(c) => c.reads_board(),
                PitsExpr::Set(s) => s.reads_board(),
            })
        };
        actions.iter().any(|a| match a {
            Action::Take { pits: p, to, series: None } => pits(p) || matches!(to, Receiver::Player(c) if c.reads_board()),
            Action::SowTaken { pit, .. } => pit.as_ref().is_some_and(Code::reads_board),
            _ => true,
        })
    }

    /// Some choice of the rule names `word` among its options (`choose(1 as "stop", 0 as "safari")`).
    pub fn names_option(&self, word: &str) -> bool {
        let pits = |pits: &[PitsExpr]| pits.iter().any(|p| matches!(p, PitsExpr::Pit(c) if c.names_option(word)));
        self.when.names_option(word)
            || self.actions.iter().any(|a| match a {
                Action::Take { pits: p, .. } | Action::Close { pits: p, .. } => pits(p),
                Action::Move { count, from, to } => {
                    count.as_ref().is_some_and(|c| c.names_option(word)) || pits(from) || to.names_option(word)
                }
                Action::Claim { pits: p, player } => pits(p) || player.names_option(word),
                Action::Remember { owner, value, .. } => owner.names_option(word) || value.names_option(word),
                Action::SowTaken { pit, .. } => pit.as_ref().is_some_and(|c| c.names_option(word)),
                Action::TakeSome { count, pit, .. } => count.names_option(word) || pit.names_option(word),
            })
    }
}

/// What happens after a capture rule. Ordered by strength: when several rules of one moment say
/// what comes next, the strongest stands (another move over the end of the move over going on).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Then {
    /// The relay rule decides.
    Continue,
    /// The move ends.
    End,
    /// The mover moves again.
    AnotherMove,
    /// The move stops and the game (or the round) ends by `Game::stated_ends[i]` (an `end game |
    /// round` action).
    EndGame(u16),
}

/// Who receives seeds.
#[derive(Debug, Clone)]
pub enum Receiver {
    /// Each pit's owner.
    Owner,
    /// A player.
    Player(Code),
    /// The mover's hand: the seeds are sown again (`sow taken`).
    Hand,
}

/// Pits an action applies to.
#[derive(Debug, Clone)]
pub enum PitsExpr {
    /// One pit.
    Pit(Code),
    /// A set of pits.
    Set(PitSet),
}

/// An action.
#[derive(Debug, Clone)]
pub enum Action {
    /// Take seeds; an optional series walks from the first pit.
    Take {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// Who gets them.
        to: Receiver,
        /// `series ...`.
        series: Option<Series>,
    },
    /// Move seeds from each pit named, in order, to one pit.
    Move {
        /// How many from each (`None`: all it holds).
        count: Option<Code>,
        /// From.
        from: Vec<PitsExpr>,
        /// To.
        to: Code,
    },
    /// Claim pits.
    Claim {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// For whom.
        player: Code,
    },
    /// Set (or add to) a memory value.
    Remember {
        /// Which value of `Game::memory`.
        slot: usize,
        /// Whose: a player or a pit.
        owner: Code,
        /// The value set, or the number added.
        value: Code,
        /// Add `value` to the value (else set it).
        add: bool,
    },
    /// Sow the seeds the rule took again, within the same move: from the pit `from`, or from the
    /// pit after `last` along the track.
    SowTaken {
        /// The pit named: the first seed falls into it, or with `after` into the one after it.
        pit: Option<Code>,
        /// The first seed falls after the pit named.
        after: bool,
        /// The direction of this sowing and the rest of the move: clockwise? (`None`: the move's.)
        cw: Option<bool>,
        /// The mover chooses the direction (`either`).
        chosen_way: bool,
        /// `sow from PIT`: the seeds of the pit named are picked up first and sown with the rule's.
        lift: bool,
    },
    /// `take N from PIT`: N seeds of one pit (or all it holds, when fewer), counted as taken.
    TakeSome {
        /// How many.
        count: Code,
        /// Which pit (or store).
        pit: Code,
        /// Who gets them.
        to: Receiver,
    },
    /// `close PITS` / `open PITS`.
    Close {
        /// Which pits.
        pits: Vec<PitsExpr>,
        /// Out of play (else back into it).
        closing: bool,
    },
}

/// A series: a walk along the track from the first pit a `take` took, taking pits while a condition
/// holds.
#[derive(Debug, Clone)]
pub struct Series {
    /// It walks against the sowing direction.
    pub backward: bool,
    /// It walks along the sowing direction (after the backward walk, when both).
    pub forward: bool,
    /// It looks at every second pit only.
    pub every_other: bool,
    /// The stores on the track are places of the walk, looked at and taken like pits (else it passes
    /// over them).
    pub with_stores: bool,
    /// It goes on while this holds (`pit` is the pit looked at).
    pub cond: Code,
    /// Each pit taken is taken with the pit across.
    pub with_opposite: bool,
    /// Most pits the walk takes.
    pub max_pits: u32,
    /// Most seeds the walk takes.
    pub max_seeds: u32,
    /// One way, every pit, uncapped and without the pit across: the usual series, which the engine
    /// walks with a loop of its own that tests none of the above.
    pub plain: bool,
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

/// A compiled expression: a short program for the engine's stack machine, with the sets of pits it
/// walks. Every value is an `i64`: a number; a truth value as 0 or 1; a player as 0 (south) or 1
/// (north); a pit as its cell, or [`NO_PIT`].
#[derive(Clone, PartialEq)]
pub struct Code {
    /// The program; it leaves one value.
    pub ops: Vec<Op>,
    /// The sets of pits its `Any`, `Size`, ... ops walk.
    pub sets: Vec<PitSet>,
    /// The words naming the options of its `Choose` ops that name them.
    pub words: Vec<Vec<String>>,
    /// The most values on the stack at once.
    pub depth: u32,
    /// How the engine answers the condition without running `ops`, when it can (most conditions).
    pub quick: Quick,
    /// For a condition read at the end of a lap (a capture's, a relay's), its answer for each
    /// mover and `last` as counts to compare, where it reads only those ([`LapTable`]). Derived
    /// from the rest, so left out of `Debug` (which the endgame databases' key reads).
    pub lap: Option<Box<LapTable>>,
    /// For a value that reads only the mover, the player to move and the way of the lap (with
    /// sets of pits that read only where a pit lies), its value for each of them, worked out when
    /// first asked ([`Code::by_way`]). Left out of `Debug` too.
    pub by_way: ByWay,
}

/// The values of a [`Code`] for each mover, player to move and way (`[4 * mover + 2 * to_move +
/// clockwise]`), each with whether `leftmost` or `rightmost` found no pit; `None` when it reads
/// more. Every memo is equal to every other: it follows from the code.
#[derive(Debug, Clone, Default)]
pub struct ByWay(pub std::sync::OnceLock<Option<Box<WayValues>>>);

/// The values of [`ByWay`], each with whether `leftmost` or `rightmost` found no pit.
pub type WayValues = [(i64, bool); 8];

impl PartialEq for ByWay {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Code")
            .field("ops", &self.ops)
            .field("sets", &self.sets)
            .field("words", &self.words)
            .field("depth", &self.depth)
            .field("quick", &self.quick)
            .finish()
    }
}

/// A condition at the end of a lap answered without the evaluator: for each mover and cell `last`
/// (`at[mover * cells + last]`), the tests that read where `last` lies answered when the file is
/// compiled, and the ones left as reads of fixed cells to compare ([`CellTest`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LapTable {
    /// The cells of the board (stores included).
    pub cells: usize,
    /// The tests of `tests[first..end]` must all hold; [`LapTable::NEVER`] never holds, and
    /// [`LapTable::GENERAL`] is read by the evaluator.
    pub at: Vec<[u16; 2]>,
    pub tests: Vec<CellTest>,
    /// Whether a test reads claims (else each reads seeds, and is read without asking what).
    pub reads_claims: bool,
    /// The way the lap goes, where the condition tests it (`clockwise`, `not clockwise`): a test
    /// of every cell alike, which fails on the other way.
    pub way: Option<bool>,
    /// Every cell is answered without the evaluator and no test reads claims: a trial sown on a
    /// packed board may read the table alone.
    pub whole: bool,
}

impl LapTable {
    pub const NEVER: u16 = u16::MAX;
    pub const GENERAL: u16 = u16::MAX - 1;
}

/// What a fixed cell holds ([`CellRead`]) within fixed bounds (`inside`) / outside them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellTest {
    pub cell: Cell,
    pub read: CellRead,
    pub lo: i64,
    pub hi: i64,
    pub inside: bool,
}

/// What a [`CellTest`] reads of its cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CellRead {
    Seeds,
    /// The seeds held before the latest seed fell in.
    Before,
    /// Whether a player claimed it, as 0 or 1.
    Claimed,
}

/// A condition in the form the engine answers fastest: one flag, one or two tests, or a longer
/// plain list of tests; else the program is run.
#[derive(Debug, Clone, PartialEq)]
pub enum Quick {
    /// The condition is just this flag being true.
    Flag(Flag),
    /// One test.
    One(Test),
    /// Two tests joined by `and`.
    Both(Test, Test),
    /// Two tests joined by `or`.
    Either(Test, Test),
    /// Three or more tests joined all by `and` or all by `or`.
    Tests(Flat),
    /// Not a plain list of tests (or not a condition): the program is run.
    Run,
}

impl Quick {
    /// The quick form of a condition that is the flag `truth`, or the plain list `flat`.
    pub fn of(truth: Option<Flag>, flat: Option<Flat>) -> Quick {
        if let Some(f) = truth {
            return Quick::Flag(f);
        }
        let Some(flat) = flat else { return Quick::Run };
        match (flat.tests.as_slice(), flat.all) {
            ([t], _) => Quick::One(*t),
            ([a, b], true) => Quick::Both(*a, *b),
            ([a, b], false) => Quick::Either(*a, *b),
            _ => Quick::Tests(flat),
        }
    }

    /// The tests of a condition made of tests joined by `and` (or of one test), if it is one: what
    /// the compiled forms (fast forms, lap tables, an end rule's guard) read of a condition.
    pub fn and_tests(&self) -> Option<Vec<Test>> {
        Some(match self {
            Quick::One(t) => vec![*t],
            Quick::Both(a, b) => vec![*a, *b],
            Quick::Tests(flat) if flat.all => flat.tests.clone(),
            _ => return None,
        })
    }
}

impl Code {
    /// One of its choices names `word` among its options.
    pub fn names_option(&self, word: &str) -> bool {
        self.words.iter().any(|options| options.iter().any(|w| w == word))
    }

    /// A program giving one fixed value.
    pub fn constant(n: i64) -> Code {
        Code {
            ops: vec![Op::Int(n)],
            sets: Vec::new(),
            words: Vec::new(),
            depth: 1,
            quick: Quick::Run,
            lap: None,
            by_way: ByWay::default(),
        }
    }

    /// The flag the condition is, when it is just one.
    pub fn truth(&self) -> Option<Flag> {
        match self.quick {
            Quick::Flag(f) => Some(f),
            _ => None,
        }
    }
}

/// A condition that is one test, or tests joined all by `and` or all by `or`.
#[derive(Debug, Clone, PartialEq)]
pub struct Flat {
    /// `true`: every test must hold (`and`); `false`: one is enough (`or`).
    pub all: bool,
    /// The tests, in the order written.
    pub tests: Vec<Test>,
}

/// One test of a [`Flat`] condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// Two values compared.
    Cmp(Operand, CmpOp, Operand),
    /// A value within fixed bounds (`true`) / outside them: every comparison with a fixed number
    /// is one of these (`x > 3` is `x in 4..MAX`, `x != 0` is `x` outside `0..0`).
    In(Operand, i64, i64, bool),
    /// A number even (`true`) / odd.
    Parity(Operand, bool),
    /// The side of a pit is (`true`) / is not a player: `last.side == opponent` in one step, the
    /// most common test of a capture rule.
    SideIs(Reg, Who, bool),
    /// The seeds of a pit within fixed bounds (`true`) / outside them: `last.count in 2..3` in one
    /// step.
    CountIn(Reg, i64, i64, bool),
    /// The seeds a pit held before the latest seed fell in, within fixed bounds / outside them.
    BeforeIn(Reg, i64, i64, bool),
    /// The seeds of the pit across, within fixed bounds / outside them.
    OppositeCountIn(Reg, i64, i64, bool),
    /// The seeds of a pit are even (`true`) / odd: `pit.count is even` in one step.
    CountEven(Reg, bool),
    /// The seeds of the pit across are even (`true`) / odd.
    OppositeCountEven(Reg, bool),
    /// The seeds in a player's row, within fixed bounds / outside them.
    RowSeedsIn(Player, i64, i64, bool),
    /// A pit is (`true`) / is not a store.
    StoreIs(Reg, bool),
    /// A pit is (`true`) / is not a player's store: `last == store(mover)`.
    IsStoreOf(Reg, Who, bool),
    /// A flag is set (`true`) / is not.
    FlagIs(Flag, bool),
    /// The set of pits at this index of the condition's `sets` has a pit (`true`) / has none:
    /// `any(row(mover) where pit.count > 1)`.
    AnyIn(u32, bool),
}

/// A truth value of the state of play that conditions read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// `final`.
    Final = 0,
    /// `no_moves`.
    NoMoves = 1,
    /// `can_feed`.
    CanFeed = 2,
    /// `repeated`.
    Repeated = 3,
    /// `clockwise`.
    Clockwise = 4,
}

/// A value a [`Test`] reads directly, in one step: each common way to name a value has its own
/// variant (`last.count` is `Count(Last)`, `captured(south)` is the seeds of a fixed cell).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// A fixed number (truth value, player as 0/1, pit as its cell).
    Int(i64),
    /// A flag of the state of play (`final`, `no_moves`, `can_feed`, `repeated`), as 0 or 1.
    Flag(Flag),
    /// The lap number.
    Lap,
    /// The moves played.
    Ply,
    /// The round number.
    Round,
    /// Every seed on the board, divided by 2^s (rounding down).
    Total(u32),
    /// The seeds in a fixed cell (such as a store).
    CountCell(Cell),
    /// The seeds in a fixed player's row.
    SeedsRow(Player),
    /// Every seed in the pits of the board (`sum(board)`).
    SeedsBoard,
    /// The rounds a fixed player won.
    RoundsWonBy(Player),
    /// The pit `last`, `origin` or `pit`.
    Reg(Reg),
    /// Its seeds.
    Count(Reg),
    /// Its seeds before the latest seed fell in.
    Before(Reg),
    /// Its row player.
    Side(Reg),
    /// Its row's number (`pit.row`): a test of where a pit lies, answered before the game by the
    /// fast form.
    RowOf(Reg),
    /// Whether it is claimed.
    Claimed(Reg),
    /// Whether it is a store.
    IsStore(Reg),
    /// The pit across from it.
    Opposite(Reg),
    /// The seeds across from it.
    CountOpposite(Reg),
    /// The seeds across from it before the latest seed fell in.
    BeforeOpposite(Reg),
    /// The row player across from it.
    SideOpposite(Reg),
    /// Whether the pit across from it is claimed.
    ClaimedOpposite(Reg),
    /// A player named by the move (as 0/1).
    Who(Who),
    /// That player's store (a pit).
    StoreOf(Who),
    /// The seeds in that player's store.
    CapturedBy(Who),
    /// The seeds in that player's row.
    SeedsOf(Who),
    /// The rounds that player won.
    RoundsWon(Who),
}

/// A player named by the move in progress. The numbering lets the engine find the player without
/// a branch: bit 1 chooses the mover or the player to move, bit 0 the other player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The mover.
    Mover = 0,
    /// The mover's opponent.
    Opponent = 1,
    /// The player to move.
    ToMove = 2,
    /// The other player than the one to move.
    NotToMove = 3,
}

/// A set of pits: a row or the whole board, then filters, each a condition on `pit`.
#[derive(Clone)]
pub struct PitSet {
    /// `Some(player)` = that row; `None` = the whole board.
    pub row: Option<Code>,
    /// `where` filters, applied in order.
    pub filters: Vec<Code>,
    /// Derived from the two above by the engine the first time the set is walked: where the row
    /// and the first filters read only where a pit lies and who moves, the pits that pass them
    /// (see `Ctx::each_in_set`). Not part of the rules: left out of comparisons and of `Debug`
    /// (which the endgame databases' key reads).
    pub fixed: std::sync::OnceLock<Option<FixedPits>>,
}

impl PitSet {
    pub fn new(row: Option<Code>, filters: Vec<Code>) -> PitSet {
        PitSet {
            row,
            filters,
            fixed: std::sync::OnceLock::new(),
        }
    }
}

impl PartialEq for PitSet {
    fn eq(&self, other: &Self) -> bool {
        self.row == other.row && self.filters == other.filters
    }
}

impl std::fmt::Debug for PitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PitSet")
            .field("row", &self.row)
            .field("filters", &self.filters)
            .finish()
    }
}

/// The pits of a [`PitSet`] that pass its row and its first `filters` filters, which read only
/// where a pit lies and who moves: in the set's order, for each mover and player to move
/// (`cells[2 * mover + to_move]`). The filters after those are read as the set is walked.
#[derive(Debug, Clone)]
pub struct FixedPits {
    pub cells: [Vec<Cell>; 4],
    pub filters: usize,
}

impl PitSet {
    /// Might walking the set read the board (see [`Code::reads_board`])?
    pub fn reads_board(&self) -> bool {
        self.row.as_ref().is_some_and(Code::reads_board) || self.filters.iter().any(Code::reads_board)
    }
}

impl Code {
    /// Might the value read the board: a pit's seeds (before the latest seed too), claims,
    /// closures, memory, a row's or the board's seeds, or the moves a player has? False only when
    /// every op is one known to read none of them (where pits lie, the pits and state of the move).
    pub fn reads_board(&self) -> bool {
        self.sets.iter().any(PitSet::reads_board)
            || !self.ops.iter().all(|op| match op {
                Op::Relation(r) => matches!(r, Relation::Behind | Relation::InFront | Relation::NextAny | Relation::PreviousAny),
                Op::Int(_)
                | Op::Reg(_)
                | Op::SideOf(_)
                | Op::Mover
                | Op::Opponent
                | Op::ToMove
                | Op::Starter
                | Op::Flag(_)
                | Op::Lap
                | Op::Taken
                | Op::Lifted
                | Op::InHand
                | Op::LapStart
                | Op::FirstLapEnd
                | Op::Ply
                | Op::Round
                | Op::RoundPly
                | Op::Unless(_)
                | Op::Jump(_)
                | Op::Number
                | Op::RowOf
                | Op::PitOf
                | Op::Side
                | Op::Shared
                | Op::IsStore
                | Op::Opposite
                | Op::Store
                | Op::Other
                | Op::Not
                | Op::Neg
                | Op::Shr(_)
                | Op::Mask(_)
                | Op::CmpInt(..)
                | Op::InRangeInt(..)
                | Op::Parity(_)
                | Op::Arith(_)
                | Op::Cmp(_)
                | Op::InRange
                | Op::InSet(_)
                | Op::AndThen(_)
                | Op::OrElse(_)
                | Op::Choose(..)
                | Op::ChooseIn(_)
                | Op::ChooseRange
                | Op::Any(_)
                | Op::Size(_)
                | Op::Leftmost(_)
                | Op::Rightmost(_) => true,
                _ => false,
            })
    }

    /// Does the value read nothing but the mover, the player to move and the way of the lap, with
    /// sets of pits whose row and filters read only where a pit lies ([`Code::by_way`])?
    pub fn reads_only_way(&self) -> bool {
        self.sets
            .iter()
            .all(|s| s.row.as_ref().is_none_or(Code::reads_only_places) && s.filters.iter().all(Code::reads_only_places))
            && self.ops.iter().all(|op| {
                matches!(
                    op,
                    Op::Int(_)
                        | Op::Mover
                        | Op::Opponent
                        | Op::ToMove
                        | Op::Flag(Flag::Clockwise)
                        | Op::Unless(_)
                        | Op::Jump(_)
                        | Op::Not
                        | Op::Other
                        | Op::Leftmost(_)
                        | Op::Rightmost(_)
                )
            })
    }

    /// Does the value read nothing but where the pit `pit` lies on the board, the mover and the
    /// player to move, and fixed values (no seeds, no state of play, no other pit of the move)?
    pub fn reads_only_places(&self) -> bool {
        self.sets.is_empty()
            && self.ops.iter().all(|op| match op {
                Op::Reg(r) | Op::SideOf(r) => *r == Reg::Pit,
                Op::Relation(r) => matches!(r, Relation::Behind | Relation::InFront),
                Op::Int(_)
                | Op::Mover
                | Op::Opponent
                | Op::ToMove
                | Op::Unless(_)
                | Op::Jump(_)
                | Op::Number
                | Op::RowOf
                | Op::PitOf
                | Op::Side
                | Op::Shared
                | Op::IsStore
                | Op::Opposite
                | Op::Store
                | Op::Other
                | Op::Not
                | Op::Neg
                | Op::Shr(_)
                | Op::Mask(_)
                | Op::CmpInt(..)
                | Op::InRangeInt(..)
                | Op::Parity(_)
                | Op::Arith(_)
                | Op::Cmp(_)
                | Op::InRange
                | Op::InSet(_)
                | Op::AndThen(_)
                | Op::OrElse(_) => true,
                _ => false,
            })
    }
}

/// A pit the move in progress names (its number is its place in the engine's list of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reg {
    /// The last pit of the lap.
    Last = 0,
    /// The origin.
    Origin = 1,
    /// The pit looked at.
    Pit = 2,
}

/// One step of a [`Code`]. "Push" ops put a value on the stack; the others replace the values they
/// take (the top last) by their result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push a number (or a fixed truth value, player or pit).
    Int(i64),
    /// Push the pit `last`, `origin` or `pit`.
    Reg(Reg),
    /// Push the mover.
    Mover,
    /// Push the mover's opponent.
    Opponent,
    /// Push the player to move.
    ToMove,
    /// Push the player who began the game.
    Starter,
    /// Push a flag of the state of play, as 0 or 1.
    Flag(Flag),
    /// Push the lap number.
    Lap,
    /// Push the seeds taken by this move's rules so far.
    Taken,
    /// Push the seeds picked up to start the current lap.
    Lifted,
    /// Push the seeds still in hand.
    InHand,
    /// Push the pit the current lap started from.
    LapStart,
    /// Push the pit where the move's first lap ended.
    FirstLapEnd,
    /// Replace the pit on top by the first pit after it (before it, with the flag) along the track
    /// that is in the set given (its filters read with `pit` naming each pit looked at).
    Seek(u32, bool),
    /// Drop the condition on top; when it was false, go on at the op given (the `else` value).
    Unless(u32),
    /// Go on at the op given.
    Jump(u32),
    /// Push the moves played.
    Ply,
    /// Push the round number.
    Round,
    /// Push the moves played in this round.
    RoundPly,
    /// Push every seed on the board.
    Total,
    /// Push the seeds in `last`, `origin` or `pit`.
    CountOf(Reg),
    /// Push the seeds `before` the latest seed in `last`, `origin` or `pit`.
    BeforeOf(Reg),
    /// Push the row player of `last`, `origin` or `pit`.
    SideOf(Reg),
    /// Push the seeds in a fixed cell (such as a store).
    CountCell(Cell),
    /// Push the seeds in a fixed player's row.
    SeedsOf(Player),
    /// Pit → its seeds.
    Count,
    /// Pit → its seeds before the latest seed fell in.
    Before,
    /// Pit → its number in its row.
    Number,
    /// Pit → its row (1 for the front row).
    RowOf,
    /// Pit → a pit next to it (no pit when there is none).
    Relation(Relation),
    /// Pit, steps → the pit that many places along the track (back for fewer than 0).
    Along,
    /// Player, row, number → that player's pit (no pit when the board has none there).
    PitOf,
    /// Pit → its row's player.
    Side,
    /// Pit → its owner.
    Owner,
    /// Pit → claimed?
    Claimed,
    /// Pit → closed?
    Closed,
    /// Pit → nobody's?
    Shared,
    /// Player or pit → its memory value.
    Memory(MemoryRef),
    /// Pit → a store?
    IsStore,
    /// Pit → the pit across.
    Opposite,
    /// Player → their store.
    Store,
    /// Player → the other player.
    Other,
    /// Player → the seeds in their row.
    Seeds,
    /// Pops a player: would they have a legal move on this board?
    CanMove,
    /// Player → the seeds in their store.
    Captured,
    /// Player → the rounds they won.
    RoundsWon,
    /// Truth value → its negation.
    Not,
    /// Number → minus it.
    Neg,
    /// Number → divided by 2^s, rounding down.
    Shr(u32),
    /// Number → its remainder by 2^s (masked).
    Mask(i64),
    /// Number → compared with a fixed number.
    CmpInt(CmpOp, i64),
    /// Number → within fixed bounds?
    InRangeInt(i64, i64),
    /// Number → even (`true`) / odd?
    Parity(bool),
    /// Two numbers → one.
    Arith(ArithOp),
    /// Two values of one type → compared (players and pits only for `Eq`, `Ne`).
    Cmp(CmpOp),
    /// Number, low, high → `low <= number <= high`?
    InRange,
    /// Number and `n` more → the number is one of them?
    InSet(u32),
    /// Pop that many values (pits when the flag says so) and push the one the mover chooses among
    /// them; the options' words are the code's `words` at the last index (none past its end).
    Choose(u32, bool, u32),
    /// Push the pit the mover chooses of a set.
    ChooseIn(u32),
    /// Pop the highest number and the lowest, and push the one the mover chooses between them.
    ChooseRange,
    /// `and`: a false top ends the condition at the given op (keeping false); else it is dropped.
    AndThen(u32),
    /// `or`: a true top ends the condition at the given op (keeping true); else it is dropped.
    OrElse(u32),
    /// Push whether the set (by index) has a pit.
    Any(u32),
    /// Push the number of pits of the set.
    Size(u32),
    /// Push the seeds in the set.
    Sum(u32),
    /// Push the set's leftmost pit (or none).
    Leftmost(u32),
    /// Push the set's rightmost pit (or none).
    Rightmost(u32),
}

/// Comparisons of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
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
}

impl CmpOp {
    /// Compares `a` with `b`.
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
    /// The comparison with its sides swapped (`a < b` is `b > a`).
    pub fn swapped(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            op => op,
        }
    }
}

/// Arithmetic on numbers; it saturates instead of overflowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
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

impl ArithOp {
    /// `a op b`.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            ArithOp::Add => a.saturating_add(b),
            ArithOp::Sub => a.saturating_sub(b),
            ArithOp::Mul => a.saturating_mul(b),
            // Division by zero has no sensible count; it gives 0 rather than stopping the game.
            // (`checked_`: the smallest number divided by -1 overflows; it gives 0 as well.)
            ArithOp::Div => a.checked_div_euclid(b).unwrap_or(0),
            ArithOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
        }
    }
}
