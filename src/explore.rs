//! Dynamic checks (`sowlang check --explore N`): random games of a game that passed every static
//! check, looking for what only play shows. Input: a rule file; output: diagnostics that point at the
//! rules involved, each with the shortest move sequence found that reproduces it: the sequence of a
//! random game is shortened by dropping moves for as long as the problem stays, then a breadth-first
//! search from the start looks for a shorter one. Deterministic for a given seed.
//!
//! Found: a move whose sowing never ends (more laps than the relay limit: the engine refuses it), a
//! position where the player to move has no legal move and no `end` rule ends the game, a game that
//! goes round in circles or does not end within a bound, seeds created or destroyed by a move, a
//! `leftmost`/`rightmost` of an empty set (the engine counts these per thread, see
//! `engine::empty_extremes`) and a `move` that names more seeds than its pit holds (seen in the
//! move's narration, so play without narration pays nothing for it).

use std::collections::HashMap;
use std::path::Path;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use crate::check::{self, Override, Program};
use crate::compile::ir::Action as IrAction;
use crate::diagnostic::{Diagnostic, Sources, Span};
use crate::engine::{Event, Game, MoveError, Position, empty_extremes};
use crate::syntax::ast::{Action, EndResult, Expr, ExprKind, Item, ItemKind, Receiver, Remaining};
use crate::{LoadFailure, compile};

/// How to explore.
#[derive(Debug, Clone, Copy)]
pub struct Options {
    /// Random games to play.
    pub games: usize,
    /// Seed of the random choices.
    pub seed: u64,
    /// Moves after which a game that has not ended is reported.
    pub max_moves: usize,
}

/// The result: every file read, and the static warnings followed by what exploring found.
#[derive(Debug)]
pub struct Explored {
    /// Every file read.
    pub sources: Sources,
    /// Warnings of the static checks, then the findings.
    pub diagnostics: Vec<Diagnostic>,
}

/// Checks `path` and, if it is clean of errors, plays `opts.games` random games of it.
pub fn run(path: &Path, overrides: &[Override], opts: Options) -> Result<Explored, LoadFailure> {
    let mut sources = Sources::default();
    let program = match check::load(path, &mut sources) {
        Ok(p) => p,
        Err(diagnostics) => return Err(LoadFailure { sources, diagnostics }),
    };
    let checked = match check::check(program, overrides) {
        Ok(c) => c,
        Err(diagnostics) => return Err(LoadFailure { sources, diagnostics }),
    };
    let game = crate::engine::prepare(compile::compile(&checked));
    let mut diagnostics = checked.warnings.clone();
    // The match's end condition as written, for advice that adds to it.
    let match_ends = checked.program.items.iter().find_map(|i| match &i.kind {
        ItemKind::MatchEnds(e) => Some((e.span, sources.text(e.span.file)[e.span.start..e.span.end].to_string())),
        _ => None,
    });
    let reproduce = Reproduce {
        file: path.display().to_string(),
        sets: overrides.iter().map(|o| format!(" --set {}={}", o.name, o.value)).collect(),
        max_moves: opts.max_moves,
        match_ends,
    };
    let (findings, _) = explore(&game, opts);
    for f in findings {
        diagnostics.push(f.diagnostic(&checked.program, &game, &reproduce));
    }
    Ok(Explored { sources, diagnostics })
}

/// What a finding needs to say how to reproduce it.
struct Reproduce {
    file: String,
    sets: String,
    /// The moves after which a game still going is reported.
    max_moves: usize,
    /// The `match ends when` condition: where it stands, and its text.
    match_ends: Option<(Span, String)>,
}

#[derive(Debug, Clone, PartialEq)]
enum Kind {
    /// Playing `pit` after the moves never finishes its sowing.
    EndlessSowing { pit: usize },
    /// The player to move has no legal move and the game is not over.
    Stuck,
    /// The moves lead back to the position reached after the first `from` of them; `across_rounds`:
    /// in a later round of the match (where `repeated`, which looks within a round, cannot see it).
    Circle { from: usize, across_rounds: bool },
    /// The game did not end within the bound.
    TooLong,
    /// The end rule `rule` holds before the first move.
    OverAtStart { rule: String },
    /// The last move changed the number of seeds; `rules` fired during it.
    SeedCount { before: u32, after: u32, rules: Vec<String> },
    /// A `leftmost` or `rightmost` found no pit: during the last move, or (not `during_move`) while
    /// the legal moves of the position after the moves were worked out.
    NoPitFound { during_move: bool },
    /// During the last move, the rule `rule` asked to move `asked` seeds and `moved` were moved.
    ShortMove { rule: String, asked: i64, moved: u32 },
}

