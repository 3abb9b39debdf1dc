//! What the server answers, as a plain function of the request: method, path and body in, status
//! and body out. The HTTP layer (`serve.rs`) only carries bytes, so every rule about what a request
//! may do lives here and is tested without a network.
//!
//! The server keeps no game state. A request names a game by its catalog id and gives every move
//! played since the start; the server replays them from the game's start position. So a page can
//! undo by dropping a move, two tabs cannot disturb each other, a restarted server loses nothing,
//! and a request that is wrong in any way is refused before anything is kept, since nothing is.
//!
//! Routes (all answers JSON except the page's own files):
//! - `GET /`, `/app.js`, `/board.js`, `/style.css`: the page, built into the binary.
//! - `GET /api/games`: the games offered (id, name, or the problems of a file that does not load).
//! - `GET /api/rules/ID`: the text of a game's rule file and of every file it `extends`.
//! - `POST /api/state`: `{"game":ID,"moves":[..],"first":"south"}` -> the board's shape (rows,
//!   columns, shared pits, ring), the position (the JSON of docs/cli.md), the position before the last
//!   move, and the last move step by step with its narration. Moves are written as `legal_moves`
//!   lists them (`3`, `"b3"`, `"s2"` for a shared pit, `"3L"`).
//! - `POST /api/computer`: the same plus `"player":"alphabeta:4"` -> the move that player chooses, and why.
//! - `POST /api/hint`: the same -> every legal move with what it does and its score.
//!
//! Errors are `{"error":{"code":..,"message":..,"help":..}}` with a 4xx status.

use std::time::Duration;

use rand::SeedableRng;
use rand::rngs::StdRng;
use serde::Deserialize;
use serde_json::{Value, json};

use super::catalog::Catalog;
use crate::engine::{Cell, Event, Game, MoveError, Outcome, Player, Position};
use crate::players::{self, Spec};
use crate::position::MoveJson;
use crate::search::{alphabeta, describe_score, mcts};

/// A request body larger than this is refused (a move list of a long game is a few kilobytes).
pub const MAX_BODY: usize = 256 * 1024;
/// At most this many moves are replayed; no game of the shipped files comes near it.
pub const MAX_MOVES: usize = 5000;
/// The longest a computer player or a hint may think, whatever the page asks.
const MAX_THINK: Duration = Duration::from_secs(5);
/// The deepest alpha-beta search a page may ask for (deeper ones take minutes on large boards).
pub const MAX_DEPTH: u32 = 12;
/// The most MCTS playouts a page may ask for.
pub const MAX_PLAYOUTS: u32 = 20_000;
/// How long a hint thinks.
const HINT_TIME: Duration = Duration::from_millis(1500);
/// How deep a hint looks at most.
const HINT_DEPTH: u32 = 8;

const INDEX_HTML: &str = include_str!("../../../web/index.html");
const APP_JS: &str = include_str!("../../../web/app.js");
const BOARD_JS: &str = include_str!("../../../web/board.js");
const STYLE_CSS: &str = include_str!("../../../web/style.css");

/// An answer: status, content type, body.
#[derive(Debug, Clone, PartialEq)]
pub struct Reply {
    /// HTTP status.
    pub status: u16,
    /// Content-Type.
    pub content_type: &'static str,
    /// The body.
    pub body: Vec<u8>,
}

impl Reply {
    fn json(status: u16, v: &Value) -> Reply {
        Reply {
            status,
            content_type: "application/json; charset=utf-8",
            body: serde_json::to_vec(v).expect("JSON values serialise"),
        }
    }
    fn asset(content_type: &'static str, text: &str) -> Reply {
        Reply {
            status: 200,
            content_type,
            body: text.as_bytes().to_vec(),
        }
    }
}

