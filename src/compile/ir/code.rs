//! A compiled expression ([`Code`]): the stack machine's program, its registers and operations, and the
//! shortcuts the compiler finds for the commonest shapes (a lap table, a test of one cell, a quick
//! action), which the engine runs without the machine.

use super::{MemoryRef, Relation};
use crate::board::{Cell, Player};

/// The most values one program, or the filters of one set, keep ([`Op::Keep`]); any more are
/// worked out where they are read.
pub const MOST_KEPT: usize = 8;

/// A compiled expression: a short program for the engine's stack machine, with the sets of pits it
/// walks. Every value is an `i64`: a number; a truth value as 0 or 1; a player as 0 (south) or 1
/// (north); a pit as its cell, or [`NO_PIT`](super::NO_PIT).
#[derive(Clone, PartialEq)]
pub struct Code {
    /// The program; it leaves one value.
    pub ops: Vec<Op>,
    /// The sets of pits its `Any`, `Size`, ... ops walk.
    pub sets: Vec<PitSet>,
    /// The words naming the options of its `Choose` ops that name them.
    pub words: Vec<Vec<String>>,
    /// The most values on the stack at once.
    pub depth: u32,
    /// Slots for the values the program reads more than once ([`Op::Keep`]), kept for one run.
    /// Derived from `ops`, so left out of `Debug` (which the endgame databases' key reads).
    pub kept: u8,
    /// How the engine answers the condition without running `ops`, when it can (most conditions).
    pub quick: Quick,
    /// For a condition read at the end of a lap (a capture's, a relay's), its answer for each
    /// mover and `last` as counts to compare, where it reads only those ([`LapTable`]). Derived
    /// from the rest, so left out of `Debug` (which the endgame databases' key reads).
    pub lap: Option<Box<LapTable>>,
    /// For a value that reads only the mover, the player to move and the way of the lap (with
    /// sets of pits that read only where a pit lies), its value for each of them, worked out when
    /// first asked ([`Code::by_way`]). Left out of `Debug` too.
    pub by_way: ByWay,
}

/// The values of a [`Code`] for each mover, player to move and way (`[4 * mover + 2 * to_move +
/// clockwise]`), each with whether `leftmost` or `rightmost` found no pit; `None` when it reads
/// more. Every memo is equal to every other: it follows from the code.
#[derive(Debug, Clone, Default)]
pub struct ByWay(pub std::sync::OnceLock<Option<Box<WayValues>>>);

/// The values of [`ByWay`], each with whether `leftmost` or `rightmost` found no pit.
pub type WayValues = [(i64, bool); 8];

impl PartialEq for ByWay {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl std::fmt::Debug for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Code")
            .field("ops", &self.ops)
            .field("sets", &self.sets)
            .field("words", &self.words)
            .field("depth", &self.depth)
            .field("quick", &self.quick)
            .finish()
    }
}

/// A condition at the end of a lap answered without the evaluator: for each mover and cell `last`
/// (`at[mover * cells + last]`), the tests that read where `last` lies answered when the file is
/// compiled, and the ones left as reads of fixed cells to compare ([`CellTest`]).
#[derive(Debug, Clone, PartialEq)]
pub struct LapTable {
    /// The cells of the board (stores included).
    pub cells: usize,
    /// The tests of `tests[first..end]` must all hold; [`LapTable::NEVER`] never holds, and
    /// [`LapTable::GENERAL`] is read by the evaluator.
    pub at: Vec<[u16; 2]>,
    pub tests: Vec<CellTest>,
    /// Whether a test reads claims (else each reads seeds, and is read without asking what).
    pub reads_claims: bool,
    /// The way the lap goes, where the condition tests it (`clockwise`, `not clockwise`): a test
    /// of every cell alike, which fails on the other way.
    pub way: Option<bool>,
    /// Every cell is answered without the evaluator and no test reads claims: a trial sown on a
    /// packed board may read the table alone.
    pub whole: bool,
    /// Where the table is whole, has no test of the way, and every cell's tests read that cell's
    /// own seeds alone (`last.count > 1`, `origin.count < 2`, a place's test): per mover and cell
    /// (as `at`), the answer for each count, bit `count.min(63)` (every count from 63 up answers
    /// alike); empty otherwise. A lap's end or an origin is then one bit of a word.
    pub own: Vec<u64>,
}

impl LapTable {
    pub const NEVER: u16 = u16::MAX;
    pub const GENERAL: u16 = u16::MAX - 1;
}

