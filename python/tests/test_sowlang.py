"""The Python package (issue 21): OpenSpiel's names over the engine, checked against the command line
it installs. Expected values are worked out by hand from the rule files."""

import json
import shutil
import subprocess

import numpy as np
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
    assert state.legal_actions_mask().tolist() == [1] * 6
    obs = state.observation_tensor()
    assert len(obs) == game.observation_tensor_size() == 12 + 2 + 2
    # 4 of the 48 seeds in each pit, none in the stores, south to move.
    assert obs[:12].tolist() == [pytest.approx(4 / 48)] * 12 and obs[12:].tolist() == [0, 0, 1, 0]
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


def test_arrays_are_numpy_and_own_their_data():
    state = sowlang.load("kalah").new_initial_state()
    obs, mask = state.observation_tensor(), state.legal_actions_mask()
    assert isinstance(obs, np.ndarray) and obs.dtype == np.float32 and obs.shape == (16,)
    assert isinstance(mask, np.ndarray) and mask.dtype == np.int8 and mask.shape == (6,)
    # Each array owns the engine's vector (no copy was made into a Python list): writable, and a new
    # one at every call.
    assert obs.flags.writeable and obs.flags.c_contiguous and state.observation_tensor() is not obs
    state.apply_action(2)  # pit 3: 4 seeds into pits 4, 5, 6 and the store; south moves again
    mask = state.legal_actions_mask()
    assert mask.tolist() == [1, 1, 0, 1, 1, 1]
    # A batch of observations filled in place, a row per state.
    batch = np.zeros((2, 16), dtype=np.float32)
    state.write_observation_tensor(batch[0])
    sowlang.load("kalah").new_initial_state().write_observation_tensor(batch[1])
    assert batch[0].tolist() == state.observation_tensor().tolist()
    # 48 seeds: pit 3 empty, pits 4-6 five each, south's store one (cells: south's pits, north's, stores).
    assert (batch[0][:14] * 48).round().tolist() == [4, 4, 0, 5, 5, 5] + [4] * 6 + [1, 0]
    assert batch[0][14:].tolist() == [1, 0]
    assert (batch[1] * 48).round().tolist()[:14] == [4] * 12 + [0, 0]
    with pytest.raises(ValueError, match="holds 15 numbers"):
        state.write_observation_tensor(np.zeros(15, dtype=np.float32))
    # A batch in one call: rows in the order of the states.
    game = sowlang.load("kalah")
    states = [game.new_initial_state() for _ in range(3)]
    states[2].apply_action(2)
    obs = game.observation_tensors(states)
    assert obs.shape == (3, 16) and obs.dtype == np.float32 and obs.flags.c_contiguous
    assert (obs[2, :14] * 48).round().tolist() == [4, 4, 0, 5, 5, 5] + [4] * 6 + [1, 0]
    assert obs[0].tolist() == states[0].observation_tensor().tolist()
    masks = game.legal_actions_masks(states)
    assert masks.shape == (3, 6) and masks.dtype == np.int8
    assert masks.tolist() == [[1] * 6, [1] * 6, [1, 1, 0, 1, 1, 1]]
    with pytest.raises(ValueError, match="state 1 is a state of"):
        game.observation_tensors([states[0], sowlang.load("oware").new_initial_state()])
    assert game.observation_tensors([]).shape == (0, 16)


def test_computer_players():
    # Kalah: south plays pit 5 (4 seeds: pit 6, the store, north's 1 and 2), north its pit 1 (5 seeds:
    # its pits 2-6). South's pit 5 is empty and north's pit 2, opposite, holds 6: south's pit 1 (4
    # seeds: pits 2-5) ends in pit 5 and captures 6 + 1. Every player sees it.
    state = sowlang.load("kalah").new_initial_state()
    state.apply_action(4)
    state.apply_action(0)
    assert json.loads(state.to_json())["pits"] == {"south": [4, 4, 4, 4, 0, 5], "north": [0, 6, 5, 5, 5, 5]}
    for player in ["greedy", "alphabeta:1", "alphabeta:4", "mcts:500"]:
        assert state.computer_action(player, seed=1) == 0, player
    assert state.computer_action("random", seed=4) == state.computer_action("random", seed=4)
    assert {state.computer_action("random", seed=k) for k in range(40)} == set(state.legal_actions())
    with pytest.raises(ValueError, match="players are"):
        state.computer_action("minimax")
    assert sowlang.player_name("alphabeta") == "alphabeta:6"


def test_solve_small_boards_and_refuse_large_ones():
    # Kalah with 2 pits of 1 seed a side. South's pit 2 sows into the store (another move); then pit
    # 1's seed ends in the empty pit 2 and takes it with north's pit 1 opposite: store 3. South's pits
    # are empty, the game ends and north keeps its last seed: 3 to 1, south wins by 2.
    solved = sowlang.load("kalah", pits=2, seeds=1).new_initial_state().solve()
    assert (solved["value"], solved["margin"], solved["player"], solved["best"]) == ("win", 2, 0, [1])
    assert solved["actions"][1] == ("win", 2)
    # The other opening, and a larger board, agree with `sowlang solve`.
    command = shutil.which("sowlang")
    for pits, seeds in [(2, 1), (3, 2)]:
        out = subprocess.run(
            [command, "solve", "kalah", "--set", f"pits={pits}", "--set", f"seeds={seeds}", "--json"],
            capture_output=True, text=True, check=True,
        )
        cli = json.loads(out.stdout)
        ours = sowlang.load("kalah", pits=pits, seeds=seeds).new_initial_state().solve()
        assert (ours["value"], ours["margin"]) == (cli["value"], cli["margin"])
        assert ours["actions"] == {m["pit"] - 1: (m["value"], m["margin"]) for m in cli["moves"]}
    # Oware's full board has about 1e13 placements of its seeds: refused at once, saying why.
    with pytest.raises(sowlang.SolveRefused, match="cannot solve this board: the board has up to"):
        sowlang.load("oware").new_initial_state().solve()
    assert issubclass(sowlang.SolveRefused, ValueError)