/// A refused request.
#[derive(Debug, Clone, PartialEq)]
pub struct ApiError {
    /// HTTP status (4xx).
    pub status: u16,
    /// Stable code, like the diagnostics' codes.
    pub code: &'static str,
    /// What is wrong.
    pub message: String,
    /// How to do it right.
    pub help: Option<String>,
    /// For a refused move list: how many moves from the start were fine, so a page can show that position.
    pub accepted_moves: Option<usize>,
}

impl ApiError {
    /// A refusal with a status, a code and a message.
    pub fn new(status: u16, code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            help: None,
            accepted_moves: None,
        }
    }
    fn accepted(mut self, moves: usize) -> ApiError {
        self.accepted_moves = Some(moves);
        self
    }
    fn help(mut self, help: impl Into<String>) -> ApiError {
        self.help = Some(help.into());
        self
    }
    /// The JSON answer.
    pub fn reply(&self) -> Reply {
        Reply::json(
            self.status,
            &json!({"error": {"code": self.code, "message": self.message, "help": self.help,
                              "accepted_moves": self.accepted_moves}}),
        )
    }
}

/// Answers one request. `path` is the request's path as sent (still percent-encoded, without the query).
pub fn respond(catalog: &Catalog, method: &str, path: &str, body: &[u8]) -> Reply {
    match route(catalog, method, path, body) {
        Ok(r) => r,
        Err(e) => e.reply(),
    }
}

fn route(catalog: &Catalog, method: &str, path: &str, body: &[u8]) -> Result<Reply, ApiError> {
    let get = |allowed: &str| -> Result<(), ApiError> {
        if method == allowed || (allowed == "GET" && method == "HEAD") {
            Ok(())
        } else {
            Err(ApiError::new(
                405,
                "sow::serve::method",
                format!("`{path}` answers {allowed} requests, not {method}"),
            ))
        }
    };
    match path {
        "/" | "/index.html" => {
            get("GET")?;
            Ok(Reply::asset("text/html; charset=utf-8", INDEX_HTML))
        }
        "/app.js" => {
            get("GET")?;
            Ok(Reply::asset("text/javascript; charset=utf-8", APP_JS))
        }
        "/board.js" => {
            get("GET")?;
            Ok(Reply::asset("text/javascript; charset=utf-8", BOARD_JS))
        }
        "/style.css" => {
            get("GET")?;
            Ok(Reply::asset("text/css; charset=utf-8", STYLE_CSS))
        }
        "/api/games" => {
            get("GET")?;
            Ok(Reply::json(200, &games(catalog)))
        }
        "/api/state" | "/api/computer" | "/api/hint" => {
            get("POST")?;
            let req = parse_request(body)?;
            let v = match path {
                "/api/state" => state(catalog, &req)?,
                "/api/computer" => computer(catalog, &req)?,
                _ => hint(catalog, &req)?,
            };
            Ok(Reply::json(200, &v))
        }
        _ => {
            if let Some(id) = path.strip_prefix("/api/rules/") {
                get("GET")?;
                let id = percent_decode(id)?;
                return Ok(Reply::json(200, &rules(catalog, &id)?));
            }
            Err(ApiError::new(404, "sow::serve::not_found", format!("there is nothing at `{path}`"))
                .help("the page is at `/`; the games are listed at `/api/games`"))
        }
    }
}

/// `%2e%2E` -> `..`: ids arrive percent-encoded in paths. A bad escape or non-UTF-8 is refused.
fn percent_decode(s: &str) -> Result<String, ApiError> {
    let bad = || ApiError::new(400, "sow::serve::bad_path", format!("`{s}` is not a well-formed game id"));
    let bytes = s.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = bytes.get(i + 1..i + 3).ok_or_else(bad)?;
            let hex = std::str::from_utf8(hex).map_err(|_| bad())?;
            out.push(u8::from_str_radix(hex, 16).map_err(|_| bad())?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).map_err(|_| bad())
}