impl Kind {
    /// The problem shows during the sequence's last move (which shortening must keep).
    fn in_last_move(&self) -> bool {
        matches!(
            self,
            Kind::EndlessSowing { .. } | Kind::NoPitFound { during_move: true } | Kind::ShortMove { .. }
        )
    }
}

#[derive(Debug, Clone)]
struct Finding {
    kind: Kind,
    moves: Vec<usize>,
}

/// Plays the games; returns one finding per kind of problem (the shortest sequence of each).
fn explore(game: &Game, opts: Options) -> (Vec<Finding>, u64) {
    let mut rng = StdRng::seed_from_u64(opts.seed);
    let mut found: Vec<Finding> = Vec::new();
    let mut played = 0u64;
    // Narrating every move costs allocations: only for a game with a `move` to watch.
    let traced = has_move_action(game);
    let keep = |f: Finding, found: &mut Vec<Finding>| {
        let same_kind = |a: &Kind, b: &Kind| std::mem::discriminant(a) == std::mem::discriminant(b);
        match found.iter_mut().find(|g| same_kind(&g.kind, &f.kind)) {
            Some(g) if g.moves.len() > f.moves.len() => *g = f,
            Some(_) => {}
            None => found.push(f),
        }
    };
    // Before the first move: the end rules may already hold, and then no game is ever played.
    let mut unsettled = game.initial(None);
    if let Some(pit) = endless_move(game, &unsettled) {
        keep(
            Finding {
                kind: Kind::EndlessSowing { pit },
                moves: vec![pit],
            },
            &mut found,
        );
    }
    game.settle_start(&mut unsettled);
    if unsettled.over {
        found.push(Finding {
            kind: Kind::OverAtStart {
                rule: unsettled.ended_by.as_deref().unwrap_or_default().to_string(),
            },
            moves: vec![],
        });
        return (found, 0);
    }
    for _ in 0..opts.games {
        let mut pos = start(game);
        let total = game.seed_total(&pos);
        let mut moves = Vec::new();
        let mut seen: HashMap<u64, usize> = HashMap::new();
        seen.insert(circle_key(game, &pos), 0);
        let mut circle = None;
        loop {
            if pos.over {
                break;
            }
            if let Some(pit) = endless_move(game, &pos) {
                let mut m = moves.clone();
                m.push(pit);
                keep(
                    Finding {
                        kind: Kind::EndlessSowing { pit },
                        moves: m,
                    },
                    &mut found,
                );
            }
            let noted = empty_extremes();
            let legal = game.legal_moves(&pos);
            if empty_extremes() != noted {
                keep(
                    Finding {
                        kind: Kind::NoPitFound { during_move: false },
                        moves: moves.clone(),
                    },
                    &mut found,
                );
            }
            if legal.is_empty() {
                keep(
                    Finding {
                        kind: Kind::Stuck,
                        moves: moves.clone(),
                    },
                    &mut found,
                );
                break;
            }
            if moves.len() >= opts.max_moves {
                let finding = match circle.and_then(|_| first_circle(game, &moves)) {
                    Some((end, from, across_rounds)) => Finding {
                        kind: Kind::Circle { from, across_rounds },
                        moves: moves[..end].to_vec(),
                    },
                    None => Finding {
                        kind: Kind::TooLong,
                        moves: moves.clone(),
                    },
                };
                keep(finding, &mut found);
                break;
            }
            let k = legal[rng.gen_range(0..legal.len())];
            let before = pos.clone();
            let noted = empty_extremes();
            let Ok(short) = play(game, &mut pos, k, traced) else {
                break;
            };
            played += 1;
            moves.push(k);
            if empty_extremes() != noted {
                keep(
                    Finding {
                        kind: Kind::NoPitFound { during_move: true },
                        moves: moves.clone(),
                    },
                    &mut found,
                );
            }
            if let Some(kind) = short {
                keep(
                    Finding {
                        kind,
                        moves: moves.clone(),
                    },
                    &mut found,
                );
            }
            let now = game.seed_total(&pos);
            if now != total {
                let rules = rules_fired(game, &before, k);
                keep(
                    Finding {
                        kind: Kind::SeedCount {
                            before: total,
                            after: now,
                            rules,
                        },
                        moves: moves.clone(),
                    },
                    &mut found,
                );
                break;
            }
            let key = circle_key(game, &pos);
            if circle.is_none()
                && let Some(&first) = seen.get(&key)
            {
                circle = Some(first);
            }
            seen.entry(key).or_insert(moves.len());
        }
    }
    for f in &mut found {
        if matches!(
            f.kind,
            Kind::EndlessSowing { .. } | Kind::Stuck | Kind::SeedCount { .. } | Kind::NoPitFound { .. } | Kind::ShortMove { .. }
        ) {
            f.moves = shorten(game, &f.moves, &f.kind);
            // Breadth-first for the problems a single position (or one move from it) shows.
            if !matches!(f.kind, Kind::SeedCount { .. })
                && let Some(shorter) = shortest(game, &f.kind, f.moves.len())
            {
                f.moves = shorter;
            }
        }
    }
    (found, played)
}

