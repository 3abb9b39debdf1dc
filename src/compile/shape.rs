//! Fast forms of common rule shapes. When a game's rules have a shape this module recognises, the
//! compiler builds tables from them with which the engine (`engine/kernel.rs`) plays a whole
//! random playout on a packed board, one byte a cell (one 128-bit number for at most 16 cells, four
//! 16-byte chunks for at most 64: [`Lanes`], [`Fast`]): a sowing is a table
//! look-up and an addition, the filled pits of a row are a few bit operations, and the end rules
//! are read from the stores, the rows and the move number without an evaluation context. Any game
//! without the shape, or any position the tables were not built for, is played by the general
//! engine, which the fast form hands the position back to whenever it meets what it does not know
//! (such as the end of a game).
//!
//! The shape recognised: one phase of rules, after any phases of an opening that hold while the
//! move number is below a bound (`when ply < 2`: the general engine plays those moves); a board of at most 64 cells (any rows a player and the
//! two stores, no shared pits); sowing along a fixed track (no `skip when`, no special start such as
//! `start in origin` or `lift`, no trigger, no other reason to sow a move to judge it), in one lap or
//! in relay laps: `relay when` with a condition made of one-step tests of `last` (as a capture's),
//! `relay limit`, no `relay from`; `forbid` rules of one-step tests of the origin, read before the
//! move, or (in a relay game) of `lap` and the rows' seeds, read after it; at most 255 seeds (one
//! byte a cell); `pass when unable` but no chosen pass; no claims, closures during a move, memory
//! or `after move` rules (in a match of rounds, a round's positions, with the tables built again for
//! the pits its set-up closed: a round's end and set-up are the general engine's); feeding required or none; a grand slam
//! that captures nothing or no grand slam rule (none with relays: the general engine undoes the
//! captures of a whole relayed move); capture rules whose conditions are lists of one-step tests on
//! `last` and whose actions take pits found from `last` by `opposite`, `behind` and `in_front`, with
//! at most a plain series, or take them into the hand and sow them on (`sow taken` alone: a lap of
//! the relay loop, from the pit after `last`); end rules
//! that are `repeated`, `no_moves`, read only the stores (tabulated), or are one-step tests of row
//! sums, cells and the move number.
//!
//! Relay laps ([`FastRelay`]) start anywhere on the mover's track: their tables are per mover and
//! start cell, along the whole track; with `skip origin` a lap that reaches the origin is read one
//! seed further, less the seed in the origin, from a table of where the origin lies after each start.
//! Two bit sets per mover, cell and count of `last` say which ends of a lap go straight on and
//! which end the move without any rule to test.

use std::collections::HashMap;
use std::sync::{Arc, RwLock};

use crate::board::{Cell, NO_PIT, Player};
use crate::compile::ir::{Action, EndTest, Feeding, Game, GrandSlam, Operand, Test, Track};

mod ends;
mod lanes;
mod relay;
mod rules;
pub use ends::{EndCheck, EndValue, FastEnd, Probe};
use ends::{end_guard, end_tests, probes};
pub(crate) use lanes::at_least_16;
pub use lanes::{Lanes, Wide};
use relay::{apart, relay};
pub use rules::{CellCond, CountShape, FastAfterForbid, FastCapture, FastForbid, FastTrigger, SetTest, has_count};
use rules::{after_forbid, capture, cell_tests, forbid, trigger};

/// Most cells (pits and stores) a board packed into 128 bits holds.
pub const LANES: usize = 16;

/// The board of the wide fast form: up to 64 cells.
pub type WideBoard = Wide<4>;

/// The fast form of a game, on the narrowest board that holds its cells.
// It lives behind the game's `Arc`, built once: the room of the larger variant costs nothing, and a
// narrow game's tables stay one pointer away from its playouts.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone)]
pub enum Fast {
    /// At most 16 cells: the board in one `u128`.
    Narrow(FastForm),
    /// At most 64 cells (boxed: its tables are a few times the narrow one's).
    Wide(Box<FastForm<WideBoard, 64>>),
}

