//! Stage 2, check: a merged [`Program`] → [`Checked`] or every problem found. Names are resolved,
//! expressions typed, board sizes and parameters evaluated and range-checked, contradictions found.
//! Nothing is changed; `compile` accepts only what this stage returns.

mod lets;
pub mod load;
mod recover;
mod rules;
mod types;

use crate::diagnostic::{Diagnostic, Span, suggest};
use crate::syntax::ast::{Action, EndResult, Expr, ExprKind, FillOption, Item, ItemKind, Receiver, Remaining, TrackKind};
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
    /// Laps allowed when the file sets no `relay limit`.
    pub const DEFAULT_RELAY_LIMIT: u32 = 1000;
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
    /// Seeds of every cell at the start (pits, then the two stores); with `seeds N where COND`,
    /// N in every pit, to be kept only where COND holds (`seeds_where`).
    pub(crate) initial: Vec<u32>,
    /// The `COND` of `seeds N where COND`: the pits that start with seeds.
    pub(crate) seeds_where: Option<Expr>,
    /// Seeds per pit of `setup fill N`.
    pub(crate) fill: Option<u32>,
    /// Seeds of `setup store N`: each player keeps them in the store when a round is set up.
    pub(crate) kept_in_store: u32,
    /// Warnings found while checking.
    pub warnings: Vec<Diagnostic>,
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
    lets::expand(&mut program.items, &params, &mut diags);
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
    match find(&|k| matches!(k, ItemKind::BoardPits(_))) {
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
        _ => diags.push(
            Diagnostic::error("sow::check::missing", "the board has no size", at_file, "in this file")
                .with_help("add `board { pits 6  seeds 4 }`"),
        ),
    }
    let mut rows = 1usize;
    if let Some(Item {
        kind: ItemKind::BoardRows(e),
        ..
    }) = find(&|k| matches!(k, ItemKind::BoardRows(_)))
        && let Some(n) = statics.eval(e, &mut diags)
    {
        if !(1..=limits::MAX_ROWS).contains(&n) {
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
    let mut seeds_where = None;
    let seeds_item = find(&|k| matches!(k, ItemKind::BoardSeeds(_)));
    let layout_item = find(&|k| matches!(k, ItemKind::BoardLayout(_)));
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
                // `seeds N where COND`: N in each pit where COND holds, worked out when compiled.
                let e = match &e.kind {
                    ExprKind::Where(count, cond) => {
                        seeds_where = Some((**cond).clone());
                        &**count
                    }
                    _ => e,
                };
                statics.eval(e, &mut diags).and_then(|v| {
                    if (0..=limits::MAX_SEEDS_PER_PIT).contains(&v) {
                        Some(vec![v as u32; 2 * n * rows])
                    } else {
                        diags.push(
                            Diagnostic::error(
                                "sow::check::out_of_range",
                                format!("{v} seeds in a pit is not possible"),
                                e.span,
                                "seeds per pit",
                            )
                            .with_help(format!("a pit starts with 0 to {} seeds", limits::MAX_SEEDS_PER_PIT)),
                        );
                        None
                    }
                })
            }
            (
                _,
                Some(Item {
                    kind: ItemKind::BoardLayout(layout_rows),
                    span,
                }),
            ) => layout(layout_rows, n, rows, *span, &statics, &mut diags),
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
        .any(|i| matches!(i.kind, ItemKind::BoardStores(crate::syntax::ast::StoreMode::Sown)));
    check_tracks(&program.items, rows, pits.map(|p| p * rows), &mut diags);

    // Expressions, sowing, rules.
    let mut tc = TypeChecker {
        params: &params,
        diags: Vec::new(),
        board_pits: pits,
    };
    let mut has_end = false;
    let mut fill = None;
    let mut kept_in_store = 0;
    let mut has_rounds = false;
    let mut has_setup = false;
    let mut has_match_end = false;
    if let Some(cond) = &seeds_where {
        tc.expect(cond, Ty::Bool, Scope::setup());
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
                let mut no_captures = None;
                let mut first_capture = None;
                for i in inner {
                    match &i.kind {
                        ItemKind::NoCaptures => no_captures = Some(i.span),
                        ItemKind::Capture(_) => first_capture = first_capture.or(Some(i.span)),
                        ItemKind::Forbid(..)
                        | ItemKind::SowDirection(_)
                        | ItemKind::SowTrack(_)
                        | ItemKind::SowSkipOrigin
                        | ItemKind::SowIntoStore
                        | ItemKind::SowRelay(_)
                        | ItemKind::SowRelayFrom(_)
                        | ItemKind::SowRelayNever
                        | ItemKind::SowStartInOrigin(_)
                        | ItemKind::SowRelayLimit(_)
                        | ItemKind::SowFromStore(_)
                        | ItemKind::CapturesRequired => {}
                        _ => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "this cannot be written inside a phase",
                                i.span,
                                "not allowed in a phase",
                            )
                            .with_help("a phase may hold `sow { }`, `forbid`, `capture`, `no captures` and `captures required`"),
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
            ItemKind::SetupDeal => has_setup = true,
            ItemKind::Rounds => has_rounds = true,
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
    if !has_end {
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
                | ItemKind::SetupKeepClaims
                | ItemKind::SetupMirror
                | ItemKind::SetupStore(_)
                | ItemKind::NextRoundFirst(_)
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
    let diags = cap(diags, at_file);
    let (errors, warnings): (Vec<_>, Vec<_>) = diags.into_iter().partition(Diagnostic::is_error);
    match (errors.is_empty(), pits, initial) {
        (true, Some(pits), Some(initial)) => Ok(Checked {
            program,
            params,
            pits,
            rows,
            initial,
            seeds_where,
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
    let mut capture_names: std::collections::HashMap<&str, Span> = std::collections::HashMap::new();
    for item in items {
        match &item.kind {
            ItemKind::SowRelay(e) => tc.expect(e, Ty::Bool, Scope::lap_end()),
            ItemKind::SowRelayFrom(e) => tc.expect(e, Ty::Pit, Scope::lap_end()),
            ItemKind::SowStartInOrigin(Some(e)) => tc.expect(e, Ty::Bool, Scope::move_start()),
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
            ItemKind::SowIntoStore if !stores_sown => diags.push(
                Diagnostic::error(
                    "sow::check::conflict",
                    "`into own store` needs stores that are sown into",
                    item.span,
                    "sowing into the store",
                )
                .with_help("add `stores sown` inside `board { }`"),
            ),
            ItemKind::Forbid(_, cond) => tc.expect(cond, Ty::Bool, Scope::move_start()),
            ItemKind::Trigger(def) => {
                tc.expect(&def.when, Ty::Bool, Scope::trigger());
                for a in &def.actions {
                    match &a.node {
                        Action::Series(..) | Action::Then(_) | Action::SowTaken(_) => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "a trigger can only take, move or claim seeds",
                                a.span,
                                "not allowed in a trigger",
                            )
                            .with_help("`series` and `then` belong in a `capture` rule, which runs when the lap ends"),
                        ),
                        _ => check_action(&a.node, a.span, tc, Scope::trigger(), diags),
                    }
                }
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
                tc.expect(&def.when, Ty::Bool, Scope::lap_end());
                let mut took = false;
                let mut thens = 0;
                for a in &def.actions {
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
                        Action::SowTaken(_) if !took => diags.push(
                            Diagnostic::error(
                                "sow::check::misplaced",
                                "`sow taken` must follow a `take`",
                                a.span,
                                "nothing taken yet",
                            )
                            .with_help("write the `take` whose seeds are sown again first"),
                        ),
                        Action::SowTaken(_) if def.actions.iter().any(|b| matches!(b.node, Action::Then(_))) => diags.push(
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
                    check_action(&a.node, a.span, tc, scope, diags);
                }
            }
            _ => {}
        }
    }
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

/// The options of one `setup fill`: each at most once, and none that contradicts another.
fn check_fill_options(options: &[crate::syntax::ast::Spanned<FillOption>], diags: &mut Vec<Diagnostic>) {
    let word = |o: FillOption| match o {
        FillOption::CloseUnfilled => "close unfilled",
        FillOption::RemainderNext => "remainder next",
        FillOption::AsManyAsOther => "as many as the other",
        FillOption::ClaimUnfilled => "claim unfilled",
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

/// A shared track runs through one row a player; with several rows each player sows their own. The
/// first seed cannot both fall back into the pit played and pass it over.
fn check_tracks(items: &[Item], rows: usize, side_pits: Option<usize>, diags: &mut Vec<Diagnostic>) {
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
    let tracks = items.iter().flat_map(|i| match &i.kind {
        ItemKind::Phase(_, _, inner) => inner.iter().collect::<Vec<_>>(),
        _ => vec![i],
    });
    for item in tracks {
        match item.kind {
            ItemKind::SowTrack(TrackKind::Shared) if rows > 1 => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "a shared track goes through one row a player, but this board has several",
                    item.span,
                    "shared track",
                )
                .with_help("write `track own`: each player sows around their own rows"),
            ),
            ItemKind::SowDirection(crate::syntax::ast::Direction::Either)
                if side_pits.is_some_and(|n| 2 * n as i64 > limits::MAX_SIDE_PITS) =>
            {
                diags.push(
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
                )
            }
            ItemKind::SowIntoStore if rows > 1 => diags.push(
                Diagnostic::error(
                    "sow::check::unsupported",
                    "stores on the track are not yet placed on a board of several rows a player",
                    item.span,
                    "store on the track",
                )
                .with_help("keep the stores for captures on this board"),
            ),
            _ => {}
        }
    }
}

fn check_action(action: &Action, _span: Span, tc: &mut TypeChecker, scope: Scope, _diags: &mut Vec<Diagnostic>) {
    match action {
        Action::Take(pits, to) => {
            for p in pits {
                tc.expect_pits(p, scope);
            }
            if let Some(Receiver::Player(p)) = to {
                tc.expect(p, Ty::Player, scope);
            }
        }
        Action::Series(_, cond) => tc.expect(cond, Ty::Bool, scope),
        Action::Move(n, from, to) => {
            tc.expect(n, Ty::Int, scope);
            tc.expect(from, Ty::Pit, scope);
            tc.expect(to, Ty::Pit, scope);
        }
        Action::Claim(pits, player) => {
            for p in pits {
                tc.expect_pits(p, scope);
            }
            tc.expect(player, Ty::Player, scope);
        }
        Action::SowTaken(again) => {
            if let Some(pit) = &again.pit {
                tc.expect(pit, Ty::Pit, scope);
            }
            if let Some(d) = &again.direction
                && d.node == crate::syntax::ast::Direction::Either
            {
                _diags.push(
                    Diagnostic::error(
                        "sow::check::misplaced",
                        "seeds sown again go one way: `either` is a choice made at the start of a move",
                        d.span,
                        "a choice here",
                    )
                    .with_help("write `ccw` or `cw`, or nothing to go on the move's way"),
                );
            }
        }
        Action::Then(_) => {}
    }
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

fn params(program: &Program, overrides: &[Override], diags: &mut Vec<Diagnostic>) -> Vec<(String, i64)> {
    let mut values = Vec::new();
    let mut declared = Vec::new();
    for item in &program.items {
        if let ItemKind::Param { name, default, range } = &item.kind {
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
            let mut value = default.node;
            if let Some((lo, hi)) = range {
                if lo.node > hi.node {
                    diags.push(
                        Diagnostic::error(
                            "sow::check::empty_range",
                            format!("range `{}..{}` is empty", lo.node, hi.node),
                            lo.span.to(hi.span),
                            "lower bound is above the upper one",
                        )
                        .with_help(format!("write the smaller bound first: `{}..{}`", hi.node, lo.node)),
                    );
                } else if !(lo.node..=hi.node).contains(&default.node) {
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
                }
            }
            if let Some(o) = overrides.iter().rev().find(|o| o.name == name.node) {
                match range {
                    Some((lo, hi)) if !(lo.node..=hi.node).contains(&o.value) => diags.push(
                        Diagnostic::error(
                            "sow::check::bad_parameter",
                            format!("`{}={}` is outside the allowed range {}..{}", o.name, o.value, lo.node, hi.node),
                            lo.span.to(hi.span),
                            "allowed range",
                        )
                        .with_help(format!("choose a value of `{}` from {} to {}", o.name, lo.node, hi.node)),
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
