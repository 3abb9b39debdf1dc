//! The rules of a fast form one by one: capture rules, triggers and `forbid` rules recognised from
//! the compiled rules, and the conditions they are made of (one-step tests of a cell, answered before
//! the game for every cell and count).

use super::LANES;
use crate::board::{Cell, NO_PIT, Player};
use crate::compile::ir::{Action, Code, Game, Op, Operand, PitsExpr, Receiver, Reg, Relation, Test, Then, Who};

/// A capture rule in fast form.
#[derive(Debug, Clone)]
pub struct FastCapture<const L: usize = LANES> {
    /// Its condition, of `last`.
    pub when: CellCond,
    /// The pits taken, in order: per cell `last`, the pit taken (0xFF for none), found from `last`
    /// by the pit across, the pit behind or in front, in the order written.
    pub takes: Vec<[u8; L]>,
    /// Per cell `last`, the pits of `takes` (bit `c` for pit `c`; the stores left out): a wide
    /// board's capture empties them by the bits of one number, where the list of tables was walked
    /// (its set-up about 15 instructions a capture).
    pub taken: [u64; L],
    /// The seeds taken are sown again at once, from the pit after `last` along the mover's track
    /// (`sow taken` as written alone), instead of going to the mover's store.
    pub sows_again: bool,
    /// The series from the first pit taken, if any.
    pub series: Option<FastSeries>,
    /// Tests of sets of pits (`any(board where ...)`), all of which must hold besides `when`.
    pub sets: Vec<SetTest>,
    /// Sets of pits taken (`take board where ...`), found on the board as the rule fires.
    pub take_sets: Vec<SetTest>,
    /// The rule takes a pit or a set.
    pub takes_any: bool,
    /// What happens next.
    pub then: Then,
}

impl<const L: usize> FastCapture<L> {
    /// Does the rule test or take sets of pits (`any(board where ...)`, `take board where ...`)?
    pub fn reads_sets(&self) -> bool {
        !self.sets.is_empty() || !self.take_sets.is_empty()
    }
}

/// A trigger in fast form: after a seed falls into a pit, where its condition holds (and the seed is
/// the lap's last or not, as it asks), every seed of the pit goes to a store.
#[derive(Debug, Clone)]
pub struct FastTrigger {
    /// Its condition, of `pit` (the count after the seed).
    pub when: CellCond,
    /// It may hold on the lap's last seed (`final`, or no test of it).
    pub at_final: bool,
    /// It may hold on another seed (`not final`, or no test of it).
    pub at_middle: bool,
    /// The seeds go to the pit's owner (`to owner`), else to the mover.
    pub to_owner: bool,
}

/// A trigger that tests `pit` in one step each and `final`, and takes `pit` to the mover or its owner.
pub(super) fn trigger(game: &Game, rule: &crate::compile::ir::Rule) -> Option<FastTrigger> {
    let (finals, tests): (Vec<Test>, Vec<Test>) = rule
        .when
        .quick
        .and_tests()?
        .into_iter()
        .partition(|t| matches!(t, Test::FlagIs(crate::compile::ir::Flag::Final, _)));
    let (mut at_final, mut at_middle) = (true, true);
    for t in finals {
        if let Test::FlagIs(_, is) = t {
            at_final &= is;
            at_middle &= !is;
        }
    }
    let to_owner = match rule.actions.as_slice() {
        [Action::Take { pits, to, series: None }] if matches!(pits.as_slice(), [PitsExpr::Pit(c)] if c.ops == [Op::Reg(Reg::Pit)]) => {
            match to {
                Receiver::Owner => true,
                Receiver::Player(p) if p.ops == [Op::Mover] => false,
                _ => return None,
            }
        }
        _ => return None,
    };
    Some(FastTrigger {
        when: cell_cond(game, &tests, Reg::Pit)?,
        at_final,
        at_middle,
        to_owner,
    })
}

/// A plain series: one way, every pit, while all tests hold.
#[derive(Debug, Clone)]
pub struct FastSeries {
    /// Along the sowing (else against it).
    pub forward: bool,
    /// Its condition, of the pit looked at.
    pub cond: CellCond,
}

