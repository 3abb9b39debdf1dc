//! The library's public surface beyond loading: read access to a [`Position`], the position JSON
//! of `docs/cli.md` on a [`Game`], and checking rule files for a tool. Everything here is a thin
//! layer over the stages, which stay private to the crate; `docs/library.md` describes the whole.

use std::path::Path;

use crate::diagnostic::{Diagnostic, Sources};
use crate::engine::{Game, History, Outcome, Player, Position};
use crate::{ExploreOptions, LoadFailure, Override, Shipped};

/// Read access to a position: a program changes one only by [`Game::apply`], or makes one from the
/// position JSON ([`Game::position_from_json`]).
impl Position {
    /// Whose turn it is.
    pub fn to_move(&self) -> Player {
        self.to_move
    }

    /// Moves played so far (0 before the first).
    pub fn ply(&self) -> u32 {
        self.ply
    }

    /// The round (1 for the first; always 1 in a game without rounds).
    pub fn round(&self) -> u32 {
        self.round
    }

    /// Moves played in the current round.
    pub fn round_ply(&self) -> u32 {
        self.ply - self.round_start
    }

    /// Rounds won, south's then north's.
    pub fn rounds_won(&self) -> [u32; 2] {
        self.rounds_won
    }

    /// The player who began the game.
    pub fn starter(&self) -> Player {
        self.starter
    }

    /// The player who opened the current round (the starter in the first).
    pub fn opener(&self) -> Player {
        self.opener
    }

    /// Is the game over?
    pub fn is_over(&self) -> bool {
        self.over
    }

    /// Who won, once the game is over (`None` while it goes on).
    pub fn winner(&self) -> Option<Outcome> {
        self.winner
    }

    /// The name of the rule that ended the game, once over.
    pub fn ended_by(&self) -> Option<&str> {
        self.ended_by.as_deref()
    }

    /// The seeds of every cell: the pits, then south's store and north's. The pits run as the
    /// position JSON lists them: south's (front row first, each row from pit 1), north's, then the
    /// shared pits; [`Game::cell`] finds a player's pit and [`Game::describe`] names a cell.
    pub fn seeds(&self) -> &[u32] {
        &self.board.cells
    }

    /// The player who claimed each pit (`None`: nobody did), in the order of [`Position::seeds`].
    pub fn claimed(&self) -> &[Option<Player>] {
        &self.board.claimed
    }

    /// Which pits are out of play, in the order of [`Position::seeds`].
    pub fn closed(&self) -> &[bool] {
        &self.board.closed
    }

    /// The identities ([`Game::hash`]) of the positions of this round so far, the current one last;
    /// kept only in a game whose rules ask whether a position `repeated` (else empty).
    pub fn history(&self) -> &History {
        &self.history
    }
}

/// What a program asks of a game besides playing it: its name and board, and the position JSON.
impl Game {
    /// The game's name, as its `game` line writes it.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Every pit of the board: both players' and the shared ones (the cells before the stores in
    /// [`Position::seeds`]).
    pub fn pit_count(&self) -> usize {
        self.geometry.pit_count()
    }

    /// Do the rules ask whether a position `repeated`? Only then do positions keep their
    /// [`Position::history`], and a search must tell apart two positions alike but for their past.
    pub fn keeps_history(&self) -> bool {
        self.uses_repeated
    }

    /// Pits per row.
    pub fn columns(&self) -> usize {
        self.columns
    }

    /// Rows per player.
    pub fn rows(&self) -> usize {
        self.rows
    }

    /// The pits of one player (rows × columns).
    pub fn pits_per_player(&self) -> usize {
        self.side_pits()
    }

    /// The pits that belong to nobody (a middle row, a ring's shared pits).
    pub fn shared_pit_count(&self) -> usize {
        self.shared
    }

    /// Every seed of the game.
    pub fn total_seeds(&self) -> u32 {
        self.total
    }

    /// The index in [`Position::seeds`] of a player's pit `k` (1-based, numbered as the player's
    /// moves are: the front row first; past the player's own pits, the shared ones). The
    /// [`Cell`](crate::Cell) of an [`Event`](crate::Event) is such an index too (`usize::from(cell)`).
    pub fn cell(&self, p: Player, k: usize) -> usize {
        usize::from(self.pit(p, k))
    }

