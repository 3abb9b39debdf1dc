"""The reinforcement-learning environments (issue 21): PettingZoo's own API test and Gymnasium's own
environment checker on them, then what each promises about masks, turns, rewards and truncation."""

import numpy as np
import pytest

import sowlang

pettingzoo = pytest.importorskip("pettingzoo")
gymnasium = pytest.importorskip("gymnasium")

from gymnasium.utils.env_checker import check_env  # noqa: E402
from pettingzoo.test import api_test  # noqa: E402

from sowlang.envs import SowingAEC, SowingEnv  # noqa: E402


@pytest.mark.parametrize("name", ["oware", "kalah"])
def test_pettingzoo_api_test(name):
    # Kalah gives another move after a last seed in one's store: one agent steps twice in a row.
    api_test(SowingAEC(name, render_mode="ansi"), num_cycles=300)


@pytest.mark.parametrize("opponent", ["random", "greedy", "alphabeta:2", "mcts:20"])
def test_gymnasium_check_env(opponent):
    check_env(SowingEnv("oware", opponent=opponent), skip_render_check=True)
    check_env(SowingEnv("kalah", opponent=opponent, seat="north"), skip_render_check=True)


def test_aec_masks_and_turns():
    env = SowingAEC("kalah")
    env.reset()
    assert env.agent_selection == "south"
    obs, reward, terminated, truncated, info = env.last()
    assert obs["action_mask"].dtype == np.int8 and list(obs["action_mask"]) == [1] * 6
    # Only the player to move has legal actions.
    assert list(env.observe("north")["action_mask"]) == [0] * 6
    # Kalah, 4 seeds a pit: pit 3's last seed falls in south's store, so south moves again.
    env.step(2)
    assert env.agent_selection == "south"
    assert list(env.observe("south")["action_mask"]) == [1, 1, 0, 1, 1, 1]
    with pytest.raises(ValueError, match="cannot play action 2"):
        env.step(2)
    env.step(0)
    assert env.agent_selection == "north"


def test_aec_a_whole_game_pays_the_returns():
    env = SowingAEC("oware")
    env.reset(seed=3)
    rng = np.random.default_rng(3)
    total = {"south": 0.0, "north": 0.0}
    for agent in env.agent_iter():
        obs, reward, terminated, truncated, _ = env.last()
        total[agent] += reward
        if terminated or truncated:
            env.step(None)
            continue
        env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    r = env.state.returns()
    assert env.state.is_terminal() and total == {"south": r[0], "north": r[1]}
    assert sum(r) == 0


def test_truncation_at_the_move_limit():
    env = SowingAEC("oware", max_moves=4)
    env.reset()
    for _ in range(4):
        env.step(env.state.legal_actions()[0])
    assert all(env.truncations.values()) and not any(env.terminations.values())
    # The single-agent one: the agent's move and the opponent's reply make 2 moves each step.
    gym = SowingEnv("oware", opponent="random", max_moves=4)
    gym.reset(seed=0)
    assert gym.step(gym.state.legal_actions()[0])[2:4] == (False, False)
    obs, reward, terminated, truncated, info = gym.step(gym.state.legal_actions()[0])
    assert (reward, terminated, truncated) == (0.0, False, True)
    with pytest.raises(RuntimeError, match="reset"):
        gym.step(0)


def test_gym_opponent_moves_and_masks():
    env = SowingEnv("oware", opponent="alphabeta:3", seat="north")
    obs, info = env.reset(seed=5)
    # The opponent, south, has made the first move; north, the agent, is to move.
    assert env.state.current_player() == 1 and env.state.move_number() == 1
    assert obs.dtype == np.float32 and obs.shape == (16,) and list(obs[-2:]) == [0, 1]
    assert np.array_equal(info["action_mask"], env.action_masks()) and info["action_mask"].sum() == 6


@pytest.mark.parametrize("seat", [0, 1])
def test_gym_episode_reward_is_the_seats_return(seat):
    env = SowingEnv("kalah", opponent="greedy", seat=seat)
    obs, info = env.reset(seed=1)
    rng = np.random.default_rng(1)
    reward, terminated, truncated = 0.0, False, False
    while not (terminated or truncated):
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, terminated, truncated, info = env.step(action)
    # A decided game (not a draw), so that the other seat's return would differ.
    assert terminated and reward == env.state.returns()[seat] != 0
    assert list(info["action_mask"]) == [0] * 6
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)


def test_gym_illegal_action_loses():
    env = SowingEnv("kalah", opponent="random")
    env.reset(seed=0)
    env.step(2)  # the last seed in south's store: south moves again, pit 3 now empty
    obs, reward, terminated, truncated, info = env.step(2)
    assert (reward, terminated, info.get("illegal_action")) == (-1.0, True, True)
    # The episode is over: the next step asks for a reset, which starts again.
    with pytest.raises(RuntimeError, match="reset"):
        env.step(0)
    env.reset(seed=0)
    assert env.state.move_number() == 0 and env.step(0)[2] is False


def test_envs_refuse_bad_arguments():
    with pytest.raises(ValueError, match="players are"):
        SowingEnv("oware", opponent="minimax")
    with pytest.raises(ValueError, match="seat"):
        SowingEnv("oware", seat="east")
    with pytest.raises(ValueError, match="render_mode"):
        SowingAEC("oware", render_mode="rgb_array")
