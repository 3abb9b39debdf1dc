//! The fast form under the exact searches (the full-board solver, the endgame databases, perft and
//! the players' alpha-beta): every legal move of a packed position worked out at once, without a
//! `Position` for each ([`Game::fast_moves`], [`FastSearch`]), on a board of either width (a
//! narrow `u128` or a wide board of 64 cells: [`AnySearch`]), and for games whose moves relay (a
//! candidate sown to learn whether it is legal, as a playout does).

use super::*;
use crate::compile::shape::WideBoard;

/// A move worked out in fast form for a search (see [`Game::fast_moves`]).
#[derive(Debug, Clone)]
pub struct FastMove<B = u128> {
    /// The move's number.
    pub pit: usize,
    /// The seeds of every cell after it (pits, then the two stores), one byte a cell.
    pub cells: B,
    /// Who moves next.
    pub to_move: Player,
    /// The finished position, when an end rule held after the move (then `cells` and `to_move`
    /// are as the move left them, before the end rule).
    pub ended: Option<Box<Position>>,
    /// Whether `to_move` has a legal move after it, where making the move learnt it (a search's
    /// leaf asks it again otherwise).
    pub moves_next: Option<bool>,
}

/// Where the fast form's move maker puts the moves it makes: a list (the searches that go on from
/// them), or a count (perft's last depth, which makes every move to count it and keeps none: the
/// list's copies in and out were about a tenth of a perft).
pub(crate) trait MoveSink<B> {
    /// Whether a move's `moves_next` is wanted where no end rule needs it (alpha-beta's leaves
    /// read it; perft does not, and saves the next player's legal moves worked out a move).
    const NEXT: bool;
    /// Whether a move that leaves the next player no legal move is found out as it is made (with a
    /// `no_moves` rule). Perft's inner depths need not: such a position has no move when its own
    /// moves are listed, whether it ended or not (the packed searches take no rounds, so an end
    /// rule ends the game). In a relay game finding out sows the next player's candidates until one
    /// is legal, about a third of the perft of such a game.
    const STUCK: bool = true;
    /// Whether the end rules of the positions reached are read at all: perft's last depth counts
    /// them, whatever they are.
    const ENDS: bool = true;
    /// Whether a call makes few moves (alpha-beta's, 2.5 on average in a search of Kalah: the
    /// table's move alone, the leaves until one reaches beta): the move maker then reads the form
    /// afresh at each move, where it otherwise works out the addresses of the tables its loop may
    /// read once a call, before the loop, and keeps them on the stack (about 95 instructions a
    /// call; perft, whose calls make more moves, is 3% faster with them).
    const FEW: bool = false;
    /// Takes the move made.
    fn take(&mut self, m: FastMove<B>);
}

impl<B> MoveSink<B> for Vec<FastMove<B>> {
    const NEXT: bool = true;
    const FEW: bool = true;
    #[inline(always)]
    fn take(&mut self, m: FastMove<B>) {
        self.push(m);
    }
}

/// The moves made, counted and dropped ([`MoveSink`]).
pub(crate) struct Counted(pub u64);

impl<B> MoveSink<B> for Counted {
    const NEXT: bool = false;
    const STUCK: bool = false;
    const ENDS: bool = false;
    #[inline(always)]
    fn take(&mut self, _: FastMove<B>) {
        self.0 += 1;
    }
}

/// The moves made, listed without their `moves_next` where no end rule asks for it ([`MoveSink`]).
pub(crate) struct Listed<'a, B>(pub &'a mut Vec<FastMove<B>>);

impl<B> MoveSink<B> for Listed<'_, B> {
    const NEXT: bool = false;
    #[inline(always)]
    fn take(&mut self, m: FastMove<B>) {
        self.0.push(m);
    }
}

/// The moves made, each read by the caller's `stop` test as it is made and counted, none kept
/// ([`MoveSink`]): alpha-beta's nodes one ply above the leaves score each child there (a list
/// written and read back was a few percent of a search).
pub(crate) struct Scored(pub u64);

impl<B> MoveSink<B> for Scored {
    const NEXT: bool = true;
    const FEW: bool = true;
    #[inline(always)]
    fn take(&mut self, _: FastMove<B>) {
        self.0 += 1;
    }
}

/// The moves made and listed for perft's depths above the last, which learn that a position has no
/// move by listing its moves ([`MoveSink::STUCK`]).
pub(crate) struct Expanded<'a, B>(pub &'a mut Vec<FastMove<B>>);

impl<B> MoveSink<B> for Expanded<'_, B> {
    const NEXT: bool = false;
    const STUCK: bool = false;
    #[inline(always)]
    fn take(&mut self, m: FastMove<B>) {
        self.0.push(m);
    }
}