/// What a fixed cell holds ([`CellRead`]) within fixed bounds (`inside`) / outside them.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CellTest {
    pub cell: Cell,
    pub read: CellRead,
    pub lo: i64,
    pub hi: i64,
    pub inside: bool,
}

/// What a [`CellTest`] reads of its cell.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CellRead {
    Seeds,
    /// The seeds held before the latest seed fell in.
    Before,
    /// Whether a player claimed it, as 0 or 1.
    Claimed,
}

/// A condition in the form the engine answers fastest: one flag, one or two tests, or a longer
/// plain list of tests; else the program is run.
#[derive(Debug, Clone, PartialEq)]
pub enum Quick {
    /// The condition is just this flag being true.
    Flag(Flag),
    /// One test.
    One(Test),
    /// Two tests joined by `and`.
    Both(Test, Test),
    /// Two tests joined by `or`.
    Either(Test, Test),
    /// Three or more tests joined all by `and` or all by `or`.
    Tests(Flat),
    /// Not a plain list of tests (or not a condition): the program is run.
    Run,
}

impl Quick {
    /// The quick form of a condition that is the flag `truth`, or the plain list `flat`.
    pub fn of(truth: Option<Flag>, flat: Option<Flat>) -> Quick {
        if let Some(f) = truth {
            return Quick::Flag(f);
        }
        let Some(flat) = flat else { return Quick::Run };
        match (flat.tests.as_slice(), flat.all) {
            ([t], _) => Quick::One(*t),
            ([a, b], true) => Quick::Both(*a, *b),
            ([a, b], false) => Quick::Either(*a, *b),
            _ => Quick::Tests(flat),
        }
    }

    /// The tests of a condition made of tests joined by `and` (or of one test), if it is one: what
    /// the compiled forms (fast forms, lap tables, an end rule's guard) read of a condition.
    pub fn and_tests(&self) -> Option<Vec<Test>> {
        Some(match self {
            Quick::One(t) => vec![*t],
            Quick::Both(a, b) => vec![*a, *b],
            Quick::Tests(flat) if flat.all => flat.tests.clone(),
            _ => return None,
        })
    }
}

impl Code {
    /// One of its choices names `word` among its options.
    pub fn names_option(&self, word: &str) -> bool {
        self.words.iter().any(|options| options.iter().any(|w| w == word))
    }

    /// A program giving one fixed value.
    pub fn constant(n: i64) -> Code {
        Code {
            ops: vec![Op::Int(n)],
            sets: Vec::new(),
            words: Vec::new(),
            depth: 1,
            kept: 0,
            quick: Quick::Run,
            lap: None,
            by_way: ByWay::default(),
        }
    }

    /// The flag the condition is, when it is just one.
    pub fn truth(&self) -> Option<Flag> {
        match self.quick {
            Quick::Flag(f) => Some(f),
            _ => None,
        }
    }
}

/// A condition that is one test, or tests joined all by `and` or all by `or`.
#[derive(Debug, Clone, PartialEq)]
pub struct Flat {
    /// `true`: every test must hold (`and`); `false`: one is enough (`or`).
    pub all: bool,
    /// The tests, in the order written.
    pub tests: Vec<Test>,
}

/// One test of a [`Flat`] condition.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Test {
    /// Two values compared.
    Cmp(Operand, CmpOp, Operand),
    /// A value within fixed bounds (`true`) / outside them: every comparison with a fixed number
    /// is one of these (`x > 3` is `x in 4..MAX`, `x != 0` is `x` outside `0..0`).
    In(Operand, i64, i64, bool),
    /// A number even (`true`) / odd.
    Parity(Operand, bool),
    /// The side of a pit is (`true`) / is not a player: `last.side == opponent` in one step, the
    /// most common test of a capture rule.
    SideIs(Reg, Who, bool),
    /// The seeds of a pit within fixed bounds (`true`) / outside them: `last.count in 2..3` in one
    /// step.
    CountIn(Reg, i64, i64, bool),
    /// The seeds a pit held before the latest seed fell in, within fixed bounds / outside them.
    BeforeIn(Reg, i64, i64, bool),
    /// The seeds of the pit across, within fixed bounds / outside them.
    OppositeCountIn(Reg, i64, i64, bool),
    /// The seeds of a pit are even (`true`) / odd: `pit.count is even` in one step.
    CountEven(Reg, bool),
    /// The seeds of the pit across are even (`true`) / odd.
    OppositeCountEven(Reg, bool),
    /// The seeds in a player's row, within fixed bounds / outside them.
    RowSeedsIn(Player, i64, i64, bool),
    /// A pit is (`true`) / is not a store.
    StoreIs(Reg, bool),
    /// A pit is (`true`) / is not a player's store: `last == store(mover)`.
    IsStoreOf(Reg, Who, bool),
    /// A flag is set (`true`) / is not.
    FlagIs(Flag, bool),
    /// The set of pits at this index of the condition's `sets` has a pit (`true`) / has none:
    /// `any(row(mover) where pit.count > 1)`.
    AnyIn(u32, bool),
}

