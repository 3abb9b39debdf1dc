//! Stage 2, check: a merged [`Program`] → [`Checked`] or every problem found. Names are resolved,
//! expressions typed, board sizes and parameters evaluated and range-checked, contradictions found.
//! Nothing is changed; `compile` accepts only what this stage returns.

pub(crate) mod board;
mod lets;
pub mod load;
mod recover;
mod round_moments;
mod rules;
mod start;
mod stated_ends;
mod store_pit;
mod stores;
mod types;

use crate::diagnostic::{Diagnostic, Span, suggest};
use crate::syntax::ast::{
    Action, CapUnit, EndResult, Expr, ExprKind, FillOption, Item, ItemKind, Moment, PlayFrom, Receiver, Remaining, RuleDef, SeriesDef,
    TrackKind,
};
pub use load::{Program, load, load_text};
use types::{Scope, Ty, TypeChecker};

/// The engine's limits: boards and seed counts beyond them are refused with a diagnostic.
pub mod limits {
    /// Most pits in one row.
    pub const MAX_PITS: i64 = 64;
    /// Most rows of pits a player may have.
    pub const MAX_ROWS: i64 = 4;
    /// Most pits one player may have, all rows together (a move is one of them).
    pub const MAX_SIDE_PITS: i64 = 64;
    /// Most seeds in one pit at the start.
    pub const MAX_SEEDS_PER_PIT: i64 = 1000;
    /// Most seeds in a whole game.
    pub const MAX_TOTAL_SEEDS: i64 = 20_000;
    /// Most laps a `relay limit` may allow.
    pub const MAX_RELAY_LIMIT: i64 = 100_000;
    /// The largest cap a `series ... at most N` may state (pits or seeds).
    pub const MAX_SERIES_CAP: i64 = 1_000_000;
    /// Laps a move may sow when the file sets no `relay limit`: a stated rule (docs/language.md,
    /// "Sowings that never end"), since a sowing may go round for ever through too many states to
    /// be seen to in time (a move seen to is refused before). A looping move not seen to costs this
    /// many laps to refuse: with ten times as many, random playouts of the relay games ran 20-38%
    /// slower (issue 26), so moves that end after more laps (a Hus move of 1,537, a Bao move of
    /// 1,028) need a file's own `relay limit`.
    pub const DEFAULT_RELAY_LIMIT: u32 = 1_000;
}

/// A program that passed every check, with its parameters' values.
#[derive(Debug, Clone)]
pub struct Checked {
    pub(crate) program: Program,
    pub(crate) params: Vec<(String, i64)>,
    /// Pits in each row.
    pub(crate) pits: usize,
    /// Rows each player has.
    pub(crate) rows: usize,
    /// Pits that belong to nobody (a middle row, a ring's shared pits).
    pub(crate) shared: usize,
    /// The board is a ring.
    pub(crate) ring: bool,
    /// Whose pits a move may start from.
    pub(crate) play_from: PlayFrom,
    /// Which rows are owned by halves.
    pub(crate) halves: crate::board::Halves,
    /// `store pit N`: the column (0 from the owner's left) of the pit of each row that is its store.
    pub(crate) store_pit: Option<usize>,
    /// Seeds of every cell at the start (pits, then the two stores); with `seeds_cases`, the most
    /// of them in every pit, until the engine has chosen each pit's.
    pub(crate) initial: Vec<u32>,
    /// The `seeds` lines read by pit (`seeds N where COND`, `seeds if COND then N else M`): the
    /// first case whose condition holds gives a pit its seeds; empty when every pit starts alike.
    pub(crate) seeds_cases: Vec<start::StartCase>,
    /// Seeds per pit of `setup fill N`.
    pub(crate) fill: Option<u32>,
    /// Seeds of `setup store N`: each player keeps them in the store when a round is set up.
    pub(crate) kept_in_store: u32,
    /// Warnings found while checking.
    pub warnings: Vec<Diagnostic>,
}

impl Checked {
    /// The board's cells.
    pub(crate) fn geometry(&self) -> crate::board::Geometry {
        crate::board::Geometry {
            columns: self.pits,
            rows: self.rows,
            shared: self.shared,
            ring: self.ring,
            halves: self.halves,
            plays_across: self.play_from == PlayFrom::Owned && self.pits * self.rows > 0,
            store_pit: self.store_pit,
        }
    }
}

/// A parameter value given on the command line (`--set name=value`).
#[derive(Debug, Clone)]
pub struct Override {
    /// Parameter name.
    pub name: String,
    /// Value.
    pub value: i64,
}