/// The tables of a game whose rules have the shape this module knows, for a board `B` of `L` cells.
#[derive(Debug, Clone)]
pub struct FastForm<B: Lanes = u128, const L: usize = LANES> {
    /// Pits of one player.
    pub side: usize,
    /// Pits of both players (the stores are the two cells after them).
    pub pits: usize,
    /// Seeds in the game: the tables of the store-only end rules hold for this total only.
    pub total: u32,
    /// Per player, 0xFF on the lanes of their pits.
    pub row_lanes: [B; 2],
    /// Per player, the cells of their pits (bit `c` for cell `c`).
    pub row_cells: [u64; 2],
    /// Per player, the block of 16 lanes ([`Lanes::block`]) that holds all their pits, if one does
    /// (else 0xFF): their filled pits are then read from that block alone.
    pub row_block: [u8; 2],
    /// 0xFF on the lanes of the stores.
    pub store_lanes: B,
    /// Per origin cell: every lane but the origin's.
    pub keep: [B; L],
    /// Per origin cell (own pits of the mover only), the sowing of `r` seeds for `r <= lap`, and the
    /// cell the `r`-th seed falls into (`r >= 1`). Boxed: a wide board's is a hundred kilobytes.
    pub partial: Box<[[B; PLACES]; L]>,
    /// See `partial`.
    pub last: [[u8; PLACES]; L],
    /// Per mover and cell, the counts of `last` with which a capture rule may hold
    /// (`Phase::capture_at`).
    pub capture_at: [[u64; L]; 2],
    /// Per origin cell: one seed in every cell of a full round.
    pub round: [B; L],
    /// Seeds a full round sows, per origin cell.
    pub lap: [u8; L],
    /// The identity weight of a seed in each cell (`Game::hash_keys`) as four signed 16-bit digits
    /// (the weight of cell `c` is the sum of `key_digits[j][c]` times 2^(16 j), modulo 2^64), so
    /// that a board's identity is four sums of products of a byte and a 16-bit number, which the
    /// processor makes eight at a time.
    pub key_digits: [[i16; L]; 4],
    /// The pits closed (bit `c` for pit `c`) in every position these tables were built for: the
    /// tracks pass over them. A round's set-up closes pits for the whole round.
    pub closed: u64,
    /// What the closed pits add to a position's identity (`Game::hash`).
    pub closed_key: u64,
    /// Per mover, the pits (bit `k - 1` for pit `k`) whose next cell on the whole track is closed:
    /// the general engine sows such a move before it draws among its candidates (its sowing might
    /// never end), so the fast form judges them first too and draws alike.
    pub judged_first: [u64; 2],
    /// The `forbid` rules: a pit where one holds is not played.
    pub forbids: Vec<FastForbid>,
    /// Where every `forbid` rule forbids small counts alone ([`FastForbid::floor`]): in every lane,
    /// the fewest seeds a candidate holds (a block's candidates are then one compare, not the rules
    /// read one by one: 40 instructions of a Hus move). 0 where not, or without `forbid` rules.
    pub open_floor: u128,
    /// The `forbid` rules read after the move (a relay game's, whose moves are all sown to be
    /// judged): a move after which one holds is not legal.
    pub after_forbids: Vec<FastAfterForbid>,
    /// Positions of fewer moves played than this are handed to the general engine: an opening
    /// phase's (`when ply < 2`), which the fast form does not read.
    pub hand_below: u32,
    /// `pass when unable`: after a move, a player to move who has no legal move passes when the other
    /// player has one (before the repetition and end rules are read, as `Game::apply` does).
    pub passes: bool,
    /// The opponent must be fed when their row is empty.
    pub must_feed: bool,
    /// A feeding penalty: a move whose opponent has no seeds is handed to the general engine (it
    /// reads what the mover could have done).
    pub starving_handed: bool,
    /// Capture rules, in order.
    pub captures: Vec<FastCapture<L>>,
    /// Some capture rule tests or takes sets of pits (`any(board where ...)`, `take board where
    /// ...`): read out of line, so that the other games' captures carry no test of them.
    pub capture_sets: bool,
    /// Triggers, in order: with any, every lap is sown a seed at a time (`FastForm::sow_seeds`).
    pub triggers: Vec<FastTrigger>,
    /// Per mover and cell, the counts after a seed falls (bit `k` for `k`, 63 for 63 or more) with
    /// which a trigger may hold (`Game::trigger_at`).
    pub trigger_at: [[u64; L]; 2],
    /// A grand slam undoes the captures of the move.
    pub grand_slam_undone: bool,
    /// A grand slam gives the mover another move.
    pub grand_slam_again: bool,
    /// Per cell: the cell across ([`NO_PIT`] as 0xFF).
    pub across: [u8; L],
    /// Per mover: the track's step back and forward, and the cells on it (bits), for a series.
    pub prev: [[u8; L]; 2],
    /// See `prev`.
    pub next: [[u8; L]; 2],
    /// See `prev`.
    pub on_track: [u64; 2],
    /// The length of each mover's track.
    pub track_len: [u8; 2],
    /// End rules, in order (all of the game's).
    pub ends: Vec<FastEnd>,
    /// Per player and set of their moves (bit `k - 1` for pit `k`), the cell of the `i`-th move in
    /// byte `i`, and in the top byte how many there are, when a player has at most seven pits: a
    /// random move is one look-up. (A player with more finds the move among the set's bits.)
    pub nth: [[u64; 128]; 2],
    /// The probes of the move number of every end rule made of probes, with the rule's index: all
    /// are tested after every move, without a dispatch on the rule.
    pub probes: Vec<(u8, Probe)>,
    /// The probes that test rows only, answered before the game: per player who moved, player to
    /// move, south's row empty and north's row empty (index `m * 8 + t * 4 + s * 2 + n`), the rules
    /// with a probe that holds (bit `i` for rule `i`), and those with a probe that fails.
    pub row_probes: [(u64, u64); 16],
    /// The end rules with a probe in `row_probes`.
    pub row_rules: u64,
    /// The end rules made of probes any of which must hold (bit `i` for rule `i`).
    pub any_probes: u64,
    /// The end rules made of probes all of which must hold.
    pub all_probes: u64,
    /// The other general end rules (tests read one by one).
    pub tested: u64,
    /// The end rules of which only a guard is read (`ends::end_guard`): where it holds, the position
    /// is handed to the general engine, which reads the rule whole.
    pub unread: u64,
    /// Per pair of store counts (south's `s`, north's `n` at `s * (total + 1) + n`), which of the end
    /// rules that read only the stores hold: bit `j` for the rule `store_rules[j]`. Empty when no end
    /// rule reads only the stores.
    pub store_hits: Vec<u8>,
    /// Per set of bits of `store_hits`, the end rules they stand for (bit `i` for rule `i`).
    pub store_rules: Vec<u64>,
    /// Relay sowing (`relay when`), if the game's moves relay or sow taken seeds again: boxed, so
    /// that a game whose moves are one lap carries no room for it.
    pub relay: Option<Box<FastRelay<B, L>>>,
    /// Per pit `d`, the pits whose pit across is `d` (bit `c` for pit `c`): the cells of a whole
    /// board's test across ([`CellCond::whole`]) from the pits that pass it.
    pub across_from: [u64; L],
}

