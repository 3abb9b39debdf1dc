//! What a move does, in words (`does`, the effects `options` and the hints show), and the two
//! requests that advise: `POST /api/computer` (a player's move with its reasons) and `POST /api/hint`
//! (every legal move scored, the hint for children in plain words). Searches are bounded in time and
//! depth here, whatever the page asks.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::*;
use crate::players::{self, Spec};
use crate::search::{alphabeta, describe_score, mcts};

/// The longest a computer player or a hint may think, whatever the page asks.
pub(super) const MAX_THINK: Duration = Duration::from_secs(5);

/// How long a hint thinks.
pub(super) const HINT_TIME: Duration = Duration::from_millis(1500);

/// How deep a hint looks at most.
pub(super) const HINT_DEPTH: u32 = 8;

/// A player spec from the page, held to limits that answer within seconds on any board.
pub(super) fn bounded(spec: &str) -> Result<Spec, ApiError> {
    let parsed: Spec = spec.parse().map_err(|e: String| ApiError::new(422, "sow::serve::bad_player", e))?;
    Ok(match parsed {
        Spec::AlphaBeta(l) => Spec::AlphaBeta(alphabeta::Limits {
            depth: l.depth.min(MAX_DEPTH),
            time: Some(l.time.map_or(MAX_THINK, |t| t.min(MAX_THINK))),
        }),
        Spec::Mcts(b) => match b.time {
            Some(t) => Spec::Mcts(mcts::Budget {
                playouts: 0,
                time: Some(t.min(MAX_THINK)),
            }),
            // Playouts are capped in time too: on a game of long moves (Bao la Kiswahili's relays)
            // the most the page offers would take far longer than a page should wait.
            None => Spec::Mcts(mcts::Budget {
                playouts: b.playouts.min(MAX_PLAYOUTS),
                time: Some(MAX_THINK),
            }),
        },
        other => other,
    })
}

pub(super) fn computer(catalog: &Catalog, req: &GameRequest) -> Result<Value, ApiError> {
    let asked = req.player.as_deref().ok_or_else(|| {
        ApiError::new(400, "sow::serve::bad_request", "`player` is missing")
            .help("name the computer player: `random`, `greedy`, `alphabeta:4` or `mcts:2000`")
    })?;
    let spec = bounded(asked)?;
    let label = asked.parse::<Spec>().map(|s| s.to_string()).unwrap_or_default();
    let r = replay(catalog, req)?;
    let game = &r.loaded.game;
    if r.pos.over {
        return Err(ApiError::new(
            422,
            "sow::serve::game_over",
            "the game is over: there is no move to choose",
        ));
    }
    let mut rng = StdRng::seed_from_u64(req.seed.unwrap_or(1) ^ (r.moves.len() as u64).wrapping_mul(0x9E37_79B9));
    let choice = players::choose(game, &r.pos, spec, false, &mut rng)
        .ok_or_else(|| ApiError::new(422, "sow::serve::no_move", format!("{} has no legal move", r.pos.to_move.name())))?;
    Ok(json!({"move": move_json(game, &r.pos, choice.pit), "why": choice.why, "player": label}))
}

/// What a move does at once, found by playing it.
pub(super) struct Effect {
    captured: u32,
    lost: u32,
    into_store: u32,
    another: bool,
    sown_to_opponent: u32,
    feeds: bool,
    ends: Option<Option<Outcome>>,
    reply_capture: u32,
}

/// Seeds a player captured in a move: into their store, or into their hand to sow again.
pub(super) fn taken(game: &Game, events: &[Event], by: Player) -> u32 {
    events
        .iter()
        .map(|e| match e {
            Event::Take { seeds, to, .. } if *to == by => *seeds,
            Event::TakeInHand { seeds, player, cell, .. } if *player == by && game.side(*cell) != Some(by) => *seeds,
            _ => 0,
        })
        .sum()
}

/// Move `k` of `pos` played on a copy: the position after it and what it did.
pub(super) fn played(game: &Game, pos: &Position, k: usize) -> Option<(Position, Vec<Event>)> {
    let mut next = pos.clone();
    let events = game.apply_traced(&mut next, k).ok()?;
    Some((next, events))
}

