//! sowlang: a language, validator and interpreter for mancala-family sowing games.
//!
//! A program loads a rule file (a `.sow` file on disk, a rule text, or a game shipped inside sowlang
//! by its name) into a [`Game`], and plays it on [`Position`]s: the legal moves, a move applied, whose
//! turn it is, the outcome. Moves are numbers as [`Game::legal_moves`] lists them, written and read as
//! the command line writes them ([`Game::name_move`], [`Game::read_move`]). A position reads and writes
//! the position JSON of `docs/cli.md`. The computer players are in [`players`], exact solving and the
//! endgame databases in [`search`]; a tool that checks rule files gets every diagnostic from
//! [`check_file`] or [`check_text`]. `docs/library.md` walks through all of it.
//!
//! Inside, a rule file goes through four stages (parse, check, compile, play) that are private to
//! the crate: only what is named here is promised.
//!
//! ```
//! let loaded = sowlang::load_game(std::path::Path::new("oware"), &[]).unwrap();
//! let game = &loaded.game;
//! let mut pos = game.initial(None);
//! while !pos.is_over() {
//!     let first = game.legal_moves(&pos)[0];
//!     game.apply(&mut pos, first).unwrap();
//! }
//! println!("{:?} after {} moves", pos.winner(), pos.ply());
//! ```
#![warn(missing_docs)]
// A few parts of the rule model are read only by the command line (the chooser's `level`, the move a
// typed text may have meant): the engine-only build leaves them unread.
#![cfg_attr(not(feature = "cli"), allow(dead_code))]

mod api;
pub(crate) mod board;
pub(crate) mod check;
// The command line and the browser board (cargo feature `cli`, on by default).
#[cfg(feature = "cli")]
pub(crate) mod cli;
pub(crate) mod compile;
pub mod conform;
pub(crate) mod diagnostic;
pub(crate) mod engine;
pub(crate) mod explore;
pub(crate) mod keys;
pub mod players;
pub(crate) mod position;
// The Python module (`import sowlang`), with the cargo feature `python`.
#[cfg(feature = "python")]
mod python;
// Computer players' searches: alpha-beta, MCTS, exact solving of small boards.
pub mod search;
pub(crate) mod shipped;
pub(crate) mod syntax;

use std::path::Path;

pub use api::{Parameter, Report, check_file, check_text, explore_file, parameters, shipped_games};
#[cfg(feature = "cli")]
pub use api::{RuleSheet, rule_sheet, rule_sheet_text};
pub use board::{Cell, Outcome, Player};
pub use check::Override;
pub use diagnostic::{Diagnostic, FileId, Label, Severity, Sources, Span};
pub use engine::{Event, Game, History, MoveError, Passed, Playout, Position};
pub use explore::Options as ExploreOptions;
pub use position::Sides;
pub use shipped::Shipped;

/// For fuzzing only, not part of the promised surface: the laps the trial sowings of listings of
/// moves with choices have sown on this thread so far (`fuzz/harness.rs` bounds a game's work by it).
#[doc(hidden)]
pub fn trial_laps() -> u64 {
    engine::trial_laps()
}

/// Runs the `sowlang` command with the program's arguments and returns its exit code: what the
/// binary's `main` calls (cargo feature `cli`).
#[cfg(feature = "cli")]
pub fn cli_main() -> std::process::ExitCode {
    cli::main()
}

// The example of docs/library.md runs as a doctest: the page stays true, and a public item it uses
// cannot disappear unnoticed.
#[doc = include_str!("../docs/library.md")]
#[cfg(doctest)]
pub struct LibraryDoc;

/// A game loaded from a rule file, with the sources read (for diagnostics) and any warnings.
#[derive(Debug, Clone)]
pub struct Loaded {
    /// The compiled game.
    pub game: Game,
    /// Every file read.
    pub sources: Sources,
    /// Warnings from the checks.
    pub warnings: Vec<Diagnostic>,
}

/// A rule file that could not be loaded.
#[derive(Debug, Clone)]
pub struct LoadFailure {
    /// Every file read.
    pub sources: Sources,
    /// What is wrong.
    pub diagnostics: Vec<Diagnostic>,
}

impl std::fmt::Display for LoadFailure {
    /// Every diagnostic as `sowlang check` prints it, without colour.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for d in &self.diagnostics {
            f.write_str(&d.render(&self.sources, false))?;
        }
        Ok(())
    }
}

/// A program can pass a failed load on with `?` as any other error.
impl std::error::Error for LoadFailure {}

/// Reads, checks and compiles a rule file with parameter overrides.
pub fn load_game(path: &Path, overrides: &[Override]) -> Result<Loaded, LoadFailure> {
    let mut sources = Sources::default();
    let program = match check::load(path, &mut sources) {
        Ok(p) => p,
        Err(diagnostics) => return Err(LoadFailure { sources, diagnostics }),
    };
    match check::check(program, overrides) {
        Ok(checked) => Ok(Loaded {
            game: engine::prepare(compile::compile(&checked)),
            warnings: checked.warnings.clone(),
            sources,
        }),
        Err(diagnostics) => Err(LoadFailure { sources, diagnostics }),
    }
}

/// Checks a rule file given as text (for tests and editors); `name` is used in messages and to
/// resolve `extends`.
pub fn load_text(name: &Path, text: &str, overrides: &[Override]) -> Result<Loaded, LoadFailure> {
    let mut sources = Sources::default();
    let program = match check::load_text(name, text.to_string(), &mut sources) {
        Ok(p) => p,
        Err(diagnostics) => return Err(LoadFailure { sources, diagnostics }),
    };
    match check::check(program, overrides) {
        Ok(checked) => Ok(Loaded {
            game: engine::prepare(compile::compile(&checked)),
            warnings: checked.warnings.clone(),
            sources,
        }),
        Err(diagnostics) => Err(LoadFailure { sources, diagnostics }),
    }
}

/// The game of a rule text written in a unit test; panics with the diagnostics when it does not load.
#[cfg(test)]
pub(crate) fn test_game(text: &str) -> compile::ir::Game {
    load_text(Path::new("test.sow"), text, &[])
        .unwrap_or_else(|f| panic!("test rules load: {:?}", f.diagnostics))
        .game
}
