//! Stage 3, compile: a [`Checked`] program → the engine's [`ir::Game`]. Names become enum variants,
//! parameters are folded in, phases are completed from the usual rules. Every check has already
//! passed, so nothing here can fail.

mod before;
mod codegen;
pub mod ir;
mod lap_table;
mod lower;
pub mod shape;
mod typed;

use crate::board::{Cell, Player};
use crate::check::{Checked, limits};
use crate::syntax::ast::{self, Item, ItemKind};
use ir::*;
use lower::Lower;
use typed::{PitExpr, Typer};

/// Compiles a checked program.
pub fn compile(checked: &Checked) -> Game {
    let items = &checked.program.items;
    let params = &checked.params;
    let side_pits = checked.pits * checked.rows;
    let geometry = checked.geometry();
    let cells = geometry.pit_count() + 2;
    let mut lower = Lower {
        params,
        pits: geometry.pit_count(),
        rows: checked.rows,
        typer: Typer {
            every_pit_sided: geometry.store_pit.is_none() && (0..geometry.pit_count()).all(|c| geometry.side_of(c as Cell).is_some()),
            ..Typer::default()
        },
        sows_into_store: sows_into_store(items) || geometry.store_pit.is_some(),
        takes_from_store: std::cell::Cell::new(false),
        before_at_lap_end: std::cell::Cell::new(false),
        memory: Vec::new(),
        tracks: items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::Track(name, pieces) => Some((name.node.clone(), pieces.clone())),
                _ => None,
            })
            .collect(),
        stated_ends: Default::default(),
    };
    let (memory, memory_start) = lower.memory_layout(items);
    lower.memory = memory;
    let name = items
        .iter()
        .find_map(|i| match &i.kind {
            ItemKind::Game(n) => Some(n.clone()),
            _ => None,
        })
        .unwrap_or_default();
    let first = items
        .iter()
        .find_map(|i| match i.kind {
            ItemKind::First(ast::PlayerLit::North) => Some(Player::North),
            ItemKind::First(ast::PlayerLit::South) => Some(Player::South),
            _ => None,
        })
        .unwrap_or(Player::South);
    let stores_sown = items.iter().any(|i| matches!(i.kind, ItemKind::BoardStores(ast::StoreMode::Sown)));
    let base = lower.phase(String::new(), None, items, None);
    let mut phases: Vec<Phase> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Phase(name, cond, inner) => Some(lower.phase(name.node.clone(), Some(lower.cond(cond)), inner, Some(&base))),
            _ => None,
        })
        .collect();
    phases.push(base);
    let triggers = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Trigger(def) => Some(lower.rule(def)),
            _ => None,
        })
        .collect();
    let round_rules = |moment: ast::Moment| -> Vec<Rule> {
        items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::At(m, def) if *m == moment => Some(lower.rule(def)),
                _ => None,
            })
            .collect()
    };
    let round_starts = round_rules(ast::Moment::RoundStart);
    let round_ends = round_rules(ast::Moment::RoundEnd);
    let feeding = items.iter().find_map(|i| match &i.kind {
        ItemKind::Feeding(None) => Some(Feeding::Required),
        ItemKind::Feeding(Some(p)) => Some(Feeding::Penalty(lower.player(p))),
        _ => None,
    });
    let grand_slam = items.iter().find_map(|i| match i.kind {
        ItemKind::GrandSlam(ast::GrandSlam::CaptureNothing) => Some(GrandSlam::CaptureNothing),
        ItemKind::GrandSlam(ast::GrandSlam::Forbidden) => Some(GrandSlam::Forbidden),
        ItemKind::GrandSlam(ast::GrandSlam::Allowed(b)) => Some(GrandSlam::Allowed(b)),
        _ => None,
    });
    // Every rule lowered so far acts within a move; the end rules come next.
    let repeated_in_moves = lower.typer.repeated.get();
    let ends: Vec<EndRule> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::End(name, cond, remaining, from, result) => Some(lower.end_rule(
                &name.node,
                lower.expr(cond),
                remaining.as_ref(),
                from.as_deref(),
                result.as_ref(),
                false,
            )),
            _ => None,
        })
        .collect();
    let rounds = items.iter().any(|i| matches!(i.kind, ItemKind::Rounds)).then(|| Rounds {
        match_ends: items
            .iter()
            .find_map(|i| match &i.kind {
                ItemKind::MatchEnds(e) => Some(lower.cond(e)),
                _ => None,
            })
            .unwrap_or_else(|| Code::constant(1)),
        by_rounds: !items
            .iter()
            .any(|i| matches!(i.kind, ItemKind::MatchWinner(ast::MatchMeasure::Seeds))),
        fill: items.iter().find_map(|i| match &i.kind {
            ItemKind::SetupFill(_, options) => {
                let has = |o: ast::FillOption| options.iter().any(|x| x.node == o);
                Some(Fill {
                    per_pit: checked.fill.unwrap_or(1),
                    close_unfilled: has(ast::FillOption::CloseUnfilled),
                    remainder_next: has(ast::FillOption::RemainderNext),
                    made_up: if has(ast::FillOption::RemainderMadeUpClaimed) {
                        Some(true)
                    } else {
                        has(ast::FillOption::RemainderMadeUp).then_some(false)
                    },
                    as_many_as_other: has(ast::FillOption::AsManyAsOther),
                    as_many_as_used: has(ast::FillOption::AsManyAsUsed),
                    claim_unfilled: has(ast::FillOption::ClaimUnfilled),
                    from_right: has(ast::FillOption::FromRight),
                })
            }
            _ => None,
        }),
        deal: items.iter().any(|i| matches!(i.kind, ItemKind::SetupDeal)),
        mirror: items.iter().any(|i| matches!(i.kind, ItemKind::SetupMirror)),
        kept_in_store: checked.kept_in_store,
        keep_claims: items.iter().any(|i| matches!(i.kind, ItemKind::SetupKeepClaims)),
        opener: items.iter().find_map(|i| match i.kind {
            ItemKind::NextRoundFirst(o, _) => Some(o),
            _ => None,
        }),
        tie: items.iter().find_map(|i| match &i.kind {
            ItemKind::NextRoundFirst(_, tie) => tie.as_ref().map(|t| t.node),
            _ => None,
        }),
    });
    let fill = rounds.as_ref().and_then(|r| r.fill);
    let uses_claims =
        uses(items, &|a| matches!(a, ast::Action::Claim(..))) || fill.is_some_and(|f| f.claim_unfilled || f.made_up == Some(true));
    // A rule that closes or opens pits during a move: no move may count on the pits staying open.
    let closes_in_moves = uses(items, &|a| matches!(a, ast::Action::Close(..)));
    let uses_closed = fill.is_some_and(|f| f.close_unfilled) || closes_in_moves;
    // A pit's `.side`: its row's player, or on a board owned by halves the half's.
    let sides: Vec<Option<Player>> = (0..cells).map(|c| geometry.part_of(c as Cell)).collect();
    let chooses_way = |rules: &Vec<Rule>| {
        rules
            .iter()
            .any(|r| r.actions.iter().any(|a| matches!(a, Action::SowTaken { chosen_way: true, .. })))
    };
    let uses_choose = phases.iter().any(|p| p.optional)
        || lower.typer.chooses.get()
        || chooses_way(&triggers)
        || phases.iter().any(|p| chooses_way(&p.captures) || chooses_way(&p.after_moves));
    // The counts before the latest seed are kept only where some rule reads them otherwise than as
    // `last`'s count less one at a lap's end (before the lap tables and filters are made, which
    // then read the count).
    let uses_before = lower.typer.before.get() || (lower.before_at_lap_end.get() && !before::read_as_count(&mut phases, &triggers));
    for phase in &mut phases {
        phase.sow.special_start =
            phase.sow.from_store.is_some() || phase.sow.start_in_origin.is_some() || phase.sow.lift.is_some() || phase.sows_nothing;
        // A move's choices are found by trying it: its sowing is always played out. A move that sows
        // nothing is tried to see that it changes something.
        // Seeds sown again by a rule go on laps of their own, which may go round for ever like relays.
        let sows_again = [&phase.captures, &phase.lap_ends, &phase.after_captures]
            .iter()
            .any(|rules| rules.iter().any(|r| r.actions.iter().any(|a| matches!(a, Action::SowTaken { .. }))));
        phase.sows_to_judge = uses_choose
            || phase.sows_nothing
            || phase.sow.relay.is_some()
            || sows_again
            || grand_slam == Some(GrandSlam::Forbidden)
            || phase.judges_outcome
            || phase.captures_required
            || phase.sow.from_store.is_some();
        let sow = &phase.sow;
        let ccw = Sow { ccw: true, ..sow.clone() };
        let cw = Sow { ccw: false, ..sow.clone() };
        phase.tracks = Player::BOTH.map(|p| track(&geometry, p, &ccw, params));
        phase.cw_tracks = Player::BOTH.map(|p| track(&geometry, p, &cw, params));
        phase.capture_at = may_hold_where(&phase.captures, Reg::Last, &sides, &geometry);
        for rule in &mut phase.captures {
            rule.when.lap = lap_table::build(&rule.when, &sides, &geometry);
            let ways = rule
                .actions
                .iter()
                .filter(|a| matches!(a, Action::SowTaken { chosen_way: true, .. }))
                .count();
            rule.one_choice = !lower.typer.chooses.get() && ways <= 1;
        }
        if let Some(relay) = &mut phase.sow.relay {
            relay.lap = lap_table::build(relay, &sides, &geometry);
        }
        // A `forbid` rule read before the sowing is asked of every pit a listing tries: most read
        // only where the origin lies and its seeds, which a table per mover and origin answers.
        // Kept only where every such rule of the phase has one: a phase that needs the evaluator
        // for one makes its context once for all (the first rule's table tells which).
        for forbid in phase.forbids.iter_mut().filter(|f| !f.after) {
            forbid.when.lap = lap_table::build_for(&forbid.when, Reg::Origin, &sides, &geometry);
        }
        if phase.forbids.iter().any(|f| !f.after && f.when.lap.is_none()) {
            for forbid in &mut phase.forbids {
                forbid.when.lap = None;
            }
        }
        phase.sow.lap_cap = phase.sow.relay_limit.unwrap_or(limits::DEFAULT_RELAY_LIMIT);
        phase.sow.watch_loops = !lower.typer.counters.get();
        // A number past the limit tells no laps apart: every lap a move sows is below it.
        let cap = i64::from(phase.sow.lap_cap);
        let seen = lower.typer.lap_seen.borrow().iter().copied().filter(|&n| n <= cap).max();
        phase.sow.lap_seen = seen.unwrap_or(0).max(0) as u32;
        phase.sow.taken_seen = lower.typer.taken_seen.get().map(|n| n.clamp(0, i64::from(u32::MAX - 1)) as u32);
    }
    // Per mover and cell, the counts of the pit a seed falls into with which some trigger may hold:
    // most seeds fall where none can, and are sown without a look at the triggers.
    let trigger_at = may_hold_where(&triggers, Reg::Pit, &sides, &geometry);
    let end_kinds = EndKinds::of(&ends);
    let may_pass = phases.iter().any(|p| !p.passes.is_empty());
    // Moves that take seeds from the store shrink it too.
    let enters_from_store = phases.iter().any(|p| p.sow.from_store.is_some());
    // The pit a store stands in for (`store pit N`) never holds a seed: the store starts with the
    // `reserve`, whatever `seeds` gives the pits.
    let mut initial = checked.initial.clone();
    for p in Player::BOTH {
        if let Some(c) = geometry.store_pit_of(p) {
            initial[c as usize] = 0;
        }
    }
    let mut game = Game {
        seeds_cases: Vec::new(),
        name,
        level: items.iter().find_map(|i| match &i.kind {
            ItemKind::Level(l) => Some(l.clone()),
            _ => None,
        }),
        words: items
            .iter()
            .filter_map(|i| match &i.kind {
                ItemKind::Word(word, means) => Some((word.node.clone(), means.clone())),
                _ => None,
            })
            .collect(),
        geometry,
        play_from: checked.play_from,
        choices: if phases.iter().any(|p| p.sow.either) { 2 } else { 1 },
        stores_sown,
        total: initial.iter().sum(),
        initial,
        first,
        phases,
        triggers,
        trigger_at,
        feeding,
        grand_slam,
        ends,
        stated_ends: lower.stated_ends.take(),
        round_starts,
        round_ends,
        rounds,
        uses_claims,
        uses_closed,
        closes_in_moves,
        uses_repeated: lower.typer.repeated.get(),
        uses_before,
        uses_ply: lower.typer.ply.get(),
        uses_round_ply: lower.typer.round_ply.get(),
        uses_round: lower.typer.round.get(),
        uses_starter: lower.typer.starter.get(),
        uses_choose,
        passing: items.iter().any(|i| matches!(i.kind, ItemKind::PassWhenUnable)),
        may_pass,
        uses_total: lower.typer.total.get(),
        reads_stores: lower.typer.stores.get(),
        repeated_in_moves,
        stores_only_grow: !lower.takes_from_store.get() && !enters_from_store,
        hash_keys: hash_keys(cells, memory_start.len()),
        row_masks: [Player::South, Player::North].map(|p| row_mask(side_pits, p)),
        side_codes: sides.iter().map(|s| s.map_or(2, |p| p.index() as u8)).collect(),
        sides,
        end_kinds,
        memory_start,
        memory: lower.memory.clone(),
        fast: None,
        closed_forms: Default::default(),
        general_because: None,
    };
    game.seeds_cases = checked
        .seeds_cases
        .iter()
        .map(|case| (case.seeds, case.when.as_ref().map(|cond| lower.cond(cond))))
        .collect();
    game
}