/// A line of play from a search's start, this one last, each position its cells and the player
/// to move ([`FastSearch::line`]), for the repetition rule. Beside each position, in a game with
/// that rule, a filter of the positions since the stores last changed on the line, up to it (one
/// bit of 64 a position, chosen by a hash): a position that is not on the line has its bit clear
/// in the last filter most of the time, and the walk back along the line is then not taken (it
/// was about a twentieth of a search of such a game, every move made walking it). The filter
/// shares the position's room (a `u128` board and the player take 32 bytes with it or without).
#[derive(Debug, Clone)]
pub(crate) struct Line<B> {
    at: Vec<(B, Player, u64)>,
    /// Whether the filters are kept (a rule reads `repeated`).
    filters: bool,
    /// The block of the board that holds the stores, and the stores' lanes in it.
    block: usize,
    stores: u128,
}

impl<B: Board> Line<B> {
    /// No position.
    pub(crate) fn empty() -> Line<B> {
        Line {
            at: Vec::new(),
            filters: false,
            block: 0,
            stores: 0,
        }
    }

    /// The position's bit in a filter.
    #[inline(always)]
    fn bit(cells: B, to_move: Player) -> u64 {
        1 << ((cells.mixed() ^ to_move.index() as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 58)
    }

    /// Do two boards hold the same stores?
    #[inline(always)]
    fn same_stores(&self, a: B, b: B) -> bool {
        (a.block(self.block) ^ b.block(self.block)) & self.stores == 0
    }

    /// Adds the position `cells` with `to_move` to move at the end of the line.
    #[inline(always)]
    pub(crate) fn push(&mut self, cells: B, to_move: Player) {
        let run = match self.at.last() {
            Some(&(last, _, run)) if self.filters => {
                let bit = Self::bit(cells, to_move);
                if self.same_stores(last, cells) { run | bit } else { bit }
            }
            None if self.filters => Self::bit(cells, to_move),
            _ => 0,
        };
        self.at.push((cells, to_move, run));
    }

    /// Is the position `after` with `to_move` to move on the line since the stores were last
    /// changed? Out of line: asked only where the filter lets it, and the move maker's loop, in
    /// which it would lie, is laid out as without it.
    #[inline(never)]
    fn holds(&self, after: B, to_move: Player) -> bool {
        self.at
            .iter()
            .rev()
            .take_while(|&&(c, ..)| self.same_stores(c, after))
            .any(|&(c, p, _)| c == after && p == to_move)
    }

    /// Takes the last position off the line.
    #[inline(always)]
    pub(crate) fn pop(&mut self) {
        self.at.pop();
    }
}

/// Every cell's seeds of `pos` packed one byte a cell, as the fast form holds a board.
fn pack_cells<B: Lanes>(pos: &Position) -> B {
    B::of_cells(&pos.board.cells)
}

/// The fast form of a game for a search that keeps its positions packed (the full-board solver):
/// a position is its cells in one `u128` (or a wide board `B` of `L` cells) and the player to
/// move, which is all a position is in the games it serves (no move number, rounds, memory,
/// closures or history read by a rule).
pub(crate) struct FastSearch<'g, B: Board = u128, const L: usize = 16> {
    game: &'g Game,
    ff: &'g FastForm<B, L>,
    hints: Hints,
    /// The position the search started from: what a finished child is made from.
    like: Position,
    /// The identities of the positions before `like` that may still come back (its history but
    /// itself): seen again only while the stores are as they are in `like`.
    before: crate::engine::History,
    /// The low bits of `before`'s identities: most positions are found not to be among them
    /// without their whole identity (three quarters of its work).
    before_low: super::identity::LowBits,
    /// The blocks of cells whose weights [`FastSearch::seen_before`] sums for the low bits (those
    /// holding pits), and what the blocks past them (the stores alone) add for `like`'s stores:
    /// the positions that may be among `before` hold them.
    low_blocks: usize,
    low_stores: u16,
}

/// A packed search on the game's fast form of whichever width ([`Game::fast_search`]).
pub(crate) enum AnySearch<'g> {
    /// At most 16 cells.
    Narrow(FastSearch<'g>),
    /// At most 64 cells.
    Wide(FastSearch<'g, WideBoard, 64>),
}

impl Game {
    /// [`FastSearch::along_lines`] on the game's fast form of whichever width.
    pub(crate) fn fast_search(&self, start: &Position) -> Option<AnySearch<'_>> {
        match self.fast.as_deref()? {
            Fast::Narrow(ff) => FastSearch::on_form(self, ff, start).map(AnySearch::Narrow),
            Fast::Wide(ff) => FastSearch::on_form(self, ff, start).map(AnySearch::Wide),
        }
    }
}

