//! Conformance with OpenSpiel: every reference trace in `tests/conformance_data/` (copied from OpenSpiel 2.0.2 output) replays
//! move for move against `variants/reference/openspiel_<game>.sow`. The other tests here show that the
//! replay can fail (a wrong rule set disagrees), that the board size comes from each line's `params`,
//! and what `sowlang conform` prints and exits with.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use crate::support::root;
use sowlang::conform::{Field, Report, replay};

const TRACES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/conformance_data");

/// Every trace file, with its text and the `game` its lines play.
fn traces() -> Vec<(PathBuf, String, String)> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(TRACES)
        .unwrap_or_else(|e| panic!("cannot read {TRACES}: {e}"))
        .map(|e| e.expect("directory entry").path())
        .filter(|p| p.extension().is_some_and(|e| e == "jsonl"))
        .collect();
    files.sort();
    files
        .into_iter()
        .map(|path| {
            let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
            let games: Vec<String> = text
                .lines()
                .filter(|l| !l.trim().is_empty())
                .map(|l| {
                    let v: serde_json::Value = serde_json::from_str(l).expect("a trace line is JSON");
                    v["game"].as_str().expect("a trace line names its game").to_string()
                })
                .collect();
            let game = games.first().cloned().expect("a trace file holds games");
            assert!(games.iter().all(|g| *g == game), "{} mixes games", path.display());
            (path, text, game)
        })
        .collect()
}

fn trace(game: &str) -> String {
    let (_, text, _) = traces()
        .into_iter()
        .find(|(_, _, g)| g == game)
        .unwrap_or_else(|| panic!("no {game} trace"));
    text
}

fn pretty(report: &Report) -> String {
    serde_json::to_string_pretty(&report.disagreements.iter().take(3).collect::<Vec<_>>()).expect("reports serialise")
}

#[test]
fn openspiel_traces_agree_move_for_move() {
    let traces = traces();
    // A test that replays nothing must not pass: both games have their file.
    for want in ["oware", "kalah"] {
        assert!(traces.iter().any(|(_, _, g)| g == want), "no {want} trace in {TRACES}");
    }
    for (path, text, game) in traces {
        let rules = root().join(format!("variants/reference/openspiel_{game}.sow"));
        let report = replay(&rules, &text).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        assert!(report.games > 0 && report.moves > 0, "{} replays nothing", path.display());
        assert!(
            report.agreed(),
            "{} against {}: games agreed {}/{}, moves agreed {}/{}; first disagreements:\n{}",
            path.display(),
            rules.display(),
            report.games_agreed,
            report.games,
            report.moves_agreed,
            report.moves,
            pretty(&report)
        );
    }
}

#[test]
fn a_wrong_rule_set_disagrees() {
    let report = replay(&root().join("variants/kalah.sow"), &trace("oware")).expect("the trace replays");
    assert!(!report.agreed());
    assert_eq!(
        report.games_agreed, 0,
        "kalah's sowing into the stores parts from oware in every game"
    );
    assert!(report.disagreements.iter().all(|d| d.refused.is_none() && !d.fields.is_empty()));
}

#[test]
fn seeds_moved_into_the_stores_at_the_end_agree_with_final_totals() {
    // variants/kalah.sow moves the seeds left into their owners' stores when a row empties; OpenSpiel
    // leaves them in the pits and gives the scores in `final_totals`. The two agree at every end.
    let report = replay(&root().join("variants/kalah.sow"), &trace("kalah")).expect("the trace replays");
    assert!(report.agreed(), "{}", pretty(&report));
}

#[test]
fn oware_differs_from_openspiel_only_where_a_position_repeats() {
    // variants/oware.sow splits the seeds left when a position repeats; OpenSpiel gives each side its
    // own row. Only games that end by repetition may disagree, at their last move, in the stores.
    let text = trace("oware");
    let report = replay(&root().join("variants/oware.sow"), &text).expect("the trace replays");
    assert!(!report.disagreements.is_empty(), "some oware trace games end by repetition");
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).expect("JSON")).collect();
    for d in &report.disagreements {
        let line = &lines[d.line - 1];
        assert_eq!(line["ended_by"], "repetition", "rng_seed {:?}: {:?}", d.rng_seed, d.fields);
        assert_eq!(d.move_number, line["moves"].as_array().expect("moves").len());
        assert!(
            d.fields.contains(&Field::Stores) && !d.fields.contains(&Field::Pits),
            "{:?}",
            d.fields
        );
    }
}