/// Places per origin in [`FastForm::partial`]: a power of two above any lap, so that an index
/// masked to it needs no bounds check.
pub const PLACES: usize = 32;

/// Laps of a move before the fast form looks for one that goes round for ever.
pub const WATCH_FROM: u32 = 16;

/// A home block's places of a lap's start and seeds ([`FastRelay::home_laps`]).
pub const HOME_PLACES: usize = 16 * PLACES;

/// [`FastRelay::home_step`]: the lap's end goes straight on to another lap (`go`).
pub const GO: u8 = 0;
/// [`FastRelay::home_step`]: the move ends there (`stop`).
pub const STOP: u8 = 1;
/// [`FastRelay::home_step`]: the rules are asked one by one.
pub const LOOK: u8 = 2;
/// [`FastRelay::home_step`]: the game's one capture rule holds if its test of the pit across
/// does (its tests of place and count hold); if not, the relay rule is asked.
pub const ACROSS: u8 = 3;

/// Relay sowing in fast form: when a lap ends (and no capture rule ended the move), another lap
/// starts from `last` if `when` holds of it. A relay lap from cell `s` of `r` seeds (at most a
/// round) is `partial[mover][s][r]`: the sowing along the mover's whole track. With `skip origin`,
/// when the `r` seeds reach the origin (`r >= skip_at[origin][s]`), the lap is instead the sowing of
/// `r + 1` seeds less the one in the origin, which is what passing over it does; whole rounds are
/// the origin's own (`FastForm::round`, `FastForm::lap`), which already leave it out.
#[derive(Debug, Clone)]
pub struct FastRelay<B: Lanes = u128, const L: usize = LANES> {
    /// The relay rule's condition of `last`, with what the engine adds to it: `last` is a pit (not
    /// a store) that holds seeds.
    pub when: CellCond,
    /// Most laps a move (`relay limit`, or the default): a move whose sowing would go on past them
    /// is not legal. One whose sowing comes back to the board and pit a lap started from goes round
    /// for ever, and is refused as soon as that is seen.
    pub limit: u32,
    /// Per mover and cell, the counts of `last` (bit `k` for `k` seeds, bit 63 for 63 or more) with
    /// which the end of a lap there goes straight on to another lap: no capture rule may hold
    /// (`FastForm::capture_at`) and the relay rule holds whatever the pit across holds.
    pub go: [[u64; L]; 2],
    /// The same, with which the move ends there: no capture rule may hold and the relay rule does
    /// not hold. A count in neither is looked at rule by rule.
    pub stop: [[u64; L]; 2],
    /// Per mover and cell, the counts of `last` with which the relay rule holds whatever the pit
    /// across holds, whether a capture rule may hold or not (read once none held).
    pub relays: [[u64; L]; 2],
    /// Per mover and cell, the counts of `last` with which the move surely ends there, whether a
    /// capture rule holds or not (`stop`, and the counts with which the relay rule holds whatever
    /// the pit across holds where no capture rule sows seeds again): a move known legal once it
    /// ends is legal there (the searches' stuck question; the board after is the rules').
    pub ends: [[u64; L]; 2],
    /// Per mover and start cell, the sowing of `r` seeds along the mover's whole track (no cell
    /// passed over), for `r` up to the track's length. Seeds a capture rule takes and sows again
    /// (`sow taken`) go the same way, from the cell the lap ended in.
    pub partial: Box<[[[B; PLACES]; L]; 2]>,
    /// Per mover and start cell, the cell the `r`-th seed of such a sowing falls into.
    pub last: [[[u8; PLACES]; L]; 2],
    /// Per origin and start cell: how many places along the mover's track the origin lies after the
    /// start, the seed that would fall into it (with `skip origin`; else 0xFF, never reached).
    pub skip_at: [[u8; L]; L],
    /// Per origin, one seed in its lane.
    pub unit: [B; L],
    /// The origin is passed over (`skip origin`): else `skip_at` is never reached, and not read.
    pub skips: bool,
    /// Per mover, the block of 16 lanes ([`Lanes::block`]) that holds every cell of their track,
    /// when one does and the rules read no other cell of it (`apart`; else 0xFF): a lap then adds
    /// to that block alone, held apart from the board for the whole move, one 16-byte addition from
    /// a table a sixteenth the size of `partial` (`play_relay_home` in the engine). A game whose
    /// track is each player's own pits (`track own`), whose players' pits fill blocks of their
    /// own, and whose captures take from the other player has one.
    pub home: [u8; 2],
    /// Per mover and place (`HOME_PLACES`: the start cell's place in the home block and the lap's
    /// seeds `r`, `(start & 15) * PLACES + r`), `partial`'s entry in that block less the `r` seeds
    /// picked up from the start, which held them (added with wrapping, as every lane holds at most
    /// 255 seeds), so that the pick-up and the sowing are one addition. Seeds a capture took into
    /// the hand are put into the lap's start first and picked up from there: a second table, of
    /// laps of seeds in hand, made every lap choose its table.
    pub home_laps: Box<[[u128; HOME_PLACES]; 2]>,
    /// Per mover and place (as in `home_laps`), `last`'s entry: a lap's two reads share one index.
    pub home_last: [[u8; HOME_PLACES]; 2],
    /// Per mover, place in the home block and count of `last` (`place * 256 + count`), what
    /// `go` and `stop` say of a lap's end there: [`GO`], [`STOP`], else [`ACROSS`] or [`LOOK`]
    /// (`relay::home_steps`). One read of a byte where the two bit sets read the count less than
    /// 64 first (`n.min(63)`, 5 instructions a lap), and the capture rule's tests of place and
    /// count are not made again after `capture_at`'s.
    pub home_step: Box<[[u8; 16 * 256]; 2]>,
    /// Per mover, `home` where a move is known legal before it is written (no `forbid` rule read
    /// after the move, no feeding rule): the move is then sown in place (else 0xFF).
    pub in_place: [u8; 2],
    /// Per origin, the longest lap (in seeds) that lies within a round and passes over no origin:
    /// the lap's seeds with no `skip origin`, else 0 (the home block's laps read it in line).
    pub short: [u8; L],
    /// Laps of a move before the first test of the relay limit or the watch for a sowing that goes
    /// round for ever: the smaller of the limit and [`WATCH_FROM`].
    pub careful: u32,
    /// No seed reaches a store during a move: no track passes a store, every capture's seeds are
    /// sown again, and there is no trigger. The playouts' loop then never compares the stores.
    pub stores_fixed: bool,
}