/// Checks a merged program with the given parameter overrides.
pub fn check(mut program: Program, overrides: &[Override]) -> Result<Checked, Vec<Diagnostic>> {
    let mut diags = std::mem::take(&mut program.problems);
    let params = params(&program, overrides, &mut diags);
    // Expressions refused for their size are left as written: what is found inside only follows from that.
    let refused = lets::expand(&mut program.items, &params, &mut diags);
    let at_file = program.file_span;
    let find = |pred: &dyn Fn(&ItemKind) -> bool| program.items.iter().find(|i| pred(&i.kind));

    if find(&|k| matches!(k, ItemKind::Game(_))).is_none() {
        diags.push(
            Diagnostic::error("sow::check::missing", "the game has no name", at_file, "in this file")
                .with_help("add a line such as `game \"My house variant\"`"),
        );
    }

    // Board.
    let statics = Statics { params: &params };
    let mut pits = None;
    let ring = ring_size(&program.items, &statics, &mut diags);
    match find(&|k| matches!(k, ItemKind::BoardPits(_))) {
        Some(item) if ring.is_some() => diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "the board is both a ring and rows of pits",
                item.span,
                "pits in each row",
            )
            .with_help("a ring's size is its number of pits: keep `ring N` or `pits N`"),
        ),
        Some(Item {
            kind: ItemKind::BoardPits(e),
            ..
        }) => {
            if let Some(n) = statics.eval(e, &mut diags) {
                if !(1..=limits::MAX_PITS).contains(&n) {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::out_of_range",
                            format!("a row of {n} pits is not possible"),
                            e.span,
                            "pits per row",
                        )
                        .with_help(format!("a row has 1 to {} pits", limits::MAX_PITS)),
                    );
                } else {
                    pits = Some(n as usize);
                }
            }
        }
        _ if ring.is_some() => {}
        _ => diags.push(
            Diagnostic::error("sow::check::missing", "the board has no size", at_file, "in this file")
                .with_help("add `board { pits 6  seeds 4 }`"),
        ),
    }
    if let Some(g) = ring {
        pits = Some(g.columns);
    }
    let mut rows = 1usize;
    if let Some(Item {
        kind: ItemKind::BoardRows(e),
        ..
    }) = find(&|k| matches!(k, ItemKind::BoardRows(_)))
        && let Some(n) = statics.eval(e, &mut diags)
    {
        if ring.is_some() {
            diags.push(
                Diagnostic::error("sow::check::conflict", "a ring has no rows", e.span, "rows per player")
                    .with_help("remove `rows`: a ring's pits go round in one circle"),
            );
        } else if !(1..=limits::MAX_ROWS).contains(&n) {
            diags.push(
                Diagnostic::error(
                    "sow::check::out_of_range",
                    format!("{n} rows of pits a player is not possible"),
                    e.span,
                    "rows per player",
                )
                .with_help(format!(
                    "a player has 1 to {} rows (1 on a two-row board, 2 on a four-row board)",
                    limits::MAX_ROWS
                )),
            );
            pits = None;
        } else if let Some(columns) = pits
            && columns as i64 * n > limits::MAX_SIDE_PITS
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::out_of_range",
                    format!(
                        "{n} rows of {columns} pits make {} pits a player, more than the engine plays",
                        columns as i64 * n
                    ),
                    e.span,
                    "rows per player",
                )
                .with_help(format!("a player has at most {} pits in all rows together", limits::MAX_SIDE_PITS)),
            );
            pits = None;
        } else {
            rows = n as usize;
        }
    }
    let middle = find(&|k| matches!(k, ItemKind::BoardMiddle));
    if let (Some(m), Some(_)) = (middle, ring) {
        diags.push(
            Diagnostic::error("sow::check::conflict", "a ring has no middle row", m.span, "middle row")
                .with_help("a ring's shared pits come from `ring N owned by nobody` or an odd N"),
        );
    }
    let halves = halves(&program.items, ring.is_some(), &mut diags);
    let geometry = pits.map(|columns| match ring {
        Some(g) => g,
        None => crate::board::Geometry {
            columns,
            rows,
            shared: if middle.is_some() { columns } else { 0 },
            ring: false,
            halves,
            plays_across: false,
            store_pit: None,
        },
    });
    let shared = geometry.map_or(0, |g| g.shared);
    let play_from = program
        .items
        .iter()
        .find_map(|i| match i.kind {
            ItemKind::PlayFrom(p) => Some(p),
            _ => None,
        })
        .unwrap_or(if ring.is_some_and(|g| g.columns == 0) {
            PlayFrom::Shared
        } else {
            PlayFrom::Own
        });
    let geometry = geometry.map(|g| crate::board::Geometry {
        plays_across: play_from == PlayFrom::Owned && g.side_pits() > 0,
        ..g
    });
    if let Some(g) = geometry {
        check_play_from(&program.items, g, play_from, &mut diags);
    }
    let store_pit = store_pit::store_pit(&program.items, &statics, geometry, play_from, &mut diags);
    let geometry = geometry.map(|g| crate::board::Geometry { store_pit, ..g });
    let mut seeds_cases = Vec::new();
    let seeds_item = find(&|k| matches!(k, ItemKind::BoardSeeds(_)));
    let layout_item = find(&|k| matches!(k, ItemKind::BoardLayout(_)));
    let shared_layout = program.items.iter().find_map(|i| match &i.kind {
        ItemKind::BoardLayoutShared(list) => Some((list, i.span)),
        _ => None,
    });
    let mut initial = None;
    if let (Some(s), Some(l)) = (seeds_item, layout_item) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "the board sets both `seeds` and `layout`",
                l.span,
                "layout here",
            )
            .with_label(s.span, "seeds here")
            .with_help("keep one: `seeds N` fills every pit alike, `layout` gives each pit"),
        );
    } else if let Some(n) = pits {
        let rows = match (seeds_item, layout_item) {
            (
                Some(Item {
                    kind: ItemKind::BoardSeeds(e),
                    ..
                }),
                _,
            ) => {
                // Each pit's seeds are chosen by the engine on the starting board; here every
                // number a pit can start with is checked, and the most of them bounds the total.
                start::cases(e, &statics, &mut diags).map(|cases| match cases.as_slice() {
                    [start::StartCase { seeds, when: None }] => vec![*seeds; 2 * n * rows + shared],
                    _ => {
                        let most = cases.iter().map(|c| c.seeds).max().unwrap_or(0);
                        seeds_cases = cases;
                        vec![most; 2 * n * rows + shared]
                    }
                })
            }
            (
                _,
                Some(Item {
                    kind: ItemKind::BoardLayout(layout_rows),
                    span,
                }),
            ) => {
                layout(layout_rows, n, rows, *span, &statics, &mut diags).and_then(|mut cells| match shared_layout.map(|(list, _)| list) {
                    Some(list) if shared > 0 => {
                        cells.extend(vec![0; shared]);
                        row_layout(list, 2 * n * rows, shared, &mut cells, &statics, &mut diags).then_some(cells)
                    }
                    Some(list) => {
                        diags.push(
                            Diagnostic::error(
                                "sow::check::wrong_length",
                                "this board has no shared pits",
                                list.span,
                                "shared pits",
                            )
                            .with_help("only a board with a `middle row` or a ring with shared pits lays them out"),
                        );
                        None
                    }
                    None if shared > 0 => {
                        diags.push(
                            Diagnostic::error("sow::check::missing", "the layout does not give the shared pits", *span, "layout")
                                .with_help(format!("add `layout shared [..]` with {shared} numbers")),
                        );
                        None
                    }
                    None => Some(cells),
                })
            }
            _ => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::missing",
                        "the board does not say how many seeds each pit starts with",
                        at_file,
                        "in this file",
                    )
                    .with_help("add `seeds 4` (or a `layout`) inside `board { }`"),
                );
                None
            }
        };
        let reserve = match find(&|k| matches!(k, ItemKind::BoardReserve(_))) {
            Some(Item {
                kind: ItemKind::BoardReserve(e),
                ..
            }) => bounded(
                &statics,
                e,
                0..=limits::MAX_TOTAL_SEEDS,
                |v| format!("a reserve of {v} seeds is not possible"),
                "seeds in each store",
                &mut diags,
            )
            .map(|v| v as u32),
            _ => Some(0),
        };
        if let (Some(mut cells), Some(reserve)) = (rows, reserve) {
            let total: i64 = cells.iter().map(|&c| i64::from(c)).sum::<i64>() + 2 * i64::from(reserve);
            if total > limits::MAX_TOTAL_SEEDS {
                let span = seeds_item.or(layout_item).map_or(at_file, |i| i.span);
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("{total} seeds in all is more than the engine plays"),
                        span,
                        "the starting seeds",
                    )
                    .with_help(format!("use at most {} seeds in all", limits::MAX_TOTAL_SEEDS)),
                );
            } else if total == 0 {
                let span = seeds_item.or(layout_item).map_or(at_file, |i| i.span);
                diags.push(
                    Diagnostic::error("sow::check::out_of_range", "the game starts with no seeds at all", span, "no seeds")
                        .with_help("give the pits seeds"),
                );
            } else {
                cells.extend([reserve, reserve]);
                initial = Some(cells);
            }
        }
    }

    let stores_sown = program
        .items
        .iter()
        .any(|i| matches!(i.kind, ItemKind::BoardStores(crate::syntax::ast::StoreMode::Sown)))
        // A store that is a pit of the row is on every track.
        || store_pit.is_some();
    check_tracks(&program.items, geometry, play_from, &params, &mut diags);
    warn_emptied_origin(&program.items, &mut diags);

    // Expressions, sowing, rules.
    let mut tc = TypeChecker {
        params: &params,
        diags: Vec::new(),
        board_pits: pits,
        board_rows: geometry.map(|g| g.rows),
        memory: memory(&program.items, &statics, &mut diags),
    };
    let mut has_end = false;
    let mut fill = None;
    let mut kept_in_store = 0;
    let mut has_rounds = false;
    let mut has_setup = false;
    let mut has_match_end = false;
    if let Some(Item {
        kind: ItemKind::BoardSeeds(lines),
        ..
    }) = seeds_item
    {
        for cond in start::conditions(lines) {
            tc.expect(cond, Ty::Bool, Scope::setup());
        }
    }
    check_rules(&program.items, &mut tc, &statics, stores_sown, &mut diags);
    for item in &program.items {
        match &item.kind {
            ItemKind::Feeding(Some(p)) => tc.expect(p, Ty::Player, Scope::after_move()),
            ItemKind::End(_, cond, remaining, from, result) => {
                has_end = true;
                tc.expect(cond, Ty::Bool, Scope::after_move());
                if let Some(Remaining::To(p)) = remaining {
                    tc.expect(p, Ty::Player, Scope::after_move());
                }
                if let Some(pits) = from {
                    tc.expect_pits(pits, Scope::after_move());
                    if let Some(mode @ (Remaining::InPlace | Remaining::Uncounted)) = remaining {
                        let word = if *mode == Remaining::InPlace { "in place" } else { "uncounted" };
                        diags.push(
                            Diagnostic::error(
                                "sow::check::conflict",
                                format!("`remaining {word}` moves no seeds, so `from` has no pits to limit"),
                                pits.span,
                                "these pits",
                            )
                            .with_help("to count only these pits' seeds, write `remaining owner from ...`: they go to their owners' stores, the others count for nobody"),
                        );
                    }
                }
                if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = result {
                    tc.expect(p, Ty::Player, Scope::after_move());
                }
            }
            ItemKind::Phase(_, cond, inner) => {
                tc.expect(cond, Ty::Bool, Scope::phase_choice());
                check_rules(inner, &mut tc, &statics, stores_sown, &mut diags);
                let no_sowing = inner.iter().find(|i| matches!(i.kind, ItemKind::NoSowing)).map(|i| i.span);
                check_sowing_nothing(inner, no_sowing, &mut diags);
                let mut no_captures = None;
                let mut first_capture = None;
                for i in inner {
                    match &i.kind {
                        ItemKind::NoCaptures => no_captures = Some(i.span),
                        ItemKind::AfterMove(def) => check_after_move(def, no_sowing.is_some(), &mut tc, &mut diags),
                        ItemKind::At(..) | ItemKind::NoSowing => {}
                        ItemKind::Capture(_) => first_capture = first_capture.or(Some(i.span)),
                        k if k.is_sowing() => {}
                        ItemKind::PassWhen(cond) => tc.expect(cond, Ty::Bool, Scope::turn_start()),
                        ItemKind::Forbid(..)
                        | ItemKind::ForbidAfter(..)
                        | ItemKind::PhaseOptional
                        | ItemKind::CapturesRequired => {}
                        ItemKind::Drop(crate::syntax::ast::DropKind::Forbid, name) => {
                            let usual = program.items.iter().any(|u| {
                                matches!(&u.kind, ItemKind::Forbid(n, _) | ItemKind::ForbidAfter(n, _) if n.node == name.node)
                            });
                            if !usual {
                                diags.push(
                                    Diagnostic::error(
                                        "sow::check::unknown_name",
                                        format!("no usual `forbid` is named \"{}\"", name.node),
                                        name.span,
                                        "not a forbid of the usual rules",
                                    )
                                    .with_help("a phase sets aside a `forbid` written at the top level of the file, by its name"),
                                );
                            }
                        }
                        ItemKind::Drop(..) => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "a phase can set aside only a usual `forbid`",
                                i.span,
                                "in a phase",
                            )
                            .with_help("a phase replaces the usual captures with its own, and adds its own rules at each moment; `drop forbid \"NAME\"` lifts a usual forbid while the phase applies"),
                        ),
                        _ => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "this cannot be written inside a phase",
                                i.span,
                                "not allowed in a phase",
                            )
                            .with_help(
                                "a phase may hold `sow { }`, `forbid`, `capture`, rules at a moment (`at lap end`, `after move`, ...), `no captures`, `captures required`, `no sowing`, `optional` and `pass when COND` (`pass when unable` holds for the whole game: write it at the top level)",
                            ),
                        ),
                    }
                }
                if let (Some(a), Some(b)) = (no_captures, first_capture) {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::conflict",
                            "this phase says `no captures` but also has a capture rule",
                            b,
                            "a capture rule",
                        )
                        .with_label(a, "no captures")
                        .with_help("remove one of them"),
                    );
                }
            }
            ItemKind::AfterMove(def) => check_after_move(def, false, &mut tc, &mut diags),
            ItemKind::PassWhen(cond) => tc.expect(cond, Ty::Bool, Scope::turn_start()),
            ItemKind::MatchEnds(cond) => {
                has_match_end = true;
                tc.expect(cond, Ty::Bool, Scope::after_move());
            }
            ItemKind::SetupFill(n, options) => {
                has_setup = true;
                fill = bounded(
                    &statics,
                    n,
                    1..=limits::MAX_SEEDS_PER_PIT,
                    |v| format!("filling pits with {v} seeds is not possible"),
                    "seeds per pit",
                    &mut diags,
                )
                .map(|v| v as u32);
                check_fill_options(options, &mut diags);
            }
            ItemKind::SetupStore(n) => {
                kept_in_store = bounded(
                    &statics,
                    n,
                    0..=limits::MAX_TOTAL_SEEDS,
                    |v| format!("keeping {v} seeds in the store is not possible"),
                    "seeds kept",
                    &mut diags,
                )
                .map_or(0, |v| v as u32);
            }
            ItemKind::SetupDeal | ItemKind::SetupByMoves => has_setup = true,
            ItemKind::Rounds => has_rounds = true,
            ItemKind::NextRoundFirst(rule, Some(tie)) => check_tie_break(*rule, tie, &mut diags),
            _ => {}
        }
    }
    if let Some(a) = program.items.iter().find(|i| matches!(i.kind, ItemKind::NoCaptures))
        && let Some(b) = program.items.iter().find(|i| matches!(i.kind, ItemKind::Capture(_)))
    {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "the file says `no captures` but also has a capture rule",
                b.span,
                "a capture rule",
            )
            .with_label(a.span, "no captures")
            .with_help("remove one of them"),
        );
    }
    stated_ends::check(&program.items, &mut diags);
    round_moments::check_places(&program.items, &mut diags);
    if !has_end && !stated_ends::any(&program.items) {
        diags.push(
            Diagnostic::error(
                "sow::check::no_end",
                "the game has no `end` rule, so it can never finish",
                at_file,
                "in this file",
            )
            .with_help("add for example `end \"no move left\" when no_moves remaining owner`"),
        );
    }
    check_mirror(&program.items, &mut diags);
    if has_rounds {
        if !has_match_end {
            diags.push(
                Diagnostic::error(
                    "sow::check::missing",
                    "the match of rounds never ends: `rounds` has no `match ends when`",
                    at_file,
                    "in this file",
                )
                .with_help("add `match ends when rounds_won(south) >= 4 or rounds_won(north) >= 4` inside `rounds { }`"),
            );
        }
        if !has_setup {
            diags.push(
                Diagnostic::error(
                    "sow::check::missing",
                    "`rounds` does not say how the next round is set up",
                    at_file,
                    "in this file",
                )
                .with_help("add `setup fill 4 close unfilled` or `setup deal fewest` inside `rounds { }`"),
            );
        }
    } else if let Some(i) = program.items.iter().find(|i| {
        matches!(
            i.kind,
            ItemKind::MatchEnds(_)
                | ItemKind::MatchWinner(_)
                | ItemKind::SetupFill(..)
                | ItemKind::SetupDeal
                | ItemKind::SetupByMoves
                | ItemKind::SetupKeepClaims
                | ItemKind::SetupMirror
                | ItemKind::SetupStore(_)
                | ItemKind::NextRoundFirst(..)
        )
    }) {
        diags.push(
            Diagnostic::error("sow::check::misplaced", "round settings outside `rounds { }`", i.span, "here")
                .with_help("move it inside `rounds { }`"),
        );
    }

    diags.append(&mut tc.diags);
    // Rules that can never fire: only looked for in a file without errors, whose conditions are typed.
    if !diags.iter().any(Diagnostic::is_error) {
        rules::check(&program, &params, pits, &mut diags);
    }
    diags.retain(|d| !recover::follows_from_broken(d, &program.broken));
    diags.retain(|d| {
        d.code == "sow::check::too_complex"
            || !d.labels.first().is_some_and(|l| {
                refused
                    .iter()
                    .any(|r| r.file == l.span.file && r.start <= l.span.start && l.span.end <= r.end)
            })
    });
    let diags = cap(diags, at_file);
    let (errors, warnings): (Vec<_>, Vec<_>) = diags.into_iter().partition(Diagnostic::is_error);
    match (errors.is_empty(), pits, initial) {
        (true, Some(pits), Some(initial)) => Ok(Checked {
            program,
            params,
            pits,
            rows,
            shared,
            ring: ring.is_some(),
            play_from,
            halves,
            store_pit,
            initial,
            seeds_cases,
            fill,
            kept_in_store,
            warnings,
        }),
        _ => {
            let mut all = errors;
            all.extend(warnings);
            Err(all)
        }
    }
}

