//! Moves: which are legal, how one is sown, captured and ended, and what happens after it (the turn,
//! the end of the game or round, the next round's setup).

use crate::board::PlayFrom;
use std::fmt;

use super::choice::{CHOICE_SHIFT, Choices, move_base, width as choice_width};
use super::eval::Ctx;
use super::trace::{Event, Keeper, Log, Narrate, Passed, Silent};
use super::{Board, Cell, Game, Moves, Outcome, Player, Position, Slots};
use crate::compile::ir::{
    Action, Code, EndResult, EndRule, EndTest, Feeding, Fill, GrandSlam, NO_PIT, Opener, Phase, PitsExpr, Receiver, Reg, Remaining, Rounds,
    Rule, Sow, StoreTable, Then, Track,
};

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
            MoveError::Illegal { name, reason, .. } => write!(f, "pit {name} cannot be played: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The sowing of one move failed to finish.
struct Endless {
    laps: u32,
    /// The seeds in hand found no cell to fall into (every cell of the track is passed over).
    nowhere: bool,
}

/// Seeds taken by a capture rule during a move, to put back for a grand slam.
#[derive(Debug, Clone, Copy)]
struct Taken {
    cell: Cell,
    seeds: u32,
    to: Player,
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
struct CellSet([u64; 3]);

impl CellSet {
    fn has(&self, c: Cell) -> bool {
        self.0.get(c as usize / 64).is_some_and(|w| w >> (c % 64) & 1 != 0)
    }

    fn insert(&mut self, c: Cell) {
        if let Some(w) = self.0.get_mut(c as usize / 64) {
            *w |= 1 << (c % 64);
        }
    }
}

/// Seeds taken by capture rules during a move (only kept when the game has a grand slam policy).
type CaptureLog = Slots<Taken, 8>;

/// What one move's sowing did.
#[derive(Clone, Copy)]
struct Sown {
    another: bool,
    /// Where the last lap ended.
    last: Cell,
    /// Laps sown.
    laps: u32,
    /// Seeds the move's rules took (to a store, to an owner, or into the hand to sow again).
    taken: u32,
    /// Seeds picked up to start the last lap.
    lifted: u32,
    grand_slam: bool,
    /// The way the last lap went: clockwise?
    cw: bool,
    /// What the sowing added to the board's part of [`Game::hash`], when it only moved seeds along
    /// the track (no capture, no trigger): then the next position's hash is the last one's plus this,
    /// a few additions instead of a pass over every cell.
    hash_delta: Option<u64>,
}

/// Seeds a capture rule took into the mover's hand to sow again (`sow taken`).
#[derive(Debug, Clone, Copy)]
struct Pull {
    seeds: u32,
    /// The lap starts in the cell after this one.
    after: Cell,
    /// The lap, and the rest of the move, go clockwise.
    cw: bool,
}

/// What a rule's actions did that the move goes on with.
#[derive(Debug, Clone, Copy, Default)]
struct Acted {
    pulled: Option<Pull>,
    taken: u32,
}

/// The most moves a position of a game with choices on the way lists: past it the rest are left
/// out, so that finding them always ends.
pub const MAX_CHOICE_MOVES: usize = 65_536;

/// Why a move may not be played (put in words by [`Game::refusal`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Refusal {
    NoSuchPit,
    /// Not a pit the player may start a move from (`play from`).
    NotPlayable,
    Closed,
    Empty,
    /// In a phase that sows nothing, the move's rules would leave every seed where it is.
    Unchanged,
    /// The phase's forbid rule with this index.
    Forbidden(usize),
    /// A move takes seeds from the store, which is empty.
    NoReserve,
    /// Another move takes seeds, and this one takes none.
    MustCapture,
    /// The mover chose a direction the phase does not sow in.
    FixedDirection,
    /// The move does not answer the choices its rules ask, or names an option that does not exist.
    BadChoice,
    Endless(u32),
    /// A lap's seeds find no cell to fall into.
    Nowhere,
    GrandSlam,
    Starves,
}

/// What deciding whether a move is legal needs to know of its position, the same for all its moves.
#[derive(Clone, Copy)]
pub(crate) struct MoveRules<'a> {
    /// The phase whose rules apply.
    phase: &'a Phase,
    /// The feeding rule applies: the opponent has no seeds.
    starving: bool,
    /// A move must give the opponent seeds.
    must_feed: bool,
    /// A move's sowing can make it illegal whatever the feeding rule says.
    sow_always: bool,
    /// No pit is closed.
    open: bool,
}

/// What stays true all game that a caller playing many moves may tell the engine once, so that it is
/// not worked out again for every move.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Hints {
    /// Every seed on the board (seeds are never created or destroyed).
    pub total: Option<i64>,
    /// No pit is closed, and none ever will be.
    pub open: bool,
}

impl Hints {
    /// What holds all game long from `pos` on.
    pub(crate) fn of(game: &Game, pos: &Position) -> Hints {
        Hints {
            total: game.uses_total.then(|| i64::from(game.seed_total(pos))),
            open: !game.uses_closed && !pos.board.closed.contains(&true),
        }
    }
}

/// What a move needs to know of its position besides the board.
#[derive(Debug, Clone, Copy)]
struct Turn<'c> {
    /// The choices the move carries, when its rules ask the mover to choose on the way.
    choices: Option<&'c Choices>,
    mover: Player,
    ply: u32,
    round: u32,
    /// Moves played in this round.
    round_ply: u32,
    rounds_won: [u32; 2],
    /// No pit is closed (closures change only between rounds, never during a move).
    open: bool,
    /// The sowing goes clockwise: the phase's direction, or the mover's choice where it is chosen.
    cw: bool,
    /// The player who began the game.
    starter: Player,
    /// Seeds picked up to start the lap being sown (`lifted`).
    lifted: u32,
}

impl<'c> Turn<'c> {
    /// The turn of the move `k` of a position whose move rules are known.
    #[inline]
    fn of(game: &Game, pos: &Position, rules: MoveRules, k: usize, choices: Option<&'c Choices>) -> Turn<'c> {
        Turn {
            choices,
            mover: pos.to_move,
            ply: pos.ply,
            round: pos.round,
            round_ply: pos.ply - pos.round_start,
            rounds_won: pos.rounds_won,
            open: rules.open,
            cw: game.sows_clockwise(rules.phase, move_base(k)),
            starter: pos.starter,
            lifted: 0,
        }
    }
}

impl Phase {
    /// The track `mover` sows along, clockwise when chosen so (and the phase lets the mover choose).
    #[inline]
    fn track(&self, mover: Player, cw: bool) -> &Track {
        if cw {
            &self.cw_tracks[mover.index()]
        } else {
            &self.tracks[mover.index()]
        }
    }
}

/// The most seeds in a game whose end rules that read only the stores are tabulated (see
/// [`Game::store_table`]): a table holds `(total + 1)²` answers.
const TABULATED_TOTAL: u32 = 200;

/// Most rounds that may end without a single move before the engine gives up: a file whose rounds
/// are set up so that none can be played would otherwise loop forever.
const MAX_EMPTY_ROUNDS: u32 = 1000;

impl Game {
    /// The phase whose rules apply to the next move.
    #[inline]
    pub(crate) fn phase_for(&self, pos: &Position) -> &Phase {
        match self.phases.as_slice() {
            [only] => only,
            _ => self.phase_by_rules(pos),
        }
    }

    fn phase_by_rules(&self, pos: &Position) -> &Phase {
        let ctx = self.ctx_at(pos, pos.to_move);
        self.phases
            .iter()
            .find(|p| !p.optional && p.when.as_ref().is_none_or(|w| ctx.bool(w)))
            .expect("the usual rules are always the last phase")
    }

    /// The rules of the move: those that apply, or an `optional` phase the mover chose with the
    /// move's first answer (the rules that apply are the first option, the phases offered follow in
    /// the file's order).
    #[cold]
    #[inline(never)]
    fn chosen_rules<'a>(&'a self, pos: &Position, rules: MoveRules<'a>, choices: Option<&Choices>) -> MoveRules<'a> {
        let Some(choices) = choices else { return rules };
        if !self.phases.iter().any(|p| p.optional) {
            return rules;
        }
        let ctx = self.ctx_at(pos, pos.to_move);
        let offered: Vec<&Phase> = self
            .phases
            .iter()
            .filter(|p| p.optional && p.when.as_ref().is_none_or(|w| ctx.bool(w)))
            .collect();
        let label = |p: &Phase| {
            if p.name.is_empty() {
                "usual".to_string()
            } else {
                p.name.replace(' ', "_")
            }
        };
        let i = choices.pick(
            1 + offered.len(),
            |i| if i == 0 { label(rules.phase) } else { label(offered[i - 1]) },
        );
        match i {
            0 => rules,
            i => MoveRules {
                phase: offered[i - 1],
                sow_always: offered[i - 1].sows_to_judge,
                ..rules
            },
        }
    }

    #[inline]
    fn ctx_at<'a>(&'a self, pos: &'a Position, mover: Player) -> Ctx<'a> {
        Ctx {
            to_move: pos.to_move,
            starter: pos.starter,
            ply: pos.ply,
            round: pos.round,
            round_ply: pos.ply - pos.round_start,
            rounds_won: pos.rounds_won,
            ..Ctx::new(self, &pos.board, mover)
        }
    }

    /// The moves the player to move may make (pit numbers, 1-based), in order; empty once over.
    pub fn legal_moves(&self, pos: &Position) -> Vec<usize> {
        if self.uses_choose {
            if pos.over {
                return Vec::new();
            }
            return self
                .choice_moves(pos, self.move_rules(pos, Hints::default()))
                .into_iter()
                .map(|m| m.0)
                .collect();
        }
        self.legal_set(pos).iter().collect()
    }

    /// The moves the player to move may make, as a set; empty once over. Allocates nothing.
    pub fn legal_set(&self, pos: &Position) -> Moves {
        if pos.over {
            return Moves::NONE;
        }
        self.legal_with(pos, self.move_rules(pos, Hints::default()))
    }

    /// The name of move `k` of `pos`: [`Game::move_name`], then each choice the move carries, in the
    /// order the move meets them, after a `:` (`a3R:a8:cw`).
    pub fn name_move(&self, pos: &Position, k: usize) -> String {
        let mut name = self.move_name(move_base(k));
        for label in self.choice_labels(pos, k) {
            name.push(':');
            name.push_str(&label);
        }
        name
    }

    /// The words for the choices move `k` of `pos` carries.
    fn choice_labels(&self, pos: &Position, k: usize) -> Vec<String> {
        if !self.uses_choose || pos.over {
            return Vec::new();
        }
        let choices = Choices::of_move(k).labelled();
        let _ = self.probe(pos, self.move_rules(pos, Hints::default()), k, Some(&choices));
        choices.labels()
    }

    /// Reads a move of `pos` as [`Game::name_move`] writes it (letters in either case). `None` when
    /// the text is no move of `pos`, such as a pit without the choices its moves carry; a pit with
    /// no legal move reads as the pit, so that [`Game::apply`] can say why it cannot be played.
    pub fn read_move(&self, pos: &Position, text: &str) -> Option<usize> {
        let text = text.trim();
        if !self.uses_choose {
            return self.parse_move(text);
        }
        let pit = text.split_once(':').map_or(text, |(p, _)| p);
        let base = self.parse_move(pit)?;
        let from_pit: Vec<usize> = self.legal_moves(pos).into_iter().filter(|&k| move_base(k) == base).collect();
        match from_pit.iter().find(|&&k| self.name_move(pos, k).eq_ignore_ascii_case(text)) {
            Some(&k) => Some(k),
            None if from_pit.is_empty() && pit.len() == text.len() => Some(base),
            None => None,
        }
    }