/// A truth value of the state of play that conditions read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Flag {
    /// `final`.
    Final = 0,
    /// `no_moves`.
    NoMoves = 1,
    /// `can_feed`.
    CanFeed = 2,
    /// `repeated`.
    Repeated = 3,
    /// `clockwise`.
    Clockwise = 4,
}

/// A value a [`Test`] reads directly, in one step: each common way to name a value has its own
/// variant (`last.count` is `Count(Last)`, `captured(south)` is the seeds of a fixed cell).
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Operand {
    /// A fixed number (truth value, player as 0/1, pit as its cell).
    Int(i64),
    /// A flag of the state of play (`final`, `no_moves`, `can_feed`, `repeated`), as 0 or 1.
    Flag(Flag),
    /// The lap number.
    Lap,
    /// The moves played.
    Ply,
    /// The round number.
    Round,
    /// Every seed on the board, divided by 2^s (rounding down).
    Total(u32),
    /// The seeds in a fixed cell (such as a store).
    CountCell(Cell),
    /// The seeds in a fixed player's row.
    SeedsRow(Player),
    /// Every seed in the pits of the board (`sum(board)`).
    SeedsBoard,
    /// The rounds a fixed player won.
    RoundsWonBy(Player),
    /// The pit `last`, `origin` or `pit`.
    Reg(Reg),
    /// Its seeds.
    Count(Reg),
    /// Its seeds before the latest seed fell in.
    Before(Reg),
    /// Its row player.
    Side(Reg),
    /// Its row's number (`pit.row`): a test of where a pit lies, answered before the game by the
    /// fast form.
    RowOf(Reg),
    /// Whether it is claimed.
    Claimed(Reg),
    /// Whether it is a store.
    IsStore(Reg),
    /// The pit across from it.
    Opposite(Reg),
    /// The seeds across from it.
    CountOpposite(Reg),
    /// The seeds across from it before the latest seed fell in.
    BeforeOpposite(Reg),
    /// The row player across from it.
    SideOpposite(Reg),
    /// Whether the pit across from it is claimed.
    ClaimedOpposite(Reg),
    /// A player named by the move (as 0/1).
    Who(Who),
    /// That player's store (a pit).
    StoreOf(Who),
    /// The seeds in that player's store.
    CapturedBy(Who),
    /// The seeds in that player's row.
    SeedsOf(Who),
    /// The rounds that player won.
    RoundsWon(Who),
}

/// A player named by the move in progress. The numbering lets the engine find the player without
/// a branch: bit 1 chooses the mover or the player to move, bit 0 the other player.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Who {
    /// The mover.
    Mover = 0,
    /// The mover's opponent.
    Opponent = 1,
    /// The player to move.
    ToMove = 2,
    /// The other player than the one to move.
    NotToMove = 3,
}

/// A set of pits: a row or the whole board, then filters, each a condition on `pit`.
#[derive(Clone)]
pub struct PitSet {
    /// `Some(player)` = that row; `None` = the whole board.
    pub row: Option<Code>,
    /// `where` filters, applied in order.
    pub filters: Vec<Code>,
    /// Slots for the values the filters read that are the same for every pit ([`Op::Keep`]),
    /// kept for one walk of the set. Derived from the filters' ops, so left out of `Debug`.
    pub kept: u8,
    /// Derived from the two above by the engine the first time the set is walked: where the row
    /// and the first filters read only where a pit lies and who moves, the pits that pass them
    /// (see `Ctx::each_in_set`). Not part of the rules: left out of comparisons and of `Debug`
    /// (which the endgame databases' key reads).
    pub fixed: std::sync::OnceLock<Option<FixedPits>>,
}

