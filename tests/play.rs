//! The terminal game, driven through a pipe as a script would: undo and redo (against a person and
//! against the computer), saving a game record and going on with it (`play --load`), `replay` (the
//! game, `--json`, an illegal move, a wrong result), commands in any case, arrow keys, the stores
//! labelled with whose they are, the board seen from north, the last move marked, the computer's move
//! said once, hints that say what a move does, and the quiet mode.
//!
//! Every board below is worked out by hand from Oware's rules (variants/oware.sow), from a small
//! puzzle position in which the moves are few and the replies forced, never copied from the program.

use crate::support::{Run, root, scratch, sowlang_in};
use std::path::Path;

/// Runs sowlang from the repository root with `input` piped to it.
fn sowlang(args: &[&str], input: &[u8]) -> Run {
    sowlang_in(root(), args, input)
}

const OWARE: &str = "variants/oware.sow";

/// A puzzle: south [0,0,0,0,3,1], north [1,2,0,0,0,3], 5 seeds in each store, south to move.
/// South's pit 5 sows south 6, north 1, north 2: north 2 ends with 3 and north 1 with 2, so both are
/// captured (5 seeds, "two or three" with its series backward). North is then left with pit 6 only
/// (3 seeds), which sows south 1, 2, 3: the reply is forced, whoever plays north.
const PUZZLE: &str = r#"{"pits":{"south":[0,0,0,0,3,1],"north":[1,2,0,0,0,3]},"stores":{"south":5,"north":5},"to_move":"south"}"#;

/// Writes the puzzle and returns its path.
fn puzzle(dir: &Path) -> String {
    let p = dir.join("puzzle.json");
    std::fs::write(&p, PUZZLE).expect("write puzzle");
    p.display().to_string()
}

/// The puzzle's board from south's side, two people playing (names `south` and `north`).
const PUZZLE_BOARD: &str = "
             6    5    4    3    2    1   north
          [ 3] [ 0] [ 0] [ 0] [ 2] [ 1]
north  5                                 5  south
          [ 0] [ 0] [ 0] [ 0] [ 3] [ 1]
             1    2    3    4    5    6   south
";

/// After south's pit 5: south [0,0,0,0,0,2], north [0,0,0,0,0,3], stores south 10, north 5. The pit
/// played (south 5) is drawn `< >`, the pit where the last seed fell (north 2, now emptied) `( )`.
const AFTER_5: &str = "
             6    5    4    3    2    1   north
          [ 3] [ 0] [ 0] [ 0] ( 0) [ 0]
north  5                                 10 south
          [ 0] [ 0] [ 0] [ 0] < 0> [ 2]
             1    2    3    4    5    6   south
<> the pit played (south 5), () where the last seed fell (north 2)
";

/// The same position seen from north's side: north's row at the bottom, pit 1 on the left; south's
/// row on top read from north's left (south's pit 6 first); south's store on the left.
const AFTER_5_FROM_NORTH: &str = "
             6    5    4    3    2    1   south
          [ 2] < 0> [ 0] [ 0] [ 0] [ 0]
south 10                                 5  north
          [ 0] ( 0) [ 0] [ 0] [ 0] [ 3]
             1    2    3    4    5    6   north
";

/// Against the computer (north): after south 5 and north's forced 6, south [1,1,1,0,0,2], north
/// empty, stores south 10, north 5. The stores are labelled `computer` and `you`.
const AFTER_5_6_VS_COMPUTER: &str = "
                6    5    4    3    2    1   north (computer)
             < 0> [ 0] [ 0] [ 0] [ 0] [ 0]
computer  5                                 10 you
             [ 1] [ 1] ( 1) [ 0] [ 0] [ 2]
                1    2    3    4    5    6   south (you)
<> the pit played (north 6), () where the last seed fell (south 3)
";

/// The puzzle against the computer, before any move.
const PUZZLE_VS_COMPUTER: &str = "
                6    5    4    3    2    1   north (computer)
             [ 3] [ 0] [ 0] [ 0] [ 2] [ 1]
computer  5                                 5  you
             [ 0] [ 0] [ 0] [ 0] [ 3] [ 1]
                1    2    3    4    5    6   south (you)
";

/// `board` with its leading newline dropped: the constants above start on their own line for
/// readability.
fn b(board: &str) -> &str {
    board.strip_prefix('\n').expect("boards start with a newline")
}

