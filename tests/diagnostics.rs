//! The broken corpus. Every file under `tests/diagnostics/{syntax,check,explore}/` holds one defect and
//! says on its first line which code(s) it must produce (`# expect: <code>[, <code>...]`); a line
//! `# set: name=value` passes `--set`. The snapshot is the report exactly as `sowlang check` renders
//! it (no colour, width 80), and the fixture itself is the snapshot's description. Files in
//! `explore/` are checked with `--explore 20 --seed 0 --max-moves 300`.
//!
//! Also here: the codes in the source, the fixtures and `docs/diagnostics.md` are the same set, and
//! the two problems that cannot be a small fixture (a 10 MB file, an `extends` chain of 40 files).

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

use crate::support::{root, scratch};
use sowlang::Override;
use sowlang::{Diagnostic, Sources};

/// The codes a fixture expects and the parameters it sets.
fn header(text: &str) -> (BTreeSet<String>, Vec<Override>) {
    let first = text.lines().next().unwrap_or_default();
    let codes = first
        .strip_prefix("# expect: ")
        .unwrap_or_else(|| panic!("the first line must be `# expect: <code>`, not {first:?}"))
        .split(',')
        .map(|c| c.trim().to_string())
        .collect();
    let sets = text
        .lines()
        .filter_map(|l| l.strip_prefix("# set: "))
        .map(|s| {
            let (name, value) = s.split_once('=').expect("`# set: name=value`");
            Override {
                name: name.trim().to_string(),
                value: value.trim().parse().expect("a whole number"),
            }
        })
        .collect();
    (codes, sets)
}

/// Checks (and, under `explore/`, explores) a fixture given relative to the crate root.
fn diagnose(rel: &Path, sets: &[Override]) -> (Sources, Vec<Diagnostic>) {
    if rel.starts_with("tests/diagnostics/explore") {
        let opts = sowlang::ExploreOptions {
            games: 20,
            seed: 0,
            max_moves: 300,
        };
        let report = sowlang::explore_file(rel, sets, opts);
        return (report.sources, report.diagnostics);
    }
    match sowlang::load_game(rel, sets) {
        Ok(l) => (l.sources, l.warnings),
        Err(f) => (f.sources, f.diagnostics),
    }
}

fn render(diags: &[Diagnostic], sources: &Sources) -> String {
    diags.iter().map(|d| d.render(sources, false)).collect::<Vec<_>>().join("\n")
}

#[test]
fn broken_files() {
    insta::glob!("diagnostics/{syntax,check,explore}/*.sow", |path| {
        let rel = path.strip_prefix(root()).expect("fixtures are inside the crate");
        let text = String::from_utf8_lossy(&std::fs::read(path).expect("fixture")).into_owned();
        let (expected, sets) = header(&text);
        let (sources, diags) = diagnose(rel, &sets);
        let codes: BTreeSet<String> = diags.iter().map(|d| d.code.to_string()).collect();
        assert_eq!(
            codes,
            expected,
            "{}: the codes found are not the ones expected\n{}",
            rel.display(),
            render(&diags, &sources)
        );
        for d in &diags {
            // Only a problem with the command line (a `--set`) has no place in the file.
            assert!(
                !d.labels.is_empty() || d.code == "sow::check::bad_parameter",
                "{}: no span on {d:?}",
                rel.display()
            );
            assert!(
                !d.message.ends_with('.'),
                "{}: a message ends without a period: {}",
                rel.display(),
                d.message
            );
        }
        insta::with_settings!({ description => text, omit_expression => true }, {
            insta::assert_snapshot!(render(&diags, &sources));
        });
    });
}

/// Every `"sow::..."` string literal in `src/`.
fn codes_in_source() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    let mut dirs = vec![root().join("src")];
    while let Some(dir) = dirs.pop() {
        for entry in std::fs::read_dir(&dir).expect("src") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                dirs.push(path);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source");
                let mut rest = text.as_str();
                while let Some(i) = rest.find("\"sow::") {
                    let tail = &rest[i + 1..];
                    let end = tail
                        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == ':'))
                        .unwrap_or(tail.len());
                    if tail[end..].starts_with('"') {
                        codes.insert(tail[..end].to_string());
                    }
                    rest = &tail[end..];
                }
            }
        }
    }
    codes
}