/// A condition made of one-step tests of a cell (`last`, or the pit a series looks at), answered
/// before the game for every cell and count: it holds when the cell's bit is set in `at` (the tests
/// of where the cell lies), its count's bit in `count` and the count across's bit in `across`.
#[derive(Debug, Clone, PartialEq)]
pub struct CellCond {
    /// Per mover, the cells where the tests of place hold.
    pub at: [u64; 2],
    /// The counts (0 to 255) with which the tests of the cell's count hold.
    pub count: [u64; 4],
    /// The counts of the pit across (0 for none) with which its tests hold.
    pub across: [u64; 4],
    /// The counts of `count` as one range `lo..=hi`, when they are one: the cells where the
    /// condition holds are then found for the whole board at once.
    pub range: Option<(u8, u8)>,
    /// Every count across passes (the tests do not look across).
    pub any_across: bool,
    /// The counts and the counts across as ranges of one parity or both, when they are: the cells
    /// where the condition holds are then found for the whole board with a few operations on its
    /// lanes (the sets of pits of `any(board where pit.count is even ...)`).
    pub whole: Option<WholeBoard>,
}

/// A condition's counts as a range of one parity or both ([`CellCond::whole`]).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct WholeBoard {
    /// The counts of the cell.
    pub count: CountShape,
    /// The counts of the pit across, unless every count passes.
    pub across: Option<CountShape>,
}

/// The counts `lo..=hi`, all of them or only the odd (`Some(true)`) or even (`Some(false)`) ones.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct CountShape {
    /// Lowest count.
    pub lo: u8,
    /// Highest count.
    pub hi: u8,
    /// Odd counts only, or even ones only.
    pub odd: Option<bool>,
}

impl CountShape {
    /// The set of counts `set` as a shape, if it is one.
    fn of(set: &[u64; 4]) -> Option<CountShape> {
        let has = |n: u32| has_count(set, n);
        let lo = (0..256).find(|&n| has(n))?;
        let hi = (lo..256).rev().find(|&n| has(n))?;
        [None, Some(true), Some(false)].into_iter().find_map(|odd| {
            let shaped = |n: u32| (lo..=hi).contains(&n) && odd.is_none_or(|odd| (n % 2 == 1) == odd);
            (0..256).all(|n| has(n) == shaped(n)).then_some(CountShape {
                lo: lo as u8,
                hi: hi as u8,
                odd,
            })
        })
    }
}

impl CellCond {
    /// The condition that holds nowhere: every test's cells and counts still to be set.
    pub(super) const NOWHERE: CellCond = CellCond {
        at: [0; 2],
        count: [0; 4],
        across: [0; 4],
        range: None,
        any_across: false,
        whole: None,
    };

    /// The condition that holds where both hold.
    fn and(self, other: &CellCond) -> CellCond {
        let both = |a: [u64; 4], b: [u64; 4]| -> [u64; 4] { std::array::from_fn(|i| a[i] & b[i]) };
        CellCond {
            at: [self.at[0] & other.at[0], self.at[1] & other.at[1]],
            count: both(self.count, other.count),
            across: both(self.across, other.across),
            range: None,
            any_across: false,
            whole: None,
        }
        .with_shapes()
    }

    pub(super) fn with_shapes(mut self) -> CellCond {
        let has = |n: u32| has_count(&self.count, n);
        let lo = (0..256).find(|&n| has(n));
        self.range = lo.and_then(|lo| {
            let hi = (lo..256).take_while(|&n| has(n)).last()?;
            (hi + 1..256).all(|n| !has(n)).then_some((lo as u8, hi as u8))
        });
        self.any_across = self.across == [u64::MAX; 4];
        self.whole = CountShape::of(&self.count).and_then(|count| {
            let across = if self.any_across {
                None
            } else {
                Some(CountShape::of(&self.across)?)
            };
            Some(WholeBoard { count, across })
        });
        self
    }
}

/// A `forbid` rule of the fast form: where every test of a set holds, the pits where `origin` holds
/// are not played.
#[derive(Debug, Clone)]
pub struct FastForbid {
    /// The tests of the origin.
    pub origin: CellCond,
    /// The tests of sets of pits (`any(row(mover) where pit.count > 1)`).
    pub sets: Vec<SetTest>,
}

impl FastForbid {
    /// The fewest seeds a pit holds that this rule leaves playable, when it forbids the pits of
    /// small counts alone (`origin.count == 1`, `origin.count < 3`): no set of pits, no test of the
    /// pit across, its counts one range from 1 or 0, and every pit of either player's row (`rows`)
    /// tested. The candidates are then the pits holding at least that many.
    pub fn floor(&self, rows: [u64; 2]) -> Option<u8> {
        let cond = &self.origin;
        match cond.range {
            Some((lo, hi)) if self.sets.is_empty() && cond.any_across && lo <= 1 && hi < u8::MAX => {
                (0..2).all(|p| cond.at[p] & rows[p] == rows[p]).then_some(hi + 1)
            }
            _ => None,
        }
    }
}

