//! `sowlang serve`'s HTTP API, through the real binary on a free loopback port, with requests written
//! by hand on a TCP socket (so paths like `/api/rules/../../etc/passwd` reach the server unchanged).
//! Every refused request gets a JSON error with a 4xx status and a stable code, and changes nothing:
//! the same good request answers the same before and after it. Good requests answer what the library
//! computes for the same moves.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use crate::support::root;
use serde_json::{Value, json};

mod refused;

/// A running `sowlang serve`, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn serve(args: &[&str]) -> Server {
    serve_in(root(), args)
}

/// `serve ARGS` run in the folder `dir`.
fn serve_in(dir: &std::path::Path, args: &[&str]) -> Server {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .arg("serve")
        .args(args)
        .args(["--port", "0"])
        .current_dir(dir)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sowlang serve");
    let mut line = String::new();
    BufReader::new(child.stdout.take().expect("stdout"))
        .read_line(&mut line)
        .expect("the server prints its address");
    let addr = line
        .split("http://")
        .nth(1)
        .and_then(|rest| rest.split('/').next())
        .unwrap_or_else(|| panic!("no address in {line:?}"))
        .to_string();
    Server { child, addr }
}

struct Answer {
    status: u16,
    content_type: String,
    body: String,
}

impl Answer {
    fn json(&self) -> Value {
        serde_json::from_str(&self.body).unwrap_or_else(|e| panic!("not JSON ({e}): {}", self.body))
    }
    /// A refusal: the status, JSON with the code, a message, and nothing else.
    fn refused(&self, status: u16, code: &str) -> Value {
        assert_eq!(self.status, status, "{}", self.body);
        assert!(self.content_type.starts_with("application/json"), "{}", self.content_type);
        let v = self.json();
        assert_eq!(v["error"]["code"], code, "{}", self.body);
        assert!(v["error"]["message"].as_str().is_some_and(|m| !m.is_empty()));
        v
    }
}

/// One request, raw: `target` goes on the request line exactly as given.
fn raw(server: &Server, method: &str, target: &str, host: &str, body: &[u8]) -> Answer {
    let mut s = TcpStream::connect(&server.addr).expect("connect");
    s.set_read_timeout(Some(Duration::from_secs(30))).expect("timeout");
    let head = format!(
        "{method} {target} HTTP/1.1\r\nHost: {host}\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n",
        body.len()
    );
    s.write_all(head.as_bytes()).expect("send");
    // A refusal may come before the whole body is read, and the server may then close: ignore that.
    let _ = s.write_all(body);
    let mut bytes = Vec::new();
    let _ = s.read_to_end(&mut bytes);
    let text = String::from_utf8_lossy(&bytes).into_owned();
    let (head, body) = text.split_once("\r\n\r\n").unwrap_or_else(|| panic!("no HTTP answer: {text:?}"));
    let status = head
        .split_whitespace()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("no status in {head:?}"));
    let content_type = head
        .lines()
        .find_map(|l| l.to_ascii_lowercase().strip_prefix("content-type:").map(|v| v.trim().to_string()))
        .unwrap_or_default();
    Answer {
        status,
        content_type,
        body: body.to_string(),
    }
}

fn get(server: &Server, target: &str) -> Answer {
    raw(server, "GET", target, "127.0.0.1", b"")
}

fn post(server: &Server, target: &str, body: &Value) -> Answer {
    raw(server, "POST", target, "localhost", body.to_string().as_bytes())
}

/// The position the library reaches with these moves, as JSON.
fn library_position(file: &str, moves: &[usize]) -> Value {
    let loaded = sowlang::load_game(&root().join(file), &[]).expect("loads");
    let game = &loaded.game;
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    for &k in moves {
        game.apply(&mut pos, k).expect("legal");
    }
    game.position_to_json(&pos)
}

