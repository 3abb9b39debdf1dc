//! Evaluating the rules' compiled expressions ([`Code`]) against a position and the state of the move
//! in progress: a small stack machine, allocation-free for every usual expression.

use super::choice::Choices;
use super::{Board, Cell, Game, Player, Position};
use crate::compile::ir::{
    Code, FixedPits, Flag, MOST_KEPT, MemoryRef, NO_PIT, Op, Operand, PitSet, Quick, Reg, Relation, Test, Track, Who,
};

#[cfg(test)]
mod kept_tests;
mod lap;
#[cfg(test)]
mod lap_tests;
#[cfg(test)]
mod op_tests;
#[cfg(test)]
mod set_tests;
mod sets;

pub(crate) use lap::{at_lap_end, at_lap_end_packed, at_origin, pit_from_memo};
use sets::SetOp;

/// Values a program may hold at once without a heap allocation.
const STACK: usize = 8;

use crate::board::MAX_RANGE_CHOICE;

thread_local! {
    /// How many times `leftmost` or `rightmost` has found no pit (an empty set) on this thread. Only
    /// written when that happens, so play that never meets it pays nothing; `check --explore` reads
    /// it around the moves it plays.
    static EMPTY_EXTREMES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many times `leftmost` or `rightmost` has found no pit on this thread so far.
pub(crate) fn empty_extremes() -> u64 {
    EMPTY_EXTREMES.with(std::cell::Cell::get)
}

#[cold]
fn note_empty_extreme() {
    EMPTY_EXTREMES.with(|n| n.set(n.get() + 1));
}

/// Everything an expression may ask about.
#[derive(Clone, Copy)]
pub(crate) struct Ctx<'a> {
    pub game: &'a Game,
    /// The board (set with [`Ctx::on`], which keeps `cells` in step).
    pub board: &'a Board,
    /// The board's seeds per cell, read once.
    pub cells: &'a [u32],
    /// Per cell, the count before the latest seed fell in during this move (`None` = no move).
    pub before: Option<&'a [u32]>,
    /// The pits `last`, `origin` and `pit`, in the order of [`Reg`].
    pub regs: [Cell; 3],
    pub mover: Player,
    pub to_move: Player,
    /// The player who began the game.
    pub starter: Player,
    pub final_seed: bool,
    pub lap: u32,
    pub ply: u32,
    pub round: u32,
    /// Moves played in this round.
    pub round_ply: u32,
    pub rounds_won: [u32; 2],
    pub no_moves: bool,
    pub can_feed: bool,
    pub repeated: bool,
    /// Every seed on the board, when already worked out.
    pub total: Option<i64>,
    /// The mover's track, which `next` and `previous` follow; `None`: the usual rules' track.
    pub track: Option<&'a Track>,
    /// Seeds taken by this move's rules so far.
    pub taken: u32,
    /// Seeds picked up to start the current lap (after the move: its last lap).
    pub lifted: u32,
    /// The move sows clockwise by the mover's choice.
    pub clockwise: bool,
    /// The choices the move carries, which `choose(...)` reads; `None` outside a move.
    pub choices: Option<&'a Choices>,
    /// Seeds still in hand as a seed falls (0 once the lap is sown).
    pub in_hand: u32,
    /// The pit the current lap started from ([`NO_PIT`] outside a move).
    pub lap_start: Cell,
    /// Where the move's first lap ended ([`NO_PIT`] before it has).
    pub first_lap_end: Cell,
    /// The values kept by the program running ([`Op::Keep`]), or by the filters of the set being
    /// walked.
    /// (A thin reference: the general engine copies contexts often.)
    pub kept: Option<&'a KeptRoom>,
}

/// A value a program keeps once worked out, while it runs or while a set is walked.
pub(crate) type Kept = std::cell::Cell<Option<i64>>;

/// Room for the values a program or a set's walk keeps (slots past the ones it uses stay empty).
pub(crate) type KeptRoom = [Kept; MOST_KEPT];