/// Most problems reported for one file: past that, a file is not a rule file with mistakes but
/// something else, and thousands of reports help nobody.
const MAX_PROBLEMS: usize = 100;

/// The first [`MAX_PROBLEMS`] problems, errors first, and a note of how many more there were.
fn cap(mut diags: Vec<Diagnostic>, at_file: Span) -> Vec<Diagnostic> {
    if diags.len() <= MAX_PROBLEMS {
        return diags;
    }
    let more = diags.len() - MAX_PROBLEMS;
    diags.sort_by_key(|d| !d.is_error());
    diags.truncate(MAX_PROBLEMS);
    diags.push(
        Diagnostic::error(
            "sow::check::too_many_problems",
            format!("{more} more problems are not shown"),
            at_file,
            "in this file",
        )
        .with_help(format!("fix the {MAX_PROBLEMS} problems above and check again")),
    );
    diags
}

fn check_rules(items: &[Item], tc: &mut TypeChecker, statics: &Statics, stores_sown: bool, diags: &mut Vec<Diagnostic>) {
    if let Some(never) = items.iter().find(|i| matches!(i.kind, ItemKind::SowRelayNever))
        && let Some(relay) = items.iter().find(|i| matches!(i.kind, ItemKind::SowRelayFrom(_)))
    {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`relay from` says where a relay goes on, but `relay never` says there is none",
                relay.span,
                "relay from",
            )
            .with_label(never.span, "relay never")
            .with_help("keep one of them"),
        );
    }
    stores::relay_from_off_track(items, stores_sown, diags);
    let mut capture_names: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
    for item in items {
        if let ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) = &item.kind {
            stores::series_stores_off_track(def, stores_sown, diags);
        }
        match &item.kind {
            ItemKind::SowRelay(e) => tc.expect(e, Ty::Bool, Scope::lap_end()),
            ItemKind::SowRelayFrom(e) => tc.expect(e, Ty::Pit, Scope::lap_end()),
            ItemKind::SowSkipWhen(e) => tc.expect(e, Ty::Bool, Scope::skipping()),
            ItemKind::SowStartInOrigin(Some(e)) => tc.expect(e, Ty::Bool, Scope::before_lifting()),
            ItemKind::SowLift(e) => tc.expect(e, Ty::Int, Scope::before_lifting().choosing()),
            ItemKind::SowFromStore(e) => {
                bounded(
                    statics,
                    e,
                    1..=limits::MAX_SEEDS_PER_PIT,
                    |v| format!("a move cannot take {v} seeds from the store"),
                    "seeds a move",
                    diags,
                );
            }
            ItemKind::SowRelayLimit(e) => {
                bounded(
                    statics,
                    e,
                    1..=limits::MAX_RELAY_LIMIT,
                    |v| format!("a relay limit of {v} laps is not possible"),
                    "laps",
                    diags,
                );
            }
            ItemKind::SowIntoStore(both) if !stores_sown => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!(
                        "`into {}` needs stores that are sown into",
                        if *both { "both stores" } else { "own store" }
                    ),
                    item.span,
                    "sowing into the store",
                )
                .with_help("add `stores sown` inside `board { }`"),
            ),
            ItemKind::Forbid(_, cond) => tc.expect(cond, Ty::Bool, Scope::move_start()),
            ItemKind::ForbidAfter(_, cond) => tc.expect(cond, Ty::Bool, Scope::after_sowing()),
            ItemKind::Trigger(def) => {
                tc.expect(&def.when, Ty::Bool, Scope::trigger());
                for a in &def.actions {
                    match &a.node {
                        Action::Series(..) | Action::Then(_) | Action::SowTaken(_) | Action::SowFrom(_) => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "a trigger can only take, move or claim seeds, close or open pits and change memory",
                                a.span,
                                "not allowed in a trigger",
                            )
                            .with_help("`series` and `then` belong in a `capture` rule, which runs when the lap ends"),
                        ),
                        _ => check_action(&a.node, a.span, tc, Scope::trigger(), diags),
                    }
                }
                stores::take_into_itself(def, diags);
            }
            ItemKind::Capture(def) => {
                if let Some(first) = capture_names.get(def.name.node.as_str()) {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::duplicate",
                            "two capture rules have the same name",
                            def.name.span,
                            "again",
                        )
                        .with_label(*first, "first"),
                    );
                }
                capture_names.entry(&def.name.node).or_insert(def.name.span);
                check_lap_rule(def, tc, statics, diags);
            }
            ItemKind::At(Moment::LapEnd | Moment::AfterCapture, def) => check_lap_rule(def, tc, statics, diags),
            ItemKind::At(Moment::TurnStart, def) => check_turn_start(def, tc, diags),
            ItemKind::At(Moment::RoundStart | Moment::RoundEnd, def) => round_moments::check_rule(def, tc, diags),
            _ => {}
        }
    }
}