#[test]
fn the_page_and_the_game_list() {
    let s = serve(&["variants"]);
    let page = get(&s, "/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(page.body.contains("/board.js") && page.body.contains("/app.js"));
    for (asset, kind) in [
        ("/app.js", "text/javascript"),
        ("/board.js", "text/javascript"),
        ("/style.css", "text/css"),
    ] {
        let a = get(&s, asset);
        assert_eq!(a.status, 200, "{asset}");
        assert!(a.content_type.starts_with(kind), "{asset}: {}", a.content_type);
    }
    let games = get(&s, "/api/games").json();
    assert_eq!(games["single"], false);
    let ids: Vec<&str> = games["games"]
        .as_array()
        .expect("list")
        .iter()
        .map(|g| g["id"].as_str().expect("id"))
        .collect();
    assert!(
        ids.contains(&"oware.sow") && ids.contains(&"reference/openspiel_kalah.sow"),
        "{ids:?}"
    );
    assert_eq!(ids.len(), sowlang_files(), "every shipped file is offered");
    let oware = games["games"]
        .as_array()
        .expect("list")
        .iter()
        .find(|g| g["id"] == "oware.sow")
        .expect("oware");
    assert_eq!(oware["name"], "Oware");
    assert!(oware["problems"].is_null());
}

fn sowlang_files() -> usize {
    crate::support::shipped().len()
}

#[test]
fn a_game_is_replayed_from_its_moves() {
    let s = serve(&["variants"]);
    let a = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [3, 3, 2]}));
    assert_eq!(a.status, 200, "{}", a.body);
    let v = a.json();
    assert_eq!(v["position"], library_position("variants/oware.sow", &[3, 3, 2]));
    assert_eq!(v["last"]["before"], library_position("variants/oware.sow", &[3, 3]));
    assert_eq!(v["last"]["move"], 2);
    assert_eq!(v["last"]["player"], "south");
    assert_eq!(v["sides"], json!(["south", "north", "south", "north"]));
    let steps = v["last"]["steps"].as_array().expect("steps");
    assert_eq!(steps[0]["kind"], "move");
    assert!(
        steps
            .iter()
            .any(|s| s["kind"] == "sow" && s["text"].as_str().is_some_and(|t| t.contains("sows one seed each")))
    );
    // A move written as a string of digits is the same move.
    let b = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": ["3", 3, "2"]})).json();
    assert_eq!(b["position"], v["position"]);
    // Kalah's store is on the sowing path and named as a store.
    let k = post(&s, "/api/state", &json!({"game": "kalah.sow", "moves": [3]})).json();
    let sown = &k["last"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["kind"] == "sow")
        .expect("sow")["cells"];
    assert!(
        sown.as_array().expect("cells").contains(&json!({"side": "south", "store": true})),
        "{sown}"
    );
    // A board with two rows a player: moves by name, cells by row (0 = front) and pit.
    let h = post(&s, "/api/state", &json!({"game": "hus.sow", "moves": ["b4", "B3"]}));
    assert_eq!(h.status, 200, "{}", h.body);
    let h = h.json();
    let loaded = sowlang::load_game(&root().join("variants/hus.sow"), &[]).expect("loads");
    let (b4, b3) = (loaded.game.parse_move("b4").expect("b4"), loaded.game.parse_move("b3").expect("b3"));
    assert_eq!(h["position"], library_position("variants/hus.sow", &[b4, b3]));
    assert_eq!(h["moves"], json!(["b4", "b3"]));
    assert_eq!(h["last"]["move"], "b3");
    let first = &h["last"]["steps"].as_array().expect("steps")[1];
    assert_eq!(first["cell"], json!({"side": "north", "row": 1, "pit": 3}), "{first}");
    post(&s, "/api/state", &json!({"game": "hus.sow", "moves": [4]})).refused(422, "sow::serve::bad_move");
    post(&s, "/api/state", &json!({"game": "hus.sow", "moves": ["c1"]})).refused(422, "sow::serve::bad_move");
    // Who begins can be chosen.
    let n = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [], "first": "north"})).json();
    assert_eq!(n["position"]["to_move"], "north");
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let s = serve(&["variants"]);
    let good = json!({"game": "oware.sow", "moves": [3, 3]});
    let before = post(&s, "/api/state", &good).body;
    // South's pit 3 is empty after 3, 3.
    let v = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [3, 3, 3]})).refused(422, "sow::serve::illegal_move");
    let message = v["error"]["message"].as_str().expect("message");
    assert!(message.contains("move 3") && message.contains("pit 3"), "{message}");
    assert!(v["error"]["help"].as_str().is_some_and(|h| h.contains("legal moves")));
    assert_eq!(v["error"]["accepted_moves"], 2);
    for m in [json!(0), json!(7), json!(99_999_999_999u64), json!(u64::MAX)] {
        post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [m]})).refused(422, "sow::serve::illegal_move");
    }
    for m in [
        json!(-1),
        json!(1.5),
        json!("x"),
        // The engine reads "a3" as pit 3 on a board of one row a player (the front row is row a).
        json!("b3"),
        json!("3L"),
        json!(""),
        json!(null),
        json!([3]),
        json!({"pit": 3}),
    ] {
        post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [m]})).refused(422, "sow::serve::bad_move");
    }
    // Moves after the end of a game.
    let loaded = sowlang::load_game(&root().join("variants/oware.sow"), &[]).expect("loads");
    let game = &loaded.game;
    let mut pos = game.initial(None);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let k = game.legal_moves(&pos)[0];
        game.apply(&mut pos, k).expect("legal");
        moves.push(k);
    }
    let over = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": moves})).json();
    assert_eq!(over["position"]["over"], true);
    moves.push(1);
    let v = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": moves})).refused(422, "sow::serve::illegal_move");
    assert!(v["error"]["message"].as_str().expect("message").contains("over"));
    assert_eq!(post(&s, "/api/state", &good).body, before, "the refusals changed nothing");
}

// Issue 21: `serve` in a folder without rule files said "there is no .sow file under ."; the games
// built into the program are served instead, with the files they extend, as they are in the repository.
#[test]
fn serve_alone_offers_the_built_in_games() {
    let empty = crate::support::scratch("serve", "built_in");
    let s = serve_in(&empty, &[]);
    let games = get(&s, "/api/games").json();
    let list = games["games"].as_array().expect("list");
    assert_eq!(list.len(), sowlang_files(), "every shipped file is offered");
    assert!(list.iter().all(|g| g["problems"].is_null()), "{games}");
    let rules = get(&s, "/api/rules/reference/openspiel_oware.sow").json();
    let paths: Vec<&str> = rules["files"]
        .as_array()
        .expect("files")
        .iter()
        .map(|f| f["path"].as_str().expect("path"))
        .collect();
    assert_eq!(paths, ["reference/openspiel_oware.sow", "oware.sow"]);
    let text = std::fs::read_to_string(root().join("variants/oware.sow")).expect("oware");
    assert_eq!(rules["files"][1]["text"], text);
    // The rule sheet comes first, in words for the page: no command-line flag in it.
    let sheet = rules["sheet"].as_str().expect("a sheet");
    assert!(
        sheet.starts_with("<article") && sheet.contains("<strong>Endless chasing.</strong>"),
        "{sheet}"
    );
    assert!(!sheet.contains("--set"), "{sheet}");
    assert_eq!(post(&s, "/api/state", &json!({"game": "oware.sow", "moves": ["3"]})).status, 200);
    // One shipped game by name.
    let one = serve_in(&empty, &["kalah"]);
    let games = get(&one, "/api/games").json();
    assert_eq!(games["single"], true);
    assert_eq!(games["games"][0]["id"], "kalah.sow");
}