    /// What a text that [`Game::read_move`] does not read as a move of `pos` could have meant, when it
    /// names a pit a move starts from: a pit written without its way (`b4` for `b4L` or `b4R`), a pit
    /// and way without the answers to the move's choices (`a5R` for `a5R:cw`), or with answers that
    /// are not this pit's. Returns the pit (1-based, with no way) and the legal moves of `pos` from it
    /// that agree with what the text does say (when the answers written agree with none, every legal
    /// move from the pit, and way if written), `L` before `R`; `None` when the text names no such pit.
    pub fn moves_meant(&self, pos: &Position, text: &str) -> Option<(usize, Vec<usize>)> {
        let text = text.trim();
        let (head, answers) = match text.split_once(':') {
            Some((head, rest)) => (head, rest.split(':').collect::<Vec<_>>()),
            None => (text, Vec::new()),
        };
        // The way, when written (a move number of one direction), else the pit alone.
        let (pit, way) = match self.parse_move(head).filter(|&k| (1..=self.move_count()).contains(&k)) {
            Some(k) => (self.move_parts(k).0, Some(k)),
            None => (self.parse_pit(head)?, None),
        };
        let from_pit: Vec<usize> = self
            .legal_moves(pos)
            .into_iter()
            .filter(|&k| self.move_parts(move_base(k)).0 == pit && way.is_none_or(|w| move_base(k) == w))
            .collect();
        let agreeing: Vec<usize> = from_pit
            .iter()
            .copied()
            .filter(|&k| {
                let labels = self.choice_labels(pos, k);
                answers.len() <= labels.len() && answers.iter().zip(&labels).all(|(a, l)| a.eq_ignore_ascii_case(l))
            })
            .collect();
        let mut moves = if agreeing.is_empty() { from_pit } else { agreeing };
        // `L` before `R`, each way's answers in the order the engine lists them.
        moves.sort_by_key(|&k| self.move_name(move_base(k)));
        Some((pit, moves))
    }

    /// The legal moves of a position that is not over, given its rules.
    #[inline(always)]
    pub(crate) fn legal_with(&self, pos: &Position, rules: MoveRules) -> Moves {
        if rules.open && rules.phase.forbids.is_empty() && !rules.must_feed && !rules.sow_always {
            // With every pit open, a move is legal when its pit holds seeds.
            let filled = if self.shared == 0 {
                self.filled_pits(&pos.board, pos.to_move)
            } else {
                self.filled_playable(&pos.board, pos.to_move)
            };
            if self.choices == 1 {
                return Moves::from_bits(filled);
            }
            return Moves::from_bits(self.directions_of(rules.phase, filled));
        }
        self.legal_checked(pos, rules)
    }

    /// The legal moves when some pit is closed, or a move may be refused for what its sowing does.
    /// Out of line: the usual rules never come here, and their moves are worked out after every move.
    #[inline(never)]
    fn legal_checked(&self, pos: &Position, rules: MoveRules) -> Moves {
        let mut moves = Moves::NONE;
        if self.uses_choose {
            // The pits (with their direction) that some complete move starts from.
            for (k, _) in self.choice_moves(pos, rules) {
                moves.insert(move_base(k));
            }
            return moves;
        }
        if self.choices == 1
            && self.shared == 0
            && rules.phase.forbids.is_empty()
            && !rules.must_feed
            && !rules.sow_always
            && rules.phase.sow.skip.is_none()
        {
            // Usually a move is legal when its pit is open and holds seeds and the cell after it is
            // open: check_move's first steps, on plain slices.
            let n = self.side_pits();
            let base = pos.to_move.index() * n;
            let all_closed: &[bool] = &pos.board.closed;
            let cells = &pos.board.cells[base..base + n];
            let closed = &all_closed[base..base + n];
            let next = &rules.phase.track(pos.to_move, !rules.phase.sow.ccw).next[base..base + n];
            let mut bits = 0u64;
            for i in 0..n {
                if cells[i] != 0
                    && !closed[i]
                    && (!all_closed.get(next[i] as usize).copied().unwrap_or(false) || self.check_move(pos, rules, i + 1).is_ok())
                {
                    bits |= 1 << i;
                }
            }
            return Moves::from_bits(bits);
        }
        if rules.phase.captures_required {
            // One sowing a move: the moves that take seeds, if any do, else every playable one.
            let mut taking = Moves::NONE;
            for k in 1..=self.move_count() {
                if let Ok(taken) = self.check_move_taking(pos, rules, k) {
                    moves.insert(k);
                    if taken > 0 {
                        taking.insert(k);
                    }
                }
            }
            return if taking.is_empty() { moves } else { taking };
        }
        for k in 1..=self.move_count() {
            if self.check_move(pos, rules, k).is_ok() {
                moves.insert(k);
            }
        }
        moves
    }

    /// Does move `k` sow clockwise: by the mover's choice where the game has one, else the phase's
    /// way?
    #[inline]
    fn sows_clockwise(&self, phase: &Phase, k: usize) -> bool {
        if self.choices > 1 { self.move_parts(k).1 } else { !phase.sow.ccw }
    }

    /// The moves of a game whose mover may choose the direction, from the bits of the pits that may
    /// be played: both directions where the phase lets the mover choose, else its own.
    fn directions_of(&self, phase: &Phase, pits: u64) -> u64 {
        let cw = pits << self.move_pits();
        match (phase.sow.either, phase.sow.ccw) {
            (true, _) => pits | cw,
            (false, true) => pits,
            (false, false) => cw,
        }
    }

    /// The feeding rule applies: the mover's opponent has no seeds.
    #[inline]
    pub(crate) fn starving(&self, pos: &Position) -> bool {
        self.feeding.is_some() && self.row_seeds(&pos.board, pos.to_move.other()) == 0
    }