impl<'g> FastSearch<'g> {
    /// The packed search from `start`, when every position after it can be packed and its value
    /// depends on nothing else (no repetition rule).
    pub(crate) fn new(game: &'g Game, start: &Position) -> Option<FastSearch<'g>> {
        if game.uses_repeated || game.uses_ply {
            return None;
        }
        Self::along_lines(game, start)
    }

    /// The seeds of cell `c`.
    #[inline(always)]
    pub(crate) fn seeds(cells: u128, c: usize) -> u32 {
        lane(cells, c)
    }

    /// The seeds of every pit of `cells`, in order (the stores left out), as the endgame databases
    /// index them.
    #[inline]
    pub(crate) fn pit_seeds(&self, cells: u128) -> PitSeeds {
        let mut seeds = [0u32; LANES];
        for (c, n) in seeds[..self.ff.pits].iter_mut().enumerate() {
            *n = lane(cells, c);
        }
        PitSeeds { seeds, pits: self.ff.pits }
    }

    /// [`FastSearch::new`] for a walk that follows each line of play from `start` and keeps it, so
    /// that the move number and a repetition rule can be answered from the line
    /// ([`FastSearch::moves_on_line_among`]): taken
    /// when every rule that reads `repeated` is `repeated` alone and stores never shrink (no position
    /// from before a capture comes back, so the line since `start` and the history before it while
    /// the stores are as in `start` are all that matters).
    pub(crate) fn along_lines(game: &'g Game, start: &Position) -> Option<FastSearch<'g>> {
        match game.fast.as_deref()? {
            Fast::Narrow(ff) => Self::on_form(game, ff, start),
            Fast::Wide(_) => None,
        }
    }
}

impl<'g, B: Board, const L: usize> FastSearch<'g, B, L> {
    /// [`FastSearch::along_lines`] on the fast form `ff` of `game`.
    fn on_form(game: &'g Game, ff: &'g FastForm<B, L>, start: &Position) -> Option<FastSearch<'g, B, L>> {
        let hints = Hints::of(game, start);
        if !Game::fits_open(ff, start, hints) || !ff.searched_from(start.ply) {
            return None;
        }
        // Who began is the start's for every position of a search (each is made from `like`).
        let reads_more = game.uses_round_ply || game.rounds.is_some();
        let repetition_from_line = !game.uses_repeated || (game.stores_only_grow && game.repetition_only_ends());
        let ids = start.history.as_slice();
        let before = match ids.split_last() {
            Some((_, earlier)) if game.uses_repeated && !earlier.is_empty() => crate::engine::History::from(earlier.to_vec()),
            _ => crate::engine::History::new(),
        };
        (!reads_more && !start.counted_in_place && repetition_from_line).then(|| FastSearch {
            game,
            ff,
            hints,
            like: start.clone(),
            before_low: super::identity::LowBits::of(before.as_slice()),
            before,
            low_blocks: ff.pit_blocks(),
            low_stores: ff.identity_low_past_pits(pack_cells::<B>(start)),
        })
    }

    /// `pos` packed, when it is a position of this search (not finished).
    pub(crate) fn pack(&self, pos: &Position) -> Option<B> {
        Game::fits_open(self.ff, pos, self.hints).then(|| pack_cells(pos))
    }

    /// The line of play that starts at the position `cells` with `to_move` to move.
    pub(crate) fn line(&self, cells: B, to_move: Player) -> Line<B> {
        // The two stores lie in one block of the board (`compile::shape` sees to it): two wide
        // boards' stores are compared there, without the rest of them.
        let block = self.ff.pits / 16;
        let mut line = Line {
            filters: self.game.end_kinds.repeated != 0,
            block,
            stores: self.ff.store_lanes.block(block),
            ..Line::empty()
        };
        line.push(cells, to_move);
        line
    }

    /// The position `cells` with `to_move` to move.
    pub(crate) fn position(&self, cells: B, to_move: Player) -> Position {
        let mut pos = self.like.clone();
        for (c, n) in pos.board.cells.iter_mut().enumerate() {
            *n = cells.lane(c);
        }
        pos.to_move = to_move;
        pos
    }

    /// Every legal move of the position `cells` with `mover` to move, in order, as
    /// [`Game::fast_moves`] gives them.
    #[inline]
    pub(crate) fn moves(&self, cells: B, mover: Player, out: &mut impl MoveSink<B>) {
        if self.ff.judged_by_penalty(cells, mover) {
            self.moves_handed_over((cells, mover, self.like.ply), None, u64::MAX, |_| false, out);
            return;
        }
        self.game
            .fast_moves_any(self.ff, self.hints, &self.like, (cells, mover, self.like.ply), |_, _| false, out);
    }

    /// [`FastSearch::moves`] at the end of `line` (the positions since the start, this one last,
    /// each its cells and the player to move), a move to a position on it ending the game by the
    /// repetition rule; of the moves among `among` only (bit `i` for the move of number `i + 1`):
    /// alpha-beta plays the table's move alone first and the others only when it did not cut the
    /// node off.
    #[inline]
    pub(crate) fn moves_on_line_among(&self, line: &Line<B>, among: u64, out: &mut Vec<FastMove<B>>) {
        self.moves_on_line_into(line, among, out, |_| false);
    }

    /// [`FastSearch::moves_on_line_among`] into any [`MoveSink`] (perft counts its last depth's
    /// moves and lists the others without `moves_next`; alpha-beta scores a node's leaves as they
    /// are made), none made after the first that `stop` holds of (a node one ply above the leaves
    /// makes its moves until one reaches beta, in one call: a call a move cost more than the moves
    /// it saved).
    #[inline]
    pub(crate) fn moves_on_line_into<O: MoveSink<B>>(
        &self,
        line: &Line<B>,
        among: u64,
        out: &mut O,
        stop: impl FnMut(&FastMove<B>) -> bool,
    ) {
        let Some(&(cells, mover, _)) = line.at.last() else {
            return;
        };
        // The move number of the line's last position.
        let ply = self.like.ply + line.at.len() as u32 - 1;
        let (game, at) = (self.game, (cells, mover, ply));
        if self.ff.judged_by_penalty(cells, mover) {
            self.moves_handed_over(at, Some(line), among, stop, out);
            return;
        }
        // The positions before the start come back only while the stores are the start's, and
        // stores never shrink in a game whose search asks (`FastSearch::on_form`): none of them
        // after a position whose stores are not (asked once here, not at every move made). A sink
        // that reads no end rule (perft's last depth) asks nothing.
        let before = O::ENDS && !self.before.is_empty() && line.same_stores(line.at[0].0, cells);
        // A closure for each loop: one closure called from both was left a call of its own (8% of
        // an Oware perft).
        match self.ff.relay.as_deref() {
            None => game.fast_moves_from::<B, L, false, _>(
                self.ff,
                None,
                self.hints,
                &self.like,
                (at, among),
                (|a, p| self.seen_on(line, a, p, before), stop),
                out,
            ),
            Some(rt) => game.fast_moves_from::<B, L, true, _>(
                self.ff,
                Some(rt),
                self.hints,
                &self.like,
                (at, among),
                (|a, p| self.seen_on(line, a, p, before), stop),
                out,
            ),
        }
    }

    /// The moves among `among` of the position `cells` (`mover` to move, `ply` moves played) made
    /// by the general engine ([`Game::moves_by_general_engine`]), the last of `line` where there is
    /// one. Out of line: built in the move maker's caller, it laid the searches out anew (perft
    /// +2%).
    #[cold]
    #[inline(never)]
    fn moves_handed_over(
        &self,
        (cells, mover, ply): (B, Player, u32),
        line: Option<&Line<B>>,
        among: u64,
        stop: impl FnMut(&FastMove<B>) -> bool,
        out: &mut impl MoveSink<B>,
    ) {
        let mut pos = self.position_at(cells, mover, ply);
        // With a repetition rule, the positions before the search's start, then the line's. A
        // search without a line is of a game without one (`FastSearch::new`): the start's
        // history, which no rule reads, goes with the position.
        if let Some(line) = line.filter(|_| self.game.uses_repeated) {
            let mut ids = self.before.as_slice().to_vec();
            ids.extend(line.at.iter().map(|&(cells, to_move, _)| self.ff.identity(cells, to_move)));
            pos.history = crate::engine::History::from(ids);
        }
        self.game.moves_by_general_engine(pos, among, self.hints, stop, out);
    }

    /// Is the position `after` with `to_move` to move on `line` (or, where `before` tells that it
    /// may be, in the history before it)?
    #[inline(always)]
    fn seen_on(&self, line: &Line<B>, after: B, to_move: Player, before: bool) -> bool {
        // Back along the line while the stores are as they are now: before a capture, no
        // position can come back. The last filter holds a bit for each of those positions when
        // `after`'s stores are the last position's, and none of them are on the line otherwise.
        let run = line.at.last().map_or(0, |&(.., run)| run);
        (run & Line::bit(after, to_move) != 0 && line.holds(after, to_move)) || (before && self.seen_before(line, after, to_move))
    }

    /// Is the position `after` with `to_move` to move among the positions before the line's
    /// start? Out of line, as the identity is: the move maker's loop holds only the call.
    #[inline(never)]
    fn seen_before(&self, line: &Line<B>, after: B, to_move: Player) -> bool {
        // With the start's stores (the line's first position is the start), the blocks past the
        // pits add what they add to the start's low bits: only the pits' blocks are weighed.
        line.same_stores(line.at[0].0, after)
            && self.before_low.may_hold(
                self.ff
                    .identity_low_in(after, to_move, self.low_blocks)
                    .wrapping_add(self.low_stores),
            )
            && self.before.contains(self.ff.identity(after, to_move))
    }

    /// Has the position `cells` with `mover` to move a legal move?
    #[inline]
    pub(crate) fn has_moves(&self, cells: B, mover: Player) -> bool {
        self.ff.has_legal(cells, cells.filled(), mover)
    }

    /// [`FastSearch::position`] at move number `ply`.
    pub(crate) fn position_at(&self, cells: B, to_move: Player, ply: u32) -> Position {
        let mut pos = self.position(cells, to_move);
        pos.ply = ply;
        pos
    }

    /// `f` of the seeds of every pit of `cells`, in order (the stores left out), as the endgame
    /// databases index them ([`FastSearch::pit_seeds`] on a board of any width).
    #[inline]
    pub(crate) fn with_pit_seeds<R>(&self, cells: B, f: impl FnOnce(&[u32]) -> R) -> R {
        let pits = self.ff.pits;
        if B::LANES <= LANES {
            let mut seeds = [0u32; LANES];
            for (c, n) in seeds[..pits].iter_mut().enumerate() {
                *n = cells.lane(c);
            }
            f(&seeds[..pits])
        } else {
            let mut seeds = [0u32; 64];
            for (c, n) in seeds[..pits].iter_mut().enumerate() {
                *n = cells.lane(c);
            }
            f(&seeds[..pits])
        }
    }

    /// Seeds in south's store.
    #[inline]
    pub(crate) fn south_store(&self, cells: B) -> u32 {
        cells.lane(self.ff.store(Player::South))
    }

    /// The pits a player: the most moves a position has.
    pub(crate) fn side_pits(&self) -> usize {
        self.ff.side
    }

    /// `me`'s store less the other's.
    #[inline]
    pub(crate) fn margin(&self, cells: B, me: Player) -> i32 {
        cells.lane(self.ff.store(me)) as i32 - cells.lane(self.ff.store(me.other())) as i32
    }

    /// The seeds in `p`'s row less those in the other's.
    #[inline(always)]
    pub(crate) fn row_margin(&self, cells: B, p: Player) -> i32 {
        let rows = &self.ff.row_lanes;
        cells.sum_less(rows[p.index() & 1], rows[p.other().index() & 1])
    }
}

impl Game {
    /// Every legal move of `pos` (in order), worked out in fast form for the exact searches (the
    /// full-board solver, the endgame databases), without a position for each: the end rules are
    /// read as a playout reads them (`Game::fast_loop`, but the store-only rules after every move,
    /// since a search may start anywhere), and a move after which one holds is finished by the
    /// general engine (`Game::end_and_go_on`), so each result is the one `apply` gives. `false`,
    /// with `out` untouched, when the general engine must answer: no fast form for `pos` (or only
    /// a wide one), or a history of positions to keep.
    pub(crate) fn fast_moves(&self, pos: &Position, out: &mut Vec<FastMove>) -> bool {
        !self.uses_repeated && self.fast_moves_without_history(pos, out)
    }