impl<'a> Ctx<'a> {
    pub fn new(game: &'a Game, board: &'a Board, mover: Player) -> Self {
        Ctx {
            game,
            board,
            cells: &board.cells,
            before: None,
            regs: [NO_PIT; 3],
            mover,
            to_move: mover,
            starter: game.first,
            final_seed: false,
            lap: 0,
            ply: 0,
            round: 1,
            round_ply: 0,
            rounds_won: [0, 0],
            no_moves: false,
            can_feed: false,
            repeated: false,
            total: None,
            track: None,
            taken: 0,
            lifted: 0,
            clockwise: false,
            choices: None,
            in_hand: 0,
            lap_start: NO_PIT,
            first_lap_end: NO_PIT,
            kept: None,
        }
    }

    /// The same context reading another board.
    #[inline]
    pub fn on(self, board: &'a Board) -> Self {
        Ctx {
            board,
            cells: &board.cells,
            ..self
        }
    }

    /// The same context with `reg` naming the pit `c`.
    #[inline]
    pub fn with(mut self, reg: Reg, c: Cell) -> Self {
        self.regs[reg as usize] = c;
        self
    }

    #[inline]
    fn count(&self, c: Cell) -> u32 {
        self.cells.get(c as usize).copied().unwrap_or(0)
    }

    /// The value of a condition: straight from its tests when it is a plain list of them. Kept
    /// small enough to sit in its callers: a condition of one or two one-step tests (a flag,
    /// `last.side == opponent`, `last.count in 2..3`) costs a few instructions and no call.
    #[inline(always)]
    pub fn bool(&self, code: &Code) -> bool {
        match &code.quick {
            Quick::One(t) => self.test(code, t),
            Quick::Both(a, b) => self.test(code, a) && self.test(code, b),
            Quick::Either(a, b) => self.test(code, a) || self.test(code, b),
            Quick::Flag(f) => self.flag(*f),
            Quick::Tests(f) => self.flat_many(code, &f.tests, f.all),
            Quick::Run => self.run(code) != 0,
        }
    }

    #[inline(never)]
    fn flat_many(&self, code: &Code, tests: &[Test], all: bool) -> bool {
        for t in tests {
            if self.test(code, t) != all {
                return !all;
            }
        }
        all
    }

    #[inline(always)]
    fn test(&self, code: &Code, t: &Test) -> bool {
        match *t {
            Test::SideIs(r, w, is) => (self.side_code(self.reg(r)) == self.who(w) as u8) == is,
            Test::CountIn(r, lo, hi, inside) => (lo..=hi).contains(&i64::from(self.count(self.reg(r)))) == inside,
            Test::BeforeIn(r, lo, hi, inside) => (lo..=hi).contains(&i64::from(self.before_of(self.reg(r)))) == inside,
            Test::OppositeCountIn(r, lo, hi, inside) => (lo..=hi).contains(&i64::from(self.count(self.opposite(self.reg(r))))) == inside,
            Test::CountEven(r, even) => self.count(self.reg(r)).is_multiple_of(2) == even,
            Test::OppositeCountEven(r, even) => self.count(self.opposite(self.reg(r))).is_multiple_of(2) == even,
            Test::RowSeedsIn(p, lo, hi, inside) => (lo..=hi).contains(&i64::from(self.game.row_seeds(self.board, p))) == inside,
            Test::StoreIs(r, is) => self.is_store(self.reg(r)) == is,
            Test::IsStoreOf(r, w, is) => (self.reg(r) == self.game.store(self.who(w))) == is,
            Test::FlagIs(f, is) => self.flag(f) == is,
            Test::Cmp(..) | Test::In(..) | Test::Parity(..) | Test::AnyIn(..) => self.test_apart(code, t),
        }
    }

    /// The tests that read an operand of any kind, out of line.
    #[inline(never)]
    fn test_apart(&self, code: &Code, t: &Test) -> bool {
        match *t {
            Test::Cmp(a, op, b) => op.holds(self.operand(a), self.operand(b)),
            Test::In(x, lo, hi, inside) => (lo..=hi).contains(&self.operand(x)) == inside,
            Test::Parity(x, even) => (self.operand(x) % 2 == 0) == even,
            Test::AnyIn(i, has) => (self.set_value(code, SetOp::Any, i) != 0) == has,
            _ => self.test(code, t),
        }
    }