/// The part of `text` after the first occurrence of `marker`.
fn after<'a>(text: &'a str, marker: &str) -> &'a str {
    let i = text.find(marker).unwrap_or_else(|| panic!("`{marker}` not in:\n{text}"));
    &text[i + marker.len()..]
}

/// A rendered diagnostic as one line: miette wraps long messages at 80 columns behind a `│`.
fn flat(report: &str) -> String {
    report.replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ")
}

fn clean_pipe_output(run: &Run) {
    assert!(
        !run.stdout.contains('\u{1b}') && !run.stdout.contains('\r'),
        "no control sequences on a pipe:\n{}",
        run.stdout
    );
    assert_eq!(run.stderr, "", "nothing on stderr (no thinking indicator off a terminal)");
}

#[test]
fn undo_and_redo_between_two_people() {
    let dir = scratch("play", "undo-people");
    let from = puzzle(&dir);
    let run = sowlang(&["play", OWARE, "--from", &from, "--vs", "human"], b"5\nundo\nundo\nredo\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    clean_pipe_output(&run);
    assert!(run.stdout.contains(b(PUZZLE_BOARD)), "{}", run.stdout);
    let played = after(&run.stdout, "south plays pit 5\n");
    assert!(played.contains(b(AFTER_5)), "{played}");
    // One undo between two people takes back one move; the second finds nothing left.
    let undone = after(played, "took back 1 move (south 5)\n");
    assert!(undone.starts_with(b(PUZZLE_BOARD)), "{undone}");
    let nothing = after(undone, "there is no move to take back\n");
    let redone = after(nothing, "played again 1 move (south 5)\n");
    assert!(redone.starts_with(b(AFTER_5)), "{redone}");
}

#[test]
fn undo_against_the_computer_takes_back_its_reply_too() {
    let dir = scratch("play", "undo-computer");
    let from = puzzle(&dir);
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "greedy"],
        b"5\nundo\nredo\nundo 1\n5\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    clean_pipe_output(&run);
    assert!(run.stdout.contains(b(PUZZLE_VS_COMPUTER)), "{}", run.stdout);
    // The computer's move is said once, with who it is; the engine's own "north plays" line is not repeated.
    assert_eq!(
        run.stdout.matches("computer (north, greedy) plays pit 6\n").count(),
        2,
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("north plays pit"), "{}", run.stdout);
    let replied = after(&run.stdout, "computer (north, greedy) plays pit 6\n");
    assert!(replied.contains(b(AFTER_5_6_VS_COMPUTER)), "{replied}");
    let undone = after(replied, "took back 2 moves (north 6, south 5)\n");
    assert!(undone.starts_with(b(PUZZLE_VS_COMPUTER)), "{undone}");
    let redone = after(undone, "played again 2 moves (south 5, north 6)\n");
    assert!(redone.starts_with(b(AFTER_5_6_VS_COMPUTER)), "{redone}");
    let again = after(redone, "took back 2 moves (north 6, south 5)\n");
    // After a new move the computer replies afresh (the same forced reply).
    assert!(after(again, "you (south) play pit 5\n").contains("computer (north, greedy) plays pit 6\n"));
}

#[test]
fn the_board_is_turned_for_a_person_sitting_north() {
    let dir = scratch("play", "north");
    let from = puzzle(&dir);
    let run = sowlang(&["play", OWARE, "--from", &from, "--vs", "human", "--side", "north"], b"5\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        after(&run.stdout, "south plays pit 5\n").contains(b(AFTER_5_FROM_NORTH)),
        "{}",
        run.stdout
    );
    // Against the computer, the computer sits south and moves first: greedy takes the 5 seeds of pit 5
    // rather than the 2 of pit 6. The person's row is at the bottom, labelled `you`.
    let run = sowlang(&["play", OWARE, "--from", &from, "--vs", "greedy", "--side", "north"], b"quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = "
                6    5    4    3    2    1   south (computer)
             [ 2] < 0> [ 0] [ 0] [ 0] [ 0]
computer 10                                 5  you
             [ 0] ( 0) [ 0] [ 0] [ 0] [ 3]
                1    2    3    4    5    6   north (you)
";
    assert!(
        after(&run.stdout, "computer (south, greedy) plays pit 5\n").contains(b(want)),
        "{}",
        run.stdout
    );
    assert!(run.stdout.ends_with("you (north) to move (6): stopped\n"), "{}", run.stdout);
}

#[test]
fn commands_are_read_in_any_case() {
    let dir = scratch("play", "case");
    let from = puzzle(&dir);
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "human", "--hint-depth", "2"],
        b"MOVES\nHint\n5\nUndo\nREDO\nBoard\nQuit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("legal moves: 5, 6\n"), "{}", run.stdout);
    assert!(run.stdout.contains("took back 1 move (south 5)\n"));
    assert!(run.stdout.contains("played again 1 move (south 5)\n"));
    assert!(run.stdout.ends_with("stopped\n"));
    assert!(!run.stdout.contains("not understood"), "{}", run.stdout);
}

