"""Gymnasium's own env checker (`gymnasium.utils.env_checker.check_env`) on every registered Gymnasium id.

check_env steps with actions sampled from the action space, blind to the action mask. Under the default
`illegal_action="raise"` a sampled illegal action raises IllegalActionError, as it does under stable-baselines3's
checker; under `illegal_action="penalize"` it ends the episode with the penalty, and the checker passes. This is the
setting to run either checker with.
"""

from __future__ import annotations

import warnings

import gymnasium as gym
import pytest
from gymnasium.utils.env_checker import check_env

from envs.core.game import IllegalActionError
from envs.core.registration import registered_games

GYM_ENV_IDS = sorted(env_id for record in registered_games().values() for env_id in record.gym_env_ids)
"""Every registered Gymnasium id (solo games, and multi-player games against opponents)."""


@pytest.mark.parametrize("env_id", GYM_ENV_IDS)
def test_gymnasiums_check_env_passes_under_penalize(env_id: str) -> None:
    """check_env, render check included, passes without a warning when illegal actions are penalized."""
    env = gym.make(env_id, illegal_action="penalize", render_mode="rgb_array")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        check_env(env.unwrapped)
    assert [str(warning.message) for warning in caught] == []
    env.close()


def test_gymnasiums_check_env_meets_an_illegal_action_under_raise() -> None:
    """Under the default "raise", check_env's mask-blind samples reach an illegal action (the checker then stops with
    IllegalActionError, naming the action and the legal ones): the reason to run it under "penalize"."""
    refused = []
    for env_id in GYM_ENV_IDS:
        env = gym.make(env_id)
        try:
            check_env(env.unwrapped, skip_render_check=True)
        except IllegalActionError as error:
            refused.append(env_id)
            assert "legal actions are [" in str(error)
        env.close()
    assert refused