    /// What deciding whether a move of `pos` is legal needs, worked out once for all its moves.
    #[inline(always)]
    pub(crate) fn move_rules<'a>(&'a self, pos: &Position, hints: Hints) -> MoveRules<'a> {
        let phase = self.phase_for(pos);
        let starving = self.starving(pos);
        MoveRules {
            phase,
            starving,
            must_feed: starving && matches!(self.feeding, Some(Feeding::Required)),
            sow_always: phase.sows_to_judge,
            open: hints.open || !pos.board.closed.contains(&true),
        }
    }

    /// The rules [`Game::play`] needs for a move already known to be legal: those of
    /// [`Game::move_rules`], except that whether the opponent is starving is worked out only when a
    /// feeding penalty makes `play` ask (the legal moves already obey a feeding requirement).
    #[inline(always)]
    pub(crate) fn play_rules<'a>(&'a self, pos: &Position, hints: Hints) -> MoveRules<'a> {
        let phase = self.phase_for(pos);
        let starving = matches!(self.feeding, Some(Feeding::Penalty(_))) && self.starving(pos);
        MoveRules {
            phase,
            starving,
            must_feed: false,
            sow_always: phase.sows_to_judge,
            open: hints.open || !pos.board.closed.contains(&true),
        }
    }

    /// Might the sowing from `origin` never end because the pits around are closed? Only if the cell
    /// after the origin is closed: every run of skipped cells as long as the track passes it.
    fn may_be_stuck(&self, pos: &Position, phase: &Phase, origin: Cell, cw: bool) -> bool {
        let next = phase.track(pos.to_move, cw).next[origin as usize];
        pos.board.closed.get(next as usize).copied().unwrap_or(false) || phase.sow.skip_table(pos.to_move).is_some_and(|t| t[next as usize])
    }

    /// Why pit `k` may not be played, if it may not. The move is sown on a copy of the board only
    /// when its outcome can make it illegal: a sowing that may never end (relay laps, closed pits), a
    /// forbidden grand slam, or an opponent who must be fed.
    fn check_move(&self, pos: &Position, rules: MoveRules, k: usize) -> Result<(), Refusal> {
        let taken = self.check_move_taking(pos, rules, k)?;
        if rules.phase.captures_required && taken == 0 && self.some_move_takes(pos, rules) {
            return Err(Refusal::MustCapture);
        }
        Ok(())
    }

    /// The complete moves of a game whose rules ask the mover to choose on the way, with the seeds
    /// each takes: each pit's move is tried and branches at every choice it meets, so that a move
    /// is listed once for each way of answering its choices.
    #[cold]
    #[inline(never)]
    fn choice_moves(&self, pos: &Position, rules: MoveRules) -> Vec<(usize, u32)> {
        let mut moves = Vec::new();
        for base in 1..=self.move_count() {
            // Choices known so far, and how many of their bits.
            let mut unanswered = vec![(0u64, 0u32)];
            while let Some((code, known)) = unanswered.pop() {
                let choices = Choices::given(code, known);
                let tried = self.probe(pos, rules, base, Some(&choices));
                if let Some((options, at)) = choices.open() {
                    // The rest of the move was played with made-up answers: only its next choice
                    // counts. The options are pushed last first, so that they come out in order.
                    for o in (0..options as u64).rev() {
                        unanswered.push((code | o << at, at + choice_width(options)));
                    }
                } else if let (Ok(taken), false) = (tried, choices.fault()) {
                    moves.push((base | (code as usize) << CHOICE_SHIFT, taken));
                    if moves.len() >= MAX_CHOICE_MOVES {
                        return moves;
                    }
                }
            }
        }
        if rules.phase.captures_required && moves.iter().any(|m| m.1 > 0) {
            moves.retain(|m| m.1 > 0);
        }
        moves
    }

    /// Whether some move of the position takes seeds (for `captures required`).
    #[cold]
    #[inline(never)]
    fn some_move_takes(&self, pos: &Position, rules: MoveRules) -> bool {
        if self.uses_choose {
            return self.choice_moves(pos, rules).iter().any(|m| m.1 > 0);
        }
        (1..=self.move_count()).any(|j| self.check_move_taking(pos, rules, j).is_ok_and(|taken| taken > 0))
    }

    /// [`Game::check_move`] but for `captures required`: why the move may not be played, or the
    /// seeds it takes (0 when it was not sown to find out, which only a phase that does not require
    /// captures allows).
    fn check_move_taking(&self, pos: &Position, rules: MoveRules, k: usize) -> Result<u32, Refusal> {
        if self.uses_choose {
            let choices = Choices::of_move(k);
            let taken = self.probe(pos, rules, k, Some(&choices))?;
            // Every choice named an option, none was left out, and no bit is left over (so that one
            // move has one number).
            let spare = (k >> CHOICE_SHIFT) as u64 >> choices.used().min(63);
            if choices.fault() || (choices.used() < 64 && spare != 0) {
                return Err(Refusal::BadChoice);
            }
            return Ok(taken);
        }
        self.probe(pos, rules, k, None)
    }

    /// [`Game::check_move_taking`] with the move's choices as given: on the way to the legal moves,
    /// only the first of them may be known.
    fn probe(&self, pos: &Position, rules: MoveRules, k: usize, choices: Option<&Choices>) -> Result<u32, Refusal> {
        let rules = match choices {
            Some(c) => self.chosen_rules(pos, rules, Some(c)),
            None => rules,
        };
        let k = move_base(k);
        if k == 0 || k > self.move_count() {
            return Err(Refusal::NoSuchPit);
        }
        let (pit, chosen_cw) = self.move_parts(k);
        if self.shared > 0 && !self.may_play(pit) {
            return Err(Refusal::NotPlayable);
        }
        if self.choices > 1 && !rules.phase.sow.either && chosen_cw == rules.phase.sow.ccw {
            return Err(Refusal::FixedDirection);
        }
        let cw = self.sows_clockwise(rules.phase, k);
        let origin = self.pit(pos.to_move, pit);
        let board = &pos.board;
        if board.closed[origin as usize] {
            return Err(Refusal::Closed);
        }
        let phase = rules.phase;
        match phase.sow.from_store {
            None if board.cells[origin as usize] == 0 => return Err(Refusal::Empty),
            Some(_) if board.cells[self.store(pos.to_move) as usize] == 0 => return Err(Refusal::NoReserve),
            _ => {}
        }
        if !phase.forbids.is_empty() {
            let ctx = Ctx {
                clockwise: cw,
                ..self.ctx_at(pos, pos.to_move).with(Reg::Origin, origin)
            };
            if let Some(i) = phase.forbids.iter().position(|f| !f.after && ctx.bool(&f.when)) {
                return Err(Refusal::Forbidden(i));
            }
        }
        if !(rules.must_feed || rules.sow_always || self.may_be_stuck(pos, phase, origin, cw)) {
            return Ok(0);
        }
        let mut after = board.clone();
        let turn = Turn::of(self, pos, rules, k, choices);
        let sown = self
            .sow(&mut after, turn, origin, phase, &mut Silent)
            .map_err(|e| if e.nowhere { Refusal::Nowhere } else { Refusal::Endless(e.laps) })?;
        if phase.sows_nothing {
            // The `after move` rules are the move: tried here, their choices are found, and a move
            // that leaves every seed where it was is not one.
            self.after_move(&mut after, turn, origin, sown, phase, &mut Silent);
            if after.cells == board.cells {
                return Err(Refusal::Unchanged);
            }
        }
        if sown.grand_slam && self.grand_slam == Some(GrandSlam::Forbidden) {
            return Err(Refusal::GrandSlam);
        }
        if phase.judges_outcome {
            // Rules about what the move did read the board after it: where its last lap ended and
            // the way that lap went.
            let ctx = Ctx {
                taken: sown.taken,
                lap: sown.laps,
                lifted: sown.lifted,
                clockwise: sown.cw,
                ..self
                    .ctx_at(pos, pos.to_move)
                    .on(&after)
                    .with(Reg::Origin, origin)
                    .with(Reg::Last, sown.last)
            };
            if let Some(i) = phase.forbids.iter().position(|f| f.after && ctx.bool(&f.when)) {
                return Err(Refusal::Forbidden(i));
            }
        }
        if rules.must_feed && self.row_seeds(&after, pos.to_move.other()) == 0 {
            return Err(Refusal::Starves);
        }
        if phase.after_moves_choose && !phase.sows_nothing {
            // Only memory changes here, after what the rules above read: tried for the choices.
            self.after_move(&mut after, turn, origin, sown, phase, &mut Silent);
        }
        Ok(sown.taken)
    }

    /// A refusal in words.
    fn refusal(&self, phase: &Phase, k: usize, r: Refusal) -> String {
        match r {
            Refusal::NoSuchPit if self.side_pits() == 0 => {
                format!("there is no pit {}; pits are s1 to s{}", self.move_name(k), self.shared)
            }
            Refusal::NoSuchPit => format!(
                "there is no pit {}; pits are {}{} to {}{}",
                self.move_name(k),
                if self.rows == 1 { "numbered " } else { "" },
                self.pit_name(1),
                self.pit_name(self.side_pits()),
                if self.shared > 0 {
                    format!(", and the shared pits s1 to s{}", self.shared)
                } else {
                    String::new()
                }
            ),
            Refusal::NotPlayable => match self.play_from {
                PlayFrom::Shared => "a move starts from a shared pit".into(),
                _ => "a move starts from one of the player's own pits".into(),
            },
            Refusal::Closed => "it is closed for this round".into(),
            Refusal::NoReserve => "there are no seeds left in the store to enter".into(),
            Refusal::MustCapture => "another move makes a capture, and a capture must be made".into(),
            Refusal::FixedDirection => {
                let way = if phase.sow.ccw { "counter-clockwise" } else { "clockwise" };
                format!("in this phase seeds are sown {way} only")
            }
            Refusal::Empty => "it is empty".into(),
            Refusal::Unchanged => "it would leave every seed where it is, and in this phase a move must move seeds".into(),
            Refusal::BadChoice => "its choices do not answer the ones the rules ask for".into(),
            Refusal::Forbidden(i) => phase.forbids[i].reason.clone(),
            Refusal::Endless(laps) => format!("its sowing never ends (more than {laps} laps)"),
            Refusal::Nowhere => {
                "its sowing never ends: every pit of the track is passed over, so the seeds in hand have nowhere to go".into()
            }
            Refusal::GrandSlam => "it would capture every seed of the opponent (a grand slam), which this game forbids".into(),
            Refusal::Starves => "the opponent has no seeds and this move gives them none; a move that feeds them must be played".into(),
        }
    }

    /// Plays a move (a pit number of the player to move). `pos` is a start from [`Game::initial`], a
    /// position reached by `apply`, or one made elsewhere (such as from JSON) and then passed through
    /// [`Game::settle_start`]: the end rules that read only the stores are checked again only after a
    /// move that changed a store, which counts on the position before it having been checked.
    pub fn apply(&self, pos: &mut Position, k: usize) -> Result<(), MoveError> {
        self.apply_logged(pos, k, &mut Silent)
    }

    /// Plays a move and returns what happened, step by step.
    pub fn apply_traced(&self, pos: &mut Position, k: usize) -> Result<Vec<Event>, MoveError> {
        let mut log = Log::on();
        self.apply_logged(pos, k, &mut log)?;
        Ok(log.events)
    }

    pub(crate) fn apply_logged(&self, pos: &mut Position, k: usize, log: &mut impl Narrate) -> Result<(), MoveError> {
        if pos.over {
            return Err(MoveError::GameOver);
        }
        let rules = self.move_rules(pos, Hints::default());
        self.check_move(pos, rules, k).map_err(|r| MoveError::Illegal {
            pit: k,
            name: self.move_name(move_base(k)),
            reason: match r {
                Refusal::BadChoice => {
                    let same_pit: Vec<String> = self
                        .legal_moves(pos)
                        .into_iter()
                        .filter(|&j| move_base(j) == move_base(k))
                        .map(|j| self.name_move(pos, j))
                        .collect();
                    format!(
                        "{}; the moves from this pit are {}",
                        self.refusal(rules.phase, k, r),
                        same_pit.join(", ")
                    )
                }
                r => self.refusal(rules.phase, k, r),
            },
        })?;
        self.play(pos, k, rules, Hints::default(), log);
        Ok(())
    }

    /// Plays the legal move `k` (`rules` are the position's [`MoveRules`]). Returns the legal moves of
    /// the position reached when the end rules had to work them out.
    pub(crate) fn play(&self, pos: &mut Position, k: usize, rules: MoveRules, hints: Hints, log: &mut impl Narrate) -> Option<Moves> {
        let choices = self.uses_choose.then(|| Choices::of_move(k));
        let rules = match &choices {
            Some(c) => self.chosen_rules(pos, rules, Some(c)),
            None => rules,
        };
        let phase = rules.phase;
        let mover = pos.to_move;
        let penalty_possible = rules.starving && matches!(self.feeding, Some(Feeding::Penalty(_))) && self.some_move_feeds(pos, rules);
        log.push(|| Event::Move {
            player: mover,
            pit: k,
            phase: phase.name.clone(),
            choices: self.choice_labels(pos, k),
        });
        // One way to play a pit (the usual case): the move is the pit, with no division to split it.
        let pit = if self.choices == 1 {
            move_base(k)
        } else {
            self.move_parts(move_base(k)).0
        };
        let origin = self.pit(mover, pit);
        let stores_before = self.stores(&pos.board);
        // The position before a first move may not have been settled.
        let first_move = pos.ply == 0;
        let turn = Turn::of(self, pos, rules, k, choices.as_ref());
        let sown = match self.sow(&mut pos.board, turn, origin, phase, log) {
            Ok(s) => s,
            Err(e) => unreachable!(
                "a legal move's sowing ends (check_move sowed it when it might not): {} laps",
                e.laps
            ),
        };
        let mut hash_delta = sown.hash_delta;
        // `sown` goes by value: a reference would keep it in memory on every move, for a rule few
        // games have.
        if !phase.after_moves.is_empty() && self.after_move(&mut pos.board, turn, origin, sown, phase, log) {
            // The memory (or, in a phase that sows nothing, the seeds) changed: the position's
            // identity is worked out afresh.
            hash_delta = None;
        }
        pos.ply += 1;
        if penalty_possible && self.row_seeds(&pos.board, mover.other()) == 0 {
            self.feeding_penalty(pos, mover, log);
            return None;
        }
        if sown.another {
            log.push(|| Event::AnotherMove { player: mover });
        } else {
            pos.to_move = mover.other();
        }
        if self.passing {
            self.pass_if_unable(pos, hints, log);
        }
        let stores_grew = self.stores(&pos.board) != stores_before;
        let repeated = self.uses_repeated && self.remember(pos, mover, hash_delta, stores_grew);
        self.settle(pos, mover, repeated, first_move || stores_grew, hints, log)
    }

    /// The `after move` rules of `phase`, after the sowing of `turn`'s move from `origin`: every one
    /// whose condition holds is carried out, in order, each reading what the ones before it left.
    /// Returns whether the memory or the seeds changed.
    #[cold]
    #[inline(never)]
    fn after_move(&self, board: &mut Board, turn: Turn, origin: Cell, sown: Sown, phase: &Phase, log: &mut impl Narrate) -> bool {
        let before = (board.memory.clone(), board.cells.clone());
        let track = phase.track(turn.mover, turn.cw);
        for rule in &phase.after_moves {
            let snapshot = board.clone();
            let ctx = Ctx {
                taken: sown.taken,
                lifted: sown.lifted,
                ..self.ctx_lap(turn, &snapshot, None, sown.last, origin, sown.laps, track)
            };
            if ctx.bool(&rule.when) {
                self.act(board, &snapshot, &rule.actions, &rule.name, phase, turn.cw, ctx, None, log);
            }
        }
        board.memory != before.0 || board.cells != before.1
    }

    /// `pass when unable`: the player to move who has no legal move passes the turn when the other
    /// player has one. When neither has, the turn stays, for the end rules to see.
    #[cold]
    #[inline(never)]
    fn pass_if_unable(&self, pos: &mut Position, hints: Hints, log: &mut impl Narrate) {
        let unable = |pos: &Position| self.legal_with(pos, self.move_rules(pos, hints)).is_empty();
        if !unable(pos) {
            return;
        }
        let passer = pos.to_move;
        pos.to_move = passer.other();
        if unable(pos) {
            pos.to_move = passer;
            return;
        }
        log.push(|| Event::Pass { player: passer });
    }

    /// Could the mover, whose opponent has no seeds, give them some (for a feeding penalty)?
    #[cold]
    #[inline(never)]
    fn some_move_feeds(&self, pos: &Position, rules: MoveRules) -> bool {
        let unfed = MoveRules {
            starving: false,
            must_feed: false,
            ..rules
        };
        if self.uses_choose {
            return self.choice_moves(pos, unfed).iter().any(|&(k, _)| self.feeds(pos, rules, k));
        }
        let mover = pos.to_move;
        (1..=self.move_count()).any(|j| {
            let mut after = pos.board.clone();
            self.check_move(pos, unfed, j).is_ok()
                && self
                    .sow(
                        &mut after,
                        Turn::of(self, pos, rules, j, None),
                        self.pit(mover, self.move_parts(j).0),
                        rules.phase,
                        &mut Silent,
                    )
                    .is_ok()
                && self.row_seeds(&after, mover.other()) > 0
        })
    }

    /// Ends the game: `mover` could have fed the opponent and did not.
    #[cold]
    #[inline(never)]
    fn feeding_penalty(&self, pos: &mut Position, mover: Player, log: &mut impl Narrate) {
        let Some(Feeding::Penalty(to)) = &self.feeding else {
            unreachable!("a feeding penalty needs a penalty policy")
        };
        let receiver = self.ctx_at(pos, mover).player(to);
        log.push(|| Event::FeedingPenalty { mover, receiver });
        self.finish(
            pos,
            "feeding penalty",
            &Remaining::To(Code::constant(receiver.index() as i64)),
            None,
            None,
            mover,
            log,
        );
    }

    /// Adds the position reached by `mover`'s move to the history; was it there already? The history
    /// ends with the position before the move (when it is kept), so the new identity is that one's
    /// changed by what the sowing moved, when it only moved seeds along the track.
    #[inline]
    fn remember(&self, pos: &mut Position, mover: Player, hash_delta: Option<u64>, stores_grew: bool) -> bool {
        let h = match (pos.history.last(), hash_delta) {
            (Some(h), Some(delta)) => h
                .wrapping_add(delta)
                .wrapping_sub(Self::turn_key(mover))
                .wrapping_add(Self::turn_key(pos.to_move)),
            _ => self.hash_apart(pos),
        };
        if self.stores_only_grow && stores_grew {
            // No position before this move can come back: a store is larger now and never shrinks.
            pos.history.clear();
        }
        let seen = pos.history.contains(h);
        pos.history.push(h);
        seen
    }

    /// [`Game::hash`], out of line: after a move that only moved seeds along the track the identity
    /// is worked out from the last one.
    #[inline(never)]
    fn hash_apart(&self, pos: &Position) -> u64 {
        self.hash(pos)
    }

    /// Seeds in each store.
    #[inline]
    fn stores(&self, board: &Board) -> [u32; 2] {
        let s = self.pit_count();
        [board.cells[s], board.cells[s + 1]]
    }

    /// Does the (legal) move `k` leave the other player's row with seeds?
    fn feeds(&self, pos: &Position, rules: MoveRules, k: usize) -> bool {
        let mut after = pos.board.clone();
        let choices = self.uses_choose.then(|| Choices::of_move(k));
        self.sow(
            &mut after,
            Turn::of(self, pos, rules, k, choices.as_ref()),
            self.pit(pos.to_move, self.move_parts(move_base(k)).0),
            rules.phase,
            &mut Silent,
        )
        .is_ok()
            && self.row_seeds(&after, pos.to_move.other()) > 0
    }

    /// Settles a position given from outside (a start position, `--from`, [`crate::position::from_json`]):
    /// the end rules are checked as if the other player had just moved, so a finished position reads as
    /// finished. Call it before playing moves on such a position.
    pub fn settle_start(&self, pos: &mut Position) {
        if !pos.over {
            self.settle(pos, pos.to_move.other(), false, true, Hints::default(), &mut Silent);
        }
    }

    /// Checks the end rules (after a move by `mover`, or at the start of a round) and carries out the
    /// first that holds, then the rounds. The legal moves are worked out only for a rule that asks
    /// about them (`no_moves`, `can_feed`); they are returned when the game goes on.
    #[inline(always)]
    pub(crate) fn settle(
        &self,
        pos: &mut Position,
        mover: Player,
        repeated: bool,
        stores_changed: bool,
        hints: Hints,
        log: &mut impl Narrate,
    ) -> Option<Moves> {
        match self.end_rule_holding(pos, mover, repeated, stores_changed, hints) {
            (None, moves) => moves,
            (Some(rule), _) => self.end_and_go_on(pos, mover, rule, hints, log),
        }
    }

    /// The first end rule that holds, if any, with the legal moves when a rule asked about them.
    /// Unless `stores_changed`, the rules that read only the stores are passed over: they did not
    /// hold before the move (the position before it was settled, or the game would be over), and
    /// they read the same values now.
    #[inline(always)]
    fn end_rule_holding(
        &self,
        pos: &Position,
        mover: Player,
        repeated: bool,
        stores_changed: bool,
        hints: Hints,
    ) -> (Option<usize>, Option<Moves>) {
        let kinds = &self.end_kinds;
        let mut moves: Option<Moves> = None;
        // A `repeated` rule holds for certain; only the rules before it need a look.
        let certain = if repeated { kinds.repeated } else { 0 };
        let before_certain = certain.wrapping_sub(1) & !certain;
        let mut maybe = (kinds.no_moves | kinds.general | if stores_changed { kinds.stores_only } else { 0 }) & before_certain;
        while maybe != 0 {
            let i = maybe.trailing_zeros() as usize;
            let rule = &self.ends[i];
            let holds = if kinds.no_moves & (1 << i) != 0 {
                moves
                    .get_or_insert_with(|| self.legal_with(pos, self.move_rules(pos, hints)))
                    .is_empty()
            } else if kinds.stores_only & (1 << i) != 0
                && let Some(known) = self.store_table(rule).and_then(|t| {
                    let [south, north] = self.stores(&pos.board);
                    t.lookup(south, north, hints.total.map_or_else(|| self.seed_total(pos), |t| t as u32))
                })
            {
                known
            } else {
                self.end_rule_holds(rule, pos, mover, repeated, hints, &mut moves)
            };
            if holds {
                return (Some(i), moves);
            }
            maybe &= maybe - 1;
        }
        if certain != 0 {
            return (Some(certain.trailing_zeros() as usize), moves);
        }
        if self.ends.len() > 64 {
            return self.end_rule_past_64(pos, mover, repeated, stores_changed, hints, moves);
        }
        (None, moves)
    }

    /// The first end rule past the 64th that holds, one at a time (the first 64 did not).
    #[cold]
    #[inline(never)]
    fn end_rule_past_64(
        &self,
        pos: &Position,
        mover: Player,
        repeated: bool,
        stores_changed: bool,
        hints: Hints,
        mut moves: Option<Moves>,
    ) -> (Option<usize>, Option<Moves>) {
        for (i, rule) in self.ends.iter().enumerate().skip(64) {
            let holds = match rule.test {
                EndTest::Repeated => repeated,
                EndTest::StoresOnly if !stores_changed => false,
                _ => self.end_rule_holds(rule, pos, mover, repeated, hints, &mut moves),
            };
            if holds {
                return (Some(i), moves);
            }
        }
        (None, moves)
    }

    /// The answers of an end rule that reads only the stores, worked out the first time it is asked
    /// for, when the game has at most [`TABULATED_TOTAL`] seeds.
    #[inline]
    pub(crate) fn store_table<'a>(&self, rule: &'a EndRule) -> Option<&'a StoreTable> {
        rule.store_table.get_or_init(|| self.tabulate(rule)).as_ref()
    }

    /// Evaluates an end rule that reads only the stores for every pair of store counts.
    #[cold]
    fn tabulate(&self, rule: &EndRule) -> Option<StoreTable> {
        if self.total > TABULATED_TOTAL {
            return None;
        }
        let n2 = self.pit_count();
        let mut board = Board {
            cells: Slots::from_elem(0, n2 + 2),
            claimed: Slots::from_elem(None, n2),
            closed: Slots::from_elem(false, n2),
            memory: Vec::new(),
        };
        let side = self.total + 1;
        let mut holds = Vec::with_capacity((side * side) as usize);
        for south in 0..side {
            for north in 0..side {
                board.cells[n2] = south;
                board.cells[n2 + 1] = north;
                let ctx = Ctx {
                    total: Some(i64::from(self.total)),
                    ..Ctx::new(self, &board, Player::South)
                };
                holds.push(ctx.bool(&rule.when));
            }
        }
        Some(StoreTable { total: self.total, holds })
    }

    /// Whether an end rule holds, whatever its condition reads; works out the legal moves into
    /// `moves` when it asks about them.
    #[inline(never)]
    fn end_rule_holds(
        &self,
        rule: &EndRule,
        pos: &Position,
        mover: Player,
        repeated: bool,
        hints: Hints,
        moves: &mut Option<Moves>,
    ) -> bool {
        let (mut no_moves, mut can_feed) = (false, false);
        if rule.asks_moves {
            let rules = self.move_rules(pos, hints);
            let m = *moves.get_or_insert_with(|| self.legal_with(pos, rules));
            no_moves = m.is_empty();
            can_feed = rule.asks_can_feed && self.can_feed_as_read(rule, pos, mover, repeated, hints, no_moves, rules, m);
        }
        self.end_ctx(pos, mover, repeated, hints, no_moves, can_feed).bool(&rule.when)
    }

    /// The context an end rule reads after `mover`'s move.
    #[inline(always)]
    fn end_ctx<'a>(&'a self, pos: &'a Position, mover: Player, repeated: bool, hints: Hints, no_moves: bool, can_feed: bool) -> Ctx<'a> {
        Ctx {
            repeated,
            no_moves,
            can_feed,
            total: if self.uses_total {
                Some(hints.total.unwrap_or_else(|| i64::from(self.seed_total(pos))))
            } else {
                None
            },
            ..self.ctx_at(pos, mover)
        }
    }

    /// The value of `can_feed` for the end rule `rule`: whether some legal move leaves the opponent
    /// seeds, which costs a sowing a move, so it is worked out only when the rule's answer turns on
    /// it (`seeds(other(to_move)) == 0 and not can_feed` does not while the opponent has seeds);
    /// otherwise `false`, which then gives the same answer as the true value.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn can_feed_as_read(
        &self,
        rule: &EndRule,
        pos: &Position,
        mover: Player,
        repeated: bool,
        hints: Hints,
        no_moves: bool,
        rules: MoveRules,
        moves: Moves,
    ) -> bool {
        let holds = |can_feed| self.end_ctx(pos, mover, repeated, hints, no_moves, can_feed).bool(&rule.when);
        holds(false) != holds(true) && moves.iter().any(|k| self.feeds(pos, rules, k))
    }

    /// Carries out the end rule `rule`, and when it only ended a round, checks the next round's start
    /// the same way (it may be over at once: a player with no pit to play).
    #[cold]
    #[inline(never)]
    pub(crate) fn end_and_go_on(
        &self,
        pos: &mut Position,
        mover: Player,
        rule: usize,
        hints: Hints,
        log: &mut impl Narrate,
    ) -> Option<Moves> {
        let mut rule = rule;
        let mut mover = mover;
        for _ in 0..MAX_EMPTY_ROUNDS {
            let ending = &self.ends[rule];
            if !self.finish(
                pos,
                &ending.name,
                &ending.remaining,
                ending.remaining_from.as_ref(),
                ending.result.as_ref(),
                mover,
                log,
            ) {
                return None;
            }
            mover = pos.to_move.other();
            match self.end_rule_holding(pos, mover, false, true, hints) {
                (None, moves) => return moves,
                (Some(next), _) => rule = next,
            }
        }
        pos.over = true;
        pos.winner = Some(Outcome::Draw);
        pos.ended_by = Some(format!("{MAX_EMPTY_ROUNDS} rounds ended without a move"));
        None
    }

    /// The pits whose seeds an end rule's `remaining` deals with: every pit (`None`, the usual case,
    /// which allocates nothing), or those `from` names (`true` per pit named).
    fn remaining_pits(&self, pos: &Position, from: Option<&PitsExpr>, mover: Player) -> Option<Vec<bool>> {
        let pits = from?;
        let ctx = self.ctx_at(pos, mover);
        let mut named = vec![false; self.pit_count()];
        match pits {
            PitsExpr::Pit(e) => {
                let c = ctx.pit(e);
                if let Some(n) = named.get_mut(c as usize) {
                    *n = true;
                }
            }
            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                if let Some(n) = named.get_mut(c as usize) {
                    *n = true;
                }
                true
            }),
        }
        Some(named)
    }

    /// Ends the game (or round) by the named rule, with the result it states or else the one the
    /// scores give; `remaining` deals with the seeds of the pits `from` names (else of every pit).
    /// Returns true when a new round was set up.
    #[allow(clippy::too_many_arguments)]
    fn finish(
        &self,
        pos: &mut Position,
        rule: &str,
        remaining: &Remaining,
        from: Option<&PitsExpr>,
        result: Option<&EndResult>,
        mover: Player,
        log: &mut impl Narrate,
    ) -> bool {
        let n2 = self.pit_count();
        let named = self.remaining_pits(pos, from, mover);
        let pits = || (0..n2).filter(|&c| named.as_ref().is_none_or(|n| n[c]));
        let left: u32 = pits().map(|c| pos.board.cells[c]).sum();
        // Seeds in the pits `from` leaves out stay where they are (they are told apart in the narration).
        let outside: u32 = if named.is_some() {
            (0..n2).map(|c| pos.board.cells[c]).sum::<u32>() - left
        } else {
            0
        };
        match remaining {
            Remaining::Owner => {
                // A shared pit nobody claimed has no owner: its seeds stay where they are.
                for c in pits() {
                    if let Some(owner) = self.owner(&pos.board, c as Cell) {
                        let s = self.store(owner) as usize;
                        pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
                    }
                }
            }
            Remaining::To(p) => {
                let p = self.ctx_at(pos, mover).player(p);
                let s = self.store(p) as usize;
                for c in pits() {
                    pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
                }
            }
            Remaining::Split => {
                let on_side = |p: Player| -> u32 {
                    pits()
                        .filter(|&c| self.side(c as Cell) == Some(p))
                        .map(|c| pos.board.cells[c])
                        .sum()
                };
                let [south, north] = [on_side(Player::South), on_side(Player::North)];
                let half = left / 2;
                let odd = left % 2;
                let larger = if south >= north { Player::South } else { Player::North };
                for c in pits() {
                    pos.board.cells[c] = 0;
                }
                pos.board.cells[self.store(Player::South) as usize] += half;
                pos.board.cells[self.store(Player::North) as usize] += half;
                pos.board.cells[self.store(larger) as usize] += odd;
            }
            Remaining::InPlace => pos.counted_in_place = true,
            Remaining::Uncounted => {}
        }
        let scores = self.scores(pos);
        let won_by = |p: Player| if p == Player::South { Outcome::South } else { Outcome::North };
        let outcome = match result {
            Some(EndResult::Winner(p)) => won_by(self.ctx_at(pos, mover).player(p)),
            Some(EndResult::Loser(p)) => won_by(self.ctx_at(pos, mover).player(p).other()),
            Some(EndResult::Draw) => Outcome::Draw,
            None => match scores[0].cmp(&scores[1]) {
                std::cmp::Ordering::Greater => Outcome::South,
                std::cmp::Ordering::Less => Outcome::North,
                std::cmp::Ordering::Equal => Outcome::Draw,
            },
        };
        log.push(|| {
            // Seeds in a pit nobody owns stay in it under `owner` and count for nobody `in place`; the
            // other modes leave none of the pits they deal with holding seeds.
            let unowned: Vec<(Cell, u32)> = match remaining {
                Remaining::Owner | Remaining::InPlace => pits()
                    .filter(|&c| pos.board.cells[c] > 0 && self.owner(&pos.board, c as Cell).is_none())
                    .map(|c| (c as Cell, pos.board.cells[c]))
                    .collect(),
                _ => Vec::new(),
            };
            let stayed: u32 = match remaining {
                Remaining::InPlace | Remaining::Uncounted => left,
                _ => unowned.iter().map(|&(_, n)| n).sum(),
            };
            Event::GameEnds {
                rule: rule.to_string(),
                remaining: remaining_word(remaining),
                left: left + outside,
                moved: left - stayed,
                outside,
                unowned,
                scores,
                outcome,
                stated: result.is_some(),
                round: self.rounds.is_some().then_some(pos.round),
            }
        });
        let Some(rounds) = &self.rounds else {
            pos.over = true;
            pos.winner = Some(outcome);
            pos.ended_by = Some(rule.to_string());
            // No position follows a finished game, so none can repeat an earlier one.
            pos.history.clear();
            return false;
        };
        match outcome {
            Outcome::South => pos.rounds_won[0] += 1,
            Outcome::North => pos.rounds_won[1] += 1,
            Outcome::Draw => {}
        }
        // Whatever the end rule left on the board goes back to its owner before the next round.
        // (A board with shared pits is not played in rounds: `check` refuses it.)
        for c in 0..n2 {
            if let Some(owner) = self.owner(&pos.board, c as Cell) {
                let s = self.store(owner) as usize;
                pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
            }
        }
        pos.counted_in_place = false;
        let ctx = self.ctx_at(pos, mover);
        if ctx.bool(&rounds.match_ends) {
            let measure = if rounds.by_rounds { pos.rounds_won } else { self.scores(pos) };
            let winner = match measure[0].cmp(&measure[1]) {
                std::cmp::Ordering::Greater => Outcome::South,
                std::cmp::Ordering::Less => Outcome::North,
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            pos.over = true;
            pos.winner = Some(winner);
            pos.ended_by = Some(rule.to_string());
            pos.history.clear();
            log.push(|| Event::MatchEnds {
                winner,
                rounds_won: pos.rounds_won,
                scores: self.scores(pos),
            });
            return false;
        }
        let opener = self.next_opener(pos, rounds, outcome, mover);
        self.setup_round(pos, rounds, opener);
        log.push(|| Event::RoundSetup {
            round: pos.round,
            cells: pos.board.cells.to_vec(),
            closed: pos.board.closed.to_vec(),
            claimed: pos.board.claimed.to_vec(),
            opener: rounds.opener.map(|_| opener),
        });
        true
    }

    /// Who opens the round after one that ended with `outcome`, whose last move `ender` made. Every
    /// seed is in a store by now. A drawn round, or equal seeds, leave it to alternation.
    fn next_opener(&self, pos: &Position, rounds: &Rounds, outcome: Outcome, ender: Player) -> Player {
        let alternate = pos.opener.other();
        let Some(rule) = rounds.opener else {
            return self.first;
        };
        match (rule, outcome) {
            (Opener::Alternate, _) => alternate,
            (Opener::Same, _) => pos.opener,
            (Opener::OtherThanEnder, _) => ender.other(),
            (Opener::Winner | Opener::Loser, Outcome::Draw) => alternate,
            (Opener::Winner, Outcome::South) | (Opener::Loser, Outcome::North) => Player::South,
            (Opener::Winner, Outcome::North) | (Opener::Loser, Outcome::South) => Player::North,
            (Opener::FewerSeeds, _) => {
                let [south, north] = self.stores(&pos.board);
                match south.cmp(&north) {
                    std::cmp::Ordering::Less => Player::South,
                    std::cmp::Ordering::Greater => Player::North,
                    std::cmp::Ordering::Equal => alternate,
                }
            }
        }
    }

    /// Sets up the next round from the seeds in the stores (the board is empty): seeds move from the
    /// stores into pits, never otherwise, so every seed is kept.
    fn setup_round(&self, pos: &mut Position, rounds: &Rounds, opener: Player) {
        let n = self.side_pits();
        pos.round += 1;
        pos.round_start = pos.ply;
        if !rounds.keep_claims {
            pos.board.claimed.iter_mut().for_each(|c| *c = None);
        }
        // The seeds each player sets up with, in hand: all but those kept in the store.
        let mut hand = [Player::South, Player::North].map(|p| {
            let store = self.store(p) as usize;
            let held = pos.board.cells[store].saturating_sub(rounds.kept_in_store);
            pos.board.cells[store] -= held;
            held
        });
        // With `mirror`, the player with more seeds copies the other's pits (equal seeds: the player
        // who does not open the round copies).
        let copier = rounds.mirror.then(|| match hand[0].cmp(&hand[1]) {
            std::cmp::Ordering::Less => Player::North,
            std::cmp::Ordering::Greater => Player::South,
            std::cmp::Ordering::Equal => opener.other(),
        });
        if let Some(fill) = rounds.fill {
            self.fill_pits(&mut pos.board, fill, &mut hand, copier);
        }
        if rounds.deal {
            let fewest = hand.iter().copied().min().unwrap_or(0);
            for p in Player::BOTH {
                let open: Vec<usize> = self.row(p).filter(|&c| !pos.board.closed[c]).collect();
                if open.is_empty() || Some(p) == copier {
                    continue;
                }
                hand[p.index()] -= fewest;
                for i in 0..fewest as usize {
                    pos.board.cells[open[i % open.len()]] += 1;
                }
            }
        }
        if let Some(copier) = copier {
            for c in self.row(copier.other()) {
                let m = self.mirror_cell(c);
                let seeds = pos.board.cells[c].min(hand[copier.index()]);
                pos.board.cells[m] = seeds;
                pos.board.closed[m] = pos.board.closed[c];
                hand[copier.index()] -= seeds;
            }
        }
        if rounds.fill.is_some_and(|f| f.close_unfilled) {
            for c in 0..2 * n {
                pos.board.closed[c] = pos.board.cells[c] == 0;
            }
        }
        for p in Player::BOTH {
            pos.board.cells[self.store(p) as usize] += hand[p.index()];
        }
        debug_assert!(pos.board.cells.len() == self.pit_count() + 2);
        pos.to_move = opener;
        pos.opener = opener;
        pos.history.clear();
        if self.uses_repeated {
            let h = self.hash(pos);
            pos.history.push(h);
        }
    }

    /// `setup fill N`: each player (but the one who copies, with `mirror`) fills their pits, pit 1
    /// first, with N seeds from their hand; then, with `claim unfilled`, a player who filled all of
    /// their own pits fills the other's empty pits with what is left, and claims them.
    fn fill_pits(&self, board: &mut Board, fill: Fill, hand: &mut [u32; 2], copier: Option<Player>) {
        let per = fill.per_pit;
        board.closed.iter_mut().for_each(|c| *c = false);
        let whole = |h: u32| ((h / per) as usize).min(self.side_pits());
        let as_many = whole(hand[0]).min(whole(hand[1]));
        // Fills the pits `cells` in order while the hand allows; returns how many took seeds.
        let put = |board: &mut Board, hand: &mut u32, cells: &[usize], limit: usize, claim: Option<Player>| {
            let mut filled = 0;
            for &c in cells.iter().take(limit) {
                let seeds = if *hand >= per {
                    per
                } else if fill.remainder_next {
                    *hand
                } else {
                    0
                };
                if seeds == 0 {
                    break;
                }
                *hand -= seeds;
                board.cells[c] = seeds;
                if let Some(p) = claim {
                    board.claimed[c] = Some(p);
                }
                filled += 1;
            }
            filled
        };
        for p in Player::BOTH {
            if Some(p) == copier {
                continue;
            }
            let own: Vec<usize> = self.row(p).collect();
            let limit = if fill.as_many_as_other { as_many } else { own.len() };
            put(board, &mut hand[p.index()], &own, limit, None);
        }
        if fill.claim_unfilled {
            for p in Player::BOTH {
                let full = self.row(p).all(|c| board.cells[c] > 0);
                if !full || hand[p.index()] == 0 {
                    continue;
                }
                let empty: Vec<usize> = self.row(p.other()).filter(|&c| board.cells[c] == 0).collect();
                put(board, &mut hand[p.index()], &empty, empty.len(), Some(p));
            }
        }
    }

    /// The pit mirroring `c` across the middle of the board: the other player's pit in the same row,
    /// counted from the other end (so the two face each other on a board of one row a player).
    fn mirror_cell(&self, c: usize) -> usize {
        let n = self.side_pits();
        let (side, at) = (c / n, c % n);
        let (row, number) = (at / self.columns, at % self.columns);
        (1 - side) * n + row * self.columns + (self.columns - 1 - number)
    }

    /// Sows from `origin` on `board` (in place), with triggers, captures, relays and the grand slam
    /// policy. `turn` gives the rest of the context (the mover, ply, round).
    #[inline(always)]
    fn sow<L: Narrate>(&self, board: &mut Board, turn: Turn, origin: Cell, phase: &Phase, log: &mut L) -> Result<Sown, Endless> {
        let sow = &phase.sow;
        // Seeds sown again may turn the move's direction (`sow taken ... ccw`).
        let mut turn = turn;
        let mut track = phase.track(turn.mover, turn.cw);
        // Per cell, the count before the latest seed fell in; kept only when some rule reads it.
        let mut before: Option<Slots<u32>> = self.uses_before.then(|| board.cells.clone());
        // Seeds taken by capture rules, to put back for a grand slam (made at the first capture).
        let mut captured: Option<CaptureLog> = None;
        let skipped = if sow.skip_origin { origin } else { NO_PIT };
        // A `skip when` that reads the board is tested as each seed falls.
        let one_by_one = !self.triggers.is_empty() || L::ON || sow.skip_each().is_some();
        let keys = &self.hash_keys;
        // What the laps changed in the board's part of the hash, while they only moved seeds along
        // the track (no capture, no trigger).
        let mut hash_delta = 0u64;
        let mut only_moved = true;
        let mut start = origin;
        let mut lap = 1u32;
        let mut another = false;
        // What the rules did: seeds taken, and seeds to sow again (two plain values, which the usual
        // lap only reads).
        let mut taken = 0u32;
        let mut pulled: Option<Pull> = None;
        let mut final_last: Cell;
        loop {
            let hand = match pulled.take() {
                Some(pull) => {
                    start = pull.after;
                    turn.cw = pull.cw;
                    track = phase.track(turn.mover, turn.cw);
                    log.push(|| Event::SowAgain {
                        seeds: pull.seeds,
                        from: track.next[pull.after as usize],
                        lap,
                    });
                    pull.seeds
                }
                None => {
                    // The usual pick-up: every seed of `start`. A move's first lap may start otherwise
                    // (from the store, or back into the pit played), worked out out of line.
                    let (from, hand) = if lap == 1 && sow.special_start {
                        if phase.sows_nothing {
                            // The phase's `after move` rules do what the move does.
                            return Ok(Sown {
                                another: false,
                                last: origin,
                                laps: 0,
                                taken: 0,
                                lifted: 0,
                                grand_slam: false,
                                cw: turn.cw,
                                hash_delta: Some(0),
                            });
                        }
                        let (from, hand, after) = self.first_pick_up(board, turn, origin, sow, track);
                        start = after;
                        (from, hand)
                    } else {
                        (start, std::mem::take(&mut board.cells[start as usize]))
                    };
                    hash_delta = hash_delta.wrapping_sub(u64::from(hand).wrapping_mul(keys[from as usize]));
                    log.push(|| Event::PickUp {
                        cell: from,
                        seeds: hand,
                        lap,
                    });
                    hand
                }
            };
            turn.lifted = hand;
            let last = if !one_by_one {
                let closed = (!turn.open).then_some(&board.closed[..]);
                // The cells a `skip when` answered before the game passes over.
                let stated = if sow.skip.is_some() { sow.skip_table(turn.mover) } else { None };
                let lap_sown = sow_lap(
                    &mut board.cells,
                    closed,
                    stated,
                    before.as_deref_mut(),
                    track,
                    keys,
                    start,
                    hand,
                    skipped,
                )
                .ok_or(Endless { laps: lap, nowhere: true })?;
                hash_delta = hash_delta.wrapping_add(lap_sown.keys);
                lap_sown.last
            } else {
                only_moved = false;
                self.sow_one_by_one(board, turn, origin, phase, lap, &mut before, hand, start, &mut taken, log)?
            };
            final_last = last;
            log.push(|| Event::LapEnds {
                last,
                count: board.cells[last as usize],
            });
            let seeds = board.cells[last as usize].min(63);
            if phase.capture_at[turn.mover.index()][last as usize] >> seeds & 1 != 0
                && let Some(then) = self.capture(
                    board,
                    turn,
                    before.as_deref(),
                    last,
                    origin,
                    lap,
                    phase,
                    track,
                    &mut captured,
                    &mut taken,
                    &mut pulled,
                    log,
                )
            {
                only_moved = false;
                if pulled.is_some() {
                    // The taken seeds are sown on at once: a lap of their own, which the capture and
                    // relay rules then read like any other.
                    lap += 1;
                    if lap > sow.relay_limit {
                        return Err(Endless {
                            laps: sow.relay_limit,
                            nowhere: false,
                        });
                    }
                    continue;
                }
                // Tested one by one rather than matched: most laps end with no rule fired, and a
                // jump on the answer is mispredicted more often than two tests.
                if then == Then::AnotherMove {
                    another = true;
                    break;
                }
                if then == Then::End {
                    break;
                }
            }
            // The pit a relay goes on from: `last`, or the one `relay from` names.
            let mut relay_pit = last;
            let relay = sow.relay.as_ref().is_some_and(|r| {
                if let Some(code) = &sow.relay_from {
                    relay_pit = self.ctx_lap(turn, board, before.as_deref(), last, origin, lap, track).pit(code);
                }
                relay_pit != NO_PIT
                    && !self.is_store(relay_pit)
                    && board.cells[relay_pit as usize] > 0
                    && Ctx {
                        taken,
                        ..self.ctx_lap(turn, board, before.as_deref(), last, origin, lap, track)
                    }
                    .bool(r)
            });
            if !relay {
                log.push(|| Event::TurnEnds {
                    why: if sow.relay.is_some() {
                        "the relay rule does not go on from here".into()
                    } else {
                        "the seeds are all sown".into()
                    },
                });
                break;
            }
            lap += 1;
            if lap > sow.relay_limit {
                return Err(Endless {
                    laps: sow.relay_limit,
                    nowhere: false,
                });
            }
            start = relay_pit;
        }
        let grand_slam = match &captured {
            Some(captured) => self.grand_slam_check(board, captured, turn.mover.other(), &mut another, log),
            None => false,
        };
        Ok(Sown {
            another,
            last: final_last,
            laps: lap,
            taken,
            lifted: turn.lifted,
            grand_slam,
            cw: turn.cw,
            hash_delta: only_moved.then_some(hash_delta),
        })
    }

    /// The first pick-up of a move whose phase starts otherwise than by taking every seed of the pit
    /// played: from the store (`from store N`: the pit played gets the first seed), or back into the pit
    /// played (`start in origin`). Returns the cell picked up from, the seeds, and the cell the lap
    /// starts after.
    #[cold]
    #[inline(never)]
    fn first_pick_up(&self, board: &mut Board, turn: Turn, origin: Cell, sow: &Sow, track: &Track) -> (Cell, u32, Cell) {
        if let Some(n) = sow.from_store {
            let store = self.store(turn.mover);
            let hand = board.cells[store as usize].min(n);
            board.cells[store as usize] -= hand;
            return (store, hand, track.prev[origin as usize]);
        }
        let back = sow
            .start_in_origin
            .as_ref()
            .is_some_and(|c| self.ctx_turn(turn, board).with(Reg::Origin, origin).bool(c));
        let held = board.cells[origin as usize];
        // `lift N` takes N seeds, at least one and at most all the pit holds.
        let hand = match &sow.lift {
            Some(code) => {
                let n = self.ctx_turn(turn, board).with(Reg::Origin, origin).run(code);
                n.clamp(1, i64::from(held.max(1))).min(i64::from(held)) as u32
            }
            None => held,
        };
        board.cells[origin as usize] -= hand;
        (origin, hand, if back { track.prev[origin as usize] } else { origin })
    }

    /// Carries out the first capture rule that holds at the end of a lap, if one does, and tells
    /// what happens next.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn capture(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        track: &Track,
        captured: &mut Option<CaptureLog>,
        taken: &mut u32,
        pulled: &mut Option<Pull>,
        log: &mut impl Narrate,
    ) -> Option<Then> {
        let ctx = Ctx {
            taken: *taken,
            ..self.ctx_lap(turn, board, before, last, origin, lap, track)
        };
        let mut fired = None;
        for rule in &phase.captures {
            if ctx.bool(&rule.when) {
                fired = Some(rule);
                break;
            }
        }
        let rule = fired?;
        // A rule that only says what happens next (`then another move`) has nothing to carry out,
        // and no copy of the board to make for its actions.
        if !rule.actions.is_empty() {
            let fired = self.fire(board, turn, before, last, origin, lap, phase, rule, *taken, captured, log);
            *pulled = fired.pulled;
            *taken += fired.taken;
        }
        // The narration names every rule carried out: one with no actions, by what it says comes next.
        match rule.then {
            Then::End => log.push(|| Event::TurnEnds {
                why: format!("the rule \"{}\" says so", rule.name),
            }),
            Then::AnotherMove if rule.actions.is_empty() => log.push(|| Event::TurnEnds {
                why: format!("the rule \"{}\" gives another move", rule.name),
            }),
            _ => {}
        }
        Some(rule.then)
    }

    /// Carries out the actions of the capture rule `rule`, which holds at the end of a lap.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn fire(
        &self,
        board: &mut Board,
        turn: Turn,
        before: Option<&[u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        phase: &Phase,
        rule: &Rule,
        taken: u32,
        captured: &mut Option<CaptureLog>,
        log: &mut impl Narrate,
    ) -> Acted {
        // The rule's actions read the board as it was when the rule fired.
        let snapshot = board.clone();
        let log_captures = self.grand_slam.is_some().then_some((captured, turn.mover.other()));
        let ctx = Ctx {
            taken,
            ..self.ctx_lap(turn, &snapshot, before, last, origin, lap, phase.track(turn.mover, turn.cw))
        };
        self.act(board, &snapshot, &rule.actions, &rule.name, phase, turn.cw, ctx, log_captures, log)
    }

    /// Sows `hand` seeds one at a time from the cell after `start`, testing the triggers after each
    /// seed and narrating; returns the last cell sown. The usual lap (no trigger, no narration) is
    /// the loop in [`Game::sow`] itself; this one is kept apart so that loop stays small.
    #[allow(clippy::too_many_arguments)]
    #[inline(never)]
    fn sow_one_by_one(
        &self,
        board: &mut Board,
        turn: Turn,
        origin: Cell,
        phase: &Phase,
        lap: u32,
        before: &mut Option<Slots<u32>>,
        mut hand: u32,
        start: Cell,
        taken: &mut u32,
        log: &mut impl Narrate,
    ) -> Result<Cell, Endless> {
        let sow = &phase.sow;
        let track = phase.track(turn.mover, turn.cw);
        let mut c = start;
        let mut last = start;
        let mut sown_into = Vec::new();
        let mut passed = 0usize;
        let table = sow.skip_table(turn.mover);
        // One test a seed for games without `skip when`.
        let stated = sow.skip.is_some();
        while hand > 0 {
            c = track.next[c as usize];
            let why = if sow.skip_origin && c == origin {
                Some(Passed::Origin)
            } else if board.closed.get(c as usize).copied().unwrap_or(false) {
                Some(Passed::Closed)
            } else if stated
                && (table.is_some_and(|t| t[c as usize])
                    || sow.skip_each().is_some_and(|cond| {
                        Ctx {
                            lap,
                            before: before.as_deref(),
                            track: Some(track),
                            taken: *taken,
                            ..self.ctx_turn(turn, board).with(Reg::Pit, c).with(Reg::Origin, origin)
                        }
                        .bool(cond)
                    }))
            {
                Some(Passed::Stated)
            } else {
                None
            };
            if let Some(why) = why {
                passed += 1;
                if passed > track.cells.len() {
                    // Every cell of the track is skipped: the seeds cannot be sown.
                    return Err(Endless { laps: lap, nowhere: true });
                }
                // Told where it happens: after the seeds sown before it.
                if log.enabled() && !sown_into.is_empty() {
                    let cells = std::mem::take(&mut sown_into);
                    log.push(|| Event::Sown { lap, cells });
                }
                log.skip(c, why);
                continue;
            }
            passed = 0;
            if let Some(b) = before.as_mut() {
                b[c as usize] = board.cells[c as usize];
            }
            board.cells[c as usize] += 1;
            hand -= 1;
            last = c;
            if log.enabled() {
                sown_into.push(c);
            }
            if self.trigger_at[turn.mover.index()][c as usize] >> board.cells[c as usize].min(63) & 1 == 0 {
                continue;
            }
            for trigger in &self.triggers {
                let fires = Ctx {
                    final_seed: hand == 0,
                    lap,
                    before: before.as_deref(),
                    track: Some(track),
                    taken: *taken,
                    ..self.ctx_turn(turn, board).with(Reg::Pit, c).with(Reg::Origin, origin)
                }
                .bool(&trigger.when);
                if fires {
                    if log.enabled() {
                        let cells = std::mem::take(&mut sown_into);
                        log.push(|| Event::Sown { lap, cells });
                    }
                    let snapshot = board.clone();
                    let ctx = Ctx {
                        final_seed: hand == 0,
                        lap,
                        before: before.as_deref(),
                        track: Some(track),
                        taken: *taken,
                        ..self.ctx_turn(turn, &snapshot).with(Reg::Pit, c).with(Reg::Origin, origin)
                    };
                    // Check refuses `sow taken` in a trigger, so a trigger never hands seeds back.
                    *taken += self
                        .act(board, &snapshot, &trigger.actions, &trigger.name, phase, turn.cw, ctx, None, log)
                        .taken;
                }
            }
        }
        if log.enabled() && !sown_into.is_empty() {
            log.push(|| Event::Sown { lap, cells: sown_into });
        }
        Ok(last)
    }

    /// Whether the captures of a move took every seed of the opponent's row (a grand slam), and what
    /// the game's grand slam policy then does: put them back, or give another move.
    #[inline(never)]
    fn grand_slam_check(
        &self,
        board: &mut Board,
        captured: &CaptureLog,
        opponent: Player,
        another: &mut bool,
        log: &mut impl Narrate,
    ) -> bool {
        // The opponent's row is tested first: it almost never is empty, and then the log need not be
        // read.
        let grand_slam = self.row_seeds(board, opponent) == 0
            && captured
                .iter()
                .any(|t| t.seeds > 0 && self.side(t.cell) == Some(opponent) && !self.is_store(t.cell));
        if grand_slam {
            match self.grand_slam {
                Some(GrandSlam::CaptureNothing) => {
                    for t in captured.iter() {
                        board.cells[self.store(t.to) as usize] -= t.seeds;
                        board.cells[t.cell as usize] += t.seeds;
                    }
                    log.push(|| Event::GrandSlam { undone: true });
                }
                Some(GrandSlam::Allowed(again)) => {
                    log.push(|| Event::GrandSlam { undone: false });
                    *another |= again;
                }
                _ => {}
            }
        }
        grand_slam
    }

    /// The context at the end of a lap.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn ctx_lap<'a>(
        &'a self,
        turn: Turn<'a>,
        board: &'a Board,
        before: Option<&'a [u32]>,
        last: Cell,
        origin: Cell,
        lap: u32,
        track: &'a Track,
    ) -> Ctx<'a> {
        Ctx {
            regs: [last, origin, NO_PIT],
            lap,
            before,
            track: Some(track),
            ..self.ctx_turn(turn, board)
        }
    }

    #[inline]
    fn ctx_turn<'a>(&'a self, turn: Turn<'a>, board: &'a Board) -> Ctx<'a> {
        Ctx {
            choices: turn.choices,
            to_move: turn.mover,
            ply: turn.ply,
            round: turn.round,
            round_ply: turn.round_ply,
            rounds_won: turn.rounds_won,
            clockwise: turn.cw,
            starter: turn.starter,
            lifted: turn.lifted,
            ..Ctx::new(self, board, turn.mover)
        }
    }

    /// Takes the seeds of pit `c` (nothing for a missing pit or a store) to `to`'s store.
    #[inline]
    fn take(
        &self,
        board: &mut Board,
        c: Cell,
        receiver: Player,
        capture_log: &mut Option<(&mut Option<CaptureLog>, Player)>,
        rule: &str,
        log: &mut impl Narrate,
    ) -> u32 {
        if c == NO_PIT || self.is_store(c) {
            return 0;
        }
        let cells: &mut [u32] = &mut board.cells;
        let n = std::mem::take(&mut cells[c as usize]);
        if n == 0 {
            return 0;
        }
        cells[self.store(receiver) as usize] += n;
        if let Some((captured, _)) = capture_log.as_mut() {
            captured.get_or_insert_with(CaptureLog::new).push(Taken {
                cell: c,
                seeds: n,
                to: receiver,
            });
        }
        log.push(|| Event::Take {
            rule: rule.to_string(),
            cell: c,
            seeds: n,
            to: receiver,
        });
        n
    }

    /// Carries out a rule's actions. Conditions are read on `snapshot` (the board as the rule
    /// fired), so that taking one pit does not change what the next pit of a list means. Returns the
    /// seeds taken, and those taken into the mover's hand by a rule that sows them again with where
    /// and which way that lap goes. `cw`: the move's direction now.
    #[allow(clippy::too_many_arguments)]
    fn act(
        &self,
        board: &mut Board,
        snapshot: &Board,
        actions: &[Action],
        rule: &str,
        phase: &Phase,
        cw: bool,
        ctx: Ctx,
        mut capture_log: Option<(&mut Option<CaptureLog>, Player)>,
        log: &mut impl Narrate,
    ) -> Acted {
        let tracks = Player::BOTH.map(|p| phase.track(p, cw));
        let mut ctx = ctx.on(snapshot);
        let mut hand = 0u32;
        let mut acted = Acted::default();
        // A rule carried out is named in the narration by what it did; when it did nothing (the pits
        // it takes from hold no seeds, or memory is set to what it was), by the first thing it tried.
        let told = log.len();
        let mut tried: Option<Event> = None;
        for action in actions {
            match action {
                Action::Take { pits, to, series } => {
                    // Each pit is taken as soon as it is named: the conditions read the snapshot, so
                    // taking one does not change which come next, and a pit named twice is empty the
                    // second time.
                    let to = match to {
                        Receiver::Owner => Some(None),
                        Receiver::Player(p) => Some(Some(ctx.player(p))),
                        Receiver::Hand => None,
                    };
                    let mover = ctx.mover;
                    // What the narration names the rule by, should every pit it takes be empty: the
                    // first pit it tries (kept apart from `take`, so that a silent move carries none
                    // of it).
                    let narrating = log.enabled();
                    let first_try = |board: &Board, c: Cell, tried: &mut Option<Event>| {
                        if narrating && tried.is_none() && c != NO_PIT && !self.is_store(c) {
                            *tried = Some(self.take_tried(board, c, to, mover, rule));
                        }
                    };
                    let mut take = |board: &mut Board, c: Cell| {
                        match to {
                            Some(to) => {
                                // A shared pit nobody claimed goes to the player taking it.
                                let to = to.or_else(|| self.owner(board, c)).unwrap_or(mover);
                                acted.taken += self.take(board, c, to, &mut capture_log, rule, log)
                            }
                            None => hand += self.take_in_hand(board, c, mover, rule, log),
                        }
                    };
                    let mut anchor = None;
                    for p in pits {
                        match p {
                            PitsExpr::Pit(e) => {
                                let c = ctx.pit(e);
                                anchor.get_or_insert(c);
                                first_try(board, c, &mut tried);
                                take(board, c);
                            }
                            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                                anchor.get_or_insert(c);
                                first_try(board, c, &mut tried);
                                take(board, c);
                                true
                            }),
                        }
                    }
                    if let Some(series) = series
                        && let Some(anchor) = anchor
                        && anchor != NO_PIT
                        && !self.is_store(anchor)
                    {
                        // The series walks along the track through the anchor: the mover's, or on a
                        // board where each player sows their own rows, the anchor's owner's.
                        let mover_track = tracks[ctx.mover.index()];
                        let walk = if mover_track.has(anchor) {
                            mover_track
                        } else {
                            tracks[ctx.mover.other().index()]
                        };
                        // The walk names each pit in turn as `pit`, then gives the name back.
                        let named = ctx.regs[Reg::Pit as usize];
                        if series.plain {
                            // One way, every pit, no cap: the walk stops at the first pit that fails.
                            let mut c = anchor;
                            for _ in 1..walk.cells.len() {
                                c = if series.forward {
                                    walk.next[c as usize]
                                } else {
                                    walk.prev[c as usize]
                                };
                                if self.is_store(c) {
                                    continue;
                                }
                                ctx.regs[Reg::Pit as usize] = c;
                                if !ctx.bool(&series.cond) {
                                    break;
                                }
                                first_try(board, c, &mut tried);
                                take(board, c);
                            }
                            ctx.regs[Reg::Pit as usize] = named;
                            continue;
                        }
                        // Both ways, the forward run stops where the backward run took a pit: each
                        // pit is looked at once.
                        let mut seen = CellSet::default();
                        let (mut pits_taken, mut seeds_taken) = (0u32, 0u32);
                        let runs = [(series.backward, false), (series.forward, true)];
                        'runs: for (_, forward) in runs.into_iter().filter(|&(on, _)| on) {
                            let mut c = anchor;
                            let mut passed = 0usize;
                            for _ in 1..walk.cells.len() {
                                c = if forward { walk.next[c as usize] } else { walk.prev[c as usize] };
                                if self.is_store(c) {
                                    continue;
                                }
                                passed += 1;
                                if series.every_other && passed % 2 == 1 {
                                    continue;
                                }
                                if seen.has(c) || pits_taken >= series.max_pits {
                                    continue 'runs;
                                }
                                ctx.regs[Reg::Pit as usize] = c;
                                if !ctx.bool(&series.cond) {
                                    continue 'runs;
                                }
                                let across = if series.with_opposite { self.opposite(c) } else { NO_PIT };
                                let seeds = board.cells[c as usize] + if across == NO_PIT { 0 } else { board.cells[across as usize] };
                                if seeds_taken.saturating_add(seeds) > series.max_seeds {
                                    continue 'runs;
                                }
                                seen.insert(c);
                                pits_taken += 1;
                                seeds_taken += seeds;
                                first_try(board, c, &mut tried);
                                take(board, c);
                                if across != NO_PIT {
                                    take(board, across);
                                }
                            }
                        }
                        ctx.regs[Reg::Pit as usize] = named;
                    }
                }
                Action::Move { count, from, to } => {
                    let to = ctx.pit(to);
                    if to == NO_PIT {
                        continue;
                    }
                    // `None`: all a pit holds; else what there is, never more, and a count below 0
                    // moves nothing.
                    let asked = count.as_ref().map(|n| ctx.int(n));
                    let mut move_from = |board: &mut Board, from: Cell| {
                        if from == NO_PIT {
                            return;
                        }
                        let held = board.cells[from as usize];
                        let n = asked.map_or(held, |asked| u32::try_from(asked.max(0)).unwrap_or(u32::MAX).min(held));
                        board.cells[from as usize] -= n;
                        board.cells[to as usize] += n;
                        if let Some(asked) = asked
                            && i64::from(n) != asked
                        {
                            log.push(|| Event::ShortMove {
                                rule: rule.to_string(),
                                asked,
                                moved: n,
                                from,
                            });
                        }
                        log.push(|| Event::MoveSeeds {
                            rule: rule.to_string(),
                            seeds: n,
                            from,
                            to,
                        });
                    };
                    // The pits are named on the snapshot, in the order written (a set in its order),
                    // and each gives what it holds on the board as it is now.
                    for p in from {
                        match p {
                            PitsExpr::Pit(e) => move_from(board, ctx.pit(e)),
                            PitsExpr::Set(s) => {
                                let mut cells: Slots<Cell> = Slots::new();
                                ctx.each_in_set(s, |c| {
                                    cells.push(c);
                                    true
                                });
                                for &c in cells.iter() {
                                    move_from(board, c);
                                }
                            }
                        }
                    }
                }
                Action::Claim { pits, player } => {
                    let p = ctx.player(player);
                    let mut cells: Slots<Cell> = Slots::new();
                    for x in pits {
                        match x {
                            PitsExpr::Pit(e) => cells.push(ctx.pit(e)),
                            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                                cells.push(c);
                                true
                            }),
                        }
                    }
                    for &c in cells.iter().filter(|&&c| c != NO_PIT && !self.is_store(c)) {
                        board.claimed[c as usize] = Some(p);
                        log.push(|| Event::Claim {
                            rule: rule.to_string(),
                            cell: c,
                            player: p,
                        });
                    }
                }
                Action::Remember { slot, owner, value, add } => {
                    let m = &self.memory[*slot];
                    let whose = ctx.run(owner);
                    let Some(i) = super::eval::memory_index(self, m.at, whose) else {
                        continue;
                    };
                    let given = ctx.run(value);
                    let old = board.memory[i];
                    let new = if *add { old.saturating_add(given) } else { given };
                    let remembered = |changed: bool| Event::Remember {
                        rule: rule.to_string(),
                        name: m.name.clone(),
                        keeper: if m.at.per_pit {
                            Keeper::Pit(whose as Cell)
                        } else {
                            Keeper::Player(if whose == 0 { Player::South } else { Player::North })
                        },
                        value: new,
                        holds_pit: m.holds_pit,
                        changed,
                    };
                    if new != old {
                        board.memory[i] = new;
                        log.push(|| remembered(true));
                    } else if log.enabled() && tried.is_none() {
                        tried = Some(remembered(false));
                    }
                }
                Action::SowTaken {
                    pit,
                    after,
                    cw: turn_to,
                    chosen_way,
                } => {
                    // A way the mover chooses (`either`) is chosen first, and the pit named then reads
                    // it as `clockwise`: "from the end of the row from which this way goes".
                    let cw = match ctx.choices {
                        Some(choices) if *chosen_way => choices.pick(2, |i| if i == 0 { "ccw" } else { "cw" }.to_string()) == 1,
                        _ => turn_to.unwrap_or(cw),
                    };
                    let named = pit.as_ref().map(|f| {
                        if *chosen_way {
                            Ctx { clockwise: cw, ..ctx }.pit(f)
                        } else {
                            ctx.pit(f)
                        }
                    });
                    let track = phase.track(ctx.mover, cw);
                    let last = ctx.regs[Reg::Last as usize];
                    // The lap starts after the cell named, or after the one before it so that it gets
                    // the first seed; a pit off the mover's track (or none) leaves the default, the
                    // pit after `last`.
                    let start = match named {
                        Some(c) if c != NO_PIT && track.has(c) => {
                            if *after {
                                c
                            } else {
                                track.prev[c as usize]
                            }
                        }
                        _ => last,
                    };
                    if hand > 0 {
                        acted.taken += hand;
                        acted.pulled = Some(Pull {
                            seeds: std::mem::take(&mut hand),
                            after: start,
                            cw,
                        });
                    }
                }
            }
        }
        if let Some(e) = tried
            && log.len() == told
        {
            log.push(|| e);
        }
        acted
    }

    /// How the narration names a take of pit `c` that may find it empty (out of line: only a
    /// narrated move asks, and the take itself stays small enough to be put in line).
    #[cold]
    #[inline(never)]
    fn take_tried(&self, board: &Board, c: Cell, to: Option<Option<Player>>, mover: Player, rule: &str) -> Event {
        match to {
            Some(to) => Event::Take {
                rule: rule.to_string(),
                cell: c,
                seeds: 0,
                to: to.or_else(|| self.owner(board, c)).unwrap_or(mover),
            },
            None => Event::TakeInHand {
                rule: rule.to_string(),
                cell: c,
                seeds: 0,
                player: mover,
            },
        }
    }

    /// Takes the seeds of pit `c` (nothing for a missing pit or a store) into `mover`'s hand, to be
    /// sown again; returns how many.
    fn take_in_hand(&self, board: &mut Board, c: Cell, mover: Player, rule: &str, log: &mut impl Narrate) -> u32 {
        if c == NO_PIT || self.is_store(c) {
            return 0;
        }
        let n = std::mem::take(&mut board.cells[c as usize]);
        if n > 0 {
            log.push(|| Event::TakeInHand {
                rule: rule.to_string(),
                cell: c,
                seeds: n,
                player: mover,
            });
        }
        n
    }
}