#[test]
fn hints_say_what_a_move_does_and_how_far_they_looked() {
    let dir = scratch("play", "hint");
    let from = puzzle(&dir);
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "human", "--hint-depth", "2"],
        b"hint\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("hint: pit 5 looks best: captures 5 seeds\n"), "{}", run.stdout);
    assert!(run.stdout.contains("alpha-beta looked 2 plies ahead"), "{}", run.stdout);
    assert!(run.stdout.contains("a guess, not a promise"), "{}", run.stdout);
    // Pit 5, then north's forced 6: stores 10 - 5, rows 5 - 0 seeds at 1/16 seed each:
    // (5 * 16 + 5) / 16 = +5.31 seeds. Pit 6 captures the 2 seeds of north 1.
    let line5 = run.stdout.lines().find(|l| l.starts_with("  pit 5 ")).expect("pit 5's line");
    assert!(line5.contains("+5.31 seeds") && line5.ends_with("captures 5 seeds"), "{line5}");
    let line6 = run.stdout.lines().find(|l| l.starts_with("  pit 6 ")).expect("pit 6's line");
    assert!(line6.ends_with("captures 2 seeds"), "{line6}");
    // Quiet: one short line.
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "human", "--hint-depth", "2", "--quiet"],
        b"hint\nquit\n",
    );
    assert!(run.stdout.contains("try pit 5 (captures 5 seeds)\n"), "{}", run.stdout);
}

#[test]
fn arrow_keys_do_not_garble_the_output() {
    let dir = scratch("play", "escape");
    let from = puzzle(&dir);
    // Up arrow, down arrow then 5, Escape alone, bytes that are not UTF-8: none of these is acted on.
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "human"],
        b"\x1b[A\n\x1b[B5\n\x1b\n\xff\xfe\nquit\n",
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    clean_pipe_output(&run);
    assert_eq!(run.stdout.matches("not understood").count(), 4, "{}", run.stdout);
    assert!(
        !run.stdout.contains("plays pit"),
        "a line with an arrow key is not played: {}",
        run.stdout
    );
}

