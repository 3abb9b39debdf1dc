//! The games built into the program (issue 21): `sowlang list` names every shipped file, every command
//! takes a shipped game by name from a folder with nothing in it, `extends "NAME"` reaches a shipped
//! game when no such file is beside the file, and a file on disk always wins.

use crate::support::{root, scratch, shipped};
use std::path::Path;
use std::process::{Command, Output, Stdio};

fn sowlang_in(dir: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .stdin(Stdio::null())
        .output()
        .expect("run sowlang")
}

fn stdout(o: &Output) -> String {
    assert_eq!(o.status.code(), Some(0), "stderr: {}", String::from_utf8_lossy(&o.stderr));
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// `check` passes the files (its summary goes to stderr).
fn checks_clean(dir: &Path, files: &[&str]) -> bool {
    let o = sowlang_in(dir, &[&["check"][..], files].concat());
    o.status.success() && String::from_utf8_lossy(&o.stderr).contains("no errors")
}

#[test]
fn list_names_every_shipped_file_with_its_board() {
    let empty = scratch("shipped", "list");
    let json: serde_json::Value = serde_json::from_str(&stdout(&sowlang_in(&empty, &["list", "--json"]))).expect("JSON");
    let games = json["games"].as_array().expect("games");
    let mut listed: Vec<String> = games
        .iter()
        .map(|g| format!("variants/{}", g["file"].as_str().expect("file")))
        .collect();
    listed.sort();
    let on_disk: Vec<String> = shipped()
        .iter()
        .map(|p| p.strip_prefix(root()).expect("under the root").display().to_string())
        .collect();
    assert_eq!(listed, on_disk, "the built-in games are not the files of variants/");
    let human = stdout(&sowlang_in(&empty, &["list"]));
    for g in games {
        let name = g["name"].as_str().expect("name");
        let line = human
            .lines()
            .find(|l| l.split_whitespace().next() == Some(name))
            .unwrap_or_else(|| panic!("no line for `{name}` in\n{human}"));
        let rows = g["rows"].as_u64().expect("rows");
        assert!(line.contains(&format!("{rows} rows of ")), "{line}");
        assert!(line.contains(g["game"].as_str().expect("game")), "{line}");
    }
    // Where a game is played comes from its file's first line.
    let oware = games.iter().find(|g| g["name"] == "oware").expect("oware is shipped");
    assert_eq!(oware["played_in"], "Ghana");
    assert!(games.iter().any(|g| g["rows"] == 4), "a four-row game is listed with its four rows");
}

#[test]
fn the_built_in_games_are_the_files_on_disk() {
    // Byte for byte: a game played by name is the repository's file, and `serve` shows that text.
    let built_in: Vec<(String, &str)> = sowlang::shipped_games().map(|s| (format!("variants/{}", s.path), s.text)).collect();
    assert_eq!(built_in.len(), shipped().len());
    for (path, text) in built_in {
        let on_disk = std::fs::read_to_string(root().join(&path)).unwrap_or_else(|e| panic!("{path}: {e}"));
        assert!(on_disk == text, "{path} differs from the built-in text");
    }
}

#[test]
fn every_command_takes_a_shipped_game_by_name() {
    let empty = scratch("shipped", "commands");
    let moves = "3,2,6";
    let here = stdout(&sowlang_in(root(), &["run", "variants/oware.sow", "--moves", moves, "--json"]));
    assert_eq!(stdout(&sowlang_in(&empty, &["run", "oware", "--moves", moves, "--json"])), here);
    assert_eq!(stdout(&sowlang_in(&empty, &["run", "oware.sow", "--moves", moves, "--json"])), here);
    // A path that is not there falls back on the shipped game its file name names.
    assert_eq!(
        stdout(&sowlang_in(&empty, &["run", "games/oware.sow", "--moves", moves, "--json"])),
        here
    );
    assert!(checks_clean(&empty, &["openspiel_oware", "kalah"]));
    assert!(stdout(&sowlang_in(&empty, &["perft", "kalah", "2"])).contains("depth  2: 35"));
    let played = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["play", "oware", "--vs", "human", "--quiet"])
        .current_dir(&empty)
        .env("NO_COLOR", "1")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().expect("stdin").write_all(b"3\nquit\n")?;
            child.wait_with_output()
        })
        .expect("run play");
    assert_eq!(played.status.code(), Some(0), "{}", String::from_utf8_lossy(&played.stderr));
    // A name that is no game is still the usual missing file, with a pointer to `list`.
    let missing = sowlang_in(&empty, &["run", "owar"]);
    assert_eq!(missing.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&missing.stderr).contains("sowlang list"));
}

#[test]
fn extends_reaches_a_shipped_game_and_a_file_on_disk_wins() {
    let dir = scratch("shipped", "extends");
    std::fs::write(dir.join("mine.sow"), "extends \"oware\"\ngame \"Mine\"\n").expect("write");
    // A copied file keeps its `extends "../oware.sow"`, which points at nothing here.
    std::fs::copy(root().join("variants/reference/openspiel_oware.sow"), dir.join("copied.sow")).expect("copy");
    let moves = ["--moves", "1,2,3", "--json"];
    let oware = stdout(&sowlang_in(root(), &[&["run", "variants/oware.sow"][..], &moves[..]].concat()));
    assert_eq!(stdout(&sowlang_in(&dir, &[&["run", "mine.sow"][..], &moves[..]].concat())), oware);
    assert!(checks_clean(&dir, &["copied.sow"]));

    // Now an `oware.sow` of its own (five pits) beside it: both the name and `extends` read it.
    let five = std::fs::read_to_string(root().join("variants/oware.sow"))
        .expect("oware")
        .replace("param pits = 6", "param pits = 5");
    std::fs::write(dir.join("oware.sow"), five).expect("write");
    for file in ["oware", "mine.sow"] {
        let pos: serde_json::Value = serde_json::from_str(&stdout(&sowlang_in(&dir, &["run", file, "--json"]))).expect("JSON");
        assert_eq!(pos["pits"]["south"].as_array().map(Vec::len), Some(5), "{file}: {pos}");
    }
}
