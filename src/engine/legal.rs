//! Moves and legality: the phase that applies, the legal moves of a position (with the choices a
//! move carries); how they are named and read, and why a move is refused, in `names`; the listings
//! the end rules ask for in `for_ends`.

use super::choice::{CHOICE_SHIFT, Choices, Met, move_base, width as choice_width};
use super::eval::Ctx;
use super::trace::Silent;
use super::turn::*;
use super::{Board, Cell, Game, Moves, Player, Position};
use crate::compile::ir::{Feeding, GrandSlam, Phase, Reg};

/// How a walk over the moves with choices goes on after a complete move is found.
enum Walk {
    On,
    /// The rest of this pit's moves are not needed.
    NextPit,
    Stop,
}

mod for_ends;
mod forbids;
mod landings;
mod names;
mod walk;
pub(in crate::engine) use landings::Trial;
use landings::{Landing, Landings, Unread};

thread_local! {
    /// The table of what moves leave of the last listing of moves with choices on this thread,
    /// kept for the next ([`Game::all_choice_moves`]).
    static LANDINGS: std::cell::Cell<Landings> = std::cell::Cell::new(Landings::default());
    /// Laps sown by the trial sowings of listings of moves with choices on this thread, for
    /// [`trial_laps`].
    static TRIAL_LAPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// The laps the trial sowings of listings of moves with choices have sown on this thread so far: the
/// work a fuzz input's game spends finding moves, which the harness bounds.
pub fn trial_laps() -> u64 {
    TRIAL_LAPS.get()
}

impl Game {
    /// The phase whose rules apply to the next move.
    #[inline]
    pub(crate) fn phase_for(&self, pos: &Position) -> &Phase {
        match self.phases.as_slice() {
            [only] => only,
            _ => self.phase_by_rules(pos),
        }
    }

    pub(super) fn phase_by_rules(&self, pos: &Position) -> &Phase {
        let ctx = self.ctx_at(pos, pos.to_move);
        self.phases
            .iter()
            .find(|p| !p.optional && p.when.as_ref().is_none_or(|w| ctx.bool(w)))
            .expect("the usual rules are always the last phase")
    }

    /// The rules of the move: those that apply, or an `optional` phase the mover chose with the
    /// move's first answer (the rules that apply are the first option, the phases offered follow in
    /// the file's order).
    #[inline]
    pub(super) fn chosen_rules<'a>(&'a self, pos: &Position, rules: MoveRules<'a>, choices: Option<&Choices>) -> MoveRules<'a> {
        // Asked at every trial of a listing: most games offer no phase to choose, and a call per
        // trial cost more than looking.
        match choices {
            Some(choices) if self.phases.iter().any(|p| p.optional) => self.phase_chosen(pos, rules, choices),
            _ => rules,
        }
    }

    /// [`Game::chosen_rules`] where some phase is `optional`.
    #[cold]
    #[inline(never)]
    fn phase_chosen<'a>(&'a self, pos: &Position, rules: MoveRules<'a>, choices: &Choices) -> MoveRules<'a> {
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
    pub(super) fn ctx_at<'a>(&'a self, pos: &'a Position, mover: Player) -> Ctx<'a> {
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
            let rules = self.move_rules(pos, Hints::default());
            let mut moves: Vec<usize> = self.choice_moves(pos, rules).into_iter().map(|m| m.0).collect();
            if self.may_pass && self.pass_allowed(pos, rules) {
                moves.push(self.pass_move());
            }
            return moves;
        }
        self.legal_set(pos).iter().collect()
    }

    /// The moves a random playout draws among ([`Game::random_playout`]): the legal moves, and in a
    /// game whose moves must be sown to be judged, every move that passes the tests before its sowing
    /// besides (in order, as move numbers).
    pub fn playout_candidates(&self, pos: &Position) -> Vec<usize> {
        if pos.over || self.uses_choose {
            return self.legal_moves(pos);
        }
        let rules = self.move_rules(pos, Hints::default());
        let legal = self.legal_with(pos, rules);
        if !rules.sow_always {
            return legal.iter().collect();
        }
        self.candidates(pos, rules, legal).iter().collect()
    }

    /// The `legal` moves of a position that is not over, with every other move that passes the
    /// tests before its sowing (a move whose sowing may stop at a closed pit is still sown): only
    /// the moves not legal are looked at again.
    pub(crate) fn candidates(&self, pos: &Position, rules: MoveRules, legal: Moves) -> Moves {
        let before = MoveRules {
            sow_always: false,
            must_feed: false,
            ..rules
        };
        // Where a move is a pit of the mover's and names no other, only filled pits can pass.
        let pits_only = self.choices == 1
            && self.shared == 0
            && !self.plays_across
            && rules.phase.sow.from_store.is_none()
            && !rules.phase.sows_nothing;
        let mut left = if pits_only {
            self.filled_pits(&pos.board, pos.to_move)
        } else {
            u64::MAX >> (64 - self.move_count().clamp(1, 64))
        } & !legal.bits();
        let mut moves = legal;
        while left != 0 {
            let k = left.trailing_zeros() as usize + 1;
            left &= left - 1;
            if self.probe(pos, before, k, None, None).is_ok() {
                moves.insert(k);
            }
        }
        moves
    }

    /// The number of the move `pass` (in a game with `pass when COND`): the one after every pit's
    /// moves, both ways.
    #[inline]
    pub fn pass_move(&self) -> usize {
        self.move_count() + 1
    }

    /// Is move `k` the pass of a game that has one?
    #[inline]
    pub fn is_pass(&self, k: usize) -> bool {
        self.may_pass && k == self.pass_move()
    }

    /// May the player to move pass now: does a `pass when` condition of the phase that applies hold
    /// (read with `mover` the player to move)?
    #[cold]
    #[inline(never)]
    pub(super) fn pass_allowed(&self, pos: &Position, rules: MoveRules) -> bool {
        let ctx = self.ctx_at(pos, pos.to_move);
        rules.phase.passes.iter().any(|c| ctx.bool(c))
    }

    /// The moves the player to move may make, as a set; empty once over. Allocates nothing.
    pub(crate) fn legal_set(&self, pos: &Position) -> Moves {
        if pos.over {
            return Moves::NONE;
        }
        self.legal_with(pos, self.move_rules(pos, Hints::default()))
    }

    /// The legal moves of a position that is not over, given its rules: the pits', and the pass
    /// when the rules allow it now.
    #[inline(always)]
    pub(crate) fn legal_with(&self, pos: &Position, rules: MoveRules) -> Moves {
        let moves = self.legal_pits(pos, rules);
        if self.may_pass && self.pass_allowed(pos, rules) {
            return Moves::from_bits(moves.bits() | 1 << (self.pass_move() - 1));
        }
        moves
    }

    /// The legal moves from the pits of a position that is not over, given its rules.
    #[inline(always)]
    fn legal_pits(&self, pos: &Position, rules: MoveRules) -> Moves {
        if !Self::pits_checked(rules) {
            // With every pit open, a move is legal when its pit holds seeds.
            let filled = if self.shared == 0 && !self.plays_across {
                self.filled_pits(&pos.board, pos.to_move)
            } else {
                self.filled_playable(&pos.board, pos.to_move)
            };
            if self.choices == 1 {
                return Moves::from_bits(filled);
            }
            let ways = Moves::from_bits(self.directions_of(rules.phase, filled));
            return if rules.phase.sow.either {
                self.distinct_ways(pos, rules, ways)
            } else {
                ways
            };
        }
        let moves = self.legal_checked(pos, rules);
        if self.choices > 1 && !self.uses_choose && rules.phase.sow.either {
            return self.distinct_ways(pos, rules, moves);
        }
        moves
    }

    /// Must each pit's moves be checked one by one ([`Game::legal_checked`]), rather than read from
    /// the filled pits: some pit is closed, or a move may be refused for what its sowing does.
    #[inline(always)]
    fn pits_checked(rules: MoveRules) -> bool {
        !rules.open || !rules.phase.forbids.is_empty() || rules.must_feed || rules.sow_always
    }

    /// The legal moves when some pit is closed, or a move may be refused for what its sowing does.
    /// Out of line: the usual rules never come here, and their moves are worked out after every move.
    #[inline(never)]
    pub(super) fn legal_checked(&self, pos: &Position, rules: MoveRules) -> Moves {
        if self.uses_choose {
            return self.choice_pits(pos, rules);
        }
        let mut moves = Moves::NONE;
        if self.choices == 1
            && self.shared == 0
            && !self.plays_across
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
    pub(super) fn sows_clockwise(&self, phase: &Phase, k: usize) -> bool {
        if self.choices > 1 { self.move_parts(k).1 } else { !phase.sow.ccw }
    }

    /// The moves of a game whose mover may choose the direction, from the bits of the pits that may
    /// be played: both directions where the phase lets the mover choose, else its own.
    pub(super) fn directions_of(&self, phase: &Phase, pits: u64) -> u64 {
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
            open: !self.closes_in_moves && (hints.open || !pos.board.closed.contains(&true)),
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
            open: !self.closes_in_moves && (hints.open || !pos.board.closed.contains(&true)),
        }
    }

    /// Might the sowing from `origin` never end because the pits around are closed? Only if the cell
    /// after the origin is closed: every run of skipped cells as long as the track passes it.
    pub(super) fn may_be_stuck(&self, pos: &Position, phase: &Phase, origin: Cell, cw: bool) -> bool {
        let next = phase.track(pos.to_move, cw).next[origin as usize];
        pos.board.closed.get(next as usize).copied().unwrap_or(false) || phase.sow.skip_table(pos.to_move).is_some_and(|t| t[next as usize])
    }

    /// Why pit `k` may not be played, if it may not. The move is sown on a copy of the board only
    /// when its outcome can make it illegal: a sowing that may never end (relay laps, closed pits), a
    /// forbidden grand slam, or an opponent who must be fed.
    pub(super) fn check_move(&self, pos: &Position, rules: MoveRules, k: usize) -> Result<(), Refusal> {
        let taken = self.check_move_taking(pos, rules, k)?;
        // A pass is allowed by its own rule, whatever the pits' moves could take.
        if rules.phase.captures_required && taken == 0 && !self.is_pass(k) && self.some_move_takes(pos, rules) {
            return Err(Refusal::MustCapture);
        }
        Ok(())
    }

    /// The complete moves of a game whose rules ask the mover to choose on the way, with the seeds
    /// each takes: each pit's move is tried and branches at every choice it meets, so that a move
    /// is listed once for each way of answering its choices.
    #[cold]
    #[inline(never)]
    pub(super) fn choice_moves(&self, pos: &Position, rules: MoveRules) -> Vec<(usize, u32)> {
        self.all_choice_moves(pos, rules, true)
    }

    /// The pits (with their way) that some complete move of a game with choices on the way starts
    /// from, as [`Game::choice_moves`] would list them, but each pit's choices are tried only until
    /// one complete move (with `captures required`, one that takes seeds, when some pit has one) is
    /// found: what `no_moves`, `can_move` and a pass ask need no more, and a listing of every way
    /// of answering can run to [`MAX_CHOICE_MOVES`] moves.
    #[cold]
    #[inline(never)]
    pub(super) fn choice_pits(&self, pos: &Position, rules: MoveRules) -> Moves {
        let required = rules.phase.captures_required;
        let (mut any, mut taking) = (Moves::NONE, Moves::NONE);
        self.walk_choice_moves(pos, rules, false, |k, taken, _| {
            let base = move_base(k);
            any.insert(base);
            if required && taken == 0 {
                // Another move from this pit may take seeds.
                return Walk::On;
            }
            if required {
                taking.insert(base);
            }
            Walk::NextPit
        });
        if taking.is_empty() { any } else { taking }
    }

    /// The pit of the first complete move the walk meets, or none: whether the player to move
    /// has a move, as [`Game::choice_pits`] answers it (its walk, up to that move, is this one).
    #[cold]
    #[inline(never)]
    fn choice_first(&self, pos: &Position, rules: MoveRules) -> Moves {
        let mut first = Moves::NONE;
        self.walk_choice_moves(pos, rules, false, |k, _, _| {
            first.insert(move_base(k));
            Walk::Stop
        });
        first
    }

    /// The complete moves of a game with choices on the way, with the seeds each takes; with
    /// `distinct`, each move that does what an earlier move from the same pit does (the same position
    /// after it) is left out. Two answers that come to the same thing (an entry into an empty pit,
    /// `L` or `R`) are one move, listed by the first one's name, so that a player, a search or
    /// `analyze` does not count it twice. A move left out still counts towards [`MAX_CHOICE_MOVES`]:
    /// the list is cut where it would be cut with every move in it.
    fn all_choice_moves(&self, pos: &Position, rules: MoveRules, distinct: bool) -> Vec<(usize, u32)> {
        self.all_choice_moves_cut(pos, rules, distinct).0
    }

    /// [`Game::all_choice_moves`], and whether a bound (moves, tries a pit, laps) cut the walk short.
    fn all_choice_moves_cut(&self, pos: &Position, rules: MoveRules, distinct: bool) -> (Vec<(usize, u32)>, bool) {
        let required = rules.phase.captures_required;
        // With `captures required`, the moves that take seeds apart from the others: the list is
        // cut at its most moves only after the rule has chosen which of them are offered.
        // Room for the usual number of moves at once: grown a push at a time, the lists were
        // reallocated about five times a listing.
        let room = |wanted: bool| Vec::with_capacity(if wanted { 32 } else { 0 });
        let (mut moves, mut taking) = (room(true), room(required));
        // How many moves each list has met (the ones left out too).
        let (mut met, mut taking_met) = (0, 0);
        // The table of a listing before on this thread, emptied: its boards' lists are allocated
        // once, not once a listing. Taken out while in use, so that a listing inside this one (a
        // rule asking `can_move`) makes its own.
        let mut seen = LANDINGS.take();
        seen.clear();
        // Where no move claims, closes or opens a pit, every landing keeps the position's.
        let states = self.uses_claims || self.closes_in_moves;
        let mut full = false;
        let cut = self.walk_choice_moves(pos, rules, distinct, |k, taken, landing| {
            let takes = required && taken > 0;
            if !takes && met >= MAX_CHOICE_MOVES {
                full = true;
                return if required { Walk::On } else { Walk::Stop };
            }
            // A move that was not sown (none is, where choices are found) is told by its number.
            let new = landing.is_none_or(|(board, another)| {
                seen.is_new_landing(self.move_parts(move_base(k)).0, takes, board, another, states, |board, unread| {
                    self.read_after_move(pos, rules, board, unread)
                })
            });
            let (list, count) = if takes {
                (&mut taking, &mut taking_met)
            } else {
                (&mut moves, &mut met)
            };
            *count += 1;
            if new {
                list.push((k, taken));
            }
            if takes && taking_met >= MAX_CHOICE_MOVES {
                return Walk::Stop;
            }
            Walk::On
        });
        seen.trim();
        LANDINGS.set(seen);
        (if taking_met == 0 { moves } else { taking }, cut || full)
    }

    /// [`Game::distinct_choices`] for a game whose mover chooses the way of each move (`L`, `R`) and
    /// no other answer: of the two ways from a pit that leave the same position, the first (the
    /// lower number) stays.
    #[cold]
    #[inline(never)]
    pub(super) fn distinct_ways(&self, pos: &Position, rules: MoveRules, moves: Moves) -> Moves {
        let pits = self.move_pits();
        let mut distinct = moves;
        for k in moves.iter().take_while(|&k| k <= pits) {
            if moves.contains(k + pits) && self.landing(pos, rules, k) == self.landing(pos, rules, k + pits) {
                distinct = Moves::from_bits(distinct.bits() & !(1 << (k + pits - 1)));
            }
        }
        distinct
    }

    /// What the legal move `k` of `pos` leaves: the board after its sowing and `after move` rules,
    /// and whether the mover moves again. The rest of the position after it (the turn, the end
    /// rules, the history) follows from these, so two moves that leave the same are the same move.
    fn landing(&self, pos: &Position, rules: MoveRules, k: usize) -> (Board, bool) {
        let choices = self.uses_choose.then(|| Choices::of_move(k));
        let rules = match &choices {
            Some(c) => self.chosen_rules(pos, rules, Some(c)),
            None => rules,
        };
        let phase = rules.phase;
        let mut after = pos.board.clone();
        let turn = Turn::of(self, pos, rules, k, choices.as_ref());
        let origin = self.pit(pos.to_move, self.move_parts(move_base(k)).0);
        match self.sow(&mut after, turn, origin, phase, &mut Silent) {
            Ok(sown) => {
                if !phase.after_moves.is_empty() {
                    self.after_move(&mut after, turn, origin, sown, phase, &mut Silent);
                }
                (after, sown.another)
            }
            // Not a legal move: never the same as another.
            Err(_) => (pos.board.clone(), true),
        }
    }

    /// The memory the `after move` rules of `rules` leave after a move of `pos` that left `board`,
    /// where they were not read when it was tried ([`Unread`]).
    #[cold]
    #[inline(never)]
    fn read_after_move(&self, pos: &Position, rules: MoveRules, board: &Board, unread: Unread) -> Vec<i64> {
        let mut after = board.clone();
        let turn = Turn::of_way(pos, rules, unread.cw, None);
        self.after_move(&mut after, turn, unread.origin, unread.sown, rules.phase, &mut Silent);
        after.memory
    }

    /// Whether some move of the position takes seeds (for `captures required`).
    #[cold]
    #[inline(never)]
    pub(super) fn some_move_takes(&self, pos: &Position, rules: MoveRules) -> bool {
        if self.uses_choose {
            return self.some_choice_move_takes(pos, rules);
        }
        (1..=self.move_count()).any(|j| self.check_move_taking(pos, rules, j).is_ok_and(|taken| taken > 0))
    }

    /// Whether some move that [`Game::all_choice_moves`] lists (every way of answering) takes seeds,
    /// found by the same walk, stopped at the first such move instead of listing them all: the walk
    /// up to it is the listing's, the bounds that cut it as they cut the listing.
    fn some_choice_move_takes(&self, pos: &Position, rules: MoveRules) -> bool {
        let required = rules.phase.captures_required;
        let (mut met, mut takes) = (0, false);
        self.walk_choice_moves(pos, rules, false, |_, taken, _| {
            // Without `captures required`, the listing is cut at its most moves, whatever they take.
            if !required {
                if met >= MAX_CHOICE_MOVES {
                    return Walk::Stop;
                }
                met += 1;
            }
            if taken > 0 {
                takes = true;
                return Walk::Stop;
            }
            Walk::On
        });
        takes
    }

    /// [`Game::check_move`] but for `captures required`: why the move may not be played, or the
    /// seeds it takes (0 when it was not sown to find out, which only a phase that does not require
    /// captures allows).
    pub(super) fn check_move_taking(&self, pos: &Position, rules: MoveRules, k: usize) -> Result<u32, Refusal> {
        if self.uses_choose {
            let choices = Choices::of_move(k);
            let taken = self.probe(pos, rules, k, Some(&choices), None)?;
            // Every choice named an option, none was left out, and no bit is left over (so that one
            // move has one number).
            let spare = (k >> CHOICE_SHIFT) as u64 >> choices.used().min(63);
            if choices.fault() || (choices.used() < 64 && spare != 0) {
                return Err(Refusal::BadChoice);
            }
            return Ok(taken);
        }
        self.probe(pos, rules, k, None, None)
    }

    /// [`Game::check_move_taking`] with the move's choices as given: on the way to the legal moves,
    /// only the first of them may be known.
    /// With a `trial`, the move is sown on its board (allocated once for many probes), and with its
    /// `keep`, a complete legal move that was sown leaves there what [`Game::landing`] says.
    pub(super) fn probe(
        &self,
        pos: &Position,
        rules: MoveRules,
        k: usize,
        choices: Option<&Choices>,
        mut trial: Option<&mut Trial>,
    ) -> Result<u32, Refusal> {
        if let Some(t) = trial.as_deref_mut() {
            t.forget();
        }
        if self.is_pass(k) {
            // A pass takes nothing and asks nothing: the rules of the phase that applies allow it
            // or not.
            return if self.pass_allowed(pos, rules) {
                Ok(0)
            } else {
                Err(Refusal::CannotPass)
            };
        }
        let rules = match choices {
            Some(c) => self.chosen_rules(pos, rules, Some(c)),
            None => rules,
        };
        // Only a game whose moves carry choices reads the bits above the pit: elsewhere a number
        // past them names no pit (257 is not pit 1 again).
        if choices.is_none() && k != move_base(k) {
            return Err(Refusal::NoSuchPit);
        }
        let k = move_base(k);
        if k == 0 || k > self.move_count() {
            return Err(Refusal::NoSuchPit);
        }
        // A trial that goes on from a paused sowing is of the move (pit and way) whose trial sowed
        // up to the pause: it passed every test before the sowing, which read nothing its answers
        // change.
        let resuming = trial.is_some() && choices.is_some_and(|c| c.resume.is_some());
        let Some((origin, cw)) = self.before_sowing(pos, rules, k, resuming)? else {
            return Ok(0);
        };
        let Some(t) = trial else {
            return self
                .probe_sown(pos, rules, choices, origin, cw, &mut pos.board.clone(), false)
                .map(|(taken, ..)| taken);
        };
        self.probe_trial(pos, rules, choices, (origin, cw), resuming, t)
    }

    /// The tests of pit move `k` (no choice bits) of `pos` before its sowing, for `rules` (the
    /// phase the move's answers chose): the origin and the way it is sown from, or `None` where
    /// it is legal without being sown (and takes nothing). With `resuming` (a trial going on from
    /// a pause of the same move's), only the tests of the move's number. The move's answers read
    /// none of them: a walk whose moves choose no phase asks them once a pit
    /// ([`Game::walk_choice_moves`]).
    #[inline(always)]
    pub(super) fn before_sowing(
        &self,
        pos: &Position,
        rules: MoveRules,
        k: usize,
        resuming: bool,
    ) -> Result<Option<(Cell, bool)>, Refusal> {
        self.before_sowing_parts(pos, rules, self.move_parts(k), resuming)
    }

    /// [`Game::before_sowing`] of the move whose number is taken apart into `(pit, chosen_cw)`
    /// (as `move_parts` takes it apart): a walk takes its pits' numbers apart without a division
    /// a pit.
    #[inline(always)]
    pub(super) fn before_sowing_parts(
        &self,
        pos: &Position,
        rules: MoveRules,
        (pit, chosen_cw): (usize, bool),
        resuming: bool,
    ) -> Result<Option<(Cell, bool)>, Refusal> {
        if (self.shared > 0 || self.plays_across) && !self.may_play(&pos.board, pos.to_move, pit) {
            return Err(Refusal::NotPlayable);
        }
        let phase = rules.phase;
        if self.choices > 1 && !phase.sow.either && chosen_cw == phase.sow.ccw {
            return Err(Refusal::FixedDirection);
        }
        // [`Game::sows_clockwise`] of the parts already taken apart.
        let cw = if self.choices > 1 { chosen_cw } else { !phase.sow.ccw };
        let origin = self.pit(pos.to_move, pit);
        let board = &pos.board;
        if !resuming {
            // Where no pit is closed (`rules.open`), none is read.
            if !rules.open && board.closed[origin as usize] {
                return Err(Refusal::Closed);
            }
            if self.is_store_pit(origin) {
                return Err(Refusal::StorePit);
            }
            let cells: &[u32] = &board.cells;
            match phase.sow.from_store {
                // A move that sows nothing may name an empty pit: its `after move` rules may fill it
                // (a set-up by choice, from the store), and it is refused below if they do nothing.
                None if cells[origin as usize] == 0 && !phase.sows_nothing => return Err(Refusal::Empty),
                Some(_) if cells[self.store(pos.to_move) as usize] == 0 => return Err(Refusal::NoReserve),
                _ => {}
            }
            if !phase.forbids.is_empty() {
                let forbidden = match self.forbidden_by_table(pos, phase, origin, cw) {
                    Some(found) => found,
                    None => {
                        let ctx = Ctx {
                            clockwise: cw,
                            ..self.ctx_at(pos, pos.to_move).with(Reg::Origin, origin)
                        };
                        phase.forbids.iter().position(|f| !f.after && ctx.bool(&f.when))
                    }
                };
                if let Some(i) = forbidden {
                    return Err(Refusal::Forbidden(i));
                }
            }
            if !(rules.must_feed || rules.sow_always || self.may_be_stuck(pos, phase, origin, cw)) {
                return Ok(None);
            }
        }
        Ok(Some((origin, cw)))
    }

    /// The trial of a move (its tests before the sowing passed: [`Game::before_sowing`]) from
    /// `origin` going clockwise or not on `t`'s board, or on its packed board where the walk's
    /// phase packs: the seeds it takes, with `t` left as [`Game::probe`] says.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    pub(super) fn probe_trial(
        &self,
        pos: &Position,
        rules: MoveRules,
        choices: Option<&Choices>,
        (origin, cw): (Cell, bool),
        resuming: bool,
        t: &mut Trial,
    ) -> Result<u32, Refusal> {
        let (board, phase) = (&pos.board, rules.phase);
        // A packed trial (out of line: the general trial's code is laid out as without it).
        if t.packed.is_some_and(|(_, packed_phase)| std::ptr::eq(packed_phase, phase))
            && let Some(tried) = self.probe_packed(pos, rules, choices, origin, cw, t)
        {
            return tried;
        }
        let after = match &mut t.board {
            // A trial that goes on from a paused sowing starts from the board kept with it, which
            // the sowing copies over this one (a board of this walk's position, of its size); the
            // rules `at turn start` read the position's board before that.
            Some(b) if resuming && phase.turn_starts.is_empty() => b,
            // The trial board was a copy of this position's board: where no move claims, closes
            // or opens a pit, only its seeds and memory have changed since.
            Some(b) if !self.uses_claims && !self.closes_in_moves => {
                b.copy_seeds_from(board);
                b
            }
            Some(b) => {
                b.clone_from(board);
                b
            }
            slot => slot.insert(board.clone()),
        };
        t.landed = None;
        let (taken, kept, another, unread) = self.probe_sown(pos, rules, choices, origin, cw, after, t.keep)?;
        (t.kept, t.unread) = (kept, unread);
        t.another = Some(another);
        Ok(taken)
    }

    /// The rest of [`Game::probe`] for a move that must be sown to be judged, on `after` (a copy of
    /// the position's board): the seeds it takes and, with `keep`, whether the mover moves again
    /// when `after` is left as [`Game::landing`] says; and whether the mover moves again after the
    /// move as sown.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn probe_sown(
        &self,
        pos: &Position,
        rules: MoveRules,
        choices: Option<&Choices>,
        origin: Cell,
        cw: bool,
        after: &mut Board,
        keep: bool,
    ) -> Result<(u32, Option<bool>, bool, Option<Unread>), Refusal> {
        let (board, phase) = (&pos.board, rules.phase);
        let turn = Turn::of_way(pos, rules, cw, choices);
        let sown = self.sow(after, turn, origin, phase, &mut Silent);
        if let Some(c) = choices {
            c.sowed(sown.as_ref().map_or_else(Endless::laps, |sown| sown.laps));
        }
        let sown = sown.map_err(Refusal::Endless)?;
        if phase.sows_nothing {
            // The `after move` rules are the move: tried here, their choices are found, and a move
            // that leaves every seed where it was is not one.
            self.after_move(after, turn, origin, sown, phase, &mut Silent);
            if after.cells == board.cells {
                return Err(if board.cells[origin as usize] == 0 {
                    Refusal::Empty
                } else {
                    Refusal::Unchanged
                });
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
                lap_start: sown.lap_start,
                first_lap_end: sown.first_lap_end,
                clockwise: sown.cw,
                ..self
                    .ctx_at(pos, pos.to_move)
                    .on(after)
                    .with(Reg::Origin, origin)
                    .with(Reg::Last, sown.last)
            };
            if let Some(i) = phase.forbids.iter().position(|f| f.after && ctx.bool(&f.when)) {
                return Err(Refusal::Forbidden(i));
            }
        }
        if rules.must_feed && self.row_seeds(after, pos.to_move.other()) == 0 {
            return Err(Refusal::Starves);
        }
        let after_moved = phase.after_moves_choose || phase.sows_nothing;
        if phase.after_moves_choose && !phase.sows_nothing {
            // Only memory changes here, after what the rules above read: tried for the choices.
            self.after_move(after, turn, origin, sown, phase, &mut Silent);
        }
        let kept = keep && choices.is_none_or(|c| c.open().is_none() && !c.fault());
        let mut unread = None;
        if kept && !after_moved && !phase.after_moves.is_empty() {
            if phase.after_moves_only_remember {
                // Read only where a listing must tell this landing from another with the same seeds.
                unread = Some(Unread { origin, cw, sown });
            } else {
                self.after_move(after, turn, origin, sown, phase, &mut Silent);
            }
        }
        Ok((sown.taken, kept.then_some(sown.another), sown.another, unread))
    }
}