impl PitSet {
    pub fn new(row: Option<Code>, filters: Vec<Code>, kept: u8) -> PitSet {
        PitSet {
            row,
            filters,
            kept,
            fixed: std::sync::OnceLock::new(),
        }
    }
}

impl PartialEq for PitSet {
    fn eq(&self, other: &Self) -> bool {
        self.row == other.row && self.filters == other.filters
    }
}

impl std::fmt::Debug for PitSet {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("PitSet")
            .field("row", &self.row)
            .field("filters", &self.filters)
            .finish()
    }
}

/// The pits of a [`PitSet`] that pass its row and its first `filters` filters, which read only
/// where a pit lies and who moves: in the set's order, for each mover and player to move
/// (`cells[2 * mover + to_move]`). The filters after those are read as the set is walked.
#[derive(Debug, Clone)]
pub struct FixedPits {
    pub cells: [Vec<Cell>; 4],
    pub filters: usize,
}

impl PitSet {
    /// Might walking the set read the board (see [`Code::reads_board`])?
    pub fn reads_board(&self) -> bool {
        self.row.as_ref().is_some_and(Code::reads_board) || self.filters.iter().any(Code::reads_board)
    }
}

impl Code {
    /// Might the value read the board: a pit's seeds (before the latest seed too), claims,
    /// closures, memory, a row's or the board's seeds, or the moves a player has? False only when
    /// every op is one known to read none of them (where pits lie, the pits and state of the move).
    pub fn reads_board(&self) -> bool {
        self.sets.iter().any(PitSet::reads_board)
            || !self.ops.iter().all(|op| match op {
                Op::Relation(r) => matches!(r, Relation::Behind | Relation::InFront | Relation::NextAny | Relation::PreviousAny),
                Op::Int(_)
                | Op::Reg(_)
                | Op::SideOf(_)
                | Op::Mover
                | Op::Opponent
                | Op::ToMove
                | Op::Starter
                | Op::Flag(_)
                | Op::Lap
                | Op::Taken
                | Op::Lifted
                | Op::InHand
                | Op::LapStart
                | Op::FirstLapEnd
                | Op::Ply
                | Op::Round
                | Op::RoundPly
                | Op::Unless(_)
                | Op::Jump(_)
                | Op::Recall(..)
                | Op::Keep(_)
                | Op::Number
                | Op::RowOf
                | Op::PitOf
                | Op::Side
                | Op::Shared
                | Op::IsStore
                | Op::Opposite
                | Op::Store
                | Op::Other
                | Op::Not
                | Op::Neg
                | Op::Shr(_)
                | Op::Mask(_)
                | Op::CmpInt(..)
                | Op::InRangeInt(..)
                | Op::Parity(_)
                | Op::Arith(_)
                | Op::Cmp(_)
                | Op::InRange
                | Op::InSet(_)
                | Op::AndThen(_)
                | Op::OrElse(_)
                | Op::Choose(..)
                | Op::ChooseIn(_)
                | Op::ChooseRange
                | Op::Any(_)
                | Op::Size(_)
                | Op::Leftmost(_)
                | Op::Rightmost(_) => true,
                _ => false,
            })
    }

    /// Does the value read nothing but the mover, the player to move and the way of the lap, with
    /// sets of pits whose row and filters read only where a pit lies ([`Code::by_way`])?
    pub fn reads_only_way(&self) -> bool {
        self.sets
            .iter()
            .all(|s| s.row.as_ref().is_none_or(Code::reads_only_places) && s.filters.iter().all(Code::reads_only_places))
            && self.ops.iter().all(|op| {
                matches!(
                    op,
                    Op::Int(_)
                        | Op::Mover
                        | Op::Opponent
                        | Op::ToMove
                        | Op::Flag(Flag::Clockwise)
                        | Op::Unless(_)
                        | Op::Jump(_)
                        | Op::Recall(..)
                        | Op::Keep(_)
                        | Op::Not
                        | Op::Other
                        | Op::Leftmost(_)
                        | Op::Rightmost(_)
                )
            })
    }

    /// Does the value read the pit `pit`? In a set's row, that is the pit of a walk around the
    /// set's own, which changes as that walk goes on.
    pub fn reads_pit(&self) -> bool {
        self.ops.iter().any(|op| {
            matches!(
                op,
                Op::Reg(Reg::Pit) | Op::SideOf(Reg::Pit) | Op::CountOf(Reg::Pit) | Op::BeforeOf(Reg::Pit)
            )
        })
    }