/// Sets of closed pits a game keeps fast forms for, at most: each form is tens of kilobytes.
const CLOSED_FORMS: usize = 64;

/// A game's fast forms for the sets of closed pits its rounds have met (bit `c` for pit `c`), or
/// `None` for a set whose form could not be built; shared by the threads that play the game.
#[derive(Clone, Default)]
pub struct ClosedForms(Arc<RwLock<HashMap<u64, Option<Arc<Fast>>>>>);

impl ClosedForms {
    /// The form kept for `closed`, built by `build` the first time; `None` (the general engine's
    /// positions) past [`CLOSED_FORMS`] sets.
    pub fn get_or_build(&self, closed: u64, build: impl FnOnce() -> Option<Fast>) -> Option<Arc<Fast>> {
        if let Some(found) = self.0.read().ok()?.get(&closed) {
            return found.clone();
        }
        let mut forms = self.0.write().ok()?;
        if forms.len() >= CLOSED_FORMS && !forms.contains_key(&closed) {
            return None;
        }
        forms.entry(closed).or_insert_with(|| build().map(Arc::new)).clone()
    }
}

/// Built as play meets them: not part of the game's rules.
impl std::fmt::Debug for ClosedForms {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ClosedForms")
    }
}

/// The fast form of a game's rules, or why they have none: the first rule (or part of the board)
/// the fast form cannot play, in the words of the rule file, for `bench` to tell an author who
/// wants to keep a variant fast.
pub fn recognise(game: &Game) -> Result<Fast, String> {
    recognise_closed(game, 0)
}

/// [`recognise`] for the positions whose closed pits are `closed` (bit `c` for pit `c`).
pub fn recognise_closed(game: &Game, closed: u64) -> Result<Fast, String> {
    let cells = game.pit_count() + 2;
    if cells <= LANES {
        build::<u128, LANES>(game, closed).map(Fast::Narrow)
    } else if cells <= WideBoard::LANES {
        build::<WideBoard, 64>(game, closed).map(|ff| Fast::Wide(Box::new(ff)))
    } else {
        Err(format!(
            "the board has {cells} cells (pits and stores); the fast form holds at most {}",
            WideBoard::LANES
        ))
    }
}

/// `track` without the `closed` cells (bit `c` for cell `c`). A cell not on the track is laid out
/// as `Track` lays it out: as if it stood first.
fn open_track(track: &Track, closed: u64) -> Track {
    if closed == 0 {
        return track.clone();
    }
    let cells: Vec<Cell> = track.cells.iter().copied().filter(|&c| closed >> c & 1 == 0).collect();
    let len = cells.len();
    let (Some(&first), Some(&last)) = (cells.first(), cells.last()) else {
        return Track::default();
    };
    let second = cells.get(1).copied().unwrap_or(first);
    let size = track.next.len();
    let mut open = Track {
        cells: cells.clone(),
        next: vec![second; size],
        place: vec![0; size],
        prev: vec![last; size],
        ahead: Vec::new(),
    };
    for (i, &c) in cells.iter().enumerate() {
        open.next[c as usize] = cells[(i + 1) % len];
        open.prev[c as usize] = cells[(i + len - 1) % len];
        open.place[c as usize] = i as u16;
    }
    open
}

/// `Err(why)` unless `holds`.
fn unless(holds: bool, why: &str) -> Result<(), String> {
    if holds { Ok(()) } else { Err(why.to_string()) }
}

/// Does some capture rule of the phase sow the seeds it takes again?
fn sows_again(phase: &crate::compile::ir::Phase) -> bool {
    phase
        .captures
        .iter()
        .any(|r| r.actions.iter().any(|a| matches!(a, Action::SowTaken { .. })))
}

/// The first of the board's features the fast form has no room for, if any.
fn board_unfit<B: Lanes, const L: usize>(game: &Game) -> Result<(), String> {
    unless(game.shared == 0, "the board has pits of nobody's (`shared`)")?;
    unless(!game.ring, "the board is a ring")?;
    unless(game.choices == 1, "the mover chooses the direction of a move")?;
    unless(game.halves == crate::board::Halves::None, "a row is split in halves")?;
    unless(
        game.pit_count() + 2 <= L.min(B::LANES) && L.is_power_of_two(),
        "the board is too large",
    )
}

