//! What a move in progress carries: the rules that apply to it, the turn's facts, what its sowing
//! and its rules did so far, and why a move may be refused. Every room of the engine shares these.

use std::fmt;

use super::choice::{Choices, move_base};
use super::{Cell, Game, NO_PIT, Player, Position, Slots};
use crate::compile::ir::{Phase, Track};

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// The move is against the rules.
    Illegal {
        /// The move named (as [`Game::parse_move`] reads it).
        pit: usize,
        /// The move as the player writes it (`3`, `b4`, `3R`).
        name: String,
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over: no more moves can be played"),
            MoveError::Illegal { name, reason, .. } => write!(f, "{} cannot be played: {reason}", super::pit_word(name)),
        }
    }
}

impl std::error::Error for MoveError {}

/// The sowing of one move failed to finish.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Endless {
    /// The seeds in hand of lap `laps` found no cell to fall into (every cell of the track is
    /// passed over).
    Nowhere { laps: u32 },
    /// The sowing would go past the most laps a move may sow (`relay limit`, `stated`, or the
    /// default) without having been seen to go round for ever (`watched`: it was looked for; not
    /// when the rules read `lap` or `taken` while sowing).
    Limit { laps: u32, stated: bool, watched: bool },
    /// Lap `lap` starts in the state lap `since` started in: the sowing goes round for ever.
    Loop { lap: u32, since: u32 },
}

impl Endless {
    /// The laps sown before the sowing was found endless (what a trial of a choice counts).
    pub(super) fn laps(&self) -> u32 {
        match *self {
            Endless::Nowhere { laps } | Endless::Limit { laps, .. } => laps,
            Endless::Loop { lap, .. } => lap,
        }
    }
}

/// What a sowing looks at to see that it goes round for ever: Brent's cycle finding over the states
/// its laps start in (the board, where the lap starts, the seeds in hand, its way, and the counts
/// before the latest seed when the rules read them). The state of the lap numbered a power of two
/// is kept, and each lap after it compared with it: a sowing that repeats itself is caught within
/// a few times the length of its cycle, and one that ends is never taken for endless (its laps'
/// states are all different, or the same state would lead to the same laps again).
#[derive(Default)]
pub(super) struct LoopWatch {
    /// The state kept, and the lap it started.
    kept: Option<(LapState, u32)>,
    /// Laps compared with it so far.
    since: u32,
    /// Laps to compare with it before the next one is kept instead.
    power: u32,
}

/// The state a lap starts in: everything its sowing, and the laps after it, depend on.
pub(super) struct LapState {
    pub(super) board: super::Board,
    pub(super) before: Option<Slots<u32>>,
    /// Where the lap starts: see [`LapStart`].
    pub(super) start: LapStart,
}

/// Where a lap starts, besides the board.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) struct LapStart {
    /// The cell the lap starts after (a relay's pit, or where taken seeds are sown from).
    pub(super) cell: Cell,
    /// The seeds in hand when they are not picked up from that cell (taken seeds).
    pub(super) hand: Option<u32>,
    /// The way.
    pub(super) cw: bool,
    /// The seeds the move's rules have taken, as far as the rules tell them apart (cut off one past
    /// the largest number a rule compares `taken` with; 0 when none reads it while sowing).
    pub(super) taken: u32,
}

impl LoopWatch {
    /// Lap `lap` is about to start from `start` on `board` (with `before`, the counts before the
    /// latest seed, when the rules read them): the lap it repeats, if some earlier lap started in
    /// the same state. The state is copied only when it is kept.
    #[inline]
    pub(super) fn repeats(&mut self, lap: u32, board: &super::Board, before: Option<&[u32]>, start: LapStart) -> Option<u32> {
        if let Some((kept, at)) = &self.kept
            && kept.start == start
            && kept.board == *board
            && kept.before.as_deref() == before
        {
            return Some(*at);
        }
        self.since += 1;
        if self.since >= self.power {
            self.keep(lap, board, before, start);
        }
        None
    }

    #[cold]
    #[inline(never)]
    fn keep(&mut self, lap: u32, board: &super::Board, before: Option<&[u32]>, start: LapStart) {
        self.kept = Some((
            LapState {
                board: board.clone(),
                before: before.map(Slots::from_slice),
                start,
            },
            lap,
        ));
        self.power = (self.power * 2).max(1);
        self.since = 0;
    }
}

/// Seeds taken by a capture rule during a move, to put back for a grand slam.
#[derive(Debug, Clone, Copy)]
pub(super) struct Taken {
    pub(super) cell: Cell,
    pub(super) seeds: u32,
    pub(super) to: Player,
}

