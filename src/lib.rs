//! sowlang: a language, validator and interpreter for mancala-family sowing games.
//!
//! The pipeline has four stages, each using only the one before it: [`syntax`] parses a `.sow` file
//! into a syntax tree with spans; [`check`] resolves `extends`, names and types and returns every
//! problem as a [`diagnostic::Diagnostic`]; [`compile`] turns a checked program into the engine's
//! [`Game`]; [`engine`] plays it: legal moves, sowing, captures, the end of the game. The CLI in
//! [`cli`] is a thin layer on top, and [`position`] reads and writes the position JSON of
//! `docs/cli.md`.
//!
//! ```no_run
//! let loaded = sowlang::load_game(std::path::Path::new("variants/oware.sow"), &[]).unwrap();
//! let game = &loaded.game;
//! let mut pos = game.initial(None);
//! while !pos.over && !game.legal_moves(&pos).is_empty() {
//!     let pit = game.legal_moves(&pos)[0];
//!     game.apply(&mut pos, pit).unwrap();
//! }
//! println!("{:?}", pos.winner);
//! ```
#![warn(missing_docs)]

pub mod board;
pub mod check;
// The command line and the browser board (cargo feature `cli`, on by default).
#[cfg(feature = "cli")]
pub mod cli;
pub mod compile;
pub mod conform;
pub mod diagnostic;
pub mod engine;
pub mod explore;
pub mod players;
pub mod position;
// The Python module (`import sowlang`), with the cargo feature `python`.
#[cfg(feature = "python")]
mod python;
// Computer players' searches: alpha-beta, MCTS, exact solving of small boards.
pub mod search;
pub mod shipped;
pub mod syntax;

use std::path::Path;

pub use check::Override;
use diagnostic::{Diagnostic, Sources};
pub use engine::{Game, History, Outcome, Player, Position};

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
