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
//! - `GET /api/games`: the games offered, sorted by name (id, name, the board in words, the documents
//!   cited, whether it is a good first game; or the problems of a file that does not load).
//! - `GET /api/rules/ID`: the text of a game's rule file and of every file it `extends`, and its rule
//!   sheet in HTML (`sheet`, as `sowlang explain --format html` writes it; null for a file with errors).
//! - `POST /api/state`: `{"game":ID,"moves":[..],"first":"south"}` -> the board's shape (rows,
//!   columns, shared pits, ring), the position (the JSON of docs/cli.md), the position before the last
//!   move, and the last move step by step with its narration. Moves are written as `legal_moves`
//!   lists them (`3`, `"b3"`, `"s2"` for a shared pit, `"3L"`, `"a5L:cw"` with the choices made
//!   during the move). `options` tells apart the moves that start from one pit: for each, its
//!   choices in words (`choices`, `words`), what it does at once (`does`) and the first step of its
//!   story that differs from the others' (`differs`); the last move carries its `words` too.
//!   `refused` says why each pit that cannot be played now is refused; `game.hand` that the stores
//!   hold seeds in hand.
//! - `POST /api/computer`: the same plus `"player":"alphabeta:4"` -> the move that player chooses, and why.
//! - `POST /api/hint`: the same -> every legal move with its choices in words, what it does and its
//!   score, and the hint for children in plain words (`plain`).
//!
//! Errors are `{"error":{"code":..,"message":..,"help":..,"accepted_moves":..}}` with a 4xx status;
//! `accepted_moves` counts the moves of a refused list that were fine, so a page can show that position.

use serde::Deserialize;
use serde_json::{Value, json};

use super::catalog::Catalog;
use crate::compile::ir::Op;
use crate::engine::{Cell, Event, Game, MoveError, Outcome, Player, Position, move_base};
use crate::position::MoveJson;

mod advice;
use advice::{computer, describe, effect_of, hint, played, seeds};

/// A request body larger than this is refused (a move list of a long game is a few kilobytes).
pub const MAX_BODY: usize = 256 * 1024;
/// At most this many moves are replayed; no game of the shipped files comes near it.
pub const MAX_MOVES: usize = 5000;
/// The deepest alpha-beta search a page may ask for (deeper ones take minutes on large boards).
pub const MAX_DEPTH: u32 = 12;
/// The most MCTS playouts a page may ask for.
pub const MAX_PLAYOUTS: u32 = 20_000;
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
    pub fn help(mut self, help: impl Into<String>) -> ApiError {
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
/// name such as `"b3"` or `"3L"` (the engine reads both; a number may also come as a string of digits),
/// with the choices made during the move after it (`"a5L:cw"`), read against the position it is
/// played in. A refusal keeps the moves before it, and a pit written without the choices its moves
/// carry is answered with the moves it could be.
fn parse_move(game: &Game, pos: &Position, v: &Value, index: usize) -> Result<usize, ApiError> {
    let text = match v {
        Value::Number(n) if n.is_u64() => Some(n.to_string()),
        Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_string()),
        _ => None,
    };
    if let Some(k) = text.as_deref().and_then(|t| game.read_move(pos, t)) {
        return Ok(k);
    }
    let legal = names(game, pos, &game.legal_moves(pos));
    let shown = text.clone().unwrap_or_else(|| v.to_string());
    // `a5L` where the moves are `a5L:ccw` and `a5L:cw`; `a5` where they are `a5L`, `a5R`: the moves
    // of the pit it names that it begins (a choice written wrong is no beginning of any).
    let could_be: Vec<String> = text
        .as_deref()
        .and_then(|t| Some((t.to_ascii_lowercase(), game.moves_meant(pos, t)?.1)))
        .map(|(t, moves)| {
            moves
                .iter()
                .map(|&k| game.name_move(pos, k))
                .filter(|name| name.to_ascii_lowercase().starts_with(&t))
                .collect()
        })
        .unwrap_or_default();
    // A number past the board (`257`, `4294967297`) names no pit: said so, not read as another pit.
    let no_pit = text
        .as_deref()
        .and_then(|t| game.parse_move(t.split(':').next().unwrap_or(t)))
        .and_then(|k| game.no_such_pit(k));
    let err = if let Some(why) = no_pit {
        ApiError::new(
            422,
            "sow::serve::illegal_move",
            format!("move {} (`{shown}`) is not allowed: {why}", index + 1),
        )
        .help(if legal.is_empty() {
            "no move can be played there".to_string()
        } else {
            format!("the legal moves there are {}", legal.join(", "))
        })
    } else if could_be.is_empty() {
        ApiError::new(
            422,
            "sow::serve::bad_move",
            format!("move {} (`{shown}`) is not a move of this game here", index + 1),
        )
        .help(if legal.is_empty() {
            "send the moves as `legal_moves` lists them; no move can be played there".to_string()
        } else {
            format!(
                "send the moves as `legal_moves` lists them: the legal moves there are {}",
                legal.join(", ")
            )
        })
    } else {
        ApiError::new(
            422,
            "sow::serve::bad_move",
            format!(
                "move {} (`{shown}`) does not say the choices made during the move: it could be {}",
                index + 1,
                crate::diagnostic::word_list(&could_be, "or")
            ),
        )
        .help("write the move with its choices, as `legal_moves` lists them")
    };
    Err(err.accepted(index))
}

