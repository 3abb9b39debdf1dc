//! The Python module `sowlang._sowlang` (cargo feature `python`; built by maturin from
//! `pyproject.toml`): games and states under OpenSpiel's names, for programs that learn to play.
//! A thin layer over the library: it holds no rules of its own.
//!
//! Actions are the engine's moves less one (`0..num_distinct_actions()`), the same for both players
//! (a move names a pit of the mover's). Games whose moves carry choices made during the move have no
//! fixed action space; for them `num_distinct_actions` and `legal_actions_mask` raise `ValueError`
//! and actions are the move codes `legal_actions()` lists.

use std::path::Path;
use std::sync::Arc;

use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;

use crate::engine::{Game, Outcome, Player, Position};

/// OpenSpiel's id of the player to move in a finished game.
const TERMINAL_PLAYER: i64 = -4;
/// Most moves of one random playout; a game still going then counts as unfinished.
const PLAYOUT_CAP: u32 = 10_000;

/// A loaded game (OpenSpiel's `Game`).
#[pyclass(name = "Game", module = "sowlang", frozen)]
struct PyGame {
    game: Arc<Game>,
}

/// A position of a game (OpenSpiel's `State`).
#[pyclass(name = "State", module = "sowlang")]
struct PyState {
    game: Arc<Game>,
    pos: Position,
}

fn player_id(p: Player) -> i64 {
    match p {
        Player::South => 0,
        Player::North => 1,
    }
}

impl PyGame {
    /// Actions are fixed per game only when no move carries choices made during it.
    fn fixed(&self) -> PyResult<usize> {
        fixed_actions(&self.game)
    }
}

fn fixed_actions(game: &Game) -> PyResult<usize> {
    if game.uses_choose {
        return Err(PyValueError::new_err(format!(
            "moves of {} carry choices made during the move, so it has no fixed action space: use the move codes legal_actions() lists",
            game.name
        )));
    }
    Ok(game.move_count())
}

#[pymethods]
impl PyGame {
    /// The game's name, from its `game` line.
    #[getter]
    fn name(&self) -> String {
        self.game.name.clone()
    }

    /// The start position (the rules' start, settled: a forced opening already played).
    fn new_initial_state(&self) -> PyState {
        let mut pos = self.game.initial(None);
        self.game.settle_start(&mut pos);
        PyState {
            game: Arc::clone(&self.game),
            pos,
        }
    }

    /// How many actions there are: every pit a player could play, times the ways to play it.
    fn num_distinct_actions(&self) -> PyResult<usize> {
        self.fixed()
    }

    /// Always 2.
    fn num_players(&self) -> usize {
        2
    }

    /// The length of `State.observation_tensor()`.
    fn observation_tensor_size(&self) -> usize {
        self.game.initial(None).board.cells.len() + 2
    }

    /// Plays `n` games of uniformly random moves from the start, at the engine's speed (the GIL is
    /// released meanwhile). Returns `{"south": wins, "north": wins, "draws": n, "unfinished": n,
    /// "moves": total moves}`.
    #[pyo3(signature = (n, seed = 0))]
    fn random_playouts(&self, py: Python<'_>, n: u64, seed: u64) -> PyResult<std::collections::HashMap<&'static str, u64>> {
        let game = Arc::clone(&self.game);
        let tally = py.allow_threads(move || {
            let mut rng = rand::rngs::SmallRng::seed_from_u64(seed);
            let mut start = game.initial(None);
            game.settle_start(&mut start);
            let mut t = [0u64; 5];
            for _ in 0..n {
                let mut pos = start.clone();
                let p = game.random_playout(&mut pos, &mut rng, PLAYOUT_CAP);
                t[4] += u64::from(p.plies);
                let i = match (pos.over, pos.winner) {
                    (true, Some(Outcome::South)) => 0,
                    (true, Some(Outcome::North)) => 1,
                    (true, _) => 2,
                    (false, _) => 3,
                };
                t[i] += 1;
            }
            t
        });
        Ok([
            ("south", tally[0]),
            ("north", tally[1]),
            ("draws", tally[2]),
            ("unfinished", tally[3]),
            ("moves", tally[4]),
        ]
        .into_iter()
        .collect())
    }

    fn __repr__(&self) -> String {
        format!("<sowlang.Game {:?}>", self.game.name)
    }
}

#[pymethods]
impl PyState {
    /// 0 (south) or 1 (north); -4 once the game is over, as in OpenSpiel.
    fn current_player(&self) -> i64 {
        if self.pos.over {
            TERMINAL_PLAYER
        } else {
            player_id(self.pos.to_move)
        }
    }

    /// The legal actions, in increasing order (none once the game is over).
    fn legal_actions(&self) -> Vec<usize> {
        if self.pos.over {
            return Vec::new();
        }
        self.game.legal_moves(&self.pos).into_iter().map(|k| k - 1).collect()
    }