#[test]
fn quiet_mode_says_less() {
    let dir = scratch("play", "quiet");
    let from = puzzle(&dir);
    let run = sowlang(&["play", OWARE, "--from", &from, "--quiet"], b"5\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout.contains("your move: you play pit 5: captures 5 seeds\n"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("\ncomputer plays pit 6\n"), "{}", run.stdout);
    assert!(
        !run.stdout.contains("picks up") && !run.stdout.contains("commands (upper"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains(b(AFTER_5_6_VS_COMPUTER)), "{}", run.stdout);
}

/// The record `save` writes, as docs/cli.md describes it, with the rule file's path relative to the
/// record's folder.
fn check_record(path: &Path, moves: &str, result: &str) {
    let text = std::fs::read_to_string(path).expect("the record");
    let lines: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(lines[0], "sowlang record 1", "{text}");
    let rules = lines[1].strip_prefix("rules: ").expect("rules line");
    assert!(Path::new(rules).is_relative(), "{rules}");
    let found = std::fs::canonicalize(path.parent().expect("folder").join(rules)).expect("the rule file");
    assert_eq!(found, std::fs::canonicalize(root().join(OWARE)).expect("oware"));
    // The hash of the rules (tests/records.rs checks what it catches).
    let hash = lines[2].strip_prefix("rules-hash: ").expect("rules-hash line");
    assert!(hash.len() == 16 && hash.bytes().all(|b| b.is_ascii_hexdigit()), "{hash}");
    let lines = [&lines[..2], &lines[3..]].concat();
    assert_eq!(lines[2], "first: south");
    let from: serde_json::Value = serde_json::from_str(lines[3].strip_prefix("from: ").expect("from line")).expect("json");
    assert_eq!(from["pits"]["south"], serde_json::json!([0, 0, 0, 0, 3, 1]));
    assert_eq!(from["pits"]["north"], serde_json::json!([1, 2, 0, 0, 0, 3]));
    assert_eq!(from["stores"], serde_json::json!({"south": 5, "north": 5}));
    assert_eq!(
        &lines[4..],
        [
            "south: human",
            "north: human",
            &format!("moves: {moves}"),
            &format!("result: {result}")
        ]
    );
}

#[test]
fn a_saved_game_goes_on_with_load_and_replays() {
    let dir = scratch("play", "save");
    let from = puzzle(&dir);
    let record = dir.join("game.txt");
    let rec = record.display().to_string();
    let run = sowlang(
        &["play", OWARE, "--from", &from, "--vs", "human"],
        format!("5\nSAVE {rec}\nquit\n").as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(&format!("saved the game in {rec}\n")), "{}", run.stdout);
    check_record(&record, "5", "unfinished");
    assert!(
        std::fs::read_dir(&dir).expect("dir").count() == 2,
        "no temporary file left beside the record"
    );

    // Going on: the board of the saved position with its last move marked, then north's forced 6.
    let run = sowlang(&["play", "--load", &rec], b"board\n6\nsave\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        after(&run.stdout, "1 move played so far: 5\n").starts_with(b(AFTER_5)),
        "{}",
        run.stdout
    );
    let after6 = "
             6    5    4    3    2    1   north
          < 0> [ 0] [ 0] [ 0] [ 0] [ 0]
north  5                                 10 south
          [ 1] [ 1] ( 1) [ 0] [ 0] [ 2]
             1    2    3    4    5    6   south
";
    assert!(after(&run.stdout, "north plays pit 6\n").contains(b(after6)), "{}", run.stdout);
    // A plain `save` writes back to the record it was loaded from.
    check_record(&record, "5 6", "unfinished");

    // replay: the start, then each move with its board, then whose turn it is.
    let run = sowlang(&["replay", &rec], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains(b(PUZZLE_BOARD)));
    assert!(
        after(&run.stdout, "move 1: south plays pit 5: captures 5 seeds\n").starts_with(b(AFTER_5)),
        "{}",
        run.stdout
    );
    assert!(
        after(&run.stdout, "move 2: north plays pit 6\n").starts_with(b(after6)),
        "{}",
        run.stdout
    );
    // South must feed north, whose row is empty: only pit 6 (2 seeds) reaches it.
    assert!(run.stdout.ends_with("south to move; legal moves: 6\n"), "{}", run.stdout);

    // replay --json: the final position as docs/cli.md describes it.
    let run = sowlang(&["replay", &rec, "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["pits"]["south"], serde_json::json!([1, 1, 1, 0, 0, 2]));
    assert_eq!(json["pits"]["north"], serde_json::json!([0, 0, 0, 0, 0, 0]));
    assert_eq!(json["stores"], serde_json::json!({"south": 10, "north": 5}));
    assert_eq!(json["to_move"], "south");
    assert_eq!(json["legal_moves"], serde_json::json!([6]));
    assert_eq!(json["over"], false);
}

/// South [0,0,0,0,0,1], north [1,2,0,0,0,0], stores 3 and 0: 7 seeds in all. South's pit 6 makes north
/// 1 two seeds and takes them: 5 of 7 is more than half, so the game ends and north's last 2 seeds go
/// to north: south wins 5 to 2.
const ENDGAME: &str = r#"{"pits":{"south":[0,0,0,0,0,1],"north":[1,2,0,0,0,0]},"stores":{"south":3,"north":0},"to_move":"south"}"#;

#[test]
fn a_finished_game_records_its_result_and_replay_checks_it() {
    let dir = scratch("play", "result");
    let from = dir.join("end.json");
    std::fs::write(&from, ENDGAME).expect("write");
    let record = dir.join("over.txt");
    let rec = record.display().to_string();
    let run = sowlang(
        &[
            "play",
            OWARE,
            "--from",
            &from.display().to_string(),
            "--vs",
            "human",
            "--save",
            &rec,
        ],
        b"6\nhint\nundo\nredo\n",
    );
    assert_eq!(run.code, 0, "the game ended, then the input: {}", run.stderr);
    // The result is said when the game comes to it: after the move and again after undo and redo,
    // not after every line read meanwhile.
    let over = "game over (\"more than half captured\"): south wins, south 5 - north 2\n";
    assert_eq!(run.stdout.matches(over).count(), 2, "{}", run.stdout);
    assert!(run.stdout.contains("the game is over, so `hint` does nothing"), "{}", run.stdout);
    let text = std::fs::read_to_string(&record).expect("--save wrote the record");
    assert!(text.contains("\nmoves: 6\nresult: south wins (south 5, north 2)\n"), "{text}");
    let run = sowlang(&["replay", &rec], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .ends_with("game over (\"more than half captured\"): south wins, south 5 - north 2\n")
    );

    // A result the moves do not give: refused at the result line, nothing on stdout.
    std::fs::write(&record, text.replace("result: south wins", "result: north wins")).expect("write");
    let run = sowlang(&["replay", &rec], b"");
    assert_eq!(run.code, 1);
    assert_eq!(run.stdout, "");
    assert!(run.stderr.starts_with("sow::record::wrong_result"), "{}", run.stderr);
    assert!(
        flat(&run.stderr).contains("the record says `north wins (south 5, north 2)`, but its moves give `south wins (south 5, north 2)`"),
        "{}",
        run.stderr
    );

    // An illegal move (south's pit 4 is empty): refused where it stands in the record, by replay and by play --load.
    std::fs::write(&record, text.replace("moves: 6", "moves: 4")).expect("write");
    for args in [vec!["replay", rec.as_str()], vec!["play", "--load", rec.as_str()]] {
        let run = sowlang(&args, b"quit\n");
        assert_eq!(run.code, 1, "{args:?}");
        assert_eq!(run.stdout, "", "{args:?}");
        assert!(run.stderr.starts_with("sow::run::illegal_move"), "{}", run.stderr);
        assert!(
            flat(&run.stderr).contains("move 1 of the record (`4`) is not allowed"),
            "{}",
            run.stderr
        );
        assert!(
            run.stderr.contains("over.txt:"),
            "the report points into the record: {}",
            run.stderr
        );
        assert!(flat(&run.stderr).contains("the legal moves here are: 6"), "{}", run.stderr);
    }
}

#[test]
fn bad_records_and_arguments_are_refused() {
    let dir = scratch("play", "bad");
    let missing = dir.join("none.txt").display().to_string();
    let run = sowlang(&["replay", &missing], b"");
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    assert!(run.stderr.starts_with("sow::record::unreadable"), "{}", run.stderr);
    // A rule file is not a record.
    let run = sowlang(&["replay", OWARE], b"");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""));
    assert!(run.stderr.starts_with("sow::record::bad_record"), "{}", run.stderr);
    // A record naming a rule file that is not there: an I/O problem, exit 2.
    let lost = dir.join("lost.txt");
    std::fs::write(&lost, "sowlang record 1\nrules: nowhere.sow\nmoves: 1\n").expect("write");
    let run = sowlang(&["replay", &lost.display().to_string()], b"");
    assert_eq!(run.code, 2, "{}", run.stderr);
    // --load names its own rule file.
    assert_eq!(sowlang(&["play", OWARE, "--load", &missing], b"").code, 2);
    // Hint times are checked, negative ones included.
    let run = sowlang(&["play", OWARE, "--hint-time", "-1"], b"");
    assert_eq!(run.code, 2);
    assert!(flat(&run.stderr).contains("is not a number of seconds"), "{}", run.stderr);
    // A puzzle says who is to move, so --first with it is refused rather than ignored.
    assert_eq!(sowlang(&["play", OWARE, "--from", &missing, "--first", "north"], b"").code, 2);
    // A missing puzzle file.
    let run = sowlang(&["play", OWARE, "--from", &missing], b"");
    assert_eq!((run.code, run.stdout.as_str()), (2, ""));
    // Saving over a file that is not a game record (here a copy of a rule file) is refused.
    let rules = dir.join("rules.sow");
    std::fs::copy(root().join(OWARE), &rules).expect("copy");
    let run = sowlang(
        &["play", OWARE, "--vs", "human"],
        format!("save {}\nquit\n", rules.display()).as_bytes(),
    );
    assert!(run.stdout.contains("exists and is not a game record"), "{}", run.stdout);
    assert_eq!(
        std::fs::read_to_string(&rules).expect("rules"),
        std::fs::read_to_string(root().join(OWARE)).expect("oware"),
        "the rule file is untouched"
    );
    // Saving where it cannot be written says so and the game goes on.
    let dir_as_file = dir.display().to_string();
    let run = sowlang(
        &["play", OWARE, "--vs", "human"],
        format!("save {dir_as_file}\n3\nquit\n").as_bytes(),
    );
    assert_eq!(run.code, 0);
    assert!(run.stdout.contains("could not save the game in"), "{}", run.stdout);
    assert!(run.stdout.contains("south plays pit 3\n"), "{}", run.stdout);
}

#[test]
fn the_record_in_the_docs_replays() {
    let docs = std::fs::read_to_string(root().join("docs/cli.md")).expect("docs/cli.md");
    let start = docs.find("```\nsowlang record 1\n").expect("an example record in docs/cli.md") + 4;
    let text = &docs[start..start + docs[start..].find("```").expect("closed block")];
    // The example sits as if in a folder beside variants/; here it is written elsewhere, so its
    // relative path is made absolute.
    let oware = root().join(OWARE).display().to_string();
    let text = text.replace("rules: ../variants/oware.sow", &format!("rules: {oware}"));
    let dir = scratch("play", "docs");
    let path = dir.join("example.txt");
    std::fs::write(&path, text).expect("write");
    let run = sowlang(&["replay", &path.display().to_string()], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("move 4: north plays pit 1"), "{}", run.stdout);
}

#[test]
fn a_loaded_record_keeps_who_played_each_side() {
    let dir = scratch("play", "seats");
    let oware = root().join(OWARE).display().to_string();
    let record = dir.join("seats.txt");
    // Written anew before each game: leaving a game loaded from a record saves the moves played.
    let write = || {
        std::fs::write(
            &record,
            format!("sowlang record 1\nrules: {oware}\nfrom: {PUZZLE}\nSouth: greedy\nnorth: human\nmoves:\n"),
        )
        .expect("write")
    };
    write();
    let rec = record.display().to_string();
    // The computer (south, greedy) moves first and takes the 5 seeds of pit 5; the person sits north.
    let run = sowlang(&["play", "--load", &rec], b"quit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(run.stdout.contains("computer (south, greedy) plays pit 5\n"), "{}", run.stdout);
    assert!(
        run.stdout
            .ends_with(&format!("you (north) to move (6): saved the game in {rec}\nstopped\n")),
        "{}",
        run.stdout
    );
    // --vs and --side override the record.
    write();
    let run = sowlang(&["play", "--load", &rec, "--vs", "human"], b"quit\n");
    assert!(run.stdout.ends_with("south to move (5, 6): stopped\n"), "{}", run.stdout);
    let run = sowlang(&["play", "--load", &rec, "--side", "south"], b"quit\n");
    assert!(run.stdout.ends_with("you (south) to move (5, 6): stopped\n"), "{}", run.stdout);
}

#[test]
fn a_move_into_ones_own_store_is_marked_and_moves_again() {
    // Kalah from the start: south's pit 3 (4 seeds) sows south 4, 5, 6 and the last seed into south's
    // store, so south moves again before the computer replies.
    let run = sowlang(&["play", "variants/kalah.sow", "--quiet"], b"3\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let want = "your move: you play pit 3: sows 1 seed into the store, moves again
                6    5    4    3    2    1   north (computer)
             [ 4] [ 4] [ 4] [ 4] [ 4] [ 4]
computer  0                                 1  you
             [ 4] [ 4] < 0> [ 5] [ 5] [ 5]
                1    2    3    4    5    6   south (you)
<> the pit played (south 3), the last seed fell in your store
your move: stopped
";
    assert!(run.stdout.ends_with(want), "{}", run.stdout);
}

#[test]
fn a_board_of_two_rows_a_player_is_drawn_row_by_row_from_either_side() {
    // Hus's start (variants/hus.sow: "seeds seeds where pit.row == back or pit.number > pits - 4"):
    // 2 seeds in every back-row pit (b) and in pits 5 to 8 of the front row (a), for each player.
    // Seen from north: north's front row just below the stores, its back row under it, pit 1 on the
    // left; south's rows above, front row nearest the middle, each read from north's left (south's
    // pit 8 first, so south's front row shows its four filled pits on the left).
    let dir = scratch("play", "rows");
    let record = dir.join("hus.txt");
    let rec = record.display().to_string();
    let run = sowlang(
        &["play", "variants/hus.sow", "--vs", "human", "--side", "north"],
        format!("A5\nsave {rec}\nquit\n").as_bytes(),
    );
    assert_eq!(run.code, 0, "{}", run.stderr);
    let start = "
             8    7    6    5    4    3    2    1   south
          [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2]   b
          [ 2] [ 2] [ 2] [ 2] [ 0] [ 0] [ 0] [ 0]   a
south  0                                           0  north
          [ 0] [ 0] [ 0] [ 0] [ 2] [ 2] [ 2] [ 2]   a
          [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2]   b
             1    2    3    4    5    6    7    8   north
";
    assert!(run.stdout.contains(b(start)), "{}", run.stdout);
    // The move is typed in upper case and written as the engine names it. South's own track runs
    // along its front row from pit 8 down to pit 1 (then along the back row), so a5's 2 seeds go into
    // a4 and a3; a3 was empty, so the relay stops there.
    let after_a5 = "
             8    7    6    5    4    3    2    1   south
          [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2]   b
          [ 2] [ 2] [ 2] < 0> [ 1] ( 1) [ 0] [ 0]   a
south  0                                           0  north
          [ 0] [ 0] [ 0] [ 0] [ 2] [ 2] [ 2] [ 2]   a
          [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2] [ 2]   b
             1    2    3    4    5    6    7    8   north
<> the pit played (south a5), () where the last seed fell (south a3)
";
    assert!(after(&run.stdout, "south plays pit a5\n").contains(b(after_a5)), "{}", run.stdout);
    let text = std::fs::read_to_string(&record).expect("record");
    assert!(text.contains("\nmoves: a5\n"), "{text}");
    let run = sowlang(&["replay", &rec, "--json"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    let json: serde_json::Value = serde_json::from_str(&run.stdout).expect("json");
    assert_eq!(json["to_move"], "north");
}

/// A small board whose track puts each store at its owner's left: sowing from pit 3 down to pit 1,
/// into the own store, then along the other row from its pit 3. Three pits of two seeds: south's pit 1
/// sows south's store and north 3 (north's last pit, at south's left end).
const LEFT_STORES: &str = r#"
game "Stores on the left"
param pits = 3 in 1..8
board { pits pits  seeds 2  stores sown }
sow { track mover pits..1, mover store, opponent pits..1 }
end "no move" when no_moves remaining owner
"#;

#[test]
fn run_trace_draws_each_board_once_and_the_stores_where_the_track_puts_them() {
    let dir = scratch("play", "left-stores");
    let file = dir.join("left.sow");
    std::fs::write(&file, LEFT_STORES).expect("write game");
    let path = file.display().to_string();
    let run = sowlang(&["run", &path, "--moves", "1", "--trace"], b"");
    assert_eq!(run.code, 0, "{}", run.stderr);
    // South's store is drawn on the left (beside south's pit 1 and north's pit 3), north's on the
    // right; the board after the move once, then whose turn it is.
    let want = "south plays pit 1
  picks up 2 seeds from south 1
  sows one seed each into south's store, north 3
  the last seed falls in north 3, which now holds 3 seeds
  the move ends: the seeds are all sown
             3    2    1   north
          [ 3] [ 2] [ 2]
south  1                  0  north
          [ 0] [ 2] [ 2]
             1    2    3   south
north to move; legal moves: 1, 2, 3
";
    assert_eq!(run.stdout, want);
    // Seen from north, north's store is on the left.
    let run = sowlang(&["play", &path, "--vs", "human", "--side", "north"], b"quit\n");
    assert!(run.stdout.contains("\nnorth  0                  0  south\n"), "{}", run.stdout);
}

/// A pit typed without its way where the mover chooses it (tests/fixtures/either_way.sow: one row of
/// four pits, 2 seeds each, a pit must hold 2 to be played): `play` answers with the moves it could be,
/// or why the pit has no move, and its help and quiet prompt write moves as this game does (`3L`).
/// South 1R sows south 2 and 3; north 4R sows south 1 and 2, leaving south's pit 1 with 1 seed.
#[test]
fn a_pit_typed_without_its_way_gets_the_moves_it_could_be() {
    const EITHER: &str = "tests/fixtures/either_way.sow";
    let run = sowlang(&["play", EITHER, "--vs", "human"], b"3\n1R\n4R\n1\nhelp\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    clean_pipe_output(&run);
    assert!(
        run.stdout
            .contains("`3` names pit 3 but not the way the seeds go (`L` or `R`): it could be 3L or 3R\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "pit 1 has no legal move here; it cannot be played now either way: a pit must hold at least 2 seeds to be played; try again\n"
        ),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains("south plays pit 1R\n") && run.stdout.contains("north plays pit 4R\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "  a move         sow a pit: write a pit number from 1 to 4, then `L` or `R`: the way the seeds\n                 go, to your left or right (`3L`)\n"
        ),
        "{}",
        run.stdout
    );
    assert!(!run.stdout.contains("not understood"), "{}", run.stdout);
    // Quiet: what to type is said once, in the game's notation.
    let run = sowlang(&["play", EITHER, "--vs", "human", "--quiet"], b"x\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("type a pit number and `L` or `R` (`3L`); `undo`, `hint`, `save FILE`, `quit`\n"),
        "{}",
        run.stdout
    );
    assert!(
        run.stdout.contains(
            "`x` is not understood: type a pit number and `L` or `R` (`3L`) (1R, 2R, 3R, 4R, 1L, 2L, 3L, 4L); `undo`, `hint`, `save FILE`, `quit`\n"
        ),
        "{}",
        run.stdout
    );
    assert_eq!(run.stdout.matches("type a pit").count(), 2, "said once a line: {}", run.stdout);
    // A record with the same move: replay refuses it the same way, at the move.
    let dir = scratch("play", "either");
    let record = dir.join("game.txt");
    let rules = root().join(EITHER).display().to_string();
    std::fs::write(&record, format!("sowlang record 1\nrules: {rules}\nmoves: 1R 4R 3\n")).expect("write");
    let run = sowlang(&["replay", &record.display().to_string()], b"");
    assert_eq!((run.code, run.stdout.as_str()), (1, ""), "{}", run.stderr);
    assert!(
        flat(&run.stderr).contains(
            "move 3 of the record (`3`) is not allowed: it names pit 3 but not the way the seeds go (`L` or `R`); it could be 3L or 3R"
        ),
        "{}",
        run.stderr
    );
}

/// What a move does is said with the right number: one seed taken to sow again is "it". In this
/// invented game a seed falling into an empty pit of the mover's takes the pit across into the hand and
/// sows it on: south [1, 0], north [1, 1]; south 1 falls into empty south 2, whose opposite, north 1,
/// holds 1 seed.
#[test]
fn one_seed_taken_to_sow_again_is_it() {
    let dir = scratch("play", "again");
    let rules = dir.join("again.sow");
    std::fs::write(
        &rules,
        "game \"Again\"\nboard { pits 2 seeds 1 }\nsow { direction ccw }\n\
         capture \"again\" { when last.side == mover and last.before == 0  take opposite(last)  sow taken }\n\
         end \"no move\" when no_moves remaining owner\n",
    )
    .expect("write");
    let from = dir.join("from.json");
    std::fs::write(
        &from,
        r#"{"pits":{"south":[1,0],"north":[1,1]},"stores":{"south":0,"north":0},"to_move":"south"}"#,
    )
    .expect("write");
    let (rules, from) = (rules.display().to_string(), from.display().to_string());
    let run = sowlang(&["play", &rules, "--from", &from, "--vs", "human", "--quiet"], b"1\nquit\n");
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert!(
        run.stdout
            .contains("south plays pit 1: sows 2 laps, captures 1 seed and sows it again\n"),
        "{}",
        run.stdout
    );
}

/// A game told in its own words (issue 23): each move names its stage, and each of the game's words
/// is explained once, the first time it is said. Two people play Bao la Kiswahili's first two moves:
/// south enters a seed into a7 (a takasa), north into a5, which captures from south's a4 and sends the
/// seed in from north's right kichwa.
#[test]
fn the_games_own_words_are_told_and_explained_once() {
    let run = sowlang(&["play", "variants/bao_la_kiswahili.sow", "--vs", "human"], b"a7L\na5L\nquit\n");
    let said = |s: &str| run.stdout.matches(s).count();
    assert!(
        run.stdout.contains("south plays pit a7L (namua) (namua: the first stage"),
        "{}",
        run.stdout
    );
    assert!(run.stdout.contains("north plays pit a5L (namua)\n"), "{}", run.stdout);
    assert_eq!(said("(namua: "), 1, "{}", run.stdout);
    assert_eq!(
        said("\"the move was a takasa\" (takasa: a move that captures nothing)"),
        1,
        "{}",
        run.stdout
    );
    assert_eq!(said("(kichwa: "), 1, "{}", run.stdout);
}