/// A rule at the end of a lap (a capture, or a rule `at lap end` or `after capture`): it may take,
/// walk a series, sow again and say what happens next.
fn check_lap_rule(def: &RuleDef, tc: &mut TypeChecker, statics: &Statics, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::lap_end());
    let mut took = false;
    let mut took_some = false;
    let mut thens = 0;
    // Issue 22 (found by fuzzing): a `take` after `sow taken` lifted seeds that were never sown, so the
    // board lost them. The sowing ends the rule's moment: nothing may follow it in the rule.
    let mut sown_at = None;
    for a in &def.actions {
        if let Some(sown) = sown_at
            && !matches!(a.node, Action::Then(_))
        {
            diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "nothing may follow the sowing of taken seeds in its rule",
                    a.span,
                    "after the seeds are sown again",
                )
                .with_label(sown, "the rule's seeds are sown here, which ends it")
                .with_help("write this action before the sowing, or in a rule of its own"),
            );
        }
        if matches!(a.node, Action::SowTaken(_) | Action::SowFrom(_)) {
            sown_at = Some(a.span);
        }
        match &a.node {
            Action::Series(..) if !took => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "`series` must follow a `take`",
                    a.span,
                    "series without a take",
                )
                .with_help("write `take last` first: the series walks on from the first pit taken"),
            ),
            Action::Take(..) => took = true,
            // `take N from PIT` fills the hand too, but a series walks only from a `take`'s pits.
            Action::TakeSome(..) => took_some = true,
            Action::SowTaken(_) if !took && !took_some => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "`sow taken` must follow a `take`",
                    a.span,
                    "nothing taken yet",
                )
                .with_help("write the `take` whose seeds are sown again first"),
            ),
            Action::SowTaken(_) | Action::SowFrom(_) if def.actions.iter().any(|b| matches!(b.node, Action::Then(_))) => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "a rule that sows its seeds again cannot also say `then`",
                    a.span,
                    "the move goes on with this sowing",
                )
                .with_help("remove the `then`: the lap of the taken seeds decides what happens next"),
            ),
            Action::Then(_) => {
                thens += 1;
                if thens > 1 {
                    diags.push(
                        Diagnostic::error("sow::check::duplicate", "a rule can say `then` only once", a.span, "second `then`")
                            .with_help("keep the one `then` that says what happens after this rule"),
                    );
                }
            }
            _ => {}
        }
        let scope = if matches!(a.node, Action::Series(..)) {
            Scope::lap_end().with_pit()
        } else {
            Scope::lap_end()
        };
        if let Action::Series(SeriesDef { cap: Some((n, unit)), .. }) = &a.node {
            let what = if *unit == CapUnit::Pits { "pits" } else { "seeds" };
            bounded(
                statics,
                n,
                1..=limits::MAX_SERIES_CAP,
                |v| format!("a series capped at {v} {what} takes nothing"),
                what,
                diags,
            );
        }
        check_action(&a.node, a.span, tc, scope, diags);
    }
    stores::take_into_itself(def, diags);
}

/// A rule `at turn start`: the move is named (`origin`), nothing is lifted, no lap has ended, so
/// there is no `last` to read, no series to walk and no sowing to go on with.
fn check_turn_start(def: &RuleDef, tc: &mut TypeChecker, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::move_start());
    for a in &def.actions {
        match &a.node {
            Action::Series(..) | Action::SowTaken(_) | Action::SowFrom(_) | Action::Then(_) => diags.push(
                Diagnostic::error(
                    "sow::check::misplaced",
                    "at the start of a turn nothing is sown yet: a rule there can take, move, claim and change memory",
                    a.span,
                    "not allowed at turn start",
                )
                .with_help("`series`, `sow taken` and `then` belong in a rule at the end of a lap (`capture`, `at lap end`)"),
            ),
            _ => check_action(&a.node, a.span, tc, Scope::move_start(), diags),
        }
    }
    stores::take_into_itself(def, diags);
}

/// The value of a statement's expression known before the game, when it lies in `range`; otherwise a
/// located `out_of_range` diagnostic saying what `message` says of the value.
fn bounded(
    statics: &Statics,
    e: &Expr,
    range: std::ops::RangeInclusive<i64>,
    message: impl FnOnce(i64) -> String,
    label: &str,
    diags: &mut Vec<Diagnostic>,
) -> Option<i64> {
    let v = statics.eval(e, diags)?;
    if range.contains(&v) {
        return Some(v);
    }
    diags.push(
        Diagnostic::error("sow::check::out_of_range", message(v), e.span, label).with_help(format!(
            "use {} to {}",
            range.start(),
            range.end()
        )),
    );
    None
}

/// The size of a ring board (`ring N [owned by ..]`), when the board is one and its size is possible.
fn ring_size(items: &[Item], statics: &Statics, diags: &mut Vec<Diagnostic>) -> Option<crate::board::Geometry> {
    let (e, owner) = items.iter().find_map(|i| match &i.kind {
        ItemKind::BoardRing(e, owner) => Some((e, *owner)),
        _ => None,
    })?;
    let n = bounded(
        statics,
        e,
        2..=limits::MAX_SIDE_PITS,
        |v| format!("a ring of {v} pits is not possible"),
        "pits round the ring",
        diags,
    )?;
    Some(crate::board::Geometry::ring(n as usize, owner))
}

/// On a ring owned by nobody a round is set up by the players filling its empty pits in turn
/// (`setup fill N`): the set-ups that fill a player's own pits, or pits counted from an end, have no
/// meaning there.
fn shared_ring_setup(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let mut refuse = |span: Span, word: &str| {
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                format!("`{word}` has no meaning on a ring owned by nobody"),
                span,
                "this set-up",
            )
            .with_help("on a ring owned by nobody the players fill its empty pits in turn: `setup fill N`, with `close unfilled` or `remainder next`"),
        )
    };
    for item in items {
        match &item.kind {
            ItemKind::SetupDeal => refuse(item.span, "setup deal"),
            ItemKind::SetupMirror => refuse(item.span, "setup mirror"),
            ItemKind::SetupByMoves => refuse(item.span, "setup by moves"),
            ItemKind::SetupFill(_, options) => {
                for option in options {
                    let word = match option.node {
                        FillOption::ClaimUnfilled => "claim unfilled",
                        FillOption::AsManyAsOther => "as many as the other",
                        FillOption::AsManyAsUsed => "as many as the other used",
                        FillOption::FromRight => "from right",
                        FillOption::RemainderMadeUp => "remainder made up",
                        FillOption::RemainderMadeUpClaimed => "remainder made up and claimed",
                        FillOption::CloseUnfilled | FillOption::RemainderNext => continue,
                    };
                    refuse(option.span, word);
                }
            }
            _ => {}
        }
    }
}

/// Which rows the board's `owned by halves` gives by halves: every row (the middle row too), or the
/// middle row only. A ring says it in its own words (`ring N owned by halves`).
fn halves(items: &[Item], ring: bool, diags: &mut Vec<Diagnostic>) -> crate::board::Halves {
    use crate::board::Halves;
    let mut halves = Halves::None;
    for item in items {
        let ItemKind::BoardHalves(h) = item.kind else { continue };
        if ring && h == Halves::Board {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "a ring says who owns its pits in its own words",
                    item.span,
                    "owned by halves",
                )
                .with_help("write `ring N owned by halves`"),
            );
        }
        if halves != Halves::Board {
            halves = h;
        }
    }
    halves
}

