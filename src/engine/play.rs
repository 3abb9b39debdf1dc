//! Moves: which are legal, how one is sown, captured and ended, and what happens after it (the turn,
//! the end of the game or round, the next round's setup).

use std::fmt;

use super::eval::Ctx;
use super::trace::{Event, Log};
use super::{Board, Cell, Game, Outcome, Player, Position};
use crate::compile::ir::{Action, Feeding, GrandSlam, NO_PIT, Phase, PitsExpr, Receiver, Remaining, Then};

/// Why a move cannot be played.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// The game is already over.
    GameOver,
    /// The move is against the rules.
    Illegal {
        /// The pit named.
        pit: usize,
        /// Why, in words.
        reason: String,
    },
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::GameOver => write!(f, "the game is over: no more moves can be played"),
            MoveError::Illegal { pit, reason } => write!(f, "pit {pit} cannot be played: {reason}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The sowing of one move failed to finish.
struct Endless {
    laps: u32,
}

/// Seeds taken by capture rules during a move: from which pit, how many, to whom (to undo a grand slam).
type CaptureLog = Vec<(Cell, u32, Player)>;

/// What one move's sowing did.
struct Sown {
    another: bool,
    grand_slam: bool,
}

/// Most rounds that may end without a single move before the engine gives up: a file whose rounds
/// are set up so that none can be played would otherwise loop forever.
const MAX_EMPTY_ROUNDS: u32 = 1000;

impl Game {
    /// The phase whose rules apply to the next move.
    pub(crate) fn phase_for(&self, pos: &Position) -> &Phase {
        let ctx = self.ctx_at(pos, pos.to_move);
        self.phases
            .iter()
            .find(|p| p.when.as_ref().is_none_or(|w| ctx.bool(w)))
            .expect("the usual rules are always the last phase")
    }

    fn ctx_at<'a>(&'a self, pos: &'a Position, mover: Player) -> Ctx<'a> {
        Ctx {
            to_move: pos.to_move,
            ply: pos.ply,
            round: pos.round,
            rounds_won: pos.rounds_won,
            ..Ctx::new(self, &pos.board, mover)
        }
    }

    /// The moves the player to move may make (pit numbers, 1-based), in order; empty once over.
    pub fn legal_moves(&self, pos: &Position) -> Vec<usize> {
        if pos.over {
            return Vec::new();
        }
        let phase = self.phase_for(pos);
        let starving = self.starving(pos);
        (1..=self.pits)
            .filter(|&k| self.check_move(pos, phase, k, starving).is_ok())
            .collect()
    }

    /// The feeding rule applies: the mover's opponent has no seeds.
    fn starving(&self, pos: &Position) -> bool {
        self.feeding.is_some() && self.row_seeds(&pos.board, pos.to_move.other()) == 0
    }

    /// Why pit `k` may not be played, if it may not.
    fn check_move(&self, pos: &Position, phase: &Phase, k: usize, starving: bool) -> Result<(), String> {
        if k == 0 || k > self.pits {
            return Err(format!("there is no pit {k}; pits are numbered 1 to {}", self.pits));
        }
        let origin = self.pit(pos.to_move, k);
        let board = &pos.board;
        if board.closed[origin as usize] {
            return Err("it is closed for this round".into());
        }
        if board.cells[origin as usize] == 0 {
            return Err("it is empty".into());
        }
        let ctx = Ctx {
            origin,
            ..self.ctx_at(pos, pos.to_move)
        };
        if let Some(f) = phase.forbids.iter().find(|f| ctx.bool(&f.when)) {
            return Err(f.reason.clone());
        }
        let mut after = board.clone();
        let sown = self
            .sow(&mut after, pos, origin, phase, &mut Log::off())
            .map_err(|e| format!("its sowing never ends (more than {} laps)", e.laps))?;
        if sown.grand_slam && self.grand_slam == Some(GrandSlam::Forbidden) {
            return Err("it would capture every seed of the opponent (a grand slam), which this game forbids".into());
        }
        if starving && matches!(self.feeding, Some(Feeding::Required)) && self.row_seeds(&after, pos.to_move.other()) == 0 {
            return Err("the opponent has no seeds and this move gives them none; a move that feeds them must be played".into());
        }
        Ok(())
    }

    /// Plays a move (a pit number of the player to move). `log` collects a narration when wanted.
    pub fn apply(&self, pos: &mut Position, k: usize) -> Result<(), MoveError> {
        self.apply_logged(pos, k, &mut Log::off())
    }

    /// Plays a move and returns what happened, step by step.
    pub fn apply_traced(&self, pos: &mut Position, k: usize) -> Result<Vec<Event>, MoveError> {
        let mut log = Log::on();
        self.apply_logged(pos, k, &mut log)?;
        Ok(log.events)
    }

    pub(crate) fn apply_logged(&self, pos: &mut Position, k: usize, log: &mut Log) -> Result<(), MoveError> {
        if pos.over {
            return Err(MoveError::GameOver);
        }
        let phase = self.phase_for(pos);
        let starving = self.starving(pos);
        self.check_move(pos, phase, k, starving)
            .map_err(|reason| MoveError::Illegal { pit: k, reason })?;
        let mover = pos.to_move;
        let penalty_possible = starving
            && matches!(self.feeding, Some(Feeding::Penalty(_)))
            && (1..=self.pits).any(|j| {
                let mut after = pos.board.clone();
                self.check_move(pos, phase, j, false).is_ok()
                    && self.sow(&mut after, pos, self.pit(mover, j), phase, &mut Log::off()).is_ok()
                    && self.row_seeds(&after, mover.other()) > 0
            });
        log.push(Event::Move {
            player: mover,
            pit: k,
            phase: phase.name.clone(),
        });
        let origin = self.pit(mover, k);
        let mut board = pos.board.clone();
        let sown = match self.sow(&mut board, pos, origin, phase, log) {
            Ok(s) => s,
            Err(e) => unreachable!("check_move simulated this sowing, which ended within {} laps", e.laps),
        };
        pos.board = board;
        pos.ply += 1;
        if penalty_possible && self.row_seeds(&pos.board, mover.other()) == 0 {
            let Some(Feeding::Penalty(to)) = &self.feeding else {
                unreachable!("penalty_possible implies a penalty policy")
            };
            let receiver = self.ctx_at(pos, mover).player(to);
            log.push(Event::FeedingPenalty { mover, receiver });
            self.finish(
                pos,
                "feeding penalty",
                &Remaining::To(crate::compile::ir::Expr::Player(receiver)),
                mover,
                log,
            );
            return Ok(());
        }
        let another = sown.another;
        if another {
            log.push(Event::AnotherMove { player: mover });
        } else {
            pos.to_move = mover.other();
        }
        let h = self.hash(pos);
        let repeated = pos.history.contains(&h);
        pos.history.push(h);
        self.settle(pos, mover, repeated, log);
        Ok(())
    }

    /// Does the (legal) move `k` leave the other player's row with seeds?
    fn feeds(&self, pos: &Position, k: usize) -> bool {
        let mut after = pos.board.clone();
        let phase = self.phase_for(pos);
        self.sow(&mut after, pos, self.pit(pos.to_move, k), phase, &mut Log::off()).is_ok() && self.row_seeds(&after, pos.to_move.other()) > 0
    }

    /// Settles a position given from outside (a start position, `--from`): the end rules are checked
    /// as if the other player had just moved, so a finished position reads as finished.
    pub fn settle_start(&self, pos: &mut Position) {
        if !pos.over {
            self.settle(pos, pos.to_move.other(), false, &mut Log::off());
        }
    }

    /// Checks the end rules (after a move by `mover`, or at the start of a round) and carries out the
    /// first that holds, then the rounds.
    pub(crate) fn settle(&self, pos: &mut Position, mover: Player, repeated: bool, log: &mut Log) {
        let mut repeated = repeated;
        let mut mover = mover;
        for _ in 0..MAX_EMPTY_ROUNDS {
            let moves = self.legal_moves(pos);
            let can_feed = self.uses_can_feed && moves.iter().any(|&k| self.feeds(pos, k));
            let ctx = Ctx {
                no_moves: moves.is_empty(),
                can_feed,
                repeated,
                ..self.ctx_at(pos, mover)
            };
            let Some(rule) = self.ends.iter().find(|r| ctx.bool(&r.when)) else {
                return;
            };
            let (name, remaining) = (rule.name.clone(), rule.remaining.clone());
            if !self.finish(pos, &name, &remaining, mover, log) {
                return;
            }
            // A new round began: it may already be over (a player with no pit to play).
            repeated = false;
            mover = pos.to_move.other();
        }
        pos.over = true;
        pos.winner = Some(Outcome::Draw);
        pos.ended_by = Some(format!("{MAX_EMPTY_ROUNDS} rounds ended without a move"));
    }

    /// Ends the game (or round) by the named rule. Returns true when a new round was set up.
    fn finish(&self, pos: &mut Position, rule: &str, remaining: &Remaining, mover: Player, log: &mut Log) -> bool {
        let n2 = self.pit_count();
        let left: u32 = pos.board.cells[..n2].iter().sum();
        match remaining {
            Remaining::Owner => {
                for c in 0..n2 {
                    let owner = self.owner(&pos.board, c as Cell);
                    let s = self.store(owner) as usize;
                    pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
                }
            }
            Remaining::To(p) => {
                let p = self.ctx_at(pos, mover).player(p);
                let s = self.store(p) as usize;
                for c in 0..n2 {
                    pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
                }
            }
            Remaining::Split => {
                let [south, north] = [self.row_seeds(&pos.board, Player::South), self.row_seeds(&pos.board, Player::North)];
                let half = left / 2;
                let odd = left % 2;
                let larger = if south >= north { Player::South } else { Player::North };
                for c in 0..n2 {
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
        let outcome = match scores[0].cmp(&scores[1]) {
            std::cmp::Ordering::Greater => Outcome::South,
            std::cmp::Ordering::Less => Outcome::North,
            std::cmp::Ordering::Equal => Outcome::Draw,
        };
        log.push(Event::GameEnds {
            rule: rule.to_string(),
            remaining: remaining_word(remaining),
            left,
            scores,
            outcome,
            round: self.rounds.is_some().then_some(pos.round),
        });
        let Some(rounds) = &self.rounds else {
            pos.over = true;
            pos.winner = Some(outcome);
            pos.ended_by = Some(rule.to_string());
            return false;
        };
        match outcome {
            Outcome::South => pos.rounds_won[0] += 1,
            Outcome::North => pos.rounds_won[1] += 1,
            Outcome::Draw => {}
        }
        // Whatever the end rule left on the board goes back to its owner before the next round.
        for c in 0..n2 {
            let owner = self.owner(&pos.board, c as Cell);
            let s = self.store(owner) as usize;
            pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
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
            log.push(Event::MatchEnds {
                winner,
                rounds_won: pos.rounds_won,
                scores: self.scores(pos),
            });
            return false;
        }
        self.setup_round(pos, rounds);
        log.push(Event::RoundSetup {
            round: pos.round,
            cells: pos.board.cells.clone(),
            closed: pos.board.closed.clone(),
        });
        true
    }

    fn setup_round(&self, pos: &mut Position, rounds: &crate::compile::ir::Rounds) {
        let n = self.pits;
        pos.round += 1;
        if !rounds.keep_claims {
            pos.board.claimed.iter_mut().for_each(|c| *c = None);
        }
        if let Some(per_pit) = rounds.fill {
            for p in Player::BOTH {
                let store = self.store(p) as usize;
                for c in self.row(p) {
                    if pos.board.cells[store] >= per_pit {
                        pos.board.cells[store] -= per_pit;
                        pos.board.cells[c] = per_pit;
                        pos.board.closed[c] = false;
                    } else {
                        pos.board.closed[c] = true;
                    }
                }
            }
        }
        if rounds.deal {
            let fewest = Player::BOTH
                .iter()
                .map(|&p| pos.board.cells[self.store(p) as usize])
                .min()
                .unwrap_or(0);
            for p in Player::BOTH {
                let store = self.store(p) as usize;
                let open: Vec<usize> = self.row(p).filter(|&c| !pos.board.closed[c]).collect();
                if open.is_empty() {
                    continue;
                }
                pos.board.cells[store] -= fewest;
                for i in 0..fewest as usize {
                    pos.board.cells[open[i % open.len()]] += 1;
                }
            }
        }
        debug_assert!(pos.board.cells.len() == 2 * n + 2);
        pos.to_move = self.first;
        pos.history.clear();
        let h = self.hash(pos);
        pos.history.push(h);
    }

    /// Sows from `origin` on `board` (a copy of `pos.board`), with triggers, captures, relays and the
    /// grand slam policy. `pos` gives the rest of the context (the mover, ply, round).
    fn sow(&self, board: &mut Board, pos: &Position, origin: Cell, phase: &Phase, log: &mut Log) -> Result<Sown, Endless> {
        let mover = pos.to_move;
        let sow = &phase.sow;
        let track = self.track(mover, sow.ccw, sow.into_own_store);
        let mut before = board.cells.clone();
        // Seeds taken by capture rules from the opponent's row, to put back for a grand slam.
        let mut captured: CaptureLog = Vec::new();
        let opponent = mover.other();
        let mut start = origin;
        let mut lap = 1u32;
        let mut another = false;
        loop {
            let mut hand = std::mem::take(&mut board.cells[start as usize]);
            log.push(Event::PickUp {
                cell: start,
                seeds: hand,
                lap,
            });
            let mut at = track.iter().position(|&c| c == start).unwrap_or(0);
            let mut last = start;
            let mut sown_into = Vec::new();
            let mut passed = 0usize;
            while hand > 0 {
                at = (at + 1) % track.len();
                let c = track[at];
                if (sow.skip_origin && c == origin) || board.closed.get(c as usize).copied().unwrap_or(false) {
                    passed += 1;
                    if passed > track.len() {
                        // Every cell of the track is skipped: the seeds cannot be sown.
                        return Err(Endless { laps: lap });
                    }
                    log.skip(c, c == origin);
                    continue;
                }
                passed = 0;
                before[c as usize] = board.cells[c as usize];
                board.cells[c as usize] += 1;
                hand -= 1;
                last = c;
                if log.enabled() {
                    sown_into.push(c);
                }
                for trigger in &self.triggers {
                    let fires = Ctx {
                        pit: c,
                        final_seed: hand == 0,
                        lap,
                        origin,
                        before: Some(&before),
                        ..self.ctx_board(pos, board, mover)
                    }
                    .bool(&trigger.when);
                    if fires {
                        if log.enabled() {
                            log.push(Event::Sown {
                                lap,
                                cells: std::mem::take(&mut sown_into),
                            });
                        }
                        let snapshot = board.clone();
                        let ctx = Ctx {
                            pit: c,
                            final_seed: hand == 0,
                            lap,
                            origin,
                            before: Some(&before),
                            ..self.ctx_board(pos, &snapshot, mover)
                        };
                        self.act(board, &snapshot, &trigger.actions, &trigger.name, sow.ccw, ctx, None, log);
                    }
                }
            }
            if log.enabled() && !sown_into.is_empty() {
                log.push(Event::Sown { lap, cells: sown_into });
            }
            let snapshot = board.clone();
            let ctx = Ctx {
                last,
                origin,
                lap,
                before: Some(&before),
                ..self.ctx_board(pos, &snapshot, mover)
            };
            log.push(Event::LapEnds {
                last,
                count: board.cells[last as usize],
            });
            let mut then = Then::Continue;
            if let Some(rule) = phase.captures.iter().find(|r| ctx.bool(&r.when)) {
                self.act(
                    board,
                    &snapshot,
                    &rule.actions,
                    &rule.name,
                    sow.ccw,
                    ctx,
                    Some((&mut captured, opponent)),
                    log,
                );
                then = rule.then;
            }
            match then {
                Then::End => {
                    log.push(Event::TurnEnds {
                        why: "the capture rule ends the move".into(),
                    });
                    break;
                }
                Then::AnotherMove => {
                    another = true;
                    break;
                }
                Then::Continue => {}
            }
            let relay = sow.relay.as_ref().is_some_and(|r| {
                let ctx = Ctx {
                    last,
                    origin,
                    lap,
                    before: Some(&before),
                    ..self.ctx_board(pos, board, mover)
                };
                !self.is_store(last) && board.cells[last as usize] > 0 && ctx.bool(r)
            });
            if !relay {
                log.push(Event::TurnEnds {
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
                return Err(Endless { laps: sow.relay_limit });
            }
            start = last;
        }
        let taken_from_opponent: u32 = captured
            .iter()
            .filter(|(c, _, _)| self.side(*c) == opponent && !self.is_store(*c))
            .map(|(_, n, _)| n)
            .sum();
        let grand_slam = taken_from_opponent > 0 && self.row_seeds(board, opponent) == 0;
        if grand_slam {
            match self.grand_slam {
                Some(GrandSlam::CaptureNothing) => {
                    for (c, n, to) in captured {
                        board.cells[self.store(to) as usize] -= n;
                        board.cells[c as usize] += n;
                    }
                    log.push(Event::GrandSlam { undone: true });
                }
                Some(GrandSlam::Allowed(again)) => {
                    log.push(Event::GrandSlam { undone: false });
                    another |= again;
                }
                _ => {}
            }
        }
        Ok(Sown { another, grand_slam })
    }

    fn ctx_board<'a>(&'a self, pos: &'a Position, board: &'a Board, mover: Player) -> Ctx<'a> {
        Ctx {
            to_move: pos.to_move,
            ply: pos.ply,
            round: pos.round,
            rounds_won: pos.rounds_won,
            ..Ctx::new(self, board, mover)
        }
    }

    /// Carries out a rule's actions. Conditions are read on `snapshot` (the board as the rule
    /// fired), so that taking one pit does not change what the next pit of a list means.
    #[allow(clippy::too_many_arguments)]
    fn act(
        &self,
        board: &mut Board,
        snapshot: &Board,
        actions: &[Action],
        rule: &str,
        ccw: bool,
        ctx: Ctx,
        mut capture_log: Option<(&mut CaptureLog, Player)>,
        log: &mut Log,
    ) {
        let ctx = Ctx { board: snapshot, ..ctx };
        for action in actions {
            match action {
                Action::Take { pits, to, series } => {
                    let mut cells: Vec<Cell> = Vec::new();
                    for p in pits {
                        match p {
                            PitsExpr::Pit(e) => cells.push(ctx.pit(e)),
                            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                                cells.push(c);
                                true
                            }),
                        }
                    }
                    if let Some((forward, cond)) = series
                        && let Some(&anchor) = cells.first()
                        && anchor != NO_PIT
                        && !self.is_store(anchor)
                    {
                        let n2 = self.pit_count() as i64;
                        let step: i64 = if *forward == ccw { 1 } else { -1 };
                        let mut c = anchor as i64;
                        for _ in 1..n2 {
                            c = (c + step).rem_euclid(n2);
                            let inner = Ctx { pit: c as Cell, ..ctx };
                            if !inner.bool(cond) {
                                break;
                            }
                            cells.push(c as Cell);
                        }
                    }
                    let mut seen = Vec::new();
                    for c in cells {
                        if c == NO_PIT || self.is_store(c) || seen.contains(&c) {
                            continue;
                        }
                        seen.push(c);
                        let receiver = match to {
                            Receiver::Owner => self.owner(board, c),
                            Receiver::Player(p) => ctx.player(p),
                        };
                        let n = std::mem::take(&mut board.cells[c as usize]);
                        if n == 0 {
                            continue;
                        }
                        board.cells[self.store(receiver) as usize] += n;
                        if let Some((captured, _)) = capture_log.as_mut() {
                            captured.push((c, n, receiver));
                        }
                        log.push(Event::Take {
                            rule: rule.to_string(),
                            cell: c,
                            seeds: n,
                            to: receiver,
                        });
                    }
                }
                Action::Move { count, from, to } => {
                    let (from, to) = (ctx.pit(from), ctx.pit(to));
                    if from == NO_PIT || to == NO_PIT {
                        continue;
                    }
                    let n = (ctx.int(count).max(0) as u32).min(board.cells[from as usize]);
                    board.cells[from as usize] -= n;
                    board.cells[to as usize] += n;
                    log.push(Event::MoveSeeds {
                        rule: rule.to_string(),
                        seeds: n,
                        from,
                        to,
                    });
                }
                Action::Claim { pits, player } => {
                    let p = ctx.player(player);
                    let mut cells = Vec::new();
                    for x in pits {
                        match x {
                            PitsExpr::Pit(e) => cells.push(ctx.pit(e)),
                            PitsExpr::Set(s) => ctx.each_in_set(s, |c| {
                                cells.push(c);
                                true
                            }),
                        }
                    }
                    for c in cells.into_iter().filter(|&c| c != NO_PIT && !self.is_store(c)) {
                        board.claimed[c as usize] = Some(p);
                        log.push(Event::Claim {
                            rule: rule.to_string(),
                            cell: c,
                            player: p,
                        });
                    }
                }
            }
        }
    }

    /// The cells seeds are sown into, in sowing order, for a mover.
    pub(crate) fn track(&self, mover: Player, ccw: bool, into_own_store: bool) -> Vec<Cell> {
        let n = self.pits;
        let mut t: Vec<Cell> = (0..n as Cell).collect();
        if into_own_store && mover == Player::South {
            t.push(self.store(Player::South));
        }
        t.extend(n as Cell..(2 * n) as Cell);
        if into_own_store && mover == Player::North {
            t.push(self.store(Player::North));
        }
        if !ccw {
            t.reverse();
        }
        t
    }
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
