"""Unearth through the platform's adapters: PettingZoo's api_test and seed_test at 2, 3 and 4 players, the opponent
env under Gymnasium's checker, seeded determinism, and out-of-turn decisions as agent_selection changes."""

from __future__ import annotations

import warnings

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import envs  # noqa: F401 - registers tabletop/Unearth-v0
from envs.adapters.pettingzoo_env import agent_name
from envs.unearth.rules import UnearthState
from envs.unearth.unearth_v0 import env, raw_env

SEATS = [2, 3, 4]


@pytest.mark.parametrize("num_players", SEATS)
def test_pettingzoo_api_test(num_players: int) -> None:
    """PettingZoo's api_test accepts the wrapped env() and the bare raw_env() of every player count."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # Dict observations warn, as for every classic env with an action mask
        api_test(env(num_players=num_players), num_cycles=300)
        api_test(raw_env(num_players=num_players), num_cycles=300)


@pytest.mark.parametrize("num_players", SEATS)
def test_pettingzoo_seed_test(num_players: int) -> None:
    """PettingZoo's seed_test: two envs reset with the same seed play identically."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        seed_test(lambda: env(num_players=num_players), num_cycles=300)


def _trajectory(num_players: int, seed: int) -> list[tuple[str, bytes, float]]:
    aec = env(num_players=num_players)
    aec.reset(seed=seed)
    rng = np.random.default_rng(seed)
    steps = []
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        steps.append((agent, observation["observation"].tobytes(), reward))
        legal = np.flatnonzero(observation["action_mask"])
        aec.step(None if terminated or truncated else int(rng.choice(legal)))
    return steps


@pytest.mark.parametrize("num_players", SEATS)
def test_same_seed_same_game(num_players: int) -> None:
    """Randomness only through the seeded generator: the same seed and actions give the same whole game."""
    assert _trajectory(num_players, 5) == _trajectory(num_players, 5)
    assert _trajectory(num_players, 5) != _trajectory(num_players, 6)


def test_a_whole_game_ends_with_a_reward_for_every_seat() -> None:
    """At the end every seat gets its `win` reward (+1 sole winner, -1 others); the rewards of a 2-player game sum
    to 0 unless shared first place."""
    aec = env(num_players=2)
    aec.reset(seed=3)
    final: dict[str, float] = {}
    rng = np.random.default_rng(3)
    for agent in aec.agent_iter():
        observation, reward, terminated, truncated, _ = aec.last()
        if terminated or truncated:
            final[agent] = reward
            aec.step(None)
            continue
        aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    assert sorted(final.values()) in ([-1.0, 1.0], [0.0, 0.0])


def test_opponent_env_passes_gymnasiums_checker() -> None:
    """tabletop/Unearth-v0 (the learner's seat against random opponents) passes Gymnasium's env checker; it runs
    with illegal_action="penalize" because the checker samples actions without the mask."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        check_env(gym.make("tabletop/Unearth-v0", illegal_action="penalize").unwrapped, skip_render_check=True)


def test_opponent_env_renders_the_public_table() -> None:
    """The opponent env renders the public table as text and as a picture."""
    text_env = gym.make("tabletop/Unearth-v0", num_players=3, render_mode="ansi")
    text_env.reset(seed=0)
    assert "Ruin" in str(text_env.render())
    picture_env = gym.make("tabletop/Unearth-v0", render_mode="rgb_array")
    picture_env.reset(seed=0)
    picture = np.asarray(picture_env.render())
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.std() > 0


def test_a_decision_out_of_turn_is_an_agent_selection_change() -> None:
    """RULES.md, "Decisions out of turn": a seat that must decide during another seat's turn (a Stone for its die
    rerolled by another player's card, a Named Wonder's option) becomes `agent_selection` in the middle of that turn."""
    found = 0
    for seed in range(40):
        aec = raw_env(num_players=3)
        aec.reset(seed=seed)
        rng = np.random.default_rng(seed)
        for agent in aec.agent_iter():
            observation, _, terminated, truncated, _ = aec.last()
            if terminated or truncated:
                aec.step(None)
                continue
            state = aec._driver.live_state()
            assert isinstance(state, UnearthState)
            if agent_name(state.active) != agent:
                found += 1
                decision = state.decision()
                assert decision is not None and decision.seat != state.active
            aec.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
        if found >= 3:
            break
    assert found >= 3, "no out-of-turn decision in 40 random 3-player games"
