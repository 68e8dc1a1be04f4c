"""API conformance of the generic Gymnasium adapter on every registered solo game (DESIGN.md, test kind 4)."""

from __future__ import annotations

import random
from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env as gym_check_env

from envs.core.game import IllegalActionError
from envs.core.registration import GameRecord, make_env_game, registered_games
from envs.core.testing import player_count_settings

ENV_IDS = sorted(
    env_id
    for record in registered_games().values()
    for env_id in record.gym_env_ids
    if make_env_game(env_id, {}).spec.num_players == 1  # by the seats: a solo id may sit beside a co-op module
)


ENV_CASES = [
    pytest.param(env_id, kwargs, id=f"{env_id}-{kwargs['num_players']}p" if kwargs else env_id)
    for record in registered_games().values()
    for env_id in record.gym_env_ids
    for kwargs in player_count_settings(record)
]
"""Every registered Gymnasium id (solo games and multi-player games' opponent envs) at every value of its record's
`num_players` setting (a record without that setting: its default)."""


@pytest.mark.parametrize(("env_id", "kwargs"), ENV_CASES)
@pytest.mark.parametrize("flat", [False, True])
def test_gymnasium_check_env(env_id: str, kwargs: dict[str, Any], flat: bool) -> None:
    """Gymnasium's own checker accepts the env (Dict and flat observation) of every game at every player count."""
    env = gym.make(env_id, flat=flat, illegal_action="penalize", **kwargs)  # the checker samples unmasked actions
    gym_check_env(env.unwrapped, skip_render_check=True)


@pytest.mark.parametrize(("env_id", "kwargs"), ENV_CASES)
def test_stable_baselines3_check_env(env_id: str, kwargs: dict[str, Any]) -> None:
    """stable-baselines3's checker accepts the flat env (Python float rewards, bool flags, Box obs)."""
    from stable_baselines3.common.env_checker import check_env as sb3_check_env

    sb3_check_env(gym.make(env_id, flat=True, illegal_action="penalize", **kwargs).unwrapped, warn=True)


@pytest.mark.parametrize(
    "record",
    [record for record in registered_games().values() if record.same_spaces_at_every_player_count],
    ids=lambda record: record.name,
)
@pytest.mark.parametrize("flat", [False, True])
def test_gymnasium_spaces_equal_at_every_player_count_where_promised(record: GameRecord, flat: bool) -> None:
    """A game that promises equal spaces at every player count has one observation and one action space for each
    of its Gymnasium ids at every count."""
    for env_id in record.gym_env_ids:
        spaces = set()
        for kwargs in player_count_settings(record):
            env = gym.make(env_id, flat=flat, **kwargs)
            spaces.add((repr(env.observation_space), repr(env.action_space)))
        assert len(spaces) == 1, f"{env_id}: spaces differ across player counts: {sorted(spaces)}"


def test_make_without_prior_import() -> None:
    """gymnasium.make('envs:tabletop/Unbroken-v0') imports the package first (Gymnasium 1.x has no autoload)."""
    env = gym.make("envs:tabletop/Unbroken-v0")
    observation, info = env.reset(seed=0)
    assert observation["action_mask"].sum() > 0