    // The common operands are read in place; the rest (row sums, claims, stores of a named
    // player) out of line, so that a test of the common ones stays small and cheap to call.
    #[inline(always)]
    fn operand(&self, o: Operand) -> i64 {
        match o {
            Operand::Int(n) => n,
            Operand::Flag(f) => i64::from(self.flag(f)),
            Operand::Lap => i64::from(self.lap),
            Operand::Ply => i64::from(self.ply),
            Operand::Round => i64::from(self.round),
            Operand::Total(s) => match self.total {
                Some(t) => t >> s,
                None => self.operand_apart(o),
            },
            Operand::CountCell(c) => i64::from(self.count(c)),
            Operand::Reg(r) => i64::from(self.reg(r)),
            Operand::Count(r) => i64::from(self.count(self.reg(r))),
            Operand::Side(r) => i64::from(self.side_code(self.reg(r))),
            Operand::Who(w) => self.who(w).index() as i64,
            Operand::Before(r) => i64::from(self.before_of(self.reg(r))),
            Operand::IsStore(r) => i64::from(self.is_store(self.reg(r))),
            Operand::CountOpposite(r) => i64::from(self.count(self.opposite(self.reg(r)))),
            Operand::StoreOf(w) => i64::from(self.game.store(self.who(w))),
            _ => self.operand_apart(o),
        }
    }

    #[inline(never)]
    fn operand_apart(&self, o: Operand) -> i64 {
        match o {
            Operand::Total(s) => self.total() >> s,
            Operand::SeedsRow(p) => i64::from(self.game.row_seeds(self.board, p)),
            // As the set `board` is summed: the pit a store stands in for is not one of its pits.
            Operand::SeedsBoard => (0..self.game.pit_count() as Cell)
                .filter(|&c| !self.game.is_store_pit(c))
                .map(|c| i64::from(self.count(c)))
                .sum(),
            Operand::RoundsWonBy(p) => i64::from(self.rounds_won[p.index()]),
            Operand::Claimed(r) => i64::from(self.claimed(self.reg(r))),
            Operand::Opposite(r) => i64::from(self.opposite(self.reg(r))),
            Operand::BeforeOpposite(r) => i64::from(self.before_of(self.opposite(self.reg(r)))),
            Operand::SideOpposite(r) => i64::from(self.side_code(self.opposite(self.reg(r)))),
            Operand::ClaimedOpposite(r) => i64::from(self.claimed(self.opposite(self.reg(r)))),
            Operand::RowOf(r) => self.row_of(self.reg(r)),
            Operand::CapturedBy(w) => i64::from(self.count(self.game.store(self.who(w)))),
            Operand::SeedsOf(w) => i64::from(self.game.row_seeds(self.board, self.who(w))),
            Operand::RoundsWon(w) => i64::from(self.rounds_won[self.who(w).index()]),
            // Listed rather than matched by `_`, so that a new operand must be placed in one of the two.
            Operand::Int(_)
            | Operand::Flag(_)
            | Operand::Lap
            | Operand::Ply
            | Operand::Round
            | Operand::CountCell(_)
            | Operand::Reg(_)
            | Operand::Count(_)
            | Operand::Side(_)
            | Operand::Who(_)
            | Operand::Before(_)
            | Operand::IsStore(_)
            | Operand::CountOpposite(_)
            | Operand::StoreOf(_) => self.operand(o),
        }
    }

    #[inline(always)]
    fn flag(&self, f: Flag) -> bool {
        match f {
            Flag::Final => self.final_seed,
            Flag::NoMoves => self.no_moves,
            Flag::CanFeed => self.can_feed,
            Flag::Repeated => self.repeated,
            Flag::Clockwise => self.clockwise,
        }
    }

