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

use numpy::{PyArray1, PyArrayMethods};
use pyo3::exceptions::{PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use rand::SeedableRng;
use rand::rngs::StdRng;

use crate::engine::{Game, Outcome, Player, Position};
use crate::players::{self, Spec};
use crate::search::solve::{self, Limits, Refusal, Watch};

pyo3::create_exception!(
    sowlang,
    SolveRefused,
    PyValueError,
    "The board cannot be solved here: too many positions for this machine's memory, or not within the time given."
);

/// How long the solver searches before it judges, from how fast its table grows, whether the
/// board can fit in memory at all: long enough for the projection to mean something, short enough
/// that a board far too large is refused at once rather than after the memory is gone.
const PROJECT_AFTER: std::time::Duration = std::time::Duration::from_secs(2);

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

    /// `state`, the `i`th of a batch, is a state of this game (another game's would not fit its rows).
    fn same_game(&self, state: &PyState, i: usize) -> PyResult<()> {
        if Arc::ptr_eq(&self.game, &state.game) {
            Ok(())
        } else {
            Err(PyValueError::new_err(format!(
                "state {i} is a state of {:?}, not of this game ({:?})",
                state.game.name, self.game.name
            )))
        }
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

    /// The observation tensors of `states` (states of this game) as the rows of one `float32` array
    /// of shape `(len(states), observation_tensor_size())`: one vector filled by the engine and
    /// handed to numpy without a copy, for a batch of environments.
    fn observation_tensors<'py>(&self, py: Python<'py>, states: Vec<PyRef<'py, PyState>>) -> PyResult<Bound<'py, numpy::PyArray2<f32>>> {
        let width = self.observation_tensor_size();
        let mut all = Vec::with_capacity(states.len() * width);
        for (i, s) in states.iter().enumerate() {
            self.same_game(s, i)?;
            all.extend(observation(&s.game, &s.pos));
        }
        PyArray1::from_vec(py, all).reshape([states.len(), width])
    }

    /// The legal-action masks of `states` (states of this game) as the rows of one `int8` array of
    /// shape `(len(states), num_distinct_actions())`, made without a copy as `observation_tensors`.
    fn legal_actions_masks<'py>(&self, py: Python<'py>, states: Vec<PyRef<'py, PyState>>) -> PyResult<Bound<'py, numpy::PyArray2<i8>>> {
        let width = self.fixed()?;
        let mut all = vec![0i8; states.len() * width];
        for (i, s) in states.iter().enumerate() {
            self.same_game(s, i)?;
            for a in s.legal_actions() {
                all[i * width + a] = 1;
            }
        }
        PyArray1::from_vec(py, all).reshape([states.len(), width])
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

    /// 1 for each legal action and 0 for the others, over the game's whole action space: a numpy
    /// array of `int8` that owns the vector the engine filled (no copy).
    fn legal_actions_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyArray1<i8>>> {
        let mut mask = vec![0i8; fixed_actions(&self.game)?];
        for a in self.legal_actions() {
            mask[a] = 1;
        }
        Ok(PyArray1::from_vec(py, mask))
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
    /// by all the seeds of the game, then who is to move (1, 0 for south; 0, 1 for north): a numpy
    /// array of `float32` that owns the vector it was computed into (no copy).
    fn observation_tensor<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<f32>> {
        PyArray1::from_vec(py, observation(&self.game, &self.pos))
    }

    /// Writes `observation_tensor()` into `out`, a writable one-dimensional `float32` numpy array of
    /// `observation_tensor_size()` (a row of a batch, say), with no array made.
    fn write_observation_tensor(&self, out: &Bound<'_, PyArray1<f32>>) -> PyResult<()> {
        let mut out = out
            .try_readwrite()
            .map_err(|e| PyValueError::new_err(format!("cannot write into the array: {e}")))?;
        let out = out
            .as_slice_mut()
            .map_err(|_| PyValueError::new_err("the array must be contiguous"))?;
        let t = observation(&self.game, &self.pos);
        if out.len() != t.len() {
            return Err(PyValueError::new_err(format!(
                "the array holds {} numbers, the observation {}",
                out.len(),
                t.len()
            )));
        }
        out.copy_from_slice(&t);
        Ok(())
    }

    /// The action a computer player chooses here, the player named as on the command line
    /// (`random`, `greedy`, `alphabeta:3`, `alphabeta:500ms`, `mcts:2000`, `mcts:1s`). Its random
    /// choices (ties, playouts) are drawn from `seed`, so the same seed gives the same action unless
    /// the player thinks for a time. Python's lock is released while it thinks.
    #[pyo3(signature = (player, seed = 0))]
    fn computer_action(&self, py: Python<'_>, player: &str, seed: u64) -> PyResult<usize> {
        let spec: Spec = player.parse().map_err(PyValueError::new_err)?;
        if self.pos.over {
            return Err(PyValueError::new_err("the game is over: there is no action to choose"));
        }
        let game = Arc::clone(&self.game);
        let pos = self.pos.clone();
        let choice = py.allow_threads(move || players::choose(&game, &pos, spec, false, &mut StdRng::seed_from_u64(seed)));
        match choice {
            Some(c) => Ok(c.pit - 1),
            None => Err(PyValueError::new_err("the player to move has no legal action")),
        }
    }

    /// The exact value of this position with best play by both sides, for small boards: a dict with
    /// `value` (`"win"`, `"draw"` or `"loss"` for the player to move), `margin` (that player's final
    /// seed difference), `player` (who is to move), `actions` (each legal action's value and margin
    /// for the player to move, as a dict of pairs) and `best` (the actions that keep that margin).
    /// A board too large for this machine's memory raises `SolveRefused`, at once when its positions
    /// cannot fit, after a few seconds when the search is on course to outgrow memory; so does a
    /// search still going after `max_seconds`. Python's lock is released meanwhile.
    #[pyo3(signature = (max_seconds = None, max_positions = None))]
    fn solve<'py>(
        &self,
        py: Python<'py>,
        max_seconds: Option<f64>,
        max_positions: Option<u64>,
    ) -> PyResult<Bound<'py, pyo3::types::PyDict>> {
        if self.pos.over {
            return Err(PyValueError::new_err("the game is over: there is nothing to solve"));
        }
        let deadline = match max_seconds {
            Some(t) if t.is_finite() && t > 0.0 && t <= 3.2e7 => Some(std::time::Instant::now() + std::time::Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "max_seconds must be above 0 and at most a year, not {t}"
                )));
            }
            None => None,
        };
        let mut limits = Limits::from_memory();
        if let Some(m) = max_positions {
            limits.max_positions = m.max(1);
        }
        let game = Arc::clone(&self.game);
        let pos = self.pos.clone();
        let solved = py.allow_threads(move || {
            let watch = Watch {
                report: &|_| {},
                deadline,
                project_after: Some(PROJECT_AFTER),
            };
            solve::solve_watched(&game, &pos, limits, solve::Keys::Component, &watch)
        });
        let s = solved.map_err(|r| SolveRefused::new_err(refusal_text(&r)))?;
        let d = pyo3::types::PyDict::new(py);
        d.set_item("value", s.value.word())?;
        d.set_item("margin", s.margin)?;
        d.set_item("player", player_id(s.to_move))?;
        let actions = pyo3::types::PyDict::new(py);
        for &(k, v, m) in &s.moves {
            actions.set_item(k - 1, (v.word(), m))?;
        }
        d.set_item("actions", actions)?;
        let best: Vec<usize> = s.moves.iter().filter(|m| m.2 == s.margin).map(|m| m.0 - 1).collect();
        d.set_item("best", best)?;
        Ok(d)
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