/// A move may start from pits that exist, and the moves of a player fit the engine.
fn check_play_from(items: &[Item], g: crate::board::Geometry, play_from: PlayFrom, diags: &mut Vec<Diagnostic>) {
    let item = items.iter().find(|i| matches!(i.kind, ItemKind::PlayFrom(_)));
    if let Some(item) = item {
        let none = match play_from {
            PlayFrom::Shared => (g.shared == 0).then_some("this board has no shared pits"),
            PlayFrom::Own | PlayFrom::Any => (g.side_pits() == 0).then_some("on this ring the players own no pits"),
            // On a ring owned by nobody a claim is the only way to own a pit: it may come.
            PlayFrom::Owned => None,
        };
        if let Some(why) = none {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!("no move could be made: {why}"),
                    item.span,
                    "pits played",
                )
                .with_help("shared pits come with `middle row` or `ring N owned by nobody`"),
            );
        }
    }
    // A middle row keeps its seeds from round to round; the one shared pit of an odd ring owned by
    // halves is not a row a set-up could leave alone.
    if g.shared > 0
        && g.ring
        && g.side_pits() > 0
        && let Some(rounds) = items.iter().find(|i| matches!(i.kind, ItemKind::Rounds))
    {
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                "a match of rounds is not played on a ring with shared pits",
                rounds.span,
                "rounds",
            )
            .with_help("a round's set-up fills each player's own pits from their store; shared pits have no owner to fill them (a board of rows may have a `middle row`)"),
        );
    }
    if g.ring && g.side_pits() == 0 {
        shared_ring_setup(items, diags);
    }
    // A set-up fills the players' rows: a half of the board or of the middle row would be left out.
    if g.halves != crate::board::Halves::None
        && let Some(rounds) = items.iter().find(|i| matches!(i.kind, ItemKind::Rounds))
    {
        let halves = items.iter().find(|i| matches!(i.kind, ItemKind::BoardHalves(_)));
        diags.push(
            Diagnostic::error(
                "sow::check::unsupported",
                "a match of rounds is not played on a board owned by halves",
                rounds.span,
                "rounds",
            )
            .with_label(halves.map_or(rounds.span, |h| h.span), "owned by halves")
            .with_help("a round's set-up fills each player's rows from their store, not the halves they own"),
        );
    }
    let move_pits = g.move_pits();
    // With `play from owned` the opponent's pits are moves too (when the mover owns them).
    let which = if g.plays_across {
        "a player's pits, the shared pits and the opponent's"
    } else {
        "a player's pits and the shared pits"
    };
    if move_pits as i64 > limits::MAX_SIDE_PITS {
        diags.push(
            Diagnostic::error(
                "sow::check::out_of_range",
                format!("{which} make {move_pits} moves, more than the engine plays"),
                item.map_or_else(
                    || {
                        items
                            .iter()
                            .find(|i| matches!(i.kind, ItemKind::BoardMiddle))
                            .map_or(Span::default(), |i| i.span)
                    },
                    |i| i.span,
                ),
                "the pits a move may name",
            )
            .with_help(format!("{which} may be at most {} together", limits::MAX_SIDE_PITS)),
        );
    }
    // A pass is a move of its own, numbered after the pits (and their ways).
    let phases = || {
        items.iter().chain(items.iter().flat_map(|i| match &i.kind {
            ItemKind::Phase(_, _, inner) => inner.as_slice(),
            _ => &[],
        }))
    };
    let ways = if phases().any(|i| matches!(i.kind, ItemKind::SowDirection(crate::syntax::ast::Direction::Either))) {
        2
    } else {
        1
    };
    if let Some(pass) = phases().find(|i| matches!(i.kind, ItemKind::PassWhen(_)))
        && (move_pits * ways + 1) as i64 > limits::MAX_SIDE_PITS
        && move_pits * ways <= limits::MAX_SIDE_PITS as usize
    {
        diags.push(
            Diagnostic::error(
                "sow::check::out_of_range",
                format!(
                    "a player's {} moves and the pass make {}, more than the engine plays",
                    move_pits * ways,
                    move_pits * ways + 1
                ),
                pass.span,
                "a move of its own",
            )
            .with_help(format!(
                "with a pass, a player's moves (one a pit, two when the direction is chosen) may be at most {}",
                limits::MAX_SIDE_PITS - 1
            )),
        );
    }
}

/// `next round first RULE else TIE`: only a rule that can tie has a tie-break, and it is another rule.
fn check_tie_break(
    rule: crate::syntax::ast::RoundOpener,
    tie: &crate::syntax::ast::Spanned<crate::syntax::ast::RoundOpener>,
    diags: &mut Vec<Diagnostic>,
) {
    use crate::syntax::ast::RoundOpener as O;
    let word = |o: O| match o {
        O::Alternate => "alternate",
        O::Loser => "loser",
        O::Winner => "winner",
        O::FewerSeeds => "fewer seeds",
        O::OtherThanEnder => "other than ender",
        O::Same => "same",
    };
    let problem = if !matches!(rule, O::Loser | O::Winner | O::FewerSeeds) {
        Some(format!("`{}` always names a player, so its `else` is never used", word(rule)))
    } else if tie.node == rule {
        Some(format!("`{}` cannot break its own tie", word(rule)))
    } else {
        None
    };
    if let Some(message) = problem {
        diags.push(Diagnostic::error("sow::check::conflict", message, tie.span, "tie-break").with_help(
            "`else` follows `winner`, `loser` or `fewer seeds`, and names another rule: `next round first fewer seeds else loser`",
        ));
    }
}

/// The options of one `setup fill`: each at most once, and none that contradicts another.
fn check_fill_options(options: &[crate::syntax::ast::Spanned<FillOption>], diags: &mut Vec<Diagnostic>) {
    let word = |o: FillOption| match o {
        FillOption::CloseUnfilled => "close unfilled",
        FillOption::RemainderNext => "remainder next",
        FillOption::RemainderMadeUp => "remainder made up",
        FillOption::RemainderMadeUpClaimed => "remainder made up and claimed",
        FillOption::AsManyAsOther => "as many as the other",
        FillOption::AsManyAsUsed => "as many as the other used",
        FillOption::ClaimUnfilled => "claim unfilled",
        FillOption::FromRight => "from right",
    };
    for (i, a) in options.iter().enumerate() {
        if let Some(first) = options[..i].iter().find(|b| b.node == a.node) {
            diags.push(
                Diagnostic::error(
                    "sow::check::duplicate",
                    format!("`{}` is said twice", word(a.node)),
                    a.span,
                    "again",
                )
                .with_label(first.span, "first here")
                .with_help("keep one of them"),
            );
        }
    }
    let find = |o: FillOption| options.iter().find(|b| b.node == o);
    // Where the seeds short of a whole pit go: one answer at most.
    let remainders: Vec<_> = options
        .iter()
        .filter(|o| {
            matches!(
                o.node,
                FillOption::RemainderNext | FillOption::RemainderMadeUp | FillOption::RemainderMadeUpClaimed
            )
        })
        .collect();
    if let [first, second, ..] = remainders[..]
        && first.node != second.node
    {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("`{}` and `{}` cannot go together", word(first.node), word(second.node)),
                second.span,
                "this",
            )
            .with_label(first.span, "and this")
            .with_help("each says where the seeds short of a whole pit go: keep one of them"),
        );
    }
    if let (Some(a), Some(b)) = (find(FillOption::AsManyAsOther), find(FillOption::AsManyAsUsed)) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`as many as the other` and `as many as the other used` cannot go together",
                b.span,
                "this",
            )
            .with_label(a.span, "and this")
            .with_help("each says how many pits the players fill: keep one of them"),
        );
    }
    let Some(as_many) = find(FillOption::AsManyAsOther) else {
        return;
    };
    for (other, why) in [
        (
            FillOption::ClaimUnfilled,
            "a player who fills only as many pits as the other has no seeds left over for the other's pits",
        ),
        (
            FillOption::RemainderNext,
            "it is not said whether the pit of the remainder counts as one the other must match",
        ),
        (
            FillOption::RemainderMadeUp,
            "it is not said whether the pit made up counts as one the other must match",
        ),
        (
            FillOption::RemainderMadeUpClaimed,
            "it is not said whether the pit made up counts as one the other must match",
        ),
    ] {
        if let Some(b) = find(other) {
            diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    format!("`as many as the other` and `{}` cannot go together", word(other)),
                    b.span,
                    "this",
                )
                .with_label(as_many.span, "and this")
                .with_help(format!("{why}: keep one of them")),
            );
        }
    }
}

/// `setup mirror`: the player with more seeds copies the other's pits, so the fill must leave each
/// player's seeds on their own side, in pits the copy does not decide itself.
fn check_mirror(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let Some(mirror) = items.iter().find(|i| matches!(i.kind, ItemKind::SetupMirror)) else {
        return;
    };
    if let Some(by_moves) = items.iter().find(|i| matches!(i.kind, ItemKind::SetupByMoves)) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "`setup mirror` and `setup by moves` cannot go together",
                mirror.span,
                "this",
            )
            .with_label(by_moves.span, "and this")
            .with_help("the copy is made when the round is set up, before any move puts seeds in the pits: keep one of them"),
        );
    }
    let options = items.iter().find_map(|i| match &i.kind {
        ItemKind::SetupFill(_, options) => Some(options),
        _ => None,
    });
    for option in options.into_iter().flatten() {
        let (word, why) = match option.node {
            FillOption::ClaimUnfilled => ("claim unfilled", "it puts seeds into the pits the copy would fill"),
            FillOption::AsManyAsOther => (
                "as many as the other",
                "it says which pits the other player fills, and so does the copy",
            ),
            FillOption::AsManyAsUsed => (
                "as many as the other used",
                "it says which pits the other player fills, and so does the copy",
            ),
            FillOption::RemainderMadeUp | FillOption::RemainderMadeUpClaimed => (
                "remainder made up",
                "the seeds that make the pit up are the copier's, which the copy places itself",
            ),
            _ => continue,
        };
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("`setup mirror` and `{word}` cannot go together"),
                option.span,
                "this",
            )
            .with_label(mirror.span, "and this")
            .with_help(format!("{why}: keep one of them")),
        );
    }
}