/// What every game request carries.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct GameRequest {
    /// The game's id in the catalog.
    game: String,
    /// Every move since the start, as `legal_moves` lists them (numbers, or strings such as "a3").
    #[serde(default)]
    moves: Vec<Value>,
    /// Who begins (the rule file's choice when absent).
    #[serde(default)]
    first: Option<Player>,
    /// A computer player, for `/api/computer` (`random`, `greedy`, `alphabeta:4`, `mcts:2000`).
    #[serde(default)]
    player: Option<String>,
    /// Seed of the computer player's random choices (a fixed one when absent).
    #[serde(default)]
    seed: Option<u64>,
}

fn parse_request(body: &[u8]) -> Result<GameRequest, ApiError> {
    if body.len() > MAX_BODY {
        return Err(ApiError::new(413, "sow::serve::too_large", "the request is too large"));
    }
    let req: GameRequest = serde_json::from_slice(body).map_err(|e| {
        ApiError::new(400, "sow::serve::bad_request", format!("the request is not the JSON expected: {e}"))
            .help(r#"send {"game": ID, "moves": [3, 1, 6]} with the id from /api/games"#)
    })?;
    if req.moves.len() > MAX_MOVES {
        return Err(ApiError::new(
            413,
            "sow::serve::too_many_moves",
            format!("{} moves is more than the {MAX_MOVES} a game may have here", req.moves.len()),
        ));
    }
    Ok(req)
}

/// Reads one move as `legal_moves` writes it: a pit number on a board of one row a player, else a
/// name such as `"b3"` or `"3L"` (the engine reads both; a number may also come as a string of digits).
fn parse_move(game: &Game, pos: &Position, v: &Value, index: usize) -> Result<usize, ApiError> {
    let m = match v {
        Value::Number(n) if n.is_u64() => game.read_move(pos, &n.to_string()),
        Value::String(s) if !s.trim().is_empty() => game.read_move(pos, s),
        _ => None,
    };
    m.ok_or_else(|| {
        ApiError::new(
            422,
            "sow::serve::bad_move",
            format!("move {} (`{v}`) is not a move of this game", index + 1),
        )
        .help("send the moves as `legal_moves` lists them")
    })
}

fn load(catalog: &Catalog, id: &str) -> Result<crate::Loaded, ApiError> {
    let path = catalog.path(id).ok_or_else(|| {
        ApiError::new(404, "sow::serve::unknown_game", format!("there is no game `{id}` here"))
            .help("the games served are listed at /api/games")
    })?;
    crate::load_game(path, &[]).map_err(|f| {
        let first = f.diagnostics.first().map(|d| d.message.clone()).unwrap_or_default();
        ApiError::new(
            422,
            "sow::serve::broken_game",
            format!("the rule file `{id}` does not load: {first}"),
        )
        .help("run `sowlang check` on it to see every problem")
    })
}

/// A game replayed up to the last move of a request.
struct Replayed {
    loaded: crate::Loaded,
    pos: Position,
    /// The position before the last move, the move and what it did.
    last: Option<(Position, usize, Vec<Event>)>,
    moves: Vec<usize>,
    /// The moves as `legal_moves` writes them (with the choices each carries).
    move_names: Vec<Value>,
    /// Who was to move after each number of moves, from the start (so the page can undo to a person's turn).
    sides: Vec<Player>,
}

fn replay(catalog: &Catalog, req: &GameRequest) -> Result<Replayed, ApiError> {
    let loaded = load(catalog, &req.game)?;
    let game = &loaded.game;
    let mut pos = game.initial(req.first);
    game.settle_start(&mut pos);
    let mut last = None;
    let mut sides = vec![pos.to_move];
    let mut moves = Vec::new();
    let mut move_names = Vec::new();
    for (i, v) in req.moves.iter().enumerate() {
        // A move's choices are read against the position it is played in.
        let k = parse_move(game, &pos, v, i)?;
        moves.push(k);
        move_names.push(move_json(game, &pos, k));
        let before = pos.clone();
        let traced = if i + 1 == moves.len() {
            game.apply_traced(&mut pos, k).map(Some)
        } else {
            game.apply(&mut pos, k).map(|()| None)
        };
        if traced.is_ok() {
            sides.push(pos.to_move);
        }
        match traced {
            Ok(Some(events)) => last = Some((before, k, events)),
            Ok(None) => {}
            Err(e) => {
                let why = match e {
                    MoveError::Illegal { reason, .. } => reason,
                    MoveError::GameOver => "the game is already over".into(),
                };
                let legal = game.legal_moves(&before);
                return Err(ApiError::new(
                    422,
                    "sow::serve::illegal_move",
                    format!(
                        "move {} ({} plays pit {}) is not allowed: {why}",
                        i + 1,
                        before.to_move.name(),
                        game.name_move(&before, k)
                    ),
                )
                .help(if legal.is_empty() {
                    "no move can be played there".to_string()
                } else {
                    format!("the legal moves there are {}", names(game, &before, &legal).join(", "))
                })
                .accepted(i));
            }
        }
    }
    Ok(Replayed {
        loaded,
        pos,
        last,
        moves,
        move_names,
        sides,
    })
}

fn games(catalog: &Catalog) -> Value {
    let list: Vec<Value> = catalog
        .files
        .iter()
        .map(|(id, path)| match crate::load_game(path, &[]) {
            Ok(l) => json!({"id": id, "name": l.game.name, "rows": l.game.rows, "columns": l.game.columns, "problems": null}),
            Err(f) => {
                let report: String = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
                json!({"id": id, "name": null, "rows": null, "columns": null, "problems": report})
            }
        })
        .collect();
    json!({"single": catalog.single, "games": list, "truncated": catalog.truncated})
}

fn rules(catalog: &Catalog, id: &str) -> Result<Value, ApiError> {
    let path = catalog.path(id).ok_or_else(|| {
        ApiError::new(404, "sow::serve::unknown_game", format!("there is no game `{id}` here"))
            .help("the games served are listed at /api/games")
    })?;
    let mut files = Vec::new();
    match crate::load_game(path, &[]) {
        Ok(l) => {
            for (p, text) in l.sources.files() {
                files.push(json!({"path": catalog.display(p), "text": text}));
            }
        }
        Err(_) => {
            // A file with problems is still shown: the teacher may be looking for them.
            let text = std::fs::read_to_string(path)
                .map_err(|e| ApiError::new(404, "sow::serve::unreadable", format!("cannot read `{id}`: {e}")))?;
            files.push(json!({"path": catalog.display(path), "text": text}));
        }
    }
    Ok(json!({"id": id, "files": files}))
}

/// A cell as the page names it: whose, which row (counted from the middle, 0 = front), which pit of
/// that row (from its owner's left), the same nesting as the position JSON's `pits`.
/// A shared pit is `{"shared": true, "pit": k}`, numbered as the position JSON's `shared` list.
fn cell(game: &Game, c: Cell) -> Value {
    match game.side(c) {
        None => json!({"shared": true, "pit": game.number(c)}),
        Some(side) if game.is_store(c) => json!({"side": side.name(), "store": true}),
        Some(side) => json!({"side": side.name(), "row": game.row_of(c) - 1, "pit": game.number(c)}),
    }
}

/// A move as `legal_moves` writes it.
fn move_json(game: &Game, pos: &Position, k: usize) -> Value {
    serde_json::to_value(MoveJson::of(game, pos, k)).expect("moves serialise")
}

fn names(game: &Game, pos: &Position, moves: &[usize]) -> Vec<String> {
    moves.iter().map(|&k| game.name_move(pos, k)).collect()
}

/// The steps of a move for the page to show one by one, each with its line of narration.
fn steps(game: &Game, before: &Position, events: &[Event]) -> Vec<Value> {
    let lines = game.narrate(events);
    events
        .iter()
        .zip(lines)
        .map(|(e, line)| {
            let text = line.trim().to_string();
            match e {
                Event::Move { player, pit, .. } => {
                    json!({"kind": "move", "player": player, "move": move_json(game, before, *pit), "text": text})
                }
                Event::TakeInHand {
                    rule,
                    cell: c,
                    seeds,
                    player,
                } => json!({
                    "kind": "take_in_hand", "rule": rule, "cell": cell(game, *c), "seeds": seeds,
                    "player": player, "text": text
                }),
                Event::PickUp { cell: c, seeds, lap } => {
                    json!({"kind": "pickup", "cell": cell(game, *c), "seeds": seeds, "lap": lap, "text": text})
                }
                Event::Skip { cell: c, .. } => json!({"kind": "skip", "cell": cell(game, *c), "text": text}),
                Event::Sown { cells, lap } => json!({
                    "kind": "sow",
                    "lap": lap,
                    "cells": cells.iter().map(|c| cell(game, *c)).collect::<Vec<_>>(),
                    "text": text
                }),
                Event::LapEnds { last, count } => {
                    json!({"kind": "lap_end", "cell": cell(game, *last), "count": count, "text": text})
                }
                Event::Take { rule, cell: c, seeds, to } => json!({
                    "kind": "take", "rule": rule, "cell": cell(game, *c), "seeds": seeds,
                    "to": cell(game, game.store(*to)), "text": text
                }),
                Event::MoveSeeds { rule, seeds, from, to } => json!({
                    "kind": "move_seeds", "rule": rule, "seeds": seeds,
                    "from": cell(game, *from), "to": cell(game, *to), "text": text
                }),
                Event::Claim { rule, cell: c, player } => {
                    json!({"kind": "claim", "rule": rule, "cell": cell(game, *c), "player": player, "text": text})
                }
                Event::AnotherMove { player } => json!({"kind": "another_move", "player": player, "text": text}),
                Event::Pass { player } => json!({"kind": "pass", "player": player, "text": text}),
                // These change the board as a whole (seeds handed over, a new round): the page shows
                // the position after the move at this step.
                Event::GameEnds { .. } | Event::RoundSetup { .. } | Event::MatchEnds { .. } => {
                    json!({"kind": "settle", "text": text})
                }
                // The seeds of these are sown by the `Sown` steps that follow, or were moved already.
                Event::SowAgain { .. }
                | Event::Remember { .. }
                | Event::ShortMove { .. }
                | Event::TurnEnds { .. }
                | Event::GrandSlam { .. }
                | Event::FeedingPenalty { .. } => {
                    json!({"kind": "note", "text": text})
                }
            }
        })
        .collect()
}

fn outcome_words(o: Option<Outcome>) -> &'static str {
    match o {
        Some(Outcome::South) => "south wins",
        Some(Outcome::North) => "north wins",
        _ => "it is a draw",
    }
}