/// Per mover and cell (`sides` has one entry a cell), the counts (bit `k`; bit 63 for 63 or more)
/// with which some rule of `rules` may hold when its register `reg` names that cell: see
/// [`may_hold_at`].
fn may_hold_where(rules: &[Rule], reg: Reg, sides: &[Option<Player>], g: &crate::board::Geometry) -> [Vec<u64>; 2] {
    let stores = g.pit_count();
    Player::BOTH.map(|mover| {
        (0..sides.len())
            .map(|c| {
                // Where the cell lies, as `pit.row` reads it (a store in a pit's place, that pit's row).
                let row = g.row_of(g.place_of(c as Cell)) as i64;
                (0..64).fold(0u64, |counts, k| {
                    let may = rules
                        .iter()
                        .any(|r| may_hold_at(&r.when, reg, sides, stores, mover, c as Cell, row, k));
                    counts | u64::from(may) << k
                })
            })
            .collect()
    })
}

/// Might a condition hold (mover `mover`, the player to move) when the pit its register `reg` names
/// (`last` at the end of a lap, `pit` as a seed falls) is `cell` (in row `row`) holding `count` seeds
/// (63 stands for 63 or more)? Only the tests that read which cell that is and its seeds are decided;
/// any other test may hold.
#[allow(clippy::too_many_arguments)]
fn may_hold_at(code: &Code, reg: Reg, sides: &[Option<Player>], stores: usize, mover: Player, cell: Cell, row: i64, count: i64) -> bool {
    let side = sides[cell as usize];
    let is_store = cell as usize >= stores;
    let who = |w: Who| match w {
        Who::Mover | Who::ToMove => mover,
        Who::Opponent | Who::NotToMove => mover.other(),
    };
    let may = |t: &Test| match *t {
        Test::SideIs(r, w, is) if r == reg => (side == Some(who(w))) == is,
        Test::StoreIs(r, is) if r == reg => is_store == is,
        Test::IsStoreOf(r, w, is) if r == reg => (cell == (stores + who(w).index()) as Cell) == is,
        Test::In(Operand::RowOf(r), lo, hi, inside) if r == reg => (lo..=hi).contains(&row) == inside,
        Test::CountIn(r, lo, hi, inside) if r == reg && count < 63 => (lo..=hi).contains(&count) == inside,
        // Some count of 63 or more inside the bounds (outside: not all of them inside).
        Test::CountIn(r, lo, hi, inside) if r == reg => {
            if inside {
                hi >= 63
            } else {
                !(lo <= 63 && hi == i64::MAX)
            }
        }
        _ => true,
    };
    match &code.quick {
        Quick::One(t) => may(t),
        Quick::Both(a, b) => may(a) && may(b),
        Quick::Either(a, b) => may(a) || may(b),
        Quick::Tests(f) if f.all => f.tests.iter().all(may),
        Quick::Tests(f) => f.tests.iter().any(may),
        Quick::Flag(_) | Quick::Run => true,
    }
}