#[test]
fn one_file_served_is_the_only_game() {
    let s = serve(&["variants/kalah.sow"]);
    let games = get(&s, "/api/games").json();
    assert_eq!(games["single"], true);
    assert_eq!(games["games"].as_array().expect("list").len(), 1);
    assert_eq!(games["games"][0]["id"], "kalah.sow");
    assert_eq!(post(&s, "/api/state", &json!({"game": "kalah.sow"})).status, 200);
    // Oware lies beside it but was not served.
    post(&s, "/api/state", &json!({"game": "oware.sow"})).refused(404, "sow::serve::unknown_game");
    get(&s, "/api/rules/oware.sow").refused(404, "sow::serve::unknown_game");
}

#[test]
fn computer_players_and_hints() {
    let s = serve(&["variants"]);
    for player in [
        "random",
        "greedy",
        "alphabeta:3",
        "mcts:200",
        "alphabeta:64",
        "mcts:1000000",
        "mcts:1ms",
    ] {
        let a = post(
            &s,
            "/api/computer",
            &json!({"game": "oware.sow", "moves": [3], "player": player, "seed": 5}),
        );
        assert_eq!(a.status, 200, "{player}: {}", a.body);
        let v = a.json();
        let m = v["move"].as_u64().expect("a move") as usize;
        assert!((1..=6).contains(&m), "{player}: {m}");
        assert!(v["why"].as_str().is_some_and(|w| !w.is_empty()));
    }
    post(&s, "/api/computer", &json!({"game": "oware.sow", "player": "minimax"})).refused(422, "sow::serve::bad_player");
    post(&s, "/api/computer", &json!({"game": "oware.sow", "player": "alphabeta:0"})).refused(422, "sow::serve::bad_player");
    post(&s, "/api/computer", &json!({"game": "oware.sow"})).refused(400, "sow::serve::bad_request");
    let hint = post(&s, "/api/hint", &json!({"game": "oware.sow", "moves": [3, 3]}));
    assert_eq!(hint.status, 200, "{}", hint.body);
    let h = hint.json();
    let moves = h["moves"].as_array().expect("moves");
    assert_eq!(moves.len(), 5, "every legal move of south (pit 3 is empty): {moves:?}");
    assert!(
        moves
            .iter()
            .all(|m| m["does"].as_str().is_some_and(|d| !d.is_empty()) && m["score"].is_string())
    );
    assert!(h["why"].as_str().expect("why").contains("moves ahead"));
    assert_eq!(h["best"], moves[0]["move"], "the best move comes first");
    // A capture is named as one: find a position of a game where a move captures, and ask for a hint there.
    let loaded = sowlang::load_game(&root().join("variants/oware.sow"), &[]).expect("loads");
    let game = &loaded.game;
    let mut pos = game.initial(None);
    let mut moves = Vec::new();
    let capture = loop {
        assert!(!pos.is_over() && moves.len() < 300, "some move of the game captures");
        let legal = game.legal_moves(&pos);
        let found = legal.iter().find_map(|&k| {
            let mut next = pos.clone();
            let events = game.apply_traced(&mut next, k).expect("legal");
            let seeds: u32 = events
                .iter()
                .map(|e| match e {
                    sowlang::Event::Take { seeds, to, .. } if *to == pos.to_move() => *seeds,
                    _ => 0,
                })
                .sum();
            (seeds > 0).then_some((k, seeds))
        });
        if let Some(c) = found {
            break c;
        }
        let k = legal[(moves.len() * 7) % legal.len()];
        game.apply(&mut pos, k).expect("legal");
        moves.push(k);
    };
    let h = post(&s, "/api/hint", &json!({"game": "oware.sow", "moves": moves})).json();
    let said = h["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .find(|m| m["move"] == capture.0)
        .expect("the capturing move is listed");
    let does = said["does"].as_str().expect("does");
    assert!(does.contains(&format!("captures {} seed", capture.1)), "{does}");
    assert_eq!(said["captures"], capture.1);
}

#[test]
fn nothing_to_serve_is_an_error() {
    let empty = crate::support::scratch("serve", "empty");
    for (what, path) in [("missing", root().join("no/such/dir")), ("empty", empty.to_path_buf())] {
        let out = Command::new(env!("CARGO_BIN_EXE_sowlang"))
            .env("SOWLANG_DATABASES", super::support::no_databases())
            .args(["serve", "--port", "0"])
            .arg(&path)
            .env("NO_COLOR", "1")
            .output()
            .expect("run");
        assert_eq!(out.status.code(), Some(2), "{what}");
        assert!(out.stdout.is_empty(), "{what}");
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(err.contains("sow::serve::"), "{what}: {err}");
        assert!(!err.contains("panicked"), "{what}: {err}");
    }
}

#[test]
fn a_taken_port_and_a_broken_file_are_reported() {
    let s = serve(&["variants"]);
    let port = s.addr.rsplit(':').next().expect("port");
    let out = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["serve", "variants", "--port", port])
        .env("NO_COLOR", "1")
        .current_dir(root())
        .output()
        .expect("run");
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&out.stderr).contains("sow::serve::bind"));

    // A folder with a good file and a broken one: both are listed, the broken one with its problems.
    let dir = crate::support::scratch("serve", "broken");
    std::fs::copy(root().join("variants/kalah.sow"), dir.join("good.sow")).expect("copy");
    std::fs::write(dir.join("broken.sow"), "game \"Broken\"\nboard { pits 0 }\n").expect("write");
    let dir_arg = dir.display().to_string();
    let b = serve(&[dir_arg.as_str()]);
    let games = get(&b, "/api/games").json();
    let list = games["games"].as_array().expect("list");
    assert_eq!(list.len(), 2);
    let broken = list.iter().find(|g| g["id"] == "broken.sow").expect("listed");
    assert!(broken["problems"].as_str().is_some_and(|p| p.contains("sow::")), "{broken}");
    assert!(!broken["problems"].as_str().expect("problems").contains("panicked"));
    post(&b, "/api/state", &json!({"game": "broken.sow"})).refused(422, "sow::serve::broken_game");
    assert_eq!(post(&b, "/api/state", &json!({"game": "good.sow"})).status, 200);
    // The rule file's text is shown even when it does not load: the teacher may be looking for the mistake.
    assert!(
        get(&b, "/api/rules/broken.sow").json()["files"][0]["text"]
            .as_str()
            .expect("text")
            .contains("Broken")
    );
    drop(b);
}

