"""sowlang: mancala-family sowing games from their rule files, under OpenSpiel's names.

>>> import sowlang
>>> game = sowlang.load("oware")          # a shipped game, a path to a .sow file, or rules as text
>>> state = game.new_initial_state()
>>> state.legal_actions()
[0, 1, 2, 3, 4, 5]
>>> state.apply_action(2)
>>> state.current_player()
1

The games built into the package are listed by ``sowlang.shipped_games()``; ``sowlang.load(name,
pits=5)`` sets a parameter of the rules. ``game.random_playouts(n, seed)`` plays ``n`` random games at
the engine's speed; ``state.computer_action("alphabeta:3", seed=1)`` asks a computer player for an
action and ``state.solve()`` solves a small board. ``sowlang.envs`` has a PettingZoo and a Gymnasium
environment (``pip install sowlang[envs]``).
"""

import sys as _sys

from ._sowlang import Game, SolveRefused, State, load, player_name, run_cli, shipped_games

__all__ = ["Game", "State", "SolveRefused", "load", "player_name", "shipped_games", "run_cli"]


def _command() -> None:
    """The ``sowlang`` command the package puts on PATH: the command line of the Rust program."""
    _sys.exit(run_cli(_sys.argv[1:]))
