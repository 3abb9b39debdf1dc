//! Game records and their rules (issue 21, item 6): a record carries a hash of the rules it was played
//! with, and the rules themselves on request (`save --with-rules`), so that a record moved away from
//! its rule file, or a rule file edited since, is caught by `replay` and `play --load` with a clear
//! message (`--any-rules` goes on); `play` saves on `quit` and at the end of its input when the game
//! came from a record; `save` with no name picks a new one and replaces nothing.

use crate::support::{root, scratch, sowlang_in as sowlang};
use std::path::Path;

/// A game of our own under a name no shipped game has, so that a missing file cannot be stood in for
/// by a built-in game: three pits of two seeds a side, no captures, the game ends when the player to
/// move has no seeds.
const TINY: &str = "game \"Tiny\"\nboard {\n  pits 3\n  seeds 2\n}\nend \"empty\" when no_moves remaining owner\n";

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// The value of a record's `key:` line.
fn value<'a>(record: &'a str, key: &str) -> Option<&'a str> {
    record.lines().find_map(|l| l.strip_prefix(&format!("{key}: ")))
}

#[test]
fn save_with_no_name_picks_a_new_one_and_replaces_nothing() {
    let dir = scratch("records", "names");
    std::fs::write(dir.join("tiny.sow"), TINY).expect("write");
    // A file already called tiny-1.txt, not a record: it must be left alone.
    std::fs::write(dir.join("tiny-1.txt"), "my notes\n").expect("write");
    let run = sowlang(&dir, &["play", "tiny.sow", "--vs", "human", "--quiet"], b"1\nsave\n2\nsave\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // The first `save` picks tiny-2.txt; the second writes there again, as a named save does.
    assert!(run.stdout.contains("saved the game in tiny-2.txt\n"), "{}", run.stdout);
    assert_eq!(run.stdout.matches("saved the game in tiny-2.txt\n").count(), 2, "{}", run.stdout);
    assert_eq!(read(&dir.join("tiny-1.txt")), "my notes\n");
    assert_eq!(value(&read(&dir.join("tiny-2.txt")), "moves"), Some("1 2"));
    // A new game picks the next free name.
    let run = sowlang(&dir, &["play", "tiny.sow", "--vs", "human", "--quiet"], b"3\nsave\nquit\n");
    assert!(run.stdout.contains("saved the game in tiny-3.txt\n"), "{}", run.stdout);
    assert_eq!(value(&read(&dir.join("tiny-2.txt")), "moves"), Some("1 2"));
    assert_eq!(value(&read(&dir.join("tiny-3.txt")), "moves"), Some("3"));
}

#[test]
fn leaving_a_loaded_game_saves_it() {
    let dir = scratch("records", "leaving");
    std::fs::write(dir.join("tiny.sow"), TINY).expect("write");
    let run = sowlang(&dir, &["play", "tiny.sow", "--vs", "human", "--quiet"], b"1\nsave game.txt\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let record = dir.join("game.txt");
    // `quit` after a move saves it in the record the game came from.
    let run = sowlang(&dir, &["play", "--load", "game.txt", "--quiet"], b"2\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.ends_with("saved the game in game.txt\nstopped\n"), "{}", run.stdout);
    assert_eq!(value(&read(&record), "moves"), Some("1 2"));
    // So does the end of the input (Ctrl-D at a terminal), an undo included.
    let run = sowlang(&dir, &["play", "--load", "game.txt", "--quiet"], b"undo\n3\n");
    assert!(run.stdout.contains("saved the game in game.txt\n"), "{}", run.stdout);
    assert_eq!(value(&read(&record), "moves"), Some("1 3"));
    // Nothing played since: nothing written.
    let before = std::fs::metadata(&record).and_then(|m| m.modified()).expect("mtime");
    let run = sowlang(&dir, &["play", "--load", "game.txt", "--quiet"], b"quit\n");
    assert!(!run.stdout.contains("saved"), "{}", run.stdout);
    assert_eq!(std::fs::metadata(&record).and_then(|m| m.modified()).expect("mtime"), before);
    // A game not loaded from a record is not saved on leaving.
    let run = sowlang(&dir, &["play", "tiny.sow", "--vs", "human", "--quiet"], b"1\nquit\n");
    assert!(!run.stdout.contains("saved"), "{}", run.stdout);
    let files: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(files.len(), 2, "{files:?}");
}

#[test]
fn an_edited_rule_file_is_caught() {
    let dir = scratch("records", "edited");
    let rules = dir.join("tiny.sow");
    std::fs::write(&rules, TINY).expect("write");
    let run = sowlang(&dir, &["play", "tiny.sow", "--vs", "human", "--quiet"], b"1\nsave game.txt\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let hash = value(&read(&dir.join("game.txt")), "rules-hash")
        .expect("a rules-hash line")
        .to_string();
    // The same rules with other line endings hash the same: the record still replays.
    std::fs::write(&rules, TINY.replace('\n', "\r\n")).expect("write");
    let run = sowlang(&dir, &["replay", "game.txt", "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // Four seeds a pit instead of two: the same moves would now mean another game.
    std::fs::write(&rules, TINY.replace("seeds 2", "seeds 4")).expect("write");
    for args in [&["replay", "game.txt"][..], &["play", "--load", "game.txt"][..]] {
        let run = sowlang(&dir, args, b"quit\n");
        assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{args:?}: {}", run.stderr);
        assert!(run.stderr.starts_with("sow::record::rules_changed"), "{}", run.stderr);
        assert!(
            run.stderr
                .contains("the rule file `tiny.sow` is not the one this game was played with"),
            "{}",
            run.stderr
        );
        assert!(run.stderr.contains(&hash) && run.stderr.contains("--any-rules"), "{}", run.stderr);
    }
    // --any-rules goes on with the file as it is, and says so.
    let run = sowlang(&dir, &["replay", "game.txt", "--any-rules", "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("has changed since this game was saved; going on with it"),
        "{}",
        run.stderr
    );
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    // Pit 1's four seeds sown into pits 2 and 3 and north's 1 and 2.
    assert_eq!(json["pits"]["south"], serde_json::json!([0, 5, 5]));
    assert_eq!(json["pits"]["north"], serde_json::json!([5, 5, 4]));
}

#[test]
fn a_record_saved_with_its_rules_plays_on_without_its_file() {
    let dir = scratch("records", "moved");
    std::fs::write(dir.join("tiny.sow"), TINY).expect("write");
    let run = sowlang(
        &dir,
        &["play", "tiny.sow", "--vs", "human", "--quiet"],
        b"1\nsave plain.txt\nsave --with-rules kept.txt\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("saved the game in kept.txt\n"), "{}", run.stdout);
    let kept = read(&dir.join("kept.txt"));
    let saved: Vec<&str> = kept.lines().filter_map(|l| l.strip_prefix("rules-text: ")).collect();
    assert_eq!(saved.join("\n") + "\n", TINY, "{kept}");
    assert!(value(&read(&dir.join("plain.txt")), "rules-text").is_none());

    // Both records moved to another folder: the rule file is no longer beside them.
    let away = dir.join("away");
    std::fs::create_dir(&away).expect("mkdir");
    for name in ["plain.txt", "kept.txt"] {
        std::fs::rename(dir.join(name), away.join(name)).expect("move");
    }
    let run = sowlang(&away, &["replay", "plain.txt"], b"");
    assert_eq!((run.code, run.stdout.as_str()), (2, ""), "{}", run.stderr);
    assert!(run.stderr.starts_with("sow::record::rules_missing"), "{}", run.stderr);
    assert!(run.stderr.contains("moved away from its rule file"), "{}", run.stderr);
    // The record with its rules replays with them, and says so.
    let run = sowlang(&away, &["replay", "kept.txt", "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stderr.contains("cannot be read: playing with the rules saved in the record"),
        "{}",
        run.stderr
    );
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    // Pit 1's two seeds into pits 2 and 3.
    assert_eq!(json["pits"]["south"], serde_json::json!([0, 3, 3]));
    // Going on with it keeps the rules in the record it saves on leaving.
    let run = sowlang(&away, &["play", "--load", "kept.txt", "--quiet"], b"1\nquit\n");
    assert!(run.stdout.contains("saved the game in kept.txt\n"), "{}", run.stdout);
    let again = read(&away.join("kept.txt"));
    assert_eq!(value(&again, "moves"), Some("1 1"));
    assert_eq!(again.lines().filter(|l| l.starts_with("rules-text: ")).count(), saved.len());

    // A record whose saved rules were edited no longer matches its hash.
    std::fs::write(
        away.join("kept.txt"),
        kept.replace("rules-text:   seeds 2", "rules-text:   seeds 3"),
    )
    .expect("write");
    let run = sowlang(&away, &["replay", "kept.txt"], b"");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{}", run.stderr);
    assert!(run.stderr.contains("are not the ones its `rules-hash` names"), "{}", run.stderr);
}

#[test]
fn records_without_a_hash_still_replay() {
    // Records written before the hash (and by hand) have no `rules-hash:` line: nothing to check.
    let dir = scratch("records", "old");
    let oware = root().join("variants/oware.sow").display().to_string();
    std::fs::write(dir.join("old.txt"), format!("sowlang record 1\nrules: {oware}\nmoves: 3\n")).expect("write");
    let run = sowlang(&dir, &["replay", "old.txt", "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
}