/// See `State.observation_tensor`.
fn observation(game: &Game, pos: &Position) -> Vec<f32> {
    let total = game.seed_total(pos).max(1) as f32;
    let mut t = Vec::with_capacity(pos.board.cells.len() + 2);
    t.extend(pos.board.cells.iter().map(|&c| c as f32 / total));
    let south = f32::from(u8::from(pos.to_move == Player::South));
    t.extend([south, 1.0 - south]);
    t
}

/// Why the solver gave up, as a sentence that says what to do.
fn refusal_text(r: &Refusal) -> String {
    match r {
        Refusal::TooLarge { .. } | Refusal::TableFull { .. } | Refusal::Projected { .. } => {
            format!(
                "cannot solve this board: {r}; solve() is for small boards (fewer pits or seeds: load the game with pits=..., seeds=...)"
            )
        }
        Refusal::TooSlow { .. } | Refusal::TooLong { .. } => format!("cannot solve this board: {r}"),
        Refusal::Choices | Refusal::Rules(_) => format!("cannot solve this game: {r}"),
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

/// A computer player's name as the command line writes it (`alphabeta` is `alphabeta:6`); a name
/// that is no player raises `ValueError` with the list of players.
#[pyfunction]
fn player_name(player: &str) -> PyResult<String> {
    player.parse::<Spec>().map(|s| s.to_string()).map_err(PyValueError::new_err)
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
    m.add("SolveRefused", m.py().get_type::<SolveRefused>())?;
    m.add_function(wrap_pyfunction!(load, m)?)?;
    m.add_function(wrap_pyfunction!(shipped_games, m)?)?;
    m.add_function(wrap_pyfunction!(player_name, m)?)?;
    m.add_function(wrap_pyfunction!(run_cli, m)?)?;
    Ok(())
}