/// What one lap of the usual sowing did.
struct Lap {
    /// The cell the last seed fell into.
    last: Cell,
    /// The sum of the hash keys of the cells sown into, one per seed.
    keys: u64,
}

/// One lap of the usual sowing (no trigger to test, nothing to narrate): `hand` seeds one by one
/// into the cells after `start` along the track, passing over `skipped`, the `closed` pits and the
/// cells a `skip when` table (`stated`, answered before the game) passes over, noting in `before` each cell's count before its latest seed. `None` when every cell of the track is
/// passed over, so the seeds cannot be sown. In line in [`Game::sow`]: a call per lap cost more
/// time than the registers it saves.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn sow_lap(
    cells: &mut [u32],
    closed: Option<&[bool]>,
    stated: Option<&[bool]>,
    before: Option<&mut [u32]>,
    track: &Track,
    keys: &[u64],
    start: Cell,
    hand: u32,
    skipped: Cell,
) -> Option<Lap> {
    let next = &track.next;
    if closed.is_none() && stated.is_none() && next.get(skipped as usize).is_none_or(|&after| after != skipped) {
        // Only the skipped cell is passed over, and the cell after it never is: the usual case.
        return Some(match before {
            None => sow_along::<false>(cells, &mut [], track, keys, start, hand, skipped),
            Some(before) => sow_along::<true>(cells, before, track, keys, start, hand, skipped),
        });
    }
    sow_lap_checked(
        cells,
        closed.unwrap_or(&[]),
        stated.unwrap_or(&[]),
        before,
        next,
        keys,
        start,
        hand,
        skipped,
    )
}