impl Default for Taken {
    fn default() -> Self {
        Taken {
            cell: 0,
            seeds: 0,
            to: Player::South,
        }
    }
}

/// A set of cells, as bits: a board has at most 2 × 64 pits and two stores.
#[derive(Default)]
pub(super) struct CellSet([u64; 3]);

impl CellSet {
    pub(super) fn has(&self, c: Cell) -> bool {
        self.0.get(c as usize / 64).is_some_and(|w| w >> (c % 64) & 1 != 0)
    }

    pub(super) fn insert(&mut self, c: Cell) {
        if let Some(w) = self.0.get_mut(c as usize / 64) {
            *w |= 1 << (c % 64);
        }
    }
}

/// Seeds taken by capture rules during a move (only kept when the game has a grand slam policy).
pub(super) type CaptureLog = Slots<Taken, 8>;

/// What one move's sowing did.
#[derive(Clone, Copy)]
pub(super) struct Sown {
    pub(super) another: bool,
    /// Where the last lap ended.
    pub(super) last: Cell,
    /// Laps sown.
    pub(super) laps: u32,
    /// Seeds the move's rules took (to a store, to an owner, or into the hand to sow again).
    pub(super) taken: u32,
    /// Seeds picked up to start the last lap.
    pub(super) lifted: u32,
    /// The cell the last lap started from.
    pub(super) lap_start: Cell,
    /// Where the first lap ended.
    pub(super) first_lap_end: Cell,
    pub(super) grand_slam: bool,
    /// The way the last lap went: clockwise?
    pub(super) cw: bool,
    /// What the sowing added to the board's part of [`Game::hash`], when it only moved seeds along
    /// the track (no capture, no trigger): then the next position's hash is the last one's plus this,
    /// a few additions instead of a pass over every cell.
    pub(super) hash_delta: Option<u64>,
    /// A rule's `end game | round` stopped the move: the index of its end rule in
    /// `Game::stated_ends`.
    pub(super) ended: Option<u16>,
}

/// Seeds a capture rule took into the mover's hand to sow again (`sow taken`).
#[derive(Debug, Clone, Copy)]
pub(super) struct Pull {
    pub(super) seeds: u32,
    /// The lap starts in the cell after this one.
    pub(super) after: Cell,
    /// The lap, and the rest of the move, go clockwise.
    pub(super) cw: bool,
}

/// What a rule's actions did that the move goes on with.
#[derive(Debug, Clone, Copy, Default)]
pub(super) struct Acted {
    pub(super) pulled: Option<Pull>,
    pub(super) taken: u32,
}

/// The most moves a position of a game with choices on the way lists: past it the rest are left
/// out, so that finding them always ends.
pub const MAX_CHOICE_MOVES: usize = 65_536;

/// The most moves, whole or answered only in part, tried from one pit (and way) when the moves of a
/// position of a game with choices on the way are listed: a choice whose answers are mostly refused
/// could otherwise have millions tried to find a few moves. Past it that pit's other moves are left
/// out, and the other pits are still tried.
pub const MAX_CHOICE_TRIES: usize = 4 * MAX_CHOICE_MOVES;

/// The most laps the trial sowings of one listing of the moves of a game with choices on the way
/// sow, all pits together, or 64 times the phase's `relay limit` if that is more (a move refused as
/// never ending sows that many laps first): a choice met on every lap of a move that relays until
/// its limit doubles the moves to try at each lap. Past it the pits not yet tried are left out.
pub const MAX_CHOICE_LAPS: u64 = 1 << 18;

/// Why a move may not be played (put in words by [`Game::refusal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Refusal {
    NoSuchPit,
    /// Not a pit the player may start a move from (`play from`).
    NotPlayable,
    /// The pit is the player's store (`store pit N`).
    StorePit,
    Closed,
    Empty,
    /// In a phase that sows nothing, the move's rules would leave every seed where it is.
    Unchanged,
    /// The phase's forbid rule with this index.
    Forbidden(usize),
    /// A move takes seeds from the store, which is empty.
    NoReserve,
    /// The pass, while no `pass when` condition holds.
    CannotPass,
    /// Another move takes seeds, and this one takes none.
    MustCapture,
    /// The mover chose a direction the phase does not sow in.
    FixedDirection,
    /// The move does not answer the choices its rules ask, or names an option that does not exist.
    BadChoice,
    /// The sowing never ends, seen as [`Endless`] says.
    Endless(Endless),
    GrandSlam,
    Starves,
}