#[test]
fn no_computer_move_or_hint_after_the_end() {
    let s = serve(&["variants"]);
    let loaded = sowlang::load_game(&root().join("variants/kalah.sow"), &[]).expect("loads");
    let game = &loaded.game;
    let mut pos = game.initial(None);
    let mut moves = Vec::new();
    while !pos.is_over() {
        let legal = game.legal_moves(&pos);
        let k = legal[legal.len() - 1];
        game.apply(&mut pos, k).expect("legal");
        moves.push(k);
    }
    let body = json!({"game": "kalah.sow", "moves": moves, "player": "greedy"});
    post(&s, "/api/computer", &body).refused(422, "sow::serve::game_over");
    post(&s, "/api/hint", &body).refused(422, "sow::serve::game_over");
    let v = post(&s, "/api/state", &body).json();
    assert_eq!(v["position"]["over"], true);
    assert!(v["status"].as_str().expect("status").contains("over"));
}

/// Boards with pits that belong to nobody (tests/fixtures/serve): the answers describe the shape, carry
/// the shared pits in the position and in the move's steps, and take and refuse moves from them. The
/// positions are worked out by hand from each file's track.
#[test]
fn boards_with_shared_pits() {
    let s = serve(&["tests/fixtures/serve"]);
    let games = get(&s, "/api/games").json();
    let ids: Vec<&str> = games["games"]
        .as_array()
        .expect("games")
        .iter()
        .filter_map(|g| g["id"].as_str())
        .collect();
    assert_eq!(
        ids,
        [
            "how_many_seeds.sow",
            "middle_row.sow",
            "passing.sow",
            "ring_halves.sow",
            "ring_of_nobody.sow"
        ]
    );

    // A middle row of three. South's track: south 1..3, the middle row s3..s1, north 3..1. South plays
    // the middle pit s2 (2 seeds): one into s1, one into north's pit 3, which then holds 3 and is taken.
    let start = post(&s, "/api/state", &json!({"game": "middle_row.sow", "moves": []})).json();
    assert_eq!(start["game"]["shared"], 3);
    assert_eq!(start["game"]["ring"], false);
    assert_eq!(start["position"]["pits"]["shared"], json!([2, 2, 2]));
    assert_eq!(start["position"]["legal_moves"], json!(["1", "2", "3", "s1", "s2", "s3"]));
    let a = post(&s, "/api/state", &json!({"game": "middle_row.sow", "moves": ["s2"]}));
    assert_eq!(a.status, 200, "{}", a.body);
    let a = a.json();
    assert_eq!(
        a["position"]["pits"],
        json!({"south": [2, 2, 2], "north": [2, 2, 0], "shared": [3, 0, 2]})
    );
    assert_eq!(a["position"]["stores"], json!({"south": 3, "north": 0}));
    assert_eq!(a["moves"], json!(["s2"]));
    assert_eq!(a["last"]["move"], "s2");
    let steps = a["last"]["steps"].as_array().expect("steps");
    let pickup = steps.iter().find(|s| s["kind"] == "pickup").expect("pickup");
    assert_eq!(pickup["cell"], json!({"shared": true, "pit": 2}));
    let sown = steps.iter().find(|s| s["kind"] == "sow").expect("sow");
    assert_eq!(
        sown["cells"],
        json!([{"shared": true, "pit": 1}, {"side": "north", "row": 0, "pit": 3}])
    );
    // North's track mirrors south's: from s1 on to s2, s3 and south's pit 3, which holds 3 and is taken.
    let b = post(&s, "/api/state", &json!({"game": "middle_row.sow", "moves": ["s2", "S1"]})).json();
    assert_eq!(
        b["position"]["pits"],
        json!({"south": [2, 2, 0], "north": [2, 2, 0], "shared": [0, 1, 3]})
    );
    assert_eq!(b["position"]["stores"], json!({"south": 3, "north": 3}));
    assert_eq!(b["moves"], json!(["s2", "s1"]));
    // s2 is empty now; s4 and the number 4 (which would stand for s1 inside) name no pit.
    let v = post(&s, "/api/state", &json!({"game": "middle_row.sow", "moves": ["s2", "s2"]})).refused(422, "sow::serve::illegal_move");
    assert!(v["error"]["message"].as_str().expect("message").contains("pit s2"), "{v}");
    assert_eq!(v["error"]["accepted_moves"], 1);
    for m in [json!("s4"), json!(4), json!("4"), json!("s0")] {
        post(&s, "/api/state", &json!({"game": "middle_row.sow", "moves": [m]})).refused(422, "sow::serve::bad_move");
    }
    // A computer player and a hint may choose a shared pit; what they choose is a move the page can send.
    let hint = post(&s, "/api/hint", &json!({"game": "middle_row.sow", "moves": []})).json();
    let hinted: Vec<&str> = hint["moves"]
        .as_array()
        .expect("moves")
        .iter()
        .filter_map(|m| m["move"].as_str())
        .collect();
    assert!(hinted.contains(&"s2"), "{hinted:?}");
    let chosen = post(
        &s,
        "/api/computer",
        &json!({"game": "middle_row.sow", "moves": ["s2"], "player": "greedy"}),
    )
    .json();
    let replayed = post(
        &s,
        "/api/state",
        &json!({"game": "middle_row.sow", "moves": ["s2", chosen["move"]]}),
    );
    assert_eq!(replayed.status, 200, "{}", replayed.body);

    // A ring of nine owned by halves: its one shared pit lies between north's pit 4 and south's pit 1,
    // so its 3 seeds go into south's pits 1, 2 and 3.
    let r = post(&s, "/api/state", &json!({"game": "ring_halves.sow", "moves": ["s1"]})).json();
    assert_eq!(r["game"]["shared"], 1);
    assert_eq!(r["game"]["ring"], true);
    assert_eq!(
        r["position"]["pits"],
        json!({"south": [4, 4, 4, 3], "north": [3, 3, 3, 3], "shared": [0]})
    );
    assert_eq!(r["last"]["move"], "s1");
    // North's pit 4 ends at the shared pit: 3 seeds from it go to s1, south 1, south 2.
    let r2 = post(&s, "/api/state", &json!({"game": "ring_halves.sow", "moves": ["s1", "4"]})).json();
    assert_eq!(
        r2["position"]["pits"],
        json!({"south": [5, 5, 4, 3], "north": [3, 3, 3, 0], "shared": [1]})
    );
    post(&s, "/api/state", &json!({"game": "ring_halves.sow", "moves": ["s1", "s1"]})).refused(422, "sow::serve::illegal_move");

    // A ring of seven owned by nobody, either way round: `L` goes clockwise, from s3 to s2 and s1,
    // which then holds 3 and is taken.
    let n = post(&s, "/api/state", &json!({"game": "ring_of_nobody.sow", "moves": ["s3L"]})).json();
    assert_eq!(n["game"]["ring"], true);
    assert_eq!(
        n["position"]["pits"],
        json!({"south": [], "north": [], "shared": [0, 3, 0, 2, 2, 2, 2]})
    );
    assert_eq!(n["position"]["stores"], json!({"south": 3, "north": 0}));
    // A shared pit has no owner's left: the direction is told as the way round the board.
    assert_eq!(n["last"]["words"], "sows clockwise ↻");
    let s3r = option(
        &post(&s, "/api/state", &json!({"game": "ring_of_nobody.sow", "moves": []})).json(),
        "s3R",
    )["words"]
        .clone();
    assert_eq!(s3r, "sows counter-clockwise ↺");
    let take = n["last"]["steps"]
        .as_array()
        .expect("steps")
        .iter()
        .find(|s| s["kind"] == "take")
        .expect("a capture");
    assert_eq!(take["cell"], json!({"shared": true, "pit": 1}));
    assert_eq!(take["to"], json!({"side": "south", "store": true}));
    for m in ["s3", "s8R", "3L"] {
        post(&s, "/api/state", &json!({"game": "ring_of_nobody.sow", "moves": [m]})).refused(422, "sow::serve::bad_move");
    }
    post(&s, "/api/state", &json!({"game": "ring_of_nobody.sow", "moves": ["s3L", "s1R"]})).refused(422, "sow::serve::illegal_move");
}

