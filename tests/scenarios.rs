//! Runs every `tests/scenarios/**/*.scn` file (format in tests/scenarios/README.md): the `expect:`
//! lines, worked out by hand from the quoted rule, are asserted against the position JSON, and the
//! narration of the moves is kept as a snapshot for review.

use std::path::{Path, PathBuf};

use serde_json::Value;
use sowlang::{Override, load_game};

struct Scenario {
    variant: String,
    sets: Vec<Override>,
    from: Option<String>,
    /// As written: pit numbers, or row letter and number (`b3`) on boards of several rows a player.
    moves: Vec<String>,
    expects: Vec<(String, String)>,
    error: Option<String>,
}

fn parse(text: &str, path: &Path) -> Scenario {
    let mut s = Scenario {
        variant: String::new(),
        sets: vec![],
        from: None,
        moves: vec![],
        expects: vec![],
        error: None,
    };
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .unwrap_or_else(|| panic!("{}:{}: not `key: value`", path.display(), i + 1));
        // A trailing `# comment` is allowed after everything but JSON strings holding `#`.
        let value = match value.find(" #") {
            Some(p) => value[..p].trim(),
            None => value.trim(),
        };
        match key.trim() {
            "variant" => s.variant = value.to_string(),
            "set" => {
                for kv in value.split_whitespace() {
                    let (k, v) = kv.split_once('=').expect("set: name=value");
                    s.sets.push(Override {
                        name: k.to_string(),
                        value: v.parse().expect("set value is a number"),
                    });
                }
            }
            "from" => s.from = Some(value.to_string()),
            "moves" => {
                s.moves = value
                    .split(',')
                    .filter(|m| !m.trim().is_empty())
                    .map(|m| m.trim().to_string())
                    .collect()
            }
            "expect" => {
                if let Some(rest) = value.strip_prefix("error ~") {
                    s.error = Some(rest.trim().to_string());
                } else {
                    let (path, want) = value
                        .split_once('=')
                        .unwrap_or_else(|| panic!("{}:{}: expect needs `path = value`", path.display(), i + 1));
                    s.expects.push((path.trim().to_string(), want.trim().to_string()));
                }
            }
            other => panic!("{}:{}: unknown key `{other}`", path.display(), i + 1),
        }
    }
    assert!(!s.variant.is_empty(), "{}: no variant", path.display());
    s
}

fn lookup<'a>(mut v: &'a Value, path: &str) -> Option<&'a Value> {
    for part in path.split('.') {
        v = match part.parse::<usize>() {
            Ok(i) => v.get(i)?,
            Err(_) => v.get(part)?,
        };
    }
    Some(v)
}

/// Runs a scenario: returns the narration, and panics on a failed expectation.
fn run(path: &Path) -> String {
    let text = std::fs::read_to_string(path).expect("scenario readable");
    let sc = parse(&text, path);
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let file: PathBuf = root.join("variants").join(format!("{}.sow", sc.variant));
    let loaded = load_game(&file, &sc.sets).unwrap_or_else(|f| {
        let msgs: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
        panic!("{}: {} does not load:\n{}", path.display(), file.display(), msgs.join("\n"))
    });
    let game = &loaded.game;
    let mut pos = match &sc.from {
        Some(json) => game
            .position_from_json(json)
            .unwrap_or_else(|d| panic!("{}: bad from: {}", path.display(), d.message)),
        None => game.initial(None),
    };
    game.settle_start(&mut pos);
    let mut narration = String::new();
    for (i, m) in sc.moves.iter().enumerate() {
        // A move's choices are read against the position it is played in.
        let k = game
            .read_move(&pos, m)
            .unwrap_or_else(|| panic!("{}: `{m}` is not a move of this position", path.display()));
        match game.apply_traced(&mut pos, k) {
            Ok(events) => {
                for line in game.narrate(&events) {
                    narration.push_str(&line);
                    narration.push('\n');
                }
            }
            Err(e) => {
                let msg = e.to_string();
                match &sc.error {
                    Some(want) if i + 1 == sc.moves.len() => {
                        assert!(
                            msg.contains(want.as_str()),
                            "{}: the move was refused with `{msg}`, expected a message containing `{want}`",
                            path.display()
                        );
                        narration.push_str(&format!("refused: {msg}\n"));
                        return narration;
                    }
                    _ => panic!("{}: move {} (pit {k}) refused: {msg}", path.display(), i + 1),
                }
            }
        }
    }
    if let Some(want) = &sc.error {
        panic!(
            "{}: expected the moves to be refused with `{want}`, but they were all played",
            path.display()
        );
    }
    let got = game.position_to_json(&pos);
    let mut failures = Vec::new();
    for (key, want) in &sc.expects {
        let want: Value = serde_json::from_str(want)
            .unwrap_or_else(|e| panic!("{}: expected value `{want}` of `{key}` is not JSON: {e}", path.display()));
        match lookup(&got, key) {
            Some(v) if *v == want => {}
            other => failures.push(format!(
                "  {key}: expected {want}, got {}",
                other.map_or("nothing".into(), |v| v.to_string())
            )),
        }
    }
    assert!(
        failures.is_empty(),
        "{}:\n{}\nwhole position: {got}\nnarration:\n{narration}",
        path.display(),
        failures.join("\n")
    );
    narration.push_str(&format!("position: {got}\n"));
    narration
}

#[test]
fn golden_scenarios() {
    insta::glob!("scenarios/**/*.scn", |path| {
        let narration = run(path);
        insta::assert_snapshot!(narration);
    });
}

#[test]
fn every_shipped_variant_has_at_least_six_scenarios() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    for entry in std::fs::read_dir(root.join("variants")).expect("variants dir") {
        let path = entry.expect("entry").path();
        if path.extension().is_some_and(|e| e == "sow") {
            let name = path.file_stem().expect("stem").to_string_lossy().into_owned();
            let dir = root.join("tests/scenarios").join(&name);
            let count = std::fs::read_dir(&dir)
                .map(|d| {
                    d.filter(|e| e.as_ref().is_ok_and(|e| e.path().extension().is_some_and(|x| x == "scn")))
                        .count()
                })
                .unwrap_or(0);
            assert!(
                count >= 6,
                "variants/{name}.sow has {count} scenarios in {}, want at least 6",
                dir.display()
            );
        }
    }
}