/// Does some phase sow into the stores (so that `last` may be a store)?
fn sows_into_store(items: &[Item]) -> bool {
    items.iter().any(|i| match &i.kind {
        ItemKind::SowIntoStore(_) => true,
        ItemKind::Phase(_, _, inner) => sows_into_store(inner),
        _ => false,
    })
}

/// The cells a mover sows into, in order, counter-clockwise as seen from above, then reversed for
/// clockwise sowing. A shared track runs through both players' rows (one row each): the mover's
/// from pit 1, the other's from pit 1, with the mover's own store right after the mover's row when
/// stores are sown, then a ring's shared pits. An own track runs through the mover's rows only, from
/// the back row's pit 1 to its end, then along the row in front the other way, and so on to the
/// front row, and then the store when it is sown. A stated track is the cells it names, in order.
fn track(g: &crate::board::Geometry, mover: Player, sow: &Sow, params: &[(String, i64)]) -> Track {
    let side = g.side_pits() as Cell;
    let cells = g.pit_count() + 2;
    let store = |p: Player| (g.pit_count() + p.index()) as Cell;
    let mut t: Vec<Cell> = Vec::with_capacity(cells);
    if let Some(pieces) = &sow.path {
        t = g.path(pieces, mover, params).expect("checked");
    } else if sow.own_track {
        let base = mover.index() as Cell * side;
        let columns = g.columns as Cell;
        for (i, row) in (0..g.rows as Cell).rev().enumerate() {
            let first = base + row * columns;
            let row_cells = first..first + columns;
            if i % 2 == 0 {
                t.extend(row_cells);
            } else {
                t.extend(row_cells.rev());
            }
        }
        if sow.into_own_store {
            t.push(store(mover));
        }
    } else {
        // A store on the track follows its player's row.
        let sown = |p: Player| sow.into_both_stores || (sow.into_own_store && mover == p);
        t.extend(0..side);
        if sown(Player::South) {
            t.push(store(Player::South));
        }
        t.extend(side..2 * side);
        if sown(Player::North) {
            t.push(store(Player::North));
        }
        t.extend(2 * side..g.pit_count() as Cell);
    }
    // A store that is a pit of the row stands in that pit's place.
    t.iter_mut().for_each(|c| *c = g.in_place(*c));
    if !sow.ccw {
        t.reverse();
    }
    let mut next = vec![t[1 % t.len()]; cells];
    let mut prev = vec![t[t.len() - 1]; cells];
    let mut place = vec![0; cells];
    for (i, &c) in t.iter().enumerate() {
        next[c as usize] = t[(i + 1) % t.len()];
        prev[c as usize] = t[(i + t.len() - 1) % t.len()];
        place[c as usize] = i as u16;
    }
    Track {
        cells: t,
        next,
        place,
        prev,
        ahead: Vec::new(),
    }
    .with_ahead(cells)
}