/// The option of `answer["options"]` for move `m`.
fn option<'a>(answer: &'a Value, m: &str) -> &'a Value {
    answer["options"]
        .as_array()
        .expect("options")
        .iter()
        .find(|o| o["move"] == m)
        .unwrap_or_else(|| panic!("no option {m} in {}", answer["options"]))
}

/// A computer player's move and a hint's best move, each replayed after `moves`.
fn computer_moves_replay(s: &Server, game: &str, moves: &[&str]) {
    for player in ["random", "greedy", "alphabeta:3", "mcts:200"] {
        let chosen = post(s, "/api/computer", &json!({"game": game, "moves": moves, "player": player}));
        assert_eq!(chosen.status, 200, "{player}: {}", chosen.body);
        let m = chosen.json()["move"].clone();
        let mut all: Vec<Value> = moves.iter().map(|m| json!(m)).collect();
        all.push(m.clone());
        let replayed = post(s, "/api/state", &json!({"game": game, "moves": all}));
        assert_eq!(replayed.status, 200, "{player} chose {m}: {}", replayed.body);
        assert_eq!(
            replayed.json()["moves"][moves.len()],
            m,
            "{player}: the move replays as it was named"
        );
    }
}

/// Moves that carry choices made during the move (Bao: the end of the front row captured seeds are
/// sown from): the answer tells apart in words the moves that start from one pit, moves are read
/// with their choices (in either case), a move written without them is refused with the moves it
/// could be, keeping the moves before it, and what computer players and hints choose replays.
#[test]
fn moves_with_choices() {
    let s = serve(&["variants"]);
    let a = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L"]})).json();
    assert_eq!(a["last"]["move"], "a4L");
    assert_eq!(a["last"]["words"], "towards south's left");
    // North's a5 faces south's a4, which holds the seed just entered: entering a seed into a5 (6
    // seeds) captures it, sown again from the end of north's front row that north chooses. The
    // entry captures at once, so its way (`L`, `R`) changes nothing: a5R:ccw and a5R:cw do what
    // a5L:ccw and a5L:cw do, and are listed once, by the first names (issue 26).
    assert_eq!(a["position"]["legal_moves"], json!(["a5L:ccw", "a5L:cw"]));
    assert_eq!(a["options"].as_array().expect("options").len(), 2);
    let cw = option(&a, "a5L:cw");
    assert_eq!(cw["pit"], "a5");
    assert_eq!(
        cw["choices"],
        json!([
            {"kind": "direction", "answer": "L", "words": "towards north's left"},
            {"kind": "way", "answer": "cw", "words": "captured seeds go clockwise ↻"}
        ])
    );
    assert_eq!(cw["words"], "towards north's left; captured seeds go clockwise ↻");
    assert_eq!(cw["does"], "captures 1 seed");
    // Clockwise from the left end of the row (a1), counter-clockwise from the right end (a8).
    assert_eq!(cw["differs"], "sows the 1 seed taken on, from north a1");
    let ccw = option(&a, "a5L:ccw");
    assert_eq!(ccw["words"], "towards north's left; captured seeds go counter-clockwise ↺");
    assert_eq!(ccw["differs"], "sows the 1 seed taken on, from north a8");

    // Played, worked by hand: a5 holds 7; south's a4 is empty; the seed taken is sown into north's
    // a1; north has one seed fewer in hand.
    let b = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5L:cw"]})).json();
    let empty = [0; 8];
    assert_eq!(b["position"]["pits"]["north"], json!([[1, 0, 0, 0, 7, 2, 2, 0], empty]));
    assert_eq!(b["position"]["pits"]["south"], json!([[0, 0, 0, 0, 6, 2, 2, 0], empty]));
    assert_eq!(b["position"]["stores"], json!({"south": 21, "north": 21}));
    assert_eq!(b["moves"], json!(["a4L", "a5L:cw"]));
    assert_eq!(b["last"]["move"], "a5L:cw");
    assert_eq!(b["last"]["words"], "towards north's left; captured seeds go clockwise ↻");
    assert_eq!(b["last"]["choices"][1]["answer"], "cw");
    // A name the list leaves out is still read, and does what the listed one does.
    let other = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5R:ccw"]})).json();
    assert_eq!(other["position"]["pits"]["north"], json!([[0, 0, 0, 0, 7, 2, 2, 1], empty]));
    let listed = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5L:ccw"]})).json();
    assert_eq!(other["position"], listed["position"]);
    // Letters in either case; the answer names the moves as `legal_moves` does.
    let c = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["A4l", "a5L:CW"]})).json();
    assert_eq!(c["moves"], json!(["a4L", "a5L:cw"]));
    assert_eq!(c["position"], b["position"]);

    // A pit without the choices its moves carry: refused with the moves it could be, the first move kept.
    let v = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5L"]})).refused(422, "sow::serve::bad_move");
    let message = v["error"]["message"].as_str().expect("message");
    assert!(
        message.contains("move 2 (`a5L`)") && message.ends_with("it could be a5L:ccw or a5L:cw"),
        "{message}"
    );
    assert_eq!(v["error"]["accepted_moves"], 1);
    let v = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5"]})).refused(422, "sow::serve::bad_move");
    assert!(
        v["error"]["message"]
            .as_str()
            .expect("message")
            .ends_with("it could be a5L:ccw or a5L:cw"),
        "{v}"
    );
    // A choice that is not there: the legal moves are listed.
    let v = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": ["a4L", "a5L:up"]})).refused(422, "sow::serve::bad_move");
    assert!(v["error"]["help"].as_str().expect("help").ends_with("a5L:ccw, a5L:cw"), "{v}");
    assert_eq!(v["error"]["accepted_moves"], 1);

    computer_moves_replay(&s, "bao.sow", &["a4L"]);
    let h = post(&s, "/api/hint", &json!({"game": "bao.sow", "moves": ["a4L"]})).json();
    for m in h["moves"].as_array().expect("moves") {
        assert!(m["words"].as_str().is_some_and(|w| w.contains("captured seeds go")), "{m}");
    }
    let why = h["why"].as_str().expect("why");
    assert!(why.starts_with("pit a5") && why.contains(" (towards north's"), "{why}");

    // A game without choices has no options and no words.
    let o = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [3]})).json();
    assert_eq!(o["options"], json!([]));
    assert_eq!(o["last"]["words"], "");
}