/// A `forbid` rule read after the move (`lap > 1 and seeds(opponent) == 0`), in a game whose moves
/// are all sown to be judged (relays): where every test holds of the move as sown, it is not legal.
#[derive(Debug, Clone, PartialEq)]
pub struct FastAfterForbid {
    /// Tests of the laps the move sowed: within `lo..=hi`, `== inside`.
    pub laps: Vec<(i64, i64, bool)>,
    /// Tests of the seeds of a row on the board after the move.
    pub rows: Vec<RowTest>,
}

/// The seeds of a row within `lo..=hi`, `== inside`.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RowTest {
    /// Per mover, the player whose row it is.
    pub row: [Player; 2],
    /// Lowest count.
    pub lo: i64,
    /// Highest count.
    pub hi: i64,
    /// The test holds inside the bounds (else outside them).
    pub inside: bool,
}

/// Whether a set of pits has one (`has`) or none.
#[derive(Debug, Clone)]
pub struct SetTest {
    /// Per mover, the cells of the set's row (every pit when it names none).
    pub row: [u64; 2],
    /// The set's filters, as conditions of the pit.
    pub filters: Vec<CellCond>,
    /// The test holds when the set has a pit (else when it has none).
    pub has: bool,
}

/// Is `n` in the set of counts?
#[inline(always)]
pub fn has_count(set: &[u64; 4], n: u32) -> bool {
    set[(n >> 6) as usize & 3] >> (n & 63) & 1 != 0
}

/// A one-step test of a cell.
#[derive(Debug, Clone, Copy, PartialEq)]
enum CellTest {
    /// Its side is the mover's (`false`: the opponent's), `== is`.
    SideIsMover(bool, bool),
    /// Its count within `lo..=hi`, `== inside`.
    CountIn(i64, i64, bool),
    /// Its count before the last seed within `lo..=hi`, `== inside`.
    BeforeIn(i64, i64, bool),
    /// The count of the pit across within `lo..=hi`, `== inside`.
    AcrossIn(i64, i64, bool),
    /// Its count is even, `== even`.
    CountEven(bool),
    /// The count across is even, `== even`.
    AcrossEven(bool),
    /// It is a store, `== is`.
    IsStore(bool),
    /// It is the store of the mover (`false`: the opponent), `== is`.
    IsStoreOfMover(bool, bool),
    /// Its row's number within `lo..=hi`, `== inside`.
    RowIn(i64, i64, bool),
}

/// A capture rule in fast form, if it has the shape.
pub(super) fn capture<const L: usize>(game: &Game, rule: &crate::compile::ir::Rule, on_track: [u64; 2]) -> Option<FastCapture<L>> {
    let (set_tests, tests): (Vec<Test>, Vec<Test>) = rule.when.quick.and_tests()?.into_iter().partition(|t| matches!(t, Test::AnyIn(..)));
    let when = cell_cond(game, &tests, Reg::Last)?;
    let sets = sets_of(game, &rule.when, &set_tests)?;
    let mut take_sets = Vec::new();
    let mut takes = Vec::new();
    let mut series = None;
    let mut sows_again = false;
    let take = match rule.actions.as_slice() {
        [] => None,
        [take @ Action::Take { .. }] => Some(take),
        [
            take @ Action::Take { to: Receiver::Hand, .. },
            Action::SowTaken {
                pit: None,
                after: false,
                cw: None,
                chosen_way: false,
                lift: false,
            },
        ] => {
            sows_again = true;
            Some(take)
        }
        _ => return None,
    };
    if let Some(Action::Take { pits, to, series: s }) = take {
        match to {
            Receiver::Player(to) if to.ops == [Op::Mover] && !sows_again => {}
            Receiver::Hand if sows_again && s.is_none() => {}
            _ => return None,
        }
        for p in pits {
            let code = match p {
                // A set of pits taken into the mover's store, found with masks.
                PitsExpr::Set(set) if !sows_again && s.is_none() => {
                    take_sets.push(set_test(game, set, true)?);
                    continue;
                }
                PitsExpr::Set(_) => return None,
                PitsExpr::Pit(code) => code,
            };
            let [Op::Reg(Reg::Last), steps @ ..] = code.ops.as_slice() else {
                return None;
            };
            // The pit taken for every cell `last` may be, found as the engine finds it.
            let mut map = [0xFFu8; L];
            for (c, to) in map.iter_mut().enumerate().take(game.pit_count() + 2) {
                let mut at = c as Cell;
                for op in steps {
                    at = match op {
                        _ if at == NO_PIT => NO_PIT,
                        Op::Opposite => game.opposite(at),
                        Op::Relation(Relation::Behind) => game.behind(at).unwrap_or(NO_PIT),
                        Op::Relation(Relation::InFront) => game.in_front(at).unwrap_or(NO_PIT),
                        _ => return None,
                    };
                }
                *to = if at == NO_PIT { 0xFF } else { at as u8 };
            }
            takes.push(map);
        }
        if let Some(s) = s {
            if !s.plain {
                return None;
            }
            series = Some(FastSeries {
                forward: s.forward,
                cond: cell_tests(game, &s.cond, Reg::Pit)?,
            });
        }
    }
    // The fast form takes pits only: a rule that could take a store (a lap ending in one, on the
    // mover's track) is left to the general engine, which moves those seeds; but for the mover's
    // own store taken into itself, which changes nothing.
    let pits = game.pit_count();
    let takes_store = Player::BOTH.into_iter().any(|m| {
        let own = game.store(m) as usize;
        (0..pits + 2).any(|c| {
            when.at[m.index()] >> c & 1 != 0
                && on_track[m.index()] >> c & 1 != 0
                && takes.iter().any(|map| {
                    let to = usize::from(map[c]);
                    map[c] != 0xFF && to >= pits && (to != own || sows_again)
                })
        })
    });
    if takes_store {
        return None;
    }
    if rule.then == Then::Continue || rule.then == Then::End || rule.then == Then::AnotherMove {
        Some(FastCapture {
            when,
            takes_any: !takes.is_empty() || !take_sets.is_empty(),
            taken: std::array::from_fn(|c| {
                takes
                    .iter()
                    .map(|map| usize::from(map[c]))
                    .filter(|&to| to < pits)
                    .fold(0, |cells, to| cells | 1 << to)
            }),
            takes,
            sows_again,
            series,
            sets,
            take_sets,
            then: rule.then,
        })
    } else {
        None
    }
}