impl Track {
    /// The track with its [`Track::ahead`] tables, on a board of `size` cells.
    fn with_ahead(mut self, size: usize) -> Track {
        use crate::compile::shape::{Lanes, WideBoard};
        if size <= WideBoard::LANES {
            let mut sum = WideBoard::ZERO;
            self.ahead = std::iter::once(sum)
                .chain(self.cells.iter().map(|&c| {
                    sum = sum + WideBoard::at(usize::from(c), 1);
                    sum
                }))
                .collect();
        }
        self
    }
}

/// Could the pit expression name a store? (`last` can when some phase sows into stores.)
fn may_be_store(e: &PitExpr, sows_into_store: bool) -> bool {
    match e {
        PitExpr::Store(_) => true,
        PitExpr::Last => sows_into_store,
        PitExpr::Opposite(x) => may_be_store(x, sows_into_store),
        // The next cell along a track with a store on it may be the store.
        PitExpr::Relation(r, _) => {
            matches!(r, Relation::Next | Relation::Previous | Relation::NextAny | Relation::PreviousAny) && sows_into_store
        }
        PitExpr::Along(..) => sows_into_store,
        PitExpr::If(_, a, b) => may_be_store(a, sows_into_store) || may_be_store(b, sows_into_store),
        // Sets hold pits only.
        PitExpr::NoPit
        | PitExpr::Origin
        | PitExpr::Pit
        | PitExpr::Leftmost(_)
        | PitExpr::Rightmost(_)
        | PitExpr::Of(..)
        | PitExpr::Seek(..) => false,
        // A lap may start from the store (seeds entered from it) and end in one.
        PitExpr::LapStart => true,
        PitExpr::FirstLapEnd => sows_into_store,
        // A rule may keep any pit in memory, a store too.
        PitExpr::Memory(..) => true,
        PitExpr::Choose(items, _) => items.iter().any(|i| may_be_store(i, sows_into_store)),
        PitExpr::ChooseIn(_) => false,
    }
}