/// The first rule of the game (not of a phase) the fast form cannot play, if any.
fn game_rules_unfit(game: &Game) -> Result<(), String> {
    // Rounds are the general engine's from the end of one to the start of the next (their set-ups);
    // the fast form plays a round's positions, with tables built for the pits its set-up closed.
    unless(!game.uses_claims, "pits are claimed")?;
    unless(!game.closes_in_moves, "pits are closed during a move")?;
    unless(game.memory.is_empty(), "the rules keep a memory")?;
    unless(!game.uses_choose, "a rule lets the mover choose (`choose`)")?;
    unless(!game.may_pass, "a player may choose to pass")?;
    unless(game.total <= 255, "the board holds more than 255 seeds")?;
    unless(game.ends.len() <= 64, "the game has more than 64 end rules")?;
    unless(
        matches!(game.play_from, crate::board::PlayFrom::Own),
        "moves are played from pits other than the mover's own (`play from`)",
    )
}

/// The first rule of the phase `phase` the fast form cannot play, if any (not its forbid,
/// capture, trigger and end rules, read one by one where they are built).
fn phase_unfit(game: &Game, phase: &crate::compile::ir::Phase) -> Result<(), String> {
    let sow = &phase.sow;
    unless(phase.after_moves.is_empty(), "an `after move` rule")?;
    unless(phase.turn_starts.is_empty(), "a `turn start` rule")?;
    unless(phase.lap_ends.is_empty(), "a `lap end` rule")?;
    unless(phase.after_captures.is_empty(), "an `after capture` rule")?;
    unless(!phase.sows_nothing, "moves sow nothing (`no sowing`)")?;
    unless(
        sow.relay_from.is_none() || sow.relay.is_none() && !sows_again(phase),
        "`relay from`",
    )?;
    let laps = sow.relay.is_some() || sows_again(phase);
    unless(!laps || game.grand_slam.is_none(), "a grand slam rule in a game whose moves relay")?;
    unless(sow.skip.is_none(), "a `skip when` rule")?;
    unless(
        !sow.special_start,
        "a move's first lap starts otherwise than from the whole pit played (`from store`, `start in origin`, `lift`)",
    )?;
    unless(!sow.either, "the mover chooses the direction")?;
    unless(sow.path.is_none(), "a track stated piece by piece (`path`)")?;
    unless(
        phase.when.is_none(),
        "a phase that holds under a condition other than an opening's `when ply < N`",
    )?;
    // The rules that make every move be sown on a copy to be judged, named first where one does.
    unless(!phase.captures_required, "`captures required`")?;
    unless(!matches!(game.grand_slam, Some(GrandSlam::Forbidden)), "a forbidden grand slam")?;
    if let Some(rule) = phase.forbids.iter().find(|f| f.after && !laps) {
        return Err(format!(
            "forbid \"{}\" reads what the move did, in a game whose moves do not relay",
            rule.reason
        ));
    }
    unless(!phase.sows_to_judge || laps, "moves are sown on a copy to be judged")
}