/// [`sow_lap`] when no pit is closed and no two skipped cells follow one another, kept to a
/// handful of instructions a seed. It counts places along the track rather than following `next`,
/// so that each seed's cell is known without waiting for the last one's. With `BEFORE`, each
/// cell's count before its seed is noted in `before`; the loop is compiled once with and once
/// without, so that a game that does not read those counts does not test for them at every seed.
#[inline(always)]
fn sow_along<const BEFORE: bool>(
    cells: &mut [u32],
    before: &mut [u32],
    track: &Track,
    keys: &[u64],
    start: Cell,
    hand: u32,
    skipped: Cell,
) -> Lap {
    let order = &track.cells;
    let mut c = start as usize;
    let mut sum = 0u64;
    let mut i = track.place[c] as usize;
    for _ in 0..hand {
        i = if i + 1 == order.len() { 0 } else { i + 1 };
        c = order[i] as usize;
        if c == skipped as usize {
            i = if i + 1 == order.len() { 0 } else { i + 1 };
            c = order[i] as usize;
        }
        if BEFORE {
            before[c] = cells[c];
        }
        cells[c] += 1;
        sum = sum.wrapping_add(keys[c]);
    }
    Lap {
        last: c as Cell,
        keys: sum,
    }
}

/// [`sow_lap`] when pits may be closed or passed over by `skip when`, or skipped cells may follow
/// one another: one seed at a time along `next`. Out of line, to keep the usual lap small.
#[allow(clippy::too_many_arguments)]
#[inline(never)]
fn sow_lap_checked(
    cells: &mut [u32],
    closed: &[bool],
    stated: &[bool],
    mut before: Option<&mut [u32]>,
    next: &[Cell],
    keys: &[u64],
    start: Cell,
    mut hand: u32,
    skipped: Cell,
) -> Option<Lap> {
    let mut c = start as usize;
    let mut sum = 0u64;
    let mut passed = 0usize;
    while hand > 0 {
        c = next[c] as usize;
        if c == skipped as usize || closed.get(c).copied().unwrap_or(false) || stated.get(c).copied().unwrap_or(false) {
            passed += 1;
            if passed > cells.len() {
                return None;
            }
            continue;
        }
        passed = 0;
        if let Some(b) = before.as_deref_mut() {
            b[c] = cells[c];
        }
        cells[c] += 1;
        sum = sum.wrapping_add(keys[c]);
        hand -= 1;
    }
    Some(Lap {
        last: c as Cell,
        keys: sum,
    })
}

