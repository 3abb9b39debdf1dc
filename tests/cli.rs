//! Bad input on the command line: the real binary, fed missing and unreadable files, malformed
//! positions, wrong sizes, negative counts and bad move lists. Each gives one clear diagnostic on
//! stderr, nothing on stdout, a non-zero exit code, and never a Rust panic or backtrace. The
//! transcripts (exit code, stdout, stderr; temporary paths shown as `[TMP]`) are snapshotted.
//!
//! Also: `check --format json` keeps the schema of docs/diagnostics.md (checked with our own serde
//! structs, not the crate's), and `check`'s exit codes (0 / 1 / 2, `--deny-warnings`).

use std::path::Path;
use std::process::Command;

use crate::support::{root, scratch};
use serde::Deserialize;

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn sowlang(args: &[&str], tmp: Option<&Path>) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .output()
        .expect("run sowlang");
    let redact = |s: &[u8]| {
        let s = String::from_utf8_lossy(s).into_owned();
        match tmp {
            Some(t) => s.replace(&t.display().to_string(), "[TMP]"),
            None => s,
        }
    };
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: redact(&out.stdout),
        stderr: redact(&out.stderr),
    }
}

/// One refused command: exit `code`, nothing on stdout, exactly one diagnostic, no panic.
fn refused(name: &str, args: &[&str], code: i32, tmp: Option<&Path>) {
    let run = sowlang(args, tmp);
    assert_eq!(run.code, code, "{name}: exit code\n{}", run.stderr);
    assert_eq!(run.stdout, "", "{name}: stdout must stay empty");
    assert!(
        !run.stderr.contains("panicked") && !run.stderr.contains("RUST_BACKTRACE"),
        "{name}: {}",
        run.stderr
    );
    let diagnostics = run.stderr.lines().filter(|l| l.starts_with("sow::")).count();
    let clap = run.stderr.starts_with("error:");
    assert!(
        diagnostics == 1 || (clap && code == 2),
        "{name}: one diagnostic expected\n{}",
        run.stderr
    );
    let mut command = args.join(" ");
    if let Some(t) = tmp {
        command = command.replace(&t.display().to_string(), "[TMP]");
    }
    insta::assert_snapshot!(name, format!("$ sowlang {command}\nexit: {}\n{}", run.code, run.stderr));
}

const OWARE: &str = "variants/oware.sow";

#[test]
fn missing_and_unreadable_files() {
    let tmp = scratch("cli", "files");
    let dir = tmp.display().to_string();
    refused("check_missing_file", &["check", "no/such/file.sow"], 2, None);
    refused("check_a_directory", &["check", &dir], 2, Some(&tmp));
    refused("run_missing_file", &["run", "no/such/file.sow"], 2, None);
    refused(
        "run_position_file_missing",
        &["run", OWARE, "--from", "no/such/position.json"],
        2,
        None,
    );
    refused("run_position_file_is_a_directory", &["run", OWARE, "--from", &dir], 2, Some(&tmp));
}

