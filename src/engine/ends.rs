//! Ends: the `end` rules after a move (tabulated where they read only the stores), what happens to
//! the seeds left on the board, the result, and the step to the next round.

use super::eval::Ctx;
use super::trace::{Event, Narrate, Silent};
use super::turn::*;
use super::{Board, Cell, Game, Moves, Outcome, Player, Position, Slots};
use crate::compile::ir::{EndResult, EndRule, EndTest, PitsExpr, Remaining, StoreTable};

impl Game {
    /// Settles a position given from outside (a start position, `--from`, [`Game::position_from_json`]):
    /// the end rules are checked as if the other player had just moved, so a finished position reads as
    /// finished. Call it before playing moves on such a position.
    /// With `pass when unable`, a player to move who has no legal move passes first, when the other
    /// player has one (the start of a turn, as after a move).
    pub fn settle_start(&self, pos: &mut Position) {
        if !pos.over {
            self.pass_at_start(pos, Hints::default(), &mut Silent);
            self.settle(pos, pos.to_move.other(), false, true, Hints::default(), &mut Silent);
        }
    }

    /// `pass when unable` at the start of a turn that no move led to (a position given from outside,
    /// the start of a round): the player to move who cannot move passes when the other can, before
    /// the end rules are read, as after a move. The position the pass leaves replaces the one before
    /// it in the history (it is the position play goes on from).
    pub(super) fn pass_at_start(&self, pos: &mut Position, hints: Hints, log: &mut impl Narrate) {
        if self.passing && self.pass_if_unable(pos, hints, log) && self.uses_repeated && pos.history.last().is_some() {
            let h = self.hash(pos);
            pos.history.replace_last(h);
        }
    }

    /// Whether `repeated` is read only as the whole condition of end rules: a repetition then only
    /// ends the game, and a caller that keeps the line of play can tell it apart from the moves.
    pub(crate) fn repetition_only_ends(&self) -> bool {
        !self.repeated_in_moves && self.ends.iter().all(|e| !e.reads_repeated || e.test == EndTest::Repeated)
    }

    /// `pos`, reached by a move of `mover`, ended as if it were a repetition of an earlier
    /// position: what the first end rule that then holds leaves. `None` when none holds.
    pub(crate) fn ended_by_repetition(&self, pos: &Position, mover: Player) -> Option<Position> {
        let mut p = pos.clone();
        self.end_by_repetition(&mut p, mover).then_some(p)
    }

    /// [`Game::ended_by_repetition`] in place (a caller that ends many positions keeps one):
    /// whether an end rule held.
    pub(crate) fn end_by_repetition(&self, pos: &mut Position, mover: Player) -> bool {
        let hints = Hints::of(self, pos);
        self.settle(pos, mover, true, false, hints, &mut Silent);
        pos.over
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
            (Some(rule), _) => {
                if hints.hand_on {
                    // The moves listed are those of a position the game or round leaves.
                    Self::take_handed();
                }
                self.end_and_go_on(pos, mover, &self.ends[rule], hints, log)
            }
        }
    }

    /// The first end rule that holds, if any, with the legal moves when a rule asked about them.
    /// Unless `stores_changed`, the rules that read only the stores are passed over: they did not
    /// hold before the move (the position before it was settled, or the game would be over), and
    /// they read the same values now.
    #[inline(always)]
    pub(super) fn end_rule_holding(
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
                    .get_or_insert_with(|| self.legal_for_ends(pos, self.move_rules(pos, hints), hints))
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
    pub(super) fn end_rule_past_64(
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
    pub(super) fn tabulate(&self, rule: &EndRule) -> Option<StoreTable> {
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
    pub(super) fn end_rule_holds(
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
            let m = *moves.get_or_insert_with(|| self.legal_for_ends(pos, rules, hints));
            no_moves = m.is_empty();
            can_feed = rule.asks_can_feed && self.can_feed_as_read(rule, pos, mover, repeated, hints, no_moves, rules, m);
        }
        self.end_ctx(pos, mover, repeated, hints, no_moves, can_feed).bool(&rule.when)
    }

    /// The context an end rule reads after `mover`'s move.
    #[inline(always)]
    pub(super) fn end_ctx<'a>(
        &'a self,
        pos: &'a Position,
        mover: Player,
        repeated: bool,
        hints: Hints,
        no_moves: bool,
        can_feed: bool,
    ) -> Ctx<'a> {
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
    pub(super) fn can_feed_as_read(
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
        rule: &EndRule,
        hints: Hints,
        log: &mut impl Narrate,
    ) -> Option<Moves> {
        let mut ending = rule;
        let mut mover = mover;
        for _ in 0..MAX_EMPTY_ROUNDS {
            if !self.finish(
                pos,
                &ending.name,
                &ending.remaining,
                ending.remaining_from.as_ref(),
                ending.result.as_ref(),
                ending.whole_game,
                mover,
                log,
            ) {
                return None;
            }
            // The round's opener who cannot move passes, before the end rules are read.
            self.pass_at_start(pos, hints, log);
            mover = pos.to_move.other();
            match self.end_rule_holding(pos, mover, false, true, hints) {
                (None, moves) => return moves,
                (Some(next), _) => ending = &self.ends[next],
            }
        }
        pos.over = true;
        pos.winner = Some(Outcome::Draw);
        pos.ended_by = Some(format!("{MAX_EMPTY_ROUNDS} rounds ended without a move").into());
        None
    }

    /// The pits whose seeds an end rule's `remaining` deals with: every pit (`None`, the usual case,
    /// which allocates nothing), or those `from` names (`true` per pit named).
    pub(super) fn remaining_pits(&self, pos: &Position, from: Option<&PitsExpr>, mover: Player) -> Option<Vec<bool>> {
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
    pub(super) fn finish(
        &self,
        pos: &mut Position,
        rule: &std::sync::Arc<str>,
        remaining: &Remaining,
        from: Option<&PitsExpr>,
        result: Option<&EndResult>,
        whole_game: bool,
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
            pos.ended_by = Some(rule.clone());
            // No position follows a finished game, so none can repeat an earlier one.
            pos.history.clear();
            return false;
        };
        match outcome {
            Outcome::South => pos.rounds_won[0] += 1,
            Outcome::North => pos.rounds_won[1] += 1,
            Outcome::Draw => {}
        }
        if !self.round_ends.is_empty() {
            self.round_rules(pos, &self.round_ends, mover, log);
        }
        // Whatever the end rule left on the board goes back to its owner before the next round; a
        // middle row's pits nobody claimed have no owner, and keep their seeds into the next round.
        for c in 0..n2 {
            if let Some(owner) = self.owner(&pos.board, c as Cell) {
                let s = self.store(owner) as usize;
                pos.board.cells[s] += std::mem::take(&mut pos.board.cells[c]);
            }
        }
        pos.counted_in_place = false;
        let ctx = self.ctx_at(pos, mover);
        if whole_game || ctx.bool(&rounds.match_ends) {
            let measure = if rounds.by_rounds { pos.rounds_won } else { self.scores(pos) };
            let winner = match measure[0].cmp(&measure[1]) {
                // An `end game` that states its result decides the match with it.
                _ if whole_game && result.is_some() => outcome,
                std::cmp::Ordering::Greater => Outcome::South,
                std::cmp::Ordering::Less => Outcome::North,
                std::cmp::Ordering::Equal => Outcome::Draw,
            };
            pos.over = true;
            pos.winner = Some(winner);
            pos.ended_by = Some(rule.clone());
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
        if !self.round_starts.is_empty() {
            self.round_rules(pos, &self.round_starts, opener, log);
        }
        true
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