/// Plays move `k`; with `traced`, also says whether a `move` moved other than what it asked (the
/// first such, as a finding's kind).
fn play(game: &Game, pos: &mut Position, k: usize, traced: bool) -> Result<Option<Kind>, MoveError> {
    if !traced {
        return game.apply(pos, k).map(|()| None);
    }
    Ok(game.apply_traced(pos, k)?.into_iter().find_map(|e| match e {
        Event::ShortMove { rule, asked, moved, .. } => Some(Kind::ShortMove { rule, asked, moved }),
        _ => None,
    }))
}

/// Does any rule of the game `move` seeds?
fn has_move_action(game: &Game) -> bool {
    game.triggers
        .iter()
        .chain(game.phases.iter().flat_map(|p| p.captures.iter()))
        .any(|r| r.actions.iter().any(|a| matches!(a, IrAction::Move { .. })))
}

/// Does the problem `kind` show at `pos` (`k` = `None`), or in playing `k` from it?
fn shows_at(game: &Game, pos: &Position, k: Option<usize>, kind: &Kind) -> bool {
    if pos.over {
        return false;
    }
    let noted = empty_extremes();
    match (kind, k) {
        (Kind::NoPitFound { during_move: false }, None) => {
            game.legal_moves(pos);
            empty_extremes() != noted
        }
        (Kind::NoPitFound { during_move: true }, Some(k)) => {
            let mut p = pos.clone();
            game.apply(&mut p, k).is_ok() && empty_extremes() != noted
        }
        (Kind::ShortMove { .. }, Some(k)) => {
            let mut p = pos.clone();
            matches!(play(game, &mut p, k, true), Ok(Some(_)))
        }
        _ => false,
    }
}

/// The game's start position, settled.
fn start(game: &Game) -> Position {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    pos
}

/// A pit of the player to move that holds seeds but whose sowing never ends.
fn endless_move(game: &Game, pos: &Position) -> Option<usize> {
    (1..=game.move_count()).find(|&k| {
        let mut p = pos.clone();
        matches!(game.apply(&mut p, k), Err(MoveError::Illegal { reason, .. }) if reason.contains("never ends"))
    })
}

/// The names of the rules that took, moved or claimed seeds during move `k` from `pos`.
fn rules_fired(game: &Game, pos: &Position, k: usize) -> Vec<String> {
    let mut p = pos.clone();
    let mut names: Vec<String> = Vec::new();
    if let Ok(events) = game.apply_traced(&mut p, k) {
        for e in events {
            if let Event::Take { rule, .. } | Event::MoveSeeds { rule, .. } | Event::Claim { rule, .. } = e
                && !names.contains(&rule)
            {
                names.push(rule);
            }
        }
    }
    names
}