fn state(catalog: &Catalog, req: &GameRequest) -> Result<Value, ApiError> {
    let r = replay(catalog, req)?;
    let game = &r.loaded.game;
    let pos = &r.pos;
    let scores = game.scores(pos);
    let legal = game.legal_moves(pos);
    let stuck = !pos.over && legal.is_empty();
    let status = if pos.over {
        let by = pos.ended_by.as_deref().map(|n| format!(" by \"{n}\"")).unwrap_or_default();
        format!(
            "the game is over{by}: {}, south {} - north {}",
            outcome_words(pos.winner),
            scores[0],
            scores[1]
        )
    } else if stuck {
        format!(
            "{} has no legal move and no rule of this game says what happens now",
            pos.to_move.name()
        )
    } else {
        format!("{} to move", pos.to_move.name())
    };
    let last = r.last.as_ref().map(|(before, k, events)| {
        json!({
            "move": move_json(game, before, *k),
            "player": before.to_move,
            "before": crate::position::to_json(game, before),
            "steps": steps(game, before, events),
        })
    });
    Ok(json!({
        // `shared` pits belong to nobody: a middle row, or on a `ring` its odd pit (or every pit
        // when the players have none); the page draws each shape from these.
        "game": {"id": req.game, "name": game.name, "rows": game.rows, "columns": game.columns,
                 "shared": game.shared, "ring": game.ring,
                 "stores_sown": game.stores_sown,
                 "rounds": game.rounds.is_some()},
        "moves": r.move_names,
        "sides": r.sides,
        "position": crate::position::to_json(game, pos),
        "scores": {"south": scores[0], "north": scores[1]},
        "stuck": stuck,
        "status": status,
        "last": last,
    }))
}

