//! Moves and legality: the phase that applies, the legal moves of a position (with the choices a
//! move carries), how they are named and read, and why a move is refused.

use crate::board::PlayFrom;

use super::choice::{CHOICE_SHIFT, Choices, move_base, width as choice_width};
use super::eval::Ctx;
use super::trace::Silent;
use super::turn::*;
use super::{Cell, Game, Moves, Player, Position};
use crate::compile::ir::{Feeding, GrandSlam, Phase, Reg};

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
    #[cold]
    #[inline(never)]
    pub(super) fn chosen_rules<'a>(&'a self, pos: &Position, rules: MoveRules<'a>, choices: Option<&Choices>) -> MoveRules<'a> {
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
    pub(super) fn choice_labels(&self, pos: &Position, k: usize) -> Vec<String> {
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
            let filled = if self.shared == 0 && !self.plays_across {
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
    pub(super) fn legal_checked(&self, pos: &Position, rules: MoveRules) -> Moves {
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
    pub(super) fn choice_moves(&self, pos: &Position, rules: MoveRules) -> Vec<(usize, u32)> {
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
    pub(super) fn some_move_takes(&self, pos: &Position, rules: MoveRules) -> bool {
        if self.uses_choose {
            return self.choice_moves(pos, rules).iter().any(|m| m.1 > 0);
        }
        (1..=self.move_count()).any(|j| self.check_move_taking(pos, rules, j).is_ok_and(|taken| taken > 0))
    }

    /// [`Game::check_move`] but for `captures required`: why the move may not be played, or the
    /// seeds it takes (0 when it was not sown to find out, which only a phase that does not require
    /// captures allows).
    pub(super) fn check_move_taking(&self, pos: &Position, rules: MoveRules, k: usize) -> Result<u32, Refusal> {
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
    pub(super) fn probe(&self, pos: &Position, rules: MoveRules, k: usize, choices: Option<&Choices>) -> Result<u32, Refusal> {
        let rules = match choices {
            Some(c) => self.chosen_rules(pos, rules, Some(c)),
            None => rules,
        };
        let k = move_base(k);
        if k == 0 || k > self.move_count() {
            return Err(Refusal::NoSuchPit);
        }
        let (pit, chosen_cw) = self.move_parts(k);
        if (self.shared > 0 || self.plays_across) && !self.may_play(&pos.board, pos.to_move, pit) {
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
            // A move that sows nothing may name an empty pit: its `after move` rules may fill it
            // (a set-up by choice, from the store), and it is refused below if they do nothing.
            None if board.cells[origin as usize] == 0 && !phase.sows_nothing => return Err(Refusal::Empty),
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
    pub(super) fn refusal(&self, phase: &Phase, k: usize, r: Refusal) -> String {
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
                PlayFrom::Owned => "a move starts from a pit the player owns".into(),
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
}