/// Every code documented under a `### \`sow::...\`` heading.
fn codes_in_docs() -> BTreeSet<String> {
    let text = std::fs::read_to_string(root().join("docs/diagnostics.md")).expect("docs/diagnostics.md");
    text.lines()
        .filter_map(|l| l.strip_prefix("### `"))
        .filter_map(|l| l.strip_suffix('`'))
        .map(str::to_string)
        .collect()
}

fn codes_in_fixtures() -> BTreeSet<String> {
    let mut codes = BTreeSet::new();
    for stage in ["syntax", "check", "explore"] {
        for entry in std::fs::read_dir(root().join("tests/diagnostics").join(stage)).expect("fixtures") {
            let path: PathBuf = entry.expect("entry").path();
            let text = String::from_utf8_lossy(&std::fs::read(&path).expect("fixture")).into_owned();
            codes.extend(header(&text).0);
        }
    }
    codes
}

/// Codes that no small rule file can show, each with the test that shows it instead.
const NOT_IN_FIXTURES: &[(&str, &str)] = &[
    ("sow::syntax::too_large", "ten_megabyte_file_is_refused_unread"),
    ("sow::load::extends_too_deep", "a_chain_of_forty_files_is_refused"),
    (
        "sow::explore::seed_count",
        "the engine conserves seeds; nothing in the language can break that (tests/random_games.rs)",
    ),
    ("sow::run::bad_move", "tests/cli.rs"),
    ("sow::run::bad_position", "tests/cli.rs"),
    ("sow::run::illegal_move", "tests/cli.rs"),
    ("sow::run::unreadable", "tests/cli.rs"),
    ("sow::run::parameter_twice", "tests/cli.rs"),
    ("sow::output::unwritable", "tests/cli.rs"),
    ("sow::record::bad_record", "tests/play.rs"),
    ("sow::record::unreadable", "tests/play.rs"),
    ("sow::record::wrong_result", "tests/play.rs"),
    ("sow::record::rules_missing", "tests/records.rs"),
    ("sow::record::rules_changed", "tests/records.rs"),
    ("sow::conform::bad_trace", "sowlang conform (tests/conformance.rs)"),
    ("sow::conform::rules_rejected", "sowlang conform (tests/conformance.rs)"),
    ("sow::conform::unreadable", "sowlang conform (tests/conformance.rs)"),
    ("sow::analyze::threads", "sowlang analyze"),
    ("sow::analyze::unwritable", "sowlang analyze"),
    ("sow::solve::too_large", "sowlang solve"),
    ("sow::solve::too_long", "sowlang solve"),
    ("sow::solve::rules", "sowlang solve --method mtdf (tests/endgame.rs)"),
    ("sow::solve::endgame", "sowlang solve --endgame N (tests/endgame.rs)"),
    ("sow::solve::stopped", "sowlang solve, Ctrl-C while the endgame databases are built"),
    (
        "sow::solve::choices",
        "a game with more than 256 moves (with their choices) in one position",
    ),
    // `sowlang serve`: errors of the command and of the answers to the page (tests/serve.rs).
    ("sow::serve::unreadable", "tests/serve.rs"),
    ("sow::serve::no_games", "tests/serve.rs"),
    ("sow::serve::bind", "tests/serve.rs"),
    ("sow::serve::stopped", "sowlang serve, when the system refuses a thread or a socket"),
    ("sow::serve::not_found", "tests/serve.rs"),
    ("sow::serve::method", "tests/serve.rs"),
    ("sow::serve::host", "tests/serve.rs"),
    ("sow::serve::too_large", "tests/serve.rs"),
    ("sow::serve::origin", "tests/serve.rs"),
    ("sow::serve::timeout", "tests/serve.rs"),
    ("sow::serve::busy", "tests/serve.rs"),
    ("sow::serve::too_many_moves", "tests/serve.rs"),
    ("sow::serve::bad_request", "tests/serve.rs"),
    ("sow::serve::bad_path", "tests/serve.rs"),
    ("sow::serve::unknown_game", "tests/serve.rs"),
    ("sow::serve::broken_game", "tests/serve.rs"),
    ("sow::serve::bad_move", "tests/serve.rs"),
    ("sow::serve::illegal_move", "tests/serve.rs"),
    ("sow::serve::bad_player", "tests/serve.rs"),
    ("sow::serve::game_over", "tests/serve.rs"),
    (
        "sow::serve::no_move",
        "a position where the player to move has none and no rule ends the game",
    ),
    ("sow::serve::internal", "a bug in the server: a panic while answering"),
];

