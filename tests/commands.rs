//! The tool commands as a user meets them (issue 15): `analyze` checks every argument before the
//! first game and keeps its results on Ctrl-C, prints only the figures the rules can produce;
//! `solve` refuses a board that will not fit within seconds and suggests only a board it has
//! solved; `play --hint-time` is bounded; `completions` and `man` come from the clap definitions;
//! `check` always ends with a summary line; the README lists every command. Expected texts are
//! worked out by hand from the rule files.

use crate::support::{root, scratch};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

fn sowlang(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(args)
        .current_dir(root())
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("run sowlang")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// A usage error: exit 2, nothing on stdout, `needle` in the message, no panic, and quick (nothing
/// was played before the refusal).
fn usage_error(args: &[&str], needle: &str) {
    let t = Instant::now();
    let o = sowlang(args);
    // miette wraps at 80 columns: read the message as one line.
    let err = text(&o.stderr).replace('│', " ").split_whitespace().collect::<Vec<_>>().join(" ");
    assert_eq!(o.status.code(), Some(2), "{args:?}: {err}");
    assert_eq!(text(&o.stdout), "", "{args:?}");
    assert!(err.contains(needle), "{args:?}: `{needle}` not in\n{err}");
    assert!(!err.contains("panicked") && !err.contains("unexpected argument"), "{args:?}: {err}");
    assert!(t.elapsed() < Duration::from_secs(10), "{args:?} took {:?}", t.elapsed());
}

const KALAH: &str = "variants/kalah.sow";
const OWARE: &str = "variants/oware.sow";

// Issue 15: `--players random,greedy,mcts` dropped the third player, `--games 0` played one game,
// `--plot /no/such/dir/x.svg` played every game before failing, and a time of `1e30s` panicked.
#[test]
fn analyze_refuses_bad_arguments_before_the_first_game() {
    // A million games would take hours: a refusal that comes quickly came before the games.
    let with = |extra: &[&str]| -> Vec<String> {
        ["analyze", KALAH, "--games", "1000000", "--players", "alphabeta:4,alphabeta:4"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string())
            .collect()
    };
    usage_error(
        &["analyze", KALAH, "--players", "random,greedy,mcts"],
        "name exactly two players, south's then north's, separated by a comma (e.g. `random,greedy`); `random,greedy,mcts` names 3",
    );
    usage_error(&["analyze", KALAH, "--players", "random"], "`random` names 1");
    usage_error(&["analyze", KALAH, "--games", "0"], "0 is not in 1..=1000000");
    usage_error(&["analyze", KALAH, "--games", "1000001"], "1000001 is not in 1..=1000000");
    usage_error(&["analyze", KALAH, "--max-plies", "0"], "0 is not in 1..=1000000");
    usage_error(&["analyze", KALAH, "--threads", "100000"], "100000 is not in 0..=256");
    usage_error(
        &["analyze", KALAH, "--players", "alphabeta:1e30s,random"],
        "`1e30s` is too long to think about one move: at most 60s",
    );
    usage_error(&["analyze", KALAH, "--players", "mcts:-1s,random"], "`-1s` is not a time to think");
    // A plot that cannot be written is refused at once.
    let dir = scratch("commands", "plot-refused");
    let d = dir.display().to_string();
    for (plot, needle) in [
        ("/no/such/dir/x.svg".to_string(), "the directory `/no/such/dir` does not exist"),
        (d.clone(), "is a directory, not a file name"),
        (format!("{d}/sub/x.svg"), "does not exist"),
    ] {
        let args = with(&["--plot", &plot]);
        usage_error(&args.iter().map(String::as_str).collect::<Vec<_>>(), needle);
    }
    assert_eq!(
        std::fs::read_dir(&dir).expect("dir").count(),
        0,
        "a refused run leaves nothing behind"
    );
}

/// Every `<text>` of an SVG: x, y, font size, anchor, whether turned upright, and its text.
fn svg_texts(svg: &str) -> Vec<(f64, f64, f64, String, bool, String)> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let at = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[at..at + tag[at..].find('"')?].to_string())
    };
    let mut out = Vec::new();
    for piece in svg.split("<text").skip(1) {
        let end = piece.find('>').expect("a closed tag");
        let tag = &piece[..end];
        let body = &piece[end + 1..piece.find("</text>").expect("closed text")];
        let num = |n: &str, d: f64| attr(tag, n).map_or(d, |v| v.parse().expect("a number"));
        out.push((
            num("x", 0.0),
            num("y", 0.0),
            num("font-size", 12.0),
            attr(tag, "text-anchor").unwrap_or_else(|| "start".into()),
            attr(tag, "transform").is_some_and(|t| t.starts_with("rotate(-90")),
            body.replace("&amp;", "&")
                .replace("&lt;", "<")
                .replace("&gt;", ">")
                .replace("&quot;", "\""),
        ));
    }
    out
}

