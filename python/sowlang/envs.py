"""Environments for reinforcement learning over any sowlang game, with action masks.

- ``SowingAEC``: a PettingZoo AEC environment, the two players as agents ``"south"`` and ``"north"``;
  each observation is a dict ``{"observation": ..., "action_mask": ...}``, as PettingZoo's board games
  give it. Needs pettingzoo (``pip install '.[envs]'`` in the repository).
- ``SowingEnv``: a Gymnasium environment for one agent playing one seat against a computer player
  named as on the command line (``"random"``, ``"greedy"``, ``"alphabeta:3"``, ``"mcts:500"``); the
  mask of legal actions is in ``info["action_mask"]`` and ``env.action_masks()`` (what masked
  algorithms such as sb3-contrib's MaskablePPO ask for).

The observation is the state's ``observation_tensor()`` (every cell's seeds as a share of all seeds,
then who is to move), the actions are the game's fixed action space (``num_distinct_actions()``). A
game whose moves carry choices made during the move has no fixed action space and is refused.

A game can also stop without an end: the player to move has no legal move and no rule ends the game,
or ``max_moves`` moves were played. Both are a truncation, never a result.
"""

from __future__ import annotations

from typing import Any

import gymnasium
import numpy as np
from gymnasium import spaces

from ._sowlang import Game, load, player_name

AGENTS = ("south", "north")


def _load(game: str | Game, params: dict[str, int]) -> Game:
    if isinstance(game, Game):
        if params:
            raise ValueError("parameters are set when a game is loaded: sowlang.load(name, pits=5)")
        return game
    return load(game, **params)


def _seat(seat: str | int) -> int:
    if seat in (0, 1):
        return int(seat)
    if isinstance(seat, str) and seat.lower() in AGENTS:
        return AGENTS.index(seat.lower())
    raise ValueError(f"a seat is 'south' (0) or 'north' (1), not {seat!r}")


def _observation_space(game: Game) -> spaces.Box:
    return spaces.Box(low=0.0, high=1.0, shape=(game.observation_tensor_size(),), dtype=np.float32)


def _mask_space(game: Game) -> spaces.Box:
    return spaces.Box(low=0, high=1, shape=(game.num_distinct_actions(),), dtype=np.int8)


