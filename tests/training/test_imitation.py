"""Behaviour cloning and DAgger (agents/training/imitation.py): what is recorded, and that fitting moves toward the
teacher."""

from __future__ import annotations

import numpy as np
import pytest

from agents.training.imitation import (
    Demonstrations,
    _accuracy,
    behaviour_clone,
    clone_batches,
    collect_demonstrations,
)

ENV_ID = "tabletop/Unbroken-v0"
GAMMA = 0.9


@pytest.fixture(scope="module")
def demonstrations() -> Demonstrations:
    """About 600 decisions of the Unbroken heuristic (one worker, seed 3)."""
    return collect_demonstrations(ENV_ID, {}, "heuristic", 600, seed=3, gamma=GAMMA)


def test_recorded_actions_are_the_teachers_legal_choices(demonstrations: Demonstrations) -> None:
    assert len(demonstrations) >= 600 and demonstrations.episodes >= 2
    observations = demonstrations.observations
    assert set(observations) == {"observation", "action_mask"}
    rows = np.arange(len(demonstrations))
    assert demonstrations.masks[rows, demonstrations.actions].all()
    np.testing.assert_array_equal(observations["action_mask"], demonstrations.masks)


def test_returns_are_the_discounted_final_reward(demonstrations: Demonstrations) -> None:
    """Unbroken pays +1/-1 only at the end, so the return t decisions before the end is gamma**t * (+-1)."""
    returns = demonstrations.returns
    ends = np.flatnonzero(np.isclose(np.abs(returns), 1.0))  # the last decision of each episode
    assert len(ends) == demonstrations.episodes
    first = ends[0]
    expected = np.sign(returns[first]) * GAMMA ** np.arange(first, -1, -1)
    np.testing.assert_allclose(returns[: first + 1], expected, rtol=1e-5)


def test_collection_repeats_per_seed(demonstrations: Demonstrations) -> None:
    again = collect_demonstrations(ENV_ID, {}, "heuristic", 600, seed=3, gamma=GAMMA)
    np.testing.assert_array_equal(again.actions, demonstrations.actions)
    np.testing.assert_array_equal(again.observations["observation"], demonstrations.observations["observation"])


def test_behaviour_cloning_raises_agreement_with_the_teacher(demonstrations: Demonstrations) -> None:
    import gymnasium as gym
    import torch
    from sb3_contrib import MaskablePPO

    import envs  # noqa: F401

    torch.manual_seed(0)
    model = MaskablePPO("MultiInputPolicy", gym.make(ENV_ID), policy_kwargs={"net_arch": [64]}, seed=0, device="cpu")
    before = _accuracy(model.policy, demonstrations, 512)
    fitted: list[int] = []
    report = behaviour_clone(
        model,
        demonstrations,
        epochs=25,
        batch_size=64,
        learning_rate=3e-3,
        value_coef=0.5,
        seed=0,
        progress=fitted.append,
    )
    assert fitted == [1] * clone_batches(len(demonstrations), 25, 64)  # every minibatch reported, for the bar
    assert report.train_accuracy > before + 0.2
    assert report.train_accuracy > 0.7
    assert report.decisions == len(demonstrations)


@pytest.mark.parametrize("workers", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_collection_reports_its_progress_and_records_the_same_data(workers: int) -> None:
    """The decisions recorded are reported as episodes end (from worker processes too, over a queue), up to the
    budget in all, and reporting changes nothing in the data."""
    told: list[int] = []
    data = collect_demonstrations(
        ENV_ID, {}, "heuristic", 300, seed=5, gamma=GAMMA, workers=workers, progress=told.append
    )
    assert sum(told) == 300 and len(told) >= 2 and len(data) >= 300
    quiet = collect_demonstrations(ENV_ID, {}, "heuristic", 300, seed=5, gamma=GAMMA, workers=workers)
    np.testing.assert_array_equal(quiet.actions, data.actions)
    np.testing.assert_array_equal(quiet.returns, data.returns)