/// `lift choose(1..origin.count)` (tests/fixtures/serve/how_many_seeds.sow): how many seeds is told
/// in words, the board after a choice is the one worked by hand, a pit alone is refused with its
/// moves, and the computer players' moves replay.
#[test]
fn how_many_seeds_to_sow() {
    let s = serve(&["tests/fixtures/serve"]);
    let start = post(&s, "/api/state", &json!({"game": "how_many_seeds.sow", "moves": []})).json();
    // Every pit holds 3 seeds: three moves each, all of them options.
    assert_eq!(start["options"].as_array().expect("options").len(), 12);
    let words: Vec<(&str, &str)> = ["3:1", "3:2", "3:3"]
        .iter()
        .map(|m| {
            let o = option(&start, m);
            (o["words"].as_str().expect("words"), o["does"].as_str().expect("does"))
        })
        .collect();
    // One seed stops in south's pit 4; two reach north's pit 1 (3 + 1 = 4, taken); three reach
    // north's pit 2 (taken the same way).
    assert_eq!(
        words,
        [
            ("sows 1 of the 3 seeds, leaving 2 in the pit", "captures nothing"),
            (
                "sows 2 of the 3 seeds, leaving 1 in the pit",
                "captures 4 seeds; sows 1 seed into north's row"
            ),
            ("sows all 3 seeds", "captures 4 seeds; sows 2 seeds into north's row"),
        ]
    );
    assert_eq!(option(&start, "3:2")["choices"][0]["kind"], "seeds");
    assert_eq!(option(&start, "3:2")["differs"], "sows one seed each into south 4, north 1");

    let a = post(&s, "/api/state", &json!({"game": "how_many_seeds.sow", "moves": ["3:2"]})).json();
    assert_eq!(a["position"]["pits"], json!({"south": [3, 3, 1, 4], "north": [0, 3, 3, 3]}));
    assert_eq!(a["position"]["stores"], json!({"south": 4, "north": 0}));
    assert_eq!(a["last"]["words"], "sows 2 of the 3 seeds, leaving 1 in the pit");
    let v = post(&s, "/api/state", &json!({"game": "how_many_seeds.sow", "moves": ["3"]})).refused(422, "sow::serve::bad_move");
    assert!(
        v["error"]["message"]
            .as_str()
            .expect("message")
            .ends_with("it could be 3:1, 3:2 or 3:3"),
        "{v}"
    );
    assert_eq!(v["error"]["accepted_moves"], 0);
    // North's pit 1 is empty now: no move from it, so `1` is read as the pit and refused as illegal.
    post(&s, "/api/state", &json!({"game": "how_many_seeds.sow", "moves": ["3:2", "1"]})).refused(422, "sow::serve::illegal_move");
    computer_moves_replay(&s, "how_many_seeds.sow", &["3:2"]);
}