/// A `skip when` that reads `origin.count` reads the pit played as it is during the sowing: the move
/// picked up every seed it held, so it counts only the seeds sown back into it since (0 the first time a
/// lap comes round to it). What the move picked up is `lifted`. Not said where the first lap leaves seeds
/// in the pit played (`lift N`) or takes them from the store (`from store N`): there it means what it says.
fn warn_emptied_origin(items: &[Item], diags: &mut Vec<Diagnostic>) {
    let keeps_seeds = |items: &[Item]| {
        items
            .iter()
            .any(|i| matches!(i.kind, ItemKind::SowLift(_) | ItemKind::SowFromStore(_)))
    };
    let top_keeps = keeps_seeds(items);
    let phases = items.iter().filter_map(|i| match &i.kind {
        ItemKind::Phase(_, _, inner) => Some((inner.as_slice(), top_keeps || keeps_seeds(inner))),
        _ => None,
    });
    for (items, keeps) in std::iter::once((items, top_keeps)).chain(phases) {
        if keeps {
            continue;
        }
        for item in items {
            let ItemKind::SowSkipWhen(cond) = &item.kind else { continue };
            if let Some(span) = origin_count(cond) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::origin_emptied",
                        "in `skip when`, `origin.count` counts only the seeds sown back into the pit played",
                        span,
                        "0 until a seed falls back into it",
                    )
                    .warning()
                    .with_help(
                        "a move picks up every seed of the pit played before sowing; to read how many it picked up, \
                         write `lifted` (e.g. `skip when pit == origin and lifted >= 12`)",
                    ),
                );
            }
        }
    }
}

/// Where `e` reads `origin.count`, if it does.
fn origin_count(e: &Expr) -> Option<Span> {
    e.find_map(&mut |x| match &x.kind {
        ExprKind::Field(base, field) if field.node == "count" && matches!(&base.kind, ExprKind::Name(n) if n == "origin") => Some(x.span),
        _ => None,
    })
}

/// A shared track runs through one row a player and no middle row: other boards state their track
/// or use each player's own. A stated track names real pits, passes each once and reaches every pit
/// a move may start from. The first seed cannot both fall back into the pit played and pass it over.
fn check_tracks(
    items: &[Item],
    geometry: Option<crate::board::Geometry>,
    play_from: PlayFrom,
    params: &[(String, i64)],
    diags: &mut Vec<Diagnostic>,
) {
    let skip = items.iter().find(|i| matches!(i.kind, ItemKind::SowSkipOrigin));
    let start = items.iter().find(|i| matches!(i.kind, ItemKind::SowStartInOrigin(_)));
    if let (Some(skip), Some(start)) = (skip, start) {
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                "the sowing both starts in the pit played and passes it over",
                start.span,
                "starts in it",
            )
            .with_label(skip.span, "passes it over")
            .with_help("keep one of `start in origin` and `skip origin`"),
        );
    }
    // Tracks named by `track "NAME" = ...`: a reference to one is a stated track. A name that is
    // not declared is reported where it is used (and counts as stated, so nothing follows from it).
    let declared: Vec<&crate::syntax::ast::Spanned<String>> = items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::Track(name, _) => Some(name),
            _ => None,
        })
        .collect();
    let stated = |kind: Option<&TrackKind>| matches!(kind, Some(TrackKind::Path(_) | TrackKind::Named(_)));
    let top_track = items.iter().find_map(|i| match &i.kind {
        ItemKind::SowTrack(kind) => Some(kind),
        _ => None,
    });
    let Some(g) = geometry else { return };
    let middle_row = g.shared > 0 && !g.ring;
    if middle_row && !stated(top_track) {
        let span = items
            .iter()
            .find(|i| matches!(i.kind, ItemKind::BoardMiddle))
            .map_or(Span::default(), |i| i.span);
        diags.push(
            Diagnostic::error(
                "sow::check::missing",
                "a board with a middle row needs a stated track",
                span,
                "middle row",
            )
            .with_help("say how the seeds go round, e.g. `sow { track mover 1..6, shared 6..1, opponent 6..1 }`"),
        );
    }
    let tracks = items.iter().flat_map(|i| match &i.kind {
        ItemKind::Phase(_, _, inner) => inner.iter().collect::<Vec<_>>(),
        _ => vec![i],
    });
    let own_track = |kind: Option<&TrackKind>| match kind {
        Some(TrackKind::Own) => true,
        Some(_) => false,
        None => g.rows > 1,
    };
    for item in tracks {
        match &item.kind {
            ItemKind::SowTrack(TrackKind::Shared) if g.rows > 1 || middle_row => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "a shared track goes through one row a player and no middle row, but this board has more",
                    item.span,
                    "shared track",
                )
                .with_help("write `track own` (each player sows around their own rows) or state the track piece by piece"),
            ),
            ItemKind::SowTrack(TrackKind::Own) if g.side_pits() == 0 => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "on this ring the players own no pits",
                    item.span,
                    "own track",
                )
                .with_help("the seeds go round the ring: leave out `track own`"),
            ),
            ItemKind::SowTrack(TrackKind::Path(pieces)) | ItemKind::Track(_, pieces) => {
                g.check_path(pieces, item.span, play_from, params, diags)
            }
            ItemKind::SowTrack(TrackKind::Named(name)) if !declared.iter().any(|d| d.node == name.node) => {
                let d = Diagnostic::error(
                    "sow::check::unknown_name",
                    format!("no track is named \"{}\"", name.node),
                    name.span,
                    "not declared",
                );
                diags.push(match suggest(&name.node, declared.iter().map(|d| d.node.as_str())) {
                    Some(s) => d.with_help(format!("did you mean \"{s}\"?")),
                    None if declared.is_empty() => {
                        d.with_help(format!("declare it once: `track \"{}\" = mover 1..6, opponent 1..6`", name.node))
                    }
                    None => d.with_help(format!(
                        "the tracks declared are: {}",
                        declared.iter().map(|d| format!("\"{}\"", d.node)).collect::<Vec<_>>().join(", ")
                    )),
                });
            }
            ItemKind::SowDirection(crate::syntax::ast::Direction::Either) if 2 * g.move_pits() as i64 > limits::MAX_SIDE_PITS => diags
                .push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        "with the direction chosen, a player's pits make more moves than the engine plays",
                        item.span,
                        "two moves a pit",
                    )
                    .with_help(format!(
                        "a player may have at most {} pits when the direction is chosen",
                        limits::MAX_SIDE_PITS / 2
                    )),
                ),
            ItemKind::SowIntoStore(true) if g.rows > 1 || g.shared > 0 => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "both stores are placed on the track of a board of one row a player and no shared pits",
                    item.span,
                    "both stores on the track",
                )
                .with_help("state the track with both stores in it, as pieces `mover store` and `opponent store`"),
            ),
            ItemKind::SowIntoStore(_) if g.side_pits() == 0 && !stated(top_track) => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "on a ring of shared pits a store has no place on the track of its own",
                    item.span,
                    "store on the track",
                )
                .with_help("state the track with the store in it: `track shared 1..8, mover store`"),
            ),
            ItemKind::PlayFrom(PlayFrom::Owned)
                if own_track(top_track)
                    || items.iter().any(|i| match &i.kind {
                        ItemKind::Phase(_, _, inner) => inner.iter().any(|i| matches!(i.kind, ItemKind::SowTrack(TrackKind::Own))),
                        _ => false,
                    }) =>
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::unsupported",
                        "a pit owned in the opponent's rows is not on a player's own track",
                        item.span,
                        "pits played wherever they lie",
                    )
                    .with_help("state the track through both players' rows (`track mover ..., opponent ...`), or play from `own`"),
                )
            }
            ItemKind::SowIntoStore(_) if own_track(top_track) && play_from != PlayFrom::Own => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "an own track with shared pits played has no place for the store",
                    item.span,
                    "store on the track",
                )
                .with_help("state the track with the store in it"),
            ),
            _ => {}
        }
    }
}