    /// [`Game::fast_moves`] for a caller that keeps the line of play itself and treats a
    /// repetition on its own (the endgame databases): no position comes back in these moves,
    /// as with an empty history in the general engine. `false` also when a rule reads `repeated`
    /// other than as a whole end rule.
    pub(crate) fn fast_moves_without_history(&self, pos: &Position, out: &mut Vec<FastMove>) -> bool {
        let hints = Hints::of(self, pos);
        let Some(ff) = self.fast_form_for(pos, hints) else {
            return false;
        };
        if !self.repetition_only_ends() {
            return false;
        }
        self.fast_moves_any(ff, hints, pos, (pack_cells(pos), pos.to_move, pos.ply), |_, _| false, out);
        true
    }

    /// [`Game::fast_moves_from`] for a game whose moves relay or not.
    #[inline(always)]
    fn fast_moves_any<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        hints: Hints,
        like: &Position,
        at: (B, Player, u32),
        repeats: impl FnMut(B, Player) -> bool,
        out: &mut impl MoveSink<B>,
    ) {
        match ff.relay.as_deref() {
            None => self.fast_moves_from::<B, L, false, _>(ff, None, hints, like, (at, u64::MAX), (repeats, |_| false), out),
            Some(rt) => self.fast_moves_from::<B, L, true, _>(ff, Some(rt), hints, like, (at, u64::MAX), (repeats, |_| false), out),
        }
    }

