"""OpenSpiel's own Oware and Kalah (`mancala`), from the open_spiel package, played side by side with
variants/reference/openspiel_oware.sow and openspiel_kalah.sow through the Python API: 1,000 random
games each, every state compared (player to move, legal actions, the seeds of every pit and store), then the
end and the returns."""

import json
import random

import pytest

import sowlang

pyspiel = pytest.importorskip("pyspiel")

GAMES = 1000


def cells(state):
    """South's pits, north's pits, south's store, north's store, as sowlang reports them."""
    p = json.loads(state.to_json())
    return p["pits"]["south"] + p["pits"]["north"] + [p["stores"]["south"], p["stores"]["north"]]


def oware_cells(theirs):
    # OpenSpiel's Oware observation: the 12 pits (player 0's, then player 1's) and the two scores,
    # each as a share of the 48 seeds.
    return [round(x * 48) for x in theirs.observation_tensor()]


def kalah_cells(theirs):
    # OpenSpiel's mancala board: [player 1's store, player 0's pits 1..6, player 0's store, player 1's pits].
    b = [int(x) for x in theirs.observation_tensor()]
    return b[1:7] + b[8:14] + [b[7], b[0]]


def side_by_side(spiel_name, ours_name, to_ours, board):
    theirs_game = pyspiel.load_game(spiel_name)
    ours_game = sowlang.load(ours_name)
    rng = random.Random(21)
    moves = 0
    for n in range(GAMES):
        theirs = theirs_game.new_initial_state()
        ours = ours_game.new_initial_state()
        while True:
            where = f"game {n}, move {ours.move_number()}"
            assert ours.is_terminal() == theirs.is_terminal(), where
            if theirs.is_terminal():
                # OpenSpiel gives no observation of a finished game (and leaves the last seeds where
                # they lie): the end is compared by its returns.
                assert list(ours.returns()) == list(theirs.returns()), where
                assert ours.current_player() == theirs.current_player() == -4, where
                break
            player = theirs.current_player()
            assert ours.current_player() == player, where
            assert board(theirs) == cells(ours), where
            legal = theirs.legal_actions()
            assert [to_ours(player, a) for a in legal] == ours.legal_actions(), where
            action = rng.choice(legal)
            theirs.apply_action(action)
            ours.apply_action(to_ours(player, action))
            moves += 1
    return moves


def test_oware_side_by_side():
    # OpenSpiel numbers each player's pits 0..5 from the player's own left, as sowlang's actions do.
    moves = side_by_side("oware", "openspiel_oware", lambda player, a: a, oware_cells)
    assert moves > GAMES * 20


def test_kalah_side_by_side():
    # OpenSpiel's mancala actions are board places: 1..6 for player 0, 8..13 for player 1.
    moves = side_by_side("mancala", "openspiel_kalah", lambda player, a: a - 1 - 7 * player, kalah_cells)
    assert moves > GAMES * 20
