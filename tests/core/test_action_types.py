"""The rules core refuses what is no action id (issue 19, "Bad dicts cost nothing"): `State.apply_action(4.7)` used to
play 4. A Python int, a numpy integer or a 0-d integer array is an action id or a chance outcome; anything else raises
TypeError naming the value and the legal ones, at decisions and chance nodes alike, and the state is unchanged."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

from envs.core.game import CHANCE, Game, IllegalActionError, State
from envs.core.registration import make_game, registered_games
from tests.core.test_bad_input import NOT_ACTION_IDS, NOT_ACTIONS
from tests.core.test_checkers import DiceGame

GAMES = [(name, make_game(record, {})) for name, record in registered_games().items() if record.game is not None]
GAME_NAMES = [name for name, _ in GAMES]


def _first_decision(game: Game, seed: int = 5) -> State:
    """The game's first position where a seat decides (its setup's chance nodes sampled from `seed`)."""
    state = game.new_initial_state()
    rng = np.random.default_rng(seed)
    while state.current_player() == CHANCE:
        state.apply_action(state.sample_chance(rng))
    return state


@pytest.mark.parametrize("game", [game for _, game in GAMES], ids=GAME_NAMES)
@pytest.mark.parametrize("value", NOT_ACTIONS, ids=NOT_ACTION_IDS)
def test_a_decision_refuses_what_is_no_action_id(game: Game, value: Any) -> None:
    """At a decision a float, bool, string, None, list or array raises TypeError naming it and the legal actions."""
    state = _first_decision(game)
    before = state.to_dict()
    with pytest.raises(TypeError) as refused:
        state.apply_action(value)
    message = str(refused.value)
    assert message.startswith("an action must be an integer id ")
    assert f"got {value!r}"[:20] in message and f"({type(value).__name__})" in message
    first = state.legal_actions()[0]
    assert f"legal actions are [{first}: {game.action_label(first)}" in message
    assert state.to_dict() == before


@pytest.mark.parametrize("game", [game for _, game in GAMES], ids=GAME_NAMES)
@pytest.mark.parametrize("value", [4.0, 1.5, True, "0", np.float64(0.0)], ids=repr)
def test_a_chance_node_refuses_what_is_no_outcome(game: Game, value: Any) -> None:
    """At a chance node the same values are refused, naming the outcomes with their labels."""
    state = game.new_initial_state()
    rng = np.random.default_rng(2)
    while state.current_player() != CHANCE:  # a random game up to its first chance node
        assert not state.is_terminal(), f"a random game of {game.spec.name} ended without a chance node"
        legal = state.legal_actions()
        state.apply_action(legal[int(rng.integers(len(legal)))])
    before = state.to_dict()
    with pytest.raises(TypeError) as refused:
        state.apply_action(value)
    outcome = state.chance_outcomes()[0][0]
    assert f"legal actions are [{outcome}: {state.chance_label(outcome)}" in str(refused.value)
    assert state.to_dict() == before


def test_the_reported_case_4_point_7_is_not_played_as_4() -> None:
    """The dice toy after a roll of 3: "double" is action 1; 1.7 used to play it; now the full message says why not."""
    state = DiceGame().state_from_dict({"banked": [], "roll": 3})
    with pytest.raises(TypeError) as refused:
        state.apply_action(1.7)  # type: ignore[arg-type]
    assert str(refused.value) == (
        "an action must be an integer id (a Python int, a numpy integer or a 0-d integer array), got 1.7 (float); "
        "legal actions are [0: bank, 1: double]"
    )
    assert state.to_dict() == {"banked": [], "roll": 3}
    state.apply_action(1)
    assert state.to_dict() == {"banked": [3], "roll": 0}


@pytest.mark.parametrize(
    "value", [1, np.int64(1), np.int8(1), np.uint16(1), np.array(1), np.array(1, dtype=np.int32)], ids=repr
)
def test_integers_of_every_kind_play_the_same_move(value: Any) -> None:
    """A Python int, numpy integer scalars (what stable-baselines3 hands over) and 0-d integer arrays all play 1."""
    state = DiceGame().state_from_dict({"banked": [], "roll": 2})
    state.apply_action(value)
    assert state.to_dict() == {"banked": [4], "roll": 0}


def test_chance_outcomes_accept_numpy_integers() -> None:
    """A chance outcome given as a numpy integer (a sampler that returns one) is applied as the int."""
    state = DiceGame().new_initial_state()
    state.apply_action(np.int64(2))  # type: ignore[arg-type]
    assert state.to_dict() == {"banked": [], "roll": 2}


def test_integers_are_still_checked_for_legality() -> None:
    """An integer that is no legal outcome is still an IllegalActionError, as before."""
    state = DiceGame().new_initial_state()
    with pytest.raises(IllegalActionError, match="illegal action 7"):
        state.apply_action(np.int64(7))  # type: ignore[arg-type]