    /// Does the value read nothing but where the pit `pit` lies on the board, the mover and the
    /// player to move, and fixed values (no seeds, no state of play, no other pit of the move)?
    pub fn reads_only_places(&self) -> bool {
        self.sets.is_empty()
            && self.ops.iter().all(|op| match op {
                Op::Reg(r) | Op::SideOf(r) => *r == Reg::Pit,
                Op::Relation(r) => matches!(r, Relation::Behind | Relation::InFront),
                Op::Int(_)
                | Op::Mover
                | Op::Opponent
                | Op::ToMove
                | Op::Unless(_)
                | Op::Jump(_)
                | Op::Recall(..)
                | Op::Keep(_)
                | Op::Number
                | Op::RowOf
                | Op::PitOf
                | Op::Side
                | Op::Shared
                | Op::IsStore
                | Op::Opposite
                | Op::Store
                | Op::Other
                | Op::Not
                | Op::Neg
                | Op::Shr(_)
                | Op::Mask(_)
                | Op::CmpInt(..)
                | Op::InRangeInt(..)
                | Op::Parity(_)
                | Op::Arith(_)
                | Op::Cmp(_)
                | Op::InRange
                | Op::InSet(_)
                | Op::AndThen(_)
                | Op::OrElse(_) => true,
                _ => false,
            })
    }
}

/// A pit the move in progress names (its number is its place in the engine's list of them).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Reg {
    /// The last pit of the lap.
    Last = 0,
    /// The origin.
    Origin = 1,
    /// The pit looked at.
    Pit = 2,
}

/// One step of a [`Code`]. "Push" ops put a value on the stack; the others replace the values they
/// take (the top last) by their result.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Op {
    /// Push a number (or a fixed truth value, player or pit).
    Int(i64),
    /// Push the pit `last`, `origin` or `pit`.
    Reg(Reg),
    /// Push the mover.
    Mover,
    /// Push the mover's opponent.
    Opponent,
    /// Push the player to move.
    ToMove,
    /// Push the player who began the game.
    Starter,
    /// Push a flag of the state of play, as 0 or 1.
    Flag(Flag),
    /// Push the lap number.
    Lap,
    /// Push the seeds taken by this move's rules so far.
    Taken,
    /// Push the seeds picked up to start the current lap.
    Lifted,
    /// Push the seeds still in hand.
    InHand,
    /// Push the pit the current lap started from.
    LapStart,
    /// Push the pit where the move's first lap ended.
    FirstLapEnd,
    /// Replace the pit on top by the first pit after it (before it, with the flag) along the track
    /// that is in the set given (its filters read with `pit` naming each pit looked at).
    Seek(u32, bool),
    /// Drop the condition on top; when it was false, go on at the op given (the `else` value).
    Unless(u32),
    /// Go on at the op given.
    Jump(u32),
    /// When the kept value of the slot given is known, push it and go on at the op given (past the
    /// [`Op::Keep`] that ends the value's own ops); else go on, to work it out.
    Recall(u8, u32),
    /// Keep the value on top in the slot given, for the [`Op::Recall`]s after it.
    Keep(u8),
    /// Push the moves played.
    Ply,
    /// Push the round number.
    Round,
    /// Push the moves played in this round.
    RoundPly,
    /// Push every seed on the board.
    Total,
    /// Push the seeds in `last`, `origin` or `pit`.
    CountOf(Reg),
    /// Push the seeds `before` the latest seed in `last`, `origin` or `pit`.
    BeforeOf(Reg),
    /// Push the row player of `last`, `origin` or `pit`.
    SideOf(Reg),
    /// Push the seeds in a fixed cell (such as a store).
    CountCell(Cell),
    /// Push the seeds in a fixed player's row.
    SeedsOf(Player),
    /// Pit → its seeds.
    Count,
    /// Pit → its seeds before the latest seed fell in.
    Before,
    /// Pit → its number in its row.
    Number,
    /// Pit → its row (1 for the front row).
    RowOf,
    /// Pit → a pit next to it (no pit when there is none).
    Relation(Relation),
    /// Pit, steps → the pit that many places along the track (back for fewer than 0).
    Along,
    /// Player, row, number → that player's pit (no pit when the board has none there).
    PitOf,
    /// Pit → its row's player.
    Side,
    /// Pit → its owner.
    Owner,
    /// Pit → claimed?
    Claimed,
    /// Pit → closed?
    Closed,
    /// Pit → nobody's?
    Shared,
    /// Player or pit → its memory value.
    Memory(MemoryRef),
    /// Pit → a store?
    IsStore,
    /// Pit → the pit across.
    Opposite,
    /// Player → their store.
    Store,
    /// Player → the other player.
    Other,
    /// Player → the seeds in their row.
    Seeds,
    /// Pops a player: would they have a legal move on this board?
    CanMove,
    /// Player → the seeds in their store.
    Captured,
    /// Player → the rounds they won.
    RoundsWon,
    /// Truth value → its negation.
    Not,
    /// Number → minus it.
    Neg,
    /// Number → divided by 2^s, rounding down.
    Shr(u32),
    /// Number → its remainder by 2^s (masked).
    Mask(i64),
    /// Number → compared with a fixed number.
    CmpInt(CmpOp, i64),
    /// Number → within fixed bounds?
    InRangeInt(i32, i32),
    /// Number → even (`true`) / odd?
    Parity(bool),
    /// Two numbers → one.
    Arith(ArithOp),
    /// Two values of one type → compared (players and pits only for `Eq`, `Ne`).
    Cmp(CmpOp),
    /// Number, low, high → `low <= number <= high`?
    InRange,
    /// Number and `n` more → the number is one of them?
    InSet(u32),
    /// Pop that many values (pits when the flag says so) and push the one the mover chooses among
    /// them; the options' words are the code's `words` at the last index (none past its end).
    Choose(u32, bool, u32),
    /// Push the pit the mover chooses of a set.
    ChooseIn(u32),
    /// Pop the highest number and the lowest, and push the one the mover chooses between them.
    ChooseRange,
    /// `and`: a false top ends the condition at the given op (keeping false); else it is dropped.
    AndThen(u32),
    /// `or`: a true top ends the condition at the given op (keeping true); else it is dropped.
    OrElse(u32),
    /// Push whether the set (by index) has a pit.
    Any(u32),
    /// Push the number of pits of the set.
    Size(u32),
    /// Push the seeds in the set.
    Sum(u32),
    /// Push the set's leftmost pit (or none).
    Leftmost(u32),
    /// Push the set's rightmost pit (or none).
    Rightmost(u32),
}

