//! Playing a move: its sowing and rules, then what follows it (the rules of the move's end, a pass,
//! the feeding rule, the repetition history) and the end of the game or round.

use super::choice::{Choices, move_base};
use super::eval::Ctx;
use super::trace::{Event, Log, Narrate, Silent};
use super::turn::*;
use super::{Board, Cell, Game, Moves, Player, Position};
use crate::compile::ir::{Code, Feeding, Phase, Remaining, Then};

impl Game {
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
            // A number with bits past the pit in a game without choices is no move: named whole.
            name: self.move_name(if self.uses_choose { move_base(k) } else { k }),
            reason: match r {
                Refusal::BadChoice => {
                    let legal = self.legal_moves(pos);
                    let pit = |j: usize| self.move_parts(move_base(j)).0;
                    // The moves of this pit and way; when the list names none (another way does the
                    // same), those of the pit.
                    let mut same: Vec<usize> = legal.iter().copied().filter(|&j| move_base(j) == move_base(k)).collect();
                    if same.is_empty() {
                        same = legal.into_iter().filter(|&j| pit(j) == pit(k)).collect();
                    }
                    let same_pit: Vec<String> = same.into_iter().map(|j| self.name_move(pos, j)).collect();
                    format!(
                        "{}; the moves from this pit are {}",
                        self.refusal(rules.phase, k, r),
                        same_pit.join(", ")
                    )
                }
                r => self.refusal(rules.phase, k, r),
            },
        })?;
        self.play(pos, k, rules, Hints::FIRST_ONLY, log);
        Ok(())
    }

    /// Plays `k`, a move [`Game::legal_moves`] listed (so without `apply`'s checks), as `apply` plays
    /// it; in a game with choices on the way, returns the legal moves of the position reached, in
    /// `legal_moves`'s order, when an end rule worked them out on the way (a search then does not
    /// list them again); `None` when the caller must list them.
    pub(crate) fn apply_listed(&self, pos: &mut Position, k: usize) -> Option<Vec<usize>> {
        self.apply_listed_logged(pos, k, Hints::default(), &mut Silent)
    }

    /// [`Game::apply_listed`], and what happened, step by step, as [`Game::apply_traced`] tells it
    /// (its checks tell nothing of a legal move): for a caller that has listed the legal moves, so
    /// that the move is neither checked nor the next position's moves listed twice.
    pub fn apply_listed_traced(&self, pos: &mut Position, k: usize) -> (Vec<Event>, Option<Vec<usize>>) {
        let mut log = Log::on();
        // A game without choices hands on nothing: its end rules stop at the first move.
        let listed = self.apply_listed_logged(pos, k, Hints::FIRST_ONLY, &mut log);
        (log.events, listed)
    }

    /// [`Game::apply_listed`] told to `log`, a game without choices played with `plain` hints.
    fn apply_listed_logged(&self, pos: &mut Position, k: usize, plain: Hints, log: &mut impl Narrate) -> Option<Vec<usize>> {
        let rules = self.move_rules(pos, Hints::default());
        if !self.uses_choose {
            self.play(pos, k, rules, plain, log);
            return None;
        }
        let hand_on = Hints {
            hand_on: true,
            ..Hints::default()
        };
        Self::take_handed();
        self.play(pos, k, rules, hand_on, log);
        let listed = Self::take_handed()?;
        let mut moves: Vec<usize> = listed.into_iter().map(|m| m.0).collect();
        if self.may_pass && self.pass_allowed(pos, self.move_rules(pos, Hints::default())) {
            moves.push(self.pass_move());
        }
        Some(moves)
    }

    /// [`Game::apply_listed`] that lists nothing on the way (an end rule asking whether the player to
    /// move has a move stops at the first).
    pub(crate) fn apply_listed_plain(&self, pos: &mut Position, k: usize) {
        let rules = self.move_rules(pos, Hints::default());
        self.play(pos, k, rules, Hints::FIRST_ONLY, &mut Silent);
    }

    /// Plays the legal move `k` (`rules` are the position's [`MoveRules`]). Returns the legal moves of
    /// the position reached when the end rules had to work them out.
    pub(crate) fn play(&self, pos: &mut Position, k: usize, rules: MoveRules, hints: Hints, log: &mut impl Narrate) -> Option<Moves> {
        if self.is_pass(k) {
            return self.play_pass(pos, hints, log);
        }
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
            Err(e) => unreachable!("a legal move's sowing ends (check_move sowed it when it might not): {e:?}"),
        };
        let mut hash_delta = sown.hash_delta;
        let mut another = sown.another;
        let mut ended = sown.ended;
        // `sown` goes by value: a reference would keep it in memory on every move, for a rule few
        // games have.
        if ended.is_none() && !phase.after_moves.is_empty() {
            let (changed, again, end) = self.after_move(&mut pos.board, turn, origin, sown, phase, log);
            if changed {
                // The memory or the seeds changed: the position's identity is worked out afresh.
                hash_delta = None;
            }
            another |= again;
            ended = end;
        }
        pos.ply += 1;
        if let Some(i) = ended {
            // A rule ended the game (or the round) where it fired: the turn passes, and no end rule
            // of the file is read before it.
            pos.to_move = mover.other();
            return self.end_and_go_on(pos, mover, &self.stated_ends[i as usize], hints, log);
        }
        if penalty_possible && self.row_seeds(&pos.board, mover.other()) == 0 {
            self.feeding_penalty(pos, mover, log);
            return None;
        }
        if another {
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

    /// The pass the rules allow (`pass when COND`): no seed moves and no rule of a move runs; the
    /// turn goes to the other player (who, with `pass when unable`, passes back when unable to
    /// move), the pass counts as a move (`ply`, the history), and the end rules are read as after
    /// any move.
    #[cold]
    #[inline(never)]
    fn play_pass(&self, pos: &mut Position, hints: Hints, log: &mut impl Narrate) -> Option<Moves> {
        let mover = pos.to_move;
        log.push(|| Event::Pass {
            player: mover,
            chosen: true,
        });
        let first_move = pos.ply == 0;
        pos.ply += 1;
        pos.to_move = mover.other();
        if self.passing {
            self.pass_if_unable(pos, hints, log);
        }
        // Only the player to move changed: the identity moves by the turn's part alone.
        let repeated = self.uses_repeated && self.remember(pos, mover, Some(0), false);
        self.settle(pos, mover, repeated, first_move, hints, log)
    }

    /// The `after move` rules of `phase`, after the sowing of `turn`'s move from `origin`: every one
    /// whose condition holds is carried out, in order, each reading what the ones before it left.
    /// Returns whether the memory, the seeds or the claims changed, whether a rule gave the mover
    /// another move, and the end rule of one that ended the game (the rules after it are not read).
    #[cold]
    #[inline(never)]
    pub(super) fn after_move(
        &self,
        board: &mut Board,
        turn: Turn,
        origin: Cell,
        sown: Sown,
        phase: &Phase,
        log: &mut impl Narrate,
    ) -> (bool, bool, Option<u16>) {
        let before = board.clone();
        let track = phase.track(turn.mover, turn.cw);
        let mut another = false;
        for rule in &phase.after_moves {
            let snapshot = board.clone();
            let ctx = Ctx {
                taken: sown.taken,
                lifted: sown.lifted,
                lap_start: sown.lap_start,
                first_lap_end: sown.first_lap_end,
                ..self.ctx_lap(turn, &snapshot, None, sown.last, origin, sown.laps, track)
            };
            if ctx.bool(&rule.when) {
                self.act(board, &snapshot, &rule.actions, &rule.name, phase, turn.cw, ctx, None, log);
                self.narrate_then(rule, log);
                if let Then::EndGame(i) = rule.then {
                    return (*board != before, another, Some(i));
                }
                another |= rule.then == Then::AnotherMove;
            }
        }
        (*board != before, another, None)
    }

    /// `pass when unable`: the player to move who has no legal move passes the turn when the other
    /// player has one. When neither has, the turn stays, for the end rules to see. Returns whether
    /// the turn passed.
    #[cold]
    #[inline(never)]
    pub(super) fn pass_if_unable(&self, pos: &mut Position, hints: Hints, log: &mut impl Narrate) -> bool {
        let unable = |pos: &Position| self.legal_with(pos, self.move_rules(pos, hints)).is_empty();
        if !unable(pos) {
            return false;
        }
        let passer = pos.to_move;
        pos.to_move = passer.other();
        if unable(pos) {
            pos.to_move = passer;
            return false;
        }
        log.push(|| Event::Pass {
            player: passer,
            chosen: false,
        });
        true
    }

    /// Could the mover, whose opponent has no seeds, give them some (for a feeding penalty)?
    #[cold]
    #[inline(never)]
    pub(super) fn some_move_feeds(&self, pos: &Position, rules: MoveRules) -> bool {
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
    pub(super) fn feeding_penalty(&self, pos: &mut Position, mover: Player, log: &mut impl Narrate) {
        let Some(Feeding::Penalty(to)) = &self.feeding else {
            unreachable!("a feeding penalty needs a penalty policy")
        };
        let receiver = self.ctx_at(pos, mover).player(to);
        log.push(|| Event::FeedingPenalty { mover, receiver });
        self.finish(
            pos,
            &"feeding penalty".into(),
            &Remaining::To(Code::constant(receiver.index() as i64)),
            None,
            None,
            false,
            mover,
            log,
        );
    }

    /// Adds the position reached by `mover`'s move to the history; was it there already? The history
    /// ends with the position before the move (when it is kept), so the new identity is that one's
    /// changed by what the sowing moved, when it only moved seeds along the track.
    #[inline]
    pub(super) fn remember(&self, pos: &mut Position, mover: Player, hash_delta: Option<u64>, stores_grew: bool) -> bool {
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
    pub(super) fn hash_apart(&self, pos: &Position) -> u64 {
        self.hash(pos)
    }

    /// Seeds in each store.
    #[inline]
    pub(super) fn stores(&self, board: &Board) -> [u32; 2] {
        let s = self.pit_count();
        [board.cells[s], board.cells[s + 1]]
    }

    /// Does the (legal) move `k` leave the other player's row with seeds?
    pub(super) fn feeds(&self, pos: &Position, rules: MoveRules, k: usize) -> bool {
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
}

#[cfg(test)]
mod tests {
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    /// A move played by `apply_listed` (and `apply_listed_plain`) reaches the position `apply` reaches,
    /// and the moves it lists on the way are the legal moves there, in order: on every shipped game,
    /// those with choices on the way listing them (many times in all), the others never.
    #[test]
    fn moves_listed_on_the_way_are_the_legal_moves_of_the_position_reached() {
        let mut listed_with_choices = 0;
        for shipped in crate::shipped::all() {
            let file = shipped.path;
            let game = shipped.game();
            let mut rng = StdRng::seed_from_u64(7);
            let mut listed_count = 0;
            for _ in 0..3 {
                let mut pos = game.initial(None);
                game.settle_start(&mut pos);
                for _ in 0..60 {
                    let moves = game.legal_moves(&pos);
                    if pos.over || moves.is_empty() {
                        break;
                    }
                    for &k in &moves {
                        let mut applied = pos.clone();
                        game.apply(&mut applied, k).expect("a listed move is legal");
                        let mut plain = pos.clone();
                        game.apply_listed_plain(&mut plain, k);
                        assert_eq!(plain, applied, "{file}: move {k}");
                        let mut played = pos.clone();
                        let listed = game.apply_listed(&mut played, k);
                        assert_eq!(played, applied, "{file}: move {k}");
                        if let Some(listed) = listed {
                            assert_eq!(listed, game.legal_moves(&applied), "{file}: move {k}");
                            listed_count += 1;
                        }
                    }
                    let k = moves[rng.gen_range(0..moves.len())];
                    game.apply(&mut pos, k).expect("a listed move is legal");
                }
            }
            if game.uses_choose {
                listed_with_choices += listed_count;
            } else {
                assert_eq!(listed_count, 0, "{file}: listings on the way without choices");
            }
        }
        assert!(listed_with_choices > 300, "{listed_with_choices} listings on the way");
    }

    /// Issue 25: capture rules whose conditions open alike ask the opening once a run
    /// (`Rule::guard`), and the game plays as with every rule's condition asked whole: the same
    /// legal moves and the same position after each, in random games of an invented game with two
    /// runs and of every shipped game that has one.
    #[test]
    fn capture_rules_that_open_alike_play_as_each_condition_asked_whole() {
        let invented = crate::shipped::invented(
            r#"game "Two openings"
               let facing = last.side == mover and (lap == 1 or taken > 0) and opposite(last).count > 0
               board { pits 6  seeds 4  stores captures }
               sow { direction either  relay when last.before > 0 and last.count < 4 }
               capture "facing two" { when facing and last.count == 2  take opposite(last) }
               capture "facing three" { when facing and last.count == 3  take opposite(last), last }
               capture "far two" { when last.side != mover and (lap == 1 or taken == 0) and last.count == 2  take last }
               capture "far three" { when last.side != mover and (lap == 1 or taken == 0) and last.count == 3  take last }
               end "cannot move" when no_moves remaining owner"#,
        );
        let runs = |g: &crate::Game| -> Vec<Option<usize>> {
            let captures = &g.phases.last().expect("the usual rules").captures;
            captures.iter().map(|r| r.guard.as_ref().map(|g| g.run)).collect()
        };
        assert_eq!(runs(&invented), [Some(0), Some(0), Some(2), Some(2)]);
        let shipped = crate::shipped::all().map(|s| (s.path, s.game()));
        let mut guarded = 0;
        for (file, game) in std::iter::once(("invented", invented)).chain(shipped) {
            let mut whole = game.clone();
            for phase in &mut whole.phases {
                for rule in &mut phase.captures {
                    guarded += usize::from(rule.guard.take().is_some());
                }
            }
            if guarded == 0 {
                continue;
            }
            let mut rng = StdRng::seed_from_u64(9);
            for _ in 0..4 {
                let mut pos = game.initial(None);
                game.settle_start(&mut pos);
                for _ in 0..150 {
                    let moves = game.legal_moves(&pos);
                    assert_eq!(moves, whole.legal_moves(&pos), "{file}");
                    if pos.over || moves.is_empty() {
                        break;
                    }
                    for &k in &moves {
                        let (mut by_runs, mut asked_whole) = (pos.clone(), pos.clone());
                        game.apply(&mut by_runs, k).expect("a listed move is legal");
                        whole.apply(&mut asked_whole, k).expect("a listed move is legal");
                        assert_eq!(by_runs, asked_whole, "{file}: move {k}");
                    }
                    let k = moves[rng.gen_range(0..moves.len())];
                    game.apply(&mut pos, k).expect("a listed move is legal");
                }
            }
        }
        assert!(guarded >= 9, "{guarded} rules in runs");
    }
}