/// A round number to bound a match by, in advice: a round number such that a match of that many
/// rounds, at the pace of the one found (`moves` moves into round `round`), still ends within about
/// half of `max_moves` moves, so that exploring again sees it end.
fn round_bound(moves: usize, round: u32, max_moves: usize) -> u32 {
    let per_round = (moves / round.max(1) as usize).max(1);
    let most = max_moves / 2 / per_round;
    [1000, 500, 200, 100, 50, 20, 10, 5]
        .into_iter()
        .find(|&n| n as usize <= most)
        .unwrap_or(2)
}

/// What tells positions apart in looking for a circle: the position as `repeated` sees it, and the
/// round and rounds won when a rule reads them (a board that comes back in a later round then goes
/// on otherwise: the match may end on it).
fn circle_key(game: &Game, pos: &Position) -> u64 {
    let h = game.hash(pos);
    if !game.uses_round {
        return h;
    }
    let [south, north] = pos.rounds_won.map(u64::from);
    h ^ u64::from(pos.round).wrapping_mul(0x9E37_79B9_7F4A_7C15)
        ^ south.wrapping_mul(0xC2B2_AE3D_27D4_EB4F)
        ^ north.wrapping_mul(0x1656_67B1_9E37_79F9)
}

/// The first repetition in playing `moves`: how many moves it takes to come back to a position
/// seen before, after how many moves that position was first reached, and whether it came back in
/// a later round than it was first seen in.
fn first_circle(game: &Game, moves: &[usize]) -> Option<(usize, usize, bool)> {
    let mut pos = start(game);
    let mut seen = vec![(circle_key(game, &pos), pos.round)];
    for (i, &k) in moves.iter().enumerate() {
        game.apply(&mut pos, k).ok()?;
        let key = circle_key(game, &pos);
        if let Some(from) = seen.iter().position(|&(h, _)| h == key) {
            return Some((i + 1, from, seen[from].1 != pos.round));
        }
        seen.push((key, pos.round));
    }
    None
}

/// Does playing `moves` from the start show the problem `kind` (of the same sort)?
fn reproduces(game: &Game, moves: &[usize], kind: &Kind) -> bool {
    let mut pos = start(game);
    let total = game.seed_total(&pos);
    let (prefix, last) = match kind {
        k if k.in_last_move() => match moves.split_last() {
            Some((&last, prefix)) => (prefix, Some(last)),
            None => return false,
        },
        _ => (moves, None),
    };
    for &k in prefix {
        if pos.over || game.apply(&mut pos, k).is_err() {
            return false;
        }
    }
    match kind {
        Kind::EndlessSowing { .. } => {
            let k = last.expect("an endless sowing ends with its move");
            let mut p = pos.clone();
            !pos.over && matches!(game.apply(&mut p, k), Err(MoveError::Illegal { reason, .. }) if reason.contains("never ends"))
        }
        Kind::Stuck => !pos.over && game.legal_moves(&pos).is_empty(),
        Kind::SeedCount { .. } => game.seed_total(&pos) != total,
        Kind::NoPitFound { .. } | Kind::ShortMove { .. } => shows_at(game, &pos, last, kind),
        Kind::Circle { .. } | Kind::TooLong | Kind::OverAtStart { .. } => false,
    }
}

/// Most positions the breadth-first search for a shorter sequence looks at.
const MAX_SEARCHED: usize = 20_000;

/// A sequence shorter than `than` that shows the same sort of problem, found breadth-first (so the
/// shortest there is) among the first [`MAX_SEARCHED`] positions.
fn shortest(game: &Game, kind: &Kind, than: usize) -> Option<Vec<usize>> {
    let mut level: Vec<(Position, Vec<usize>)> = vec![(start(game), Vec::new())];
    let mut seen = std::collections::HashSet::new();
    let mut searched = 0usize;
    while !level.is_empty() {
        let mut next = Vec::new();
        for (pos, moves) in level {
            if pos.over {
                continue;
            }
            let found = match kind {
                Kind::Stuck => game.legal_moves(&pos).is_empty().then(|| moves.clone()),
                Kind::EndlessSowing { .. } => endless_move(game, &pos).map(|k| [moves.as_slice(), &[k]].concat()),
                Kind::NoPitFound { during_move: false } => shows_at(game, &pos, None, kind).then(|| moves.clone()),
                Kind::NoPitFound { .. } | Kind::ShortMove { .. } => game
                    .legal_moves(&pos)
                    .into_iter()
                    .find(|&k| shows_at(game, &pos, Some(k), kind))
                    .map(|k| [moves.as_slice(), &[k]].concat()),
                _ => None,
            };
            if let Some(m) = found {
                return (m.len() < than).then_some(m);
            }
            if moves.len() + 1 >= than {
                continue;
            }
            for k in game.legal_moves(&pos) {
                let mut p = pos.clone();
                if game.apply(&mut p, k).is_ok() && seen.insert((game.hash(&p), p.ply)) {
                    searched += 1;
                    if searched > MAX_SEARCHED {
                        return None;
                    }
                    next.push((p, [moves.as_slice(), &[k]].concat()));
                }
            }
        }
        level = next;
    }
    None
}