/// The pit a move is played from, as the page shows it: the move's name without the choices made
/// during the move and without the direction (`a5L:cw` -> `a5`).
fn pit_of(game: &Game, name: &str) -> String {
    let head = name.split(':').next().unwrap_or_default();
    if game.choices > 1
        && let Some(pit) = head.strip_suffix(['L', 'R', 'l', 'r'])
    {
        return pit.to_string();
    }
    head.to_string()
}

fn load(catalog: &Catalog, id: &str) -> Result<std::sync::Arc<crate::Loaded>, ApiError> {
    let path = catalog.path(id).ok_or_else(|| {
        ApiError::new(404, "sow::serve::unknown_game", format!("there is no game `{id}` here"))
            .help("the games served are listed at /api/games")
    })?;
    catalog.cache.get(path).map_err(|f| {
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
    loaded: std::sync::Arc<crate::Loaded>,
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
                        "move {} ({} plays {}) is not allowed: {why}",
                        i + 1,
                        before.to_move.name(),
                        crate::engine::pit_word(&game.name_move(&before, k))
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
    let mut list: Vec<(String, Value)> = catalog
        .files
        .iter()
        .map(|(id, path)| match catalog.cache.get(path) {
            Ok(l) => (l.game.name.to_lowercase(), game_line(id, &l)),
            Err(f) => (
                id.to_lowercase(),
                json!({"id": id, "name": null, "rows": null, "columns": null, "problems": problems(catalog, &f)}),
            ),
        })
        .collect();
    // The chooser lists games by name, as a teacher looks for them; a file with problems by its file name.
    list.sort_by(|a, b| a.0.cmp(&b.0));
    let list: Vec<Value> = list.into_iter().map(|(_, v)| v).collect();
    json!({"single": catalog.single, "games": list, "truncated": catalog.truncated})
}

/// One game of the chooser, all of it read from its rule files: its name, its board in words
/// (`shape`), the documents its rules cite (`sources`, from the `# cites:` lines, in the order first
/// cited) and whether its file marks it a good first game (`level beginner`).
fn game_line(id: &str, loaded: &crate::Loaded) -> Value {
    let game = &loaded.game;
    let mut sources: Vec<String> = Vec::new();
    for (_, text) in loaded.sources.files() {
        for line in text.lines() {
            let Some(rest) = line.trim_start().strip_prefix("# cites:") else {
                continue;
            };
            let doc = rest.split(',').next().unwrap_or_default().trim();
            if !doc.is_empty() && !sources.iter().any(|s| s == doc) {
                sources.push(doc.to_string());
            }
        }
    }
    json!({"id": id, "name": game.name, "rows": game.rows, "columns": game.columns,
           "shape": shape_words(game), "sources": sources, "first_game": first_game(game),
           "problems": null})
}

/// Is the game marked a good first game (`level beginner` in its rule file)?
fn first_game(game: &Game) -> bool {
    game.level.as_deref() == Some("beginner")
}

/// The board in a few words, as the chooser shows it: "2 rows of 6", "4 rows of 8", "3 rows of 7 (the
/// middle one shared)", "a ring of 9 pits".
fn shape_words(game: &Game) -> String {
    let rows = game.rows * 2;
    if game.ring {
        return format!("a ring of {} pits", game.side_pits() * 2 + game.shared);
    }
    if game.shared > 0 {
        return format!("{} rows of {} (the middle one shared)", rows + 1, game.columns);
    }
    format!("{rows} rows of {}", game.columns)
}

/// A file's problems as the page shows them. A problem in a file outside the folder served (a file
/// that `extends "/etc/passwd"`) is told in one line naming only the file, never quoted from it.
fn problems(catalog: &Catalog, f: &crate::LoadFailure) -> String {
    f.diagnostics
        .iter()
        .map(|d| {
            let outside = d.labels.iter().find(|l| !catalog.inside(f.sources.path(l.span.file)));
            match outside {
                None => d.render(&f.sources, false),
                Some(l) => format!(
                    "{}: {} (in `{}`)\n",
                    d.code,
                    d.message,
                    catalog.display(f.sources.path(l.span.file))
                ),
            }
        })
        .collect()
}

fn rules(catalog: &Catalog, id: &str) -> Result<Value, ApiError> {
    let path = catalog.path(id).ok_or_else(|| {
        ApiError::new(404, "sow::serve::unknown_game", format!("there is no game `{id}` here"))
            .help("the games served are listed at /api/games")
    })?;
    let mut files = Vec::new();
    let mut sheet = None;
    match catalog.cache.get(path) {
        Ok(l) => {
            for (p, text) in l.sources.files() {
                files.push(json!({"path": catalog.display(p), "text": text}));
            }
            // The rule sheet in plain words, shown first; the files with their citations are one
            // click further. Made only of a file the cache has checked clean.
            sheet = crate::cli::explain::sheet_of(path, &[])
                .ok()
                .map(|s| s.without_command_line().html());
        }
        Err(_) => {
            // A file with problems is still shown: the teacher may be looking for them.
            let text = std::fs::read_to_string(path)
                .map_err(|e| ApiError::new(404, "sow::serve::unreadable", format!("cannot read `{id}`: {e}")))?;
            files.push(json!({"path": catalog.display(path), "text": text}));
        }
    }
    Ok(json!({"id": id, "files": files, "sheet": sheet}))
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

/// The choices move `k` of `pos` carries, in words for the page: the way it goes (`L`, `R`: along the
/// mover's row as the mover sees it, or round the board from a shared pit), then each answer the mover gives during the move, in the order the move meets them,
/// as `{"kind", "answer", "words"}`. The engine writes the answers as it names the move (`a5L:cw`);
/// their kind is read from the answer and the game: the name of an optional phase's rules (or
/// `usual`) comes first, `ccw`/`cw` is the way taken seeds are sown again, the number of seeds the
/// first lap lifts is the answer to a `lift choose(..)`, a pit is named as the mover names pits (the
/// opponent's with a `'`). On a board of one row a player a chosen pit of the mover's and a chosen
/// number are both written as digits, and are told as "chooses 4". `events` are the move's steps.
fn choices_of(game: &Game, pos: &Position, k: usize, events: &[Event]) -> Vec<Value> {
    if game.choices == 1 && !game.uses_choose {
        return Vec::new();
    }
    let me = pos.to_move;
    let name = game.name_move(pos, k);
    let mut parts = name.split(':');
    let head = parts.next().unwrap_or_default();
    let mut out = Vec::new();
    let mut push = |kind: &str, answer: &str, words: String| {
        out.push(json!({"kind": kind, "answer": answer, "words": words}));
    };
    if game.choices > 1
        && let Some(letter @ ('L' | 'R')) = head.chars().last()
    {
        let (pit, cw) = game.move_parts(move_base(k));
        let words = if pit > game.side_pits() {
            // A shared pit has no owner whose left it could be: the way round the board.
            format!("sows {}", if cw { "clockwise ↻" } else { "counter-clockwise ↺" })
        } else {
            // The mover's own pit: as the mover sees its row.
            format!("towards {}'s {}", me.name(), if letter == 'L' { "left" } else { "right" })
        };
        push("direction", &letter.to_string(), words);
    }
    let lifts = game.phases.iter().any(|p| {
        p.sow.lift.as_ref().is_some_and(|c| {
            c.ops
                .iter()
                .any(|op| matches!(op, Op::Choose(..) | Op::ChooseIn(_) | Op::ChooseRange))
        })
    });
    // The seeds the first lap took from the pit played, and how many it held.
    let lifted = events.iter().find_map(|e| match e {
        Event::PickUp { cell, seeds, lap: 1 } if !game.is_store(*cell) => Some((*seeds, pos.board.cells[*cell as usize])),
        _ => None,
    });
    let mut lift_open = lifts;
    for (i, answer) in parts.enumerate() {
        // With optional phases on offer, the first answer names the rules played: an optional
        // phase's, or the rules that apply anyway (`usual`, or the name of the phase that applies).
        let optional = game.phases.iter().any(|p| p.optional);
        let rules = (i == 0 && optional)
            .then(|| {
                let phase = game
                    .phases
                    .iter()
                    .find(|p| !p.name.is_empty() && p.name.replace(' ', "_") == answer);
                match phase {
                    Some(p) if p.optional => Some(format!("plays by the rules of \"{}\"", p.name)),
                    Some(_) => Some("plays by the usual rules".to_string()),
                    None => (answer == "usual").then(|| "plays by the usual rules".to_string()),
                }
            })
            .flatten();
        if let Some(words) = rules {
            push("rules", answer, words);
            continue;
        }
        if answer == "ccw" || answer == "cw" {
            lift_open = false;
            let way = if answer == "cw" { "clockwise ↻" } else { "counter-clockwise ↺" };
            push("way", answer, format!("captured seeds go {way}"));
            continue;
        }
        let number = answer.parse::<u32>().ok();
        if std::mem::take(&mut lift_open)
            && let (Some(n), Some((took, held))) = (number, lifted)
            && n == took
        {
            let words = if took == held {
                format!("sows all {}", seeds(held))
            } else {
                format!("sows {took} of the {}, leaving {} in the pit", seeds(held), held - took)
            };
            push("seeds", answer, words);
            continue;
        }
        // An option the rules name (`choose(1 as "stop", 0 as "safari")`): told with the name of the
        // rule that offers it, in the file's own words.
        if number.is_none()
            && let Some(rule) = game.rule_naming_option(answer)
        {
            push("option", answer, format!("chooses {answer} (\"{rule}\")"));
            continue;
        }
        let (pit, theirs) = answer.strip_suffix('\'').map_or((answer, false), |p| (p, true));
        let whose = if theirs { me.other() } else { me };
        let digits = |t: &str| !t.is_empty() && t.bytes().all(|b| b.is_ascii_digit());
        let words = if pit == "store" {
            format!("chooses {}'s store", whose.name())
        } else if pit.strip_prefix('s').is_some_and(digits) && game.shared > 0 {
            format!("chooses shared pit {pit}")
        } else if theirs || (!digits(pit) && game.rows > 1) {
            format!("chooses {}'s pit {pit}", whose.name())
        } else {
            push("number", answer, format!("chooses {answer}"));
            continue;
        };
        push("pit", answer, words);
    }
    out
}

/// The choices of a move in one line: "towards north's left; captured seeds go clockwise ↻".
fn words_of(choices: &[Value]) -> String {
    choices.iter().filter_map(|c| c["words"].as_str()).collect::<Vec<_>>().join("; ")
}

/// The lines of a move's story that tell it apart from another move from the same pit: every step
/// but the move itself and the first pick-up (which the choices say), without the lap numbers
/// ("lap 2: sows the 1 seed taken on, from north a1" is told "sows the 1 seed taken on, from north a1").
/// Each line says whether it only tells a memory value set.
fn story(game: &Game, events: &[Event]) -> Vec<(String, bool)> {
    events
        .iter()
        .zip(game.narrate(events))
        .filter(|(e, _)| !matches!(e, Event::Move { .. } | Event::PickUp { lap: 1, .. }))
        .map(|(e, line)| {
            let line = line.trim();
            let lap = line
                .strip_prefix("lap ")
                .and_then(|rest| rest.split_once(": "))
                .filter(|(n, _)| n.bytes().all(|b| b.is_ascii_digit()));
            (lap.map_or(line, |(_, rest)| rest).to_string(), matches!(e, Event::Remember { .. }))
        })
        .collect()
}

/// The moves of `pos` that share their pit with another move, each with its choices in words, what
/// it does at once and the first step of its story that differs from the others' (`differs`, null
/// when it differs from none): what the page shows when a pit is touched that starts several moves.
fn options(game: &Game, pos: &Position) -> Vec<Value> {
    if pos.over || (game.choices == 1 && !game.uses_choose) {
        return Vec::new();
    }
    let legal = game.legal_moves(pos);
    let pits: Vec<String> = legal.iter().map(|&k| pit_of(game, &game.name_move(pos, k))).collect();
    struct Told {
        pit: String,
        k: usize,
        lines: Vec<(String, bool)>,
        choices: Vec<Value>,
        does: String,
    }
    let mut told = Vec::new();
    for (i, &k) in legal.iter().enumerate() {
        if pits.iter().filter(|p| **p == pits[i]).count() < 2 {
            continue;
        }
        let Some((next, events)) = played(game, pos, k) else { continue };
        told.push(Told {
            pit: pits[i].clone(),
            k,
            lines: story(game, &events),
            choices: choices_of(game, pos, k, &events),
            does: describe(&effect_of(game, pos, &next, &events, false), pos.to_move),
        });
    }
    told.iter()
        .map(|t| {
            // The step where this story leaves the story of the move it follows longest.
            let parted = told
                .iter()
                .filter(|o| o.pit == t.pit && o.k != t.k && o.lines != t.lines)
                .map(|o| t.lines.iter().zip(&o.lines).take_while(|(a, b)| a == b).count())
                .max();
            // What the board shows differently says more than a memory value set on the way (the
            // nyumba kept or given up is told by the move that stops, or goes on).
            let differs = parted.and_then(|i| {
                let rest = t.lines.get(i..).unwrap_or_default();
                rest.iter().find(|(_, memory)| !memory).or(rest.first()).map(|(line, _)| line)
            });
            json!({
                "move": move_json(game, pos, t.k),
                "pit": t.pit,
                "choices": t.choices,
                "words": words_of(&t.choices),
                "does": t.does,
                "differs": differs,
            })
        })
        .collect()
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
                Event::Move { player, pit, phase, .. } => json!({
                    "kind": "move", "player": player, "move": move_json(game, before, *pit), "phase": phase, "text": text
                }),
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
                Event::Close { rule, cell: c, closing } => {
                    json!({"kind": "close", "rule": rule, "cell": cell(game, *c), "closing": closing, "text": text})
                }
                Event::AnotherMove { player } => json!({"kind": "another_move", "player": player, "text": text}),
                Event::Pass { player, chosen } => json!({"kind": "pass", "player": player, "chosen": chosen, "text": text}),
                // These change the board as a whole (seeds handed over, a new round): the page shows
                // the position after the move at this step.
                Event::GameEnds { .. } | Event::RoundSetup { .. } | Event::MatchEnds { .. } => {
                    json!({"kind": "settle", "text": text})
                }
                // The seeds of these are sown by the `Sown` steps that follow, or were moved already.
                Event::SowAgain { .. }
                | Event::Remember { .. }
                | Event::TakeKept { .. }
                | Event::ShortMove { .. }
                | Event::TurnEnds { .. }
                | Event::Said { .. }
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
        let choices = choices_of(game, before, *k, events);
        json!({
            "move": move_json(game, before, *k),
            "words": words_of(&choices),
            "choices": choices,
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
                 "hand": store_is_hand(game),
                 "rounds": game.rounds.is_some(),
                 // The game's own words and what each means: the narration explains each once.
                 "words": game.words.iter().map(|(w, m)| [w, m]).collect::<Vec<_>>()},
        "moves": r.move_names,
        "sides": r.sides,
        "position": crate::position::to_json(game, pos),
        // The moves that share their pit with another, told apart in words, for the page to ask which.
        "options": options(game, pos),
        // Why each move that cannot be played now is refused, for the page to say when it is tapped.
        "refused": refusals(game, pos),
        "scores": {"south": scores[0], "north": scores[1]},
        "stuck": stuck,
        "status": status,
        "last": last,
    }))
}

/// Does a player's store hold seeds in hand (seeds still to be entered into play, taken from the store
/// by a phase's `sow { from store N }`), so that the page draws it as a hand and not as a score?
fn store_is_hand(game: &Game) -> bool {
    game.phases.iter().any(|p| p.sow.from_store.is_some())
}

/// The pits of the player to move (and the shared ones) that no move may start from now, each with
/// the engine's reason for its first move ("it is empty", a `forbid` rule's own words): `{"3": "it is
/// empty", "b4": ...}`, a pit named as moves name it, without a direction or choices.
fn refusals(game: &Game, pos: &Position) -> Value {
    let mut out = serde_json::Map::new();
    if pos.over {
        return Value::Object(out);
    }
    let legal = game.legal_moves(pos);
    let pit_of_move = |k: usize| {
        let name = game.name_move(pos, k);
        let head = name.split(':').next().unwrap_or_default().to_string();
        if game.choices > 1 {
            head.trim_end_matches(['L', 'R']).to_string()
        } else {
            head
        }
    };
    let playable: Vec<String> = legal.iter().map(|&k| pit_of_move(k)).collect();
    for k in 1..=game.move_count() {
        if playable.contains(&pit_of_move(k)) {
            continue;
        }
        let mut tried = pos.clone();
        if let Err(MoveError::Illegal { reason, .. }) = game.apply(&mut tried, k) {
            out.entry(pit_of_move(k)).or_insert(Value::String(reason));
        }
    }
    Value::Object(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::Path;

    fn game(text: &str) -> Game {
        match crate::load_text(Path::new("invented.sow"), text, &[]) {
            Ok(l) => l.game,
            Err(f) => panic!("the invented game does not check: {:?}", f.diagnostics),
        }
    }

    /// Every legal move of the start position: its name and its choices in words.
    fn told(game: &Game) -> Vec<(String, String)> {
        let mut pos = game.initial(None);
        game.settle_start(&mut pos);
        game.legal_moves(&pos)
            .into_iter()
            .map(|k| {
                let (_, events) = played(game, &pos, k).expect("legal");
                (game.name_move(&pos, k), words_of(&choices_of(game, &pos, k, &events)))
            })
            .collect()
    }

    fn pairs(v: &[(&str, &str)]) -> Vec<(String, String)> {
        v.iter().map(|(a, b)| (a.to_string(), b.to_string())).collect()
    }

    #[test]
    fn the_rules_played_a_chosen_pit_and_a_chosen_number_are_told_in_words() {
        // An optional phase: the first answer is the rules played.
        let once = game(
            r#"
game "Once a game"
board { pits 3  seeds 2 }
memory { player used = 0 }
phase "big sowing" when mover.used == 0 {
  optional
  sow { direction cw }
  after move "the special sowing is used" { when true  set mover.used = 1 }
}
end "no move" when no_moves remaining owner
"#,
        );
        let words = told(&once);
        assert!(words.contains(&("1:usual".into(), "plays by the usual rules".into())), "{words:?}");
        assert!(
            words.contains(&("1:big_sowing".into(), "plays by the rules of \"big sowing\"".into())),
            "{words:?}"
        );
        // South 2's seed goes to north 1 (2 seeds), and then either of north's pits may be taken.
        let take = game(
            r#"
game "Take one"
board { pits 2  seeds 1 }
capture "any" { when last.side == opponent  take choose(row(opponent) where pit.count > 0) }
end "no move" when no_moves remaining owner
"#,
        );
        assert_eq!(
            told(&take),
            pairs(&[("1", ""), ("2:1'", "chooses north's pit 1"), ("2:2'", "chooses north's pit 2")])
        );
        // A number chosen after the move: on a board of one row it is written as a pit would be.
        let number = game(
            r#"
game "Lucky number"
board { pits 2  seeds 1 }
memory { player luck = 0 }
after move "luck" { when true  set mover.luck = choose(3, 5) }
end "no move" when no_moves remaining owner
"#,
        );
        assert_eq!(
            told(&number),
            pairs(&[
                ("1:3", "chooses 3"),
                ("1:5", "chooses 5"),
                ("2:3", "chooses 3"),
                ("2:5", "chooses 5")
            ])
        );
    }
}