// The evaluator's loop reads an op's every field before it dispatches: a 24-byte op cost it a
// third load and a multiply a step.
const _: () = assert!(std::mem::size_of::<Op>() == 16, "an op fits in 16 bytes");

/// Comparisons of numbers.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CmpOp {
    /// Equal.
    Eq,
    /// Not equal.
    Ne,
    /// Less.
    Lt,
    /// Less or equal.
    Le,
    /// Greater.
    Gt,
    /// Greater or equal.
    Ge,
}

impl CmpOp {
    /// Compares `a` with `b`.
    #[inline]
    pub fn holds(self, a: i64, b: i64) -> bool {
        match self {
            CmpOp::Eq => a == b,
            CmpOp::Ne => a != b,
            CmpOp::Lt => a < b,
            CmpOp::Le => a <= b,
            CmpOp::Gt => a > b,
            CmpOp::Ge => a >= b,
        }
    }
    /// The comparison with its sides swapped (`a < b` is `b > a`).
    pub fn swapped(self) -> CmpOp {
        match self {
            CmpOp::Lt => CmpOp::Gt,
            CmpOp::Le => CmpOp::Ge,
            CmpOp::Gt => CmpOp::Lt,
            CmpOp::Ge => CmpOp::Le,
            op => op,
        }
    }
}

/// Arithmetic on numbers; it saturates instead of overflowing.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ArithOp {
    /// Plus.
    Add,
    /// Minus.
    Sub,
    /// Times.
    Mul,
    /// Division rounding down.
    Div,
    /// Remainder.
    Rem,
}

impl ArithOp {
    /// `a op b`.
    #[inline]
    pub fn apply(self, a: i64, b: i64) -> i64 {
        match self {
            ArithOp::Add => a.saturating_add(b),
            ArithOp::Sub => a.saturating_sub(b),
            ArithOp::Mul => a.saturating_mul(b),
            // Division by zero has no sensible count; it gives 0 rather than stopping the game.
            // (`checked_`: the smallest number divided by -1 overflows; it gives 0 as well.)
            ArithOp::Div => a.checked_div_euclid(b).unwrap_or(0),
            ArithOp::Rem => a.checked_rem_euclid(b).unwrap_or(0),
        }
    }
}