    /// The index in [`Position::seeds`] of a player's store.
    pub fn store_cell(&self, p: Player) -> usize {
        usize::from(self.store(p))
    }

    /// The part of move `m` that names its pit and direction, without the answers to the choices the
    /// move meets (the move itself in a game without such choices): a move of [`Game::playable_pits`].
    pub fn move_pit(&self, m: usize) -> usize {
        crate::engine::move_base(m)
    }

    /// The moves of the player to move as pits (and directions) they may start from, a pass aside,
    /// found without trying every answer of a move with choices: what a board marks as playable,
    /// much quicker than [`Game::legal_moves`] in a game whose moves carry choices.
    pub fn playable_pits(&self, pos: &Position) -> Vec<usize> {
        self.legal_set(pos).iter().filter(|&k| !self.is_pass(k)).collect()
    }

    /// The position as the position JSON of `docs/cli.md` writes it, with `over`, `winner` and the
    /// legal moves.
    pub fn position_to_json(&self, pos: &Position) -> serde_json::Value {
        serde_json::to_value(crate::position::to_json(self, pos)).expect("a position serialises")
    }

    /// Reads a position in the position JSON of `docs/cli.md`; a diagnostic says what is wrong.
    /// Call [`Game::settle_start`] on it before playing, as `run --from` does.
    pub fn position_from_json(&self, text: &str) -> Result<Position, Diagnostic> {
        crate::position::from_json(self, text)
    }

    /// The board as the command line draws it, south at the bottom.
    #[cfg(feature = "cli")]
    pub fn board_text(&self, pos: &Position) -> String {
        crate::cli::board_text(self, pos)
    }
}

/// What checking a rule file found: every diagnostic (errors and warnings) with the files read, to
/// render them as `sowlang check` does.
#[derive(Debug, Clone)]
pub struct Report {
    /// Every file read (the rule file and those it `extends`).
    pub sources: Sources,
    /// Errors and warnings, in the order found.
    pub diagnostics: Vec<Diagnostic>,
}

impl Report {
    fn of(loaded: Result<crate::Loaded, LoadFailure>) -> Report {
        match loaded {
            Ok(l) => Report {
                sources: l.sources,
                diagnostics: l.warnings,
            },
            Err(f) => Report {
                sources: f.sources,
                diagnostics: f.diagnostics,
            },
        }
    }

    /// Did the checks find an error (the file does not load)?
    pub fn has_errors(&self) -> bool {
        self.diagnostics.iter().any(Diagnostic::is_error)
    }

    /// Every diagnostic as `sowlang check` prints it (with `color`, the terminal's colours).
    pub fn render(&self, color: bool) -> String {
        self.diagnostics.iter().map(|d| d.render(&self.sources, color)).collect()
    }

    /// The report as `sowlang check --format json` prints it: `{"diagnostics": [...]}`, each as
    /// docs/diagnostics.md describes.
    pub fn to_json(&self) -> serde_json::Value {
        let all: Vec<_> = self.diagnostics.iter().map(|d| d.to_json(&self.sources)).collect();
        serde_json::json!({ "diagnostics": all })
    }
}

/// Checks a rule file (a path, or a shipped game's name) as `sowlang check` does.
pub fn check_file(path: &Path, overrides: &[Override]) -> Report {
    Report::of(crate::load_game(path, overrides))
}

/// Checks a rule text as `sowlang check` checks a file; `name` is used in messages and to resolve
/// `extends`.
pub fn check_text(name: &Path, text: &str, overrides: &[Override]) -> Report {
    Report::of(crate::load_text(name, text, overrides))
}

/// Checks a rule file and, when it loads, plays random games of it, as `sowlang check --explore`
/// does: the static warnings, then what play found (a sowing that never ends, a player left without
/// a move, a game that does not end, ...).
pub fn explore_file(path: &Path, overrides: &[Override], options: ExploreOptions) -> Report {
    match crate::explore::run(path, overrides, options) {
        Ok(e) => Report {
            sources: e.sources,
            diagnostics: e.diagnostics,
        },
        Err(f) => Report::of(Err(f)),
    }
}