    #[inline(always)]
    fn who(&self, w: Who) -> Player {
        let w = w as u8;
        let base = if w & 2 == 0 { self.mover } else { self.to_move };
        if w & 1 == 0 { base } else { base.other() }
    }

    /// The value of a number.
    pub fn int(&self, code: &Code) -> i64 {
        self.run(code)
    }

    /// The value of a player.
    pub fn player(&self, code: &Code) -> Player {
        self.as_player(self.run(code))
    }

    /// A player from a value: nobody (the side of a shared pit) stands for the mover wherever a
    /// player is needed.
    #[inline]
    fn as_player(&self, v: i64) -> Player {
        match v {
            0 => Player::South,
            1 => Player::North,
            _ => self.mover,
        }
    }

    /// The value of a pit.
    pub fn pit(&self, code: &Code) -> Cell {
        self.run(code) as Cell
    }

    /// Runs a program. A one-op program (`last`, `mover`, `repeated`) is answered at once, in line.
    #[inline(always)]
    pub fn run(&self, code: &Code) -> i64 {
        if let [op] = code.ops.as_slice() {
            match *op {
                Op::Int(n) => return n,
                Op::Reg(r) => return i64::from(self.reg(r)),
                Op::Mover => return self.mover.index() as i64,
                Op::Opponent => return self.mover.other().index() as i64,
                Op::ToMove => return self.to_move.index() as i64,
                Op::Flag(f) => return i64::from(self.flag(f)),
                _ => {}
            }
        }
        // `opposite(last)`, what most capture rules take.
        if let [Op::Reg(r), Op::Opposite] = code.ops.as_slice() {
            return i64::from(self.opposite(self.reg(*r)));
        }
        self.run_program(code)
    }

    #[inline(never)]
    fn run_program(&self, code: &Code) -> i64 {
        if code.kept > 0 {
            return self.run_keeping(code);
        }
        self.exec_on_stack(code)
    }

    /// Runs a program that keeps values, with room for them for this run.
    #[inline(never)]
    fn run_keeping(&self, code: &Code) -> i64 {
        let room = KeptRoom::default();
        Ctx {
            kept: Some(&room),
            ..*self
        }
        .exec_on_stack(code)
    }

    /// Runs a program with a stack of its depth.
    #[inline(always)]
    fn exec_on_stack(&self, code: &Code) -> i64 {
        if code.depth as usize <= STACK {
            self.exec(code, &mut [0; STACK + 1])
        } else {
            // Only a deeply nested expression (such as `1 + (1 + (1 + ...))`) needs more room.
            self.exec(code, &mut vec![0; code.depth as usize + 1])
        }
    }

    #[inline(always)]
    fn reg(&self, r: Reg) -> Cell {
        self.regs[r as usize]
    }

    /// The count before the latest seed fell into `c`: the sowing's list's; where a game whose
    /// rules read it keeps none (`compile::before`: they read only `last`'s, at a lap's end), the
    /// count less one; else, before any seed is sown (a `forbid`'s `origin.before`), the count.
    #[inline]
    fn before_of(&self, c: Cell) -> u32 {
        match self.before {
            Some(b) => b.get(c as usize).copied().unwrap_or_else(|| self.count(c)),
            None if !self.game.uses_before => self.count(c).saturating_sub(1),
            None => self.count(c),
        }
    }

    // What a pit's fields read; a missing pit (NO_PIT) reads as empty, the mover's, unclaimed,
    // open and not a store.

    /// The side of a cell as a number (0 south, 1 north, 2 nobody); no pit reads as the mover's.
    #[inline]
    fn side_code(&self, c: Cell) -> u8 {
        match self.game.side_codes.get(c as usize) {
            Some(&code) => code,
            None => self.mover as u8,
        }
    }

    fn owner_of(&self, c: Cell) -> Option<Player> {
        if c == NO_PIT {
            Some(self.mover)
        } else {
            self.game.owner(self.board, c)
        }
    }

    fn claimed(&self, c: Cell) -> bool {
        self.board.claimed.get(c as usize).copied().flatten().is_some()
    }