/// A condition made of one-step tests of the cell `reg`, all of which must hold, answered for
/// every cell and count.
pub(super) fn cell_tests(game: &Game, code: &Code, reg: Reg) -> Option<CellCond> {
    cell_cond(game, &code.quick.and_tests()?, reg)
}

/// A `forbid` rule's condition: one-step tests of the origin, and tests of whether sets of pits
/// whose filters are one-step tests of `pit` have one, all joined by `and`.
pub(super) fn forbid(game: &Game, code: &Code) -> Option<FastForbid> {
    let (sets, origin): (Vec<Test>, Vec<Test>) = code.quick.and_tests()?.into_iter().partition(|t| matches!(t, Test::AnyIn(..)));
    let sets = sets_of(game, code, &sets)?;
    Some(FastForbid {
        origin: cell_cond(game, &origin, Reg::Origin)?,
        sets,
    })
}

/// A `forbid` rule read after the move: tests of `lap` and of the seeds of rows, joined by `and`.
/// The move's mover is the player to move (the position before it is the one judged).
pub(super) fn after_forbid(code: &Code) -> Option<FastAfterForbid> {
    let mut rule = FastAfterForbid {
        laps: Vec::new(),
        rows: Vec::new(),
    };
    for t in code.quick.and_tests()? {
        // Per mover, whose row `seeds(WHO)` reads.
        let row_of = |of: Who| -> [Player; 2] {
            Player::BOTH.map(|m| match of {
                Who::Mover | Who::ToMove => m,
                Who::Opponent | Who::NotToMove => m.other(),
            })
        };
        match t {
            Test::In(Operand::Lap, lo, hi, inside) => rule.laps.push((lo, hi, inside)),
            Test::In(Operand::SeedsOf(w), lo, hi, inside) => rule.rows.push(RowTest {
                row: row_of(w),
                lo,
                hi,
                inside,
            }),
            Test::RowSeedsIn(p, lo, hi, inside) => rule.rows.push(RowTest {
                row: [p, p],
                lo,
                hi,
                inside,
            }),
            _ => return None,
        }
    }
    Some(rule)
}

/// The tests `any(SET)` / `not any(SET)` of a condition (`code`'s sets).
fn sets_of(game: &Game, code: &Code, tests: &[Test]) -> Option<Vec<SetTest>> {
    tests
        .iter()
        .map(|t| {
            let Test::AnyIn(i, has) = *t else { return None };
            set_test(game, code.sets.get(i as usize)?, has)
        })
        .collect()
}