/// What a move did, from the position before it, the one after it and its steps; with `reply`, also
/// the most the opponent can capture at once in answer.
pub(super) fn effect_of(game: &Game, pos: &Position, next: &Position, events: &[Event], reply: bool) -> Effect {
    let me = pos.to_move;
    let them = me.other();
    let opponent_empty = game.row_seeds(&pos.board, them) == 0;
    let (mut into_store, mut sown_to_opponent) = (0, 0);
    for e in events {
        if let Event::Sown { cells, .. } = e {
            for &c in cells {
                if c == game.store(me) {
                    into_store += 1;
                } else if !game.is_store(c) && game.side(c) == Some(them) {
                    sown_to_opponent += 1;
                }
            }
        }
    }
    let another = events.iter().any(|e| matches!(e, Event::AnotherMove { .. }));
    // The most the opponent can capture with their next move: what a child should look out for.
    let reply_capture = if reply && !next.over && next.to_move == them {
        game.legal_moves(next)
            .into_iter()
            .filter_map(|r| {
                let mut after = next.clone();
                game.apply_traced(&mut after, r).ok().map(|ev| taken(game, &ev, them))
            })
            .max()
            .unwrap_or(0)
    } else {
        0
    };
    Effect {
        captured: taken(game, events, me),
        lost: taken(game, events, them),
        into_store,
        another,
        sown_to_opponent,
        feeds: opponent_empty && game.row_seeds(&next.board, them) > 0,
        ends: next.over.then_some(next.winner),
        reply_capture,
    }
}

pub(super) fn seeds(n: u32) -> String {
    if n == 1 { "1 seed".into() } else { format!("{n} seeds") }
}

pub(super) fn describe(e: &Effect, me: Player) -> String {
    let them = me.other().name();
    let mut parts = Vec::new();
    if e.captured > 0 {
        parts.push(format!("captures {}", seeds(e.captured)));
    }
    if e.into_store > 0 {
        parts.push(format!("drops {} into {}'s store", seeds(e.into_store), me.name()));
    }
    if e.lost > 0 {
        parts.push(format!("hands {} to {them}", seeds(e.lost)));
    }
    if e.another {
        parts.push("gives another move".into());
    }
    if e.feeds {
        parts.push(format!("feeds {them}, whose row was empty"));
    } else if e.sown_to_opponent > 0 {
        parts.push(format!("sows {} into {them}'s row", seeds(e.sown_to_opponent)));
    }
    if parts.is_empty() {
        parts.push("captures nothing".into());
    }
    match e.ends {
        Some(w) => parts.push(format!("ends the game ({})", outcome_words(w))),
        None if e.reply_capture > 0 => parts.push(format!("then {them} can capture up to {}", seeds(e.reply_capture))),
        None => {}
    }
    parts.join("; ")
}

/// The hint for children: the pit to try and what it does at once, in whole seeds and plain words,
/// spoken to the player ("Pit 6 captures 3 seeds. Then your opponent can capture up to 2 seeds.").
/// The detailed hint (`why`, `moves`) is for adults; this one keeps to what a child can see happen.
pub(super) fn plain_hint(game: &Game, pos: &Position, k: usize) -> String {
    let name = game.name_move(pos, k);
    let head = name.split(':').next().unwrap_or_default();
    let pit = if game.choices > 1 {
        head.trim_end_matches(['L', 'R'])
    } else {
        head
    };
    let pit = if pit.starts_with('s') && game.shared > 0 {
        format!("Shared pit {pit}")
    } else {
        format!("Pit {pit}")
    };
    let Some((next, events)) = played(game, pos, k) else {
        return format!("Try pit {pit}.");
    };
    let e = effect_of(game, pos, &next, &events, true);
    let mut said = Vec::new();
    if e.captured > 0 {
        said.push(format!("{pit} captures {}.", seeds(e.captured)));
    }
    if e.another {
        said.push(if said.is_empty() {
            format!("{pit} gives you another turn.")
        } else {
            "It gives you another turn.".to_string()
        });
    }
    if said.is_empty() {
        said.push(format!("Try {}.", pit.to_lowercase()));
    }
    match e.ends {
        Some(w)
            if matches!(
                (w, pos.to_move),
                (Some(Outcome::South), Player::South) | (Some(Outcome::North), Player::North)
            ) =>
        {
            said.push("It wins the game!".into());
        }
        Some(_) => said.push("It ends the game.".into()),
        None if e.reply_capture > 0 => said.push(format!("Then your opponent can capture up to {}.", seeds(e.reply_capture))),
        None if !next.over && next.to_move != pos.to_move => {
            said.push("Then your opponent cannot capture anything.".into());
        }
        None => {}
    }
    said.join(" ")
}