    /// [`Game::fast_moves`] of the position `board` with `mover` to move, everything else as in
    /// `like` (whose move number and other fields a finished child starts from); `repeats` tells
    /// whether a position (its cells and the player to move) was seen before on the line, for the
    /// rules that are `repeated` alone. With `RELAY` (the relay tables `rt`), each candidate is
    /// sown to learn whether it is legal, and whether the next player has a move when a `no_moves`
    /// rule asks. Only the moves among `among` are made (bit `i` for the move of number `i + 1`),
    /// and none after the first that `stop` holds of.
    #[allow(clippy::too_many_arguments)]
    #[inline]
    fn fast_moves_from<B: Board, const L: usize, const RELAY: bool, O: MoveSink<B>>(
        &self,
        ff: &FastForm<B, L>,
        rt: Option<&FastRelay<B, L>>,
        hints: Hints,
        like: &Position,
        ((board, mover, ply), among): ((B, Player, u32), u64),
        (mut repeats, mut stop): (impl FnMut(B, Player) -> bool, impl FnMut(&FastMove<B>) -> bool),
        out: &mut O,
    ) {
        // Every move reaches the same move number: its probes read once.
        let probes = ff.row_rules != 0 || !ff.probes.is_empty();
        let probed = ff.ply_probes(ply + 1);
        // With no row empty (almost every move), every row probe reads a filled row, whoever
        // moves next: what the probes say is read once a position (the row probes' look-up was 6%
        // of a Kalah perft).
        let rows = ff.row_rules != 0;
        let quiet = ff.rows_holding(rows, u64::MAX, mover, mover, probed);
        let mut left = among
            & if RELAY {
                ff.candidates(&board, board.filled(), mover)
            } else {
                ff.legal(board, board.filled(), mover)
            };
        while left != 0 {
            // The form and the game read afresh at each move, through an opaque reference, where
            // a call makes few moves ([`MoveSink::FEW`]) and they do not relay (a relay game's
            // moves are longer, and gain from the set-up: Hus +1.7% without it).
            let (ff, rt, game) = if O::FEW && !RELAY {
                std::hint::black_box((ff, rt, self))
            } else {
                (ff, rt, self)
            };
            let i = left.trailing_zeros() as usize;
            left &= left - 1;
            let (after, another) = match rt {
                Some(rt) if RELAY => {
                    let mut after = board;
                    match ff.try_move(rt, &mut after, i, mover) {
                        Some(another) => (after, another),
                        None => continue,
                    }
                }
                _ => ff.play(board, mover.index() * ff.side + i, mover),
            };
            let mut at = Packed {
                board: after,
                to_move: if another { mover } else { mover.other() },
                ply: ply + 1,
            };
            if !O::ENDS {
                let m = FastMove {
                    pit: i + 1,
                    cells: after,
                    to_move: at.to_move,
                    ended: None,
                    moves_next: None,
                };
                let done = stop(&m);
                out.take(m);
                if done {
                    return;
                }
                continue;
            }
            let filled = after.filled();
            // `pass when unable`: before the repetition and end rules, as `Game::apply` does.
            if ff.passes && !ff.has_legal(after, filled, at.to_move) && ff.has_legal(after, filled, at.to_move.other()) {
                at.to_move = at.to_move.other();
            }
            let (stuck, moves_next) = match rt {
                // Sown only when a rule asks whether the next player has a move.
                Some(rt) if RELAY => {
                    if O::STUCK && game.end_kinds.no_moves != 0 {
                        let next = ff.candidates(&after, filled, at.to_move);
                        let stuck = next == 0 || !ff.has_move_searched(rt, after, next, at.to_move);
                        (stuck, Some(!stuck))
                    } else {
                        (false, None)
                    }
                }
                _ if O::NEXT || O::STUCK && game.end_kinds.no_moves != 0 => {
                    let stuck = !ff.any_legal(after, filled, at.to_move);
                    (stuck, Some(!stuck))
                }
                _ => (false, None),
            };
            let mut holding = if stuck { game.end_kinds.no_moves } else { 0 };
            if game.end_kinds.repeated != 0 && repeats(after, at.to_move) {
                holding |= game.end_kinds.repeated;
            }
            if probes {
                holding |= if filled & ff.row_cells[0] != 0 && filled & ff.row_cells[1] != 0 {
                    quiet
                } else {
                    ff.rows_holding(rows, filled, mover, at.to_move, probed)
                };
            }
            if !ff.store_hits.is_empty() {
                holding |= ff.store_rules_holding(after);
            }
            if ff.tested != 0 {
                holding |= game.tested_ends(ff, &at, mover);
            }
            let ended = if holding == 0 {
                None
            } else {
                game.ended_child(ff, like, (after, at.to_move, ply), mover, holding, hints)
            };
            let m = FastMove {
                pit: i + 1,
                cells: after,
                to_move: at.to_move,
                ended,
                moves_next,
            };
            let done = stop(&m);
            out.take(m);
            if done {
                return;
            }
        }
    }