class SowingEnv(gymnasium.Env):
    """One agent at ``seat`` against the computer player ``opponent``; ``game`` is a loaded game, a
    shipped game's name, a path or rules as text, with ``params`` setting the rules' parameters.

    The reward is the agent's return at the end (+1 won, -1 lost, 0 drawn) and 0 before. An illegal
    action ends the episode as a loss (reward -1, ``info["illegal_action"]``), since a random action
    from the action space may be one; a masked agent never plays one. The opponent's random choices
    are drawn from the generator ``reset(seed=...)`` seeds.
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(
        self,
        game: str | Game = "oware",
        opponent: str = "random",
        seat: str | int = "south",
        max_moves: int | None = None,
        render_mode: str | None = None,
        **params: int,
    ) -> None:
        self.game = _load(game, params)
        self.seat = _seat(seat)
        self.max_moves = max_moves
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.render_mode = render_mode
        self.observation_space = _observation_space(self.game)
        self.action_space = spaces.Discrete(self.game.num_distinct_actions())
        self.opponent = player_name(opponent)
        self.state = self.game.new_initial_state()
        # The episode ended (a result, a truncation or an illegal action): step() wants a reset().
        self._over = False

    def _stopped(self) -> bool:
        """The game cannot go on: no legal move without an end, or the move limit reached."""
        if self.state.is_terminal():
            return False
        if not self.state.legal_actions():
            return True
        return self.max_moves is not None and self.state.move_number() >= self.max_moves

    def _opponent_moves(self) -> None:
        while not self.state.is_terminal() and not self._stopped() and self.state.current_player() != self.seat:
            seed = int(self.np_random.integers(0, 2**63))
            self.state.apply_action(self.state.computer_action(self.opponent, seed=seed))

    def _info(self, **extra: Any) -> dict[str, Any]:
        return {"action_mask": self.action_masks(), **extra}

    def action_masks(self) -> np.ndarray:
        """1 for each action the agent may play now, 0 for the others (all 0 at the end)."""
        if self.state.is_terminal() or self.state.current_player() != self.seat:
            return np.zeros(self.action_space.n, dtype=np.int8)
        return self.state.legal_actions_mask()

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        super().reset(seed=seed)
        self.state = self.game.new_initial_state()
        self._over = False
        self._opponent_moves()
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), self._info()

    def step(self, action):
        if self._over or self.state.is_terminal() or self._stopped():
            raise RuntimeError("the episode is over: call reset()")
        action = int(action)
        if action not in self.state.legal_actions():
            self._over = True
            return self.state.observation_tensor(), -1.0, True, False, self._info(illegal_action=True)
        self.state.apply_action(action)
        self._opponent_moves()
        terminated = self.state.is_terminal()
        truncated = self._stopped()
        self._over = terminated or truncated
        reward = float(self.state.returns()[self.seat]) if terminated else 0.0
        if self.render_mode == "human":
            self.render()
        return self.state.observation_tensor(), reward, terminated, truncated, self._info()

    def render(self):
        if self.render_mode == "ansi":
            return str(self.state)
        if self.render_mode == "human":
            print(self.state)
        return None


try:
    from pettingzoo import AECEnv
except ImportError:  # pettingzoo is an optional extra: SowingAEC says so when it is asked for
    AECEnv = None


if AECEnv is not None:

    class SowingAEC(AECEnv):
        """The two players of ``game`` as PettingZoo agents ``"south"`` and ``"north"``; ``game`` as
        for ``SowingEnv``. A player may move several times in a row where the rules give another
        move: ``agent_selection`` is always the player to move. The rewards come at the end, each
        player's return (+1, -1, or 0 for a draw). An illegal action raises ``ValueError`` and
        changes nothing.
        """

        metadata = {"render_modes": ["ansi", "human"], "name": "sowlang_v0", "is_parallelizable": False}

        def __init__(
            self, game: str | Game = "oware", max_moves: int | None = None, render_mode: str | None = None, **params: int
        ) -> None:
            super().__init__()
            self.game = _load(game, params)
            self.max_moves = max_moves
            if render_mode is not None and render_mode not in self.metadata["render_modes"]:
                raise ValueError(f"render_mode is one of {self.metadata['render_modes']}, not {render_mode!r}")
            self.render_mode = render_mode
            self.possible_agents = list(AGENTS)
            self.agents = list(AGENTS)
            observation = spaces.Dict({"observation": _observation_space(self.game), "action_mask": _mask_space(self.game)})
            actions = spaces.Discrete(self.game.num_distinct_actions())
            self._observation_spaces = {a: observation for a in AGENTS}
            self._action_spaces = {a: actions for a in AGENTS}
            self.state = self.game.new_initial_state()

        def observation_space(self, agent: str) -> spaces.Space:
            return self._observation_spaces[agent]

        def action_space(self, agent: str) -> spaces.Space:
            return self._action_spaces[agent]

        def observe(self, agent: str) -> dict[str, np.ndarray]:
            to_move = not self.state.is_terminal() and self.state.current_player() == AGENTS.index(agent)
            mask = self.state.legal_actions_mask() if to_move else np.zeros(self.game.num_distinct_actions(), np.int8)
            return {"observation": self.state.observation_tensor(), "action_mask": mask}

        def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
            self.state = self.game.new_initial_state()
            self.agents = list(AGENTS)
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
            self.terminations = dict.fromkeys(self.agents, False)
            self.truncations = dict.fromkeys(self.agents, False)
            self.infos = {a: {} for a in self.agents}
            self.agent_selection = AGENTS[0]
            self._settle()

        def _settle(self) -> None:
            """Ends, truncates or hands the turn on, after a reset or a move."""
            if self.state.is_terminal():
                returns = self.state.returns()
                for i, a in enumerate(AGENTS):
                    self.rewards[a] = float(returns[i])
                self.terminations = dict.fromkeys(self.agents, True)
                return
            stuck = not self.state.legal_actions()
            if stuck or (self.max_moves is not None and self.state.move_number() >= self.max_moves):
                self.truncations = dict.fromkeys(self.agents, True)
                return
            self.agent_selection = AGENTS[self.state.current_player()]

        def step(self, action) -> None:
            agent = self.agent_selection
            if self.terminations[agent] or self.truncations[agent]:
                self._was_dead_step(action)
                return
            action = int(action)
            if action not in self.state.legal_actions():
                raise ValueError(f"{agent} cannot play action {action}: legal actions are {self.state.legal_actions()}")
            self._cumulative_rewards[agent] = 0.0
            self.rewards = dict.fromkeys(self.agents, 0.0)
            self.state.apply_action(action)
            self._settle()
            self._accumulate_rewards()
            if self.render_mode == "human":
                self.render()

        def render(self):
            if self.render_mode == "ansi":
                return str(self.state)
            if self.render_mode == "human":
                print(self.state)
            return None

        def close(self) -> None:
            pass

else:

    class SowingAEC:  # type: ignore[no-redef]
        """Stands for the PettingZoo environment when pettingzoo is not installed."""

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            raise ImportError("SowingAEC needs pettingzoo: pip install 'sowlang[envs]' (or pip install pettingzoo)")


def env(game: str | Game = "oware", **kwargs: Any) -> SowingAEC:
    """PettingZoo's usual constructor name: ``sowlang.envs.env("kalah")``."""
    return SowingAEC(game, **kwargs)