    fn closed(&self, c: Cell) -> bool {
        self.board.closed.get(c as usize).copied().unwrap_or(false)
    }

    #[inline]
    fn is_store(&self, c: Cell) -> bool {
        c != NO_PIT && self.game.is_store(c)
    }

    #[inline]
    // A store that is a pit of the row (`store pit N`) faces, is numbered and lies as that pit.
    fn opposite(&self, c: Cell) -> Cell {
        if c == NO_PIT {
            NO_PIT
        } else {
            self.game.in_place(self.game.opposite(self.game.place_of(c)))
        }
    }

    fn number(&self, c: Cell) -> i64 {
        if c == NO_PIT {
            0
        } else {
            self.game.number(self.game.place_of(c)) as i64
        }
    }

    fn row_of(&self, c: Cell) -> i64 {
        if c == NO_PIT {
            0
        } else {
            self.game.row_of(self.game.place_of(c)) as i64
        }
    }

    /// The pit found from `c` by `r`; [`NO_PIT`] when there is none.
    fn related(&self, r: Relation, c: Cell) -> Cell {
        if c == NO_PIT {
            return NO_PIT;
        }
        match r {
            Relation::Behind => self.game.behind(c).unwrap_or(NO_PIT),
            Relation::InFront => self.game.in_front(c).unwrap_or(NO_PIT),
            Relation::Next => self.step_open(c, true),
            Relation::Previous => self.step_open(c, false),
            Relation::NextAny => self.lap_track().next[c as usize],
            Relation::PreviousAny => self.lap_track().prev[c as usize],
        }
    }

    /// The cell after `c` (before it, unless `forward`) along the lap's track, passing over closed
    /// pits: the track holds the open pits, as sowing goes. A track closed all round but for `c`
    /// leads back to it.
    fn step_open(&self, c: Cell, forward: bool) -> Cell {
        let track = self.lap_track();
        let step = if forward { &track.next } else { &track.prev };
        let mut n = step[c as usize];
        if self.game.uses_closed {
            for _ in 0..track.cells.len() {
                if !self.closed(n) {
                    break;
                }
                n = step[n as usize];
            }
        }
        n
    }