def _rollout(env_id: str, seed: int, disturb: bool, steps: int = 400) -> list:
    env = gym.make(env_id)
    policy = np.random.default_rng(1234)
    noise = np.random.default_rng(99)
    observation, info = env.reset(seed=seed)
    trajectory = [observation["observation"].tobytes()]
    for _ in range(steps):
        if disturb:  # global RNGs must not influence the env
            random.random()
            np.random.random(7)
            random.seed(int(noise.integers(1 << 30)))
            np.random.seed(int(noise.integers(1 << 30)))
        legal = np.flatnonzero(observation["action_mask"])
        action = int(legal[policy.integers(len(legal))])
        observation, reward, terminated, truncated, info = env.step(action)
        trajectory.append((action, reward, terminated, observation["observation"].tobytes()))
        if terminated or truncated:
            observation, info = env.reset()
            trajectory.append(observation["observation"].tobytes())
    return trajectory


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_same_seed_same_trajectory_with_global_rngs_disturbed(env_id: str) -> None:
    """Randomness only through reset(seed=...): same seed and actions give the same trajectory."""
    assert _rollout(env_id, 7, disturb=False) == _rollout(env_id, 7, disturb=True)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_different_seeds_differ(env_id: str) -> None:
    """The seed matters (the check above is not vacuous)."""
    assert _rollout(env_id, 1, disturb=False, steps=60) != _rollout(env_id, 2, disturb=False, steps=60)


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_mask_agrees_with_info_and_action_masks(env_id: str) -> None:
    """The mask is in the observation, in info, and from env.action_masks(); never all zero while playing."""
    env = gym.make(env_id)
    rng = np.random.default_rng(0)
    observation, info = env.reset(seed=3)
    for _ in range(300):
        mask = observation["action_mask"]
        assert mask.dtype == np.int8 and mask.sum() >= 1
        assert np.array_equal(mask, info["action_mask"])
        assert np.array_equal(mask.astype(bool), env.unwrapped.action_masks())
        legal = np.flatnonzero(mask)
        observation, reward, terminated, truncated, info = env.step(int(legal[rng.integers(len(legal))]))
        assert isinstance(reward, float) and isinstance(terminated, bool) and isinstance(truncated, bool)
        if terminated:
            assert observation["action_mask"].sum() == 0, "documented: the mask is all zero at the end"
            # +1 a win, -1 a loss, 0 otherwise (DESIGN.md: a draw, or a combat the hero fled)
            assert reward in (1.0, 0.0, -1.0) and "won" in info and "score" in info
            observation, info = env.reset()


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_action_raises_with_labels(env_id: str) -> None:
    """An illegal action raises IllegalActionError naming the action and listing the legal ones."""
    env = gym.make(env_id)
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    with pytest.raises(IllegalActionError) as error:
        env.step(illegal)
    message = str(error.value)
    game = env.unwrapped.game
    assert game.action_label(illegal) in message
    for legal in np.flatnonzero(observation["action_mask"]):
        assert game.action_label(int(legal)) in message


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_illegal_action_penalize_mode(env_id: str) -> None:
    """illegal_action='penalize': documented penalty (-1) and the episode terminates."""
    env = gym.make(env_id, illegal_action="penalize")
    observation, _ = env.reset(seed=0)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, terminated, truncated, info = env.step(illegal)
    assert reward == -1.0 and terminated and not truncated and info["illegal_action"] == illegal


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_render_modes(env_id: str) -> None:
    """ansi gives a readable table; rgb_array an HxWx3 uint8 picture."""
    env = gym.make(env_id, render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str) and text.strip()
    env = gym.make(env_id, render_mode="rgb_array")
    env.reset(seed=0)
    picture = env.render()
    assert picture.ndim == 3 and picture.shape[2] == 3 and picture.dtype == np.uint8 and picture.std() > 0


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_truncation_limit_registered(env_id: str) -> None:
    """A max_episode_steps truncation is registered."""
    assert gym.spec(env_id).max_episode_steps is not None


def test_spaces_are_the_same_objects() -> None:
    """Spaces are built once."""
    env = gym.make(ENV_IDS[0]).unwrapped
    assert env.observation_space is env.observation_space and env.action_space is env.action_space


def test_driver_history_replays_the_game_exactly() -> None:
    """The driver keeps every decision and chance outcome; applying them to a fresh state reaches the same state."""
    from envs.adapters.driver import GameDriver
    from envs.toys.card_duel import CardDuelGame

    game = CardDuelGame(num_players=3)
    driver = GameDriver(game)
    driver.seed(11)
    driver.reset()
    rng = np.random.default_rng(0)
    while not driver.over:
        driver.step(int(rng.choice(driver.legal)))
    state = game.new_initial_state()
    for player, action in driver.history:
        assert state.current_player() == player
        state.apply_action(action)
    assert state.to_dict() == driver.live_state().to_dict()
    assert sum(player == -1 for player, _ in driver.history) > 12  # the deal and the lead draws were recorded