#[test]
fn codes_in_source_fixtures_and_docs_are_the_same_set() {
    let source = codes_in_source();
    let docs = codes_in_docs();
    let missing_docs: Vec<_> = source.difference(&docs).collect();
    let stale_docs: Vec<_> = docs.difference(&source).collect();
    assert!(
        missing_docs.is_empty() && stale_docs.is_empty(),
        "docs/diagnostics.md is out of date: undocumented {missing_docs:?}, documented but unused {stale_docs:?}"
    );
    let elsewhere: BTreeSet<String> = NOT_IN_FIXTURES.iter().map(|(c, _)| c.to_string()).collect();
    let want: BTreeSet<String> = source.difference(&elsewhere).cloned().collect();
    let fixtures = codes_in_fixtures();
    let without: Vec<_> = want.difference(&fixtures).collect();
    let unknown: Vec<_> = fixtures.difference(&source).collect();
    assert!(without.is_empty(), "codes with no fixture under tests/diagnostics/: {without:?}");
    assert!(unknown.is_empty(), "fixtures expect codes the source never uses: {unknown:?}");
}

#[test]
fn the_corpus_has_at_least_sixty_files() {
    let n: usize = ["syntax", "check", "explore"]
        .iter()
        .map(|s| {
            std::fs::read_dir(root().join("tests/diagnostics").join(s))
                .expect("fixtures")
                .count()
        })
        .sum();
    assert!(n >= 60, "only {n} broken files");
}

#[test]
fn ten_megabyte_file_is_refused_unread() {
    let dir = scratch("diagnostics", "huge");
    let path = dir.join("huge.sow");
    let line = "capture \"two\" { when last.count == 2 take last }\n";
    std::fs::write(&path, line.repeat(10 * 1024 * 1024 / line.len() + 1)).expect("write");
    let started = std::time::Instant::now();
    let failure = sowlang::load_game(&path, &[]).expect_err("refused");
    assert!(started.elapsed() < std::time::Duration::from_secs(5));
    let codes: Vec<&str> = failure.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["sow::syntax::too_large"]);
    let rendered = render(&failure.diagnostics, &failure.sources).replace(&dir.display().to_string(), "[TMP]");
    insta::assert_snapshot!(rendered);
}

#[test]
fn a_chain_of_forty_files_is_refused() {
    let dir = scratch("diagnostics", "chain");
    for i in 0..40 {
        std::fs::write(dir.join(format!("f{i}.sow")), format!("extends \"f{}.sow\"\n", i + 1)).expect("write");
    }
    std::fs::write(dir.join("f40.sow"), "game \"End\"\n").expect("write");
    let failure = sowlang::load_game(&dir.join("f0.sow"), &[]).expect_err("refused");
    let codes: Vec<&str> = failure.diagnostics.iter().map(|d| d.code).collect();
    assert_eq!(codes, ["sow::load::extends_too_deep"]);
    let rendered = render(&failure.diagnostics, &failure.sources).replace(&dir.display().to_string(), "[TMP]");
    insta::assert_snapshot!(rendered);
}

/// The advice for a match that goes round in circles across rounds works: with the bound it suggests
/// (`or round > 100`), the fixture explores clean under the same options (each round is two moves, so a
/// match of 100 rounds ends within the 300 moves explored), while an end rule on `repeated`, which it
/// already has, does not stop it.
#[test]
fn the_bound_suggested_for_a_circle_across_rounds_ends_the_match() {
    let rel = Path::new("tests/diagnostics/explore/round_in_circles_across_rounds.sow");
    let (sources, diags) = diagnose(rel, &[]);
    let help = diags[0].help.clone().unwrap_or_default();
    assert!(
        help.contains("`match ends when captured(south) > 5 or round > 100`"),
        "{}",
        render(&diags, &sources)
    );
    let dir = super::support::scratch("diagnostics", "bound");
    let bounded = dir.join("bounded.sow");
    let text = std::fs::read_to_string(rel).expect("fixture");
    std::fs::write(&bounded, text.replace("captured(south) > 5", "captured(south) > 5 or round > 100")).expect("write");
    let opts = sowlang::ExploreOptions {
        games: 20,
        seed: 0,
        max_moves: 300,
    };
    let explored = sowlang::explore_file(&bounded, &[], opts);
    assert!(
        explored.diagnostics.is_empty(),
        "{}",
        render(&explored.diagnostics, &explored.sources)
    );
}