    /// 1 for each legal action and 0 for the others, over the game's whole action space.
    fn legal_actions_mask(&self) -> PyResult<Vec<i64>> {
        let mut mask = vec![0i64; fixed_actions(&self.game)?];
        for a in self.legal_actions() {
            mask[a] = 1;
        }
        Ok(mask)
    }

    /// Plays an action; an illegal one raises `ValueError` and changes nothing.
    fn apply_action(&mut self, action: usize) -> PyResult<()> {
        if self.pos.over {
            return Err(PyValueError::new_err("the game is over: no action can be applied"));
        }
        let k = action + 1;
        if !self.game.legal_moves(&self.pos).contains(&k) {
            return Err(PyValueError::new_err(format!(
                "action {action} is not legal here; legal actions: {:?}",
                self.legal_actions()
            )));
        }
        self.game
            .apply(&mut self.pos, k)
            .map_err(|e| PyRuntimeError::new_err(format!("action {action}: {e:?}")))
    }

    /// The game is over.
    fn is_terminal(&self) -> bool {
        self.pos.over
    }

    /// +1 for the winner, -1 for the loser, 0 each for a draw or a game still going.
    fn returns(&self) -> [f64; 2] {
        match (self.pos.over, self.pos.winner) {
            (true, Some(Outcome::South)) => [1.0, -1.0],
            (true, Some(Outcome::North)) => [-1.0, 1.0],
            _ => [0.0, 0.0],
        }
    }

    /// Seeds in each cell (pits in the engine's order, then south's and north's store), each divided
    /// by all the seeds of the game, then who is to move (1, 0 for south; 0, 1 for north).
    fn observation_tensor(&self) -> Vec<f32> {
        let total = self.game.seed_total(&self.pos).max(1) as f32;
        let mut t: Vec<f32> = self.pos.board.cells.iter().map(|&c| c as f32 / total).collect();
        let south = f32::from(u8::from(self.pos.to_move == Player::South));
        t.extend([south, 1.0 - south]);
        t
    }

    /// The move an action plays, as the command line names it (`3`, `a5L`).
    fn action_to_string(&self, action: usize) -> String {
        self.game.name_move(&self.pos, action + 1)
    }

    /// A copy that plays on independently.
    fn clone(&self) -> PyState {
        PyState {
            game: Arc::clone(&self.game),
            pos: self.pos.clone(),
        }
    }

    /// The position as JSON text (the format of `sowlang run --json`).
    fn to_json(&self) -> String {
        serde_json::to_string(&crate::position::to_json(&self.game, &self.pos)).expect("positions serialize")
    }

    /// Moves played so far.
    fn move_number(&self) -> u32 {
        self.pos.ply
    }

    fn __str__(&self) -> String {
        crate::cli::board_text(&self.game, &self.pos)
    }
}

/// Loads a game: the name of a shipped game (`"oware"`), a path to a rule file, or the text of rules.
#[pyfunction]
#[pyo3(signature = (rules, **params))]
fn load(rules: &str, params: Option<&Bound<'_, pyo3::types::PyDict>>) -> PyResult<PyGame> {
    let mut overrides = Vec::new();
    if let Some(params) = params {
        for (k, v) in params.iter() {
            overrides.push(crate::Override {
                name: k.extract()?,
                value: v.extract()?,
            });
        }
    }
    let is_text = rules.contains('\n') || rules.trim_start().starts_with("game ") || rules.contains("board {");
    let loaded = if is_text {
        crate::load_text(Path::new("rules.sow"), rules, &overrides)
    } else {
        crate::load_game(Path::new(rules), &overrides)
    };
    match loaded {
        Ok(l) => Ok(PyGame { game: Arc::new(l.game) }),
        Err(f) => {
            let text: Vec<String> = f.diagnostics.iter().map(|d| d.render(&f.sources, false)).collect();
            Err(PyValueError::new_err(text.join("\n")))
        }
    }
}

/// The names of the games built into sowlang.
#[pyfunction]
fn shipped_games() -> Vec<&'static str> {
    crate::shipped::all().map(|s| s.name()).collect()
}

/// Runs the `sowlang` command line with these arguments (without the program's name); returns the
/// exit code. The `sowlang` command the package installs is this.
#[pyfunction]
fn run_cli(py: Python<'_>, args: Vec<String>) -> u8 {
    py.allow_threads(move || crate::cli::main_with(std::iter::once("sowlang".to_string()).chain(args)))
}

/// The Rust half of the `sowlang` Python package.
#[pymodule]
fn _sowlang(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyGame>()?;
    m.add_class::<PyState>()?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(shipped_games, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    Ok(())
}