/// [`recognise`] on a board `B` of `L` cells.
fn build<B: Lanes, const L: usize>(game: &Game, closed: u64) -> Result<FastForm<B, L>, String> {
    // What the author changes least easily is told first: the board, then the game's rules.
    board_unfit::<B, L>(game)?;
    game_rules_unfit(game)?;
    // The usual rules; phases before them that hold only while the move number is below a bound
    // (an opening, `phase "opening" when ply < 2`) are the general engine's: their positions are
    // handed over (`FastForm::hand_below`).
    let (phase, openings) = game.phases.split_last().ok_or("the game has no rules to play")?;
    let mut hand_below = 0u32;
    for opening in openings {
        let unfit = || format!("phase \"{}\" holds other than while `ply < N` (an opening)", opening.name);
        let ply_below = match opening.when.as_ref().map(|w| w.quick.and_tests()) {
            Some(Some(tests)) => match tests.as_slice() {
                [Test::In(Operand::Ply, lo, hi, true)] if *lo <= 0 && *hi >= 0 => {
                    u32::try_from(*hi).ok().and_then(|hi| hi.checked_add(1)).ok_or_else(unfit)?
                }
                _ => return Err(unfit()),
            },
            _ => return Err(unfit()),
        };
        if opening.optional {
            return Err(format!("phase \"{}\" is optional", opening.name));
        }
        hand_below = hand_below.max(ply_below);
    }
    phase_unfit(game, phase)?;
    let sow = &phase.sow;
    let pits = game.pit_count();
    let cells = pits + 2;
    unless(closed >> pits == 0, "a store is closed")?;
    // Sowing passes over a closed pit as if it were not on the track.
    let tracks = Player::BOTH.map(|p| open_track(phase.track(p, !sow.ccw), closed));
    // A relay goes on from `last` (no `relay from`); a phase whose moves relay, or sow taken seeds
    // again, sows each move on a copy to judge it (it may never end), which the fast form does too.
    // Its grand slam would be undone at the end of the whole move: not in the shape.
    let laps = sow.relay.is_some() || sows_again(phase);
    // Forbid rules read the position before the move (not what it did): the origin, and whether
    // sets of pits have one; or (`after`) what the move did, `lap` and the rows the move left, in a
    // game whose every move is sown to be judged anyway: a relay's.
    let mut forbids = Vec::new();
    let mut after_forbids = Vec::new();
    for rule in &phase.forbids {
        let unfit = || format!("forbid \"{}\": its condition is not one the fast form reads", rule.reason);
        if !rule.after {
            forbids.push(forbid(game, &rule.when).ok_or_else(unfit)?);
        } else {
            // (Only in a relay game: `phase_unfit`.)
            after_forbids.push(after_forbid(&rule.when).ok_or_else(unfit)?);
        }
    }
    let (must_feed, starving_handed) = match game.feeding {
        None => (false, false),
        Some(Feeding::Required) => (true, false),
        // A penalty is judged on the moves the mover had: the general engine plays the rare move
        // whose opponent has no seeds.
        Some(Feeding::Penalty(_)) => (false, true),
    };
    // A forbidden grand slam refuses moves only once they are sown: not in the shape (`phase_unfit`
    // names it first).
    let (grand_slam_undone, grand_slam_again) = match game.grand_slam {
        None | Some(GrandSlam::Allowed(false)) => (false, false),
        Some(GrandSlam::CaptureNothing) => (true, false),
        Some(GrandSlam::Allowed(true)) => (false, true),
        Some(GrandSlam::Forbidden) => return Err("a forbidden grand slam".into()),
    };
    // The playouts read a change of the stores in the block that holds both.
    unless(pits / 16 == (pits + 1) / 16, "the two stores fall in different blocks of 16 cells")?;
    let side = game.side_pits();
    // A move is a bit of a `u64` (and a board of 64 cells has at most 31 pits a player anyway).
    unless(side <= 31, "a player has more than 31 pits")?;
    let mut ff = FastForm {
        side,
        pits,
        total: game.total,
        row_lanes: [B::ZERO; 2],
        row_cells: [0; 2],
        row_block: [0xFF; 2],
        store_lanes: B::spread(0b11 << pits),
        keep: [B::ZERO; L],
        partial: boxed(|| [B::ZERO; PLACES]),
        last: [[0; PLACES]; L],
        capture_at: [[0; L]; 2],
        round: [B::ZERO; L],
        lap: [0; L],
        key_digits: [[0; L]; 4],
        closed,
        closed_key: 0,
        judged_first: [0; 2],
        forbids,
        open_floor: 0,
        after_forbids,
        hand_below,
        passes: game.passing,
        must_feed,
        starving_handed,
        captures: Vec::new(),
        capture_sets: false,
        triggers: Vec::new(),
        trigger_at: [[0; L]; 2],
        grand_slam_undone,
        grand_slam_again,
        across: [0xFF; L],
        prev: [[0; L]; 2],
        next: [[0; L]; 2],
        on_track: [0; 2],
        track_len: [0; 2],
        ends: Vec::new(),
        nth: std::array::from_fn(|player| {
            std::array::from_fn(|set| {
                let mut moves = [0u8; 8];
                if side <= 7 {
                    for (slot, k) in moves.iter_mut().zip((1..=side).filter(|k| set >> (k - 1) & 1 != 0)) {
                        *slot = (player * side + k - 1) as u8;
                    }
                    moves[7] = set.count_ones() as u8;
                }
                u64::from_le_bytes(moves)
            })
        }),
        probes: Vec::new(),
        row_probes: [(0, 0); 16],
        row_rules: 0,
        any_probes: 0,
        all_probes: 0,
        tested: 0,
        unread: 0,
        store_hits: Vec::new(),
        store_rules: Vec::new(),
        relay: None,
        across_from: [0; L],
    };
    if game.uses_closed {
        ff.closed_key = (0..pits)
            .filter(|&c| closed >> c & 1 != 0)
            .fold(0u64, |h, c| h.wrapping_add(game.closed_pit_key(c)));
    }
    for c in 0..cells {
        let mut rest = game.hash_keys[c];
        for digits in &mut ff.key_digits {
            // The low 16 bits read as signed; what it takes from `rest` leaves the low bits zero.
            let d = rest as u16 as i16;
            digits[c] = d;
            rest = rest.wrapping_sub(d as i64 as u64) >> 16;
        }
        ff.keep[c] = !B::spread(1 << c);
        let across = game.opposite(c as Cell);
        ff.across[c] = if across == NO_PIT { 0xFF } else { across as u8 };
        if c < pits {
            // (Only a shared pit faces none, and such boards have no fast form.)
            unless(across != NO_PIT, "a pit faces no pit")?;
            ff.across_from[across as usize & (L - 1)] |= 1 << c;
        }
        unless(game.side_codes[c] <= 1, "a pit belongs to neither row")?;
    }
    for p in Player::BOTH {
        for c in game.row(p) {
            ff.row_lanes[p.index()] = ff.row_lanes[p.index()] | B::spread(1 << c);
            ff.row_cells[p.index()] |= 1 << c;
        }
        let blocks: Vec<usize> = game.row(p).map(|c| c / 16).collect();
        if let Some(&first) = blocks.first()
            && blocks.iter().all(|&k| k == first)
        {
            ff.row_block[p.index()] = first as u8;
        }
        let track = &tracks[p.index()];
        unless(track.cells.len() < PLACES && track.next.len() >= cells, "a track is too long")?;
        for c in 0..cells {
            ff.prev[p.index()][c] = track.prev[c] as u8;
            ff.next[p.index()][c] = track.next[c] as u8;
        }
        for &c in &track.cells {
            ff.on_track[p.index()] |= 1 << c;
        }
        ff.track_len[p.index()] = track.cells.len() as u8;
        for origin in game.row(p) {
            if closed >> origin & 1 != 0 {
                // Empty, so never played.
                continue;
            }
            unless(track.has(origin as Cell), "a pit a move starts from is not on the mover's track")?;
            // The cells a round sows into, in order, after the origin.
            let mut order = Vec::new();
            let mut c = origin;
            for _ in 0..track.cells.len() {
                c = track.next[c] as usize;
                if !(sow.skip_origin && c == origin) {
                    order.push(c);
                }
            }
            unless(!order.is_empty(), "a move's lap sows no pit")?;
            ff.lap[origin] = order.len() as u8;
            let mut add = B::ZERO;
            for (r, &c) in order.iter().enumerate() {
                ff.partial[origin][r] = add;
                add = add + B::at(c, 1);
                ff.last[origin][r + 1] = c as u8;
            }
            // A sowing of `n` seeds reads place `(n - 1) % lap + 1`: the last place is a full round.
            ff.partial[origin][order.len()] = add;
            ff.round[origin] = add;
        }
    }
    for (mover, at) in ff.capture_at.iter_mut().enumerate() {
        at[..cells].copy_from_slice(&phase.capture_at[mover][..cells]);
    }
    if laps {
        ff.relay = Some(relay(game, &ff, phase, &tracks).ok_or("the relay rule (`relay when`) is not one the fast form reads")?);
    }
    for rule in &phase.captures {
        let unfit = || {
            format!(
                "capture \"{}\": its condition or its actions are not ones the fast form reads",
                rule.name
            )
        };
        ff.captures.push(capture(game, rule, ff.on_track).ok_or_else(unfit)?);
    }
    if let Some(rt) = ff.relay.as_deref_mut() {
        relay::finish_ends(rt, &ff.captures);
    }
    if !game.triggers.is_empty() {
        // Sown a seed at a time in relay laps only, and never into a store (a trigger would take it).
        // A trigger that may take the lap's last pit leaves it empty: the relay rule (which asks
        // for seeds) then ends the move, but a capture rule would read a count and a count before
        // that differ by more than the seed, which the fast form's conditions of `last` cannot.
        let stores = 0b11u64 << pits;
        unless(
            laps && !sows_again(phase),
            "a trigger in a game whose moves do not relay, or that sows taken seeds again",
        )?;
        unless(
            (ff.on_track[0] | ff.on_track[1]) & stores == 0,
            "a trigger in a game that sows into the stores",
        )?;
        for rule in &game.triggers {
            let unfit = || {
                format!(
                    "trigger \"{}\": its condition or its actions are not ones the fast form reads",
                    rule.name
                )
            };
            ff.triggers.push(trigger(game, rule).ok_or_else(unfit)?);
        }
        unless(
            !ff.triggers.iter().any(|t| t.at_final) || phase.captures.is_empty(),
            "a trigger that may take a lap's last pit, beside capture rules",
        )?;
        for (mover, at) in ff.trigger_at.iter_mut().enumerate() {
            at[..cells].copy_from_slice(&game.trigger_at[mover][..cells]);
        }
    }
    ff.capture_sets = ff.captures.iter().any(FastCapture::reads_sets);
    // (A move that is not sown to be judged is never refused for its sowing: a closed form's track
    // has a pit to sow into.)
    for p in Player::BOTH.into_iter().filter(|_| laps) {
        let whole = phase.track(p, !sow.ccw);
        for (k, origin) in game.row(p).enumerate() {
            if closed >> whole.next[origin] & 1 != 0 {
                ff.judged_first[p.index()] |= 1 << k;
            }
        }
    }
    // Judged as the general engine judges them before its draw: by the sowing alone.
    unless(
        ff.judged_first == [0; 2] || (!ff.must_feed && ff.after_forbids.is_empty()),
        "moves judged before the draw by more than their sowing, on a board with pits closed",
    )?;
    // (How a series walks past a closed pit is the general engine's to say.)
    unless(
        closed == 0 || ff.captures.iter().all(|c| c.series.is_none()),
        "a capture of a series of pits, on a board with pits closed",
    )?;
    // Seeds taken into the hand are sown on by the relay's loop only.
    unless(
        ff.captures.iter().any(|c| c.sows_again) == sows_again(phase),
        "seeds taken are sown again by a rule other than a capture's",
    )?;
    if let Some(relay) = ff.relay.as_mut() {
        relay.stores_fixed = ff.triggers.is_empty()
            && ff.captures.iter().all(|c| c.sows_again || !c.takes_any)
            && (ff.on_track[0] | ff.on_track[1]) >> ff.pits == 0;
        for m in 0..2 {
            // A trigger's seeds go to a store, maybe the other player's: the board is read whole.
            if !ff.triggers.is_empty() {
                relay.home[m] = 0xFF;
            }
            if relay.home[m] != 0xFF
                && !apart(
                    &ff.captures,
                    &ff.across,
                    ff.on_track[m],
                    ff.pits + m,
                    ff.row_cells[1 - m],
                    relay.home[m],
                )
            {
                relay.home[m] = 0xFF;
            }
            if ff.after_forbids.is_empty() && !ff.must_feed {
                relay.in_place[m] = relay.home[m];
            }
        }
        relay::home_steps(relay, &ff.captures, &ff.capture_at);
    }
    for (i, rule) in game.ends.iter().enumerate() {
        let unfit = || format!("end \"{}\": its condition is not one the fast form reads", rule.name);
        ff.ends.push(match rule.test {
            EndTest::Repeated => FastEnd::Repeated,
            EndTest::NoMoves => FastEnd::NoMoves,
            // Tabulated only up to a number of seeds the general engine decides; the fast form then
            // reads the general table.
            EndTest::StoresOnly if game.total <= 200 => FastEnd::Stores(i),
            EndTest::StoresOnly => return Err(format!("end \"{}\" reads the stores of a board of more than 200 seeds", rule.name)),
            EndTest::General => match end_tests(&rule.when) {
                Some(end) => probes(game, ff.row_cells, end),
                None => {
                    ff.unread |= 1 << i;
                    probes(game, ff.row_cells, end_guard(&rule.when).ok_or_else(unfit)?)
                }
            },
        });
    }
    let store_ends: Vec<usize> = ff
        .ends
        .iter()
        .filter_map(|e| match e {
            FastEnd::Stores(i) => Some(*i),
            _ => None,
        })
        .collect();
    unless(store_ends.len() <= 8, "more than 8 end rules read the stores alone")?;
    if !store_ends.is_empty() {
        let side = game.total as usize + 1;
        ff.store_hits = vec![0; side * side];
        for (j, &rule) in store_ends.iter().enumerate() {
            let table = game.store_table(&game.ends[rule]).ok_or("an end rule of the stores has no table")?;
            for (hits, &holds) in ff.store_hits.iter_mut().zip(&table.holds) {
                *hits |= u8::from(holds) << j;
            }
        }
        ff.store_rules = (0..256usize)
            .map(|bits| {
                (0..store_ends.len())
                    .filter(|j| bits >> j & 1 != 0)
                    .fold(0u64, |rules, j| rules | 1 << store_ends[j])
            })
            .collect();
    }
    for (i, end) in ff.ends.iter().enumerate() {
        match end {
            FastEnd::Probes { all, probes } => {
                for &p in probes {
                    if p.cells == [[0; 2]; 2] {
                        ff.probes.push((i as u8, p));
                        continue;
                    }
                    // A test of rows alone: the rows it reads are whole rows, so whether it holds
                    // follows from which rows are empty.
                    ff.row_rules |= 1 << i;
                    let rows = ff.row_cells;
                    for (at, (hold, fail)) in ff.row_probes.iter_mut().enumerate() {
                        let filled = if at & 2 == 0 { rows[0] } else { 0 } | if at & 1 == 0 { rows[1] } else { 0 };
                        let empty = filled & p.cells[at >> 3][at >> 2 & 1] == 0;
                        // (`probe` makes a test of rows or of the move number, never of both.)
                        let holds = empty == p.want;
                        *hold |= u64::from(holds) << i;
                        *fail |= u64::from(!holds) << i;
                    }
                }
                *if *all { &mut ff.all_probes } else { &mut ff.any_probes } |= 1 << i;
            }
            FastEnd::Tests { .. } => ff.tested |= 1 << i,
            _ => {}
        }
    }
    let floors: Option<Vec<u8>> = ff.forbids.iter().map(|rule| rule.floor(ff.row_cells)).collect();
    if let Some(floor) = floors.and_then(|floors| floors.into_iter().max()) {
        ff.open_floor = u128::from_le_bytes([floor; 16]);
    }
    Ok(ff)
}