    /// The track `next` and `previous` follow: the lap's, else the usual rules' for the mover.
    fn lap_track(&self) -> &'a crate::compile::ir::Track {
        self.track.unwrap_or_else(|| {
            let usual = self.game.phases.last().expect("the usual rules are a phase");
            if usual.sow.ccw {
                &usual.tracks[self.mover.index()]
            } else {
                &usual.cw_tracks[self.mover.index()]
            }
        })
    }

    /// The memory value `r` of the player or pit `owner`; a store or no pit keeps none and reads the
    /// value at the start.
    fn remembered(&self, r: MemoryRef, owner: i64) -> i64 {
        match memory_index(self.game, r, owner) {
            Some(i) => self.board.memory.get(i).copied().unwrap_or_else(|| self.game.memory_start_of(r)),
            None => self.game.memory_start_of(r),
        }
    }

    /// The pit `steps` places after `c` along the lap's track (before it for fewer than 0);
    /// [`NO_PIT`] from no pit.
    fn along(&self, c: Cell, steps: i64) -> Cell {
        if c == NO_PIT {
            return NO_PIT;
        }
        let track = self.lap_track();
        if self.game.uses_closed {
            // Counted along the open cells only, as `next` steps; a round of them counts as none.
            let open = track.cells.iter().filter(|&&t| !self.closed(t)).count().max(1) as u64;
            let n = steps.unsigned_abs() % open;
            return (0..n).fold(c, |c, _| self.step_open(c, steps > 0));
        }
        // Past a whole round the track repeats itself.
        let n = steps.unsigned_abs() % track.cells.len().max(1) as u64;
        let step = if steps < 0 { &track.prev } else { &track.next };
        (0..n).fold(c, |c, _| step[c as usize])
    }

    #[inline]
    fn total(&self) -> i64 {
        match self.total {
            Some(t) => t,
            None => self.cells.iter().map(|&c| i64::from(c)).sum(),
        }
    }

    /// `can_move(P)`: would P have a legal move other than a pass, were it P's turn on this board?
    /// The moves are tried by the engine, whose rules may ask `can_move` in turn: asked inside
    /// such a trial it answers true, so that each question is one level deep and ends.
    #[cold]
    #[inline(never)]
    fn can_move(&self, p: Player) -> bool {
        thread_local! {
            static ASKING: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
        }
        if ASKING.get() {
            return true;
        }
        let pos = Position {
            board: self.board.clone(),
            to_move: p,
            ply: self.ply,
            round: self.round,
            round_start: self.ply.saturating_sub(self.round_ply),
            starter: self.starter,
            opener: self.starter,
            rounds_won: self.rounds_won,
            over: false,
            winner: None,
            counted_in_place: false,
            ended_by: None,
            history: Default::default(),
        };
        ASKING.set(true);
        // The set of pits with a move, not every way of answering their choices: one is enough.
        let can = self.game.legal_set(&pos).iter().any(|k| !self.game.is_pass(k));
        ASKING.set(false);
        can
    }

    /// The option the mover chose among `options` (pits when `pits`, else numbers; `words` name
    /// them when the rules did): the first outside a move; no pit when there is none to choose.
    fn chosen(&self, options: &[i64], pits: bool, words: &[&str]) -> i64 {
        let Some(&first) = options.first() else {
            return if pits { i64::from(NO_PIT) } else { 0 };
        };
        let Some(choices) = self.choices else {
            return first;
        };
        let i = choices.pick(options.len(), |i| {
            if let Some(w) = words.get(i) {
                (*w).to_string()
            } else if pits {
                self.game.choice_name(self.mover, options[i] as Cell)
            } else {
                options[i].to_string()
            }
        });
        options[i]
    }

    fn set_pits<'c>(&self, code: &'c Code, i: u32) -> &'c PitSet {
        &code.sets[i as usize]
    }

    /// The stack machine. The top of the stack lives in `acc`; `stack[..sp]` holds the rest (its
    /// first entry unused).
    fn exec(&self, code: &Code, stack: &mut [i64]) -> i64 {
        let ops = code.ops.as_slice();
        let mut acc: i64 = 0;
        let mut sp = 0usize;
        let mut pc = 0usize;
        macro_rules! push {
            ($v:expr) => {{
                let v = $v;
                stack[sp] = acc;
                sp += 1;
                acc = v;
            }};
        }
        macro_rules! pop {
            () => {{
                sp -= 1;
                stack[sp]
            }};
        }
        while let Some(&op) = ops.get(pc) {
            // The context read through an opaque reference each step: else the compiler hoists
            // every field some op reads out of the loop and, out of registers, spills them all on
            // every run (about 95 instructions a run, where a filter's run is about ten ops).
            let ctx = std::hint::black_box(self);
            pc += 1;
            match op {
                Op::Int(n) => push!(n),
                Op::Reg(r) => push!(i64::from(ctx.reg(r))),
                Op::Mover => push!(ctx.mover.index() as i64),
                Op::Opponent => push!(ctx.mover.other().index() as i64),
                Op::ToMove => push!(ctx.to_move.index() as i64),
                Op::Starter => push!(ctx.starter.index() as i64),
                Op::Flag(f) => push!(i64::from(ctx.flag(f))),
                Op::Lap => push!(i64::from(ctx.lap)),
                Op::InHand => push!(i64::from(ctx.in_hand)),
                Op::LapStart => push!(i64::from(ctx.lap_start)),
                Op::FirstLapEnd => push!(i64::from(ctx.first_lap_end)),
                Op::Seek(i, backward) => {
                    let from = acc as Cell;
                    acc = i64::from(ctx.seek(ctx.set_pits(code, i), from, backward));
                }
                Op::Taken => push!(i64::from(ctx.taken)),
                Op::Lifted => push!(i64::from(ctx.lifted)),
                Op::Unless(other) => {
                    let holds = acc != 0;
                    acc = pop!();
                    if !holds {
                        pc = other as usize;
                    }
                }
                Op::Jump(to) => pc = to as usize,
                Op::Recall(slot, past) => {
                    if let Some(v) = ctx.kept.and_then(|room| room.get(usize::from(slot))).and_then(Kept::get) {
                        push!(v);
                        pc = past as usize;
                    }
                }
                Op::Keep(slot) => {
                    if let Some(kept) = ctx.kept.and_then(|room| room.get(usize::from(slot))) {
                        kept.set(Some(acc));
                    }
                }
                Op::Ply => push!(i64::from(ctx.ply)),
                Op::Round => push!(i64::from(ctx.round)),
                Op::RoundPly => push!(i64::from(ctx.round_ply)),
                Op::Total => push!(ctx.total()),
                Op::CountOf(r) => push!(i64::from(ctx.count(ctx.reg(r)))),
                Op::BeforeOf(r) => push!(i64::from(ctx.before_of(ctx.reg(r)))),
                Op::SideOf(r) => push!(i64::from(ctx.side_code(ctx.reg(r)))),
                Op::CountCell(c) => push!(i64::from(ctx.count(c))),
                Op::SeedsOf(p) => push!(i64::from(ctx.game.row_seeds(ctx.board, p))),
                Op::Count => acc = i64::from(ctx.count(acc as Cell)),
                Op::Before => acc = i64::from(ctx.before_of(acc as Cell)),
                Op::Number => acc = ctx.number(acc as Cell),
                Op::RowOf => acc = ctx.row_of(acc as Cell),
                Op::Relation(r) => acc = i64::from(ctx.related(r, acc as Cell)),
                Op::Along => {
                    let from = pop!() as Cell;
                    acc = i64::from(ctx.along(from, acc));
                }
                Op::PitOf => {
                    let row = pop!();
                    let player = ctx.as_player(pop!());
                    acc = i64::from(ctx.game.in_place(ctx.game.pit_at(player, row, acc)));
                }
                Op::Side => acc = i64::from(ctx.side_code(acc as Cell)),
                Op::Owner => acc = side_value(ctx.owner_of(acc as Cell)),
                Op::Claimed => acc = i64::from(ctx.claimed(acc as Cell)),
                Op::Closed => acc = i64::from(ctx.closed(acc as Cell)),
                Op::Shared => acc = i64::from(c_shared(ctx.game, acc as Cell)),
                Op::Memory(r) => acc = ctx.remembered(r, acc),
                Op::IsStore => acc = i64::from(ctx.is_store(acc as Cell)),
                Op::Opposite => acc = i64::from(ctx.opposite(acc as Cell)),
                Op::Store => acc = i64::from(ctx.game.store(ctx.as_player(acc))),
                Op::Other => acc = ctx.as_player(acc).other().index() as i64,
                Op::Seeds => acc = i64::from(ctx.game.row_seeds(ctx.board, ctx.as_player(acc))),
                Op::CanMove => acc = i64::from(ctx.can_move(ctx.as_player(acc))),
                Op::Captured => acc = i64::from(ctx.count(ctx.game.store(ctx.as_player(acc)))),
                Op::RoundsWon => acc = i64::from(ctx.rounds_won[ctx.as_player(acc).index()]),
                Op::Not => acc = i64::from(acc == 0),
                Op::Neg => acc = acc.saturating_neg(),
                Op::Shr(s) => acc >>= s,
                Op::Mask(m) => acc &= m,
                Op::CmpInt(op, k) => acc = i64::from(op.holds(acc, k)),
                Op::InRangeInt(lo, hi) => acc = i64::from((i64::from(lo)..=i64::from(hi)).contains(&acc)),
                Op::Parity(even) => acc = i64::from((acc % 2 == 0) == even),
                Op::Arith(op) => {
                    let a = pop!();
                    acc = op.apply(a, acc);
                }
                Op::Cmp(op) => {
                    let a = pop!();
                    acc = i64::from(op.holds(a, acc));
                }
                Op::InRange => {
                    let lo = pop!();
                    let x = pop!();
                    acc = i64::from(lo <= x && x <= acc);
                }
                Op::Choose(n, pits, w) => {
                    // The options, then the last of them in `acc`.
                    let n = n as usize;
                    sp -= n - 1;
                    acc = ctx.choose_among(code, &stack[sp..sp + n - 1], acc, pits, w);
                }
                Op::ChooseIn(i) => push!(ctx.set_value(code, SetOp::ChooseIn, i)),
                Op::ChooseRange => {
                    let lo = pop!();
                    let hi = acc;
                    acc = match ctx.choices {
                        // An empty range leaves the mover nothing to answer: no such move.
                        Some(choices) if hi - lo >= MAX_RANGE_CHOICE || hi < lo => {
                            choices.refuse();
                            lo
                        }
                        _ => {
                            let options: Vec<i64> = (lo..=hi).collect();
                            if options.is_empty() { lo } else { ctx.chosen(&options, false, &[]) }
                        }
                    };
                }
                Op::InSet(0) => acc = 0,
                Op::InSet(n) => {
                    // The number, then the items; the last item is `acc`.
                    let n = n as usize;
                    sp -= n;
                    let x = stack[sp];
                    acc = i64::from(acc == x || stack[sp + 1..sp + n].contains(&x));
                }
                Op::AndThen(end) => {
                    if acc == 0 {
                        pc = end as usize;
                    } else {
                        acc = pop!();
                    }
                }
                Op::OrElse(end) => {
                    if acc != 0 {
                        pc = end as usize;
                    } else {
                        acc = pop!();
                    }
                }
                Op::Any(i) => push!(ctx.set_value(code, SetOp::Any, i)),
                Op::Size(i) => push!(ctx.set_value(code, SetOp::Size, i)),
                Op::Sum(i) => push!(ctx.set_value(code, SetOp::Sum, i)),
                Op::Leftmost(i) => push!(ctx.set_value(code, SetOp::Leftmost, i)),
                Op::Rightmost(i) => push!(ctx.set_value(code, SetOp::Rightmost, i)),
            }
        }
        acc
    }

    /// `choose(...)` of a program: the options below the top of the stack (`below`, in order) and
    /// the top (`last`); an option's word is the first given to its value. Out of line, as the set
    /// ops below: the stack machine's loop stays small for the programs every game runs.
    #[inline(never)]
    fn choose_among(&self, code: &Code, below: &[i64], last: i64, pits: bool, w: u32) -> i64 {
        let words = code.words.get(w as usize);
        let mut options: Vec<i64> = Vec::with_capacity(below.len() + 1);
        let mut named: Vec<&str> = Vec::new();
        for (i, &v) in below.iter().chain(std::iter::once(&last)).enumerate() {
            let missing_pit = pits && v == i64::from(NO_PIT);
            if !missing_pit && !options.contains(&v) {
                options.push(v);
                if let Some(words) = words {
                    named.push(&words[i]);
                }
            }
        }
        self.chosen(&options, pits, &named)
    }
}

/// The value of a pit's side or owner: a player's index, or 2 for nobody (a shared pit).
#[inline]
fn side_value(side: Option<Player>) -> i64 {
    side.map_or(2, |p| p.index() as i64)
}

/// Is `c` one of the board's shared pits?
#[inline]
fn c_shared(game: &Game, c: Cell) -> bool {
    c != NO_PIT && game.is_shared(c)
}

/// Where the memory value `r` of the player or pit `owner` lies in a board's memory; `None` for a
/// store or no pit, which keep no memory.
pub(crate) fn memory_index(game: &Game, r: MemoryRef, owner: i64) -> Option<usize> {
    if r.whole_game {
        return Some(r.offset as usize);
    }
    let within = if r.per_pit {
        usize::try_from(owner).ok().filter(|&c| c < game.pit_count())?
    } else {
        // A shared pit's owner is nobody, who keeps no memory.
        usize::try_from(owner).ok().filter(|&p| p < 2)?
    };
    Some(r.offset as usize + within)
}