/// Drops moves from the sequence, from the end backwards, as long as the problem stays.
fn shorten(game: &Game, moves: &[usize], kind: &Kind) -> Vec<usize> {
    let mut best = moves.to_vec();
    // Whole prefixes first (cheap and often enough), then single moves.
    let mut cut = best.len();
    while cut > 0 {
        cut /= 2;
        let candidate = best[cut..].to_vec();
        if candidate.len() < best.len() && reproduces(game, &candidate, kind) {
            best = candidate;
            cut = best.len();
        }
    }
    let mut i = best.len();
    while i > 0 {
        i -= 1;
        if kind.in_last_move() && i + 1 == best.len() {
            continue;
        }
        let mut candidate = best.clone();
        candidate.remove(i);
        if reproduces(game, &candidate, kind) {
            best = candidate;
        }
    }
    best
}

/// The moves as the player writes them (`3`, `b4`, `3R`), comma-separated.
/// A move's choices are named against its position, so the game is replayed from the start.
fn list(game: &Game, moves: &[usize]) -> String {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    moves
        .iter()
        .map(|&k| {
            let name = game.name_move(&pos, k);
            // A finding's last move may be one that cannot be played (a sowing that never ends).
            let _ = game.apply(&mut pos, k);
            name
        })
        .collect::<Vec<_>>()
        .join(",")
}

/// The moves as a `--moves` argument, shortened for the message when long.
fn shown(game: &Game, moves: &[usize]) -> String {
    if moves.is_empty() {
        return "in the start position".to_string();
    }
    const SHOWN: usize = 24;
    if moves.len() <= SHOWN {
        format!("after the moves {}", list(game, moves))
    } else {
        format!("after {} moves ({}, …)", moves.len(), list(game, &moves[..SHOWN]))
    }
}

fn first_span(program: &Program, pred: impl Fn(&ItemKind) -> bool) -> Option<Span> {
    fn walk<'a>(items: &'a [Item], pred: &dyn Fn(&ItemKind) -> bool, out: &mut Vec<&'a Item>) {
        for i in items {
            if pred(&i.kind) {
                out.push(i);
            }
            if let ItemKind::Phase(_, _, inner) = &i.kind {
                walk(inner, pred, out);
            }
        }
    }
    let mut found = Vec::new();
    walk(&program.items, &pred, &mut found);
    found.first().map(|i| i.span)
}

fn end_spans(program: &Program) -> Vec<Span> {
    program
        .items
        .iter()
        .filter_map(|i| match &i.kind {
            ItemKind::End(_, cond, ..) => Some(cond.span),
            _ => None,
        })
        .collect()
}