#[test]
fn bad_positions() {
    let tmp = scratch("cli", "positions");
    let cases = [
        ("position_not_json", "pits: 4 4 4"),
        ("position_truncated_json", r#"{"pits":{"south":[4,4,4,4,4,4],"north":[4,4"#),
        (
            "position_missing_field",
            r#"{"pits":{"south":[4,4,4,4,4,4],"north":[4,4,4,4,4,4]},"to_move":"south"}"#,
        ),
        (
            "position_wrong_size",
            r#"{"pits":{"south":[4,4,4,4,4],"north":[4,4,4,4,4,4]},"stores":{"south":0,"north":0},"to_move":"south"}"#,
        ),
        (
            "position_negative_count",
            r#"{"pits":{"south":[4,4,-4,4,4,4],"north":[4,4,4,4,4,4]},"stores":{"south":0,"north":0},"to_move":"south"}"#,
        ),
        (
            "position_huge_count",
            r#"{"pits":{"south":[4,4,4,4,4,4],"north":[4,4,4,4,4,4]},"stores":{"south":99999999999999999999,"north":0},"to_move":"south"}"#,
        ),
        (
            "position_unknown_player",
            r#"{"pits":{"south":[4,4,4,4,4,4],"north":[4,4,4,4,4,4]},"stores":{"south":0,"north":0},"to_move":"east"}"#,
        ),
    ];
    for (name, json) in cases {
        let path = tmp.join(format!("{name}.json"));
        std::fs::write(&path, json).expect("write");
        refused(name, &["run", OWARE, "--from", &path.display().to_string()], 1, Some(&tmp));
    }
}

#[test]
fn bad_move_lists() {
    refused("moves_not_numbers", &["run", OWARE, "--moves", "3,x,6"], 2, None);
    refused("moves_negative", &["run", OWARE, "--moves", "-1"], 2, None);
    refused("moves_huge_number", &["run", OWARE, "--moves", "99999999999999999999999"], 2, None);
    refused("moves_pit_zero", &["run", OWARE, "--moves", "0"], 1, None);
    refused("moves_beyond_the_board", &["run", OWARE, "--moves", "3,7"], 1, None);
    refused("moves_from_an_empty_pit", &["run", OWARE, "--moves", "3,1,3"], 1, None);
    refused("set_not_a_number", &["run", OWARE, "--set", "pits=many"], 2, None);
    refused("set_outside_the_range", &["run", OWARE, "--set", "pits=1000"], 1, None);
}

/// A pit typed without its way where the mover chooses it (tests/fixtures/either_way.sow, one row of
/// four pits, 2 seeds each): the moves it could be, or why the pit has no legal move. South 1R sows
/// south 2 and 3 (south [0, 3, 3, 2]); north 4R sows south 1 and 2 (south [1, 4, 3, 2]): south's pit 1
/// holds 1 seed, and a pit must hold 2 to be played, either way.
#[test]
fn a_pit_without_its_way_is_answered_with_the_moves_it_could_be() {
    const EITHER: &str = "tests/fixtures/either_way.sow";
    refused("moves_pit_without_its_way", &["run", EITHER, "--moves", "3"], 1, None);
    refused(
        "moves_pit_without_its_way_and_no_move",
        &["run", EITHER, "--moves", "1R,4R,1"],
        1,
        None,
    );
    refused("moves_not_a_pit_either_way", &["run", EITHER, "--moves", "9"], 2, None);
}

#[test]
fn check_exit_codes() {
    let clean = sowlang(&["check", OWARE], None);
    assert_eq!(clean.code, 0, "{}", clean.stderr);
    let broken = "tests/diagnostics/check/misspelt_name.sow";
    assert_eq!(sowlang(&["check", broken], None).code, 1);
    let warned = "tests/diagnostics/check/capture_shadowed.sow";
    let run = sowlang(&["check", warned], None);
    assert_eq!(run.code, 0, "warnings alone exit 0: {}", run.stderr);
    assert!(run.stderr.contains("sow::check::shadowed"));
    assert_eq!(sowlang(&["check", "--deny-warnings", warned], None).code, 1);
    assert_eq!(sowlang(&["check"], None).code, 2, "no file is a usage error");
    assert_eq!(sowlang(&["check", "--explore", "0", OWARE], None).code, 2);
    assert_eq!(sowlang(&["check", "--seed", "3", OWARE], None).code, 2, "--seed needs --explore");
    let explored = sowlang(&["check", "--explore", "3", "--seed", "7", OWARE], None);
    assert_eq!(explored.code, 0, "{}", explored.stderr);
    // Missing file and broken file together: the I/O problem decides (2), both are reported.
    let both = sowlang(&["check", broken, "no/such/file.sow"], None);
    assert_eq!(both.code, 2);
    assert!(both.stderr.contains("sow::check::unknown_name") && both.stderr.contains("sow::load::missing_file"));
}

/// The JSON of docs/diagnostics.md, declared here and not borrowed from the crate.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Report {
    diagnostics: Vec<JsonDiagnostic>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonDiagnostic {
    code: String,
    severity: String,
    message: String,
    file: Option<String>,
    line: Option<usize>,
    column: Option<usize>,
    offset: Option<usize>,
    length: Option<usize>,
    labels: Vec<JsonLabel>,
    help: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct JsonLabel {
    file: String,
    line: usize,
    column: usize,
    offset: usize,
    length: usize,
    text: String,
}

#[test]
fn check_json_follows_the_documented_schema() {
    let run = sowlang(
        &[
            "check",
            "--format",
            "json",
            "tests/diagnostics/check/several_problems.sow",
            "tests/diagnostics/check/capture_shadowed.sow",
        ],
        None,
    );
    assert_eq!(run.code, 1);
    assert_eq!(run.stderr, "", "with --format json everything is on stdout");
    let report: Report = serde_json::from_str(&run.stdout).expect("the documented JSON");
    assert_eq!(report.diagnostics.len(), 4);
    for d in &report.diagnostics {
        assert!(d.code.starts_with("sow::"));
        assert!(d.severity == "error" || d.severity == "warning");
        assert!(!d.message.is_empty() && d.help.is_some());
        let first = d.labels.first().expect("a place in the file");
        assert!(d.labels.iter().all(|l| !l.text.is_empty()), "every label says what it marks");
        assert_eq!(
            (d.file.as_deref(), d.line, d.column),
            (Some(first.file.as_str()), Some(first.line), Some(first.column))
        );
        assert_eq!((d.offset, d.length), (Some(first.offset), Some(first.length)));
    }
    // The unknown name `lst` on line 7, column 22 of several_problems.sow: offsets are bytes into the file.
    let lst = report
        .diagnostics
        .iter()
        .find(|d| d.code == "sow::check::unknown_name")
        .expect("unknown name");
    let text = std::fs::read_to_string(root().join("tests/diagnostics/check/several_problems.sow")).expect("fixture");
    let (offset, length) = (lst.offset.expect("offset"), lst.length.expect("length"));
    assert_eq!(&text[offset..offset + length], "lst");
    assert_eq!((lst.line, lst.column), (Some(7), Some(22)));
    assert!(report.diagnostics.iter().any(|d| d.severity == "warning"));
    // `--json` is the same switch; a missing file has no place, so its place fields are null.
    let run = sowlang(&["check", "--json", "no/such/file.sow"], None);
    assert_eq!(run.code, 2);
    let report: Report = serde_json::from_str(&run.stdout).expect("the documented JSON");
    let d = &report.diagnostics[0];
    assert!(d.file.is_none() && d.line.is_none() && d.offset.is_none() && d.labels.is_empty());
    // A clean file: an empty list.
    let run = sowlang(&["check", "--json", OWARE], None);
    assert_eq!((run.code, run.stdout.trim()), (0, "{\n  \"diagnostics\": []\n}"));
}
