//! Outputs never destroy or silently lose data (issue 22): every command that prints a result exits
//! non-zero when stdout cannot take it; `analyze --plot` replaces only a plot it wrote (never a rule
//! file, a link, a device or a FIFO); reading a FIFO as a rule file never blocks; and the small misuses
//! of the command line that were taken silently are refused.

use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::Duration;

use crate::support::{root, scratch};

/// Runs the binary in the repository's root with `stdout` as its output; killed (and the test failed)
/// if it runs for more than a minute, so that a command that blocks fails instead of hanging.
fn sowlang_to(args: &[&str], stdout: Stdio) -> Output {
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .stdout(stdout)
        .stderr(Stdio::piped())
        .stdin(Stdio::null())
        .spawn()
        .expect("run sowlang");
    for _ in 0..600 {
        if child.try_wait().expect("wait").is_some() {
            return child.wait_with_output().expect("output");
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    let _ = child.kill();
    panic!("`sowlang {}` did not end within a minute", args.join(" "));
}

fn sowlang(args: &[&str]) -> Output {
    sowlang_to(args, Stdio::piped())
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// A FIFO at `path`, made by the system's `mkfifo`; `false` where there is none.
fn mkfifo(path: &Path) -> bool {
    Command::new("mkfifo").arg(path).status().is_ok_and(|s| s.success())
}

// Issue 22, 9: `run --json > /dev/full` and the others exited 0 with their output lost.
#[test]
fn issue_22_every_command_reports_a_lost_output() {
    let full = Path::new("/dev/full");
    if !full.exists() {
        eprintln!("no /dev/full on this system: nothing to test");
        return;
    }
    let commands: &[&[&str]] = &[
        &["run", "variants/oware.sow", "--moves", "1,2", "--json"],
        &["run", "variants/oware.sow", "--moves", "1,2"],
        &["check", "variants/oware.sow", "--format", "json"],
        &["perft", "variants/oware.sow", "2"],
        &["analyze", "variants/oware.sow", "--games", "2", "--json"],
        &["solve", "variants/kalah.sow", "--set", "pits=2", "--set", "seeds=1"],
        &["bench", "variants/oware.sow", "--seconds", "0.05", "--json"],
        &["man"],
        &["completions", "bash"],
    ];
    for args in commands {
        let o = sowlang_to(args, Stdio::from(std::fs::File::create(full).expect("/dev/full")));
        let err = stderr(&o);
        assert_eq!(o.status.code(), Some(2), "sowlang {}: {err}", args.join(" "));
        assert!(
            err.contains("sow::output::unwritable") && err.contains("cannot write the output"),
            "{err}"
        );
    }
    // A closed pipe is still a normal end.
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["man"])
        .current_dir(root())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sowlang");
    drop(child.stdout.take());
    let o = child.wait_with_output().expect("output");
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

// Issue 22, 8: `analyze --plot PATH` replaced whatever was at PATH (a rule file, a link's target, a
// device) and hung on a FIFO; now it replaces only a plot it wrote, as `play`'s `save` does.
#[test]
fn issue_22_a_plot_replaces_only_a_plot() {
    let dir = scratch("outputs", "plot");
    let analyze = |plot: &Path| {
        sowlang(&[
            "analyze",
            "variants/oware.sow",
            "--games",
            "2",
            "--plot",
            plot.to_str().expect("path"),
        ])
    };
    let rules = dir.join("oware.sow");
    let original = std::fs::read_to_string(root().join("variants/oware.sow")).expect("oware");
    std::fs::write(&rules, &original).expect("copy");
    let o = analyze(&rules);
    assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
    assert!(stderr(&o).contains("it was not written by sowlang"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&rules).expect("still there"), original);

    let plot = dir.join("plot.svg");
    for round in 0..2 {
        let o = analyze(&plot);
        assert_eq!(o.status.code(), Some(0), "round {round}: {}", stderr(&o));
        let svg = std::fs::read_to_string(&plot).expect("the plot");
        assert!(
            svg.starts_with("<!-- sowlang analyze plot -->\n<svg"),
            "{}",
            &svg[..80.min(svg.len())]
        );
    }
    let left: Vec<_> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(left.len(), 2, "temporary files left: {left:?}");

    #[cfg(unix)]
    {
        let link = dir.join("link.svg");
        std::os::unix::fs::symlink(&rules, &link).expect("a link");
        let o = analyze(&link);
        assert!(stderr(&o).contains("it is a symbolic link"), "{}", stderr(&o));
        assert_eq!(std::fs::read_to_string(&rules).expect("still there"), original);
        let o = analyze(Path::new("/dev/null"));
        assert!(stderr(&o).contains("it is not a plain file"), "{}", stderr(&o));
    }
    let fifo = dir.join("fifo.svg");
    if mkfifo(&fifo) {
        let o = analyze(&fifo);
        assert_eq!(o.status.code(), Some(2), "{}", stderr(&o));
        assert!(stderr(&o).contains("it is not a plain file"), "{}", stderr(&o));
    }
}

// Issue 22, 10: `extends` of a FIFO blocked the loader for ever (the server's too).
#[test]
fn issue_22_extends_of_a_fifo_is_refused() {
    let dir = scratch("outputs", "fifo");
    let fifo = dir.join("parent.sow");
    if !mkfifo(&fifo) {
        eprintln!("no mkfifo on this system: nothing to test");
        return;
    }
    let child = dir.join("child.sow");
    std::fs::write(&child, "extends \"parent.sow\"\ngame \"x\"\n").expect("child");
    for file in [&child, &fifo] {
        let o = sowlang(&["check", file.to_str().expect("path")]);
        assert_ne!(o.status.code(), Some(0));
        assert!(stderr(&o).contains("it is not a plain file"), "{}", stderr(&o));
    }
}

// Issue 22, 10: misuses that were taken silently or reported as something else.
#[test]
fn issue_22_small_misuses_of_the_command_line_are_refused() {
    let o = sowlang(&["bench", "variants/oware.sow", "--seconds", "-1"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(stderr(&o).contains("`-1` is not a number of seconds above 0"), "{}", stderr(&o));

    let o = sowlang(&["run", "variants/oware.sow", "--set", "pits=3", "--set", "pits=4"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        stderr(&o).contains("sow::run::parameter_twice") && stderr(&o).contains("to 3 and to 4"),
        "{}",
        stderr(&o)
    );

    for moves in [",,1", "1,,2", "1,"] {
        let o = sowlang(&["run", "variants/oware.sow", "--moves", moves]);
        assert_eq!(o.status.code(), Some(2), "--moves {moves}");
        assert!(stderr(&o).contains("of --moves is empty"), "{}", stderr(&o));
    }
    let o = sowlang(&["run", "variants/oware.sow", "--moves", ""]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
}

// Issue 22, 10: `bench --seconds 1` ran 17 s on a board whose playouts take seconds each: the time limit
// was read only between playouts. Here a playout takes about 15 s (16,000 seeds relayed round the
// board); asked for 0.2 s, the command must stop within a few seconds (before, it took one playout).
#[test]
fn issue_22_bench_stops_inside_a_long_playout() {
    let dir = scratch("outputs", "bench");
    let slow = dir.join("slow.sow");
    std::fs::write(
        &slow,
        "game \"slow\"\nboard { rows 2 pits 16 seeds 255 }\nsow { direction ccw relay when last.before > 0 }\nend \"no move\" when no_moves remaining owner\n",
    )
    .expect("write");
    let o = sowlang(&["bench", slow.to_str().expect("path"), "--seconds", "0.2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", stderr(&o));
    let report: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert!(report["moves"].as_u64().is_some_and(|m| m > 0), "{report}");
    assert!(report["seconds"].as_f64().is_some_and(|s| s < 5.0), "{report}");
}