/// A table of `L` entries built on the heap (a wide board's would not fit on a thread's stack).
fn boxed<T: Clone, const L: usize>(entry: impl Fn() -> T) -> Box<[T; L]> {
    vec![entry(); L]
        .into_boxed_slice()
        .try_into()
        .unwrap_or_else(|_| unreachable!("a vector of L entries"))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The floor of the candidates' counts of an invented four-row relay game with `forbids`.
    fn floor(forbids: &str) -> u128 {
        let text = format!(
            r#"game "g" board {{ rows 2 pits 8 seeds 2 stores captures }} first south
               sow {{ direction ccw track own relay when last.before > 0 }}
               {forbids}
               end "stuck" when no_moves loser to_move"#
        );
        let Ok(loaded) = crate::load_text(std::path::Path::new("invented.sow"), &text, &[]) else {
            panic!("the invented game checks:\n{text}");
        };
        match loaded.game.fast.as_deref() {
            Some(Fast::Wide(ff)) => ff.open_floor,
            _ => panic!("no wide fast form:\n{text}"),
        }
    }

    /// The candidates are the pits holding at least a floor of seeds exactly when every `forbid`
    /// rule forbids small counts of any origin alone.
    #[test]
    fn forbids_of_small_counts_are_a_floor() {
        let spread = |n: u8| u128::from_le_bytes([n; 16]);
        assert_eq!(floor(r#"forbid "single" when origin.count == 1"#), spread(2));
        assert_eq!(floor(r#"forbid "few" when origin.count < 3"#), spread(3));
        assert_eq!(
            floor(r#"forbid "a" when origin.count == 1  forbid "b" when origin.count <= 2"#),
            spread(3)
        );
        // A pit of two seeds is played, one of three is not: no floor.
        assert_eq!(floor(r#"forbid "a" when origin.count == 1  forbid "b" when origin.count == 3"#), 0);
        // The front row only, or a test of the pit across: no floor.
        assert_eq!(floor(r#"forbid "front" when origin.count == 1 and origin.row == front"#), 0);
        assert_eq!(floor(r#"forbid "across" when origin.count == 1 and opposite(origin).count > 0"#), 0);
        assert_eq!(floor(""), 0);
    }
}