impl Finding {
    fn diagnostic(&self, program: &Program, game: &Game, how: &Reproduce) -> Diagnostic {
        let at = program.file_span;
        let command = |moves: &[usize]| {
            if moves.is_empty() {
                format!("`sowlang run {}{} --trace`", how.file, how.sets)
            } else {
                format!("`sowlang run {}{} --moves {} --trace`", how.file, how.sets, list(game, moves))
            }
        };
        let ends = end_spans(program);
        match &self.kind {
            Kind::EndlessSowing { pit } => {
                let prefix = &self.moves[..self.moves.len() - 1];
                let relay = first_span(program, |k| matches!(k, ItemKind::SowRelay(_))).unwrap_or(at);
                let mut d = Diagnostic::error(
                    "sow::explore::endless_sowing",
                    format!(
                        "the sowing of pit {} never ends {}: it relays lap after lap",
                        game.move_name(crate::engine::move_base(*pit)),
                        shown(game, prefix)
                    ),
                    relay,
                    "this relay rule keeps the sowing going",
                );
                if let Some(limit) = first_span(program, |k| matches!(k, ItemKind::SowRelayLimit(_))) {
                    d = d.with_label(limit, "the limit it reaches");
                }
                d.with_help(format!(
                    "such a move is refused as illegal; if the rules say otherwise, make the relay stop or raise \
                     `relay limit` — see it with {}",
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::OverAtStart { rule } => {
                let span = program
                    .items
                    .iter()
                    .find_map(|i| match &i.kind {
                        ItemKind::End(name, cond, ..) if name.node == *rule => Some(cond.span),
                        _ => None,
                    })
                    .unwrap_or(at);
                Diagnostic::error(
                    "sow::explore::over_at_start",
                    format!("the game is over before the first move: the end rule `{rule}` already holds"),
                    span,
                    "holds at the start",
                )
                .with_help(format!(
                    "no game can be played; check this condition and the board — see it with {}",
                    command(&[])
                ))
            }
            Kind::Stuck => {
                let mut pos = start(game);
                for &k in &self.moves {
                    let _ = game.apply(&mut pos, k);
                }
                let who = pos.to_move.name();
                let d = Diagnostic::error(
                    "sow::explore::stuck",
                    format!(
                        "{who} has no legal move {} and no `end` rule ends the game",
                        shown(game, &self.moves)
                    ),
                    ends.first().copied().unwrap_or(at),
                    "none of the end rules holds",
                );
                let d = ends.iter().skip(1).fold(d, |d, s| d.with_label(*s, "nor this one"));
                d.with_help(format!(
                    "add an end rule for it, e.g. `end \"no move left\" when no_moves remaining owner` — see it with {}",
                    command(&self.moves)
                ))
            }
            Kind::Circle { from, across_rounds: true } => {
                let mut pos = start(game);
                for &k in &self.moves {
                    let _ = game.apply(&mut pos, k);
                }
                let (span, cond) = how.match_ends.clone().unwrap_or((at, "false".to_string()));
                let cond = if cond.contains("if ") { format!("({cond})") } else { cond };
                let d = Diagnostic::error(
                    "sow::explore::no_end_reached",
                    format!(
                        "a match can go round in circles: {} {} comes back in round {}, and the match never ends",
                        shown(game, &self.moves),
                        if *from == 0 {
                            "the start position".to_string()
                        } else {
                            format!("the position after move {from}")
                        },
                        pos.round
                    ),
                    span,
                    "never holds in the circle",
                );
                d.with_help(format!(
                    "an end rule on `repeated` cannot stop it: `repeated` compares the positions of one round, and \
                     every round of the circle ends; bound the match instead, such as `match ends when {cond} or round \
                     > {}` — see it with {}",
                    round_bound(self.moves.len(), pos.round, how.max_moves),
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::Circle { from, .. } => {
                let d = Diagnostic::error(
                    "sow::explore::no_end_reached",
                    format!(
                        "a game can go round in circles: {} {} comes back, and no `end` rule stops it",
                        shown(game, &self.moves),
                        if *from == 0 {
                            "the start position".to_string()
                        } else {
                            format!("the position after move {from}")
                        }
                    ),
                    ends.first().copied().unwrap_or(at),
                    "never holds in the circle",
                );
                let d = with_ends_rest(d, &ends, "nor this one");
                d.with_help(format!(
                    "add an end rule such as `end \"repetition\" when repeated remaining split` — see it with {}",
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::TooLong => {
                let d = Diagnostic::error(
                    "sow::explore::no_end_reached",
                    format!("a game did not end within {} moves", self.moves.len()),
                    ends.first().copied().unwrap_or(at),
                    "did not hold in that game",
                );
                let d = with_ends_rest(d, &ends, "nor this one");
                d.with_help(format!(
                    "check that the end rules can be reached (or explore with a larger `--max-moves`) — the game: {}",
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::NoPitFound { during_move } => {
                let calls = extreme_calls(program);
                let moment = if *during_move {
                    let (_, prefix) = self.moves.split_last().expect("a move's finding ends with its move");
                    format!(
                        "playing pit {} {}",
                        list(game, &self.moves).rsplit(',').next().unwrap_or_default(),
                        shown(game, prefix)
                    )
                } else {
                    format!("{}, while the legal moves are worked out", shown(game, &self.moves))
                };
                let (first, rest) = match calls.split_first() {
                    Some((f, r)) => (*f, r),
                    None => (at, &[][..]),
                };
                let label = if rest.is_empty() {
                    "its set is empty"
                } else {
                    "the set of this one or of another below is empty"
                };
                let mut d = Diagnostic::error(
                    "sow::explore::no_pit_found",
                    format!("{moment}, a `leftmost` or `rightmost` finds no pit"),
                    first,
                    label,
                );
                for s in rest {
                    d = d.with_label(*s, "or this one");
                }
                d.with_help(format!(
                    "no pit reads as 0 seeds, number 0, the mover's side, unclaimed, and `take`, `claim` and `move` do \
                     nothing with it (docs/language.md); if the rules mean something else, ask `any(...)` of the set \
                     first — see it with {}",
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::ShortMove { rule, asked, moved } => {
                let (_, prefix) = self.moves.split_last().expect("a move's finding ends with its move");
                let k = list(game, &self.moves).rsplit(',').next().unwrap_or_default().to_string();
                let spans = move_spans(program, rule);
                let message = if *asked < 0 {
                    format!(
                        "playing pit {k} {}, the rule `{rule}` asks to move {asked} seeds, so it moves none",
                        shown(game, prefix)
                    )
                } else {
                    format!(
                        "playing pit {k} {}, the rule `{rule}` asks to move {asked} seed{} but its pit held only {moved}",
                        shown(game, prefix),
                        if *asked == 1 { "" } else { "s" }
                    )
                };
                let mut d = Diagnostic::error(
                    "sow::explore::short_move",
                    message,
                    spans.first().copied().unwrap_or(at),
                    "moves what there is",
                );
                for s in spans.iter().skip(1) {
                    d = d.with_label(*s, "or this one");
                }
                d.with_help(format!(
                    "a `move` moves the seeds there are, never more (docs/language.md); if the rules mean something \
                     else, add a condition on the pit's `.count` to the rule — see it with {}",
                    command(&self.moves)
                ))
                .warning()
            }
            Kind::SeedCount { before, after, rules } => {
                let spans: Vec<Span> = rules.iter().filter_map(|r| rule_span(program, r)).collect();
                let (primary, text) = match spans.first() {
                    Some(s) => (*s, "fired during the move"),
                    None => (at, "in this file"),
                };
                let mut d = Diagnostic::error(
                    "sow::explore::seed_count",
                    format!(
                        "the number of seeds changed from {before} to {after} {}; seeds are only ever moved",
                        shown(game, &self.moves)
                    ),
                    primary,
                    text,
                );
                for s in spans.iter().skip(1) {
                    d = d.with_label(*s, "fired too");
                }
                d.with_help(format!("this is a bug in sowlang: please report it with {}", command(&self.moves)))
            }
        }
    }
}

fn with_ends_rest(mut d: Diagnostic, ends: &[Span], text: &str) -> Diagnostic {
    for s in ends.iter().skip(1) {
        d = d.with_label(*s, text);
    }
    d
}

/// The spans of the `move` actions of the capture or trigger called `name`.
fn move_spans(program: &Program, name: &str) -> Vec<Span> {
    fn walk(items: &[Item], name: &str, out: &mut Vec<Span>) {
        for i in items {
            match &i.kind {
                ItemKind::Capture(def) | ItemKind::Trigger(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def)
                    if def.name.node == name =>
                {
                    out.extend(def.actions.iter().filter(|a| matches!(a.node, Action::Move(..))).map(|a| a.span))
                }
                ItemKind::Phase(_, _, inner) => walk(inner, name, out),
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    walk(&program.items, name, &mut out);
    out
}

/// The spans of every `leftmost(...)` and `rightmost(...)` in the rules, in the order of the rules.
fn extreme_calls(program: &Program) -> Vec<Span> {
    fn expr(e: &Expr, out: &mut Vec<Span>) {
        match &e.kind {
            ExprKind::Int(_) | ExprKind::Name(_) => {}
            ExprKind::Call(name, args) => {
                if matches!(name.node.as_str(), "leftmost" | "rightmost") {
                    out.push(e.span);
                }
                args.iter().for_each(|a| expr(a, out));
            }
            ExprKind::Field(x, _) | ExprKind::Neg(x) | ExprKind::Not(x) | ExprKind::Parity(x, _) | ExprKind::Labelled(x, _) => expr(x, out),
            ExprKind::Binary(_, a, b) | ExprKind::Where(a, b) | ExprKind::ChooseRange(a, b) => {
                expr(a, out);
                expr(b, out);
            }
            ExprKind::InRange(x, lo, hi) | ExprKind::If(x, lo, hi) => [x, lo, hi].iter().for_each(|x| expr(x, out)),
            ExprKind::InSet(x, items) => {
                expr(x, out);
                items.iter().for_each(|i| expr(i, out));
            }
        }
    }
    fn items(list: &[Item], out: &mut Vec<Span>) {
        for i in list {
            match &i.kind {
                ItemKind::SowRelay(e)
                | ItemKind::SowSkipWhen(e)
                | ItemKind::Forbid(_, e)
                | ItemKind::ForbidAfter(_, e)
                | ItemKind::Feeding(Some(e))
                | ItemKind::MatchEnds(e) => expr(e, out),
                ItemKind::End(_, cond, remaining, from, result) => {
                    expr(cond, out);
                    if let Some(Remaining::To(p)) = remaining {
                        expr(p, out);
                    }
                    if let Some(pits) = from {
                        expr(pits, out);
                    }
                    if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = result {
                        expr(p, out);
                    }
                }
                ItemKind::Trigger(def) | ItemKind::Capture(def) | ItemKind::AfterMove(def) | ItemKind::At(_, def) => {
                    expr(&def.when, out);
                    for a in &def.actions {
                        match &a.node {
                            Action::Take(pits, to) => {
                                pits.iter().for_each(|p| expr(p, out));
                                if let Some(Receiver::Player(p)) = to {
                                    expr(p, out);
                                }
                            }
                            Action::Series(series) => {
                                expr(&series.cond, out);
                                series.cap.iter().for_each(|(n, _)| expr(n, out));
                            }
                            Action::Move(m) => {
                                m.count.iter().chain(&m.from).chain([&m.to]).for_each(|x| expr(x, out));
                            }
                            Action::Claim(pits, player) => {
                                pits.iter().for_each(|p| expr(p, out));
                                expr(player, out);
                            }
                            Action::SowTaken(again) | Action::SowFrom(again) => again.pit.iter().for_each(|p| expr(p, out)),
                            Action::TakeSome(count, pit, to) => {
                                expr(count, out);
                                expr(pit, out);
                                if let Some(Receiver::Player(p)) = to {
                                    expr(p, out);
                                }
                            }
                            Action::Close(pits, _) => pits.iter().for_each(|p| expr(p, out)),
                            Action::Then(_) => {}
                            Action::End(end) => {
                                if let Some(Remaining::To(p)) = &end.remaining {
                                    expr(p, out);
                                }
                                end.from.iter().for_each(|p| expr(p, out));
                                if let Some(EndResult::Winner(p) | EndResult::Loser(p)) = &end.result {
                                    expr(p, out);
                                }
                            }
                            Action::Set(a, b) | Action::Add(a, b) => [a, b].iter().for_each(|x| expr(x, out)),
                        }
                    }
                }
                ItemKind::Phase(_, cond, inner) => {
                    expr(cond, out);
                    items(inner, out);
                }
                _ => {}
            }
        }
    }
    let mut out = Vec::new();
    items(&program.items, &mut out);
    out
}

/// The span of the name of the capture or trigger called `name`.
fn rule_span(program: &Program, name: &str) -> Option<Span> {
    fn walk(items: &[Item], name: &str) -> Option<Span> {
        items.iter().find_map(|i| match &i.kind {
            ItemKind::Capture(def) | ItemKind::Trigger(def) | ItemKind::At(_, def) if def.name.node == name => Some(def.name.span),
            ItemKind::Phase(_, _, inner) => walk(inner, name),
            _ => None,
        })
    }
    walk(&program.items, name)
}
