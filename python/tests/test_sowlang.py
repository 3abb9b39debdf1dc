"""The Python package (issue 21): OpenSpiel's names over the engine, checked against the command line
it installs. Expected values are worked out by hand from the rule files."""

import json
import shutil
import subprocess

import pytest

import sowlang


def test_load_by_name_path_and_text(tmp_path):
    oware = sowlang.load("oware")
    assert oware.name == "Oware"
    assert "oware" in sowlang.shipped_games() and "openspiel_kalah" in sowlang.shipped_games()
    rules = 'game "Tiny"\nboard {\n  pits 3\n  seeds 1\n}\nend "empty" when no_moves remaining owner\n'
    assert sowlang.load(rules).name == "Tiny"
    path = tmp_path / "tiny.sow"
    path.write_text(rules)
    assert sowlang.load(str(path)).num_distinct_actions() == 3
    assert sowlang.load("oware", pits=5).num_distinct_actions() == 5
    with pytest.raises(ValueError, match="sow::check::"):
        sowlang.load('game "Broken"\nboard { pits 0 }\n')
    with pytest.raises(ValueError, match="cannot find the rule file"):
        sowlang.load("no_such_game")


def test_a_move_and_the_state_api():
    game = sowlang.load("oware")
    assert game.num_distinct_actions() == 6 and game.num_players() == 2
    state = game.new_initial_state()
    assert state.current_player() == 0
    assert state.legal_actions() == [0, 1, 2, 3, 4, 5]
    assert state.legal_actions_mask() == [1] * 6
    obs = state.observation_tensor()
    assert len(obs) == game.observation_tensor_size() == 12 + 2 + 2
    # 4 of the 48 seeds in each pit, none in the stores, south to move.
    assert obs[:12] == [pytest.approx(4 / 48)] * 12 and obs[12:] == [0, 0, 1, 0]
    copy = state.clone()
    state.apply_action(2)  # pit 3: one seed each into pits 4, 5, 6 and north's 1
    assert state.current_player() == 1 and copy.current_player() == 0
    assert json.loads(state.to_json())["pits"]["south"] == [4, 4, 0, 5, 5, 5]
    assert json.loads(copy.to_json())["pits"]["south"] == [4, 4, 4, 4, 4, 4]
    assert state.action_to_string(0) == "1"
    with pytest.raises(ValueError, match="not legal"):
        copy.apply_action(6)
    assert copy.legal_actions() == [0, 1, 2, 3, 4, 5]


def test_a_whole_game_ends_with_returns():
    state = sowlang.load("kalah").new_initial_state()
    while not state.is_terminal():
        state.apply_action(state.legal_actions()[-1])
    assert state.current_player() == -4 and state.legal_actions() == []
    r = state.returns()
    assert sum(r) == 0 and sorted(r) in ([-1, 1], [0, 0])
    with pytest.raises(ValueError, match="over"):
        state.apply_action(0)


def test_moves_agree_with_the_command_line():
    # The `sowlang` command the package put on PATH plays the same game.
    command = shutil.which("sowlang")
    assert command, "the package puts `sowlang` on PATH"
    state = sowlang.load("oware").new_initial_state()
    played = []
    for _ in range(30):
        if state.is_terminal():
            break
        action = state.legal_actions()[len(played) % len(state.legal_actions())]
        played.append(state.action_to_string(action))
        state.apply_action(action)
    out = subprocess.run(
        [command, "run", "oware", "--moves", ",".join(played), "--json"], capture_output=True, text=True, check=True
    )
    assert json.loads(out.stdout) == json.loads(state.to_json())
    listed = subprocess.run([command, "list"], capture_output=True, text=True, check=True).stdout
    assert "oware" in listed
    # The terminal game, from a pipe, and a usage error's exit code as the Rust program gives it.
    play = subprocess.run([command, "play", "oware", "--vs", "human", "--quiet"], input="3\nquit\n", capture_output=True, text=True)
    assert play.returncode == 0, play.stderr
    assert subprocess.run([command, "run"], capture_output=True).returncode == 2


def test_random_playouts_in_one_call():
    game = sowlang.load("oware")
    t = game.random_playouts(500, seed=7)
    assert t["south"] + t["north"] + t["draws"] + t["unfinished"] == 500
    assert t["moves"] > 500 * 20
    assert game.random_playouts(500, seed=7) == t
    assert game.random_playouts(500, seed=8) != t