/// Is the expression written as a set of pits (`board`, `row(P)`, `... where ...`)?
/// An `after move` rule acts once the move's sowing is over: it may take, walk a series, move, claim
/// and change memory, and give the mover another move; there is no sowing left to go on with or end.
/// In a phase whose moves sow nothing, its rules are what the move does.
fn check_after_move(def: &RuleDef, _sows_nothing: bool, tc: &mut TypeChecker, diags: &mut Vec<Diagnostic>) {
    tc.expect(&def.when, Ty::Bool, Scope::after_sowing());
    let mut took = false;
    for a in &def.actions {
        match &a.node {
            Action::SowTaken(_) | Action::SowFrom(_) | Action::Then(crate::syntax::ast::Then::End | crate::syntax::ast::Then::Continue) => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::misplaced",
                        "after the move its sowing is over: nothing can be sown again, and the move has ended anyway",
                        a.span,
                        "not allowed after the move",
                    )
                    .with_help("write this in a rule at the end of a lap (`capture`, `at lap end`); after the move, `then another move` gives the mover another move"),
                )
            }
            Action::Series(..) if !took => diags.push(
                Diagnostic::error("sow::check::misplaced", "`series` must follow a `take`", a.span, "series without a take")
                    .with_help("write `take last` first: the series walks on from the first pit taken"),
            ),
            Action::Series(..) => check_action(&a.node, a.span, tc, Scope::after_sowing().with_pit(), diags),
            _ => {
                took |= matches!(a.node, Action::Take(..));
                check_action(&a.node, a.span, tc, Scope::after_sowing(), diags)
            }
        }
    }
    stores::take_into_itself(def, diags);
}

/// A phase with `no sowing`: no lap is sown, so no lap ends for a capture rule and no `sow { }`
/// statement has anything to say; what a move does is its `after move` rules' `move`s, without
/// which every move would change nothing and none would be legal.
fn check_sowing_nothing(inner: &[Item], no_sowing: Option<Span>, diags: &mut Vec<Diagnostic>) {
    let Some(no_sowing) = no_sowing else { return };
    for i in inner {
        let what = match &i.kind {
            ItemKind::Capture(_) | ItemKind::CapturesRequired => "no lap ends, so no capture rule is ever tried",
            k if k.is_sowing() => "no seed is sown, so this says nothing",
            _ => continue,
        };
        diags.push(
            Diagnostic::error(
                "sow::check::conflict",
                format!("this phase says `no sowing`: {what}"),
                i.span,
                "in a phase that sows nothing",
            )
            .with_label(no_sowing, "no sowing")
            .with_help("remove one of them; the phase's `after move` rules say what a move does"),
        );
    }
    let moves_seeds = inner.iter().any(|i| match &i.kind {
        ItemKind::AfterMove(def) => def.actions.iter().any(|a| matches!(a.node, Action::Move(_))),
        _ => false,
    });
    if !moves_seeds {
        diags.push(
            Diagnostic::error(
                "sow::check::missing",
                "this phase sows nothing and no `after move` rule of it moves seeds: no move could change the board",
                no_sowing,
                "its moves sow nothing",
            )
            .with_help("add for example `after move \"shift\" { when origin.count > 0  move 1 from origin to choose(row(mover) where pit != origin) }` inside the phase"),
        );
    }
}

fn names_a_set(e: &Expr) -> bool {
    match &e.kind {
        ExprKind::Where(..) => true,
        ExprKind::Name(n) => n == "board",
        ExprKind::Call(name, _) => name.node == "row",
        _ => false,
    }
}

fn check_action(action: &Action, _span: Span, tc: &mut TypeChecker, scope: Scope, _diags: &mut Vec<Diagnostic>) {
    // What a rule does may ask the mover to choose; a series' condition is read pit after pit.
    let scope = if matches!(action, Action::Series(..)) {
        scope
    } else {
        scope.choosing()
    };
    match action {
        Action::Take(pits, to) => {
            tc.expect_pit_list(pits, scope, "take");
            if let Some(Receiver::Player(p)) = to {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Series(series) => tc.expect(&series.cond, Ty::Bool, scope),
        Action::Move(m) => {
            if let Some(n) = &m.count {
                tc.expect(n, Ty::Int, scope);
            }
            let several = m.from.len() > 1 || m.from.iter().any(names_a_set);
            tc.expect_pit_list(&m.from, scope, "from");
            tc.expect(&m.to, Ty::Pit, scope);
            if several && m.count.is_some() && !m.each {
                _diags.push(
                    Diagnostic::error(
                        "sow::check::unclear",
                        "seeds moved from several pits: say whether the number is for each pit",
                        _span,
                        "from several pits",
                    )
                    .with_help("write `move N from each of ...` (N seeds from every pit), or `move all from ...`"),
                );
            }
        }
        Action::Claim(pits, player) => {
            tc.expect_pit_list(pits, scope, "claim");
            tc.expect(player, Ty::Player, scope);
        }
        Action::SowTaken(again) | Action::SowFrom(again) => {
            // `either`: the mover chooses the way of this sowing, when the rule is carried out.
            if let Some(pit) = &again.pit {
                tc.expect(pit, Ty::Pit, scope);
            }
        }
        Action::TakeSome(count, pit, to) => {
            tc.expect(count, Ty::Int, scope);
            tc.expect(pit, Ty::Pit, scope);
            if let Some(Receiver::Player(p)) = to {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Close(pits, _) => tc.expect_pit_list(pits, scope, "close"),
        Action::Then(_) => {}
        Action::End(end) => {
            if let Some(Remaining::To(p)) = &end.remaining {
                tc.expect(p, Ty::Player, scope);
            }
            if let Some(pits) = &end.from {
                tc.expect_pits(pits, scope);
            }
            if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = &end.result {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Set(target, value) => {
            if let Some(m) = tc.memory_target(target, scope) {
                tc.expect(value, if m.holds_pit { Ty::Pit } else { Ty::Int }, scope);
            }
        }
        Action::Add(amount, target) => {
            if let Some(m) = tc.memory_target(target, scope) {
                if m.holds_pit {
                    _diags.push(
                        Diagnostic::error(
                            "sow::check::type_mismatch",
                            format!("`{}` holds a pit, which cannot be added to", m.name),
                            target.span,
                            "a pit",
                        )
                        .with_help(format!("give it another pit with `set ... {} = PIT`", m.name)),
                    );
                } else {
                    tc.expect(amount, Ty::Int, scope);
                }
            }
        }
    }
}

/// The values of `memory { }`: their starts are numbers known before the game, or `no_pit` for a
/// memory that holds a pit; their names are not those of a pit's own fields.
fn memory(items: &[Item], statics: &Statics, diags: &mut Vec<Diagnostic>) -> Vec<types::MemoryDecl> {
    let mut decls = Vec::new();
    for item in items {
        let ItemKind::Memory(slot) = &item.kind else { continue };
        if types::FIELDS.contains(&slot.name.node.as_str()) {
            diags.push(
                Diagnostic::error(
                    "sow::check::reserved_name",
                    format!("`{}` is a field every pit has, and cannot name memory", slot.name.node),
                    slot.name.span,
                    "reserved",
                )
                .with_help("choose another name"),
            );
            continue;
        }
        let holds_pit = matches!(&slot.start.kind, ExprKind::Name(n) if n == "no_pit");
        if !holds_pit {
            statics.eval(&slot.start, diags);
        }
        decls.push(types::MemoryDecl {
            name: slot.name.node.clone(),
            per_pit: slot.owner.node == crate::syntax::ast::MemoryOwner::Pit,
            whole_game: slot.owner.node == crate::syntax::ast::MemoryOwner::Game,
            holds_pit,
        });
    }
    decls
}

fn layout(
    rows: &[crate::syntax::ast::LayoutSide],
    n: usize,
    board_rows: usize,
    span: Span,
    statics: &Statics,
    diags: &mut Vec<Diagnostic>,
) -> Option<Vec<u32>> {
    use crate::syntax::ast::PlayerLit;
    let side_pits = n * board_rows;
    let mut cells = vec![0u32; 2 * side_pits];
    let mut ok = true;
    let mut seen = [false; 2];
    for (player, side_rows) in rows {
        let side = usize::from(player.node == PlayerLit::North);
        if seen[side] {
            diags.push(
                Diagnostic::error("sow::check::duplicate", "this row's layout is given twice", player.span, "again")
                    .with_help("give each row once"),
            );
            ok = false;
        }
        if side_rows.len() != board_rows {
            let what = if board_rows == 1 {
                "one list of pits"
            } else {
                "a list of rows, the front row first"
            };
            diags.push(
                Diagnostic::error(
                    "sow::check::wrong_length",
                    format!(
                        "the layout gives {} row{} for {} but a player has {board_rows}",
                        side_rows.len(),
                        if side_rows.len() == 1 { "" } else { "s" },
                        if side == 0 { "south" } else { "north" }
                    ),
                    player.span,
                    "this player's layout",
                )
                .with_help(format!(
                    "give {what}: {board_rows} list{} of {n} numbers",
                    if board_rows == 1 { "" } else { "s" }
                )),
            );
            ok = false;
            seen[side] = true;
            continue;
        }
        seen[side] = true;
        for (r, values) in side_rows.iter().enumerate() {
            if !row_layout(values, side * side_pits + r * n, n, &mut cells, statics, diags) {
                ok = false;
            }
        }
    }
    // A row given twice is the root cause; the other row's absence only follows from it.
    if seen != [true, true] && rows.len() < 2 {
        diags.push(
            Diagnostic::error("sow::check::missing", "the layout must give both rows", span, "layout")
                .with_help("write `layout south [..] north [..]`"),
        );
        ok = false;
    }
    ok.then_some(cells)
}

/// One row of a layout, written into `cells` from `first`; false when it has a problem.
fn row_layout(
    values: &crate::syntax::ast::Spanned<Vec<Expr>>,
    first: usize,
    n: usize,
    cells: &mut [u32],
    statics: &Statics,
    diags: &mut Vec<Diagnostic>,
) -> bool {
    if values.node.len() != n {
        diags.push(
            Diagnostic::error(
                "sow::check::wrong_length",
                format!("the layout gives {} pits but a row has {n}", values.node.len()),
                values.span,
                "this row",
            )
            .with_help(format!("give exactly {n} numbers, pit 1 first")),
        );
        return false;
    }
    let mut ok = true;
    for (i, e) in values.node.iter().enumerate() {
        match statics.eval(e, diags) {
            Some(v) if (0..=limits::MAX_SEEDS_PER_PIT).contains(&v) => cells[first + i] = v as u32,
            Some(v) => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("{v} seeds in a pit is not possible"),
                        e.span,
                        "seeds",
                    )
                    .with_help(format!("a pit starts with 0 to {} seeds", limits::MAX_SEEDS_PER_PIT)),
                );
                ok = false;
            }
            None => ok = false,
        }
    }
    ok
}

/// Evaluates expressions that must be known before the game starts (board size, seeds).
pub(crate) struct Statics<'a> {
    pub(crate) params: &'a [(String, i64)],
}

impl Statics<'_> {
    pub(crate) fn eval(&self, e: &Expr, diags: &mut Vec<Diagnostic>) -> Option<i64> {
        use crate::syntax::ast::BinOp;
        match &e.kind {
            ExprKind::Int(n) => Some(*n),
            ExprKind::Name(n) => match self.params.iter().find(|(p, _)| p == n) {
                Some((_, v)) => Some(*v),
                None => {
                    let mut d = Diagnostic::error(
                        "sow::check::not_static",
                        format!("`{n}` is not known before the game starts"),
                        e.span,
                        "not a parameter",
                    );
                    d = match suggest(n, self.params.iter().map(|(p, _)| p.as_str())) {
                        None if types::CONVENTIONAL_PARAMS.contains(&n.as_str()) => d.with_help(types::undeclared_help(n, None)),
                        Some(s) => d.with_help(format!("did you mean the parameter `{s}`?")),
                        None => d.with_help("only numbers and parameters (`param NAME = ...`) can be used here"),
                    };
                    diags.push(d);
                    None
                }
            },
            ExprKind::Neg(x) => self.eval(x, diags).map(i64::wrapping_neg),
            ExprKind::Binary(op, a, b) if matches!(op, BinOp::Add | BinOp::Sub | BinOp::Mul | BinOp::Div | BinOp::Rem) => {
                let (a, b) = (self.eval(a, diags)?, self.eval(b, diags)?);
                let r = match op {
                    BinOp::Add => a.checked_add(b),
                    BinOp::Sub => a.checked_sub(b),
                    BinOp::Mul => a.checked_mul(b),
                    BinOp::Div => a.checked_div_euclid(b),
                    _ => a.checked_rem_euclid(b),
                };
                if r.is_none() {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::out_of_range",
                            "this calculation divides by zero or gives a number too large to hold",
                            e.span,
                            "cannot be worked out",
                        )
                        .with_help("check the numbers: a divisor must not be 0"),
                    );
                }
                r
            }
            _ => {
                diags.push(
                    Diagnostic::error(
                        "sow::check::not_static",
                        "this must be a number known before the game starts",
                        e.span,
                        "not a plain number",
                    )
                    .with_help("use numbers, parameters and + - * / %"),
                );
                None
            }
        }
    }
}

