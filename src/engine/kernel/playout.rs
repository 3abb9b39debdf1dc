//! The random playout loop of the fast form: a packed board played move by move, the end rules
//! answered on it, the repetition list kept in [`Seen`], and the position handed back to the general
//! engine where a rule is carried out there (an end, a rule the fast form reads only in part).

use rand::Rng;

use super::seen::{Board, Seen};
use super::{Handed, Packed, Until};
use crate::compile::shape::{FastEnd, FastForm, LANES};
use crate::engine::trace::Silent;
use crate::engine::turn::Hints;
use crate::engine::{Game, Player, Position};

impl Game {
    /// Plays random moves from `pos` in fast form, as [`Game::random_playout`] does, until the game
    /// ends (carried out by the general engine), no move can be drawn, or `until` stops it.
    pub(super) fn fast_playout<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        until: Until,
        hints: Hints,
    ) -> Handed {
        // A loop for each combination of the kinds of work a game may need after a move, so that
        // each game's loop carries only its own (and holds its values in registers).
        if ff.passes {
            return self.fast_pass_playout(ff, pos, rng, plies, until, hints);
        }
        if until.floor != 0 {
            return self.fast_floor_playout(ff, pos, rng, plies, until, hints);
        }
        if ff.relay.is_some() {
            return self.fast_relay_playout(ff, pos, rng, plies, until, hints);
        }
        let work = usize::from(self.uses_repeated) | usize::from(ff.row_rules != 0) << 1 | usize::from(!ff.store_hits.is_empty()) << 2;
        match work {
            0 => self.fast_loop::<B, L, false, false, false, false, false, false>(ff, pos, rng, plies, until, hints),
            1 => self.fast_loop::<B, L, true, false, false, false, false, false>(ff, pos, rng, plies, until, hints),
            2 => self.fast_loop::<B, L, false, true, false, false, false, false>(ff, pos, rng, plies, until, hints),
            3 => self.fast_loop::<B, L, true, true, false, false, false, false>(ff, pos, rng, plies, until, hints),
            4 => self.fast_loop::<B, L, false, false, true, false, false, false>(ff, pos, rng, plies, until, hints),
            5 => self.fast_loop::<B, L, true, false, true, false, false, false>(ff, pos, rng, plies, until, hints),
            6 => self.fast_loop::<B, L, false, true, true, false, false, false>(ff, pos, rng, plies, until, hints),
            _ => self.fast_loop::<B, L, true, true, true, false, false, false>(ff, pos, rng, plies, until, hints),
        }
    }

    /// [`Game::fast_playout`] for a game whose moves relay, in a function of its own: in line, its
    /// loops cost the other games' loops a few instructions a move (the compiler's registers moved
    /// about; callgrind, Oware). A loop with a history or without, with row rules or without (a row
    /// rule's table look-up was 1% of a Hus move), and with the stores compared after each move or
    /// not: not where no seed reaches a store in a move and no end rule reads the stores
    /// (`FastRelay::stores_fixed`; about 10 instructions a Hus move). The rest of the end rules'
    /// work stays in every loop: a relay game's moves cost more than it.
    #[inline(never)]
    fn fast_relay_playout<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        until: Until,
        hints: Hints,
    ) -> Handed {
        let stores = !(ff.relay_tables().stores_fixed && ff.store_hits.is_empty());
        match (self.uses_repeated, ff.row_rules != 0, stores) {
            (true, true, true) => self.fast_loop::<B, L, true, true, true, true, false, false>(ff, pos, rng, plies, until, hints),
            (true, false, true) => self.fast_loop::<B, L, true, false, true, true, false, false>(ff, pos, rng, plies, until, hints),
            (false, true, true) => self.fast_loop::<B, L, false, true, true, true, false, false>(ff, pos, rng, plies, until, hints),
            (false, false, true) => self.fast_loop::<B, L, false, false, true, true, false, false>(ff, pos, rng, plies, until, hints),
            (true, true, false) => self.fast_loop::<B, L, true, true, false, true, false, false>(ff, pos, rng, plies, until, hints),
            (true, false, false) => self.fast_loop::<B, L, true, false, false, true, false, false>(ff, pos, rng, plies, until, hints),
            (false, true, false) => self.fast_loop::<B, L, false, true, false, true, false, false>(ff, pos, rng, plies, until, hints),
            (false, false, false) => self.fast_loop::<B, L, false, false, false, true, false, false>(ff, pos, rng, plies, until, hints),
        }
    }

    /// [`Game::fast_playout`] for a game with `pass when unable`, in loops of its own (the others
    /// carry no test of it): the row and store rules read whether the game has some or not.
    #[inline(never)]
    fn fast_pass_playout<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        until: Until,
        hints: Hints,
    ) -> Handed {
        match (self.uses_repeated, ff.relay.is_some(), until.floor != 0) {
            (true, true, true) => self.fast_loop::<B, L, true, true, true, true, true, true>(ff, pos, rng, plies, until, hints),
            (true, true, false) => self.fast_loop::<B, L, true, true, true, true, false, true>(ff, pos, rng, plies, until, hints),
            (true, false, true) => self.fast_loop::<B, L, true, true, true, false, true, true>(ff, pos, rng, plies, until, hints),
            (true, false, false) => self.fast_loop::<B, L, true, true, true, false, false, true>(ff, pos, rng, plies, until, hints),
            (false, true, true) => self.fast_loop::<B, L, false, true, true, true, true, true>(ff, pos, rng, plies, until, hints),
            (false, true, false) => self.fast_loop::<B, L, false, true, true, true, false, true>(ff, pos, rng, plies, until, hints),
            (false, false, true) => self.fast_loop::<B, L, false, true, true, false, true, true>(ff, pos, rng, plies, until, hints),
            (false, false, false) => self.fast_loop::<B, L, false, true, true, false, false, true>(ff, pos, rng, plies, until, hints),
        }
    }

    /// [`Game::fast_playout`] with a floor of seeds in the pits ([`Until`]), in loops of its own: a
    /// test in the loops of `bench` (even out of line, where only the stores changed) was 4% of a
    /// Kalah playout. The loops read the store rules whether the game has some or not.
    #[inline(never)]
    fn fast_floor_playout<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        until: Until,
        hints: Hints,
    ) -> Handed {
        match (self.uses_repeated, ff.row_rules != 0, ff.relay.is_some()) {
            (true, true, true) => self.fast_loop::<B, L, true, true, true, true, true, false>(ff, pos, rng, plies, until, hints),
            (true, false, true) => self.fast_loop::<B, L, true, false, true, true, true, false>(ff, pos, rng, plies, until, hints),
            (false, true, true) => self.fast_loop::<B, L, false, true, true, true, true, false>(ff, pos, rng, plies, until, hints),
            (false, false, true) => self.fast_loop::<B, L, false, false, true, true, true, false>(ff, pos, rng, plies, until, hints),
            (true, true, false) => self.fast_loop::<B, L, true, true, true, false, true, false>(ff, pos, rng, plies, until, hints),
            (true, false, false) => self.fast_loop::<B, L, true, false, true, false, true, false>(ff, pos, rng, plies, until, hints),
            (false, true, false) => self.fast_loop::<B, L, false, true, true, false, true, false>(ff, pos, rng, plies, until, hints),
            (false, false, false) => self.fast_loop::<B, L, false, false, true, false, true, false>(ff, pos, rng, plies, until, hints),
        }
    }

    /// The playout loop of a game that keeps a history of positions (`REPEATS`), has end rules
    /// testing whether rows are empty (`ROWS`), end rules reading only the stores (`STORES`), and
    /// moves that relay (`RELAY`: a move is drawn among the candidates and only the moves drawn are
    /// sown, [`FastForm::draw_move`]), and that stops below a floor of seeds in the pits (`FLOOR`,
    /// [`Until`]). `ROWS` and `STORES` may be set for a relay game without such rules, and `STORES`
    /// with `FLOOR`: the row table then answers that no rule holds, and the store table, being empty,
    /// is not read. A relay loop without `STORES` never compares the stores: no seed reaches them in
    /// a move (`FastRelay::stores_fixed`). With `PASS` (`pass when unable`), a player to move left without a legal move
    /// passes when the other player has one, before the repetition check.
    #[inline(always)]
    fn fast_loop<
        B: Board,
        const L: usize,
        const REPEATS: bool,
        const ROWS: bool,
        const STORES: bool,
        const RELAY: bool,
        const FLOOR: bool,
        const PASS: bool,
    >(
        &self,
        ff: &FastForm<B, L>,
        pos: &mut Position,
        rng: &mut (impl Rng + Clone),
        plies: &mut u32,
        Until {
            plies: mut max_plies,
            floor,
        }: Until,
        hints: Hints,
    ) -> Handed {
        let cells: &[u32] = &pos.board.cells;
        let mut at = Packed {
            board: B::of_cells(cells),
            to_move: pos.to_move,
            ply: pos.ply,
        };
        let kinds = self.end_kinds;
        let mut seen = Seen::new();
        if REPEATS {
            // The room of the thread's last playout (given back when `seen` is dropped), so that a
            // playout allocates nothing.
            seen.keys = B::room().take();
            seen.keys.clear();
            seen.keys.reserve(256);
            seen.start(&mut pos.history, at.board, at.to_move);
        }
        // With `RELAY`, `moves` holds the candidates, and `drawn` whether the move drawn ahead of
        // time (to learn that the player to move has one) gives another move: that move is then
        // written in `at.board` already (with `PASS`, in `after` until it is taken).
        let (mut drawn, mut after) = (None, at.board);
        // With `RELAY`, a move to draw at the loop's top that was to be drawn ahead (the game goes
        // on if the player to move has a legal move): the mover and `repeated` of the move before,
        // for the end when none is legal. The playout then has one place where a move is drawn.
        let mut pending: Option<(Player, bool)> = None;
        let mut moves = if RELAY {
            ff.candidates(&at.board, at.board.filled(), at.to_move)
        } else {
            ff.legal(at.board, at.board.filled(), at.to_move)
        };
        // Counted here and handed back at the end (through the reference, a store every move).
        let mut played = *plies;
        // The two stores lie in one block (`compile::shape` sees to it): a change of the stores is
        // read there, not on the whole of a wide board (3% of a Hus move).
        let store_block = ff.pits / 16;
        let store_cells = ff.store_lanes.block(store_block);
        // The stores' block before the move (with `RELAY`, read before a move drawn ahead is
        // written in the board).
        let mut before = at.board.block_of(store_block);
        let handed = loop {
            if played >= max_plies {
                break Handed::Stopped;
            }
            let mover = at.to_move;
            // (A move drawn ahead was drawn only where the position was not handed over: the
            // board now holds the move.)
            if ff.starving_handed && drawn.is_none() && (at.board & ff.row_lanes[mover.other().index()]).is_zero() {
                // Under a feeding penalty, the general engine plays the move (and comes back).
                *plies = played;
                self.unpack(ff, &at, pos, &mut seen, REPEATS);
                return Handed::GoOn(None);
            }
            // The draw of `Game::random_playout`, with the `i`-th move read from a table (a player
            // with more than seven pits: from the set's bits).
            // Only the stores' block is read after the move (a wide board's copy was 8
            // instructions a move).
            if !RELAY {
                before = at.board.block_of(store_block);
            }
            let first_move = at.ply == 0;
            let another = if RELAY {
                // The move is written in place (a board copied into the move's and the move's
                // copied back were about 20 instructions a Hus move).
                let another = match drawn.take() {
                    Some(another) => another,
                    None => {
                        // On a copy of the generator, kept when a move is drawn, or at the
                        // playout's first move (so the numbers drawn are those of the general
                        // engine, which knows the legal moves first).
                        let mut copy = rng.clone();
                        match ff.draw_move(ff.relay_tables(), &mut copy, &mut at.board, moves, mover) {
                            Some(another) => {
                                *rng = copy;
                                another
                            }
                            None => match pending {
                                // Written in place only when drawn: the position is left as it
                                // was, for the end.
                                Some((mover, repeated)) => {
                                    *plies = played;
                                    return self.fast_ending(
                                        ff,
                                        &at,
                                        pos,
                                        &mut seen,
                                        kinds.no_moves.trailing_zeros() as usize,
                                        mover,
                                        repeated,
                                        hints,
                                    );
                                }
                                None => {
                                    *rng = copy;
                                    break Handed::Stopped;
                                }
                            },
                        }
                    }
                };
                pending = None;
                played += 1;
                another
            } else {
                let origin = if L <= LANES {
                    let listed = ff.nth[mover.index()][moves as usize & 127];
                    let i = crate::engine::draw(rng, (listed >> 56).max(1) as usize);
                    if moves == 0 {
                        break Handed::Stopped;
                    }
                    (listed >> (8 * (i & 7)) & 0xFF) as usize
                } else {
                    let i = crate::engine::draw(rng, (moves.count_ones() as usize).max(1));
                    if moves == 0 {
                        break Handed::Stopped;
                    }
                    let mut left = moves;
                    for _ in 0..i {
                        left &= left - 1;
                    }
                    mover.index() * ff.side + left.trailing_zeros() as usize
                };
                played += 1;
                let (board, another) = ff.play(at.board, origin, mover);
                at.board = board;
                another
            };
            at.ply += 1;
            if !another {
                at.to_move = mover.other();
            }
            // `pass when unable`, decided before the repetition check as `Game::apply` does. A
            // relay game learns whether the player to move has a move by drawing it ahead of time,
            // on a copy of the generator (taken below if the game goes on).
            let (mut ahead, mut stuck) = (None, false);
            if PASS {
                let able = if RELAY {
                    let next = ff.candidates(&at.board, at.board.filled(), at.to_move);
                    next != 0 && {
                        let mut copy = rng.clone();
                        after = at.board;
                        let move_ahead = ff.draw_move(ff.relay_tables(), &mut copy, &mut after, next, at.to_move);
                        ahead = move_ahead.map(|another| (copy, another));
                        ahead.is_some()
                    }
                } else {
                    ff.legal(at.board, at.board.filled(), at.to_move) != 0
                };
                if !able {
                    if ff.has_legal(at.board, at.board.filled(), at.to_move.other()) {
                        at.to_move = at.to_move.other();
                    } else {
                        stuck = true;
                    }
                }
            }
            // (Not read by a relay loop without `STORES`: its stores never change.)
            let stores_grew = (at.board.block_of(store_block) ^ before) & store_cells != 0;
            let mut repeated = false;
            if REPEATS {
                if (STORES || !RELAY) && self.stores_only_grow && stores_grew {
                    // No position before this move can come back: a store is larger now and never
                    // shrinks.
                    seen.clear();
                }
                repeated = seen.check_and_add(at.board, at.to_move, || ff.identity(at.board, at.to_move));
            }
            // The end rules, as `Game::end_rule_holding` reads them: the first that holds. Each is
            // a pure test of the position, so all are answered and the first taken; the next
            // position's legal moves are worked out first (a `no_moves` rule asks for them, and the
            // next move needs them).
            let filled = at.board.filled();
            let next = if RELAY {
                ff.candidates(&at.board, filled, at.to_move)
            } else {
                ff.legal(at.board, filled, at.to_move)
            };
            let mut holding = if next == 0 || stuck { kinds.no_moves } else { 0 };
            if repeated {
                holding |= kinds.repeated;
            }
            if ROWS || !ff.probes.is_empty() {
                holding |= ff.probes_holding(ROWS, filled, mover, &at);
            }
            if STORES && (first_move || stores_grew) && (!(RELAY || FLOOR || PASS) || !ff.store_hits.is_empty()) {
                holding |= ff.store_rules_holding(at.board);
            }
            // Below the floor, the playout stops after this move as at the ply limit: the seeds in
            // the pits change only with the stores' (a fast form's board holds every seed).
            if FLOOR && stores_grew && ff.total - at.board.lane(ff.store(Player::South)) - at.board.lane(ff.store(Player::North)) < floor {
                max_plies = played;
            }
            if ff.tested != 0 {
                holding |= self.tested_ends(ff, &at, mover);
            }
            if RELAY && STORES {
                before = at.board.block_of(store_block);
            }
            if RELAY && next != 0 && kinds.no_moves.trailing_zeros() < holding.trailing_zeros() {
                // Whether the player to move has a legal move decides the end. When the game would
                // go on, the next move is drawn now, on a copy of the generator kept only if there is
                // one (so the numbers drawn are those of the general engine, which knows the legal
                // moves first); else the candidates are tried in turn.
                // (Not where the next move is the general engine's: it draws its own.)
                let handed = ff.starving_handed && (at.board & ff.row_lanes[at.to_move.other().index()]).is_zero();
                if holding == 0 && played < max_plies && !handed {
                    if let Some((copy, another)) = ahead.take() {
                        // Drawn for the pass (the player to move did not pass): `after` holds it.
                        *rng = copy;
                        drawn = Some(another);
                        at.board = after;
                    } else {
                        // Drawn at the loop's top.
                        pending = Some((mover, repeated));
                    }
                } else if ahead.is_none() && !ff.has_move(ff.relay_tables(), at.board, next, at.to_move) {
                    holding |= kinds.no_moves;
                }
            }
            if holding != 0 {
                *plies = played;
                return self.fast_ending(ff, &at, pos, &mut seen, holding.trailing_zeros() as usize, mover, repeated, hints);
            }
            moves = next;
        };
        *plies = played;
        self.unpack(ff, &at, pos, &mut seen, REPEATS);
        handed
    }

    /// The end of a fast playout by the end rule `rule` after `mover`'s move reached `at`:
    /// carried out by the general engine. Once a playout, out of line.
    #[inline(never)]
    #[allow(clippy::too_many_arguments)]
    fn fast_ending<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        at: &Packed<B>,
        pos: &mut Position,
        seen: &mut Seen<B>,
        rule: usize,
        mover: Player,
        repeated: bool,
        hints: Hints,
    ) -> Handed {
        if ff.unread >> rule & 1 != 0 {
            // A rule the fast form reads only in part may hold: the general engine reads every
            // rule of the position (and the game goes on there for a move).
            self.unpack(ff, at, pos, seen, self.uses_repeated);
            return Handed::GoOn(self.settle(pos, mover, repeated, true, hints, &mut Silent));
        }
        // No history is written back: a finished game keeps none, and at a round's end nothing
        // reads it before the next round's set-up starts a new one (`repeated` is false in the
        // rules of a round's end and in the match's end condition).
        self.unpack(ff, at, pos, seen, false);
        Handed::GoOn(self.fast_end_and_go_on(pos, mover, &self.ends[rule], hints, &mut Silent))
    }

    /// [`Game::end_and_go_on`] for a fast playout's end rule `rule`. The next round's moves are
    /// drawn again where the fast form takes its first position (`Game::random_playout_above`):
    /// the end rules ask only whether there is one. Out of line: built in the playout's loop, the
    /// hints moved its registers (Kalah +1.5% instructions a move).
    #[inline(never)]
    fn fast_end_and_go_on(
        &self,
        pos: &mut Position,
        mover: Player,
        rule: &crate::compile::ir::EndRule,
        hints: Hints,
        log: &mut Silent,
    ) -> Option<crate::engine::Moves> {
        let first_only = Hints { first_only: true, ..hints };
        self.end_and_go_on(pos, mover, rule, first_only, log)
    }

    /// The end rules read one by one (`FastForm::tested`, bit `i` for rule `i`) that hold.
    #[inline(never)]
    pub(super) fn tested_ends<B: Board, const L: usize>(&self, ff: &FastForm<B, L>, at: &Packed<B>, mover: Player) -> u64 {
        let (mut holding, mut rest) = (0, ff.tested);
        while rest != 0 {
            let i = rest.trailing_zeros() as usize;
            let holds = match &ff.ends[i] {
                FastEnd::Tests { all: true, tests } => tests.iter().all(|&t| ff.check(t, at, mover)),
                FastEnd::Tests { all: false, tests } => tests.iter().any(|&t| ff.check(t, at, mover)),
                _ => false,
            };
            holding |= u64::from(holds) << i;
            rest &= rest - 1;
        }
        holding
    }

    /// Writes a packed position back into `pos`, and the positions seen into its history.
    fn unpack<B: Board, const L: usize>(&self, ff: &FastForm<B, L>, at: &Packed<B>, pos: &mut Position, seen: &mut Seen<B>, repeats: bool) {
        at.board.write_cells(&mut pos.board.cells);
        pos.to_move = at.to_move;
        pos.ply = at.ply;
        if repeats {
            pos.history = seen.history(ff);
        }
    }
}