    /// The position a move of `mover` to `after` leads to when the end rules of `holding` (bits)
    /// may hold, the first carried out by the general engine; `None` when none did (a rule the
    /// fast form reads only in part, `FastForm::unread`, is read by the general engine with every
    /// other rule, as in a playout).
    #[inline(never)]
    fn ended_child<B: Board, const L: usize>(
        &self,
        ff: &FastForm<B, L>,
        like: &Position,
        (after, to_move, ply): (B, Player, u32),
        mover: Player,
        holding: u64,
        hints: Hints,
    ) -> Option<Box<Position>> {
        let mut child = Box::new(like.clone());
        child.ply = ply;
        self.unpack_move(&mut child, after, to_move);
        let first = holding.trailing_zeros() as usize;
        if ff.unread >> first & 1 != 0 {
            let repeated = holding & self.end_kinds.repeated != 0;
            self.settle(&mut child, mover, repeated, true, hints, &mut Silent);
            return child.over.then_some(child);
        }
        self.end_and_go_on(&mut child, mover, &self.ends[first], hints, &mut Silent);
        Some(child)
    }

    /// The moves among `among` of `pos` (with its history, where a rule reads it) made by the
    /// general engine, each packed as the fast form would have left it: a position whose mover is
    /// judged by a feeding penalty.
    #[cold]
    #[inline(never)]
    fn moves_by_general_engine<B: Board, O: MoveSink<B>>(
        &self,
        pos: Position,
        among: u64,
        hints: Hints,
        mut stop: impl FnMut(&FastMove<B>) -> bool,
        out: &mut O,
    ) {
        let rules = self.move_rules(&pos, hints);
        for k in self.legal_set(&pos).iter().filter(|&k| among >> (k - 1) & 1 != 0) {
            let mut child = pos.clone();
            self.play(&mut child, k, rules, hints, &mut Silent);
            let m = FastMove {
                pit: k,
                cells: pack_cells(&child),
                to_move: child.to_move,
                ended: child.over.then(|| Box::new(child)),
                moves_next: None,
            };
            let done = stop(&m);
            out.take(m);
            if done {
                return;
            }
        }
    }