/// A player spec from the page, held to limits that answer within seconds on any board.
fn bounded(spec: &str) -> Result<Spec, ApiError> {
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
            None => Spec::Mcts(mcts::Budget {
                playouts: b.playouts.min(MAX_PLAYOUTS),
                time: None,
            }),
        },
        other => other,
    })
}

fn computer(catalog: &Catalog, req: &GameRequest) -> Result<Value, ApiError> {
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
struct Effect {
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
fn taken(game: &Game, events: &[Event], by: Player) -> u32 {
    events
        .iter()
        .map(|e| match e {
            Event::Take { seeds, to, .. } if *to == by => *seeds,
            Event::TakeInHand { seeds, player, cell, .. } if *player == by && game.side(*cell) != Some(by) => *seeds,
            _ => 0,
        })
        .sum()
}

fn effect(game: &Game, pos: &Position, k: usize) -> Option<Effect> {
    let me = pos.to_move;
    let them = me.other();
    let opponent_empty = game.row_seeds(&pos.board, them) == 0;
    let mut next = pos.clone();
    let events = game.apply_traced(&mut next, k).ok()?;
    let (mut into_store, mut sown_to_opponent) = (0, 0);
    for e in &events {
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
    let reply_capture = if !next.over && next.to_move == them {
        game.legal_moves(&next)
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
    Some(Effect {
        captured: taken(game, &events, me),
        lost: taken(game, &events, them),
        into_store,
        another,
        sown_to_opponent,
        feeds: opponent_empty && game.row_seeds(&next.board, them) > 0,
        ends: next.over.then_some(next.winner),
        reply_capture,
    })
}

fn seeds(n: u32) -> String {
    if n == 1 { "1 seed".into() } else { format!("{n} seeds") }
}

fn describe(e: &Effect, me: Player) -> String {
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

fn hint(catalog: &Catalog, req: &GameRequest) -> Result<Value, ApiError> {
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
    let searched = alphabeta::search(game, pos, limits, true, &mut rng)
        .ok_or_else(|| ApiError::new(422, "sow::serve::no_move", format!("{} has no legal move", pos.to_move.name())))?;
    let me = pos.to_move;
    let mut moves: Vec<(i32, Value)> = game
        .legal_moves(pos)
        .into_iter()
        .filter_map(|k| {
            let e = effect(game, pos, k)?;
            let score = searched.scores.iter().find(|(m, _)| *m == k).map(|(_, s)| *s);
            Some((
                score.unwrap_or(i32::MIN),
                json!({
                    "move": move_json(game, pos, k),
                    "does": describe(&e, me),
                    "captures": e.captured,
                    "another_move": e.another,
                    "feeds": e.feeds,
                    "score": score.map(describe_score),
                }),
            ))
        })
        .collect();
    moves.sort_by_key(|m| std::cmp::Reverse(m.0));
    let best = effect(game, pos, searched.pit).map(|e| describe(&e, me)).unwrap_or_default();
    Ok(json!({
        "best": move_json(game, pos, searched.pit),
        "why": format!(
            "pit {}: {best}; with best play from both sides this leads to {} (looking {} moves ahead, counting both players' moves)",
            game.name_move(pos, searched.pit),
            describe_score(searched.score),
            searched.depth
        ),
        "depth": searched.depth,
        "moves": moves.into_iter().map(|(_, v)| v).collect::<Vec<_>>(),
    }))
}