// ---------------------------------------------------------------- issue 21: a board for a class

/// The games of a served folder, in the chooser's order.
fn chooser(s: &Server) -> Vec<Value> {
    get(s, "/api/games").json()["games"].as_array().expect("list").clone()
}

#[test]
fn issue_21_the_chooser_has_one_line_per_game_sorted_by_name() {
    // https: issue 21 ("the chooser gives names only"): each game's line says its board, the documents
    // its rules cite and whether it is a good first game; the list is sorted by name, not by file.
    let s = serve(&["variants"]);
    let games = chooser(&s);
    let names: Vec<String> = games.iter().map(|g| g["name"].as_str().expect("name").to_lowercase()).collect();
    let mut sorted = names.clone();
    sorted.sort();
    assert_eq!(names, sorted, "sorted by name");
    let line = |id: &str| games.iter().find(|g| g["id"] == id).unwrap_or_else(|| panic!("{id}")).clone();
    let oware = line("oware.sow");
    assert_eq!(oware["shape"], "2 rows of 6");
    assert_eq!(oware["sources"], json!(["african-sowing-game-rules.txt"]));
    assert_eq!(oware["first_game"], false);
    assert_eq!(line("hus.sow")["shape"], "4 rows of 8");
    // Ba-awa's file says `level beginner` (children play it, says its source).
    let ba_awa = line("ba_awa.sow");
    assert_eq!(ba_awa["first_game"], true);
    assert_eq!(ba_awa["sources"], json!(["mancala-family-overview.txt"]));
    // A file that extends another cites the other's documents too.
    let reference = line("reference/openspiel_oware.sow");
    assert!(
        reference["sources"]
            .as_array()
            .expect("sources")
            .contains(&json!("african-sowing-game-rules.txt")),
        "{reference}"
    );
    let fixtures = serve(&["tests/fixtures/serve"]);
    let shapes: Vec<(String, String)> = chooser(&fixtures)
        .iter()
        .map(|g| {
            (
                g["id"].as_str().expect("id").to_string(),
                g["shape"].as_str().expect("shape").to_string(),
            )
        })
        .collect();
    for (id, shape) in [
        ("middle_row.sow", "3 rows of 3 (the middle one shared)"),
        ("ring_halves.sow", "a ring of 9 pits"),
        ("ring_of_nobody.sow", "a ring of 7 pits"),
    ] {
        assert!(shapes.contains(&(id.to_string(), shape.to_string())), "{id}: {shapes:?}");
    }
}