pub(super) fn hint(catalog: &Catalog, req: &GameRequest) -> Result<Value, ApiError> {
    let r = replay(catalog, req)?;
    let game = &r.loaded.game;
    let pos = &r.pos;
    if pos.over {
        return Err(ApiError::new(
            422,
            "sow::serve::game_over",
            "the game is over: there is nothing to hint",
        ));
    }
    let mut rng = StdRng::seed_from_u64(req.seed.unwrap_or(1));
    let limits = alphabeta::Limits {
        depth: HINT_DEPTH,
        time: Some(HINT_TIME),
    };
    // The endgame databases that exist are read (never built): in a position they hold, every
    // move's result is exact.
    let db = crate::search::endgame::default_dir().and_then(|d| crate::search::endgame::Endgames::read(game, &d));
    let searched = alphabeta::search_with(game, pos, limits, true, &mut rng, db.as_ref())
        .ok_or_else(|| ApiError::new(422, "sow::serve::no_move", format!("{} has no legal move", pos.to_move.name())))?;
    let exact = db.as_ref().and_then(|d| d.moves(game, pos));
    let exact_of = |k: usize| exact.as_ref().and_then(|e| e.iter().find(|m| m.0 == k)).map(|m| m.1);
    let score_text = |k: usize, s: i32| match exact_of(k) {
        Some(m) => crate::search::endgame::describe_final(m),
        None => describe_score(s),
    };
    let me = pos.to_move;
    let mut moves: Vec<(i32, Value)> = game
        .legal_moves(pos)
        .into_iter()
        .filter_map(|k| {
            let (next, events) = played(game, pos, k)?;
            let e = effect_of(game, pos, &next, &events, true);
            let words = words_of(&choices_of(game, pos, k, &events));
            let score = searched.scores.iter().find(|(m, _)| *m == k).map(|(_, s)| *s);
            Some((
                score.unwrap_or(i32::MIN),
                json!({
                    "move": move_json(game, pos, k),
                    "words": words,
                    "does": describe(&e, me),
                    "captures": e.captured,
                    "another_move": e.another,
                    "feeds": e.feeds,
                    "score": score.map(|s| score_text(k, s)),
                }),
            ))
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    let (best, words) = played(game, pos, searched.pit)
        .map(|(next, events)| {
            let e = effect_of(game, pos, &next, &events, true);
            (describe(&e, me), words_of(&choices_of(game, pos, searched.pit, &events)))
        })
        .unwrap_or_default();
    let named = if words.is_empty() {
        game.name_move(pos, searched.pit)
    } else {
        format!("{} ({words})", game.name_move(pos, searched.pit))
    };
    let why = match exact_of(searched.pit) {
        Some(m) => format!(
            "pit {named}: {best}; it {} (exact: the endgame databases hold this position)",
            crate::search::endgame::describe_final(m)
        ),
        None => format!(
            "pit {named}: {best}; with best play from both sides this leads to {} (looking {} moves ahead, counting both players' moves)",
            describe_score(searched.score),
            searched.depth
        ),
    };
    Ok(json!({
        "best": move_json(game, pos, searched.pit),
        "plain": plain_hint(game, pos, searched.pit),
        "why": why,
        "depth": searched.depth,
        "moves": moves.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
    }))
}
