"""The PettingZoo env of Unearth as a user meets it: the explicit `illegal_action` honoured by the wrapped env,
actions outside the space refused by name, and a clear error for a step with no game in play."""

from __future__ import annotations

from collections.abc import Callable

import numpy as np
import pytest
from pettingzoo import AECEnv

from envs.adapters.pettingzoo_env import NoGameError
from envs.core.game import IllegalActionError
from envs.unearth import unearth_v0

MAKERS: dict[str, Callable[..., AECEnv]] = {"env": unearth_v0.env, "raw_env": unearth_v0.raw_env}


def first_illegal(aec: AECEnv) -> int:
    """The lowest action id the selected agent may not take now."""
    return int(np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"] == 0)[0])


def test_wrapped_env_honours_illegal_action_raise() -> None:
    """`env(illegal_action="raise")` raises IllegalActionError naming the action and the legal ones by label,
    as raw_env does; PettingZoo's TerminateIllegalWrapper (env()'s default) must not override the explicit kwarg."""
    aec = unearth_v0.env(illegal_action="raise")
    aec.reset(seed=1)
    illegal = first_illegal(aec)
    legal = np.flatnonzero(aec.observe(aec.agent_selection)["action_mask"])
    with pytest.raises(IllegalActionError) as raised:
        aec.step(illegal)
    message = str(raised.value)
    assert f"illegal action {illegal} ({aec.unwrapped.game.action_label(illegal)})" in message
    assert all(aec.unwrapped.game.action_label(int(action)) in message for action in legal)
    assert not any(aec.terminations.values())  # nothing changed: the caller may retry


def test_wrapped_env_penalizes_by_default() -> None:
    """env() without the kwarg is wrapped as PettingZoo classic: an illegal move ends the game, -1 for the offender."""
    aec = unearth_v0.env()
    aec.reset(seed=1)
    offender = aec.agent_selection
    aec.step(first_illegal(aec))  # PettingZoo's EnvLogger prints its warning
    assert all(aec.terminations.values()) and aec.rewards[offender] == -1.0


@pytest.mark.parametrize("maker", sorted(MAKERS))
@pytest.mark.parametrize("action", [999, 2**63])
def test_action_outside_the_space_is_refused_by_name(maker: str, action: int) -> None:
    """An id outside Discrete(N) is an IllegalActionError saying so, never a bare AssertionError or OverflowError."""
    aec = MAKERS[maker]()
    aec.reset(seed=1)
    with pytest.raises(IllegalActionError, match=rf"illegal action {action} \(out of range\); legal actions are"):
        aec.step(action)


def play_to_the_end(aec: AECEnv) -> None:
    """Random legal moves until every agent has stepped None (PettingZoo's AEC loop)."""
    rng = np.random.default_rng(0)
    for _agent in aec.agent_iter():
        observation, _reward, terminated, truncated, _info = aec.last()
        aec.step(None if terminated or truncated else int(rng.choice(np.flatnonzero(observation["action_mask"]))))


def test_raw_env_step_and_last_with_no_game_say_so() -> None:
    """raw_env's step before reset, and step or last after every agent stepped None, raise NoGameError (not a
    KeyError on 'player_0' or an AttributeError)."""
    aec = unearth_v0.raw_env()
    with pytest.raises(NoGameError, match="no game has started; call reset"):
        aec.step(0)
    aec.reset(seed=1)
    play_to_the_end(aec)
    with pytest.raises(NoGameError, match="the game is over"):
        aec.step(0)
    with pytest.raises(NoGameError, match="the game is over"):
        aec.last()


def test_wrapped_env_last_after_the_end_says_so() -> None:
    """env().last() after every agent stepped None raises NoGameError rather than a KeyError."""
    aec = unearth_v0.env()
    aec.reset(seed=1)
    play_to_the_end(aec)
    with pytest.raises(NoGameError, match="the game is over"):
        aec.last()