    /// `pos` made the position a [`FastMove`] from it leads to, when no end rule held: its cells,
    /// the player to move and the move number.
    pub(crate) fn unpack_move<B: Lanes>(&self, pos: &mut Position, cells: B, to_move: Player) {
        for (c, n) in pos.board.cells.iter_mut().enumerate() {
            *n = cells.lane(c);
        }
        pos.to_move = to_move;
        pos.ply += 1;
    }

    /// Every legal move of `pos` (in order) with the position it leads to, from the fast form (`Game::fast_moves`);
    /// `false` when the general engine must answer.
    pub fn fast_children(&self, pos: &Position, out: &mut Vec<(usize, Position)>) -> bool {
        let mut moves = Vec::new();
        if !self.fast_moves(pos, &mut moves) {
            return false;
        }
        out.extend(moves.into_iter().map(|m| {
            let child = match m.ended {
                Some(p) => *p,
                None => {
                    let mut c = pos.clone();
                    self.unpack_move(&mut c, m.cells, m.to_move);
                    c
                }
            };
            (m.pit, child)
        }));
        true
    }
}

/// The pits' seeds of a packed board.
pub(crate) struct PitSeeds {
    seeds: [u32; LANES],
    pits: usize,
}

impl std::ops::Deref for PitSeeds {
    type Target = [u32];
    fn deref(&self) -> &[u32] {
        &self.seeds[..self.pits]
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    use crate::shipped::invented as game;

    /// Issue 25: perft over packed positions counts what the general engine counts on boards of
    /// both widths, in games whose moves relay (a candidate sown to learn whether it is legal, and
    /// whether the next player has a move) and in games whose moves do not, from the start and
    /// from positions along a random game (with a history of their own before the count).
    #[test]
    fn packed_perft_counts_what_the_general_engine_counts_on_wide_boards_and_relays() {
        let games = [
            // Four rows of six (26 cells), each player round their own rows: a pull-across capture
            // whose seeds are sown again, relays on a loaded pit, no single seeds.
            (
                true,
                4,
                r#"game "pull" board { rows 2 pits 6 seeds 2 stores captures } first south
                   sow { direction ccw track own relay when last.before > 0 relay limit 30 }
                   forbid "single" when origin.count == 1
                   capture "pull across" {
                     when last.side == mover and last.row == front and last.before > 0 and opposite(last).count > 0
                     take opposite(last), behind(opposite(last))
                     sow taken
                   }
                   end "stuck" when no_moves loser to_move
                   end "going round" when repeated draw"#,
            ),
            // The same board with the pits taken into the store, which ends the move.
            (
                true,
                4,
                r#"game "cross" board { rows 2 pits 6 seeds 2 stores captures } first south
                   sow { direction ccw track own relay when last.before > 0 }
                   capture "cross" {
                     when last.side == mover and last.row == front and last.before == 0 and opposite(last).count > 0
                     take opposite(last), behind(opposite(last))
                     then end
                   }
                   end "stuck" when no_moves loser to_move
                   end "going round" when repeated draw"#,
            ),
            // One seed a player, going round their own eight pits (18 cells) until a position
            // comes back: the line and the history before the count answer the repetition rule.
            (
                true,
                19,
                r#"game "round" board { rows 2 pits 4 seeds 1 where pit.row == back and pit.number == 1 stores captures }
                   first south
                   sow { direction ccw track own relay when last.before > 0 }
                   end "stuck" when no_moves loser to_move
                   end "going round" when repeated draw"#,
            ),
            // Single laps on nine pits a side (20 cells): wide, no relay, a series, feeding.
            (
                true,
                5,
                r#"game "wide single" board { pits 9 seeds 2 stores captures } first south
                   sow { direction ccw skip origin }
                   capture "two or three" { when last.side == opponent and last.count in 2..3  take last
                     series backward while pit.side == opponent and pit.count in 2..3 }
                   feeding required
                   end "half" when captured(south) > total / 2 or captured(north) > total / 2 remaining owner
                   end "stuck" when no_moves remaining owner"#,
            ),
            // Relays on a narrow board, with a limit that makes many moves illegal, and a player
            // left with pits to play none of which is legal.
            (
                false,
                7,
                r#"game "narrow relay" board { pits 4 seeds 3 stores captures } first south
                   sow { direction ccw relay when last.before > 0 relay limit 3 }
                   capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }
                   end "stuck" when no_moves remaining owner
                   end "long" when ply >= 40 draw"#,
            ),
        ];
        for (wide, depth, text) in games {
            let game = game(text);
            let general = game.without_fast_form();
            let mut pos = game.initial(None);
            let mut rng = StdRng::seed_from_u64(7);
            for played in 0..4 {
                match game.fast_search(&pos) {
                    Some(AnySearch::Wide(_)) => assert!(wide, "{text}"),
                    Some(AnySearch::Narrow(_)) => assert!(!wide, "{text}"),
                    None => panic!("no packed search after {played} moves:\n{text}"),
                }
                assert_eq!(game.perft(&pos, depth), general.perft(&pos, depth), "after {played} moves:\n{text}");
                game.random_playout(&mut pos, &mut rng, 3);
                if pos.over {
                    break;
                }
            }
        }
    }