/// The box a text covers, generously (0.62 em a character, from 0.8 em above the baseline to
/// 0.25 em below): (left, top, right, bottom).
fn text_box(t: &(f64, f64, f64, String, bool, String)) -> (f64, f64, f64, f64) {
    let (x, y, size, anchor, upright, body) = t;
    let len = body.chars().count() as f64 * size * 0.62;
    let start = match anchor.as_str() {
        "middle" => -len / 2.0,
        "end" => -len,
        _ => 0.0,
    };
    if *upright {
        // Turned a quarter left about (x, y): the text runs upwards from y.
        (x - size * 0.8, y - start - len, x + size * 0.25, y - start)
    } else {
        (x + start, y - size * 0.8, x + start + len, y + size * 0.25)
    }
}

// Issue 15: the "100.0%" label of a bar that reached the top overlapped the plot's title, and the
// axes had no titles.
#[test]
fn analyze_plot_labels_never_overlap() {
    let dir = scratch("commands", "plot");
    let plot = dir.join("tampoduo.svg");
    // Tampoduo with these players is won by south in every game (docs/analysis.md: 100% at depth
    // 4), so its bar reaches the top of the plot.
    let o = sowlang(&[
        "analyze",
        "variants/tampoduo.sow",
        "--games",
        "6",
        "--players",
        "alphabeta:2,alphabeta:2",
        "--plot",
        &plot.display().to_string(),
    ]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let svg = std::fs::read_to_string(&plot).expect("the plot was written");
    let names: Vec<String> = std::fs::read_dir(&dir)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(names, ["tampoduo.svg"], "no temporary file is left beside the plot");
    let texts = svg_texts(&svg);
    let bodies: Vec<&str> = texts.iter().map(|t| t.5.as_str()).collect();
    for title in ["games", "length of the game (plies)", "share of games", "result of the game"] {
        assert!(bodies.contains(&title), "axis title `{title}` missing: {bodies:?}");
    }
    assert!(bodies.contains(&"100.0%"), "south won every game: {bodies:?}");
    let boxes: Vec<_> = texts.iter().map(text_box).collect();
    for (i, a) in boxes.iter().enumerate() {
        assert!(
            a.0 >= 0.0 && a.1 >= 0.0 && a.2 <= 900.0 && a.3 <= 460.0,
            "`{}` leaves the page: {a:?}",
            texts[i].5
        );
        for (j, b) in boxes.iter().enumerate().skip(i + 1) {
            let apart = a.2 <= b.0 || b.2 <= a.0 || a.3 <= b.1 || b.3 <= a.1;
            assert!(apart, "`{}` {a:?} overlaps `{}` {b:?}", texts[i].5, texts[j].5);
        }
    }
}

// Issue 15: Ctrl-C lost every result so far.
#[cfg(unix)]
#[test]
fn analyze_reports_the_games_finished_when_interrupted() {
    let dir = scratch("commands", "interrupt");
    let plot = dir.join("partial.svg");
    let child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args([
            "analyze",
            KALAH,
            "--games",
            "1000000",
            "--players",
            "greedy,greedy",
            "--threads",
            "1",
        ])
        .arg("--plot")
        .arg(&plot)
        .current_dir(root())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("start sowlang");
    std::thread::sleep(Duration::from_secs(3));
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().expect("kill");
    assert!(status.success());
    let o = child.wait_with_output().expect("sowlang ends");
    let (out, err) = (text(&o.stdout), text(&o.stderr));
    assert_eq!(o.status.code(), Some(130), "the shell's code for an interrupted command\n{err}");
    let first = out.lines().next().unwrap_or_default();
    let n: u64 = first
        .strip_prefix("partial report: interrupted after ")
        .and_then(|r| r.split(' ').next())
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("a partial report first: {out}\n{err}"));
    assert!(n > 0 && n < 1_000_000, "{first}");
    assert_eq!(
        first,
        format!("partial report: interrupted after {n} of 1000000 games; every figure below covers those {n} games only")
    );
    assert!(
        out.contains(&format!("Kalah (variants/kalah.sow): {n} games, greedy (south) vs greedy (north)")),
        "{out}"
    );
    assert!(err.contains(&format!("interrupted: {n} of 1000000 games finished")), "{err}");
    let svg = std::fs::read_to_string(&plot).expect("the partial plot is written");
    assert!(svg.contains(&format!("partial: interrupted after {n} of 1000000 games")));
}