/// A synthetic trace at 4 pits a side and 3 seeds a pit (24 seeds), worked out by hand from
/// OpenSpiel's oware rules in the traces' README: single-lap sowing that skips the pit played,
/// captures of 2 or 3 walking back through the opponent's row, feeding, and the end on more than
/// half captured (13 of 24) with each side taking its own row.
fn small_oware_trace() -> String {
    // (move, south pits, north pits, south store, north store, legal moves of the side to move)
    type Step = (usize, [i64; 4], [i64; 4], i64, i64, &'static [usize]);
    let steps: [Step; 17] = [
        (1, [0, 4, 4, 4], [3, 3, 3, 3], 0, 0, &[1, 2, 3, 4]),
        (1, [0, 4, 4, 4], [0, 4, 4, 4], 0, 0, &[2, 3, 4]),
        (4, [0, 4, 4, 0], [1, 5, 5, 5], 0, 0, &[1, 2, 3, 4]),
        // North's last seed falls in its own pit 1: no capture.
        (4, [1, 5, 5, 1], [2, 5, 5, 0], 0, 0, &[1, 2, 3, 4]),
        // North's pit 1 goes to 3: taken; the pit before it is south's own, so the series stops.
        (4, [1, 5, 5, 0], [0, 5, 5, 0], 3, 0, &[2, 3]),
        (2, [2, 6, 6, 0], [0, 0, 6, 1], 3, 0, &[1, 2, 3]),
        (1, [0, 7, 7, 0], [0, 0, 6, 1], 3, 0, &[3, 4]),
        // South's pit 1 goes to 1: not 2 or 3.
        (4, [1, 7, 7, 0], [0, 0, 6, 0], 3, 0, &[1, 2, 3]),
        (1, [0, 8, 7, 0], [0, 0, 6, 0], 3, 0, &[3]),
        (3, [1, 9, 8, 1], [1, 0, 0, 1], 3, 0, &[1, 2, 3, 4]),
        (4, [1, 9, 8, 0], [0, 0, 0, 1], 5, 0, &[4]),
        // North empties its own row by capturing; south must feed: pits 2 and 3 reach north's row.
        (4, [0, 9, 8, 0], [0, 0, 0, 0], 5, 2, &[2, 3]),
        // Nine seeds from south's pit 2 go round and skip it.
        (2, [1, 0, 10, 2], [1, 1, 1, 1], 5, 2, &[1, 2, 3, 4]),
        (4, [0, 0, 10, 2], [1, 1, 1, 0], 5, 4, &[3, 4]),
        // Two houses of 2 taken, walking back from north's pit 2 to its pit 1.
        (4, [0, 0, 10, 0], [0, 0, 1, 0], 9, 4, &[3]),
        (3, [0, 0, 10, 0], [0, 0, 0, 1], 9, 4, &[3]),
        // Ten seeds, pit 3 skipped; north's pits 2 and 1 taken: 13 of 24, so the game ends and each
        // side takes its own row: south 13 + 4, north 4 + 3.
        (3, [0, 0, 0, 0], [0, 0, 0, 0], 17, 7, &[]),
    ];
    let position = |south: &[i64], north: &[i64], stores: (i64, i64), to_move: &str, over: bool, legal: &[usize]| {
        serde_json::json!({
            "pits": {"south": south, "north": north},
            "stores": {"south": stores.0, "north": stores.1},
            "to_move": to_move,
            "over": over,
            "winner": if over { serde_json::json!("south") } else { serde_json::Value::Null },
            "legal_moves": legal,
        })
    };
    let mut to_move = "south";
    let mut positions = Vec::new();
    for (i, (_, south, north, ss, ns, legal)) in steps.iter().enumerate() {
        to_move = if to_move == "south" { "north" } else { "south" };
        positions.push(position(south, north, (*ss, *ns), to_move, i + 1 == steps.len(), legal));
    }
    let line = serde_json::json!({
        "source": "hand",
        "game": "oware",
        "params": {"num_houses_per_player": 4, "num_seeds_per_house": 3},
        "rng_seed": 4003,
        "plies": steps.len(),
        "moves": steps.iter().map(|s| s.0).collect::<Vec<_>>(),
        "start": position(&[3, 3, 3, 3], &[3, 3, 3, 3], (0, 0), "south", false, &[1, 2, 3, 4]),
        "positions": positions,
        "ended_by": "captures",
        "returns": {"south": 1, "north": -1},
        "final_totals": {"south": 17, "north": 7},
    });
    format!("{line}\n")
}

/// A file in a scratch directory of its own, removed with it when dropped.
struct TempFile {
    path: PathBuf,
    _dir: crate::support::Scratch,
}

impl TempFile {
    fn new(name: &str, text: &str) -> TempFile {
        let dir = crate::support::scratch("conformance", name);
        let path = dir.join(name);
        std::fs::write(&path, text).expect("temp file");
        TempFile { path, _dir: dir }
    }
}

fn conform(args: &[&Path]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .arg("conform")
        .args(args)
        .env("NO_COLOR", "1")
        .output()
        .expect("the binary runs")
}

#[test]
fn the_board_size_comes_from_params() {
    let path = TempFile::new("oware_4x3.jsonl", &small_oware_trace());
    let rules = root().join("variants/reference/openspiel_oware.sow");
    let report = replay(&rules, &std::fs::read_to_string(&path.path).expect("written")).expect("the trace replays");
    assert!(report.agreed(), "{}", pretty(&report));
    assert_eq!((report.games, report.moves, report.moves_agreed), (1, 17, 17));

    let run = conform(&[&rules, &path.path]);
    assert_eq!(run.status.code(), Some(0), "{}", String::from_utf8_lossy(&run.stderr));
    assert_eq!(
        String::from_utf8_lossy(&run.stdout),
        "games agreed: 1 of 1\nmoves agreed: 17 of 17\n"
    );

    // The same moves read at the rule file's default board (6 pits, 4 seeds) disagree at the start.
    let default_size = small_oware_trace().replace(r#""num_houses_per_player":4,"num_seeds_per_house":3"#, "");
    assert_ne!(default_size, small_oware_trace(), "the params were removed");
    let report = replay(&rules, &default_size).expect("the trace replays");
    assert_eq!(report.disagreements[0].move_number, 0);
    assert_eq!(report.disagreements[0].fields, vec![Field::Pits, Field::LegalMoves]);
}

#[test]
fn conform_prints_the_first_disagreement_and_exits_1() {
    let trace = TempFile::new("oware_4x3_wrong.jsonl", &small_oware_trace());
    let run = conform(&[&root().join("variants/kalah.sow"), &trace.path]);
    assert_eq!(run.status.code(), Some(1));
    let stdout = String::from_utf8_lossy(&run.stdout);
    assert!(stdout.starts_with("games agreed: 0 of 1\nmoves agreed: 2 of 17\n"), "{stdout}");
    assert!(
        stdout.contains("first disagreement: line 1, rng_seed 4003, move 3 (south sows pit 4): "),
        "{stdout}"
    );
    assert!(
        stdout.contains("expected") && stdout.contains("got") && stdout.contains("<- differs"),
        "{stdout}"
    );

    let json = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", super::support::no_databases())
        .args(["conform", "--json"])
        .arg(root().join("variants/kalah.sow"))
        .arg(&trace.path)
        .output()
        .expect("the binary runs");
    assert_eq!(json.status.code(), Some(1));
    let v: serde_json::Value = serde_json::from_slice(&json.stdout).expect("--json prints JSON");
    assert_eq!(v["agreed"], false);
    assert_eq!(v["disagreements"][0]["rng_seed"], 4003);
    assert_eq!(v["disagreements"][0]["expected"]["pits"]["south"], serde_json::json!([0, 4, 4, 0]));
}

#[test]
fn conform_refuses_bad_input_with_exit_2() {
    let rules = root().join("variants/reference/openspiel_oware.sow");
    let good = small_oware_trace();
    let malformed = TempFile::new("malformed.jsonl", &format!("{good}\n{{\"game\": \"oware\", \"moves\": [1]\n"));
    let run = conform(&[&rules, &malformed.path]);
    assert_eq!(run.status.code(), Some(2));
    // miette wraps long messages: compare the words only.
    let stderr = String::from_utf8_lossy(&run.stderr)
        .replace('│', " ")
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        stderr.contains("trace line 3: not a trace game: EOF while parsing an object at column"),
        "{stderr}"
    );
    assert!(run.stdout.is_empty());

    let run = conform(&[&rules, &root().join("no/such/trace.jsonl")]);
    assert_eq!(run.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read the trace"));

    let trace = TempFile::new("ok.jsonl", &good);
    let run = conform(&[&root().join("no/such/rules.sow"), &trace.path]);
    assert_eq!(run.status.code(), Some(2));

    // OpenSpiel's kalah board is fixed at 6 pits: the rule file rejects 4, which is not an I/O error.
    let run = conform(&[&root().join("variants/reference/openspiel_kalah.sow"), &trace.path]);
    assert_eq!(run.status.code(), Some(1), "{}", String::from_utf8_lossy(&run.stderr));
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot be loaded with pits=4, seeds=3"));
}