/// A parameter of a rule file (`param pits = 6 in 3..8`): what `--set NAME=VALUE` may change.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Parameter {
    /// Its name.
    pub name: String,
    /// Its value when not set.
    pub default: i64,
    /// The smallest and largest values allowed, when the file gives a range.
    pub range: Option<(i64, i64)>,
    /// The only values allowed, when the file lists them (empty: any in the range).
    pub values: Vec<i64>,
}

/// The parameters of a rule file (a path or a shipped game's name) and of the files it `extends`,
/// in the order read; the problems when it cannot be read or parsed.
pub fn parameters(path: &Path) -> Result<Vec<Parameter>, LoadFailure> {
    let mut sources = Sources::default();
    let program = match crate::check::load(path, &mut sources) {
        Ok(p) => p,
        Err(diagnostics) => return Err(LoadFailure { sources, diagnostics }),
    };
    let mut out = Vec::new();
    for item in &program.items {
        if let crate::syntax::ast::ItemKind::Param {
            name,
            default,
            range,
            values,
            ..
        } = &item.kind
        {
            out.push(Parameter {
                name: name.node.clone(),
                default: default.node,
                range: range.as_ref().map(|(lo, hi)| (lo.node, hi.node)),
                values: values.as_ref().map_or_else(Vec::new, |v| v.node.iter().map(|n| n.node).collect()),
            });
        }
    }
    Ok(out)
}

/// The rules of a game as a sheet to read aloud or print, made from the rules themselves (what
/// `sowlang explain` writes; cargo feature `cli`).
#[cfg(feature = "cli")]
#[derive(Debug, Clone)]
pub struct RuleSheet {
    markdown: String,
    html: String,
    rules: Vec<String>,
}

#[cfg(feature = "cli")]
impl RuleSheet {
    /// The sheet in Markdown.
    pub fn markdown(&self) -> &str {
        &self.markdown
    }

    /// The sheet as an HTML fragment (an `<article>`).
    pub fn html(&self) -> &str {
        &self.html
    }

    /// The names of the game's named rules (captures, triggers, forbids, phases, moments, ends), in
    /// the file's order: each is told on the sheet in bold.
    pub fn rule_names(&self) -> &[String] {
        &self.rules
    }

    fn of(
        program: Result<crate::check::Program, Vec<Diagnostic>>,
        mut sources: Sources,
        overrides: &[Override],
    ) -> Result<RuleSheet, LoadFailure> {
        let checked = program.and_then(|p| crate::check::check(p, overrides));
        match checked {
            Ok(checked) => {
                let game = crate::compile::compile(&checked);
                let sheet = crate::cli::explain::explain(&checked, &game, &sources);
                Ok(RuleSheet {
                    markdown: sheet.markdown(),
                    html: sheet.html(),
                    rules: crate::cli::explain::rule_names(&checked),
                })
            }
            Err(diagnostics) => Err(LoadFailure {
                sources: std::mem::take(&mut sources),
                diagnostics,
            }),
        }
    }
}

/// The rule sheet of a rule file (a path, or a shipped game's name), as `sowlang explain` writes it.
#[cfg(feature = "cli")]
pub fn rule_sheet(path: &Path, overrides: &[Override]) -> Result<RuleSheet, LoadFailure> {
    let mut sources = Sources::default();
    let program = crate::check::load(path, &mut sources);
    RuleSheet::of(program, sources, overrides)
}

/// The rule sheet of a rule text; `name` is used in messages and to resolve `extends`.
#[cfg(feature = "cli")]
pub fn rule_sheet_text(name: &Path, text: &str, overrides: &[Override]) -> Result<RuleSheet, LoadFailure> {
    let mut sources = Sources::default();
    let program = crate::check::load_text(name, text.to_string(), &mut sources);
    RuleSheet::of(program, sources, overrides)
}

/// The games built into sowlang, sorted by path: [`crate::load_game`] takes any of them by its
/// name ([`Shipped::name`]) when no file of that name is on disk.
pub fn shipped_games() -> impl Iterator<Item = Shipped> {
    crate::shipped::all()
}