/// A set of pits whose row is the board, the mover's or the opponent's, and whose filters are
/// one-step tests of `pit`.
fn set_test(game: &Game, set: &crate::compile::ir::PitSet, has: bool) -> Option<SetTest> {
    let cells = |q: Player| game.row(q).fold(0u64, |cells, c| cells | 1 << c);
    let row = |p: Player| -> Option<u64> {
        Some(match set.row.as_ref().map(|r| r.ops.as_slice()) {
            None => cells(Player::South) | cells(Player::North),
            // A forbid rule is read before the move, a capture during it: the mover is the player
            // to move.
            Some([Op::Mover] | [Op::ToMove]) => cells(p),
            Some([Op::Opponent] | [Op::Mover | Op::ToMove, Op::Other]) => cells(p.other()),
            Some(_) => return None,
        })
    };
    Some(SetTest {
        row: [row(Player::South)?, row(Player::North)?],
        // The filters as one condition: each is a conjunction of tests of the pit, and so is their
        // conjunction (one pass over the board, with its counts' shape for the whole board).
        filters: set
            .filters
            .iter()
            .map(|f| cell_tests(game, f, Reg::Pit))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .reduce(|all, one| all.and(&one))
            .into_iter()
            .collect(),
        has,
    })
}

/// One-step tests of the cell `reg`, all of which must hold, answered for every cell and count.
fn cell_cond(game: &Game, tests: &[Test], reg: Reg) -> Option<CellCond> {
    let tests: Vec<CellTest> = tests.iter().map(|t| cell_test(t, reg)).collect::<Option<_>>()?;
    let pits = game.pit_count();
    let within = |n: u32, lo: i64, hi: i64| (lo..=hi).contains(&i64::from(n));
    let mut cond = CellCond::NOWHERE;
    for mover in Player::BOTH {
        let who = |m: bool| if m { mover } else { mover.other() };
        for c in 0..pits + 2 {
            let holds = tests.iter().all(|&t| match t {
                CellTest::SideIsMover(m, is) => (game.side_codes[c] == who(m) as u8) == is,
                CellTest::IsStore(is) => (c >= pits) == is,
                CellTest::IsStoreOfMover(m, is) => (c == game.store(who(m)) as usize) == is,
                CellTest::RowIn(lo, hi, inside) => within(game.row_of(game.place_of(c as Cell)) as u32, lo, hi) == inside,
                _ => true,
            });
            cond.at[mover.index()] |= u64::from(holds) << c;
        }
    }
    for n in 0..256u32 {
        let count = tests.iter().all(|&t| match t {
            CellTest::CountIn(lo, hi, inside) => within(n, lo, hi) == inside,
            // The last seed fell into the cell: before it, the cell held one fewer (when the engine
            // keeps the counts before; else it reads the count).
            CellTest::BeforeIn(lo, hi, inside) => {
                n >= u32::from(game.uses_before) && within(n - u32::from(game.uses_before), lo, hi) == inside
            }
            CellTest::CountEven(even) => n.is_multiple_of(2) == even,
            _ => true,
        });
        let across = tests.iter().all(|&t| match t {
            CellTest::AcrossIn(lo, hi, inside) => within(n, lo, hi) == inside,
            CellTest::AcrossEven(even) => n.is_multiple_of(2) == even,
            _ => true,
        });
        cond.count[(n >> 6) as usize] |= u64::from(count) << (n & 63);
        cond.across[(n >> 6) as usize] |= u64::from(across) << (n & 63);
    }
    Some(cond.with_shapes())
}

fn cell_test(t: &Test, reg: Reg) -> Option<CellTest> {
    let mover = |w: Who| match w {
        Who::Mover | Who::ToMove => true,
        Who::Opponent | Who::NotToMove => false,
    };
    Some(match *t {
        Test::SideIs(r, w, is) if r == reg => CellTest::SideIsMover(mover(w), is),
        Test::CountIn(r, lo, hi, inside) if r == reg => CellTest::CountIn(lo, hi, inside),
        Test::BeforeIn(r, lo, hi, inside) if r == reg && reg == Reg::Last => CellTest::BeforeIn(lo, hi, inside),
        Test::OppositeCountIn(r, lo, hi, inside) if r == reg => CellTest::AcrossIn(lo, hi, inside),
        Test::CountEven(r, even) if r == reg => CellTest::CountEven(even),
        Test::OppositeCountEven(r, even) if r == reg => CellTest::AcrossEven(even),
        Test::StoreIs(r, is) if r == reg => CellTest::IsStore(is),
        Test::IsStoreOf(r, w, is) if r == reg => CellTest::IsStoreOfMover(mover(w), is),
        Test::In(Operand::RowOf(r), lo, hi, inside) if r == reg => CellTest::RowIn(lo, hi, inside),
        _ => return None,
    })
}