// Issue 15: lines of zeros for things the rules cannot do (relay laps in Kalah, extra moves in Oware).
#[test]
fn analyze_prints_only_what_the_rules_can_produce() {
    let run = |file: &str| {
        let o = sowlang(&["analyze", file, "--games", "4", "--players", "random,random"]);
        assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
        text(&o.stdout)
    };
    // Kalah: a capture rule that grants another move, no relay, no grand slam, no feeding, no
    // rounds, no repetition rule. Its rule without actions ("last seed in own store") moves no
    // seeds, so it is not listed among the rules fired; the extra moves count it.
    let kalah = run(KALAH);
    assert!(kalah.contains("another move per game: "), "{kalah}");
    assert!(kalah.contains("\"across\""), "{kalah}");
    for absent in [
        "relay laps",
        "grand slams",
        "feeding penalties",
        "rounds per match",
        "repetition",
        "last seed in own store",
    ] {
        assert!(!kalah.contains(absent), "`{absent}` in\n{kalah}");
    }
    // Oware: grand slams capture nothing (so some may be undone), a repetition rule, feeding
    // required (no penalty), no relay, no extra move, no rounds. Its four end rules are all listed,
    // fired or not.
    let oware = run(OWARE);
    for present in [
        "grand slams: ",
        " undone)",
        "ended by repetition: ",
        "\"endless chasing\"",
        "\"half each\"",
        "\"no feeding move\"",
        "\"more than half captured\"",
    ] {
        assert!(oware.contains(present), "`{present}` not in\n{oware}");
    }
    for absent in ["relay laps", "another move", "feeding penalties", "rounds per match"] {
        assert!(!oware.contains(absent), "`{absent}` in\n{oware}");
    }
    // The JSON leaves out the same figures.
    let o = sowlang(&["analyze", KALAH, "--games", "2", "--players", "random,random", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    let events = j["events"].as_object().expect("events");
    assert_eq!(events.keys().collect::<Vec<_>>(), ["another_moves_per_game"]);
    assert!(j.get("repetition").is_none());
    assert_eq!(
        (j["games"].as_u64(), j["games_requested"].as_u64(), j["interrupted"].as_bool()),
        (Some(2), Some(2), Some(false))
    );
}

/// A game of rounds is a match: `analyze` reports the rounds a match played, the first included. In this
/// invented match each player has one pit of one seed: south's seed goes to north, north's two come back,
/// the start repeats and the round ends; the next is set up the same; the match ends after round 3. So
/// every match plays 3 rounds (2 set up after the first), whoever plays.
#[test]
fn analyze_counts_the_rounds_of_a_match() {
    let dir = scratch("commands", "rounds");
    let file = dir.join("three_rounds.sow");
    std::fs::write(
        &file,
        "game \"Three rounds\"\nboard { pits 1 seeds 1 }\nend \"going around\" when repeated remaining owner\n\
         rounds {\n  setup fill 1\n  match ends when round == 3\n}\n",
    )
    .expect("write");
    let path = file.display().to_string();
    let o = sowlang(&["analyze", &path, "--games", "2", "--players", "random,random"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    assert!(text(&o.stdout).contains("rounds per match: 3.00"), "{}", text(&o.stdout));
    let o = sowlang(&["analyze", &path, "--games", "2", "--players", "random,random", "--json"]);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).expect("json");
    assert_eq!(j["events"]["rounds_per_game"].as_f64(), Some(3.0));
}

// Issue 15: `--hint-time 1e9` hung and `--hint-time -1` was "an unexpected argument".
#[test]
fn play_hint_time_is_bounded() {
    for t in ["1e9", "-1", "0", "NaN"] {
        usage_error(
            &["play", OWARE, "--hint-time", t],
            &format!("`{t}` is not a number of seconds from more than 0 to 3600"),
        );
    }
    usage_error(&["play", OWARE, "--vs", "alphabeta:1e30s"], "too long to think about one move");
}

// Issue 15: a board far too large was refused only after minutes, with a suggestion that did not
// finish either. Now the suggestion is a board that `solve` has just solved: solving it must work.
#[test]
fn solve_suggests_only_a_board_that_finishes() {
    let t = Instant::now();
    let o = sowlang(&["solve", OWARE]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("sow::solve::too_large") && err.contains("cannot solve this board: it has up to 1.3e13 positions"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(30), "refused after {:?}", t.elapsed());
    // The help wraps at 80 columns: join its lines before reading the suggested board.
    let help: String = err
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("help:"))
        .map(str::trim)
        .collect::<Vec<_>>()
        .join(" ");
    let board = help.split('`').nth(1).unwrap_or_else(|| panic!("a suggested board in: {help}"));
    assert!(help.contains("a smaller board does finish"), "{help}");
    let mut args = vec!["solve", OWARE];
    args.extend(board.split(' '));
    let o = sowlang(&args);
    assert_eq!(
        o.status.code(),
        Some(0),
        "the suggested `{board}` does not solve: {}",
        text(&o.stderr)
    );
    assert!(text(&o.stdout).contains(" to move: "));
}

// Issue 15: `solve` printed nothing for half a minute. On a terminal a progress line now shows what
// it does; off a terminal (a pipe, as here) stderr stays clean.
#[test]
fn solve_shows_progress_only_on_a_terminal() {
    let board = ["solve", KALAH, "--set", "pits=4", "--set", "seeds=2"];
    let o = sowlang(&board);
    assert_eq!((o.status.code(), text(&o.stderr)), (Some(0), String::new()));
    // `script` runs the command on a pseudo-terminal, where the progress line appears.
    let Ok(o) = Command::new("script")
        .args([
            "-qec",
            &format!("{} {}", env!("CARGO_BIN_EXE_sowlang"), board.join(" ")),
            "/dev/null",
        ])
        .current_dir(root())
        .stdin(Stdio::null())
        .output()
    else {
        return;
    };
    let shown = text(&o.stdout);
    assert!(shown.contains("exploring the board: "), "{shown}");
    assert!(shown.contains("south to move: south wins by 6"), "{shown}");
}

// Issue 15: Oware with 3 pits and 3 seeds was refused after about four minutes, when its table had
// filled the memory. Its projection refuses it within seconds (release builds only: a debug build
// is too slow for the projection to start in the time the test allows).
#[test]
fn solve_refuses_a_board_on_course_to_outgrow_memory_early() {
    if cfg!(debug_assertions) {
        return;
    }
    let t = Instant::now();
    // Alpha-beta with the history (`auto` answers Oware from its databases).
    let o = sowlang(&[
        "solve",
        OWARE,
        "--set",
        "pits=3",
        "--set",
        "seeds=3",
        "--method",
        "alphabeta",
        "--max-positions",
        "20000000",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("its search is on course to need about"), "{err}");
    assert!(t.elapsed() < Duration::from_secs(60), "refused after {:?}", t.elapsed());
}

#[test]
fn solve_max_seconds_bounds_the_search() {
    let t = Instant::now();
    let o = sowlang(&[
        "solve",
        OWARE,
        "--set",
        "pits=3",
        "--set",
        "seeds=3",
        "--method",
        "minimax",
        "--max-seconds",
        "1",
    ]);
    let err = text(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(
        err.contains("sow::solve::too_long") && err.contains("within --max-seconds"),
        "{err}"
    );
    assert!(t.elapsed() < Duration::from_secs(30), "{:?}", t.elapsed());
    usage_error(&["solve", OWARE, "--max-seconds", "-1"], "give a number of seconds above 0");
}

/// The commands clap knows, from `sowlang --help`.
fn commands() -> Vec<String> {
    let help = text(&sowlang(&["--help"]).stdout);
    help.lines()
        .skip_while(|l| !l.starts_with("Commands:"))
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|c| *c != "help")
        .map(String::from)
        .collect()
}

#[test]
fn completions_and_man_pages_come_from_the_command_definitions() {
    let commands = commands();
    assert!(commands.len() >= 10, "{commands:?}");
    for shell in ["bash", "zsh", "fish", "elvish", "powershell"] {
        let o = sowlang(&["completions", shell]);
        assert_eq!(o.status.code(), Some(0));
        let script = text(&o.stdout);
        for c in &commands {
            assert!(script.contains(c.as_str()), "{shell} completion lacks `{c}`");
        }
        assert!(
            script.contains("players") && script.contains("hint-time"),
            "{shell}: options complete too"
        );
    }
    usage_error(&["completions", "tcsh"], "invalid value 'tcsh'");
    let page = text(&sowlang(&["man"]).stdout);
    assert!(page.starts_with(".ie") && page.contains(".TH sowlang 1"), "{page}");
    for c in &commands {
        assert!(page.contains(c.as_str()), "the man page lacks `{c}`");
    }
    let page = text(&sowlang(&["man", "analyze"]).stdout);
    assert!(page.contains(".TH sowlang-analyze 1") && page.contains("\\-\\-players"), "{page}");
    usage_error(&["man", "nope"], "there is no command `nope`");
}

// Issue 15: `check` printed no summary when some files failed.
#[test]
fn check_ends_with_a_summary_line_either_way() {
    let last = |args: &[&str]| {
        let o = sowlang(args);
        (o.status.code(), text(&o.stderr).lines().last().unwrap_or_default().to_string())
    };
    // several_problems.sow holds three errors, capture_shadowed.sow one warning (tests/cli.rs).
    assert_eq!(
        last(&[
            "check",
            OWARE,
            "tests/diagnostics/check/several_problems.sow",
            "tests/diagnostics/check/capture_shadowed.sow"
        ]),
        (Some(1), "checked 3 files: 3 errors in 1 file, 1 warning".into())
    );
    assert_eq!(
        last(&["check", OWARE, "no/such/file.sow"]),
        (Some(2), "checked 2 files: 1 file could not be read".into())
    );
    assert_eq!(
        last(&[
            "check",
            "tests/diagnostics/check/several_problems.sow",
            "tests/diagnostics/check/several_problems.sow"
        ]),
        (Some(1), "checked 2 files: 6 errors in 2 files".into())
    );
    assert_eq!(last(&["check", OWARE, KALAH]), (Some(0), "checked 2 files: no errors".into()));
}

// Issue 15: the README's command table left out analyze, solve, perft, bench and conform.
#[test]
fn the_readme_lists_every_command() {
    let readme = std::fs::read_to_string(root().join("README.md")).expect("README");
    let table: Vec<&str> = readme
        .lines()
        .skip_while(|l| !l.starts_with("## Commands"))
        .filter(|l| l.starts_with("| `sowlang "))
        .collect();
    for c in commands() {
        assert!(
            table.iter().any(|row| row.starts_with(&format!("| `sowlang {c}"))),
            "README's command table lacks `{c}`"
        );
    }
}

// Issue 15: docs/analysis.md opened with the project's internal wording.
#[test]
fn user_docs_speak_to_users() {
    for file in ["README.md", "docs/analysis.md", "docs/cli.md"] {
        let text = std::fs::read_to_string(root().join(file)).expect("doc").to_lowercase();
        for word in ["issue 6", "issue6", "session", "closing note"] {
            assert!(!text.contains(word), "{file} says `{word}`");
        }
    }
}

/// Issue 25: `bench` reports the CPU time its threads got beside the wall time, with rates per CPU
/// second, and says whether the machine was too busy for the rates per wall second to be trusted.
#[test]
fn bench_reports_cpu_time_beside_wall_time() {
    let o = sowlang(&["bench", OWARE, "--seconds", "0.3", "--threads", "2", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("json");
    let f = |key: &str| report[key].as_f64().unwrap_or_else(|| panic!("{key}: {report}"));
    assert_eq!(report["threads"], 2, "{report}");
    let (cpu, wall) = (f("cpu_seconds"), f("seconds"));
    // Two threads cannot use more than twice the wall time (a little slack for the clocks' grain).
    assert!(cpu > 0.0 && cpu <= 2.0 * wall * 1.05 + 0.01, "{report}");
    assert!(
        (f("moves_per_cpu_sec") - f("moves") / cpu).abs() < 1e-6 * f("moves_per_cpu_sec"),
        "{report}"
    );
    assert!(
        (f("playouts_per_cpu_sec") - f("playouts") / cpu).abs() < 1e-6 * f("moves_per_cpu_sec"),
        "{report}"
    );
    let share = f("cpu_share");
    assert!((share - cpu / (2.0 * wall)).abs() < 1e-9, "{report}");
    // The warning is there exactly when the share is short, and says how short.
    assert_eq!(report["cpu_warning"].is_string(), share < 0.8, "{report}");
    // The existing fields keep their meaning.
    assert!(
        (f("moves_per_sec") - f("moves") / wall).abs() < 1e-6 * f("moves_per_sec"),
        "{report}"
    );

    // Which engine played: Oware's rules have a fast form.
    assert_eq!(report["engine"], "fast form", "{report}");
    assert_eq!(report["general_because"], serde_json::Value::Null, "{report}");

    let o = sowlang(&["bench", OWARE, "--seconds", "0.2"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let out = text(&o.stdout);
    assert!(out.contains("a CPU second)") && out.contains("cpu time:"), "{out}");
    assert!(out.contains("engine:       fast form\n"), "{out}");
    // Bao's choices are the general engine's.
    let o = sowlang(&["bench", "variants/bao.sow", "--seconds", "0.1", "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("json");
    assert_eq!(report["engine"], "general engine", "{report}");
    assert_eq!(report["general_because"], "the mover chooses the direction of a move", "{report}");
    let o = sowlang(&["bench", "variants/bao.sow", "--seconds", "0.1"]);
    assert!(
        text(&o.stdout).contains("engine:       general engine (the mover chooses the direction of a move)\n"),
        "{}",
        text(&o.stdout)
    );
}

/// `bench --against`: the other program runs once a slice with `{seconds}` replaced, and its
/// `moves_per_s` is read from its JSON. A stand-in program (a shell script reporting a fixed rate)
/// takes the place of a real engine, so the test reads nothing outside the repository.
#[test]
fn bench_against_runs_the_other_program_in_turn_and_reads_its_rate() {
    let dir = scratch("commands", "bench_against");
    let log = dir.join("slices.txt");
    let fake = dir.join("fake-engine.sh");
    std::fs::write(
        &fake,
        format!(
            "#!/bin/sh\necho \"$1\" >> {}\necho 'some other line'\necho '{{\"moves_per_s\": 1000000000, \"moves\": 50000000, \"cpu_seconds\": 0.125}}'\n",
            log.display()
        ),
    )
    .expect("write script");
    let command = format!("sh {} {{seconds}}", fake.display());
    let o = sowlang(&["bench", OWARE, "--seconds", "0.4", "--slices", "4", "--against", &command, "--json"]);
    assert_eq!(o.status.code(), Some(0), "{}", text(&o.stderr));
    let report: serde_json::Value = serde_json::from_str(text(&o.stdout).trim()).expect("json");
    assert_eq!(report["slices"], 4);
    assert_eq!(report["their_moves_per_sec"], 1e9);
    // The interpreter is far below a billion moves a second: the ratio is its rate over 1e9.
    let ratio = report["ratio"].as_f64().expect("ratio");
    let ours = report["moves_per_sec"].as_f64().expect("rate");
    assert!(ratio > 0.0 && ratio < 1.0 && (ratio - ours / 1e9).abs() < 1e-9, "{report}");
    // The other program's CPU time, summed over the slices, and its moves per CPU second from its
    // `moves` and `cpu_seconds` (issue 25); the interpreter's own beside it.
    let f = |key: &str| report[key].as_f64().unwrap_or_else(|| panic!("{key}: {report}"));
    assert!((f("their_cpu_seconds") - 0.5).abs() < 1e-9, "{report}");
    assert!((f("their_moves_per_cpu_sec") - 4e8).abs() < 1e-3, "{report}");
    assert!(f("cpu_seconds") > 0.0 && f("cpu_seconds") < 0.4 * 1.05 + 0.05, "{report}");
    assert!((f("cpu_ratio") - f("moves_per_cpu_sec") / 4e8).abs() < 1e-9, "{report}");
    // Four slices, each told its length.
    let slices = std::fs::read_to_string(&log).expect("log");
    assert_eq!(slices.lines().collect::<Vec<_>>(), vec!["0.1"; 4]);

    // A program that fails, or prints no rate, is an error that says so.
    let o = sowlang(&["bench", OWARE, "--seconds", "0.2", "--against", "false"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(text(&o.stderr).contains("`false` failed"), "{}", text(&o.stderr));
    let o = sowlang(&["bench", OWARE, "--seconds", "0.2", "--against", "echo hello"]);
    assert_eq!(o.status.code(), Some(2));
    assert!(
        text(&o.stderr).contains("no JSON with a positive `moves_per_s`"),
        "{}",
        text(&o.stderr)
    );
    usage_error(&["bench", OWARE, "--against", "x", "--threads", "2"], "cannot be used with");
}