    /// Issue 25: perft's move maker reads the probes of the move number once a position and the
    /// row probes once a position where no row is empty; it counts what the general engine counts
    /// where a rule ends lines at a move number, alone and together with an empty row, and where
    /// rows empty, from the start and from positions along random games.
    #[test]
    fn packed_perft_reads_the_move_number_and_the_rows_as_the_general_engine_does() {
        let text = r#"game "late rows" board { pits 3 seeds 2 stores sown } first south
               sow { direction ccw into own store }
               capture "own store" { when last == store(mover) then another move }
               capture "across" {
                 when not last.store and last.side == mover and last.before == 0 and opposite(last).count > 0
                 take opposite(last), last
               }
               end "south out late" when seeds(south) == 0 and ply > 5 remaining owner
               end "late" when ply >= 9 draw
               end "north out" when seeds(north) == 0 remaining owner"#;
        let game = game(text);
        let general = game.without_fast_form();
        for seed in 0..6 {
            let mut pos = game.initial(None);
            let mut rng = StdRng::seed_from_u64(seed);
            game.random_playout(&mut pos, &mut rng, seed as u32);
            if pos.over {
                continue;
            }
            assert!(matches!(game.fast_search(&pos), Some(AnySearch::Narrow(_))), "after {seed} moves");
            assert_eq!(game.perft(&pos, 11), general.perft(&pos, 11), "after {seed} moves");
        }
    }
}