/// The values a parameter may take: a range (of one parity, or of both), or a set.
struct Allowed {
    range: Option<(i64, i64)>,
    even: Option<bool>,
    only: Option<Vec<i64>>,
}

impl Allowed {
    fn admits(&self, v: i64) -> bool {
        self.range.is_none_or(|(lo, hi)| (lo..=hi).contains(&v))
            && self.even.is_none_or(|even| (v.rem_euclid(2) == 0) == even)
            && self.only.as_ref().is_none_or(|only| only.contains(&v))
    }

    /// The allowed values in words, after "must be".
    fn describe(&self) -> String {
        match (&self.only, self.range, self.even) {
            (Some(only), ..) => {
                let list: Vec<String> = only.iter().map(i64::to_string).collect();
                format!("one of {}", list.join(", "))
            }
            (None, Some((lo, hi)), Some(even)) => {
                format!("an {} number from {lo} to {hi}", if even { "even" } else { "odd" })
            }
            (None, Some((lo, hi)), None) => format!("from {lo} to {hi}"),
            (None, None, _) => "any number".into(),
        }
    }
}

fn params(program: &Program, overrides: &[Override], diags: &mut Vec<Diagnostic>) -> Vec<(String, i64)> {
    let mut values = Vec::new();
    let mut declared = Vec::new();
    for item in &program.items {
        if let ItemKind::Param {
            name,
            default,
            range,
            parity,
            values: only,
        } = &item.kind
        {
            declared.push(name.node.clone());
            if types::BUILTIN_NAMES.contains(&name.node.as_str()) {
                diags.push(
                    Diagnostic::error(
                        "sow::check::reserved_name",
                        format!("`{}` is a built-in name and cannot be a parameter", name.node),
                        name.span,
                        "reserved",
                    )
                    .with_help("choose another name"),
                );
                continue;
            }
            let allowed = Allowed {
                range: range.as_ref().map(|(lo, hi)| (lo.node, hi.node)),
                even: parity.as_ref().map(|p| p.node),
                only: only.as_ref().map(|v| v.node.iter().map(|n| n.node).collect()),
            };
            // Where the allowed values are written, for labels.
            let allowed_span = match (range, only) {
                (Some((lo, hi)), _) => Some(parity.as_ref().map_or(lo.span.to(hi.span), |p| lo.span.to(p.span))),
                (_, Some(v)) => Some(v.span),
                _ => None,
            };
            let mut value = default.node;
            if let Some((lo, hi)) = range
                && lo.node > hi.node
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::empty_range",
                        format!("range `{}..{}` is empty", lo.node, hi.node),
                        lo.span.to(hi.span),
                        "lower bound is above the upper one",
                    )
                    .with_help(format!("write the smaller bound first: `{}..{}`", hi.node, lo.node)),
                );
            } else if let (Some((lo, hi)), Some(p)) = (range, parity)
                && lo.node == hi.node
                && (lo.node.rem_euclid(2) == 0) != p.node
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::empty_range",
                        format!("`{}..{}` holds no {} number", lo.node, hi.node, if p.node { "even" } else { "odd" }),
                        lo.span.to(p.span),
                        "no value is allowed",
                    )
                    .with_help("widen the range or drop the parity"),
                );
            } else if let (Some((lo, hi)), None) = (range, parity)
                && !(lo.node..=hi.node).contains(&default.node)
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("the default {} is outside `{}..{}`", default.node, lo.node, hi.node),
                        default.span,
                        "default",
                    )
                    .with_label(lo.span.to(hi.span), "allowed range")
                    .with_help("choose a default inside the range"),
                );
            } else if let Some(span) = allowed_span
                && !allowed.admits(default.node)
            {
                diags.push(
                    Diagnostic::error(
                        "sow::check::out_of_range",
                        format!("the default {} is not {}", default.node, allowed.describe()),
                        default.span,
                        "default",
                    )
                    .with_label(span, "allowed values")
                    .with_help("choose a default among the allowed values"),
                );
            }
            if let Some(o) = overrides.iter().rev().find(|o| o.name == name.node) {
                match (allowed_span, range, parity) {
                    (_, Some((lo, hi)), None) if !(lo.node..=hi.node).contains(&o.value) => diags.push(
                        Diagnostic::error(
                            "sow::check::bad_parameter",
                            format!("`{}={}` is outside the allowed range {}..{}", o.name, o.value, lo.node, hi.node),
                            lo.span.to(hi.span),
                            "allowed range",
                        )
                        .with_help(format!("choose a value of `{}` from {} to {}", o.name, lo.node, hi.node)),
                    ),
                    (Some(span), ..) if !allowed.admits(o.value) => diags.push(
                        Diagnostic::error(
                            "sow::check::bad_parameter",
                            format!(
                                "`{}={}` is not allowed: `{}` must be {}",
                                o.name,
                                o.value,
                                o.name,
                                allowed.describe()
                            ),
                            span,
                            "allowed values",
                        )
                        .with_help(format!("give `{}` a value that is {}", o.name, allowed.describe())),
                    ),
                    _ => value = o.value,
                }
            }
            values.push((name.node.clone(), value));
        }
    }
    for o in overrides {
        if !declared.contains(&o.name) {
            let mut d = Diagnostic::bare("sow::check::bad_parameter", format!("the game has no parameter `{}`", o.name));
            d = match suggest(&o.name, declared.iter().map(String::as_str)) {
                Some(s) => d.with_help(format!("did you mean `{s}`?")),
                None if declared.is_empty() => d.with_help("this game declares no parameters"),
                None => d.with_help(format!("its parameters are: {}", declared.join(", "))),
            };
            diags.push(d);
        }
    }
    values
}