/// What deciding whether a move is legal needs to know of its position, the same for all its moves.
#[derive(Clone, Copy)]
pub(crate) struct MoveRules<'a> {
    /// The phase whose rules apply.
    pub(super) phase: &'a Phase,
    /// The feeding rule applies: the opponent has no seeds.
    pub(super) starving: bool,
    /// A move must give the opponent seeds.
    pub(super) must_feed: bool,
    /// A move's sowing can make it illegal whatever the feeding rule says.
    pub(super) sow_always: bool,
    /// No pit is closed.
    pub(super) open: bool,
}

/// What stays true all game that a caller playing many moves may tell the engine once, so that it is
/// not worked out again for every move.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hints {
    /// Every seed on the board (seeds are never created or destroyed).
    pub total: Option<i64>,
    /// No pit is closed, and none ever will be.
    pub open: bool,
    /// In a game with choices on the way, an end rule that asks for the legal moves lists every
    /// move of the position reached and keeps the list on the thread for the next move
    /// ([`Game::take_handed`]): a random playout lists them next, and would walk them twice.
    pub hand_on: bool,
    /// The caller reads nothing of the legal moves the end rules work out but whether there are
    /// any (`apply` drops them): in a game with choices on the way, `no_moves` is answered by the
    /// walk stopped at the first complete move, where it found each pit's first.
    pub first_only: bool,
}

impl Hints {
    /// For a caller that drops the legal moves `play` returns ([`Hints::first_only`]).
    pub(crate) const FIRST_ONLY: Hints = Hints {
        total: None,
        open: false,
        hand_on: false,
        first_only: true,
    };

    /// What holds all game long from `pos` on.
    pub(crate) fn of(game: &Game, pos: &Position) -> Hints {
        Hints {
            total: game.uses_total.then(|| i64::from(game.seed_total(pos))),
            open: !game.uses_closed && !pos.board.closed.contains(&true),
            hand_on: false,
            first_only: false,
        }
    }
}

/// What a move needs to know of its position besides the board.
#[derive(Debug, Clone, Copy)]
pub(super) struct Turn<'c> {
    /// The choices the move carries, when its rules ask the mover to choose on the way.
    pub(super) choices: Option<&'c Choices>,
    pub(super) mover: Player,
    pub(super) ply: u32,
    pub(super) round: u32,
    /// Moves played in this round.
    pub(super) round_ply: u32,
    pub(super) rounds_won: [u32; 2],
    /// No pit is closed (closures change only between rounds, never during a move).
    pub(super) open: bool,
    /// The sowing goes clockwise: the phase's direction, or the mover's choice where it is chosen.
    pub(super) cw: bool,
    /// The player who began the game.
    pub(super) starter: Player,
    /// Seeds picked up to start the lap being sown (`lifted`).
    pub(super) lifted: u32,
    /// The cell the lap being sown started from (`lap_start`).
    pub(super) lap_start: Cell,
    /// Where the move's first lap ended (`first_lap_end`), once it has.
    pub(super) first_lap_end: Cell,
}

impl<'c> Turn<'c> {
    /// The turn of the move `k` of a position whose move rules are known.
    #[inline]
    pub(super) fn of(game: &Game, pos: &Position, rules: MoveRules, k: usize, choices: Option<&'c Choices>) -> Turn<'c> {
        Turn::of_way(pos, rules, game.sows_clockwise(rules.phase, move_base(k)), choices)
    }

    /// The turn of a move of a position whose move rules are known, sown clockwise (`cw`) or not.
    #[inline]
    pub(super) fn of_way(pos: &Position, rules: MoveRules, cw: bool, choices: Option<&'c Choices>) -> Turn<'c> {
        Turn {
            choices,
            mover: pos.to_move,
            ply: pos.ply,
            round: pos.round,
            round_ply: pos.ply - pos.round_start,
            rounds_won: pos.rounds_won,
            open: rules.open,
            cw,
            starter: pos.starter,
            lifted: 0,
            lap_start: NO_PIT,
            first_lap_end: NO_PIT,
        }
    }
}

impl Phase {
    /// The track `mover` sows along, clockwise when chosen so (and the phase lets the mover choose).
    #[inline]
    pub(crate) fn track(&self, mover: Player, cw: bool) -> &Track {
        if cw {
            &self.cw_tracks[mover.index()]
        } else {
            &self.tracks[mover.index()]
        }
    }
}

/// The most seeds in a game whose end rules that read only the stores are tabulated (see
/// [`Game::store_table`]): a table holds `(total + 1)²` answers.
pub(super) const TABULATED_TOTAL: u32 = 200;

/// Most rounds that may end without a single move before the engine gives up: a file whose rounds
/// are set up so that none can be played would otherwise loop forever.
pub(super) const MAX_EMPTY_ROUNDS: u32 = 1000;
