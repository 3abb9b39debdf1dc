//! What several test modules share.

use std::path::{Path, PathBuf};

/// Every shipped rule file: `variants/*.sow` and `variants/reference/*.sow`, sorted.
pub fn shipped() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("variants");
    let mut files = Vec::new();
    for dir in [root.clone(), root.join("reference")] {
        for entry in std::fs::read_dir(&dir).expect("variants dir") {
            let path = entry.expect("entry").path();
            if path.extension().is_some_and(|e| e == "sow") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The repository's root.
pub fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

/// A fresh scratch directory for one test, named after the test module (`prefix`) and the test. The
/// process id is padded so that the path, and so how a diagnostic quoting it wraps, has the same length
/// in every run. The directory is removed when the returned guard is dropped (a failing test's too:
/// the next run makes it afresh), so runs do not pile directories up in the system's temp dir.
pub fn scratch(prefix: &str, name: &str) -> Scratch {
    let dir = std::env::temp_dir().join(format!("sowlang-{prefix}-{:010}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    Scratch(dir)
}

/// A test's scratch directory, removed with everything in it when dropped: keep it bound for as long as
/// the test uses the files in it.
#[must_use = "the directory is removed as soon as the guard is dropped"]
pub struct Scratch(PathBuf);

impl std::ops::Deref for Scratch {
    type Target = Path;
    fn deref(&self) -> &Path {
        &self.0
    }
}

impl AsRef<Path> for Scratch {
    fn as_ref(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

/// A game written in a test (an invented board), compiled; a file that does not check fails the test
/// with its diagnostics.
pub fn invented(text: &str) -> sowlang::Game {
    sowlang::load_text(Path::new("invented.sow"), text, &[])
        .unwrap_or_else(|f| {
            let msgs: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
            panic!("the invented game does not check:\n{}", msgs.join("\n"))
        })
        .game
}

/// The position after `moves` from the start of `game` (each must be legal).
pub fn played(game: &sowlang::Game, moves: &[usize]) -> sowlang::Position {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    for &k in moves {
        game.apply(&mut pos, k).expect("a legal move");
    }
    pos
}

/// A position as the position JSON shows it.
pub fn json_of(game: &sowlang::Game, pos: &sowlang::Position) -> serde_json::Value {
    game.position_to_json(pos)
}

/// The position JSON after `moves` from the start.
pub fn after(game: &sowlang::Game, moves: &[usize]) -> serde_json::Value {
    json_of(game, &played(game, moves))
}

/// Plays `moves` as the players write them (choices included, `a3R:cw`) from the start.
pub fn play_named(game: &sowlang::Game, moves: &[&str]) -> sowlang::Position {
    let mut pos = game.initial(None);
    game.settle_start(&mut pos);
    for text in moves {
        let k = game.read_move(&pos, text).unwrap_or_else(|| panic!("{text} names a move"));
        game.apply(&mut pos, k).unwrap_or_else(|e| panic!("{text}: {e}"));
    }
    pos
}

/// The legal moves of `pos` as the players write them.
pub fn move_names(game: &sowlang::Game, pos: &sowlang::Position) -> Vec<String> {
    game.legal_moves(pos).into_iter().map(|k| game.name_move(pos, k)).collect()
}

/// What a run of the command printed, and how it ended.
pub struct Run {
    pub code: i32,
    pub stdout: String,
    pub stderr: String,
}

/// Runs sowlang in `dir` with `input` piped to it.
pub fn sowlang_in(dir: &Path, args: &[&str], input: &[u8]) -> Run {
    use std::io::Write;
    use std::process::{Command, Stdio};
    let mut child = Command::new(env!("CARGO_BIN_EXE_sowlang"))
        .env("SOWLANG_DATABASES", no_databases())
        .args(args)
        .current_dir(dir)
        .env("NO_COLOR", "1")
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sowlang");
    // A command that stops before reading its input (a refused record) closes the pipe: not an error.
    let _ = child.stdin.take().expect("stdin").write_all(input);
    let out = child.wait_with_output().expect("sowlang ends");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// A databases folder that does not exist, for every `sowlang` a test runs: what a test sees must
/// not depend on the endgame databases a user has built (reading never creates the folder).
pub fn no_databases() -> std::path::PathBuf {
    std::env::temp_dir().join("sowlang-tests-no-databases")
}

/// `--set pits=P --set seeds=S`.
pub fn board_sets(pits: i64, seeds: i64) -> [sowlang::Override; 2] {
    [("pits", pits), ("seeds", seeds)].map(|(name, value)| sowlang::Override { name: name.into(), value })
}

/// Invented games under a feeding penalty, whose positions a fast form hands to the general engine
/// (issue 25): end rules, two sowings, and the game text they make on a board of `pits` pits of
/// `seeds` seeds.
pub mod penalty {
    /// The penalty, with an end rule the fast form reads only in part (`not can_feed`).
    pub const CANNOT_FEED: &str = r#"
        feeding penalty remaining to opponent
        end "cannot feed" when seeds(other(to_move)) == 0 and not can_feed remaining owner
        end "no seeds to play" when no_moves remaining owner"#;
    /// The penalty alone: a player whose opponent has no seeds moves on.
    pub const ALONE: &str = r#"
        feeding penalty remaining to opponent
        end "no seeds to play" when no_moves remaining owner"#;
    pub const ONE_LAP: &str = r#"sow { direction ccw skip origin }
        capture "two or three" { when last.side == opponent and last.count in 2..3  take last }"#;
    /// Relays, whose fast form draws the next move ahead of time, but not a move handed over.
    pub const RELAY: &str = r#"sow { direction ccw skip origin relay when last.before > 0 }
        capture "across" { when last.side == mover and last.before == 0 and opposite(last).count > 0  take opposite(last) }"#;

    pub fn game(pits: usize, seeds: u32, sowing: &str, rules: &str) -> String {
        format!(r#"game "penalty" board {{ pits {pits} seeds {seeds} stores captures }} first south {sowing} {rules}"#)
    }
}