fn remaining_word(r: &Remaining) -> &'static str {
    match r {
        Remaining::Owner => "owner",
        Remaining::To(_) => "to",
        Remaining::Split => "split",
        Remaining::InPlace => "in place",
        Remaining::Uncounted => "uncounted",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::test_game as game;

    #[test]
    fn a_store_rules_table_agrees_with_its_condition_for_every_pair_of_stores() {
        let g = game(
            r#"
game "Invented"
board {
  pits 3
  seeds 2
  stores captures
}
first south
sow {
  direction ccw
}
end "more than half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
end "weighed" when captured(south) * 2 - captured(north) in 3..9 remaining owner
end "not seven" when not (captured(north) == 7) and total > 10 and captured(south) % 2 == 1 remaining owner
"#,
        );
        let n2 = g.pit_count();
        let total = g.total;
        assert_eq!(total, 12);
        for rule in &g.ends {
            assert_eq!(rule.test, EndTest::StoresOnly, "{}", rule.name);
            let table = g.store_table(rule).expect("a game of 12 seeds is tabulated");
            for south in 0..=total {
                for north in 0..=total - south {
                    // The seeds not in the stores lie in south's first pit.
                    let mut pos = g.initial(None);
                    pos.board.cells.iter_mut().for_each(|c| *c = 0);
                    pos.board.cells[0] = total - south - north;
                    pos.board.cells[n2] = south;
                    pos.board.cells[n2 + 1] = north;
                    let evaluated = g.end_rule_holds(rule, &pos, Player::South, false, Hints::of(&g, &pos), &mut None);
                    assert_eq!(
                        table.lookup(south, north, total),
                        Some(evaluated),
                        "{} at {south}, {north}",
                        rule.name
                    );
                }
            }
            // Another total: no answer, the rule is evaluated.
            assert_eq!(table.lookup(0, 0, total + 1), None);
        }
    }
}
