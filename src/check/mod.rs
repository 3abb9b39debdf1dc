//! Stage 2, check: a merged [`Program`] → [`Checked`] or every problem found. Names are resolved,
//! expressions typed, board sizes and parameters evaluated and range-checked, contradictions found.
//! Nothing is changed; `compile` accepts only what this stage returns.

pub(crate) mod board;
mod lets;
pub mod load;
mod moments;
mod params;
mod recover;
mod round_moments;
mod rules;
mod start;
mod stated_ends;
mod store_pit;
mod stores;
mod types;
pub mod words;

use crate::diagnostic::{Diagnostic, Span};
use crate::syntax::ast::{EndResult, Item, ItemKind, PlayFrom, Remaining};
use board::{check_play_from, check_tracks, halves, layout, ring_size, row_layout};
pub use load::{Program, load, load_text};
use moments::{bounded, check_after_move, check_rules, check_sowing_nothing, lap_numbers, warn_emptied_origin};
pub(crate) use params::Statics;
use params::{memory, params};
use round_moments::check_tie_break;
use start::{check_fill_options, check_mirror};
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
        options: Vec::new(),
        lap_numbers: Vec::new(),
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
    words::check(&program.items, &tc.options, &mut diags);
    lap_numbers(&program.items, &statics, &tc.lap_numbers, &mut diags);
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
