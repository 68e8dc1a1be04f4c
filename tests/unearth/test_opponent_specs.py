"""`gym.make("tabletop/Unearth-v0", opponents=[...])` as a user writes it: the strings `random` and `heuristic`
build their policies; any other form is refused at `make`, naming the accepted ones."""

from __future__ import annotations

import gymnasium as gym
import numpy as np
import pytest

import envs  # noqa: F401  (registers the ids)
from envs.adapters.opponents import RandomPolicy
from envs.core.registration import game_record, load_attribute


def play_randomly(env: gym.Env, seed: int) -> dict:
    """One episode of random legal learner moves; the final step's info."""
    _observation, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    while True:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        _observation, _reward, terminated, truncated, info = env.step(action)
        if terminated or truncated:
            return info


def test_string_opponents_build_the_random_policy_and_the_games_heuristic() -> None:
    """ "random" is RandomPolicy and "heuristic" the heuristic the game's record names; a game plays to its end."""
    env = gym.make("tabletop/Unearth-v0", opponents=["random", "heuristic"])
    policies = env.unwrapped.policies
    heuristic = load_attribute(game_record("unearth").heuristic)
    assert isinstance(policies[0], RandomPolicy)
    assert type(policies[1]) is type(heuristic(env.unwrapped.game))
    assert "won" in play_randomly(env, seed=3)


def test_string_heuristic_opponent_plays_as_the_built_agent() -> None:
    """The string "heuristic" and the agent built from the record play the same game on the same seed."""
    by_string = gym.make("tabletop/Unearth-v0", opponents=["heuristic"])
    heuristic = load_attribute(game_record("unearth").heuristic)(by_string.unwrapped.game)
    by_object = gym.make("tabletop/Unearth-v0", opponents=[heuristic])
    first, second = play_randomly(by_string, seed=5), play_randomly(by_object, seed=5)
    facts = ("seat_rewards", "score", "ruin_points", "wonder_points")
    assert [first[fact] for fact in facts] == [second[fact] for fact in facts]


@pytest.mark.parametrize(
    ("opponent", "error", "message"),
    [
        ("mcts:8", ValueError, r"opponent 'mcts:8': the env builds only the strings \['random', 'heuristic'\]"),
        ("heurstic", ValueError, r"opponent 'heurstic'"),
        (3, TypeError, r"an opponent must be a callable .* got 3 \(int\)"),
    ],
)
def test_other_opponent_forms_are_refused_at_make(opponent: object, error: type[Exception], message: str) -> None:
    """A spec the env cannot build is refused when the env is made (not later in reset), naming what it accepts."""
    with pytest.raises(error, match=message):
        gym.make("tabletop/Unearth-v0", opponents=[opponent])