/// All ones on the cells of `p`'s row (when they are kept inline).
fn row_mask(pits: usize, p: Player) -> [u32; crate::board::INLINE] {
    let mut mask = [0; crate::board::INLINE];
    for cell in mask.iter_mut().skip(p.index() * pits).take(pits) {
        *cell = u32::MAX;
    }
    mask
}

/// Four random-looking numbers per cell (splitmix64), then one per memory value, fixed so that a
/// position's identity is the same in every run.
fn hash_keys(cells: usize, memory: usize) -> Vec<u64> {
    let mut state: u64 = 0x5eed_5eed_5eed_5eed;
    (0..4 * cells + memory)
        .map(|_| {
            state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let mut z = state;
            z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ (z >> 31)
        })
        .collect()
}

fn uses(items: &[Item], pred: &dyn Fn(&ast::Action) -> bool) -> bool {
    items.iter().any(|i| match &i.kind {
        ItemKind::Trigger(d) | ItemKind::Capture(d) | ItemKind::AfterMove(d) | ItemKind::At(_, d) => {
            d.actions.iter().any(|a| pred(&a.node))
        }
        ItemKind::Phase(_, _, inner) => uses(inner, pred),
        _ => false,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Six pits of four seeds a side, sowing counterclockwise, with the capture `rules` and one end
    /// rule; `store_sowing` is how the stores fill (`captures` or `sown`, sown into by the mover).
    fn with_rules(store_sowing: &str, rules: &str) -> Game {
        crate::test_game(&format!(
            "game \"Invented\"\nboard {{\n  pits 6\n  seeds 4\n  stores {store_sowing}\n}}\nfirst south\nsow {{\n  direction ccw\n{}}}\n{rules}end \"no move\" when no_moves remaining owner\n",
            if store_sowing == "sown" { "  into own store\n" } else { "" }
        ))
    }

    /// The cells where a lap may end with a capture rule holding, as (south's, north's) lists.
    fn capture_cells(g: &Game) -> [Vec<usize>; 2] {
        let phase = g.phases.last().expect("the usual rules");
        phase
            .capture_at
            .clone()
            .map(|cells| (0..cells.len()).filter(|&c| cells[c] != 0).collect())
    }

    #[test]
    fn captures_are_looked_for_only_where_their_tests_on_last_allow() {
        // `last.side == opponent`: the opponent's row (and store, which sowing never reaches
        // here, but the tests on `last` alone cannot tell).
        let opponents = with_rules(
            "captures",
            "capture \"two or three\" {\n  when last.side == opponent and last.count in 2..3\n  take last\n}\n",
        );
        assert_eq!(
            capture_cells(&opponents),
            [(6..12).chain([13]).collect::<Vec<_>>(), (0..6).chain([12]).collect()]
        );
        // The mover's own store (another move), or a pit of the mover's row (across).
        let own = with_rules(
            "sown",
            "capture \"store\" {\n  when last == store(mover)\n  then another move\n}\n\
             capture \"across\" {\n  when not last.store and last.side == mover and last.before == 0\n  take opposite(last), last\n}\n",
        );
        assert_eq!(
            capture_cells(&own),
            [(0..6).chain([12]).collect::<Vec<_>>(), (6..12).chain([13]).collect()]
        );
        // The first rule also needs 2 or 3 seeds in `last`; in a pit of the mover's row, `last.before
        // == 0` is read as `last.count == 1` (`before::read_as_count`), and the store's rule reads
        // no count.
        assert_eq!(opponents.phases.last().expect("the usual rules").capture_at[0][6], 0b1100);
        assert_eq!(own.phases.last().expect("the usual rules").capture_at[0][0], 0b10);
        assert_eq!(own.phases.last().expect("the usual rules").capture_at[0][12], u64::MAX);
        // Two rows of three a player: a test of `last.row` leaves out the other row (south's cells
        // 0-2 are its front row, 3-5 its back row; north's 6-8 and 9-11).
        let rows = crate::test_game(
            "game \"Invented\"\nboard {\n  rows 2\n  pits 3\n  seeds 4\n}\nsow {\n  direction ccw\n  track own\n}\n\
             capture \"front\" {\n  when last.side == mover and last.row == front and opposite(last).count > 0\n  take opposite(last)\n}\n\
             capture \"not back\" {\n  when last.side == opponent and last.row != back\n  take last\n}\n\
             end \"no move\" when no_moves remaining owner\n",
        );
        // (The opponent's store is in no row: `last.row != back` may hold there.)
        assert_eq!(capture_cells(&rows), [vec![0, 1, 2, 6, 7, 8, 13], vec![0, 1, 2, 6, 7, 8, 12]]);
    }

    #[test]
    fn triggers_are_looked_at_only_for_the_counts_their_tests_on_pit_allow() {
        let fours = with_rules(
            "captures",
            "trigger \"fours\" {\n  when pit.count == 4 and not final\n  take pit to owner\n}\n\
             trigger \"the opponent's ones\" {\n  when pit.side == opponent and pit.count == 1\n  take pit\n}\n",
        );
        // South moving: a four anywhere; a one only in north's row (and north's store).
        assert_eq!(fours.trigger_at[0][0], 1 << 4);
        assert_eq!(fours.trigger_at[0][6], 1 << 4 | 1 << 1);
        assert_eq!(fours.trigger_at[0][13], 1 << 4 | 1 << 1);
        // North moving: the ones are south's.
        assert_eq!(fours.trigger_at[1][0], 1 << 4 | 1 << 1);
        assert_eq!(fours.trigger_at[1][6], 1 << 4);
        // No triggers: no seed is ever looked at.
        assert!(with_rules("captures", "").trigger_at.iter().flatten().all(|&counts| counts == 0));
    }
}