#[test]
fn issue_21_a_pit_the_rules_refuse_is_told_why() {
    // https: issue 21 ("tapping an empty pit does nothing at all"): the answer says why each pit that
    // cannot be played is refused, in the engine's words; the legal ones are not listed.
    let s = serve(&["variants"]);
    // After 3, 3 south's pit 3 is empty (3 sowed its 4 seeds; north's 3 did not reach it).
    let a = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [3, 3]})).json();
    assert_eq!(a["refused"], json!({"3": "it is empty"}));
    // At Bao's start every seed is entered into the front row: the back row's pits are refused with
    // the rule's own words, and the front row's empty pits may be entered into.
    let b = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": []})).json();
    let refused = b["refused"].as_object().expect("refused");
    assert_eq!(refused.len(), 8, "{refused:?}");
    for pit in 1..=8 {
        let reason = refused.get(&format!("b{pit}")).unwrap_or_else(|| panic!("b{pit}: {refused:?}"));
        assert_eq!(reason, "a seed is entered into the front row");
    }
    // Bao's seeds in hand are kept in the store until entered: the page draws the store as a hand.
    assert_eq!(b["game"]["hand"], true);
    assert_eq!(a["game"]["hand"], false);
}

#[test]
fn issue_21_the_childrens_hint_in_whole_seeds_and_plain_words() {
    // https: issue 21 ("hints read +10.38 seeds with best play"): besides the detailed hint, one in
    // whole seeds and plain words. Worked by hand on a board of three pits a side, one seed in each:
    // pit 1 reaches south's pit 2 (no capture; north then has no capture: north 3 only reaches
    // south's empty pit 1); pit 2 reaches south's pit 3 (north's 3 then makes south's pit 1 two and
    // takes them); pit 3 makes north's pit 1 two and takes them (then north's 3 takes south's pit 1
    // the same way).
    let dir = crate::support::scratch("serve", "plain_hint");
    std::fs::write(
        dir.join("plain.sow"),
        r#"game "Plain hint"
board { pits 3  seeds 1  stores captures }
capture "two" { when last.side == opponent and last.count == 2  take last }
end "no move" when no_moves remaining owner
"#,
    )
    .expect("write");
    let s = serve_in(&dir, &["plain.sow"]);
    let h = post(&s, "/api/hint", &json!({"game": "plain.sow", "moves": []})).json();
    let said = |m: u64| match m {
        1 => "Try pit 1. Then your opponent cannot capture anything.",
        2 => "Try pit 2. Then your opponent can capture up to 2 seeds.",
        3 => "Pit 3 captures 2 seeds. Then your opponent can capture up to 2 seeds.",
        _ => panic!("no move {m}"),
    };
    assert_eq!(h["plain"], said(h["best"].as_u64().expect("best")), "{h}");
    // The adult's hint is still there, with its score.
    assert!(h["why"].as_str().expect("why").contains("moves ahead"), "{h}");
}

#[test]
fn issue_21_serve_on_every_network_prints_the_addresses_to_open() {
    // https: issue 21 ("`serve --host 0.0.0.0` prints localhost"): it prints each of this computer's
    // non-loopback IPv4 addresses as a page address, or says it has none.
    let want: Vec<String> = if_addrs::get_if_addrs()
        .expect("interfaces")
        .iter()
        .filter(|i| !i.is_loopback() && i.ip().is_ipv4())
        .map(|i| i.ip().to_string())
        .collect();
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["serve", "variants/kalah.sow", "--host", "0.0.0.0", "--port", "0"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start sowlang serve");
    let mut lines = BufReader::new(child.stdout.take().expect("stdout")).lines();
    let mut next = || lines.next().expect("a line").expect("text");
    let first = next();
    let port = first
        .split("http://")
        .nth(1)
        .and_then(|r| r.split('/').next())
        .and_then(|h| h.rsplit(':').next())
        .expect("port")
        .to_string();
    let second = next();
    // Only as many lines as there are addresses are read: the server prints nothing more.
    let urls: Vec<String> = if want.is_empty() {
        assert!(second.contains("no network address"), "{second}");
        Vec::new()
    } else {
        assert_eq!(second, "other computers and tablets on the network open one of:");
        want.iter()
            .map(|_| next().trim().split("   ").next().expect("url").to_string())
            .collect()
    };
    let _ = child.kill();
    let _ = child.wait();
    let expected: Vec<String> = want.iter().map(|ip| format!("http://{ip}:{port}/")).collect();
    assert_eq!(urls, expected, "{first} / {second}");
}

/// Issue 26: a number's bits past the pit were read as another pit (257 and 4294967297 as pit 1, in
/// Oware; as pit a1 with an answer, in Bao): such a number names no pit, and is refused, saying so.
#[test]
fn issue_26_move_numbers_past_the_board_are_refused() {
    let s = serve(&["variants"]);
    for m in [json!(257), json!(4_294_967_297u64), json!("257")] {
        let v = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": [m]})).refused(422, "sow::serve::illegal_move");
        let message = v["error"]["message"].as_str().expect("message");
        assert!(message.contains("there is no pit"), "{m}: {message}");
        assert_eq!(v["error"]["accepted_moves"], 0);
        // Bao's moves are names (`a5L`): a number is none of them, and the answer lists the moves.
        let v = post(&s, "/api/state", &json!({"game": "bao.sow", "moves": [m]})).refused(422, "sow::serve::bad_move");
        assert!(v["error"]["help"].as_str().is_some_and(|h| h.contains("a5L")), "{m}: {v}");
        assert_eq!(v["error"]["accepted_moves"], 0);
    }
    // A pass where the rules allow none is refused too.
    let v = post(&s, "/api/state", &json!({"game": "oware.sow", "moves": ["pass"]})).refused(422, "sow::serve::bad_move");
    assert!(v["error"]["message"].as_str().is_some_and(|m| m.contains("pass")));
}
